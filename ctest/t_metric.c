/*
 * t_metric.c - derived metrics (driver/core/ucd_metric.c): the expression
 * grammar and its located errors on values given here, the platform's
 * metric names, a set's events in a session (shared, reused, errors mapped
 * back to the metric), every Xeon metric accepted and run by the driver, and
 * memory bandwidth from iMC CAS_COUNT against the model's ground truth.
 */
#include <math.h>
#include <stdlib.h>

#include "ct.h"
#include "ct_rig.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"

/* One metric alone, evaluated with the given values of its events (in
 * first-use order) and seconds. */
static double calc(const char *expr, const double *vals, double secs)
{
	struct ucd_metrics *ms = ucd_metrics_new();
	double v;

	if (!ms)
		return -12345;
	if (ucd_metrics_add(ms, "m", "", expr, 0)) {
		ct_fail(__FILE__, __LINE__, "'%s': %s", expr, ucd_metrics_error(ms));
		ucd_metrics_free(ms);
		return -12345;
	}
	v = ucd_metrics_eval(ms, 0, vals, secs);
	ucd_metrics_free(ms);
	return v;
}

/* The error of a metric that does not parse, or "" if it parses. */
static const char *parse_error(const char *expr)
{
	static char buf[1024];
	struct ucd_metrics *ms = ucd_metrics_new();

	buf[0] = 0;
	if (ucd_metrics_add(ms, "M1", "", expr, 0))
		snprintf(buf, sizeof(buf), "%s", ucd_metrics_error(ms));
	/* a failed metric leaves neither itself nor its events behind */
	if (ucd_metrics_count(ms) != (buf[0] ? 0u : 1u) || (buf[0] && ucd_metrics_nevents(ms)))
		ct_fail(__FILE__, __LINE__, "'%s': %zu metrics, %zu events after the error", expr,
			ucd_metrics_count(ms), ucd_metrics_nevents(ms));
	ucd_metrics_free(ms);
	return buf;
}

#define CT_NEAR(a, b, rel)                                                                  \
	do {                                                                                \
		double ct_x_ = (a), ct_y_ = (b);                                            \
		if (!(fabs(ct_x_ - ct_y_) <= (rel) * fabs(ct_y_)))                          \
			ct_fail(__FILE__, __LINE__, "%s == %s: %.17g != %.17g", #a, #b, ct_x_, ct_y_); \
	} while (0)

CT_TEST(precedence_and_parentheses)
{
	static const double none[1] = { 0 };

	CT_NEAR(calc("1 + 2 * 3", none, 1), 7, 0);
	CT_NEAR(calc("(1 + 2) * 3", none, 1), 9, 0);
	CT_NEAR(calc("2 - 3 - 4", none, 1), -5, 0);      /* left to right */
	CT_NEAR(calc("2 - (3 - 4)", none, 1), 3, 0);
	CT_NEAR(calc("8 / 4 / 2", none, 1), 1, 0);
	CT_NEAR(calc("8 / (4 / 2)", none, 1), 4, 0);
	CT_NEAR(calc("1 + 6 / 2 * 3 - 1", none, 1), 9, 0);
	CT_NEAR(calc("-2 * 3", none, 1), -6, 0);
	CT_NEAR(calc("2 * -3", none, 1), -6, 0);
	CT_NEAR(calc("- -2", none, 1), 2, 0);
	CT_NEAR(calc("-(1 + 2) * +2", none, 1), -6, 0);
	CT_NEAR(calc("((((7))))", none, 1), 7, 0);
	CT_NEAR(calc("0x10 + 1.5e1 + .5 + 2.", none, 1), 33.5, 0);
	CT_NEAR(calc("1e-3 * 1E+3", none, 1), 1, 1e-15);
	CT_NEAR(calc("  3\t*\n2  ", none, 1), 6, 0);
	CT_NEAR(calc("1073741824 / 1024 / 1024 / 1024", none, 1), 1, 0);
}

CT_TEST(events_and_interval)
{
	static const double v[] = { 100, 25, 7 };

	/* events in first-use order: a = 100, b = 25 */
	CT_NEAR(calc("[cbo/event=0x34,umask=0x8f/] / [uclk]", v, 1), 4, 0);
	CT_NEAR(calc("[a] - [b] * 2", v, 1), 50, 0);
	CT_NEAR(calc("([a] - [b]) * 2", v, 1), 150, 0);
	/* the same text twice is one event */
	CT_NEAR(calc("[a] + [ a ] + [b]", v, 1), 225, 0);
	CT_NEAR(calc("[a] * 64 / SAMPLE_INTERVAL_S", v, 0.5), 12800, 0);
	CT_NEAR(calc("[a] / sample_interval_s", v, 4), 25, 0);
	CT_NEAR(calc("[imc/CAS_COUNT.RD/] * 64 / SAMPLE_INTERVAL_S / 1073741824", v, 2),
		100.0 * 64 / 2 / 1073741824, 1e-15);

	{
		struct ucd_metrics *ms = ucd_metrics_new();
		double vals[3] = { 3, 5, 11 };

		CT_REQUIRE(ms);
		CT_EQ(ucd_metrics_add(ms, "x", "GiB/s", "[cbo/event=0x22,umask=0x41/] + [ uclk ]", 0), 0);
		CT_EQ(ucd_metrics_add(ms, "y", "", "[uclk]*[cbo0/CACHE_LOOKUP.ANY_MESI,edge,thresh=1/]", 0), 0);
		CT_EQ(ucd_metrics_count(ms), 2);
		/* three distinct events, blanks in the brackets trimmed */
		CT_EQ(ucd_metrics_nevents(ms), 3);
		CT_STREQ(ucd_metrics_event(ms, 0), "cbo/event=0x22,umask=0x41/");
		CT_STREQ(ucd_metrics_event(ms, 1), "uclk");
		CT_STREQ(ucd_metrics_event(ms, 2), "cbo0/CACHE_LOOKUP.ANY_MESI,edge,thresh=1/");
		CT_STREQ(ucd_metrics_name(ms, 0), "x");
		CT_STREQ(ucd_metrics_unit(ms, 0), "GiB/s");
		CT_STREQ(ucd_metrics_expr(ms, 1), "[uclk]*[cbo0/CACHE_LOOKUP.ANY_MESI,edge,thresh=1/]");
		CT_NEAR(ucd_metrics_eval(ms, 0, vals, 1), 8, 0);
		CT_NEAR(ucd_metrics_eval(ms, 1, vals, 1), 55, 0);
		CT_CHECK(isnan(ucd_metrics_eval(ms, 2, vals, 1)));
		CT_CHECK(ucd_metrics_name(ms, 2) == NULL);
		ucd_metrics_free(ms);
	}
}

CT_TEST(division_by_zero_is_nan)
{
	static const double v[] = { 0, 5 };

	CT_CHECK(isnan(calc("1 / 0", v, 1)));
	CT_CHECK(isnan(calc("0 / 0", v, 1)));
	CT_CHECK(isnan(calc("-1 / (2 - 2)", v, 1)));
	CT_CHECK(isnan(calc("[zero] / [zero]", v, 1)));
	CT_CHECK(isnan(calc("[zero] + [five] / [zero] + 1", v, 1))); /* NaN spreads */
	CT_CHECK(isnan(calc("[five] * 64 / SAMPLE_INTERVAL_S", v + 1, 0)));
	CT_NEAR(calc("[zero] / [five]", v, 1), 0, 0);
	CT_CHECK(isnan(calc("0 * (1 / 0)", v, 1)));          /* not 0: NaN stays NaN */
}

CT_TEST(located_errors)
{
	static const struct {
		const char *expr, *want;
	} cases[] = {
		{ "", "metric M1, col 1: expected a number, an [event], SAMPLE_INTERVAL_S or '(' at the end" },
		{ "1 +", "metric M1, col 4: expected a number" },
		{ "1 + * 2", "metric M1, col 5: expected a number, an [event], SAMPLE_INTERVAL_S or '(', found '*'" },
		{ "(1 + 2", "metric M1, col 7: expected ')' for the '(' at col 1, found the end" },
		{ "((1) + (2)", "col 11: expected ')' for the '(' at col 1" },
		{ "1 + 2)", "metric M1, col 6: ')' without a '('" },
		{ "1 2", "metric M1, col 3: expected an operator (+ - * /), ')' or the end, found '2'" },
		{ "[a] [b]", "col 5: expected an operator" },
		{ "2 * [cbo/x/", "metric M1, col 5: '[' without a closing ']'" },
		{ "1 + []", "metric M1, col 5: empty event '[]'" },
		{ "1 + [  ]", "metric M1, col 5: empty event '[]'" },
		{ "[uclk,data_reads]", "metric M1, col 6: one event per bracket" },
		{ "[cbo/a=1,b=2/,uclk]", "metric M1, col 14: one event per bracket" },
		{ "[a [b]", "metric M1, col 4: '[' inside an event" },
		{ "[cbo0/event=0x34] + [umask=1/]", "metric M1, col 6: PMU/terms/ without its closing '/'" },
		{ "[cbo/x/y/z]", "metric M1, col 9: PMU/terms/ without its closing '/'" },
		{ "CAS_COUNT.RD * 64", "metric M1, col 1: unknown name 'CAS_COUNT.RD' (expected SAMPLE_INTERVAL_S; events go in brackets: [CAS_COUNT.RD])" },
		{ "SAMPLE_INTERVAL * 2", "metric M1, col 1: unknown name 'SAMPLE_INTERVAL'" },
		{ "64abc", "metric M1, col 3: unexpected 'a' after the number 64" },
		{ "1.2.3", "metric M1, col 4: unexpected '.' after the number 1.2" },
		{ "0x", "metric M1, col 1: '0x' without hex digits" },
		{ "1e+", "metric M1, col 2: exponent without digits" },
		{ "1e999", "metric M1, col 1: 1e999 is out of range" },
		{ "0x1ffffffffffffffff", "metric M1, col 1: 0x1ffffffffffffffff is out of range" },
		{ "3 % 2", "metric M1, col 3: expected an operator (+ - * /), ')' or the end, found '%'" },
		{ "$", "metric M1, col 1: expected a number, an [event], SAMPLE_INTERVAL_S or '(', found '$'" },
	};
	char deep[300];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = parse_error(cases[i].expr);

		if (!strstr(got, cases[i].want))
			ct_fail(__FILE__, __LINE__, "'%s': error \"%s\", want \"%s\"", cases[i].expr, got,
				cases[i].want);
	}
	/* nesting is bounded (the parser recurses), and says where */
	memset(deep, '(', 65);
	snprintf(deep + 65, sizeof(deep) - 65, "1%.65s", "))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))");
	CT_CONTAINS(parse_error(deep), "metric M1, col 65: nested more than 64 deep");
	memset(deep, '-', 100);
	snprintf(deep + 100, sizeof(deep) - 100, "1");
	CT_CONTAINS(parse_error(deep), "nested more than 64 deep");
	memset(deep, '(', 64);
	snprintf(deep + 64, sizeof(deep) - 64, "1%.64s", "))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))");
	CT_STREQ(parse_error(deep), "");
	/* an expression inside a longer argument counts columns in it */
	{
		struct ucd_metrics *ms = ucd_metrics_new();

		CT_CHECK(ucd_metrics_add(ms, "own", "", "1 +", 10) != 0);
		CT_CONTAINS(ucd_metrics_error(ms), "metric own, col 14: expected a number");
		ucd_metrics_free(ms);
	}
}

CT_TEST(platform_metric_names)
{
	const struct ucm_platform *snbep = ucm_platform_find("snbep"), *skl = ucm_platform_find("skl");
	const struct ucm_metric *m;
	struct ucd_metrics *ms;
	char why[256], buf[128];

	CT_REQUIRE(snbep && skl);
	CT_CHECK(snbep->nmetrics > 0);
	CT_EQ(skl->nmetrics, 0);
	/* NAME, case-insensitive */
	m = ucd_metric_find(snbep, "mem_bw_reads", 12, why, sizeof(why));
	CT_REQUIRE(m);
	CT_STREQ(m->box, "imc");
	CT_STREQ(m->unit, "GiB/s");
	CT_STREQ(ucd_metric_display(snbep, m, buf, sizeof(buf)), "MEM_BW_READS");
	/* a name two boxes define needs its box */
	CT_CHECK(!ucd_metric_find(snbep, "PCT_RD_REQUESTS", 15, why, sizeof(why)));
	CT_CONTAINS(why, "defined by 2 boxes: give one of ha.PCT_RD_REQUESTS, imc.PCT_RD_REQUESTS");
	m = ucd_metric_find(snbep, "imc.PCT_RD_REQUESTS", 19, why, sizeof(why));
	CT_REQUIRE(m);
	CT_STREQ(m->box, "imc");
	CT_STREQ(ucd_metric_display(snbep, m, buf, sizeof(buf)), "imc.PCT_RD_REQUESTS");
	CT_CHECK(!ucd_metric_find(snbep, "cbo.MEM_BW_READS", 16, why, sizeof(why)));
	CT_CHECK(!ucd_metric_find(snbep, "NOPE", 4, why, sizeof(why)));
	CT_CONTAINS(why, "not a snbep metric");
	CT_CHECK(!ucd_metric_find(skl, "MEM_BW_READS", 12, why, sizeof(why)));
	CT_CONTAINS(why, "skl defines no metrics");

	/* a list: names and columns in errors, each metric once, own metrics */
	ms = ucd_metrics_new();
	CT_EQ(ucd_metrics_select(ms, snbep, "MEM_BW_READS, mem_bw_reads,MEM_BW_TOTAL"), 0);
	CT_EQ(ucd_metrics_count(ms), 2);
	CT_EQ(ucd_metrics_nevents(ms), 2); /* CAS_COUNT.RD, CAS_COUNT.WR */
	CT_CHECK(ucd_metrics_select(ms, snbep, "MEM_BW_READS,  BOGUS ,X") != 0);
	CT_CONTAINS(ucd_metrics_error(ms), "unknown metric 'BOGUS' (col 16): not a snbep metric");
	CT_CHECK(ucd_metrics_select(ms, snbep, "CYC_USED_UPODD") != 0);
	CT_CONTAINS(ucd_metrics_error(ms), "unknown metric 'CYC_USED_UPODD' (col 1): defined by 2 boxes");
	CT_CHECK(ucd_metrics_select(ms, snbep, "MEM_BW_READS,,X") != 0);
	CT_CONTAINS(ucd_metrics_error(ms), "empty metric name at col 14");
	CT_CHECK(ucd_metrics_select(ms, snbep, "bw=[imc/CAS_COUNT.RD/]*64/SAMPLE_INTERVAL_S,r=[a,b/]/2") != 0);
	CT_CONTAINS(ucd_metrics_error(ms), "metric r, col 49: one event per bracket");
	ucd_metrics_free(ms);

	ms = ucd_metrics_new();
	CT_EQ(ucd_metrics_select(ms, skl, "rate = [data_reads] * 64 / SAMPLE_INTERVAL_S, r2=[uclk]/2"), 0);
	CT_EQ(ucd_metrics_count(ms), 2);
	CT_STREQ(ucd_metrics_name(ms, 0), "rate");
	CT_STREQ(ucd_metrics_expr(ms, 0), " [data_reads] * 64 / SAMPLE_INTERVAL_S");
	CT_CHECK(ucd_metrics_select(ms, skl, "MEM_BW_READS") != 0);
	CT_CONTAINS(ucd_metrics_error(ms), "unknown metric 'MEM_BW_READS' (col 1): skl defines no metrics");
	CT_CHECK(ucd_metrics_select(ms, skl, "x=1+(2") != 0);
	CT_CONTAINS(ucd_metrics_error(ms), "metric x, col 7: expected ')' for the '(' at col 5");
	CT_CHECK(ucd_metrics_select(ms, skl, "9x=1") != 0);
	CT_CONTAINS(ucd_metrics_error(ms), "'9x' (col 1): a metric of your own is NAME=EXPR");
	CT_CHECK(ucd_metrics_select(ms, skl, "=1") != 0);
	CT_CONTAINS(ucd_metrics_error(ms), "(col 1): a metric of your own is NAME=EXPR");
	ucd_metrics_free(ms);
}

/* Events a session already has are read, not added again; the others are
 * added with one list; errors about them name the metric and the column in
 * its expression. */
CT_TEST(session_events)
{
	struct ct_rig r;
	struct ucd_metrics *ms = ucd_metrics_new();
	const char *list;
	char msg[1024];

	CT_REQUIRE(ct_rig_open(&r, NULL, 0, NULL) == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uclk,data_reads") == 0);
	CT_EQ(ucd_metrics_select(ms, r.p,
				 "bw=([data_reads]+[data_writes])*64/SAMPLE_INTERVAL_S,"
				 "per_clk=[data_reads]/[uclk],lookups=[cbo/CACHE_LOOKUP.ANY_MESI/]/[uclk]"),
	      0);
	CT_EQ(ucd_metrics_nevents(ms), 4);
	list = ucd_metrics_plan(ms, r.d);
	CT_REQUIRE(list);
	CT_STREQ(list, "data_writes,cbo/CACHE_LOOKUP.ANY_MESI/");
	CT_REQUIRE(ucd_add_events(r.d, list) == 0);
	CT_EQ(ucd_nevents(r.d), 4);
	CT_EQ(ucd_metrics_bind(ms, r.d), 0);
	CT_REQUIRE(ct_feed(r.m, "imc", 0, "DRAM_DATA_READS", 1) == 0);
	CT_REQUIRE(ct_feed(r.m, "imc", 0, "DRAM_DATA_WRITES", 1) == 0);
	CT_REQUIRE(ct_feed(r.m, "cbo", -1, "CACHE_LOOKUP.READ_E", 1) == 0);
	CT_REQUIRE(ucd_run(r.d, 5000000, 0, NULL, NULL) == 0);
	{
		struct ucd_evinfo rd, wr, clk, lk;
		double secs = (double)ucd_elapsed_ns(r.d) / 1e9;

		ucd_event(r.d, 0, &clk);
		ucd_event(r.d, 1, &rd);
		ucd_event(r.d, 2, &wr);
		ucd_event(r.d, 3, &lk);
		CT_NEAR(ucd_metrics_value(ms, 0, r.d, UCD_MS_TOTAL, 0, ucd_elapsed_ns(r.d)),
			((double)rd.total + (double)wr.total) * 64 / secs, 1e-12);
		CT_NEAR(ucd_metrics_value(ms, 1, r.d, UCD_MS_TOTAL, 0, ucd_elapsed_ns(r.d)),
			(double)rd.total / (double)clk.total, 1e-12);
		CT_NEAR(ucd_metrics_value(ms, 2, r.d, UCD_MS_SOCKET, 0, ucd_elapsed_ns(r.d)),
			(double)lk.total / (double)clk.total, 1e-12);
		/* nothing since the last mark: 0/0 */
		CT_CHECK(isnan(ucd_metrics_value(ms, 1, r.d, UCD_MS_INTERVAL, 0, 0)));
	}
	ct_check_truth(&r, "session_events", __FILE__, __LINE__);
	ucd_metrics_free(ms);
	ct_rig_close(&r);

	/* an event the driver refuses: the message names the metric and the
	 * column of the bad term in the metric's expression */
	CT_REQUIRE(ct_rig_open(&r, NULL, 0, NULL) == 0);
	ms = ucd_metrics_new();
	CT_EQ(ucd_metrics_select(ms, r.p, "ok=[uclk],bad=1+[cbo0/event=0x34,umask=0x8f,bogus=1/]"), 0);
	list = ucd_metrics_plan(ms, r.d);
	CT_STREQ(list, "uclk,cbo0/event=0x34,umask=0x8f,bogus=1/");
	CT_CHECK(ucd_add_events(r.d, list) != 0);
	ucd_metrics_explain(ms, ucd_error(r.d), msg, sizeof(msg));
	/* -M "ok=[uclk],bad=1+[cbo0/...": the event starts at col 18, bogus at 46 */
	CT_CONTAINS(msg, "metric bad, col 18: event 'cbo0/event=0x34,umask=0x8f,bogus=1/' (col 45): unknown term 'bogus'");
	ucd_metrics_explain(ms, "no column here", msg, sizeof(msg));
	CT_STREQ(msg, "metric events: no column here");
	ucd_metrics_free(ms);

	/* two metrics that need the one counter of ARB occupancy */
	ms = ucd_metrics_new();
	CT_EQ(ucd_metrics_select(ms, r.p,
				 "a=[UNC_ARB_TRK_OCCUPANCY.ALL]/[uclk],b=[UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST]"),
	      0);
	list = ucd_metrics_plan(ms, r.d);
	CT_CHECK(ucd_add_events(r.d, list) != 0);
	ucd_metrics_explain(ms, ucd_error(r.d), msg, sizeof(msg));
	CT_CONTAINS(msg, "metric b, col 41: cannot place 'UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST' (col 41)");
	/* not bound: no values */
	CT_CHECK(ucd_metrics_bind(ms, r.d) != 0);
	CT_CHECK(isnan(ucd_metrics_value(ms, 0, r.d, UCD_MS_TOTAL, 0, 1)));
	ucd_metrics_free(ms);
	ct_no_strict(&r, "session_events", __FILE__, __LINE__);
	ct_rig_close(&r);
}

/* ---- the Xeon E5-2600 metrics ---- */

static int snbep_rig(struct ct_rig *r, int free_access)
{
	struct ucm_config cfg;

	ucm_config_init(&cfg, ucm_platform_find("snbep"));
	if (free_access)
		for (unsigned s = 0; s < UCM_NSPACES; s++)
			cfg.access_ps[s] = 0;
	return ct_rig_open(r, &cfg, 0, NULL);
}

/* Every metric of the platform parses, and the driver accepts its events
 * together, counts them without a strict-mode record and evaluates it. */
CT_TEST(snbep_every_metric_runs)
{
	const struct ucm_platform *p = ucm_platform_find("snbep");
	struct ct_rig r;

	CT_REQUIRE(p && p->nmetrics);
	CT_REQUIRE(snbep_rig(&r, 0) == 0);
	for (unsigned i = 0; i < p->nmetrics; i++) {
		const struct ucm_metric *m = &p->metrics[i];
		struct ucd_metrics *ms = ucd_metrics_new();
		struct ucd *d;
		const char *list;
		char msg[1024];

		CT_CHECK(m->name && m->box && m->desc && m->expr && m->unit && m->cite);
		CT_CHECK(ucm_boxtype_find(p, m->box) != NULL);
		CT_CHECK(!strncmp(m->cite, "SNB-EP Table 2-", 15));
		if (ucd_metrics_add(ms, m->name, m->unit, m->expr, 0)) {
			ct_fail(__FILE__, __LINE__, "%s: %s", m->name, ucd_metrics_error(ms));
			ucd_metrics_free(ms);
			continue;
		}
		/* a driver of its own on the same machine for each metric */
		if (ucd_open(r.be, NULL, &d)) {
			ct_fail(__FILE__, __LINE__, "ucd_open: %s", ucd_error(d));
			ucd_close(d);
			ucd_metrics_free(ms);
			break;
		}
		list = ucd_metrics_plan(ms, d);
		if (!list || ucd_add_events(d, list)) {
			ucd_metrics_explain(ms, ucd_error(d), msg, sizeof(msg));
			ct_fail(__FILE__, __LINE__, "%s.%s = %s: %s", m->box, m->name, m->expr, msg);
		} else if (ucd_metrics_bind(ms, d) || ucd_run(d, 2000000, 0, NULL, NULL)) {
			ct_fail(__FILE__, __LINE__, "%s: %s", m->name, ucd_error(d));
		} else {
			/* no input: NaN (0/0) or a number, never a crash */
			double v = ucd_metrics_value(ms, 0, d, UCD_MS_TOTAL, 0, ucd_elapsed_ns(d));

			CT_CHECK(isnan(v) || isfinite(v));
			if (ucd_restore(d))
				ct_fail(__FILE__, __LINE__, "%s: restore: %s", m->name, ucd_error(d));
		}
		ucd_close(d);
		ucd_metrics_free(ms);
	}
	ct_no_strict(&r, "snbep metrics", __FILE__, __LINE__);
	ct_rig_close(&r);
}

/* Feed one sub-event on the boxes of a type in one socket (-1: every). */
static void feed(struct ucm_model *m, const char *box, int socket, int inst, const char *sub,
		 uint32_t inc)
{
	int n = 0;

	for (unsigned b = 0; b < ucm_box_count(m); b++) {
		const struct ucm_boxinst *bi = ucm_box_def(m, (int)b);
		int s = ucm_subev_find(bi->type, sub);

		if (strcmp(bi->type->name, box) || (socket >= 0 && ucm_box_socket(m, (int)b) != (unsigned)socket) ||
		    (inst >= 0 && bi->inst != (unsigned)inst))
			continue;
		if (s < 0 || ucm_set_input(m, (int)b, (unsigned)s, inc))
			ct_fail(__FILE__, __LINE__, "feed %s %s: %s", box, sub, ucm_error(m));
		n++;
	}
	if (!n)
		ct_fail(__FILE__, __LINE__, "feed %s %s: no such box", box, sub);
}

/* What the model was fed, in bytes: 64 per CAS (1.6.1, Table 2-65). */
static double fed_bytes(struct ucm_model *m, int socket, const char *const *subs)
{
	uint64_t n = 0;

	for (unsigned b = 0; b < ucm_box_count(m); b++) {
		const struct ucm_boxinst *bi = ucm_box_def(m, (int)b);

		if (strcmp(bi->type->name, "imc") || (socket >= 0 && ucm_box_socket(m, (int)b) != (unsigned)socket))
			continue;
		for (size_t k = 0; subs[k]; k++)
			n += ucm_fed(m, (int)b, (unsigned)ucm_subev_find(bi->type, subs[k]));
	}
	return (double)n * 64;
}

struct ivals {
	struct ucd_metrics *ms;
	unsigned n;
	double v[3][16];
	uint64_t span[16], last;
};

static int on_interval(struct ucd *d, void *ctx, uint64_t elapsed)
{
	struct ivals *iv = ctx;

	if (iv->n < 16) {
		iv->span[iv->n] = elapsed - iv->last;
		for (size_t i = 0; i < 3; i++)
			iv->v[i][iv->n] = ucd_metrics_value(iv->ms, i, d, UCD_MS_INTERVAL, 0, elapsed - iv->last);
		iv->n++;
	}
	iv->last = elapsed;
	return 0;
}

/* MEM_BW_READS, MEM_BW_WRITES and MEM_BW_TOTAL (Table 2-65, per second as
 * 1.6.1 converts them) against the bytes the model was fed at CAS_COUNT's
 * sub-events over the simulated seconds: the whole run, each socket, each
 * interval.  Register accesses cost no time here, so every fed cycle lies
 * between the driver's enable and disable and the run lasts exactly the
 * duration asked for. */
CT_TEST(snbep_memory_bandwidth_is_ground_truth)
{
	static const char *const rd[] = { "CAS_COUNT.RD_REG", "CAS_COUNT.RD_UNDERFILL", NULL };
	static const char *const wr[] = { "CAS_COUNT.WR_WMM", "CAS_COUNT.WR_RMM", NULL };
	static const char *const all[] = { "CAS_COUNT.RD_REG", "CAS_COUNT.RD_UNDERFILL",
					   "CAS_COUNT.WR_WMM", "CAS_COUNT.WR_RMM", NULL };
	const uint64_t dur_ns = 10000000, every_ns = 2000000;
	const double gib = 1024.0 * 1024 * 1024, secs = (double)dur_ns / 1e9;
	struct ct_rig r;
	struct ivals iv;
	const char *list;

	CT_REQUIRE(snbep_rig(&r, 1) == 0);
	CT_REQUIRE(ucd_sockets(r.d) == 2);
	/* CAS_COUNT counts at most one per cycle (Table 2-64): one sub-event
	 * per channel, different in each socket */
	feed(r.m, "imc", 0, 0, "CAS_COUNT.RD_REG", 1);
	feed(r.m, "imc", 0, 1, "CAS_COUNT.RD_UNDERFILL", 1);
	feed(r.m, "imc", 0, 2, "CAS_COUNT.WR_WMM", 1);
	feed(r.m, "imc", 1, 0, "CAS_COUNT.WR_RMM", 1);
	feed(r.m, "imc", 1, 3, "CAS_COUNT.RD_REG", 1);

	memset(&iv, 0, sizeof(iv));
	iv.ms = ucd_metrics_new();
	CT_REQUIRE(ucd_metrics_select(iv.ms, ucd_platform(r.d), "MEM_BW_READS,MEM_BW_WRITES,MEM_BW_TOTAL") == 0);
	list = ucd_metrics_plan(iv.ms, r.d);
	CT_REQUIRE(list);
	CT_STREQ(list, "imc/CAS_COUNT.RD/,imc/CAS_COUNT.WR/");
	CT_REQUIRE(ucd_add_events(r.d, list) == 0);
	CT_REQUIRE(ucd_metrics_bind(iv.ms, r.d) == 0);
	CT_REQUIRE(ucd_run(r.d, dur_ns, every_ns, on_interval, &iv) == 0);
	CT_EQ(ucd_elapsed_ns(r.d), dur_ns);

	/* whole run, and each socket */
	CT_NEAR(ucd_metrics_value(iv.ms, 0, r.d, UCD_MS_TOTAL, 0, dur_ns), fed_bytes(r.m, -1, rd) / secs / gib, 1e-12);
	CT_NEAR(ucd_metrics_value(iv.ms, 1, r.d, UCD_MS_TOTAL, 0, dur_ns), fed_bytes(r.m, -1, wr) / secs / gib, 1e-12);
	CT_NEAR(ucd_metrics_value(iv.ms, 2, r.d, UCD_MS_TOTAL, 0, dur_ns), fed_bytes(r.m, -1, all) / secs / gib, 1e-12);
	for (unsigned s = 0; s < 2; s++) {
		CT_NEAR(ucd_metrics_value(iv.ms, 0, r.d, UCD_MS_SOCKET, s, dur_ns),
			fed_bytes(r.m, (int)s, rd) / secs / gib, 1e-12);
		CT_NEAR(ucd_metrics_value(iv.ms, 1, r.d, UCD_MS_SOCKET, s, dur_ns),
			fed_bytes(r.m, (int)s, wr) / secs / gib, 1e-12);
		CT_NEAR(ucd_metrics_value(iv.ms, 2, r.d, UCD_MS_SOCKET, s, dur_ns),
			fed_bytes(r.m, (int)s, all) / secs / gib, 1e-12);
	}
	/* the rates fed: 3 reading channels, 2 writing, one CAS per DCLK each */
	CT_NEAR(fed_bytes(r.m, -1, rd) / secs, 3.0 * 64 * (double)ucm_clock_hz(r.m, 1), 1e-9);
	CT_NEAR(fed_bytes(r.m, -1, wr) / secs, 2.0 * 64 * (double)ucm_clock_hz(r.m, 1), 1e-9);
	/* every interval: the same constant rate */
	CT_EQ(iv.n, dur_ns / every_ns);
	for (unsigned k = 0; k < iv.n; k++) {
		CT_EQ(iv.span[k], every_ns);
		CT_NEAR(iv.v[0][k], 3.0 * 64 * (double)ucm_clock_hz(r.m, 1) / gib, 1e-9);
		CT_NEAR(iv.v[1][k], 2.0 * 64 * (double)ucm_clock_hz(r.m, 1) / gib, 1e-9);
		CT_NEAR(iv.v[2][k], 5.0 * 64 * (double)ucm_clock_hz(r.m, 1) / gib, 1e-9);
	}
	ct_check_truth(&r, "memory bandwidth", __FILE__, __LINE__);
	ucd_metrics_free(iv.ms);
	ct_rig_close(&r);
}

static uint64_t fed_cbo(struct ucm_model *m, const char *sub)
{
	uint64_t n = 0;

	for (unsigned b = 0; b < ucm_box_count(m); b++) {
		const struct ucm_boxinst *bi = ucm_box_def(m, (int)b);

		if (!strcmp(bi->type->name, "cbo"))
			n += ucm_fed(m, (int)b, (unsigned)ucm_subev_find(bi->type, sub));
	}
	return n;
}

/* A filtered CBo metric (Table 2-15 AVG_TOR_DRD_MISS_LATENCY: TOR
 * occupancy over TOR inserts of data reads that miss, opc=0x182) counts
 * only the opcode it filters on; a share of cycles (CYC_USED_UPEVEN) is
 * over the CBos' own clock.  Both against what the model was fed. */
CT_TEST(snbep_filtered_latency_and_cycle_share_are_ground_truth)
{
	struct ct_rig r;
	struct ucd_metrics *ms = ucd_metrics_new();
	const struct ucm_boxtype *cbo;
	const char *list;
	double ncbo_boxes = 0;

	CT_REQUIRE(snbep_rig(&r, 1) == 0);
	cbo = ucm_boxtype_find(r.p, "cbo");
	CT_REQUIRE(cbo);
	/* data reads that miss: 1 insert and 12 entries per cycle; RFO misses
	 * (opc 0x180) 5 entries per cycle, which the filter leaves out */
	feed(r.m, "cbo", -1, -1, "TOR_INSERTS.DRd_MISS", 1);
	feed(r.m, "cbo", -1, -1, "TOR_OCCUPANCY.DRd_MISS", 12);
	feed(r.m, "cbo", -1, -1, "TOR_OCCUPANCY.RFO_MISS", 5);
	/* the BL ring, up and even, used every cycle in socket 0's CBo 1 */
	feed(r.m, "cbo", 0, 1, "RING_BL_USED.UP_EVEN", 1);
	for (unsigned b = 0; b < ucm_box_count(r.m); b++)
		ncbo_boxes += ucm_box_def(r.m, (int)b)->type == cbo;

	CT_REQUIRE(ucd_metrics_select(ms, r.p, "AVG_TOR_DRD_MISS_LATENCY,cbo.CYC_USED_UPEVEN") == 0);
	list = ucd_metrics_plan(ms, r.d);
	CT_REQUIRE(list);
	CT_STREQ(list, "cbo/TOR_OCCUPANCY.MISS_OPCODE,filter_opc=0x182/,cbo/TOR_INSERTS.MISS_OPCODE,filter_opc=0x182/,"
		       "cbo/RING_BL_USED.UP_EVEN/,cbo/CLOCKTICKS/");
	if (ucd_add_events(r.d, list)) {
		ct_fail(__FILE__, __LINE__, "%s", ucd_error(r.d));
		goto out;
	}
	CT_REQUIRE(ucd_metrics_bind(ms, r.d) == 0);
	CT_REQUIRE(ucd_run(r.d, 10000000, 0, NULL, NULL) == 0);
	CT_NEAR(ucd_metrics_value(ms, 0, r.d, UCD_MS_TOTAL, 0, ucd_elapsed_ns(r.d)),
		(double)fed_cbo(r.m, "TOR_OCCUPANCY.DRd_MISS") / (double)fed_cbo(r.m, "TOR_INSERTS.DRd_MISS"),
		1e-12);
	CT_NEAR(ucd_metrics_value(ms, 0, r.d, UCD_MS_TOTAL, 0, ucd_elapsed_ns(r.d)), 12, 1e-12);
	/* every CBo's clock ran the whole 10 ms: the share is one CBo's in all */
	CT_NEAR(ucd_metrics_value(ms, 1, r.d, UCD_MS_TOTAL, 0, ucd_elapsed_ns(r.d)),
		(double)fed_cbo(r.m, "RING_BL_USED.UP_EVEN") /
			(ncbo_boxes * (double)ucm_cycles(r.m, cbo->clock)),
		1e-12);
	CT_NEAR(ucd_metrics_value(ms, 1, r.d, UCD_MS_SOCKET, 0, ucd_elapsed_ns(r.d)),
		2 / ncbo_boxes, 1e-12);
	CT_NEAR(ucd_metrics_value(ms, 1, r.d, UCD_MS_SOCKET, 1, ucd_elapsed_ns(r.d)), 0, 0);
	ct_check_truth(&r, "filtered metrics", __FILE__, __LINE__);
out:
	ucd_metrics_free(ms);
	ct_rig_close(&r);
}

CT_MAIN()
