/*
 * ucm_core.c - model construction, address decode and the one generic
 * register access path.
 *
 * Every register access, whatever the space or platform, goes through
 * reg_read()/reg_write(): the masks derived from the layout decide what a
 * write stores (RW), clears (RW1C), triggers (WO) or ignores (RO, reserved);
 * a per-kind hook then applies real side effects (a control register change
 * re-evaluates its counter, a box control reset clears counters, ...).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ucm_internal.h"

int ucm_seterr(struct ucm_model *m, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->err, sizeof(m->err), fmt, ap);
	va_end(ap);
	return rc;
}

int ucm_set_error(struct ucm_model *m, int rc, const char *msg)
{
	return ucm_seterr(m, rc, "%s", msg);
}

const char *ucm_error(const struct ucm_model *m)
{
	return m->err[0] ? m->err : "no error";
}

const struct ucm_platform *ucm_platform_of(const struct ucm_model *m)
{
	return m->plat;
}

unsigned ucm_nsockets(const struct ucm_model *m)
{
	return m->nsockets;
}

unsigned ucm_pci_bus(const struct ucm_model *m, unsigned socket)
{
	return socket < m->nsockets ? m->bus[socket] : 0;
}

unsigned ucm_node_id(const struct ucm_model *m, unsigned socket)
{
	return socket < m->nsockets ? m->node[socket] : 0;
}

static uint64_t nodemap(const struct ucm_model *m);
static int msr_hash_build(struct ucm_model *m);

unsigned ucm_cpus_per_socket(const struct ucm_model *m)
{
	return m->ncores;
}

/* ---- descriptor helpers ---- */

uint64_t ucm_field_mask(const struct ucm_field *f)
{
	unsigned w = f->hi - f->lo + 1;

	return (w >= 64 ? ~0ull : ((1ull << w) - 1)) << f->lo;
}

uint64_t ucm_field_get(const struct ucm_field *f, uint64_t v)
{
	return f ? (v & ucm_field_mask(f)) >> f->lo : 0;
}

uint64_t ucm_field_put(const struct ucm_field *f, uint64_t v, uint64_t x)
{
	if (!f)
		return v;
	return (v & ~ucm_field_mask(f)) | ((x << f->lo) & ucm_field_mask(f));
}

const struct ucm_field *ucm_layout_field(const struct ucm_layout *l, unsigned role)
{
	for (unsigned i = 0; l && i < l->nfields; i++)
		if (l->fields[i].role == role)
			return &l->fields[i];
	return NULL;
}

const struct ucm_evcode *ucm_code_find(const struct ucm_boxtype *bt, unsigned code)
{
	for (unsigned i = 0; i < bt->ncodes; i++)
		if (bt->codes[i].code == code && !(bt->codes[i].flags & UCM_EC_FIXED))
			return &bt->codes[i];
	return NULL;
}

const struct ucm_evcode *ucm_code_named(const struct ucm_boxtype *bt, unsigned code)
{
	const struct ucm_evcode *ec = ucm_code_find(bt, code);

	for (unsigned i = 0; !ec && i < bt->ncodes; i++)
		if (bt->codes[i].code == code)
			ec = &bt->codes[i];
	return ec;
}

const struct ucm_regdef *ucm_regdef_find(const struct ucm_boxtype *bt, unsigned kind,
					 unsigned idx)
{
	for (unsigned i = 0; i < bt->nregs; i++)
		if (bt->regs[i].kind == kind && bt->regs[i].idx == idx)
			return &bt->regs[i];
	return NULL;
}

const struct ucm_boxtype *ucm_boxtype_find(const struct ucm_platform *p, const char *name)
{
	for (unsigned i = 0; i < p->nboxes; i++)
		if (strcmp(p->boxes[i].type->name, name) == 0)
			return p->boxes[i].type;
	return NULL;
}

/* Box types are numbered in order of first appearance in plat->boxes. */
int ucm_boxtype_index(const struct ucm_platform *p, const struct ucm_boxtype *bt)
{
	int n = 0;

	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxtype *t = p->boxes[i].type;
		unsigned j;

		for (j = 0; j < i; j++)
			if (p->boxes[j].type == t)
				break;
		if (j < i)
			continue;
		if (t == bt)
			return n;
		n++;
	}
	return -1;
}

uint64_t ucm_pci_key(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	/* added, not or-ed: an offset past 0xFFF reaches a later function of the
	 * device (UCM_PCI_FN) */
	return ((uint64_t)bus << 20) + ((uint64_t)dev << 15) + ((uint64_t)fn << 12) + off;
}

/* ---- sub-events ---- */

unsigned ucm_subev_count(const struct ucm_boxtype *bt)
{
	unsigned n = 0;

	for (unsigned i = 0; i < bt->ncodes; i++)
		n += bt->codes[i].nsubs ? bt->codes[i].nsubs : 1;
	return n;
}

static int subev_locate(const struct ucm_boxtype *bt, unsigned idx, unsigned *code,
			unsigned *sub)
{
	for (unsigned i = 0; i < bt->ncodes; i++) {
		unsigned n = bt->codes[i].nsubs ? bt->codes[i].nsubs : 1;

		if (idx < n) {
			*code = i;
			*sub = idx;
			return 0;
		}
		idx -= n;
	}
	return -1;
}

const struct ucm_evcode *ucm_subev_code(const struct ucm_boxtype *bt, unsigned i)
{
	unsigned c, s;

	return subev_locate(bt, i, &c, &s) ? NULL : &bt->codes[c];
}

const char *ucm_subev_name(const struct ucm_boxtype *bt, unsigned i, char *buf, size_t n)
{
	unsigned c, s;

	if (subev_locate(bt, i, &c, &s))
		snprintf(buf, n, "?");
	else if (bt->codes[c].nsubs)
		snprintf(buf, n, "%s.%s", bt->codes[c].name, bt->codes[c].subs[s].name);
	else
		snprintf(buf, n, "%s", bt->codes[c].name);
	return buf;
}

int ucm_subev_find(const struct ucm_boxtype *bt, const char *name)
{
	char buf[96];
	unsigned n = ucm_subev_count(bt);

	for (unsigned i = 0; i < n; i++)
		if (strcasecmp(ucm_subev_name(bt, i, buf, sizeof(buf)), name) == 0)
			return (int)i;
	return -1;
}

/* ---- construction ---- */

void ucm_config_init(struct ucm_config *cfg, const struct ucm_platform *plat)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->plat = plat;
	cfg->access_ps[UCM_MSR] = UCM_COST_MSR_PS;
	cfg->access_ps[UCM_PCI] = UCM_COST_PCI_PS;
	cfg->access_ps[UCM_MMIO] = UCM_COST_MMIO_PS;
}

static void reg_masks(struct ucm_reg *r)
{
	const struct ucm_layout *l = r->def->layout;
	uint64_t wmask = l->width >= 64 ? ~0ull : (1ull << l->width) - 1;
	uint64_t any = 0;

	r->rw = r->ro = r->w1c = r->wo = 0;
	for (unsigned i = 0; i < l->nfields; i++) {
		uint64_t fm = ucm_field_mask(&l->fields[i]);

		any |= fm;
		switch (l->fields[i].access) {
		case UCM_A_RW: r->rw |= fm; break;
		case UCM_A_RO: r->ro |= fm; break;
		case UCM_A_RW1C: r->w1c |= fm; break;
		case UCM_A_WO: r->wo |= fm; break;
		default: break;
		}
	}
	r->rsvd = wmask & ~any;
	r->bytes = (uint8_t)(l->width / 8);
}

static int reg_cmp(const void *a, const void *b)
{
	const struct ucm_reg *x = *(const struct ucm_reg *const *)a;
	const struct ucm_reg *y = *(const struct ucm_reg *const *)b;
	unsigned sx = x->space == UCM_PCI ? 0 : x->box->socket;
	unsigned sy = y->space == UCM_PCI ? 0 : y->box->socket;

	if (sx != sy)
		return sx < sy ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

unsigned ucm_ninst(const struct ucm_model *m, const struct ucm_boxtype *bt)
{
	int i = ucm_boxtype_index(m->plat, bt);

	return i < 0 ? 0 : m->ninst[i];
}

static uint64_t reg_reset_value(const struct ucm_model *m, const struct ucm_reg *r)
{
	switch (r->def->kind) {
	case UCM_K_DEVID:
		if (r->box->def->devid)
			return r->box->def->devid;
		return m->cfg.devid ? m->cfg.devid : m->plat->devids[0];
	case UCM_K_NODEID:
		return m->node[r->box->socket];
	case UCM_K_NODEMAP:
		return nodemap(m);
	case UCM_K_BAR:
		return m->cfg.bar ? m->cfg.bar : m->plat->bar_default;
	case UCM_K_NBOXES:
		return m->plat->counted
			? (uint64_t)((int)ucm_ninst(m, m->plat->counted) + m->plat->counted_bias)
			: 0;
	default:
		return r->def->reset;
	}
}

/* GIDNIDMAP: field i (bits 3i+2:3i) holds the node ID of socket i; the
 * fields past the last socket hold the IDs no socket has, in increasing
 * order, so that the map stays a permutation (socket i is node i: the
 * public facts' identity map 0xFAC688). */
static uint64_t nodemap(const struct ucm_model *m)
{
	unsigned used = 0, next = 0;
	uint64_t v = 0;

	for (unsigned s = 0; s < m->nsockets; s++) {
		v |= (uint64_t)m->node[s] << (3 * s);
		used |= 1u << m->node[s];
	}
	for (unsigned i = m->nsockets; i < 8; i++) {
		while (used >> next & 1)
			next++;
		v |= (uint64_t)next << (3 * i);
		used |= 1u << next;
	}
	return v;
}

/* An attribute a code's filter rules read but its table leaves unset gets
 * a default that a pass-all filter matches: the request's node is the
 * box's own socket's node ID (as GIDNIDMAP maps them), and the
 * cores run at the platform's first clock rounded to the 100 MHz units of
 * the frequency bands.  A QPI packet goes to this socket (DNID) from the
 * other (RNID) on VNA, with response data state 0; a request's address is
 * 0.  Opcode, message class, state and thread stay as the tables say. */
static uint64_t attr_default(const struct ucm_model *m, const struct ucm_box *b, unsigned a)
{
	switch (a) {
	case UCM_AT_NID:
	case UCM_AT_DNID:
		return m->node[b->socket];
	case UCM_AT_RNID:
		/* a packet crossing this socket's link comes from the other */
		return m->node[m->nsockets > 1 ? b->socket ^ 1 : b->socket];
	case UCM_AT_FREQ:
		return ucm_clock_hz(m, 0) / 100000000u;
	case UCM_AT_VNW:
		return 2; /* VNA (b1x, Table 2-89): the shared pool a link prefers */
	case UCM_AT_RDS:
	case UCM_AT_ADDR:
		return 0;
	default:
		return UCM_ATTR_NONE;
	}
}

/* ---- the state of a new model ----
 *
 * What a model changes as it runs, set as a new model has it.  ucm_create
 * runs these on everything it built; ucm_restart runs the same functions
 * again (the sub-events only where something touched them), so a field
 * added to the model, a socket, a box, a counter or a sub-event that
 * changes as the model runs is given its initial value here, in the
 * function of its structure, and both get it.  What the configuration
 * alone decides (registers and their masks and indexes, the boxes'
 * definitions, counter widths, clock rates) is built once by ucm_create
 * and never changes.  The registers' reset values and what the counters
 * compile from them are the same after every restart: ucm_create keeps a
 * copy of the counters as it compiled them (fresh_save) and ucm_restart
 * puts it back. */

/* Sub-event s of box b: no input (nor its code), nothing fed, selected by
 * no counter, its attributes as the tables say, or at attr_default(). */
static void sub_state_init(const struct ucm_model *m, struct ucm_box *b, unsigned s)
{
	struct ucm_sub *sb = &b->sub[s];
	const struct ucm_evcode *ec = &b->def->type->codes[sb->code];
	unsigned k = s - b->code[sb->code].first;

	sb->fed = sb->c0 = 0;
	sb->input = 0;
	sb->act_pos = 0;
	sb->selmask = sb->occmask = 0;
	sb->touched = 0;
	/* the sum of the code's inputs: every input is 0 (a code whose sum is
	 * not had an input of it touched) */
	b->code[sb->code].sum = 0;
	for (unsigned a = 0; a < UCM_NATTR; a++) {
		uint64_t v = ec->attrs && ec->nsubs ? ec->attrs[k].v[a] : UCM_ATTR_NONE;

		for (unsigned r = 0; v == UCM_ATTR_NONE && r < ec->nrules; r++)
			if (ec->rules[r].attr == a)
				v = attr_default(m, b, a);
		b->attr[s * UCM_NATTR + a] = v;
	}
}

/* A sub-event is about to change: remembered, so that ucm_restart sets
 * again only the sub-events that changed. */
static void sub_touch(struct ucm_model *m, struct ucm_box *b, unsigned s)
{
	if (!b->sub[s].touched) {
		b->sub[s].touched = 1;
		m->touched[m->ntouched++] = b->index << 16 | s;
	}
}

/* A counter as a new model has it: nothing counted, selected, compiled or
 * queued (ucm_reset compiles it from the registers).  What the
 * configuration gave it (its registers, box, number, clock, width) stays. */
static void ctr_state_init(struct ucm_ctr *c)
{
	const struct ucm_ctr keep = *c;

	memset(c, 0, sizeof(*c));
	c->wmask = keep.wmask;
	c->ctl = keep.ctl;
	c->reg = keep.reg;
	c->box = keep.box;
	c->idx = keep.idx;
	c->clock = keep.clock;
	c->wbits = keep.wbits;
	c->occ_sub = -1;
	c->heap_pos = -1;
	c->wrap_ps = UINT64_MAX;
}

/* A box: no active inputs, not frozen, its counters new.  The sub-events
 * its counters selected are released first (the bits ucm_ctr_recompile
 * would clear), so that a sub-event nothing else touched needs no reset. */
static void box_state_init(struct ucm_box *b)
{
	for (unsigned i = 0; i < UCM_MAXCTR; i++) {
		const struct ucm_ctr *c = &b->ctr[i];

		for (unsigned s = c->sel_first; s < (unsigned)c->sel_first + c->sel_n && s < b->nsub; s++)
			b->sub[s].selmask = 0;
		if (c->occ_sub >= 0 && (unsigned)c->occ_sub < b->nsub)
			b->sub[c->occ_sub].occmask = 0;
	}
	for (unsigned i = 0; i < UCM_MAXCTR; i++)
		ctr_state_init(&b->ctr[i]);
	b->nact = 0;
	b->frz_en = b->frozen = 0;
}

/* A socket: no PMI requested or delivered, not frozen, every core awake. */
static void socket_state_init(struct ucm_socket *so)
{
	const struct ucm_socket keep = *so;

	memset(so, 0, sizeof(*so));
	so->gctl = keep.gctl;
	so->gstatus = keep.gstatus;
	so->bar = keep.bar;
}

/* The model: time 0 on every clock, no queued overflow, no workload,
 * observer or PMI hook, strict mode as configured with no record, no
 * error, no phase; every socket and box as new.  Registers: ucm_reset,
 * after this. */
static void model_state_init(struct ucm_model *m)
{
	m->now_ps = 0;
	memset(m->clk_cycles, 0, sizeof(m->clk_cycles));
	m->nheap = 0;
	m->wl_fn = NULL;
	m->wl_ctx = NULL;
	m->wl_next = 0;
	m->in_workload = 0;
	m->stop_on_pmi = m->pmi_hit = 0;
	m->pmi_fn = NULL;
	m->pmi_ctx = NULL;
	m->obs_fn = NULL;
	m->obs_ctx = NULL;
	/* no phase defined, none summed (their arrays are kept; an epoch
	 * leaves them clear when it ends) */
	ucm_phases_reset(m);
	m->agg = m->agg_p = 0;
	m->agg_quiet = 0;
	m->agg_epochs = 0;
	m->agg_stop = 0;
	memset(m->agg_last, 0, sizeof(m->agg_last));
	memset(m->agg_rem, 0, sizeof(m->agg_rem));
	m->strict = m->cfg.strict;
	m->nrecs = 0;
	m->err[0] = 0;
	for (unsigned s = 0; s < m->nsockets; s++)
		socket_state_init(&m->sockets[s]);
	for (unsigned i = 0; i < m->nboxes; i++)
		box_state_init(&m->boxes[i]);
}

static void reset_registers(struct ucm_model *m);

/* What ucm_create's reset_registers compiled, kept to be put back: every
 * counter as it was (struct ucm_ctr whole: a field added there is kept
 * too) and the selection marks of the sub-events.  A counter compiled
 * with OVF_EN and counting would be in the event queue: then ucm_restart
 * compiles them all again instead. */
static int fresh_save(struct ucm_model *m)
{
	m->fresh_ok = 1;
	for (unsigned i = 0; i < m->nboxes; i++) {
		struct ucm_box *b = &m->boxes[i];
		unsigned nctr = b->def->type->nctr, n = 0;

		for (unsigned c = 0; c < nctr; c++)
			m->fresh_ok &= b->ctr[c].heap_pos < 0;
		for (unsigned k = 0; k < b->nsub; k++)
			n += b->sub[k].selmask || b->sub[k].occmask;
		b->fresh = malloc((nctr ? nctr : 1) * sizeof(*b->fresh));
		b->fresh_sub = malloc((n ? n : 1) * sizeof(*b->fresh_sub));
		if (!b->fresh || !b->fresh_sub)
			return -ENOMEM;
		memcpy(b->fresh, b->ctr, nctr * sizeof(*b->fresh));
		b->nfresh_sub = 0;
		for (unsigned k = 0; k < b->nsub; k++)
			if (b->sub[k].selmask || b->sub[k].occmask)
				b->fresh_sub[b->nfresh_sub++] =
					k << 16 | (uint32_t)b->sub[k].selmask << 8 | b->sub[k].occmask;
	}
	return 0;
}

/* The registers at their reset values and the counters and selection
 * marks as ucm_create compiled them (after model_state_init released every
 * selection): what reset_registers would make of a new model, copied. */
static void fresh_restore(struct ucm_model *m)
{
	for (size_t i = 0; i < m->nregs; i++)
		m->regs[i].val = m->regs[i].reset;
	for (unsigned i = 0; i < m->nboxes; i++) {
		struct ucm_box *b = &m->boxes[i];

		b->frz_en = b->boxctl && b->boxctl->role[UCM_R_FRZ] >= 0 &&
			    b->boxctl->role[UCM_R_FRZ_EN] < 0;
		b->frozen = 0;
		memcpy(b->ctr, b->fresh, b->def->type->nctr * sizeof(*b->fresh));
		for (unsigned k = 0; k < b->nfresh_sub; k++) {
			struct ucm_sub *sb = &b->sub[b->fresh_sub[k] >> 16];

			sb->selmask = (uint8_t)(b->fresh_sub[k] >> 8);
			sb->occmask = (uint8_t)b->fresh_sub[k];
		}
	}
}

void ucm_restart(struct ucm_model *m)
{
	/* a phase-summing epoch ends as it would (ucm_phase.c clears what it
	 * summed); the sub-events phases set are those of their entries */
	ucm_agg_exit(m);
	for (size_t e = 0; e < m->nphent; e++)
		sub_state_init(m, &m->boxes[m->phent[e].box], m->phent[e].sub);
	model_state_init(m);
	while (m->ntouched) {
		uint32_t t = m->touched[--m->ntouched];

		sub_state_init(m, &m->boxes[t >> 16], t & 0xFFFF);
	}
	if (m->fresh_ok)
		fresh_restore(m);
	else
		reset_registers(m); /* the counters are new: none to bring up to date */
}

/* Each socket's uncore bus and node ID: the platform's and the identity,
 * or the configuration's, one each, all different. */
static int sockets_layout(struct ucm_model *m, const struct ucm_config *cfg)
{
	const struct ucm_platform *p = m->plat;
	int any_bus = 0, any_node = 0;

	for (unsigned s = 0; s < UCM_MAXSOCK; s++) {
		any_bus |= cfg->pci_bus[s] != 0;
		any_node |= cfg->node_id[s] != 0;
	}
	for (unsigned s = 0; s < m->nsockets; s++) {
		m->bus[s] = any_bus || cfg->pci_bus_given ? cfg->pci_bus[s] : p->pci_bus ? p->pci_bus[s] : 0;
		m->node[s] = any_node || cfg->node_id_given ? cfg->node_id[s] : (uint8_t)s;
		if (any_bus && !cfg->pci_bus_given && !cfg->pci_bus[s])
			return ucm_seterr(m, -EINVAL, "PCI buses: socket %u has none (give one per socket)", s);
		if (m->node[s] > 7)
			return ucm_seterr(m, -EINVAL, "node ID %u of socket %u: node IDs are 3 bits (0-7)",
					  m->node[s], s);
		for (unsigned t = 0; t < s; t++) {
			if (m->bus[t] == m->bus[s] && (any_bus || cfg->pci_bus_given || p->pci_bus))
				return ucm_seterr(m, -EINVAL, "sockets %u and %u on one PCI bus 0x%02x", t, s,
						  m->bus[s]);
			if (m->node[t] == m->node[s])
				return ucm_seterr(m, -EINVAL, "sockets %u and %u with one node ID %u", t, s,
						  m->node[s]);
		}
	}
	return 0;
}

int ucm_create(const struct ucm_config *cfg, struct ucm_model **out)
{
	const struct ucm_platform *p = cfg->plat;
	struct ucm_model *m;
	size_t nr = 0, ntouch = 0;

	*out = NULL;
	if (!p)
		return -EINVAL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->cfg = *cfg;
	m->plat = p;
	m->strict = cfg->strict;
	m->nsockets = cfg->sockets ? cfg->sockets : p->sockets_default ? p->sockets_default : 1;
	m->ncores = cfg->cpus_per_socket ? cfg->cpus_per_socket : p->ncores;
	if (m->nsockets > p->max_sockets || m->ncores > UCM_MAXCORES) {
		ucm_seterr(m, -EINVAL, "%s supports 1..%u sockets and at most %u cpus per socket",
			   p->name, p->max_sockets, UCM_MAXCORES);
		*out = m;
		return -EINVAL;
	}
	if (sockets_layout(m, cfg)) {
		*out = m;
		return -EINVAL;
	}
	for (unsigned i = 0; i < p->nclocks && i < UCM_MAXCLK; i++)
		m->clk_hz[i] = cfg->clock_hz[i] ? cfg->clock_hz[i] : p->clocks[i].hz_default;
	ucm_clocks_init(m);
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxtype *bt = p->boxes[i].type;
		int ti = ucm_boxtype_index(p, bt);
		unsigned want = cfg->ninst[ti] ? cfg->ninst[ti] : bt->ninst_default;

		for (unsigned c = 0; c < bt->ncodes; c++)
			if (bt->codes[c].nrules > UCM_MAXRULES) {
				ucm_seterr(m, -EINVAL, "%s %s: %u filter rules, at most %u", bt->name,
					   bt->codes[c].name, bt->codes[c].nrules, UCM_MAXRULES);
				*out = m;
				return -EINVAL;
			}
		if (want < bt->ninst_min || want > bt->ninst_max) {
			ucm_seterr(m, -EINVAL, "%s: %u %s instances requested, the platform has %u..%u",
				   p->name, want, bt->name, bt->ninst_min, bt->ninst_max);
			*out = m;
			return -EINVAL;
		}
		m->ninst[ti] = want;
	}
	/* boxes present on every socket */
	m->sockets = calloc(m->nsockets, sizeof(*m->sockets));
	m->boxes = calloc((size_t)m->nsockets * p->nboxes, sizeof(*m->boxes));
	if (!m->sockets || !m->boxes)
		goto nomem;
	for (unsigned s = 0; s < m->nsockets; s++)
		for (unsigned i = 0; i < p->nboxes; i++) {
			const struct ucm_boxinst *bi = &p->boxes[i];
			struct ucm_box *b;

			if (bi->inst >= ucm_ninst(m, bi->type))
				continue;
			b = &m->boxes[m->nboxes];
			b->def = bi;
			b->socket = s;
			b->index = m->nboxes++;
			b->present = 1;
			b->nsub = ucm_subev_count(bi->type);
			if (b->nsub > 0xFFFF || m->nboxes > 0xFFFF) {
				/* sub-events are numbered in 16 bits (act[], touched[]) */
				ucm_seterr(m, -EINVAL, "%s: %u sub-events, at most 65535", bi->type->name,
					   b->nsub);
				*out = m;
				return -EINVAL;
			}
			if (b->nsub) {
				b->sub = calloc(b->nsub, sizeof(*b->sub));
				b->attr = calloc((size_t)b->nsub * UCM_NATTR, sizeof(*b->attr));
				b->act = calloc(b->nsub, sizeof(*b->act));
				b->code = calloc(bi->type->ncodes ? bi->type->ncodes : 1, sizeof(*b->code));
				if (!b->sub || !b->attr || !b->act || !b->code)
					goto nomem;
				for (unsigned c = 0, first = 0; c < bi->type->ncodes; c++) {
					unsigned k = bi->type->codes[c].nsubs ? bi->type->codes[c].nsubs : 1;

					b->code[c].first = (uint16_t)first;
					b->code[c].max = bi->type->codes[c].max_inc;
					for (unsigned j = 0; j < k && first + j < b->nsub; j++)
						b->sub[first + j].code = (uint16_t)c;
					first += k;
				}
				for (unsigned k = 0; k < b->nsub; k++)
					sub_state_init(m, b, k);
			}
			ntouch += b->nsub;
			for (unsigned c = 0; c < UCM_MAXCTR; c++) {
				b->ctr[c].box = b;
				b->ctr[c].idx = (uint8_t)c;
				b->ctr[c].clock = (uint8_t)bi->type->clock;
			}
			nr += bi->type->nregs;
		}
	m->regs = calloc(nr ? nr : 1, sizeof(*m->regs));
	if (!m->regs)
		goto nomem;
	for (unsigned bx = 0; bx < m->nboxes; bx++) {
		struct ucm_box *b = &m->boxes[bx];
		const struct ucm_boxinst *bi = b->def;
		const struct ucm_boxtype *bt = bi->type;
		struct ucm_socket *so = &m->sockets[b->socket];

		for (unsigned k = 0; k < bt->nregs; k++) {
			struct ucm_reg *r = &m->regs[m->nregs++];
			const struct ucm_regdef *d = &bt->regs[k];

			r->def = d;
			r->box = b;
			r->space = bt->space;
			/* ucm_reg_field is on the counting path: roles found once */
			memset(r->role, -1, sizeof(r->role));
			for (unsigned f = d->layout ? d->layout->nfields : 0; f-- > 0;)
				if (d->layout->fields[f].role < UCM_NROLES)
					r->role[d->layout->fields[f].role] = (int8_t)f;
			if (bt->space == UCM_PCI)
				r->key = ucm_pci_key(m->bus[b->socket], bi->dev, bi->fn,
						     (unsigned)(bi->base + d->off));
			else
				r->key = bi->base + d->off;
			reg_masks(r);
			switch (d->kind) {
			case UCM_K_CTL:
				b->ctr[d->idx].ctl = r;
				break;
			case UCM_K_CTR:
				b->ctr[d->idx].reg = r;
				b->ctr[d->idx].wmask = ucm_field_mask(
					ucm_layout_field(d->layout, UCM_R_VALUE));
				b->ctr[d->idx].wbits = (uint8_t)__builtin_popcountll(b->ctr[d->idx].wmask);
				break;
			case UCM_K_GLOBAL_CTL: so->gctl = r; break;
			case UCM_K_GLOBAL_STATUS: so->gstatus = r; break;
			case UCM_K_BAR: so->bar = r; break;
			case UCM_K_FILTER: b->filt[d->idx] = r; break;
			case UCM_K_BOX_CTL: b->boxctl = r; break;
			case UCM_K_BOX_STATUS: b->boxstatus = r; break;
			default: break;
			}
		}
	}
	for (unsigned bx = 0; bx < m->nboxes; bx++) {
		struct ucm_box *b = &m->boxes[bx];

		memset(b->st_bit, -1, sizeof(b->st_bit));
		if (b->boxstatus) {
			const struct ucm_layout *l = b->boxstatus->def->layout;

			for (unsigned f = 0; f < l->nfields; f++)
				if (l->fields[f].role == UCM_R_OVF_STATUS && l->fields[f].arg < UCM_MAXCTR)
					b->st_bit[l->fields[f].arg] = (int8_t)l->fields[f].lo;
		}
	}
	for (unsigned s = 0; s < UCM_NSPACES; s++) {
		m->sorted[s] = calloc(m->nregs ? m->nregs : 1, sizeof(struct ucm_reg *));
		if (!m->sorted[s])
			goto nomem;
	}
	for (size_t i = 0; i < m->nregs; i++) {
		struct ucm_reg *r = &m->regs[i];

		m->sorted[r->space][m->nsorted[r->space]++] = r;
	}
	for (unsigned s = 0; s < UCM_NSPACES; s++)
		qsort(m->sorted[s], m->nsorted[s], sizeof(struct ucm_reg *), reg_cmp);
	m->heap = calloc((size_t)m->nboxes * UCM_MAXCTR + 1, sizeof(*m->heap));
	m->touched = calloc(ntouch ? ntouch : 1, sizeof(*m->touched));
	if (!m->heap || !m->touched || msr_hash_build(m))
		goto nomem;
	model_state_init(m);
	reset_registers(m);
	if (fresh_save(m))
		goto nomem;
	*out = m;
	return 0;
nomem:
	ucm_destroy(m);
	return -ENOMEM;
}

void ucm_destroy(struct ucm_model *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->nboxes; i++) {
		free(m->boxes[i].sub);
		free(m->boxes[i].attr);
		free(m->boxes[i].act);
		free(m->boxes[i].code);
		free(m->boxes[i].fresh);
		free(m->boxes[i].fresh_sub);
	}
	free(m->heap);
	free(m->touched);
	free(m->msr_hash);
	for (unsigned s = 0; s < UCM_NSPACES; s++)
		free(m->sorted[s]);
	free(m->boxes);
	free(m->sockets);
	free(m->regs);
	free(m->recs);
	ucm_phases_free(m);
	free(m);
}

/* Every register to its reset value, counters to 0 and compiled again
 * (the counters brought up to date before: ucm_reset). */
static void reset_registers(struct ucm_model *m)
{
	for (unsigned s = 0; s < m->nsockets; s++)
		m->sockets[s].gfrozen = 0;
	for (size_t i = 0; i < m->nregs; i++) {
		struct ucm_reg *r = &m->regs[i];

		r->reset = reg_reset_value(m, r) & ~r->rsvd & ~r->wo;
		r->val = r->reset;
	}
	for (unsigned i = 0; i < m->nboxes; i++) {
		struct ucm_box *b = &m->boxes[i];

		/* a box control with a freeze bit and no enable for it (IVT)
		 * freezes on FRZ alone */
		b->frz_en = b->boxctl && b->boxctl->role[UCM_R_FRZ] >= 0 &&
			    b->boxctl->role[UCM_R_FRZ_EN] < 0;
		b->frozen = 0;
		for (unsigned c = 0; c < b->def->type->nctr; c++) {
			b->ctr[c].val = 0;
			b->ctr[c].prev_cmp = 0;
		}
	}
	/* after every register: a counter's gate reads the global control */
	for (unsigned i = 0; i < m->nboxes; i++)
		ucm_box_recompile(m, &m->boxes[i]);
}

void ucm_reset(struct ucm_model *m)
{
	ucm_agg_exit(m);
	for (unsigned i = 0; i < m->nboxes; i++)
		for (unsigned c = 0; c < m->boxes[i].def->type->nctr; c++)
			ucm_ctr_sync(m, &m->boxes[i].ctr[c]);
	reset_registers(m);
}

/* ---- strict mode ---- */

void ucm_reg_name(const struct ucm_reg *r, char *buf, size_t n)
{
	snprintf(buf, n, r->def->name, (unsigned)r->box->def->inst);
}

void ucm_set_strict(struct ucm_model *m, int on)
{
	m->strict = on;
}

void ucm_strict_add(struct ucm_model *m, const struct ucm_reg *r, uint64_t value,
		    const char *fmt, ...)
{
	struct ucm_strict_rec *rec;
	va_list ap;

	if (!m->strict)
		return;
	if (m->nrecs == m->caprecs) {
		size_t cap = m->caprecs ? m->caprecs * 2 : 16;
		struct ucm_strict_rec *n = realloc(m->recs, cap * sizeof(*n));

		if (!n)
			return; /* records are diagnostics; never fail an access */
		m->recs = n;
		m->caprecs = cap;
	}
	rec = &m->recs[m->nrecs++];
	memset(rec, 0, sizeof(*rec));
	rec->time_ps = m->now_ps;
	rec->space = r->space;
	rec->socket = r->box->socket;
	rec->addr = r->key;
	rec->value = value;
	ucm_reg_name(r, rec->reg, sizeof(rec->reg));
	va_start(ap, fmt);
	vsnprintf(rec->rule, sizeof(rec->rule), fmt, ap);
	va_end(ap);
}

size_t ucm_strict_count(const struct ucm_model *m)
{
	return m->nrecs;
}

const struct ucm_strict_rec *ucm_strict_get(const struct ucm_model *m, size_t i)
{
	return i < m->nrecs ? &m->recs[i] : NULL;
}

void ucm_strict_clear(struct ucm_model *m)
{
	m->nrecs = 0;
}

int ucm_strict_format(const struct ucm_model *m, size_t i, char *buf, size_t n)
{
	static const char *const sp[] = { "msr", "pci", "mmio" };
	const struct ucm_strict_rec *r = ucm_strict_get(m, i);

	if (!r)
		return -ENOENT;
	snprintf(buf, n, "t=%llups socket %u %s 0x%llx %s <- 0x%llx: %s",
		 (unsigned long long)r->time_ps, r->socket, sp[r->space],
		 (unsigned long long)r->addr, r->reg, (unsigned long long)r->value, r->rule);
	return 0;
}

/* ---- the generic access path ---- */

uint64_t ucm_reg_field(const struct ucm_reg *r, unsigned role)
{
	int f = role < UCM_NROLES ? r->role[role] : -1;

	return f < 0 ? 0 : ucm_field_get(&r->def->layout->fields[f], r->val);
}

int ucm_global_enabled(const struct ucm_model *m, unsigned socket)
{
	const struct ucm_reg *g = m->sockets[socket].gctl;

	/* a platform without a global control register has no global gate */
	if (m->sockets[socket].gfrozen)
		return 0;
	return !g || !ucm_layout_field(g->def->layout, UCM_R_GLOBAL_EN) ||
	       ucm_reg_field(g, UCM_R_GLOBAL_EN);
}

/* Write-only global freeze/unfreeze (IVT U_MSR_PMON_GLOBAL_CTL 31/29).
 * Both in one write: the freeze wins (docs/platform-ivt.md). */
static void global_ctl_written(struct ucm_model *m, struct ucm_reg *r, uint64_t v, uint64_t bm)
{
	const struct ucm_layout *l = r->def->layout;
	const struct ucm_field *frz = ucm_layout_field(l, UCM_R_FRZ_ALL);
	const struct ucm_field *unfrz = ucm_layout_field(l, UCM_R_UNFRZ_ALL);
	struct ucm_socket *so = &m->sockets[r->box->socket];

	if (frz && (ucm_field_mask(frz) & bm) && ucm_field_get(frz, v))
		so->gfrozen = 1;
	else if (unfrz && (ucm_field_mask(unfrz) & bm) && ucm_field_get(unfrz, v))
		so->gfrozen = 0;
	ucm_socket_regate(m, r->box->socket);
}

static inline __attribute__((always_inline)) struct ucm_ctr *reg_ctr(struct ucm_reg *r)
{
	return &r->box->ctr[r->def->idx];
}

/* The counter bits of a counter register (its VALUE field, found once). */
static inline __attribute__((always_inline)) uint64_t value_mask(const struct ucm_reg *r)
{
	/* the counter's wmask is that field's mask (ucm_create) */
	return r->box->ctr[r->def->idx].wmask;
}

/* Current value of a register, as hardware would present it. */
static inline __attribute__((always_inline)) uint64_t reg_value(const struct ucm_reg *r)
{
	if (r->def->kind == UCM_K_CTR) {
		const struct ucm_ctr *c = &r->box->ctr[r->def->idx];

		return (r->val & ~value_mask(r)) |
		       c->val;
	}
	return r->val;
}

static inline __attribute__((always_inline)) uint64_t reg_read(struct ucm_model *m, struct ucm_reg *r,
							   int side_effects)
{
	uint64_t v;

	ucm_agg_look(m);
	if (r->def->kind == UCM_K_CTR)
		ucm_ctr_sync(m, reg_ctr(r));
	v = reg_value(r) & ~r->rsvd & ~r->wo;

	if (side_effects && r->def->kind == UCM_K_CTR) {
		struct ucm_ctr *c = reg_ctr(r);

		if (!c->reads) {
			c->first_read = c->total;
			c->first_value = c->val;
			c->first_ps = m->now_ps;
		}
		c->prev_read = c->reads ? c->last_read : c->total;
		c->prev_ps = c->reads ? c->last_ps : m->now_ps;
		c->last_read = c->total;
		c->last_value = c->val;
		c->last_ps = m->now_ps;
		c->last_since = c->total - c->write_total;
		c->reads++;
	}
	(void)m;
	return v;
}

static void box_ctl_written(struct ucm_model *m, struct ucm_reg *r, uint64_t v, uint64_t bm)
{
	struct ucm_box *b = r->box;
	const struct ucm_layout *l = r->def->layout;
	const struct ucm_field *f;

	for (unsigned i = 0; i < b->def->type->nctr; i++)
		ucm_ctr_sync(m, &b->ctr[i]);
	/* frz_en/frz hold state whether the manual calls them WO or RW */
	if ((f = ucm_layout_field(l, UCM_R_FRZ_EN)) && (ucm_field_mask(f) & bm))
		b->frz_en = (int)ucm_field_get(f, v);
	if ((f = ucm_layout_field(l, UCM_R_FRZ)) && (ucm_field_mask(f) & bm))
		b->frozen = (int)ucm_field_get(f, v);
	if ((f = ucm_layout_field(l, UCM_R_RST_CTRL)) && (ucm_field_mask(f) & bm) &&
	    ucm_field_get(f, v)) {
		for (unsigned i = 0; i < b->def->type->nctr; i++) {
			struct ucm_reg *c = b->ctr[i].ctl;

			if (c) {
				c->val = c->reset;
				ucm_ctl_written(m, c, 0, 0);
			}
		}
	}
	if ((f = ucm_layout_field(l, UCM_R_RST_CTRS)) && (ucm_field_mask(f) & bm) &&
	    ucm_field_get(f, v))
		for (unsigned i = 0; i < b->def->type->nctr; i++) {
			b->ctr[i].val = 0;
			b->ctr[i].write_total = b->ctr[i].total;
			b->ctr[i].write_ps = m->now_ps;
		}
	ucm_box_recompile(m, b);
}

static void reg_write(struct ucm_model *m, struct ucm_reg *r, uint64_t v, uint64_t bm)
{
	uint64_t old, nv;

	ucm_agg_look(m);
	if (r->def->kind == UCM_K_CTR)
		ucm_ctr_sync(m, reg_ctr(r));
	old = reg_value(r);

	if (m->strict) {
		if (v & bm & r->rsvd)
			ucm_strict_add(m, r, v, "reserved bits 0x%llx written (%s: Reserved)",
				       (unsigned long long)(v & bm & r->rsvd), r->def->layout->cite);
		if ((v ^ old) & bm & r->ro)
			ucm_strict_add(m, r, v, "read-only bits 0x%llx written with a different value (%s)",
				       (unsigned long long)((v ^ old) & bm & r->ro),
				       r->def->layout->cite);
		if (r->role[UCM_R_MBO] >= 0) {
			uint64_t fm = ucm_field_mask(&r->def->layout->fields[r->role[UCM_R_MBO]]);

			if ((fm & bm) && (v & fm & bm) != (fm & bm))
				ucm_strict_add(m, r, v, "bits 0x%llx written as 0 (%s: software must write 1)",
					       (unsigned long long)(fm & bm & ~v), r->def->layout->cite);
		}
	}
	nv = (old & ~(r->rw & bm)) | (v & r->rw & bm);
	nv &= ~(v & r->w1c & bm);
	switch (r->def->kind) {
	case UCM_K_CTR: {
		struct ucm_ctr *c = reg_ctr(r);
		uint64_t vm = value_mask(r);

		c->val = nv & vm & c->wmask;
		r->val = nv & ~vm;
		if (bm & vm) {
			c->write_total = c->total;
			c->write_ps = m->now_ps;
		}
		ucm_ctr_resched(m, c);
		break;
	}
	case UCM_K_CTL:
		r->val = nv;
		ucm_ctl_written(m, r, v, bm);
		break;
	case UCM_K_BOX_CTL:
		r->val = nv;
		box_ctl_written(m, r, v, bm);
		break;
	case UCM_K_FILTER:
		r->val = nv;
		ucm_box_recompile(m, r->box);
		break;
	case UCM_K_GLOBAL_CTL:
		r->val = nv;
		global_ctl_written(m, r, v, bm);
		break;
	default:
		r->val = nv;
		break;
	}
}

/* ---- decode ---- */

/* Index in the space's sorted list of the first register that ends after
 * key on the socket (PCI keys carry the bus, so PCI ignores the socket). */
static size_t find_index(const struct ucm_model *m, unsigned space, unsigned socket, uint64_t key)
{
	struct ucm_reg *const *v = m->sorted[space];
	size_t lo = 0, hi = m->nsorted[space];
	unsigned ss = space == UCM_PCI ? 0 : socket;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct ucm_reg *r = v[mid];
		unsigned rs = space == UCM_PCI ? 0 : r->box->socket;

		if (rs < ss || (rs == ss && r->key + (space == UCM_MSR ? 1 : r->bytes) <= key))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct ucm_reg *find_first(struct ucm_model *m, unsigned space, unsigned socket,
				  uint64_t key)
{
	size_t i = find_index(m, space, socket, key);

	return i < m->nsorted[space] ? m->sorted[space][i] : NULL;
}

static size_t msr_slot(const struct ucm_model *m, unsigned socket, uint64_t addr)
{
	return (size_t)(((uint64_t)socket << 32 | addr) * 0x9E3779B97F4A7C15ull >> 32) & m->msr_hmask;
}

/* The MSR at addr on a socket: the decode every rdmsr/wrmsr does, by hash
 * (the sorted index serves the ranges of PCI and MMIO byte lanes). */
static struct ucm_reg *find_msr(struct ucm_model *m, unsigned socket, uint32_t addr)
{
	for (size_t h = msr_slot(m, socket, addr);; h = (h + 1) & m->msr_hmask) {
		struct ucm_reg *r = m->msr_hash[h];

		if (!r || (r->key == addr && r->box->socket == socket))
			return r;
	}
}

static int msr_hash_build(struct ucm_model *m)
{
	size_t n = 16;

	while (n < 2 * m->nsorted[UCM_MSR] + 2)
		n *= 2;
	m->msr_hash = calloc(n, sizeof(*m->msr_hash));
	if (!m->msr_hash)
		return -ENOMEM;
	m->msr_hmask = n - 1;
	for (size_t i = 0; i < m->nsorted[UCM_MSR]; i++) {
		struct ucm_reg *r = m->sorted[UCM_MSR][i];
		size_t h = msr_slot(m, r->box->socket, r->key);

		while (m->msr_hash[h])
			h = (h + 1) & m->msr_hmask;
		m->msr_hash[h] = r;
	}
	return 0;
}

/* Time passes for every access: the cost of the access itself. */
static int access_cost(struct ucm_model *m, unsigned space)
{
	return ucm_advance_to(m, m->now_ps + m->cfg.access_ps[space]);
}

static int cpu_socket(struct ucm_model *m, unsigned cpu, unsigned *socket)
{
	if (cpu >= m->nsockets * m->ncores)
		return ucm_seterr(m, -ENXIO, "cpu %u does not exist (%u sockets x %u cpus)", cpu,
				  m->nsockets, m->ncores);
	*socket = cpu / m->ncores;
	return 0;
}

int ucm_msr_read(struct ucm_model *m, unsigned cpu, uint32_t addr, uint64_t *val)
{
	unsigned s = 0;
	struct ucm_reg *r;
	int rc;

	*val = 0;
	if ((rc = cpu_socket(m, cpu, &s)) || (rc = access_cost(m, UCM_MSR)))
		return rc;
	r = find_msr(m, s, addr);
	if (!r)
		return ucm_seterr(m, -EIO, "rdmsr 0x%x on cpu %u: no such MSR (#GP)", addr, cpu);
	*val = reg_read(m, r, 1);
	ucm_observe(m, UCM_OBS_ACCESS);
	return 0;
}

int ucm_msr_write(struct ucm_model *m, unsigned cpu, uint32_t addr, uint64_t val)
{
	unsigned s = 0;
	struct ucm_reg *r;
	int rc;

	if ((rc = cpu_socket(m, cpu, &s)) || (rc = access_cost(m, UCM_MSR)))
		return rc;
	r = find_msr(m, s, addr);
	if (!r)
		return ucm_seterr(m, -EIO, "wrmsr 0x%x on cpu %u: no such MSR (#GP)", addr, cpu);
	reg_write(m, r, val, ~0ull);
	ucm_observe(m, UCM_OBS_ACCESS);
	return 0;
}

/* Byte-lane access to PCI config or MMIO: the registers overlapping
 * [key, key+width) each see the bytes that fall on them. */
static void lanes(struct ucm_model *m, unsigned space, unsigned socket, uint64_t key,
		  unsigned width, uint64_t *val, int write, int side_effects)
{
	struct ucm_reg **v = m->sorted[space];
	uint64_t out = 0;

	for (size_t i = find_index(m, space, socket, key); i < m->nsorted[space]; i++) {
		struct ucm_reg *r = v[i];
		uint64_t bm = 0, rv = 0;

		if (space != UCM_PCI && r->box->socket != socket)
			break;
		if (r->key >= key + width)
			break;
		/* byte b of the access is byte (key + b - r->key) of the register */
		for (unsigned b = 0; b < width; b++) {
			uint64_t a = key + b;

			if (a >= r->key && a < r->key + r->bytes) {
				unsigned rb = (unsigned)(a - r->key);

				bm |= 0xFFull << (8 * rb);
				if (write)
					rv |= ((*val >> (8 * b)) & 0xFF) << (8 * rb);
			}
		}
		if (!bm)
			continue;
		if (write) {
			reg_write(m, r, rv, bm);
		} else {
			uint64_t x = reg_read(m, r, side_effects);

			for (unsigned b = 0; b < width; b++) {
				uint64_t a = key + b;

				if (a >= r->key && a < r->key + r->bytes)
					out |= ((x >> (8 * (a - r->key))) & 0xFF) << (8 * b);
			}
		}
	}
	if (!write)
		*val = out;
}

static int pci_present(struct ucm_model *m, unsigned bus, unsigned dev, unsigned fn)
{
	struct ucm_reg *r = find_first(m, UCM_PCI, 0, ucm_pci_key(bus, dev, fn, 0));

	return r && (r->key >> 12) == (ucm_pci_key(bus, dev, fn, 0) >> 12);
}

static int pci_check(struct ucm_model *m, unsigned seg, unsigned bus, unsigned dev,
		     unsigned fn, unsigned off, unsigned width)
{
	if (width != 1 && width != 2 && width != 4 && width != 8)
		return ucm_seterr(m, -EINVAL, "PCI config access of %u bytes (1, 2, 4 or 8)", width);
	if (bus > 255 || dev > 31 || fn > 7 || off + width > 4096)
		return ucm_seterr(m, -EINVAL, "PCI config address %04x:%02x:%02x.%x+0x%x out of range",
				  seg, bus, dev, fn, off);
	if (seg != 0 || !pci_present(m, bus, dev, fn))
		return ucm_seterr(m, -ENODEV, "no PCI device at %04x:%02x:%02x.%x", seg, bus, dev, fn);
	return 0;
}

int ucm_pci_read(struct ucm_model *m, unsigned seg, unsigned bus, unsigned dev,
		 unsigned fn, unsigned off, unsigned width, uint64_t *val)
{
	int rc = access_cost(m, UCM_PCI);

	*val = width >= 8 ? ~0ull : (1ull << (8 * width)) - 1;
	if (rc || (rc = pci_check(m, seg, bus, dev, fn, off, width)))
		return rc;
	lanes(m, UCM_PCI, 0, ucm_pci_key(bus, dev, fn, off), width, val, 0, 1);
	ucm_observe(m, UCM_OBS_ACCESS);
	return 0;
}

int ucm_pci_write(struct ucm_model *m, unsigned seg, unsigned bus, unsigned dev,
		  unsigned fn, unsigned off, unsigned width, uint64_t val)
{
	int rc = access_cost(m, UCM_PCI);

	if (rc || (rc = pci_check(m, seg, bus, dev, fn, off, width)))
		return rc;
	lanes(m, UCM_PCI, 0, ucm_pci_key(bus, dev, fn, off), width, &val, 1, 1);
	ucm_observe(m, UCM_OBS_ACCESS);
	return 0;
}

/* The MMIO window of each socket: the BAR register's base when enabled. */
static int mmio_decode(struct ucm_model *m, uint64_t pa, unsigned width, unsigned *socket,
		       uint64_t *off)
{
	if (width != 4 && width != 8)
		return ucm_seterr(m, -EINVAL, "MMIO access of %u bytes at 0x%llx (4 or 8)", width,
				  (unsigned long long)pa);
	if (pa % width)
		return ucm_seterr(m, -EINVAL, "unaligned %u-byte MMIO access at 0x%llx", width,
				  (unsigned long long)pa);
	for (unsigned s = 0; s < m->nsockets; s++) {
		const struct ucm_reg *bar = m->sockets[s].bar;
		uint64_t base;

		if (!bar || !ucm_reg_field(bar, UCM_R_BAR_EN))
			continue;
		base = bar->val & m->plat->bar_mask;
		if (pa >= base && pa + width <= base + m->plat->bar_size) {
			*socket = s;
			*off = pa - base;
			return 0;
		}
	}
	return ucm_seterr(m, -ENXIO, "no device decodes physical address 0x%llx",
			  (unsigned long long)pa);
}

int ucm_mmio_read(struct ucm_model *m, uint64_t pa, unsigned width, uint64_t *val)
{
	unsigned s = 0;
	uint64_t off = 0;
	int rc = access_cost(m, UCM_MMIO);

	*val = width >= 8 ? ~0ull : (1ull << (8 * width)) - 1;
	if (rc || (rc = mmio_decode(m, pa, width, &s, &off)))
		return rc;
	if (m->strict && width == 8) {
		/* a 64-bit load over two 32-bit counters returns both, torn */
		struct ucm_reg *r = find_first(m, UCM_MMIO, s, off);

		if (r && r->box->socket == s && r->def->kind == UCM_K_CTR && r->bytes < 8 &&
		    r->key < off + 8)
			ucm_strict_add(m, r, off,
				       "64-bit read over 32-bit counters (SKL Table 3-3: counters are 32-bit)");
	}
	lanes(m, UCM_MMIO, s, off, width, val, 0, 1);
	ucm_observe(m, UCM_OBS_ACCESS);
	return 0;
}

int ucm_mmio_write(struct ucm_model *m, uint64_t pa, unsigned width, uint64_t val)
{
	unsigned s = 0;
	uint64_t off = 0;
	int rc = access_cost(m, UCM_MMIO);

	if (rc || (rc = mmio_decode(m, pa, width, &s, &off)))
		return rc;
	lanes(m, UCM_MMIO, s, off, width, &val, 1, 1);
	ucm_observe(m, UCM_OBS_ACCESS);
	return 0;
}

int ucm_peek(struct ucm_model *m, unsigned space, unsigned socket, uint64_t key, uint64_t *val)
{
	struct ucm_reg *r;

	if (space >= UCM_NSPACES)
		return -EINVAL;
	r = find_first(m, space, socket, key);
	if (!r || r->key != key || (space != UCM_PCI && r->box->socket != socket))
		return ucm_seterr(m, -ENOENT, "no register at that address");
	*val = reg_read(m, r, 0);
	return 0;
}

int ucm_peek_index(struct ucm_model *m, size_t i, uint64_t *val)
{
	if (i >= m->nregs)
		return ucm_seterr(m, -ENOENT, "no register %zu", i);
	*val = reg_read(m, &m->regs[i], 0);
	return 0;
}

int ucm_read_index(struct ucm_model *m, size_t i, uint64_t *val)
{
	int rc;

	*val = 0;
	if (i >= m->nregs)
		return ucm_seterr(m, -ENOENT, "no register %zu", i);
	if ((rc = access_cost(m, m->regs[i].space)))
		return rc;
	*val = reg_read(m, &m->regs[i], 1);
	ucm_observe(m, UCM_OBS_ACCESS);
	return 0;
}

int ucm_write_index(struct ucm_model *m, size_t i, uint64_t val)
{
	int rc;

	if (i >= m->nregs)
		return ucm_seterr(m, -ENOENT, "no register %zu", i);
	if ((rc = access_cost(m, m->regs[i].space)))
		return rc;
	reg_write(m, &m->regs[i], val, ~0ull);
	ucm_observe(m, UCM_OBS_ACCESS);
	return 0;
}

int ucm_peek_regs(struct ucm_model *m, size_t first, size_t n, uint64_t *vals)
{
	if (first > m->nregs || n > m->nregs - first)
		return ucm_seterr(m, -ENOENT, "no registers %zu..%zu (%zu)", first, first + n, m->nregs);
	for (size_t i = 0; i < n; i++)
		vals[i] = reg_read(m, &m->regs[first + i], 0);
	return 0;
}

int ucm_msr_peek(struct ucm_model *m, unsigned cpu, uint32_t addr, uint64_t *val)
{
	unsigned s = 0;
	struct ucm_reg *r;
	int rc;

	*val = 0;
	if ((rc = cpu_socket(m, cpu, &s)))
		return rc;
	r = find_msr(m, s, addr);
	if (!r)
		return ucm_seterr(m, -EIO, "rdmsr 0x%x on cpu %u: no such MSR (#GP)", addr, cpu);
	*val = reg_read(m, r, 0);
	return 0;
}

int ucm_pci_peek(struct ucm_model *m, unsigned seg, unsigned bus, unsigned dev, unsigned fn,
		 unsigned off, unsigned width, uint64_t *val)
{
	int rc;

	*val = width >= 8 ? ~0ull : (1ull << (8 * width)) - 1;
	if ((rc = pci_check(m, seg, bus, dev, fn, off, width)))
		return rc;
	lanes(m, UCM_PCI, 0, ucm_pci_key(bus, dev, fn, off), width, val, 0, 0);
	return 0;
}

int ucm_mmio_peek(struct ucm_model *m, uint64_t pa, unsigned width, uint64_t *val)
{
	unsigned s = 0;
	uint64_t off = 0;
	int rc;

	*val = width >= 8 ? ~0ull : (1ull << (8 * width)) - 1;
	if ((rc = mmio_decode(m, pa, width, &s, &off)))
		return rc;
	lanes(m, UCM_MMIO, s, off, width, val, 0, 0);
	return 0;
}

/* ---- enumeration ---- */

size_t ucm_nregs(const struct ucm_model *m)
{
	return m->nregs;
}

int ucm_reginfo(const struct ucm_model *m, size_t i, struct ucm_reginfo *ri)
{
	const struct ucm_reg *r;

	if (i >= m->nregs)
		return -ENOENT;
	r = &m->regs[i];
	memset(ri, 0, sizeof(*ri));
	ucm_reg_name(r, ri->name, sizeof(ri->name));
	ri->space = r->space;
	ri->socket = r->box->socket;
	ri->addr = r->key;
	ri->kind = r->def->kind;
	ri->idx = r->def->idx;
	ri->width = r->def->layout->width;
	ri->layout = r->def->layout;
	ri->box = r->box->def;
	ri->reset = r->reset;
	ri->rw_mask = r->rw;
	ri->ro_mask = r->ro;
	ri->w1c_mask = r->w1c;
	ri->wo_mask = r->wo;
	ri->rsvd_mask = r->rsvd;
	return 0;
}

/* ---- boxes, inputs, truth ---- */

unsigned ucm_box_count(const struct ucm_model *m)
{
	return m->nboxes;
}

int ucm_box_find(const struct ucm_model *m, unsigned socket, const char *type, unsigned inst)
{
	for (unsigned i = 0; i < m->nboxes; i++) {
		const struct ucm_box *b = &m->boxes[i];

		if (b->socket == socket && b->def->inst == inst &&
		    strcmp(b->def->type->name, type) == 0)
			return (int)i;
	}
	return -1;
}

const struct ucm_boxinst *ucm_box_def(const struct ucm_model *m, int box)
{
	return box >= 0 && (unsigned)box < m->nboxes ? m->boxes[box].def : NULL;
}

unsigned ucm_box_socket(const struct ucm_model *m, int box)
{
	return box >= 0 && (unsigned)box < m->nboxes ? m->boxes[box].socket : 0;
}

/* Set an input: what it fed until now goes into its ground truth, and the
 * list of nonzero inputs (what ucm_clear_inputs visits) follows. */
static void input_put(struct ucm_model *m, struct ucm_box *b, unsigned sub, uint32_t inc)
{
	struct ucm_sub *s = &b->sub[sub];
	uint64_t now = m->clk_cycles[b->def->type->clock];

	sub_touch(m, b, sub);
	s->fed += (uint64_t)s->input * (now - s->c0);
	s->c0 = now;
	if (!b->sub[sub].input && inc) {
		b->act[b->nact++] = (uint16_t)sub;
		b->sub[sub].act_pos = (uint16_t)b->nact;
	} else if (b->sub[sub].input && !inc) {
		unsigned k = b->sub[sub].act_pos - 1u, last = b->act[--b->nact];

		b->act[k] = (uint16_t)last;
		b->sub[last].act_pos = (uint16_t)(k + 1);
		b->sub[sub].act_pos = 0;
	}
	b->code[b->sub[sub].code].sum += (uint64_t)inc - b->sub[sub].input;
	b->sub[sub].input = inc;
}

int ucm_set_input(struct ucm_model *m, int box, unsigned sub, uint32_t inc)
{
	struct ucm_box *b;
	uint32_t old;
	uint64_t sum;
	unsigned code;

	if (box < 0 || (unsigned)box >= m->nboxes)
		return ucm_seterr(m, -ENOENT, "no box %d", box);
	b = &m->boxes[box];
	if (sub >= b->nsub)
		return ucm_seterr(m, -ENOENT, "%s%u has no sub-event %u", b->def->type->name,
				  b->def->inst, sub);
	ucm_agg_exit(m);
	old = b->sub[sub].input;
	if (old == inc)
		return 0;
	code = b->sub[sub].code;
	sum = b->code[code].sum - old + inc;
	if (sum > b->code[code].max) {
		const struct ucm_evcode *ec = &b->def->type->codes[code];
		char name[96];

		return ucm_seterr(m, -ERANGE,
				  "%s%u %s: increment %llu per cycle exceeds the event's maximum %u (%s)",
				  b->def->type->name, b->def->inst,
				  ucm_subev_name(b->def->type, sub, name, sizeof(name)),
				  (unsigned long long)sum, ec->max_inc, ec->cite);
	}
	input_put(m, b, sub, inc);
	ucm_input_changed(m, b, sub, old);
	return 0;
}

uint32_t ucm_get_input(const struct ucm_model *m, int box, unsigned sub)
{
	if (box < 0 || (unsigned)box >= m->nboxes || sub >= m->boxes[box].nsub)
		return 0;
	if (m->agg)
		return ucm_agg_input(m, box, sub);
	return m->boxes[box].sub[sub].input;
}

unsigned ucm_input_fanout(const struct ucm_model *m, int box, unsigned sub)
{
	const struct ucm_box *b;

	if (box < 0 || (unsigned)box >= m->nboxes || sub >= m->boxes[box].nsub)
		return 0;
	b = &m->boxes[box];
	return (unsigned)__builtin_popcount((unsigned)(b->sub[sub].selmask | b->sub[sub].occmask));
}

void ucm_attr_put(struct ucm_model *m, struct ucm_box *b, unsigned sub, unsigned attr, uint64_t v)
{
	if (b->attr[sub * UCM_NATTR + attr] == v)
		return;
	sub_touch(m, b, sub);
	b->attr[sub * UCM_NATTR + attr] = v;
	ucm_attr_changed(m, b, sub);
}

int ucm_set_input_attr(struct ucm_model *m, int box, unsigned sub, unsigned attr, uint64_t v)
{
	struct ucm_box *b;

	if (box < 0 || (unsigned)box >= m->nboxes)
		return ucm_seterr(m, -ENOENT, "no box %d", box);
	b = &m->boxes[box];
	if (sub >= b->nsub || attr >= UCM_NATTR)
		return ucm_seterr(m, -ENOENT, "%s%u has no sub-event %u attribute %u",
				  b->def->type->name, b->def->inst, sub, attr);
	/* an attribute the phase in effect holds: what it returns to */
	if (!m->agg && ucm_ov_set_base(m, box, sub, attr, v))
		return 0;
	if (b->attr[sub * UCM_NATTR + attr] != v) {
		uint64_t old = b->attr[sub * UCM_NATTR + attr];

		sub_touch(m, b, sub);
		b->attr[sub * UCM_NATTR + attr] = v;
		/* during an epoch of phases, a change no counter's filters see
		 * changes nothing counted: the epoch goes on */
		if (m->agg && !ucm_attr_selects_other(b, sub))
			return 0;
		if (m->agg) {
			b->attr[sub * UCM_NATTR + attr] = old;
			ucm_agg_end(m);
			b->attr[sub * UCM_NATTR + attr] = v;
		}
		/* what the filters pass may change, for this sub-event only */
		ucm_attr_changed(m, b, sub);
	}
	return 0;
}

uint64_t ucm_get_input_attr(const struct ucm_model *m, int box, unsigned sub, unsigned attr)
{
	uint64_t v;

	if (box < 0 || (unsigned)box >= m->nboxes || sub >= m->boxes[box].nsub || attr >= UCM_NATTR)
		return UCM_ATTR_NONE;
	if (m->agg && ucm_ov_get(m, box, sub, attr, &v))
		return v;
	return m->boxes[box].attr[sub * UCM_NATTR + attr];
}

void ucm_clear_inputs(struct ucm_model *m)
{
	ucm_agg_exit(m);
	ucm_ov_remove(m);
	for (unsigned i = 0; i < m->nboxes; i++) {
		struct ucm_box *b = &m->boxes[i];

		if (!b->nact)
			continue;
		while (b->nact) {
			unsigned sub = b->act[b->nact - 1];
			uint32_t old = b->sub[sub].input;

			input_put(m, b, sub, 0);
			ucm_input_changed(m, b, sub, old);
		}
	}
}

uint64_t ucm_fed(const struct ucm_model *m, int box, unsigned sub)
{
	const struct ucm_box *b;
	const struct ucm_sub *s;

	if (box < 0 || (unsigned)box >= m->nboxes || sub >= m->boxes[box].nsub)
		return 0;
	b = &m->boxes[box];
	s = &b->sub[sub];
	if (m->agg)
		return ucm_agg_fed(m, box, sub);
	return s->fed + (uint64_t)s->input * (m->clk_cycles[b->def->type->clock] - s->c0);
}

void ucm_truth_mark(struct ucm_model *m)
{
	for (unsigned i = 0; i < m->nboxes; i++)
		for (unsigned c = 0; c < UCM_MAXCTR; c++) {
			m->boxes[i].ctr[c].reads = 0;
			m->boxes[i].ctr[c].write_ps = 0;
		}
}

int ucm_truth(const struct ucm_model *m, int box, unsigned ctr, struct ucm_truth *t)
{
	const struct ucm_ctr *c;
	uint64_t val;

	if (box < 0 || (unsigned)box >= m->nboxes || ctr >= m->boxes[box].def->type->nctr)
		return -ENOENT;
	c = &m->boxes[box].ctr[ctr];
	ucm_ctr_view(m, c, &val, &t->total, &t->wraps);
	t->first_read = c->first_read;
	t->last_read = c->last_read;
	t->reads = c->reads;
	t->first_value = c->first_value;
	t->last_value = c->last_value;
	t->first_ps = c->first_ps;
	t->last_ps = c->last_ps;
	t->write_total = c->write_total;
	t->write_ps = c->write_ps;
	t->since_set = c->last_since;
	t->prev_read = c->prev_read;
	t->prev_ps = c->prev_ps;
	return 0;
}

/* ---- interrupts ---- */

void ucm_core_sleep(struct ucm_model *m, unsigned socket, unsigned core, int asleep)
{
	if (socket < m->nsockets && core < m->ncores)
		m->sockets[socket].asleep[core] = (uint8_t)!!asleep;
}

int ucm_core_asleep(const struct ucm_model *m, unsigned socket, unsigned core)
{
	return socket < m->nsockets && core < m->ncores && m->sockets[socket].asleep[core];
}

void ucm_pmi_stats(const struct ucm_model *m, unsigned socket, unsigned core,
		   struct ucm_pmi_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (socket < m->nsockets && core < m->ncores) {
		*st = m->sockets[socket].pmi[core];
		/* the requests the uncore raised, whichever cores they went to
		 * (deliver_pmi counts them per socket only) */
		st->requests = m->sockets[socket].pmi_requests;
	}
}

uint64_t ucm_pmi_requests(const struct ucm_model *m, unsigned socket)
{
	return socket < m->nsockets ? m->sockets[socket].pmi_requests : 0;
}

void ucm_set_observer(struct ucm_model *m, ucm_obs_fn fn, void *ctx)
{
	/* an observer sees every change: no phase sums from here */
	ucm_agg_exit(m);
	m->obs_fn = fn;
	m->obs_ctx = ctx;
}

int ucm_box_frozen(const struct ucm_model *m, int box)
{
	const struct ucm_box *b;

	if (box < 0 || (unsigned)box >= m->nboxes)
		return 0;
	b = &m->boxes[box];
	return b->frz_en && b->frozen;
}

int ucm_global_frozen(const struct ucm_model *m, unsigned socket)
{
	return socket < m->nsockets && m->sockets[socket].gfrozen;
}

uint64_t ucm_overflow_freezes(const struct ucm_model *m, unsigned socket)
{
	return socket < m->nsockets ? m->sockets[socket].freezes : 0;
}
