/*
 * ucb_hw.h - the hardware backend (/dev/cpu/N/msr or msr-safe, PCI config
 * through sysfs or /proc/bus/pci, MMIO through /dev/mem), its write
 * allow-list and the msr-safe allow-list printer.
 */
#ifndef UCB_HW_H
#define UCB_HW_H

#include <stdint.h>
#include <stdio.h>

#include "ucb.h"
#include "ucm_types.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { UCB_HW_AUTO = 0, UCB_HW_MSR, UCB_HW_MSR_SAFE, UCB_HW_PCI_SYSFS, UCB_HW_PCI_PROC };

struct ucb_hw_opts {
	const char *root;   /* where /dev, /sys and /proc are: "/" or a test tree */
	int msr;            /* UCB_HW_AUTO, UCB_HW_MSR or UCB_HW_MSR_SAFE */
	int pci;            /* UCB_HW_AUTO, UCB_HW_PCI_SYSFS or UCB_HW_PCI_PROC */
};

int ucb_hw_create(const struct ucb_hw_opts *o, struct ucb **out, char *err, size_t n);
/* Allow writes to the PMON registers of platform p (NULL: none), with the
 * MMIO window at mmio_base.  Until then every write is refused.  PCI
 * registers are allowed on the uncore buses the backend finds itself: each
 * bus whose identifying function reports a node ID mapped to a socket of
 * this machine (or, on a platform without node IDs, its fixed buses). */
int ucb_hw_allow(struct ucb *b, const struct ucm_platform *p, uint64_t mmio_base);
/* Those buses, and the socket of each (at most max); returns how many. */
unsigned ucb_hw_buses(struct ucb *b, unsigned *bus, unsigned *socket, unsigned max);
/* One line: which access paths were chosen. */
const char *ucb_hw_describe(struct ucb *b);
/* msr-safe allow-list of platform p ("0xADDR 0xWRITEMASK" lines); MSRs
 * only, as msr-safe: a comment names the PCI and MMIO boxes it leaves out. */
int ucb_hw_allowlist(const struct ucm_platform *p, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
