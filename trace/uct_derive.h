/*
 * uct_derive.h - the uncore inputs that follow from the others: a
 * per-platform table of rules (uct_derive.c) applied to every input vector
 * a source defines, a built-in workload's phase (uct_workload.c) as a trace
 * generator's segment (uct_gen.c), so both feed the PCU's frequency bands,
 * the QPI non-data and idle flits and the iMC's CKE and power-down
 * residency the same way from the traffic (docs/invariants.md).
 */
#ifndef UCT_DERIVE_H
#define UCT_DERIVE_H

#include "uct.h"
#include "uct_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

struct uct_derive;

/* The rules of platform p resolved against its tables, at the reference
 * clocks hz (indexed by clock, the frequencies the band rule reports).
 * *out is NULL for a platform without rules.  -EINVAL and err when a rule
 * names a box or sub-event the platform lacks. */
int uct_derive_new(const struct ucm_platform *p, const uint64_t *hz, struct uct_derive **out,
		   char *err, size_t n);
void uct_derive_free(struct uct_derive *d);
/* The most inputs uct_derive_apply adds to a vector of nsock sockets whose
 * boxes have ninst[bt] instances (a bound for the caller's array). */
unsigned uct_derive_most(const struct uct_derive *d, unsigned nsock, const unsigned *ninst);
/* Apply the rules to the nin inputs of in (room for cap), on sockets
 * 0..nsock-1 of boxes with ninst[bt] instances: derived inputs are added or
 * replace those of the vector.  steady: the vector is a constant-rate phase
 * (a workload's), where rules that only a rate can express are applied
 * rounded up (a data packet's header flit); a generator's segment is a
 * slice of its rates, which give those exactly.  -ERANGE and err when a
 * vector breaks a rule (more flits than a link carries), -ENOSPC when cap
 * is too small. */
int uct_derive_apply(const struct uct_derive *d, struct uct_in *in, unsigned *nin, unsigned cap,
		     unsigned nsock, const unsigned *ninst, int steady, char *err, size_t n);

/* Phase k of a built-in workload on model m as uct_attach feeds it: its
 * inputs and the derived ones, socket 0's (the phase is the same on every
 * socket), into vec (room for UCT_MAXIN).  For a reference fed the same
 * (bench/ubn_g4_work.c).  -EINVAL and err for a phase the platform
 * cannot resolve, -ERANGE for one that breaks a rule. */
int uct_phase_vector(const struct ucm_model *m, const struct uct_workload_def *def, unsigned k,
		     struct uct_in *vec, unsigned *nv, char *err, size_t n);

#ifdef __cplusplus
}
#endif

#endif
