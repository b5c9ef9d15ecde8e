/*
 * ucd_place.c - counter placement, and adding events.  Placement assigns
 * each parsed event a counter in every box instance it counts in, within
 * the valid-counter columns of the event tables, and says exactly which
 * event could not be placed and who holds the counters it may use.
 * ucd_add_events() parses a list (ucd_parse.c), places it, and on failure
 * puts every counter already placed back where it was.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ucd_internal.h"

static int same_config(const struct ucd *d, size_t a, size_t b)
{
	return d->ev[a].box == d->ev[b].box && d->ev[a].ctl == d->ev[b].ctl &&
	       d->ev[a].code == d->ev[b].code &&
	       !memcmp(d->ev[a].filt_mask, d->ev[b].filt_mask, sizeof(d->ev[a].filt_mask)) &&
	       !memcmp(d->ev[a].filt, d->ev[b].filt, sizeof(d->ev[a].filt));
}

/* Assign counters to the list of placements in one box by backtracking. */
static int match(struct ucd *d, size_t *list, size_t n, size_t k, uint32_t used)
{
	if (k == n)
		return 1;
	for (unsigned c = 0; c < 32; c++) {
		if (!(d->ev[d->ctr[list[k]].ev].ctr_mask & (1u << c)) || (used & (1u << c)))
			continue;
		if (c >= d->ctr[list[k]].bi->type->nctr)
			break;
		d->ctr[list[k]].idx = c;
		if (match(d, list, n, k + 1, used | (1u << c)))
			return 1;
	}
	return 0;
}

static void describe_counters(const struct ucd_ev *e, char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = 0;
	for (unsigned c = 0; c < 32 && k < n; c++)
		if (e->ctr_mask & (1u << c))
			k += (size_t)snprintf(buf + k, n - k, "%s%u", k ? "," : "", c);
}

static int place_in_box(struct ucd *d, size_t ev, unsigned socket, const struct ucm_boxinst *bi)
{
	size_t list[32], n = 0, me;
	struct ucd_ctr *c;

	if (d->nctr == UCD_MAXCTRS)
		return ucd_seterr(d, -ENOSPC, "too many counters");
	c = &d->ctr[d->nctr];
	memset(c, 0, sizeof(*c));
	c->ev = ev;
	c->socket = socket;
	c->bi = bi;
	c->shared_with = -1;
	/* an identical configuration already counting here is read, not copied */
	for (size_t j = 0; j < d->nctr; j++)
		if (d->ctr[j].socket == socket && d->ctr[j].bi == bi && d->ctr[j].shared_with < 0 &&
		    same_config(d, d->ctr[j].ev, ev)) {
			c->shared_with = (int)j;
			c->idx = d->ctr[j].idx;
			d->nctr++;
			return 0;
		}
	for (size_t j = 0; j < d->nctr; j++) {
		const struct ucd_ev *o = &d->ev[d->ctr[j].ev], *e = &d->ev[ev];

		if (d->ctr[j].socket != socket || d->ctr[j].bi != bi)
			continue;
		/* one set of filter registers per box: shared only with equal values */
		for (unsigned k = 0; k < UCM_MAXFILT; k++) {
			uint64_t clash = (o->filt[k] ^ e->filt[k]) & o->filt_mask[k] & e->filt_mask[k];
			char reg[64];

			if (!clash)
				continue;
			snprintf(reg, sizeof(reg), ucm_regdef_find(bi->type, UCM_K_FILTER, k)->name, bi->inst);
			return ucd_seterr(d, -EBUSY,
					  "cannot place '%s' (col %zu) on %s%u: '%s' needs other values in the filter register %s (bits 0x%llx differ); events share a filter only with equal values (%s)",
					  e->name, e->col, bi->type->name, bi->inst, o->name, reg,
					  (unsigned long long)clash, bi->type->cite);
		}
		if (d->ctr[j].shared_with < 0 && n < 31)
			list[n++] = j;
	}
	me = d->nctr;
	list[n++] = me;
	d->nctr++;
	{
		unsigned saved[32];

		for (size_t j = 0; j + 1 < n; j++)
			saved[j] = d->ctr[list[j]].idx;
		if (match(d, list, n, 0, 0))
			return 0;
		/* the search moved counters already placed: put them back */
		for (size_t j = 0; j + 1 < n; j++)
			d->ctr[list[j]].idx = saved[j];
	}
	d->nctr--;
	{
		const struct ucd_ev *e = &d->ev[ev];
		char allowed[64], holders[256];
		size_t k = 0;

		describe_counters(e, allowed, sizeof(allowed));
		holders[0] = 0;
		for (size_t j = 0; j + 1 < n; j++)
			k += (size_t)snprintf(holders + k, sizeof(holders) - (k < sizeof(holders) ? k : sizeof(holders)),
					      "%s'%s'", j ? ", " : "", d->ev[d->ctr[list[j]].ev].name);
		return ucd_seterr(d, -ENOSPC,
				  "cannot place '%s' (col %zu) on %s%u: it may only use counter(s) %s of %u (%s); "
				  "the box's counters are taken by %s",
				  e->name, e->col, bi->type->name, bi->inst, allowed, bi->type->nctr,
				  e->code->cite, n > 1 ? holders : "nothing (too few counters)");
	}
}

int ucd_place(struct ucd *d, size_t first_new)
{
	for (size_t ev = first_new; ev < d->nev; ev++) {
		const struct ucd_ev *e = &d->ev[ev];

		if (e->box->space == UCM_MMIO && !d->bar)
			return ucd_seterr(d, -ENODEV,
					  "'%s' (col %zu): the %s are behind a BAR that is disabled or absent (%s)",
					  e->name, e->col, e->box->title, e->box->cite);
		if (e->box->space == UCM_PCI && d->pci_denied[0])
			return ucd_seterr(d, -EACCES,
					  "'%s' (col %zu): the %s is in PCI configuration space, which this user may not read (%s); run as root",
					  e->name, e->col, e->box->title, d->pci_denied);

		for (unsigned s = 0; s < d->nsockets; s++)
			for (unsigned i = 0; i < d->plat->nboxes; i++) {
				const struct ucm_boxinst *bi = &d->plat->boxes[i];
				int rc;

				if (bi->type != e->box || bi->inst >= ucd_ninst(d, bi->type) ||
				    (e->inst >= 0 && bi->inst != (unsigned)e->inst))
					continue;
				if ((rc = place_in_box(d, ev, s, bi)))
					return rc;
			}
	}
	/* addresses follow the final assignment */
	for (size_t j = 0; j < d->nctr; j++) {
		struct ucd_ctr *c = &d->ctr[j];
		const struct ucm_regdef *ctl, *ctr;

		if (c->shared_with >= 0)
			c->idx = d->ctr[c->shared_with].idx;
		ctl = ucm_regdef_find(c->bi->type, UCM_K_CTL, c->idx);
		ctr = ucm_regdef_find(c->bi->type, UCM_K_CTR, c->idx);
		c->has_ctl = ctl != NULL;
		if (ctl)
			ucd_reg_of(d, c->socket, c->bi, ctl, &c->ctl);
		ucd_reg_of(d, c->socket, c->bi, ctr, &c->ctr);
		c->wmask = ucm_field_mask(ucm_layout_field(ctr->layout, UCM_R_VALUE));
	}
	return 0;
}

/* ---- adding events ---- */

int ucd_add_events(struct ucd *d, const char *list)
{
	size_t first = d->nev, nctr = d->nctr;
	int rc;

	unsigned *idx;

	if (d->started)
		return ucd_seterr(d, -EBUSY, "events cannot be added after start");
	/* placement may move counters already placed: a failure puts them back */
	idx = malloc((nctr ? nctr : 1) * sizeof(*idx));
	if (!idx)
		return ucd_seterr(d, -ENOMEM, "out of memory");
	for (size_t j = 0; j < nctr; j++)
		idx[j] = d->ctr[j].idx;
	rc = ucd_parse(d, list);
	if (!rc)
		rc = ucd_place(d, first);
	if (rc) {
		d->nev = first;
		d->nctr = nctr;
		for (size_t j = 0; j < nctr; j++)
			d->ctr[j].idx = idx[j];
	}
	free(idx);
	return rc;
}
