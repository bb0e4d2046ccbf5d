/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim.h: what lib/group_cpus.c, lib/sort.c, block/blk-mq-cpumap.c and kernel/irq/affinity.c
 * read from the kernel, stood in for in user space. Every include/linux/ header of this shim
 * includes this one file; the kernel's own files are compiled unmodified against it.
 *
 * Written for numaspread from the kernel's documented interfaces (what each call returns), not
 * copied from the kernel. The machine is the one the program's current request names (main.c):
 * the masks, cpu_to_node() and the sibling and cluster masks below are its, as the kernel keeps
 * them on x86 (spec/topology.md TOPO-3, TOPO-13).
 */
#ifndef KSHIM_H
#define KSHIM_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ configuration */

/* The configuration of Debian's x86_64 kernels, as far as these files look at it: SMP and NUMA
 * (without CONFIG_SMP lib/group_cpus.c puts every CPU in group 0), 64 bits, and unaligned access
 * (lib/sort.c then picks its word swap by size alone; the order it sorts in does not change). */
#define CONFIG_SMP 1
#define CONFIG_NUMA 1
#define CONFIG_64BIT 1
#define CONFIG_X86_64 1
#define CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS 1
#define CONFIG_GENERIC_IRQ_EFFECTIVE_AFF_MASK 1

/* ------------------------------------------------------------------ types and compiler */

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned int gfp_t;

typedef int (*cmp_func_t)(const void *a, const void *b);
typedef void (*swap_func_t)(void *a, void *b, int size);
typedef int (*cmp_r_func_t)(const void *a, const void *b, const void *priv);
typedef void (*swap_r_func_t)(void *a, void *b, int size, const void *priv);

#undef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#define noinline __attribute__((__noinline__))
#undef __attribute_const__
#define __attribute_const__ __attribute__((__const__))
#define __maybe_unused __attribute__((__unused__))
#define __must_check __attribute__((__warn_unused_result__))
#define __read_mostly
#define __init
#define __initdata
#define __exit
#define __cold
#define fallthrough __attribute__((__fallthrough__))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
/* The kernel's KCSAN marker for a deliberate race; one thread here, so the plain read. */
#define data_race(expr) (expr)
#define IS_ENABLED(option) 0

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS(sym, ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)
#define MODULE_LICENSE(text)
#define MODULE_DESCRIPTION(text)
#define MODULE_AUTHOR(text)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

#define min(a, b) ({ __typeof__(a) _min_a = (a); __typeof__(b) _min_b = (b); _min_a < _min_b ? _min_a : _min_b; })
#define max(a, b) ({ __typeof__(a) _max_a = (a); __typeof__(b) _max_b = (b); _max_a > _max_b ? _max_a : _max_b; })
#define min_t(type, a, b) ({ type _min_a = (a); type _min_b = (b); _min_a < _min_b ? _min_a : _min_b; })
#define max_t(type, a, b) ({ type _max_a = (a); type _max_b = (b); _max_a > _max_b ? _max_a : _max_b; })
/* The smaller of the two that are not zero; zero only when both are. */
#define min_not_zero(a, b) ({ __typeof__(a) _mnz_a = (a); __typeof__(b) _mnz_b = (b); \
        _mnz_a == 0 ? _mnz_b : _mnz_b == 0 ? _mnz_a : (_mnz_a < _mnz_b ? _mnz_a : _mnz_b); })

#define ENOMEM 12
#define EINVAL 22
#define NUMA_NO_NODE (-1)

/* ------------------------------------------------------------------ WARN and BUG */

/* A WARN goes to stderr (the kernel's log); it changes nothing, as in the kernel. */
void kshim_warn(const char *file, int line, const char *cond);
/* A BUG() is a modelled kernel failure: the request is answered with kernelBug (main.c). */
__attribute__((__noreturn__)) void kshim_bug(const char *file, int line, const char *cond);

#define WARN_ON(cond) ({ int _w = !!(cond); if (_w) kshim_warn(__FILE__, __LINE__, #cond); _w; })
#define WARN_ON_ONCE(cond) WARN_ON(cond)
#define WARN(cond, ...) WARN_ON(cond)
#define WARN_ONCE(cond, ...) WARN_ON(cond)
#define BUG() kshim_bug(__FILE__, __LINE__, "BUG()")
#define BUG_ON(cond) do { if (cond) kshim_bug(__FILE__, __LINE__, #cond); } while (0)
#define pr_warn(...) ((void)0)
#define pr_err(...) ((void)0)
#define pr_info(...) ((void)0)
#define pr_debug(...) ((void)0)

/* ------------------------------------------------------------------ locking and scheduling: one thread */

/*
 * The CPU hotplug services a routine uses, in order, for a request that asks for them
 * (spec/protocol.md, group-cpus "services"): the lock, and reads of the present and online masks.
 * The lock itself does nothing here: one thread, and no hotplug runs.
 */
void kshim_service(const char *name);
#define cpus_read_lock() kshim_service("cpus_read_lock")
#define cpus_read_unlock() kshim_service("cpus_read_unlock")
#define get_online_cpus() cpus_read_lock()
#define put_online_cpus() cpus_read_unlock()
#define lockdep_assert_cpus_held() ((void)0)
#define lockdep_assert_held(lock) ((void)(lock))
#define might_sleep() ((void)0)
#define cond_resched() ((void)0)
#define preempt_disable() ((void)0)
#define preempt_enable() ((void)0)

/* ------------------------------------------------------------------ bitmaps */

#define BITS_PER_LONG 64
#define BITS_TO_LONGS(bits) (((bits) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))

/* The first set bit of the first `words` words of `b` at or after `from`, or `limit` when none is below it. */
static inline unsigned int kshim_find_next(const unsigned long *b, unsigned int limit, unsigned int from)
{
	unsigned int w;
	unsigned long word;

	if (from >= limit)
		return limit;
	w = BIT_WORD(from);
	word = b[w] & (~0UL << (from % BITS_PER_LONG));
	for (;;) {
		if (word) {
			unsigned int bit = w * BITS_PER_LONG + (unsigned int)__builtin_ctzl(word);
			return bit < limit ? bit : limit;
		}
		if (++w >= BITS_TO_LONGS(limit))
			return limit;
		word = b[w];
	}
}

/* ------------------------------------------------------------------ CPU masks */

/* numaspread's NR_CPUS (dev.numaspread.model.cpu.CpuSet.NR_CPUS). */
#define NR_CPUS 8192
#define CONFIG_NR_CPUS NR_CPUS

struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};
typedef struct cpumask cpumask_t;
/* As without CONFIG_CPUMASK_OFFSTACK: the mask itself, so allocating one cannot fail. */
typedef struct cpumask cpumask_var_t[1];

/* nr_cpu_ids of the current machine: its highest possible CPU plus one. Every mask operation below
 * touches only the bits under it, as the kernel's do (nr_cpumask_bits); bits above stay clear. */
extern unsigned int nr_cpu_ids;
#define nr_cpumask_bits nr_cpu_ids
#define small_cpumask_bits nr_cpu_ids
#define large_cpumask_bits nr_cpu_ids
#define cpumask_bits(maskp) ((maskp)->bits)
#define kshim_words() BITS_TO_LONGS(nr_cpu_ids)

extern struct cpumask __cpu_possible_mask, __cpu_present_mask, __cpu_online_mask;
#define cpu_possible_mask ((const struct cpumask *)&__cpu_possible_mask)
#define cpu_present_mask (kshim_service("cpu_present_mask"), (const struct cpumask *)&__cpu_present_mask)
#define cpu_online_mask (kshim_service("cpu_online_mask"), (const struct cpumask *)&__cpu_online_mask)

static inline unsigned int cpumask_first(const struct cpumask *m)
{
	return kshim_find_next(m->bits, nr_cpu_ids, 0);
}

/* The next CPU after n (n may be -1), or nr_cpu_ids. */
static inline unsigned int cpumask_next(int n, const struct cpumask *m)
{
	return kshim_find_next(m->bits, nr_cpu_ids, (unsigned int)(n + 1));
}

static inline unsigned int cpumask_last(const struct cpumask *m)
{
	unsigned int last = nr_cpu_ids, c;

	for (c = cpumask_first(m); c < nr_cpu_ids; c = cpumask_next((int)c, m))
		last = c;
	return last;
}

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	m->bits[BIT_WORD(cpu)] |= BIT_MASK(cpu);
}

static inline void __cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	cpumask_set_cpu(cpu, m);
}

static inline void cpumask_clear_cpu(int cpu, struct cpumask *m)
{
	m->bits[BIT_WORD(cpu)] &= ~BIT_MASK(cpu);
}

static inline void __cpumask_clear_cpu(int cpu, struct cpumask *m)
{
	cpumask_clear_cpu(cpu, m);
}

static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	return (m->bits[BIT_WORD(cpu)] & BIT_MASK(cpu)) != 0;
}

static inline bool cpumask_test_and_clear_cpu(int cpu, struct cpumask *m)
{
	bool was = cpumask_test_cpu(cpu, m);

	cpumask_clear_cpu(cpu, m);
	return was;
}

static inline bool cpumask_test_and_set_cpu(int cpu, struct cpumask *m)
{
	bool was = cpumask_test_cpu(cpu, m);

	cpumask_set_cpu((unsigned int)cpu, m);
	return was;
}

static inline void cpumask_clear(struct cpumask *m)
{
	memset(m->bits, 0, kshim_words() * sizeof(unsigned long));
}

static inline void cpumask_setall(struct cpumask *m)
{
	unsigned int c;

	cpumask_clear(m);
	for (c = 0; c < nr_cpu_ids; c++)
		cpumask_set_cpu(c, m);
}

static inline void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	memcpy(dst->bits, src->bits, kshim_words() * sizeof(unsigned long));
}

/* dst = a & b; true when dst is not empty. */
static inline bool cpumask_and(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	unsigned long any = 0;

	for (unsigned int w = 0; w < kshim_words(); w++)
		any |= dst->bits[w] = a->bits[w] & b->bits[w];
	return any != 0;
}

/* dst = a & ~b; true when dst is not empty. */
static inline bool cpumask_andnot(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	unsigned long any = 0;

	for (unsigned int w = 0; w < kshim_words(); w++)
		any |= dst->bits[w] = a->bits[w] & ~b->bits[w];
	return any != 0;
}

static inline void cpumask_or(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int w = 0; w < kshim_words(); w++)
		dst->bits[w] = a->bits[w] | b->bits[w];
}

static inline bool cpumask_empty(const struct cpumask *m)
{
	return cpumask_first(m) >= nr_cpu_ids;
}

static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	unsigned int n = 0;

	for (unsigned int w = 0; w < kshim_words(); w++)
		n += (unsigned int)__builtin_popcountl(m->bits[w]);
	return n;
}

static inline unsigned int cpumask_weight_and(const struct cpumask *a, const struct cpumask *b)
{
	unsigned int n = 0;

	for (unsigned int w = 0; w < kshim_words(); w++)
		n += (unsigned int)__builtin_popcountl(a->bits[w] & b->bits[w]);
	return n;
}

static inline bool cpumask_intersects(const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int w = 0; w < kshim_words(); w++)
		if (a->bits[w] & b->bits[w])
			return true;
	return false;
}

static inline bool cpumask_subset(const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int w = 0; w < kshim_words(); w++)
		if (a->bits[w] & ~b->bits[w])
			return false;
	return true;
}

static inline bool cpumask_equal(const struct cpumask *a, const struct cpumask *b)
{
	return memcmp(a->bits, b->bits, kshim_words() * sizeof(unsigned long)) == 0;
}

static inline unsigned int cpumask_first_and(const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int c = cpumask_first(a); c < nr_cpu_ids; c = cpumask_next((int)c, a))
		if (cpumask_test_cpu((int)c, b))
			return c;
	return nr_cpu_ids;
}

static inline unsigned int cpumask_next_and(int n, const struct cpumask *a, const struct cpumask *b)
{
	for (unsigned int c = cpumask_next(n, a); c < nr_cpu_ids; c = cpumask_next((int)c, a))
		if (cpumask_test_cpu((int)c, b))
			return c;
	return nr_cpu_ids;
}

#define for_each_cpu(cpu, mask) \
	for ((cpu) = cpumask_first(mask); (cpu) < nr_cpu_ids; (cpu) = cpumask_next((cpu), (mask)))
#define for_each_cpu_and(cpu, a, b) \
	for ((cpu) = cpumask_first_and((a), (b)); (cpu) < nr_cpu_ids; (cpu) = cpumask_next_and((cpu), (a), (b)))
#define for_each_possible_cpu(cpu) for_each_cpu((cpu), cpu_possible_mask)
#define for_each_present_cpu(cpu) for_each_cpu((cpu), cpu_present_mask)
#define for_each_online_cpu(cpu) for_each_cpu((cpu), cpu_online_mask)

#define cpu_possible(cpu) cpumask_test_cpu((cpu), cpu_possible_mask)
#define cpu_present(cpu) cpumask_test_cpu((cpu), cpu_present_mask)
#define cpu_online(cpu) cpumask_test_cpu((cpu), cpu_online_mask)
#define num_possible_cpus() cpumask_weight(cpu_possible_mask)
#define num_present_cpus() cpumask_weight(cpu_present_mask)
#define num_online_cpus() cpumask_weight(cpu_online_mask)

static inline bool alloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{
	(void)mask;
	(void)flags;
	return true;
}

static inline bool zalloc_cpumask_var(cpumask_var_t *mask, gfp_t flags)
{
	(void)flags;
	cpumask_clear(*mask);
	return true;
}

#define alloc_cpumask_var_node(mask, flags, node) alloc_cpumask_var((mask), (flags))
#define zalloc_cpumask_var_node(mask, flags, node) zalloc_cpumask_var((mask), (flags))

static inline void free_cpumask_var(cpumask_var_t mask)
{
	(void)mask;
}

/* ------------------------------------------------------------------ node masks */

/* numaspread's MAX_NUMNODES (dev.numaspread.model.kernel.Numa.MAX_NUMNODES). */
#define MAX_NUMNODES 1024

typedef struct {
	unsigned long bits[BITS_TO_LONGS(MAX_NUMNODES)];
} nodemask_t;

#define NODE_MASK_NONE { { 0 } }

/* nr_node_ids of the current machine: its highest node id plus one. */
extern unsigned int nr_node_ids;
/* The current machine's nodes, CPU-less ones included: node_possible_map. */
extern nodemask_t node_possible_map;

#define node_set(node, dst) ((dst).bits[BIT_WORD(node)] |= BIT_MASK(node))
#define node_clear(node, dst) ((dst).bits[BIT_WORD(node)] &= ~BIT_MASK(node))
#define node_isset(node, mask) (((mask).bits[BIT_WORD(node)] & BIT_MASK(node)) != 0)
#define nodes_clear(dst) memset((dst).bits, 0, sizeof((dst).bits))
#define first_node(mask) kshim_find_next((mask).bits, MAX_NUMNODES, 0)
#define next_node(n, mask) kshim_find_next((mask).bits, MAX_NUMNODES, (unsigned int)(n) + 1)
#define for_each_node_mask(node, mask) \
	for ((node) = first_node(mask); (node) < MAX_NUMNODES; (node) = next_node((node), (mask)))
#define for_each_node(node) for_each_node_mask((node), node_possible_map)
#define node_possible(node) node_isset((node), node_possible_map)

static inline unsigned int kshim_nodes_weight(const nodemask_t *m)
{
	unsigned int n = 0;

	for (unsigned int w = 0; w < BITS_TO_LONGS(MAX_NUMNODES); w++)
		n += (unsigned int)__builtin_popcountl(m->bits[w]);
	return n;
}
#define nodes_weight(mask) kshim_nodes_weight(&(mask))

/* ------------------------------------------------------------------ topology of the current machine */

extern int *kshim_node_of_cpu;                 /* cpu_to_node() of each possible CPU */
extern struct cpumask *kshim_sibling_masks;    /* per CPU: TOPO-3, empty for a CPU that is not online */
extern struct cpumask *kshim_cluster_masks;    /* per CPU: TOPO-13, empty for a CPU that is not online */

static inline int cpu_to_node(int cpu)
{
	return kshim_node_of_cpu[cpu];
}

#define topology_sibling_cpumask(cpu) ((const struct cpumask *)&kshim_sibling_masks[cpu])
#define topology_cluster_cpumask(cpu) ((const struct cpumask *)&kshim_cluster_masks[cpu])

/* ------------------------------------------------------------------ memory */

#define GFP_KERNEL 0u
#define GFP_ATOMIC 0u
#define GFP_NOWAIT 0u
#define __GFP_ZERO 1u
/* What the kernel's allocators give for a size of 0: not NULL, and any access to it faults. */
#define ZERO_SIZE_PTR ((void *)16)
#define ZERO_OR_NULL_PTR(x) ((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

/* n objects of size bytes, zeroed when asked; ZERO_SIZE_PTR for no bytes, NULL when n * size overflows. */
void *kshim_alloc(size_t n, size_t size, bool zero);
void kfree(const void *p);

#define kmalloc(size, flags) kshim_alloc(1, (size), ((flags) & __GFP_ZERO) != 0)
#define kzalloc(size, flags) kshim_alloc(1, (size), true)
#define kcalloc(n, size, flags) kshim_alloc((n), (size), true)
#define kmalloc_array(n, size, flags) kshim_alloc((n), (size), ((flags) & __GFP_ZERO) != 0)
#define kmalloc_node(size, flags, node) kmalloc((size), (flags))
#define kzalloc_node(size, flags, node) kzalloc((size), (flags))
#define kcalloc_node(n, size, flags, node) kcalloc((n), (size), (flags))
#define kvfree(p) kfree(p)
/* The 7.x typed allocators: kzalloc_objs(TYPE or *ptr, count[, flags]). */
#define kmalloc_obj(what, ...) ((__typeof__(what) *)kshim_alloc(1, sizeof(what), false))
#define kzalloc_obj(what, ...) ((__typeof__(what) *)kshim_alloc(1, sizeof(what), true))
#define kmalloc_objs(what, n, ...) ((__typeof__(what) *)kshim_alloc((n), sizeof(what), false))
#define kzalloc_objs(what, n, ...) ((__typeof__(what) *)kshim_alloc((n), sizeof(what), true))
#define kcalloc_objs(what, n, ...) kzalloc_objs(what, n)

/* ------------------------------------------------------------------ lib/sort.c */

void sort_r(void *base, size_t num, size_t size, cmp_r_func_t cmp_func, swap_r_func_t swap_func, const void *priv);
void sort(void *base, size_t num, size_t size, cmp_func_t cmp_func, swap_func_t swap_func);

/* ------------------------------------------------------------------ lib/group_cpus.c */

/* The form of TREE's lib/group_cpus.c, as the build detected it (KSHIM_GROUP_CPUS_NUMMASKS: 6.17+). */
#ifdef KSHIM_GROUP_CPUS_NUMMASKS
struct cpumask *group_cpus_evenly(unsigned int numgrps, unsigned int *nummasks);
#else
struct cpumask *group_cpus_evenly(unsigned int numgrps);
#endif

/* ------------------------------------------------------------------ kernel/irq/affinity.c */

#define IRQ_AFFINITY_MAX_SETS 4

struct irq_affinity {
	unsigned int pre_vectors;
	unsigned int post_vectors;
	unsigned int nr_sets;
	unsigned int set_size[IRQ_AFFINITY_MAX_SETS];
	void (*calc_sets)(struct irq_affinity *affd, unsigned int nvecs);
	void *priv;
};

struct irq_affinity_desc {
	struct cpumask mask;
	unsigned int is_managed : 1;
};

/* Every CPU id below nr_cpu_ids, as without the irqaffinity= boot option (spec/blk-mq.md). */
extern cpumask_var_t irq_default_affinity;

struct irq_affinity_desc *irq_create_affinity_masks(unsigned int nvecs, struct irq_affinity *affd);
unsigned int irq_calc_affinity_vectors(unsigned int minvec, unsigned int maxvec, const struct irq_affinity *affd);

/* ------------------------------------------------------------------ block/blk-mq-cpumap.c */

struct blk_mq_queue_map {
	unsigned int *mq_map;
	unsigned int nr_queues;
	unsigned int queue_offset;
};

void blk_mq_map_queues(struct blk_mq_queue_map *qmap);
int blk_mq_hw_queue_to_node(struct blk_mq_queue_map *qmap, unsigned int index);

/* blk_mq_map_hw_queues() (6.13+) asks the device's bus for each queue's affinity. */
struct device;
struct bus_type {
	const struct cpumask *(*irq_get_affinity)(struct device *dev, unsigned int irq_vec);
};
struct device {
	const struct bus_type *bus;
};

/* include/linux/sched/isolation.h: no CPU is isolated here. */
enum hk_type { HK_TYPE_DOMAIN, HK_TYPE_MANAGED_IRQ, HK_TYPE_KERNEL_NOISE, HK_TYPE_IO_QUEUE, HK_TYPE_MAX };
#define housekeeping_cpumask(type) cpu_possible_mask
#define housekeeping_enabled(type) false

#endif /* KSHIM_H */
