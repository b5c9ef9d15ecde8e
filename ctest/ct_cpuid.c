/*
 * ct_cpuid.c - a program that executes CPUID itself and prints what the
 * processor says it is: the vendor, and family/model/stepping from leaf 1
 * (Intel SDM Vol. 2A, CPUID).  tools.run_scan_cache runs it under uncore
 * run, where the answer must be the machine's, whether the preload library
 * found the instruction by disassembling this file or from what an
 * earlier process of the run found in it.  With the argument "xsave" it
 * prints leaf 0xD.0 (EAX, EBX, ECX) instead, and whether an XSAVE of every
 * component XCR0 enables (XGETBV, which runs on the host) stayed within a
 * save area of the size EBX says (tools.cpuid_xsave_*).
 */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* XSAVE of the components in XCR0 into an area of n bytes (64-byte
 * aligned, SDM Vol. 1 13.4) followed by a guard: 1 if the guard held */
static int xsave_fits(unsigned n)
{
	enum { GUARD = 4096 };
	unsigned char *area = aligned_alloc(64, ((size_t)n + GUARD + 63) / 64 * 64);
	uint32_t lo, hi;
	int ok = 1;

	if (!area)
		return 0;
	memset(area, 0, n);
	memset(area + n, 0xA5, GUARD);
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	__asm__ volatile("xsave (%0)" : : "r"(area), "a"(lo), "d"(hi) : "memory");
	for (unsigned i = 0; i < GUARD; i++)
		ok &= area[n + i] == 0xA5;
	free(area);
	return ok;
}

int main(int argc, char **argv)
{
	unsigned a, b, c, d, fam, model;
	char vendor[13];

	if (argc > 1 && !strcmp(argv[1], "xsave")) {
		__cpuid_count(0xD, 0, a, b, c, d);
		printf("0xd.0 eax 0x%x ebx %u ecx %u fits %d\n", a, b, c, xsave_fits(b));
		return 0;
	}

	__cpuid(0, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	__cpuid(1, a, b, c, d);
	fam = (a >> 8 & 0xF) + (a >> 20 & 0xFF);
	model = (a >> 4 & 0xF) | (a >> 16 & 0xF) << 4;
	printf("%s family %u model %u stepping %u\n", vendor, fam, model, a & 0xF);
	return 0;
}
