/*
 * uck_io.c - ioremap and MMIO.  A mapping's cookie is a block of the
 * process's memory as long as the mapping, never dereferenced: the driver
 * adds offsets to it, and an access finds the mapping whose block holds the
 * address and goes to the physical address through the backend.  An access
 * outside every mapping is a bug in the driver, logged as the kernel's
 * page fault would be, and reads all ones.
 */
#include <linux/io.h>
#include <linux/list.h>
#include <linux/slab.h>

#include "ucb.h"
#include "uck_internal.h"

struct iomap {
	struct list_head node;
	u64 pa;
	unsigned long size;
	char *cookie;
};

static LIST_HEAD(maps);

void __iomem *ioremap(resource_size_t pa, unsigned long size)
{
	struct iomap *m;

	if (!size)
		return NULL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->cookie = kmalloc(size, GFP_KERNEL);
	if (!m->cookie) {
		kfree(m);
		return NULL;
	}
	m->pa = pa;
	m->size = size;
	list_add(&m->node, &maps);
	return m->cookie;
}

void iounmap(volatile void __iomem *addr)
{
	struct iomap *m;

	list_for_each_entry(m, &maps, node) {
		if ((const volatile char *)addr == m->cookie) {
			list_del(&m->node);
			kfree(m->cookie);
			kfree(m);
			return;
		}
	}
	if (addr)
		WARN(1, "iounmap: %p is not a mapping\n", (void *)addr);
}

static struct iomap *find(const volatile void __iomem *addr, unsigned w, u64 *pa)
{
	uintptr_t a = (uintptr_t)addr;
	struct iomap *m;

	list_for_each_entry(m, &maps, node) {
		uintptr_t base = (uintptr_t)m->cookie;

		if (a >= base && a - base + w <= m->size) {
			*pa = m->pa + (a - base);
			return m;
		}
	}
	uck_printk(1, "BUG: unable to handle page fault for address: %p (a %u-byte MMIO access outside every ioremap)\n",
		   (void *)addr, w);
	uck_warn(__FILE__, __LINE__, "MMIO access outside a mapping");
	return NULL;
}

u64 uck_mmio_read(const volatile void __iomem *addr, unsigned int width)
{
	uint64_t v = 0;
	u64 pa;

	if (!find(addr, width, &pa))
		return ~0ull;
	if (ucb_mmio_read(uck_k.b, pa, width, &v)) {
		uck_printk(4, "MMIO read of 0x%llx failed: %s\n", pa, ucb_error(uck_k.b));
		return ~0ull;
	}
	return v;
}

void uck_mmio_write(volatile void __iomem *addr, unsigned int width, u64 val)
{
	u64 pa;

	if (!find(addr, width, &pa))
		return;
	if (ucb_mmio_write(uck_k.b, pa, width, val))
		uck_printk(4, "MMIO write of 0x%llx failed: %s\n", pa, ucb_error(uck_k.b));
}
