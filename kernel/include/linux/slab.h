/*
 * linux/slab.h - the kernel's allocators on the C library's.  GFP flags and
 * NUMA nodes are accepted and do not matter to user space.
 */
#ifndef UCK_LINUX_SLAB_H
#define UCK_LINUX_SLAB_H

#include <stdlib.h>

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/bitops.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>

#define GFP_KERNEL 0u
#define GFP_ATOMIC 1u
#define __GFP_ZERO 0x100u
#define NUMA_NO_NODE (-1)

void *uck_alloc(size_t n, gfp_t flags);
static inline void *kmalloc(size_t n, gfp_t f) { return uck_alloc(n, f); }
static inline void *kzalloc(size_t n, gfp_t f) { return uck_alloc(n, f | __GFP_ZERO); }
static inline void *kmalloc_node(size_t n, gfp_t f, int node) { (void)node; return uck_alloc(n, f); }
static inline void *kzalloc_node(size_t n, gfp_t f, int node) { (void)node; return uck_alloc(n, f | __GFP_ZERO); }
static inline void *kcalloc(size_t k, size_t n, gfp_t f)
{
	if (n && k > SIZE_MAX / n)
		return NULL;
	return uck_alloc(k * n, f | __GFP_ZERO);
}
#define kmalloc_array(k, n, f) ((k) && (n) > SIZE_MAX / (k) ? NULL : kmalloc((k) * (n), f))
static inline void kfree(const void *p) { free((void *)p); }
static inline char *kstrdup(const char *s, gfp_t f)
{
	size_t n;
	char *p;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	p = uck_alloc(n, f);
	if (p)
		memcpy(p, s, n);
	return p;
}
static inline void *kmemdup(const void *s, size_t n, gfp_t f)
{
	void *p = uck_alloc(n, f);

	if (p)
		memcpy(p, s, n);
	return p;
}

#endif
