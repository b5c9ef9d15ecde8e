/*
 * cli_run.c - `uncore run [options] [--] PROGRAM [ARGS]`: an unmodified
 * program on the simulated machine (run/ucr_server.h, docs/tools.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_cmd.h"
#include "cli_machine.h"
#include "cli_opts.h"
#include "cli_util.h"
#include "ucr_server.h"
#include "uct_vcd.h"

/* The preload library: $UNCORE_RUN_LIB; else the installed one, found from
 * this executable (UNCORE_RUN_LIB_REL: bindir to libdir/uncore/, so a tree
 * installed under another prefix or DESTDIR, or moved, finds its own); else
 * the one this build made. */
static const char *preload_path(char *buf)
{
	const char *e = getenv("UNCORE_RUN_LIB");
	char exe[PATH_MAX], rel[PATH_MAX + sizeof(UNCORE_RUN_LIB_REL) + 1];
	ssize_t len;
	char *slash;

	if (e && *e)
		return e;
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = 0;
		if ((slash = strrchr(exe, '/'))) {
			*slash = 0;
			snprintf(rel, sizeof(rel), "%s/%s", exe, UNCORE_RUN_LIB_REL);
			if (realpath(rel, buf))
				return buf;
		}
	}
	return UNCORE_RUN_LIB;
}

int cmd_run(const struct opts *o, struct machine *mc)
{
	char lib[PATH_MAX];
	struct ucr_opts ro = { o->run_argv, o->wall_clock, o->report, o->report_json, preload_path(lib),
			       o->run_log, cli_stop_flag() };
	char err[1024];
	int status, rc;

	if ((rc = machine_start_trace(mc)))
		return rc;
	if ((rc = ucr_run(mc->m, &ro, &status, err, sizeof(err))))
		return cli_fail(rc == -ENOENT || rc == -ENOEXEC ? EXIT_USAGE : 1, "run: %s", err);
	/* the waveforms of the whole run, whatever the program's status */
	if (mc->vcd) {
		rc = uct_vcd_commit(mc->vcd, err, sizeof(err));
		mc->vcd = NULL;
		if (rc)
			return cli_fail(1, "--vcd: %s", err);
	}
	return status;
}
