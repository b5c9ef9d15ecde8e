/*
 * ct_skl.h - the Skylake-client manual's addresses and bits, written out
 * for the model tests independently of the model's tables (expected values
 * must not come from the code under test).
 */
#ifndef CT_SKL_H
#define CT_SKL_H

#include <stdint.h>

#define BIT(n) (1ull << (n))

/* Table 2-1 */
#define GCTL 0xE01u
#define GSTAT 0xE02u
#define FIXED_CTRL 0x394u
#define FIXED_CTR 0x395u
#define ARB_CTR(i) (0x3B0u + (i))
#define ARB_SEL(i) (0x3B2u + (i))
#define CBO_SEL(n, i) (0x700u + 0x10u * (n) + (i))
#define CBO_CTR(n, i) (0x706u + 0x10u * (n) + (i))

/* Table 2-7 PERFEVTSEL */
#define SEL_EN BIT(22)
#define SEL_OVF BIT(20)
#define SEL_INV BIT(23)
#define SEL_E BIT(18)
#define SEL_THR(t) ((uint64_t)(t) << 24)
#define EV(code, umask) ((uint64_t)(code) | ((uint64_t)(umask) << 8))

/* 3.3: the MCHBAR default of the model (decision D14) */
#define MCHBAR_BASE 0xFED10000ull

#endif
