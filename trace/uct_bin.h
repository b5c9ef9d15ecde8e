/*
 * uct_bin.h - the binary reader (internal to trace/, not installed;
 * uct_bin.c) and its fast paths: the vector form's common records read
 * straight from the block.  The fast paths are here, inline, because they
 * run per record in more than one file: in uct_next_vec and the check of
 * uct_open_checked (uct_reader.c) and in the replay's read-ahead
 * (uct_replay.c), where a call per record or field would cost a good part
 * of the record's read.
 */
#ifndef UCT_BIN_H
#define UCT_BIN_H

#include <stddef.h>
#include <stdint.h>

#include "uct_reader.h"
#include "uct_vdict.h"

/* zero bytes after a block read: the replay's ahead_fast reads past its end
 * before checking */
#define UCT_BLKPAD 32

/* After the magic: the header's flags and header block; 0, or < 0 with the
 * error in the reader. */
int uct_bin_header(struct uct_reader *r);
/* The next segment, with what `need` asks for (UCT_NEED_*), *vid and *full
 * as uct_next_vec gives them: 1, 0 at the end, < 0 an error. */
int uct_bin_next(struct uct_reader *r, struct uct_seg *seg, int need, int *vid, int *full);
/* An `inputs` encoding read before (a vector or a chunk numbered, a
 * chunked vector assembled: checked where it was given) into seg. */
int uct_bin_inputs_of(struct uct_reader *r, unsigned char *b, size_t n, struct uct_seg *seg);
/* The inputs of vector vid, numbered before (the replay's, for a chunked
 * vector it did not make from its chunks). */
int uct_vector_content(struct uct_reader *r, int vid, struct uct_seg *seg);

/* ---- the fast paths ----
 *
 * Inlined as they were when the reader and the replay were one file:
 * uct_fast_var into every caller, uct_fast_masks (the less common records,
 * with masks of their own) called.  Left to the compiler, the reader's file
 * made the opposite choice in uct_next_vec, a call per varint. */

/* A varint of at most 8 bytes (56 bits) at p, before end; the bytes read,
 * 0 for anything else (the general path then reads it, errors and all). */
static inline __attribute__((always_inline)) unsigned uct_fast_var(const unsigned char *p,
								   const unsigned char *end,
								   uint64_t *v)
{
	uint64_t x = 0;

	/* most of a record's fields are one or two bytes (branches: a
	 * field's length predicted lets the next one's load start; tried
	 * without a branch, eight bytes at once: reading took twice as long) */
	if (p < end && p[0] < 0x80) {
		*v = p[0];
		return 1;
	}
	if (end - p >= 2 && p[1] < 0x80) {
		*v = (p[0] & 0x7Fu) | (uint64_t)p[1] << 7;
		return 2;
	}
	for (unsigned i = 0; i < 8 && p + i < end; i++) {
		x |= (uint64_t)(p[i] & 0x7F) << (7 * i);
		if (!(p[i] & 0x80)) {
			*v = x;
			return i + 1;
		}
	}
	return 0;
}

/* uct_fast_var where the bytes past the block's end it may read are there
 * (UCT_BLKPAD zero bytes follow every block): no end to check at each byte;
 * whoever reads so checks the field ends no later than the block.  (Its
 * own body: as uct_fast_var(p, p + 8, v), or uct_fast_var as a call of it, G1
 * ivt `cstate` or G3's decoding ran 3-13 % slower.) */
static inline unsigned uct_fast_var_pad(const unsigned char *p, uint64_t *v)
{
	uint64_t x = 0;

	if (p[0] < 0x80) {
		*v = p[0];
		return 1;
	}
	if (p[1] < 0x80) {
		*v = (p[0] & 0x7Fu) | (uint64_t)p[1] << 7;
		return 2;
	}
	for (unsigned i = 0; i < 8; i++) {
		x |= (uint64_t)(p[i] & 0x7F) << (7 * i);
		if (!(p[i] & 0x80)) {
			*v = x;
			return i + 1;
		}
	}
	return 0;
}

/* Sleep masks copied as words: memcpy of 64 bytes becomes a string move
 * whose start-up is most of a vector form record's cost. */
static inline void uct_copy_masks(uint64_t *to, const uint64_t *from)
{
#if UCT_MAXSOCK != 8
#error "uct_copy_masks copies 8 masks"
#endif
	to[0] = from[0];
	to[1] = from[1];
	to[2] = from[2];
	to[3] = from[3];
	to[4] = from[4];
	to[5] = from[5];
	to[6] = from[6];
	to[7] = from[7];
}

/* Sleep masks zeroed as words: a loop becomes a string store whose
 * start-up costs more than a vector form record's read. */
static inline void uct_zero_masks(uint64_t *to)
{
	to[0] = 0;
	to[1] = 0;
	to[2] = 0;
	to[3] = 0;
	to[4] = 0;
	to[5] = 0;
	to[6] = 0;
	to[7] = 0;
}

/* The sleep masks of a vector form record at p (before e) as bin_sleep
 * reads and checks them, into m (every socket's, word by word: the replay
 * reads them so right after), or with sleep changes (flags bit 2) as
 * bin_changes reads them, the cores named changed in m; the bytes read, or
 * 0 for anything those would refuse or uct_fast_var does not read (the general
 * path then reads them again, errors and all: masks rewrite m there, and
 * changes are applied here only once all are read). */
static __attribute__((noinline)) unsigned uct_fast_masks(const struct uct_reader *r,
							 const unsigned char *p,
							 const unsigned char *e, uint64_t *m)
{
	uint64_t ns, sock, v;
	unsigned a, k, at, last = 0;

	if (r->changes) {
		/* the cores that change (bin_changes' checks), applied only
		 * once all are read: the general path reads them again from
		 * the masks as they were */
		uint64_t idx[8], x;

		if (!(at = uct_fast_var(p, e, &ns)) || (!ns && !r->empty) || ns > 8)
			return 0;
		for (k = 0; k < ns; k++) {
			if (!(a = uct_fast_var(p + at, e, &x)) || (k && x <= idx[k - 1]) ||
			    x >> 6 >= r->hdr.sockets || !(r->cores >> (x & 63) & 1))
				return 0;
			idx[k] = x;
			at += a;
		}
		for (k = 0; k < ns; k++)
			m[idx[k] >> 6] ^= 1ull << (idx[k] & 63);
		return at;
	}
	if (!(at = uct_fast_var(p, e, &ns)) || ns > r->hdr.sockets)
		return 0;
	uct_zero_masks(m);
	for (k = 0; k < ns; k++) {
		if (!(a = uct_fast_var(p + at, e, &sock)) || sock >= r->hdr.sockets || (k && sock <= last))
			return 0;
		at += a;
		if (!(a = uct_fast_var(p + at, e, &v)) || !v || (v & ~r->cores))
			return 0;
		at += a;
		m[sock] = v;
		last = (unsigned)sock;
	}
	return at;
}

/* uct_fast_masks into m, and every socket's copied to m2 */
static inline unsigned uct_fast_sleep(const struct uct_reader *r, const unsigned char *p,
				      const unsigned char *e, uint64_t *m, uint64_t *m2)
{
	unsigned at = uct_fast_masks(r, p, e, m);

	if (at)
		uct_copy_masks(m2, m);
	return at;
}

/* The vector form's common records, a reference to a vector numbered
 * before with the previous record's sleep masks or with its own, that is
 * not the last of its block: its time and its masks checked as uct_bin_next
 * checks them, nothing else to read.  Returns 1 with the segment read, 0
 * with nothing read (the general path then reads it, errors and all). */
static inline int uct_fast_next(struct uct_reader *r, struct uct_seg *seg, int *vid, int *full)
{
	const unsigned char *p, *e;
	uint64_t gap, nc, code;
	unsigned a, b, c;

	/* (a text reader has no block: no pointer into one before this) */
	if (!r->vform || r->brecs <= 1 || r->failed)
		return 0;
	p = r->blk + r->bpos;
	e = r->blk + r->blen;
	if (!(a = uct_fast_var(p, e, &gap)) || !(b = uct_fast_var(p + a, e, &nc)) ||
	    !(c = uct_fast_var(p + a + b, e, &code)) || !(code >> 1) || !r->vd ||
	    (code >> 1) - 1 >= r->vd->n || !nc || gap > r->maxend - r->end ||
	    nc > r->maxend - r->end - gap)
		return 0;
	if (code & 1) {
		/* its masks: every socket's, those not given 0 */
		unsigned d;

		if (r->hdr.version < 2 || !(d = uct_fast_sleep(r, p + a + b + c, e, r->asleep, seg->asleep)))
			return 0;
		c += d;
	} else {
		uct_copy_masks(seg->asleep, r->asleep);
	}
	seg->start = r->end + gap;
	seg->ncycles = nc;
	r->end = seg->start + nc;
	r->bpos += a + b + c;
	r->nseg++;
	r->brecs--;
	*vid = (int)((code >> 1) - 1);
	*full = 0;
	return 1;
}

/* uct_next_vec(r, seg, 0, vid, full) inline: the replay's read of a
 * segment where its read-ahead from the block stops (uct_replay.c). */
static inline int uct_next_vec_inline(struct uct_reader *r, struct uct_seg *seg, int *vid,
				      int *full)
{
	if (uct_fast_next(r, seg, vid, full))
		return 1;
	return uct_next_any(r, seg, UCT_NEED_VID, vid, full);
}

#endif
