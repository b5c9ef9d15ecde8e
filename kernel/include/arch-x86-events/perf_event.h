/*
 * arch-x86-events/perf_event.h - stands in for arch/x86/events/perf_event.h,
 * which the uncore driver includes as "../perf_event.h": the build puts this
 * file at that place beside the extracted driver (kernel/CMakeLists.txt).
 * It holds what the uncore driver takes from the x86 PMU core: event
 * constraints, extra registers and the counter scheduler
 * (perf_assign_events, uck_sched.c); and EVENT_PTR for rapl.c.
 */
#ifndef UCK_X86_EVENTS_PERF_EVENT_H
#define UCK_X86_EVENTS_PERF_EVENT_H

#include <linux/perf_event.h>

#define X86_PMC_IDX_MAX 64

struct event_constraint {
	union {
		unsigned long idxmsk[BITS_TO_LONGS(X86_PMC_IDX_MAX)];
		u64 idxmsk64;
	};
	u64 code;
	u64 cmask;
	int weight;
	int overlap;
	int flags;
	unsigned int size;
};

/* an event code matches when (code & cmask) lies in [code, code + size] */
static inline bool constraint_match(struct event_constraint *c, u64 ecode)
{
	return ((ecode & c->cmask) - c->code) <= (u64)c->size;
}

#define __EVENT_CONSTRAINT_RANGE(c, e, n, m, w, o, f)                            \
	{ { .idxmsk64 = (n) }, .code = (c), .cmask = (m), .weight = (w),         \
	  .overlap = (o), .flags = (f), .size = (e) - (c) }
#define __EVENT_CONSTRAINT(c, n, m, w, o, f) __EVENT_CONSTRAINT_RANGE(c, c, n, m, w, o, f)
#define EVENT_CONSTRAINT(c, n, m) __EVENT_CONSTRAINT(c, n, m, __builtin_popcountll(n), 0, 0)
#define EVENT_CONSTRAINT_RANGE(c, e, n, m)                                       \
	__EVENT_CONSTRAINT_RANGE(c, e, n, m, __builtin_popcountll(n), 0, 0)
#define EVENT_CONSTRAINT_OVERLAP(c, n, m) __EVENT_CONSTRAINT(c, n, m, __builtin_popcountll(n), 1, 0)
#define EVENT_CONSTRAINT_END { .weight = -1 }
#define for_each_event_constraint(e, c) for ((e) = (c); (e)->weight != -1; (e)++)

enum extra_reg_type {
	EXTRA_REG_NONE = -1,
	EXTRA_REG_RSP_0 = 0,
	EXTRA_REG_RSP_1 = 1,
	EXTRA_REG_LBR = 2,
	EXTRA_REG_LDLAT = 3,
	EXTRA_REG_FE = 4,
	EXTRA_REG_MAX
};

struct extra_reg {
	unsigned int event;
	unsigned int msr;
	u64 config_mask;
	u64 valid_mask;
	int idx;
	bool extra_msr_access;
};

#define EVENT_EXTRA_REG(e, ms, m, vm, i)                                         \
	{ .event = (e), .msr = (ms), .config_mask = (m), .valid_mask = (vm),     \
	  .idx = EXTRA_REG_##i, .extra_msr_access = true }
#define EVENT_EXTRA_END EVENT_EXTRA_REG(0, 0, 0, 0, RSP_0)

/* the attribute of an event declared with PMU_EVENT_ATTR_STRING (rapl.c) */
#define EVENT_PTR(_id) (&event_attr_##_id.attr.attr)

/* Assign n events to counters within their constraints, fewest choices
 * first; returns the number left unassigned (0: all placed in assign[]). */
int perf_assign_events(struct event_constraint **constraints, int n, int wmin, int wmax,
		       int gpmax, int *assign);

#endif
