/*
 * t_driver.c - the reference driver against the model's ground truth on the
 * simulated backend: every event of SKL Tables 3-1..3-3 alone (each
 * sub-event fed separately, expected counts derived here from the tables'
 * umask meanings), events together under a mixed workload, 32/44/48-bit
 * wraps, PMI routing, FRZ_ON_PMI, restore, BAR handling and the safe read
 * interval.  Every test also asserts the driver caused no strict-mode record.
 */
#include <errno.h>
#include <stdlib.h>

#include "ct.h"
#include "ct_rig.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"
#include "uct.h"

#define check_truth(r, what) ct_check_truth(r, what, __FILE__, __LINE__)

static uint64_t ev_total(struct ct_rig *r, size_t i)
{
	struct ucd_evinfo ei;

	CT_CHECK(ucd_event(r->d, i, &ei) == 0);
	return ei.total;
}

/* ---- the event tables' umask meanings, written out independently ---- */

/* SKL Table 3-1 CACHE_LOOKUP: request READ 0x10, WRITE 0x20, ANY 0x80 (any
 * request type); state M 0x01, E 0x02, S 0x04, I 0x08. */
static int lookup_selects(unsigned umask, const char *req, char state)
{
	unsigned st = state == 'M' ? 0x1 : state == 'E' ? 0x2 : state == 'S' ? 0x4 : 0x8;
	int reqok = (umask & 0x80) || (!strcmp(req, "READ") && (umask & 0x10)) ||
		    (!strcmp(req, "WRITE") && (umask & 0x20));

	return reqok && (umask & st);
}

/* SKL Table 3-1 XSNP_RESPONSE: initiator XCORE 0x40, EVICTION 0x80;
 * response MISS 0x01, HIT 0x04, HITM 0x08. */
static int xsnp_selects(unsigned umask, const char *init, const char *resp)
{
	unsigned i = !strcmp(init, "XCORE") ? 0x40 : 0x80;
	unsigned s = !strcmp(resp, "MISS") ? 0x1 : !strcmp(resp, "HIT") ? 0x4 : 0x8;

	return (umask & i) && (umask & s);
}

/* Count one named event with only sub-event `sub` fed at `inc` on every
 * instance; returns the event total and the enabled cycles (UNC_CLOCK). */
static int run_one(const char *event, const char *box, const char *sub, uint32_t inc,
		   uint64_t *total, uint64_t *cycles, unsigned *ninst)
{
	struct ct_rig r;
	char list[160];

	if (ct_rig_open(&r, NULL, 0, NULL))
		return -1;
	if (sub && ct_feed(r.m, box, -1, sub, inc)) {
		ct_rig_close(&r);
		return -1;
	}
	snprintf(list, sizeof(list), "UNC_CLOCK.SOCKET,%s", event);
	if (ucd_add_events(r.d, list) || ucd_run(r.d, 200000, 0, NULL, NULL)) {
		fprintf(stderr, "%s: %s\n", event, ucd_error(r.d));
		ct_rig_close(&r);
		return -1;
	}
	*cycles = ev_total(&r, 0);
	*total = ev_total(&r, 1);
	*ninst = 0;
	for (size_t i = 0; i < ucd_ncounters(r.d); i++) {
		struct ucd_ctrinfo ci;

		ucd_counter(r.d, i, &ci);
		*ninst += ci.event == 1;
	}
	check_truth(&r, event);
	ucd_restore(r.d);
	ct_rig_close(&r);
	return 0;
}

/* SKL Table 3-1: every CACHE_LOOKUP row against every (request, state). */
CT_TEST(cache_lookup_rows_count_exactly_their_combinations)
{
	static const char *const req[] = { "READ", "WRITE", "OTHER" };
	static const char st[] = "MESI";
	const struct ucm_platform *p = ucm_platform_find("skl");

	for (unsigned e = 0; e < p->nevents; e++) {
		const struct ucm_event *ev = &p->events[e];

		if (strncmp(ev->name, "UNC_CBO_CACHE_LOOKUP.", 21))
			continue;
		for (unsigned q = 0; q < 3; q++)
			for (unsigned s = 0; s < 4; s++) {
				char sub[64];
				uint64_t total, cyc;
				unsigned n;

				snprintf(sub, sizeof(sub), "CACHE_LOOKUP.%s_%c", req[q], st[s]);
				CT_REQUIRE(run_one(ev->name, "cbo", sub, 1, &total, &cyc, &n) == 0);
				CT_EQ(n, 4);
				CT_CHECK(cyc > 0);
				if (total != (lookup_selects(ev->umask, req[q], st[s]) ? 4 * cyc : 0))
					ct_fail(__FILE__, __LINE__, "%s fed %s: %llu, expected %llu",
						ev->name, sub, (unsigned long long)total,
						(unsigned long long)(lookup_selects(ev->umask, req[q], st[s]) ? 4 * cyc : 0));
			}
	}
}

/* SKL Table 3-1: every XSNP_RESPONSE row against every sub-event. */
CT_TEST(xsnp_response_rows_count_exactly_their_combinations)
{
	static const char *const init[] = { "XCORE", "EVICTION" };
	static const char *const resp[] = { "MISS", "HIT", "HITM" };
	const struct ucm_platform *p = ucm_platform_find("skl");

	for (unsigned e = 0; e < p->nevents; e++) {
		const struct ucm_event *ev = &p->events[e];

		if (strncmp(ev->name, "UNC_CBO_XSNP_RESPONSE.", 22))
			continue;
		for (unsigned i = 0; i < 2; i++)
			for (unsigned s = 0; s < 3; s++) {
				char sub[64];
				uint64_t total, cyc, want;
				unsigned n;

				snprintf(sub, sizeof(sub), "XSNP_RESPONSE.%s_%s", init[i], resp[s]);
				CT_REQUIRE(run_one(ev->name, "cbo", sub, 1, &total, &cyc, &n) == 0);
				want = xsnp_selects(ev->umask, init[i], resp[s]) ? 4 * cyc : 0;
				if (total != want)
					ct_fail(__FILE__, __LINE__, "%s fed %s: %llu, expected %llu",
						ev->name, sub, (unsigned long long)total,
						(unsigned long long)want);
			}
	}
}

/* SKL Table 3-2: ARB events, occupancy levels and the threshold row
 * (decision D5: CYCLES_WITH_ANY_REQUEST is TRK_OCCUPANCY with THR=1). */
CT_TEST(arb_rows_count_their_inputs)
{
	static const struct {
		const char *event, *sub;
		uint32_t inc;
		uint64_t per_cycle;
	} cases[] = {
		{ "UNC_ARB_TRK_OCCUPANCY.ALL", "TRK_OCCUPANCY.ALL", 0, 0 },
		{ "UNC_ARB_TRK_OCCUPANCY.ALL", "TRK_OCCUPANCY.ALL", 7, 7 },
		{ "UNC_ARB_TRK_OCCUPANCY.ALL", "TRK_OCCUPANCY.ALL", 32, 32 },
		{ "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", "TRK_OCCUPANCY.ALL", 0, 0 },
		{ "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", "TRK_OCCUPANCY.ALL", 1, 1 },
		{ "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", "TRK_OCCUPANCY.ALL", 32, 1 },
		{ "UNC_ARB_TRK_REQUESTS.ALL", "TRK_REQUESTS.WRITES", 1, 1 },
		{ "UNC_ARB_TRK_REQUESTS.ALL", "TRK_REQUESTS.NONWRITES", 1, 1 },
		{ "UNC_ARB_TRK_REQUESTS.WRITES", "TRK_REQUESTS.WRITES", 1, 1 },
		{ "UNC_ARB_TRK_REQUESTS.WRITES", "TRK_REQUESTS.NONWRITES", 1, 0 },
		{ "UNC_ARB_COH_TRK_REQUESTS.ALL", "COH_TRK_REQUESTS.ALL", 1, 1 },
		{ "UNC_CLOCK.SOCKET", NULL, 0, 1 },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t total, cyc;
		unsigned n;

		CT_REQUIRE(run_one(cases[i].event, "arb", cases[i].sub, cases[i].inc, &total, &cyc, &n) == 0);
		CT_CHECK(cyc > 0);
		if (total != cases[i].per_cycle * cyc)
			ct_fail(__FILE__, __LINE__, "%s fed %s=%u: %llu, expected %llu", cases[i].event,
				cases[i].sub ? cases[i].sub : "-", cases[i].inc, (unsigned long long)total,
				(unsigned long long)(cases[i].per_cycle * cyc));
	}
}

/* SKL Table 3-3: the IMC counters are free-running: they count from the
 * driver's first read to its last, not only while the PMU is enabled. */
CT_TEST(imc_counters_count_their_input_between_reads)
{
	static const char *const names[] = { "DRAM_GT_REQUESTS", "DRAM_IA_REQUESTS",
					     "DRAM_IO_REQUESTS", "DRAM_DATA_READS", "DRAM_DATA_WRITES" };

	for (unsigned i = 0; i < 5; i++) {
		struct ct_rig r;

		CT_REQUIRE(ct_rig_open(&r, NULL, 0, NULL) == 0);
		CT_REQUIRE(ct_feed(r.m, "imc", 0, names[i], 1) == 0);
		CT_REQUIRE(ucd_add_events(r.d, "uclk,gt_requests,ia_requests,io_requests,data_reads,data_writes") == 0);
		CT_REQUIRE(ucd_run(r.d, 100000, 0, NULL, NULL) == 0);
		for (unsigned k = 0; k < 5; k++) {
			uint64_t t = ev_total(&r, 1 + k);

			if (k == i) {
				/* at least the enabled window, at most the window between
				 * the first and last read of the whole session */
				CT_CHECK(t >= ev_total(&r, 0));
				CT_CHECK(t <= ucm_cycles(r.m, 0));
			} else {
				CT_EQ(t, 0);
			}
		}
		check_truth(&r, names[i]);
		ct_rig_close(&r);
	}
}

/* Every named event in one session or another, together, with the mixed
 * workload: all totals equal ground truth. */
CT_TEST(all_events_together_equal_ground_truth)
{
	static const char *const groups[] = {
		("UNC_CLOCK.SOCKET,UNC_CBO_XSNP_RESPONSE.MISS_XCORE,UNC_CBO_XSNP_RESPONSE.MISS_EVICTION,"
		 "UNC_ARB_TRK_OCCUPANCY.ALL,UNC_ARB_TRK_REQUESTS.ALL,DRAM_GT_REQUESTS,DRAM_IA_REQUESTS,"
		 "DRAM_IO_REQUESTS,DRAM_DATA_READS,DRAM_DATA_WRITES"),
		("UNC_CBO_XSNP_RESPONSE.HIT_XCORE,UNC_CBO_XSNP_RESPONSE.HITM_XCORE,"
		 "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST,UNC_ARB_TRK_REQUESTS.WRITES"),
		"UNC_CBO_CACHE_LOOKUP.WRITE_M,UNC_CBO_CACHE_LOOKUP.ANY_M,UNC_ARB_COH_TRK_REQUESTS.ALL",
		"UNC_CBO_CACHE_LOOKUP.READ_I,UNC_CBO_CACHE_LOOKUP.ANY_I",
		"UNC_CBO_CACHE_LOOKUP.READ_MESI,UNC_CBO_CACHE_LOOKUP.WRITE_MESI",
		"UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CBO_CACHE_LOOKUP.ANY_ES",
		"UNC_CBO_CACHE_LOOKUP.READ_ES,UNC_CBO_CACHE_LOOKUP.WRITE_ES",
	};

	for (unsigned g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		struct ct_rig r;
		struct uct_wl *wl;
		char err[256];

		CT_REQUIRE(ct_rig_open(&r, NULL, 0, NULL) == 0);
		CT_REQUIRE(uct_attach(r.m, uct_workload_find("skl", "mixed"), g + 1, &wl, err, sizeof(err)) == 0);
		CT_REQUIRE(ucd_add_events(r.d, groups[g]) == 0);
		CT_REQUIRE(ucd_run(r.d, 20000000, 3000000, NULL, NULL) == 0);
		for (size_t i = 0; i < ucd_nevents(r.d); i++)
			CT_CHECK(ev_total(&r, i) > 0);
		check_truth(&r, groups[g]);
		CT_REQUIRE(ucd_restore(r.d) == 0);
		uct_detach(wl);
		ct_rig_close(&r);
	}
}

/* SKL Table 2-8 (44-bit) and Table 2-5 (48-bit): long runs wrap the
 * counters many times; totals stay exact. */
CT_TEST(wraps_of_44_and_48_bit_counters_are_counted)
{
	struct ct_rig r;
	struct ucm_truth t;
	int arb, clk;
	uint64_t cyc;

	CT_REQUIRE(ct_rig_open(&r, NULL, 0, NULL) == 0);
	CT_REQUIRE(ct_feed(r.m, "arb", 0, "TRK_OCCUPANCY.ALL", 32) == 0);
	CT_REQUIRE(ct_feed(r.m, "cbo", -1, "CACHE_LOOKUP.READ_E", 1) == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uclk,UNC_ARB_TRK_OCCUPANCY.ALL,UNC_CBO_CACHE_LOOKUP.ANY_ES") == 0);
	/* 2^48 uclk at 3 GHz is ~93,825 s: run 200,000 s of simulated time */
	CT_REQUIRE(ucd_run(r.d, 200000ull * 1000000000ull, 0, NULL, NULL) == 0);
	cyc = ev_total(&r, 0);
	CT_CHECK(cyc > (1ull << 48));
	CT_EQ(ev_total(&r, 1), 32 * cyc);
	CT_EQ(ev_total(&r, 2), 4 * cyc);
	arb = ucm_box_find(r.m, 0, "arb", 0);
	clk = ucm_box_find(r.m, 0, "clock", 0);
	CT_REQUIRE(ucm_truth(r.m, arb, 0, &t) == 0);
	CT_CHECK(t.wraps >= (32 * cyc) >> 44);
	CT_REQUIRE(ucm_truth(r.m, clk, 0, &t) == 0);
	CT_CHECK(t.wraps >= 2);
	check_truth(&r, "wraps");
	ct_rig_close(&r);
}

/* SKL Table 3-3 counters are 32 bits: at 1 per 3 GHz cycle they wrap every
 * 1.43 s; a 10 s run wraps each several times. */
CT_TEST(wraps_of_32_bit_imc_counters_are_counted)
{
	struct ct_rig r;
	struct ucm_truth t;
	int imc;

	CT_REQUIRE(ct_rig_open(&r, NULL, 0, NULL) == 0);
	CT_REQUIRE(ct_feed(r.m, "imc", 0, "DRAM_DATA_READS", 1) == 0);
	CT_REQUIRE(ct_feed(r.m, "imc", 0, "DRAM_DATA_WRITES", 1) == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uclk,data_reads,data_writes") == 0);
	CT_REQUIRE(ucd_run(r.d, 10000000000ull, 0, NULL, NULL) == 0);
	imc = ucm_box_find(r.m, 0, "imc", 0);
	CT_REQUIRE(ucm_truth(r.m, imc, 3, &t) == 0);
	CT_CHECK(t.wraps >= 6);
	CT_CHECK(ev_total(&r, 1) > 6 * (1ull << 32));
	CT_EQ(ev_total(&r, 1), ev_total(&r, 2));
	check_truth(&r, "imc wraps");
	ct_rig_close(&r);
}

/* The safe interval from widths (Tables 2-5, 2-8, 3-3), maximum increments
 * (decisions D6, D7) and the worst-case uclk (D8: 4.1 GHz). */
CT_TEST(safe_read_interval_follows_width_rate_and_clock)
{
	static const struct {
		const char *ev;
		double ns;
	} cases[] = {
		{ "uclk", 281474976710656.0 / 4.1 },                       /* 2^48 / 1 */
		{ "UNC_CBO_CACHE_LOOKUP.ANY_MESI", 17592186044416.0 / 4.1 }, /* 2^44 / 1 */
		{ "UNC_ARB_TRK_OCCUPANCY.ALL", 17592186044416.0 / 32 / 4.1 },
		{ "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", 17592186044416.0 / 4.1 },
		{ "uclk,data_reads", 4294967296.0 / 4.1 },                 /* 2^32 / 1 */
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ct_rig r;
		double got;

		CT_REQUIRE(ct_rig_open(&r, NULL, 0, NULL) == 0);
		CT_REQUIRE(ucd_add_events(r.d, cases[i].ev) == 0);
		got = (double)ucd_safe_interval_ns(r.d);
		if (got < cases[i].ns * 0.999999 || got > cases[i].ns * 1.000001)
			ct_fail(__FILE__, __LINE__, "%s: safe interval %.0f ns, expected %.0f", cases[i].ev,
				got, cases[i].ns);
		ct_rig_close(&r);
	}
}

/* skl with the ARB fed 32 a cycle (TRK_OCCUPANCY.ALL: 2^44 / (32 * 3 GHz)
 * = 183 s a wrap) and the events added; the rig closed on failure. */
static int arb_rig(struct ct_rig *r, const struct ucd_opts *o, const char *events)
{
	struct ucm_config cfg;

	ucm_config_init(&cfg, ucm_platform_find("skl"));
	if (ct_rig_open(r, &cfg, 0, o))
		return -1;
	if (ct_feed(r->m, "arb", 0, "TRK_OCCUPANCY.ALL", 32) || ucd_add_events(r->d, events)) {
		ct_rig_close(r);
		return -1;
	}
	return 0;
}

/* SKL Table 2-2: overflow with OVF_EN interrupts exactly the cores in
 * PMI_SEL; the driver clears GLOBAL_STATUS (Table 2-3, RW1C). */
CT_TEST(overflow_interrupts_the_selected_cores)
{
	struct ct_rig r;
	struct ucd_opts o = { NULL, 0, 0x5, 0, 0, 0 };
	struct ucm_pmi_stats st;
	uint64_t status;

	CT_REQUIRE(arb_rig(&r, &o, "UNC_ARB_TRK_OCCUPANCY.ALL") == 0);
	/* 2^44 / (32 * 3 GHz) = 183 s per wrap */
	CT_REQUIRE(ucd_run(r.d, 1000ull * 1000000000ull, 0, NULL, NULL) == 0);
	CT_CHECK(ucd_overflows(r.d) >= 5);
	for (unsigned c = 0; c < 4; c++) {
		ucm_pmi_stats(r.m, 0, c, &st);
		if (c == 0 || c == 2)
			CT_CHECK(st.delivered >= 5);
		else
			CT_EQ(st.delivered, 0);
	}
	CT_REQUIRE(ucm_peek(r.m, UCM_MSR, 0, 0xE02, &status) == 0);
	CT_EQ(status & 0x2, 0);
	CT_CHECK(ucm_pmi_requests(r.m, 0) >= 5);
	check_truth(&r, "pmi");
	ct_rig_close(&r);
}

/* SKL Table 2-2 FRZ_ON_PMI: the PMI clears EN and every counter stops; the
 * driver re-arms at its next read.  Frozen time is not counted, and the
 * totals still equal what the counters counted. */
CT_TEST(freeze_on_pmi_stops_counting_until_rearmed)
{
	struct ct_rig r;
	struct ucd_opts o = { NULL, 0, 0x1, 1, 0, 0 };

	CT_REQUIRE(arb_rig(&r, &o, "uclk,UNC_ARB_TRK_OCCUPANCY.ALL") == 0);
	CT_REQUIRE(ucd_run(r.d, 1000ull * 1000000000ull, 0, NULL, NULL) == 0);
	CT_CHECK(ucd_freezes(r.d) >= 1);
	/* counted cycles fall short of elapsed cycles by the frozen time */
	CT_CHECK(ev_total(&r, 0) < ucm_cycles(r.m, 0));
	CT_EQ(ev_total(&r, 1), 32 * ev_total(&r, 0));
	check_truth(&r, "freeze");
	ct_rig_close(&r);
}

/* PMI-driven counting (docs/architecture.md, "Overflow"): a counter whose
 * overflow raises a PMI is not polled; the driver waits for the PMI and
 * counts 2^44 per overflow the status names.  One PMI per wrap, none more,
 * and the totals equal what the counter counted. */
CT_TEST(pmi_driven_counting_reads_once_per_wrap)
{
	struct ct_rig r;
	struct ucm_truth t;
	int arb;

	CT_REQUIRE(arb_rig(&r, NULL, "UNC_ARB_TRK_OCCUPANCY.ALL") == 0);
	/* 2^44 / (32 * 3 GHz) = 183 s per wrap: 5 wraps in 1000 s */
	CT_REQUIRE(ucd_run(r.d, 1000ull * 1000000000ull, 0, NULL, NULL) == 0);
	CT_CHECK(ucd_pmi_driven(r.d));
	CT_EQ(ucd_poll_interval_ns(r.d), UINT64_MAX);
	arb = ucm_box_find(r.m, 0, "arb", 0);
	CT_REQUIRE(ucm_truth(r.m, arb, 0, &t) == 0);
	CT_EQ(t.wraps, 5);
	CT_EQ(ucd_pmis(r.d), 5);
	CT_EQ(ucd_overflows(r.d), 5);
	CT_EQ(ev_total(&r, 0) >> 44, 5); /* 9.6e13 events */
	check_truth(&r, "pmi-driven");
	ct_rig_close(&r);
}

/* Two counters sharing one global status bit (SKL Table 2-3: ARB_CTR_OVF
 * for both ARB counters) cannot say which wrapped: they are polled, and
 * only the uclk counter, alone on FIXED_CTR_OVF, waits for its PMI. */
CT_TEST(counters_sharing_a_status_bit_are_polled)
{
	struct ct_rig r;

	CT_REQUIRE(ct_rig_open(&r, NULL, 0, NULL) == 0);
	CT_REQUIRE(ct_feed(r.m, "arb", 0, "TRK_OCCUPANCY.ALL", 32) == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uclk,arb/event=0x80,umask=0x01/,arb/event=0x80,umask=0x01/") == 0);
	CT_REQUIRE(ucd_run(r.d, 400ull * 1000000000ull, 0, NULL, NULL) == 0);
	CT_CHECK(ucd_pmi_driven(r.d));
	/* the ARB counters set the polling, as without PMIs (the uclk
	 * counter's 48 bits at one per cycle alone would allow days) */
	CT_EQ(ucd_poll_interval_ns(r.d), ucd_safe_interval_ns(r.d) / 2);
	CT_CHECK(ucd_safe_interval_ns(r.d) < 200ull * 1000000000ull);
	CT_EQ(ev_total(&r, 1), ev_total(&r, 2));
	check_truth(&r, "shared status bit");
	ct_rig_close(&r);
}

/* Sampling (stat --sample-period): the counter is preloaded to overflow
 * every N events; each PMI is a sample at the time the overflow happened,
 * with the freeze the driver re-arms.  ARB fed 32 per uclk cycle at
 * 3 GHz, N = 32e6: a sample every 1e6 cycles, 333.3 us. */
CT_TEST(sampling_reports_each_overflow_at_its_time)
{
	struct ct_rig r;
	struct ucd_opts o = { NULL, 0, 0, 0, 0, 32000000 };
	struct ucd_sampleinfo si;
	uint64_t dropped = 1, prev_total = 0;
	size_t n;

	CT_REQUIRE(arb_rig(&r, &o, "UNC_ARB_TRK_OCCUPANCY.ALL") == 0);
	CT_REQUIRE(ucd_run(r.d, 10000000, 0, NULL, NULL) == 0); /* 10 ms */
	n = ucd_nsamples(r.d, &dropped);
	CT_EQ(dropped, 0);
	/* 10 ms less the frozen time: 29 or 30 periods of 333.3 us */
	CT_CHECK(n >= 28 && n <= 30);
	for (size_t i = 0; i < n; i++) {
		CT_REQUIRE(ucd_sample_get(r.d, i, &si) == 0);
		/* the counter's count at each sample is a multiple of N (the
		 * overflow) plus what it counted before the freeze took hold */
		CT_EQ(si.total / 32000000, i + 1);
		CT_CHECK(si.total % 32000000 < 32);
		/* served: counting resumed after the PMI, later by the accesses */
		CT_CHECK(si.rearm_ns > si.t_ns);
		CT_CHECK(si.total > prev_total);
		prev_total = si.total;
	}
	CT_EQ(ucd_freezes(r.d), n);
	CT_CHECK(ucd_sample_get(r.d, n, &si) == -ENOENT);
	check_truth(&r, "sampling");
	ct_rig_close(&r);
}

/* Waiting for PMIs, the driver sets WAKE_ON_PMI: else a PMI to its PMI
 * core asleep is dropped (docs/platform-skl.md, D2) and, frozen on PMI
 * for sampling, the counters stay frozen until the run ends.  Core 0
 * asleep from the start, ARB fed 32 a cycle, a sample every 32e6 events
 * (333.3 us): 29 or 30 in 10 ms, the first PMI waking core 0. */
CT_TEST(sampling_wakes_a_sleeping_pmi_core)
{
	struct ct_rig r;
	struct ucd_opts o = { NULL, 0, 0, 0, 0, 32000000 };
	struct ucm_pmi_stats st;
	size_t n;

	CT_REQUIRE(arb_rig(&r, &o, "UNC_ARB_TRK_OCCUPANCY.ALL") == 0);
	ucm_core_sleep(r.m, 0, 0, 1);
	CT_REQUIRE(ucd_run(r.d, 10000000, 0, NULL, NULL) == 0);
	n = ucd_nsamples(r.d, NULL);
	CT_CHECK(n >= 28 && n <= 30);
	ucm_pmi_stats(r.m, 0, 0, &st);
	CT_EQ(st.wakes, 1);
	CT_EQ(st.dropped, 0);
	CT_EQ(ucm_core_asleep(r.m, 0, 0), 0);
	check_truth(&r, "sampling, PMI core asleep");
	ct_rig_close(&r);
}

/* Sampling needs a counter that reports overflow with a PMI: the E5-2600
 * has none (its uncore only polls, Xeon 2.1). */
CT_TEST(sampling_refused_where_nothing_reports_overflow)
{
	struct ct_rig r;
	struct ucm_config cfg;
	struct ucd_opts o = { NULL, 0, 0, 0, 0, 1000 };

	ucm_config_init(&cfg, ucm_platform_find("snbep"));
	CT_REQUIRE(ct_rig_open(&r, &cfg, 0, &o) == 0);
	CT_REQUIRE(ucd_add_events(r.d, "UNC_U_CLOCKTICKS") == 0);
	CT_EQ(ucd_start(r.d), -EINVAL);
	CT_CHECK(strstr(ucd_error(r.d), "sampling needs a counter that reports overflow") != NULL);
	ct_rig_close(&r);
}

/* A leftover of another agent in register i that neither reset (0 almost
 * everywhere) nor the driver's stop would write: an odd pattern, different
 * per register, within the register's RW bits.  No enable bit, so the agent
 * is not counting and the driver takes the counters without --force; bits
 * software must write as 1 are 1. */
static uint64_t leftover(size_t i, const struct ucm_reginfo *ri)
{
	uint64_t keep = ri->rw_mask, mbo = 0, v;

	for (unsigned k = 0; k < ri->layout->nfields; k++) {
		const struct ucm_field *f = &ri->layout->fields[k];

		if (f->role == UCM_R_EN || f->role == UCM_R_GLOBAL_EN)
			keep &= ~ucm_field_mask(f);
		else if (f->role == UCM_R_MBO)
			mbo |= ucm_field_mask(f);
	}
	v = (0xA5C3968778E1F00Full ^ ((uint64_t)(i + 1) * 0x9E3779B97F4A7C15ull)) & keep;
	return (v ? v : keep) | mbo; /* a pattern that misses every bit: all of them */
}

/* Every register the driver may write (controls, counters, global and box
 * controls, filters) holds a leftover; the driver counts events and
 * restores; every register with a RW bit reads as before, except the
 * overflow status registers (RW1C: cannot be written back).  *planted:
 * how many registers held a leftover. */
static void restore_check(struct ct_rig *r, const char *events, unsigned *planted)
{
	size_t n = ucm_nregs(r->m);
	uint64_t *before = calloc(n, sizeof(*before)), after;
	unsigned global = 0;

	*planted = 0;

	CT_REQUIRE(before != NULL);
	for (size_t i = 0; i < n; i++) {
		struct ucm_reginfo ri;
		uint64_t v;

		CT_REQUIRE(ucm_reginfo(r->m, i, &ri) == 0);
		if (ri.kind != UCM_K_CTL && ri.kind != UCM_K_CTR && ri.kind != UCM_K_GLOBAL_CTL &&
		    ri.kind != UCM_K_BOX_CTL && ri.kind != UCM_K_FILTER)
			continue;
		if (!(v = leftover(i, &ri)))
			continue;
		CT_REQUIRE(ucm_write_index(r->m, i, v) == 0);
		(*planted)++;
		if (ri.kind == UCM_K_GLOBAL_CTL) {
			CT_REQUIRE(ucm_peek_index(r->m, i, &after) == 0);
			global += after != 0; /* what the driver's first write and its stop clear */
		}
	}
	CT_CHECK(global > 0);
	for (size_t i = 0; i < n; i++)
		CT_REQUIRE(ucm_peek_index(r->m, i, &before[i]) == 0);
	CT_REQUIRE(ucd_add_events(r->d, events) == 0);
	CT_REQUIRE(ucd_run(r->d, 1000000, 0, NULL, NULL) == 0);
	CT_REQUIRE(ucd_restore(r->d) == 0);
	for (size_t i = 0; i < n; i++) {
		struct ucm_reginfo ri;

		CT_REQUIRE(ucm_reginfo(r->m, i, &ri) == 0);
		if (!ri.rw_mask || ri.kind == UCM_K_GLOBAL_STATUS || ri.kind == UCM_K_BOX_STATUS)
			continue;
		CT_REQUIRE(ucm_peek_index(r->m, i, &after) == 0);
		if (after != before[i])
			ct_fail(__FILE__, __LINE__, "%s: 0x%llx after restore, 0x%llx before", ri.name,
				(unsigned long long)after, (unsigned long long)before[i]);
	}
	free(before);
}

/* Every register the driver wrote is back to the value another agent had
 * left there, the global control's PMI routing and freeze bits included. */
CT_TEST(restore_puts_back_every_register)
{
	struct ct_rig r;
	unsigned planted;

	CT_REQUIRE(ct_rig_open(&r, NULL, 0, NULL) == 0);
	restore_check(&r, "uclk,cbo/event=0x34,umask=0x8f/,cbo1/event=0x22,umask=0x41/,arb/event=0x81,umask=0x1/",
		      &planted);
	/* GLOBAL_CTRL, fixed control and counter, 2 ARB and 4x2 CBo controls
	 * and counters (SKL Tables 2-1..2-3) */
	CT_EQ(planted, 1 + 2 + 4 + 16);
	ct_rig_close(&r);
}

/* The same on the E5-2600 v2: both sockets, MSR and PCI boxes, the UBox
 * global control (PMI routing, no global enable set), box controls with
 * their freeze bits, filters. */
CT_TEST(restore_puts_back_every_register_ivt)
{
	struct ct_rig r;
	struct ucm_config cfg;
	unsigned planted;

	ucm_config_init(&cfg, ucm_platform_find("ivt"));
	CT_REQUIRE(ct_rig_open(&r, &cfg, 0, NULL) == 0);
	restore_check(&r, "UNC_U_CLOCKTICKS,UNC_C_LLC_LOOKUP.DATA_READ,UNC_P_CLOCKTICKS,UNC_H_REQUESTS.READS,"
			  "cas_rd,UNC_M_DCLOCKTICKS,UNC_Q_CLOCKTICKS,UNC_R2_CLOCKTICKS,UNC_R3_CLOCKTICKS",
		      &planted);
	CT_CHECK(planted > 100);
	ct_rig_close(&r);
}

/* SKL 2.4.1 / decision D3: the driver takes the CBo count from CBO_CONFIG
 * minus one and counts named CBo events in every present CBo. */
CT_TEST(cbo_count_is_discovered)
{
	for (unsigned n = 1; n <= 4; n++) {
		struct ct_rig r;
		struct ucm_config cfg;
		const struct ucm_platform *p = ucm_platform_find("skl");
		struct ucd_evinfo ei;

		ucm_config_init(&cfg, p);
		cfg.ninst[ucm_boxtype_index(p, p->counted)] = n;
		CT_REQUIRE(ct_rig_open(&r, &cfg, 0, NULL) == 0);
		CT_EQ(ucd_ninst(r.d, p->counted), n);
		CT_REQUIRE(ct_feed(r.m, "cbo", -1, "CACHE_LOOKUP.WRITE_S", 1) == 0);
		CT_REQUIRE(ucd_add_events(r.d, "uclk,UNC_CBO_CACHE_LOOKUP.WRITE_ES") == 0);
		CT_REQUIRE(ucd_run(r.d, 100000, 0, NULL, NULL) == 0);
		CT_REQUIRE(ucd_event(r.d, 1, &ei) == 0);
		CT_EQ(ei.ncounters, n);
		CT_EQ(ei.total, n * ev_total(&r, 0));
		check_truth(&r, "ncbo");
		ct_rig_close(&r);
	}
}

/* SKL 3.3: the BAR comes from both config dwords (a BAR above 4 GiB keeps
 * its high bits) masked with 0x0007FFFF8000; a disabled BAR is refused. */
CT_TEST(imc_bar_above_4g_and_disabled_bar)
{
	struct ct_rig r;
	struct ucm_config cfg;

	ucm_config_init(&cfg, ucm_platform_find("skl"));
	cfg.bar = 0x700018001ull; /* base bits 34:15 above 4 GiB, and enable */
	CT_REQUIRE(ct_rig_open(&r, &cfg, 0, NULL) == 0);
	CT_REQUIRE(ct_feed(r.m, "imc", 0, "DRAM_DATA_WRITES", 1) == 0);
	CT_REQUIRE(ucd_add_events(r.d, "data_writes") == 0);
	CT_REQUIRE(ucd_run(r.d, 100000, 0, NULL, NULL) == 0);
	CT_CHECK(ev_total(&r, 0) > 0);
	check_truth(&r, "bar>4G");
	ct_rig_close(&r);

	ucm_config_init(&cfg, ucm_platform_find("skl"));
	cfg.bar = 0xFED10000ull; /* enable bit clear */
	CT_REQUIRE(ct_rig_open(&r, &cfg, 0, NULL) == 0);
	CT_EQ(ucd_add_events(r.d, "data_reads"), -ENODEV);
	CT_CONTAINS(ucd_error(r.d), "data_reads");
	CT_CONTAINS(ucd_error(r.d), "disabled");
	CT_REQUIRE(ucd_add_events(r.d, "uclk") == 0);
	ct_rig_close(&r);
}

/* Interval callbacks see deltas that add up to the totals. */
struct sums {
	uint64_t v[8];
	unsigned calls;
};

static int add_interval(struct ucd *d, void *ctx, uint64_t elapsed)
{
	struct sums *s = ctx;

	(void)elapsed;
	for (size_t i = 0; i < ucd_nevents(d) && i < 8; i++) {
		struct ucd_evinfo ei;

		ucd_event(d, i, &ei);
		s->v[i] += ei.interval;
	}
	s->calls++;
	return 0;
}

CT_TEST(intervals_add_up_to_totals)
{
	struct ct_rig r;
	struct uct_wl *wl;
	char err[256];
	struct sums s;

	memset(&s, 0, sizeof(s));
	CT_REQUIRE(ct_rig_open(&r, NULL, 0, NULL) == 0);
	CT_REQUIRE(uct_attach(r.m, uct_workload_find("skl", "mixed"), 7, &wl, err, sizeof(err)) == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uclk,UNC_CBO_CACHE_LOOKUP.ANY_MESI,data_reads") == 0);
	CT_REQUIRE(ucd_run(r.d, 50000000, 10000000, add_interval, &s) == 0);
	/* four interval callbacks and the final one */
	CT_EQ(s.calls, 5);
	for (size_t i = 0; i < 3; i++) {
		CT_CHECK(ev_total(&r, i) > 0);
		CT_EQ(s.v[i], ev_total(&r, i));
	}
	check_truth(&r, "intervals");
	uct_detach(wl);
	ct_rig_close(&r);
}

/* The platform is identified by CPUID and the host bridge device ID; a
 * wrong platform named explicitly is refused without --force. */
CT_TEST(platform_detection)
{
	struct ct_rig r;
	struct ucm_config cfg;
	struct ucd_opts o = { "nosuch", 0, 0, 0, 0, 0 };
	struct ucm_model *m;
	struct ucb *be;
	struct ucd *d;

	CT_REQUIRE(ct_rig_open(&r, NULL, 0, NULL) == 0);
	CT_STREQ(ucd_platform(r.d)->name, "skl");
	CT_EQ(ucd_sockets(r.d), 1);
	ct_rig_close(&r);

	ucm_config_init(&cfg, ucm_platform_find("skl"));
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	CT_REQUIRE(ucb_sim_create(m, &be) == 0);
	CT_EQ(ucd_open(be, &o, &d), -EINVAL);
	CT_CONTAINS(ucd_error(d), "nosuch");
	ucd_close(d);
	ucb_destroy(be);
	ucm_destroy(m);

	/* a host bridge the platform does not list */
	ucm_config_init(&cfg, ucm_platform_find("skl"));
	cfg.devid = 0x1234;
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	CT_REQUIRE(ucb_sim_create(m, &be) == 0);
	CT_EQ(ucd_open(be, NULL, &d), -ENODEV);
	CT_CONTAINS(ucd_error(d), "1234");
	ucd_close(d);
	o.platform = "skl";
	o.force = 1;
	CT_EQ(ucd_open(be, &o, &d), 0);
	ucd_close(d);
	ucb_destroy(be);
	ucm_destroy(m);
}

CT_MAIN()
