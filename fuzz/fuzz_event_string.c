/*
 * fuzz_event_string.c - the event-string parser and placement on the
 * simulated backend, on every platform.  Any string is accepted or refused
 * with a message that names the event and column; an accepted list must
 * program without a single strict-mode record and count exactly what the
 * model counted.
 *
 * Input layout: an event string, parsed against skl -- or, when the first
 * byte is a platform marker (a control byte no event string starts with:
 * 0x01 snbep, 0x02 ivt), a setup byte and then the string, parsed against that
 * platform.  The setup byte: bits 3:0 the instances of the counted box
 * type (ninst_min + v % span: snbep 1-8, ivt 1-15 CBos, which the driver probes),
 * bit 4 one socket instead of the platform's default.  No committed skl
 * input starts with 0x01, so each keeps its meaning; a platform added
 * later takes the next marker (append it to `marked`).
 */
#include <string.h>

#include "fz.h"
#include "fz_truth.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"

static char buf[4096];

/* Marker byte i selects marked[i]; no marker, skl. */
static const char *const marked[] = { "skl", "snbep", "ivt" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ucm_config cfg;
	struct ucm_model *m;
	struct ucb *be;
	struct ucd *d;
	unsigned plat = 0;
	uint8_t setup = 0;

	if (size >= 1 && data[0] > 0 && data[0] < sizeof(marked) / sizeof(marked[0])) {
		plat = data[0];
		setup = size >= 2 ? data[1] : 0;
		data += size >= 2 ? 2 : 1;
		size -= size >= 2 ? 2 : 1;
	}
	if (size >= sizeof(buf))
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	ucm_config_init(&cfg, ucm_platform_find(marked[plat]));
	cfg.strict = 1;
	if (plat) {
		const struct ucm_boxtype *bt = cfg.plat->counted;

		if (bt)
			cfg.ninst[ucm_boxtype_index(cfg.plat, bt)] =
				bt->ninst_min + (setup & 0xF) % (bt->ninst_max - bt->ninst_min + 1u);
		if (setup & 0x10)
			cfg.sockets = 1;
	}
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
		/* every input at 1 a cycle (where a code's maximum refuses more,
		 * the rest of its sub-events stay 0) */
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
