/*
 * uct_bench.c - the benchmark of issue 17's goals: prints figures, asserts
 * nothing about speed (speed and memory targets are read from its output,
 * never from timed tests; docs/performance.md), and stops with an error
 * where the model and the reference it is timed against end with different
 * registers (G4).  Each figure is given as simulated
 * time per wall time and, where the goal is a ratio, against a baseline
 * measured in the same run.
 *
 * Times are the process's CPU time (see now()).
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
 *       MSR reads per second through the generic access path (>= 1.1e8).
 *
 * uncore-bench [--quick] [--only G1|G2|G3|G4|G6] [--seconds S] [--platform P]
 * [--feed F] [--seed N]: --quick runs each part briefly (the CTest case, to
 * show it works); --seconds sets G1's simulated time, --platform limits G1,
 * G2 and G4's part on G1's work, --feed G1 and that part to one workload or
 * trace kind, --seed their traces and workload jitter (default 1);
 * --near-wrap and --sample-period N (G4's part on G1's work) set
 * every counter near its wrap first, and have the driver sample every N
 * events where the uncore raises PMIs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ref_model.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"
#include "uct.h"
#include "uct_gen.h"
#include "uct_trace.h"

static int quick;
static double g1_secs;          /* --seconds: G1's simulated time */
static const char *only_plat;  /* --platform: G1, G2 and G4 on G1's work on one platform */
static const char *only_feed;  /* --feed: G1 and G4 on G1's work on one workload or trace kind */
static int wrap_soon;          /* --near-wrap: G4 on G1's work with counters near their wrap */
static uint64_t g4_period;     /* --sample-period: G4 on G1's work with the driver sampling */
static uint64_t seed = 1;      /* --seed: the traces' generator and the workloads' jitter */
static char tmp[96];

/* The process's CPU time: the machine is shared, and a single-threaded
 * program's wall time on an idle machine is its CPU time (figures are
 * "per wall second" in that sense; docs/performance.md). */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const char *why) __attribute__((noreturn));

static void die(const char *what, const char *why)
{
	fprintf(stderr, "uncore-bench: %s: %s\n", what, why);
	unlink(tmp);
	exit(1);
}

/* ---- every counter of a platform, through the driver ---- */

struct prog {
	unsigned placed, total;            /* counters programmed, counters the model has */
	unsigned thresh, edge, inv, filt;  /* events with each */
};

static unsigned model_counters(const struct ucm_model *m)
{
	unsigned n = 0;

	for (unsigned b = 0; b < ucm_box_count(m); b++)
		n += ucm_box_def(m, (int)b)->type->nctr;
	return n;
}

/* Counters of box type bt the session holds (distinct socket, box, counter). */
static unsigned placed_of(const struct ucd *d, const struct ucm_boxtype *bt)
{
	static unsigned char seen[8][1024][8];
	unsigned n = 0;
	size_t nc = ucd_ncounters(d);

	memset(seen, 0, sizeof(seen));
	for (size_t i = 0; i < nc; i++) {
		struct ucd_ctrinfo ci;
		size_t bi;

		if (ucd_counter(d, i, &ci) || (bt && ci.box->type != bt))
			continue;
		bi = (size_t)(ci.box - ucd_platform(d)->boxes);
		if (ci.socket < 8 && bi < 1024 && ci.ctr < 8 && !seen[ci.socket][bi][ci.ctr]) {
			seen[ci.socket][bi][ci.ctr] = 1;
			n++;
		}
	}
	return n;
}

/* Program every counter: for each box type, first one of the platform's
 * named events that carries filter values, then its named events in turn,
 * raw with THRESH=1, THRESH=1 and edge, THRESH=1 and INV, or as they are
 * (the rotation starts at a different place for each box type, so that a
 * box of two counters gets a mix too); an event the placement or the
 * control rules refuse is skipped; until every counter of every instance on
 * every socket holds one. */
static void program_all(struct ucd *d, const struct ucm_model *m, struct prog *pr)
{
	const struct ucm_platform *p = ucd_platform(d);

	memset(pr, 0, sizeof(*pr));
	pr->total = model_counters(m);
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxtype *bt = p->boxes[i].type;
		unsigned want = 0, k = i;

		for (unsigned j = 0; j < i; j++)
			if (p->boxes[j].type == bt)
				goto next;
		for (unsigned b = 0; b < ucm_box_count(m); b++)
			if (ucm_box_def(m, (int)b)->type == bt)
				want += bt->nctr;
		for (unsigned e = 0; e < p->nevents; e++)
			if (p->events[e].box == bt && p->events[e].nfilt &&
			    ucd_add_events(d, p->events[e].name) == 0) {
				pr->filt++;
				pr->thresh += p->events[e].thresh != 0;
				goto rotate;
			}
		/* a table without such events: the first event that takes one
		 * of the box filter terms (those the box has no field for are
		 * refused) */
		for (unsigned e = 0; e < p->nevents; e++) {
			static const char *const terms[] = { "filter_state=0x1f", "filter_band0=20",
							     "filter_opc=0x182", "filter_nid=0" };
			const struct ucm_event *ev = &p->events[e];

			if (ev->box != bt || ev->nfilt)
				continue;
			for (unsigned t = 0; t < sizeof(terms) / sizeof(terms[0]); t++) {
				char s[160];

				snprintf(s, sizeof(s), "%s/event=0x%x,umask=0x%x,%s/", bt->name, ev->code,
					 ev->umask, terms[t]);
				if (ucd_add_events(d, s) == 0) {
					pr->filt++;
					goto rotate;
				}
			}
		}
rotate:
		for (unsigned e = 0; e < p->nevents && placed_of(d, bt) < want; e++) {
			const struct ucm_event *ev = &p->events[e];
			char s[160];
			unsigned v = k % 4;

			if (ev->box != bt)
				continue;
			k++;
			if (v != 3 && !ev->nfilt && !ev->thresh) {
				snprintf(s, sizeof(s), "%s/event=0x%x,umask=0x%x,thresh=1%s/", bt->name,
					 ev->code, ev->umask, v == 1 ? ",edge" : v == 2 ? ",inv" : "");
				if (ucd_add_events(d, s) == 0) {
					pr->thresh++;
					pr->edge += v == 1;
					pr->inv += v == 2;
					continue;
				}
			}
			if (ucd_add_events(d, ev->name) == 0) {
				pr->thresh += ev->thresh != 0;
				pr->filt += ev->nfilt != 0;
			}
		}
		if (placed_of(d, bt) < want)
			fprintf(stderr, "uncore-bench: %s %s: %u of %u counters programmed\n", p->name,
				bt->name, placed_of(d, bt), want);
next:;
	}
	pr->placed = placed_of(d, NULL);
}

/* ---- G1: workloads and generated traces through the driver ---- */

struct feed {
	const struct uct_workload_def *wd;  /* a workload, or */
	const char *kind;                   /* a generated trace of this kind */
};

/* Read and decode a trace once: the baseline a replay is compared with.
 * vec: as the replay reads it (uct_next_vec: a segment that refers to a
 * vector is its time and the vector's number), otherwise every segment's
 * inputs decoded (uct_next).  *nvec: the distinct vectors. */
static double decode_time(const char *path, int vec, uint64_t *nseg, unsigned *nvec)
{
	struct uct_reader *r = NULL;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[768];
	double t;
	int rc, vid, full;

	if (!s || uct_open(path, &r, err, sizeof(err)))
		die(path, s ? err : "out of memory");
	*nseg = 0;
	t = now();
	if (vec)
		while ((rc = uct_next_vec(r, s, 0, &vid, &full)) > 0)
			(*nseg)++;
	else
		while ((rc = uct_next(r, s)) > 0)
			(*nseg)++;
	t = now() - t;
	if (rc < 0)
		die(path, uct_reader_error(r));
	if (nvec)
		*nvec = uct_vectors(r);
	uct_close(r);
	free(s);
	return t;
}

static int gen_trace(const struct ucm_platform *p, const char *kind, double seconds)
{
	struct uct_gen_opts g = { kind, seconds, 10.0, 0.7, 0.9, 0.25, 0.2, 10000, 0, seed, 0 };
	struct uct_hdr h;
	struct uct_writer *w;
	char err[768], what[64];
	int rc;

	memset(&h, 0, sizeof(h));
	h.plat = p;
	h.sockets = p->sockets_default ? p->sockets_default : 1;
	h.seed = seed;
	if (uct_writer_open(tmp, UCT_BINARY, &h, &w, err, sizeof(err)))
		die(tmp, err);
	if ((rc = uct_generate(&h, &g, w, err, sizeof(err)))) {
		uct_writer_abort(w);
		if (rc == -ENOTSUP)
			return -1; /* a kind this platform has no tables for */
		/* anything else (--seconds past what a trace may hold) is
		 * not a figure to leave out quietly */
		snprintf(what, sizeof(what), "%s trace %s", p->name, kind);
		die(what, err);
	}
	if (uct_writer_commit(w)) {
		snprintf(err, sizeof(err), "%s", uct_writer_error(w));
		uct_writer_abort(w);
		die(tmp, err);
	}
	return 0;
}

/* Run one feed on a platform for `seconds` of simulated time, every counter
 * programmed, the driver polling or waiting for PMIs as `stat` does. */
static void g1_run(const struct ucm_platform *p, const struct feed *f, double seconds)
{
	struct ucm_config cfg;
	struct ucm_model *m = NULL;
	struct uct_wl *w = NULL;
	struct uct_reader *r = NULL;
	struct uct_replay *rp = NULL;
	struct ucb *be = NULL;
	struct ucd *d = NULL;
	struct ucd_opts o = { NULL, 0, 0, 0, 0, 0 };
	struct prog pr;
	char err[768], name[64];
	double t, dec = 0;
	uint64_t nseg = 0;
	unsigned nvec = 0;

	ucm_config_init(&cfg, p);
	if (f->kind) {
		if (gen_trace(p, f->kind, seconds))
			return;
		dec = decode_time(tmp, 1, &nseg, &nvec);
		if (uct_open(tmp, &r, err, sizeof(err)))
			die(tmp, err);
		uct_config(uct_header(r), &cfg);
	}
	if (ucm_create(&cfg, &m))
		die(p->name, m ? ucm_error(m) : "model");
	if (f->wd && uct_attach(m, f->wd, seed, &w, err, sizeof(err)))
		die(f->wd->name, err);
	if (ucb_sim_create(m, &be) || ucd_open(be, &o, &d))
		die(p->name, d ? ucd_error(d) : "backend");
	program_all(d, m, &pr);
	ucm_truth_mark(m);
	if (ucd_start(d))
		die(p->name, ucd_error(d));
	if (r && uct_replay_attach(m, r, &rp))
		die(tmp, "replay");
	t = now();
	if (ucd_run(d, (uint64_t)(seconds * 1e9), 0, NULL, NULL))
		die(p->name, ucd_error(d));
	t = now() - t;
	snprintf(name, sizeof(name), "%s %s", f->kind ? "trace" : "workload",
		 f->kind ? f->kind : f->wd->name);
	printf("%-6s %-16s %4u/%-4u %3u %3u %3u %3u %9.3f %11.1f %8llu", p->name, name, pr.placed,
	       pr.total, pr.thresh, pr.edge, pr.inv, pr.filt, t, seconds / t,
	       (unsigned long long)ucm_phase_epochs(m));
	if (f->kind)
		printf(" %9llu %7u %9.4f %8.2f", (unsigned long long)nseg, nvec, dec, t / dec);
	printf("%s\n", seconds / t >= 100 ? "" : "   (< 100x)");
	ucd_stop(d);
	ucd_restore(d);
	ucd_close(d);
	ucb_destroy(be);
	uct_replay_detach(rp);
	uct_close(r);
	uct_detach(w);
	ucm_destroy(m);
	unlink(tmp);
}

/* Run every feed of G1 (each platform's workloads, then every trace kind)
 * that --platform and --feed leave, for `secs` simulated seconds each. */
static void each_feed(void (*run)(const struct ucm_platform *, const struct feed *, double), double secs)
{
	size_t np;
	const struct ucm_platform *const *ps = ucm_platforms(&np);
	const char *const *kinds = uct_gen_kinds();

	for (size_t i = 0; i < np; i++) {
		if (only_plat && strcmp(only_plat, ps[i]->name))
			continue;
		for (unsigned k = 0; uct_workload_at(k); k++) {
			struct feed f = { uct_workload_at(k), NULL };

			if (!strcmp(f.wd->platform, ps[i]->name) && (!only_feed || !strcmp(only_feed, f.wd->name)))
				run(ps[i], &f, secs);
		}
		for (unsigned k = 0; kinds[k]; k++) {
			struct feed f = { NULL, kinds[k] };

			if (!only_feed || !strcmp(only_feed, f.kind))
				run(ps[i], &f, secs);
		}
	}
}

static void g1(void)
{
	double secs = g1_secs > 0 ? g1_secs : quick ? 0.002 : 1.0;

	printf("\n## G1: every counter programmed, driver sampling at its default rate; %.3f simulated s each\n",
	       secs);
	printf("%-6s %-16s %9s %3s %3s %3s %3s %9s %11s %8s %9s %7s %9s %8s\n", "plat", "feed",
	       "counters", "thr", "edg", "inv", "flt", "cpu s", "sim s/cpu s", "epochs", "segments",
	       "vectors", "decode s", "/decode");
	each_feed(g1_run, secs);
}

/* ---- G2: an input change per affected counter ---- */

static void g2_platform(const struct ucm_platform *p)
{
	struct ucm_config cfg;
	struct ucm_model *m = NULL;
	struct ucb *be = NULL;
	struct ucd *d = NULL;
	struct ucd_opts o = { NULL, 0, 0, 0, 0, 0 };
	struct prog pr;
	unsigned reps = quick ? 20 : 2000;
	uint64_t changes[2] = { 0, 0 }, fan = 0;
	double tm[2] = { 0, 0 };

	ucm_config_init(&cfg, p);
	if (ucm_create(&cfg, &m) || ucb_sim_create(m, &be) || ucd_open(be, &o, &d))
		die(p->name, "model");
	program_all(d, m, &pr);
	if (ucd_start(d))
		die(p->name, ucd_error(d));
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
			t = now();
			for (unsigned i = 0; i < reps; i++) {
				ucm_set_input(m, (int)b, s, 1);
				ucm_run_cycles(m, bt->clock, 1);
				ucm_set_input(m, (int)b, s, 0);
				ucm_run_cycles(m, bt->clock, 1);
			}
			tm[k] += now() - t;
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

static void g2(void)
{
	size_t np;
	const struct ucm_platform *const *ps = ucm_platforms(&np);

	printf("\n## G2: an input change (and one cycle of time), every counter programmed\n");
	printf("%-6s %9s %12s %10s %12s %8s %10s %14s\n", "plat", "counters", "fanout-0 chg",
	       "ns/change", "fanout>0 chg", "mean fo", "ns/change", "ns/affected ctr");
	for (size_t i = 0; i < np; i++)
		if (!only_plat || !strcmp(only_plat, ps[i]->name))
			g2_platform(ps[i]);
}

/* ---- skl with every counter programmed by MSR writes (G3, G4, G6) ---- */

/* The writes that program every skl counter: four CBos' two counters, the
 * two ARB counters, the fixed UCLK counter (the IMC counters run free);
 * thresholds, inversion and edge detection mixed; overflow enabled. */
static const struct { uint32_t addr; uint64_t v; } skl_prog[] = {
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

static struct ucm_model *skl_model(void)
{
	struct ucm_config cfg;
	struct ucm_model *m;

	ucm_config_init(&cfg, ucm_platform_find("skl"));
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_PCI] = cfg.access_ps[UCM_MMIO] = 0;
	if (ucm_create(&cfg, &m))
		die("skl", "model");
	for (size_t i = 0; i < sizeof(skl_prog) / sizeof(skl_prog[0]); i++)
		ucm_msr_write(m, 0, skl_prog[i].addr, skl_prog[i].v);
	return m;
}

/* Segment i of the dense trace: a CBo lookup sub-event on every CBo and
 * the ARB occupancy, both changing at every segment. */
static void dense_seg(struct uct_seg *s, uint64_t i, uint64_t len, int cbo, int arb)
{
	s->start = i * len;
	s->ncycles = len;
	s->nin = 2;
	s->in[0] = (struct uct_in){ .bt = (uint8_t)cbo, .inst = -1, .sub = (uint16_t)(i % 12), .inc = 1 };
	s->in[1] = (struct uct_in){ .bt = (uint8_t)arb, .inst = 0, .sub = 0, .inc = (uint32_t)(i % 33) };
}

static void write_trace(uint64_t nseg, uint64_t len)
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
	if (!s || uct_writer_open(tmp, UCT_BINARY, &h, &w, err, sizeof(err)))
		die(tmp, s ? err : "out of memory");
	for (uint64_t i = 0; i < nseg; i++) {
		dense_seg(s, i, len, cbo, arb);
		if (uct_write(w, s))
			die(tmp, uct_writer_error(w));
	}
	if (uct_writer_commit(w))
		die(tmp, uct_writer_error(w));
	free(s);
}

static double replay(uint64_t cycles)
{
	struct ucm_model *m = skl_model();
	struct uct_reader *r = NULL;
	struct uct_replay *rp = NULL;
	char err[768] = "cannot attach the replay";
	double t;

	if (uct_open(tmp, &r, err, sizeof(err)) || uct_replay_attach(m, r, &rp))
		die(tmp, err);
	t = now();
	if (ucm_run_cycles(m, 0, cycles))
		die(tmp, ucm_error(m));
	t = now() - t;
	uct_replay_detach(rp);
	uct_close(r);
	ucm_destroy(m);
	return t;
}

static void g3(void)
{
	uint64_t nseg = quick ? 20000 : 2000000, n;
	unsigned nvec;
	double dec, decall, rep;

	printf("\n## G3: dense trace (inputs change every cycle), skl, every counter programmed\n");
	write_trace(nseg, 1);
	decall = decode_time(tmp, 0, &n, NULL);
	dec = decode_time(tmp, 1, &n, &nvec);
	rep = replay(nseg);
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
		uint64_t ns = quick ? 2000 : 20000;
		double t;

		/* the readers bound a trace's machine time (10^6 s): at most
		 * 2*10^14 cycles, 2^40-cycle segments at 3 GHz being 366 s each */
		if (ns * len > 200000000000000ull)
			ns = 200000000000000ull / len;
		write_trace(ns, len);
		t = replay(ns * len);
		printf("%-26llu %12.4f %12.1f %14.3g\n", (unsigned long long)len, t,
		       t / (double)ns * 1e9, (double)ns * (double)len / t);
	}
	unlink(tmp);
}

/* ---- G4: against the reference model ---- */

/* The dense segments' inputs as phases of model m: 132 vectors (the lcm of
 * 12 and 33), each defined once; pid[k] is vector k's. */
static void dense_phases(struct ucm_model *m, int cbo, int arb, int pid[132])
{
	int mbox[8], abox = ucm_box_find(m, 0, "arb", 0);
	unsigned ncbo = 0;
	struct uct_seg s;

	for (unsigned i = 0; i < 8; i++)
		if ((mbox[ncbo] = ucm_box_find(m, 0, "cbo", i)) >= 0)
			ncbo++;
	for (unsigned k = 0; k < 132; k++) {
		struct ucm_phase_in in[9];
		unsigned n = 0;

		dense_seg(&s, k, 1, cbo, arb);
		for (unsigned c = 0; c < ncbo; c++)
			in[n++] = (struct ucm_phase_in){ mbox[c], s.in[0].sub, 1 };
		in[n++] = (struct ucm_phase_in){ abox, 0, s.in[1].inc };
		if ((pid[k] = ucm_phase_define(m, in, n)) < 0)
			die("phases", ucm_error(m));
	}
}

/* A workload source giving the model precomputed steps, as the replay
 * gives a trace's segments: step i enters phase s[i].id and runs to the
 * end of cycle s[i].end of clock 0, many steps a call (ucm_phase_steps)
 * while the model sums phases. */
struct stepsrc {
	const struct ucm_step *s;
	size_t n, i;
	uint64_t hz;
};

static int steps_wl(struct ucm_model *m, void *ctx, uint64_t now_ps, uint64_t *next)
{
	struct stepsrc *x = ctx;

	(void)now_ps;
	for (;;) {
		if (x->i == x->n) {
			ucm_clear_inputs(m);
			*next = UINT64_MAX;
			return 0;
		}
		if (ucm_phase_enter(m, x->s[x->i].id))
			return ucm_set_error(m, -EINVAL, "steps: no such phase");
		/* cycle c completes at ceil(c * 10^12 / hz) ps */
		*next = (uint64_t)(((unsigned __int128)x->s[x->i].end * 1000000000000ull + x->hz - 1) / x->hz);
		x->i++;
		if (!ucm_phase_run(m, *next))
			return 0;
		x->i += ucm_phase_steps(m, 0, x->s + x->i, x->n - x->i);
	}
}

/* Every MSR of model m equal to the reference's. */
static int same_as_ref(struct ucm_model *m, struct ref_model *ref)
{
	int same = 1;

	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		uint64_t a;
		int k;

		if (ucm_reginfo(m, i, &ri) || ri.space != UCM_MSR)
			continue;
		k = ref_find(ref, ri.space, ri.socket, ri.addr);
		if (k < 0 || ucm_msr_peek(m, 0, (uint32_t)ri.addr, &a))
			continue;
		same &= a == ref_peek(ref, (unsigned)k);
	}
	return same;
}

/* The floor under any exact model given a change every cycle: each step
 * loaded and its cycles added to its phase's sum, nothing else (no check,
 * no edge, no time).  Returns the time a step, the best of three passes. */
static double steps_floor(const struct ucm_step *st, uint64_t n)
{
	static uint64_t sum[132];
	double best = 1e9;

	for (int pass = 0; pass < 3; pass++) {
		uint64_t cyc = 0;
		double t = now();

		for (uint64_t i = 0; i < n; i++) {
			sum[(unsigned)st[i].id % 132] += st[i].end - cyc;
			cyc = st[i].end;
		}
		t = now() - t;
		/* the sums are read, so the loop is not optimised away */
		if (sum[0] == UINT64_MAX)
			printf("\n");
		if (t < best)
			best = t;
	}
	return best / (double)n;
}

static void g4(void)
{
	static struct ref_model ref; /* large: not on the stack */
	double floor_s = 0, floor_ref = 0; /* a step's cost, the floor's and the reference's */
	const struct ucm_platform *p = ucm_platform_find("skl");
	int cbo = ucm_boxtype_index(p, ucm_boxtype_find(p, "cbo"));
	int arb = ucm_boxtype_index(p, ucm_boxtype_find(p, "arb"));
	static const uint64_t lens[] = { 1, 64, 1000, 100000 };

	printf("\n## G4: model vs the naive reference model, skl, every counter programmed, the same inputs\n");
	printf("%-11s %9s %11s %11s %10s %11s %10s %11s %10s %s\n", "segment len", "cycles",
	       "reference s", "model s", "ratio", "phases s", "ratio", "steps s", "ratio",
	       "every counter equal");
	for (unsigned li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		uint64_t len = lens[li];
		uint64_t cycles = (quick ? 20000 : 400000) * (len >= 1000 ? 5 : 1);
		uint64_t nseg = cycles / len ? cycles / len : 1;
		struct ucm_model *m = skl_model(), *mp = skl_model(), *ms = skl_model();
		struct ucm_step *st = malloc(nseg * sizeof(*st));
		struct stepsrc src = { st, nseg, 0, ucm_clock_hz(ms, 0) };
		struct uct_seg s;
		double tr, tm, tp, ts;
		int rbox[UCM_MAXBT][8], mbox[UCM_MAXBT][8], same, pid[132], sid[132];
		unsigned ncbo = 0;
		char r[3][16];

		if (!st)
			die("steps", "out of memory");
		if (ref_init(&ref, p, NULL, 1, NULL, NULL, NULL))
			die("reference", "platform beyond its limits");
		for (size_t i = 0; i < sizeof(skl_prog) / sizeof(skl_prog[0]); i++)
			ref_msr_write(&ref, 0, skl_prog[i].addr, skl_prog[i].v);
		for (unsigned i = 0; i < 8; i++) {
			rbox[cbo][i] = ref_box_find(&ref, 0, "cbo", i);
			mbox[cbo][i] = ucm_box_find(m, 0, "cbo", i);
			ncbo += mbox[cbo][i] >= 0;
		}
		rbox[arb][0] = ref_box_find(&ref, 0, "arb", 0);
		mbox[arb][0] = ucm_box_find(m, 0, "arb", 0);
		/* the same segments as the dense trace, set directly: the
		 * reference walks every cycle, the model steps per segment */
		tr = now();
		for (uint64_t i = 0; i < nseg; i++) {
			dense_seg(&s, i, len, cbo, arb);
			for (unsigned c = 0; c < ncbo; c++) {
				ref_set_input(&ref, rbox[cbo][c], (unsigned)((i + 11) % 12), 0);
				ref_set_input(&ref, rbox[cbo][c], s.in[0].sub, 1);
			}
			ref_set_input(&ref, rbox[arb][0], 0, s.in[1].inc);
			ref_run_cycles(&ref, 0, len);
		}
		tr = now() - tr;
		tm = now();
		for (uint64_t i = 0; i < nseg; i++) {
			dense_seg(&s, i, len, cbo, arb);
			for (unsigned c = 0; c < ncbo; c++) {
				ucm_set_input(m, mbox[cbo][c], (unsigned)((i + 11) % 12), 0);
				ucm_set_input(m, mbox[cbo][c], s.in[0].sub, 1);
			}
			ucm_set_input(m, mbox[arb][0], 0, s.in[1].inc);
			ucm_run_cycles(m, 0, len);
		}
		tm = now() - tm;
		/* given as phases, each segment entered and run by a call */
		dense_phases(mp, cbo, arb, pid);
		tp = now();
		for (uint64_t i = 0; i < nseg; i++) {
			ucm_phase_enter(mp, pid[i % 132]);
			ucm_run_cycles(mp, 0, len);
		}
		tp = now() - tp;
		/* given as steps (phase, end cycle) by a workload source, as the
		 * replay gives a trace's segments; the array is the trace */
		dense_phases(ms, cbo, arb, sid);
		for (uint64_t i = 0; i < nseg; i++)
			st[i] = (struct ucm_step){ sid[i % 132], (i + 1) * len };
		ucm_set_workload(ms, steps_wl, &src);
		ts = now();
		if (ucm_run_cycles(ms, 0, nseg * len))
			die("steps", ucm_error(ms));
		ts = now() - ts;
		if (len == 1) {
			floor_s = steps_floor(st, nseg);
			floor_ref = tr / (double)nseg;
		}
		/* the same work: every register of the platform reads the same */
		same = same_as_ref(m, &ref) && same_as_ref(mp, &ref) && same_as_ref(ms, &ref);
		snprintf(r[0], sizeof(r[0]), "%.0fx%s", tr / tm, tr / tm >= 1000 ? "" : "*");
		snprintf(r[1], sizeof(r[1]), "%.0fx%s", tr / tp, tr / tp >= 1000 ? "" : "*");
		snprintf(r[2], sizeof(r[2]), "%.0fx%s", tr / ts, tr / ts >= 1000 ? "" : "*");
		printf("%-11llu %9llu %11.4f %11.5f %10s %11.5f %10s %11.6f %10s %s\n",
		       (unsigned long long)len, (unsigned long long)(nseg * len), tr, tm, r[0], tp, r[1],
		       ts, r[2], same ? "yes" : "NO: the models differ");
		free(st);
		ucm_destroy(m);
		ucm_destroy(mp);
		ucm_destroy(ms);
		if (!same) {
			fflush(stdout);
			die("G4", "the model and the reference differ: an error, not a figure");
		}
	}
	printf("(* < 1000x)\n");
	printf("the least a change every cycle can cost: a loop that only adds each step's cycles to its\n"
	       "phase's sum (no checks, no edges, no time): %.2f ns a step, %.0fx the reference\n",
	       floor_s * 1e9, floor_ref / floor_s);
}

/* ---- G4 on G1's work: every workload and trace kind of every platform ---- */

/* The reference fed a trace's segments as the replay feeds the model: each
 * segment's inputs (summed where several name one sub-event) and
 * attributes, the table's attributes and no input elsewhere, sleep states
 * changed where the masks change.  The table's attributes are the model's
 * before it ran (attr0; the reference sets its own when first asked for
 * them, and the model's change as it runs ahead of the reference). */
struct refeed {
	struct ref_model *r;
	struct ucm_model *m;           /* the boxes, in the model's order */
	int rbox[REF_MAXBOX];          /* the reference's box of each model box */
	uint32_t set[4096];            /* (model box << 16 | sub) given by the last segment */
	size_t nset;
	uint64_t asleep[UCT_MAXSOCK];
	uint64_t *attr0;               /* box b's sub-event sub: attr0[aoff[b] + sub * UCM_NATTR] */
	size_t aoff[REF_MAXBOX + 1];
};

static void refeed_seg(struct refeed *f, const struct uct_seg *s)
{
	const struct ucm_platform *p = ucm_platform_of(f->m);

	for (size_t k = 0; k < f->nset; k++) {
		int mb = (int)(f->set[k] >> 16), b = f->rbox[mb];
		unsigned sub = f->set[k] & 0xffff;

		ref_set_input(f->r, b, sub, 0);
		for (unsigned a = 0; a < UCM_NATTR; a++)
			ref_set_input_attr(f->r, b, sub, a, f->attr0[f->aoff[mb] + sub * UCM_NATTR + a]);
	}
	f->nset = 0;
	for (unsigned i = 0; s && i < s->nin; i++) {
		const struct uct_in *in = &s->in[i];

		for (unsigned mb = 0; mb < ucm_box_count(f->m); mb++) {
			const struct ucm_boxinst *bi = ucm_box_def(f->m, (int)mb);
			int b = f->rbox[mb];

			if (ucm_boxtype_index(p, bi->type) != in->bt || ucm_box_socket(f->m, (int)mb) != in->socket ||
			    (in->inst >= 0 && bi->inst != (unsigned)in->inst))
				continue;
			if (f->nset == sizeof(f->set) / sizeof(f->set[0]))
				die("reference", "a segment gives more inputs than the feed holds");
			f->set[f->nset++] = mb << 16 | in->sub;
			ref_set_input(f->r, b, in->sub, f->r->boxes[b].input[in->sub] + in->inc);
			for (unsigned a = 0; a < UCM_NATTR; a++)
				if (in->amask >> a & 1)
					ref_set_input_attr(f->r, b, in->sub, a, in->attr[a]);
		}
	}
	for (unsigned so = 0; so < f->r->nsockets && so < UCT_MAXSOCK; so++) {
		uint64_t want = s ? s->asleep[so] : 0;

		for (unsigned c = 0; c < f->r->ncores && c < 64; c++)
			if ((want ^ f->asleep[so]) >> c & 1)
				f->r->sock[so].asleep[c] = (uint8_t)(want >> c & 1);
		f->asleep[so] = want;
	}
}

/* The model against the reference: every register, then each core's PMIs
 * (delivered, woken, dropped) and sleep state, each socket's PMI requests,
 * every clock's cycles and the time.  0, or 1 and what differs in why. */
static int differs(struct ucm_model *m, const struct ref_model *r, char *why, size_t n)
{
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		uint64_t v = 0;
		int k;

		if (ucm_reginfo(m, i, &ri) || ucm_peek_index(m, i, &v))
			continue;
		k = ref_find(r, ri.space, ri.socket, ri.addr);
		if (k < 0 || ref_peek(r, (unsigned)k) != v) {
			snprintf(why, n, "%s of socket %u reads 0x%llx in the model, %s%llx in the reference",
				 ri.name, ri.socket, (unsigned long long)v, k < 0 ? "nothing (not found) " : "0x",
				 k < 0 ? 0ull : (unsigned long long)ref_peek(r, (unsigned)k));
			return 1;
		}
	}
	for (unsigned so = 0; so < r->nsockets; so++) {
		for (unsigned c = 0; c < r->ncores; c++) {
			struct ucm_pmi_stats st;

			ucm_pmi_stats(m, so, c, &st);
			if (st.delivered != r->sock[so].delivered[c] || st.wakes != r->sock[so].wakes[c] ||
			    st.dropped != r->sock[so].dropped[c] || ucm_core_asleep(m, so, c) != r->sock[so].asleep[c]) {
				snprintf(why, n, "socket %u core %u: PMIs delivered/woken/dropped %llu/%llu/%llu, "
					 "asleep %d in the model, %llu/%llu/%llu, %d in the reference", so, c,
					 (unsigned long long)st.delivered, (unsigned long long)st.wakes,
					 (unsigned long long)st.dropped, ucm_core_asleep(m, so, c),
					 (unsigned long long)r->sock[so].delivered[c],
					 (unsigned long long)r->sock[so].wakes[c],
					 (unsigned long long)r->sock[so].dropped[c], r->sock[so].asleep[c]);
				return 1;
			}
		}
		if (ucm_pmi_requests(m, so) != r->sock[so].pmi_requests) {
			snprintf(why, n, "socket %u: %llu PMI requests in the model, %llu in the reference", so,
				 (unsigned long long)ucm_pmi_requests(m, so),
				 (unsigned long long)r->sock[so].pmi_requests);
			return 1;
		}
	}
	for (unsigned d = 0; d < ucm_platform_of(m)->nclocks; d++)
		if (ucm_cycles(m, d) != r->cycles[d]) {
			snprintf(why, n, "clock %u: %llu cycles in the model, %llu in the reference", d,
				 (unsigned long long)ucm_cycles(m, d), (unsigned long long)r->cycles[d]);
			return 1;
		}
	if (ucm_now_ps(m) != r->now_ps) {
		snprintf(why, n, "time %llu ps in the model, %llu in the reference",
			 (unsigned long long)ucm_now_ps(m), (unsigned long long)r->now_ps);
		return 1;
	}
	return 0;
}

/* --near-wrap: every writable counter set 0 to 976 events short of its
 * wrap (by its place, so that they overflow at different times), through
 * the backend as a driver would write it, so that overflow, status, PMI
 * and freeze happen within even the shortest stretch of G1's work. */
static void near_wrap(struct ucm_model *m, struct ucb *be)
{
	unsigned cpus = ucm_cpus_per_socket(m);

	for (size_t i = 0, k = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		uint64_t v;
		int rc;

		if (ucm_reginfo(m, i, &ri) || ri.kind != UCM_K_CTR || !ri.rw_mask || ri.space == UCM_MMIO)
			continue;
		v = (ri.rw_mask - 61 * (k++ % 17)) & ri.rw_mask;
		if (ri.space == UCM_MSR) {
			rc = ucb_msr_write(be, ri.socket * cpus, (uint32_t)ri.addr, v);
		} else {
			struct ucb_pci d = { 0, (uint8_t)(ri.addr >> 20), (uint8_t)(ri.addr >> 15 & 31),
					     (uint8_t)(ri.addr >> 12 & 7) };

			/* configuration space is dword-wide: low, then high */
			rc = ucb_pci_write(be, &d, (unsigned)ri.addr & 0xFFF, 4, v & 0xFFFFFFFF);
			if (!rc && ri.width > 32)
				rc = ucb_pci_write(be, &d, ((unsigned)ri.addr & 0xFFF) + 4, 4, v >> 32);
		}
		if (rc)
			die("--near-wrap", ucb_error(be));
	}
}

/* A workload's phase k as a segment of the reference's feed: its inputs on
 * every socket. */
static void wl_seg(const struct ucm_model *m, const struct uct_workload_def *wd, unsigned k,
		   struct uct_seg *s)
{
	const struct ucm_platform *p = ucm_platform_of(m);
	const struct uct_phase *ph = &wd->phases[k];

	memset(s, 0, sizeof(*s));
	for (unsigned so = 0; so < ucm_nsockets(m); so++)
		for (unsigned i = 0; i < ph->nin && s->nin < UCT_MAXIN; i++) {
			const struct ucm_boxtype *bt = ucm_boxtype_find(p, ph->in[i].box);

			s->in[s->nin++] = (struct uct_in){ .socket = (uint8_t)so,
							   .bt = (uint8_t)ucm_boxtype_index(p, bt),
							   .inst = (int16_t)ph->in[i].inst,
							   .sub = (uint16_t)ucm_subev_find(bt, ph->in[i].sub),
							   .inc = ph->in[i].inc };
		}
}

/* The reference's side of the work, run up to any time: the feed's
 * inputs changed at the same times as the model's source changes them (a
 * trace's segment boundaries from the cycle of clock 0 at which its replay
 * was attached; a workload's phases from time 0 with uct_attach's jitter:
 * each phase's nominal length +-25% from the seeded generator,
 * trace/uct_workload.c).  As in the model, a change due at the time run to
 * is made when time goes past it. */
struct refrun {
	struct refeed f;
	struct uct_seg *s;
	/* a trace: its reader, once attached (base: the cycle it started) */
	struct uct_reader *rd;
	int attached, ended, pending; /* pending: s read, not yet given */
	uint64_t base, at;            /* at: cycle the inputs given last until */
	/* a workload */
	const struct uct_workload_def *wd;
	uint64_t rng, next_ps;
	unsigned k;
};

static void refrun_to(struct refrun *x, uint64_t t)
{
	struct ref_model *r = x->f.r;

	if (x->wd)
		while (x->next_ps < t) {
			uint64_t ns = x->wd->phases[x->k].ns;

			ref_advance(r, x->next_ps);
			wl_seg(x->f.m, x->wd, x->k, x->s);
			refeed_seg(&x->f, x->s);
			x->next_ps += (ns - ns / 4 + uct_rand(&x->rng) % (ns / 2 + 1)) * 1000;
			x->k = (x->k + 1) % x->wd->nphases;
		}
	while (x->attached && !x->ended && ref_edge_time(r, 0, x->base + x->at) < t) {
		int rc;

		ref_advance(r, ref_edge_time(r, 0, x->base + x->at));
		if (!x->pending && (rc = uct_next(x->rd, x->s)) <= 0) {
			if (rc < 0)
				die("trace", uct_reader_error(x->rd));
			refeed_seg(&x->f, NULL); /* the end: idle, the cores awake */
			x->ended = 1;
		} else if (x->s->start > x->at) {
			refeed_seg(&x->f, NULL); /* a gap is idle */
			x->at = x->s->start;
			x->pending = 1;
		} else {
			refeed_seg(&x->f, x->s);
			x->at = x->s->start + x->s->ncycles;
			x->pending = 0;
		}
	}
	ref_advance(r, t);
}

/* The backend the driver is given: the simulated one, each operation done
 * again on the reference at the model's time after it (an access costs
 * its time first, then acts), a read answering the same or the run
 * stops.  Waits run the reference to where the model stopped (a PMI's
 * time). */
struct shadow {
	struct ucb *sim;
	struct ucm_model *m;
	struct refrun *x;
	char bad[768];                /* the first difference */
};

/* The model's answer (a, va) against the reference's (rb, vb): both
 * failing, or both the same value, passes the model's on; otherwise the
 * access fails with the first difference, kept for the run's error. */
static int shadow_check(struct ucb *b, const char *what, int a, int rb, uint64_t va, uint64_t vb)
{
	struct shadow *sh = b->priv;

	if ((a == 0) == (rb == 0) && (a || va == vb))
		return a ? ucb_seterr(b, a, "%s", ucb_error(sh->sim)) : 0;
	if (!sh->bad[0])
		snprintf(sh->bad, sizeof(sh->bad),
			 "%s at %llu ps: the model answers rc %d, 0x%llx; the reference rc %d, 0x%llx", what,
			 (unsigned long long)ucm_now_ps(sh->m), a, (unsigned long long)va, rb,
			 (unsigned long long)vb);
	return ucb_seterr(b, -EIO, "%s", sh->bad);
}

/* The simulated backend. */
static struct ucb *SIM(struct ucb *b)
{
	return ((struct shadow *)b->priv)->sim;
}

/* The reference, run to the model's time. */
static struct ref_model *SH(struct ucb *b)
{
	struct shadow *sh = b->priv;

	refrun_to(sh->x, ucm_now_ps(sh->m));
	return sh->x->f.r;
}

static int sh_msr_read(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t *val)
{
	uint64_t v = 0;
	int a = ucb_msr_read(SIM(b), cpu, addr, val), rb = ref_msr_read(SH(b), cpu, addr, &v);
	char what[64];

	snprintf(what, sizeof(what), "rdmsr 0x%x on cpu %u", addr, cpu);
	return shadow_check(b, what, a, rb, *val, v);
}

static int sh_msr_write(struct ucb *b, unsigned cpu, uint32_t addr, uint64_t val)
{
	int a = ucb_msr_write(SIM(b), cpu, addr, val), rb = ref_msr_write(SH(b), cpu, addr, val);
	char what[64];

	snprintf(what, sizeof(what), "wrmsr 0x%x on cpu %u", addr, cpu);
	return shadow_check(b, what, a, rb, 0, 0);
}

static int sh_pci_read(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width,
		       uint64_t *val)
{
	uint64_t v = 0;
	int a = ucb_pci_read(SIM(b), d, off, width, val),
	    rb = ref_pci_read(SH(b), d->bus, d->dev, d->fn, off, width, &v);
	char what[64];

	snprintf(what, sizeof(what), "PCI read %02x:%02x.%x+0x%x/%u", d->bus, d->dev, d->fn, off, width);
	return shadow_check(b, what, a, rb, *val, v);
}

static int sh_pci_write(struct ucb *b, const struct ucb_pci *d, unsigned off, unsigned width,
			uint64_t val)
{
	int a = ucb_pci_write(SIM(b), d, off, width, val),
	    rb = ref_pci_write(SH(b), d->bus, d->dev, d->fn, off, width, val);
	char what[64];

	snprintf(what, sizeof(what), "PCI write %02x:%02x.%x+0x%x/%u", d->bus, d->dev, d->fn, off, width);
	return shadow_check(b, what, a, rb, 0, 0);
}

static int sh_mmio_read(struct ucb *b, uint64_t pa, unsigned width, uint64_t *val)
{
	uint64_t v = 0;
	int a = ucb_mmio_read(SIM(b), pa, width, val), rb = ref_mmio_read(SH(b), pa, width, &v);
	char what[64];

	snprintf(what, sizeof(what), "MMIO read 0x%llx/%u", (unsigned long long)pa, width);
	return shadow_check(b, what, a, rb, *val, v);
}

static int sh_mmio_write(struct ucb *b, uint64_t pa, unsigned width, uint64_t val)
{
	int a = ucb_mmio_write(SIM(b), pa, width, val), rb = ref_mmio_write(SH(b), pa, width, val);
	char what[64];

	snprintf(what, sizeof(what), "MMIO write 0x%llx/%u", (unsigned long long)pa, width);
	return shadow_check(b, what, a, rb, 0, 0);
}

/* The simulated backend's answer, its message carried over. */
static int sh_pass(struct ucb *b, int rc)
{
	return rc ? ucb_seterr(b, rc, "%s", ucb_error(SIM(b))) : 0;
}

static int sh_cpuid(struct ucb *b, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	return sh_pass(b, ucb_cpuid(SIM(b), cpu, leaf, sub, r));
}

static int sh_socket_cpu(struct ucb *b, unsigned socket, unsigned *cpu)
{
	return sh_pass(b, ucb_socket_cpu(SIM(b), socket, cpu));
}

static int sh_now_ns(struct ucb *b, uint64_t *ns)
{
	return sh_pass(b, ucb_now_ns(SIM(b), ns));
}

static int sh_sleep_ns(struct ucb *b, uint64_t ns)
{
	int rc = ucb_sleep_ns(SIM(b), ns);

	SH(b);
	return sh_pass(b, rc);
}

static int sh_wait_pmi(struct ucb *b, uint64_t ns, int *pmi)
{
	int rc = ucb_wait_pmi(SIM(b), ns, pmi);

	SH(b);
	return sh_pass(b, rc);
}

static void sh_destroy(struct ucb *b)
{
	(void)b; /* the shadow and the simulated backend are g4_session's */
}

static const struct ucb_ops shadow_ops = {
	.name = "sim+reference",
	.msr_read = sh_msr_read,
	.msr_write = sh_msr_write,
	.pci_read = sh_pci_read,
	.pci_write = sh_pci_write,
	.mmio_read = sh_mmio_read,
	.mmio_write = sh_mmio_write,
	.cpuid = sh_cpuid,
	.socket_cpu = sh_socket_cpu,
	.now_ns = sh_now_ns,
	.sleep_ns = sh_sleep_ns,
	.wait_pmi = sh_wait_pmi,
	.destroy = sh_destroy,
};

/* Whether the platform's uncore raises PMIs (a global control with PMI_SEL
 * fields): where sampling (--sample-period) applies. */
static int raises_pmi(const struct ucm_platform *p)
{
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_regdef *g = ucm_regdef_find(p->boxes[i].type, UCM_K_GLOBAL_CTL, 0);

		if (g && ucm_layout_field(g->layout, UCM_R_PMI_SEL))
			return 1;
	}
	return 0;
}

/* One session of G4 on G1's work: a feed (a workload, or the trace at tmp)
 * run by the driver for `secs` as in G1 (no access cost, see below); with
 * x, on the shadow backend, the reference run with it access by access and
 * both compared before the run and at its end.  Returns the CPU time of
 * the run (the driver's ucd_run). */
static double g4_session(const struct ucm_platform *p, const struct feed *fd, double secs,
			 struct refrun *x, const char *what, struct prog *pr, uint64_t *wraps,
			 uint64_t *pmis)
{
	static struct ref_model ref;
	struct ucm_config cfg;
	struct ucm_model *m = NULL;
	struct uct_reader *r = NULL, *r2 = NULL;
	struct uct_replay *rp = NULL;
	struct uct_wl *w = NULL;
	struct ucb *sim = NULL, shb, *be = &shb;
	struct shadow sh;
	struct ucd *d = NULL;
	struct ucd_opts o = { NULL, 0, 0, 0, 0, raises_pmi(p) ? g4_period : 0 };
	char err[768];
	double t;

	ucm_config_init(&cfg, p);
	if (fd->kind) {
		if (uct_open(tmp, &r, err, sizeof(err)) || (x && uct_open(tmp, &r2, err, sizeof(err))))
			die(tmp, err);
		uct_config(uct_header(r), &cfg);
	}
	/* accesses cost no time: the reference walks every cycle, and the
	 * driver's thousands of programming accesses would be most of them */
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_PCI] = cfg.access_ps[UCM_MMIO] = 0;
	if (ucm_create(&cfg, &m))
		die(what, m ? ucm_error(m) : "model");
	if (fd->wd && uct_attach(m, fd->wd, seed, &w, err, sizeof(err)))
		die(what, err);
	if (ucb_sim_create(m, &sim))
		die(what, "backend");
	if (x) {
		memset(x, 0, sizeof(*x));
		if (!(x->s = malloc(sizeof(*x->s))))
			die(what, "out of memory");
		if (ref_init(&ref, p, cfg.ninst, cfg.sockets, cfg.clock_hz, cfg.pci_bus, cfg.node_id) ||
		    ucm_box_count(m) > REF_MAXBOX)
			die(what, "beyond the reference's limits");
		x->f.r = &ref;
		x->f.m = m;
		for (unsigned b = 0; b < ucm_box_count(m); b++) {
			if ((x->f.rbox[b] = ref_box_find(&ref, ucm_box_socket(m, (int)b),
							 ucm_box_def(m, (int)b)->type->name,
							 ucm_box_def(m, (int)b)->inst)) < 0)
				die(what, "a box of the model is not in the reference");
			x->f.aoff[b + 1] = x->f.aoff[b] +
					   (size_t)ucm_subev_count(ucm_box_def(m, (int)b)->type) * UCM_NATTR;
		}
		if (!(x->f.attr0 = malloc((x->f.aoff[ucm_box_count(m)] + 1) * sizeof(uint64_t))))
			die(what, "out of memory");
		for (unsigned b = 0; b < ucm_box_count(m); b++)
			for (unsigned sub = 0; sub < ucm_subev_count(ucm_box_def(m, (int)b)->type); sub++)
				for (unsigned a = 0; a < UCM_NATTR; a++)
					x->f.attr0[x->f.aoff[b] + sub * UCM_NATTR + a] =
						ucm_get_input_attr(m, (int)b, sub, a);
		x->wd = fd->wd;
		x->rng = seed; /* uct_attach's seed above */
		sh = (struct shadow){ sim, m, x, "" };
		memset(&shb, 0, sizeof(shb));
		shb.ops = &shadow_ops;
		shb.priv = &sh;
	} else {
		be = sim;
		sh.bad[0] = 0;
	}
	if (ucd_open(be, &o, &d))
		die(what, sh.bad[0] ? sh.bad : d ? ucd_error(d) : "driver");
	program_all(d, m, pr);
	if (sh.bad[0])
		die(what, sh.bad);
	if (ucd_start(d))
		die(what, sh.bad[0] ? sh.bad : ucd_error(d));
	if (wrap_soon)
		near_wrap(m, be);
	if (x && differs(m, &ref, err, sizeof(err))) {
		char why[900];

		snprintf(why, sizeof(why), "programmed, before the run: %s", err);
		die(what, why);
	}
	if (r) {
		if (uct_replay_attach(m, r, &rp))
			die(tmp, "replay");
		if (x) {
			x->rd = r2;
			x->base = ucm_cycles(m, 0);
			x->attached = 1;
		}
	}
	t = now();
	if (ucd_run(d, (uint64_t)(secs * 1e9), 0, NULL, NULL))
		die(what, sh.bad[0] ? sh.bad : ucd_error(d));
	t = now() - t;
	if (x) {
		refrun_to(x, ucm_now_ps(m));
		if (differs(m, &ref, err, sizeof(err)))
			die(what, err);
		*wraps = *pmis = 0;
		for (unsigned b = 0; b < ucm_box_count(m); b++)
			for (unsigned c = 0; c < ucm_box_def(m, (int)b)->type->nctr; c++) {
				struct ucm_truth tt;

				if (!ucm_truth(m, (int)b, c, &tt))
					*wraps += tt.wraps;
			}
		for (unsigned so = 0; so < ucm_nsockets(m); so++)
			*pmis += ucm_pmi_requests(m, so);
		free(x->s);
		free(x->f.attr0);
	}
	ucd_close(d);
	ucb_destroy(sim);
	uct_replay_detach(rp);
	uct_close(r);
	uct_close(r2);
	uct_detach(w);
	ucm_destroy(m);
	return t;
}

/* One feed of G1: timed on the model alone, then checked and timed on the
 * model with the reference beside it (the difference of the two is the
 * reference's time; the driver's is in both, so the ratio it gives the
 * model is if anything low). */
static void g4_work_run(const struct ucm_platform *p, const struct feed *fd, double secs)
{
	static struct refrun x;
	struct prog pr;
	char what[96];
	uint64_t wraps = 0, pmis = 0;
	double tm, tb;

	if (fd->kind && gen_trace(p, fd->kind, secs))
		return;
	snprintf(what, sizeof(what), "%s %s %s", p->name, fd->kind ? "trace" : "workload",
		 fd->kind ? fd->kind : fd->wd->name);
	tm = g4_session(p, fd, secs, NULL, what, &pr, &wraps, &pmis);
	tb = g4_session(p, fd, secs, &x, what, &pr, &wraps, &pmis);
	printf("%-6s %-16s %4u/%-4u %7llu %7llu %12.4f %12.6f %11.0fx%s\n", p->name,
	       what + strlen(p->name) + 1, pr.placed, pr.total, (unsigned long long)wraps,
	       (unsigned long long)pmis, tb - tm, tm, (tb - tm) / tm,
	       (tb - tm) / tm >= 1000 ? "" : "   (< 1000x)");
	unlink(tmp);
}

/* G4 on the work of G1: every workload and trace kind of every platform,
 * every counter programmed by the driver as G1 programs it, a short
 * stretch (the reference walks every cycle). */
static void g4_work(void)
{
	double secs = quick ? 2e-6 : 100e-6;

	printf("\n## G4 on G1's work: %.0f simulated us of each, every counter programmed as in G1%s%s; "
	       "every register, PMI and clock of both equal at the end\n", secs * 1e6,
	       wrap_soon ? ", set near its wrap" : "",
	       g4_period ? ", the driver sampling where the uncore raises PMIs" : "");
	printf("%-6s %-16s %9s %7s %7s %12s %14s %12s\n", "plat", "feed", "counters", "wraps", "PMIs",
	       "reference s", "model+driver s", "ratio");
	each_feed(g4_work_run, secs);
}

/* ---- G6: memory and the access path ---- */

/* One G6 memory measurement, in the process the parent started for it. */
static void g6_trace(unsigned n)
{
	write_trace(n, 1000);
	replay((uint64_t)n * 1000);
}

static void g6_run(double secs)
{
	const struct ucm_platform *p = ucm_platform_find("snbep");
	const struct uct_workload_def *wd = uct_workload_find("snbep", "mixed");
	struct ucm_config cfg;
	struct ucm_model *m = NULL;
	struct uct_wl *w = NULL;
	struct ucb *be = NULL;
	struct ucd *d = NULL;
	struct ucd_opts o = { NULL, 0, 0, 0, 0, 0 };
	struct prog pr;
	char err[256];

	ucm_config_init(&cfg, p);
	if (ucm_create(&cfg, &m) || uct_attach(m, wd, 1, &w, err, sizeof(err)) ||
	    ucb_sim_create(m, &be) || ucd_open(be, &o, &d))
		die("snbep", "model");
	program_all(d, m, &pr);
	if (ucd_start(d) || ucd_run(d, (uint64_t)(secs * 1e9), 0, NULL, NULL))
		die("snbep", ucd_error(d));
	ucd_stop(d);
	ucd_close(d);
	ucb_destroy(be);
	uct_detach(w);
	ucm_destroy(m);
}

/* This process's peak RSS (VmHWM: of its memory since exec, unlike
 * getrusage's, which keeps the peak of the process it was forked from). */
static long hwm_kib(void)
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
		die(opt, "cannot find the benchmark's own program");
	self[n] = 0;
	snprintf(cmd, sizeof(cmd), "'%s' %s %s", self, opt, arg);
	fflush(stdout);
	if (!(f = popen(cmd, "r")))
		die(opt, "cannot start a measurement process");
	if (fscanf(f, "%ld", &kib) != 1)
		kib = -1;
	if (pclose(f) != 0 || kib < 0)
		die(opt, "the measurement process failed");
	return kib;
}

static void g6(void)
{
	char arg[32];

	printf("\n## G6: memory against trace length (skl replay) and run duration (snbep mixed, all counters)\n");
	printf("%-28s %14s\n", "trace length (segments)", "peak RSS KiB");
	for (unsigned n = 1000; n <= (quick ? 10000u : 1000000u); n *= 10) {
		snprintf(arg, sizeof(arg), "%u", n);
		printf("%-28u %14ld\n", n, peak_of("--g6-trace", arg));
	}
	printf("%-28s %14s\n", "run duration (simulated s)", "peak RSS KiB");
	for (double secs = 0.001; secs <= (quick ? 0.002 : 1.0); secs *= 10) {
		snprintf(arg, sizeof(arg), "%.17g", secs);
		printf("%-28g %14ld\n", secs, peak_of("--g6-run", arg));
	}
	{
		struct ucm_model *m = skl_model();
		uint64_t v;
		double t = now();
		unsigned n = quick ? 100000 : 20000000;

		for (unsigned i = 0; i < n; i++)
			ucm_msr_read(m, 0, 0x706 + 0x10 * (i & 3), &v);
		t = now() - t;
		printf("\n%-28s %14.3g%s\n", "MSR reads per second", n / t, n / t >= 1.1e8 ? "" : "   (< 1.1e8)");
		ucm_destroy(m);
	}
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
		"usage: uncore-bench [--quick] [--only G1|G2|G3|G4|G6] [--seconds S (G1)] "
		"[--platform P (G1, G2, G4)] [--feed WORKLOAD|KIND (G1, G4)] [--seed N (G1, G4)] "
		"[--near-wrap (G4)] [--sample-period N (G4)]\n";

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = 1;
		else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			only = argv[++i];
			if (strcmp(only, "G1") && strcmp(only, "G2") && strcmp(only, "G3") &&
			    strcmp(only, "G4") && strcmp(only, "G6"))
				bad_opt("--only", only, "a part of the benchmark (G1, G2, G3, G4, G6; G5 is libFuzzer's)");
		} else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			g1_secs = opt_seconds("--seconds", argv[++i]);
		else if (!strcmp(argv[i], "--platform") && i + 1 < argc) {
			only_plat = argv[++i];
			if (!ucm_platform_find(only_plat)) {
				size_t np;
				const struct ucm_platform *const *ps = ucm_platforms(&np);
				char names[256] = "a platform (";

				for (size_t k = 0; k < np; k++)
					snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
						 k ? ", " : "", ps[k]->name);
				snprintf(names + strlen(names), sizeof(names) - strlen(names), ")");
				bad_opt("--platform", only_plat, names);
			}
		} else if (!strcmp(argv[i], "--feed") && i + 1 < argc) {
			only_feed = argv[++i];
			if (!feed_known(only_feed))
				bad_opt("--feed", only_feed, "a built-in workload or a trace kind");
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			seed = opt_u64("--seed", argv[++i], 0);
		else if (!strcmp(argv[i], "--near-wrap"))
			wrap_soon = 1;
		else if (!strcmp(argv[i], "--sample-period") && i + 1 < argc)
			g4_period = opt_u64("--sample-period", argv[++i], 1);
		else if ((!strcmp(argv[i], "--g6-trace") || !strcmp(argv[i], "--g6-run")) &&
			 i + 1 < argc) {
			/* one G6 measurement (peak_of starts these) */
			snprintf(tmp, sizeof(tmp), "/tmp/uncore-bench-%d.bin", (int)getpid());
			if (!strcmp(argv[i], "--g6-trace"))
				g6_trace((unsigned)strtoul(argv[i + 1], NULL, 10));
			else
				g6_run(atof(argv[i + 1]));
			unlink(tmp);
			printf("%ld\n", hwm_kib());
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
	snprintf(tmp, sizeof(tmp), "/tmp/uncore-bench-%d.bin", (int)getpid());
	printf("# uncore benchmark (issue 17; docs/performance.md)%s\n", quick ? ", --quick" : "");
	if (!only || !strcmp(only, "G1"))
		g1();
	if (!only || !strcmp(only, "G2"))
		g2();
	if (!only || !strcmp(only, "G3"))
		g3();
	if (!only || !strcmp(only, "G4")) {
		g4();
		g4_work();
	}
	if (!only || !strcmp(only, "G6"))
		g6();
	unlink(tmp);
	return 0;
}
