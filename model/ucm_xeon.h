/*
 * ucm_xeon.h - register layouts shared by the Xeon platforms' tables: the
 * PCI header IDs every function has, the UBox configuration function's
 * node-ID registers (public facts: Linux uncore_snbep.c reads both at the
 * same offsets), the HA and QPI match registers and QPI_RATE_STATUS, which
 * Sandy Bridge-EP and Ivy Bridge-EP lay out alike.
 * Defined once in ucm_xeon.c so a platform folder does not copy them.
 */
#ifndef UCM_XEON_H
#define UCM_XEON_H

#include "ucm_types.h"

extern const struct ucm_layout ucm_xeon_l_vid, ucm_xeon_l_did;
extern const struct ucm_layout ucm_xeon_l_nodeid, ucm_xeon_l_nodemap;
/* HA ADDRMATCH0/1 and OPCODEMATCH (filter .idx 0, 1, 2), QPI PKT_MATCH0/1
 * and PKT_MASK0/1 (filter .idx 0, 1, 2, 3), QPI_RATE_STATUS */
extern const struct ucm_layout ucm_xeon_l_h_addr0, ucm_xeon_l_h_addr1, ucm_xeon_l_h_opc;
extern const struct ucm_layout ucm_xeon_l_q_match0, ucm_xeon_l_q_match1, ucm_xeon_l_q_mask0,
	ucm_xeon_l_q_mask1, ucm_xeon_l_q_rate;

/* The two ID registers at the head of a function's configuration space;
 * DID reads the instance's devid (UCM_K_DEVID). */
#define UCM_XEON_PCI_IDS(prefix)                                                     \
	{ prefix "_VID", 0x00, UCM_K_PLAIN, 0, &ucm_xeon_l_vid, 0x8086 },           \
	{ prefix "_DID", 0x02, UCM_K_DEVID, 0, &ucm_xeon_l_did, 0 }

/* The UBox configuration function: CPUNODEID at 0x40 (node ID in bits 2:0)
 * and GIDNIDMAP at 0x54 (the node ID of socket i in bits 3i+2:3i). */
#define UCM_XEON_NODEID_REGS                                                         \
	{ "UBOX_CPUNODEID", 0x40, UCM_K_NODEID, 0, &ucm_xeon_l_nodeid, 0 },          \
	{ "UBOX_GIDNIDMAP", 0x54, UCM_K_NODEMAP, 0, &ucm_xeon_l_nodemap, 0 }

#endif
