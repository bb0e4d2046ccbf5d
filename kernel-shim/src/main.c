// SPDX-License-Identifier: GPL-2.0
/*
 * A program that speaks numaspread's process protocol 2 (spec/protocol.md) on stdin and stdout
 * and answers group-cpus, blk-mq-map and irq-affinity-masks by calling the kernel's own
 * group_cpus_evenly(), blk_mq_map_queues() and irq_create_affinity_masks(), compiled from a
 * kernel source tree against this shim (kshim.h).
 *
 *   kshim --name NAME --kernel X.Y ROUTINE...
 *
 * claims ROUTINE (group-cpus, blk-mq-map, irq-affinity-masks) for release X.Y. A fault inside the
 * kernel's code (the ZERO_SIZE_PTR of group_cpus_evenly(0) before 6.16, the legacy map's division
 * by zero) is answered as the kernel's oops, a BUG() as a BUG: modelled kernel failures.
 */
#include <kshim.h>

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "json.h"
#include "machine.h"

/* ------------------------------------------------------------------ the kernel's services */

void *kshim_alloc(size_t n, size_t size, bool zero)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	if (n * size == 0)
		return ZERO_SIZE_PTR;
	p = zero ? calloc(n, size) : malloc(n * size);
	return p;
}

void kfree(const void *p)
{
	if (!ZERO_OR_NULL_PTR(p))
		free((void *)p);
}

/* WARNs shown on stderr before the rest are only counted: the kit quotes the last lines. */
#define WARNINGS_SHOWN 20
static unsigned long warnings;

void kshim_warn(const char *file, int line, const char *cond)
{
	if (++warnings <= WARNINGS_SHOWN)
		fprintf(stderr, "WARNING: %s:%d: %s%s\n", file, line, cond,
			warnings == WARNINGS_SHOWN ? " (further warnings not shown)" : "");
}

/* The hotplug services the kernel's code used during a request that asks for them (group-cpus
 * with "services": true), in order; past SERVICES_KEPT they are dropped and counted. */
#define SERVICES_KEPT 256
static const char *services[SERVICES_KEPT];
static unsigned int nservices, services_dropped;
static bool recording;

void kshim_service(const char *name)
{
	if (!recording)
		return;
	if (nservices < SERVICES_KEPT)
		services[nservices++] = name;
	else
		services_dropped++;
}

/* Where a fault or BUG() inside the kernel's code returns to: the request being answered. */
static sigjmp_buf trap;
static volatile sig_atomic_t trapping;
static char bug_text[300];
#define TRAP_BUG 1000

void kshim_bug(const char *file, int line, const char *cond)
{
	snprintf(bug_text, sizeof(bug_text), "%s:%d: %s", file, line, cond);
	if (trapping)
		siglongjmp(trap, TRAP_BUG);
	fprintf(stderr, "kshim: BUG at %s outside a request\n", bug_text);
	abort();
}

static void on_fault(int sig)
{
	if (trapping)
		siglongjmp(trap, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ------------------------------------------------------------------ answers */

static struct {
	char *buf;
	size_t len, cap;
} out;

static void put(const char *s, size_t n)
{
	if (out.len + n > out.cap) {
		size_t cap = out.cap ? out.cap : 1 << 16;

		while (cap < out.len + n)
			cap *= 2;
		out.buf = realloc(out.buf, cap);
		if (!out.buf) {
			fprintf(stderr, "kshim: out of memory for answers\n");
			exit(70);
		}
		out.cap = cap;
	}
	memcpy(out.buf + out.len, s, n);
	out.len += n;
}

static void say(const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < (int)sizeof(small)) {
		put(small, (size_t)n);
		return;
	}
	{
		char *big = malloc((size_t)n + 1);

		if (!big)
			exit(70);
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		put(big, (size_t)n);
		free(big);
	}
}

static void say_string(const char *s)
{
	put("\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			say("\\%c", c);
		else if (c < 0x20)
			say("\\u%04x", c);
		else
			put((const char *)&c, 1);
	}
	put("\"", 1);
}

/* A CPU list in the kernel's notation: "0-3,8"; "" for none. */
static void say_cpulist(const struct cpumask *m)
{
	bool first = true;
	unsigned int c = cpumask_first(m);

	put("\"", 1);
	while (c < nr_cpu_ids) {
		unsigned int end = c;

		while (end + 1 < nr_cpu_ids && cpumask_test_cpu((int)end + 1, m))
			end++;
		if (end == c)
			say(first ? "%u" : ",%u", c);
		else
			say(first ? "%u-%u" : ",%u-%u", c, end);
		first = false;
		c = cpumask_next((int)end, m);
	}
	put("\"", 1);
}

static void flush(void)
{
	size_t done = 0;

	while (done < out.len) {
		ssize_t n = write(1, out.buf + done, out.len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			exit(0);   /* the kit closed stdout: nothing left to answer */
		done += (size_t)n;
	}
	out.len = 0;
}

static void error_answer(long long id, const char *error, const char *fmt, ...)
{
	char message[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	say("{\"id\":%lld,\"ok\":false,\"error\":\"%s\",\"message\":", id, error);
	say_string(message);
	say("}\n");
}

static void kernel_bug_answer(long long id, int how, const char *call)
{
	char message[600];

	if (how == TRAP_BUG)
		snprintf(message, sizeof(message), "BUG() in %s at %s", call, bug_text);
	else
		snprintf(message, sizeof(message), "%s in %s", how == SIGSEGV ? "SIGSEGV (a bad pointer)" : how == SIGFPE
			 ? "SIGFPE (a division by zero)" : how == SIGBUS ? "SIGBUS" : "SIGILL", call);
	say("{\"id\":%lld,\"ok\":true,\"kernelBug\":{\"kind\":\"%s\",\"message\":", id, how == TRAP_BUG ? "BUG" : "oops");
	say_string(message);
	say("}}\n");
}

/* ------------------------------------------------------------------ claims and machines */

static const char *name = "kernel-src";
static const char *release;
static const char *routines[8];
static int nroutines;

#define MAX_MACHINES 64
static struct machine machines[MAX_MACHINES];

static bool claims(const char *routine)
{
	for (int i = 0; i < nroutines; i++)
		if (!strcmp(routines[i], routine))
			return true;
	return false;
}

static bool number_field(const struct json *r, const char *key, long long lo, long long hi, long long *v)
{
	const struct json *n = json_get(r, key);

	if (!n || n->type != JSON_NUMBER || !n->integral || n->integer < lo || n->integer > hi)
		return false;
	*v = n->integer;
	return true;
}

/* The machine a routine request names, made current; NULL after an error answer. */
static const struct machine *routine_machine(long long id, const struct json *r, const char *op)
{
	const struct json *kernel = json_get(r, "kernel"), *topology = json_get(r, "topology");

	if (!claims(op)) {
		error_answer(id, "unsupported", "%s does not claim %s", name, op);
		return NULL;
	}
	if (!kernel || kernel->type != JSON_STRING || strcmp(kernel->string, release)) {
		error_answer(id, "unsupported", "%s is Linux %s: it answers for %s only", name, release, release);
		return NULL;
	}
	if (!topology || topology->type != JSON_STRING) {
		error_answer(id, "invalid", "%s without a string 'topology'", op);
		return NULL;
	}
	for (int i = 0; i < MAX_MACHINES; i++) {
		if (machines[i].name && !strcmp(machines[i].name, topology->string)) {
			machine_activate(&machines[i]);
			return &machines[i];
		}
	}
	error_answer(id, "invalid", "no machine registered as '%s'", topology->string);
	return NULL;
}

static void topology(long long id, const struct json *r)
{
	const struct json *n = json_get(r, "name"), *t = json_get(r, "topology");
	struct machine m;
	char why[400];
	int slot = -1;

	if (!n || n->type != JSON_STRING || !t || t->type != JSON_OBJECT) {
		error_answer(id, "invalid", "topology without a string 'name' and an object 'topology'");
		return;
	}
	if (!machine_read(t, &m, why, sizeof(why))) {
		error_answer(id, "invalid", "machine '%s': %s", n->string, why);
		return;
	}
	for (int i = 0; i < MAX_MACHINES && slot < 0; i++)
		if (machines[i].name && !strcmp(machines[i].name, n->string))
			slot = i;
	for (int i = 0; i < MAX_MACHINES && slot < 0; i++)
		if (!machines[i].name)
			slot = i;
	if (slot < 0)
		slot = (int)(id % MAX_MACHINES);   /* the kit keeps at most 64 names alive */
	machine_free(&machines[slot]);
	machines[slot] = m;
	machines[slot].name = strdup(n->string);
	say("{\"id\":%lld,\"ok\":true}\n", id);
}

/* ------------------------------------------------------------------ the routines */

/* Runs `call` with faults and BUG() of the kernel's code caught; the answer is written by the caller
 * unless a fault happened, which is answered here. True when the call returned. */
#define GUARDED(id, what, call) ({                                              \
	int _how = sigsetjmp(trap, 1);                                          \
	if (_how == 0) {                                                        \
		trapping = 1;                                                   \
		call;                                                           \
	}                                                                       \
	trapping = 0;                                                           \
	if (_how)                                                               \
		kernel_bug_answer((id), _how, (what));                          \
	_how == 0;                                                              \
})

static void group_cpus(long long id, const struct json *r)
{
	struct cpumask *volatile masks = NULL;
	volatile unsigned int nummasks = 0;
	const struct json *asked;
	long long groups;
	char what[80];
	bool ran;

	if (!routine_machine(id, r, "group-cpus"))
		return;
	if (!number_field(r, "groups", 0, 1 << 24, &groups)) {
		error_answer(id, "invalid", "group-cpus without an integer 'groups' 0-%d", 1 << 24);
		return;
	}
	snprintf(what, sizeof(what), "group_cpus_evenly(%lld)", groups);
	asked = json_get(r, "services");
	nservices = services_dropped = 0;
	recording = asked && asked->type == JSON_BOOL && asked->boolean;
#ifdef KSHIM_GROUP_CPUS_NUMMASKS
	ran = GUARDED(id, what, masks = group_cpus_evenly((unsigned int)groups, (unsigned int *)&nummasks));
#else
	ran = GUARDED(id, what, masks = group_cpus_evenly((unsigned int)groups));
#endif
	recording = false;
	if (!ran)
		return;
	if (services_dropped) {
		error_answer(id, "internal", "%s used more than %d hotplug services (%u more)", what, SERVICES_KEPT, services_dropped);
		kfree(masks);
		return;
	}
	say("{\"id\":%lld,\"ok\":true,", id);
	if (asked && asked->type == JSON_BOOL && asked->boolean) {
		say("\"services\":[");
		for (unsigned int i = 0; i < nservices; i++)
			say(i ? ",\"%s\"" : "\"%s\"", services[i]);
		say("],");
	}
	say("\"groups\":");
	if (!masks) {
		say("null}\n");
		return;
	}
	put("[", 1);
	for (long long g = 0; g < groups; g++) {
		if (g)
			put(",", 1);
		say_cpulist(&masks[g]);
	}
	put("]", 1);
#ifdef KSHIM_GROUP_CPUS_NUMMASKS
	say(",\"nummasks\":%u", nummasks);
#endif
	say("}\n");
	kfree(masks);
}

static void blk_mq_map(long long id, const struct json *r)
{
	struct blk_mq_queue_map qmap;
	long long queues, offset;
	char what[80];

	if (!routine_machine(id, r, "blk-mq-map"))
		return;
	if (!number_field(r, "queues", 0, 1 << 24, &queues) || !number_field(r, "offset", 0, 1 << 24, &offset)) {
		error_answer(id, "invalid", "blk-mq-map without integers 'queues' and 'offset' 0-%d", 1 << 24);
		return;
	}
	qmap.mq_map = malloc(nr_cpu_ids * sizeof(unsigned int));
	if (!qmap.mq_map) {
		error_answer(id, "internal", "out of memory for a map of %u CPUs", nr_cpu_ids);
		return;
	}
	/* Ids that are not possible are not mapped: -1, as the protocol wants. */
	memset(qmap.mq_map, 0xff, nr_cpu_ids * sizeof(unsigned int));
	qmap.nr_queues = (unsigned int)queues;
	qmap.queue_offset = (unsigned int)offset;
	snprintf(what, sizeof(what), "blk_mq_map_queues(nr_queues %lld, queue_offset %lld)", queues, offset);
	if (GUARDED(id, what, blk_mq_map_queues(&qmap))) {
		say("{\"id\":%lld,\"ok\":true,\"map\":[", id);
		for (unsigned int c = 0; c < nr_cpu_ids; c++)
			say(c ? ",%d" : "%d", cpumask_test_cpu((int)c, cpu_possible_mask) ? (int)qmap.mq_map[c] : -1);
		say("]}\n");
	}
	free(qmap.mq_map);
}

/* The interrupt sets of the request being answered, handed to the kernel as a driver's calc_sets would. */
static unsigned int request_sets[IRQ_AFFINITY_MAX_SETS];
static unsigned int request_nr_sets;

static void calc_sets_of_request(struct irq_affinity *affd, unsigned int affvecs)
{
	(void)affvecs;
	affd->nr_sets = request_nr_sets;
	for (unsigned int i = 0; i < request_nr_sets && i < IRQ_AFFINITY_MAX_SETS; i++)
		affd->set_size[i] = request_sets[i];
}

static void irq_affinity_masks(long long id, const struct json *r)
{
	const struct json *sets = json_get(r, "sets");
	struct irq_affinity_desc *volatile desc = NULL;
	struct irq_affinity affd;
	long long nvecs, pre, post, sum = 0, affvecs;
	char what[120];

	if (!routine_machine(id, r, "irq-affinity-masks"))
		return;
	if (!number_field(r, "nvecs", 0, 1 << 24, &nvecs) || !number_field(r, "preVectors", 0, 1 << 24, &pre)
	    || !number_field(r, "postVectors", 0, 1 << 24, &post) || !sets || sets->type != JSON_ARRAY) {
		error_answer(id, "invalid", "irq-affinity-masks without integers 'nvecs', 'preVectors', 'postVectors' 0-%d"
			     " and an array 'sets'", 1 << 24);
		return;
	}
	request_nr_sets = (unsigned int)sets->count;
	for (size_t i = 0; i < sets->count; i++) {
		const struct json *s = sets->items[i];

		if (s->type != JSON_NUMBER || !s->integral || s->integer < 0 || s->integer > 1 << 24) {
			error_answer(id, "invalid", "sets[%zu] is no set size 0-%d", i, 1 << 24);
			return;
		}
		if (i < IRQ_AFFINITY_MAX_SETS)
			request_sets[i] = (unsigned int)s->integer;
		sum += s->integer;
	}
	/* The kernel trusts calc_sets to share out exactly the vectors it is given; it returns NULL
	 * before using them for more than IRQ_AFFINITY_MAX_SETS sets or nothing to spread. */
	affvecs = nvecs > pre + post ? nvecs - pre - post : 0;
	if (sets->count > 0 && sets->count <= IRQ_AFFINITY_MAX_SETS && affvecs > 0 && sum != affvecs) {
		error_answer(id, "invalid", "set sizes add up to %lld; expected nvecs - preVectors - postVectors = %lld", sum, affvecs);
		return;
	}
	memset(&affd, 0, sizeof(affd));
	affd.pre_vectors = (unsigned int)pre;
	affd.post_vectors = (unsigned int)post;
	affd.calc_sets = sets->count ? calc_sets_of_request : NULL;
	snprintf(what, sizeof(what), "irq_create_affinity_masks(nvecs %lld, pre_vectors %lld, post_vectors %lld)", nvecs, pre, post);
	if (!GUARDED(id, what, desc = irq_create_affinity_masks((unsigned int)nvecs, &affd)))
		return;
	say("{\"id\":%lld,\"ok\":true,\"vectors\":", id);
	if (!desc) {
		say("null}\n");
		return;
	}
	put("[", 1);
	for (long long v = 0; v < nvecs; v++) {
		say(v ? ",{\"mask\":" : "{\"mask\":");
		say_cpulist(&desc[v].mask);
		say(",\"managed\":%s}", desc[v].is_managed ? "true" : "false");
	}
	say("]}\n");
	kfree(desc);
}

/* ------------------------------------------------------------------ the exchange */

static void hello(long long id)
{
	say("{\"id\":%lld,\"ok\":true,\"protocol\":2,\"name\":", id);
	say_string(name);
	say(",\"claims\":[");
	for (int i = 0; i < nroutines; i++)
		say("%s{\"routine\":\"%s\",\"kernel\":\"%s\"}", i ? "," : "", routines[i], release);
	say("]}\n");
}

/* Answers one request; false after bye. */
static bool answer(const char *line, size_t len)
{
	char why[300];
	const struct json *r = json_parse(line, len, why, sizeof(why));
	const struct json *idv, *op;
	long long id;

	if (!r || r->type != JSON_OBJECT) {
		fprintf(stderr, "kshim: a request that is no JSON object (%s): %.200s\n", r ? "not an object" : why, line);
		exit(65);
	}
	idv = json_get(r, "id");
	op = json_get(r, "op");
	if (!idv || idv->type != JSON_NUMBER || !idv->integral) {
		fprintf(stderr, "kshim: a request without an integer id: %.200s\n", line);
		exit(65);
	}
	id = idv->integer;
	if (!op || op->type != JSON_STRING)
		error_answer(id, "invalid", "a request without a string 'op'");
	else if (!strcmp(op->string, "hello"))
		hello(id);
	else if (!strcmp(op->string, "topology"))
		topology(id, r);
	else if (!strcmp(op->string, "group-cpus"))
		group_cpus(id, r);
	else if (!strcmp(op->string, "blk-mq-map"))
		blk_mq_map(id, r);
	else if (!strcmp(op->string, "irq-affinity-masks"))
		irq_affinity_masks(id, r);
	else if (!strcmp(op->string, "bye")) {
		say("{\"id\":%lld,\"ok\":true}\n", id);
		return false;
	} else
		error_answer(id, "unsupported", "%s answers group-cpus, blk-mq-map and irq-affinity-masks only, not %s", name, op->string);
	return true;
}

static void usage(void)
{
	fprintf(stderr, "usage: kshim --name NAME --kernel X.Y ROUTINE...\n"
		"  answers spec/protocol.md on stdin/stdout for ROUTINE (group-cpus, blk-mq-map, irq-affinity-masks) of Linux X.Y\n");
	exit(64);
}

int main(int argc, char **argv)
{
	static const int faults[] = { SIGSEGV, SIGFPE, SIGBUS, SIGILL };
	char *in = NULL;
	size_t in_len = 0, in_cap = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--name") && i + 1 < argc)
			name = argv[++i];
		else if (!strcmp(argv[i], "--kernel") && i + 1 < argc)
			release = argv[++i];
		else if (argv[i][0] != '-' && nroutines < (int)ARRAY_SIZE(routines))
			routines[nroutines++] = argv[i];
		else
			usage();
	}
	if (!release)
		usage();
	for (size_t i = 0; i < ARRAY_SIZE(faults); i++) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_fault;
		sigemptyset(&sa.sa_mask);
		sigaction(faults[i], &sa, NULL);
	}
	/* Read what has come, answer every whole line of it, write the answers, then wait for more:
	 * pipelined requests are answered in one write, and nothing waits in a buffer while we read. */
	for (size_t scanned = 0;;) {
		size_t start = 0;
		ssize_t n;

		if (in_len == in_cap) {
			in_cap = in_cap ? 2 * in_cap : 1 << 16;
			in = realloc(in, in_cap);
			if (!in) {
				fprintf(stderr, "kshim: out of memory for requests\n");
				return 70;
			}
		}
		n = read(0, in + in_len, in_cap - in_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		in_len += (size_t)n;
		for (size_t i = scanned; i < in_len; i++) {
			if (in[i] != '\n')
				continue;
			if (!answer(in + start, i - start)) {
				flush();
				return 0;
			}
			start = i + 1;
		}
		memmove(in, in + start, in_len - start);
		in_len -= start;
		scanned = in_len;
		flush();
	}
	flush();
	return 0;
}
