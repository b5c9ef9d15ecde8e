/*
 * uct_vdict.h - the vector dictionary (internal to trace/, not installed;
 * uct_vdict.c).
 *
 * The input vectors of a trace (a segment's inputs, attributes and sleep
 * masks), each held once as its encoding, numbered in order of first
 * appearance, found again by a hash of the encoding.  Bounded: at most
 * UCT_MAXVEC vectors and UCT_MAXVECBYTES bytes, after which a new vector is
 * not numbered (the binary vector form's rule, which its writer and reader
 * apply alike).
 *
 * The arrays are ucm_grow's (model/ucm_grow.h: no copy as they grow, pages
 * written once).  Only a dictionary that is searched (the writer's, the
 * text and record forms' reader's) keeps the hashes and their slots: the
 * binary vector form numbers its vectors itself, so its reader only adds
 * and looks vectors up by number.  A dictionary is indexed from its first
 * search, which the users make before adding anything. */
#ifndef UCT_VDICT_H
#define UCT_VDICT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct uct_vdict {
	unsigned n, capn;
	uint32_t *off, *len;
	int indexed;
	uint64_t *hash;           /* indexed: each vector's */
	int32_t *slot;            /* indexed: 2 * capn, 0 free, else the vector + 1 */
	unsigned char *bytes;
	size_t nbytes, cap;
	size_t counted;           /* the bytes the format's limit counts */
	int chunks;               /* the chunks' limits, not the vectors' */
};

/* Eight bytes a step (a byte a step was a tenth of reading a trace with
 * many vectors: each multiply waits for the one before).  Only this
 * process compares the values: the byte order of a word does not matter. */
static inline uint64_t uct_vd_hash(const unsigned char *b, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ n, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDull;
		h ^= h >> 32;
	}
	for (w = 0; i < n; i++)
		w = w << 8 | b[i];
	h = (h ^ w) * 0xFF51AFD7ED558CCDull;
	return h ^ (h >> 29);
}

/* The arrays freed, d emptied. */
void uct_vd_free(struct uct_vdict *d);
/* The number of the vector encoded as b[0..n) (hash h), -1 when not numbered. */
int uct_vd_find(struct uct_vdict *d, const unsigned char *b, size_t n, uint64_t h);
/* Number a new vector stored as b[0..n), `counted` bytes by the format's
 * rule: its number, -1 when the dictionary is full by that rule, -ENOMEM. */
int uct_vd_add_as(struct uct_vdict *d, const unsigned char *b, size_t n, uint64_t h,
		  size_t counted);

/* Number a new vector, its bytes counted as stored. */
static inline int uct_vd_add(struct uct_vdict *d, const unsigned char *b, size_t n, uint64_t h)
{
	return uct_vd_add_as(d, b, n, h, n);
}

#endif
