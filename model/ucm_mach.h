/*
 * ucm_mach.h - shorthands for the machine tables of the platforms
 * (ucm_plat_*_mach.c): CPUID's vendor string and the rows of the MSR table.
 */
#ifndef UCM_MACH_H
#define UCM_MACH_H

#include "ucm_types.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define UCM_VENDOR_INTEL 0x756E6547u, 0x6C65746Eu, 0x49656E69u /* ebx "Genu", ecx "ntel", edx "ineI" */

/* read-only value; per-cpu read/write value (reset, writable bits); a
 * counter of rate per second and width bits */
#define RO(a, v, n) { a, 1, UCM_SM_CONST, 0, 0, v, 0, 0, n }
#define RW(a, c, v, m, n) { a, c, UCM_SM_RW, 0, 0, v, m, 0, n }
#define TIME(a, c, w, rate, n) { a, c, UCM_SM_TIME, w, 0, 0, 0, rate, n }

#endif
