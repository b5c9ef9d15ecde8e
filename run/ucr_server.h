/*
 * ucr_server.h - `uncore run`: a program, its threads and every process it
 * starts see one simulated machine (docs/tools.md).  The server owns the
 * model, writes the machine's /proc, /sys and /dev tree, starts the program
 * with the preload library and answers its accesses until it exits, then
 * reports the ground truth of what it read.
 */
#ifndef UCR_SERVER_H
#define UCR_SERVER_H

#include <signal.h>
#include <stddef.h>

#include "ucm.h"
#include "ucp_machine.h"

struct ucr_opts {
	char *const *argv;        /* the program and its arguments */
	int wall_clock;           /* couple the model to the wall clock */
	const char *report;       /* ground truth as text, or NULL */
	const char *report_json;  /* and as JSON, or NULL */
	const char *preload;      /* libuncore-run.so */
	int verbose;              /* the library reports what it serves */
	/* set by the caller's handler to SIGINT, SIGTERM or SIGHUP caught
	 * before the run blocked them (NULL: none): the run ends at once */
	const volatile sig_atomic_t *caught;
};

/* Runs the program on the model; *status is its exit status (128 + signal
 * when killed).  0, or a negative errno with the reason in err. */
int ucr_run(struct ucm_model *m, const struct ucr_opts *o, int *status, char *err, size_t n);

/* The machine's tree under root (ucr_tree.c). */
/* The machine's SMBIOS structure table (*table, malloc'd, *len bytes) and
 * its SMBIOS 3.0 entry point giving it at table_pa (run/ucr_smbios.c);
 * -1: out of memory. */
#define UCR_SMBIOS_EP_LEN 24
int ucr_smbios_build(struct ucm_model *m, struct ucp_machine *mc, uint64_t table_pa, uint8_t **table,
		     size_t *len, uint8_t ep[UCR_SMBIOS_EP_LEN]);
int ucr_tree_build(const char *root, struct ucm_model *m, struct ucp_machine *mc, char *err, size_t n);

#endif
