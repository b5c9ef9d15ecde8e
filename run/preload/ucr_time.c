/*
 * ucr_time.c - time in the preload library (libuncore-run.so): the
 * clocks (clock_gettime, gettimeofday, time) read the machine's clock and
 * sleeping (sleep, usleep, nanosleep, clock_nanosleep, and the timeout of
 * poll and ppoll) waits on it, so a tool's intervals are the machine's;
 * UNCORE_RUN_CLOCK=wall leaves them to the host, telling the server that
 * the thread waits meanwhile (its per-task perf events are off).  The sleep
 * itself is a request of ucr_conn.c.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "ucr_preload.h"

/* The clocks that are the machine's (UNCORE_RUN_CLOCK=wall: none);
 * CPU-time clocks stay the host's. */
int ucr_sim_clock(clockid_t c)
{
	return !ucr_wall_clock && (c == CLOCK_REALTIME || c == CLOCK_MONOTONIC || c == CLOCK_MONOTONIC_RAW ||
				   c == CLOCK_REALTIME_COARSE || c == CLOCK_MONOTONIC_COARSE ||
				   c == CLOCK_BOOTTIME || c == CLOCK_TAI);
}

uint64_t ucr_sim_ns(clockid_t c)
{
	struct ucr_rsp r;

	if (ucr_request(UCR_TIME, (uint64_t)c, 0, 0, &r))
		ucr_die("clock %d: %s", (int)c, ucr_last_error());
	return r.v[0];
}

/* ---- interposed: clocks and sleeping ---- */

EXPORT int clock_gettime(clockid_t c, struct timespec *ts)
{
	REAL(clock_gettime);
	if (!ucr_active || !ucr_sim_clock(c))
		return real_clock_gettime(c, ts);
	uint64_t ns = ucr_sim_ns(c);

	ts->tv_sec = (time_t)(ns / 1000000000u);
	ts->tv_nsec = (long)(ns % 1000000000u);
	return 0;
}

EXPORT int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
	REAL(gettimeofday);
	if (!ucr_active || ucr_wall_clock)
		return real_gettimeofday(tv, tz);
	uint64_t ns = ucr_sim_ns(CLOCK_REALTIME);

	tv->tv_sec = (time_t)(ns / 1000000000u);
	tv->tv_usec = (suseconds_t)(ns % 1000000000u / 1000);
	return 0;
}

EXPORT time_t time(time_t *t)
{
	REAL(time);
	if (!ucr_active || ucr_wall_clock)
		return real_time(t);
	time_t v = (time_t)(ucr_sim_ns(CLOCK_REALTIME) / 1000000000u);

	if (t)
		*t = v;
	return v;
}

EXPORT int clock_nanosleep(clockid_t c, int flags, const struct timespec *req_ts, struct timespec *rem)
{
	REAL(clock_nanosleep);
	if (ucr_active && ucr_wall_clock)
		WALL_SLEEP(real_clock_nanosleep(c, flags, req_ts, rem));
	if (!ucr_active || !ucr_sim_clock(c))
		return real_clock_nanosleep(c, flags, req_ts, rem);
	if (req_ts->tv_nsec < 0 || req_ts->tv_nsec >= 1000000000 || req_ts->tv_sec < 0)
		return EINVAL;
	uint64_t ns = (uint64_t)req_ts->tv_sec * 1000000000u + (uint64_t)req_ts->tv_nsec;

	if (flags & TIMER_ABSTIME) {
		uint64_t now = ucr_sim_ns(c);

		ns = ns > now ? ns - now : 0;
	}
	uint64_t left = ucr_sleep(ns);

	if (!left)
		return 0;
	if (rem && !(flags & TIMER_ABSTIME))
		*rem = (struct timespec){ (time_t)(left / 1000000000u), (long)(left % 1000000000u) };
	return EINTR;
}

EXPORT int nanosleep(const struct timespec *req_ts, struct timespec *rem)
{
	int rc;

	REAL(nanosleep);
	if (ucr_active && ucr_wall_clock)
		WALL_SLEEP(real_nanosleep(req_ts, rem));
	if (!ucr_active)
		return real_nanosleep(req_ts, rem);
	rc = clock_nanosleep(CLOCK_MONOTONIC, 0, req_ts, rem);
	return rc ? (int)ucr_fail(rc) : 0;
}

/* poll and ppoll: a timeout is machine time (ucr_sleep_poll); none, or
 * zero, is the host's call as it is */
EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	REAL(poll);
	if (ucr_active && ucr_wall_clock && timeout)
		WALL_SLEEP(real_poll(fds, n, timeout));
	if (!ucr_active || ucr_wall_clock || timeout <= 0)
		return real_poll(fds, n, timeout);
	int r = real_poll(fds, n, 0);

	if (r)
		return r;
	return ucr_sleep_poll((uint64_t)timeout * 1000000u, fds, n);
}

EXPORT int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *tmo, const sigset_t *mask)
{
	REAL(ppoll);
	if (ucr_active && ucr_wall_clock && (!tmo || tmo->tv_sec || tmo->tv_nsec))
		WALL_SLEEP(real_ppoll(fds, n, tmo, mask));
	if (!ucr_active || ucr_wall_clock || !tmo || (!tmo->tv_sec && !tmo->tv_nsec))
		return real_ppoll(fds, n, tmo, mask);
	if (tmo->tv_sec < 0 || tmo->tv_nsec < 0 || tmo->tv_nsec >= 1000000000)
		return (int)ucr_fail(EINVAL);
	struct timespec zero = { 0, 0 };
	sigset_t old;
	int r = real_ppoll(fds, n, &zero, mask);

	if (r)
		return r;
	/* the mask holds while it waits, as ppoll's does */
	if (mask)
		pthread_sigmask(SIG_SETMASK, mask, &old);
	r = ucr_sleep_poll((uint64_t)tmo->tv_sec * 1000000000u + (uint64_t)tmo->tv_nsec, fds, n);
	if (mask) {
		int e = errno;

		pthread_sigmask(SIG_SETMASK, &old, NULL);
		errno = e;
	}
	return r;
}

EXPORT int usleep(useconds_t us)
{
	REAL(usleep);
	if (ucr_active && ucr_wall_clock)
		WALL_SLEEP(real_usleep(us));
	if (!ucr_active)
		return real_usleep(us);
	return ucr_sleep((uint64_t)us * 1000u) ? (int)ucr_fail(EINTR) : 0;
}

EXPORT unsigned sleep(unsigned s)
{
	REAL(sleep);
	if (ucr_active && ucr_wall_clock)
		WALL_SLEEP((int)real_sleep(s));
	if (!ucr_active)
		return real_sleep(s);
	uint64_t left = ucr_sleep((uint64_t)s * 1000000000u);

	return (unsigned)((left + 999999999u) / 1000000000u);
}
