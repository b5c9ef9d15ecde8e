/*
 * ucm_grow.c - growable arrays: small ones on the heap, large ones
 * anonymous mappings grown by mremap without copying (ucm_grow.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* for mremap, should a build not define it */
#endif
#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ucm_grow.h"

#if defined(__SANITIZE_ADDRESS__)
#define GROW_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GROW_ASAN 1
#endif
#endif

#ifdef GROW_ASAN
#define MAP_FROM SIZE_MAX
#else
#define MAP_FROM UCM_GROW_MAP
#endif

/* Before each array: its capacity in bytes and whether it is a mapping
 * (the header starts the block or the mapping); the size keeps the array
 * as aligned as malloc's blocks. */
struct hdr {
	alignas(max_align_t) size_t bytes;
	size_t mapped;
};

void *ucm_grow_at(void *p, size_t size, size_t n, size_t map_from)
{
	struct hdr *h = p ? (struct hdr *)p - 1 : NULL, *nh;
	size_t old = h ? h->bytes : 0, len;

	if (!size || n > (SIZE_MAX - sizeof(*h)) / size)
		return NULL;
	len = n * size;
	if (len <= old)
		return p;
	/* a mapping reserves four times what is asked: capacity not written
	 * costs no memory, and the next growths then cost no system call */
	if (len >= map_from && len <= (SIZE_MAX - sizeof(*h)) / 4)
		len *= 4;
	if (h && h->mapped) {
		/* the kernel moves the pages: those past the old length, and the
		 * old last page's tail (never written), are zero */
		nh = mremap(h, sizeof(*h) + old, sizeof(*h) + len, MREMAP_MAYMOVE);
		if (nh == MAP_FAILED)
			return NULL;
	} else if (len < map_from) {
		if (!(nh = realloc(h, sizeof(*h) + len)))
			return NULL;
		memset((char *)(nh + 1) + old, 0, len - old);
		nh->mapped = 0;
	} else {
		/* from the heap (or nothing) to a mapping: one copy, the rest
		 * zero as mapped */
		nh = mmap(NULL, sizeof(*h) + len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
		if (nh == MAP_FAILED)
			return NULL;
		if (h) {
			memcpy(nh + 1, h + 1, old);
			free(h);
		}
		nh->mapped = 1;
	}
	nh->bytes = len;
	return nh + 1;
}

void *ucm_grow(void *p, size_t size, size_t n)
{
	return ucm_grow_at(p, size, n, MAP_FROM);
}

void ucm_grow_free(void *p)
{
	struct hdr *h = p ? (struct hdr *)p - 1 : NULL;

	if (!h)
		return;
	if (h->mapped)
		munmap(h, sizeof(*h) + h->bytes);
	else
		free(h);
}
