/*
 * t_trace_gen.c - the trace generators (trace/uct_gen.c): each kind gives
 * the statistics asked for (bandwidth, hit and miss mixes, QPI traffic,
 * C-state residency, burst duty), as the model a generated trace replays
 * into counts them, on the Skylake client and the two-socket Xeon
 * E5-2600; the same seed gives the same trace.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "ct.h"
#include "ct_trace.h"
#include "ucm.h"
#include "uct_gen.h"
#include "uct_trace.h"

/* Fed totals of a generated trace, by reading it back. */
static void fed_totals(const char *path, uint64_t *cycles, uint64_t *reads, uint64_t *writes,
		       uint64_t *hits, uint64_t *misses)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[768], name[96];
	const struct ucm_platform *p = ct_skl();

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
	h.plat = ct_skl();
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

	ct_tmpname(path, sizeof(path), "gen.bin");
	ct_tmpname(path2, sizeof(path2), "gen2.bin");
	CT_REQUIRE(gen(path, &o) == 0);
	fed_totals(path, &cyc, &rd, &wr, &hit, &miss);
	CT_EQ(cyc, 600000000); /* 0.2 s at 3 GHz */
	bw = (double)(rd + wr) * 64 / 0.2 / 1e9;
	CT_CHECK(bw > 15.0 * 0.999 && bw < 15.0 * 1.001);
	CT_CHECK((double)rd / (double)(rd + wr) > 0.599 && (double)rd / (double)(rd + wr) < 0.601);
	/* determinism */
	CT_REQUIRE(gen(path2, &o) == 0);
	CT_CHECK(ct_same_file(path, path2));
	o.seed = 43;
	CT_REQUIRE(gen(path2, &o) == 0);
	CT_CHECK(!ct_same_file(path, path2));

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

static void snbep_gen_hdr(struct uct_hdr *h, unsigned sockets, uint64_t seed)
{
	memset(h, 0, sizeof(*h));
	h->plat = ct_snbep();
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
	m = ct_snbep_model(uct_header(r));
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
	bi = ct_bt_index(uct_header(r)->plat, box);
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
	bi = ct_bt_index(uct_header(r)->plat, box);
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

	ct_tmpname(path, sizeof(path), "sgen.bin");
	ct_tmpname(path2, sizeof(path2), "sgen2.bin");
	snbep_gen_hdr(&h, 2, o.seed);
	CT_REQUIRE(ct_gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
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
	CT_REQUIRE(ct_gen_hdr(path2, &h, &o, err, sizeof(err)) == 0);
	CT_CHECK(ct_same_file(path, path2));
	o.seed = 43;
	CT_REQUIRE(ct_gen_hdr(path2, &h, &o, err, sizeof(err)) == 0);
	CT_CHECK(!ct_same_file(path, path2));
	/* more than four DDR3 channels carry */
	snbep_gen_hdr(&h, 1, 1);
	o = (struct uct_gen_opts){ "stream", 0.01, 52.0, 0.5, 0, 0, 0, 0, 0, 1, 0 };
	CT_EQ(ct_gen_hdr(path2, &h, &o, err, sizeof(err)), -ERANGE);
	CT_CONTAINS(err, "exceeds the 51.2 GB/s");
	CT_CONTAINS(err, "4 channels of DDR3-1600");
	/* on purpose: beyond the part, up to the tables' one CAS per dclk */
	o.exceed = 1;
	CT_EQ(ct_gen_hdr(path2, &h, &o, err, sizeof(err)), 0);
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

	ct_tmpname(path, sizeof(path), "lgen.bin");
	snbep_gen_hdr(&h, 2, o.seed);
	CT_REQUIRE(ct_gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
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
	CT_EQ(ct_gen_hdr(path, &h, &o, err, sizeof(err)), -ERANGE);
	CT_CONTAINS(err, "exceeds the 102.4 GB/s that 2 snbep sockets carry");
	/* the lookups are the cores' reads: 8 cores with 10 line fill buffers
	 * each over an LLC hit of 26 cycles at 2.7 GHz (Optimization Reference
	 * Manual) ask for 8.31e9 a second, 0.385 a cycle on each of 8 CBos */
	o = (struct uct_gen_opts){ "llc", 0.001, 0, 0, 0.99, 0.39, 0, 0, 0, 7, 0 };
	CT_EQ(ct_gen_hdr(path, &h, &o, err, sizeof(err)), -ERANGE);
	CT_CONTAINS(err, "8 cores with 10 line fill buffers");
	CT_CONTAINS(err, "--lookups 0.385");
	o.lookups = 0.38;
	CT_EQ(ct_gen_hdr(path, &h, &o, err, sizeof(err)), 0);
	o.lookups = 0.39;
	o.exceed = 1;
	CT_EQ(ct_gen_hdr(path, &h, &o, err, sizeof(err)), 0);
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

	ct_tmpname(path, sizeof(path), "qgen.bin");
	snbep_gen_hdr(&h, 2, o.seed);
	CT_REQUIRE(ct_gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
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
	CT_EQ(ct_gen_hdr(path, &h, &o, err, sizeof(err)), -ERANGE);
	CT_CONTAINS(err, "two flits per QPI cycle");
	h.plat = ct_skl();
	h.sockets = 1;
	o.gbps = 1;
	CT_EQ(ct_gen_hdr(path, &h, &o, err, sizeof(err)), -ENOTSUP);
	unlink(path);
}

/* Core C-state patterns: each core busy for its share of the time, its
 * idle time split between C3 and C6; the PCU's occupancy inputs count the
 * cores in each state (each core's residency MSRs follow from them), the bands say the
 * uncore's 2.7 GHz in every state (uct_derive.c), and the
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
	int occ, band;

	CT_REQUIRE(s);
	ct_tmpname(path, sizeof(path), "cgen.bin");
	ct_tmpname(path2, sizeof(path2), "cgen2.bin");
	snbep_gen_hdr(&h, 2, o.seed);
	CT_REQUIRE(ct_gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
	m = replayed(path, &cyc);
	CT_REQUIRE(m);
	pclk = (double)uct_domain_cycles(&h, 2, 0, cyc); /* the trace ran from time 0 */
	CT_CHECK(near(fed(m, -1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C0"), 0.3 * 16 * pclk, 0.001));
	CT_CHECK(near(fed(m, -1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C3"), 0.7 * 0.4 * 16 * pclk, 0.001));
	CT_CHECK(near(fed(m, -1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C6"), 0.7 * 0.6 * 16 * pclk, 0.001));
	ucm_destroy(m);
	/* segment by segment: 8 cores in one state each, asleep = not in C0 */
	CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
	occ = ucm_subev_find(ucm_boxtype_find(ct_snbep(), "pcu"), "POWER_STATE_OCCUPANCY.CORES_C0");
	band = ucm_subev_find(ucm_boxtype_find(ct_snbep(), "pcu"), "FREQ_BAND2_CYCLES.CYCLES");
	while (uct_next(r, s) > 0) {
		for (unsigned so = 0; so < 2; so++) {
			unsigned n[3] = { 0, 0, 0 }, freq = 0;

			for (unsigned i = 0; i < s->nin; i++) {
				const struct uct_in *in = &s->in[i];

				if (in->socket != so)
					continue;
				if (in->sub >= occ && in->sub < occ + 3 && in->bt == ct_bt_index(ct_snbep(), "pcu"))
					n[in->sub - occ] += in->inc;
				if (in->sub == band && in->bt == ct_bt_index(ct_snbep(), "pcu"))
					freq = in->attr[UCM_AT_FREQ];
			}
			if (n[0] + n[1] + n[2] != 8 || (unsigned)__builtin_popcountll(s->asleep[so]) != n[1] + n[2] ||
			    freq != 27u)
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
		m = ct_snbep_model(uct_header(r1));
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
	CT_REQUIRE(ct_gen_hdr(path2, &h, &o, err, sizeof(err)) == 0);
	CT_CHECK(ct_same_file(path, path2));
	/* idle: every core of both sockets in C6 but for the OS's timer tick,
	 * 1 % of each core's time in C0 (as the idle workload), nothing else */
	o = (struct uct_gen_opts){ "idle", 0.05, 0, 0, 0, 0, 0, 0, 0, 3, 0 };
	CT_REQUIRE(ct_gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
	m = replayed(path, &cyc);
	CT_REQUIRE(m);
	pclk = (double)uct_domain_cycles(&h, 2, 0, cyc);
	CT_EQ(cyc, 135000000);
	CT_CHECK(near(fed(m, -1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C0"), 0.01 * 16 * pclk, 0.001));
	CT_CHECK(near(fed(m, -1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C6"), 0.99 * 16 * pclk, 0.001));
	CT_EQ(fed(m, -1, "pcu", "POWER_STATE_OCCUPANCY.CORES_C3"), 0);
	CT_EQ(fed(m, -1, "imc", "CAS_COUNT.RD_REG") + fed(m, -1, "cbo", "LLC_LOOKUP.DATA_READ_I"), 0);
	ucm_destroy(m);
	o = (struct uct_gen_opts){ "cstate", 0.01, 0, 0, 0.5, 0, 1.5, 0, 0, 3, 0 };
	CT_EQ(ct_gen_hdr(path, &h, &o, err, sizeof(err)), -ERANGE);
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

	ct_tmpname(path, sizeof(path), "bgen.bin");
	snbep_gen_hdr(&h, 1, o.seed);
	CT_REQUIRE(ct_gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
	m = replayed(path, &cyc);
	CT_REQUIRE(m);
	secs = (double)cyc / 2.7e9;
	CT_CHECK(near(fed(m, -1, "imc", "CAS_COUNT.RD_REG") * 64 / secs / 1e9, 51.2 * 0.25, 0.002));
	CT_EQ(fed(m, -1, "imc", "CAS_COUNT.WR_WMM"), 0);
	CT_CHECK(near(fed(m, -1, "ha", "REQUESTS.READS"), fed(m, -1, "imc", "CAS_COUNT.RD_REG"), 0.001));
	ucm_destroy(m);
	unlink(path);
}

CT_MAIN()
