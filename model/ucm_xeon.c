/*
 * ucm_xeon.c - the register layouts ucm_xeon.h declares: PCI header IDs and
 * the UBox node-ID registers shared by the Xeon platforms.  Both node-ID
 * registers are read-only; their other bits are reserved
 * (docs/platform-snbep.md R13).
 */
#include "ucm_xeon.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static const struct ucm_field f_vid[] = { { "VID", 0, 15, UCM_A_RO, UCM_R_VALUE, 0 } };
const struct ucm_layout ucm_xeon_l_vid = { "VID", "PCI header", 16, 1, f_vid };
static const struct ucm_field f_did[] = { { "DID", 0, 15, UCM_A_RO, UCM_R_VALUE, 0 } };
const struct ucm_layout ucm_xeon_l_did = { "DID", "PCI header", 16, 1, f_did };

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
