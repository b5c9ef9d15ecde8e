/*
 * fuzz_access_trace.c - the access-trace replay backend as a parser: a
 * driver session (discovery, the events below, a short run, restore) runs
 * against an arbitrary log, of either platform.  It must end in success or in a clean error that names
 * the log, never in a crash or a hang.
 */
#include <string.h>
#include <unistd.h>

#include "fz.h"
#include "ucb.h"
#include "ucd.h"

static const char *session_events(const struct ucd *d, char *buf, size_t n)
{
	const char *def = ucd_default_events(d), *comma;

	if (!strcmp(ucd_platform(d)->name, "skl"))
		return "uclk,data_reads";
	comma = strchr(def, ',');
	comma = comma ? strchr(comma + 1, ',') : NULL;
	snprintf(buf, n, "%.*s", comma ? (int)(comma - def) : (int)strlen(def), def);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[1024], evs[256];
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
	/* the log says which platform it was recorded on: on skl the two
	 * events the committed corpus was recorded with, elsewhere the first
	 * two of the platform's default set (the Xeon E5-2600 seed: `uncore
	 * stat --platform snbep --sockets 1 --ncbo 2 -e UNC_U_CLOCKTICKS,
	 * UNC_C_LLC_LOOKUP.DATA_READ --duration 0.002 --record`) */
	if (!ucd_open(be, NULL, &d) && !ucd_add_events(d, session_events(d, evs, sizeof(evs))) &&
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
