/*
 * ucm_xeon.c - the register layouts ucm_xeon.h declares: PCI header IDs,
 * the UBox node-ID registers, the HA address/opcode match and QPI packet
 * match/mask registers and QPI_RATE_STATUS, which the E5-2600 and the v2
 * lay out alike.  Both node-ID
 * registers are read-only; their other bits are reserved
 * (docs/platform-snbep.md R13).
 */
#include "ucm_xeon.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct ucm_field f_vid[] = { { "VID", 0, 15, UCM_A_RO, UCM_R_VALUE, 0 } };
const struct ucm_layout ucm_xeon_l_vid = { "VID", "PCI header", 16, 1, f_vid };
static const struct ucm_field f_did[] = { { "DID", 0, 15, UCM_A_RO, UCM_R_VALUE, 0 } };
const struct ucm_layout ucm_xeon_l_did = { "DID", "PCI header", 16, 1, f_did };
static const struct ucm_field f_rid_ccr[] = {
	{ "RID", 0, 7, UCM_A_RO, UCM_R_VALUE, 0 }, { "CCR", 8, 31, UCM_A_RO, UCM_R_VALUE, 1 },
};
const struct ucm_layout ucm_xeon_l_rid_ccr = { "RID_CCR", "PCI header", 32, ARRAY_LEN(f_rid_ccr), f_rid_ccr };
/* cache line size, latency timer (no meaning on these functions), header
 * type and BIST (none) */
static const struct ucm_field f_hdr[] = {
	{ "CLSR", 0, 7, UCM_A_RO, UCM_R_VALUE, 0 }, { "PLAT", 8, 15, UCM_A_RO, UCM_R_VALUE, 1 },
	{ "HDR", 16, 23, UCM_A_RO, UCM_R_VALUE, 2 }, { "BIST", 24, 31, UCM_A_RO, UCM_R_VALUE, 3 },
};
const struct ucm_layout ucm_xeon_l_hdr = { "HDR", "PCI header", 32, ARRAY_LEN(f_hdr), f_hdr };
static const struct ucm_field f_svid_sid[] = {
	{ "SVID", 0, 15, UCM_A_RO, UCM_R_VALUE, 0 }, { "SDID", 16, 31, UCM_A_RO, UCM_R_VALUE, 1 },
};
const struct ucm_layout ucm_xeon_l_svid_sid = {
	"SVID_SID", "PCI header", 32, ARRAY_LEN(f_svid_sid), f_svid_sid
};

static const struct ucm_field f_nodeid[] = { { "NODEID", 0, 2, UCM_A_RO, UCM_R_VALUE, 0 } };
const struct ucm_layout ucm_xeon_l_nodeid = {
	"CPUNODEID", "public facts (Linux uncore_snbep.c)", 32, ARRAY_LEN(f_nodeid), f_nodeid
};
static const struct ucm_field f_nodemap[] = {
	{ "NID0", 0, 2, UCM_A_RO, UCM_R_VALUE, 0 }, { "NID1", 3, 5, UCM_A_RO, UCM_R_VALUE, 1 },
	{ "NID2", 6, 8, UCM_A_RO, UCM_R_VALUE, 2 }, { "NID3", 9, 11, UCM_A_RO, UCM_R_VALUE, 3 },
	{ "NID4", 12, 14, UCM_A_RO, UCM_R_VALUE, 4 }, { "NID5", 15, 17, UCM_A_RO, UCM_R_VALUE, 5 },
	{ "NID6", 18, 20, UCM_A_RO, UCM_R_VALUE, 6 }, { "NID7", 21, 23, UCM_A_RO, UCM_R_VALUE, 7 },
};
const struct ucm_layout ucm_xeon_l_nodemap = {
	"GIDNIDMAP", "public facts (Linux uncore_snbep.c)", 32, ARRAY_LEN(f_nodemap), f_nodemap
};

/* HA address/opcode match, Tables 2-37..2-39: the HA's filter registers
 * (ADDR_OPC_MATCH.FILT, 2.4.3).  "RWS" (sticky read/write) is RW for the
 * model; Table 2-39's header names the Attr column "HW Reset Val" twice,
 * its row reads RWS (docs/platform-snbep.md R10).  lo_addr holds address bits 31:6, hi_addr
 * 45:32; the compare skips bits 11:6 (the note to Table 2-39).  opc holds
 * the class code's bits 1:0 above the 4-bit opcode (snbep R17). */
static const struct ucm_field f_h_opc[] = {
	{ "opc", 0, 5, UCM_A_RW, UCM_R_FILT_OPC, 0 },
};
const struct ucm_layout ucm_xeon_l_h_opc = {
	"HA_PCI_PMON_BOX_OPCODEMATCH", "SNB-EP Table 2-37; IVT alike (ivt-facts §7)", 32, ARRAY_LEN(f_h_opc), f_h_opc
};
static const struct ucm_field f_h_addr1[] = {
	{ "hi_addr", 0, 13, UCM_A_RW, UCM_R_FILT_ADDR, UCM_FA_MATCH(32) },
};
const struct ucm_layout ucm_xeon_l_h_addr1 = {
	"HA_PCI_PMON_BOX_ADDRMATCH1", "SNB-EP Table 2-38; IVT alike (ivt-facts §7)", 32, ARRAY_LEN(f_h_addr1), f_h_addr1
};
static const struct ucm_field f_h_addr0[] = {
	{ "lo_addr", 6, 31, UCM_A_RW, UCM_R_FILT_ADDR, UCM_FA_MATCH(6) },
};
const struct ucm_layout ucm_xeon_l_h_addr0 = {
	"HA_PCI_PMON_BOX_ADDRMATCH0", "SNB-EP Table 2-39; IVT alike (ivt-facts §7)", 32, ARRAY_LEN(f_h_addr0), f_h_addr0
};

/* QPI packet match/mask, Tables 2-88..2-91: the QPI box's filter registers
 * (CTO_COUNT, 2.7.3.3).  The tables have no Attr column: the fields are RW
 * (software programs them, 2.7.3.3 a); the "---" rows ("Must write to 0
 * else behavior is undefined") are reserved (snbep R9).  Each field holds the
 * packet attribute of its role from the bit its UCM_FA_* names: the remote
 * node ID is split, bits 3:0 in register 1, bit 4 in register 0. */
#define Q_MM1(FA)                                                                  \
	{ "RDS", 16, 19, UCM_A_RW, UCM_R_FILT_RDS, FA(0) },                        \
	{ "RNID_3_0", 0, 3, UCM_A_RW, UCM_R_FILT_RNID, FA(0) }
#define Q_MM0(FA)                                                                  \
	{ "RNID_4", 31, 31, UCM_A_RW, UCM_R_FILT_RNID, FA(4) },                    \
	{ "DNID", 13, 17, UCM_A_RW, UCM_R_FILT_DNID, FA(0) },                      \
	{ "MC", 9, 12, UCM_A_RW, UCM_R_FILT_MC, FA(0) },                           \
	{ "OPC", 5, 8, UCM_A_RW, UCM_R_FILT_PKT_OPC, FA(0) },                      \
	{ "VNW", 3, 4, UCM_A_RW, UCM_R_FILT_VNW, FA(0) }
static const struct ucm_field f_q_match1[] = { Q_MM1(UCM_FA_MATCH) };
static const struct ucm_field f_q_match0[] = { Q_MM0(UCM_FA_MATCH) };
static const struct ucm_field f_q_mask1[] = { Q_MM1(UCM_FA_MASK) };
static const struct ucm_field f_q_mask0[] = { Q_MM0(UCM_FA_MASK) };
const struct ucm_layout ucm_xeon_l_q_match1 = {
	"Q_Py_PCI_PMON_PKT_MATCH1", "SNB-EP Table 2-88; IVT p.135", 32, ARRAY_LEN(f_q_match1), f_q_match1
};
const struct ucm_layout ucm_xeon_l_q_match0 = {
	"Q_Py_PCI_PMON_PKT_MATCH0", "SNB-EP Table 2-89; IVT p.135", 32, ARRAY_LEN(f_q_match0), f_q_match0
};
const struct ucm_layout ucm_xeon_l_q_mask1 = {
	"Q_Py_PCI_PMON_PKT_MASK1", "SNB-EP Table 2-90; IVT p.136", 32, ARRAY_LEN(f_q_mask1), f_q_mask1
};
const struct ucm_layout ucm_xeon_l_q_mask0 = {
	"Q_Py_PCI_PMON_PKT_MASK0", "SNB-EP Table 2-91; IVT p.136", 32, ARRAY_LEN(f_q_mask0), f_q_mask0
};

/* Table 2-93 QPI_RATE_STATUS: RO-V fields; 31:5 and 3 reserved. */
static const struct ucm_field f_q_rate[] = {
	{ "slow_mode", 4, 4, UCM_A_RO, UCM_R_NONE, 0 },
	{ "qpi_rate", 0, 2, UCM_A_RO, UCM_R_VALUE, 0 },
};
const struct ucm_layout ucm_xeon_l_q_rate = {
	"QPI_RATE_STATUS", "SNB-EP Table 2-93; IVT p.138", 32, ARRAY_LEN(f_q_rate), f_q_rate
};
