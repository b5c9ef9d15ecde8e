/*
 * ucm_phase_time.c - time while phases are summed (an epoch, ucm_phase.c):
 * per clock the cycles spent in each phase, and at each change of phase a
 * clock sees, one for each of its edge-detecting counters whose comparison
 * rises.  Nothing per counter or input: a few operations per change of
 * phase.  Time reaches it from ucm_count.c (ucm_agg_span) and from a
 * workload source inside its call: a phase run to a time
 * (ucm_phase_run), or many phases with their ends in cycles of a clock at
 * once (ucm_phase_steps, the replay's way in).  The whole path is in this
 * file, inlined into each entry: keep it so (docs/performance.md, G3 and
 * G4).
 */
#include <string.h>

#include "ucm_internal.h"

/* The comparison bits of box vector id's box's edge counters (bit per
 * counter), made once an epoch. */
static unsigned bv_cmp(struct ucm_model *m, uint32_t id)
{
	const struct ucm_bvec *v = &m->bv[id];
	const struct ucm_box *b = &m->boxes[v->box];
	unsigned be = m->agg_boxedge[v->box], bits = 0;

	if (m->bv_stamp[id] == m->agg_gen)
		return m->agg_bvcmp[id];
	while (be) {
		unsigned ci = (unsigned)__builtin_ctz(be);
		int cmp;

		ucm_ctr_in_bv(m, &b->ctr[ci], v, &cmp);
		if (cmp > 0)
			bits |= 1u << ci;
		be &= be - 1;
	}
	m->agg_bvcmp[id] = (uint8_t)bits;
	m->bv_stamp[id] = m->agg_gen;
	return bits;
}

/* Phase k's comparison bits (record r: the epoch it was made in, then
 * agg_w words), made once an epoch: those with every input 0, then per
 * box vector of a box with edge counters its own. */
static void ph_cmp_make(struct ucm_model *m, uint32_t k, uint64_t *r)
{
	uint64_t *bk = r + 1;
	const uint32_t *x = m->phbv + m->ph[k].first, *end = x + m->ph[k].n;

	memcpy(bk, m->agg_zpat, m->agg_w * sizeof(*bk));
	for (; x < end; x++) {
		uint32_t box = m->bv[*x].box;
		unsigned be = m->agg_boxedge[box], cb;

		if (!be)
			continue;
		cb = bv_cmp(m, *x);
		while (be) {
			unsigned ci = (unsigned)__builtin_ctz(be), ei = m->agg_eidx[box * UCM_MAXCTR + ci];

			if (cb >> ci & 1)
				bk[ei / 64] |= 1ull << (ei % 64);
			else
				bk[ei / 64] &= ~(1ull << (ei % 64));
			be &= be - 1;
		}
	}
	r[0] = m->agg_gen;
}

/* A clock's part of the model while phases are summed, in locals: what
 * summing time reads and writes per step (agg_clock), loaded and stored
 * once per batch of steps (ucm_phase_steps) rather than through the model
 * at each; with edge detection, where phase last's comparison bits are
 * (lastrec, in ph_cmp) and what reading the next's takes. */
struct agg_clk {
	uint64_t num, den, dtmax, rem, cyc, *acc;
	int32_t last;
	uint8_t edges;
	unsigned w;
	size_t lastrec;
	uint64_t *phc, gen;
	const uint64_t *cm;
};

static inline __attribute__((always_inline)) void clk_load(const struct ucm_model *m, unsigned d,
							   struct agg_clk *k)
{
	*k = (struct agg_clk){ m->clk_num[d], m->clk_den[d], m->clk_dtmax[d], m->agg_rem[d],
			       m->clk_cycles[d], m->acc[d], m->agg_last[d], m->agg_edges[d], m->agg_w,
			       m->agg_lastrec[d], m->ph_cmp, m->agg_gen,
			       m->agg_cm + (size_t)d * m->agg_wmax };
}

static inline __attribute__((always_inline)) void clk_store(struct ucm_model *m, unsigned d,
							    const struct agg_clk *k)
{
	m->agg_rem[d] = k->rem;
	m->clk_cycles[d] = k->cyc;
	m->agg_last[d] = k->last;
	m->agg_lastrec[d] = k->lastrec;
}

/* A change of phase to phase `to` seen by clock d (k: its part). */
static inline __attribute__((always_inline)) void ucm_agg_trans(struct ucm_model *m, struct agg_clk *k,
								 uint32_t to)
{
	/* one for each edge counter of the clock whose comparison holds in
	 * phase to and did not in phase k->last (from the epoch's start: its
	 * latch as it was); a phase's record is its epoch and its bits, in
	 * records of agg_w + 1 words valid for this epoch only; phase last's
	 * were made when the clock entered it (its place: lastrec) */
	unsigned w = k->w;
	uint64_t *rk = k->phc + (size_t)to * (w + 1);
	const uint64_t *bj = k->last < 0 ? m->agg_entry : k->phc + k->lastrec + 1;

	k->lastrec = (size_t)to * (w + 1);
	if (rk[0] != k->gen)
		ph_cmp_make(m, to, rk);
	for (unsigned q = 0; q < w; q++) {
		uint64_t up = rk[1 + q] & ~bj[q] & k->cm[q];

		while (up) {
			m->agg_edge[q * 64 + (unsigned)__builtin_ctzll(up)]++;
			up &= up - 1;
		}
	}
}

/* n (> 0) cycles of clock d in phase p while phases are summed: to the
 * phase's sum; a change of phase counted once the clock saw a cycle of
 * the phase before.  Nothing per counter or input. */
static inline __attribute__((always_inline)) void agg_cycles(struct ucm_model *m, unsigned d,
							     struct agg_clk *k, uint32_t p, uint64_t n)
{
	k->cyc += n;
	if (!k->acc[p])
		m->acc_list[d][m->nacc[d]++] = p;
	k->acc[p] += n;
	if (k->last != (int32_t)p) {
		if (k->edges)
			ucm_agg_trans(m, k, p);
		k->last = (int32_t)p;
	}
}

/* Time t (dt after the last) on clock d while phases are summed: its
 * cycles, if any, to phase p. */
static inline __attribute__((always_inline)) void agg_clock(struct ucm_model *m, unsigned d,
							    struct agg_clk *k, uint32_t p, uint64_t t,
							    uint64_t dt)
{
	/* cycles completed, kept as quotient and remainder of t * num / den:
	 * a short step needs no division */
	uint64_t n, x;

	if (dt <= k->dtmax) {
		x = k->rem + dt * k->num;
		if (x < k->den) {
			k->rem = x;
			return;
		}
		if (x < 2 * k->den) {
			n = 1;
			k->rem = x - k->den;
		} else {
			n = x / k->den;
			k->rem = x % k->den;
		}
	} else {
		uint64_t c = ucm_cycles_at(m, d, t);

		n = c - k->cyc;
		k->rem = (uint64_t)((ucm_u128)t * k->num - (ucm_u128)c * k->den);
		if (!n)
			return;
	}
	agg_cycles(m, d, k, p, n);
}

/* floor(x / d) by a multiply with inv = floor((2^64 - 1) / d), instead of a
 * division: inv * d > 2^64 - 1 - d, so x * inv / 2^64 > x / d - 1 for any
 * 64-bit x and the product's high word is the quotient or one less, then
 * corrected without a branch.  (Where a value is carried from step to step,
 * agg_clock_inv and the carried loop, the correction stays a branch, almost
 * never taken: without it on that chain snbep `qpi` lost 3 %.) */
static inline __attribute__((always_inline)) uint64_t quot_inv(uint64_t x, uint64_t inv, uint64_t d)
{
	uint64_t q = (uint64_t)(((ucm_u128)x * inv) >> 64);

	return q + (x - q * d >= d);
}

/* agg_clock in a batch (ucm_phase_steps, several clocks): the quotient
 * by a multiply with inv = floor((2^64 - 1) / den), which gives it or one
 * less (quot_inv), instead of a division per clock and step. */
static inline __attribute__((always_inline)) void agg_clock_inv(struct ucm_model *m, unsigned d,
								struct agg_clk *k, uint64_t inv,
								uint32_t p, uint64_t t, uint64_t dt)
{
	uint64_t n, x;

	if (dt > k->dtmax) {
		agg_clock(m, d, k, p, t, dt);
		return;
	}
	x = k->rem + dt * k->num;
	if (x < k->den) {
		k->rem = x;
		return;
	}
	n = (uint64_t)(((ucm_u128)x * inv) >> 64);
	x -= n * k->den;
	if (x >= k->den) {
		n++;
		x -= k->den;
	}
	k->rem = x;
	agg_cycles(m, d, k, p, n);
}

/* Time t while phases are summed, on every clock. */
static inline __attribute__((always_inline)) void agg_span(struct ucm_model *m, uint64_t t)
{
	unsigned nc = m->plat->nclocks;
	uint64_t dt = t - m->now_ps;

	for (unsigned d = 0; d < nc; d++) {
		struct agg_clk k;

		clk_load(m, d, &k);
		agg_clock(m, d, &k, (uint32_t)m->agg_p, t, dt);
		clk_store(m, d, &k);
	}
	m->now_ps = t;
}

void ucm_agg_span(struct ucm_model *m, uint64_t t)
{
	agg_span(m, t);
}

int ucm_phase_run(struct ucm_model *m, uint64_t t_ps)
{
	/* inside a workload's call, in an epoch, short of the time being run
	 * to (the loop calls the workload again only before it) and no
	 * further than the epoch may go: what returning t_ps as the next
	 * change would do, without the return */
	if (!m->in_workload || !m->agg || t_ps <= m->now_ps || t_ps >= m->wl_until ||
	    t_ps > m->agg_stop)
		return 0;
	agg_span(m, t_ps);
	return 1;
}

/* ucm_phase_steps' steps with one clock stepped, d (kp: its part, inv1: its
 * divisor's inverse; cc: the step clock's count now, num / den its rate,
 * ninv num's inverse; cmax, nph: the checks' bounds), c * den and t *
 * num known to fit 64 bits.  Each step's time and the clock's count come
 * from the step's end alone, so nothing is carried from step to step but
 * the count and steps overlap, where carrying them made a chain of
 * multiplies through the batch (quotients by quot_inv).  Out of line, where its values stay in
 * registers (in ucm_phase_steps they were kept on the stack).  Returns
 * the steps taken, *nowp the time the last ends. */
static __attribute__((noinline)) size_t steps_direct(struct ucm_model *m, unsigned d, struct agg_clk *kp,
						     uint64_t inv1, const struct ucm_step *s, size_t n,
						     uint64_t cc, uint64_t cmax, unsigned nph, uint64_t num,
						     uint64_t den, uint64_t ninv, uint64_t *nowp)
{
	struct agg_clk k1 = *kp;
	uint64_t now = *nowp;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t c = s[i].end, cd, t, y, cy;
		uint32_t p = (uint32_t)s[i].id;

		if (c <= cc || c > cmax || p >= nph)
			break;
		cc = c;
		cd = c * den;
		t = quot_inv(cd, ninv, num);
		t += cd - t * num != 0; /* the cycle's end: ceil */
		y = t * k1.num;
		cy = quot_inv(y, inv1, k1.den);
		if (cy != k1.cyc)
			agg_cycles(m, d, &k1, p, cy - k1.cyc);
		now = t;
	}
	if (i)
		k1.rem = now * k1.num - k1.cyc * k1.den;
	*kp = k1;
	*nowp = now;
	return i;
}

size_t ucm_phase_steps(struct ucm_model *m, unsigned clock, const struct ucm_step *s, size_t n)
{
	unsigned nc = m->plat->nclocks, nph = m->nph;
	uint64_t tl, cmax;
	size_t i = 0;

	if (!m->in_workload || !m->agg || clock >= nc || !n)
		return 0;
	/* ucm_phase_run's conditions for each: its end after now, before
	 * wl_until and no later than agg_stop (summing time moves neither),
	 * in the clock's cycles: after its count now, at most its count at the
	 * last time allowed (cycle c completes at ceil(c * den / num), at or
	 * before T exactly when c <= floor(T * num / den)).  Entering a phase
	 * in an epoch is only naming it (ucm_phase_enter). */
	tl = m->wl_until - 1 < m->agg_stop ? m->wl_until - 1 : m->agg_stop;
	cmax = ucm_cycles_at(m, clock, tl);
	if (nc == 1) {
		/* the steps' cycles are the clock's: no time per step; the
		 * clock's part in locals for the whole batch */
		struct agg_clk k;

		clk_load(m, 0, &k);
		for (; i < n; i++) {
			uint64_t c = s[i].end;
			uint32_t p = (uint32_t)s[i].id;

			if (c <= k.cyc || c > cmax || p >= nph)
				break;
			agg_cycles(m, 0, &k, p, c - k.cyc);
		}
		if (i) {
			/* the time the last ends, the clock's remainder there */
			m->now_ps = ucm_time_of_cycle(m, 0, k.cyc);
			k.rem = (uint64_t)((ucm_u128)m->now_ps * k.num - (ucm_u128)k.cyc * k.den);
		}
		clk_store(m, 0, &k);
	} else {
		/* each end's time from the last: quotient and remainder of
		 * c * den / num for the clock, carried (a division per batch) */
		uint64_t num = m->clk_num[clock], den = m->clk_den[clock], cc = m->clk_cycles[clock];
		uint64_t now = m->now_ps, inv[UCM_MAXCLK], ninv = UINT64_MAX / num, ovf;
		struct agg_clk k[UCM_MAXCLK];

		/* every clock's part in locals for the batch */
		for (unsigned d = 0; d < nc; d++) {
			clk_load(m, d, &k[d]);
			inv[d] = UINT64_MAX / k[d].den;
		}

		/* a clock whose part of every phase defined is the same (its
		 * boxes' box vectors, m->nparts) is not stepped: its cycles over
		 * the batch go, summed at once, to the first step's phase, which
		 * is all that the epoch's sums read of a phase on a clock
		 * (agg_sum, ucm_agg_ctr_view, ucm_agg_fed: its box vectors
		 * there, its counters' comparisons there); the others (vd[0,
		 * nv)) are stepped at each step */
		unsigned vd[UCM_MAXCLK], nv = 0;
		uint64_t t0 = now;

		for (unsigned d = 0; d < nc; d++)
			if (m->nparts[d] != 1)
				vd[nv++] = d;
		if (nv == 1 && !__builtin_mul_overflow(cmax, den, &ovf) &&
		    !__builtin_mul_overflow(tl, k[vd[0]].num, &ovf)) {
			/* the usual case, one clock stepped (one clock's boxes
			 * see the phases differ: the PCU's in a C-state trace),
			 * c * den and t * num fitting 64 bits (t <= tl; past
			 * that, 680,000 s at 2.7 GHz, the carried loop) */
			i = steps_direct(m, vd[0], &k[vd[0]], inv[vd[0]], s, n, cc, cmax, nph, num, den, ninv,
					 &now);
		} else {
			/* a step's time carried from the last while its cycles'
			 * remainder part cannot overflow (ninv: r / num by a
			 * multiply, as quot_inv) */
			uint64_t qd = den / num, rd = den % num, q, r;
			uint64_t dcmax = rd ? (UINT64_MAX - num) / rd : UINT64_MAX;
			ucm_u128 x = (ucm_u128)cc * den;

			if (dcmax > UINT64_MAX / (qd + 1) / 2)
				dcmax = UINT64_MAX / (qd + 1) / 2;
			q = (uint64_t)(x / num);
			r = (uint64_t)(x % num);
			for (; i < n; i++) {
				uint64_t c = s[i].end, t;
				uint32_t p = (uint32_t)s[i].id;

				if (c <= cc || c > cmax || p >= nph)
					break;
				if (c - cc <= dcmax) {
					/* carried: no 128-bit division per step */
					q += (c - cc) * qd;
					r += (c - cc) * rd;
					if (r >= num) {
						uint64_t e = (uint64_t)(((ucm_u128)r * ninv) >> 64);

						q += e;
						r -= e * num;
						if (r >= num) {
							q++;
							r -= num;
						}
					}
				} else {
					x = (ucm_u128)c * den;
					q = (uint64_t)(x / num);
					r = (uint64_t)(x % num);
				}
				cc = c;
				t = q + (r != 0);
				for (unsigned v = 0; v < nv; v++)
					agg_clock_inv(m, vd[v], &k[vd[v]], inv[vd[v]], p, t, t - now);
				now = t;
			}
		}
		for (unsigned d = 0; d < nc; d++) {
			if (m->nparts[d] == 1 && now != t0)
				agg_clock_inv(m, d, &k[d], inv[d], (uint32_t)s[0].id, now, now - t0);
			clk_store(m, d, &k[d]);
		}
		m->now_ps = now;
	}
	if (i)
		m->agg_p = s[i - 1].id;
	return i;
}
