/*
 * ucd_session.c - the driver's state and its register I/O through the
 * backend, programming, sampling, stop and restore, the results, and the
 * register dump.  Discovery (ucd_discover.c), event strings (ucd_parse.c)
 * and placement (ucd_place.c) build on it; it calls none of them.
 *
 * Order of operations (SKL 2.2-2.4; the same roles drive other platforms):
 *   start:  save, global disable, per counter: zero the counter then write
 *           its control with EN, clear our status bits, first read, global
 *           enable (with PMI routing and freeze options).
 *   sample: read every counter; the delta modulo its width is exact when
 *           reads are closer than ucd_safe_interval_ns(); clear and count
 *           overflow status; re-arm a freeze.
 *   stop:   global disable, final read.
 *   restore: every register written, back to its saved value, in reverse.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ucd_internal.h"

int ucd_seterr(struct ucd *d, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->err, sizeof(d->err), fmt, ap);
	va_end(ap);
	return rc;
}

const char *ucd_error(const struct ucd *d)
{
	return d && d->err[0] ? d->err : "no error";
}

const struct ucm_platform *ucd_platform(const struct ucd *d)
{
	return d->plat;
}

unsigned ucd_sockets(const struct ucd *d)
{
	return d->nsockets;
}

uint64_t ucd_mmio_base(const struct ucd *d)
{
	return d->bar;
}

unsigned ucd_ninst(const struct ucd *d, const struct ucm_boxtype *bt)
{
	int i = ucm_boxtype_index(d->plat, bt);

	return i < 0 ? 0 : d->ninst[i];
}

/* ---- register I/O through the backend ---- */

void ucd_reg_of(const struct ucd *d, unsigned socket, const struct ucm_boxinst *bi,
		const struct ucm_regdef *def, struct ucd_reg *r)
{
	memset(r, 0, sizeof(*r));
	r->space = bi->type->space;
	r->def = def;
	r->inst = bi->inst;
	switch (r->space) {
	case UCM_MSR:
		r->cpu = d->cpu[socket];
		r->addr = bi->base + def->off;
		break;
	case UCM_PCI:
		/* an offset past 0xFFF is on a later function (UCM_PCI_FN) */
		r->pci.bus = d->bus[socket];
		r->pci.dev = bi->dev;
		r->pci.fn = (uint8_t)(bi->fn + ((bi->base + def->off) >> 12));
		r->addr = (bi->base + def->off) & 0xFFF;
		break;
	default:
		r->addr = d->bar + bi->base + def->off;
		break;
	}
}

static int be_err(struct ucd *d, int rc, const char *what, const struct ucd_reg *r)
{
	char name[64];

	snprintf(name, sizeof(name), r->def ? r->def->name : "register", r->inst);
	return ucd_seterr(d, rc, "%s %s: %s", what, name, ucb_error(d->be));
}

static int reg_read(struct ucd *d, const struct ucd_reg *r, uint64_t *v)
{
	unsigned bytes = r->def->layout->width / 8;
	int rc;

	switch (r->space) {
	case UCM_MSR:
		rc = ucb_msr_read(d->be, r->cpu, (uint32_t)r->addr, v);
		break;
	case UCM_PCI:
		if (bytes <= 4) {
			rc = ucb_pci_read(d->be, &r->pci, (unsigned)r->addr, bytes, v);
		} else {
			/* config space is dword-wide: high, low, high again, so a
			 * carry between the halves is never reported as 2^32 */
			uint64_t hi1 = 0, lo = 0, hi2 = 0;

			rc = ucb_pci_read(d->be, &r->pci, (unsigned)r->addr + 4, 4, &hi1);
			if (!rc)
				rc = ucb_pci_read(d->be, &r->pci, (unsigned)r->addr, 4, &lo);
			if (!rc)
				rc = ucb_pci_read(d->be, &r->pci, (unsigned)r->addr + 4, 4, &hi2);
			if (!rc && hi1 != hi2)
				rc = ucb_pci_read(d->be, &r->pci, (unsigned)r->addr, 4, &lo);
			*v = (hi2 << 32) | (lo & 0xFFFFFFFFu);
		}
		break;
	default:
		/* 32-bit loads only: a 64-bit load spans two counters */
		if (bytes <= 4) {
			rc = ucb_mmio_read(d->be, r->addr, 4, v);
		} else {
			uint64_t lo = 0, hi = 0;

			rc = ucb_mmio_read(d->be, r->addr, 4, &lo);
			if (!rc)
				rc = ucb_mmio_read(d->be, r->addr + 4, 4, &hi);
			*v = (hi << 32) | (lo & 0xFFFFFFFFu);
		}
		break;
	}
	return rc ? be_err(d, rc, "reading", r) : 0;
}

static int raw_write(struct ucd *d, const struct ucd_reg *r, uint64_t v)
{
	unsigned bytes = r->def->layout->width / 8;
	int rc;

	switch (r->space) {
	case UCM_MSR:
		rc = ucb_msr_write(d->be, r->cpu, (uint32_t)r->addr, v);
		break;
	case UCM_PCI:
		if (bytes <= 4) {
			rc = ucb_pci_write(d->be, &r->pci, (unsigned)r->addr, bytes, v);
		} else {
			rc = ucb_pci_write(d->be, &r->pci, (unsigned)r->addr, 4, v & 0xFFFFFFFFu);
			if (!rc)
				rc = ucb_pci_write(d->be, &r->pci, (unsigned)r->addr + 4, 4, v >> 32);
		}
		break;
	default:
		rc = ucb_mmio_write(d->be, r->addr, bytes <= 4 ? 4 : 8, v);
		break;
	}
	return rc ? be_err(d, rc, "writing", r) : 0;
}

static int same_reg(const struct ucd_reg *a, const struct ucd_reg *b)
{
	return a->space == b->space && a->addr == b->addr && a->cpu == b->cpu &&
	       a->pci.bus == b->pci.bus && a->pci.dev == b->pci.dev && a->pci.fn == b->pci.fn;
}

static int has_access(const struct ucm_layout *l, unsigned access)
{
	for (unsigned i = 0; i < l->nfields; i++)
		if (l->fields[i].access == access)
			return 1;
	return 0;
}

/* Every write goes through here: the first write of a register saves it. */
static int reg_write(struct ucd *d, const struct ucd_reg *r, uint64_t v)
{
	const struct ucm_layout *l = r->def->layout;
	size_t i;

	/* write-1-to-clear state cannot be put back; nothing to save */
	for (i = 0; i < d->nsave && !same_reg(&d->save[i].reg, r); i++)
		;
	if (i == d->nsave && !has_access(l, UCM_A_RW1C)) {
		uint64_t old;
		int rc;

		if (d->nsave == UCD_MAXSAVE)
			return ucd_seterr(d, -ENOSPC, "too many registers to save");
		if ((rc = reg_read(d, r, &old)))
			return rc;
		d->save[d->nsave].reg = *r;
		d->save[d->nsave].val = old;
		d->nsave++;
	}
	return raw_write(d, r, v);
}

int ucd_restore(struct ucd *d)
{
	int first = 0;

	/* the session ends here: stop it first, and read no more after */
	if (d->running && (first = ucd_stop(d)))
		return first;
	d->started = 0;
	for (size_t i = d->nsave; i-- > 0;) {
		int rc = raw_write(d, &d->save[i].reg, d->save[i].val);

		if (rc && !first)
			first = rc;
	}
	if (!first)
		d->nsave = 0;
	return first;
}

/* ---- finding and reading registers, for discovery too (ucd_discover.c) ---- */

static const struct ucm_boxinst *find_reg(const struct ucm_platform *p, unsigned kind,
					  const struct ucm_regdef **def)
{
	*def = NULL;
	for (unsigned i = 0; i < p->nboxes; i++)
		for (unsigned k = 0; k < p->boxes[i].type->nregs; k++)
			if (p->boxes[i].type->regs[k].kind == kind) {
				*def = &p->boxes[i].type->regs[k];
				return &p->boxes[i];
			}
	return NULL;
}

/* find_reg() and reg_read() stay static here, where the sampling inlines
 * the one and calls the other; discovery reaches them through these. */
const struct ucm_boxinst *ucd_find_reg(const struct ucm_platform *p, unsigned kind,
				       const struct ucm_regdef **def)
{
	return find_reg(p, kind, def);
}

int ucd_reg_read(struct ucd *d, const struct ucd_reg *r, uint64_t *v)
{
	return reg_read(d, r, v);
}

/* ---- the end of a session ---- */

void ucd_close(struct ucd *d)
{
	if (!d)
		return;
	if (d->running)
		ucd_stop(d);
	if (d->nsave)
		ucd_restore(d);
	free(d->samples);
	free(d);
}

/* ---- events ---- */

const char *ucd_default_events(const struct ucd *d)
{
	return d->plat->default_events;
}

/* ---- global control ---- */

static const struct ucm_boxinst *global_box(const struct ucd *d, const struct ucm_regdef **g,
					    unsigned kind)
{
	const struct ucm_regdef *def;
	const struct ucm_boxinst *bi = find_reg(d->plat, kind, &def);

	*g = def;
	return bi;
}

/* The cores a PMI goes to: the user's, or in PMI-driven mode the first
 * core of each socket (someone must hear it). */
static uint32_t pmi_cores(const struct ucd *d)
{
	return d->opts.pmi_cores ? d->opts.pmi_cores : d->pmi_mode ? 1u : 0u;
}

/* Whether counter c reports overflow to the UBox: its control has OVF_EN
 * and its box a global status bit. */
static int reports_overflow(const struct ucd_ctr *c)
{
	return c->has_ctl && c->shared_with < 0 &&
	       ucm_layout_field(c->ctl.def->layout, UCM_R_OVF_EN) && ucm_gstatus_bit(c->bi, c->idx) >= 0;
}

/* Global status bits of the counters we use. */
static uint64_t our_status_bits(const struct ucd *d)
{
	uint64_t bits = 0;

	for (size_t j = 0; j < d->nctr; j++)
		if (reports_overflow(&d->ctr[j]))
			bits |= 1ull << ucm_gstatus_bit(d->ctr[j].bi, d->ctr[j].idx);
	return bits;
}

/* The box status bit of counter c, 0 if its box has none. */
static uint64_t box_status_bit(const struct ucd_ctr *c, const struct ucm_regdef **def)
{
	const struct ucm_layout *l;

	*def = ucm_regdef_find(c->bi->type, UCM_K_BOX_STATUS, 0);
	if (!*def)
		return 0;
	l = (*def)->layout;
	for (unsigned i = 0; i < l->nfields; i++)
		if (l->fields[i].role == UCM_R_OVF_STATUS && l->fields[i].arg == c->idx)
			return ucm_field_mask(&l->fields[i]);
	return 0;
}

/* A preloaded counter overflowed: note the sample and preload it again so
 * that the next overflow comes period events after this one (what it
 * counted past the wrap is kept).  Its socket is frozen (sampling freezes
 * on every PMI), so nothing counts between the read and this write. */
static int resample(struct ucd *d, struct ucd_ctr *c, uint64_t t_pmi)
{
	uint64_t p;

	if (d->nsamples == d->samples_cap && d->samples_cap < UCD_MAXSAMPLES) {
		size_t cap = d->samples_cap ? d->samples_cap * 2 : 256;
		struct ucd_samp *n;

		if (cap > UCD_MAXSAMPLES)
			cap = UCD_MAXSAMPLES;
		if (!(n = realloc(d->samples, cap * sizeof(*n))))
			return ucd_seterr(d, -ENOMEM, "out of memory");
		d->samples = n;
		d->samples_cap = cap;
	}
	if (d->nsamples < d->samples_cap) {
		struct ucd_samp *sp = &d->samples[d->nsamples++];

		sp->t_ns = t_pmi - d->t_start;
		sp->ctr = (size_t)(c - d->ctr);
		sp->total = c->total;
		sp->rearm_ns = 0;
	} else {
		d->samples_dropped++;
	}
	p = (c->last - d->opts.sample_period) & c->wmask;
	c->base += c->last - p; /* the total does not move */
	c->last = p;
	return reg_write(d, &c->ctr, p);
}

/* Counter c wrapped before the status said so: count 2^width.  Its last
 * read may predate the wrap (a wrap during the sample's reads): read it
 * again, now that the wrap is behind it (values near the top are before
 * it, near 0 after: what a counter adds between reads is far below half
 * its range). */
static int count_wrap(struct ucd *d, struct ucd_ctr *c, uint64_t t_pmi)
{
	int rc;

	if (c->last > c->wmask / 2) {
		uint64_t v;

		if ((rc = reg_read(d, &c->ctr, &v)))
			return rc;
		c->last = v & c->wmask;
	}
	c->base += c->wmask + 1;
	c->total = c->base + c->last;
	return d->opts.sample_period ? resample(d, c, t_pmi) : 0;
}

/* Global control of one socket.  Enable: EN (SKL) or unfrz_all (IVT),
 * with PMI routing and the freeze/wake options; disable: EN clear, or
 * frz_all.  Fields a platform lacks are skipped (ucm_field_put of NULL).
 * Waiting for PMIs (pmi_mode), the driver sets WAKE_ON_PMI whatever it was
 * asked: without it a PMI to a sleeping PMI core is dropped (SKL D2, IVT
 * wk_on_pmi), the wait never ends, and a socket frozen on that PMI stays
 * frozen to the end of the run. */
static int global_write_one(struct ucd *d, unsigned s, int enable)
{
	const struct ucm_regdef *def;
	const struct ucm_boxinst *bi = global_box(d, &def, UCM_K_GLOBAL_CTL);
	const struct ucm_layout *l;
	struct ucd_reg r;
	uint64_t v = 0;

	if (!bi)
		return 0;
	l = def->layout;
	if (enable) {
		v = ucm_field_put(ucm_layout_field(l, UCM_R_GLOBAL_EN), v, 1);
		v = ucm_field_put(ucm_layout_field(l, UCM_R_UNFRZ_ALL), v, 1);
		v = ucm_field_put(ucm_layout_field(l, UCM_R_FRZ_ON_PMI), v, !!d->freeze_on_pmi);
		v = ucm_field_put(ucm_layout_field(l, UCM_R_WAKE_ON_PMI), v,
				  d->opts.wake_on_pmi || d->pmi_mode);
		for (unsigned i = 0; i < l->nfields; i++)
			if (l->fields[i].role == UCM_R_PMI_SEL && (pmi_cores(d) >> l->fields[i].arg) & 1)
				v = ucm_field_put(&l->fields[i], v, 1);
	} else {
		v = ucm_field_put(ucm_layout_field(l, UCM_R_FRZ_ALL), v, 1);
	}
	ucd_reg_of(d, s, bi, def, &r);
	return reg_write(d, &r, v);
}

static int global_write(struct ucd *d, int enable)
{
	int rc;

	for (unsigned s = 0; s < d->nsockets; s++)
		if ((rc = global_write_one(d, s, enable)))
			return rc;
	return 0;
}

/* Read and clear (W1C) our overflow status: the box status bits of the
 * counters that overflowed, then the global bits; preload sampled
 * counters again; re-arm a freeze (SKL: FRZ_ON_PMI cleared EN; IVT: every
 * acted-on overflow froze the socket, and unfrz_all resumes it once the
 * status bits are clear, 2.1.4).  t_pmi: when the PMI came, for samples. */
static int service_status(struct ucd *d, uint64_t t_pmi)
{
	const struct ucm_regdef *sdef, *gdef;
	const struct ucm_boxinst *sb = global_box(d, &sdef, UCM_K_GLOBAL_STATUS);
	const struct ucm_boxinst *gb = global_box(d, &gdef, UCM_K_GLOBAL_CTL);
	uint64_t mine = our_status_bits(d);
	int rc, have = d->gstat_valid;

	d->gstat_valid = 0; /* one sample's, used once */
	if (!sb || !mine)
		return 0;
	for (unsigned s = 0; s < d->nsockets; s++) {
		size_t first_sample = d->nsamples;
		struct ucd_reg r;
		uint64_t v;
		int frozen = 0;

		ucd_reg_of(d, s, sb, sdef, &r);
		if (have)
			v = d->gstat[s]; /* read with the counters (read_all) */
		else if ((rc = reg_read(d, &r, &v)))
			return rc;
		if (!(v & mine))
			continue;
		for (uint64_t b = v & mine; b; b &= b - 1)
			d->overflows++;
		/* box status first: while it is set, a box sends no new
		 * overflow message (IVT 2.7.2.1) */
		for (size_t j = 0; j < d->nctr; j++) {
			struct ucd_ctr *c = &d->ctr[j];
			const struct ucm_regdef *bdef;
			uint64_t bit, bv;
			struct ucd_reg br;

			if (c->socket != s || !reports_overflow(c) ||
			    !(v & (1ull << ucm_gstatus_bit(c->bi, c->idx))))
				continue;
			bit = box_status_bit(c, &bdef);
			bv = 0;
			if (bit) {
				ucd_reg_of(d, s, c->bi, bdef, &br);
				if ((rc = reg_read(d, &br, &bv)))
					return rc;
				if ((bv & bit) && (rc = reg_write(d, &br, bit)))
					return rc;
			}
			/* a counter the status names (its box bit, or a global
			 * bit no other counter of ours shares) wrapped once */
			if (c->pmi && (!bit || (bv & bit)) && (rc = count_wrap(d, c, t_pmi)))
				return rc;
		}
		if ((rc = reg_write(d, &r, v & mine)))
			return rc;
		if (!d->running || !gb)
			continue;
		if (d->plat->ovf_flags & UCM_OVF_FREEZE) {
			frozen = 1;
		} else if (d->freeze_on_pmi) {
			struct ucd_reg g;
			uint64_t gv;

			ucd_reg_of(d, s, gb, gdef, &g);
			if ((rc = reg_read(d, &g, &gv)))
				return rc;
			frozen = !ucm_field_get(ucm_layout_field(gdef->layout, UCM_R_GLOBAL_EN), gv);
		}
		if (frozen) {
			uint64_t t;

			d->freezes++;
			if ((rc = global_write_one(d, s, 1)))
				return rc;
			if ((rc = ucb_now_ns(d->be, &t)))
				return ucd_seterr(d, rc, "clock: %s", ucb_error(d->be));
			/* what the PMI, the reads and the re-arm cost */
			for (size_t k = first_sample; k < d->nsamples; k++)
				d->samples[k].rearm_ns = t - d->t_start;
		}
	}
	return 0;
}

static void accumulate(struct ucd_ctr *c, uint64_t v, int first)
{
	v &= c->wmask;
	if (c->pmi) {
		/* wraps are counted from the overflow status (count_wrap) */
		if (first)
			c->base = 0 - (c->zeroed ? c->last : v);
		c->last = v;
		c->total = c->base + v;
		return;
	}
	/* a counter that counts from its enable (the UBox's, with no box
	 * control to hold it, 2.2) has counted before our first read */
	if (!first || c->zeroed)
		c->total += (v - c->last) & c->wmask;
	c->last = v;
}

/* One sample at the least system calls a backend allows: each PCI
 * function's counters in one block read (ucb_pci_read_ctrs: the hardware
 * backend reads the block they span at once), the MMIO counters (a mapping
 * kept by the backend), then every MSR counter and, when the status will
 * be serviced (status) and the driver polls, each socket's global status in
 * one batch (one system call where the backend can).  The status comes last, after every
 * counter read, as count_wrap() expects; service_status() takes it from
 * here.  Shared counters copy their source. */
static int read_all(struct ucd *d, int first, int status)
{
	const struct ucm_regdef *sdef;
	const struct ucm_boxinst *sb = global_box(d, &sdef, UCM_K_GLOBAL_STATUS);
	size_t nops = 0, nstat = 0, cap = d->nctr + d->nsockets + 1;
	struct ucb_msr_op *ops = malloc(cap * sizeof(*ops));
	uint64_t *val = calloc(2 * cap, sizeof(*val)); /* by counter, then one block's */
	unsigned *off = malloc(cap * sizeof(*off));
	size_t *idx = malloc(cap * sizeof(*idx));
	uint8_t *got = calloc(cap, 1);
	int rc = 0;

	d->gstat_valid = 0;
	if (!ops || !val || !off || !idx || !got) {
		rc = ucd_seterr(d, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t j = 0; !rc && j < d->nctr; j++) {
		const struct ucd_reg *r = &d->ctr[j].ctr;
		unsigned n = 0;

		if (d->ctr[j].shared_with >= 0 || got[j] || r->space != UCM_PCI || r->def->layout->width <= 32)
			continue;
		for (size_t k = j; k < d->nctr; k++) {
			const struct ucd_reg *q = &d->ctr[k].ctr;

			if (d->ctr[k].shared_with >= 0 || got[k] || q->space != UCM_PCI || q->def->layout->width <= 32 ||
			    memcmp(&q->pci, &r->pci, sizeof(r->pci)))
				continue;
			off[n] = (unsigned)q->addr;
			idx[n++] = k;
			got[k] = 1;
		}
		if ((rc = ucb_pci_read_ctrs(d->be, &r->pci, off, n, val + d->nctr))) {
			rc = be_err(d, rc, "reading", r);
			break;
		}
		for (unsigned i = 0; i < n; i++)
			val[idx[i]] = val[d->nctr + i];
	}
	for (size_t j = 0; !rc && j < d->nctr; j++) {
		struct ucd_ctr *c = &d->ctr[j];

		if (c->shared_with >= 0 || got[j])
			continue;
		if (c->ctr.space == UCM_MSR) {
			ops[nops++] = (struct ucb_msr_op){ c->ctr.cpu, (uint32_t)c->ctr.addr, 0, 0, 0 };
		} else {
			rc = reg_read(d, &c->ctr, &val[j]);
			got[j] = 1;
		}
	}
	/* polling: an overflow after this read is the next poll's; PMI-driven,
	 * the status is read when serviced, socket by socket, as late as it
	 * can be (an overflow of another socket while one is serviced must
	 * not be missed: its PMI came while nobody waited for it) */
	if (!rc && status && !d->pmi_mode && sb && sb->type->space == UCM_MSR && our_status_bits(d))
		for (unsigned s = 0; s < d->nsockets; s++) {
			struct ucd_reg r;

			ucd_reg_of(d, s, sb, sdef, &r);
			ops[nops++] = (struct ucb_msr_op){ r.cpu, (uint32_t)r.addr, 0, 0, 0 };
			nstat++;
		}
	if (!rc && nops && (rc = ucb_msr_batch(d->be, ops, (unsigned)nops)))
		rc = ucd_seterr(d, rc, "reading counters: %s", ucb_error(d->be));
	for (size_t j = 0, k = 0; !rc && j < d->nctr; j++) {
		struct ucd_ctr *c = &d->ctr[j];

		if (c->shared_with < 0)
			accumulate(c, got[j] ? val[j] : ops[k++].val, first);
	}
	if (!rc && nstat) {
		for (unsigned s = 0; s < d->nsockets; s++)
			d->gstat[s] = ops[nops - nstat + s].val;
		d->gstat_valid = 1;
	}
	for (size_t j = 0; !rc && j < d->nctr; j++) {
		struct ucd_ctr *c = &d->ctr[j];

		if (c->shared_with >= 0) {
			c->total = d->ctr[c->shared_with].total;
			c->last = d->ctr[c->shared_with].last;
		}
	}
out:
	free(ops);
	free(val);
	free(off);
	free(idx);
	free(got);
	return rc;
}

/* Another agent (a kernel driver, another tool) counting with the global
 * enable or a counter we want: refuse rather than corrupt both. */
static int check_in_use(struct ucd *d)
{
	const struct ucm_regdef *gdef;
	const struct ucm_boxinst *gb = global_box(d, &gdef, UCM_K_GLOBAL_CTL);
	uint64_t v;
	int rc;

	for (unsigned s = 0; gb && s < d->nsockets; s++) {
		struct ucd_reg r;

		ucd_reg_of(d, s, gb, gdef, &r);
		if ((rc = reg_read(d, &r, &v)))
			return rc;
		if (ucm_field_get(ucm_layout_field(gdef->layout, UCM_R_GLOBAL_EN), v) && !d->opts.force)
			return ucd_seterr(d, -EBUSY,
					  "the uncore PMU is in use by another agent (socket %u %s = 0x%llx has EN set); use --force to take it over",
					  s, gdef->name, (unsigned long long)v);
	}
	for (size_t j = 0; j < d->nctr; j++) {
		const struct ucd_ctr *c = &d->ctr[j];
		char name[64];

		if (c->shared_with >= 0 || !c->has_ctl)
			continue;
		if ((rc = reg_read(d, &c->ctl, &v)))
			return rc;
		if (ucm_field_get(ucm_layout_field(c->ctl.def->layout, UCM_R_EN), v) && !d->opts.force) {
			snprintf(name, sizeof(name), c->ctl.def->name, c->ctl.inst);
			return ucd_seterr(d, -EBUSY,
					  "%s%u counter %u is in use by another agent (%s = 0x%llx has EN set); use --force to take it over",
					  c->bi->type->name, c->bi->inst, c->idx, name, (unsigned long long)v);
		}
	}
	return 0;
}

/* Whether counter j is the first of those we use in its box instance. */
static int first_in_box(const struct ucd *d, size_t j)
{
	for (size_t k = 0; k < j; k++)
		if (d->ctr[k].socket == d->ctr[j].socket && d->ctr[k].bi == d->ctr[j].bi)
			return 0;
	return 1;
}

/* Box-level freeze (Xeon 2.1.1 a/b and f): FRZ_EN with FRZ set or clear on
 * every box we use that has a box control.  Only fields the tables define
 * are written: the bits the guide reserves (HA, iMC) stay 0, the bits a
 * manual says to write as 1 are 1. */
static int boxes_freeze(struct ucd *d, int freeze)
{
	for (size_t j = 0; j < d->nctr; j++) {
		const struct ucm_regdef *def = ucm_regdef_find(d->ctr[j].bi->type, UCM_K_BOX_CTL, 0);
		const struct ucm_layout *l;
		struct ucd_reg r;
		uint64_t v;
		int rc;

		if (!def || !first_in_box(d, j))
			continue;
		l = def->layout;
		if (!ucm_layout_field(l, UCM_R_FRZ))
			continue;
		v = ucm_field_put(ucm_layout_field(l, UCM_R_FRZ_EN), 0, 1);
		v = ucm_field_put(ucm_layout_field(l, UCM_R_FRZ), v, !!freeze);
		/* bits software must write as 1 (IVT 17:16) */
		v |= ucm_layout_field(l, UCM_R_MBO) ? ucm_field_mask(ucm_layout_field(l, UCM_R_MBO)) : 0;
		ucd_reg_of(d, d->ctr[j].socket, d->ctr[j].bi, def, &r);
		if ((rc = reg_write(d, &r, v)))
			return rc;
	}
	return 0;
}

/* Each box filter register we need, with the values our events share. */
static int program_filters(struct ucd *d)
{
	for (size_t j = 0; j < d->nctr; j++) {
		if (!first_in_box(d, j))
			continue;
		for (unsigned f = 0; f < UCM_MAXFILT; f++) {
			const struct ucm_regdef *def = ucm_regdef_find(d->ctr[j].bi->type, UCM_K_FILTER, f);
			uint64_t v = 0, mask = 0;
			struct ucd_reg r;
			int rc;

			if (!def)
				continue;
			for (size_t k = j; k < d->nctr; k++)
				if (d->ctr[k].socket == d->ctr[j].socket && d->ctr[k].bi == d->ctr[j].bi) {
					const struct ucd_ev *e = &d->ev[d->ctr[k].ev];

					v |= e->filt[f] & e->filt_mask[f];
					mask |= e->filt_mask[f];
				}
			if (!mask)
				continue;
			ucd_reg_of(d, d->ctr[j].socket, d->ctr[j].bi, def, &r);
			if ((rc = reg_write(d, &r, v)))
				return rc;
		}
	}
	return 0;
}

/* Whether the status tells when counter j wraps: its box has a status bit
 * for it, or no other counter of ours reports to its global bit. */
static int attributable(const struct ucd *d, size_t j)
{
	const struct ucd_ctr *c = &d->ctr[j];
	const struct ucm_regdef *bdef;
	int g = ucm_gstatus_bit(c->bi, c->idx);

	if (!reports_overflow(c))
		return 0;
	if (box_status_bit(c, &bdef))
		return 1;
	for (size_t k = 0; k < d->nctr; k++)
		if (k != j && d->ctr[k].socket == c->socket && reports_overflow(&d->ctr[k]) &&
		    ucm_gstatus_bit(d->ctr[k].bi, d->ctr[k].idx) == g)
			return 0;
	return 1;
}

/* PMI-driven when the backend hears PMIs and a counter we use reports
 * overflow to a UBox that can raise one: those counters need no polling.
 * Sampling needs such counters, and freezes on every PMI so that the
 * driver's reads and preloads lose nothing (IVT freezes anyway). */
static int choose_mode(struct ucd *d)
{
	const struct ucm_regdef *gdef;
	int can = 0, any = 0;

	if (global_box(d, &gdef, UCM_K_GLOBAL_CTL) && ucm_layout_field(gdef->layout, UCM_R_PMI_SEL))
		can = 1;
	/* PMIs routed to no core of the part reach nobody: a PMI-driven run
	 * would wait for them while its counters stood frozen */
	if (can && d->opts.pmi_cores && d->plat->ncores < 32 &&
	    !(d->opts.pmi_cores & ((1u << d->plat->ncores) - 1)))
		return ucd_seterr(d, -EINVAL, "PMI cores 0x%x: none of %s's cores 0-%u a socket is selected",
				  (unsigned)d->opts.pmi_cores, d->plat->name, d->plat->ncores - 1u);
	for (size_t j = 0; j < d->nctr; j++)
		any |= reports_overflow(&d->ctr[j]);
	d->pmi_mode = can && any && ucb_has_pmi(d->be);
	d->freeze_on_pmi = d->opts.freeze_on_pmi;
	for (size_t j = 0; j < d->nctr; j++)
		d->ctr[j].pmi = d->pmi_mode && attributable(d, j);
	if (!d->opts.sample_period)
		return 0;
	any = 0;
	for (size_t j = 0; j < d->nctr; j++)
		any |= d->ctr[j].pmi || (!d->pmi_mode && reports_overflow(&d->ctr[j]));
	if (!can || !any)
		return ucd_seterr(d, -EINVAL,
				  "sampling needs a counter that reports overflow with a PMI; %s has none among these events",
				  d->plat->name);
	if (!d->pmi_mode)
		return ucd_seterr(d, -EOPNOTSUPP, "sampling needs PMIs: %s", "the backend cannot wait for one");
	for (size_t j = 0; j < d->nctr; j++)
		if (d->ctr[j].pmi && d->opts.sample_period > d->ctr[j].wmask)
			return ucd_seterr(d, -EINVAL, "sample period %llu exceeds the %s counter's range",
					  (unsigned long long)d->opts.sample_period, d->ctr[j].bi->type->name);
	if (!(d->plat->ovf_flags & UCM_OVF_FREEZE))
		d->freeze_on_pmi = 1;
	return 0;
}

int ucd_start(struct ucd *d)
{
	int rc;

	if (d->started)
		return ucd_seterr(d, -EBUSY, "already started");
	if (!d->nev)
		return ucd_seterr(d, -EINVAL, "no events");
	if ((rc = check_in_use(d)) || (rc = choose_mode(d)))
		return rc;
	if ((rc = global_write(d, 0)) || (rc = boxes_freeze(d, 1)) || (rc = program_filters(d)))
		return rc;
	for (size_t j = 0; j < d->nctr; j++) {
		struct ucd_ctr *c = &d->ctr[j];
		const struct ucm_layout *l;
		uint64_t v;

		if (c->shared_with >= 0)
			continue;
		c->total = c->mark = 0;
		c->zeroed = 0;
		if (!c->has_ctl)
			continue; /* free-running: nothing to program */
		/* counter to zero (sampling: to period events before its wrap)
		 * while disabled, then the control with EN */
		if (has_access(c->ctr.def->layout, UCM_A_RW)) {
			c->last = d->opts.sample_period && c->pmi ?
					  (0 - d->opts.sample_period) & c->wmask : 0;
			if ((rc = reg_write(d, &c->ctr, c->last)))
				return rc;
			c->zeroed = 1;
		}
		l = c->ctl.def->layout;
		v = d->ev[c->ev].ctl;
		v = ucm_field_put(ucm_layout_field(l, UCM_R_EN), v, 1);
		v = ucm_field_put(ucm_layout_field(l, UCM_R_OVF_EN), v, 1);
		if ((rc = reg_write(d, &c->ctl, v)))
			return rc;
	}
	if ((rc = service_status(d, 0)) || (rc = read_all(d, 1, 0)))
		return rc;
	d->started = 1;
	if ((rc = ucb_now_ns(d->be, &d->t_start)))
		return ucd_seterr(d, rc, "clock: %s", ucb_error(d->be));
	d->t_last = d->t_start;
	if ((rc = global_write(d, 1)) || (rc = boxes_freeze(d, 0)))
		return rc;
	d->running = 1;
	return 0;
}

int ucd_sample(struct ucd *d)
{
	uint64_t t;
	int rc;

	if (!d->started)
		return ucd_seterr(d, -EINVAL, "not started");
	if ((rc = ucb_now_ns(d->be, &t)))
		return ucd_seterr(d, rc, "clock: %s", ucb_error(d->be));
	if ((rc = read_all(d, 0, 1)) || (rc = service_status(d, t)))
		return rc;
	if ((rc = ucb_now_ns(d->be, &d->t_last)))
		return ucd_seterr(d, rc, "clock: %s", ucb_error(d->be));
	return 0;
}

int ucd_stop(struct ucd *d)
{
	int rc;

	if (!d->running)
		return 0;
	d->running = 0;
	if ((rc = global_write(d, 0)) || (rc = boxes_freeze(d, 1)))
		return rc;
	return ucd_sample(d);
}

/* The longest read interval that sees every wrap of the counters that
 * need polling: all of them, or in PMI-driven mode those that report no
 * overflow (UINT64_MAX when none does). */
static uint64_t safe_interval(const struct ucd *d, int pmi)
{
	uint64_t best = UINT64_MAX;

	for (size_t j = 0; j < d->nctr; j++) {
		const struct ucd_ctr *c = &d->ctr[j];
		const struct ucd_ev *e = &d->ev[c->ev];
		uint64_t hz = d->plat->clocks[c->bi->type->clock].hz_max;
		long double ns;

		if (pmi && c->pmi)
			continue;
		/* (2^w) / (max increment per cycle * worst-case cycles per ns) */
		ns = ((long double)c->wmask + 1) * 1e9L / ((long double)e->max_out * hz);
		if (ns < (long double)best)
			best = (uint64_t)ns;
	}
	return best;
}

uint64_t ucd_safe_interval_ns(const struct ucd *d)
{
	return safe_interval(d, 0);
}

uint64_t ucd_poll_interval_ns(const struct ucd *d)
{
	uint64_t safe = safe_interval(d, d->pmi_mode);

	return safe == UINT64_MAX ? UINT64_MAX : safe / 2 ? safe / 2 : 1;
}

int ucd_pmi_driven(const struct ucd *d)
{
	return d->pmi_mode;
}

void ucd_set_end_check(struct ucd *d, uint64_t check_ns, ucd_end_fn fn, void *ctx)
{
	d->end_fn = fn;
	d->end_ctx = ctx;
	d->end_ns = check_ns ? check_ns : 1;
}

int ucd_run(struct ucd *d, uint64_t duration_ns, uint64_t interval_ns, ucd_interval_fn fn,
	    void *ctx)
{
	uint64_t poll, now = 0, next_cb = interval_ns ? interval_ns : UINT64_MAX, next_poll;
	int rc, interrupted = 0;

	if (!d->running && (rc = ucd_start(d)))
		return rc;
	/* poll at half the safe interval: the margin covers the time reads
	 * themselves take; PMI-driven, only what cannot interrupt is polled */
	poll = ucd_poll_interval_ns(d);
	next_poll = poll;
	while (now < duration_ns) {
		uint64_t step = duration_ns - now;
		uint64_t t;
		int pmi = 0;

		if (next_poll - now < step)
			step = next_poll > now ? next_poll - now : 1;
		if (next_cb - now < step)
			step = next_cb - now;
		if (d->end_fn && step > d->end_ns)
			step = d->end_ns;
		if (d->pmi_mode)
			rc = ucb_wait_pmi(d->be, step, &pmi);
		else
			rc = ucb_sleep_ns(d->be, step);
		if (rc == -EINTR) {
			interrupted = 1;
			break; /* stopped as at the end, and said so */
		}
		if (rc)
			return ucd_seterr(d, rc, "waiting: %s", ucb_error(d->be));
		if (pmi)
			d->pmis++;
		/* a wake for the end check alone reads nothing */
		if (d->end_fn && !pmi && now + step < next_poll && now + step < next_cb &&
		    now + step < duration_ns) {
			now += step;
			if (d->end_fn(d->end_ctx))
				break;
			continue;
		}
		if ((rc = ucd_sample(d)))
			return rc;
		t = d->t_last - d->t_start;
		/* a PMI ends a wait early: time is where the backend says */
		now = pmi ? (t > now ? t : now) : (t > now + step ? t : now + step);
		next_poll = now + poll < now ? UINT64_MAX : now + poll;
		if (now >= next_cb && now < duration_ns) {
			if (fn && (rc = fn(d, ctx, now)) < 0)
				return rc;
			ucd_mark_interval(d);
			if (rc > 0)
				break; /* the caller has seen enough */
			while (next_cb <= now)
				next_cb += interval_ns;
		}
	}
	if ((rc = ucd_stop(d)))
		return rc;
	if (fn && (rc = fn(d, ctx, d->t_last - d->t_start)) < 0)
		return rc;
	ucd_mark_interval(d);
	return interrupted ? ucd_seterr(d, -EINTR, "interrupted") : 0;
}

/* ---- results ---- */

size_t ucd_nevents(const struct ucd *d)
{
	return d->nev;
}

int ucd_event(const struct ucd *d, size_t i, struct ucd_evinfo *ei)
{
	const struct ucd_ev *e;

	if (i >= d->nev)
		return -ENOENT;
	e = &d->ev[i];
	memset(ei, 0, sizeof(*ei));
	ei->name = e->name;
	ei->canonical = e->canonical;
	ei->box = e->box;
	ei->inst = e->inst;
	ei->bytes = e->row ? e->row->bytes : 0;
	ei->dram = e->row ? e->row->dram : 0;
	ei->is_clock = !!(e->code->flags & UCM_EC_CLOCK);
	for (size_t j = 0; j < d->nctr; j++)
		if (d->ctr[j].ev == i) {
			ei->total += d->ctr[j].total;
			ei->interval += d->ctr[j].total - d->ctr[j].mark;
			ei->ncounters++;
		}
	return 0;
}

uint64_t ucd_event_socket_total(const struct ucd *d, size_t i, unsigned socket)
{
	uint64_t t = 0;

	for (size_t j = 0; j < d->nctr; j++)
		if (d->ctr[j].ev == i && d->ctr[j].socket == socket)
			t += d->ctr[j].total;
	return t;
}

uint64_t ucd_elapsed_ns(const struct ucd *d)
{
	return d->t_last - d->t_start;
}

void ucd_mark_interval(struct ucd *d)
{
	for (size_t j = 0; j < d->nctr; j++)
		d->ctr[j].mark = d->ctr[j].total;
}

size_t ucd_ncounters(const struct ucd *d)
{
	return d->nctr;
}

int ucd_counter(const struct ucd *d, size_t i, struct ucd_ctrinfo *ci)
{
	if (i >= d->nctr)
		return -ENOENT;
	ci->event = d->ctr[i].ev;
	ci->socket = d->ctr[i].socket;
	ci->box = d->ctr[i].bi;
	ci->ctr = d->ctr[i].idx;
	ci->total = d->ctr[i].total;
	ci->last_raw = d->ctr[i].last;
	return 0;
}

uint64_t ucd_overflows(const struct ucd *d)
{
	return d->overflows;
}

uint64_t ucd_pmis(const struct ucd *d)
{
	return d->pmis;
}

size_t ucd_nsamples(const struct ucd *d, uint64_t *dropped)
{
	if (dropped)
		*dropped = d->samples_dropped;
	return d->nsamples;
}

int ucd_sample_get(const struct ucd *d, size_t i, struct ucd_sampleinfo *si)
{
	const struct ucd_samp *sp;

	if (i >= d->nsamples)
		return -ENOENT;
	sp = &d->samples[i];
	si->t_ns = sp->t_ns;
	si->rearm_ns = sp->rearm_ns;
	si->event = d->ctr[sp->ctr].ev;
	si->socket = d->ctr[sp->ctr].socket;
	si->box = d->ctr[sp->ctr].bi;
	si->counter = d->ctr[sp->ctr].idx;
	si->total = sp->total;
	return 0;
}

uint64_t ucd_freezes(const struct ucd *d)
{
	return d->freezes;
}

/* ---- register dump ---- */

int ucd_dump_regs(struct ucd *d, FILE *out)
{
	static const char *const sp[] = { "msr", "pci", "mmio" };
	const struct ucm_platform *p = d->plat;

	for (unsigned s = 0; s < d->nsockets; s++)
		for (unsigned i = 0; i < p->nboxes; i++) {
			const struct ucm_boxinst *bi = &p->boxes[i];

			if (bi->inst >= ucd_ninst(d, bi->type))
				continue;
			if (bi->type->space == UCM_MMIO && !d->bar) {
				fprintf(out, "# %s: MMIO BAR disabled, not readable\n", bi->type->title);
				continue;
			}
			for (unsigned k = 0; k < bi->type->nregs; k++) {
				const struct ucm_regdef *def = &bi->type->regs[k];
				const struct ucm_layout *l = def->layout;
				struct ucd_reg r;
				char name[64];
				uint64_t v;
				int rc;

				ucd_reg_of(d, s, bi, def, &r);
				snprintf(name, sizeof(name), def->name, (unsigned)bi->inst);
				if ((rc = reg_read(d, &r, &v)))
					return rc;
				fprintf(out, "%u %-4s ", s, sp[r.space]);
				if (r.space == UCM_PCI)
					fprintf(out, "%02x:%02x.%x+0x%03llx ", r.pci.bus, r.pci.dev, r.pci.fn,
						(unsigned long long)r.addr);
				else
					fprintf(out, "0x%-13llx ", (unsigned long long)r.addr);
				fprintf(out, "%-28s 0x%0*llx", name, l->width / 4, (unsigned long long)v);
				for (unsigned f = 0; f < l->nfields; f++)
					fprintf(out, " %s=0x%llx", l->fields[f].name,
						(unsigned long long)ucm_field_get(&l->fields[f], v));
				fprintf(out, "\n");
			}
		}
	return 0;
}
