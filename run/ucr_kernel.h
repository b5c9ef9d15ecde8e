/*
 * ucr_kernel.h - Linux's uncore driver (kernel/uck.h) inside `uncore run`:
 * booted on the machine when the server starts, its PMUs written into the
 * machine's /sys/bus/event_source/devices/, its timers run on the
 * machine's clock, and the program's perf_event_open descriptors served by
 * its perf core (docs/linux-driver.md, "In uncore run").
 */
#ifndef UCR_KERNEL_H
#define UCR_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "ucm.h"
#include "ucp_machine.h"
#include "ucr_proto.h"

struct ucr_kernel;

/* Boots the kernel on the machine, whose CLOCK_MONOTONIC is machine time
 * plus mono_base_ns, and writes its PMUs' sysfs files under root.  0 (and
 * *out NULL when the build has no kernel, or the driver finds no uncore:
 * then perf_event_open fails as on a kernel without the PMU), or a
 * negative errno with err. */
int ucr_kernel_start(struct ucm_model *m, struct ucp_machine *mc, uint64_t mono_base_ns, const char *root,
		     struct ucr_kernel **out, char *err, size_t n);
void ucr_kernel_stop(struct ucr_kernel *k);
/* The machine time (ps) of the kernel's next timer, UINT64_MAX if none. */
uint64_t ucr_kernel_next_ps(const struct ucr_kernel *k);
/* Runs the timers due by the machine's time now. */
void ucr_kernel_tick(struct ucr_kernel *k);
/* A perf request (UCR_PERF_*) of process pid; data: the request's payload
 * (the attribute of an open), its length n; the reply may carry data
 * (a read) in rsp->data, its length in *rlen. */
void ucr_kernel_serve(struct ucr_kernel *k, const struct ucr_req *q, const void *data, size_t n,
		      struct ucr_rsp_data *rsp, size_t *rlen);
/* A process has ended: its threads' tasks end, and the events it opened
 * go with it. */
void ucr_kernel_process_gone(struct ucr_kernel *k, int pid);
/* Per-task events (docs/linux-driver.md, "Tasks"): thread tid of process
 * pid made a request; the first time, it becomes a task, inheriting from
 * parent (the thread that forked it, or its parent process; 0: its
 * process's main thread, or its parent process). */
void ucr_kernel_task_seen(struct ucr_kernel *k, int pid, int tid, int parent);
/* Whether the thread runs now, and on which cpu; connected: it has a
 * connection (none: an exec or its end under way, which is no context
 * switch). */
void ucr_kernel_task_state(struct ucr_kernel *k, int pid, int tid, int connected, int running, unsigned cpu);
/* The thread's process started a new image (exec): enable_on_exec. */
void ucr_kernel_task_exec(struct ucr_kernel *k, int tid);
/* The tasks without a connection whose thread has ended (gone, or a
 * zombie) exit: their inherited counts go to their parents' events. */
void ucr_kernel_reap(struct ucr_kernel *k);
/* Whether strict-mode record i of the model was made by the kernel (Linux's
 * driver programming the machine), not by the program. */
int ucr_kernel_made(const struct ucr_kernel *k, size_t i);
/* The model's totals at each of the driver's reads of counter register reg
 * (ucm_reginfo index; MSR and PCI counters), oldest first, the latest 256
 * at most, into out (max of them): their number. */
size_t ucr_kernel_reads(const struct ucr_kernel *k, size_t reg, uint64_t *out, size_t max);
/* The events the driver programmed on counter register reg: each value
 * with the enable bit it wrote to the control register, unless the same as
 * the one before, the model's total of the counter then, and at the
 * driver's last read of the counter before the next such write (has_read:
 * there was one); into out (max of them, in order): their number; *more:
 * some were left out (here or by the kernel's bound of 4096). */
struct ucr_kernel_ctl {
	uint64_t value, total, read;
	int has_read;
};
size_t ucr_kernel_controls(const struct ucr_kernel *k, size_t reg, struct ucr_kernel_ctl *out, size_t max,
			   int *more);
/* The kernel log and its findings, for the report. */
const char *ucr_kernel_log(const struct ucr_kernel *k);
unsigned ucr_kernel_warnings(const struct ucr_kernel *k);

#endif
