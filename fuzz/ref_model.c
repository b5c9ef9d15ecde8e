/*
 * ref_model.c - the naive reference model (see ref_model.h).  Written for
 * obviousness, not speed: writes walk the fields bit by bit, time walks one
 * clock edge at a time, the event a control selects and the sub-events that
 * pass are worked out again from the tables on every cycle, nothing is
 * cached (register indexes aside).
 *
 * The counting semantics, from the guides (Xeon E5-2600 guide sections in
 * brackets), written without the model's helpers:
 *  - a control's code is EV_SEL, plus 0x100 when the extra select bit is set
 *    [Tables 2-81, 2-86]; codes flagged UCM_EC_FIXED belong to fixed
 *    counters and no EV_SEL value selects them;
 *  - a sub-event is selected when every umask group has a programmed bit in
 *    common with it, except that a restricting group with none of its bits
 *    programmed lets every sub-event through;
 *  - a filter rule applies when the umask has one of its bits (or it names
 *    none) and its control bit (tid_en) is 1 (or it names none); then the
 *    sub-event's attribute (table value or run-time override) must pass the
 *    box filter field: equal, a set bit of a mask, or >= a band; a missing
 *    attribute never passes [2.3.3.3, Table 2-77].  Packet rules compare
 *    the attribute bit by bit with the match fields of every filter
 *    register that hold that bit, where a mask field holds a 1 for it (QPI
 *    [2.7.3.3]), or, without masks, from the rule's lowest bit up (HA
 *    address [note to Table 2-39]);
 *  - PCU: EV_SEL bit 7 asks for an occupancy sub-counter, OCC_SEL 1..3 picks
 *    sub-event OCC_SEL-1 of the code flagged UCM_EC_OCC [Table 2-75].  That
 *    code alone counts the occupancy through THRESH/OCC_INV/OCC_EDGE (Table
 *    2-80 cases 2-4); any other code is its base event (code without bit 7;
 *    INV negates it) AND'ed with the occupancy compare, edge detection from
 *    either edge bit (cases 5-6);
 *  - otherwise the increment goes through THRESH (0: passes unchanged),
 *    INV and edge detect.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ref_model.h"

typedef unsigned __int128 u128;

#define PS_PER_S 1000000000000ull

/* Bits lo..hi set. */
static inline __attribute__((always_inline)) uint64_t bits(unsigned lo, unsigned hi)
{
	uint64_t ones = hi - lo >= 63 ? ~0ull : (1ull << (hi - lo + 1)) - 1;

	return ones << lo;
}

/* The field of a role: the first in the layout's table.  Remembered per
 * (layout, role), the tables being constant: the walk asks it for every
 * counter on every cycle. */
static inline __attribute__((always_inline)) const struct ucm_field *field(const struct ucm_layout *l, unsigned role)
{
	static struct {
		const struct ucm_layout *l;
		unsigned role;
		const struct ucm_field *f;
	} memo[1024];
	unsigned h = (unsigned)(((uintptr_t)l >> 3) * 31u + role * 2654435761u) % 1024u;

	if (memo[h].l == l && memo[h].role == role)
		return memo[h].f;
	memo[h].l = l;
	memo[h].role = role;
	memo[h].f = NULL;
	for (unsigned i = 0; i < l->nfields; i++)
		if (l->fields[i].role == role) {
			memo[h].f = &l->fields[i];
			break;
		}
	return memo[h].f;
}

static inline __attribute__((always_inline)) uint64_t get(const struct ucm_layout *l, unsigned role, uint64_t v)
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

/* Box types numbered by first appearance, as the model's configuration.
 * Remembered per (platform, type), the tables being constant: ref_init
 * asks it for every box. */
static int type_index_of(const struct ucm_platform *p, const struct ucm_boxtype *bt);

static int type_index(const struct ucm_platform *p, const struct ucm_boxtype *bt)
{
	static struct {
		const struct ucm_platform *p;
		const struct ucm_boxtype *bt;
		int i;
	} memo[256];
	unsigned h = (unsigned)((((uintptr_t)p >> 3) * 31u + ((uintptr_t)bt >> 3)) % 256u);

	if (memo[h].p != p || memo[h].bt != bt) {
		memo[h].p = p;
		memo[h].bt = bt;
		memo[h].i = type_index_of(p, bt);
	}
	return memo[h].i;
}

static int type_index_of(const struct ucm_platform *p, const struct ucm_boxtype *bt)
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

	if (i < 0)
		return 0;
	return r->ninst[i] ? r->ninst[i] : bt->ninst_default;
}

/* Sub-events of a box type: each code contributes its sub-events, or one
 * input when it has none, in table order. */
static unsigned first_sub(const struct ucm_boxtype *bt, const struct ucm_evcode *ec)
{
	/* the sums of the constant tables, once per box type */
	static struct {
		const struct ucm_boxtype *bt;
		unsigned *first;
	} memo[64];
	static unsigned last = 0; /* the entry found last (the walk asks one box after another) */
	unsigned k, c = (unsigned)(ec - bt->codes);

	if (memo[last].bt == bt && c <= bt->ncodes)
		return memo[last].first[c];
	for (k = 0; k < 64 && memo[k].bt && memo[k].bt != bt; k++)
		;
	last = k < 64 ? k : 0;
	if (k < 64 && !memo[k].bt && (memo[k].first = calloc(bt->ncodes + 1u, sizeof(unsigned)))) {
		memo[k].bt = bt;
		for (unsigned i = 0; i < bt->ncodes; i++)
			memo[k].first[i + 1] = memo[k].first[i] + (bt->codes[i].nsubs ? bt->codes[i].nsubs : 1u);
	}
	if (k < 64 && memo[k].bt == bt && c <= bt->ncodes)
		return memo[k].first[c];
	{
		unsigned n = 0;

		for (unsigned i = 0; i < bt->ncodes && &bt->codes[i] != ec; i++)
			n += bt->codes[i].nsubs ? bt->codes[i].nsubs : 1;
		return n;
	}
}

static unsigned count_subs(const struct ucm_boxtype *bt)
{
	unsigned n = 0;

	for (unsigned c = 0; c < bt->ncodes; c++)
		n += bt->codes[c].nsubs ? bt->codes[c].nsubs : 1;
	return n;
}

static uint64_t reset_value(const struct ref_model *r, const struct ref_reg *g)
{
	const struct ucm_layout *l = g->def->layout;
	const struct ucm_boxinst *bi = r->boxes[g->box].bi;
	uint64_t v = g->def->reset, keep = 0;

	switch (g->def->kind) {
	case UCM_K_DEVID:
		/* the function's own ID, else the platform's identifying one */
		v = bi->devid ? bi->devid : r->p->devids[0];
		break;
	case UCM_K_NODEID:
		v = r->node[g->socket];
		break;
	case UCM_K_NODEMAP: {
		/* 3-bit field i = node ID of socket i; the fields past the last
		 * socket take the IDs left, smallest first */
		int taken[8] = { 0 };

		v = 0;
		for (unsigned i = 0; i < 8; i++) {
			unsigned id = 0;

			if (i < r->nsockets) {
				id = r->node[i];
			} else {
				while (taken[id])
					id++;
			}
			taken[id] = 1;
			v |= (uint64_t)id << (3 * i);
		}
		break;
	}
	case UCM_K_BAR:
		v = r->p->bar_default;
		break;
	case UCM_K_NBOXES:
		v = r->p->counted ? ninst_of(r, r->p->counted) + (uint64_t)(int64_t)r->p->counted_bias : 0;
		break;
	default:
		break;
	}
	for (unsigned i = 0; i < l->nfields; i++)
		if (l->fields[i].access != UCM_A_WO)
			keep |= bits(l->fields[i].lo, l->fields[i].hi);
	return v & keep;
}

/* A box's attributes, set at their first use (most boxes of an input
 * never have theirs read or written): they start as the tables give them,
 * per sub-event; one a rule reads and the table leaves unset is the local
 * node (the socket's ID) or the first clock in 100 MHz units; a packet
 * comes from the other socket on VNA (2), state and address 0. */
static struct ref_box *box_attrs(struct ref_model *r, int b)
{
	struct ref_box *bx = &r->boxes[b];
	const struct ucm_boxinst *bi = bx->bi;
	unsigned s = bx->socket;

	if (bx->attr_ready)
		return bx;
	bx->attr_ready = 1;
	for (unsigned c = 0, sub = 0; c < bi->type->ncodes; c++) {
		const struct ucm_evcode *ec = &bi->type->codes[c];
		int ruled[UCM_NATTR] = { 0 };

		for (unsigned q = 0; q < ec->nrules; q++)
			if (ec->rules[q].attr < UCM_NATTR)
				ruled[ec->rules[q].attr] = 1;
		for (unsigned k = 0; k < (ec->nsubs ? ec->nsubs : 1u); k++, sub++)
			for (unsigned a = 0; a < UCM_NATTR; a++) {
				uint64_t v = ec->nsubs && ec->attrs ? ec->attrs[k].v[a] : UCM_ATTR_NONE;

				if (v == UCM_ATTR_NONE && ruled[a]) {
					if (a == UCM_AT_NID || a == UCM_AT_DNID)
						v = r->node[s];
					else if (a == UCM_AT_RNID)
						v = r->node[r->nsockets > 1 ? s ^ 1 : s];
					else if (a == UCM_AT_FREQ)
						v = r->hz[0] / 100000000u;
					else if (a == UCM_AT_VNW)
						v = 2;
					else if (a == UCM_AT_RDS || a == UCM_AT_ADDR)
						v = 0;
				}
				bx->attr[sub][a] = v;
			}
	}
	return bx;
}

int ref_init(struct ref_model *r, const struct ucm_platform *p, const unsigned *ninst,
	     unsigned sockets, const uint64_t *clock_hz, const uint8_t *bus, const uint8_t *node)
{
	int given_bus = 0, given_node = 0;

	/* registers and boxes: each as it is used (every field of the
	 * registers in use is set below) */
	memset(r, 0, offsetof(struct ref_model, regs));
	memset(&r->sock, 0, offsetof(struct ref_model, boxes) - offsetof(struct ref_model, sock));
	r->p = p;
	r->ncores = p->ncores;
	r->nsockets = sockets ? sockets : p->sockets_default ? p->sockets_default : 1;
	if (r->nsockets > REF_MAXSOCK || r->ncores > UCM_MAXCORES || p->nclocks > UCM_MAXCLK)
		return -1;
	for (unsigned s = 0; s < r->nsockets; s++) {
		given_bus |= bus && bus[s];
		given_node |= node && node[s];
	}
	for (unsigned s = 0; s < r->nsockets; s++) {
		r->bus[s] = given_bus ? bus[s] : p->pci_bus ? p->pci_bus[s] : 0;
		r->node[s] = given_node ? node[s] : (uint8_t)s;
	}
	for (unsigned d = 0; d < p->nclocks; d++)
		r->hz[d] = clock_hz && clock_hz[d] ? clock_hz[d] : p->clocks[d].hz_default;
	for (unsigned i = 0; i < UCM_MAXBT; i++)
		r->ninst[i] = ninst ? ninst[i] : 0;
	for (unsigned s = 0; s < r->nsockets; s++) {
		for (unsigned i = 0; i < p->nboxes; i++) {
			const struct ucm_boxinst *bi = &p->boxes[i];
			struct ref_box *bx;
			unsigned nsub;

			if (bi->inst >= ninst_of(r, bi->type))
				continue;
			nsub = count_subs(bi->type);
			if (r->nboxes >= REF_MAXBOX || bi->type->nctr > REF_MAXCTR ||
			    nsub > REF_MAXSUB || r->nregs + bi->type->nregs > REF_MAXREGS)
				return -1;
			bx = &r->boxes[r->nboxes];
			memset(bx, 0, offsetof(struct ref_box, input));
			memset(bx->input, 0, nsub * sizeof(bx->input[0]));
			bx->bi = bi;
			bx->socket = s;
			bx->nsub = nsub;
			for (unsigned k = 0; k < bi->type->nregs; k++) {
				struct ref_reg *g = &r->regs[r->nregs++];
				const struct ucm_regdef *d = &bi->type->regs[k];

				g->def = d;
				g->val = 0;
				g->box = (int)r->nboxes;
				g->space = bi->type->space;
				g->socket = s;
				g->bytes = d->layout->width / 8;
				if (g->space == UCM_PCI)
					/* an offset past 0xFFF is on a later function */
					g->key = ((uint64_t)r->bus[s] << 20) + ((uint64_t)bi->dev << 15) +
						 ((uint64_t)bi->fn << 12) + bi->base + d->off;
				else
					g->key = bi->base + d->off;
			}
			/* attributes: box_attrs(), when first asked for */
			r->nboxes++;
		}
	}
	for (unsigned b = 0; b < r->nboxes; b++) {
		struct ref_box *bx = &r->boxes[b];

		for (unsigned k = 0; k < UCM_MAXFILT; k++)
			bx->filter[k] = -1;
		bx->boxstatus = -1;
		for (unsigned c = 0; c < REF_MAXCTR; c++)
			bx->ctl[c] = bx->ctr[c] = -1;
	}
	/* each register in its box, one pass */
	for (unsigned i = 0; i < r->nregs; i++) {
		struct ref_box *bx = &r->boxes[r->regs[i].box];
		const struct ucm_regdef *d = r->regs[i].def;

		if (d->kind == UCM_K_CTL && d->idx < REF_MAXCTR)
			bx->ctl[d->idx] = (int)i;
		else if (d->kind == UCM_K_CTR && d->idx < REF_MAXCTR)
			bx->ctr[d->idx] = (int)i;
		else if (d->kind == UCM_K_FILTER && d->idx < UCM_MAXFILT)
			bx->filter[d->idx] = (int)i;
		else if (d->kind == UCM_K_BOX_STATUS)
			bx->boxstatus = (int)i;
	}
	for (unsigned s = 0; s < r->nsockets; s++) {
		struct ref_socket *so = &r->sock[s];

		so->gctl = so->gstatus = so->bar = -1;
		for (unsigned i = 0; i < r->nregs; i++) {
			if (r->regs[i].socket != s)
				continue;
			if (r->regs[i].def->kind == UCM_K_GLOBAL_CTL)
				so->gctl = (int)i;
			else if (r->regs[i].def->kind == UCM_K_GLOBAL_STATUS)
				so->gstatus = (int)i;
			else if (r->regs[i].def->kind == UCM_K_BAR)
				so->bar = (int)i;
		}
	}
	ref_reset(r);
	return 0;
}

void ref_reset(struct ref_model *r)
{
	for (unsigned i = 0; i < r->nregs; i++)
		r->regs[i].val = reset_value(r, &r->regs[i]);
	for (unsigned b = 0; b < r->nboxes; b++) {
		const struct ucm_boxtype *bt = r->boxes[b].bi->type;
		int frz = 0, frz_en = 0;

		/* a box control with FRZ and no FRZ_EN freezes on FRZ alone */
		for (unsigned k = 0; k < bt->nregs; k++)
			if (bt->regs[k].kind == UCM_K_BOX_CTL) {
				frz = field(bt->regs[k].layout, UCM_R_FRZ) != NULL;
				frz_en = field(bt->regs[k].layout, UCM_R_FRZ_EN) != NULL;
			}
		memset(r->boxes[b].prev, 0, sizeof(r->boxes[b].prev));
		r->boxes[b].frz_en = frz && !frz_en;
		r->boxes[b].frozen = 0;
	}
	for (unsigned s = 0; s < r->nsockets; s++)
		r->sock[s].gfrozen = 0;
}

int ref_find(const struct ref_model *r, unsigned space, unsigned socket, uint64_t key)
{
	for (unsigned i = 0; i < r->nregs; i++)
		if (r->regs[i].space == space && r->regs[i].key == key &&
		    (space == UCM_PCI || r->regs[i].socket == socket))
			return (int)i;
	return -1;
}

/* Counter control and value registers, found once at init. */
static inline __attribute__((always_inline)) struct ref_reg *reg_of(struct ref_model *r, int box, unsigned kind, unsigned idx)
{
	int i;

	if (idx >= REF_MAXCTR)
		return NULL;
	i = kind == UCM_K_CTL ? r->boxes[box].ctl[idx] : r->boxes[box].ctr[idx];
	return i < 0 ? NULL : &r->regs[i];
}

static struct ref_reg *sock_reg(struct ref_model *r, int i)
{
	return i < 0 ? NULL : &r->regs[i];
}

int ref_box_frozen(const struct ref_model *r, int box)
{
	return r->boxes[box].frz_en && r->boxes[box].frozen;
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

		/* a new programming starts with a clear edge latch */
		r->boxes[g->box].prev[g->def->idx] = 0;
		if (rst && (written1 & bits(rst->lo, rst->hi))) {
			struct ref_reg *c = reg_of(r, g->box, UCM_K_CTR, g->def->idx);

			if (c)
				c->val = 0;
		}
	} else if (g->def->kind == UCM_K_GLOBAL_CTL) {
		const struct ucm_field *frz = field(l, UCM_R_FRZ_ALL), *unfrz = field(l, UCM_R_UNFRZ_ALL);
		struct ref_socket *so = &r->sock[g->socket];

		/* both at once: the freeze wins */
		if (frz && (written1 & bits(frz->lo, frz->hi)))
			so->gfrozen = 1;
		else if (unfrz && (written1 & bits(unfrz->lo, unfrz->hi)))
			so->gfrozen = 0;
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

static int cpu_socket(const struct ref_model *r, unsigned cpu, unsigned *s)
{
	if (cpu >= r->nsockets * r->ncores)
		return -1;
	*s = cpu / r->ncores;
	return 0;
}

int ref_msr_read(struct ref_model *r, unsigned cpu, uint32_t addr, uint64_t *v)
{
	unsigned s;
	int i;

	*v = 0;
	if (cpu_socket(r, cpu, &s) || (i = ref_find(r, UCM_MSR, s, addr)) < 0)
		return -1;
	*v = r->regs[i].val;
	return 0;
}

int ref_msr_write(struct ref_model *r, unsigned cpu, uint32_t addr, uint64_t v)
{
	unsigned s;
	int i;

	if (cpu_socket(r, cpu, &s) || (i = ref_find(r, UCM_MSR, s, addr)) < 0)
		return -1;
	write_reg(r, &r->regs[i], v, ~0ull);
	return 0;
}

/* Byte lanes: byte j of an access at key goes to the register covering
 * key + j; registers are written in address order, each once.  PCI keys
 * carry the bus, so only MMIO looks at the socket. */
static void lanes(struct ref_model *r, unsigned space, unsigned socket, uint64_t key,
		  unsigned width, uint64_t *v, int write)
{
	uint64_t out = 0;
	static uint8_t handled[REF_MAXREGS];

	memset(handled, 0, sizeof(handled));
	for (;;) {
		/* the lowest overlapping register not handled yet */
		int best = -1;
		uint64_t vals = 0, bm = 0;

		for (unsigned i = 0; i < r->nregs; i++) {
			const struct ref_reg *g = &r->regs[i];

			if (handled[i] || g->space != space || g->key >= key + width ||
			    g->key + g->bytes <= key || (space != UCM_PCI && g->socket != socket))
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
	lanes(r, UCM_PCI, 0, (uint64_t)bus << 20 | (uint64_t)dev << 15 | (uint64_t)fn << 12 | off,
	      width, v, 0);
	return 0;
}

int ref_pci_write(struct ref_model *r, unsigned bus, unsigned dev, unsigned fn, unsigned off,
		  unsigned width, uint64_t v)
{
	if (!pci_ok(r, bus, dev, fn, off, width))
		return -1;
	lanes(r, UCM_PCI, 0, (uint64_t)bus << 20 | (uint64_t)dev << 15 | (uint64_t)fn << 12 | off,
	      width, &v, 1);
	return 0;
}

/* The socket whose enabled BAR window holds the access, lowest first. */
static int mmio_off(const struct ref_model *r, uint64_t pa, unsigned width, unsigned *socket,
		    uint64_t *off)
{
	if ((width != 4 && width != 8) || pa % width)
		return -1;
	for (unsigned s = 0; s < r->nsockets; s++) {
		const struct ref_reg *bar = r->sock[s].bar < 0 ? NULL : &r->regs[r->sock[s].bar];
		uint64_t base;

		if (!bar || !get(bar->def->layout, UCM_R_BAR_EN, bar->val))
			continue;
		base = bar->val & r->p->bar_mask;
		if (pa >= base && pa + width <= base + r->p->bar_size) {
			*socket = s;
			*off = pa - base;
			return 0;
		}
	}
	return -1;
}

int ref_mmio_read(struct ref_model *r, uint64_t pa, unsigned width, uint64_t *v)
{
	uint64_t off;
	unsigned s;

	if (mmio_off(r, pa, width, &s, &off))
		return -1;
	lanes(r, UCM_MMIO, s, off, width, v, 0);
	return 0;
}

int ref_mmio_write(struct ref_model *r, uint64_t pa, unsigned width, uint64_t v)
{
	uint64_t off;
	unsigned s;

	if (mmio_off(r, pa, width, &s, &off))
		return -1;
	lanes(r, UCM_MMIO, s, off, width, &v, 1);
	return 0;
}

int ref_box_find(const struct ref_model *r, unsigned socket, const char *type, unsigned inst)
{
	for (unsigned b = 0; b < r->nboxes; b++)
		if (r->boxes[b].socket == socket && !strcmp(r->boxes[b].bi->type->name, type) &&
		    r->boxes[b].bi->inst == inst)
			return (int)b;
	return -1;
}

void ref_set_input(struct ref_model *r, int box, unsigned sub, uint32_t inc)
{
	if (box >= 0 && (unsigned)box < r->nboxes && sub < r->boxes[box].nsub)
		r->boxes[box].input[sub] = inc;
}

void ref_set_input_attr(struct ref_model *r, int box, unsigned sub, unsigned attr, uint64_t v)
{
	if (box >= 0 && (unsigned)box < r->nboxes && sub < r->boxes[box].nsub && attr < UCM_NATTR)
		box_attrs(r, box)->attr[sub][attr] = v;
}

/* ---- counting ---- */

/* The code EV_SEL (with the extra select bit) names; fixed-counter codes
 * are never named by EV_SEL. */
static const struct ucm_evcode *code_named_of(const struct ucm_boxtype *bt, unsigned code);

/* The code a control selects: remembered per (box type, code), the tables
 * being constant (the walk asks it for every counter on every cycle). */
static const struct ucm_evcode *code_named(const struct ucm_boxtype *bt, unsigned code)
{
	static struct {
		const struct ucm_boxtype *bt;
		unsigned code;
		const struct ucm_evcode *ec;
	} memo[1024];
	unsigned h = (unsigned)((((uintptr_t)bt >> 3) * 31u + code * 2654435761u) % 1024u);

	if (memo[h].bt != bt || memo[h].code != code) {
		memo[h].bt = bt;
		memo[h].code = code;
		memo[h].ec = code_named_of(bt, code);
	}
	return memo[h].ec;
}

static const struct ucm_evcode *code_named_of(const struct ucm_boxtype *bt, unsigned code)
{
	for (unsigned c = 0; c < bt->ncodes; c++)
		if (bt->codes[c].code == code && !(bt->codes[c].flags & UCM_EC_FIXED))
			return &bt->codes[c];
	return NULL;
}

/* Whether the umask selects sub-event s: each group needs a common bit,
 * but a restricting group with no bit programmed restricts nothing. */
static int umask_selects(const struct ucm_evcode *ec, unsigned s, uint64_t umask)
{
	if (ec->flags & UCM_EC_EXACT)
		return (umask & 0xFF) == ec->subs[s].match[0];
	for (unsigned g = 0; g < ec->ngrp; g++) {
		int restricting = (ec->grp_restrict >> g) & 1;
		int any_of_group = (umask & ec->grp_mask[g]) != 0;

		if (restricting && !any_of_group)
			continue;
		if (!(umask & ec->grp_mask[g] & ec->subs[s].match[g]))
			return 0;
	}
	return 1;
}

/* A packet rule, bit by bit: attribute bit i is compared when a match
 * field holds it and (with masks) a mask field holding it is 1, or (without)
 * when i is at least the rule's lowest bit.  -1: no field holds any bit. */
static int packet_rule(struct ref_model *r, struct ref_box *bx, const struct ucm_filtrule *fr,
		       uint64_t a)
{
	/* bit i of each: attribute bit i is held by a match field, cared
	 * about by a mask bit, wanted 1 (per bit, as the fields say; masks,
	 * not arrays: this runs per sub-event on every cycle) */
	uint64_t held = 0, care = 0, want = 0;
	int any = 0;

	for (unsigned k = 0; k < UCM_MAXFILT; k++) {
		const struct ref_reg *g = bx->filter[k] < 0 ? NULL : &r->regs[bx->filter[k]];

		for (unsigned f = 0; g && f < g->def->layout->nfields; f++) {
			const struct ucm_field *ff = &g->def->layout->fields[f];

			if (ff->role != fr->role)
				continue;
			for (unsigned j = ff->lo; j <= ff->hi; j++) {
				unsigned at = (ff->arg & 0x7F) + (j - ff->lo);
				unsigned bit = (unsigned)(g->val >> j) & 1;

				if (at > 63)
					continue;
				any = 1;
				if (ff->arg & 0x80) {
					care = (care & ~(1ull << at)) | (uint64_t)bit << at;
				} else {
					held |= 1ull << at;
					want = (want & ~(1ull << at)) | (uint64_t)bit << at;
				}
			}
		}
	}
	if (!any)
		return -1;
	for (unsigned i = 0; i < 64; i++) {
		int compared = fr->how == UCM_FM_MASKED ? ((held & care) >> i) & 1
							 : ((held >> i) & 1) && i >= fr->arg;

		if (!compared)
			continue;
		if (a == UCM_ATTR_NONE || ((a >> i) & 1) != ((want >> i) & 1))
			return 0;
	}
	return 1;
}

/* The filter field a rule compares with: of the box's filter registers by
 * .idx, the last field of the rule's role and .arg in the first register
 * that has one; NULL if none.  Remembered per (box type, rule), the
 * tables being constant: the walk asks it per sub-event on every cycle. */
static const struct ucm_field *filter_field(struct ref_model *r, const struct ref_box *bx,
					    const struct ucm_filtrule *fr, const struct ref_reg **filt)
{
	static struct {
		const struct ucm_boxtype *bt;
		const struct ucm_filtrule *fr;
		int k;
		const struct ucm_field *ff;
	} memo[1024];
	const struct ucm_boxtype *bt = bx->bi->type;
	unsigned h = (unsigned)((((uintptr_t)bt >> 3) * 31u + ((uintptr_t)fr >> 3)) % 1024u);

	if (memo[h].bt != bt || memo[h].fr != fr) {
		memo[h].bt = bt;
		memo[h].fr = fr;
		memo[h].k = -1;
		memo[h].ff = NULL;
		for (unsigned k = 0; k < UCM_MAXFILT && !memo[h].ff; k++) {
			const struct ref_reg *g = bx->filter[k] < 0 ? NULL : &r->regs[bx->filter[k]];

			for (unsigned f = 0; g && f < g->def->layout->nfields; f++)
				if (g->def->layout->fields[f].role == fr->role &&
				    g->def->layout->fields[f].arg == fr->arg) {
					memo[h].ff = &g->def->layout->fields[f];
					memo[h].k = (int)k;
				}
		}
	}
	*filt = memo[h].k < 0 ? NULL : &r->regs[bx->filter[memo[h].k]];
	return memo[h].ff;
}

/* Whether sub-event sub (box input index) passes every filter rule of the
 * code that applies under this control. */
static int filters_pass(struct ref_model *r, int box, const struct ref_reg *ctl,
			const struct ucm_evcode *ec, unsigned sub, uint64_t umask)
{
	struct ref_box *bx = &r->boxes[box];

	for (unsigned i = 0; i < ec->nrules; i++) {
		const struct ucm_filtrule *fr = &ec->rules[i];
		const struct ref_reg *filt = NULL;
		const struct ucm_field *ff = NULL;
		uint64_t fv;
		uint64_t a;

		if (fr->umask_bits && !(umask & fr->umask_bits))
			continue;
		if (fr->ctl_role && !(ctl && get(ctl->def->layout, fr->ctl_role, ctl->val)))
			continue;
		a = box_attrs(r, box)->attr[sub][fr->attr];
		if (fr->how == UCM_FM_MASKED || fr->how == UCM_FM_EQ_BITS) {
			if (!packet_rule(r, bx, fr, a))
				return 0;
			continue;
		}
		ff = filter_field(r, bx, fr, &filt);
		if (!ff)
			continue;
		fv = (filt->val & bits(ff->lo, ff->hi)) >> ff->lo;
		if (a == UCM_ATTR_NONE)
			return 0;
		switch (fr->how) {
		case UCM_FM_EQ:
			if (a != fv)
				return 0;
			break;
		case UCM_FM_BIT:
			if (a > 63 || !(fv & (1ull << a)))
				return 0;
			break;
		default: /* UCM_FM_GE */
			if (a < fv)
				return 0;
			break;
		}
	}
	return 1;
}

/* The inputs of code ec this cycle that the control lets through: every
 * sub-event for a fixed counter, the umask's otherwise. */
static uint64_t code_sum(struct ref_model *r, int box, const struct ref_reg *ctl,
			 const struct ucm_evcode *ec, int all, uint64_t umask)
{
	const struct ucm_boxtype *bt = r->boxes[box].bi->type;
	unsigned first = first_sub(bt, ec);
	uint64_t inc = 0;

	if (ec->flags & UCM_EC_CLOCK)
		return 1;
	/* a sub-event with no input adds nothing whatever the filters say:
	 * they are asked only for those with one (most inputs are 0) */
	if (!ec->nsubs)
		return r->boxes[box].input[first] && filters_pass(r, box, ctl, ec, first, umask)
			       ? r->boxes[box].input[first] : 0;
	for (unsigned s = 0; s < ec->nsubs; s++)
		if (r->boxes[box].input[first + s] && (all || umask_selects(ec, s, umask)) &&
		    filters_pass(r, box, ctl, ec, first + s, umask))
			inc += r->boxes[box].input[first + s];
	return inc;
}

/* What counter i of a box adds this cycle; updates the edge latch. */
static uint64_t ctr_output(struct ref_model *r, int box, unsigned i)
{
	enum { PLAIN, OCC_ALONE, OCC_AND } mode = PLAIN;
	struct ref_box *bx = &r->boxes[box];
	const struct ucm_boxtype *bt = bx->bi->type;
	struct ref_reg *ctl = reg_of(r, box, UCM_K_CTL, i);
	const struct ucm_layout *l = ctl ? ctl->def->layout : NULL;
	const struct ucm_evcode *base = NULL, *occ_code = NULL;
	uint64_t inc = 0, occ = 0, thr, evsel, umask;
	unsigned code;
	int cmp, edge, out;

	if (!ctl || !field(l, UCM_R_EVSEL)) {
		/* a fixed counter: its code, every sub-event of it */
		if (!bt->fixed_code)
			return 0;
		return code_sum(r, box, ctl, &bt->codes[bt->fixed_code[i]], 1, 0);
	}
	evsel = get(l, UCM_R_EVSEL, ctl->val);
	code = (unsigned)(evsel | get(l, UCM_R_EXTSEL, ctl->val) << 8);
	umask = get(l, UCM_R_UMASK, ctl->val);
	thr = get(l, UCM_R_THRESH, ctl->val);
	/* EV_SEL bit 7 where the control has OCC_SEL: an occupancy sub-counter */
	if (field(l, UCM_R_OCC_SEL) && (evsel & 0x80))
		for (unsigned c = 0; c < bt->ncodes && !occ_code; c++)
			if (bt->codes[c].flags & UCM_EC_OCC)
				occ_code = &bt->codes[c];
	if (occ_code) {
		uint64_t sel = get(l, UCM_R_OCC_SEL, ctl->val);

		/* OCC_SEL 01, 10, 11: sub-counter 0, 1, 2; 00 selects none */
		if (sel >= 1 && sel <= occ_code->nsubs)
			occ = bx->input[first_sub(bt, occ_code) + sel - 1];
		if (occ_code->code == code) {
			mode = OCC_ALONE;
		} else {
			mode = OCC_AND;
			base = code_named(bt, code & ~0x80u);
		}
	} else {
		base = code_named(bt, code);
	}
	if (base)
		inc = code_sum(r, box, ctl, base, 0, umask);
	switch (mode) {
	case PLAIN:
		/* THRESH 0: no compare, INV and edge detect have nothing to act on */
		if (!thr)
			return inc;
		cmp = get(l, UCM_R_INV, ctl->val) ? inc < thr : inc >= thr;
		edge = get(l, UCM_R_EDGE, ctl->val) != 0;
		break;
	case OCC_ALONE:
		if (!thr)
			return occ;
		cmp = get(l, UCM_R_OCC_INV, ctl->val) ? occ < thr : occ >= thr;
		edge = get(l, UCM_R_OCC_EDGE, ctl->val) != 0;
		break;
	default: {
		/* the base event (INV: its absence) in cycles where the occupancy
		 * passes THRESH (OCC_INV: stays below it) */
		int ev = get(l, UCM_R_INV, ctl->val) ? inc == 0 : inc != 0;
		int occ_ok = !thr || (get(l, UCM_R_OCC_INV, ctl->val) ? occ < thr : occ >= thr);

		cmp = ev && occ_ok;
		edge = get(l, UCM_R_EDGE, ctl->val) || get(l, UCM_R_OCC_EDGE, ctl->val);
		break;
	}
	}
	out = edge ? cmp && !bx->prev[i] : cmp;
	bx->prev[i] = (uint8_t)cmp;
	return (uint64_t)out;
}

static int global_enabled(struct ref_model *r, unsigned s)
{
	struct ref_reg *g = sock_reg(r, r->sock[s].gctl);

	if (r->sock[s].gfrozen)
		return 0;
	return !g || !field(g->def->layout, UCM_R_GLOBAL_EN) ||
	       get(g->def->layout, UCM_R_GLOBAL_EN, g->val);
}

/* Set a status bit hardware may set (RW1C or RO); returns whether it was
 * clear and is now set. */
static int set_status_bit(struct ref_reg *g, int bit)
{
	const struct ucm_field *f;

	if (!g || bit < 0 || !(f = field_of_bit(g->def->layout, (unsigned)bit)) ||
	    (f->access != UCM_A_RW1C && f->access != UCM_A_RO))
		return 0;
	if (g->val & (1ull << bit))
		return 0;
	g->val |= 1ull << bit;
	return 1;
}

/* Counter i of box b overflowed with OVF_EN: box status, then global
 * status; returns 1 if the UBox raises a PMI request (and freeze). */
static int ovf_message(struct ref_model *r, struct ref_box *bx, unsigned i)
{
	int edge = (r->p->ovf_flags & UCM_OVF_EDGE) != 0;
	struct ref_reg *bst = bx->boxstatus < 0 ? NULL : &r->regs[bx->boxstatus];
	struct ref_reg *gst = sock_reg(r, r->sock[bx->socket].gstatus);
	int gbit = bx->bi->ctr_status_bit ? bx->bi->ctr_status_bit[i] : bx->bi->status_bit;

	if (bst) {
		const struct ucm_layout *l = bst->def->layout;

		for (unsigned k = 0; k < l->nfields; k++)
			if (l->fields[k].role == UCM_R_OVF_STATUS && l->fields[k].arg == i) {
				int was = (bst->val >> l->fields[k].lo) & 1;

				set_status_bit(bst, l->fields[k].lo);
				if (was && edge)
					return 0; /* no new message while the box bit is set */
			}
	}
	if (gst && gbit >= 0)
		return set_status_bit(gst, gbit) || !edge;
	return !edge;
}

/* One cycle of box b; returns 1 if a counter with OVF_EN wrapped. */
static int box_cycle(struct ref_model *r, int b)
{
	struct ref_box *bx = &r->boxes[b];
	const struct ucm_boxtype *bt = bx->bi->type;
	int request = 0;

	for (unsigned i = 0; i < bt->nctr; i++) {
		struct ref_reg *ctl = reg_of(r, b, UCM_K_CTL, i);
		struct ref_reg *ctr = reg_of(r, b, UCM_K_CTR, i);
		const struct ucm_field *vf;
		uint64_t vmask, out;
		u128 val;
		int counting;

		if (!ctr)
			continue;
		if (bt->flags & UCM_BT_FREERUN)
			counting = 1;
		else
			counting = ctl && get(ctl->def->layout, UCM_R_EN, ctl->val) &&
				   !(bx->frz_en && bx->frozen) && global_enabled(r, bx->socket);
		if (!counting)
			continue;
		vf = field(ctr->def->layout, UCM_R_VALUE);
		vmask = bits(vf->lo, vf->hi);
		out = ctr_output(r, b, i);
		val = (u128)(ctr->val & vmask) + out;
		if (val > vmask) {
			val &= vmask;
			if (ctl && get(ctl->def->layout, UCM_R_OVF_EN, ctl->val) &&
			    ovf_message(r, bx, i))
				request = 1;
		}
		ctr->val = (ctr->val & ~vmask) | (uint64_t)val;
	}
	return request;
}

static void pmi(struct ref_model *r, unsigned s)
{
	struct ref_socket *so = &r->sock[s];
	struct ref_reg *gctl = sock_reg(r, so->gctl);

	so->pmi_requests++;
	if (!gctl)
		return;
	for (unsigned i = 0; i < gctl->def->layout->nfields; i++) {
		const struct ucm_field *f = &gctl->def->layout->fields[i];
		unsigned core = f->arg;

		if (f->role != UCM_R_PMI_SEL || !(gctl->val & bits(f->lo, f->hi)) || core >= r->ncores)
			continue;
		if (so->asleep[core]) {
			if (!get(gctl->def->layout, UCM_R_WAKE_ON_PMI, gctl->val)) {
				so->dropped[core]++;
				continue;
			}
			so->asleep[core] = 0;
			so->wakes[core]++;
		}
		so->delivered[core]++;
	}
	if (get(gctl->def->layout, UCM_R_FRZ_ON_PMI, gctl->val)) {
		const struct ucm_field *f = field(gctl->def->layout, UCM_R_GLOBAL_EN);

		gctl->val &= ~bits(f->lo, f->hi);
	}
	if (r->p->ovf_flags & UCM_OVF_FREEZE) {
		so->gfrozen = 1;
		so->freezes++;
	}
}

/* ---- time ---- */

/* Time at which cycle c of a clock has completed: the least t with
 * floor(t * hz / 1e12) >= c, the model's integer time. */
static uint64_t edge_time(uint64_t hz, uint64_t c)
{
	u128 t = ((u128)c * PS_PER_S + hz - 1) / hz;

	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

/* Whether any counter of box b can count before its control is written:
 * a free-running box, or a control with EN set.  Time passing never sets
 * EN (hardware only clears the global enable, freezes), so a box without
 * one keeps still through a whole advance; every other box is walked
 * cycle by cycle with all its checks. */
static int box_may_count(struct ref_model *r, int b)
{
	const struct ucm_boxtype *bt = r->boxes[b].bi->type;

	if (bt->flags & UCM_BT_FREERUN)
		return 1;
	for (unsigned i = 0; i < bt->nctr; i++) {
		struct ref_reg *ctl = reg_of(r, b, UCM_K_CTL, i);

		if (reg_of(r, b, UCM_K_CTR, i) && ctl && get(ctl->def->layout, UCM_R_EN, ctl->val))
			return 1;
	}
	return 0;
}

/* Advance to time t one instant at a time: at each instant where some
 * clock completes a cycle, every box of those clocks counts one cycle, then
 * each socket with an overflow raises one PMI request. */
void ref_advance(struct ref_model *r, uint64_t t)
{
	uint64_t edge[UCM_MAXCLK];
	int live[REF_MAXBOX];
	unsigned nlive = 0;

	for (unsigned b = 0; b < r->nboxes; b++)
		if (box_may_count(r, (int)b))
			live[nlive++] = (int)b;
	for (unsigned d = 0; d < r->p->nclocks; d++)
		edge[d] = edge_time(r->hz[d], r->cycles[d] + 1);
	for (;;) {
		uint64_t next = UINT64_MAX;
		/* the clocks that tick and the sockets with a request this
		 * instant, one bit each (cleared per instant without a memset) */
		unsigned tick = 0, request = 0;

		for (unsigned d = 0; d < r->p->nclocks; d++)
			if (edge[d] < next)
				next = edge[d];
		if (next > t || next == UINT64_MAX)
			break;
		for (unsigned d = 0; d < r->p->nclocks; d++)
			if (edge[d] == next) {
				tick |= 1u << d;
				r->cycles[d]++;
				edge[d] = edge_time(r->hz[d], r->cycles[d] + 1);
			}
		for (unsigned k = 0; k < nlive; k++)
			if ((tick >> r->boxes[live[k]].bi->type->clock & 1) && box_cycle(r, live[k]))
				request |= 1u << r->boxes[live[k]].socket;
		r->now_ps = next;
		for (unsigned s = 0; s < r->nsockets; s++)
			if (request >> s & 1)
				pmi(r, s);
	}
	if (t > r->now_ps)
		r->now_ps = t;
}

void ref_run_cycles(struct ref_model *r, unsigned clock, uint64_t n)
{
	if (clock < r->p->nclocks)
		ref_advance(r, edge_time(r->hz[clock], r->cycles[clock] + n));
}

uint64_t ref_edge_time(const struct ref_model *r, unsigned clock, uint64_t n)
{
	return clock < r->p->nclocks ? edge_time(r->hz[clock], n) : UINT64_MAX;
}

void ref_run_ps(struct ref_model *r, uint64_t ps)
{
	ref_advance(r, r->now_ps + ps);
}
