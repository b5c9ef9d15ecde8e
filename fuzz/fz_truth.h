/*
 * fz_truth.h - the check the driver harnesses share: every driver counter
 * equals what the model counted between the driver's first and last read,
 * and the driver made no strict-mode record.
 */
#ifndef FZ_TRUTH_H
#define FZ_TRUTH_H

#include "fz.h"
#include "ucd.h"
#include "ucm.h"

static inline void fz_check_truth(struct ucd *d, struct ucm_model *m, const char *what)
{
	for (size_t i = 0; i < ucd_ncounters(d); i++) {
		struct ucd_ctrinfo ci;
		struct ucm_truth t;

		ucd_counter(d, i, &ci);
		ucm_truth(m, ucm_box_find(m, ci.socket, ci.box->type->name, ci.box->inst), ci.ctr, &t);
		if (t.reads && ci.total != t.last_read - t.first_read)
			FZ_FAIL("%s: counter %zu (%s%u.%u): driver %llu, truth %llu", what, i,
				ci.box->type->name, ci.box->inst, ci.ctr, (unsigned long long)ci.total,
				(unsigned long long)(t.last_read - t.first_read));
	}
	if (ucm_strict_count(m)) {
		char line[512];

		ucm_strict_format(m, 0, line, sizeof(line));
		FZ_FAIL("%s: the driver programmed against the manual: %s", what, line);
	}
}

#endif
