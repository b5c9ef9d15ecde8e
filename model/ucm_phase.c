/*
 * ucm_phase.c - phases: whole input vectors defined once and entered many
 * times (model/ucm.h).
 *
 * A workload or a trace usually moves between a few input vectors.  Given
 * as phases, each vector is checked against the event maxima once, at its
 * definition, and entering one is in effect ucm_clear_inputs() followed by
 * ucm_set_input() of each of its inputs.
 *
 * Entering a phase costs O(1): the model starts an epoch in which the
 * counters keep their state as of its start and time is summed per clock
 * and phase (cycles spent in each phase; changes of phase, for the edge
 * detectors).  When anything looks at or changes the model, the epoch
 * ends: each counter adds, per phase, its cycles in that phase times its
 * output there (or, with edge detection, one per change of phase into one
 * where its comparison holds from one where it did not), which is what the
 * cycle-by-cycle pipeline (ucm_count.c) gives, since inputs are constant
 * within a phase and a phase with no cycle of a clock is invisible to it.
 * Overflows with OVF_EN have consequences at their time (status, PMI,
 * freeze), so an epoch never runs past the earliest time a counter with
 * OVF_EN could wrap at the most it can add in a cycle (its code's maximum,
 * or 1 through a comparison); from there time runs exactly, and the next
 * phase entered starts a new epoch if no wrap is that close.  With an
 * observer (waveforms want every change) the phases are set input by
 * input.
 *
 * Here: entering a phase, an epoch's start and end, the phases'
 * attributes, and what reads the model during an epoch sees.  Defining
 * phases and box vectors: ucm_phase_def.c; time summed in an epoch, and
 * the steps a replay gives: ucm_phase_time.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ucm_internal.h"

/* Phases entered with nobody looking before an epoch starts (see
 * ucm_phase_enter). */
#define AGG_AFTER 4

uint64_t ucm_phase_epochs(const struct ucm_model *m)
{
	return m->agg_epochs;
}

/* ---- a phase's attributes outside an epoch ---- */

/* Put the attributes of phase id into the boxes, keeping what they
 * replace (ov_save, in the order of the phase's box vectors and theirs). */
static int ov_apply(struct ucm_model *m, uint32_t id)
{
	const struct ucm_phdef *p = &m->ph[id];
	size_t r = 0;

	if (!p->ov_n)
		return 0;
	if ((size_t)p->ov_n * UCM_NATTR > m->cap_ov_save) {
		size_t cap = (size_t)p->ov_n * UCM_NATTR * 2;
		uint64_t *sv = realloc(m->ov_save, cap * sizeof(*sv));

		if (!sv)
			return ucm_seterr(m, -ENOMEM, "out of memory");
		m->ov_save = sv;
		m->cap_ov_save = cap;
	}
	for (uint32_t x = p->first; x < p->first + p->n; x++) {
		const struct ucm_bvec *v = &m->bv[m->phbv[x]];

		for (uint32_t i = 0; i < v->ov_n; i++, r++) {
			const struct ucm_ovrec *o = &m->phov[v->ov_first + i];
			const uint64_t *ov = m->phov_v + o->vi;
			struct ucm_box *b = &m->boxes[o->box];

			for (unsigned a = 0; a < UCM_NATTR; a++)
				if (o->mask >> a & 1) {
					m->ov_save[r * UCM_NATTR + a] = b->attr[o->sub * UCM_NATTR + a];
					ucm_attr_put(m, b, o->sub, a, *ov++);
				}
		}
	}
	m->ov_phase = (int)id;
	return 0;
}

void ucm_ov_remove(struct ucm_model *m)
{
	const struct ucm_phdef *p;
	size_t r = 0;

	if (m->ov_phase < 0)
		return;
	p = &m->ph[m->ov_phase];
	m->ov_phase = -1;
	for (uint32_t x = p->first; p->ov_n && x < p->first + p->n; x++) {
		const struct ucm_bvec *v = &m->bv[m->phbv[x]];

		for (uint32_t i = 0; i < v->ov_n; i++, r++) {
			const struct ucm_ovrec *o = &m->phov[v->ov_first + i];

			for (unsigned a = 0; a < UCM_NATTR; a++)
				if (o->mask >> a & 1)
					ucm_attr_put(m, &m->boxes[o->box], o->sub, a,
						     m->ov_save[r * UCM_NATTR + a]);
		}
	}
}

/* The index in phbv[] of phase k's box vector of box, -1: none. */
static long phase_bv(const struct ucm_model *m, uint32_t k, uint32_t box)
{
	uint32_t a = m->ph[k].first, b = a + m->ph[k].n;

	while (a < b) {
		uint32_t mid = a + (b - a) / 2;

		if (m->bv[m->phbv[mid]].box < box)
			a = mid + 1;
		else
			b = mid;
	}
	if (a < m->ph[k].first + m->ph[k].n && m->bv[m->phbv[a]].box == box)
		return (long)a;
	return -1;
}

/* Index in phov[] of phase k's attributes of a sub-event, -1: none; *r
 * its place in ov_save (ov_apply's order). */
static long ov_find(const struct ucm_model *m, uint32_t k, uint32_t box, uint32_t sub, size_t *r)
{
	long x = phase_bv(m, k, box);
	const struct ucm_bvec *v;

	if (x < 0)
		return -1;
	v = &m->bv[m->phbv[x]];
	for (uint32_t i = 0; i < v->ov_n; i++)
		if (m->phov[v->ov_first + i].sub == sub) {
			*r = i;
			for (uint32_t y = m->ph[k].first; y < (uint32_t)x; y++)
				*r += m->bv[m->phbv[y]].ov_n;
			return (long)(v->ov_first + i);
		}
	return -1;
}

int ucm_ov_get(const struct ucm_model *m, int box, unsigned sub, unsigned attr, uint64_t *v)
{
	int ph = m->agg ? m->agg_p : m->ov_phase;
	size_t r;
	long i;

	if (ph < 0 || !m->ph[ph].ov_n || (i = ov_find(m, (uint32_t)ph, (uint32_t)box, sub, &r)) < 0 ||
	    !(m->phov[i].mask >> attr & 1))
		return 0;
	*v = m->phov_v[m->phov[i].vi + (unsigned)__builtin_popcount(m->phov[i].mask & ((1u << attr) - 1))];
	return 1;
}

int ucm_ov_set_base(struct ucm_model *m, int box, unsigned sub, unsigned attr, uint64_t v)
{
	size_t r;
	long i;

	if (m->ov_phase < 0 || !m->ph[m->ov_phase].ov_n ||
	    (i = ov_find(m, (uint32_t)m->ov_phase, (uint32_t)box, sub, &r)) < 0 ||
	    !(m->phov[i].mask >> attr & 1))
		return 0;
	m->ov_save[r * UCM_NATTR + attr] = v;
	return 1;
}

/* Whether counter c selects the sub-event of phase entry e: with the
 * attributes the phase gives it, or as compiled. */
static int ctr_selects(const struct ucm_model *m, const struct ucm_box *b, const struct ucm_ctr *c,
		       const struct ucm_phent *e)
{
	uint64_t attr[UCM_NATTR];
	const struct ucm_ovrec *o;
	const uint64_t *ov;

	if (!e->ov)
		return (b->sub[e->sub].selmask >> c->idx) & 1;
	o = &m->phov[e->ov - 1];
	ov = m->phov_v + o->vi;
	for (unsigned a = 0; a < UCM_NATTR; a++)
		attr[a] = o->mask >> a & 1 ? *ov++ : b->attr[e->sub * UCM_NATTR + a];
	return ucm_ctr_selects_attr(c, e->sub, attr);
}

/* ---- an epoch of summed phases ---- */

/* A counter's output before its edge detector with its box's inputs those
 * of box vector v, NULL: all 0 (*cmp as ucm_ctr_level). */
uint64_t ucm_ctr_in_bv(const struct ucm_model *m, const struct ucm_ctr *c,
		       const struct ucm_bvec *v, int *cmp)
{
	const struct ucm_box *b = c->box;
	uint64_t inc = c->konst, occ = 0;

	for (uint32_t i = 0; v && i < v->n; i++) {
		const struct ucm_phent *e = &m->phent[v->first + i];

		if (ctr_selects(m, b, c, e))
			inc += e->inc;
		if ((int32_t)e->sub == c->occ_sub)
			occ = e->inc;
	}
	return ucm_ctr_level(c, inc, occ, cmp);
}

static uint32_t box_index(const struct ucm_model *m, const struct ucm_box *b)
{
	return (uint32_t)(b - m->boxes);
}

/* A counter's output before its edge detector in phase k. */
static uint64_t ctr_in_phase(const struct ucm_model *m, const struct ucm_ctr *c, uint32_t k,
			     int *cmp)
{
	long x = phase_bv(m, k, box_index(m, c->box));

	return ucm_ctr_in_bv(m, c, x < 0 ? NULL : &m->bv[m->phbv[x]], cmp);
}

static int ctr_has_cmp(const struct ucm_ctr *c)
{
	return c->mode == UCM_CM_OCC_AND || c->thr;
}

void ucm_agg_ctr_view(const struct ucm_model *m, const struct ucm_ctr *c, uint64_t *val,
		      uint64_t *total, uint64_t *wraps, uint8_t *prev_cmp)
{
	unsigned d = c->clock;
	ucm_u128 add = 0, sum;
	int cmp;

	*val = c->val;
	*total = c->total;
	*wraps = c->wraps;
	*prev_cmp = c->prev_cmp;
	if (!c->counting)
		return;
	if (c->edge && ctr_has_cmp(c)) {
		/* counted at each change of phase (ucm_agg_trans) */
		add = m->agg_edge[m->agg_eidx[(size_t)box_index(m, c->box) * UCM_MAXCTR + c->idx]];
	} else {
		for (unsigned i = 0; i < m->nacc[d]; i++) {
			uint32_t k = m->acc_list[d][i];

			add += (ucm_u128)m->acc[d][k] * ctr_in_phase(m, c, k, &cmp);
		}
	}
	if (ctr_has_cmp(c) && m->agg_last[d] >= 0) {
		ctr_in_phase(m, c, (uint32_t)m->agg_last[d], &cmp);
		*prev_cmp = (uint8_t)cmp;
	}
	sum = (ucm_u128)c->val + add;
	*val = (uint64_t)sum & c->wmask;
	*total = c->total + (uint64_t)add;
	*wraps = c->wraps + (uint64_t)(sum >> c->wbits);
}

/* The increment of a sub-event in phase k. */
static uint32_t phase_input(const struct ucm_model *m, uint32_t k, uint32_t box, uint32_t sub)
{
	long x = phase_bv(m, k, box);
	const struct ucm_bvec *v;

	if (x < 0)
		return 0;
	v = &m->bv[m->phbv[x]];
	for (uint32_t i = 0; i < v->n; i++)
		if (m->phent[v->first + i].sub == sub)
			return m->phent[v->first + i].inc;
	return 0;
}

uint64_t ucm_agg_fed(const struct ucm_model *m, int box, unsigned sub)
{
	unsigned d = m->boxes[box].def->type->clock;
	uint64_t fed = m->boxes[box].sub[sub].fed;

	for (unsigned i = 0; i < m->nacc[d]; i++) {
		uint32_t k = m->acc_list[d][i];

		fed += m->acc[d][k] * phase_input(m, k, (uint32_t)box, sub);
	}
	return fed;
}

uint32_t ucm_agg_input(const struct ucm_model *m, int box, unsigned sub)
{
	return phase_input(m, (uint32_t)m->agg_p, (uint32_t)box, sub);
}

/* The end of an epoch, in one pass over the phases it touched (each
 * once, whichever clocks saw it) and one over their box vectors (each
 * once, whichever phases hold it):
 * - a box vector's cycles are its box clock's cycles in the phases that
 *   hold it;
 * - a sub-event adds its input times its box vector's cycles;
 * - a counter without edge detection adds its cycles in each phase times
 *   its output there: its output with its box's inputs all 0 (z) times
 *   the epoch's cycles, corrected per box vector of its box (lvl: output
 *   x cycles, in: those cycles);
 * - a counter with edge detection has its edges counted already, at each
 *   change of phase (ucm_agg_trans).
 * Scratch per counter g = box * UCM_MAXCTR + i. */
static void agg_sum(struct ucm_model *m, uint64_t *cyc)
{
	unsigned nc = m->nboxes * UCM_MAXCTR, ncl = m->plat->nclocks;
	uint32_t nbl = 0;
	ucm_u128 *lvl = m->agg_lvl;
	uint64_t *in = m->agg_in, *bvacc = m->agg_bvacc;

	memset(lvl, 0, (size_t)nc * sizeof(*lvl));
	memset(in, 0, (size_t)nc * sizeof(*in));
	/* each phase touched once: in the list of the first clock with
	 * cycles in it (a phase is in clock d's list when acc[d] holds any) */
	for (unsigned d = 0; d < ncl; d++) {
		cyc[d] = 0;
		for (unsigned i = 0; i < m->nacc[d]; i++) {
			uint32_t k = m->acc_list[d][i];
			const uint32_t *x, *end;
			unsigned e = 0;

			cyc[d] += m->acc[d][k];
			while (e < d && !m->acc[e][k])
				e++;
			if (e < d)
				continue;
			/* each box vector's cycles */
			x = m->phbv + m->ph[k].first;
			end = x + m->ph[k].n;
			for (; x < end; x++) {
				uint32_t id = *x;
				uint64_t a = m->acc[m->bv[id].clock][k];

				if (!a)
					continue;
				bvacc[id] += a;
				if (!m->agg_bvseen[id]) {
					m->agg_bvseen[id] = 1;
					m->agg_bvlist[nbl++] = id;
				}
			}
		}
	}
	/* each box vector once: what its inputs fed, its counters' outputs */
	for (uint32_t t = 0; t < nbl; t++) {
		uint32_t id = m->agg_bvlist[t];
		const struct ucm_bvec *v = &m->bv[id];
		const struct ucm_phent *e0 = m->phent + v->first, *e1 = e0 + v->n;
		struct ucm_box *b = &m->boxes[v->box];
		uint64_t a = bvacc[id];

		bvacc[id] = 0;
		m->agg_bvseen[id] = 0;
		for (const struct ucm_phent *e = e0; e < e1; e++)
			b->sub[e->sub].fed += a * e->inc;
		for (unsigned ci = 0; ci < b->def->type->nctr; ci++) {
			const struct ucm_ctr *c = &b->ctr[ci];
			unsigned g = v->box * UCM_MAXCTR + ci;
			uint8_t bit = (uint8_t)(1u << ci);
			uint64_t inc = c->konst, occ = 0;
			int cmp;

			if (!c->counting || m->agg_eidx[g] != UINT16_MAX)
				continue;
			for (const struct ucm_phent *e = e0; e < e1; e++) {
				if (e->ov ? ctr_selects(m, b, c, e) : b->sub[e->sub].selmask & bit)
					inc += e->inc;
				if ((int32_t)e->sub == c->occ_sub)
					occ = e->inc;
			}
			lvl[g] += (ucm_u128)a * ucm_ctr_level(c, inc, occ, &cmp);
			in[g] += a;
		}
	}
}

void ucm_agg_end(struct ucm_model *m)
{
	uint32_t p = (uint32_t)m->agg_p;
	uint64_t cyc[UCM_MAXCLK];

	agg_sum(m, cyc);
	/* the counters at the epoch's end */
	for (unsigned bi = 0; bi < m->nboxes; bi++) {
		struct ucm_box *b = &m->boxes[bi];

		for (unsigned i = 0; i < b->def->type->nctr; i++) {
			struct ucm_ctr *c = &b->ctr[i];
			unsigned d = c->clock, g = bi * UCM_MAXCTR + i;
			ucm_u128 add, sum;
			int cmp;

			if (c->counting) {
				if (m->agg_eidx[g] != UINT16_MAX)
					add = m->agg_edge[m->agg_eidx[g]];
				else
					add = m->agg_lvl[g] + (ucm_u128)ucm_ctr_level(c, c->konst, 0, &cmp) *
								      (cyc[d] - m->agg_in[g]);
				sum = (ucm_u128)c->val + add;
				c->val = (uint64_t)sum & c->wmask;
				c->total += (uint64_t)add;
				c->wraps += (uint64_t)(sum >> c->wbits);
			}
			if (c->counting && ctr_has_cmp(c) && m->agg_last[d] >= 0) {
				ctr_in_phase(m, c, (uint32_t)m->agg_last[d], &cmp);
				c->prev_cmp = (uint8_t)cmp;
			}
			c->c0 = m->clk_cycles[d];
		}
	}
	/* the inputs of the phase entered */
	for (uint32_t x = m->ph[p].first; x < m->ph[p].first + m->ph[p].n; x++) {
		const struct ucm_bvec *v = &m->bv[m->phbv[x]];
		struct ucm_box *b = &m->boxes[v->box];

		for (uint32_t e = v->first; e < v->first + v->n; e++) {
			struct ucm_sub *s = &b->sub[m->phent[e].sub];

			s->c0 = m->clk_cycles[v->clock];
			s->input = m->phent[e].inc;
			b->code[s->code].sum += s->input;
			b->act[b->nact++] = (uint16_t)m->phent[e].sub;
			s->act_pos = (uint16_t)b->nact;
		}
	}
	m->agg = 0;
	/* and its attributes, into the boxes (memory for what they replace
	 * was found when the phase was entered outside an epoch or, failing
	 * that, is the only thing that can fail here: the phase then holds
	 * none, as ucm_phase_enter reported nothing; see agg_begin) */
	ov_apply(m, p);
	for (unsigned bi = 0; bi < m->nboxes; bi++) {
		struct ucm_box *b = &m->boxes[bi];

		for (unsigned i = 0; i < b->def->type->nctr; i++)
			ucm_ctr_reload(m, b, &b->ctr[i]);
	}
	for (unsigned d = 0; d < m->plat->nclocks; d++) {
		for (unsigned i = 0; i < m->nacc[d]; i++)
			m->acc[d][m->acc_list[d][i]] = 0;
		m->nacc[d] = 0;
		m->agg_last[d] = -1;
	}
}

/* Start an epoch in phase p, unless a counter with OVF_EN could wrap
 * before the next picosecond: returns 1 if started. */
static int agg_begin(struct ucm_model *m, uint32_t p)
{
	uint64_t h = UINT64_MAX;
	unsigned ne;

	if (m->obs_fn)
		return 0;
	/* room to keep what any phase's attributes replace, so that the
	 * epoch's end cannot fail */
	if (m->cap_ov_save < m->max_ov * UCM_NATTR) {
		uint64_t *sv = realloc(m->ov_save, m->max_ov * UCM_NATTR * sizeof(*sv));

		if (!sv)
			return 0;
		m->ov_save = sv;
		m->cap_ov_save = m->max_ov * UCM_NATTR;
	}
	/* the attributes of the phase in effect leave the boxes: in an epoch
	 * they hold what ucm_set_input_attr gave, each phase's own counted in
	 * its sums */
	ucm_ov_remove(m);
	/* the counters as of now, and the earliest time one with OVF_EN could
	 * wrap at the most it can add in a cycle */
	for (unsigned bi = 0; bi < m->nboxes; bi++) {
		struct ucm_box *b = &m->boxes[bi];

		for (unsigned i = 0; i < b->def->type->nctr; i++) {
			struct ucm_ctr *c = &b->ctr[i];
			ucm_u128 room, j;
			uint64_t t;

			ucm_ctr_sync(m, c);
			if (!c->counting || !c->ovf_en)
				continue;
			if (!c->rmax)
				continue;
			room = (ucm_u128)c->wmask + 1 - c->val;
			j = (room + c->rmax - 1) / c->rmax;
			if (j > UINT64_MAX - c->c0)
				continue;
			t = ucm_time_of_cycle(m, c->clock, c->c0 + (uint64_t)j);
			if (t < h)
				h = t;
		}
	}
	if (h <= m->now_ps + 1)
		return 0;
	/* what the inputs fed until now; then they are the phases' */
	for (unsigned bi = 0; bi < m->nboxes; bi++) {
		struct ucm_box *b = &m->boxes[bi];
		uint64_t now = m->clk_cycles[b->def->type->clock];

		for (unsigned i = 0; i < b->nact; i++) {
			struct ucm_sub *s = &b->sub[b->act[i]];

			s->fed += (uint64_t)s->input * (now - s->c0);
			s->c0 = now;
			b->code[s->code].sum -= s->input;
			s->input = 0;
			s->act_pos = 0;
		}
		b->nact = 0;
	}
	/* the edge counters: numbered, their clocks' masks, their comparisons
	 * as the epoch starts and with their box's inputs all 0 */
	memset(m->agg_edges, 0, sizeof(m->agg_edges));
	memset(m->agg_boxedge, 0, m->nboxes);
	memset(m->agg_cm, 0, (size_t)(UCM_MAXCLK + 2) * m->agg_wmax * sizeof(*m->agg_cm));
	ne = 0;
	for (unsigned bi = 0; bi < m->nboxes; bi++)
		for (unsigned i = 0; i < UCM_MAXCTR; i++) {
			const struct ucm_ctr *c = &m->boxes[bi].ctr[i];
			unsigned g = bi * UCM_MAXCTR + i;
			int cmp;

			m->agg_eidx[g] = UINT16_MAX;
			if (i >= m->boxes[bi].def->type->nctr || !c->counting || !c->edge ||
			    !ctr_has_cmp(c))
				continue;
			m->agg_eidx[g] = (uint16_t)ne;
			m->agg_edge[ne] = 0;
			m->agg_boxedge[bi] |= (uint8_t)(1u << i);
			m->agg_edges[c->clock] = 1;
			m->agg_cm[(size_t)c->clock * m->agg_wmax + ne / 64] |= 1ull << (ne % 64);
			if (c->prev_cmp)
				m->agg_entry[ne / 64] |= 1ull << (ne % 64);
			ucm_ctr_level(c, c->konst, 0, &cmp);
			if (cmp > 0)
				m->agg_zpat[ne / 64] |= 1ull << (ne % 64);
			ne++;
		}
	m->agg_w = (ne + 63) / 64;
	m->agg_gen++;
	/* the phases' records are laid out for agg_w: if that changed, what
	 * was written for another layout must not pass for a record of this
	 * epoch (every word that begins a record is 0 or an earlier epoch's).
	 * Records are written in epochs only, for phases defined, laid out
	 * for agg_wlast: past nph * (agg_wlast + 1) words all are zero (as
	 * ucm_grow added them, or cleared here or by ucm_phases_reset). */
	if (m->agg_w != m->agg_wlast) {
		memset(m->ph_cmp, 0, (size_t)m->nph * (m->agg_wlast + 1) * sizeof(*m->ph_cmp));
		m->agg_wlast = m->agg_w;
	}
	for (unsigned d = 0; d < m->plat->nclocks; d++) {
		m->agg_last[d] = -1;
		m->agg_rem[d] = (uint64_t)((ucm_u128)m->now_ps * m->clk_num[d] -
					   (ucm_u128)m->clk_cycles[d] * m->clk_den[d]);
	}
	m->agg = 1;
	m->agg_epochs++;
	m->agg_p = (int)p;
	m->agg_stop = h - 1;
	return 1;
}

int ucm_phase_enter(struct ucm_model *m, int id)
{
	const struct ucm_phdef *p;

	if (id < 0 || (unsigned)id >= m->nph)
		return ucm_seterr(m, -ENOENT, "no phase %d (%u defined)", id, m->nph);
	if (m->agg) {
		m->agg_p = id;
		return 0;
	}
	/* An epoch costs its start and end, O(counters): while the model is
	 * being read (a sample: a register access every microsecond or so,
	 * with phases changing meanwhile) the phases are set input by input;
	 * an epoch starts once a few phases passed with nobody looking. */
	if (++m->agg_quiet >= AGG_AFTER && agg_begin(m, (uint32_t)id))
		return 0;
	p = &m->ph[id];
	ucm_clear_inputs(m);
	for (uint32_t x = p->first; x < p->first + p->n; x++) {
		const struct ucm_bvec *v = &m->bv[m->phbv[x]];

		for (uint32_t i = v->first; i < v->first + v->n; i++) {
			int rc = ucm_set_input(m, (int)v->box, m->phent[i].sub, m->phent[i].inc);

			if (rc)
				return rc;
		}
	}
	return ov_apply(m, (uint32_t)id);
}
