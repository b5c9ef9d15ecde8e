/*
 * ucm_internal.h - model state shared by the core files (not installed).
 */
#ifndef UCM_INTERNAL_H
#define UCM_INTERNAL_H

#include "ucm.h"

typedef unsigned __int128 ucm_u128;

#define UCM_MAXCTR 8

struct ucm_box;

/* A filter rule reduced, for one control value, to a comparison of a
 * sub-event attribute with the box's filter registers as they are
 * (ucm_count.c). */
struct ucm_rule_cmp {
	uint8_t kind;
	uint8_t attr;
	uint64_t fv, mask;
};

/* A register instance with masks derived once from its layout. */
struct ucm_reg {
	const struct ucm_regdef *def;
	struct ucm_box *box;
	uint8_t space, bytes;
	uint64_t key;            /* decoded address, see ucm_reginfo */
	uint64_t val;            /* stored bits (RW, RO, RW1C) */
	uint64_t reset, rw, ro, w1c, wo, rsvd;
	int8_t role[UCM_NROLES];  /* field index of each role in the layout, -1: none */
};

struct ucm_ctr {
	uint64_t val;            /* counter value, < 2^width, as of cycle c0 */
	uint64_t wmask;          /* 2^width - 1 */
	struct ucm_reg *ctl;     /* control register or NULL */
	struct ucm_reg *reg;     /* the counter register */
	struct ucm_box *box;
	uint8_t idx, clock, wbits; /* counter number in its box, clock domain, width */
	uint8_t prev_cmp;        /* edge detector latch */
	/* ground truth (as of cycle c0, like val) */
	uint64_t total, first_read, last_read, reads, wraps;
	uint64_t first_value, last_value; /* the counter at those reads */
	uint64_t first_ps, last_ps;       /* and when */
	uint64_t write_total;    /* total when the counter was last set (written, reset) */
	uint64_t write_ps;       /* when; 0: never since the mark */
	uint64_t last_since;     /* total - write_total at the latest read */
	uint64_t prev_read, prev_ps; /* total and time at the read before the latest */
	/* What the control and filter registers select, compiled when they are
	 * written (ucm_count.c): the sub-events summed (the box's selmask bits
	 * in [sel_first, sel_first + sel_n)), the occupancy sub-event, and the
	 * pipeline's parameters, so that an input change costs O(1) here. */
	uint16_t sel_first, sel_n;
	int32_t occ_sub;         /* -1: none */
	const struct ucm_evcode *sel_ec; /* the code summed, NULL: none */
	uint64_t sel_umask;      /* its umask; sel_all: every sub-event (fixed counters) */
	uint8_t sel_all, nrc;
	struct ucm_rule_cmp rc[UCM_MAXRULES]; /* its filter rules: an attribute change
					       * rechecks one sub-event with them */
	uint64_t thr;
	uint8_t mode;            /* enum ucm_ctr_mode */
	uint8_t konst;           /* a clock code: 1 every cycle, no inputs */
	uint8_t inv, occ_inv, edge, ovf_en;
	uint8_t counting;        /* enabled, not frozen, globally enabled */
	/* per-cycle output under the current inputs */
	uint32_t inc;            /* raw selected increment */
	uint32_t occ;            /* occupancy sub-counter value (PCU) */
	uint8_t cmp, cmp_valid;  /* threshold compare, and whether there is one */
	uint64_t first, steady;  /* output of the first cycle after c0, of each later one */
	/* lazy counting: val/total/wraps hold what was counted up to cycle c0
	 * of the counter's clock; the cycles since are added when the counter
	 * is read, written, changes rate or overflows */
	uint64_t c0;
	uint64_t wrap_ps;        /* time of the next wrap with OVF_EN (event queue key) */
	int32_t heap_pos;        /* position in the model's event queue, -1: none */
	/* the most it can add in a cycle whatever the inputs (ucm_phase.c: how
	 * soon it can wrap while phases are summed) */
	uint64_t rmax;
};

/* How a counter's pipeline runs (Xeon Table 2-75/2-80 for the PCU modes). */
enum ucm_ctr_mode {
	UCM_CM_PLAIN,     /* increment -> THRESH/INV -> edge */
	UCM_CM_OCC,       /* occupancy sub-counter -> THRESH/OCC_INV -> OCC_EDGE */
	UCM_CM_OCC_AND,   /* base event (INV: not) and occupancy compare -> edge */
};

/* What an input change reads and writes of a sub-event, in one place (two
 * sub-events a cache line). */
struct ucm_sub {
	uint64_t fed;            /* increments fed up to cycle c0 of the box clock: the
				  * ground truth is brought up to date when the input changes */
	uint64_t c0;
	uint32_t input;          /* current per-cycle increment */
	uint16_t code;           /* index of its code in the box type */
	uint16_t act_pos;        /* position + 1 in the box's act[], 0: input is 0 */
	uint8_t selmask;         /* the counters whose increment sums it */
	uint8_t occmask;         /* the counters whose occupancy it is */
	uint8_t touched;         /* in the model's touched[] (ucm_restart) */
};

struct ucm_codestate {
	uint64_t sum;            /* the sum of its sub-events' inputs */
	uint32_t max;            /* its maximum per cycle (the table's max_inc) */
	uint16_t first;          /* its first sub-event */
};

struct ucm_box {
	/* what an input change reads first, together (one or two cache lines) */
	const struct ucm_boxinst *def;
	unsigned nsub, nact;
	struct ucm_sub *sub;     /* per sub-event */
	struct ucm_codestate *code; /* per event code of the box type */
	uint16_t *act;           /* the sub-events with a nonzero input */
	/* the rest */
	unsigned socket, index, subbase;
	int present;
	int frz_en, frozen;      /* box-level freeze (where the box has one) */
	struct ucm_reg *filt[UCM_MAXFILT], *boxctl;  /* filter registers by .idx */
	struct ucm_reg *boxstatus;   /* per-counter overflow bits (IVT), or NULL */
	int8_t st_bit[UCM_MAXCTR];   /* each counter's bit in boxstatus, -1: none */
	uint64_t *attr;          /* UCM_NATTR run-time attributes per sub-event */
	struct ucm_ctr ctr[UCM_MAXCTR];
	/* as ucm_create left them, for ucm_restart: the counters (nctr), and
	 * the sub-events their selections marked (sub << 16 | selmask << 8 |
	 * occmask) */
	struct ucm_ctr *fresh;
	uint32_t *fresh_sub;
	unsigned nfresh_sub;
};

/* A box vector (ucm_boxvec_define): one box's part of an input vector,
 * stored once however many phases share it.  Its nonzero inputs, sorted by
 * sub-event, are entries [first, first + n) of the model's phent[]. */
struct ucm_phent {
	uint32_t box;
	uint32_t sub;
	uint32_t inc;
	uint32_t ov;             /* its attributes in the phase: phov[ov - 1], 0: none */
};

/* Attributes a phase gives a sub-event while it is entered (the bits of
 * mask, values in v), as a definition gives them. */
struct ucm_phov {
	uint32_t box, sub;
	uint32_t mask;
	uint64_t v[UCM_NATTR];
};

/* The same as a box vector stores them (most give one or two of the
 * UCM_NATTR attributes): the values of mask's bits, in their order, are
 * the model's phov_v[vi, vi + popcount(mask)). */
struct ucm_ovrec {
	uint32_t box, sub;
	uint32_t mask;
	uint32_t vi;
};

struct ucm_bvec {
	uint32_t box;
	uint32_t first, n;        /* its inputs, phent[] */
	uint32_t ov_first, ov_n;  /* its attributes, phov[], sorted by sub-event */
	uint32_t clock;           /* its box's */
	uint64_t hash;            /* of box, inputs and attributes (interning) */
};

/* A phase: its box vectors, ids phbv[first, first + n), sorted by box. */
struct ucm_phdef {
	uint32_t first, n;
	uint32_t ov_n;            /* attributes over all its box vectors */
};

struct ucm_socket {
	struct ucm_reg *gctl, *gstatus, *bar;
	int gfrozen;             /* global freeze (FRZ_ALL, UCM_OVF_FREEZE) */
	uint64_t pmi_requests, freezes;
	struct ucm_pmi_stats pmi[UCM_MAXCORES];
	uint8_t asleep[UCM_MAXCORES];
};

struct ucm_model {
	struct ucm_config cfg;
	const struct ucm_platform *plat;
	unsigned nsockets, ncores;
	uint8_t bus[UCM_MAXSOCK], node[UCM_MAXSOCK]; /* each socket's PCI bus, node ID */
	unsigned ninst[UCM_MAXBT];
	/* registers, and per-space indexes sorted by (socket, key) */
	size_t nregs;
	struct ucm_reg *regs;
	struct ucm_reg **sorted[UCM_NSPACES];
	size_t nsorted[UCM_NSPACES];
	/* MSR decode: open addressing on (socket, address), a power of two */
	struct ucm_reg **msr_hash;
	size_t msr_hmask;
	/* boxes */
	unsigned nboxes;
	struct ucm_box *boxes;
	struct ucm_socket *sockets;
	/* time */
	uint64_t now_ps;
	uint64_t clk_hz[UCM_MAXCLK];
	uint64_t clk_cycles[UCM_MAXCLK];
	uint64_t clk_num[UCM_MAXCLK], clk_den[UCM_MAXCLK]; /* hz/10^12 reduced: cycles = t * num / den */
	uint64_t clk_dtmax[UCM_MAXCLK]; /* the longest step whose dt * num + den fits 64 bits */
	/* event queue: the counters that overflow with OVF_EN, by wrap time */
	struct ucm_ctr **heap;
	unsigned nheap;
	ucm_workload_fn wl_fn;
	void *wl_ctx;
	uint64_t wl_next;
	uint64_t wl_until;       /* the time being run to when the workload is called */
	int in_workload;
	/* ucm_run_ps_pmi: stop advancing once a PMI reaches a core; pmi_hit
	 * stays set (pending) from a PMI until a wait takes it */
	int stop_on_pmi, pmi_hit;
	ucm_pmi_fn pmi_fn;
	void *pmi_ctx;
	ucm_obs_fn obs_fn;           /* ucm_set_observer */
	void *obs_ctx;
	/* phases (defined: ucm_phase_def.c; epochs: ucm_phase.c,
	 * ucm_phase_time.c); the arrays that grow with the phases and box
	 * vectors defined are ucm_grow's (ucm_grow.h) */
	struct ucm_phdef *ph;
	unsigned nph, capph;
	/* per clock, whether every phase defined has the same box vectors on
	 * it (its boxes' part of the phase): 0 no phase yet, 1 the same (the
	 * part: one_ids[d][0, one_n[d])), 2 not (ucm_phase_steps steps only
	 * the clocks at 2) */
	uint8_t nparts[UCM_MAXCLK];
	uint32_t *one_ids[UCM_MAXCLK];
	uint32_t one_n[UCM_MAXCLK], one_cap[UCM_MAXCLK];
	uint32_t *phbv;
	size_t nphbv, capphbv;
	struct ucm_bvec *bv;
	uint32_t nbv, capbv;
	int32_t *bv_slot;         /* hash of bv[] by content: 2 x capbv, 0 free, else id + 1 */
	struct ucm_phent *phent;
	size_t nphent, capphent;
	struct ucm_ovrec *phov;
	size_t nphov, capphov;
	uint64_t *phov_v;
	size_t nphov_v, capphov_v;
	/* scratch of a definition: per box a count, then a start (nboxes + 1);
	 * the inputs and attributes bucketed by box; per event code a sum */
	uint32_t *def_cnt, *def_ocnt;
	struct ucm_phent *def_e;
	size_t cap_def_e;
	struct ucm_phov *def_o;
	size_t cap_def_o;
	uint64_t *def_code;
	uint32_t *def_ids;
	/* outside an epoch, the phase whose attributes are in the boxes'
	 * attribute arrays (-1: none), and what they replaced there */
	int ov_phase;
	uint64_t *ov_save;
	size_t cap_ov_save, max_ov;
	/* Summing phases: while agg is set, the inputs are phase agg_p's (the
	 * boxes' input arrays hold 0), the counters hold their state as of the
	 * epoch's start, and time is summed per clock and phase: acc[d][k]
	 * cycles of clock d spent in phase k (acc_list: the phases with any),
	 * and at each change of phase seen by clock d (a span with at least one
	 * of its cycles) its edge counters count (agg_edge, below).  The epoch ends, the counters and inputs
	 * brought up to date, before anything reads or changes the model, and
	 * at agg_stop, the last time before a counter with OVF_EN could wrap. */
	int agg, agg_p;
	unsigned agg_quiet;      /* phases entered since the model was last looked at */
	uint64_t agg_epochs;     /* ucm_phase_epochs */
	uint64_t agg_stop;
	uint64_t *acc[UCM_MAXCLK];
	uint32_t *acc_list[UCM_MAXCLK];
	unsigned nacc[UCM_MAXCLK], acc_cap;
	int32_t agg_last[UCM_MAXCLK];
	uint8_t agg_edges[UCM_MAXCLK]; /* the clock has a counter with edge detection:
					* its changes of phase are counted */
	uint64_t agg_rem[UCM_MAXCLK]; /* now_ps * num mod den, per clock */
	/* scratch of an epoch's end, per counter (box * UCM_MAXCTR + i): its
	 * output and its cycles in phases giving its box inputs */
	ucm_u128 *agg_lvl;
	uint64_t *agg_in;
	/* per box vector: cycles of its box's clock in the epoch's phases,
	 * whether touched (the touched ones in agg_bvlist) */
	uint64_t *agg_bvacc;
	uint8_t *agg_bvseen;
	uint32_t *agg_bvlist;
	uint32_t agg_bvcap;
	/* Edge detection in an epoch, counted at each change of phase a clock
	 * sees: the counters with edge detection numbered from 0 (agg_eidx per
	 * counter, UINT16_MAX: none; agg_boxedge per box: its ones as bits),
	 * agg_w words of bits each: per clock its counters (agg_cm + d * wmax),
	 * their comparisons at the epoch's start (agg_entry) and with their
	 * box's inputs all 0 (agg_zpat); per phase k its comparisons, a record
	 * of agg_w + 1 words at ph_cmp + k * (agg_w + 1), valid while its
	 * first word == agg_gen (the rest: the bits), and per box vector
	 * (agg_bvcmp, bit per counter of its box, valid while bv_stamp ==
	 * agg_gen); the edges counted so far, agg_edge.  agg_gen grows with
	 * every epoch and is never reset (so no record of an earlier epoch,
	 * laid out for another agg_w, is valid). */
	uint16_t *agg_eidx;
	uint8_t *agg_boxedge;
	unsigned agg_w, agg_wmax, agg_wlast;
	uint64_t *agg_cm, *agg_entry, *agg_zpat;
	uint64_t agg_gen;
	uint64_t *ph_cmp;
	size_t agg_lastrec[UCM_MAXCLK]; /* ph_cmp record of agg_last[d] */
	uint8_t *agg_bvcmp;
	uint64_t *bv_stamp;
	uint64_t *agg_edge;
	/* strict mode */
	int strict;
	struct ucm_strict_rec *recs;
	size_t nrecs, caprecs;
	char err[256];
	/* the sub-events an input or attribute changed since creation or
	 * ucm_restart (box << 16 | sub-event), each once: what a restart sets
	 * again besides the boxes, counters and registers */
	uint32_t *touched;
	size_t ntouched;
	int fresh_ok;            /* the boxes' fresh copies hold (none queued) */
};

/* Cycles of clock d completed at time t: floor(t * hz / 10^12). */
static inline uint64_t ucm_cycles_at(const struct ucm_model *m, unsigned d, uint64_t t_ps)
{
	uint64_t num = m->clk_num[d], den = m->clk_den[d];

	if (t_ps <= UINT64_MAX / num)
		return t_ps * num / den;
	return (uint64_t)((ucm_u128)t_ps * num / den);
}

/* Earliest time at which cycle number c of clock d has completed. */
static inline uint64_t ucm_time_of_cycle(const struct ucm_model *m, unsigned d, uint64_t c)
{
	uint64_t num = m->clk_num[d], den = m->clk_den[d];
	ucm_u128 t;

	if (c <= (UINT64_MAX - num) / den)
		return (c * den + num - 1) / num;
	t = ((ucm_u128)c * den + num - 1) / num;
	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

/* A register's field of a role as stored (0: the layout has none). */
static inline uint64_t ucm_reg_field(const struct ucm_reg *r, unsigned role)
{
	int f = role < UCM_NROLES ? r->role[role] : -1;

	return f < 0 ? 0 : ucm_field_get(&r->def->layout->fields[f], r->val);
}

/* ucm_diag.c: the message ucm_error() gives (returns rc); a strict mode
 * record of a write to r; a register's name. */
int ucm_seterr(struct ucm_model *m, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ucm_strict_add(struct ucm_model *m, const struct ucm_reg *r, uint64_t value,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void ucm_reg_name(const struct ucm_reg *r, char *buf, size_t n);

/* ucm_access.c: the decode's indexes of a model under construction. */
int ucm_decode_init(struct ucm_model *m);

/* Tell the observer, if any, that state may have changed (ucm_obs_point). */
static inline void ucm_observe(struct ucm_model *m, unsigned point)
{
	if (m->obs_fn)
		m->obs_fn(m->obs_ctx, m, point, m->now_ps);
}

/* ucm_count.c */
void ucm_clocks_init(struct ucm_model *m);
/* Bring a counter's value and truth up to the current cycle (before it is
 * read or set); after a set, ucm_ctr_resched. */
void ucm_ctr_sync(struct ucm_model *m, struct ucm_ctr *c);
void ucm_ctr_resched(struct ucm_model *m, struct ucm_ctr *c);
/* The counter's increment and occupancy from its box's inputs as they are
 * (after a phase-summing epoch), its rate, its place in the event queue. */
void ucm_ctr_reload(struct ucm_model *m, struct ucm_box *b, struct ucm_ctr *c);
/* A counter's control, or a box's filters, attributes or freeze changed:
 * what it selects is compiled again (the counters are synced first). */
void ucm_ctr_recompile(struct ucm_model *m, struct ucm_box *b, unsigned i);
void ucm_box_recompile(struct ucm_model *m, struct ucm_box *b);
/* The socket's global enable or freeze changed. */
void ucm_socket_regate(struct ucm_model *m, unsigned socket);
/* Whether the attributes of sub-event sub of box b as they are now would
 * change what some counter of the box selects (before ucm_attr_changed). */
int ucm_attr_selects_other(const struct ucm_box *b, unsigned sub);
/* Whether counter c selects sub-event sub when its attributes are
 * attr[UCM_NATTR] (its compiled umask and filter rules). */
int ucm_ctr_selects_attr(const struct ucm_ctr *c, unsigned sub, const uint64_t *attr);
/* An attribute of sub-event sub of box b changed. */
void ucm_attr_changed(struct ucm_model *m, struct ucm_box *b, unsigned sub);
/* Input sub of box b changed from old to its current value. */
void ucm_input_changed(struct ucm_model *m, struct ucm_box *b, unsigned sub, uint32_t old);
int ucm_advance_to(struct ucm_model *m, uint64_t t_ps);
void ucm_ctl_written(struct ucm_model *m, struct ucm_reg *r, uint64_t v, uint64_t bm);
/* Counter value, total and wraps as of now, without syncing (const paths). */
void ucm_ctr_view(const struct ucm_model *m, const struct ucm_ctr *c, uint64_t *val,
		  uint64_t *total, uint64_t *wraps);

/* ucm_count.c: a counter's output before the edge detector (see there) */
uint64_t ucm_ctr_level(const struct ucm_ctr *c, uint64_t inc, uint64_t occ, int *cmp);

/* ucm_input.c: set an attribute as ucm_set_input_attr does, outside an
 * epoch and whatever phase attributes hold (ucm_phase.c's own use). */
void ucm_attr_put(struct ucm_model *m, struct ucm_box *b, unsigned sub, unsigned attr, uint64_t v);

/* ucm_phase_def.c: the phases' and epochs' tables freed; no phase or box
 * vector defined (their memory kept). */
void ucm_phases_free(struct ucm_model *m);
void ucm_phases_reset(struct ucm_model *m);

/* ucm_phase.c: end a phase-summing epoch: every counter, fed total and
 * input as if the phases had been set input by input (a no-op outside
 * one). */
void ucm_agg_end(struct ucm_model *m);
static inline void ucm_agg_exit(struct ucm_model *m)
{
	if (m->agg)
		ucm_agg_end(m);
}
/* The same for a register access, which also restarts the count of
 * phases entered with nobody looking (ucm_phase_enter). */
static inline void ucm_agg_look(struct ucm_model *m)
{
	m->agg_quiet = 0;
	if (m->agg)
		ucm_agg_end(m);
}
/* Views of a counter and a sub-event during an epoch (const paths). */
void ucm_agg_ctr_view(const struct ucm_model *m, const struct ucm_ctr *c, uint64_t *val,
		      uint64_t *total, uint64_t *wraps, uint8_t *prev_cmp);
uint64_t ucm_agg_fed(const struct ucm_model *m, int box, unsigned sub);
uint32_t ucm_agg_input(const struct ucm_model *m, int box, unsigned sub);
/* Phase attributes outside an epoch: take the applied ones out of the
 * boxes (ucm_clear_inputs, an epoch's start); the attribute of a
 * sub-event as the phase in effect gives it (1, *v) or not (0); a base
 * value set while a phase's attribute holds (1: kept for when it ends). */
void ucm_ov_remove(struct ucm_model *m);
int ucm_ov_get(const struct ucm_model *m, int box, unsigned sub, unsigned attr, uint64_t *v);
int ucm_ov_set_base(struct ucm_model *m, int box, unsigned sub, unsigned attr, uint64_t v);
/* A counter's output before its edge detector with its box's inputs those
 * of box vector v, NULL: all 0 (*cmp as ucm_ctr_level). */
uint64_t ucm_ctr_in_bv(const struct ucm_model *m, const struct ucm_ctr *c,
		       const struct ucm_bvec *v, int *cmp);

/* ucm_phase_time.c: time t while phases are summed (an epoch: the caller
 * checked agg_stop). */
void ucm_agg_span(struct ucm_model *m, uint64_t t);

#endif
