/*
 * cli_util.h - what every command of `uncore` uses (cli_util.c): error
 * messages and the exit status of a usage error, the signals that stop a
 * command, output files that appear only complete, and --event-file.
 */
#ifndef CLI_UTIL_H
#define CLI_UTIL_H

#include <signal.h>
#include <stdio.h>

#include "ucd.h"
#include "ucm.h"
#include "uct_file.h"

#define EXIT_USAGE 2

/* "uncore: error: MESSAGE" on stderr; returns code. */
int cli_fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* SIGINT, SIGTERM and SIGHUP stop the command (cli_interrupted() says
 * which); a closed pipe makes a write fail instead of killing it. */
void cli_catch_signals(void);
/* The signal that interrupted the run (SIGINT, SIGTERM, SIGHUP), or 0. */
int cli_interrupted(void);
/* The flag cli_interrupted() reads, for loops outside the CLI. */
const volatile sig_atomic_t *cli_stop_flag(void);
/* After a signal stopped a command: says so (naming the command and what
 * became of its work) and returns 128 + the signal. */
int cli_signal_exit(const char *cmd, const char *what);
const char *cli_signame(int sig);    /* "SIGINT", "SIGTERM", "SIGHUP" */

/* -o FILE, or standard output when path is NULL. */
struct out {
	FILE *f;
	const char *path;    /* NULL: standard output */
	struct uct_file uf;
};
int out_open(struct out *o, const char *path);
int stdout_reader_gone(void);
int out_close(struct out *o, int ok);

/* Read --event-file FILE for platform p, report on stderr each entry not
 * used and a summary; 0, or the exit code of a usage or run-time error. */
int cli_event_file(const char *path, const struct ucm_platform *p, struct ucd_evfile **out);

#endif
