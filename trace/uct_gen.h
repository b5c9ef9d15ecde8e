/*
 * uct_gen.h - generators of event traces for realistic workloads.
 */
#ifndef UCT_GEN_H
#define UCT_GEN_H

#include "uct.h"
#include "uct_trace.h"

struct uct_gen_opts {
	const char *kind;     /* stream, llc, burst, idle */
	double seconds;       /* length of the trace */
	double gbps;          /* stream: DRAM bandwidth, 1e9 bytes/s */
	double read_ratio;    /* stream: share of reads */
	double hit_ratio;     /* llc: share of lookups that hit */
	double lookups;       /* llc: lookups per cycle per CBo */
	double duty;          /* burst: share of time streaming */
	uint64_t burst_ns;    /* burst: length of one burst */
	uint64_t period;      /* slice length in cycles (0: 300000) */
	uint64_t seed;        /* jitters slice lengths; same seed, same trace */
};

const char *const *uct_gen_kinds(void);
/* Write a generated trace for header h into w (not committed). */
int uct_generate(const struct uct_hdr *h, const struct uct_gen_opts *o, struct uct_writer *w,
		 char *err, size_t n);

#endif
