/*
 * uct.h - workloads: what the simulated hardware is fed.
 *
 * A workload is a table of phases; each phase holds a set of sub-event
 * increments per cycle on box instances for a duration.  Phases repeat in
 * order with lengths jittered by a seeded generator, so a run is
 * deterministic for a given seed.  The model pulls the workload as its time
 * advances (ucm_set_workload), so register accesses and waiting both run it.
 */
#ifndef UCT_H
#define UCT_H

#include <stdint.h>

#include "ucm.h"

#ifdef __cplusplus
extern "C" {
#endif

struct uct_input {
	const char *box;     /* box type name */
	int inst;            /* instance, -1: every instance */
	const char *sub;     /* sub-event, "CODE.SUB" */
	uint32_t inc;        /* per cycle */
};

struct uct_phase {
	const char *name;
	uint64_t ns;         /* nominal length */
	unsigned nin;
	const struct uct_input *in;
};

struct uct_workload_def {
	const char *name;
	const char *platform;
	const char *desc;
	unsigned nphases;
	const struct uct_phase *phases;
};

struct uct_wl;

/* splitmix64: the seeded generator of workloads and trace generators
 * (small, fast, the same sequence everywhere for a seed). */
static inline uint64_t uct_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

const struct uct_workload_def *uct_workload_find(const char *platform, const char *name);
/* Names of the workloads of a platform, for help and errors. */
const struct uct_workload_def *uct_workload_at(unsigned i);

/* Resolve a workload against a model and attach it; errors (unknown box or
 * sub-event, increment above the maximum) are reported in err. */
int uct_attach(struct ucm_model *m, const struct uct_workload_def *def, uint64_t seed,
	       struct uct_wl **out, char *err, size_t n);
void uct_detach(struct uct_wl *w);
/* Whether a workload stays within the part's physical limits on model m
 * (its clocks, box counts): 0, or -ERANGE and the limit it breaks in err.
 * The DRAM traffic is averaged over the phases (their jitter is
 * symmetric); LLC lookups and QPI flits are per cycle, bounded by the
 * event maxima uct_attach checks. */
int uct_workload_within(const struct ucm_model *m, const struct uct_workload_def *def, char *err,
			size_t n);

#ifdef __cplusplus
}
#endif

#endif
