/*
 * uck_boot.c - bringing the kernel up and down: the machine's CPUs and PCI
 * first, then intel_uncore's module init (which registers its PCI driver
 * and PMUs and installs its CPU hotplug state, run for every cpu), and at
 * the end every event closed and the module's exit.
 */
#include <linux/module.h>

#include "uck_internal.h"

struct uck_kernel uck_k;

/* the driver's module entry points and parameter (linux/module.h) */
extern int (*const uck_module_init)(void);
extern void (*const uck_module_exit)(void);
extern bool *const uck_param_uncore_no_discover;

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
	rc = uck_module_init();
	if (rc) {
		uck_core_pmus_unregister();
		snprintf(err, n, "kernel: intel_uncore's init failed: %s (%d)%s", strerror(-rc), rc,
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
	uck_module_exit();
	uck_core_pmus_unregister();
	uck_pci_shutdown();
	uck_timers_reset();
	uck_k.booted = 0;
}
