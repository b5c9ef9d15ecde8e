/*
 * cli_machine.c - the machine a command runs on: the simulator (the model,
 * configured from the options or from the trace it replays, with its
 * workload or trace and waveforms), real hardware, or a replayed access
 * log; recorded around any of them when asked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_machine.h"
#include "cli_util.h"
#include "ucb_hw.h"

/* The hardware backend refused: the options that chose it. */
int cli_hw_fail(const struct opts *o, const char *err)
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

/* UNCORE_VCD_MAX_BYTES=N lowers the waveform's size limit (tests use it,
 * so as not to write a gigabyte); 0: the default, UCT_VCD_MAX_BYTES. */
static uint64_t vcd_max_bytes(void)
{
	const char *e = getenv("UNCORE_VCD_MAX_BYTES");
	char *end;
	unsigned long long v;

	if (!e || !*e)
		return 0;
	v = strtoull(e, &end, 10);
	return *end || v > UCT_VCD_MAX_BYTES ? 0 : v;
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
	if (o->vcd && (rc = uct_vcd_open(mc->m, o->vcd, vcd_max_bytes(), &mc->vcd, err, sizeof(err))))
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
			return cli_hw_fail(o, err);
		mc->hw = 1;
		fprintf(stderr, "# hardware backend: %s\n", ucb_hw_describe(mc->base));
	} else if (!strncmp(o->backend, "replay:", 7)) {
		if ((rc = ucb_replay_create(o->backend + 7, &mc->base, err, sizeof(err)))) {
			/* a signal that ended the open or the read (a FIFO whose
			 * writer never comes) is the cause, not the file */
			if (cli_interrupted())
				return cli_signal_exit(o->cmd, "while opening the access log, before anything ran");
			return cli_fail(rc == -EINVAL ? EXIT_USAGE : 1, "--backend: %s", err);
		}
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
