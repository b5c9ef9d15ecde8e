/*
 * ucr_wait.c - timeouts and timers on the machine's clock, in the preload
 * library (libuncore-run.so): every way a program waits with a timeout
 * (select, pselect, the epoll waits, timed condition variables, locks,
 * semaphores, joins, sigtimedwait) ends when machine time reaches the
 * deadline, not the host's, and every timer (alarm, ualarm, setitimer's
 * ITIMER_REAL, timer_create's timers) expires at machine time (issue #34,
 * docs/tools.md "One clock").  poll, ppoll and the sleeps are ucr_time.c's.
 *
 * A wait on descriptors becomes a wait on the machine's clock with the
 * descriptors beside it (ucr_sleep_poll), and the host's call is asked
 * again with no timeout for what is ready.  A wait only the host's kernel
 * can do (a futex) is done in slices of host time while the server keeps
 * the deadline (ucr_timed_begin).  Timers are the server's (run/ucr_timer.c),
 * which sends the signal when machine time reaches them; a timer that
 * starts a thread (SIGEV_THREAD) is a thread of this library that waits
 * on the machine's clock.  With UNCORE_RUN_CLOCK=wall, and on the
 * CPU-time clocks, everything is the host's.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "ucr_preload.h"

/* host time between two looks at the deadline in a sliced wait */
#define SLICE_NS 1000000u
#define NS 1000000000ull

static int valid_ts(const struct timespec *t)
{
	return t->tv_sec >= 0 && t->tv_nsec >= 0 && t->tv_nsec < 1000000000;
}

static uint64_t ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec > (UINT64_MAX - NS) / NS ? UINT64_MAX - NS
							      : (uint64_t)t->tv_sec * NS + (uint64_t)t->tv_nsec;
}

static struct timespec ns_ts(uint64_t ns)
{
	return (struct timespec){ (time_t)(ns / NS), (long)(ns % NS) };
}

/* machine ns from now to abs on clock c (0: past) */
static uint64_t until(clockid_t c, const struct timespec *abs)
{
	uint64_t now = ucr_sim_ns(c), t = ts_ns(abs);

	return t > now ? t - now : 0;
}

/* the host's CLOCK_MONOTONIC (the interposed clock_gettime is the
 * machine's) */
static void host_now(struct timespec *t)
{
	REAL(clock_gettime);
	real_clock_gettime(CLOCK_MONOTONIC, t);
}

/* the host's CLOCK_MONOTONIC ns from now, as an absolute time */
static struct timespec host_after(uint64_t ns)
{
	struct timespec t;

	host_now(&t);
	ns += (uint64_t)t.tv_nsec;
	t.tv_sec += (time_t)(ns / NS);
	t.tv_nsec = (long)(ns % NS);
	return t;
}

/* ---- waits the host's kernel does, in slices ---- */

/* One slice of a wait: the host's call (the real function: the library's
 * own calls would reach its interposers) with its timeout at host
 * (absolute, CLOCK_MONOTONIC); returns its result, tmo when the slice ran
 * out. */
typedef int (*slice_fn)(void *ctx, const struct timespec *host);

/* Waits until fn returns something other than tmo or machine time passes
 * ns (then tmo). */
static int timed_wait(uint64_t ns, slice_fn fn, void *ctx, int tmo)
{
	struct timespec h;
	int rc;
	volatile int due = 0;

	if (!ns) {
		h = host_after(0);
		return fn(ctx, &h);
	}
	if (ucr_timed_begin(ns)) {
		/* a handler that interrupted a request: the host's clock */
		h = host_after(ns);
		return fn(ctx, &h);
	}
	pthread_cleanup_push(ucr_timed_cancelled, NULL);
	for (;;) {
		h = host_after(SLICE_NS);
		rc = fn(ctx, &h);
		if (rc != tmo || (due = ucr_timed_due()))
			break;
	}
	pthread_cleanup_pop(0);
	ucr_timed_end(due);
	return rc;
}

/* The clock of a condition variable: glibc keeps it in bit 1 of __wrefs
 * (pthread_condattr_setclock: CLOCK_MONOTONIC; else CLOCK_REALTIME). */
static clockid_t cond_clock(const pthread_cond_t *c)
{
	return (__atomic_load_n(&c->__data.__wrefs, __ATOMIC_RELAXED) & 2u) ? CLOCK_MONOTONIC : CLOCK_REALTIME;
}

struct cond_ctx {
	pthread_cond_t *c;
	pthread_mutex_t *m;
};

static int cond_slice(void *x, const struct timespec *h)
{
	struct cond_ctx *k = x;

	REAL(pthread_cond_clockwait);
	return real_pthread_cond_clockwait(k->c, k->m, CLOCK_MONOTONIC, h);
}

static int cond_wait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk, const struct timespec *abs)
{
	struct cond_ctx k = { c, m };

	if (!valid_ts(abs))
		return EINVAL;
	return timed_wait(until(clk, abs), cond_slice, &k, ETIMEDOUT);
}

/* whether a wait on clock c with a timeout is the machine's */
#define MACHINE_WAIT(c) (ucr_active && ucr_sim_clock(c))

EXPORT int pthread_cond_timedwait(pthread_cond_t *restrict c, pthread_mutex_t *restrict m,
				  const struct timespec *restrict abs)
{
	REAL(pthread_cond_timedwait);
	if (!MACHINE_WAIT(cond_clock(c)))
		return real_pthread_cond_timedwait(c, m, abs);
	return cond_wait(c, m, cond_clock(c), abs);
}

EXPORT int pthread_cond_clockwait(pthread_cond_t *restrict c, pthread_mutex_t *restrict m, clockid_t clk,
				  const struct timespec *restrict abs)
{
	REAL(pthread_cond_clockwait);
	if (!MACHINE_WAIT(clk))
		return real_pthread_cond_clockwait(c, m, clk, abs);
	return cond_wait(c, m, clk, abs);
}

struct lock_ctx {
	void *obj;
	int kind;  /* 0 mutex, 1 rwlock read, 2 rwlock write, 3 semaphore, 4 join */
	void **ret;
	pthread_t th;
};

static int lock_slice(void *x, const struct timespec *h)
{
	struct lock_ctx *k = x;

	REAL(pthread_mutex_clocklock);
	REAL(pthread_rwlock_clockrdlock);
	REAL(pthread_rwlock_clockwrlock);
	REAL(sem_clockwait);
	REAL(pthread_clockjoin_np);
	switch (k->kind) {
	case 0:
		return real_pthread_mutex_clocklock(k->obj, CLOCK_MONOTONIC, h);
	case 1:
		return real_pthread_rwlock_clockrdlock(k->obj, CLOCK_MONOTONIC, h);
	case 2:
		return real_pthread_rwlock_clockwrlock(k->obj, CLOCK_MONOTONIC, h);
	case 3:
		return real_sem_clockwait(k->obj, CLOCK_MONOTONIC, h) ? errno : 0;
	default:
		return real_pthread_clockjoin_np(k->th, k->ret, CLOCK_MONOTONIC, h);
	}
}

static int lock_wait(struct lock_ctx *k, clockid_t clk, const struct timespec *abs)
{
	if (!valid_ts(abs))
		return EINVAL;
	return timed_wait(until(clk, abs), lock_slice, k, ETIMEDOUT);
}

#define TIMED_LOCK(name, type, kind_, clk)                                                  \
	EXPORT int name(type *restrict o, const struct timespec *restrict abs)              \
	{                                                                                   \
		REAL(name);                                                                 \
		if (!MACHINE_WAIT(clk))                                                     \
			return real_##name(o, abs);                                         \
		struct lock_ctx k = { o, kind_, NULL, 0 };                                  \
		return lock_wait(&k, clk, abs);                                             \
	}
#define CLOCK_LOCK(name, type, kind_)                                                       \
	EXPORT int name(type *restrict o, clockid_t clk, const struct timespec *restrict abs) \
	{                                                                                   \
		REAL(name);                                                                 \
		if (!MACHINE_WAIT(clk))                                                     \
			return real_##name(o, clk, abs);                                    \
		struct lock_ctx k = { o, kind_, NULL, 0 };                                  \
		return lock_wait(&k, clk, abs);                                             \
	}

/* the timed forms' clock is CLOCK_REALTIME (POSIX) */
TIMED_LOCK(pthread_mutex_timedlock, pthread_mutex_t, 0, CLOCK_REALTIME)
CLOCK_LOCK(pthread_mutex_clocklock, pthread_mutex_t, 0)
TIMED_LOCK(pthread_rwlock_timedrdlock, pthread_rwlock_t, 1, CLOCK_REALTIME)
CLOCK_LOCK(pthread_rwlock_clockrdlock, pthread_rwlock_t, 1)
TIMED_LOCK(pthread_rwlock_timedwrlock, pthread_rwlock_t, 2, CLOCK_REALTIME)
CLOCK_LOCK(pthread_rwlock_clockwrlock, pthread_rwlock_t, 2)

EXPORT int sem_timedwait(sem_t *restrict s, const struct timespec *restrict abs)
{
	REAL(sem_timedwait);
	if (!MACHINE_WAIT(CLOCK_REALTIME))
		return real_sem_timedwait(s, abs);
	struct lock_ctx k = { s, 3, NULL, 0 };
	int rc = lock_wait(&k, CLOCK_REALTIME, abs);

	return rc ? (int)ucr_fail(rc) : 0;
}

EXPORT int sem_clockwait(sem_t *restrict s, clockid_t clk, const struct timespec *restrict abs)
{
	REAL(sem_clockwait);
	if (!MACHINE_WAIT(clk))
		return real_sem_clockwait(s, clk, abs);
	struct lock_ctx k = { s, 3, NULL, 0 };
	int rc = lock_wait(&k, clk, abs);

	return rc ? (int)ucr_fail(rc) : 0;
}

EXPORT int pthread_timedjoin_np(pthread_t th, void **ret, const struct timespec *abs)
{
	REAL(pthread_timedjoin_np);
	if (!MACHINE_WAIT(CLOCK_REALTIME) || !abs)
		return real_pthread_timedjoin_np(th, ret, abs);
	struct lock_ctx k = { NULL, 4, ret, th };

	return lock_wait(&k, CLOCK_REALTIME, abs);
}

EXPORT int pthread_clockjoin_np(pthread_t th, void **ret, clockid_t clk, const struct timespec *abs)
{
	REAL(pthread_clockjoin_np);
	if (!MACHINE_WAIT(clk) || !abs)
		return real_pthread_clockjoin_np(th, ret, clk, abs);
	struct lock_ctx k = { NULL, 4, ret, th };

	return lock_wait(&k, clk, abs);
}

struct sig_ctx {
	const sigset_t *set;
	siginfo_t *info;
	int sig;
};

static int sig_slice(void *x, const struct timespec *h)
{
	struct sig_ctx *k = x;
	struct timespec now, rel;

	REAL(sigtimedwait);
	host_now(&now);
	rel.tv_sec = h->tv_sec - now.tv_sec;
	rel.tv_nsec = h->tv_nsec - now.tv_nsec;
	if (rel.tv_nsec < 0) {
		rel.tv_nsec += 1000000000;
		rel.tv_sec--;
	}
	if (rel.tv_sec < 0)
		rel = (struct timespec){ 0, 0 };
	k->sig = real_sigtimedwait(k->set, k->info, &rel);
	return k->sig < 0 ? errno : 0;
}

EXPORT int sigtimedwait(const sigset_t *restrict set, siginfo_t *restrict info, const struct timespec *restrict t)
{
	REAL(sigtimedwait);
	if (!ucr_active || ucr_wall_clock || !t)
		return real_sigtimedwait(set, info, t);
	if (!valid_ts(t))
		return (int)ucr_fail(EINVAL);
	struct sig_ctx k = { set, info, 0 };
	int rc;

	rc = timed_wait(ts_ns(t), sig_slice, &k, EAGAIN);
	return rc ? (int)ucr_fail(rc) : k.sig;
}

/* ---- waits on descriptors ---- */

/* pthread_sigmask around a wait, as ppoll's and pselect's mask holds */
#define WITH_MASK(mask, stmt)                                                    \
	do {                                                                     \
		sigset_t old_;                                                   \
		if (mask)                                                        \
			pthread_sigmask(SIG_SETMASK, (mask), &old_);             \
		stmt;                                                            \
		if (mask) {                                                      \
			int e_ = errno;                                          \
			pthread_sigmask(SIG_SETMASK, &old_, NULL);               \
			errno = e_;                                              \
		}                                                                \
	} while (0)

/* select and pselect with a timeout of ns machine time: the host's select
 * with no timeout says what is ready; between, the descriptors are watched
 * by poll beside the machine's clock.  *left: the time not waited. */
static int wait_select(int nfds, fd_set *r, fd_set *w, fd_set *e, uint64_t ns, const sigset_t *mask,
		       uint64_t *left)
{
	static __typeof__(pselect) *real_pselect;
	fd_set r0, w0, e0;
	struct pollfd *p = NULL;
	uint64_t deadline = ucr_sim_ns(CLOCK_MONOTONIC), now;
	int rc;

	if (!real_pselect)
		real_pselect = (__typeof__(pselect) *)dlsym(RTLD_NEXT, "pselect");
	if (nfds < 0 || nfds > FD_SETSIZE)
		return (int)ucr_fail(EINVAL);
	deadline = ns > UINT64_MAX - deadline ? UINT64_MAX : deadline + ns;
	if (r)
		r0 = *r;
	if (w)
		w0 = *w;
	if (e)
		e0 = *e;
	for (;;) {
		struct timespec zero = { 0, 0 };
		unsigned long n = 0;
		int k;

		if (r)
			*r = r0;
		if (w)
			*w = w0;
		if (e)
			*e = e0;
		if ((rc = real_pselect(nfds, r, w, e, &zero, mask)) != 0)
			break;
		now = ucr_sim_ns(CLOCK_MONOTONIC);
		if (now >= deadline)
			break;
		if (!p && nfds && !(p = calloc((size_t)nfds, sizeof(*p)))) {
			rc = (int)ucr_fail(ENOMEM);
			break;
		}
		for (int fd = 0; fd < nfds; fd++) {
			short ev = (short)((r && FD_ISSET(fd, &r0) ? POLLIN : 0) | (w && FD_ISSET(fd, &w0) ? POLLOUT : 0) |
					   (e && FD_ISSET(fd, &e0) ? POLLPRI : 0));

			if (ev)
				p[n++] = (struct pollfd){ fd, ev, 0 };
		}
		WITH_MASK(mask, k = ucr_sleep_poll(deadline - now, p, n));
		if (k < 0) {
			rc = -1;
			break;
		}
		if (k == 0) {
			/* the machine's deadline: nothing is ready */
			if (r)
				FD_ZERO(r);
			if (w)
				FD_ZERO(w);
			if (e)
				FD_ZERO(e);
			break;
		}
	}
	free(p);
	now = ucr_sim_ns(CLOCK_MONOTONIC);
	*left = deadline > now ? deadline - now : 0;
	return rc;
}

EXPORT int select(int nfds, fd_set *restrict r, fd_set *restrict w, fd_set *restrict e, struct timeval *restrict tv)
{
	REAL(select);
	if (ucr_active && ucr_wall_clock && tv && (tv->tv_sec || tv->tv_usec))
		WALL_SLEEP(real_select(nfds, r, w, e, tv));
	if (!ucr_active || ucr_wall_clock || !tv || (!tv->tv_sec && !tv->tv_usec))
		return real_select(nfds, r, w, e, tv);
	if (tv->tv_sec < 0 || tv->tv_usec < 0 || tv->tv_usec >= 1000000)
		return (int)ucr_fail(EINVAL);
	uint64_t left;
	int rc = wait_select(nfds, r, w, e, (uint64_t)tv->tv_sec * NS + (uint64_t)tv->tv_usec * 1000u, NULL, &left);

	/* Linux's select leaves the time not slept in the timeout */
	tv->tv_sec = (time_t)(left / NS);
	tv->tv_usec = (suseconds_t)(left % NS / 1000u);
	return rc;
}

EXPORT int pselect(int nfds, fd_set *restrict r, fd_set *restrict w, fd_set *restrict e,
		   const struct timespec *restrict t, const sigset_t *restrict mask)
{
	REAL(pselect);
	if (ucr_active && ucr_wall_clock && t && (t->tv_sec || t->tv_nsec))
		WALL_SLEEP(real_pselect(nfds, r, w, e, t, mask));
	if (!ucr_active || ucr_wall_clock || !t || (!t->tv_sec && !t->tv_nsec))
		return real_pselect(nfds, r, w, e, t, mask);
	if (!valid_ts(t))
		return (int)ucr_fail(EINVAL);
	uint64_t left;

	return wait_select(nfds, r, w, e, ts_ns(t), mask, &left);
}

/* The epoll waits: the epoll descriptor is readable when events wait. */
static int wait_epoll(int epfd, struct epoll_event *ev, int max, uint64_t ns, const sigset_t *mask)
{
	static __typeof__(epoll_pwait) *real_epoll_pwait;
	uint64_t deadline = ucr_sim_ns(CLOCK_MONOTONIC), now;
	int rc, k;

	if (!real_epoll_pwait)
		real_epoll_pwait = (__typeof__(epoll_pwait) *)dlsym(RTLD_NEXT, "epoll_pwait");
	deadline = ns > UINT64_MAX - deadline ? UINT64_MAX : deadline + ns;
	for (;;) {
		struct pollfd p = { epfd, POLLIN, 0 };

		if ((rc = real_epoll_pwait(epfd, ev, max, 0, mask)) != 0)
			return rc;
		now = ucr_sim_ns(CLOCK_MONOTONIC);
		if (now >= deadline)
			return 0;
		WITH_MASK(mask, k = ucr_sleep_poll(deadline - now, &p, 1));
		if (k <= 0)
			return k;
	}
}

/* epoll_wait and epoll_pwait: a timeout in ms; -1 waits for ever, 0 not at all */
#define EPOLL_MS(call, timeout, real_call)                                                  \
	do {                                                                                \
		if (ucr_active && ucr_wall_clock && (timeout))                             \
			WALL_SLEEP(real_call);                                              \
		if (!ucr_active || ucr_wall_clock || (timeout) <= 0)                       \
			return (real_call);                                                 \
		return (call);                                                              \
	} while (0)

EXPORT int epoll_wait(int epfd, struct epoll_event *ev, int max, int timeout)
{
	REAL(epoll_wait);
	EPOLL_MS(wait_epoll(epfd, ev, max, (uint64_t)timeout * 1000000u, NULL), timeout,
		 real_epoll_wait(epfd, ev, max, timeout));
}

EXPORT int epoll_pwait(int epfd, struct epoll_event *ev, int max, int timeout, const sigset_t *mask)
{
	REAL(epoll_pwait);
	EPOLL_MS(wait_epoll(epfd, ev, max, (uint64_t)timeout * 1000000u, mask), timeout,
		 real_epoll_pwait(epfd, ev, max, timeout, mask));
}

EXPORT int epoll_pwait2(int epfd, struct epoll_event *ev, int max, const struct timespec *t, const sigset_t *mask)
{
	REAL(epoll_pwait2);
	int ms = !t ? -1 : (t->tv_sec || t->tv_nsec) ? 1 : 0;

	if (t && !valid_ts(t))
		return (int)ucr_fail(EINVAL);
	EPOLL_MS(wait_epoll(epfd, ev, max, t ? ts_ns(t) : 0, mask), ms, real_epoll_pwait2(epfd, ev, max, t, mask));
}

/* ---- timers ---- */

static int timer_call(uint32_t id, unsigned op, uint64_t a, uint64_t b, struct ucr_rsp *r)
{
	return ucr_request(UCR_TIMER, a, b, (uint64_t)op << 32 | id, r);
}

static uint64_t tv_ns(const struct timeval *t)
{
	return (uint64_t)t->tv_sec * NS + (uint64_t)t->tv_usec * 1000u;
}

static struct timeval ns_tv(uint64_t ns)
{
	/* a timer that has expired but whose signal is still on its way
	 * reads as the shortest time left, as Linux's does */
	return (struct timeval){ (time_t)(ns / NS), (suseconds_t)((ns % NS + 999u) / 1000u) };
}

static int valid_tv(const struct timeval *t)
{
	return t->tv_sec >= 0 && t->tv_usec >= 0 && t->tv_usec < 1000000;
}

/* ITIMER_REAL: the server's timer 0 of the process */
static int itimer_real(const struct itimerval *nv, struct itimerval *ov)
{
	struct ucr_rsp r;
	int rc;

	if (nv)
		rc = timer_call(0, UCR_TIMER_SET, tv_ns(&nv->it_value), tv_ns(&nv->it_interval), &r);
	else
		rc = timer_call(0, UCR_TIMER_GET, 0, 0, &r);
	if (rc)
		return (int)ucr_fail(-rc);
	if (ov) {
		ov->it_value = ns_tv(r.v[0]);
		ov->it_interval = ns_tv(r.v[1]);
	}
	return 0;
}

EXPORT int setitimer(__itimer_which_t which, const struct itimerval *restrict nv, struct itimerval *restrict ov)
{
	REAL(setitimer);
	if (!ucr_active || ucr_wall_clock || which != ITIMER_REAL)
		return real_setitimer(which, nv, ov);
	if (!nv || !valid_tv(&nv->it_value) || !valid_tv(&nv->it_interval))
		return (int)ucr_fail(nv ? EINVAL : EFAULT);
	return itimer_real(nv, ov);
}

EXPORT int getitimer(__itimer_which_t which, struct itimerval *v)
{
	REAL(getitimer);
	if (!ucr_active || ucr_wall_clock || which != ITIMER_REAL)
		return real_getitimer(which, v);
	return itimer_real(NULL, v);
}

EXPORT unsigned alarm(unsigned s)
{
	struct itimerval nv = { { 0, 0 }, { (time_t)s, 0 } }, ov;

	REAL(alarm);
	if (!ucr_active || ucr_wall_clock)
		return real_alarm(s);
	if (itimer_real(&nv, &ov))
		return 0;
	/* what was left, rounded to the nearest second, at least 1 (Linux) */
	return (unsigned)ov.it_value.tv_sec +
	       ((!ov.it_value.tv_sec && ov.it_value.tv_usec) || ov.it_value.tv_usec >= 500000);
}

EXPORT useconds_t ualarm(useconds_t value, useconds_t interval)
{
	struct itimerval nv = { { (time_t)(interval / 1000000u), (suseconds_t)(interval % 1000000u) },
				{ (time_t)(value / 1000000u), (suseconds_t)(value % 1000000u) } },
			 ov;

	REAL(ualarm);
	if (!ucr_active || ucr_wall_clock)
		return real_ualarm(value, interval);
	if (itimer_real(&nv, &ov))
		return (useconds_t)-1;
	return (useconds_t)(ov.it_value.tv_sec * 1000000 + ov.it_value.tv_usec);
}

/* timer_create's timers on the machine's clocks: the kernel's own timer
 * (SIGEV_NONE, never armed) gives the ID, so that timer_t is the kernel's
 * as it would be; the server keeps the deadline.  SIGEV_THREAD: a thread
 * of ours (below). */
#define MAXTIMERS 4096
static uint8_t t_ours[MAXTIMERS];   /* 0: not ours; else 1 + its clock */
struct thread_timer;
static struct thread_timer *t_thread[MAXTIMERS];

static int timer_kid(timer_t t)
{
	intptr_t k = (intptr_t)t;

	return k >= 0 && k < MAXTIMERS && t_ours[k] ? (int)k : -1;
}

/* ---- SIGEV_THREAD: a thread per timer that waits on the machine's
 * clock (a condition variable above) and starts the function in a new
 * thread at each expiry, as glibc's helper does ---- */
struct thread_timer {
	pthread_mutex_t mu;
	pthread_cond_t cv;       /* CLOCK_MONOTONIC: the machine's */
	pthread_t th;
	void (*fn)(union sigval);
	union sigval val;
	pthread_attr_t attr;
	int has_attr;
	uint64_t deadline, interval;  /* machine CLOCK_MONOTONIC ns; 0: disarmed */
	uint64_t overrun;
	int quit;
};

struct thread_call {
	void (*fn)(union sigval);
	union sigval val;
};

static void *thread_call(void *x)
{
	struct thread_call c = *(struct thread_call *)x;

	free(x);
	c.fn(c.val);
	return NULL;
}

static void *thread_timer_main(void *x)
{
	struct thread_timer *t = x;

	pthread_mutex_lock(&t->mu);
	while (!t->quit) {
		if (!t->deadline) {
			pthread_cond_wait(&t->cv, &t->mu);
			continue;
		}
		struct timespec abs = ns_ts(t->deadline);

		if (pthread_cond_clockwait(&t->cv, &t->mu, CLOCK_MONOTONIC, &abs) != ETIMEDOUT)
			continue;  /* re-armed, disarmed or deleted: look again */
		uint64_t now = ucr_sim_ns(CLOCK_MONOTONIC);

		if (!t->deadline || now < t->deadline)
			continue;
		t->overrun = t->interval ? (now - t->deadline) / t->interval : 0;
		t->deadline = t->interval ? t->deadline + (t->overrun + 1) * t->interval : 0;
		struct thread_call *c = malloc(sizeof(*c));
		pthread_t th;

		if (c) {
			*c = (struct thread_call){ t->fn, t->val };
			if (pthread_create(&th, t->has_attr ? &t->attr : NULL, thread_call, c))
				free(c);
			else if (!t->has_attr)
				pthread_detach(th);
		}
	}
	pthread_mutex_unlock(&t->mu);
	return NULL;
}

static int thread_timer_new(const struct sigevent *sev, struct thread_timer **out)
{
	struct thread_timer *t = calloc(1, sizeof(*t));
	pthread_condattr_t ca;
	sigset_t all, old;
	int rc;

	if (!t)
		return ENOMEM;
	pthread_mutex_init(&t->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&t->cv, &ca);
	pthread_condattr_destroy(&ca);
	t->fn = sev->sigev_notify_function;
	t->val = sev->sigev_value;
	if (sev->sigev_notify_attributes) {
		/* the function's threads start detached with the caller's
		 * attributes, as glibc's do */
		t->attr = *sev->sigev_notify_attributes;
		pthread_attr_setdetachstate(&t->attr, PTHREAD_CREATE_DETACHED);
		t->has_attr = 1;
	}
	/* the waiting thread takes none of the program's signals */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&t->th, NULL, thread_timer_main, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}

static void thread_timer_delete(struct thread_timer *t)
{
	pthread_mutex_lock(&t->mu);
	t->quit = 1;
	pthread_cond_signal(&t->cv);
	pthread_mutex_unlock(&t->mu);
	pthread_join(t->th, NULL);
	pthread_cond_destroy(&t->cv);
	pthread_mutex_destroy(&t->mu);
	free(t);
}

EXPORT int timer_create(clockid_t clk, struct sigevent *restrict sev, timer_t *restrict out)
{
	struct sigevent none;
	struct ucr_rsp r;
	timer_t kt;
	unsigned notify, sig;
	int kid, tid = 0, rc;
	uint64_t val;

	REAL(timer_create);
	if (!ucr_active || !ucr_sim_clock(clk))
		return real_timer_create(clk, sev, out);
	if (sev && sev->sigev_notify != SIGEV_SIGNAL && sev->sigev_notify != SIGEV_NONE &&
	    sev->sigev_notify != SIGEV_THREAD && sev->sigev_notify != SIGEV_THREAD_ID)
		return (int)ucr_fail(EINVAL);
	if (sev && sev->sigev_notify != SIGEV_NONE && sev->sigev_notify != SIGEV_THREAD &&
	    (sev->sigev_signo <= 0 || sev->sigev_signo >= NSIG))
		return (int)ucr_fail(EINVAL);
	memset(&none, 0, sizeof(none));
	none.sigev_notify = SIGEV_NONE;
	if (real_timer_create(CLOCK_MONOTONIC, &none, &kt))
		return -1;
	kid = (int)(intptr_t)kt;
	if (kid < 0 || kid >= MAXTIMERS) {
		timer_delete(kt);
		return (int)ucr_fail(EAGAIN);
	}
	if (sev && sev->sigev_notify == SIGEV_THREAD) {
		if ((rc = thread_timer_new(sev, &t_thread[kid]))) {
			timer_delete(kt);
			return (int)ucr_fail(rc);
		}
		t_ours[kid] = (uint8_t)(1 + clk);
		*out = kt;
		return 0;
	}
	notify = !sev || sev->sigev_notify == SIGEV_SIGNAL ? UCR_TIMER_NOTIFY_PROCESS
		 : sev->sigev_notify == SIGEV_THREAD_ID    ? UCR_TIMER_NOTIFY_THREAD
							   : UCR_TIMER_NOTIFY_NONE;
	sig = sev ? (unsigned)sev->sigev_signo : SIGALRM;
	if (notify == UCR_TIMER_NOTIFY_THREAD)
		tid = sev->_sigev_un._tid; /* sigev_notify_thread_id */
	/* without a sigevent the signal's value is the timer's ID */
	val = sev ? (uint64_t)(uintptr_t)sev->sigev_value.sival_ptr : (uint64_t)kid;
	if (timer_call((uint32_t)kid + 1, UCR_TIMER_CREATE, val, sig | notify << 8 | (uint64_t)(uint32_t)tid << 32,
		       &r)) {
		timer_delete(kt);
		return (int)ucr_fail(-r.rc);
	}
	t_ours[kid] = (uint8_t)(1 + clk);
	*out = kt;
	return 0;
}

static int thread_timer_set(struct thread_timer *t, uint64_t value, uint64_t interval, struct itimerspec *old)
{
	uint64_t now = ucr_sim_ns(CLOCK_MONOTONIC);

	pthread_mutex_lock(&t->mu);
	if (old) {
		old->it_value = ns_ts(t->deadline > now ? t->deadline - now : t->deadline ? 1 : 0);
		old->it_interval = ns_ts(t->interval);
	}
	if (value != UINT64_MAX) {
		t->deadline = value ? (value > UINT64_MAX - now ? UINT64_MAX : now + value) : 0;
		t->interval = value ? interval : 0;
		pthread_cond_signal(&t->cv);
	}
	pthread_mutex_unlock(&t->mu);
	return 0;
}

EXPORT int timer_settime(timer_t t, int flags, const struct itimerspec *restrict nv, struct itimerspec *restrict ov)
{
	struct ucr_rsp r;
	uint64_t value;
	int kid;

	REAL(timer_settime);
	if (!ucr_active || (kid = timer_kid(t)) < 0)
		return real_timer_settime(t, flags, nv, ov);
	if (!nv || !valid_ts(&nv->it_value) || !valid_ts(&nv->it_interval))
		return (int)ucr_fail(nv ? EINVAL : EFAULT);
	value = ts_ns(&nv->it_value);
	if (value && (flags & TIMER_ABSTIME))
		value = until((clockid_t)(t_ours[kid] - 1), &nv->it_value) ? until((clockid_t)(t_ours[kid] - 1), &nv->it_value)
									 : 1; /* past: expires at once */
	if (t_thread[kid])
		return thread_timer_set(t_thread[kid], value, ts_ns(&nv->it_interval), ov);
	if (timer_call((uint32_t)kid + 1, UCR_TIMER_SET, value, ts_ns(&nv->it_interval), &r))
		return (int)ucr_fail(-r.rc);
	if (ov) {
		ov->it_value = ns_ts(r.v[0]);
		ov->it_interval = ns_ts(r.v[1]);
	}
	return 0;
}

EXPORT int timer_gettime(timer_t t, struct itimerspec *v)
{
	struct ucr_rsp r;
	int kid;

	REAL(timer_gettime);
	if (!ucr_active || (kid = timer_kid(t)) < 0)
		return real_timer_gettime(t, v);
	if (t_thread[kid])
		return thread_timer_set(t_thread[kid], UINT64_MAX, 0, v);
	if (timer_call((uint32_t)kid + 1, UCR_TIMER_GET, 0, 0, &r))
		return (int)ucr_fail(-r.rc);
	v->it_value = ns_ts(r.v[0]);
	v->it_interval = ns_ts(r.v[1]);
	return 0;
}

EXPORT int timer_getoverrun(timer_t t)
{
	struct ucr_rsp r;
	int kid;

	REAL(timer_getoverrun);
	if (!ucr_active || (kid = timer_kid(t)) < 0)
		return real_timer_getoverrun(t);
	if (t_thread[kid]) {
		pthread_mutex_lock(&t_thread[kid]->mu);
		uint64_t o = t_thread[kid]->overrun;
		pthread_mutex_unlock(&t_thread[kid]->mu);
		return o > 0x7FFFFFFF ? 0x7FFFFFFF : (int)o;
	}
	if (timer_call((uint32_t)kid + 1, UCR_TIMER_OVERRUN, 0, 0, &r))
		return (int)ucr_fail(-r.rc);
	return (int)r.v[0];
}

EXPORT int timer_delete(timer_t t)
{
	struct ucr_rsp r;
	int kid;

	REAL(timer_delete);
	if (!ucr_active || (kid = timer_kid(t)) < 0)
		return real_timer_delete(t);
	if (t_thread[kid]) {
		thread_timer_delete(t_thread[kid]);
		t_thread[kid] = NULL;
	} else if (timer_call((uint32_t)kid + 1, UCR_TIMER_DELETE, 0, 0, &r)) {
		return (int)ucr_fail(-r.rc);
	}
	t_ours[kid] = 0;
	return real_timer_delete(t);
}
