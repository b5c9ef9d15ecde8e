/*
 * ubn_main.c - uncore-bench, the benchmark of issue 17's goals: prints
 * figures, asserts nothing about speed (speed and memory targets are read
 * from its output, never from timed tests; docs/performance.md), and stops
 * with an error where the model and the reference it is timed against end
 * with different registers (G4).  Each figure is given as simulated
 * time per wall time and, where the goal is a ratio, against a baseline
 * measured in the same run.
 *
 * Times are the process's CPU time (see ubn_now()).
 *
 *   G1  every built-in workload and every `trace gen` kind of every
 *       platform, with every counter of the platform programmed through the
 *       driver (all boxes, all sockets; thresholds, edges, inversions and
 *       filters mixed) and the driver sampling at its default rate:
 *       simulated seconds per wall second (goal >= 100), and for traces
 *       (the binary vector form) the distinct input vectors and the ratio
 *       to merely reading the same trace as the replay reads it;
 *   G2  the cost of an input change per counter it affects (goal <= 100 ns);
 *   G3  dense traces (inputs changing every cycle) on skl with every counter
 *       programmed: cycles per second (goal >= 5e7) and the ratio to
 *       reading the trace as the replay does (uct_next_vec) and to decoding
 *       every segment's inputs (uct_next) (goal <= 2);
 *   G4  the model against the naive reference model (fuzz/ref_model.c) on
 *       the same programming and inputs (goal >= 1000x), with every counter
 *       compared at the end: skl's counters on synthetic segments of 1 to
 *       10^5 cycles (given to the model input by input, as phases, and as
 *       steps the way the replay gives a trace; and the floor at a change
 *       every cycle, a loop that only sums the steps), then G1's work
 *       (every workload and trace kind of every platform, a short stretch,
 *       the driver programming and sampling as in G1 through a backend that
 *       does each access on both); a read, register, PMI count or clock
 *       that differs ends the run with an error;
 *   G6  peak memory against trace length and run duration (constant), and
 *       MSR reads per second through the generic access path (>= 1.1e8);
 *   G7  Linux's own uncore driver (kernel/, issue 30): its start-up on each
 *       platform and the cost of a perf read through it.
 *
 * uncore-bench [--quick] [--only G1|G2|G3|G4|G6|G7] [--seconds S] [--platform P]
 * [--feed F] [--seed N]: --quick runs each part briefly (the CTest case, to
 * show it works); --seconds sets G1's simulated time, --platform limits G1,
 * G2 and G4's part on G1's work, --feed G1 and that part to one workload or
 * trace kind, --seed their traces and workload jitter (default 1);
 * --near-wrap and --sample-period N (G4's part on G1's work) set
 * every counter near its wrap first, and have the driver sample every N
 * events where the uncore raises PMIs.
 *
 * Here the options and main; each goal in its file (ubn_g1.c, ubn_g2.c,
 * ubn_g3.c, ubn_g4.c, ubn_g4_work.c, ubn_g6.c), what they share in ubn.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ubn.h"
#include "ubn_tmp.h"
#include "ucm.h"
#include "uct.h"
#include "uct_gen.h"

int ubn_quick;
double ubn_g1_secs;            /* --seconds: G1's simulated time */
const char *ubn_only_plat;     /* --platform: G1, G2 and G4 on G1's work on one platform */
const char *ubn_only_feed;     /* --feed: G1 and G4 on G1's work on one workload or trace kind */
int ubn_wrap_soon;             /* --near-wrap: G4 on G1's work with counters near their wrap */
uint64_t ubn_g4_period;        /* --sample-period: G4 on G1's work with the driver sampling */
uint64_t ubn_seed = 1;         /* --seed: the traces' generator and the workloads' jitter */
char ubn_tmp[4200];

/* The process's CPU time: the machine is shared, and a single-threaded
 * program's wall time on an idle machine is its CPU time (figures are
 * "per wall second" in that sense; docs/performance.md). */
double ubn_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void ubn_die(const char *what, const char *why)
{
	fprintf(stderr, "uncore-bench: %s: %s\n", what, why);
	unlink(ubn_tmp);
	exit(1);
}

/* An option's value, or a usage error naming the option (exit 2). */
static void bad_opt(const char *opt, const char *val, const char *want) __attribute__((noreturn));

static void bad_opt(const char *opt, const char *val, const char *want)
{
	fprintf(stderr, "uncore-bench: %s: '%s' is not %s\n", opt, val, want);
	exit(2);
}

static double opt_seconds(const char *opt, const char *v)
{
	char *end;
	double x = strtod(v, &end);

	/* a length the generators refuse is theirs to name (G1) */
	if (end == v || *end || !(x > 0 && x < HUGE_VAL))
		bad_opt(opt, v, "a positive number of seconds");
	return x;
}

static uint64_t opt_u64(const char *opt, const char *v, uint64_t min)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(v, &end, 0);
	if (end == v || *end || errno || v[0] == '-' || x < min)
		bad_opt(opt, v, min ? "a positive integer (below 2^64)" : "an integer in 0..2^64-1");
	return x;
}

/* --feed names a built-in workload of some platform or a trace kind. */
static int feed_known(const char *name)
{
	const char *const *kinds = uct_gen_kinds();

	for (unsigned k = 0; uct_workload_at(k); k++)
		if (!strcmp(uct_workload_at(k)->name, name))
			return 1;
	for (unsigned k = 0; kinds[k]; k++)
		if (!strcmp(kinds[k], name))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *only = NULL;
	static const char usage[] =
		"usage: uncore-bench [--quick] [--only G1|G2|G3|G4|G6|G7] [--seconds S (G1)] "
		"[--platform P (G1, G2, G4)] [--feed WORKLOAD|KIND (G1, G4)] [--seed N (G1, G4)] "
		"[--near-wrap (G4)] [--sample-period N (G4)]\n";

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			ubn_quick = 1;
		else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			only = argv[++i];
			if (strcmp(only, "G1") && strcmp(only, "G2") && strcmp(only, "G3") &&
			    strcmp(only, "G4") && strcmp(only, "G6") && strcmp(only, "G7"))
				bad_opt("--only", only, "a part of the benchmark (G1, G2, G3, G4, G6, G7; G5 is libFuzzer's)");
		} else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			ubn_g1_secs = opt_seconds("--seconds", argv[++i]);
		else if (!strcmp(argv[i], "--platform") && i + 1 < argc) {
			ubn_only_plat = argv[++i];
			if (!ucm_platform_find(ubn_only_plat)) {
				size_t np;
				const struct ucm_platform *const *ps = ucm_platforms(&np);
				char names[256] = "a platform (";

				for (size_t k = 0; k < np; k++)
					snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
						 k ? ", " : "", ps[k]->name);
				snprintf(names + strlen(names), sizeof(names) - strlen(names), ")");
				bad_opt("--platform", ubn_only_plat, names);
			}
		} else if (!strcmp(argv[i], "--feed") && i + 1 < argc) {
			ubn_only_feed = argv[++i];
			if (!feed_known(ubn_only_feed))
				bad_opt("--feed", ubn_only_feed, "a built-in workload or a trace kind");
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			ubn_seed = opt_u64("--seed", argv[++i], 0);
		else if (!strcmp(argv[i], "--near-wrap"))
			ubn_wrap_soon = 1;
		else if (!strcmp(argv[i], "--sample-period") && i + 1 < argc)
			ubn_g4_period = opt_u64("--sample-period", argv[++i], 1);
		else if ((!strcmp(argv[i], "--g6-trace") || !strcmp(argv[i], "--g6-run")) &&
			 i + 1 < argc) {
			/* one G6 measurement (peak_of starts these) */
			ubn_tmp_path("uncore-bench", "trace.bin", ubn_tmp, sizeof(ubn_tmp));
			if (!strcmp(argv[i], "--g6-trace"))
				ubn_g6_trace((unsigned)strtoul(argv[i + 1], NULL, 10));
			else
				ubn_g6_run(atof(argv[i + 1]));
			unlink(ubn_tmp);
			printf("%ld\n", ubn_hwm_kib());
			return 0;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		} else {
			fprintf(stderr, "uncore-bench: %s: unknown option, or its value missing\n%s", argv[i],
				usage);
			return 2;
		}
	}
	ubn_tmp_path("uncore-bench", "trace.bin", ubn_tmp, sizeof(ubn_tmp));
	printf("# uncore benchmark (issue 17; docs/performance.md)%s\n", ubn_quick ? ", --quick" : "");
	if (!only || !strcmp(only, "G1"))
		ubn_g1();
	if (!only || !strcmp(only, "G2"))
		ubn_g2();
	if (!only || !strcmp(only, "G3"))
		ubn_g3();
	if (!only || !strcmp(only, "G4")) {
		ubn_g4();
		ubn_g4_work();
	}
	if (!only || !strcmp(only, "G6"))
		ubn_g6();
#ifdef UBN_HAVE_KERNEL
	if (!only || !strcmp(only, "G7"))
		ubn_g7();
#else
	if (only && !strcmp(only, "G7"))
		ubn_die("G7", "this build has no Linux driver (linux-source-6.1 was missing)");
#endif
	unlink(ubn_tmp);
	return 0;
}
