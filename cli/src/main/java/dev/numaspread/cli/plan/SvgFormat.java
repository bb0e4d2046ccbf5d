package dev.numaspread.cli.plan;

import dev.numaspread.conformance.picture.Placement;
import dev.numaspread.conformance.picture.PlacementPicture;
import dev.numaspread.model.kernel.Numa;
import dev.numaspread.model.numa.ArchSchedNodeDistance;

import java.util.List;

/**
 * {@code svg}: the placement drawn ({@link PlacementPicture}): nodes nearest to the device first,
 * each CPU labelled with its slots; several releases are drawn next to each other.
 */
public final class SvgFormat implements PlanFormat {

    @Override
    public String name() {
        return "svg";
    }

    @Override
    public boolean takesSeveralReleases() {
        return true;
    }

    @Override
    public String render(List<Planned> plans) {
        PlanRequest r = plans.get(0).request();
        List<Placement> p = plans.stream().map(Planned::placement).toList();
        int slots = p.get(0).slots().size();
        String caption = r.routine().id() + " on " + r.machine().name() + (r.node() == Numa.NUMA_NO_NODE ? "" : ", device on node " + r.node())
                + ", " + slots + " " + p.get(0).word() + (slots == 1 ? "" : "s");
        // Each panel's node headers show the distance its release placed by (LVL-6).
        List<ArchSchedNodeDistance> distances = plans.stream().map(x -> TableFormat.shownDistance(x.request())).toList();
        return PlacementPicture.svg(r.machine(), r.node(), p, caption, "np", distances);
    }
}
