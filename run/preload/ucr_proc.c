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
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ucr_preload.h"

TLS int ucr_t_vcpu = -1;           /* the cpu this thread is bound to, -1: none */
int ucr_g_vcpu;                    /* cpu of threads that never chose one */
TLS int ucr_t_target = -1;         /* the cpu a request is for, if not the thread's (an MSR file's) */

/* ---- interposed: cpus ---- */

static int first_cpu(size_t size, const cpu_set_t *set)
{
	for (unsigned c = 0; c < ucr_ncpu && c < size * 8; c++)
		if (CPU_ISSET_S(c, size, set))
			return (int)c;
	return -1;
}

static void fill_set(size_t size, cpu_set_t *set, int only)
{
	CPU_ZERO_S(size, set);
	for (unsigned c = 0; c < ucr_ncpu && c < size * 8; c++)
		if (only < 0 || (unsigned)only == c)
			CPU_SET_S(c, size, set);
}

/* Binding a thread chooses the machine cpu whose CPUID, RDTSCP and MSRs it
 * sees; the host scheduler is left alone (the machine's cpus are not the
 * host's). */
EXPORT int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	REAL(sched_setaffinity);
	if (!ucr_active)
		return real_sched_setaffinity(pid, size, set);
	int c = first_cpu(size, set);

	if (c < 0)
		return (int)ucr_fail(EINVAL);
	if (pid == 0 || pid == gettid())
		ucr_t_vcpu = c;
	else if (pid == getpid())
		ucr_g_vcpu = c;
	return 0;
}

EXPORT int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	REAL(sched_getaffinity);
	if (!ucr_active)
		return real_sched_getaffinity(pid, size, set);
	if (size * 8 < ucr_ncpu)
		return (int)ucr_fail(EINVAL);
	if (!set)
		return (int)ucr_fail(EFAULT);
	fill_set(size, set, pid == 0 || pid == gettid() ? ucr_t_vcpu : -1);
	return 0;
}

EXPORT int pthread_setaffinity_np(pthread_t th, size_t size, const cpu_set_t *set)
{
	REAL(pthread_setaffinity_np);
	if (!ucr_active)
		return real_pthread_setaffinity_np(th, size, set);
	int c = first_cpu(size, set);

	if (c < 0)
		return EINVAL;
	if (pthread_equal(th, pthread_self()))
		ucr_t_vcpu = c;
	return 0;
}

EXPORT int pthread_getaffinity_np(pthread_t th, size_t size, cpu_set_t *set)
{
	REAL(pthread_getaffinity_np);
	if (!ucr_active)
		return real_pthread_getaffinity_np(th, size, set);
	if (size * 8 < ucr_ncpu)
		return EINVAL;
	fill_set(size, set, pthread_equal(th, pthread_self()) ? ucr_t_vcpu : -1);
	return 0;
}

EXPORT int sched_getcpu(void)
{
	REAL(sched_getcpu);
	if (!ucr_active)
		return real_sched_getcpu();
	return ucr_t_vcpu >= 0 ? ucr_t_vcpu : ucr_g_vcpu;
}

EXPORT int getcpu(unsigned *cpu, unsigned *node)
{
	REAL(getcpu);
	if (!ucr_active)
		return real_getcpu(cpu, node);
	if (cpu)
		*cpu = (unsigned)sched_getcpu();
	if (node) {
		uint64_t r[4];

		*node = ucr_cpuid(0xB, 1, r) ? 0 : (unsigned)(r[3] >> (r[0] & 31));
	}
	return 0;
}

EXPORT long sysconf(int name)
{
	REAL(sysconf);
	if (ucr_active && (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF))
		return ucr_ncpu;
	return real_sysconf(name);
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
};

static void *thread_start(void *p)
{
	struct start s = *(struct start *)p;

	free(p);
	ucr_t_creator = s.creator;
	return s.fn(s.arg);
}

/* A new thread names its creator in its requests: its per-task perf events
 * are inherited from that thread's, as Linux's clone does. */
EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	struct start *s;
	int rc;

	REAL(pthread_create);
	if (!ucr_active || !(s = malloc(sizeof(*s))))
		return real_pthread_create(th, attr, fn, arg);
	*s = (struct start){ fn, arg, gettid() };
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
	if (ucr_active && !ucr_trap_sigaction(sig, act, old))
		return 0;
	return ucr_real_sigaction(sig, act, old);
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
