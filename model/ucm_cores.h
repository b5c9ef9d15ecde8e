/*
 * ucm_cores.h - the socket's cores as a workload drives them: a box type
 * without registers ("cores") whose inputs say what the cores do, so that
 * the phase engine integrates them as it does every box's inputs and the
 * machine tables' activity terms read them from the model's ground truth
 * (ucm_fed; docs/invariants.md).  No PMU register counts them: tools see
 * them through the machine's MSRs (MPERF, the fixed counters, RAPL, the
 * core C-state residencies).
 *
 * INST_RETIRED is the cores' instructions a core cycle, summed over the
 * cores in C0, in hundredths (a phase of 8 cores at IPC 1.5 feeds 1200 a
 * cycle of the box's clock); CORE_STATE.Cn counts the cores in Cn, as the
 * Xeon PCU's POWER_STATE_OCCUPANCY does (the Xeons keep C0 there).
 * PKG_STATE.Cn counts the cycles the package is in Cn, which the workload
 * does not say: trace/uct_derive.c derives it from the cores' states and
 * the memory traffic (docs/invariants.md, "Package C-states").
 */
#ifndef UCM_CORES_H
#define UCM_CORES_H

#include "ucm_types.h"

/* A core retires at most 4 instructions a cycle: the issue width of the
 * Sandy Bridge, Ivy Bridge and Skylake cores (Intel 64 and IA-32
 * Architectures Optimization Reference Manual, 2.2 and 2.3: four uops
 * allocated and retired a cycle).  INST_RETIRED's maximum makes it a table
 * error to feed more. */
#define UCM_CORES_IPC_MAX 4
#define UCM_CORES_IPC_UNIT 100   /* INST_RETIRED counts hundredths */

#define UCM_CORES_CITE "docs/invariants.md (the cores)"

/* The event codes of the box type: the codes select no counter (there is
 * none) and no EV_SEL value chooses them. */
#define UCM_CORES_INST_CODE(ncores) \
	{ 0x01, "INST_RETIRED", (ncores) * UCM_CORES_IPC_MAX * UCM_CORES_IPC_UNIT, 0, 0, { 0 }, 0, \
	  UCM_EC_FIXED, NULL, UCM_CORES_CITE, 0, 0, NULL, NULL }
/* subs: C0, C3, C6, C7 (a const array of the including file); at most
 * every core in some state */
#define UCM_CORES_STATE_CODE(ncores, subs) \
	{ 0x00, "CORE_STATE", (ncores), 0, 1, { 0xFF }, 4, UCM_EC_FIXED, subs, UCM_CORES_CITE, 0, 0, \
	  NULL, NULL }

/* subs: the package C-states the part has (C2, C3, C6, ...; a const array
 * of the including file); one package, in one state a cycle */
#define UCM_CORES_PKG_CODE(subs)                                                        \
	{ 0x02, "PKG_STATE", 1, 0, 1, { 0xFF }, sizeof(subs) / sizeof((subs)[0]), UCM_EC_FIXED, \
	  subs, UCM_CORES_CITE, 0, 0, NULL, NULL }

#define UCM_CORES_BOXTYPE(codes, clock) \
	{ "cores", "The socket's cores (no PMU registers: the machine's MSRs show them)", UCM_MSR, 0, \
	  (clock), 0, 1, 1, 1, 0, sizeof(codes) / sizeof((codes)[0]), NULL, codes, NULL, \
	  UCM_CORES_CITE, 0 }

#endif
