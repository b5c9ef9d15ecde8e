/*
 * t_phase.c - phases (ucm_phase_define/ucm_phase_enter) count exactly what
 * the same inputs set one by one count.
 *
 * Two models of a platform get the same programming: every counter of every
 * box holds an event of its table with random THRESH, INV, edge and OVF_EN,
 * filter registers random small values (attributes 0-7 pass some),
 * some counters preloaded near their wrap (so overflows, status bits, PMIs
 * and freezes happen during the run).  One model is then driven by phases,
 * the other by ucm_clear_inputs() and ucm_set_input() of the same vectors,
 * through the same sequence of time, PMI waits, reads, control writes and
 * direct input changes.  At checkpoints every register, every counter's
 * ground truth, every sub-event's fed total, the PMI counts and the clocks
 * of the two must be equal.  Between checkpoints the phase model is not
 * looked at, so its summed time over many phase changes is what is checked.
 */
#include <errno.h>
#include <stdlib.h>

#include "ct.h"
#include "ct_prog.h"
#include "ct_rig.h"
#include "ucm.h"

/* phases of a run: up to 100, defined before and during the run */
#define NPH 100

struct vec {
	size_t n;
	struct ucm_phase_in in[96];
};

/* A random input vector within every event's maximum. */
static void make_vec(struct ucm_model *m, uint64_t *r, struct vec *v, size_t want)
{
	v->n = 0;
	for (size_t k = 0; k < want * 4 && v->n < want && v->n < 96; k++) {
		int box = (int)(ct_rng(r) % ucm_box_count(m));
		const struct ucm_boxtype *bt = ucm_box_def(m, box)->type;
		unsigned nsub = ucm_subev_count(bt), sub;
		const struct ucm_evcode *ec;
		uint64_t sum = 0;
		uint32_t inc;

		if (!nsub)
			continue;
		sub = (unsigned)(ct_rng(r) % nsub);
		ec = ucm_subev_code(bt, sub);
		for (size_t i = 0; i < v->n; i++) {
			const struct ucm_evcode *e2 = ucm_subev_code(bt, v->in[i].sub);

			if (v->in[i].box == box && v->in[i].sub == sub)
				sum = UINT64_MAX; /* listed: skip */
			else if (v->in[i].box == box && e2 == ec && sum != UINT64_MAX)
				sum += v->in[i].inc;
		}
		if (sum >= ec->max_inc)
			continue;
		inc = 1 + (uint32_t)(ct_rng(r) % (ec->max_inc - sum));
		v->in[v->n++] = (struct ucm_phase_in){ box, sub, inc };
	}
}

static void apply_vec(struct ucm_model *m, const struct vec *v)
{
	ucm_clear_inputs(m);
	for (size_t i = 0; i < v->n; i++)
		CT_EQ(ucm_set_input(m, v->in[i].box, v->in[i].sub, v->in[i].inc), 0);
}

static void compare(struct ucm_model **ms, unsigned step, const char *what)
{
	unsigned bad = 0;
	char at[128];

	CT_EQ(ucm_now_ps(ms[0]), ucm_now_ps(ms[1]));
	/* the truths, fed totals and inputs first: while the phase model may
	 * still be summing an epoch (they read through it without ending it),
	 * then the registers (a peek ends it) */
	for (unsigned b = 0; b < ucm_box_count(ms[0]) && bad < 5; b++) {
		const struct ucm_boxtype *bt = ucm_box_def(ms[0], (int)b)->type;

		for (unsigned c = 0; c < bt->nctr; c++) {
			struct ucm_truth ta, tb;

			ucm_truth(ms[0], (int)b, c, &ta);
			ucm_truth(ms[1], (int)b, c, &tb);
			if (memcmp(&ta, &tb, sizeof(ta))) {
				ct_fail(__FILE__, __LINE__, "%s step %u: %s%u counter %u truth: total %llu/%llu wraps %llu/%llu",
					what, step, bt->name, ucm_box_def(ms[0], (int)b)->inst, c,
					(unsigned long long)ta.total, (unsigned long long)tb.total,
					(unsigned long long)ta.wraps, (unsigned long long)tb.wraps);
				bad++;
			}
		}
		for (unsigned s = 0; s < ucm_subev_count(bt); s++) {
			if (ucm_fed(ms[0], (int)b, s) != ucm_fed(ms[1], (int)b, s) ||
			    ucm_get_input(ms[0], (int)b, s) != ucm_get_input(ms[1], (int)b, s)) {
				ct_fail(__FILE__, __LINE__, "%s step %u: %s%u sub-event %u fed %llu/%llu",
					what, step, bt->name, ucm_box_def(ms[0], (int)b)->inst, s,
					(unsigned long long)ucm_fed(ms[0], (int)b, s),
					(unsigned long long)ucm_fed(ms[1], (int)b, s));
				bad++;
				break;
			}
		}
	}
	snprintf(at, sizeof(at), "%s step %u: phases, inputs", what, step);
	ct_same_registers(ms[0], ms[1], at, __FILE__, __LINE__);
	for (unsigned s = 0; s < ucm_nsockets(ms[0]); s++)
		CT_EQ(ucm_pmi_requests(ms[0], s), ucm_pmi_requests(ms[1], s));
}

/* The same attribute change in both models: mostly an attribute a filter
 * rule of a programmed counter's event compares, of one of that event's
 * sub-events (so that the change flips what the counter selects, or not),
 * else any attribute of any sub-event; small values. */
static void attr_op(struct ucm_model **ms, uint64_t *r)
{
	int box = (int)(ct_rng(r) % ucm_box_count(ms[0]));
	const struct ucm_boxtype *bt = ucm_box_def(ms[0], box)->type;
	unsigned nsub = ucm_subev_count(bt), sub = nsub ? (unsigned)(ct_rng(r) % nsub) : 0;
	unsigned attr = (unsigned)(ct_rng(r) % UCM_NATTR);
	uint64_t v = ct_rng(r) % 8;

	if (ct_rng(r) % 4) {
		size_t i = (size_t)(ct_rng(r) % ucm_nregs(ms[1]));
		struct ucm_reginfo ri;
		const struct ucm_evcode *ec, *occ = NULL;
		unsigned code, first = 0;
		uint64_t val = 0;

		ucm_reginfo(ms[1], i, &ri);
		if (ri.kind == UCM_K_CTL && !ucm_peek_index(ms[1], i, &val) &&
		    (ec = ucm_ctl_code(ri.box->type, ri.layout, val, &code, &occ)) && ec->nrules) {
			bt = ri.box->type;
			box = ucm_box_find(ms[0], ri.socket, bt->name, ri.box->inst);
			while (first < ucm_subev_count(bt) && ucm_subev_code(bt, first) != ec)
				first++;
			sub = first + (ec->nsubs ? (unsigned)(ct_rng(r) % ec->nsubs) : 0);
			attr = ec->rules[ct_rng(r) % ec->nrules].attr;
			nsub = ucm_subev_count(bt);
		}
	}
	if (nsub && box >= 0)
		CT_EQ(ucm_set_input_attr(ms[0], box, sub, attr, v),
		      ucm_set_input_attr(ms[1], box, sub, attr, v));
}

/* PMI requests of the runs of a test: the runs must go through overflows
 * that raise PMIs (counters preloaded near their wrap, OVF_EN on about half
 * of them; snbep has no global control, so no PMI: wraps there), or the
 * exact path near a wrap would go unchecked. */
static uint64_t pmis, wraps, epochs;

/* Vector v defined as box vectors, one per box, listed in a random order
 * (as a trace replay defines its phases): the same phase as
 * ucm_phase_define() of v. */
static int define_bv(struct ucm_model *m, const struct vec *v, uint64_t *r)
{
	struct ucm_phase_in part[96];
	int ids[96], done[96] = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < v->n; i++) {
		size_t np = 0;
		int id;

		if (done[i])
			continue;
		for (size_t j = i; j < v->n; j++)
			if (v->in[j].box == v->in[i].box) {
				part[np++] = v->in[j];
				done[j] = 1;
			}
		if ((id = ucm_boxvec_define(m, v->in[i].box, part, np, NULL, 0)) < 0)
			return id;
		ids[n++] = id;
	}
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(ct_rng(r) % i);
		int t = ids[i - 1];

		ids[i - 1] = ids[j];
		ids[j] = t;
	}
	return ucm_phase_define_boxvecs(m, ids, n);
}

/* A phase of v, defined either way. */
static int define(struct ucm_model *m, const struct vec *v, uint64_t *r)
{
	return ct_rng(r) % 2 ? define_bv(m, v, r) : ucm_phase_define(m, v->in, v->n);
}

/* One run: platform, seed, steps between checkpoints, phases (<= NPH). */
static void run_n(const char *plat, uint64_t seed, unsigned steps, unsigned every, int frz,
		  unsigned nph)
{
	struct ucm_model *ms[2] = { ct_model(plat, 0, 1), ct_model(plat, 0, 1) };
	static struct vec v[NPH];
	uint64_t r = seed;
	int id[NPH];
	char what[64];

	snprintf(what, sizeof(what), "%s seed %llu", plat, (unsigned long long)seed);
	CT_CHECK(ms[0] && ms[1]);
	if (!ms[0] || !ms[1])
		goto out;
	/* phases defined now; the rest of the table (up to NPH) while it runs */
	nph = nph < NPH ? nph : NPH - 8;
	for (unsigned k = 0; k < nph; k++) {
		/* phase 0 is empty: every input 0 */
		make_vec(ms[0], &r, &v[k], k ? 1 + ct_rng(&r) % 60 : 0);
		id[k] = define(ms[0], &v[k], &r);
		CT_EQ(id[k], k);
	}
	CT_EQ(ct_program(ms, 2, seed, frz), -1);
	for (unsigned st = 0; st < steps; st++) {
		unsigned op = (unsigned)(ct_rng(&r) % 100);

		if (op < 70) {
			unsigned k = (unsigned)(ct_rng(&r) % nph);
			/* spans of 1 ps (no cycle of any clock) to 100 us */
			uint64_t ps = ct_rng(&r) % 3 == 0 ? 1 + ct_rng(&r) % 2000 : ct_rng(&r) % 100000000;

			CT_EQ(ucm_phase_enter(ms[0], id[k]), 0);
			apply_vec(ms[1], &v[k]);
			if (ct_rng(&r) % 8 == 0) {
				int p0 = 0, p1 = 0;

				CT_EQ(ucm_run_ps_pmi(ms[0], ps, &p0), 0);
				CT_EQ(ucm_run_ps_pmi(ms[1], ps, &p1), 0);
				CT_EQ(p0, p1);
			} else {
				CT_EQ(ucm_run_ps(ms[0], ps), 0);
				CT_EQ(ucm_run_ps(ms[1], ps), 0);
			}
		} else if (op < 85) {
			/* a read through the access path (time, truth of reads) */
			size_t i = (size_t)(ct_rng(&r) % ucm_nregs(ms[0]));
			struct ucm_reginfo ri;
			uint64_t a, b;

			ucm_reginfo(ms[0], i, &ri);
			CT_EQ(ucm_read_index(ms[0], i, &a), ucm_read_index(ms[1], i, &b));
			CT_EQ(a, b);
		} else if (op < 87) {
			/* a control written anew */
			size_t i = (size_t)(ct_rng(&r) % ucm_nregs(ms[0]));
			struct ucm_reginfo ri;
			uint64_t val;

			ucm_reginfo(ms[0], i, &ri);
			if (ri.kind != UCM_K_CTL)
				continue;
			val = ct_ctl_value(&ri, &r);
			CT_EQ(ucm_write_index(ms[0], i, val), ucm_write_index(ms[1], i, val));
		} else if (op < 89) {
			/* every edge-detecting control's threshold anew (0-3: the
			 * small inputs here cross it): what a phase's comparisons
			 * were in the epochs before no longer holds */
			for (size_t i = 0; i < ucm_nregs(ms[0]); i++) {
				struct ucm_reginfo ri;
				const struct ucm_field *fe, *ft;
				uint64_t val;

				ucm_reginfo(ms[0], i, &ri);
				if (ri.kind != UCM_K_CTL || ucm_peek_index(ms[1], i, &val) ||
				    !(fe = ucm_layout_field(ri.layout, UCM_R_EDGE)) ||
				    !(ft = ucm_layout_field(ri.layout, UCM_R_THRESH)) || !ucm_field_get(fe, val))
					continue;
				val = ucm_field_put(ft, val, ct_rng(&r) % 4);
				CT_EQ(ucm_write_index(ms[0], i, val), ucm_write_index(ms[1], i, val));
			}
		} else if (op < 93) {
			/* an attribute the box filters compare with (thread, node,
			 * frequency band...): in an epoch, one no filter sees goes
			 * on without ending it */
			attr_op(ms, &r);
		} else if (op < 96) {
			/* one input changed directly, in the middle of a phase */
			int box = (int)(ct_rng(&r) % ucm_box_count(ms[0]));
			unsigned nsub = ucm_subev_count(ucm_box_def(ms[0], box)->type);
			unsigned sub = nsub ? (unsigned)(ct_rng(&r) % nsub) : 0;
			uint32_t inc = (uint32_t)(ct_rng(&r) % 3);

			if (nsub)
				CT_EQ(ucm_set_input(ms[0], box, sub, inc), ucm_set_input(ms[1], box, sub, inc));
		} else if (op < 97 && nph < NPH) {
			/* a phase defined in the middle of an epoch (as a replay
			 * meets a trace's vectors) and entered */
			make_vec(ms[0], &r, &v[nph], 1 + ct_rng(&r) % 60);
			id[nph] = define(ms[0], &v[nph], &r);
			CT_EQ(id[nph], nph);
			CT_EQ(ucm_phase_enter(ms[0], id[nph]), 0);
			apply_vec(ms[1], &v[nph]);
			nph++;
			CT_EQ(ucm_run_ps(ms[0], 1000000), 0);
			CT_EQ(ucm_run_ps(ms[1], 1000000), 0);
		} else {
			/* a long stretch: many phase changes before anything looks */
			for (unsigned q = 0; q < 200; q++) {
				unsigned k = (unsigned)(ct_rng(&r) % nph);
				uint64_t ps = 1 + ct_rng(&r) % 5000000;

				CT_EQ(ucm_phase_enter(ms[0], id[k]), 0);
				apply_vec(ms[1], &v[k]);
				if (q % 8 == 7)
					attr_op(ms, &r);
				CT_EQ(ucm_run_ps(ms[0], ps), 0);
				CT_EQ(ucm_run_ps(ms[1], ps), 0);
			}
		}
		if (st % every == every - 1)
			compare(ms, st, what);
	}
	compare(ms, steps, what);
	for (unsigned s = 0; s < ucm_nsockets(ms[1]); s++)
		pmis += ucm_pmi_requests(ms[1], s);
	/* and the phase model summed phases (else nothing here is tested) */
	epochs += ucm_phase_epochs(ms[0]);
	for (unsigned b = 0; b < ucm_box_count(ms[1]); b++)
		for (unsigned c = 0; c < ucm_box_def(ms[1], (int)b)->type->nctr; c++) {
			struct ucm_truth t;

			ucm_truth(ms[1], (int)b, c, &t);
			wraps += t.wraps;
		}
out:
	ucm_destroy(ms[0]);
	ucm_destroy(ms[1]);
}

static void run(const char *plat, uint64_t seed, unsigned steps, unsigned every, int frz)
{
	/* a few phases (often the same change again) or many */
	run_n(plat, seed, steps, every, frz, seed % 3 ? 12 : NPH);
}

CT_TEST(skl_phases_count_as_inputs_set_one_by_one)
{
	pmis = wraps = epochs = 0;
	for (uint64_t s = 1; s <= 6; s++)
		run("skl", s * 7919, 400, 25, s & 1);
	CT_CHECK(pmis > 0 && wraps > 0 && epochs > 0);
}

CT_TEST(snbep_phases_count_as_inputs_set_one_by_one)
{
	pmis = wraps = epochs = 0;
	for (uint64_t s = 1; s <= 4; s++)
		run("snbep", s * 104729, 300, 30, s & 1);
	CT_CHECK(wraps > 0 && epochs > 0);
}

CT_TEST(ivt_phases_count_as_inputs_set_one_by_one)
{
	pmis = wraps = epochs = 0;
	for (uint64_t s = 1; s <= 4; s++)
		run("ivt", s * 1299709, 300, 30, s & 1);
	CT_CHECK(pmis > 0 && wraps > 0 && epochs > 0);
}

/* Through a workload callback, as the built-in workloads run: time runs in
 * one call over thousands of phase changes; on snbep the callback enters
 * many phases in one call (ucm_phase_run, as the trace replay does). */
struct wl {
	struct vec *v;
	int *id;
	uint64_t r;
	int phases;
};

static int wl_step(struct ucm_model *m, void *ctx, uint64_t now, uint64_t *next)
{
	struct wl *w = ctx;
	unsigned k = (unsigned)(ct_rng(&w->r) % 12);

	if (!w->phases) {
		apply_vec(m, &w->v[k]);
		*next = now + 1 + ct_rng(&w->r) % 20000000;
		return 0;
	}
	for (;;) {
		int rc = ucm_phase_enter(m, w->id[k]);

		if (rc)
			return rc;
		*next = now + 1 + ct_rng(&w->r) % 20000000;
		/* phases 2: many phases in one call where the model allows */
		if (w->phases < 2 || !ucm_phase_run(m, *next))
			return 0;
		now = *next;
		k = (unsigned)(ct_rng(&w->r) % 12);
	}
}

CT_TEST(a_workload_of_phases_counts_as_one_of_inputs)
{
	static const char *const plats[] = { "skl", "snbep", "ivt" };

	for (unsigned p = 0; p < 3; p++) {
		struct ucm_model *ms[2] = { ct_model(plats[p], 0, 1), ct_model(plats[p], 0, 1) };
		static struct vec v[NPH];
		int id[NPH];
		uint64_t r = 77 + p;
		struct wl w[2];

		CT_CHECK(ms[0] && ms[1]);
		if (!ms[0] || !ms[1])
			return;
		for (unsigned k = 0; k < 12; k++) {
			make_vec(ms[0], &r, &v[k], 1 + ct_rng(&r) % 60);
			id[k] = ucm_phase_define(ms[0], v[k].in, v[k].n);
			CT_EQ(id[k], k);
		}
		CT_EQ(ct_program(ms, 2, 4242 + p, 0), -1);
		for (int s = 0; s < 2; s++) {
			/* phases, summed in the model's calls (odd platforms) or many
			 * in one call (ucm_phase_run) */
			w[s] = (struct wl){ v, id, 99, s == 0 ? 1 + (int)(p % 2) : 0 };
			ucm_set_workload(ms[s], wl_step, &w[s]);
		}
		for (unsigned q = 0; q < 20; q++) {
			CT_EQ(ucm_run_ps(ms[0], 3000000000ull), 0);
			CT_EQ(ucm_run_ps(ms[1], 3000000000ull), 0);
			compare(ms, q, plats[p]);
		}
		CT_CHECK(ucm_phase_epochs(ms[0]) >= 20);
		CT_EQ(ucm_phase_epochs(ms[1]), 0);
		ucm_destroy(ms[0]);
		ucm_destroy(ms[1]);
	}
}

/* An attribute a counter's filter compares, changed in the middle of an
 * epoch: snbep CBo 0 counter 0 counts LLC_LOOKUP with its TID filter on
 * (thread 3, every state), and the thread of the lookups fed alternates
 * between 3 (counted) and 4 (not) every few phases; other attributes of
 * other sub-events change too (no filter sees them: the epoch goes on). */
CT_TEST(a_filtered_attribute_changed_during_phases)
{
	struct ucm_model *ms[2] = { ct_model("snbep", 0, 1), ct_model("snbep", 0, 1) };
	int box = ucm_box_find(ms[0], 0, "cbo", 0);
	const struct ucm_boxtype *bt = ucm_box_def(ms[0], box)->type;
	int sub = ucm_subev_find(bt, "LLC_LOOKUP.DATA_READ_E");
	int other = ucm_subev_find(bt, "TOR_INSERTS.DRd_HIT");
	const struct ucm_evcode *ec = ucm_subev_code(bt, (unsigned)sub);
	struct ucm_phase_in in[3][2] = {
		{ { box, (unsigned)sub, 1 } },
		{ { box, (unsigned)sub, 1 }, { box, (unsigned)other, 1 } },
		{ { box, (unsigned)other, 1 } },
	};
	unsigned n[3] = { 1, 2, 1 };
	struct vec v[3];
	int id[3];
	uint64_t r = 5;

	CT_CHECK(sub >= 0 && other >= 0);
	if (sub < 0 || other < 0)
		return;
	for (size_t i = 0; i < ucm_nregs(ms[0]); i++) {
		struct ucm_reginfo ri;
		uint64_t val = 0;

		ucm_reginfo(ms[0], i, &ri);
		if (ri.socket || ri.box->inst || strcmp(ri.box->type->name, "cbo"))
			continue;
		for (unsigned f = 0; f < ri.layout->nfields; f++) {
			const struct ucm_field *fl = &ri.layout->fields[f];
			uint64_t x = 0;

			if (ri.kind == UCM_K_CTL && ri.idx == 0)
				x = fl->role == UCM_R_EN || fl->role == UCM_R_TID_EN ? 1 :
				    fl->role == UCM_R_EVSEL ? ec->code :
				    fl->role == UCM_R_UMASK ? ucm_umask_defined(ec) & ~0x40ull : 0;
			else if (ri.kind == UCM_K_FILTER)
				x = fl->role == UCM_R_FILT_TID ? 3 : fl->role == UCM_R_FILT_STATE ? 0x1f : 0;
			else
				continue;
			val = ucm_field_put(fl, val, x);
		}
		CT_EQ(ucm_write_index(ms[0], i, val) | ucm_write_index(ms[1], i, val), 0);
	}
	for (unsigned k = 0; k < 3; k++) {
		v[k].n = n[k];
		memcpy(v[k].in, in[k], sizeof(in[k]));
		id[k] = ucm_phase_define(ms[0], in[k], n[k]);
	}
	for (unsigned st = 0; st < 400; st++) {
		unsigned k = (unsigned)(ct_rng(&r) % 3);

		CT_EQ(ucm_phase_enter(ms[0], id[k]), 0);
		apply_vec(ms[1], &v[k]);
		if (st % 7 == 6)
			for (int q = 0; q < 2; q++)
				CT_EQ(ucm_set_input_attr(ms[q], box, (unsigned)sub, UCM_AT_TID, st % 2 ? 3 : 4), 0);
		if (st % 5 == 4)
			for (int q = 0; q < 2; q++)
				CT_EQ(ucm_set_input_attr(ms[q], box, (unsigned)other, UCM_AT_TID, st % 3), 0);
		CT_EQ(ucm_run_ps(ms[0], 1000000 + ct_rng(&r) % 1000000), 0);
		CT_EQ(ucm_run_ps(ms[1], ucm_now_ps(ms[0]) - ucm_now_ps(ms[1])), 0);
		if (st % 50 == 49)
			compare(ms, st, "snbep tid");
	}
	/* the filter did count some lookups and drop others */
	{
		struct ucm_truth t;

		ucm_truth(ms[1], box, 0, &t);
		CT_CHECK(t.total > 0 && t.total < ucm_fed(ms[1], box, (unsigned)sub));
	}
	CT_CHECK(ucm_phase_epochs(ms[0]) > 0);
	ucm_destroy(ms[0]);
	ucm_destroy(ms[1]);
}

/* What a model with phase attributes must match, done by hand on the
 * other model: the values ucm_set_input_attr gave ("base"), the phase in
 * effect's attributes over them. */
struct ovref {
	unsigned n;
	struct { int box; unsigned sub, attr; uint64_t base; } k[512];
};

static uint64_t *ovref_base(struct ovref *o, struct ucm_model *m, int box, unsigned sub,
			    unsigned attr)
{
	for (unsigned i = 0; i < o->n; i++)
		if (o->k[i].box == box && o->k[i].sub == sub && o->k[i].attr == attr)
			return &o->k[i].base;
	if (o->n == 512)
		return NULL;
	o->k[o->n].box = box;
	o->k[o->n].sub = sub;
	o->k[o->n].attr = attr;
	o->k[o->n].base = ucm_get_input_attr(m, box, sub, attr);
	return &o->k[o->n++].base;
}

struct atph {
	size_t n;
	struct ucm_phase_attr at[64];
};

static void ovref_enter(struct ovref *o, struct ucm_model *m, const struct atph *from,
			const struct atph *to, const struct vec *v)
{
	for (size_t i = 0; from && i < from->n; i++) {
		const struct ucm_phase_attr *a = &from->at[i];
		uint64_t *b = ovref_base(o, m, a->box, a->sub, a->attr);

		CT_EQ(ucm_set_input_attr(m, a->box, a->sub, a->attr, *b), 0);
	}
	for (size_t i = 0; i < to->n; i++) {
		const struct ucm_phase_attr *a = &to->at[i];

		ovref_base(o, m, a->box, a->sub, a->attr);
		CT_EQ(ucm_set_input_attr(m, a->box, a->sub, a->attr, a->v), 0);
	}
	apply_vec(m, v);
}

/* Phases that give their sub-events attributes (as a trace's segments
 * give the thread or node of their requests) count as those attributes
 * and inputs set one by one, with the attributes returning to their base
 * values when the next phase is entered; base values set directly in
 * between hold under the phase's and after it. */
CT_TEST(phase_attributes_count_as_set_one_by_one)
{
	static const char *const plats[] = { "snbep", "ivt" };

	for (unsigned pl = 0; pl < 2; pl++) {
		struct ucm_model *ms[2] = { ct_model(plats[pl], 0, 1), ct_model(plats[pl], 0, 1) };
		static struct vec v[12];
		static struct atph at[12];
		static struct ovref ref;
		int id[12], cur = -1;
		uint64_t r = 31 + pl;

		CT_CHECK(ms[0] && ms[1]);
		if (!ms[0] || !ms[1])
			return;
		ref.n = 0;
		CT_EQ(ct_program(ms, 2, 1234 + pl, 0), -1);
		for (unsigned k = 0; k < 12; k++) {
			make_vec(ms[0], &r, &v[k], 1 + ct_rng(&r) % 60);
			at[k].n = 0;
			/* attributes a filter rule of the sub-event's event compares
			 * (or any), small values, on most inputs */
			for (size_t i = 0; i < v[k].n && at[k].n < 64; i++) {
				const struct ucm_boxtype *bt = ucm_box_def(ms[0], v[k].in[i].box)->type;
				const struct ucm_evcode *ec = ucm_subev_code(bt, v[k].in[i].sub);

				if (ct_rng(&r) % 4 == 0)
					continue;
				at[k].at[at[k].n++] = (struct ucm_phase_attr){
					v[k].in[i].box, v[k].in[i].sub,
					ec->nrules ? ec->rules[ct_rng(&r) % ec->nrules].attr
						   : (unsigned)(ct_rng(&r) % UCM_NATTR),
					ct_rng(&r) % 8 };
			}
			id[k] = ucm_phase_define_attrs(ms[0], v[k].in, v[k].n, at[k].at, at[k].n);
			CT_EQ(id[k], k);
		}
		for (unsigned st = 0; st < 3000; st++) {
			unsigned k = (unsigned)(ct_rng(&r) % 12), op = (unsigned)(ct_rng(&r) % 100);

			if (op < 90) {
				CT_EQ(ucm_phase_enter(ms[0], id[k]), 0);
				ovref_enter(&ref, ms[1], cur >= 0 ? &at[cur] : NULL, &at[k], &v[k]);
				cur = (int)k;
			} else if (op < 97) {
				/* a base value, of an attribute the phase may hold */
				const struct ucm_phase_attr *a = at[k].n ? &at[k].at[ct_rng(&r) % at[k].n] : NULL;
				uint64_t val = ct_rng(&r) % 8, *b;
				int held = 0;

				if (!a)
					continue;
				CT_EQ(ucm_set_input_attr(ms[0], a->box, a->sub, a->attr, val), 0);
				b = ovref_base(&ref, ms[1], a->box, a->sub, a->attr);
				for (size_t i = 0; cur >= 0 && i < at[cur].n; i++)
					held |= at[cur].at[i].box == a->box && at[cur].at[i].sub == a->sub &&
						at[cur].at[i].attr == a->attr;
				if (b)
					*b = val;
				if (!held)
					CT_EQ(ucm_set_input_attr(ms[1], a->box, a->sub, a->attr, val), 0);
			} else {
				/* a look at the model (ends an epoch) */
				uint64_t x, y;

				CT_EQ(ucm_msr_read(ms[0], 0, 0xd16, &x), ucm_msr_read(ms[1], 0, 0xd16, &y));
			}
			CT_EQ(ucm_run_ps(ms[0], 1 + ct_rng(&r) % 3000000), 0);
			CT_EQ(ucm_run_ps(ms[1], ucm_now_ps(ms[0]) - ucm_now_ps(ms[1])), 0);
			if (st % 300 == 299) {
				compare(ms, st, plats[pl]);
				/* the attributes in effect, through the phase and not */
				for (unsigned i = 0; i < ref.n; i++)
					for (unsigned a = 0; a < UCM_NATTR; a++)
						CT_EQ(ucm_get_input_attr(ms[0], ref.k[i].box, ref.k[i].sub, a),
						      ucm_get_input_attr(ms[1], ref.k[i].box, ref.k[i].sub, a));
			}
		}
		CT_CHECK(ucm_phase_epochs(ms[0]) > 0);
		ucm_destroy(ms[0]);
		ucm_destroy(ms[1]);
	}
}

CT_TEST(phase_definitions_are_checked)
{
	struct ucm_model *m = ct_model("snbep", 0, 0);
	int cbo = ucm_box_find(m, 0, "cbo", 0);
	const struct ucm_boxtype *bt = ucm_box_def(m, cbo)->type;
	int sub = ucm_subev_find(bt, "LLC_LOOKUP.DATA_READ_E");
	const struct ucm_evcode *ec = ucm_subev_code(bt, (unsigned)sub);
	struct ucm_phase_in in[3] = {
		{ cbo, (unsigned)sub, ec->max_inc + 1u },
	};

	CT_CHECK(sub >= 0);
	CT_EQ(ucm_phase_define(m, in, 1), -ERANGE);
	CT_CONTAINS(ucm_error(m), "exceeds the event's maximum");
	in[0].box = (int)ucm_box_count(m);
	CT_EQ(ucm_phase_define(m, in, 1), -ENOENT);
	in[0] = (struct ucm_phase_in){ cbo, 100000, 1 };
	CT_EQ(ucm_phase_define(m, in, 1), -ENOENT);
	/* a sub-event listed twice: the last entry counts */
	in[0] = (struct ucm_phase_in){ cbo, (unsigned)sub, ec->max_inc };
	in[1] = (struct ucm_phase_in){ cbo, (unsigned)sub, 1 };
	CT_EQ(ucm_phase_define(m, in, 2), 0);
	CT_EQ(ucm_phase_enter(m, 0), 0);
	CT_EQ(ucm_get_input(m, cbo, (unsigned)sub), 1);
	CT_EQ(ucm_phase_enter(m, 1), -ENOENT);
	CT_EQ(ucm_phase_count(m), 1);
	ucm_destroy(m);
}

/* Box vectors: one box's part, stored once (the same part defined again,
 * in another order, is the same one), at most one per box in a phase. */
CT_TEST(box_vectors_are_one_per_box_and_stored_once)
{
	struct ucm_model *m = ct_model("snbep", 0, 0);
	int cbo = ucm_box_find(m, 0, "cbo", 0), cbo1 = ucm_box_find(m, 0, "cbo", 1);
	const struct ucm_boxtype *bt = ucm_box_def(m, cbo)->type;
	int a = ucm_subev_find(bt, "LLC_LOOKUP.DATA_READ_E"), b = ucm_subev_find(bt, "TOR_INSERTS.DRd_MISS");
	struct ucm_phase_in in[2] = { { cbo, (unsigned)a, 1 }, { cbo, (unsigned)b, 1 } };
	struct ucm_phase_in rev[2] = { in[1], in[0] }, other = { cbo1, (unsigned)a, 1 };
	struct ucm_phase_attr at = { cbo, (unsigned)b, UCM_AT_TID, 3 };
	int x, y, z, w, ids[2];

	CT_REQUIRE(a >= 0 && b >= 0 && cbo1 >= 0);
	x = ucm_boxvec_define(m, cbo, in, 2, NULL, 0);
	y = ucm_boxvec_define(m, cbo, rev, 2, NULL, 0);
	z = ucm_boxvec_define(m, cbo, in, 2, &at, 1);
	w = ucm_boxvec_define(m, cbo1, &other, 1, NULL, 0);
	CT_CHECK(x >= 0 && z >= 0 && w >= 0);
	CT_EQ(y, x);
	CT_CHECK(z != x && w != x && w != z);
	/* an input or attribute of another box */
	CT_EQ(ucm_boxvec_define(m, cbo1, in, 1, NULL, 0), -EINVAL);
	CT_EQ(ucm_boxvec_define(m, cbo, in, 2, &(struct ucm_phase_attr){ cbo1, 0, UCM_AT_TID, 1 }, 1),
	      -EINVAL);
	CT_EQ(ucm_boxvec_define(m, (int)ucm_box_count(m), NULL, 0, NULL, 0), -ENOENT);
	/* two of one box; an id never defined */
	ids[0] = x;
	ids[1] = z;
	CT_EQ(ucm_phase_define_boxvecs(m, ids, 2), -EINVAL);
	CT_CONTAINS(ucm_error(m), "two box vectors of box");
	ids[1] = w + 100;
	CT_EQ(ucm_phase_define_boxvecs(m, ids, 2), -ENOENT);
	ids[1] = w;
	CT_EQ(ucm_phase_define_boxvecs(m, ids, 2), 0);
	CT_EQ(ucm_phase_define_boxvecs(m, &z, 1), 1);
	/* entered: the inputs, the attribute the phase gives */
	CT_EQ(ucm_phase_enter(m, 0), 0);
	CT_EQ(ucm_get_input(m, cbo, (unsigned)a), 1);
	CT_EQ(ucm_get_input(m, cbo1, (unsigned)a), 1);
	CT_CHECK(ucm_get_input_attr(m, cbo, (unsigned)b, UCM_AT_TID) != 3);
	CT_EQ(ucm_phase_enter(m, 1), 0);
	CT_EQ(ucm_get_input(m, cbo1, (unsigned)a), 0);
	CT_EQ(ucm_get_input_attr(m, cbo, (unsigned)b, UCM_AT_TID), 3);
	/* ucm_phase_define of the same inputs: a phase of the same parts */
	CT_EQ(ucm_phase_define(m, (struct ucm_phase_in[]){ in[0], other, in[1] }, 3), 2);
	ucm_destroy(m);
}

/* A sub-event given several attributes by a box vector (stored as the
 * values of the attributes given only): each reads as given while the
 * phase is entered, set input by input or summed in an epoch, and the base
 * values are back while another phase is entered. */
CT_TEST(a_box_vector_gives_several_attributes_of_a_sub_event)
{
	struct ucm_model *m = ct_model("snbep", 0, 0);
	int cbo = ucm_box_find(m, 0, "cbo", 0);
	const struct ucm_boxtype *bt = ucm_box_def(m, cbo)->type;
	int a = ucm_subev_find(bt, "LLC_LOOKUP.DATA_READ_E"), b = ucm_subev_find(bt, "TOR_INSERTS.DRd_MISS");
	static const unsigned ats[3] = { UCM_AT_OPC, UCM_AT_NID, UCM_AT_TID };
	struct ucm_phase_attr at[3];
	uint64_t base[3], val[3];
	int z, p0, p1;

	CT_REQUIRE(a >= 0 && b >= 0);
	for (unsigned i = 0; i < 3; i++) {
		base[i] = ucm_get_input_attr(m, cbo, (unsigned)b, ats[i]);
		val[i] = base[i] + 1 + i;
	}
	/* given in another order than their bits' */
	for (unsigned i = 0; i < 3; i++)
		at[i] = (struct ucm_phase_attr){ cbo, (unsigned)b, ats[2 - i], val[2 - i] };
	z = ucm_boxvec_define(m, cbo, &(struct ucm_phase_in){ cbo, (unsigned)b, 1 }, 1, at, 3);
	CT_REQUIRE(z >= 0);
	p1 = ucm_phase_define_boxvecs(m, &z, 1);
	p0 = ucm_phase_define(m, &(struct ucm_phase_in){ cbo, (unsigned)a, 1 }, 1);
	CT_REQUIRE(p1 >= 0 && p0 >= 0);
	for (unsigned k = 0; k < 8; k++) {
		CT_EQ(ucm_phase_enter(m, p1), 0);
		ucm_run_cycles(m, 0, 10);
		for (unsigned i = 0; i < 3; i++)
			CT_EQ(ucm_get_input_attr(m, cbo, (unsigned)b, ats[i]), val[i]);
		CT_EQ(ucm_phase_enter(m, p0), 0);
		ucm_run_cycles(m, 0, 10);
		for (unsigned i = 0; i < 3; i++)
			CT_EQ(ucm_get_input_attr(m, cbo, (unsigned)b, ats[i]), base[i]);
	}
	/* the later ones were summed in an epoch (ucm_ov_get's answers) */
	CT_CHECK(ucm_phase_epochs(m) > 0);
	ucm_destroy(m);
}

CT_MAIN()

/* Batches of steps (ucm_phase_steps, as the trace replay runs them): a
 * clock whose boxes have the same box vectors in every phase defined is
 * not stepped, its cycles over a batch given to the batch's first phase.
 * Each run has three phases: a first with two boxes' inputs on every
 * clock, the same again, and a third that differs on one clock only, in
 * one of the ways that must make that clock stepped (one box vector
 * fewer: a prefix of the first's; none; one more; a single-input box
 * vector changed), defined halfway through the run while the model sums
 * phases (as a replay defines a vector it meets).  One model runs the
 * steps in batches, the other sets the same inputs one by one at the same
 * times. */
#define NSTEP 4000

struct batch {
	const struct vec *v;
	const struct ucm_step *st;   /* the steps, ends in clock 0's cycles */
	size_t i, n;
	uint64_t r, hz;
	int phases, defined;
};

/* The time clock 0's cycle c completes (as ucm_phase_steps takes it:
 * ceil(c 10^12 / hz)). */
static uint64_t batch_time(const struct batch *b, uint64_t c)
{
	unsigned __int128 x = (unsigned __int128)c * 1000000000000ull;

	return (uint64_t)((x + b->hz - 1) / b->hz);
}

/* Steps [b->i, b->i + n) in one call, the third phase defined before
 * the first step that uses it. */
static size_t batch_run(struct ucm_model *m, struct batch *b, size_t n)
{
	if (!b->defined) {
		size_t k = 0;

		while (k < n && b->st[b->i + k].id != 2)
			k++;
		if (k < n) {
			if (k)
				return ucm_phase_steps(m, 0, &b->st[b->i], k);
			CT_EQ(ucm_phase_define(m, b->v[2].in, b->v[2].n), 2);
			b->defined = 1;
		}
	}
	return ucm_phase_steps(m, 0, &b->st[b->i], n);
}

static int batch_step(struct ucm_model *m, void *ctx, uint64_t now, uint64_t *next)
{
	struct batch *b = ctx;
	const struct ucm_step *s;

	(void)now;
	if (b->i == b->n) {
		*next = UINT64_MAX;
		return 0;
	}
	s = &b->st[b->i++];
	if (!b->phases) {
		apply_vec(m, &b->v[s->id]);
		*next = batch_time(b, s->end);
		return 0;
	}
	if (s->id == 2 && !b->defined) {
		CT_EQ(ucm_phase_define(m, b->v[2].in, b->v[2].n), 2);
		b->defined = 1;
	}
	if (ucm_phase_enter(m, s->id))
		return -EIO;
	*next = batch_time(b, s->end);
	/* while the model sums phases: batches of 1-40 steps, the first
	 * not run entered as one */
	while (b->i < b->n && ucm_phase_run(m, *next)) {
		size_t n = 1 + ct_rng(&b->r) % 40;

		if (n > b->n - b->i)
			n = b->n - b->i;
		b->i += batch_run(m, b, n);
		if (b->i == b->n)
			break;
		s = &b->st[b->i++];
		if (s->id == 2 && !b->defined) {
			CT_EQ(ucm_phase_define(m, b->v[2].in, b->v[2].n), 2);
			b->defined = 1;
		}
		if (ucm_phase_enter(m, s->id))
			return -EIO;
		*next = batch_time(b, s->end);
	}
	return 0;
}

/* Inputs on the boxes [skip, skip + per) of clock d on socket 0, each
 * sub-event sub with increment 1; 0: fewer boxes than that. */
static int clock_inputs(struct ucm_model *m, unsigned d, unsigned skip, unsigned per,
			unsigned sub, struct vec *v)
{
	unsigned found = 0;

	for (unsigned b = 0; b < ucm_box_count(m) && found < skip + per; b++) {
		const struct ucm_boxtype *bt = ucm_box_def(m, (int)b)->type;

		if (bt->clock != d || ucm_subev_count(bt) <= sub || ucm_box_socket(m, (int)b))
			continue;
		if (found++ < skip)
			continue;
		v->in[v->n++] = (struct ucm_phase_in){ (int)b, sub, 1 };
	}
	return found == skip + per;
}

CT_TEST(batches_of_steps_count_as_inputs_set_one_by_one)
{
	static const char *const plats[] = { "snbep", "ivt" };
	static struct ucm_step st[NSTEP];
	unsigned runs = 0, stepped = 0;

	for (unsigned pi = 0; pi < 2; pi++) {
		unsigned nclk;

		{
			struct ucm_model *m = ct_model(plats[pi], 0, 1);

			CT_REQUIRE(m);
			nclk = ucm_platform_of(m)->nclocks;
			ucm_destroy(m);
		}
		for (unsigned d = 0; d < nclk; d++)
			for (unsigned how = 0; how < 5; how++) {
				struct ucm_model *ms[2] = { ct_model(plats[pi], 0, 1), ct_model(plats[pi], 0, 1) };
				struct vec v[3];
				uint64_t r = 31 + pi * 16 + d * 4 + how, end = 0;
				struct batch b[2];
				char what[64];
				int ok = 1;

				CT_REQUIRE(ms[0] && ms[1]);
				/* way 4 is way 0 from 40,000 s on (the first step
				 * that long): clock 0's count times its period's
				 * denominator (2.7 GHz: 10^4 / 27 ps) past 2^64 / 25,
				 * where ucm_phase_steps' quotient by a multiply with
				 * the divisor's inverse comes one short for some ends
				 * (a step's time then one cycle early, without the
				 * correction) */
				if (how == 4)
					end = ucm_clock_hz(ms[0], 0) * 40000;
				v[0].n = v[2].n = 0;
				for (unsigned e = 0; e < nclk; e++) {
					ok &= clock_inputs(ms[0], e, 0, 2, 0, &v[0]);
					if (e != d)
						ok &= clock_inputs(ms[0], e, 0, 2, 0, &v[2]);
					else if (how % 4 == 0)
						ok &= clock_inputs(ms[0], e, 0, 1, 0, &v[2]);
					else if (how == 2)
						ok &= clock_inputs(ms[0], e, 0, 3, 0, &v[2]);
					else if (how == 3)
						ok &= clock_inputs(ms[0], e, 0, 1, 0, &v[2]) &&
						      clock_inputs(ms[0], e, 1, 1, 1, &v[2]);
				}
				v[1] = v[0];
				if (!ok) {
					/* a clock with too few boxes for this way */
					ucm_destroy(ms[0]);
					ucm_destroy(ms[1]);
					continue;
				}
				CT_EQ(ucm_phase_define(ms[0], v[0].in, v[0].n), 0);
				CT_EQ(ucm_phase_define(ms[0], v[1].in, v[1].n), 1);
				CT_EQ(ct_program(ms, 2, 777 + r, 0), -1);
				/* the first half the two same phases, then any of
				 * the three */
				for (size_t i = 0; i < NSTEP; i++) {
					st[i].id = (int)(ct_rng(&r) % (i < NSTEP / 2 ? 2 : 3));
					end += 1 + ct_rng(&r) % 3000;
					st[i].end = end;
				}
				for (int s = 0; s < 2; s++) {
					b[s] = (struct batch){ v, st, 0, NSTEP, r, ucm_clock_hz(ms[s], 0), s == 0, 0 };
					ucm_set_workload(ms[s], batch_step, &b[s]);
				}
				snprintf(what, sizeof(what), "%s clock %u way %u", plats[pi], d, how);
				for (unsigned q = 1; q <= 4; q++) {
					uint64_t t = batch_time(&b[0], end) / 4 * q + 1;

					CT_EQ(ucm_run_ps(ms[0], t), 0);
					CT_EQ(ucm_run_ps(ms[1], t), 0);
					compare(ms, q, what);
				}
				CT_EQ(b[0].i, NSTEP);
				CT_CHECK(ucm_phase_epochs(ms[0]) > 0);
				runs++;
				stepped += b[0].defined;
				ucm_destroy(ms[0]);
				ucm_destroy(ms[1]);
			}
	}
	/* every way on most clocks of both platforms */
	CT_CHECK(runs >= 24 && stepped == runs);
}
