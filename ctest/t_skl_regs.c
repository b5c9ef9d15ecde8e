/*
 * t_skl_regs.c - register access semantics of the Skylake-client model,
 * register by register: every MSR of SKL Table 2-1 (4 CBos x 2 event selects
 * + 2 counters, ARB 2 + 2, FIXED_CTRL/CTR, GLOBAL_CTRL/STATUS, CBO_CONFIG),
 * the host bridge VID/DID/MCHBAR (3.3) and the five IMC counters (Table 3-3).
 *
 * The expected masks, reset values and citations are written out below from
 * the manual's field tables and the decisions of docs/platform-skl.md (Dn);
 * they are never read from the model and compared with themselves.  Unless
 * a test is about time, accesses cost no simulated time (access_ps = 0) so
 * nothing counts between two accesses.
 */
#include <errno.h>
#include <stdlib.h>

#include "ct.h"
#include "ct_skl.h"
#include "ucm.h"

#define BITS(hi, lo) ((~0ull >> (63 - (hi))) & ~(BIT(lo) - 1))

/* ---- the manual's registers ---- */

/* Table 2-2: FRZ_ON_PMI 31, WAKE_ON_PMI 30, EN 29, PMI_SEL_CORE3..0 3:0 */
#define GLOBAL_CTRL_RW (BIT(31) | BIT(30) | BIT(29) | BITS(3, 0))
/* Table 2-3 with D1: CBO_CTR_OVF 3, ARB_CTR_OVF 1, FIXED_CTR_OVF 0 (RW1C) */
#define GLOBAL_STATUS_W1C (BIT(3) | BIT(1) | BIT(0))
/* Table 2-4 with D13: CNT_EN 22, OVF_EN 20 */
#define FIXED_CTRL_RW (BIT(22) | BIT(20))
/* Table 2-5: CTR_VAL 47:0 */
#define FIXED_CTR_RW BITS(47, 0)
/* Table 2-6: NO_CBO_BANKS 3:0 RO */
#define CBO_CONFIG_RO BITS(3, 0)
/* Table 2-7: THR 28:24, INV 23, EN 22, OVF_EN 20, E 18, UMASK 15:8, EVT_SEL 7:0 */
#define EVTSEL_RW (BITS(28, 24) | BIT(23) | BIT(22) | BIT(20) | BIT(18) | BITS(15, 8) | BITS(7, 0))
/* Table 2-8: CTR_VAL 43:0 */
#define PERFCTR_RW BITS(43, 0)
/* 3.3 and D11/D14: MCHBAR base = the mask 0x0007FFFF8000 (bits 34:15) and
 * enable bit 0 */
#define MCHBAR_RW (0x0007FFFF8000ull | BIT(0))
#define MCHBAR_RESET 0xFED10001ull
/* Table 3-3: 32-bit read-only counters */
#define IMC_RO BITS(31, 0)

#define CBO_CONFIG 0x396u

struct xreg {
	char name[48];
	unsigned space;
	uint64_t addr;     /* MSR address, config offset on 0:0.0, or offset from MCHBAR */
	unsigned bytes;    /* storage width */
	uint64_t reset, rw, ro, w1c;
	const char *cite;
	uint64_t base;     /* a value whose single-bit flips are each one clean write */
};

static void put(struct xreg *x, const char *name, unsigned space, uint64_t addr, unsigned bytes,
		uint64_t reset, uint64_t rw, uint64_t ro, uint64_t w1c, const char *cite,
		uint64_t base)
{
	snprintf(x->name, sizeof(x->name), "%s", name);
	x->space = space;
	x->addr = addr;
	x->bytes = bytes;
	x->reset = reset;
	x->rw = rw;
	x->ro = ro;
	x->w1c = w1c;
	x->cite = cite;
	x->base = base;
}

static uint64_t width_mask(const struct xreg *x)
{
	return x->bytes >= 8 ? ~0ull : BIT(8 * x->bytes) - 1;
}

static uint64_t rsvd_mask(const struct xreg *x)
{
	return width_mask(x) & ~(x->rw | x->ro | x->w1c);
}

/* Table 2-1 (with D3 for CBO_CONFIG's value), 3.3 and Table 3-3, with
 * ncbo CBos present.  The event select base values are valid events without
 * EN (CACHE_LOOKUP.READ_M on a CBo, TRK_REQUESTS.ALL on the ARB), so that
 * flipping any one bit, EN included, is a write the manual allows. */
static size_t skl_regs(struct xreg *x, unsigned ncbo)
{
	size_t n = 0;
	char name[48];

	put(&x[n++], "MSR_UNC_PERF_GLOBAL_CTRL", UCM_MSR, GCTL, 8, 0, GLOBAL_CTRL_RW, 0, 0,
	    "SKL Table 2-2", 0);
	put(&x[n++], "MSR_UNC_PERF_GLOBAL_STATUS", UCM_MSR, GSTAT, 8, 0, 0, 0, GLOBAL_STATUS_W1C,
	    "SKL Table 2-3", 0);
	put(&x[n++], "MSR_UNC_PERF_FIXED_CTRL", UCM_MSR, FIXED_CTRL, 8, 0, FIXED_CTRL_RW, 0, 0,
	    "SKL Table 2-4", 0);
	put(&x[n++], "MSR_UNC_PERF_FIXED_CTR", UCM_MSR, FIXED_CTR, 8, 0, FIXED_CTR_RW, 0, 0,
	    "SKL Table 2-5", 0);
	put(&x[n++], "MSR_UNC_CBO_CONFIG", UCM_MSR, CBO_CONFIG, 8, ncbo + 1, 0, CBO_CONFIG_RO, 0,
	    "SKL Table 2-6", ncbo + 1);
	for (unsigned i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "MSR_UNC_ARB_PERFCTR%u", i);
		put(&x[n++], name, UCM_MSR, ARB_CTR(i), 8, 0, PERFCTR_RW, 0, 0, "SKL Table 2-8", 0);
		snprintf(name, sizeof(name), "MSR_UNC_ARB_PERFEVTSEL%u", i);
		put(&x[n++], name, UCM_MSR, ARB_SEL(i), 8, 0, EVTSEL_RW, 0, 0, "SKL Table 2-7",
		    EV(0x81, 0x01));
	}
	for (unsigned c = 0; c < ncbo; c++)
		for (unsigned i = 0; i < 2; i++) {
			snprintf(name, sizeof(name), "MSR_UNC_CBO_%u_PERFEVTSEL%u", c, i);
			put(&x[n++], name, UCM_MSR, CBO_SEL(c, i), 8, 0, EVTSEL_RW, 0, 0,
			    "SKL Table 2-7", EV(0x34, 0x11));
			snprintf(name, sizeof(name), "MSR_UNC_CBO_%u_PERFCTR%u", c, i);
			put(&x[n++], name, UCM_MSR, CBO_CTR(c, i), 8, 0, PERFCTR_RW, 0, 0,
			    "SKL Table 2-8", 0);
		}
	/* host bridge 0:0.0: PCI header IDs (public facts), MCHBAR (3.3, D14) */
	put(&x[n++], "HOSTBRIDGE_VID", UCM_PCI, 0x00, 2, 0x8086, 0, BITS(15, 0), 0, "PCI header",
	    0x8086);
	put(&x[n++], "HOSTBRIDGE_DID", UCM_PCI, 0x02, 2, 0x191F, 0, BITS(15, 0), 0, "PCI header",
	    0x191F);
	put(&x[n++], "MCHBAR", UCM_PCI, 0x48, 8, MCHBAR_RESET, MCHBAR_RW, 0, 0, "SKL 3.3",
	    MCHBAR_RESET);
	/* Table 3-3 */
	put(&x[n++], "DRAM_GT_REQUESTS", UCM_MMIO, 0x5040, 4, 0, 0, IMC_RO, 0, "SKL Table 3-3", 0);
	put(&x[n++], "DRAM_IA_REQUESTS", UCM_MMIO, 0x5044, 4, 0, 0, IMC_RO, 0, "SKL Table 3-3", 0);
	put(&x[n++], "DRAM_IO_REQUESTS", UCM_MMIO, 0x5048, 4, 0, 0, IMC_RO, 0, "SKL Table 3-3", 0);
	put(&x[n++], "DRAM_DATA_READS", UCM_MMIO, 0x5050, 4, 0, 0, IMC_RO, 0, "SKL Table 3-3", 0);
	put(&x[n++], "DRAM_DATA_WRITES", UCM_MMIO, 0x5054, 4, 0, 0, IMC_RO, 0, "SKL Table 3-3", 0);
	return n;
}

#define MAXREGS 40

/* The key ucm_peek and ucm_reginfo use for a register. */
static uint64_t xkey(const struct xreg *x)
{
	return x->space == UCM_PCI ? ucm_pci_key(0, 0, 0, (unsigned)x->addr) : x->addr;
}

static int xread(struct ucm_model *m, const struct xreg *x, uint64_t *v)
{
	switch (x->space) {
	case UCM_MSR:
		return ucm_msr_read(m, 0, (uint32_t)x->addr, v);
	case UCM_PCI:
		return ucm_pci_read(m, 0, 0, 0, 0, (unsigned)x->addr, x->bytes, v);
	default:
		return ucm_mmio_read(m, MCHBAR_BASE + x->addr, x->bytes, v);
	}
}

static int xwrite(struct ucm_model *m, const struct xreg *x, uint64_t v)
{
	switch (x->space) {
	case UCM_MSR:
		return ucm_msr_write(m, 0, (uint32_t)x->addr, v);
	case UCM_PCI:
		return ucm_pci_write(m, 0, 0, 0, 0, (unsigned)x->addr, x->bytes, v);
	default:
		return ucm_mmio_write(m, MCHBAR_BASE + x->addr, x->bytes, v);
	}
}

/* ---- model construction ---- */

static const struct ucm_platform *skl(void)
{
	return ucm_platform_find("skl");
}

static int cbo_type_index(void)
{
	return ucm_boxtype_index(skl(), ucm_boxtype_find(skl(), "cbo"));
}

/* A Skylake model with ncbo CBos (0: default), free accesses. */
static struct ucm_model *mk(int strict, unsigned ncbo)
{
	struct ucm_config cfg;
	struct ucm_model *m = NULL;

	ucm_config_init(&cfg, skl());
	cfg.strict = strict;
	for (unsigned s = 0; s < UCM_NSPACES; s++)
		cfg.access_ps[s] = 0;
	if (ncbo)
		cfg.ninst[cbo_type_index()] = ncbo;
	if (ucm_create(&cfg, &m)) {
		ucm_destroy(m);
		return NULL;
	}
	return m;
}

static void wr(struct ucm_model *m, uint32_t addr, uint64_t v)
{
	int rc = ucm_msr_write(m, 0, addr, v);

	if (rc)
		ct_fail(__FILE__, __LINE__, "wrmsr 0x%x <- 0x%llx: %d (%s)", addr,
			(unsigned long long)v, rc, ucm_error(m));
}

static uint64_t rd(struct ucm_model *m, uint32_t addr)
{
	uint64_t v = 0;
	int rc = ucm_msr_read(m, 0, addr, &v);

	if (rc)
		ct_fail(__FILE__, __LINE__, "rdmsr 0x%x: %d (%s)", addr, rc, ucm_error(m));
	return v;
}

static void input(struct ucm_model *m, const char *type, unsigned inst, const char *sub,
		  uint32_t inc)
{
	int box = ucm_box_find(m, 0, type, inst);
	int s = box < 0 ? -1 : ucm_subev_find(ucm_box_def(m, box)->type, sub);

	if (s < 0 || ucm_set_input(m, box, (unsigned)s, inc))
		ct_fail(__FILE__, __LINE__, "input %s%u %s = %u: %s", type, inst, sub, inc,
			ucm_error(m));
}

/* The last strict record, or NULL when there are not exactly `want`. */
static const struct ucm_strict_rec *last_rec(struct ucm_model *m, size_t want)
{
	size_t n = ucm_strict_count(m);

	if (n != want) {
		char buf[512];

		ct_fail(__FILE__, __LINE__, "%zu strict records, expected %zu", n, want);
		for (size_t i = 0; i < n; i++)
			if (ucm_strict_format(m, i, buf, sizeof(buf)) == 0)
				fprintf(stderr, "  record %zu: %s\n", i, buf);
		return NULL;
	}
	return n ? ucm_strict_get(m, n - 1) : NULL;
}

/* ---- tests ---- */

/* SKL Table 2-1, 3.3, Table 3-3 and Tables 2-2..2-8: the model implements
 * exactly these registers, with the fields (access types, reserved bits),
 * reset values and citations of the manual; with 2 CBos (D3) the registers
 * of CBo 2 and 3 do not exist. */
CT_TEST(register_map_matches_the_manual)
{
	static const unsigned ncbos[] = { 4, 2, 1 };

	for (unsigned k = 0; k < sizeof(ncbos) / sizeof(ncbos[0]); k++) {
		struct ucm_model *m = mk(1, ncbos[k]);
		struct xreg x[MAXREGS];
		size_t n = skl_regs(x, ncbos[k]);
		int seen[MAXREGS] = { 0 };

		CT_REQUIRE(m);
		/* 5 global/fixed + 4 ARB + 4 per CBo + 3 PCI + 5 IMC */
		CT_EQ(n, 17 + 4 * ncbos[k]);
		CT_EQ(ucm_nregs(m), n);
		for (size_t i = 0; i < ucm_nregs(m); i++) {
			struct ucm_reginfo ri;
			size_t j;

			CT_REQUIRE(ucm_reginfo(m, i, &ri) == 0);
			for (j = 0; j < n; j++)
				if (x[j].space == ri.space && xkey(&x[j]) == ri.addr)
					break;
			if (j == n) {
				ct_fail(__FILE__, __LINE__, "register %s (space %u, 0x%llx) is not in the manual",
					ri.name, ri.space, (unsigned long long)ri.addr);
				continue;
			}
			seen[j]++;
			CT_STREQ(ri.name, x[j].name);
			CT_EQ(ri.socket, 0);
			CT_EQ(ri.width, 8 * x[j].bytes);
			CT_EQ(ri.reset, x[j].reset);
			CT_EQ(ri.rw_mask, x[j].rw);
			CT_EQ(ri.ro_mask, x[j].ro);
			CT_EQ(ri.w1c_mask, x[j].w1c);
			CT_EQ(ri.wo_mask, 0);
			CT_EQ(ri.rsvd_mask, rsvd_mask(&x[j]));
			CT_REQUIRE(ri.layout);
			CT_STREQ(ri.layout->cite, x[j].cite);
		}
		for (size_t j = 0; j < n; j++)
			if (seen[j] != 1)
				ct_fail(__FILE__, __LINE__, "%s found %d times", x[j].name, seen[j]);
		ucm_destroy(m);
	}
}

/* Tables 2-2..2-8, 3.3, Table 3-3: every register reads its reset value
 * through the hardware interface right after creation: 0 everywhere except
 * CBO_CONFIG (CBos + 1, D3), VID 0x8086, DID 0x191F (the platform's first
 * host bridge ID) and MCHBAR 0xFED10001 (D11). */
CT_TEST(reset_values_read_through_the_hardware_interface)
{
	struct ucm_model *m = mk(1, 0);
	struct xreg x[MAXREGS];
	size_t n = skl_regs(x, 4);

	CT_REQUIRE(m);
	for (size_t j = 0; j < n; j++) {
		uint64_t v = ~0ull, p = ~0ull;
		int rc = xread(m, &x[j], &v);

		if (rc || v != x[j].reset)
			ct_fail(__FILE__, __LINE__, "%s: rc %d, read 0x%llx, reset 0x%llx", x[j].name,
				rc, (unsigned long long)v, (unsigned long long)x[j].reset);
		rc = ucm_peek(m, x[j].space, 0, xkey(&x[j]), &p);
		if (rc || p != x[j].reset)
			ct_fail(__FILE__, __LINE__, "%s: peek rc %d, 0x%llx", x[j].name, rc,
				(unsigned long long)p);
	}
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* Flip each bit of a register, from base, one write at a time: RW bits are
 * stored, RO bits keep their value, RW1C bits with nothing set read 0, and
 * reserved bits are ignored and read 0 (D11, D12).  In strict mode each
 * write of a reserved bit is one record citing the register's table, each
 * write changing an RO bit one record; any other write none. */
static void walk(struct ucm_model *m, const struct xreg *x, uint64_t base, int strict)
{
	for (unsigned b = 0; b < 8 * x->bytes; b++) {
		uint64_t w = base ^ BIT(b), v = ~0ull, want = (w & x->rw) | (x->reset & x->ro);
		size_t before = ucm_strict_count(m), recs;
		int rc;

		if ((rc = xwrite(m, x, w)) != 0) {
			ct_fail(__FILE__, __LINE__, "%s <- 0x%llx: %d (%s)", x->name,
				(unsigned long long)w, rc, ucm_error(m));
			continue;
		}
		rc = xread(m, x, &v);
		if (rc || v != want)
			ct_fail(__FILE__, __LINE__, "%s bit %u: wrote 0x%llx, read 0x%llx (rc %d), expected 0x%llx",
				x->name, b, (unsigned long long)w, (unsigned long long)v, rc,
				(unsigned long long)want);
		recs = ucm_strict_count(m) - before;
		if (!strict) {
			if (recs)
				ct_fail(__FILE__, __LINE__, "%s bit %u: %zu strict records with strict off",
					x->name, b, recs);
		} else if (BIT(b) & (rsvd_mask(x) | x->ro)) {
			const struct ucm_strict_rec *r = ucm_strict_get(m, before);

			if (recs != 1 || !r) {
				ct_fail(__FILE__, __LINE__, "%s bit %u: %zu strict records, expected 1",
					x->name, b, recs);
				continue;
			}
			CT_EQ(r->space, x->space);
			CT_EQ(r->addr, xkey(x));
			CT_STREQ(r->reg, x->name);
			CT_CONTAINS(r->rule, (BIT(b) & x->ro) ? "read-only" : "reserved");
			CT_CONTAINS(r->rule, x->cite);
		} else if (recs) {
			ct_fail(__FILE__, __LINE__, "%s bit %u (not reserved): %zu strict records",
				x->name, b, recs);
		}
	}
	/* back to the reset value (a moved MCHBAR would hide the IMC) */
	CT_EQ(xwrite(m, x, x->reset), 0);
}

/* Tables 2-2..2-8, 3.3, 3-3 with D1, D11, D12: every bit of every register,
 * from a clean value: reserved bits ignored, read 0 and recorded in strict
 * mode with the table that calls them reserved; RO registers (CBO_CONFIG,
 * VID, DID, IMC counters) unchanged by writes and the write recorded. */
CT_TEST(every_bit_written_strict)
{
	struct ucm_model *m = mk(1, 0);
	struct xreg x[MAXREGS];
	size_t n = skl_regs(x, 4);

	CT_REQUIRE(m);
	for (size_t j = 0; j < n; j++)
		walk(m, &x[j], x[j].base, 1);
	ucm_destroy(m);
}

/* The same walk with strict mode off, from the clean value and from every
 * RW bit set (so each RW bit is also cleared alone): the same values read
 * back and nothing is recorded (cfg.strict = 0); nor are the other
 * programming errors strict mode knows.  Turning strict on records again. */
CT_TEST(every_bit_written_not_strict_records_nothing)
{
	struct ucm_model *m = mk(0, 0);
	struct xreg x[MAXREGS];
	size_t n = skl_regs(x, 4);
	uint64_t v;

	CT_REQUIRE(m);
	for (size_t j = 0; j < n; j++) {
		walk(m, &x[j], x[j].base, 0);
		walk(m, &x[j], x[j].base | x[j].rw, 0);
	}
	/* D4, Table 3-1/3-2, D7, D11 cases of strict_* below */
	wr(m, CBO_SEL(0, 0), SEL_EN | SEL_INV | EV(0x34, 0x11));
	wr(m, CBO_SEL(0, 0), SEL_EN | EV(0x35, 0x11));
	wr(m, CBO_SEL(0, 1), SEL_EN | EV(0x34, 0x40));
	wr(m, CBO_SEL(1, 0), SEL_EN | EV(0x34, 0x10));
	wr(m, ARB_SEL(1), SEL_EN | EV(0x80, 0x01));
	wr(m, CBO_CONFIG, 0);
	wr(m, GSTAT, BIT(31));
	CT_EQ(ucm_mmio_write(m, MCHBAR_BASE + 0x5050, 4, 123), 0);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5050, 8, &v), 0);
	CT_EQ(ucm_strict_count(m), 0);
	ucm_set_strict(m, 1);
	wr(m, GCTL, BIT(4));
	CT_EQ(ucm_strict_count(m), 1);
	ucm_destroy(m);
}

/* Table 2-2: every RW field of GLOBAL_CTRL takes all ones and all zeros
 * together; writing all 64 bits stores exactly the fields. */
CT_TEST(global_ctrl_fields)
{
	struct ucm_model *m = mk(1, 0);

	CT_REQUIRE(m);
	wr(m, GCTL, ~0ull);
	CT_EQ(rd(m, GCTL), 0xE000000Full);
	CT_EQ(ucm_strict_count(m), 1); /* 63:32 and 28:4 reserved */
	wr(m, GCTL, BIT(31));
	CT_EQ(rd(m, GCTL), BIT(31));
	wr(m, GCTL, BIT(30) | BIT(2));
	CT_EQ(rd(m, GCTL), BIT(30) | BIT(2));
	wr(m, GCTL, BIT(29) | BIT(1));
	CT_EQ(rd(m, GCTL), BIT(29) | BIT(1));
	wr(m, GCTL, 0);
	CT_EQ(rd(m, GCTL), 0);
	CT_EQ(ucm_strict_count(m), 1);
	ucm_destroy(m);
}

/* Table 2-3 with D1: CBO_CTR_OVF is bit 3, ARB 1, FIXED 0, all RW1C: the
 * hardware sets them on an OVF_EN overflow (D10), writing 0 is ignored,
 * writing 1 clears only that bit, software cannot set them; bit 2 and bit
 * 31 (the table's misprinted CBo bit) are reserved. */
CT_TEST(global_status_rw1c)
{
	struct ucm_model *m = mk(1, 0);

	CT_REQUIRE(m);
	/* software cannot set a status bit */
	wr(m, GSTAT, GLOBAL_STATUS_W1C);
	CT_EQ(rd(m, GSTAT), 0);
	/* one overflow of each unit in the same cycle */
	input(m, "arb", 0, "TRK_REQUESTS.NONWRITES", 1);
	input(m, "cbo", 2, "CACHE_LOOKUP.WRITE_S", 1);
	for (int round = 0; round < 2; round++) {
		wr(m, FIXED_CTR, BITS(47, 0));
		wr(m, FIXED_CTRL, BIT(22) | BIT(20));
		wr(m, ARB_CTR(0), PERFCTR_RW);
		wr(m, ARB_SEL(0), SEL_EN | SEL_OVF | EV(0x81, 0x01));
		wr(m, CBO_CTR(2, 1), PERFCTR_RW);
		wr(m, CBO_SEL(2, 1), SEL_EN | SEL_OVF | EV(0x34, 0x24));
		wr(m, GCTL, BIT(29));
		CT_EQ(ucm_run_cycles(m, 0, 1), 0);
		wr(m, GCTL, 0);
		CT_EQ(rd(m, FIXED_CTR), 0);
		CT_EQ(rd(m, ARB_CTR(0)), 0);
		CT_EQ(rd(m, CBO_CTR(2, 1)), 0);
		CT_EQ(rd(m, GSTAT), BIT(3) | BIT(1) | BIT(0));
		if (round == 1) {
			/* all at once */
			wr(m, GSTAT, GLOBAL_STATUS_W1C);
			CT_EQ(rd(m, GSTAT), 0);
			break;
		}
		wr(m, GSTAT, 0);
		CT_EQ(rd(m, GSTAT), 0xB);
		CT_EQ(ucm_strict_count(m), 0);
		wr(m, GSTAT, BIT(2));
		CT_EQ(rd(m, GSTAT), 0xB);
		wr(m, GSTAT, BIT(31));
		CT_EQ(rd(m, GSTAT), 0xB);
		CT_EQ(ucm_strict_count(m), 2);
		wr(m, GSTAT, BIT(1));
		CT_EQ(rd(m, GSTAT), 0x9);
		wr(m, GSTAT, BIT(3));
		CT_EQ(rd(m, GSTAT), 0x1);
		wr(m, GSTAT, BIT(1) | BIT(3));
		CT_EQ(rd(m, GSTAT), 0x1);
		wr(m, GSTAT, BIT(0));
		CT_EQ(rd(m, GSTAT), 0);
	}
	CT_EQ(ucm_strict_count(m), 2);
	ucm_destroy(m);
}

/* Table 2-6, 2.4.1 with D3: NO_CBO_BANKS = CBos + 1 for 1..4 CBos; the MSRs
 * of absent CBos fault (-EIO) on read and write, present ones do not; more
 * than 4 CBos is refused; 0 means the default of 4. */
CT_TEST(cbo_config_counts_cbos_plus_one)
{
	for (unsigned n = 0; n <= 4; n++) {
		struct ucm_model *m = mk(1, n);
		unsigned want = n ? n : 4;
		uint64_t v;

		CT_REQUIRE(m);
		CT_EQ(rd(m, CBO_CONFIG), want + 1);
		CT_EQ(ucm_ninst(m, ucm_boxtype_find(skl(), "cbo")), want);
		for (unsigned c = 0; c < 4; c++) {
			static const unsigned off[] = { 0, 1, 6, 7 };
			int rc_want = c < want ? 0 : -EIO;

			CT_EQ(ucm_box_find(m, 0, "cbo", c) >= 0, c < want);
			for (unsigned k = 0; k < 4; k++) {
				uint32_t a = 0x700u + 0x10u * c + off[k];

				CT_EQ(ucm_msr_read(m, 0, a, &v), rc_want);
				CT_EQ(ucm_msr_write(m, 0, a, 0), rc_want);
				if (c >= want)
					CT_CONTAINS(ucm_error(m), "no such MSR");
			}
		}
		CT_EQ(ucm_strict_count(m), 0);
		ucm_destroy(m);
	}
	{
		struct ucm_config cfg;
		struct ucm_model *m = NULL;

		ucm_config_init(&cfg, skl());
		cfg.ninst[cbo_type_index()] = 5;
		CT_EQ(ucm_create(&cfg, &m), -EINVAL);
		ucm_destroy(m);
	}
}

/* Table 2-6 "read only": a write never changes NO_CBO_BANKS; strict mode
 * records a write that would change it or sets reserved bits 63:4, and (as
 * docs/platform-skl.md's access semantics say) not a write of the value it
 * already has. */
CT_TEST(cbo_config_read_only)
{
	struct ucm_model *m = mk(1, 3);
	const struct ucm_strict_rec *r;

	CT_REQUIRE(m);
	CT_EQ(rd(m, CBO_CONFIG), 4);
	wr(m, CBO_CONFIG, 4);
	CT_EQ(ucm_strict_count(m), 0);
	wr(m, CBO_CONFIG, 0);
	CT_EQ(rd(m, CBO_CONFIG), 4);
	r = last_rec(m, 1);
	if (r) {
		CT_EQ(r->addr, CBO_CONFIG);
		CT_STREQ(r->reg, "MSR_UNC_CBO_CONFIG");
		CT_CONTAINS(r->rule, "read-only");
		CT_CONTAINS(r->rule, "SKL Table 2-6");
	}
	wr(m, CBO_CONFIG, 0x14);
	CT_EQ(rd(m, CBO_CONFIG), 4);
	r = last_rec(m, 2);
	if (r)
		CT_CONTAINS(r->rule, "reserved");
	ucm_destroy(m);
}

/* Table 2-1, Table 1-1, D9, D11: MSRs the manual does not list fault with
 * -EIO (the #GP of rdmsr/wrmsr), reading 0: the 5th generation addresses
 * 0x391/0x392, the neighbours of every register, CBo event selects 2 and 3
 * (2.4.2's "four" per CBo, D9).  Uncore MSRs are package-wide: every cpu of
 * the socket sees the same register; a cpu beyond the socket is -ENXIO. */
CT_TEST(unlisted_msrs_fault)
{
	static const uint32_t bad[] = {
		0x391, 0x392, 0x393, 0x397, 0x3AF, 0x3B4, 0x3B5, 0x6FF, 0x702, 0x703, 0x704, 0x705,
		0x708, 0x70F, 0x712, 0x718, 0x722, 0x732, 0x738, 0x740, 0x746, 0xE00, 0xE03, 0x0,
		0xFFFFFFFF,
	};
	struct ucm_model *m = mk(1, 0);

	CT_REQUIRE(m);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 1;

		CT_EQ(ucm_msr_read(m, 0, bad[i], &v), -EIO);
		CT_EQ(v, 0);
		CT_CONTAINS(ucm_error(m), "no such MSR");
		CT_EQ(ucm_msr_write(m, 0, bad[i], 0), -EIO);
	}
	for (unsigned cpu = 0; cpu < 4; cpu++) {
		uint64_t v;

		CT_EQ(ucm_msr_write(m, cpu, CBO_CTR(1, 0), 100 + cpu), 0);
		for (unsigned c2 = 0; c2 < 4; c2++) {
			CT_EQ(ucm_msr_read(m, c2, CBO_CTR(1, 0), &v), 0);
			CT_EQ(v, 100 + cpu);
		}
	}
	{
		uint64_t v;

		CT_EQ(ucm_msr_read(m, 4, GCTL, &v), -ENXIO);
		CT_EQ(ucm_msr_write(m, 4, GCTL, 0), -ENXIO);
	}
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* Host bridge 0:0.0 (3.3, public facts): VID 0x8086 and DID read-only,
 * DID the platform's first ID unless cfg.devid says otherwise; config reads
 * of 1, 2, 4 and 8 bytes assemble byte lanes across registers (D11). */
CT_TEST(hostbridge_ids_and_byte_lanes)
{
	struct ucm_model *m = mk(1, 0);
	uint64_t v;

	CT_REQUIRE(m);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x00, 2, &v), 0);
	CT_EQ(v, 0x8086);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x02, 2, &v), 0);
	CT_EQ(v, 0x191F);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x00, 4, &v), 0);
	CT_EQ(v, 0x191F8086);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x01, 1, &v), 0);
	CT_EQ(v, 0x80);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x01, 2, &v), 0);
	CT_EQ(v, 0x1F80);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x00, 8, &v), 0);
	CT_EQ(v, 0x191F8086); /* 0x04..0x07 unimplemented: 0 */
	/* RO: a write changes nothing and is recorded */
	CT_EQ(ucm_pci_write(m, 0, 0, 0, 0, 0x02, 2, 0x1234), 0);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x02, 2, &v), 0);
	CT_EQ(v, 0x191F);
	CT_EQ(ucm_strict_count(m), 1);
	ucm_destroy(m);
	{
		struct ucm_config cfg;

		ucm_config_init(&cfg, skl());
		cfg.devid = 0x1904;
		CT_REQUIRE(ucm_create(&cfg, &m) == 0);
		CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x00, 4, &v), 0);
		CT_EQ(v, 0x19048086);
		ucm_destroy(m);
	}
}

/* D11: an absent PCI device answers -ENODEV and reads all ones (a master
 * abort) at every width; a present device's offsets without a register
 * read 0 and ignore writes; widths other than 1/2/4/8 and accesses past
 * 4 KiB are -EINVAL. */
CT_TEST(pci_absent_devices_and_holes)
{
	static const unsigned absent[][4] = {
		{ 0, 0, 1, 0 }, { 0, 0, 0, 1 }, { 0, 1, 0, 0 }, { 0, 0, 2, 0 }, { 1, 0, 0, 0 },
	};
	static const unsigned holes[] = { 0x04, 0x08, 0x10, 0x40, 0x44, 0x50, 0x100, 0xFFC };
	struct ucm_model *m = mk(1, 0);
	uint64_t v;

	CT_REQUIRE(m);
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
		const unsigned *a = absent[i];
		static const unsigned w[] = { 1, 2, 4, 8 };

		for (size_t k = 0; k < 4; k++) {
			CT_EQ(ucm_pci_read(m, a[0], a[1], a[2], a[3], 0, w[k], &v), -ENODEV);
			CT_EQ(v, w[k] == 8 ? ~0ull : BIT(8 * w[k]) - 1);
		}
		CT_EQ(ucm_pci_write(m, a[0], a[1], a[2], a[3], 0x48, 4, 0), -ENODEV);
	}
	for (size_t i = 0; i < sizeof(holes) / sizeof(holes[0]); i++) {
		CT_EQ(ucm_pci_write(m, 0, 0, 0, 0, holes[i], 4, 0xFFFFFFFF), 0);
		CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, holes[i], 4, &v), 0);
		CT_EQ(v, 0);
	}
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x48, 3, &v), -EINVAL);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x48, 16, &v), -EINVAL);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0xFFE, 4, &v), -EINVAL);
	CT_EQ(ucm_pci_write(m, 0, 0, 0, 0, 0xFFE, 4, 0), -EINVAL);
	/* the MCHBAR is untouched by all that */
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x48, 8, &v), 0);
	CT_EQ(v, MCHBAR_RESET);
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* 3.3 with D11, D14: MCHBAR at 0:0.0 offset 0x48 is 64-bit (dwords 0x48 and
 * 0x4C), default 0xFED10001; bit 0 enables the window, the bits of the mask
 * 0x0007FFFF8000 (34:15) place it;
 * byte-lane writes change only their bytes; cfg.bar sets a base above 4 GiB. */
CT_TEST(mchbar_fields_and_lanes)
{
	struct ucm_model *m = mk(1, 0);
	uint64_t v;

	CT_REQUIRE(m);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x48, 8, &v), 0);
	CT_EQ(v, 0xFED10001);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x48, 4, &v), 0);
	CT_EQ(v, 0xFED10001);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x4C, 4, &v), 0);
	CT_EQ(v, 0);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x4A, 2, &v), 0);
	CT_EQ(v, 0xFED1);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x4B, 1, &v), 0);
	CT_EQ(v, 0xFE);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x44, 8, &v), 0);
	CT_EQ(v, 0xFED10001ull << 32);
	/* byte 0x48 <- 0: clears the enable bit only */
	CT_EQ(ucm_pci_write(m, 0, 0, 0, 0, 0x48, 1, 0), 0);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x48, 8, &v), 0);
	CT_EQ(v, 0xFED10000);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5040, 4, &v), -ENXIO);
	CT_EQ(ucm_pci_write(m, 0, 0, 0, 0, 0x48, 1, 1), 0);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5040, 4, &v), 0);
	/* high dword <- 0x3: base 0x3_FED1_0000 */
	CT_EQ(ucm_pci_write(m, 0, 0, 0, 0, 0x4C, 4, 3), 0);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x48, 8, &v), 0);
	CT_EQ(v, 0x3FED10001ull);
	CT_EQ(ucm_mmio_read(m, 0x3FED10000ull + 0x5040, 4, &v), 0);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5040, 4, &v), -ENXIO);
	/* bits 63:35 and 14:1 reserved */
	CT_EQ(ucm_pci_write(m, 0, 0, 0, 0, 0x4C, 4, 0xFFFFFFFF), 0);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x4C, 4, &v), 0);
	CT_EQ(v, 0x7);
	CT_EQ(ucm_pci_write(m, 0, 0, 0, 0, 0x48, 2, 0xFFFF), 0);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x48, 4, &v), 0);
	CT_EQ(v, 0xFED18001);
	CT_EQ(ucm_strict_count(m), 2);
	ucm_destroy(m);
	{
		struct ucm_config cfg;

		ucm_config_init(&cfg, skl());
		cfg.bar = 0x200008001ull;
		CT_REQUIRE(ucm_create(&cfg, &m) == 0);
		CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x48, 8, &v), 0);
		CT_EQ(v, 0x200008001ull);
		CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x4C, 4, &v), 0);
		CT_EQ(v, 2);
		CT_EQ(ucm_mmio_read(m, 0x200008000ull + 0x5050, 4, &v), 0);
		CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5050, 4, &v), -ENXIO);
		ucm_destroy(m);
	}
}

/* D11: MMIO decodes only while MCHBAR is enabled, in BAR..BAR+0x7FFF;
 * outside -ENXIO (reading all ones); offsets without a register read 0;
 * 4 or 8 bytes naturally aligned only, else -EINVAL. */
CT_TEST(mmio_window)
{
	struct ucm_model *m = mk(1, 0);
	uint64_t v;

	CT_REQUIRE(m);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE, 4, &v), 0);
	CT_EQ(v, 0);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x7FFC, 4, &v), 0);
	CT_EQ(v, 0);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x7FF8, 8, &v), 0);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x504C, 4, &v), 0);
	CT_EQ(v, 0);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x8000, 4, &v), -ENXIO);
	CT_EQ(v, 0xFFFFFFFF);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE - 4, 4, &v), -ENXIO);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE - 8, 8, &v), -ENXIO);
	CT_EQ(v, ~0ull);
	CT_EQ(ucm_mmio_write(m, MCHBAR_BASE + 0x8000, 4, 0), -ENXIO);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5040, 2, &v), -EINVAL);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5040, 1, &v), -EINVAL);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5042, 4, &v), -EINVAL);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5044, 8, &v), -EINVAL);
	CT_EQ(ucm_mmio_write(m, MCHBAR_BASE + 0x5041, 4, 0), -EINVAL);
	/* disabled BAR: nothing decodes */
	CT_EQ(ucm_pci_write(m, 0, 0, 0, 0, 0x48, 4, 0xFED10000), 0);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5050, 4, &v), -ENXIO);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE, 4, &v), -ENXIO);
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* Table 3-3 with D11: the IMC counters are read-only: a write changes
 * nothing and strict records it; a 4-byte read is clean; an 8-byte read at
 * 0x5050 returns DATA_READS in the low and DATA_WRITES in the high half, and
 * strict records it (the counters are 32-bit). */
CT_TEST(imc_counters_read_only_and_wide_reads)
{
	struct ucm_model *m = mk(1, 0);
	const struct ucm_strict_rec *r;
	uint64_t v;

	CT_REQUIRE(m);
	input(m, "imc", 0, "DRAM_DATA_READS", 1);
	input(m, "imc", 0, "DRAM_GT_REQUESTS", 1);
	CT_EQ(ucm_run_cycles(m, 0, 100), 0);
	input(m, "imc", 0, "DRAM_DATA_WRITES", 1);
	input(m, "imc", 0, "DRAM_IA_REQUESTS", 1);
	CT_EQ(ucm_run_cycles(m, 0, 40), 0);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5050, 4, &v), 0);
	CT_EQ(v, 140);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5054, 4, &v), 0);
	CT_EQ(v, 40);
	CT_EQ(ucm_strict_count(m), 0);
	/* writes ignored, recorded */
	CT_EQ(ucm_mmio_write(m, MCHBAR_BASE + 0x5050, 4, 0), 0);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5050, 4, &v), 0);
	CT_EQ(v, 140);
	r = last_rec(m, 1);
	if (r) {
		CT_EQ(r->space, UCM_MMIO);
		CT_EQ(r->addr, 0x5050);
		CT_STREQ(r->reg, "DRAM_DATA_READS");
		CT_CONTAINS(r->rule, "read-only");
		CT_CONTAINS(r->rule, "SKL Table 3-3");
	}
	CT_EQ(ucm_mmio_write(m, MCHBAR_BASE + 0x5050, 8, ~0ull), 0);
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5054, 4, &v), 0);
	CT_EQ(v, 40);
	ucm_strict_clear(m);
	/* 8-byte reads: two counters, torn */
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5050, 8, &v), 0);
	CT_EQ(v, (40ull << 32) | 140);
	r = last_rec(m, 1);
	if (r) {
		CT_EQ(r->space, UCM_MMIO);
		CT_EQ(r->addr, 0x5050);
		CT_CONTAINS(r->rule, "64-bit");
		CT_CONTAINS(r->rule, "SKL Table 3-3");
	}
	CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + 0x5040, 8, &v), 0);
	CT_EQ(v, (40ull << 32) | 140);
	CT_EQ(ucm_strict_count(m), 2);
	ucm_destroy(m);
}

/* The strict records of programming the manual leaves undefined, each
 * exactly one record naming the register and the rule:
 * Table 2-7 with D4 (INV or E with THR = 0), Table 3-1 (event code not in
 * the CBo table, umask bits not defined, a umask selecting no sub-event),
 * Table 3-2 with D7 (TRK_OCCUPANCY on ARB counter 1). */
CT_TEST(strict_records_undefined_programming)
{
	static const struct {
		uint32_t addr;
		uint64_t val;
		const char *reg, *rule, *cite;
	} cases[] = {
		{ CBO_SEL(0, 0), SEL_EN | SEL_INV | EV(0x34, 0x11), "MSR_UNC_CBO_0_PERFEVTSEL0",
		  "THRESH=0", "SKL Table 2-7" },
		{ CBO_SEL(1, 1), SEL_EN | SEL_E | EV(0x34, 0x11), "MSR_UNC_CBO_1_PERFEVTSEL1",
		  "THRESH=0", "SKL Table 2-7" },
		{ ARB_SEL(0), SEL_EN | SEL_E | SEL_INV | EV(0x81, 0x01), "MSR_UNC_ARB_PERFEVTSEL0",
		  "THRESH=0", "SKL Table 2-7" },
		{ CBO_SEL(2, 0), SEL_EN | EV(0x35, 0x11), "MSR_UNC_CBO_2_PERFEVTSEL0",
		  "event code 0x35", "cbo event table" },
		{ ARB_SEL(0), SEL_EN | EV(0x34, 0x11), "MSR_UNC_ARB_PERFEVTSEL0",
		  "event code 0x34", "arb event table" },
		{ ARB_SEL(1), SEL_EN | EV(0x80, 0x01), "MSR_UNC_ARB_PERFEVTSEL1",
		  "not allowed on counter 1", "SKL Table 3-2" },
		{ ARB_SEL(1), SEL_EN | SEL_THR(1) | EV(0x80, 0x01), "MSR_UNC_ARB_PERFEVTSEL1",
		  "not allowed on counter 1", "SKL Table 3-2" },
		{ CBO_SEL(3, 1), SEL_EN | EV(0x34, 0x40), "MSR_UNC_CBO_3_PERFEVTSEL1",
		  "not defined", "SKL Table 3-1" },
		{ CBO_SEL(0, 1), SEL_EN | EV(0x22, 0x42), "MSR_UNC_CBO_0_PERFEVTSEL1",
		  "not defined", "SKL Table 3-1" },
		/* umask 0x02 is defined since D16 (Intel's event file): 0x04 is not */
		{ ARB_SEL(1), SEL_EN | EV(0x81, 0x04), "MSR_UNC_ARB_PERFEVTSEL1",
		  "not defined", "SKL Table 3-2" },
		{ CBO_SEL(0, 0), SEL_EN | EV(0x34, 0x10), "MSR_UNC_CBO_0_PERFEVTSEL0",
		  "selects no sub-event", "SKL Table 3-1" },
		{ CBO_SEL(0, 0), SEL_EN | EV(0x34, 0x0F), "MSR_UNC_CBO_0_PERFEVTSEL0",
		  "selects no sub-event", "SKL Table 3-1" },
		{ CBO_SEL(1, 0), SEL_EN | EV(0x22, 0x40), "MSR_UNC_CBO_1_PERFEVTSEL0",
		  "selects no sub-event", "SKL Table 3-1" },
		{ CBO_SEL(1, 0), SEL_EN | BIT(21) | EV(0x34, 0x11), "MSR_UNC_CBO_1_PERFEVTSEL0",
		  "reserved", "SKL Table 2-7" },
		{ ARB_CTR(1), BIT(44), "MSR_UNC_ARB_PERFCTR1", "reserved", "SKL Table 2-8" },
		{ FIXED_CTR, BIT(48), "MSR_UNC_PERF_FIXED_CTR", "reserved", "SKL Table 2-5" },
		{ FIXED_CTRL, BIT(21), "MSR_UNC_PERF_FIXED_CTRL", "reserved", "SKL Table 2-4" },
		{ CBO_CONFIG, 1, "MSR_UNC_CBO_CONFIG", "read-only", "SKL Table 2-6" },
	};
	struct ucm_model *m = mk(1, 0);

	CT_REQUIRE(m);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ucm_strict_rec *r;

		ucm_strict_clear(m);
		wr(m, cases[i].addr, cases[i].val);
		r = last_rec(m, 1);
		if (!r) {
			fprintf(stderr, "  case %zu: 0x%x <- 0x%llx\n", i, cases[i].addr,
				(unsigned long long)cases[i].val);
			continue;
		}
		CT_EQ(r->space, UCM_MSR);
		CT_EQ(r->addr, cases[i].addr);
		CT_EQ(r->value, cases[i].val);
		CT_STREQ(r->reg, cases[i].reg);
		CT_CONTAINS(r->rule, cases[i].rule);
		CT_CONTAINS(r->rule, cases[i].cite);
		/* a clean write of the same register ends the case */
		ucm_strict_clear(m);
		wr(m, cases[i].addr, cases[i].addr == CBO_CONFIG ? 5 : 0);
		CT_EQ(ucm_strict_count(m), 0);
	}
	ucm_destroy(m);
}

/* Tables 3-1 and 3-2 with D5, D7, Table 2-4: every row of the event tables,
 * enabled with OVF_EN on every counter its table allows, the fixed counter,
 * GLOBAL_CTRL with every field, 4-byte IMC reads and MCHBAR dword reads:
 * all of it is defined programming and strict mode records nothing. */
CT_TEST(strict_clean_programming_of_every_table_row)
{
	static const struct {
		const char *box;
		uint8_t code, umask, thr, ctrs;
	} rows[] = {
		/* Table 3-1 */
		{ "cbo", 0x22, 0x41, 0, 3 }, { "cbo", 0x22, 0x81, 0, 3 }, { "cbo", 0x22, 0x44, 0, 3 },
		{ "cbo", 0x22, 0x48, 0, 3 }, { "cbo", 0x34, 0x21, 0, 3 }, { "cbo", 0x34, 0x81, 0, 3 },
		{ "cbo", 0x34, 0x18, 0, 3 }, { "cbo", 0x34, 0x88, 0, 3 }, { "cbo", 0x34, 0x1F, 0, 3 },
		{ "cbo", 0x34, 0x2F, 0, 3 }, { "cbo", 0x34, 0x8F, 0, 3 }, { "cbo", 0x34, 0x86, 0, 3 },
		{ "cbo", 0x34, 0x16, 0, 3 }, { "cbo", 0x34, 0x26, 0, 3 },
		/* Table 3-2 (CYCLES_WITH_ANY_REQUEST: THR=1, D5) */
		{ "arb", 0x80, 0x01, 0, 1 }, { "arb", 0x81, 0x01, 0, 3 }, { "arb", 0x81, 0x20, 0, 3 },
		{ "arb", 0x84, 0x01, 0, 3 }, { "arb", 0x80, 0x01, 1, 1 },
	};
	struct ucm_model *m = mk(1, 0);
	uint64_t v;

	CT_REQUIRE(m);
	wr(m, GCTL, GLOBAL_CTRL_RW);
	wr(m, FIXED_CTRL, BIT(22) | BIT(20));
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		for (unsigned c = 0; c < 2; c++) {
			uint64_t sel = SEL_EN | SEL_OVF | SEL_THR(rows[i].thr) |
				       EV(rows[i].code, rows[i].umask);

			if (!(rows[i].ctrs & (1u << c)))
				continue;
			if (rows[i].box[0] == 'a') {
				wr(m, ARB_SEL(c), sel);
			} else {
				for (unsigned n = 0; n < 4; n++)
					wr(m, CBO_SEL(n, c), sel);
			}
			/* edge detect and invert with a threshold are defined too */
			if (rows[i].thr)
				wr(m, ARB_SEL(c), sel | SEL_E | SEL_INV);
		}
	for (unsigned o = 0x5040; o <= 0x5054; o += 4)
		CT_EQ(ucm_mmio_read(m, MCHBAR_BASE + o, 4, &v), 0);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x48, 4, &v), 0);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x4C, 4, &v), 0);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x48, 8, &v), 0);
	wr(m, GSTAT, GLOBAL_STATUS_W1C);
	wr(m, GCTL, 0);
	if (ucm_strict_count(m))
		last_rec(m, 0);
	ucm_destroy(m);
}

/* Tables 3-1, 3-2, 3-3: the platform's named events are the manual's rows,
 * with D5's threshold for CYCLES_WITH_ANY_REQUEST. */
CT_TEST(event_tables_match_the_manual)
{
	static const struct {
		const char *name, *box;
		unsigned code, umask, thr;
	} rows[] = {
		{ "UNC_CBO_XSNP_RESPONSE.MISS_XCORE", "cbo", 0x22, 0x41, 0 },
		{ "UNC_CBO_XSNP_RESPONSE.MISS_EVICTION", "cbo", 0x22, 0x81, 0 },
		{ "UNC_CBO_XSNP_RESPONSE.HIT_XCORE", "cbo", 0x22, 0x44, 0 },
		{ "UNC_CBO_XSNP_RESPONSE.HITM_XCORE", "cbo", 0x22, 0x48, 0 },
		{ "UNC_CBO_CACHE_LOOKUP.WRITE_M", "cbo", 0x34, 0x21, 0 },
		{ "UNC_CBO_CACHE_LOOKUP.ANY_M", "cbo", 0x34, 0x81, 0 },
		{ "UNC_CBO_CACHE_LOOKUP.READ_I", "cbo", 0x34, 0x18, 0 },
		{ "UNC_CBO_CACHE_LOOKUP.ANY_I", "cbo", 0x34, 0x88, 0 },
		{ "UNC_CBO_CACHE_LOOKUP.READ_MESI", "cbo", 0x34, 0x1F, 0 },
		{ "UNC_CBO_CACHE_LOOKUP.WRITE_MESI", "cbo", 0x34, 0x2F, 0 },
		{ "UNC_CBO_CACHE_LOOKUP.ANY_MESI", "cbo", 0x34, 0x8F, 0 },
		{ "UNC_CBO_CACHE_LOOKUP.ANY_ES", "cbo", 0x34, 0x86, 0 },
		{ "UNC_CBO_CACHE_LOOKUP.READ_ES", "cbo", 0x34, 0x16, 0 },
		{ "UNC_CBO_CACHE_LOOKUP.WRITE_ES", "cbo", 0x34, 0x26, 0 },
		{ "UNC_ARB_TRK_OCCUPANCY.ALL", "arb", 0x80, 0x01, 0 },
		{ "UNC_ARB_TRK_REQUESTS.ALL", "arb", 0x81, 0x01, 0 },
		{ "UNC_ARB_TRK_REQUESTS.WRITES", "arb", 0x81, 0x20, 0 },
		{ "UNC_ARB_COH_TRK_REQUESTS.ALL", "arb", 0x84, 0x01, 0 },
		{ "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", "arb", 0x80, 0x01, 1 },
		{ "UNC_CLOCK.SOCKET", "clock", 0x00, 0x01, 0 },
		{ "DRAM_GT_REQUESTS", "imc", 0x5040, 0, 0 },
		{ "DRAM_IA_REQUESTS", "imc", 0x5044, 0, 0 },
		{ "DRAM_IO_REQUESTS", "imc", 0x5048, 0, 0 },
		{ "DRAM_DATA_READS", "imc", 0x5050, 0, 0 },
		{ "DRAM_DATA_WRITES", "imc", 0x5054, 0, 0 },
	};
	const struct ucm_platform *p = skl();
	size_t n = sizeof(rows) / sizeof(rows[0]);

	CT_REQUIRE(p);
	CT_EQ(p->nevents, n);
	for (size_t i = 0; i < n; i++) {
		const struct ucm_event *e = NULL;

		for (unsigned k = 0; k < p->nevents; k++)
			if (strcmp(p->events[k].name, rows[i].name) == 0)
				e = &p->events[k];
		if (!e) {
			ct_fail(__FILE__, __LINE__, "event %s missing", rows[i].name);
			continue;
		}
		CT_STREQ(e->box->name, rows[i].box);
		CT_EQ(e->code, rows[i].code);
		CT_EQ(e->umask, rows[i].umask);
		CT_EQ(e->thresh, rows[i].thr);
	}
}

/* ucm_reset is a hardware reset: after every RW bit was set, counters ran
 * and overflowed, status bits were set and the MCHBAR moved, every register
 * (walked with ucm_nregs/ucm_reginfo, read with ucm_peek) is back at the
 * manual's reset value, and the IMC window is back at the default BAR. */
CT_TEST(reset_restores_every_register)
{
	struct ucm_model *m = mk(0, 0);
	struct xreg x[MAXREGS];
	size_t n = skl_regs(x, 4);
	uint64_t v;

	CT_REQUIRE(m);
	input(m, "cbo", 1, "CACHE_LOOKUP.READ_E", 1);
	input(m, "arb", 0, "TRK_OCCUPANCY.ALL", 7);
	input(m, "imc", 0, "DRAM_IO_REQUESTS", 1);
	for (size_t j = 0; j < n; j++)
		if (x[j].space == UCM_MSR && x[j].rw)
			wr(m, (uint32_t)x[j].addr, x[j].rw);
	wr(m, ARB_SEL(0), SEL_EN | SEL_OVF | EV(0x80, 0x01));
	wr(m, CBO_SEL(1, 0), SEL_EN | SEL_OVF | EV(0x34, 0x12));
	wr(m, GCTL, BIT(29) | BITS(3, 0));
	CT_EQ(ucm_run_cycles(m, 0, 1000), 0);
	CT_EQ(rd(m, GSTAT), GLOBAL_STATUS_W1C); /* every counter wrapped */
	CT_CHECK(rd(m, CBO_CTR(1, 0)) > 0);
	CT_EQ(ucm_pci_write(m, 0, 0, 0, 0, 0x48, 8, 0x123450001ull), 0);
	ucm_reset(m);
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		size_t j;

		CT_REQUIRE(ucm_reginfo(m, i, &ri) == 0);
		for (j = 0; j < n; j++)
			if (x[j].space == ri.space && xkey(&x[j]) == ri.addr)
				break;
		CT_REQUIRE(j < n);
		CT_EQ(ucm_peek(m, ri.space, 0, ri.addr, &v), 0);
		if (v != x[j].reset || ri.reset != x[j].reset)
			ct_fail(__FILE__, __LINE__, "%s after reset: 0x%llx (reginfo 0x%llx), manual 0x%llx",
				ri.name, (unsigned long long)v, (unsigned long long)ri.reset,
				(unsigned long long)x[j].reset);
	}
	for (size_t j = 0; j < n; j++) {
		CT_EQ(xread(m, &x[j], &v), 0);
		CT_EQ(v, x[j].reset);
	}
	ucm_destroy(m);
}

/* ucm_reset with a configured DID, BAR and CBo count resets to those. */
CT_TEST(reset_uses_the_configuration)
{
	struct ucm_config cfg;
	struct ucm_model *m;
	uint64_t v;

	ucm_config_init(&cfg, skl());
	cfg.devid = 0x190C;
	cfg.bar = 0x400008001ull;
	cfg.ninst[cbo_type_index()] = 2;
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	CT_EQ(ucm_pci_write(m, 0, 0, 0, 0, 0x48, 8, MCHBAR_RESET), 0);
	ucm_reset(m);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x02, 2, &v), 0);
	CT_EQ(v, 0x190C);
	CT_EQ(ucm_pci_read(m, 0, 0, 0, 0, 0x48, 8, &v), 0);
	CT_EQ(v, 0x400008001ull);
	CT_EQ(ucm_msr_read(m, 0, CBO_CONFIG, &v), 0);
	CT_EQ(v, 3);
	ucm_destroy(m);
}

/* Debug peeks cost no time and have no side effect: reading GLOBAL_STATUS
 * or a counter through ucm_msr_peek/ucm_peek leaves time, status and the
 * ground-truth read count alone. */
CT_TEST(peek_has_no_side_effects)
{
	struct ucm_config cfg;
	struct ucm_model *m;
	struct ucm_truth t;
	uint64_t v, now;
	int arb;

	ucm_config_init(&cfg, skl());
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	arb = ucm_box_find(m, 0, "arb", 0);
	ucm_truth_mark(m);
	now = ucm_now_ps(m);
	CT_EQ(ucm_msr_peek(m, 0, ARB_CTR(0), &v), 0);
	CT_EQ(ucm_peek(m, UCM_MSR, 0, ARB_CTR(0), &v), 0);
	CT_EQ(ucm_pci_peek(m, 0, 0, 0, 0, 0x48, 8, &v), 0);
	CT_EQ(v, MCHBAR_RESET);
	CT_EQ(ucm_mmio_peek(m, MCHBAR_BASE + 0x5050, 4, &v), 0);
	CT_EQ(ucm_now_ps(m), now);
	CT_EQ(ucm_truth(m, arb, 0, &t), 0);
	CT_EQ(t.reads, 0);
	CT_EQ(ucm_msr_read(m, 0, ARB_CTR(0), &v), 0);
	CT_EQ(ucm_now_ps(m), now + UCM_COST_MSR_PS);
	CT_EQ(ucm_truth(m, arb, 0, &t), 0);
	CT_EQ(t.reads, 1);
	CT_EQ(ucm_peek(m, UCM_MSR, 0, 0x702, &v), -ENOENT);
	CT_EQ(ucm_msr_peek(m, 0, 0x702, &v), -EIO);
	ucm_destroy(m);
}

CT_MAIN()
