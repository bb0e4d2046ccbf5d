/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The machines the kit registers (spec/protocol.md, op topology) and the current one, whose
 * masks, nodes and sibling and cluster masks the kernel's code reads through kshim.h.
 */
#ifndef KSHIM_MACHINE_H
#define KSHIM_MACHINE_H

#include <kshim.h>

#include "json.h"

struct machine {
	char *name;
	unsigned int nr_cpu_ids;   /* highest possible CPU + 1 */
	unsigned int nr_node_ids;  /* highest node id + 1 */
	nodemask_t nodes;          /* every node of the machine, CPU-less ones included */
	struct cpumask *possible, *present, *online;
	int *node_of;              /* per CPU id: its node, -1 when not possible */
	/* The SMT cores and the clusters, each split by node (TOPO-3, TOPO-15; clusters whole on arm64): per CPU the index of
	 * its group, and the CPUs of every group, ascending, group after group (start[g] .. start[g+1]). */
	int *core_of, *core_cpus, *core_start, cores;
	int *cluster_of, *cluster_cpus, *cluster_start, clusters;
	bool arm64;                /* "arch": "arm64": clusters whole across nodes, an offline CPU its own (TOPO-13) */
};

/* Reads the JSON form of a machine (spec/formats.md FMT-12) into m; false with a reason in error. */
bool machine_read(const struct json *t, struct machine *m, char *error, size_t size);

void machine_free(struct machine *m);

/* Makes m the machine the kernel's code sees: nr_cpu_ids, the masks, cpu_to_node(), the live
 * sibling and cluster masks. Cheap when m is already current. */
void machine_activate(const struct machine *m);

/* Reads a kernel CPU list ("0-3,8", "" for none) into m (cleared first); false with a reason. */
bool cpulist_parse(const char *text, struct cpumask *m, char *error, size_t size);

#endif
