/*
 * ucr_timer.c - the program's timers on the machine's clock (ucr_timer.h).
 *
 * The preload library hands alarm, setitimer(ITIMER_REAL) and the timers of
 * timer_create on a clock the machine serves to the server; each is kept
 * here with its deadline in machine time.  The server runs machine time to
 * the earliest deadline as it does to a sleeper's, and the signal is sent
 * as the kernel would: SIGALRM to the process for ITIMER_REAL, the timer's
 * signal with si_code SI_TIMER, its ID, overrun and value for
 * timer_create's (rt_sigqueueinfo accepts a negative si_code from another
 * process).  A periodic timer passed by several periods at once fires once
 * and counts the rest as its overrun (timer_getoverrun(2)).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ucr_timer.h"

struct timer {
	int pid, tid;          /* the owner; the thread for NOTIFY_THREAD */
	uint32_t id;           /* 0: ITIMER_REAL; else the kernel's ID + 1 */
	int sig, notify;
	uint64_t value;        /* sigev_value */
	uint64_t deadline_ps;  /* 0: disarmed */
	uint64_t interval_ps;
	uint64_t overrun;      /* of the last expiry delivered */
};

struct ucr_timers {
	struct timer *v;
	size_t n, cap;
	uint64_t fired;
};

struct ucr_timers *ucr_timers_new(void)
{
	return calloc(1, sizeof(struct ucr_timers));
}

void ucr_timers_free(struct ucr_timers *t)
{
	if (t)
		free(t->v);
	free(t);
}

static struct timer *find(struct ucr_timers *t, int pid, uint32_t id)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].pid == pid && t->v[i].id == id)
			return &t->v[i];
	return NULL;
}

static struct timer *add(struct ucr_timers *t, int pid, uint32_t id)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct timer *v = realloc(t->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		t->v = v;
		t->cap = cap;
	}
	memset(&t->v[t->n], 0, sizeof(t->v[0]));
	t->v[t->n].pid = pid;
	t->v[t->n].id = id;
	return &t->v[t->n++];
}

static void drop(struct ucr_timers *t, size_t i)
{
	t->v[i] = t->v[--t->n];
}

static void fail(struct ucr_rsp *r, int e, const char *msg)
{
	r->rc = -e;
	snprintf(r->msg, sizeof(r->msg), "%s", msg);
}

/* ns as ps, saturated: a deadline past 2^64 ps (213 days) never comes */
static uint64_t ps_of(uint64_t ns)
{
	return ns > UINT64_MAX / 1000u ? UINT64_MAX : ns * 1000u;
}

static uint64_t deadline_of(uint64_t now_ps, uint64_t ns)
{
	uint64_t d = ps_of(ns);

	return d > UINT64_MAX - now_ps ? UINT64_MAX : now_ps + d;
}

void ucr_timers_serve(struct ucr_timers *t, const struct ucr_req *q, uint64_t now_ps, struct ucr_rsp *r)
{
	uint32_t id = (uint32_t)q->c;
	unsigned op = (unsigned)(q->c >> 32 & 0xFF);
	struct timer *x = find(t, q->pid, id);

	if (op == UCR_TIMER_CREATE) {
		unsigned sig = (unsigned)(q->b & 0xFF), notify = (unsigned)(q->b >> 8 & 0xFF);

		if (!id || notify > UCR_TIMER_NOTIFY_NONE || (notify != UCR_TIMER_NOTIFY_NONE && (!sig || sig >= 65)))
			return fail(r, EINVAL, "timer_create: bad signal or notification");
		if (!x && !(x = add(t, q->pid, id)))
			return fail(r, ENOMEM, "timer_create: out of memory");
		x->deadline_ps = x->interval_ps = x->overrun = 0;
		x->sig = (int)sig;
		x->notify = (int)notify;
		x->tid = (int)(q->b >> 32);
		x->value = q->a;
		return;
	}
	if (!x && id == 0 && op == UCR_TIMER_SET) {
		/* ITIMER_REAL exists in every process: SIGALRM to it */
		if (!(x = add(t, q->pid, 0)))
			return fail(r, ENOMEM, "setitimer: out of memory");
		x->sig = SIGALRM;
	}
	if (!x) {
		if (id == 0) /* ITIMER_REAL never armed: disarmed */
			return;
		return fail(r, EINVAL, "no such timer");
	}
	r->v[0] = x->deadline_ps > now_ps ? (x->deadline_ps - now_ps) / 1000u : x->deadline_ps ? 1 : 0;
	r->v[1] = x->interval_ps / 1000u;
	switch (op) {
	case UCR_TIMER_SET:
		x->deadline_ps = q->a ? deadline_of(now_ps, q->a) : 0;
		x->interval_ps = q->a ? ps_of(q->b) : 0;
		return;
	case UCR_TIMER_GET:
		return;
	case UCR_TIMER_OVERRUN:
		r->v[0] = x->overrun > 0x7FFFFFFF ? 0x7FFFFFFF : x->overrun; /* DELAYTIMER_MAX */
		r->v[1] = 0;
		return;
	case UCR_TIMER_DELETE:
		drop(t, (size_t)(x - t->v));
		r->v[0] = r->v[1] = 0;
		return;
	default:
		return fail(r, EINVAL, "unknown timer operation");
	}
}

uint64_t ucr_timers_next(const struct ucr_timers *t)
{
	uint64_t d = UINT64_MAX;

	for (size_t i = 0; t && i < t->n; i++)
		if (t->v[i].deadline_ps && t->v[i].deadline_ps < d)
			d = t->v[i].deadline_ps;
	return d;
}

/* The signal of x, as the kernel sends a timer's. */
static void send_signal(const struct timer *x)
{
	siginfo_t si;

	if (x->notify == UCR_TIMER_NOTIFY_NONE)
		return;
	if (x->id == 0) {
		kill(x->pid, x->sig);
		return;
	}
	memset(&si, 0, sizeof(si));
	si.si_signo = x->sig;
	si.si_code = SI_TIMER;
	si.si_timerid = (int)(x->id - 1);
	si.si_overrun = (int)(x->overrun > 0x7FFFFFFF ? 0x7FFFFFFF : x->overrun);
	si.si_value.sival_ptr = (void *)(uintptr_t)x->value;
	if (x->notify == UCR_TIMER_NOTIFY_THREAD)
		syscall(SYS_rt_tgsigqueueinfo, x->pid, x->tid, x->sig, &si);
	else
		syscall(SYS_rt_sigqueueinfo, x->pid, x->sig, &si);
}

unsigned ucr_timers_fire(struct ucr_timers *t, uint64_t now_ps)
{
	unsigned n = 0;

	for (size_t i = 0; t && i < t->n; i++) {
		struct timer *x = &t->v[i];
		uint64_t late;

		if (!x->deadline_ps || x->deadline_ps > now_ps)
			continue;
		late = now_ps - x->deadline_ps;
		x->overrun = x->interval_ps ? late / x->interval_ps : 0;
		if (x->interval_ps) {
			uint64_t step = (x->overrun + 1) * x->interval_ps;

			x->deadline_ps = x->deadline_ps > UINT64_MAX - step ? 0 : x->deadline_ps + step;
		} else {
			x->deadline_ps = 0;
		}
		send_signal(x);
		n++;
	}
	t->fired += n;
	return n;
}

void ucr_timers_gone(struct ucr_timers *t, int pid)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (t->v[i].pid == pid)
			drop(t, i--);
}

void ucr_timers_exec(struct ucr_timers *t, int pid)
{
	for (size_t i = 0; t && i < t->n; i++)
		if (t->v[i].pid == pid && t->v[i].id)
			drop(t, i--);
}

uint64_t ucr_timers_fired(const struct ucr_timers *t)
{
	return t ? t->fired : 0;
}
