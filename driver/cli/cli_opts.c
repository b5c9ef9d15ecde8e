/*
 * cli_opts.c - the options of the `uncore` command as one table: which
 * commands use each option, its value and its help.  The parser refuses an
 * option the command does not use or one given twice, and every help page
 * (`uncore --help`, `uncore stat --help`, ...) is printed from the same
 * table, so the two cannot disagree.  Usage errors exit 2 and name the
 * option.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_opts.h"
#include "cli_util.h"
#include "ucb_hw.h"
#include "ucm.h"
#include "uct_gen.h"

/* The commands, as bits of an option's `cmds`. */
enum {
	C_LIST = 1 << 0, C_STAT = 1 << 1, C_REGS = 1 << 2, C_GEN = 1 << 3, C_CONVERT = 1 << 4,
	C_INFO = 1 << 5, C_ALLOW = 1 << 6, C_RUN = 1 << 7,
	C_ALL = 0xff,
	/* what shapes the simulated machine */
	C_MACHINE = C_STAT | C_REGS | C_RUN,
	/* what reads or writes registers through a backend */
	C_BACKEND = C_STAT | C_REGS,
};

struct cli_cmd {
	const char *name;
	unsigned bit;
	const char *args;    /* after the name on the usage line */
	const char *summary; /* for the list of commands */
	const char *desc;    /* its page's paragraph */
};

static const struct cli_cmd cmds[] = {
	{ "list", C_LIST, "[options]", "the platform's events and derived metrics",
	  "The platform's events and derived metrics, with their descriptions (--metrics: the metrics "
	  "only)." },
	{ "stat", C_STAT, "[options]", "count events",
	  "Count events: on the simulator (a built-in workload or an event trace), a recorded session "
	  "(--backend replay:FILE) or this machine (--backend hw). SIGINT or SIGTERM ends the count "
	  "within 100 ms: the counts so far are printed (or written to -o), marked interrupted, every "
	  "register written is restored, and the exit status is 128 + the signal." },
	{ "regs", C_REGS, "[options]", "read and decode every uncore PMU register",
	  "Read and decode every uncore PMU register." },
	{ "trace gen", C_GEN, "KIND -o FILE [options]", "generate an event trace",
	  "Generate an event trace. KIND: stream, llc, burst, idle, cstate (every platform), qpi "
	  "(snbep, ivt). A trace is at most 1e5 s long, 2,000,000 slices (--duration x clock / "
	  "--period; UCT_GEN_MAX_SLICES) and 2,000,000 segments (UCT_GEN_MAX_SEGMENTS). SIGINT or SIGTERM stops it and removes the partial "
	  "file." },
	{ "trace convert", C_CONVERT, "IN -o OUT [options]", "convert an event trace",
	  "Convert an event trace between text and binary (default: to the other one). SIGINT or "
	  "SIGTERM stops it and removes the partial file." },
	{ "trace info", C_INFO, "IN [options]", "summarise an event trace",
	  "The header, length and fed totals of an event trace. SIGINT or SIGTERM stops it." },
	{ "allowlist", C_ALLOW, "[options]", "the platform's MSRs as an msr-safe allow-list",
	  "The platform's MSRs as an msr-safe allow-list (MSRs only; --backend hw: this CPU's "
	  "platform)." },
	{ "run", C_RUN, "[options] [--] PROGRAM [ARGS]", "run a program on the simulated machine",
	  "Run an unmodified program (PCM, likwid, rdmsr, setpci, ...) on the simulated machine: "
	  "CPUID, /proc, /sys, MSR, PCI and /dev/mem are the model's, and so is its clock "
	  "(docs/tools.md). Exits with the program's status; SIGINT or SIGTERM is passed on to the "
	  "program (even in a long simulated sleep), and the run then exits with 128 + the signal, "
	  "its reports marked interrupted." },
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

enum {
	O_PLATFORM = 256, O_BACKEND, O_JSON, O_DURATION, O_WORKLOAD, O_SEED, O_NCBO, O_SOCKETS, O_UCLK,
	O_PCI_BUS, O_NODE_IDS, O_CHECK, O_PER_SOCKET, O_PMI, O_FRZ, O_FORCE, O_VERSION, O_TRACE, O_RECORD,
	O_BINARY, O_TEXT, O_BW, O_RR, O_HR, O_LOOK, O_DUTY, O_BURST, O_PERIOD, O_HW_ROOT, O_HW_MSR,
	O_HW_PCI, O_METRICS, O_CLOCK, O_REPORT, O_REPORT_JSON, O_RUN_LOG, O_SAMPLE, O_QPI_LINKS,
	O_EVENT_FILE, O_VCD, O_EXCEED, O_RECFORM, O_NOCHUNKS, O_END
};

struct cli_opt {
	int id;             /* getopt's value: the letter, or O_* */
	const char *name;   /* the long name, NULL for a letter alone */
	const char *arg;    /* the value's name; NULL: a flag */
	unsigned cmds;      /* the commands that use it */
	const char *kinds;  /* trace gen: the kinds that use it (NULL: all) */
	const char *help;   /* wrapped at 79 columns */
};

/* An option may have a row per set of commands when its help differs. */
static const struct cli_opt opts[] = {
	{ O_PLATFORM, "platform", "NAME", C_STAT | C_REGS, NULL,
	  "skl, snbep or ivt (sim: default skl; hw: this CPU's)" },
	{ O_PLATFORM, "platform", "NAME", C_LIST | C_GEN | C_RUN, NULL, "skl, snbep or ivt (default skl)" },
	{ O_PLATFORM, "platform", "NAME", C_ALLOW, NULL,
	  "skl, snbep or ivt (default skl; --backend hw: this CPU's)" },
	{ O_BACKEND, "backend", "B", C_BACKEND, NULL,
	  "sim (default), hw (this machine) or replay:FILE (answer every register access from a "
	  "--record log)" },
	{ O_BACKEND, "backend", "B", C_ALLOW, NULL, "sim (default) or hw (this CPU's platform, from CPUID)" },
	{ O_HW_ROOT, "hw-root", "DIR", C_BACKEND | C_ALLOW, NULL,
	  "hw: find /dev, /sys, /proc under DIR (tests; or $UNCORE_HW_ROOT)" },
	{ O_HW_MSR, "hw-msr", "M", C_BACKEND | C_ALLOW, NULL, "hw: auto, msr (/dev/cpu/N/msr) or msr-safe" },
	{ O_HW_PCI, "hw-pci", "P", C_BACKEND | C_ALLOW, NULL, "hw: auto, sysfs or proc" },
	{ O_RECORD, "record", "FILE", C_BACKEND, NULL,
	  "log every register access to FILE (an access trace)" },
	{ O_FORCE, "force", NULL, C_BACKEND, NULL,
	  "take over counters in use, or program a CPU that does not identify as the platform" },
	{ 'o', NULL, "FILE", C_LIST | C_STAT | C_REGS | C_INFO | C_ALLOW, NULL,
	  "write the output to FILE (it appears only when complete)" },
	{ 'o', NULL, "FILE", C_GEN | C_CONVERT, NULL, "the trace to write (required; it appears only when complete)" },
	{ O_JSON, "json", NULL, C_LIST, NULL, "a JSON array" },
	{ O_JSON, "json", NULL, C_STAT, NULL, "one JSON object per count" },
	{ O_METRICS, "metrics", NULL, C_LIST, NULL, "the derived metrics only" },
	{ O_EVENT_FILE, "event-file", "FILE", C_LIST | C_STAT, NULL,
	  "an Intel perfmon uncore event file (JSON): its events by name; each entry the tables lack "
	  "or contradict is reported on stderr" },
	{ 'e', NULL, "EVENTS", C_STAT, NULL,
	  "comma-separated events, at most 64: manual names (UNC_CBO_CACHE_LOOKUP.ANY_MESI), aliases "
	  "(uclk, data_reads) or PMU/terms/ (cbo0/event=0x34,umask=0x8f/)" },
	{ 'M', NULL, "METRICS", C_STAT, NULL,
	  "comma-separated derived metrics ('uncore list --metrics'), or NAME=EXPR of your own "
	  "(parentheses nest at most 64 deep); counts their events (and -e's, if given) and prints "
	  "each metric" },
	{ 'I', NULL, "MS", C_STAT, NULL, "print counts every MS milliseconds (1 to 1e9)" },
	{ 'x', NULL, "SEP", C_STAT, NULL, "CSV-like output with separator SEP" },
	{ O_DURATION, "duration", "SEC", C_STAT, NULL,
	  "how long to count, at most 1e6 s (default 1; with --trace: the trace's length)" },
	{ O_DURATION, "duration", "SEC", C_GEN, NULL, "length of the trace, at most 1e5 s (default 1)" },
	{ O_PER_SOCKET, "per-socket", NULL, C_STAT, NULL, "counts per socket" },
	{ O_PMI, "pmi-cores", "MASK", C_STAT, NULL, "cores to interrupt on overflow (PMI_SEL)" },
	{ O_FRZ, "freeze-on-pmi", NULL, C_STAT, NULL, "let overflow freeze the counters (the driver re-arms)" },
	{ O_SAMPLE, "sample-period", "N", C_STAT, NULL,
	  "preload each counter that reports overflow so that it overflows every N events; list the "
	  "overflows" },
	{ O_CHECK, "check", NULL, C_STAT, NULL,
	  "sim: compare every count with the model's ground truth and fail on a difference or on any "
	  "strict-mode record" },
	{ O_VCD, "vcd", "FILE", C_STAT | C_RUN, NULL,
	  "sim: waveforms (a Value Change Dump) of every programmed counter, the status bits, the "
	  "freezes and each core's PMI line (it appears only when complete)" },
	{ O_WORKLOAD, "workload", "NAME", C_STAT | C_RUN, NULL,
	  "sim: built-in workload (mixed, stream, idle; default mixed)" },
	{ O_TRACE, "trace", "FILE", C_STAT | C_RUN, NULL, "sim: replay an event trace instead of a workload" },
	{ O_SEED, "seed", "N", C_STAT | C_RUN, NULL, "sim: workload seed (default 1)" },
	{ O_SEED, "seed", "N", C_GEN, NULL, "generator seed (default 1; the same seed, the same trace)" },
	{ O_NCBO, "ncbo", "N", C_MACHINE, NULL,
	  "sim: number of C-Boxes (skl 1-4, snbep 1-8, ivt 1-15; default all)" },
	{ O_NCBO, "ncbo", "N", C_GEN, NULL, "C-Boxes of the trace (skl 1-4, snbep 1-8, ivt 1-15; default all)" },
	{ O_QPI_LINKS, "qpi-links", "N", C_MACHINE, NULL, "sim, ivt: QPI ports and R3QPI links (1-3; default 2)" },
	{ O_SOCKETS, "sockets", "N", C_MACHINE, NULL, "sim: sockets (snbep, ivt 1-2, default 2; skl 1)" },
	{ O_SOCKETS, "sockets", "N", C_GEN, NULL, "sockets of the trace (snbep, ivt 1-2, default 2; skl 1)" },
	{ O_UCLK, "uclk-mhz", "F", C_MACHINE, NULL,
	  "sim: uncore clock, 100-10000 (default: skl 3000, snbep and ivt 2700)" },
	{ O_UCLK, "uclk-mhz", "F", C_GEN, NULL,
	  "uncore clock of the trace, 100-10000 (default: skl 3000, snbep and ivt 2700)" },
	{ O_PCI_BUS, "pci-bus", "B,B", C_MACHINE, NULL,
	  "sim: each socket's uncore PCI bus (default: snbep, ivt 0x3f,0x7f)" },
	{ O_NODE_IDS, "node-ids", "N,N", C_MACHINE, NULL, "sim: each socket's node ID, 0-7 (default 0,1)" },
	{ O_BINARY, "binary", NULL, C_GEN, NULL, "write the binary encoding (default text)" },
	{ O_BINARY, "binary", NULL, C_CONVERT, NULL, "write the binary encoding" },
	{ O_TEXT, "text", NULL, C_CONVERT, NULL, "write the text encoding" },
	{ O_RECFORM, "record-form", NULL, C_CONVERT, NULL,
	  "write the binary encoding in the record form (every record holding its inputs, as readers "
	  "before the vector form take it)" },
	{ O_NOCHUNKS, "no-chunks", NULL, C_CONVERT, NULL,
	  "write the binary vector form without chunks (each new vector's inputs and each sleep mask "
	  "whole, as readers before chunks take it)" },
	{ O_BW, "bandwidth", "GBPS", C_GEN, "stream qpi",
	  "stream, qpi: bandwidth in 1e9 bytes/s over all sockets (default 10)" },
	{ O_RR, "read-ratio", "R", C_GEN, "stream qpi", "stream, qpi: share of reads (default 0.7)" },
	{ O_HR, "hit-ratio", "R", C_GEN, "llc cstate",
	  "llc: share of lookups that hit (default 0.9); cstate: share of a core's idle time in C3 "
	  "(the rest C6)" },
	{ O_LOOK, "lookups", "L", C_GEN, "llc", "llc: lookups per cycle per CBo (default 0.25)" },
	{ O_EXCEED, "exceed-limits", NULL, C_GEN, NULL,
	  "go beyond the part's physical limits (DRAM channels and transfer rate, QPI link rate, "
	  "LLC lookups), up to what the model's events count: stress traces that want fast wraps" },
	{ O_EXCEED, "exceed-limits", NULL, C_STAT | C_RUN, NULL,
	  "sim: run a workload beyond the part's DRAM bandwidth (a higher --uclk-mhz feeds its "
	  "per-cycle inputs faster)" },
	{ O_DUTY, "duty", "D", C_GEN, "burst cstate",
	  "burst: share of time streaming (default 0.2); cstate: share of time a core is in C0" },
	{ O_BURST, "burst-us", "US", C_GEN, "burst", "burst: length of a burst, 0.001 to 1e11 (default 10)" },
	{ O_PERIOD, "period", "CYCLES", C_GEN, "stream llc idle qpi cstate",
	  "stream, llc, idle, qpi, cstate: slice length, 1 to 2^40 (default 300000)" },
	{ O_CLOCK, "clock", "C", C_RUN, NULL,
	  "sim: the program's clocks and sleeps are the machine's (default; faster than real time); "
	  "wall: the machine follows the wall clock" },
	{ O_REPORT, "report", "FILE", C_RUN, NULL,
	  "at exit (and on SIGUSR1), the ground truth of every counter the program read, what the "
	  "workload fed and the undefined programming it did, as text" },
	{ O_REPORT_JSON, "report-json", "FILE", C_RUN, NULL, "the same as JSON" },
	{ O_RUN_LOG, "log", NULL, C_RUN, NULL, "the preload library reports what it serves (stderr)" },
	{ 'h', "help", NULL, C_ALL, NULL, "this page" },
	{ O_VERSION, "version", NULL, C_ALL, NULL, "the version" },
};
#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static const char *prog = "uncore";

/* "-o" or "--platform": how an option is written. */
static const char *opt_spelling(const struct cli_opt *op, char buf[40])
{
	if (op->name)
		snprintf(buf, 40, "--%s", op->name);
	else
		snprintf(buf, 40, "-%c", (char)op->id);
	return buf;
}

static const struct cli_cmd *cmd_named(const char *name)
{
	for (unsigned i = 0; i < NCMDS; i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

/* Text wrapped at column 79, its lines after the first indented by
 * `indent` spaces; `col` is where the first line starts. */
static void put_wrapped(FILE *f, const char *text, int col, int indent)
{
	const char *p = text;

	while (*p) {
		size_t w = strcspn(p, " ");

		if (col > indent && col + 1 + (int)w > 79) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (p != text) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)w, p);
		col += (int)w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

/* One option line: the spelling and value padded to column 23, then the
 * help, continued at column 23. */
static void put_option(FILE *f, const struct cli_opt *op)
{
	char b[40], head[64];

	if (op->id < 256 && op->name)
		snprintf(head, sizeof(head), "-%c, --%s%s%s", op->id, op->name, op->arg ? " " : "",
			 op->arg ? op->arg : "");
	else
		snprintf(head, sizeof(head), "%s%s%s", opt_spelling(op, b), op->arg ? " " : "",
			 op->arg ? op->arg : "");
	if (strlen(head) > 20)
		fprintf(f, "  %s\n%23s", head, "");
	else
		fprintf(f, "  %-21s", head);
	put_wrapped(f, op->help, 23, 23);
}

/* A command's page: its usage line, what it does, then its options. */
static void cmd_help(FILE *f, const struct cli_cmd *c)
{
	fprintf(f, "usage: %s %s %s\n\n", prog, c->name, c->args);
	put_wrapped(f, c->desc, 0, 0);
	fprintf(f, "\noptions:\n");
	for (unsigned i = 0; i < NOPTS; i++)
		if (opts[i].cmds & c->bit)
			put_option(f, &opts[i]);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s <command> [options]\n\ncommands:\n", prog);
	for (unsigned i = 0; i < NCMDS; i++) {
		char head[64];

		snprintf(head, sizeof(head), "%s %s", cmds[i].name, cmds[i].args);
		if (strlen(head) > 34)
			fprintf(f, "  %s\n%37s", head, "");
		else
			fprintf(f, "  %-35s", head);
		put_wrapped(f, cmds[i].summary, 37, 37);
	}
	fprintf(f, "\n'%s COMMAND --help' (or '%s help COMMAND') lists a command's options.\n"
		   "Exit status: 0 success, 1 a run-time error, 2 a usage error, 128 + N after\n"
		   "signal N (130 SIGINT, 143 SIGTERM, 141 a closed pipe).  docs/usage.md has\n"
		   "every option and output format.\n",
		prog, prog);
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
		return cli_fail(EXIT_USAGE, "%s: %s out of range (1-%u)", opt, s, max);
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

/* A finite number, >= 0 (or > 0 unless zero_ok): inf and nan are not. */
static int parse_double(const char *opt, const char *s, double *v, int zero_ok)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || !*s || *end || !isfinite(*v) || *v < 0 || (!zero_ok && *v == 0))
		return cli_fail(EXIT_USAGE, "%s: '%s' is not a finite %s number", opt, s,
				zero_ok ? "non-negative" : "positive");
	return 0;
}

/* A share or a rate per cycle: a finite number from 0 to 1. */
static int parse_share(const char *opt, const char *s, double *v)
{
	int rc;

	if ((rc = parse_double(opt, s, v, 1)))
		return rc;
	if (*v > 1)
		return cli_fail(EXIT_USAGE, "%s: %s is outside 0 to 1", opt, s);
	return 0;
}

/* The option getopt_long refused.  Inside a cluster (-qx) optind has not
 * moved past the word, so argv[optind - 1] would name the word before it:
 * name the letter of a short option, the word of a long one. */
static const char *refused(char *const *argv, int word, char buf[40])
{
	if (!strncmp(argv[word], "--", 2))
		return argv[word];
	buf[0] = '-';
	buf[1] = (char)optopt;
	buf[2] = 0;
	return buf;
}

/* The row of option id for command bit c, or NULL when c does not use it. */
static const struct cli_opt *opt_for(int id, unsigned c)
{
	for (unsigned i = 0; i < NOPTS; i++)
		if (opts[i].id == id && (opts[i].cmds & c))
			return &opts[i];
	return NULL;
}

static const struct cli_opt *opt_any(int id)
{
	for (unsigned i = 0; i < NOPTS; i++)
		if (opts[i].id == id)
			return &opts[i];
	return NULL;
}

/* "an option of stat, regs and run" */
static void cmds_of(int id, char *buf, size_t n)
{
	unsigned mask = 0, cnt = 0, seen = 0;
	size_t len = 0;

	for (unsigned i = 0; i < NOPTS; i++)
		if (opts[i].id == id)
			mask |= opts[i].cmds;
	for (unsigned i = 0; i < NCMDS; i++)
		cnt += (mask & cmds[i].bit) != 0;
	buf[0] = 0;
	for (unsigned i = 0; i < NCMDS && len < n; i++) {
		if (!(mask & cmds[i].bit))
			continue;
		seen++;
		len += (size_t)snprintf(buf + len, n - len, "%s%s", seen == 1 ? "" : seen == cnt ? " and " : ", ",
					cmds[i].name);
	}
}

/* Whether two output paths are one file: the same text, the same regular
 * file (through links or other spellings), or, for a file not there yet,
 * the same name in the same directory. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	int ea, eb;

	if (!strcmp(a, b))
		return 1;
	ea = stat(a, &sa) == 0;
	eb = stat(b, &sb) == 0;
	if (ea && eb)
		return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea || eb)
		return 0;
	{
		char da[PATH_MAX], db[PATH_MAX], ra[PATH_MAX], rb[PATH_MAX], fa[PATH_MAX], fb[PATH_MAX];

		snprintf(da, sizeof(da), "%s", a);
		snprintf(db, sizeof(db), "%s", b);
		snprintf(fa, sizeof(fa), "%s", a);
		snprintf(fb, sizeof(fb), "%s", b);
		if (!realpath(dirname(da), ra) || !realpath(dirname(db), rb))
			return 0;
		return !strcmp(ra, rb) && !strcmp(basename(fa), basename(fb));
	}
}

/* Whether trace gen KIND uses the option. */
static int gen_kind_uses(const struct cli_opt *op, const char *kind)
{
	size_t n = strlen(kind);

	if (!op->kinds)
		return 1;
	for (const char *p = op->kinds; (p = strstr(p, kind)); p += n)
		if ((p == op->kinds || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
	return 0;
}

static int known_kind(const char *kind)
{
	for (const char *const *k = uct_gen_kinds(); *k; k++)
		if (!strcmp(*k, kind))
			return 1;
	return 0;
}

void cli_gen_settings(const struct opts *o, char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < NOPTS && k < n; i++) {
		const struct cli_opt *op = &opts[i];
		double v;

		if (!op->kinds || !gen_kind_uses(op, o->arg))
			continue;
		switch (op->id) {
		case O_BW: v = o->gen.gbps; break;
		case O_RR: v = o->gen.read_ratio; break;
		case O_HR: v = o->gen.hit_ratio; break;
		case O_LOOK: v = o->gen.lookups; break;
		case O_DUTY: v = o->gen.duty; break;
		case O_BURST: v = (double)o->gen.burst_ns / 1000; break;
		default: continue;
		}
		k += (size_t)snprintf(buf + k, n - k, "%s--%s %g", k ? " " : "", op->name, v);
	}
}

int cli_parse(int argc, char **argv, struct opts *o)
{
	static struct option lo[NOPTS + 1];
	static char shorts[64];
	const struct cli_cmd *cmd;
	/* where each option was given first (argv index, 0: not given) */
	int first[O_END] = { 0 };
	const char *first_val[O_END] = { 0 };
	int c, rc, start = 2, word;
	char opt[40], cmdname[32];
	double x;

	memset(o, 0, sizeof(*o));
	o->backend = "sim";
	o->duration_s = 1.0;
	o->seed = 1;
	o->workload = "mixed";
	o->gen = (struct uct_gen_opts){ NULL, 1.0, 10.0, 0.7, 0.9, 0.25, 0.2, 10000, 0, 1, 0 };
	if (!lo[0].name) {
		unsigned n = 0, k = 0;

		shorts[k++] = '+';
		shorts[k++] = ':';
		for (unsigned i = 0; i < NOPTS; i++) {
			int dup = 0;

			for (unsigned j = 0; j < i; j++)
				dup |= opts[j].id == opts[i].id;
			if (dup)
				continue;
			if (opts[i].id < 256) {
				shorts[k++] = (char)opts[i].id;
				if (opts[i].arg)
					shorts[k++] = ':';
			}
			if (opts[i].name)
				lo[n++] = (struct option){ opts[i].name, opts[i].arg ? required_argument : no_argument,
							   0, opts[i].id };
		}
		shorts[k] = 0;
	}
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		if (argc > 2 && !strcmp(argv[1], "help")) {
			snprintf(cmdname, sizeof(cmdname), "%s%s%s", argv[2], argc > 3 ? " " : "", argc > 3 ? argv[3] : "");
			if (!(cmd = cmd_named(cmdname)))
				return cli_fail(EXIT_USAGE, "help: unknown command '%s'", cmdname);
			cmd_help(stdout, cmd);
			return -1;
		}
		usage(stdout);
		return -1;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("uncore 0.1.0\n");
		return -1;
	}
	o->cmd = argv[1];
	if (!strcmp(o->cmd, "trace")) {
		if (argc >= 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			printf("usage: %s trace gen|convert|info ...\n\n", prog);
			for (unsigned i = 0; i < NCMDS; i++)
				if (!strncmp(cmds[i].name, "trace ", 6))
					printf("  %s %s %s\n", prog, cmds[i].name, cmds[i].args);
			printf("\n'%s trace SUBCOMMAND --help' lists its options.\n", prog);
			return -1;
		}
		if (argc >= 3 && argv[2][0] == '-')
			return cli_fail(EXIT_USAGE, "trace: '%s' before the subcommand: expected gen, convert or info "
					"first (see '%s trace gen --help')", argv[2], prog);
		if (argc < 3 || (strcmp(argv[2], "gen") && strcmp(argv[2], "convert") && strcmp(argv[2], "info")))
			return cli_fail(EXIT_USAGE, "trace: expected gen, convert or info");
		o->sub = argv[2];
		start = 3;
		snprintf(cmdname, sizeof(cmdname), "trace %s", o->sub);
	} else {
		snprintf(cmdname, sizeof(cmdname), "%s", o->cmd);
	}
	if (!(cmd = cmd_named(cmdname)))
		return cli_fail(EXIT_USAGE, "unknown command '%s' (expected list, stat, regs, trace, allowlist or run)",
				o->cmd);
	optind = start;
	opterr = 0;
	if (o->sub && optind < argc && argv[optind][0] != '-')
		o->arg = argv[optind++];
	while ((word = optind, c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct cli_opt *op;

		if (c == ':')
			return cli_fail(EXIT_USAGE, "option '%s' needs a value", refused(argv, word, opt));
		if (c == '?' || !(op = opt_any(c)))
			return cli_fail(EXIT_USAGE, "unknown option '%s' (see '%s %s --help')",
					refused(argv, word, opt), prog, cmd->name);
		if (c == 'h') {
			cmd_help(stdout, cmd);
			return -1;
		}
		if (c == O_VERSION) {
			printf("uncore 0.1.0\n");
			return -1;
		}
		if (!(op = opt_for(c, cmd->bit))) {
			char list[128];

			cmds_of(c, list, sizeof(list));
			return cli_fail(EXIT_USAGE, "%s: not an option of '%s' (it goes with %s; see '%s %s --help')",
					opt_spelling(opt_any(c), opt), cmd->name, list, prog, cmd->name);
		}
		/* no option is repeatable: a second one is an error, not the winner */
		if (first[c]) {
			if (op->arg)
				return cli_fail(EXIT_USAGE, "%s: given twice, as '%s' and as '%s' (it takes one value)",
						opt_spelling(op, opt), first_val[c], optarg);
			return cli_fail(EXIT_USAGE, "%s: given twice (arguments %d and %d)", opt_spelling(op, opt),
					first[c], word);
		}
		first[c] = word;
		first_val[c] = optarg;
		switch (c) {
		case 'e': o->events = optarg; break;
		case 'M': o->metrics = optarg; break;
		case O_METRICS: o->list_metrics = 1; break;
		case O_EVENT_FILE: o->event_file = optarg; break;
		case 'I':
			if ((rc = parse_u64("-I", optarg, &o->interval_ms)))
				return rc;
			if (!o->interval_ms || o->interval_ms > 1000000000)
				return cli_fail(EXIT_USAGE, "-I: %s ms is outside 1 to 1e9 ms (1e6 s, the longest run)",
						optarg);
			break;
		case 'x':
			if (!*optarg)
				return cli_fail(EXIT_USAGE, "-x: empty separator");
			o->sep = optarg;
			break;
		case 'o': o->out = optarg; break;
		case O_PLATFORM: o->platform = optarg; break;
		case O_BACKEND:
			if (strcmp(optarg, "sim") && strcmp(optarg, "hw") && strncmp(optarg, "replay:", 7))
				return cli_fail(EXIT_USAGE, "--backend: '%s' (expected sim, hw or replay:FILE)", optarg);
			if (cmd->bit == C_ALLOW && strcmp(optarg, "sim") && strcmp(optarg, "hw"))
				return cli_fail(EXIT_USAGE,
						"--backend: '%s': allowlist reads no register (expected sim or hw)", optarg);
			if (!strcmp(optarg, "replay:"))
				return cli_fail(EXIT_USAGE, "--backend: 'replay:' names no log file");
			o->backend = optarg;
			break;
		case O_JSON: o->json = 1; break;
		case O_DURATION: {
			double most = cmd->bit == C_GEN ? 1e5 : 1e6;

			if ((rc = parse_double("--duration", optarg, &o->duration_s, 0)))
				return rc;
			if (o->duration_s > most)
				return cli_fail(EXIT_USAGE, "--duration: %s s is more than %s s, the longest %s", optarg,
						cmd->bit == C_GEN ? "1e5" : "1e6",
						cmd->bit == C_GEN ? "trace gen writes" : "run");
			o->have_duration = 1;
			o->gen.seconds = o->duration_s;
			break;
		}
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
		case O_TRACE: o->trace = optarg; break;
		case O_RECORD: o->record = optarg; break;
		case O_BINARY: o->binary = o->binary ? o->binary : UCT_BINARY; break;
		case O_RECFORM: o->binary = UCT_BINARY_RECORDS; break;
		case O_NOCHUNKS: o->binary = UCT_BINARY_VECTORS; break;
		case O_TEXT: o->text = 1; break;
		case O_BW:
			if ((rc = parse_double("--bandwidth", optarg, &o->gen.gbps, 1)))
				return rc;
			break;
		case O_RR:
			if ((rc = parse_share("--read-ratio", optarg, &o->gen.read_ratio)))
				return rc;
			break;
		case O_HR:
			if ((rc = parse_share("--hit-ratio", optarg, &o->gen.hit_ratio)))
				return rc;
			break;
		case O_LOOK:
			if ((rc = parse_share("--lookups", optarg, &o->gen.lookups)))
				return rc;
			break;
		case O_DUTY:
			if ((rc = parse_share("--duty", optarg, &o->gen.duty)))
				return rc;
			break;
		case O_BURST:
			if ((rc = parse_double("--burst-us", optarg, &x, 0)))
				return rc;
			/* in whole nanoseconds, and no longer than the longest trace */
			if (x < 0.001 || x > 1e11)
				return cli_fail(EXIT_USAGE, "--burst-us: %s is outside 0.001 (1 ns) to 1e11 (1e5 s)",
						optarg);
			o->gen.burst_ns = (uint64_t)(x * 1000);
			break;
		case O_PERIOD:
			if ((rc = parse_u64("--period", optarg, &o->gen.period)))
				return rc;
			if (!o->gen.period)
				return cli_fail(EXIT_USAGE, "--period: 0 cycles; a slice is at least 1 cycle");
			/* a slice's jitter (+-25%) must stay within 64 bits */
			if (o->gen.period > (1ull << 40))
				return cli_fail(EXIT_USAGE, "--period: %s cycles is more than 2^40", optarg);
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
		case O_VCD: o->vcd = optarg; break;
		case O_EXCEED: o->gen.exceed = 1; break;
		case O_REPORT_JSON: o->report_json = optarg; break;
		case O_RUN_LOG: o->run_log = 1; break;
		}
		/* options may follow a positional argument */
		if (optind < argc && argv[optind][0] != '-' && o->sub && !o->arg)
			o->arg = argv[optind++];
	}
	if (optind < argc && o->sub && !o->arg)
		o->arg = argv[optind++];
	if (cmd->bit == C_RUN) {
		/* getopt stopped at the program (or after "--") */
		if (optind >= argc)
			return cli_fail(EXIT_USAGE, "run: expected a program to run (uncore run [options] -- PROGRAM [ARGS])");
		o->run_argv = argv + optind;
		optind = argc;
	}
	if (optind < argc)
		return cli_fail(EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
	if (o->sub && !o->arg)
		return cli_fail(EXIT_USAGE, "trace %s: expected %s", o->sub,
				!strcmp(o->sub, "gen") ? "a kind (stream, llc, burst, idle, qpi, cstate)" : "an input file");
	/* a generator option the kind does not use is refused like any other */
	if (cmd->bit == C_GEN && known_kind(o->arg))
		for (unsigned i = 0; i < NOPTS; i++)
			if (opts[i].kinds && (opts[i].cmds & C_GEN) && first[opts[i].id] &&
			    !gen_kind_uses(&opts[i], o->arg))
				return cli_fail(EXIT_USAGE, "%s: trace gen %s does not use it (%s)",
						opt_spelling(&opts[i], opt), o->arg, opts[i].help);
	if (o->json && o->sep)
		return cli_fail(EXIT_USAGE, "-x and --json exclude each other");
	if (o->binary && o->text)
		return cli_fail(EXIT_USAGE, "--binary and --text exclude each other");
	if (first[O_RECFORM] && first[O_NOCHUNKS])
		return cli_fail(EXIT_USAGE, "--record-form and --no-chunks exclude each other");
	if (!o->hw_root)
		o->hw_root = getenv("UNCORE_HW_ROOT");
	if (strcmp(o->backend, "sim") && (o->check || o->trace || first[O_WORKLOAD] || o->ncbo || o->qpi_links ||
					  o->sockets || o->uclk_mhz || o->npci_bus || o->nnode_ids))
		return cli_fail(EXIT_USAGE,
				"--check, --trace, --workload, --ncbo, --qpi-links, --sockets, --uclk-mhz, --pci-bus and --node-ids need the sim backend");
	if (o->vcd && strcmp(o->backend, "sim"))
		return cli_fail(EXIT_USAGE, "--vcd: waveforms are the simulator's (--backend sim)");
	if (o->trace && first[O_WORKLOAD])
		return cli_fail(EXIT_USAGE, "--trace and --workload exclude each other");
	/* two outputs into one file: one would replace the other */
	{
		static const int outs[] = { 'o', O_RECORD, O_REPORT, O_REPORT_JSON, O_VCD };
		const char *path[5] = { o->out, o->record, o->report, o->report_json, o->vcd };
		char o2[40];

		for (unsigned i = 0; i < 5; i++)
			for (unsigned j = i + 1; j < 5; j++)
				if (path[i] && path[j] && same_file(path[i], path[j]))
					return cli_fail(EXIT_USAGE, "%s %s and %s %s: the same file for two outputs",
							opt_spelling(opt_any(outs[i]), opt), path[i],
							opt_spelling(opt_any(outs[j]), o2), path[j]);
	}
	return 0;
}
