/*
 * cli_opts.h - the command line of `uncore` (cli_opts.c): every option's
 * value once parsed, the parser, and the trace generator's settings for
 * messages.
 */
#ifndef CLI_OPTS_H
#define CLI_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "ucm.h"
#include "uct_gen.h"

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

/* The command line: 0, an exit code, or -1 after --help or --version
 * printed their page. */
int cli_parse(int argc, char **argv, struct opts *o);
/* The trace gen options the kind o->arg uses, with their values
 * ("--bandwidth 10 --read-ratio 0.7"), for its error messages. */
void cli_gen_settings(const struct opts *o, char *buf, size_t n);

#endif
