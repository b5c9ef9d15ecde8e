/*
 * uck.h - Linux's own uncore PMU driver (arch/x86/events/intel/uncore*.c,
 * compiled unmodified from the installed linux-source) running on the
 * model: the interface the rest of uncore uses.  Behind it, the kernel-API
 * layer (uck_*.c, include/) gives the driver PCI, MSRs, MMIO, the CPU
 * topology, hotplug, hrtimers on machine time and a perf core, all through
 * one backend (driver/backend/ucb.h), so the driver runs on the simulated machine,
 * on a recorded session or on a real box alike (docs/linux-driver.md).
 *
 * The kernel is one per process, as it is one per machine: uck_boot once,
 * uck_shutdown to end.  Calls are not thread-safe; the caller serialises
 * them, as `uncore run`'s server does.
 */
#ifndef UCK_H
#define UCK_H

#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ucb;

/* The machine the kernel boots on. */
struct uck_host {
	struct ucb *b;             /* registers (MSR, PCI config, MMIO), time */
	unsigned ncpu;             /* logical cpus, numbered socket-major */
	unsigned nsockets;         /* packages, one die each */
	/* module parameters of intel_uncore (0: the module's default) */
	int no_discover;
};

/* Boot: identify the CPU (CPUID of cpu 0), enumerate PCI segment 0, run the
 * driver's module init and bring every cpu online through its hotplug
 * callbacks.  0, or a negative errno with err saying why (the driver
 * found no uncore on this part: -ENODEV). */
int uck_boot(const struct uck_host *h, char *err, size_t n);
/* The release of the Linux source the driver was taken from, as the
 * machine's `uname -r` reports it: "6.1.192" (its Makefile's VERSION,
 * PATCHLEVEL, SUBLEVEL and EXTRAVERSION). */
const char *uck_release(void);

/* Module exit; every event must be closed first. */
void uck_shutdown(void);
int uck_booted(void);

/* The kernel log (printk, WARNs, unchecked MSR accesses), '\n'-separated,
 * and how many WARNs, BUG-free failures and #GPs of plain MSR accesses it
 * holds: each one is a finding about the driver or the machine. */
const char *uck_log(void);
unsigned uck_warnings(void);
unsigned uck_msr_faults(void);

/* Registered PMUs, in registration order. */
unsigned uck_npmus(void);
const char *uck_pmu_name(unsigned i);
int uck_pmu_type(unsigned i);
/* index of the PMU of that name or type, -1 if none */
int uck_pmu_find(const char *name);
int uck_pmu_find_type(int type);

/* A PMU's sysfs attributes as /sys/bus/event_source/devices/<pmu>/ has
 * them: "type", "cpumask", "perf_event_mux_interval_ms", then
 * "format/<name>", "events/<name>" and any other group's files, each with
 * its content as the driver's show() produced it.  fn is called once per
 * visible file; a non-zero return stops the walk and is returned. */
typedef int (*uck_attr_fn)(void *ctx, const char *path, const char *content);
int uck_pmu_attrs(unsigned i, uck_attr_fn fn, void *ctx);

/* perf_event_open(2) on the kernel: pid -1 (cpu-wide) or a task's tid (the
 * host turns pid 0 into the caller's; an unknown one is -ESRCH), group an
 * event id or -1.  Returns an event id (> 0) or a negative errno as the
 * system call would. */
int uck_event_open(const struct perf_event_attr *attr, int pid, int cpu, int group,
		   unsigned long flags);
/* read(2) of the event's descriptor: bytes written or a negative errno */
long uck_event_read(int id, void *buf, size_t n);
/* ioctl(2): PERF_EVENT_IOC_{ENABLE,DISABLE,RESET,ID,...}; ID writes *out */
int uck_event_ioctl(int id, unsigned long req, unsigned long arg, uint64_t *out);
int uck_event_close(int id);
/* the cpu the event counts on, after the driver placed it (its box's cpu) */
int uck_event_cpu(int id);

/* Tasks: the threads of the host's programs, named by tid, as the host
 * sees them run (docs/linux-driver.md, "Tasks").  uck_task_new: a task
 * appears, forked or cloned by task parent (0: none known), whose groups
 * with attr.inherit it inherits; -EEXIST if known.  uck_task_run: it runs
 * on cpu from now (again, or on another cpu: a migration); of the tasks
 * running on one cpu the one that started last is on it, the others are
 * preempted.  uck_task_stop: it stops running; switched: a context switch
 * (it sleeps or blocks), not an exec or exit under way.  uck_task_exec:
 * it exec'ed (enable_on_exec).  uck_task_exit: it ended; its inherited
 * events add their counts to their originals, the events opened on it stay
 * readable.  Each returns 0 or -ESRCH (no such live task).
 * uck_task_running: whether it is on its cpu now. */
int uck_task_new(int tid, int tgid, int parent);
int uck_task_run(int tid, int cpu);
int uck_task_stop(int tid, int switched);
int uck_task_exec(int tid);
int uck_task_exit(int tid);
int uck_task_running(int tid);

/* Machine time.  The host calls uck_run_timers at each time it reaches:
 * the hrtimers due by now fire (the driver's counter polling, the perf
 * core's multiplexing).  uck_next_timer_ns is the earliest expiry, or
 * UINT64_MAX; uck_sleep_ns sleeps through the backend firing each timer at
 * its time. */
void uck_run_timers(void);
uint64_t uck_next_timer_ns(void);
int uck_sleep_ns(uint64_t ns);

#ifdef __cplusplus
}
#endif

#endif
