/*
 * ucm_check.c - the manual's rules for a counter control value, in one
 * place: strict mode records a write that breaks them, and the driver
 * refuses to program one.
 */
#include <errno.h>
#include <stdio.h>

#include "ucm.h"

static int subev_selected(const struct ucm_evcode *ec, unsigned s, uint64_t umask)
{
	for (unsigned g = 0; g < ec->ngrp; g++)
		if (!(umask & ec->grp_mask[g] & ec->subs[s].match[g]))
			return 0;
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
	return defined;
}

int ucm_ctl_check(const struct ucm_boxtype *bt, const struct ucm_layout *l, int ctr,
		  uint64_t val, char *why, size_t n)
{
	const struct ucm_field *fthr = ucm_layout_field(l, UCM_R_THRESH);
	const struct ucm_field *fev = ucm_layout_field(l, UCM_R_EVSEL);
	const struct ucm_evcode *ec;
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
	code = (unsigned)ucm_field_get(fev, val);
	ec = ucm_code_find(bt, code);
	if (!ec) {
		/* cite the event table (where the codes are), not the box's section */
		snprintf(why, n, "event code 0x%02x is not in the %s event table (%s)", code,
			 bt->name, bt->ncodes ? bt->codes[0].cite : bt->cite);
		return -EINVAL;
	}
	if (ctr >= 0 && !(ec->ctr_mask & (1u << ctr))) {
		snprintf(why, n,
			 "event 0x%02x (%s) is not allowed on counter %d: valid counters mask 0x%x (%s)",
			 code, ec->name, ctr, ec->ctr_mask, ec->cite);
		return -EINVAL;
	}
	if (!ec->nsubs)
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
			 "umask 0x%02llx selects no sub-event of %s: every umask group needs a bit (%s)",
			 (unsigned long long)umask, ec->name, ec->cite);
		return -EINVAL;
	}
	return 0;
}
