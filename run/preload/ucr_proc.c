/*
 * ucr_proc.c - CPUs and processes in the preload library
 * (libuncore-run.so): the machine cpu each thread is on (binding a thread
 * with sched_setaffinity or pthread_setaffinity_np chooses the cpu whose
 * CPUID, RDTSCP and MSRs it sees; the host's scheduler is left alone),
 * sched_getcpu, getcpu and the number of cpus (sysconf, get_nprocs);
 * new threads, which name their creator to the server (pthread_create);
 * waiting for a child or another thread (wait*, pthread_join), during
 * which the thread holds no machine time; the program's SIGILL and SIGSEGV
 * handlers, kept behind the traps', and dlopen, after which the new
 * objects are rewritten (ucr_trap.c).  A forked child's connections are
 * ucr_conn.c's.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ucr_preload.h"

TLS int ucr_t_vcpu = -1;           /* the cpu this thread is bound to, -1: none */
int ucr_g_vcpu;                    /* cpu of threads that never chose one */
TLS int ucr_t_target = -1;         /* the cpu a request is for, if not the thread's (an MSR file's) */
/* the cpus a thread may run on (sched_setaffinity), 0: all; as on Linux a
 * new thread starts with its creator's, a forked child with its parent's
 * thread's, and exec keeps the process's (the server holds it across the
 * new image).  At most 64 cpus: the parts have at most 30 (HT off). */
TLS uint64_t ucr_t_mask;
static uint64_t g_mask;            /* of threads that never chose, set by pid */

/* ---- interposed: cpus ---- */

static uint64_t all_cpus(void)
{
	return ucr_ncpu >= 64 ? ~0ull : (1ull << ucr_ncpu) - 1;
}

static uint64_t mask_of(size_t size, const cpu_set_t *set)
{
	uint64_t m = 0;

	for (unsigned c = 0; c < ucr_ncpu && c < 64 && c < size * 8; c++)
		if (CPU_ISSET_S(c, size, set))
			m |= 1ull << c;
	return m;
}

static void fill_set(size_t size, cpu_set_t *set, uint64_t m)
{
	CPU_ZERO_S(size, set);
	for (unsigned c = 0; c < ucr_ncpu && c < 64 && c < size * 8; c++)
		if (m >> c & 1)
			CPU_SET_S(c, size, set);
}

/* the cpus this thread may run on */
uint64_t ucr_thread_mask(void)
{
	return ucr_t_mask ? ucr_t_mask : g_mask ? g_mask : all_cpus();
}

/* bind this thread to the cpus of m: it moves to the first of them unless
 * it is on one already; the server learns the process's binding */
static void bind_thread(uint64_t m)
{
	struct ucr_rsp r;

	ucr_t_mask = m;
	if (ucr_t_vcpu < 0 || !(m >> ucr_t_vcpu & 1))
		ucr_t_vcpu = __builtin_ctzll(m);
	ucr_request(UCR_AFFINITY, m, 0, 0, &r);
}

/* a new image: the binding of the process before exec (HELLO's answer) */
void ucr_proc_exec_mask(uint64_t m)
{
	m &= all_cpus();
	if (m) {
		ucr_t_mask = m;
		ucr_t_vcpu = __builtin_ctzll(m);
	}
}

/* a forked child: its binding is its forking thread's (TLS, copied) */
void ucr_proc_after_fork(void)
{
	struct ucr_rsp r;

	if (ucr_t_mask)
		ucr_request(UCR_AFFINITY, ucr_t_mask, 0, 0, &r);
}

/* Binding a thread chooses the machine cpu whose CPUID, RDTSCP and MSRs it
 * sees; the host scheduler is left alone (the machine's cpus are not the
 * host's). */
static int set_affinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	uint64_t m = set ? mask_of(size, set) : 0;

	if (!m)
		return (int)ucr_fail(set ? EINVAL : EFAULT);
	if (pid == 0 || pid == gettid()) {
		bind_thread(m);
	} else if (pid == getpid()) {
		g_mask = m;
		ucr_g_vcpu = __builtin_ctzll(m);
	}
	return 0;
}

EXPORT int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	REAL(sched_setaffinity);
	if (!ucr_active)
		return real_sched_setaffinity(pid, size, set);
	return set_affinity(pid, size, set);
}

static int get_affinity(pid_t pid, size_t size, cpu_set_t *set)
{
	if (size * 8 < ucr_ncpu)
		return (int)ucr_fail(EINVAL);
	if (!set)
		return (int)ucr_fail(EFAULT);
	if (pid == 0 || pid == gettid()) {
		fill_set(size, set, ucr_thread_mask());
	} else if (pid == getpid()) {
		fill_set(size, set, g_mask ? g_mask : all_cpus());
	} else {
		/* another process of the program (taskset -p): its binding as
		 * the server knows it */
		struct ucr_rsp r;

		if (ucr_request(UCR_AFFINITY, (uint64_t)pid, 1, 0, &r))
			return (int)ucr_fail(ESRCH);
		fill_set(size, set, r.v[0] & all_cpus() ? r.v[0] & all_cpus() : all_cpus());
	}
	return 0;
}

EXPORT int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	REAL(sched_getaffinity);
	if (!ucr_active)
		return real_sched_getaffinity(pid, size, set);
	return get_affinity(pid, size, set);
}

EXPORT int pthread_setaffinity_np(pthread_t th, size_t size, const cpu_set_t *set)
{
	REAL(pthread_setaffinity_np);
	if (!ucr_active)
		return real_pthread_setaffinity_np(th, size, set);
	uint64_t m = mask_of(size, set);

	if (!m)
		return EINVAL;
	if (pthread_equal(th, pthread_self()))
		bind_thread(m);
	return 0;
}

EXPORT int pthread_getaffinity_np(pthread_t th, size_t size, cpu_set_t *set)
{
	REAL(pthread_getaffinity_np);
	if (!ucr_active)
		return real_pthread_getaffinity_np(th, size, set);
	if (size * 8 < ucr_ncpu)
		return EINVAL;
	fill_set(size, set, pthread_equal(th, pthread_self()) ? ucr_thread_mask() : g_mask ? g_mask : all_cpus());
	return 0;
}

/* The raw system calls of the same, through glibc's syscall() (libnuma's
 * numa_sched_setaffinity, hwloc): the kernel's return values, not the
 * wrappers' (sched_getaffinity returns the bytes of its mask). */
static int get_cpu(unsigned *cpu, unsigned *node);
static int machine_uname(struct utsname *u);

long ucr_proc_syscall(long nr, const long *a, int *handled)
{
	*handled = 1;
	/* the library's own functions, not the exported names: a program may
	 * define sched_getcpu and the like over syscall() itself (perf does) */
	if (nr == SYS_sched_setaffinity)
		return set_affinity((pid_t)a[0], (size_t)a[1], (const cpu_set_t *)a[2]);
	if (nr == SYS_sched_getaffinity) {
		size_t bytes = (ucr_ncpu + 63) / 64 * 8;

		if ((size_t)a[1] * 8 < ucr_ncpu || ((size_t)a[1] & (sizeof(long) - 1)))
			return ucr_fail(EINVAL);
		if (get_affinity((pid_t)a[0], bytes, (cpu_set_t *)a[2]))
			return -1;
		return (long)bytes;
	}
	if (nr == SYS_getcpu)
		return get_cpu((unsigned *)a[0], (unsigned *)a[1]);
	if (nr == SYS_sysinfo)
		return sysinfo((struct sysinfo *)a[0]);
	if (nr == SYS_uname)
		return machine_uname((struct utsname *)a[0]);
	*handled = 0;
	return 0;
}

EXPORT int sched_getcpu(void)
{
	REAL(sched_getcpu);
	if (!ucr_active)
		return real_sched_getcpu();
	return ucr_t_vcpu >= 0 ? ucr_t_vcpu : ucr_g_vcpu;
}

static int get_cpu(unsigned *cpu, unsigned *node)
{
	if (cpu)
		*cpu = (unsigned)(ucr_t_vcpu >= 0 ? ucr_t_vcpu : ucr_g_vcpu);
	if (node) {
		uint64_t r[4];

		*node = ucr_cpuid(0xB, 1, r) ? 0 : (unsigned)(r[3] >> (r[0] & 31));
	}
	return 0;
}

EXPORT int getcpu(unsigned *cpu, unsigned *node)
{
	REAL(getcpu);
	if (!ucr_active)
		return real_getcpu(cpu, node);
	return get_cpu(cpu, node);
}

/* The machine's memory, total and free in kB: its /proc/meminfo (the
 * tree's, which the server writes from the machine tables); 0: unknown. */
static int machine_mem(unsigned long long *total, unsigned long long *avail)
{
	char p[PATH_MAX + 32], line[256];
	FILE *f;

	*total = *avail = 0;
	snprintf(p, sizeof(p), "%s/proc/meminfo", ucr_root);
	if (!(f = fopen(p, "re")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "MemTotal: %llu", total);
		sscanf(line, "MemFree: %llu", avail);
	}
	fclose(f);
	return *total ? 0 : -1;
}

/* sysconf's cache figures (_SC_LEVEL1_ICACHE_SIZE ... _SC_LEVEL4_CACHE_LINESIZE,
 * three a cache: size, associativity, line size) from the machine's CPUID
 * leaf 4, as glibc takes them on an Intel part: glibc computed its own
 * from the host's CPUID in ld.so, before this library was loaded.  A level
 * the part lacks is 0, as glibc says of an Intel part without it. */
static long machine_cache(int name)
{
	static const struct { int size; unsigned level, type; } want[] = {
		{ _SC_LEVEL1_ICACHE_SIZE, 1, 2 }, { _SC_LEVEL1_DCACHE_SIZE, 1, 1 },
		{ _SC_LEVEL2_CACHE_SIZE, 2, 3 }, { _SC_LEVEL3_CACHE_SIZE, 3, 3 },
		{ _SC_LEVEL4_CACHE_SIZE, 4, 3 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int what = name - want[i].size; /* 0 size, 1 associativity, 2 line size */

		if (what < 0 || what > 2)
			continue;
		for (uint32_t sub = 0; sub < 16; sub++) {
			uint64_t r[4];
			unsigned type, level, ways, parts, line, sets;

			if (ucr_cpuid(4, sub, r) || !(type = r[0] & 31))
				break;
			level = (r[0] >> 5) & 7;
			if (level != want[i].level || type != want[i].type)
				continue;
			ways = (unsigned)(r[1] >> 22 & 0x3FF) + 1;
			parts = (unsigned)(r[1] >> 12 & 0x3FF) + 1;
			line = (unsigned)(r[1] & 0xFFF) + 1;
			sets = (unsigned)(r[2] & 0xFFFFFFFF) + 1;
			return what == 0 ? (long)ways * parts * line * sets : what == 1 ? (long)ways : (long)line;
		}
		return 0;
	}
	return -1;
}

EXPORT long sysconf(int name)
{
	unsigned long long total, avail;
	long v;
	REAL(sysconf);

	if (ucr_active && (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF))
		return ucr_ncpu;
	/* glibc takes these from the kernel's sysinfo() */
	if (ucr_active && (name == _SC_PHYS_PAGES || name == _SC_AVPHYS_PAGES) && !machine_mem(&total, &avail))
		return (long)((name == _SC_PHYS_PAGES ? total : avail) * 1024 / (unsigned long long)getpagesize());
	if (ucr_active && name >= _SC_LEVEL1_ICACHE_SIZE && name <= _SC_LEVEL4_CACHE_LINESIZE &&
	    (v = machine_cache(name)) >= 0)
		return v;
	return real_sysconf(name);
}

/* One line of the tree's file rel into buf, without its newline; 0 if
 * the machine has it. */
static int tree_line(const char *rel, char *buf, size_t n)
{
	char p[PATH_MAX + 64];
	FILE *f;
	int ok;

	snprintf(p, sizeof(p), "%s/%s", ucr_root, rel);
	if (!(f = fopen(p, "re")))
		return -1;
	ok = fgets(buf, (int)n, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* uname(): the release and version of the machine's kernel, the Linux
 * whose uncore driver serves perf_event_open (the server writes them into
 * the tree's /proc/sys/kernel); the node name and the rest are the host's.
 * Without a kernel in the build the tree has none, and uname is the host's. */
static int machine_uname(struct utsname *u)
{
	char rel[sizeof(u->release)], ver[sizeof(u->version)];
	REAL(uname);
	int rc = real_uname(u);

	if (rc || !ucr_active || tree_line("proc/sys/kernel/osrelease", rel, sizeof(rel)) ||
	    tree_line("proc/sys/kernel/version", ver, sizeof(ver)))
		return rc;
	memcpy(u->release, rel, sizeof(rel));
	memcpy(u->version, ver, sizeof(ver));
	return 0;
}

EXPORT int uname(struct utsname *u)
{
	return machine_uname(u);
}

/* sysinfo(): the machine's memory (its /proc/meminfo: no swap, no shared
 * or buffer memory) and its time since power-on (CLOCK_BOOTTIME, the
 * machine's clock); the load averages and the process count are the
 * host's, which the machine's kernel does not keep (docs/tools.md). */
EXPORT int sysinfo(struct sysinfo *si)
{
	unsigned long long total, avail;
	struct timespec up;
	REAL(sysinfo);
	int rc = real_sysinfo(si);

	if (rc || !ucr_active || machine_mem(&total, &avail))
		return rc;
	si->mem_unit = 1024;
	si->totalram = (unsigned long)total;
	si->freeram = (unsigned long)avail;
	si->sharedram = si->bufferram = 0;
	si->totalswap = si->freeswap = 0;
	si->totalhigh = si->freehigh = 0;
	if (!clock_gettime(CLOCK_BOOTTIME, &up))
		si->uptime = (long)up.tv_sec;
	return 0;
}

EXPORT int get_nprocs(void)
{
	REAL(get_nprocs);
	return ucr_active ? (int)ucr_ncpu : real_get_nprocs();
}

EXPORT int get_nprocs_conf(void)
{
	REAL(get_nprocs_conf);
	return ucr_active ? (int)ucr_ncpu : real_get_nprocs_conf();
}

/* ---- interposed: new threads ---- */

TLS int ucr_t_creator;             /* the thread that created this one, 0: unknown */

struct start {
	void *(*fn)(void *);
	void *arg;
	int creator;
	uint64_t mask;     /* the creator's binding, inherited */
	int vcpu;
	int announced;     /* the server knows it is coming (UCR_FORK) */
	unsigned traps;    /* the trap signals it has "blocked", inherited */
};

static void *thread_start(void *p)
{
	struct start s = *(struct start *)p;

	free(p);
	ucr_t_creator = s.creator;
	ucr_t_mask = s.mask;
	ucr_t_vcpu = s.vcpu;
	ucr_trap_wanted_set(s.traps);
	if (s.announced) {
		struct ucr_rsp r;

		ucr_request(UCR_HELLO, (uint64_t)getpid(), (uint64_t)s.creator, 2, &r);
	}
	return s.fn(s.arg);
}

/* A new thread names its creator in its requests: its per-task perf events
 * are inherited from that thread's, as Linux's clone does. */
/* ---- interposed: privileges over the machine ---- */

/* The machine lets the program do what a monitoring tool run as root does
 * to it (docs/tools.md, "Privileges"): raising the descriptor limit beyond
 * the hard limit succeeds as far as the host allows (turbostat raises both
 * to 32768 and stops if it cannot; the descriptors it needs are the
 * machine's few device files), and CAP_SYS_RAWIO, which the kernel asks of
 * MSR access, shows as held.  What the host really grants is unchanged:
 * getrlimit shows the limit the process has. */
static int nofile_clamped(int rc, int resource, const struct rlimit *l, struct rlimit *c)
{
	struct rlimit now;

	if (!ucr_active || rc == 0 || errno != EPERM || resource != RLIMIT_NOFILE || !l ||
	    getrlimit(RLIMIT_NOFILE, &now) || l->rlim_max <= now.rlim_max)
		return 0;
	c->rlim_max = now.rlim_max;
	c->rlim_cur = l->rlim_cur < now.rlim_max ? l->rlim_cur : now.rlim_max;
	return 1;
}

EXPORT int setrlimit(__rlimit_resource_t resource, const struct rlimit *l)
{
	struct rlimit c;
	int rc;

	REAL(setrlimit);
	rc = real_setrlimit(resource, l);
	return nofile_clamped(rc, (int)resource, l, &c) ? real_setrlimit(resource, &c) : rc;
}

EXPORT int setrlimit64(__rlimit_resource_t resource, const struct rlimit64 *l)
{
	struct rlimit c, l2;
	int rc;

	REAL(setrlimit64);
	rc = real_setrlimit64(resource, l);
	if (!rc || errno != EPERM) /* EFAULT for a null l */
		return rc;
	l2.rlim_cur = (rlim_t)l->rlim_cur;
	l2.rlim_max = (rlim_t)l->rlim_max;
	return nofile_clamped(rc, (int)resource, &l2, &c) ? setrlimit(resource, &c) : rc;
}

EXPORT int prlimit(pid_t pid, __rlimit_resource_t resource, const struct rlimit *l, struct rlimit *old)
{
	struct rlimit c;
	int rc;

	REAL(prlimit);
	rc = real_prlimit(pid, resource, l, old);
	if ((pid && pid != getpid()) || !nofile_clamped(rc, (int)resource, l, &c))
		return rc;
	return real_prlimit(pid, resource, &c, old);
}

EXPORT int prlimit64(pid_t pid, __rlimit_resource_t resource, const struct rlimit64 *l, struct rlimit64 *old)
{
	struct rlimit c, l2;
	int rc;

	REAL(prlimit64);
	rc = real_prlimit64(pid, resource, l, old);
	if (!rc || errno != EPERM || !l || (pid && pid != getpid()))
		return rc;
	l2.rlim_cur = (rlim_t)l->rlim_cur;
	l2.rlim_max = (rlim_t)l->rlim_max;
	if (!nofile_clamped(rc, (int)resource, &l2, &c))
		return rc;
	struct rlimit64 c64 = { c.rlim_cur, c.rlim_max };

	return real_prlimit64(pid, resource, &c64, old);
}

int capget(cap_user_header_t h, cap_user_data_t d); /* libcap's <sys/capability.h> */

EXPORT int capget(cap_user_header_t h, cap_user_data_t d)
{
	REAL(capget);
	int rc = real_capget(h, d);

	/* the capability sets of this process (pid 0 or its own), any
	 * version: CAP_SYS_RAWIO (17) is in the first 32-bit word */
	if (!rc && ucr_active && d && h && (!h->pid || h->pid == getpid())) {
		d[0].effective |= 1u << 17;
		d[0].permitted |= 1u << 17;
	}
	return rc;
}

EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	struct start *s;
	int rc;

	REAL(pthread_create);
	if (!ucr_active || !(s = malloc(sizeof(*s))))
		return real_pthread_create(th, attr, fn, arg);
	*s = (struct start){ fn, arg, gettid(), ucr_t_mask, ucr_t_vcpu, 0, ucr_trap_wanted() };
	/* the new thread may yet sleep: the server holds machine time until
	 * it says hello, as for a forked child (if it is never created, for
	 * at most 2 s of real time) */
	{
		struct ucr_rsp r;

		s->announced = !ucr_request(UCR_FORK, 0, 0, 0, &r);
	}
	rc = real_pthread_create(th, attr, thread_start, s);
	if (rc)
		free(s);
	return rc;
}

/* ---- interposed: waiting for another thread or process ---- */

/* While a thread waits for a child or another thread, it holds no machine
 * time (the server may run the clock to the next sleeper's deadline) and
 * does not run (its per-task perf events are off their counters).  With
 * the wall clock the server learns of the host's sleeps the same way. */
void ucr_blocked(int on)
{
	struct ucr_rsp r;

	if (ucr_active)
		ucr_request(UCR_BLOCK, (uint64_t)on, 0, 0, &r);
}

#define BLOCKING(ret, name, proto, args) \
	EXPORT ret name proto \
	{ \
		ret rv; \
		int e; \
		REAL(name); \
		ucr_blocked(1); \
		rv = real_##name args; \
		e = errno; \
		ucr_blocked(0); \
		errno = e; \
		return rv; \
	}

BLOCKING(pid_t, waitpid, (pid_t pid, int *st, int opt), (pid, st, opt))
BLOCKING(pid_t, wait, (int *st), (st))
BLOCKING(pid_t, wait3, (int *st, int opt, struct rusage *ru), (st, opt, ru))
BLOCKING(pid_t, wait4, (pid_t pid, int *st, int opt, struct rusage *ru), (pid, st, opt, ru))
BLOCKING(int, waitid, (idtype_t t, id_t id, siginfo_t *si, int opt), (t, id, si, opt))
BLOCKING(int, pthread_join, (pthread_t th, void **ret), (th, ret))

/* ---- interposed: signals and loading ---- */

int ucr_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	static int (*fn)(int, const struct sigaction *, struct sigaction *);

	if (!fn)
		fn = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
	return fn(sig, act, old);
}

EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction buf;

	if (ucr_active && !ucr_trap_sigaction(sig, act, old))
		return 0;
	/* a handler that blocks everything may still execute CPUID */
	if (ucr_active)
		act = ucr_trap_handler_mask(act, &buf);
	return ucr_real_sigaction(sig, act, old);
}

EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	REAL(sigprocmask);
	if (!ucr_active)
		return real_sigprocmask(how, set, old);
	return ucr_trap_sigmask(how, set, old, real_sigprocmask);
}

EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	REAL(pthread_sigmask);
	if (!ucr_active)
		return real_pthread_sigmask(how, set, old);
	return ucr_trap_sigmask(how, set, old, real_pthread_sigmask);
}

EXPORT sighandler_t signal(int sig, sighandler_t h)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = h;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, &old))
		return SIG_ERR;
	return old.sa_handler;
}

EXPORT void *dlopen(const char *file, int mode)
{
	REAL(dlopen);
	void *h = real_dlopen(file, mode);

	if (h && ucr_active)
		ucr_trap_scan();
	return h;
}
