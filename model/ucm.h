/*
 * ucm.h - public interface of the uncore PMU model.
 *
 * The model holds the register state of one platform (any number of
 * sockets), a clock per clock domain and the input signals (sub-event
 * increments per cycle) of every box.  Register accesses go through one
 * generic path that applies the access masks of the platform tables; time
 * advances with the workload and by a configurable cost per access.
 *
 * All functions returning int return 0 or a negative errno; ucm_error()
 * then gives a message naming what went wrong.
 */
#ifndef UCM_H
#define UCM_H

#include <stddef.h>
#include <stdint.h>

#include "ucm_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UCM_MAXCLK 4
#define UCM_MAXBT 24     /* box types of a platform (ivt: 17) */
#define UCM_MAXCORES 64
#define UCM_MAXSOCK 8   /* node IDs are 3 bits (Xeon GIDNIDMAP) */

struct ucm_model;

struct ucm_config {
	const struct ucm_platform *plat;
	unsigned sockets;                 /* 0: 1 */
	unsigned cpus_per_socket;         /* 0: platform ncores */
	unsigned ninst[UCM_MAXBT];        /* per box type, 0: default */
	uint64_t clock_hz[UCM_MAXCLK];    /* 0: default */
	uint64_t access_ps[UCM_NSPACES];  /* time cost per access */
	uint64_t bar;                     /* 0: platform default */
	uint16_t devid;                   /* 0: platform's first */
	int strict;                       /* record undefined programming */
	/* where the firmware put each socket: its uncore PCI bus and its node
	 * ID (0-7); all 0: the platform's buses, socket i is node i */
	uint8_t pci_bus[UCM_MAXSOCK];
	uint8_t node_id[UCM_MAXSOCK];
	/* the arrays above hold the values to use even where they are 0
	 * (otherwise all 0 means the platform's defaults) */
	uint8_t pci_bus_given, node_id_given;
};

/* Default access costs, picoseconds: a /dev/cpu/N/msr pread, a sysfs PCI
 * config pread and an uncached MMIO load, roughly. */
#define UCM_COST_MSR_PS 1000000u
#define UCM_COST_PCI_PS 2000000u
#define UCM_COST_MMIO_PS 200000u

void ucm_config_init(struct ucm_config *cfg, const struct ucm_platform *plat);
int ucm_create(const struct ucm_config *cfg, struct ucm_model **out);
void ucm_destroy(struct ucm_model *m);
const char *ucm_error(const struct ucm_model *m);
const struct ucm_platform *ucm_platform_of(const struct ucm_model *m);
unsigned ucm_nsockets(const struct ucm_model *m);
/* The uncore PCI bus and the node ID of a socket (ucm_config.pci_bus,
 * node_id). */
unsigned ucm_pci_bus(const struct ucm_model *m, unsigned socket);
unsigned ucm_node_id(const struct ucm_model *m, unsigned socket);
unsigned ucm_cpus_per_socket(const struct ucm_model *m);
/* Hardware reset: every register to its reset value, counters to 0. */
void ucm_reset(struct ucm_model *m);
/* Return a model (one ucm_create succeeded for) to exactly the state
 * ucm_create left it in, with the same configuration: time 0 on every
 * clock, every register at its reset value, counters, ground truth, fed
 * totals, inputs and their attributes as new, no PMI or freeze counted,
 * every core awake, no strict-mode record (strict mode as configured), no
 * workload, observer or PMI hook, no error, no phase.  Nothing is
 * allocated: it costs a copy of the registers' reset values and of the
 * counters as ucm_create compiled them, plus the sub-events whose inputs
 * or attributes were set, so a caller running many short sessions on one
 * configuration (the fuzzers) keeps one model instead of creating one per
 * session. */
void ucm_restart(struct ucm_model *m);

/* ---- platforms ---- */
const struct ucm_platform *ucm_platform_find(const char *name);
const struct ucm_platform *const *ucm_platforms(size_t *n);

/* ---- register access (the hardware interface) ---- */
/* MSR access on a logical cpu; -EIO for an unimplemented MSR (#GP). */
int ucm_msr_read(struct ucm_model *m, unsigned cpu, uint32_t addr, uint64_t *val);
int ucm_msr_write(struct ucm_model *m, unsigned cpu, uint32_t addr, uint64_t val);
/* PCI config access of 1, 2, 4 or 8 bytes; -ENODEV for an absent device
 * (the value then reads as all ones, as a master abort). */
int ucm_pci_read(struct ucm_model *m, unsigned seg, unsigned bus, unsigned dev,
		 unsigned fn, unsigned off, unsigned width, uint64_t *val);
int ucm_pci_write(struct ucm_model *m, unsigned seg, unsigned bus, unsigned dev,
		  unsigned fn, unsigned off, unsigned width, uint64_t val);
/* MMIO access of 4 or 8 bytes; -ENXIO outside every enabled BAR window. */
int ucm_mmio_read(struct ucm_model *m, uint64_t pa, unsigned width, uint64_t *val);
int ucm_mmio_write(struct ucm_model *m, uint64_t pa, unsigned width, uint64_t val);
/* Which socket's MMIO window decodes pa, and the offset in it (the key of
 * ucm_reginfo's MMIO registers); -ENXIO outside every enabled window. */
int ucm_mmio_where(struct ucm_model *m, uint64_t pa, unsigned width, unsigned *socket, uint64_t *off);
/* Debug access: no time cost, no side effect (no W1C, no action, no
 * ground-truth read).  ucm_peek takes a register key (see ucm_reginfo);
 * the others take the addresses of the ordinary accessors. */
int ucm_peek(struct ucm_model *m, unsigned space, unsigned socket, uint64_t key,
	     uint64_t *val);
/* The same by register index (ucm_reginfo's order), without a lookup: for
 * harnesses that read every register after every operation. */
int ucm_peek_index(struct ucm_model *m, size_t i, uint64_t *val);
/* The access path by register index: a read or write of the whole
 * register as its MSR, PCI or MMIO access would be (time cost, side
 * effects, ground truth of reads, the observer), without decoding an
 * address: for harnesses and tests that program or read every register. */
int ucm_read_index(struct ucm_model *m, size_t i, uint64_t *val);
int ucm_write_index(struct ucm_model *m, size_t i, uint64_t val);
/* Registers first .. first + n - 1 (ucm_reginfo's order) into vals[0..n),
 * each as ucm_peek_index reads it, in one call: for a caller that reads
 * every register often (the fuzzers, after every operation).  -ENOENT
 * past the last register, nothing read. */
int ucm_peek_regs(struct ucm_model *m, size_t first, size_t n, uint64_t *vals);
int ucm_msr_peek(struct ucm_model *m, unsigned cpu, uint32_t addr, uint64_t *val);
int ucm_pci_peek(struct ucm_model *m, unsigned seg, unsigned bus, unsigned dev, unsigned fn,
		 unsigned off, unsigned width, uint64_t *val);
int ucm_mmio_peek(struct ucm_model *m, uint64_t pa, unsigned width, uint64_t *val);

/* ---- register enumeration (dumps, allow-lists, tests) ---- */
struct ucm_reginfo {
	char name[48];
	unsigned space, socket;
	uint64_t addr;     /* MSR address, PCI (bus<<20|dev<<15|fn<<12|off), MMIO offset from BAR */
	unsigned kind, idx, width;
	const struct ucm_layout *layout;
	const struct ucm_boxinst *box;
	uint64_t reset, rw_mask, ro_mask, w1c_mask, wo_mask, rsvd_mask;
};
size_t ucm_nregs(const struct ucm_model *m);
int ucm_reginfo(const struct ucm_model *m, size_t i, struct ucm_reginfo *ri);
uint64_t ucm_pci_key(unsigned bus, unsigned dev, unsigned fn, unsigned off);

/* ---- boxes and inputs ---- */
/* Box handles are small integers: index of the instance in the model. */
int ucm_box_find(const struct ucm_model *m, unsigned socket, const char *type,
		 unsigned inst);
unsigned ucm_box_count(const struct ucm_model *m);
/* The box's definition and socket (NULL, 0 for a handle the model has
 * not). */
const struct ucm_boxinst *ucm_box_def(const struct ucm_model *m, int box);
unsigned ucm_box_socket(const struct ucm_model *m, int box);
unsigned ucm_ninst(const struct ucm_model *m, const struct ucm_boxtype *bt);
/* Sub-event index by "CODE.SUB" (or "CODE" for a single sub-event). */
int ucm_subev_find(const struct ucm_boxtype *bt, const char *name);
unsigned ucm_subev_count(const struct ucm_boxtype *bt);
/* Name of sub-event i ("CACHE_LOOKUP.READ_M") into buf. */
const char *ucm_subev_name(const struct ucm_boxtype *bt, unsigned i, char *buf, size_t n);
const struct ucm_evcode *ucm_subev_code(const struct ucm_boxtype *bt, unsigned i);
/* Set the constant per-cycle increment of a sub-event in a box.  Rejected
 * (-ERANGE) when the event code's inputs would exceed its max increment. */
int ucm_set_input(struct ucm_model *m, int box, unsigned sub, uint32_t inc);
/* The increment set (0 for a bad box or sub-event). */
uint32_t ucm_get_input(const struct ucm_model *m, int box, unsigned sub);
/* How many counters a change of this input reaches: those whose programmed
 * selection sums it or takes it as their occupancy (the work an input
 * change costs, docs/performance.md); 0 for a bad box or sub-event. */
unsigned ucm_input_fanout(const struct ucm_model *m, int box, unsigned sub);
/* Run-time attribute of a sub-event (enum ucm_attr) that box filters compare
 * with: the thread that issues it, the node it targets, the frequency...
 * Starts as the table's value (UCM_ATTR_NONE where it has none). */
int ucm_set_input_attr(struct ucm_model *m, int box, unsigned sub, unsigned attr, uint64_t v);
/* The attribute in effect (UCM_ATTR_NONE for a bad box, sub-event or
 * attribute). */
uint64_t ucm_get_input_attr(const struct ucm_model *m, int box, unsigned sub, unsigned attr);
void ucm_clear_inputs(struct ucm_model *m);

/* ---- phases: whole input vectors given once, entered many times ---- */
/* One input of a phase: box handle, sub-event index, increment per cycle. */
struct ucm_phase_in {
	int box;
	unsigned sub;
	uint32_t inc;
};
#define UCM_MAXPHASES 65536u
/* Define a phase: the input vector in which the listed sub-events have
 * these increments and every other sub-event 0 (a sub-event listed twice:
 * the last entry counts).  Checked once, here, against each event's
 * maximum (-ERANGE), the boxes and sub-events (-ENOENT) and UCM_MAXPHASES
 * (-ENOSPC).  Returns the phase's id, 0, 1, 2... in order of definition. */
int ucm_phase_define(struct ucm_model *m, const struct ucm_phase_in *in, size_t n);
/* An attribute a phase gives a sub-event (enum ucm_attr) while it is
 * entered. */
struct ucm_phase_attr {
	int box;
	unsigned sub;
	unsigned attr;
	uint64_t v;
};
/* The same with attributes: while the phase is entered, the listed
 * attributes of the listed sub-events have these values; when another
 * phase is entered or ucm_clear_inputs() is called, they return to the
 * values ucm_set_input_attr() gave (or the tables'), and ucm_set_input_attr()
 * of an attribute the phase holds changes the value it returns to.  A
 * trace's per-segment attributes (the thread, node or frequency band of
 * the requests) are such; set this way instead of by ucm_set_input_attr()
 * they do not end the summing of phases (-ENOENT for a bad attribute). */
int ucm_phase_define_attrs(struct ucm_model *m, const struct ucm_phase_in *in, size_t n,
			   const struct ucm_phase_attr *at, size_t nat);
/* A phase built from box vectors: a box vector is one box's part of an
 * input vector (its inputs, each in[].box == box, and the attributes the
 * phase gives them, each at[].box == box), checked as above and stored
 * once however many phases hold it: defining one again returns its id.
 * A source whose vectors share boxes' parts (a trace's per-box-type
 * inputs) defines each part once and a phase as the list of their ids,
 * at most one per box (-EINVAL), in any order.  ucm_phase_define_attrs()
 * is in effect that, per box of its inputs. */
int ucm_boxvec_define(struct ucm_model *m, int box, const struct ucm_phase_in *in, size_t n,
		      const struct ucm_phase_attr *at, size_t nat);
int ucm_phase_define_boxvecs(struct ucm_model *m, const int *ids, size_t n);
unsigned ucm_phase_count(const struct ucm_model *m);
/* Enter a phase: in effect and in every count exactly ucm_clear_inputs()
 * then ucm_set_input() of each of its inputs.  While no register is
 * accessed, time over any number of phase changes costs a few operations
 * per change, whatever the number of inputs and counters: each counter's
 * output in each phase is summed in closed form when it is next looked at
 * (docs/performance.md, "Phases"). */
int ucm_phase_enter(struct ucm_model *m, int id);
/* For a workload source inside its call (ucm_set_workload): run the phase
 * entered up to t_ps at once if the model is summing phases and nothing
 * can happen before t_ps (it is before the time being run to and no later
 * than an overflow could be), and return 1: the source may then enter its
 * next phase in the same call.  Returns 0, running nothing, otherwise:
 * the source returns t_ps as its next change, as usual.  The same counts
 * either way; a source of many short phases saves a call per phase. */
int ucm_phase_run(struct ucm_model *m, uint64_t t_ps);
/* A phase to enter and the cycle of a clock it runs to (ucm_phase_steps). */
struct ucm_step {
	int id;
	uint64_t end;
};
/* For a workload source inside its call: ucm_phase_enter(s[i].id) then
 * ucm_phase_run(the time cycle s[i].end of the clock completes) for i = 0,
 * 1, ... while that run would happen; returns how many ran (0..n),
 * nothing done for the others: the source enters the first of them and
 * returns its time, as usual.  The same counts; a source of many short
 * phases saves a call, its checks and a conversion to time per phase
 * (and a clock whose boxes have the same box vectors in every phase
 * defined is not stepped per phase at all).
 * No PMI is delivered inside it (it only sums time, never past where a
 * counter could wrap), so the cores' sleep states, which only a PMI's
 * delivery reads, may be set after it as the last step run left them. */
size_t ucm_phase_steps(struct ucm_model *m, unsigned clock, const struct ucm_step *s, size_t n);
/* How many epochs of summed phases the model has run (work accounting for
 * benchmarks and tests: 0 means every phase was set input by input). */
uint64_t ucm_phase_epochs(const struct ucm_model *m);

/* ---- time ---- */
uint64_t ucm_now_ps(const struct ucm_model *m);
uint64_t ucm_cycles(const struct ucm_model *m, unsigned clock);
uint64_t ucm_clock_hz(const struct ucm_model *m, unsigned clock);
/* Advance by whole cycles of a clock domain, or by picoseconds. */
int ucm_run_cycles(struct ucm_model *m, unsigned clock, uint64_t n);
int ucm_run_ps(struct ucm_model *m, uint64_t ps);
/* The same, but stop as soon as a PMI reaches a core (*pmi = 1): simulated
 * time is then the PMI's. */
int ucm_run_ps_pmi(struct ucm_model *m, uint64_t ps, int *pmi);
/* Advance to absolute time t (no-op when t is not after now). */
int ucm_advance(struct ucm_model *m, uint64_t t_ps);
/* A workload source: called whenever time reaches *next_ps; sets inputs
 * and returns the time of its next change in *next_ps (UINT64_MAX: none). */
typedef int (*ucm_workload_fn)(struct ucm_model *m, void *ctx, uint64_t now_ps,
			       uint64_t *next_ps);
void ucm_set_workload(struct ucm_model *m, ucm_workload_fn fn, void *ctx);
/* For workload sources: the message a failing source returns with, so the
 * access that ran it reports why. */
int ucm_set_error(struct ucm_model *m, int rc, const char *msg);

/* ---- interrupts ---- */
struct ucm_pmi_stats {
	uint64_t requests;    /* PMI requests raised by the uncore */
	uint64_t delivered;   /* interrupts delivered to this core */
	uint64_t wakes;       /* times this core was woken to take one */
	uint64_t dropped;     /* requests not delivered: core asleep, no wake */
	uint64_t last_ps;     /* time of the last delivery */
};
void ucm_core_sleep(struct ucm_model *m, unsigned socket, unsigned core, int asleep);
int ucm_core_asleep(const struct ucm_model *m, unsigned socket, unsigned core);
void ucm_pmi_stats(const struct ucm_model *m, unsigned socket, unsigned core,
		   struct ucm_pmi_stats *st);
uint64_t ucm_pmi_requests(const struct ucm_model *m, unsigned socket);
/* The socket's global freeze (FRZ_ALL, or an overflow on a platform whose
 * overflows freeze): 1 while frozen; and how many overflows froze it. */
int ucm_global_frozen(const struct ucm_model *m, unsigned socket);
uint64_t ucm_overflow_freezes(const struct ucm_model *m, unsigned socket);
/* Called for every PMI delivered to a core (after a wake, if any). */
typedef void (*ucm_pmi_fn)(void *ctx, unsigned socket, unsigned core, uint64_t t_ps);
void ucm_set_pmi_hook(struct ucm_model *m, ucm_pmi_fn fn, void *ctx);

/* ---- observation (waveforms, tracing tools) ---- */
/* Why an observer is called: after a register access completed (with its
 * side effects), after a workload changed the inputs, and when a counter
 * with OVF_EN wrapped (status bits, PMI and freeze have then changed).
 * Between these points the state changes only as counters count. */
enum ucm_obs_point { UCM_OBS_ACCESS, UCM_OBS_INPUT, UCM_OBS_OVERFLOW };
/* The observer may read the model (peek, truth, stats), never change it or
 * run time. fn NULL: none. */
typedef void (*ucm_obs_fn)(void *ctx, struct ucm_model *m, unsigned point, uint64_t t_ps);
void ucm_set_observer(struct ucm_model *m, ucm_obs_fn fn, void *ctx);
/* A box's own freeze (box control FRZ, where it has one): 1 while frozen. */
int ucm_box_frozen(const struct ucm_model *m, int box);

/* ---- ground truth ---- */
struct ucm_truth {
	uint64_t total;       /* increments the counter received, unwrapped */
	uint64_t first_read;  /* total at the first read since ucm_truth_mark */
	uint64_t last_read;   /* total at the latest read */
	uint64_t reads;       /* reads since the mark */
	uint64_t wraps;       /* times the counter wrapped */
	uint64_t first_value; /* the counter's value at the first read since the mark */
	uint64_t last_value;  /* and at the latest */
	uint64_t first_ps, last_ps;  /* machine time of those reads */
	uint64_t write_total; /* total when the counter was last set to a value
				 (written, or reset by its box) */
	uint64_t write_ps;    /* when; 0: not since the mark */
	uint64_t since_set;   /* at the latest read: counted since the counter
				 was last set, or since power-on */
	uint64_t prev_read, prev_ps; /* total and time at the read before the
					latest: the last interval of a sampler */
};
void ucm_truth_mark(struct ucm_model *m);
int ucm_truth(const struct ucm_model *m, int box, unsigned ctr, struct ucm_truth *t);
/* Increments fed to a sub-event of a box since creation (0 for a bad box
 * or sub-event). */
uint64_t ucm_fed(const struct ucm_model *m, int box, unsigned sub);

/* ---- strict mode ---- */
struct ucm_strict_rec {
	uint64_t time_ps;
	unsigned space, socket;
	uint64_t addr, value;
	char reg[48];
	char rule[192];        /* what the manual says, with its citation */
};
void ucm_set_strict(struct ucm_model *m, int on);
size_t ucm_strict_count(const struct ucm_model *m);
const struct ucm_strict_rec *ucm_strict_get(const struct ucm_model *m, size_t i);
void ucm_strict_clear(struct ucm_model *m);
/* One line describing record i, for messages. */
int ucm_strict_format(const struct ucm_model *m, size_t i, char *buf, size_t n);

/* ---- descriptor helpers shared with the driver ---- */
const struct ucm_field *ucm_layout_field(const struct ucm_layout *l, unsigned role);
uint64_t ucm_field_mask(const struct ucm_field *f);
uint64_t ucm_field_get(const struct ucm_field *f, uint64_t v);
uint64_t ucm_field_put(const struct ucm_field *f, uint64_t v, uint64_t x);
/* The code an EV_SEL value selects (never a fixed counter's code). */
const struct ucm_evcode *ucm_code_find(const struct ucm_boxtype *bt, unsigned code);
/* The code of a named event: as ucm_code_find, else a fixed counter's. */
const struct ucm_evcode *ucm_code_named(const struct ucm_boxtype *bt, unsigned code);
const struct ucm_regdef *ucm_regdef_find(const struct ucm_boxtype *bt, unsigned kind,
					 unsigned idx);
const struct ucm_boxtype *ucm_boxtype_find(const struct ucm_platform *p, const char *name);
int ucm_boxtype_index(const struct ucm_platform *p, const struct ucm_boxtype *bt);
/* The manual's rules for a counter control value (threshold pipeline, event
 * table, counter restriction unless ctr < 0, umask groups): 0 if valid,
 * else -EINVAL and the rule broken in why. */
int ucm_ctl_check(const struct ucm_boxtype *bt, const struct ucm_layout *l, int ctr,
		  uint64_t val, char *why, size_t n);
/* The event code a control value programs (EV_SEL plus the extra select
 * bit) and, where EV_SEL bit 7 asks for an occupancy sub-counter (PCU), that
 * sub-counter's code in *occ.  NULL: no such code. */
const struct ucm_evcode *ucm_ctl_code(const struct ucm_boxtype *bt, const struct ucm_layout *l,
				      uint64_t val, unsigned *code, const struct ucm_evcode **occ);
/* Whether a umask selects sub-event sub of a code; the umask bits defined. */
int ucm_umask_selects(const struct ucm_evcode *ec, unsigned sub, uint64_t umask);
uint64_t ucm_umask_defined(const struct ucm_evcode *ec);

#ifdef __cplusplus
}
#endif

#endif
