/*
 * ct_cpuid.c - a program that executes CPUID itself and prints what the
 * processor says it is: the vendor, and family/model/stepping from leaf 1
 * (Intel SDM Vol. 2A, CPUID).  tools.run_scan_cache runs it under uncore
 * run, where the answer must be the machine's, whether the preload library
 * found the instruction by disassembling this file or from what an
 * earlier process of the run found in it.
 */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	unsigned a, b, c, d, fam, model;
	char vendor[13];

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
