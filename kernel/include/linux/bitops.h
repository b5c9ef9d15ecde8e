/*
 * linux/bitops.h - bit operations on unsigned long arrays and population
 * counts, as the kernel defines them (the atomic and the non-atomic
 * "__" forms are the same here: the layer runs the driver on one thread).
 */
#ifndef UCK_LINUX_BITOPS_H
#define UCK_LINUX_BITOPS_H

#include <linux/kernel.h>

#define BIT_WORD_(n) ((n) / BITS_PER_LONG)
#define BIT_MASK_(n) (1UL << ((n) % BITS_PER_LONG))

static inline void __set_bit(long n, unsigned long *a) { a[BIT_WORD_(n)] |= BIT_MASK_(n); }
static inline void __clear_bit(long n, unsigned long *a) { a[BIT_WORD_(n)] &= ~BIT_MASK_(n); }
static inline void set_bit(long n, unsigned long *a) { __set_bit(n, a); }
static inline void clear_bit(long n, unsigned long *a) { __clear_bit(n, a); }
static inline bool test_bit(long n, const unsigned long *a) { return (a[BIT_WORD_(n)] & BIT_MASK_(n)) != 0; }

static inline bool __test_and_clear_bit(long n, unsigned long *a)
{
	bool was = test_bit(n, a);

	__clear_bit(n, a);
	return was;
}

static inline bool __test_and_set_bit(long n, unsigned long *a)
{
	bool was = test_bit(n, a);

	__set_bit(n, a);
	return was;
}

#define test_and_clear_bit __test_and_clear_bit
#define test_and_set_bit __test_and_set_bit

static inline unsigned int hweight32(u32 w) { return (unsigned int)__builtin_popcount(w); }
static inline unsigned int hweight64(u64 w) { return (unsigned int)__builtin_popcountll(w); }
static inline unsigned long hweight_long(unsigned long w) { return (unsigned long)__builtin_popcountl(w); }

static inline unsigned long find_next_bit(const unsigned long *a, unsigned long size, unsigned long off)
{
	for (; off < size; off++)
		if (test_bit((long)off, a))
			return off;
	return size;
}

static inline unsigned long find_next_zero_bit(const unsigned long *a, unsigned long size,
					       unsigned long off)
{
	for (; off < size; off++)
		if (!test_bit((long)off, a))
			return off;
	return size;
}

#define find_first_bit(a, size) find_next_bit(a, size, 0)
#define find_first_zero_bit(a, size) find_next_zero_bit(a, size, 0)
#define for_each_set_bit(bit, addr, size)                                        \
	for ((bit) = find_first_bit((addr), (size)); (bit) < (size);             \
	     (bit) = find_next_bit((addr), (size), (bit) + 1))

static inline void bitmap_zero(unsigned long *a, unsigned int nbits)
{
	memset(a, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_copy(unsigned long *d, const unsigned long *s, unsigned int nbits)
{
	memcpy(d, s, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline unsigned int bitmap_weight(const unsigned long *a, unsigned int nbits)
{
	unsigned int i, w = 0;

	for (i = 0; i < nbits; i++)
		w += test_bit(i, a);
	return w;
}

#endif
