/*
 * t_snbep_regs.c - registers of the Xeon E5-2600 (Sandy Bridge-EP) model,
 * register by register, on both sockets: the MSR boxes of Table 1-2 (UBox
 * 2.2, 8 CBos 2.3, PCU 2.6 with its C-state counters), the PCI boxes of
 * Table 1-3 (HA 2.4, 4 iMC channels 2.5, 2 QPI ports 2.7 with mask/match
 * and rate status, R2PCIe 2.8, 2 R3QPI links 2.9), the PCI IDs of every
 * function and the UBox node-ID registers (public facts).  "The guide" is
 * ../shared/seeds/xeon-e5-2600-uncore-guide.md.
 *
 * Addresses, field masks, reset values and counter widths are written out
 * below from the guide's tables (and the decisions R1..R16 of
 * docs/platform-snbep.md where the guide is unclear); they are never read
 * from the model.  Only stimulus comes from the model's tables: a valid
 * event to program on a counter (CLOCKTICKS where the box has it), found
 * through the public descriptor helpers.  Accesses cost no simulated time
 * (access_ps = 0) unless a test is about time, so nothing counts between
 * two accesses.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include "ct.h"
#include "ucm.h"

#define BIT(n) (1ull << (n))
#define BITS(hi, lo) ((~0ull >> (63 - (hi))) & ~(BIT(lo) - 1))

#define NSOCK 2
#define NCBO 8
#define CPUS 8 /* cpus per socket: the model's default (8 cores) */

/* ---- the guide's addresses ---- */

/* Table 2-1 UBox */
#define U_FIXED_CTL 0xC08u
#define U_FIXED_CTR 0xC09u
#define U_CTL(i) (0xC10u + (i))
#define U_CTR(i) (0xC16u + (i))
/* Table 2-8 CBo n (Table 1-2: box control at 0xD04, 0xD24, ... 0xDE4) */
#define C_BOX_CTL(n) (0xD04u + 0x20u * (n))
#define C_CTL(n, i) (0xD10u + 0x20u * (n) + (i))
#define C_FILTER(n) (0xD14u + 0x20u * (n))
#define C_CTR(n, i) (0xD16u + 0x20u * (n) + (i))
/* Table 2-73 PCU (0xC36 is CTR0: R5) */
#define P_BOX_CTL 0xC24u
#define P_CTL(i) (0xC30u + (i))
#define P_FILTER 0xC34u
#define P_CTR(i) (0xC36u + (i))
#define P_C3 0x3FCu
#define P_C6 0x3FDu
/* PCI config offsets: Tables 2-33 (HA), 2-59 (iMC), 2-84 (QPI), 2-104
 * (R2PCIe), 2-118 (R3QPI) */
#define X_BOX_CTL 0xF4u
#define X_CTL(i) (0xD8u + 4u * (i))
#define X_CTR(i) (0xA0u + 8u * (i))
#define MC_FIXED_CTL 0xF0u
#define MC_FIXED_CTR 0xD0u
#define HA_ADDRMATCH0 0x40u
#define HA_ADDRMATCH1 0x44u
#define HA_OPCODEMATCH 0x48u
#define Q_MATCH0 0x228u
#define Q_MATCH1 0x22Cu
#define Q_MASK0 0x238u
#define Q_MASK1 0x23Cu
#define Q_RATE_STATUS 0xD4u
/* UBox configuration function (public facts, R13) */
#define UBOX_DEV 11u
#define UBOX_FN 0u
#define CPUNODEID 0x40u
#define GIDNIDMAP 0x54u

/* Uncore bus of each socket (public facts) */
static const unsigned bus_of[NSOCK] = { 0x3F, 0x7F };

/* ---- the guide's fields ---- */

#define EN BIT(22) /* .en of every control table */
/* Box controls: Tables 2-9, 2-74, 2-85, 2-105, 2-119 (frz_en 16, frz 8,
 * rst_ctrs 1, rst_ctrl 0, all WO); Tables 2-34, 2-60 (HA, iMC: frz_en and
 * frz only, 1:0 reserved).  frz_en and frz read back what was written
 * (R11 as revisited, issue 33: PCM's QPI link probe reads frz_en back, and
 * it works on real E5-2600 machines); the reset bits stay WO. */
#define FRZ_EN BIT(16)
#define FRZ BIT(8)
#define RST_CTRS BIT(1)
#define RST_CTRL BIT(0)
#define BOXCTL_RW (FRZ_EN | FRZ)
#define BOXCTL_RST_WO (RST_CTRS | RST_CTRL)
#define BOXCTL_FRZ_WO 0
/* Table 2-2 U_MSR_PMON_CTL: thresh 28:24, invert 23, en 22, edge 18, umask,
 * ev_sel RW; rst 17 WO */
#define U_CTL_RW (BITS(28, 24) | BIT(23) | BIT(22) | BIT(18) | BITS(15, 8) | BITS(7, 0))
/* Table 2-4: en only */
#define U_FIXED_CTL_RW BIT(22)
/* Table 2-10: thresh 31:24, invert 23, en 22, tid_en 19, edge 18, umask,
 * ev_sel RW; rst 17 WO */
#define C_CTL_RW (BITS(31, 24) | BIT(23) | BIT(22) | BIT(19) | BIT(18) | BITS(15, 8) | BITS(7, 0))
#define CTL_RST_WO BIT(17)
/* Table 2-12 (R3): opc 31:23, state 22:18, nid 17:10, tid 4:0 */
#define C_FILTER_RW (BITS(31, 23) | BITS(22, 18) | BITS(17, 10) | BITS(4, 0))
/* Table 2-75 with R4: occ_edge_det 31, occ_invert 30, thresh 28:24, invert
 * 23, en 22, ev_sel_ext 21, edge 18, occ_sel 15:14, ev_sel 7:0; rst 17 WO */
#define P_CTL_RW (BIT(31) | BIT(30) | BITS(28, 24) | BIT(23) | BIT(22) | BIT(21) | BIT(18) | \
		  BITS(15, 14) | BITS(7, 0))
/* Table 2-77: four 8-bit bands */
#define P_FILTER_RW BITS(31, 0)
/* Tables 2-35, 2-61, 2-106, 2-120: thresh 31:24, invert, en, edge, umask,
 * ev_sel (HA and iMC without rst; R2PCIe and R3QPI rst 17 WO) */
#define X_CTL_RW (BITS(31, 24) | BIT(23) | BIT(22) | BIT(18) | BITS(15, 8) | BITS(7, 0))
/* Table 2-86 with R6: as above plus ev_sel_ext 21; rst 17 WO */
#define Q_CTL_RW (X_CTL_RW | BIT(21))
/* Table 2-62: en 22 RW, rst 19 WO */
#define MC_FIXED_CTL_RW BIT(22)
#define MC_FIXED_CTL_WO BIT(19)
/* Tables 2-37..2-39 (R10) */
#define HA_OPC_RW BITS(5, 0)
#define HA_ADDR1_RW BITS(13, 0)
#define HA_ADDR0_RW BITS(31, 6)
/* Tables 2-88/2-90: RDS 19:16, RNID_3_0 3:0; 2-89/2-91: RNID_4 31, DNID
 * 17:13, MC 12:9, OPC 8:5, VNW 4:3 (R9) */
#define Q_MM1_RW (BITS(19, 16) | BITS(3, 0))
#define Q_MM0_RW (BIT(31) | BITS(17, 13) | BITS(12, 9) | BITS(8, 5) | BITS(4, 3))
/* Table 2-93: slow_mode 4, qpi_rate 2:0 (RO-V); R8: 101b = 8 GT/s */
#define Q_RATE_RO (BIT(4) | BITS(2, 0))
#define Q_RATE_RESET 0x5u
/* public facts: CPUNODEID 2:0, GIDNIDMAP eight 3-bit fields (identity) */
#define NODEID_RO BITS(2, 0)
#define NODEMAP_RO BITS(23, 0)
#define NODEMAP_IDENTITY 0xFAC688ull

/* ---- the expected register map ---- */

struct xreg {
	char name[48];
	unsigned space, socket;
	unsigned dev, fn;  /* PCI */
	uint64_t addr;     /* MSR address or config offset */
	unsigned bytes;    /* storage width */
	uint64_t reset, rw, ro, wo;
	unsigned ctr_bits; /* counter width, 0: not a counter */
	const char *cite;  /* the table: "Table 2-10", or NULL (not in the guide) */
};

static size_t nx;

/* A register name from a printf pattern. */
static const char *N(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *N(const char *fmt, ...)
{
	static char buf[48];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return buf;
}

static struct xreg *add(struct xreg *x, unsigned socket, unsigned space, unsigned dev,
			unsigned fn, uint64_t addr, unsigned bytes, const char *cite, const char *name)
{
	struct xreg *r = &x[nx++];

	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->space = space;
	r->socket = socket;
	r->dev = dev;
	r->fn = fn;
	r->addr = addr;
	r->bytes = bytes;
	r->cite = cite;
	return r;
}

static void msr(struct xreg *x, unsigned s, uint64_t addr, const char *cite, uint64_t rw,
		uint64_t wo, unsigned ctr_bits, const char *name)
{
	/* every MSR is 64 bits; bits a table does not list are reserved (R2) */
	struct xreg *r = add(x, s, UCM_MSR, 0, 0, addr, 8, cite, name);

	r->rw = rw;
	r->wo = wo;
	r->ctr_bits = ctr_bits;
}

static struct xreg *pci(struct xreg *x, unsigned s, unsigned dev, unsigned fn, uint64_t off,
			unsigned bytes, const char *cite, uint64_t rw, uint64_t wo, unsigned ctr_bits,
			const char *name)
{
	struct xreg *r = add(x, s, UCM_PCI, dev, fn, off, bytes, cite, name);

	r->rw = rw;
	r->wo = wo;
	r->ctr_bits = ctr_bits;
	return r;
}

/* Class codes of the E5-2600's functions as lspci shows them on E5-2600
 * systems (docs/tools.md "PCI functions"): performance counters, other
 * system peripheral. */
#define CLS_PMON 0x110100
#define CLS_OTHER 0x088000

/* The header of a PCI function (PCI Local Bus 3.0, 6.2.1; IDs from public
 * facts): VID/DID, revision 0x07 (C2 stepping) and class code, header type
 * 0x80 (multi-function), subsystem 8086:0000. */
static void ids(struct xreg *x, unsigned s, unsigned dev, unsigned fn, uint16_t did,
		uint32_t cls, const char *prefix)
{
	struct xreg *r;
	char pre[32];

	snprintf(pre, sizeof(pre), "%s", prefix); /* prefix may be N()'s buffer */
	r = pci(x, s, dev, fn, 0x00, 2, "PCI header", 0, 0, 0, N("%s_VID", pre));
	r->ro = BITS(15, 0);
	r->reset = 0x8086;
	r = pci(x, s, dev, fn, 0x02, 2, "PCI header", 0, 0, 0, N("%s_DID", pre));
	r->ro = BITS(15, 0);
	r->reset = did;
	r = pci(x, s, dev, fn, 0x08, 4, "PCI header", 0, 0, 0, N("%s_RID_CCR", pre));
	r->ro = BITS(31, 0);
	r->reset = (uint64_t)cls << 8 | 0x07;
	r = pci(x, s, dev, fn, 0x0C, 4, "PCI header", 0, 0, 0, N("%s_HDR", pre));
	r->ro = BITS(31, 0);
	r->reset = 0x80 << 16;
	r = pci(x, s, dev, fn, 0x2C, 4, "PCI header", 0, 0, 0, N("%s_SVID_SID", pre));
	r->ro = BITS(31, 0);
	r->reset = 0x8086;
}

/* A PCI PMON box: box control, n control/counter pairs (Table 1-3
 * layout: controls from 0xD8, counters from 0xA0, box control 0xF4). */
static void pmon(struct xreg *x, unsigned s, unsigned dev, unsigned fn, const char *prefix,
		 unsigned n, uint64_t ctl_rw, uint64_t ctl_wo, const char *ctl_cite, unsigned bits,
		 const char *ctr_cite, uint64_t box_wo, const char *box_cite)
{
	for (unsigned i = 0; i < n; i++) {
		pci(x, s, dev, fn, X_CTL(i), 4, ctl_cite, ctl_rw, ctl_wo, 0,
		    N("%s_PCI_PMON_CTL%u", prefix, i));
		pci(x, s, dev, fn, X_CTR(i), 8, ctr_cite, BITS(bits - 1, 0), 0, bits,
		    N("%s_PCI_PMON_CTR%u", prefix, i));
	}
	pci(x, s, dev, fn, X_BOX_CTL, 4, box_cite, BOXCTL_RW, box_wo, 0,
	    N("%s_PCI_PMON_BOX_CTL", prefix));
}

/* Every register of both sockets (ncbo CBos per socket). */
static size_t snbep_regs(struct xreg *x, unsigned ncbo)
{
	static const uint8_t mc_fn[4] = { 0, 1, 4, 5 };
	static const uint16_t mc_did[4] = { 0x3CB0, 0x3CB1, 0x3CB4, 0x3CB5 };
	char p[32];

	nx = 0;
	for (unsigned s = 0; s < NSOCK; s++) {
		struct xreg *r;

		/* UBox, Tables 2-1..2-5 (fixed counter 48-bit: R1) */
		msr(x, s, U_FIXED_CTL, "Table 2-4", U_FIXED_CTL_RW, 0, 0, "U_MSR_PMON_UCLK_FIXED_CTL");
		msr(x, s, U_FIXED_CTR, "Table 2-5", BITS(47, 0), 0, 48, "U_MSR_PMON_UCLK_FIXED_CTR");
		for (unsigned i = 0; i < 2; i++) {
			msr(x, s, U_CTL(i), "Table 2-2", U_CTL_RW, CTL_RST_WO, 0, N("U_MSR_PMON_CTL%u", i));
			msr(x, s, U_CTR(i), "Table 2-3", BITS(43, 0), 0, 44, N("U_MSR_PMON_CTR%u", i));
		}
		/* CBo, Tables 2-8..2-12 */
		for (unsigned n = 0; n < ncbo; n++) {
			msr(x, s, C_BOX_CTL(n), "Table 2-9", BOXCTL_RW, BOXCTL_RST_WO, 0,
			    N("C%u_MSR_PMON_BOX_CTL", n));
			msr(x, s, C_FILTER(n), "Table 2-12", C_FILTER_RW, 0, 0,
			    N("C%u_MSR_PMON_BOX_FILTER", n));
			for (unsigned i = 0; i < 4; i++) {
				msr(x, s, C_CTL(n, i), "Table 2-10", C_CTL_RW, CTL_RST_WO, 0,
				    N("C%u_MSR_PMON_CTL%u", n, i));
				msr(x, s, C_CTR(n, i), "Table 2-11", BITS(43, 0), 0, 44,
				    N("C%u_MSR_PMON_CTR%u", n, i));
			}
		}
		/* PCU, Tables 2-73..2-79 */
		msr(x, s, P_BOX_CTL, "Table 2-74", BOXCTL_RW, BOXCTL_RST_WO, 0,
		    "PCU_MSR_PMON_BOX_CTL");
		msr(x, s, P_FILTER, "Table 2-77", P_FILTER_RW, 0, 0, "PCU_MSR_PMON_BOX_FILTER");
		for (unsigned i = 0; i < 4; i++) {
			msr(x, s, P_CTL(i), "Table 2-75", P_CTL_RW, CTL_RST_WO, 0, N("PCU_MSR_PMON_CTL%u", i));
			msr(x, s, P_CTR(i), "Table 2-76", BITS(47, 0), 0, 48, N("PCU_MSR_PMON_CTR%u", i));
		}

		/* UBox configuration function (public facts, R13) */
		ids(x, s, UBOX_DEV, UBOX_FN, 0x3CE0, CLS_OTHER, "UBOX");
		r = pci(x, s, UBOX_DEV, UBOX_FN, CPUNODEID, 4, NULL, 0, 0, 0, "UBOX_CPUNODEID");
		r->ro = NODEID_RO;
		r->reset = s; /* the node ID of socket s under the identity map */
		r = pci(x, s, UBOX_DEV, UBOX_FN, GIDNIDMAP, 4, NULL, 0, 0, 0, "UBOX_GIDNIDMAP");
		r->ro = NODEMAP_RO;
		r->reset = NODEMAP_IDENTITY;

		/* HA's own function D14:F0 (public facts): the register PCM's
		 * JKT workaround sets, bit 1 read/write (R27) */
		ids(x, s, 14, 0, 0x3CA0, CLS_OTHER, "HA_MAIN");
		pci(x, s, 14, 0, 0x84, 4, "R27", BIT(1), 0, 0, "HA_JKT_WA");

		/* HA D14:F1, Tables 2-33..2-39 */
		ids(x, s, 14, 1, 0x3C46, CLS_PMON, "HA");
		pci(x, s, 14, 1, HA_ADDRMATCH0, 4, "Table 2-39", HA_ADDR0_RW, 0, 0,
		    "HA_PCI_PMON_BOX_ADDRMATCH0");
		pci(x, s, 14, 1, HA_ADDRMATCH1, 4, "Table 2-38", HA_ADDR1_RW, 0, 0,
		    "HA_PCI_PMON_BOX_ADDRMATCH1");
		pci(x, s, 14, 1, HA_OPCODEMATCH, 4, "Table 2-37", HA_OPC_RW, 0, 0,
		    "HA_PCI_PMON_BOX_OPCODEMATCH");
		pmon(x, s, 14, 1, "HA", 4, X_CTL_RW, 0, "Table 2-35", 48, "Table 2-36", BOXCTL_FRZ_WO,
		     "Table 2-34");

		/* iMC D16:F0,1,4,5, Tables 2-59..2-63 */
		for (unsigned c = 0; c < 4; c++) {
			snprintf(p, sizeof(p), "MC_CH%u", c);
			ids(x, s, 16, mc_fn[c], mc_did[c], CLS_OTHER, p);
			pmon(x, s, 16, mc_fn[c], p, 4, X_CTL_RW, 0, "Table 2-61", 48, "Table 2-63",
			     BOXCTL_FRZ_WO, "Table 2-60");
			pci(x, s, 16, mc_fn[c], MC_FIXED_CTL, 4, "Table 2-62", MC_FIXED_CTL_RW,
			    MC_FIXED_CTL_WO, 0, N("MC_CH%u_PCI_PMON_FIXED_CTL", c));
			pci(x, s, 16, mc_fn[c], MC_FIXED_CTR, 8, "Table 2-63", BITS(47, 0), 0, 48,
			    N("MC_CH%u_PCI_PMON_FIXED_CTR", c));
		}

		/* QPI ports D8/D9: F2 PMON (Tables 2-84..2-87), F6 mask/match
		 * (Tables 2-88..2-91), F0 rate status (Table 2-93, R7, R8) */
		for (unsigned q = 0; q < 2; q++) {
			snprintf(p, sizeof(p), "Q_P%u", q);
			ids(x, s, 8 + q, 2, q ? 0x3C42 : 0x3C41, CLS_PMON, p);
			pmon(x, s, 8 + q, 2, p, 4, Q_CTL_RW, CTL_RST_WO, "Table 2-86", 48, "Table 2-87",
			     BOXCTL_RST_WO, "Table 2-85");
			ids(x, s, 8 + q, 6, q ? 0x3C96 : 0x3C86, CLS_OTHER, N("Q_P%u_MM", q));
			pci(x, s, 8 + q, 6, Q_MATCH0, 4, "Table 2-89", Q_MM0_RW, 0, 0,
			    N("Q_P%u_PCI_PMON_PKT_MATCH0", q));
			pci(x, s, 8 + q, 6, Q_MATCH1, 4, "Table 2-88", Q_MM1_RW, 0, 0,
			    N("Q_P%u_PCI_PMON_PKT_MATCH1", q));
			pci(x, s, 8 + q, 6, Q_MASK0, 4, "Table 2-91", Q_MM0_RW, 0, 0,
			    N("Q_P%u_PCI_PMON_PKT_MASK0", q));
			pci(x, s, 8 + q, 6, Q_MASK1, 4, "Table 2-90", Q_MM1_RW, 0, 0,
			    N("Q_P%u_PCI_PMON_PKT_MASK1", q));
			ids(x, s, 8 + q, 0, q ? 0x3C90 : 0x3C80, CLS_OTHER, N("Q_P%u_MISC", q));
			pci(x, s, 8 + q, 0, 0x80, 4, "R27", BIT(1), 0, 0, N("Q_P%u_JKT_WA", q));
			r = pci(x, s, 8 + q, 0, Q_RATE_STATUS, 4, "Table 2-93", 0, 0, 0,
				N("Q_P%u_QPI_RATE_STATUS", q));
			r->ro = Q_RATE_RO;
			r->reset = Q_RATE_RESET;
		}

		/* the PCU's configuration functions D10:F0-F3 (pci.ids): no
		 * registers but their headers */
		for (unsigned f = 0; f < 4; f++)
			ids(x, s, 10, f, f < 3 ? 0x3CC0 + f : 0x3CD0, CLS_OTHER, N("PCU_F%u", f));

		/* R2PCIe D19:F1, Tables 2-104..2-107 */
		ids(x, s, 19, 1, 0x3C43, CLS_PMON, "R2");
		pmon(x, s, 19, 1, "R2", 4, X_CTL_RW, CTL_RST_WO, "Table 2-106", 44, "Table 2-107",
		     BOXCTL_RST_WO, "Table 2-105");
		/* R3QPI D19:F5,6, Tables 2-118..2-121: three counters */
		for (unsigned l = 0; l < 2; l++) {
			snprintf(p, sizeof(p), "R3_L%u", l);
			ids(x, s, 19, 5 + l, l ? 0x3C45 : 0x3C44, CLS_PMON, p);
			pmon(x, s, 19, 5 + l, p, 3, X_CTL_RW, CTL_RST_WO, "Table 2-120", 44, "Table 2-121",
			     BOXCTL_RST_WO, "Table 2-119");
		}
	}
	return nx;
}

#define MAXREGS 640

static uint64_t width_mask(const struct xreg *x)
{
	return x->bytes >= 8 ? ~0ull : BIT(8 * x->bytes) - 1;
}

static uint64_t rsvd_mask(const struct xreg *x)
{
	return width_mask(x) & ~(x->rw | x->ro | x->wo);
}

static uint64_t xkey(const struct xreg *x)
{
	return x->space == UCM_PCI ? ucm_pci_key(bus_of[x->socket], x->dev, x->fn, (unsigned)x->addr)
				   : x->addr;
}

static int xread(struct ucm_model *m, const struct xreg *x, uint64_t *v)
{
	if (x->space == UCM_MSR)
		return ucm_msr_read(m, x->socket * CPUS, (uint32_t)x->addr, v);
	return ucm_pci_read(m, 0, bus_of[x->socket], x->dev, x->fn, (unsigned)x->addr, x->bytes, v);
}

static int xwrite(struct ucm_model *m, const struct xreg *x, uint64_t v)
{
	if (x->space == UCM_MSR)
		return ucm_msr_write(m, x->socket * CPUS, (uint32_t)x->addr, v);
	return ucm_pci_write(m, 0, bus_of[x->socket], x->dev, x->fn, (unsigned)x->addr, x->bytes, v);
}

/* ---- model construction and access helpers ---- */

static const struct ucm_platform *snbep(void)
{
	return ucm_platform_find("snbep");
}

/* A 2-socket model with ncbo CBos (0: default), free accesses. */
static struct ucm_model *mk(int strict, unsigned ncbo)
{
	struct ucm_config cfg;
	struct ucm_model *m = NULL;

	if (!snbep())
		return NULL;
	ucm_config_init(&cfg, snbep());
	cfg.strict = strict;
	cfg.sockets = NSOCK;
	for (unsigned s = 0; s < UCM_NSPACES; s++)
		cfg.access_ps[s] = 0;
	if (ncbo)
		cfg.ninst[ucm_boxtype_index(snbep(), ucm_boxtype_find(snbep(), "cbo"))] = ncbo;
	if (ucm_create(&cfg, &m)) {
		ucm_destroy(m);
		return NULL;
	}
	return m;
}

#define wrmsr(m, s, a, v) wrmsr_(m, s, a, v, __LINE__)
#define rdmsr(m, s, a) rdmsr_(m, s, a, __LINE__)
#define wrpci(m, s, d, f, o, w, v) wrpci_(m, s, d, f, o, w, v, __LINE__)
#define rdpci(m, s, d, f, o, w) rdpci_(m, s, d, f, o, w, __LINE__)

static void wrmsr_(struct ucm_model *m, unsigned s, uint32_t a, uint64_t v, int line)
{
	int rc = ucm_msr_write(m, s * CPUS, a, v);

	if (rc)
		ct_fail(__FILE__, line, "wrmsr 0x%x <- 0x%llx on socket %u: %d (%s)", a,
			(unsigned long long)v, s, rc, ucm_error(m));
}

static uint64_t rdmsr_(struct ucm_model *m, unsigned s, uint32_t a, int line)
{
	uint64_t v = 0;
	int rc = ucm_msr_read(m, s * CPUS, a, &v);

	if (rc)
		ct_fail(__FILE__, line, "rdmsr 0x%x on socket %u: %d (%s)", a, s, rc, ucm_error(m));
	return v;
}

static void wrpci_(struct ucm_model *m, unsigned s, unsigned dev, unsigned fn, unsigned off,
		   unsigned w, uint64_t v, int line)
{
	int rc = ucm_pci_write(m, 0, bus_of[s], dev, fn, off, w, v);

	if (rc)
		ct_fail(__FILE__, line, "pci %02x:%02x.%u+0x%x <- 0x%llx: %d (%s)", bus_of[s], dev, fn,
			off, (unsigned long long)v, rc, ucm_error(m));
}

static uint64_t rdpci_(struct ucm_model *m, unsigned s, unsigned dev, unsigned fn, unsigned off,
		       unsigned w, int line)
{
	uint64_t v = 0;
	int rc = ucm_pci_read(m, 0, bus_of[s], dev, fn, off, w, &v);

	if (rc)
		ct_fail(__FILE__, line, "pci %02x:%02x.%u+0x%x: %d (%s)", bus_of[s], dev, fn, off, rc,
			ucm_error(m));
	return v;
}

/* A PMON unit, as the guide lays it out: where its box control, controls
 * and counters are, its counter width and whether its box control has the
 * reset bits. */
struct unit {
	const char *type;
	unsigned inst;
	unsigned space, dev, fn;
	uint32_t box_ctl;        /* 0: none (UBox, 2.1.1) */
	unsigned nctr;
	uint32_t ctl[5], ctr[5]; /* MSR addresses or config offsets */
	unsigned bits[5];        /* counter widths */
	int rst;                 /* box control has rst_ctrs/rst_ctrl */
	const char *box_cite;
};

static size_t units(struct unit *u)
{
	static const uint8_t mc_fn[4] = { 0, 1, 4, 5 };
	size_t n = 0;

	/* Table 2-1: two 44-bit counters and the 48-bit UCLK fixed counter (R1) */
	u[n] = (struct unit){ "ubox", 0, UCM_MSR, 0, 0, 0, 3,
			      { U_CTL(0), U_CTL(1), U_FIXED_CTL }, { U_CTR(0), U_CTR(1), U_FIXED_CTR },
			      { 44, 44, 48 }, 0, NULL };
	n++;
	for (unsigned c = 0; c < NCBO; c++, n++)
		u[n] = (struct unit){ "cbo", c, UCM_MSR, 0, 0, C_BOX_CTL(c), 4,
				      { C_CTL(c, 0), C_CTL(c, 1), C_CTL(c, 2), C_CTL(c, 3) },
				      { C_CTR(c, 0), C_CTR(c, 1), C_CTR(c, 2), C_CTR(c, 3) },
				      { 44, 44, 44, 44 }, 1, "Table 2-9" };
	u[n++] = (struct unit){ "pcu", 0, UCM_MSR, 0, 0, P_BOX_CTL, 4,
				{ P_CTL(0), P_CTL(1), P_CTL(2), P_CTL(3) },
				{ P_CTR(0), P_CTR(1), P_CTR(2), P_CTR(3) },
				{ 48, 48, 48, 48 }, 1, "Table 2-74" };
	u[n++] = (struct unit){ "ha", 0, UCM_PCI, 14, 1, X_BOX_CTL, 4,
				{ X_CTL(0), X_CTL(1), X_CTL(2), X_CTL(3) },
				{ X_CTR(0), X_CTR(1), X_CTR(2), X_CTR(3) },
				{ 48, 48, 48, 48 }, 0, "Table 2-34" };
	for (unsigned c = 0; c < 4; c++, n++)
		u[n] = (struct unit){ "imc", c, UCM_PCI, 16, mc_fn[c], X_BOX_CTL, 5,
				      { X_CTL(0), X_CTL(1), X_CTL(2), X_CTL(3), MC_FIXED_CTL },
				      { X_CTR(0), X_CTR(1), X_CTR(2), X_CTR(3), MC_FIXED_CTR },
				      { 48, 48, 48, 48, 48 }, 0, "Table 2-60" };
	for (unsigned q = 0; q < 2; q++, n++)
		u[n] = (struct unit){ "qpi", q, UCM_PCI, 8 + q, 2, X_BOX_CTL, 4,
				      { X_CTL(0), X_CTL(1), X_CTL(2), X_CTL(3) },
				      { X_CTR(0), X_CTR(1), X_CTR(2), X_CTR(3) },
				      { 48, 48, 48, 48 }, 1, "Table 2-85" };
	u[n++] = (struct unit){ "r2pcie", 0, UCM_PCI, 19, 1, X_BOX_CTL, 4,
				{ X_CTL(0), X_CTL(1), X_CTL(2), X_CTL(3) },
				{ X_CTR(0), X_CTR(1), X_CTR(2), X_CTR(3) },
				{ 44, 44, 44, 44 }, 1, "Table 2-105" };
	for (unsigned l = 0; l < 2; l++, n++)
		u[n] = (struct unit){ "r3qpi", l, UCM_PCI, 19, 5 + l, X_BOX_CTL, 3,
				      { X_CTL(0), X_CTL(1), X_CTL(2) }, { X_CTR(0), X_CTR(1), X_CTR(2) },
				      { 44, 44, 44 }, 1, "Table 2-119" };
	return n;
}

#define MAXUNITS 24

/* Unit register access: controls and box controls are 32-bit in PCI space
 * (Tables 2-33, 2-59, 2-84, 2-104, 2-118), counters 64-bit ("32x2"). */
static void uwr(struct ucm_model *m, unsigned s, const struct unit *u, uint32_t a, uint64_t v,
		int is_ctr)
{
	if (u->space == UCM_MSR)
		wrmsr(m, s, a, v);
	else
		wrpci(m, s, u->dev, u->fn, a, is_ctr ? 8 : 4, v);
}

static uint64_t urd(struct ucm_model *m, unsigned s, const struct unit *u, uint32_t a, int is_ctr)
{
	if (u->space == UCM_MSR)
		return rdmsr(m, s, a);
	return rdpci(m, s, u->dev, u->fn, a, is_ctr ? 8 : 4);
}

/* The register description (layout, counter index) of an address. */
static int reginfo_at(struct ucm_model *m, unsigned s, const struct unit *u, uint32_t a,
		      struct ucm_reginfo *ri)
{
	uint64_t key = u->space == UCM_PCI ? ucm_pci_key(bus_of[s], u->dev, u->fn, a) : a;

	for (size_t i = 0; i < ucm_nregs(m); i++)
		if (ucm_reginfo(m, i, ri) == 0 && ri->space == u->space && ri->socket == s &&
		    ri->addr == key)
			return 0;
	return -1;
}

/* Stimulus: a control value (without EN) that counts 1 per cycle on counter
 * ri->idx: CLOCKTICKS where the box type has it, else the first code the
 * model's rules accept there with one sub-event fed 1 per cycle (*sub, -1
 * for a clock).  Controls without EV_SEL (fixed counters) need only EN. */
static int pick_source(struct ucm_model *m, int box, const struct ucm_reginfo *ri, uint64_t *ctl,
		       int *sub)
{
	const struct ucm_boxtype *bt = ucm_box_def(m, box)->type;
	const struct ucm_layout *l = ri->layout;
	const struct ucm_field *fev = ucm_layout_field(l, UCM_R_EVSEL);
	char why[256];

	*ctl = 0;
	*sub = -1;
	if (!fev)
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		unsigned first = 0;

		for (unsigned c = 0; c < bt->ncodes; c++) {
			const struct ucm_evcode *ec = &bt->codes[c];
			unsigned nsub = ec->nsubs ? ec->nsubs : 1, here = first;
			uint64_t v, um = 0;

			first += nsub;
			if ((ec->flags & (UCM_EC_FIXED | UCM_EC_OCC)) || ec->nrules)
				continue;
			if (pass == 0 && strcmp(ec->name, "CLOCKTICKS"))
				continue;
			if ((ec->code & 0x80) && ucm_layout_field(l, UCM_R_OCC_SEL))
				continue;
			for (unsigned g = 0; ec->nsubs && g < ec->ngrp; g++) {
				uint64_t bits = ec->subs[0].match[g] & ec->grp_mask[g];

				um |= bits & (~bits + 1);
			}
			if (ec->nsubs && !ucm_umask_selects(ec, 0, um))
				continue;
			if (um && !ucm_layout_field(l, UCM_R_UMASK))
				continue;
			v = ucm_field_put(fev, 0, ec->code & 0xFF);
			v = ucm_field_put(ucm_layout_field(l, UCM_R_UMASK), v, um);
			if (ec->code & 0x100) {
				if (!ucm_layout_field(l, UCM_R_EXTSEL))
					continue;
				v = ucm_field_put(ucm_layout_field(l, UCM_R_EXTSEL), v, 1);
			}
			if (ucm_ctl_check(bt, l, (int)ri->idx, v | EN, why, sizeof(why)))
				continue;
			*ctl = v;
			*sub = (ec->flags & UCM_EC_CLOCK) ? -1 : (int)here;
			return 0;
		}
	}
	return -1;
}

/* Program counter i of unit u on socket s to count 1 per cycle: 0 on
 * success, -1 when the box has no event for that counter. */
static int count_on(struct ucm_model *m, unsigned s, const struct unit *u, unsigned i)
{
	struct ucm_reginfo ri;
	int box = ucm_box_find(m, s, u->type, u->inst), sub;
	uint64_t ctl;

	if (box < 0 || reginfo_at(m, s, u, u->ctl[i], &ri) || pick_source(m, box, &ri, &ctl, &sub))
		return -1;
	if (sub >= 0 && ucm_set_input(m, box, (unsigned)sub, 1)) {
		ct_fail(__FILE__, __LINE__, "%s%u: input %d: %s", u->type, u->inst, sub, ucm_error(m));
		return -1;
	}
	uwr(m, s, u, u->ctl[i], ctl | EN, 0);
	return 0;
}

static unsigned unit_clock(struct ucm_model *m, unsigned s, const struct unit *u)
{
	return ucm_box_def(m, ucm_box_find(m, s, u->type, u->inst))->type->clock;
}

/* Disable every counter of a unit and clear the model's inputs. */
static void quiesce(struct ucm_model *m, unsigned s, const struct unit *u)
{
	for (unsigned i = 0; i < u->nctr; i++)
		uwr(m, s, u, u->ctl[i], 0, 0);
	ucm_clear_inputs(m);
}

/* ---- tests ---- */

/* Tables 1-2, 1-3 and every field table of 2.2-2.9 (with R1-R16), on both
 * sockets: the model has exactly these registers, at these MSR addresses
 * and on these buses/devices/functions/offsets, with these names, storage
 * widths, RW/RO/WO/reserved masks, reset values and table citations. */
CT_TEST(register_map_matches_the_guide)
{
	struct ucm_model *m = mk(1, 0);
	static struct xreg x[MAXREGS];
	size_t n = snbep_regs(x, NCBO);
	int seen[MAXREGS] = { 0 };

	CT_REQUIRE(m);
	/* per socket: UBox 6, CBo 8 x 10, PCU 10; UBox function 7, HA's
	 * own function 6 (R27), HA 17, iMC 4 x 16, QPI 2 x (14 + 9 + 7),
	 * PCU functions 4 x 5, R2PCIe 14, R3QPI 2 x 12 */
	CT_EQ(n, 2 * (6 + 80 + 10 + 7 + 6 + 17 + 64 + 60 + 20 + 14 + 24));
	CT_EQ(ucm_nregs(m), n);
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		size_t j;

		CT_REQUIRE(ucm_reginfo(m, i, &ri) == 0);
		for (j = 0; j < n; j++)
			if (x[j].space == ri.space && x[j].socket == ri.socket && xkey(&x[j]) == ri.addr)
				break;
		if (j == n) {
			ct_fail(__FILE__, __LINE__, "register %s (space %u, socket %u, 0x%llx) is not in the guide",
				ri.name, ri.space, ri.socket, (unsigned long long)ri.addr);
			continue;
		}
		seen[j]++;
		CT_STREQ(ri.name, x[j].name);
		if (ri.width != 8 * x[j].bytes || ri.reset != x[j].reset || ri.rw_mask != x[j].rw ||
		    ri.ro_mask != x[j].ro || ri.wo_mask != x[j].wo || ri.w1c_mask != 0 ||
		    ri.rsvd_mask != rsvd_mask(&x[j]))
			ct_fail(__FILE__, __LINE__,
				"%s (socket %u): width %u reset 0x%llx rw 0x%llx ro 0x%llx wo 0x%llx "
				"w1c 0x%llx rsvd 0x%llx; guide: width %u reset 0x%llx rw 0x%llx "
				"ro 0x%llx wo 0x%llx rsvd 0x%llx",
				x[j].name, x[j].socket, ri.width, (unsigned long long)ri.reset,
				(unsigned long long)ri.rw_mask, (unsigned long long)ri.ro_mask,
				(unsigned long long)ri.wo_mask, (unsigned long long)ri.w1c_mask,
				(unsigned long long)ri.rsvd_mask, 8 * x[j].bytes,
				(unsigned long long)x[j].reset, (unsigned long long)x[j].rw,
				(unsigned long long)x[j].ro, (unsigned long long)x[j].wo,
				(unsigned long long)rsvd_mask(&x[j]));
		if (x[j].ctr_bits) {
			/* the counter's value field is its width (Tables 2-3, 2-5, ...) */
			CT_EQ(ri.kind, UCM_K_CTR);
			CT_EQ(ri.rw_mask, x[j].ctr_bits == 64 ? ~0ull : BIT(x[j].ctr_bits) - 1);
		}
		CT_REQUIRE(ri.layout);
		if (x[j].cite)
			CT_CONTAINS(ri.layout->cite, x[j].cite);
	}
	for (size_t j = 0; j < n; j++)
		if (seen[j] != 1)
			ct_fail(__FILE__, __LINE__, "%s (socket %u) found %d times", x[j].name, x[j].socket,
				seen[j]);
	ucm_destroy(m);
}

/* The same tables read through the hardware interface right after
 * creation: every register reads its reset value (0 but for the PCI IDs,
 * CPUNODEID = socket, GIDNIDMAP identity, QPI_RATE_STATUS 101b: R8, R13),
 * on both sockets; reading changes nothing and records nothing. */
CT_TEST(reset_values_read_through_the_hardware_interface)
{
	struct ucm_model *m = mk(1, 0);
	static struct xreg x[MAXREGS];
	size_t n = snbep_regs(x, NCBO);

	CT_REQUIRE(m);
	for (size_t j = 0; j < n; j++) {
		uint64_t v = ~0ull, p = ~0ull;
		int rc = xread(m, &x[j], &v);

		if (rc || v != x[j].reset)
			ct_fail(__FILE__, __LINE__, "%s (socket %u): rc %d, read 0x%llx, reset 0x%llx",
				x[j].name, x[j].socket, rc, (unsigned long long)v,
				(unsigned long long)x[j].reset);
		rc = ucm_peek(m, x[j].space, x[j].socket, xkey(&x[j]), &p);
		if (rc || p != x[j].reset)
			ct_fail(__FILE__, __LINE__, "%s: peek rc %d, 0x%llx", x[j].name, rc,
				(unsigned long long)p);
	}
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* The value a walk over a register starts from: the reset value, or for a
 * counter control a valid event without EN, so that setting EN alone is a
 * programming the guide allows. */
static uint64_t walk_base(struct ucm_model *m, const struct xreg *x)
{
	struct ucm_reginfo ri;
	uint64_t ctl;
	int sub;

	memset(&ri, 0, sizeof(ri));
	for (size_t i = 0; i < ucm_nregs(m); i++)
		if (ucm_reginfo(m, i, &ri) == 0 && ri.space == x->space && ri.socket == x->socket &&
		    ri.addr == xkey(x))
			break;
	if (ri.addr != xkey(x) || ri.kind != UCM_K_CTL)
		return x->reset;
	for (unsigned b = 0; b < ucm_box_count(m); b++)
		if (ucm_box_def(m, (int)b) == ri.box && ucm_box_socket(m, (int)b) == x->socket) {
			if (pick_source(m, (int)b, &ri, &ctl, &sub) == 0)
				return ctl;
			ct_fail(__FILE__, __LINE__, "%s: no event to program", x->name);
		}
	return 0;
}

/* Flip each bit of a register from base, one write at a time: RW bits are
 * stored, RO bits keep their value, WO bits and reserved bits read 0.  In
 * strict mode each write of a reserved bit, and each write changing an RO
 * bit, is one record citing the register's table; any other write none. */
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
			ct_fail(__FILE__, __LINE__,
				"%s (socket %u) bit %u: wrote 0x%llx, read 0x%llx (rc %d), expected 0x%llx",
				x->name, x->socket, b, (unsigned long long)w, (unsigned long long)v, rc,
				(unsigned long long)want);
		recs = ucm_strict_count(m) - before;
		if (!strict) {
			if (recs)
				ct_fail(__FILE__, __LINE__, "%s bit %u: %zu strict records with strict off",
					x->name, b, recs);
		} else if (BIT(b) & (rsvd_mask(x) | x->ro)) {
			const struct ucm_strict_rec *r = ucm_strict_get(m, before);

			if (recs != 1 || !r) {
				ct_fail(__FILE__, __LINE__, "%s (socket %u) bit %u: %zu strict records, expected 1",
					x->name, x->socket, b, recs);
				continue;
			}
			CT_EQ(r->space, x->space);
			CT_EQ(r->socket, x->socket);
			CT_EQ(r->addr, xkey(x));
			CT_STREQ(r->reg, x->name);
			CT_CONTAINS(r->rule, (BIT(b) & x->ro) ? "read-only" : "reserved");
			if (x->cite)
				CT_CONTAINS(r->rule, x->cite);
		} else if (recs) {
			char buf[512];

			ucm_strict_format(m, before, buf, sizeof(buf));
			ct_fail(__FILE__, __LINE__, "%s bit %u (not reserved): %zu strict records: %s",
				x->name, b, recs, buf);
		}
	}
	CT_EQ(xwrite(m, x, x->reset & x->rw), 0);
}

/* Every field table of 2.2-2.9 (R1-R16): every bit of every register of
 * both sockets, from a clean value, in strict mode: RW bits store (the box
 * controls' frz_en and frz too, R11), WO bits (rst, rst_ctrs, rst_ctrl) read 0, reserved bits read 0 and
 * are recorded with the table that reserves them, RO registers (PCI IDs,
 * CPUNODEID, GIDNIDMAP, QPI_RATE_STATUS) keep their value and the write is
 * recorded. */
CT_TEST(every_bit_written_strict)
{
	struct ucm_model *m = mk(1, 0);
	static struct xreg x[MAXREGS];
	size_t n = snbep_regs(x, NCBO);

	CT_REQUIRE(m);
	for (size_t j = 0; j < n; j++)
		walk(m, &x[j], walk_base(m, &x[j]), 1);
	ucm_destroy(m);
}

/* The same walk with strict mode off, from the clean value and from every
 * RW bit set: the same values read back and nothing is recorded. */
CT_TEST(every_bit_written_not_strict_records_nothing)
{
	struct ucm_model *m = mk(0, 0);
	static struct xreg x[MAXREGS];
	size_t n = snbep_regs(x, NCBO);

	CT_REQUIRE(m);
	for (size_t j = 0; j < n; j++) {
		uint64_t base = walk_base(m, &x[j]);

		walk(m, &x[j], base, 0);
		walk(m, &x[j], base | x[j].rw, 0);
	}
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* Table 1-2 / Table 2-8 with fewer CBos (2.3.1: "up to eight"): the MSRs
 * of absent CBos fault (-EIO, #GP) on read and write, present ones do not;
 * 0 or more than 8 CBos is refused. */
CT_TEST(cbo_count_1_to_8)
{
	for (unsigned n = 1; n <= NCBO; n++) {
		struct ucm_model *m = mk(1, n);
		static struct xreg x[MAXREGS];

		CT_REQUIRE(m);
		CT_EQ(ucm_nregs(m), snbep_regs(x, n));
		for (unsigned s = 0; s < NSOCK; s++)
			for (unsigned c = 0; c < NCBO; c++) {
				uint32_t a[] = { C_BOX_CTL(c), C_CTL(c, 0), C_CTL(c, 3), C_FILTER(c),
						 C_CTR(c, 0), C_CTR(c, 3) };

				for (unsigned k = 0; k < sizeof(a) / sizeof(a[0]); k++) {
					uint64_t v;

					CT_EQ(ucm_msr_read(m, s * CPUS, a[k], &v), c < n ? 0 : -EIO);
					CT_EQ(ucm_msr_write(m, s * CPUS, a[k], 0), c < n ? 0 : -EIO);
				}
			}
		ucm_destroy(m);
	}
	{
		struct ucm_config cfg;
		struct ucm_model *m = NULL;
		int ti = ucm_boxtype_index(snbep(), ucm_boxtype_find(snbep(), "cbo"));

		ucm_config_init(&cfg, snbep());
		cfg.ninst[ti] = 9;
		CT_EQ(ucm_create(&cfg, &m), -EINVAL);
		ucm_destroy(m);
	}
}

/* The uncore is per socket (1.2): the same MSR on a cpu of each socket and
 * the same offset on each socket's bus are different registers. */
CT_TEST(sockets_are_independent)
{
	struct ucm_model *m = mk(1, 0);

	CT_REQUIRE(m);
	CT_EQ(ucm_nsockets(m), 2);
	wrmsr(m, 0, C_CTR(3, 2), 0x111);
	wrmsr(m, 1, C_CTR(3, 2), 0x222);
	CT_EQ(rdmsr(m, 0, C_CTR(3, 2)), 0x111);
	CT_EQ(rdmsr(m, 1, C_CTR(3, 2)), 0x222);
	/* every cpu of a socket sees that socket's registers */
	for (unsigned cpu = 0; cpu < 2 * CPUS; cpu++) {
		uint64_t v = 0;

		CT_EQ(ucm_msr_read(m, cpu, C_CTR(3, 2), &v), 0);
		CT_EQ(v, cpu < CPUS ? 0x111 : 0x222);
	}
	wrpci(m, 0, 14, 1, X_CTR(1), 8, 0x333);
	wrpci(m, 1, 14, 1, X_CTR(1), 8, 0x444);
	CT_EQ(rdpci(m, 0, 14, 1, X_CTR(1), 8), 0x333);
	CT_EQ(rdpci(m, 1, 14, 1, X_CTR(1), 8), 0x444);
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* Box control rst_ctrs (bit 1) and rst_ctrl (bit 0), Tables 2-9, 2-74,
 * 2-85, 2-105, 2-119 and 2.1.1 (e): rst_ctrs clears every counter of the
 * box and nothing else, rst_ctrl every counter control; both read back 0
 * (WO).  Other boxes and the other socket keep their values. */
CT_TEST(box_ctl_resets_counters_and_controls)
{
	struct ucm_model *m = mk(1, 0);
	struct unit u[MAXUNITS];
	size_t nu = units(u);

	CT_REQUIRE(m);
	for (size_t k = 0; k < nu; k++) {
		if (!u[k].rst)
			continue;
		for (unsigned s = 0; s < NSOCK; s++) {
			/* values in this box on both sockets, and in a neighbour */
			for (unsigned t = 0; t < NSOCK; t++)
				for (unsigned i = 0; i < u[k].nctr; i++) {
					uwr(m, t, &u[k], u[k].ctr[i], 1000 + i, 1);
					/* umask and threshold bits, no EN: valid in any box */
					uwr(m, t, &u[k], u[k].ctl[i], BITS(27, 24), 0);
				}
			wrmsr(m, s, U_CTR(0), 77);
			uwr(m, s, &u[k], u[k].box_ctl, RST_CTRS, 0);
			CT_EQ(urd(m, s, &u[k], u[k].box_ctl, 0), 0);
			for (unsigned i = 0; i < u[k].nctr; i++) {
				CT_EQ(urd(m, s, &u[k], u[k].ctr[i], 1), 0);
				CT_EQ(urd(m, s, &u[k], u[k].ctl[i], 0), BITS(27, 24));
				CT_EQ(urd(m, !s, &u[k], u[k].ctr[i], 1), 1000 + i);
			}
			CT_EQ(rdmsr(m, s, U_CTR(0)), 77);
			uwr(m, s, &u[k], u[k].box_ctl, RST_CTRL, 0);
			CT_EQ(urd(m, s, &u[k], u[k].box_ctl, 0), 0);
			for (unsigned i = 0; i < u[k].nctr; i++) {
				CT_EQ(urd(m, s, &u[k], u[k].ctl[i], 0), 0);
				CT_EQ(urd(m, !s, &u[k], u[k].ctl[i], 0), BITS(27, 24));
			}
			/* both at once, as Linux's 0x10003 */
			for (unsigned i = 0; i < u[k].nctr; i++) {
				uwr(m, s, &u[k], u[k].ctr[i], 5, 1);
				uwr(m, s, &u[k], u[k].ctl[i], BITS(27, 24), 0);
			}
			uwr(m, s, &u[k], u[k].box_ctl, FRZ_EN | RST_CTRS | RST_CTRL, 0);
			for (unsigned i = 0; i < u[k].nctr; i++) {
				CT_EQ(urd(m, s, &u[k], u[k].ctr[i], 1), 0);
				CT_EQ(urd(m, s, &u[k], u[k].ctl[i], 0), 0);
			}
			for (unsigned t = 0; t < NSOCK; t++) {
				uwr(m, t, &u[k], u[k].box_ctl, RST_CTRS | RST_CTRL, 0);
				wrmsr(m, t, U_CTR(0), 0);
			}
		}
	}
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* HA Table 2-34, iMC Table 2-60, 2.1.1 (e) note: "neither the iMC nor the
 * HA have a reset bit in their Unit Control register" -- bits 1:0 are
 * reserved.  Linux's init value 0x10003 (public facts) stores frz_en, is
 * recorded once in strict mode citing the table, and resets nothing. */
CT_TEST(ha_imc_box_ctl_has_no_reset_bits)
{
	struct ucm_model *m = mk(1, 0);
	struct unit u[MAXUNITS];
	size_t nu = units(u);
	unsigned checked = 0;

	CT_REQUIRE(m);
	for (size_t k = 0; k < nu; k++) {
		if (u[k].rst || !u[k].box_ctl)
			continue;
		for (unsigned s = 0; s < NSOCK; s++) {
			size_t before = ucm_strict_count(m);
			const struct ucm_strict_rec *r;

			/* values in every counter, thresholds in the general
			 * controls (the iMC fixed control has no such field) */
			for (unsigned i = 0; i < u[k].nctr; i++) {
				uwr(m, s, &u[k], u[k].ctr[i], 4242 + i, 1);
				if (i < 4)
					uwr(m, s, &u[k], u[k].ctl[i], BITS(27, 24), 0);
			}
			uwr(m, s, &u[k], u[k].box_ctl, 0x10003, 0);
			CT_EQ(ucm_strict_count(m), before + 1);
			r = ucm_strict_get(m, before);
			CT_REQUIRE(r);
			CT_CONTAINS(r->rule, "reserved");
			CT_CONTAINS(r->rule, u[k].box_cite);
			for (unsigned i = 0; i < u[k].nctr; i++) {
				CT_EQ(urd(m, s, &u[k], u[k].ctr[i], 1), 4242 + i);
				CT_EQ(urd(m, s, &u[k], u[k].ctl[i], 0), i < 4 ? BITS(27, 24) : 0);
			}
			checked++;
		}
	}
	CT_EQ(checked, 2 * 5); /* HA and four iMC channels per socket */
	ucm_destroy(m);
}

/* Counter control rst (bit 17, WO) of Tables 2-2, 2-10, 2-75, 2-86, 2-106,
 * 2-120 clears its own counter only and is never stored; the iMC fixed
 * control has it at bit 19 (Table 2-62).  HA and iMC general controls have
 * no rst: bit 17 is reserved (Tables 2-35, 2-61), clears nothing and is
 * recorded. */
CT_TEST(counter_rst_bit)
{
	struct ucm_model *m = mk(1, 0);
	struct unit u[MAXUNITS];
	size_t nu = units(u);

	CT_REQUIRE(m);
	for (size_t k = 0; k < nu; k++)
		for (unsigned s = 0; s < NSOCK; s++)
			for (unsigned i = 0; i < u[k].nctr; i++) {
				int fixed = (!strcmp(u[k].type, "imc") && i == 4) ||
					    (!strcmp(u[k].type, "ubox") && i == 2);
				int has_rst = strcmp(u[k].type, "ha") && strcmp(u[k].type, "imc");
				uint64_t rst = !strcmp(u[k].type, "imc") && i == 4 ? BIT(19) : BIT(17);
				size_t before = ucm_strict_count(m);

				if (fixed && !strcmp(u[k].type, "ubox"))
					continue; /* Table 2-4: no rst */
				for (unsigned j = 0; j < u[k].nctr; j++)
					uwr(m, s, &u[k], u[k].ctr[j], 0x100 + j, 1);
				uwr(m, s, &u[k], u[k].ctl[i], rst, 0);
				CT_EQ(urd(m, s, &u[k], u[k].ctl[i], 0), 0);
				for (unsigned j = 0; j < u[k].nctr; j++)
					CT_EQ(urd(m, s, &u[k], u[k].ctr[j], 1),
					      j == i && (has_rst || fixed) ? 0 : 0x100 + j);
				CT_EQ(ucm_strict_count(m), before + !(has_rst || fixed));
				for (unsigned j = 0; j < u[k].nctr; j++)
					uwr(m, s, &u[k], u[k].ctr[j], 0, 1);
			}
	ucm_destroy(m);
}

/* Box freeze, 2.1.1 (a)(b)(f), 2.1.2 and the box control tables (2-9,
 * 2-34, 2-60, 2-74, 2-85, 2-105, 2-119): with frz_en and frz every counter
 * of the box stops (the iMC fixed counter too), frz = 0 with frz_en
 * resumes them, frz without frz_en does not freeze ("If set to 1 and the
 * .frz_en is 1").  Other boxes are not affected; the UBox has no box
 * control and counts regardless. */
CT_TEST(box_freeze_stops_and_resumes)
{
	struct ucm_model *m = mk(1, 0);
	struct unit u[MAXUNITS];
	size_t nu = units(u);

	CT_REQUIRE(m);
	for (size_t k = 0; k < nu; k++) {
		if (!u[k].box_ctl)
			continue;
		for (unsigned s = 0; s < NSOCK; s++) {
			unsigned clk = unit_clock(m, s, &u[k]);
			int on[5] = { 0 };
			unsigned non = 0;

			uwr(m, s, &u[k], u[k].box_ctl, FRZ_EN | FRZ, 0);
			for (unsigned i = 0; i < u[k].nctr; i++) {
				uwr(m, s, &u[k], u[k].ctr[i], 0, 1);
				on[i] = count_on(m, s, &u[k], i) == 0;
				non += (unsigned)on[i];
			}
			if (!on[0])
				ct_fail(__FILE__, __LINE__, "%s%u: no event for counter 0", u[k].type,
					u[k].inst);
			/* a neighbour that keeps counting: the UBox fixed counter */
			wrmsr(m, s, U_FIXED_CTR, 0);
			wrmsr(m, s, U_FIXED_CTL, EN);
			CT_EQ(ucm_run_cycles(m, clk, 100), 0);
			for (unsigned i = 0; i < u[k].nctr; i++)
				CT_EQ(urd(m, s, &u[k], u[k].ctr[i], 1), 0);
			CT_CHECK(rdmsr(m, s, U_FIXED_CTR) > 0);
			/* frz = 0 resumes */
			uwr(m, s, &u[k], u[k].box_ctl, FRZ_EN, 0);
			CT_EQ(ucm_run_cycles(m, clk, 100), 0);
			for (unsigned i = 0; i < u[k].nctr; i++)
				CT_EQ(urd(m, s, &u[k], u[k].ctr[i], 1), on[i] ? 100 : 0);
			/* frz without frz_en: no freeze */
			uwr(m, s, &u[k], u[k].box_ctl, FRZ, 0);
			CT_EQ(ucm_run_cycles(m, clk, 100), 0);
			for (unsigned i = 0; i < u[k].nctr; i++)
				CT_EQ(urd(m, s, &u[k], u[k].ctr[i], 1), on[i] ? 200 : 0);
			/* frozen again: the values hold */
			uwr(m, s, &u[k], u[k].box_ctl, FRZ_EN | FRZ, 0);
			CT_EQ(ucm_run_cycles(m, clk, 100), 0);
			for (unsigned i = 0; i < u[k].nctr; i++)
				CT_EQ(urd(m, s, &u[k], u[k].ctr[i], 1), on[i] ? 200 : 0);
			uwr(m, s, &u[k], u[k].box_ctl, FRZ_EN, 0);
			quiesce(m, s, &u[k]);
			wrmsr(m, s, U_FIXED_CTL, 0);
			CT_CHECK(non >= 1);
		}
	}
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* Counter widths (Table 1-1; Tables 2-3, 2-5 with R1, 2-11, 2-36, 2-63,
 * 2-76, 2-87, 2-107, 2-121): every counter, counting 1 per cycle from
 * 2^width - 3, reads 2 after 5 cycles and has wrapped once. */
CT_TEST(counters_wrap_at_their_width)
{
	struct ucm_model *m = mk(1, 0);
	struct unit u[MAXUNITS];
	size_t nu = units(u);
	unsigned done = 0;

	CT_REQUIRE(m);
	for (size_t k = 0; k < nu; k++)
		for (unsigned s = 0; s < NSOCK; s++)
			for (unsigned i = 0; i < u[k].nctr; i++) {
				int box = ucm_box_find(m, s, u[k].type, u[k].inst);
				uint64_t top = BIT(u[k].bits[i]) - 1;
				struct ucm_truth t;

				ucm_truth_mark(m);
				uwr(m, s, &u[k], u[k].ctr[i], top - 2, 1);
				CT_EQ(urd(m, s, &u[k], u[k].ctr[i], 1), top - 2);
				if (count_on(m, s, &u[k], i)) {
					/* the event tables allow nothing on this counter */
					uwr(m, s, &u[k], u[k].ctr[i], 0, 1);
					continue;
				}
				CT_EQ(ucm_run_cycles(m, unit_clock(m, s, &u[k]), 5), 0);
				CT_EQ(urd(m, s, &u[k], u[k].ctr[i], 1), 2);
				CT_EQ(ucm_truth(m, box, i, &t), 0);
				CT_EQ(t.wraps, 1);
				quiesce(m, s, &u[k]);
				uwr(m, s, &u[k], u[k].ctr[i], 0, 1);
				done++;
			}
	/* at least counter 0 of every unit on both sockets */
	CT_CHECK(done >= 2 * nu);
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* Tables 2-33, 2-59, 2-84, 2-104, 2-118 ("32x2") and architecture.md: a
 * PCI counter is one 64-bit register over two configuration dwords, the
 * low half at +0 and the high half at +4; dword, word and 8-byte accesses
 * see the same bits; a 48-bit (44-bit) value is kept whole, bits above the
 * width read 0. */
CT_TEST(pci_counters_as_two_dwords_and_one_qword)
{
	struct ucm_model *m = mk(1, 0);
	struct unit u[MAXUNITS];
	size_t nu = units(u);

	CT_REQUIRE(m);
	for (size_t k = 0; k < nu; k++) {
		if (u[k].space != UCM_PCI)
			continue;
		for (unsigned s = 0; s < NSOCK; s++)
			for (unsigned i = 0; i < u[k].nctr; i++) {
				unsigned d = u[k].dev, f = u[k].fn, o = u[k].ctr[i];
				uint64_t vmask = BIT(u[k].bits[i]) - 1;
				uint64_t v = 0xFEDCBA9876543210ull & vmask;

				wrpci(m, s, d, f, o, 8, v);
				CT_EQ(rdpci(m, s, d, f, o, 8), v);
				CT_EQ(rdpci(m, s, d, f, o, 4), v & 0xFFFFFFFFu);
				CT_EQ(rdpci(m, s, d, f, o + 4, 4), v >> 32);
				CT_EQ(rdpci(m, s, d, f, o + 4, 2), (v >> 32) & 0xFFFF);
				CT_EQ(rdpci(m, s, d, f, o + 2, 4), (v >> 16) & 0xFFFFFFFFu);
				/* two dword writes, high then low (0x234: within 44 bits) */
				wrpci(m, s, d, f, o + 4, 4, 0x00000234);
				CT_EQ(rdpci(m, s, d, f, o, 8), 0x00000234ull << 32 | (v & 0xFFFFFFFFu));
				wrpci(m, s, d, f, o, 4, 0x89ABCDEF);
				CT_EQ(rdpci(m, s, d, f, o, 8), 0x00000234ull << 32 | 0x89ABCDEFull);
				/* the unimplemented high bits of the second dword */
				wrpci(m, s, d, f, o + 4, 4, 0xFFFFFFFF);
				CT_EQ(rdpci(m, s, d, f, o + 4, 4), (vmask >> 32));
				wrpci(m, s, d, f, o, 8, 0);
			}
	}
	/* each 0xFFFFFFFF high-dword write set reserved bits 63:48 (63:44) */
	CT_EQ(ucm_strict_count(m), 2 * (4 + 4 * 5 + 2 * 4 + 4 + 2 * 3));
	ucm_destroy(m);
}

/* A reader of two dwords sees the carry between them (public facts: Linux
 * reads low then high, not frozen): with a PCI access costing 2 us (5400
 * uclk cycles at 2.7 GHz), a 48-bit HA counter passing 2^32 between the
 * two reads gives a value 2^32 too large; the 8-byte read afterwards, and
 * two dword reads while the box is frozen (2.1.2), do not. */
CT_TEST(pci_counter_two_dword_read_can_tear)
{
	struct ucm_config cfg;
	struct ucm_model *m = NULL;
	struct unit u[MAXUNITS];
	size_t nu = units(u), k;
	uint64_t lo, hi, q, start = BIT(32) - 8000;

	CT_REQUIRE(snbep());
	ucm_config_init(&cfg, snbep());
	cfg.sockets = NSOCK;
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_MMIO] = 0;
	cfg.access_ps[UCM_PCI] = 2000000;
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	for (k = 0; k < nu; k++)
		if (!strcmp(u[k].type, "ha"))
			break;
	CT_REQUIRE(k < nu);
	uwr(m, 1, &u[k], u[k].box_ctl, FRZ_EN | FRZ, 0);
	CT_REQUIRE(count_on(m, 1, &u[k], 0) == 0);
	uwr(m, 1, &u[k], u[k].ctr[0], start, 1);
	uwr(m, 1, &u[k], u[k].box_ctl, FRZ_EN, 0);
	lo = rdpci(m, 1, 14, 1, X_CTR(0), 4);     /* 2^32 - 2600 */
	hi = rdpci(m, 1, 14, 1, X_CTR(0) + 4, 4); /* 1: the carry came in between */
	q = rdpci(m, 1, 14, 1, X_CTR(0), 8);      /* 2^32 + 8200 */
	CT_CHECK(lo > BIT(32) - 8000 && lo < BIT(32));
	CT_EQ(hi, 1);
	CT_CHECK(q > BIT(32) && q < BIT(32) + 20000);
	CT_CHECK((hi << 32 | lo) > q + BIT(31));
	/* frozen, the two halves agree with the 8-byte read */
	uwr(m, 1, &u[k], u[k].box_ctl, FRZ_EN | FRZ, 0);
	lo = rdpci(m, 1, 14, 1, X_CTR(0), 4);
	hi = rdpci(m, 1, 14, 1, X_CTR(0) + 4, 4);
	CT_EQ(hi << 32 | lo, rdpci(m, 1, 14, 1, X_CTR(0), 8));
	CT_CHECK((hi << 32 | lo) > BIT(32));
	ucm_destroy(m);
}

/* Table 1-3 and public facts: every PCI function of the uncore on each
 * socket's bus (0x3F, 0x7F) answers with Intel's vendor ID and its device
 * ID, at 0x00/0x02 as 16-bit reads and as one 32-bit read; the model has
 * no other function. */
CT_TEST(pci_device_and_vendor_ids)
{
	/* IDs (public facts, pci.ids) and the class each shows in lspci of
	 * E5-2600 systems: "Performance counters [1101]" on the HA's, R2PCIe's
	 * and R3QPI's PMON functions, "System peripheral [0880]" on the
	 * iMC's (its "Thermal Control" functions), the HA's own and the
	 * others (docs/tools.md "PCI functions") */
	static const struct {
		unsigned dev, fn;
		uint16_t did;
		uint32_t cls;
	} fns[] = {
		{ 11, 0, 0x3CE0, CLS_OTHER }, /* UBox (R13) */
		{ 14, 0, 0x3CA0, CLS_OTHER }, /* HA's own function (R27) */
		{ 14, 1, 0x3C46, CLS_PMON },  /* HA */
		{ 16, 0, 0x3CB0, CLS_OTHER }, { 16, 1, 0x3CB1, CLS_OTHER }, /* iMC */
		{ 16, 4, 0x3CB4, CLS_OTHER }, { 16, 5, 0x3CB5, CLS_OTHER },
		{ 8, 2, 0x3C41, CLS_PMON }, { 9, 2, 0x3C42, CLS_PMON },   /* QPI PMON */
		{ 8, 6, 0x3C86, CLS_OTHER }, { 9, 6, 0x3C96, CLS_OTHER }, /* QPI mask/match */
		{ 8, 0, 0x3C80, CLS_OTHER }, { 9, 0, 0x3C90, CLS_OTHER }, /* QPI misc (R7) */
		{ 10, 0, 0x3CC0, CLS_OTHER }, { 10, 1, 0x3CC1, CLS_OTHER }, /* PCU 0-3 */
		{ 10, 2, 0x3CC2, CLS_OTHER }, { 10, 3, 0x3CD0, CLS_OTHER },
		{ 19, 1, 0x3C43, CLS_PMON },  /* R2PCIe */
		{ 19, 5, 0x3C44, CLS_PMON }, { 19, 6, 0x3C45, CLS_PMON }, /* R3QPI */
	};
	struct ucm_model *m = mk(1, 0);
	const size_t nf = sizeof(fns) / sizeof(fns[0]);

	CT_REQUIRE(m);
	for (unsigned s = 0; s < NSOCK; s++)
		for (size_t i = 0; i < nf; i++) {
			CT_EQ(rdpci(m, s, fns[i].dev, fns[i].fn, 0x00, 2), 0x8086);
			CT_EQ(rdpci(m, s, fns[i].dev, fns[i].fn, 0x02, 2), fns[i].did);
			CT_EQ(rdpci(m, s, fns[i].dev, fns[i].fn, 0x00, 4),
			      (uint64_t)fns[i].did << 16 | 0x8086);
			/* revision 07 (C2), class; header type 0x80; subsystem */
			CT_EQ(rdpci(m, s, fns[i].dev, fns[i].fn, 0x08, 1), 0x07);
			CT_EQ(rdpci(m, s, fns[i].dev, fns[i].fn, 0x09, 1), fns[i].cls & 0xFF);
			CT_EQ(rdpci(m, s, fns[i].dev, fns[i].fn, 0x0A, 2), fns[i].cls >> 8);
			CT_EQ(rdpci(m, s, fns[i].dev, fns[i].fn, 0x0E, 1), 0x80);
			CT_EQ(rdpci(m, s, fns[i].dev, fns[i].fn, 0x2C, 2), 0x8086);
			CT_EQ(rdpci(m, s, fns[i].dev, fns[i].fn, 0x2E, 2), 0x0000);
		}
	/* no function but these */
	for (size_t r = 0; r < ucm_nregs(m); r++) {
		struct ucm_reginfo ri;
		size_t i;

		CT_REQUIRE(ucm_reginfo(m, r, &ri) == 0);
		if (ri.space != UCM_PCI)
			continue;
		CT_EQ(ri.addr >> 20, bus_of[ri.socket]);
		for (i = 0; i < nf; i++)
			if (((ri.addr >> 15) & 31) == fns[i].dev && ((ri.addr >> 12) & 7) == fns[i].fn)
				break;
		if (i == nf)
			ct_fail(__FILE__, __LINE__, "%s is on an unexpected function", ri.name);
	}
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* R27: the registers PCM's JKT workaround sets (D14:F0 0x84, D8:F0 and
 * D9:F0 0x80, bit 1) read back what was written there; their other bits
 * read 0, and the writes are not undefined programming. */
CT_TEST(pcm_jkt_workaround_bits_read_back)
{
	static const struct {
		unsigned dev, fn, off;
	} regs[] = { { 14, 0, 0x84 }, { 8, 0, 0x80 }, { 9, 0, 0x80 } };
	struct ucm_model *m = mk(1, 0);

	CT_REQUIRE(m);
	for (unsigned s = 0; s < NSOCK; s++)
		for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++) {
			CT_EQ(rdpci(m, s, regs[i].dev, regs[i].fn, regs[i].off, 4), 0);
			wrpci(m, s, regs[i].dev, regs[i].fn, regs[i].off, 4, 0x2);
			CT_EQ(rdpci(m, s, regs[i].dev, regs[i].fn, regs[i].off, 4), 0x2);
			wrpci(m, s, regs[i].dev, regs[i].fn, regs[i].off, 4, 0);
			CT_EQ(rdpci(m, s, regs[i].dev, regs[i].fn, regs[i].off, 4), 0);
		}
	CT_EQ(ucm_strict_count(m), 0);
	ucm_destroy(m);
}

/* A configuration access to a function that does not exist is a master
 * abort: all ones and -ENODEV (ucm.h), for reads of any width and for
 * writes: bus 0x3F device 31, a missing function of a present device
 * (the HA is D14:F0 and F1, not F2), a bus of no socket, and socket 1's
 * bus on a 1-socket model. */
CT_TEST(absent_pci_device_reads_all_ones)
{
	static const struct {
		unsigned bus, dev, fn;
	} absent[] = { { 0x3F, 31, 0 }, { 0x3F, 14, 2 }, { 0x7F, 16, 2 }, { 0x00, 14, 1 },
		       { 0xFF, 11, 0 }, { 0x3E, 8, 2 } };
	struct ucm_model *m = mk(1, 0);
	struct ucm_config cfg;
	uint64_t v;

	CT_REQUIRE(m);
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
		static const unsigned w[] = { 1, 2, 4, 8 };

		for (size_t j = 0; j < 4; j++) {
			v = 0;
			CT_EQ(ucm_pci_read(m, 0, absent[i].bus, absent[i].dev, absent[i].fn, 0, w[j], &v),
			      -ENODEV);
			CT_EQ(v, w[j] == 8 ? ~0ull : BIT(8 * w[j]) - 1);
		}
		CT_EQ(ucm_pci_write(m, 0, absent[i].bus, absent[i].dev, absent[i].fn, 0xF4, 4, 0),
		      -ENODEV);
	}
	ucm_destroy(m);
	/* one socket: only bus 0x3F */
	ucm_config_init(&cfg, snbep());
	cfg.sockets = 1;
	m = NULL;
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	CT_EQ(ucm_pci_read(m, 0, 0x3F, 14, 1, 0, 2, &v), 0);
	CT_EQ(v, 0x8086);
	CT_EQ(ucm_pci_read(m, 0, 0x7F, 14, 1, 0, 2, &v), -ENODEV);
	CT_EQ(v, 0xFFFF);
	CT_EQ(ucm_msr_read(m, CPUS, C_CTR(0, 0), &v), -ENXIO); /* no cpu 8 */
	ucm_destroy(m);
}

/* Public facts (Linux uncore_snbep.c): on each uncore bus the UBox
 * function's CPUNODEID (0x40, bits 2:0) holds the node ID and GIDNIDMAP
 * (0x54) maps node IDs to sockets (3-bit field i = node of socket i); the
 * model's map is the identity, so bus 0x3F is socket 0 and bus 0x7F socket
 * 1, found as a driver would (R13). */
CT_TEST(cpunodeid_names_the_socket_of_each_bus)
{
	struct ucm_model *m = mk(1, 0);

	CT_REQUIRE(m);
	for (unsigned s = 0; s < NSOCK; s++) {
		uint64_t node = rdpci(m, s, UBOX_DEV, UBOX_FN, CPUNODEID, 4) & 7;
		uint64_t map = rdpci(m, s, UBOX_DEV, UBOX_FN, GIDNIDMAP, 4);
		unsigned sock = 8;

		CT_EQ(node, s);
		CT_EQ(map, NODEMAP_IDENTITY);
		for (unsigned i = 0; i < 8; i++)
			if (((map >> (3 * i)) & 7) == node) {
				sock = i;
				break;
			}
		CT_EQ(sock, s);
		/* read-only: a write changes nothing (and is recorded) */
		wrpci(m, s, UBOX_DEV, UBOX_FN, CPUNODEID, 4, 5);
		CT_EQ(rdpci(m, s, UBOX_DEV, UBOX_FN, CPUNODEID, 4), s);
	}
	CT_EQ(ucm_strict_count(m), 2); /* one read-only record per socket */
	ucm_destroy(m);
}

/* R29: 0x3FC/0x3FD (PCU_MSR_CORE_C3/C6_CTR, Tables 2-78/2-79, outside
 * PMON) are each core's MSR_CORE_C3/C6_RESIDENCY (SDM Vol. 4 Table 2-20),
 * which the machine's table serves: no register of the model's, so a read
 * through the model alone is a #GP (tools.cstate_core_* checks the
 * machine's). */
CT_TEST(core_cstate_residency_is_no_pmon_register)
{
	struct ucm_model *m = mk(1, 0);
	uint64_t v = 0;

	CT_REQUIRE(m);
	for (unsigned cpu = 0; cpu < NSOCK * CPUS; cpu += CPUS - 1) {
		CT_EQ(ucm_msr_read(m, cpu, P_C3, &v), -EIO);
		CT_EQ(ucm_msr_read(m, cpu, P_C6, &v), -EIO);
		CT_EQ(ucm_msr_write(m, cpu, P_C6, 1), -EIO);
	}
	ucm_destroy(m);
}

/* The platform as the guide and public facts describe it: family 6 model
 * 0x2D, UBox device 0x3CE0, 2 sockets on buses 0x3F/0x7F, 8 cores; the
 * clock of each box (UBox/CBo/HA/R2PCIe/R3QPI uclk, iMC dclk 2.5.4.2, PCU
 * pclk at a fixed 800 MHz 2.6.7, QPI its link-layer clock) and the box
 * counts of Table 1-1 (8 CBos, 1 HA, 4 iMC channels, 1 PCU, 2 QPI ports, 1
 * R2PCIe, 2 R3QPI links, 1 UBox); 2 sockets by default. */
CT_TEST(platform_description)
{
	const struct ucm_platform *p = snbep();
	static const struct {
		const char *type;
		const char *clock;
		unsigned n, nctr;
	} bx[] = { { "ubox", "uclk", 1, 3 }, { "cbo", "uclk", 8, 4 },  { "ha", "uclk", 1, 4 },
		   { "imc", "dclk", 4, 5 },  { "pcu", "pclk", 1, 4 },  { "qpi", "qclk", 2, 4 },
		   { "r2pcie", "uclk", 1, 4 }, { "r3qpi", "uclk", 2, 3 } };
	struct ucm_config cfg;
	struct ucm_model *m = NULL;

	CT_REQUIRE(p);
	CT_STREQ(p->name, "snbep");
	CT_EQ(p->cpu_family, 6);
	CT_REQUIRE(p->ncpu_models >= 1);
	CT_EQ(p->cpu_models[0], 0x2D);
	CT_EQ(p->pci_vendor, 0x8086);
	CT_REQUIRE(p->ndevids >= 1);
	CT_EQ(p->devids[0], 0x3CE0);
	CT_EQ(p->max_sockets, 2);
	CT_EQ(p->ncores, 8);
	CT_EQ(p->pci_bus[0], 0x3F);
	CT_EQ(p->pci_bus[1], 0x7F);
	ucm_config_init(&cfg, p);
	CT_REQUIRE(ucm_create(&cfg, &m) == 0);
	CT_EQ(ucm_nsockets(m), 2);
	for (size_t i = 0; i < sizeof(bx) / sizeof(bx[0]); i++) {
		const struct ucm_boxtype *bt = ucm_boxtype_find(p, bx[i].type);

		CT_REQUIRE(bt);
		CT_STREQ(p->clocks[bt->clock].name, bx[i].clock);
		CT_EQ(ucm_ninst(m, bt), bx[i].n);
		CT_EQ(bt->nctr, bx[i].nctr);
		for (unsigned s = 0; s < 2; s++)
			for (unsigned j = 0; j < bx[i].n; j++)
				CT_CHECK(ucm_box_find(m, s, bx[i].type, j) >= 0);
	}
	/* 2.6.7 CLOCKTICKS: "a fixed 800 MHz clock"; 2.5.4.2: dclk ~800 MHz */
	CT_EQ(ucm_clock_hz(m, ucm_boxtype_find(p, "pcu")->clock), 800000000u);
	CT_EQ(ucm_clock_hz(m, ucm_boxtype_find(p, "imc")->clock), 800000000u);
	/* R8: 8.0 GT/s / 8 */
	CT_EQ(ucm_clock_hz(m, ucm_boxtype_find(p, "qpi")->clock), 1000000000u);
	ucm_destroy(m);
}

/* Table 2-75 with R4 and Table 2-86 with R6: the extra select bit is bit
 * 21 of the PCU and QPI controls; setting it selects code 0x100 | ev_sel
 * (the event tables' "Extra Select Bit" column), while bit 20 (PCU, QPI)
 * and bit 16 (QPI: the "b16" of 2.7.4.1) stay reserved. */
CT_TEST(extra_select_bit_is_21)
{
	struct ucm_model *m = mk(1, 0);
	const struct ucm_platform *p = snbep();
	static const char *const types[] = { "pcu", "qpi" };

	CT_REQUIRE(m);
	for (size_t t = 0; t < 2; t++) {
		const struct ucm_boxtype *bt = ucm_boxtype_find(p, types[t]);
		const struct ucm_regdef *d = bt ? ucm_regdef_find(bt, UCM_K_CTL, 0) : NULL;
		const struct ucm_field *f;
		const struct ucm_evcode *ec;
		unsigned code = 0;

		CT_REQUIRE(d);
		f = ucm_layout_field(d->layout, UCM_R_EXTSEL);
		CT_REQUIRE(f);
		CT_EQ(f->lo, 21);
		CT_EQ(f->hi, 21);
		ucm_ctl_code(bt, d->layout, BIT(21) | 0x03, &code, &ec);
		CT_EQ(code, 0x103);
	}
	wrmsr(m, 0, P_CTL(0), BIT(21));
	CT_EQ(rdmsr(m, 0, P_CTL(0)), BIT(21));
	CT_EQ(ucm_strict_count(m), 0);
	wrmsr(m, 0, P_CTL(0), BIT(20));
	CT_EQ(rdmsr(m, 0, P_CTL(0)), 0);
	CT_EQ(ucm_strict_count(m), 1);
	wrpci(m, 1, 9, 2, X_CTL(3), 4, BIT(21));
	CT_EQ(rdpci(m, 1, 9, 2, X_CTL(3), 4), BIT(21));
	CT_EQ(ucm_strict_count(m), 1);
	wrpci(m, 1, 9, 2, X_CTL(3), 4, BIT(16));
	CT_EQ(rdpci(m, 1, 9, 2, X_CTL(3), 4), 0);
	CT_EQ(ucm_strict_count(m), 2);
	ucm_destroy(m);
}

CT_MAIN()
