/*
 * ucm_plat_snbep.c - the Intel Xeon E5-2600 (Sandy Bridge-EP, "Jaketown")
 * uncore registers as data: the MSR boxes of Table 1-2 (UBox 2.2, CBo 2.3,
 * PCU 2.6), the PCI boxes of Table 1-3 (HA 2.4, iMC 2.5, QPI 2.7, R2PCIe
 * 2.8, R3QPI 2.9) with the field tables of each section, and the UBox
 * configuration function the driver maps buses to sockets with (public
 * facts).  "The guide" is the Intel Xeon Processor E5-2600 Product Family
 * Uncore Performance Monitoring Guide.  Event codes and named events are
 * generated into ucm_plat_snbep_ev.c.  Decisions where the guide is unclear
 * are recorded in docs/platform-snbep.md (R1..R16 below point there).
 *
 * Access types: RW and RW-V are UCM_A_RW, RO-V is UCM_A_RO, WO is UCM_A_WO;
 * RV rows are reserved and so are not fields.  Every MSR is 64 bits wide:
 * where Tables 2-1/2-8/2-73 give a size of 32, bits 63:32 are reserved
 * (R2).  PCI counters are 64-bit registers (two configuration dwords,
 * "32x2") holding a 44- or 48-bit count.
 */
#include <stddef.h>

#include "ucm_plat_snbep.h"
#include "ucm_plat_snbep_metrics.h"
#include "ucm_xeon.h"
#include "ucm_cores.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- register layouts ---- */

/* Box controls with reset bits: CBo Table 2-9, PCU Table 2-74, QPI Table
 * 2-85, R2PCIe Table 2-105, R3QPI Table 2-119 (identical rows).  Bit 17
 * "SW must write to 0" and the rest are reserved.  frz_en and frz read
 * back what was written, though the tables say WO (R11): PCM's QPI probe
 * and Linux's read-modify-write freeze depend on it. */
static const struct ucm_field f_boxctl_rst[] = {
	{ "frz_en", 16, 16, UCM_A_RW, UCM_R_FRZ_EN, 0 },
	{ "frz", 8, 8, UCM_A_RW, UCM_R_FRZ, 0 },
	{ "rst_ctrs", 1, 1, UCM_A_WO, UCM_R_RST_CTRS, 0 },
	{ "rst_ctrl", 0, 0, UCM_A_WO, UCM_R_RST_CTRL, 0 },
};
/* Box controls without reset bits: HA Table 2-34, iMC Table 2-60.  Bits
 * 1:0 are "Reserved; SW must write to 0 else behavior is undefined" and
 * 2.1.1 (e) confirms neither box has a reset bit: strict mode records
 * Linux's 0x10003 there (R11). */
static const struct ucm_field f_boxctl_frz[] = {
	{ "frz_en", 16, 16, UCM_A_RW, UCM_R_FRZ_EN, 0 },
	{ "frz", 8, 8, UCM_A_RW, UCM_R_FRZ, 0 },
};

static const struct ucm_layout l_c_boxctl = {
	"Cn_MSR_PMON_BOX_CTL", "SNB-EP Table 2-9", 64, ARRAY_LEN(f_boxctl_rst), f_boxctl_rst
};
static const struct ucm_layout l_p_boxctl = {
	"PCU_MSR_PMON_BOX_CTL", "SNB-EP Table 2-74", 64, ARRAY_LEN(f_boxctl_rst), f_boxctl_rst
};
static const struct ucm_layout l_q_boxctl = {
	"Q_Py_PCI_PMON_BOX_CTL", "SNB-EP Table 2-85", 32, ARRAY_LEN(f_boxctl_rst), f_boxctl_rst
};
static const struct ucm_layout l_r2_boxctl = {
	"R2_PCI_PMON_BOX_CTL", "SNB-EP Table 2-105", 32, ARRAY_LEN(f_boxctl_rst), f_boxctl_rst
};
static const struct ucm_layout l_r3_boxctl = {
	"R3_Ly_PCI_PMON_BOX_CTL", "SNB-EP Table 2-119", 32, ARRAY_LEN(f_boxctl_rst), f_boxctl_rst
};
static const struct ucm_layout l_h_boxctl = {
	"HA_PCI_PMON_BOX_CTL", "SNB-EP Table 2-34", 32, ARRAY_LEN(f_boxctl_frz), f_boxctl_frz
};
static const struct ucm_layout l_m_boxctl = {
	"MC_CHy_PCI_PMON_BOX_CTL", "SNB-EP Table 2-60", 32, ARRAY_LEN(f_boxctl_frz), f_boxctl_frz
};

/* Table 2-2 U_MSR_PMON_CTL{1-0}: a 5-bit threshold; 31:29, 21:19 and 16
 * reserved. */
static const struct ucm_field f_u_ctl[] = {
	{ "thresh", 24, 28, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "invert", 23, 23, UCM_A_RW, UCM_R_INV, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "rst", 17, 17, UCM_A_WO, UCM_R_RST, 0 },
	{ "umask", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_layout l_u_ctl = {
	"U_MSR_PMON_CTL", "SNB-EP Table 2-2", 64, ARRAY_LEN(f_u_ctl), f_u_ctl
};

/* Table 2-4 U_MSR_PMON_FIXED_CTL: en alone. */
static const struct ucm_field f_u_fixed_ctl[] = {
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
};
static const struct ucm_layout l_u_fixed_ctl = {
	"U_MSR_PMON_FIXED_CTL", "SNB-EP Table 2-4", 64, ARRAY_LEN(f_u_fixed_ctl), f_u_fixed_ctl
};

/* Table 2-10 Cn_MSR_PMON_CTL{3-0}: 8-bit threshold, tid_en 19; 21:20 and
 * 16 reserved. */
static const struct ucm_field f_c_ctl[] = {
	{ "thresh", 24, 31, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "invert", 23, 23, UCM_A_RW, UCM_R_INV, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "tid_en", 19, 19, UCM_A_RW, UCM_R_TID_EN, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "rst", 17, 17, UCM_A_WO, UCM_R_RST, 0 },
	{ "umask", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_layout l_c_ctl = {
	"Cn_MSR_PMON_CTL", "SNB-EP Table 2-10", 64, ARRAY_LEN(f_c_ctl), f_c_ctl
};

/* Table 2-12 Cn_MSR_PMON_BOX_FILTER.  The Attr column reads "0" for nid and
 * tid (a garbled cell): they are RW like opc and state, which 2.3.3.3 says
 * software fills in (R3).  9:5 reserved. */
static const struct ucm_field f_c_filter[] = {
	{ "opc", 23, 31, UCM_A_RW, UCM_R_FILT_OPC, 0 },
	{ "state", 18, 22, UCM_A_RW, UCM_R_FILT_STATE, 0 },
	{ "nid", 10, 17, UCM_A_RW, UCM_R_FILT_NID, 0 },
	{ "tid", 0, 4, UCM_A_RW, UCM_R_FILT_TID, 0 },
};
static const struct ucm_layout l_c_filter = {
	"Cn_MSR_PMON_BOX_FILTER", "SNB-EP Table 2-12", 64, ARRAY_LEN(f_c_filter), f_c_filter
};

/* Table 2-75 PCU_MSR_PMON_CTL{3-0}: occupancy controls at 31/30, a 5-bit
 * threshold, occ_sel 15:14 and no umask (13:8 reserved).  The table shows
 * 21:20 reserved, yet Table 2-81 gives twelve events an Extra Select Bit:
 * it is bit 21, as Linux programs it (public facts), and bit 20 stays
 * reserved (R4).  29, 19 and 16 are reserved. */
static const struct ucm_field f_p_ctl[] = {
	{ "occ_edge_det", 31, 31, UCM_A_RW, UCM_R_OCC_EDGE, 0 },
	{ "occ_invert", 30, 30, UCM_A_RW, UCM_R_OCC_INV, 0 },
	{ "thresh", 24, 28, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "invert", 23, 23, UCM_A_RW, UCM_R_INV, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "ev_sel_ext", 21, 21, UCM_A_RW, UCM_R_EXTSEL, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "rst", 17, 17, UCM_A_WO, UCM_R_RST, 0 },
	{ "occ_sel", 14, 15, UCM_A_RW, UCM_R_OCC_SEL, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_layout l_p_ctl = {
	"PCU_MSR_PMON_CTL", "SNB-EP Table 2-75", 64, ARRAY_LEN(f_p_ctl), f_p_ctl
};

/* Table 2-77 PCU_MSR_PMON_BOX_FILTER: four 8-bit frequency/voltage bands
 * (100 MHz units, 2.6.3.2).  The table's "rsv 63:48" leaves 47:32
 * unlisted: all of 63:32 is reserved (R2). */
static const struct ucm_field f_p_filter[] = {
	{ "filt31_24", 24, 31, UCM_A_RW, UCM_R_FILT_BAND, 3 },
	{ "filt23_16", 16, 23, UCM_A_RW, UCM_R_FILT_BAND, 2 },
	{ "filt15_8", 8, 15, UCM_A_RW, UCM_R_FILT_BAND, 1 },
	{ "filt7_0", 0, 7, UCM_A_RW, UCM_R_FILT_BAND, 0 },
};
static const struct ucm_layout l_p_filter = {
	"PCU_MSR_PMON_BOX_FILTER", "SNB-EP Table 2-77", 64, ARRAY_LEN(f_p_filter), f_p_filter
};

/* Counter control of the PCI boxes without tid_en or ev_sel_ext: HA Table
 * 2-35 and iMC Table 2-61 have no rst bit (17:16 reserved); R2PCIe Table
 * 2-106 and R3QPI Table 2-120 have rst 17 (16 reserved).  21:19 reserved
 * in all four. */
static const struct ucm_field f_ctl_pci[] = {
	{ "thresh", 24, 31, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "invert", 23, 23, UCM_A_RW, UCM_R_INV, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "umask", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_field f_ctl_pci_rst[] = {
	{ "thresh", 24, 31, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "invert", 23, 23, UCM_A_RW, UCM_R_INV, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "rst", 17, 17, UCM_A_WO, UCM_R_RST, 0 },
	{ "umask", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_layout l_h_ctl = {
	"HA_PCI_PMON_CTL", "SNB-EP Table 2-35", 32, ARRAY_LEN(f_ctl_pci), f_ctl_pci
};
static const struct ucm_layout l_m_ctl = {
	"MC_CHy_PCI_PMON_CTL", "SNB-EP Table 2-61", 32, ARRAY_LEN(f_ctl_pci), f_ctl_pci
};
static const struct ucm_layout l_r2_ctl = {
	"R2_PCI_PMON_CTL", "SNB-EP Table 2-106", 32, ARRAY_LEN(f_ctl_pci_rst), f_ctl_pci_rst
};
static const struct ucm_layout l_r3_ctl = {
	"R3_Ly_PCI_PMON_CTL", "SNB-EP Table 2-120", 32, ARRAY_LEN(f_ctl_pci_rst), f_ctl_pci_rst
};

/* Table 2-62 MC_CHy_PCI_PMON_FIXED_CTL: en 22 and a write-only rst at 19
 * (not 17); 23 ("SW must write to 0"), 21:20 and the rest reserved. */
static const struct ucm_field f_m_fixed_ctl[] = {
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "rst", 19, 19, UCM_A_WO, UCM_R_RST, 0 },
};
static const struct ucm_layout l_m_fixed_ctl = {
	"MC_CHy_PCI_PMON_FIXED_CTL", "SNB-EP Table 2-62", 32, ARRAY_LEN(f_m_fixed_ctl),
	f_m_fixed_ctl
};

/* Table 2-86 Q_Py_PCI_PMON_CTL{3-0}: ev_sel_ext is bit 21 as the field
 * table says, not the "b16" of the 2.7.4.1 note; 16, 19 and 20 are
 * reserved (R6). */
static const struct ucm_field f_q_ctl[] = {
	{ "thresh", 24, 31, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "invert", 23, 23, UCM_A_RW, UCM_R_INV, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "ev_sel_ext", 21, 21, UCM_A_RW, UCM_R_EXTSEL, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "rst", 17, 17, UCM_A_WO, UCM_R_RST, 0 },
	{ "umask", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_layout l_q_ctl = {
	"Q_Py_PCI_PMON_CTL", "SNB-EP Table 2-86", 32, ARRAY_LEN(f_q_ctl), f_q_ctl
};

/* Counters.  44-bit: UBox Table 2-3, CBo Table 2-11, R2PCIe Table 2-107,
 * R3QPI Table 2-121.  48-bit: HA Table 2-36, iMC Table 2-63 (general and
 * fixed), PCU Table 2-76, QPI Table 2-87, and the UBox fixed counter,
 * Table 2-5, whose field row says 43:0 while its description and 2.2.2 say
 * 48-bit: the description wins, as on the v2 (R1).  64-bit: the PCU C-state
 * residency counters, Tables 2-78/2-79. */
static const struct ucm_field f_ctr44[] = {
	{ "event_count", 0, 43, UCM_A_RW, UCM_R_VALUE, 0 },
};
static const struct ucm_field f_ctr48[] = {
	{ "event_count", 0, 47, UCM_A_RW, UCM_R_VALUE, 0 },
};
static const struct ucm_layout l_u_ctr = {
	"U_MSR_PMON_CTR", "SNB-EP Table 2-3", 64, ARRAY_LEN(f_ctr44), f_ctr44
};
static const struct ucm_layout l_u_fixed_ctr = {
	"U_MSR_PMON_FIXED_CTR", "SNB-EP Table 2-5", 64, ARRAY_LEN(f_ctr48), f_ctr48
};
static const struct ucm_layout l_c_ctr = {
	"Cn_MSR_PMON_CTR", "SNB-EP Table 2-11", 64, ARRAY_LEN(f_ctr44), f_ctr44
};
static const struct ucm_layout l_p_ctr = {
	"PCU_MSR_PMON_CTR", "SNB-EP Table 2-76", 64, ARRAY_LEN(f_ctr48), f_ctr48
};
static const struct ucm_layout l_h_ctr = {
	"HA_PCI_PMON_CTR", "SNB-EP Table 2-36", 64, ARRAY_LEN(f_ctr48), f_ctr48
};
static const struct ucm_layout l_m_ctr = {
	"MC_CHy_PCI_PMON_CTR", "SNB-EP Table 2-63", 64, ARRAY_LEN(f_ctr48), f_ctr48
};
static const struct ucm_layout l_q_ctr = {
	"Q_Py_PCI_PMON_CTR", "SNB-EP Table 2-87", 64, ARRAY_LEN(f_ctr48), f_ctr48
};
static const struct ucm_layout l_r2_ctr = {
	"R2_PCI_PMON_CTR", "SNB-EP Table 2-107", 64, ARRAY_LEN(f_ctr44), f_ctr44
};
static const struct ucm_layout l_r3_ctr = {
	"R3_Ly_PCI_PMON_CTR", "SNB-EP Table 2-121", 64, ARRAY_LEN(f_ctr44), f_ctr44
};

/* The HA match and QPI match/mask registers and QPI_RATE_STATUS
 * (Tables 2-37..2-39, 2-88..2-91, 2-93) are shared with the v2:
 * model/ucm_xeon.c. */

/* The PCU's C-state residency counters 0x3FC/0x3FD (2.6.3.3, Tables
 * 2-78/2-79) are each core's MSR_CORE_C3/C6_RESIDENCY at the TSC's rate,
 * as the SDM and every tool read them: the machine's table serves them
 * (model/ucm_mach.h; docs/platform-snbep.md R29). */

/* Counters without a control's EV_SEL count these codes. */
static const uint8_t fixed_ubox[] = { 0, 0, SNBEP_UBOX_FIXED_CODE };
static const uint8_t fixed_imc[] = { 0, 0, 0, 0, SNBEP_IMC_FIXED_CODE };

/* ---- box types ---- */

/* Table 2-1: no box control (2.1.1); counter 2 is the UCLK fixed counter. */
static const struct ucm_regdef r_ubox[] = {
	{ "U_MSR_PMON_UCLK_FIXED_CTL", 0xC08, UCM_K_CTL, 2, &l_u_fixed_ctl, 0 },
	{ "U_MSR_PMON_UCLK_FIXED_CTR", 0xC09, UCM_K_CTR, 2, &l_u_fixed_ctr, 0 },
	{ "U_MSR_PMON_CTL0", 0xC10, UCM_K_CTL, 0, &l_u_ctl, 0 },
	{ "U_MSR_PMON_CTL1", 0xC11, UCM_K_CTL, 1, &l_u_ctl, 0 },
	{ "U_MSR_PMON_CTR0", 0xC16, UCM_K_CTR, 0, &l_u_ctr, 0 },
	{ "U_MSR_PMON_CTR1", 0xC17, UCM_K_CTR, 1, &l_u_ctr, 0 },
};
/* Table 2-8: CBo n at 0xD00 + 0x20 * n. */
static const struct ucm_regdef r_cbo[] = {
	{ "C%u_MSR_PMON_BOX_CTL", 0x04, UCM_K_BOX_CTL, 0, &l_c_boxctl, 0 },
	{ "C%u_MSR_PMON_CTL0", 0x10, UCM_K_CTL, 0, &l_c_ctl, 0 },
	{ "C%u_MSR_PMON_CTL1", 0x11, UCM_K_CTL, 1, &l_c_ctl, 0 },
	{ "C%u_MSR_PMON_CTL2", 0x12, UCM_K_CTL, 2, &l_c_ctl, 0 },
	{ "C%u_MSR_PMON_CTL3", 0x13, UCM_K_CTL, 3, &l_c_ctl, 0 },
	{ "C%u_MSR_PMON_BOX_FILTER", 0x14, UCM_K_FILTER, 0, &l_c_filter, 0 },
	{ "C%u_MSR_PMON_CTR0", 0x16, UCM_K_CTR, 0, &l_c_ctr, 0 },
	{ "C%u_MSR_PMON_CTR1", 0x17, UCM_K_CTR, 1, &l_c_ctr, 0 },
	{ "C%u_MSR_PMON_CTR2", 0x18, UCM_K_CTR, 2, &l_c_ctr, 0 },
	{ "C%u_MSR_PMON_CTR3", 0x19, UCM_K_CTR, 3, &l_c_ctr, 0 },
};
/* Table 2-73; its 0xC36 row is named "PCU_MSR_PMON_CTL0" but described as
 * Counter 0: it is CTR0 (R5). */
static const struct ucm_regdef r_pcu[] = {
	{ "PCU_MSR_PMON_BOX_CTL", 0xC24, UCM_K_BOX_CTL, 0, &l_p_boxctl, 0 },
	{ "PCU_MSR_PMON_CTL0", 0xC30, UCM_K_CTL, 0, &l_p_ctl, 0 },
	{ "PCU_MSR_PMON_CTL1", 0xC31, UCM_K_CTL, 1, &l_p_ctl, 0 },
	{ "PCU_MSR_PMON_CTL2", 0xC32, UCM_K_CTL, 2, &l_p_ctl, 0 },
	{ "PCU_MSR_PMON_CTL3", 0xC33, UCM_K_CTL, 3, &l_p_ctl, 0 },
	{ "PCU_MSR_PMON_BOX_FILTER", 0xC34, UCM_K_FILTER, 0, &l_p_filter, 0 },
	{ "PCU_MSR_PMON_CTR0", 0xC36, UCM_K_CTR, 0, &l_p_ctr, 0 },
	{ "PCU_MSR_PMON_CTR1", 0xC37, UCM_K_CTR, 1, &l_p_ctr, 0 },
	{ "PCU_MSR_PMON_CTR2", 0xC38, UCM_K_CTR, 2, &l_p_ctr, 0 },
	{ "PCU_MSR_PMON_CTR3", 0xC39, UCM_K_CTR, 3, &l_p_ctr, 0 },
};

/* PCI header of every function (public facts), shared with the other Xeon
 * platforms (ucm_xeon.h): PMON_IDS on the functions whose class is
 * "performance counters", PCI_IDS on the others.  Revision 0x07, what
 * lspci shows on E5-2600 (C2 stepping) systems (docs/tools.md "PCI
 * functions"). */
#define PCI_IDS(p) UCM_XEON_PCI_HDR(p, UCM_XEON_CLASS_OTHER, 0x07)
#define PMON_IDS(p) UCM_XEON_PCI_HDR(p, UCM_XEON_CLASS_PMON, 0x07)

/* UBox configuration function, D11:F0 on each uncore bus (R13): node ID
 * and GIDNIDMAP (Linux uncore_snbep.c; ucm_xeon.h).  GIDNIDMAP holds the
 * sockets' node IDs (ucm_config.node_id), by default the identity
 * 0xFAC688, node i is socket i. */
static const struct ucm_regdef r_ubox_pci[] = {
	PCI_IDS("UBOX"),
	UCM_XEON_NODEID_REGS,
};
/* Table 2-33, D14:F1 */
static const struct ucm_regdef r_ha[] = {
	PMON_IDS("HA"),
	{ "HA_PCI_PMON_BOX_ADDRMATCH0", 0x40, UCM_K_FILTER, 0, &ucm_xeon_l_h_addr0, 0 },
	{ "HA_PCI_PMON_BOX_ADDRMATCH1", 0x44, UCM_K_FILTER, 1, &ucm_xeon_l_h_addr1, 0 },
	{ "HA_PCI_PMON_BOX_OPCODEMATCH", 0x48, UCM_K_FILTER, 2, &ucm_xeon_l_h_opc, 0 },
	{ "HA_PCI_PMON_CTR0", 0xA0, UCM_K_CTR, 0, &l_h_ctr, 0 },
	{ "HA_PCI_PMON_CTR1", 0xA8, UCM_K_CTR, 1, &l_h_ctr, 0 },
	{ "HA_PCI_PMON_CTR2", 0xB0, UCM_K_CTR, 2, &l_h_ctr, 0 },
	{ "HA_PCI_PMON_CTR3", 0xB8, UCM_K_CTR, 3, &l_h_ctr, 0 },
	{ "HA_PCI_PMON_CTL0", 0xD8, UCM_K_CTL, 0, &l_h_ctl, 0 },
	{ "HA_PCI_PMON_CTL1", 0xDC, UCM_K_CTL, 1, &l_h_ctl, 0 },
	{ "HA_PCI_PMON_CTL2", 0xE0, UCM_K_CTL, 2, &l_h_ctl, 0 },
	{ "HA_PCI_PMON_CTL3", 0xE4, UCM_K_CTL, 3, &l_h_ctl, 0 },
	{ "HA_PCI_PMON_BOX_CTL", 0xF4, UCM_K_BOX_CTL, 0, &l_h_boxctl, 0 },
};
/* Table 2-59, D16:F0,1,4,5; counter 4 is the DCLK fixed counter. */
static const struct ucm_regdef r_imc[] = {
	PCI_IDS("MC_CH%u"),
	{ "MC_CH%u_PCI_PMON_CTR0", 0xA0, UCM_K_CTR, 0, &l_m_ctr, 0 },
	{ "MC_CH%u_PCI_PMON_CTR1", 0xA8, UCM_K_CTR, 1, &l_m_ctr, 0 },
	{ "MC_CH%u_PCI_PMON_CTR2", 0xB0, UCM_K_CTR, 2, &l_m_ctr, 0 },
	{ "MC_CH%u_PCI_PMON_CTR3", 0xB8, UCM_K_CTR, 3, &l_m_ctr, 0 },
	{ "MC_CH%u_PCI_PMON_FIXED_CTR", 0xD0, UCM_K_CTR, 4, &l_m_ctr, 0 },
	{ "MC_CH%u_PCI_PMON_CTL0", 0xD8, UCM_K_CTL, 0, &l_m_ctl, 0 },
	{ "MC_CH%u_PCI_PMON_CTL1", 0xDC, UCM_K_CTL, 1, &l_m_ctl, 0 },
	{ "MC_CH%u_PCI_PMON_CTL2", 0xE0, UCM_K_CTL, 2, &l_m_ctl, 0 },
	{ "MC_CH%u_PCI_PMON_CTL3", 0xE4, UCM_K_CTL, 3, &l_m_ctl, 0 },
	{ "MC_CH%u_PCI_PMON_FIXED_CTL", 0xF0, UCM_K_CTL, 4, &l_m_fixed_ctl, 0 },
	{ "MC_CH%u_PCI_PMON_BOX_CTL", 0xF4, UCM_K_BOX_CTL, 0, &l_m_boxctl, 0 },
};
/* Table 2-84, D8:F2 (port 0), D9:F2 (port 1); the packet match/mask
 * registers of the port are on F6 of its device, four functions on.  Its
 * 0x228 row describes MATCH0 as "Packet Filter Mask 0": the register name
 * (and Table 1-3) say match (R14).  Filter .idx: 0 MATCH0, 1 MATCH1,
 * 2 MASK0, 3 MASK1 (the named events of Table 2-92 use these). */
static const struct ucm_regdef r_qpi[] = {
	PMON_IDS("Q_P%u"),
	{ "Q_P%u_PCI_PMON_CTR0", 0xA0, UCM_K_CTR, 0, &l_q_ctr, 0 },
	{ "Q_P%u_PCI_PMON_CTR1", 0xA8, UCM_K_CTR, 1, &l_q_ctr, 0 },
	{ "Q_P%u_PCI_PMON_CTR2", 0xB0, UCM_K_CTR, 2, &l_q_ctr, 0 },
	{ "Q_P%u_PCI_PMON_CTR3", 0xB8, UCM_K_CTR, 3, &l_q_ctr, 0 },
	{ "Q_P%u_PCI_PMON_CTL0", 0xD8, UCM_K_CTL, 0, &l_q_ctl, 0 },
	{ "Q_P%u_PCI_PMON_CTL1", 0xDC, UCM_K_CTL, 1, &l_q_ctl, 0 },
	{ "Q_P%u_PCI_PMON_CTL2", 0xE0, UCM_K_CTL, 2, &l_q_ctl, 0 },
	{ "Q_P%u_PCI_PMON_CTL3", 0xE4, UCM_K_CTL, 3, &l_q_ctl, 0 },
	{ "Q_P%u_PCI_PMON_BOX_CTL", 0xF4, UCM_K_BOX_CTL, 0, &l_q_boxctl, 0 },
	{ "Q_P%u_PCI_PMON_PKT_MATCH0", UCM_PCI_FN(4, 0x228), UCM_K_FILTER, 0, &ucm_xeon_l_q_match0, 0 },
	{ "Q_P%u_PCI_PMON_PKT_MATCH1", UCM_PCI_FN(4, 0x22C), UCM_K_FILTER, 1, &ucm_xeon_l_q_match1, 0 },
	{ "Q_P%u_PCI_PMON_PKT_MASK0", UCM_PCI_FN(4, 0x238), UCM_K_FILTER, 2, &ucm_xeon_l_q_mask0, 0 },
	{ "Q_P%u_PCI_PMON_PKT_MASK1", UCM_PCI_FN(4, 0x23C), UCM_K_FILTER, 3, &ucm_xeon_l_q_mask1, 0 },
};
/* Table 2-84, D8:F6, D9:F6: the function's IDs; its match/mask registers
 * belong to the port's box (r_qpi). */
static const struct ucm_regdef r_qpi_mm[] = {
	PCI_IDS("Q_P%u_MM"),
};
/* Table 1-3 "QPI Misc D8,9:F0"; Table 2-84's "D9: F1" for port 1 is taken
 * for a typo (R7).  QPI_RATE_STATUS reads 101b, 8.0 GT/s, slow mode off: a
 * link trained to the rate the QPI clock below assumes, not the table's
 * out-of-reset 011b (R8). */
/* PCM's "JKT workaround" (Intel PCM, ServerUncorePMUs::enableJKTWorkaround;
 * facts only): before counting it sets bit 1 of D14:F0 offset 0x84 and of
 * D8:F0 and D9:F0 offset 0x80 ("enable correct counting of various LLC
 * events"), and clears it at exit.  The guide documents none of these
 * registers (R27): bit 1 reads back what was written and changes no count;
 * the other bits read 0. */
static const struct ucm_field f_jktwa[] = {
	{ "llc_count_fix", 1, 1, UCM_A_RW, UCM_R_NONE, 0 },
};
static const struct ucm_layout l_jktwa = {
	"PCM JKT workaround register", "Intel PCM (R27)", 32, ARRAY_LEN(f_jktwa), f_jktwa
};
static const struct ucm_regdef r_qpi_misc[] = {
	PCI_IDS("Q_P%u_MISC"),
	{ "Q_P%u_JKT_WA", 0x80, UCM_K_PLAIN, 0, &l_jktwa, 0 },
	{ "Q_P%u_QPI_RATE_STATUS", 0xD4, UCM_K_PLAIN, 0, &ucm_xeon_l_q_rate, 0x5 },
};
/* D14:F0, the Home Agent's own function (8086:3CA0): no counters; what PCM
 * reads and writes (above) */
static const struct ucm_regdef r_ha_main[] = {
	PCI_IDS("HA_MAIN"),
	{ "HA_JKT_WA", 0x84, UCM_K_PLAIN, 0, &l_jktwa, 0 },
};
/* D10:F0-F3, the PCU's configuration functions (pci.ids "Power Control
 * Unit 0".."3"; the E5-2600 datasheet vol. 2 places them at device 10):
 * no counters (the PCU's are MSRs); lspci and PCM's bus scan read their
 * headers. */
static const struct ucm_regdef r_pcu_pci[] = {
	PCI_IDS("PCU_F%u"),
};
/* Table 2-104, D19:F1 */
static const struct ucm_regdef r_r2pcie[] = {
	PMON_IDS("R2"),
	{ "R2_PCI_PMON_CTR0", 0xA0, UCM_K_CTR, 0, &l_r2_ctr, 0 },
	{ "R2_PCI_PMON_CTR1", 0xA8, UCM_K_CTR, 1, &l_r2_ctr, 0 },
	{ "R2_PCI_PMON_CTR2", 0xB0, UCM_K_CTR, 2, &l_r2_ctr, 0 },
	{ "R2_PCI_PMON_CTR3", 0xB8, UCM_K_CTR, 3, &l_r2_ctr, 0 },
	{ "R2_PCI_PMON_CTL0", 0xD8, UCM_K_CTL, 0, &l_r2_ctl, 0 },
	{ "R2_PCI_PMON_CTL1", 0xDC, UCM_K_CTL, 1, &l_r2_ctl, 0 },
	{ "R2_PCI_PMON_CTL2", 0xE0, UCM_K_CTL, 2, &l_r2_ctl, 0 },
	{ "R2_PCI_PMON_CTL3", 0xE4, UCM_K_CTL, 3, &l_r2_ctl, 0 },
	{ "R2_PCI_PMON_BOX_CTL", 0xF4, UCM_K_BOX_CTL, 0, &l_r2_boxctl, 0 },
};
/* Table 2-118, D19:F5 (link 0), D19:F6 (link 1) */
static const struct ucm_regdef r_r3qpi[] = {
	PMON_IDS("R3_L%u"),
	{ "R3_L%u_PCI_PMON_CTR0", 0xA0, UCM_K_CTR, 0, &l_r3_ctr, 0 },
	{ "R3_L%u_PCI_PMON_CTR1", 0xA8, UCM_K_CTR, 1, &l_r3_ctr, 0 },
	{ "R3_L%u_PCI_PMON_CTR2", 0xB0, UCM_K_CTR, 2, &l_r3_ctr, 0 },
	{ "R3_L%u_PCI_PMON_CTL0", 0xD8, UCM_K_CTL, 0, &l_r3_ctl, 0 },
	{ "R3_L%u_PCI_PMON_CTL1", 0xDC, UCM_K_CTL, 1, &l_r3_ctl, 0 },
	{ "R3_L%u_PCI_PMON_CTL2", 0xE0, UCM_K_CTL, 2, &l_r3_ctl, 0 },
	{ "R3_L%u_PCI_PMON_BOX_CTL", 0xF4, UCM_K_BOX_CTL, 0, &l_r3_boxctl, 0 },
};

const struct ucm_boxtype snbep_bt_ubox = {
	"ubox", "UBox (system configuration controller)", UCM_MSR, 3, SNBEP_CLK_UCLK, 0, 1, 1, 1,
	ARRAY_LEN(r_ubox), SNBEP_NCODES_UBOX, r_ubox, snbep_codes_ubox, fixed_ubox, "SNB-EP 2.2", 0
};
const struct ucm_boxtype snbep_bt_cbo = {
	"cbo", "C-Box (LLC coherence engine)", UCM_MSR, 4, SNBEP_CLK_UCLK, 0, 1, 8, 8,
	ARRAY_LEN(r_cbo), SNBEP_NCODES_CBO, r_cbo, snbep_codes_cbo, NULL, "SNB-EP 2.3", 0
};
const struct ucm_boxtype snbep_bt_pcu = {
	"pcu", "Power Control Unit", UCM_MSR, 4, SNBEP_CLK_PCLK, 0, 1, 1, 1,
	ARRAY_LEN(r_pcu), SNBEP_NCODES_PCU, r_pcu, snbep_codes_pcu, NULL, "SNB-EP 2.6", 0
};
static const struct ucm_boxtype bt_ubox_pci = {
	"ubox_pci", "UBox configuration function", UCM_PCI, 0, SNBEP_CLK_UCLK, 0, 1, 1, 1,
	ARRAY_LEN(r_ubox_pci), 0, r_ubox_pci, NULL, NULL, "public facts", 0
};
const struct ucm_boxtype snbep_bt_ha = {
	"ha", "Home Agent", UCM_PCI, 4, SNBEP_CLK_UCLK, 0, 1, 1, 1,
	ARRAY_LEN(r_ha), SNBEP_NCODES_HA, r_ha, snbep_codes_ha, NULL, "SNB-EP 2.4", 0
};
const struct ucm_boxtype snbep_bt_imc = {
	"imc", "Memory controller channel", UCM_PCI, 5, SNBEP_CLK_DCLK, 0, 4, 4, 4,
	ARRAY_LEN(r_imc), SNBEP_NCODES_IMC, r_imc, snbep_codes_imc, fixed_imc, "SNB-EP 2.5", 0
};
const struct ucm_boxtype snbep_bt_qpi = {
	"qpi", "QPI link layer port", UCM_PCI, 4, SNBEP_CLK_QCLK, 0, 2, 2, 2,
	ARRAY_LEN(r_qpi), SNBEP_NCODES_QPI, r_qpi, snbep_codes_qpi, NULL, "SNB-EP 2.7", 0
};
static const struct ucm_boxtype bt_qpi_mm = {
	"qpi_mm", "QPI packet mask/match", UCM_PCI, 0, SNBEP_CLK_QCLK, 0, 2, 2, 2,
	ARRAY_LEN(r_qpi_mm), 0, r_qpi_mm, NULL, NULL, "SNB-EP 2.7.3.3", 0
};
static const struct ucm_boxtype bt_qpi_misc = {
	"qpi_misc", "QPI misc (rate status)", UCM_PCI, 0, SNBEP_CLK_QCLK, 0, 2, 2, 2,
	ARRAY_LEN(r_qpi_misc), 0, r_qpi_misc, NULL, NULL, "SNB-EP 2.7.3.4", 0
};
static const struct ucm_boxtype bt_ha_main = {
	"ha_main", "Home Agent (its own function)", UCM_PCI, 0, SNBEP_CLK_UCLK, 0, 1, 1, 1,
	ARRAY_LEN(r_ha_main), 0, r_ha_main, NULL, NULL, "public facts; R27", 0
};
static const struct ucm_boxtype bt_pcu_pci = {
	"pcu_pci", "PCU configuration functions", UCM_PCI, 0, SNBEP_CLK_PCLK, 0, 4, 4, 4,
	ARRAY_LEN(r_pcu_pci), 0, r_pcu_pci, NULL, NULL, "public facts (pci.ids)", 0
};
const struct ucm_boxtype snbep_bt_r2pcie = {
	"r2pcie", "R2PCIe (ring to PCIe)", UCM_PCI, 4, SNBEP_CLK_UCLK, 0, 1, 1, 1,
	ARRAY_LEN(r_r2pcie), SNBEP_NCODES_R2PCIE, r_r2pcie, snbep_codes_r2pcie, NULL, "SNB-EP 2.8", 0
};
const struct ucm_boxtype snbep_bt_r3qpi = {
	"r3qpi", "R3QPI (ring to QPI) link", UCM_PCI, 3, SNBEP_CLK_UCLK, 0, 2, 2, 2,
	ARRAY_LEN(r_r3qpi), SNBEP_NCODES_R3QPI, r_r3qpi, snbep_codes_r3qpi, NULL, "SNB-EP 2.9", 0
};

/* Instances: MSR bases (Table 1-2), PCI device:function (Table 1-3) and
 * device IDs (public facts; the QPI misc IDs 0x3C80/0x3C90 from lspci of
 * E5-2600 systems, R7).  The UBox function reports the configured
 * identifying ID (devid 0: the platform's 0x3CE0 unless cfg.devid says
 * otherwise, R16).  SNB-EP has no global status register: status_bit -1. */
/* the 8 cores' instructions and the package's C-states (model/ucm_cores.h;
 * the cores' C0 is the PCU's POWER_STATE_OCCUPANCY), on the PCU's clock:
 * package C2, C3 and C6 (SDM Vol. 4, Table 2-20: MSR_PKG_C2/C3/C6_RESIDENCY;
 * MSR_PKG_CST_CONFIG_CONTROL's limit goes no deeper than C6) */
static const struct ucm_subev s_pkg_state[] = { { "C2", { 0x01 } }, { "C3", { 0x02 } }, { "C6", { 0x04 } } };
static const struct ucm_evcode c_cores[] = { UCM_CORES_INST_CODE(8), UCM_CORES_PKG_CODE(s_pkg_state) };
static const struct ucm_boxtype bt_cores = UCM_CORES_BOXTYPE(c_cores, SNBEP_CLK_PCLK);

static const struct ucm_boxinst snbep_boxes[] = {
	{ &snbep_bt_ubox, 0, 0, 0, -1, 0, 0, NULL },
	{ &snbep_bt_cbo, 0, 0, 0, -1, 0xD00, 0, NULL },
	{ &snbep_bt_cbo, 1, 0, 0, -1, 0xD20, 0, NULL },
	{ &snbep_bt_cbo, 2, 0, 0, -1, 0xD40, 0, NULL },
	{ &snbep_bt_cbo, 3, 0, 0, -1, 0xD60, 0, NULL },
	{ &snbep_bt_cbo, 4, 0, 0, -1, 0xD80, 0, NULL },
	{ &snbep_bt_cbo, 5, 0, 0, -1, 0xDA0, 0, NULL },
	{ &snbep_bt_cbo, 6, 0, 0, -1, 0xDC0, 0, NULL },
	{ &snbep_bt_cbo, 7, 0, 0, -1, 0xDE0, 0, NULL },
	{ &snbep_bt_pcu, 0, 0, 0, -1, 0, 0, NULL },
	{ &bt_ubox_pci, 0, 11, 0, -1, 0, 0, NULL },
	{ &bt_ha_main, 0, 14, 0, -1, 0, 0x3CA0, NULL },
	{ &snbep_bt_ha, 0, 14, 1, -1, 0, 0x3C46, NULL },
	{ &snbep_bt_imc, 0, 16, 0, -1, 0, 0x3CB0, NULL },
	{ &snbep_bt_imc, 1, 16, 1, -1, 0, 0x3CB1, NULL },
	{ &snbep_bt_imc, 2, 16, 4, -1, 0, 0x3CB4, NULL },
	{ &snbep_bt_imc, 3, 16, 5, -1, 0, 0x3CB5, NULL },
	{ &snbep_bt_qpi, 0, 8, 2, -1, 0, 0x3C41, NULL },
	{ &snbep_bt_qpi, 1, 9, 2, -1, 0, 0x3C42, NULL },
	{ &bt_qpi_mm, 0, 8, 6, -1, 0, 0x3C86, NULL },
	{ &bt_qpi_mm, 1, 9, 6, -1, 0, 0x3C96, NULL },
	{ &bt_qpi_misc, 0, 8, 0, -1, 0, 0x3C80, NULL },
	{ &bt_qpi_misc, 1, 9, 0, -1, 0, 0x3C90, NULL },
	{ &bt_pcu_pci, 0, 10, 0, -1, 0, 0x3CC0, NULL },
	{ &bt_pcu_pci, 1, 10, 1, -1, 0, 0x3CC1, NULL },
	{ &bt_pcu_pci, 2, 10, 2, -1, 0, 0x3CC2, NULL },
	{ &bt_pcu_pci, 3, 10, 3, -1, 0, 0x3CD0, NULL },
	{ &snbep_bt_r2pcie, 0, 19, 1, -1, 0, 0x3C43, NULL },
	{ &snbep_bt_r3qpi, 0, 19, 5, -1, 0, 0x3C44, NULL },
	{ &snbep_bt_r3qpi, 1, 19, 6, -1, 0, 0x3C45, NULL },
	{ &bt_cores, 0, 0, 0, -1, 0, 0, NULL },
};

/* Indexed by SNBEP_CLK_*.  uclk "can change frequency based on system load"
 * (2.5.4.2); the guide gives no value: 2.7 GHz by default and 3.8 GHz as
 * the worst case for safe read intervals (R15); dclk
 * "~800MHz to ~1.066GHz" (2.5.4.2), modelled at 800 MHz; pclk "a fixed
 * 800 MHz clock" (2.6.7 CLOCKTICKS); the QPI link-layer clock is 1/8 of
 * the 8.0 GT/s rate QPI_RATE_STATUS reports (R8). */
static const struct ucm_clockdef snbep_clocks[] = {
	{ "uclk", 2700000000ull, 3800000000ull },
	{ "dclk", 800000000ull, 800000000ull },
	{ "pclk", 800000000ull, 800000000ull },
	{ "qclk", 1000000000ull, 1000000000ull },
};

/* Family 6 model 0x2D (public facts); the UBox device identifies it. */
static const uint8_t snbep_models[] = { 0x2D };
static const uint16_t snbep_devids[] = { 0x3CE0 };
/* uncore bus of each socket (public facts: typical 0x3F, 0x7F) */
static const uint8_t snbep_bus[] = { 0x3F, 0x7F };

/* ---- other tools' names for these boxes ----
 * Linux perf (arch/x86/events/intel/uncore_snbep.c, SandyBridge-EP part;
 * facts only): each PMU with the format attributes the kernel defines for
 * it, "name=configN:bits" as its sysfs format files say, in its order.
 * event=0xff is a box's fixed counter (UNCORE_FIXED_EVENT); the iMC and
 * QPI aliases are the kernel's events/ files.  Linux's occ_edge is
 * config:14-51 (its occ_edge_det is the bit 31 the guide means); the
 * driver maps the term to OCC_EDGE (docs/platform-snbep.md, "Linux perf's
 * names"). */
static const struct ucm_perfcode perf_ubox_codes[] = { { 0xFF, &snbep_bt_ubox, 0x0FF } };
static const struct ucm_perfcode perf_imc_codes[] = { { 0xFF, &snbep_bt_imc, 0x0FF } };
static const struct ucm_perfalias perf_imc_aliases[] = {
	UCM_XEON_PERF_IMC_ALIASES,
};
static const struct ucm_perfalias perf_qpi_aliases[] = {
	{ "clockticks", "event=0x14" },
	{ "txl_flits_active", "event=0x00,umask=0x06" },
	{ "drs_data", "event=0x102,umask=0x08" },
	{ "ncb_data", "event=0x103,umask=0x04" },
};
static const struct ucm_perfpmu snbep_perfpmus[] = {
	{ "uncore_ubox", &snbep_bt_ubox, 0,
	  UCM_XEON_PERF_FMT_UBOX,
	  ARRAY_LEN(perf_ubox_codes), 0, perf_ubox_codes, NULL, "Linux uncore_snbep.c snbep_uncore_ubox" },
	{ "uncore_cbox", &snbep_bt_cbo, 1,
	  "event=config:0-7;umask=config:8-15;edge=config:18;tid_en=config:19;"
	  "inv=config:23;thresh=config:24-31;filter_tid=config1:0-4;"
	  "filter_nid=config1:10-17;filter_state=config1:18-22;filter_opc=config1:23-31",
	  0, 0, NULL, NULL, "Linux uncore_snbep.c snbep_uncore_cbox" },
	{ "uncore_pcu", &snbep_bt_pcu, 0,
	  "event=config:0-7;occ_sel=config:14-15;edge=config:18;inv=config:23;"
	  "thresh=config:24-28;occ_invert=config:30;occ_edge=config:14-51;"
	  "filter_band0=config1:0-7;filter_band1=config1:8-15;filter_band2=config1:16-23;"
	  "filter_band3=config1:24-31",
	  0, 0, NULL, NULL, "Linux uncore_snbep.c snbep_uncore_pcu" },
	{ "uncore_ha", &snbep_bt_ha, 0,
	  UCM_XEON_PERF_FMT_STD,
	  0, 0, NULL, NULL, "Linux uncore_snbep.c snbep_uncore_ha" },
	{ "uncore_imc", &snbep_bt_imc, 1,
	  UCM_XEON_PERF_FMT_STD,
	  ARRAY_LEN(perf_imc_codes), ARRAY_LEN(perf_imc_aliases), perf_imc_codes, perf_imc_aliases, "Linux uncore_snbep.c snbep_uncore_imc" },
	{ "uncore_qpi", &snbep_bt_qpi, 1,
	  "event=config:0-7,21;umask=config:8-15;edge=config:18;inv=config:23;thresh=config:24-31;"
	  UCM_XEON_PERF_FMT_QPI_MATCH,
	  0, ARRAY_LEN(perf_qpi_aliases), NULL, perf_qpi_aliases, "Linux uncore_snbep.c snbep_uncore_qpi" },
	{ "uncore_r2pcie", &snbep_bt_r2pcie, 0,
	  UCM_XEON_PERF_FMT_STD,
	  0, 0, NULL, NULL, "Linux uncore_snbep.c snbep_uncore_r2pcie" },
	{ "uncore_r3qpi", &snbep_bt_r3qpi, 1,
	  UCM_XEON_PERF_FMT_STD,
	  0, 0, NULL, NULL, "Linux uncore_snbep.c snbep_uncore_r3qpi" },
};
/* Intel's perfmon event file (JKT/events/Jaketown_uncore.json): its Unit
 * names.  Its IRP unit has no box here: the guide defines none. */
static const struct ucm_perfmon_unit snbep_perfmon_units[] = {
	{ "CBO", &snbep_bt_cbo },
	{ "PCU", &snbep_bt_pcu },
	{ "UBOX", &snbep_bt_ubox },
	{ "QPI LL", &snbep_bt_qpi },
	{ "R3QPI", &snbep_bt_r3qpi },
	{ "R2PCIe", &snbep_bt_r2pcie },
	{ "HA", &snbep_bt_ha },
	{ "iMC", &snbep_bt_imc },
};


extern const struct ucm_machine ucm_mach_snbep; /* ucm_plat_snbep_mach.c */

/* What the part can carry (docs/platform-snbep.md, "Physical limits"). */
static const struct ucm_limits snbep_limits = {
	.dram_channels = 4,
	.dram_mts = 1600,
	.dram_type = "DDR3-1600",
	.dram_cite = "Xeon E5-2600 uncore guide 2.5.2: up to four independent DDR3 channels, "
		     "DDR3 frequencies up to 1600 GT/s",
	.dram_box = "imc",
	.dram_in = { "CAS_COUNT." },
	.llc_lookups = 1,
	.llc_cite = "Xeon E5-2600 uncore guide 2.3.5 (CBo events by code): LLC_LOOKUP's maximum "
		    "increment is 1 a cycle on each CBo",
	.core_lfb = 10,
	.llc_hit_ns = 26 / 2.7,
	.core_cite = "Intel 64 and IA-32 Architectures Optimization Reference Manual, Sandy Bridge "
		     "microarchitecture: 10 L1D line fill buffers a core, LLC load latency 26-31 core "
		     "cycles (26 at the 2.7 GHz base: 9.6 ns)",
	.qpi_links = 2,
	.qpi_mts = 8000,
	.qpi_cite = "Xeon E5-2600 uncore guide 2.7 (QPI_RATE up to 8 GT/s on the E5-2600; a flit "
		    "each 4 transfers, 8 data bytes a data flit, RxL_FLITS_G0)",
};

const struct ucm_platform ucm_plat_snbep = {
	.name = "snbep",
	.title = "Intel Xeon E5-2600 (Sandy Bridge-EP)",
	.cpu_family = 6,
	.ncpu_models = ARRAY_LEN(snbep_models),
	.cpu_models = snbep_models,
	.pci_vendor = 0x8086,
	.ndevids = ARRAY_LEN(snbep_devids),
	.devids = snbep_devids,
	.max_sockets = 2,
	.ncores = 8,
	.nclocks = ARRAY_LEN(snbep_clocks),
	.nboxes = ARRAY_LEN(snbep_boxes),
	.pci_bus = snbep_bus,
	.clocks = snbep_clocks,
	.boxes = snbep_boxes,
	.nevents = SNBEP_NEVENTS,
	.events = snbep_events,
	/* 4 to 8 CBos by SKU: the driver probes them (no count register) */
	.counted = &snbep_bt_cbo,
	/* per socket: uncore clock, LLC reads and misses, home-agent requests,
	 * DRAM bandwidth (Table 2-65), cores in C0 and C6 residency, QPI data */
	.default_events = "UNC_U_CLOCKTICKS,UNC_C_LLC_LOOKUP.DATA_READ,UNC_C_TOR_INSERTS.MISS_ALL,"
			  "UNC_H_REQUESTS.READS,UNC_H_REQUESTS.WRITES,cas_rd,cas_wr,"
			  "UNC_M_DCLOCKTICKS,UNC_P_POWER_STATE_OCCUPANCY.CORES_C0,"
			  "UNC_P_POWER_STATE_OCCUPANCY.CORES_C6,UNC_Q_TxL_FLITS_G0.DATA",
	.sockets_default = 2,
	.nmetrics = SNBEP_NMETRICS,
	.metrics = snbep_metrics,
	.doc = "docs/platform-snbep.md",
	.machine = &ucm_mach_snbep,
	.nperfpmus = ARRAY_LEN(snbep_perfpmus),
	.nperfmon_units = ARRAY_LEN(snbep_perfmon_units),
	.perfpmus = snbep_perfpmus,
	.perfmon_units = snbep_perfmon_units,
	.limits = &snbep_limits,
};
