/*
 * ucb_sim.c - the simulated backend: the backend operations answered by the
 * model.  Time is the model's simulated time; waiting runs the workload, in
 * slices short in wall time so that a stop request (a signal) is seen soon.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ucb.h"
#include "ucm.h"

/* A wait runs the model in slices of simulated time sized to take about
 * SLICE_WALL_NS of wall time each: a slice that ran in less than half of
 * it doubles, one that took more than twice halves.  How much simulated
 * time a wall millisecond buys varies by workload, trace and build (a
 * sanitizer build is ten times slower), so the size is learnt, not fixed.
 * Slices change nothing the model computes: it advances to the same
 * absolute times, calling the workload at the same boundaries. */
#define SLICE_WALL_NS 2000000ull     /* 2 ms */
#define SLICE_MIN_PS 1000000ull      /* 1 us simulated */
#define SLICE_MAX_PS 1000000000000000ull /* 1000 s simulated */

struct sim {
	struct ucm_model *m;
	uint64_t slice_ps;
};

static struct ucm_model *M(struct ucb *b)
{
	return ((struct sim *)b->priv)->m;
}

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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

/* Run the model for ns, or until a PMI when pmi is given; -EINTR when a
 * stop was requested (the model then stands where the last slice ended). */
static int sim_run(struct ucb *b, uint64_t ns, int *pmi)
{
	struct sim *s = b->priv;
	uint64_t left;

	if (ns > UINT64_MAX / 1000)
		return ucb_seterr(b, -EOVERFLOW, "a wait of %llu ns exceeds 2^64 ps",
				  (unsigned long long)ns);
	left = ns * 1000;
	if (pmi)
		*pmi = 0;
	while (left) {
		uint64_t step = left < s->slice_ps ? left : s->slice_ps, t0, dt;
		int rc, hit = 0;

		if (ucb_stopping())
			return ucb_seterr(b, -EINTR, "interrupted");
		ucb_tick();
		t0 = wall_ns();
		rc = pmi ? ucm_run_ps_pmi(s->m, step, &hit) : ucm_run_ps(s->m, step);
		if (rc)
			return fwd(b, rc);
		if (hit) {
			*pmi = 1;
			return 0;
		}
		left -= step;
		dt = wall_ns() - t0;
		if (step == s->slice_ps && dt < SLICE_WALL_NS / 2 && s->slice_ps < SLICE_MAX_PS)
			s->slice_ps *= 2;
		else if (dt > 2 * SLICE_WALL_NS && s->slice_ps > SLICE_MIN_PS)
			s->slice_ps /= 2;
	}
	return 0;
}

static int sim_sleep_ns(struct ucb *b, uint64_t ns)
{
	return sim_run(b, ns, NULL);
}

static int sim_wait_pmi(struct ucb *b, uint64_t ns, int *pmi)
{
	return sim_run(b, ns, pmi);
}

static void sim_destroy(struct ucb *b)
{
	free(b->priv);
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
	struct sim *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!b || !s) {
		free(b);
		free(s);
		return -ENOMEM;
	}
	s->m = m;
	s->slice_ps = SLICE_MIN_PS;
	b->ops = &sim_ops;
	b->priv = s;
	*out = b;
	return 0;
}
