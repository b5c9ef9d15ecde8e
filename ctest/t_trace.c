/*
 * t_trace.c - event traces and access traces (docs/formats.md): text <->
 * binary round trips, segment replay against cycle-by-cycle stepping under
 * random programming (threshold, invert, edge, overflow, freeze), generator
 * statistics, recorded driver sessions replayed, and every class of
 * malformed input rejected with its location.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ct.h"
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
				s->in[s->nin++] = (struct uct_in){ 0, (uint8_t)ucm_boxtype_index(p, bt),
								   (int16_t)(ni > 1 ? (int)inst : 0),
								   (uint16_t)(first + rnd() % nsub),
								   (uint32_t)(rnd() % (ec->max_inc + 1)) };
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
		char err[768];
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
		for (size_t i = 0; i < ucm_nregs(a); i++) {
			struct ucm_reginfo ri;
			uint64_t va, vb;

			ucm_reginfo(a, i, &ri);
			CT_REQUIRE(ucm_peek(a, ri.space, ri.socket, ri.addr, &va) == 0);
			CT_REQUIRE(ucm_peek(b, ri.space, ri.socket, ri.addr, &vb) == 0);
			if (va != vb)
				ct_fail(__FILE__, __LINE__, "seed %llu: %s replay 0x%llx, stepped 0x%llx",
					(unsigned long long)seed, ri.name, (unsigned long long)va,
					(unsigned long long)vb);
		}
		for (unsigned bx = 0; bx < ucm_box_count(a); bx++)
			for (unsigned c = 0; c < ucm_box_def(a, (int)bx)->type->nctr; c++) {
				struct ucm_truth ta, tb;

				ucm_truth(a, (int)bx, c, &ta);
				ucm_truth(b, (int)bx, c, &tb);
				CT_EQ(ta.total, tb.total);
				CT_EQ(ta.wraps, tb.wraps);
			}
		for (unsigned c = 0; c < 4; c++) {
			struct ucm_pmi_stats pa, pb;

			ucm_pmi_stats(a, 0, c, &pa);
			ucm_pmi_stats(b, 0, c, &pb);
			CT_EQ(pa.delivered, pb.delivered);
			CT_EQ(pa.last_ps, pb.last_ps);
		}
		CT_EQ(ucm_pmi_requests(a, 0), ucm_pmi_requests(b, 0));
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
	s->in[0] = (struct uct_in){ 0, (uint8_t)ucm_boxtype_index(h.plat, ucm_boxtype_find(h.plat, "arb")), 0,
				    0 /* TRK_OCCUPANCY.ALL */, 32 };
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
	struct uct_gen_opts o = { "stream", 0.2, 15.0, 0.6, 0, 0, 0, 0, 0, 42 };
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

	o = (struct uct_gen_opts){ "llc", 0.1, 0, 0, 0.8, 0.4, 0, 0, 0, 7 };
	CT_REQUIRE(gen(path, &o) == 0);
	fed_totals(path, &cyc, &rd, &wr, &hit, &miss);
	CT_CHECK((double)hit / (double)(hit + miss) > 0.799 && (double)hit / (double)(hit + miss) < 0.801);
	CT_CHECK((double)(hit + miss) / (4.0 * (double)cyc) > 0.3996 &&
		 (double)(hit + miss) / (4.0 * (double)cyc) < 0.4004);
	CT_EQ(rd, miss); /* every miss reads memory */

	o = (struct uct_gen_opts){ "burst", 0.1, 0, 0, 0, 0, 0.25, 20000, 0, 3 };
	CT_REQUIRE(gen(path, &o) == 0);
	fed_totals(path, &cyc, &rd, &wr, &hit, &miss);
	CT_CHECK((double)rd / (double)cyc > 0.2495 && (double)rd / (double)cyc < 0.2505);

	o = (struct uct_gen_opts){ "idle", 0.05, 0, 0, 0, 0, 0, 0, 0, 3 };
	CT_REQUIRE(gen(path, &o) == 0);
	fed_totals(path, &cyc, &rd, &wr, &hit, &miss);
	CT_EQ(cyc, 150000000);
	CT_EQ(rd + wr + hit + miss, 0);

	o = (struct uct_gen_opts){ "stream", 0.1, 500.0, 0.5, 0, 0, 0, 0, 0, 3 };
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
	CT_CONTAINS(ucd_error(d), "expected: wrmsr 0 0x700 0x508134");
	CT_CONTAINS(ucd_error(d), "actual:   wrmsr 0 0x700 0x508834");
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
	expect_text_error("uncore-trace 2\nplatform skl\n", "t.uct:1:14:", "unsupported version 2");
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

CT_MAIN()
