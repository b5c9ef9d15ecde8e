/*
 * ucm_phase_def.c - phases and box vectors defined (model/ucm.h): each
 * input vector checked against the event maxima once, at its definition,
 * and stored as a list of box vectors (one box's inputs and attributes),
 * each box vector stored once however many phases hold it (interned by
 * content).  Entering a phase and the epochs in which phases are summed:
 * ucm_phase.c; the time summed in an epoch: ucm_phase_time.c.  The tables
 * that grow with what is defined, phases' and epochs' alike, are made and
 * freed here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ucm_grow.h"
#include "ucm_internal.h"

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
