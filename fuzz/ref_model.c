/*
 * ref_model.c - the naive reference model (see ref_model.h).  Written for
 * obviousness, not speed: writes walk the fields bit by bit, time walks one
 * cycle at a time, nothing is cached.
 */
#include <string.h>

#include "ref_model.h"

static uint64_t bits(unsigned lo, unsigned hi)
{
	uint64_t m = 0;

	for (unsigned b = lo; b <= hi; b++)
		m |= 1ull << b;
	return m;
}

static const struct ucm_field *field(const struct ucm_layout *l, unsigned role)
{
	for (unsigned i = 0; i < l->nfields; i++)
		if (l->fields[i].role == role)
			return &l->fields[i];
	return NULL;
}

static uint64_t get(const struct ucm_layout *l, unsigned role, uint64_t v)
{
	const struct ucm_field *f = field(l, role);

	return f ? (v & bits(f->lo, f->hi)) >> f->lo : 0;
}

/* The field a bit belongs to, or NULL for a reserved bit. */
static const struct ucm_field *field_of_bit(const struct ucm_layout *l, unsigned b)
{
	for (unsigned i = 0; i < l->nfields; i++)
		if (b >= l->fields[i].lo && b <= l->fields[i].hi)
			return &l->fields[i];
	return NULL;
}

/* Box types numbered by first appearance, as the model's configuration. */
static int type_index(const struct ucm_platform *p, const struct ucm_boxtype *bt)
{
	int n = 0;

	for (unsigned i = 0; i < p->nboxes; i++) {
		int seen = 0;

		for (unsigned j = 0; j < i; j++)
			seen |= p->boxes[j].type == p->boxes[i].type;
		if (seen)
			continue;
		if (p->boxes[i].type == bt)
			return n;
		n++;
	}
	return -1;
}

static unsigned ninst_of(const struct ref_model *r, const struct ucm_boxtype *bt)
{
	int i = type_index(r->p, bt);

	return r->ninst[i] ? r->ninst[i] : bt->ninst_default;
}

static uint64_t reset_value(const struct ref_model *r, const struct ref_reg *g)
{
	const struct ucm_layout *l = g->def->layout;
	uint64_t v = g->def->reset, keep = 0;

	if (g->def->kind == UCM_K_DEVID)
		v = r->p->devids[0];
	else if (g->def->kind == UCM_K_BAR)
		v = r->p->bar_default;
	else if (g->def->kind == UCM_K_NBOXES)
		v = ninst_of(r, r->p->counted) + (uint64_t)(int64_t)r->p->counted_bias;
	for (unsigned i = 0; i < l->nfields; i++)
		if (l->fields[i].access != UCM_A_WO)
			keep |= bits(l->fields[i].lo, l->fields[i].hi);
	return v & keep;
}

void ref_init(struct ref_model *r, const struct ucm_platform *p, const unsigned *ninst)
{
	memset(r, 0, sizeof(*r));
	r->p = p;
	r->ncores = p->ncores;
	for (unsigned i = 0; i < UCM_MAXBT; i++)
		r->ninst[i] = ninst ? ninst[i] : 0;
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxinst *bi = &p->boxes[i];

		if (bi->inst >= ninst_of(r, bi->type))
			continue;
		r->boxes[r->nboxes].bi = bi;
		for (unsigned k = 0; k < bi->type->nregs; k++) {
			struct ref_reg *g = &r->regs[r->nregs++];
			const struct ucm_regdef *d = &bi->type->regs[k];

			g->def = d;
			g->box = (int)r->nboxes;
			g->space = bi->type->space;
			g->bytes = d->layout->width / 8;
			if (g->space == UCM_PCI)
				g->key = (uint64_t)p->pci_bus[0] << 20 | (uint64_t)bi->dev << 15 |
					 (uint64_t)bi->fn << 12 | (bi->base + d->off);
			else
				g->key = bi->base + d->off;
		}
		r->nboxes++;
	}
	for (unsigned b = 0; b < r->nboxes; b++)
		for (unsigned c = 0; c < 8; c++) {
			r->boxes[b].ctl[c] = r->boxes[b].ctr[c] = -1;
			for (unsigned i = 0; i < r->nregs; i++)
				if (r->regs[i].box == (int)b && r->regs[i].def->idx == c) {
					if (r->regs[i].def->kind == UCM_K_CTL)
						r->boxes[b].ctl[c] = (int)i;
					else if (r->regs[i].def->kind == UCM_K_CTR)
						r->boxes[b].ctr[c] = (int)i;
				}
		}
	ref_reset(r);
}

void ref_reset(struct ref_model *r)
{
	for (unsigned i = 0; i < r->nregs; i++)
		r->regs[i].val = reset_value(r, &r->regs[i]);
	for (unsigned b = 0; b < r->nboxes; b++) {
		memset(r->boxes[b].prev, 0, sizeof(r->boxes[b].prev));
		r->boxes[b].frz_en = r->boxes[b].frozen = 0;
	}
}

int ref_find(const struct ref_model *r, unsigned space, uint64_t key)
{
	for (unsigned i = 0; i < r->nregs; i++)
		if (r->regs[i].space == space && r->regs[i].key == key)
			return (int)i;
	return -1;
}

/* Counter control and value registers, found once at init. */
static struct ref_reg *reg_of(struct ref_model *r, int box, unsigned kind, unsigned idx)
{
	int i = kind == UCM_K_CTL ? r->boxes[box].ctl[idx] : r->boxes[box].ctr[idx];

	return i < 0 ? NULL : &r->regs[i];
}

static struct ref_reg *global_reg(struct ref_model *r, unsigned kind)
{
	for (unsigned i = 0; i < r->nregs; i++)
		if (r->regs[i].def->kind == kind)
			return &r->regs[i];
	return NULL;
}

uint64_t ref_peek(const struct ref_model *r, unsigned i)
{
	return r->regs[i].val;
}

/* Bit by bit, by the access type of the field each bit is in. */
static void write_reg(struct ref_model *r, struct ref_reg *g, uint64_t v, uint64_t bm)
{
	const struct ucm_layout *l = g->def->layout;
	uint64_t nv = g->val, written1 = 0;

	for (unsigned b = 0; b < l->width; b++) {
		const struct ucm_field *f;
		uint64_t m = 1ull << b;

		if (!(bm & m))
			continue;
		f = field_of_bit(l, b);
		if (!f)
			continue;
		switch (f->access) {
		case UCM_A_RW:
			nv = (nv & ~m) | (v & m);
			break;
		case UCM_A_RW1C:
			if (v & m)
				nv &= ~m;
			break;
		case UCM_A_WO:
			if (v & m)
				written1 |= m;
			break;
		default:
			break;
		}
	}
	g->val = nv;
	if (g->def->kind == UCM_K_CTL) {
		const struct ucm_field *rst = field(l, UCM_R_RST);

		r->boxes[g->box].prev[g->def->idx] = 0;
		if (rst && (written1 & bits(rst->lo, rst->hi))) {
			struct ref_reg *c = reg_of(r, g->box, UCM_K_CTR, g->def->idx);

			if (c)
				c->val = 0;
		}
	} else if (g->def->kind == UCM_K_BOX_CTL) {
		struct ref_box *bx = &r->boxes[g->box];
		const struct ucm_field *f;

		if ((f = field(l, UCM_R_FRZ_EN)) && (bm & bits(f->lo, f->hi)))
			bx->frz_en = (v & bits(f->lo, f->hi)) != 0;
		if ((f = field(l, UCM_R_FRZ)) && (bm & bits(f->lo, f->hi)))
			bx->frozen = (v & bits(f->lo, f->hi)) != 0;
		if ((f = field(l, UCM_R_RST_CTRL)) && (bm & v & bits(f->lo, f->hi)))
			for (unsigned i = 0; i < bx->bi->type->nctr; i++) {
				struct ref_reg *c = reg_of(r, g->box, UCM_K_CTL, i);

				if (c)
					c->val = reset_value(r, c);
				bx->prev[i] = 0;
			}
		if ((f = field(l, UCM_R_RST_CTRS)) && (bm & v & bits(f->lo, f->hi)))
			for (unsigned i = 0; i < bx->bi->type->nctr; i++) {
				struct ref_reg *c = reg_of(r, g->box, UCM_K_CTR, i);

				if (c)
					c->val = 0;
			}
	}
}

int ref_msr_read(struct ref_model *r, uint32_t addr, uint64_t *v)
{
	int i = ref_find(r, UCM_MSR, addr);

	*v = 0;
	if (i < 0)
		return -1;
	*v = r->regs[i].val;
	return 0;
}

int ref_msr_write(struct ref_model *r, uint32_t addr, uint64_t v)
{
	int i = ref_find(r, UCM_MSR, addr);

	if (i < 0)
		return -1;
	write_reg(r, &r->regs[i], v, ~0ull);
	return 0;
}

/* Byte lanes: byte j of an access at key goes to the register covering
 * key + j; registers are written in address order, each once. */
static void lanes(struct ref_model *r, unsigned space, uint64_t key, unsigned width, uint64_t *v,
		  int write)
{
	uint64_t out = 0;
	int handled[REF_MAXREGS];

	memset(handled, 0, sizeof(handled));
	{
		for (;;) {
			/* the lowest overlapping register not handled yet */
			int best = -1;
			uint64_t vals = 0, bm = 0;

			for (unsigned i = 0; i < r->nregs; i++) {
				const struct ref_reg *g = &r->regs[i];

				if (handled[i] || g->space != space || g->key >= key + width ||
				    g->key + g->bytes <= key)
					continue;
				if (best < 0 || g->key < r->regs[best].key)
					best = (int)i;
			}
			if (best < 0)
				break;
			handled[best] = 1;
			for (unsigned j = 0; j < width; j++) {
				uint64_t a = key + j;
				const struct ref_reg *g = &r->regs[best];

				if (a < g->key || a >= g->key + g->bytes)
					continue;
				bm |= 0xFFull << (8 * (a - g->key));
				if (write)
					vals |= ((*v >> (8 * j)) & 0xFF) << (8 * (a - g->key));
				else
					out |= ((g->val >> (8 * (a - g->key))) & 0xFF) << (8 * j);
			}
			if (write)
				write_reg(r, &r->regs[best], vals, bm);
		}
	}
	if (!write)
		*v = out;
}

static int pci_ok(const struct ref_model *r, unsigned bus, unsigned dev, unsigned fn, unsigned off,
		  unsigned width)
{
	if (width != 1 && width != 2 && width != 4 && width != 8)
		return 0;
	if (bus > 255 || dev > 31 || fn > 7 || off + width > 4096)
		return 0;
	for (unsigned i = 0; i < r->nregs; i++)
		if (r->regs[i].space == UCM_PCI &&
		    (r->regs[i].key >> 12) == ((uint64_t)bus << 8 | (uint64_t)dev << 3 | fn))
			return 1;
	return 0;
}

int ref_pci_read(struct ref_model *r, unsigned bus, unsigned dev, unsigned fn, unsigned off,
		 unsigned width, uint64_t *v)
{
	if (!pci_ok(r, bus, dev, fn, off, width))
		return -1;
	lanes(r, UCM_PCI, (uint64_t)bus << 20 | (uint64_t)dev << 15 | (uint64_t)fn << 12 | off, width, v, 0);
	return 0;
}

int ref_pci_write(struct ref_model *r, unsigned bus, unsigned dev, unsigned fn, unsigned off,
		  unsigned width, uint64_t v)
{
	if (!pci_ok(r, bus, dev, fn, off, width))
		return -1;
	lanes(r, UCM_PCI, (uint64_t)bus << 20 | (uint64_t)dev << 15 | (uint64_t)fn << 12 | off, width, &v, 1);
	return 0;
}

static int mmio_off(const struct ref_model *r, uint64_t pa, unsigned width, uint64_t *off)
{
	const struct ref_reg *bar = NULL;
	uint64_t base;

	for (unsigned i = 0; i < r->nregs; i++)
		if (r->regs[i].def->kind == UCM_K_BAR)
			bar = &r->regs[i];
	if ((width != 4 && width != 8) || pa % width || !bar || !get(bar->def->layout, UCM_R_BAR_EN, bar->val))
		return -1;
	base = bar->val & r->p->bar_mask;
	if (pa < base || pa + width > base + r->p->bar_size)
		return -1;
	*off = pa - base;
	return 0;
}

int ref_mmio_read(struct ref_model *r, uint64_t pa, unsigned width, uint64_t *v)
{
	uint64_t off;

	if (mmio_off(r, pa, width, &off))
		return -1;
	lanes(r, UCM_MMIO, off, width, v, 0);
	return 0;
}

int ref_mmio_write(struct ref_model *r, uint64_t pa, unsigned width, uint64_t v)
{
	uint64_t off;

	if (mmio_off(r, pa, width, &off))
		return -1;
	lanes(r, UCM_MMIO, off, width, &v, 1);
	return 0;
}

int ref_box_find(const struct ref_model *r, const char *type, unsigned inst)
{
	for (unsigned b = 0; b < r->nboxes; b++)
		if (!strcmp(r->boxes[b].bi->type->name, type) && r->boxes[b].bi->inst == inst)
			return (int)b;
	return -1;
}

void ref_set_input(struct ref_model *r, int box, unsigned sub, uint32_t inc)
{
	if (box >= 0 && (unsigned)box < r->nboxes && sub < REF_MAXSUB)
		r->boxes[box].input[sub] = inc;
}

/* The raw increment of counter i of a box this cycle. */
static uint64_t raw_increment(struct ref_model *r, int box, unsigned i)
{
	const struct ucm_boxtype *bt = r->boxes[box].bi->type;
	struct ref_reg *ctl = reg_of(r, box, UCM_K_CTL, i);
	const struct ucm_evcode *ec = NULL;
	uint64_t umask = 0, inc = 0;
	unsigned first = 0;
	int all = 0;

	if (ctl && field(ctl->def->layout, UCM_R_EVSEL)) {
		uint64_t code = get(ctl->def->layout, UCM_R_EVSEL, ctl->val);

		for (unsigned c = 0; c < bt->ncodes; c++)
			if (bt->codes[c].code == code)
				ec = &bt->codes[c];
		umask = get(ctl->def->layout, UCM_R_UMASK, ctl->val);
	} else if (bt->fixed_code) {
		ec = &bt->codes[bt->fixed_code[i]];
		all = 1;
	}
	if (!ec)
		return 0;
	if (ec->flags & UCM_EC_CLOCK)
		return 1;
	for (const struct ucm_evcode *c = bt->codes; c != ec; c++)
		first += c->nsubs ? c->nsubs : 1;
	if (!ec->nsubs)
		return r->boxes[box].input[first];
	for (unsigned s = 0; s < ec->nsubs; s++) {
		int sel = 1;

		for (unsigned g = 0; g < ec->ngrp; g++)
			if (!(umask & ec->grp_mask[g] & ec->subs[s].match[g]))
				sel = 0;
		if (all || sel)
			inc += r->boxes[box].input[first + s];
	}
	return inc;
}

void ref_step(struct ref_model *r)
{
	struct ref_reg *gctl = global_reg(r, UCM_K_GLOBAL_CTL);
	struct ref_reg *gst = global_reg(r, UCM_K_GLOBAL_STATUS);
	int global_en = !gctl || !field(gctl->def->layout, UCM_R_GLOBAL_EN) ||
			get(gctl->def->layout, UCM_R_GLOBAL_EN, gctl->val);
	int request = 0;

	for (unsigned b = 0; b < r->nboxes; b++) {
		struct ref_box *bx = &r->boxes[b];
		const struct ucm_boxtype *bt = bx->bi->type;

		for (unsigned i = 0; i < bt->nctr; i++) {
			struct ref_reg *ctl = reg_of(r, (int)b, UCM_K_CTL, i);
			struct ref_reg *ctr = reg_of(r, (int)b, UCM_K_CTR, i);
			const struct ucm_field *vf = field(ctr->def->layout, UCM_R_VALUE);
			uint64_t vmask = bits(vf->lo, vf->hi), val, inc, out, thr = 0;
			int counting;

			if (bt->flags & UCM_BT_FREERUN)
				counting = 1;
			else
				counting = ctl && get(ctl->def->layout, UCM_R_EN, ctl->val) &&
					   !(bx->frz_en && bx->frozen) && global_en;
			if (!counting)
				continue;
			inc = raw_increment(r, (int)b, i);
			if (ctl)
				thr = get(ctl->def->layout, UCM_R_THRESH, ctl->val);
			if (!thr) {
				out = inc;
			} else {
				int c = get(ctl->def->layout, UCM_R_INV, ctl->val) ? inc < thr : inc >= thr;

				out = get(ctl->def->layout, UCM_R_EDGE, ctl->val) ? (c && !bx->prev[i]) : (uint64_t)c;
				bx->prev[i] = (uint8_t)c;
			}
			val = (ctr->val & vmask) + out;
			if (val > vmask) {
				val &= vmask;
				if (ctl && get(ctl->def->layout, UCM_R_OVF_EN, ctl->val)) {
					if (gst && bx->bi->status_bit >= 0)
						gst->val |= 1ull << bx->bi->status_bit;
					request = 1;
				}
			}
			ctr->val = (ctr->val & ~vmask) | val;
		}
	}
	r->cycles++;
	if (!request)
		return;
	r->pmi_requests++;
	if (!gctl)
		return;
	for (unsigned i = 0; i < gctl->def->layout->nfields; i++) {
		const struct ucm_field *f = &gctl->def->layout->fields[i];
		unsigned core = f->arg;

		if (f->role != UCM_R_PMI_SEL || !(gctl->val & bits(f->lo, f->hi)) || core >= r->ncores)
			continue;
		if (r->asleep[core]) {
			if (!get(gctl->def->layout, UCM_R_WAKE_ON_PMI, gctl->val)) {
				r->dropped[core]++;
				continue;
			}
			r->asleep[core] = 0;
			r->wakes[core]++;
		}
		r->delivered[core]++;
	}
	if (get(gctl->def->layout, UCM_R_FRZ_ON_PMI, gctl->val)) {
		const struct ucm_field *f = field(gctl->def->layout, UCM_R_GLOBAL_EN);

		gctl->val &= ~bits(f->lo, f->hi);
	}
}
