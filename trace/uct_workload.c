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
#include "uct_derive.h"

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

/* The clocks and box counts of model m the rules are applied with. */
static void model_dims(const struct ucm_model *m, uint64_t *hz, unsigned *ninst)
{
	const struct ucm_platform *pl = ucm_platform_of(m);

	for (unsigned c = 0; c < pl->nclocks && c < UCM_MAXCLK; c++)
		hz[c] = ucm_clock_hz(m, c);
	for (unsigned b = 0; b < ucm_box_count(m); b++) {
		int t = ucm_boxtype_index(pl, ucm_box_def(m, (int)b)->type);

		if (t >= 0 && t < UCM_MAXBT)
			ninst[t] = ucm_ninst(m, ucm_box_def(m, (int)b)->type);
	}
}

/* Phase k's inputs (socket 0's) and the derived ones, with the rules der
 * resolved for model m. */
static int phase_vector(const struct ucm_model *m, const struct uct_derive *der, const unsigned *ninst,
			const struct uct_workload_def *def, unsigned k, struct uct_in *vec, unsigned *nv,
			char *err, size_t n)
{
	const struct ucm_platform *pl = ucm_platform_of(m);
	const struct uct_phase *ph = &def->phases[k];
	char msg[256];
	int rc;

	*nv = 0;
	for (unsigned i = 0; i < ph->nin; i++) {
		const struct uct_input *u = &ph->in[i];
		const struct ucm_boxtype *bt = ucm_boxtype_find(pl, u->box);
		int sub = bt ? ucm_subev_find(bt, u->sub) : -1;

		if (!bt) {
			snprintf(err, n, "workload %s phase %s: no box type %s", def->name, ph->name, u->box);
			return -EINVAL;
		}
		if (sub < 0) {
			snprintf(err, n, "workload %s phase %s: %s has no sub-event %s", def->name, ph->name,
				 u->box, u->sub);
			return -EINVAL;
		}
		if (*nv == UCT_MAXIN) {
			snprintf(err, n, "workload %s phase %s: more than %d inputs", def->name, ph->name,
				 UCT_MAXIN);
			return -ENOSPC;
		}
		memset(&vec[*nv], 0, sizeof(vec[*nv]));
		vec[*nv].bt = (uint8_t)ucm_boxtype_index(pl, bt);
		vec[*nv].inst = (int16_t)u->inst;
		vec[*nv].sub = (uint16_t)sub;
		vec[(*nv)++].inc = u->inc;
	}
	/* the phase is the same on every socket: derived on socket 0's */
	if ((rc = uct_derive_apply(der, vec, nv, UCT_MAXIN, 1, ninst, 1, msg, sizeof(msg))))
		snprintf(err, n, "workload %s phase %s: %s", def->name, ph->name, msg);
	return rc;
}

int uct_phase_vector(const struct ucm_model *m, const struct uct_workload_def *def, unsigned k,
		     struct uct_in *vec, unsigned *nv, char *err, size_t n)
{
	unsigned ninst[UCM_MAXBT] = { 0 };
	uint64_t hz[UCM_MAXCLK] = { 0 };
	struct uct_derive *der = NULL;
	int rc;

	*nv = 0;
	if (k >= def->nphases) {
		snprintf(err, n, "workload %s has no phase %u", def->name, k);
		return -EINVAL;
	}
	model_dims(m, hz, ninst);
	if (!(rc = uct_derive_new(ucm_platform_of(m), hz, &der, err, n)))
		rc = phase_vector(m, der, ninst, def, k, vec, nv, err, n);
	uct_derive_free(der);
	return rc;
}

int uct_attach(struct ucm_model *m, const struct uct_workload_def *def, uint64_t seed,
	       struct uct_wl **out, char *err, size_t n)
{
	struct uct_wl *w = calloc(1, sizeof(*w));
	struct ucm_phase_in *in;
	struct ucm_phase_attr *at;
	struct uct_in *vec;
	struct uct_derive *der = NULL;
	const struct ucm_platform *pl = ucm_platform_of(m);
	unsigned cap, ninst[UCM_MAXBT] = { 0 };
	uint64_t hz[UCM_MAXCLK] = { 0 };
	int rc;

	*out = NULL;
	if (!w)
		return -ENOMEM;
	w->m = m;
	w->def = def;
	w->rng = seed;
	model_dims(m, hz, ninst);
	/* room for a phase's inputs and the derived ones (at most UCT_MAXIN),
	 * each on every box */
	cap = UCT_MAXIN * (ucm_box_count(m) ? ucm_box_count(m) : 1);
	w->pid = calloc(def->nphases, sizeof(int));
	in = calloc(cap, sizeof(*in));
	at = calloc(cap, sizeof(*at));
	vec = calloc(UCT_MAXIN, sizeof(*vec));
	if (!w->pid || !in || !at || !vec) {
		free(in);
		free(at);
		free(vec);
		uct_detach(w);
		return -ENOMEM;
	}
	/* each phase's inputs, with those the platform's rules derive from
	 * them (uct_derive.c), on the boxes they name: a model phase (checked
	 * against the event maxima once) */
	rc = uct_derive_new(pl, hz, &der, err, n);
	for (unsigned p = 0; !rc && p < def->nphases; p++) {
		const struct uct_phase *ph = &def->phases[p];
		unsigned nin = 0, nat = 0, nv = 0;
		int id;

		if ((rc = phase_vector(m, der, ninst, def, p, vec, &nv, err, n)))
			break;
		for (unsigned i = 0; i < nv; i++)
			for (unsigned b = 0; b < ucm_box_count(m); b++) {
				const struct ucm_boxinst *bi = ucm_box_def(m, (int)b);

				/* an instance the configured model lacks (e.g. cbo3
				 * with two CBos) is skipped */
				if (ucm_boxtype_index(pl, bi->type) != vec[i].bt ||
				    (vec[i].inst >= 0 && bi->inst != (unsigned)vec[i].inst))
					continue;
				in[nin++] = (struct ucm_phase_in){ (int)b, vec[i].sub, vec[i].inc };
				for (unsigned a = 0; a < UCM_NATTR; a++)
					if (vec[i].amask >> a & 1)
						at[nat++] = (struct ucm_phase_attr){ (int)b, vec[i].sub, a,
										     vec[i].attr[a] };
			}
		id = ucm_phase_define_attrs(m, in, nin, at, nat);
		if (id < 0) {
			snprintf(err, n, "workload %s phase %s: %s", def->name, ph->name, ucm_error(m));
			rc = id;
			break;
		}
		w->pid[p] = id;
	}
	uct_derive_free(der);
	free(vec);
	free(at);
	if (rc) {
		free(in);
		uct_detach(w);
		return rc;
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
