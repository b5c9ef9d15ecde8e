/*
 * uck_sched.c - perf_assign_events, the x86 PMU core's counter scheduler
 * that the uncore driver calls to place a box's events: events are taken in
 * order of increasing constraint weight (fewest allowed counters first),
 * each given the lowest free counter its constraint allows; where a
 * constraint is marked overlapping, the choice is remembered and, when a
 * later event finds no counter, retried with the next counter.  Returns
 * the number of events left unplaced.  Our implementation of the
 * algorithm the kernel documents in arch/x86/events/core.c.
 */
#include "include/arch-x86-events/perf_event.h"

struct sstate {
	int event;  /* index into the weight-ordered walk */
	int weight;
	int counter;
	u64 used;
};

int perf_assign_events(struct event_constraint **c, int n, int wmin, int wmax, int gpmax,
		       int *assign)
{
	struct sstate st = { 0, wmin, 0, 0 }, saved[X86_PMC_IDX_MAX];
	int nsaved = 0, placed = 0, ngp = 0, i;
	int order[X86_PMC_IDX_MAX];
	int k = 0, w;

	if (n <= 0)
		return 0;
	if (n > X86_PMC_IDX_MAX)
		return n;
	/* the walk: by weight, then by position */
	for (w = wmin; w <= wmax; w++)
		for (i = 0; i < n; i++)
			if (c[i]->weight == w)
				order[k++] = i;
	if (k != n)
		return n;

	while (st.event < n) {
		struct event_constraint *ec = c[order[st.event]];
		int idx, found = -1;

		for (idx = st.counter; idx < X86_PMC_IDX_MAX; idx++) {
			if (!(ec->idxmsk64 & (1ull << idx)) || (st.used & (1ull << idx)))
				continue;
			found = idx;
			break;
		}
		if (found >= 0 && ngp >= gpmax)
			found = -1;
		if (found < 0) {
			/* back to the last overlapping choice, if any, and try its next counter */
			if (!nsaved)
				break;
			st = saved[--nsaved];
			placed = st.event;
			ngp = __builtin_popcountll(st.used);
			st.counter++;
			continue;
		}
		if (ec->overlap && nsaved < X86_PMC_IDX_MAX) {
			/* restored, the walk goes on from the counter after this one */
			saved[nsaved] = st;
			saved[nsaved++].counter = found;
		}
		st.used |= 1ull << found;
		ngp++;
		if (assign)
			assign[order[st.event]] = found;
		st.event++;
		st.counter = 0;
		placed = st.event;
	}
	return n - placed;
}
