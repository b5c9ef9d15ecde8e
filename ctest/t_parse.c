/*
 * t_parse.c - event strings and counter placement through the public
 * driver API on the simulated backend: every named event of the platform
 * table by name, case and alias; perf-style PMU/terms/ syntax; every class
 * of malformed input with the token, the column in the whole list and what
 * was expected; placement within the event tables' counter restrictions.
 * Encodings are checked against the PERFEVTSEL layout of SKL Table 2-7
 * (THR 28:24, INV 23, EN 22, OVF_EN 20, E 18, UMASK 15:8, EVT_SEL 7:0) as
 * programmed in the model, and no test may leave a strict-mode record.
 */
#include <errno.h>

#include "ct.h"
#include "ct_rig.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"

#define rig ct_rig
#define rig_open(r, ncbo) ct_rig_open(r, NULL, ncbo, NULL)
#define rig_close ct_rig_close
#define no_strict(r, when, line) ct_no_strict(r, when, __FILE__, line)
#define feed(r, ...) ct_feed((r)->m, __VA_ARGS__)

/* start, 2 ms of counting, stop, restore: each step succeeds and leaves no
 * strict-mode record; every counter then equals the model's ground truth. */
#define SESSION(r) session(r, 1, __LINE__)
static void session(struct rig *r, int start, int line)
{
	if (start && ucd_start(r->d))
		ct_fail(__FILE__, line, "start: %s", ucd_error(r->d));
	no_strict(r, "start", line);
	if (ucd_run(r->d, 2000000, 0, NULL, NULL))
		ct_fail(__FILE__, line, "run: %s", ucd_error(r->d));
	no_strict(r, "run", line);
	if (ucd_stop(r->d))
		ct_fail(__FILE__, line, "stop: %s", ucd_error(r->d));
	ct_check_truth(r, "stop", __FILE__, line);
	if (ucd_restore(r->d))
		ct_fail(__FILE__, line, "restore: %s", ucd_error(r->d));
	no_strict(r, "restore", line);
	CT_EQ(ucm_strict_count(r->m), 0);
}

/* "col N" with nothing but a non-digit after N. */
static int has_col(const char *msg, size_t col)
{
	char want[32];
	size_t n = (size_t)snprintf(want, sizeof(want), "col %zu", col);

	for (const char *p = msg; (p = strstr(p, want)) != NULL; p++)
		if (p[n] < '0' || p[n] > '9')
			return 1;
	return 0;
}

/* ucd_add_events(list) fails with rc; the message names tok (NULL: no
 * token, as for an empty event), the column col and says what; the driver
 * keeps the events and counters it had. */
#define BAD(r, list, rc, tok, col, what) bad(r, list, rc, tok, col, what, __LINE__)
static void bad(struct rig *r, const char *list, int rc, const char *tok, size_t col,
		const char *what, int line)
{
	size_t nev = ucd_nevents(r->d), nctr = ucd_ncounters(r->d);
	int got = ucd_add_events(r->d, list);
	const char *msg = ucd_error(r->d);
	char quoted[160];

	if (got != rc) {
		ct_fail(__FILE__, line, "\"%s\": rc %d, want %d (%s)", list, got, rc, msg);
		return;
	}
	if (tok) {
		snprintf(quoted, sizeof(quoted), "'%s'", tok);
		if (!strstr(msg, quoted))
			ct_fail(__FILE__, line, "\"%s\": error does not name %s: %s", list, quoted, msg);
	}
	if (!has_col(msg, col))
		ct_fail(__FILE__, line, "\"%s\": error does not say col %zu: %s", list, col, msg);
	if (!strstr(msg, what))
		ct_fail(__FILE__, line, "\"%s\": error does not say \"%s\": %s", list, what, msg);
	if (ucd_nevents(r->d) != nev || ucd_ncounters(r->d) != nctr)
		ct_fail(__FILE__, line, "\"%s\": %zu events, %zu counters after the error; had %zu, %zu",
			list, ucd_nevents(r->d), ucd_ncounters(r->d), nev, nctr);
}

/* The same error, also with a valid event before it: the column counts
 * from the start of the whole list. */
#define BAD2(r, list, tok, col, what) bad2(r, list, tok, col, what, __LINE__)
static void bad2(struct rig *r, const char *list, const char *tok, size_t col, const char *what,
		 int line)
{
	static const char prefix[] = "uclk,  ";
	char both[256];

	bad(r, list, -EINVAL, tok, col, what, line);
	snprintf(both, sizeof(both), "%s%s", prefix, list);
	bad(r, both, -EINVAL, tok, col + sizeof(prefix) - 1, what, line);
}

/* PERFEVTSEL of counter ctr of a CBo (inst >= 0) or of the ARB (inst < 0),
 * SKL Table 2-1. */
static uint64_t evtsel(struct rig *r, int inst, unsigned ctr)
{
	uint32_t addr = inst >= 0 ? 0x700u + 0x10u * (unsigned)inst + ctr : 0x3B2u + ctr;
	uint64_t v = ~0ull;

	CT_CHECK(ucm_msr_peek(r->m, 0, addr, &v) == 0);
	return v;
}

#define EVTSEL(ev, um, thr, inv, edge)                                        \
	((uint64_t)(ev) | (uint64_t)(um) << 8 | (uint64_t)(edge) << 18 |      \
	 (uint64_t)(inv) << 23 | (uint64_t)(thr) << 24)
#define EN_BIT (1ull << 22)
#define OVF_EN_BIT (1ull << 20)

/* The one event added: its canonical name, instance and counter count. */
static void expect_event(struct rig *r, size_t i, const char *canonical, int inst,
			 unsigned nctr, int line)
{
	struct ucd_evinfo ei;

	if (ucd_event(r->d, i, &ei)) {
		ct_fail(__FILE__, line, "no event %zu", i);
		return;
	}
	if (strcmp(ei.canonical, canonical))
		ct_fail(__FILE__, line, "event %zu (%s): canonical \"%s\", want \"%s\"", i, ei.name,
			ei.canonical, canonical);
	if (ei.inst != inst)
		ct_fail(__FILE__, line, "event %zu (%s): instance %d, want %d", i, ei.name, ei.inst,
			inst);
	if (ei.ncounters != nctr)
		ct_fail(__FILE__, line, "event %zu (%s): %u counters, want %u", i, ei.name,
			ei.ncounters, nctr);
}

/* ---- named events ---- */

static void lower(char *dst, const char *src, size_t n)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < n; i++)
		dst[i] = (char)(src[i] >= 'A' && src[i] <= 'Z' ? src[i] - 'A' + 'a' : src[i]);
	dst[i] = 0;
}

/* One name alone resolves to table row e, on every instance of its box. */
static void named_ok(const struct ucm_event *e, const char *name)
{
	struct rig r;
	struct ucd_evinfo ei;

	if (rig_open(&r, 0)) {
		ct_fail(__FILE__, __LINE__, "rig for %s", name);
		return;
	}
	if (ucd_add_events(r.d, name)) {
		ct_fail(__FILE__, __LINE__, "\"%s\" (%s) rejected: %s", name, e->name, ucd_error(r.d));
	} else if (ucd_nevents(r.d) != 1 || ucd_event(r.d, 0, &ei)) {
		ct_fail(__FILE__, __LINE__, "\"%s\": %zu events", name, ucd_nevents(r.d));
	} else {
		if (strcmp(ei.name, name))
			ct_fail(__FILE__, __LINE__, "\"%s\": name \"%s\"", name, ei.name);
		if (strcmp(ei.canonical, e->name))
			ct_fail(__FILE__, __LINE__, "\"%s\": canonical \"%s\", want %s", name,
				ei.canonical, e->name);
		if (ei.box != e->box || ei.inst != -1 ||
		    ei.ncounters != ucd_ninst(r.d, e->box) * ucd_sockets(r.d))
			ct_fail(__FILE__, __LINE__, "\"%s\": box %s inst %d on %u counters", name,
				ei.box ? ei.box->name : "?", ei.inst, ei.ncounters);
		if (ei.bytes != e->bytes || ei.dram != e->dram)
			ct_fail(__FILE__, __LINE__, "\"%s\": bytes %u dram %d", name, ei.bytes, ei.dram);
		SESSION(&r);
	}
	rig_close(&r);
}

CT_TEST(named_every_event)
{
	const struct ucm_platform *p = ucm_platform_find("skl");
	unsigned aliases = 0;

	CT_REQUIRE(p && p->nevents >= 25);
	for (unsigned i = 0; i < p->nevents; i++) {
		const struct ucm_event *e = &p->events[i];
		char buf[128];

		named_ok(e, e->name);
		lower(buf, e->name, sizeof(buf));
		named_ok(e, buf);
		if (e->alias) {
			char up[64];
			size_t k;

			aliases++;
			named_ok(e, e->alias);
			for (k = 0; e->alias[k] && k + 1 < sizeof(up); k++)
				up[k] = (char)(e->alias[k] >= 'a' && e->alias[k] <= 'z'
						       ? e->alias[k] - 'a' + 'A'
						       : e->alias[k]);
			up[k] = 0;
			named_ok(e, up);
		}
	}
	/* at least uclk and the five IMC counters: the alias cases ran */
	CT_CHECK(aliases >= 6);
}

/* The name without UNC_<BOX>_ (CACHE_LOOKUP.ANY_MESI) is also accepted. */
CT_TEST(named_short_form)
{
	const struct ucm_platform *p = ucm_platform_find("skl");
	unsigned n = 0;

	CT_REQUIRE(p);
	for (unsigned i = 0; i < p->nevents; i++) {
		const struct ucm_event *e = &p->events[i];
		const char *s;

		if (strncmp(e->name, "UNC_", 4) || !(s = strchr(e->name + 4, '_')))
			continue;
		named_ok(e, s + 1);
		n++;
	}
	CT_EQ(n, 19);
}

CT_TEST(named_list_with_blanks)
{
	struct rig r;
	struct ucd_evinfo ei;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	CT_EQ(ucd_add_events(r.d, " uclk ,\tDRAM_DATA_READS,data_writes "), 0);
	CT_EQ(ucd_nevents(r.d), 3);
	CT_REQUIRE(ucd_event(r.d, 0, &ei) == 0);
	CT_STREQ(ei.name, "uclk");
	CT_CHECK(ei.is_clock);
	CT_REQUIRE(ucd_event(r.d, 2, &ei) == 0);
	CT_STREQ(ei.name, "data_writes");
	CT_STREQ(ei.canonical, "DRAM_DATA_WRITES");
	CT_EQ(ei.bytes, 64);
	CT_CHECK(ei.dram);
	SESSION(&r);
	rig_close(&r);
}

/* ---- perf-style raw syntax ---- */

/* One raw event alone on CBo inst (or the ARB, inst -2): its canonical
 * form, instance and the control value programmed at start. */
#define RAW(list, canon, inst, nctr, want) raw(list, canon, inst, nctr, want, __LINE__)
static void raw(const char *list, const char *canon, int inst, unsigned nctr, uint64_t want,
		int line)
{
	struct rig r;
	uint64_t v;
	int where;

	if (rig_open(&r, 0)) {
		ct_fail(__FILE__, line, "rig");
		return;
	}
	if (ucd_add_events(r.d, list)) {
		ct_fail(__FILE__, line, "\"%s\" rejected: %s", list, ucd_error(r.d));
		rig_close(&r);
		return;
	}
	expect_event(&r, 0, canon, inst == -2 ? -1 : inst, nctr, line);
	if (ucd_start(r.d)) {
		ct_fail(__FILE__, line, "\"%s\": start: %s", list, ucd_error(r.d));
		rig_close(&r);
		return;
	}
	/* the instance to look at: the one named, else CBo 3 (the last) */
	where = inst == -2 ? -1 : inst == -1 ? 3 : inst;
	v = evtsel(&r, where, 0);
	if ((v & ~(EN_BIT | OVF_EN_BIT)) != want || !(v & EN_BIT))
		ct_fail(__FILE__, line, "\"%s\": PERFEVTSEL0 = 0x%llx, want 0x%llx with EN", list,
			(unsigned long long)v, (unsigned long long)want);
	ucd_stop(r.d);
	if (ucd_restore(r.d))
		ct_fail(__FILE__, line, "restore: %s", ucd_error(r.d));
	/* restore puts back the reset value */
	if (evtsel(&r, where, 0) != 0)
		ct_fail(__FILE__, line, "\"%s\": PERFEVTSEL0 not restored", list);
	no_strict(&r, list, line);
	rig_close(&r);
}

CT_TEST(raw_cbo_forms)
{
	RAW("cbo0/event=0x34,umask=0x8f/", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", 0, 1,
	    EVTSEL(0x34, 0x8f, 0, 0, 0));
	RAW("cbo/event=0x34,umask=0x8f/", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", -1, 4,
	    EVTSEL(0x34, 0x8f, 0, 0, 0));
	RAW("cbo_1/event=0x34,umask=0x86/", "UNC_CBO_CACHE_LOOKUP.ANY_ES", 1, 1,
	    EVTSEL(0x34, 0x86, 0, 0, 0));
	RAW("uncore_cbo_2/event=0x22,umask=0x41/", "UNC_CBO_XSNP_RESPONSE.MISS_XCORE", 2, 1,
	    EVTSEL(0x22, 0x41, 0, 0, 0));
	RAW("UNCORE_CBO3/EVENT=0x34,UMASK=0x2F/", "UNC_CBO_CACHE_LOOKUP.WRITE_MESI", 3, 1,
	    EVTSEL(0x34, 0x2f, 0, 0, 0));
	RAW("uncore_cbo/event=0x22,umask=0x48/", "UNC_CBO_XSNP_RESPONSE.HITM_XCORE", -1, 4,
	    EVTSEL(0x22, 0x48, 0, 0, 0));
	/* a valid encoding the tables do not name keeps its raw form */
	RAW("cbo0/event=0x34,umask=0x11/", "cbo/event=0x34,umask=0x11/", 0, 1,
	    EVTSEL(0x34, 0x11, 0, 0, 0));
}

CT_TEST(raw_arb_thresh_inv_edge)
{
	RAW("arb/event=0x81,umask=0x20/", "UNC_ARB_TRK_REQUESTS.WRITES", -2, 1,
	    EVTSEL(0x81, 0x20, 0, 0, 0));
	RAW("arb/event=0x80,umask=0x01,thresh=1/", "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST",
	    -2, 1, EVTSEL(0x80, 0x01, 1, 0, 0));
	RAW("arb/event=0x80,umask=1,cmask=2,inv/", "arb/event=0x80,umask=0x1,thresh=2,inv/", -2, 1,
	    EVTSEL(0x80, 0x01, 2, 1, 0));
	RAW("arb/event=0x80,umask=1,thresh=3,edge/", "arb/event=0x80,umask=0x1,thresh=3,edge/", -2,
	    1, EVTSEL(0x80, 0x01, 3, 0, 1));
	RAW("arb/event=0x80,umask=1,thresh=31,inv=1,edge=1/",
	    "arb/event=0x80,umask=0x1,thresh=31,inv,edge/", -2, 1, EVTSEL(0x80, 0x01, 31, 1, 1));
	RAW("arb/event=0x80,umask=1,thresh=0x1f,inv=0,edge=0/", "arb/event=0x80,umask=0x1,thresh=31/",
	    -2, 1, EVTSEL(0x80, 0x01, 31, 0, 0));
	RAW("cbo2/event=0x34,umask=0x8f,thresh=0x1f/", "cbo/event=0x34,umask=0x8f,thresh=31/", 2, 1,
	    EVTSEL(0x34, 0x8f, 31, 0, 0));
}

/* Decimal and hex, as perf: a leading 0 is still decimal, not octal. */
CT_TEST(raw_decimal_and_hex)
{
	RAW("arb/event=129,umask=32/", "UNC_ARB_TRK_REQUESTS.WRITES", -2, 1,
	    EVTSEL(0x81, 0x20, 0, 0, 0));
	RAW("arb/event=0129,umask=032/", "UNC_ARB_TRK_REQUESTS.WRITES", -2, 1,
	    EVTSEL(0x81, 0x20, 0, 0, 0));
	RAW("arb/event=0X84,umask=0x1/", "UNC_ARB_COH_TRK_REQUESTS.ALL", -2, 1,
	    EVTSEL(0x84, 0x01, 0, 0, 0));
	RAW("cbo1/event=52,umask=143,thresh=010/", "cbo/event=0x34,umask=0x8f,thresh=10/", 1, 1,
	    EVTSEL(0x34, 0x8f, 10, 0, 0));
}

CT_TEST(raw_event_names_as_terms)
{
	RAW("cbo1/CACHE_LOOKUP.ANY_MESI/", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", 1, 1,
	    EVTSEL(0x34, 0x8f, 0, 0, 0));
	RAW("cbo0/unc_cbo_cache_lookup.any_i/", "UNC_CBO_CACHE_LOOKUP.ANY_I", 0, 1,
	    EVTSEL(0x34, 0x88, 0, 0, 0));
	RAW("cbo/XSNP_RESPONSE.MISS_EVICTION/", "UNC_CBO_XSNP_RESPONSE.MISS_EVICTION", -1, 4,
	    EVTSEL(0x22, 0x81, 0, 0, 0));
	/* the named row's threshold comes with it */
	RAW("arb/TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST/",
	    "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", -2, 1, EVTSEL(0x80, 0x01, 1, 0, 0));
	/* terms modify a named event; it is then no longer the row */
	RAW("arb/TRK_OCCUPANCY.ALL,thresh=4,edge/", "arb/event=0x80,umask=0x1,thresh=4,edge/", -2,
	    1, EVTSEL(0x80, 0x01, 4, 0, 1));
}

/* Fixed-function boxes take one of their own event names. */
CT_TEST(raw_imc_and_clock)
{
	static const struct {
		const char *list, *canon;
		int clock, dram;
	} ok[] = {
		{ "imc/data_reads/", "DRAM_DATA_READS", 0, 1 },
		{ "imc/DRAM_DATA_WRITES/", "DRAM_DATA_WRITES", 0, 1 },
		{ "uncore_imc/gt_requests/", "DRAM_GT_REQUESTS", 0, 0 },
		{ "clock/uclk/", "UNC_CLOCK.SOCKET", 1, 0 },
		{ "clock/UNC_CLOCK.SOCKET/", "UNC_CLOCK.SOCKET", 1, 0 },
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct rig r;
		struct ucd_evinfo ei;

		CT_REQUIRE(rig_open(&r, 0) == 0);
		if (ucd_add_events(r.d, ok[i].list)) {
			ct_fail(__FILE__, __LINE__, "\"%s\": %s", ok[i].list, ucd_error(r.d));
		} else {
			CT_REQUIRE(ucd_event(r.d, 0, &ei) == 0);
			CT_STREQ(ei.canonical, ok[i].canon);
			CT_EQ(ei.is_clock, ok[i].clock);
			CT_EQ(ei.dram, ok[i].dram);
			CT_EQ(ei.ncounters, 1);
			if (!ok[i].clock)
				CT_CHECK(feed(&r, "imc", 0, ok[i].canon, 1) == 0);
			SESSION(&r);
			if (!ok[i].clock && !strncmp(ok[i].canon, "DRAM_DATA", 9)) {
				CT_REQUIRE(ucd_event(r.d, 0, &ei) == 0);
				CT_CHECK(ei.total > 0);
			}
		}
		rig_close(&r);
	}
}

/* ---- malformed input: token, column in the whole list, what was expected ---- */

CT_TEST(bad_unknown_event_and_pmu)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	BAD2(&r, "foo", "foo", 1, "unknown event");
	BAD2(&r, "UNC_CBO_CACHE_LOOKUP.ANY_MES", "UNC_CBO_CACHE_LOOKUP.ANY_MES", 1, "unknown event");
	BAD2(&r, "  UNC_CLOCK.SOCKETS", "UNC_CLOCK.SOCKETS", 3, "unknown event");
	BAD2(&r, "foo/event=1/", "foo/event=1/", 1, "unknown PMU 'foo'");
	BAD2(&r, "cbox0/event=0x34,umask=0x8f/", "cbox0/event=0x34,umask=0x8f/", 1,
	     "expected one of: clock, arb, cbo, imc");
	/* a PMU without counters is not a PMU */
	BAD2(&r, "hostbridge/event=1/", "hostbridge/event=1/", 1, "unknown PMU 'hostbridge'");
	BAD2(&r, "global/event=1/", "global/event=1/", 1, "unknown PMU");
	BAD2(&r, "uncore_/event=1/", "uncore_/event=1/", 1, "unknown PMU");
	BAD2(&r, "cbo-1/event=0x34,umask=0x8f/", "cbo-1/event=0x34,umask=0x8f/", 1, "unknown PMU");
	CT_EQ(ucd_nevents(r.d), 0);
	rig_close(&r);
}

CT_TEST(bad_instance_out_of_range)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	CT_EQ(ucd_ninst(r.d, r.p->counted), 4);
	BAD2(&r, "cbo4/event=0x34,umask=0x8f/", "cbo4/event=0x34,umask=0x8f/", 1,
	     "cbo has 4 instances (0-3)");
	BAD2(&r, "uncore_cbo_9/event=0x34,umask=0x8f/", "uncore_cbo_9/event=0x34,umask=0x8f/", 1,
	     "cbo has 4 instances");
	BAD2(&r, "arb1/event=0x81,umask=1/", "arb1/event=0x81,umask=1/", 1,
	     "arb has 1 instance (0-0)");
	CT_EQ(ucd_add_events(r.d, "cbo3/event=0x34,umask=0x8f/"), 0);
	rig_close(&r);

	/* a model with two CBos: CBO_CONFIG says so and the driver believes it */
	CT_REQUIRE(rig_open(&r, 2) == 0);
	CT_EQ(ucd_ninst(r.d, r.p->counted), 2);
	BAD2(&r, "cbo2/event=0x34,umask=0x8f/", "cbo2/event=0x34,umask=0x8f/", 1,
	     "cbo has 2 instances (0-1)");
	CT_EQ(ucd_add_events(r.d, "cbo1/event=0x34,umask=0x8f/,cbo/event=0x34,umask=0x88/"), 0);
	expect_event(&r, 0, "UNC_CBO_CACHE_LOOKUP.ANY_MESI", 1, 1, __LINE__);
	expect_event(&r, 1, "UNC_CBO_CACHE_LOOKUP.ANY_I", -1, 2, __LINE__);
	CT_EQ(ucd_add_events(r.d, "UNC_ARB_TRK_REQUESTS.ALL"), 0);
	CT_CHECK(feed(&r, "cbo", -1, "CACHE_LOOKUP.READ_I", 1) == 0);
	SESSION(&r);
	rig_close(&r);
}

CT_TEST(bad_terms)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	BAD2(&r, "cbo0/event=0x34,umask=0x8f,bar=1/", "cbo0/event=0x34,umask=0x8f,bar=1/", 28,
	     "unknown term 'bar'");
	BAD2(&r, "cbo0/event=0x34,umask=0x8f,bar/", "cbo0/event=0x34,umask=0x8f,bar/", 28,
	     "unknown term 'bar'");
	/* an event name of another PMU is an unknown term here */
	BAD2(&r, "cbo1/uclk/", "cbo1/uclk/", 6, "unknown term 'uclk'");
	BAD2(&r, "cbo0/event,umask=0x8f/", "cbo0/event,umask=0x8f/", 6, "'event' needs a value");
	BAD2(&r, "cbo0/event=0x34,umask/", "cbo0/event=0x34,umask/", 17, "'umask' needs a value");
	BAD2(&r, "arb/event=0x80,umask=1,thresh/", "arb/event=0x80,umask=1,thresh/", 24,
	     "'thresh' needs a value");
	BAD2(&r, "arb/event=0x80,umask=1,cmask/", "arb/event=0x80,umask=1,cmask/", 24,
	     "'cmask' needs a value");
	BAD2(&r, "cbo0/event=0x34,,umask=0x8f/", "cbo0/event=0x34,,umask=0x8f/", 17, "empty term");
	BAD2(&r, "cbo0/=0x34/", "cbo0/=0x34/", 6, "empty term");
	BAD2(&r, "cbo0//", "cbo0//", 6, "no terms");
	BAD2(&r, "cbo0/umask=0x8f/", "cbo0/umask=0x8f/", 6, "no event");
	BAD2(&r, "cbo0/CACHE_LOOKUP.ANY_MESI,CACHE_LOOKUP.ANY_I/",
	     "cbo0/CACHE_LOOKUP.ANY_MESI,CACHE_LOOKUP.ANY_I/", 28, "two event names");
	BAD2(&r, "cbo0/CACHE_LOOKUP.ANY_MESI,event=0x34/", "cbo0/CACHE_LOOKUP.ANY_MESI,event=0x34/",
	     6, "both an event name and event=");
	CT_EQ(ucd_nevents(r.d), 0);
	rig_close(&r);
}

CT_TEST(bad_numbers)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	BAD2(&r, "cbo0/event=0x34,umask=zz/", "cbo0/event=0x34,umask=zz/", 23,
	     "'zz' is not a number");
	BAD2(&r, "cbo0/event=0x34,umask=0x8g/", "cbo0/event=0x34,umask=0x8g/", 23,
	     "'0x8g' is not a number");
	BAD2(&r, "cbo0/event=-1,umask=0x8f/", "cbo0/event=-1,umask=0x8f/", 12,
	     "'-1' is not a number");
	BAD2(&r, "cbo0/event=0x,umask=0x8f/", "cbo0/event=0x,umask=0x8f/", 12,
	     "'0x' is not a number");
	BAD2(&r, "cbo0/event=0x-1,umask=0x8f/", "cbo0/event=0x-1,umask=0x8f/", 12,
	     "'0x-1' is not a number");
	BAD2(&r, "cbo0/event=0x 34,umask=0x8f/", "cbo0/event=0x 34,umask=0x8f/", 12,
	     "is not a number");
	BAD2(&r, "cbo0/event=0x34,umask=0x8f,thresh=/", "cbo0/event=0x34,umask=0x8f,thresh=/", 35,
	     "is not a number");
	rig_close(&r);
}

CT_TEST(bad_field_range)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	/* SKL Table 2-7: THR is 5 bits, UMASK and EVT_SEL 8 */
	BAD2(&r, "cbo0/event=0x34,umask=0x8f,thresh=32/", "cbo0/event=0x34,umask=0x8f,thresh=32/",
	     35, "thresh=32 out of range: the field is 5 bits, max 31");
	BAD2(&r, "arb/event=0x80,umask=1,cmask=0x20/", "arb/event=0x80,umask=1,cmask=0x20/", 30,
	     "out of range: the field is 5 bits");
	BAD2(&r, "cbo0/event=0x34,umask=0x100/", "cbo0/event=0x34,umask=0x100/", 23,
	     "umask=256 out of range: the field is 8 bits, max 255");
	BAD2(&r, "cbo0/event=0x100,umask=0x8f/", "cbo0/event=0x100,umask=0x8f/", 12,
	     "event=256 out of range: the field is 8 bits, max 255");
	BAD2(&r, "arb/event=0x80,umask=1,thresh=1,inv=2/", "arb/event=0x80,umask=1,thresh=1,inv=2/",
	     37, "inv=2 out of range");
	rig_close(&r);
}

CT_TEST(bad_slashes_and_empty_events)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	/* the closing slash belongs just past the end */
	BAD2(&r, "cbo0/event=0x34,umask=0x8f", "cbo0/event=0x34,umask=0x8f", 27,
	     "missing closing '/'");
	BAD2(&r, "cbo0/", "cbo0/", 6, "missing closing '/'");
	/* a closing slash with more after it */
	BAD2(&r, "cbo0/event=0x34,umask=0x8f/x", "cbo0/event=0x34,umask=0x8f/x", 28,
	     "after the closing '/'");
	BAD(&r, "uclk,,uclk", -EINVAL, NULL, 6, "empty event");
	BAD(&r, "uclk,", -EINVAL, NULL, 6, "empty event");
	BAD(&r, "uclk, ", -EINVAL, NULL, 6, "empty event");
	BAD(&r, ",uclk", -EINVAL, NULL, 1, "empty event");
	BAD(&r, "", -EINVAL, NULL, 1, "empty event");
	BAD(&r, "cbo0/event=0x34,umask=0x8f/,,uclk", -EINVAL, NULL, 29, "empty event");
	CT_EQ(ucd_nevents(r.d), 0);
	rig_close(&r);
}

/* The manual's rules for a control value (Table 2-7 threshold pipeline,
 * Tables 3-1/3-2 codes and umasks) are refused before any write. */
CT_TEST(bad_encodings)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	BAD2(&r, "cbo0/event=0x34,umask=0x8f,inv/", "cbo0/event=0x34,umask=0x8f,inv/", 1,
	     "THRESH=0");
	BAD2(&r, "cbo0/event=0x34,umask=0x8f,edge/", "cbo0/event=0x34,umask=0x8f,edge/", 1,
	     "THRESH=0");
	BAD2(&r, "arb/event=0x80,umask=1,thresh=0,inv/", "arb/event=0x80,umask=1,thresh=0,inv/", 1,
	     "THRESH=0");
	BAD2(&r, "cbo0/event=0x35,umask=0x8f/", "cbo0/event=0x35,umask=0x8f/", 1,
	     "event code 0x35 is not in the cbo event table");
	BAD2(&r, "arb/event=0x82,umask=0x01/", "arb/event=0x82,umask=0x01/", 1,
	     "event code 0x82 is not in the arb event table");
	BAD2(&r, "cbo0/event=0x22,umask=0x4f/", "cbo0/event=0x22,umask=0x4f/", 1,
	     "umask bits 0x02 of XSNP_RESPONSE are not defined");
	/* umask 0x02 is a data read (D16, Intel's event file); 0x04 is nothing */
	BAD2(&r, "arb/event=0x81,umask=0x04/", "arb/event=0x81,umask=0x04/", 1,
	     "umask bits 0x04 of TRK_REQUESTS are not defined");
	BAD2(&r, "cbo0/event=0x34,umask=0x80/", "cbo0/event=0x34,umask=0x80/", 1,
	     "umask 0x80 selects no sub-event of CACHE_LOOKUP");
	BAD2(&r, "cbo0/event=0x34,umask=0x0f/", "cbo0/event=0x34,umask=0x0f/", 1,
	     "selects no sub-event");
	BAD2(&r, "cbo0/event=0x34/", "cbo0/event=0x34/", 1, "selects no sub-event");
	/* a named event's umask replaced by one that selects nothing */
	BAD2(&r, "cbo0/CACHE_LOOKUP.ANY_MESI,umask=0x0f/", "cbo0/CACHE_LOOKUP.ANY_MESI,umask=0x0f/",
	     1, "selects no sub-event");
	BAD2(&r, "imc/event=0x5050/", "imc/event=0x5050/", 5, "imc counters have no 'event' field");
	BAD2(&r, "imc/data_reads,umask=1/", "imc/data_reads,umask=1/", 16,
	     "imc counters have no 'umask' field");
	BAD2(&r, "clock/event=0/", "clock/event=0/", 7, "clock counters have no 'event' field");
	BAD2(&r, "clock/uclk,inv/", "clock/uclk,inv/", 12, "no 'inv' field");
	CT_EQ(ucd_nevents(r.d), 0);
	CT_EQ(ucm_strict_count(r.m), 0);
	rig_close(&r);
}

/* ---- placement ---- */

CT_TEST(place_counter0_only_twice)
{
	struct rig r;
	const char *msg;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	/* SKL Table 3-2: TRK_OCCUPANCY may only use counter 0 */
	CT_EQ(ucd_add_events(r.d, "UNC_ARB_TRK_OCCUPANCY.ALL,UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST"),
	      -ENOSPC);
	msg = ucd_error(r.d);
	CT_CONTAINS(msg, "cannot place 'UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST'");
	CT_CHECK(has_col(msg, 27));
	CT_CONTAINS(msg, "on arb0");
	CT_CONTAINS(msg, "counter(s) 0 of 2");
	CT_CONTAINS(msg, "SKL Table 3-2");
	CT_CONTAINS(msg, "taken by 'UNC_ARB_TRK_OCCUPANCY.ALL'");
	CT_EQ(ucd_nevents(r.d), 0);
	CT_EQ(ucd_ncounters(r.d), 0);

	/* the same across two calls, and in a raw form */
	CT_EQ(ucd_add_events(r.d, "arb/event=0x80,umask=1,thresh=2/"), 0);
	CT_EQ(ucd_add_events(r.d, "UNC_ARB_TRK_REQUESTS.ALL,  UNC_ARB_TRK_OCCUPANCY.ALL"), -ENOSPC);
	msg = ucd_error(r.d);
	CT_CONTAINS(msg, "cannot place 'UNC_ARB_TRK_OCCUPANCY.ALL'");
	CT_CHECK(has_col(msg, 28));
	CT_CONTAINS(msg, "counter(s) 0 of 2");
	CT_CONTAINS(msg, "'arb/event=0x80,umask=1,thresh=2/'");
	CT_CONTAINS(msg, "'UNC_ARB_TRK_REQUESTS.ALL'");
	CT_EQ(ucd_nevents(r.d), 1);
	CT_EQ(ucd_ncounters(r.d), 1);
	rig_close(&r);
}

CT_TEST(place_three_on_two_counters)
{
	struct rig r;
	const char *msg;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	CT_EQ(ucd_add_events(r.d, "cbo0/event=0x34,umask=0x8f/,cbo0/event=0x34,umask=0x88/,"
				  "cbo0/event=0x22,umask=0x41/"),
	      -ENOSPC);
	msg = ucd_error(r.d);
	CT_CONTAINS(msg, "cannot place 'cbo0/event=0x22,umask=0x41/'");
	CT_CHECK(has_col(msg, 57));
	CT_CONTAINS(msg, "on cbo0");
	CT_CONTAINS(msg, "counter(s) 0,1 of 2");
	CT_CONTAINS(msg, "'cbo0/event=0x34,umask=0x8f/'");
	CT_CONTAINS(msg, "'cbo0/event=0x34,umask=0x88/'");
	CT_EQ(ucd_nevents(r.d), 0);

	/* named CBo events count in every CBo: the third fails on the first */
	CT_EQ(ucd_add_events(r.d, "UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CBO_CACHE_LOOKUP.ANY_I,"
				  "UNC_CBO_XSNP_RESPONSE.HIT_XCORE"),
	      -ENOSPC);
	msg = ucd_error(r.d);
	CT_CONTAINS(msg, "cannot place 'UNC_CBO_XSNP_RESPONSE.HIT_XCORE'");
	CT_CHECK(has_col(msg, 58));
	CT_CONTAINS(msg, "on cbo0");

	/* on different CBos they fit */
	CT_EQ(ucd_add_events(r.d, "cbo0/event=0x34,umask=0x8f/,cbo0/event=0x34,umask=0x88/,"
				  "cbo1/event=0x22,umask=0x41/,arb/event=0x81,umask=1/"),
	      0);
	CT_EQ(ucd_nevents(r.d), 4);
	CT_EQ(ucd_ncounters(r.d), 4);
	CT_CHECK(feed(&r, "cbo", -1, "CACHE_LOOKUP.READ_M", 1) == 0);
	SESSION(&r);
	rig_close(&r);
}

/* Backtracking: an event allowed on either counter makes room. */
CT_TEST(place_backtracks)
{
	struct rig r;
	struct ucd_ctrinfo ci;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	CT_EQ(ucd_add_events(r.d, "UNC_ARB_TRK_REQUESTS.ALL"), 0);
	CT_EQ(ucd_add_events(r.d, "UNC_ARB_TRK_OCCUPANCY.ALL"), 0);
	CT_REQUIRE(ucd_ncounters(r.d) == 2);
	CT_REQUIRE(ucd_counter(r.d, 0, &ci) == 0);
	CT_EQ(ci.ctr, 1);
	CT_REQUIRE(ucd_counter(r.d, 1, &ci) == 0);
	CT_EQ(ci.ctr, 0);
	CT_CHECK(feed(&r, "arb", 0, "TRK_OCCUPANCY.ALL", 3) == 0);
	CT_CHECK(feed(&r, "arb", 0, "TRK_REQUESTS.NONWRITES", 1) == 0);
	CT_REQUIRE(ucd_start(r.d) == 0);
	/* as programmed: occupancy in ARB PERFEVTSEL0, requests in 1 */
	CT_EQ(evtsel(&r, -1, 0) & ~(EN_BIT | OVF_EN_BIT), EVTSEL(0x80, 0x01, 0, 0, 0));
	CT_EQ(evtsel(&r, -1, 1) & ~(EN_BIT | OVF_EN_BIT), EVTSEL(0x81, 0x01, 0, 0, 0));
	session(&r, 0, __LINE__);
	rig_close(&r);
}

CT_TEST(place_identical_configs_share)
{
	struct rig r;
	struct ucd_evinfo a, b, c;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	CT_EQ(ucd_add_events(r.d, "UNC_ARB_TRK_OCCUPANCY.ALL,arb/event=0x80,umask=1/,"
				  "arb/TRK_OCCUPANCY.ALL/,UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST"),
	      -ENOSPC);
	CT_EQ(ucd_add_events(r.d, "UNC_ARB_TRK_OCCUPANCY.ALL,arb/event=0x80,umask=1/,"
				  "arb/TRK_OCCUPANCY.ALL/,UNC_ARB_TRK_REQUESTS.ALL"),
	      0);
	CT_EQ(ucd_nevents(r.d), 4);
	/* three CBo events, two identical, on a two-counter box */
	CT_EQ(ucd_add_events(r.d, "cbo0/event=0x34,umask=0x8f/,UNC_CBO_CACHE_LOOKUP.ANY_MESI,"
				  "cbo/CACHE_LOOKUP.ANY_MESI/,cbo0/event=0x34,umask=0x88/"),
	      0);
	CT_EQ(ucd_nevents(r.d), 8);
	CT_CHECK(feed(&r, "arb", 0, "TRK_OCCUPANCY.ALL", 5) == 0);
	CT_CHECK(feed(&r, "cbo", -1, "CACHE_LOOKUP.WRITE_E", 1) == 0);
	SESSION(&r);
	CT_REQUIRE(ucd_event(r.d, 0, &a) == 0 && ucd_event(r.d, 1, &b) == 0 &&
		   ucd_event(r.d, 2, &c) == 0);
	CT_CHECK(a.total > 0);
	CT_EQ(a.total, b.total);
	CT_EQ(a.total, c.total);
	/* cbo0 only; every CBo by name; every CBo raw: the last two share
	 * every counter, and cbo0's with the first */
	CT_REQUIRE(ucd_event(r.d, 4, &a) == 0 && ucd_event(r.d, 5, &b) == 0 &&
		   ucd_event(r.d, 6, &c) == 0);
	CT_CHECK(a.total > 0);
	CT_CHECK(b.total > a.total);
	CT_EQ(b.total, c.total);
	CT_EQ(b.ncounters, 4);
	rig_close(&r);
}

/* A failed add changes nothing: not the events, not the counters the
 * earlier events were given. */
CT_TEST(place_failure_leaves_state)
{
	struct rig r;
	struct ucd_ctrinfo before[2], ci;
	struct ucd_evinfo a, b;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	CT_EQ(ucd_add_events(r.d, "cbo0/event=0x34,umask=0x8f/,cbo0/event=0x34,umask=0x88/"), 0);
	CT_REQUIRE(ucd_ncounters(r.d) == 2);
	CT_REQUIRE(ucd_counter(r.d, 0, &before[0]) == 0 && ucd_counter(r.d, 1, &before[1]) == 0);
	CT_CHECK(before[0].ctr != before[1].ctr);
	CT_EQ(ucd_add_events(r.d, "uclk,cbo0/event=0x22,umask=0x41/"), -ENOSPC);
	CT_CONTAINS(ucd_error(r.d), "col 6");
	CT_EQ(ucd_nevents(r.d), 2);
	CT_EQ(ucd_ncounters(r.d), 2);
	for (size_t i = 0; i < 2; i++) {
		CT_REQUIRE(ucd_counter(r.d, i, &ci) == 0);
		CT_EQ(ci.ctr, before[i].ctr);
		CT_EQ(ci.event, before[i].event);
		CT_CHECK(ci.box == before[i].box);
	}
	/* a parse error after placeable events changes nothing either */
	BAD(&r, "UNC_ARB_TRK_REQUESTS.ALL,cbo0/event=0x34/", -EINVAL,
	    "cbo0/event=0x34/", 26, "selects no sub-event");
	/* counting goes on as before: READ_M is ANY_MESI's, not ANY_I's */
	CT_CHECK(feed(&r, "cbo", 0, "CACHE_LOOKUP.READ_M", 1) == 0);
	SESSION(&r);
	CT_REQUIRE(ucd_event(r.d, 0, &a) == 0 && ucd_event(r.d, 1, &b) == 0);
	CT_CHECK(a.total > 0);
	CT_EQ(b.total, 0);
	rig_close(&r);

	/* after a failure, a valid add and a start work */
	CT_REQUIRE(rig_open(&r, 0) == 0);
	CT_EQ(ucd_add_events(r.d, "UNC_ARB_TRK_OCCUPANCY.ALL,UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST"),
	      -ENOSPC);
	CT_EQ(ucd_add_events(r.d, "cbo9/event=0x34,umask=0x8f/"), -EINVAL);
	CT_EQ(ucd_add_events(r.d, "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST,uclk"), 0);
	CT_EQ(ucd_nevents(r.d), 2);
	CT_EQ(ucd_ncounters(r.d), 2);
	CT_CHECK(feed(&r, "arb", 0, "TRK_OCCUPANCY.ALL", 2) == 0);
	SESSION(&r);
	CT_REQUIRE(ucd_event(r.d, 0, &a) == 0);
	CT_CHECK(a.total > 0);
	rig_close(&r);
}

CT_TEST(no_add_after_start)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	CT_EQ(ucd_start(r.d), -EINVAL); /* nothing to count yet */
	CT_EQ(ucd_add_events(r.d, "uclk"), 0);
	CT_EQ(ucd_start(r.d), 0);
	CT_EQ(ucd_add_events(r.d, "DRAM_DATA_READS"), -EBUSY);
	CT_CONTAINS(ucd_error(r.d), "after start");
	CT_EQ(ucd_nevents(r.d), 1);
	CT_EQ(ucd_ncounters(r.d), 1);
	CT_EQ(ucd_stop(r.d), 0);
	/* stopped is still started: the counts belong to this session */
	CT_EQ(ucd_add_events(r.d, "DRAM_DATA_READS"), -EBUSY);
	CT_EQ(ucd_nevents(r.d), 1);
	CT_EQ(ucd_restore(r.d), 0);
	CT_EQ(ucm_strict_count(r.m), 0);
	rig_close(&r);
}

/* The default set of a bare 'stat' (docs/usage.md: the clock, CBo lookups
 * in any and in I state, ARB requests and occupancy, DRAM reads and
 * writes) parses, in that order, each event on its box with one counter in
 * each instance (4 CBos by default), and places. */
CT_TEST(default_events)
{
	static const struct {
		const char *name, *box;
		unsigned ncounters;
	} want[] = {
		{ "UNC_CLOCK.SOCKET", "clock", 1 }, /* the fixed UCLK counter, Table 2-1 */
		{ "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "cbo", 4 },
		{ "UNC_CBO_CACHE_LOOKUP.ANY_I", "cbo", 4 },
		{ "UNC_ARB_TRK_REQUESTS.ALL", "arb", 1 },
		{ "UNC_ARB_TRK_OCCUPANCY.ALL", "arb", 1 },
		{ "DRAM_DATA_READS", "imc", 1 },
		{ "DRAM_DATA_WRITES", "imc", 1 },
	};
	struct rig r;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	CT_REQUIRE(ucd_default_events(r.d) != NULL);
	CT_EQ(ucd_add_events(r.d, ucd_default_events(r.d)), 0);
	CT_REQUIRE(ucd_nevents(r.d) == sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct ucd_evinfo ei;

		CT_REQUIRE(ucd_event(r.d, i, &ei) == 0);
		CT_STREQ(ei.name, want[i].name);
		CT_STREQ(ei.canonical, want[i].name);
		CT_STREQ(ei.box->name, want[i].box);
		CT_EQ(ei.ncounters, want[i].ncounters);
	}
	SESSION(&r);
	rig_close(&r);
}

/* Issue 18 (12): a term given twice is refused, naming the second and the
 * first with their columns; thresh and cmask are one field. */
CT_TEST(repeated_terms_refused)
{
	static const struct {
		const char *list, *what;
		size_t col;
	} c[] = {
		{ "cbo/event=0x34,umask=0x8f,umask=0x8f/", "'umask' given twice (first 'umask' at col 16)", 27 },
		{ "cbo/event=0x34,umask=0x8f,event=0x22/", "'event' given twice (first 'event' at col 5)", 27 },
		{ "arb/event=0x80,umask=0x1,thresh=1,cmask=2/", "'cmask' given twice (first 'thresh' at col 26)",
		  35 },
		{ "arb/event=0x80,umask=0x1,edge,edge/", "'edge' given twice (first 'edge' at col 26)", 31 },
	};
	struct rig r;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		BAD(&r, c[i].list, -EINVAL, c[i].list, c[i].col, c[i].what);
		/* after a valid event: the columns count from the list's start */
		BAD2(&r, c[i].list, c[i].list, c[i].col, "given twice");
	}
	rig_close(&r);
}

CT_MAIN()
