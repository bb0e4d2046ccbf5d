// SPDX-License-Identifier: GPL-2.0
/*
 * numaspread guest agent: the guest's end of the channel to the host (a virtio-serial port named
 * "numaspread"). It reads request lines from the port and writes one answer line per request, in
 * order. Requests for the probe module are passed to /dev/numaspread_probe in batches (every
 * complete line the port had); the agent answers these itself:
 *
 *   snap          the files numaspread reads of a machine (sys/devices/system cpu and node, the
 *                 first block of /proc/cpuinfo, osrelease): "ok BYTES", a newline, then BYTES of
 *                 entries "F PATH LENGTH\n" + content, or "L PATH TARGET\n" for a symbolic link
 *   online LIST   takes CPUs online or offline until exactly LIST is online: "ok", or
 *                 "err refused: cpu N: reason"
 *   grphp NUMGRPS CPU [selftest-lock]
 *                 group_cpus_evenly(NUMGRPS) from a CPU hotplug callback (spec/hotplug.md HP-6):
 *                 takes CPU offline when it is online, arms the probe's hotplug state (hparm),
 *                 brings CPU online through sysfs, answers what the probe collected (hpdone) and
 *                 leaves CPU as it found it. A routine that takes cpus_read_lock() there never
 *                 returns: neither does the online, and this request is never answered (the
 *                 probe's selftest-lock takes it, for the host's tests)
 *   cpus          "ok PRESENT ONLINE": the two CPU lists of /sys/devices/system/cpu ("." when empty)
 *   devsnap       the files of the machine's devices numaspread snapshot reads (/proc/interrupts, each
 *                 /proc/irq/N, block queues, PCI devices, network interfaces' XPS, nvme's queue
 *                 parameters): as "snap"
 *   ping          "ok"
 *
 * Built statically on the host; it needs nothing in the guest but /sys, /proc and /dev.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct buf {
	char *p;
	size_t len, cap;
};

static void need(struct buf *b, size_t more)
{
	if (b->len + more + 1 <= b->cap)
		return;
	b->cap = (b->len + more + 1) * 2;
	b->p = realloc(b->p, b->cap);
	if (!b->p) {
		perror("numaspread agent: out of memory");
		exit(1);
	}
}

static void add(struct buf *b, const void *data, size_t n)
{
	need(b, n);
	memcpy(b->p + b->len, data, n);
	b->len += n;
	b->p[b->len] = 0;
}

static void addf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	need(b, n);
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, n + 1, fmt, ap);
	va_end(ap);
	b->len += n;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN) {
				usleep(1000);
				continue;
			}
			return -1;
		}
		p += w;
		n -= w;
	}
	return 0;
}

/* ------------------------------------------------------------------ snapshot */

static void snap_file(struct buf *out, const char *path)
{
	char data[65536];
	struct buf content = {0};
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return;
	while ((n = read(fd, data, sizeof(data))) > 0)
		add(&content, data, n);
	close(fd);
	if (n < 0) {
		free(content.p);
		return;
	}
	addf(out, "F %s %zu\n", path + 1, content.len);
	if (content.len)
		add(out, content.p, content.len);
	free(content.p);
}

static void snap_first_block(struct buf *out, const char *path)
{
	FILE *f = fopen(path, "r");
	struct buf content = {0};
	char line[4096];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && line[0] != '\n')
		add(&content, line, strlen(line));
	fclose(f);
	addf(out, "F %s %zu\n", path + 1, content.len);
	if (content.len)
		add(out, content.p, content.len);
	free(content.p);
}

static int starts_numbered(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) && name[n] >= '0' && name[n] <= '9' && strspn(name + n, "0123456789") == strlen(name + n);
}

/* The link at path itself. */
static void snap_link(struct buf *out, const char *path)
{
	char target[512];
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n < 0)
		return;
	target[n] = 0;
	addf(out, "L %s %s\n", path + 1, target);
}

/* The file at path when it is a regular one (a folder or a link is passed over). */
static void snap_regular_file(struct buf *out, const char *path)
{
	struct stat st;

	if (!stat(path, &st) && S_ISREG(st.st_mode))
		snap_file(out, path);
}

/*
 * Calls each(out, dir/NAME) for every entry of dir named PREFIXn (cpu0, node1), or, with a NULL
 * prefix, for every entry that is no dot file; in the order readdir() gives them.
 */
static void each_entry(struct buf *out, const char *dir, const char *prefix, void (*each)(struct buf *, const char *))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (prefix ? !starts_numbered(e->d_name, prefix) : e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		each(out, path);
	}
	closedir(d);
}

static void snap_files(struct buf *out, const char *dir, const char *const *names)
{
	char path[512];

	for (; *names; names++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *names);
		snap_file(out, path);
	}
}

/* A CPU's folder: its online file, its nodeN link and the files of its topology folder. */
static void snap_cpu(struct buf *out, const char *dir)
{
	static const char *const online[] = {"online", NULL};
	char path[512];

	snap_files(out, dir, online);
	each_entry(out, dir, "node", snap_link);
	snprintf(path, sizeof(path), "%s/topology", dir);
	each_entry(out, path, NULL, snap_regular_file);
}

/* A node's folder: its CPU list, distances and memory, and its cpuN links. */
static void snap_node(struct buf *out, const char *dir)
{
	static const char *const files[] = {"cpulist", "distance", "meminfo", NULL};

	snap_files(out, dir, files);
	each_entry(out, dir, "cpu", snap_link);
}

static void snapshot(struct buf *answer)
{
	static const char *const cpu_files[] = {"possible", "present", "online", "offline", "kernel_max", NULL};
	static const char *const node_files[] = {"possible", "online", "has_cpu", "has_memory", "has_normal_memory", NULL};
	struct buf out = {0};

	snap_files(&out, "/sys/devices/system/cpu", cpu_files);
	each_entry(&out, "/sys/devices/system/cpu", "cpu", snap_cpu);
	snap_files(&out, "/sys/devices/system/node", node_files);
	each_entry(&out, "/sys/devices/system/node", "node", snap_node);
	snap_first_block(&out, "/proc/cpuinfo");
	snap_file(&out, "/proc/sys/kernel/osrelease");
	addf(answer, "ok %zu\n", out.len);
	if (out.len)
		add(answer, out.p, out.len);
	free(out.p);
}

/* ------------------------------------------------------------------ devices (issue 27) */

static void snap_irq(struct buf *out, const char *dir)
{
	static const char *const files[] = {"smp_affinity", "smp_affinity_list", "effective_affinity", "effective_affinity_list",
					    "affinity_hint", "node", NULL};

	snap_files(out, dir, files);
}

static void snap_queue_cpu_list(struct buf *out, const char *dir)
{
	static const char *const files[] = {"cpu_list", NULL};

	snap_files(out, dir, files);
}

static void snap_block(struct buf *out, const char *dir)
{
	char path[512];

	snprintf(path, sizeof(path), "/sys/class/block/%s", strrchr(dir, '/') + 1);
	snap_link(out, path);
	snprintf(path, sizeof(path), "%s/mq", dir);
	each_entry(out, path, NULL, snap_queue_cpu_list);
}

static void snap_pci(struct buf *out, const char *dir)
{
	static const char *const files[] = {"numa_node", NULL};
	char path[512];

	snap_files(out, dir, files);
	snprintf(path, sizeof(path), "%s/msi_irqs", dir);
	each_entry(out, path, NULL, snap_regular_file);
	snprintf(path, sizeof(path), "%s/driver", dir);
	snap_link(out, path);
}

static void snap_xps(struct buf *out, const char *dir)
{
	static const char *const files[] = {"xps_cpus", NULL};

	if (!strncmp(strrchr(dir, '/') + 1, "tx-", 3))
		snap_files(out, dir, files);
}

static void snap_net(struct buf *out, const char *path)
{
	char queues[512];

	snap_link(out, path);
	snprintf(queues, sizeof(queues), "%s/queues", path);
	each_entry(out, queues, NULL, snap_xps);
}

/*
 * The files numaspread snapshot takes of a machine's devices (spec/formats.md FMT-15): the
 * interrupts and each IRQ's affinity files, each block device's queues, each PCI device's node,
 * MSI IRQs and driver, each network interface's XPS maps. Answered as "snap" is.
 */
static void device_snapshot(struct buf *answer)
{
	static const char *const nvme_parameters[] = {"write_queues", "poll_queues", NULL};
	struct buf out = {0};

	snap_file(&out, "/proc/interrupts");
	snap_files(&out, "/sys/module/nvme/parameters", nvme_parameters);
	each_entry(&out, "/proc/irq", NULL, snap_irq);
	each_entry(&out, "/sys/block", NULL, snap_block);
	each_entry(&out, "/sys/bus/pci/devices", NULL, snap_pci);
	each_entry(&out, "/sys/class/net", NULL, snap_net);
	addf(answer, "ok %zu\n", out.len);
	if (out.len)
		add(answer, out.p, out.len);
	free(out.p);
}

/* ------------------------------------------------------------------ CPU hotplug */

/* Reads a CPU list (0-3,8 or "."): sets want[cpu] for each; returns -1 on bad text. */
static int parse_list(const char *s, char *want, int max)
{
	if (!strcmp(s, "."))
		return 0;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1)
				return -1;
			s = end;
		}
		if (a < 0 || b < a || b >= max)
			return -1;
		for (; a <= b; a++)
			want[a] = 1;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return 0;
}

static int set_cpu(int cpu, int on, struct buf *answer)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		addf(answer, "err refused: cpu %d: %s has no online file (%s)\n", cpu, on ? "bringing it online" : "taking it offline",
		     strerror(errno));
		return -1;
	}
	if (write(fd, on ? "1" : "0", 1) != 1) {
		addf(answer, "err refused: cpu %d: %s: %s\n", cpu, on ? "bringing it online" : "taking it offline", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int is_online(int cpu)
{
	char path[128], c = '1';
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 1;	/* no online file: a CPU that cannot go offline */
	if (read(fd, &c, 1) != 1)
		c = '1';
	close(fd);
	return c == '1';
}

#define MAX_CPUS 8192

static void set_online(const char *list, struct buf *answer)
{
	static char want[MAX_CPUS];
	int cpu, max = 0;
	char path[128];

	memset(want, 0, sizeof(want));
	if (parse_list(list, want, MAX_CPUS)) {
		addf(answer, "err invalid: online LIST\n");
		return;
	}
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
		if (!access(path, F_OK))
			max = cpu + 1;
	}
	/* Online first: the last online CPU can never be taken offline. */
	for (cpu = 0; cpu < max; cpu++)
		if (want[cpu] && !is_online(cpu) && set_cpu(cpu, 1, answer))
			return;
	for (cpu = 0; cpu < max; cpu++)
		if (!want[cpu] && is_online(cpu) && set_cpu(cpu, 0, answer))
			return;
	for (cpu = max; cpu < MAX_CPUS; cpu++)
		if (want[cpu]) {
			addf(answer, "err refused: cpu %d: not present\n", cpu);
			return;
		}
	addf(answer, "ok\n");
}

static void cpu_lists(struct buf *answer)
{
	static const char *const files[] = {"/sys/devices/system/cpu/present", "/sys/devices/system/cpu/online"};
	int i;

	addf(answer, "ok");
	for (i = 0; i < 2; i++) {
		char text[4096] = "";
		int fd = open(files[i], O_RDONLY);
		ssize_t n = fd < 0 ? 0 : read(fd, text, sizeof(text) - 1);

		if (fd >= 0)
			close(fd);
		text[n > 0 ? n : 0] = 0;
		text[strcspn(text, "\n")] = 0;
		addf(answer, " %s", text[0] ? text : ".");
	}
	addf(answer, "\n");
}

/* ------------------------------------------------------------------ group_cpus_evenly under hotplug */

static void flush_probe(int probe, struct buf *batch, int lines, struct buf *answer);

/* One request to the probe; its answer line (with its newline) in out. */
static void probe_request(int probe, const char *request, struct buf *out)
{
	struct buf one = {0};

	addf(&one, "%s\n", request);
	out->len = 0;
	flush_probe(probe, &one, 1, out);
	free(one.p);
}

static void group_during_online(const char *args, int probe, struct buf *answer)
{
	struct buf got = {0}, refused = {0};
	char request[64], option[16] = "";
	int numgrps, cpu, was;

	if (sscanf(args, "%d %d %15s", &numgrps, &cpu, option) < 2 || numgrps < 0 || cpu <= 0 || cpu >= MAX_CPUS) {
		addf(answer, "err invalid: grphp NUMGRPS CPU [selftest-lock] with a CPU other than 0\n");
		return;
	}
	was = is_online(cpu);
	if (was && set_cpu(cpu, 0, answer))
		return;
	snprintf(request, sizeof(request), "hparm %d %s", numgrps, option);
	probe_request(probe, request, &got);
	if (got.len && !strcmp(got.p, "ok\n")) {
		/* Blocks for ever when the callback's routine waits for the hotplug lock. */
		set_cpu(cpu, 1, &refused);
		probe_request(probe, "hpdone", &got);
	}
	if (refused.len)
		add(answer, refused.p, refused.len);
	else if (got.len)
		add(answer, got.p, got.len);
	else
		addf(answer, "err internal: the probe gave no answer\n");
	if (!was && is_online(cpu))
		set_cpu(cpu, 0, &refused);
	else if (was && !is_online(cpu))
		set_cpu(cpu, 1, &refused);
	free(got.p);
	free(refused.p);
}

/* ------------------------------------------------------------------ the loop */

static int open_port(void)
{
	DIR *d;
	struct dirent *e;
	char path[300], name[64];
	int tries;

	for (tries = 0; tries < 500; tries++) {
		d = opendir("/sys/class/virtio-ports");
		while (d && (e = readdir(d))) {
			FILE *f;

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name", e->d_name);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(name, sizeof(name), f) && !strncmp(name, "numaspread", 10)) {
				int fd;

				fclose(f);
				closedir(d);
				snprintf(path, sizeof(path), "/dev/%s", e->d_name);
				fd = open(path, O_RDWR);
				if (fd >= 0)
					return fd;
				d = NULL;
				break;
			}
			fclose(f);
		}
		if (d)
			closedir(d);
		usleep(10000);
	}
	return -1;
}

/* Passes the batched probe requests to the module and appends its answers. */
static void flush_probe(int probe, struct buf *batch, int lines, struct buf *answer)
{
	char data[65536];
	int seen = 0;

	if (!lines)
		return;
	if (probe < 0 || write_all(probe, batch->p, batch->len)) {
		int i;

		for (i = 0; i < lines; i++)
			addf(answer, "err internal: the probe module is not loaded or refused the request (%s)\n",
			     probe < 0 ? "no /dev/numaspread_probe" : strerror(errno));
		batch->len = 0;
		return;
	}
	batch->len = 0;
	while (seen < lines) {
		ssize_t n = read(probe, data, sizeof(data)), i;

		if (n <= 0) {
			for (; seen < lines; seen++)
				addf(answer, "err internal: the probe module gave no answer\n");
			return;
		}
		for (i = 0; i < n; i++)
			seen += data[i] == '\n';
		add(answer, data, n);
	}
}

int main(void)
{
	struct buf in = {0}, batch = {0}, answer = {0};
	char data[65536], release[128] = "";
	int port = open_port(), probe = open("/dev/numaspread_probe", O_RDWR), fd, heard = 0, silent = 0;

	if (port < 0) {
		fprintf(stderr, "numaspread agent: no virtio port named numaspread\n");
		return 1;
	}
	fd = open("/proc/sys/kernel/osrelease", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, release, sizeof(release) - 1);

		release[n > 0 ? n : 0] = 0;
		release[strcspn(release, "\n")] = 0;
		close(fd);
	}
	addf(&answer, "ready %s %s\n", release, probe < 0 ? "noprobe" : "probe");
	write_all(port, answer.p, answer.len);
	answer.len = 0;
	for (;;) {
		ssize_t n = read(port, data, sizeof(data));
		size_t start = 0, i;
		int lines = 0;

		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			/*
			 * The host is not connected (yet, or any more): wait for it. A host that
			 * spoke and then went away for 5 s is gone for good (a killed JVM): the agent
			 * ends, and /init powers the guest off, so no QEMU outlives its host.
			 */
			if (heard && ++silent > 250)
				return 2;
			usleep(20000);
			continue;
		}
		heard = 1;
		silent = 0;
		add(&in, data, n);
		for (i = 0; i < in.len; i++) {
			char *line;

			if (in.p[i] != '\n')
				continue;
			in.p[i] = 0;
			line = in.p + start;
			if (!strcmp(line, "ping") || !strcmp(line, "snap") || !strcmp(line, "cpus") || !strcmp(line, "devsnap") || !strncmp(line, "online ", 7)
			    || !strncmp(line, "grphp ", 6) || !strcmp(line, "quit")) {
				flush_probe(probe, &batch, lines, &answer);
				lines = 0;
				if (!strcmp(line, "ping"))
					addf(&answer, "ok\n");
				else if (!strcmp(line, "snap"))
					snapshot(&answer);
				else if (!strcmp(line, "cpus"))
					cpu_lists(&answer);
				else if (!strcmp(line, "devsnap"))
					device_snapshot(&answer);
				else if (!strcmp(line, "quit")) {
					addf(&answer, "ok\n");
					write_all(port, answer.p, answer.len);
					return 0;
				} else if (!strncmp(line, "grphp ", 6))
					group_during_online(line + 6, probe, &answer);
				else
					set_online(line + 7, &answer);
			} else {
				add(&batch, line, strlen(line));
				add(&batch, "\n", 1);
				lines++;
			}
			start = i + 1;
		}
		flush_probe(probe, &batch, lines, &answer);
		memmove(in.p, in.p + start, in.len - start);
		in.len -= start;
		if (answer.len) {
			write_all(port, answer.p, answer.len);
			answer.len = 0;
		}
	}
}
