/*
 * ucm_truth.c - what the model reports beside its registers: each
 * counter's ground truth (the increments it received, its wraps, its
 * reads and sets), what each sub-event was fed, the PMIs requested and
 * delivered, the freezes; and the observer that is told of every change.
 * These read through an epoch of summed phases without ending it.
 */
#include <errno.h>
#include <string.h>

#include "ucm_internal.h"

/* ---- ground truth ---- */

uint64_t ucm_fed(const struct ucm_model *m, int box, unsigned sub)
{
	const struct ucm_box *b;
	const struct ucm_sub *s;

	if (box < 0 || (unsigned)box >= m->nboxes || sub >= m->boxes[box].nsub)
		return 0;
	b = &m->boxes[box];
	s = &b->sub[sub];
	if (m->agg)
		return ucm_agg_fed(m, box, sub);
	return s->fed + (uint64_t)s->input * (m->clk_cycles[b->def->type->clock] - s->c0);
}

void ucm_truth_mark(struct ucm_model *m)
{
	for (unsigned i = 0; i < m->nboxes; i++)
		for (unsigned c = 0; c < UCM_MAXCTR; c++) {
			m->boxes[i].ctr[c].reads = 0;
			m->boxes[i].ctr[c].write_ps = 0;
		}
}

int ucm_truth(const struct ucm_model *m, int box, unsigned ctr, struct ucm_truth *t)
{
	const struct ucm_ctr *c;
	uint64_t val;

	if (box < 0 || (unsigned)box >= m->nboxes || ctr >= m->boxes[box].def->type->nctr)
		return -ENOENT;
	c = &m->boxes[box].ctr[ctr];
	ucm_ctr_view(m, c, &val, &t->total, &t->wraps);
	t->first_read = c->first_read;
	t->last_read = c->last_read;
	t->reads = c->reads;
	t->first_value = c->first_value;
	t->last_value = c->last_value;
	t->first_ps = c->first_ps;
	t->last_ps = c->last_ps;
	t->write_total = c->write_total;
	t->write_ps = c->write_ps;
	t->since_set = c->last_since;
	t->prev_read = c->prev_read;
	t->prev_ps = c->prev_ps;
	return 0;
}

/* ---- interrupts and freezes ---- */

void ucm_pmi_stats(const struct ucm_model *m, unsigned socket, unsigned core,
		   struct ucm_pmi_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (socket < m->nsockets && core < m->ncores) {
		*st = m->sockets[socket].pmi[core];
		/* the requests the uncore raised, whichever cores they went to
		 * (deliver_pmi counts them per socket only) */
		st->requests = m->sockets[socket].pmi_requests;
	}
}

uint64_t ucm_pmi_requests(const struct ucm_model *m, unsigned socket)
{
	return socket < m->nsockets ? m->sockets[socket].pmi_requests : 0;
}

void ucm_set_observer(struct ucm_model *m, ucm_obs_fn fn, void *ctx)
{
	/* an observer sees every change: no phase sums from here */
	ucm_agg_exit(m);
	m->obs_fn = fn;
	m->obs_ctx = ctx;
}

int ucm_box_frozen(const struct ucm_model *m, int box)
{
	const struct ucm_box *b;

	if (box < 0 || (unsigned)box >= m->nboxes)
		return 0;
	b = &m->boxes[box];
	return b->frz_en && b->frozen;
}

int ucm_global_frozen(const struct ucm_model *m, unsigned socket)
{
	return socket < m->nsockets && m->sockets[socket].gfrozen;
}

uint64_t ucm_overflow_freezes(const struct ucm_model *m, unsigned socket)
{
	return socket < m->nsockets ? m->sockets[socket].freezes : 0;
}
