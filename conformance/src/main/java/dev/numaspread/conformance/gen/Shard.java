package dev.numaspread.conformance.gen;

/**
 * One share of a run split for a CI matrix ({@code certify --shard K/N}): of the tries of a random
 * property, and of the cases of an exhaustive one, shard {@code K} of {@code N} takes those whose
 * ordinal (0, 1, 2, ... in the run's fixed order) leaves remainder {@code K - 1} divided by
 * {@code N}. Every ordinal has exactly one remainder, so every try and every case belongs to exactly
 * one shard, and the shards together are the whole run. {@link #WHOLE} ({@code 1/1}) takes all.
 *
 * @param index 1..count
 * @param count how many shards the run is split into, at least 1
 */
public record Shard(int index, int count) {

    /** The whole run: {@code 1/1}. */
    public static final Shard WHOLE = new Shard(1, 1);

    /** Most shards of one run. */
    public static final int MAX_COUNT = 10_000;

    public Shard {
        if (count < 1 || count > MAX_COUNT)
            throw new IllegalArgumentException("shard " + index + "/" + count + ": found " + count + " shards; expected 1 to " + MAX_COUNT);
        if (index < 1 || index > count)
            throw new IllegalArgumentException("shard " + index + "/" + count + ": found shard " + index + "; expected 1 to " + count);
    }

    /**
     * The shard {@code K/N} reads.
     *
     * @throws IllegalArgumentException {@code shard '3': expected K/N, such as 2/8 (shard 2 of 8)}
     */
    public static Shard parse(String text) {
        String t = text.strip();
        int slash = t.indexOf('/');
        if (slash < 0 || !t.substring(0, slash).matches("[0-9]{1,9}") || !t.substring(slash + 1).matches("[0-9]{1,9}"))
            throw new IllegalArgumentException("shard '" + text + "': expected K/N, such as 2/8 (shard 2 of 8)");
        return new Shard(Integer.parseInt(t.substring(0, slash)), Integer.parseInt(t.substring(slash + 1)));
    }

    /** True when the try or case of {@code ordinal} belongs to this shard. */
    public boolean owns(long ordinal) {
        if (ordinal < 0) throw new IllegalArgumentException("ordinal " + ordinal + "; expected at least 0");
        return ordinal % count == index - 1;
    }

    /** How many of the ordinals {@code 0..total-1} this shard owns: its share of {@code total} tries. */
    public int shareOf(int total) {
        if (total <= index - 1) return 0;
        return (total - index) / count + 1;
    }

    /** True for {@code 1/1}. */
    public boolean isWhole() {
        return count == 1;
    }

    /** {@code 2/8}. */
    @Override
    public String toString() {
        return index + "/" + count;
    }
}
