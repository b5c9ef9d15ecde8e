/*
 * ct_waits.c - a program of our own that waits with timeouts and timers in
 * every way a program can, run under `uncore run` by run_clock_test.py
 * (CTest run_clock.*): each case prints what it measured with the
 * machine's clock (CLOCK_MONOTONIC: machine time under uncore run) as
 * "name value" lines, which the script compares with what POSIX and Linux
 * specify.  Each case first sleeps 30 s of machine time, so that a timeout
 * the host's kernel measured on its own clock (30 s behind the machine's)
 * would wait 30 s too long.  Built without sanitizers, as ct_cpuid: it
 * runs with the preload library.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double mono(void)
{
	return now_s(CLOCK_MONOTONIC);
}

/* the absolute time s seconds from now on clock c */
static struct timespec after(clockid_t c, double s)
{
	struct timespec t;
	long long ns;

	clock_gettime(c, &t);
	ns = (long long)t.tv_nsec + (long long)(s * 1e9);
	t.tv_sec += (time_t)(ns / 1000000000);
	t.tv_nsec = (long)(ns % 1000000000);
	return t;
}

static void out(const char *name, double v)
{
	printf("%s %.6f\n", name, v);
	fflush(stdout);
}

static void *sleep_then_post(void *x)
{
	usleep(500000);
	sem_post(x);
	return NULL;
}

struct cv {
	pthread_mutex_t m;
	pthread_cond_t c;
	int flag;
};

static void *sleep_then_signal(void *x)
{
	struct cv *k = x;

	usleep(500000);
	pthread_mutex_lock(&k->m);
	k->flag = 1;
	pthread_cond_signal(&k->c);
	pthread_mutex_unlock(&k->m);
	return NULL;
}

static void *hold_lock(void *x)
{
	pthread_mutex_lock(x);
	sleep(3);
	pthread_mutex_unlock(x);
	return NULL;
}

static void *hold_rwlock(void *x)
{
	pthread_rwlock_wrlock(x);
	sleep(3);
	pthread_rwlock_unlock(x);
	return NULL;
}

static void *sleep2(void *x)
{
	(void)x;
	sleep(2);
	return NULL;
}

static int wfd = -1;

static void *sleep_then_write(void *x)
{
	(void)x;
	usleep(500000);
	if (write(wfd, "x", 1) != 1)
		abort();
	return NULL;
}

static atomic_int spin_on = 1;

static void *spin(void *x)
{
	(void)x;
	/* a thread the machine knows of (it has read the clock) */
	mono();
	atomic_store(&spin_on, 2);
	while (atomic_load(&spin_on))
		;
	return NULL;
}

static volatile sig_atomic_t nsig;

static void on_sig(int sig)
{
	(void)sig;
	nsig++;
}

static atomic_int nthread_calls;

static void thread_fn(union sigval v)
{
	atomic_fetch_add(&nthread_calls, v.sival_int);
}

static int cond_case(clockid_t clk)
{
	struct cv k = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	pthread_condattr_t a;
	pthread_t th;
	struct timespec abs;
	double t0;
	int rc;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, clk);
	pthread_cond_init(&k.c, &a);
	/* nobody signals: the timeout */
	pthread_mutex_lock(&k.m);
	t0 = mono();
	abs = after(clk, 1.0);
	rc = pthread_cond_timedwait(&k.c, &k.m, &abs);
	out("timedout_rc", rc == ETIMEDOUT);
	out("timedout_s", mono() - t0);
	/* a thread signals after 0.5 s: the wait ends then */
	pthread_create(&th, NULL, sleep_then_signal, &k);
	t0 = mono();
	abs = after(clk, 5.0);
	rc = 0;
	while (!k.flag && rc == 0)
		rc = pthread_cond_timedwait(&k.c, &k.m, &abs);
	out("signalled_rc", rc);
	out("signalled_s", mono() - t0);
	pthread_mutex_unlock(&k.m);
	pthread_join(th, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	struct timespec abs;
	pthread_t th;
	double t0;
	int rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	sleep(30);
	if (!strcmp(c, "cond_realtime"))
		return cond_case(CLOCK_REALTIME);
	if (!strcmp(c, "cond_monotonic"))
		return cond_case(CLOCK_MONOTONIC);
	if (!strcmp(c, "locks")) {
		pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
		pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
		sem_t s;

		pthread_create(&th, NULL, hold_lock, &m);
		usleep(1000);
		t0 = mono();
		abs = after(CLOCK_REALTIME, 1.0);
		out("mutex_rc", pthread_mutex_timedlock(&m, &abs) == ETIMEDOUT);
		out("mutex_s", mono() - t0);
		t0 = mono();
		abs = after(CLOCK_MONOTONIC, 10.0);
		out("mutex_clock_rc", pthread_mutex_clocklock(&m, CLOCK_MONOTONIC, &abs));
		out("mutex_clock_s", mono() - t0); /* the holder lets go at 3 s */
		pthread_mutex_unlock(&m);
		pthread_join(th, NULL);
		pthread_create(&th, NULL, hold_rwlock, &rw);
		usleep(1000);
		t0 = mono();
		abs = after(CLOCK_REALTIME, 0.75);
		out("rwlock_rc", pthread_rwlock_timedrdlock(&rw, &abs) == ETIMEDOUT);
		out("rwlock_s", mono() - t0);
		pthread_join(th, NULL);
		sem_init(&s, 0, 0);
		t0 = mono();
		abs = after(CLOCK_REALTIME, 1.25);
		rc = sem_timedwait(&s, &abs);
		out("sem_rc", rc == -1 && errno == ETIMEDOUT);
		out("sem_s", mono() - t0);
		pthread_create(&th, NULL, sleep_then_post, &s);
		t0 = mono();
		abs = after(CLOCK_MONOTONIC, 5.0);
		out("sem_post_rc", sem_clockwait(&s, CLOCK_MONOTONIC, &abs));
		out("sem_post_s", mono() - t0);
		pthread_join(th, NULL);
		pthread_create(&th, NULL, sleep2, NULL);
		t0 = mono();
		abs = after(CLOCK_REALTIME, 1.0);
		out("join_rc", pthread_timedjoin_np(th, NULL, &abs) == ETIMEDOUT);
		out("join_s", mono() - t0);
		out("join_later_rc", pthread_join(th, NULL));
		out("join_later_s", mono() - t0);
		return 0;
	}
	if (!strcmp(c, "fds")) {
		int p[2], ep;
		fd_set r;
		struct timeval tv = { 1, 500000 };
		struct timespec ts = { 0, 750000000 };
		struct epoll_event ev = { EPOLLIN, { 0 } }, got;
		char b;

		if (pipe(p))
			return 1;
		wfd = p[1];
		FD_ZERO(&r);
		FD_SET(p[0], &r);
		t0 = mono();
		out("select_rc", select(p[0] + 1, &r, NULL, NULL, &tv));
		out("select_s", mono() - t0);
		out("select_set", FD_ISSET(p[0], &r));
		out("select_left", (double)tv.tv_sec + (double)tv.tv_usec / 1e6);
		FD_SET(p[0], &r);
		t0 = mono();
		out("pselect_rc", pselect(p[0] + 1, &r, NULL, NULL, &ts, NULL));
		out("pselect_s", mono() - t0);
		ep = epoll_create1(0);
		epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
		t0 = mono();
		out("epoll_rc", epoll_wait(ep, &got, 1, 1250));
		out("epoll_s", mono() - t0);
		/* a thread writes after 0.5 s: each wait ends then */
		pthread_create(&th, NULL, sleep_then_write, NULL);
		t0 = mono();
		out("epoll_ready_rc", epoll_wait(ep, &got, 1, 10000));
		out("epoll_ready_s", mono() - t0);
		pthread_join(th, NULL);
		if (read(p[0], &b, 1) != 1)
			return 1;
		pthread_create(&th, NULL, sleep_then_write, NULL);
		tv = (struct timeval){ 10, 0 };
		FD_SET(p[0], &r);
		t0 = mono();
		out("select_ready_rc", select(p[0] + 1, &r, NULL, NULL, &tv));
		out("select_ready_s", mono() - t0);
		pthread_join(th, NULL);
		if (read(p[0], &b, 1) != 1)
			return 1;
		/* poll, which was the machine's before */
		struct pollfd pf = { p[0], POLLIN, 0 };
		t0 = mono();
		out("poll_rc", poll(&pf, 1, 600));
		out("poll_s", mono() - t0);
		return 0;
	}
	if (!strcmp(c, "signals")) {
		sigset_t set;
		siginfo_t si;
		struct timespec ts = { 1, 0 };

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
		t0 = mono();
		rc = sigtimedwait(&set, &si, &ts);
		out("sigtimedwait_rc", rc == -1 && errno == EAGAIN);
		out("sigtimedwait_s", mono() - t0);
		return 0;
	}
	if (!strcmp(c, "alarm")) {
		struct sigaction sa;
		struct itimerval it = { { 0, 100000 }, { 0, 100000 } }, left;
		sigset_t none;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sig;
		sigaction(SIGALRM, &sa, NULL);
		out("alarm_first", alarm(5));
		/* an armed timer waits on the clock: time runs with this thread
		 * from here, as it would on the machine */
		t0 = mono();
		out("alarm_left", alarm(2)); /* 5 s were left */
		pause();
		out("alarm_s", mono() - t0);
		out("alarm_signals", nsig);
		/* a periodic ITIMER_REAL of 100 ms: 10 signals in a second */
		nsig = 0;
		sigemptyset(&none);
		t0 = mono();
		setitimer(ITIMER_REAL, &it, NULL);
		while (nsig < 10)
			sigsuspend(&none);
		out("itimer_s", mono() - t0);
		getitimer(ITIMER_REAL, &left);
		out("itimer_interval", (double)left.it_interval.tv_sec + (double)left.it_interval.tv_usec / 1e6);
		it = (struct itimerval){ { 0, 0 }, { 0, 0 } };
		setitimer(ITIMER_REAL, &it, NULL);
		getitimer(ITIMER_REAL, &left);
		out("itimer_off", (double)left.it_value.tv_sec + (double)left.it_value.tv_usec / 1e6);
		return 0;
	}
	if (!strcmp(c, "timers")) {
		struct sigevent sev;
		struct itimerspec its = { { 0, 0 }, { 0, 500000000 } }, cur;
		timer_t t;
		sigset_t set;
		siginfo_t si;

		sigemptyset(&set);
		sigaddset(&set, SIGRTMIN);
		sigprocmask(SIG_BLOCK, &set, NULL);
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_SIGNAL;
		sev.sigev_signo = SIGRTMIN;
		sev.sigev_value.sival_int = 42;
		if (timer_create(CLOCK_MONOTONIC, &sev, &t))
			return 1;
		t0 = mono();
		timer_settime(t, 0, &its, NULL);
		timer_gettime(t, &cur);
		out("timer_armed", (double)cur.it_value.tv_sec + (double)cur.it_value.tv_nsec / 1e9);
		rc = sigwaitinfo(&set, &si);
		out("timer_s", mono() - t0);
		out("timer_sig", rc == SIGRTMIN);
		out("timer_code", si.si_code == SI_TIMER);
		out("timer_value", si.si_value.sival_int);
		timer_gettime(t, &cur);
		out("timer_after", (double)cur.it_value.tv_sec + (double)cur.it_value.tv_nsec / 1e9);
		/* absolute, on CLOCK_REALTIME: 2 s from now */
		timer_delete(t);
		if (timer_create(CLOCK_REALTIME, &sev, &t))
			return 1;
		its.it_value = after(CLOCK_REALTIME, 2.0);
		t0 = mono();
		timer_settime(t, TIMER_ABSTIME, &its, NULL);
		sigwaitinfo(&set, &si);
		out("timer_abs_s", mono() - t0);
		timer_delete(t);
		/* SIGEV_THREAD, periodic 250 ms: a call each period */
		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_THREAD;
		sev.sigev_notify_function = thread_fn;
		sev.sigev_value.sival_int = 1;
		if (timer_create(CLOCK_MONOTONIC, &sev, &t))
			return 1;
		its = (struct itimerspec){ { 0, 250000000 }, { 0, 250000000 } };
		timer_settime(t, 0, &its, NULL);
		usleep(1100000);
		timer_delete(t);
		usleep(100000);
		out("thread_calls", atomic_load(&nthread_calls));
		/* timeout(1)'s way: SIGALRM by a timer without a sigevent */
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sig;
		sigaction(SIGALRM, &sa, NULL);
		nsig = 0;
		if (timer_create(CLOCK_REALTIME, NULL, &t))
			return 1;
		its = (struct itimerspec){ { 0, 0 }, { 1, 0 } };
		t0 = mono();
		timer_settime(t, 0, &its, NULL);
		while (!nsig)
			pause();
		out("timer_alarm_s", mono() - t0);
		return 0;
	}
	if (!strcmp(c, "spin")) {
		/* a thread spins while the main thread sleeps: the sleep ends */
		pthread_create(&th, NULL, spin, NULL);
		while (atomic_load(&spin_on) != 2)
			;
		t0 = mono();
		usleep(200000);
		out("spin_sleep_s", mono() - t0);
		atomic_store(&spin_on, 0);
		pthread_join(th, NULL);
		return 0;
	}
	if (!strcmp(c, "child_poll")) {
		/* the parent works until its child, which sleeps, says it is
		 * done (a flag in shared memory), then reaps it */
		atomic_int *done = mmap(NULL, sizeof(*done), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (done == MAP_FAILED)
			return 1;
		t0 = mono();
		pid_t p = fork();

		if (p == 0) {
			usleep(300000);
			atomic_store(done, 1);
			_exit(7);
		}
		int st = 0;

		while (!atomic_load(done))
			;
		waitpid(p, &st, 0);
		out("child_status", WEXITSTATUS(st));
		out("child_s", mono() - t0);
		return 0;
	}
	fprintf(stderr, "ct_waits: unknown case '%s'\n", c);
	return 2;
}
