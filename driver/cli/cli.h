/*
 * cli.h - shared pieces of the `uncore` command: options, the machine it
 * runs on (a backend, and a model when simulated), messages and output
 * files that appear only complete.
 */
#ifndef CLI_H
#define CLI_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "ucb.h"
#include "ucb_hw.h"
#include "ucd.h"
#include "ucm.h"
#include "uct.h"
#include "uct_file.h"
#include "uct_gen.h"
#include "uct_trace.h"
#include "uct_vcd.h"

#define EXIT_USAGE 2

struct opts {
	const char *cmd, *sub, *arg;          /* command, trace subcommand, positional */
	const char *platform, *backend, *events, *out, *sep, *workload, *trace, *record;
	const char *metrics;                  /* -M */
	const char *event_file;               /* --event-file */
	const char *vcd;                      /* --vcd: waveforms of the model */
	const char *hw_root;
	int hw_msr, hw_pci;
	int json, per_socket, force, check, freeze_on_pmi, binary, text, list_metrics;
	uint64_t interval_ms, seed, pmi_cores, sample_period;
	double duration_s, uclk_mhz;
	int have_duration, have_seed;
	unsigned ncbo, qpi_links;
	unsigned sockets;
	/* --pci-bus, --node-ids: each socket's uncore bus and node ID */
	uint8_t pci_bus[UCM_MAXSOCK], node_id[UCM_MAXSOCK];
	unsigned npci_bus, nnode_ids;
	struct uct_gen_opts gen;
	/* run */
	char *const *run_argv;                /* the program and its arguments */
	const char *report, *report_json;
	int wall_clock, run_log;
};

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

int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The command line (cli_opts.c): 0, an exit code, or -1 after --help or
 * --version printed their page. */
int cli_parse(int argc, char **argv, struct opts *o);
/* The trace gen options the kind o->arg uses, with their values
 * ("--bandwidth 10 --read-ratio 0.7"), for its error messages. */
void cli_gen_settings(const struct opts *o, char *buf, size_t n);

struct out {
	FILE *f;
	const char *path;    /* NULL: standard output */
	struct uct_file uf;
};
int out_open(struct out *o, const char *path);
int stdout_reader_gone(void);
int out_close(struct out *o, int ok);

int machine_open(const struct opts *o, struct machine *mc);
/* Attach --trace's replay to the model now (once the counters run). */
int machine_start_trace(struct machine *mc);
/* After the driver found the platform: real hardware may now be written,
 * but only the registers of that platform's tables. */
int machine_attach(struct machine *mc, struct ucd *d);
/* The signal that interrupted the run (SIGINT, SIGTERM, SIGHUP), or 0. */
int cli_interrupted(void);
/* The flag cli_interrupted() reads, for loops outside the CLI. */
const volatile sig_atomic_t *cli_stop_flag(void);
/* After a signal stopped a command: says so (naming the command and what
 * became of its work) and returns 128 + the signal. */
int cli_signal_exit(const char *cmd, const char *what);
const char *cli_signame(int sig);    /* "SIGINT", "SIGTERM", "SIGHUP" */
/* Commits a recording and the waveforms, checks a replay was consumed (unless the session
 * was interrupted); 0 or an exit code. */
int machine_finish(struct machine *mc, int interrupted);
/* The exit status of a failed session: 2 when a replayed log breaks its
 * format (bad input, as a malformed trace), else 1. */
int machine_error_status(const struct machine *mc);
void machine_close(struct machine *mc);

/* Read --event-file FILE for platform p, report on stderr each entry not
 * used and a summary; 0, or the exit code of a usage or run-time error. */
int cli_event_file(const char *path, const struct ucm_platform *p, struct ucd_evfile **out);
/* The progress line of a long command (cli_progress.c): begin, then ask
 * whether a line is due and draw it; end finishes a drawn line. */
void cli_progress_begin(void);
int cli_progress_due(void);
void cli_progress_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_progress_drawn(void);
void cli_progress_end(void);
int cmd_stat(const struct opts *o, struct machine *mc, FILE *f);
int cmd_trace(const struct opts *o);
int cmd_run(const struct opts *o, struct machine *mc);

#endif
