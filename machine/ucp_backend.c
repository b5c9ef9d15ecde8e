/*
 * ucp_backend.c - the whole simulated machine as a backend (ucb.h): the
 * model's registers, then the machine tables' MSRs and CPUID, machine
 * time.  What Linux's driver runs on in `uncore run`, so that what it reads
 * and writes is what the program's own accesses would reach.
 */
#include <errno.h>
#include <stdlib.h>

#include "ucb.h"
#include "ucp_machine.h"

struct mach {
	struct ucb b;
	struct ucm_model *m;
	struct ucp_machine *mc;
	uint64_t mono_base_ns;
	int booting;
	int switching;
};

static struct mach *of(struct ucb *b)
{
	return b->priv;
}

static int mach_msr_read(struct ucb *b, unsigned cpu, uint32_t a, uint64_t *v)
{
	struct mach *mh = of(b);
	int rc;

	/* switching tasks: the machine's MSRs (the core PMU's) cost nothing
	 * (ucp_backend_switching) */
	if (mh->switching && (rc = ucp_sysmsr_read(mh->mc, cpu, a, ucm_now_ps(mh->m), v)) != -ENOENT)
		return rc ? ucb_seterr(b, -EIO, "rdmsr 0x%x on cpu %u: #GP", a, cpu) : 0;
	/* booting: the drivers' probes (intel_cstate reads the residency
	 * counters to see whether they count) take no machine time and are
	 * no reads of the program's: the counters' ground truth starts at the
	 * program's own first read (ucp_backend_booting) */
	rc = mh->booting ? ucm_msr_peek(mh->m, cpu, a, v) : ucm_msr_read(mh->m, cpu, a, v);

	if (rc == -EIO)
		rc = ucp_sysmsr_read(mh->mc, cpu, a, ucm_now_ps(mh->m), v);
	if (rc)
		return ucb_seterr(b, -EIO, "rdmsr 0x%x on cpu %u: #GP", a, cpu);
	return 0;
}

static int mach_msr_write(struct ucb *b, unsigned cpu, uint32_t a, uint64_t v)
{
	struct mach *mh = of(b);
	char why[160] = "";
	int rc;

	if (mh->switching &&
	    (rc = ucp_sysmsr_write(mh->mc, cpu, a, ucm_now_ps(mh->m), v, why, sizeof(why))) != -ENOENT)
		return rc ? ucb_seterr(b, -EIO, "wrmsr 0x%x <- 0x%llx on cpu %u: #GP: %s", a, (unsigned long long)v,
				       cpu, why)
			  : 0;
	rc = ucm_msr_write(mh->m, cpu, a, v);

	if (rc == -EIO)
		rc = ucp_sysmsr_write(mh->mc, cpu, a, ucm_now_ps(mh->m), v, why, sizeof(why));
	if (rc)
		return ucb_seterr(b, -EIO, "wrmsr 0x%x <- 0x%llx on cpu %u: #GP%s%s", a, (unsigned long long)v,
				  cpu, why[0] ? ": " : "", why);
	return 0;
}

static int mach_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t *v)
{
	struct mach *mh = of(b);
	/* booting: the reads of an enumeration, which have no side effect,
	 * take no machine time (ucp_backend_booting) */
	int rc = mh->booting ? ucm_pci_peek(mh->m, d->seg, d->bus, d->dev, d->fn, off, w, v)
			    : ucm_pci_read(mh->m, d->seg, d->bus, d->dev, d->fn, off, w, v);

	return rc ? ucb_seterr(b, rc, "%s", ucm_error(of(b)->m)) : 0;
}

static int mach_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t v)
{
	int rc = ucm_pci_write(of(b)->m, d->seg, d->bus, d->dev, d->fn, off, w, v);

	return rc ? ucb_seterr(b, rc, "%s", ucm_error(of(b)->m)) : 0;
}

static int mach_mmio_read(struct ucb *b, uint64_t pa, unsigned w, uint64_t *v)
{
	int rc = ucm_mmio_read(of(b)->m, pa, w, v);

	if (rc == -ENXIO) {
		*v = ~0ull; /* nothing decodes it: all ones, as on the bus */
		return 0;
	}
	return rc ? ucb_seterr(b, rc, "%s", ucm_error(of(b)->m)) : 0;
}

static int mach_mmio_write(struct ucb *b, uint64_t pa, unsigned w, uint64_t v)
{
	int rc = ucm_mmio_write(of(b)->m, pa, w, v);

	return rc && rc != -ENXIO ? ucb_seterr(b, rc, "%s", ucm_error(of(b)->m)) : 0;
}

static int mach_cpuid(struct ucb *b, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	ucp_cpuid_of(of(b)->mc, cpu, leaf, sub, r);
	return 0;
}

static int mach_socket_cpu(struct ucb *b, unsigned s, unsigned *cpu)
{
	struct mach *mh = of(b);

	if (s >= ucm_nsockets(mh->m))
		return -ENOENT;
	*cpu = s * ucm_cpus_per_socket(mh->m);
	return 0;
}

static int mach_now(struct ucb *b, uint64_t *ns)
{
	struct mach *mh = of(b);

	*ns = ucm_now_ps(mh->m) / 1000u + mh->mono_base_ns;
	return 0;
}

/* the kernel never sleeps in the server; were it to, the machine runs */
static int mach_sleep(struct ucb *b, uint64_t ns)
{
	int rc = ucm_run_ps(of(b)->m, ns * 1000u);

	return rc ? ucb_seterr(b, rc, "%s", ucm_error(of(b)->m)) : 0;
}

static void mach_destroy(struct ucb *b)
{
	free(of(b));
}

static const struct ucb_ops machine_ops = {
	.name = "machine",
	.msr_read = mach_msr_read,
	.msr_write = mach_msr_write,
	.pci_read = mach_pci_read,
	.pci_write = mach_pci_write,
	.mmio_read = mach_mmio_read,
	.mmio_write = mach_mmio_write,
	.cpuid = mach_cpuid,
	.socket_cpu = mach_socket_cpu,
	.now_ns = mach_now,
	.sleep_ns = mach_sleep,
	.destroy = mach_destroy,
};

int ucp_backend_create(struct ucm_model *m, struct ucp_machine *mc, uint64_t mono_base_ns, struct ucb **out)
{
	struct mach *mh = calloc(1, sizeof(*mh));

	*out = NULL;
	if (!mh)
		return -ENOMEM;
	mh->m = m;
	mh->mc = mc;
	mh->mono_base_ns = mono_base_ns;
	mh->b.ops = &machine_ops;
	mh->b.priv = mh;
	*out = &mh->b;
	return 0;
}

void ucp_backend_booting(struct ucb *b, int on)
{
	of(b)->booting = on;
}

void ucp_backend_switching(struct ucb *b, int on)
{
	of(b)->switching = on;
}

uint64_t ucp_backend_ps(const struct ucb *b, uint64_t ns)
{
	const struct mach *mh = b->priv;

	return ns <= mh->mono_base_ns ? 0 : (ns - mh->mono_base_ns) * 1000u;
}
