/*
 * cli_main.c - the `uncore` command: list events, count them (stat), dump
 * registers.
 *
 * The CLI builds a backend (the simulated one by default: a model of the
 * chosen platform running a built-in workload) and hands it to the driver.
 * Output goes to stdout, or with -o to a file that appears only complete
 * (written beside it, then renamed).  Usage errors exit 2, run-time errors 1.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ucb.h"
#include "ucd.h"
#include "ucm.h"
#include "uct.h"

#define EXIT_USAGE 2

static const char *prog = "uncore";

static int fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s <command> [options]\n"
		"\n"
		"commands:\n"
		"  list                 the platform's events with descriptions\n"
		"  stat                 count events (a built-in workload on the simulator)\n"
		"  regs                 read and decode every uncore PMU register\n"
		"\n"
		"common options:\n"
		"  --platform NAME      platform (default: detect; simulator default skl)\n"
		"  --backend sim        where registers live (only 'sim' in this build)\n"
		"  --force              program a platform the CPU does not identify as\n"
		"  -o FILE              write output to FILE (appears only when complete)\n"
		"\n"
		"stat options:\n"
		"  -e EVENTS            comma-separated events: manual names\n"
		"                       (UNC_CBO_CACHE_LOOKUP.ANY_MESI), aliases (uclk,\n"
		"                       data_reads) or PMU/terms/ (cbo0/event=0x34,umask=0x8f/)\n"
		"  -I MS                print counts every MS milliseconds\n"
		"  -x SEP               CSV-like output with separator SEP\n"
		"  --json               one JSON object per count\n"
		"  --duration SEC       how long to count (default 1)\n"
		"  --per-socket         counts per socket\n"
		"  --pmi-cores MASK     cores to interrupt on overflow (PMI_SEL)\n"
		"  --freeze-on-pmi      let overflow freeze the counters (driver re-arms)\n"
		"\n"
		"simulator options:\n"
		"  --workload NAME      built-in workload (mixed, stream, idle; default mixed)\n"
		"  --seed N             workload seed (default 1)\n"
		"  --ncbo N             number of C-Boxes (1-4, default 4)\n"
		"  --uclk-mhz F         uncore clock (default 3000)\n"
		"  --check              compare every count with the model's ground truth and\n"
		"                       fail on a difference or on any strict-mode record\n",
		prog);
}

struct opts {
	const char *cmd, *platform, *backend, *events, *out, *sep, *workload;
	int json, per_socket, force, check, freeze_on_pmi;
	uint64_t interval_ms, seed, pmi_cores;
	double duration_s, uclk_mhz;
	unsigned ncbo;
};

static int parse_u64(const char *opt, const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || !*s || *end || *s == '-')
		return fail(EXIT_USAGE, "%s: '%s' is not a non-negative integer", opt, s);
	return 0;
}

static int parse_double(const char *opt, const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || !*s || *end || !(*v > 0))
		return fail(EXIT_USAGE, "%s: '%s' is not a positive number", opt, s);
	return 0;
}

enum { O_PLATFORM = 256, O_BACKEND, O_JSON, O_DURATION, O_WORKLOAD, O_SEED, O_NCBO, O_UCLK,
       O_CHECK, O_PER_SOCKET, O_PMI, O_FRZ, O_FORCE, O_VERSION };

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{ "platform", required_argument, 0, O_PLATFORM },
		{ "backend", required_argument, 0, O_BACKEND },
		{ "json", no_argument, 0, O_JSON },
		{ "duration", required_argument, 0, O_DURATION },
		{ "workload", required_argument, 0, O_WORKLOAD },
		{ "seed", required_argument, 0, O_SEED },
		{ "ncbo", required_argument, 0, O_NCBO },
		{ "uclk-mhz", required_argument, 0, O_UCLK },
		{ "check", no_argument, 0, O_CHECK },
		{ "per-socket", no_argument, 0, O_PER_SOCKET },
		{ "pmi-cores", required_argument, 0, O_PMI },
		{ "freeze-on-pmi", no_argument, 0, O_FRZ },
		{ "force", no_argument, 0, O_FORCE },
		{ "version", no_argument, 0, O_VERSION },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c, rc;
	uint64_t v;

	memset(o, 0, sizeof(*o));
	o->backend = "sim";
	o->duration_s = 1.0;
	o->seed = 1;
	o->workload = "mixed";
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return -1;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("uncore 0.1.0\n");
		return -1;
	}
	o->cmd = argv[1];
	if (strcmp(o->cmd, "list") && strcmp(o->cmd, "stat") && strcmp(o->cmd, "regs"))
		return fail(EXIT_USAGE, "unknown command '%s' (expected list, stat or regs)", o->cmd);
	optind = 2;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":e:I:x:o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'e': o->events = optarg; break;
		case 'I':
			if ((rc = parse_u64("-I", optarg, &o->interval_ms)))
				return rc;
			if (!o->interval_ms)
				return fail(EXIT_USAGE, "-I: the interval must be at least 1 ms");
			break;
		case 'x':
			if (!*optarg)
				return fail(EXIT_USAGE, "-x: empty separator");
			o->sep = optarg;
			break;
		case 'o': o->out = optarg; break;
		case 'h': usage(stdout); return -1;
		case O_PLATFORM: o->platform = optarg; break;
		case O_BACKEND: o->backend = optarg; break;
		case O_JSON: o->json = 1; break;
		case O_DURATION:
			if ((rc = parse_double("--duration", optarg, &o->duration_s)))
				return rc;
			if (o->duration_s > 1e6)
				return fail(EXIT_USAGE, "--duration: %s s is more than 1e6 s", optarg);
			break;
		case O_WORKLOAD: o->workload = optarg; break;
		case O_SEED:
			if ((rc = parse_u64("--seed", optarg, &o->seed)))
				return rc;
			break;
		case O_NCBO:
			if ((rc = parse_u64("--ncbo", optarg, &v)))
				return rc;
			if (!v || v > 64)
				return fail(EXIT_USAGE, "--ncbo: %s out of range", optarg);
			o->ncbo = (unsigned)v;
			break;
		case O_UCLK:
			if ((rc = parse_double("--uclk-mhz", optarg, &o->uclk_mhz)))
				return rc;
			if (o->uclk_mhz > 1e6)
				return fail(EXIT_USAGE, "--uclk-mhz: %s is more than 1 THz", optarg);
			break;
		case O_CHECK: o->check = 1; break;
		case O_PER_SOCKET: o->per_socket = 1; break;
		case O_PMI:
			if ((rc = parse_u64("--pmi-cores", optarg, &o->pmi_cores)))
				return rc;
			break;
		case O_FRZ: o->freeze_on_pmi = 1; break;
		case O_FORCE: o->force = 1; break;
		case O_VERSION: printf("uncore 0.1.0\n"); return -1;
		case ':': return fail(EXIT_USAGE, "option '%s' needs a value", argv[optind - 1]);
		default: return fail(EXIT_USAGE, "unknown option '%s' (see '%s --help')",
				     argv[optind - 1], prog);
		}
	}
	if (optind < argc)
		return fail(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	if (o->json && o->sep)
		return fail(EXIT_USAGE, "-x and --json exclude each other");
	if (strcmp(o->backend, "sim"))
		return fail(EXIT_USAGE, "--backend: '%s' is not available in this build (expected sim)",
			    o->backend);
	if (strcmp(o->cmd, "stat") &&
	    (o->events || o->interval_ms || o->sep || o->check || o->per_socket))
		return fail(EXIT_USAGE, "-e, -I, -x, --per-socket and --check go with 'stat'");
	return 0;
}

/* ---- output that appears only complete ---- */

struct out {
	FILE *f;
	const char *path;
	char tmp[4096];
};

static int out_open(struct out *o, const char *path)
{
	int fd;

	o->path = path;
	if (!path) {
		o->f = stdout;
		return 0;
	}
	if (snprintf(o->tmp, sizeof(o->tmp), "%s.XXXXXX", path) >= (int)sizeof(o->tmp))
		return fail(EXIT_USAGE, "-o: path too long");
	fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "w")))
		return fail(1, "-o %s: cannot create a file beside it: %s", path, strerror(errno));
	return 0;
}

static int out_close(struct out *o, int ok)
{
	if (!o->path)
		return fflush(stdout) == 0 || !ok ? 0 : fail(1, "writing output: %s", strerror(errno));
	if (fclose(o->f) != 0 && ok) {
		unlink(o->tmp);
		return fail(1, "-o %s: %s", o->path, strerror(errno));
	}
	if (!ok) {
		unlink(o->tmp);
		return 0;
	}
	if (rename(o->tmp, o->path) != 0) {
		unlink(o->tmp);
		return fail(1, "-o %s: %s", o->path, strerror(errno));
	}
	return 0;
}

/* ---- the simulated machine ---- */

struct sim {
	struct ucm_model *m;
	struct uct_wl *wl;
	struct ucb *be;
};

static int sim_open(const struct opts *o, struct sim *s)
{
	const struct ucm_platform *p = ucm_platform_find(o->platform ? o->platform : "skl");
	const struct uct_workload_def *wd;
	struct ucm_config cfg;
	char err[256];
	int rc;

	memset(s, 0, sizeof(*s));
	if (!p)
		return fail(EXIT_USAGE, "--platform: unknown platform '%s'", o->platform);
	ucm_config_init(&cfg, p);
	cfg.strict = o->check;
	if (o->ncbo) {
		const struct ucm_boxtype *bt = p->counted;

		if (!bt)
			return fail(EXIT_USAGE, "--ncbo: %s has no variable box count", p->name);
		cfg.ninst[ucm_boxtype_index(p, bt)] = o->ncbo;
	}
	if (o->uclk_mhz)
		cfg.clock_hz[0] = (uint64_t)(o->uclk_mhz * 1e6);
	rc = ucm_create(&cfg, &s->m);
	if (rc) {
		int code = rc == -EINVAL ? EXIT_USAGE : 1;

		fail(code, "simulator: %s", s->m ? ucm_error(s->m) : strerror(-rc));
		ucm_destroy(s->m);
		s->m = NULL;
		return code;
	}
	wd = uct_workload_find(p->name, o->workload);
	if (!wd) {
		char names[256];
		size_t k = 0;

		names[0] = 0;
		for (unsigned i = 0; uct_workload_at(i); i++)
			if (!strcmp(uct_workload_at(i)->platform, p->name))
				k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", k ? ", " : "",
						      uct_workload_at(i)->name);
		return fail(EXIT_USAGE, "--workload: '%s' is not a %s workload (known: %s)", o->workload,
			    p->name, names);
	}
	if ((rc = uct_attach(s->m, wd, o->seed, &s->wl, err, sizeof(err))))
		return fail(1, "%s", err);
	if ((rc = ucb_sim_create(s->m, &s->be)))
		return fail(1, "simulator backend: %s", strerror(-rc));
	return 0;
}

static void sim_close(struct sim *s)
{
	ucb_destroy(s->be);
	uct_detach(s->wl);
	ucm_destroy(s->m);
}

/* ---- list ---- */

static void counters_of(const struct ucm_event *e, char *buf, size_t n)
{
	const struct ucm_evcode *ec = ucm_code_find(e->box, e->code);
	size_t k = 0;

	buf[0] = 0;
	for (unsigned c = 0; ec && c < 32 && k < n; c++)
		if (ec->ctr_mask & (1u << c))
			k += (size_t)snprintf(buf + k, n - k, "%s%u", k ? "," : "", c);
}

static int cmd_list(const struct opts *o, const struct ucm_platform *p, FILE *f)
{
	if (o->json) {
		json_t *arr = json_array();
		char *s;

		for (unsigned i = 0; i < p->nevents; i++) {
			const struct ucm_event *e = &p->events[i];
			const struct ucm_evcode *ec = ucm_code_find(e->box, e->code);
			char ctrs[64];

			counters_of(e, ctrs, sizeof(ctrs));
			json_array_append_new(
				arr, json_pack("{s:s, s:s?, s:s, s:i, s:i, s:i, s:s, s:i, s:s, s:s}",
					       "name", e->name, "alias", e->alias, "unit", e->box->name,
					       "code", (int)e->code, "umask", (int)e->umask, "thresh",
					       (int)e->thresh, "counters", ctrs, "max_inc",
					       ec ? (int)ec->max_inc : 0, "description", e->desc,
					       "source", e->cite));
		}
		s = json_dumps(arr, JSON_INDENT(2));
		json_decref(arr);
		if (!s)
			return fail(1, "out of memory");
		fprintf(f, "%s\n", s);
		free(s);
		return 0;
	}
	fprintf(f, "%s uncore events (%s)\n\n", p->title, p->name);
	for (unsigned i = 0; i < p->nevents; i++) {
		const struct ucm_event *e = &p->events[i];
		char ctrs[64];

		counters_of(e, ctrs, sizeof(ctrs));
		fprintf(f, "  %s%s%s%s\n", e->name, e->alias ? " (" : "", e->alias ? e->alias : "",
			e->alias ? ")" : "");
		fprintf(f, "      [%s event=0x%02x umask=0x%02x%s%.0u counters %s; %s]\n", e->box->name,
			e->code, e->umask, e->thresh ? " thresh=" : "", e->thresh, ctrs, e->cite);
		fprintf(f, "      %s\n", e->desc);
	}
	return 0;
}

/* ---- stat ---- */

struct statctx {
	const struct opts *o;
	FILE *f;
	struct ucd *d;
	const char *label;
	uint64_t last_ns;
};

static void metric(const struct ucd_evinfo *ei, uint64_t count, uint64_t ns, double *v,
		   const char **unit)
{
	*unit = NULL;
	*v = 0;
	if (!ns)
		return;
	if (ei->is_clock) {
		*v = (double)count / (double)ns;
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

static void print_line(struct statctx *c, double t_s, int interval, const char *sock,
		       const struct ucd_evinfo *ei, uint64_t count, uint64_t ns)
{
	const struct opts *o = c->o;
	double mv;
	const char *mu;

	metric(ei, count, ns, &mv, &mu);
	if (o->json) {
		json_t *j = json_object();
		char *s, num[32];

		if (interval)
			json_object_set_new(j, "interval", json_real(t_s));
		if (sock)
			json_object_set_new(j, "socket", json_string(sock));
		snprintf(num, sizeof(num), "%llu", (unsigned long long)count);
		json_object_set_new(j, "counter-value", json_string(num));
		json_object_set_new(j, "unit", json_string(""));
		json_object_set_new(j, "event", json_string(ei->name));
		json_object_set_new(j, "event-runtime", json_integer((json_int_t)ns));
		json_object_set_new(j, "pcnt-running", json_real(100.0));
		if (mu) {
			json_object_set_new(j, "metric-value", json_real(mv));
			json_object_set_new(j, "metric-unit", json_string(mu));
		}
		s = json_dumps(j, JSON_COMPACT);
		json_decref(j);
		if (s)
			fprintf(c->f, "%s\n", s);
		free(s);
	} else if (o->sep) {
		const char *x = o->sep;

		if (interval)
			fprintf(c->f, "%.9f%s", t_s, x);
		if (sock)
			fprintf(c->f, "%s%s", sock, x);
		fprintf(c->f, "%llu%s%s%s%s%llu%s100.00", (unsigned long long)count, x, x, ei->name, x,
			(unsigned long long)ns, x);
		if (mu)
			fprintf(c->f, "%s%.3f%s%s", x, mv, x, mu);
		fputc('\n', c->f);
	} else {
		char num[40];

		fmt_count(num, sizeof(num), count);
		if (interval)
			fprintf(c->f, "%15.9f ", t_s);
		if (sock)
			fprintf(c->f, "%-6s ", sock);
		fprintf(c->f, "%20s      %-45s", num, ei->name);
		if (mu)
			fprintf(c->f, " # %8.3f %s", mv, mu);
		fputc('\n', c->f);
	}
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
				print_line(c, (double)t_ns / 1e9, 0, sock, &ei,
					   ucd_event_socket_total(d, i, s), span_ns);
			}
		} else {
			print_line(c, (double)t_ns / 1e9, interval, NULL, &ei,
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
}

static int on_interval(struct ucd *d, void *ctx, uint64_t elapsed)
{
	struct statctx *c = ctx;

	(void)d;
	if (!c->o->interval_ms)
		return 0;
	if (elapsed > c->last_ns || c->last_ns == 0)
		print_counts(c, 1, elapsed, elapsed - c->last_ns);
	c->last_ns = elapsed;
	fflush(c->f);
	return 0;
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
				prog, ei.name, ci.box->type->name, ci.box->inst, ci.ctr,
				(unsigned long long)ci.total,
				(unsigned long long)(t.last_read - t.first_read),
				(unsigned long long)t.wraps);
			bad++;
		}
	}
	for (size_t i = 0; i < ucm_strict_count(m); i++) {
		char line[512];

		ucm_strict_format(m, i, line, sizeof(line));
		fprintf(stderr, "%s: check: strict: %s\n", prog, line);
	}
	if (bad || ucm_strict_count(m))
		return fail(1, "check failed: %zu of %zu counters differ from ground truth, %zu strict-mode records",
			    bad, n, ucm_strict_count(m));
	fprintf(stderr, "%s: check: %zu counters equal the model's ground truth; no strict-mode record\n",
		prog, n);
	return 0;
}

static int cmd_stat(const struct opts *o, struct sim *s, FILE *f)
{
	struct ucd_opts dopt = { o->platform, o->force, (uint32_t)o->pmi_cores, o->freeze_on_pmi, 0 };
	struct ucd *d;
	struct statctx c = { o, f, NULL, NULL, 0 };
	uint64_t dur = (uint64_t)(o->duration_s * 1e9);
	int rc;

	if (ucd_open(s->be, &dopt, &d))
		goto err;
	c.d = d;
	if (ucd_add_events(d, o->events ? o->events : ucd_default_events(d))) {
		rc = fail(EXIT_USAGE, "-e: %s", ucd_error(d));
		ucd_close(d);
		return rc;
	}
	ucm_truth_mark(s->m);
	if (!o->json && !o->sep) {
		fprintf(f, "# %s, sim backend, workload %s (seed %llu), %.3f s\n",
			ucd_platform(d)->title, o->workload, (unsigned long long)o->seed, o->duration_s);
		fprintf(f, "# reads every %.3f s at most keep every counter wrap-safe\n",
			(double)ucd_safe_interval_ns(d) / 2e9);
		if (o->interval_ms)
			fprintf(f, "#           time                counts      event\n");
	}
	if (ucd_run(d, dur, o->interval_ms * 1000000ull, on_interval, &c))
		goto err;
	if (!o->interval_ms) {
		uint64_t el = ucd_elapsed_ns(d);

		if (!o->json && !o->sep)
			fprintf(f, "\n Performance counter stats for '%s uncore':\n\n", ucd_platform(d)->name);
		print_counts(&c, 0, el, el);
		if (!o->json && !o->sep)
			fprintf(f, "\n %15.9f seconds time elapsed\n", (double)el / 1e9);
	}
	if (ucd_overflows(d) && !o->json && !o->sep)
		fprintf(f, "# %llu overflow notices, %llu freezes re-armed\n",
			(unsigned long long)ucd_overflows(d), (unsigned long long)ucd_freezes(d));
	if (ucd_restore(d))
		goto err;
	rc = o->check ? check_truth(d, s->m) : 0;
	ucd_close(d);
	return rc;
err:
	rc = fail(1, "%s", ucd_error(d));
	ucd_close(d);
	return rc;
}

static int cmd_regs(const struct opts *o, struct sim *s, FILE *f)
{
	struct ucd_opts dopt = { o->platform, o->force, 0, 0, 0 };
	struct ucd *d;
	int rc = 0;

	if (ucd_open(s->be, &dopt, &d) || ucd_dump_regs(d, f))
		rc = fail(1, "%s", ucd_error(d));
	ucd_close(d);
	return rc;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct out out;
	struct sim s;
	int rc;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (!strcmp(o.cmd, "list")) {
		const struct ucm_platform *p = ucm_platform_find(o.platform ? o.platform : "skl");

		if (!p)
			return fail(EXIT_USAGE, "--platform: unknown platform '%s'", o.platform);
		if ((rc = out_open(&out, o.out)))
			return rc;
		rc = cmd_list(&o, p, out.f);
		return out_close(&out, rc == 0) ? 1 : rc;
	}
	if ((rc = sim_open(&o, &s))) {
		sim_close(&s);
		return rc;
	}
	if ((rc = out_open(&out, o.out))) {
		sim_close(&s);
		return rc;
	}
	rc = !strcmp(o.cmd, "stat") ? cmd_stat(&o, &s, out.f) : cmd_regs(&o, &s, out.f);
	if (out_close(&out, rc == 0) && !rc)
		rc = 1;
	sim_close(&s);
	return rc;
}
