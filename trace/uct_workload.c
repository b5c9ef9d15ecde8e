/*
 * uct_workload.c - phase-table workloads: each phase resolved once into a
 * model phase (ucm_phase_define), then entered by the model's workload
 * callback at O(1) per phase change.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uct.h"

extern const struct uct_workload_def uct_wl_skl_mixed, uct_wl_skl_idle, uct_wl_skl_stream;
extern const struct uct_workload_def uct_wl_snbep_mixed, uct_wl_snbep_idle, uct_wl_snbep_stream;
extern const struct uct_workload_def uct_wl_ivt_mixed, uct_wl_ivt_idle, uct_wl_ivt_stream;

static const struct uct_workload_def *const workloads[] = {
	&uct_wl_skl_mixed,
	&uct_wl_skl_stream,
	&uct_wl_skl_idle,
	&uct_wl_snbep_mixed,
	&uct_wl_snbep_stream,
	&uct_wl_snbep_idle,
	&uct_wl_ivt_mixed,
	&uct_wl_ivt_stream,
	&uct_wl_ivt_idle,
};

const struct uct_workload_def *uct_workload_at(unsigned i)
{
	return i < sizeof(workloads) / sizeof(workloads[0]) ? workloads[i] : NULL;
}

const struct uct_workload_def *uct_workload_find(const char *platform, const char *name)
{
	for (unsigned i = 0; uct_workload_at(i); i++)
		if (strcmp(workloads[i]->platform, platform) == 0 &&
		    strcmp(workloads[i]->name, name) == 0)
			return workloads[i];
	return NULL;
}

struct uct_set {
	int box;
	unsigned sub;
	uint32_t inc;
};

struct uct_wl {
	struct ucm_model *m;
	const struct uct_workload_def *def;
	unsigned *first, *count;   /* per phase: range in sets */
	struct uct_set *sets;
	int *pid;                  /* per phase: the model's phase */
	unsigned nsets, phase;
	uint64_t rng;
};


static int step(struct ucm_model *m, void *ctx, uint64_t now, uint64_t *next)
{
	struct uct_wl *w = ctx;
	const struct uct_phase *ph = &w->def->phases[w->phase];
	uint64_t ns;
	int rc = ucm_phase_enter(m, w->pid[w->phase]);

	if (rc)
		return rc;
	/* +-25% jitter keeps phases from aligning with sampling periods */
	ns = ph->ns - ph->ns / 4 + uct_rand(&w->rng) % (ph->ns / 2 + 1);
	*next = now + ns * 1000;
	w->phase = (w->phase + 1) % w->def->nphases;
	return 0;
}

int uct_attach(struct ucm_model *m, const struct uct_workload_def *def, uint64_t seed,
	       struct uct_wl **out, char *err, size_t n)
{
	struct uct_wl *w = calloc(1, sizeof(*w));
	unsigned cap = 0;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->m = m;
	w->def = def;
	w->rng = seed;
	/* room for every box an input can name, in every socket */
	for (unsigned p = 0; p < def->nphases; p++)
		for (unsigned i = 0; i < def->phases[p].nin; i++)
			for (unsigned b = 0; b < ucm_box_count(m); b++)
				cap += !strcmp(ucm_box_def(m, (int)b)->type->name, def->phases[p].in[i].box);
	w->first = calloc(def->nphases, sizeof(unsigned));
	w->count = calloc(def->nphases, sizeof(unsigned));
	w->pid = calloc(def->nphases, sizeof(int));
	w->sets = calloc(cap ? cap : 1, sizeof(*w->sets));
	if (!w->first || !w->count || !w->pid || !w->sets) {
		uct_detach(w);
		return -ENOMEM;
	}
	for (unsigned p = 0; p < def->nphases; p++) {
		const struct uct_phase *ph = &def->phases[p];

		w->first[p] = w->nsets;
		for (unsigned i = 0; i < ph->nin; i++) {
			const struct uct_input *in = &ph->in[i];
			int found = 0;

			for (unsigned b = 0; b < ucm_box_count(m); b++) {
				const struct ucm_boxinst *bi = ucm_box_def(m, (int)b);
				int sub;

				if (strcmp(bi->type->name, in->box) ||
				    (in->inst >= 0 && bi->inst != (unsigned)in->inst))
					continue;
				found = 1;
				sub = ucm_subev_find(bi->type, in->sub);
				if (sub < 0) {
					snprintf(err, n, "workload %s phase %s: %s has no sub-event %s",
						 def->name, ph->name, in->box, in->sub);
					uct_detach(w);
					return -EINVAL;
				}
				if (w->nsets == cap) {
					snprintf(err, n, "workload %s: too many inputs", def->name);
					uct_detach(w);
					return -ENOSPC;
				}
				w->sets[w->nsets++] = (struct uct_set){ (int)b, (unsigned)sub, in->inc };
			}
			/* an instance the configured model lacks (e.g. cbo3 with
			 * two CBos) is skipped; an unknown box type is an error */
			if (!found && !ucm_boxtype_find(ucm_platform_of(m), in->box)) {
				snprintf(err, n, "workload %s phase %s: no box type %s", def->name,
					 ph->name, in->box);
				uct_detach(w);
				return -EINVAL;
			}
		}
		w->count[p] = w->nsets - w->first[p];
	}
	/* each phase a model phase, checked against the event maxima once */
	for (unsigned p = 0; p < def->nphases; p++) {
		struct ucm_phase_in *in = calloc(w->count[p] ? w->count[p] : 1, sizeof(*in));
		int id;

		if (!in) {
			uct_detach(w);
			return -ENOMEM;
		}
		for (unsigned i = 0; i < w->count[p]; i++)
			in[i] = (struct ucm_phase_in){ w->sets[w->first[p] + i].box,
						       w->sets[w->first[p] + i].sub,
						       w->sets[w->first[p] + i].inc };
		id = ucm_phase_define(m, in, w->count[p]);
		free(in);
		if (id < 0) {
			snprintf(err, n, "workload %s phase %s: %s", def->name, def->phases[p].name,
				 ucm_error(m));
			uct_detach(w);
			return id;
		}
		w->pid[p] = id;
	}
	ucm_set_workload(m, step, w);
	*out = w;
	return 0;
}

void uct_detach(struct uct_wl *w)
{
	if (!w)
		return;
	if (w->m && w->sets)
		ucm_set_workload(w->m, NULL, NULL);
	free(w->first);
	free(w->count);
	free(w->pid);
	free(w->sets);
	free(w);
}

int uct_workload_within(const struct ucm_model *m, const struct uct_workload_def *def, char *err,
			size_t n)
{
	const struct ucm_platform *p = ucm_platform_of(m);
	const struct ucm_limits *l = p->limits;
	const struct ucm_boxtype *bt = l && l->dram_box ? ucm_boxtype_find(p, l->dram_box) : NULL;
	double lines = 0, ns = 0, peak;

	if (!bt || !l->dram_channels)
		return 0;
	for (unsigned k = 0; k < def->nphases; k++) {
		const struct uct_phase *ph = &def->phases[k];
		double per_s = 0;

		for (unsigned i = 0; i < ph->nin; i++) {
			const struct uct_input *in = &ph->in[i];
			int dram = 0;

			if (strcmp(in->box, l->dram_box))
				continue;
			for (unsigned d = 0; d < 2 && l->dram_in[d]; d++)
				dram |= !strncmp(in->sub, l->dram_in[d], strlen(l->dram_in[d])) &&
					(l->dram_in[d][strlen(l->dram_in[d]) - 1] == '.' ||
					 !strcmp(in->sub, l->dram_in[d]));
			if (dram)
				per_s += (double)in->inc * (in->inst < 0 ? ucm_ninst(m, bt) : 1) *
					 (double)ucm_clock_hz(m, bt->clock);
		}
		lines += per_s * (double)ph->ns;
		ns += (double)ph->ns;
	}
	peak = ucm_dram_peak_bps(l);
	if (!ns || lines / ns * 64 <= peak * (1 + 1e-9))
		return 0;
	snprintf(err, n,
		 "%.1f GB/s of DRAM traffic a socket at these clocks exceeds the %.1f GB/s the part "
		 "carries (%u channels of %s, 8 bytes a transfer; %s); --exceed-limits allows it",
		 lines / ns * 64 / 1e9, peak / 1e9, l->dram_channels, l->dram_type, l->dram_cite);
	return -ERANGE;
}
