/*
 * ubn_run.c - uncore-run-bench: how fast programs sampling every second
 * run under `uncore run`, on every platform.  Prints machine seconds, real
 * seconds and their ratio (above 1: faster than the hardware); asserts
 * nothing.  The programs: uncore-sampler (always), and pcm-memory,
 * likwid-perfctr and `perf stat -a -I 1000` (through Linux's uncore driver,
 * kernel/) where installed.  First, the start-up time of `uncore run` on
 * each platform.
 *
 *   uncore-run-bench [SECONDS]
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ubn_tmp.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int installed(const char *p)
{
	return access(p, X_OK) == 0;
}

static void bench(const char *plat, const char *label, const char *const *prog, const char *env)
{
	char report[4200], *argv[32];
	int k = 0, st;
	double t;
	pid_t pid;
	json_t *j;

	ubn_tmp_path("uncore-run-bench", "report.json", report, sizeof(report));
	argv[k++] = (char *)UNCORE_BIN;
	argv[k++] = (char *)"run";
	argv[k++] = (char *)"--platform";
	argv[k++] = (char *)plat;
	argv[k++] = (char *)"--report-json";
	argv[k++] = report;
	argv[k++] = (char *)"--";
	for (int i = 0; prog[i] && k < 31; i++)
		argv[k++] = (char *)prog[i];
	argv[k] = NULL;
	fflush(stdout);
	t = now();
	pid = fork();
	if (pid == 0) {
		if (env)
			putenv((char *)env);
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		printf("%-6s %-32s could not run\n", plat, label);
		return;
	}
	t = now() - t;
	j = json_load_file(report, 0, NULL);
	unlink(report);
	if (!j || !WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("%-6s %-32s failed (exit %d)\n", plat, label, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		json_decref(j);
		return;
	}
	double ms = (double)json_integer_value(json_object_get(j, "machine_ns")) * 1e-9;

	printf("%-6s %-32s %14.3f %14.3f %10.2f\n", plat, label, ms, t, ms / t);
	json_decref(j);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Start-up: `uncore run --platform P -- true`, RUNS times; the median of
 * the time the server took to reach the program (the report's start_ns:
 * from its start to the first process's hello) and of the whole run. */
static void startup(const char *plat, const char *sockets, const char *dir)
{
	enum { RUNS = 7 };
	double start[RUNS], total[RUNS];
	char report[128];
	int n = 0;

	snprintf(report, sizeof(report), "%s/start.json", dir);
	for (int i = 0; i < RUNS; i++) {
		char *argv[] = { (char *)UNCORE_BIN, (char *)"run", (char *)"--platform", (char *)plat,
				 (char *)"--sockets", (char *)sockets, (char *)"--report-json", report,
				 (char *)"--", (char *)"true", NULL };
		double t;
		pid_t pid;
		json_t *j;
		int st;

		fflush(stdout);
		t = now();
		pid = fork();
		if (pid == 0) {
			if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
				_exit(127);
			execv(argv[0], argv);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			continue;
		t = now() - t;
		if (!(j = json_load_file(report, 0, NULL)))
			continue;
		start[n] = (double)json_integer_value(json_object_get(j, "start_ns")) * 1e-6;
		total[n++] = t * 1e3;
		json_decref(j);
		unlink(report);
	}
	if (n < RUNS) {
		printf("%-6s %-8s failed (%d of %d runs)\n", plat, sockets, RUNS - n, RUNS);
		return;
	}
	qsort(start, RUNS, sizeof(double), cmp_double);
	qsort(total, RUNS, sizeof(double), cmp_double);
	printf("%-6s %-8s %12.1f %12.1f\n", plat, sockets, start[RUNS / 2], total[RUNS / 2]);
}

int main(int argc, char **argv)
{
	const char *secs = argc > 1 ? argv[1] : "10";
	static const char *const plats[] = { "skl", "snbep" };
	char label[64];

	printf("# uncore run: programs sampling every second for %s s (machine time / real time > 1: faster\n"
	       "# than the hardware); built-in workload 'mixed'\n",
	       secs);
	{
		char dir[] = "/tmp/uncore-run-bench.XXXXXX";

		if (!mkdtemp(dir)) {
			perror("uncore-run-bench: mkdtemp");
			return 1;
		}
		printf("# start-up: `uncore run -- true`, median of 7 runs; start: until the program's\n"
		       "# first process reached the server (report start_ns)\n");
		printf("%-6s %-8s %12s %12s\n", "plat", "sockets", "start ms", "whole ms");
		startup("skl", "1", dir);
		startup("snbep", "2", dir);
		startup("ivt", "2", dir);
		rmdir(dir);
	}
	printf("%-6s %-32s %14s %14s %10s\n", "plat", "program", "machine s", "real s", "ratio");
	for (size_t p = 0; p < sizeof(plats) / sizeof(plats[0]); p++) {
		const char *sampler[] = { SAMPLER_BIN, secs, NULL };
		char iters[32], sl[32];

		snprintf(label, sizeof(label), "uncore-sampler %s", secs);
		bench(plats[p], label, sampler, NULL);
		snprintf(iters, sizeof(iters), "-i=%s", secs);
		if (installed("/usr/sbin/pcm-memory") && !strcmp(plats[p], "snbep")) {
			const char *pcm[] = { "/usr/sbin/pcm-memory", "1", iters, NULL };

			snprintf(label, sizeof(label), "pcm-memory 1 %s", iters);
			bench(plats[p], label, pcm, "PCM_NO_PERF=1");
		}
		if (installed("/usr/bin/perf")) {
			const char *ev = !strcmp(plats[p], "skl") ? "uncore_imc/data_reads/" : "uncore_imc_0/cas_count_read/";
			const char *pf[] = { "/usr/bin/perf", "stat", "-a", "-I", "1000", "-e", ev, "--", "sleep", secs, NULL };

			snprintf(label, sizeof(label), "perf stat -a -I 1000");
			bench(plats[p], label, pf, NULL);
		}
		if (installed("/usr/bin/likwid-perfctr")) {
			snprintf(sl, sizeof(sl), "%s", secs);
			const char *lk[] = { "/usr/bin/likwid-perfctr", "-M", "0", "-c", "0", "-g", "MEM", "-t", "1s", "sleep", sl, NULL };

			snprintf(label, sizeof(label), "likwid-perfctr -g MEM -t 1s");
			bench(plats[p], label, lk, NULL);
		}
	}
	return 0;
}
