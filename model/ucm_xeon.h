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

extern const struct ucm_layout ucm_xeon_l_vid, ucm_xeon_l_did, ucm_xeon_l_rid_ccr, ucm_xeon_l_hdr,
	ucm_xeon_l_svid_sid;
extern const struct ucm_layout ucm_xeon_l_nodeid, ucm_xeon_l_nodemap;
/* HA ADDRMATCH0/1 and OPCODEMATCH (filter .idx 0, 1, 2), QPI PKT_MATCH0/1
 * and PKT_MASK0/1 (filter .idx 0, 1, 2, 3), QPI_RATE_STATUS */
extern const struct ucm_layout ucm_xeon_l_h_addr0, ucm_xeon_l_h_addr1, ucm_xeon_l_h_opc;
extern const struct ucm_layout ucm_xeon_l_q_match0, ucm_xeon_l_q_match1, ucm_xeon_l_q_mask0,
	ucm_xeon_l_q_mask1, ucm_xeon_l_q_rate;

/* The identifying registers at the head of a function's configuration
 * space (PCI Local Bus 3.0, 6.2.1; what lspci, PCM's bus scan and Linux's
 * enumeration read): vendor, device (the instance's devid, UCM_K_DEVID),
 * revision and class code, header type, subsystem.  cls is the 24-bit
 * class code: 0x110100 "performance counters" on the PMON functions,
 * 0x088000 "other system peripheral" on the others, as real parts report
 * them (lspci of E5-2600 and E5-2600 v2 systems; docs/tools.md "PCI
 * functions"); rid is the part's revision ID.  Every uncore device is
 * multi-function (header type 0x80).  The subsystem is Intel's 8086:0000:
 * a board's firmware writes its own once (RW-O), and the machine has no
 * board vendor's. */
#define UCM_XEON_PCI_HDR(prefix, cls, rid)                                           \
	{ prefix "_VID", 0x00, UCM_K_PLAIN, 0, &ucm_xeon_l_vid, 0x8086 },           \
	{ prefix "_DID", 0x02, UCM_K_DEVID, 0, &ucm_xeon_l_did, 0 },                \
	{ prefix "_RID_CCR", 0x08, UCM_K_PLAIN, 0, &ucm_xeon_l_rid_ccr,               \
	  (uint64_t)(cls) << 8 | (rid) },                                              \
	{ prefix "_HDR", 0x0C, UCM_K_PLAIN, 0, &ucm_xeon_l_hdr, 0x00800000 },        \
	{ prefix "_SVID_SID", 0x2C, UCM_K_PLAIN, 0, &ucm_xeon_l_svid_sid, 0x8086 }
#define UCM_XEON_CLASS_PMON 0x110100
#define UCM_XEON_CLASS_OTHER 0x088000

/* The UBox configuration function: CPUNODEID at 0x40 (node ID in bits 2:0)
 * and GIDNIDMAP at 0x54 (the node ID of socket i in bits 3i+2:3i). */
#define UCM_XEON_NODEID_REGS                                                         \
	{ "UBOX_CPUNODEID", 0x40, UCM_K_NODEID, 0, &ucm_xeon_l_nodeid, 0 },          \
	{ "UBOX_GIDNIDMAP", 0x54, UCM_K_NODEMAP, 0, &ucm_xeon_l_nodemap, 0 }

/* Linux perf's format attributes the Xeon PMUs share (uncore_snbep.c; the
 * sysfs "name=configN:bits" strings): the common counter control, the
 * UBox's (5-bit threshold), and the QPI packet match/mask registers as
 * config1 (MATCH0 | MATCH1 << 32) and config2 (MASK0 | MASK1 << 32). */
#define UCM_XEON_PERF_FMT_STD                                                        \
	"event=config:0-7;umask=config:8-15;edge=config:18;inv=config:23;"          \
	"thresh=config:24-31"
#define UCM_XEON_PERF_FMT_UBOX                                                       \
	"event=config:0-7;umask=config:8-15;edge=config:18;inv=config:23;"          \
	"thresh=config:24-28"
#define UCM_XEON_PERF_FMT_QPI_MATCH                                                  \
	"match_rds=config1:48-51;match_rnid30=config1:32-35;match_rnid4=config1:31;" \
	"match_dnid=config1:13-17;match_mc=config1:9-12;match_opc=config1:5-8;"      \
	"match_vnw=config1:3-4;match0=config1:0-31;match1=config1:32-63;"            \
	"mask_rds=config2:48-51;mask_rnid30=config2:32-35;mask_rnid4=config2:31;"    \
	"mask_dnid=config2:13-17;mask_mc=config2:9-12;mask_opc=config2:5-8;"         \
	"mask_vnw=config2:3-4;mask0=config2:0-31;mask1=config2:32-63"
/* the kernel's iMC event aliases (its events/ files), alike on both parts */
#define UCM_XEON_PERF_IMC_ALIASES                                                    \
	{ "clockticks", "event=0xff,umask=0x00" },                                   \
	{ "cas_count_read", "event=0x04,umask=0x03" },                               \
	{ "cas_count_write", "event=0x04,umask=0x0c" }

#endif
