/*
 * uck_time.c - machine time for the kernel: ktime_get and hrtimers.  Armed
 * timers are kept by expiry; the host runs them when the machine's clock
 * reaches them (uck_run_timers), each on the cpu that started it.  A
 * callback that returns HRTIMER_RESTART after hrtimer_forward_now is armed
 * again at its new expiry.
 */
#include <linux/hrtimer.h>

#include "ucb.h"
#include "uck_internal.h"

static LIST_HEAD(armed);

u64 uck_now(void)
{
	uint64_t ns = 0;

	if (uck_k.b)
		ucb_now_ns(uck_k.b, &ns);
	return ns;
}

ktime_t ktime_get(void)
{
	return (ktime_t)uck_now();
}

static void arm(struct hrtimer *t)
{
	struct hrtimer *p;

	/* sorted by expiry, first armed first among equals */
	list_for_each_entry(p, &armed, node) {
		if (p->expires > t->expires) {
			list_add_tail(&t->node, &p->node);
			t->armed = 1;
			return;
		}
	}
	list_add_tail(&t->node, &armed);
	t->armed = 1;
}

static void disarm(struct hrtimer *t)
{
	if (t->armed) {
		list_del(&t->node);
		t->armed = 0;
	}
}

void hrtimer_init(struct hrtimer *t, clockid_t clock, enum hrtimer_mode mode)
{
	(void)clock;
	(void)mode;
	memset(t, 0, sizeof(*t));
	INIT_LIST_HEAD(&t->node);
}

void hrtimer_start(struct hrtimer *t, ktime_t tim, enum hrtimer_mode mode)
{
	disarm(t);
	t->expires = (mode & HRTIMER_MODE_REL) ? (ktime_t)uck_now() + tim : tim;
	t->cpu = uck_this_cpu;
	arm(t);
}

int hrtimer_cancel(struct hrtimer *t)
{
	int was = t->armed;

	disarm(t);
	return was;
}

u64 hrtimer_forward_now(struct hrtimer *t, ktime_t interval)
{
	ktime_t now = (ktime_t)uck_now();
	u64 n = 0;

	if (interval <= 0 || t->expires > now)
		return 0;
	n = (u64)((now - t->expires) / interval) + 1;
	t->expires += (ktime_t)n * interval;
	return n;
}

uint64_t uck_next_timer_ns(void)
{
	return list_empty(&armed) ? UINT64_MAX
				  : (uint64_t)list_first_entry(&armed, struct hrtimer, node)->expires;
}

void uck_run_timers(void)
{
	ktime_t now = (ktime_t)uck_now();

	while (!list_empty(&armed)) {
		struct hrtimer *t = list_first_entry(&armed, struct hrtimer, node);
		enum hrtimer_restart r;

		if (t->expires > now)
			break;
		disarm(t);
		UCK_ON_CPU(t->cpu, r = t->function(t));
		if (r == HRTIMER_RESTART && !t->armed)
			arm(t);
	}
}

int uck_sleep_ns(uint64_t ns)
{
	uint64_t end = uck_now() + ns;

	for (;;) {
		uint64_t now = uck_now(), next = uck_next_timer_ns();
		uint64_t to = next < end ? next : end;
		int rc;

		if (to > now) {
			rc = ucb_sleep_ns(uck_k.b, to - now);
			if (rc)
				return rc;
		}
		uck_run_timers();
		if (to >= end)
			return 0;
	}
}

void uck_timers_reset(void)
{
	while (!list_empty(&armed))
		disarm(list_first_entry(&armed, struct hrtimer, node));
}
