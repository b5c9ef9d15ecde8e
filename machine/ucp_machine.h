/*
 * ucp_machine.h - the machine around the uncore PMU, one place for every
 * part that presents a whole machine (`uncore run`'s server, Linux's driver
 * in kernel/ through ucp_backend): logical cpus and their topology, CPUID,
 * the MSRs outside the uncore PMU, from the platform's machine tables
 * (struct ucm_machine, model/<platform>/ucm_plat_<platform>_mach.c), and
 * a backend over the model and those tables.
 */
#ifndef UCP_MACHINE_H
#define UCP_MACHINE_H

#include <stdint.h>

#include "ucm.h"

struct ucp_machine;

int ucp_machine_create(struct ucm_model *m, uint64_t boot_ps, struct ucp_machine **out, char *err,
		       size_t n);
void ucp_machine_destroy(struct ucp_machine *mc);
const struct ucm_machine *ucp_machine_def(const struct ucp_machine *mc);
unsigned ucp_ncpu(const struct ucp_machine *mc);
unsigned ucp_cpu_socket(const struct ucp_machine *mc, unsigned cpu);
unsigned ucp_cpu_core(const struct ucp_machine *mc, unsigned cpu);
unsigned ucp_apic_id(const struct ucp_machine *mc, unsigned cpu);
uint64_t ucp_tsc_hz(const struct ucp_machine *mc);
/* TSC at model time now_ps (counted from power-on, boot_ps before 0). */
uint64_t ucp_tsc(const struct ucp_machine *mc, uint64_t now_ps);
/* CPUID leaf/subleaf as cpu sees it. */
void ucp_cpuid_of(const struct ucp_machine *mc, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4]);
/* An MSR of the tables: 0, -ENOENT when the tables do not list it (the
 * caller then reports a #GP), -EIO when the access itself is a #GP. */
int ucp_sysmsr_read(struct ucp_machine *mc, unsigned cpu, uint32_t addr, uint64_t now_ps, uint64_t *v);
int ucp_sysmsr_write(struct ucp_machine *mc, unsigned cpu, uint32_t addr, uint64_t now_ps, uint64_t v,
		     char *why, size_t n);
/* Which cpus run a program's thread from now on (`uncore run`): each
 * ucp_cpu_runs() marks one, ucp_cpus_update() takes the marks as the new
 * state and clears them.  Such a cpu's core is in C0 (APERF, MPERF, the
 * fixed counters, RAPL, the temperature follow); any other in what the
 * workload says of its socket's cores. */
void ucp_cpu_runs(struct ucp_machine *mc, unsigned cpu);
void ucp_cpus_update(struct ucp_machine *mc, uint64_t now_ps);

/* The whole machine as a backend (driver/backend/ucb.h): MSRs of the model
 * then of the machine tables (a #GP: -EIO), PCI configuration and MMIO of
 * the model (MMIO nothing decodes reads all ones), CPUID of the tables,
 * CLOCK_MONOTONIC as machine time plus mono_base_ns, and a sleep that runs
 * the model.  Used by Linux's driver in `uncore run` (run/ucr_kernel.c). */
struct ucb;
int ucp_backend_create(struct ucm_model *m, struct ucp_machine *mc, uint64_t mono_base_ns, struct ucb **out);
/* While on, PCI configuration and MSR reads take no machine time and have
 * no side effect (ucm_pci_peek, ucm_msr_peek): a boot's enumeration and
 * the drivers' probes, over before a program runs. */
void ucp_backend_booting(struct ucb *b, int on);
/* While on, the machine tables' MSRs (the core PMU's, outside the uncore)
 * take no machine time: the kernel switching tasks, which happens between
 * two of the program's requests, at one instant of machine time. */
void ucp_backend_switching(struct ucb *b, int on);
/* machine time to and from the backend's clock */
uint64_t ucp_backend_ps(const struct ucb *b, uint64_t ns);

#endif
