/*
 * fuzz_phase.c - libFuzzer harness: the model's phases (summed in closed
 * form over epochs) against the same input vectors set one by one.
 *
 * Two models of a platform get the same programming (every counter of
 * every box an event of its table with random THRESH, INV, edge, OVF_EN,
 * OCC_SEL, TID_EN; filters random small values; some counters near their
 * wrap; the global enable with PMIs).  Model A is driven by phases defined
 * from the input (inputs within the event maxima, attributes on some), model
 * B by ucm_clear_inputs/ucm_set_input/ucm_set_input_attr of the same vectors
 * with the phases' attributes returning to their base values when the next
 * phase is entered.  Operations: enter a phase and run time (ps, PMI waits),
 * read a register, write a control, set a base attribute, set an input
 * directly, define a new phase mid-run, run a batch of steps through a
 * workload call (ucm_phase_run and ucm_phase_steps, as a trace replay
 * runs them; B entering each by hand), compare.  Every register (peek), every
 * counter's ground truth, every fed total, every attribute the phases touch,
 * the PMI counts and the time must be equal at each compare and at the end.
 * fuzz_regs checks the model without phases against the naive reference;
 * this harness checks the phases against the model without them.
 *
 * Input: byte 0 the platform (skl, snbep, ivt), bytes 1-8 the programming
 * seed, byte 9 the number of phases defined first (1-16); each phase: its
 * input count (0-23), then per input box (u16), sub-event (u16), increment
 * (u8, within what the event's maximum leaves), attribute (u8: bit 7 set:
 * none; else attribute id, then u8 value 0-7); then operations, an opcode
 * byte and operands each.
 */
#include <errno.h>
#include <string.h>

#include "ct_prog.h"
#include "fz.h"
#include "ucm.h"

#define MAXPH 32
#define MAXIN 24

struct vec {
	size_t n, na;
	struct ucm_phase_in in[MAXIN];
	struct ucm_phase_attr at[MAXIN];
};

/* Base values of the attributes phases give (model B's bookkeeping). */
struct base {
	unsigned n;
	struct { int box; unsigned sub, attr; uint64_t v; } k[MAXPH * MAXIN + 64];
};

struct st {
	struct ucm_model *m[2];
	struct vec v[MAXPH];
	int id[MAXPH];
	unsigned nph;
	int cur;                 /* the phase B is in, -1: none */
	struct base base;
};

static uint64_t *base_of(struct st *s, int box, unsigned sub, unsigned attr)
{
	struct base *b = &s->base;

	for (unsigned i = 0; i < b->n; i++)
		if (b->k[i].box == box && b->k[i].sub == sub && b->k[i].attr == attr)
			return &b->k[i].v;
	if (b->n == sizeof(b->k) / sizeof(b->k[0]))
		FZ_FAIL("base table full");
	b->k[b->n].box = box;
	b->k[b->n].sub = sub;
	b->k[b->n].attr = attr;
	b->k[b->n].v = ucm_get_input_attr(s->m[1], box, sub, attr);
	return &b->k[b->n++].v;
}

static void program(struct st *s, uint64_t seed)
{
	long bad = ct_program(s->m, 2, seed, seed % 3 == 0);

	if (bad >= 0) {
		struct ucm_reginfo ri;

		ucm_reginfo(s->m[0], (size_t)bad, &ri);
		FZ_FAIL("programming %s differs", ri.name);
	}
}

/* A phase from the input: inputs within each event's maximum. */
static void read_vec(struct fz *f, struct ucm_model *m, struct vec *v)
{
	unsigned want = fz_u8(f) % MAXIN;

	v->n = v->na = 0;
	for (unsigned i = 0; i < want; i++) {
		int box = (int)(fz_u16(f) % ucm_box_count(m));
		const struct ucm_boxtype *bt = ucm_box_def(m, box)->type;
		unsigned nsub = ucm_subev_count(bt), sub = fz_u16(f), dup = 0;
		uint8_t incb = fz_u8(f), ab = fz_u8(f);
		uint64_t sum = 0;
		const struct ucm_evcode *ec;

		if (!nsub)
			continue;
		sub %= nsub;
		ec = ucm_subev_code(bt, sub);
		for (size_t k = 0; k < v->n; k++) {
			if (v->in[k].box != box)
				continue;
			dup |= v->in[k].sub == sub;
			if (ucm_subev_code(bt, v->in[k].sub) == ec)
				sum += v->in[k].inc;
		}
		if (dup || sum >= ec->max_inc)
			continue;
		v->in[v->n++] = (struct ucm_phase_in){ box, sub,
						       1 + (uint32_t)(incb % (ec->max_inc - sum)) };
		if (!(ab & 0x80))
			v->at[v->na++] = (struct ucm_phase_attr){ box, sub, ab % UCM_NATTR,
								  fz_u8(f) % 8u };
	}
}

/* Phase v defined as box vectors (as a trace replay does): each box's
 * inputs and attributes one box vector, the boxes listed last first. */
static int define_bv(struct ucm_model *m, const struct vec *v)
{
	static struct ucm_phase_in in[sizeof(v->in) / sizeof(v->in[0])];
	static struct ucm_phase_attr at[sizeof(v->at) / sizeof(v->at[0])];
	int ids[sizeof(v->in) / sizeof(v->in[0]) + sizeof(v->at) / sizeof(v->at[0])];
	size_t nid = 0;

	for (unsigned b = 0; b < ucm_box_count(m); b++) {
		size_t n = 0, na = 0;
		int id;

		for (size_t i = 0; i < v->n; i++)
			if (v->in[i].box == (int)b)
				in[n++] = v->in[i];
		for (size_t i = 0; i < v->na; i++)
			if (v->at[i].box == (int)b)
				at[na++] = v->at[i];
		if (!n && !na)
			continue;
		if ((id = ucm_boxvec_define(m, (int)b, in, n, at, na)) < 0)
			return id;
		ids[nid++] = id;
	}
	for (size_t i = 0; i < nid / 2; i++) {
		int t = ids[i];

		ids[i] = ids[nid - 1 - i];
		ids[nid - 1 - i] = t;
	}
	return ucm_phase_define_boxvecs(m, ids, nid);
}

static void define(struct st *s, struct fz *f)
{
	struct vec *v = &s->v[s->nph];

	read_vec(f, s->m[0], v);
	/* every other phase as box vectors: the same phase */
	s->id[s->nph] = s->nph % 2 ? define_bv(s->m[0], v)
				   : ucm_phase_define_attrs(s->m[0], v->in, v->n, v->at, v->na);
	if (s->id[s->nph] != (int)s->nph)
		FZ_FAIL("phase %u defined as %d: %s", s->nph, s->id[s->nph], ucm_error(s->m[0]));
	s->nph++;
}

/* B enters phase k by hand: the previous phase's attributes back to their
 * base values, this one's set, its inputs set one by one. */
static void enter_b(struct st *s, unsigned k)
{
	struct ucm_model *m = s->m[1];

	if (s->cur >= 0)
		for (size_t i = 0; i < s->v[s->cur].na; i++) {
			const struct ucm_phase_attr *a = &s->v[s->cur].at[i];

			ucm_set_input_attr(m, a->box, a->sub, a->attr, *base_of(s, a->box, a->sub, a->attr));
		}
	for (size_t i = 0; i < s->v[k].na; i++) {
		const struct ucm_phase_attr *a = &s->v[k].at[i];

		base_of(s, a->box, a->sub, a->attr);
		ucm_set_input_attr(m, a->box, a->sub, a->attr, a->v);
	}
	ucm_clear_inputs(m);
	for (size_t i = 0; i < s->v[k].n; i++)
		if (ucm_set_input(m, s->v[k].in[i].box, s->v[k].in[i].sub, s->v[k].in[i].inc))
			FZ_FAIL("set_input: %s", ucm_error(m));
	s->cur = (int)k;
}

FZ_NO_COVERAGE static void compare(struct st *s, const char *when)
{
	struct ucm_model **m = s->m;

	if (ucm_now_ps(m[0]) != ucm_now_ps(m[1]))
		FZ_FAIL("%s: time %llu vs %llu", when, (unsigned long long)ucm_now_ps(m[0]),
			(unsigned long long)ucm_now_ps(m[1]));
	/* what reads through an epoch first (truths, fed totals, inputs,
	 * attributes), then the registers (a peek ends it) */
	for (unsigned b = 0; b < ucm_box_count(m[0]); b++) {
		const struct ucm_boxtype *bt = ucm_box_def(m[0], (int)b)->type;

		for (unsigned c = 0; c < bt->nctr; c++) {
			struct ucm_truth x, y;

			ucm_truth(m[0], (int)b, c, &x);
			ucm_truth(m[1], (int)b, c, &y);
			if (memcmp(&x, &y, sizeof(x)))
				FZ_FAIL("%s: %s%u counter %u truth: total %llu vs %llu", when, bt->name,
					ucm_box_def(m[0], (int)b)->inst, c, (unsigned long long)x.total,
					(unsigned long long)y.total);
		}
		for (unsigned u = 0; u < ucm_subev_count(bt); u++)
			if (ucm_fed(m[0], (int)b, u) != ucm_fed(m[1], (int)b, u) ||
			    ucm_get_input(m[0], (int)b, u) != ucm_get_input(m[1], (int)b, u))
				FZ_FAIL("%s: %s%u sub-event %u fed %llu vs %llu", when, bt->name,
					ucm_box_def(m[0], (int)b)->inst, u,
					(unsigned long long)ucm_fed(m[0], (int)b, u),
					(unsigned long long)ucm_fed(m[1], (int)b, u));
	}
	for (unsigned i = 0; i < s->base.n; i++)
		for (unsigned a = 0; a < UCM_NATTR; a++)
			if (ucm_get_input_attr(m[0], s->base.k[i].box, s->base.k[i].sub, a) !=
			    ucm_get_input_attr(m[1], s->base.k[i].box, s->base.k[i].sub, a))
				FZ_FAIL("%s: attribute %u of box %d sub-event %u differs", when, a,
					s->base.k[i].box, s->base.k[i].sub);
	for (size_t i = 0; i < ucm_nregs(m[0]); i++) {
		uint64_t a = 0, b = 0;

		ucm_peek_index(m[0], i, &a);
		ucm_peek_index(m[1], i, &b);
		if (a != b) {
			struct ucm_reginfo ri;

			ucm_reginfo(m[0], i, &ri);
			FZ_FAIL("%s: %s socket %u: phases 0x%llx, inputs 0x%llx", when, ri.name, ri.socket,
				(unsigned long long)a, (unsigned long long)b);
		}
	}
	for (unsigned so = 0; so < ucm_nsockets(m[0]); so++)
		if (ucm_pmi_requests(m[0], so) != ucm_pmi_requests(m[1], so))
			FZ_FAIL("%s: socket %u PMI requests differ", when, so);
}

/* A batch op: steps (a phase and the clock-0 cycle it runs to) that A
 * runs through its workload call as a trace replay does (each entered
 * as one while the model cannot sum, else many at once: ucm_phase_run,
 * ucm_phase_steps), B entering each by hand at the same times. */
#define MAXSTEP 48

struct batch {
	struct st *s;
	struct ucm_step st[MAXSTEP];
	size_t i, n;
	uint64_t hz, cut;            /* cut: A's sizes of ucm_phase_steps calls */
	int b;                       /* this is B's */
};

/* The time clock 0's cycle c completes (as ucm_phase_steps takes it). */
static uint64_t batch_time(const struct batch *w, uint64_t c)
{
	return (uint64_t)(((unsigned __int128)c * 1000000000000ull + w->hz - 1) / w->hz);
}

static int batch_wl(struct ucm_model *m, void *ctx, uint64_t now, uint64_t *next)
{
	struct batch *w = ctx;
	const struct ucm_step *st;

	(void)now;
	if (w->i == w->n) {
		*next = UINT64_MAX;
		return 0;
	}
	st = &w->st[w->i++];
	if (w->b) {
		enter_b(w->s, (unsigned)st->id);
		*next = batch_time(w, st->end);
		return 0;
	}
	if (ucm_phase_enter(m, st->id))
		FZ_FAIL("enter: %s", ucm_error(m));
	*next = batch_time(w, st->end);
	while (w->i < w->n && ucm_phase_run(m, *next)) {
		size_t k = 1 + (w->cut & 7) * 3;

		w->cut = w->cut >> 3 | w->cut << 61;
		if (k > w->n - w->i)
			k = w->n - w->i;
		w->i += ucm_phase_steps(m, 0, &w->st[w->i], k);
		if (w->i == w->n)
			break;
		st = &w->st[w->i++];
		if (ucm_phase_enter(m, st->id))
			FZ_FAIL("enter: %s", ucm_error(m));
		*next = batch_time(w, st->end);
	}
	return 0;
}

static void batch(struct st *s, struct fz *f)
{
	static struct batch w[2];
	uint64_t c = ucm_cycles(s->m[0], 0), hz = ucm_clock_hz(s->m[0], 0);
	size_t n = 1 + fz_u8(f) % MAXSTEP;

	if (ucm_cycles(s->m[1], 0) != c)
		FZ_FAIL("batch: clock 0 at %llu vs %llu", (unsigned long long)c,
			(unsigned long long)ucm_cycles(s->m[1], 0));
	w[0] = (struct batch){ s, { { 0, 0 } }, 0, n, hz, fz_u64(f), 0 };
	for (size_t i = 0; i < n; i++) {
		c += 1 + fz_u16(f) % 6000;
		/* (a phase's index is its id: define checks it) */
		w[0].st[i] = (struct ucm_step){ (int)(fz_u8(f) % s->nph), c };
	}
	w[1] = w[0];
	w[1].b = 1;
	for (int k = 0; k < 2; k++) {
		ucm_set_workload(s->m[k], batch_wl, &w[k]);
		if (ucm_run_ps(s->m[k], batch_time(&w[k], c) - ucm_now_ps(s->m[k])))
			FZ_FAIL("batch run: %s", ucm_error(s->m[k]));
		ucm_set_workload(s->m[k], NULL, NULL);
	}
	if (w[0].i != n || w[1].i != n)
		FZ_FAIL("batch: %zu and %zu of %zu steps", w[0].i, w[1].i, n);
}

static struct ucm_model *model(const char *plat)
{
	struct ucm_config cfg;
	struct ucm_model *m = NULL;

	ucm_config_init(&cfg, ucm_platform_find(plat));
	if (ucm_create(&cfg, &m))
		FZ_FAIL("%s: model", plat);
	return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const plats[] = { "skl", "snbep", "ivt" };
	static struct ucm_model *cache[3][2];
	static struct st s;
	struct fz f = { data, size };
	unsigned p = fz_u8(&f) % 3, n0;
	uint64_t seed = fz_u64(&f), r = seed | 1;
	unsigned ops = 0;

	/* one pair of models per platform, returned to a new one's state */
	for (int i = 0; i < 2; i++) {
		if (!cache[p][i])
			cache[p][i] = model(plats[p]);
		else
			ucm_restart(cache[p][i]);
		s.m[i] = cache[p][i];
	}
	s.nph = 0;
	s.cur = -1;
	s.base.n = 0;
	program(&s, seed);
	n0 = 1 + fz_u8(&f) % 16;
	for (unsigned k = 0; k < n0; k++)
		define(&s, &f);
	while (fz_more(&f) && ops++ < 400) {
		uint8_t op = fz_u8(&f);

		switch (op % 10) {
		case 0: case 1: case 2: case 3: case 4: {
			unsigned k = fz_u8(&f) % s.nph;
			uint64_t ps = op % 10 == 4 ? 1u + fz_u8(&f) % 4000u : fz_u32(&f) % 50000000u;

			if (ucm_phase_enter(s.m[0], s.id[k]))
				FZ_FAIL("enter: %s", ucm_error(s.m[0]));
			enter_b(&s, k);
			if (op & 0x80) {
				int a = 0, b = 0;

				ucm_run_ps_pmi(s.m[0], ps, &a);
				ucm_run_ps_pmi(s.m[1], ps, &b);
				if (a != b)
					FZ_FAIL("PMI wait ended %d vs %d", a, b);
			} else {
				ucm_run_ps(s.m[0], ps);
				ucm_run_ps(s.m[1], ps);
			}
			break;
		}
		case 5: {
			/* a register read through the access path */
			size_t i = fz_u16(&f) % ucm_nregs(s.m[0]);
			struct ucm_reginfo ri;
			uint64_t a, b;

			ucm_reginfo(s.m[0], i, &ri);
			if (ucm_read_index(s.m[0], i, &a) != ucm_read_index(s.m[1], i, &b) || a != b)
				FZ_FAIL("read %s: 0x%llx vs 0x%llx", ri.name, (unsigned long long)a,
					(unsigned long long)b);
			break;
		}
		case 6: {
			/* a control written anew */
			size_t i = fz_u16(&f) % ucm_nregs(s.m[0]);
			struct ucm_reginfo ri;
			uint64_t v;

			ucm_reginfo(s.m[0], i, &ri);
			if (ri.kind != UCM_K_CTL)
				break;
			v = ct_ctl_value(&ri, &r);
			if (ucm_write_index(s.m[0], i, v) != ucm_write_index(s.m[1], i, v))
				FZ_FAIL("write %s differs", ri.name);
			break;
		}
		case 7: {
			/* a base attribute of an input of some phase */
			unsigned k = fz_u8(&f) % s.nph, a = fz_u8(&f), v = fz_u8(&f) % 8;
			const struct vec *vv = &s.v[k];
			int held = 0;

			if (!vv->n)
				break;
			{
				const struct ucm_phase_in *in = &vv->in[a % vv->n];
				unsigned at = (a >> 5) % UCM_NATTR;

				ucm_set_input_attr(s.m[0], in->box, in->sub, at, v);
				*base_of(&s, in->box, in->sub, at) = v;
				for (size_t i = 0; s.cur >= 0 && i < s.v[s.cur].na; i++)
					held |= s.v[s.cur].at[i].box == in->box &&
						s.v[s.cur].at[i].sub == in->sub && s.v[s.cur].at[i].attr == at;
				if (!held)
					ucm_set_input_attr(s.m[1], in->box, in->sub, at, v);
			}
			break;
		}
		case 8: {
			/* an input set directly; or a phase defined mid-run */
			if (op & 0x80 && s.nph < MAXPH) {
				define(&s, &f);
				break;
			}
			{
				int box = (int)(fz_u16(&f) % ucm_box_count(s.m[0]));
				unsigned nsub = ucm_subev_count(ucm_box_def(s.m[0], box)->type);
				unsigned sub = nsub ? fz_u16(&f) % nsub : 0;
				uint32_t inc = fz_u8(&f) % 3;

				if (nsub && ucm_set_input(s.m[0], box, sub, inc) !=
						    ucm_set_input(s.m[1], box, sub, inc))
					FZ_FAIL("set_input results differ");
			}
			break;
		}
		default:
			/* half of them: a batch of steps through a workload call */
			if (op & 0x80)
				batch(&s, &f);
			else
				compare(&s, "compare");
			break;
		}
	}
	compare(&s, "end");
	return 0;
}
