/*
 * ref_model.h - a deliberately naive reference model of the uncore PMU,
 * to diff the optimized model against.  It shares only the platform tables
 * (model/ucm_types.h); everything else is written again, the simple way:
 * one field at a time on writes, one cycle at a time when time passes.
 * One socket; no access cost (fuzzing configures the model the same way).
 */
#ifndef REF_MODEL_H
#define REF_MODEL_H

#include <stdint.h>

#include "ucm.h" /* table types and limits only */

#define REF_MAXREGS 256
#define REF_MAXBOX 32
#define REF_MAXSUB 64

struct ref_reg {
	const struct ucm_regdef *def;
	int box;
	unsigned space;
	uint64_t key;       /* as ucm_reginfo: MSR address, PCI key, MMIO offset */
	unsigned bytes;
	uint64_t val;       /* stored bits, counters included */
};

struct ref_box {
	const struct ucm_boxinst *bi;
	int ctl[8], ctr[8];          /* register index of each counter's control and value, -1 none */
	uint32_t input[REF_MAXSUB];
	uint8_t prev[8];
	int frz_en, frozen;
};

struct ref_model {
	const struct ucm_platform *p;
	unsigned ninst[UCM_MAXBT], ncores;
	unsigned nregs, nboxes;
	struct ref_reg regs[REF_MAXREGS];
	struct ref_box boxes[REF_MAXBOX];
	uint64_t cycles, pmi_requests;
	uint64_t delivered[64], wakes[64], dropped[64];
	uint8_t asleep[64];
};

/* ninst: instances per box type (0: default). */
void ref_init(struct ref_model *r, const struct ucm_platform *p, const unsigned *ninst);
void ref_reset(struct ref_model *r);
/* Register access by (space, key) with byte lanes for PCI/MMIO; returns
 * -1 where the model answers an error (unmapped MSR, absent device). */
int ref_msr_read(struct ref_model *r, uint32_t addr, uint64_t *v);
int ref_msr_write(struct ref_model *r, uint32_t addr, uint64_t v);
int ref_pci_read(struct ref_model *r, unsigned bus, unsigned dev, unsigned fn, unsigned off,
		 unsigned width, uint64_t *v);
int ref_pci_write(struct ref_model *r, unsigned bus, unsigned dev, unsigned fn, unsigned off,
		  unsigned width, uint64_t v);
int ref_mmio_read(struct ref_model *r, uint64_t pa, unsigned width, uint64_t *v);
int ref_mmio_write(struct ref_model *r, uint64_t pa, unsigned width, uint64_t v);
/* The value a read of register i would return, without side effects. */
uint64_t ref_peek(const struct ref_model *r, unsigned i);
int ref_find(const struct ref_model *r, unsigned space, uint64_t key);
/* Inputs and time. */
int ref_box_find(const struct ref_model *r, const char *type, unsigned inst);
void ref_set_input(struct ref_model *r, int box, unsigned sub, uint32_t inc);
void ref_step(struct ref_model *r);

#endif
