/*
 * ubn_g3.c - G3: dense traces (inputs changing every cycle) on skl with
 * every counter programmed by MSR writes: cycles per second, and the ratio
 * to reading the trace as the replay does and to decoding every input.
 * The skl model, the dense segments and their trace, written and replayed,
 * serve G4 and G6 too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ubn.h"
#include "ucm.h"
#include "uct_trace.h"

/* The writes that program every skl counter: four CBos' two counters, the
 * two ARB counters, the fixed UCLK counter (the IMC counters run free);
 * thresholds, inversion and edge detection mixed; overflow enabled. */
const struct ubn_msr ubn_skl_prog[] = {
	{ 0x700, 0x34 | 0x8F << 8 | 1ull << 22 | 1ull << 20 },
	{ 0x701, 0x34 | 0x11 << 8 | 1ull << 22 | 1ull << 24 | 1ull << 18 },
	{ 0x710, 0x34 | 0x8F << 8 | 1ull << 22 | 1ull << 20 | 1ull << 24 | 1ull << 23 },
	{ 0x711, 0x34 | 0x11 << 8 | 1ull << 22 | 1ull << 20 },
	{ 0x720, 0x34 | 0x8F << 8 | 1ull << 22 | 1ull << 20 | 1ull << 24 | 1ull << 18 },
	{ 0x721, 0x34 | 0x11 << 8 | 1ull << 22 | 1ull << 24 },
	{ 0x730, 0x34 | 0x8F << 8 | 1ull << 22 | 1ull << 20 },
	{ 0x731, 0x34 | 0x11 << 8 | 1ull << 22 | 1ull << 24 | 1ull << 18 },
	{ 0x3B2, 0x80 | 0x01 << 8 | 1ull << 22 | 1ull << 20 },
	{ 0x3B3, 0x80 | 0x01 << 8 | 1ull << 22 | 5ull << 24 | 1ull << 23 },
	{ 0x394, 1ull << 22 | 1ull << 20 },
	{ 0xE01, 1ull << 29 | 0xF },
};

struct ucm_model *ubn_skl_model(void)
{
	struct ucm_config cfg;
	struct ucm_model *m;

	ucm_config_init(&cfg, ucm_platform_find("skl"));
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_PCI] = cfg.access_ps[UCM_MMIO] = 0;
	if (ucm_create(&cfg, &m))
		ubn_die("skl", "model");
	for (size_t i = 0; i < sizeof(ubn_skl_prog) / sizeof(ubn_skl_prog[0]); i++)
		ucm_msr_write(m, 0, ubn_skl_prog[i].addr, ubn_skl_prog[i].v);
	return m;
}

/* Segment i of the dense trace: a CBo lookup sub-event on every CBo and
 * the ARB occupancy, both changing at every segment. */
void ubn_dense_seg(struct uct_seg *s, uint64_t i, uint64_t len, int cbo, int arb)
{
	s->start = i * len;
	s->ncycles = len;
	s->nin = 2;
	s->in[0] = (struct uct_in){ .bt = (uint8_t)cbo, .inst = -1, .sub = (uint16_t)(i % 12), .inc = 1 };
	s->in[1] = (struct uct_in){ .bt = (uint8_t)arb, .inst = 0, .sub = 0, .inc = (uint32_t)(i % 33) };
}

void ubn_write_trace(uint64_t nseg, uint64_t len)
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
	if (!s || uct_writer_open(ubn_tmp, UCT_BINARY, &h, &w, err, sizeof(err)))
		ubn_die(ubn_tmp, s ? err : "out of memory");
	for (uint64_t i = 0; i < nseg; i++) {
		ubn_dense_seg(s, i, len, cbo, arb);
		if (uct_write(w, s))
			ubn_die(ubn_tmp, uct_writer_error(w));
	}
	if (uct_writer_commit(w))
		ubn_die(ubn_tmp, uct_writer_error(w));
	free(s);
}

double ubn_replay(uint64_t cycles)
{
	struct ucm_model *m = ubn_skl_model();
	struct uct_reader *r = NULL;
	struct uct_replay *rp = NULL;
	char err[768] = "cannot attach the replay";
	double t;

	if (uct_open(ubn_tmp, &r, err, sizeof(err)) || uct_replay_attach(m, r, &rp))
		ubn_die(ubn_tmp, err);
	t = ubn_now();
	if (ucm_run_cycles(m, 0, cycles))
		ubn_die(ubn_tmp, ucm_error(m));
	t = ubn_now() - t;
	uct_replay_detach(rp);
	uct_close(r);
	ucm_destroy(m);
	return t;
}

void ubn_g3(void)
{
	uint64_t nseg = ubn_quick ? 20000 : 2000000, n;
	unsigned nvec;
	double dec, decall, rep;

	printf("\n## G3: dense trace (inputs change every cycle), skl, every counter programmed\n");
	ubn_write_trace(nseg, 1);
	decall = ubn_decode_time(ubn_tmp, 0, &n, NULL);
	dec = ubn_decode_time(ubn_tmp, 1, &n, &nvec);
	rep = ubn_replay(nseg);
	printf("%llu segments, %u distinct input vectors\n", (unsigned long long)nseg, nvec);
	printf("%-26s %12s %12s %14s\n", "", "cpu s", "ns/cycle", "cycles/s");
	printf("%-26s %12.4f %12.1f %14.3g\n", "read+decode every input", decall,
	       decall / (double)nseg * 1e9, (double)nseg / decall);
	printf("%-26s %12.4f %12.1f %14.3g\n", "read as the replay reads", dec,
	       dec / (double)nseg * 1e9, (double)nseg / dec);
	printf("%-26s %12.4f %12.1f %14.3g%s\n", "replay into the model", rep,
	       rep / (double)nseg * 1e9, (double)nseg / rep, (double)nseg / rep >= 5e7 ? "" : "   (< 5e7)");
	printf("%-26s %12.2f%s\n", "replay / read", rep / dec, rep / dec <= 2 ? "" : "   (> 2)");
	printf("%-26s %12.2f%s\n", "replay / decode every input", rep / decall,
	       rep / decall <= 2 ? "" : "   (> 2)");
	printf("\n%-26s %12s %12s %14s\n", "segment length (cycles)", "cpu s", "ns/segment",
	       "cycles/s");
	for (uint64_t len = 1; len <= (1ull << 40); len *= 1024) {
		uint64_t ns = ubn_quick ? 2000 : 20000;
		double t;

		/* the readers bound a trace's machine time (10^6 s): at most
		 * 2*10^14 cycles, 2^40-cycle segments at 3 GHz being 366 s each */
		if (ns * len > 200000000000000ull)
			ns = 200000000000000ull / len;
		ubn_write_trace(ns, len);
		t = ubn_replay(ns * len);
		printf("%-26llu %12.4f %12.1f %14.3g\n", (unsigned long long)len, t,
		       t / (double)ns * 1e9, (double)ns * (double)len / t);
	}
	unlink(ubn_tmp);
}
