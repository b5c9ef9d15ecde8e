/*
 * linux/atomic.h - atomic_t and local64_t.  The layer runs the driver on one
 * thread at a time (docs/linux-driver.md, "Concurrency"), so these are plain
 * operations with the kernel's return conventions.
 */
#ifndef UCK_LINUX_ATOMIC_H
#define UCK_LINUX_ATOMIC_H

#include <linux/types.h>

#define ATOMIC_INIT(i) { (i) }
static inline int atomic_read(const atomic_t *v) { return v->counter; }
static inline void atomic_set(atomic_t *v, int i) { v->counter = i; }
static inline void atomic_add(int i, atomic_t *v) { v->counter += i; }
static inline void atomic_sub(int i, atomic_t *v) { v->counter -= i; }
static inline void atomic_inc(atomic_t *v) { v->counter++; }
static inline void atomic_dec(atomic_t *v) { v->counter--; }
static inline int atomic_add_return(int i, atomic_t *v) { return v->counter += i; }
static inline int atomic_sub_return(int i, atomic_t *v) { return v->counter -= i; }
static inline int atomic_inc_return(atomic_t *v) { return ++v->counter; }
static inline int atomic_dec_return(atomic_t *v) { return --v->counter; }
static inline bool atomic_dec_and_test(atomic_t *v) { return --v->counter == 0; }

static inline s64 atomic64_read(const atomic64_t *v) { return v->counter; }
static inline void atomic64_set(atomic64_t *v, s64 i) { v->counter = i; }
static inline void atomic64_add(s64 i, atomic64_t *v) { v->counter += i; }

static inline s64 local64_read(const local64_t *v) { return v->counter; }
static inline void local64_set(local64_t *v, s64 i) { v->counter = i; }
static inline void local64_add(s64 i, local64_t *v) { v->counter = (s64)((u64)v->counter + (u64)i); }
static inline void local64_sub(s64 i, local64_t *v) { v->counter = (s64)((u64)v->counter - (u64)i); }

static inline s64 local64_xchg(local64_t *v, s64 i)
{
	s64 old = v->counter;

	v->counter = i;
	return old;
}

static inline s64 local64_cmpxchg(local64_t *v, s64 old, s64 new)
{
	s64 cur = v->counter;

	if (cur == old)
		v->counter = new;
	return cur;
}

#endif
