// SPDX-License-Identifier: GPL-2.0
/* The machines the kit registers, and the current one: see machine.h. */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>

unsigned int nr_cpu_ids = 1;
unsigned int nr_node_ids = 1;
nodemask_t node_possible_map;
struct cpumask __cpu_possible_mask, __cpu_present_mask, __cpu_online_mask;
cpumask_var_t irq_default_affinity;
int *kshim_node_of_cpu;
struct cpumask *kshim_sibling_masks;
struct cpumask *kshim_cluster_masks;

static const struct machine *current;
static unsigned int mask_capacity;   /* CPUs the two per-CPU mask arrays have room for */

bool cpulist_parse(const char *text, struct cpumask *m, char *error, size_t size)
{
	const char *p = text;

	memset(m, 0, sizeof(*m));
	if (!*p)
		return true;
	for (;;) {
		char *end;
		long lo, hi;

		if (*p < '0' || *p > '9')
			goto bad;
		lo = strtol(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				goto bad;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi >= NR_CPUS) {
			snprintf(error, size, "cpu list '%s': range %ld-%ld is empty or past NR_CPUS %d", text, lo, hi, NR_CPUS);
			return false;
		}
		for (long c = lo; c <= hi; c++)
			m->bits[BIT_WORD(c)] |= BIT_MASK(c);
		if (!*p)
			return true;
		if (*p++ != ',')
			goto bad;
	}
bad:
	snprintf(error, size, "cpu list '%s' at '%s'; expected a list such as 0-7,128-135", text, p);
	return false;
}

static bool member_list(const struct json *t, const char *key, const char *field, struct cpumask *m, char *error, size_t size)
{
	const struct json *v = json_get(t, key);
	char why[200];

	if (!v || v->type != JSON_STRING) {
		snprintf(error, size, "%s is missing or no string; expected a CPU list", field);
		return false;
	}
	if (!cpulist_parse(v->string, m, why, sizeof(why))) {
		snprintf(error, size, "%s: %s", field, why);
		return false;
	}
	return true;
}

static bool integer(const struct json *v, long long lo, long long hi, long long *out)
{
	if (!v || v->type != JSON_NUMBER || !v->integral || v->integer < lo || v->integer > hi)
		return false;
	*out = v->integer;
	return true;
}

struct keyed {
	long long key;
	int node, cpu;
};

static int by_key_node_cpu(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* Groups the possible CPUs by key[cpu] and by node: of[cpu] is the group, cpus/start list them. */
static bool group(struct machine *m, const long long *key, bool by_node, int **of, int **cpus, int **start, int *count)
{
	unsigned int n = cpumask_weight(m->possible), i = 0, c;
	struct keyed *k = malloc((n ? n : 1) * sizeof(*k));
	int groups = 0;

	*of = malloc(m->nr_cpu_ids * sizeof(int));
	*cpus = malloc((n ? n : 1) * sizeof(int));
	*start = malloc((n + 1) * sizeof(int));
	if (!k || !*of || !*cpus || !*start) {
		free(k);
		return false;
	}
	for (c = 0; c < m->nr_cpu_ids; c++) {
		(*of)[c] = -1;
		if (cpumask_test_cpu((int)c, m->possible))
			k[i++] = (struct keyed){ key[c], by_node ? m->node_of[c] : 0, (int)c };
	}
	qsort(k, n, sizeof(*k), by_key_node_cpu);
	for (i = 0; i < n; i++) {
		if (i == 0 || k[i].key != k[i - 1].key || k[i].node != k[i - 1].node)
			(*start)[groups++] = (int)i;
		(*cpus)[i] = k[i].cpu;
		(*of)[k[i].cpu] = groups - 1;
	}
	(*start)[groups] = (int)n;
	*count = groups;
	free(k);
	return true;
}

/* Puts the CPUs of the list t.cpus (field names it) on node; false with a reason. */
static bool place(struct machine *m, const struct json *t, const char *field, int node, struct cpumask *scratch,
		  char *error, size_t size)
{
	unsigned int c;

	if (!member_list(t, "cpus", field, scratch, error, size))
		return false;
	for_each_cpu(c, scratch) {
		if (c >= m->nr_cpu_ids) {
			snprintf(error, size, "%s holds cpu %u, which is not possible", field, c);
			return false;
		}
		m->node_of[c] = node;
	}
	return true;
}

bool machine_read(const struct json *t, struct machine *m, char *error, size_t size)
{
	const struct json *cpus = json_get(t, "cpus"), *nodes = json_get(t, "nodes"), *node_of = json_get(t, "nodeOf");
	const struct json *smt = json_get(t, "smt"), *clusters = json_get(t, "clusters"), *numbering, *arch;
	struct cpumask *scratch = malloc(sizeof(*scratch));
	long long *key = NULL, id, width = 1, stride = 1;
	unsigned int c;
	bool ok = false;

	memset(m, 0, sizeof(*m));
	m->possible = calloc(1, sizeof(struct cpumask));
	m->present = calloc(1, sizeof(struct cpumask));
	m->online = calloc(1, sizeof(struct cpumask));
	if (!scratch || !m->possible || !m->present || !m->online) {
		snprintf(error, size, "out of memory");
		goto out;
	}
	if (!cpus || cpus->type != JSON_OBJECT) {
		snprintf(error, size, "/cpus is missing; expected {\"possible\":...,\"present\":...,\"online\":...}");
		goto out;
	}
	/* Until nr_cpu_ids is known, mask operations look at every CPU id. */
	nr_cpu_ids = NR_CPUS;
	if (!member_list(cpus, "possible", "/cpus/possible", m->possible, error, size)
	    || !member_list(cpus, "present", "/cpus/present", m->present, error, size)
	    || !member_list(cpus, "online", "/cpus/online", m->online, error, size))
		goto out;
	if (cpumask_empty(m->possible)) {
		snprintf(error, size, "/cpus/possible is empty; expected at least one possible CPU");
		goto out;
	}
	m->nr_cpu_ids = cpumask_last(m->possible) + 1;
	m->node_of = malloc(m->nr_cpu_ids * sizeof(int));
	key = malloc(m->nr_cpu_ids * sizeof(*key));
	if (!m->node_of || !key) {
		snprintf(error, size, "out of memory");
		goto out;
	}
	for (c = 0; c < m->nr_cpu_ids; c++)
		m->node_of[c] = -1;

	/* nodes[].cpus are the online CPUs of each node, nodeOf the node of the others. */
	if (!nodes || nodes->type != JSON_ARRAY || nodes->count == 0) {
		snprintf(error, size, "/nodes is missing or empty; expected the machine's nodes");
		goto out;
	}
	for (size_t i = 0; i < nodes->count; i++) {
		char field[64];

		snprintf(field, sizeof(field), "/nodes/%zu/cpus", i);
		if (!integer(json_get(nodes->items[i], "id"), 0, MAX_NUMNODES - 1, &id)) {
			snprintf(error, size, "/nodes/%zu/id is no node id 0-%d", i, MAX_NUMNODES - 1);
			goto out;
		}
		node_set(id, m->nodes);
		if (id + 1 > m->nr_node_ids)
			m->nr_node_ids = (unsigned int)id + 1;
		if (!place(m, nodes->items[i], field, (int)id, scratch, error, size))
			goto out;
	}
	for (size_t i = 0; node_of && node_of->type == JSON_ARRAY && i < node_of->count; i++) {
		char field[64];

		snprintf(field, sizeof(field), "/nodeOf/%zu/cpus", i);
		if (!integer(json_get(node_of->items[i], "node"), 0, MAX_NUMNODES - 1, &id) || !node_isset(id, m->nodes)) {
			snprintf(error, size, "/nodeOf/%zu/node is no node of /nodes", i);
			goto out;
		}
		if (!place(m, node_of->items[i], field, (int)id, scratch, error, size))
			goto out;
	}
	for (c = 0; c < m->nr_cpu_ids; c++) {
		if (cpumask_test_cpu((int)c, m->possible) && m->node_of[c] < 0) {
			snprintf(error, size, "cpu %u is possible but in no node; expected a node for every possible CPU", c);
			goto out;
		}
	}

	/* SMT cores (spec/formats.md FMT-7): a key per CPU that its siblings share. */
	numbering = smt ? json_get(smt, "numbering") : NULL;
	if (!numbering || numbering->type != JSON_STRING) {
		snprintf(error, size, "/smt/numbering is missing; expected none, adjacent, stride or siblings");
		goto out;
	}
	if (!strcmp(numbering->string, "adjacent") || !strcmp(numbering->string, "stride")) {
		if (!integer(json_get(smt, "width"), 1, 64, &width)) {
			snprintf(error, size, "/smt/width is no width 1-64");
			goto out;
		}
	}
	if (!strcmp(numbering->string, "stride") && !integer(json_get(smt, "stride"), 1, NR_CPUS, &stride)) {
		snprintf(error, size, "/smt/stride is no stride 1-%d", NR_CPUS);
		goto out;
	}
	for (c = 0; c < m->nr_cpu_ids; c++) {
		if (!strcmp(numbering->string, "adjacent"))
			key[c] = c / width;                                  /* thread c mod W of core c / W */
		else if (!strcmp(numbering->string, "stride"))
			key[c] = c - ((c / stride) % width) * stride;       /* the core's first thread */
		else
			key[c] = c;                                          /* none; siblings: below */
	}
	if (!strcmp(numbering->string, "siblings")) {
		const struct json *groups = json_get(smt, "groups");

		for (size_t i = 0; groups && groups->type == JSON_ARRAY && i < groups->count; i++) {
			char why[200];
			unsigned int first;

			if (groups->items[i]->type != JSON_STRING || !cpulist_parse(groups->items[i]->string, scratch, why, sizeof(why))) {
				snprintf(error, size, "/smt/groups/%zu is no CPU list", i);
				goto out;
			}
			first = cpumask_first(scratch);
			for_each_cpu(c, scratch)
				if (c < m->nr_cpu_ids)
					key[c] = first;
		}
	} else if (strcmp(numbering->string, "none") && strcmp(numbering->string, "adjacent") && strcmp(numbering->string, "stride")) {
		snprintf(error, size, "/smt/numbering is '%s'; expected none, adjacent, stride or siblings", numbering->string);
		goto out;
	}
	nr_cpu_ids = m->nr_cpu_ids;
	if (!group(m, key, true, &m->core_of, &m->core_cpus, &m->core_start, &m->cores)) {
		snprintf(error, size, "out of memory");
		goto out;
	}

	/* The architecture (FMT-12's "arch", x86 when absent): it decides the live cluster masks (TOPO-13). */
	arch = json_get(t, "arch");
	if (arch && arch->type == JSON_STRING && strcmp(arch->string, "arm64") == 0)
		m->arm64 = true;
	else if (arch && !(arch->type == JSON_STRING && strcmp(arch->string, "x86") == 0)) {
		snprintf(error, size, "/arch is neither \"x86\" nor \"arm64\"");
		goto out;
	}

	/* Clusters (TOPO-12): the listed ones, or each SMT core; split by node as x86 does (TOPO-15),
	 * whole on arm64, which matches package and cluster ids only. */
	for (c = 0; c < m->nr_cpu_ids; c++)
		key[c] = m->core_of[c];
	if (clusters && clusters->type == JSON_ARRAY && clusters->count > 0) {
		for (c = 0; c < m->nr_cpu_ids; c++)
			key[c] = -1 - (long long)c;
		for (size_t i = 0; i < clusters->count; i++) {
			char why[200];

			nr_cpu_ids = NR_CPUS;
			if (clusters->items[i]->type != JSON_STRING || !cpulist_parse(clusters->items[i]->string, scratch, why, sizeof(why))) {
				snprintf(error, size, "/clusters/%zu is no CPU list", i);
				goto out;
			}
			nr_cpu_ids = m->nr_cpu_ids;
			for_each_cpu(c, scratch)
				key[c] = (long long)i;
		}
	}
	if (!group(m, key, !m->arm64, &m->cluster_of, &m->cluster_cpus, &m->cluster_start, &m->clusters)) {
		snprintf(error, size, "out of memory");
		goto out;
	}
	ok = true;
out:
	free(scratch);
	free(key);
	if (current)
		nr_cpu_ids = current->nr_cpu_ids;
	if (!ok)
		machine_free(m);
	return ok;
}

void machine_free(struct machine *m)
{
	if (current == m)
		current = NULL;
	free(m->name);
	free(m->possible);
	free(m->present);
	free(m->online);
	free(m->node_of);
	free(m->core_of);
	free(m->core_cpus);
	free(m->core_start);
	free(m->cluster_of);
	free(m->cluster_cpus);
	free(m->cluster_start);
	memset(m, 0, sizeof(*m));
}

/* The live masks of one kind of group: per online CPU, its group's online CPUs; empty otherwise. */
static void live_masks(const struct machine *m, struct cpumask *masks, const int *cpus, const int *start, int groups)
{
	struct cpumask live;

	memset(masks, 0, m->nr_cpu_ids * sizeof(*masks));
	for (int g = 0; g < groups; g++) {
		memset(&live, 0, sizeof(live));
		for (int i = start[g]; i < start[g + 1]; i++)
			if (cpumask_test_cpu(cpus[i], m->online))
				cpumask_set_cpu((unsigned int)cpus[i], &live);
		for (int i = start[g]; i < start[g + 1]; i++)
			if (cpumask_test_cpu(cpus[i], m->online))
				cpumask_copy(&masks[cpus[i]], &live);
	}
}

void machine_activate(const struct machine *m)
{
	if (current == m)
		return;
	if (m->nr_cpu_ids > mask_capacity) {
		free(kshim_sibling_masks);
		free(kshim_cluster_masks);
		kshim_sibling_masks = malloc(m->nr_cpu_ids * sizeof(struct cpumask));
		kshim_cluster_masks = malloc(m->nr_cpu_ids * sizeof(struct cpumask));
		if (!kshim_sibling_masks || !kshim_cluster_masks) {
			fprintf(stderr, "kshim: out of memory for the masks of %u CPUs\n", m->nr_cpu_ids);
			exit(70);
		}
		mask_capacity = m->nr_cpu_ids;
	}
	nr_cpu_ids = m->nr_cpu_ids;
	nr_node_ids = m->nr_node_ids;
	node_possible_map = m->nodes;
	memcpy(&__cpu_possible_mask, m->possible, sizeof(struct cpumask));
	memcpy(&__cpu_present_mask, m->present, sizeof(struct cpumask));
	memcpy(&__cpu_online_mask, m->online, sizeof(struct cpumask));
	memset(irq_default_affinity, 0, sizeof(struct cpumask));
	for (unsigned int c = 0; c < nr_cpu_ids; c++)
		cpumask_set_cpu(c, irq_default_affinity);
	kshim_node_of_cpu = m->node_of;
	live_masks(m, kshim_sibling_masks, m->core_cpus, m->core_start, m->cores);
	live_masks(m, kshim_cluster_masks, m->cluster_cpus, m->cluster_start, m->clusters);
	if (m->arm64) {
		/* arm64 keeps every possible CPU's cluster mask as the CPU itself until it comes online
		 * and sets it back on offline (drivers/base/arch_topology.c): never empty (TOPO-13). */
		for (unsigned int c = 0; c < m->nr_cpu_ids; c++)
			if (cpumask_test_cpu((int)c, m->possible) && !cpumask_test_cpu((int)c, m->online))
				cpumask_set_cpu(c, &kshim_cluster_masks[c]);
	}
	current = m;
}
