/*
 * t_trace_replay_model.c - what a replay gives the model: segments of
 * reference cycles, each box counting its own clock's; the attributes and
 * sleep states a trace gives; constant time whatever a segment's length.
 * And access traces: a recorded driver session replays.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "ct.h"
#include "ct_trace.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"
#include "uct_trace.h"

/* A constant segment is O(1) in its length: 2^45 cycles of full input
 * replay like one (a per-cycle implementation would not finish). */
CT_TEST(long_constant_segment_replays_in_constant_time)
{
	char path[128], err[768];
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg *s = calloc(1, sizeof(*s));
	struct ucm_model *m = ct_fresh_model();
	struct uct_reader *r;
	struct uct_replay *rp;
	uint64_t v;

	CT_REQUIRE(s && m);
	ct_tmpname(path, sizeof(path), "long.uct");
	memset(&h, 0, sizeof(h));
	h.plat = ct_skl();
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

	ct_tmpname(path, sizeof(path), "access.log");
	ucm_config_init(&cfg, ct_skl());
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
	m = ct_snbep_model(h);
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
		      (unsigned)ucm_subev_find(ucm_boxtype_find(ct_snbep(), "imc"), "CAS_COUNT.RD_REG")),
	      dclk);
	CT_EQ(ucm_fed(m, ucm_box_find(m, 0, "imc", 2),
		      (unsigned)ucm_subev_find(ucm_boxtype_find(ct_snbep(), "imc"), "CAS_COUNT.RD_REG")),
	      0);
	CT_EQ(ucm_fed(m, ucm_box_find(m, 0, "pcu", 0),
		      (unsigned)ucm_subev_find(ucm_boxtype_find(ct_snbep(), "pcu"), "POWER_STATE_OCCUPANCY.CORES_C3")),
	      5 * pclk);
	CT_EQ(ucm_fed(m, ucm_box_find(m, 1, "qpi", 1),
		      (unsigned)ucm_subev_find(ucm_boxtype_find(ct_snbep(), "qpi"), "TxL_FLITS_G0.DATA")),
	      0);
	CT_EQ(ucm_fed(m, ucm_box_find(m, 0, "qpi", 1),
		      (unsigned)ucm_subev_find(ucm_boxtype_find(ct_snbep(), "qpi"), "TxL_FLITS_G0.DATA")),
	      2 * qclk);
	CT_EQ(ucm_fed(m, ucm_box_find(m, 1, "cbo", 7),
		      (unsigned)ucm_subev_find(ucm_boxtype_find(ct_snbep(), "cbo"), "LLC_LOOKUP.DATA_READ_M")),
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
	m = ct_snbep_model(uct_header(r));
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
	m = ct_snbep_model(h);
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

CT_MAIN()
