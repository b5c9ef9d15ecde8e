/*
 * ucb_sim.c - the simulated backend: the backend operations answered by the
 * model.  Time is the model's simulated time; waiting runs the workload.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ucb.h"
#include "ucm.h"

static struct ucm_model *M(struct ucb *b)
{
	return b->priv;
}

/* Model errors carry their own message. */
static int fwd(struct ucb *b, int rc)
{
	if (rc)
		ucb_seterr(b, rc, "%s", ucm_error(M(b)));
	return rc;
}

static int sim_msr_read(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t *val)
{
	return fwd(b, ucm_msr_read(M(b), cpu, addr, val));
}

static int sim_msr_write(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t val)
{
	return fwd(b, ucm_msr_write(M(b), cpu, addr, val));
}

static int sim_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width,
			uint64_t *val)
{
	return fwd(b, ucm_pci_read(M(b), d->seg, d->bus, d->dev, d->fn, off, width, val));
}

static int sim_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width,
			 uint64_t val)
{
	return fwd(b, ucm_pci_write(M(b), d->seg, d->bus, d->dev, d->fn, off, width, val));
}

static int sim_mmio_read(struct ucb *b, uint64_t pa, unsigned width, uint64_t *val)
{
	return fwd(b, ucm_mmio_read(M(b), pa, width, val));
}

static int sim_mmio_write(struct ucb *b, uint64_t pa, unsigned width, uint64_t val)
{
	return fwd(b, ucm_mmio_write(M(b), pa, width, val));
}

/* CPUID as a part of the platform would answer: vendor and signature. */
static int sim_cpuid(struct ucb *b, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	const struct ucm_platform *p = ucm_platform_of(M(b));
	unsigned model = p->cpu_models[0];

	(void)cpu;
	(void)sub;
	memset(r, 0, 4 * sizeof(r[0]));
	if (leaf == 0) {
		r[0] = 0xD;
		memcpy(&r[1], "Genu", 4);
		memcpy(&r[3], "ineI", 4);
		memcpy(&r[2], "ntel", 4);
	} else if (leaf == 1) {
		r[0] = ((model >> 4) << 16) | ((unsigned)p->cpu_family << 8) | ((model & 0xF) << 4) | 3;
	}
	return 0;
}

static int sim_socket_cpu(struct ucb *b, unsigned socket, unsigned *cpu)
{
	/* cpus are numbered socket-major in the model */
	if (socket >= ucm_nsockets(M(b)))
		return ucb_seterr(b, -ENOENT, "no socket %u", socket);
	*cpu = socket * ucm_cpus_per_socket(M(b));
	return 0;
}

static int sim_now_ns(struct ucb *b, uint64_t *ns)
{
	*ns = ucm_now_ps(M(b)) / 1000;
	return 0;
}

static int sim_sleep_ns(struct ucb *b, uint64_t ns)
{
	return fwd(b, ucm_run_ps(M(b), ns * 1000));
}

static int sim_wait_pmi(struct ucb *b, uint64_t ns, int *pmi)
{
	return fwd(b, ucm_run_ps_pmi(M(b), ns * 1000, pmi));
}

static void sim_destroy(struct ucb *b)
{
	free(b);
}

static const struct ucb_ops sim_ops = {
	.name = "sim",
	.msr_read = sim_msr_read,
	.msr_write = sim_msr_write,
	.pci_read = sim_pci_read,
	.pci_write = sim_pci_write,
	.mmio_read = sim_mmio_read,
	.mmio_write = sim_mmio_write,
	.cpuid = sim_cpuid,
	.socket_cpu = sim_socket_cpu,
	.now_ns = sim_now_ns,
	.sleep_ns = sim_sleep_ns,
	.wait_pmi = sim_wait_pmi,
	.destroy = sim_destroy,
};

int ucb_sim_create(struct ucm_model *m, struct ucb **out)
{
	struct ucb *b = calloc(1, sizeof(*b));

	*out = NULL;
	if (!b)
		return -ENOMEM;
	b->ops = &sim_ops;
	b->priv = m;
	*out = b;
	return 0;
}
