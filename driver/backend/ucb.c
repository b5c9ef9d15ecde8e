/*
 * ucb.c - dispatch through the backend operations, with error messages
 * guaranteed: an operation that fails without saying why still yields a
 * message naming the operation and the address.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ucb.h"

int ucb_seterr(struct ucb *b, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->err, sizeof(b->err), fmt, ap);
	va_end(ap);
	return rc;
}

static const volatile sig_atomic_t *stop_flag;

void ucb_stop_on(const volatile sig_atomic_t *flag)
{
	stop_flag = flag;
}

int ucb_stopping(void)
{
	return stop_flag && *stop_flag;
}

static void (*tick_fn)(void *);
static void *tick_ctx;

void ucb_on_tick(void (*fn)(void *ctx), void *ctx)
{
	tick_fn = fn;
	tick_ctx = ctx;
}

void ucb_tick(void)
{
	if (tick_fn)
		tick_fn(tick_ctx);
}

const char *ucb_error(const struct ucb *b)
{
	return b->err[0] ? b->err : "no error";
}

static int done(struct ucb *b, int rc, const char *what, unsigned long long addr)
{
	if (rc > 0)
		rc = -rc;
	if (rc && !b->err[0])
		ucb_seterr(b, rc, "%s 0x%llx: %s", what, addr, strerror(-rc));
	return rc;
}

#define OP(b, op) ((b)->err[0] = 0, (b)->ops->op)

/* The interface's widths (ucb.h), checked here for every backend: one
 * that copies `width` bytes into a uint64_t (the hardware's pread) must
 * never be asked for more. */
static int pci_width_ok(unsigned w)
{
	return w == 1 || w == 2 || w == 4 || w == 8;
}

static int bad_width(struct ucb *b, const char *what, unsigned width, unsigned long long addr,
		     const char *widths)
{
	return ucb_seterr(b, -EINVAL, "%s of %u bytes at 0x%llx: the width is %s", what, width, addr, widths);
}

int ucb_msr_read(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t *val)
{
	if (!b->ops->msr_read)
		return ucb_seterr(b, -EOPNOTSUPP, "%s backend has no MSR access", b->ops->name);
	return done(b, OP(b, msr_read)(b, cpu, addr, val), "rdmsr", addr);
}

int ucb_msr_write(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t val)
{
	if (!b->ops->msr_write)
		return ucb_seterr(b, -EOPNOTSUPP, "%s backend has no MSR access", b->ops->name);
	return done(b, OP(b, msr_write)(b, cpu, addr, val), "wrmsr", addr);
}

int ucb_msr_batch(struct ucb *b, struct ucb_msr_op *ops, unsigned n)
{
	char first_msg[sizeof(b->err)];
	int first = 0;

	if (b->ops->msr_batch)
		return done(b, OP(b, msr_batch)(b, ops, n), "MSR batch of", n);
	for (unsigned i = 0; i < n; i++) {
		ops[i].rc = ops[i].write ? ucb_msr_write(b, ops[i].cpu, ops[i].addr, ops[i].val)
					 : ucb_msr_read(b, ops[i].cpu, ops[i].addr, &ops[i].val);
		if (ops[i].rc && !first) {
			first = ops[i].rc;
			/* later accesses reset the message: keep the first */
			snprintf(first_msg, sizeof(first_msg), "%s", b->err);
		}
	}
	if (first)
		snprintf(b->err, sizeof(b->err), "%s", first_msg);
	return first;
}

int ucb_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width,
		 uint64_t *val)
{
	if (!b->ops->pci_read)
		return ucb_seterr(b, -EOPNOTSUPP, "%s backend has no PCI access", b->ops->name);
	if (!pci_width_ok(width)) {
		*val = 0;
		return bad_width(b, "PCI config read", width, off, "1, 2, 4 or 8");
	}
	return done(b, OP(b, pci_read)(b, d, off, width, val), "PCI config read", off);
}

int ucb_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width,
		  uint64_t val)
{
	if (!b->ops->pci_write)
		return ucb_seterr(b, -EOPNOTSUPP, "%s backend has no PCI access", b->ops->name);
	if (!pci_width_ok(width))
		return bad_width(b, "PCI config write", width, off, "1, 2, 4 or 8");
	return done(b, OP(b, pci_write)(b, d, off, width, val), "PCI config write", off);
}

int ucb_pci_read_ctr_dwords(struct ucb *b, int (*rd)(struct ucb *, const struct ucb_pci *, unsigned,
						     unsigned, uint64_t *),
			    const struct ucb_pci *d, unsigned off, uint64_t *val)
{
	uint64_t hi1 = 0, lo = 0, hi2 = 0;
	int rc;

	*val = 0;
	if ((rc = rd(b, d, off + 4, 4, &hi1)) || (rc = rd(b, d, off, 4, &lo)) || (rc = rd(b, d, off + 4, 4, &hi2)))
		return rc;
	/* the high dword moved: the low one may be from before the carry */
	if (hi1 != hi2 && (rc = rd(b, d, off, 4, &lo)))
		return rc;
	*val = (hi2 & 0xFFFFFFFFu) << 32 | (lo & 0xFFFFFFFFu);
	return 0;
}

int ucb_pci_read_ctrs(struct ucb *b, const struct ucb_pci *d, const unsigned *off, unsigned n,
		      uint64_t *val)
{
	int rc = 0;

	for (unsigned i = 0; i < n; i++)
		val[i] = 0;
	if (!n)
		return 0;
	if (b->ops->pci_read_ctrs)
		return done(b, OP(b, pci_read_ctrs)(b, d, off, n, val), "PCI config read", off[0]);
	for (unsigned i = 0; i < n && !rc; i++)
		rc = ucb_pci_read_ctr_dwords(b, ucb_pci_read, d, off[i], &val[i]);
	return rc;
}

int ucb_mmio_read(struct ucb *b, uint64_t pa, unsigned width, uint64_t *val)
{
	if (!b->ops->mmio_read)
		return ucb_seterr(b, -EOPNOTSUPP, "%s backend has no MMIO access", b->ops->name);
	if (width != 4 && width != 8) {
		*val = 0;
		return bad_width(b, "MMIO read", width, pa, "4 or 8");
	}
	return done(b, OP(b, mmio_read)(b, pa, width, val), "MMIO read", pa);
}

int ucb_mmio_write(struct ucb *b, uint64_t pa, unsigned width, uint64_t val)
{
	if (!b->ops->mmio_write)
		return ucb_seterr(b, -EOPNOTSUPP, "%s backend has no MMIO access", b->ops->name);
	if (width != 4 && width != 8)
		return bad_width(b, "MMIO write", width, pa, "4 or 8");
	return done(b, OP(b, mmio_write)(b, pa, width, val), "MMIO write", pa);
}

int ucb_cpuid(struct ucb *b, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	if (!b->ops->cpuid)
		return ucb_seterr(b, -EOPNOTSUPP, "%s backend has no CPUID", b->ops->name);
	return done(b, OP(b, cpuid)(b, cpu, leaf, sub, r), "cpuid leaf", leaf);
}

int ucb_socket_cpu(struct ucb *b, unsigned socket, unsigned *cpu)
{
	return done(b, OP(b, socket_cpu)(b, socket, cpu), "socket", socket);
}

int ucb_now_ns(struct ucb *b, uint64_t *ns)
{
	return done(b, OP(b, now_ns)(b, ns), "clock", 0);
}

int ucb_sleep_ns(struct ucb *b, uint64_t ns)
{
	return done(b, OP(b, sleep_ns)(b, ns), "sleep ns", ns);
}

int ucb_has_pmi(const struct ucb *b)
{
	return b->ops->wait_pmi != NULL;
}

int ucb_wait_pmi(struct ucb *b, uint64_t ns, int *pmi)
{
	*pmi = 0;
	if (!b->ops->wait_pmi)
		return ucb_seterr(b, -EOPNOTSUPP, "the %s backend cannot wait for a PMI", b->ops->name);
	return done(b, OP(b, wait_pmi)(b, ns, pmi), "wait for a PMI, ns", ns);
}

void ucb_destroy(struct ucb *b)
{
	if (b && b->ops->destroy)
		b->ops->destroy(b);
}
