/*
 * uct_reader.h - a trace reader's state (internal to trace/, not
 * installed): its input, and what the text reader (uct_text.c), the binary
 * reader (uct_bin.c) and the replay's read-ahead (uct_replay.c) keep in it;
 * the reader's common parts (uct_reader.c): its errors and the general path
 * of uct_next and uct_next_vec.
 */
#ifndef UCT_READER_H
#define UCT_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uct_check.h"
#include "uct_src.h"
#include "uct_trace.h"

/* uct_next's needs: the segment's content, its vector's number. */
#define UCT_NEED_CONTENT 1
#define UCT_NEED_VID 2

struct uct_rchunk;
struct uct_vdict;

/* A reader: its input and header, and each encoding's state. */
struct uct_reader {
	uint64_t end_cycles;     /* uct_open_checked: where the last segment ends */
	int checked;
	struct uct_src src;
	struct uct_chk *chk;
	char name[256];
	int binary;
	struct uct_hdr hdr;
	char err[720];
	int failed;
	/* text */
	char *line;
	size_t lineno;
	/* sub-event names met, by box type: a name is looked up in the
	 * tables once (slot: bt + 1, 0 empty; a name longer than the key is
	 * looked up every time) */
	struct { uint8_t bt; uint16_t sub; char key[45]; } names[1024];
	const struct ucm_boxtype *last_bt; /* the box type last named, its index */
	int last_bti;
	int have_pending;        /* the header parse read the first segment line */
	unsigned sleep_seen;     /* sockets whose sleep mask this line gave */
	uint64_t end;            /* end of the previous segment, in cycles */
	uint64_t nseg;
	/* binary */
	uint64_t off;            /* the offset an error names */
	uint64_t pos;            /* file offset of the next block */
	uint64_t pay;            /* file offset of the current block's payload */
	unsigned char *blk;
	size_t blen, bpos, brecs;/* current segment block: length, position, records left */
	size_t bcap;             /* allocated for blk */
	unsigned nsym;
	struct { uint8_t bt; uint16_t sub; } sym[4096];
	int ended;
	int vform;               /* the binary vector form (flags bit 0) */
	int chunked;             /* its new vectors given as chunks (flags bit 1) */
	int changes;             /* its sleep masks as the cores that change (flags bit 2) */
	int empty;               /* those changes may be none (flags bit 3) */
	struct uct_vdict *cd;    /* the chunks numbered: each its `inputs` encoding */
	struct uct_rchunk *ch;   /* per chunk numbered: what bin_chunks needs of it */
	size_t capch;
	struct uct_seg *cseg;    /* a new chunk's inputs */
	unsigned char *vbuf;     /* a chunked vector's `inputs` encoding, assembled */
	/* the chunks of the last new vector whose content was not decoded
	 * (every one numbered before, each of another socket and box type):
	 * the replay makes its phase from them (uct_replay_chunks_phase) */
	uint32_t lch[UCT_MAXIN];
	unsigned nlch;
	int lch_vid;
	/* per vector: 0, its `inputs` encoding in vd; else kept as its chunks'
	 * numbers, that encoding assembled once asked for (pd entry k for
	 * k + 1, -1 not yet) */
	int32_t *vlisted;
	struct uct_vdict *pd;
	size_t capvl;
	uint64_t maxend;         /* binary: the latest end a record may have */
	uint64_t asleep[UCT_MAXSOCK];  /* vector form: the last sleep masks given */
	uint64_t cores;          /* binary: the platform's cores (of a socket) as bits */
	struct uct_vdict *vd;    /* the vectors numbered */
	unsigned char *vkey;     /* text and record form: a vector's key */
};

/* Whether a trace ending at reference cycle `end` lasts longer than
 * UCT_MAXSECONDS of machine time (or 2^56 cycles); the message says which. */
static inline int uct_too_long(const struct uct_reader *r, uint64_t end, char *err, size_t n)
{
	uint64_t hz = uct_hz_of(&r->hdr, 0);

	if (end > UCT_MAXCYCLES) {
		snprintf(err, n, "trace longer than 2^56 cycles");
		return 1;
	}
	if (end <= UCT_MAXSECONDS * hz)
		return 0;
	snprintf(err, n,
		 "the trace would last %.6g s of machine time (%llu cycles at %llu Hz %s): more than the limit of %llu s",
		 (double)end / (double)hz, (unsigned long long)end, (unsigned long long)hz,
		 r->hdr.plat->clocks[0].name, UCT_MAXSECONDS);
	return 1;
}

/* An error: file:line:col for text, file:offset (r->off) for binary, in
 * r->err; the reader has failed.  Returns -EINVAL. */
int uct_rerr(struct uct_reader *r, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The next segment of either encoding, with what `need` asks for
 * (UCT_NEED_*): 1, 0 at the end, < 0 an error (in r->err). */
int uct_next_any(struct uct_reader *r, struct uct_seg *seg, int need, int *vid, int *full);

#endif
