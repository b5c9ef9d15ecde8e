/*
 * ct_hosthide.c - the check that the host never shows under `uncore run`
 * (issue #32, item 4).  Run as `uncore run --platform P --sockets S --
 * ct_hosthide P S`, it asks for what describes the machine in every way a
 * program can (CPUID on each cpu it binds to in turn, affinity through libc
 * and through syscall(), /proc/cpuinfo, /proc/stat, the process's status by
 * every name, the cgroup's cpuset, sysfs cpu and node, /proc/meminfo,
 * /proc/vmstat, sysinfo; what CPUID advertises) and compares each answer
 * with the machine: the platform's model and machine tables (struct
 * ucm_platform, struct ucm_machine), never what the preload library
 * serves.  Where the tables leave a value to the
 * topology (APIC IDs), the answer is held to the SDM's rules (Vol. 2A,
 * CPUID leaves 1, 4 and 0BH) and to the other ways of asking.  Prints one
 * line per failed check and a count; exits 1 if any failed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <cpuid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

#include "ucm.h"

static unsigned nchecks, nfailed;

static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	nchecks++;
	if (ok)
		return;
	nfailed++;
	printf("FAIL ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void check_str(const char *what, const char *got, const char *want)
{
	check(got && !strcmp(got, want), "%s: got \"%s\", want \"%s\"", what, got ? got : "(nothing)", want);
}

static void check_num(const char *what, long long got, long long want)
{
	check(got == want, "%s: got %lld, want %lld", what, got, want);
}

/* A whole file through a descriptor the caller opened; NULL if it failed. */
static char *slurp_fd(int fd)
{
	size_t n = 0, cap = 4096;
	char *b = malloc(cap);
	ssize_t r;

	if (fd < 0 || !b) {
		free(b);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, b + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (cap - n < 2) {
			char *nb = realloc(b, cap *= 2);

			if (!nb) {
				free(b);
				close(fd);
				return NULL;
			}
			b = nb;
		}
	}
	close(fd);
	b[n] = 0;
	return b;
}

static char *slurp(const char *path)
{
	return slurp_fd(open(path, O_RDONLY));
}

/* The value of "key:" (a status or meminfo line) in text, trimmed. */
static const char *field(const char *text, const char *key, char *out, size_t n)
{
	size_t k = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, key, k) && (l[k] == ':' || l[k] == ' ' || l[k] == '\t')) {
			const char *v = l + k, *e;

			while (*v == ':' || *v == ' ' || *v == '\t')
				v++;
			e = strchr(v, '\n');
			if (!e)
				e = v + strlen(v);
			while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			snprintf(out, n, "%.*s", (int)(e - v), v);
			return out;
		}
	}
	return NULL;
}

/* A file's first line, without its newline. */
static const char *line1(const char *path, char *out, size_t n)
{
	char *t = slurp(path);

	if (!t)
		return NULL;
	snprintf(out, n, "%.*s", (int)strcspn(t, "\n"), t);
	free(t);
	return out;
}

static void range(char *out, size_t n, unsigned lo, unsigned hi)
{
	if (lo == hi)
		snprintf(out, n, "%u", lo);
	else
		snprintf(out, n, "%u-%u", lo, hi);
}

static void cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
	__cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
}

static const struct ucm_cpuid *table_leaf(const struct ucm_machine *d, unsigned leaf)
{
	for (unsigned i = 0; i < d->ncpuid; i++)
		if (d->cpuid[i].leaf == leaf && d->cpuid[i].sub == 0)
			return &d->cpuid[i];
	return NULL;
}

struct machine {
	const struct ucm_platform *p;
	const struct ucm_machine *d;
	unsigned sockets, ncores, ncpu;
	unsigned apic[64];        /* each cpu's x2APIC ID as its CPUID says */
};

static int bind_cpu(unsigned cpu, int raw)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return raw ? (int)syscall(SYS_sched_setaffinity, 0, sizeof(s), &s) : sched_setaffinity(0, sizeof(s), &s);
}

static void bind_all(const struct machine *m)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	for (unsigned c = 0; c < m->ncpu; c++)
		CPU_SET(c, &s);
	if (sched_setaffinity(0, sizeof(s), &s))
		check(0, "sched_setaffinity to every cpu: %s", strerror(errno));
}

/* The affinity mask through libc and the raw system call: exactly the cpus
 * lo..hi.  The kernel's call returns the bytes of its mask (8 up to 64
 * cpus), libc's 0. */
static void check_affinity(const struct machine *m, const char *when, unsigned lo, unsigned hi)
{
	cpu_set_t s;
	unsigned long raw[16] = { 0 };
	long n;
	char what[160];

	CPU_ZERO(&s);
	snprintf(what, sizeof(what), "%s: sched_getaffinity", when);
	check_num(what, sched_getaffinity(0, sizeof(s), &s), 0);
	for (unsigned c = 0; c < 1024; c++)
		if (CPU_ISSET(c, &s) != (c >= lo && c <= hi)) {
			check(0, "%s: cpu %u %s the mask", what, c, CPU_ISSET(c, &s) ? "in" : "missing from");
			break;
		}
	CPU_ZERO(&s);
	snprintf(what, sizeof(what), "%s: pthread_getaffinity_np", when);
	check_num(what, pthread_getaffinity_np(pthread_self(), sizeof(s), &s), 0);
	check_num(what, CPU_COUNT(&s), hi - lo + 1);
	n = syscall(SYS_sched_getaffinity, 0, sizeof(raw), raw);
	snprintf(what, sizeof(what), "%s: syscall(SYS_sched_getaffinity) bytes", when);
	check_num(what, n, (m->ncpu + 63) / 64 * 8);
	snprintf(what, sizeof(what), "%s: syscall(SYS_sched_getaffinity) mask", when);
	check_num(what, (long long)raw[0], (long long)(((hi - lo + 1 >= 64 ? 0 : 1ull << (hi - lo + 1)) - 1) << lo));
}

/* The CPU identity of the table, the same on every cpu. */
static void check_identity(const struct machine *m, unsigned cpu)
{
	const struct ucm_cpuid *t0 = table_leaf(m->d, 0), *t1 = table_leaf(m->d, 1);
	unsigned r[4];
	char brand[49] = { 0 }, what[96];

	cpuid(0, 0, r);
	snprintf(what, sizeof(what), "cpu %u: CPUID 0 (maximum leaf, vendor)", cpu);
	check(t0 && r[0] == t0->eax && r[1] == t0->ebx && r[2] == t0->ecx && r[3] == t0->edx,
	      "%s: %08x %08x %08x %08x", what, r[0], r[1], r[2], r[3]);
	cpuid(1, 0, r);
	snprintf(what, sizeof(what), "cpu %u: CPUID 1 signature, ECX, EDX", cpu);
	check(t1 && r[0] == t1->eax && r[2] == t1->ecx && r[3] == t1->edx, "%s: %08x %08x %08x", what, r[0],
	      r[2], r[3]);
	check(!(r[2] >> 31), "cpu %u: CPUID 1 ECX has the hypervisor bit", cpu);
	for (unsigned i = 0; i < 3; i++)
		cpuid(0x80000002 + i, 0, (unsigned *)(brand + 16 * i));
	snprintf(what, sizeof(what), "cpu %u: brand string", cpu);
	check_str(what, brand, m->d->brand);
}

/* Topology of the cpu bound to: leaves 1, 4 and 0xB, held to the SDM's
 * rules and the part's core count. */
static void check_topology(struct machine *m, unsigned cpu)
{
	unsigned r[4], b[4], shift, apic, sock = cpu / m->ncores, i;
	char what[96];

	cpuid(0xB, 0, r);
	snprintf(what, sizeof(what), "cpu %u: CPUID 0xB level 0 (SMT: one thread, shift 1, type 1)", cpu);
	check(r[0] == 1 && (r[1] & 0xFFFF) == 1 && (r[2] & 0xFF00) == 0x100, "%s: %08x %08x %08x", what, r[0],
	      r[1], r[2]);
	cpuid(0xB, 1, r);
	snprintf(what, sizeof(what), "cpu %u: CPUID 0xB level 1 cores", cpu);
	check_num(what, r[1] & 0xFFFF, m->ncores);
	check((r[2] & 0xFF00) == 0x200, "cpu %u: CPUID 0xB level 1 is not the core level: ECX %08x", cpu, r[2]);
	shift = r[0] & 31;
	apic = r[3];
	m->apic[cpu] = apic;
	check((1u << shift) >= 2 * m->ncores, "cpu %u: CPUID 0xB package shift %u cannot hold %u cores", cpu,
	      shift, m->ncores);
	snprintf(what, sizeof(what), "cpu %u: x2APIC ID %#x >> %u (its socket)", cpu, apic, shift);
	check_num(what, apic >> shift, sock);
	check(!(apic & 1), "cpu %u: x2APIC ID %#x has an SMT bit with Hyper-Threading off", cpu, apic);
	cpuid(0xB, 2, r);
	check((r[2] & 0xFF00) == 0 && r[1] == 0, "cpu %u: CPUID 0xB level 2 is not invalid: ECX %08x", cpu, r[2]);
	cpuid(1, 0, b);
	snprintf(what, sizeof(what), "cpu %u: CPUID 1 EBX[31:24] (initial APIC ID)", cpu);
	check_num(what, b[1] >> 24, apic & 0xFF);
	snprintf(what, sizeof(what), "cpu %u: CPUID 1 EBX[23:16] (addressable IDs) = 1 << package shift", cpu);
	check_num(what, b[1] >> 16 & 0xFF, 1u << shift);
	/* leaf 4: the table's caches in order, then the null type */
	for (i = 0; i < 16; i++) {
		cpuid(4, i, r);
		if (!(r[0] & 0x1F))
			break;
		if (i >= m->d->ncaches)
			continue;
		const struct ucm_cache *c = &m->d->caches[i];
		unsigned ways = (r[1] >> 22) + 1, line = (r[1] & 0xFFF) + 1, sets = r[2] + 1;
		unsigned sharing = (r[0] >> 14 & 0xFFF) + 1;

		check((r[0] & 0x1F) == c->type && (r[0] >> 5 & 7) == c->level && ways == c->ways &&
			      (unsigned long long)ways * line * sets == c->size_kb * 1024ull,
		      "cpu %u: CPUID 4.%u: type %u level %u %u ways %u KiB, want type %u level %u %u ways %u KiB",
		      cpu, i, r[0] & 0x1F, r[0] >> 5 & 7, ways, ways * line * sets / 1024, c->type, c->level,
		      c->ways, c->size_kb);
		snprintf(what, sizeof(what), "cpu %u: CPUID 4.%u EAX[31:26] + 1 (cores addressable)", cpu, i);
		check_num(what, (r[0] >> 26) + 1, 1u << (shift - 1));
		snprintf(what, sizeof(what), "cpu %u: CPUID 4.%u EAX[25:14] + 1 (IDs sharing)", cpu, i);
		check_num(what, sharing, c->per_package ? 1u << shift : 1u);
	}
	snprintf(what, sizeof(what), "cpu %u: CPUID 4 caches", cpu);
	check_num(what, i, m->d->ncaches);
}

/* What says which cpu the thread is on: sched_getcpu, getcpu through
 * syscall(), RDTSCP's TSC_AUX (Linux: node << 12 | cpu), the status file. */
static void check_on_cpu(const struct machine *m, unsigned cpu)
{
	unsigned c = ~0u, node = ~0u, aux = ~0u;
	char what[96], v[256], want[32];
	char *st;

	snprintf(what, sizeof(what), "bound to cpu %u: sched_getcpu", cpu);
	check_num(what, sched_getcpu(), cpu);
	snprintf(what, sizeof(what), "bound to cpu %u: syscall(SYS_getcpu)", cpu);
	check(syscall(SYS_getcpu, &c, &node, NULL) == 0 && c == cpu && node == cpu / m->ncores,
	      "%s: cpu %u node %u, want %u %u", what, c, node, cpu, cpu / m->ncores);
	(void)__rdtscp(&aux);
	snprintf(what, sizeof(what), "bound to cpu %u: RDTSCP TSC_AUX", cpu);
	check_num(what, aux, (cpu / m->ncores) << 12 | cpu);
	range(want, sizeof(want), cpu, cpu);
	st = slurp("/proc/thread-self/status");
	snprintf(what, sizeof(what), "bound to cpu %u: /proc/thread-self/status Cpus_allowed_list", cpu);
	check_str(what, st ? field(st, "Cpus_allowed_list", v, sizeof(v)) : NULL, want);
	free(st);
}

static void check_cpuid_every_cpu(struct machine *m)
{
	for (unsigned cpu = 0; cpu < m->ncpu; cpu++) {
		int raw = cpu & 1;   /* odd cpus through syscall(), even ones through libc */
		char when[64];

		if (bind_cpu(cpu, raw)) {
			check(0, "binding to cpu %u through %s: %s", cpu, raw ? "syscall()" : "libc", strerror(errno));
			continue;
		}
		snprintf(when, sizeof(when), "bound to cpu %u%s", cpu, raw ? " by syscall()" : "");
		check_affinity(m, when, cpu, cpu);
		check_identity(m, cpu);
		check_topology(m, cpu);
		check_on_cpu(m, cpu);
	}
	for (unsigned a = 0; a < m->ncpu; a++)
		for (unsigned b = a + 1; b < m->ncpu; b++)
			check(m->apic[a] != m->apic[b], "cpus %u and %u share the x2APIC ID %#x", a, b, m->apic[a]);
	bind_all(m);
}

/* What CPUID advertises is backed (issue #32 item 2): the MSRs whose
 * condition in Intel SDM Vol. 4 Table 2-2 a feature bit is, read on cpu 0
 * through its msr device; leaves 5 and 0xD where leaf 1 advertises
 * MONITOR and XSAVE; the perfmon MSRs leaf 0xA counts; VMX's basic
 * capability MSR where VMX is advertised (the machine clears the bit);
 * the MTRRs (as many variable pairs as IA32_MTRRCAP counts, the fixed
 * ranges where it has them), the PAT, and machine check (IA32_MCG_CAP's
 * banks, IA32_MCG_CTL and each bank's IA32_MCi_CTL2 where it says so:
 * SDM Vol. 3A 11.11.1, Vol. 3B 15.3.1); the MSRs a kernel programs
 * (SYSENTER, SYSCALL, the segment bases, TSC_AUX, the TSC deadline); the
 * write-only commands (.wo: a write of 0 must be taken); the full-width
 * counter aliases where IA32_PERF_CAPABILITIES[13] has them; leaves 0x12
 * and 0x14 where SGX and Intel PT are advertised. */
enum { EAX, EBX, ECX, EDX };
static const struct {
	unsigned leaf, sub, reg, bit;
	uint32_t msr, n;
	const char *name;
	int wo;
} backed[] = {
	{ 1, 0, EDX, 5, 0x10, 1, "IA32_TIME_STAMP_COUNTER", 0 },
	{ 1, 0, EDX, 11, 0x174, 3, "IA32_SYSENTER_CS, _ESP, _EIP", 0 },
	{ 1, 0, ECX, 6, 0x9B, 1, "IA32_SMM_MONITOR_CTL", 0 },
	{ 1, 0, ECX, 11, 0xC80, 1, "IA32_DEBUG_INTERFACE", 0 },
	{ 1, 0, ECX, 18, 0x1F8, 3, "IA32_PLATFORM_DCA_CAP, IA32_CPU_DCA_CAP, IA32_DCA_0_CAP", 0 },
	{ 1, 0, ECX, 24, 0x6E0, 1, "IA32_TSC_DEADLINE", 0 },
	{ 7, 0, EBX, 1, 0x3B, 1, "IA32_TSC_ADJUST", 0 },
	{ 7, 0, EBX, 14, 0xD90, 1, "IA32_BNDCFGS", 0 },
	{ 7, 0, EBX, 25, 0x570, 2, "IA32_RTIT_CTL, IA32_RTIT_STATUS", 0 },
	{ 7, 0, EDX, 26, 0x49, 1, "IA32_PRED_CMD", 1 },
	{ 7, 0, EDX, 28, 0x10B, 1, "IA32_FLUSH_CMD", 1 },
	{ 0xD, 1, EAX, 3, 0xDA0, 1, "IA32_XSS", 0 },
	{ 0x80000001, 0, EDX, 29, 0xC0000080, 3, "IA32_EFER, IA32_STAR, IA32_LSTAR", 0 },
	{ 0x80000001, 0, EDX, 29, 0xC0000084, 1, "IA32_FMASK", 0 },
	{ 0x80000001, 0, EDX, 29, 0xC0000100, 3, "IA32_FS_BASE, IA32_GS_BASE, IA32_KERNEL_GS_BASE", 0 },
	{ 0x80000001, 0, EDX, 27, 0xC0000103, 1, "IA32_TSC_AUX", 0 },
	{ 1, 0, EDX, 9, 0x1B, 1, "IA32_APIC_BASE", 0 },
	{ 1, 0, EDX, 12, 0xFE, 1, "IA32_MTRRCAP", 0 },
	{ 1, 0, EDX, 12, 0x2FF, 1, "IA32_MTRR_DEF_TYPE", 0 },
	{ 1, 0, EDX, 14, 0x179, 2, "IA32_MCG_CAP, IA32_MCG_STATUS", 0 },
	{ 1, 0, EDX, 16, 0x277, 1, "IA32_PAT", 0 },
	{ 1, 0, ECX, 5, 0x3A, 1, "IA32_FEATURE_CONTROL", 0 },
	{ 1, 0, ECX, 5, 0x480, 1, "IA32_VMX_BASIC", 0 },
	{ 1, 0, ECX, 7, 0x198, 2, "IA32_PERF_STATUS, IA32_PERF_CTL (EIST)", 0 },
	{ 1, 0, ECX, 15, 0x345, 1, "IA32_PERF_CAPABILITIES", 0 },
	{ 1, 0, EDX, 21, 0x600, 1, "IA32_DS_AREA", 0 },
	{ 1, 0, EDX, 22, 0x19A, 3, "IA32_CLOCK_MODULATION, IA32_THERM_INTERRUPT, IA32_THERM_STATUS", 0 },
	{ 6, 0, ECX, 0, 0xE7, 2, "IA32_MPERF, IA32_APERF", 0 },
	{ 6, 0, ECX, 3, 0x1B0, 1, "IA32_ENERGY_PERF_BIAS", 0 },
	{ 6, 0, EAX, 6, 0x1B1, 2, "IA32_PACKAGE_THERM_STATUS, IA32_PACKAGE_THERM_INTERRUPT", 0 },
	{ 6, 0, EAX, 7, 0x770, 2, "IA32_PM_ENABLE, IA32_HWP_CAPABILITIES", 0 },
	{ 6, 0, EAX, 7, 0x774, 1, "IA32_HWP_REQUEST", 0 },
	{ 6, 0, EAX, 7, 0x777, 1, "IA32_HWP_STATUS", 0 },
	{ 6, 0, EAX, 8, 0x773, 1, "IA32_HWP_INTERRUPT", 0 },
	{ 6, 0, EAX, 11, 0x772, 1, "IA32_HWP_REQUEST_PKG", 0 },
	{ 6, 0, EAX, 13, 0xDB0, 3, "IA32_PKG_HDC_CTL, IA32_PM_CTL1, IA32_THREAD_STALL", 0 },
	{ 7, 0, EDX, 26, 0x48, 1, "IA32_SPEC_CTRL", 0 },
	{ 7, 0, EDX, 29, 0x10A, 1, "IA32_ARCH_CAPABILITIES", 0 },
};

static int msr_ok(int fd, uint32_t msr)
{
	uint64_t v;

	return pread(fd, &v, 8, msr) == 8;
}

/* a write-only command MSR: a write of 0 (no command) is taken */
static int msr_wo_ok(int fd, uint32_t msr)
{
	uint64_t v = 0;

	return pwrite(fd, &v, 8, msr) == 8;
}

/* The MSRs whose number a capability MSR gives: the variable MTRR pairs
 * (IA32_MTRRCAP[7:0]) and the fixed ranges (bit 8) where CPUID advertises
 * MTRR; the banks (IA32_MCG_CAP[7:0]: CTL and STATUS of each),
 * IA32_MCG_CTL (bit 8) and the banks' IA32_MCi_CTL2 (bit 10, CMCI) where
 * it advertises MCA. */
static void check_backed_counted(int fd, const unsigned l1[4])
{
	static const uint32_t fixed[] = { 0x250, 0x258, 0x259, 0x268, 0x269, 0x26A, 0x26B,
					  0x26C, 0x26D, 0x26E, 0x26F };
	uint64_t cap;

	if (l1[3] >> 12 & 1 && pread(fd, &cap, 8, 0xFE) == 8) {
		for (uint32_t k = 0; k < 2 * (cap & 0xFF); k++)
			check(msr_ok(fd, 0x200 + k), "IA32_MTRRCAP %#llx counts %u variable MTRRs, but MSR %#x is a #GP",
			      (unsigned long long)cap, (unsigned)(cap & 0xFF), 0x200 + k);
		for (size_t k = 0; cap >> 8 & 1 && k < sizeof(fixed) / sizeof(fixed[0]); k++)
			check(msr_ok(fd, fixed[k]), "IA32_MTRRCAP %#llx has the fixed ranges, but MSR %#x is a #GP",
			      (unsigned long long)cap, fixed[k]);
	}
	if (l1[3] >> 14 & 1 && pread(fd, &cap, 8, 0x179) == 8) {
		check(!(cap >> 8 & 1) || msr_ok(fd, 0x17B), "IA32_MCG_CAP %#llx has IA32_MCG_CTL, but it is a #GP",
		      (unsigned long long)cap);
		for (uint32_t i = 0; i < (cap & 0xFF); i++) {
			check(msr_ok(fd, 0x400 + 4 * i) && msr_ok(fd, 0x401 + 4 * i),
			      "IA32_MCG_CAP %#llx counts %u banks, but IA32_MC%u_CTL or _STATUS (%#x) is a #GP",
			      (unsigned long long)cap, (unsigned)(cap & 0xFF), i, 0x400 + 4 * i);
			check(!(cap >> 10 & 1) || msr_ok(fd, 0x280 + i),
			      "IA32_MCG_CAP %#llx has CMCI, but IA32_MC%u_CTL2 (%#x) is a #GP", (unsigned long long)cap, i,
			      0x280 + i);
		}
	}
}

static void check_backed(const struct machine *m)
{
	int fd;
	unsigned r[4], l1[4], pm[4];
	uint64_t caps;

	(void)m;
	if (bind_cpu(0, 0) || (fd = open("/dev/cpu/0/msr", O_RDWR)) < 0) {
		check(0, "/dev/cpu/0/msr: %s", strerror(errno));
		return;
	}
	for (size_t i = 0; i < sizeof(backed) / sizeof(backed[0]); i++) {
		cpuid(backed[i].leaf, backed[i].sub, r);
		if (!(r[backed[i].reg] >> backed[i].bit & 1))
			continue;
		for (uint32_t k = 0; k < backed[i].n; k++)
			check(backed[i].wo ? msr_wo_ok(fd, backed[i].msr + k) : msr_ok(fd, backed[i].msr + k),
			      "CPUID.%02XH.%u:%s[%u] advertises %s, but MSR %#x is a #GP", backed[i].leaf, backed[i].sub,
			      (const char *[]){ "EAX", "EBX", "ECX", "EDX" }[backed[i].reg], backed[i].bit,
			      backed[i].name, backed[i].msr + k);
	}
	/* the leaves SGX and Intel PT need (SDM Vol. 3D 36.7.2, Vol. 3C
	 * 33.3.1): SGX1 in leaf 0x12, PT's capabilities in leaf 0x14 */
	cpuid(7, 0, r);
	if (r[1] >> 2 & 1) {
		unsigned x[4];

		cpuid(0x12, 0, x);
		check(x[0] & 1, "CPUID.07H:EBX[2] advertises SGX, but leaf 0x12 gives no SGX1 (%08x)", x[0]);
	}
	if (r[1] >> 25 & 1) {
		unsigned x[4];

		cpuid(0x14, 0, x);
		check(x[0] || x[1] || x[2], "CPUID.07H:EBX[25] advertises Intel PT, but leaf 0x14 is empty");
	}
	/* architectural perfmon (leaf 0xA; SDM Vol. 3B 20.2): the general
	 * counters and their selects, the fixed counters, the global controls */
	cpuid(0xA, 0, pm);
	for (unsigned k = 0; (pm[0] & 0xFF) && k < (pm[0] >> 8 & 0xFF); k++) {
		check(msr_ok(fd, 0xC1 + k), "CPUID.0AH: %u counters, but IA32_PMC%u (%#x) is a #GP", pm[0] >> 8 & 0xFF,
		      k, 0xC1 + k);
		check(msr_ok(fd, 0x186 + k), "CPUID.0AH: %u counters, but IA32_PERFEVTSEL%u (%#x) is a #GP",
		      pm[0] >> 8 & 0xFF, k, 0x186 + k);
	}
	for (unsigned k = 0; (pm[0] & 0xFF) > 1 && k < (pm[3] & 0x1F); k++)
		check(msr_ok(fd, 0x309 + k), "CPUID.0AH: %u fixed counters, but IA32_FIXED_CTR%u is a #GP", pm[3] & 0x1F,
		      k);
	/* version 2 on: the global controls (0x38D-0x390); 4 on: status set
	 * and in-use (0x391, 0x392; Table 2-2) */
	for (uint32_t a = 0x38D; (pm[0] & 0xFF) > 1 && a <= ((pm[0] & 0xFF) > 3 ? 0x392u : 0x390u); a++)
		check(msr_ok(fd, a), "CPUID.0AH: perfmon version %u, but MSR %#x is a #GP", pm[0] & 0xFF, a);
	/* full-width writes (IA32_PERF_CAPABILITIES[13], PDCM 01H:ECX[15];
	 * SDM Vol. 3B 20.2.6): IA32_A_PMCx beside each counter */
	cpuid(1, 0, l1);
	if (l1[2] >> 15 & 1 && pread(fd, &caps, 8, 0x345) == 8 && caps >> 13 & 1)
		for (unsigned k = 0; k < (pm[0] >> 8 & 0xFF); k++)
			check(msr_ok(fd, 0x4C1 + k),
			      "IA32_PERF_CAPABILITIES %#llx has full-width writes, but IA32_A_PMC%u (%#x) is a #GP",
			      (unsigned long long)caps, k, 0x4C1 + k);
	cpuid(1, 0, l1);
	check_backed_counted(fd, l1);
	close(fd);
	if (l1[2] >> 3 & 1) {
		cpuid(5, 0, r);
		check((r[0] & 0xFFFF) && (r[1] & 0xFFFF) >= (r[0] & 0xFFFF),
		      "CPUID.01H:ECX[3] advertises MONITOR/MWAIT, but leaf 5 gives lines %u..%u", r[0] & 0xFFFF,
		      r[1] & 0xFFFF);
	}
	if (l1[2] >> 26 & 1) {
		unsigned a2[4];

		cpuid(0xD, 0, r);
		check((r[0] & 3) == 3 && r[2] >= 576 && r[1] >= 576,
		      "CPUID.01H:ECX[26] advertises XSAVE, but leaf 0xD.0 gives %08x %08x %08x", r[0], r[1], r[2]);
		if (l1[2] >> 28 & 1) {
			/* AVX: component 2, 256 bytes at 576 (SDM Vol. 1 13.4) */
			cpuid(0xD, 2, a2);
			check(r[0] >> 2 & 1 && a2[0] == 256 && a2[1] == 576,
			      "CPUID.01H:ECX[28] advertises AVX, but leaf 0xD gives %08x, component 2 %u bytes at %u",
			      r[0], a2[0], a2[1]);
		}
	}
	bind_all(m);
}

static void check_counts(const struct machine *m)
{
	check_num("sysconf(_SC_NPROCESSORS_ONLN)", sysconf(_SC_NPROCESSORS_ONLN), m->ncpu);
	check_num("sysconf(_SC_NPROCESSORS_CONF)", sysconf(_SC_NPROCESSORS_CONF), m->ncpu);
	check_num("get_nprocs()", get_nprocs(), m->ncpu);
	check_num("get_nprocs_conf()", get_nprocs_conf(), m->ncpu);
	check_affinity(m, "unbound", 0, m->ncpu - 1);
}

/* /proc/cpuinfo through libc's open and through syscall(SYS_openat): one
 * entry a cpu, the part's identity, each cpu's socket, core and APIC ID as
 * its CPUID said. */
static void check_cpuinfo(const struct machine *m, const char *how, char *t)
{
	unsigned n = 0;
	char v[4096], what[128];
	const struct ucm_cpuid *t1 = table_leaf(m->d, 1);

	if (!t) {
		check(0, "/proc/cpuinfo through %s: cannot read it", how);
		return;
	}
	for (char *e = t; e && *e; n++) {
		char *next = strstr(e, "\n\n");

		if (next)
			*next = 0;
		snprintf(what, sizeof(what), "/proc/cpuinfo (%s) entry %u processor", how, n);
		check_num(what, field(e, "processor", v, sizeof(v)) ? atoll(v) : -1, n);
		snprintf(what, sizeof(what), "/proc/cpuinfo (%s) cpu %u vendor_id", how, n);
		check_str(what, field(e, "vendor_id", v, sizeof(v)), "GenuineIntel");
		snprintf(what, sizeof(what), "/proc/cpuinfo (%s) cpu %u model name", how, n);
		check_str(what, field(e, "model name", v, sizeof(v)), m->d->brand);
		snprintf(what, sizeof(what), "/proc/cpuinfo (%s) cpu %u model", how, n);
		check_num(what, field(e, "model", v, sizeof(v)) ? atoll(v) : -1,
			  t1 ? (t1->eax >> 4 & 0xF) | (t1->eax >> 12 & 0xF0) : 0);
		snprintf(what, sizeof(what), "/proc/cpuinfo (%s) cpu %u physical id", how, n);
		check_num(what, field(e, "physical id", v, sizeof(v)) ? atoll(v) : -1, n / m->ncores);
		snprintf(what, sizeof(what), "/proc/cpuinfo (%s) cpu %u cpu cores", how, n);
		check_num(what, field(e, "cpu cores", v, sizeof(v)) ? atoll(v) : -1, m->ncores);
		snprintf(what, sizeof(what), "/proc/cpuinfo (%s) cpu %u siblings", how, n);
		check_num(what, field(e, "siblings", v, sizeof(v)) ? atoll(v) : -1, m->ncores);
		if (n < m->ncpu) {
			snprintf(what, sizeof(what), "/proc/cpuinfo (%s) cpu %u apicid = its CPUID's", how, n);
			check_num(what, field(e, "apicid", v, sizeof(v)) ? atoll(v) : -1, m->apic[n]);
		}
		snprintf(what, sizeof(what), "/proc/cpuinfo (%s) cpu %u flags", how, n);
		check_str(what, field(e, "flags", v, sizeof(v)), m->d->cpuinfo_flags);
		e = next ? next + 2 : NULL;
		while (e && *e == '\n')
			e++;
	}
	snprintf(what, sizeof(what), "/proc/cpuinfo (%s) entries", how);
	check_num(what, n, m->ncpu);
	free(t);
}

static void check_proc_stat(const struct machine *m)
{
	char *t = slurp("/proc/stat");
	unsigned n = 0, agg = 0;

	if (!t) {
		check(0, "/proc/stat: cannot read it");
		return;
	}
	for (char *l = t; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, "cpu ", 4))
			agg++;
		else if (!strncmp(l, "cpu", 3)) {
			char what[64];

			snprintf(what, sizeof(what), "/proc/stat line cpu%u", n);
			check_num(what, atoll(l + 3), n);
			n++;
		}
	}
	check_num("/proc/stat aggregate cpu lines", agg, 1);
	check_num("/proc/stat cpuN lines", n, m->ncpu);
	free(t);
}

/* The process's status by every name: Cpus_allowed_list (all cpus, as
 * unbound), Mems_allowed_list (every node). */
static void check_status_text(const struct machine *m, const char *how, char *t, unsigned lo, unsigned hi)
{
	char v[512], want[32], what[160];

	range(want, sizeof(want), lo, hi);
	snprintf(what, sizeof(what), "%s Cpus_allowed_list", how);
	check_str(what, t ? field(t, "Cpus_allowed_list", v, sizeof(v)) : NULL, want);
	range(want, sizeof(want), 0, m->sockets - 1);
	snprintf(what, sizeof(what), "%s Mems_allowed_list", how);
	check_str(what, t ? field(t, "Mems_allowed_list", v, sizeof(v)) : NULL, want);
	free(t);
}

static void check_status(const struct machine *m)
{
	char path[96];
	int dfd;

	check_status_text(m, "/proc/self/status", slurp("/proc/self/status"), 0, m->ncpu - 1);
	snprintf(path, sizeof(path), "/proc/%d/status", (int)getpid());
	check_status_text(m, path, slurp(path), 0, m->ncpu - 1);
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)gettid());
	check_status_text(m, path, slurp(path), 0, m->ncpu - 1);
	check_status_text(m, "/proc/self/status through syscall(SYS_openat)",
			  slurp_fd((int)syscall(SYS_openat, AT_FDCWD, "/proc/self/status", O_RDONLY)), 0,
			  m->ncpu - 1);
	dfd = open("/proc/self", O_RDONLY | O_DIRECTORY);
	check_status_text(m, "status relative to an open /proc/self",
			  dfd < 0 ? NULL : slurp_fd(openat(dfd, "status", O_RDONLY)), 0, m->ncpu - 1);
	if (dfd >= 0)
		close(dfd);
	if (chdir("/proc/self") == 0) {
		check_status_text(m, "status after chdir(\"/proc/self\")", slurp("status"), 0, m->ncpu - 1);
		if (chdir("/"))
			check(0, "chdir(\"/\"): %s", strerror(errno));
	} else {
		check(0, "chdir(\"/proc/self\"): %s", strerror(errno));
	}
}

/* Another process's status: a child bound to the last cpu, read by its
 * parent (cat /proc/$pid/status) and by taskset's way (sched_getaffinity). */
static void check_other_status(const struct machine *m)
{
	int go[2], ready[2];
	char c = 0, path[64];
	pid_t pid;
	cpu_set_t s;

	if (pipe(go) || pipe(ready)) {
		check(0, "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		(void)bind_cpu(m->ncpu - 1, 0);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	if (pid < 0 || read(ready[0], &c, 1) != 1) {
		check(0, "a child bound to cpu %u: %s", m->ncpu - 1, strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/status (a child bound to cpu %u)", (int)pid, m->ncpu - 1);
	{
		char p2[64];

		snprintf(p2, sizeof(p2), "/proc/%d/status", (int)pid);
		check_status_text(m, path, slurp(p2), m->ncpu - 1, m->ncpu - 1);
	}
	CPU_ZERO(&s);
	check(sched_getaffinity(pid, sizeof(s), &s) == 0 && CPU_COUNT(&s) == 1 && CPU_ISSET(m->ncpu - 1, &s),
	      "sched_getaffinity of a child bound to cpu %u: %d cpus", m->ncpu - 1, CPU_COUNT(&s));
	if (write(go[1], &c, 1) != 1)
		check(0, "waking the child: %s", strerror(errno));
	waitpid(pid, NULL, 0);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
}

static void check_cgroup(const struct machine *m)
{
	char v[256], want[32];

	check_str("/proc/self/cgroup", line1("/proc/self/cgroup", v, sizeof(v)), "0::/");
	range(want, sizeof(want), 0, m->ncpu - 1);
	check_str("/sys/fs/cgroup/cpuset.cpus.effective", line1("/sys/fs/cgroup/cpuset.cpus.effective", v, sizeof(v)),
		  want);
	range(want, sizeof(want), 0, m->sockets - 1);
	check_str("/sys/fs/cgroup/cpuset.mems.effective", line1("/sys/fs/cgroup/cpuset.mems.effective", v, sizeof(v)),
		  want);
}

/* Entries of dir named prefix<number>: their count and the highest + 1. */
static void count_dir(const char *dir, const char *prefix, unsigned *n, unsigned *top)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t k = strlen(prefix);

	*n = *top = 0;
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, k) || e->d_name[k] < '0' || e->d_name[k] > '9' ||
		    e->d_name[k + strspn(e->d_name + k, "0123456789")])
			continue;
		(*n)++;
		if ((unsigned)atoi(e->d_name + k) + 1 > *top)
			*top = (unsigned)atoi(e->d_name + k) + 1;
	}
	closedir(d);
}

static void check_sysfs(const struct machine *m)
{
	static const char *const cpu_lists[] = { "online", "possible", "present" };
	char v[256], want[32], path[160], what[192];
	unsigned n, top;

	range(want, sizeof(want), 0, m->ncpu - 1);
	for (unsigned i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/%s", cpu_lists[i]);
		check_str(path, line1(path, v, sizeof(v)), want);
	}
	count_dir("/sys/devices/system/cpu", "cpu", &n, &top);
	check(n == m->ncpu && top == m->ncpu, "/sys/devices/system/cpu: %u cpuN directories up to cpu%d, want %u",
	      n, (int)top - 1, m->ncpu);
	for (unsigned c = 0; c < m->ncpu; c++) {
		unsigned sock = c / m->ncores;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/topology/physical_package_id", c);
		check_num(path, line1(path, v, sizeof(v)) ? atoll(v) : -1, sock);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/topology/thread_siblings_list", c);
		range(want, sizeof(want), c, c);
		check_str(path, line1(path, v, sizeof(v)), want);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/topology/core_siblings_list", c);
		range(want, sizeof(want), sock * m->ncores, sock * m->ncores + m->ncores - 1);
		check_str(path, line1(path, v, sizeof(v)), want);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/node%u", c, sock);
		check(access(path, F_OK) == 0, "%s: missing", path);
		for (unsigned i = 0; i < m->d->ncaches; i++) {
			const struct ucm_cache *k = &m->d->caches[i];

			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cache/index%u/size", c, i);
			snprintf(want, sizeof(want), "%uK", k->size_kb);
			check_str(path, line1(path, v, sizeof(v)), want);
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cache/index%u/level", c, i);
			check_num(path, line1(path, v, sizeof(v)) ? atoll(v) : -1, k->level);
		}
	}
	range(want, sizeof(want), 0, m->sockets - 1);
	check_str("/sys/devices/system/node/online", line1("/sys/devices/system/node/online", v, sizeof(v)), want);
	check_str("/sys/devices/system/node/has_memory", line1("/sys/devices/system/node/has_memory", v, sizeof(v)),
		  want);
	count_dir("/sys/devices/system/node", "node", &n, &top);
	check(n == m->sockets && top == m->sockets, "/sys/devices/system/node: %u nodeN directories, want %u", n,
	      m->sockets);
	for (unsigned s = 0; s < m->sockets; s++) {
		char *t;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/cpulist", s);
		range(want, sizeof(want), s * m->ncores, s * m->ncores + m->ncores - 1);
		check_str(path, line1(path, v, sizeof(v)), want);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u/meminfo", s);
		t = slurp(path);
		snprintf(what, sizeof(what), "%s MemTotal", path);
		snprintf(want, sizeof(want), "Node %u MemTotal", s);
		check_num(what, t && field(t, want, v, sizeof(v)) ? atoll(v) : -1, (long long)m->d->mem_mb * 1024);
		free(t);
	}
}

static void check_memory(const struct machine *m)
{
	long long kb = (long long)m->d->mem_mb * 1024 * m->sockets;
	char *t = slurp("/proc/meminfo");
	char v[128];
	struct sysinfo si;

	long long free_kb = t && field(t, "MemFree", v, sizeof(v)) ? atoll(v) : -1;
	char *vm = slurp("/proc/vmstat");

	check_num("/proc/meminfo MemTotal (kB)", t && field(t, "MemTotal", v, sizeof(v)) ? atoll(v) : -1, kb);
	free(t);
	/* the machine's kernel: its free memory, no paging (vmstat's bi/bo) */
	check_num("/proc/vmstat nr_free_pages (kB) = /proc/meminfo MemFree",
		  vm && field(vm, "nr_free_pages", v, sizeof(v)) ? atoll(v) * 4 : -1, free_kb);
	check_num("/proc/vmstat pgpgin", vm && field(vm, "pgpgin", v, sizeof(v)) ? atoll(v) : -1, 0);
	check_num("/proc/vmstat pgpgout", vm && field(vm, "pgpgout", v, sizeof(v)) ? atoll(v) : -1, 0);
	free(vm);
	check_num("sysinfo() totalram (kB)", sysinfo(&si) ? -1 : (long long)si.totalram * si.mem_unit / 1024, kb);
	check_num("sysconf(_SC_PHYS_PAGES) (kB)", sysconf(_SC_PHYS_PAGES) * (sysconf(_SC_PAGESIZE) / 1024), kb);
}

int main(int argc, char **argv)
{
	struct machine m = { 0 };

	if (argc != 3) {
		fprintf(stderr, "usage: ct_hosthide PLATFORM SOCKETS (run under uncore run)\n");
		return 2;
	}
	m.p = ucm_platform_find(argv[1]);
	m.sockets = (unsigned)atoi(argv[2]);
	if (!m.p || !m.p->machine || m.sockets < 1 || m.sockets > m.p->max_sockets) {
		fprintf(stderr, "ct_hosthide: no platform %s with machine tables and %s sockets\n", argv[1], argv[2]);
		return 2;
	}
	m.d = m.p->machine;
	m.ncores = m.p->ncores;
	m.ncpu = m.sockets * m.ncores;
	check_counts(&m);
	check_cpuid_every_cpu(&m);
	check_cpuinfo(&m, "open", slurp("/proc/cpuinfo"));
	check_cpuinfo(&m, "syscall(SYS_openat)", slurp_fd((int)syscall(SYS_openat, AT_FDCWD, "/proc/cpuinfo", O_RDONLY)));
	check_proc_stat(&m);
	check_status(&m);
	check_other_status(&m);
	check_cgroup(&m);
	check_sysfs(&m);
	check_memory(&m);
	check_backed(&m);
	printf("%s %u sockets: %u checks, %u failed\n", m.p->name, m.sockets, nchecks, nfailed);
	return nfailed ? 1 : 0;
}
