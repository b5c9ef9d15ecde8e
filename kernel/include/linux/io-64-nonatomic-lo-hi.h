/*
 * linux/io-64-nonatomic-lo-hi.h - 64-bit MMIO as two 32-bit accesses, low
 * dword first.  readq/writeq themselves stay single accesses (x86-64).
 */
#ifndef UCK_LINUX_IO_64_NONATOMIC_LO_HI_H
#define UCK_LINUX_IO_64_NONATOMIC_LO_HI_H

#include <linux/io.h>

static inline u64 lo_hi_readq(const volatile void __iomem *a)
{
	const volatile u8 __iomem *p = a;
	u64 lo = readl(p), hi = readl(p + 4);

	return lo | hi << 32;
}

static inline void lo_hi_writeq(u64 v, volatile void __iomem *a)
{
	volatile u8 __iomem *p = a;

	writel((u32)v, p);
	writel((u32)(v >> 32), p + 4);
}

#endif
