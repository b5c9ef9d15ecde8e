/*
 * uct_check.h - what a trace's content is checked against (internal to
 * trace/, not installed; uct_check.c): its platform's box types,
 * sub-events, attributes and clocks, the limits on its length, and the
 * segment checks every reader and the writer apply, an input at a time (the
 * text reader then points at the one at fault) or a segment at a time.
 */
#ifndef UCT_CHECK_H
#define UCT_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "ucm.h"
#include "uct_trace.h"

/* The reference cycles a trace may last. */
#define UCT_MAXCYCLES (1ull << 56)
/* The machine time a trace may last: the longest `stat --duration` (a
 * replay is a stat run; trace gen writes at most 1e5 s).  A replay does
 * work in proportion to it (the driver reads every counter within its safe
 * interval), so a longer one is refused before anything runs. */
#define UCT_MAXSECONDS 1000000ull

/* A header's facts, its platform's defaults where it gives none. */
static inline unsigned uct_ninst_of(const struct uct_hdr *h, unsigned bt, const struct ucm_boxtype *t)
{
	return bt < UCM_MAXBT && h->ninst[bt] ? h->ninst[bt] : t ? t->ninst_default : 0;
}

static inline unsigned uct_version_of(const struct uct_hdr *h)
{
	return h->version ? h->version : UCT_VERSION;
}

static inline uint64_t uct_hz_of(const struct uct_hdr *h, unsigned clock)
{
	return h->clock_hz[clock] ? h->clock_hz[clock] : h->plat->clocks[clock].hz_default;
}

/* Cores a sleep mask may name: the platform's cores per socket. */
static inline uint64_t uct_core_mask(const struct ucm_platform *p)
{
	return p->ncores >= 64 ? ~0ull : (1ull << p->ncores) - 1;
}

/* The inputs of a segment checked so far (uct_chk_add): the platform's
 * tables, and a small hash map of the inputs' event codes, instances and
 * sub-events (uct_check.c, "segment checks"). */

#define UCT_CHK_CAP 2048          /* a power of 2 above the 3 keys per input */

struct uct_chk_grp {
	uint64_t all, maxspec;    /* inputs on every instance; most on one instance */
	int maxinst;              /* that instance, -1: none */
};

#define UCT_CHK_MAXSUB 512

struct uct_chk {
	const struct ucm_platform *plat;
	const struct ucm_boxtype *bts[UCM_MAXBT];
	unsigned nsub[UCM_MAXBT];
	/* each sub-event's event code (ucm_subev_code, a search, past these)
	 * and the attributes the code's filter rules compare (bit a) */
	uint16_t code[UCM_MAXBT][UCT_CHK_MAXSUB];
	uint16_t cmp[UCM_MAXBT][UCT_CHK_MAXSUB];
	uint64_t key[UCT_CHK_CAP];    /* 0: free */
	uint16_t val[UCT_CHK_CAP];
	uint16_t used[3 * UCT_MAXIN];
	unsigned nused;
	unsigned ngrp, nspec;
	struct uct_chk_grp grp[UCT_MAXIN];
	uint64_t spec[UCT_MAXIN];
	int16_t prev[UCT_MAXIN];  /* the previous input of the same sub-event, -1 */
};

/* Box types by index (ucm_boxtype_index), looked up once per reader,
 * writer or check: inputs name them by index. */
void uct_bt_table(const struct ucm_platform *p, const struct ucm_boxtype **t);
/* ucm_subev_find without formatting every name: "CODE.SUB", or "CODE" for
 * a code with one input (case-insensitive too). */
int uct_find_sub(const struct ucm_boxtype *bt, const char *name);
/* The names of the attributes in text traces, and the largest value of
 * each, by enum ucm_attr. */
extern const char *const uct_attr_names[UCM_NATTR];
extern const uint64_t uct_attr_max[UCM_NATTR];
/* Whether a filter rule of the code compares attribute a: only then may an
 * input carry it (anything else would be a value nothing reads). */
int uct_code_compares(const struct ucm_evcode *ec, unsigned a);

/* Before a segment's inputs: c holds none. */
void uct_chk_reset(struct uct_chk *c, const struct uct_hdr *h);
/* Input i of seg against the inputs before it (c holds them; uct_chk_reset
 * before the first): 0, or -EINVAL or -ERANGE with what is wrong in err. */
int uct_chk_add(struct uct_chk *c, const struct uct_hdr *h, const struct uct_seg *seg, unsigned i,
		char *err, size_t n);
/* A whole segment (its length, inputs and sleep masks): uct_seg_check with
 * c's tables. */
int uct_chk_seg(struct uct_chk *c, const struct uct_hdr *h, const struct uct_seg *seg, char *err,
		size_t n);

#endif
