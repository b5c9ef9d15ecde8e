/*
 * asm/msr.h - RDMSR and WRMSR on the current cpu (smp_processor_id()),
 * served by the machine through the backend interface (uck_cpu.c).  A #GP
 * of the plain forms is logged and counted as the kernel's "unchecked MSR
 * access error" is; the _safe forms return -EIO.
 */
#ifndef UCK_ASM_MSR_H
#define UCK_ASM_MSR_H

#include <linux/types.h>
#include <asm/msr-index.h> /* the kernel's MSR numbers, taken with the driver */

int uck_rdmsr(unsigned int cpu, u32 msr, u64 *val, bool safe);
int uck_wrmsr(unsigned int cpu, u32 msr, u64 val, bool safe);
extern unsigned int uck_this_cpu;

#define rdmsrl(msr, val)                                                         \
	do {                                                                     \
		u64 _v = 0;                                                      \
		(void)uck_rdmsr(uck_this_cpu, (msr), &_v, false);                \
		(val) = _v;                                                      \
	} while (0)
#define wrmsrl(msr, val) ((void)uck_wrmsr(uck_this_cpu, (msr), (val), false))
#define rdmsrl_safe(msr, p) uck_rdmsr(uck_this_cpu, (msr), (p), true)
#define wrmsrl_safe(msr, val) uck_wrmsr(uck_this_cpu, (msr), (val), true)
#define rdmsrl_on_cpu(cpu, msr, p) uck_rdmsr((cpu), (msr), (p), true)
#define wrmsrl_on_cpu(cpu, msr, val) uck_wrmsr((cpu), (msr), (val), true)
#define rdmsr(msr, lo, hi)                                                       \
	do {                                                                     \
		u64 _v = 0;                                                      \
		(void)uck_rdmsr(uck_this_cpu, (msr), &_v, false);                \
		(lo) = (u32)_v;                                                  \
		(hi) = (u32)(_v >> 32);                                          \
	} while (0)
#define wrmsr(msr, lo, hi) wrmsrl(msr, ((u64)(hi) << 32) | (u32)(lo))

#endif
