/*
 * fz.h - helpers shared by the fuzz harnesses: a reader of bounded operands
 * from the input (structure-aware: each operation takes a few bytes, so a
 * small mutation changes one operation), and the failure report.
 */
#ifndef FZ_H
#define FZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct fz {
	const uint8_t *p;
	size_t n;
};

static inline int fz_more(const struct fz *f)
{
	return f->n > 0;
}

/* Past the end every operand reads 0: inputs are never rejected. */
static inline uint8_t fz_u8(struct fz *f)
{
	if (!f->n)
		return 0;
	f->n--;
	return *f->p++;
}

static inline uint16_t fz_u16(struct fz *f)
{
	uint16_t v = fz_u8(f);

	return (uint16_t)(v | fz_u8(f) << 8);
}

static inline uint32_t fz_u32(struct fz *f)
{
	uint32_t v = fz_u16(f);

	return v | (uint32_t)fz_u16(f) << 16;
}

static inline uint64_t fz_u64(struct fz *f)
{
	uint64_t v = fz_u32(f);

	return v | (uint64_t)fz_u32(f) << 32;
}

/* A divergence or broken invariant: say what, then crash so that the
 * fuzzer keeps the input. */
#define FZ_FAIL(...)                                                          \
	do {                                                                  \
		fprintf(stderr, "fuzz: %s:%d: ", __FILE__, __LINE__);         \
		fprintf(stderr, __VA_ARGS__);                                 \
		fputc('\n', stderr);                                          \
		abort();                                                      \
	} while (0)

/* A checking function the fuzzer need not trace: its branches and
 * comparisons are about register values, not input bytes, and run for
 * every register after every operation (clang's libFuzzer build). */
#if defined(__clang__)
#define FZ_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define FZ_NO_COVERAGE
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
