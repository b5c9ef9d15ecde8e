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
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ucm_grow.h"
#include "ucm_internal.h"


/* Phases entered with nobody looking before an epoch starts (see
 * ucm_phase_enter). */
#define AGG_AFTER 4

/* Inputs of one box in the order given (the index in ov while sorting):
 * by sub-event, then that order, so that of a sub-event listed twice the
 * last counts. */
static int phent_cmp(const void *a, const void *b)
{
	const struct ucm_phent *x = a, *y = b;

	if (x->sub != y->sub)
		return x->sub < y->sub ? -1 : 1;
	return x->ov < y->ov ? -1 : x->ov > y->ov;
}

/* Attributes of one box likewise (the index in mask while sorting). */
static int phov_cmp(const void *a, const void *b)
{
	const struct ucm_phov *x = a, *y = b;

	if (x->sub != y->sub)
		return x->sub < y->sub ? -1 : 1;
	return x->mask < y->mask ? -1 : x->mask > y->mask;
}

/* A box's few inputs are sorted by insertion (stable: equal sub-events
 * keep the order given); many, by qsort with the order as a tie-break. */
#define SORT_SMALL 24

static void sort_ent(struct ucm_phent *e, size_t n)
{
	if (n > SORT_SMALL) {
		for (size_t i = 0; i < n; i++)
			e[i].ov = (uint32_t)i;
		qsort(e, n, sizeof(*e), phent_cmp);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		struct ucm_phent x = e[i];
		size_t j = i;

		for (; j > 0 && e[j - 1].sub > x.sub; j--)
			e[j] = e[j - 1];
		e[j] = x;
	}
}

static void sort_ov(struct ucm_phov *o, size_t n)
{
	if (n > SORT_SMALL) {
		for (size_t i = 0; i < n; i++)
			o[i].mask = (uint32_t)i;
		qsort(o, n, sizeof(*o), phov_cmp);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		struct ucm_phov x = o[i];
		size_t j = i;

		for (; j > 0 && o[j - 1].sub > x.sub; j--)
			o[j] = o[j - 1];
		o[j] = x;
	}
}

static void agg_scratch_free(struct ucm_model *m)
{
	free(m->agg_lvl);
	free(m->agg_edge);
	free(m->agg_in);
	free(m->agg_eidx);
	free(m->agg_boxedge);
	free(m->agg_cm);
	m->agg_lvl = NULL;
	m->agg_edge = NULL;
	m->agg_in = NULL;
	m->agg_eidx = NULL;
	m->agg_boxedge = NULL;
	m->agg_cm = m->agg_entry = m->agg_zpat = NULL;
}

void ucm_phases_free(struct ucm_model *m)
{
	for (unsigned d = 0; d < UCM_MAXCLK; d++) {
		ucm_grow_free(m->acc[d]);
		ucm_grow_free(m->acc_list[d]);
		m->acc[d] = NULL;
		m->acc_list[d] = NULL;
		m->nacc[d] = 0;
	}
	m->acc_cap = 0;
	m->agg = 0;
	agg_scratch_free(m);
	ucm_grow_free(m->ph_cmp);
	m->ph_cmp = NULL;
	ucm_grow_free(m->agg_bvacc);
	ucm_grow_free(m->agg_bvcmp);
	ucm_grow_free(m->agg_bvseen);
	ucm_grow_free(m->agg_bvlist);
	ucm_grow_free(m->bv_stamp);
	m->agg_bvacc = NULL;
	m->agg_bvcmp = m->agg_bvseen = NULL;
	m->agg_bvlist = NULL;
	m->bv_stamp = NULL;
	m->agg_bvcap = 0;
	ucm_grow_free(m->ph);
	for (unsigned d = 0; d < UCM_MAXCLK; d++) {
		free(m->one_ids[d]);
		m->one_ids[d] = NULL;
		m->one_n[d] = m->one_cap[d] = 0;
		m->nparts[d] = 0;
	}
	ucm_grow_free(m->phbv);
	ucm_grow_free(m->bv);
	ucm_grow_free(m->bv_slot);
	ucm_grow_free(m->phent);
	ucm_grow_free(m->phov);
	ucm_grow_free(m->phov_v);
	free(m->ov_save);
	free(m->def_cnt);
	free(m->def_ocnt);
	ucm_grow_free(m->def_e);
	ucm_grow_free(m->def_o);
	free(m->def_code);
	free(m->def_ids);
	m->def_cnt = m->def_ocnt = m->def_ids = NULL;
	m->def_e = NULL;
	m->def_o = NULL;
	m->def_code = NULL;
	m->cap_def_e = m->cap_def_o = 0;
	m->phov = NULL;
	m->phov_v = NULL;
	m->nphov_v = m->capphov_v = 0;
	m->ov_save = NULL;
	m->nphov = m->capphov = m->cap_ov_save = 0;
	m->ph = NULL;
	m->phbv = NULL;
	m->bv = NULL;
	m->bv_slot = NULL;
	m->phent = NULL;
	m->nph = m->capph = 0;
	m->nphbv = m->capphbv = 0;
	m->nbv = m->capbv = 0;
	m->nphent = m->capphent = 0;
}

void ucm_phases_reset(struct ucm_model *m)
{
	/* the phases' comparison records (zero past the last layout's, see
	 * agg_begin) */
	if (m->ph_cmp)
		memset(m->ph_cmp, 0, (size_t)m->nph * (m->agg_wlast + 1) * sizeof(*m->ph_cmp));
	m->nph = 0;
	memset(m->nparts, 0, sizeof(m->nparts));
	m->nphbv = 0;
	m->nbv = 0;
	m->nphent = 0;
	m->nphov = 0;
	m->nphov_v = 0;
	m->max_ov = 0;
	m->ov_phase = -1;
	if (m->bv_slot)
		memset(m->bv_slot, 0, 2 * (size_t)m->capbv * sizeof(*m->bv_slot));
}

unsigned ucm_phase_count(const struct ucm_model *m)
{
	return m->nph;
}

uint64_t ucm_phase_epochs(const struct ucm_model *m)
{
	return m->agg_epochs;
}

/* ---- box vectors: one box's part of an input vector, stored once ---- */

static uint64_t mix(uint64_t h, uint64_t x)
{
	h = (h ^ x) * 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 31);
}

static uint64_t bv_hash(uint32_t box, const struct ucm_phent *e, size_t n, const struct ucm_phov *o,
			size_t on)
{
	uint64_t h = mix(box, n << 20 | on);

	for (size_t i = 0; i < n; i++)
		h = mix(h, (uint64_t)e[i].sub << 32 | e[i].inc);
	for (size_t i = 0; i < on; i++) {
		h = mix(h, (uint64_t)o[i].sub << 32 | o[i].mask);
		for (unsigned a = 0; a < UCM_NATTR; a++)
			if (o[i].mask >> a & 1)
				h = mix(h, o[i].v[a]);
	}
	return h;
}

static int bv_same(const struct ucm_model *m, const struct ucm_bvec *v, uint32_t box,
		   const struct ucm_phent *e, size_t n, const struct ucm_phov *o, size_t on)
{
	if (v->box != box || v->n != n || v->ov_n != on)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (m->phent[v->first + i].sub != e[i].sub || m->phent[v->first + i].inc != e[i].inc)
			return 0;
	for (size_t i = 0; i < on; i++) {
		const struct ucm_ovrec *x = &m->phov[v->ov_first + i];
		const uint64_t *xv = m->phov_v + x->vi;

		if (x->sub != o[i].sub || x->mask != o[i].mask)
			return 0;
		for (unsigned a = 0; a < UCM_NATTR; a++)
			if ((o[i].mask >> a & 1) && *xv++ != o[i].v[a])
				return 0;
	}
	return 1;
}

/* Array p (ucm_grow) with room for need elements: *cap doubled from
 * `first` until it holds them. */
static void *grow_to(void *p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t c = *cap ? *cap : first;
	void *np;

	if (need <= *cap && p)
		return p;
	while (c < need)
		c *= 2;
	if (!(np = ucm_grow(p, size, c)))
		return NULL;
	*cap = c;
	return np;
}

/* p grown to n elements of `size` (ucm_grow), *ok cleared on failure. */
static void *grow_all(void *p, size_t size, size_t n, int *ok)
{
	void *np = ucm_grow(p, size, n);

	if (!np)
		*ok = 0;
	return np ? np : p;
}

/* Room for one more box vector: bv[], its hash slots and an epoch's
 * scratch per box vector (which an epoch going on may be using: the new
 * part starts clear, as ucm_grow adds it). */
static int bv_room(struct ucm_model *m)
{
	uint32_t cap = m->capbv ? 2 * m->capbv : 64, mask = 2 * cap - 1;
	int32_t *sl;
	int ok = 1;

	if (m->nbv < m->capbv)
		return 0;
	if (m->capbv >= (1u << 28))
		return ucm_seterr(m, -ENOSPC, "too many box vectors");
	m->bv = grow_all(m->bv, sizeof(*m->bv), cap, &ok);
	m->agg_bvcmp = grow_all(m->agg_bvcmp, sizeof(*m->agg_bvcmp), cap, &ok);
	m->bv_stamp = grow_all(m->bv_stamp, sizeof(*m->bv_stamp), cap, &ok);
	m->agg_bvacc = grow_all(m->agg_bvacc, sizeof(*m->agg_bvacc), cap, &ok);
	m->agg_bvseen = grow_all(m->agg_bvseen, sizeof(*m->agg_bvseen), cap, &ok);
	m->agg_bvlist = grow_all(m->agg_bvlist, sizeof(*m->agg_bvlist), cap, &ok);
	if (!ok || !(sl = ucm_grow(NULL, sizeof(*sl), 2 * (size_t)cap)))
		return ucm_seterr(m, -ENOMEM, "out of memory");
	m->agg_bvcap = cap;
	for (uint32_t i = 0; i < m->nbv; i++) {
		uint32_t h = (uint32_t)m->bv[i].hash & mask;

		while (sl[h])
			h = (h + 1) & mask;
		sl[h] = (int32_t)i + 1;
	}
	ucm_grow_free(m->bv_slot);
	m->bv_slot = sl;
	m->capbv = cap;
	return 0;
}

/* The id of the box vector of box with inputs e[0..n) (sorted by
 * sub-event, nonzero, ov: the attributes' index + 1 in o, 0: none) and
 * attributes o[0..on) (sorted, merged), found or added. */
static int bv_intern(struct ucm_model *m, uint32_t box, const struct ucm_phent *e, size_t n,
		     const struct ucm_phov *o, size_t on)
{
	uint64_t h = bv_hash(box, e, n, o, on);
	uint32_t mask, i;
	struct ucm_bvec *v;
	int rc;

	if (m->capbv) {
		mask = 2 * m->capbv - 1;
		for (i = (uint32_t)h & mask; m->bv_slot[i]; i = (i + 1) & mask) {
			v = &m->bv[m->bv_slot[i] - 1];
			if (v->hash == h && bv_same(m, v, box, e, n, o, on))
				return m->bv_slot[i] - 1;
		}
	}
	if ((rc = bv_room(m)))
		return rc;
	if (n > UINT32_MAX - m->nphent || on > UINT32_MAX - m->nphov)
		return ucm_seterr(m, -ENOSPC, "too many phase inputs");
	{
		struct ucm_phent *pe = grow_to(m->phent, &m->capphent, m->nphent + n, sizeof(*pe), 64);

		if (!pe)
			return ucm_seterr(m, -ENOMEM, "out of memory");
		m->phent = pe;
	}
	if (on) {
		struct ucm_ovrec *po = grow_to(m->phov, &m->capphov, m->nphov + on, sizeof(*po), 64);
		size_t nv = 0;
		uint64_t *pv;

		if (!po)
			return ucm_seterr(m, -ENOMEM, "out of memory");
		m->phov = po;
		for (size_t q = 0; q < on; q++)
			nv += (size_t)__builtin_popcount(o[q].mask);
		if (nv > UINT32_MAX - m->nphov_v)
			return ucm_seterr(m, -ENOSPC, "too many phase attributes");
		if (!(pv = grow_to(m->phov_v, &m->capphov_v, m->nphov_v + nv, sizeof(*pv), 64)))
			return ucm_seterr(m, -ENOMEM, "out of memory");
		m->phov_v = pv;
		for (size_t q = 0; q < on; q++) {
			po[m->nphov + q] = (struct ucm_ovrec){ o[q].box, o[q].sub, o[q].mask,
							       (uint32_t)m->nphov_v };
			for (unsigned a = 0; a < UCM_NATTR; a++)
				if (o[q].mask >> a & 1)
					pv[m->nphov_v++] = o[q].v[a];
		}
	}
	for (size_t k = 0; k < n; k++) {
		m->phent[m->nphent + k] = e[k];
		if (e[k].ov)
			m->phent[m->nphent + k].ov = (uint32_t)m->nphov + e[k].ov;
	}
	v = &m->bv[m->nbv];
	*v = (struct ucm_bvec){ box, (uint32_t)m->nphent, (uint32_t)n, (uint32_t)m->nphov,
				(uint32_t)on, m->boxes[box].def->type->clock, h };
	mask = 2 * m->capbv - 1;
	for (i = (uint32_t)h & mask; m->bv_slot[i]; i = (i + 1) & mask)
		;
	m->bv_slot[i] = (int32_t)m->nbv + 1;
	/* its epoch scratch written (zero, as it is): an epoch reads it
	 * before writing it, and a mapping's page read first is the kernel's
	 * zero page, which the write then faults out again (two faults) */
	m->bv_stamp[m->nbv] = 0;
	m->agg_bvacc[m->nbv] = 0;
	m->agg_bvseen[m->nbv] = 0;
	m->nphent += n;
	m->nphov += on;
	return (int)m->nbv++;
}

/* Box box's inputs e[0..n) in the order given (inc their values) and
 * attributes o[0..on) (v[0] the attribute, v[1] its value) made what a
 * box vector holds: sorted, of a sub-event given twice the last, zero
 * inputs dropped, each event code's sum within its maximum.  Both arrays
 * are rewritten.  Returns the box vector's id. */
static int bv_make(struct ucm_model *m, uint32_t box, struct ucm_phent *e, size_t n,
		   struct ucm_phov *o, size_t on)
{
	const struct ucm_box *b = &m->boxes[box];
	size_t k = 0, ko = 0;
	int rc = 0;

	sort_ent(e, n);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && e[j + 1].sub == e[i].sub)
			j++;
		if (e[j].inc)
			e[k++] = (struct ucm_phent){ box, e[i].sub, e[j].inc, 0 };
		i = j + 1;
	}
	/* each event code's sum within its maximum */
	for (size_t a = 0; a < k; a++)
		m->def_code[b->sub[e[a].sub].code] += e[a].inc;
	for (size_t a = 0; a < k && !rc; a++) {
		unsigned code = b->sub[e[a].sub].code;

		if (m->def_code[code] > b->code[code].max) {
			const struct ucm_evcode *ec = &b->def->type->codes[code];
			char name[96];

			rc = ucm_seterr(m, -ERANGE,
					"%s%u %s: increment %llu per cycle exceeds the event's "
					"maximum %u (%s)",
					b->def->type->name, b->def->inst,
					ucm_subev_name(b->def->type, e[a].sub, name, sizeof(name)),
					(unsigned long long)m->def_code[code], ec->max_inc, ec->cite);
		}
	}
	for (size_t a = 0; a < k; a++)
		m->def_code[b->sub[e[a].sub].code] = 0;
	if (rc)
		return rc;
	/* the attributes, merged per sub-event (of one given twice the last) */
	sort_ov(o, on);
	for (size_t i = 0; i < on;) {
		struct ucm_phov merged = { box, o[i].sub, 0, { 0 } };
		size_t j = i;

		for (; j < on && o[j].sub == o[i].sub; j++) {
			merged.mask |= 1u << o[j].v[0];
			merged.v[o[j].v[0]] = o[j].v[1];
		}
		o[ko++] = merged;
		i = j;
	}
	/* each input's attributes, where some are given (both sorted) */
	for (size_t i = 0, q = 0; i < k && q < ko;) {
		if (o[q].sub < e[i].sub) {
			q++;
		} else if (o[q].sub == e[i].sub) {
			e[i++].ov = (uint32_t)++q;
		} else {
			i++;
		}
	}
	return bv_intern(m, box, e, k, o, ko);
}

/* Scratch of a definition sized for n inputs and nat attributes. */
static int def_room(struct ucm_model *m, size_t n, size_t nat)
{
	size_t nb = (size_t)m->nboxes + 1, nc = 0;
	void *p;

	if (!m->def_cnt) {
		for (unsigned bi = 0; bi < m->nboxes; bi++)
			if (m->boxes[bi].def->type->ncodes > nc)
				nc = m->boxes[bi].def->type->ncodes;
		m->def_cnt = calloc(nb, sizeof(*m->def_cnt));
		m->def_ocnt = calloc(nb, sizeof(*m->def_ocnt));
		m->def_ids = calloc(nb, sizeof(*m->def_ids));
		m->def_code = calloc(nc + 1, sizeof(*m->def_code));
		if (!m->def_cnt || !m->def_ocnt || !m->def_ids || !m->def_code) {
			free(m->def_cnt);
			free(m->def_ocnt);
			free(m->def_ids);
			free(m->def_code);
			m->def_cnt = m->def_ocnt = m->def_ids = NULL;
			m->def_code = NULL;
			return ucm_seterr(m, -ENOMEM, "out of memory");
		}
	}
	if (!(p = grow_to(m->def_e, &m->cap_def_e, n ? n : 1, sizeof(*m->def_e), 64)))
		return ucm_seterr(m, -ENOMEM, "out of memory");
	m->def_e = p;
	if (!(p = grow_to(m->def_o, &m->cap_def_o, nat ? nat : 1, sizeof(*m->def_o), 16)))
		return ucm_seterr(m, -ENOMEM, "out of memory");
	m->def_o = p;
	return 0;
}

static int check_in(struct ucm_model *m, const struct ucm_phase_in *in, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (in[i].box < 0 || (unsigned)in[i].box >= m->nboxes)
			return ucm_seterr(m, -ENOENT, "phase input %zu: no box %d", i, in[i].box);
		if (in[i].sub >= m->boxes[in[i].box].nsub)
			return ucm_seterr(m, -ENOENT, "phase input %zu: %s%u has no sub-event %u", i,
					  m->boxes[in[i].box].def->type->name,
					  m->boxes[in[i].box].def->inst, in[i].sub);
	}
	return 0;
}

static int check_at(struct ucm_model *m, const struct ucm_phase_attr *at, size_t nat)
{
	for (size_t i = 0; i < nat; i++)
		if (at[i].box < 0 || (unsigned)at[i].box >= m->nboxes ||
		    at[i].sub >= m->boxes[at[i].box].nsub || at[i].attr >= UCM_NATTR)
			return ucm_seterr(m, -ENOENT, "phase attribute %zu: no box %d sub-event %u "
					  "attribute %u", i, at[i].box, at[i].sub, at[i].attr);
	return 0;
}

int ucm_boxvec_define(struct ucm_model *m, int box, const struct ucm_phase_in *in, size_t n,
		      const struct ucm_phase_attr *at, size_t nat)
{
	int rc;

	if (box < 0 || (unsigned)box >= m->nboxes)
		return ucm_seterr(m, -ENOENT, "no box %d", box);
	if ((rc = check_in(m, in, n)) || (rc = check_at(m, at, nat)) || (rc = def_room(m, n, nat)))
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (in[i].box != box)
			return ucm_seterr(m, -EINVAL, "box vector of box %d: input %zu is of box %d",
					  box, i, in[i].box);
		m->def_e[i] = (struct ucm_phent){ (uint32_t)box, in[i].sub, in[i].inc, 0 };
	}
	for (size_t i = 0; i < nat; i++) {
		if (at[i].box != box)
			return ucm_seterr(m, -EINVAL, "box vector of box %d: attribute %zu is of box %d",
					  box, i, at[i].box);
		m->def_o[i] = (struct ucm_phov){ (uint32_t)box, at[i].sub, 0, { 0 } };
		m->def_o[i].v[0] = at[i].attr;
		m->def_o[i].v[1] = at[i].v;
	}
	return bv_make(m, (uint32_t)box, m->def_e, n, m->def_o, nat);
}

/* Whether each clock's part of every phase is still the same with phase
 * ids[0, n) added (m->nparts): compared with the one part while there is
 * one, nothing once a clock has two.  A clock's part: the box vectors of
 * its boxes, in the phase's order (by box).  *ov: the attributes of its
 * box vectors (in the same pass: the same loads). */
static int parts_add(struct ucm_model *m, const uint32_t *ids, size_t n, uint32_t *ov)
{
	unsigned nc = m->plat->nclocks < UCM_MAXCLK ? m->plat->nclocks : UCM_MAXCLK;
	unsigned first = !m->nph, open = 0;
	uint32_t at[UCM_MAXCLK] = { 0 };
	uint8_t differ[UCM_MAXCLK] = { 0 };

	for (unsigned d = 0; d < nc; d++) {
		open |= (unsigned)(first || m->nparts[d] == 1) << d;
		if (first)
			m->one_n[d] = 0;
	}
	*ov = 0;
	for (size_t i = 0; i < n; i++) {
		const struct ucm_bvec *v = &m->bv[ids[i]];
		unsigned d = v->clock;

		*ov += v->ov_n;
		if (d >= UCM_MAXCLK || !(open >> d & 1))
			continue;
		if (first) {
			if (m->one_n[d] == m->one_cap[d]) {
				uint32_t cap = m->one_cap[d] ? 2 * m->one_cap[d] : 16;
				uint32_t *p = realloc(m->one_ids[d], cap * sizeof(*p));

				if (!p)
					return ucm_seterr(m, -ENOMEM, "out of memory");
				m->one_ids[d] = p;
				m->one_cap[d] = cap;
			}
			m->one_ids[d][m->one_n[d]++] = ids[i];
		} else if (at[d] >= m->one_n[d] || m->one_ids[d][at[d]++] != ids[i]) {
			differ[d] = 1;
		}
	}
	for (unsigned d = 0; d < nc; d++)
		if (first)
			m->nparts[d] = 1;
		else if (open >> d & 1 && (differ[d] || at[d] != m->one_n[d]))
			m->nparts[d] = 2;
	return 0;
}

/* A phase of box vectors ids[0..n), sorted by box, one per box, none
 * empty.  An epoch going on only sees its arrays grow. */
static int phase_add(struct ucm_model *m, const uint32_t *ids, size_t n)
{
	uint32_t ov = 0;

	if (m->nph >= UCM_MAXPHASES)
		return ucm_seterr(m, -ENOSPC, "at most %u phases", UCM_MAXPHASES);
	if (!m->agg_lvl) {
		size_t nc = (size_t)m->nboxes * UCM_MAXCTR, nctr = 0;

		/* at most every counter detects edges: words of bits a phase */
		for (unsigned bi = 0; bi < m->nboxes; bi++)
			nctr += m->boxes[bi].def->type->nctr;
		m->agg_wmax = (unsigned)((nctr + 63) / 64);
		m->agg_lvl = calloc(nc, sizeof(*m->agg_lvl));
		m->agg_edge = calloc(nc, sizeof(*m->agg_edge));
		m->agg_in = calloc(nc, sizeof(*m->agg_in));
		m->agg_eidx = calloc(nc, sizeof(*m->agg_eidx));
		m->agg_boxedge = calloc(m->nboxes, sizeof(*m->agg_boxedge));
		m->agg_cm = calloc((size_t)(UCM_MAXCLK + 2) * m->agg_wmax, sizeof(*m->agg_cm));
		if (!m->agg_lvl || !m->agg_edge || !m->agg_in || !m->agg_eidx || !m->agg_boxedge ||
		    !m->agg_cm) {
			agg_scratch_free(m);
			return ucm_seterr(m, -ENOMEM, "out of memory");
		}
		m->agg_entry = m->agg_cm + (size_t)UCM_MAXCLK * m->agg_wmax;
		m->agg_zpat = m->agg_entry + m->agg_wmax;
	}
	if (m->nph == m->acc_cap) {
		/* the per-phase sums and scratch of an epoch, which one going on
		 * may be using: the new part zero (acc: no cycles; ph_cmp: no
		 * valid record, see agg_begin), as ucm_grow
		 * adds it, each page written first when a phase needs it */
		unsigned cap = m->acc_cap ? 2 * m->acc_cap : 16;
		int ok = 1;

		for (unsigned d = 0; d < UCM_MAXCLK; d++) {
			m->acc[d] = grow_all(m->acc[d], sizeof(*m->acc[d]), cap, &ok);
			m->acc_list[d] = grow_all(m->acc_list[d], sizeof(*m->acc_list[d]), cap, &ok);
		}
		m->ph_cmp = grow_all(m->ph_cmp, sizeof(*m->ph_cmp), (size_t)cap * (m->agg_wmax + 1),
				     &ok);
		if (!ok)
			return ucm_seterr(m, -ENOMEM, "out of memory");
		m->acc_cap = cap;
	}
	if (m->nph == m->capph) {
		unsigned cap = m->capph ? 2 * m->capph : 16;
		struct ucm_phdef *p = ucm_grow(m->ph, sizeof(*p), cap);

		if (!p)
			return ucm_seterr(m, -ENOMEM, "out of memory");
		m->ph = p;
		m->capph = cap;
	}
	{
		uint32_t *p = grow_to(m->phbv, &m->capphbv, m->nphbv + n, sizeof(*p), 256);

		if (!p)
			return ucm_seterr(m, -ENOMEM, "out of memory");
		m->phbv = p;
	}
	if (parts_add(m, ids, n, &ov))
		return -ENOMEM;
	memcpy(m->phbv + m->nphbv, ids, n * sizeof(*ids));
	/* its sums and comparison record written (zero, as they are; and
	 * zero past nph * (agg_wlast + 1) words of ph_cmp stays so): an epoch
	 * reads them before writing them (see bv_intern) */
	for (unsigned d = 0; d < m->plat->nclocks; d++)
		m->acc[d][m->nph] = 0;
	m->ph_cmp[(size_t)m->nph * (m->agg_wlast + 1)] = 0;
	m->ph[m->nph] = (struct ucm_phdef){ (uint32_t)m->nphbv, (uint32_t)n, ov };
	m->nphbv += n;
	if (ov > m->max_ov)
		m->max_ov = ov;
	return (int)m->nph++;
}

int ucm_phase_define_boxvecs(struct ucm_model *m, const int *ids, size_t n)
{
	uint32_t *s, *bx;
	size_t k = 0;
	int rc;

	if ((rc = def_room(m, 0, 0)))
		return rc;
	s = m->def_ids;
	bx = m->def_ocnt; /* their boxes, beside them (scratch of nboxes + 1) */
	for (size_t i = 0; i < n; i++) {
		const struct ucm_bvec *v;
		uint32_t box;
		size_t j;

		if (ids[i] < 0 || (uint32_t)ids[i] >= m->nbv)
			return ucm_seterr(m, -ENOENT, "no box vector %d (%u defined)", ids[i], m->nbv);
		v = &m->bv[ids[i]];
		if (!v->n && !v->ov_n)
			continue; /* nothing to enter */
		if (k == m->nboxes)
			return ucm_seterr(m, -EINVAL, "two box vectors of box %u", v->box);
		/* by box (usually given in order: insertion) */
		box = v->box;
		for (j = k; j > 0 && bx[j - 1] > box; j--) {
			s[j] = s[j - 1];
			bx[j] = bx[j - 1];
		}
		if (j > 0 && bx[j - 1] == box)
			return ucm_seterr(m, -EINVAL, "two box vectors of box %u", box);
		s[j] = (uint32_t)ids[i];
		bx[j] = box;
		k++;
	}
	return phase_add(m, s, k);
}

int ucm_phase_define(struct ucm_model *m, const struct ucm_phase_in *in, size_t n)
{
	return ucm_phase_define_attrs(m, in, n, NULL, 0);
}

int ucm_phase_define_attrs(struct ucm_model *m, const struct ucm_phase_in *in, size_t n,
			   const struct ucm_phase_attr *at, size_t nat)
{
	uint32_t *cnt, *ocnt, nids = 0;
	int rc;

	if (m->nph >= UCM_MAXPHASES)
		return ucm_seterr(m, -ENOSPC, "at most %u phases", UCM_MAXPHASES);
	if ((rc = check_in(m, in, n)) || (rc = check_at(m, at, nat)) || (rc = def_room(m, n, nat)))
		return rc;
	cnt = m->def_cnt;
	ocnt = m->def_ocnt;
	/* bucketed by box (counting sort, the order given kept within a box):
	 * afterwards box b's are [cnt[b - 1], cnt[b]) */
	memset(cnt, 0, ((size_t)m->nboxes + 1) * sizeof(*cnt));
	memset(ocnt, 0, ((size_t)m->nboxes + 1) * sizeof(*ocnt));
	for (size_t i = 0; i < n; i++)
		cnt[in[i].box + 1]++;
	for (size_t i = 0; i < nat; i++)
		ocnt[at[i].box + 1]++;
	for (unsigned b = 0; b < m->nboxes; b++) {
		cnt[b + 1] += cnt[b];
		ocnt[b + 1] += ocnt[b];
	}
	for (size_t i = 0; i < n; i++)
		m->def_e[cnt[in[i].box]++] = (struct ucm_phent){ (uint32_t)in[i].box, in[i].sub,
								 in[i].inc, 0 };
	for (size_t i = 0; i < nat; i++) {
		struct ucm_phov *o = &m->def_o[ocnt[at[i].box]++];

		*o = (struct ucm_phov){ (uint32_t)at[i].box, at[i].sub, 0, { 0 } };
		o->v[0] = at[i].attr;
		o->v[1] = at[i].v;
	}
	for (unsigned b = 0; b < m->nboxes; b++) {
		uint32_t e0 = b ? cnt[b - 1] : 0, o0 = b ? ocnt[b - 1] : 0;
		const struct ucm_bvec *v;

		if (e0 == cnt[b] && o0 == ocnt[b])
			continue;
		rc = bv_make(m, b, m->def_e + e0, cnt[b] - e0, m->def_o + o0, ocnt[b] - o0);
		if (rc < 0)
			return rc;
		v = &m->bv[rc];
		if (v->n || v->ov_n)
			m->def_ids[nids++] = (uint32_t)rc;
	}
	return phase_add(m, m->def_ids, nids);
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
static uint64_t ctr_in_bv(const struct ucm_model *m, const struct ucm_ctr *c,
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

	return ctr_in_bv(m, c, x < 0 ? NULL : &m->bv[m->phbv[x]], cmp);
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

		ctr_in_bv(m, &b->ctr[ci], v, &cmp);
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
