/*
 * ucm_phase.c - phases: whole input vectors defined once and entered many
 * times (model/ucm.h).
 *
 * A workload or a trace usually moves between a few input vectors.  Given
 * as phases, each vector is checked against the event maxima once, at its
 * definition, and entering one is in effect ucm_clear_inputs() followed by
 * ucm_set_input() of each of its inputs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ucm_internal.h"

static int phent_cmp(const void *a, const void *b)
{
	const struct ucm_phent *x = a, *y = b;

	if (x->box != y->box)
		return x->box < y->box ? -1 : 1;
	return x->sub < y->sub ? -1 : x->sub > y->sub;
}

void ucm_phases_free(struct ucm_model *m)
{
	free(m->ph);
	free(m->phent);
	m->ph = NULL;
	m->phent = NULL;
	m->nph = m->capph = 0;
	m->nphent = m->capphent = 0;
}

unsigned ucm_phase_count(const struct ucm_model *m)
{
	return m->nph;
}

int ucm_phase_define(struct ucm_model *m, const struct ucm_phase_in *in, size_t n)
{
	struct ucm_phent *e;
	size_t k = 0;

	if (m->nph >= UCM_MAXPHASES)
		return ucm_seterr(m, -ENOSPC, "at most %u phases", UCM_MAXPHASES);
	if (n > UINT32_MAX - m->nphent)
		return ucm_seterr(m, -ENOSPC, "too many phase inputs");
	for (size_t i = 0; i < n; i++) {
		if (in[i].box < 0 || (unsigned)in[i].box >= m->nboxes)
			return ucm_seterr(m, -ENOENT, "phase input %zu: no box %d", i, in[i].box);
		if (in[i].sub >= m->boxes[in[i].box].nsub)
			return ucm_seterr(m, -ENOENT, "phase input %zu: %s%u has no sub-event %u", i,
					  m->boxes[in[i].box].def->type->name,
					  m->boxes[in[i].box].def->inst, in[i].sub);
	}
	if (m->nph == m->capph) {
		unsigned cap = m->capph ? 2 * m->capph : 16;
		struct ucm_phdef *p = realloc(m->ph, cap * sizeof(*p));

		if (!p)
			return ucm_seterr(m, -ENOMEM, "out of memory");
		m->ph = p;
		m->capph = cap;
	}
	if (!m->phent || m->nphent + n > m->capphent) {
		size_t cap = m->capphent ? m->capphent : 64;
		struct ucm_phent *p;

		while (cap < m->nphent + n)
			cap *= 2;
		p = realloc(m->phent, cap * sizeof(*p));
		if (!p)
			return ucm_seterr(m, -ENOMEM, "out of memory");
		m->phent = p;
		m->capphent = cap;
	}
	/* sorted by (box, sub); of a sub-event listed twice the last counts
	 * (a stable order: the index breaks ties), zeros dropped */
	e = m->phent + m->nphent;
	for (size_t i = 0; i < n; i++)
		e[i] = (struct ucm_phent){ (uint32_t)in[i].box, in[i].sub, (uint32_t)i };
	if (n)
		qsort(e, n, sizeof(*e), phent_cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && e[j + 1].box == e[i].box && e[j + 1].sub == e[i].sub)
			j++;
		/* e[i..j] are one sub-event in input order (qsort is not stable:
		 * the largest index is the last given) */
		{
			uint32_t last = e[i].inc;

			for (size_t q = i; q <= j; q++)
				if (e[q].inc > last)
					last = e[q].inc;
			if (in[last].inc)
				e[k++] = (struct ucm_phent){ e[i].box, e[i].sub, in[last].inc };
		}
		i = j + 1;
	}
	/* each event code's sum within its maximum */
	for (size_t i = 0; i < k;) {
		const struct ucm_box *b = &m->boxes[e[i].box];
		size_t j = i;

		while (j < k && e[j].box == e[i].box)
			j++;
		for (size_t a = i; a < j; a++) {
			unsigned code = b->sub[e[a].sub].code;
			uint64_t sum = 0;

			for (size_t q = i; q < j; q++)
				if (b->sub[e[q].sub].code == code)
					sum += e[q].inc;
			if (sum > b->code[code].max) {
				const struct ucm_evcode *ec = &b->def->type->codes[code];
				char name[96];

				return ucm_seterr(m, -ERANGE,
						  "phase %u: %s%u %s: increment %llu per cycle exceeds "
						  "the event's maximum %u (%s)",
						  m->nph, b->def->type->name, b->def->inst,
						  ucm_subev_name(b->def->type, e[a].sub, name, sizeof(name)),
						  (unsigned long long)sum, ec->max_inc, ec->cite);
			}
		}
		i = j;
	}
	m->ph[m->nph] = (struct ucm_phdef){ (uint32_t)m->nphent, (uint32_t)k };
	m->nphent += k;
	return (int)m->nph++;
}

int ucm_phase_enter(struct ucm_model *m, int id)
{
	const struct ucm_phdef *p;

	if (id < 0 || (unsigned)id >= m->nph)
		return ucm_seterr(m, -ENOENT, "no phase %d (%u defined)", id, m->nph);
	p = &m->ph[id];
	ucm_clear_inputs(m);
	for (uint32_t i = p->first; i < p->first + p->n; i++) {
		int rc = ucm_set_input(m, (int)m->phent[i].box, m->phent[i].sub, m->phent[i].inc);

		if (rc)
			return rc;
	}
	return 0;
}
