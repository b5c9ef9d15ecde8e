/*
 * consumer.c - a program built against an installed uncore tree (not the
 * source tree), as a user's would be: package/consumer/CMakeLists.txt finds
 * it with find_package(uncore CONFIG), run_test.sh also with pkg-config.
 *
 * On a simulated Skylake-client uncore running the built-in 'stream'
 * workload it counts twice and checks each count:
 *  1. through the registers (ucm_msr_*): the fixed counter counts uclk,
 *     3000 MHz by default (Table 2-1, 3.3), so with free register accesses
 *     1 ms of enabled counting is exactly 3,000,000; CBo 0's counter 0
 *     programmed with CACHE_LOOKUP.ANY (0x34/0x8f) equals the model's
 *     ground truth of what it counted and is not 0;
 *  2. through the driver (ucd_*) on the simulated backend: every counter of
 *     uclk, UNC_CBO_CACHE_LOOKUP.ANY_MESI and data_reads equals the ground
 *     truth between the driver's first and last read.
 * Exit 0 when all hold; else each difference is printed and the exit is 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <uncore/ucb.h>
#include <uncore/ucd.h>
#include <uncore/ucm.h>
#include <uncore/uct.h>

static int fails;

static void expect(const char *what, uint64_t got, uint64_t want)
{
	printf("%-44s %12llu  (expected %llu)\n", what, (unsigned long long)got,
	       (unsigned long long)want);
	if (got != want)
		fails++;
}

static int die(const char *what, const char *msg)
{
	fflush(stdout);
	fprintf(stderr, "consumer: %s: %s\n", what, msg);
	return 1;
}

/* Counting programmed register by register (docs/platform-skl.md). */
static int by_registers(struct ucm_model *m)
{
	const uint64_t en = 1ull << 22, global_en = 1ull << 29;
	uint64_t fixed, cbo;
	struct ucm_truth t;
	int box;

	ucm_truth_mark(m);
	if (ucm_msr_write(m, 0, 0x394, en) ||                   /* FIXED_CTRL.CNT_EN */
	    ucm_msr_write(m, 0, 0x700, en | 0x8f00 | 0x34) ||   /* CBO_0_PERFEVTSEL0 */
	    ucm_msr_write(m, 0, 0xE01, global_en) ||            /* GLOBAL_CTRL.EN */
	    ucm_run_ps(m, 1000000000ull) ||                     /* 1 ms */
	    ucm_msr_read(m, 0, 0x395, &fixed) ||                /* FIXED_CTR */
	    ucm_msr_read(m, 0, 0x706, &cbo))                    /* CBO_0_PERFCTR0 */
		return die("registers", ucm_error(m));
	expect("registers: fixed counter, uclk in 1 ms", fixed, 3000000);
	if ((box = ucm_box_find(m, 0, "cbo", 0)) < 0 || ucm_truth(m, box, 0, &t))
		return die("registers", "no ground truth for cbo0 counter 0");
	expect("registers: cbo0 CACHE_LOOKUP.ANY (truth)", cbo, t.last_read);
	if (!cbo) {
		printf("registers: cbo0 counted nothing under 'stream'\n");
		fails++;
	}
	/* leave the counters as found: the driver refuses to take over
	 * counters another agent has enabled */
	if (ucm_msr_write(m, 0, 0xE01, 0) || ucm_msr_write(m, 0, 0x394, 0) ||
	    ucm_msr_write(m, 0, 0x700, 0))
		return die("registers", ucm_error(m));
	return 0;
}

/* The same machine through the reference driver. */
static int by_driver(struct ucm_model *m)
{
	struct ucd_opts o = { .platform = NULL };   /* detected, as on hardware */
	struct ucb *be = NULL;
	struct ucd *d = NULL;
	int rc = 1;

	if (ucb_sim_create(m, &be))
		return die("ucb_sim_create", "failed");
	if (ucd_open(be, &o, &d)) {
		die("ucd_open", d ? ucd_error(d) : "failed");
		goto out;
	}
	if (ucd_add_events(d, "uclk,UNC_CBO_CACHE_LOOKUP.ANY_MESI,data_reads")) {
		die("ucd_add_events", ucd_error(d));
		goto out;
	}
	ucm_truth_mark(m);
	if (ucd_run(d, 200000000ull, 0, NULL, NULL) || ucd_restore(d)) {   /* 0.2 s */
		die("ucd_run", ucd_error(d));
		goto out;
	}
	for (size_t i = 0; i < ucd_ncounters(d); i++) {
		struct ucd_ctrinfo ci;
		struct ucd_evinfo ei;
		struct ucm_truth t;
		char what[64];
		int box;

		ucd_counter(d, i, &ci);
		ucd_event(d, ci.event, &ei);
		box = ucm_box_find(m, ci.socket, ci.box->type->name, ci.box->inst);
		if (box < 0 || ucm_truth(m, box, ci.ctr, &t) || !t.reads) {
			printf("driver: %s: no ground truth\n", ei.name);
			fails++;
			continue;
		}
		snprintf(what, sizeof(what), "driver: %s %s%u/%u (truth)", ei.name,
			 ci.box->type->name, ci.box->inst, ci.ctr);
		expect(what, ci.total, t.last_read - t.first_read);
		if (!ci.total) {
			printf("driver: %s counted nothing\n", ei.name);
			fails++;
		}
	}
	rc = 0;
out:
	ucd_close(d);
	ucb_destroy(be);
	return rc;
}

int main(void)
{
	const struct ucm_platform *p = ucm_platform_find("skl");
	const struct uct_workload_def *wd = uct_workload_find("skl", "stream");
	struct ucm_config cfg;
	struct ucm_model *m = NULL;
	struct uct_wl *wl = NULL;
	char err[256];
	int rc;

	if (!p || !wd)
		return die("installed library", "no skl platform or 'stream' workload");
	ucm_config_init(&cfg, p);
	memset(cfg.access_ps, 0, sizeof(cfg.access_ps));   /* accesses take no time */
	if (ucm_create(&cfg, &m)) {
		die("ucm_create", m ? ucm_error(m) : "failed");
		ucm_destroy(m);
		return 1;
	}
	if (uct_attach(m, wd, 1, &wl, err, sizeof(err))) {
		ucm_destroy(m);
		return die("uct_attach", err);
	}
	rc = by_registers(m) || by_driver(m);
	uct_detach(wl);
	ucm_destroy(m);
	if (rc || fails) {
		fprintf(stderr, "consumer: %s\n", rc ? "failed" : "counts differ from what was expected");
		return 1;
	}
	printf("consumer: every count as expected\n");
	return 0;
}
