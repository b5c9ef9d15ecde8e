/*
 * t_snbep_seq.c - the Xeon E5-2600 box programming sequences real software
 * uses (Linux perf, Intel PCM, likwid; ../shared/notes/public-facts.md),
 * replayed register by register against the model, with the results the
 * guide predicts for them: what the box-control writes reset, freeze or
 * leave alone (2.1.1, Tables 2-9/2-34/2-60 and their siblings), which
 * writes strict mode records, and what each tool's way of reading a 48-bit
 * PCI counter (two config dwords, 2.1.2) returns while the counter runs.
 */
#include <stdio.h>
#include <string.h>

#include "ct.h"
#include "ucm.h"

#define BOX_INIT_LINUX 0x10003u /* frz_en | rst_ctrs | rst_ctrl */
#define FRZ_EN 0x10000u
#define FRZ 0x100u
#define RST_CTRS 0x2u
#define RST_CTRL 0x1u
#define EN (1u << 22)
#define PRELOAD 12345u

/* One box instance on one socket: its box control, counter 0's control
 * and counter, and an event that counts 1 per cycle of its clock. */
struct unit {
	struct ucm_model *m;
	int h;
	const char *type;
	unsigned inst, socket, clock;
	struct ucm_reginfo boxctl, ctl0, ctr0;
	unsigned code;        /* event select of the counted event */
	int fed;              /* the event is an input the test feeds */
	int reset_bits;       /* the box control has rst_ctrs/rst_ctrl (not HA, iMC) */
};

static struct ucm_model *mk(uint64_t pci_cost_ps)
{
	struct ucm_config cfg;
	struct ucm_model *m = NULL;

	ucm_config_init(&cfg, ucm_platform_find("snbep"));
	cfg.strict = 1;
	for (unsigned s = 0; s < UCM_NSPACES; s++)
		cfg.access_ps[s] = 0;
	cfg.access_ps[UCM_PCI] = pci_cost_ps;
	if (ucm_create(&cfg, &m)) {
		ucm_destroy(m);
		return NULL;
	}
	return m;
}

static int wr(struct ucm_model *m, const struct ucm_reginfo *ri, uint64_t v, unsigned off,
	      unsigned width)
{
	uint64_t a = ri->addr;

	if (ri->space == UCM_MSR)
		return ucm_msr_write(m, ri->socket * ucm_cpus_per_socket(m), (uint32_t)a, v);
	return ucm_pci_write(m, 0, (unsigned)(a >> 20) & 0xFF, (unsigned)(a >> 15) & 0x1F,
			     (unsigned)(a >> 12) & 7, ((unsigned)a & 0xFFF) + off, width, v);
}

static uint64_t rd(struct ucm_model *m, const struct ucm_reginfo *ri, unsigned off, unsigned width)
{
	uint64_t a = ri->addr, v = 0;
	int rc;

	if (ri->space == UCM_MSR)
		rc = ucm_msr_read(m, ri->socket * ucm_cpus_per_socket(m), (uint32_t)a, &v);
	else
		rc = ucm_pci_read(m, 0, (unsigned)(a >> 20) & 0xFF, (unsigned)(a >> 15) & 0x1F,
				  (unsigned)(a >> 12) & 7, ((unsigned)a & 0xFFF) + off, width, &v);
	if (rc)
		ct_fail(__FILE__, __LINE__, "read %s: %s", ri->name, ucm_error(m));
	return v;
}

/* A 64-bit write as the tool does it: one MSR, or PCI config's two dwords. */
static void wr64(struct unit *u, const struct ucm_reginfo *ri, uint64_t v)
{
	int rc;

	if (ri->space == UCM_MSR || ri->width <= 32)
		rc = wr(u->m, ri, v, 0, ri->width / 8);
	else
		rc = wr(u->m, ri, v & 0xFFFFFFFFu, 0, 4) || wr(u->m, ri, v >> 32, 4, 4);
	if (rc)
		ct_fail(__FILE__, __LINE__, "write %s <- 0x%llx: %s", ri->name, (unsigned long long)v,
			ucm_error(u->m));
}

/* The counter's value without side effects or time. */
static uint64_t peek(struct unit *u)
{
	uint64_t v = 0;

	if (ucm_peek(u->m, u->ctr0.space, u->socket, u->ctr0.addr, &v))
		ct_fail(__FILE__, __LINE__, "peek %s", u->ctr0.name);
	return v & ((1ull << 48) - 1);
}

static int unit_open(struct ucm_model *m, const char *type, unsigned inst, unsigned socket,
		     struct unit *u)
{
	const struct ucm_evcode *ec = NULL;

	memset(u, 0, sizeof(*u));
	u->m = m;
	u->type = type;
	u->inst = inst;
	u->socket = socket;
	u->h = ucm_box_find(m, socket, type, inst);
	if (u->h < 0)
		return -1;
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;

		if (ucm_reginfo(m, i, &ri) || ri.box != ucm_box_def(m, u->h) || ri.socket != socket)
			continue;
		if (ri.kind == UCM_K_BOX_CTL)
			u->boxctl = ri;
		else if (ri.kind == UCM_K_CTL && ri.idx == 0)
			u->ctl0 = ri;
		else if (ri.kind == UCM_K_CTR && ri.idx == 0)
			u->ctr0 = ri;
	}
	u->clock = ucm_box_def(m, u->h)->type->clock;
	/* the box's clock if it counts one (every box but the iMC), else
	 * an activate per dclk fed by the test (Table 2-64 ACT_COUNT) */
	for (unsigned i = 0; i < ucm_box_def(m, u->h)->type->ncodes && !ec; i++)
		if (!strcmp(ucm_box_def(m, u->h)->type->codes[i].name, "CLOCKTICKS"))
			ec = &ucm_box_def(m, u->h)->type->codes[i];
	if (!ec) {
		int s = ucm_subev_find(ucm_box_def(m, u->h)->type, "ACT_COUNT");

		if (s < 0 || ucm_set_input(m, u->h, (unsigned)s, 1))
			return -1;
		ec = ucm_subev_code(ucm_box_def(m, u->h)->type, (unsigned)s);
		u->fed = 1;
	}
	u->code = ec->code;
	u->reset_bits = !!ucm_layout_field(u->boxctl.layout, UCM_R_RST_CTRS);
	return u->boxctl.layout && u->ctl0.layout && u->ctr0.layout ? 0 : -1;
}

static void run(struct unit *u, uint64_t n)
{
	CT_EQ(ucm_run_cycles(u->m, u->clock, n), 0);
}

/* Strict-mode records since the last call: how many, and that each names
 * this box control and its reserved bits. */
static size_t strict_taken(struct unit *u, uint64_t bits)
{
	size_t n = ucm_strict_count(u->m);

	for (size_t i = 0; i < n; i++) {
		const struct ucm_strict_rec *r = ucm_strict_get(u->m, i);
		char want[48];

		snprintf(want, sizeof(want), "0x%llx", (unsigned long long)bits);
		if (strcmp(r->reg, u->boxctl.name) || !strstr(r->rule, want) || !strstr(r->rule, "eserved"))
			ct_fail(__FILE__, __LINE__, "%s: unexpected record %s: %s", u->boxctl.name, r->reg,
				r->rule);
	}
	ucm_strict_clear(u->m);
	return n;
}

static const struct {
	const char *type;
	unsigned inst;
} units[] = {
	{ "cbo", 0 }, { "cbo", 7 }, { "pcu", 0 }, { "ha", 0 }, { "imc", 0 },
	{ "imc", 3 }, { "qpi", 0 },  { "qpi", 1 }, { "r2pcie", 0 }, { "r3qpi", 1 },
};
#define NUNITS (sizeof(units) / sizeof(units[0]))

/* Linux perf (uncore_snbep.c): 0x10003 at init, counter control = event |
 * en, then stop/start as a read-modify-write of frz.  The guide predicts:
 * - where the box control has rst_ctrl/rst_ctrs (Tables 2-9, 2-74, 2-85,
 *   2-105, 2-119), init zeroes counter and control without a record;
 * - on HA and iMC (Tables 2-34, 2-60: bits 1:0 "Reserved; SW must write
 *   to 0") it resets nothing and strict mode records the write, once;
 * - frz_en and frz read back (R11 as revisited in issue 33: PCM's QPI
 *   probe needs it on real machines), so the read-modify-write reads the
 *   init's frz_en and writes 0x10100: the box freezes, and clearing frz
 *   resumes it. */
CT_TEST(linux_perf_sequence)
{
	struct ucm_model *m = mk(0);

	CT_REQUIRE(m);
	for (unsigned s = 0; s < 2; s++)
		for (size_t k = 0; k < NUNITS; k++) {
			struct unit u;
			uint64_t v, base;

			CT_REQUIRE(unit_open(m, units[k].type, units[k].inst, s, &u) == 0);
			/* what an earlier user left: a count and a programmed control */
			wr64(&u, &u.ctr0, PRELOAD);
			wr64(&u, &u.ctl0, u.code & 0xFF);
			CT_EQ(ucm_strict_count(m), 0);

			wr64(&u, &u.boxctl, BOX_INIT_LINUX);
			base = u.reset_bits ? 0 : PRELOAD;
			CT_EQ(peek(&u), base);
			CT_EQ(rd(m, &u.ctl0, 0, 4), u.reset_bits ? 0 : (u.code & 0xFF));
			CT_EQ(strict_taken(&u, 0x3), u.reset_bits ? 0u : 1u);

			wr64(&u, &u.ctl0, (u.code & 0xFF) | EN);
			run(&u, 1000);
			CT_EQ(peek(&u), base + 1000);

			/* stop: read-modify-write of frz */
			v = rd(m, &u.boxctl, 0, 4);
			CT_EQ(v, FRZ_EN);
			wr64(&u, &u.boxctl, v | FRZ);
			run(&u, 1000);
			CT_EQ(peek(&u), base + 1000);
			/* start */
			v = rd(m, &u.boxctl, 0, 4);
			CT_EQ(v, FRZ_EN | FRZ);
			wr64(&u, &u.boxctl, v & ~(uint64_t)FRZ);
			run(&u, 1000);
			CT_EQ(peek(&u), base + 2000);
			CT_EQ(ucm_strict_count(m), 0);
			/* quiet for the next unit */
			wr64(&u, &u.ctl0, 0);
			if (u.fed)
				ucm_clear_inputs(m);
		}
	ucm_destroy(m);
}

/* Intel PCM's QPI link probe (src/cpucounters.cpp, UncorePMU::initFreeze
 * with a message, called by programXPI): it writes frz_en (0x10000) to
 * each port's box control and reads it back; if bits 16:0 differ from what
 * it wrote it prints "Link N is disabled" and leaves the port unprogrammed.
 * PCM counts QPI traffic on real E5-2600 machines, so there the bit reads
 * back (R11 as revisited): the QPI ports' box controls, and every other
 * box control of both sockets, pass the probe, and so does 0x10100. */
CT_TEST(pcm_link_probe_reads_frz_en_back)
{
	struct ucm_model *m = mk(0);

	CT_REQUIRE(m);
	for (unsigned s = 0; s < 2; s++)
		for (size_t k = 0; k < NUNITS; k++) {
			struct unit u;

			CT_REQUIRE(unit_open(m, units[k].type, units[k].inst, s, &u) == 0);
			wr64(&u, &u.boxctl, FRZ_EN);
			if ((rd(m, &u.boxctl, 0, 4) & 0x1FFFF) != FRZ_EN)
				ct_fail(__FILE__, __LINE__, "socket %u %s%u: frz_en reads 0x%llx", s,
					units[k].type, units[k].inst,
					(unsigned long long)rd(m, &u.boxctl, 0, 4));
			wr64(&u, &u.boxctl, FRZ_EN | FRZ);
			CT_EQ(rd(m, &u.boxctl, 0, 4) & 0x1FFFF, FRZ_EN | FRZ);
			wr64(&u, &u.boxctl, 0);
			CT_EQ(rd(m, &u.boxctl, 0, 4), 0);
		}
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* Intel PCM: box control 0x10000 then 0x10100 (frozen), the counter
 * controls (en, then en | event; the iMC fixed counter en, then en | rst),
 * 0x10102 to reset the counters while frozen, 0x10000 to start; around
 * every read it freezes (0x10100) and reads a PCI counter as one 8-byte
 * access.  Predicted: nothing counts while frozen (frz_en and frz), the
 * en-only write is recorded where event 0 is undefined, the
 * counters start from 0 where rst_ctrs exists, HA and iMC keep their old
 * count and strict mode records 0x10102's reserved bit 1 there, and a
 * frozen read is exact and repeatable. */
CT_TEST(intel_pcm_sequence)
{
	struct ucm_model *m = mk(0);

	CT_REQUIRE(m);
	for (unsigned s = 0; s < 2; s++)
		for (size_t k = 0; k < NUNITS; k++) {
			struct unit u;
			uint64_t base, a, b;
			size_t no_event0;

			CT_REQUIRE(unit_open(m, units[k].type, units[k].inst, s, &u) == 0);
			wr64(&u, &u.ctr0, PRELOAD);
			wr64(&u, &u.boxctl, FRZ_EN);
			wr64(&u, &u.boxctl, FRZ_EN | FRZ);
			/* en with event 0 first: undefined where 0 is no event of the
			 * box (iMC Table 2-64, R2PCIe Table 2-108, R3QPI Table
			 * 2-122) or an event whose umask must select something (QPI
			 * TxL_FLITS_G0, Table 2-94), and recorded; CLOCKTICKS
			 * elsewhere (CBo, HA, PCU: event 0, no umask) */
			wr64(&u, &u.ctl0, EN);
			no_event0 = !strcmp(u.type, "r2pcie") || !strcmp(u.type, "r3qpi") ||
				    !strcmp(u.type, "qpi") || !strcmp(u.type, "imc");
			if (ucm_strict_count(m) != no_event0) {
				char line[512];

				ucm_strict_format(m, 0, line, sizeof(line));
				ct_fail(__FILE__, __LINE__, "%s: %s", u.ctl0.name, line);
			}
			if (ucm_strict_count(m))
				CT_STREQ(ucm_strict_get(m, 0)->reg, u.ctl0.name);
			ucm_strict_clear(m);
			wr64(&u, &u.ctl0, EN | (u.code & 0xFF));
			run(&u, 1000);
			CT_EQ(peek(&u), PRELOAD); /* frozen */
			wr64(&u, &u.boxctl, FRZ_EN | FRZ | RST_CTRS);
			base = u.reset_bits ? 0 : PRELOAD;
			CT_EQ(peek(&u), base);
			CT_EQ(strict_taken(&u, 0x2), u.reset_bits ? 0u : 1u);
			wr64(&u, &u.boxctl, FRZ_EN);
			run(&u, 1000);
			CT_EQ(peek(&u), base + 1000);
			/* a read, frozen: time passes, nothing moves */
			wr64(&u, &u.boxctl, FRZ_EN | FRZ);
			run(&u, 5000);
			a = rd(m, &u.ctr0, 0, 8);
			b = rd(m, &u.ctr0, 0, 8);
			CT_EQ(a, base + 1000);
			CT_EQ(b, a);
			wr64(&u, &u.boxctl, FRZ_EN);
			run(&u, 500);
			CT_EQ(peek(&u), base + 1500);
			CT_EQ(ucm_strict_count(m), 0);
			wr64(&u, &u.ctl0, 0);
			if (u.fed)
				ucm_clear_inputs(m);
		}
	/* the iMC fixed counter: en, then en | rst (Table 2-62, rst bit 19) */
	{
		struct unit u;
		struct ucm_reginfo fctl = { 0 }, fctr = { 0 };
		uint64_t v = 0;

		CT_REQUIRE(unit_open(m, "imc", 2, 1, &u) == 0);
		for (size_t i = 0; i < ucm_nregs(m); i++) {
			struct ucm_reginfo ri;

			if (ucm_reginfo(m, i, &ri) || ri.box != ucm_box_def(m, u.h) || ri.socket != 1 || ri.idx != 4)
				continue;
			if (ri.kind == UCM_K_CTL)
				fctl = ri;
			else if (ri.kind == UCM_K_CTR)
				fctr = ri;
		}
		CT_REQUIRE(fctl.layout && fctr.layout);
		wr64(&u, &u.boxctl, FRZ_EN);
		wr64(&u, &fctl, EN);
		run(&u, 700);
		CT_REQUIRE(ucm_peek(m, UCM_PCI, 1, fctr.addr, &v) == 0);
		CT_EQ(v, 700);
		wr64(&u, &fctl, EN | (1u << 19));
		CT_REQUIRE(ucm_peek(m, UCM_PCI, 1, fctr.addr, &v) == 0);
		CT_EQ(v, 0);
		/* the rst bit clears itself: counting goes on */
		CT_EQ(rd(m, &fctl, 0, 4), EN);
		run(&u, 300);
		CT_REQUIRE(ucm_peek(m, UCM_PCI, 1, fctr.addr, &v) == 0);
		CT_EQ(v, 300);
		CT_EQ(ucm_strict_count(m), 0);
	}
	ucm_destroy(m);
}

/* likwid: 0x10101 (frz_en | frz | rst_ctrl), 0x10100, the counter
 * controls, then 0x0 to start -- or 0x2 to start with a counter reset.
 * Predicted: 0x0 unfreezes (frz clear); rst_ctrl zeroes the controls where
 * it exists; on HA and iMC 0x10101 and 0x2 write reserved bits (one record
 * each) and reset nothing. */
CT_TEST(likwid_sequence)
{
	struct ucm_model *m = mk(0);

	CT_REQUIRE(m);
	for (unsigned s = 0; s < 2; s++)
		for (size_t k = 0; k < NUNITS; k++) {
			struct unit u;
			uint64_t base;

			CT_REQUIRE(unit_open(m, units[k].type, units[k].inst, s, &u) == 0);
			wr64(&u, &u.ctr0, PRELOAD);
			wr64(&u, &u.ctl0, u.code & 0xFF);
			wr64(&u, &u.boxctl, FRZ_EN | FRZ | RST_CTRL);
			CT_EQ(rd(m, &u.ctl0, 0, 4), u.reset_bits ? 0 : (u.code & 0xFF));
			CT_EQ(peek(&u), PRELOAD); /* rst_ctrl leaves the counts */
			CT_EQ(strict_taken(&u, 0x1), u.reset_bits ? 0u : 1u);
			wr64(&u, &u.boxctl, FRZ_EN | FRZ);
			wr64(&u, &u.ctl0, EN | (u.code & 0xFF));
			run(&u, 1000);
			CT_EQ(peek(&u), PRELOAD);
			wr64(&u, &u.boxctl, 0);
			run(&u, 1000);
			CT_EQ(peek(&u), PRELOAD + 1000);
			/* start with a counter reset */
			wr64(&u, &u.boxctl, RST_CTRS);
			base = u.reset_bits ? 0 : PRELOAD + 1000;
			CT_EQ(peek(&u), base);
			CT_EQ(strict_taken(&u, 0x2), u.reset_bits ? 0u : 1u);
			run(&u, 1000);
			CT_EQ(peek(&u), base + 1000);
			wr64(&u, &u.ctl0, 0);
			if (u.fed)
				ucm_clear_inputs(m);
		}
	ucm_destroy(m);
}

/* Preload the counter while frozen, then let it run: the unfreeze write's
 * own access time passes while the box is still frozen, so the count is
 * exactly v when counting resumes. */
static void preload(struct unit *u, uint64_t v)
{
	wr64(u, &u->boxctl, FRZ_EN | FRZ);
	wr64(u, &u->ctr0, v);
	wr64(u, &u->boxctl, FRZ_EN);
	CT_EQ(peek(u), v);
}

/* 2.1.2 and Table 2-36: HA_PCI_PMON_CTR is a 48-bit count in two config
 * dwords, and config accesses take time (2 us each here, 5,400 uclk, spent
 * before the access).  From 2^33 - 8,000, the low dword carries between a
 * tool's two reads:
 * - Linux reads low, then high: it pairs the low before the carry with the
 *   high after it and reports a value 2^32 beyond anything the counter has
 *   reached;
 * - likwid reads high, then low: it pairs the high before the carry with
 *   the low after it and reports a value 2^32 below where the counter
 *   started;
 * - PCM's 8-byte read of the frozen counter is exact. */
CT_TEST(two_dword_reads_of_a_running_48_bit_counter)
{
	const uint64_t cost = 5400, start = (1ull << 33) - 8000;
	struct ucm_model *m = mk(2000000);
	struct unit u;
	uint64_t lo, hi, v1, got;

	CT_REQUIRE(m);
	CT_REQUIRE(unit_open(m, "ha", 0, 1, &u) == 0);
	CT_EQ(ucm_clock_hz(m, u.clock) * 2 / 1000000, cost);
	wr64(&u, &u.ctl0, EN | u.code);

	/* Linux: low at start + cost, high at start + 2 cost */
	preload(&u, start);
	lo = rd(m, &u.ctr0, 0, 4);
	hi = rd(m, &u.ctr0, 4, 4);
	v1 = peek(&u);
	got = hi << 32 | lo;
	CT_EQ(v1, start + 2 * cost);
	CT_EQ(lo, (start + cost) & 0xFFFFFFFFu);
	CT_EQ(hi, 2);
	CT_EQ(got - v1, (1ull << 32) - cost);

	/* likwid: high at start + cost, low at start + 2 cost */
	preload(&u, start);
	hi = rd(m, &u.ctr0, 4, 4);
	lo = rd(m, &u.ctr0, 0, 4);
	got = hi << 32 | lo;
	CT_EQ(hi, 1);
	CT_CHECK(got < start);
	CT_EQ(start - got, (1ull << 32) - 2 * cost);

	/* PCM: frozen, one 8-byte access */
	preload(&u, start);
	wr64(&u, &u.boxctl, FRZ_EN | FRZ);
	v1 = peek(&u);
	got = rd(m, &u.ctr0, 0, 8);
	CT_EQ(got, v1);
	CT_EQ(peek(&u), v1);
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

CT_MAIN()
