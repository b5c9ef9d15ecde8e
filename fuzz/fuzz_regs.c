/*
 * fuzz_regs.c - register-sequence harness: a stream of register reads and
 * writes (by register-table index or raw address, in every space and
 * width), inputs, time, resets and core sleep, applied to the optimized
 * model and to the naive reference model.  After every operation both must
 * agree on every register and every PMI count, and the invariants of the
 * manual must hold: read-only bits unchanged by writes, W1C bits only
 * cleared, reserved and write-only bits read as 0, counters below 2^width,
 * counters still while globally disabled, reset restoring every reset value.
 */
#include <string.h>

#include "fz.h"
#include "ref_model.h"
#include "ucm.h"

struct rig {
	struct ucm_model *m;
	struct ref_model ref;
	const struct ucm_platform *p;
	size_t nregs;
	int map[REF_MAXREGS];          /* model register i -> ref register */
	struct ucm_reginfo ri[REF_MAXREGS];
};

static uint64_t peek(struct rig *g, size_t i)
{
	uint64_t v = 0;

	if (ucm_peek(g->m, g->ri[i].space, g->ri[i].socket, g->ri[i].addr, &v))
		FZ_FAIL("peek of %s failed: %s", g->ri[i].name, ucm_error(g->m));
	return v;
}

static void compare(struct rig *g, const char *after)
{
	for (size_t i = 0; i < g->nregs; i++) {
		uint64_t v = peek(g, i), rv = ref_peek(&g->ref, (unsigned)g->map[i]);

		if (v != rv)
			FZ_FAIL("after %s: %s model 0x%llx, reference 0x%llx", after, g->ri[i].name,
				(unsigned long long)v, (unsigned long long)rv);
		if (v & (g->ri[i].rsvd_mask | g->ri[i].wo_mask))
			FZ_FAIL("after %s: %s reads reserved/write-only bits 0x%llx", after, g->ri[i].name,
				(unsigned long long)(v & (g->ri[i].rsvd_mask | g->ri[i].wo_mask)));
	}
	for (unsigned c = 0; c < g->ref.ncores; c++) {
		struct ucm_pmi_stats st;

		ucm_pmi_stats(g->m, 0, c, &st);
		if (st.delivered != g->ref.delivered[c] || st.wakes != g->ref.wakes[c] ||
		    st.dropped != g->ref.dropped[c])
			FZ_FAIL("after %s: core %u PMIs model %llu/%llu/%llu, reference %llu/%llu/%llu", after, c,
				(unsigned long long)st.delivered, (unsigned long long)st.wakes,
				(unsigned long long)st.dropped, (unsigned long long)g->ref.delivered[c],
				(unsigned long long)g->ref.wakes[c], (unsigned long long)g->ref.dropped[c]);
	}
	if (ucm_pmi_requests(g->m, 0) != g->ref.pmi_requests)
		FZ_FAIL("after %s: PMI requests model %llu, reference %llu", after,
			(unsigned long long)ucm_pmi_requests(g->m, 0), (unsigned long long)g->ref.pmi_requests);
	if (ucm_cycles(g->m, 0) != g->ref.cycles)
		FZ_FAIL("after %s: cycles model %llu, reference %llu", after,
			(unsigned long long)ucm_cycles(g->m, 0), (unsigned long long)g->ref.cycles);
}

static uint64_t bar_base(struct rig *g)
{
	for (size_t i = 0; i < g->nregs; i++)
		if (g->ri[i].kind == UCM_K_BAR)
			return peek(g, i) & g->p->bar_mask;
	return 0;
}

static void snapshot(struct rig *g, uint64_t *v)
{
	for (size_t i = 0; i < g->nregs; i++)
		v[i] = peek(g, i);
}

/* After a write: RO bits unchanged, W1C bits never set by software. */
static void check_write(struct rig *g, const uint64_t *before)
{
	for (size_t i = 0; i < g->nregs; i++) {
		uint64_t now = peek(g, i);

		if ((now ^ before[i]) & g->ri[i].ro_mask)
			FZ_FAIL("write changed read-only bits of %s: 0x%llx -> 0x%llx", g->ri[i].name,
				(unsigned long long)before[i], (unsigned long long)now);
		if (now & ~before[i] & g->ri[i].w1c_mask)
			FZ_FAIL("write set W1C bits of %s: 0x%llx -> 0x%llx", g->ri[i].name,
				(unsigned long long)before[i], (unsigned long long)now);
	}
}

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

static void reg_write(struct rig *g, size_t i, uint64_t v)
{
	const struct ucm_reginfo *ri = &g->ri[i];
	unsigned w = ri->width / 8;
	int a = 0, b = 0;

	switch (ri->space) {
	case UCM_MSR:
		a = ucm_msr_write(g->m, 0, (uint32_t)ri->addr, v);
		b = ref_msr_write(&g->ref, (uint32_t)ri->addr, v);
		break;
	case UCM_PCI:
		a = ucm_pci_write(g->m, 0, (unsigned)(ri->addr >> 20), (unsigned)(ri->addr >> 15) & 31,
				  (unsigned)(ri->addr >> 12) & 7, (unsigned)ri->addr & 0xFFF, w, v);
		b = ref_pci_write(&g->ref, (unsigned)(ri->addr >> 20), (unsigned)(ri->addr >> 15) & 31,
				  (unsigned)(ri->addr >> 12) & 7, (unsigned)ri->addr & 0xFFF, w, v);
		break;
	default: {
		uint64_t base = bar_base(g);

		a = ucm_mmio_write(g->m, base + ri->addr, w, v);
		b = ref_mmio_write(&g->ref, base + ri->addr, w, v);
	}
	}
	if (!same_rc(a, b))
		FZ_FAIL("write of %s: model rc %d, reference rc %d", ri->name, a, b);
}

static void reg_read(struct rig *g, size_t i)
{
	const struct ucm_reginfo *ri = &g->ri[i];
	unsigned w = ri->width / 8;
	uint64_t va = 0, vb = 0;
	int a = 0, b = 0;

	switch (ri->space) {
	case UCM_MSR:
		a = ucm_msr_read(g->m, 0, (uint32_t)ri->addr, &va);
		b = ref_msr_read(&g->ref, (uint32_t)ri->addr, &vb);
		break;
	case UCM_PCI:
		a = ucm_pci_read(g->m, 0, (unsigned)(ri->addr >> 20), (unsigned)(ri->addr >> 15) & 31,
				 (unsigned)(ri->addr >> 12) & 7, (unsigned)ri->addr & 0xFFF, w, &va);
		b = ref_pci_read(&g->ref, (unsigned)(ri->addr >> 20), (unsigned)(ri->addr >> 15) & 31,
				 (unsigned)(ri->addr >> 12) & 7, (unsigned)ri->addr & 0xFFF, w, &vb);
		break;
	default: {
		uint64_t base = bar_base(g);

		a = ucm_mmio_read(g->m, base + ri->addr, w, &va);
		b = ref_mmio_read(&g->ref, base + ri->addr, w, &vb);
	}
	}
	if (!same_rc(a, b) || (!a && va != vb))
		FZ_FAIL("read of %s: model rc %d 0x%llx, reference rc %d 0x%llx", ri->name, a,
			(unsigned long long)va, b, (unsigned long long)vb);
}

static int setup(struct rig *g, struct fz *f)
{
	size_t np;
	const struct ucm_platform *const *all = ucm_platforms(&np);
	struct ucm_config cfg;
	unsigned ninst[UCM_MAXBT];

	memset(g, 0, sizeof(*g));
	g->p = all[fz_u8(f) % np];
	ucm_config_init(&cfg, g->p);
	cfg.access_ps[UCM_MSR] = cfg.access_ps[UCM_PCI] = cfg.access_ps[UCM_MMIO] = 0;
	cfg.strict = 1;
	memset(ninst, 0, sizeof(ninst));
	if (g->p->counted) {
		const struct ucm_boxtype *bt = g->p->counted;
		unsigned span = bt->ninst_max - bt->ninst_min + 1u;

		ninst[ucm_boxtype_index(g->p, bt)] = bt->ninst_min + fz_u8(f) % span;
	}
	memcpy(cfg.ninst, ninst, sizeof(ninst));
	if (ucm_create(&cfg, &g->m))
		FZ_FAIL("model: %s", g->m ? ucm_error(g->m) : "no memory");
	ref_init(&g->ref, g->p, ninst);
	g->nregs = ucm_nregs(g->m);
	if (g->nregs != g->ref.nregs || g->nregs > REF_MAXREGS)
		FZ_FAIL("model has %zu registers, reference %u", g->nregs, g->ref.nregs);
	for (size_t i = 0; i < g->nregs; i++) {
		ucm_reginfo(g->m, i, &g->ri[i]);
		g->map[i] = ref_find(&g->ref, g->ri[i].space, g->ri[i].addr);
		if (g->map[i] < 0)
			FZ_FAIL("%s missing from the reference", g->ri[i].name);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	static struct rig g;
	static uint64_t before[REF_MAXREGS];
	unsigned ops = 0;

	setup(&g, &f);
	compare(&g, "reset");
	while (fz_more(&f) && ops++ < 512) {
		uint8_t op = fz_u8(&f) % 10;
		size_t i = fz_u8(&f) % g.nregs;

		snapshot(&g, before);
		switch (op) {
		case 0: /* write a register of the table */
			reg_write(&g, i, pick_value(&f, &g.ri[i]));
			check_write(&g, before);
			break;
		case 1: /* read one */
			reg_read(&g, i);
			break;
		case 2: { /* a raw MSR address, mapped or not */
			uint32_t addr = fz_u16(&f) & 0xFFF;
			uint64_t v = fz_u64(&f), va = 0, vb = 0;
			int a, b;

			if (fz_u8(&f) & 1) {
				a = ucm_msr_write(g.m, 0, addr, v);
				b = ref_msr_write(&g.ref, addr, v);
				check_write(&g, before);
			} else {
				a = ucm_msr_read(g.m, 0, addr, &va);
				b = ref_msr_read(&g.ref, addr, &vb);
			}
			if (!same_rc(a, b) || va != vb)
				FZ_FAIL("MSR 0x%x: model %d 0x%llx, reference %d 0x%llx", addr, a,
					(unsigned long long)va, b, (unsigned long long)vb);
			break;
		}
		case 3: { /* raw PCI config: any width, offset, nearby devices */
			static const unsigned widths[] = { 1, 2, 4, 8, 3 };
			unsigned w = widths[fz_u8(&f) % 5], bus = fz_u8(&f) % 4 ? g.p->pci_bus[0] : fz_u8(&f);
			unsigned dev = fz_u8(&f) % 3, fn = fz_u8(&f) % 2, off = fz_u16(&f) % 4104;
			uint64_t v = fz_u64(&f), va = 0, vb = 0;
			int a, b;

			if (fz_u8(&f) & 1) {
				a = ucm_pci_write(g.m, 0, bus, dev, fn, off, w, v);
				b = ref_pci_write(&g.ref, bus, dev, fn, off, w, v);
				check_write(&g, before);
			} else {
				a = ucm_pci_read(g.m, 0, bus, dev, fn, off, w, &va);
				b = ref_pci_read(&g.ref, bus, dev, fn, off, w, &vb);
			}
			if (!same_rc(a, b) || (!a && va != vb))
				FZ_FAIL("PCI %02x:%02x.%x+0x%x/%u: model %d 0x%llx, reference %d 0x%llx", bus, dev,
					fn, off, w, a, (unsigned long long)va, b, (unsigned long long)vb);
			break;
		}
		case 4: { /* raw MMIO around the BAR window */
			static const unsigned widths[] = { 4, 8, 2 };
			unsigned w = widths[fz_u8(&f) % 3];
			uint64_t pa = bar_base(&g) + fz_u16(&f) % 0x8010 - 8, v = fz_u64(&f), va = 0, vb = 0;
			int a, b;

			if (fz_u8(&f) & 1) {
				a = ucm_mmio_write(g.m, pa, w, v);
				b = ref_mmio_write(&g.ref, pa, w, v);
				check_write(&g, before);
			} else {
				a = ucm_mmio_read(g.m, pa, w, &va);
				b = ref_mmio_read(&g.ref, pa, w, &vb);
			}
			if (!same_rc(a, b) || (!a && va != vb))
				FZ_FAIL("MMIO 0x%llx/%u: model %d 0x%llx, reference %d 0x%llx",
					(unsigned long long)pa, w, a, (unsigned long long)va, b,
					(unsigned long long)vb);
			break;
		}
		case 5: { /* an input: the model refuses what exceeds a maximum */
			unsigned box = fz_u8(&f) % ucm_box_count(g.m);
			const struct ucm_boxinst *bi = ucm_box_def(g.m, (int)box);
			unsigned nsub = ucm_subev_count(bi->type);
			int rb = ref_box_find(&g.ref, bi->type->name, bi->inst);

			if (nsub) {
				unsigned sub = fz_u8(&f) % nsub;
				uint32_t inc = fz_u8(&f) % (ucm_subev_code(bi->type, sub)->max_inc + 2u);

				if (ucm_set_input(g.m, (int)box, sub, inc) == 0)
					ref_set_input(&g.ref, rb, sub, inc);
			}
			break;
		}
		case 6: { /* time: n cycles */
			unsigned n = 1 + fz_u16(&f) % 2048;
			uint64_t gctl = 0;
			int disabled = 0;

			for (size_t k = 0; k < g.nregs; k++)
				if (g.ri[k].kind == UCM_K_GLOBAL_CTL) {
					gctl = before[k];
					disabled = !ucm_field_get(ucm_layout_field(g.ri[k].layout, UCM_R_GLOBAL_EN), gctl);
				}
			if (ucm_run_cycles(g.m, 0, n))
				FZ_FAIL("run: %s", ucm_error(g.m));
			for (unsigned c = 0; c < n; c++)
				ref_step(&g.ref);
			/* globally disabled: only free-running counters move */
			for (size_t k = 0; disabled && k < g.nregs; k++)
				if (g.ri[k].kind == UCM_K_CTR && !(g.ri[k].box->type->flags & UCM_BT_FREERUN) &&
				    peek(&g, k) != before[k])
					FZ_FAIL("%s counted while GLOBAL_CTRL.EN was 0", g.ri[k].name);
			break;
		}
		case 7: /* reset */
			ucm_reset(g.m);
			ref_reset(&g.ref);
			for (size_t k = 0; k < g.nregs; k++)
				if (peek(&g, k) != g.ri[k].reset)
					FZ_FAIL("reset left %s at 0x%llx, reset value 0x%llx", g.ri[k].name,
						(unsigned long long)peek(&g, k), (unsigned long long)g.ri[k].reset);
			break;
		case 8: { /* a core goes to sleep or wakes */
			unsigned c = fz_u8(&f) % g.ref.ncores;
			int s = fz_u8(&f) & 1;

			ucm_core_sleep(g.m, 0, c, s);
			g.ref.asleep[c] = (uint8_t)s;
			break;
		}
		default: { /* a counter close to its wrap */
			size_t k = i;

			for (size_t t = 0; t < g.nregs && g.ri[k].kind != UCM_K_CTR; t++)
				k = (k + 1) % g.nregs;
			if (g.ri[k].kind == UCM_K_CTR && g.ri[k].rw_mask)
				reg_write(&g, k, g.ri[k].rw_mask - fz_u16(&f) % 4096);
			break;
		}
		}
		compare(&g, "an operation");
	}
	ucm_destroy(g.m);
	return 0;
}
