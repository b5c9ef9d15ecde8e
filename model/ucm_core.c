/*
 * ucm_core.c - a model's life: construction from the platform's tables and
 * the configuration (register instances with their masks, boxes, counters,
 * sub-events, clocks), restart, hardware reset and destruction, and the
 * shape it was built with (sockets, PCI buses, node IDs, instances).
 *
 * The rest of the model: the register access path (ucm_access.c), inputs
 * (ucm_input.c), counting and time (ucm_count.c), phases (ucm_phase*.c),
 * what it reports (ucm_truth.c, ucm_diag.c), the tables read
 * (ucm_tables.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ucm_internal.h"

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

unsigned ucm_cpus_per_socket(const struct ucm_model *m)
{
	return m->ncores;
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
		unsigned want;

		/* per-type arrays hold UCM_MAXBT: a larger table is an error
		 * in it, not a write past them */
		if (ti < 0 || ti >= UCM_MAXBT) {
			ucm_seterr(m, -EINVAL, "%s: box type %s is its %d-th, the model holds %u box types",
				   p->name, bt->name, ti + 1, UCM_MAXBT);
			*out = m;
			return -EINVAL;
		}
		want = cfg->ninst[ti] ? cfg->ninst[ti] : bt->ninst_default;

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
	m->heap = calloc((size_t)m->nboxes * UCM_MAXCTR + 1, sizeof(*m->heap));
	m->touched = calloc(ntouch ? ntouch : 1, sizeof(*m->touched));
	if (!m->heap || !m->touched || ucm_decode_init(m))
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

