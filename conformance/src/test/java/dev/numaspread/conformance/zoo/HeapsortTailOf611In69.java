package dev.numaspread.conformance.zoo;

/**
 * M12b: 6.9 and 6.10 sorted with 6.11's heapsort, which settles the final two or three entries
 * after the loop with one comparison (41ed78043508) instead of popping them one by one
 * (0e02ca29a563's loop). They differ only for an odd number of entries whose last two tie: three
 * nodes of equal size come out 2, 1, 0 instead of 1, 2, 0. The model read 6.9 this way until
 * issue 22, so only GRP-10 with the three variants rejects it.
 */
final class HeapsortTailOf611In69 extends GroupingZooMember.Slipped {
    HeapsortTailOf611In69() { super(SlippedGrouping.Slip.HEAPSORT_OF_611_IN_69); }
}
