/*
 * ubn_g4_work.c - G4 on G1's work: every workload and trace kind of every
 * platform for a short stretch, the driver programming and sampling as in
 * G1 through a backend that does each access on both the model and the
 * naive reference (fuzz/ref_model.c); a read, register, PMI count or clock
 * that differs ends the run with an error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ref_model.h"
#include "ubn.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"
#include "uct.h"
#include "uct_derive.h"
#include "uct_trace.h"

/* The reference fed a trace's segments as the replay feeds the model: each
 * segment's inputs (summed where several name one sub-event) and
 * attributes, the table's attributes and no input elsewhere, sleep states
 * changed where the masks change.  The table's attributes are the model's
 * before it ran (attr0; the reference sets its own when first asked for
 * them, and the model's change as it runs ahead of the reference). */
struct refeed {
	struct ref_model *r;
	struct ucm_model *m;           /* the boxes, in the model's order */
	int rbox[REF_MAXBOX];          /* the reference's box of each model box */
	uint32_t set[4096];            /* (model box << 16 | sub) given by the last segment */
	size_t nset;
	uint64_t asleep[UCT_MAXSOCK];
	uint64_t *attr0;               /* box b's sub-event sub: attr0[aoff[b] + sub * UCM_NATTR] */
	size_t aoff[REF_MAXBOX + 1];
};

static void refeed_seg(struct refeed *f, const struct uct_seg *s)
{
	const struct ucm_platform *p = ucm_platform_of(f->m);

	for (size_t k = 0; k < f->nset; k++) {
		int mb = (int)(f->set[k] >> 16), b = f->rbox[mb];
		unsigned sub = f->set[k] & 0xffff;

		ref_set_input(f->r, b, sub, 0);
		for (unsigned a = 0; a < UCM_NATTR; a++)
			ref_set_input_attr(f->r, b, sub, a, f->attr0[f->aoff[mb] + sub * UCM_NATTR + a]);
	}
	f->nset = 0;
	for (unsigned i = 0; s && i < s->nin; i++) {
		const struct uct_in *in = &s->in[i];

		for (unsigned mb = 0; mb < ucm_box_count(f->m); mb++) {
			const struct ucm_boxinst *bi = ucm_box_def(f->m, (int)mb);
			int b = f->rbox[mb];

			if (ucm_boxtype_index(p, bi->type) != in->bt || ucm_box_socket(f->m, (int)mb) != in->socket ||
			    (in->inst >= 0 && bi->inst != (unsigned)in->inst))
				continue;
			if (f->nset == sizeof(f->set) / sizeof(f->set[0]))
				ubn_die("reference", "a segment gives more inputs than the feed holds");
			f->set[f->nset++] = mb << 16 | in->sub;
			ref_set_input(f->r, b, in->sub, f->r->boxes[b].input[in->sub] + in->inc);
			for (unsigned a = 0; a < UCM_NATTR; a++)
				if (in->amask >> a & 1)
					ref_set_input_attr(f->r, b, in->sub, a, in->attr[a]);
		}
	}
	for (unsigned so = 0; so < f->r->nsockets && so < UCT_MAXSOCK; so++) {
		uint64_t want = s ? s->asleep[so] : 0;

		for (unsigned c = 0; c < f->r->ncores && c < 64; c++)
			if ((want ^ f->asleep[so]) >> c & 1)
				f->r->sock[so].asleep[c] = (uint8_t)(want >> c & 1);
		f->asleep[so] = want;
	}
}

/* The model against the reference: every register, then each core's PMIs
 * (delivered, woken, dropped) and sleep state, each socket's PMI requests,
 * every clock's cycles and the time.  0, or 1 and what differs in why. */
static int differs(struct ucm_model *m, const struct ref_model *r, char *why, size_t n)
{
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		uint64_t v = 0;
		int k;

		if (ucm_reginfo(m, i, &ri) || ucm_peek_index(m, i, &v))
			continue;
		k = ref_find(r, ri.space, ri.socket, ri.addr);
		if (k < 0 || ref_peek(r, (unsigned)k) != v) {
			snprintf(why, n, "%s of socket %u reads 0x%llx in the model, %s%llx in the reference",
				 ri.name, ri.socket, (unsigned long long)v, k < 0 ? "nothing (not found) " : "0x",
				 k < 0 ? 0ull : (unsigned long long)ref_peek(r, (unsigned)k));
			return 1;
		}
	}
	for (unsigned so = 0; so < r->nsockets; so++) {
		for (unsigned c = 0; c < r->ncores; c++) {
			struct ucm_pmi_stats st;

			ucm_pmi_stats(m, so, c, &st);
			if (st.delivered != r->sock[so].delivered[c] || st.wakes != r->sock[so].wakes[c] ||
			    st.dropped != r->sock[so].dropped[c] || ucm_core_asleep(m, so, c) != r->sock[so].asleep[c]) {
				snprintf(why, n, "socket %u core %u: PMIs delivered/woken/dropped %llu/%llu/%llu, "
					 "asleep %d in the model, %llu/%llu/%llu, %d in the reference", so, c,
					 (unsigned long long)st.delivered, (unsigned long long)st.wakes,
					 (unsigned long long)st.dropped, ucm_core_asleep(m, so, c),
					 (unsigned long long)r->sock[so].delivered[c],
					 (unsigned long long)r->sock[so].wakes[c],
					 (unsigned long long)r->sock[so].dropped[c], r->sock[so].asleep[c]);
				return 1;
			}
		}
		if (ucm_pmi_requests(m, so) != r->sock[so].pmi_requests) {
			snprintf(why, n, "socket %u: %llu PMI requests in the model, %llu in the reference", so,
				 (unsigned long long)ucm_pmi_requests(m, so),
				 (unsigned long long)r->sock[so].pmi_requests);
			return 1;
		}
	}
	for (unsigned d = 0; d < ucm_platform_of(m)->nclocks; d++)
		if (ucm_cycles(m, d) != r->cycles[d]) {
			snprintf(why, n, "clock %u: %llu cycles in the model, %llu in the reference", d,
				 (unsigned long long)ucm_cycles(m, d), (unsigned long long)r->cycles[d]);
			return 1;
		}
	if (ucm_now_ps(m) != r->now_ps) {
		snprintf(why, n, "time %llu ps in the model, %llu in the reference",
			 (unsigned long long)ucm_now_ps(m), (unsigned long long)r->now_ps);
		return 1;
	}
	return 0;
}

/* --near-wrap: every writable counter set 0 to 976 events short of its
 * wrap (by its place, so that they overflow at different times), through
 * the backend as a driver would write it, so that overflow, status, PMI
 * and freeze happen within even the shortest stretch of G1's work. */
static void near_wrap(struct ucm_model *m, struct ucb *be)
{
	unsigned cpus = ucm_cpus_per_socket(m);

	for (size_t i = 0, k = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		uint64_t v;
		int rc;

		if (ucm_reginfo(m, i, &ri) || ri.kind != UCM_K_CTR || !ri.rw_mask || ri.space == UCM_MMIO)
			continue;
		v = (ri.rw_mask - 61 * (k++ % 17)) & ri.rw_mask;
		if (ri.space == UCM_MSR) {
			rc = ucb_msr_write(be, ri.socket * cpus, (uint32_t)ri.addr, v);
		} else {
			struct ucb_pci d = { 0, (uint8_t)(ri.addr >> 20), (uint8_t)(ri.addr >> 15 & 31),
					     (uint8_t)(ri.addr >> 12 & 7) };

			/* configuration space is dword-wide: low, then high */
			rc = ucb_pci_write(be, &d, (unsigned)ri.addr & 0xFFF, 4, v & 0xFFFFFFFF);
			if (!rc && ri.width > 32)
				rc = ucb_pci_write(be, &d, ((unsigned)ri.addr & 0xFFF) + 4, 4, v >> 32);
		}
		if (rc)
			ubn_die("--near-wrap", ucb_error(be));
	}
}

/* A workload's phase k as a segment of the reference's feed: its inputs
 * and those the platform's rules derive from them (uct_phase_vector, as
 * uct_attach feeds the model), on every socket. */
static void wl_seg(const struct ucm_model *m, const struct uct_workload_def *wd, unsigned k,
		   struct uct_seg *s)
{
	struct uct_in v[UCT_MAXIN];
	unsigned nv;
	char err[256];

	if (uct_phase_vector(m, wd, k, v, &nv, err, sizeof(err)))
		ubn_die("workload", err);
	memset(s, 0, sizeof(*s));
	for (unsigned so = 0; so < ucm_nsockets(m); so++)
		for (unsigned i = 0; i < nv && s->nin < UCT_MAXIN; i++) {
			s->in[s->nin] = v[i];
			s->in[s->nin++].socket = (uint8_t)so;
		}
}

/* The reference's side of the work, run up to any time: the feed's
 * inputs changed at the same times as the model's source changes them (a
 * trace's segment boundaries from the cycle of clock 0 at which its replay
 * was attached; a workload's phases from time 0 with uct_attach's jitter:
 * each phase's nominal length +-25% from the seeded generator,
 * trace/uct_workload.c).  As in the model, a change due at the time run to
 * is made when time goes past it. */
struct refrun {
	struct refeed f;
	struct uct_seg *s;
	/* a trace: its reader, once attached (base: the cycle it started) */
	struct uct_reader *rd;
	int attached, ended, pending; /* pending: s read, not yet given */
	uint64_t base, at;            /* at: cycle the inputs given last until */
	/* a workload */
	const struct uct_workload_def *wd;
	uint64_t rng, next_ps;
	unsigned k;
};

static void refrun_to(struct refrun *x, uint64_t t)
{
	struct ref_model *r = x->f.r;

	if (x->wd)
		while (x->next_ps < t) {
			uint64_t ns = x->wd->phases[x->k].ns;

			ref_advance(r, x->next_ps);
			wl_seg(x->f.m, x->wd, x->k, x->s);
			refeed_seg(&x->f, x->s);
			x->next_ps += (ns - ns / 4 + uct_rand(&x->rng) % (ns / 2 + 1)) * 1000;
			x->k = (x->k + 1) % x->wd->nphases;
		}
	while (x->attached && !x->ended && ref_edge_time(r, 0, x->base + x->at) < t) {
		int rc;

		ref_advance(r, ref_edge_time(r, 0, x->base + x->at));
		if (!x->pending && (rc = uct_next(x->rd, x->s)) <= 0) {
			if (rc < 0)
				ubn_die("trace", uct_reader_error(x->rd));
			refeed_seg(&x->f, NULL); /* the end: idle, the cores awake */
			x->ended = 1;
		} else if (x->s->start > x->at) {
			refeed_seg(&x->f, NULL); /* a gap is idle */
			x->at = x->s->start;
			x->pending = 1;
		} else {
			refeed_seg(&x->f, x->s);
			x->at = x->s->start + x->s->ncycles;
			x->pending = 0;
		}
	}
	ref_advance(r, t);
}

/* The backend the driver is given: the simulated one, each operation done
 * again on the reference at the model's time after it (an access costs
 * its time first, then acts), a read answering the same or the run
 * stops.  Waits run the reference to where the model stopped (a PMI's
 * time). */
struct shadow {
	struct ucb *sim;
	struct ucm_model *m;
	struct refrun *x;
	char bad[768];                /* the first difference */
};

/* The model's answer (a, va) against the reference's (rb, vb): both
 * failing, or both the same value, passes the model's on; otherwise the
 * access fails with the first difference, kept for the run's error. */
static int shadow_check(struct ucb *b, const char *what, int a, int rb, uint64_t va, uint64_t vb)
{
	struct shadow *sh = b->priv;

	if ((a == 0) == (rb == 0) && (a || va == vb))
		return a ? ucb_seterr(b, a, "%s", ucb_error(sh->sim)) : 0;
	if (!sh->bad[0])
		snprintf(sh->bad, sizeof(sh->bad),
			 "%s at %llu ps: the model answers rc %d, 0x%llx; the reference rc %d, 0x%llx", what,
			 (unsigned long long)ucm_now_ps(sh->m), a, (unsigned long long)va, rb,
			 (unsigned long long)vb);
	return ucb_seterr(b, -EIO, "%s", sh->bad);
}

/* The simulated backend. */
static struct ucb *SIM(struct ucb *b)
{
	return ((struct shadow *)b->priv)->sim;
}

/* The reference, run to the model's time. */
static struct ref_model *SH(struct ucb *b)
{
	struct shadow *sh = b->priv;

	refrun_to(sh->x, ucm_now_ps(sh->m));
	return sh->x->f.r;
}

static int sh_msr_read(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t *val)
{
	uint64_t v = 0;
	int a = ucb_msr_read(SIM(b), cpu, addr, val), rb = ref_msr_read(SH(b), cpu, addr, &v);
	char what[64];

	snprintf(what, sizeof(what), "rdmsr 0x%x on cpu %u", addr, cpu);
	return shadow_check(b, what, a, rb, *val, v);
}

static int sh_msr_write(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t val)
{
	int a = ucb_msr_write(SIM(b), cpu, addr, val), rb = ref_msr_write(SH(b), cpu, addr, val);
	char what[64];

	snprintf(what, sizeof(what), "wrmsr 0x%x on cpu %u", addr, cpu);
	return shadow_check(b, what, a, rb, 0, 0);
}

static int sh_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width,
		       uint64_t *val)
{
	uint64_t v = 0;
	int a = ucb_pci_read(SIM(b), d, off, width, val),
	    rb = ref_pci_read(SH(b), d->bus, d->dev, d->fn, off, width, &v);
	char what[64];

	snprintf(what, sizeof(what), "PCI read %02x:%02x.%x+0x%x/%u", d->bus, d->dev, d->fn, off, width);
	return shadow_check(b, what, a, rb, *val, v);
}

static int sh_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width,
			uint64_t val)
{
	int a = ucb_pci_write(SIM(b), d, off, width, val),
	    rb = ref_pci_write(SH(b), d->bus, d->dev, d->fn, off, width, val);
	char what[64];

	snprintf(what, sizeof(what), "PCI write %02x:%02x.%x+0x%x/%u", d->bus, d->dev, d->fn, off, width);
	return shadow_check(b, what, a, rb, 0, 0);
}

static int sh_mmio_read(struct ucb *b, uint64_t pa, unsigned width, uint64_t *val)
{
	uint64_t v = 0;
	int a = ucb_mmio_read(SIM(b), pa, width, val), rb = ref_mmio_read(SH(b), pa, width, &v);
	char what[64];

	snprintf(what, sizeof(what), "MMIO read 0x%llx/%u", (unsigned long long)pa, width);
	return shadow_check(b, what, a, rb, *val, v);
}

static int sh_mmio_write(struct ucb *b, uint64_t pa, unsigned width, uint64_t val)
{
	int a = ucb_mmio_write(SIM(b), pa, width, val), rb = ref_mmio_write(SH(b), pa, width, val);
	char what[64];

	snprintf(what, sizeof(what), "MMIO write 0x%llx/%u", (unsigned long long)pa, width);
	return shadow_check(b, what, a, rb, 0, 0);
}

/* The simulated backend's answer, its message carried over. */
static int sh_pass(struct ucb *b, int rc)
{
	return rc ? ucb_seterr(b, rc, "%s", ucb_error(SIM(b))) : 0;
}

static int sh_cpuid(struct ucb *b, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	return sh_pass(b, ucb_cpuid(SIM(b), cpu, leaf, sub, r));
}

static int sh_socket_cpu(struct ucb *b, unsigned socket, unsigned *cpu)
{
	return sh_pass(b, ucb_socket_cpu(SIM(b), socket, cpu));
}

static int sh_now_ns(struct ucb *b, uint64_t *ns)
{
	return sh_pass(b, ucb_now_ns(SIM(b), ns));
}

static int sh_sleep_ns(struct ucb *b, uint64_t ns)
{
	int rc = ucb_sleep_ns(SIM(b), ns);

	SH(b);
	return sh_pass(b, rc);
}

static int sh_wait_pmi(struct ucb *b, uint64_t ns, int *pmi)
{
	int rc = ucb_wait_pmi(SIM(b), ns, pmi);

	SH(b);
	return sh_pass(b, rc);
}

static void sh_destroy(struct ucb *b)
{
	(void)b; /* the shadow and the simulated backend are g4_session's */
}

static const struct ucb_ops shadow_ops = {
	.name = "sim+reference",
	.msr_read = sh_msr_read,
	.msr_write = sh_msr_write,
	.pci_read = sh_pci_read,
	.pci_write = sh_pci_write,
	.mmio_read = sh_mmio_read,
	.mmio_write = sh_mmio_write,
	.cpuid = sh_cpuid,
	.socket_cpu = sh_socket_cpu,
	.now_ns = sh_now_ns,
	.sleep_ns = sh_sleep_ns,
	.wait_pmi = sh_wait_pmi,
	.destroy = sh_destroy,
};

/* Whether the platform's uncore raises PMIs (a global control with PMI_SEL
 * fields): where sampling (--sample-period) applies. */
static int raises_pmi(const struct ucm_platform *p)
{
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_regdef *g = ucm_regdef_find(p->boxes[i].type, UCM_K_GLOBAL_CTL, 0);

		if (g && ucm_layout_field(g->layout, UCM_R_PMI_SEL))
			return 1;
	}
	return 0;
}

/* One session of G4 on G1's work: a feed (a workload, or the trace at ubn_tmp)
 * run by the driver for `secs` as in G1 (no access cost, see below); with
 * x, on the shadow backend, the reference run with it access by access and
 * both compared before the run and at its end.  Returns the CPU time of
 * the run (the driver's ucd_run). */
static double g4_session(const struct ucm_platform *p, const struct ubn_feed *fd, double secs,
			 struct refrun *x, const char *what, struct ubn_prog *pr, uint64_t *wraps,
			 uint64_t *pmis)
{
	static struct ref_model ref;
	struct ucm_config cfg;
	struct ucm_model *m = NULL;
	struct uct_reader *r = NULL, *r2 = NULL;
	struct uct_replay *rp = NULL;
	struct uct_wl *w = NULL;
	struct ucb *sim = NULL, shb, *be = &shb;
	struct shadow sh;
	struct ucd *d = NULL;
	struct ucd_opts o = { NULL, 0, 0, 0, 0, raises_pmi(p) ? ubn_g4_period : 0 };
	char err[768];
	double t;

	ucm_config_init(&cfg, p);
	if (fd->kind) {
		if (uct_open(ubn_tmp, &r, err, sizeof(err)) || (x && uct_open(ubn_tmp, &r2, err, sizeof(err))))
			ubn_die(ubn_tmp, err);
		uct_config(uct_header(r), &cfg);
	}
	/* accesses cost no time: the reference walks every cycle, and the
	 * driver's thousands of programming accesses would be most of them */
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_PCI] = cfg.access_ps[UCM_MMIO] = 0;
	if (ucm_create(&cfg, &m))
		ubn_die(what, m ? ucm_error(m) : "model");
	if (fd->wd && uct_attach(m, fd->wd, ubn_seed, &w, err, sizeof(err)))
		ubn_die(what, err);
	if (ucb_sim_create(m, &sim))
		ubn_die(what, "backend");
	if (x) {
		memset(x, 0, sizeof(*x));
		if (!(x->s = malloc(sizeof(*x->s))))
			ubn_die(what, "out of memory");
		if (ref_init(&ref, p, cfg.ninst, cfg.sockets, cfg.clock_hz, cfg.pci_bus, cfg.node_id) ||
		    ucm_box_count(m) > REF_MAXBOX)
			ubn_die(what, "beyond the reference's limits");
		x->f.r = &ref;
		x->f.m = m;
		for (unsigned b = 0; b < ucm_box_count(m); b++) {
			if ((x->f.rbox[b] = ref_box_find(&ref, ucm_box_socket(m, (int)b),
							 ucm_box_def(m, (int)b)->type->name,
							 ucm_box_def(m, (int)b)->inst)) < 0)
				ubn_die(what, "a box of the model is not in the reference");
			x->f.aoff[b + 1] = x->f.aoff[b] +
					   (size_t)ucm_subev_count(ucm_box_def(m, (int)b)->type) * UCM_NATTR;
		}
		if (!(x->f.attr0 = malloc((x->f.aoff[ucm_box_count(m)] + 1) * sizeof(uint64_t))))
			ubn_die(what, "out of memory");
		for (unsigned b = 0; b < ucm_box_count(m); b++)
			for (unsigned sub = 0; sub < ucm_subev_count(ucm_box_def(m, (int)b)->type); sub++)
				for (unsigned a = 0; a < UCM_NATTR; a++)
					x->f.attr0[x->f.aoff[b] + sub * UCM_NATTR + a] =
						ucm_get_input_attr(m, (int)b, sub, a);
		x->wd = fd->wd;
		x->rng = ubn_seed; /* uct_attach's seed above */
		sh = (struct shadow){ sim, m, x, "" };
		memset(&shb, 0, sizeof(shb));
		shb.ops = &shadow_ops;
		shb.priv = &sh;
	} else {
		be = sim;
		sh.bad[0] = 0;
	}
	if (ucd_open(be, &o, &d))
		ubn_die(what, sh.bad[0] ? sh.bad : d ? ucd_error(d) : "driver");
	ubn_program_all(d, m, pr);
	if (sh.bad[0])
		ubn_die(what, sh.bad);
	if (ucd_start(d))
		ubn_die(what, sh.bad[0] ? sh.bad : ucd_error(d));
	if (ubn_wrap_soon)
		near_wrap(m, be);
	if (x && differs(m, &ref, err, sizeof(err))) {
		char why[900];

		snprintf(why, sizeof(why), "programmed, before the run: %s", err);
		ubn_die(what, why);
	}
	if (r) {
		if (uct_replay_attach(m, r, &rp))
			ubn_die(ubn_tmp, "replay");
		if (x) {
			x->rd = r2;
			x->base = ucm_cycles(m, 0);
			x->attached = 1;
		}
	}
	t = ubn_now();
	if (ucd_run(d, (uint64_t)(secs * 1e9), 0, NULL, NULL))
		ubn_die(what, sh.bad[0] ? sh.bad : ucd_error(d));
	t = ubn_now() - t;
	if (x) {
		refrun_to(x, ucm_now_ps(m));
		if (differs(m, &ref, err, sizeof(err)))
			ubn_die(what, err);
		*wraps = *pmis = 0;
		for (unsigned b = 0; b < ucm_box_count(m); b++)
			for (unsigned c = 0; c < ucm_box_def(m, (int)b)->type->nctr; c++) {
				struct ucm_truth tt;

				if (!ucm_truth(m, (int)b, c, &tt))
					*wraps += tt.wraps;
			}
		for (unsigned so = 0; so < ucm_nsockets(m); so++)
			*pmis += ucm_pmi_requests(m, so);
		free(x->s);
		free(x->f.attr0);
	}
	ucd_close(d);
	ucb_destroy(sim);
	uct_replay_detach(rp);
	uct_close(r);
	uct_close(r2);
	uct_detach(w);
	ucm_destroy(m);
	return t;
}

/* One feed of G1: timed on the model alone, then checked and timed on the
 * model with the reference beside it (the difference of the two is the
 * reference's time; the driver's is in both, so the ratio it gives the
 * model is if anything low). */
static void g4_work_run(const struct ucm_platform *p, const struct ubn_feed *fd, double secs)
{
	static struct refrun x;
	struct ubn_prog pr;
	char what[96];
	uint64_t wraps = 0, pmis = 0;
	double tm, tb;

	if (fd->kind && ubn_gen_trace(p, fd->kind, secs))
		return;
	snprintf(what, sizeof(what), "%s %s %s", p->name, fd->kind ? "trace" : "workload",
		 fd->kind ? fd->kind : fd->wd->name);
	tm = g4_session(p, fd, secs, NULL, what, &pr, &wraps, &pmis);
	tb = g4_session(p, fd, secs, &x, what, &pr, &wraps, &pmis);
	printf("%-6s %-16s %4u/%-4u %7llu %7llu %12.4f %12.6f %11.0fx%s\n", p->name,
	       what + strlen(p->name) + 1, pr.placed, pr.total, (unsigned long long)wraps,
	       (unsigned long long)pmis, tb - tm, tm, (tb - tm) / tm,
	       (tb - tm) / tm >= 1000 ? "" : "   (< 1000x)");
	unlink(ubn_tmp);
}

/* G4 on the work of G1: every workload and trace kind of every platform,
 * every counter programmed by the driver as G1 programs it, a short
 * stretch (the reference walks every cycle). */
void ubn_g4_work(void)
{
	double secs = ubn_quick ? 2e-6 : 100e-6;

	printf("\n## G4 on G1's work: %.0f simulated us of each, every counter programmed as in G1%s%s; "
	       "every register, PMI and clock of both equal at the end\n", secs * 1e6,
	       ubn_wrap_soon ? ", set near its wrap" : "",
	       ubn_g4_period ? ", the driver sampling where the uncore raises PMIs" : "");
	printf("%-6s %-16s %9s %7s %7s %12s %14s %12s\n", "plat", "feed", "counters", "wraps", "PMIs",
	       "reference s", "model+driver s", "ratio");
	ubn_each_feed(g4_work_run, secs);
}
