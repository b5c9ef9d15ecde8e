/*
 * uct_bench.c - benchmark of trace replay and model time: prints figures,
 * asserts nothing (speed and memory targets are read from its output, not
 * from timed tests).
 *
 *   1. cost of one constant segment against its length (O(1) expected),
 *      with threshold/invert/edge programming and overflows;
 *   2. single-cycle entries per second;
 *   3. peak memory against trace length (constant expected: streaming);
 *   4. register accesses per second through the generic path;
 *   5. each platform's built-in workloads: machine seconds per real second
 *      (what a tool run with `uncore run` waits on; uncore-run-bench times
 *      the tools themselves).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "ucm.h"
#include "uct.h"
#include "uct_trace.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long peak_kib(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static struct ucm_model *model(void)
{
	struct ucm_config cfg;
	struct ucm_model *m;

	ucm_config_init(&cfg, ucm_platform_find("skl"));
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_PCI] = cfg.access_ps[UCM_MMIO] = 0;
	if (ucm_create(&cfg, &m)) {
		fprintf(stderr, "model\n");
		exit(1);
	}
	/* every counter busy, with the pipeline options and overflow */
	for (unsigned c = 0; c < 4; c++) {
		ucm_msr_write(m, 0, 0x700 + 0x10 * c, 0x34 | 0x8F << 8 | 1ull << 22 | 1ull << 20);
		ucm_msr_write(m, 0, 0x701 + 0x10 * c, 0x34 | 0x11 << 8 | 1ull << 22 | 1ull << 24 | 1ull << 18);
	}
	ucm_msr_write(m, 0, 0x3B2, 0x80 | 0x01 << 8 | 1ull << 22 | 1ull << 20);
	ucm_msr_write(m, 0, 0x3B3, 0x80 | 0x01 << 8 | 1ull << 22 | 5ull << 24 | 1ull << 23);
	ucm_msr_write(m, 0, 0x394, 1ull << 22 | 1ull << 20);
	ucm_msr_write(m, 0, 0xE01, 1ull << 29 | 0xF);
	return m;
}

static void write_trace(const char *path, unsigned nseg, uint64_t len)
{
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg *s = calloc(1, sizeof(*s));
	char err[512];
	const struct ucm_platform *p = ucm_platform_find("skl");
	int cbo = ucm_boxtype_index(p, ucm_boxtype_find(p, "cbo"));
	int arb = ucm_boxtype_index(p, ucm_boxtype_find(p, "arb"));

	memset(&h, 0, sizeof(h));
	h.plat = p;
	h.sockets = 1;
	if (!s || uct_writer_open(path, 1, &h, &w, err, sizeof(err))) {
		fprintf(stderr, "writer: %s\n", err);
		exit(1);
	}
	for (unsigned i = 0; i < nseg; i++) {
		s->start = (uint64_t)i * len;
		s->ncycles = len;
		s->nin = 2;
		s->in[0] = (struct uct_in){ .bt = (uint8_t)cbo, .inst = -1, .sub = (uint16_t)(i % 12), .inc = 1 };
		s->in[1] = (struct uct_in){ .bt = (uint8_t)arb, .inst = 0, .sub = 0, .inc = (uint32_t)(i % 33) };
		if (uct_write(w, s)) {
			fprintf(stderr, "%s\n", uct_writer_error(w));
			exit(1);
		}
	}
	if (uct_writer_commit(w)) {
		fprintf(stderr, "%s\n", uct_writer_error(w));
		exit(1);
	}
	free(s);
}

static double replay(const char *path, uint64_t cycles)
{
	struct ucm_model *m = model();
	struct uct_reader *r;
	struct uct_replay *rp;
	char err[768];
	double t;

	if (uct_open(path, &r, err, sizeof(err)) || uct_replay_attach(m, r, &rp)) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
	t = now();
	ucm_run_cycles(m, 0, cycles);
	t = now() - t;
	uct_replay_detach(rp);
	uct_close(r);
	ucm_destroy(m);
	return t;
}

int main(int argc, char **argv)
{
	char path[64];
	unsigned nseg = argc > 1 ? (unsigned)atoi(argv[1]) : 20000;

	snprintf(path, sizeof(path), "/tmp/uncore-bench-%d.bin", (int)getpid());
	printf("# uncore replay benchmark (%u segments per run; Skylake client, 10 counters programmed)\n", nseg);
	printf("%-28s %14s %14s %16s\n", "segment length (cycles)", "seconds", "ns/segment", "cycles/second");
	for (uint64_t len = 1; len <= (1ull << 40); len *= 1024) {
		double t;

		write_trace(path, nseg, len);
		t = replay(path, (uint64_t)nseg * len);
		printf("%-28llu %14.4f %14.1f %16.3g\n", (unsigned long long)len, t, t / nseg * 1e9,
		       (double)nseg * (double)len / t);
	}
	printf("\n%-28s %14s\n", "trace length (segments)", "peak RSS KiB");
	for (unsigned n = 1000; n <= 1000000; n *= 10) {
		write_trace(path, n, 1000);
		replay(path, (uint64_t)n * 1000);
		printf("%-28u %14ld\n", n, peak_kib());
	}
	{
		struct ucm_model *m = model();
		uint64_t v;
		double t = now();
		unsigned n = 2000000;

		for (unsigned i = 0; i < n; i++)
			ucm_msr_read(m, 0, 0x706 + 0x10 * (i & 3), &v);
		t = now() - t;
		printf("\n%-28s %14.0f\n", "MSR reads per second", n / t);
		ucm_destroy(m);
	}
	printf("\n%-28s %14s %14s\n", "workload (platform)", "real s / 1 s", "machine/real");
	for (unsigned i = 0; uct_workload_at(i); i++) {
		const struct uct_workload_def *wd = uct_workload_at(i);
		struct ucm_config cfg;
		struct ucm_model *m = NULL;
		struct uct_wl *w = NULL;
		char err[256], name[64];
		double t;

		ucm_config_init(&cfg, ucm_platform_find(wd->platform));
		if (ucm_create(&cfg, &m) || uct_attach(m, wd, 1, &w, err, sizeof(err))) {
			printf("%s: cannot run\n", wd->name);
			uct_detach(w);
			ucm_destroy(m);
			continue;
		}
		t = now();
		ucm_run_ps(m, 1000000000000ull);
		t = now() - t;
		snprintf(name, sizeof(name), "%s (%s)", wd->name, wd->platform);
		printf("%-28s %14.4f %14.1f\n", name, t, 1.0 / t);
		uct_detach(w);
		ucm_destroy(m);
	}
	unlink(path);
	return 0;
}
