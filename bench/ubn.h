/*
 * ubn.h - what the parts of uncore-bench (bench/ubn_*.c) share: the
 * options, the clock and the exit on an error (ubn_main.c); every counter
 * of a platform programmed through the driver (ubn_drive.c); G1's feeds,
 * workloads and generated traces, which G4 on G1's work runs too, and the
 * read of a trace a replay is compared with (ubn_g1.c); skl with every
 * counter programmed by MSR writes and its dense trace (ubn_g3.c: G3, G4,
 * G6); and each goal's entry.
 */
#ifndef UBN_H
#define UBN_H

#include <stdint.h>

#include "ucd.h"
#include "ucm.h"
#include "uct.h"
#include "uct_trace.h"

/* The options (ubn_main.c). */
extern int ubn_quick;                /* --quick: each part briefly */
extern double ubn_g1_secs;           /* --seconds: G1's simulated time */
extern const char *ubn_only_plat;    /* --platform: G1, G2 and G4 on G1's work on one platform */
extern const char *ubn_only_feed;    /* --feed: G1 and G4 on G1's work on one workload or trace kind */
extern int ubn_wrap_soon;            /* --near-wrap: G4 on G1's work with counters near their wrap */
extern uint64_t ubn_g4_period;       /* --sample-period: G4 on G1's work with the driver sampling */
extern uint64_t ubn_seed;            /* --seed: the traces' generator and the workloads' jitter */
extern char ubn_tmp[4200];           /* the scratch trace file, in a private directory */

/* The process's CPU time (figures are "per wall second" in that sense). */
double ubn_now(void);
/* "uncore-bench: what: why", the scratch file removed, exit status 1. */
void ubn_die(const char *what, const char *why) __attribute__((noreturn));

/* Every counter of a platform programmed through the driver (ubn_drive.c). */
struct ubn_prog {
	unsigned placed, total;            /* counters programmed, counters the model has */
	unsigned thresh, edge, inv, filt;  /* events with each */
};
void ubn_program_all(struct ucd *d, const struct ucm_model *m, struct ubn_prog *pr);

/* What G1 runs (ubn_g1.c). */
struct ubn_feed {
	const struct uct_workload_def *wd;  /* a workload, or */
	const char *kind;                   /* a generated trace of this kind */
};
/* Read and decode a trace once: the baseline a replay is compared with
 * (vec: as the replay reads it, otherwise every input decoded); its time,
 * its segments and (nvec not NULL) its distinct vectors. */
double ubn_decode_time(const char *path, int vec, uint64_t *nseg, unsigned *nvec);
/* A trace of the kind generated into ubn_tmp for `seconds` of platform p:
 * 0, or -1 where the platform has no tables for the kind. */
int ubn_gen_trace(const struct ucm_platform *p, const char *kind, double seconds);
/* Every feed of G1 (each platform's workloads, then every trace kind) that
 * --platform and --feed leave, run for `secs` simulated seconds each. */
void ubn_each_feed(void (*run)(const struct ucm_platform *, const struct ubn_feed *, double),
		   double secs);

/* skl with every counter programmed by MSR writes, and its dense trace
 * (ubn_g3.c): the writes (their number is the definition's, which must
 * agree with this declaration), the model they program. */
struct ubn_msr {
	uint32_t addr;
	uint64_t v;
};
extern const struct ubn_msr ubn_skl_prog[12];
struct ucm_model *ubn_skl_model(void);
/* Segment i of the dense trace: a CBo lookup sub-event on every CBo and
 * the ARB occupancy, both changing at every segment. */
void ubn_dense_seg(struct uct_seg *s, uint64_t i, uint64_t len, int cbo, int arb);
/* The dense trace of nseg segments of len cycles, binary, in ubn_tmp. */
void ubn_write_trace(uint64_t nseg, uint64_t len);
/* ubn_tmp replayed into ubn_skl_model() for `cycles`: the CPU time. */
double ubn_replay(uint64_t cycles);

/* The goals. */
void ubn_g1(void);
void ubn_g2(void);
void ubn_g3(void);
void ubn_g4(void);
void ubn_g4_work(void);
void ubn_g6(void);
/* Linux's driver (kernel/), where the build has it (UBN_HAVE_KERNEL) */
void ubn_g7(void);
/* One G6 memory measurement each (main runs them in a process of their
 * own, for ubn_g6), and this process's peak RSS. */
void ubn_g6_trace(unsigned n);
void ubn_g6_run(double secs);
long ubn_hwm_kib(void);

#endif
