/*
 * t_trace_replay.c - the replay against a reference, the same segments
 * stepped a cycle at a time or their inputs set one by one, under random
 * programming (threshold, invert, edge, overflow, freeze): for the Skylake
 * client and for the two-socket Xeon E5-2600 (every box type, filter
 * attributes, sleep states and the PMIs they change); dense traces of many
 * phases, repeated vectors, the vector form, vectors past the dictionary
 * and generated traces.
 */
#include <stdlib.h>
#include <unistd.h>

#include "ct.h"
#include "ct_prog.h"
#include "ct_rig.h"
#include "ct_trace.h"
#include "ucm.h"
#include "uct_gen.h"
#include "uct_trace.h"

/* Program the same random counters into a model. */
static void program(struct ucm_model *m, uint64_t seed)
{
	static const uint32_t evsel[] = { 0x700, 0x701, 0x710, 0x711, 0x720, 0x721, 0x730, 0x731, 0x3B2, 0x3B3 };
	static const uint32_t ctr[] = { 0x706, 0x707, 0x716, 0x717, 0x726, 0x727, 0x736, 0x737, 0x3B0, 0x3B1 };
	static const uint8_t cbo_codes[][2] = { { 0x34, 0x8F }, { 0x34, 0x16 }, { 0x34, 0x21 }, { 0x22, 0x41 },
						{ 0x22, 0xCD }, { 0x34, 0xFF } };
	static const uint8_t arb_codes[][2] = { { 0x80, 0x01 }, { 0x81, 0x01 }, { 0x81, 0x20 }, { 0x84, 0x01 } };

	ct_trace_rng = seed * 7919;
	for (unsigned i = 0; i < 10; i++) {
		const uint8_t *c = i < 8 ? cbo_codes[ct_trace_rnd() % 6] : arb_codes[ct_trace_rnd() % 4];
		uint64_t v = c[0] | (uint64_t)c[1] << 8 | 1ull << 22 | 1ull << 20;
		uint64_t thr = ct_trace_rnd() % 3 ? 0 : ct_trace_rnd() % 4;

		v |= thr << 24;
		if (thr && ct_trace_rnd() % 2)
			v |= 1ull << 23; /* INV */
		if (thr && ct_trace_rnd() % 2)
			v |= 1ull << 18; /* E */
		ucm_msr_write(m, 0, evsel[i], v);
		/* some counters close to their 44-bit wrap */
		ucm_msr_write(m, 0, ctr[i], ct_trace_rnd() % 2 ? (1ull << 44) - 1 - ct_trace_rnd() % 20000 : 0);
	}
	ucm_msr_write(m, 0, 0x395, (1ull << 48) - 1 - ct_trace_rnd() % 50000);
	ucm_msr_write(m, 0, 0x394, 1ull << 22 | 1ull << 20);
	ucm_msr_write(m, 0, 0xE01, 1ull << 29 | (ct_trace_rnd() % 2) << 31 | 0x3);
}

/* Two skl models (a replayed, b stepped) agree on every register, every
 * counter's ground truth, and each core's PMIs (delivered, woken by one,
 * dropped, the last one's time) and sleep state. */
static void same_skl_counts(struct ucm_model *a, struct ucm_model *b, const char *what)
{
	ct_same_registers(a, b, what, __FILE__, __LINE__);
	for (unsigned bx = 0; bx < ucm_box_count(a); bx++)
		for (unsigned c = 0; c < ucm_box_def(a, (int)bx)->type->nctr; c++) {
			struct ucm_truth ta, tb;

			ucm_truth(a, (int)bx, c, &ta);
			ucm_truth(b, (int)bx, c, &tb);
			CT_EQ(ta.total, tb.total);
			CT_EQ(ta.wraps, tb.wraps);
		}
	CT_EQ(ucm_pmi_requests(a, 0), ucm_pmi_requests(b, 0));
	for (unsigned c = 0; c < 4; c++) {
		struct ucm_pmi_stats pa, pb;

		ucm_pmi_stats(a, 0, c, &pa);
		ucm_pmi_stats(b, 0, c, &pb);
		CT_EQ(pa.delivered, pb.delivered);
		CT_EQ(pa.wakes, pb.wakes);
		CT_EQ(pa.dropped, pb.dropped);
		CT_EQ(pa.last_ps, pb.last_ps);
		CT_EQ(ucm_core_asleep(a, 0, c), ucm_core_asleep(b, 0, c));
	}
}

/* Replay costs O(1) per constant segment; stepping one cycle at a time is
 * the reference.  Every register, the truth and the PMIs must agree. */
CT_TEST(replay_equals_cycle_by_cycle_stepping)
{
	char path[128];

	ct_tmpname(path, sizeof(path), "ref.uct");
	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct ucm_model *a = ct_fresh_model(), *b = ct_fresh_model();
		struct uct_reader *r;
		struct uct_replay *rp;
		struct uct_seg *s = malloc(sizeof(*s));
		char err[768], what[64];
		uint64_t end = 0;

		CT_REQUIRE(a && b && s);
		CT_REQUIRE(ct_write_random(path, (int)(seed & 1), 40, seed, 0) == 0);
		program(a, seed);
		program(b, seed);
		/* a: segment replay */
		CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
		CT_REQUIRE(uct_replay_attach(a, r, &rp) == 0);
		/* b: the same segments, one cycle at a time */
		{
			struct uct_reader *r2;

			CT_REQUIRE(uct_open(path, &r2, err, sizeof(err)) == 0);
			while (uct_next(r2, s) > 0) {
				ucm_clear_inputs(b);
				for (; end < s->start; end++)
					CT_REQUIRE(ucm_run_cycles(b, 0, 1) == 0);
				for (unsigned i = 0; i < s->nin; i++) {
					const struct uct_in *in = &s->in[i];
					int box = -1;

					for (unsigned k = 0; k < ucm_box_count(b); k++)
						if (ucm_boxtype_index(ct_skl(), ucm_box_def(b, (int)k)->type) == in->bt &&
						    (in->inst < 0 || ucm_box_def(b, (int)k)->inst == (unsigned)in->inst)) {
							box = (int)k;
							CT_REQUIRE(ucm_set_input(b, box, in->sub,
										 ucm_get_input(b, box, in->sub) + in->inc) == 0);
						}
					CT_REQUIRE(box >= 0);
				}
				for (uint64_t c = 0; c < s->ncycles; c++)
					CT_REQUIRE(ucm_run_cycles(b, 0, 1) == 0);
				end = s->start + s->ncycles;
			}
			uct_close(r2);
			ucm_clear_inputs(b);
		}
		CT_REQUIRE(ucm_run_cycles(a, 0, end) == 0);
		CT_CHECK(uct_replay_done(a ? rp : NULL) || ucm_cycles(a, 0) == end);
		CT_EQ(ucm_cycles(a, 0), ucm_cycles(b, 0));
		snprintf(what, sizeof(what), "seed %llu: replay, stepped", (unsigned long long)seed);
		same_skl_counts(a, b, what);
		uct_replay_detach(rp);
		uct_close(r);
		ucm_destroy(a);
		ucm_destroy(b);
		free(s);
	}
	unlink(path);
}

/* A dense trace of many phases (132 vectors, most segments one cycle,
 * some longer, some gaps), in the vector form, replayed in runs of random length with register reads
 * between (each ends the model's sums of phases; the replay reads segments
 * ahead and runs many in one call of the model): every register, truth
 * and PMI equal to the same segments' inputs set one by one, under the
 * random programming of replay_equals_cycle_by_cycle_stepping (edges,
 * thresholds, counters near their wrap). */
CT_TEST(dense_trace_of_many_phases_replays_like_inputs_set_one_by_one)
{
	char path[128], err[768], what[64];
	const unsigned nseg = 20000;
	int cbo = ucm_boxtype_index(ct_skl(), ucm_boxtype_find(ct_skl(), "cbo"));
	int arb = ucm_boxtype_index(ct_skl(), ucm_boxtype_find(ct_skl(), "arb"));

	ct_tmpname(path, sizeof(path), "dense.uct");
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct ucm_model *a = ct_fresh_model(), *b = ct_fresh_model();
		struct uct_seg *s = calloc(1, sizeof(*s));
		struct uct_hdr h;
		struct uct_writer *w;
		struct uct_reader *r;
		struct uct_replay *rp;
		uint64_t t = 0, v;
		unsigned reads = 0;

		CT_REQUIRE(a && b && s);
		memset(&h, 0, sizeof(h));
		h.plat = ct_skl();
		h.sockets = 1;
		CT_REQUIRE(uct_writer_open(path, UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
		ct_trace_rng = seed;
		for (unsigned i = 0, k = 0; i < nseg; i++) {
			/* vector k % 132: mostly in turn (changes of phase that
			 * repeat), sometimes anywhere */
			k = ct_trace_rnd() % 8 ? (k + 1) % 150 : (unsigned)(ct_trace_rnd() % 150);
			t += ct_trace_rnd() % 64 == 0 ? ct_trace_rnd() % 100 : 0;
			s->start = t;
			s->ncycles = ct_trace_rnd() % 8 ? 1 : 1 + ct_trace_rnd() % 300;
			s->nin = 2;
			s->in[0] = (struct uct_in){ .bt = (uint8_t)cbo, .inst = -1, .sub = (uint16_t)(k % 12), .inc = 1 };
			s->in[1] = (struct uct_in){ .bt = (uint8_t)arb, .inst = 0, .sub = 0, .inc = k % 33 };
			CT_REQUIRE(uct_write(w, s) == 0);
			t += s->ncycles;
		}
		CT_REQUIRE(uct_writer_commit(w) == 0);
		/* and edge detection on both box types for sure: the ARB
		 * occupancy reaching 5, a CBo's lookups */
		for (int x = 0; x < 2; x++) {
			program(x ? b : a, seed);
			ucm_msr_write(x ? b : a, 0, 0x3B3, 0x80 | 0x01 << 8 | 1ull << 22 | 1ull << 20 | 5ull << 24 | 1ull << 18);
			ucm_msr_write(x ? b : a, 0, 0x711, 0x34 | 0x11 << 8 | 1ull << 22 | 1ull << 24 | 1ull << 18);
		}
		/* b: each segment's inputs set one by one */
		CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
		for (uint64_t end = 0; uct_next(r, s) > 0; end = s->start + s->ncycles) {
			ucm_clear_inputs(b);
			if (s->start > end)
				CT_REQUIRE(ucm_run_cycles(b, 0, s->start - end) == 0);
			for (unsigned i = 0; i < s->nin; i++)
				for (unsigned x = 0; x < ucm_box_count(b); x++)
					if (ucm_boxtype_index(ct_skl(), ucm_box_def(b, (int)x)->type) == s->in[i].bt &&
					    (s->in[i].inst < 0 || ucm_box_def(b, (int)x)->inst == (unsigned)s->in[i].inst))
						CT_REQUIRE(ucm_set_input(b, (int)x, s->in[i].sub, s->in[i].inc) == 0);
			CT_REQUIRE(ucm_run_cycles(b, 0, s->ncycles) == 0);
		}
		uct_close(r);
		ucm_clear_inputs(b);
		/* a: the replay, in runs of 1 to 3000 cycles, a register read
		 * after some */
		CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
		CT_REQUIRE(uct_replay_attach(a, r, &rp) == 0);
		ct_trace_rng = seed * 31;
		while (ucm_cycles(a, 0) < t) {
			uint64_t n = 1 + ct_trace_rnd() % 3000;

			CT_REQUIRE(ucm_run_cycles(a, 0, n < t - ucm_cycles(a, 0) ? n : t - ucm_cycles(a, 0)) == 0);
			if (ct_trace_rnd() % 4 == 0) {
				CT_REQUIRE(ucm_msr_read(a, 0, 0x706, &v) == 0);
				reads++;
			}
		}
		CT_CHECK(uct_replay_done(rp) || !uct_replay_failed(rp));
		CT_EQ(ucm_cycles(a, 0), ucm_cycles(b, 0));
		/* the paths meant: many phases, many epochs */
		CT_CHECK(ucm_phase_count(a) > 132);
		CT_CHECK(ucm_phase_epochs(a) > reads / 2);
		snprintf(what, sizeof(what), "seed %llu: dense replay, inputs", (unsigned long long)seed);
		same_skl_counts(a, b, what);
		uct_replay_detach(rp);
		uct_close(r);
		ucm_destroy(a);
		ucm_destroy(b);
		free(s);
	}
	unlink(path);
}

static void put_field(uint64_t *v, const struct ucm_layout *l, unsigned role, uint64_t x)
{
	const struct ucm_field *f = ucm_layout_field(l, role);

	if (f)
		*v = ucm_field_put(f, *v, x);
}

static void snbep_write(struct ucm_model *m, const struct ucm_reginfo *ri, uint64_t v)
{
	if (ri->space == UCM_MSR) {
		ucm_msr_write(m, ri->socket * ucm_cpus_per_socket(m), (uint32_t)ri->addr, v);
	} else {
		uint64_t k = ri->addr;

		ucm_pci_write(m, 0, (unsigned)(k >> 20) & 0xFF, (unsigned)(k >> 15) & 0x1F,
			      (unsigned)(k >> 12) & 7, (unsigned)k & 0xFFF, ri->width / 8, v);
	}
}

/* Random programming of every snbep counter: event codes and umasks,
 * threshold/invert/edge, the PCU's occupancy selections (alone and as a
 * qualifier), the CBo and PCU filters, counters close to their wrap. */
static void program_snbep(struct ucm_model *m, uint64_t seed)
{
	static const uint16_t opc[] = { 0x180, 0x182, 0x1C4, 0x190 };

	ct_trace_rng = seed * 104729;
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		const struct ucm_boxtype *bt;
		const struct ucm_layout *l;
		uint64_t v = 0;

		ucm_reginfo(m, i, &ri);
		bt = ri.box->type;
		l = ri.layout;
		if (ri.kind == UCM_K_FILTER) {
			put_field(&v, l, UCM_R_FILT_OPC, ct_trace_rnd() % 2 ? opc[ct_trace_rnd() % 4] : ct_trace_rnd() % 0x40);
			put_field(&v, l, UCM_R_FILT_STATE, ct_trace_rnd() & 0x1F);
			put_field(&v, l, UCM_R_FILT_NID, ct_trace_rnd() & 0xF);
			put_field(&v, l, UCM_R_FILT_TID, ct_trace_rnd() % 16);
			for (unsigned b = 0; b < l->nfields; b++)
				if (l->fields[b].role == UCM_R_FILT_BAND)
					v = ucm_field_put(&l->fields[b], v, ct_trace_rnd() % 40);
				else if (l->fields[b].role == UCM_R_FILT_ADDR)
					v = ucm_field_put(&l->fields[b], v, ct_test_addrs[ct_trace_rnd() % 4] >>
									    UCM_FA_BIT(l->fields[b].arg));
				else if (l->fields[b].role >= UCM_R_FILT_MC && l->fields[b].role <= UCM_R_FILT_RDS)
					/* QPI match and mask: masks mostly narrow */
					v = ucm_field_put(&l->fields[b], v,
							  UCM_FA_IS_MASK(l->fields[b].arg) && ct_trace_rnd() % 2 ? 0 : ct_trace_rnd());
			snbep_write(m, &ri, v);
		} else if (ri.kind == UCM_K_CTL) {
			const struct ucm_evcode *ec = &bt->codes[ct_trace_rnd() % bt->ncodes];
			unsigned code = ec->code, thr = ct_trace_rnd() % 3 ? 0 : (unsigned)(ct_trace_rnd() % 4);

			if (ec->flags & UCM_EC_FIXED)
				ec = &bt->codes[0], code = ec->code;
			put_field(&v, l, UCM_R_EN, 1);
			if (ucm_layout_field(l, UCM_R_OCC_SEL) && ct_trace_rnd() % 2) {
				/* occupancy alone (0x80) or qualifying a base event */
				code = ct_trace_rnd() % 2 ? 0x80 : (code & 0x7F) | 0x80;
				put_field(&v, l, UCM_R_OCC_SEL, 1 + ct_trace_rnd() % 3);
				put_field(&v, l, UCM_R_OCC_INV, ct_trace_rnd() % 2);
				put_field(&v, l, UCM_R_OCC_EDGE, ct_trace_rnd() % 2);
				thr = (unsigned)(ct_trace_rnd() % 9);
			}
			put_field(&v, l, UCM_R_EVSEL, code & 0xFF);
			put_field(&v, l, UCM_R_EXTSEL, code >> 8);
			put_field(&v, l, UCM_R_UMASK, ct_trace_rnd() % 2 ? 0xFF : ct_trace_rnd() & 0xFF);
			put_field(&v, l, UCM_R_THRESH, thr);
			if (thr) {
				put_field(&v, l, UCM_R_INV, ct_trace_rnd() % 2);
				put_field(&v, l, UCM_R_EDGE, ct_trace_rnd() % 2);
			}
			put_field(&v, l, UCM_R_TID_EN, ct_trace_rnd() % 2);
			snbep_write(m, &ri, v);
		} else if (ri.kind == UCM_K_CTR && ct_trace_rnd() % 2) {
			const struct ucm_field *f = ucm_layout_field(l, UCM_R_VALUE);
			unsigned width = f ? f->hi + 1u : 48;
			uint64_t top = width >= 64 ? ~0ull : (1ull << width) - 1;

			snbep_write(m, &ri, top - ct_trace_rnd() % 3000);
		}
	}
}

/* The reference's view of a segment: the tables' attributes everywhere
 * (from a snapshot of a fresh model), then the segment's inputs and
 * attributes; sleep follows the changes of the masks. */
struct ref {
	struct ucm_model *m;
	uint64_t *attr0;
	size_t nattr;
	uint64_t asleep[UCT_MAXSOCK];
	/* the (box, sub-event) pairs whose attributes the last segment set
	 * (box << 16 | sub): the only ones that can differ from attr0 */
	uint32_t touched[4096];
	size_t ntouched;
};

/* Where attr0 holds box b's sub-event sub's attributes. */
static size_t ref_attr_at(struct ucm_model *m, unsigned b, unsigned sub)
{
	size_t k = 0;

	for (unsigned x = 0; x < b; x++)
		k += (size_t)ucm_subev_count(ucm_box_def(m, (int)x)->type) * UCM_NATTR;
	return k + (size_t)sub * UCM_NATTR;
}

static size_t attr_slots(struct ucm_model *m)
{
	size_t n = 0;

	for (unsigned b = 0; b < ucm_box_count(m); b++)
		n += ucm_subev_count(ucm_box_def(m, (int)b)->type) * UCM_NATTR;
	return n;
}

static void ref_apply(struct ref *r, const struct uct_seg *s)
{
	struct ucm_model *m = r->m;
	size_t k = 0;

	ucm_clear_inputs(m);
	for (size_t t = 0; r->attr0 && t < r->ntouched; t++) {
		unsigned b = r->touched[t] >> 16, sub = r->touched[t] & 0xffff;

		k = ref_attr_at(m, b, sub);
		for (unsigned a = 0; a < UCM_NATTR; a++)
			if (ucm_get_input_attr(m, (int)b, sub, a) != r->attr0[k + a])
				ucm_set_input_attr(m, (int)b, sub, a, r->attr0[k + a]);
	}
	r->ntouched = 0;
	for (unsigned i = 0; s && i < s->nin; i++) {
		const struct uct_in *in = &s->in[i];
		int found = 0;

		for (unsigned b = 0; b < ucm_box_count(m); b++) {
			const struct ucm_boxinst *bi = ucm_box_def(m, (int)b);

			if (ucm_boxtype_index(ucm_platform_of(m), bi->type) != in->bt ||
			    ucm_box_socket(m, (int)b) != in->socket ||
			    (in->inst >= 0 && bi->inst != (unsigned)in->inst))
				continue;
			found = 1;
			if (ucm_set_input(m, (int)b, in->sub, ucm_get_input(m, (int)b, in->sub) + in->inc))
				ct_fail(__FILE__, __LINE__, "reference: %s", ucm_error(m));
			if (in->amask) {
				if (r->ntouched == sizeof(r->touched) / sizeof(r->touched[0]))
					ct_fail(__FILE__, __LINE__, "reference: too many attributes");
				else
					r->touched[r->ntouched++] = b << 16 | in->sub;
			}
			for (unsigned a = 0; a < UCM_NATTR; a++)
				if (in->amask >> a & 1)
					ucm_set_input_attr(m, (int)b, in->sub, a, in->attr[a]);
		}
		if (!found)
			ct_fail(__FILE__, __LINE__, "reference: input %u covers no box", i);
	}
	for (unsigned so = 0; so < ucm_nsockets(m); so++) {
		uint64_t want = s ? s->asleep[so] : 0;

		for (unsigned c = 0; c < ucm_platform_of(m)->ncores && c < 64; c++)
			if ((want ^ r->asleep[so]) >> c & 1)
				ucm_core_sleep(m, so, c, (int)(want >> c & 1));
		r->asleep[so] = want;
	}
}

/* Replay the snbep trace at path (header ct_snbep_hdr(seed)) into one model
 * and step a second one through the same segments a reference cycle at a
 * time: registers, truth, what every sub-event was fed, attributes and
 * sleep states must agree.  attrs 0: the trace gives no attributes (the
 * reference does not restore them at each segment). */
static void snbep_replay_check(const char *path, uint64_t seed, int attrs)
{
	struct uct_hdr h;
	struct ucm_model *a, *b;
	struct uct_reader *r, *r2;
	struct uct_replay *rp;
	struct uct_seg *s = malloc(sizeof(*s));
	struct ref ref;
	char err[768], what[64];
	uint64_t end = 0;
	int rc;

	ct_snbep_hdr(&h, seed);
	a = ct_snbep_model(&h);
	b = ct_snbep_model(&h);
	CT_REQUIRE(a && b && s);
	memset(&ref, 0, sizeof(ref));
	ref.m = b;
	ref.nattr = attr_slots(b);
	ref.attr0 = malloc(ref.nattr * sizeof(*ref.attr0));
	CT_REQUIRE(ref.attr0);
	if (attrs) {
		size_t k = 0;

		for (unsigned bx = 0; bx < ucm_box_count(b); bx++)
			for (unsigned sub = 0; sub < ucm_subev_count(ucm_box_def(b, (int)bx)->type); sub++)
				for (unsigned at = 0; at < UCM_NATTR; at++)
					ref.attr0[k++] = ucm_get_input_attr(b, (int)bx, sub, at);
	}
	if (!attrs) {
		free(ref.attr0);
		ref.attr0 = NULL;
	}
	program_snbep(a, seed);
	program_snbep(b, seed);
	CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
	CT_REQUIRE(uct_replay_attach(a, r, &rp) == 0);
	CT_REQUIRE(uct_open(path, &r2, err, sizeof(err)) == 0);
	while ((rc = uct_next(r2, s)) > 0) {
		if (end < s->start)
			ref_apply(&ref, NULL); /* a gap is idle */
		for (; end < s->start; end++)
			CT_REQUIRE(ucm_run_cycles(b, 0, 1) == 0);
		ref_apply(&ref, s);
		for (uint64_t c = 0; c < s->ncycles; c++)
			CT_REQUIRE(ucm_run_cycles(b, 0, 1) == 0);
		end = s->start + s->ncycles;
	}
	CT_EQ(rc, 0);
	uct_close(r2);
	CT_REQUIRE(ucm_run_cycles(a, 0, end) == 0);
	CT_EQ(ucm_cycles(a, 0), ucm_cycles(b, 0));
	for (unsigned d = 0; d < 4; d++)
		CT_EQ(ucm_cycles(a, d), ucm_cycles(b, d));
	snprintf(what, sizeof(what), "seed %llu: replay, stepped", (unsigned long long)seed);
	ct_same_registers(a, b, what, __FILE__, __LINE__);
	for (unsigned bx = 0; bx < ucm_box_count(a); bx++) {
		const struct ucm_boxtype *bt = ucm_box_def(a, (int)bx)->type;

		for (unsigned c = 0; c < bt->nctr; c++) {
			struct ucm_truth ta, tb;

			ucm_truth(a, (int)bx, c, &ta);
			ucm_truth(b, (int)bx, c, &tb);
			CT_EQ(ta.total, tb.total);
			CT_EQ(ta.wraps, tb.wraps);
		}
		for (unsigned sub = 0; sub < ucm_subev_count(bt); sub++) {
			CT_EQ(ucm_fed(a, (int)bx, sub), ucm_fed(b, (int)bx, sub));
			for (unsigned at = 0; at < UCM_NATTR; at++)
				CT_EQ(ucm_get_input_attr(a, (int)bx, sub, at),
				      ucm_get_input_attr(b, (int)bx, sub, at));
		}
	}
	for (unsigned so = 0; so < 2; so++)
		for (unsigned c = 0; c < 8; c++)
			CT_EQ(ucm_core_asleep(a, so, c), ucm_core_asleep(b, so, c));
	uct_replay_detach(rp);
	uct_close(r);
	ucm_destroy(a);
	ucm_destroy(b);
	free(ref.attr0);
	free(s);
}

/* Replay costs O(1) per constant segment on every box of both sockets and
 * every clock domain; stepping the reference clock one cycle at a time
 * (each other domain then advances by at most one cycle a step) is the
 * reference.  Registers, truth, what every sub-event was fed, attributes
 * and sleep states must agree. */
CT_TEST(snbep_replay_equals_cycle_by_cycle_stepping)
{
	char path[128];

	ct_tmpname(path, sizeof(path), "sref.uct");
	for (uint64_t seed = 1; seed <= 8; seed++) {
		CT_REQUIRE(ct_write_random_snbep(path, (int)(seed & 1), 30, seed, 0, NULL) == 0);
		snbep_replay_check(path, seed, 1);
	}
	unlink(path);
}

/* A snbep trace whose segments take their inputs from a pool of npool
 * random vectors (with attributes) and their sleep masks from another
 * pool member, so vectors repeat while masks change on their own: the
 * vector form's references, its sleep masks given only where they change,
 * and the replay's phases entered again.  Keeps the segments in segs. */
static int write_pooled_snbep(const char *path, int binary, unsigned nseg, unsigned npool,
			      uint64_t seed, struct uct_seg *segs)
{
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg *pool = calloc(npool, sizeof(*pool)), *s = malloc(sizeof(*s));
	char err[512];
	uint64_t t = 0;
	int rc = -1;

	ct_snbep_hdr(&h, seed);
	ct_trace_rng = seed * 77;
	if (!pool || !s || uct_writer_open(path, binary, &h, &w, err, sizeof(err)))
		goto out;
	for (unsigned i = 0; i < npool; i++)
		ct_random_snbep_seg(&h, &pool[i], 0, 0);
	for (unsigned i = 0; i < nseg; i++) {
		t += ct_trace_rnd() % 5 == 0 ? ct_trace_rnd() % 50 : 0; /* some gaps */
		*s = pool[ct_trace_rnd() % npool];
		memcpy(s->asleep, pool[ct_trace_rnd() % npool].asleep, sizeof(s->asleep));
		s->start = t;
		s->ncycles = 1 + ct_trace_rnd() % 30;
		if (segs)
			segs[i] = *s;
		if ((rc = uct_write(w, s))) {
			fprintf(stderr, "%s\n", uct_writer_error(w));
			uct_writer_abort(w);
			goto out;
		}
		t += s->ncycles;
	}
	rc = uct_writer_commit(w);
out:
	free(pool);
	free(s);
	return rc;
}

/* Number the vectors of a trace as the replay reads it: repeats of one
 * vector have one number in every form, the vector form's references carry
 * no content, and the content given is the segment written. */
static void check_vectors(const char *path, const struct uct_seg *segs, unsigned nseg,
			  unsigned want_vectors)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	int *vid_of = malloc(nseg * sizeof(*vid_of));
	char err[768];
	unsigned k = 0, refs = 0;
	int rc, vid, full;

	CT_REQUIRE(s && vid_of && uct_open(path, &r, err, sizeof(err)) == 0);
	while ((rc = uct_next_vec(r, s, 0, &vid, &full)) > 0 && k < nseg) {
		CT_EQ(s->start, segs[k].start);
		CT_EQ(s->ncycles, segs[k].ncycles);
		CT_CHECK(!memcmp(s->asleep, segs[k].asleep, sizeof(s->asleep)));
		CT_CHECK(vid >= 0);
		vid_of[k] = vid;
		refs += !full;
		if (full) {
			CT_EQ(s->nin, segs[k].nin);
			for (unsigned i = 0; i < s->nin && i < segs[k].nin; i++)
				CT_CHECK(uct_in_equal(&s->in[i], &segs[k].in[i]));
		}
		/* the same inputs, the same number, whatever the masks */
		for (unsigned j = 0; j < k; j++) {
			int same = segs[j].nin == segs[k].nin;

			for (unsigned i = 0; same && i < segs[k].nin; i++)
				same = uct_in_equal(&segs[j].in[i], &segs[k].in[i]);
			if (same != (vid_of[j] == vid))
				ct_fail(__FILE__, __LINE__, "%s: segments %u and %u: vectors %d and %d", path, j,
					k, vid_of[j], vid);
		}
		k++;
	}
	CT_EQ(rc, 0);
	CT_EQ(k, nseg);
	CT_EQ(uct_vectors(r), want_vectors);
	/* the vector form's references are read without their content */
	if (uct_is_vector_form(r))
		CT_EQ(refs, nseg - want_vectors);
	else
		CT_EQ(refs, 0);
	uct_close(r);
	free(s);
	free(vid_of);
}

/* The binary vector form: each input vector stored once, numbered, and
 * referred to; the record form and text are interned to the same numbers.
 * Round trips between the forms keep the trace (record form -> vector form
 * -> record form and text -> vector form -> text byte for byte), and a
 * replay of each form equals stepping the segments one cycle at a time. */
CT_TEST(vector_form_round_trips_and_replays_like_stepping)
{
	char rec[128], vec[128], rec2[128], txt[128], vec2[128], txt2[128], pln[128], pln2[128];
	struct uct_seg *segs = malloc(200 * sizeof(*segs));
	unsigned char m[12];

	CT_REQUIRE(segs);
	ct_tmpname(pln, sizeof(pln), "pool.pln");
	ct_tmpname(pln2, sizeof(pln2), "pool2.pln");
	ct_tmpname(rec, sizeof(rec), "pool.rec");
	ct_tmpname(vec, sizeof(vec), "pool.vec");
	ct_tmpname(rec2, sizeof(rec2), "pool2.rec");
	ct_tmpname(txt, sizeof(txt), "pool.uct");
	ct_tmpname(vec2, sizeof(vec2), "pool2.vec");
	ct_tmpname(txt2, sizeof(txt2), "pool2.uct");
	for (uint64_t seed = 1; seed <= 3; seed++) {
		CT_REQUIRE(write_pooled_snbep(rec, UCT_BINARY_RECORDS, 200, 7, seed, segs) == 0);
		CT_REQUIRE(ct_convert(rec, vec, UCT_BINARY) == 0);
		CT_REQUIRE(ct_convert(vec, rec2, UCT_BINARY_RECORDS) == 0);
		CT_CHECK(ct_same_file(rec, rec2));
		CT_REQUIRE(ct_convert(vec, txt, UCT_TEXT) == 0);
		CT_REQUIRE(ct_convert(txt, vec2, UCT_BINARY) == 0);
		CT_REQUIRE(ct_convert(vec2, txt2, UCT_TEXT) == 0);
		CT_CHECK(ct_same_file(vec, vec2));
		CT_CHECK(ct_same_file(txt, txt2));
		/* without chunks and back: the same bytes both ways */
		CT_REQUIRE(ct_convert(vec, pln, UCT_BINARY_VECTORS) == 0);
		CT_REQUIRE(ct_convert(pln, vec2, UCT_BINARY) == 0);
		CT_CHECK(ct_same_file(vec, vec2));
		CT_REQUIRE(ct_convert(rec, pln2, UCT_BINARY_VECTORS) == 0);
		CT_CHECK(ct_same_file(pln, pln2));
		/* the flags say which form: bit 0 the vector form, bit 1 its
		 * chunks, bit 2 its sleep masks as the cores that change, bit
		 * 3 those changes possibly none */
		CT_REQUIRE(ct_load(rec, m, sizeof(m)) == sizeof(m));
		CT_EQ(m[10], 0);
		CT_REQUIRE(ct_load(vec, m, sizeof(m)) == sizeof(m));
		CT_EQ(m[10], 15);
		CT_EQ(m[8], 2);
		CT_REQUIRE(ct_load(pln, m, sizeof(m)) == sizeof(m));
		CT_EQ(m[10], 1);
		/* 7 pool vectors, distinct with these seeds */
		check_vectors(vec, segs, 200, 7);
		check_vectors(pln, segs, 200, 7);
		check_vectors(rec, segs, 200, 7);
		check_vectors(txt, segs, 200, 7);
		snbep_replay_check(vec, seed, 1);
		snbep_replay_check(pln, seed, 1);
		snbep_replay_check(rec, seed, 1);
	}
	unlink(rec);
	unlink(vec);
	unlink(rec2);
	unlink(txt);
	unlink(vec2);
	unlink(txt2);
	unlink(pln);
	unlink(pln2);
	free(segs);
}

/* The replay's batches of segments on a platform of several clocks (the
 * model carries each segment's end from the reference clock's cycles to
 * time, and each other clock's cycles from there): a snbep trace of 24
 * pooled vectors with the sleep masks of the first throughout, no gaps,
 * segments of 1 to 12 cycles, equals stepping cycle by cycle, with each
 * header's clocks. */
CT_TEST(snbep_trace_of_repeated_vectors_replays_like_stepping)
{
	char path[128], err[512];

	ct_tmpname(path, sizeof(path), "sdense.uct");
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct uct_hdr h;
		struct uct_writer *w;
		struct uct_seg *pool = calloc(24, sizeof(*pool)), *s = malloc(sizeof(*s));
		uint64_t t = 0;

		CT_REQUIRE(pool && s);
		ct_snbep_hdr(&h, seed);
		ct_trace_rng = seed * 131;
		CT_REQUIRE(uct_writer_open(path, UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
		for (unsigned i = 0; i < 24; i++)
			ct_random_snbep_seg(&h, &pool[i], 0, 0);
		for (unsigned i = 0; i < 600; i++) {
			*s = pool[ct_trace_rnd() % 24];
			memcpy(s->asleep, pool[0].asleep, sizeof(s->asleep));
			s->start = t;
			s->ncycles = 1 + ct_trace_rnd() % 12;
			CT_REQUIRE(uct_write(w, s) == 0);
			t += s->ncycles;
		}
		CT_REQUIRE(uct_writer_commit(w) == 0);
		free(pool);
		free(s);
		snbep_replay_check(path, seed, 1);
	}
	unlink(path);
}

/* The replay's batches with the sleep masks changing at nearly every
 * segment, as a C-state trace's do, and PMIs decided by them: a skl trace
 * of 16 pooled vectors, no gaps, segments of 1 to 12 cycles; the 4 cores'
 * masks a base changed now and then, each core's bit flipped for single
 * segments at its own rate (core 0 rarely ... core 3 every other one);
 * every counter with its overflow interrupt and near its wrap, the PMIs
 * sent to every core, with and without WAKE_ON_PMI.  The replay must equal
 * stepping cycle by cycle with the masks applied where they change: the
 * same PMIs delivered, dropped and waking the same cores at the same times
 * (the sleep states in effect at each PMI are the trace's, whether the
 * segments around it ran in batches or one by one; a core a PMI woke stays
 * awake until its bit changes, within a batch too), the same sleep states
 * at the end, every register and truth.  (Applying a batch's masks as the
 * net change, or those of the last segment read ahead rather than the
 * last run, or none for the segments read ahead and not run, fails it.) */
CT_TEST(trace_of_changing_sleep_delivers_pmis_like_stepping)
{
	char path[128], err[768], what[96];

	ct_tmpname(path, sizeof(path), "sleep.uct");
	for (uint64_t seed = 1; seed <= 6; seed++) {
		for (int wake = 0; wake < 2; wake++) {
			struct uct_hdr h;
			struct uct_writer *w;
			struct uct_seg *pool = calloc(16, sizeof(*pool)), *s = malloc(sizeof(*s));
			struct ucm_model *a = ct_fresh_model(), *b = ct_fresh_model();
			struct uct_reader *r, *r2;
			struct uct_replay *rp;
			struct ref ref;
			uint64_t t = 0, end = 0, base = 0, delivered = 0, wakes = 0, dropped = 0;
			int rc;

			CT_REQUIRE(pool && s && a && b);
			memset(&h, 0, sizeof(h));
			h.plat = ct_skl();
			h.sockets = 1;
			h.seed = seed;
			ct_trace_rng = seed * 6151;
			CT_REQUIRE(uct_writer_open(path, UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
			for (unsigned i = 0; i < 16; i++)
				ct_random_seg(&pool[i], 0, 0);
			for (unsigned i = 0; i < 1500; i++) {
				*s = pool[ct_trace_rnd() % 16];
				if (ct_trace_rnd() % 150 == 0)
					base = ct_trace_rnd() & 0xF;
				/* a third of them one core's bit flipped for the
				 * segment: a core a PMI woke, its bit still set,
				 * sleeps again at the flip back */
				s->asleep[0] = base ^ (ct_trace_rnd() % 80 == 0) ^ (ct_trace_rnd() % 25 == 0) << 1 ^
					       (ct_trace_rnd() % 8 == 0) << 2 ^ (ct_trace_rnd() % 2) << 3;
				s->start = t;
				s->ncycles = 1 + ct_trace_rnd() % 12;
				CT_REQUIRE(uct_write(w, s) == 0);
				t += s->ncycles;
			}
			CT_REQUIRE(uct_writer_commit(w) == 0);
			/* program()'s events, overflow interrupts and counters near
			 * their wrap; the PMIs to all four cores, no freeze */
			for (int k = 0; k < 2; k++) {
				static const uint32_t ctr[] = { 0x706, 0x707, 0x716, 0x717, 0x726,
								0x727, 0x736, 0x737, 0x3B0, 0x3B1 };
				struct ucm_model *m = k ? b : a;

				program(m, seed);
				for (unsigned i = 0; i < 10; i++)
					CT_REQUIRE(ucm_msr_write(m, 0, ctr[i], (1ull << 44) - 1 -
								 (seed * 977 + i * 1231) % 3000) == 0);
				CT_REQUIRE(ucm_msr_write(m, 0, 0x395, (1ull << 48) - 1 - (seed * 1409) % 9000) == 0);
				CT_REQUIRE(ucm_msr_write(m, 0, 0xE01, 1ull << 29 | (uint64_t)wake << 30 | 0xF) == 0);
			}
			/* a: the replay; b: stepped a cycle at a time */
			CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
			CT_REQUIRE(uct_replay_attach(a, r, &rp) == 0);
			memset(&ref, 0, sizeof(ref));
			ref.m = b;
			CT_REQUIRE(uct_open(path, &r2, err, sizeof(err)) == 0);
			while ((rc = uct_next(r2, s)) > 0) {
				ref_apply(&ref, s);
				for (uint64_t c = 0; c < s->ncycles; c++)
					CT_REQUIRE(ucm_run_cycles(b, 0, 1) == 0);
				end = s->start + s->ncycles;
			}
			CT_EQ(rc, 0);
			uct_close(r2);
			CT_REQUIRE(ucm_run_cycles(a, 0, end) == 0);
			CT_EQ(ucm_cycles(a, 0), ucm_cycles(b, 0));
			snprintf(what, sizeof(what), "seed %llu, wake %d: replay, stepped",
				 (unsigned long long)seed, wake);
			same_skl_counts(a, b, what);
			for (unsigned c = 0; c < 4; c++) {
				struct ucm_pmi_stats pb;

				ucm_pmi_stats(b, 0, c, &pb);
				delivered += pb.delivered;
				wakes += pb.wakes;
				dropped += pb.dropped;
			}
			/* PMIs the sleep states decided, and the replay summed phases */
			CT_CHECK(delivered > 0);
			CT_CHECK(wake ? wakes > 0 && dropped == 0 : dropped > 0 && wakes == 0);
			CT_CHECK(ucm_phase_epochs(a) > 0);
			uct_replay_detach(rp);
			uct_close(r);
			ucm_destroy(a);
			ucm_destroy(b);
			free(pool);
			free(s);
		}
	}
	unlink(path);
}

/* More distinct vectors than the dictionary numbers (UCT_MAXVEC): the
 * vectors after it are written whole each time and not numbered (-1), in
 * the vector form and when interning the record form alike; the numbered
 * ones are still referred to; the replay (one phase per numbered vector,
 * the others set input by input) still equals stepping. */
CT_TEST(vectors_beyond_the_dictionary_are_unnumbered)
{
	char vec[128], rec[128];
	const unsigned nd = UCT_MAXVEC + 100, nseg = nd + 300;
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg *s = malloc(sizeof(*s));
	struct uct_reader *r;
	char err[768];
	int cbo, sub, rc, vid, full;
	unsigned k = 0, unnumbered = 0, numbered_refs = 0;

	CT_REQUIRE(s);
	ct_tmpname(vec, sizeof(vec), "many.vec");
	ct_tmpname(rec, sizeof(rec), "many.rec");
	ct_snbep_hdr(&h, 3);
	cbo = ct_bt_index(h.plat, "cbo");
	sub = ucm_subev_find(ucm_boxtype_find(h.plat, "cbo"), "LLC_LOOKUP.DATA_READ_M");
	CT_REQUIRE(cbo >= 0 && sub >= 0);
	CT_REQUIRE(uct_writer_open(vec, UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
	/* vector i: a lookup on the CBos of the bits of i (16 CBos of 2
	 * sockets), then 300 segments that repeat vectors from both ends */
	for (unsigned i = 0; i < nseg; i++) {
		ct_cbo_lookups(s, i, ct_vector_of(i, nd), cbo, sub);
		s->asleep[i % 2] = i % 5;
		CT_REQUIRE(uct_write(w, s) == 0);
	}
	CT_REQUIRE(uct_writer_commit(w) == 0);
	CT_REQUIRE(ct_convert(vec, rec, UCT_BINARY_RECORDS) == 0);
	for (int f = 0; f < 2; f++) {
		CT_REQUIRE(uct_open(f ? rec : vec, &r, err, sizeof(err)) == 0);
		k = unnumbered = numbered_refs = 0;
		while ((rc = uct_next_vec(r, s, 0, &vid, &full)) > 0) {
			if (k < UCT_MAXVEC)
				CT_EQ(vid, (int)k);
			else if (k < nd)
				CT_EQ(vid, -1);
			unnumbered += vid < 0;
			if (k >= nd && vid >= 0) {
				numbered_refs++;
				if (!f)
					CT_EQ(full, 0);
			}
			if (vid < 0)
				CT_EQ(full, 1);
			k++;
		}
		CT_EQ(rc, 0);
		CT_EQ(k, nseg);
		CT_EQ(uct_vectors(r), UCT_MAXVEC);
		/* 100 new ones unnumbered, and the repeats of vectors past the
		 * dictionary (those of the last 100, half of the 300 repeats
		 * reach back that far: v = nd - (i - nd) for even i) */
		CT_EQ(unnumbered + numbered_refs, 100 + 300);
		CT_CHECK(unnumbered > 100 && numbered_refs >= 100);
		uct_close(r);
	}
	free(s);
	snbep_replay_check(vec, 3, 0);
	unlink(vec);
	unlink(rec);
}

/* Generated traces of the platforms with several clocks (where the model
 * steps a clock only where its boxes' part of the phase changes: the PCU
 * alone in `cstate`, QPI and R3QPI with the CBos in `qpi`), every counter
 * programmed at random (ct_program: thresholds, edges, a quarter near
 * their wrap, PMIs), replayed into one model and fed segment by segment
 * into another, inputs, attributes and sleep set one by one: registers,
 * truth, what every sub-event was fed, each clock's cycles and the sleep
 * states must agree. */
CT_TEST(generated_traces_replay_like_segments_set_one_by_one)
{
	static const struct {
		const char *plat, *kind;
		double seconds;
	} cases[] = { { "ivt", "cstate", 0.002 }, { "snbep", "cstate", 0.002 }, { "ivt", "qpi", 0.004 },
		      { "snbep", "qpi", 0.003 }, { "ivt", "llc", 0.006 }, { "ivt", "stream", 0.008 } };
	char path[128];

	ct_tmpname(path, sizeof(path), "gclk.uct");
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct uct_gen_opts o = { cases[c].kind, cases[c].seconds, 10.0, 0.7, 0.9, 0.25, 0.2, 10000, 0,
					  1 + c, 0 };
		struct uct_hdr h;
		struct ucm_model *ms[2];
		struct uct_reader *r, *r2;
		struct uct_replay *rp;
		struct uct_seg *s = malloc(sizeof(*s));
		struct ref ref;
		char err[768], what[96];
		uint64_t end = 0, nseg = 0;
		int rc;

		memset(&h, 0, sizeof(h));
		h.plat = ucm_platform_find(cases[c].plat);
		h.sockets = 2;
		h.seed = 1 + c;
		CT_REQUIRE(s && ct_gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
		CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
		ms[0] = ct_snbep_model(uct_header(r));
		ms[1] = ct_snbep_model(uct_header(r));
		CT_REQUIRE(ms[0] && ms[1]);
		CT_EQ(ct_program(ms, 2, 1000 + c, 0), -1);
		memset(&ref, 0, sizeof(ref));
		ref.m = ms[1];
		ref.nattr = attr_slots(ms[1]);
		CT_REQUIRE((ref.attr0 = malloc(ref.nattr * sizeof(*ref.attr0))) != NULL);
		{
			size_t k = 0;

			for (unsigned bx = 0; bx < ucm_box_count(ms[1]); bx++)
				for (unsigned sub = 0; sub < ucm_subev_count(ucm_box_def(ms[1], (int)bx)->type);
				     sub++)
					for (unsigned at = 0; at < UCM_NATTR; at++)
						ref.attr0[k++] = ucm_get_input_attr(ms[1], (int)bx, sub, at);
		}
		CT_REQUIRE(uct_replay_attach(ms[0], r, &rp) == 0);
		CT_REQUIRE(uct_open(path, &r2, err, sizeof(err)) == 0);
		while ((rc = uct_next(r2, s)) > 0) {
			if (end < s->start) {
				ref_apply(&ref, NULL);
				CT_REQUIRE(ucm_run_cycles(ms[1], 0, s->start - end) == 0);
			}
			ref_apply(&ref, s);
			CT_REQUIRE(ucm_run_cycles(ms[1], 0, s->ncycles) == 0);
			end = s->start + s->ncycles;
			nseg++;
		}
		CT_EQ(rc, 0);
		uct_close(r2);
		CT_REQUIRE(ucm_run_cycles(ms[0], 0, end) == 0);
		CT_CHECK(!uct_replay_failed(rp));
		/* enough segments for the replay to run batches in epochs */
		if (nseg < 500 || !ucm_phase_epochs(ms[0]))
			ct_fail(__FILE__, __LINE__, "%s %s: %llu segments, %llu epochs", cases[c].plat,
				cases[c].kind, (unsigned long long)nseg,
				(unsigned long long)ucm_phase_epochs(ms[0]));
		for (unsigned d = 0; d < h.plat->nclocks; d++)
			CT_EQ(ucm_cycles(ms[0], d), ucm_cycles(ms[1], d));
		snprintf(what, sizeof(what), "%s %s: replay, segments", cases[c].plat, cases[c].kind);
		ct_same_registers(ms[0], ms[1], what, __FILE__, __LINE__);
		for (unsigned bx = 0; bx < ucm_box_count(ms[0]); bx++) {
			const struct ucm_boxtype *bt = ucm_box_def(ms[0], (int)bx)->type;

			for (unsigned k = 0; k < bt->nctr; k++) {
				struct ucm_truth ta, tb;

				ucm_truth(ms[0], (int)bx, k, &ta);
				ucm_truth(ms[1], (int)bx, k, &tb);
				if (ta.total != tb.total || ta.wraps != tb.wraps)
					ct_fail(__FILE__, __LINE__, "%s: box %u counter %u: %llu (%llu wraps), want %llu (%llu)",
						what, bx, k, (unsigned long long)ta.total,
						(unsigned long long)ta.wraps, (unsigned long long)tb.total,
						(unsigned long long)tb.wraps);
			}
			for (unsigned sub = 0; sub < ucm_subev_count(bt); sub++)
				CT_EQ(ucm_fed(ms[0], (int)bx, sub), ucm_fed(ms[1], (int)bx, sub));
		}
		for (unsigned so = 0; so < 2; so++)
			for (unsigned k = 0; k < h.plat->ncores; k++)
				CT_EQ(ucm_core_asleep(ms[0], so, k), ucm_core_asleep(ms[1], so, k));
		uct_replay_detach(rp);
		uct_close(r);
		ucm_destroy(ms[0]);
		ucm_destroy(ms[1]);
		free(ref.attr0);
		free(s);
	}
	unlink(path);
}

CT_MAIN()
