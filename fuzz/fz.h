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
#include <string.h>

#include "ucm.h"

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
 * every register after every operation (clang's libFuzzer build).  Never
 * inlined: inlined into a traced caller, its code would be traced there. */
#if defined(__clang__)
#define FZ_NO_COVERAGE __attribute__((no_sanitize("coverage"), noinline))
#else
#define FZ_NO_COVERAGE
#endif

/* The model of a configuration, for one input: the model an earlier input
 * of the same configuration used, restarted (ucm_restart: exactly the
 * state of a new model, ctest t_restart), or a new one.  Building a model
 * per input cost a quarter of the harnesses' time (docs/fuzzing.md,
 * "Speed").  The FZ_MODELS most recently used configurations are kept
 * (about 1 MB each under ASan: a mutated header makes a new
 * configuration, so fewer would be created again and again); the harness
 * never destroys the model it gets.  NULL: ucm_create failed (its error in
 * *err).  Configurations are compared whole, bytes and all (a hash first):
 * the harnesses make them with ucm_config_init, which zeroes them (padding
 * too), then set fields. */
#define FZ_MODELS 512

static inline uint64_t fz_config_hash(const struct ucm_config *cfg)
{
	const unsigned char *p = (const unsigned char *)cfg;
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */

	for (size_t i = 0; i < sizeof(*cfg); i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static inline struct ucm_model *fz_model(const struct ucm_config *cfg, char *err, size_t nerr)
{
	static struct {
		struct ucm_config cfg;
		uint64_t hash, used;
		struct ucm_model *m;
	} kept[FZ_MODELS];
	static uint64_t clock;
	uint64_t h = fz_config_hash(cfg);
	unsigned k, lru = 0;
	struct ucm_model *m = NULL;

	for (k = 0; k < FZ_MODELS && kept[k].m; k++)
		if (kept[k].hash == h && !memcmp(&kept[k].cfg, cfg, sizeof(*cfg))) {
			kept[k].used = ++clock;
			ucm_restart(kept[k].m);
			return kept[k].m;
		}
	if (ucm_create(cfg, &m)) {
		snprintf(err, nerr, "%s", m ? ucm_error(m) : "no memory");
		ucm_destroy(m);
		return NULL;
	}
	if (k == FZ_MODELS) { /* all taken: the least recently used goes */
		for (k = 1; k < FZ_MODELS; k++)
			if (kept[k].used < kept[lru].used)
				lru = k;
		ucm_destroy(kept[lru].m);
		k = lru;
	}
	memcpy(&kept[k].cfg, cfg, sizeof(*cfg));
	kept[k].hash = h;
	kept[k].m = m;
	kept[k].used = ++clock;
	return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
