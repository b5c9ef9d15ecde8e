/*
 * uct_replay.h - the replay's state (internal to trace/, not installed; the
 * replay's interface is in uct_trace.h), shared by the replay of segments
 * (uct_replay.c) and the making of a vector's phase (uct_replay_vec.c).
 *
 * A segment sets the model's inputs (added up where several cover one
 * sub-event), the attributes it gives (the others keep the values the model
 * started the replay with: its defaults), and the sleep state of the cores
 * whose bit changed since the previous segment (a core woken by a PMI stays
 * awake until the trace puts it to sleep again).  A gap and the end of the
 * trace are segments with nothing in them.
 *
 * Each input vector the reader numbers (uct_next_vec) is made a model phase
 * once, when first met: its inputs summed per box and sub-event, checked
 * by the model once (ucm_phase_define); its attributes and sleep masks kept
 * beside it.  A segment is then ucm_phase_enter() of its vector's phase,
 * the attributes that differ from the previous vector's and the cores
 * whose sleep bit changes.  A vector the reader did not number (its
 * dictionary full), or one the model has no room for, sets its inputs one
 * by one after clearing them, which is what entering a phase means. */
#ifndef UCT_REPLAY_H
#define UCT_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ucm.h"
#include "uct_trace.h"

#define UCT_RMAXINST 256
#define UCT_RUNQ 256                     /* segments read ahead, run in one call */

/* An input value a vector sets: (box, sub-event) -> increment, with its
 * slot in the map that finds it while the vector is summed. */
struct uct_rsetv {
	int box;
	unsigned sub;
	uint32_t v;
	unsigned slot;
};

/* An attribute a vector gives: index in attr0 (box, sub-event, attribute)
 * and value. */
struct uct_raset {
	int box;
	unsigned sub, a;
	size_t idx;
	uint64_t v;
};

/* What the replay made of a vector. */
struct uct_rvec {
	int phase;                        /* model phase, -1: set input by input */
	uint32_t i0, ni;                  /* its inputs in the pool (phase -1) */
	uint32_t a0, na;                  /* its attributes in the pool */
};

/* A replay: what it made of the trace's vectors, the segments read ahead. */
struct uct_replay {
	struct ucm_model *m;
	struct uct_reader *r;
	uint64_t base_cycles;
	struct uct_seg seg;
	int vid, full;                    /* the pending segment's vector */
	int pending, done;
	uint64_t cycles;
	unsigned nsock, nmask;            /* sockets; sleep masks kept (<= UCT_MAXSOCK) */
	uint64_t coremask;                /* the model's cores (of a socket) as bits */
	int16_t *map;                     /* box per (socket, box type, instance), -1 */
	unsigned ninst[UCM_MAXBT];        /* instances of each box type */
	uint64_t *attr0;                  /* attributes at attach, per box, sub-event, attr */
	size_t *aoff;                     /* where each box's start in attr0 */
	uint32_t *astamp;                 /* per attr0 entry: the change that set it last */
	uint32_t stamp;
	uint64_t asleep[UCT_MAXSOCK];     /* the sleep masks the trace set last */
	struct uct_rvec *vec;             /* per numbered vector; phase -2: not met yet */
	unsigned nvec;
	struct uct_rvec once[2], idle;    /* unnumbered vectors (alternating), no vector */
	unsigned oncei;
	const struct uct_rvec *cur;       /* the vector in effect */
	const struct uct_rvec *gapv;      /* vid -3: the vector made before a gap */
	const struct uct_raset *gapva;
	int attached;
	/* segments read ahead while the model sums phases (read_ahead):
	 * their phases and ends (the model's cycles of clock 0), their
	 * vectors; the first not run yet (qi) of qn; the result of the read
	 * that ended them (its segment in seg) not taken in yet */
	struct ucm_step q[UCT_RUNQ];
	const struct uct_rvec *qv[UCT_RUNQ];
	uint64_t qm[UCT_RUNQ][UCT_MAXSOCK]; /* their sleep masks (nmask words each) */
	unsigned qi, qn, qf;              /* qf: none before it changes masks (UCT_RUNQ: none) */
	int held, held_rc;
	uint64_t tnum, tden, tmax;        /* cycle_time: 10^12 / hz reduced; steps without overflow */
	uint64_t tinv;                    /* floor((2^64 - 1) / tden): division as a multiply */
	uint64_t tc, tq, tr;              /* the last cycle converted, its quotient and remainder */
	uint64_t tq1, tr1;                /* tnum / tden, tnum % tden */
	struct uct_rsetv *ipool;          /* inputs of vectors set one by one */
	size_t nipool, capipool;
	struct uct_raset *apool;          /* attributes of numbered vectors */
	size_t napool, capapool;
	struct uct_raset *aonce[2];       /* of the unnumbered ones */
	size_t capaonce[2];
	struct uct_rsetv *nxt;            /* a vector being summed */
	size_t nnxt, capset;
	int *hslot;                       /* nxt's map: entry per slot, -1 free */
	struct ucm_phase_in *pin;
	struct ucm_phase_attr *pat;       /* a box's attributes, for its box vector */
	size_t cappat;
	/* the box types' parts of numbered vectors, each distinct one once
	 * (vec_phase): its inputs and the box vector it gives each instance */
	struct uct_rgrp *grp;
	size_t ngrp, capgrp;
	int32_t *gslot;                   /* grp's map: 2 x capgrp, -1 free */
	struct uct_in *gin;
	size_t ngin, capgin;
	int *gid;
	size_t ngid, capgid;
	int *vids;                        /* a vector's box vectors */
	size_t capvids;
	int16_t kslot[UCT_MAXSOCK * UCM_MAXBT]; /* vec_phase's buckets, -1 between calls */
	/* a numbered chunk's groups (uct_replay_chunks_phase): cgn[c] of
	 * them from cg0[c] (-1: not met yet) in cgk (keys) and cgi (groups) */
	int32_t *cg0;
	uint8_t *cgn, *cgk;
	int32_t *cgi;
	size_t capcg, ncgk, capcgk, capcgi;
	struct uct_seg *cseg;             /* a chunk's inputs */
	char err[768];
};

/* A box type's part of a vector: the inputs a segment gives one (socket,
 * box type), in the segment's order, gin[in0, in0 + nin); it gives each
 * instance i box vector gid[id0 + i] (-1: no such box). */
struct uct_rgrp {
	uint64_t hash;
	uint32_t in0, nin, id0;
	uint8_t socket, bt;
};

/* A model error met while replaying: its message kept as the replay's, the
 * model's error set; returns what ucm_set_error returns.  Here, not in
 * uct_replay.c, so that uct_replay_vec.c calls nothing there. */
static inline int uct_replay_apply_fail(struct uct_replay *p, int rc)
{
	snprintf(p->err, sizeof(p->err), "%s", ucm_error(p->m));
	return ucm_set_error(p->m, rc, p->err);
}
/* Room for twice as many entries of a vector being summed (nxt, pin,
 * hslot), those there rehashed. */
int uct_replay_grow_sets(struct uct_replay *p);
/* What segment s's vector means to the model, into v: for a numbered vector
 * a phase if the model has room, else its inputs and attributes in the
 * pools; for an unnumbered one in scratch space (nxt, aonce). */
int uct_replay_make_vec(struct uct_replay *p, const struct uct_seg *s, struct uct_rvec *v,
			int numbered);
/* The pending segment's new vector's phase from the chunks the reader read
 * it as, without its inputs: the phase, -EAGAIN (no such chunks), -ENOSPC
 * (no room in the model), -ENOMEM. */
int uct_replay_chunks_phase(struct uct_replay *p);

#endif
