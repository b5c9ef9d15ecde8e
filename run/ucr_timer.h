/*
 * ucr_timer.h - the program's timers on the machine's clock, kept by the
 * server of `uncore run`: alarm/setitimer(ITIMER_REAL) and timer_create's
 * timers expire at machine time and their signal is sent then, so that a
 * timeout (timeout(1), a watchdog's alarm) is as long as the machine's
 * clock says (issue #34, docs/tools.md "One clock").
 */
#ifndef UCR_TIMER_H
#define UCR_TIMER_H

#include <stdint.h>

#include "ucr_proto.h"

struct ucr_timers;

struct ucr_timers *ucr_timers_new(void);
void ucr_timers_free(struct ucr_timers *t);

/* Serves a UCR_TIMER request of thread (pid, tid) at machine time now_ps
 * (ucr_proto.h): fills r (rc, v[]); 0, or -errno with the message in r. */
void ucr_timers_serve(struct ucr_timers *t, const struct ucr_req *q, uint64_t now_ps, struct ucr_rsp *r);

/* The earliest deadline of an armed timer, ps; UINT64_MAX: none. */
uint64_t ucr_timers_next(const struct ucr_timers *t);

/* Sends the signal of every timer due by now_ps and re-arms the periodic
 * ones; the number of signals sent. */
unsigned ucr_timers_fire(struct ucr_timers *t, uint64_t now_ps);

/* Process pid ended: its timers go.  Process pid execs: its
 * timer_create timers go, its ITIMER_REAL stays (execve(2)). */
void ucr_timers_gone(struct ucr_timers *t, int pid);
void ucr_timers_exec(struct ucr_timers *t, int pid);

/* How many timers fired in all (the report). */
uint64_t ucr_timers_fired(const struct ucr_timers *t);

#endif
