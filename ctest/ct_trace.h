/*
 * ct_trace.h - what the event-trace tests (t_trace_*.c) share: their
 * random generator, platforms and scratch files; random traces of the
 * Skylake client and of the two-socket Xeon E5-2600 (snbep: four clock
 * domains, filter attributes, PCU occupancy and core sleep states), valid
 * by construction; conversions and comparisons of trace files; models for
 * a trace's header.
 */
#ifndef CT_TRACE_H
#define CT_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "ucm.h"
#include "uct_gen.h"
#include "uct_trace.h"

/* The state of ct_trace_rnd, splitmix64 (set it to start a sequence). */
extern uint64_t ct_trace_rng;
uint64_t ct_trace_rnd(void);

const struct ucm_platform *ct_skl(void);
const struct ucm_platform *ct_snbep(void);
/* A box type's index (ucm_boxtype_index) by name. */
int ct_bt_index(const struct ucm_platform *p, const char *name);
/* A scratch file's name in buf: /tmp/uncore-t-PID-what. */
void ct_tmpname(char *buf, size_t n, const char *what);
/* Up to cap bytes of a file into buf; how many. */
size_t ct_load(const char *path, unsigned char *buf, size_t cap);
/* Whether two files hold the same bytes. */
int ct_same_file(const char *a, const char *b);
/* A trace read whole and written in the other encoding (binary: as
 * uct_writer_open takes it); the errors on stderr. */
int ct_convert(const char *in, const char *out, int binary);

/* skl: a random segment whose inputs respect each code's maximum increment. */
void ct_random_seg(struct uct_seg *s, uint64_t start, int longruns);
/* skl: a random trace of nseg such segments (and some gaps) from seed. */
int ct_write_random(const char *path, int binary, unsigned nseg, uint64_t seed, int longruns);
/* skl with defaults and no access costs. */
struct ucm_model *ct_fresh_model(void);

/* snbep: two sockets and clocks other than the defaults, the reference
 * clock (uclk) the fastest, so that stepping it visits every cycle of each
 * domain; sometimes fewer CBos. */
void ct_snbep_hdr(struct uct_hdr *h, uint64_t seed);
/* Request addresses a filter and an input may share (HA address match). */
extern const uint64_t ct_test_addrs[4];
/* snbep: a random segment on every box type with counters, both sockets,
 * with attributes where a filter compares them and sleep masks; inputs the
 * checks refuse (sums above a maximum, attributes that disagree) are
 * dropped, so it is valid by construction. */
void ct_random_snbep_seg(const struct uct_hdr *h, struct uct_seg *s, uint64_t start, int longruns);
/* Writes a random snbep trace; keeps its segments in segs (if not NULL). */
int ct_write_random_snbep(const char *path, int binary, unsigned nseg, uint64_t seed, int longruns,
			  struct uct_seg *segs);
/* The model a trace's header configures, without access costs. */
struct ucm_model *ct_snbep_model(const struct uct_hdr *h);

/* The vector of segment i of a trace of nd new vectors, then repeats
 * from both ends: vector i + 1 for i < nd, then nd - (i - nd) for even i
 * and i - nd + 1 for odd i. */
unsigned ct_vector_of(unsigned i, unsigned nd);
/* Segment `start` (one cycle): a lookup (sub-event sub of box type cbo)
 * on each of 16 CBos of two sockets whose bit is set in v. */
void ct_cbo_lookups(struct uct_seg *s, uint64_t start, unsigned v, int cbo, int sub);
/* A generated trace (uct_generate) of header h, binary. */
int ct_gen_hdr(const char *path, const struct uct_hdr *h, const struct uct_gen_opts *o, char *err,
	       size_t n);

#endif
