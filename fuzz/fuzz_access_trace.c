/*
 * fuzz_access_trace.c - the access-trace replay backend as a parser: a
 * driver session (discovery, two events, a short run, restore) runs against
 * an arbitrary log.  It must end in success or in a clean error that names
 * the log, never in a crash or a hang.
 */
#include <string.h>
#include <unistd.h>

#include "fz.h"
#include "ucb.h"
#include "ucd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[1024];
	struct ucb *be;
	struct ucd *d;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/uncore-fuzz-at-%d", (int)getpid());
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		FZ_FAIL("cannot write %s", path);
	if (ucb_replay_create(path, &be, err, sizeof(err))) {
		if (!strstr(err, path))
			FZ_FAIL("error without the file: %s", err);
		unlink(path);
		return 0;
	}
	if (!ucd_open(be, NULL, &d) && !ucd_add_events(d, "uclk,data_reads") &&
	    !ucd_run(d, 2000000, 0, NULL, NULL))
		ucd_restore(d);
	else if (!ucd_error(d)[0])
		FZ_FAIL("a failure without a message");
	ucd_close(d);
	ucb_replay_finish(be, err, sizeof(err));
	ucb_destroy(be);
	unlink(path);
	return 0;
}
