/*
 * cli_cmd.h - the commands that have a file of their own, as cli_main.c
 * runs them: stat (cli_stat.c), trace (cli_trace.c), run (cli_run.c).
 * Each returns the command's exit status.
 */
#ifndef CLI_CMD_H
#define CLI_CMD_H

#include <stdio.h>

#include "cli_machine.h"
#include "cli_opts.h"

int cmd_stat(const struct opts *o, struct machine *mc, FILE *f);
int cmd_trace(const struct opts *o);
int cmd_run(const struct opts *o, struct machine *mc);

#endif
