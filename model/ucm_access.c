/*
 * ucm_access.c - address decode and the one generic register access path.
 *
 * Every register access, whatever the space or platform, goes through
 * reg_read()/reg_write(): the masks derived from the layout decide what a
 * write stores (RW), clears (RW1C), triggers (WO) or ignores (RO, reserved);
 * a per-kind hook then applies real side effects (a control register change
 * re-evaluates its counter, a box control reset clears counters, ...).
 * The decode finds a register by address: the MSRs by hash, PCI config and
 * MMIO byte lanes in each space's registers sorted by address (both built
 * once, ucm_decode_init).  Each access first runs time on by its cost.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ucm_internal.h"

/* ---- the generic access path ---- */

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

/* The decode's indexes, built once by ucm_create: each space's registers
 * sorted by (socket, key), and the MSR hash. */
int ucm_decode_init(struct ucm_model *m)
{
	for (unsigned s = 0; s < UCM_NSPACES; s++) {
		m->sorted[s] = calloc(m->nregs ? m->nregs : 1, sizeof(struct ucm_reg *));
		if (!m->sorted[s])
			return -ENOMEM;
	}
	for (size_t i = 0; i < m->nregs; i++) {
		struct ucm_reg *r = &m->regs[i];

		m->sorted[r->space][m->nsorted[r->space]++] = r;
	}
	for (unsigned s = 0; s < UCM_NSPACES; s++)
		qsort(m->sorted[s], m->nsorted[s], sizeof(struct ucm_reg *), reg_cmp);
	return msr_hash_build(m);
}

uint64_t ucm_pci_key(unsigned bus, unsigned dev, unsigned fn, unsigned off)
{
	/* added, not or-ed: an offset past 0xFFF reaches a later function of the
	 * device (UCM_PCI_FN) */
	return ((uint64_t)bus << 20) + ((uint64_t)dev << 15) + ((uint64_t)fn << 12) + off;
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

int ucm_mmio_where(struct ucm_model *m, uint64_t pa, unsigned width, unsigned *socket, uint64_t *off)
{
	return mmio_decode(m, pa, width, socket, off);
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
