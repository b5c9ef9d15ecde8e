/*
 * uct_gen.h - generators of event traces for realistic workloads, for every
 * platform whose generator tables (uct_gen.c) have the kind: stream, llc,
 * burst, idle and cstate (every platform), qpi (snbep, ivt).  docs/formats.md,
 * "Generators", says what each feeds.
 */
#ifndef UCT_GEN_H
#define UCT_GEN_H

#include <signal.h>

#include "uct.h"
#include "uct_trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Callers fill this positionally (driver/cli/cli_opts.c), where a new member
 * would be a missing initializer: a kind that needs a parameter of its own
 * reads a member another kind uses, named in the comments. */
struct uct_gen_opts {
	const char *kind;     /* stream, llc, burst, idle, qpi, cstate */
	double seconds;       /* length of the trace */
	double gbps;          /* stream: DRAM bandwidth, qpi: data received over QPI;
			       * 1e9 bytes/s, the total of the trace's sockets */
	double read_ratio;    /* stream: share of reads; qpi: share of the data that
			       * answers reads (the rest: writebacks) */
	double hit_ratio;     /* llc: share of lookups that hit;
			       * cstate: share of a core's idle time in C3 (the rest: C6) */
	double lookups;       /* llc: lookups per cycle per CBo */
	double duty;          /* burst: share of time streaming;
			       * cstate: share of time each core is busy (C0) */
	uint64_t burst_ns;    /* burst: length of one burst */
	uint64_t period;      /* slice length in cycles (0: 300000) */
	uint64_t seed;        /* jitters slice lengths; same seed, same trace */
	int exceed;           /* go beyond the part's physical limits (the platform's
			       * ucm_limits and the tables' per-channel shares), up to
			       * what the model's events can count */
};

/* The most slices a generated trace may have (its length over the slice
 * length; burst: a burst and its gap), refused before anything is written:
 * the generator's work.  And the most segments it may write, refused when
 * reached (the partial output is the caller's to abort): its size, at most
 * some 1.5 GB of text (ivt cstate, the largest, is ~720 bytes a segment;
 * docs/usage.md). */
#define UCT_GEN_MAX_SLICES 2000000ull
#define UCT_GEN_MAX_SEGMENTS 2000000ull

const char *const *uct_gen_kinds(void);
/* Write a generated trace for header h into w (not committed).  Every
 * socket of the header gets the workload; its rates are split over them.
 * More than UCT_GEN_MAX_SLICES slices is refused (-EFBIG) before writing. */
int uct_generate(const struct uct_hdr *h, const struct uct_gen_opts *o, struct uct_writer *w,
		 char *err, size_t n);
/* The same, ending early with -EINTR ("interrupted") once *stop is set. */
/* A function the generator calls now and then with the share of the trace
 * written (0..1), for a progress line; NULL: none. */
void uct_gen_on_progress(void (*fn)(void *ctx, double done), void *ctx);
int uct_generate_until(const struct uct_hdr *h, const struct uct_gen_opts *o, struct uct_writer *w,
		       const volatile sig_atomic_t *stop, char *err, size_t n);

#ifdef __cplusplus
}
#endif

#endif
