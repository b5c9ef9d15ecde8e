/*
 * cli_main.c - the `uncore` command: options, the machine (simulated,
 * replayed, recorded), and the list and regs commands.  Usage errors exit
 * 2, run-time errors 1; every message names the option, token or file.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static const char *prog = "uncore";

int cli_fail(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

/* ---- output that appears only complete ---- */

/* Whether standard output is a pipe or socket whose reader has gone
 * (`uncore regs | head`): then a failed write is what a pipeline expects,
 * and the command ends silently with the status of SIGPIPE (which it
 * ignores, so as to restore the hardware first). */
int stdout_reader_gone(void)
{
	struct stat st;
	struct pollfd p = { 1, POLLOUT, 0 };

	if (fstat(1, &st) || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return 0;
	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

int out_open(struct out *o, const char *path)
{
	char err[512];

	o->path = path;
	if (!path) {
		o->f = stdout;
		return 0;
	}
	if (uct_file_open(&o->uf, path, err, sizeof(err)))
		return cli_fail(1, "-o %s", err);
	o->f = o->uf.f;
	return 0;
}

int out_close(struct out *o, int ok)
{
	char err[512];

	if (!o->path) {
		/* short writes leave the error flag set even when nothing is left
		 * to flush (a closed pipe, a full disk) */
		errno = 0;
		if ((fflush(stdout) || ferror(stdout)) && ok) {
			if (stdout_reader_gone())
				return 128 + SIGPIPE;
			return cli_fail(1, "writing output: %s", strerror(errno ? errno : EIO));
		}
		return 0;
	}
	if (!ok) {
		uct_file_abort(&o->uf);
		return 0;
	}
	if (uct_file_commit(&o->uf, err, sizeof(err)))
		return cli_fail(1, "-o %s", err);
	return 0;
}

/* ---- the machine ---- */

/* The hardware backend refused: the options that chose it. */
static int hw_fail(const struct opts *o, const char *err)
{
	if (o->hw_root)
		return cli_fail(1, "--backend hw --hw-root %s: %s", o->hw_root, err);
	return cli_fail(1, "--backend hw: %s", err);
}

static int sim_config(const struct opts *o, struct ucm_config *cfg, const struct uct_hdr *h)
{
	const struct ucm_platform *p;

	if (h) {
		/* the trace says what it was made for; options may only agree */
		p = h->plat;
		if (o->platform && strcasecmp(o->platform, p->name))
			return cli_fail(EXIT_USAGE, "--platform %s, but the trace %s is for %s", o->platform,
					o->trace, p->name);
		uct_config(h, cfg);
	} else {
		p = ucm_platform_find(o->platform ? o->platform : "skl");
		if (!p)
			return cli_fail(EXIT_USAGE, "--platform: unknown platform '%s'", o->platform);
		ucm_config_init(cfg, p);
	}
	cfg->strict = o->check;
	if (o->ncbo) {
		int bi = p->counted ? ucm_boxtype_index(p, p->counted) : -1;

		if (bi < 0)
			return cli_fail(EXIT_USAGE, "--ncbo: %s has no variable box count", p->name);
		if (o->ncbo < p->counted->ninst_min || o->ncbo > p->counted->ninst_max)
			return cli_fail(EXIT_USAGE, "--ncbo: %u out of range for %s (%u-%u)", o->ncbo, p->name,
					p->counted->ninst_min, p->counted->ninst_max);
		/* a trace without a count has the platform's default: its
		 * inputs to "every CBo" were meant for that many */
		if (h && (h->ninst[bi] ? h->ninst[bi] : p->counted->ninst_default) != o->ncbo)
			return cli_fail(EXIT_USAGE, "--ncbo %u, but the trace %s has %u %s boxes%s", o->ncbo,
					o->trace, h->ninst[bi] ? h->ninst[bi] : p->counted->ninst_default,
					p->counted->name, h->ninst[bi] ? "" : " (the platform's default)");
		cfg->ninst[bi] = o->ncbo;
	}
	if (o->qpi_links) {
		/* the ports and what belongs to each: its mask/match and misc
		 * functions, and its R3QPI link (docs/platform-ivt.md V17) */
		static const char *const link_types[] = { "qpi", "qpi_mm", "qpi_misc", "r3qpi" };
		int any = 0;

		for (unsigned t = 0; t < sizeof(link_types) / sizeof(link_types[0]); t++)
			for (unsigned i = 0; i < p->nboxes; i++) {
				const struct ucm_boxtype *bt = p->boxes[i].type;
				unsigned have = h ? h->ninst[ucm_boxtype_index(p, bt)] : 0;

				if (strcmp(bt->name, link_types[t]) || bt->ninst_min == bt->ninst_max)
					continue;
				if (o->qpi_links < bt->ninst_min || o->qpi_links > bt->ninst_max)
					return cli_fail(EXIT_USAGE, "--qpi-links: %u out of range for %s (%u-%u)",
							o->qpi_links, p->name, bt->ninst_min, bt->ninst_max);
				if (h && (have ? have : bt->ninst_default) != o->qpi_links)
					return cli_fail(EXIT_USAGE, "--qpi-links %u, but the trace %s has %u %s boxes%s",
							o->qpi_links, o->trace, have ? have : bt->ninst_default,
							bt->name, have ? "" : " (the platform's default)");
				cfg->ninst[ucm_boxtype_index(p, bt)] = o->qpi_links;
				any = 1;
				break;
			}
		if (!any)
			return cli_fail(EXIT_USAGE, "--qpi-links: %s has no variable link count", p->name);
	}
	if (o->sockets) {
		if (o->sockets > p->max_sockets)
			return cli_fail(EXIT_USAGE, "--sockets %u: %s has at most %u", o->sockets, p->name,
					p->max_sockets);
		if (h && h->sockets && h->sockets != o->sockets)
			return cli_fail(EXIT_USAGE, "--sockets %u, but the trace %s has %u socket%s", o->sockets,
					o->trace, h->sockets, h->sockets == 1 ? "" : "s");
		cfg->sockets = o->sockets;
	}
	if (o->npci_bus || o->nnode_ids) {
		unsigned ns = cfg->sockets ? cfg->sockets : p->sockets_default ? p->sockets_default : 1;

		if (o->npci_bus && o->npci_bus != ns)
			return cli_fail(EXIT_USAGE, "--pci-bus: %u buses for %u sockets", o->npci_bus, ns);
		if (o->nnode_ids && o->nnode_ids != ns)
			return cli_fail(EXIT_USAGE, "--node-ids: %u node IDs for %u sockets", o->nnode_ids, ns);
		if (p->max_sockets < 2)
			return cli_fail(EXIT_USAGE,
					"--pci-bus and --node-ids: %s is a one-socket platform at fixed PCI addresses",
					p->name);
		for (unsigned i = 0; i < ns; i++)
			for (unsigned j = i + 1; j < ns; j++) {
				if (o->npci_bus && o->pci_bus[i] == o->pci_bus[j])
					return cli_fail(EXIT_USAGE, "--pci-bus: sockets %u and %u on one PCI bus 0x%02x", i, j,
							o->pci_bus[i]);
				if (o->nnode_ids && o->node_id[i] == o->node_id[j])
					return cli_fail(EXIT_USAGE, "--node-ids: sockets %u and %u with one node ID %u", i,
							j, o->node_id[i]);
			}
		memcpy(cfg->pci_bus, o->pci_bus, sizeof(cfg->pci_bus));
		memcpy(cfg->node_id, o->node_id, sizeof(cfg->node_id));
		/* a 0 given is a bus or a node ID, not "the default" */
		cfg->pci_bus_given = o->npci_bus != 0;
		cfg->node_id_given = o->nnode_ids != 0;
	}
	if (o->uclk_mhz) {
		uint64_t hz = (uint64_t)(o->uclk_mhz * 1e6);

		uint64_t th = h ? h->clock_hz[0] ? h->clock_hz[0] : p->clocks[0].hz_default : 0;

		/* a trace without a clock line runs at the platform's default */
		if (h && th != hz)
			return cli_fail(EXIT_USAGE, "--uclk-mhz %g (%llu Hz), but the trace %s runs %s at %llu Hz%s",
					o->uclk_mhz, (unsigned long long)hz, o->trace, p->clocks[0].name,
					(unsigned long long)th, h->clock_hz[0] ? "" : " (the platform's default)");
		cfg->clock_hz[0] = hz;
	}
	return 0;
}

/* A trace replays from the moment the counters start (cmd_stat): the
 * driver's discovery and programming take simulated time (each register
 * access does), which would otherwise pass over its first segments. */
int machine_start_trace(struct machine *mc)
{
	int rc;

	if (!mc->trace || mc->replay)
		return 0;
	if ((rc = uct_replay_attach(mc->m, mc->trace, &mc->replay)))
		return cli_fail(1, "--trace: %s", strerror(-rc));
	return 0;
}

static int sim_open(const struct opts *o, struct machine *mc)
{
	struct ucm_config cfg;
	char err[768];
	int rc;

	if (o->trace) {
		/* checked whole before anything runs: a malformed trace is bad
		 * input (2), as in `trace info`; a file not read is 1 */
		if ((rc = uct_open_checked(o->trace, cli_stop_flag(), &mc->trace, err, sizeof(err)))) {
			if (cli_interrupted())
				return cli_signal_exit(o->cmd, "while checking the trace, before anything ran");
			return cli_fail(rc == -EINVAL ? EXIT_USAGE : 1, "--trace: %s", err);
		}
	}
	if ((rc = sim_config(o, &cfg, mc->trace ? uct_header(mc->trace) : NULL)))
		return rc;
	rc = ucm_create(&cfg, &mc->m);
	if (rc) {
		int code = rc == -EINVAL ? EXIT_USAGE : 1;

		cli_fail(code, "simulator: %s", mc->m ? ucm_error(mc->m) : strerror(-rc));
		ucm_destroy(mc->m);
		mc->m = NULL;
		return code;
	}
	/* waveforms from the machine's first moment, before any access */
	if (o->vcd && (rc = uct_vcd_open(mc->m, o->vcd, &mc->vcd, err, sizeof(err))))
		return cli_fail(1, "--vcd: %s", err);
	if (!mc->trace) {
		const struct ucm_platform *p = cfg.plat;
		const struct uct_workload_def *wd = uct_workload_find(p->name, o->workload);

		if (!wd) {
			char names[256];
			size_t k = 0;

			names[0] = 0;
			for (unsigned i = 0; uct_workload_at(i); i++)
				if (!strcmp(uct_workload_at(i)->platform, p->name))
					k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s",
							      k ? ", " : "", uct_workload_at(i)->name);
			return cli_fail(EXIT_USAGE, "--workload: '%s' is not a %s workload (known: %s)",
					o->workload, p->name, names);
		}
		if (!o->gen.exceed && (rc = uct_workload_within(mc->m, wd, err, sizeof(err))))
			return cli_fail(EXIT_USAGE, "--workload %s%s: %s", wd->name,
					o->uclk_mhz ? " with --uclk-mhz" : "", err);
		if ((rc = uct_attach(mc->m, wd, o->seed, &mc->wl, err, sizeof(err))))
			return cli_fail(1, "%s", err);
	}
	if ((rc = ucb_sim_create(mc->m, &mc->base)))
		return cli_fail(1, "simulator backend: %s", strerror(-rc));
	return 0;
}

int machine_open(const struct opts *o, struct machine *mc)
{
	char err[768];
	int rc;

	memset(mc, 0, sizeof(*mc));
	if (!strcmp(o->backend, "hw")) {
		struct ucb_hw_opts ho = { o->hw_root, o->hw_msr, o->hw_pci };

		if ((rc = ucb_hw_create(&ho, &mc->base, err, sizeof(err))))
			return hw_fail(o, err);
		mc->hw = 1;
		fprintf(stderr, "# hardware backend: %s\n", ucb_hw_describe(mc->base));
	} else if (!strncmp(o->backend, "replay:", 7)) {
		if ((rc = ucb_replay_create(o->backend + 7, &mc->base, err, sizeof(err))))
			return cli_fail(rc == -EINVAL ? EXIT_USAGE : 1, "--backend: %s", err);
		mc->replaying = 1;
	} else if ((rc = sim_open(o, mc))) {
		return rc;
	}
	mc->be = mc->base;
	if (o->record) {
		if ((rc = ucb_rec_create(mc->base, o->record, &mc->be, err, sizeof(err)))) {
			mc->be = mc->base;
			return cli_fail(1, "--record: %s", err);
		}
	}
	return 0;
}

int machine_attach(struct machine *mc, struct ucd *d)
{
	unsigned bus[8], sock[8], n;

	if (!mc->hw)
		return 0;
	if (ucb_hw_allow(mc->base, ucd_platform(d), ucd_mmio_base(d)))
		return cli_fail(1, "out of memory");
	/* where PCI writes may go: the buses the backend found itself.  They
	 * should be the ones `regs` shows; someone trying a new machine wants
	 * to see both agree. */
	n = ucb_hw_buses(mc->base, bus, sock, 8);
	for (unsigned i = 0; i < ucd_platform(d)->nboxes; i++) {
		const struct ucm_boxtype *bt = ucd_platform(d)->boxes[i].type;

		if (bt->space != UCM_PCI || !bt->nctr)
			continue;
		fprintf(stderr, "# hardware backend: PCI PMON writes allowed on uncore bus%s", n == 1 ? "" : "es");
		for (unsigned k = 0; k < n && k < 8; k++)
			fprintf(stderr, "%s %02x (socket %u)", k ? "," : "", bus[k], sock[k]);
		fprintf(stderr, "%s\n", n ? "" : " none: no uncore bus found");
		break;
	}
	return 0;
}

int machine_finish(struct machine *mc, int interrupted)
{
	char err[1024];

	/* an interrupted session's log ends with the interrupted wait and the
	 * restore: replayed, it is interrupted at the same place */
	if (mc->be != mc->base && ucb_rec_commit(mc->be, err, sizeof(err)))
		return cli_fail(1, "--record: %s", err);
	if (mc->replaying && !interrupted && ucb_replay_finish(mc->base, err, sizeof(err)))
		return cli_fail(machine_error_status(mc), "%s", err);
	if (mc->vcd && !interrupted) {
		int rc = uct_vcd_commit(mc->vcd, err, sizeof(err));

		mc->vcd = NULL;
		if (rc)
			return cli_fail(1, "--vcd: %s", err);
	}
	return 0;
}

int machine_error_status(const struct machine *mc)
{
	return mc->replaying && ucb_replay_malformed(mc->base) ? EXIT_USAGE : 1;
}

void machine_close(struct machine *mc)
{
	if (mc->be && mc->be != mc->base)
		ucb_destroy(mc->be);
	ucb_destroy(mc->base);
	uct_vcd_close(mc->vcd);
	uct_replay_detach(mc->replay);
	uct_close(mc->trace);
	uct_detach(mc->wl);
	ucm_destroy(mc->m);
}

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

int cli_event_file(const char *path, const struct ucm_platform *p, struct ucd_evfile **out)
{
	char err[512];
	size_t nk = 0, nl = 0, nr = 0, n;
	int rc = ucd_evfile_load(p, path, out, err, sizeof(err));

	if (rc)
		return cli_fail(rc == -EINVAL ? EXIT_USAGE : 1, "--event-file: %s", err);
	n = ucd_evfile_nentries(*out);
	for (size_t i = 0; i < n; i++) {
		const struct ucd_evfile_entry *en = ucd_evfile_entry(*out, i);

		if (en->status == UCD_EF_REPORTED) {
			fprintf(stderr, "uncore: %s: entry %zu (%s): %s\n", path, en->index,
				en->name ? en->name : "no name", en->reason);
			nr++;
		} else {
			*(en->status == UCD_EF_LOADED ? &nl : &nk) += 1;
		}
	}
	fprintf(stderr, "uncore: %s: %zu entries for %s: %zu new events, %zu already in the tables, %zu reported\n",
		path, n, p->name, nl, nk, nr);
	return 0;
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

/* ---- stat ---- */

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
		return hw_fail(o, err);
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

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

int cli_interrupted(void)
{
	return got_signal;
}

const volatile sig_atomic_t *cli_stop_flag(void)
{
	return &got_signal;
}

const char *cli_signame(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
}

int cli_signal_exit(const char *cmd, const char *what)
{
	fprintf(stderr, "%s: %s interrupted by %s: %s\n", prog, cmd, cli_signame(got_signal), what);
	return 128 + got_signal;
}

/* SIGINT, SIGTERM and SIGHUP end a wait early (no SA_RESTART), so the
 * driver stops, restores every register it wrote, and the command exits. */
static void catch_signals(void)
{
	struct sigaction sa;

	ucb_stop_on(&got_signal);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a closed pipe (uncore stat | head) must not kill the process before
	 * it restores the hardware: the write fails instead, and is reported */
	signal(SIGPIPE, SIG_IGN);
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
	catch_signals();
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
				     got_signal ? 0 : cli_fail(1, "writing the allow-list failed");
		/* a signal (in a write to a pipe nobody reads): nothing is kept */
		c = out_close(&out, rc == 0 && !got_signal);
		if (got_signal && !rc)
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
		c = out_close(&out, rc == 0 && !got_signal);
		if (got_signal && !rc)
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
	intr = got_signal && rc == 128 + got_signal;
	if (!rc || intr)
		c = machine_finish(&mc, intr), rc = rc ? rc : c;
	c = out_close(&out, rc == 0 || intr);
	if (c && (!rc || intr))
		rc = c;
	machine_close(&mc);
	if (got_signal) {
		fprintf(stderr, "uncore: interrupted by %s; every register written was restored\n",
			cli_signame(got_signal));
		return rc && rc != 128 + got_signal ? rc : 128 + got_signal;
	}
	return rc;
}
