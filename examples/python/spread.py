#!/usr/bin/env python3
"""A third-party cpumask_local_spread() for numaspread's protocol 1 (spec/protocol.md).

Written as an outside implementer would: it sees only the protocol, never the Java model.
It claims local-spread for Linux 6.1 (the classic algorithm: local online CPUs, then the other
online CPUs, both ascending) and 6.12 (hop rings: CPUs grouped by NUMA distance level from the
node, ascending CPU id inside a ring; a CPU-less node is replaced by its nearest node with CPUs).

Run it through the kit:  numaspread certify --impl process:'python3 examples/python/spread.py'
Requests come one JSON object per line on stdin; answers go to stdout; the log goes to stderr.
"""
import json
import sys

NUMA_NO_NODE = -1
CLAIMS = [{"routine": "local-spread", "kernel": "6.1"}, {"routine": "local-spread", "kernel": "6.12"}]


def cpu_list(text):
    """The CPUs of a kernel list such as '0-3,8' (ascending)."""
    cpus = set()
    for piece in text.replace(" ", ",").split(","):
        if not piece:
            continue
        if "-" in piece:
            lo, hi = piece.split("-")
            cpus.update(range(int(lo), int(hi) + 1))
        else:
            cpus.add(int(piece))
    return sorted(cpus)


class Machine:
    def __init__(self, topo):
        self.online = cpu_list(topo["cpus"]["online"])
        self.nr_cpu_ids = max(cpu_list(topo["cpus"]["possible"])) + 1
        online = set(self.online)
        self.node_cpus = {n["id"]: [c for c in cpu_list(n["cpus"]) if c in online] for n in topo["nodes"]}
        order = topo["distances"]["order"]
        rows = topo["distances"]["rows"]
        self.dist = {(a, b): rows[i][j] for i, a in enumerate(order) for j, b in enumerate(order)}

    def cpu_nodes(self):
        """Nodes with online CPUs (the kernel's N_CPU state), ascending id."""
        return sorted(n for n, cpus in self.node_cpus.items() if cpus)

    def levels(self):
        """The distance levels: distinct distances among nodes with CPUs, ascending; None if any is out of range."""
        values = set()
        for a in self.cpu_nodes():
            for b in self.cpu_nodes():
                d = self.dist[(a, b)]
                if d < 10 or d > 255:
                    return None
                values.add(d)
        return sorted(values)


def classic(m, i, node):
    """Linux 4.1-5.8 and 5.11-6.2."""
    i %= len(m.online)
    local = m.node_cpus.get(node, []) if node != NUMA_NO_NODE else []
    order = local + [c for c in m.online if c not in set(local)]
    return order[i]


def rings(m, i, node, kernel):
    """Linux 6.3+: the i-th CPU counting ring by ring (distance levels from the node)."""
    i %= len(m.online)
    if node == NUMA_NO_NODE:
        return m.online[i]
    if not m.node_cpus.get(node):
        if kernel < (6, 7):
            raise KernelBug("oops", "sched_numa_find_nth_cpu() dereferences the NULL masks of CPU-less node %d" % node)
        # numa_nearest_node(node, N_CPU): nearest by distance from the original node, ties to the lowest id.
        node = min(m.cpu_nodes(), key=lambda n: (m.dist[(node, n)], n))
    levels = m.levels()
    if levels is None:
        return m.nr_cpu_ids
    previous = []
    for level in levels:
        mask = sorted(c for n in m.cpu_nodes() if m.dist[(node, n)] <= level for c in m.node_cpus[n])
        if len(mask) > i:
            ring = [c for c in mask if c not in set(previous)]
            return ring[i - len(previous)]
        previous = mask
    return m.nr_cpu_ids


class KernelBug(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind
        self.message = message


def kernel_of(text):
    major, minor = text.split(".")[:2]
    return int(major), int(minor)


def answer(request, machines):
    op = request.get("op")
    if op == "hello":
        return {"ok": True, "protocol": 1, "name": "spread.py (Python example)", "claims": CLAIMS}
    if op == "topology":
        machines[request["name"]] = Machine(request["topology"])
        return {"ok": True}
    if op == "bye":
        return {"ok": True}
    if op != "local-spread":
        return {"ok": False, "error": "unsupported", "message": "spread.py implements only local-spread"}
    kernel = kernel_of(request["kernel"])
    if request["kernel"] not in ("6.1", "6.12"):
        return {"ok": False, "error": "unsupported", "message": "spread.py claims 6.1 and 6.12 only"}
    m = machines.get(request["topology"])
    if m is None:
        return {"ok": False, "error": "invalid", "message": "unknown topology %r" % request["topology"]}
    node = request["node"]
    try:
        if kernel < (6, 3):
            cpus = [classic(m, i, node) for i in request["i"]]
        else:
            cpus = [rings(m, i, node, kernel) for i in request["i"]]
    except KernelBug as bug:
        return {"ok": True, "kernelBug": {"kind": bug.kind, "message": bug.message}}
    return {"ok": True, "cpus": cpus}


def main():
    machines = {}
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            reply = answer(request, machines)
        except Exception as e:  # a bug of ours: say so instead of dying silently
            reply = {"ok": False, "error": "internal", "message": "%s: %s" % (type(e).__name__, e)}
        reply["id"] = request.get("id")
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if request.get("op") == "bye":
            break


if __name__ == "__main__":
    main()
