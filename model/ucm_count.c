/*
 * ucm_count.c - the counting pipeline and the passage of time.
 *
 * Per counter and cycle: the sub-events selected by EVT_SEL/UMASK are summed
 * (the raw increment), compared against THRESH (INV reverses the compare),
 * edge-detected (E), gated by the local, box and global enables, added at
 * the counter's width, and on overflow with OVF_EN raise the unit's status
 * bit, a PMI request to the selected cores and, with FRZ_ON_PMI, the global
 * freeze.  Inputs are constant between changes, so a span of n cycles costs
 * O(counters) regardless of n: the output of a constant input is constant
 * after the first cycle (which alone can differ, through the edge latch).
 * Spans are split at the first overflow that has consequences.
 */
#include <errno.h>
#include <string.h>

#include "ucm_internal.h"

typedef unsigned __int128 u128;

#define PS_PER_S 1000000000000ull

/* Cycles of a clock completed at time t. */
static uint64_t cycles_at(uint64_t hz, uint64_t t_ps)
{
	return (uint64_t)((u128)t_ps * hz / PS_PER_S);
}

/* Earliest time at which cycle number c of a clock has completed. */
static uint64_t time_of_cycle(uint64_t hz, uint64_t c)
{
	u128 t = ((u128)c * PS_PER_S + hz - 1) / hz;

	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

/* Index of a code's first sub-event in the box's input vector. */
static unsigned code_first_sub(const struct ucm_box *b, const struct ucm_evcode *ec)
{
	return b->code_first[ec - b->def->type->codes];
}

/* The filter field a rule compares with, in any of the box's filter
 * registers: role and, for bands, .arg. */
static const struct ucm_field *filter_field(const struct ucm_box *b, const struct ucm_filtrule *r,
					    uint64_t *val)
{
	for (unsigned k = 0; k < UCM_MAXFILT; k++) {
		const struct ucm_layout *l = b->filt[k] ? b->filt[k]->def->layout : NULL;

		for (unsigned i = 0; l && i < l->nfields; i++)
			if (l->fields[i].role == r->role && l->fields[i].arg == r->arg) {
				*val = ucm_field_get(&l->fields[i], b->filt[k]->val);
				return &l->fields[i];
			}
	}
	return NULL;
}

/* The attribute bits held by the fields of a role (UCM_FA_* placement),
 * match or mask side: their values in *val, the bits they hold in *held. */
static void gather_fields(const struct ucm_box *b, unsigned role, int mask, uint64_t *val,
			  uint64_t *held)
{
	*val = *held = 0;
	for (unsigned k = 0; k < UCM_MAXFILT; k++) {
		const struct ucm_layout *l = b->filt[k] ? b->filt[k]->def->layout : NULL;

		for (unsigned i = 0; l && i < l->nfields; i++) {
			const struct ucm_field *f = &l->fields[i];
			unsigned at = UCM_FA_BIT(f->arg);

			if (f->role != role || UCM_FA_IS_MASK(f->arg) != mask)
				continue;
			*val |= ucm_field_get(f, b->filt[k]->val) << at;
			*held |= (ucm_field_mask(f) >> f->lo) << at;
		}
	}
}

/* A filter rule reduced, for one control value, to a comparison of the
 * attribute with the box's filter registers as they are: worked out once
 * per code, not per sub-event. */
enum { CMP_SKIP, CMP_MASKED, CMP_EQ, CMP_BIT, CMP_GE };
struct rule_cmp {
	uint8_t kind;
	uint8_t attr;
	uint64_t fv, mask;
};

static struct rule_cmp rule_cmp(const struct ucm_box *b, const struct ucm_reg *ctl,
				const struct ucm_filtrule *r, uint64_t umask)
{
	struct rule_cmp c = { CMP_SKIP, r->attr, 0, 0 };
	uint64_t held, mheld;

	if ((r->umask_bits && !(umask & r->umask_bits)) ||
	    (r->ctl_role && !(ctl && ucm_reg_field(ctl, r->ctl_role))))
		return c;
	switch (r->how) {
	case UCM_FM_MASKED:
		/* mask bits the match side holds; none: every value passes */
		gather_fields(b, r->role, 1, &c.mask, &mheld);
		gather_fields(b, r->role, 0, &c.fv, &held);
		c.mask &= held;
		c.kind = c.mask ? CMP_MASKED : CMP_SKIP;
		break;
	case UCM_FM_EQ_BITS:
		/* the same with every held bit from .arg up compared */
		gather_fields(b, r->role, 0, &c.fv, &held);
		c.mask = held & (r->arg < 64 ? ~0ull << r->arg : 0);
		c.kind = c.mask ? CMP_MASKED : CMP_SKIP;
		break;
	default:
		/* a box without the field does not apply the rule */
		if (filter_field(b, r, &c.fv))
			c.kind = r->how == UCM_FM_EQ ? CMP_EQ : r->how == UCM_FM_BIT ? CMP_BIT : CMP_GE;
		break;
	}
	return c;
}

/* Whether sub-event idx's attributes pass every prepared comparison. */
static int rules_pass(const struct ucm_box *b, const struct rule_cmp *c, unsigned n, unsigned idx)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = b->attr[idx * UCM_NATTR + c[i].attr];

		if (c[i].kind == CMP_SKIP)
			continue;
		if (a == UCM_ATTR_NONE)
			return 0;
		switch (c[i].kind) {
		case CMP_MASKED: if ((a ^ c[i].fv) & c[i].mask) return 0; break;
		case CMP_EQ: if (a != c[i].fv) return 0; break;
		case CMP_BIT: if (a >= 64 || !((c[i].fv >> a) & 1)) return 0; break;
		default: if (a < c[i].fv) return 0; break;
		}
	}
	return 1;
}

/* Sum of the inputs of code ec that the control selects and its filter
 * rules (Xeon 2.3.3.3, 2.4.3, 2.6.3.2, 2.7.3.3) pass. */
static uint32_t code_inc(const struct ucm_box *b, const struct ucm_reg *ctl,
			 const struct ucm_evcode *ec, int all, uint64_t umask)
{
	unsigned first = code_first_sub(b, ec);
	unsigned n = ec->nrules; /* at most UCM_MAXRULES: ucm_create checks */
	struct rule_cmp c[UCM_MAXRULES];
	uint32_t inc = 0;

	if (ec->flags & UCM_EC_CLOCK)
		return 1;
	for (unsigned i = 0; i < n; i++)
		c[i] = rule_cmp(b, ctl, &ec->rules[i], umask);
	if (!ec->nsubs)
		return rules_pass(b, c, n, first) ? b->input[first] : 0;
	for (unsigned s = 0; s < ec->nsubs; s++)
		if ((all || ucm_umask_selects(ec, s, umask)) && rules_pass(b, c, n, first + s))
			inc += b->input[first + s];
	return inc;
}

void ucm_ctr_recompute(struct ucm_model *m, struct ucm_box *b, unsigned i)
{
	const struct ucm_boxtype *bt = b->def->type;
	struct ucm_ctr *c = &b->ctr[i];
	const struct ucm_reg *ctl = c->ctl;
	const struct ucm_evcode *ec, *occ = NULL;
	unsigned code;

	(void)m;
	c->inc = c->occ = 0;
	c->mode = UCM_CM_PLAIN;
	/* a disabled counter's increment is never used (ctr_counting), and
	 * enabling it is a control write, which derives it again */
	if (ctl && !(bt->flags & UCM_BT_FREERUN) && !ucm_reg_field(ctl, UCM_R_EN))
		return;
	if (!ctl || !ucm_layout_field(ctl->def->layout, UCM_R_EVSEL)) {
		/* a fixed counter counts its code, every sub-event of it */
		if (bt->fixed_code)
			c->inc = code_inc(b, ctl, &bt->codes[bt->fixed_code[i]], 1, 0);
		return;
	}
	ec = ucm_ctl_code(bt, ctl->def->layout, ctl->val, &code, &occ);
	if (occ) {
		/* OCC_SEL 1..3 picks sub-counter 0..2 (C0, C3, C6) */
		unsigned sel = (unsigned)ucm_reg_field(ctl, UCM_R_OCC_SEL);

		if (sel && sel <= occ->nsubs)
			c->occ = b->input[code_first_sub(b, occ) + sel - 1];
		c->mode = ec == occ ? UCM_CM_OCC : UCM_CM_OCC_AND;
		if (ec == occ)
			return;
	}
	if (ec)
		c->inc = code_inc(b, ctl, ec, 0, ucm_reg_field(ctl, UCM_R_UMASK));
}

void ucm_box_recompute(struct ucm_model *m, struct ucm_box *b)
{
	for (unsigned i = 0; i < b->def->type->nctr; i++)
		ucm_ctr_recompute(m, b, i);
	b->stale = 0;
}

void ucm_box_stale(struct ucm_model *m, struct ucm_box *b)
{
	b->stale = 1;
	m->stale = 1;
}

static void recompute_stale(struct ucm_model *m)
{
	for (unsigned i = 0; i < m->nboxes; i++)
		if (m->boxes[i].stale)
			ucm_box_recompute(m, &m->boxes[i]);
	m->stale = 0;
}

/* Strict check of a control register that enables its counter. */
static void ctl_strict(struct ucm_model *m, struct ucm_reg *r)
{
	char why[160];

	if (ucm_reg_field(r, UCM_R_EN) &&
	    ucm_ctl_check(r->box->def->type, r->def->layout, r->def->idx, r->val, why,
			  sizeof(why)))
		ucm_strict_add(m, r, r->val, "%s", why);
}

void ucm_ctl_written(struct ucm_model *m, struct ucm_reg *r, uint64_t v, uint64_t bm)
{
	struct ucm_ctr *c = &r->box->ctr[r->def->idx];
	const struct ucm_field *rst = ucm_layout_field(r->def->layout, UCM_R_RST);

	/* a new programming starts with a clear edge latch (docs: D4) */
	c->prev_cmp = 0;
	/* a write-only rst bit clears the counter; it is never stored */
	if (rst && (ucm_field_mask(rst) & bm) && ucm_field_get(rst, v))
		c->val = 0;
	ucm_ctr_recompute(m, r->box, r->def->idx);
	if (m->strict)
		ctl_strict(m, r);
}

/* ---- counting ---- */

static int ctr_counting(const struct ucm_model *m, const struct ucm_box *b, unsigned i)
{
	const struct ucm_ctr *c = &b->ctr[i];

	if (b->def->type->flags & UCM_BT_FREERUN)
		return 1;
	if (!c->ctl || !ucm_reg_field(c->ctl, UCM_R_EN))
		return 0;
	if (b->frz_en && b->frozen)
		return 0;
	return ucm_global_enabled(m, b->socket);
}

struct ctr_rate {
	uint64_t first, steady; /* output of the first cycle, of each later one */
	int cmp_valid;
	uint8_t cmp;
};

static void ctr_rate(const struct ucm_box *b, unsigned i, struct ctr_rate *o)
{
	const struct ucm_ctr *c = &b->ctr[i];
	uint64_t thr = c->ctl ? ucm_reg_field(c->ctl, UCM_R_THRESH) : 0;
	int edge;

	memset(o, 0, sizeof(*o));
	switch (c->mode) {
	case UCM_CM_OCC:
		/* the occupancy alone: THRESH with OCC_INV, then OCC_EDGE
		 * (Table 2-80 cases 2-4) */
		if (!thr) {
			o->first = o->steady = c->occ;
			return;
		}
		o->cmp = ucm_reg_field(c->ctl, UCM_R_OCC_INV) ? c->occ < thr : c->occ >= thr;
		edge = (int)ucm_reg_field(c->ctl, UCM_R_OCC_EDGE);
		break;
	case UCM_CM_OCC_AND: {
		/* base event (INV: its negation) in cycles where the occupancy
		 * passes THRESH/OCC_INV; either edge bit counts rising edges of
		 * the result (Table 2-80 cases 5-6; docs/platform-snbep.md) */
		int base = ucm_reg_field(c->ctl, UCM_R_INV) ? c->inc == 0 : c->inc != 0;
		int occ_ok = !thr || (ucm_reg_field(c->ctl, UCM_R_OCC_INV) ? c->occ < thr
									  : c->occ >= thr);

		o->cmp = base && occ_ok;
		edge = ucm_reg_field(c->ctl, UCM_R_EDGE) || ucm_reg_field(c->ctl, UCM_R_OCC_EDGE);
		break;
	}
	default:
		if (!thr) {
			/* comparison disabled: the increment passes unmodified; INV
			 * and E have no effect (docs: D4) */
			o->first = o->steady = c->inc;
			return;
		}
		o->cmp = ucm_reg_field(c->ctl, UCM_R_INV) ? c->inc < thr : c->inc >= thr;
		edge = (int)ucm_reg_field(c->ctl, UCM_R_EDGE);
		break;
	}
	o->cmp_valid = 1;
	if (edge) {
		o->first = o->cmp && !c->prev_cmp;
		o->steady = 0;
	} else {
		o->first = o->steady = o->cmp;
	}
}

static int ctr_ovf_en(const struct ucm_ctr *c)
{
	return c->ctl && ucm_reg_field(c->ctl, UCM_R_OVF_EN);
}

/* Cycles until the counter's first wrap, 0 if not within max cycles. */
static uint64_t cycles_to_wrap(const struct ucm_ctr *c, const struct ctr_rate *r, uint64_t max)
{
	u128 room = (u128)c->wmask + 1 - c->val;

	if (!max)
		return 0;
	if (r->first >= room)
		return 1;
	if (!r->steady)
		return 0;
	u128 j = 1 + (room - r->first + r->steady - 1) / r->steady;

	return j <= max ? (uint64_t)j : 0;
}

/* Add n cycles of output to a counter; returns 1 if it wrapped. */
static int ctr_apply(struct ucm_ctr *c, const struct ctr_rate *r, uint64_t n)
{
	u128 add, sum;
	uint64_t wraps;

	if (!n)
		return 0;
	add = r->first + (u128)(n - 1) * r->steady;
	sum = (u128)c->val + add;
	wraps = (uint64_t)(sum / ((u128)c->wmask + 1));
	c->val = (uint64_t)(sum & c->wmask);
	c->total += (uint64_t)add;
	c->wraps += wraps;
	if (r->cmp_valid)
		c->prev_cmp = r->cmp;
	return wraps > 0;
}

static void deliver_pmi(struct ucm_model *m, unsigned s)
{
	struct ucm_socket *so = &m->sockets[s];
	struct ucm_reg *g = so->gctl;
	const struct ucm_layout *l;
	int wake;

	so->pmi_requests++;
	if (!g)
		return;
	l = g->def->layout;
	wake = (int)ucm_reg_field(g, UCM_R_WAKE_ON_PMI);
	for (unsigned i = 0; i < l->nfields; i++) {
		const struct ucm_field *f = &l->fields[i];
		struct ucm_pmi_stats *st;

		if (f->role != UCM_R_PMI_SEL || !ucm_field_get(f, g->val) || f->arg >= m->ncores)
			continue;
		st = &so->pmi[f->arg];
		if (so->asleep[f->arg]) {
			if (!wake) {
				st->dropped++;
				continue;
			}
			/* WAKE_ON_PMI: wake the core, then interrupt it (docs: D2) */
			so->asleep[f->arg] = 0;
			st->wakes++;
		}
		st->delivered++;
		st->last_ps = m->now_ps;
		m->pmi_hit = 1;
		if (m->pmi_fn)
			m->pmi_fn(m->pmi_ctx, s, f->arg, m->now_ps);
	}
	if (m->plat->ovf_flags & UCM_OVF_FREEZE) {
		so->gfrozen = 1;
		so->freezes++;
	}
	if (ucm_reg_field(g, UCM_R_FRZ_ON_PMI))
		g->val = ucm_field_put(ucm_layout_field(l, UCM_R_GLOBAL_EN), g->val, 0);
}

/* Counter i of box b overflowed with OVF_EN: set its box status bit and its
 * global status bit.  Returns 1 if the socket's UBox acts on it (PMI
 * request, and with UCM_OVF_FREEZE the global freeze).  Only a bit software
 * can clear (RW1C) or only read (RO) is set by hardware. */
static int ovf_message(struct ucm_model *m, struct ucm_box *b, unsigned i)
{
	int edge = (m->plat->ovf_flags & UCM_OVF_EDGE) != 0;
	struct ucm_reg *st = m->sockets[b->socket].gstatus;
	int gbit = ucm_gstatus_bit(b->def, i);

	if (b->boxstatus && b->st_bit[i] >= 0) {
		uint64_t bit = (1ull << b->st_bit[i]) & (b->boxstatus->w1c | b->boxstatus->ro);
		int was = (b->boxstatus->val & bit) != 0;

		b->boxstatus->val |= bit;
		if (edge && was)
			return 0; /* no new message while the box bit is set */
	}
	if (st && gbit >= 0) {
		uint64_t bit = (1ull << gbit) & (st->w1c | st->ro);
		int was = (st->val & bit) != 0;

		st->val |= bit;
		return !edge || (bit && !was);
	}
	/* no global status bit: the message reaches no UBox field */
	return !edge;
}

/* Advance every domain to time t, splitting at consequential overflows. */
static void advance_span(struct ucm_model *m, uint64_t t)
{
	if (m->stale)
		recompute_stale(m);
	while (m->now_ps < t) {
		uint64_t stop = t;
		uint64_t ncyc[UCM_MAXCLK];
		unsigned pmi_mask = 0; /* sockets with a PMI request, <= 32 */

		/* earliest overflow with OVF_EN before t */
		for (unsigned bi = 0; bi < m->nboxes; bi++) {
			struct ucm_box *b = &m->boxes[bi];
			unsigned d = b->def->type->clock;
			uint64_t avail = cycles_at(m->clk_hz[d], t) - m->clk_cycles[d];

			for (unsigned i = 0; i < b->def->type->nctr; i++) {
				struct ctr_rate r;
				uint64_t j;

				if (!ctr_ovf_en(&b->ctr[i]) || !ctr_counting(m, b, i))
					continue;
				ctr_rate(b, i, &r);
				j = cycles_to_wrap(&b->ctr[i], &r, avail);
				if (j) {
					uint64_t tj = time_of_cycle(m->clk_hz[d], m->clk_cycles[d] + j);

					if (tj < stop)
						stop = tj;
				}
			}
		}
		for (unsigned d = 0; d < m->plat->nclocks; d++)
			ncyc[d] = cycles_at(m->clk_hz[d], stop) - m->clk_cycles[d];
		for (unsigned bi = 0; bi < m->nboxes; bi++) {
			struct ucm_box *b = &m->boxes[bi];
			uint64_t n = ncyc[b->def->type->clock];

			if (!n)
				continue;
			b->fed_pending += n;
			for (unsigned i = 0; i < b->def->type->nctr; i++) {
				struct ctr_rate r;

				if (!ctr_counting(m, b, i))
					continue;
				ctr_rate(b, i, &r);
				if (ctr_apply(&b->ctr[i], &r, n) && ctr_ovf_en(&b->ctr[i]) &&
				    ovf_message(m, b, i))
					pmi_mask |= 1u << (b->socket & 31);
			}
		}
		for (unsigned d = 0; d < m->plat->nclocks; d++)
			m->clk_cycles[d] += ncyc[d];
		m->now_ps = stop;
		for (unsigned s = 0; s < m->nsockets; s++)
			if (pmi_mask & (1u << (s & 31)))
				deliver_pmi(m, s);
		if (m->stop_on_pmi && m->pmi_hit)
			return;
	}
}

int ucm_advance_to(struct ucm_model *m, uint64_t t)
{
	while (m->now_ps < t) {
		uint64_t end = t;

		if (m->wl_fn && !m->in_workload) {
			if (m->now_ps >= m->wl_next) {
				uint64_t next = UINT64_MAX;
				int rc;

				m->in_workload = 1;
				rc = m->wl_fn(m, m->wl_ctx, m->now_ps, &next);
				m->in_workload = 0;
				if (rc)
					return rc;
				m->wl_next = next > m->now_ps ? next : m->now_ps + 1;
			}
			if (m->wl_next < end)
				end = m->wl_next;
		}
		advance_span(m, end);
		if (m->stop_on_pmi && m->pmi_hit)
			break;
	}
	return 0;
}

/* ---- time API ---- */

uint64_t ucm_now_ps(const struct ucm_model *m)
{
	return m->now_ps;
}

uint64_t ucm_cycles(const struct ucm_model *m, unsigned clock)
{
	return clock < m->plat->nclocks ? m->clk_cycles[clock] : 0;
}

uint64_t ucm_clock_hz(const struct ucm_model *m, unsigned clock)
{
	return clock < m->plat->nclocks ? m->clk_hz[clock] : 0;
}

int ucm_run_ps(struct ucm_model *m, uint64_t ps)
{
	if (ps > UINT64_MAX - m->now_ps)
		return ucm_seterr(m, -EOVERFLOW, "simulated time would exceed 2^64 ps");
	return ucm_advance_to(m, m->now_ps + ps);
}

int ucm_run_ps_pmi(struct ucm_model *m, uint64_t ps, int *pmi)
{
	int rc;

	*pmi = 0;
	if (ps > UINT64_MAX - m->now_ps)
		return ucm_seterr(m, -EOVERFLOW, "simulated time would exceed 2^64 ps");
	m->stop_on_pmi = 1;
	m->pmi_hit = 0;
	rc = ucm_advance_to(m, m->now_ps + ps);
	*pmi = m->pmi_hit;
	m->stop_on_pmi = m->pmi_hit = 0;
	return rc;
}

int ucm_advance(struct ucm_model *m, uint64_t t_ps)
{
	return ucm_advance_to(m, t_ps);
}

void ucm_set_pmi_hook(struct ucm_model *m, ucm_pmi_fn fn, void *ctx)
{
	m->pmi_fn = fn;
	m->pmi_ctx = ctx;
}

int ucm_run_cycles(struct ucm_model *m, unsigned clock, uint64_t n)
{
	uint64_t t;

	if (clock >= m->plat->nclocks)
		return ucm_seterr(m, -EINVAL, "no clock domain %u", clock);
	t = time_of_cycle(m->clk_hz[clock], m->clk_cycles[clock] + n);
	if (t == UINT64_MAX)
		return ucm_seterr(m, -EOVERFLOW, "simulated time would exceed 2^64 ps");
	return ucm_advance_to(m, t);
}

void ucm_set_workload(struct ucm_model *m, ucm_workload_fn fn, void *ctx)
{
	m->wl_fn = fn;
	m->wl_ctx = ctx;
	m->wl_next = m->now_ps;
}
