#!/usr/bin/env python3
"""A third-party cpumask_local_spread() and page pool for numaspread's protocol (spec/protocol.md).

Written as an outside implementer would: it sees only the protocol, never the Java model.
It claims local-spread for Linux 6.1 (the classic algorithm: local online CPUs, then the other
online CPUs, both ascending) and 6.12 (hop rings: CPUs grouped by NUMA distance level from the
node, ascending CPU id inside a ring; a CPU-less node is replaced by its nearest node with CPUs),
and page-pool for both (spec/page-pool.md: a pool that follows its NAPI's node, as a session).

Run it through the kit:  numaspread certify --impl process:'python3 examples/python/spread.py'
Requests come one JSON object per line on stdin; answers go to stdout; the log goes to stderr.
It speaks protocol 2 when the kit offers it: the kit then sends requests without waiting for
answers, so the program reads whatever has arrived, answers all of it, and flushes once.
With --protocol 1 it answers hello with protocol 1, as a program written before protocol 2.
"""
import json
import os
import sys

NUMA_NO_NODE = -1
CLAIMS = [{"routine": "local-spread", "kernel": "6.1"}, {"routine": "local-spread", "kernel": "6.12"},
          {"routine": "page-pool", "kernel": "6.1"}, {"routine": "page-pool", "kernel": "6.12"}]


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
        # For the page pool: the node of every possible CPU (offline ones are in nodeOf), and memory.
        self.node_of = {}
        for n in topo["nodes"]:
            for c in cpu_list(n["cpus"]):
                self.node_of[c] = n["id"]
        for extra in topo.get("nodeOf", []):
            for c in cpu_list(extra["cpus"]):
                self.node_of[c] = extra["node"]
        self.has_memory = {n["id"]: n.get("memMiB", -1) != 0 and not n.get("memless", False) for n in topo["nodes"]}
        self.has_cpus = {n["id"]: False for n in topo["nodes"]}
        for node in self.node_of.values():
            self.has_cpus[node] = True
        self.plans = {}   # (rings?, 6.7+?, node) -> the CPU of i for i in 0..len(online)-1, or a KernelBug

    def memory_node(self, node):
        """The node the page allocator takes memory from for node: itself, or the first node with
        memory of its zonelist (distance, +1 for a lower id, +1 for a node with CPUs; lowest id on a tie)."""
        if self.has_memory[node]:
            return node
        others = [n for n in sorted(self.has_memory) if n != node and self.has_memory[n]]
        if not others:
            return node
        return min(others, key=lambda n: (self.dist[(node, n)] + (1 if n < node else 0) + (1 if self.has_cpus[n] else 0), n))

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

    def plan(self, kernel, node):
        """One period of the spread: the CPU of every i below the number of online CPUs (it wraps there)."""
        key = (kernel >= (6, 3), kernel >= (6, 7), node)
        if key not in self.plans:
            try:
                self.plans[key] = rings(self, node, kernel) if kernel >= (6, 3) else classic(self, node)
            except KernelBug as bug:
                self.plans[key] = bug
        return self.plans[key]


def classic(m, node):
    """Linux 4.1-5.8 and 5.11-6.2: the node's online CPUs, then all the others, both ascending."""
    local = m.node_cpus.get(node, []) if node != NUMA_NO_NODE else []
    return local + [c for c in m.online if c not in set(local)]


def rings(m, node, kernel):
    """Linux 6.3+: ring by ring (distance levels from the node), ascending CPU id inside a ring."""
    if node == NUMA_NO_NODE:
        return list(m.online)
    if not m.node_cpus.get(node):
        if kernel < (6, 7):
            raise KernelBug("oops", "sched_numa_find_nth_cpu() dereferences the NULL masks of CPU-less node %d" % node)
        # numa_nearest_node(node, N_CPU): nearest by distance from the original node, ties to the lowest id.
        node = min(m.cpu_nodes(), key=lambda n: (m.dist[(node, n)], n))
    levels = m.levels()
    if levels is None:
        return [m.nr_cpu_ids] * len(m.online)
    plan = []
    for level in levels:
        seen = set(plan)
        plan += sorted(c for n in m.cpu_nodes() if m.dist[(node, n)] <= level for c in m.node_cpus[n] if c not in seen)
    return plan + [m.nr_cpu_ids] * (len(m.online) - len(plan))


# ---------------------------------------------------------------- page-pool (spec/page-pool.md)
#
# A page pool as a network driver's receive queue has it: an alloc cache (a stack), a ptr_ring (a
# queue), and the pool's node, which a tracking driver moves to numa_mem_id() of the CPU its NAPI
# polls on. Written from the spec's rules, not from the Java model.

ALLOCATOR = "page allocator"


class Pool:
    def __init__(self, kernel, m, create):
        self.kernel = kernel
        self.m = m
        self.nid = create["nid"]
        self.cpu = create["cpu"]
        self.cache_size = create["cache"]
        self.refill = create["refill"]
        self.pool_size = create["poolSize"]
        self.tracks = create["tracksNapiNode"]
        self.have_memoryless = create["haveMemorylessNodes"]
        self.cache = []          # top = last
        self.ring = []           # head = first
        self.in_use = {}
        self.released = {}
        self.next_id = 0

    def numa_mem_id(self, cpu):
        node = self.m.node_of[cpu]
        return self.m.memory_node(node) if self.have_memoryless else node

    def preferred(self):
        return self.numa_mem_id(self.cpu) if self.nid == NUMA_NO_NODE else self.nid

    def release(self, page):
        self.released[page["id"]] = page
        return page

    def update(self, nid):
        old, self.nid = self.nid, nid
        flushed = [self.release(p) for p in reversed(self.cache)]
        self.cache = []
        return {"what": "updated", "oldNid": old, "newNid": nid, "released": by_id(flushed)}

    def poll(self, cpu):
        self.cpu = cpu
        if self.tracks and self.numa_mem_id(cpu) != self.nid:
            return self.update(self.numa_mem_id(cpu))
        return {"what": "unchanged", "nid": self.nid}

    def serve(self, page, source, waived):
        self.in_use[page["id"]] = page
        return {"what": "served", "page": page, "from": source, "released": by_id(waived)}

    def alloc(self, reserve):
        if self.cache:
            return self.serve(self.cache.pop(), "alloc cache", [])
        waived = []
        if self.ring:
            pref = self.preferred()
            while self.ring and len(self.cache) < self.refill:
                page = self.ring.pop(0)
                if page["node"] != pref:
                    waived.append(self.release(page))
                    break
                self.cache.append(page)
            if self.cache:
                return self.serve(self.cache.pop(), "ptr_ring", waived)
        asked = self.numa_mem_id(self.cpu) if self.nid == NUMA_NO_NODE else self.nid
        node = self.m.memory_node(asked)
        count = self.refill if self.kernel >= (5, 13) else 1
        for _ in range(count):
            self.cache.append(page_of(self.next_id, node, reserve))
            self.next_id += 1
        return self.serve(self.cache.pop(), ALLOCATOR, waived)

    def put(self, page_id, shared, direct):
        if page_id not in self.in_use:
            raise ValueError("page %d is not in use" % page_id)
        page = self.in_use.pop(page_id)
        if shared or page.get("pfmemalloc"):
            return {"what": "put", "page": self.release(page), "to": ALLOCATOR}
        if direct and len(self.cache) < self.cache_size:
            self.cache.append(page)
            return {"what": "put", "page": page, "to": "alloc cache"}
        if len(self.ring) < self.pool_size:
            self.ring.append(page)
            return {"what": "put", "page": page, "to": "ptr_ring"}
        return {"what": "put", "page": self.release(page), "to": ALLOCATOR}

    def act(self, action):
        words = action.split()
        if words[0] == "poll":
            return self.poll(int(words[1]))
        if words[0] == "alloc":
            return self.alloc(len(words) > 1 and words[1] == "reserve")
        if words[0] in ("recycle", "free"):
            return self.put(int(words[1]), len(words) > 2 and words[2] == "shared", words[0] == "recycle")
        if words[0] == "update-nid":
            return self.update(int(words[1]))
        raise ValueError("unknown action %r" % action)

    def state(self):
        return {"nid": self.nid, "cpu": self.cpu, "cache": list(self.cache), "ptrRing": list(self.ring),
                "inUse": by_id(self.in_use.values()), "released": by_id(self.released.values())}


def page_of(page_id, node, pfmemalloc):
    page = {"id": page_id, "node": node}
    if pfmemalloc:
        page["pfmemalloc"] = True
    return page


def by_id(pages):
    return sorted(pages, key=lambda p: p["id"])


class KernelBug(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind
        self.message = message


def kernel_of(text):
    major, minor = text.split(".")[:2]
    return int(major), int(minor)


def page_pool(request, machines, pools):
    """A page pool session: create a pool under a name, then one action per request."""
    name = request["pool"]
    if "create" in request:
        if request["kernel"] not in ("6.1", "6.12"):
            return {"ok": False, "error": "unsupported", "message": "spread.py claims page-pool for 6.1 and 6.12 only"}
        m = machines.get(request["topology"])
        if m is None:
            return {"ok": False, "error": "invalid", "message": "unknown topology %r" % request["topology"]}
        pools[name] = Pool(kernel_of(request["kernel"]), m, request["create"])
        return {"ok": True}
    pool = pools.get(name)
    if pool is None:
        return {"ok": False, "error": "invalid", "message": "unknown page pool %r" % name}
    try:
        did = pool.act(request["action"])
    except ValueError as e:
        return {"ok": False, "error": "invalid", "message": str(e)}
    return {"ok": True, "did": did, "state": pool.state()}


def answer(request, machines, pools, protocol):
    op = request.get("op")
    if op == "hello":
        offered = request.get("protocol", 1)
        return {"ok": True, "protocol": min(offered, protocol), "name": "spread.py (Python example)", "claims": CLAIMS}
    if op == "topology":
        machines[request["name"]] = Machine(request["topology"])
        return {"ok": True}
    if op == "bye":
        return {"ok": True}
    if op == "page-pool":
        return page_pool(request, machines, pools)
    if op != "local-spread":
        return {"ok": False, "error": "unsupported", "message": "spread.py implements only local-spread and page-pool"}
    if request["kernel"] not in ("6.1", "6.12"):
        return {"ok": False, "error": "unsupported", "message": "spread.py claims 6.1 and 6.12 only"}
    m = machines.get(request["topology"])
    if m is None:
        return {"ok": False, "error": "invalid", "message": "unknown topology %r" % request["topology"]}
    plan = m.plan(kernel_of(request["kernel"]), request["node"])
    if isinstance(plan, KernelBug):
        return {"ok": True, "kernelBug": {"kind": plan.kind, "message": plan.message}}
    n = len(plan)
    return {"ok": True, "cpus": [plan[i % n] for i in request["i"]]}


def main():
    protocol = 1 if sys.argv[1:] == ["--protocol", "1"] else 2
    machines = {}
    pools = {}
    pending = b""
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return
        *lines, pending = (pending + chunk).split(b"\n")
        replies = []
        for line in lines:
            if not line.strip():
                continue
            request = json.loads(line)
            try:
                reply = answer(request, machines, pools, protocol)
            except Exception as e:  # a bug of ours: say so instead of dying silently
                reply = {"ok": False, "error": "internal", "message": "%s: %s" % (type(e).__name__, e)}
            reply["id"] = request.get("id")
            replies.append(json.dumps(reply, separators=(",", ":")))
            if request.get("op") == "bye":
                sys.stdout.write("\n".join(replies) + "\n")
                sys.stdout.flush()
                return
        if replies:
            sys.stdout.write("\n".join(replies) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
