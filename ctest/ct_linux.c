/*
 * ct_linux.c - the rig of the tests of Linux's uncore driver (ct_linux.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct.h"
#include "ct_linux.h"
#include "ct_rig.h"
#include "uck.h"
#include "uct.h"

/* ---- a backend that passes through to the simulated one and notes the
 * last counter register read ---- */

static struct ucb spyb;
struct ct_linux_spy S;

static void note(unsigned space, unsigned socket, uint64_t addr)
{
	size_t i, n = ucm_nregs(S.m);

	for (i = 0; i < n; i++) {
		struct ucm_reginfo ri;

		if (ucm_reginfo(S.m, i, &ri) || ri.kind != UCM_K_CTR || ri.space != space ||
		    (space != UCM_MMIO && ri.socket != socket))
			continue;
		if (addr < ri.addr || addr >= ri.addr + (space == UCM_MSR ? 1 : ri.width / 8))
			continue;
		for (int b = 0; b < (int)ucm_box_count(S.m); b++) {
			if (ucm_box_def(S.m, b) == ri.box && ucm_box_socket(S.m, b) == ri.socket) {
				S.prev_same = S.last_box == b && S.last_ctr == ri.idx;
				S.prev_off = S.last_off;
				S.last_box = b;
				S.last_ctr = ri.idx;
				S.last_off = addr - ri.addr;
				return;
			}
		}
	}
}

static int spy_msr_read(struct ucb *b, unsigned cpu, uint32_t a, uint64_t *v)
{
	(void)b;
	note(UCM_MSR, cpu / ucm_cpus_per_socket(S.m), a);
	return ucb_msr_read(S.inner, cpu, a, v);
}
static int spy_msr_write(struct ucb *b, unsigned cpu, uint32_t a, uint64_t v)
{
	(void)b;
	return ucb_msr_write(S.inner, cpu, a, v);
}
static int spy_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t *v)
{
	unsigned s;

	(void)b;
	for (s = 0; s < ucm_nsockets(S.m); s++)
		if (ucm_pci_bus(S.m, s) == d->bus)
			note(UCM_PCI, s, ucm_pci_key(d->bus, d->dev, d->fn, off));
	return ucb_pci_read(S.inner, d, off, w, v);
}
static int spy_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned w, uint64_t v)
{
	(void)b;
	return ucb_pci_write(S.inner, d, off, w, v);
}
static int spy_mmio_read(struct ucb *b, uint64_t pa, unsigned w, uint64_t *v)
{
	(void)b;
	note(UCM_MMIO, 0, pa - S.bar);
	return ucb_mmio_read(S.inner, pa, w, v);
}
static int spy_mmio_write(struct ucb *b, uint64_t pa, unsigned w, uint64_t v)
{
	(void)b;
	return ucb_mmio_write(S.inner, pa, w, v);
}
static int spy_cpuid(struct ucb *b, unsigned cpu, uint32_t l, uint32_t s, uint32_t r[4])
{
	(void)b;
	return ucb_cpuid(S.inner, cpu, l, s, r);
}
static int spy_socket_cpu(struct ucb *b, unsigned s, unsigned *cpu)
{
	(void)b;
	return ucb_socket_cpu(S.inner, s, cpu);
}
static int spy_now(struct ucb *b, uint64_t *ns)
{
	(void)b;
	return ucb_now_ns(S.inner, ns);
}
static int spy_sleep(struct ucb *b, uint64_t ns)
{
	(void)b;
	return ucb_sleep_ns(S.inner, ns);
}

static const struct ucb_ops spy_ops = {
	.name = "spy",
	.msr_read = spy_msr_read,
	.msr_write = spy_msr_write,
	.pci_read = spy_pci_read,
	.pci_write = spy_pci_write,
	.mmio_read = spy_mmio_read,
	.mmio_write = spy_mmio_write,
	.cpuid = spy_cpuid,
	.socket_cpu = spy_socket_cpu,
	.now_ns = spy_now,
	.sleep_ns = spy_sleep,
};

static struct uct_wl *wl;

/* A timed, strict model of the platform running its "mixed" workload, and
 * the kernel booted on it. */
int ct_linux_boot(const char *plat)
{
	struct uck_host h = { 0 };
	char err[256];
	int rc;

	S.m = ct_model(plat, 0, 1);
	CT_CHECK(S.m != NULL);
	if (!S.m)
		return -1;
	rc = uct_attach(S.m, uct_workload_find(plat, "mixed"), 1, &wl, err, sizeof(err));
	CT_EQ(rc, 0);
	CT_EQ(ucb_sim_create(S.m, &S.inner), 0);
	if (ucm_platform_of(S.m)->bar_size) {
		uint64_t bar = 0;

		ucm_pci_peek(S.m, 0, 0, 0, 0, 0x48, 8, &bar);
		S.bar = bar & ucm_platform_of(S.m)->bar_mask;
	}
	S.last_box = -1;
	spyb.ops = &spy_ops;
	h.b = &spyb;
	h.nsockets = ucm_nsockets(S.m);
	h.ncpu = h.nsockets * ucm_cpus_per_socket(S.m);
	rc = uck_boot(&h, err, sizeof(err));
	if (rc)
		ct_fail(__FILE__, __LINE__, "%s: %s\n%s", plat, err, uck_log());
	return rc;
}

void ct_linux_halt(void)
{
	uck_shutdown();
	CT_EQ(uck_warnings(), 0u);
	CT_EQ(uck_msr_faults(), 0u);
	if (uck_warnings() || uck_msr_faults())
		fprintf(stderr, "kernel log:\n%s", uck_log());
	ucb_destroy(S.inner);
	uct_detach(wl);
	ucm_destroy(S.m);
}

/* What Linux programs that the manuals call reserved: findings about Linux
 * (docs/linux-driver.md, "Findings"), each expected, nothing else. */
static const struct finding {
	const char *plat, *reg_suffix, *rule;
} findings[] = {
	/* SKL_UNC_GLOBAL_CTL_CORE_ALL is 0x1f: a PMI to five cores of a
	 * four-core part (SKL Table 2-2: bit 4 reserved) */
	{ "skl", "MSR_UNC_PERF_GLOBAL_CTRL", "reserved bits 0x10 written" },
	/* SNBEP_PMON_BOX_CTL_INT sets RST_CTRL and RST_CTRS on the PCI boxes,
	 * whose box control the guide marks reserved there */
	{ "snbep", "_PCI_PMON_BOX_CTL", "reserved bits 0x3 written" },
	/* IVBEP_PMON_BOX_CTL_INT leaves bits 17:16 of every box control 0,
	 * which the v2 guide says software must write as 1 */
	{ "ivt", "_PMON_BOX_CTL", "bits 0x30000 written as 0" },
};

void ct_linux_only_findings(const char *plat)
{
	for (size_t i = 0; i < ucm_strict_count(S.m); i++) {
		const struct ucm_strict_rec *r = ucm_strict_get(S.m, i);
		size_t k, lr = strlen(r->reg);
		char line[512];

		for (k = 0; k < sizeof(findings) / sizeof(findings[0]); k++) {
			size_t ls = strlen(findings[k].reg_suffix);

			if (!strcmp(findings[k].plat, plat) && lr >= ls &&
			    !strcmp(r->reg + lr - ls, findings[k].reg_suffix) && strstr(r->rule, findings[k].rule))
				break;
		}
		if (k < sizeof(findings) / sizeof(findings[0]))
			continue;
		ucm_strict_format(S.m, i, line, sizeof(line));
		ct_fail(__FILE__, __LINE__, "%s: Linux programmed what no finding names: %s", plat, line);
	}
}

