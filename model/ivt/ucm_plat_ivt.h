/*
 * ucm_plat_ivt.h - declarations shared by the files that declare the Xeon
 * E5-2600 v2 (Ivy Bridge-EP, "Ivytown") uncore as data:
 *   ucm_plat_ivt.c       registers, layouts, box types and instances, written
 *                        from the v2 manual's tables where they could be read
 *                        and from the sources of shared/notes/ivt-facts.md;
 *   ucm_plat_ivt_ev.c    event codes, sub-events and named events, generated
 *                        by model/ivt/data/gen_events.py from Intel's event
 *                        list (data/ivt_uncore_events.tsv) and the
 *                        supplementary tables beside it;
 *   ucm_plat_ivt_mach.c  the machine around the uncore (`uncore run`).
 * Clock domains are indexed as IVT_CLK_*.  Decisions: docs/platform-ivt.md.
 */
#ifndef UCM_PLAT_IVT_H
#define UCM_PLAT_IVT_H

#include "ucm_types.h"

enum { IVT_CLK_UCLK, IVT_CLK_DCLK, IVT_CLK_PCLK, IVT_CLK_QCLK, IVT_NCLK };

/* Counters per box: ubox 3 (2 general, 2 = UCLK fixed), cbo 4, ha 4,
 * imc 5 (4 = DCLK fixed), pcu 4, qpi 4, r2pcie 4, r3qpi 3, irp 4 (IRP0 ctr0/1 = 0/1, IRP1
 * ctr0/1 = 2/3). */
extern const struct ucm_boxtype ivt_bt_ubox, ivt_bt_cbo, ivt_bt_ha, ivt_bt_imc, ivt_bt_pcu,
	ivt_bt_qpi, ivt_bt_r2pcie, ivt_bt_r3qpi, ivt_bt_irp;

/* Generated: IVT_NCODES_<BOX>, the index of each fixed counter's code
 * (IVT_UBOX_FIXED_CODE, IVT_IMC_FIXED_CODE) and IVT_NEVENTS. */
#include "ucm_plat_ivt_ev.h"

extern const struct ucm_evcode ivt_codes_ubox[IVT_NCODES_UBOX];
extern const struct ucm_evcode ivt_codes_cbo[IVT_NCODES_CBO];
extern const struct ucm_evcode ivt_codes_ha[IVT_NCODES_HA];
extern const struct ucm_evcode ivt_codes_imc[IVT_NCODES_IMC];
extern const struct ucm_evcode ivt_codes_pcu[IVT_NCODES_PCU];
extern const struct ucm_evcode ivt_codes_qpi[IVT_NCODES_QPI];
extern const struct ucm_evcode ivt_codes_r2pcie[IVT_NCODES_R2PCIE];
extern const struct ucm_evcode ivt_codes_r3qpi[IVT_NCODES_R3QPI];
extern const struct ucm_evcode ivt_codes_irp[IVT_NCODES_IRP];
extern const struct ucm_event ivt_events[IVT_NEVENTS];

#endif
