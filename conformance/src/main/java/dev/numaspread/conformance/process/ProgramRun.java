package dev.numaspread.conformance.process;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.numaspread.conformance.json.TopologyJson;
import dev.numaspread.model.topology.TopoDocument;
import dev.numaspread.model.topology.Topology;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one run of the program holds: the machines registered in it (least recently used first,
 * at most {@value #MAX_TOPOLOGIES}) and the names of its page pools. A restarted program starts
 * with a new run: it knows no machine and no pool.
 */
final class ProgramRun {

    /** Machines registered at once in one run; registering one more reuses the least recently used name. */
    static final int MAX_TOPOLOGIES = 64;

    private final LinkedHashMap<Topology, Registration> machines = new LinkedHashMap<>(16, 0.75f, true);
    private int machineCounter;
    private final Map<String, Integer> pools = new TreeMap<>();   // name -> serial of the pool it names now (open sessions)
    private final TreeSet<Integer> freeNames = new TreeSet<>();   // numbers of closed pools' names, for reuse
    private int namesGiven;                                       // p1 .. p<namesGiven> have been given
    private int poolsCreated;

    /** A machine's name in this run, and the request that registered it. */
    record Registration(String name, Channel.Request request) {}

    /**
     * The machine's registration in this run, writing a {@code topology} request (not flushed)
     * when it has none. It runs inside the channel's batch, so a name reused for another machine
     * is registered again in the stream before any request that means the new machine.
     */
    Registration registration(Channel c, Topology machine) {
        Registration reg = machines.get(machine);
        if (reg != null) return reg;
        String t;
        if (machines.size() >= MAX_TOPOLOGIES) {
            Iterator<Registration> eldest = machines.values().iterator();
            t = eldest.next().name();
            eldest.remove();
        } else t = "t" + (++machineCounter);
        ObjectNode r = Channel.JSON.createObjectNode();
        r.put("op", "topology");
        r.put("name", t);
        r.set("topology", opaque(machine, t));
        reg = new Registration(t, c.write(r));
        machines.put(machine, reg);
        return reg;
    }

    /**
     * The JSON form of {@code machine} with nothing that tells where it came from: its name is
     * the opaque registration name and its source, notes and expectations are empty, so a program
     * cannot tell a fixture from a generated machine by a label.
     */
    static ObjectNode opaque(Topology machine, String name) {
        ObjectNode t = TopologyJson.toTree(TopoDocument.of(machine));
        t.put("name", name);
        t.put("source", "");
        t.putArray("notes");
        t.putArray("expect");
        return t;
    }

    // ------------------------------------------------------------ page pool names

    /** A page pool of this run: its name and the serial of its creation (a name comes back, a serial never). */
    record Pool(String name, int serial) {}

    /** A new pool's name: {@code p} and the lowest number no pool of the run holds. */
    synchronized Pool newPool() {
        int serial = ++poolsCreated;
        int number = freeNames.isEmpty() ? ++namesGiven : freeNames.pollFirst();
        return new Pool("p" + number, serial);
    }

    /** The program created {@code p}: its name is taken until {@link #close}. */
    synchronized void created(Pool p) {
        pools.put(p.name(), p.serial());
    }

    /** The program did not create {@code p}: its name is free again. */
    synchronized void notCreated(Pool p) {
        freeNames.add(number(p));
    }

    /** Whether {@code p} is open: created and not closed. */
    synchronized boolean isOpen(Pool p) {
        return Integer.valueOf(p.serial()).equals(pools.get(p.name()));
    }

    /** Closes {@code p} (once; a second close does nothing): its name is free again. */
    synchronized void close(Pool p) {
        if (isOpen(p)) {
            pools.remove(p.name());
            freeNames.add(number(p));
        }
    }

    private static int number(Pool p) {
        return Integer.parseInt(p.name().substring(1));
    }
}
