/*
 * t_perfnames.c - Linux perf's PMU names, format terms and event aliases in
 * event strings (issue 16, item 2).
 *
 * The expected names, formats (each attribute's "name=configN:bits", as
 * sysfs shows it) and aliases are transcribed here from the kernel's
 * arch/x86/events/intel/uncore_snb.c (skl_uncore_cbox, snb_uncore_arb,
 * snb_uncore_imc) and uncore_snbep.c (snbep_uncore_* and
 * ivbep_uncore_*), independently of the platform tables they check.
 * Every event a platform names is spelled as perf would spell it and must
 * program what its name programs; perf command lines count what the model
 * counted (ground truth) and leave no strict-mode record.
 */
#include <errno.h>

#include "ct.h"
#include "ct_rig.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"

/* ---- the kernel's PMUs, transcribed ---- */

/* The kernel's format attributes (its DEFINE_UNCORE_FORMAT_ATTR lines,
 * named as it names them), as sysfs shows them: "name=configN:bits". */
#define K_EVENT "event=config:0-7"
#define K_EVENT_EXT "event=config:0-7,21"
#define K_UMASK "umask=config:8-15"
#define K_EDGE "edge=config:18"
#define K_TID_EN "tid_en=config:19"
#define K_INV "inv=config:23"
#define K_CMASK5 "cmask=config:24-28"          /* uncore_snb.c */
#define K_THRESH8 "thresh=config:24-31"
#define K_THRESH5 "thresh=config:24-28"
#define K_OCC_SEL "occ_sel=config:14-15"
#define K_OCC_INVERT "occ_invert=config:30"
#define K_OCC_EDGE "occ_edge=config:14-51"     /* sic: R23 */
#define K_FILTER_TID "filter_tid=config1:0-4"
#define K_FILTER_LINK "filter_link=config1:5-8"
#define K_FILTER_NID "filter_nid=config1:10-17"
#define K_FILTER_NID2 "filter_nid=config1:32-47"
#define K_FILTER_STATE "filter_state=config1:18-22"
#define K_FILTER_STATE2 "filter_state=config1:17-22"
#define K_FILTER_OPC "filter_opc=config1:23-31"
#define K_FILTER_OPC2 "filter_opc=config1:52-60"
#define K_FILTER_NC "filter_nc=config1:62"
#define K_FILTER_C6 "filter_c6=config1:61"
#define K_FILTER_ISOC "filter_isoc=config1:63"
#define K_BANDS                                                                      \
	"filter_band0=config1:0-7;filter_band1=config1:8-15;filter_band2=config1:16-23;" \
	"filter_band3=config1:24-31"
#define K_QPI_MATCH                                                                  \
	"match_rds=config1:48-51;match_rnid30=config1:32-35;match_rnid4=config1:31;"   \
	"match_dnid=config1:13-17;match_mc=config1:9-12;match_opc=config1:5-8;"        \
	"match_vnw=config1:3-4;match0=config1:0-31;match1=config1:32-63;"              \
	"mask_rds=config2:48-51;mask_rnid30=config2:32-35;mask_rnid4=config2:31;"      \
	"mask_dnid=config2:13-17;mask_mc=config2:9-12;mask_opc=config2:5-8;"           \
	"mask_vnw=config2:3-4;mask0=config2:0-31;mask1=config2:32-63"

/* The kernel's format lists, attributes in its order. */
#define K_SNB_FMT K_EVENT ";" K_UMASK ";" K_EDGE ";" K_INV ";" K_CMASK5
#define K_STD K_EVENT ";" K_UMASK ";" K_EDGE ";" K_INV ";" K_THRESH8
#define K_UBOX K_EVENT ";" K_UMASK ";" K_EDGE ";" K_INV ";" K_THRESH5

struct kpmu {
	const char *plat, *name;
	int numbered;          /* kernel num_boxes > 1: NAME_N */
	const char *box;       /* the box type of the tables it drives */
	const char *formats;   /* its format attributes, in order */
};

/* Where the driver departs from the kernel it does so in how it applies a
 * term, never in the term's sysfs string, so every table string is the
 * kernel's: snbep R23 (occ_edge is config:14-51 here too; the driver sets
 * OCC_EDGE, bit 31), R24/R25 (8-bit PCU event; the rnid halves), ivt V21
 * (inv listed, as the kernel lists it, on the PMUs whose event mask drops
 * bit 23: accepted only as 0), V22 (filter_link, filter_c6: accepted only
 * as 0), skl P1 (cmask is THRESH 28:24). */
static const struct kpmu kpmus[] = {
	/* uncore_snb.c: skl_uncore_cbox, snb_uncore_arb (snb_uncore_formats_attr),
	 * snb_uncore_imc (snb_uncore_imc_formats_attr) */
	{ "skl", "uncore_cbox", 1, "cbo", K_SNB_FMT },
	{ "skl", "uncore_arb", 0, "arb", K_SNB_FMT },
	{ "skl", "uncore_imc", 0, "imc", K_EVENT },
	/* uncore_snbep.c snbep_uncore_*_formats_attr */
	{ "snbep", "uncore_ubox", 0, "ubox", K_UBOX },
	{ "snbep", "uncore_cbox", 1, "cbo",
	  K_EVENT ";" K_UMASK ";" K_EDGE ";" K_TID_EN ";" K_INV ";" K_THRESH8 ";" K_FILTER_TID
	  ";" K_FILTER_NID ";" K_FILTER_STATE ";" K_FILTER_OPC },
	{ "snbep", "uncore_pcu", 0, "pcu",
	  K_EVENT ";" K_OCC_SEL ";" K_EDGE ";" K_INV ";" K_THRESH5 ";" K_OCC_INVERT ";" K_OCC_EDGE
	  ";" K_BANDS },
	{ "snbep", "uncore_ha", 0, "ha", K_STD },
	{ "snbep", "uncore_imc", 1, "imc", K_STD },
	{ "snbep", "uncore_qpi", 1, "qpi",
	  K_EVENT_EXT ";" K_UMASK ";" K_EDGE ";" K_INV ";" K_THRESH8 ";" K_QPI_MATCH },
	{ "snbep", "uncore_r2pcie", 0, "r2pcie", K_STD },
	{ "snbep", "uncore_r3qpi", 1, "r3qpi", K_STD },
	/* uncore_snbep.c ivbep_uncore_*_formats_attr (ha, imc, irp, r2pcie and
	 * r3qpi: ivbep_uncore_formats_attr) */
	{ "ivt", "uncore_ubox", 0, "ubox", K_UBOX },
	{ "ivt", "uncore_cbox", 1, "cbo",
	  K_EVENT ";" K_UMASK ";" K_EDGE ";" K_TID_EN ";" K_THRESH8 ";" K_FILTER_TID ";"
	  K_FILTER_LINK ";" K_FILTER_STATE2 ";" K_FILTER_NID2 ";" K_FILTER_OPC2 ";" K_FILTER_NC
	  ";" K_FILTER_C6 ";" K_FILTER_ISOC },
	{ "ivt", "uncore_pcu", 0, "pcu",
	  K_EVENT ";" K_OCC_SEL ";" K_EDGE ";" K_THRESH5 ";" K_OCC_INVERT ";" K_OCC_EDGE ";"
	  K_BANDS },
	{ "ivt", "uncore_ha", 1, "ha", K_STD },
	{ "ivt", "uncore_imc", 1, "imc", K_STD },
	{ "ivt", "uncore_irp", 0, "irp", K_STD },
	{ "ivt", "uncore_qpi", 1, "qpi",
	  K_EVENT_EXT ";" K_UMASK ";" K_EDGE ";" K_THRESH8 ";" K_QPI_MATCH },
	{ "ivt", "uncore_r2pcie", 0, "r2pcie", K_STD },
	{ "ivt", "uncore_r3qpi", 1, "r3qpi", K_STD },
};

/* "a=x;b=y" -> "a, b": the names the driver should read from the table. */
static void names_of(const char *spec, char *buf, size_t n)
{
	size_t o = 0;

	buf[0] = 0;
	for (const char *s = spec; *s && o + 3 < n;) {
		size_t len = strcspn(s, "=");

		if (o)
			o += (size_t)snprintf(buf + o, n - o, ", ");
		o += (size_t)snprintf(buf + o, n - o, "%.*s", (int)len, s);
		s += strcspn(s, ";");
		s += *s == ';';
	}
}

/* The kernel's event aliases and what the tables call the event each
 * selects (by the manuals' names for the same encoding). */
static const struct {
	const char *plat, *event, *row;
} kaliases[] = {
	{ "skl", "uncore_cbox_0/clockticks/", "UNC_CLOCK.SOCKET" },
	{ "skl", "uncore_imc/data_reads/", "DRAM_DATA_READS" },
	{ "skl", "uncore_imc/data_writes/", "DRAM_DATA_WRITES" },
	{ "skl", "uncore_imc/gt_requests/", "DRAM_GT_REQUESTS" },
	{ "skl", "uncore_imc/ia_requests/", "DRAM_IA_REQUESTS" },
	{ "skl", "uncore_imc/io_requests/", "DRAM_IO_REQUESTS" },
	{ "skl", "uncore_imc/event=0x01/", "DRAM_DATA_READS" },
	{ "skl", "uncore_imc/event=0x05/", "DRAM_IO_REQUESTS" },
	{ "snbep", "uncore_imc_0/clockticks/", "UNC_M_DCLOCKTICKS" },
	{ "snbep", "uncore_imc_1/cas_count_read/", "UNC_M_CAS_COUNT.RD" },
	{ "snbep", "uncore_imc_2/cas_count_write/", "UNC_M_CAS_COUNT.WR" },
	{ "snbep", "uncore_ubox/event=0xff/", "UNC_U_CLOCKTICKS" },
	{ "snbep", "uncore_qpi_0/clockticks/", "UNC_Q_CLOCKTICKS" },
	{ "snbep", "uncore_qpi_1/drs_data/", "UNC_Q_RxL_FLITS_G1.DRS_DATA" },
	{ "snbep", "uncore_qpi_0/ncb_data/", "UNC_Q_RxL_FLITS_G2.NCB_DATA" },
	{ "ivt", "uncore_imc_7/clockticks/", "UNC_M_FIXED_DCLOCKTICKS" },
	{ "ivt", "uncore_imc_3/cas_count_read/", "UNC_M_CAS_COUNT.RD" },
	{ "ivt", "uncore_imc/cas_count_write/", "UNC_M_CAS_COUNT.WR" },
	{ "ivt", "uncore_ubox/event=0xff/", "UNC_U_FIXED_CLOCKTICKS" },
};

static int open_plat(struct ct_rig *r, const char *plat)
{
	struct ucm_config cfg;

	ucm_config_init(&cfg, ucm_platform_find(plat));
	return ct_rig_open(r, &cfg, 0, NULL);
}

/* start, 2 ms, stop: every counter equals the model's ground truth and no
 * write was one the manual calls reserved. */
static void session(struct ct_rig *r, const char *what, int line)
{
	if (ucd_start(r->d) || ucd_run(r->d, 2000000, 0, NULL, NULL) || ucd_stop(r->d)) {
		ct_fail(__FILE__, line, "%s: %s", what, ucd_error(r->d));
		return;
	}
	ct_check_truth(r, what, __FILE__, line);
	if (ucd_restore(r->d))
		ct_fail(__FILE__, line, "%s: restore: %s", what, ucd_error(r->d));
	ct_no_strict(r, what, __FILE__, line);
}

CT_TEST(perf_pmus_are_the_kernels)
{
	size_t want[3] = { 0 };

	for (size_t i = 0; i < sizeof(kpmus) / sizeof(kpmus[0]); i++) {
		const struct kpmu *k = &kpmus[i];
		const struct ucm_platform *p = ucm_platform_find(k->plat);
		const struct ucm_perfpmu *pm = NULL;
		char fm[512], names[512];

		want[!strcmp(k->plat, "snbep") ? 1 : !strcmp(k->plat, "ivt") ? 2 : 0]++;
		CT_REQUIRE(p);
		for (unsigned j = 0; j < p->nperfpmus; j++)
			if (!strcmp(p->perfpmus[j].name, k->name))
				pm = &p->perfpmus[j];
		if (!pm) {
			ct_fail(__FILE__, __LINE__, "%s: no perf PMU %s", k->plat, k->name);
			continue;
		}
		CT_EQ(pm->numbered, k->numbered);
		CT_STREQ(pm->box->name, k->box);
		/* names and bit ranges, the whole sysfs strings */
		if (strcmp(pm->formats, k->formats))
			ct_fail(__FILE__, __LINE__, "%s %s formats:\n  table  %s\n  kernel %s", k->plat,
				k->name, pm->formats, k->formats);
		/* and the names the driver reads from them */
		ucd_perf_formats(pm, fm, sizeof(fm));
		names_of(k->formats, names, sizeof(names));
		CT_STREQ(fm, names);
	}
	CT_EQ(ucm_platform_find("skl")->nperfpmus, want[0]);
	CT_EQ(ucm_platform_find("snbep")->nperfpmus, want[1]);
	CT_EQ(ucm_platform_find("ivt")->nperfpmus, want[2]);
}

/* One event string: accepted, its canonical row is want, it counts. */
static void one(const char *plat, const char *ev, const char *want, int line)
{
	struct ct_rig r;
	struct ucd_evinfo ei;

	if (open_plat(&r, plat)) {
		ct_fail(__FILE__, line, "rig %s", plat);
		return;
	}
	if (ucd_add_events(r.d, ev)) {
		ct_fail(__FILE__, line, "%s: \"%s\" refused: %s", plat, ev, ucd_error(r.d));
	} else {
		CT_REQUIRE(ucd_event(r.d, 0, &ei) == 0);
		if (want && strcmp(ei.canonical, want))
			ct_fail(__FILE__, line, "%s: \"%s\" is %s, want %s", plat, ev, ei.canonical, want);
		session(&r, ev, line);
	}
	ct_rig_close(&r);
}

CT_TEST(perf_aliases_select_the_kernels_events)
{
	for (size_t i = 0; i < sizeof(kaliases) / sizeof(kaliases[0]); i++)
		one(kaliases[i].plat, kaliases[i].event, kaliases[i].row, __LINE__);
}

/* Every named event perf's formats can express, in perf's spelling, is the
 * same encoding as the name: the row it resolves to has the name's box,
 * code, umask and threshold. */
static void every_event(const char *plat, unsigned min)
{
	const struct ucm_platform *p = ucm_platform_find(plat);
	struct ct_rig r;
	unsigned spelled = 0;

	CT_REQUIRE(p && open_plat(&r, plat) == 0);
	for (unsigned i = 0; i < p->nevents; i++) {
		const struct ucm_event *e = &p->events[i], *got = NULL;
		struct ucd_evinfo ei;
		char perf[160];
		size_t n0 = ucd_nevents(r.d);

		if (!ucd_perf_name(p, e, perf, sizeof(perf)))
			continue;
		spelled++;
		/* the names' placement may run out of counters: parse alone */
		if (ucd_add_events(r.d, perf) && ucd_nevents(r.d) == n0) {
			if (!strstr(ucd_error(r.d), "cannot place"))
				ct_fail(__FILE__, __LINE__, "%s: %s (%s) refused: %s", plat, perf, e->name,
					ucd_error(r.d));
			ct_rig_close(&r);
			CT_REQUIRE(open_plat(&r, plat) == 0);
			if (ucd_add_events(r.d, perf)) {
				ct_fail(__FILE__, __LINE__, "%s: %s (%s) refused alone: %s", plat, perf,
					e->name, ucd_error(r.d));
				continue;
			}
		}
		CT_REQUIRE(ucd_event(r.d, ucd_nevents(r.d) - 1, &ei) == 0);
		for (unsigned k = 0; k < p->nevents; k++)
			if (!strcmp(p->events[k].name, ei.canonical))
				got = &p->events[k];
		if (!got || got->box != e->box || got->code != e->code || got->umask != e->umask ||
		    got->thresh != e->thresh)
			ct_fail(__FILE__, __LINE__, "%s: %s (for %s) is %s", plat, perf, e->name,
				ei.canonical);
	}
	ct_rig_close(&r);
	if (spelled < min)
		ct_fail(__FILE__, __LINE__, "%s: %u events in perf's spelling, want at least %u", plat,
			spelled, min);
}

/* skl: all 25 (the clock on uncore_cbox_0, the IMC by perf's codes);
 * the Xeons: all but the events with filter register values (QPI Table
 * 2-92), the PCU's extra-select codes, which perf's 8-bit PCU event format
 * cannot say, and events that need an opcode or address given (388 of 429
 * and 1033 of 1078 when this was written). */
CT_TEST(perf_every_event_skl) { every_event("skl", 25); }
CT_TEST(perf_every_event_snbep) { every_event("snbep", 385); }
CT_TEST(perf_every_event_ivt) { every_event("ivt", 1030); }

/* perf's spelling programs the manual's fields: SKL Table 2-7 PERFEVTSEL
 * of CBo 2 (THR 28:24, INV 23, EN 22, E 18, UMASK 15:8, EVT_SEL 7:0). */
CT_TEST(perf_encoding_skl)
{
	struct ct_rig r;
	uint64_t v = 0;

	CT_REQUIRE(open_plat(&r, "skl") == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uncore_cbox_2/event=0x34,umask=0x8f,cmask=3,inv,edge/") == 0);
	CT_REQUIRE(ucd_start(r.d) == 0);
	CT_REQUIRE(ucm_msr_peek(r.m, 0, 0x720, &v) == 0);
	CT_EQ(v & ~(1ull << 20), 0x34ull | 0x8full << 8 | 1ull << 18 | 1ull << 22 | 1ull << 23 | 3ull << 24);
	CT_REQUIRE(ucd_stop(r.d) == 0 && ucd_restore(r.d) == 0);
	ct_no_strict(&r, "encoding", __FILE__, __LINE__);
	ct_rig_close(&r);
}

/* ivt: Linux's config1 is FILTER | FILTER1 << 32, so filter_nid (config1
 * 32-47), filter_opc (52-60) and filter_nc (62) land in C1's FILTER1
 * (0xD3A, IVT Table 2-17: nid 15:0, opc 28:20, nc 30) and filter_state
 * (17-22) in FILTER (0xD34, Table 2-16: state 22:17). */
CT_TEST(perf_encoding_ivt_cbo_filters)
{
	struct ct_rig r;
	uint64_t f0 = 0, f1 = 0;

	CT_REQUIRE(open_plat(&r, "ivt") == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uncore_cbox_1/event=0x35,umask=0x03,filter_state=0x1f,"
				       "filter_nid=0x1,filter_opc=0x180,filter_nc=1,filter_link=0,"
				       "filter_c6=0/") == 0);
	CT_REQUIRE(ucd_start(r.d) == 0);
	CT_REQUIRE(ucm_msr_peek(r.m, 0, 0xD34, &f0) == 0);
	CT_REQUIRE(ucm_msr_peek(r.m, 0, 0xD3A, &f1) == 0);
	CT_EQ(f0 & (0x3Full << 17), 0x1Full << 17);
	CT_EQ(f1, 0x1ull | 0x180ull << 20 | 1ull << 30);
	CT_REQUIRE(ucd_stop(r.d) == 0 && ucd_restore(r.d) == 0);
	ct_no_strict(&r, "filters", __FILE__, __LINE__);
	ct_rig_close(&r);
}

/* snbep QPI: Linux's match_rnid30 is config1:32-35 and match_rnid4
 * config1:31, config1 being MATCH0 | MATCH1 << 32: the halves are the
 * whole-register match0/match1 terms with those bits. */
CT_TEST(perf_qpi_rnid_halves)
{
	struct ct_rig r;
	struct ucd_evinfo a, b;

	CT_REQUIRE(open_plat(&r, "snbep") == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uncore_qpi_0/event=0x138,match_rnid30=0x5,match_rnid4=1,"
				       "mask_rnid30=0xf,mask_rnid4=1/") == 0);
	CT_REQUIRE(ucd_add_events(r.d, "qpi0/event=0x138,match0=0x80000000,match1=0x5,"
				       "mask0=0x80000000,mask1=0xf/") == 0);
	CT_REQUIRE(ucd_event(r.d, 0, &a) == 0 && ucd_event(r.d, 1, &b) == 0);
	CT_STREQ(a.canonical, b.canonical);
	/* identical configurations share one counter */
	CT_EQ(ucd_ncounters(r.d), 4);
	session(&r, "rnid", __LINE__);
	ct_rig_close(&r);
}

/* R23: perf's occ_edge sets OCC_EDGE, bit 31 of SNB-EP Table 2-75 (PCU
 * CTL0 0xC30; OCC_SEL 15:14, THRESH 28:24, EN 22), not Linux's config
 * bit 14. */
CT_TEST(perf_pcu_occ_edge_is_bit_31)
{
	struct ct_rig r;
	uint64_t v = 0;

	CT_REQUIRE(open_plat(&r, "snbep") == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uncore_pcu/event=0x80,occ_sel=2,occ_edge=1,thresh=1/") == 0);
	CT_REQUIRE(ucd_start(r.d) == 0);
	CT_REQUIRE(ucm_msr_peek(r.m, 0, 0xC30, &v) == 0);
	CT_EQ(v, 0x80ull | 2ull << 14 | 1ull << 22 | 1ull << 24 | 1ull << 31);
	CT_REQUIRE(ucd_stop(r.d) == 0 && ucd_restore(r.d) == 0);
	ct_no_strict(&r, "occ_edge", __FILE__, __LINE__);
	ct_rig_close(&r);
}

/* perf's raw terms.  config is the control register as the kernel writes
 * it (SKL Table 2-7: THR 28:24, INV 23, E 18, UMASK 15:8, EVT_SEL 7:0);
 * config1/config2 the filter registers, the second in the upper half
 * (ivt: FILTER | FILTER1 << 32, IVT Tables 2-16/2-17: FILTER1 nid 15:0,
 * opc 28:20, nc 30; QPI: MATCH0 | MATCH1 << 32, MASK0 | MASK1 << 32). */
CT_TEST(perf_raw_config)
{
	struct ct_rig r;
	struct ucd_evinfo a, b;
	uint64_t v = 0;

	CT_REQUIRE(open_plat(&r, "skl") == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uncore_cbox_3/config=0x01848f34/") == 0);
	CT_REQUIRE(ucd_start(r.d) == 0);
	CT_REQUIRE(ucm_msr_peek(r.m, 0, 0x730, &v) == 0);
	CT_EQ(v & ~(1ull << 20), 0x34ull | 0x8full << 8 | 1ull << 18 | 1ull << 22 | 1ull << 23 | 1ull << 24);
	CT_REQUIRE(ucd_stop(r.d) == 0 && ucd_restore(r.d) == 0);
	ct_no_strict(&r, "config", __FILE__, __LINE__);
	ct_rig_close(&r);

	one("skl", "uncore_imc/config=0x02/", "DRAM_DATA_WRITES", __LINE__);
	one("skl", "uncore_cbox_0/config=0xff/", "UNC_CLOCK.SOCKET", __LINE__);
	one("snbep", "uncore_imc_0/config=0x0304/", "UNC_M_CAS_COUNT.RD", __LINE__);

	CT_REQUIRE(open_plat(&r, "ivt") == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uncore_cbox_1/config=0x0335,config1=0x5800000100000000/") == 0);
	CT_REQUIRE(ucd_start(r.d) == 0);
	CT_REQUIRE(ucm_msr_peek(r.m, 0, 0xD3A, &v) == 0);
	CT_EQ(v, 0x58000001ull);
	CT_REQUIRE(ucm_msr_peek(r.m, 0, 0xD34, &v) == 0);
	CT_EQ(v, 0);
	CT_REQUIRE(ucd_stop(r.d) == 0 && ucd_restore(r.d) == 0);
	ct_no_strict(&r, "config1", __FILE__, __LINE__);
	ct_rig_close(&r);

	CT_REQUIRE(open_plat(&r, "snbep") == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uncore_qpi_0/config=0x200038,config1=0x500001c00,"
				       "config2=0xf00001f00/") == 0);
	CT_REQUIRE(ucd_add_events(r.d, "qpi0/event=0x138,match0=0x1c00,match1=0x5,mask0=0x1f00,"
				       "mask1=0xf/") == 0);
	CT_REQUIRE(ucd_event(r.d, 0, &a) == 0 && ucd_event(r.d, 1, &b) == 0);
	CT_STREQ(a.canonical, b.canonical);
	session(&r, "config2", __LINE__);
	ct_rig_close(&r);
}

/* perf's name= names the event in the output; the encoding is unchanged. */
CT_TEST(perf_name_term)
{
	struct ct_rig r;
	struct ucd_evinfo ei;

	CT_REQUIRE(open_plat(&r, "skl") == 0);
	CT_REQUIRE(ucd_add_events(r.d, "uncore_imc/data_reads,name=rd/,uncore_cbox_1/event=0x34,"
				       "umask=0x8f,name=lookups/") == 0);
	CT_REQUIRE(ucd_event(r.d, 0, &ei) == 0);
	CT_STREQ(ei.name, "rd");
	CT_STREQ(ei.canonical, "DRAM_DATA_READS");
	CT_REQUIRE(ucd_event(r.d, 1, &ei) == 0);
	CT_STREQ(ei.name, "lookups");
	CT_STREQ(ei.canonical, "UNC_CBO_CACHE_LOOKUP.ANY_MESI");
	session(&r, "name=", __LINE__);
	ct_rig_close(&r);
}

/* What perf itself would refuse, and what the tables reserve. */
static void refused(const char *plat, const char *ev, const char *what, int line)
{
	struct ct_rig r;

	if (open_plat(&r, plat)) {
		ct_fail(__FILE__, line, "rig %s", plat);
		return;
	}
	if (ucd_add_events(r.d, ev) != -EINVAL)
		ct_fail(__FILE__, line, "%s: \"%s\" accepted", plat, ev);
	else if (!strstr(ucd_error(r.d), what))
		ct_fail(__FILE__, line, "%s: \"%s\": error lacks \"%s\": %s", plat, ev, what,
			ucd_error(r.d));
	CT_EQ(ucd_nevents(r.d), 0);
	ct_rig_close(&r);
}

CT_TEST(perf_refusals)
{
	/* skl's CBo format is cmask; thresh is not one of its terms */
	refused("skl", "uncore_cbox_0/event=0x34,umask=0x8f,thresh=1/",
		"'thresh' is not a format of perf's uncore_cbox", __LINE__);
	refused("skl", "uncore_cbox_0/event=0x34,umask=0x8f,cmask=32/", "does not fit perf's 5-bit format",
		__LINE__);
	refused("skl", "uncore_cbox_4/event=0x34,umask=0x8f/", "uncore_cbox_0 to uncore_cbox_3",
		__LINE__);
	refused("skl", "uncore_imc/event=0x06/", "not an event of perf's uncore_imc", __LINE__);
	refused("skl", "uncore_imc/umask=1,event=0x01/", "'umask' is not a format of perf's uncore_imc",
		__LINE__);
	refused("skl", "uncore_cbox_0/clockticks,umask=1/", "given twice", __LINE__);
	refused("skl", "uncore_cbox_0/event=0xff,edge/", "it takes no other terms", __LINE__);
	/* the v2's CBo, PCU and QPI PMUs have no inv in Linux */
	refused("ivt", "uncore_cbox_0/event=0x34,umask=0x03,inv/", "'inv' is not a format of perf's uncore_cbox",
		__LINE__);
	refused("ivt", "uncore_qpi_0/event=0x00,umask=0x06,inv=1/", "'inv' is not a format", __LINE__);
	/* Linux's filter_link and filter_c6: reserved in the v2's tables */
	refused("ivt", "uncore_cbox_0/event=0x34,umask=0x03,filter_link=1/",
		"only filter_link=0 can be given", __LINE__);
	refused("ivt", "uncore_cbox_0/event=0x34,umask=0x03,filter_c6=1/", "only filter_c6=0 can be given",
		__LINE__);
	/* perf's PCU event format is 8 bits: no extra select */
	refused("snbep", "uncore_pcu/event=0x100/", "does not fit perf's 8-bit format", __LINE__);
	refused("ivt", "uncore_ha_2/event=0x01/", "uncore_ha_0 to uncore_ha_1", __LINE__);
	refused("snbep", "uncore_qpi_0/event=0x138,match_rnid4=2/", "does not fit perf's 1-bit format",
		__LINE__);
	/* raw config: EN (22) is the driver's; a reserved filter bit */
	refused("skl", "uncore_cbox_0/config=0x408f34/", "bits 0x400000 are not event-select fields",
		__LINE__);
	refused("ivt", "uncore_cbox_0/config=0x0334,config1=0x100/", "sets reserved bits of", __LINE__);
	refused("skl", "uncore_imc/config=0x09/", "config=0x9 is not an event of perf's uncore_imc",
		__LINE__);
	refused("skl", "uncore_arb/config1=0x1/", "the arb has no filter register", __LINE__);
	refused("skl", "uncore_imc/data_reads,name=/", "name= needs a name", __LINE__);
}

/* perf command lines, counted on each platform: ground truth. */
CT_TEST(perf_command_lines_count)
{
	one("skl", "uncore_cbox_0/event=0x34,umask=0x8f/", "UNC_CBO_CACHE_LOOKUP.ANY_MESI", __LINE__);
	one("skl", "uncore_arb/event=0x80,umask=0x01,cmask=1/",
	    "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", __LINE__);
	one("snbep", "uncore_cbox_3/event=0x35,umask=0x03,filter_opc=0x182/", NULL, __LINE__);
	one("snbep", "uncore_pcu/event=0x80,occ_sel=1,thresh=1,edge/", NULL, __LINE__);
	one("snbep", "uncore_pcu/event=0x0b,filter_band0=20/", NULL, __LINE__);
	one("snbep", "uncore_ha/event=0x01,umask=0x03/", "UNC_H_REQUESTS.READS", __LINE__);
	one("snbep", "uncore_r3qpi_1/event=0x01/", "UNC_R3_CLOCKTICKS", __LINE__);
	one("ivt", "uncore_cbox/event=0x34,umask=0x03,filter_state=0x1f/", NULL, __LINE__);
	one("ivt", "uncore_ha_1/event=0x01,umask=0x03/", NULL, __LINE__);
	one("ivt", "uncore_irp/event=0x15,umask=0x01/", NULL, __LINE__);
	one("ivt", "uncore_r2pcie/event=0x01/", NULL, __LINE__);
	one("ivt", "uncore_pcu/event=0x80,occ_sel=2,occ_invert=1,thresh=1/", NULL, __LINE__);
}

CT_MAIN()
