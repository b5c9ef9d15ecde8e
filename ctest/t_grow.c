/*
 * t_grow.c - the growable arrays of model/ucm_grow.h: whatever the backing
 * (heap, anonymous mapping grown by mremap, or a heap array becoming a
 * mapping), growing keeps every element held, adds zero elements, leaves
 * an array that has room as it is and fails without harm; freeing a
 * mapping unmaps it.  Both backings are tested in every build (ASan builds
 * keep arrays on the heap unless told otherwise).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ct.h"
#include "ucm_grow.h"

/* Element i's value in the patterns written. */
static uint64_t pat(size_t i)
{
	return (uint64_t)i * 0x9E3779B97F4A7C15ull + 1;
}

/* Elements [0, n) hold the pattern, [n, to) are zero. */
static int holds(const uint64_t *a, size_t n, size_t to)
{
	for (size_t i = 0; i < to; i++)
		if (a[i] != (i < n ? pat(i) : 0))
			return 0;
	return 1;
}

/* Whether the page holding address p is mapped (msync fails with ENOMEM
 * on a range not mapped). */
static int mapped(const void *p)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(pg - 1);

	errno = 0;
	if (!msync((void *)a, (size_t)pg, MS_ASYNC))
		return 1;
	return errno == ENOMEM ? 0 : -1;
}

/* Grow an array of uint64 step by step to n elements, filling each step,
 * with arrays of map_from bytes or more mapped. */
static void grow_steps(size_t map_from, size_t first, size_t n)
{
	uint64_t *a = NULL;
	size_t have = 0;

	for (size_t cap = first; cap <= n; cap *= 3) {
		uint64_t *b = ucm_grow_at(a, sizeof(*a), cap, map_from);

		CT_REQUIRE(b);
		CT_EQ((uintptr_t)b % _Alignof(max_align_t), 0);
		CT_CHECK(holds(b, have, cap));
		for (size_t i = have; i < cap; i++)
			b[i] = pat(i);
		/* room enough: the same array, untouched */
		CT_CHECK(ucm_grow_at(b, sizeof(*b), cap / 2 + 1, map_from) == b);
		CT_CHECK(ucm_grow_at(b, sizeof(*b), cap, map_from) == b);
		CT_CHECK(holds(b, cap, cap));
		a = b;
		have = cap;
	}
	ucm_grow_free(a);
}

CT_TEST(grow_on_the_heap_keeps_and_zeroes)
{
	grow_steps(SIZE_MAX, 1, 100000);
}

CT_TEST(grow_as_a_mapping_keeps_and_zeroes)
{
	/* every array a mapping from the first; growths within the room
	 * reserved and past it (mremap, perhaps moving) */
	grow_steps(1, 1, 2000000);
	grow_steps(1, 1000, 3000000);
}

CT_TEST(grow_from_the_heap_into_a_mapping)
{
	/* 8-byte elements: on the heap to 511, a mapping from 512 */
	grow_steps(4096, 7, 600000);
	/* the default backing likewise (the heap throughout in ASan builds) */
	{
		uint32_t *a = ucm_grow(NULL, sizeof(*a), 3);

		CT_REQUIRE(a);
		a[2] = 7;
		a = ucm_grow(a, sizeof(*a), 1 << 20);
		CT_REQUIRE(a);
		CT_EQ(a[2], 7);
		CT_EQ(a[0], 0);
		CT_EQ(a[(1 << 20) - 1], 0);
		ucm_grow_free(a);
	}
}

CT_TEST(grow_failure_leaves_the_array)
{
	uint64_t *a = ucm_grow_at(NULL, sizeof(*a), 100, 1);

	CT_REQUIRE(a);
	for (size_t i = 0; i < 100; i++)
		a[i] = pat(i);
	/* n * size beyond what can be addressed: NULL, the array intact */
	CT_CHECK(!ucm_grow_at(a, sizeof(*a), SIZE_MAX / 4, 1));
	CT_CHECK(!ucm_grow_at(a, 3, SIZE_MAX / 2, 1));
	CT_CHECK(!ucm_grow_at(a, 0, 10, 1));
	CT_CHECK(holds(a, 100, 100));
	ucm_grow_free(a);
	ucm_grow_free(NULL);
}

CT_TEST(grow_free_unmaps_a_mapping)
{
	/* 1 MiB asked: the pages of its first and last element mapped until
	 * the array is freed */
	size_t n = (size_t)1 << 17;
	uint64_t *a = ucm_grow_at(NULL, sizeof(*a), n, 1);
	uint64_t *last;

	CT_REQUIRE(a);
	last = &a[n - 1];
	*last = 1;
	CT_EQ(mapped(a), 1);
	CT_EQ(mapped(last), 1);
	ucm_grow_free(a);
	CT_EQ(mapped(a), 0);
	CT_EQ(mapped(last), 0);
}

CT_MAIN()
