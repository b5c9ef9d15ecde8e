/*
 * cli_stat.c - `uncore stat`: count events and print them as perf stat does
 * (plain, -x SEP, --json), with interval output, bandwidth and frequency
 * metrics, and the ground-truth check on the simulator.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_cmd.h"
#include "cli_machine.h"
#include "cli_opts.h"
#include "cli_progress.h"
#include "cli_util.h"
#include "ucb.h"
#include "ucd.h"
#include "ucm.h"
#include "uct_trace.h"

struct statctx {
	const struct opts *o;
	FILE *f;
	struct ucd *d;
	struct uct_replay *replay;
	struct ucd_metrics *ms;      /* -M, or NULL */
	int final;
	uint64_t last_ns;
	/* the progress line (cli_progress.c): the model, where its run began
	 * and how long it lasts (0: until the trace ends) */
	struct ucm_model *m;
	uint64_t t0_ps, dur_ns;
};

/* One JSON object a line, as perf stat -j prints them; j is consumed. */
static void put_json(struct statctx *c, json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT);

	json_decref(j);
	if (s)
		fprintf(c->f, "%s\n", s);
	free(s);
}

/* A clock summed over n counters (a CBo's in each socket) is shown as the
 * frequency of one: the mean per counter. */
static void metric(const struct ucd_evinfo *ei, uint64_t count, uint64_t ns, unsigned n, double *v,
		   const char **unit)
{
	*unit = NULL;
	*v = 0;
	if (!ns)
		return;
	if (ei->is_clock) {
		*v = (double)count / (double)ns / (n ? n : 1);
		*unit = "GHz";
	} else if (ei->bytes) {
		*v = (double)count * ei->bytes / (double)ns;
		*unit = "GB/s";
	}
}

/* 1234567 -> "1,234,567" whatever the locale, as perf prints counts. */
static void fmt_count(char *buf, size_t n, uint64_t v)
{
	char digits[24];
	int len = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
	size_t k = 0;

	for (int i = 0; i < len && k + 2 < n; i++) {
		if (i && (len - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = digits[i];
	}
	buf[k] = 0;
}

/* With --per-socket, perf prints the aggregate (S0) and how many units it
 * sums; here the units are the counters of the event on that socket (or,
 * without sock, on every socket). */
static void print_line(struct statctx *c, double t_s, int interval, const char *sock, unsigned units,
		       const struct ucd_evinfo *ei, uint64_t count, uint64_t ns)
{
	const struct opts *o = c->o;
	double mv;
	const char *mu;

	metric(ei, count, ns, units, &mv, &mu);
	if (o->json) {
		json_t *j = json_object();
		char num[32];

		if (interval)
			json_object_set_new(j, "interval", json_real(t_s));
		if (sock) {
			json_object_set_new(j, "socket", json_string(sock));
			json_object_set_new(j, "aggregate-number", json_integer(units));
		}
		/* perf prints both values as strings of "%f" */
		snprintf(num, sizeof(num), "%llu.000000", (unsigned long long)count);
		json_object_set_new(j, "counter-value", json_string(num));
		json_object_set_new(j, "unit", json_string(""));
		json_object_set_new(j, "event", json_string(ei->name));
		json_object_set_new(j, "event-runtime", json_integer((json_int_t)ns));
		json_object_set_new(j, "pcnt-running", json_real(100.0));
		if (mu) {
			snprintf(num, sizeof(num), "%f", mv);
			json_object_set_new(j, "metric-value", json_string(num));
			json_object_set_new(j, "metric-unit", json_string(mu));
		}
		put_json(c, j);
	} else if (o->sep) {
		const char *x = o->sep;

		if (interval)
			fprintf(c->f, "%.9f%s", t_s, x);
		if (sock)
			fprintf(c->f, "%s%s%u%s", sock, x, units, x);
		fprintf(c->f, "%llu%s%s%s%s%llu%s100.00", (unsigned long long)count, x, x, ei->name, x,
			(unsigned long long)ns, x);
		/* perf prints the metric columns always, empty when there is none */
		if (mu)
			fprintf(c->f, "%s%.3f%s%s", x, mv, x, mu);
		else
			fprintf(c->f, "%s%s", x, x);
		fputc('\n', c->f);
	} else {
		char num[40];

		fmt_count(num, sizeof(num), count);
		if (interval)
			fprintf(c->f, "%15.9f ", t_s);
		if (sock)
			fprintf(c->f, "%-6s %4u ", sock, units);
		fprintf(c->f, "%20s      %-45s", num, ei->name);
		if (mu)
			fprintf(c->f, " # %8.3f %s", mv, mu);
		fputc('\n', c->f);
	}
}

/* A derived metric after the counts, in the same three forms.  NaN (a
 * division by zero) prints as "nan", and as null in JSON. */
static void print_metric(struct statctx *c, double t_s, int interval, const char *sock, size_t i,
			 double v, uint64_t ns)
{
	const struct opts *o = c->o;
	const char *name = ucd_metrics_name(c->ms, i), *unit = ucd_metrics_unit(c->ms, i);
	char val[40];

	if (isfinite(v))
		snprintf(val, sizeof(val), "%.6g", v);
	else
		snprintf(val, sizeof(val), "nan");
	if (o->json) {
		json_t *j = json_object();

		if (interval)
			json_object_set_new(j, "interval", json_real(t_s));
		if (sock)
			json_object_set_new(j, "socket", json_string(sock));
		json_object_set_new(j, "metric", json_string(name));
		/* a string of "%f", as perf prints it: "nan" for NaN */
		if (isfinite(v))
			snprintf(val, sizeof(val), "%f", v);
		json_object_set_new(j, "metric-value", json_string(val));
		json_object_set_new(j, "metric-unit", json_string(unit));
		json_object_set_new(j, "event-runtime", json_integer((json_int_t)ns));
		put_json(c, j);
	} else if (o->sep) {
		const char *x = o->sep;

		/* perf's columns, the count and its unit empty, the metric's name
		 * in the event column */
		if (interval)
			fprintf(c->f, "%.9f%s", t_s, x);
		if (sock)
			fprintf(c->f, "%s%s%s", sock, x, x);
		fprintf(c->f, "%s%s%s%s%llu%s100.00%s%s%s%s\n", x, x, name, x, (unsigned long long)ns,
			x, x, val, x, unit);
	} else {
		if (interval)
			fprintf(c->f, "%15.9f ", t_s);
		if (sock)
			fprintf(c->f, "%-6s %4s ", sock, "");
		if (*unit)
			fprintf(c->f, "%20s      %-45s # %s\n", val, name, unit);
		else
			fprintf(c->f, "%20s      %s\n", val, name);
	}
}

static void print_metrics(struct statctx *c, int interval, uint64_t t_ns, uint64_t span_ns)
{
	struct ucd *d = c->d;

	for (size_t i = 0; c->ms && i < ucd_metrics_count(c->ms); i++) {
		if (c->o->per_socket && !interval) {
			for (unsigned s = 0; s < ucd_sockets(d); s++) {
				char sock[16];

				snprintf(sock, sizeof(sock), "S%u", s);
				print_metric(c, (double)t_ns / 1e9, 0, sock, i,
					     ucd_metrics_value(c->ms, i, d, UCD_MS_SOCKET, s, span_ns), span_ns);
			}
		} else {
			print_metric(c, (double)t_ns / 1e9, interval, NULL, i,
				     ucd_metrics_value(c->ms, i, d, interval ? UCD_MS_INTERVAL : UCD_MS_TOTAL,
						       0, span_ns),
				     span_ns);
		}
	}
}

/* The counters of event ev on a socket (-1: on all). */
static unsigned socket_units(struct ucd *d, size_t ev, int socket)
{
	unsigned n = 0;

	for (size_t i = 0; i < ucd_ncounters(d); i++) {
		struct ucd_ctrinfo ci;

		ucd_counter(d, i, &ci);
		n += ci.event == ev && (socket < 0 || ci.socket == (unsigned)socket);
	}
	return n;
}

static void print_counts(struct statctx *c, int interval, uint64_t t_ns, uint64_t span_ns)
{
	struct ucd *d = c->d;
	double bw = 0;
	int have_bw = 0;

	for (size_t i = 0; i < ucd_nevents(d); i++) {
		struct ucd_evinfo ei;

		ucd_event(d, i, &ei);
		if (c->o->per_socket && !interval) {
			for (unsigned s = 0; s < ucd_sockets(d); s++) {
				char sock[16];

				snprintf(sock, sizeof(sock), "S%u", s);
				print_line(c, (double)t_ns / 1e9, 0, sock, socket_units(d, i, (int)s), &ei,
					   ucd_event_socket_total(d, i, s), span_ns);
			}
		} else {
			print_line(c, (double)t_ns / 1e9, interval, NULL, socket_units(d, i, -1), &ei,
				   interval ? ei.interval : ei.total, span_ns);
		}
		if (ei.dram && span_ns) {
			bw += (double)(interval ? ei.interval : ei.total) * ei.bytes / (double)span_ns;
			have_bw = 1;
		}
	}
	if (have_bw && !c->o->json && !c->o->sep)
		fprintf(c->f, "%s%20.3f GB/s DRAM bandwidth (reads + writes counted)\n",
			interval ? "                " : "", bw);
	print_metrics(c, interval, t_ns, span_ns);
}

static int trace_ended(void *ctx)
{
	return uct_replay_done(ctx);
}

static int on_interval(struct ucd *d, void *ctx, uint64_t elapsed)
{
	struct statctx *c = ctx;
	int done = c->replay && uct_replay_done(c->replay);

	(void)d;
	if (c->o->interval_ms && !c->final) {
		if (elapsed > c->last_ns || c->last_ns == 0)
			print_counts(c, 1, elapsed, elapsed - c->last_ns);
		c->last_ns = elapsed;
		fflush(c->f);
	}
	/* a replayed trace ends the run when it ends */
	return done && !c->o->have_duration ? 1 : 0;
}

/* The progress line of a long run on the simulator (ucb_on_tick): how much
 * of the simulated time has run, or of a trace without --duration, how
 * far the replay is. */
static void stat_progress(struct statctx *c)
{
	double t = (double)(ucm_now_ps(c->m) - c->t0_ps) / 1e12;

	if (!c->dur_ns && c->replay)
		cli_progress_line("[trace] %.6f s, %llu cycles replayed", t,
				  (unsigned long long)uct_replay_cycles(c->replay));
	else if (c->dur_ns)
		cli_progress_line("[stat] %.3f of %.3f s simulated (%.0f%%)", t, (double)c->dur_ns / 1e9,
				  100 * t * 1e9 / (double)c->dur_ns);
}

static void stat_tick(void *ctx)
{
	if (cli_progress_due())
		stat_progress(ctx);
}

/* Every counter's total against the model's own count of what it counted
 * between the driver's first and last read of it. */
static int check_truth(struct ucd *d, struct ucm_model *m)
{
	size_t bad = 0, n = 0;

	for (size_t i = 0; i < ucd_ncounters(d); i++) {
		struct ucd_ctrinfo ci;
		struct ucm_truth t;
		int box;

		ucd_counter(d, i, &ci);
		box = ucm_box_find(m, ci.socket, ci.box->type->name, ci.box->inst);
		if (box < 0 || ucm_truth(m, box, ci.ctr, &t) || !t.reads)
			continue;
		n++;
		if (ci.total != t.last_read - t.first_read) {
			struct ucd_evinfo ei;

			ucd_event(d, ci.event, &ei);
			fprintf(stderr,
				"%s: check: %s on %s%u counter %u: driver %llu, ground truth %llu (%llu wraps)\n",
				"uncore", ei.name, ci.box->type->name, ci.box->inst, ci.ctr,
				(unsigned long long)ci.total,
				(unsigned long long)(t.last_read - t.first_read),
				(unsigned long long)t.wraps);
			bad++;
		}
	}
	for (size_t i = 0; i < ucm_strict_count(m); i++) {
		char line[512];

		ucm_strict_format(m, i, line, sizeof(line));
		fprintf(stderr, "%s: check: strict: %s\n", "uncore", line);
	}
	if (bad || ucm_strict_count(m))
		return cli_fail(1, "check failed: %zu of %zu counters differ from ground truth, %zu strict-mode records",
			    bad, n, ucm_strict_count(m));
	fprintf(stderr, "%s: check: %zu counters equal the model's ground truth; no strict-mode record\n",
		"uncore", n);
	return 0;
}

/* -M: the metrics by name, their events added to the session (those -e
 * gave already are read, not added again), bound for evaluation. */
static int add_metrics(struct statctx *c)
{
	const char *list;
	char msg[1024];

	if (!(c->ms = ucd_metrics_new()))
		return cli_fail(1, "out of memory");
	if (ucd_metrics_select(c->ms, ucd_platform(c->d), c->o->metrics))
		return cli_fail(EXIT_USAGE, "-M: %s", ucd_metrics_error(c->ms));
	if (!(list = ucd_metrics_plan(c->ms, c->d)))
		return cli_fail(1, "%s", ucd_metrics_error(c->ms));
	if (*list && ucd_add_events(c->d, list)) {
		ucd_metrics_explain(c->ms, ucd_error(c->d), msg, sizeof(msg));
		return cli_fail(EXIT_USAGE, "-M: %s", msg);
	}
	if (ucd_metrics_bind(c->ms, c->d))
		return cli_fail(1, "%s", ucd_metrics_error(c->ms));
	if (!ucd_nevents(c->d))
		return cli_fail(EXIT_USAGE, "-M: the metrics count no event: nothing to run");
	return 0;
}

/* --sample-period: one line (or JSON object) per overflow, with when the
 * PMI came and when counting resumed after the driver served it. */
static void print_samples(struct statctx *c)
{
	const struct opts *o = c->o;
	uint64_t dropped = 0;
	size_t n = ucd_nsamples(c->d, &dropped);

	if (!o->json && !o->sep)
		fprintf(c->f, "\n Samples: an overflow every %llu events (%zu%s)\n\n"
			"         time s   served in ns  socket  counter       count  event\n",
			(unsigned long long)o->sample_period, n, dropped ? ", more not kept" : "");
	for (size_t i = 0; i < n; i++) {
		struct ucd_sampleinfo si;
		struct ucd_evinfo ei;
		char box[32];

		if (ucd_sample_get(c->d, i, &si) || ucd_event(c->d, si.event, &ei))
			continue;
		snprintf(box, sizeof(box), "%s%u.%u", si.box->type->name, si.box->inst, si.counter);
		if (o->json) {
			json_t *j = json_object();

			json_object_set_new(j, "sample-time", json_real((double)si.t_ns / 1e9));
			json_object_set_new(j, "served-ns",
					    json_integer(si.rearm_ns ? (json_int_t)(si.rearm_ns - si.t_ns) : 0));
			json_object_set_new(j, "socket", json_integer(si.socket));
			json_object_set_new(j, "counter", json_string(box));
			json_object_set_new(j, "counter-value", json_integer((json_int_t)si.total));
			json_object_set_new(j, "event", json_string(ei.name));
			put_json(c, j);
		} else if (o->sep) {
			fprintf(c->f, "sample%s%.9f%s%llu%s%u%s%s%s%llu%s%s\n", o->sep, (double)si.t_ns / 1e9,
				o->sep, (unsigned long long)(si.rearm_ns ? si.rearm_ns - si.t_ns : 0), o->sep,
				si.socket, o->sep, box, o->sep, (unsigned long long)si.total, o->sep, ei.name);
		} else {
			fprintf(c->f, " %15.9f %14llu  S%-6u %-9s %11llu  %s\n", (double)si.t_ns / 1e9,
				(unsigned long long)(si.rearm_ns ? si.rearm_ns - si.t_ns : 0), si.socket, box,
				(unsigned long long)si.total, ei.name);
		}
	}
	if (dropped && !o->json && !o->sep)
		fprintf(c->f, " (%llu later samples counted, not kept)\n", (unsigned long long)dropped);
}

/* After the counts of an interrupted run: which signal, and when (as perf
 * stat prints what it counted when Ctrl-C ends it). */
static void print_interrupted(struct statctx *c, uint64_t el)
{
	int sig = cli_interrupted();
	/* no signal: a replayed log whose wait was interrupted */
	const char *name = sig ? cli_signame(sig) : NULL;

	if (c->o->json) {
		json_t *j = json_object();

		json_object_set_new(j, "interrupted", json_string(name ? name : "recorded"));
		json_object_set_new(j, "elapsed-s", json_real((double)el / 1e9));
		put_json(c, j);
	} else {
		fprintf(c->f, "# interrupted %s%s after %.9f s: the counts cover the time until then\n",
			name ? "by " : "as the recorded session was", name ? name : "", (double)el / 1e9);
	}
}

/* --pmi-cores names cores the global control can select: refused where the
 * uncore has no PMI (the E5-2600) or beyond its PMI_SEL fields, not cut,
 * and where it selects none of the part's cores (the v2's fields name 15,
 * its parts have at most 12): PMIs would reach nobody. */
static int check_pmi_cores(const struct opts *o, const struct ucm_platform *p)
{
	unsigned nsel = 0;

	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_regdef *g = ucm_regdef_find(p->boxes[i].type, UCM_K_GLOBAL_CTL, 0);

		for (unsigned k = 0; g && k < g->layout->nfields; k++)
			nsel += g->layout->fields[k].role == UCM_R_PMI_SEL;
		if (g)
			break;
	}
	if (!nsel)
		return cli_fail(EXIT_USAGE, "--pmi-cores: %s's uncore raises no PMI (no global control)",
				p->name);
	if (nsel < 64 && o->pmi_cores >> nsel)
		return cli_fail(EXIT_USAGE, "--pmi-cores 0x%llx: %s selects cores 0-%u (a mask up to 0x%llx)",
				(unsigned long long)o->pmi_cores, p->name, nsel - 1,
				(unsigned long long)((1ull << nsel) - 1));
	if (p->ncores < 64 && !(o->pmi_cores & ((1ull << p->ncores) - 1)))
		return cli_fail(EXIT_USAGE,
				"--pmi-cores 0x%llx: selects none of %s's %u cores a socket (0-%u): no PMI would reach a core",
				(unsigned long long)o->pmi_cores, p->name, p->ncores, p->ncores - 1u);
	return 0;
}

static int stat_run(const struct opts *o, struct machine *mc, FILE *f, struct ucd_evfile **ef);

/* The event file outlives the driver session that uses its events. */
int cmd_stat(const struct opts *o, struct machine *mc, FILE *f)
{
	struct ucd_evfile *ef = NULL;
	int rc = stat_run(o, mc, f, &ef);

	ucd_evfile_free(ef);
	return rc;
}

static int stat_run(const struct opts *o, struct machine *mc, FILE *f, struct ucd_evfile **ef)
{
	struct ucd_opts dopt = { o->platform, o->force, (uint32_t)o->pmi_cores, o->freeze_on_pmi, 0,
				 o->sample_period };
	struct ucd *d;
	struct statctx c = { o, f, NULL, mc->replay, NULL, 0, 0, mc->m, 0, 0 };
	uint64_t dur = (uint64_t)(o->duration_s * 1e9), every = o->interval_ms * 1000000ull;
	int rc, interrupted = 0;

	if (ucd_open(mc->be, &dopt, &d) || machine_attach(mc, d))
		goto err;
	c.d = d;
	if (o->pmi_cores && (rc = check_pmi_cores(o, ucd_platform(d)))) {
		ucd_close(d);
		return rc;
	}
	if (o->event_file) {
		if ((rc = cli_event_file(o->event_file, ucd_platform(d), ef))) {
			ucd_close(d);
			return rc;
		}
		ucd_use_evfile(d, *ef);
	}
	/* -M alone counts only the metrics' events, as perf does */
	if ((o->events || !o->metrics) &&
	    ucd_add_events(d, o->events ? o->events : ucd_default_events(d))) {
		rc = cli_fail(EXIT_USAGE, "-e: %s", ucd_error(d));
		ucd_close(d);
		return rc;
	}
	if (o->metrics && (rc = add_metrics(&c)) != 0) {
		ucd_metrics_free(c.ms);
		ucd_close(d);
		return rc;
	}
	if (mc->m)
		ucm_truth_mark(mc->m);
	if (mc->trace) {
		/* the trace starts with the counting */
		if (ucd_start(d))
			goto err;
		if ((rc = machine_start_trace(mc))) {
			ucd_restore(d);
			ucd_close(d);
			return rc;
		}
		c.replay = mc->replay;
	} else if (ucd_start(d)) {
		goto err; /* before any output: a refused start prints nothing */
	}
	if (mc->trace && !o->have_duration) {
		/* until the trace ends: look every simulated millisecond, without
		 * reading the counters for it (a read ends the model's sums of
		 * phases, docs/performance.md) */
		uint64_t end = uct_replay_end_ps(mc->replay), now_ps = ucm_now_ps(mc->m);

		dur = UINT64_MAX / 2;
		/* known from the check: run to it exactly (the end check then
		 * only backs it up) */
		if (end != UINT64_MAX)
			dur = ucd_elapsed_ns(d) + (end > now_ps ? (end - now_ps + 999) / 1000 : 0);
		ucd_set_end_check(d, 1000000, trace_ended, mc->replay);
	} else {
		c.dur_ns = dur;
	}
	if (mc->m)
		fprintf(stderr, "# %s, simulated, %s %s\n", ucd_platform(d)->title,
			mc->trace ? "trace" : "workload", mc->trace ? o->trace : o->workload);
	if (!o->json && !o->sep) {
		fprintf(f, "# %s: longest safe read interval %.3f s (counter width, worst-case rate and clock); reading every %.3f s or less\n",
			ucd_platform(d)->name, (double)ucd_safe_interval_ns(d) / 1e9,
			(double)ucd_safe_interval_ns(d) / 2e9);
		if (o->interval_ms)
			fprintf(f, "#           time                counts      event\n");
	}
	if (mc->m) {
		c.t0_ps = ucm_now_ps(mc->m);
		cli_progress_begin();
		ucb_on_tick(stat_tick, &c);
	}
	rc = ucd_run(d, dur, every, on_interval, &c);
	if (mc->m) {
		ucb_on_tick(NULL, NULL);
		if (cli_progress_drawn())
			stat_progress(&c); /* the line as the run ended */
		cli_progress_end();
	}
	if (rc == -EINTR)
		interrupted = 1;
	else if (rc)
		goto err;
	if (!o->interval_ms) {
		uint64_t el = ucd_elapsed_ns(d);

		if (!o->json && !o->sep)
			fprintf(f, "\n Performance counter stats for '%s uncore':\n\n", ucd_platform(d)->name);
		print_counts(&c, 0, el, el);
		if (!o->json && !o->sep)
			fprintf(f, "\n %15.9f seconds time elapsed\n", (double)el / 1e9);
	}
	if (o->sample_period)
		print_samples(&c);
	if (ucd_pmi_driven(d) && !o->json && !o->sep) {
		if (ucd_poll_interval_ns(d) == UINT64_MAX)
			fprintf(f, "# waited for PMIs (%llu); no counter needed polling\n",
				(unsigned long long)ucd_pmis(d));
		else
			fprintf(f, "# waited for PMIs (%llu); counters without overflow reporting read every %.3f s or less\n",
				(unsigned long long)ucd_pmis(d), (double)ucd_poll_interval_ns(d) / 1e9);
	}
	if (ucd_overflows(d) && !o->json && !o->sep)
		fprintf(f, "# %llu overflow notices, %llu freezes re-armed\n",
			(unsigned long long)ucd_overflows(d), (unsigned long long)ucd_freezes(d));
	if (interrupted)
		print_interrupted(&c, ucd_elapsed_ns(d));
	if (ucd_restore(d))
		goto err;
	rc = o->check && mc->m ? check_truth(d, mc->m) : 0;
	ucd_metrics_free(c.ms);
	ucd_close(d);
	if (interrupted && !rc) {
		/* without a signal: a replayed log whose wait was interrupted */
		if (!cli_interrupted())
			return cli_fail(1, "the replayed session was interrupted here, as the recorded one was");
		return 128 + cli_interrupted();
	}
	return rc;
err:
	ucd_metrics_free(c.ms);
	/* a trace that turns out malformed while replaying is bad input: say
	 * where in the trace, not which register access ran into it */
	if (mc->replay && uct_replay_failed(mc->replay)) {
		rc = cli_fail(EXIT_USAGE, "--trace: %s", uct_replay_error(mc->replay));
		ucd_close(d);
		return rc;
	}
	if (cli_interrupted()) {
		ucd_close(d); /* stops and restores */
		return 128 + cli_interrupted();
	}
	/* what the counters of this platform cannot sample is the option's error */
	if (o->sample_period && !strncmp(ucd_error(d), "sampl", 5))
		rc = cli_fail(EXIT_USAGE, "--sample-period %llu: %s", (unsigned long long)o->sample_period,
			      ucd_error(d));
	else
		rc = cli_fail(machine_error_status(mc), "%s", ucd_error(d));
	ucd_close(d);
	return rc;
}
