// SPDX-License-Identifier: GPL-2.0
/*
 * numaspread probe: asks the running kernel how it spreads CPUs over NUMA nodes.
 *
 * Written for numaspread (https://github.com/numaspread) from the documented interfaces of the
 * routines it calls; no kernel code is copied here. It registers /dev/numaspread_probe: each
 * write() carries whole request lines, each read() returns one answer line per request, in order.
 *
 *   ls NODE COUNT                cpumask_local_spread(i, NODE) for i = 0..COUNT-1
 *   lvl                          sched_domains_numa_distance[0 .. sched_domains_numa_levels-1]
 *   lvlmask NODE                 sched_domains_numa_masks[level][NODE] for each level
 *   hop NODE                     the cumulative masks for_each_numa_hop_mask(mask, NODE) yields
 *                                (the release's macro itself, on the exported sched_numa_hop_mask())
 *   nth NODE N CPUS              sched_numa_find_nth_cpu(CPUS, N, NODE)
 *   closest ONCPU PREV K CPU CPUS ...
 *                                K calls sched_numa_find_closest(CPUS, CPU), in order, on ONCPU,
 *                                whose distribute_cpu_mask_prev is set to PREV first (-1: left alone)
 *   nearest NODE                 numa_nearest_node(NODE, N_CPU)
 *   grp NUMGRPS                  group_cpus_evenly(NUMGRPS[, &nummasks])
 *   mq QUEUES OFFSET             blk_mq_map_queues() of a map of QUEUES queues from OFFSET
 *   irq NVECS PRE POST NSETS SIZE...
 *                                irq_create_affinity_masks(NVECS, {PRE, POST, sets})
 *   nodes                        cpu_to_node(cpu) of every possible CPU, by CPU id (sysfs lists a
 *                                node's online CPUs only: a CPU that is not present shows nowhere)
 *   hparm NUMGRPS [selftest-lock]
 *                                registers a dynamic CPU hotplug state (CPUHP_AP_ONLINE_DYN) whose
 *                                startup callback, the next time a CPU comes online, calls
 *                                group_cpus_evenly(NUMGRPS[, &nummasks]) once (spec/hotplug.md HP-6);
 *                                selftest-lock: inside cpus_read_lock(), as 6.3 to 6.5 did, so that
 *                                the host's tests see a deadlock reported as one
 *   hpdone                       removes that state and answers "CPU LOCK NUMMASKS MASKS" (or
 *                                "CPU LOCK null"): the CPU whose online ran the callback, and LOCK
 *                                "held" when cpus_read_trylock() failed in the callback (the hotplug
 *                                lock was held for writing as the routine ran), else "free"
 *   have                         which of the above this kernel has
 *   selftest-bug                 BUG(): the host's tests check that an oops is seen as one
 *
 * CPUS is a CPU list in the kernel's syntax (0-3,8), or "." for the empty set. Answers start
 * with "ok" or "err"; masks are lists ("." when empty) separated by "|".
 *
 * Most of these functions are not exported to modules (sched_numa_find_closest,
 * irq_create_affinity_masks, the 6.1 backport of group_cpus_evenly, the NUMA level variables), so
 * every routine is found by name through kallsyms_lookup_name(), whose own address is learned
 * from a kprobe registered on it (it is unexported since 5.7); only the hop masks are walked with
 * the release's own macro. A routine's form (group_cpus_evenly with or without nummasks) is read
 * from the release's headers by Kbuild, so that a stable backport is taken for what it is.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/init.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/uaccess.h>
#include <linux/mutex.h>
#include <linux/cpumask.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/topology.h>
#include <linux/nodemask.h>
#include <linux/kprobes.h>
#include <linux/interrupt.h>
#include <linux/blk-mq.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/err.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/utsname.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("numaspread probe: the kernel's CPU spreading routines, asked live");

/* ------------------------------------------------------------------ symbols */

typedef unsigned long (*lookup_fn)(const char *name);
static lookup_fn lookup;

typedef unsigned int (*local_spread_fn)(unsigned int i, int node);
typedef int (*find_nth_fn)(const struct cpumask *cpus, int cpu, int node);
typedef int (*find_closest_fn)(const struct cpumask *cpus, int cpu);
typedef int (*nearest_node_fn)(int node, unsigned int state);
#ifdef PROBE_GROUP_CPUS_NUMMASKS
typedef struct cpumask *(*group_cpus_fn)(unsigned int numgrps, unsigned int *nummasks);
#else
typedef struct cpumask *(*group_cpus_fn)(unsigned int numgrps);
#endif
typedef void (*map_queues_fn)(struct blk_mq_queue_map *qmap);
typedef struct irq_affinity_desc *(*affinity_masks_fn)(unsigned int nvecs, struct irq_affinity *affd);

static local_spread_fn p_local_spread;
static find_nth_fn p_find_nth;
static find_closest_fn p_find_closest;
static nearest_node_fn p_nearest_node;
static group_cpus_fn p_group_cpus;
static map_queues_fn p_map_queues;
static affinity_masks_fn p_affinity_masks;
static int *p_numa_levels;
static int **p_numa_distance;
static struct cpumask ****p_numa_masks;
static int __percpu *p_distribute_prev;

static unsigned long find_lookup(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long addr;

	if (register_kprobe(&kp) < 0)
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

static void find_symbols(void)
{
	p_local_spread = (local_spread_fn)lookup("cpumask_local_spread");
	p_find_nth = (find_nth_fn)lookup("sched_numa_find_nth_cpu");
	p_find_closest = (find_closest_fn)lookup("sched_numa_find_closest");
	p_nearest_node = (nearest_node_fn)lookup("numa_nearest_node");
#ifdef PROBE_GROUP_CPUS_H
	p_group_cpus = (group_cpus_fn)lookup("group_cpus_evenly");
#endif
	p_map_queues = (map_queues_fn)lookup("blk_mq_map_queues");
#ifdef PROBE_IRQ_CALC_SETS
	p_affinity_masks = (affinity_masks_fn)lookup("irq_create_affinity_masks");
#endif
	p_numa_levels = (int *)lookup("sched_domains_numa_levels");
	p_numa_distance = (int **)lookup("sched_domains_numa_distance");
	p_numa_masks = (struct cpumask ****)lookup("sched_domains_numa_masks");
	p_distribute_prev = (int __percpu *)lookup("distribute_cpu_mask_prev");
}

/* ------------------------------------------------------------------ answers */

struct answer {
	char *buf;
	size_t len, cap;
	bool failed;	/* out of memory: the whole write fails with -ENOMEM */
};

static bool grow(struct answer *a, size_t more)
{
	size_t cap = max(a->cap * 2, a->len + more + 4096);
	char *b;

	if (a->failed)
		return false;
	b = kvmalloc(cap, GFP_KERNEL);
	if (!b) {
		a->failed = true;
		return false;
	}
	if (a->len)
		memcpy(b, a->buf, a->len);
	kvfree(a->buf);
	a->buf = b;
	a->cap = cap;
	return true;
}

static __printf(2, 3) void put(struct answer *a, const char *fmt, ...)
{
	va_list args;
	size_t room;
	int n;

	for (;;) {
		if (a->failed)
			return;
		room = a->cap - a->len;
		va_start(args, fmt);
		n = vsnprintf(a->buf ? a->buf + a->len : NULL, room, fmt, args);
		va_end(args);
		if (a->buf && n < room) {
			a->len += n;
			return;
		}
		if (!grow(a, n + 1))
			return;
	}
}

static void put_mask(struct answer *a, const struct cpumask *m)
{
	if (cpumask_empty(m))
		put(a, ".");
	else
		put(a, "%*pbl", cpumask_pr_args(m));
}

/* ------------------------------------------------------------------ requests */

/* The next space-separated word of *line, or NULL at its end. */
static char *word(char **line)
{
	char *w;

	do {
		w = strsep(line, " ");
	} while (w && !*w);
	return w;
}

static int int_word(char **line, int *v)
{
	char *w = word(line);

	return w ? kstrtoint(w, 10, v) : -EINVAL;
}

static int mask_word(char **line, struct cpumask *m)
{
	char *w = word(line);

	if (!w)
		return -EINVAL;
	if (!strcmp(w, ".")) {
		cpumask_clear(m);
		return 0;
	}
	return cpulist_parse(w, m);
}

static bool node_ok(int node)
{
	return node == NUMA_NO_NODE || (node >= 0 && node < nr_node_ids && node_online(node));
}

static void do_local_spread(char *line, struct answer *a)
{
	int node, count, i;

	if (int_word(&line, &node) || int_word(&line, &count) || count < 0 || !node_ok(node)) {
		put(a, "err invalid: ls NODE COUNT with an online node or -1");
		return;
	}
	put(a, "ok");
	for (i = 0; i < count; i++)
		put(a, " %u", p_local_spread(i, node));
}

static void do_levels(struct answer *a)
{
	int i, levels = READ_ONCE(*p_numa_levels);
	int *d = READ_ONCE(*p_numa_distance);

	put(a, "ok");
	for (i = 0; d && i < levels; i++)
		put(a, " %d", d[i]);
}

static void do_level_masks(char *line, struct answer *a)
{
	int i, node, levels = READ_ONCE(*p_numa_levels);
	struct cpumask ***masks = READ_ONCE(*p_numa_masks);

	if (int_word(&line, &node) || node < 0 || !node_ok(node)) {
		put(a, "err invalid: lvlmask NODE with an online node");
		return;
	}
	put(a, "ok ");
	for (i = 0; masks && i < levels; i++) {
		if (i)
			put(a, "|");
		if (masks[i] && masks[i][node])
			put_mask(a, masks[i][node]);
		else
			put(a, ".");
	}
}

#ifdef PROBE_HOP_MACRO
/* The release's own for_each_numa_hop_mask(): it yields cpu_online_mask for NUMA_NO_NODE. */
static void do_hops(char *line, struct answer *a)
{
	const struct cpumask *mask;
	bool first = true;
	int node;

	if (int_word(&line, &node) || !node_ok(node)) {
		put(a, "err invalid: hop NODE with an online node or -1");
		return;
	}
	put(a, "ok ");
	rcu_read_lock();
	for_each_numa_hop_mask(mask, node) {
		if (!first)
			put(a, "|");
		put_mask(a, mask);
		first = false;
	}
	rcu_read_unlock();
}
#endif

static void do_nth(char *line, struct answer *a, struct cpumask *cpus)
{
	int node, n;

	if (int_word(&line, &node) || int_word(&line, &n) || mask_word(&line, cpus) || !node_ok(node)) {
		put(a, "err invalid: nth NODE N CPUS");
		return;
	}
	put(a, "ok %d", p_find_nth(cpus, n, node));
}

struct closest_calls {
	int prev, count;
	int *cpu;
	struct cpumask **cpus;
	int *result;
};

/* Runs on the chosen CPU, in a kworker bound to it: the per-CPU cursor is that CPU's. */
static int closest_on_cpu(void *arg)
{
	struct closest_calls *c = arg;
	int i;

	if (c->prev >= 0 && p_distribute_prev)
		*this_cpu_ptr(p_distribute_prev) = c->prev;
	for (i = 0; i < c->count; i++)
		c->result[i] = p_find_closest(c->cpus[i], c->cpu[i]);
	return 0;
}

static void do_closest(char *line, struct answer *a)
{
	struct closest_calls c = {};
	int on, i, err = 0;

	if (int_word(&line, &on) || int_word(&line, &c.prev) || int_word(&line, &c.count) || c.count < 0 || c.count > 65536
	    || on < 0 || on >= nr_cpu_ids || !cpu_online(on)) {
		put(a, "err invalid: closest ONCPU PREV K CPU CPUS ... on an online CPU");
		return;
	}
	c.cpu = kcalloc(c.count + 1, sizeof(int), GFP_KERNEL);
	c.result = kcalloc(c.count + 1, sizeof(int), GFP_KERNEL);
	c.cpus = kcalloc(c.count + 1, sizeof(*c.cpus), GFP_KERNEL);
	if (!c.cpu || !c.result || !c.cpus) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < c.count; i++) {
		c.cpus[i] = kmalloc(cpumask_size(), GFP_KERNEL);
		if (!c.cpus[i]) {
			err = -ENOMEM;
			goto out;
		}
		if (int_word(&line, &c.cpu[i]) || mask_word(&line, c.cpus[i]) || c.cpu[i] < 0 || c.cpu[i] >= nr_cpu_ids) {
			err = -EINVAL;
			goto out;
		}
	}
	err = smp_call_on_cpu(on, closest_on_cpu, &c, false);
	if (!err) {
		put(a, "ok");
		for (i = 0; i < c.count; i++)
			put(a, " %d", c.result[i]);
	}
out:
	if (err)
		put(a, "err %s: closest (%d)", err == -EINVAL ? "invalid" : "internal", err);
	if (c.cpus)
		for (i = 0; i < c.count; i++)
			kfree(c.cpus[i]);
	kfree(c.cpus);
	kfree(c.cpu);
	kfree(c.result);
}

static void do_nearest(char *line, struct answer *a)
{
	int node;

	if (int_word(&line, &node) || !node_ok(node)) {
		put(a, "err invalid: nearest NODE");
		return;
	}
	put(a, "ok %d", p_nearest_node(node, N_CPU));
}

/* group_cpus_evenly(numgrps) in the release's form; *nummasks is numgrps where the release has no nummasks. */
static struct cpumask *group_cpus(int numgrps, unsigned int *nummasks)
{
#ifdef PROBE_GROUP_CPUS_NUMMASKS
	return p_group_cpus(numgrps, nummasks);
#else
	*nummasks = numgrps;
	return p_group_cpus(numgrps);
#endif
}

/* A group_cpus_evenly() answer: "NUMMASKS MASK|MASK|..." or "null"; masks is freed. */
static void put_groups(struct answer *a, struct cpumask *masks, int numgrps, unsigned int nummasks)
{
	int i;

	if (!masks) {
		put(a, "null");
		return;
	}
	put(a, "%u ", nummasks);
	/* The array has numgrps masks whatever nummasks says; all are shown. */
	for (i = 0; i < numgrps; i++) {
		if (i)
			put(a, "|");
		put_mask(a, &masks[i]);
	}
	kfree(masks);
}

static void do_group_cpus(char *line, struct answer *a)
{
	struct cpumask *masks;
	unsigned int nummasks;
	int numgrps;

	if (int_word(&line, &numgrps) || numgrps < 0) {
		put(a, "err invalid: grp NUMGRPS");
		return;
	}
	masks = group_cpus(numgrps, &nummasks);
	put(a, "ok ");
	put_groups(a, masks, numgrps, nummasks);
}

/*
 * group_cpus_evenly() from a CPU hotplug callback (HP-6). A CPU's online runs the AP_ONLINE_DYN
 * startup callbacks in that CPU's hotplug thread while the task that asked for the online holds
 * the CPU hotplug lock for writing (_cpu_up() in kernel/cpu.c); a routine that takes
 * cpus_read_lock() waits there for ever, and the online never completes. The agent arms the state
 * (hparm), brings a CPU online through sysfs and collects what the callback saw (hpdone).
 */
static int hp_state = -1;
static int hp_numgrps;
static bool hp_selftest_lock;
static int hp_cpu = -1;
static bool hp_lock_held;
static struct cpumask *hp_masks;
static unsigned int hp_nummasks;

static int hp_online(unsigned int cpu)
{
	if (hp_cpu >= 0)
		return 0;	/* once: the first CPU that comes online */
	hp_lock_held = !cpus_read_trylock();
	if (!hp_lock_held)
		cpus_read_unlock();
	if (hp_selftest_lock)
		cpus_read_lock();	/* waits for the online, which waits for this callback */
	hp_masks = group_cpus(hp_numgrps, &hp_nummasks);
	if (hp_selftest_lock)
		cpus_read_unlock();
	hp_cpu = cpu;
	return 0;
}

static void do_hotplug_arm(char *line, struct answer *a)
{
	int numgrps, state;
	char *option;

	if (int_word(&line, &numgrps) || numgrps < 0 || hp_state >= 0) {
		put(a, "err invalid: hparm NUMGRPS [selftest-lock], once before hpdone");
		return;
	}
	option = word(&line);
	hp_selftest_lock = option && !strcmp(option, "selftest-lock");
	kfree(hp_masks);
	hp_masks = NULL;
	hp_cpu = -1;
	hp_numgrps = numgrps;
	state = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "numaspread/probe:group", hp_online, NULL);
	if (state < 0) {
		put(a, "err internal: cpuhp_setup_state_nocalls (%d)", state);
		return;
	}
	hp_state = state;
	put(a, "ok");
}

static void do_hotplug_done(struct answer *a)
{
	if (hp_state < 0) {
		put(a, "err invalid: hpdone without hparm");
		return;
	}
	cpuhp_remove_state_nocalls(hp_state);
	hp_state = -1;
	if (hp_cpu < 0) {
		put(a, "err internal: no CPU came online while the hotplug state was registered");
		return;
	}
	put(a, "ok %d %s ", hp_cpu, hp_lock_held ? "held" : "free");
	put_groups(a, hp_masks, hp_numgrps, hp_nummasks);
	hp_masks = NULL;
}

static void do_map_queues(char *line, struct answer *a)
{
	struct blk_mq_queue_map map = {};
	int queues, offset, cpu;

	if (int_word(&line, &queues) || int_word(&line, &offset) || queues < 0 || offset < 0) {
		put(a, "err invalid: mq QUEUES OFFSET with QUEUES >= 0");
		return;
	}
	map.mq_map = kcalloc(nr_cpu_ids, sizeof(*map.mq_map), GFP_KERNEL);
	if (!map.mq_map) {
		put(a, "err internal: out of memory");
		return;
	}
	map.nr_queues = queues;
	map.queue_offset = offset;
	p_map_queues(&map);
	put(a, "ok");
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		put(a, " %u", map.mq_map[cpu]);
	kfree(map.mq_map);
}

#ifdef PROBE_IRQ_CALC_SETS
static unsigned int set_count;
static unsigned int set_sizes[IRQ_AFFINITY_MAX_SETS + 1];

/* The driver's calc_sets: the sets the request named. More than the kernel takes: nr_sets says so, no size is stored. */
static void calc_sets(struct irq_affinity *affd, unsigned int nvecs)
{
	unsigned int i;

	affd->nr_sets = set_count;
	for (i = 0; i < set_count && i < IRQ_AFFINITY_MAX_SETS; i++)
		affd->set_size[i] = set_sizes[i];
}

static void do_affinity_masks(char *line, struct answer *a)
{
	struct irq_affinity affd = {};
	struct irq_affinity_desc *d;
	int nvecs, pre, post, nsets, i, size;

	if (int_word(&line, &nvecs) || int_word(&line, &pre) || int_word(&line, &post) || int_word(&line, &nsets)
	    || nvecs < 0 || pre < 0 || post < 0 || nsets < 0 || nsets > IRQ_AFFINITY_MAX_SETS + 1) {
		put(a, "err invalid: irq NVECS PRE POST NSETS SIZE...");
		return;
	}
	for (i = 0; i < nsets; i++) {
		if (int_word(&line, &size) || size < 0) {
			put(a, "err invalid: irq set size");
			return;
		}
		set_sizes[i] = size;
	}
	set_count = nsets;
	affd.pre_vectors = pre;
	affd.post_vectors = post;
	if (nsets)
		affd.calc_sets = calc_sets;
	d = p_affinity_masks(nvecs, &affd);
	if (!d) {
		put(a, "ok null");
		return;
	}
	put(a, "ok ");
	for (i = 0; i < nvecs; i++) {
		if (i)
			put(a, "|");
		put_mask(a, &d[i].mask);
		put(a, d[i].is_managed ? "/m" : "/u");
	}
	kfree(d);
}
#endif

static void do_nodes(struct answer *a)
{
	unsigned int cpu;

	put(a, "ok");
	for_each_possible_cpu(cpu)
		put(a, " %u:%d", cpu, cpu_to_node(cpu));
}

/*
 * "have": the release, then a word per call this kernel answers (a symbol found at load, or a form
 * Kbuild read from the headers). Alike on purpose (duplicates, issue 26) with the lines below: a
 * word per call, each under its own test, as the host reads them.
 */
static void do_have(struct answer *a)
{
	put(a, "ok release=%s nr_cpu_ids=%u nr_node_ids=%u", utsname()->release, nr_cpu_ids, nr_node_ids);
	if (p_local_spread)
		put(a, " ls");
	if (p_numa_levels && p_numa_distance)
		put(a, " lvl");
	if (p_numa_levels && p_numa_masks)
		put(a, " lvlmask");
#ifdef PROBE_HOP_MACRO
	put(a, " hop");
#endif
	if (p_find_nth)
		put(a, " nth");
	if (p_find_closest)
		put(a, " closest");
	if (p_distribute_prev)
		put(a, " closest-prev");
	if (p_nearest_node)
		put(a, " nearest");
	if (p_group_cpus)
		put(a, " grp grp-hotplug");
#ifdef PROBE_GROUP_CPUS_NUMMASKS
	if (p_group_cpus)
		put(a, " grp-nummasks");
#endif
	if (p_map_queues)
		put(a, " mq");
	if (p_affinity_masks)
		put(a, " irq");
	put(a, " nodes");
}

static DEFINE_MUTEX(probe_lock);

/* Answers one request line (without its newline) into a. */
static void answer_line(char *line, struct answer *a, struct cpumask *scratch)
{
	char *op = word(&line);

	if (!op)
		put(a, "err invalid: empty request");
	else if (!strcmp(op, "have"))
		do_have(a);
	else if (!strcmp(op, "selftest-bug"))
		BUG();
	else if (!strcmp(op, "nodes"))
		do_nodes(a);
	else if (!strcmp(op, "ls") && p_local_spread)
		do_local_spread(line, a);
	else if (!strcmp(op, "lvl") && p_numa_levels && p_numa_distance)
		do_levels(a);
	else if (!strcmp(op, "lvlmask") && p_numa_levels && p_numa_masks)
		do_level_masks(line, a);
#ifdef PROBE_HOP_MACRO
	else if (!strcmp(op, "hop"))
		do_hops(line, a);
#endif
	else if (!strcmp(op, "nth") && p_find_nth)
		do_nth(line, a, scratch);
	else if (!strcmp(op, "closest") && p_find_closest)
		do_closest(line, a);
	else if (!strcmp(op, "nearest") && p_nearest_node)
		do_nearest(line, a);
	else if (!strcmp(op, "grp") && p_group_cpus)
		do_group_cpus(line, a);
	else if (!strcmp(op, "hparm") && p_group_cpus)
		do_hotplug_arm(line, a);
	else if (!strcmp(op, "hpdone") && p_group_cpus)
		do_hotplug_done(a);
	else if (!strcmp(op, "mq") && p_map_queues)
		do_map_queues(line, a);
#ifdef PROBE_IRQ_CALC_SETS
	else if (!strcmp(op, "irq") && p_affinity_masks)
		do_affinity_masks(line, a);
#endif
	else
		put(a, "err unsupported: %s", op);
	put(a, "\n");
}

/* ------------------------------------------------------------------ the device */

struct session {
	struct answer out;	/* answers not yet read */
	size_t read_pos;
};

static int probe_open(struct inode *inode, struct file *f)
{
	struct session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	f->private_data = s;
	return 0;
}

static int probe_release(struct inode *inode, struct file *f)
{
	struct session *s = f->private_data;

	kvfree(s->out.buf);
	kfree(s);
	return 0;
}

#define MAX_REQUEST (4 << 20)

static ssize_t probe_write(struct file *f, const char __user *ubuf, size_t len, loff_t *off)
{
	struct session *s = f->private_data;
	cpumask_var_t scratch;
	char *text, *line, *rest;
	ssize_t ret = len;

	if (len == 0)
		return 0;
	if (len > MAX_REQUEST)
		return -E2BIG;
	text = memdup_user_nul(ubuf, len);
	if (IS_ERR(text))
		return PTR_ERR(text);
	if (text[len - 1] != '\n') {
		kfree(text);
		return -EINVAL;
	}
	if (!zalloc_cpumask_var(&scratch, GFP_KERNEL)) {
		kfree(text);
		return -ENOMEM;
	}
	mutex_lock(&probe_lock);
	/* Answers already read are dropped before new ones are added. */
	if (s->read_pos) {
		memmove(s->out.buf, s->out.buf + s->read_pos, s->out.len - s->read_pos);
		s->out.len -= s->read_pos;
		s->read_pos = 0;
	}
	rest = text;
	while ((line = strsep(&rest, "\n")) != NULL) {
		if (!rest)
			break;	/* the empty piece after the last newline */
		answer_line(line, &s->out, scratch);
	}
	if (s->out.failed)
		ret = -ENOMEM;
	mutex_unlock(&probe_lock);
	free_cpumask_var(scratch);
	kfree(text);
	return ret;
}

static ssize_t probe_read(struct file *f, char __user *ubuf, size_t len, loff_t *off)
{
	struct session *s = f->private_data;
	size_t n;

	mutex_lock(&probe_lock);
	n = min(len, s->out.len - s->read_pos);
	if (n && copy_to_user(ubuf, s->out.buf + s->read_pos, n)) {
		mutex_unlock(&probe_lock);
		return -EFAULT;
	}
	s->read_pos += n;
	mutex_unlock(&probe_lock);
	return n;
}

static const struct file_operations probe_fops = {
	.owner = THIS_MODULE,
	.open = probe_open,
	.release = probe_release,
	.write = probe_write,
	.read = probe_read,
};

static struct miscdevice probe_device = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "numaspread_probe",
	.fops = &probe_fops,
	.mode = 0600,
};

static int __init probe_init(void)
{
	lookup = (lookup_fn)find_lookup();
	if (!lookup) {
		pr_err("numaspread_probe: kallsyms_lookup_name not found through a kprobe\n");
		return -ENOENT;
	}
	find_symbols();
	return misc_register(&probe_device);
}

static void __exit probe_exit(void)
{
	misc_deregister(&probe_device);
}

module_init(probe_init);
module_exit(probe_exit);
