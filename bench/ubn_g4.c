/*
 * ubn_g4.c - G4: the model against the naive reference model
 * (fuzz/ref_model.c) on skl's counters, every counter compared at the end:
 * synthetic segments of 1 to 10^5 cycles given to the model input by
 * input, as phases and as steps the way the replay gives a trace, and the
 * floor at a change every cycle.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_model.h"
#include "ubn.h"
#include "ucm.h"
#include "uct_trace.h"

/* The dense segments' inputs as phases of model m: 132 vectors (the lcm of
 * 12 and 33), each defined once; pid[k] is vector k's. */
static void dense_phases(struct ucm_model *m, int cbo, int arb, int pid[132])
{
	int mbox[8], abox = ucm_box_find(m, 0, "arb", 0);
	unsigned ncbo = 0;
	struct uct_seg s;

	for (unsigned i = 0; i < 8; i++)
		if ((mbox[ncbo] = ucm_box_find(m, 0, "cbo", i)) >= 0)
			ncbo++;
	for (unsigned k = 0; k < 132; k++) {
		struct ucm_phase_in in[9];
		unsigned n = 0;

		ubn_dense_seg(&s, k, 1, cbo, arb);
		for (unsigned c = 0; c < ncbo; c++)
			in[n++] = (struct ucm_phase_in){ mbox[c], s.in[0].sub, 1 };
		in[n++] = (struct ucm_phase_in){ abox, 0, s.in[1].inc };
		if ((pid[k] = ucm_phase_define(m, in, n)) < 0)
			ubn_die("phases", ucm_error(m));
	}
}

/* A workload source giving the model precomputed steps, as the replay
 * gives a trace's segments: step i enters phase s[i].id and runs to the
 * end of cycle s[i].end of clock 0, many steps a call (ucm_phase_steps)
 * while the model sums phases. */
struct stepsrc {
	const struct ucm_step *s;
	size_t n, i;
	uint64_t hz;
};

static int steps_wl(struct ucm_model *m, void *ctx, uint64_t now_ps, uint64_t *next)
{
	struct stepsrc *x = ctx;

	(void)now_ps;
	for (;;) {
		if (x->i == x->n) {
			ucm_clear_inputs(m);
			*next = UINT64_MAX;
			return 0;
		}
		if (ucm_phase_enter(m, x->s[x->i].id))
			return ucm_set_error(m, -EINVAL, "steps: no such phase");
		/* cycle c completes at ceil(c * 10^12 / hz) ps */
		*next = (uint64_t)(((unsigned __int128)x->s[x->i].end * 1000000000000ull + x->hz - 1) / x->hz);
		x->i++;
		if (!ucm_phase_run(m, *next))
			return 0;
		x->i += ucm_phase_steps(m, 0, x->s + x->i, x->n - x->i);
	}
}

/* Every MSR of model m equal to the reference's. */
static int same_as_ref(struct ucm_model *m, struct ref_model *ref)
{
	int same = 1;

	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		uint64_t a;
		int k;

		if (ucm_reginfo(m, i, &ri) || ri.space != UCM_MSR)
			continue;
		k = ref_find(ref, ri.space, ri.socket, ri.addr);
		if (k < 0 || ucm_msr_peek(m, 0, (uint32_t)ri.addr, &a))
			continue;
		same &= a == ref_peek(ref, (unsigned)k);
	}
	return same;
}

/* The floor under any exact model given a change every cycle: each step
 * loaded and its cycles added to its phase's sum, nothing else (no check,
 * no edge, no time).  Returns the time a step, the best of three passes. */
static double steps_floor(const struct ucm_step *st, uint64_t n)
{
	static uint64_t sum[132];
	double best = 1e9;

	for (int pass = 0; pass < 3; pass++) {
		uint64_t cyc = 0;
		double t = ubn_now();

		for (uint64_t i = 0; i < n; i++) {
			sum[(unsigned)st[i].id % 132] += st[i].end - cyc;
			cyc = st[i].end;
		}
		t = ubn_now() - t;
		/* the sums are read, so the loop is not optimised away */
		if (sum[0] == UINT64_MAX)
			printf("\n");
		if (t < best)
			best = t;
	}
	return best / (double)n;
}

void ubn_g4(void)
{
	static struct ref_model ref; /* large: not on the stack */
	double floor_s = 0, floor_ref = 0; /* a step's cost, the floor's and the reference's */
	const struct ucm_platform *p = ucm_platform_find("skl");
	int cbo = ucm_boxtype_index(p, ucm_boxtype_find(p, "cbo"));
	int arb = ucm_boxtype_index(p, ucm_boxtype_find(p, "arb"));
	static const uint64_t lens[] = { 1, 64, 1000, 100000 };

	printf("\n## G4: model vs the naive reference model, skl, every counter programmed, the same inputs\n");
	printf("%-11s %9s %11s %11s %10s %11s %10s %11s %10s %s\n", "segment len", "cycles",
	       "reference s", "model s", "ratio", "phases s", "ratio", "steps s", "ratio",
	       "every counter equal");
	for (unsigned li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		uint64_t len = lens[li];
		uint64_t cycles = (ubn_quick ? 20000 : 400000) * (len >= 1000 ? 5 : 1);
		uint64_t nseg = cycles / len ? cycles / len : 1;
		struct ucm_model *m = ubn_skl_model(), *mp = ubn_skl_model(), *ms = ubn_skl_model();
		struct ucm_step *st = malloc(nseg * sizeof(*st));
		struct stepsrc src = { st, nseg, 0, ucm_clock_hz(ms, 0) };
		struct uct_seg s;
		double tr, tm, tp, ts;
		int rbox[UCM_MAXBT][8], mbox[UCM_MAXBT][8], same, pid[132], sid[132];
		unsigned ncbo = 0;
		char r[3][16];

		if (!st)
			ubn_die("steps", "out of memory");
		if (ref_init(&ref, p, NULL, 1, NULL, NULL, NULL))
			ubn_die("reference", "platform beyond its limits");
		for (size_t i = 0; i < sizeof(ubn_skl_prog) / sizeof(ubn_skl_prog[0]); i++)
			ref_msr_write(&ref, 0, ubn_skl_prog[i].addr, ubn_skl_prog[i].v);
		for (unsigned i = 0; i < 8; i++) {
			rbox[cbo][i] = ref_box_find(&ref, 0, "cbo", i);
			mbox[cbo][i] = ucm_box_find(m, 0, "cbo", i);
			ncbo += mbox[cbo][i] >= 0;
		}
		rbox[arb][0] = ref_box_find(&ref, 0, "arb", 0);
		mbox[arb][0] = ucm_box_find(m, 0, "arb", 0);
		/* the same segments as the dense trace, set directly: the
		 * reference walks every cycle, the model steps per segment */
		tr = ubn_now();
		for (uint64_t i = 0; i < nseg; i++) {
			ubn_dense_seg(&s, i, len, cbo, arb);
			for (unsigned c = 0; c < ncbo; c++) {
				ref_set_input(&ref, rbox[cbo][c], (unsigned)((i + 11) % 12), 0);
				ref_set_input(&ref, rbox[cbo][c], s.in[0].sub, 1);
			}
			ref_set_input(&ref, rbox[arb][0], 0, s.in[1].inc);
			ref_run_cycles(&ref, 0, len);
		}
		tr = ubn_now() - tr;
		tm = ubn_now();
		for (uint64_t i = 0; i < nseg; i++) {
			ubn_dense_seg(&s, i, len, cbo, arb);
			for (unsigned c = 0; c < ncbo; c++) {
				ucm_set_input(m, mbox[cbo][c], (unsigned)((i + 11) % 12), 0);
				ucm_set_input(m, mbox[cbo][c], s.in[0].sub, 1);
			}
			ucm_set_input(m, mbox[arb][0], 0, s.in[1].inc);
			ucm_run_cycles(m, 0, len);
		}
		tm = ubn_now() - tm;
		/* given as phases, each segment entered and run by a call */
		dense_phases(mp, cbo, arb, pid);
		tp = ubn_now();
		for (uint64_t i = 0; i < nseg; i++) {
			ucm_phase_enter(mp, pid[i % 132]);
			ucm_run_cycles(mp, 0, len);
		}
		tp = ubn_now() - tp;
		/* given as steps (phase, end cycle) by a workload source, as the
		 * replay gives a trace's segments; the array is the trace */
		dense_phases(ms, cbo, arb, sid);
		for (uint64_t i = 0; i < nseg; i++)
			st[i] = (struct ucm_step){ sid[i % 132], (i + 1) * len };
		ucm_set_workload(ms, steps_wl, &src);
		ts = ubn_now();
		if (ucm_run_cycles(ms, 0, nseg * len))
			ubn_die("steps", ucm_error(ms));
		ts = ubn_now() - ts;
		if (len == 1) {
			floor_s = steps_floor(st, nseg);
			floor_ref = tr / (double)nseg;
		}
		/* the same work: every register of the platform reads the same */
		same = same_as_ref(m, &ref) && same_as_ref(mp, &ref) && same_as_ref(ms, &ref);
		snprintf(r[0], sizeof(r[0]), "%.0fx%s", tr / tm, tr / tm >= 1000 ? "" : "*");
		snprintf(r[1], sizeof(r[1]), "%.0fx%s", tr / tp, tr / tp >= 1000 ? "" : "*");
		snprintf(r[2], sizeof(r[2]), "%.0fx%s", tr / ts, tr / ts >= 1000 ? "" : "*");
		printf("%-11llu %9llu %11.4f %11.5f %10s %11.5f %10s %11.6f %10s %s\n",
		       (unsigned long long)len, (unsigned long long)(nseg * len), tr, tm, r[0], tp, r[1],
		       ts, r[2], same ? "yes" : "NO: the models differ");
		free(st);
		ucm_destroy(m);
		ucm_destroy(mp);
		ucm_destroy(ms);
		if (!same) {
			fflush(stdout);
			ubn_die("G4", "the model and the reference differ: an error, not a figure");
		}
	}
	printf("(* < 1000x)\n");
	printf("the least a change every cycle can cost: a loop that only adds each step's cycles to its\n"
	       "phase's sum (no checks, no edges, no time): %.2f ns a step, %.0fx the reference\n",
	       floor_s * 1e9, floor_ref / floor_s);
}
