/*
 * fuzz_regs.c - register-sequence harness: a stream of register reads and
 * writes (by register-table index or raw address, in every space and
 * width, on every socket), inputs and their filter attributes, time in any
 * clock domain, resets and core sleep, applied to the optimized model and
 * to the naive reference model.  After every operation both must agree on
 * every register, every PMI count, every clock's cycle count and the time,
 * and the invariants of the manual must hold: read-only bits unchanged by
 * writes, W1C bits only cleared, reserved and write-only bits read as 0
 * (so counters below 2^width: the bits above a counter's width are
 * reserved), counters still while globally disabled, while
 * their box is frozen or their control's EN is 0, reset restoring every
 * reset value.
 *
 * Input layout: a platform byte (byte % the number of platforms, in the
 * registry's order: skl, snbep, ivt; when ivt was added, the committed
 * inputs were rewritten to the byte of the same platform as before, and
 * ivt inputs added as copies of snbep ones), then the platform's setup (CBo count where
 * the platform reports one; on multi-socket or multi-clock platforms a
 * 16-bit word choosing clock frequencies and the socket count), then
 * operations.  An operation is an opcode byte, a register-index operand
 * (one byte, two where the platform has more than 256 registers) and its
 * own operands.  Operations 0-9 are the original ones; 10-13 (input
 * attribute, time on any clock, time in picoseconds, program a counter with
 * a table event) were added later: on a one-socket one-clock platform (skl)
 * opcode bytes below 250 decode as before (byte % 10) and only 250-255 give
 * the new kinds, so the committed skl corpus keeps its meaning; elsewhere
 * the opcode is byte % 14.  Simulated time is bounded per input
 * (TIME_CYCLES): time operations past it run as far as it.
 *
 * Speed (docs/fuzzing.md): what the tables give a configuration is derived
 * once (struct shape); the model of a configuration is kept and restarted
 * per input (fz_model); every register is read once per operation, in one
 * call (ucm_peek_regs), and the checks after it use what that read.
 */
#include <string.h>

#include "fz.h"
#include "ref_model.h"
#include "ucm.h"

#define NOPS 14

/* What the tables give one configuration (platform, CBo count, sockets):
 * the registers and boxes of the model and the reference and how they map.
 * The same for every input of that configuration: derived once, kept. */
struct shape {
	const struct ucm_platform *p;
	unsigned ninst, sockets;       /* the configuration it is for */
	size_t nregs;
	int map[REF_MAXREGS];          /* model register i -> ref register */
	int ctlof[REF_MAXREGS];        /* model counter register -> its control, -1 */
	struct ucm_reginfo ri[REF_MAXREGS];
	uint64_t zmask[REF_MAXREGS];   /* bits that read 0: reserved and write-only */
	size_t npci;
	size_t pci[REF_MAXREGS];       /* model indexes of the PCI registers */
	int bar;                       /* socket 0's BAR register, -1 none */
	unsigned nboxes;
	int boxmap[REF_MAXBOX];        /* model box -> ref box */
	int filt[REF_MAXBOX][UCM_MAXFILT]; /* model box, filter .idx -> model register index, -1 */
	int boxof[REF_MAXREGS];        /* model register -> model box */
};

struct rig {
	struct ucm_model *m;
	struct ref_model *ref;         /* 6 MB: kept apart, never cleared whole */
	const struct shape *sh;
	const struct ucm_platform *p;
	int legacy;                    /* one socket, one clock: original encoding */
	unsigned nsockets, ncpus;      /* sockets, cpus per socket */
	int gfrozen[REF_MAXSOCK];      /* sockets globally frozen before time passes */
	size_t nregs;
	unsigned nboxes;
	uint64_t t_end;                /* the simulated time the input may reach (TIME_CYCLES) */
	uint64_t cur[REF_MAXREGS];     /* every register as the last compare read it */
};

/* The simulated time one input may demand: TIME_CYCLES cycles of clock 0
 * (at the frequency the input chose).  The reference walks every clock
 * edge, so this bounds what an input costs; time operations past it run
 * as far as it (often not at all).  Enough for every counter preloaded
 * near its wrap (operation 9: at most 4096 below it) to overflow. */
#define TIME_CYCLES 4096u

FZ_NO_COVERAGE static uint64_t peek(struct rig *g, size_t i)
{
	uint64_t v = 0;

	if (ucm_peek_index(g->m, i, &v))
		FZ_FAIL("peek of %s (socket %u) failed: %s", g->sh->ri[i].name, g->sh->ri[i].socket,
			ucm_error(g->m));
	return v;
}

/* Every register of the model into v, in one call. */
FZ_NO_COVERAGE static void snapshot(struct rig *g, uint64_t *v)
{
	if (ucm_peek_regs(g->m, 0, g->nregs, v))
		FZ_FAIL("reading the registers failed: %s", ucm_error(g->m));
}

FZ_NO_COVERAGE static void compare(struct rig *g, const char *after)
{
	snapshot(g, g->cur);
	for (size_t i = 0; i < g->nregs; i++) {
		uint64_t v = g->cur[i], rv = ref_peek(g->ref, (unsigned)g->sh->map[i]);

		if (v != rv)
			FZ_FAIL("after %s: %s (socket %u) model 0x%llx, reference 0x%llx", after,
				g->sh->ri[i].name, g->sh->ri[i].socket, (unsigned long long)v,
				(unsigned long long)rv);
		if (v & g->sh->zmask[i])
			FZ_FAIL("after %s: %s reads reserved/write-only bits 0x%llx", after, g->sh->ri[i].name,
				(unsigned long long)(v & g->sh->zmask[i]));
	}
	for (unsigned s = 0; s < g->nsockets; s++) {
		const struct ref_socket *rs = &g->ref->sock[s];

		for (unsigned c = 0; c < g->ref->ncores; c++) {
			struct ucm_pmi_stats st;

			ucm_pmi_stats(g->m, s, c, &st);
			if (st.delivered != rs->delivered[c] || st.wakes != rs->wakes[c] ||
			    st.dropped != rs->dropped[c])
				FZ_FAIL("after %s: socket %u core %u PMIs model %llu/%llu/%llu, reference %llu/%llu/%llu",
					after, s, c, (unsigned long long)st.delivered,
					(unsigned long long)st.wakes, (unsigned long long)st.dropped,
					(unsigned long long)rs->delivered[c], (unsigned long long)rs->wakes[c],
					(unsigned long long)rs->dropped[c]);
		}
		if (ucm_pmi_requests(g->m, s) != rs->pmi_requests)
			FZ_FAIL("after %s: socket %u PMI requests model %llu, reference %llu", after, s,
				(unsigned long long)ucm_pmi_requests(g->m, s),
				(unsigned long long)rs->pmi_requests);
	}
	for (unsigned d = 0; d < g->p->nclocks; d++)
		if (ucm_cycles(g->m, d) != g->ref->cycles[d])
			FZ_FAIL("after %s: %s cycles model %llu, reference %llu", after, g->p->clocks[d].name,
				(unsigned long long)ucm_cycles(g->m, d), (unsigned long long)g->ref->cycles[d]);
	if (ucm_now_ps(g->m) != g->ref->now_ps)
		FZ_FAIL("after %s: time model %llu ps, reference %llu ps", after,
			(unsigned long long)ucm_now_ps(g->m), (unsigned long long)g->ref->now_ps);
}

/* Base of the MMIO window (socket 0; only one-socket platforms have one). */
static uint64_t bar_base(struct rig *g)
{
	return g->sh->bar >= 0 ? peek(g, (size_t)g->sh->bar) & g->p->bar_mask : 0;
}

/* After a write: RO bits unchanged, W1C bits never set by software; now:
 * every register as it reads after the write. */
FZ_NO_COVERAGE static void check_write_vals(struct rig *g, const uint64_t *before, const uint64_t *now)
{
	for (size_t i = 0; i < g->nregs; i++) {
		if ((now[i] ^ before[i]) & g->sh->ri[i].ro_mask)
			FZ_FAIL("write changed read-only bits of %s: 0x%llx -> 0x%llx", g->sh->ri[i].name,
				(unsigned long long)before[i], (unsigned long long)now[i]);
		if (now[i] & ~before[i] & g->sh->ri[i].w1c_mask)
			FZ_FAIL("write set W1C bits of %s: 0x%llx -> 0x%llx", g->sh->ri[i].name,
				(unsigned long long)before[i], (unsigned long long)now[i]);
	}
}

/* After a write in the middle of an operation: checked, and before set
 * to the registers as they read now (for the next write's check). */
static void check_write(struct rig *g, uint64_t *before)
{
	static uint64_t now[REF_MAXREGS];

	snapshot(g, now);
	check_write_vals(g, before, now);
	memcpy(before, now, g->nregs * sizeof(now[0]));
}

/* An operation that ends with a write: check_write_vals runs on what the
 * compare after it reads, instead of reading every register once more. */
static int wrote;

static int same_rc(int a, int b)
{
	return (a == 0) == (b == 0);
}

/* Values worth writing: raw, only writable bits, all ones, near a wrap. */
static uint64_t pick_value(struct fz *f, const struct ucm_reginfo *ri)
{
	uint64_t v = fz_u64(f);

	switch (fz_u8(f) % 5) {
	case 0: return v;
	case 1: return v & ri->rw_mask;
	case 2: return ~0ull;
	case 3: return ri->rw_mask - (v & 0xFFFF);
	default: return v & 0xFFFFFFFF;
	}
}

static unsigned pci_bus(const struct ucm_reginfo *ri) { return (unsigned)(ri->addr >> 20); }
static unsigned pci_dev(const struct ucm_reginfo *ri) { return (unsigned)(ri->addr >> 15) & 31; }
static unsigned pci_fn(const struct ucm_reginfo *ri) { return (unsigned)(ri->addr >> 12) & 7; }

static void reg_write(struct rig *g, size_t i, uint64_t v)
{
	const struct ucm_reginfo *ri = &g->sh->ri[i];
	unsigned w = ri->width / 8, cpu = ri->socket * g->ncpus;
	int a = 0, b = 0;

	switch (ri->space) {
	case UCM_MSR:
		a = ucm_msr_write(g->m, cpu, (uint32_t)ri->addr, v);
		b = ref_msr_write(g->ref, cpu, (uint32_t)ri->addr, v);
		break;
	case UCM_PCI:
		a = ucm_pci_write(g->m, 0, pci_bus(ri), pci_dev(ri), pci_fn(ri), (unsigned)ri->addr & 0xFFF,
				  w, v);
		b = ref_pci_write(g->ref, pci_bus(ri), pci_dev(ri), pci_fn(ri), (unsigned)ri->addr & 0xFFF,
				  w, v);
		break;
	default: {
		uint64_t base = bar_base(g);

		a = ucm_mmio_write(g->m, base + ri->addr, w, v);
		b = ref_mmio_write(g->ref, base + ri->addr, w, v);
	}
	}
	if (!same_rc(a, b))
		FZ_FAIL("write of %s: model rc %d, reference rc %d", ri->name, a, b);
}

static void reg_read(struct rig *g, size_t i)
{
	const struct ucm_reginfo *ri = &g->sh->ri[i];
	unsigned w = ri->width / 8, cpu = ri->socket * g->ncpus;
	uint64_t va = 0, vb = 0;
	int a = 0, b = 0;

	switch (ri->space) {
	case UCM_MSR:
		a = ucm_msr_read(g->m, cpu, (uint32_t)ri->addr, &va);
		b = ref_msr_read(g->ref, cpu, (uint32_t)ri->addr, &vb);
		break;
	case UCM_PCI:
		a = ucm_pci_read(g->m, 0, pci_bus(ri), pci_dev(ri), pci_fn(ri), (unsigned)ri->addr & 0xFFF,
				 w, &va);
		b = ref_pci_read(g->ref, pci_bus(ri), pci_dev(ri), pci_fn(ri), (unsigned)ri->addr & 0xFFF,
				 w, &vb);
		break;
	default: {
		uint64_t base = bar_base(g);

		a = ucm_mmio_read(g->m, base + ri->addr, w, &va);
		b = ref_mmio_read(g->ref, base + ri->addr, w, &vb);
	}
	}
	if (!same_rc(a, b) || (!a && va != vb))
		FZ_FAIL("read of %s: model rc %d 0x%llx, reference rc %d 0x%llx", ri->name, a,
			(unsigned long long)va, b, (unsigned long long)vb);
}

/* A raw PCI config access, compared. */
static void pci_access(struct rig *g, unsigned bus, unsigned dev,
		       unsigned fn, unsigned off, unsigned w, uint64_t v, int write)
{
	uint64_t va = 0, vb = 0;
	int a, b;

	if (write) {
		a = ucm_pci_write(g->m, 0, bus, dev, fn, off, w, v);
		b = ref_pci_write(g->ref, bus, dev, fn, off, w, v);
		wrote = 1;
	} else {
		a = ucm_pci_read(g->m, 0, bus, dev, fn, off, w, &va);
		b = ref_pci_read(g->ref, bus, dev, fn, off, w, &vb);
	}
	if (!same_rc(a, b) || (!a && va != vb))
		FZ_FAIL("PCI %02x:%02x.%x+0x%x/%u %s: model %d 0x%llx, reference %d 0x%llx", bus, dev, fn,
			off, w, write ? "write" : "read", a, (unsigned long long)va, b,
			(unsigned long long)vb);
}

/* Clock frequencies a multi-clock platform is tried at: the default, the
 * worst case and two that divide 10^12 ps unevenly. */
static uint64_t pick_hz(const struct ucm_clockdef *c, unsigned k)
{
	switch (k & 3) {
	case 0: return c->hz_default;
	case 1: return c->hz_max;
	case 2: return 1066666667ull;
	default: return 2699999947ull;
	}
}

/* The shape of the model just built for this input: from the cache, or
 * derived (and checked against the reference) and kept. */
static const struct shape *shape_of(struct rig *g, unsigned ninst, unsigned sockets)
{
	static struct shape *cache[128];
	static unsigned ncache;
	struct shape *sh;

	for (unsigned k = 0; k < ncache; k++)
		if (cache[k]->p == g->p && cache[k]->ninst == ninst && cache[k]->sockets == sockets)
			return cache[k];
	if (ncache == sizeof(cache) / sizeof(cache[0]) || !(sh = calloc(1, sizeof(*sh))))
		FZ_FAIL("more configurations than the shape cache holds");
	sh->p = g->p;
	sh->ninst = ninst;
	sh->sockets = sockets;
	sh->nregs = g->nregs;
	sh->bar = -1;
	for (size_t i = 0; i < g->nregs; i++) {
		ucm_reginfo(g->m, i, &sh->ri[i]);
		sh->map[i] = ref_find(g->ref, sh->ri[i].space, sh->ri[i].socket, sh->ri[i].addr);
		if (sh->map[i] < 0)
			FZ_FAIL("%s (socket %u) missing from the reference", sh->ri[i].name, sh->ri[i].socket);
		if (sh->ri[i].space == UCM_PCI)
			sh->pci[sh->npci++] = i;
		if (sh->ri[i].kind == UCM_K_BAR && sh->ri[i].socket == 0 && sh->bar < 0)
			sh->bar = (int)i;
		sh->zmask[i] = sh->ri[i].rsvd_mask | sh->ri[i].wo_mask;
	}
	for (size_t i = 0; i < g->nregs; i++) {
		sh->ctlof[i] = -1;
		for (size_t k = 0; sh->ri[i].kind == UCM_K_CTR && k < g->nregs; k++)
			if (sh->ri[k].kind == UCM_K_CTL && sh->ri[k].box == sh->ri[i].box &&
			    sh->ri[k].socket == sh->ri[i].socket && sh->ri[k].idx == sh->ri[i].idx)
				sh->ctlof[i] = (int)k;
	}
	sh->nboxes = g->nboxes;
	for (unsigned b = 0; b < g->nboxes; b++) {
		const struct ucm_boxinst *bi = ucm_box_def(g->m, (int)b);
		unsigned s = ucm_box_socket(g->m, (int)b);

		sh->boxmap[b] = ref_box_find(g->ref, s, bi->type->name, bi->inst);
		if (sh->boxmap[b] < 0 || g->ref->boxes[sh->boxmap[b]].nsub != ucm_subev_count(bi->type))
			FZ_FAIL("box %s%u (socket %u) missing from the reference", bi->type->name, bi->inst, s);
		for (unsigned k = 0; k < UCM_MAXFILT; k++)
			sh->filt[b][k] = -1;
		for (size_t i = 0; i < g->nregs; i++) {
			if (sh->ri[i].box != bi || sh->ri[i].socket != s)
				continue;
			sh->boxof[i] = (int)b;
			if (sh->ri[i].kind == UCM_K_FILTER) {
				if (sh->ri[i].idx >= UCM_MAXFILT || sh->filt[b][sh->ri[i].idx] >= 0)
					FZ_FAIL("%s: filter index %u out of range or taken twice", sh->ri[i].name,
						sh->ri[i].idx);
				sh->filt[b][sh->ri[i].idx] = (int)i;
			}
		}
	}
	cache[ncache++] = sh;
	return sh;
}

static int setup(struct rig *g, struct fz *f)
{
	size_t np;
	const struct ucm_platform *const *all = ucm_platforms(&np);
	struct ucm_config cfg;
	unsigned ninst[UCM_MAXBT], counted = 0;
	static struct ref_model ref;
	char err[256];

	g->m = NULL;
	g->ref = &ref;
	memset(g->gfrozen, 0, sizeof(g->gfrozen));
	g->p = all[fz_u8(f) % np];
	g->legacy = g->p->max_sockets <= 1 && g->p->nclocks <= 1;
	ucm_config_init(&cfg, g->p);
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_PCI] = cfg.access_ps[UCM_MMIO] = 0;
	cfg.strict = 1;
	memset(ninst, 0, sizeof(ninst));
	if (g->p->counted) {
		const struct ucm_boxtype *bt = g->p->counted;
		unsigned span = bt->ninst_max - bt->ninst_min + 1u;

		counted = ninst[ucm_boxtype_index(g->p, bt)] = bt->ninst_min + fz_u8(f) % span;
	}
	memcpy(cfg.ninst, ninst, sizeof(ninst));
	if (!g->legacy) {
		/* bits 2d+1:2d: clock d's frequency; bit 15: one socket only */
		uint16_t c = fz_u16(f);

		for (unsigned d = 0; d < g->p->nclocks && d < UCM_MAXCLK; d++)
			cfg.clock_hz[d] = pick_hz(&g->p->clocks[d], c >> (2 * d));
		if (c & 0x8000)
			cfg.sockets = 1;
	}
	if (!(g->m = fz_model(&cfg, err, sizeof(err))))
		FZ_FAIL("model: %s", err);
	if (ref_init(g->ref, g->p, ninst, cfg.sockets, cfg.clock_hz, cfg.pci_bus, cfg.node_id))
		FZ_FAIL("%s exceeds the reference model's limits", g->p->name);
	g->nsockets = ucm_nsockets(g->m);
	g->ncpus = ucm_cpus_per_socket(g->m);
	if (g->nsockets != g->ref->nsockets || g->ncpus != g->ref->ncores)
		FZ_FAIL("model has %u sockets of %u cpus, reference %u of %u", g->nsockets, g->ncpus,
			g->ref->nsockets, g->ref->ncores);
	for (unsigned d = 0; d < g->p->nclocks; d++)
		if (ucm_clock_hz(g->m, d) != g->ref->hz[d])
			FZ_FAIL("clock %u: model %llu Hz, reference %llu Hz", d,
				(unsigned long long)ucm_clock_hz(g->m, d), (unsigned long long)g->ref->hz[d]);
	g->nregs = ucm_nregs(g->m);
	if (g->nregs != g->ref->nregs || g->nregs > REF_MAXREGS)
		FZ_FAIL("model has %zu registers, reference %u", g->nregs, g->ref->nregs);
	g->nboxes = ucm_box_count(g->m);
	if (g->nboxes != g->ref->nboxes || g->nboxes > REF_MAXBOX)
		FZ_FAIL("model has %u boxes, reference %u", g->nboxes, g->ref->nboxes);
	g->sh = shape_of(g, counted, g->nsockets);
	/* the first instant at which clock 0 has completed TIME_CYCLES cycles */
	g->t_end = (uint64_t)(((unsigned __int128)TIME_CYCLES * 1000000000000ull + g->ref->hz[0] - 1) / g->ref->hz[0]);
	return 0;
}

/* A sub-event of a box: one operand byte, two where a box has more. */
static unsigned pick_sub(struct fz *f, unsigned nsub)
{
	return nsub <= 256 ? fz_u8(f) % nsub : fz_u16(f) % nsub;
}

/* Whether a box has a filter register. */
static int has_filter(const struct rig *g, unsigned box)
{
	for (unsigned k = 0; k < UCM_MAXFILT; k++)
		if (g->sh->filt[box][k] >= 0)
			return 1;
	return 0;
}

/* The value of the filter field a UCM_FM_EQ/BIT/GE rule compares with (role
 * and .arg), in the first of the box's filter registers by .idx that has
 * it, as the registers read now; 0 where none has it. */
static uint64_t rule_field(struct rig *g, unsigned box, const struct ucm_filtrule *fr)
{
	for (unsigned k = 0; k < UCM_MAXFILT; k++) {
		int fi = g->sh->filt[box][k];
		const struct ucm_layout *l = fi >= 0 ? g->sh->ri[fi].layout : NULL;

		for (unsigned j = 0; l && j < l->nfields; j++)
			if (l->fields[j].role == fr->role && l->fields[j].arg == fr->arg)
				return ucm_field_get(&l->fields[j], peek(g, (size_t)fi));
	}
	return 0;
}

/* The attribute bits the fields of a role hold over every filter register
 * of a box, placed by UCM_FA_BIT(.arg), match side (mask 0) or mask side:
 * their values in *val, the bits they hold in *held. */
static void gather(struct rig *g, unsigned box, unsigned role, int mask, uint64_t *val,
		   uint64_t *held)
{
	*val = *held = 0;
	for (unsigned k = 0; k < UCM_MAXFILT; k++) {
		int fi = g->sh->filt[box][k];
		const struct ucm_layout *l = fi >= 0 ? g->sh->ri[fi].layout : NULL;

		for (unsigned j = 0; l && j < l->nfields; j++) {
			const struct ucm_field *ff = &l->fields[j];
			unsigned at = UCM_FA_BIT(ff->arg);

			if (ff->role != role || UCM_FA_IS_MASK(ff->arg) != mask || at > 63)
				continue;
			*val |= ucm_field_get(ff, peek(g, (size_t)fi)) << at;
			*held |= (ucm_field_mask(ff) >> ff->lo) << at;
		}
	}
}

/* Bit n (modulo the count) of the bits set in m, as a mask; 0 if none. */
static uint64_t nth_bit(uint64_t m, unsigned n)
{
	unsigned c = 0;

	for (uint64_t t = m; t; t &= t - 1)
		c++;
	if (!c)
		return 0;
	n %= c;
	while (n--)
		m &= m - 1;
	return m & -m;
}

/* Attribute values worth trying: small, none, any, and one that the box's
 * filters currently pass or just fail.  EQ/BIT/GE: the field value a rule
 * on this attribute compares with, or a bit set in it.  MASKED and EQ_BITS
 * (the packet fields and the address, over several filter registers): the
 * match fields' value, that value with one compared bit flipped (fails), or
 * with one bit flipped that is not compared (masked out, below the rule's
 * lowest bit, or beyond the fields: passes). */
static uint64_t pick_attr(struct rig *g, struct fz *f, unsigned box, unsigned sub, unsigned attr)
{
	const struct ucm_evcode *ec = ucm_subev_code(ucm_box_def(g->m, (int)box)->type, sub);
	uint8_t k = fz_u8(f);

	switch (k % 5) {
	case 0: return fz_u8(f) % 8;
	case 1: return UCM_ATTR_NONE;
	case 2: return fz_u8(f);
	case 3: return fz_u8(f) & 1 ? fz_u16(f) : (uint64_t)fz_u16(f) << 12 | fz_u16(f);
	default:
		for (unsigned i = 0; ec && has_filter(g, box) && i < ec->nrules; i++) {
			const struct ucm_filtrule *fr = &ec->rules[i];
			uint64_t fv;

			if (fr->attr != attr)
				continue;
			if (fr->how == UCM_FM_MASKED || fr->how == UCM_FM_EQ_BITS) {
				uint64_t held, mv, mheld, cmp;

				gather(g, box, fr->role, 0, &fv, &held);
				if (fr->how == UCM_FM_MASKED) {
					gather(g, box, fr->role, 1, &mv, &mheld);
					cmp = mv & held;
				} else {
					cmp = held & (fr->arg < 64 ? ~0ull << fr->arg : 0);
				}
				switch ((k >> 3) & 3) {
				case 0:
				case 1: return fv;
				case 2: return fv ^ nth_bit(cmp, k >> 5);
				default: return fv ^ nth_bit(~cmp & ((held << 1) | held | 1), k >> 5);
				}
			}
			fv = rule_field(g, box, fr);
			if (fr->how == UCM_FM_BIT) {
				for (unsigned b = 0; b < 64; b++)
					if ((fv >> b) & 1)
						return b;
				return 0;
			}
			return fv + (fr->how == UCM_FM_GE ? (k >> 3) % 3 : 0);
		}
		return k >> 3;
	}
}

/* Time passes: the invariants that need no reference.  Counters stand
 * still while their socket is globally disabled, their box frozen or their
 * control's EN clear (free-running counters aside).  before: the
 * registers before time passed, now: after (as the compare read them). */
FZ_NO_COVERAGE static void check_time(struct rig *g, const uint64_t *before, const uint64_t *now,
				     const int *frozen)
{
	int disabled[REF_MAXSOCK] = { 0 };

	for (size_t j = 0; j < g->nregs; j++)
		if (g->sh->ri[j].kind == UCM_K_GLOBAL_CTL && g->sh->ri[j].socket < REF_MAXSOCK &&
		    ucm_layout_field(g->sh->ri[j].layout, UCM_R_GLOBAL_EN) &&
		    !ucm_field_get(ucm_layout_field(g->sh->ri[j].layout, UCM_R_GLOBAL_EN), before[j]))
			disabled[g->sh->ri[j].socket] = 1;
	/* a socket frozen (frz_all, an overflow that froze it) when time
	 * started to pass stays frozen: only a write unfreezes it */
	for (unsigned s = 0; s < g->nsockets && s < REF_MAXSOCK; s++)
		if (g->gfrozen[s])
			disabled[s] = 2;
	for (size_t k = 0; k < g->nregs; k++) {
		const struct ucm_reginfo *ri = &g->sh->ri[k];
		const char *why = NULL;

		if (ri->kind != UCM_K_CTR || (ri->box->type->flags & UCM_BT_FREERUN) || now[k] == before[k])
			continue;
		if (disabled[ri->socket])
			why = disabled[ri->socket] == 2 ? "its socket was frozen" : "GLOBAL_CTRL.EN was 0";
		else if (frozen[g->ref->regs[g->sh->map[k]].box])
			why = "its box was frozen";
		else if (g->sh->ctlof[k] < 0 ||
			 !ucm_field_get(ucm_layout_field(g->sh->ri[g->sh->ctlof[k]].layout, UCM_R_EN), before[g->sh->ctlof[k]]))
			why = "it has no control or its control's EN was 0";
		if (why)
			FZ_FAIL("%s (socket %u) counted while %s", ri->name, ri->socket, why);
	}
}

/* Structured programming, so that counting paths are reached quickly: the
 * control at or after register i gets a code of its box's table (with
 * EV_SEL bit 7 for an occupancy sub-counter where the control has
 * OCC_SEL), a umask selecting one of the code's sub-events (or random
 * bits), a small threshold and EN, the rest of its writable bits random;
 * the socket's global enable may be set; one of the code's sub-events gets
 * an input. */
static void program(struct rig *g, struct fz *f, size_t i, uint64_t *before)
{
	const struct ucm_reginfo *ri;
	const struct ucm_layout *l;
	const struct ucm_boxtype *bt;
	const struct ucm_evcode *ec = NULL;
	uint64_t v, rnd = fz_u32(f);
	uint8_t sel = fz_u8(f), pick = fz_u8(f), sb = fz_u8(f), inc = fz_u8(f);
	size_t k = i;

	for (size_t t = 0; t < g->nregs && g->sh->ri[k].kind != UCM_K_CTL; t++)
		k = (k + 1) % g->nregs;
	ri = &g->sh->ri[k];
	if (ri->kind != UCM_K_CTL)
		return;
	l = ri->layout;
	bt = ri->box->type;
	v = rnd & ri->rw_mask;
	if (bt->ncodes && ucm_layout_field(l, UCM_R_EVSEL)) {
		unsigned code, umask = 0;

		ec = &bt->codes[pick % bt->ncodes];
		code = ec->code;
		if (ucm_layout_field(l, UCM_R_OCC_SEL) && (sel & 1))
			code |= 0x80;
		v = ucm_field_put(ucm_layout_field(l, UCM_R_EVSEL), v, code & 0xFF);
		v = ucm_field_put(ucm_layout_field(l, UCM_R_EXTSEL), v, code >> 8);
		if (sel & 2) {
			umask = (unsigned)(rnd >> 8) & 0xFF;
		} else if (ec->nsubs) {
			const struct ucm_subev *se = &ec->subs[sb % ec->nsubs];

			for (unsigned gr = 0; gr < ec->ngrp; gr++)
				if (!((sel & 8) && (ec->grp_restrict >> gr) & 1))
					umask |= se->match[gr] & ec->grp_mask[gr];
		}
		for (unsigned r = 0; (sel & 4) && r < ec->nrules; r++)
			umask |= ec->rules[r].umask_bits;
		v = ucm_field_put(ucm_layout_field(l, UCM_R_UMASK), v, umask);
	}
	switch ((sel >> 4) & 3) {
	case 0: break;
	case 1: v = ucm_field_put(ucm_layout_field(l, UCM_R_THRESH), v, 0); break;
	case 2: v = ucm_field_put(ucm_layout_field(l, UCM_R_THRESH), v, 1); break;
	default: v = ucm_field_put(ucm_layout_field(l, UCM_R_THRESH), v, rnd % 8); break;
	}
	if ((sel & 0xC0) != 0xC0)
		v = ucm_field_put(ucm_layout_field(l, UCM_R_EN), v, 1);
	reg_write(g, k, v);
	check_write(g, before);
	if (sel & 0x80)
		for (size_t j = 0; j < g->nregs; j++)
			if (g->sh->ri[j].kind == UCM_K_GLOBAL_CTL && g->sh->ri[j].socket == ri->socket) {
				const struct ucm_field *en = ucm_layout_field(g->sh->ri[j].layout, UCM_R_GLOBAL_EN);

				const struct ucm_field *unfrz = ucm_layout_field(g->sh->ri[j].layout, UCM_R_UNFRZ_ALL);

				if (en && !ucm_field_get(en, peek(g, j))) {
					reg_write(g, j, ucm_field_put(en, peek(g, j), 1));
					check_write(g, before);
				} else if (!en && unfrz && ucm_global_frozen(g->m, ri->socket)) {
					reg_write(g, j, ucm_field_put(unfrz, peek(g, j), 1));
					check_write(g, before);
				}
			}
	if (ec) {
		/* an input for one of the code's sub-events (the occupancy code's
		 * when EV_SEL bit 7 was asked for and OCC_SEL picks one) */
		int box = g->sh->boxof[k];
		unsigned nsub = ucm_subev_count(bt), first = 0, n = ec->nsubs ? ec->nsubs : 1;
		uint32_t in;

		while (first < nsub && ucm_subev_code(bt, first) != ec)
			first++;
		if ((sel & 1) && ucm_layout_field(l, UCM_R_OCC_SEL) && (inc & 0x80))
			for (unsigned j = 0; j < nsub; j++)
				if (ucm_subev_code(bt, j)->flags & UCM_EC_OCC) {
					ec = ucm_subev_code(bt, j);
					first = j;
					n = ec->nsubs ? ec->nsubs : 1;
					break;
				}
		if (first >= nsub)
			return;
		first += sb % n;
		in = inc % (ec->max_inc + 1u);
		if (ucm_set_input(g->m, box, first, in) == 0)
			ref_set_input(g->ref, g->sh->boxmap[box], first, in);
		if ((inc & 0x40) && has_filter(g, (unsigned)box) && ec->nrules) {
			/* the box's filter registers set so that this sub-event
			 * passes its rules (where it has the attributes): EQ/BIT/GE
			 * fields as before; MASKED and EQ_BITS match fields to the
			 * attribute's bits they hold, the mask fields (inc bits 2:1)
			 * kept, all ones, random or zero */
			uint64_t fv[UCM_MAXFILT] = { 0 };

			for (unsigned q = 0; q < UCM_MAXFILT; q++)
				if (g->sh->filt[box][q] >= 0)
					fv[q] = peek(g, (size_t)g->sh->filt[box][q]);
			for (unsigned r = 0; r < ec->nrules; r++) {
				const struct ucm_filtrule *fr = &ec->rules[r];
				uint64_t a = ucm_get_input_attr(g->m, box, first, fr->attr);
				int packet = fr->how == UCM_FM_MASKED || fr->how == UCM_FM_EQ_BITS;

				if (a == UCM_ATTR_NONE)
					continue;
				for (unsigned q = 0; q < UCM_MAXFILT; q++) {
					const struct ucm_layout *fl =
						g->sh->filt[box][q] >= 0 ? g->sh->ri[g->sh->filt[box][q]].layout : NULL;

					for (unsigned j = 0; fl && j < fl->nfields; j++) {
						const struct ucm_field *ff = &fl->fields[j];
						uint64_t w = ucm_field_mask(ff) >> ff->lo;
						unsigned at = UCM_FA_BIT(ff->arg);

						if (ff->role != fr->role || (!packet && ff->arg != fr->arg))
							continue;
						if (packet && !UCM_FA_IS_MASK(ff->arg)) {
							fv[q] = ucm_field_put(ff, fv[q], at < 64 ? (a >> at) & w : 0);
						} else if (packet) {
							switch ((inc >> 1) & 3) {
							case 0: break;
							case 1: fv[q] = ucm_field_put(ff, fv[q], w); break;
							case 2: fv[q] = ucm_field_put(ff, fv[q], (rnd >> (at & 31)) & w); break;
							default: fv[q] = ucm_field_put(ff, fv[q], 0); break;
							}
						} else if (fr->how == UCM_FM_BIT) {
							fv[q] = ucm_field_put(ff, fv[q],
									      ucm_field_get(ff, fv[q]) | (a < 64 ? 1ull << a : 0));
						} else if (fr->how == UCM_FM_GE) {
							fv[q] = ucm_field_put(ff, fv[q], a > (inc & 1u) ? a - (inc & 1u) : 0);
						} else {
							fv[q] = ucm_field_put(ff, fv[q], a);
						}
					}
				}
			}
			for (unsigned q = 0; q < UCM_MAXFILT; q++)
				if (g->sh->filt[box][q] >= 0) {
					reg_write(g, (size_t)g->sh->filt[box][q], fv[q]);
					check_write(g, before);
				}
		}
	}
}

/* After a reset: every register at its reset value. */
FZ_NO_COVERAGE static void check_reset(struct rig *g)
{
	static uint64_t now[REF_MAXREGS];

	snapshot(g, now);
	for (size_t k = 0; k < g->nregs; k++)
		if (now[k] != g->sh->ri[k].reset)
			FZ_FAIL("reset left %s at 0x%llx, reset value 0x%llx", g->sh->ri[k].name,
				(unsigned long long)now[k], (unsigned long long)g->sh->ri[k].reset);
}

static int frozen_before[REF_MAXBOX];

static void freeze_state(struct rig *g)
{
	for (unsigned b = 0; b < g->ref->nboxes; b++)
		frozen_before[b] = ref_box_frozen(g->ref, (int)b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	static struct rig g;
	static uint64_t before[REF_MAXREGS];
	unsigned ops = 0;
	int timed = 0;  /* the operation let time pass */

	setup(&g, &f);
	wrote = 0;
	compare(&g, "reset");
	while (fz_more(&f) && ops++ < 512) {
		uint8_t opb = fz_u8(&f);
		unsigned op = !g.legacy ? opb % NOPS : opb < 250 ? opb % 10u : 10u + (opb - 250u) % 4u;
		size_t i = g.nregs <= 256 ? fz_u8(&f) % g.nregs : fz_u16(&f) % g.nregs;

		/* the registers as compare() just read them (peeks have no side effects) */
		memcpy(before, g.cur, g.nregs * sizeof(before[0]));
		switch (op) {
		case 0: /* write a register of the table */
			reg_write(&g, i, pick_value(&f, &g.sh->ri[i]));
			wrote = 1;
			break;
		case 1: /* read one */
			reg_read(&g, i);
			break;
		case 2: { /* a raw MSR address, mapped or not, on any cpu */
			uint32_t addr = fz_u16(&f) & 0xFFF;
			uint64_t v = fz_u64(&f), va = 0, vb = 0;
			uint8_t rw = fz_u8(&f);
			unsigned cpu = (rw >> 1) % (g.nsockets * g.ncpus);
			int a, b;

			if (rw & 1) {
				a = ucm_msr_write(g.m, cpu, addr, v);
				b = ref_msr_write(g.ref, cpu, addr, v);
				wrote = 1;
			} else {
				a = ucm_msr_read(g.m, cpu, addr, &va);
				b = ref_msr_read(g.ref, cpu, addr, &vb);
			}
			if (!same_rc(a, b) || va != vb)
				FZ_FAIL("MSR 0x%x cpu %u: model %d 0x%llx, reference %d 0x%llx", addr, cpu, a,
					(unsigned long long)va, b, (unsigned long long)vb);
			break;
		}
		case 3: { /* raw PCI config: any width, offset, nearby devices */
			static const unsigned widths[] = { 1, 2, 4, 8, 3 };
			unsigned w = widths[fz_u8(&f) % 5];

			if (g.legacy) {
				unsigned bus = fz_u8(&f) % 4 ? g.p->pci_bus[0] : fz_u8(&f);
				unsigned dev = fz_u8(&f) % 3, fn = fz_u8(&f) % 2, off = fz_u16(&f) % 4104;
				uint64_t v = fz_u64(&f);

				pci_access(&g, bus, dev, fn, off, w, v, fz_u8(&f) & 1);
			} else {
				/* around a register of the table (any socket's bus), or
				 * anywhere on a device of either bus or another */
				uint16_t t = fz_u16(&f);
				unsigned bus, dev, fn, off;
				uint64_t v;

				if ((t & 0x8000) || !g.sh->npci) {
					uint8_t sel = fz_u8(&f);

					bus = sel & 0x80 ? fz_u8(&f) : g.p->pci_bus[sel % g.nsockets];
					dev = fz_u8(&f) % 32;
					fn = fz_u8(&f) % 8;
					off = fz_u16(&f) % 4104;
				} else {
					const struct ucm_reginfo *ri = &g.sh->ri[g.sh->pci[t % g.sh->npci]];
					unsigned base = (unsigned)ri->addr & 0xFFF, d = fz_u8(&f) % 24;

					bus = pci_bus(ri);
					dev = pci_dev(ri);
					fn = pci_fn(ri);
					off = base + d >= 8 ? base + d - 8 : 0;
				}
				v = fz_u64(&f);
				pci_access(&g, bus, dev, fn, off, w, v, fz_u8(&f) & 1);
			}
			break;
		}
		case 4: { /* raw MMIO around the BAR window */
			static const unsigned widths[] = { 4, 8, 2 };
			unsigned w = widths[fz_u8(&f) % 3];
			uint64_t pa = bar_base(&g) + fz_u16(&f) % 0x8010 - 8, v = fz_u64(&f), va = 0, vb = 0;
			int a, b;

			if (fz_u8(&f) & 1) {
				a = ucm_mmio_write(g.m, pa, w, v);
				b = ref_mmio_write(g.ref, pa, w, v);
				wrote = 1;
			} else {
				a = ucm_mmio_read(g.m, pa, w, &va);
				b = ref_mmio_read(g.ref, pa, w, &vb);
			}
			if (!same_rc(a, b) || (!a && va != vb))
				FZ_FAIL("MMIO 0x%llx/%u: model %d 0x%llx, reference %d 0x%llx",
					(unsigned long long)pa, w, a, (unsigned long long)va, b,
					(unsigned long long)vb);
			break;
		}
		case 5: { /* an input: the model refuses what exceeds a maximum */
			unsigned box = fz_u8(&f) % g.nboxes;
			const struct ucm_boxinst *bi = ucm_box_def(g.m, (int)box);
			unsigned nsub = ucm_subev_count(bi->type);

			if (nsub) {
				unsigned sub = pick_sub(&f, nsub);
				uint32_t inc = fz_u8(&f) % (ucm_subev_code(bi->type, sub)->max_inc + 2u);

				if (ucm_set_input(g.m, (int)box, sub, inc) == 0)
					ref_set_input(g.ref, g.sh->boxmap[box], sub, inc);
			}
			break;
		}
		case 6: /* time: n cycles of clock 0 */
		case 11: /* time: n cycles of any clock */
		case 12: { /* time: picoseconds */
			unsigned clock = op == 11 ? fz_u8(&f) % g.p->nclocks : 0;

			freeze_state(&g);
			for (unsigned s = 0; s < g.nsockets && s < REF_MAXSOCK; s++)
				g.gfrozen[s] = ucm_global_frozen(g.m, s);
			if (op == 12) {
				uint64_t ps = (uint64_t)fz_u16(&f) * (1u + fz_u8(&f) % 4u);

				/* no further than the input's time allows */
				ps = g.ref->now_ps + ps > g.t_end ? g.t_end - g.ref->now_ps : ps;
				if (ucm_run_ps(g.m, ps))
					FZ_FAIL("run %llu ps: %s", (unsigned long long)ps, ucm_error(g.m));
				ref_run_ps(g.ref, ps);
			} else {
				/* the reference walks every edge of every clock: spans
				 * on multi-clock platforms are kept shorter; and no
				 * further than the input's time allows: the cycles the
				 * clock completes by then */
				uint64_t n = 1 + fz_u16(&f) % (g.legacy ? 2048u : 512u);
				uint64_t left = (uint64_t)((unsigned __int128)g.t_end * g.ref->hz[clock] / 1000000000000ull) -
						g.ref->cycles[clock];

				n = n < left ? n : left;
				if (n && ucm_run_cycles(g.m, clock, n))
					FZ_FAIL("run: %s", ucm_error(g.m));
				if (n)
					ref_run_cycles(g.ref, clock, n);
			}
			timed = 1; /* check_time after the compare, on what it read */
			for (unsigned s = 0; s < g.nsockets; s++)
				if (ucm_global_frozen(g.m, s) != g.ref->sock[s].gfrozen ||
				    ucm_overflow_freezes(g.m, s) != g.ref->sock[s].freezes)
					FZ_FAIL("socket %u: model frozen %d after %llu freezes, reference %d after %llu",
						s, ucm_global_frozen(g.m, s),
						(unsigned long long)ucm_overflow_freezes(g.m, s), g.ref->sock[s].gfrozen,
						(unsigned long long)g.ref->sock[s].freezes);
			break;
		}
		case 7: /* reset */
			ucm_reset(g.m);
			ref_reset(g.ref);
			check_reset(&g);
			break;
		case 8: { /* a core goes to sleep or wakes */
			unsigned c = fz_u8(&f) % g.ref->ncores;
			uint8_t sb = fz_u8(&f);
			unsigned s = (sb >> 1) % g.nsockets;

			ucm_core_sleep(g.m, s, c, sb & 1);
			g.ref->sock[s].asleep[c] = (uint8_t)(sb & 1);
			break;
		}
		case 9: { /* a counter close to its wrap */
			size_t k = i;

			for (size_t t = 0; t < g.nregs && g.sh->ri[k].kind != UCM_K_CTR; t++)
				k = (k + 1) % g.nregs;
			if (g.sh->ri[k].kind == UCM_K_CTR && g.sh->ri[k].rw_mask) {
				reg_write(&g, k, g.sh->ri[k].rw_mask - fz_u16(&f) % 4096);
				wrote = 1;
			}
			break;
		}
		case 13: /* program a counter with an event of the table, feed it */
			program(&g, &f, i, before);
			break;
		default: { /* 10: a sub-event attribute the box filters compare with */
			unsigned box = fz_u8(&f) % g.nboxes;
			const struct ucm_boxinst *bi = ucm_box_def(g.m, (int)box);
			unsigned nsub = ucm_subev_count(bi->type);

			if (nsub) {
				unsigned sub = pick_sub(&f, nsub), attr = fz_u8(&f) % (UCM_NATTR + 1u);
				uint64_t v = pick_attr(&g, &f, box, sub, attr);
				int rc = ucm_set_input_attr(g.m, (int)box, sub, attr, v);

				if ((rc == 0) != (attr < UCM_NATTR))
					FZ_FAIL("attribute %u of %s%u sub-event %u: model rc %d", attr,
						bi->type->name, bi->inst, sub, rc);
				if (rc == 0) {
					ref_set_input_attr(g.ref, g.sh->boxmap[box], sub, attr, v);
					if (ucm_get_input_attr(g.m, (int)box, sub, attr) != v)
						FZ_FAIL("attribute %u of %s%u sub-event %u reads 0x%llx, set 0x%llx",
							attr, bi->type->name, bi->inst, sub,
							(unsigned long long)ucm_get_input_attr(g.m, (int)box, sub, attr),
							(unsigned long long)v);
				}
			}
			break;
		}
		}
		compare(&g, "an operation");
		if (wrote)
			check_write_vals(&g, before, g.cur);
		if (timed)
			check_time(&g, before, g.cur, frozen_before);
		wrote = timed = 0;
	}
	return 0; /* the model is kept for the next input of its configuration */
}
