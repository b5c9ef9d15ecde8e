/*
 * ubn_g2.c - G2: the cost of an input change per counter it affects, every
 * counter of the platform programmed through the driver.
 */
#include <stdio.h>
#include <string.h>

#include "ubn.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"

static void g2_platform(const struct ucm_platform *p)
{
	struct ucm_config cfg;
	struct ucm_model *m = NULL;
	struct ucb *be = NULL;
	struct ucd *d = NULL;
	struct ucd_opts o = { NULL, 0, 0, 0, 0, 0 };
	struct ubn_prog pr;
	unsigned reps = ubn_quick ? 20 : 2000;
	uint64_t changes[2] = { 0, 0 }, fan = 0;
	double tm[2] = { 0, 0 };

	ucm_config_init(&cfg, p);
	if (ucm_create(&cfg, &m) || ucb_sim_create(m, &be) || ucd_open(be, &o, &d))
		ubn_die(p->name, "model");
	ubn_program_all(d, m, &pr);
	if (ucd_start(d))
		ubn_die(p->name, ucd_error(d));
	ucm_clear_inputs(m);
	/* every sub-event of every box: 0 -> 1 -> 0, a cycle of its clock
	 * between (the cost of the time step is in both columns) */
	for (unsigned b = 0; b < ucm_box_count(m); b++) {
		const struct ucm_boxtype *bt = ucm_box_def(m, (int)b)->type;
		unsigned nsub = ucm_subev_count(bt);

		for (unsigned s = 0; s < nsub; s++) {
			unsigned fo = ucm_input_fanout(m, (int)b, s);
			int k = fo != 0;
			double t;

			if (ucm_set_input(m, (int)b, s, 1))
				continue; /* an event whose maximum is 0 */
			ucm_set_input(m, (int)b, s, 0);
			t = ubn_now();
			for (unsigned i = 0; i < reps; i++) {
				ucm_set_input(m, (int)b, s, 1);
				ucm_run_cycles(m, bt->clock, 1);
				ucm_set_input(m, (int)b, s, 0);
				ucm_run_cycles(m, bt->clock, 1);
			}
			tm[k] += ubn_now() - t;
			changes[k] += 2ull * reps;
			fan += 2ull * reps * fo;
		}
	}
	printf("%-6s %4u/%-4u %12llu %10.1f %12llu %8.2f %10.1f %14.1f\n", p->name, pr.placed,
	       pr.total, (unsigned long long)changes[0], tm[0] / (double)changes[0] * 1e9,
	       (unsigned long long)changes[1], changes[1] ? (double)fan / (double)changes[1] : 0,
	       changes[1] ? tm[1] / (double)changes[1] * 1e9 : 0,
	       fan ? tm[1] / (double)fan * 1e9 : 0);
	ucd_stop(d);
	ucd_close(d);
	ucb_destroy(be);
	ucm_destroy(m);
}

void ubn_g2(void)
{
	size_t np;
	const struct ucm_platform *const *ps = ucm_platforms(&np);

	printf("\n## G2: an input change (and one cycle of time), every counter programmed\n");
	printf("%-6s %9s %12s %10s %12s %8s %10s %14s\n", "plat", "counters", "fanout-0 chg",
	       "ns/change", "fanout>0 chg", "mean fo", "ns/change", "ns/affected ctr");
	for (size_t i = 0; i < np; i++)
		if (!ubn_only_plat || !strcmp(ubn_only_plat, ps[i]->name))
			g2_platform(ps[i]);
}
