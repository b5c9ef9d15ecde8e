/*
 * ucm_check.c - the manual's rules for a counter control value, in one
 * place: strict mode records a write that breaks them, and the driver
 * refuses to program one.
 */
#include <errno.h>
#include <stdio.h>

#include "ucm.h"

/* A selecting group needs a programmed bit in common with the sub-event's;
 * a restricting group (grp_restrict) with none of its bits programmed lets
 * every sub-event through.  An exact code selects the sub-event whose value
 * the umask is. */
static int subev_selected(const struct ucm_evcode *ec, unsigned s, uint64_t umask)
{
	if (ec->flags & UCM_EC_EXACT)
		return (umask & 0xFF) == ec->subs[s].match[0];
	for (unsigned g = 0; g < ec->ngrp; g++) {
		uint64_t gm = umask & ec->grp_mask[g];

		if (!gm && (ec->grp_restrict & (1u << g)))
			continue;
		if (!(gm & ec->subs[s].match[g]))
			return 0;
	}
	return 1;
}

int ucm_umask_selects(const struct ucm_evcode *ec, unsigned sub, uint64_t umask)
{
	return sub < ec->nsubs && subev_selected(ec, sub, umask);
}

uint64_t ucm_umask_defined(const struct ucm_evcode *ec)
{
	uint64_t defined = 0;

	for (unsigned s = 0; s < ec->nsubs; s++)
		for (unsigned g = 0; g < ec->ngrp; g++)
			defined |= ec->subs[s].match[g] & ec->grp_mask[g];
	for (unsigned r = 0; r < ec->nrules; r++)
		defined |= ec->rules[r].umask_bits;
	return defined;
}

const struct ucm_evcode *ucm_ctl_code(const struct ucm_boxtype *bt, const struct ucm_layout *l,
				      uint64_t val, unsigned *code, const struct ucm_evcode **occ)
{
	const struct ucm_field *fev = ucm_layout_field(l, UCM_R_EVSEL);
	unsigned c;

	*occ = NULL;
	if (!fev) {
		*code = 0;
		return NULL;
	}
	c = (unsigned)ucm_field_get(fev, val) |
	    (unsigned)ucm_field_get(ucm_layout_field(l, UCM_R_EXTSEL), val) << 8;
	*code = c;
	if (ucm_layout_field(l, UCM_R_OCC_SEL) && (c & 0x80)) {
		/* Xeon Table 2-75: EV_SEL bit 7 asks for an occupancy sub-counter;
		 * the code flagged UCM_EC_OCC is that sub-counter alone, any other
		 * code is the base event qualified by it (Table 2-80). */
		for (unsigned i = 0; i < bt->ncodes; i++)
			if (bt->codes[i].flags & UCM_EC_OCC)
				*occ = &bt->codes[i];
		if (*occ && (*occ)->code != c) {
			*code = c & ~0x80u;
			return ucm_code_find(bt, *code);
		}
	}
	return ucm_code_find(bt, c);
}

static int check_code(const struct ucm_evcode *ec, int ctr, unsigned code, char *why, size_t n)
{
	if (ctr >= 0 && !(ec->ctr_mask & (1u << ctr))) {
		snprintf(why, n,
			 "event 0x%02x (%s) is not allowed on counter %d: valid counters mask 0x%x (%s)",
			 code, ec->name, ctr, ec->ctr_mask, ec->cite);
		return -EINVAL;
	}
	return 0;
}

int ucm_ctl_check(const struct ucm_boxtype *bt, const struct ucm_layout *l, int ctr,
		  uint64_t val, char *why, size_t n)
{
	const struct ucm_field *fthr = ucm_layout_field(l, UCM_R_THRESH);
	const struct ucm_field *fev = ucm_layout_field(l, UCM_R_EVSEL);
	const struct ucm_evcode *ec, *occ;
	unsigned code;
	uint64_t umask, bad;
	int any = 0;

	if (fthr && !ucm_field_get(fthr, val) &&
	    (ucm_field_get(ucm_layout_field(l, UCM_R_INV), val) ||
	     ucm_field_get(ucm_layout_field(l, UCM_R_EDGE), val))) {
		snprintf(why, n,
			 "INV or edge detect with THRESH=0: they follow the threshold compare, which THRESH=0 disables (%s)",
			 l->cite);
		return -EINVAL;
	}
	if (!fev)
		return 0;
	ec = ucm_ctl_code(bt, l, val, &code, &occ);
	if (occ) {
		if (!ucm_field_get(ucm_layout_field(l, UCM_R_OCC_SEL), val)) {
			snprintf(why, n,
				 "EV_SEL bit 7 asks for an occupancy sub-counter but OCC_SEL is 0 (01 C0, 10 C3, 11 C6 only: %s)",
				 l->cite);
			return -EINVAL;
		}
		if (!fthr || !ucm_field_get(fthr, val)) {
			if (ec != occ) {
				snprintf(why, n,
					 "event 0x%02x qualified by an occupancy sub-counter with THRESH=0: the threshold is the occupancy compare (%s, Table 2-80)",
					 code, l->cite);
				return -EINVAL;
			}
			if (ucm_field_get(ucm_layout_field(l, UCM_R_OCC_INV), val) ||
			    ucm_field_get(ucm_layout_field(l, UCM_R_OCC_EDGE), val)) {
				snprintf(why, n,
					 "occ_invert or occ_edge_det with THRESH=0: they follow the threshold compare (%s)",
					 l->cite);
				return -EINVAL;
			}
		}
		if (check_code(occ, ctr, occ->code, why, n))
			return -EINVAL;
	}
	if (!ec) {
		/* cite the event table (where the codes are), not the box's section */
		snprintf(why, n, "event code 0x%02x is not in the %s event table (%s)", code,
			 bt->name, bt->ncodes ? bt->codes[0].cite : bt->cite);
		return -EINVAL;
	}
	if (check_code(ec, ctr, code, why, n))
		return -EINVAL;
	if (!ec->nsubs || (ec->flags & UCM_EC_OCC))
		return 0;
	umask = ucm_field_get(ucm_layout_field(l, UCM_R_UMASK), val);
	bad = umask & ~ucm_umask_defined(ec);
	if (bad) {
		snprintf(why, n, "umask bits 0x%02llx of %s are not defined (%s)",
			 (unsigned long long)bad, ec->name, ec->cite);
		return -EINVAL;
	}
	for (unsigned s = 0; s < ec->nsubs; s++)
		any |= subev_selected(ec, s, umask);
	if (!any) {
		snprintf(why, n,
			 "umask 0x%02llx selects no sub-event of %s: every selecting umask group needs a bit (%s)",
			 (unsigned long long)umask, ec->name, ec->cite);
		return -EINVAL;
	}
	return 0;
}
