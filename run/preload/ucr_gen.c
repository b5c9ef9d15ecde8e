/*
 * ucr_gen.c - files of the machine made when they are opened, in the
 * preload library (libuncore-run.so): /proc/stat and /proc/uptime, whose counts move with
 * the machine's clocks, /proc/vmstat, a process's status (its own or another's), whose
 * cpus and memory nodes are the machine's, each cpu's energy-performance
 * bias, which is its MSR's, and its idle states' usage and time, which
 * move with its idle residency.  The tree holds an empty /proc/stat (so
 * that stat and access find it); opening one of these for reading returns
 * a memfd with the file as the machine's kernel would write it at that
 * moment.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ucr_preload.h"

#define USER_HZ 100 /* the unit of /proc/stat's times (Documentation/filesystems/proc.rst) */

/* The host's file at path, past the library's own syscall(), which serves
 * the machine's paths: these are what the machine's files are made from. */
static int host_open(const char *path)
{
	REAL(syscall);
	return (int)real_syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
}

/* The host's file open on fd copied into t, a memstream over *text, which
 * is complete once t is closed; 0, or -errno with everything freed. */
static int host_copy(int fd, FILE *t, char **text)
{
	char buf[4096];
	ssize_t n;

	if (fd < 0 || !t) {
		int e = fd < 0 ? errno : ENOMEM;

		if (t)
			fclose(t);
		free(*text);
		*text = NULL;
		if (fd >= 0)
			close(fd);
		return -e;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, t);
	close(fd);
	fclose(t);
	return 0;
}

static int msr(unsigned cpu, uint32_t addr, uint64_t *v)
{
	struct ucr_req q = { UCR_MSR_RD, 0, addr, 0, 0, 0, 0, 0, 0 };
	struct ucr_rsp r;
	int saved = ucr_t_target, rc;

	ucr_t_target = (int)cpu;
	rc = ucr_call(&q, &r);
	ucr_t_target = saved;
	*v = r.v[0];
	return rc;
}

/* /proc/stat.  A cpu's time since power-on is its TSC; the part of it in C0
 * is its MPERF (both count at the TSC's rate, the base ratio of
 * MSR_PLATFORM_INFO 15:8 x 100 MHz on these parts): C0 time is shown as
 * user time, the rest as idle, in USER_HZ ticks.  btime is the machine's
 * wall clock less its time since power-on.  The machine's kernel counts no
 * interrupts, context switches or forks of its own (intr, ctxt,
 * processes 0); the program runs (procs_running 1). */
static int proc_stat(FILE *f)
{
	uint64_t info, hz, tot_busy = 0, tot_idle = 0, *busy, *idle, tsc0 = 0;
	struct timespec now;

	if (msr(0, 0xCE, &info) || !(hz = ((info >> 8) & 0xFF) * 100000000ull))
		return -EIO;
	busy = calloc(ucr_ncpu, sizeof(*busy));
	idle = calloc(ucr_ncpu, sizeof(*idle));
	if (!busy || !idle) {
		free(busy);
		free(idle);
		return -ENOMEM;
	}
	for (unsigned c = 0; c < ucr_ncpu; c++) {
		uint64_t tsc, mperf;

		if (msr(c, 0x10, &tsc) || msr(c, 0xE7, &mperf)) {
			free(busy);
			free(idle);
			return -EIO;
		}
		if (!c)
			tsc0 = tsc;
		if (mperf > tsc)
			mperf = tsc;
		busy[c] = (uint64_t)((unsigned __int128)mperf * USER_HZ / hz);
		idle[c] = (uint64_t)((unsigned __int128)tsc * USER_HZ / hz) - busy[c];
		tot_busy += busy[c];
		tot_idle += idle[c];
	}
	fprintf(f, "cpu  %llu 0 0 %llu 0 0 0 0 0 0\n", (unsigned long long)tot_busy, (unsigned long long)tot_idle);
	for (unsigned c = 0; c < ucr_ncpu; c++)
		fprintf(f, "cpu%u %llu 0 0 %llu 0 0 0 0 0 0\n", c, (unsigned long long)busy[c],
			(unsigned long long)idle[c]);
	free(busy);
	free(idle);
	clock_gettime(CLOCK_REALTIME, &now);
	fprintf(f, "intr 0\nctxt 0\nbtime %lld\nprocesses 0\nprocs_running 1\nprocs_blocked 0\n"
		   "softirq 0 0 0 0 0 0 0 0 0 0 0\n",
		(long long)now.tv_sec - (long long)(tsc0 / hz));
	return 0;
}

/* /proc/uptime: the machine's time since power-on (CLOCK_BOOTTIME) and
 * the idle time of all its cpus together, both in seconds with two
 * decimals (fs/proc/uptime.c): the idle time is the sum of /proc/stat's,
 * tick for tick. */
static int proc_uptime(FILE *f)
{
	uint64_t info, hz, idle = 0;
	struct timespec up;

	if (msr(0, 0xCE, &info) || !(hz = ((info >> 8) & 0xFF) * 100000000ull))
		return -EIO;
	for (unsigned c = 0; c < ucr_ncpu; c++) {
		uint64_t tsc, mperf;

		if (msr(c, 0x10, &tsc) || msr(c, 0xE7, &mperf))
			return -EIO;
		/* in /proc/stat's ticks, as it counts them (USER_HZ is 100) */
		idle += (uint64_t)((unsigned __int128)tsc * USER_HZ / hz) -
			(uint64_t)((unsigned __int128)(mperf < tsc ? mperf : tsc) * USER_HZ / hz);
	}
	clock_gettime(CLOCK_BOOTTIME, &up);
	fprintf(f, "%lld.%02ld %llu.%02llu\n", (long long)up.tv_sec, up.tv_nsec / 10000000,
		(unsigned long long)(idle / 100), (unsigned long long)(idle % 100));
	return 0;
}

/* the kernel's %*pb of the cpus in m over nbits: hex digits, a comma
 * between each 32 bits, most significant first */
static void put_mask(FILE *f, uint64_t m, unsigned nbits)
{
	unsigned digits = (nbits + 3) / 4;

	for (unsigned d = digits; d-- > 0;) {
		fputc("0123456789abcdef"[d < 16 ? (m >> (4 * d)) & 0xF : 0], f);
		if (d && d % 8 == 0)
			fputc(',', f);
	}
}

/* the kernel's %*pbl: ranges "0-3,8" */
static void put_list(FILE *f, uint64_t m)
{
	int first = 1;

	for (unsigned c = 0; c < 64; c++) {
		unsigned e = c;

		if (!(m >> c & 1))
			continue;
		while (e + 1 < 64 && (m >> (e + 1) & 1))
			e++;
		fprintf(f, first ? "%u" : ",%u", c);
		if (e > c)
			fprintf(f, "-%u", e);
		first = 0;
		c = e;
	}
}

/* the machine's NUMA nodes: its tree's node/online ("0-1") */
static unsigned machine_nodes(void)
{
	char p[PATH_MAX + 64], b[32] = "";
	unsigned lo = 0, hi = 0;
	int fd;
	ssize_t n;

	snprintf(p, sizeof(p), "%s/sys/devices/system/node/online", ucr_root);
	if ((fd = host_open(p)) < 0)
		return 1;
	n = read(fd, b, sizeof(b) - 1);
	close(fd);
	b[n > 0 ? n : 0] = 0;
	if (sscanf(b, "%u-%u", &lo, &hi) == 2 && hi < 64)
		return hi + 1;
	return 1;
}

/* Another process's status (ucr_gen_path): its pid, from the opening
 * thread's path to its making */
static TLS int other_pid;

/* /proc/self/status (and of this process by pid, and thread-self): the
 * host kernel's, with the lines that name cpus and memory nodes as the
 * machine's (the calling thread's binding; every node).  Mems_allowed keeps
 * the host's width: libnuma sizes its node masks by it.  Another process's
 * (`cat /proc/$$/status`): the same of its host status, with the binding
 * the server holds for it, as taskset -p sees it (a process that never
 * bound itself, or one not of the program: every cpu). */
static int status_of(FILE *f, int pid)
{
	char *text = NULL, *line, *save = NULL, path[64];
	size_t len = 0;
	FILE *t = open_memstream(&text, &len);
	int fd, rc;
	uint64_t cpus = ucr_thread_mask(), nodes = (1ull << machine_nodes()) - 1;

	if (pid) {
		struct ucr_rsp r;
		uint64_t all = ucr_ncpu >= 64 ? ~0ull : (1ull << ucr_ncpu) - 1;

		snprintf(path, sizeof(path), "/proc/%d/status", pid);
		cpus = !ucr_request(UCR_AFFINITY, (uint64_t)pid, 1, 0, &r) && (r.v[0] & all) ? r.v[0] & all : all;
	} else {
		snprintf(path, sizeof(path), "/proc/thread-self/status");
	}
	fd = host_open(path);
	if ((rc = host_copy(fd, t, &text)))
		return rc;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "Cpus_allowed:", 13)) {
			fputs("Cpus_allowed:\t", f);
			put_mask(f, cpus, ucr_ncpu);
		} else if (!strncmp(line, "Cpus_allowed_list:", 18)) {
			fputs("Cpus_allowed_list:\t", f);
			put_list(f, cpus);
		} else if (!strncmp(line, "Mems_allowed:", 13)) {
			const char *v = line + 13;
			unsigned digits = 0;

			for (; *v; v++)
				digits += *v != ',' && *v != '\t' && *v != ' ';
			fputs("Mems_allowed:\t", f);
			put_mask(f, nodes, digits * 4);
		} else if (!strncmp(line, "Mems_allowed_list:", 18)) {
			fputs("Mems_allowed_list:\t", f);
			put_list(f, nodes);
		} else {
			fputs(line, f);
		}
		fputc('\n', f);
	}
	free(text);
	return 0;
}

/* /proc/vmstat: the host kernel's counters by name, each the machine's:
 * nr_free_pages is the machine's free memory (its /proc/meminfo's MemFree,
 * in 4 KiB pages); the machine's kernel counts no paging, faults,
 * allocations or NUMA events (0), as its /proc/stat counts no interrupts.
 * vmstat's free and bi/bo columns come from here. */
static int proc_vmstat(FILE *f)
{
	char p[PATH_MAX + 32], line[256], *text = NULL;
	unsigned long long free_kb = 0;
	size_t len = 0;
	FILE *mi, *t = open_memstream(&text, &len);
	int fd = host_open("/proc/vmstat"), rc;

	snprintf(p, sizeof(p), "%s/proc/meminfo", ucr_root);
	if ((mi = fopen(p, "re"))) {
		while (fgets(line, sizeof(line), mi))
			sscanf(line, "MemFree: %llu", &free_kb);
		fclose(mi);
	}
	if ((rc = host_copy(fd, t, &text)))
		return rc;
	for (char *l = text, *e; l && *l; l = e ? e + 1 : NULL) {
		size_t k;

		e = strchr(l, '\n');
		k = strcspn(l, " \n");
		fprintf(f, "%.*s %llu\n", (int)k, l, k == 13 && !strncmp(l, "nr_free_pages", 13) ? free_kb / 4 : 0);
	}
	free(text);
	return 0;
}

/* The cpu of a per-cpu file being made (ucr_gen_kind) */
static TLS unsigned gen_cpu;

/* /sys/devices/system/cpu/cpuN/power/energy_perf_bias: the cpu's
 * IA32_ENERGY_PERF_BIAS (0x1B0) bits 3:0, as Linux's intel_epb shows it
 * (x86_energy_perf_policy and cpupower read the bias here, not the MSR) */
static int cpu_epb(FILE *f)
{
	uint64_t v;

	if (msr(gen_cpu, 0x1B0, &v))
		return -EIO;
	fprintf(f, "%u\n", (unsigned)(v & 0xF));
	return 0;
}

/* The idle state of a cpuidle file being made (ucr_gen_kind) */
static TLS unsigned gen_state;

/* A cpu's idle time since power-on, microseconds: its TSC less its MPERF
 * (C0), at the base ratio of MSR_PLATFORM_INFO 15:8 x 100 MHz, as
 * /proc/stat counts it. */
static int idle_us(unsigned cpu, uint64_t *us)
{
	uint64_t info, hz, tsc, mperf;

	if (msr(cpu, 0xCE, &info) || !(hz = ((info >> 8) & 0xFF) * 100000000ull) || msr(cpu, 0x10, &tsc) ||
	    msr(cpu, 0xE7, &mperf))
		return -EIO;
	*us = (uint64_t)((unsigned __int128)(tsc - (mperf > tsc ? tsc : mperf)) * 1000000u / hz);
	return 0;
}

/* Whether gen_state is the deepest of the cpu's states: the next has no
 * directory in the tree. */
static int deepest_state(void)
{
	char p[PATH_MAX];
	REAL(syscall);

	if (snprintf(p, sizeof(p), "%s/sys/devices/system/cpu/cpu%u/cpuidle/state%u/name", ucr_root, gen_cpu,
		     gen_state + 1) >= (int)sizeof(p))
		return 1;
	return real_syscall(SYS_faccessat, AT_FDCWD, p, F_OK) != 0;
}

/* cpuidle's stateK/time and usage.  The machine has a cpu's idle
 * residency, not its idle periods, which are a program's sleeps:
 * milliseconds and more, past every state's target residency, so the menu
 * governor would pick the deepest state each time, and all the idle time
 * is the deepest state's; POLL and the shallower states keep 0.  usage
 * counts an entry a 4 ms tick of idle time (Debian's CONFIG_HZ=250), the
 * entries of a kernel whose tick wakes the idle cpu (docs/tools.md "Idle
 * states"). */
#define IDLE_TICK_US 4000u
static int cpu_idle(FILE *f, int want_usage)
{
	uint64_t us = 0;
	int deepest = gen_state && deepest_state();

	if (deepest && idle_us(gen_cpu, &us))
		return -EIO;
	fprintf(f, "%llu\n", (unsigned long long)(want_usage ? (us + IDLE_TICK_US - 1) / IDLE_TICK_US : us));
	return 0;
}

static int cpu_idle_time(FILE *f)
{
	return cpu_idle(f, 0);
}

static int cpu_idle_usage(FILE *f)
{
	return cpu_idle(f, 1);
}

static int proc_status(FILE *f)
{
	return status_of(f, 0);
}

static int proc_status_other(FILE *f)
{
	return status_of(f, other_pid);
}

/* /proc/self/cgroup: the root of the machine's cgroup (v2) hierarchy,
 * whose files the tree has under /sys/fs/cgroup */
static int proc_cgroup(FILE *f)
{
	fputs("0::/\n", f);
	return 0;
}

static const struct {
	const char *name, *memfd; /* in the tree; of the memfd */
	int (*make)(FILE *f);
} gens[] = {
	{ "/proc/stat", "proc-stat", proc_stat },
	{ "", "proc-status", proc_status }, /* by ucr_gen_path() */
	{ "", "proc-cgroup", proc_cgroup },
	{ "", "proc-status", proc_status_other },
	{ "", "energy_perf_bias", cpu_epb }, /* by ucr_gen_kind's pattern */
	{ "/proc/vmstat", "proc-vmstat", proc_vmstat },
	{ "", "cpuidle-usage", cpu_idle_usage }, /* by ucr_gen_kind's pattern */
	{ "", "cpuidle-time", cpu_idle_time },
	{ "/proc/uptime", "proc-uptime", proc_uptime },
};

/* A path of the process's own files that is made when opened: its status
 * as /proc/self/status, /proc/thread-self/status, /proc/PID/status,
 * /proc/self/task/TID/status, and its cgroup; another process's status
 * (absolute paths). */
int ucr_gen_path(const char *path)
{
	char own[64];

	if (!path || strncmp(path, "/proc/", 6))
		return 0;
	if (!strcmp(path, "/proc/self/status") || !strcmp(path, "/proc/thread-self/status"))
		return 2;
	if (!strcmp(path, "/proc/self/cgroup") || !strcmp(path, "/proc/thread-self/cgroup"))
		return 3;
	snprintf(own, sizeof(own), "/proc/%d/status", (int)getpid());
	if (!strcmp(path, own))
		return 2;
	snprintf(own, sizeof(own), "/proc/%d/cgroup", (int)getpid());
	if (!strcmp(path, own))
		return 3;
	snprintf(own, sizeof(own), "/proc/self/task/%d/status", (int)gettid());
	if (!strcmp(path, own))
		return 2;
	snprintf(own, sizeof(own), "/proc/%d/task/%d/status", (int)getpid(), (int)gettid());
	if (!strcmp(path, own))
		return 2;
	/* another process's status, or another thread's (its process's
	 * binding): /proc/PID/status, /proc/PID/task/TID/status */
	{
		int pid = 0, tid = 0, end = 0;

		if ((sscanf(path, "/proc/%d/status%n", &pid, &end) == 1 && !path[end]) ||
		    (sscanf(path, "/proc/%d/task/%d/status%n", &pid, &tid, &end) == 2 && !path[end])) {
			if (pid <= 0)
				return 0;
			other_pid = pid == getpid() ? 0 : pid;
			return other_pid ? 4 : 2;
		}
	}
	return 0;
}

int ucr_gen_kind(const char *rel)
{
	unsigned cpu;
	int end = 0;

	for (size_t i = 0; i < sizeof(gens) / sizeof(gens[0]); i++)
		if (gens[i].name[0] && !strcmp(rel, gens[i].name))
			return (int)i + 1;
	if (sscanf(rel, "/sys/devices/system/cpu/cpu%u/power/energy_perf_bias%n", &cpu, &end) == 1 && !rel[end] &&
	    end && cpu < ucr_ncpu) {
		gen_cpu = cpu;
		return 5;
	}
	{
		unsigned k;
		char what[8];

		end = 0;
		if (sscanf(rel, "/sys/devices/system/cpu/cpu%u/cpuidle/state%u/%7[a-z]%n", &cpu, &k, what, &end) == 3 &&
		    !rel[end] && cpu < ucr_ncpu && (!strcmp(what, "usage") || !strcmp(what, "time"))) {
			gen_cpu = cpu;
			gen_state = k;
			return what[0] == 'u' ? 7 : 8;
		}
	}
	return 0;
}

int ucr_gen_open(int kind, int flags)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int fd, rc;

	/* read-only, as the kernel's file is (0444, no write operation) */
	if ((flags & O_ACCMODE) != O_RDONLY)
		return (int)ucr_fail(EACCES);
	if (!(f = open_memstream(&text, &len)))
		return -1;
	rc = gens[kind - 1].make(f);
	fclose(f);
	if (rc || !text) {
		free(text);
		return (int)ucr_fail(rc ? -rc : ENOMEM);
	}
	fd = memfd_create(gens[kind - 1].memfd, flags & O_CLOEXEC ? MFD_CLOEXEC : 0);
	if (fd >= 0 && (write(fd, text, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET))) {
		close(fd);
		fd = (int)ucr_fail(EIO);
	}
	free(text);
	return fd;
}
