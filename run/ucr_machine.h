/*
 * ucr_machine.h - the machine around the model that `uncore run` serves:
 * logical cpus and their topology, CPUID, and the MSRs outside the uncore
 * PMU, from the platform's machine tables (struct ucm_machine).
 */
#ifndef UCR_MACHINE_H
#define UCR_MACHINE_H

#include <stdint.h>

#include "ucm.h"

struct ucr_machine;

int ucr_machine_create(struct ucm_model *m, uint64_t boot_ps, struct ucr_machine **out, char *err,
		       size_t n);
void ucr_machine_destroy(struct ucr_machine *mc);
const struct ucm_machine *ucr_machine_def(const struct ucr_machine *mc);
unsigned ucr_ncpu(const struct ucr_machine *mc);
unsigned ucr_cpu_socket(const struct ucr_machine *mc, unsigned cpu);
unsigned ucr_cpu_core(const struct ucr_machine *mc, unsigned cpu);
unsigned ucr_apic_id(const struct ucr_machine *mc, unsigned cpu);
uint64_t ucr_tsc_hz(const struct ucr_machine *mc);
/* TSC at model time now_ps (counted from power-on, boot_ps before 0). */
uint64_t ucr_tsc(const struct ucr_machine *mc, uint64_t now_ps);
/* CPUID leaf/subleaf as cpu sees it. */
void ucr_cpuid_of(const struct ucr_machine *mc, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4]);
/* An MSR of the tables: 0, -ENOENT when the tables do not list it (the
 * caller then reports a #GP), -EIO when the access itself is a #GP. */
int ucr_sysmsr_read(struct ucr_machine *mc, unsigned cpu, uint32_t addr, uint64_t now_ps, uint64_t *v);
int ucr_sysmsr_write(struct ucr_machine *mc, unsigned cpu, uint32_t addr, uint64_t now_ps, uint64_t v,
		     char *why, size_t n);

#endif
