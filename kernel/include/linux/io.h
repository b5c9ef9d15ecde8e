/*
 * linux/io.h - memory-mapped I/O.  ioremap hands out a cookie, an address
 * range of its own that is never dereferenced; readl/writel and friends
 * turn an address in it back into the physical address and access the
 * machine through the backend interface (uck_io.c).  On x86-64, readq and
 * writeq are single 8-byte accesses, as the kernel's are.
 */
#ifndef UCK_LINUX_IO_H
#define UCK_LINUX_IO_H

#include <linux/kernel.h>

void __iomem *ioremap(resource_size_t pa, unsigned long size);
void iounmap(volatile void __iomem *addr);
u64 uck_mmio_read(const volatile void __iomem *addr, unsigned int width);
void uck_mmio_write(volatile void __iomem *addr, unsigned int width, u64 val);

static inline u32 readl(const volatile void __iomem *a) { return (u32)uck_mmio_read(a, 4); }
static inline u64 readq(const volatile void __iomem *a) { return uck_mmio_read(a, 8); }
static inline void writel(u32 v, volatile void __iomem *a) { uck_mmio_write(a, 4, v); }
static inline void writeq(u64 v, volatile void __iomem *a) { uck_mmio_write(a, 8, v); }
static inline void memcpy_fromio(void *dst, const volatile void __iomem *src, size_t n)
{
	const volatile u8 __iomem *s = src;
	u8 *d = dst;
	size_t i;

	/* dword reads where aligned, as the kernel's string copy does */
	for (i = 0; i + 4 <= n; i += 4) {
		u32 v = readl(s + i);
		memcpy(d + i, &v, 4);
	}
	for (; i < n; i++) {
		u32 v = readl(s + (i & ~(size_t)3));
		d[i] = (u8)(v >> (8 * (i & 3)));
	}
}
#define readl_relaxed readl
#define writel_relaxed writel

#endif
