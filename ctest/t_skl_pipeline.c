/*
 * t_skl_pipeline.c - the Skylake-client counting pipeline in the model:
 * sub-event selection by EVT_SEL/UMASK (Tables 3-1, 3-2), threshold, invert
 * and edge detect (Table 2-7, D4), local and global enables (Tables 2-2,
 * 2-4, 2-7), counter widths and wraps (Tables 1-2, 2-5, 2-8, 3-3, D12),
 * overflow status, PMI routing, wake and freeze (Tables 2-2, 2-3, D1, D2,
 * D10), maximum increments (D6/D7) and the passage of time (per access, D8).
 *
 * Expected counts are computed here from the manual's semantics written out
 * below (which umask bits select which sub-event, what THR/INV/E do), never
 * read back from the model.  Unless a test is about time, register accesses
 * cost no simulated time, so a count is exactly inputs x cycles run.
 */
#include <errno.h>
#include <stdlib.h>

#include "ct.h"
#include "ct_skl.h"
#include "ucm.h"

/* Table 2-2 */
#define G_FRZ BIT(31)
#define G_WAKE BIT(30)
#define G_EN BIT(29)
/* Table 2-3 with D1 */
#define ST_CBO BIT(3)
#define ST_ARB BIT(1)
#define ST_FIXED BIT(0)
/* Table 2-4 with D13 */
#define FX_EN BIT(22)
#define FX_OVF BIT(20)

/* Counter widths: Table 1-2, 2-5, 2-8, 3-3 */
#define W44 (1ull << 44)
#define W48 (1ull << 48)
#define W32 (1ull << 32)

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- rig ---- */

struct rig {
	struct ucm_model *m;
	int cbo[4], arb, clk, imc;
};

static const struct ucm_platform *skl(void)
{
	return ucm_platform_find("skl");
}

/* A Skylake model with 4 CBos; free accesses unless costs. */
static int rig_open_cfg(struct rig *r, struct ucm_config *cfg)
{
	memset(r, 0, sizeof(*r));
	if (ucm_create(cfg, &r->m)) {
		ucm_destroy(r->m);
		r->m = NULL;
		return -1;
	}
	for (unsigned n = 0; n < 4; n++)
		r->cbo[n] = ucm_box_find(r->m, 0, "cbo", n);
	r->arb = ucm_box_find(r->m, 0, "arb", 0);
	r->clk = ucm_box_find(r->m, 0, "clock", 0);
	r->imc = ucm_box_find(r->m, 0, "imc", 0);
	return r->cbo[3] < 0 || r->arb < 0 || r->clk < 0 || r->imc < 0 ? -1 : 0;
}

static int rig_open(struct rig *r, int strict)
{
	struct ucm_config cfg;

	ucm_config_init(&cfg, skl());
	cfg.strict = strict;
	for (unsigned s = 0; s < UCM_NSPACES; s++)
		cfg.access_ps[s] = 0;
	return rig_open_cfg(r, &cfg);
}

static void rig_close(struct rig *r)
{
	ucm_destroy(r->m);
}

static void wr(struct rig *r, uint32_t addr, uint64_t v)
{
	int rc = ucm_msr_write(r->m, 0, addr, v);

	if (rc)
		ct_fail(__FILE__, __LINE__, "wrmsr 0x%x <- 0x%llx: %d (%s)", addr,
			(unsigned long long)v, rc, ucm_error(r->m));
}

static uint64_t rd(struct rig *r, uint32_t addr)
{
	uint64_t v = 0;
	int rc = ucm_msr_read(r->m, 0, addr, &v);

	if (rc)
		ct_fail(__FILE__, __LINE__, "rdmsr 0x%x: %d (%s)", addr, rc, ucm_error(r->m));
	return v;
}

static uint64_t imc_rd(struct rig *r, unsigned off)
{
	uint64_t v = 0;
	int rc = ucm_mmio_read(r->m, MCHBAR_BASE + off, 4, &v);

	if (rc)
		ct_fail(__FILE__, __LINE__, "MMIO read BAR+0x%x: %d (%s)", off, rc, ucm_error(r->m));
	return v;
}

static void run(struct rig *r, uint64_t n)
{
	int rc = ucm_run_cycles(r->m, 0, n);

	if (rc)
		ct_fail(__FILE__, __LINE__, "run %llu cycles: %d (%s)", (unsigned long long)n, rc,
			ucm_error(r->m));
}

static int subev(struct rig *r, int box, const char *name)
{
	int s = ucm_subev_find(ucm_box_def(r->m, box)->type, name);

	if (s < 0)
		ct_fail(__FILE__, __LINE__, "no sub-event %s", name);
	return s;
}

/* Constant per-cycle input of a sub-event; must be accepted. */
static void in(struct rig *r, int box, const char *name, uint32_t inc)
{
	int s = subev(r, box, name), rc;

	if (s < 0)
		return;
	rc = ucm_set_input(r->m, box, (unsigned)s, inc);
	if (rc)
		ct_fail(__FILE__, __LINE__, "input %s = %u: %d (%s)", name, inc, rc, ucm_error(r->m));
}

static uint64_t total(struct rig *r, int box, unsigned ctr)
{
	struct ucm_truth t;

	memset(&t, 0, sizeof(t));
	if (ucm_truth(r->m, box, ctr, &t))
		ct_fail(__FILE__, __LINE__, "no truth for box %d counter %u", box, ctr);
	return t.total;
}

static uint64_t wraps(struct rig *r, int box, unsigned ctr)
{
	struct ucm_truth t;

	memset(&t, 0, sizeof(t));
	ucm_truth(r->m, box, ctr, &t);
	return t.wraps;
}

static void no_strict(struct rig *r)
{
	char buf[512];

	for (size_t i = 0; i < ucm_strict_count(r->m); i++) {
		ucm_strict_format(r->m, i, buf, sizeof(buf));
		ct_fail(__FILE__, __LINE__, "unexpected strict record: %s", buf);
	}
}

/* ---- umask selection: Tables 3-1 and 3-2 ---- */

/* Table 3-1, CACHE_LOOKUP (0x34): umask bits 7:4 select the request type
 * (0x10 read, 0x20 write, 0x80 any request: reads, writes and the others),
 * bits 3:0 the line state (0x1 M, 0x2 E, 0x4 S, 0x8 I); a lookup counts when
 * the umask selects both its request type and its state. */
static const struct {
	const char *name;
	uint8_t sel;
} lookup_req[] = {
	{ "READ", 0x10 | 0x80 }, { "WRITE", 0x20 | 0x80 }, { "OTHER", 0x80 },
}, lookup_state[] = {
	{ "M", 0x01 }, { "E", 0x02 }, { "S", 0x04 }, { "I", 0x08 },
};

/* Table 3-1 rows of CACHE_LOOKUP */
static const struct {
	const char *name;
	uint8_t umask;
} lookup_rows[] = {
	{ "WRITE_M", 0x21 }, { "ANY_M", 0x81 }, { "READ_I", 0x18 }, { "ANY_I", 0x88 },
	{ "READ_MESI", 0x1F }, { "WRITE_MESI", 0x2F }, { "ANY_MESI", 0x8F },
	{ "ANY_ES", 0x86 }, { "READ_ES", 0x16 }, { "WRITE_ES", 0x26 },
};

/* Table 3-1, XSNP_RESPONSE (0x22): bits 7:4 who initiated the snoop (0x40 a
 * core request, "XCORE"; 0x80 an LLC eviction), bits 3:0 the response (0x1
 * miss, 0x4 hit a non-modified line, 0x8 hit a modified line). */
static const struct {
	const char *name;
	uint8_t sel;
} xsnp_init[] = {
	{ "XCORE", 0x40 }, { "EVICTION", 0x80 },
}, xsnp_resp[] = {
	{ "MISS", 0x01 }, { "HIT", 0x04 }, { "HITM", 0x08 },
};

static const struct {
	const char *name;
	uint8_t umask;
} xsnp_rows[] = {
	{ "MISS_XCORE", 0x41 }, { "MISS_EVICTION", 0x81 }, { "HIT_XCORE", 0x44 },
	{ "HITM_XCORE", 0x48 },
};

/* Every CACHE_LOOKUP sub-event fed alone on one CBo against every umask row
 * of Table 3-1, programmed on both counters of all four CBos: the CBo fed
 * counts N on both counters exactly when the row selects the sub-event, the
 * other CBos count nothing (1.1: counters in one unit cannot count events of
 * a different unit).  Strict mode: every row is clean. */
CT_TEST(cache_lookup_every_subevent_against_every_row)
{
	struct rig r;
	const uint64_t N = 37;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	wr(&r, GCTL, G_EN);
	for (size_t row = 0; row < NELEM(lookup_rows); row++) {
		for (unsigned n = 0; n < 4; n++)
			for (unsigned c = 0; c < 2; c++)
				wr(&r, CBO_SEL(n, c), SEL_EN | EV(0x34, lookup_rows[row].umask));
		for (size_t q = 0; q < NELEM(lookup_req); q++)
			for (size_t s = 0; s < NELEM(lookup_state); s++) {
				uint8_t u = lookup_rows[row].umask;
				uint64_t want = (u & lookup_req[q].sel) && (u & lookup_state[s].sel) ? N : 0;
				char name[64];

				snprintf(name, sizeof(name), "CACHE_LOOKUP.%s_%s", lookup_req[q].name,
					 lookup_state[s].name);
				for (unsigned fed = 0; fed < 4; fed++) {
					ucm_clear_inputs(r.m);
					in(&r, r.cbo[fed], name, 1);
					for (unsigned n = 0; n < 4; n++)
						for (unsigned c = 0; c < 2; c++)
							wr(&r, CBO_CTR(n, c), 0);
					run(&r, N);
					for (unsigned n = 0; n < 4; n++)
						for (unsigned c = 0; c < 2; c++) {
							uint64_t v = rd(&r, CBO_CTR(n, c));
							uint64_t w = n == fed ? want : 0;

							if (v != w)
								ct_fail(__FILE__, __LINE__,
									"%s umask 0x%02x, %s fed on cbo%u: cbo%u ctr%u = %llu, expected %llu",
									lookup_rows[row].name, u, name, fed, n, c,
									(unsigned long long)v, (unsigned long long)w);
						}
				}
			}
	}
	no_strict(&r);
	rig_close(&r);
}

/* The same semantics for every umask made of defined CACHE_LOOKUP bits
 * (7, 5, 4, 3:0; 0x40 is undefined), not only the table's rows. */
CT_TEST(cache_lookup_every_defined_umask)
{
	struct rig r;
	const uint64_t N = 5;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	wr(&r, GCTL, G_EN);
	for (unsigned u = 0; u < 256; u++) {
		if (u & 0x40)
			continue;
		wr(&r, CBO_SEL(2, 1), SEL_EN | EV(0x34, u));
		for (size_t q = 0; q < NELEM(lookup_req); q++)
			for (size_t s = 0; s < NELEM(lookup_state); s++) {
				uint64_t want = (u & lookup_req[q].sel) && (u & lookup_state[s].sel) ? N : 0;
				char name[64];
				uint64_t v;

				snprintf(name, sizeof(name), "CACHE_LOOKUP.%s_%s", lookup_req[q].name,
					 lookup_state[s].name);
				ucm_clear_inputs(r.m);
				in(&r, r.cbo[2], name, 1);
				wr(&r, CBO_CTR(2, 1), 0);
				run(&r, N);
				v = rd(&r, CBO_CTR(2, 1));
				if (v != want)
					ct_fail(__FILE__, __LINE__, "umask 0x%02x %s: %llu, expected %llu", u,
						name, (unsigned long long)v, (unsigned long long)want);
			}
	}
	rig_close(&r);
}

/* Lookups of different kinds in successive cycles add up: a 12-cycle
 * pattern visiting every sub-event once, repeated, counts for each row the
 * number of cycles whose sub-event the row selects. */
CT_TEST(cache_lookup_mixed_sequence_sums)
{
	struct rig r;
	const unsigned reps = 3;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	wr(&r, GCTL, G_EN);
	for (size_t row = 0; row < NELEM(lookup_rows); row += 2) {
		uint8_t u0 = lookup_rows[row].umask, u1 = lookup_rows[row + 1].umask;
		uint64_t want0 = 0, want1 = 0;

		wr(&r, CBO_SEL(1, 0), SEL_EN | EV(0x34, u0));
		wr(&r, CBO_SEL(1, 1), SEL_EN | EV(0x34, u1));
		wr(&r, CBO_CTR(1, 0), 0);
		wr(&r, CBO_CTR(1, 1), 0);
		for (unsigned k = 0; k < reps; k++)
			for (size_t q = 0; q < NELEM(lookup_req); q++)
				for (size_t s = 0; s < NELEM(lookup_state); s++) {
					char name[64];

					snprintf(name, sizeof(name), "CACHE_LOOKUP.%s_%s",
						 lookup_req[q].name, lookup_state[s].name);
					ucm_clear_inputs(r.m);
					in(&r, r.cbo[1], name, 1);
					run(&r, 1);
					want0 += (u0 & lookup_req[q].sel) && (u0 & lookup_state[s].sel);
					want1 += (u1 & lookup_req[q].sel) && (u1 & lookup_state[s].sel);
				}
		CT_EQ(rd(&r, CBO_CTR(1, 0)), want0);
		CT_EQ(rd(&r, CBO_CTR(1, 1)), want1);
	}
	no_strict(&r);
	rig_close(&r);
}

/* Every XSNP_RESPONSE sub-event against every row of Table 3-1 (0x22). */
CT_TEST(xsnp_response_every_subevent_against_every_row)
{
	struct rig r;
	const uint64_t N = 11;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	wr(&r, GCTL, G_EN);
	for (size_t row = 0; row < NELEM(xsnp_rows); row++) {
		uint8_t u = xsnp_rows[row].umask;

		for (unsigned c = 0; c < 2; c++)
			wr(&r, CBO_SEL(3, c), SEL_EN | EV(0x22, u));
		for (size_t i = 0; i < NELEM(xsnp_init); i++)
			for (size_t s = 0; s < NELEM(xsnp_resp); s++) {
				uint64_t want = (u & xsnp_init[i].sel) && (u & xsnp_resp[s].sel) ? N : 0;
				char name[64];

				snprintf(name, sizeof(name), "XSNP_RESPONSE.%s_%s", xsnp_init[i].name,
					 xsnp_resp[s].name);
				ucm_clear_inputs(r.m);
				in(&r, r.cbo[3], name, 1);
				for (unsigned c = 0; c < 2; c++)
					wr(&r, CBO_CTR(3, c), 0);
				run(&r, N);
				for (unsigned c = 0; c < 2; c++) {
					uint64_t v = rd(&r, CBO_CTR(3, c));

					if (v != want)
						ct_fail(__FILE__, __LINE__, "%s (0x%02x), %s: ctr%u %llu, expected %llu",
							xsnp_rows[row].name, u, name, c,
							(unsigned long long)v, (unsigned long long)want);
				}
			}
	}
	/* the lookups of the same CBo are a different event: not counted */
	ucm_clear_inputs(r.m);
	in(&r, r.cbo[3], "CACHE_LOOKUP.READ_M", 1);
	wr(&r, CBO_CTR(3, 0), 0);
	run(&r, N);
	CT_EQ(rd(&r, CBO_CTR(3, 0)), 0);
	no_strict(&r);
	rig_close(&r);
}

/* Table 3-2: TRK_REQUESTS (0x81) umask 0x01 counts all allocations (writes
 * and the rest), 0x20 only writes; COH_TRK_REQUESTS.ALL (0x84/0x01) counts
 * its input; TRK_OCCUPANCY.ALL (0x80/0x01) adds the number of valid entries
 * each cycle.  On both ARB counters (TRK_OCCUPANCY: counter 0 only). */
CT_TEST(arb_events_of_table_3_2)
{
	struct rig r;
	const uint64_t N = 23;
	uint64_t t0;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	wr(&r, GCTL, G_EN);
	for (unsigned c = 0; c < 2; c++) {
		static const struct {
			const char *sub;
			uint64_t all, writes;
		} trk[] = { { "TRK_REQUESTS.WRITES", 1, 1 }, { "TRK_REQUESTS.NONWRITES", 1, 0 } };

		for (size_t k = 0; k < NELEM(trk); k++) {
			ucm_clear_inputs(r.m);
			in(&r, r.arb, trk[k].sub, 1);
			wr(&r, ARB_SEL(c), SEL_EN | EV(0x81, 0x01));
			wr(&r, ARB_CTR(c), 0);
			run(&r, N);
			CT_EQ(rd(&r, ARB_CTR(c)), N * trk[k].all);
			wr(&r, ARB_SEL(c), SEL_EN | EV(0x81, 0x20));
			wr(&r, ARB_CTR(c), 0);
			run(&r, N);
			CT_EQ(rd(&r, ARB_CTR(c)), N * trk[k].writes);
			/* COH_TRK_REQUESTS is another input */
			wr(&r, ARB_SEL(c), SEL_EN | EV(0x84, 0x01));
			wr(&r, ARB_CTR(c), 0);
			run(&r, N);
			CT_EQ(rd(&r, ARB_CTR(c)), 0);
		}
		ucm_clear_inputs(r.m);
		in(&r, r.arb, "COH_TRK_REQUESTS.ALL", 1);
		wr(&r, ARB_SEL(c), SEL_EN | EV(0x84, 0x01));
		wr(&r, ARB_CTR(c), 0);
		run(&r, N);
		CT_EQ(rd(&r, ARB_CTR(c)), N);
	}
	ucm_clear_inputs(r.m);
	in(&r, r.arb, "TRK_OCCUPANCY.ALL", 17);
	wr(&r, ARB_SEL(0), SEL_EN | EV(0x80, 0x01));
	wr(&r, ARB_CTR(0), 0);
	t0 = total(&r, r.arb, 0);
	run(&r, N);
	CT_EQ(rd(&r, ARB_CTR(0)), 17 * N);
	CT_EQ(total(&r, r.arb, 0) - t0, 17 * N);
	no_strict(&r);
	rig_close(&r);
}

/* D5: UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST is 0x80/0x01 with THR=1:
 * it counts the cycles with at least one valid entry, while .ALL (THR=0)
 * adds the entries. */
CT_TEST(arb_cycles_with_any_request_is_thr_1)
{
	static const uint32_t occ[] = { 0, 3, 0, 0, 32, 1, 1, 0, 17, 2, 0, 0, 5 };
	struct rig r;
	uint64_t sum = 0, busy = 0;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	wr(&r, GCTL, G_EN);
	for (size_t i = 0; i < NELEM(occ); i++) {
		sum += occ[i];
		busy += occ[i] >= 1;
	}
	for (int thr = 0; thr <= 1; thr++) {
		wr(&r, ARB_SEL(0), SEL_EN | SEL_THR(thr) | EV(0x80, 0x01));
		wr(&r, ARB_CTR(0), 0);
		for (size_t i = 0; i < NELEM(occ); i++) {
			in(&r, r.arb, "TRK_OCCUPANCY.ALL", occ[i]);
			run(&r, 1);
		}
		CT_EQ(rd(&r, ARB_CTR(0)), thr ? busy : sum);
	}
	no_strict(&r);
	rig_close(&r);
}

/* ---- threshold, invert, edge: Table 2-7 with D4 ---- */

/* Table 2-7 THR/INV/E with D4, one cycle: the counter's output for a raw
 * increment inc given the previous compare result *prev (the edge latch). */
static uint64_t expect_cycle(uint32_t inc, unsigned thr, int inv, int e, int *prev)
{
	int cmp;
	uint64_t out;

	if (thr == 0)
		return inc; /* compare disabled: INV and E have no effect (D4) */
	cmp = inv ? inc < thr : inc >= thr;
	out = e ? (cmp && !*prev) : (uint64_t)cmp;
	*prev = cmp;
	return out;
}

/* Constant input: every THR (0..31 sampled), INV, E and increment (0..32
 * of TRK_OCCUPANCY) for N cycles after the control write (which clears the
 * edge latch, D4).  Strict mode records exactly the INV/E-with-THR=0
 * programmings (D4), one each. */
CT_TEST(threshold_invert_edge_constant_input)
{
	static const uint32_t incs[] = { 0, 1, 2, 4, 5, 6, 30, 31, 32 };
	static const unsigned thrs[] = { 0, 1, 2, 5, 6, 31 };
	struct rig r;
	const uint64_t N = 9;
	size_t want_recs = 0;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	wr(&r, GCTL, G_EN);
	for (size_t t = 0; t < NELEM(thrs); t++)
		for (int inv = 0; inv <= 1; inv++)
			for (int e = 0; e <= 1; e++)
				for (size_t i = 0; i < NELEM(incs); i++) {
					uint64_t sel = SEL_EN | SEL_THR(thrs[t]) | (inv ? SEL_INV : 0) |
						       (e ? SEL_E : 0) | EV(0x80, 0x01);
					uint64_t want = 0, v;
					int prev = 0;

					for (uint64_t k = 0; k < N; k++)
						want += expect_cycle(incs[i], thrs[t], inv, e, &prev);
					wr(&r, ARB_SEL(0), 0);
					in(&r, r.arb, "TRK_OCCUPANCY.ALL", incs[i]);
					wr(&r, ARB_CTR(0), 0);
					wr(&r, ARB_SEL(0), sel);
					want_recs += thrs[t] == 0 && (inv || e);
					run(&r, N);
					v = rd(&r, ARB_CTR(0));
					if (v != want)
						ct_fail(__FILE__, __LINE__,
							"THR=%u INV=%d E=%d inc=%u: %llu, expected %llu", thrs[t],
							inv, e, incs[i], (unsigned long long)v,
							(unsigned long long)want);
				}
	CT_EQ(ucm_strict_count(r.m), want_recs);
	for (size_t i = 0; i < ucm_strict_count(r.m); i++)
		CT_CONTAINS(ucm_strict_get(r.m, i)->rule, "THRESH=0");
	rig_close(&r);
}

/* Inputs changing every cycle (single-cycle segments): THR compares each
 * cycle's increment, INV reverses it, E counts rising edges of the compare
 * result across cycles (D4); THR=0 adds the raw increments whatever INV and
 * E say.  On the ARB (increments 0..32) and on a CBo (0/1 lookups). */
CT_TEST(threshold_invert_edge_alternating_input)
{
	static const uint32_t occ[] = {
		0, 1, 3, 3, 0, 0, 5, 32, 31, 2, 2, 0, 7, 1, 0, 4, 4, 4, 0, 6, 5, 6, 5, 0, 0, 1,
	};
	static const uint32_t look[] = { 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0, 1, 0, 0, 0, 1 };
	static const unsigned thrs[] = { 0, 1, 2, 3, 4, 5, 6, 31 };
	struct rig r;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	wr(&r, GCTL, G_EN);
	for (size_t t = 0; t < NELEM(thrs); t++)
		for (int inv = 0; inv <= 1; inv++)
			for (int e = 0; e <= 1; e++) {
				uint64_t flags = SEL_EN | SEL_THR(thrs[t]) | (inv ? SEL_INV : 0) |
						 (e ? SEL_E : 0);
				uint64_t want = 0, v;
				int prev = 0;

				/* ARB, TRK_OCCUPANCY */
				in(&r, r.arb, "TRK_OCCUPANCY.ALL", 0);
				wr(&r, ARB_CTR(0), 0);
				wr(&r, ARB_SEL(0), flags | EV(0x80, 0x01));
				for (size_t k = 0; k < NELEM(occ); k++) {
					in(&r, r.arb, "TRK_OCCUPANCY.ALL", occ[k]);
					run(&r, 1);
					want += expect_cycle(occ[k], thrs[t], inv, e, &prev);
				}
				v = rd(&r, ARB_CTR(0));
				if (v != want)
					ct_fail(__FILE__, __LINE__, "ARB THR=%u INV=%d E=%d: %llu, expected %llu",
						thrs[t], inv, e, (unsigned long long)v,
						(unsigned long long)want);
				/* CBo 0 counter 1, CACHE_LOOKUP.ANY_MESI fed READ_S */
				want = 0;
				prev = 0;
				in(&r, r.cbo[0], "CACHE_LOOKUP.READ_S", 0);
				wr(&r, CBO_CTR(0, 1), 0);
				wr(&r, CBO_SEL(0, 1), flags | EV(0x34, 0x8F));
				for (size_t k = 0; k < NELEM(look); k++) {
					in(&r, r.cbo[0], "CACHE_LOOKUP.READ_S", look[k]);
					run(&r, 1);
					want += expect_cycle(look[k], thrs[t], inv, e, &prev);
				}
				v = rd(&r, CBO_CTR(0, 1));
				if (v != want)
					ct_fail(__FILE__, __LINE__, "CBo THR=%u INV=%d E=%d: %llu, expected %llu",
						thrs[t], inv, e, (unsigned long long)v,
						(unsigned long long)want);
			}
	rig_close(&r);
}

/* D4: the edge latch is cleared by a write of the control register (even
 * of the same value): a constant true compare gives one edge per write.
 * Writing the counter or GLOBAL_CTRL does not clear it. */
CT_TEST(edge_latch_cleared_by_control_write)
{
	struct rig r;
	const uint64_t sel = SEL_EN | SEL_E | SEL_THR(1) | EV(0x80, 0x01);

	CT_REQUIRE(rig_open(&r, 1) == 0);
	wr(&r, GCTL, G_EN);
	in(&r, r.arb, "TRK_OCCUPANCY.ALL", 5);
	wr(&r, ARB_SEL(0), sel);
	run(&r, 10);
	CT_EQ(rd(&r, ARB_CTR(0)), 1);
	run(&r, 10);
	CT_EQ(rd(&r, ARB_CTR(0)), 1);
	wr(&r, ARB_SEL(0), sel);
	run(&r, 10);
	CT_EQ(rd(&r, ARB_CTR(0)), 2);
	wr(&r, ARB_CTR(0), 0);
	wr(&r, GCTL, G_EN);
	run(&r, 10);
	CT_EQ(rd(&r, ARB_CTR(0)), 0);
	wr(&r, ARB_SEL(0), sel);
	run(&r, 1);
	CT_EQ(rd(&r, ARB_CTR(0)), 1);
	no_strict(&r);
	rig_close(&r);
}

/* D4: the edge latch only updates while the counter counts.  A compare that
 * becomes true while GLOBAL_CTRL.EN is clear is still a rising edge when
 * counting resumes; one that was true before the pause and stays true over
 * a pause during which the input dropped is not. */
CT_TEST(edge_latch_held_while_not_counting)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	wr(&r, GCTL, G_EN);
	wr(&r, ARB_SEL(0), SEL_EN | SEL_E | SEL_THR(2) | EV(0x80, 0x01));
	/* latch 0; pause; compare true during the pause; resume: one edge */
	in(&r, r.arb, "TRK_OCCUPANCY.ALL", 1);
	run(&r, 3);
	wr(&r, GCTL, 0);
	in(&r, r.arb, "TRK_OCCUPANCY.ALL", 9);
	run(&r, 3);
	CT_EQ(rd(&r, ARB_CTR(0)), 0);
	wr(&r, GCTL, G_EN);
	run(&r, 3);
	CT_EQ(rd(&r, ARB_CTR(0)), 1);
	/* latch 1; pause with the compare false; resume true: no edge */
	wr(&r, GCTL, 0);
	in(&r, r.arb, "TRK_OCCUPANCY.ALL", 0);
	run(&r, 3);
	in(&r, r.arb, "TRK_OCCUPANCY.ALL", 9);
	wr(&r, GCTL, G_EN);
	run(&r, 3);
	CT_EQ(rd(&r, ARB_CTR(0)), 1);
	/* while counting the same drop and rise is an edge */
	in(&r, r.arb, "TRK_OCCUPANCY.ALL", 0);
	run(&r, 1);
	in(&r, r.arb, "TRK_OCCUPANCY.ALL", 9);
	run(&r, 1);
	CT_EQ(rd(&r, ARB_CTR(0)), 2);
	no_strict(&r);
	rig_close(&r);
}

/* ---- enables: Tables 2-2, 2-4, 2-7 ---- */

/* Table 2-7 EN: a counter counts only while its EN is set; clearing EN
 * keeps the value.  Every CBo/ARB counter. */
CT_TEST(local_enable)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	wr(&r, GCTL, G_EN);
	for (unsigned n = 0; n < 4; n++)
		in(&r, r.cbo[n], "CACHE_LOOKUP.WRITE_E", 1);
	in(&r, r.arb, "TRK_REQUESTS.WRITES", 1);
	for (unsigned c = 0; c < 2; c++) {
		for (unsigned n = 0; n < 4; n++)
			wr(&r, CBO_SEL(n, c), EV(0x34, 0x22));
		wr(&r, ARB_SEL(c), EV(0x81, 0x20));
	}
	run(&r, 20);
	for (unsigned c = 0; c < 2; c++) {
		for (unsigned n = 0; n < 4; n++) {
			CT_EQ(rd(&r, CBO_CTR(n, c)), 0);
			wr(&r, CBO_SEL(n, c), SEL_EN | EV(0x34, 0x22));
		}
		CT_EQ(rd(&r, ARB_CTR(c)), 0);
		wr(&r, ARB_SEL(c), SEL_EN | EV(0x81, 0x20));
	}
	run(&r, 20);
	for (unsigned c = 0; c < 2; c++) {
		for (unsigned n = 0; n < 4; n++) {
			CT_EQ(rd(&r, CBO_CTR(n, c)), 20);
			wr(&r, CBO_SEL(n, c), EV(0x34, 0x22));
		}
		CT_EQ(rd(&r, ARB_CTR(c)), 20);
		wr(&r, ARB_SEL(c), EV(0x81, 0x20));
	}
	run(&r, 20);
	for (unsigned c = 0; c < 2; c++) {
		for (unsigned n = 0; n < 4; n++)
			CT_EQ(rd(&r, CBO_CTR(n, c)), 20);
		CT_EQ(rd(&r, ARB_CTR(c)), 20);
	}
	no_strict(&r);
	rig_close(&r);
}

/* Table 2-2 EN: locally enabled counters (CBo, ARB, fixed) count only while
 * GLOBAL_CTRL.EN (bit 29) is set; no other GLOBAL_CTRL bit enables them. */
CT_TEST(global_enable)
{
	struct rig r;
	static const uint64_t gvals[] = { 0, G_FRZ | G_WAKE | 0xF, G_EN, 0, G_EN | 0x5 };
	uint64_t want = 0;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	in(&r, r.cbo[2], "CACHE_LOOKUP.OTHER_I", 1);
	in(&r, r.arb, "TRK_OCCUPANCY.ALL", 3);
	wr(&r, CBO_SEL(2, 0), SEL_EN | EV(0x34, 0x88));
	wr(&r, ARB_SEL(0), SEL_EN | EV(0x80, 0x01));
	wr(&r, FIXED_CTRL, FX_EN);
	for (size_t i = 0; i < NELEM(gvals); i++) {
		wr(&r, GCTL, gvals[i]);
		run(&r, 100);
		if (gvals[i] & G_EN)
			want += 100;
		CT_EQ(rd(&r, CBO_CTR(2, 0)), want);
		CT_EQ(rd(&r, ARB_CTR(0)), 3 * want);
		CT_EQ(rd(&r, FIXED_CTR), want);
	}
	no_strict(&r);
	rig_close(&r);
}

/* Table 2-4, 2-5 with D13: the fixed counter adds 1 per uclk cycle when
 * CNT_EN (bit 22) and GLOBAL_CTRL.EN are set, whatever the inputs; OVF_EN or
 * a reserved bit alone do not enable it. */
CT_TEST(fixed_counter_counts_uclk)
{
	static const struct {
		uint64_t ctrl;
		int counts;
	} cases[] = {
		{ 0, 0 }, { FX_OVF, 0 }, { BIT(21), 0 }, { BIT(23), 0 }, { BIT(0), 0 },
		{ FX_EN, 1 }, { FX_EN | FX_OVF, 1 },
	};
	struct rig r;

	CT_REQUIRE(rig_open(&r, 0) == 0);
	wr(&r, GCTL, G_EN);
	for (size_t i = 0; i < NELEM(cases); i++) {
		wr(&r, FIXED_CTR, 0);
		wr(&r, FIXED_CTRL, cases[i].ctrl);
		run(&r, 12345);
		CT_EQ(rd(&r, FIXED_CTR), cases[i].counts ? 12345 : 0);
	}
	CT_EQ(total(&r, r.clk, 0), 2 * 12345);
	rig_close(&r);
}

/* 3.3: the IMC counters are free-running and always running: they count
 * their input with GLOBAL_CTRL.EN clear, while other counters are frozen by
 * FRZ_ON_PMI, and each counts only its own input. */
CT_TEST(imc_counters_free_running)
{
	static const struct {
		const char *sub;
		unsigned off;
	} imc[] = {
		{ "DRAM_GT_REQUESTS", 0x5040 }, { "DRAM_IA_REQUESTS", 0x5044 },
		{ "DRAM_IO_REQUESTS", 0x5048 }, { "DRAM_DATA_READS", 0x5050 },
		{ "DRAM_DATA_WRITES", 0x5054 },
	};
	struct rig r;
	uint64_t want[5] = { 0 };

	CT_REQUIRE(rig_open(&r, 1) == 0);
	/* counter k fed during the k+1 first windows of 10 cycles */
	for (unsigned w = 0; w < 5; w++) {
		for (unsigned k = 0; k < 5; k++) {
			in(&r, r.imc, imc[k].sub, k >= w);
			want[k] += k >= w ? 10 : 0;
		}
		run(&r, 10);
	}
	for (unsigned k = 0; k < 5; k++) {
		CT_EQ(imc_rd(&r, imc[k].off), want[k]);
		CT_EQ(ucm_fed(r.m, r.imc, (unsigned)subev(&r, r.imc, imc[k].sub)), want[k]);
	}
	/* frozen uncore: the IMC still counts */
	ucm_clear_inputs(r.m);
	in(&r, r.imc, "DRAM_DATA_READS", 1);
	in(&r, r.cbo[0], "CACHE_LOOKUP.READ_M", 1);
	wr(&r, CBO_CTR(0, 0), W44 - 1);
	wr(&r, CBO_SEL(0, 0), SEL_EN | SEL_OVF | EV(0x34, 0x11));
	wr(&r, GCTL, G_FRZ | G_EN);
	run(&r, 100);
	CT_EQ(rd(&r, GCTL), G_FRZ);
	CT_EQ(rd(&r, CBO_CTR(0, 0)), 0);
	CT_EQ(imc_rd(&r, 0x5050), want[3] + 100);
	no_strict(&r);
	rig_close(&r);
}

/* ---- widths and wraps: Tables 1-2, 2-5, 2-8, 3-3, D12 ---- */

/* Table 2-8 (44-bit), D12: every CBo and ARB counter preloaded with
 * 2^44 - 3 reads 7 after 10 increments; the ground truth saw 10 and one
 * wrap; without OVF_EN no status bit and no PMI (D10).  A write of bits
 * above 43 keeps only the low 44. */
CT_TEST(counters_wrap_at_44_bits)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	wr(&r, GCTL, G_EN);
	for (unsigned n = 0; n < 4; n++)
		in(&r, r.cbo[n], "XSNP_RESPONSE.EVICTION_HITM", 1);
	in(&r, r.arb, "COH_TRK_REQUESTS.ALL", 1);
	for (unsigned c = 0; c < 2; c++) {
		for (unsigned n = 0; n < 4; n++) {
			wr(&r, CBO_CTR(n, c), W44 - 3);
			CT_EQ(rd(&r, CBO_CTR(n, c)), W44 - 3);
			wr(&r, CBO_SEL(n, c), SEL_EN | EV(0x22, 0x88));
		}
		wr(&r, ARB_CTR(c), (W44 - 3) | (0xFFFFFull << 44));
		CT_EQ(rd(&r, ARB_CTR(c)), W44 - 3);
		wr(&r, ARB_SEL(c), SEL_EN | EV(0x84, 0x01));
	}
	ucm_strict_clear(r.m); /* the reserved bits written above */
	run(&r, 10);
	for (unsigned c = 0; c < 2; c++) {
		for (unsigned n = 0; n < 4; n++) {
			CT_EQ(rd(&r, CBO_CTR(n, c)), 7);
			CT_EQ(total(&r, r.cbo[n], c), 10);
			CT_EQ(wraps(&r, r.cbo[n], c), 1);
		}
		CT_EQ(rd(&r, ARB_CTR(c)), 7);
		CT_EQ(total(&r, r.arb, c), 10);
		CT_EQ(wraps(&r, r.arb, c), 1);
	}
	CT_EQ(rd(&r, GSTAT), 0);
	CT_EQ(ucm_pmi_requests(r.m, 0), 0);
	no_strict(&r);
	rig_close(&r);
}

/* Table 2-5: the fixed counter wraps at 2^48; with OVF_EN it wraps twice in
 * 2^48 + 5 cycles from 2^48 - 1 (one PMI request and status each, D10). */
CT_TEST(fixed_counter_wraps_at_48_bits)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	wr(&r, GCTL, G_EN);
	wr(&r, FIXED_CTR, W48 - 4);
	wr(&r, FIXED_CTRL, FX_EN);
	run(&r, 10);
	CT_EQ(rd(&r, FIXED_CTR), 6);
	CT_EQ(wraps(&r, r.clk, 0), 1);
	CT_EQ(rd(&r, GSTAT), 0);
	wr(&r, FIXED_CTR, W48 - 1);
	wr(&r, FIXED_CTRL, FX_EN | FX_OVF);
	run(&r, W48 + 5);
	CT_EQ(rd(&r, FIXED_CTR), 4);
	CT_EQ(wraps(&r, r.clk, 0), 3);
	CT_EQ(total(&r, r.clk, 0), 10 + W48 + 5);
	CT_EQ(ucm_pmi_requests(r.m, 0), 2);
	CT_EQ(rd(&r, GSTAT), ST_FIXED);
	no_strict(&r);
	rig_close(&r);
}

/* Table 3-3: the IMC counters are 32-bit and wrap at 2^32. */
CT_TEST(imc_counters_wrap_at_32_bits)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	in(&r, r.imc, "DRAM_DATA_WRITES", 1);
	in(&r, r.imc, "DRAM_IO_REQUESTS", 1);
	run(&r, W32 - 1);
	CT_EQ(imc_rd(&r, 0x5054), W32 - 1);
	run(&r, 8);
	CT_EQ(imc_rd(&r, 0x5054), 7);
	CT_EQ(imc_rd(&r, 0x5048), 7);
	CT_EQ(imc_rd(&r, 0x5050), 0);
	CT_EQ(total(&r, r.imc, 4), W32 + 7);
	CT_EQ(wraps(&r, r.imc, 4), 1);
	CT_EQ(wraps(&r, r.imc, 3), 0);
	CT_EQ(ucm_pmi_requests(r.m, 0), 0);
	no_strict(&r);
	rig_close(&r);
}

/* ---- overflow, status, PMI, freeze: Tables 2-2, 2-3, D1, D2, D10 ---- */

/* Preload a counter to wrap on its `after`-th increment and enable it. */
static void arm_cbo(struct rig *r, unsigned n, unsigned c, uint64_t after, int ovf)
{
	in(r, r->cbo[n], "CACHE_LOOKUP.READ_M", 1);
	wr(r, CBO_CTR(n, c), W44 - after);
	wr(r, CBO_SEL(n, c), SEL_EN | (ovf ? SEL_OVF : 0) | EV(0x34, 0x11));
}

static void arm_arb(struct rig *r, unsigned c, uint64_t after, int ovf)
{
	in(r, r->arb, "TRK_REQUESTS.NONWRITES", 1);
	wr(r, ARB_CTR(c), W44 - after);
	wr(r, ARB_SEL(c), SEL_EN | (ovf ? SEL_OVF : 0) | EV(0x81, 0x01));
}

static void arm_fixed(struct rig *r, uint64_t after, int ovf)
{
	wr(r, FIXED_CTR, W48 - after);
	wr(r, FIXED_CTRL, FX_EN | (ovf ? FX_OVF : 0));
}

/* Table 2-3 with D1: an OVF_EN overflow of any CBo counter sets bit 3 (not
 * bit 31), of either ARB counter bit 1, of the fixed counter bit 0; each
 * raises one PMI request (D10). */
CT_TEST(overflow_sets_the_unit_status_bit)
{
	for (unsigned k = 0; k < 11; k++) {
		struct rig r;
		uint64_t want;

		CT_REQUIRE(rig_open(&r, 1) == 0);
		if (k < 8) {
			arm_cbo(&r, k / 2, k % 2, 3, 1);
			want = ST_CBO;
		} else if (k < 10) {
			arm_arb(&r, k - 8, 3, 1);
			want = ST_ARB;
		} else {
			arm_fixed(&r, 3, 1);
			want = ST_FIXED;
		}
		wr(&r, GCTL, G_EN);
		run(&r, 2);
		CT_EQ(rd(&r, GSTAT), 0);
		CT_EQ(ucm_pmi_requests(r.m, 0), 0);
		run(&r, 1);
		CT_EQ(rd(&r, GSTAT), want);
		CT_EQ(ucm_pmi_requests(r.m, 0), 1);
		run(&r, 100);
		CT_EQ(ucm_pmi_requests(r.m, 0), 1);
		no_strict(&r);
		rig_close(&r);
	}
}

/* D10, Table 2-7 OVF_EN, Table 2-4 OVF_EN: without OVF_EN a wrap sets no
 * status bit and raises no PMI request (with FRZ_ON_PMI nothing freezes);
 * the counter keeps counting past the wrap. */
CT_TEST(ovf_en_gates_status_and_pmi)
{
	struct rig r;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	for (unsigned n = 0; n < 4; n++)
		for (unsigned c = 0; c < 2; c++)
			arm_cbo(&r, n, c, 3, 0);
	arm_arb(&r, 0, 3, 0);
	arm_arb(&r, 1, 3, 0);
	arm_fixed(&r, 3, 0);
	wr(&r, GCTL, G_FRZ | G_EN | 0xF);
	run(&r, 10);
	CT_EQ(rd(&r, GSTAT), 0);
	CT_EQ(ucm_pmi_requests(r.m, 0), 0);
	CT_EQ(rd(&r, GCTL), G_FRZ | G_EN | 0xF);
	for (unsigned n = 0; n < 4; n++)
		for (unsigned c = 0; c < 2; c++) {
			CT_EQ(rd(&r, CBO_CTR(n, c)), 7);
			CT_EQ(wraps(&r, r.cbo[n], c), 1);
		}
	CT_EQ(rd(&r, ARB_CTR(0)), 7);
	CT_EQ(rd(&r, ARB_CTR(1)), 7);
	CT_EQ(rd(&r, FIXED_CTR), 7);
	for (unsigned core = 0; core < 4; core++) {
		struct ucm_pmi_stats st;

		ucm_pmi_stats(r.m, 0, core, &st);
		CT_EQ(st.delivered, 0);
	}
	/* one counter with OVF_EN among them is enough */
	arm_arb(&r, 1, 2, 1);
	run(&r, 2);
	CT_EQ(rd(&r, GSTAT), ST_ARB);
	CT_EQ(ucm_pmi_requests(r.m, 0), 1);
	no_strict(&r);
	rig_close(&r);
}

/* D10: one PMI request per cycle in which at least one OVF_EN counter
 * overflows: overflows of several units in the same cycle are one request
 * (one interrupt per selected core), in different cycles one each. */
CT_TEST(one_pmi_request_per_overflow_cycle)
{
	struct rig r;
	struct ucm_pmi_stats st;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	arm_cbo(&r, 0, 0, 5, 1);
	arm_cbo(&r, 3, 1, 5, 1);
	arm_arb(&r, 0, 5, 1);
	arm_fixed(&r, 5, 1);
	wr(&r, GCTL, G_EN | BIT(2));
	run(&r, 20);
	CT_EQ(ucm_pmi_requests(r.m, 0), 1);
	CT_EQ(rd(&r, GSTAT), ST_CBO | ST_ARB | ST_FIXED);
	ucm_pmi_stats(r.m, 0, 2, &st);
	CT_EQ(st.delivered, 1);
	CT_EQ(st.requests, 1);
	wr(&r, GSTAT, ST_CBO | ST_ARB | ST_FIXED);
	/* now in four different cycles */
	arm_cbo(&r, 0, 0, 2, 1);
	arm_cbo(&r, 3, 1, 4, 1);
	arm_arb(&r, 0, 6, 1);
	arm_fixed(&r, 8, 1);
	run(&r, 20);
	CT_EQ(ucm_pmi_requests(r.m, 0), 5);
	ucm_pmi_stats(r.m, 0, 2, &st);
	CT_EQ(st.delivered, 5);
	CT_EQ(st.requests, 5);
	CT_EQ(rd(&r, GSTAT), ST_CBO | ST_ARB | ST_FIXED);
	no_strict(&r);
	rig_close(&r);
}

struct hook_log {
	unsigned n;
	unsigned core[16];
	uint64_t t[16];
};

static void pmi_hook(void *ctx, unsigned socket, unsigned core, uint64_t t_ps)
{
	struct hook_log *h = ctx;

	(void)socket;
	if (h->n < 16) {
		h->core[h->n] = core;
		h->t[h->n] = t_ps;
	}
	h->n++;
}

/* Table 2-2 PMI_SEL_CORE3..0 with D2: a PMI request interrupts exactly the
 * cores whose PMI_SEL bit is set, at the time of the overflow cycle; for
 * every one of the 16 selections. */
CT_TEST(pmi_goes_to_the_selected_cores)
{
	struct rig r;
	struct hook_log h;
	uint64_t got[4] = { 0 };

	CT_REQUIRE(rig_open(&r, 1) == 0);
	memset(&h, 0, sizeof(h));
	ucm_set_pmi_hook(r.m, pmi_hook, &h);
	for (unsigned mask = 0; mask < 16; mask++) {
		unsigned before = h.n, want_n = 0;
		uint64_t t;

		arm_arb(&r, 1, 4, 1);
		wr(&r, GCTL, G_EN | mask);
		run(&r, 4);
		t = ucm_now_ps(r.m);
		run(&r, 6);
		CT_EQ(ucm_pmi_requests(r.m, 0), mask + 1);
		for (unsigned core = 0; core < 4; core++) {
			struct ucm_pmi_stats st;

			ucm_pmi_stats(r.m, 0, core, &st);
			got[core] += (mask >> core) & 1;
			want_n += (mask >> core) & 1;
			CT_EQ(st.delivered, got[core]);
			CT_EQ(st.wakes, 0);
			CT_EQ(st.dropped, 0);
			if ((mask >> core) & 1)
				CT_EQ(st.last_ps, t);
		}
		CT_EQ(h.n - before, want_n);
		for (unsigned i = before; i < h.n && i < 16; i++) {
			CT_CHECK((mask >> h.core[i]) & 1);
			CT_EQ(h.t[i], t);
		}
		if (h.n >= 12)
			h.n = 0;
		wr(&r, GSTAT, ST_ARB);
	}
	no_strict(&r);
	rig_close(&r);
}

/* Table 2-2 WAKE_ON_PMI with D2: WAKE_ON_PMI=1 wakes a sleeping selected
 * core and then interrupts it; WAKE_ON_PMI=0 leaves it asleep and drops the
 * PMI for it; an unselected sleeping core is neither woken nor interrupted;
 * awake selected cores are interrupted either way. */
CT_TEST(wake_on_pmi)
{
	for (int wake = 0; wake <= 1; wake++) {
		struct rig r;
		struct ucm_pmi_stats st;
		struct hook_log h;

		CT_REQUIRE(rig_open(&r, 1) == 0);
		memset(&h, 0, sizeof(h));
		ucm_set_pmi_hook(r.m, pmi_hook, &h);
		/* core 0 awake+selected, 1 asleep+selected, 2 asleep, 3 awake */
		ucm_core_sleep(r.m, 0, 1, 1);
		ucm_core_sleep(r.m, 0, 2, 1);
		arm_cbo(&r, 1, 0, 2, 1);
		wr(&r, GCTL, G_EN | (wake ? G_WAKE : 0) | BIT(0) | BIT(1));
		run(&r, 5);
		CT_EQ(ucm_pmi_requests(r.m, 0), 1);
		ucm_pmi_stats(r.m, 0, 0, &st);
		CT_EQ(st.delivered, 1);
		CT_EQ(st.wakes, 0);
		CT_EQ(st.dropped, 0);
		ucm_pmi_stats(r.m, 0, 1, &st);
		CT_EQ(st.delivered, wake ? 1 : 0);
		CT_EQ(st.wakes, wake ? 1 : 0);
		CT_EQ(st.dropped, wake ? 0 : 1);
		CT_EQ(ucm_core_asleep(r.m, 0, 1), !wake);
		ucm_pmi_stats(r.m, 0, 2, &st);
		CT_EQ(st.delivered + st.wakes + st.dropped, 0);
		CT_EQ(ucm_core_asleep(r.m, 0, 2), 1);
		ucm_pmi_stats(r.m, 0, 3, &st);
		CT_EQ(st.delivered + st.wakes + st.dropped, 0);
		CT_EQ(h.n, wake ? 2u : 1u);
		no_strict(&r);
		rig_close(&r);
	}
}

/* Table 2-2 FRZ_ON_PMI with D10: a PMI request clears GLOBAL_CTRL.EN (even
 * with no core selected), which stops every CBo, ARB and fixed counter
 * after the overflow cycle; software re-enables in the handler and counting
 * resumes.  Without FRZ_ON_PMI, EN stays set and counting goes on. */
CT_TEST(freeze_on_pmi)
{
	for (int frz = 0; frz <= 1; frz++) {
		struct rig r;

		CT_REQUIRE(rig_open(&r, 1) == 0);
		arm_cbo(&r, 2, 0, 3, 1);
		arm_arb(&r, 1, 100, 0);
		wr(&r, FIXED_CTR, 0);
		wr(&r, FIXED_CTRL, FX_EN);
		wr(&r, GCTL, (frz ? G_FRZ : 0) | G_EN);
		run(&r, 10);
		CT_EQ(ucm_pmi_requests(r.m, 0), 1);
		CT_EQ(rd(&r, GSTAT), ST_CBO);
		if (!frz) {
			CT_EQ(rd(&r, GCTL), G_EN);
			CT_EQ(rd(&r, CBO_CTR(2, 0)), 7);
			CT_EQ(rd(&r, FIXED_CTR), 10);
			rig_close(&r);
			continue;
		}
		/* frozen after cycle 3, the overflow cycle */
		CT_EQ(rd(&r, GCTL), G_FRZ);
		CT_EQ(rd(&r, CBO_CTR(2, 0)), 0);
		CT_EQ(rd(&r, ARB_CTR(1)), W44 - 97);
		CT_EQ(rd(&r, FIXED_CTR), 3);
		run(&r, 1000);
		CT_EQ(rd(&r, CBO_CTR(2, 0)), 0);
		CT_EQ(rd(&r, ARB_CTR(1)), W44 - 97);
		CT_EQ(rd(&r, FIXED_CTR), 3);
		CT_EQ(ucm_pmi_requests(r.m, 0), 1);
		for (unsigned core = 0; core < 4; core++) {
			struct ucm_pmi_stats st;

			ucm_pmi_stats(r.m, 0, core, &st);
			CT_EQ(st.delivered, 0);
		}
		/* the handler: clear status, re-enable */
		wr(&r, GSTAT, ST_CBO);
		wr(&r, GCTL, G_FRZ | G_EN);
		run(&r, 5);
		CT_EQ(rd(&r, CBO_CTR(2, 0)), 5);
		CT_EQ(rd(&r, ARB_CTR(1)), W44 - 92);
		CT_EQ(rd(&r, FIXED_CTR), 8);
		CT_EQ(rd(&r, GCTL), G_FRZ | G_EN);
		no_strict(&r);
		rig_close(&r);
	}
}

/* ---- maximum increments: D6/D7 ---- */

/* D6/D7: TRK_OCCUPANCY takes up to 32 per cycle; every other CBo/ARB event
 * code and each IMC counter at most 1 per cycle, summed over the code's
 * sub-events; more is -ERANGE and leaves the input as it was.  Different
 * codes are independent. */
CT_TEST(max_increment_per_cycle)
{
	struct rig r;
	int s;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	s = subev(&r, r.arb, "TRK_OCCUPANCY.ALL");
	CT_EQ(ucm_set_input(r.m, r.arb, (unsigned)s, 32), 0);
	CT_EQ(ucm_set_input(r.m, r.arb, (unsigned)s, 33), -ERANGE);
	CT_CONTAINS(ucm_error(r.m), "exceeds");
	CT_EQ(ucm_get_input(r.m, r.arb, (unsigned)s), 32);
	/* TRK_REQUESTS: WRITES + NONWRITES <= 1 */
	in(&r, r.arb, "TRK_REQUESTS.WRITES", 1);
	s = subev(&r, r.arb, "TRK_REQUESTS.NONWRITES");
	CT_EQ(ucm_set_input(r.m, r.arb, (unsigned)s, 1), -ERANGE);
	CT_EQ(ucm_get_input(r.m, r.arb, (unsigned)s), 0);
	s = subev(&r, r.arb, "COH_TRK_REQUESTS.ALL");
	CT_EQ(ucm_set_input(r.m, r.arb, (unsigned)s, 2), -ERANGE);
	CT_EQ(ucm_set_input(r.m, r.arb, (unsigned)s, 1), 0);
	for (unsigned n = 0; n < 4; n++) {
		/* CACHE_LOOKUP: one lookup per cycle over its 12 sub-events */
		in(&r, r.cbo[n], "CACHE_LOOKUP.READ_M", 1);
		s = subev(&r, r.cbo[n], "CACHE_LOOKUP.OTHER_I");
		CT_EQ(ucm_set_input(r.m, r.cbo[n], (unsigned)s, 1), -ERANGE);
		s = subev(&r, r.cbo[n], "CACHE_LOOKUP.READ_M");
		CT_EQ(ucm_set_input(r.m, r.cbo[n], (unsigned)s, 2), -ERANGE);
		CT_EQ(ucm_get_input(r.m, r.cbo[n], (unsigned)s), 1);
		/* XSNP_RESPONSE likewise, independent of CACHE_LOOKUP */
		in(&r, r.cbo[n], "XSNP_RESPONSE.XCORE_HIT", 1);
		s = subev(&r, r.cbo[n], "XSNP_RESPONSE.EVICTION_MISS");
		CT_EQ(ucm_set_input(r.m, r.cbo[n], (unsigned)s, 1), -ERANGE);
	}
	for (unsigned k = 0; k < 5; k++) {
		static const char *const sub[] = { "DRAM_GT_REQUESTS", "DRAM_IA_REQUESTS",
						   "DRAM_IO_REQUESTS", "DRAM_DATA_READS",
						   "DRAM_DATA_WRITES" };

		s = subev(&r, r.imc, sub[k]);
		CT_EQ(ucm_set_input(r.m, r.imc, (unsigned)s, 2), -ERANGE);
		CT_EQ(ucm_set_input(r.m, r.imc, (unsigned)s, 1), 0);
	}
	/* the accepted inputs count */
	wr(&r, GCTL, G_EN);
	wr(&r, ARB_SEL(0), SEL_EN | EV(0x80, 0x01));
	wr(&r, ARB_SEL(1), SEL_EN | EV(0x81, 0x01));
	run(&r, 10);
	CT_EQ(rd(&r, ARB_CTR(0)), 320);
	CT_EQ(rd(&r, ARB_CTR(1)), 10);
	CT_EQ(imc_rd(&r, 0x5040), 10);
	no_strict(&r);
	rig_close(&r);
}

/* ---- ground truth ---- */

/* ucm_fed counts every increment fed to a sub-event, counting or not;
 * ucm_truth counts what the counter received (only while counting), the
 * reads since ucm_truth_mark and the totals at the first and last read. */
CT_TEST(ground_truth_fed_and_received)
{
	struct rig r;
	struct ucm_truth t;
	int s;

	CT_REQUIRE(rig_open(&r, 1) == 0);
	s = subev(&r, r.cbo[1], "CACHE_LOOKUP.WRITE_I");
	in(&r, r.cbo[1], "CACHE_LOOKUP.WRITE_I", 1);
	wr(&r, CBO_SEL(1, 0), SEL_EN | EV(0x34, 0x28));
	run(&r, 100); /* GLOBAL_CTRL.EN clear */
	wr(&r, GCTL, G_EN);
	ucm_truth_mark(r.m);
	run(&r, 50);
	CT_EQ(rd(&r, CBO_CTR(1, 0)), 50);
	run(&r, 25);
	CT_EQ(rd(&r, CBO_CTR(1, 0)), 75);
	CT_EQ(ucm_fed(r.m, r.cbo[1], (unsigned)s), 175);
	CT_EQ(ucm_truth(r.m, r.cbo[1], 0, &t), 0);
	CT_EQ(t.total, 75);
	CT_EQ(t.reads, 2);
	CT_EQ(t.first_read, 50);
	CT_EQ(t.last_read, 75);
	CT_EQ(t.wraps, 0);
	CT_EQ(ucm_truth(r.m, r.cbo[1], 2, &t), -ENOENT);
	no_strict(&r);
	rig_close(&r);
}

/* ---- time ---- */

/* Time passes with every access: cfg.access_ps[space] picoseconds before
 * the access takes effect (defaults UCM_COST_*).  At the default 3.0 GHz
 * uclk (D8) two consecutive reads of a running counter differ by exactly
 * the cost in cycles: 3000 for an MSR read (1 us), plus 600 for an MMIO
 * read (200 ns) or 6000 for a PCI read (2 us) between them; an enabling
 * write takes effect only after its own cost. */
CT_TEST(every_access_costs_time)
{
	struct ucm_config cfg;
	struct rig r;
	uint64_t a, b, t0, v;

	ucm_config_init(&cfg, skl());
	cfg.strict = 1;
	CT_REQUIRE(rig_open_cfg(&r, &cfg) == 0);
	CT_EQ(ucm_clock_hz(r.m, 0), 3000000000ull);
	CT_EQ(ucm_now_ps(r.m), 0);
	wr(&r, GCTL, G_EN);
	CT_EQ(ucm_now_ps(r.m), UCM_COST_MSR_PS);
	wr(&r, FIXED_CTRL, FX_EN);
	a = rd(&r, FIXED_CTR);
	CT_EQ(a, 3000); /* the read's own cost: the write's came before EN */
	b = rd(&r, FIXED_CTR);
	CT_EQ(b - a, 3000);
	t0 = ucm_now_ps(r.m);
	CT_EQ(ucm_mmio_read(r.m, MCHBAR_BASE + 0x5050, 4, &v), 0);
	CT_EQ(ucm_now_ps(r.m) - t0, UCM_COST_MMIO_PS);
	a = rd(&r, FIXED_CTR);
	CT_EQ(a - b, 600 + 3000);
	t0 = ucm_now_ps(r.m);
	CT_EQ(ucm_pci_read(r.m, 0, 0, 0, 0, 0x48, 4, &v), 0);
	CT_EQ(ucm_now_ps(r.m) - t0, UCM_COST_PCI_PS);
	b = rd(&r, FIXED_CTR);
	CT_EQ(b - a, 6000 + 3000);
	/* a CBo counter and an IMC counter read back to back */
	in(&r, r.cbo[0], "CACHE_LOOKUP.READ_M", 1);
	in(&r, r.imc, "DRAM_DATA_READS", 1);
	wr(&r, CBO_SEL(0, 0), SEL_EN | EV(0x34, 0x11));
	a = rd(&r, CBO_CTR(0, 0));
	b = rd(&r, CBO_CTR(0, 0));
	CT_EQ(a, 3000);
	CT_EQ(b - a, 3000);
	a = imc_rd(&r, 0x5050);
	b = imc_rd(&r, 0x5050);
	CT_EQ(b - a, 600);
	CT_EQ(ucm_cycles(r.m, 0), ucm_now_ps(r.m) * 3 / 1000);
	no_strict(&r);
	rig_close(&r);
}

/* D8: the uclk frequency is a parameter (cfg.clock_hz[0]); the fixed
 * counter counts at it, and access costs convert at it. */
CT_TEST(uclk_frequency_is_configurable)
{
	struct ucm_config cfg;
	struct rig r;
	uint64_t a, b;

	ucm_config_init(&cfg, skl());
	cfg.clock_hz[0] = 2400000000ull;
	cfg.access_ps[UCM_MSR] = 500000;
	CT_REQUIRE(rig_open_cfg(&r, &cfg) == 0);
	CT_EQ(ucm_clock_hz(r.m, 0), 2400000000ull);
	wr(&r, GCTL, G_EN);
	wr(&r, FIXED_CTRL, FX_EN);
	a = rd(&r, FIXED_CTR);
	b = rd(&r, FIXED_CTR);
	CT_EQ(a, 1200);
	CT_EQ(b - a, 1200);
	CT_EQ(ucm_run_ps(r.m, 1000000000ull), 0); /* 1 ms */
	a = rd(&r, FIXED_CTR);
	CT_EQ(a - b, 2400000 + 1200);
	rig_close(&r);
}

/* A whole session as a driver does it (docs/platform-skl.md "What the driver
 * writes"), with default access costs, every event of Tables 3-1/3-2 on its
 * allowed counters, overflows with PMI and freeze, status clearing and
 * re-enabling, 4-byte IMC reads and both MCHBAR dwords: no strict record. */
CT_TEST(clean_session_has_no_strict_records)
{
	static const struct {
		int arb;
		unsigned ctr;
		uint64_t sel;
	} prog[] = {
		{ 0, 0, EV(0x22, 0x41) }, { 0, 1, EV(0x22, 0x81) }, { 0, 0, EV(0x22, 0x44) },
		{ 0, 1, EV(0x22, 0x48) }, { 0, 0, EV(0x34, 0x21) }, { 0, 1, EV(0x34, 0x81) },
		{ 0, 0, EV(0x34, 0x18) }, { 0, 1, EV(0x34, 0x88) }, { 0, 0, EV(0x34, 0x1F) },
		{ 0, 1, EV(0x34, 0x2F) }, { 0, 0, EV(0x34, 0x8F) }, { 0, 1, EV(0x34, 0x86) },
		{ 0, 0, EV(0x34, 0x16) }, { 0, 1, EV(0x34, 0x26) },
		{ 1, 0, EV(0x80, 0x01) }, { 1, 1, EV(0x81, 0x01) }, { 1, 1, EV(0x81, 0x20) },
		{ 1, 1, EV(0x84, 0x01) }, { 1, 0, EV(0x80, 0x01) | SEL_THR(1) },
	};
	struct ucm_config cfg;
	struct rig r;
	uint64_t v;

	ucm_config_init(&cfg, skl());
	cfg.strict = 1;
	CT_REQUIRE(rig_open_cfg(&r, &cfg) == 0);
	for (unsigned n = 0; n < 4; n++) {
		in(&r, r.cbo[n], "CACHE_LOOKUP.READ_E", 1);
		in(&r, r.cbo[n], "XSNP_RESPONSE.XCORE_MISS", 1);
	}
	in(&r, r.arb, "TRK_OCCUPANCY.ALL", 12);
	in(&r, r.arb, "TRK_REQUESTS.WRITES", 1);
	in(&r, r.imc, "DRAM_DATA_READS", 1);
	CT_EQ(ucm_pci_read(r.m, 0, 0, 0, 0, 0x48, 4, &v), 0);
	CT_EQ(ucm_pci_read(r.m, 0, 0, 0, 0, 0x4C, 4, &v), 0);
	for (size_t i = 0; i < NELEM(prog); i += 4) {
		/* up to 4 rows at a time: two CBos' worth, or the ARB */
		v = rd(&r, GCTL);
		wr(&r, GCTL, 0);
		for (size_t k = i; k < i + 4 && k < NELEM(prog); k++) {
			uint32_t ctr = prog[k].arb ? ARB_CTR(prog[k].ctr) :
						     CBO_CTR((unsigned)(k - i) / 2, prog[k].ctr);
			uint32_t sel = prog[k].arb ? ARB_SEL(prog[k].ctr) :
						     CBO_SEL((unsigned)(k - i) / 2, prog[k].ctr);

			(void)rd(&r, sel);
			wr(&r, ctr, W44 - 20000);
			wr(&r, sel, prog[k].sel | SEL_EN | SEL_OVF);
		}
		wr(&r, FIXED_CTR, 0);
		wr(&r, FIXED_CTRL, FX_EN | FX_OVF);
		wr(&r, GSTAT, rd(&r, GSTAT));
		(void)imc_rd(&r, 0x5050);
		wr(&r, GCTL, G_EN | G_FRZ | G_WAKE | 0xF);
		for (int s = 0; s < 5; s++) {
			CT_EQ(ucm_run_ps(r.m, 5000000), 0);
			for (unsigned c = 0; c < 2; c++)
				(void)rd(&r, ARB_CTR(c));
			(void)rd(&r, FIXED_CTR);
			(void)imc_rd(&r, 0x5050);
			(void)imc_rd(&r, 0x5054);
			v = rd(&r, GSTAT);
			if (v) {
				wr(&r, GSTAT, v);
				wr(&r, GCTL, G_EN | G_FRZ | G_WAKE | 0xF);
			}
		}
		wr(&r, GCTL, 0);
	}
	CT_CHECK(ucm_pmi_requests(r.m, 0) > 0);
	no_strict(&r);
	rig_close(&r);
}

CT_MAIN()
