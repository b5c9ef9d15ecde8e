/*
 * ucm_count.c - the counting pipeline and the passage of time.
 *
 * Per counter and cycle: the sub-events selected by EVT_SEL/UMASK are summed
 * (the raw increment), compared against THRESH (INV reverses the compare),
 * edge-detected (E), gated by the local, box and global enables, added at
 * the counter's width, and on overflow with OVF_EN raise the unit's status
 * bit, a PMI request to the selected cores and, with FRZ_ON_PMI, the global
 * freeze.
 *
 * The cost follows what changes, not the platform's size:
 * - what a control (with its box's filters and the sub-events' attributes)
 *   selects is compiled when one of them is written (ucm_ctr_recompile):
 *   the sub-events summed, marked in the box's per-sub-event counter masks
 *   (the index from an input to the counters it affects), and the
 *   pipeline's parameters;
 * - an input change updates the increment of those counters only;
 * - inputs are constant between changes, so the output of a counter is
 *   constant after the first cycle (which alone can differ, through the edge
 *   latch): a counter holds its value as of cycle c0 and its rate, and the
 *   cycles since are added when it is read, written, changes rate or wraps
 *   (lazy counters);
 * - the counters that overflow with OVF_EN are in an event queue (a binary
 *   heap by wrap time): time runs in one step to the next overflow that has
 *   consequences or to the end, whatever the number of counters.
 * The naive reference model (fuzz/ref_model.c) walks every cycle and derives
 * everything again; the fuzzers diff the two.
 */
#include <errno.h>
#include <string.h>

#include "ucm_internal.h"

#define PS_PER_S 1000000000000ull

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Each clock's rate as a reduced fraction of 10^12 ps, so that the
 * conversions below are one 64-bit multiply and divide where they fit. */
void ucm_clocks_init(struct ucm_model *m)
{
	for (unsigned d = 0; d < UCM_MAXCLK; d++) {
		uint64_t hz = m->clk_hz[d] ? m->clk_hz[d] : 1, g = gcd64(hz, PS_PER_S);

		m->clk_num[d] = hz / g;
		m->clk_den[d] = PS_PER_S / g;
		m->clk_dtmax[d] = (UINT64_MAX - m->clk_den[d]) / m->clk_num[d];
	}
}

/* Index of a code's first sub-event in the box's input vector. */
static unsigned code_first_sub(const struct ucm_box *b, const struct ucm_evcode *ec)
{
	return b->code[ec - b->def->type->codes].first;
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

/* A rule for one control value as a comparison with the filters as they
 * are: worked out once per code when the control or a filter is written,
 * not per sub-event and cycle (kinds of struct ucm_rule_cmp). */
enum { CMP_SKIP, CMP_MASKED, CMP_EQ, CMP_BIT, CMP_GE };

static struct ucm_rule_cmp rule_cmp_of(const struct ucm_box *b, const struct ucm_reg *ctl,
				       const struct ucm_filtrule *r, uint64_t umask)
{
	struct ucm_rule_cmp c = { CMP_SKIP, r->attr, 0, 0 };
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
static int rules_pass_attr(const struct ucm_rule_cmp *c, unsigned n, const uint64_t *attr)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t a = attr[c[i].attr];

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

static int rules_pass(const struct ucm_box *b, const struct ucm_rule_cmp *c, unsigned n, unsigned idx)
{
	return rules_pass_attr(c, n, b->attr + (size_t)idx * UCM_NATTR);
}

/* ---- the event queue: counters by wrap time ---- */

static void heap_place(struct ucm_model *m, unsigned i, struct ucm_ctr *c)
{
	m->heap[i] = c;
	c->heap_pos = (int32_t)i;
}

static void heap_up(struct ucm_model *m, unsigned i)
{
	struct ucm_ctr *c = m->heap[i];

	while (i) {
		unsigned p = (i - 1) / 2;

		if (m->heap[p]->wrap_ps <= c->wrap_ps)
			break;
		heap_place(m, i, m->heap[p]);
		i = p;
	}
	heap_place(m, i, c);
}

static void heap_down(struct ucm_model *m, unsigned i)
{
	struct ucm_ctr *c = m->heap[i];

	for (;;) {
		unsigned k = 2 * i + 1;

		if (k >= m->nheap)
			break;
		if (k + 1 < m->nheap && m->heap[k + 1]->wrap_ps < m->heap[k]->wrap_ps)
			k++;
		if (m->heap[k]->wrap_ps >= c->wrap_ps)
			break;
		heap_place(m, i, m->heap[k]);
		i = k;
	}
	heap_place(m, i, c);
}

/* Queue a counter at time t (UINT64_MAX: not at all). */
static void heap_set(struct ucm_model *m, struct ucm_ctr *c, uint64_t t)
{
	if (t == UINT64_MAX) {
		if (c->heap_pos >= 0) {
			unsigned i = (unsigned)c->heap_pos;
			struct ucm_ctr *last = m->heap[--m->nheap];

			c->heap_pos = -1;
			c->wrap_ps = t;
			if (last != c) {
				heap_place(m, i, last);
				heap_up(m, i);
				heap_down(m, (unsigned)last->heap_pos);
			}
		}
		c->wrap_ps = t;
		return;
	}
	if (c->heap_pos < 0) {
		c->wrap_ps = t;
		heap_place(m, m->nheap++, c);
		heap_up(m, m->nheap - 1);
	} else if (t < c->wrap_ps) {
		c->wrap_ps = t;
		heap_up(m, (unsigned)c->heap_pos);
	} else if (t > c->wrap_ps) {
		c->wrap_ps = t;
		heap_down(m, (unsigned)c->heap_pos);
	}
}

/* ---- compiling what a control selects ---- */

/* Mark the sub-events of code ec that the control selects and its filter
 * rules (Xeon 2.3.3.3, 2.4.3, 2.6.3.2, 2.7.3.3) pass in the box's masks. */
static void select_code(struct ucm_box *b, struct ucm_ctr *c, const struct ucm_evcode *ec,
			int all, uint64_t umask)
{
	unsigned first = code_first_sub(b, ec);
	unsigned n = ec->nrules; /* at most UCM_MAXRULES: ucm_create checks */
	struct ucm_rule_cmp *rc = c->rc;
	uint8_t bit = (uint8_t)(1u << c->idx);

	if (ec->flags & UCM_EC_CLOCK) {
		c->konst = 1;
		return;
	}
	for (unsigned i = 0; i < n; i++)
		rc[i] = rule_cmp_of(b, c->ctl, &ec->rules[i], umask);
	c->sel_ec = ec;
	c->sel_all = (uint8_t)all;
	c->sel_umask = umask;
	c->nrc = (uint8_t)n;
	c->sel_first = (uint16_t)first;
	if (!ec->nsubs) {
		c->sel_n = 1;
		if (rules_pass(b, rc, n, first))
			b->sub[first].selmask |= bit;
		return;
	}
	c->sel_n = (uint16_t)ec->nsubs;
	for (unsigned s = 0; s < ec->nsubs; s++)
		if ((all || ucm_umask_selects(ec, s, umask)) && rules_pass(b, rc, n, first + s))
			b->sub[first + s].selmask |= bit;
}

static uint64_t ctl_field(const struct ucm_ctr *c, unsigned role)
{
	return c->ctl ? ucm_reg_field(c->ctl, role) : 0;
}

/* The socket's global gate: its global control's enable, where it has one,
 * and no global freeze. */
static int global_enabled(const struct ucm_model *m, unsigned socket)
{
	const struct ucm_reg *g = m->sockets[socket].gctl;

	/* a platform without a global control register has no global gate */
	if (m->sockets[socket].gfrozen)
		return 0;
	return !g || !ucm_layout_field(g->def->layout, UCM_R_GLOBAL_EN) ||
	       ucm_reg_field(g, UCM_R_GLOBAL_EN);
}

static int ctr_gate(const struct ucm_model *m, const struct ucm_box *b, const struct ucm_ctr *c)
{
	if (b->def->type->flags & UCM_BT_FREERUN)
		return 1;
	if (!c->ctl || !ucm_reg_field(c->ctl, UCM_R_EN))
		return 0;
	if (b->frz_en && b->frozen)
		return 0;
	return global_enabled(m, b->socket);
}

/* A counter's pipeline before the edge detector, for an increment and an
 * occupancy: the output of every cycle when there is no comparison (*cmp
 * -1), else the comparison (0/1 in *cmp, also returned).  Shared by the
 * lazy counters and the phase sums (ucm_phase.c). */
uint64_t ucm_ctr_level(const struct ucm_ctr *c, uint64_t inc, uint64_t occ, int *cmp)
{
	uint64_t thr = c->thr;

	switch (c->mode) {
	case UCM_CM_OCC:
		/* the occupancy alone: THRESH with OCC_INV, then OCC_EDGE
		 * (Table 2-80 cases 2-4) */
		if (!thr) {
			*cmp = -1;
			return occ;
		}
		*cmp = c->occ_inv ? occ < thr : occ >= thr;
		break;
	case UCM_CM_OCC_AND:
		/* base event (INV: its negation) in cycles where the occupancy
		 * passes THRESH/OCC_INV; either edge bit counts rising edges of
		 * the result (Table 2-80 cases 5-6; docs/platform-snbep.md) */
		*cmp = (c->inv ? inc == 0 : inc != 0) &&
		       (!thr || (c->occ_inv ? occ < thr : occ >= thr));
		break;
	default:
		if (!thr) {
			/* comparison disabled: the increment passes unmodified; INV
			 * and E have no effect (docs: D4) */
			*cmp = -1;
			return inc;
		}
		*cmp = c->inv ? inc < thr : inc >= thr;
		break;
	}
	return (uint64_t)*cmp;
}

/* The output of the first cycle after c0 and of each later one, from the
 * compiled parameters and the current inputs. */
static void ctr_rate(struct ucm_ctr *c)
{
	int cmp;
	uint64_t lvl = ucm_ctr_level(c, c->inc, c->occ, &cmp);

	if (cmp < 0) {
		c->cmp_valid = 0;
		c->first = c->steady = lvl;
		return;
	}
	c->cmp = (uint8_t)cmp;
	c->cmp_valid = 1;
	if (c->edge) {
		c->first = cmp && !c->prev_cmp;
		c->steady = 0;
	} else {
		c->first = c->steady = (uint64_t)cmp;
	}
}

/* Cycles from c0 to the counter's first wrap, 0: never. */
static uint64_t cycles_to_wrap(const struct ucm_ctr *c)
{
	if (c->wbits < 64) {
		uint64_t room = (c->wmask - c->val) + 1;

		if (c->first >= room)
			return 1;
		if (!c->steady)
			return 0;
		return 1 + (room - c->first + c->steady - 1) / c->steady;
	} else {
		ucm_u128 room = (ucm_u128)c->wmask + 1 - c->val, j;

		if (c->first >= room)
			return 1;
		if (!c->steady)
			return 0;
		j = 1 + (room - c->first + c->steady - 1) / c->steady;
		return j > UINT64_MAX ? 0 : (uint64_t)j;
	}
}

void ucm_ctr_resched(struct ucm_model *m, struct ucm_ctr *c)
{
	uint64_t t = UINT64_MAX;

	if (c->counting && c->ovf_en) {
		uint64_t j = cycles_to_wrap(c);

		if (j && c->c0 <= UINT64_MAX - j)
			t = ucm_time_of_cycle(m, c->clock, c->c0 + j);
	}
	heap_set(m, c, t);
}

/* n cycles of the counter's current output: value, total and wraps. */
static void ctr_project(const struct ucm_ctr *c, uint64_t n, uint64_t *val, uint64_t *total,
			uint64_t *wraps)
{
	ucm_u128 add = c->first + (ucm_u128)(n - 1) * c->steady;
	ucm_u128 sum = (ucm_u128)c->val + add;

	*val = (uint64_t)sum & c->wmask;
	*total = c->total + (uint64_t)add;
	*wraps = c->wraps + (uint64_t)(sum >> c->wbits);
}

/* Add the cycles since c0; returns 1 if the counter wrapped. */
static int ctr_advance(struct ucm_model *m, struct ucm_ctr *c)
{
	uint64_t now = m->clk_cycles[c->clock], n = now - c->c0, w;

	c->c0 = now;
	if (!n || !c->counting)
		return 0;
	w = c->wraps;
	ctr_project(c, n, &c->val, &c->total, &c->wraps);
	if (c->cmp_valid && c->prev_cmp != c->cmp) {
		c->prev_cmp = c->cmp;
		ctr_rate(c);
	}
	return c->wraps != w;
}

void ucm_ctr_sync(struct ucm_model *m, struct ucm_ctr *c)
{
	ctr_advance(m, c);
}

void ucm_ctr_view(const struct ucm_model *m, const struct ucm_ctr *c, uint64_t *val,
		  uint64_t *total, uint64_t *wraps)
{
	uint64_t n = m->clk_cycles[c->clock] - c->c0;
	uint8_t pc;

	if (m->agg) {
		ucm_agg_ctr_view(m, c, val, total, wraps, &pc);
		return;
	}
	*val = c->val;
	*total = c->total;
	*wraps = c->wraps;
	if (n && c->counting)
		ctr_project(c, n, val, total, wraps);
}

/* The counter's increment and occupancy from its box's inputs as they are,
 * and its rate. */
static void ctr_inputs(const struct ucm_box *b, struct ucm_ctr *c)
{
	uint8_t bit = (uint8_t)(1u << c->idx);

	c->inc = c->konst;
	for (unsigned s = c->sel_first; s < (unsigned)c->sel_first + c->sel_n; s++)
		if (b->sub[s].selmask & bit)
			c->inc += b->sub[s].input;
	c->occ = c->occ_sub >= 0 ? b->sub[c->occ_sub].input : 0;
	ctr_rate(c);
}

/* Compile counter i of box b from its control, the box's filters and the
 * sub-events' attributes, as they are now (the counter is synced). */
static void ctr_compile(struct ucm_model *m, struct ucm_box *b, struct ucm_ctr *c)
{
	const struct ucm_boxtype *bt = b->def->type;
	const struct ucm_reg *ctl = c->ctl;
	const struct ucm_evcode *ec = NULL, *occ = NULL;
	uint8_t bit = (uint8_t)(1u << c->idx);
	unsigned code;

	for (unsigned s = c->sel_first; s < (unsigned)c->sel_first + c->sel_n; s++)
		b->sub[s].selmask &= (uint8_t)~bit;
	if (c->occ_sub >= 0)
		b->sub[c->occ_sub].occmask &= (uint8_t)~bit;
	c->sel_first = c->sel_n = 0;
	c->sel_ec = NULL;
	c->nrc = 0;
	c->occ_sub = -1;
	c->konst = 0;
	c->mode = UCM_CM_PLAIN;
	c->thr = ctl_field(c, UCM_R_THRESH);
	c->inv = (uint8_t)ctl_field(c, UCM_R_INV);
	c->occ_inv = (uint8_t)ctl_field(c, UCM_R_OCC_INV);
	c->edge = (uint8_t)ctl_field(c, UCM_R_EDGE);
	c->ovf_en = (uint8_t)ctl_field(c, UCM_R_OVF_EN);
	c->counting = (uint8_t)ctr_gate(m, b, c);
	if (!ctl || !ucm_layout_field(ctl->def->layout, UCM_R_EVSEL)) {
		/* a fixed counter counts its code, every sub-event of it */
		if (bt->fixed_code)
			select_code(b, c, &bt->codes[bt->fixed_code[c->idx]], 1, 0);
	} else {
		ec = ucm_ctl_code(bt, ctl->def->layout, ctl->val, &code, &occ);
		if (occ) {
			/* OCC_SEL 1..3 picks sub-counter 0..2 (C0, C3, C6) */
			unsigned sel = (unsigned)ucm_reg_field(ctl, UCM_R_OCC_SEL);

			if (sel && sel <= occ->nsubs) {
				c->occ_sub = (int32_t)(code_first_sub(b, occ) + sel - 1);
				b->sub[c->occ_sub].occmask |= bit;
			}
			if (ec == occ) {
				c->mode = UCM_CM_OCC;
				c->edge = (uint8_t)ctl_field(c, UCM_R_OCC_EDGE);
				ec = NULL;
			} else {
				c->mode = UCM_CM_OCC_AND;
				c->edge = c->edge || ctl_field(c, UCM_R_OCC_EDGE);
			}
		}
		if (ec)
			select_code(b, c, ec, 0, ucm_reg_field(ctl, UCM_R_UMASK));
	}
	ctr_inputs(b, c);
	/* the most it can add in a cycle whatever the inputs: a comparison's
	 * 1, else the code's maximum (the tables' max_inc, which every input
	 * vector keeps to): how soon it can wrap while phases are summed */
	if (c->mode == UCM_CM_OCC_AND || c->thr)
		c->rmax = 1;
	else if (c->mode == UCM_CM_OCC)
		c->rmax = c->occ_sub >= 0 ? b->code[b->sub[c->occ_sub].code].max : 0;
	else
		c->rmax = c->konst + (c->sel_ec ? b->code[c->sel_ec - bt->codes].max : 0);
}

void ucm_ctr_reload(struct ucm_model *m, struct ucm_box *b, struct ucm_ctr *c)
{
	ctr_inputs(b, c);
	ucm_ctr_resched(m, c);
}

void ucm_ctr_recompile(struct ucm_model *m, struct ucm_box *b, unsigned i)
{
	struct ucm_ctr *c = &b->ctr[i];

	ctr_advance(m, c);
	ctr_compile(m, b, c);
	ucm_ctr_resched(m, c);
}

void ucm_box_recompile(struct ucm_model *m, struct ucm_box *b)
{
	for (unsigned i = 0; i < b->def->type->nctr; i++)
		ucm_ctr_recompile(m, b, i);
}

void ucm_socket_regate(struct ucm_model *m, unsigned socket)
{
	for (unsigned bi = 0; bi < m->nboxes; bi++) {
		struct ucm_box *b = &m->boxes[bi];

		if (b->socket != socket)
			continue;
		for (unsigned i = 0; i < b->def->type->nctr; i++) {
			struct ucm_ctr *c = &b->ctr[i];
			uint8_t g = (uint8_t)ctr_gate(m, b, c);

			if (g == c->counting)
				continue;
			ctr_advance(m, c);
			c->counting = g;
			ucm_ctr_resched(m, c);
		}
	}
}

void ucm_input_changed(struct ucm_model *m, struct ucm_box *b, unsigned sub, uint32_t old)
{
	uint32_t now = b->sub[sub].input;
	unsigned sel = b->sub[sub].selmask, occ = b->sub[sub].occmask;

	while (sel | occ) {
		unsigned i = (unsigned)__builtin_ctz(sel | occ);
		struct ucm_ctr *c = &b->ctr[i];

		ctr_advance(m, c);
		if (sel >> i & 1)
			c->inc += now - old;
		if (occ >> i & 1)
			c->occ = now;
		ctr_rate(c);
		ucm_ctr_resched(m, c);
		sel &= ~(1u << i);
		occ &= ~(1u << i);
	}
}

int ucm_ctr_selects_attr(const struct ucm_ctr *c, unsigned sub, const uint64_t *attr)
{
	const struct ucm_evcode *ec = c->sel_ec;

	if (!ec || sub < c->sel_first || sub >= (unsigned)c->sel_first + c->sel_n)
		return 0;
	return (!ec->nsubs || c->sel_all || ucm_umask_selects(ec, sub - c->sel_first, c->sel_umask)) &&
	       rules_pass_attr(c->rc, c->nrc, attr);
}

/* Whether counter c selects sub-event sub with the box's attributes as
 * they are. */
static int attr_selects(const struct ucm_box *b, const struct ucm_ctr *c, unsigned sub)
{
	return ucm_ctr_selects_attr(c, sub, b->attr + (size_t)sub * UCM_NATTR);
}

int ucm_attr_selects_other(const struct ucm_box *b, unsigned sub)
{
	for (unsigned i = 0; i < b->def->type->nctr; i++) {
		const struct ucm_ctr *c = &b->ctr[i];

		if (!c->sel_ec || !c->nrc || sub < c->sel_first ||
		    sub >= (unsigned)c->sel_first + c->sel_n)
			continue;
		if (attr_selects(b, c, sub) != !!(b->sub[sub].selmask & (1u << i)))
			return 1;
	}
	return 0;
}

void ucm_attr_changed(struct ucm_model *m, struct ucm_box *b, unsigned sub)
{
	for (unsigned i = 0; i < b->def->type->nctr; i++) {
		struct ucm_ctr *c = &b->ctr[i];
		const struct ucm_evcode *ec = c->sel_ec;
		uint8_t bit = (uint8_t)(1u << i);
		int on;

		/* only a code with filter rules reads attributes */
		if (!ec || !c->nrc || sub < c->sel_first || sub >= (unsigned)c->sel_first + c->sel_n)
			continue;
		on = attr_selects(b, c, sub);
		if (on == !!(b->sub[sub].selmask & bit))
			continue;
		ctr_advance(m, c);
		b->sub[sub].selmask ^= bit;
		if (on)
			c->inc += b->sub[sub].input;
		else
			c->inc -= b->sub[sub].input;
		ctr_rate(c);
		ucm_ctr_resched(m, c);
	}
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

	ctr_advance(m, c);
	/* a new programming starts with a clear edge latch (docs: D4) */
	c->prev_cmp = 0;
	/* a write-only rst bit clears the counter; it is never stored */
	if (rst && (ucm_field_mask(rst) & bm) && ucm_field_get(rst, v))
		c->val = 0;
	ucm_ctr_recompile(m, r->box, r->def->idx);
	if (m->strict)
		ctl_strict(m, r);
}

/* ---- counting ---- */

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
	ucm_socket_regate(m, s);
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

/* Time t on every clock (the counters follow lazily). */
static void set_time(struct ucm_model *m, uint64_t t)
{
	for (unsigned d = 0; d < m->plat->nclocks; d++)
		m->clk_cycles[d] = ucm_cycles_at(m, d, t);
	m->now_ps = t;
}

/* Advance to time t, stopping at each overflow that has consequences: the
 * earliest in the event queue.  Counters that wrap at the same time all
 * send their messages before the sockets' PMIs are delivered. */
static void advance_span(struct ucm_model *m, uint64_t t)
{
	if (m->agg) {
		if (t <= m->agg_stop) {
			ucm_agg_span(m, t);
			return;
		}
		/* up to the last time before a counter could wrap, then exactly */
		if (m->agg_stop > m->now_ps)
			ucm_agg_span(m, m->agg_stop);
		ucm_agg_end(m);
	}
	while (m->now_ps < t) {
		uint64_t stop = m->nheap && m->heap[0]->wrap_ps < t ? m->heap[0]->wrap_ps : t;
		unsigned pmi_mask = 0; /* sockets with a PMI request, <= 32 */
		int ovf = 0;           /* an overflow with OVF_EN: tell the observer */

		set_time(m, stop);
		if (!m->nheap || m->heap[0]->wrap_ps > stop)
			return;
		while (m->nheap && m->heap[0]->wrap_ps <= stop) {
			struct ucm_ctr *c = m->heap[0];
			struct ucm_box *b = c->box;

			if (ctr_advance(m, c) && ovf_message(m, b, c->idx))
				pmi_mask |= 1u << (b->socket & 31);
			ucm_ctr_resched(m, c);
			ovf = 1;
		}
		for (unsigned s = 0; s < m->nsockets; s++)
			if (pmi_mask & (1u << (s & 31)))
				deliver_pmi(m, s);
		if (ovf)
			ucm_observe(m, UCM_OBS_OVERFLOW);
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
				m->wl_until = t;
				rc = m->wl_fn(m, m->wl_ctx, m->now_ps, &next);
				m->in_workload = 0;
				if (rc)
					return rc;
				m->wl_next = next > m->now_ps ? next : m->now_ps + 1;
				ucm_observe(m, UCM_OBS_INPUT);
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
	/* A PMI raised since the last wait (during the waiter's own register
	 * accesses) is pending, as an interrupt is latched by the core's APIC
	 * while its handler runs: the wait ends at once. */
	if (m->pmi_hit) {
		*pmi = 1;
		m->pmi_hit = 0;
		return 0;
	}
	m->stop_on_pmi = 1;
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
	t = m->clk_cycles[clock] > UINT64_MAX - n ? UINT64_MAX
						   : ucm_time_of_cycle(m, clock, m->clk_cycles[clock] + n);
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
