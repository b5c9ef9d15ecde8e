/*
 * linux/spinlock.h - spinlocks, interrupt masking and lockdep assertions.
 * The layer serialises every entry into the driver (one caller at a time,
 * as a single CPU with interrupts off would), so a lock records that it is
 * held, which lockdep_assert_held checks, and taking a held lock is a
 * deadlock the layer reports as a WARN.
 */
#ifndef UCK_LINUX_SPINLOCK_H
#define UCK_LINUX_SPINLOCK_H

#include <linux/kernel.h>

typedef struct {
	int held;
} raw_spinlock_t;
typedef raw_spinlock_t spinlock_t;

#define __RAW_SPIN_LOCK_UNLOCKED(name) { 0 }
#define DEFINE_RAW_SPINLOCK(name) raw_spinlock_t name = { 0 }
#define DEFINE_SPINLOCK(name) spinlock_t name = { 0 }

static inline void raw_spin_lock_init(raw_spinlock_t *l) { l->held = 0; }
static inline void uck_lock_(raw_spinlock_t *l)
{
	WARN_ON(l->held);
	l->held = 1;
}
static inline void uck_unlock_(raw_spinlock_t *l)
{
	WARN_ON(!l->held);
	l->held = 0;
}
#define raw_spin_lock(l) uck_lock_(l)
#define raw_spin_unlock(l) uck_unlock_(l)
#define raw_spin_lock_irqsave(l, flags) do { (flags) = 0; uck_lock_(l); } while (0)
#define raw_spin_unlock_irqrestore(l, flags) do { (void)(flags); uck_unlock_(l); } while (0)
#define spin_lock_init raw_spin_lock_init
#define spin_lock raw_spin_lock
#define spin_unlock raw_spin_unlock
#define spin_lock_irqsave raw_spin_lock_irqsave
#define spin_unlock_irqrestore raw_spin_unlock_irqrestore
#define lockdep_assert_held(l) WARN_ON(!(l)->held)

#define local_irq_save(flags) do { (flags) = 0; } while (0)
#define local_irq_restore(flags) do { (void)(flags); } while (0)
#define local_irq_disable() do { } while (0)
#define local_irq_enable() do { } while (0)

struct mutex {
	int held;
};
#define DEFINE_MUTEX(name) struct mutex name = { 0 }
static inline void mutex_init(struct mutex *m) { m->held = 0; }
static inline void mutex_lock(struct mutex *m) { WARN_ON(m->held); m->held = 1; }
static inline void mutex_unlock(struct mutex *m) { WARN_ON(!m->held); m->held = 0; }

#endif
