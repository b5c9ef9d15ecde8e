/*
 * fuzz_event_string.c - the event-string parser and placement on the
 * simulated backend.  Any string is accepted or refused with a message
 * that names the event and column; an accepted list must program without
 * a single strict-mode record and count exactly what the model counted.
 */
#include <string.h>

#include "fz.h"
#include "fz_truth.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"

static char buf[4096];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ucm_config cfg;
	struct ucm_model *m;
	struct ucb *be;
	struct ucd *d;

	if (size >= sizeof(buf))
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	ucm_config_init(&cfg, ucm_platform_find("skl"));
	cfg.strict = 1;
	if (ucm_create(&cfg, &m) || ucb_sim_create(m, &be))
		FZ_FAIL("setup");
	if (ucd_open(be, NULL, &d))
		FZ_FAIL("open: %s", ucd_error(d));
	ucm_truth_mark(m);
	if (ucd_add_events(d, buf)) {
		const char *e = ucd_error(d);

		if (!strstr(e, "col ") && !strstr(e, "empty event") && !strstr(e, "more than") &&
		    !strstr(e, "too many"))
			FZ_FAIL("refusal without a column: %s", e);
	} else {
		for (unsigned b = 0; b < ucm_box_count(m); b++)
			for (unsigned s = 0; s < ucm_subev_count(ucm_box_def(m, (int)b)->type); s++)
				ucm_set_input(m, (int)b, s, 1);
		if (ucd_run(d, 200000, 0, NULL, NULL))
			FZ_FAIL("accepted '%s' but could not run it: %s", buf, ucd_error(d));
		fz_check_truth(d, m, buf);
		ucd_restore(d);
	}
	ucd_close(d);
	ucb_destroy(be);
	ucm_destroy(m);
	return 0;
}
