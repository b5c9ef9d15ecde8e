/*
 * ucd.h - the reference uncore driver.
 *
 * The driver discovers the platform through a backend (CPUID, then the
 * platform's identifying PCI device, then the box counts the hardware
 * reports), parses events by manual name or perf-style raw syntax, places
 * them on counters within the event tables' restrictions, programs, starts,
 * samples and stops them in the manual's order, accumulates wrap-safe 64-bit
 * totals and restores every register it changed.  It reads the register
 * layout of the platform from the same tables as the model and never asks
 * which backend it runs on.
 */
#ifndef UCD_H
#define UCD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ucb.h"
#include "ucm_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ucd;

struct ucd_opts {
	const char *platform;   /* NULL: detect */
	int force;              /* accept a platform that does not match */
	uint32_t pmi_cores;     /* cores to interrupt on overflow (PMI_SEL) */
	int freeze_on_pmi;      /* FRZ_ON_PMI: hardware freezes, driver re-arms */
	int wake_on_pmi;        /* WAKE_ON_PMI (set anyway while the driver waits for PMIs) */
	/* Sampling: preload every counter that reports overflow so that it
	 * overflows every sample_period events, and note when (0: count). */
	uint64_t sample_period;
};

/* On failure *out may still be set, so that ucd_error() can say why; it
 * must then be released with ucd_close(). */
int ucd_open(struct ucb *be, const struct ucd_opts *o, struct ucd **out);
void ucd_close(struct ucd *d);
const char *ucd_error(const struct ucd *d);
const struct ucm_platform *ucd_platform(const struct ucd *d);
/* CPUID vendor string, family and model (SDM leaf 1 with the extended
 * fields) of the backend's cpu 0; 0 or the backend's negative errno. */
int ucd_cpu_identify(struct ucb *be, char vendor[13], unsigned *family, unsigned *model);
/* The platform whose uncore that CPU has, or NULL. */
const struct ucm_platform *ucd_platform_for_cpu(const char *vendor, unsigned family, unsigned model);
unsigned ucd_sockets(const struct ucd *d);
unsigned ucd_ninst(const struct ucd *d, const struct ucm_boxtype *bt);
/* The MMIO window found behind the platform's BAR, 0 if none. */
uint64_t ucd_mmio_base(const struct ucd *d);

/* Add a comma-separated list of events.  Names: manual names
 * (UNC_CBO_CACHE_LOOKUP.ANY_MESI, counted in every instance and summed),
 * aliases (uclk, data_reads), or PMU/terms/ as in perf
 * (cbo0/event=0x34,umask=0x8f,thresh=1,inv,edge/, cbo/.../ for every CBo,
 * imc/data_reads/).  Errors name the token and its column in the string. */
int ucd_add_events(struct ucd *d, const char *list);
/* Linux perf's names (the platform's struct ucm_perfpmu tables): an event
 * string accepts perf's PMU names (uncore_cbox_0, uncore_cbox for every
 * CBo, uncore_imc, uncore_qpi_1, ...) with exactly the format terms, the
 * widths and the event aliases the kernel defines for that PMU.  The perf
 * spelling of a named event ("uncore_cbox/event=0x34,umask=0x8f/") in buf:
 * 1, or 0 when perf's formats cannot say it (filter register values, a
 * box without a perf PMU). */
int ucd_perf_name(const struct ucm_platform *p, const struct ucm_event *e, char *buf, size_t n);
/* A perf PMU's format names, comma-separated. */
void ucd_perf_formats(const struct ucm_perfpmu *pm, char *buf, size_t n);

/* ---- Intel's perfmon event files (ucd_evfile.c, docs/formats.md) ----
 * A file of github.com/intel/perfmon's uncore format is read and every
 * entry checked against platform p's tables: LOADED entries become named
 * events; KNOWN ones are a row the tables already have, under that name;
 * REPORTED ones are not used, and say why. */
enum { UCD_EF_LOADED, UCD_EF_KNOWN, UCD_EF_REPORTED };
struct ucd_evfile_entry {
	size_t index;                  /* 0-based, in the file's "Events" */
	const char *name;              /* its EventName, NULL if it has none */
	int status;                    /* UCD_EF_* */
	const char *reason;            /* REPORTED: why */
	const struct ucm_event *event; /* LOADED: the event made; KNOWN: the row */
};
struct ucd_evfile;
/* The largest event file read (Intel's largest uncore file is some 3 MB). */
#define UCD_EVFILE_MAX_BYTES (32u << 20)
/* 0; or, with a message naming path in err: -EINVAL, "FILE:LINE:COL:
 * jansson's message" (or a file-level reason); -EFBIG, more than
 * UCD_EVFILE_MAX_BYTES; -EINTR, a stop request (ucb_stop_on) came while
 * reading or checking; -errno of an open or read (-EISDIR: a directory);
 * -ENOMEM. */
int ucd_evfile_load(const struct ucm_platform *p, const char *path, struct ucd_evfile **out,
		    char *err, size_t n);
void ucd_evfile_free(struct ucd_evfile *f);
size_t ucd_evfile_nentries(const struct ucd_evfile *f);
const struct ucd_evfile_entry *ucd_evfile_entry(const struct ucd_evfile *f, size_t i);
const struct ucm_event *ucd_evfile_events(const struct ucd_evfile *f, size_t *n);
/* d's event strings also take the loaded events' names (after the tables'
 * own); f must outlive d.  -EINVAL if f was read for another platform. */
int ucd_use_evfile(struct ucd *d, const struct ucd_evfile *f);
/* Named events besides the platform's, for d's event strings (NULL: none). */
void ucd_set_xevents(struct ucd *d, const struct ucm_event *ev, size_t n);

/* The platform's default event set for a bare 'stat'. */
const char *ucd_default_events(const struct ucd *d);

int ucd_start(struct ucd *d);
int ucd_sample(struct ucd *d);
int ucd_stop(struct ucd *d);
/* Write back every register as it was before the first write. */
int ucd_restore(struct ucd *d);

/* Run for duration_ns, sampling often enough for wrap safety; call back
 * every interval_ns (0: only at the end) after a sample.  A callback that
 * returns > 0 ends the run early (stop and final callback follow); < 0 is
 * an error.  A wait the backend ends with -EINTR (a stop request,
 * ucb_stop_on) ends the run the same way, and ucd_run then returns -EINTR:
 * the counts so far are read and valid. */
typedef int (*ucd_interval_fn)(struct ucd *d, void *ctx, uint64_t elapsed_ns);
int ucd_run(struct ucd *d, uint64_t duration_ns, uint64_t interval_ns, ucd_interval_fn fn,
	    void *ctx);
/* A check ucd_run makes every check_ns without reading the counters (the
 * end of a replayed trace): a nonzero return ends the run as a callback's
 * > 0 does.  Reads stay as often as wrap safety and interval_ns ask.  fn
 * NULL: none. */
typedef int (*ucd_end_fn)(void *ctx);
void ucd_set_end_check(struct ucd *d, uint64_t check_ns, ucd_end_fn fn, void *ctx);

/* ---- results ---- */
struct ucd_evinfo {
	const char *name;        /* as given */
	const char *canonical;   /* manual name, or the raw encoding */
	const struct ucm_boxtype *box;
	int inst;                /* -1: every instance */
	uint64_t total;          /* summed over instances and sockets */
	uint64_t interval;       /* since the previous ucd_mark_interval */
	unsigned ncounters;
	uint8_t bytes;           /* bytes per count, 0 if not a traffic event */
	int dram;                /* exact DRAM transfers: part of total bandwidth */
	int is_clock;            /* counts a clock: metric is a frequency */
};
size_t ucd_nevents(const struct ucd *d);
int ucd_event(const struct ucd *d, size_t i, struct ucd_evinfo *ei);
uint64_t ucd_event_socket_total(const struct ucd *d, size_t i, unsigned socket);
void ucd_mark_interval(struct ucd *d);
/* Time from start to the latest sample. */
uint64_t ucd_elapsed_ns(const struct ucd *d);

struct ucd_ctrinfo {
	size_t event;
	unsigned socket;
	const struct ucm_boxinst *box;
	unsigned ctr;
	uint64_t total, last_raw;
};
size_t ucd_ncounters(const struct ucd *d);
int ucd_counter(const struct ucd *d, size_t i, struct ucd_ctrinfo *ci);

/* Longest interval between reads that still counts every wrap, from the
 * counters' widths, worst-case increments and worst-case clocks. */
uint64_t ucd_safe_interval_ns(const struct ucd *d);
/* Overflow notices seen in the global status, and freezes re-armed. */
uint64_t ucd_overflows(const struct ucd *d);
uint64_t ucd_freezes(const struct ucd *d);
/* Whether the session waits for PMIs (the counters that report overflow
 * are not polled), and how many PMIs ended a wait. */
int ucd_pmi_driven(const struct ucd *d);
/* How often ucd_run reads: half the safe interval of the counters it must
 * poll (UINT64_MAX: none). */
uint64_t ucd_poll_interval_ns(const struct ucd *d);
uint64_t ucd_pmis(const struct ucd *d);

/* The samples of a sampling session, in order; *dropped: those past the
 * driver's limit, counted but not kept. */
struct ucd_sampleinfo {
	uint64_t t_ns;           /* the PMI, since start */
	uint64_t rearm_ns;       /* counting resumed, since start (0: no freeze) */
	size_t event;            /* index for ucd_event() */
	unsigned socket;
	const struct ucm_boxinst *box;
	unsigned counter;
	uint64_t total;          /* the counter's count when the PMI was served */
};
size_t ucd_nsamples(const struct ucd *d, uint64_t *dropped);
int ucd_sample_get(const struct ucd *d, size_t i, struct ucd_sampleinfo *si);

/* Read every register of the platform (no writes) and print it with its
 * decoded fields, one register per line. */
int ucd_dump_regs(struct ucd *d, FILE *out);

/* ---- derived metrics (ucd_metric.c) ----
 *
 * A metric is an expression over event counts (docs/usage.md, "Metrics"):
 * numbers (64, 1.5, 1e9, 0x40), + - * / with the usual precedence, unary
 * minus, parentheses, events in brackets in the -e syntax
 * ([imc/CAS_COUNT.RD/], [cbo/TOR_OCCUPANCY.MISS_OPCODE,filter_opc=0x182/]),
 * and SAMPLE_INTERVAL_S, the seconds the counts cover.  A division by zero
 * is NaN, whatever the dividend.  A set of metrics collects the events of
 * all its metrics, each distinct event text once; the caller adds them to a
 * session with one ucd_add_events() and evaluates after a run.
 *
 *	ms = ucd_metrics_new();
 *	ucd_metrics_select(ms, ucd_platform(d), "MEM_BW_READS,PCT_RD_REQUESTS");
 *	list = ucd_metrics_plan(ms, d);            events d does not have yet
 *	if (*list && ucd_add_events(d, list))
 *		ucd_metrics_explain(ms, ucd_error(d), buf, sizeof(buf));
 *	ucd_metrics_bind(ms, d);
 *	ucd_run(...);
 *	v = ucd_metrics_value(ms, 0, d, UCD_MS_TOTAL, 0, ucd_elapsed_ns(d));
 */
struct ucd_metrics;

struct ucd_metrics *ucd_metrics_new(void);
void ucd_metrics_free(struct ucd_metrics *ms);
/* The message of the last failure: which metric, which column, why. */
const char *ucd_metrics_error(const struct ucd_metrics *ms);
/* Parse expr as a metric.  Errors name the metric and the 1-based column
 * in expr (plus col_base, for an expression inside a longer argument). */
int ucd_metrics_add(struct ucd_metrics *ms, const char *name, const char *unit, const char *expr,
		    size_t col_base);
/* A comma-separated list of the platform's metrics (NAME, or BOX.NAME when
 * two boxes define NAME) and NAME=EXPR for one of the caller's own; each
 * added once.  Errors name the item and its column in list. */
int ucd_metrics_select(struct ucd_metrics *ms, const struct ucm_platform *p, const char *list);
size_t ucd_metrics_count(const struct ucd_metrics *ms);
const char *ucd_metrics_name(const struct ucd_metrics *ms, size_t i);
const char *ucd_metrics_unit(const struct ucd_metrics *ms, size_t i);
const char *ucd_metrics_expr(const struct ucd_metrics *ms, size_t i);
/* The distinct events of the set, in first-use order. */
size_t ucd_metrics_nevents(const struct ucd_metrics *ms);
const char *ucd_metrics_event(const struct ucd_metrics *ms, size_t k);

/* The events d does not have yet (compared by their text with the names
 * events were added by), comma-separated for ucd_add_events(); "" when d
 * has them all.  NULL and an error if out of memory. */
const char *ucd_metrics_plan(struct ucd_metrics *ms, const struct ucd *d);
/* After that ucd_add_events() succeeded: the metrics read d's events. */
int ucd_metrics_bind(struct ucd_metrics *ms, const struct ucd *d);
/* Rewrite an error of that ucd_add_events() (whose columns count in the
 * planned list) to name the metric and the column in its expression. */
void ucd_metrics_explain(const struct ucd_metrics *ms, const char *err, char *buf, size_t n);

enum ucd_mscope {
	UCD_MS_TOTAL,      /* whole run: the events' totals */
	UCD_MS_INTERVAL,   /* since the previous ucd_mark_interval() */
	UCD_MS_SOCKET,     /* whole run, one socket's counters */
};
/* Metric i of a bound set from d's counts; span_ns is SAMPLE_INTERVAL_S. */
double ucd_metrics_value(const struct ucd_metrics *ms, size_t i, const struct ucd *d,
			 enum ucd_mscope scope, unsigned socket, uint64_t span_ns);
/* Metric i from given values: vals[k] is the count of ucd_metrics_event(k). */
double ucd_metrics_eval(const struct ucd_metrics *ms, size_t i, const double *vals,
			double seconds);

/* A platform metric by NAME or BOX.NAME (case-insensitive), NULL if none
 * or if NAME is defined by two boxes; why says which (may be NULL). */
const struct ucm_metric *ucd_metric_find(const struct ucm_platform *p, const char *name,
					 size_t len, char *why, size_t n);
/* NAME, or BOX.NAME when another box defines NAME too. */
const char *ucd_metric_display(const struct ucm_platform *p, const struct ucm_metric *m,
			       char *buf, size_t n);

#ifdef __cplusplus
}
#endif

#endif
