package dev.numaspread.conformance.certify;

import java.util.concurrent.ThreadFactory;

/** Threads of the kit's pools (checks side by side, lanes, boots, compiles): named, and never keeping the JVM alive. */
public final class DaemonThreads {

    private DaemonThreads() {}

    /** A factory of daemon threads called {@code name}. */
    public static ThreadFactory named(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
