/*
 * uct_vdict.c - the vector dictionary (uct_vdict.h): vectors numbered as
 * they come, within the format's limits, and found again by their
 * encoding once searched.
 */
#include <errno.h>
#include <string.h>

#include "ucm_grow.h"
#include "uct_trace.h"
#include "uct_vdict.h"

void uct_vd_free(struct uct_vdict *d)
{
	ucm_grow_free(d->off);
	ucm_grow_free(d->len);
	ucm_grow_free(d->hash);
	ucm_grow_free(d->slot);
	ucm_grow_free(d->bytes);
	memset(d, 0, sizeof(*d));
}

/* The number of the vector encoded as b[0..n), -1 when not numbered. */
int uct_vd_find(struct uct_vdict *d, const unsigned char *b, size_t n, uint64_t h)
{
	unsigned mask = 2 * d->capn - 1;

	if (!d->indexed) {
		/* the first search: indexed from now on (vectors added before,
		 * not the users' way, are compared one by one) */
		for (unsigned v = 0; v < d->n; v++)
			if (d->len[v] == n && !memcmp(d->bytes + d->off[v], b, n))
				return (int)v;
		if (d->n)
			return -1;
		d->indexed = 1;
	}
	if (!d->slot)
		return -1;
	for (unsigned i = (unsigned)h & mask; d->slot[i]; i = (i + 1) & mask) {
		int32_t v = d->slot[i] - 1;

		if (d->hash[v] == h && d->len[v] == n && !memcmp(d->bytes + d->off[v], b, n))
			return v;
	}
	return -1;
}

/* Number a new vector stored as b[0..n), `counted` bytes by the format's
 * rule (a chunked vector stored as its chunks' numbers counts its inputs'
 * bytes): its number, -1 when the dictionary is full by that rule,
 * -ENOMEM. */
int uct_vd_add_as(struct uct_vdict *d, const unsigned char *b, size_t n, uint64_t h,
		  size_t counted)
{
	unsigned i, mask;

	if (d->n >= (d->chunks ? UCT_MAXCHUNK : UCT_MAXVEC) ||
	    counted > (d->chunks ? UCT_MAXCHUNKBYTES : UCT_MAXVECBYTES) - d->counted)
		return -1;
	if (d->n == d->capn) {
		/* grown as vectors come (most traces have few); when indexed,
		 * the slots twice the vectors, rehashed */
		unsigned cap = d->capn ? 2 * d->capn : 16;
		uint32_t *off, *len;
		uint64_t *hash;
		int32_t *slot;

		if (!(off = ucm_grow(d->off, sizeof(*off), cap)))
			return -ENOMEM;
		d->off = off;
		if (!(len = ucm_grow(d->len, sizeof(*len), cap)))
			return -ENOMEM;
		d->len = len;
		if (d->indexed) {
			if (!(hash = ucm_grow(d->hash, sizeof(*hash), cap)))
				return -ENOMEM;
			d->hash = hash;
			if (!(slot = ucm_grow(NULL, sizeof(*slot), 2 * (size_t)cap)))
				return -ENOMEM;
			ucm_grow_free(d->slot);
			d->slot = slot;
			for (unsigned v = 0; v < d->n; v++) {
				for (i = (unsigned)d->hash[v] & (2 * cap - 1); slot[i]; i = (i + 1) & (2 * cap - 1))
					;
				slot[i] = (int32_t)v + 1;
			}
		}
		d->capn = cap;
	}
	/* (allocated at the first, even an empty vector: entries point into it) */
	if (d->nbytes + n > d->cap || !d->bytes) {
		size_t cap = d->cap ? d->cap : 1024;
		unsigned char *nb;

		while (cap < d->nbytes + n)
			cap *= 2;
		if (!(nb = ucm_grow(d->bytes, 1, cap)))
			return -ENOMEM;
		d->bytes = nb;
		d->cap = cap;
	}
	if (n)
		memcpy(d->bytes + d->nbytes, b, n);
	d->counted += counted;
	d->off[d->n] = (uint32_t)d->nbytes;
	d->len[d->n] = (uint32_t)n;
	d->nbytes += n;
	if (d->indexed) {
		d->hash[d->n] = h;
		mask = 2 * d->capn - 1;
		for (i = (unsigned)h & mask; d->slot[i]; i = (i + 1) & mask)
			;
		d->slot[i] = (int32_t)d->n + 1;
	}
	return (int)d->n++;
}
