/*
 * cli_machine.h - the machine a command runs on (cli_machine.c): a
 * backend (simulated, hardware, replayed, and recorded around any of
 * them), and for the simulator the model with its workload or trace and
 * waveforms.
 */
#ifndef CLI_MACHINE_H
#define CLI_MACHINE_H

#include "cli_opts.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"
#include "uct.h"
#include "uct_trace.h"
#include "uct_vcd.h"

/* The machine: a backend, and for the simulator the model behind it. */
struct machine {
	struct ucm_model *m;       /* NULL unless simulated */
	struct uct_wl *wl;
	struct uct_reader *trace;
	struct uct_replay *replay;
	struct uct_vcd *vcd;       /* --vcd, or NULL */
	struct ucb *base, *be;     /* be == base, or a recorder around it */
	int replaying, hw;
};

int machine_open(const struct opts *o, struct machine *mc);
/* Attach --trace's replay to the model now (once the counters run). */
int machine_start_trace(struct machine *mc);
/* After the driver found the platform: real hardware may now be written,
 * but only the registers of that platform's tables. */
int machine_attach(struct machine *mc, struct ucd *d);
/* Commits a recording and the waveforms, checks a replay was consumed (unless the session
 * was interrupted); 0 or an exit code. */
int machine_finish(struct machine *mc, int interrupted);
/* The exit status of a failed session: 2 when a replayed log breaks its
 * format (bad input, as a malformed trace), else 1. */
int machine_error_status(const struct machine *mc);
void machine_close(struct machine *mc);
/* The hardware backend refused: says so, naming the options that chose
 * it; returns 1. */
int cli_hw_fail(const struct opts *o, const char *err);

#endif
