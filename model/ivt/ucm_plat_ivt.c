/*
 * ucm_plat_ivt.c - the Intel Xeon E5-2600 v2 (Ivy Bridge-EP, "Ivytown")
 * uncore registers as data.  The E5-2600's boxes (model/snbep) with what
 * the v2 changed: global control, status and configuration registers in the
 * UBox; a box status register in every box that reports overflow; ov_en in
 * the counter controls; box controls whose freeze needs no enable and whose
 * bits 17:16 software must write as 1; invert gone but on the iMC; up to 15 CBos with two
 * filter registers; two home agents, eight memory channels, a third QPI
 * port and R3QPI link where the part has them, and the IRP box.
 *
 * "IVT" cites the v2 uncore manual (329468-002): its PCU pages are in
 * shared/seeds/xeon-e5-v2-uncore-pcu-excerpt.txt, the rest as
 * shared/notes/ivt-facts.md reports it (section numbers "facts §n").  Where
 * the sources disagree or are silent, the choice is recorded in
 * docs/platform-ivt.md (V1..V20 below point there).  Event codes and named
 * events are generated into ucm_plat_ivt_ev.c.
 *
 * Access types as model/snbep: RW is UCM_A_RW, RO-V UCM_A_RO, WO
 * UCM_A_WO, RW1C UCM_A_RW1C.  MSRs are 64-bit registers (reserved above
 * the documented width); PCI counters are 64-bit registers holding a 44- or
 * 48-bit count.
 */
#include <stddef.h>

#include "ucm_plat_ivt.h"
#include "ucm_plat_ivt_metrics.h"
#include "ucm_xeon.h"
#include "ucm_cores.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- global registers (IVT 2.1.4, p.18-19; facts §2) ---- */

/* U_MSR_PMON_GLOBAL_CTL (IVT p.19): frz_all and unfrz_all write-only; 28:27
 * reserved (must write 0), 26:15 reserved; pmi_core_sel one bit per core
 * (bits of cores the part lacks are stored and interrupt nobody, V4). */
static const struct ucm_field f_global_ctl[] = {
	{ "frz_all", 31, 31, UCM_A_WO, UCM_R_FRZ_ALL, 0 },
	{ "wk_on_pmi", 30, 30, UCM_A_RW, UCM_R_WAKE_ON_PMI, 0 },
	{ "unfrz_all", 29, 29, UCM_A_WO, UCM_R_UNFRZ_ALL, 0 },
	{ "pmi_core_sel14", 14, 14, UCM_A_RW, UCM_R_PMI_SEL, 14 },
	{ "pmi_core_sel13", 13, 13, UCM_A_RW, UCM_R_PMI_SEL, 13 },
	{ "pmi_core_sel12", 12, 12, UCM_A_RW, UCM_R_PMI_SEL, 12 },
	{ "pmi_core_sel11", 11, 11, UCM_A_RW, UCM_R_PMI_SEL, 11 },
	{ "pmi_core_sel10", 10, 10, UCM_A_RW, UCM_R_PMI_SEL, 10 },
	{ "pmi_core_sel9", 9, 9, UCM_A_RW, UCM_R_PMI_SEL, 9 },
	{ "pmi_core_sel8", 8, 8, UCM_A_RW, UCM_R_PMI_SEL, 8 },
	{ "pmi_core_sel7", 7, 7, UCM_A_RW, UCM_R_PMI_SEL, 7 },
	{ "pmi_core_sel6", 6, 6, UCM_A_RW, UCM_R_PMI_SEL, 6 },
	{ "pmi_core_sel5", 5, 5, UCM_A_RW, UCM_R_PMI_SEL, 5 },
	{ "pmi_core_sel4", 4, 4, UCM_A_RW, UCM_R_PMI_SEL, 4 },
	{ "pmi_core_sel3", 3, 3, UCM_A_RW, UCM_R_PMI_SEL, 3 },
	{ "pmi_core_sel2", 2, 2, UCM_A_RW, UCM_R_PMI_SEL, 2 },
	{ "pmi_core_sel1", 1, 1, UCM_A_RW, UCM_R_PMI_SEL, 1 },
	{ "pmi_core_sel0", 0, 0, UCM_A_RW, UCM_R_PMI_SEL, 0 },
};
static const struct ucm_layout l_global_ctl = {
	"U_MSR_PMON_GLOBAL_CTL", "IVT 2.1.4 p.19 (facts §2)", 64, ARRAY_LEN(f_global_ctl), f_global_ctl
};

/* U_MSR_PMON_GLOBAL_STATUS: one write-1-to-clear bit per box the UBox
 * hears from.  Table 2-3 was not available; the bit map is likwid's (the
 * only source), with the names the manual's text uses (V3).  QPI port 2,
 * R3QPI link 2 and the IRP have no bit.  .arg is the bit. */
static const struct ucm_field f_global_status[] = {
	{ "ov_r2", 26, 26, UCM_A_RW1C, UCM_R_OVF_STATUS, 26 },
	{ "ov_r3q1", 25, 25, UCM_A_RW1C, UCM_R_OVF_STATUS, 25 },
	{ "ov_r3q0", 24, 24, UCM_A_RW1C, UCM_R_OVF_STATUS, 24 },
	{ "ov_q1", 23, 23, UCM_A_RW1C, UCM_R_OVF_STATUS, 23 },
	{ "ov_q0", 22, 22, UCM_A_RW1C, UCM_R_OVF_STATUS, 22 },
	{ "ov_m1", 21, 21, UCM_A_RW1C, UCM_R_OVF_STATUS, 21 },
	{ "ov_m0", 20, 20, UCM_A_RW1C, UCM_R_OVF_STATUS, 20 },
	{ "ov_h1", 19, 19, UCM_A_RW1C, UCM_R_OVF_STATUS, 19 },
	{ "ov_h0", 18, 18, UCM_A_RW1C, UCM_R_OVF_STATUS, 18 },
	{ "ov_c14", 17, 17, UCM_A_RW1C, UCM_R_OVF_STATUS, 17 },
	{ "ov_c13", 16, 16, UCM_A_RW1C, UCM_R_OVF_STATUS, 16 },
	{ "ov_c12", 15, 15, UCM_A_RW1C, UCM_R_OVF_STATUS, 15 },
	{ "ov_c11", 14, 14, UCM_A_RW1C, UCM_R_OVF_STATUS, 14 },
	{ "ov_c10", 13, 13, UCM_A_RW1C, UCM_R_OVF_STATUS, 13 },
	{ "ov_c9", 12, 12, UCM_A_RW1C, UCM_R_OVF_STATUS, 12 },
	{ "ov_c8", 11, 11, UCM_A_RW1C, UCM_R_OVF_STATUS, 11 },
	{ "ov_c7", 10, 10, UCM_A_RW1C, UCM_R_OVF_STATUS, 10 },
	{ "ov_c6", 9, 9, UCM_A_RW1C, UCM_R_OVF_STATUS, 9 },
	{ "ov_c5", 8, 8, UCM_A_RW1C, UCM_R_OVF_STATUS, 8 },
	{ "ov_c4", 7, 7, UCM_A_RW1C, UCM_R_OVF_STATUS, 7 },
	{ "ov_c3", 6, 6, UCM_A_RW1C, UCM_R_OVF_STATUS, 6 },
	{ "ov_c2", 5, 5, UCM_A_RW1C, UCM_R_OVF_STATUS, 5 },
	{ "ov_c1", 4, 4, UCM_A_RW1C, UCM_R_OVF_STATUS, 4 },
	{ "ov_c0", 3, 3, UCM_A_RW1C, UCM_R_OVF_STATUS, 3 },
	{ "ov_p", 2, 2, UCM_A_RW1C, UCM_R_OVF_STATUS, 2 },
	{ "ov_u", 1, 1, UCM_A_RW1C, UCM_R_OVF_STATUS, 1 },
	{ "ov_u_fixed", 0, 0, UCM_A_RW1C, UCM_R_OVF_STATUS, 0 },
};
static const struct ucm_layout l_global_status = {
	"U_MSR_PMON_GLOBAL_STATUS", "IVT Table 2-3", 64, ARRAY_LEN(f_global_status),
	f_global_status
};

/* U_MSR_PMON_GLOBAL_CONFIG: 32 bits whose fields no source gives.  Held
 * as read/write storage that changes nothing (V5). */
static const struct ucm_field f_global_config[] = {
	{ "config", 0, 31, UCM_A_RW, UCM_R_NONE, 0 },
};
static const struct ucm_layout l_global_config = {
	"U_MSR_PMON_GLOBAL_CONFIG", "IVT p.18 (facts §2)", 64, ARRAY_LEN(f_global_config),
	f_global_config
};

/* ---- box control and status ---- */

/* Box control (CBo Table 2-13, HA Table 2-38, iMC Table 2-72; the PCU,
 * QPI, R2PCIe, R3QPI and IRP alike, facts §4): rst_ctrl and rst_ctrs on every box,
 * now also the HA and iMC; frz freezes the box with no enable bit (facts
 * §4); 17:16 are reserved bits software must write as 1, stored and read
 * back (PCM reads back what it wrote), with no effect on counting (V6). */
static const struct ucm_field f_boxctl[] = {
	{ "rsv_mbo", 16, 17, UCM_A_RW, UCM_R_MBO, 0 },
	{ "frz", 8, 8, UCM_A_WO, UCM_R_FRZ, 0 },
	{ "rst_ctrs", 1, 1, UCM_A_WO, UCM_R_RST_CTRS, 0 },
	{ "rst_ctrl", 0, 0, UCM_A_WO, UCM_R_RST_CTRL, 0 },
};
/* Out of reset 17:16 read 11b, the value software is told to write (V6):
 * a box control read before any write shows it, and putting back what was
 * read is no violation. */
#define BOXCTL_RESET 0x30000u
static const struct ucm_layout l_c_boxctl = {
	"Cn_MSR_PMON_BOX_CTL", "IVT Table 2-13", 64, ARRAY_LEN(f_boxctl), f_boxctl
};
static const struct ucm_layout l_p_boxctl = {
	"PCU_MSR_PMON_BOX_CTL", "IVT Table 2-118", 64, ARRAY_LEN(f_boxctl), f_boxctl
};
static const struct ucm_layout l_pci_boxctl = {
	"PCI_PMON_BOX_CTL", "IVT Tables 2-38, 2-72", 32, ARRAY_LEN(f_boxctl), f_boxctl
};

/* Box status: one write-1-to-clear overflow bit per counter (.arg is the
 * counter).  The excerpt's "set ... to 0" (2.7.2.1) is read as the write
 * of 1 every other section describes (V2).  UBox 0xC15: the general
 * counters at 1:0, the fixed counter at 2 (V7); PCU 0xC35 and HA, QPI,
 * R2PCIe 0xF8: 3:0; R3QPI 2:0; iMC: bit 0 the fixed counter, 4:1 counters
 * 0..3 (IVT p.79); IRP: IRP0 counters 0/1 at 1:0, IRP1's at 3:2. */
#define OV(n, bit, ctr) { n, bit, bit, UCM_A_RW1C, UCM_R_OVF_STATUS, ctr }
static const struct ucm_field f_u_status[] = { OV("ov_fixed", 2, 2), OV("ov1", 1, 1), OV("ov0", 0, 0) };
static const struct ucm_field f_status4[] = {
	OV("ov3", 3, 3), OV("ov2", 2, 2), OV("ov1", 1, 1), OV("ov0", 0, 0),
};
static const struct ucm_field f_status3[] = { OV("ov2", 2, 2), OV("ov1", 1, 1), OV("ov0", 0, 0) };
static const struct ucm_field f_m_status[] = {
	OV("ov3", 4, 3), OV("ov2", 3, 2), OV("ov1", 2, 1), OV("ov0", 1, 0), OV("ov_fixed", 0, 4),
};
static const struct ucm_layout l_u_status = {
	"U_MSR_PMON_BOX_STATUS", "facts §4, §12 (MSR 0xC15)", 64, ARRAY_LEN(f_u_status), f_u_status
};
static const struct ucm_layout l_p_status = {
	"PCU_MSR_PMON_BOX_STATUS", "IVT Table 2-118", 64, ARRAY_LEN(f_status4), f_status4
};
static const struct ucm_layout l_pci_status4 = {
	"PCI_PMON_BOX_STATUS", "IVT p.56, p.165 (facts §4)", 32, ARRAY_LEN(f_status4), f_status4
};
static const struct ucm_layout l_r3_status = {
	"R3_Ly_PCI_PMON_BOX_STATUS", "facts §10", 32, ARRAY_LEN(f_status3), f_status3
};
static const struct ucm_layout l_m_status = {
	"MC_CHy_PCI_PMON_BOX_STATUS", "IVT p.79 (facts §4)", 32, ARRAY_LEN(f_m_status), f_m_status
};

/* ---- counter controls (facts §4: invert is gone from every box but the
 * iMC, bit 23 reserved, V19; ov_en at 20 wherever a box reports overflow) ---- */

/* UBox CTL0/1: 5-bit threshold. */
static const struct ucm_field f_u_ctl[] = {
	{ "thresh", 24, 28, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "ov_en", 20, 20, UCM_A_RW, UCM_R_OVF_EN, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "rst", 17, 17, UCM_A_WO, UCM_R_RST, 0 },
	{ "umask", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_layout l_u_ctl = {
	"U_MSR_PMON_CTL", "IVT p.23 (facts §12)", 64, ARRAY_LEN(f_u_ctl), f_u_ctl
};
/* UCLK_FIXED_CTL: en, and ov_en (IVT p.23). */
static const struct ucm_field f_u_fixed_ctl[] = {
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "ov_en", 20, 20, UCM_A_RW, UCM_R_OVF_EN, 0 },
};
static const struct ucm_layout l_u_fixed_ctl = {
	"U_MSR_PMON_UCLK_FIXED_CTL", "IVT p.23 (facts §12)", 64, ARRAY_LEN(f_u_fixed_ctl), f_u_fixed_ctl
};

/* CBo CTL0-3 (Table 2-14): 21:20 reserved, so no ov_en: a CBo counter
 * wraps silently and its global bits 3..17 never set (V8). */
static const struct ucm_field f_c_ctl[] = {
	{ "thresh", 24, 31, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "tid_en", 19, 19, UCM_A_RW, UCM_R_TID_EN, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "rst", 17, 17, UCM_A_WO, UCM_R_RST, 0 },
	{ "umask", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_layout l_c_ctl = {
	"Cn_MSR_PMON_CTL", "IVT Table 2-14", 64, ARRAY_LEN(f_c_ctl), f_c_ctl
};

/* CBo FILTER0 (Table 2-16): thread 4:0, state 22:17 (six bits: I, S, E,
 * M, F, M' from bit 17 up); 16:5 reserved (Linux's "link" at 8:5 is not in
 * the manual, V9). */
static const struct ucm_field f_c_filter0[] = {
	{ "state", 17, 22, UCM_A_RW, UCM_R_FILT_STATE, 0 },
	{ "tid", 0, 4, UCM_A_RW, UCM_R_FILT_TID, 0 },
};
static const struct ucm_layout l_c_filter0 = {
	"Cn_MSR_PMON_BOX_FILTER", "IVT Table 2-16", 64, ARRAY_LEN(f_c_filter0), f_c_filter0
};
/* CBo FILTER1 (Table 2-17): node mask 15:0, opcode 28:20, nc 30, isoc 31;
 * 29 (Linux's "c6") and 19:16 reserved (V9).  nc and isoc narrow an opcode
 * match to non-coherent or isochronous requests; the model's requests carry
 * neither attribute, so they are stored and select nothing (V10). */
static const struct ucm_field f_c_filter1[] = {
	{ "isoc", 31, 31, UCM_A_RW, UCM_R_NONE, 0 },
	{ "nc", 30, 30, UCM_A_RW, UCM_R_NONE, 0 },
	{ "opc", 20, 28, UCM_A_RW, UCM_R_FILT_OPC, 0 },
	{ "nid", 0, 15, UCM_A_RW, UCM_R_FILT_NID, 0 },
};
static const struct ucm_layout l_c_filter1 = {
	"Cn_MSR_PMON_BOX_FILTER1", "IVT Table 2-17", 64, ARRAY_LEN(f_c_filter1), f_c_filter1
};

/* PCU CTL0-3 (IVT Table 2-121): the E5-2600's layout with ov_en at 20, the
 * extra select bit at 21 and bit 23 reserved. */
static const struct ucm_field f_p_ctl[] = {
	{ "occ_edge_det", 31, 31, UCM_A_RW, UCM_R_OCC_EDGE, 0 },
	{ "occ_invert", 30, 30, UCM_A_RW, UCM_R_OCC_INV, 0 },
	{ "thresh", 24, 28, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "ev_sel_ext", 21, 21, UCM_A_RW, UCM_R_EXTSEL, 0 },
	{ "ov_en", 20, 20, UCM_A_RW, UCM_R_OVF_EN, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "rst", 17, 17, UCM_A_WO, UCM_R_RST, 0 },
	{ "occ_sel", 14, 15, UCM_A_RW, UCM_R_OCC_SEL, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_layout l_p_ctl = {
	"PCU_MSR_PMON_CTL", "IVT Table 2-121", 64, ARRAY_LEN(f_p_ctl), f_p_ctl
};
/* PCU BOX_FILTER: four 8-bit bands, as the E5-2600's Table 2-77. */
static const struct ucm_field f_p_filter[] = {
	{ "filt31_24", 24, 31, UCM_A_RW, UCM_R_FILT_BAND, 3 },
	{ "filt23_16", 16, 23, UCM_A_RW, UCM_R_FILT_BAND, 2 },
	{ "filt15_8", 8, 15, UCM_A_RW, UCM_R_FILT_BAND, 1 },
	{ "filt7_0", 0, 7, UCM_A_RW, UCM_R_FILT_BAND, 0 },
};
static const struct ucm_layout l_p_filter = {
	"PCU_MSR_PMON_BOX_FILTER", "IVT 2.7.3 (SNB-EP Table 2-77 layout)", 64, ARRAY_LEN(f_p_filter), f_p_filter
};

/* PCI box counter controls.  HA and iMC: no rst (17:16 reserved; Linux's
 * HA queue-occupancy reset at 16 is outside every mask it uses, V11);
 * R2PCIe (Table 2-175), R3QPI and IRP: rst at 17. */
static const struct ucm_field f_ctl_pci[] = {
	{ "thresh", 24, 31, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "ov_en", 20, 20, UCM_A_RW, UCM_R_OVF_EN, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "umask", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_field f_ctl_pci_rst[] = {
	{ "thresh", 24, 31, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "ov_en", 20, 20, UCM_A_RW, UCM_R_OVF_EN, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "rst", 17, 17, UCM_A_WO, UCM_R_RST, 0 },
	{ "umask", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
/* iMC: as the HA, plus invert at 23, which PCM's CKE-off residency sets on
 * every Xeon from the E5-2600 on (V19 revisited, issue 33). */
static const struct ucm_field f_m_ctl[] = {
	{ "thresh", 24, 31, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "invert", 23, 23, UCM_A_RW, UCM_R_INV, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "ov_en", 20, 20, UCM_A_RW, UCM_R_OVF_EN, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "umask", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_layout l_h_ctl = {
	"HA_PCI_PMON_CTL", "IVT p.55 (facts §4)", 32, ARRAY_LEN(f_ctl_pci), f_ctl_pci
};
static const struct ucm_layout l_m_ctl = {
	"MC_CHy_PCI_PMON_CTL", "IVT p.77 (facts §4; invert: V19)", 32, ARRAY_LEN(f_m_ctl), f_m_ctl
};
static const struct ucm_layout l_r2_ctl = {
	"R2_PCI_PMON_CTL", "IVT Table 2-175", 32, ARRAY_LEN(f_ctl_pci_rst), f_ctl_pci_rst
};
static const struct ucm_layout l_r3_ctl = {
	"R3_Ly_PCI_PMON_CTL", "facts §10", 32, ARRAY_LEN(f_ctl_pci_rst), f_ctl_pci_rst
};
static const struct ucm_layout l_i_ctl = {
	"IRP_PCI_PMON_CTL", "facts §11", 32, ARRAY_LEN(f_ctl_pci_rst), f_ctl_pci_rst
};
/* QPI CTL0-3: the extra select bit at 21 (Linux's format config:0-7,21). */
static const struct ucm_field f_q_ctl[] = {
	{ "thresh", 24, 31, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "ev_sel_ext", 21, 21, UCM_A_RW, UCM_R_EXTSEL, 0 },
	{ "ov_en", 20, 20, UCM_A_RW, UCM_R_OVF_EN, 0 },
	{ "edge_det", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "rst", 17, 17, UCM_A_WO, UCM_R_RST, 0 },
	{ "umask", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "ev_sel", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_layout l_q_ctl = {
	"Q_Py_PCI_PMON_CTL", "facts §9", 32, ARRAY_LEN(f_q_ctl), f_q_ctl
};
/* iMC FIXED_CTL: en 22, ov_en 20 (its box status bit 0 says it reports
 * overflow, V12), write-only rst 19 as on the E5-2600 (Table 2-62). */
static const struct ucm_field f_m_fixed_ctl[] = {
	{ "en", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "ov_en", 20, 20, UCM_A_RW, UCM_R_OVF_EN, 0 },
	{ "rst", 19, 19, UCM_A_WO, UCM_R_RST, 0 },
};
static const struct ucm_layout l_m_fixed_ctl = {
	"MC_CHy_PCI_PMON_FIXED_CTL", "IVT p.77 (facts §8; SNB-EP Table 2-62)", 32, ARRAY_LEN(f_m_fixed_ctl),
	f_m_fixed_ctl
};

/* ---- counters ---- */

/* 44-bit: UBox general (Table 2-7), CBo (Table 2-15), R2PCIe, R3QPI.
 * 48-bit: the UBox fixed counter (its text and Linux say 48 where the field
 * row says 43:0, V13), HA, iMC general and fixed, PCU, QPI and the IRP
 * (Linux; likwid says 44, V14).  64-bit: the PCU C-state residency
 * counters. */
static const struct ucm_field f_ctr44[] = { { "event_count", 0, 43, UCM_A_RW, UCM_R_VALUE, 0 } };
static const struct ucm_field f_ctr48[] = { { "event_count", 0, 47, UCM_A_RW, UCM_R_VALUE, 0 } };
#define CTR_LAYOUT(var, name, cite, f) \
	static const struct ucm_layout var = { name, cite, 64, ARRAY_LEN(f), f }
CTR_LAYOUT(l_u_ctr, "U_MSR_PMON_CTR", "IVT Table 2-7", f_ctr44);
CTR_LAYOUT(l_u_fixed_ctr, "U_MSR_PMON_UCLK_FIXED_CTR", "IVT Table 2-9", f_ctr48);
CTR_LAYOUT(l_c_ctr, "Cn_MSR_PMON_CTR", "IVT Table 2-15", f_ctr44);
CTR_LAYOUT(l_p_ctr, "PCU_MSR_PMON_CTR", "IVT Table 2-118", f_ctr48);
CTR_LAYOUT(l_h_ctr, "HA_PCI_PMON_CTR", "IVT p.55 (facts §7)", f_ctr48);
CTR_LAYOUT(l_m_ctr, "MC_CHy_PCI_PMON_CTR", "IVT p.77 (facts §8)", f_ctr48);
CTR_LAYOUT(l_q_ctr, "Q_Py_PCI_PMON_CTR", "facts §9", f_ctr48);
CTR_LAYOUT(l_r2_ctr, "R2_PCI_PMON_CTR", "IVT p.165 (facts §10)", f_ctr44);
CTR_LAYOUT(l_r3_ctr, "R3_Ly_PCI_PMON_CTR", "facts §10", f_ctr44);
CTR_LAYOUT(l_i_ctr, "IRP_PCI_PMON_CTR", "facts §11", f_ctr48);

/* ---- match registers and QPI_RATE_STATUS: the E5-2600's at the same
 * offsets on the v2 (facts §7, §9; model/ucm_xeon.c) ---- */

/* ---- the PCU's C-state residency counters 0x3FC/0x3FD (IVT 2.7.2,
 * Table 2-118, outside PMON) are each core's MSR_CORE_C3/C6_RESIDENCY at
 * the TSC's rate: the machine's table serves them (model/ucm_mach.h;
 * docs/platform-ivt.md V26) ---- */
static const uint8_t fixed_ubox[] = { 0, 0, IVT_UBOX_FIXED_CODE };
static const uint8_t fixed_imc[] = { 0, 0, 0, 0, IVT_IMC_FIXED_CODE };

/* ---- box types ---- */

/* PCI header of every function (ucm_xeon.h): PMON_IDS on the functions
 * whose class is "performance counters", PCI_IDS on the others.  Revision
 * 0x04, what lspci shows on E5-2600 v2 systems (docs/tools.md "PCI
 * functions"). */
#define PCI_IDS(p) UCM_XEON_PCI_HDR(p, UCM_XEON_CLASS_OTHER, 0x04)
#define PMON_IDS(p) UCM_XEON_PCI_HDR(p, UCM_XEON_CLASS_PMON, 0x04)

/* The UBox's global registers (IVT p.18; facts §2). */
static const struct ucm_regdef r_global[] = {
	{ "U_MSR_PMON_GLOBAL_CTL", 0xC00, UCM_K_GLOBAL_CTL, 0, &l_global_ctl, 0 },
	{ "U_MSR_PMON_GLOBAL_STATUS", 0xC01, UCM_K_GLOBAL_STATUS, 0, &l_global_status, 0 },
	{ "U_MSR_PMON_GLOBAL_CONFIG", 0xC06, UCM_K_PLAIN, 0, &l_global_config, 0 },
};
/* UBox (facts §12): no box control; counter 2 is the UCLK fixed counter.
 * Its filter register (FILTER_MATCH's UBoxFilter) has no known address and
 * is not modelled (V15). */
static const struct ucm_regdef r_ubox[] = {
	{ "U_MSR_PMON_UCLK_FIXED_CTL", 0xC08, UCM_K_CTL, 2, &l_u_fixed_ctl, 0 },
	{ "U_MSR_PMON_UCLK_FIXED_CTR", 0xC09, UCM_K_CTR, 2, &l_u_fixed_ctr, 0 },
	{ "U_MSR_PMON_CTL0", 0xC10, UCM_K_CTL, 0, &l_u_ctl, 0 },
	{ "U_MSR_PMON_CTL1", 0xC11, UCM_K_CTL, 1, &l_u_ctl, 0 },
	{ "U_MSR_PMON_BOX_STATUS", 0xC15, UCM_K_BOX_STATUS, 0, &l_u_status, 0 },
	{ "U_MSR_PMON_CTR0", 0xC16, UCM_K_CTR, 0, &l_u_ctr, 0 },
	{ "U_MSR_PMON_CTR1", 0xC17, UCM_K_CTR, 1, &l_u_ctr, 0 },
};
/* CBo n at 0xD00 + 0x20 * n (Table 2-12); FILTER1 at 0x1A, new. */
static const struct ucm_regdef r_cbo[] = {
	{ "C%u_MSR_PMON_BOX_CTL", 0x04, UCM_K_BOX_CTL, 0, &l_c_boxctl, BOXCTL_RESET },
	{ "C%u_MSR_PMON_CTL0", 0x10, UCM_K_CTL, 0, &l_c_ctl, 0 },
	{ "C%u_MSR_PMON_CTL1", 0x11, UCM_K_CTL, 1, &l_c_ctl, 0 },
	{ "C%u_MSR_PMON_CTL2", 0x12, UCM_K_CTL, 2, &l_c_ctl, 0 },
	{ "C%u_MSR_PMON_CTL3", 0x13, UCM_K_CTL, 3, &l_c_ctl, 0 },
	{ "C%u_MSR_PMON_BOX_FILTER", 0x14, UCM_K_FILTER, 0, &l_c_filter0, 0 },
	{ "C%u_MSR_PMON_CTR0", 0x16, UCM_K_CTR, 0, &l_c_ctr, 0 },
	{ "C%u_MSR_PMON_CTR1", 0x17, UCM_K_CTR, 1, &l_c_ctr, 0 },
	{ "C%u_MSR_PMON_CTR2", 0x18, UCM_K_CTR, 2, &l_c_ctr, 0 },
	{ "C%u_MSR_PMON_CTR3", 0x19, UCM_K_CTR, 3, &l_c_ctr, 0 },
	{ "C%u_MSR_PMON_BOX_FILTER1", 0x1A, UCM_K_FILTER, 1, &l_c_filter1, 0 },
};
/* PCU, Table 2-118 */
static const struct ucm_regdef r_pcu[] = {
	{ "PCU_MSR_PMON_BOX_CTL", 0xC24, UCM_K_BOX_CTL, 0, &l_p_boxctl, BOXCTL_RESET },
	{ "PCU_MSR_PMON_CTL0", 0xC30, UCM_K_CTL, 0, &l_p_ctl, 0 },
	{ "PCU_MSR_PMON_CTL1", 0xC31, UCM_K_CTL, 1, &l_p_ctl, 0 },
	{ "PCU_MSR_PMON_CTL2", 0xC32, UCM_K_CTL, 2, &l_p_ctl, 0 },
	{ "PCU_MSR_PMON_CTL3", 0xC33, UCM_K_CTL, 3, &l_p_ctl, 0 },
	{ "PCU_MSR_PMON_BOX_FILTER", 0xC34, UCM_K_FILTER, 0, &l_p_filter, 0 },
	{ "PCU_MSR_PMON_BOX_STATUS", 0xC35, UCM_K_BOX_STATUS, 0, &l_p_status, 0 },
	{ "PCU_MSR_PMON_CTR0", 0xC36, UCM_K_CTR, 0, &l_p_ctr, 0 },
	{ "PCU_MSR_PMON_CTR1", 0xC37, UCM_K_CTR, 1, &l_p_ctr, 0 },
	{ "PCU_MSR_PMON_CTR2", 0xC38, UCM_K_CTR, 2, &l_p_ctr, 0 },
	{ "PCU_MSR_PMON_CTR3", 0xC39, UCM_K_CTR, 3, &l_p_ctr, 0 },
};
/* UBox configuration function, D11:F0 (facts §13). */
static const struct ucm_regdef r_ubox_pci[] = {
	PCI_IDS("UBOX"),
	UCM_XEON_NODEID_REGS,
};
/* HA (facts §7): HA0 D14:F1, HA1 D28:F1. */
static const struct ucm_regdef r_ha[] = {
	PMON_IDS("HA%u"),
	{ "HA%u_PCI_PMON_BOX_ADDRMATCH0", 0x40, UCM_K_FILTER, 0, &ucm_xeon_l_h_addr0, 0 },
	{ "HA%u_PCI_PMON_BOX_ADDRMATCH1", 0x44, UCM_K_FILTER, 1, &ucm_xeon_l_h_addr1, 0 },
	{ "HA%u_PCI_PMON_BOX_OPCODEMATCH", 0x48, UCM_K_FILTER, 2, &ucm_xeon_l_h_opc, 0 },
	{ "HA%u_PCI_PMON_CTR0", 0xA0, UCM_K_CTR, 0, &l_h_ctr, 0 },
	{ "HA%u_PCI_PMON_CTR1", 0xA8, UCM_K_CTR, 1, &l_h_ctr, 0 },
	{ "HA%u_PCI_PMON_CTR2", 0xB0, UCM_K_CTR, 2, &l_h_ctr, 0 },
	{ "HA%u_PCI_PMON_CTR3", 0xB8, UCM_K_CTR, 3, &l_h_ctr, 0 },
	{ "HA%u_PCI_PMON_CTL0", 0xD8, UCM_K_CTL, 0, &l_h_ctl, 0 },
	{ "HA%u_PCI_PMON_CTL1", 0xDC, UCM_K_CTL, 1, &l_h_ctl, 0 },
	{ "HA%u_PCI_PMON_CTL2", 0xE0, UCM_K_CTL, 2, &l_h_ctl, 0 },
	{ "HA%u_PCI_PMON_CTL3", 0xE4, UCM_K_CTL, 3, &l_h_ctl, 0 },
	{ "HA%u_PCI_PMON_BOX_CTL", 0xF4, UCM_K_BOX_CTL, 0, &l_pci_boxctl, BOXCTL_RESET },
	{ "HA%u_PCI_PMON_BOX_STATUS", 0xF8, UCM_K_BOX_STATUS, 0, &l_pci_status4, 0 },
};
/* iMC channel (facts §8): counter 4 is the DCLK fixed counter. */
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
	{ "MC_CH%u_PCI_PMON_BOX_CTL", 0xF4, UCM_K_BOX_CTL, 0, &l_pci_boxctl, BOXCTL_RESET },
	{ "MC_CH%u_PCI_PMON_BOX_STATUS", 0xF8, UCM_K_BOX_STATUS, 0, &l_m_status, 0 },
};
/* QPI port: counters on F2 of its device, match/mask on F6 (facts §9).
 * Filter .idx: 0 MATCH0, 1 MATCH1, 2 MASK0, 3 MASK1, as model/snbep. */
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
	{ "Q_P%u_PCI_PMON_BOX_CTL", 0xF4, UCM_K_BOX_CTL, 0, &l_pci_boxctl, BOXCTL_RESET },
	{ "Q_P%u_PCI_PMON_BOX_STATUS", 0xF8, UCM_K_BOX_STATUS, 0, &l_pci_status4, 0 },
	{ "Q_P%u_PCI_PMON_PKT_MATCH0", UCM_PCI_FN(4, 0x228), UCM_K_FILTER, 0, &ucm_xeon_l_q_match0, 0 },
	{ "Q_P%u_PCI_PMON_PKT_MATCH1", UCM_PCI_FN(4, 0x22C), UCM_K_FILTER, 1, &ucm_xeon_l_q_match1, 0 },
	{ "Q_P%u_PCI_PMON_PKT_MASK0", UCM_PCI_FN(4, 0x238), UCM_K_FILTER, 2, &ucm_xeon_l_q_mask0, 0 },
	{ "Q_P%u_PCI_PMON_PKT_MASK1", UCM_PCI_FN(4, 0x23C), UCM_K_FILTER, 3, &ucm_xeon_l_q_mask1, 0 },
};
static const struct ucm_regdef r_qpi_mm[] = {
	PCI_IDS("Q_P%u_MM"),
};
static const struct ucm_regdef r_qpi_misc[] = {
	PCI_IDS("Q_P%u_MISC"),
	{ "Q_P%u_QPI_RATE_STATUS", 0xD4, UCM_K_PLAIN, 0, &ucm_xeon_l_q_rate, 0x5 },
};
/* D10:F0-F3, the PCU's configuration functions (pci.ids "Power Control
 * Unit 0".."3", 0x0EC0-0x0EC3; likwid's IVB-EP table has 0x0EC0 at D10:F0
 * and 0x0EC2 at D10:F2, which it takes for QPI port 2): no counters;
 * likwid looks for them, lspci and PCM's bus scan read their headers. */
static const struct ucm_regdef r_pcu_pci[] = {
	PCI_IDS("PCU_F%u"),
};
/* D14:F0 and D28:F0, each Home Agent's own function (8086:0EA0 "Home
 * Agent 0", 0E60 "Home Agent 1" in pci.ids; class 0x0880, rev 04 in the
 * lspci -nn of a dual E5-2680 v2, cyring/CoreFreq issue 142): no counters
 * (the HA's are at F1); lspci and PCM's bus scan read their headers. */
static const struct ucm_regdef r_ha_main[] = {
	PCI_IDS("HA%u_MAIN"),
};
/* R2PCIe (facts §10), D19:F1 */
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
	{ "R2_PCI_PMON_BOX_CTL", 0xF4, UCM_K_BOX_CTL, 0, &l_pci_boxctl, BOXCTL_RESET },
	{ "R2_PCI_PMON_BOX_STATUS", 0xF8, UCM_K_BOX_STATUS, 0, &l_pci_status4, 0 },
};
/* R3QPI link: three counters */
static const struct ucm_regdef r_r3qpi[] = {
	PMON_IDS("R3_L%u"),
	{ "R3_L%u_PCI_PMON_CTR0", 0xA0, UCM_K_CTR, 0, &l_r3_ctr, 0 },
	{ "R3_L%u_PCI_PMON_CTR1", 0xA8, UCM_K_CTR, 1, &l_r3_ctr, 0 },
	{ "R3_L%u_PCI_PMON_CTR2", 0xB0, UCM_K_CTR, 2, &l_r3_ctr, 0 },
	{ "R3_L%u_PCI_PMON_CTL0", 0xD8, UCM_K_CTL, 0, &l_r3_ctl, 0 },
	{ "R3_L%u_PCI_PMON_CTL1", 0xDC, UCM_K_CTL, 1, &l_r3_ctl, 0 },
	{ "R3_L%u_PCI_PMON_CTL2", 0xE0, UCM_K_CTL, 2, &l_r3_ctl, 0 },
	{ "R3_L%u_PCI_PMON_BOX_CTL", 0xF4, UCM_K_BOX_CTL, 0, &l_pci_boxctl, BOXCTL_RESET },
	{ "R3_L%u_PCI_PMON_BOX_STATUS", 0xF8, UCM_K_BOX_STATUS, 0, &l_r3_status, 0 },
};
/* IRP, D5:F6: one function, four counters (IRP0 counters 0/1 are 0/1,
 * IRP1's are 2/3) at irregular offsets: 0xA0, 0xB0, 0xB8, 0xC0 (Linux:
 * "registers not properly aligned").  Its filter (UNC_I_TRANSACTIONS.
 * ORDERINGQ's IRPFilter) has no known offset and is not modelled (V15). */
static const struct ucm_regdef r_irp[] = {
	PMON_IDS("IRP"),
	{ "IRP0_PCI_PMON_CTR0", 0xA0, UCM_K_CTR, 0, &l_i_ctr, 0 },
	{ "IRP0_PCI_PMON_CTR1", 0xB0, UCM_K_CTR, 1, &l_i_ctr, 0 },
	{ "IRP1_PCI_PMON_CTR0", 0xB8, UCM_K_CTR, 2, &l_i_ctr, 0 },
	{ "IRP1_PCI_PMON_CTR1", 0xC0, UCM_K_CTR, 3, &l_i_ctr, 0 },
	{ "IRP0_PCI_PMON_CTL0", 0xD8, UCM_K_CTL, 0, &l_i_ctl, 0 },
	{ "IRP0_PCI_PMON_CTL1", 0xDC, UCM_K_CTL, 1, &l_i_ctl, 0 },
	{ "IRP1_PCI_PMON_CTL0", 0xE0, UCM_K_CTL, 2, &l_i_ctl, 0 },
	{ "IRP1_PCI_PMON_CTL1", 0xE4, UCM_K_CTL, 3, &l_i_ctl, 0 },
	{ "IRP_PCI_PMON_BOX_CTL", 0xF4, UCM_K_BOX_CTL, 0, &l_pci_boxctl, BOXCTL_RESET },
	{ "IRP_PCI_PMON_BOX_STATUS", 0xF8, UCM_K_BOX_STATUS, 0, &l_pci_status4, 0 },
};

static const struct ucm_boxtype bt_global = {
	"global", "UBox global control", UCM_MSR, 0, IVT_CLK_UCLK, UCM_BT_GLOBAL, 1, 1, 1,
	ARRAY_LEN(r_global), 0, r_global, NULL, NULL, "IVT 2.1.4 (facts §2)", 0
};
const struct ucm_boxtype ivt_bt_ubox = {
	"ubox", "UBox (system configuration controller)", UCM_MSR, 3, IVT_CLK_UCLK, 0, 1, 1, 1,
	ARRAY_LEN(r_ubox), IVT_NCODES_UBOX, r_ubox, ivt_codes_ubox, fixed_ubox, "IVT p.21 (facts §12)", 0
};
const struct ucm_boxtype ivt_bt_cbo = {
	"cbo", "C-Box (LLC coherence engine)", UCM_MSR, 4, IVT_CLK_UCLK, 0, 1, 15, 12,
	ARRAY_LEN(r_cbo), IVT_NCODES_CBO, r_cbo, ivt_codes_cbo, NULL, "IVT p.26 (facts §5)", 0
};
const struct ucm_boxtype ivt_bt_pcu = {
	"pcu", "Power Control Unit", UCM_MSR, 4, IVT_CLK_PCLK, 0, 1, 1, 1,
	ARRAY_LEN(r_pcu), IVT_NCODES_PCU, r_pcu, ivt_codes_pcu, NULL, "IVT 2.7", 0
};
static const struct ucm_boxtype bt_ubox_pci = {
	"ubox_pci", "UBox configuration function", UCM_PCI, 0, IVT_CLK_UCLK, 0, 1, 1, 1,
	ARRAY_LEN(r_ubox_pci), 0, r_ubox_pci, NULL, NULL, "public facts", 0
};
const struct ucm_boxtype ivt_bt_ha = {
	"ha", "Home Agent", UCM_PCI, 4, IVT_CLK_UCLK, 0, 1, 2, 2,
	ARRAY_LEN(r_ha), IVT_NCODES_HA, r_ha, ivt_codes_ha, NULL, "IVT p.55 (facts §7)", 0
};
const struct ucm_boxtype ivt_bt_imc = {
	"imc", "Memory controller channel", UCM_PCI, 5, IVT_CLK_DCLK, 0, 1, 8, 8,
	ARRAY_LEN(r_imc), IVT_NCODES_IMC, r_imc, ivt_codes_imc, fixed_imc, "IVT p.77 (facts §8)", 0
};
const struct ucm_boxtype ivt_bt_qpi = {
	"qpi", "QPI link layer port", UCM_PCI, 4, IVT_CLK_QCLK, 0, 1, 3, 2,
	ARRAY_LEN(r_qpi), IVT_NCODES_QPI, r_qpi, ivt_codes_qpi, NULL, "facts §9", 0
};
static const struct ucm_boxtype bt_qpi_mm = {
	"qpi_mm", "QPI packet mask/match", UCM_PCI, 0, IVT_CLK_QCLK, 0, 1, 3, 2,
	ARRAY_LEN(r_qpi_mm), 0, r_qpi_mm, NULL, NULL, "facts §9", 0
};
static const struct ucm_boxtype bt_qpi_misc = {
	"qpi_misc", "QPI misc (rate status)", UCM_PCI, 0, IVT_CLK_QCLK, 0, 1, 3, 2,
	ARRAY_LEN(r_qpi_misc), 0, r_qpi_misc, NULL, NULL, "IVT p.138 (facts §9)", 0
};
static const struct ucm_boxtype bt_ha_main = {
	"ha_main", "Home Agent (its own function)", UCM_PCI, 0, IVT_CLK_UCLK, 0, 2, 2, 2,
	ARRAY_LEN(r_ha_main), 0, r_ha_main, NULL, NULL, "public facts (pci.ids)", 0
};
static const struct ucm_boxtype bt_pcu_pci = {
	"pcu_pci", "PCU configuration functions", UCM_PCI, 0, IVT_CLK_PCLK, 0, 4, 4, 4,
	ARRAY_LEN(r_pcu_pci), 0, r_pcu_pci, NULL, NULL, "public facts (pci.ids)", 0
};
const struct ucm_boxtype ivt_bt_r2pcie = {
	"r2pcie", "R2PCIe (ring to PCIe)", UCM_PCI, 4, IVT_CLK_UCLK, 0, 1, 1, 1,
	ARRAY_LEN(r_r2pcie), IVT_NCODES_R2PCIE, r_r2pcie, ivt_codes_r2pcie, NULL, "IVT p.165 (facts §10)", 0
};
const struct ucm_boxtype ivt_bt_r3qpi = {
	"r3qpi", "R3QPI (ring to QPI) link", UCM_PCI, 3, IVT_CLK_UCLK, 0, 1, 3, 2,
	ARRAY_LEN(r_r3qpi), IVT_NCODES_R3QPI, r_r3qpi, ivt_codes_r3qpi, NULL, "facts §10", 0
};
const struct ucm_boxtype ivt_bt_irp = {
	"irp", "IRP (IIO ring port)", UCM_PCI, 4, IVT_CLK_UCLK, 0, 1, 1, 1,
	ARRAY_LEN(r_irp), IVT_NCODES_IRP, r_irp, ivt_codes_irp, NULL, "facts §11", 2 /* V25 */
};

/* The UBox's general counters report to ov_u (1), its fixed counter to
 * ov_u_fixed (0); the IRP reports to no global bit. */
static const int8_t ubox_gbits[] = { 1, 1, 0 };
static const int8_t irp_gbits[] = { -1, -1, -1, -1 };

/* Instances: MSR bases (Table 2-12 and facts §2, Table 2-118), PCI device:function and
 * device IDs (facts §7-§11, pci.ids), global status bits (.status_bit, V3).
 * MC0's four channels report to ov_m0, MC1's to ov_m1; channel y of MC x
 * is imc instance 4x + y at functions 4, 5, 0, 1 (Linux, PCM, likwid;
 * V16).  QPI port 2 and R3QPI link 2 exist where configured (3 instances;
 * the E5-2697 v2 has two links): port 2 at D24 (PCM) with Linux's device
 * ID 0x0E3A, link 2 at D18:F5 0x0E3E (V17). */
/* the 12 cores' instructions and the package's C-states (model/ucm_cores.h;
 * the cores' C0 is the PCU's POWER_STATE_OCCUPANCY), on the PCU's clock:
 * package C2, C3 and C6, the states the PCU's PKG_C_STATE_RESIDENCY
 * events count (Intel's v2 list; MSR_PKG_CST_CONFIG_CONTROL's limit goes
 * no deeper than C6) */
static const struct ucm_subev s_pkg_state[] = { { "C2", { 0x01 } }, { "C3", { 0x02 } }, { "C6", { 0x04 } } };
static const struct ucm_evcode c_cores[] = { UCM_CORES_INST_CODE(12), UCM_CORES_PKG_CODE(s_pkg_state) };
static const struct ucm_boxtype bt_cores = UCM_CORES_BOXTYPE(c_cores, IVT_CLK_PCLK);

#define CB(n) { &ivt_bt_cbo, n, 0, 0, 3 + (n), 0xD00 + 0x20 * (n), 0, NULL }
static const struct ucm_boxinst ivt_boxes[] = {
	{ &bt_global, 0, 0, 0, -1, 0, 0, NULL },
	{ &ivt_bt_ubox, 0, 0, 0, 1, 0, 0, ubox_gbits },
	CB(0), CB(1), CB(2), CB(3), CB(4), CB(5), CB(6), CB(7),
	CB(8), CB(9), CB(10), CB(11), CB(12), CB(13), CB(14),
	{ &ivt_bt_pcu, 0, 0, 0, 2, 0, 0, NULL },
	{ &bt_ubox_pci, 0, 11, 0, -1, 0, 0, NULL },
	{ &ivt_bt_ha, 0, 14, 1, 18, 0, 0x0E30, NULL },
	{ &ivt_bt_ha, 1, 28, 1, 19, 0, 0x0E38, NULL },
	{ &bt_ha_main, 0, 14, 0, -1, 0, 0x0EA0, NULL },
	{ &bt_ha_main, 1, 28, 0, -1, 0, 0x0E60, NULL },
	{ &ivt_bt_imc, 0, 16, 4, 20, 0, 0x0EB4, NULL },
	{ &ivt_bt_imc, 1, 16, 5, 20, 0, 0x0EB5, NULL },
	{ &ivt_bt_imc, 2, 16, 0, 20, 0, 0x0EB0, NULL },
	{ &ivt_bt_imc, 3, 16, 1, 20, 0, 0x0EB1, NULL },
	{ &ivt_bt_imc, 4, 30, 4, 21, 0, 0x0EF4, NULL },
	{ &ivt_bt_imc, 5, 30, 5, 21, 0, 0x0EF5, NULL },
	{ &ivt_bt_imc, 6, 30, 0, 21, 0, 0x0EF0, NULL },
	{ &ivt_bt_imc, 7, 30, 1, 21, 0, 0x0EF1, NULL },
	{ &ivt_bt_qpi, 0, 8, 2, 22, 0, 0x0E32, NULL },
	{ &ivt_bt_qpi, 1, 9, 2, 23, 0, 0x0E33, NULL },
	{ &ivt_bt_qpi, 2, 24, 2, -1, 0, 0x0E3A, NULL },
	{ &bt_qpi_mm, 0, 8, 6, -1, 0, 0x0E86, NULL },
	{ &bt_qpi_mm, 1, 9, 6, -1, 0, 0x0E96, NULL },
	{ &bt_qpi_mm, 2, 24, 6, -1, 0, 0x0EC6, NULL },
	{ &bt_qpi_misc, 0, 8, 0, -1, 0, 0x0E80, NULL },
	{ &bt_qpi_misc, 1, 9, 0, -1, 0, 0x0E90, NULL },
	{ &bt_qpi_misc, 2, 24, 0, -1, 0, 0x0E40, NULL },
	{ &bt_pcu_pci, 0, 10, 0, -1, 0, 0x0EC0, NULL },
	{ &bt_pcu_pci, 1, 10, 1, -1, 0, 0x0EC1, NULL },
	{ &bt_pcu_pci, 2, 10, 2, -1, 0, 0x0EC2, NULL },
	{ &bt_pcu_pci, 3, 10, 3, -1, 0, 0x0EC3, NULL },
	{ &ivt_bt_r2pcie, 0, 19, 1, 26, 0, 0x0E34, NULL },
	{ &ivt_bt_r3qpi, 0, 19, 5, 24, 0, 0x0E36, NULL },
	{ &ivt_bt_r3qpi, 1, 19, 6, 25, 0, 0x0E37, NULL },
	{ &ivt_bt_r3qpi, 2, 18, 5, -1, 0, 0x0E3E, NULL },
	{ &ivt_bt_irp, 0, 5, 6, -1, 0, 0x0E39, irp_gbits },
	{ &bt_cores, 0, 0, 0, -1, 0, 0, NULL },
};

/* Indexed by IVT_CLK_*: uclk as model/snbep (2.7 GHz, 3.8 GHz worst
 * case); dclk 933 MHz, the DDR3-1866 the E5-2697 v2 supports; pclk the
 * PCU's fixed 800 MHz; qclk 1/8 of the 8.0 GT/s link rate (V18). */
static const struct ucm_clockdef ivt_clocks[] = {
	{ "uclk", 2700000000ull, 3800000000ull },
	{ "dclk", 933333333ull, 933333333ull },
	{ "pclk", 800000000ull, 800000000ull },
	{ "qclk", 1000000000ull, 1000000000ull },
};

/* Family 6 model 0x3E; the UBox function 0x0E1E identifies it (facts §13). */
static const uint8_t ivt_models[] = { 0x3E };
static const uint16_t ivt_devids[] = { 0x0E1E };
static const uint8_t ivt_bus[] = { 0x3F, 0x7F };

/* ---- other tools' names for these boxes ----
 * Linux perf (arch/x86/events/intel/uncore_snbep.c, IvyTown part; facts
 * only), as for the E5-2600.  The kernel's v2 formats differ: no inv on
 * the CBo, PCU and QPI PMUs (its other PCI boxes list inv, but its event
 * mask drops bit 23), filter_nid, filter_state and filter_opc at the v2's
 * FILTER/FILTER1 places (config1 = FILTER | FILTER1 << 32), and
 * filter_link and filter_c6, bits the v2's tables reserve (V9): the driver
 * accepts those two only as 0 (docs/platform-ivt.md).  Two home agents:
 * uncore_ha_0 and uncore_ha_1. */
static const struct ucm_perfcode perf_ubox_codes[] = { { 0xFF, &ivt_bt_ubox, 0x0FF } };
static const struct ucm_perfcode perf_imc_codes[] = { { 0xFF, &ivt_bt_imc, 0x0FF } };
static const struct ucm_perfalias perf_imc_aliases[] = {
	UCM_XEON_PERF_IMC_ALIASES,
};
static const struct ucm_perfpmu ivt_perfpmus[] = {
	{ "uncore_ubox", &ivt_bt_ubox, 0,
	  UCM_XEON_PERF_FMT_UBOX,
	  ARRAY_LEN(perf_ubox_codes), 0, perf_ubox_codes, NULL, "Linux uncore_snbep.c ivbep_uncore_ubox" },
	{ "uncore_cbox", &ivt_bt_cbo, 1,
	  "event=config:0-7;umask=config:8-15;edge=config:18;tid_en=config:19;"
	  "thresh=config:24-31;filter_tid=config1:0-4;filter_link=config1:5-8;"
	  "filter_state=config1:17-22;filter_nid=config1:32-47;filter_opc=config1:52-60;"
	  "filter_nc=config1:62;filter_c6=config1:61;filter_isoc=config1:63",
	  0, 0, NULL, NULL, "Linux uncore_snbep.c ivbep_uncore_cbox" },
	{ "uncore_pcu", &ivt_bt_pcu, 0,
	  "event=config:0-7;occ_sel=config:14-15;edge=config:18;thresh=config:24-28;"
	  "occ_invert=config:30;occ_edge=config:14-51;filter_band0=config1:0-7;"
	  "filter_band1=config1:8-15;filter_band2=config1:16-23;filter_band3=config1:24-31",
	  0, 0, NULL, NULL, "Linux uncore_snbep.c ivbep_uncore_pcu" },
	{ "uncore_ha", &ivt_bt_ha, 1,
	  UCM_XEON_PERF_FMT_STD,
	  0, 0, NULL, NULL, "Linux uncore_snbep.c ivbep_uncore_ha" },
	{ "uncore_imc", &ivt_bt_imc, 1,
	  UCM_XEON_PERF_FMT_STD,
	  ARRAY_LEN(perf_imc_codes), ARRAY_LEN(perf_imc_aliases), perf_imc_codes, perf_imc_aliases, "Linux uncore_snbep.c ivbep_uncore_imc" },
	{ "uncore_irp", &ivt_bt_irp, 0,
	  UCM_XEON_PERF_FMT_STD,
	  0, 0, NULL, NULL, "Linux uncore_snbep.c ivbep_uncore_irp" },
	{ "uncore_qpi", &ivt_bt_qpi, 1,
	  "event=config:0-7,21;umask=config:8-15;edge=config:18;thresh=config:24-31;"
	  UCM_XEON_PERF_FMT_QPI_MATCH,
	  0, 0, NULL, NULL, "Linux uncore_snbep.c ivbep_uncore_qpi" },
	{ "uncore_r2pcie", &ivt_bt_r2pcie, 0,
	  UCM_XEON_PERF_FMT_STD,
	  0, 0, NULL, NULL, "Linux uncore_snbep.c ivbep_uncore_r2pcie" },
	{ "uncore_r3qpi", &ivt_bt_r3qpi, 1,
	  UCM_XEON_PERF_FMT_STD,
	  0, 0, NULL, NULL, "Linux uncore_snbep.c ivbep_uncore_r3qpi" },
};
/* Intel's perfmon event file (IVT/events/ivytown_uncore.json): its Unit
 * names. */
static const struct ucm_perfmon_unit ivt_perfmon_units[] = {
	{ "CBO", &ivt_bt_cbo },
	{ "HA", &ivt_bt_ha },
	{ "iMC", &ivt_bt_imc },
	{ "IRP", &ivt_bt_irp },
	{ "PCU", &ivt_bt_pcu },
	{ "QPI LL", &ivt_bt_qpi },
	{ "R2PCIe", &ivt_bt_r2pcie },
	{ "R3QPI", &ivt_bt_r3qpi },
	{ "UBOX", &ivt_bt_ubox },
};


extern const struct ucm_machine ucm_mach_ivt; /* ucm_plat_ivt_mach.c */

/* What the part can carry (docs/platform-ivt.md, "Physical limits"):
 * eight channel PMON boxes, four channels' worth of data. */
static const struct ucm_limits ivt_limits = {
	.dram_channels = 4,
	.dram_mts = 1866,
	.dram_type = "DDR3-1866",
	.dram_cite = "Xeon E5-2600 v2 datasheet, Vol. 1 (329187): four DDR3 channels a socket, "
		     "up to 1866 MT/s (the E5-2697 v2 of V18)",
	.dram_box = "imc",
	.dram_in = { "CAS_COUNT." },
	.llc_lookups = 1,
	.llc_cite = "as the E5-2600 (uncore guide 2.3.5): LLC_LOOKUP's maximum increment is 1 a "
		    "cycle on each CBo",
	.core_lfb = 10,
	.llc_hit_ns = 26 / 2.7,
	.core_cite = "as the E5-2600 (Optimization Reference Manual: Ivy Bridge keeps Sandy Bridge's "
		     "10 line fill buffers and LLC latency): 26 core cycles at 2.7 GHz",
	.qpi_links = 2,
	.qpi_mts = 8000,
	.qpi_cite = "Xeon E5-2600 v2 datasheet, Vol. 1 (329187): QPI 1.1 at up to 8.0 GT/s; a flit "
		    "each 4 transfers, 8 data bytes a data flit (uncore guide 2.7)",
};

const struct ucm_platform ucm_plat_ivt = {
	.name = "ivt",
	.alias = "ivybridge-ep",
	.title = "Intel Xeon E5-2600 v2 (Ivy Bridge-EP)",
	.cpu_family = 6,
	.ncpu_models = ARRAY_LEN(ivt_models),
	.cpu_models = ivt_models,
	.pci_vendor = 0x8086,
	.ndevids = ARRAY_LEN(ivt_devids),
	.devids = ivt_devids,
	.max_sockets = 2,
	.ncores = 12,
	.nclocks = ARRAY_LEN(ivt_clocks),
	.nboxes = ARRAY_LEN(ivt_boxes),
	.pci_bus = ivt_bus,
	.clocks = ivt_clocks,
	.boxes = ivt_boxes,
	.nevents = IVT_NEVENTS,
	.events = ivt_events,
	/* 1 to 15 CBos by part: no count register, the driver probes them */
	.counted = &ivt_bt_cbo,
	/* per socket: uncore clock, LLC reads and local misses, home-agent
	 * requests, DRAM reads and writes, the DCLK, cores in C0, QPI data */
	.default_events = "UNC_U_CLOCKTICKS,UNC_C_LLC_LOOKUP.DATA_READ,UNC_C_TOR_INSERTS.MISS_LOCAL,"
			  "UNC_H_REQUESTS.READS,UNC_H_REQUESTS.WRITES,UNC_M_CAS_COUNT.RD,"
			  "UNC_M_CAS_COUNT.WR,UNC_M_DCLOCKTICKS,UNC_P_POWER_STATE_OCCUPANCY.CORES_C0,"
			  "UNC_Q_TxL_FLITS_G0.DATA",
	.sockets_default = 2,
	.nmetrics = IVT_NMETRICS,
	.metrics = ivt_metrics,
	.doc = "docs/platform-ivt.md",
	.machine = &ucm_mach_ivt,
	.nperfpmus = ARRAY_LEN(ivt_perfpmus),
	.nperfmon_units = ARRAY_LEN(ivt_perfmon_units),
	.perfpmus = ivt_perfpmus,
	.perfmon_units = ivt_perfmon_units,
	.limits = &ivt_limits,
	/* an overflow message is sent on a status bit's rise, and freezes
	 * the socket (2.7.2.1, 2.1.4; V1) */
	.ovf_flags = UCM_OVF_EDGE | UCM_OVF_FREEZE,
};
