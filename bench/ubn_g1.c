/*
 * ubn_g1.c - G1: every built-in workload and every `trace gen` kind of
 * every platform through the driver, every counter programmed, the driver
 * sampling at its default rate: simulated seconds per CPU second, and for
 * traces the ratio to reading them as the replay does.  The feeds (a
 * workload or a generated trace) and the trace's read serve G3 and G4 on
 * G1's work too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ubn.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"
#include "uct.h"
#include "uct_gen.h"
#include "uct_trace.h"

/* Read and decode a trace once: the baseline a replay is compared with.
 * vec: as the replay reads it (uct_next_vec: a segment that refers to a
 * vector is its time and the vector's number), otherwise every segment's
 * inputs decoded (uct_next).  *nvec: the distinct vectors. */
double ubn_decode_time(const char *path, int vec, uint64_t *nseg, unsigned *nvec)
{
	struct uct_reader *r = NULL;
	struct uct_seg *s = malloc(sizeof(*s));
	char err[768];
	double t;
	int rc, vid, full;

	if (!s || uct_open(path, &r, err, sizeof(err)))
		ubn_die(path, s ? err : "out of memory");
	*nseg = 0;
	t = ubn_now();
	if (vec)
		while ((rc = uct_next_vec(r, s, 0, &vid, &full)) > 0)
			(*nseg)++;
	else
		while ((rc = uct_next(r, s)) > 0)
			(*nseg)++;
	t = ubn_now() - t;
	if (rc < 0)
		ubn_die(path, uct_reader_error(r));
	if (nvec)
		*nvec = uct_vectors(r);
	uct_close(r);
	free(s);
	return t;
}

int ubn_gen_trace(const struct ucm_platform *p, const char *kind, double seconds)
{
	struct uct_gen_opts g = { kind, seconds, 10.0, 0.7, 0.9, 0.25, 0.2, 10000, 0, ubn_seed, 0 };
	struct uct_hdr h;
	struct uct_writer *w;
	char err[768], what[64];
	int rc;

	memset(&h, 0, sizeof(h));
	h.plat = p;
	h.sockets = p->sockets_default ? p->sockets_default : 1;
	h.seed = ubn_seed;
	if (uct_writer_open(ubn_tmp, UCT_BINARY, &h, &w, err, sizeof(err)))
		ubn_die(ubn_tmp, err);
	if ((rc = uct_generate(&h, &g, w, err, sizeof(err)))) {
		uct_writer_abort(w);
		if (rc == -ENOTSUP)
			return -1; /* a kind this platform has no tables for */
		/* anything else (--seconds past what a trace may hold) is
		 * not a figure to leave out quietly */
		snprintf(what, sizeof(what), "%s trace %s", p->name, kind);
		ubn_die(what, err);
	}
	if (uct_writer_commit(w)) {
		snprintf(err, sizeof(err), "%s", uct_writer_error(w));
		uct_writer_abort(w);
		ubn_die(ubn_tmp, err);
	}
	return 0;
}

/* Run one feed on a platform for `seconds` of simulated time, every counter
 * programmed, the driver polling or waiting for PMIs as `stat` does. */
static void g1_run(const struct ucm_platform *p, const struct ubn_feed *f, double seconds)
{
	struct ucm_config cfg;
	struct ucm_model *m = NULL;
	struct uct_wl *w = NULL;
	struct uct_reader *r = NULL;
	struct uct_replay *rp = NULL;
	struct ucb *be = NULL;
	struct ucd *d = NULL;
	struct ucd_opts o = { NULL, 0, 0, 0, 0, 0 };
	struct ubn_prog pr;
	char err[768], name[64];
	double t, dec = 0;
	uint64_t nseg = 0;
	unsigned nvec = 0;

	ucm_config_init(&cfg, p);
	if (f->kind) {
		if (ubn_gen_trace(p, f->kind, seconds))
			return;
		dec = ubn_decode_time(ubn_tmp, 1, &nseg, &nvec);
		if (uct_open(ubn_tmp, &r, err, sizeof(err)))
			ubn_die(ubn_tmp, err);
		uct_config(uct_header(r), &cfg);
	}
	if (ucm_create(&cfg, &m))
		ubn_die(p->name, m ? ucm_error(m) : "model");
	if (f->wd && uct_attach(m, f->wd, ubn_seed, &w, err, sizeof(err)))
		ubn_die(f->wd->name, err);
	if (ucb_sim_create(m, &be) || ucd_open(be, &o, &d))
		ubn_die(p->name, d ? ucd_error(d) : "backend");
	ubn_program_all(d, m, &pr);
	ucm_truth_mark(m);
	if (ucd_start(d))
		ubn_die(p->name, ucd_error(d));
	if (r && uct_replay_attach(m, r, &rp))
		ubn_die(ubn_tmp, "replay");
	t = ubn_now();
	if (ucd_run(d, (uint64_t)(seconds * 1e9), 0, NULL, NULL))
		ubn_die(p->name, ucd_error(d));
	t = ubn_now() - t;
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
	unlink(ubn_tmp);
}

/* Run every feed of G1 (each platform's workloads, then every trace kind)
 * that --platform and --feed leave, for `secs` simulated seconds each. */
void ubn_each_feed(void (*run)(const struct ucm_platform *, const struct ubn_feed *, double), double secs)
{
	size_t np;
	const struct ucm_platform *const *ps = ucm_platforms(&np);
	const char *const *kinds = uct_gen_kinds();

	for (size_t i = 0; i < np; i++) {
		if (ubn_only_plat && strcmp(ubn_only_plat, ps[i]->name))
			continue;
		for (unsigned k = 0; uct_workload_at(k); k++) {
			struct ubn_feed f = { uct_workload_at(k), NULL };

			if (!strcmp(f.wd->platform, ps[i]->name) && (!ubn_only_feed || !strcmp(ubn_only_feed, f.wd->name)))
				run(ps[i], &f, secs);
		}
		for (unsigned k = 0; kinds[k]; k++) {
			struct ubn_feed f = { NULL, kinds[k] };

			if (!ubn_only_feed || !strcmp(ubn_only_feed, f.kind))
				run(ps[i], &f, secs);
		}
	}
}

void ubn_g1(void)
{
	double secs = ubn_g1_secs > 0 ? ubn_g1_secs : ubn_quick ? 0.002 : 1.0;

	printf("\n## G1: every counter programmed, driver sampling at its default rate; %.3f simulated s each\n",
	       secs);
	printf("%-6s %-16s %9s %3s %3s %3s %3s %9s %11s %8s %9s %7s %9s %8s\n", "plat", "feed",
	       "counters", "thr", "edg", "inv", "flt", "cpu s", "sim s/cpu s", "epochs", "segments",
	       "vectors", "decode s", "/decode");
	ubn_each_feed(g1_run, secs);
}
