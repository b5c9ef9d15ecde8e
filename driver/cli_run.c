/*
 * cli_run.c - `uncore run [options] [--] PROGRAM [ARGS]`: an unmodified
 * program on the simulated machine (run/ucr_server.h, docs/tools.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ucr_server.h"

/* The preload library: $UNCORE_RUN_LIB, else the one this build made. */
static const char *preload_path(void)
{
	const char *e = getenv("UNCORE_RUN_LIB");

	return e && *e ? e : UNCORE_RUN_LIB;
}

int cmd_run(const struct opts *o, struct machine *mc)
{
	struct ucr_opts ro = { o->run_argv, o->wall_clock, o->report, o->report_json, preload_path(), o->run_log };
	char err[1024];
	int status, rc;

	if ((rc = machine_start_trace(mc)))
		return rc;
	if ((rc = ucr_run(mc->m, &ro, &status, err, sizeof(err))))
		return cli_fail(rc == -ENOENT || rc == -ENOEXEC ? EXIT_USAGE : 1, "run: %s", err);
	return status;
}
