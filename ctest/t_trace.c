/*
 * t_trace.c - event traces and access traces (docs/formats.md): text <->
 * binary round trips, segment replay against cycle-by-cycle stepping under
 * random programming (threshold, invert, edge, overflow, freeze), generator
 * statistics, recorded driver sessions replayed, and every class of
 * malformed input rejected with its location; for the Skylake client and
 * for the two-socket Xeon E5-2600 with its clock domains, filter
 * attributes, PCU occupancy inputs and core sleep states.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ct.h"
#include "ct_prog.h"
#include "ct_rig.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"
#include "uct_gen.h"
#include "uct_trace.h"

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static const struct ucm_platform *skl(void)
{
	return ucm_platform_find("skl");
}

static void tmpname(char *buf, size_t n, const char *what)
{
	snprintf(buf, n, "/tmp/uncore-t-%d-%s", (int)getpid(), what);
}

/* A random segment whose inputs respect each code's maximum increment. */
static void random_seg(struct uct_seg *s, uint64_t start, int longruns)
{
	const struct ucm_platform *p = skl();
	static const char *const boxes[] = { "cbo", "arb", "imc" };

	memset(s, 0, sizeof(*s));
	s->start = start;
	s->ncycles = longruns ? 1 + rnd() % 5000 : 1 + rnd() % 40;
	for (unsigned b = 0; b < 3; b++) {
		const struct ucm_boxtype *bt = ucm_boxtype_find(p, boxes[b]);
		unsigned ni = bt->ninst_default;

		for (unsigned c = 0; c < bt->ncodes; c++) {
			const struct ucm_evcode *ec = &bt->codes[c];
			unsigned nsub = ec->nsubs ? ec->nsubs : 1, first = 0;

			for (unsigned k = 0; k < c; k++)
				first += bt->codes[k].nsubs ? bt->codes[k].nsubs : 1;
			for (unsigned inst = 0; inst < ni; inst++) {
				/* at most the max, on one random sub-event */
				if (rnd() % 3 == 0)
					continue;
				s->in[s->nin++] = (struct uct_in){ .bt = (uint8_t)ucm_boxtype_index(p, bt),
								   .inst = (int16_t)(ni > 1 ? (int)inst : 0),
								   .sub = (uint16_t)(first + rnd() % nsub),
								   .inc = (uint32_t)(rnd() % (ec->max_inc + 1)) };
			}
		}
	}
}

static int write_random(const char *path, int binary, unsigned nseg, uint64_t seed, int longruns)
{
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[512];
	uint64_t t = 0;
	int rc;

	memset(&h, 0, sizeof(h));
	h.plat = skl();
	h.sockets = 1;
	h.seed = seed;
	rng_state = seed;
	if ((rc = uct_writer_open(path, binary, &h, &w, err, sizeof(err)))) {
		free(s);
		return rc;
	}
	for (unsigned i = 0; i < nseg; i++) {
		t += rnd() % 4 == 0 ? rnd() % 100 : 0; /* some gaps */
		random_seg(s, t, longruns);
		if ((rc = uct_write(w, s))) {
			fprintf(stderr, "%s\n", uct_writer_error(w));
			uct_writer_abort(w);
			free(s);
			return rc;
		}
		t += s->ncycles;
	}
	free(s);
	return uct_writer_commit(w);
}

static int same_file(const char *a, const char *b)
{
	FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
	int same = x && y;

	while (same) {
		int c = getc(x), d = getc(y);

		if (c != d)
			same = 0;
		if (c == EOF || d == EOF)
			break;
	}
	if (x)
		fclose(x);
	if (y)
		fclose(y);
	return same;
}

static int convert(const char *in, const char *out, int binary)
{
	struct uct_reader *r;
	struct uct_writer *w;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[768];
	int rc;

	if ((rc = uct_open(in, &r, err, sizeof(err)))) {
		fprintf(stderr, "%s\n", err);
		free(s);
		return rc;
	}
	if ((rc = uct_writer_open(out, binary, uct_header(r), &w, err, sizeof(err)))) {
		uct_close(r);
		free(s);
		return rc;
	}
	while ((rc = uct_next(r, s)) > 0)
		if ((rc = uct_write(w, s)))
			break;
	if (rc < 0) {
		fprintf(stderr, "%s\n", uct_reader_error(r));
		uct_writer_abort(w);
	} else {
		rc = uct_writer_commit(w);
	}
	uct_close(r);
	free(s);
	return rc;
}

/* docs/formats.md: the two encodings carry the same content. */
CT_TEST(text_binary_round_trips_are_lossless)
{
	char t1[128], b1[128], t2[128], b2[128];

	tmpname(t1, sizeof(t1), "rt1.uct");
	tmpname(b1, sizeof(b1), "rt1.bin");
	tmpname(t2, sizeof(t2), "rt2.uct");
	tmpname(b2, sizeof(b2), "rt2.bin");
	for (uint64_t seed = 1; seed <= 20; seed++) {
		CT_REQUIRE(write_random(t1, 0, 50 + (unsigned)seed * 7, seed, 1) == 0);
		CT_REQUIRE(convert(t1, b1, 1) == 0);
		CT_REQUIRE(convert(b1, t2, 0) == 0);
		CT_REQUIRE(convert(t2, b2, 1) == 0);
		CT_CHECK(same_file(t1, t2));
		CT_CHECK(same_file(b1, b2));
	}
	unlink(t1);
	unlink(b1);
	unlink(t2);
	unlink(b2);
}

/* Program the same random counters into a model. */
static void program(struct ucm_model *m, uint64_t seed)
{
	static const uint32_t evsel[] = { 0x700, 0x701, 0x710, 0x711, 0x720, 0x721, 0x730, 0x731, 0x3B2, 0x3B3 };
	static const uint32_t ctr[] = { 0x706, 0x707, 0x716, 0x717, 0x726, 0x727, 0x736, 0x737, 0x3B0, 0x3B1 };
	static const uint8_t cbo_codes[][2] = { { 0x34, 0x8F }, { 0x34, 0x16 }, { 0x34, 0x21 }, { 0x22, 0x41 },
						{ 0x22, 0xCD }, { 0x34, 0xFF } };
	static const uint8_t arb_codes[][2] = { { 0x80, 0x01 }, { 0x81, 0x01 }, { 0x81, 0x20 }, { 0x84, 0x01 } };

	rng_state = seed * 7919;
	for (unsigned i = 0; i < 10; i++) {
		const uint8_t *c = i < 8 ? cbo_codes[rnd() % 6] : arb_codes[rnd() % 4];
		uint64_t v = c[0] | (uint64_t)c[1] << 8 | 1ull << 22 | 1ull << 20;
		uint64_t thr = rnd() % 3 ? 0 : rnd() % 4;

		v |= thr << 24;
		if (thr && rnd() % 2)
			v |= 1ull << 23; /* INV */
		if (thr && rnd() % 2)
			v |= 1ull << 18; /* E */
		ucm_msr_write(m, 0, evsel[i], v);
		/* some counters close to their 44-bit wrap */
		ucm_msr_write(m, 0, ctr[i], rnd() % 2 ? (1ull << 44) - 1 - rnd() % 20000 : 0);
	}
	ucm_msr_write(m, 0, 0x395, (1ull << 48) - 1 - rnd() % 50000);
	ucm_msr_write(m, 0, 0x394, 1ull << 22 | 1ull << 20);
	ucm_msr_write(m, 0, 0xE01, 1ull << 29 | (rnd() % 2) << 31 | 0x3);
}

static struct ucm_model *fresh_model(void)
{
	struct ucm_config cfg;
	struct ucm_model *m;

	ucm_config_init(&cfg, skl());
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_PCI] = cfg.access_ps[UCM_MMIO] = 0;
	return ucm_create(&cfg, &m) ? NULL : m;
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

	tmpname(path, sizeof(path), "ref.uct");
	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct ucm_model *a = fresh_model(), *b = fresh_model();
		struct uct_reader *r;
		struct uct_replay *rp;
		struct uct_seg *s = malloc(sizeof(*s));
		char err[768], what[64];
		uint64_t end = 0;

		CT_REQUIRE(a && b && s);
		CT_REQUIRE(write_random(path, (int)(seed & 1), 40, seed, 0) == 0);
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
						if (ucm_boxtype_index(skl(), ucm_box_def(b, (int)k)->type) == in->bt &&
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
	int cbo = ucm_boxtype_index(skl(), ucm_boxtype_find(skl(), "cbo"));
	int arb = ucm_boxtype_index(skl(), ucm_boxtype_find(skl(), "arb"));

	tmpname(path, sizeof(path), "dense.uct");
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct ucm_model *a = fresh_model(), *b = fresh_model();
		struct uct_seg *s = calloc(1, sizeof(*s));
		struct uct_hdr h;
		struct uct_writer *w;
		struct uct_reader *r;
		struct uct_replay *rp;
		uint64_t t = 0, v;
		unsigned reads = 0;

		CT_REQUIRE(a && b && s);
		memset(&h, 0, sizeof(h));
		h.plat = skl();
		h.sockets = 1;
		CT_REQUIRE(uct_writer_open(path, UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
		rng_state = seed;
		for (unsigned i = 0, k = 0; i < nseg; i++) {
			/* vector k % 132: mostly in turn (changes of phase that
			 * repeat), sometimes anywhere */
			k = rnd() % 8 ? (k + 1) % 150 : (unsigned)(rnd() % 150);
			t += rnd() % 64 == 0 ? rnd() % 100 : 0;
			s->start = t;
			s->ncycles = rnd() % 8 ? 1 : 1 + rnd() % 300;
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
					if (ucm_boxtype_index(skl(), ucm_box_def(b, (int)x)->type) == s->in[i].bt &&
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
		rng_state = seed * 31;
		while (ucm_cycles(a, 0) < t) {
			uint64_t n = 1 + rnd() % 3000;

			CT_REQUIRE(ucm_run_cycles(a, 0, n < t - ucm_cycles(a, 0) ? n : t - ucm_cycles(a, 0)) == 0);
			if (rnd() % 4 == 0) {
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

/* A constant segment is O(1) in its length: 2^45 cycles of full input
 * replay like one (a per-cycle implementation would not finish). */
CT_TEST(long_constant_segment_replays_in_constant_time)
{
	char path[128], err[768];
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg *s = calloc(1, sizeof(*s));
	struct ucm_model *m = fresh_model();
	struct uct_reader *r;
	struct uct_replay *rp;
	uint64_t v;

	CT_REQUIRE(s && m);
	tmpname(path, sizeof(path), "long.uct");
	memset(&h, 0, sizeof(h));
	h.plat = skl();
	h.sockets = 1;
	CT_REQUIRE(uct_writer_open(path, 0, &h, &w, err, sizeof(err)) == 0);
	s->ncycles = 1ull << 45;
	s->nin = 1;
	s->in[0] = (struct uct_in){ .bt = (uint8_t)ucm_boxtype_index(h.plat, ucm_boxtype_find(h.plat, "arb")),
				    .sub = 0 /* TRK_OCCUPANCY.ALL */, .inc = 32 };
	CT_REQUIRE(uct_write(w, s) == 0);
	CT_REQUIRE(uct_writer_commit(w) == 0);
	ucm_msr_write(m, 0, 0x3B2, 0x80 | 0x01 << 8 | 1ull << 22);
	ucm_msr_write(m, 0, 0xE01, 1ull << 29);
	CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
	CT_REQUIRE(uct_replay_attach(m, r, &rp) == 0);
	CT_REQUIRE(ucm_run_cycles(m, 0, 1ull << 45) == 0);
	CT_REQUIRE(ucm_msr_peek(m, 0, 0x3B0, &v) == 0);
	/* 32 * 2^45 = 2^50 increments: a multiple of 2^44, so the value is 0 */
	CT_EQ(v, 0);
	{
		struct ucm_truth t;

		ucm_truth(m, ucm_box_find(m, 0, "arb", 0), 0, &t);
		CT_EQ(t.total, 1ull << 50);
		CT_EQ(t.wraps, 64);
	}
	uct_replay_detach(rp);
	uct_close(r);
	ucm_destroy(m);
	free(s);
	unlink(path);
}

/* Fed totals of a generated trace, by reading it back. */
static void fed_totals(const char *path, uint64_t *cycles, uint64_t *reads, uint64_t *writes,
		       uint64_t *hits, uint64_t *misses)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[768], name[96];
	const struct ucm_platform *p = skl();

	*cycles = *reads = *writes = *hits = *misses = 0;
	if (!s || uct_open(path, &r, err, sizeof(err))) {
		free(s);
		return;
	}
	while (uct_next(r, s) > 0) {
		*cycles = s->start + s->ncycles;
		for (unsigned i = 0; i < s->nin; i++) {
			const struct ucm_boxtype *bt = NULL;
			uint64_t n;

			for (unsigned k = 0; k < p->nboxes; k++)
				if (ucm_boxtype_index(p, p->boxes[k].type) == s->in[i].bt)
					bt = p->boxes[k].type;
			n = s->in[i].inc * s->ncycles * (s->in[i].inst < 0 ? bt->ninst_default : 1);
			ucm_subev_name(bt, s->in[i].sub, name, sizeof(name));
			if (!strcmp(name, "DRAM_DATA_READS"))
				*reads += n;
			else if (!strcmp(name, "DRAM_DATA_WRITES"))
				*writes += n;
			else if (!strcmp(name, "CACHE_LOOKUP.READ_E"))
				*hits += n;
			else if (!strcmp(name, "CACHE_LOOKUP.READ_I"))
				*misses += n;
		}
	}
	uct_close(r);
	free(s);
}

static int gen(const char *path, const struct uct_gen_opts *o)
{
	struct uct_hdr h;
	struct uct_writer *w;
	char err[512];
	int rc;

	memset(&h, 0, sizeof(h));
	h.plat = skl();
	h.sockets = 1;
	h.seed = o->seed;
	if (uct_writer_open(path, 1, &h, &w, err, sizeof(err)))
		return -1;
	if ((rc = uct_generate(&h, o, w, err, sizeof(err)))) {
		fprintf(stderr, "%s\n", err);
		uct_writer_abort(w);
		return rc;
	}
	return uct_writer_commit(w);
}

/* Generators produce the statistics asked for (bandwidth to 0.1%, shares
 * to 0.1%), and the same seed gives the same trace. */
CT_TEST(generators_have_the_requested_statistics)
{
	char path[128], path2[128];
	uint64_t cyc, rd, wr, hit, miss;
	struct uct_gen_opts o = { "stream", 0.2, 15.0, 0.6, 0, 0, 0, 0, 0, 42, 0 };
	double bw;

	tmpname(path, sizeof(path), "gen.bin");
	tmpname(path2, sizeof(path2), "gen2.bin");
	CT_REQUIRE(gen(path, &o) == 0);
	fed_totals(path, &cyc, &rd, &wr, &hit, &miss);
	CT_EQ(cyc, 600000000); /* 0.2 s at 3 GHz */
	bw = (double)(rd + wr) * 64 / 0.2 / 1e9;
	CT_CHECK(bw > 15.0 * 0.999 && bw < 15.0 * 1.001);
	CT_CHECK((double)rd / (double)(rd + wr) > 0.599 && (double)rd / (double)(rd + wr) < 0.601);
	/* determinism */
	CT_REQUIRE(gen(path2, &o) == 0);
	CT_CHECK(same_file(path, path2));
	o.seed = 43;
	CT_REQUIRE(gen(path2, &o) == 0);
	CT_CHECK(!same_file(path, path2));

	/* 0.2 lookups on 4 CBos with 20% misses: 30.7 GB/s of DRAM reads, within
	 * the 34.1 GB/s of two DDR4-2133 channels */
	o = (struct uct_gen_opts){ "llc", 0.1, 0, 0, 0.8, 0.2, 0, 0, 0, 7, 0 };
	CT_REQUIRE(gen(path, &o) == 0);
	fed_totals(path, &cyc, &rd, &wr, &hit, &miss);
	CT_CHECK((double)hit / (double)(hit + miss) > 0.799 && (double)hit / (double)(hit + miss) < 0.801);
	CT_CHECK((double)(hit + miss) / (4.0 * (double)cyc) > 0.1998 &&
		 (double)(hit + miss) / (4.0 * (double)cyc) < 0.2002);
	CT_EQ(rd, miss); /* every miss reads memory */
	o.lookups = 0.4; /* 61 GB/s: more than the channels carry */
	CT_CHECK(gen(path, &o) == -ERANGE);

	/* bursts at the DRAM's peak (2 x 2133 MT/s x 8 B = 34.128 GB/s, 0.17776
	 * lines a 3 GHz cycle) a quarter of the time; with --exceed-limits at
	 * the model's one line a cycle */
	o = (struct uct_gen_opts){ "burst", 0.1, 0, 0, 0, 0, 0.25, 20000, 0, 3, 0 };
	CT_REQUIRE(gen(path, &o) == 0);
	fed_totals(path, &cyc, &rd, &wr, &hit, &miss);
	CT_CHECK((double)rd / (double)cyc > 0.25 * 0.17776 * 0.998 &&
		 (double)rd / (double)cyc < 0.25 * 0.17776 * 1.002);
	o.exceed = 1;
	CT_REQUIRE(gen(path, &o) == 0);
	fed_totals(path, &cyc, &rd, &wr, &hit, &miss);
	CT_CHECK((double)rd / (double)cyc > 0.2495 && (double)rd / (double)cyc < 0.2505);

	o = (struct uct_gen_opts){ "idle", 0.05, 0, 0, 0, 0, 0, 0, 0, 3, 0 };
	CT_REQUIRE(gen(path, &o) == 0);
	fed_totals(path, &cyc, &rd, &wr, &hit, &miss);
	CT_EQ(cyc, 150000000);
	CT_EQ(rd + wr + hit + miss, 0);

	o = (struct uct_gen_opts){ "stream", 0.1, 500.0, 0.5, 0, 0, 0, 0, 0, 3, 0 };
	CT_CHECK(gen(path, &o) == -ERANGE);
	unlink(path);
	unlink(path2);
}

/* An access trace recorded on one backend replays the same driver session
 * to the same totals; a different session diverges with a clear message. */
CT_TEST(recorded_driver_session_replays)
{
	char path[128], err[1024];
	struct ucm_config cfg;
	struct ucm_model *m;
	struct ucb *sim, *rec, *rep;
	struct ucd *d;
	uint64_t totals[3];

	tmpname(path, sizeof(path), "access.log");
	ucm_config_init(&cfg, skl());
	cfg.strict = 1;
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	for (unsigned b = 0; b < ucm_box_count(m); b++)
		if (!strcmp(ucm_box_def(m, (int)b)->type->name, "cbo"))
			ucm_set_input(m, (int)b, (unsigned)ucm_subev_find(ucm_box_def(m, (int)b)->type,
									   "CACHE_LOOKUP.WRITE_M"), 1);
	CT_REQUIRE(ucb_sim_create(m, &sim) == 0);
	CT_REQUIRE(ucb_rec_create(sim, path, &rec, err, sizeof(err)) == 0);
	CT_REQUIRE(ucd_open(rec, NULL, &d) == 0);
	CT_REQUIRE(ucd_add_events(d, "uclk,UNC_CBO_CACHE_LOOKUP.ANY_M,data_reads") == 0);
	CT_REQUIRE(ucd_run(d, 2000000, 500000, NULL, NULL) == 0);
	for (size_t i = 0; i < 3; i++) {
		struct ucd_evinfo ei;

		ucd_event(d, i, &ei);
		totals[i] = ei.total;
	}
	CT_CHECK(totals[1] > 0);
	CT_REQUIRE(ucd_restore(d) == 0);
	ucd_close(d);
	CT_REQUIRE(ucb_rec_commit(rec, err, sizeof(err)) == 0);
	ucb_destroy(rec);
	ucb_destroy(sim);
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);

	/* the same session, from the log alone */
	CT_REQUIRE(ucb_replay_create(path, &rep, err, sizeof(err)) == 0);
	CT_REQUIRE(ucd_open(rep, NULL, &d) == 0);
	CT_REQUIRE(ucd_add_events(d, "uclk,UNC_CBO_CACHE_LOOKUP.ANY_M,data_reads") == 0);
	CT_REQUIRE(ucd_run(d, 2000000, 500000, NULL, NULL) == 0);
	for (size_t i = 0; i < 3; i++) {
		struct ucd_evinfo ei;

		ucd_event(d, i, &ei);
		CT_EQ(ei.total, totals[i]);
	}
	CT_REQUIRE(ucd_restore(d) == 0);
	ucd_close(d);
	CT_EQ(ucb_replay_finish(rep, err, sizeof(err)), 0);
	ucb_destroy(rep);

	/* another event: the first differing write is reported */
	CT_REQUIRE(ucb_replay_create(path, &rep, err, sizeof(err)) == 0);
	CT_REQUIRE(ucd_open(rep, NULL, &d) == 0);
	CT_REQUIRE(ucd_add_events(d, "uclk,UNC_CBO_CACHE_LOOKUP.ANY_I,data_reads") == 0);
	CT_EQ(ucd_run(d, 2000000, 500000, NULL, NULL), -EPROTO);
	CT_CONTAINS(ucd_error(d), "replay diverges");
	CT_CONTAINS(ucd_error(d), "the log expects: wrmsr 0 0x700 0x508134");
	CT_CONTAINS(ucd_error(d), "the driver did: wrmsr 0 0x700 0x508834");
	ucd_close(d);
	ucb_destroy(rep);

	/* a shorter session leaves accesses unconsumed */
	CT_REQUIRE(ucb_replay_create(path, &rep, err, sizeof(err)) == 0);
	CT_REQUIRE(ucd_open(rep, NULL, &d) == 0);
	ucd_close(d);
	CT_EQ(ucb_replay_finish(rep, err, sizeof(err)), -EPROTO);
	CT_CONTAINS(err, "more");
	ucb_destroy(rep);
	unlink(path);
}

/* ---- malformed inputs ---- */

static void expect_text_error(const char *text, const char *where, const char *what)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[768];
	int rc = uct_open_mem("t.uct", text, strlen(text), &r, err, sizeof(err));

	if (!rc) {
		while ((rc = uct_next(r, s)) > 0)
			;
		snprintf(err, sizeof(err), "%s", uct_reader_error(r));
		uct_close(r);
	}
	free(s);
	if (rc >= 0) {
		ct_fail(__FILE__, __LINE__, "accepted: %s", text);
		return;
	}
	if (!strstr(err, where) || !strstr(err, what))
		ct_fail(__FILE__, __LINE__, "for %s: got \"%s\", want \"%s\" and \"%s\"", text, err, where,
			what);
}

#define HDR "uncore-trace 1\nplatform skl\n"

/* docs/formats.md, errors: file:line:col and what was expected. */
CT_TEST(malformed_text_traces_are_rejected_with_their_location)
{
	expect_text_error("", "t.uct:", "empty");
	expect_text_error("uncore-trace 3\nplatform skl\n", "t.uct:1:14:", "unsupported version 3");
	expect_text_error("hello\n", "t.uct:1:1:", "not an uncore event trace");
	expect_text_error("uncore-trace 1\nplatform xyz\n", "t.uct:2:10:", "unknown platform");
	expect_text_error("uncore-trace 1\nsockets 1\n", "t.uct:2:1:", "expected 'platform");
	expect_text_error(HDR "sockets 3\n", "t.uct:3:9:", "1..1 sockets");
	expect_text_error(HDR "clock fclk 100\n", "t.uct:3:7:", "no clock");
	expect_text_error(HDR "boxes cbo=9\n", "t.uct:3:11:", "1..4 instances");
	expect_text_error(HDR "colour red\n", "t.uct:3:1:", "unknown header line");
	expect_text_error(HDR "run 10: xbox0.FOO=1\n", "t.uct:3:9:", "unknown box");
	expect_text_error(HDR "run 10: cbo0.NOPE=1\n", "t.uct:3:14:", "no sub-event 'NOPE'");
	expect_text_error(HDR "run 10: cbo7.CACHE_LOOKUP.READ_M=1\n", "t.uct:3:12:", "instances (0-3)");
	expect_text_error(HDR "boxes cbo=2\nrun 10: cbo2.CACHE_LOOKUP.READ_M=1\n", "t.uct:4:12:", "2 cbo instances");
	expect_text_error(HDR "run 10: s1.cbo0.CACHE_LOOKUP.READ_M=1\n", "t.uct:3:", "socket 1");
	expect_text_error(HDR "run 10: cbo0.CACHE_LOOKUP.READ_M=2\n", "t.uct:3:9:", "exceeds the event's maximum");
	expect_text_error(HDR "run 10: cbo0.CACHE_LOOKUP.READ_M=1, cbo0.CACHE_LOOKUP.READ_E=1\n", "t.uct:3:37:",
			  "exceeds the event's maximum");
	expect_text_error(HDR "run 10: cbo.CACHE_LOOKUP.READ_M=1, cbo2.CACHE_LOOKUP.WRITE_M=1\n", "t.uct:3:36:",
			  "cbo2 CACHE_LOOKUP: 2 per cycle");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL=4294967296\n", "t.uct:3:32:", "out of range");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL=99999999999999999999999\n", "t.uct:3:32:",
			  "out of range");
	expect_text_error(HDR "run 0: \n", "t.uct:3:5:", "at least one cycle");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL=1, arb0.TRK_OCCUPANCY.ALL=1\n", "t.uct:3:35:",
			  "given twice");
	expect_text_error(HDR "run 10:\n@5 run 3:\n", "t.uct:4:2:", "out-of-order time");
	expect_text_error(HDR "run 10 arb0.TRK_OCCUPANCY.ALL=1\n", "t.uct:3:8:", "expected ':'");
	expect_text_error(HDR "walk 10:\n", "t.uct:3:1:", "unknown header line");
	expect_text_error(HDR "run 10:\nwalk 3:\n", "t.uct:4:1:", "expected 'run N:'");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL=1 arb0.COH_TRK_REQUESTS.ALL=1\n", "t.uct:3:34:",
			  "expected ','");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL=1,\n", "t.uct:3:34:", "expected an input");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL\n", "t.uct:3:31:", "expected '='");
	expect_text_error(HDR "run 10: arb0.TRK_OCCUPANCY.ALL=x\n", "t.uct:3:32:", "expected increment");
	expect_text_error(HDR "run 10x:\n", "t.uct:3:7:", "junk after");
	expect_text_error(HDR "run 10: arb0\n", "t.uct:3:13:", "expected '.'");
	/* comments and blank lines are fine */
	{
		const char *ok = "# a trace\n" HDR "\n  # idle first\n@100 run 5: arb.TRK_OCCUPANCY.ALL=3 # three\ncycle:\n";
		struct uct_reader *r;
		struct uct_seg s;
		char err[768];

		CT_REQUIRE(uct_open_mem("ok.uct", ok, strlen(ok), &r, err, sizeof(err)) == 0);
		CT_EQ(uct_next(r, &s), 1);
		CT_EQ(s.start, 100);
		CT_EQ(s.ncycles, 5);
		CT_EQ(s.nin, 1);
		CT_EQ(s.in[0].inc, 3);
		CT_EQ(uct_next(r, &s), 1);
		CT_EQ(s.start, 105);
		CT_EQ(s.ncycles, 1);
		CT_EQ(uct_next(r, &s), 0);
		uct_close(r);
	}
}

static size_t load(const char *path, unsigned char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, cap, f) : 0;

	if (f)
		fclose(f);
	return n;
}

static int read_all(const unsigned char *buf, size_t n, char *err, size_t en)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	int rc = uct_open_mem("t.bin", buf, n, &r, err, en);

	if (!rc) {
		while ((rc = uct_next(r, s)) > 0)
			;
		snprintf(err, en, "%s", uct_reader_error(r));
		uct_close(r);
	}
	free(s);
	return rc;
}

/* read_all as a replay reads: uct_next_vec without the vectors' content. */
static int read_vec(const unsigned char *buf, size_t n, char *err, size_t en)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	int rc = uct_open_mem("t.bin", buf, n, &r, err, en), vid, full;

	if (!rc) {
		while ((rc = uct_next_vec(r, s, 0, &vid, &full)) > 0)
			;
		snprintf(err, en, "%s", uct_reader_error(r));
		uct_close(r);
	}
	free(s);
	return rc;
}

/* read_all as the check before a replay reads (uct_open_checked), from a
 * file named t.bin in a directory of its own. */
static int read_checked(const unsigned char *buf, size_t n, char *err, size_t en)
{
	char dir[128], path[160];
	struct uct_reader *r = NULL;
	FILE *f;
	int rc;

	tmpname(dir, sizeof(dir), "chkdir");
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/t.bin", dir);
	if (!(f = fopen(path, "wb")))
		return snprintf(err, en, "%s: cannot write", path), -EIO;
	if (fwrite(buf, 1, n, f) != n) {
		fclose(f);
		return snprintf(err, en, "%s: cannot write", path), -EIO;
	}
	if (fclose(f))
		return snprintf(err, en, "%s: cannot write", path), -EIO;
	rc = uct_open_checked(path, NULL, &r, err, en);
	if (!rc)
		uct_close(r);
	unlink(path);
	rmdir(dir);
	return rc;
}

/* Binary traces: every truncation and every single-byte corruption is
 * detected (magic, version, block CRC, lengths, end block). */
CT_TEST(truncated_or_corrupted_binary_traces_are_detected)
{
	char path[128], err[768];
	static unsigned char buf[1 << 16], bad[1 << 16];
	size_t n;

	tmpname(path, sizeof(path), "c.bin");
	CT_REQUIRE(write_random(path, 1, 30, 5, 1) == 0);
	n = load(path, buf, sizeof(buf));
	CT_REQUIRE(n > 100 && n < sizeof(buf));
	CT_EQ(read_all(buf, n, err, sizeof(err)), 0);
	for (size_t cut = 0; cut < n; cut++) {
		if (read_all(buf, cut, err, sizeof(err)) >= 0)
			ct_fail(__FILE__, __LINE__, "truncation at %zu of %zu accepted", cut, n);
	}
	for (size_t i = 0; i < n; i++) {
		memcpy(bad, buf, n);
		bad[i] ^= (unsigned char)(1u << (i % 8));
		/* (byte 10, the flags: bit 10 % 8 = 2, sleep changes, which
		 * this trace gives none of, is refused with bit 3, empty
		 * changes, that needs it) */
		if (read_all(bad, n, err, sizeof(err)) >= 0)
			ct_fail(__FILE__, __LINE__, "flip of byte %zu accepted", i);
	}
	memcpy(bad, buf, n);
	bad[n] = 0;
	CT_CHECK(read_all(bad, n + 1, err, sizeof(err)) < 0);
	CT_CONTAINS(err, "after the end block");
	memcpy(bad, buf, n);
	bad[8] = 9;
	CT_CHECK(read_all(bad, n, err, sizeof(err)) < 0);
	CT_CONTAINS(err, "unsupported version 9");
	unlink(path);
}

/* Writers create the file only on commit; abort leaves nothing. */
CT_TEST(trace_files_appear_only_complete)
{
	char dir[128], path[256], err[512];
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg s;
	struct stat st;

	tmpname(dir, sizeof(dir), "dir");
	CT_REQUIRE(mkdir(dir, 0700) == 0);
	snprintf(path, sizeof(path), "%s/x.uct", dir);
	memset(&h, 0, sizeof(h));
	h.plat = skl();
	memset(&s, 0, sizeof(s));
	s.ncycles = 10;
	CT_REQUIRE(uct_writer_open(path, 0, &h, &w, err, sizeof(err)) == 0);
	CT_REQUIRE(uct_write(w, &s) == 0);
	CT_CHECK(stat(path, &st) != 0);
	/* overlapping segment refused, then abort */
	s.start = 5;
	CT_EQ(uct_write(w, &s), -EINVAL);
	CT_CONTAINS(uct_writer_error(w), "overlaps");
	uct_writer_abort(w);
	CT_CHECK(stat(path, &st) != 0);
	CT_EQ(rmdir(dir), 0); /* empty: no temporary left */
}

/* ---- Xeon E5-2600 (snbep): two sockets, four clock domains, filter
 * attributes, PCU occupancy and core sleep states ---- */

static const struct ucm_platform *snbep(void)
{
	return ucm_platform_find("snbep");
}

static int bt_index(const struct ucm_platform *p, const char *name)
{
	return ucm_boxtype_index(p, ucm_boxtype_find(p, name));
}

/* Two sockets and clocks other than the defaults, the reference clock
 * (uclk) the fastest, so that stepping it visits every cycle of each
 * domain; sometimes fewer CBos. */
static void snbep_hdr(struct uct_hdr *h, uint64_t seed)
{
	static const uint64_t uclk[] = { 2700000000ull, 3100000000ull, 2000000000ull };
	static const uint64_t dclk[] = { 0, 667000000ull, 933000000ull, 800000000ull };
	static const uint64_t qclk[] = { 1200000000ull, 0 };

	memset(h, 0, sizeof(*h));
	h->plat = snbep();
	h->sockets = 2;
	h->seed = seed;
	h->clock_hz[0] = uclk[seed % 3];
	h->clock_hz[1] = dclk[seed % 4];
	h->clock_hz[2] = seed & 4 ? 1000000000ull : 0;
	h->clock_hz[3] = qclk[seed % 2];
	if (seed % 5 == 0)
		h->ninst[bt_index(h->plat, "cbo")] = 6;
}

static unsigned hdr_ninst(const struct uct_hdr *h, const struct ucm_boxtype *bt)
{
	int i = ucm_boxtype_index(h->plat, bt);

	return h->ninst[i] ? h->ninst[i] : bt->ninst_default;
}

/* Request addresses a filter and an input may share (HA address match). */
static const uint64_t test_addrs[] = { 0x0, 0x12345000, 0x2F3C5A7B1C0, 0x12345FC0 };

/* A value a filter field could hold for an attribute. */
static uint64_t random_attr(unsigned a)
{
	static const uint16_t opc[] = { 0x180, 0x181, 0x182, 0x187, 0x190, 0x1C4, 0x1C8, 0x19C };

	switch (a) {
	case UCM_AT_STATE: return rnd() % 5;
	case UCM_AT_OPC: return rnd() % 2 ? opc[rnd() % 8] : rnd() % 0x40;
	case UCM_AT_NID: return rnd() % 4;
	case UCM_AT_TID: return rnd() % 16;
	case UCM_AT_MC: return rnd() % 16;
	case UCM_AT_VNW: return rnd() % 4;
	case UCM_AT_DNID:
	case UCM_AT_RNID: return rnd() % 4;
	case UCM_AT_RDS: return rnd() % 2 ? 0 : 1u << rnd() % 4;
	case UCM_AT_ADDR: return test_addrs[rnd() % 4];
	default: return rnd() % 40; /* frequency, 100 MHz */
	}
}

/* A random segment on every box type with counters, both sockets, with
 * attributes where a filter compares them and sleep masks; inputs the
 * checks refuse (sums above a maximum, attributes that disagree) are
 * dropped, so it is valid by construction. */
static void random_snbep_seg(const struct uct_hdr *h, struct uct_seg *s, uint64_t start, int longruns)
{
	const struct ucm_platform *p = h->plat;
	unsigned tries = 5 + (unsigned)(rnd() % 60);
	char err[256];

	memset(s, 0, sizeof(*s));
	s->start = start;
	s->ncycles = longruns ? 1 + rnd() % 5000 : 1 + rnd() % 40;
	for (unsigned t = 0; t < tries && s->nin < UCT_MAXIN; t++) {
		const struct ucm_boxtype *bt = p->boxes[rnd() % p->nboxes].type;
		const struct ucm_evcode *ec;
		struct uct_in *in = &s->in[s->nin];
		unsigned c, first = 0;

		if (!bt->nctr)
			continue;
		c = (unsigned)(rnd() % bt->ncodes);
		ec = &bt->codes[c];
		if (ec->flags & UCM_EC_CLOCK)
			continue; /* the clock is no input */
		for (unsigned k = 0; k < c; k++)
			first += bt->codes[k].nsubs ? bt->codes[k].nsubs : 1;
		memset(in, 0, sizeof(*in));
		in->socket = (uint8_t)(rnd() % h->sockets);
		in->bt = (uint8_t)ucm_boxtype_index(p, bt);
		in->inst = (int16_t)(rnd() % 3 == 0 ? -1 : (int)(rnd() % hdr_ninst(h, bt)));
		in->sub = (uint16_t)(first + rnd() % (ec->nsubs ? ec->nsubs : 1));
		in->inc = (uint32_t)(rnd() % (ec->max_inc + 1u));
		for (unsigned r = 0; r < ec->nrules; r++)
			if (rnd() % 2) {
				in->amask |= (uint16_t)(1u << ec->rules[r].attr);
				in->attr[ec->rules[r].attr] = random_attr(ec->rules[r].attr);
			}
		s->nin++;
		if (uct_seg_check(h, s, err, sizeof(err)))
			s->nin--;
	}
	for (unsigned so = 0; so < h->sockets; so++)
		s->asleep[so] = rnd() % 3 == 0 ? rnd() & 0xFF : 0;
}

/* Writes a random snbep trace; keeps its segments in segs (if not NULL). */
static int write_random_snbep(const char *path, int binary, unsigned nseg, uint64_t seed, int longruns,
			      struct uct_seg *segs)
{
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[512];
	uint64_t t = 0;
	int rc;

	snbep_hdr(&h, seed);
	rng_state = seed * 31;
	if (!s || (rc = uct_writer_open(path, binary, &h, &w, err, sizeof(err)))) {
		free(s);
		return -1;
	}
	for (unsigned i = 0; i < nseg; i++) {
		t += rnd() % 4 == 0 ? rnd() % 100 : 0; /* some gaps */
		random_snbep_seg(&h, s, t, longruns);
		if (segs)
			segs[i] = *s;
		if ((rc = uct_write(w, s))) {
			fprintf(stderr, "%s\n", uct_writer_error(w));
			uct_writer_abort(w);
			free(s);
			return rc;
		}
		t += s->ncycles;
	}
	free(s);
	return uct_writer_commit(w);
}

static int same_seg(const struct uct_seg *a, const struct uct_seg *b)
{
	if (a->start != b->start || a->ncycles != b->ncycles || a->nin != b->nin ||
	    memcmp(a->asleep, b->asleep, sizeof(a->asleep)))
		return 0;
	for (unsigned i = 0; i < a->nin; i++)
		if (!uct_in_equal(&a->in[i], &b->in[i]))
			return 0;
	return 1;
}

/* What a reader gives back is what was written, segment by segment. */
static void check_content(const char *path, const struct uct_seg *segs, unsigned nseg, uint64_t seed)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	struct uct_hdr h;
	char err[768];
	unsigned k = 0;
	int rc;

	snbep_hdr(&h, seed);
	if (!s || uct_open(path, &r, err, sizeof(err))) {
		ct_fail(__FILE__, __LINE__, "%s: %s", path, s ? err : "no memory");
		free(s);
		return;
	}
	CT_EQ(uct_header(r)->sockets, 2);
	CT_EQ(uct_header(r)->version, 2);
	CT_EQ(uct_header(r)->seed, seed);
	CT_CHECK(!memcmp(uct_header(r)->clock_hz, h.clock_hz, sizeof(h.clock_hz)));
	CT_CHECK(!memcmp(uct_header(r)->ninst, h.ninst, sizeof(h.ninst)));
	while ((rc = uct_next(r, s)) > 0) {
		if (k >= nseg || !same_seg(s, &segs[k]))
			ct_fail(__FILE__, __LINE__, "%s: segment %u differs from the one written", path, k);
		k++;
	}
	CT_EQ(rc, 0);
	CT_EQ(k, nseg);
	uct_close(r);
	free(s);
}

/* The block CRC of both binary forms is the CRC-32 of docs/formats.md:
 * zlib's crc32 of the type, length and payload, which the library does not
 * use (snbep traces of 2,000 segments: blocks of every type). */
CT_TEST(binary_block_checksums_are_zlib_crc32)
{
	static const int forms[] = { UCT_BINARY, UCT_BINARY_RECORDS };
	static unsigned char buf[1 << 22];
	char path[128], err[768];

	tmpname(path, sizeof(path), "crc.bin");
	for (unsigned f = 0; f < 2; f++) {
		size_t n, at = 12;
		unsigned nblk = 0, types = 0;

		CT_REQUIRE(write_random_snbep(path, forms[f], 2000, 41 + f, 0, NULL) == 0);
		n = load(path, buf, sizeof(buf));
		CT_REQUIRE(n > 12 && n < sizeof(buf));
		CT_EQ(read_all(buf, n, err, sizeof(err)), 0);
		while (at + 9 <= n) {
			uint32_t len = (uint32_t)buf[at + 1] | (uint32_t)buf[at + 2] << 8 |
				       (uint32_t)buf[at + 3] << 16 | (uint32_t)buf[at + 4] << 24, want;

			CT_REQUIRE(len <= n - at - 9);
			want = (uint32_t)buf[at + 5 + len] | (uint32_t)buf[at + 6 + len] << 8 |
			       (uint32_t)buf[at + 7 + len] << 16 | (uint32_t)buf[at + 8 + len] << 24;
			CT_EQ(want, (uint32_t)crc32(0L, buf + at, (uInt)(5 + len)));
			types |= buf[at] == 'H' ? 1u : buf[at] == 'Y' ? 2u : buf[at] == 'S' ? 4u
			       : buf[at] == 'E' ? 8u : 16u;
			at += 9 + len;
			nblk++;
		}
		CT_EQ(at, n);
		CT_EQ(types, 15u);
		CT_CHECK(nblk >= 4);
	}
	unlink(path);
}

/* Both encodings carry everything snbep needs: socket 1's boxes, the
 * clocks, attributes and sleep masks; text -> binary -> text is identical. */
CT_TEST(snbep_text_binary_round_trips_are_lossless)
{
	char t1[128], b1[128], t2[128], b2[128];
	struct uct_seg *segs = malloc(60 * sizeof(*segs));
	unsigned attrs = 0, sleeps = 0, s1 = 0;

	CT_REQUIRE(segs);
	tmpname(t1, sizeof(t1), "srt1.uct");
	tmpname(b1, sizeof(b1), "srt1.bin");
	tmpname(t2, sizeof(t2), "srt2.uct");
	tmpname(b2, sizeof(b2), "srt2.bin");
	for (uint64_t seed = 1; seed <= 12; seed++) {
		CT_REQUIRE(write_random_snbep(t1, 0, 60, seed, 1, segs) == 0);
		CT_REQUIRE(convert(t1, b1, 1) == 0);
		CT_REQUIRE(convert(b1, t2, 0) == 0);
		CT_REQUIRE(convert(t2, b2, 1) == 0);
		CT_CHECK(same_file(t1, t2));
		CT_CHECK(same_file(b1, b2));
		check_content(t1, segs, 60, seed);
		check_content(b1, segs, 60, seed);
		for (unsigned i = 0; i < 60; i++) {
			sleeps += segs[i].asleep[0] || segs[i].asleep[1];
			for (unsigned k = 0; k < segs[i].nin; k++) {
				attrs += segs[i].in[k].amask != 0;
				s1 += segs[i].in[k].socket == 1;
			}
		}
	}
	/* the random traces did exercise what this test is about */
	CT_CHECK(attrs > 100 && sleeps > 100 && s1 > 500);
	unlink(t1);
	unlink(b1);
	unlink(t2);
	unlink(b2);
	free(segs);
}

/* Version 1 files stay version 1 through a conversion (their canonical
 * text is unchanged), and a version 1 writer refuses what it cannot say. */
CT_TEST(version_1_traces_are_read_and_kept)
{
	const char *v1 = "uncore-trace 1\nplatform snbep\nsockets 2\nrun 10: s1.cbo3.LLC_LOOKUP.DATA_READ_M=1\ncycle: s0.imc.CAS_COUNT.RD_REG=1\n";
	char t1[128], b1[128], t2[128], err[512];
	FILE *f;
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg s;
	unsigned char m[12];

	tmpname(t1, sizeof(t1), "v1.uct");
	tmpname(b1, sizeof(b1), "v1.bin");
	tmpname(t2, sizeof(t2), "v1b.uct");
	f = fopen(t1, "w");
	CT_REQUIRE(f);
	fputs(v1, f);
	fclose(f);
	CT_REQUIRE(convert(t1, b1, 1) == 0);
	CT_REQUIRE(load(b1, m, sizeof(m)) == sizeof(m));
	CT_EQ(m[8], 1);
	CT_REQUIRE(convert(b1, t2, 0) == 0);
	CT_CHECK(same_file(t1, t2));

	snbep_hdr(&h, 1);
	h.version = 1;
	CT_REQUIRE(uct_writer_open(t2, 0, &h, &w, err, sizeof(err)) == 0);
	memset(&s, 0, sizeof(s));
	s.ncycles = 5;
	s.nin = 1;
	s.in[0] = (struct uct_in){ .bt = (uint8_t)bt_index(h.plat, "cbo"), .inst = 0,
				   .sub = (uint16_t)ucm_subev_find(ucm_boxtype_find(h.plat, "cbo"),
								   "TOR_INSERTS.DRd_MISS"),
				   .inc = 1, .amask = 1u << UCM_AT_NID, .attr = { [UCM_AT_NID] = 1 } };
	CT_EQ(uct_write(w, &s), -EINVAL);
	CT_CONTAINS(uct_writer_error(w), "attributes need version 2");
	s.in[0].amask = 0;
	s.asleep[1] = 3;
	CT_EQ(uct_write(w, &s), -EINVAL);
	CT_CONTAINS(uct_writer_error(w), "sleep states need version 2");
	uct_writer_abort(w);
	h.version = 3;
	CT_EQ(uct_writer_open(t2, 0, &h, &w, err, sizeof(err)), -EINVAL);
	CT_CONTAINS(err, "cannot write version 3");
	unlink(t1);
	unlink(b1);
	unlink(t2);
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

	rng_state = seed * 104729;
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		const struct ucm_boxtype *bt;
		const struct ucm_layout *l;
		uint64_t v = 0;

		ucm_reginfo(m, i, &ri);
		bt = ri.box->type;
		l = ri.layout;
		if (ri.kind == UCM_K_FILTER) {
			put_field(&v, l, UCM_R_FILT_OPC, rnd() % 2 ? opc[rnd() % 4] : rnd() % 0x40);
			put_field(&v, l, UCM_R_FILT_STATE, rnd() & 0x1F);
			put_field(&v, l, UCM_R_FILT_NID, rnd() & 0xF);
			put_field(&v, l, UCM_R_FILT_TID, rnd() % 16);
			for (unsigned b = 0; b < l->nfields; b++)
				if (l->fields[b].role == UCM_R_FILT_BAND)
					v = ucm_field_put(&l->fields[b], v, rnd() % 40);
				else if (l->fields[b].role == UCM_R_FILT_ADDR)
					v = ucm_field_put(&l->fields[b], v, test_addrs[rnd() % 4] >>
									    UCM_FA_BIT(l->fields[b].arg));
				else if (l->fields[b].role >= UCM_R_FILT_MC && l->fields[b].role <= UCM_R_FILT_RDS)
					/* QPI match and mask: masks mostly narrow */
					v = ucm_field_put(&l->fields[b], v,
							  UCM_FA_IS_MASK(l->fields[b].arg) && rnd() % 2 ? 0 : rnd());
			snbep_write(m, &ri, v);
		} else if (ri.kind == UCM_K_CTL) {
			const struct ucm_evcode *ec = &bt->codes[rnd() % bt->ncodes];
			unsigned code = ec->code, thr = rnd() % 3 ? 0 : (unsigned)(rnd() % 4);

			if (ec->flags & UCM_EC_FIXED)
				ec = &bt->codes[0], code = ec->code;
			put_field(&v, l, UCM_R_EN, 1);
			if (ucm_layout_field(l, UCM_R_OCC_SEL) && rnd() % 2) {
				/* occupancy alone (0x80) or qualifying a base event */
				code = rnd() % 2 ? 0x80 : (code & 0x7F) | 0x80;
				put_field(&v, l, UCM_R_OCC_SEL, 1 + rnd() % 3);
				put_field(&v, l, UCM_R_OCC_INV, rnd() % 2);
				put_field(&v, l, UCM_R_OCC_EDGE, rnd() % 2);
				thr = (unsigned)(rnd() % 9);
			}
			put_field(&v, l, UCM_R_EVSEL, code & 0xFF);
			put_field(&v, l, UCM_R_EXTSEL, code >> 8);
			put_field(&v, l, UCM_R_UMASK, rnd() % 2 ? 0xFF : rnd() & 0xFF);
			put_field(&v, l, UCM_R_THRESH, thr);
			if (thr) {
				put_field(&v, l, UCM_R_INV, rnd() % 2);
				put_field(&v, l, UCM_R_EDGE, rnd() % 2);
			}
			put_field(&v, l, UCM_R_TID_EN, rnd() % 2);
			snbep_write(m, &ri, v);
		} else if (ri.kind == UCM_K_CTR && rnd() % 2) {
			const struct ucm_field *f = ucm_layout_field(l, UCM_R_VALUE);
			unsigned width = f ? f->hi + 1u : 48;
			uint64_t top = width >= 64 ? ~0ull : (1ull << width) - 1;

			snbep_write(m, &ri, top - rnd() % 3000);
		}
	}
}

static struct ucm_model *snbep_model(const struct uct_hdr *h)
{
	struct ucm_config cfg;
	struct ucm_model *m;

	uct_config(h, &cfg);
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_PCI] = cfg.access_ps[UCM_MMIO] = 0;
	return ucm_create(&cfg, &m) ? NULL : m;
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

/* Replay the snbep trace at path (header snbep_hdr(seed)) into one model
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

	snbep_hdr(&h, seed);
	a = snbep_model(&h);
	b = snbep_model(&h);
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

	tmpname(path, sizeof(path), "sref.uct");
	for (uint64_t seed = 1; seed <= 8; seed++) {
		CT_REQUIRE(write_random_snbep(path, (int)(seed & 1), 30, seed, 0, NULL) == 0);
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

	snbep_hdr(&h, seed);
	rng_state = seed * 77;
	if (!pool || !s || uct_writer_open(path, binary, &h, &w, err, sizeof(err)))
		goto out;
	for (unsigned i = 0; i < npool; i++)
		random_snbep_seg(&h, &pool[i], 0, 0);
	for (unsigned i = 0; i < nseg; i++) {
		t += rnd() % 5 == 0 ? rnd() % 50 : 0; /* some gaps */
		*s = pool[rnd() % npool];
		memcpy(s->asleep, pool[rnd() % npool].asleep, sizeof(s->asleep));
		s->start = t;
		s->ncycles = 1 + rnd() % 30;
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
	tmpname(pln, sizeof(pln), "pool.pln");
	tmpname(pln2, sizeof(pln2), "pool2.pln");
	tmpname(rec, sizeof(rec), "pool.rec");
	tmpname(vec, sizeof(vec), "pool.vec");
	tmpname(rec2, sizeof(rec2), "pool2.rec");
	tmpname(txt, sizeof(txt), "pool.uct");
	tmpname(vec2, sizeof(vec2), "pool2.vec");
	tmpname(txt2, sizeof(txt2), "pool2.uct");
	for (uint64_t seed = 1; seed <= 3; seed++) {
		CT_REQUIRE(write_pooled_snbep(rec, UCT_BINARY_RECORDS, 200, 7, seed, segs) == 0);
		CT_REQUIRE(convert(rec, vec, UCT_BINARY) == 0);
		CT_REQUIRE(convert(vec, rec2, UCT_BINARY_RECORDS) == 0);
		CT_CHECK(same_file(rec, rec2));
		CT_REQUIRE(convert(vec, txt, UCT_TEXT) == 0);
		CT_REQUIRE(convert(txt, vec2, UCT_BINARY) == 0);
		CT_REQUIRE(convert(vec2, txt2, UCT_TEXT) == 0);
		CT_CHECK(same_file(vec, vec2));
		CT_CHECK(same_file(txt, txt2));
		/* without chunks and back: the same bytes both ways */
		CT_REQUIRE(convert(vec, pln, UCT_BINARY_VECTORS) == 0);
		CT_REQUIRE(convert(pln, vec2, UCT_BINARY) == 0);
		CT_CHECK(same_file(vec, vec2));
		CT_REQUIRE(convert(rec, pln2, UCT_BINARY_VECTORS) == 0);
		CT_CHECK(same_file(pln, pln2));
		/* the flags say which form: bit 0 the vector form, bit 1 its
		 * chunks, bit 2 its sleep masks as the cores that change, bit
		 * 3 those changes possibly none */
		CT_REQUIRE(load(rec, m, sizeof(m)) == sizeof(m));
		CT_EQ(m[10], 0);
		CT_REQUIRE(load(vec, m, sizeof(m)) == sizeof(m));
		CT_EQ(m[10], 15);
		CT_EQ(m[8], 2);
		CT_REQUIRE(load(pln, m, sizeof(m)) == sizeof(m));
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

	tmpname(path, sizeof(path), "sdense.uct");
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct uct_hdr h;
		struct uct_writer *w;
		struct uct_seg *pool = calloc(24, sizeof(*pool)), *s = malloc(sizeof(*s));
		uint64_t t = 0;

		CT_REQUIRE(pool && s);
		snbep_hdr(&h, seed);
		rng_state = seed * 131;
		CT_REQUIRE(uct_writer_open(path, UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
		for (unsigned i = 0; i < 24; i++)
			random_snbep_seg(&h, &pool[i], 0, 0);
		for (unsigned i = 0; i < 600; i++) {
			*s = pool[rnd() % 24];
			memcpy(s->asleep, pool[0].asleep, sizeof(s->asleep));
			s->start = t;
			s->ncycles = 1 + rnd() % 12;
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

	tmpname(path, sizeof(path), "sleep.uct");
	for (uint64_t seed = 1; seed <= 6; seed++) {
		for (int wake = 0; wake < 2; wake++) {
			struct uct_hdr h;
			struct uct_writer *w;
			struct uct_seg *pool = calloc(16, sizeof(*pool)), *s = malloc(sizeof(*s));
			struct ucm_model *a = fresh_model(), *b = fresh_model();
			struct uct_reader *r, *r2;
			struct uct_replay *rp;
			struct ref ref;
			uint64_t t = 0, end = 0, base = 0, delivered = 0, wakes = 0, dropped = 0;
			int rc;

			CT_REQUIRE(pool && s && a && b);
			memset(&h, 0, sizeof(h));
			h.plat = skl();
			h.sockets = 1;
			h.seed = seed;
			rng_state = seed * 6151;
			CT_REQUIRE(uct_writer_open(path, UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
			for (unsigned i = 0; i < 16; i++)
				random_seg(&pool[i], 0, 0);
			for (unsigned i = 0; i < 1500; i++) {
				*s = pool[rnd() % 16];
				if (rnd() % 150 == 0)
					base = rnd() & 0xF;
				/* a third of them one core's bit flipped for the
				 * segment: a core a PMI woke, its bit still set,
				 * sleeps again at the flip back */
				s->asleep[0] = base ^ (rnd() % 80 == 0) ^ (rnd() % 25 == 0) << 1 ^
					       (rnd() % 8 == 0) << 2 ^ (rnd() % 2) << 3;
				s->start = t;
				s->ncycles = 1 + rnd() % 12;
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

/* The vector of segment i of a trace of nd new vectors, then repeats
 * from both ends: vector i + 1 for i < nd, then nd - (i - nd) for even i
 * and i - nd + 1 for odd i. */
static unsigned vector_of(unsigned i, unsigned nd)
{
	return i < nd ? i + 1 : (i % 2 ? i - nd + 1 : nd - (i - nd));
}

/* Segment `start` (one cycle): a lookup (sub-event sub of box type cbo)
 * on each of 16 CBos of two sockets whose bit is set in v. */
static void cbo_lookups(struct uct_seg *s, uint64_t start, unsigned v, int cbo, int sub)
{
	memset(s, 0, sizeof(*s));
	s->start = start;
	s->ncycles = 1;
	for (unsigned b = 0; b < 16; b++)
		if (v >> b & 1)
			s->in[s->nin++] = (struct uct_in){ .socket = (uint8_t)(b / 8), .bt = (uint8_t)cbo,
							   .inst = (int16_t)(b % 8), .sub = (uint16_t)sub,
							   .inc = 1 };
}

/* A reference's code takes at least two bytes once vector 63 is numbered
 * (the codes from 128 on take two: after it every code has one length, so
 * a reader's branch on the length goes the same way at each record), and
 * its shortest encoding before (docs/formats.md, "Vectors"); the reader
 * takes either. */
CT_TEST(references_take_two_bytes_once_vector_63_is_numbered)
{
	static unsigned char f[1 << 16];
	struct uct_seg *s = malloc(sizeof(*s));
	struct uct_hdr h;
	char path[128], err[768];
	int cbo, sub;

	CT_REQUIRE(s);
	tmpname(path, sizeof(path), "pad.uct");
	snbep_hdr(&h, 3);
	cbo = bt_index(h.plat, "cbo");
	sub = ucm_subev_find(ucm_boxtype_find(h.plat, "cbo"), "LLC_LOOKUP.DATA_READ_M");
	CT_REQUIRE(cbo >= 0 && sub >= 0);
	for (unsigned nv = 63; nv <= 64; nv++) {
		static const unsigned char one[] = { 0x00, 0x01, 0x02 }, two[] = { 0x00, 0x01, 0x82, 0x00 };
		const unsigned char *want = nv > 63 ? two : one;
		size_t wn = nv > 63 ? sizeof(two) : sizeof(one), n, p = 12, last = 0, lastn = 0;
		struct uct_writer *w;
		struct uct_reader *r;
		int rc, vid = -2, full;
		unsigned k = 0;

		/* vectors 0 .. nv - 1 (lookups on the CBos of the bits of
		 * i + 1), then vector 0 again: code 2 */
		CT_REQUIRE(uct_writer_open(path, UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
		for (unsigned i = 0; i <= nv; i++) {
			cbo_lookups(s, i, i < nv ? i + 1 : 1, cbo, sub);
			CT_REQUIRE(uct_write(w, s) == 0);
		}
		CT_REQUIRE(uct_writer_commit(w) == 0);
		n = load(path, f, sizeof(f));
		CT_REQUIRE(n > 12 && n < sizeof(f));
		/* the last segment block's last bytes: the last record */
		while (p + 5 <= n) {
			size_t len = (size_t)f[p + 1] | (size_t)f[p + 2] << 8 | (size_t)f[p + 3] << 16 |
				     (size_t)f[p + 4] << 24;

			if (f[p] == 'S') {
				last = p + 5;
				lastn = len;
			}
			p += 9 + len;
		}
		CT_REQUIRE(lastn >= wn);
		CT_CHECK(memcmp(f + last + lastn - wn, want, wn) == 0);
		/* read back: vector 0 */
		CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
		while ((rc = uct_next_vec(r, s, 0, &vid, &full)) > 0 && ++k <= nv)
			;
		CT_EQ(rc, 1);
		CT_EQ(vid, 0);
		CT_EQ(uct_next_vec(r, s, 0, &vid, &full), 0);
		uct_close(r);
	}
	unlink(path);
	free(s);
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
	tmpname(vec, sizeof(vec), "many.vec");
	tmpname(rec, sizeof(rec), "many.rec");
	snbep_hdr(&h, 3);
	cbo = bt_index(h.plat, "cbo");
	sub = ucm_subev_find(ucm_boxtype_find(h.plat, "cbo"), "LLC_LOOKUP.DATA_READ_M");
	CT_REQUIRE(cbo >= 0 && sub >= 0);
	CT_REQUIRE(uct_writer_open(vec, UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
	/* vector i: a lookup on the CBos of the bits of i (16 CBos of 2
	 * sockets), then 300 segments that repeat vectors from both ends */
	for (unsigned i = 0; i < nseg; i++) {
		cbo_lookups(s, i, vector_of(i, nd), cbo, sub);
		s->asleep[i % 2] = i % 5;
		CT_REQUIRE(uct_write(w, s) == 0);
	}
	CT_REQUIRE(uct_writer_commit(w) == 0);
	CT_REQUIRE(convert(vec, rec, UCT_BINARY_RECORDS) == 0);
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

/* The chunks' dictionary numbers UCT_MAXCHUNK chunks; a chunk given after
 * that is used by its vector only, by the writer and the reader alike.
 * Vector i is one chunk: CBo events of socket 0 on the bits of i (8 CBos,
 * two events, a third on cbo0), so every vector is a new chunk and,
 * past UCT_MAXVEC, a vector not numbered; then segments repeat vectors
 * from both ends.  Read back, every segment is the one written, and the
 * record form written from the same segments is what the chunked trace
 * converts to, byte for byte. */
CT_TEST(chunks_beyond_the_dictionary_are_given_again)
{
	char vec[128], rec[128], rec2[128];
	const unsigned nd = UCT_MAXCHUNK + 50, nseg = nd + 200;
	struct uct_hdr h;
	struct uct_writer *w, *wr;
	struct uct_seg *s = malloc(sizeof(*s)), *t = malloc(sizeof(*t));
	struct uct_reader *r;
	char err[768];
	int cbo, sub[3], rc;
	unsigned k = 0;

	CT_REQUIRE(s && t);
	tmpname(vec, sizeof(vec), "chunks.vec");
	tmpname(rec, sizeof(rec), "chunks.rec");
	tmpname(rec2, sizeof(rec2), "chunks2.rec");
	snbep_hdr(&h, 6); /* (8 CBos) */
	cbo = bt_index(h.plat, "cbo");
	sub[0] = ucm_subev_find(ucm_boxtype_find(h.plat, "cbo"), "LLC_LOOKUP.DATA_READ_M");
	sub[1] = ucm_subev_find(ucm_boxtype_find(h.plat, "cbo"), "TOR_INSERTS.DRd_MISS");
	sub[2] = ucm_subev_find(ucm_boxtype_find(h.plat, "cbo"), "LLC_VICTIMS.M_STATE");
	CT_REQUIRE(cbo >= 0 && sub[0] >= 0 && sub[1] >= 0 && sub[2] >= 0);
	CT_REQUIRE(uct_writer_open(vec, UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
	CT_REQUIRE(uct_writer_open(rec, UCT_BINARY_RECORDS, &h, &wr, err, sizeof(err)) == 0);
	for (unsigned i = 0; i < nseg; i++) {
		unsigned v = vector_of(i, nd);

		memset(s, 0, sizeof(*s));
		s->start = i;
		s->ncycles = 1;
		for (unsigned b = 0; b < 17; b++)
			if (v >> b & 1)
				s->in[s->nin++] = (struct uct_in){ .bt = (uint8_t)cbo,
								   .inst = (int16_t)(b < 16 ? b % 8 : 0),
								   .sub = (uint16_t)sub[b / 8], .inc = 1 };
		if (uct_write(w, s) || uct_write(wr, s))
			ct_fail(__FILE__, __LINE__, "segment %u: %s / %s", i, uct_writer_error(w),
				uct_writer_error(wr));
	}
	CT_REQUIRE(uct_writer_commit(w) == 0);
	CT_REQUIRE(uct_writer_commit(wr) == 0);
	CT_REQUIRE(uct_open(vec, &r, err, sizeof(err)) == 0);
	CT_CHECK(uct_is_chunked(r));
	while ((rc = uct_next(r, t)) > 0) {
		unsigned v = vector_of(k, nd), nin = 0, same = 1;

		for (unsigned b = 0; b < 17; b++)
			if (v >> b & 1) {
				const struct uct_in *x = &t->in[nin++];

				same &= nin <= t->nin && x->bt == cbo && x->socket == 0 &&
					x->inst == (b < 16 ? (int)(b % 8) : 0) && x->sub == sub[b / 8] &&
					x->inc == 1;
			}
		if (!same || nin != t->nin)
			ct_fail(__FILE__, __LINE__, "segment %u: not the vector written", k);
		k++;
	}
	CT_EQ(rc, 0);
	CT_EQ(k, nseg);
	CT_EQ(uct_chunks(r), UCT_MAXCHUNK);
	CT_EQ(uct_vectors(r), UCT_MAXVEC);
	uct_close(r);
	CT_REQUIRE(convert(vec, rec2, UCT_BINARY_RECORDS) == 0);
	CT_CHECK(same_file(rec, rec2));
	free(s);
	free(t);
	unlink(vec);
	unlink(rec);
	unlink(rec2);
}

/* "N cycles" are cycles of the reference clock; a box on another clock
 * gets its increment in each of its own cycles that completes within
 * them (docs/formats.md, "Clocks"), which uct_domain_cycles computes. */
CT_TEST(snbep_segments_are_reference_cycles_and_boxes_count_their_own)
{
	const char *text = "uncore-trace 2\nplatform snbep\nsockets 2\nclock dclk 667000000\n"
			   "run 1000: s1.imc2.CAS_COUNT.RD_REG=1, s0.pcu.POWER_STATE_OCCUPANCY.CORES_C3=5, "
			   "qpi.TxL_FLITS_G0.DATA=2, s1.cbo7.LLC_LOOKUP.DATA_READ_M=1\n"
			   "@1337 run 4001: s1.imc2.CAS_COUNT.RD_REG=1, s0.pcu.POWER_STATE_OCCUPANCY.CORES_C3=5, "
			   "qpi.TxL_FLITS_G0.DATA=2, s1.cbo7.LLC_LOOKUP.DATA_READ_M=1\n";
	struct uct_reader *r;
	struct uct_replay *rp;
	struct ucm_model *m;
	char err[768];
	const struct uct_hdr *h;
	uint64_t dclk, pclk, qclk;

	CT_REQUIRE(uct_open_mem("c.uct", text, strlen(text), &r, err, sizeof(err)) == 0);
	h = uct_header(r);
	m = snbep_model(h);
	CT_REQUIRE(m);
	dclk = uct_domain_cycles(h, 1, 0, 1000) + uct_domain_cycles(h, 1, 1337, 4001);
	pclk = uct_domain_cycles(h, 2, 0, 1000) + uct_domain_cycles(h, 2, 1337, 4001);
	qclk = uct_domain_cycles(h, 3, 0, 1000) + uct_domain_cycles(h, 3, 1337, 4001);
	/* 2.7 GHz reference: 667 MHz, 800 MHz and 1 GHz see fewer cycles */
	CT_EQ(uct_domain_cycles(h, 0, 1337, 4001), 4001);
	CT_CHECK(dclk < 5001 * 667 / 2700 + 2 && dclk > 5001 * 667 / 2700 - 2);
	CT_CHECK(pclk > 5001 * 8 / 27 - 2 && qclk > 5001 * 10 / 27 - 2);
	CT_REQUIRE(uct_replay_attach(m, r, &rp) == 0);
	CT_REQUIRE(ucm_run_cycles(m, 0, 8000) == 0);
	CT_CHECK(uct_replay_done(rp));
	CT_EQ(ucm_fed(m, ucm_box_find(m, 1, "imc", 2),
		      (unsigned)ucm_subev_find(ucm_boxtype_find(snbep(), "imc"), "CAS_COUNT.RD_REG")),
	      dclk);
	CT_EQ(ucm_fed(m, ucm_box_find(m, 0, "imc", 2),
		      (unsigned)ucm_subev_find(ucm_boxtype_find(snbep(), "imc"), "CAS_COUNT.RD_REG")),
	      0);
	CT_EQ(ucm_fed(m, ucm_box_find(m, 0, "pcu", 0),
		      (unsigned)ucm_subev_find(ucm_boxtype_find(snbep(), "pcu"), "POWER_STATE_OCCUPANCY.CORES_C3")),
	      5 * pclk);
	CT_EQ(ucm_fed(m, ucm_box_find(m, 1, "qpi", 1),
		      (unsigned)ucm_subev_find(ucm_boxtype_find(snbep(), "qpi"), "TxL_FLITS_G0.DATA")),
	      0);
	CT_EQ(ucm_fed(m, ucm_box_find(m, 0, "qpi", 1),
		      (unsigned)ucm_subev_find(ucm_boxtype_find(snbep(), "qpi"), "TxL_FLITS_G0.DATA")),
	      2 * qclk);
	CT_EQ(ucm_fed(m, ucm_box_find(m, 1, "cbo", 7),
		      (unsigned)ucm_subev_find(ucm_boxtype_find(snbep(), "cbo"), "LLC_LOOKUP.DATA_READ_M")),
	      5001);
	uct_replay_detach(rp);
	uct_close(r);
	ucm_destroy(m);
}

/* Attributes make filtered events count, and only for the inputs that
 * carry the filter's value; the sleep masks set the cores' state. */
CT_TEST(snbep_attributes_and_sleep_reach_the_model)
{
	const char *text = "uncore-trace 2\nplatform snbep\nsockets 2\n"
			   "run 100: s1.cbo2.TOR_INSERTS.DRd_MISS=1{nid=1,tid=5}, s1.asleep=0x81\n"
			   "run 100: s1.cbo2.TOR_INSERTS.DRd_MISS=1{nid=0,tid=5}, s1.asleep=0x1\n"
			   "run 100: s1.cbo2.TOR_INSERTS.DRd_MISS=1{tid=5}, s0.pcu.FREQ_BAND1_CYCLES.CYCLES=1{freq=27}\n"
			   "run 100: s0.pcu.FREQ_BAND1_CYCLES.CYCLES=1{freq=12}\n";
	struct uct_reader *r;
	struct uct_replay *rp;
	struct ucm_model *m;
	char err[768];
	uint64_t v;
	int cbo, pcu;
	unsigned tor, band;
	uint16_t nid0, freq0;

	CT_REQUIRE(uct_open_mem("a.uct", text, strlen(text), &r, err, sizeof(err)) == 0);
	m = snbep_model(uct_header(r));
	CT_REQUIRE(m);
	cbo = ucm_box_find(m, 1, "cbo", 2);
	pcu = ucm_box_find(m, 0, "pcu", 0);
	tor = (unsigned)ucm_subev_find(ucm_box_def(m, cbo)->type, "TOR_INSERTS.DRd_MISS");
	band = (unsigned)ucm_subev_find(ucm_box_def(m, pcu)->type, "FREQ_BAND1_CYCLES.CYCLES");
	/* the model's own values, which inputs without attributes keep */
	nid0 = ucm_get_input_attr(m, cbo, tor, UCM_AT_NID);
	freq0 = ucm_get_input_attr(m, pcu, band, UCM_AT_FREQ);
	/* s1 CBo 2 counter 0: TOR_INSERTS.MISS_OPCODE|NID (umask 0x43) with the
	 * filter opc DRd (0x182) and node mask 0x2 (node 1); counter 1 the
	 * same with TID_EN and tid 5.  PCU counter 0: band 1 at 2.0 GHz. */
	CT_REQUIRE(ucm_msr_write(m, 8, 0xD54, 0x182ull << 23 | 0x2ull << 10 | 5) == 0);
	CT_REQUIRE(ucm_msr_write(m, 8, 0xD50, 0x35 | 0x43 << 8 | 1ull << 22) == 0);
	CT_REQUIRE(ucm_msr_write(m, 8, 0xD51, 0x35 | 0x43 << 8 | 1ull << 22 | 1ull << 19) == 0);
	CT_REQUIRE(ucm_msr_write(m, 0, 0xC34, 20ull << 8) == 0);
	CT_REQUIRE(ucm_msr_write(m, 0, 0xC30, 0x0C | 1ull << 22) == 0);
	CT_REQUIRE(uct_replay_attach(m, r, &rp) == 0);
	CT_REQUIRE(ucm_run_cycles(m, 0, 50) == 0);
	CT_CHECK(ucm_core_asleep(m, 1, 0) && ucm_core_asleep(m, 1, 7) && !ucm_core_asleep(m, 1, 1));
	CT_CHECK(!ucm_core_asleep(m, 0, 0));
	CT_REQUIRE(ucm_run_cycles(m, 0, 100) == 0);
	CT_CHECK(ucm_core_asleep(m, 1, 0) && !ucm_core_asleep(m, 1, 7));
	CT_EQ(ucm_get_input_attr(m, cbo, tor, UCM_AT_NID), 0);
	CT_REQUIRE(ucm_run_cycles(m, 0, 100) == 0);
	CT_EQ(ucm_get_input_attr(m, cbo, tor, UCM_AT_NID), nid0);
	CT_EQ(ucm_get_input_attr(m, cbo, tor, UCM_AT_TID), 5);
	CT_EQ(ucm_get_input_attr(m, pcu, band, UCM_AT_FREQ), 27);
	CT_REQUIRE(ucm_run_cycles(m, 0, 160) == 0);
	CT_CHECK(!ucm_core_asleep(m, 1, 0));
	/* back to the model's values once no segment gives them */
	CT_EQ(ucm_get_input_attr(m, cbo, tor, UCM_AT_TID), UCM_ATTR_NONE);
	CT_EQ(ucm_get_input_attr(m, pcu, band, UCM_AT_FREQ), freq0);
	CT_CHECK(uct_replay_done(rp));
	/* the 100 cycles targeting node 1, and the 100 without a nid when
	 * the model's own is node 1 */
	CT_REQUIRE(ucm_msr_peek(m, 8, 0xD56, &v) == 0);
	CT_EQ(v, nid0 == 1 ? 200 : 100);
	CT_REQUIRE(ucm_msr_peek(m, 8, 0xD57, &v) == 0);
	CT_EQ(v, nid0 == 1 ? 200 : 100); /* and all of them from thread 5 */
	CT_REQUIRE(ucm_msr_peek(m, 0, 0xC36, &v) == 0);
	CT_EQ(v, uct_domain_cycles(uct_header(r), 2, 200, 100)); /* 2.7 GHz >= 2.0, 1.2 GHz not */
	uct_replay_detach(rp);
	uct_close(r);
	ucm_destroy(m);
}

/* Constant segments cost the same whatever their length on every clock
 * domain and for the occupancy options too: two segments of 2^40 reference
 * cycles under threshold, invert, edge and the PCU's occupancy selection
 * (alone, inverted, edge-detected) give the closed-form counts. */
CT_TEST(snbep_long_constant_segments_replay_in_constant_time)
{
	const char *text = "uncore-trace 2\nplatform snbep\n"
			   "run 1099511627776: pcu.POWER_STATE_OCCUPANCY.CORES_C0=5, pcu.POWER_STATE_OCCUPANCY.CORES_C6=3, "
			   "cbo0.TOR_OCCUPANCY.DRd_MISS=7, cbo1.TOR_OCCUPANCY.DRd_MISS=7, imc0.CAS_COUNT.RD_REG=1\n"
			   "run 1099511627776: pcu.POWER_STATE_OCCUPANCY.CORES_C0=2, pcu.POWER_STATE_OCCUPANCY.CORES_C6=6, "
			   "cbo0.TOR_OCCUPANCY.DRd_MISS=2, cbo1.TOR_OCCUPANCY.DRd_MISS=9\n";
	const uint64_t len = 1ull << 40;
	struct uct_reader *r;
	struct uct_replay *rp;
	struct ucm_model *m;
	const struct uct_hdr *h;
	char err[768];
	uint64_t p1, p2, d1;
	struct ucm_truth t;

	CT_REQUIRE(uct_open_mem("l.uct", text, strlen(text), &r, err, sizeof(err)) == 0);
	h = uct_header(r);
	m = snbep_model(h);
	CT_REQUIRE(m);
	p1 = uct_domain_cycles(h, 2, 0, len);
	p2 = uct_domain_cycles(h, 2, len, len);
	d1 = uct_domain_cycles(h, 1, 0, len);
	/* PCU (Table 2-75): C0 occupancy alone; C6 < 4 (occ_invert); C0 >= 5
	 * rising (occ_edge) */
	CT_REQUIRE(ucm_msr_write(m, 0, 0xC30, 0x80 | 1ull << 14 | 1ull << 22) == 0);
	CT_REQUIRE(ucm_msr_write(m, 0, 0xC31, 0x80 | 3ull << 14 | 1ull << 22 | 4ull << 24 | 1ull << 30) == 0);
	CT_REQUIRE(ucm_msr_write(m, 0, 0xC32, 0x80 | 1ull << 14 | 1ull << 22 | 5ull << 24 | 1ull << 31) == 0);
	/* CBo 0: TOR occupancy < 5 (invert); CBo 1: >= 5 rising (edge) */
	CT_REQUIRE(ucm_msr_write(m, 0, 0xD10, 0x36 | 0x08 << 8 | 1ull << 22 | 5ull << 24 | 1ull << 23) == 0);
	CT_REQUIRE(ucm_msr_write(m, 0, 0xD30, 0x36 | 0x08 << 8 | 1ull << 22 | 5ull << 24 | 1ull << 18) == 0);
	/* iMC channel 0: CAS_COUNT.RD (D16:F0 on bus 0x3F) */
	CT_REQUIRE(ucm_pci_write(m, 0, 0x3F, 16, 0, 0xD8, 4, 0x04 | 0x03 << 8 | 1ull << 22) == 0);
	CT_REQUIRE(uct_replay_attach(m, r, &rp) == 0);
	CT_REQUIRE(ucm_run_cycles(m, 0, 2 * len) == 0);
	ucm_truth(m, ucm_box_find(m, 0, "pcu", 0), 0, &t);
	CT_EQ(t.total, 5 * p1 + 2 * p2);
	ucm_truth(m, ucm_box_find(m, 0, "pcu", 0), 1, &t);
	CT_EQ(t.total, p1);
	ucm_truth(m, ucm_box_find(m, 0, "pcu", 0), 2, &t);
	CT_EQ(t.total, 1);
	ucm_truth(m, ucm_box_find(m, 0, "cbo", 0), 0, &t);
	CT_EQ(t.total, len);
	ucm_truth(m, ucm_box_find(m, 0, "cbo", 1), 0, &t);
	CT_EQ(t.total, 1);
	ucm_truth(m, ucm_box_find(m, 0, "imc", 0), 0, &t);
	CT_EQ(t.total, d1);
	uct_replay_detach(rp);
	uct_close(r);
	ucm_destroy(m);
}

/* ---- snbep generators ---- */

static int gen_hdr(const char *path, const struct uct_hdr *h, const struct uct_gen_opts *o, char *err,
		   size_t n)
{
	struct uct_writer *w;
	int rc;

	if ((rc = uct_writer_open(path, 1, h, &w, err, n)))
		return rc;
	if ((rc = uct_generate(h, o, w, err, n))) {
		uct_writer_abort(w);
		return rc;
	}
	return uct_writer_commit(w);
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

	tmpname(path, sizeof(path), "gclk.uct");
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
		CT_REQUIRE(s && gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
		CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
		ms[0] = snbep_model(uct_header(r));
		ms[1] = snbep_model(uct_header(r));
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

static void snbep_gen_hdr(struct uct_hdr *h, unsigned sockets, uint64_t seed)
{
	memset(h, 0, sizeof(*h));
	h->plat = snbep();
	h->sockets = sockets;
	h->seed = seed;
}

/* Replays a trace into a fresh model to its end: what the model was fed. */
static struct ucm_model *replayed(const char *path, uint64_t *cycles)
{
	struct uct_reader *r;
	struct uct_replay *rp;
	struct ucm_model *m;
	char err[768];

	if (uct_open(path, &r, err, sizeof(err)))
		return NULL;
	m = snbep_model(uct_header(r));
	if (!m || uct_replay_attach(m, r, &rp)) {
		uct_close(r);
		ucm_destroy(m);
		return NULL;
	}
	while (!uct_replay_done(rp) && !uct_replay_failed(rp))
		if (ucm_run_cycles(m, 0, 100000000))
			break;
	*cycles = uct_replay_cycles(rp);
	if (uct_replay_failed(rp)) {
		fprintf(stderr, "%s\n", uct_replay_error(rp));
		ucm_destroy(m);
		m = NULL;
	}
	uct_replay_detach(rp);
	uct_close(r);
	return m;
}

/* Increments a sub-event was fed, summed over a box type's instances on a
 * socket (-1: every socket). */
static double fed(struct ucm_model *m, int socket, const char *box, const char *sub)
{
	const struct ucm_boxtype *bt = ucm_boxtype_find(ucm_platform_of(m), box);
	int s = bt ? ucm_subev_find(bt, sub) : -1;
	double sum = 0;

	if (s < 0) {
		ct_fail(__FILE__, __LINE__, "no %s.%s", box, sub);
		return 0;
	}
	for (unsigned b = 0; b < ucm_box_count(m); b++)
		if (ucm_box_def(m, (int)b)->type == bt && (socket < 0 || ucm_box_socket(m, (int)b) == (unsigned)socket))
			sum += (double)ucm_fed(m, (int)b, (unsigned)s);
	return sum;
}

static int near(double x, double want, double tol)
{
	int ok = x >= want * (1 - tol) && x <= want * (1 + tol);

	if (!ok)
		fprintf(stderr, "%.6g is not within %.2g%% of %.6g\n", x, tol * 100, want);
	return ok;
}

/* Every input of a trace named sub carries nid = socket (+1 mod 2 when
 * remote); returns how many there were. */
static unsigned check_nid(const char *path, const char *box, const char *sub, int remote)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[768];
	unsigned n = 0;
	int bi, si;

	if (!s || uct_open(path, &r, err, sizeof(err))) {
		free(s);
		return 0;
	}
	bi = bt_index(uct_header(r)->plat, box);
	si = ucm_subev_find(ucm_boxtype_find(uct_header(r)->plat, box), sub);
	while (uct_next(r, s) > 0)
		for (unsigned i = 0; i < s->nin; i++) {
			const struct uct_in *in = &s->in[i];

			if (in->bt != bi || in->sub != si)
				continue;
			n++;
			if (!(in->amask >> UCM_AT_NID & 1) ||
			    in->attr[UCM_AT_NID] != (remote ? in->socket ^ 1u : in->socket)) {
				ct_fail(__FILE__, __LINE__, "%s.%s on socket %u: nid %llu", box, sub, in->socket,
					(unsigned long long)in->attr[UCM_AT_NID]);
				n = 0;
				goto out;
			}
		}
out:
	uct_close(r);
	free(s);
	return n;
}

/* Every input of a trace named sub carries a thread: the one given (want
 * >= 0) or a core's (0..14; 0xF is for requests no thread issued), and
 * not always the same one.  Returns how many inputs there were. */
static unsigned check_tid(const char *path, const char *box, const char *sub, int want)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[768];
	unsigned n = 0, seen = 0;
	int bi, si;

	if (!s || uct_open(path, &r, err, sizeof(err))) {
		free(s);
		return 0;
	}
	bi = bt_index(uct_header(r)->plat, box);
	si = ucm_subev_find(ucm_boxtype_find(uct_header(r)->plat, box), sub);
	while (uct_next(r, s) > 0)
		for (unsigned i = 0; i < s->nin; i++) {
			const struct uct_in *in = &s->in[i];
			unsigned t = in->attr[UCM_AT_TID];

			if (in->bt != bi || in->sub != si)
				continue;
			n++;
			if (!(in->amask >> UCM_AT_TID & 1) || (want >= 0 ? t != (unsigned)want : t > 14)) {
				ct_fail(__FILE__, __LINE__, "%s.%s: tid %u", box, sub, t);
				n = 0;
				goto out;
			}
			seen |= 1u << (t & 15);
		}
	if (want < 0 && __builtin_popcount(seen) < 4) {
		ct_fail(__FILE__, __LINE__, "%s.%s: threads 0x%x only", box, sub, seen);
		n = 0;
	}
out:
	uct_close(r);
	free(s);
	return n;
}

/* Streaming at a bandwidth: the iMC's CAS counts over every channel of both
 * sockets carry it (to 0.1%), with the CBo and HA traffic behind it. */
CT_TEST(snbep_stream_generator_has_the_requested_bandwidth)
{
	char path[128], path2[128], err[512];
	struct uct_hdr h;
	struct uct_gen_opts o = { "stream", 0.2, 30.0, 0.6, 0, 0, 0, 0, 0, 42, 0 };
	struct ucm_model *m;
	uint64_t cyc;
	double rd, wr, secs;

	tmpname(path, sizeof(path), "sgen.bin");
	tmpname(path2, sizeof(path2), "sgen2.bin");
	snbep_gen_hdr(&h, 2, o.seed);
	CT_REQUIRE(gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
	m = replayed(path, &cyc);
	CT_REQUIRE(m);
	CT_EQ(cyc, 540000000); /* 0.2 s at 2.7 GHz */
	secs = (double)cyc / 2.7e9;
	rd = fed(m, -1, "imc", "CAS_COUNT.RD_REG");
	wr = fed(m, -1, "imc", "CAS_COUNT.WR_WMM");
	CT_CHECK(near((rd + wr) * 64 / secs / 1e9, 30.0, 0.001));
	CT_CHECK(near(rd / (rd + wr), 0.6, 0.001));
	/* both sockets, every channel */
	CT_CHECK(near(fed(m, 0, "imc", "CAS_COUNT.RD_REG"), rd / 2, 0.001));
	for (unsigned c = 0; c < 4; c++) {
		int b = ucm_box_find(m, 1, "imc", c);

		CT_CHECK(near((double)ucm_fed(m, b, (unsigned)ucm_subev_find(ucm_box_def(m, b)->type,
									     "CAS_COUNT.WR_WMM")),
			      wr / 8, 0.002));
	}
	/* the requests behind them */
	CT_CHECK(near(fed(m, -1, "ha", "REQUESTS.READS"), rd, 0.001));
	CT_CHECK(near(fed(m, -1, "ha", "REQUESTS.WRITES"), wr, 0.001));
	CT_CHECK(near(fed(m, -1, "cbo", "TOR_INSERTS.DRd_MISS"), rd, 0.001));
	CT_CHECK(near(fed(m, -1, "cbo", "LLC_LOOKUP.DATA_READ_I"), rd, 0.001));
	CT_CHECK(near(fed(m, -1, "cbo", "LLC_VICTIMS.M_STATE"), wr, 0.001));
	CT_CHECK(near(fed(m, -1, "imc", "RPQ_INSERTS"), rd, 0.000001));
	/* Little's law: 180 cycles a miss */
	CT_CHECK(near(fed(m, -1, "cbo", "TOR_OCCUPANCY.DRd_MISS"), 180 * rd, 0.001));
	ucm_destroy(m);
	CT_CHECK(check_nid(path, "cbo", "TOR_INSERTS.DRd_MISS", 0) > 100);
	CT_CHECK(check_nid(path, "cbo", "LLC_VICTIMS.M_STATE", 0) > 100);
	CT_CHECK(check_tid(path, "cbo", "TOR_INSERTS.DRd_MISS", -1) > 100);
	CT_CHECK(check_tid(path, "cbo", "TOR_OCCUPANCY.DRd_MISS", -1) > 100);
	CT_CHECK(check_tid(path, "cbo", "TOR_INSERTS.EVICTION", 0xF) > 100);
	/* determinism */
	CT_REQUIRE(gen_hdr(path2, &h, &o, err, sizeof(err)) == 0);
	CT_CHECK(same_file(path, path2));
	o.seed = 43;
	CT_REQUIRE(gen_hdr(path2, &h, &o, err, sizeof(err)) == 0);
	CT_CHECK(!same_file(path, path2));
	/* more than four DDR3 channels carry */
	snbep_gen_hdr(&h, 1, 1);
	o = (struct uct_gen_opts){ "stream", 0.01, 52.0, 0.5, 0, 0, 0, 0, 0, 1, 0 };
	CT_EQ(gen_hdr(path2, &h, &o, err, sizeof(err)), -ERANGE);
	CT_CONTAINS(err, "exceeds the 51.2 GB/s");
	CT_CONTAINS(err, "4 channels of DDR3-1600");
	/* on purpose: beyond the part, up to the tables' one CAS per dclk */
	o.exceed = 1;
	CT_EQ(gen_hdr(path2, &h, &o, err, sizeof(err)), 0);
	unlink(path);
	unlink(path2);
}

/* LLC hit/miss mixes: lookups per CBo and cycle, the hit share, the hit
 * states, the TOR with its opcodes and the DRAM reads of the misses. */
CT_TEST(snbep_llc_generator_has_the_requested_mix)
{
	char path[128], err[512];
	struct uct_hdr h;
	struct uct_gen_opts o = { "llc", 0.1, 0, 0, 0.8, 0.1, 0, 0, 0, 7, 0 };
	struct ucm_model *m;
	uint64_t cyc;
	double hit, miss;

	tmpname(path, sizeof(path), "lgen.bin");
	snbep_gen_hdr(&h, 2, o.seed);
	CT_REQUIRE(gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
	m = replayed(path, &cyc);
	CT_REQUIRE(m);
	miss = fed(m, -1, "cbo", "LLC_LOOKUP.DATA_READ_I");
	hit = fed(m, -1, "cbo", "LLC_LOOKUP.DATA_READ_E") + fed(m, -1, "cbo", "LLC_LOOKUP.DATA_READ_S") +
	      fed(m, -1, "cbo", "LLC_LOOKUP.DATA_READ_M") + fed(m, -1, "cbo", "LLC_LOOKUP.DATA_READ_F");
	CT_CHECK(near(hit / (hit + miss), 0.8, 0.001));
	CT_CHECK(near((hit + miss) / (16.0 * (double)cyc), 0.1, 0.001));
	CT_CHECK(near(fed(m, -1, "cbo", "LLC_LOOKUP.DATA_READ_E"), hit / 2, 0.002));
	CT_CHECK(near(fed(m, -1, "cbo", "TOR_INSERTS.DRd_HIT"), hit, 0.001));
	CT_CHECK(near(fed(m, -1, "cbo", "TOR_INSERTS.DRd_MISS"), miss, 0.001));
	CT_CHECK(near(fed(m, -1, "imc", "CAS_COUNT.RD_REG"), miss, 0.001));
	CT_CHECK(near(fed(m, -1, "ha", "REQUESTS.READS"), miss, 0.001));
	ucm_destroy(m);
	/* 0.5 lookups with 10% misses is more DRAM than there is */
	o = (struct uct_gen_opts){ "llc", 0.01, 0, 0, 0.9, 0.5, 0, 0, 0, 7, 0 };
	CT_EQ(gen_hdr(path, &h, &o, err, sizeof(err)), -ERANGE);
	CT_CONTAINS(err, "exceeds the 102.4 GB/s that 2 snbep sockets carry");
	unlink(path);
}

/* QPI traffic between the sockets: data received at the bandwidth asked,
 * 8 data flits and a header per line, as much sent as received, the reads
 * behind it served by the home socket, the TOR inserts aimed at the other
 * node and a packet received per line. */
CT_TEST(snbep_qpi_generator_has_the_requested_traffic)
{
	char path[128], err[512];
	struct uct_hdr h;
	struct uct_gen_opts o = { "qpi", 0.05, 12.0, 0.75, 0, 0, 0, 0, 0, 5, 0 };
	struct ucm_model *m;
	uint64_t cyc;
	double rx, tx, secs;

	tmpname(path, sizeof(path), "qgen.bin");
	snbep_gen_hdr(&h, 2, o.seed);
	CT_REQUIRE(gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
	m = replayed(path, &cyc);
	CT_REQUIRE(m);
	secs = (double)cyc / 2.7e9;
	rx = fed(m, -1, "qpi", "RxL_FLITS_G1.DRS_DATA");
	tx = fed(m, -1, "qpi", "TxL_FLITS_G1.DRS_DATA");
	CT_CHECK(near(rx * 8 / secs / 1e9, 12.0, 0.001));
	CT_CHECK(near(tx, rx, 0.001));
	CT_EQ(fed(m, -1, "qpi", "RxL_FLITS_G0.DATA"), rx);
	CT_CHECK(near(fed(m, 1, "qpi", "RxL_FLITS_G1.DRS_NONDATA"), rx / 16, 0.001));
	/* reads and writebacks served by the home agents, 3:1 */
	CT_CHECK(near(fed(m, -1, "ha", "REQUESTS.READS") /
			      (fed(m, -1, "ha", "REQUESTS.READS") + fed(m, -1, "ha", "REQUESTS.WRITES")),
		      0.75, 0.001));
	CT_CHECK(near(fed(m, -1, "ha", "REQUESTS.READS") * 8, rx * 0.75, 0.001));
	CT_CHECK(near(fed(m, -1, "qpi", "DIRECT2CORE.SUCCESS") * 8, rx * 0.75, 0.001));
	CT_CHECK(fed(m, -1, "r3qpi", "RxR_INSERTS.HOM") > 0);
	/* the packets received (CTO_COUNT's inputs), one per line: data
	 * answering reads and read requests (3/4 of the lines), write-back data
	 * and completions (1/4) */
	CT_CHECK(near(fed(m, -1, "qpi", "CTO_COUNT.DRS_DataC") * 8, rx * 0.75, 0.001));
	CT_CHECK(near(fed(m, -1, "qpi", "CTO_COUNT.HOM0_RdData") * 8, rx * 0.75, 0.001));
	CT_CHECK(near(fed(m, -1, "qpi", "CTO_COUNT.DRS_WbIData") * 8, rx * 0.25, 0.001));
	CT_CHECK(near(fed(m, -1, "qpi", "CTO_COUNT.NDR_Cmp") * 8, rx * 0.25, 0.001));
	ucm_destroy(m);
	CT_CHECK(check_nid(path, "cbo", "TOR_INSERTS.DRd_MISS", 1) > 100);
	/* 2 flits per cycle per port: 9 of them a line each way, plus requests */
	o.gbps = 60;
	CT_EQ(gen_hdr(path, &h, &o, err, sizeof(err)), -ERANGE);
	CT_CONTAINS(err, "two flits per QPI cycle");
	h.plat = skl();
	h.sockets = 1;
	o.gbps = 1;
	CT_EQ(gen_hdr(path, &h, &o, err, sizeof(err)), -ENOTSUP);
	unlink(path);
}

/* Core C-state patterns: each core busy for its share of the time, its
 * idle time split between C3 and C6; the PCU's occupancy inputs count the
 * cores in each state, the residency and band inputs follow, and the
 * sleep masks name exactly the cores not in C0. */
CT_TEST(snbep_cstate_generator_has_the_requested_residency)
{
	char path[128], path2[128], err[512];
	struct uct_hdr h;
	struct uct_gen_opts o = { "cstate", 0.05, 0, 0, 0.4, 0, 0.3, 0, 0, 11, 0 };
	struct ucm_model *m;
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	uint64_t cyc;
	double pclk;
	unsigned nseg = 0, bad = 0;
	int occ, res3, band;

	CT_REQUIRE(s);
	tmpname(path, sizeof(path), "cgen.bin");
	tmpname(path2, sizeof(path2), "cgen2.bin");
	snbep_gen_hdr(&h, 2, o.seed);
	CT_REQUIRE(gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
	m = replayed(path, &cyc);
	CT_REQUIRE(m);
	pclk = (double)uct_domain_cycles(&h, 2, 0, cyc); /* the trace ran from time 0 */
	CT_CHECK(near(fed(m, -1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C0"), 0.3 * 16 * pclk, 0.001));
	CT_CHECK(near(fed(m, -1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C3"), 0.7 * 0.4 * 16 * pclk, 0.001));
	CT_CHECK(near(fed(m, -1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C6"), 0.7 * 0.6 * 16 * pclk, 0.001));
	CT_CHECK(fed(m, 1, "pcu_cstate", "CORE_C6_CYCLES") > 0.5 * pclk);
	ucm_destroy(m);
	/* segment by segment: 8 cores in one state each, asleep = not in C0 */
	CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
	occ = ucm_subev_find(ucm_boxtype_find(snbep(), "pcu"), "POWER_STATE_OCCUPANCY.CORES_C0");
	res3 = ucm_subev_find(ucm_boxtype_find(snbep(), "pcu_cstate"), "CORE_C3_CYCLES");
	band = ucm_subev_find(ucm_boxtype_find(snbep(), "pcu"), "FREQ_BAND2_CYCLES.CYCLES");
	while (uct_next(r, s) > 0) {
		for (unsigned so = 0; so < 2; so++) {
			unsigned n[3] = { 0, 0, 0 }, c3 = 0, freq = 0;

			for (unsigned i = 0; i < s->nin; i++) {
				const struct uct_in *in = &s->in[i];

				if (in->socket != so)
					continue;
				if (in->sub >= occ && in->sub < occ + 3 && in->bt == bt_index(snbep(), "pcu"))
					n[in->sub - occ] += in->inc;
				if (in->sub == res3 && in->bt == bt_index(snbep(), "pcu_cstate"))
					c3 = in->inc;
				if (in->sub == band && in->bt == bt_index(snbep(), "pcu"))
					freq = in->attr[UCM_AT_FREQ];
			}
			if (n[0] + n[1] + n[2] != 8 || (unsigned)__builtin_popcountll(s->asleep[so]) != n[1] + n[2] ||
			    c3 != (n[1] > 0) || freq != (n[0] ? 27u : 12u))
				bad++;
		}
		nseg++;
	}
	uct_close(r);
	CT_EQ(bad, 0);
	CT_CHECK(nseg > 1000);
	/* the replayed model's cores sleep as the masks say */
	{
		struct uct_reader *r1, *r2;
		struct uct_replay *rp;
		unsigned k = 0;

		CT_REQUIRE(uct_open(path, &r1, err, sizeof(err)) == 0);
		CT_REQUIRE(uct_open(path, &r2, err, sizeof(err)) == 0);
		m = snbep_model(uct_header(r1));
		CT_REQUIRE(m && uct_replay_attach(m, r1, &rp) == 0);
		while (k++ < 300 && uct_next(r2, s) > 0) {
			CT_REQUIRE(ucm_run_cycles(m, 0, s->start + 1 - ucm_cycles(m, 0)) == 0);
			for (unsigned so = 0; so < 2; so++)
				for (unsigned c = 0; c < 8; c++)
					if (ucm_core_asleep(m, so, c) != (int)(s->asleep[so] >> c & 1))
						bad++;
		}
		CT_EQ(bad, 0);
		uct_replay_detach(rp);
		uct_close(r1);
		uct_close(r2);
		ucm_destroy(m);
	}
	CT_REQUIRE(gen_hdr(path2, &h, &o, err, sizeof(err)) == 0);
	CT_CHECK(same_file(path, path2));
	/* idle: every core of both sockets in C6 all the time, nothing else */
	o = (struct uct_gen_opts){ "idle", 0.05, 0, 0, 0, 0, 0, 0, 0, 3, 0 };
	CT_REQUIRE(gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
	m = replayed(path, &cyc);
	CT_REQUIRE(m);
	pclk = (double)uct_domain_cycles(&h, 2, 0, cyc);
	CT_EQ(cyc, 135000000);
	CT_EQ(fed(m, -1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C6"), 16 * pclk);
	CT_EQ(fed(m, -1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C0"), 0);
	CT_EQ(fed(m, -1, "imc", "CAS_COUNT.RD_REG") + fed(m, -1, "cbo", "LLC_LOOKUP.DATA_READ_I"), 0);
	ucm_destroy(m);
	CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
	CT_EQ(uct_next(r, s), 1); /* one segment: every core asleep throughout */
	CT_EQ(s->ncycles, 135000000);
	CT_EQ(s->asleep[0], 0xFF);
	CT_EQ(s->asleep[1], 0xFF);
	CT_EQ(uct_next(r, s), 0);
	uct_close(r);
	o = (struct uct_gen_opts){ "cstate", 0.01, 0, 0, 0.5, 0, 1.5, 0, 0, 3, 0 };
	CT_EQ(gen_hdr(path, &h, &o, err, sizeof(err)), -ERANGE);
	unlink(path);
	unlink(path2);
	free(s);
}

/* Bursts: reads at the platform's peak (every channel one CAS per 4 dclk
 * cycles) for the duty's share of the time. */
CT_TEST(snbep_burst_generator_has_the_requested_duty)
{
	char path[128], err[512];
	struct uct_hdr h;
	struct uct_gen_opts o = { "burst", 0.1, 0, 0, 0, 0, 0.25, 20000, 0, 3, 0 };
	struct ucm_model *m;
	uint64_t cyc;
	double secs;

	tmpname(path, sizeof(path), "bgen.bin");
	snbep_gen_hdr(&h, 1, o.seed);
	CT_REQUIRE(gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
	m = replayed(path, &cyc);
	CT_REQUIRE(m);
	secs = (double)cyc / 2.7e9;
	CT_CHECK(near(fed(m, -1, "imc", "CAS_COUNT.RD_REG") * 64 / secs / 1e9, 51.2 * 0.25, 0.002));
	CT_EQ(fed(m, -1, "imc", "CAS_COUNT.WR_WMM"), 0);
	CT_CHECK(near(fed(m, -1, "ha", "REQUESTS.READS"), fed(m, -1, "imc", "CAS_COUNT.RD_REG"), 0.001));
	ucm_destroy(m);
	unlink(path);
}

#define SHDR "uncore-trace 2\nplatform snbep\nsockets 2\n"

/* Every class of malformed snbep input, with its location. */
CT_TEST(malformed_snbep_traces_are_rejected_with_their_location)
{
	/* boxes, instances, sockets */
	expect_text_error(SHDR "run 10: xbox0.FOO=1\n", "t.uct:4:9:", "unknown box");
	expect_text_error(SHDR "run 10: cbo8.LLC_LOOKUP.DATA_READ_I=1\n", "t.uct:4:12:", "instances (0-7)");
	expect_text_error(SHDR "run 10: s1.imc4.CAS_COUNT.RD_REG=1\n", "t.uct:4:15:", "instances (0-3)");
	expect_text_error(SHDR "run 10: qpi2.TxL_FLITS_G0.DATA=1\n", "t.uct:4:12:", "instances (0-1)");
	expect_text_error(SHDR "boxes cbo=4\nrun 10: s1.cbo5.LLC_LOOKUP.DATA_READ_I=1\n", "t.uct:5:15:",
			  "4 cbo instances");
	expect_text_error(SHDR "run 10: s2.cbo0.LLC_LOOKUP.DATA_READ_I=1\n", "t.uct:4:", "socket 2: the trace has 2");
	expect_text_error("uncore-trace 2\nplatform snbep\nrun 10: s1.ha.REQUESTS.READS=1\n", "t.uct:3:",
			  "socket 1: the trace has 1");
	expect_text_error("uncore-trace 2\nplatform snbep\nsockets 3\n", "t.uct:3:9:", "1..2 sockets");
	expect_text_error(SHDR "run 10: imc0.CAS_COUNT.RD=1\n", "t.uct:4:14:", "no sub-event 'CAS_COUNT.RD'");
	expect_text_error(SHDR "clock fclk 1\n", "t.uct:4:7:", "no clock");
	/* increments above a maximum, alone and summed */
	expect_text_error(SHDR "run 10: cbo0.TOR_OCCUPANCY.DRd_MISS=21\n", "t.uct:4:9:",
			  "cbo0 TOR_OCCUPANCY: 21 per cycle exceeds the event's maximum increment 20");
	expect_text_error(SHDR "run 10: s1.pcu.POWER_STATE_OCCUPANCY.CORES_C0=5, s1.pcu.POWER_STATE_OCCUPANCY.CORES_C6=4\n",
			  "t.uct:4:50:", "POWER_STATE_OCCUPANCY: 9 per cycle exceeds the event's maximum increment 8");
	expect_text_error(SHDR "run 10: qpi1.TxL_FLITS_G0.DATA=3\n", "t.uct:4:9:", "maximum increment 2");
	expect_text_error(SHDR "run 10: s1.imc.CAS_COUNT.RD_REG=1, s1.imc2.CAS_COUNT.WR_WMM=1\n", "t.uct:4:36:",
			  "imc2 CAS_COUNT: 2 per cycle");
	expect_text_error(SHDR "run 10: pcu_cstate.CORE_C6_CYCLES=2\n", "t.uct:4:9:", "maximum increment 1");
	/* attributes */
	expect_text_error(SHDR "run 10: cbo0.TOR_INSERTS.DRd_MISS=1{colour=3}\n", "t.uct:4:37:", "unknown attribute 'colour'");
	expect_text_error(SHDR "run 10: cbo0.LLC_LOOKUP.DATA_READ_I=1{opc=0x182}\n", "t.uct:4:39:",
			  "no filter of LLC_LOOKUP compares 'opc'");
	expect_text_error(SHDR "run 10: ha.REQUESTS.READS=1{tid=1}\n", "t.uct:4:29:", "no filter of REQUESTS compares 'tid'");
	expect_text_error(SHDR "run 10: cbo0.TOR_INSERTS.DRd_MISS=1{nid=1,nid=2}\n", "t.uct:4:43:", "'nid' given twice");
	expect_text_error(SHDR "run 10: cbo0.TOR_INSERTS.DRd_MISS=1{nid=65535}\n", "t.uct:4:41:", "nid 65535 out of range");
	expect_text_error(SHDR "run 10: cbo0.TOR_INSERTS.DRd_MISS=1{nid=1\n", "t.uct:4:42:", "expected ',' or '}'");
	expect_text_error(SHDR "run 10: cbo0.TOR_INSERTS.DRd_MISS=1{nid 1}\n", "t.uct:4:41:", "expected '='");
	expect_text_error(SHDR "run 10: cbo.TOR_OCCUPANCY.DRd_MISS=2{nid=0}, cbo3.TOR_OCCUPANCY.DRd_MISS=2{nid=1}\n",
			  "t.uct:4:46:", "attributes differ from those of input 1");
	expect_text_error("uncore-trace 1\nplatform snbep\nrun 10: cbo0.TOR_INSERTS.DRd_MISS=1{nid=1}\n",
			  "t.uct:3:36:", "attributes need version 2");
	/* sleep masks */
	expect_text_error(SHDR "run 10: asleep=0x100\n", "t.uct:4:16:", "snbep has 8 cores per socket");
	expect_text_error(SHDR "run 10: s1.asleep=1, s1.asleep=2\n", "t.uct:4:22:", "asleep given twice for socket 1");
	expect_text_error(SHDR "run 10: s2.asleep=1\n", "t.uct:4:", "socket 2: the trace has 2");
	expect_text_error(SHDR "run 10: asleep=x\n", "t.uct:4:16:", "expected core mask");
	expect_text_error("uncore-trace 1\nplatform snbep\nrun 10: asleep=1\n", "t.uct:3:9:", "sleep states need version 2");
	/* and what is fine */
	{
		const char *ok = SHDR "run 5: s1.asleep=0xff, s0.pcu.FREQ_BAND0_CYCLES.CYCLES=1{freq=27}, "
				 "cbo.TOR_OCCUPANCY.DRd_MISS=2{opc=0x182,nid=0}, cbo3.TOR_OCCUPANCY.DRd_MISS=2{nid=0,opc=386}, "
				 "s0.asleep=0\n";
		struct uct_reader *r;
		struct uct_seg s;
		char err[768];

		CT_REQUIRE(uct_open_mem("ok.uct", ok, strlen(ok), &r, err, sizeof(err)) == 0);
		CT_EQ(uct_next(r, &s), 1);
		CT_EQ(s.nin, 3);
		CT_EQ(s.asleep[1], 0xFF);
		CT_EQ(s.asleep[0], 0);
		CT_EQ(s.in[1].amask, 1u << UCM_AT_OPC | 1u << UCM_AT_NID);
		CT_EQ(s.in[2].attr[UCM_AT_OPC], 0x182);
		CT_EQ(uct_next(r, &s), 0);
		uct_close(r);
	}
}

/* A LEB128 varint, as the format's integers are. */
static void put_test_var(unsigned char *o, size_t *n, uint64_t v)
{
	do {
		o[(*n)++] = (unsigned char)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

/* A block as the writer makes it: type, length, payload, CRC-32. */
static size_t put_test_block(unsigned char *o, int type, const unsigned char *p, size_t len)
{
	uint32_t crc;

	o[0] = (unsigned char)type;
	for (unsigned i = 0; i < 4; i++)
		o[1 + i] = (unsigned char)(len >> (8 * i));
	memcpy(o + 5, p, len);
	crc = (uint32_t)crc32(0L, o, (uInt)(5 + len));
	for (unsigned i = 0; i < 4; i++)
		o[5 + len + i] = (unsigned char)(crc >> (8 * i));
	return 9 + len;
}

/* Binary snbep traces: every truncation and single-bit corruption of a
 * trace with attributes and sleep masks is detected, and so are well-formed
 * blocks whose content breaks the rules. */

/* The header block of a hand-made binary trace ("snbep", 2 sockets, no
 * clocks, seed 0, no box counts) and its symbol block (one symbol:
 * cbo TOR_INSERTS.DRd_MISS). */
static unsigned raw_sockets = 2; /* raw_snbep_head's socket count */

static void raw_snbep_head(unsigned char *hdr, size_t *hn, unsigned char *sym, size_t *yn)
{
	hdr[(*hn)++] = 5;
	memcpy(hdr + *hn, "snbep", 5);
	*hn += 5;
	hdr[(*hn)++] = (unsigned char)raw_sockets;
	hdr[(*hn)++] = 0;
	hdr[(*hn)++] = 0;
	hdr[(*hn)++] = 0;
	sym[(*yn)++] = 1;
	sym[(*yn)++] = 3;
	memcpy(sym + *yn, "cbo", 3);
	*yn += 3;
	sym[(*yn)++] = 20;
	memcpy(sym + *yn, "TOR_INSERTS.DRd_MISS", 20);
	*yn += 20;
}

CT_TEST(malformed_snbep_binary_traces_are_detected)
{
	char path[128], err[768];
	static unsigned char buf[1 << 16], bad[1 << 16];
	size_t n;

	tmpname(path, sizeof(path), "sc.bin");
	CT_REQUIRE(write_random_snbep(path, 1, 8, 5, 1, NULL) == 0);
	n = load(path, buf, sizeof(buf));
	CT_REQUIRE(n > 100 && n < sizeof(buf));
	CT_EQ(read_all(buf, n, err, sizeof(err)), 0);
	for (size_t cut = 0; cut < n; cut++)
		if (read_all(buf, cut, err, sizeof(err)) >= 0)
			ct_fail(__FILE__, __LINE__, "truncation at %zu of %zu accepted", cut, n);
	for (size_t i = 0; i < n; i++) {
		memcpy(bad, buf, n);
		bad[i] ^= (unsigned char)(1u << (i % 8));
		if (read_all(bad, n, err, sizeof(err)) >= 0)
			ct_fail(__FILE__, __LINE__, "flip of byte %zu accepted", i);
	}
	unlink(path);
	/* hand-made blocks with valid checksums */
	{
		static const struct {
			const char *seg;   /* a segment record: gap, cycles, inputs, ... */
			size_t len;
			const char *want;
		} cases[] = {
			/* symbol 0 (cbo TOR_INSERTS.DRd_MISS) on socket 1, cbo0, inc 1,
			 * nid (mask 4) = 0xFFFF: out of range */
			{ "\x00\x0a\x01\x00\x01\x01\x01\x04\xff\xff\x03\x00", 12, "attribute nid=65535 out of range" },
			/* attribute mask bit 11: no such attribute */
			{ "\x00\x0a\x01\x00\x01\x01\x01\x80\x10\x01\x00", 11, "attribute mask 0x800 out of range" },
			/* a sleep mask for socket 2 of 2 */
			{ "\x00\x0a\x00\x01\x02\x01", 6, "out of order or empty" },
			/* a zero mask */
			{ "\x00\x0a\x00\x01\x00\x00", 6, "out of order or empty" },
			/* socket 0 after socket 1 */
			{ "\x00\x0a\x00\x02\x01\x01\x00\x01", 8, "out of order or empty" },
			/* core 8 of 8 */
			{ "\x00\x0a\x00\x01\x00\x80\x02", 7, "8 cores per socket" },
			/* sum above the maximum: 1 on cbo0 and 1 on every CBo */
			{ "\x00\x0a\x02\x00\x00\x01\x01\x00\x00\x00\x00\x01\x00\x00", 14, "exceeds the event's maximum" },
		};

		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			unsigned char f[512];
			size_t k = 0;
			unsigned char hdr[64], sym[64], seg[64], end[8];
			size_t hn = 0, yn = 0, sn = 0, en = 0;

			raw_snbep_head(hdr, &hn, sym, &yn);
			seg[sn++] = 1; /* one record */
			memcpy(seg + sn, cases[c].seg, cases[c].len);
			sn += cases[c].len;
			end[en++] = 1;
			end[en++] = 10;
			memcpy(f, "UCTRACE\0\x02\x00\x00\x00", 12);
			k = 12;
			k += put_test_block(f + k, 'H', hdr, hn);
			k += put_test_block(f + k, 'Y', sym, yn);
			k += put_test_block(f + k, 'S', seg, sn);
			k += put_test_block(f + k, 'E', end, en);
			if (read_all(f, k, err, sizeof(err)) >= 0)
				ct_fail(__FILE__, __LINE__, "case %zu accepted", c);
			else if (!strstr(err, cases[c].want))
				ct_fail(__FILE__, __LINE__, "case %zu: \"%s\", want \"%s\"", c, err, cases[c].want);
		}
	}
}

/* The vector form (flags bit 0): a record is gap, cycles, a code (2 x
 * (0: new inputs follow, k: vector k - 1) + 1 when sleep masks follow),
 * then those.  Each malformed record is refused at the byte at fault: the
 * code of a reference to a vector not defined, the record for a rule it
 * breaks as a whole, the field of a value out of range; and flags other
 * than bit 0 at offset 10. */
/* A snbep binary trace (flags: the form) of nrec records rec[0..len),
 * which every reader must refuse with `want` at the record bytes' offset
 * `at`: read whole (uct_next), as a replay reads (uct_next_vec), and as
 * the check before a replay reads (uct_open_checked). */
/* read_all as a replay into a model reads (uct_replay_attach, the model
 * run until the replay ends or fails): its error in err, -1 on one; -2
 * when the model stopped first (its error in err). */
static int replay_all(const unsigned char *buf, size_t n, char *err, size_t en)
{
	struct uct_reader *r;
	struct uct_replay *rp;
	struct ucm_model *m;
	int rc = uct_open_mem("t.bin", buf, n, &r, err, en);

	if (rc)
		return rc;
	m = snbep_model(uct_header(r));
	if (!m || uct_replay_attach(m, r, &rp)) {
		snprintf(err, en, "no model or replay");
		ucm_destroy(m);
		uct_close(r);
		return 0; /* not the error looked for */
	}
	rc = 0;
	while (!uct_replay_done(rp) && !uct_replay_failed(rp))
		if (ucm_run_cycles(m, 0, 100000000)) {
			rc = -2; /* the model's own limit (time past 2^64 ps) */
			break;
		}
	rc = uct_replay_failed(rp) ? -1 : rc;
	snprintf(err, en, "%s", rc == -2 ? ucm_error(m) : uct_replay_error(rp));
	uct_replay_detach(rp);
	ucm_destroy(m);
	uct_close(r);
	return rc;
}

/* A snbep trace of nrec records (rec, len bytes) with the flags and
 * version given, its end block saying nrec segments and `cycles` cycles,
 * in f (4096 bytes); its length, and the offset of the records in *rec0. */
static size_t raw_records_file(unsigned char *f, unsigned flags, unsigned version, unsigned nrec,
			       const unsigned char *rec, size_t len, uint64_t cycles, size_t *rec0)
{
	unsigned char hdr[64], sym[64], seg[2048], end[8];
	size_t k, hn = 0, yn = 0, sn = 0, en = 0;

	if (len + 8 >= sizeof(seg)) {
		ct_fail(__FILE__, __LINE__, "%zu bytes of records: more than the test's block", len);
		return 0;
	}
	raw_snbep_head(hdr, &hn, sym, &yn);
	put_test_var(seg, &sn, nrec);
	memcpy(seg + sn, rec, len);
	sn += len;
	put_test_var(end, &en, nrec);
	put_test_var(end, &en, cycles);
	memcpy(f, "UCTRACE\0\x02\x00\x01\x00", 12);
	f[8] = (unsigned char)version;
	f[10] = (unsigned char)flags;
	k = 12;
	k += put_test_block(f + k, 'H', hdr, hn);
	k += put_test_block(f + k, 'Y', sym, yn);
	*rec0 = k + 5 + (sn - len); /* the S block's payload, after its record count */
	k += put_test_block(f + k, 'S', seg, sn);
	k += put_test_block(f + k, 'E', end, en);
	return k;
}

static void check_malformed_records(size_t c, unsigned flags, unsigned version, unsigned nrec,
				    const unsigned char *rec, size_t len, size_t at, const char *want)
{
	static unsigned char f[4096];
	size_t k, rec0;
	char err[768], where[64];

	k = raw_records_file(f, flags, version, nrec, rec, len, 20, &rec0);
	snprintf(where, sizeof(where), "offset %zu: ", rec0 + at);
	if (read_all(f, k, err, sizeof(err)) >= 0)
		ct_fail(__FILE__, __LINE__, "case %zu accepted", c);
	else if (!strstr(err, want) || !strstr(err, where))
		ct_fail(__FILE__, __LINE__, "case %zu: \"%s\", want \"%s%s\"", c, err, where, want);
	if (read_vec(f, k, err, sizeof(err)) >= 0)
		ct_fail(__FILE__, __LINE__, "case %zu accepted by uct_next_vec", c);
	else if (!strstr(err, want) || !strstr(err, where))
		ct_fail(__FILE__, __LINE__, "case %zu, uct_next_vec: \"%s\", want \"%s%s\"", c, err,
			where, want);
	if (read_checked(f, k, err, sizeof(err)) >= 0)
		ct_fail(__FILE__, __LINE__, "case %zu accepted by uct_open_checked", c);
	else if (!strstr(err, want) || !strstr(err, where))
		ct_fail(__FILE__, __LINE__, "case %zu, uct_open_checked: \"%s\", want \"%s%s\"", c, err,
			where, want);
	if (replay_all(f, k, err, sizeof(err)) >= 0)
		ct_fail(__FILE__, __LINE__, "case %zu accepted by a replay", c);
	else if (!strstr(err, want) || !strstr(err, where))
		ct_fail(__FILE__, __LINE__, "case %zu, replay: \"%s\", want \"%s%s\"", c, err, where,
			want);
}

/* vectors 0 and 1 (an input on socket 1, on socket 0), then six
 * references to them in turn */
#define VDEF "\x00\x0a\x00\x01\x00\x01\x01\x01\x00" "\x00\x0a\x00\x01\x00\x00\x01\x01\x00"
#define VREF6 "\x00\x0a\x02\x00\x0a\x04\x00\x0a\x02\x00\x0a\x04\x00\x0a\x02\x00\x0a\x04"

CT_TEST(malformed_vector_form_traces_are_detected_at_their_offset)
{
	static const struct {
		unsigned version, nrec;
		const char *rec;   /* the records */
		size_t len, at;    /* their bytes; the offset at fault within them */
		const char *want;
	} cases[] = {
		/* a reference to vector 0, none defined: at the code */
		{ 2, 1, "\x00\x0a\x02", 3, 2, "undefined vector 0 (0 defined)" },
		/* vector 0 defined (one input), then a reference to vector 1 */
		{ 2, 2, "\x00\x0a\x00\x01\x00\x01\x01\x01\x00" "\x00\x0a\x04", 12, 11,
		  "undefined vector 1 (1 defined)" },
		/* a zero sleep mask after new inputs: at the mask */
		{ 2, 1, "\x00\x0a\x01\x00\x01\x00\x00", 7, 6, "out of order or empty" },
		/* a reference with core 8 of 8 asleep: at the masks' first byte */
		{ 2, 2, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x00\x80\x02", 11, 7, "8 cores per socket" },
		/* a reference with 3 sleep masks for 2 sockets: at the masks' first byte */
		{ 2, 2, "\x00\x0a\x00\x00" "\x00\x0a\x03\x03\x00\x01\x01\x01", 12, 7,
		  "3 sleep masks for 2 sockets" },
		/* increments above the maximum, on cbo0 and every CBo: the record */
		{ 2, 1, "\x00\x0a\x00\x02\x00\x00\x01\x01\x00\x00\x00\x00\x01\x00", 14, 0,
		  "exceeds the event's maximum" },
		/* 0 cycles: the record */
		{ 2, 1, "\x00\x00\x00\x00", 4, 0, "segment length 0 cycles out of range" },
		/* sleep masks in version 1: the record */
		{ 1, 1, "\x00\x0a\x01\x00\x01\x00\x01", 7, 0, "sleep masks need version 2" },
		/* 2^52 cycles: the time limit, at the record */
		{ 2, 1, "\x00\x80\x80\x80\x80\x80\x80\x80\x08\x00\x00", 11, 0, "the trace would last" },
		/* references with sleep masks that are not the last record of
		 * their block (what a replay reads without decoding a vector):
		 * core 8 of 8, at the masks' first byte */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x00\x80\x02" "\x00\x0a\x02", 14, 7,
		  "8 cores per socket" },
		/* 3 masks for 2 sockets, at the masks' first byte */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x03\x00\x01\x01\x01" "\x00\x0a\x02", 15, 7,
		  "3 sleep masks for 2 sockets" },
		/* a zero mask, at the mask */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x00\x00" "\x00\x0a\x02", 13, 9,
		  "out of order or empty" },
		/* socket 2 of 2, at its mask */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x02\x01" "\x00\x0a\x02", 13, 9,
		  "out of order or empty" },
		/* socket 0 after socket 1, at the second mask */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x02\x01\x01\x00\x01" "\x00\x0a\x02", 15, 11,
		  "out of order or empty" },
		/* a mask of 2^56 (a varint of 9 bytes), at the masks' first byte */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x00\x80\x80\x80\x80\x80\x80\x80\x80\x01"
		  "\x00\x0a\x02", 21, 7, "8 cores per socket" },
		/* sleep masks in version 1, at the record */
		{ 1, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x00\x01" "\x00\x0a\x02", 13, 4,
		  "sleep masks need version 2" },
		/* in the middle of a block, after references to a vector with an
		 * input, enough for the model to sum phases (what a replay then
		 * reads ahead straight from the block): a reference to vector 2
		 * of 2, at the code */
		{ 2, 10, VDEF VREF6 "\x00\x0a\x06" "\x00\x0a\x02", 42, 38, "undefined vector 2 (2 defined)" },
		/* the block ends inside a record's code (0x82: the first of
		 * two bytes), a record said to follow it: at the code (a
		 * replay reads ahead past the block's end, BLKPAD) */
		{ 2, 10, VDEF VREF6 "\x00\x0a\x82", 39, 38, "record runs past the end of its block" },
		/* ... inside its length */
		{ 2, 10, VDEF VREF6 "\x00\x8a", 38, 37, "record runs past the end of its block" },
		/* a zero mask, at the mask */
		{ 2, 10, VDEF VREF6 "\x00\x0a\x03\x01\x00\x00" "\x00\x0a\x02", 45, 41,
		  "out of order or empty" },
		/* core 8 of 8 asleep, at the masks' first byte */
		{ 2, 10, VDEF VREF6 "\x00\x0a\x03\x01\x01\x80\x02" "\x00\x0a\x02", 46, 39,
		  "8 cores per socket" },
		/* 0 cycles, at the record */
		{ 2, 10, VDEF VREF6 "\x00\x00\x02" "\x00\x0a\x02", 42, 36,
		  "segment length 0 cycles out of range" },
		/* 2^52 cycles: the time limit, at the record */
		{ 2, 10, VDEF VREF6 "\x00\x80\x80\x80\x80\x80\x80\x80\x08\x02" "\x00\x0a\x02", 49, 36,
		  "the trace would last" },
		/* sleep masks in version 1 (no attribute masks), at the record */
		{ 1, 10, "\x00\x0a\x00\x01\x00\x01\x01\x01" "\x00\x0a\x00\x01\x00\x00\x01\x01" VREF6
		  "\x00\x0a\x03\x01\x00\x01" "\x00\x0a\x02", 43, 34,
		  "sleep masks need version 2" },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		check_malformed_records(c, 1, cases[c].version, cases[c].nrec,
					(const unsigned char *)cases[c].rec, cases[c].len, cases[c].at,
					cases[c].want);
	/* flags: bits 0 to 3, bits 1 and 2 only with bit 0, bit 3 only
	 * with bit 2 */
	{
		unsigned char f[12];
		char err[768];

		memcpy(f, "UCTRACE\0\x02\x00\x10\x00", 12);
		CT_CHECK(read_all(f, sizeof(f), err, sizeof(err)) < 0);
		CT_CONTAINS(err, "offset 10: unknown flags 0x0010");
		f[10] = 9;
		CT_CHECK(read_all(f, sizeof(f), err, sizeof(err)) < 0);
		CT_CONTAINS(err, "offset 10: flags 0x0009: empty sleep changes (bit 3) without sleep changes (bit 2)");
		f[10] = 4;
		CT_CHECK(read_all(f, sizeof(f), err, sizeof(err)) < 0);
		CT_CONTAINS(err, "offset 10: flags 0x0004: sleep changes (bit 2) without the vector form (bit 0)");
		f[10] = 2;
		CT_CHECK(read_all(f, sizeof(f), err, sizeof(err)) < 0);
		CT_CONTAINS(err, "offset 10: flags 0x0002: chunks (bit 1) without the vector form (bit 0)");
	}
}

/* The vector form with sleep changes (flags 5): a record's sleep masks
 * given as the cores that change, socket * 64 + core, in increasing order,
 * at least one; read by the general path (a record first or last in its
 * block), the reader's fast path (a reference in mid-block) and a replay
 * reading ahead from the block (after enough references for the model to
 * sum phases): the same message at the same offset.  snbep: 2 sockets of
 * 8 cores. */
CT_TEST(malformed_sleep_changes_are_detected_at_their_offset)
{
	static const struct {
		unsigned version, nrec;
		const char *rec;
		size_t len, at;
		const char *want;
	} cases[] = {
		/* no change: at the changes' first byte */
		{ 2, 1, "\x00\x0a\x01\x00\x00", 5, 4, "0 sleep changes" },
		/* socket 2 of 2 (index 128), at the change */
		{ 2, 1, "\x00\x0a\x01\x00\x01\x80\x01", 7, 5, "out of order or past the sockets" },
		/* core 8 of 8 (index 8): at the changes' first byte */
		{ 2, 1, "\x00\x0a\x01\x00\x01\x08", 6, 4, "8 cores per socket" },
		/* out of order (core 3, then core 2): at the second */
		{ 2, 1, "\x00\x0a\x01\x00\x02\x03\x02", 7, 6, "sleep change 1" },
		/* the same core twice: at the second */
		{ 2, 1, "\x00\x0a\x01\x00\x02\x03\x03", 7, 6, "sleep change 1" },
		/* more changes than cores of 2 sockets could make */
		{ 2, 1, "\x00\x0a\x01\x00\x81\x01", 6, 4, "129 sleep changes" },
		/* in version 1: the record */
		{ 1, 1, "\x00\x0a\x01\x00\x01\x02", 6, 0, "sleep masks need version 2" },
		/* references in mid-block, each case again (the fast path) */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x00" "\x00\x0a\x02", 11, 7, "0 sleep changes" },
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x80\x01" "\x00\x0a\x02", 13, 8,
		  "out of order or past the sockets" },
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x08" "\x00\x0a\x02", 12, 7,
		  "8 cores per socket" },
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x02\x03\x02" "\x00\x0a\x02", 13, 9,
		  "sleep change 1" },
		/* nine changes (the fast path takes eight), the ninth out of order */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x09\x00\x01\x02\x03\x04\x05\x06\x07\x07"
		  "\x00\x0a\x02", 20, 16, "sleep change 8" },
		/* after enough references for the model to sum phases (the
		 * replay's read-ahead): core 8, out of order */
		{ 2, 10, VDEF VREF6 "\x00\x0a\x03\x01\x09" "\x00\x0a\x02", 44, 39, "8 cores per socket" },
		{ 2, 10, VDEF VREF6 "\x00\x0a\x03\x02\x44\x41" "\x00\x0a\x02", 45, 41, "sleep change 1" },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		check_malformed_records(c, 5, cases[c].version, cases[c].nrec,
					(const unsigned char *)cases[c].rec, cases[c].len, cases[c].at,
					cases[c].want);
	/* one socket: core 1 of socket 1 (index 0x41, one byte, which two
	 * sockets would have), read ahead; at the change */
	raw_sockets = 1;
	check_malformed_records(sizeof(cases) / sizeof(cases[0]), 5, 2, 10,
				(const unsigned char *)"\x00\x0a\x00\x01\x00\x00\x01\x01\x00"
						       "\x00\x0a\x00\x01\x00\x00\x02\x01\x00" VREF6
						       "\x00\x0a\x03\x01\x41" "\x00\x0a\x02",
				44, 40, "out of order or past the sockets");
	raw_sockets = 2;
}

/* Two binary traces in memory, of lengths na and nb, read to the same
 * segments (times and sleep masks). */
static int same_segments_of(const unsigned char *a, size_t na, const unsigned char *b, size_t nb)
{
	struct uct_reader *ra, *rb;
	struct uct_seg *sa = malloc(sizeof(*sa)), *sb = malloc(sizeof(*sb));
	char err[768];
	int same = sa && sb && !uct_open_mem("a.bin", a, na, &ra, err, sizeof(err)), x, y;

	if (same && uct_open_mem("b.bin", b, nb, &rb, err, sizeof(err))) {
		uct_close(ra);
		same = 0;
	}
	if (same) {
		do {
			x = uct_next(ra, sa);
			y = uct_next(rb, sb);
			same = x == y && (x <= 0 || (sa->start == sb->start && sa->ncycles == sb->ncycles &&
						    sa->nin == sb->nin &&
						    !memcmp(sa->asleep, sb->asleep, sizeof(sa->asleep))));
		} while (same && x > 0);
		uct_close(ra);
		uct_close(rb);
	}
	free(sa);
	free(sb);
	return same;
}

/* Empty sleep changes (flags 13: bit 3 with sleep changes): a record's
 * changes may be none, its count of one byte or padded to two, and the
 * record then has the masks of the one before, read alike by the general
 * path (a block's first record), the reader's fast path (a reference in
 * mid-block) and a replay reading ahead (after enough references for the
 * model to sum phases): the same segments as the same trace whose records
 * give no masks (flags 5), and without bit 3 an error at the count
 * (malformed_sleep_changes_are_detected_at_their_offset). */
CT_TEST(empty_sleep_changes_keep_the_last_masks)
{
	static const struct {
		unsigned nrec;
		const char *with, *without; /* flags 13, flags 5 */
		size_t nwith, nwithout;
	} cases[] = {
		/* the first record: one byte, two bytes */
		{ 1, "\x00\x0a\x01\x00\x00", "\x00\x0a\x00\x00", 5, 4 },
		{ 1, "\x00\x0a\x01\x00\x80\x00", "\x00\x0a\x00\x00", 6, 4 },
		/* a reference in mid-block, after a change */
		{ 3, "\x00\x0a\x01\x00\x01\x02" "\x00\x0a\x03\x80\x00" "\x00\x0a\x02",
		  "\x00\x0a\x01\x00\x01\x02" "\x00\x0a\x02" "\x00\x0a\x02", 14, 12 },
		/* read ahead: core 2 asleep, a reference to vector 1 with no
		 * change (two bytes, one byte), core 2 awake */
		{ 12, VDEF VREF6 "\x00\x0a\x03\x01\x02" "\x00\x0a\x05\x80\x00" "\x00\x0a\x03\x01\x02" "\x00\x0a\x02",
		  VDEF VREF6 "\x00\x0a\x03\x01\x02" "\x00\x0a\x04" "\x00\x0a\x03\x01\x02" "\x00\x0a\x02", 54, 52 },
		{ 12, VDEF VREF6 "\x00\x0a\x03\x01\x02" "\x00\x0a\x05\x00" "\x00\x0a\x03\x01\x02" "\x00\x0a\x02",
		  VDEF VREF6 "\x00\x0a\x03\x01\x02" "\x00\x0a\x04" "\x00\x0a\x03\x01\x02" "\x00\x0a\x02", 53, 52 },
	};
	static unsigned char a[4096], b[4096];

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t na, nb, rec0;
		char err[768];

		na = raw_records_file(a, 13, 2, cases[c].nrec, (const unsigned char *)cases[c].with,
				      cases[c].nwith, 10ull * cases[c].nrec, &rec0);
		nb = raw_records_file(b, 5, 2, cases[c].nrec, (const unsigned char *)cases[c].without,
				      cases[c].nwithout, 10ull * cases[c].nrec, &rec0);
		if (read_all(a, na, err, sizeof(err)) < 0 || read_vec(a, na, err, sizeof(err)) < 0 ||
		    read_checked(a, na, err, sizeof(err)) < 0 || replay_all(a, na, err, sizeof(err)) < 0)
			ct_fail(__FILE__, __LINE__, "case %zu: %s", c, err);
		if (read_all(b, nb, err, sizeof(err)) < 0)
			ct_fail(__FILE__, __LINE__, "case %zu, without: %s", c, err);
		if (!same_segments_of(a, na, b, nb))
			ct_fail(__FILE__, __LINE__, "case %zu: not the segments of the trace without them", c);
	}
}

/* The writer (flags 15) gives a record's sleep changes once a record has
 * given one: none as a count of two bytes where the masks stay, so that
 * the records of a C-state trace are alike (docs/formats.md, "Sleep
 * changes"); a trace whose masks never change gives none. */
CT_TEST(sleep_changes_are_given_empty_once_one_is_given)
{
	char path[2][128], err[768];
	size_t n[2];
	static unsigned char f[2][4096];

	for (int x = 0; x < 2; x++) {
		struct uct_seg *s = calloc(1, sizeof(*s));
		struct uct_hdr h;
		struct uct_writer *w;
		struct uct_reader *r;

		CT_REQUIRE(s);
		memset(&h, 0, sizeof(h));
		h.plat = ucm_platform_find("snbep");
		h.sockets = 2;
		tmpname(path[x], sizeof(path[x]), x ? "chg.bin" : "nochg.bin");
		CT_REQUIRE(uct_writer_open(path[x], UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
		/* three segments: none asleep; then (x) core 1 asleep, twice */
		for (unsigned i = 0; i < 3; i++) {
			s->start = 10ull * i;
			s->ncycles = 10;
			s->asleep[0] = x && i ? 2 : 0;
			CT_REQUIRE(uct_write(w, s) == 0);
		}
		CT_REQUIRE(uct_writer_commit(w) == 0);
		n[x] = load(path[x], f[x], sizeof(f[x]));
		CT_REQUIRE(n[x] > 12 && n[x] < sizeof(f[x]));
		CT_EQ(f[x][10], 15);
		/* read back: the masks as written */
		CT_REQUIRE(uct_open(path[x], &r, err, sizeof(err)) == 0);
		for (unsigned i = 0; i < 3; i++) {
			CT_EQ(uct_next(r, s), 1);
			CT_EQ(s->asleep[0], x && i ? 2u : 0u);
		}
		CT_EQ(uct_next(r, s), 0);
		uct_close(r);
		free(s);
		unlink(path[x]);
	}
	/* the change (a count and a core) and the empty change after it (a
	 * count of two bytes): four bytes more, the sleep bits in the codes */
	CT_EQ(n[1], n[0] + 4);
}

/* The vector form with chunks (flags 3): a new vector as chunks, checked
 * whole where a chunk is new or two chunks have inputs of one socket and
 * box type (the checks are per socket and box type, so a vector of chunks
 * checked before, no socket and box type in two, needs none). */
CT_TEST(malformed_chunked_traces_are_detected_at_their_offset)
{
	static const struct {
		unsigned nrec;
		const char *rec;
		size_t len, at;
		const char *want;
	} cases[] = {
		/* chunk 0 referred to, none given: at the reference */
		{ 1, "\x00\x0a\x00\x01\x01", 5, 4, "undefined chunk 0 (0 defined)" },
		/* a chunk without inputs: at the chunk */
		{ 1, "\x00\x0a\x00\x01\x00\x00", 6, 4, "empty chunk" },
		/* cbo0 at 1 on sockets 0 and 1 (chunk 0: two sockets), every
		 * CBo of socket 1 at 1 (chunk 1), then both in one vector:
		 * socket 1 in two chunks, the vector checked, 2 a cycle */
		{ 3, "\x00\x0a\x00\x01\x00\x02\x00\x00\x01\x01\x00\x00\x01\x01\x01\x00"
		     "\x00\x0a\x00\x01\x00\x01\x00\x01\x00\x01\x00" "\x00\x0a\x00\x02\x01\x02", 33, 27,
		  "exceeds the event's maximum" },
		/* 257 chunks: at their count */
		{ 1, "\x00\x0a\x00\x81\x02", 5, 3, "257 chunks in a vector (max 256)" },
		/* chunk 0 (cbo0, 1 a cycle) twice in one vector: the record */
		{ 2, "\x00\x0a\x00\x01\x00\x01\x00\x00\x01\x01\x00" "\x00\x0a\x00\x02\x01\x01", 17, 11,
		  "given twice" },
		/* cbo0 at 1 (chunk 0) and every CBo at 1 (chunk 1), each
		 * checked alone, then both in one vector: 2 a cycle on cbo0 */
		{ 3, "\x00\x0a\x00\x01\x00\x01\x00\x00\x01\x01\x00" "\x00\x0a\x00\x01\x00\x01\x00\x00\x00\x01\x00"
		     "\x00\x0a\x00\x02\x01\x02", 28, 22, "exceeds the event's maximum" },
		/* a reference to vector 1 after two given, the second of a
		 * chunk given before: the vectors are numbered as given */
		{ 3, "\x00\x0a\x00\x01\x00\x01\x00\x00\x01\x01\x00" "\x00\x0a\x00\x01\x01" "\x00\x0a\x06", 19,
		  18, "undefined vector 2 (2 defined)" },
	};
	unsigned char rec[1024];
	size_t n = 0;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		check_malformed_records(c, 3, 2, cases[c].nrec, (const unsigned char *)cases[c].rec,
					cases[c].len, cases[c].at, cases[c].want);
	/* 129 inputs in chunk 0 (read, not yet checked), then a vector of
	 * chunk 0 twice: 258 inputs, at the second reference */
	rec[n++] = 0;
	rec[n++] = 10;
	rec[n++] = 0;
	rec[n++] = 2;
	rec[n++] = 0;
	rec[n++] = 0x81;
	rec[n++] = 1;
	for (unsigned i = 0; i < 129; i++) {
		memcpy(rec + n, "\x00\x00\x01\x01\x00", 5);
		n += 5;
	}
	rec[n++] = 1;
	check_malformed_records(99, 3, 2, 1, rec, n, n - 1, "258 inputs in a segment (max 256)");
}

CT_MAIN()

/* Generated binary traces mutated at random (1-4 bytes flipped, replaced
 * or cleared after the file header, every block's CRC made good so the
 * mutations reach what the blocks hold): a replay into a model fails with
 * the message and offset a plain read gives, or both read it all to the
 * same end.  The replay reads references straight from the block while
 * the model sums phases (ahead_fast) and leaves anything else to the
 * reader's general path; this checks the two never part. */
static void fix_test_crcs(unsigned char *b, size_t n)
{
	size_t p = 12;

	while (n - p >= 9) {
		uint32_t len = (uint32_t)b[p + 1] | (uint32_t)b[p + 2] << 8 | (uint32_t)b[p + 3] << 16 |
			       (uint32_t)b[p + 4] << 24, crc;

		if (len > n - p - 9)
			break;
		crc = (uint32_t)crc32(0L, b + p, (uInt)(5 + len));
		for (unsigned i = 0; i < 4; i++)
			b[p + 5 + len + i] = (unsigned char)(crc >> (8 * i));
		p += 9 + len;
	}
}

CT_TEST(mutated_traces_fail_alike_in_a_replay_and_a_read)
{
	static const struct {
		const char *plat, *kind;
	} cases[] = { { "snbep", "cstate" }, { "ivt", "qpi" } };
	static unsigned char orig[1 << 16], buf[1 << 16];
	unsigned errors = 0, total = 0;
	uint64_t r = 99;
	char path[128];

	tmpname(path, sizeof(path), "mut.uct");
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct uct_gen_opts o = { cases[c].kind, 0.002, 10.0, 0.7, 0.9, 0.25, 0.2, 10000, 0, 7, 0 };
		struct uct_hdr h;
		char err[768];
		size_t n;

		memset(&h, 0, sizeof(h));
		h.plat = ucm_platform_find(cases[c].plat);
		h.sockets = 2;
		h.seed = 7;
		CT_REQUIRE(gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
		n = load(path, orig, sizeof(orig));
		CT_REQUIRE(n > 64 && n < sizeof(orig));
		for (unsigned it = 0; it < 150; it++) {
			char e1[768], e2[768];
			int r1, r2;

			memcpy(buf, orig, n);
			for (unsigned k = 1 + (unsigned)(ct_rng(&r) % 4); k; k--) {
				size_t at = 12 + (size_t)(ct_rng(&r) % (n - 12));
				unsigned op = (unsigned)(ct_rng(&r) % 3);

				buf[at] = op == 0 ? buf[at] ^ (unsigned char)(1u << ct_rng(&r) % 8) :
					  op == 1 ? (unsigned char)ct_rng(&r) : 0;
			}
			fix_test_crcs(buf, n);
			r1 = read_all(buf, n, e1, sizeof(e1));
			r2 = replay_all(buf, n, e2, sizeof(e2));
			if (r2 == -2)
				continue; /* a header whose clock runs past the model's time */
			total++;
			errors += r1 < 0;
			if ((r1 < 0) != (r2 < 0) || (r1 < 0 && strcmp(e1, e2)))
				ct_fail(__FILE__, __LINE__, "%s %s mutation %u: read %d \"%s\", replay %d \"%s\"",
					cases[c].plat, cases[c].kind, it, r1, e1, r2, e2);
		}
	}
	/* most mutations are errors, some are not */
	CT_CHECK(errors > total / 2 && errors < total);
	unlink(path);
}
