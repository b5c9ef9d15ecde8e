/*
 * t_core.c - the model core's platform-independent mechanisms, on a
 * synthetic platform declared here (as a platform file would be): PCI boxes
 * on per-socket buses with 48-bit counters split over two configuration
 * dwords (and the carry a reader can see between them), box control with
 * write-only freeze and reset bits (Xeon E5-2600 2.1.1, Table 2-9), the
 * per-counter write-only reset bit (Table 2-10), two sockets, and two clock
 * domains advancing consistently.  Nothing here names a real platform: if a
 * new platform needs code in the core, these tests are where it shows.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "ct.h"
#include "ucm.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Box control as the Xeon guide's Table 2-9: every bit write-only. */
static const struct ucm_field f_boxctl[] = {
	{ "frz_en", 16, 16, UCM_A_WO, UCM_R_FRZ_EN, 0 },
	{ "frz", 8, 8, UCM_A_WO, UCM_R_FRZ, 0 },
	{ "rst_ctrs", 1, 1, UCM_A_WO, UCM_R_RST_CTRS, 0 },
	{ "rst_ctrl", 0, 0, UCM_A_WO, UCM_R_RST_CTRL, 0 },
};
static const struct ucm_layout l_boxctl = { "BOX_CTL", "test Table 2-9", 32, N(f_boxctl), f_boxctl };

/* Counter control with an 8-bit threshold at 31:24 and a WO rst bit. */
static const struct ucm_field f_ctl[] = {
	{ "thresh", 24, 31, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "invert", 23, 23, UCM_A_RW, UCM_R_INV, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "rst", 17, 17, UCM_A_WO, UCM_R_RST, 0 },
	{ "umask", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_layout l_ctl = { "CTL", "test Table 2-10", 32, N(f_ctl), f_ctl };

/* A 48-bit counter in a 64-bit register: two configuration dwords. */
static const struct ucm_field f_ctr48[] = { { "event_count", 0, 47, UCM_A_RW, UCM_R_VALUE, 0 } };
static const struct ucm_layout l_ctr48 = { "CTR", "test", 64, 1, f_ctr48 };

static const struct ucm_subev s_ev[] = { { "A", { 0x01 } }, { "B", { 0x02 } } };
static const struct ucm_evcode c_pbox[] = {
	{ 0x01, "EV", 4, 0x3, 1, { 0xFF }, N(s_ev), 0, s_ev, "test", 0, 0, NULL, NULL },
};
static const struct ucm_regdef r_pbox[] = {
	{ "PBOX%u_BOX_CTL", 0xF4, UCM_K_BOX_CTL, 0, &l_boxctl, 0 },
	{ "PBOX%u_CTL0", 0xD8, UCM_K_CTL, 0, &l_ctl, 0 },
	{ "PBOX%u_CTL1", 0xDC, UCM_K_CTL, 1, &l_ctl, 0 },
	{ "PBOX%u_CTR0", 0xA0, UCM_K_CTR, 0, &l_ctr48, 0 },
	{ "PBOX%u_CTR1", 0xA8, UCM_K_CTR, 1, &l_ctr48, 0 },
};
static const struct ucm_boxtype bt_pbox = {
	"pbox", "PCI box", UCM_PCI, 2, 0, 0, 1, 2, 2, N(r_pbox), N(c_pbox), r_pbox, c_pbox, NULL, "test", 0
};

/* A free-running clock counter in the second clock domain, over MSR. */
static const struct ucm_field f_ctr64[] = { { "count", 0, 63, UCM_A_RO, UCM_R_VALUE, 0 } };
static const struct ucm_layout l_ctr64 = { "DCLK", "test", 64, 1, f_ctr64 };
static const struct ucm_evcode c_dbox[] = {
	{ 0x00, "DCLK", 1, 0x1, 1, { 0xFF }, 0, UCM_EC_CLOCK, NULL, "test", 0, 0, NULL, NULL },
};
static const uint8_t fixed_d[] = { 0 };
static const struct ucm_regdef r_dbox[] = { { "DCLK_CTR", 0x10, UCM_K_CTR, 0, &l_ctr64, 0 } };
static const struct ucm_boxtype bt_dbox = {
	"dbox", "dclk counter", UCM_MSR, 1, 1, UCM_BT_FREERUN, 1, 1, 1, N(r_dbox), N(c_dbox), r_dbox,
	c_dbox, fixed_d, "test", 0
};

static const struct ucm_boxinst boxes[] = {
	{ &bt_pbox, 0, 16, 0, -1, 0, 0, NULL },
	{ &bt_pbox, 1, 16, 1, -1, 0, 0, NULL },
	{ &bt_dbox, 0, 0, 0, -1, 0x100, 0, NULL },
};
static const struct ucm_clockdef clocks[] = {
	{ "uclk", 1000000000ull, 1000000000ull },
	{ "dclk", 800000000ull, 800000000ull },
};
static const uint8_t models[] = { 0x2D };
static const uint16_t devids[] = { 0x1234 };
static const uint8_t buses[] = { 0x3F, 0x7F };

static const struct ucm_platform tst = {
	.name = "tst",
	.title = "synthetic test platform",
	.cpu_family = 6,
	.ncpu_models = 1,
	.cpu_models = models,
	.pci_vendor = 0x8086,
	.ndevids = 1,
	.devids = devids,
	.max_sockets = 2,
	.ncores = 2,
	.nclocks = N(clocks),
	.nboxes = N(boxes),
	.pci_bus = buses,
	.clocks = clocks,
	.boxes = boxes,
};

static struct ucm_model *make(unsigned sockets)
{
	struct ucm_config cfg;
	struct ucm_model *m;

	ucm_config_init(&cfg, &tst);
	cfg.sockets = sockets;
	cfg.strict = 1;
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_PCI] = cfg.access_ps[UCM_MMIO] = 0;
	return ucm_create(&cfg, &m) ? NULL : m;
}

static int box_of(struct ucm_model *m, unsigned socket, unsigned inst)
{
	return ucm_box_find(m, socket, "pbox", inst);
}

static uint64_t pci32(struct ucm_model *m, unsigned bus, unsigned fn, unsigned off)
{
	uint64_t v = ~0ull;

	CT_CHECK(ucm_pci_read(m, 0, bus, 16, fn, off, 4, &v) == 0);
	return v;
}

static void pciw32(struct ucm_model *m, unsigned bus, unsigned fn, unsigned off, uint32_t v)
{
	CT_CHECK(ucm_pci_write(m, 0, bus, 16, fn, off, 4, v) == 0);
}

/* Per-socket buses: the same device on bus 0x3F and 0x7F are two boxes. */
CT_TEST(sockets_have_their_own_pci_buses_and_state)
{
	struct ucm_model *m = make(2);
	uint64_t v;

	CT_REQUIRE(m);
	CT_EQ(ucm_nsockets(m), 2);
	pciw32(m, 0x3F, 0, 0xA0, 111);
	pciw32(m, 0x7F, 0, 0xA0, 222);
	CT_EQ(pci32(m, 0x3F, 0, 0xA0), 111);
	CT_EQ(pci32(m, 0x7F, 0, 0xA0), 222);
	/* no such bus, device or function */
	CT_EQ(ucm_pci_read(m, 0, 0x5F, 16, 0, 0xA0, 4, &v), -ENODEV);
	CT_EQ(v, 0xFFFFFFFFu);
	CT_EQ(ucm_pci_read(m, 0, 0x3F, 16, 2, 0xA0, 4, &v), -ENODEV);
	/* one socket: the second bus is absent */
	ucm_destroy(m);
	m = make(1);
	CT_REQUIRE(m);
	CT_EQ(ucm_pci_read(m, 0, 0x7F, 16, 0, 0xA0, 4, &v), -ENODEV);
	ucm_destroy(m);
}

/* A 48-bit counter is two dwords: writes and reads of each half, and an
 * 8-byte access of both; bits 63:48 are reserved. */
CT_TEST(counters_split_over_two_dwords)
{
	struct ucm_model *m = make(1);
	uint64_t v;

	CT_REQUIRE(m);
	pciw32(m, 0x3F, 0, 0xA0, 0x89ABCDEF);
	pciw32(m, 0x3F, 0, 0xA4, 0xFFFF1234); /* 63:48 reserved */
	CT_EQ(pci32(m, 0x3F, 0, 0xA0), 0x89ABCDEF);
	CT_EQ(pci32(m, 0x3F, 0, 0xA4), 0x1234);
	CT_REQUIRE(ucm_pci_read(m, 0, 0x3F, 16, 0, 0xA0, 8, &v) == 0);
	CT_EQ(v, 0x123489ABCDEFull);
	CT_EQ(ucm_strict_count(m), 1); /* the reserved high bits */
	CT_REQUIRE(ucm_pci_write(m, 0, 0x3F, 16, 0, 0xA0, 8, 0x0000FFFFFFFFFFF0ull) == 0);
	CT_REQUIRE(ucm_pci_read(m, 0, 0x3F, 16, 0, 0xA0, 8, &v) == 0);
	CT_EQ(v, 0xFFFFFFFFFFF0ull);
	ucm_destroy(m);
}

/* Reading the low dword, then the high one while the counter counts, can
 * straddle the carry: the pair is off by 2^32.  The model must produce it
 * for drivers to be tested against it (Xeon issue, torn PCI reads). */
CT_TEST(a_carry_between_the_two_dword_reads_is_visible)
{
	struct ucm_config cfg;
	struct ucm_model *m;
	int b;
	uint64_t lo, hi, v;

	ucm_config_init(&cfg, &tst);
	cfg.access_ps[UCM_PCI] = 10000; /* 10 ns = 10 uclk cycles per access */
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	b = box_of(m, 0, 0);
	CT_REQUIRE(ucm_set_input(m, b, 0, 4) == 0);       /* EV.A, 4 per cycle */
	pciw32(m, 0x3F, 0, 0xA0, 0xFFFFFF80);              /* 128 to the carry */
	pciw32(m, 0x3F, 0, 0xD8, 0x01 | 0x01 << 8 | 1u << 22);
	lo = pci32(m, 0x3F, 0, 0xA0); /* 40 counted since the enable */
	CT_EQ(lo, 0xFFFFFF80u + 40);
	for (int i = 0; i < 4; i++)   /* 4 accesses: 160 more */
		CT_REQUIRE(ucm_pci_read(m, 0, 0x3F, 16, 1, 0xF4, 4, &v) == 0);
	hi = pci32(m, 0x3F, 0, 0xA4); /* 40 more: past the carry */
	CT_EQ(hi, 1);
	/* the naive pair is 2^32 ahead of any value the counter held */
	CT_CHECK(((hi << 32) | lo) - 0xFFFFFF80u > (1ull << 32));
	/* high, low, high again: consistent */
	{
		uint64_t h1 = pci32(m, 0x3F, 0, 0xA4), l = pci32(m, 0x3F, 0, 0xA0), h2 = pci32(m, 0x3F, 0, 0xA4);

		CT_EQ(h1, h2);
		/* 40 per access: the low dword was read 320 after the preload */
		CT_EQ((h2 << 32) | l, 0xFFFFFF80ull + 320);
	}
	ucm_destroy(m);
}

/* Table 2-9: frz_en and frz are write-only (read 0) yet hold state; a box
 * freezes only with both; rst_ctrs zeroes the counters, rst_ctrl the
 * controls; Table 2-10: the counter's own rst bit zeroes it. */
CT_TEST(box_control_freeze_and_reset)
{
	struct ucm_model *m = make(1);
	int b;

	CT_REQUIRE(m);
	b = box_of(m, 0, 0);
	CT_REQUIRE(ucm_set_input(m, b, 1, 3) == 0); /* EV.B, 3 per cycle */
	pciw32(m, 0x3F, 0, 0xD8, 0x01 | 0x02 << 8 | 1u << 22);
	pciw32(m, 0x3F, 0, 0xDC, 0x01 | 0x03 << 8 | 1u << 22);
	CT_REQUIRE(ucm_run_cycles(m, 0, 100) == 0);
	CT_EQ(pci32(m, 0x3F, 0, 0xA0), 300);
	/* frz without frz_en: ignored (and reads 0) */
	pciw32(m, 0x3F, 0, 0xF4, 1u << 8);
	CT_EQ(pci32(m, 0x3F, 0, 0xF4), 0);
	CT_REQUIRE(ucm_run_cycles(m, 0, 100) == 0);
	CT_EQ(pci32(m, 0x3F, 0, 0xA0), 600);
	/* frz_en | frz: frozen; the other socket's box and box 1 keep counting */
	pciw32(m, 0x3F, 0, 0xF4, 1u << 16 | 1u << 8);
	CT_EQ(pci32(m, 0x3F, 0, 0xF4), 0);
	CT_REQUIRE(ucm_run_cycles(m, 0, 100) == 0);
	CT_EQ(pci32(m, 0x3F, 0, 0xA0), 600);
	CT_EQ(pci32(m, 0x3F, 0, 0xA8), 600);
	/* unfreeze */
	pciw32(m, 0x3F, 0, 0xF4, 1u << 16);
	CT_REQUIRE(ucm_run_cycles(m, 0, 10) == 0);
	CT_EQ(pci32(m, 0x3F, 0, 0xA0), 630);
	/* rst_ctrs: counters to 0, controls kept */
	pciw32(m, 0x3F, 0, 0xF4, 1u << 16 | 1u << 1);
	CT_EQ(pci32(m, 0x3F, 0, 0xA0), 0);
	CT_EQ(pci32(m, 0x3F, 0, 0xA8), 0);
	CT_EQ(pci32(m, 0x3F, 0, 0xD8), 0x01 | 0x02 << 8 | 1u << 22);
	/* the counter's own rst bit (write-only, never read back) */
	CT_REQUIRE(ucm_run_cycles(m, 0, 5) == 0);
	pciw32(m, 0x3F, 0, 0xD8, 0x01 | 0x02 << 8 | 1u << 22 | 1u << 17);
	CT_EQ(pci32(m, 0x3F, 0, 0xA0), 0);
	CT_EQ(pci32(m, 0x3F, 0, 0xA8), 15);
	CT_EQ(pci32(m, 0x3F, 0, 0xD8), 0x01 | 0x02 << 8 | 1u << 22);
	/* rst_ctrl: controls to their reset value: nothing counts */
	pciw32(m, 0x3F, 0, 0xF4, 1u << 16 | 1u << 0);
	CT_EQ(pci32(m, 0x3F, 0, 0xD8), 0);
	CT_EQ(pci32(m, 0x3F, 0, 0xDC), 0);
	CT_REQUIRE(ucm_run_cycles(m, 0, 100) == 0);
	CT_EQ(pci32(m, 0x3F, 0, 0xA8), 15);
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* The 8-bit threshold field at 31:24 works through the same pipeline. */
CT_TEST(threshold_field_position_comes_from_the_layout)
{
	struct ucm_model *m = make(1);
	int b;

	CT_REQUIRE(m);
	b = box_of(m, 0, 0);
	CT_REQUIRE(ucm_set_input(m, b, 0, 4) == 0);
	pciw32(m, 0x3F, 0, 0xD8, 0x01 | 0x01 << 8 | 1u << 22 | 4u << 24);   /* inc >= 4 */
	pciw32(m, 0x3F, 0, 0xDC, 0x01 | 0x01 << 8 | 1u << 22 | 200u << 24); /* inc >= 200 */
	CT_REQUIRE(ucm_run_cycles(m, 0, 50) == 0);
	CT_EQ(pci32(m, 0x3F, 0, 0xA0), 50);
	CT_EQ(pci32(m, 0x3F, 0, 0xA8), 0);
	ucm_destroy(m);
}

/* Clock domains: time is one; each domain's cycles follow from it. */
CT_TEST(clock_domains_advance_together)
{
	struct ucm_model *m = make(2);
	int b;
	uint64_t v;

	CT_REQUIRE(m);
	b = box_of(m, 1, 0);
	CT_REQUIRE(ucm_set_input(m, b, 0, 1) == 0);
	pciw32(m, 0x7F, 0, 0xD8, 0x01 | 0x01 << 8 | 1u << 22);
	CT_REQUIRE(ucm_run_ps(m, 1000000000ull) == 0); /* 1 ms */
	CT_EQ(ucm_cycles(m, 0), 1000000);
	CT_EQ(ucm_cycles(m, 1), 800000);
	CT_EQ(pci32(m, 0x7F, 0, 0xA0), 1000000);
	/* the dclk counter of each socket: MSR 0x110 on a cpu of the socket */
	CT_REQUIRE(ucm_msr_read(m, 0, 0x110, &v) == 0);
	CT_EQ(v, 800000);
	CT_REQUIRE(ucm_msr_read(m, 3, 0x110, &v) == 0);
	CT_EQ(v, 800000);
	CT_EQ(ucm_msr_read(m, 4, 0x110, &v), -ENXIO); /* 2 sockets x 2 cpus */
	/* whole cycles of the second domain, from a time between cycles */
	CT_REQUIRE(ucm_run_ps(m, 700) == 0);
	CT_REQUIRE(ucm_run_cycles(m, 1, 8) == 0);
	CT_EQ(ucm_cycles(m, 1), 800008);
	CT_EQ(ucm_cycles(m, 0), 1000010);
	ucm_destroy(m);
}

CT_MAIN()

/* The getters of boxes and inputs given a handle the model has not (a
 * library user's mistake) answer what model/ucm.h says, without reading
 * past the model's arrays (ASan would say). */
CT_TEST(getters_answer_bad_handles_without_reading_past_the_model)
{
	struct ucm_config cfg;
	struct ucm_model *m;
	int box;
	unsigned nsub;

	ucm_config_init(&cfg, ucm_platform_find("skl"));
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	box = ucm_box_find(m, 0, "cbo", 0);
	CT_REQUIRE(box >= 0);
	nsub = ucm_subev_count(ucm_box_def(m, box)->type);
	CT_REQUIRE(ucm_set_input(m, box, 0, 1) == 0);
	CT_EQ(ucm_get_input(m, box, 0), 1);
	for (int bad = -1; bad <= (int)ucm_box_count(m); bad += (int)ucm_box_count(m) + 1) {
		CT_CHECK(ucm_box_def(m, bad) == NULL);
		CT_EQ(ucm_box_socket(m, bad), 0);
		CT_EQ(ucm_get_input(m, bad, 0), 0);
		CT_EQ(ucm_get_input_attr(m, bad, 0, 0), UCM_ATTR_NONE);
		CT_EQ(ucm_input_fanout(m, bad, 0), 0);
		CT_EQ(ucm_fed(m, bad, 0), 0);
	}
	CT_EQ(ucm_get_input(m, box, nsub), 0);
	CT_EQ(ucm_get_input(m, box, 100000), 0);
	CT_EQ(ucm_fed(m, box, nsub), 0);
	CT_EQ(ucm_get_input_attr(m, box, nsub, 0), UCM_ATTR_NONE);
	CT_EQ(ucm_get_input_attr(m, box, 0, UCM_NATTR), UCM_ATTR_NONE);
	CT_EQ(ucm_set_input_attr(m, box, nsub, 0, 1), -ENOENT);
	ucm_destroy(m);
}

/* A platform of more box types than the model's per-type arrays hold is
 * refused with its name, not written past them (ivt's 17th type, the Home
 * Agents' own functions, overran the 16 once). */
CT_TEST(a_platform_of_too_many_box_types_is_refused)
{
	static struct ucm_boxtype bts[UCM_MAXBT + 1];
	static struct ucm_boxinst insts[UCM_MAXBT + 1];
	static char names[UCM_MAXBT + 1][8];
	struct ucm_platform many = tst;
	struct ucm_config cfg;
	struct ucm_model *m = NULL;

	for (unsigned i = 0; i <= UCM_MAXBT; i++) {
		snprintf(names[i], sizeof(names[i]), "d%u", i);
		bts[i] = bt_dbox;
		bts[i].name = names[i];
		insts[i] = (struct ucm_boxinst){ &bts[i], 0, 0, 0, -1, 0x100 + 0x10 * i, 0, NULL };
	}
	many.boxes = insts;
	many.nboxes = UCM_MAXBT + 1;
	ucm_config_init(&cfg, &many);
	CT_EQ(ucm_create(&cfg, &m), -EINVAL);
	CT_CONTAINS(m ? ucm_error(m) : NULL, "the model holds");
	ucm_destroy(m);
	many.nboxes = UCM_MAXBT;
	ucm_config_init(&cfg, &many);
	CT_EQ(ucm_create(&cfg, &m), 0);
	ucm_destroy(m);
}
