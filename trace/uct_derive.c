/*
 * uct_derive.c - the uncore inputs that follow from the traffic, as rules
 * in a table per platform, applied to each input vector a built-in
 * workload's phase or a trace generator's segment defines.
 *
 * A rule reads the inputs of one box instance (a sum of sub-events) and
 * sets another sub-event of the same box; an input given for every
 * instance (inst -1) counts on each.  The package C-state rule reads the
 * socket's cores' states and memory traffic, in other box types, and a
 * rule with a source box (.srcbox) the socket's inputs there.  A derived
 * sub-event replaces what the vector gave it (or, for the "at least"
 * rules, is raised to the derived value), so a phase table cannot
 * contradict its own traffic.  Rules run in table order: one may read what
 * an earlier one derived.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uct_derive.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NSRC 10
#define NTGT 4
#define NWHEN 4

enum ukind {
	UD_BAND,   /* targets: 1 a cycle, the frequency attribute at the clock's */
	UD_ATLEAST,/* target >= ceil(sum of src x num / den) */
	UD_FILL,   /* target = cap - sum of src; cap is when[k]'s value while it is fed */
	UD_ON,     /* targets = val while some src is fed and no when[] is;
		    * src on srcbox: some instance's, on the socket */
	UD_OFF,    /* targets = val while no src and no when[] is fed */
	UD_PKG,    /* the target of the package's C-state 1 a cycle (below) */
};

struct urule {
	uint8_t kind;
	uint8_t steady;             /* only in constant-rate phases (uct_derive.h) */
	const char *box;
	const char *tgt[NTGT];
	const char *src[NSRC];
	const char *when[NWHEN];    /* UD_FILL: inputs that lower the capacity; UD_ON/OFF: that forbid */
	uint32_t when_cap[NWHEN];
	uint32_t num, den, val;     /* UD_ATLEAST: num/den; UD_FILL: capacity; UD_ON/OFF: value */
	const char *clock;          /* UD_BAND */
	/* UD_PKG: src are the cores' state counts on srcbox, sdepth[k] the
	 * C-state of src[k]; tdepth[k] the package C-state of tgt[k]; busy
	 * the inputs on busybox that keep the uncore awake */
	const char *srcbox, *busybox;
	uint8_t sdepth[NSRC], tdepth[NTGT];
	const char *busy[NSRC];
	const char *anyc0;          /* UD_PKG: 1 a cycle some core is in C0 (sdepth 0) */
};

/* ---- the tables ---- */

/* PCU (SNB-EP 2.6.6, FREQ_BAND0..3_CYCLES): "the number of cycles that the
 * uncore was running at a frequency greater than or equal to the frequency
 * that is configured in the filter" (100 MHz units, Table 2-77).  The
 * uncore runs at uclk, whose frequency is the model's clock (2.7 GHz unless
 * --uclk-mhz): every pclk cycle carries it, in every core C-state (the
 * model's uclk counters count on in package idle too). */
#define BAND { .kind = UD_BAND, .box = "pcu", .tgt = { "FREQ_BAND0_CYCLES.CYCLES", "FREQ_BAND1_CYCLES.CYCLES", \
	"FREQ_BAND2_CYCLES.CYCLES", "FREQ_BAND3_CYCLES.CYCLES" }, .val = 1, .clock = "uclk" }

/* QPI (SNB-EP 2.7.7, RxL_FLITS_G0/G1/G2): a 64-byte line crosses as 9 flits,
 * 1 header and 8 data, so a data packet (DRS, NCB) brings a non-data header
 * flit for each 8 data flits; every SNP, HOM and NDR flit is non-data; G0's
 * NON_DATA is all of them.  The link carries 2 flits a qfclk in L0 (2.7.6
 * QPI_LINK_UTIL: flits / (2 x CLOCKTICKS)), half as many in L0p ("fits are
 * only 10 bits, and therefore it takes twice as many fits"), none in L1;
 * what it does not fill are idle flits (2.7.4.1: utilization is the clocks
 * less the idle flits). */
#define HDR(d)                                                                                 \
	{ .kind = UD_ATLEAST, .steady = 1, .box = "qpi", .tgt = { d "L_FLITS_G1.DRS_NONDATA" },     \
	  .src = { d "L_FLITS_G1.DRS_DATA" }, .num = 1, .den = 8 },                                 \
	{ .kind = UD_ATLEAST, .steady = 1, .box = "qpi", .tgt = { d "L_FLITS_G2.NCB_NONDATA" },     \
	  .src = { d "L_FLITS_G2.NCB_DATA" }, .num = 1, .den = 8 }
#define NONDATA(d)                                                                      \
	{ .kind = UD_ATLEAST, .box = "qpi", .tgt = { d "L_FLITS_G0.NON_DATA" },             \
	  .src = { d "L_FLITS_G1.SNP", d "L_FLITS_G1.HOM_REQ", d "L_FLITS_G1.HOM_NONREQ",     \
		   d "L_FLITS_G1.DRS_NONDATA", d "L_FLITS_G2.NDR_AD", d "L_FLITS_G2.NDR_AK",  \
		   d "L_FLITS_G2.NCB_NONDATA", d "L_FLITS_G2.NCS" },                          \
	  .num = 1, .den = 1 }
#define IDLE(d)                                                                         \
	{ .kind = UD_FILL, .box = "qpi", .tgt = { d "L_FLITS_G0.IDLE" },                    \
	  .src = { d "L_FLITS_G0.DATA", d "L_FLITS_G0.NON_DATA" },                           \
	  .when = { "L1_POWER_CYCLES", d "L0P_POWER_CYCLES" }, .when_cap = { 0, 1 }, .val = 2 }

/* iMC (SNB-EP 2.5.8): POWER_CKE_CYCLES counts a rank's cycles with CKE on,
 * POWER_CHANNEL_PPD those with every rank of the channel in precharge
 * power-down, POWER_SELF_REFRESH those in self-refresh (which a phase
 * feeds: the package's deep idle).  A channel with a CAS to issue or a
 * request queued has CKE on; an idle one is powered down unless it is in
 * self-refresh.  Each channel has one DIMM of two ranks (model's figure:
 * the dual-rank RDIMM of these platforms; PCM's memory power profiles
 * count ranks 0 and 1). */
#define DRAM_BUSY "CAS_COUNT.RD_REG", "CAS_COUNT.RD_UNDERFILL", "CAS_COUNT.WR_WMM", \
	"CAS_COUNT.WR_RMM", "RPQ_CYCLES_NE", "WPQ_CYCLES_NE"
#define CKE                                                                             \
	{ .kind = UD_ON, .box = "imc", .tgt = { "POWER_CKE_CYCLES.RANK0", "POWER_CKE_CYCLES.RANK1" }, \
	  .src = { DRAM_BUSY }, .val = 1 },                                                  \
	{ .kind = UD_OFF, .box = "imc", .tgt = { "POWER_CHANNEL_PPD" }, .src = { DRAM_BUSY },  \
	  .when = { "POWER_SELF_REFRESH" }, .val = 1 }

/* The package's C-state (docs/invariants.md, "Package C-states"): the
 * package can be no deeper than its shallowest core (Intel SDM Vol. 3B
 * 14.5, package C-states follow the cores'), so while a core is in C0 or
 * C1 (the cores the occupancy leaves uncounted) it is in C0.  With every
 * core in C3 or deeper it is in the shallowest core's state, but in C2
 * while the memory controller serves accesses (C2: the cores asleep, the
 * uncore awake for traffic).  A cycle of the box's clock in a state counts
 * 1 on that state's target. */
#define XEON_CAS "CAS_COUNT.RD_REG", "CAS_COUNT.RD_UNDERFILL", "CAS_COUNT.WR_WMM", "CAS_COUNT.WR_RMM"
#define XEON_PKG(b, c0, c2, c3, c6)                                                           \
	{ .kind = UD_PKG, .box = b, .tgt = { c0, c2, c3, c6 }, .tdepth = { 0, 2, 3, 6 },          \
	  .srcbox = "pcu", .src = { "POWER_STATE_OCCUPANCY.CORES_C0", "POWER_STATE_OCCUPANCY.CORES_C3", \
				    "POWER_STATE_OCCUPANCY.CORES_C6" }, .sdepth = { 0, 3, 6 },     \
	  .busybox = "imc", .busy = { XEON_CAS } }

/* QPI (SNB-EP 2.7.7, L1_POWER_CYCLES): L1 "totally shuts down" a link and
 * "takes a good amount of time to exit"; the links follow the package: a
 * socket's links are in L1 while its package is in C3 or C6 (the cores
 * asleep, no memory access) and no flit crosses them, in either direction
 * (docs/invariants.md, "Package C-states"). */
#define QPI_L1                                                                          \
	{ .kind = UD_ON, .box = "qpi", .tgt = { "L1_POWER_CYCLES" }, .srcbox = "cores",      \
	  .src = { "PKG_STATE.C3", "PKG_STATE.C6" },                                        \
	  .when = { "TxL_FLITS_G0.DATA", "TxL_FLITS_G0.NON_DATA", "RxL_FLITS_G0.DATA",      \
		    "RxL_FLITS_G0.NON_DATA" }, .val = 1 }

/* In order: the package's state before the links' L1 that follows it, and
 * that before the idle flits that fill what L1 leaves of the link. */
static const struct urule snbep_rules[] = { BAND, HDR("Tx"), HDR("Rx"), NONDATA("Tx"), NONDATA("Rx"), CKE,
					    XEON_PKG("cores", NULL, "PKG_STATE.C2", "PKG_STATE.C3", "PKG_STATE.C6"),
					    QPI_L1, IDLE("Tx"), IDLE("Rx") };
/* The v2 (Intel's v2 list, docs/platform-ivt.md): the same, but it lists no
 * TxL_FLITS_G0.IDLE, so the Tx side has no idle-flit input; its PCU counts
 * the package's C-states itself (PKG_C_STATE_RESIDENCY_Cn_CYCLES, C0 too). */
static const struct urule ivt_rules[] = {
	BAND, HDR("Tx"), HDR("Rx"), NONDATA("Tx"), NONDATA("Rx"), CKE,
	XEON_PKG("cores", NULL, "PKG_STATE.C2", "PKG_STATE.C3", "PKG_STATE.C6"),
	XEON_PKG("pcu", "PKG_C_STATE_RESIDENCY_C0_CYCLES", "PKG_C_STATE_RESIDENCY_C2_CYCLES",
		 "PKG_C_STATE_RESIDENCY_C3_CYCLES", "PKG_C_STATE_RESIDENCY_C6_CYCLES"),
	QPI_L1, IDLE("Rx"),
};
/* Skylake client: its cores' states are the "cores" box's own; C7 too. */
static const struct urule skl_rules[] = {
	{ .kind = UD_PKG, .box = "cores",
	  .tgt = { "PKG_STATE.C2", "PKG_STATE.C3", "PKG_STATE.C6", "PKG_STATE.C7" }, .tdepth = { 2, 3, 6, 7 },
	  .srcbox = "cores", .src = { "CORE_STATE.C0", "CORE_STATE.C3", "CORE_STATE.C6", "CORE_STATE.C7" },
	  .sdepth = { 0, 3, 6, 7 }, .busybox = "imc", .busy = { "DRAM_DATA_READS", "DRAM_DATA_WRITES" },
	  .anyc0 = "PKG_STATE.ANY_C0" },
};

static const struct {
	const char *platform;
	const struct urule *r;
	unsigned n;
} tables[] = {
	{ "snbep", snbep_rules, N(snbep_rules) },
	{ "ivt", ivt_rules, N(ivt_rules) },
	{ "skl", skl_rules, N(skl_rules) },
};

/* ---- resolved rules ---- */

struct rrule {
	const struct urule *u;
	int bt, sbt, wbt;           /* the target's box type; UD_PKG: the sources', busy's */
	int tgt[NTGT], src[NSRC], when[NWHEN], busy[NSRC], anyc0;
	unsigned ntgt, nsrc, nwhen, nbusy;
	uint64_t freq;              /* UD_BAND: 100 MHz units */
};

struct uct_derive {
	unsigned n;
	unsigned ncores;            /* a socket's, as the workloads count them */
	struct rrule r[];
};

static int sub_of(const struct ucm_boxtype *bt, const char *platform, const char *name, char *err,
		  size_t n)
{
	int s = ucm_subev_find(bt, name);

	if (s < 0)
		snprintf(err, n, "derived inputs of %s: %s has no sub-event %s", platform, bt->name, name);
	return s;
}

int uct_derive_new(const struct ucm_platform *p, const uint64_t *hz, struct uct_derive **out,
		   char *err, size_t n)
{
	const struct urule *t = NULL;
	unsigned nt = 0;
	struct uct_derive *d;

	*out = NULL;
	for (unsigned i = 0; i < N(tables); i++)
		if (!strcmp(tables[i].platform, p->name)) {
			t = tables[i].r;
			nt = tables[i].n;
		}
	if (!t)
		return 0;
	d = calloc(1, sizeof(*d) + nt * sizeof(d->r[0]));
	if (!d)
		return -ENOMEM;
	d->ncores = p->ncores;
	for (unsigned i = 0; i < nt; i++) {
		struct rrule *r = &d->r[d->n++];
		const char *sname = t[i].srcbox ? t[i].srcbox : t[i].box;
		const struct ucm_boxtype *bt = ucm_boxtype_find(p, t[i].box);
		const struct ucm_boxtype *sbt = ucm_boxtype_find(p, sname);
		const struct ucm_boxtype *wbt = t[i].busybox ? ucm_boxtype_find(p, t[i].busybox) : NULL;

		r->u = &t[i];
		if (!bt || !sbt || (t[i].busybox && !wbt)) {
			snprintf(err, n, "derived inputs of %s: no box type %s", p->name,
				 !bt ? t[i].box : !sbt ? sname : t[i].busybox);
			free(d);
			return -EINVAL;
		}
		r->bt = ucm_boxtype_index(p, bt);
		r->sbt = ucm_boxtype_index(p, sbt);
		r->wbt = wbt ? ucm_boxtype_index(p, wbt) : -1;
		/* a package rule's targets keep their places (tdepth): a state
		 * without a target is a hole (-1) */
		for (unsigned k = 0; k < NTGT && (t[i].tgt[k] || t[i].kind == UD_PKG); k++)
			if (!t[i].tgt[k])
				r->tgt[r->ntgt++] = -1;
			else if ((r->tgt[r->ntgt++] = sub_of(bt, p->name, t[i].tgt[k], err, n)) < 0) {
				free(d);
				return -EINVAL;
			}
		for (unsigned k = 0; k < NSRC && t[i].src[k]; k++)
			if ((r->src[r->nsrc++] = sub_of(sbt, p->name, t[i].src[k], err, n)) < 0) {
				free(d);
				return -EINVAL;
			}
		r->anyc0 = -1;
		if (t[i].anyc0 && (r->anyc0 = sub_of(bt, p->name, t[i].anyc0, err, n)) < 0) {
			free(d);
			return -EINVAL;
		}
		for (unsigned k = 0; k < NSRC && wbt && t[i].busy[k]; k++)
			if ((r->busy[r->nbusy++] = sub_of(wbt, p->name, t[i].busy[k], err, n)) < 0) {
				free(d);
				return -EINVAL;
			}
		for (unsigned k = 0; k < NWHEN && t[i].when[k]; k++)
			if ((r->when[r->nwhen++] = sub_of(bt, p->name, t[i].when[k], err, n)) < 0) {
				free(d);
				return -EINVAL;
			}
		if (t[i].kind == UD_BAND) {
			unsigned c = 0;

			while (c < p->nclocks && strcmp(p->clocks[c].name, t[i].clock))
				c++;
			if (c == p->nclocks) {
				snprintf(err, n, "derived inputs of %s: no clock %s", p->name, t[i].clock);
				free(d);
				return -EINVAL;
			}
			r->freq = (hz[c] + 50000000) / 100000000;
		}
	}
	*out = d;
	return 0;
}

void uct_derive_free(struct uct_derive *d)
{
	free(d);
}

unsigned uct_derive_most(const struct uct_derive *d, unsigned nsock, const unsigned *ninst)
{
	unsigned most = 0;

	for (unsigned i = 0; d && i < d->n; i++)
		most += (d->r[i].ntgt + (d->r[i].anyc0 >= 0)) * (ninst[d->r[i].bt] ? ninst[d->r[i].bt] : 1) * nsock;
	return most;
}

/* Where sub sits in a rule's list of n, or -1. */
static int at(const int *list, unsigned n, unsigned sub)
{
	for (unsigned k = 0; k < n; k++)
		if (list[k] == (int)sub)
			return (int)k;
	return -1;
}

/* Add inc to v[i] for the instance an input names (every one for -1). */
static void add(uint64_t *v, unsigned ni, int inst, uint32_t inc)
{
	if (inst < 0)
		for (unsigned i = 0; i < ni; i++)
			v[i] += inc;
	else if ((unsigned)inst < ni)
		v[inst] += inc;
}

/* Drop the inputs of sub-event sub of box type bt on socket so. */
static void drop(struct uct_in *in, unsigned *nin, unsigned so, int bt, int sub)
{
	unsigned k = 0;

	for (unsigned i = 0; i < *nin; i++)
		if (!(in[i].socket == so && in[i].bt == bt && in[i].sub == sub))
			in[k++] = in[i];
	*nin = k;
}

/* Append a derived input: inc on sub-event sub of box type bt, instance
 * inst (-1: every one), socket so. */
static int push(struct uct_in *in, unsigned *nin, unsigned cap, unsigned so, int bt, int inst, int sub,
		uint32_t inc, char *err, size_t n)
{
	struct uct_in *x;

	if (*nin == cap) {
		snprintf(err, n, "more than %u inputs with the derived ones", cap);
		return -ENOSPC;
	}
	x = &in[(*nin)++];
	memset(x, 0, sizeof(*x));
	x->socket = (uint8_t)so;
	x->bt = (uint8_t)bt;
	x->inst = (int16_t)inst;
	x->sub = (uint16_t)sub;
	x->inc = inc;
	return 0;
}

/* The package C-state rule on each socket: the cores' counts in each state
 * (an input for every instance counts on each), whether memory is
 * accessed, and the one target of the package's state. */
static int apply_pkg(const struct uct_derive *d, const struct rrule *r, struct uct_in *in, unsigned *nin,
		     unsigned cap, unsigned nsock, const unsigned *ninst, char *err, size_t n)
{
	const struct urule *u = r->u;

	for (unsigned so = 0; so < nsock; so++) {
		uint64_t cnt[NSRC] = { 0 }, counted = 0;
		int busy = 0, c0 = 0;
		unsigned state = 0;

		for (unsigned i = 0; i < *nin; i++) {
			const struct uct_in *x = &in[i];
			int k;

			if (x->socket != so)
				continue;
			if (x->bt == r->sbt && (k = at(r->src, r->nsrc, x->sub)) >= 0)
				cnt[k] += (uint64_t)x->inc * (x->inst < 0 && ninst[r->sbt] ? ninst[r->sbt] : 1);
			if ((int)x->bt == r->wbt && x->inc && at(r->busy, r->nbusy, x->sub) >= 0)
				busy = 1;
		}
		for (unsigned k = 0; k < r->nsrc; k++) {
			counted += cnt[k];
			c0 |= cnt[k] && !u->sdepth[k];
		}
		/* a core in C0, or in C1 (not counted in any state): C0 */
		if (counted >= d->ncores) {
			state = UINT8_MAX;
			for (unsigned k = 0; k < r->nsrc; k++)
				if (cnt[k] && u->sdepth[k] < state)
					state = u->sdepth[k];
			if (state && busy)
				state = 2;
		}
		for (unsigned t = 0; t < r->ntgt; t++)
			if (r->tgt[t] >= 0)
				drop(in, nin, so, r->bt, r->tgt[t]);
		if (r->anyc0 >= 0)
			drop(in, nin, so, r->bt, r->anyc0);
		for (unsigned t = 0; t <= r->ntgt; t++) {
			int sub = t < r->ntgt ? r->tgt[t] : r->anyc0, rc;

			if (sub < 0 || (t < r->ntgt ? u->tdepth[t] != state : !c0))
				continue;
			if ((rc = push(in, nin, cap, so, r->bt, -1, sub, 1, err, n)))
				return rc;
		}
	}
	return 0;
}

int uct_derive_apply(const struct uct_derive *d, struct uct_in *in, unsigned *nin, unsigned cap,
		     unsigned nsock, const unsigned *ninst, int steady, char *err, size_t n)
{
	for (unsigned ri = 0; d && ri < d->n; ri++) {
		const struct rrule *r = &d->r[ri];
		const struct urule *u = r->u;
		unsigned ni = ninst[r->bt];

		if (u->steady && !steady)
			continue;
		if (u->kind == UD_PKG) {
			int rc = apply_pkg(d, r, in, nin, cap, nsock, ninst, err, n);

			if (rc)
				return rc;
			continue;
		}
		if (ni > 64)
			ni = 64;
		for (unsigned so = 0; so < nsock; so++) {
			/* one pass over the vector: the rule's sums on each instance */
			uint64_t src[64], fed[NTGT][64], when[NWHEN][64];

			memset(src, 0, ni * sizeof(src[0]));
			for (unsigned k = 0; k < NTGT; k++)
				memset(fed[k], 0, ni * sizeof(fed[k][0]));
			for (unsigned k = 0; k < NWHEN; k++)
				memset(when[k], 0, ni * sizeof(when[k][0]));

			for (unsigned i = 0; i < *nin; i++) {
				const struct uct_in *x = &in[i];
				int k;

				if (x->socket != so)
					continue;
				/* a source on another box type: the socket's, on every instance */
				if (r->sbt != r->bt && x->bt == r->sbt && at(r->src, r->nsrc, x->sub) >= 0)
					add(src, ni, -1, x->inc);
				if (x->bt != r->bt)
					continue;
				if (r->sbt == r->bt && at(r->src, r->nsrc, x->sub) >= 0)
					add(src, ni, x->inst, x->inc);
				if ((k = at(r->tgt, r->ntgt, x->sub)) >= 0)
					add(fed[k], ni, x->inst, x->inc);
				if ((k = at(r->when, r->nwhen, x->sub)) >= 0)
					add(when[k], ni, x->inst, x->inc);
			}
			for (unsigned t = 0; t < r->ntgt; t++) {
				uint64_t want[64];
				unsigned same = 1;

				for (unsigned i = 0; i < ni; i++) {
					uint64_t w = 0;

					switch (u->kind) {
					case UD_BAND:
						w = u->val;
						break;
					case UD_ATLEAST:
						w = (src[i] * u->num + u->den - 1) / u->den;
						w = w > fed[t][i] ? w : fed[t][i];
						break;
					case UD_FILL: {
						uint64_t c = u->val;

						for (unsigned k2 = 0; k2 < r->nwhen; k2++)
							if (when[k2][i] && u->when_cap[k2] < c)
								c = u->when_cap[k2];
						if (src[i] > c) {
							snprintf(err, n,
								 "%s %u in socket %u: %llu flits a cycle where the "
								 "link carries %llu (%s)",
								 u->box, i, so, (unsigned long long)src[i],
								 (unsigned long long)c, u->src[0]);
							return -ERANGE;
						}
						w = c - src[i];
						break;
					}
					case UD_ON: {
						int forbid = 0;

						for (unsigned k2 = 0; k2 < r->nwhen; k2++)
							forbid |= when[k2][i] != 0;
						w = src[i] && !forbid ? u->val : 0;
						break;
					}
					case UD_OFF: {
						int forbid = src[i] != 0;

						for (unsigned k2 = 0; k2 < r->nwhen; k2++)
							forbid |= when[k2][i] != 0;
						w = forbid ? 0 : u->val;
						break;
					}
					}
					want[i] = w;
					same &= want[i] == want[0];
				}
				/* the target's inputs on this socket give way to the derived ones */
				drop(in, nin, so, r->bt, r->tgt[t]);
				for (unsigned i = 0; i < ni; i++) {
					struct uct_in *x;
					int rc;

					if (!want[i] || (same && i))
						continue;
					if ((rc = push(in, nin, cap, so, r->bt, same ? -1 : (int)i, r->tgt[t],
						       (uint32_t)want[i], err, n)))
						return rc;
					x = &in[*nin - 1];
					if (u->kind == UD_BAND) {
						x->amask = 1u << UCM_AT_FREQ;
						x->attr[UCM_AT_FREQ] = r->freq;
					}
				}
			}
		}
	}
	return 0;
}
