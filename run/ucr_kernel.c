/*
 * ucr_kernel.c - Linux's uncore driver inside `uncore run`.  The kernel
 * (kernel/uck.h) boots on the machine the server owns: its hardware is a
 * backend over the model and the machine tables, so what the driver reads
 * and writes is what the program's own MSR and PCI accesses would reach,
 * and its clock is the machine's CLOCK_MONOTONIC.  Its PMUs' attribute
 * files are written into the tree as sysfs has them; the program's
 * perf_event_open descriptors are handles of its perf core.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ucb.h"
#include "ucr_kernel.h"

#ifdef UCR_HAVE_KERNEL
#include "uck.h"

#define MAXOWN 4096

struct ucr_kernel {
	struct ucm_model *m;
	struct ucr_machine *mc;
	uint64_t mono_base_ns;
	struct ucb b;
	int booting;
	/* who opened each handle, so that a process's events end with it */
	struct { int handle, pid; } own[MAXOWN];
	unsigned nown;
};

/* ---- the machine as the kernel's hardware ---- */

static struct ucr_kernel *of(struct ucb *b)
{
	return b->priv;
}

static int k_msr_read(struct ucb *b, unsigned cpu, uint32_t a, uint64_t *v)
{
	struct ucr_kernel *k = of(b);
	int rc = ucm_msr_read(k->m, cpu, a, v);

	if (rc == -EIO)
		rc = ucr_sysmsr_read(k->mc, cpu, a, ucm_now_ps(k->m), v);
	if (rc)
		return ucb_seterr(b, -EIO, "rdmsr 0x%x on cpu %u: #GP", a, cpu);
	return 0;
}

static int k_msr_write(struct ucb *b, unsigned cpu, uint32_t a, uint64_t v)
{
	struct ucr_kernel *k = of(b);
	char why[160] = "";
	int rc = ucm_msr_write(k->m, cpu, a, v);

	if (rc == -EIO)
		rc = ucr_sysmsr_write(k->mc, cpu, a, ucm_now_ps(k->m), v, why, sizeof(why));
	if (rc)
		return ucb_seterr(b, -EIO, "wrmsr 0x%x <- 0x%llx on cpu %u: #GP%s%s", a, (unsigned long long)v,
				  cpu, why[0] ? ": " : "", why);
	return 0;
}

static int k_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t *v)
{
	struct ucr_kernel *k = of(b);
	/* The kernel boots before the program runs: its enumeration of PCI
	 * (a vendor ID read of every function of every bus, 65,536 reads) is
	 * over before the machine's clock starts for the program, so these
	 * reads, which have no side effect, take no machine time */
	int rc = k->booting ? ucm_pci_peek(k->m, d->seg, d->bus, d->dev, d->fn, off, w, v)
			    : ucm_pci_read(k->m, d->seg, d->bus, d->dev, d->fn, off, w, v);

	return rc ? ucb_seterr(b, rc, "%s", ucm_error(of(b)->m)) : 0;
}

static int k_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t v)
{
	int rc = ucm_pci_write(of(b)->m, d->seg, d->bus, d->dev, d->fn, off, w, v);

	return rc ? ucb_seterr(b, rc, "%s", ucm_error(of(b)->m)) : 0;
}

static int k_mmio_read(struct ucb *b, uint64_t pa, unsigned w, uint64_t *v)
{
	int rc = ucm_mmio_read(of(b)->m, pa, w, v);

	if (rc == -ENXIO) {
		*v = ~0ull; /* nothing decodes it: all ones, as on the bus */
		return 0;
	}
	return rc ? ucb_seterr(b, rc, "%s", ucm_error(of(b)->m)) : 0;
}

static int k_mmio_write(struct ucb *b, uint64_t pa, unsigned w, uint64_t v)
{
	int rc = ucm_mmio_write(of(b)->m, pa, w, v);

	return rc && rc != -ENXIO ? ucb_seterr(b, rc, "%s", ucm_error(of(b)->m)) : 0;
}

static int k_cpuid(struct ucb *b, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	ucr_cpuid_of(of(b)->mc, cpu, leaf, sub, r);
	return 0;
}

static int k_socket_cpu(struct ucb *b, unsigned s, unsigned *cpu)
{
	struct ucr_kernel *k = of(b);

	if (s >= ucm_nsockets(k->m))
		return -ENOENT;
	*cpu = s * ucm_cpus_per_socket(k->m);
	return 0;
}

static int k_now(struct ucb *b, uint64_t *ns)
{
	struct ucr_kernel *k = of(b);

	*ns = ucm_now_ps(k->m) / 1000u + k->mono_base_ns;
	return 0;
}

/* the kernel never sleeps in the server; were it to, the machine runs */
static int k_sleep(struct ucb *b, uint64_t ns)
{
	int rc = ucm_run_ps(of(b)->m, ns * 1000u);

	return rc ? ucb_seterr(b, rc, "%s", ucm_error(of(b)->m)) : 0;
}

static const struct ucb_ops machine_ops = {
	.name = "machine",
	.msr_read = k_msr_read,
	.msr_write = k_msr_write,
	.pci_read = k_pci_read,
	.pci_write = k_pci_write,
	.mmio_read = k_mmio_read,
	.mmio_write = k_mmio_write,
	.cpuid = k_cpuid,
	.socket_cpu = k_socket_cpu,
	.now_ns = k_now,
	.sleep_ns = k_sleep,
};

/* ---- sysfs ---- */

struct sysw {
	char dir[4096];
	int rc;
};

static int put_attr(void *ctx, const char *path, const char *content)
{
	struct sysw *w = ctx;
	char p[4096 + 256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", w->dir, path);
	if (strchr(path, '/')) {
		char d[sizeof(p)];

		snprintf(d, sizeof(d), "%s", p);
		*strrchr(d, '/') = 0;
		if (mkdir(d, 0755) && errno != EEXIST)
			return w->rc = -errno;
	}
	if (!(f = fopen(p, "w")))
		return w->rc = -errno;
	fputs(content, f);
	if (fclose(f))
		return w->rc = -EIO;
	return 0;
}

/* /sys/bus/event_source/devices/<pmu>/: a directory for each PMU */
static int write_sysfs(const char *root, char *err, size_t n)
{
	const char *parts[] = { "sys", "sys/bus", "sys/bus/event_source", "sys/bus/event_source/devices" };
	char d[4096];

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		snprintf(d, sizeof(d), "%s/%s", root, parts[i]);
		if (mkdir(d, 0755) && errno != EEXIST) {
			snprintf(err, n, "%s: %s", d, strerror(errno));
			return -errno;
		}
	}
	for (unsigned i = 0; i < uck_npmus(); i++) {
		struct sysw w = { .rc = 0 };

		snprintf(w.dir, sizeof(w.dir), "%s/sys/bus/event_source/devices/%s", root, uck_pmu_name(i));
		if ((mkdir(w.dir, 0755) && errno != EEXIST) || uck_pmu_attrs(i, put_attr, &w) || w.rc) {
			snprintf(err, n, "%s: %s", w.dir, strerror(w.rc ? -w.rc : errno));
			return w.rc ? w.rc : -EIO;
		}
	}
	return 0;
}

int ucr_kernel_start(struct ucm_model *m, struct ucr_machine *mc, uint64_t mono_base_ns, const char *root,
		     struct ucr_kernel **out, char *err, size_t n)
{
	struct ucr_kernel *k;
	struct uck_host h = { 0 };
	int rc;

	*out = NULL;
	if (!(k = calloc(1, sizeof(*k))))
		return -ENOMEM;
	k->m = m;
	k->mc = mc;
	k->mono_base_ns = mono_base_ns;
	k->b.ops = &machine_ops;
	k->b.priv = k;
	h.b = &k->b;
	h.ncpu = ucr_ncpu(mc);
	h.nsockets = ucm_nsockets(m);
	k->booting = 1;
	rc = uck_boot(&h, err, n);
	k->booting = 0;
	if (rc == -ENODEV) {
		/* no uncore this driver knows: the machine has no uncore PMUs */
		free(k);
		err[0] = 0;
		return 0;
	}
	if (rc) {
		free(k);
		return rc;
	}
	if ((rc = write_sysfs(root, err, n))) {
		ucr_kernel_stop(k);
		return rc;
	}
	*out = k;
	return 0;
}

void ucr_kernel_stop(struct ucr_kernel *k)
{
	if (!k)
		return;
	uck_shutdown();
	free(k);
}

uint64_t ucr_kernel_next_ps(const struct ucr_kernel *k)
{
	uint64_t t = k ? uck_next_timer_ns() : UINT64_MAX;

	if (t == UINT64_MAX)
		return t;
	return t <= k->mono_base_ns ? 0 : (t - k->mono_base_ns) * 1000u;
}

void ucr_kernel_tick(struct ucr_kernel *k)
{
	if (k && ucr_kernel_next_ps(k) <= ucm_now_ps(k->m))
		uck_run_timers();
}

static void own(struct ucr_kernel *k, int handle, int pid)
{
	if (k->nown < MAXOWN)
		k->own[k->nown++].handle = handle, k->own[k->nown - 1].pid = pid;
}

static void disown(struct ucr_kernel *k, int handle)
{
	for (unsigned i = 0; i < k->nown; i++)
		if (k->own[i].handle == handle)
			k->own[i--] = k->own[--k->nown];
}

void ucr_kernel_process_gone(struct ucr_kernel *k, int pid)
{
	if (!k)
		return;
	for (unsigned i = 0; i < k->nown; i++) {
		if (k->own[i].pid != pid)
			continue;
		uck_event_close(k->own[i].handle);
		k->own[i--] = k->own[--k->nown];
	}
}

void ucr_kernel_serve(struct ucr_kernel *k, const struct ucr_req *q, const void *data, size_t n,
		      struct ucr_rsp_data *rsp, size_t *rlen)
{
	struct ucr_rsp *r = &rsp->h;
	long got;
	int rc;

	*rlen = sizeof(*r);
	if (!k) {
		/* a kernel without uncore PMUs: no PMU of any type */
		r->rc = q->op == UCR_PERF_OPEN ? -ENOENT : -EBADF;
		return;
	}
	ucr_kernel_tick(k);
	switch (q->op) {
	case UCR_PERF_OPEN: {
		struct perf_event_attr a;
		uint32_t size;

		memset(&a, 0, sizeof(a));
		if (n < sizeof(uint32_t) * 2) {
			r->rc = -EFAULT;
			return;
		}
		memcpy(&size, (const uint8_t *)data + 4, sizeof(size));
		/* perf_copy_attr: 0 means the first ABI's size; longer than
		 * this kernel's is fine only with zeros past it */
		if (!size)
			size = PERF_ATTR_SIZE_VER0;
		if (size < PERF_ATTR_SIZE_VER0 || size > n) {
			r->rc = size > UCR_PERF_ATTR_MAX ? -E2BIG : -EINVAL;
			r->v[1] = sizeof(a);
			return;
		}
		for (size_t i = sizeof(a); i < size; i++) {
			if (((const uint8_t *)data)[i]) {
				r->rc = -E2BIG;
				r->v[1] = sizeof(a);
				return;
			}
		}
		memcpy(&a, data, size < sizeof(a) ? size : sizeof(a));
		a.size = size < sizeof(a) ? size : (uint32_t)sizeof(a);
		rc = uck_event_open(&a, (int)(int32_t)(uint32_t)q->a, (int)(int32_t)(uint32_t)(q->a >> 32),
				    (int)(int64_t)q->b, (unsigned long)q->c);
		if (rc < 0) {
			r->rc = rc;
			return;
		}
		own(k, rc, q->pid);
		r->v[0] = (uint64_t)rc;
		return;
	}
	case UCR_PERF_READ:
		got = uck_event_read((int)q->a, rsp->data, q->b < sizeof(rsp->data) ? q->b : sizeof(rsp->data));
		if (got < 0) {
			r->rc = (int)got;
			return;
		}
		r->v[0] = (uint64_t)got;
		*rlen = sizeof(*r) + (size_t)got;
		return;
	case UCR_PERF_IOCTL:
		r->rc = uck_event_ioctl((int)q->a, (unsigned long)q->b, (unsigned long)q->c, &r->v[0]);
		return;
	case UCR_PERF_CLOSE:
		r->rc = uck_event_close((int)q->a);
		if (!r->rc)
			disown(k, (int)q->a);
		return;
	default:
		r->rc = -ENOSYS;
	}
}

const char *ucr_kernel_log(const struct ucr_kernel *k)
{
	return k ? uck_log() : "";
}

unsigned ucr_kernel_warnings(const struct ucr_kernel *k)
{
	return k ? uck_warnings() + uck_msr_faults() : 0;
}

#else /* built without Linux's driver (no linux-source): no uncore PMUs */

int ucr_kernel_start(struct ucm_model *m, struct ucr_machine *mc, uint64_t mono_base_ns, const char *root,
		     struct ucr_kernel **out, char *err, size_t n)
{
	(void)m, (void)mc, (void)mono_base_ns, (void)root, (void)err, (void)n;
	*out = NULL;
	return 0;
}

void ucr_kernel_stop(struct ucr_kernel *k)
{
	(void)k;
}

uint64_t ucr_kernel_next_ps(const struct ucr_kernel *k)
{
	(void)k;
	return UINT64_MAX;
}

void ucr_kernel_tick(struct ucr_kernel *k)
{
	(void)k;
}

void ucr_kernel_serve(struct ucr_kernel *k, const struct ucr_req *q, const void *data, size_t n,
		      struct ucr_rsp_data *rsp, size_t *rlen)
{
	(void)k, (void)data, (void)n;
	rsp->h.rc = q->op == UCR_PERF_OPEN ? -ENOENT : -EBADF;
	*rlen = sizeof(rsp->h);
}

void ucr_kernel_process_gone(struct ucr_kernel *k, int pid)
{
	(void)k, (void)pid;
}

const char *ucr_kernel_log(const struct ucr_kernel *k)
{
	(void)k;
	return "";
}

unsigned ucr_kernel_warnings(const struct ucr_kernel *k)
{
	(void)k;
	return 0;
}
#endif
