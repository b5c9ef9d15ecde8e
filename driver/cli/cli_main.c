/*
 * cli_main.c - the `uncore` command: parses the options, opens the machine
 * and runs the command; the list, regs and allowlist commands are here,
 * stat, trace and run in files of their own (cli_cmd.h).  Usage errors
 * exit 2, run-time errors 1; every message names the option, token or file.
 */
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_cmd.h"
#include "cli_machine.h"
#include "cli_opts.h"
#include "cli_util.h"
#include "ucb.h"
#include "ucb_hw.h"
#include "ucd.h"
#include "ucm.h"

/* ---- list ---- */

static void counters_of(const struct ucm_event *e, char *buf, size_t n)
{
	const struct ucm_evcode *ec = ucm_code_named(e->box, e->code);
	size_t k = 0;

	buf[0] = 0;
	for (unsigned c = 0; ec && c < 32 && k < n; c++)
		if (ec->ctr_mask & (1u << c))
			k += (size_t)snprintf(buf + k, n - k, "%s%u", k ? "," : "", c);
}

/* The derived metrics: with --json an array of their own, else a section
 * (after the events unless --metrics). */
static int list_metrics(const struct opts *o, const struct ucm_platform *p, FILE *f)
{
	char disp[128];

	if (o->json) {
		json_t *arr = json_array();
		char *s;

		for (unsigned i = 0; i < p->nmetrics; i++) {
			const struct ucm_metric *m = &p->metrics[i];

			json_array_append_new(
				arr, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "name",
					       ucd_metric_display(p, m, disp, sizeof(disp)), "unit", m->box,
					       "metric-unit", m->unit, "description", m->desc, "expr",
					       m->expr, "source", m->cite));
		}
		s = json_dumps(arr, JSON_INDENT(2));
		json_decref(arr);
		if (!s)
			return cli_fail(1, "out of memory");
		fprintf(f, "%s\n", s);
		free(s);
		return 0;
	}
	if (!p->nmetrics) {
		fprintf(f, "%s (%s) defines no derived metrics\n", p->title, p->name);
		return 0;
	}
	fprintf(f, "%s derived metrics (%s; uncore stat -M NAME)\n\n", p->title, p->name);
	for (unsigned i = 0; i < p->nmetrics; i++) {
		const struct ucm_metric *m = &p->metrics[i];

		fprintf(f, "  %s\n", ucd_metric_display(p, m, disp, sizeof(disp)));
		fprintf(f, "      [%s metric, %s; %s]\n", m->box, m->unit, m->cite);
		fprintf(f, "      %s\n", m->desc);
		fprintf(f, "      = %s\n", m->expr);
	}
	return 0;
}

/* The table name of filter register k a named event sets
 * ("Q_Py_PCI_PMON_PKT_MATCH0"). */
static const char *filter_name(const struct ucm_event *e, unsigned k)
{
	const struct ucm_regdef *rd = ucm_regdef_find(e->box, UCM_K_FILTER, e->filt[k].idx);

	return rd ? rd->layout->name : "filter";
}

/* Linux perf's PMUs of the platform, with their formats and aliases. */
static void list_perf_pmus(const struct ucm_platform *p, FILE *f)
{
	char fmts[512];

	if (!p->nperfpmus)
		return;
	fprintf(f, "\nLinux perf's PMU names (-e PMU/terms/ as perf takes them)\n\n");
	for (unsigned i = 0; i < p->nperfpmus; i++) {
		const struct ucm_perfpmu *pm = &p->perfpmus[i];

		ucd_perf_formats(pm, fmts, sizeof(fmts));
		if (pm->numbered)
			fprintf(f, "    %s_0 .. %s_%u (or %s: every one)\n", pm->name, pm->name,
				pm->box->ninst_default - 1u, pm->name);
		else
			fprintf(f, "    %s\n", pm->name);
		fprintf(f, "        [%s; %s]\n        formats: %s\n", pm->box->name, pm->cite, fmts);
		for (unsigned k = 0; k < pm->naliases; k++)
			fprintf(f, "%s%s=%s%s", k ? "" : "        events: ", pm->aliases[k].name,
				pm->aliases[k].terms, k + 1 < pm->naliases ? ", " : "\n");
	}
}

/* The JSON object of a named event. */
static json_t *event_json(const struct ucm_platform *p, const struct ucm_event *e)
{
	const struct ucm_evcode *ec = ucm_code_named(e->box, e->code);
	char ctrs[64], perf[160];
	json_t *ev;

	counters_of(e, ctrs, sizeof(ctrs));
	ev = json_pack("{s:s, s:s?, s:s, s:i, s:i, s:i, s:s, s:i, s:s, s:s}", "name", e->name, "alias",
		       e->alias, "unit", e->box->name, "code", (int)e->code, "umask", (int)e->umask,
		       "thresh", (int)e->thresh, "counters", ctrs, "max_inc", ec ? (int)ec->max_inc : 0,
		       "description", e->desc, "source", e->cite);
	if (ev && ucd_perf_name(p, e, perf, sizeof(perf)))
		json_object_set_new(ev, "perf", json_string(perf));
	if (ev && e->nfilt) {
		/* the filter register values the event needs (Table 2-92) */
		json_t *fl = json_object();

		for (unsigned k = 0; k < e->nfilt; k++)
			json_object_set_new(fl, filter_name(e, k), json_integer(e->filt[k].val));
		json_object_set_new(ev, "filters", fl);
	}
	return ev;
}

static void event_text(const struct ucm_platform *p, const struct ucm_event *e, FILE *f)
{
	char ctrs[64], perf[160];

	counters_of(e, ctrs, sizeof(ctrs));
	fprintf(f, "  %s%s%s%s\n", e->name, e->alias ? " (" : "", e->alias ? e->alias : "",
		e->alias ? ")" : "");
	fprintf(f, "      [%s event=0x%02x umask=0x%02x%s%.0u", e->box->name, e->code, e->umask,
		e->thresh ? " thresh=" : "", e->thresh);
	for (unsigned k = 0; k < e->nfilt; k++)
		fprintf(f, " %s=0x%x", filter_name(e, k), e->filt[k].val);
	fprintf(f, " counters %s; %s]\n", ctrs, e->cite);
	if (ucd_perf_name(p, e, perf, sizeof(perf)))
		fprintf(f, "      perf: %s\n", perf);
	fprintf(f, "      %s\n", e->desc);
}

static int cmd_list(const struct opts *o, const struct ucm_platform *p, FILE *f)
{
	struct ucd_evfile *ef = NULL;
	const struct ucm_event *xev = NULL;
	size_t nxev = 0;
	int rc;

	if (o->event_file) {
		if ((rc = cli_event_file(o->event_file, p, &ef)))
			return rc;
		xev = ucd_evfile_events(ef, &nxev);
	}
	if (o->list_metrics) {
		/* the file was checked and reported; its events are not metrics */
		ucd_evfile_free(ef);
		return list_metrics(o, p, f);
	}
	if (o->json) {
		json_t *arr = json_array();
		char *s;

		for (unsigned i = 0; i < p->nevents; i++)
			json_array_append_new(arr, event_json(p, &p->events[i]));
		for (size_t i = 0; i < nxev; i++)
			json_array_append_new(arr, event_json(p, &xev[i]));
		s = json_dumps(arr, JSON_INDENT(2));
		json_decref(arr);
		ucd_evfile_free(ef);
		if (!s)
			return cli_fail(1, "out of memory");
		fprintf(f, "%s\n", s);
		free(s);
		return 0;
	}
	fprintf(f, "%s uncore events (%s)\n\n", p->title, p->name);
	for (unsigned i = 0; i < p->nevents; i++)
		event_text(p, &p->events[i], f);
	if (ef) {
		fprintf(f, "\nEvents of %s that the tables do not name\n\n", o->event_file);
		for (size_t i = 0; i < nxev; i++)
			event_text(p, &xev[i], f);
	}
	ucd_evfile_free(ef);
	list_perf_pmus(p, f);
	if (p->nmetrics) {
		fputc('\n', f);
		return list_metrics(o, p, f);
	}
	return 0;
}

/* ---- regs ---- */

static int cmd_regs(const struct opts *o, struct machine *mc, FILE *f)
{
	struct ucd_opts dopt = { o->platform, o->force, 0, 0, 0, 0 };
	struct ucd *d;
	int rc = 0;

	if (ucd_open(mc->be, &dopt, &d))
		rc = cli_fail(machine_error_status(mc), "%s", ucd_error(d));
	else if (ucd_dump_regs(d, f))
		rc = !o->out && stdout_reader_gone() ? 128 + SIGPIPE
							  : cli_fail(machine_error_status(mc), "%s", ucd_error(d));
	ucd_close(d);
	return rc;
}

/* ---- allowlist ---- */

/* `allowlist --backend=hw`: the platform of this CPU, from CPUID alone.
 * The users it is for run msr-safe without root, so it reads no PCI
 * configuration (the node IDs lie past the 64 bytes they may read). */
static int allowlist_platform(const struct opts *o, const struct ucm_platform **out)
{
	struct ucb_hw_opts ho = { o->hw_root, o->hw_msr, o->hw_pci };
	struct ucb *b;
	char vendor[13], err[768];
	unsigned fam, model;
	int rc;

	if ((rc = ucb_hw_create(&ho, &b, err, sizeof(err))))
		return cli_hw_fail(o, err);
	if ((rc = ucd_cpu_identify(b, vendor, &fam, &model))) {
		rc = cli_fail(1, "CPUID: %s", ucb_error(b));
		ucb_destroy(b);
		return rc;
	}
	ucb_destroy(b);
	if (strcmp(vendor, "GenuineIntel"))
		return cli_fail(1, "not an Intel CPU (%s): no allow-list", vendor);
	if ((*out = ucd_platform_for_cpu(vendor, fam, model)))
		return 0;
	return cli_fail(1, "no supported uncore for family %u model 0x%02x: name one with --platform", fam,
			model);
}

int main(int argc, char **argv)
{
	struct opts o;
	struct out out;
	struct machine mc;
	int rc, c, intr;

	rc = cli_parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	cli_catch_signals();
	/* a program on the machine: its undefined programming is recorded */
	if (!strcmp(o.cmd, "run"))
		o.check = 1;
	if (!strcmp(o.cmd, "trace"))
		return cmd_trace(&o);
	if (!strcmp(o.cmd, "allowlist")) {
		const struct ucm_platform *p = NULL;

		if (!o.platform && !strcmp(o.backend, "hw")) {
			if ((rc = allowlist_platform(&o, &p)))
				return rc;
		} else if (!(p = ucm_platform_find(o.platform ? o.platform : "skl"))) {
			return cli_fail(EXIT_USAGE, "--platform: unknown platform '%s'", o.platform);
		}
		if ((rc = out_open(&out, o.out)))
			return rc;
		if (ucb_hw_allowlist(p, out.f))
			rc = !o.out && stdout_reader_gone() ? 128 + SIGPIPE :
				     cli_interrupted() ? 0 : cli_fail(1, "writing the allow-list failed");
		/* a signal (in a write to a pipe nobody reads): nothing is kept */
		c = out_close(&out, rc == 0 && !cli_interrupted());
		if (cli_interrupted() && !rc)
			return cli_signal_exit("allowlist", o.out ? "nothing was written" : "the output may be cut short");
		return c ? c : rc;
	}
	if (!strcmp(o.cmd, "list")) {
		const struct ucm_platform *p = ucm_platform_find(o.platform ? o.platform : "skl");

		if (!p)
			return cli_fail(EXIT_USAGE, "--platform: unknown platform '%s'", o.platform);
		if ((rc = out_open(&out, o.out)))
			return rc;
		rc = cmd_list(&o, p, out.f);
		c = out_close(&out, rc == 0 && !cli_interrupted());
		if (cli_interrupted() && !rc)
			return cli_signal_exit("list", o.out ? "nothing was written" : "the output may be cut short");
		return c ? c : rc;
	}
	if ((rc = machine_open(&o, &mc)) || (rc = out_open(&out, o.out))) {
		machine_close(&mc);
		return rc;
	}
	if (!strcmp(o.cmd, "run")) {
		out_close(&out, 0);
		rc = cmd_run(&o, &mc);
		machine_close(&mc);
		return rc;
	}
	rc = !strcmp(o.cmd, "stat") ? cmd_stat(&o, &mc, out.f) : cmd_regs(&o, &mc, out.f);
	/* interrupted, stat wrote the counts so far, marked so: they are kept */
	intr = cli_interrupted() && rc == 128 + cli_interrupted();
	if (!rc || intr)
		c = machine_finish(&mc, intr), rc = rc ? rc : c;
	c = out_close(&out, rc == 0 || intr);
	if (c && (!rc || intr))
		rc = c;
	machine_close(&mc);
	if (cli_interrupted()) {
		fprintf(stderr, "uncore: interrupted by %s; every register written was restored\n",
			cli_signame(cli_interrupted()));
		return rc && rc != 128 + cli_interrupted() ? rc : 128 + cli_interrupted();
	}
	return rc;
}
