package dev.numaspread.conformance.topogen;

import dev.numaspread.conformance.gen.Choices;
import dev.numaspread.conformance.gen.Gen;
import dev.numaspread.conformance.gen.Rewrites;
import dev.numaspread.model.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A generator of machines, in span {@code "machine"}, with two forms chosen by its first choice
 * ({@link Choices#pinned}): drawn (1, what random draws take: the realistic or edge-case shapes of
 * {@link Machines}) and literal (0, {@link MachineCode}: the machine element by element, so a
 * shrunk machine never goes back to the drawn form, which is less simple). The
 * shrinker rewrites a failing drawn machine into its literal form and goes on there, where
 * deleting a span removes a CPU, and also tries the machine without each node, core and CPU
 * ({@link Rewrites}). Within a small scope ({@link Choices#smallScope()}) it enumerates every
 * machine of {@link SmallMachines} instead, one choice over all of them; those outside its options
 * are discarded.
 */
public final class MachineGen implements Gen<Topology> {

    private final Gen<Topology> drawn;
    private final Machines.Options options;

    MachineGen(Gen<Topology> drawn, Machines.Options options) {
        this.drawn = drawn;
        this.options = options;
    }

    /** The narrowing this generator draws under ({@link Machines.Options}). */
    public Machines.Options options() {
        return options;
    }

    @Override
    public Topology generate(Choices c) {
        if (c instanceof Machines.Pooled p) return fromPool(p);
        c.startSpan("machine");
        if (c.smallScope().isPresent()) {
            try {
                // One index into the one list of the scope, whatever the options, so an index names
                // one machine for every generator (Property.exhaust counts machines by it).
                List<Topology> all = SmallMachines.upTo(c.smallScope().getAsInt());
                Topology m = all.get(c.choose(0, all.size() - 1));
                if (!options.admits(m)) throw new Gen.Unsatisfiable("the small machine is outside " + options);
                return m;
            } finally {
                c.endSpan();
            }
        }
        boolean literal = c.pinned(0, 1, 1) == 0;
        Topology m;
        try {
            m = literal ? MachineCode.read(c) : drawn.generate(c);
            // A literal machine stays within the narrowing the check asked for (SMT, two nodes, ...).
            if (literal && !options.admits(m)) throw new Gen.Unsatisfiable("the literal machine is outside " + options);
        } catch (RuntimeException e) {
            c.endSpan();
            throw e;
        }
        c.endSpan(new Literal(m));
        return m;
    }

    /**
     * A machine of the pool (certify --topology's machine, or a booted kernel's), in span
     * {@code "machine"}: one choice over the machines the options admit, so shrinking moves to the
     * first. When the pool grows, a first choice says which form follows, as for drawn machines:
     * pool (1, what tries draw) or literal (0, where the shrinker goes), a literal machine being
     * made ready by {@link MachinePool#grow} before the try runs on it.
     */
    private Topology fromPool(Machines.Pooled p) {
        MachinePool pool = p.pool();
        p.startSpan("machine");
        Topology m;
        try {
            boolean literal = pool.grows() && p.pinned(0, 1, 1) == 0;
            if (literal) {
                Topology wanted = MachineCode.read(p);
                if (!options.admits(wanted)) throw new Gen.Unsatisfiable("the literal machine is outside " + options);
                m = pool.grow(wanted).orElseThrow(() -> new Gen.Unsatisfiable("the pool cannot make the literal machine ready"));
            } else {
                List<Topology> admitted = pool.machines().stream().filter(t -> pool.admits(options, t)).toList();
                if (admitted.isEmpty()) {
                    p.uses().refused(options.text());
                    throw new Gen.Unsatisfiable("no machine of the pool is within " + options);
                }
                m = admitted.get(admitted.size() == 1 ? 0 : p.choose(0, admitted.size() - 1));
            }
        } catch (RuntimeException e) {
            p.endSpan();
            throw e;
        }
        p.uses().gave(m);
        if (pool.grows()) p.endSpan(new Literal(m));
        else p.endSpan();
        return m;
    }

    /**
     * {@code own} (a generator that builds its machines itself, as {@link SncDraws} does) made to give,
     * under a {@link MachinePool}, a machine of the pool that {@code kind} accepts, picked by a choice;
     * a draw whose pool holds none is discarded, and says so in {@code kindText}.
     */
    public static Gen<Topology> poolOr(Gen<Topology> own, java.util.function.Predicate<Topology> kind, String kindText) {
        return c -> {
            if (!(c instanceof Machines.Pooled p)) return own.generate(c);
            List<Topology> fit = p.pool().machines().stream().filter(kind).toList();
            if (fit.isEmpty()) {
                p.uses().refused(kindText);
                throw new Gen.Unsatisfiable("no machine of the pool is " + kindText);
            }
            p.startSpan("machine");
            Topology m = fit.get(fit.size() == 1 ? 0 : p.choose(0, fit.size() - 1));
            p.endSpan();
            p.uses().gave(m);
            return m;
        };
    }

    /** The literal forms of one machine and of the machines one removal simpler; computed when the shrinker asks. */
    static final class Literal implements Rewrites {
        private final Topology machine;

        Literal(Topology machine) {
            this.machine = machine;
        }

        Topology machine() {
            return machine;
        }

        @Override
        public Optional<int[]> literalForm() {
            return MachineCode.shapeOf(machine).map(s -> withForm(MachineCode.write(s)));
        }

        @Override
        public List<int[]> simplerForms() {
            List<int[]> out = new ArrayList<>();
            Optional<MachineCode.Shape> shape = MachineCode.shapeOf(machine);
            if (shape.isPresent())
                for (MachineCode.Shape s : MachineCode.removals(shape.get())) out.add(withForm(MachineCode.write(s)));
            return out;
        }

        static int[] withForm(int[] body) {
            int[] out = new int[body.length + 1];
            System.arraycopy(body, 0, out, 1, body.length);
            out[0] = 0;   // the literal form
            return out;
        }
    }
}
