/*
 * ubn_g6.c - G6: peak memory against trace length and run duration (each
 * measured in a process of its own: this program run afresh), and MSR
 * reads per second through the generic access path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ubn.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"
#include "uct.h"

/* One G6 memory measurement, in the process the parent started for it. */
void ubn_g6_trace(unsigned n)
{
	ubn_write_trace(n, 1000);
	ubn_replay((uint64_t)n * 1000);
}

void ubn_g6_run(double secs)
{
	const struct ucm_platform *p = ucm_platform_find("snbep");
	const struct uct_workload_def *wd = uct_workload_find("snbep", "mixed");
	struct ucm_config cfg;
	struct ucm_model *m = NULL;
	struct uct_wl *w = NULL;
	struct ucb *be = NULL;
	struct ucd *d = NULL;
	struct ucd_opts o = { NULL, 0, 0, 0, 0, 0 };
	struct ubn_prog pr;
	char err[256];

	ucm_config_init(&cfg, p);
	if (ucm_create(&cfg, &m) || uct_attach(m, wd, 1, &w, err, sizeof(err)) ||
	    ucb_sim_create(m, &be) || ucd_open(be, &o, &d))
		ubn_die("snbep", "model");
	ubn_program_all(d, m, &pr);
	if (ucd_start(d) || ucd_run(d, (uint64_t)(secs * 1e9), 0, NULL, NULL))
		ubn_die("snbep", ucd_error(d));
	ucd_stop(d);
	ucd_close(d);
	ucb_destroy(be);
	uct_detach(w);
	ucm_destroy(m);
}

/* This process's peak RSS (VmHWM: of its memory since exec, unlike
 * getrusage's, which keeps the peak of the process it was forked from). */
long ubn_hwm_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

/* The peak RSS of this program run afresh as `uncore-bench opt arg`: a
 * process of its own, so that nothing measured before (G1's traces) is in
 * the figure; it prints its VmHWM. */
static long peak_of(const char *opt, const char *arg)
{
	char self[4096], cmd[4200];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	long kib = -1;
	FILE *f;

	if (n <= 0)
		ubn_die(opt, "cannot find the benchmark's own program");
	self[n] = 0;
	snprintf(cmd, sizeof(cmd), "'%s' %s %s", self, opt, arg);
	fflush(stdout);
	if (!(f = popen(cmd, "r")))
		ubn_die(opt, "cannot start a measurement process");
	if (fscanf(f, "%ld", &kib) != 1)
		kib = -1;
	if (pclose(f) != 0 || kib < 0)
		ubn_die(opt, "the measurement process failed");
	return kib;
}

void ubn_g6(void)
{
	char arg[32];

	printf("\n## G6: memory against trace length (skl replay) and run duration (snbep mixed, all counters)\n");
	printf("%-28s %14s\n", "trace length (segments)", "peak RSS KiB");
	for (unsigned n = 1000; n <= (ubn_quick ? 10000u : 1000000u); n *= 10) {
		snprintf(arg, sizeof(arg), "%u", n);
		printf("%-28u %14ld\n", n, peak_of("--g6-trace", arg));
	}
	printf("%-28s %14s\n", "run duration (simulated s)", "peak RSS KiB");
	for (double secs = 0.001; secs <= (ubn_quick ? 0.002 : 1.0); secs *= 10) {
		snprintf(arg, sizeof(arg), "%.17g", secs);
		printf("%-28g %14ld\n", secs, peak_of("--g6-run", arg));
	}
	{
		struct ucm_model *m = ubn_skl_model();
		uint64_t v;
		double t = ubn_now();
		unsigned n = ubn_quick ? 100000 : 20000000;

		for (unsigned i = 0; i < n; i++)
			ucm_msr_read(m, 0, 0x706 + 0x10 * (i & 3), &v);
		t = ubn_now() - t;
		printf("\n%-28s %14.3g%s\n", "MSR reads per second", n / t, n / t >= 1.1e8 ? "" : "   (< 1.1e8)");
		ucm_destroy(m);
	}
}
