/*
 * ucm_types.h - descriptor types for declaring uncore PMU hardware as data.
 *
 * A platform is a set of const tables that mirror the manual: register
 * layouts (fields with bit ranges, access type and a semantic role), box
 * types (register templates, counters, event codes), box instances
 * (addresses per instance) and the named events of the manual's event
 * tables.  The model core (model/ucm_*.c) interprets these tables through
 * one generic access path (ucm_access.c); nothing in the core names a
 * platform.
 */
#ifndef UCM_TYPES_H
#define UCM_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ucm_space { UCM_MSR, UCM_PCI, UCM_MMIO, UCM_NSPACES };

#define UCM_MAXFILT 4  /* filter registers per box (QPI: 2 match + 2 mask) */

/* Access type of a field, as the manuals' "Access"/"Attr" columns. */
enum ucm_access {
	UCM_A_RSVD = 0, /* not a field: reserved (RV / N/A) */
	UCM_A_RW,       /* read/write (RW, RW-V) */
	UCM_A_RO,       /* read-only: value comes from hardware */
	UCM_A_RW1C,     /* write 1 to clear */
	UCM_A_WO,       /* write-only, self-clearing: reads 0, a 1 acts */
};

/* What a field means to the model.  The pipeline finds fields by role, so a
 * platform whose THRESH sits at 31:24 instead of 28:24 needs no code. */
enum ucm_role {
	UCM_R_NONE = 0,
	/* counter control */
	UCM_R_EVSEL, UCM_R_UMASK, UCM_R_EDGE, UCM_R_INV, UCM_R_EN,
	UCM_R_OVF_EN, UCM_R_THRESH, UCM_R_RST, UCM_R_TID_EN, UCM_R_OCC_SEL,
	UCM_R_OCC_INV, UCM_R_OCC_EDGE, UCM_R_EXTSEL,
	/* box filter fields compared with sub-event attributes (.arg: band) */
	UCM_R_FILT_TID, UCM_R_FILT_NID, UCM_R_FILT_STATE, UCM_R_FILT_OPC,
	UCM_R_FILT_BAND,
	/* packet fields of match/mask and address match registers (Xeon
	 * Tables 2-37..2-39, 2-88..2-91); .arg is a UCM_FA_* placement */
	UCM_R_FILT_MC, UCM_R_FILT_PKT_OPC, UCM_R_FILT_VNW, UCM_R_FILT_DNID, UCM_R_FILT_RNID, UCM_R_FILT_RDS,
	UCM_R_FILT_ADDR,
	/* global control; PMI_SEL fields carry the core number in .arg.
	 * FRZ_ALL/UNFRZ_ALL: write-only global freeze and unfreeze (IVT
	 * U_MSR_PMON_GLOBAL_CTL) */
	UCM_R_GLOBAL_EN, UCM_R_FRZ_ON_PMI, UCM_R_WAKE_ON_PMI, UCM_R_PMI_SEL,
	UCM_R_FRZ_ALL, UCM_R_UNFRZ_ALL,
	/* box control */
	UCM_R_FRZ_EN, UCM_R_FRZ, UCM_R_RST_CTRS, UCM_R_RST_CTRL,
	/* overflow status bit: in a global status register, of a unit; in a
	 * box status register (UCM_K_BOX_STATUS), of counter .arg */
	UCM_R_OVF_STATUS,
	/* reserved bits software must write as 1 (IVT box controls 17:16):
	 * stored and read back; strict mode records any other value */
	UCM_R_MBO,
	/* plain value fields */
	UCM_R_VALUE, UCM_R_BAR_EN, UCM_R_BAR_BASE, UCM_R_NBOXES,
	UCM_NROLES
};

struct ucm_field {
	const char *name;
	uint8_t lo, hi;     /* bit range, inclusive */
	uint8_t access;     /* enum ucm_access */
	uint8_t role;       /* enum ucm_role */
	uint8_t arg;        /* role argument (core number, status index) */
};

/* .arg of a field that holds part of an attribute compared by a
 * UCM_FM_MASKED or UCM_FM_EQ_BITS rule: the attribute bit its lowest bit
 * holds, and whether it is a mask (1: compare) rather than a match value.
 * One attribute may be split over fields of several registers (the QPI
 * RNID: bits 3:0 in MATCH1, bit 4 in MATCH0). */
#define UCM_FA_MATCH(bit) ((uint8_t)(bit))
#define UCM_FA_MASK(bit) ((uint8_t)(0x80 | (bit)))
#define UCM_FA_IS_MASK(arg) (((arg) & 0x80) != 0)
#define UCM_FA_BIT(arg) ((unsigned)((arg) & 0x7F))

/* A register definition shared by registers of the same table. */
struct ucm_layout {
	const char *name;   /* e.g. "PERFEVTSEL" */
	const char *cite;   /* manual table, e.g. "SKL Table 2-7" */
	uint8_t width;      /* storage width in bits: 16, 32 or 64 */
	uint8_t nfields;
	const struct ucm_field *fields;
};

/* Register kinds: which side-effect hook, if any, the core applies. */
enum ucm_kind {
	UCM_K_PLAIN = 0,    /* masks only */
	UCM_K_CTL,          /* counter control, .idx = counter */
	UCM_K_CTR,          /* counter value, .idx = counter */
	UCM_K_GLOBAL_CTL,   /* global enable / PMI / freeze */
	UCM_K_GLOBAL_STATUS,/* per-unit overflow status */
	UCM_K_BOX_CTL,      /* box freeze / reset */
	UCM_K_BOX_STATUS,   /* per-counter overflow bits of the box (IVT) */
	UCM_K_FILTER,       /* box filter: inputs to event matching; .idx
			     * numbers a box's filter registers */
	UCM_K_NBOXES,       /* read-only count of a box type (CBO_CONFIG) */
	UCM_K_DEVID,        /* PCI device ID, from the model configuration */
	UCM_K_BAR,          /* MMIO base address register (MCHBAR) */
	UCM_K_NODEID,       /* read-only: the socket's node ID (ucm_config.node_id,
			     * by default the socket number) */
	UCM_K_NODEMAP,      /* node ID of each socket (computed, not .reset):
			     * 3-bit fields, socket i
			     * at bits 3i+2:3i (Xeon GIDNIDMAP, public facts) */
};

/* A register of a box type, at an offset from the instance base. */
struct ucm_regdef {
	const char *name;   /* printf pattern; %u = instance number */
	uint32_t off;       /* PCI: bits 14:12 add to the instance's function
			     * (UCM_PCI_FN), for a box whose registers span
			     * functions of one device (QPI match/mask) */
	uint8_t kind;       /* enum ucm_kind */
	uint8_t idx;        /* counter index for CTL/CTR */
	const struct ucm_layout *layout;
	uint64_t reset;
};

/* PCI register offset on function (instance fn + delta) of the device. */
#define UCM_PCI_FN(delta, off) ((uint32_t)(delta) << 12 | (uint32_t)(off))

#define UCM_MAXGRP 3

/* A sub-event: one distinguishable input signal of an event code.  It is
 * selected when, for every umask group g, the programmed umask has a bit in
 * common with match[g] (match lists every umask bit that selects it). */
struct ucm_subev {
	const char *name;
	uint8_t match[UCM_MAXGRP];
};

enum {
	UCM_EC_CLOCK = 1,   /* input is the box clock: 1 every cycle */
	UCM_EC_OCC = 2,     /* occupancy sub-counters: sub-event OCC_SEL-1 is
			     * chosen by the control's OCC_SEL value, not by
			     * umask bits (PCU, Xeon Table 2-75) */
	UCM_EC_FIXED = 4,   /* counted by a fixed counter only: never chosen
			     * by an EV_SEL value */
	UCM_EC_EXACT = 8,   /* sub-event s is selected when the umask equals
			     * subs[s].match[0]: values that combine modifier
			     * bits, not independent signals (IVT TOR_INSERTS) */
};

/* Attributes of a sub-event that box filter fields are compared with.
 * Static values come from the tables (ucm_evcode.attrs); a workload may
 * override any of them per box at run time (ucm_set_input_attr), e.g. the
 * thread that issues a request or the node it targets. */
enum ucm_attr {
	UCM_AT_STATE, UCM_AT_OPC, UCM_AT_NID, UCM_AT_TID, UCM_AT_FREQ,
	/* QPI packet header fields (Xeon Tables 2-88/2-89, 2-142/2-143) and a
	 * request's physical address (HA, Tables 2-38/2-39) */
	UCM_AT_MC, UCM_AT_VNW, UCM_AT_DNID, UCM_AT_RNID, UCM_AT_RDS, UCM_AT_ADDR,
	UCM_NATTR
};
#define UCM_ATTR_NONE UINT64_MAX  /* no such attribute: a rule on it never matches */

struct ucm_subattr {
	uint64_t v[UCM_NATTR];
};

/* How a filter field is compared with a sub-event attribute. */
enum ucm_fmatch {
	UCM_FM_EQ,    /* field == attribute (opcode, thread ID) */
	UCM_FM_BIT,   /* field has bit <attribute> set (state mask, node mask) */
	UCM_FM_GE,    /* attribute >= field (frequency band) */
	/* Over every field of the rule's role in the box's filter registers,
	 * placed by UCM_FA_*: ((attribute ^ match) & mask) == 0 (QPI packet
	 * match/mask, 2.7.3.3).  A zero mask passes everything. */
	UCM_FM_MASKED,
	/* Likewise, without mask: the attribute equals the match fields in
	 * every bit they hold from bit .arg up (HA address match: bits 11:6
	 * are held but not compared, note to Table 2-39). */
	UCM_FM_EQ_BITS,
};

#define UCM_MAXRULES 8  /* filter rules per event code (ucm_create checks) */

/* A filter rule of an event code: while it applies, a sub-event counts only
 * if its attribute passes the box filter field.  It applies when the umask
 * has a bit of umask_bits (0: always) and, if ctl_role is set, when that
 * control field is 1 (TID_EN).  A box may have several filter registers
 * (UCM_K_FILTER, .idx 0..UCM_MAXFILT-1); fields are found by role in all. */
struct ucm_filtrule {
	uint8_t attr;       /* enum ucm_attr */
	uint8_t role;       /* filter field role, UCM_R_FILT_* */
	uint8_t arg;        /* field .arg (band index); UCM_FM_EQ_BITS: the
			     * lowest attribute bit compared */
	uint8_t how;        /* enum ucm_fmatch */
	uint8_t umask_bits;
	uint8_t ctl_role;
};

struct ucm_evcode {
	uint16_t code;          /* EVT_SEL value, | 0x100 when the extra select
				 * bit (UCM_R_EXTSEL) is part of the code */
	const char *name;       /* e.g. "CACHE_LOOKUP" */
	uint16_t max_inc;       /* max increment per cycle (all sub-events) */
	uint32_t ctr_mask;      /* counters allowed by the event table */
	uint8_t ngrp;
	uint8_t grp_mask[UCM_MAXGRP];
	uint8_t nsubs;
	uint8_t flags;
	const struct ucm_subev *subs;
	const char *cite;
	/* Group g is *restricting* when bit g is set here: with no umask bit of
	 * the group programmed every sub-event passes it; otherwise the rule
	 * above applies (TOR_INSERTS' MISS bit: absent = hits and misses). */
	uint8_t grp_restrict;
	uint8_t nrules;
	const struct ucm_filtrule *rules;
	const struct ucm_subattr *attrs;  /* per sub-event, or NULL: all NONE */
};

enum {
	UCM_BT_FREERUN = 1, /* counters always run: no enable, no freeze */
	UCM_BT_GLOBAL = 2,  /* holds the global control/status registers */
};

struct ucm_boxtype {
	const char *name;   /* short name used in event strings: "cbo" */
	const char *title;
	uint8_t space;      /* enum ucm_space */
	uint8_t nctr;
	uint8_t clock;      /* clock domain index */
	uint8_t flags;
	uint8_t ninst_min, ninst_max, ninst_default;
	uint8_t nregs;
	uint16_t ncodes;
	const struct ucm_regdef *regs;
	const struct ucm_evcode *codes;
	/* counters without a control register count a fixed code: index into
	 * codes for each counter, or NULL when every counter has a CTL */
	const uint8_t *fixed_code;
	const char *cite;
	/* where the box is sub-units of unit_ctrs counters each (IVT IRP: IRP0
	 * and IRP1, two each), event lists number a sub-unit's counters: each
	 * sub-unit takes what a list allows its counters; 0: one unit */
	uint8_t unit_ctrs;
};

/* One box instance.  base is the MSR address, the PCI config offset base
 * within (dev, fn), or the offset from the MMIO BAR. */
struct ucm_boxinst {
	const struct ucm_boxtype *type;
	uint8_t inst;
	uint8_t dev, fn;    /* PCI only */
	int8_t status_bit;  /* bit in the global status register, -1: none */
	uint64_t base;
	uint16_t devid;     /* PCI device ID of this function (UCM_K_DEVID), 0:
			     * the platform's configured identifying ID */
	/* per counter: its bit in the global status register where the box's
	 * counters report to different bits (IVT UBox: the fixed counter to
	 * ov_u_fixed, the others to ov_u), -1: none; NULL: status_bit */
	const int8_t *ctr_status_bit;
};

/* The global status bit a counter of a box instance reports to, -1: none. */
static inline int ucm_gstatus_bit(const struct ucm_boxinst *bi, unsigned ctr)
{
	return bi->ctr_status_bit ? bi->ctr_status_bit[ctr] : bi->status_bit;
}

struct ucm_clockdef {
	const char *name;   /* "uclk" */
	uint64_t hz_default;
	uint64_t hz_max;    /* worst case, for safe read intervals */
};

/* The value a named event needs in one filter register (UCM_K_FILTER .idx):
 * the QPI match/mask events of Xeon Table 2-92. */
struct ucm_filtval {
	uint8_t idx;
	uint32_t val;
};

/* A named event of the manual's event tables. */
struct ucm_event {
	const char *name;   /* "UNC_CBO_CACHE_LOOKUP.ANY_MESI" */
	const char *alias;  /* short perf-style alias or NULL */
	const struct ucm_boxtype *box;
	uint16_t code;
	uint8_t umask;
	uint8_t thresh;
	const char *desc;
	const char *cite;
	uint8_t bytes;      /* bytes moved per count, for bandwidth; 0: none */
	uint8_t dram;       /* an exact DRAM transfer count: part of total bandwidth */
	uint8_t nfilt;      /* filter register values it needs, every bit of each */
	const struct ucm_filtval *filt;
};

/* ---- the names other tools give these boxes (read by the driver, never by
 * the model) ---- */

/* A perf event code that means an event the tables number otherwise: the
 * client IMC's event=0x01..0x05 (free-running counters the tables number by
 * offset) and event=0xff, the fixed counter a PMU's box shares (Linux's
 * UNCORE_FIXED_EVENT). */
struct ucm_perfcode {
	uint16_t perf;                  /* perf's event= value */
	const struct ucm_boxtype *box;  /* the box type that counts it */
	uint16_t code;                  /* its code in that box type's tables */
};

/* A perf event alias (the kernel's events/ directory of the PMU). */
struct ucm_perfalias {
	const char *name;   /* "cas_count_read" */
	const char *terms;  /* "event=0x04,umask=0x03" */
};

/* A Linux perf PMU of the platform (arch/x86/events/intel/uncore_*.c): its
 * name, the box type it drives, and the format terms the kernel defines
 * for it.  A PMU of several boxes is named NAME_0..NAME_n-1 (the kernel's
 * num_boxes > 1), of one box NAME. */
struct ucm_perfpmu {
	const char *name;               /* "uncore_cbox" */
	const struct ucm_boxtype *box;
	uint8_t numbered;
	const char *formats;            /* the kernel's format attributes as
					 * sysfs shows them, in its order:
					 * "event=config:0-7;umask=config:8-15;..." */
	uint8_t ncodes, naliases;
	const struct ucm_perfcode *codes;
	const struct ucm_perfalias *aliases;
	const char *cite;               /* the kernel's type, for messages */
};

/* The "Unit" of Intel's perfmon event files (perfmon JSON) for a box type. */
struct ucm_perfmon_unit {
	const char *unit;               /* "CBO", "QPI LL", "iMC" */
	const struct ucm_boxtype *box;
};

/* A derived metric of the manual's "Common Metrics" tables.  expr is in
 * the driver's metric syntax (docs/usage.md): event strings in brackets,
 * numbers, + - * / and parentheses, and the interval terms the driver
 * knows (SAMPLE_INTERVAL_S, ...). */
struct ucm_metric {
	const char *name;          /* "MEM_BW_READS" */
	const char *box;           /* box type short name, "imc" */
	const char *desc;
	const char *expr;
	const char *unit;          /* "GB/s", "ratio", "cycles", ... */
	const char *cite;
};

/* ---- the machine around the uncore (what `uncore run` presents) ----
 * A tool identifies the CPU, counts cores and reads MSRs outside the uncore
 * PMU before it touches the uncore; these tables say what the machine
 * answers.  They describe one part of the platform's family (a brand
 * string, nominal clocks), with Hyper-Threading off: one logical cpu per
 * core, numbered socket-major (docs/tools.md). */

/* A CPUID leaf's value on every cpu; the cpu-specific parts (the APIC ID in
 * leaf 1 EBX, leaves 4 and 0xB, the brand string) are derived from the
 * topology and the cache table, not listed. */
struct ucm_cpuid {
	uint32_t leaf, sub;
	uint32_t eax, ebx, ecx, edx;
};

/* A cache level as CPUID leaf 4 and sysfs describe it. */
struct ucm_cache {
	uint8_t level;
	uint8_t type;          /* 1 data, 2 instruction, 3 unified (leaf 4) */
	uint16_t ways;
	uint32_t size_kb;
	uint8_t per_package;   /* 1: shared by the package's cores; 0: per core */
};

/* How an MSR outside the uncore PMU behaves. */
enum ucm_sysmsr_kind {
	UCM_SM_CONST,   /* reads .value (with .arg UCM_CONST_BSP, bit 8 on
			   cpu 0 only); a write is a #GP */
	UCM_SM_RW,      /* per cpu: reset .value + cpu x .rate (an address in
			   a per-cpu area), with .arg UCM_RW_TSC_AUX also
			   socket << 12 | cpu (Linux's TSC_AUX); bits
			   outside .mask are a #GP */
	UCM_SM_TIME,    /* counts .rate per second since power-on (TSC, APERF,
			   MPERF, RAPL energy), modulo 2^.width; a write sets it */
	UCM_SM_FIXED,   /* core fixed counter .arg: counts .rate per second
			   while IA32_PERF_GLOBAL_CTRL bit 32+arg and its
			   IA32_FIXED_CTR_CTRL field enable it; RW */
	UCM_SM_WI,      /* reads .value; writes accepted and ignored (W1C
			   status registers with nothing to clear) */
	UCM_SM_THERM,   /* thermal status: .value's flags with the digital
			   readout (bits 22:16, degrees below TjMax) of the
			   socket's temperature (ucm_machine.thermal); writes
			   ignored as UCM_SM_WI */
	UCM_SM_MTYPE,   /* UCM_SM_RW holding memory types (MTRRs, PAT): each
			   byte set in .arg must also be a type of the set
			   .width (bit t: type t allowed), else a #GP */
	UCM_SM_VMTRR,   /* .count / 2 variable-range MTRR pairs (SDM Vol. 3A
			   11.11.2.3): IA32_MTRR_PHYSBASEn at even offsets
			   (type 7:0, one of the set .width as UCM_SM_MTYPE's),
			   IA32_MTRR_PHYSMASKn at odd
			   ones (valid 11); .mask the address bits 12 to
			   MAXPHYADDR - 1; reset: the machine's memory map,
			   write-back over its RAM (ucp_machine.c) */
	UCM_SM_WO,      /* write-only command (IA32_PRED_CMD): a read is a
			   #GP, a write of bits outside .mask too; nothing
			   is kept */
	UCM_SM_ALIAS,   /* the rows from .value on under other addresses
			   (IA32_A_PMCx: the counters IA32_PMCx, whose full
			   width they write; SDM Vol. 3B 20.2.6) */
	UCM_SM_MCBANK,  /* .count / 4 machine-check banks from a multiple of
			   4 (SDM Vol. 3B 15.3.2): IA32_MCi_CTL at offsets
			   0 mod 4, reset .value, every bit writable;
			   IA32_MCi_STATUS, _ADDR and _MISC, 0 and writable
			   only with 0 (anything else is a #GP) */
};

/* UCM_SM_RW's .arg: the reset value also holds the cpu's socket << 12 |
 * cpu, as Linux programs IA32_TSC_AUX (RDTSCP's and RDPID's answer) */
#define UCM_RW_TSC_AUX 1
/* UCM_SM_CONST's .arg: bit 8 of .value on cpu 0 only, IA32_APIC_BASE's
 * BSP flag (SDM Vol. 3A 10.4.4: set in the bootstrap processor alone) */
#define UCM_CONST_BSP 2

/* What the workload's activity adds to a counting machine MSR (.act of a
 * UCM_SM_TIME or UCM_SM_FIXED row): seconds of C0 (the socket's cores'
 * average), or joules of a RAPL domain, each the sum of its terms
 * (ucm_machine.act) over the socket's boxes. */
enum ucm_act {
	UCM_ACT_NONE,
	UCM_ACT_C0,     /* core-seconds in C0 / cores of the socket */
	UCM_ACT_PKG,    /* package energy above its idle power, J */
	UCM_ACT_PP0,    /* cores' energy above their idle power, J */
	UCM_ACT_DRAM,   /* DRAM energy above its idle power, J */
	UCM_ACT_INST,   /* core-seconds in C0 weighted by the IPC / cores of
			 * the socket: instructions / (core Hz x cores) */
	UCM_ACT_CC3,    /* core-seconds in core C3 / cores of the socket */
	UCM_ACT_CC6,    /* the same in core C6 */
	UCM_ACT_CC7,    /* the same in core C7 */
	UCM_ACT_PKG_C0, /* core-seconds in C0 / cores, the package's (each
			 * cpu that runs a program's thread counted in C0) */
	UCM_ACT_PP1,    /* graphics' energy above its idle power, J */
	UCM_ACT_PC2,    /* seconds the package is in C2 */
	UCM_ACT_PC3,    /* the same in C3 */
	UCM_ACT_PC6,    /* the same in C6 */
	UCM_ACT_PC7,    /* the same in C7 */
	UCM_ACT_ANY_C0, /* seconds some core of the package is in C0 (a
			 * cpu that runs a program's thread: the socket's
			 * every second) */
	UCM_NACT
};
/* The activities that are a core's own: each cpu counts its share of the
 * socket's, and a cpu that runs a program's thread its own (ucp_machine.c). */
/* The package's C-states: a socket's, and none while a cpu of the socket
 * runs a program's thread (ucp_machine.c). */
#define UCM_ACT_PKG_IDLE(a) ((a) >= UCM_ACT_PC2 && (a) <= UCM_ACT_PC7)
/* The package activities a program's thread overrides: its package states
 * and the time some core is in C0 */
#define UCM_ACT_PKG_WIDE(a) (UCM_ACT_PKG_IDLE(a) || (a) == UCM_ACT_ANY_C0)
#define UCM_ACT_PER_CORE(a) \
	((a) == UCM_ACT_C0 || (a) == UCM_ACT_INST || (a) == UCM_ACT_CC3 || (a) == UCM_ACT_CC6 || \
	 (a) == UCM_ACT_CC7)

/* One term of an activity: what a sub-event of every box of a type was
 * fed, times .per; an occupancy (.occ) is also divided by its box's clock
 * rate, so that .per is then a rate (per second per unit of occupancy). */
struct ucm_act_term {
	uint8_t act;           /* enum ucm_act */
	uint8_t occ;
	const char *box, *sub; /* box type, sub-event */
	double per;
};

/* The package's first-order thermal model: T' = (Tamb + Rth * P - T) / tau,
 * P the package power (RAPL PKG) since the last look. */
struct ucm_thermal {
	double amb_c;          /* temperature at zero power, degrees C */
	double rth_c_per_w;    /* junction-to-ambient resistance */
	double tau_s;          /* time constant */
	unsigned tjmax_c;      /* MSR_TEMPERATURE_TARGET bits 23:16 */
};

struct ucm_sysmsr {
	uint32_t addr;
	uint8_t count;         /* consecutive MSRs of the same behaviour */
	uint8_t kind;          /* enum ucm_sysmsr_kind */
	uint8_t width;         /* counting kinds: bits */
	uint8_t arg;
	uint64_t value, mask, rate;
	const char *name;      /* the SDM's name, for messages and docs */
	uint8_t act;           /* enum ucm_act: activity counted beside .rate */
	uint64_t act_rate;     /* counts per unit (second, joule) of .act */
};

/* An idle state of the part as Linux's intel_idle lists it (name, its
 * MWAIT hint as desc, exit latency and target residency in microseconds):
 * /sys/devices/system/cpu/cpuN/cpuidle/stateK, K from 1 (state 0 is the
 * kernel's POLL). */
struct ucm_cstate {
	const char *name, *desc;
	uint16_t latency_us, residency_us;
};

struct ucm_machine {
	const char *brand;       /* CPUID 0x80000002..4, /proc/cpuinfo */
	uint8_t stepping;
	uint32_t tsc_mhz;        /* nominal frequency = TSC rate */
	uint32_t core_mhz;       /* what the core clock runs at */
	uint32_t mem_mb;         /* memory per socket (NUMA node) */
	uint32_t tolm_mb;        /* top of low memory: RAM below it, the PCI
				  * MMIO hole from it to 4 GiB, the rest of
				  * the RAM from 4 GiB (the MTRRs' map) */
	const char *cpuinfo_flags;
	uint16_t ncpuid;
	const struct ucm_cpuid *cpuid;
	uint8_t ncaches;
	const struct ucm_cache *caches;
	uint16_t nsysmsr;
	const struct ucm_sysmsr *sysmsr;
	uint16_t nact;             /* terms of the activities (enum ucm_act) */
	const struct ucm_act_term *act;
	const struct ucm_thermal *thermal; /* NULL: no UCM_SM_THERM rows */
	uint8_t ncstates;          /* idle states, shallowest first */
	const struct ucm_cstate *cstates;
};

/* How a counter overflow with OVF_EN propagates (ucm_platform.ovf_flags).
 * Without flags (SKL 2.2): every such overflow sets the unit's global
 * status bit and requests a PMI; FRZ_ON_PMI may then freeze. */
enum {
	/* A box sends an overflow message only when the overflow sets its
	 * box status bit, and the UBox acts on it only when the message sets
	 * its global status bit: "in order to see a new freeze, the overflow
	 * field responsible ... must be cleared" (IVT 2.7.2.1). */
	UCM_OVF_EDGE = 1,
	/* A message that reaches the UBox freezes every counter of the
	 * socket until software writes UNFRZ_ALL (IVT 2.1.4). */
	UCM_OVF_FREEZE = 2,
};

/* The physical limits of a part, per socket, each with its source: what the
 * built-in workloads and trace generators feed stays within them unless
 * asked otherwise (docs/platform-*.md, "Physical limits").  The PMON boxes
 * may be more than the part uses (the v2's eight channel boxes feed four
 * channels' worth of data): the limits are the part's. */
struct ucm_limits {
	uint8_t dram_channels;      /* memory channels a socket drives */
	uint16_t dram_mts;          /* fastest supported transfer rate, MT/s (8 bytes each) */
	const char *dram_type;      /* "DDR4-2133" */
	const char *dram_cite;
	/* the inputs that move a 64-byte line to or from DRAM: a box type and
	 * sub-event names or prefixes ("CAS_COUNT." for all of a code's) */
	const char *dram_box;
	const char *dram_in[2];
	double llc_lookups;         /* LLC lookups a CBo starts per uclk cycle */
	const char *llc_cite;
	/* the LLC reads a socket's cores can have in flight: line fill buffers a
	 * core, over the least time an LLC hit takes (0: not given) */
	uint8_t core_lfb;
	double llc_hit_ns;
	const char *core_cite;
	uint8_t qpi_links;          /* QPI links a socket has (0: none); the model's
				     * port count where it varies (ivt --qpi-links) */
	uint16_t qpi_mts;           /* transfer rate, MT/s; 2 data bytes a transfer
				     * each way (16 of 20 lanes carry data) */
	const char *qpi_cite;
};

/* DRAM bytes a socket can move a second. */
static inline double ucm_dram_peak_bps(const struct ucm_limits *l)
{
	return (double)l->dram_channels * l->dram_mts * 1e6 * 8;
}

struct ucm_platform {
	const char *name;   /* "skl" */
	const char *alias;  /* another name it is known by, or NULL */
	const char *title;
	uint8_t cpu_family;
	uint8_t ncpu_models;
	const uint8_t *cpu_models;
	uint16_t pci_vendor;
	uint8_t ndevids;
	const uint16_t *devids;  /* host bridge / identifying device IDs */
	uint8_t max_sockets, ncores;
	uint8_t nclocks, nboxes;
	const uint8_t *pci_bus;    /* uncore PCI bus of each socket */
	const struct ucm_clockdef *clocks;
	const struct ucm_boxinst *boxes;
	uint16_t nevents;
	const struct ucm_event *events;
	const struct ucm_boxtype *counted; /* box type an UCM_K_NBOXES reports */
	int8_t counted_bias;       /* value = instances + bias (SKL: +1) */
	uint64_t bar_default;      /* reset value of the BAR register */
	uint64_t bar_mask;         /* address bits of the BAR (SKL 3.3) */
	uint64_t bar_size;         /* MMIO window size behind the BAR */
	const char *default_events; /* a bare 'stat' counts these */
	uint8_t sockets_default;   /* sockets of a model configured with 0 */
	uint16_t nmetrics;
	const struct ucm_metric *metrics;
	const char *doc;           /* docs/ page with the platform's decisions */
	const struct ucm_machine *machine; /* CPU identity, caches, other MSRs */
	uint8_t ovf_flags;         /* UCM_OVF_*: how overflow reaches the UBox */
	/* Linux perf's PMUs for the boxes, Intel's perfmon units */
	uint8_t nperfpmus, nperfmon_units;
	const struct ucm_perfpmu *perfpmus;
	const struct ucm_perfmon_unit *perfmon_units;
	const struct ucm_limits *limits;  /* NULL: none known */
};

#ifdef __cplusplus
}
#endif

#endif
