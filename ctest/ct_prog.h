/*
 * ct_prog.h - every counter of a model programmed at random from a seed,
 * the same in several models: shared by the tests and fuzz harnesses that
 * compare two ways of driving the model (ctest/t_phase.c, fuzz/fuzz_phase.c).
 * Header-only: the fuzz harnesses do not link the test harness.
 */
#ifndef CT_PROG_H
#define CT_PROG_H

#include <stdint.h>

#include "ucm.h"

static inline uint64_t ct_rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A control value: enabled, an event of the box's table, random umask bits
 * of it, THRESH 0 half the time, INV, edge, OVF_EN, TID_EN, OCC_SEL. */
static inline uint64_t ct_ctl_value(const struct ucm_reginfo *ri, uint64_t *r)
{
	const struct ucm_boxtype *bt = ri->box->type;
	const struct ucm_layout *l = ri->layout;
	const struct ucm_evcode *ec = bt->ncodes ? &bt->codes[ct_rng(r) % bt->ncodes] : NULL;
	uint64_t v = 0;

	for (unsigned i = 0; i < l->nfields; i++) {
		const struct ucm_field *f = &l->fields[i];
		uint64_t x = 0;

		switch (f->role) {
		case UCM_R_EN: x = 1; break;
		case UCM_R_EVSEL: x = ec ? ec->code & 0xff : 0; break;
		case UCM_R_EXTSEL: x = ec ? ec->code >> 8 & 1 : 0; break;
		case UCM_R_UMASK: x = ec ? ucm_umask_defined(ec) & ct_rng(r) : 0; break;
		case UCM_R_THRESH: x = ct_rng(r) % 2 ? ct_rng(r) % 4 : 0; break;
		case UCM_R_INV: case UCM_R_EDGE: case UCM_R_OCC_INV: case UCM_R_OCC_EDGE:
			x = ct_rng(r) % 4 == 0;
			break;
		case UCM_R_OVF_EN: case UCM_R_TID_EN: x = ct_rng(r) % 2; break;
		case UCM_R_OCC_SEL: x = ct_rng(r) % 4; break;
		default: break;
		}
		v = ucm_field_put(f, v, x);
	}
	return v;
}

/* The same programming in models ms[0..n): the global enable with PMIs to
 * core 0 (and freeze on PMI where asked), every control, filter registers
 * random small values (attributes 0-7 pass some), a quarter of the
 * counters within 3e6 of their wrap.  Returns the index of a register the
 * models took differently, or -1. */
static inline long ct_program(struct ucm_model *const *ms, unsigned n, uint64_t seed,
			      int frz_on_pmi)
{
	size_t nr = ucm_nregs(ms[0]);

	for (size_t i = 0; i < nr; i++) {
		struct ucm_reginfo ri;
		uint64_t v = 0, r = (seed | 1) + i * 0x9E3779B97F4A7C15ull;
		int rc0;

		ucm_reginfo(ms[0], i, &ri);
		ct_rng(&r);
		if (ri.kind == UCM_K_CTL) {
			v = ct_ctl_value(&ri, &r);
		} else if (ri.kind == UCM_K_CTR && ri.space != UCM_MMIO && ct_rng(&r) % 4 == 0) {
			const struct ucm_field *f = ucm_layout_field(ri.layout, UCM_R_VALUE);

			v = f ? ucm_field_mask(f) - ct_rng(&r) % 3000000 : 0;
		} else if (ri.kind == UCM_K_FILTER) {
			v = ct_rng(&r) & 0x0707070707070707ull;
		} else if (ri.kind == UCM_K_GLOBAL_CTL) {
			for (unsigned k = 0; k < ri.layout->nfields; k++) {
				const struct ucm_field *f = &ri.layout->fields[k];

				if (f->role == UCM_R_GLOBAL_EN || (f->role == UCM_R_PMI_SEL && f->arg == 0) ||
				    (f->role == UCM_R_FRZ_ON_PMI && frz_on_pmi))
					v = ucm_field_put(f, v, 1);
			}
		} else {
			continue;
		}
		rc0 = ucm_write_index(ms[0], i, v);
		for (unsigned k = 1; k < n; k++)
			if (ucm_write_index(ms[k], i, v) != rc0)
				return (long)i;
	}
	return -1;
}

#endif
