/*
 * uck_boot.c - bringing the kernel up and down: the machine's CPUs and PCI
 * first, then intel_uncore's module init (which registers its PCI driver
 * and PMUs and installs its CPU hotplug state, run for every cpu), and at
 * the end every event closed and the module's exit.  Beside intel_uncore,
 * the package-scope PMUs' modules rapl and intel_cstate.
 */
#include <linux/module.h>

#include "uck_internal.h"

struct uck_kernel uck_k;

/* the modules' entry points and intel_uncore's parameter (linux/module.h) */
extern int (*const uck_init_intel_uncore)(void);
extern void (*const uck_exit_intel_uncore)(void);
extern int (*const uck_init_rapl)(void);
extern void (*const uck_exit_rapl)(void);
extern int (*const uck_init_intel_cstate)(void);
extern void (*const uck_exit_intel_cstate)(void);
extern bool *const uck_param_uncore_no_discover;

/* The modules, loaded one after the other (each is a module in Debian's
 * kernel configuration, loaded at boot).  The order decides the PMUs'
 * dynamic types: intel_uncore's come first.  intel_uncore is the one the
 * machine is for: its failure fails the boot.  The others, as a kernel
 * does with a module that finds no hardware it knows, are logged and left
 * out. */
static const struct {
	const char *name;
	int (*const *init)(void);
	void (*const *exit)(void);
	bool required;
} modules[] = {
	{ "intel_uncore", &uck_init_intel_uncore, &uck_exit_intel_uncore, true },
	{ "rapl", &uck_init_rapl, &uck_exit_rapl, false },
	{ "intel_cstate", &uck_init_intel_cstate, &uck_exit_intel_cstate, false },
};
#define NMOD (sizeof(modules) / sizeof(modules[0]))
static bool loaded[NMOD];

static void unload(void)
{
	for (size_t i = NMOD; i-- > 0;)
		if (loaded[i]) {
			(*modules[i].exit)();
			loaded[i] = false;
		}
}

int uck_boot(const struct uck_host *h, char *err, size_t n)
{
	int rc;

	if (uck_k.booted) {
		snprintf(err, n, "kernel: already booted (one kernel a process)");
		return -EBUSY;
	}
	uck_log_reset();
	uck_k.b = h->b;
	uck_k.ncpu = h->ncpu;
	uck_k.nsockets = h->nsockets;
	if ((rc = uck_cpu_boot(err, n)))
		return rc;
	if ((rc = uck_pci_boot(err, n)))
		return rc;
	*uck_param_uncore_no_discover = h->no_discover != 0;
	/* the core's PMUs first: "software" and "cpu" take their fixed types */
	if ((rc = uck_core_pmus_register())) {
		snprintf(err, n, "kernel: registering the core PMUs: %s", strerror(-rc));
		uck_pci_shutdown();
		return rc;
	}
	for (size_t i = 0; i < NMOD; i++) {
		rc = (*modules[i].init)();
		if (!rc) {
			loaded[i] = true;
			continue;
		}
		if (!modules[i].required) {
			uck_printk(6, "%s: init: %s (%d): not loaded\n", modules[i].name, strerror(-rc), rc);
			continue;
		}
		unload();
		uck_core_pmus_unregister();
		snprintf(err, n, "kernel: %s's init failed: %s (%d)%s", modules[i].name, strerror(-rc), rc,
			 rc == -ENODEV ? ": the driver has no uncore support for this CPU" : "");
		uck_pci_shutdown();
		uck_timers_reset();
		return rc;
	}
	uck_k.booted = 1;
	return 0;
}

int uck_booted(void)
{
	return uck_k.booted;
}

void uck_shutdown(void)
{
	if (!uck_k.booted)
		return;
	uck_perf_shutdown();
	unload();
	uck_core_pmus_unregister();
	uck_pci_shutdown();
	uck_timers_reset();
	uck_k.booted = 0;
}
