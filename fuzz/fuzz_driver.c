/*
 * fuzz_driver.c - driver API sequences on the simulated backend, on every
 * platform: events added from the tables and raw encodings, start,
 * samples, waits, changing inputs and their filter attributes, overflow
 * options, stop, restore, in any order.  Every access the driver makes
 * must fall on a register of the platform (a checking backend sits between
 * driver and model); the driver's totals must equal the model's ground
 * truth; the driver must cause no strict-mode record.
 *
 * Input layout: four header bytes, then at most 64 operations (an opcode
 * byte and its operands).
 *   byte 0  instances of the counted box type (CBos): ninst_min + b % span,
 *           so skl 1-4 (the hardware reports them) and snbep 1-8 (the
 *           driver probes them)
 *   byte 1  bits 3:0 PMI_SEL cores
 *   byte 2  bit 0 FRZ_ON_PMI; bit 7 the platform, 0 skl, 1 snbep; on
 *           snbep bit 6 one socket instead of two and bits 5:4 the uncore
 *           clock (default, the worst case the driver assumes, 1.2 GHz,
 *           default)
 *   byte 3  bit 0 WAKE_ON_PMI; bit 1 on a Xeon: the E5-2600 v2 (ivt),
 *           with its own event table (ivt_events), the snbep options
 * Bit 1 of byte 3 was ignored before ivt: the 70 committed snbep inputs
 * that had it set were rewritten with it clear (new SHA-1 names), and ivt
 * inputs were added as copies of snbep ones with it set.
 * Bit 7 of byte 2 was ignored before snbep, and libFuzzer had set it in
 * about a quarter of the committed corpus: those files were rewritten with
 * it clear (the same skl input under its new SHA-1 name), so every
 * committed skl input keeps its meaning.  skl takes opcode byte % 8, the
 * original eight operations; snbep takes byte % 9, the ninth setting an
 * input's filter attribute (thread, node, opcode, state, frequency, the
 * QPI packet fields, the HA address), which the snbep CBo, PCU, QPI and HA
 * filters compare with.  The platforms' option bits
 * stay decoded on snbep although it has no global control or PMI: the
 * driver must then touch nothing for them.
 *
 * What counts as "on a platform register": every write hits a register the
 * model instantiates.  Reads may also be discovery, which on hardware
 * touches what is not there:
 *   - PCI: bytes 0-3 of any function's configuration header (vendor and
 *     device ID).  snbep's driver looks for the UBox on every one of the
 *     256 buses by reading the vendor ID, and the device ID where the
 *     vendor matches; an absent function answers all ones.  Probing for a
 *     device is not a register access, and any other offset of an absent
 *     function is still a failure.
 *   - MSR: counter control 0 of the first CBo the model lacks (its address
 *     from the platform table), which snbep's driver reads to count the
 *     CBos since no register reports them (an absent box's MSR faults).
 *     A probe of any other absent CBo is a failure: the driver must stop
 *     at the first fault.
 */
#include <string.h>

#include "fz.h"
#include "fz_truth.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"

#define MAXREGS 2048

static struct ucm_model *M;
static struct ucb *inner;

/* The model's registers as address ranges, sorted by space and start, and
 * the CBo probe address: what the tables give one configuration (platform,
 * CBo count, sockets), derived once and kept (looking each register up
 * with ucm_reginfo on every access, or per input, would dominate the run). */
struct range {
	unsigned space;
	uint64_t lo, hi; /* [lo, hi) */
	uint64_t reach;  /* the largest hi of this and the ranges before it in its space */
};
struct regmap {
	const struct ucm_platform *p;
	unsigned ninst, sockets;
	size_t n;
	struct range r[MAXREGS];
	uint32_t probe_msr; /* CTL0 of the first absent CBo, 0: none */
};
static const struct regmap *RM;

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	if (x->space != y->space)
		return x->space < y->space ? -1 : 1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void index_regs(void)
{
	static struct regmap *cache[128];
	static unsigned ncache;
	const struct ucm_platform *p = ucm_platform_of(M);
	const struct ucm_boxtype *bt = p->counted;
	unsigned ninst = ucm_ninst(M, bt), sockets = ucm_nsockets(M);
	int counted_by_reg = 0;
	struct regmap *rm;

	for (unsigned k = 0; k < ncache; k++)
		if (cache[k]->p == p && cache[k]->ninst == ninst && cache[k]->sockets == sockets) {
			RM = cache[k];
			return;
		}
	if (ncache == sizeof(cache) / sizeof(cache[0]) || !(rm = calloc(1, sizeof(*rm))))
		FZ_FAIL("more configurations than the register map cache holds");
	rm->p = p;
	rm->ninst = ninst;
	rm->sockets = sockets;
	rm->n = ucm_nregs(M);
	if (rm->n > MAXREGS)
		FZ_FAIL("%zu registers: raise MAXREGS", rm->n);
	for (size_t i = 0; i < rm->n; i++) {
		struct ucm_reginfo ri;

		ucm_reginfo(M, i, &ri);
		rm->r[i].space = ri.space;
		rm->r[i].lo = ri.addr;
		rm->r[i].hi = ri.addr + (ri.space == UCM_MSR ? 1 : ri.width / 8);
		counted_by_reg |= ri.kind == UCM_K_NBOXES;
	}
	qsort(rm->r, rm->n, sizeof(rm->r[0]), cmp_range);
	for (size_t i = 0; i < rm->n; i++)
		rm->r[i].reach = i && rm->r[i - 1].space == rm->r[i].space && rm->r[i - 1].reach > rm->r[i].hi
					 ? rm->r[i - 1].reach
					 : rm->r[i].hi;
	/* only where no register reports the count (skl's CBO_CONFIG does:
	 * there a read of an absent CBo stays a failure) */
	if (bt && bt->space == UCM_MSR && !counted_by_reg) {
		const struct ucm_regdef *ctl = ucm_regdef_find(bt, UCM_K_CTL, 0);

		for (unsigned i = 0; ctl && i < p->nboxes; i++)
			if (p->boxes[i].type == bt && p->boxes[i].inst == ninst)
				rm->probe_msr = (uint32_t)(p->boxes[i].base + ctl->off);
	}
	cache[ncache++] = rm;
	RM = rm;
}

/* Some register overlaps [key, key + width): of the ranges of the space
 * starting below its end, one reaches past key. */
FZ_NO_COVERAGE static int on_register(unsigned space, uint64_t key, unsigned width)
{
	size_t lo = 0, hi = RM->n;

	while (lo < hi) { /* first range at or after (space, key + width) */
		size_t mid = lo + (hi - lo) / 2;
		const struct range *r = &RM->r[mid];

		if (r->space < space || (r->space == space && r->lo < key + width))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && RM->r[lo - 1].space == space && key < RM->r[lo - 1].reach;
}

/* Some register covers [key, key + width) in this space. */
FZ_NO_COVERAGE static void check_access(unsigned space, uint64_t key, unsigned width, const char *what)
{
	if (!on_register(space, key, width))
		FZ_FAIL("the driver touched %s 0x%llx, outside the platform's registers", what,
			(unsigned long long)key);
}

FZ_NO_COVERAGE static int c_msr_read(struct ucb *b, unsigned cpu, uint32_t a, uint64_t *v)
{
	(void)b;
	if (!RM->probe_msr || a != RM->probe_msr) /* not the CBo probe */
		check_access(UCM_MSR, a, 1, "MSR");
	return ucb_msr_read(inner, cpu, a, v);
}

FZ_NO_COVERAGE static int c_msr_write(struct ucb *b, unsigned cpu, uint32_t a, uint64_t v)
{
	(void)b;
	check_access(UCM_MSR, a, 1, "MSR");
	return ucb_msr_write(inner, cpu, a, v);
}

FZ_NO_COVERAGE static int c_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t *v)
{
	(void)b;
	if (off + w > 4) /* past the vendor and device ID: a register access */
		check_access(UCM_PCI, ucm_pci_key(d->bus, d->dev, d->fn, off), w, "PCI config");
	return ucb_pci_read(inner, d, off, w, v);
}

FZ_NO_COVERAGE static int c_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t v)
{
	(void)b;
	check_access(UCM_PCI, ucm_pci_key(d->bus, d->dev, d->fn, off), w, "PCI config");
	return ucb_pci_write(inner, d, off, w, v);
}

static uint64_t bar(void)
{
	uint64_t v = 0;

	ucm_pci_peek(M, 0, 0, 0, 0, 0x48, 8, &v);
	return v & ucm_platform_of(M)->bar_mask;
}

FZ_NO_COVERAGE static int c_mmio_read(struct ucb *b, uint64_t pa, unsigned w, uint64_t *v)
{
	(void)b;
	check_access(UCM_MMIO, pa - bar(), w, "MMIO");
	return ucb_mmio_read(inner, pa, w, v);
}

FZ_NO_COVERAGE static int c_mmio_write(struct ucb *b, uint64_t pa, unsigned w, uint64_t v)
{
	(void)b;
	check_access(UCM_MMIO, pa - bar(), w, "MMIO");
	return ucb_mmio_write(inner, pa, w, v);
}

static int c_cpuid(struct ucb *b, unsigned cpu, uint32_t l, uint32_t s, uint32_t r[4])
{
	(void)b;
	return ucb_cpuid(inner, cpu, l, s, r);
}

static int c_socket(struct ucb *b, unsigned s, unsigned *cpu)
{
	(void)b;
	return ucb_socket_cpu(inner, s, cpu);
}

static int c_now(struct ucb *b, uint64_t *ns)
{
	(void)b;
	return ucb_now_ns(inner, ns);
}

static int c_sleep(struct ucb *b, uint64_t ns)
{
	(void)b;
	return ucb_sleep_ns(inner, ns);
}

static const struct ucb_ops checking = {
	.name = "checking",
	.msr_read = c_msr_read,
	.msr_write = c_msr_write,
	.pci_read = c_pci_read,
	.pci_write = c_pci_write,
	.mmio_read = c_mmio_read,
	.mmio_write = c_mmio_write,
	.cpuid = c_cpuid,
	.socket_cpu = c_socket,
	.now_ns = c_now,
	.sleep_ns = c_sleep,
};

/* skl: the original table, in its original order (the committed corpus
 * picks entries by index). */
static const char *const skl_events[] = {
	"uclk", "data_reads", "data_writes", "gt_requests", "ia_requests", "io_requests",
	"UNC_CBO_CACHE_LOOKUP.ANY_MESI", "UNC_CBO_CACHE_LOOKUP.READ_I", "UNC_CBO_XSNP_RESPONSE.HITM_XCORE",
	"UNC_ARB_TRK_OCCUPANCY.ALL", "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST",
	"UNC_ARB_TRK_REQUESTS.WRITES", "UNC_ARB_COH_TRK_REQUESTS.ALL", "cbo0/event=0x34,umask=0x11,thresh=1,edge/",
	"cbo/event=0x22,umask=0xcd,thresh=1,inv/", "arb/event=0x80,umask=0x1,thresh=20/",
};

/* snbep: every box type, by name and raw.  Pairs are chosen to meet in
 * placement: filters that agree and that conflict in one CBo or PCU,
 * counter-0-only codes competing, one instance and every instance; a few
 * are refused on purpose (an EQ filter not given, a CBo that exists only
 * with 8 of them). */
static const char *const snbep_events[] = {
	/* UBox: fixed UCLK counter, two general counters, no box control */
	"UNC_U_CLOCKTICKS", "UNC_U_EVENT_MSG.IPI_RCVD", "ubox/event=0x42,umask=0x1f,thresh=1,edge/",
	"UNC_U_LOCK_CYCLES",
	/* CBo: state, opcode, node and thread filters, occupancy (counter 0) */
	"UNC_C_CLOCKTICKS", "UNC_C_LLC_LOOKUP.DATA_READ", "cbo/event=0x34,umask=0x3,filter_state=0x1/",
	"cbo0/event=0x35,umask=0x1,filter_opc=0x182/", "cbo/event=0x35,umask=0x3,filter_opc=0x180/",
	"cbo1/event=0x34,umask=0x41,filter_nid=0x2/", "cbo/UNC_C_TOR_INSERTS.NID_ALL,filter_nid=0x1/",
	"cbo/event=0x34,umask=0x3,filter_tid=0x3/", "cbo2/event=0x35,umask=0x41,filter_opc=0x19c,filter_nid=0x4,filter_tid=0x5/",
	"UNC_C_TOR_OCCUPANCY.MISS_ALL", "UNC_C_TOR_INSERTS.MISS_ALL", "cbo/event=0x11,umask=0x1,thresh=1,edge/",
	"cbo3/event=0x1f,thresh=5,inv/", "UNC_C_RING_AD_USED.UP_EVEN", "cbo7/event=0x37,umask=0x1/",
	"UNC_C_TOR_INSERTS.OPCODE",
	/* PCU: occupancy sub-counters (Table 2-80's cases), band filters, the
	 * extra select bit */
	"UNC_P_POWER_STATE_OCCUPANCY.CORES_C0", "pcu/event=0x80,occ_sel=1,thresh=4/",
	"pcu/event=0x80,occ_sel=3,thresh=1,occ_edge/", "pcu/event=0x83,occ_sel=1,thresh=5/",
	"pcu/event=0x8b,occ_sel=1,thresh=4,inv,occ_invert=1,filter_band0=0x14/",
	"pcu/event=0x80,occ_sel=2,thresh=2,occ_invert=1/", "UNC_P_FREQ_BAND1_CYCLES",
	"pcu/event=0xc,filter_band1=0x1b/", "UNC_P_FREQ_TRANS_CYCLES", "pcu/event=0x10b,thresh=1,edge/",
	"UNC_P_CLOCKTICKS",
	/* the cores in C3 and C6 (the occupancy's other selects) */
	"UNC_P_POWER_STATE_OCCUPANCY.CORES_C6", "UNC_P_POWER_STATE_OCCUPANCY.CORES_C3",
	/* HA */
	"UNC_H_REQUESTS.READS", "UNC_H_REQUESTS.WRITES", "ha/event=0x1b,umask=0xff,thresh=1/", "UNC_H_CLOCKTICKS",
	/* iMC: the fixed DCLK counter, occupancy */
	"cas_rd", "cas_wr", "UNC_M_DCLOCKTICKS", "UNC_M_RPQ_OCCUPANCY", "imc1/event=0x81,thresh=16,inv/",
	"imc3/event=0x4,umask=0xf/",
	/* QPI: the extra select bit, occupancy up to 128 a cycle */
	"UNC_Q_RxL_OCCUPANCY", "qpi/event=0x138/", "UNC_Q_TxL_FLITS_G0.DATA", "UNC_Q_TxL_FLITS_G1.DRS",
	"qpi0/event=0x11b,thresh=64/", "UNC_Q_CLOCKTICKS",
	/* R2PCIe and R3QPI: counter restrictions */
	"UNC_R2_CLOCKTICKS", "UNC_R2_RING_AD_USED.CW_EVEN", "r2pcie/event=0x24/", "UNC_R2_TxR_CYCLES_FULL.AD",
	"UNC_R3_CLOCKTICKS", "UNC_R3_RxR_OCCUPANCY.HOM", "r3qpi1/event=0x36,umask=0x3f/",
	"UNC_R3_VNA_CREDITS_ACQUIRED",
	/* appended: QPI packet match/mask on CTO_COUNT (whole registers,
	 * packet fields, Table 2-92's named events with their presets, under
	 * user terms), two presets that conflict on one port; HA
	 * address/opcode match (an address the attribute operation reaches,
	 * one it does not, every address bit); refused: reserved match bits, a
	 * field too narrow, an unaligned address, no address, no opcode.  An
	 * entry is byte % the table's length: when the table grew from 57, the
	 * committed inputs with a byte of 57 or more were rewritten with
	 * byte % 57, so that they keep their meaning */
	"qpi/event=0x138,match0=0x1c00,mask0=0x1f80/", "qpi/UNC_Q_CTO_COUNT.DRS.DataC_M/",
	"qpi/UNC_Q_CTO_COUNT.DRS.AnyDataC,match_dnid=1,mask_dnid=0x1f/", "UNC_Q_CTO_COUNT.DRS.AnyDataC",
	"qpi1/event=0x138,match_mc=0xe,mask_mc=0xf,match_opc=0x0,mask_opc=0xf/",
	"qpi/event=0x138,match_rnid=0x1,mask_rnid=0x1f,match_vnw=2,mask_vnw=3,match_rds=0x1,mask_rds=0xf/",
	"qpi0/event=0x138,match1=0x10001,mask1=0xf000f,thresh=1/", "qpi0/UNC_Q_CTO_COUNT.DRS.DataC_E/",
	"UNC_Q_CTO_COUNT.NCB.AnyMsg9flits", "qpi/event=0x138,mask0=0x1fe0/", "qpi/event=0x138,match_dnid=0x3/",
	"ha/ADDR_OPC_MATCH.FILT,filter_opc=0x2,filter_addr=0x12345000/",
	"ha/ADDR_OPC_MATCH.FILT,filter_opc=0x2,filter_addr=0x3000/",
	"ha0/event=0x20,umask=0x3,filter_opc=0x21,filter_addr=0x0/",
	"ha/UNC_H_ADDR_OPC_MATCH.FILT,filter_opc=0x10,filter_addr=0x3fffffffffc0/",
	"qpi/event=0x138,match0=0x7/", "qpi/event=0x138,match_opc=0x10/",
	"ha/ADDR_OPC_MATCH.FILT,filter_opc=0x2,filter_addr=0x1234/", "ha/ADDR_OPC_MATCH.FILT,filter_opc=0x2/",
	"UNC_H_ADDR_OPC_MATCH.FILT",
};

/* The E5-2600 v2 (byte 3 bit 1 on a Xeon): the same kinds of events in
 * the v2's names and layouts -- FILTER0/FILTER1, exact TOR values, ov_en
 * counters whose overflows freeze the socket, eight channels, the IRP --
 * and raw encodings, some undefined (invert, a reserved bit). */
static const char *const ivt_events[] = {
	"UNC_U_CLOCKTICKS", "uclk_fixed", "UNC_U_EVENT_MSG.IPI_RCVD", "ubox/event=0x42,umask=0x1f,thresh=1,edge/",
	"UNC_C_CLOCKTICKS", "UNC_C_LLC_LOOKUP.DATA_READ", "cbo/event=0x34,umask=0x3,filter_state=0x1/",
	"cbo0/event=0x35,umask=0x1,filter_opc=0x182/", "cbo/UNC_C_TOR_INSERTS.MISS_OPCODE,filter_opc=0x180/",
	"cbo1/event=0x34,umask=0x41,filter_nid=0x2/", "cbo/UNC_C_TOR_INSERTS.NID_ALL,filter_nid=0x1/",
	"cbo/event=0x34,umask=0x3,filter_tid=0x3/", "UNC_C_TOR_OCCUPANCY.MISS_LOCAL", "UNC_C_TOR_INSERTS.MISS_REMOTE",
	"cbo/event=0x11,umask=0x1,thresh=1,edge/", "cbo3/event=0x1f,thresh=5/", "cbo11/event=0x37,umask=0x1/",
	"UNC_C_RING_IV_USED.ANY", "UNC_P_POWER_STATE_OCCUPANCY.CORES_C0", "pcu/event=0x80,occ_sel=1,thresh=4/",
	"pcu/event=0x80,occ_sel=3,thresh=1,occ_edge/", "UNC_P_FREQ_BAND1_CYCLES", "pcu/event=0xc,filter_band1=0x1b/",
	"UNC_P_FREQ_TRANS_CYCLES", "UNC_P_PKG_C_STATE_RESIDENCY_C6_CYCLES", "UNC_P_CLOCKTICKS",
	"UNC_P_POWER_STATE_OCCUPANCY.CORES_C6", "UNC_H_REQUESTS.READS", "UNC_H_REQUESTS.WRITES", "ha1/event=0x1,umask=0x3/",
	"UNC_H_CLOCKTICKS", "cas_rd", "cas_wr", "UNC_M_DCLOCKTICKS", "dclk_fixed", "imc7/event=0x4,umask=0xf/",
	"UNC_M_RD_CAS_RANK0.BANK0", "UNC_Q_RxL_OCCUPANCY", "qpi/event=0x138/", "UNC_Q_TxL_FLITS_G0.DATA",
	"UNC_Q_TxL_FLITS_G1.DRS", "qpi1/event=0x11b,thresh=64/", "UNC_Q_CLOCKTICKS",
	"qpi/event=0x138,match0=0x1c00,mask0=0x1f80/", "UNC_R2_CLOCKTICKS", "UNC_R2_RING_AD_USED.CW",
	"UNC_R3_CLOCKTICKS", "UNC_R3_RxR_OCCUPANCY.HOM", "UNC_I_CLOCKTICKS", "UNC_I_TRANSACTIONS.READS",
	"irp/event=0x10,umask=0x1/", "ha/ADDR_OPC_MATCH.FILT,filter_opc=0x2,filter_addr=0x12345000/",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* A sub-event index: one byte unless the box type has more. */
static unsigned pick_sub(struct fz *f, unsigned n)
{
	return (n > 256 ? fz_u16(f) : fz_u8(f)) % n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	struct ucm_config cfg;
	struct ucb chk = { &checking, NULL, { 0 } };
	struct ucd_opts o = { NULL, 0, 0, 0, 0, 0 };
	struct ucd *d;
	const struct ucm_boxtype *counted;
	const char *const *events;
	size_t nevents;
	unsigned ops = 0, nops;
	uint8_t ninst, setup, b3;
	int started = 0, legacy, v2;
	char err[256];

	ninst = fz_u8(&f);
	o.pmi_cores = fz_u8(&f) & 0xF;
	setup = fz_u8(&f);
	o.freeze_on_pmi = setup & 1;
	b3 = fz_u8(&f);
	o.wake_on_pmi = b3 & 1;
	legacy = !(setup & 0x80);
	v2 = !legacy && (b3 & 2);
	ucm_config_init(&cfg, ucm_platform_find(legacy ? "skl" : v2 ? "ivt" : "snbep"));
	cfg.strict = 1;
	counted = cfg.plat->counted;
	cfg.ninst[ucm_boxtype_index(cfg.plat, counted)] =
		counted->ninst_min + ninst % (counted->ninst_max - counted->ninst_min + 1u);
	if (legacy) {
		events = skl_events;
		nevents = NELEM(skl_events);
		nops = 8;
	} else {
		const struct ucm_clockdef *uclk = &cfg.plat->clocks[0];
		const uint64_t hz[4] = { 0, uclk->hz_max, 1200000000ull, 0 };

		events = v2 ? ivt_events : snbep_events;
		nevents = v2 ? NELEM(ivt_events) : NELEM(snbep_events);
		nops = 9;
		if (setup & 0x40)
			cfg.sockets = 1;
		cfg.clock_hz[0] = hz[(setup >> 4) & 3];
	}
	if (!(M = fz_model(&cfg, err, sizeof(err))) || ucb_sim_create(M, &inner))
		FZ_FAIL("setup: %s", M ? "no memory" : err);
	index_regs();
	if (ucd_open(&chk, &o, &d))
		FZ_FAIL("open: %s", ucd_error(d));
	if (ucd_ninst(d, counted) != ucm_ninst(M, counted))
		FZ_FAIL("the driver found %u %s boxes, the model has %u", ucd_ninst(d, counted), counted->name,
			ucm_ninst(M, counted));
	if (ucd_sockets(d) != ucm_nsockets(M))
		FZ_FAIL("the driver found %u sockets, the model has %u", ucd_sockets(d), ucm_nsockets(M));
	ucm_truth_mark(M);
	while (fz_more(&f) && ops++ < 64) {
		switch (fz_u8(&f) % nops) {
		case 0:
			if (!started)
				ucd_add_events(d, events[fz_u8(&f) % nevents]);
			break;
		case 1:
			if (!started && ucd_nevents(d)) {
				if (ucd_start(d))
					FZ_FAIL("start: %s", ucd_error(d));
				started = 1;
			}
			break;
		case 2:
			if (started && ucd_sample(d))
				FZ_FAIL("sample: %s", ucd_error(d));
			break;
		case 3: /* wait, but never past the safe interval between samples */
			if (started) {
				uint64_t ns = (uint64_t)fz_u16(&f) * 1000;

				if (ns > ucd_safe_interval_ns(d) / 2)
					ns = ucd_safe_interval_ns(d) / 2;
				if (ucb_sleep_ns(inner, ns))
					FZ_FAIL("sleep");
				if (ucd_sample(d))
					FZ_FAIL("sample: %s", ucd_error(d));
			}
			break;
		case 4: { /* inputs change, on any box of any socket; what exceeds a
			   * maximum is refused */
			unsigned b = fz_u8(&f) % ucm_box_count(M), n = ucm_subev_count(ucm_box_def(M, (int)b)->type);

			if (n && legacy) {
				ucm_set_input(M, (int)b, fz_u8(&f) % n, fz_u8(&f) % 33);
			} else if (n) {
				/* up to just past the code's maximum: the boxes' maxima
				 * range from 1 to 128 a cycle */
				unsigned s = pick_sub(&f, n);

				ucm_set_input(M, (int)b, s,
					      fz_u8(&f) % (ucm_subev_code(ucm_box_def(M, (int)b)->type, s)->max_inc + 2u));
			}
			break;
		}
		case 5: { /* a long wait at the safe interval: counters wrap */
			if (started) {
				uint64_t ns = ucd_safe_interval_ns(d) / 2;

				/* skl's 32-bit counters wrap within 2 s; snbep's 44- and
				 * 48-bit ones take minutes at their maxima, which the
				 * model covers in closed form (the free-running 64-bit
				 * C-state counters bound nothing) */
				if (ns > (legacy ? 2000000000ull : 600000000000ull))
					ns = legacy ? 2000000000ull : 600000000000ull;
				if (ucb_sleep_ns(inner, ns) || ucd_sample(d))
					FZ_FAIL("long wait: %s", ucd_error(d));
			}
			break;
		}
		case 6:
			if (started && ucd_stop(d))
				FZ_FAIL("stop: %s", ucd_error(d));
			break;
		case 8: { /* a sub-event's filter attribute; bit 15 of the value:
			   * none, which no filter rule matches.  The address (HA)
			   * takes bits 8:0 at 20:12, the compared bits, and bits
			   * 14:9 at 11:6, which the compare skips */
			unsigned b = fz_u8(&f) % ucm_box_count(M), n = ucm_subev_count(ucm_box_def(M, (int)b)->type);
			unsigned s = n ? pick_sub(&f, n) : 0, attr = fz_u8(&f) % UCM_NATTR;
			uint16_t v = fz_u16(&f);
			uint64_t a = v & 0x1FF;

			if (attr == UCM_AT_ADDR)
				a = a << 12 | (uint64_t)((v >> 9) & 0x3F) << 6;
			if (n)
				ucm_set_input_attr(M, (int)b, s, attr, v & 0x8000 ? UCM_ATTR_NONE : a);
			break;
		}
		default: /* the session ends with a restore */
			if (started) {
				if (ucd_stop(d))
					FZ_FAIL("stop: %s", ucd_error(d));
				fz_check_truth(d, M, "session");
				if (ucd_restore(d))
					FZ_FAIL("restore: %s", ucd_error(d));
				started = 0;
				f.n = 0;
			}
			break;
		}
	}
	if (started) {
		if (ucd_stop(d))
			FZ_FAIL("stop: %s", ucd_error(d));
		fz_check_truth(d, M, "session");
	}
	fz_check_truth(d, M, "end");
	ucd_close(d);
	ucb_destroy(inner);
	return 0; /* the model is kept for the next input of its configuration */
}
