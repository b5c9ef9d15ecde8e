/*
 * ucm_plat_skl.c - the 6th Generation Intel Core (Skylake client) uncore as
 * data: registers of Table 2-1 with the field tables 2-2..2-8, the host
 * bridge MCHBAR (3.3), the IMC free-running counters (Table 3-3) and the
 * events of Tables 3-1..3-3.  Decisions where the manual is unclear are
 * recorded in docs/platform-skl.md; the comments below point there.
 */
#include <stddef.h>

#include "ucm_cores.h"
#include "ucm_types.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- register layouts ---- */

/* Table 2-2 MSR_UNC_PERF_GLOBAL_CTRL */
static const struct ucm_field f_global_ctrl[] = {
	{ "FRZ_ON_PMI", 31, 31, UCM_A_RW, UCM_R_FRZ_ON_PMI, 0 },
	{ "WAKE_ON_PMI", 30, 30, UCM_A_RW, UCM_R_WAKE_ON_PMI, 0 },
	{ "EN", 29, 29, UCM_A_RW, UCM_R_GLOBAL_EN, 0 },
	{ "PMI_SEL_CORE3", 3, 3, UCM_A_RW, UCM_R_PMI_SEL, 3 },
	{ "PMI_SEL_CORE2", 2, 2, UCM_A_RW, UCM_R_PMI_SEL, 2 },
	{ "PMI_SEL_CORE1", 1, 1, UCM_A_RW, UCM_R_PMI_SEL, 1 },
	{ "PMI_SEL_CORE0", 0, 0, UCM_A_RW, UCM_R_PMI_SEL, 0 },
};
static const struct ucm_layout l_global_ctrl = {
	"GLOBAL_CTRL", "SKL Table 2-2", 64, ARRAY_LEN(f_global_ctrl), f_global_ctrl
};

/* Table 2-3 MSR_UNC_PERF_GLOBAL_STATUS.  CBO_CTR_OVF at bit 3, not the
 * table's bit 31 (which contradicts its own "63:4 reserved" row): see
 * docs/platform-skl.md, decision D1. */
static const struct ucm_field f_global_status[] = {
	{ "CBO_CTR_OVF", 3, 3, UCM_A_RW1C, UCM_R_OVF_STATUS, 3 },
	{ "ARB_CTR_OVF", 1, 1, UCM_A_RW1C, UCM_R_OVF_STATUS, 1 },
	{ "FIXED_CTR_OVF", 0, 0, UCM_A_RW1C, UCM_R_OVF_STATUS, 0 },
};
static const struct ucm_layout l_global_status = {
	"GLOBAL_STATUS", "SKL Table 2-3", 64, ARRAY_LEN(f_global_status), f_global_status
};

/* Table 2-4 MSR_UNC_PERF_FIXED_CTRL */
static const struct ucm_field f_fixed_ctrl[] = {
	{ "CNT_EN", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "OVF_EN", 20, 20, UCM_A_RW, UCM_R_OVF_EN, 0 },
};
static const struct ucm_layout l_fixed_ctrl = {
	"FIXED_CTRL", "SKL Table 2-4", 64, ARRAY_LEN(f_fixed_ctrl), f_fixed_ctrl
};

/* Table 2-5 MSR_UNC_PERF_FIXED_CTR: 48-bit */
static const struct ucm_field f_fixed_ctr[] = {
	{ "CTR_VAL", 0, 47, UCM_A_RW, UCM_R_VALUE, 0 },
};
static const struct ucm_layout l_fixed_ctr = {
	"FIXED_CTR", "SKL Table 2-5", 64, ARRAY_LEN(f_fixed_ctr), f_fixed_ctr
};

/* Table 2-6 MSR_UNC_CBO_CONFIG (decision D3 on its value) */
static const struct ucm_field f_cbo_config[] = {
	{ "NO_CBO_BANKS", 0, 3, UCM_A_RO, UCM_R_NBOXES, 0 },
};
static const struct ucm_layout l_cbo_config = {
	"CBO_CONFIG", "SKL Table 2-6", 64, ARRAY_LEN(f_cbo_config), f_cbo_config
};

/* Table 2-7 PERFEVTSEL, shared by CBo and ARB */
static const struct ucm_field f_evtsel[] = {
	{ "THR", 24, 28, UCM_A_RW, UCM_R_THRESH, 0 },
	{ "INV", 23, 23, UCM_A_RW, UCM_R_INV, 0 },
	{ "EN", 22, 22, UCM_A_RW, UCM_R_EN, 0 },
	{ "OVF_EN", 20, 20, UCM_A_RW, UCM_R_OVF_EN, 0 },
	{ "E", 18, 18, UCM_A_RW, UCM_R_EDGE, 0 },
	{ "UMASK", 8, 15, UCM_A_RW, UCM_R_UMASK, 0 },
	{ "EVT_SEL", 0, 7, UCM_A_RW, UCM_R_EVSEL, 0 },
};
static const struct ucm_layout l_evtsel = {
	"PERFEVTSEL", "SKL Table 2-7", 64, ARRAY_LEN(f_evtsel), f_evtsel
};

/* Table 2-8 PERFCTR: 44-bit */
static const struct ucm_field f_perfctr[] = {
	{ "CTR_VAL", 0, 43, UCM_A_RW, UCM_R_VALUE, 0 },
};
static const struct ucm_layout l_perfctr = {
	"PERFCTR", "SKL Table 2-8", 64, ARRAY_LEN(f_perfctr), f_perfctr
};

/* Host bridge 0:0.0 configuration space (3.3; IDs from public facts) */
static const struct ucm_field f_vid[] = { { "VID", 0, 15, UCM_A_RO, UCM_R_VALUE, 0 } };
static const struct ucm_layout l_vid = { "VID", "PCI header", 16, 1, f_vid };
static const struct ucm_field f_did[] = { { "DID", 0, 15, UCM_A_RO, UCM_R_VALUE, 0 } };
static const struct ucm_layout l_did = { "DID", "PCI header", 16, 1, f_did };
/* MCHBAR: enable bit 0, base 34:15 -- exactly the 0x0007FFFF8000 mask of
 * 3.3 (and .bar_mask below), so that every stored base bit is decoded;
 * bits 63:35 and 14:1 are reserved (D14). */
static const struct ucm_field f_mchbar[] = {
	{ "MCHBAR", 15, 34, UCM_A_RW, UCM_R_BAR_BASE, 0 },
	{ "MCHBAREN", 0, 0, UCM_A_RW, UCM_R_BAR_EN, 0 },
};
static const struct ucm_layout l_mchbar = { "MCHBAR", "SKL 3.3", 64, ARRAY_LEN(f_mchbar), f_mchbar };

/* Table 3-3: 32-bit free-running counters, read-only */
static const struct ucm_field f_imc_ctr[] = { { "COUNT", 0, 31, UCM_A_RO, UCM_R_VALUE, 0 } };
static const struct ucm_layout l_imc_ctr = { "IMC_CTR", "SKL Table 3-3", 32, 1, f_imc_ctr };

/* ---- event codes (model inputs) ---- */

/* Table 3-1 XSNP_RESPONSE: umask 7:4 selects who initiated the snoop,
 * 3:0 the response; a sub-event counts when both groups select it. */
static const struct ucm_subev s_xsnp[] = {
	{ "XCORE_MISS", { 0x40, 0x01 } }, { "XCORE_HIT", { 0x40, 0x04 } },
	{ "XCORE_HITM", { 0x40, 0x08 } }, { "EVICTION_MISS", { 0x80, 0x01 } },
	{ "EVICTION_HIT", { 0x80, 0x04 } }, { "EVICTION_HITM", { 0x80, 0x08 } },
};
/* Table 3-1 CACHE_LOOKUP: umask 7:4 request type (0x10 read, 0x20 write,
 * 0x80 any), 3:0 line state (0x1 M, 0x2 E, 0x4 S, 0x8 I).  OTHER are
 * requests that are neither read nor write; only "any" selects them. */
#define LOOKUP(r, bits)                                                      \
	{ r "_M", { bits, 0x01 } }, { r "_E", { bits, 0x02 } },             \
	{ r "_S", { bits, 0x04 } }, { r "_I", { bits, 0x08 } }
static const struct ucm_subev s_lookup[] = {
	LOOKUP("READ", 0x90), LOOKUP("WRITE", 0xA0), LOOKUP("OTHER", 0x80),
};
static const struct ucm_evcode c_cbo[] = {
	{ 0x22, "XSNP_RESPONSE", 1, 0x3, 2, { 0xF0, 0x0F }, ARRAY_LEN(s_xsnp), 0, s_xsnp,
	  "SKL Table 3-1", 0, 0, NULL, NULL },
	{ 0x34, "CACHE_LOOKUP", 1, 0x3, 2, { 0xF0, 0x0F }, ARRAY_LEN(s_lookup), 0, s_lookup,
	  "SKL Table 3-1", 0, 0, NULL, NULL },
};

/* Table 3-2.  TRK_OCCUPANCY adds the number of valid tracker entries each
 * cycle (max 32: decision D6); TRK_REQUESTS.ALL (0x01) counts writes and
 * the rest, WRITES (0x20) only writes.  Beyond the manual, Intel's event
 * file (SKL skylake_uncore.json) defines umask 0x02 of both codes,
 * TRK_OCCUPANCY.DATA_READ and TRK_REQUESTS.DATA_READ (also DRD_DIRECT):
 * the core's data reads, a part of ALL (decision D16).  DATA_READS is
 * that input; ALL (occupancy) and NONWRITES (requests) are the entries
 * that are not data reads. */
static const struct ucm_subev s_trk_occ[] = { { "ALL", { 0x01 } }, { "DATA_READS", { 0x03 } } };
static const struct ucm_subev s_trk_req[] = {
	{ "WRITES", { 0x21 } }, { "NONWRITES", { 0x01 } }, { "DATA_READS", { 0x03 } },
};
static const struct ucm_subev s_coh_req[] = { { "ALL", { 0x01 } } };
static const struct ucm_evcode c_arb[] = {
	{ 0x80, "TRK_OCCUPANCY", 32, 0x1, 1, { 0xFF }, ARRAY_LEN(s_trk_occ), 0, s_trk_occ,
	  "SKL Table 3-2; umask 0x02: Intel's event file (D16)", 0, 0, NULL, NULL },
	{ 0x81, "TRK_REQUESTS", 1, 0x3, 1, { 0xFF }, ARRAY_LEN(s_trk_req), 0, s_trk_req,
	  "SKL Table 3-2; umask 0x02: Intel's event file (D16)", 0, 0, NULL, NULL },
	{ 0x84, "COH_TRK_REQUESTS", 1, 0x3, 1, { 0xFF }, 1, 0, s_coh_req, "SKL Table 3-2", 0, 0, NULL, NULL },
};

static const struct ucm_evcode c_clock[] = {
	{ 0x00, "CLOCK", 1, 0x1, 1, { 0xFF }, 0, UCM_EC_CLOCK, NULL, "SKL Table 3-2", 0, 0, NULL, NULL },
};
static const uint8_t fixed_clock[] = { 0 };

/* Table 3-3: codes are the counters' offsets from the BAR.  At most one
 * 64-byte request per uclk cycle each (decision D7). */
static const struct ucm_evcode c_imc[] = {
	{ 0x5040, "DRAM_GT_REQUESTS", 1, 0x01, 1, { 0xFF }, 0, 0, NULL, "SKL Table 3-3", 0, 0, NULL, NULL },
	{ 0x5044, "DRAM_IA_REQUESTS", 1, 0x02, 1, { 0xFF }, 0, 0, NULL, "SKL Table 3-3", 0, 0, NULL, NULL },
	{ 0x5048, "DRAM_IO_REQUESTS", 1, 0x04, 1, { 0xFF }, 0, 0, NULL, "SKL Table 3-3", 0, 0, NULL, NULL },
	{ 0x5050, "DRAM_DATA_READS", 1, 0x08, 1, { 0xFF }, 0, 0, NULL, "SKL Table 3-3", 0, 0, NULL, NULL },
	{ 0x5054, "DRAM_DATA_WRITES", 1, 0x10, 1, { 0xFF }, 0, 0, NULL, "SKL Table 3-3", 0, 0, NULL, NULL },
};
static const uint8_t fixed_imc[] = { 0, 1, 2, 3, 4 };

/* ---- box types ---- */

static const struct ucm_regdef r_global[] = {
	{ "MSR_UNC_PERF_GLOBAL_CTRL", 0xE01, UCM_K_GLOBAL_CTL, 0, &l_global_ctrl, 0 },
	{ "MSR_UNC_PERF_GLOBAL_STATUS", 0xE02, UCM_K_GLOBAL_STATUS, 0, &l_global_status, 0 },
	{ "MSR_UNC_CBO_CONFIG", 0x396, UCM_K_NBOXES, 0, &l_cbo_config, 0 },
};
static const struct ucm_regdef r_clock[] = {
	{ "MSR_UNC_PERF_FIXED_CTRL", 0x394, UCM_K_CTL, 0, &l_fixed_ctrl, 0 },
	{ "MSR_UNC_PERF_FIXED_CTR", 0x395, UCM_K_CTR, 0, &l_fixed_ctr, 0 },
};
static const struct ucm_regdef r_arb[] = {
	{ "MSR_UNC_ARB_PERFCTR0", 0x0, UCM_K_CTR, 0, &l_perfctr, 0 },
	{ "MSR_UNC_ARB_PERFCTR1", 0x1, UCM_K_CTR, 1, &l_perfctr, 0 },
	{ "MSR_UNC_ARB_PERFEVTSEL0", 0x2, UCM_K_CTL, 0, &l_evtsel, 0 },
	{ "MSR_UNC_ARB_PERFEVTSEL1", 0x3, UCM_K_CTL, 1, &l_evtsel, 0 },
};
static const struct ucm_regdef r_cbo[] = {
	{ "MSR_UNC_CBO_%u_PERFEVTSEL0", 0x0, UCM_K_CTL, 0, &l_evtsel, 0 },
	{ "MSR_UNC_CBO_%u_PERFEVTSEL1", 0x1, UCM_K_CTL, 1, &l_evtsel, 0 },
	{ "MSR_UNC_CBO_%u_PERFCTR0", 0x6, UCM_K_CTR, 0, &l_perfctr, 0 },
	{ "MSR_UNC_CBO_%u_PERFCTR1", 0x7, UCM_K_CTR, 1, &l_perfctr, 0 },
};
static const struct ucm_regdef r_hostbridge[] = {
	{ "HOSTBRIDGE_VID", 0x00, UCM_K_PLAIN, 0, &l_vid, 0x8086 },
	{ "HOSTBRIDGE_DID", 0x02, UCM_K_DEVID, 0, &l_did, 0 },
	{ "MCHBAR", 0x48, UCM_K_BAR, 0, &l_mchbar, 0 },
};
static const struct ucm_regdef r_imc[] = {
	{ "DRAM_GT_REQUESTS", 0x0, UCM_K_CTR, 0, &l_imc_ctr, 0 },
	{ "DRAM_IA_REQUESTS", 0x4, UCM_K_CTR, 1, &l_imc_ctr, 0 },
	{ "DRAM_IO_REQUESTS", 0x8, UCM_K_CTR, 2, &l_imc_ctr, 0 },
	{ "DRAM_DATA_READS", 0x10, UCM_K_CTR, 3, &l_imc_ctr, 0 },
	{ "DRAM_DATA_WRITES", 0x14, UCM_K_CTR, 4, &l_imc_ctr, 0 },
};

static const struct ucm_boxtype bt_global = {
	"global", "Uncore global control", UCM_MSR, 0, 0, UCM_BT_GLOBAL, 1, 1, 1,
	ARRAY_LEN(r_global), 0, r_global, NULL, NULL, "SKL 2.2", 0
};
static const struct ucm_boxtype bt_clock = {
	"clock", "Fixed UCLK counter", UCM_MSR, 1, 0, 0, 1, 1, 1,
	ARRAY_LEN(r_clock), ARRAY_LEN(c_clock), r_clock, c_clock, fixed_clock, "SKL 2.3", 0
};
static const struct ucm_boxtype bt_arb = {
	"arb", "Arbitration unit", UCM_MSR, 2, 0, 0, 1, 1, 1,
	ARRAY_LEN(r_arb), ARRAY_LEN(c_arb), r_arb, c_arb, NULL, "SKL 2.4", 0
};
static const struct ucm_boxtype bt_cbo = {
	"cbo", "C-Box (LLC slice)", UCM_MSR, 2, 0, 0, 1, 4, 4,
	ARRAY_LEN(r_cbo), ARRAY_LEN(c_cbo), r_cbo, c_cbo, NULL, "SKL 2.4", 0
};
static const struct ucm_boxtype bt_hostbridge = {
	"hostbridge", "Host bridge 0:0.0", UCM_PCI, 0, 0, 0, 1, 1, 1,
	ARRAY_LEN(r_hostbridge), 0, r_hostbridge, NULL, NULL, "SKL 3.3", 0
};
static const struct ucm_boxtype bt_imc = {
	"imc", "IMC free-running counters", UCM_MMIO, 5, 0, UCM_BT_FREERUN, 1, 1, 1,
	ARRAY_LEN(r_imc), ARRAY_LEN(c_imc), r_imc, c_imc, fixed_imc, "SKL 3.3", 0
};

/* the four cores: their states and instructions (model/ucm_cores.h), on
 * the uclk, the part's one clock domain */
static const struct ucm_subev s_core_state[] = {
	{ "C0", { 0x01 } }, { "C3", { 0x02 } }, { "C6", { 0x04 } }, { "C7", { 0x08 } },
};
/* the package's C-states that its cores' states reach (SDM Vol. 4, Table
 * 2-39's MSR_PKG_C2..C7_RESIDENCY); C8-C10 also need the display and the
 * platform idle, which the model does not have (docs/invariants.md); and
 * ANY_C0, the cycles some core is in C0 (MSR_PKG_ANY_CORE_C0_RES), never
 * with a package C-state */
static const struct ucm_subev s_pkg_state[] = {
	{ "C2", { 0x01 } }, { "C3", { 0x02 } }, { "C6", { 0x04 } }, { "C7", { 0x08 } }, { "ANY_C0", { 0x10 } },
};
static const struct ucm_evcode c_cores[] = {
	UCM_CORES_STATE_CODE(4, s_core_state),
	UCM_CORES_INST_CODE(4),
	UCM_CORES_PKG_CODE(s_pkg_state),
};
static const struct ucm_boxtype bt_cores = UCM_CORES_BOXTYPE(c_cores, 0);

static const struct ucm_boxinst skl_boxes[] = {
	{ &bt_global, 0, 0, 0, -1, 0, 0, NULL },
	{ &bt_clock, 0, 0, 0, 0, 0, 0, NULL },
	{ &bt_arb, 0, 0, 0, 1, 0x3B0, 0, NULL },
	{ &bt_cbo, 0, 0, 0, 3, 0x700, 0, NULL },
	{ &bt_cbo, 1, 0, 0, 3, 0x710, 0, NULL },
	{ &bt_cbo, 2, 0, 0, 3, 0x720, 0, NULL },
	{ &bt_cbo, 3, 0, 0, 3, 0x730, 0, NULL },
	{ &bt_hostbridge, 0, 0, 0, -1, 0, 0, NULL },
	{ &bt_imc, 0, 0, 0, -1, 0x5040, 0, NULL },
	{ &bt_cores, 0, 0, 0, -1, 0, 0, NULL },
};

/* ---- named events: Tables 3-1, 3-2, 3-3 ---- */

static const struct ucm_event skl_events[] = {
	{ "UNC_CBO_XSNP_RESPONSE.MISS_XCORE", NULL, &bt_cbo, 0x22, 0x41, 0,
	  "A cross-core snoop initiated by this CBo due to processor core memory request which misses in some processor core.",
	  "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_XSNP_RESPONSE.MISS_EVICTION", NULL, &bt_cbo, 0x22, 0x81, 0,
	  "A cross-core snoop resulted from LLC Eviction which misses in some processor core.",
	  "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_XSNP_RESPONSE.HIT_XCORE", NULL, &bt_cbo, 0x22, 0x44, 0,
	  "A cross-core snoop initiated by this CBo due to processor core memory request which hits a non-modified line in some processor core.",
	  "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_XSNP_RESPONSE.HITM_XCORE", NULL, &bt_cbo, 0x22, 0x48, 0,
	  "A cross-core snoop initiated by this CBo due to processor core memory request which hits a modified line in some processor core.",
	  "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_M", NULL, &bt_cbo, 0x34, 0x21, 0,
	  "LLC lookup write request that accesses cache and found line in M-state.", "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_M", NULL, &bt_cbo, 0x34, 0x81, 0,
	  "LLC lookup any request that accesses cache and found line in M-state.", "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_CACHE_LOOKUP.READ_I", NULL, &bt_cbo, 0x34, 0x18, 0,
	  "LLC lookup read request that accesses cache and found line in I-state.", "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_I", NULL, &bt_cbo, 0x34, 0x88, 0,
	  "LLC lookup any request that accesses cache and found line in I-state.", "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_CACHE_LOOKUP.READ_MESI", NULL, &bt_cbo, 0x34, 0x1F, 0,
	  "LLC lookup read request that accesses cache and found line in any MESI-state.", "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_MESI", NULL, &bt_cbo, 0x34, 0x2F, 0,
	  "LLC lookup write request that accesses cache and found line in MESI-state.", "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_MESI", NULL, &bt_cbo, 0x34, 0x8F, 0,
	  "LLC lookup any request that accesses cache and found line in MESI-state.", "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_CACHE_LOOKUP.ANY_ES", NULL, &bt_cbo, 0x34, 0x86, 0,
	  "LLC lookup any request that accesses cache and found line in E or S-state.", "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_CACHE_LOOKUP.READ_ES", NULL, &bt_cbo, 0x34, 0x16, 0,
	  "LLC lookup read request that accesses cache and found line in E or S-state.", "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_CBO_CACHE_LOOKUP.WRITE_ES", NULL, &bt_cbo, 0x34, 0x26, 0,
	  "LLC lookup write request that accesses cache and found line in E or S-state.", "SKL Table 3-1", 0, 0, 0, NULL },
	{ "UNC_ARB_TRK_OCCUPANCY.ALL", NULL, &bt_arb, 0x80, 0x01, 0,
	  "Count cycles of outgoing, valid entries from cores.", "SKL Table 3-2", 0, 0, 0, NULL },
	{ "UNC_ARB_TRK_REQUESTS.ALL", NULL, &bt_arb, 0x81, 0x01, 0,
	  "Total number of core outgoing entries allocated. Accounts for coherent and non-coherent traffic.",
	  "SKL Table 3-2", 0, 0, 0, NULL },
	{ "UNC_ARB_TRK_REQUESTS.WRITES", NULL, &bt_arb, 0x81, 0x20, 0,
	  "Number of writes allocated including any write transaction including full, partials and evictions.",
	  "SKL Table 3-2", 0, 0, 0, NULL },
	{ "UNC_ARB_COH_TRK_REQUESTS.ALL", NULL, &bt_arb, 0x84, 0x01, 0,
	  "Number of entries allocated for any type.", "SKL Table 3-2", 0, 0, 0, NULL },
	/* Same code and umask as TRK_OCCUPANCY.ALL; "cycles with at least one"
	 * is a threshold of 1 (decision D5). */
	{ "UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", NULL, &bt_arb, 0x80, 0x01, 1,
	  "Cycles with at least one request outstanding, waiting for data to return from memory controller. Accounts for coherent and non-coherent requests initiated by IA cores, processor graphics unit, or LLC.",
	  "SKL Table 3-2", 0, 0, 0, NULL },
	{ "UNC_CLOCK.SOCKET", "uclk", &bt_clock, 0x00, 0x01, 0,
	  "This 48-bit fixed counter counts the UCLK cycles.", "SKL Table 3-2", 0, 0, 0, NULL },
	{ "DRAM_GT_REQUESTS", "gt_requests", &bt_imc, 0x5040, 0, 0,
	  "Counts every read/write request entering the Memory Controller to DRAM (sum of all channels) from the GT engine.",
	  "SKL Table 3-3", 64, 0, 0, NULL },
	{ "DRAM_IA_REQUESTS", "ia_requests", &bt_imc, 0x5044, 0, 0,
	  "Counts every read/write request (demand and HW prefetch) entering the Memory Controller to DRAM (sum of all channels) from IA.",
	  "SKL Table 3-3", 64, 0, 0, NULL },
	{ "DRAM_IO_REQUESTS", "io_requests", &bt_imc, 0x5048, 0, 0,
	  "Counts every read/write request entering the Memory Controller to DRAM (sum of all channels) from all IO sources.",
	  "SKL Table 3-3", 64, 0, 0, NULL },
	{ "DRAM_DATA_READS", "data_reads", &bt_imc, 0x5050, 0, 0,
	  "Counts every read (RdCAS) issued by the Memory Controller to DRAM (sum of all channels). 64 bytes each.",
	  "SKL Table 3-3", 64, 1, 0, NULL },
	{ "DRAM_DATA_WRITES", "data_writes", &bt_imc, 0x5054, 0, 0,
	  "Counts every write (WrCAS) issued by the Memory Controller to DRAM (sum of all channels). 64 bytes each.",
	  "SKL Table 3-3", 64, 1, 0, NULL },
};

static const struct ucm_clockdef skl_clocks[] = {
	/* default 3.0 GHz; worst case 4.1 GHz (decision D8) */
	{ "uclk", 3000000000ull, 4100000000ull },
};

/* Family 6: 0x5E (H/S, the default desktop part), 0x4E (U/Y). */
static const uint8_t skl_models[] = { 0x5E, 0x4E };
static const uint16_t skl_devids[] = { 0x191F, 0x1904, 0x190C, 0x1900, 0x1910, 0x190F, 0x1918 };
static const uint8_t skl_bus[] = { 0 };

/* ---- other tools' names for these boxes ----
 * Linux perf (arch/x86/events/intel/uncore_snb.c, facts only): the CBos are
 * PMUs uncore_cbox_0..n-1 and the ARB uncore_arb, both with the formats
 * event (config:0-7), umask (8-15), edge (18), inv (23) and cmask (24-28),
 * which is this manual's THRESH; event=0xff on a CBo PMU is the fixed UCLK
 * counter (clockticks), which the tables keep as a box of its own.  The
 * IMC is uncore_imc with the format event alone: event=0x01..0x05 are the
 * free-running counters data_reads, data_writes, gt_requests, ia_requests
 * and io_requests, which the tables number by their offsets. */
static const struct ucm_perfcode perf_cbox_codes[] = { { 0xFF, &bt_clock, 0x00 } };
static const struct ucm_perfalias perf_cbox_aliases[] = { { "clockticks", "event=0xff,umask=0x00" } };
static const struct ucm_perfcode perf_imc_codes[] = {
	{ 0x01, &bt_imc, 0x5050 }, { 0x02, &bt_imc, 0x5054 }, { 0x03, &bt_imc, 0x5040 },
	{ 0x04, &bt_imc, 0x5044 }, { 0x05, &bt_imc, 0x5048 },
};
static const struct ucm_perfalias perf_imc_aliases[] = {
	{ "data_reads", "event=0x01" },  { "data_writes", "event=0x02" },
	{ "gt_requests", "event=0x03" }, { "ia_requests", "event=0x04" },
	{ "io_requests", "event=0x05" },
};
static const struct ucm_perfpmu skl_perfpmus[] = {
	{ "uncore_cbox", &bt_cbo, 1, "event=config:0-7;umask=config:8-15;edge=config:18;inv=config:23;cmask=config:24-28", ARRAY_LEN(perf_cbox_codes),
	  ARRAY_LEN(perf_cbox_aliases), perf_cbox_codes, perf_cbox_aliases,
	  "Linux uncore_snb.c skl_uncore_cbox" },
	{ "uncore_arb", &bt_arb, 0, "event=config:0-7;umask=config:8-15;edge=config:18;inv=config:23;cmask=config:24-28", 0, 0, NULL, NULL,
	  "Linux uncore_snb.c snb_uncore_arb" },
	{ "uncore_imc", &bt_imc, 0, "event=config:0-7", ARRAY_LEN(perf_imc_codes), ARRAY_LEN(perf_imc_aliases),
	  perf_imc_codes, perf_imc_aliases, "Linux uncore_snb.c snb_uncore_imc" },
};
/* Intel's perfmon event file (SKL/events/skylake_uncore.json): the fixed
 * UCLK counter is in unit NCU. */
static const struct ucm_perfmon_unit skl_perfmon_units[] = {
	{ "CBO", &bt_cbo }, { "ARB", &bt_arb }, { "NCU", &bt_clock },
};

extern const struct ucm_machine ucm_mach_skl; /* ucm_plat_skl_mach.c */

/* What the part can carry (docs/platform-skl.md, "Physical limits"). */
static const struct ucm_limits skl_limits = {
	.dram_channels = 2,
	.dram_mts = 2133,
	.dram_type = "DDR4-2133",
	.dram_cite = "6th Generation Intel Core Processor Families Datasheet, Vol. 1 (332687), "
		     "System Memory Interface: two channels, DDR4 up to 2133 MT/s",
	.dram_box = "imc",
	.dram_in = { "DRAM_DATA_READS", "DRAM_DATA_WRITES" },
	.llc_lookups = 1,
	.llc_cite = "one lookup a uclk cycle per CBo slice: CACHE_LOOKUP's maximum increment of 1 "
		    "(SKL Table 3-1 as modelled; docs/platform-skl.md, \"Physical limits\")",
};

const struct ucm_platform ucm_plat_skl = {
	.name = "skl",
	.title = "6th Generation Intel Core (Skylake client)",
	.cpu_family = 6,
	.ncpu_models = ARRAY_LEN(skl_models),
	.cpu_models = skl_models,
	.pci_vendor = 0x8086,
	.ndevids = ARRAY_LEN(skl_devids),
	.devids = skl_devids,
	.max_sockets = 1,
	.ncores = 4,
	.nclocks = ARRAY_LEN(skl_clocks),
	.nboxes = ARRAY_LEN(skl_boxes),
	.pci_bus = skl_bus,
	.clocks = skl_clocks,
	.boxes = skl_boxes,
	.nevents = ARRAY_LEN(skl_events),
	.events = skl_events,
	/* NO_CBO_BANKS counts the graphics slice too: CBos + 1 (decision D3) */
	.counted = &bt_cbo,
	.counted_bias = 1,
	.bar_default = 0xFED10001ull,
	.bar_mask = 0x0007FFFF8000ull,
	.bar_size = 0x8000,
	.default_events = "UNC_CLOCK.SOCKET,UNC_CBO_CACHE_LOOKUP.ANY_MESI,"
			  "UNC_CBO_CACHE_LOOKUP.ANY_I,UNC_ARB_TRK_REQUESTS.ALL,"
			  "UNC_ARB_TRK_OCCUPANCY.ALL,DRAM_DATA_READS,DRAM_DATA_WRITES",
	.doc = "docs/platform-skl.md",
	.machine = &ucm_mach_skl,
	.nperfpmus = ARRAY_LEN(skl_perfpmus),
	.nperfmon_units = ARRAY_LEN(skl_perfmon_units),
	.perfpmus = skl_perfpmus,
	.perfmon_units = skl_perfmon_units,
	.limits = &skl_limits,
};
