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

struct uct_wl {
	struct ucm_model *m;
	const struct uct_workload_def *def;
	int *pid;                  /* per phase: the model's phase */
	unsigned phase;
	int attached;              /* the model's workload */
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
	struct ucm_phase_in *in;
	unsigned cap = 0;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->m = m;
	w->def = def;
	w->rng = seed;
	/* room for every box an input of the largest phase can name, in every
	 * socket */
	for (unsigned p = 0; p < def->nphases; p++) {
		unsigned k = 0;

		for (unsigned i = 0; i < def->phases[p].nin; i++)
			for (unsigned b = 0; b < ucm_box_count(m); b++)
				k += !strcmp(ucm_box_def(m, (int)b)->type->name, def->phases[p].in[i].box);
		cap = k > cap ? k : cap;
	}
	w->pid = calloc(def->nphases, sizeof(int));
	in = calloc(cap ? cap : 1, sizeof(*in));
	if (!w->pid || !in) {
		free(in);
		uct_detach(w);
		return -ENOMEM;
	}
	/* each phase's inputs on the boxes it names, made a model phase (checked
	 * against the event maxima once) */
	for (unsigned p = 0; p < def->nphases; p++) {
		const struct uct_phase *ph = &def->phases[p];
		unsigned nin = 0;
		int id;

		for (unsigned i = 0; i < ph->nin; i++) {
			const struct uct_input *u = &ph->in[i];
			int found = 0;

			for (unsigned b = 0; b < ucm_box_count(m); b++) {
				const struct ucm_boxinst *bi = ucm_box_def(m, (int)b);
				int sub;

				if (strcmp(bi->type->name, u->box) ||
				    (u->inst >= 0 && bi->inst != (unsigned)u->inst))
					continue;
				found = 1;
				sub = ucm_subev_find(bi->type, u->sub);
				if (sub < 0) {
					snprintf(err, n, "workload %s phase %s: %s has no sub-event %s",
						 def->name, ph->name, u->box, u->sub);
					free(in);
					uct_detach(w);
					return -EINVAL;
				}
				in[nin++] = (struct ucm_phase_in){ (int)b, (unsigned)sub, u->inc };
			}
			/* an instance the configured model lacks (e.g. cbo3 with
			 * two CBos) is skipped; an unknown box type is an error */
			if (!found && !ucm_boxtype_find(ucm_platform_of(m), u->box)) {
				snprintf(err, n, "workload %s phase %s: no box type %s", def->name,
					 ph->name, u->box);
				free(in);
				uct_detach(w);
				return -EINVAL;
			}
		}
		id = ucm_phase_define(m, in, nin);
		if (id < 0) {
			snprintf(err, n, "workload %s phase %s: %s", def->name, ph->name, ucm_error(m));
			free(in);
			uct_detach(w);
			return id;
		}
		w->pid[p] = id;
	}
	free(in);
	ucm_set_workload(m, step, w);
	w->attached = 1;
	*out = w;
	return 0;
}

void uct_detach(struct uct_wl *w)
{
	if (!w)
		return;
	if (w->attached)
		ucm_set_workload(w->m, NULL, NULL);
	free(w->pid);
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
