/*
 * cli_main.c - the `uncore` command: options, the machine (simulated,
 * replayed, recorded), and the list and regs commands.  Usage errors exit
 * 2, run-time errors 1; every message names the option, token or file.
 */
#include <errno.h>
#include <getopt.h>
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

static void usage(FILE *f)
{
	fprintf(f,
		"usage: %s <command> [options]\n"
		"\n"
		"commands:\n"
		"  list                 the platform's events and derived metrics with\n"
		"                       descriptions (--metrics: the metrics only)\n"
		"  stat                 count events (a built-in workload on the simulator)\n"
		"  regs                 read and decode every uncore PMU register\n"
		"  trace gen KIND       generate an event trace (stream, llc, burst, idle;\n"
		"                       snbep also qpi, cstate)\n"
		"  trace convert IN     convert an event trace between text and binary\n"
		"  trace info IN        header, length and fed totals of an event trace\n"
		"  allowlist            the platform's MSRs as an msr-safe allow-list (MSRs\n"
		"                       only; --backend=hw: this CPU's platform)\n"
		"  run [--] PROG [ARGS] run an unmodified program (PCM, likwid, rdmsr, setpci,\n"
		"                       ...) on the simulated machine: CPUID, /proc, /sys,\n"
		"                       MSR, PCI and /dev/mem are the model's, and so is its\n"
		"                       clock (docs/tools.md)\n"
		"\n"
		"common options:\n"
		"  --platform NAME      platform (default: detect; simulator default skl)\n"
		"  --backend B          sim (default), hw (this machine), or replay:FILE\n"
		"  --hw-root DIR        hw: find /dev, /sys, /proc under DIR (tests; or\n"
		"                       $UNCORE_HW_ROOT)\n"
		"  --hw-msr M           hw: auto, msr (/dev/cpu/N/msr) or msr-safe\n"
		"  --hw-pci P           hw: auto, sysfs or proc\n"
		"  --record FILE        log every register access to FILE (an access trace)\n"
		"  --force              program a platform the CPU does not identify as\n"
		"  -o FILE              write output to FILE (appears only when complete)\n"
		"\n"
		"stat options:\n"
		"  -e EVENTS            comma-separated events: manual names\n"
		"                       (UNC_CBO_CACHE_LOOKUP.ANY_MESI), aliases (uclk,\n"
		"                       data_reads) or PMU/terms/ (cbo0/event=0x34,umask=0x8f/)\n"
		"  -M METRICS           comma-separated derived metrics ('uncore list\n"
		"                       --metrics'), or NAME=EXPR of your own; counts their\n"
		"                       events (and -e's, if given) and prints each metric\n"
		"  -I MS                print counts every MS milliseconds\n"
		"  -x SEP               CSV-like output with separator SEP\n"
		"  --json               one JSON object per count\n"
		"  --duration SEC       how long to count (default 1; with --trace: its length)\n"
		"  --per-socket         counts per socket\n"
		"  --pmi-cores MASK     cores to interrupt on overflow (PMI_SEL)\n"
		"  --freeze-on-pmi      let overflow freeze the counters (driver re-arms)\n"
		"  --sample-period N    stat: preload each counter that reports overflow so\n"
		"                       that it overflows every N events; list the overflows\n"
		"\n"
		"simulator options:\n"
		"  --workload NAME      built-in workload (mixed, stream, idle; default mixed)\n"
		"  --trace FILE         replay an event trace instead of a workload\n"
		"  --seed N             workload or generator seed (default 1)\n"
		"  --ncbo N             number of C-Boxes (skl 1-4, snbep 1-8, ivt 1-15; default all)\n"
		"  --qpi-links N        ivt: QPI ports and R3QPI links (1-3; default 2)\n"
		"  --sockets N          sockets (snbep 1-2, default 2; skl 1)\n"
		"  --uclk-mhz F         uncore clock (default: skl 3000, snbep 2700)\n"
		"  --pci-bus B,B        each socket's uncore PCI bus (default: snbep 0x3f,0x7f)\n"
		"  --node-ids N,N       each socket's node ID, 0-7 (default 0,1)\n"
		"  --check              compare every count with the model's ground truth and\n"
		"                       fail on a difference or on any strict-mode record\n"
		"\n"
		"trace options:\n"
		"  --binary | --text    output encoding (convert: default the other one)\n"
		"  --bandwidth GBPS     stream, qpi: bandwidth in 1e9 bytes/s over all sockets\n"
		"                       (default 10)\n"
		"  --read-ratio R       stream, qpi: share of reads (default 0.7)\n"
		"  --hit-ratio R        llc: share of lookups that hit (default 0.9); cstate:\n"
		"                       share of a core's idle time in C3 (the rest C6)\n"
		"  --lookups L          llc: lookups per cycle per CBo (default 0.5)\n"
		"  --duty D             burst: share of time streaming (default 0.2); cstate:\n"
		"                       share of time a core is in C0\n"
		"  --burst-us US        burst: length of a burst (default 10)\n"
		"  --period CYCLES      slice length (default 300000)\n"
		"\n"
		"run options (and the simulator options):\n"
		"  --clock C            sim: the program's clocks and sleeps are the machine's\n"
		"                       (default; faster than real time); wall: the machine\n"
		"                       follows the wall clock\n"
		"  --report FILE        at exit (and on SIGUSR1), the ground truth of every\n"
		"                       counter the program read, what the workload fed and\n"
		"                       the undefined programming it did, as text\n"
		"  --report-json FILE   the same as JSON\n"
		"  --log                the preload library reports what it serves (stderr)\n",
		prog);
}

static int parse_u64(const char *opt, const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || !*s || *end || *s == '-')
		return cli_fail(EXIT_USAGE, "%s: '%s' is not a non-negative integer", opt, s);
	return 0;
}

/* A count of boxes or sockets: 1..max (the platform checks its own range). */
static int parse_count(const char *opt, const char *s, unsigned max, unsigned *out)
{
	uint64_t v;
	int rc;

	if ((rc = parse_u64(opt, s, &v)))
		return rc;
	if (!v || v > max)
		return cli_fail(EXIT_USAGE, "%s: %s out of range", opt, s);
	*out = (unsigned)v;
	return 0;
}

/* One value per socket, comma-separated, each at most max. */
static int parse_per_socket(const char *opt, const char *s, unsigned max, uint8_t *out, unsigned *n)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "%s", s);
	*n = 0;
	for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		int rc;

		if (*n == UCM_MAXSOCK)
			return cli_fail(EXIT_USAGE, "%s: more than %u sockets", opt, UCM_MAXSOCK);
		if ((rc = parse_u64(opt, w, &v)))
			return rc;
		if (v > max)
			return cli_fail(EXIT_USAGE, "%s: %s out of range (max %u)", opt, w, max);
		out[(*n)++] = (uint8_t)v;
	}
	if (!*n || strlen(s) >= sizeof(buf) || s[strlen(s) - 1] == ',' || strstr(s, ",,") || *s == ',')
		return cli_fail(EXIT_USAGE, "%s: '%s' is not a list of numbers (one per socket)", opt, s);
	return 0;
}

static int parse_double(const char *opt, const char *s, double *v, int zero_ok)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || !*s || *end || *v != *v || *v < 0 || (!zero_ok && *v == 0))
		return cli_fail(EXIT_USAGE, "%s: '%s' is not a %s number", opt, s,
				zero_ok ? "non-negative" : "positive");
	return 0;
}

/* The option getopt_long refused.  Inside a cluster (-qx) optind has not
 * moved past the word, so argv[optind - 1] would name the word before it:
 * name the letter of a short option, the word of a long one. */
static const char *refused(char *const *argv, int word, char buf[3])
{
	if (!strncmp(argv[word], "--", 2))
		return argv[word];
	buf[0] = '-';
	buf[1] = (char)optopt;
	buf[2] = 0;
	return buf;
}

enum { O_PLATFORM = 256, O_BACKEND, O_JSON, O_DURATION, O_WORKLOAD, O_SEED, O_NCBO, O_SOCKETS, O_UCLK, O_PCI_BUS, O_NODE_IDS,
       O_CHECK, O_PER_SOCKET, O_PMI, O_FRZ, O_FORCE, O_VERSION, O_TRACE, O_RECORD, O_BINARY,
       O_TEXT, O_BW, O_RR, O_HR, O_LOOK, O_DUTY, O_BURST, O_PERIOD, O_HW_ROOT, O_HW_MSR,
       O_HW_PCI, O_METRICS, O_CLOCK, O_REPORT, O_REPORT_JSON, O_RUN_LOG, O_SAMPLE, O_QPI_LINKS };

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
		{ "qpi-links", required_argument, 0, O_QPI_LINKS },
		{ "sockets", required_argument, 0, O_SOCKETS },
		{ "pci-bus", required_argument, 0, O_PCI_BUS },
		{ "node-ids", required_argument, 0, O_NODE_IDS },
		{ "uclk-mhz", required_argument, 0, O_UCLK },
		{ "check", no_argument, 0, O_CHECK },
		{ "per-socket", no_argument, 0, O_PER_SOCKET },
		{ "pmi-cores", required_argument, 0, O_PMI },
		{ "freeze-on-pmi", no_argument, 0, O_FRZ },
		{ "sample-period", required_argument, 0, O_SAMPLE },
		{ "force", no_argument, 0, O_FORCE },
		{ "version", no_argument, 0, O_VERSION },
		{ "trace", required_argument, 0, O_TRACE },
		{ "record", required_argument, 0, O_RECORD },
		{ "binary", no_argument, 0, O_BINARY },
		{ "text", no_argument, 0, O_TEXT },
		{ "bandwidth", required_argument, 0, O_BW },
		{ "read-ratio", required_argument, 0, O_RR },
		{ "hit-ratio", required_argument, 0, O_HR },
		{ "lookups", required_argument, 0, O_LOOK },
		{ "duty", required_argument, 0, O_DUTY },
		{ "burst-us", required_argument, 0, O_BURST },
		{ "period", required_argument, 0, O_PERIOD },
		{ "hw-root", required_argument, 0, O_HW_ROOT },
		{ "hw-msr", required_argument, 0, O_HW_MSR },
		{ "hw-pci", required_argument, 0, O_HW_PCI },
		{ "metrics", no_argument, 0, O_METRICS },
		{ "clock", required_argument, 0, O_CLOCK },
		{ "report", required_argument, 0, O_REPORT },
		{ "report-json", required_argument, 0, O_REPORT_JSON },
		{ "log", no_argument, 0, O_RUN_LOG },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c, rc, first = 2, word;
	char opt[3];
	double x;

	memset(o, 0, sizeof(*o));
	o->backend = "sim";
	o->duration_s = 1.0;
	o->seed = 1;
	o->workload = "mixed";
	o->gen = (struct uct_gen_opts){ NULL, 1.0, 10.0, 0.7, 0.9, 0.5, 0.2, 10000, 0, 1 };
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
	if (!strcmp(o->cmd, "trace")) {
		if (argc < 3 || (strcmp(argv[2], "gen") && strcmp(argv[2], "convert") && strcmp(argv[2], "info")))
			return cli_fail(EXIT_USAGE, "trace: expected gen, convert or info");
		o->sub = argv[2];
		first = 3;
	} else if (strcmp(o->cmd, "list") && strcmp(o->cmd, "stat") && strcmp(o->cmd, "regs") &&
		   strcmp(o->cmd, "allowlist") && strcmp(o->cmd, "run")) {
		return cli_fail(EXIT_USAGE, "unknown command '%s' (expected list, stat, regs, trace, allowlist or run)",
				o->cmd);
	}
	optind = first;
	opterr = 0;
	if (o->sub && optind < argc && argv[optind][0] != '-')
		o->arg = argv[optind++];
	while ((word = optind, c = getopt_long(argc, argv, "+:e:M:I:x:o:h", lo, NULL)) != -1) {
		switch (c) {
		case 'e': o->events = optarg; break;
		case 'M': o->metrics = optarg; break;
		case O_METRICS: o->list_metrics = 1; break;
		case 'I':
			if ((rc = parse_u64("-I", optarg, &o->interval_ms)))
				return rc;
			if (!o->interval_ms)
				return cli_fail(EXIT_USAGE, "-I: the interval must be at least 1 ms");
			break;
		case 'x':
			if (!*optarg)
				return cli_fail(EXIT_USAGE, "-x: empty separator");
			o->sep = optarg;
			break;
		case 'o': o->out = optarg; break;
		case 'h': usage(stdout); return -1;
		case O_PLATFORM: o->platform = optarg; break;
		case O_BACKEND: o->backend = optarg; break;
		case O_JSON: o->json = 1; break;
		case O_DURATION:
			if ((rc = parse_double("--duration", optarg, &o->duration_s, 0)))
				return rc;
			if (o->duration_s > 1e6)
				return cli_fail(EXIT_USAGE, "--duration: %s s is more than 1e6 s", optarg);
			o->have_duration = 1;
			o->gen.seconds = o->duration_s;
			break;
		case O_WORKLOAD: o->workload = optarg; break;
		case O_SEED:
			if ((rc = parse_u64("--seed", optarg, &o->seed)))
				return rc;
			o->have_seed = 1;
			o->gen.seed = o->seed;
			break;
		case O_NCBO:
			if ((rc = parse_count("--ncbo", optarg, 64, &o->ncbo)))
				return rc;
			break;
		case O_QPI_LINKS:
			if ((rc = parse_count("--qpi-links", optarg, 8, &o->qpi_links)))
				return rc;
			break;
		case O_SOCKETS:
			if ((rc = parse_count("--sockets", optarg, 8, &o->sockets)))
				return rc;
			break;
		case O_PCI_BUS:
			if ((rc = parse_per_socket("--pci-bus", optarg, 255, o->pci_bus, &o->npci_bus)))
				return rc;
			break;
		case O_NODE_IDS:
			if ((rc = parse_per_socket("--node-ids", optarg, 7, o->node_id, &o->nnode_ids)))
				return rc;
			break;
		case O_UCLK:
			if ((rc = parse_double("--uclk-mhz", optarg, &o->uclk_mhz, 0)))
				return rc;
			/* what an uncore clock can be: 100 MHz to 10 GHz */
			if (!(o->uclk_mhz >= 100 && o->uclk_mhz <= 10000))
				return cli_fail(EXIT_USAGE, "--uclk-mhz: %s is outside 100-10000 MHz", optarg);
			break;
		case O_CHECK: o->check = 1; break;
		case O_PER_SOCKET: o->per_socket = 1; break;
		case O_PMI:
			if ((rc = parse_u64("--pmi-cores", optarg, &o->pmi_cores)))
				return rc;
			break;
		case O_FRZ: o->freeze_on_pmi = 1; break;
		case O_SAMPLE:
			if ((rc = parse_u64("--sample-period", optarg, &o->sample_period)))
				return rc;
			if (!o->sample_period)
				return cli_fail(EXIT_USAGE, "--sample-period: must be at least 1");
			break;
		case O_FORCE: o->force = 1; break;
		case O_VERSION: printf("uncore 0.1.0\n"); return -1;
		case O_TRACE: o->trace = optarg; break;
		case O_RECORD: o->record = optarg; break;
		case O_BINARY: o->binary = 1; break;
		case O_TEXT: o->text = 1; break;
		case O_BW:
			if ((rc = parse_double("--bandwidth", optarg, &o->gen.gbps, 1)))
				return rc;
			break;
		case O_RR:
			if ((rc = parse_double("--read-ratio", optarg, &o->gen.read_ratio, 1)))
				return rc;
			break;
		case O_HR:
			if ((rc = parse_double("--hit-ratio", optarg, &o->gen.hit_ratio, 1)))
				return rc;
			break;
		case O_LOOK:
			if ((rc = parse_double("--lookups", optarg, &o->gen.lookups, 1)))
				return rc;
			break;
		case O_DUTY:
			if ((rc = parse_double("--duty", optarg, &o->gen.duty, 1)))
				return rc;
			break;
		case O_BURST:
			if ((rc = parse_double("--burst-us", optarg, &x, 0)))
				return rc;
			o->gen.burst_ns = (uint64_t)(x * 1000);
			break;
		case O_PERIOD:
			if ((rc = parse_u64("--period", optarg, &o->gen.period)))
				return rc;
			if (!o->gen.period)
				return cli_fail(EXIT_USAGE, "--period: 0 cycles; a slice is at least 1 cycle");
			break;
		case O_HW_ROOT: o->hw_root = optarg; break;
		case O_HW_MSR:
			if (!strcmp(optarg, "auto"))
				o->hw_msr = UCB_HW_AUTO;
			else if (!strcmp(optarg, "msr"))
				o->hw_msr = UCB_HW_MSR;
			else if (!strcmp(optarg, "msr-safe"))
				o->hw_msr = UCB_HW_MSR_SAFE;
			else
				return cli_fail(EXIT_USAGE, "--hw-msr: '%s' (expected auto, msr or msr-safe)", optarg);
			break;
		case O_HW_PCI:
			if (!strcmp(optarg, "auto"))
				o->hw_pci = UCB_HW_AUTO;
			else if (!strcmp(optarg, "sysfs"))
				o->hw_pci = UCB_HW_PCI_SYSFS;
			else if (!strcmp(optarg, "proc"))
				o->hw_pci = UCB_HW_PCI_PROC;
			else
				return cli_fail(EXIT_USAGE, "--hw-pci: '%s' (expected auto, sysfs or proc)", optarg);
			break;
		case O_CLOCK:
			if (!strcmp(optarg, "sim") || !strcmp(optarg, "wall"))
				o->wall_clock = !strcmp(optarg, "wall");
			else
				return cli_fail(EXIT_USAGE, "--clock: '%s' (expected sim or wall)", optarg);
			break;
		case O_REPORT: o->report = optarg; break;
		case O_REPORT_JSON: o->report_json = optarg; break;
		case O_RUN_LOG: o->run_log = 1; break;
		case ':': return cli_fail(EXIT_USAGE, "option '%s' needs a value", refused(argv, word, opt));
		default: return cli_fail(EXIT_USAGE, "unknown option '%s' (see '%s --help')",
					 refused(argv, word, opt), prog);
		}
		/* options may follow a positional argument */
		if (optind < argc && argv[optind][0] != '-' && o->sub && !o->arg)
			o->arg = argv[optind++];
	}
	if (optind < argc && o->sub && !o->arg)
		o->arg = argv[optind++];
	if (!strcmp(o->cmd, "run")) {
		/* getopt stopped at the program (or after "--") */
		if (optind >= argc)
			return cli_fail(EXIT_USAGE, "run: expected a program to run (uncore run [options] -- PROGRAM [ARGS])");
		o->run_argv = argv + optind;
		optind = argc;
	}
	if (optind < argc)
		return cli_fail(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	if (strcmp(o->cmd, "run") && (o->report || o->report_json || o->wall_clock || o->run_log))
		return cli_fail(EXIT_USAGE, "--clock, --report, --report-json and --log go with 'run'");
	if (!strcmp(o->cmd, "run") && strcmp(o->backend, "sim"))
		return cli_fail(EXIT_USAGE, "run: the program runs on the simulated machine (--backend sim)");
	if (o->sub && !o->arg)
		return cli_fail(EXIT_USAGE, "trace %s: expected %s", o->sub,
				!strcmp(o->sub, "gen") ? "a kind (stream, llc, burst, idle, qpi, cstate)" : "an input file");
	if (o->json && o->sep)
		return cli_fail(EXIT_USAGE, "-x and --json exclude each other");
	if (o->binary && o->text)
		return cli_fail(EXIT_USAGE, "--binary and --text exclude each other");
	if (!o->hw_root)
		o->hw_root = getenv("UNCORE_HW_ROOT");
	if (strcmp(o->backend, "sim") && strcmp(o->backend, "hw") && strncmp(o->backend, "replay:", 7))
		return cli_fail(EXIT_USAGE, "--backend: '%s' (expected sim, hw or replay:FILE)", o->backend);
	if (strcmp(o->backend, "sim") && (o->check || o->trace || strcmp(o->workload, "mixed") || o->ncbo || o->qpi_links ||
					  o->sockets || o->uclk_mhz || o->npci_bus || o->nnode_ids))
		return cli_fail(EXIT_USAGE,
				"--check, --trace, --workload, --ncbo, --qpi-links, --sockets, --uclk-mhz, --pci-bus and --node-ids need the sim backend");
	if (strcmp(o->cmd, "stat") &&
	    (o->events || o->metrics || o->interval_ms || o->sep || o->check || o->per_socket || o->trace))
		return cli_fail(EXIT_USAGE, "-e, -M, -I, -x, --per-socket, --trace and --check go with 'stat'");
	if (strcmp(o->cmd, "list") && o->list_metrics)
		return cli_fail(EXIT_USAGE, "--metrics goes with 'list' (stat takes -M NAME)");
	if (o->trace && strcmp(o->workload, "mixed"))
		return cli_fail(EXIT_USAGE, "--trace and --workload exclude each other");
	return 0;
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

static int sim_config(const struct opts *o, struct ucm_config *cfg, const struct uct_hdr *h)
{
	const struct ucm_platform *p;

	if (h) {
		/* the trace says what it was made for; options may only agree */
		p = h->plat;
		if (o->platform && strcasecmp(o->platform, p->name))
			return cli_fail(EXIT_USAGE, "--platform %s, but the trace is for %s", o->platform,
					p->name);
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
		if (h && h->ninst[bi] && h->ninst[bi] != o->ncbo)
			return cli_fail(EXIT_USAGE, "--ncbo %u, but the trace has %u", o->ncbo, h->ninst[bi]);
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

				if (strcmp(bt->name, link_types[t]) || bt->ninst_min == bt->ninst_max)
					continue;
				if (h && h->ninst[ucm_boxtype_index(p, bt)] &&
				    h->ninst[ucm_boxtype_index(p, bt)] != o->qpi_links)
					return cli_fail(EXIT_USAGE, "--qpi-links %u, but the trace has %u %s boxes",
							o->qpi_links, h->ninst[ucm_boxtype_index(p, bt)], bt->name);
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
			return cli_fail(EXIT_USAGE, "--sockets %u, but the trace has %u", o->sockets,
					h->sockets);
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
		memcpy(cfg->pci_bus, o->pci_bus, sizeof(cfg->pci_bus));
		memcpy(cfg->node_id, o->node_id, sizeof(cfg->node_id));
		/* a 0 given is a bus or a node ID, not "the default" */
		cfg->pci_bus_given = o->npci_bus != 0;
		cfg->node_id_given = o->nnode_ids != 0;
	}
	if (o->uclk_mhz) {
		uint64_t hz = (uint64_t)(o->uclk_mhz * 1e6);

		if (h && h->clock_hz[0] && h->clock_hz[0] != hz)
			return cli_fail(EXIT_USAGE, "--uclk-mhz, but the trace sets %llu Hz",
					(unsigned long long)h->clock_hz[0]);
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
		if ((rc = uct_open(o->trace, &mc->trace, err, sizeof(err))))
			return cli_fail(rc == -EINVAL ? EXIT_USAGE : 1, "--trace: %s", err);
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
			return cli_fail(1, "--backend hw: %s", err);
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

int machine_finish(struct machine *mc)
{
	char err[1024];

	if (mc->be != mc->base && ucb_rec_commit(mc->be, err, sizeof(err)))
		return cli_fail(1, "--record: %s", err);
	if (mc->replaying && ucb_replay_finish(mc->base, err, sizeof(err)))
		return cli_fail(1, "%s", err);
	return 0;
}

void machine_close(struct machine *mc)
{
	if (mc->be && mc->be != mc->base)
		ucb_destroy(mc->be);
	ucb_destroy(mc->base);
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

static int cmd_list(const struct opts *o, const struct ucm_platform *p, FILE *f)
{
	if (o->list_metrics)
		return list_metrics(o, p, f);
	if (o->json) {
		json_t *arr = json_array();
		char *s;

		for (unsigned i = 0; i < p->nevents; i++) {
			const struct ucm_event *e = &p->events[i];
			const struct ucm_evcode *ec = ucm_code_named(e->box, e->code);
			char ctrs[64];

			json_t *ev;

			counters_of(e, ctrs, sizeof(ctrs));
			ev = json_pack("{s:s, s:s?, s:s, s:i, s:i, s:i, s:s, s:i, s:s, s:s}", "name",
				       e->name, "alias", e->alias, "unit", e->box->name, "code",
				       (int)e->code, "umask", (int)e->umask, "thresh", (int)e->thresh,
				       "counters", ctrs, "max_inc", ec ? (int)ec->max_inc : 0,
				       "description", e->desc, "source", e->cite);
			if (ev && e->nfilt) {
				/* the filter register values the event needs (Table 2-92) */
				json_t *fl = json_object();

				for (unsigned k = 0; k < e->nfilt; k++)
					json_object_set_new(fl, filter_name(e, k), json_integer(e->filt[k].val));
				json_object_set_new(ev, "filters", fl);
			}
			json_array_append_new(arr, ev);
		}
		s = json_dumps(arr, JSON_INDENT(2));
		json_decref(arr);
		if (!s)
			return cli_fail(1, "out of memory");
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
		fprintf(f, "      [%s event=0x%02x umask=0x%02x%s%.0u", e->box->name, e->code, e->umask,
			e->thresh ? " thresh=" : "", e->thresh);
		for (unsigned k = 0; k < e->nfilt; k++)
			fprintf(f, " %s=0x%x", filter_name(e, k), e->filt[k].val);
		fprintf(f, " counters %s; %s]\n", ctrs, e->cite);
		fprintf(f, "      %s\n", e->desc);
	}
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
		rc = cli_fail(1, "%s", ucd_error(d));
	else if (ucd_dump_regs(d, f))
		rc = !o->out && stdout_reader_gone() ? 128 + SIGPIPE : cli_fail(1, "%s", ucd_error(d));
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
		return cli_fail(1, "--backend hw: %s", err);
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

/* SIGINT, SIGTERM and SIGHUP end a wait early (no SA_RESTART), so the
 * driver stops, restores every register it wrote, and the command exits. */
static void catch_signals(void)
{
	struct sigaction sa;

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
	int rc, c;

	rc = parse_args(argc, argv, &o);
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
							      cli_fail(1, "writing the allow-list failed");
		c = out_close(&out, rc == 0);
		return c ? c : rc;
	}
	if (!strcmp(o.cmd, "list")) {
		const struct ucm_platform *p = ucm_platform_find(o.platform ? o.platform : "skl");

		if (!p)
			return cli_fail(EXIT_USAGE, "--platform: unknown platform '%s'", o.platform);
		if ((rc = out_open(&out, o.out)))
			return rc;
		rc = cmd_list(&o, p, out.f);
		c = out_close(&out, rc == 0);
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
	if (!rc)
		rc = machine_finish(&mc);
	c = out_close(&out, rc == 0);
	if (c && !rc)
		rc = c;
	machine_close(&mc);
	if (got_signal) {
		fprintf(stderr, "uncore: interrupted by signal %d; every register written was restored\n",
			(int)got_signal);
		return 128 + got_signal;
	}
	return rc;
}
