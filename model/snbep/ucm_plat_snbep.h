/*
 * ucm_plat_snbep.h - declarations shared by the two files that declare the
 * Xeon E5-2600 (Sandy Bridge-EP) uncore as data:
 *   ucm_plat_snbep.c     registers, layouts, box types and instances, written
 *                        from the guide's register tables;
 *   ucm_plat_snbep_ev.c  event codes, sub-events and named events, generated
 *                        by model/snbep/data/gen_events.py from the guide's
 *                        transcribed event lists (the .tsv files in model/snbep/data/).
 * Clock domains are indexed as SNBEP_CLK_*.
 */
#ifndef UCM_PLAT_SNBEP_H
#define UCM_PLAT_SNBEP_H

#include "ucm_types.h"

enum { SNBEP_CLK_UCLK, SNBEP_CLK_DCLK, SNBEP_CLK_PCLK, SNBEP_CLK_QCLK, SNBEP_NCLK };

extern const struct ucm_boxtype snbep_bt_ubox, snbep_bt_cbo, snbep_bt_ha, snbep_bt_imc,
	snbep_bt_pcu, snbep_bt_qpi, snbep_bt_r2pcie, snbep_bt_r3qpi;

/* Generated: SNBEP_NCODES_<BOX>, the index of each fixed counter's code
 * (SNBEP_UBOX_FIXED_CODE, SNBEP_IMC_FIXED_CODE) and SNBEP_NEVENTS. */
#include "ucm_plat_snbep_ev.h"

extern const struct ucm_evcode snbep_codes_ubox[SNBEP_NCODES_UBOX];
extern const struct ucm_evcode snbep_codes_cbo[SNBEP_NCODES_CBO];
extern const struct ucm_evcode snbep_codes_ha[SNBEP_NCODES_HA];
extern const struct ucm_evcode snbep_codes_imc[SNBEP_NCODES_IMC];
extern const struct ucm_evcode snbep_codes_pcu[SNBEP_NCODES_PCU];
extern const struct ucm_evcode snbep_codes_qpi[SNBEP_NCODES_QPI];
extern const struct ucm_evcode snbep_codes_r2pcie[SNBEP_NCODES_R2PCIE];
extern const struct ucm_evcode snbep_codes_r3qpi[SNBEP_NCODES_R3QPI];
extern const struct ucm_event snbep_events[SNBEP_NEVENTS];

#endif
