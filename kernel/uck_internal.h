/*
 * uck_internal.h - what the kernel-API layer's files share: the machine the
 * kernel booted on and the hooks between the perf core, the timers and the
 * bring-up.  Included only by kernel/uck_*.c, which are compiled against
 * the layer's kernel headers (include/).
 */
#ifndef UCK_INTERNAL_H
#define UCK_INTERNAL_H

#include <linux/pci.h>
#include <linux/perf_event.h>

#include "uck.h"

struct ucb;

struct uck_kernel {
	struct ucb *b;
	unsigned ncpu, nsockets;
	int booted;
};
extern struct uck_kernel uck_k;

/* the time of the machine, ns */
u64 uck_now(void);
/* run fn on cpu: smp_processor_id() is cpu while it runs */
#define UCK_ON_CPU(cpu, stmt)                                                    \
	do {                                                                     \
		unsigned int uck_saved_ = uck_this_cpu;                          \
		uck_this_cpu = (cpu);                                            \
		stmt;                                                            \
		uck_this_cpu = uck_saved_;                                       \
	} while (0)

/* bring-up of the layer's parts, in boot order */
int uck_cpu_boot(char *err, size_t n);
int uck_pci_boot(char *err, size_t n);
void uck_pci_shutdown(void);
void uck_perf_shutdown(void);
void uck_timers_reset(void);
void uck_log_reset(void);
/* the "software" and "cpu" PMUs (uck_corepmu.c) */
int uck_core_pmus_register(void);
void uck_core_pmus_unregister(void);

/* sysfs files of a PMU, rendered from its attribute groups (uck_sysfs.c) */
int uck_sysfs_walk(struct pmu *pmu, uck_attr_fn fn, void *ctx);
struct pmu *uck_pmu_at(unsigned i);

#endif
