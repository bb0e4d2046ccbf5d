package dev.numaspread.model.topology;

/**
 * STUB of the kit branch, to be replaced by the formats branch: a parsed {@code .topo} file.
 * Only {@link #topology()} is relied on by the kit.
 */
public record TopoDocument(Topology topology) {}
