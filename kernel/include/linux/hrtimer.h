/*
 * linux/hrtimer.h - high-resolution timers on machine time: a started timer
 * fires when the simulated machine's clock reaches its expiry (uck_time.c),
 * on the cpu it was started on, as HRTIMER_MODE_*_PINNED asks.
 */
#ifndef UCK_LINUX_HRTIMER_H
#define UCK_LINUX_HRTIMER_H

#include <time.h>

#include <linux/list.h>

enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
enum hrtimer_mode {
	HRTIMER_MODE_ABS = 0,
	HRTIMER_MODE_REL = 1,
	HRTIMER_MODE_PINNED = 2,
	HRTIMER_MODE_ABS_PINNED = 2,
	HRTIMER_MODE_REL_PINNED = 3,
};

struct hrtimer {
	struct list_head node;     /* on the layer's list while armed */
	ktime_t expires;           /* machine time, ns */
	unsigned int cpu;
	int armed;
	enum hrtimer_restart (*function)(struct hrtimer *);
};

static inline ktime_t ns_to_ktime(u64 ns) { return (ktime_t)ns; }
static inline ktime_t ms_to_ktime(u64 ms) { return (ktime_t)(ms * NSEC_PER_MSEC); }
static inline s64 ktime_to_ns(ktime_t t) { return t; }
ktime_t ktime_get(void);
void hrtimer_init(struct hrtimer *t, clockid_t clock, enum hrtimer_mode mode);
void hrtimer_start(struct hrtimer *t, ktime_t tim, enum hrtimer_mode mode);
int hrtimer_cancel(struct hrtimer *t);
u64 hrtimer_forward_now(struct hrtimer *t, ktime_t interval);
static inline bool hrtimer_active(const struct hrtimer *t) { return t->armed; }

#endif
