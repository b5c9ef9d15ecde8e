/*
 * ct_linux.h - the rig of the tests of Linux's uncore driver (t_linux.c,
 * t_linux_edit.c): a strict, timed model of a platform running its "mixed"
 * workload, the kernel booted on it through a backend that passes every
 * access to the simulated one and notes which counter register the driver
 * read last (so a test learns the counter an event is on from the
 * driver's accesses, never from the driver), and the check that the driver
 * programmed nothing the manuals call reserved but the findings about
 * Linux that docs/linux-driver.md lists.
 */
#ifndef CT_LINUX_H
#define CT_LINUX_H

#include <stdint.h>

#include "ucb.h"
#include "ucm.h"

struct ct_linux_spy {
	struct ucb *inner;
	struct ucm_model *m;
	int last_box;            /* box handle of the last counter read, -1 none */
	unsigned last_ctr;
	uint64_t last_off, prev_off; /* byte offsets in the register of the last two reads */
	int prev_same;           /* the read before the last was of the same counter */
	uint64_t bar;            /* MMIO BAR base, for the MMIO offsets */
};
extern struct ct_linux_spy S;

/* 0, or a failure reported and nonzero */
int ct_linux_boot(const char *plat);
/* shut the kernel down; no WARN, no #GP of a plain MSR access */
void ct_linux_halt(void);
/* every strict-mode record is one of the known findings about Linux */
void ct_linux_only_findings(const char *plat);

#endif
