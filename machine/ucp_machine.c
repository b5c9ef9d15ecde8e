/*
 * ucp_machine.c - CPUID and the MSRs outside the uncore PMU, interpreted
 * from the platform's machine tables (model/<platform>/ucm_plat_<platform>_mach.c).
 *
 * Topology: one logical cpu per core (Hyper-Threading off), cpus numbered
 * socket-major as the model numbers them.  APIC ID = socket << pkg_shift |
 * core << 1: bit 0 is the (absent) SMT level, as on a real part with HT
 * disabled, and leaf 0xB says so (Intel SDM Vol. 2A, CPUID leaf 0BH);
 * pkg_shift is log2 of the IDs a package addresses (leaf 1 EBX[23:16] of
 * the table).
 */
#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ucp_machine.h"

struct msrstate {
	uint64_t val;        /* RW value; counting kinds: value at acc_ps of counting */
	uint64_t acc_ps;     /* counting time before since_ps (FIXED) */
	uint64_t since_ps;   /* when counting last started (FIXED) */
	uint64_t off;        /* value - counted(time) (TIME, FIXED) */
	int on;
};

struct ucp_machine {
	struct ucm_model *m;
	const struct ucm_machine *def;
	unsigned ncpu, ncores, pkg_shift;
	uint64_t boot_ps;
	size_t nstate;               /* per cpu: one per MSR of the tables */
	struct msrstate *st;
};

static unsigned bits_for(unsigned n)
{
	unsigned b = 0;

	while ((1u << b) < n)
		b++;
	return b;
}

static const struct ucm_cpuid *leaf_of(const struct ucm_machine *d, uint32_t leaf, uint32_t sub)
{
	for (unsigned i = 0; i < d->ncpuid; i++)
		if (d->cpuid[i].leaf == leaf && d->cpuid[i].sub == sub)
			return &d->cpuid[i];
	return NULL;
}

int ucp_machine_create(struct ucm_model *m, uint64_t boot_ps, struct ucp_machine **out, char *err,
		       size_t n)
{
	const struct ucm_platform *p = ucm_platform_of(m);
	const struct ucm_cpuid *l1;
	struct ucp_machine *mc;
	unsigned ids;

	*out = NULL;
	if (!p->machine) {
		snprintf(err, n, "platform %s has no machine tables (CPUID, MSRs) to present", p->name);
		return -ENOTSUP;
	}
	mc = calloc(1, sizeof(*mc));
	if (!mc)
		return -ENOMEM;
	mc->m = m;
	mc->def = p->machine;
	mc->ncores = ucm_cpus_per_socket(m);
	mc->ncpu = ucm_nsockets(m) * mc->ncores;
	/* The package's share of the APIC ID is what the table's leaf 1 says
	 * a package addresses (EBX[23:16], a power of two: 16 on the
	 * i7-6700K, 32 on the E5-2600 parts, as the real ones answer), so
	 * that leaf 1, leaf 4's EAX[31:26] and leaf 0xB's shift agree with
	 * the APIC IDs of each socket. */
	l1 = leaf_of(mc->def, 1, 0);
	ids = l1 ? l1->ebx >> 16 & 0xFF : 0;
	mc->pkg_shift = bits_for(ids);
	if (!ids || (1u << mc->pkg_shift) != ids || ids < 2 * mc->ncores) {
		snprintf(err, n, "platform %s: CPUID leaf 1 EBX[23:16] = %u addressable IDs a package, not a power "
			 "of two that holds %u cores with an SMT bit", p->name, ids, mc->ncores);
		free(mc);
		return -EINVAL;
	}
	mc->boot_ps = boot_ps;
	for (unsigned i = 0; i < mc->def->nsysmsr; i++)
		mc->nstate += mc->def->sysmsr[i].count;
	mc->st = calloc(mc->nstate * mc->ncpu, sizeof(*mc->st));
	if (!mc->st) {
		free(mc);
		return -ENOMEM;
	}
	for (unsigned c = 0; c < mc->ncpu; c++) {
		size_t k = 0;

		for (unsigned i = 0; i < mc->def->nsysmsr; i++)
			for (unsigned j = 0; j < mc->def->sysmsr[i].count; j++, k++)
				mc->st[c * mc->nstate + k].val = mc->def->sysmsr[i].value;
	}
	*out = mc;
	return 0;
}

void ucp_machine_destroy(struct ucp_machine *mc)
{
	if (mc)
		free(mc->st);
	free(mc);
}

const struct ucm_machine *ucp_machine_def(const struct ucp_machine *mc)
{
	return mc->def;
}

unsigned ucp_ncpu(const struct ucp_machine *mc)
{
	return mc->ncpu;
}

unsigned ucp_cpu_socket(const struct ucp_machine *mc, unsigned cpu)
{
	return cpu / mc->ncores;
}

unsigned ucp_cpu_core(const struct ucp_machine *mc, unsigned cpu)
{
	return cpu % mc->ncores;
}

unsigned ucp_apic_id(const struct ucp_machine *mc, unsigned cpu)
{
	return ucp_cpu_socket(mc, cpu) << mc->pkg_shift | ucp_cpu_core(mc, cpu) << 1;
}

uint64_t ucp_tsc_hz(const struct ucp_machine *mc)
{
	return (uint64_t)mc->def->tsc_mhz * 1000000u;
}

/* floor(rate * ps / 1e12) without overflow */
static uint64_t counted(uint64_t rate, uint64_t ps)
{
	return (uint64_t)((unsigned __int128)rate * ps / 1000000000000u);
}

uint64_t ucp_tsc(const struct ucp_machine *mc, uint64_t now_ps)
{
	return counted(ucp_tsc_hz(mc), mc->boot_ps + now_ps);
}

/* ---- CPUID ---- */

/* Leaf 4 subleaf i: the i-th cache of the table (Intel SDM Vol. 2A). */
static void leaf4(const struct ucp_machine *mc, uint32_t sub, uint32_t r[4])
{
	const struct ucm_cache *c;
	unsigned sets, sharing;

	if (sub >= mc->def->ncaches)
		return;
	c = &mc->def->caches[sub];
	sets = c->size_kb * 1024u / 64u / c->ways;
	/* threads sharing: 1 for a core's caches (HT off); the package's
	 * addressable IDs for a shared one */
	sharing = c->per_package ? (1u << mc->pkg_shift) : 1;
	r[0] = c->type | (uint32_t)c->level << 5 | 1u << 8 | (sharing - 1) << 14 |
	       ((1u << (mc->pkg_shift - 1)) - 1) << 26;
	r[1] = (uint32_t)(c->ways - 1) << 22 | 63u;
	r[2] = sets - 1;
	r[3] = c->level == 3 ? 2u : 0u;     /* L3 inclusive */
}

void ucp_cpuid_of(const struct ucp_machine *mc, unsigned cpu, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	const struct ucm_machine *d = mc->def;
	const struct ucm_cpuid *c0 = leaf_of(d, 0, 0), *x0 = leaf_of(d, 0x80000000, 0), *c;
	unsigned apic = ucp_apic_id(mc, cpu);

	memset(r, 0, 4 * sizeof(*r));
	/* past the maximum leaf, Intel parts answer as the highest basic leaf */
	if ((leaf < 0x80000000u && c0 && leaf > c0->eax) || (leaf >= 0x80000000u && x0 && leaf > x0->eax))
		leaf = c0 ? c0->eax : 0;
	if (leaf == 4) {
		leaf4(mc, sub, r);
		return;
	}
	if (leaf == 0xB) {
		/* level 0: SMT (one thread, shift 1); level 1: cores */
		if (sub == 0) {
			r[0] = 1;
			r[1] = 1;
			r[2] = 0x100;
		} else if (sub == 1) {
			r[0] = mc->pkg_shift;
			r[1] = mc->ncores;
			r[2] = 0x201;
		} else {
			r[2] = sub & 0xFF;
		}
		r[3] = apic;
		return;
	}
	if (leaf >= 0x80000002u && leaf <= 0x80000004u) {
		char brand[48] = { 0 };

		strncpy(brand, d->brand, sizeof(brand) - 1);
		memcpy(r, brand + 16 * (leaf - 0x80000002u), 16);
		return;
	}
	/* leaves without subleaves answer every subleaf alike */
	if (!(c = leaf_of(d, leaf, sub)) && leaf != 7 && leaf != 0xD && leaf != 0xF && leaf != 0x10)
		c = leaf_of(d, leaf, 0);
	if (!c)
		return;
	r[0] = c->eax;
	r[1] = c->ebx;
	r[2] = c->ecx;
	r[3] = c->edx;
	if (leaf == 1)
		r[1] = (r[1] & 0x00FFFFFFu) | apic << 24;
	if (leaf == 0xD && sub == 0) {
		/* XGETBV and XSAVE run on the host, with the host's XCR0: a
		 * program that sizes its save area by these must get room
		 * for what the host will store (docs/tools.md) */
		unsigned a, b, cx, dx;

		if (__get_cpuid_max(0, NULL) >= 0xD) {
			__cpuid_count(0xD, 0, a, b, cx, dx);
			r[1] = b > r[1] ? b : r[1];
			r[2] = cx > r[2] ? cx : r[2];
		}
	}
}

/* ---- MSRs ---- */

static const struct ucm_sysmsr *msr_of(const struct ucp_machine *mc, uint32_t addr, size_t *k)
{
	size_t base = 0;

	for (unsigned i = 0; i < mc->def->nsysmsr; i++) {
		const struct ucm_sysmsr *s = &mc->def->sysmsr[i];

		if (addr >= s->addr && addr < s->addr + s->count) {
			*k = base + (addr - s->addr);
			return s;
		}
		base += s->count;
	}
	return NULL;
}

static uint64_t wmask(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

/* Whether core fixed counter i counts on cpu: its enable in
 * IA32_PERF_GLOBAL_CTRL (0x38F) and a ring level in IA32_FIXED_CTR_CTRL
 * (0x38D, four bits a counter). */
static int fixed_on(struct ucp_machine *mc, unsigned cpu, unsigned i)
{
	size_t kg, kf;
	const struct ucm_sysmsr *g = msr_of(mc, 0x38F, &kg), *f = msr_of(mc, 0x38D, &kf);

	if (!g || !f)
		return 0;
	return (mc->st[cpu * mc->nstate + kg].val >> (32 + i) & 1) &&
	       (mc->st[cpu * mc->nstate + kf].val >> (4 * i) & 3);
}

static uint64_t fixed_time(const struct msrstate *s, uint64_t now)
{
	return s->acc_ps + (s->on ? now - s->since_ps : 0);
}

/* After a write to a control register: each fixed counter starts or
 * stops counting from now. */
static void fixed_update(struct ucp_machine *mc, unsigned cpu, uint64_t now)
{
	for (unsigned i = 0; i < mc->def->nsysmsr; i++) {
		const struct ucm_sysmsr *s = &mc->def->sysmsr[i];
		size_t k;

		if (s->kind != UCM_SM_FIXED || !msr_of(mc, s->addr, &k))
			continue;
		struct msrstate *st = &mc->st[cpu * mc->nstate + k];
		int on = fixed_on(mc, cpu, s->arg);

		if (on == st->on)
			continue;
		st->acc_ps = fixed_time(st, now);
		st->since_ps = now;
		st->on = on;
	}
}

int ucp_sysmsr_read(struct ucp_machine *mc, unsigned cpu, uint32_t addr, uint64_t now, uint64_t *v)
{
	size_t k;
	const struct ucm_sysmsr *s = msr_of(mc, addr, &k);
	struct msrstate *st;

	if (!s || cpu >= mc->ncpu)
		return -ENOENT;
	st = &mc->st[cpu * mc->nstate + k];
	switch (s->kind) {
	case UCM_SM_TIME:
		*v = (st->off + counted(s->rate, mc->boot_ps + now)) & wmask(s->width);
		break;
	case UCM_SM_FIXED:
		*v = (st->off + counted(s->rate, fixed_time(st, now))) & wmask(s->width);
		break;
	default:
		*v = st->val;
		break;
	}
	return 0;
}

int ucp_sysmsr_write(struct ucp_machine *mc, unsigned cpu, uint32_t addr, uint64_t now, uint64_t v,
		     char *why, size_t n)
{
	size_t k;
	const struct ucm_sysmsr *s = msr_of(mc, addr, &k);
	struct msrstate *st;

	if (!s || cpu >= mc->ncpu)
		return -ENOENT;
	st = &mc->st[cpu * mc->nstate + k];
	switch (s->kind) {
	case UCM_SM_CONST:
		snprintf(why, n, "%s (0x%x) is read-only", s->name, addr);
		return -EIO;
	case UCM_SM_WI:
		return 0;
	case UCM_SM_TIME:
		st->off = v - counted(s->rate, mc->boot_ps + now);
		return 0;
	case UCM_SM_FIXED:
		if (v & ~wmask(s->width)) {
			snprintf(why, n, "%s (0x%x): bits above %u set", s->name, addr, s->width);
			return -EIO;
		}
		st->off = v - counted(s->rate, fixed_time(st, now));
		return 0;
	default:
		if (v & ~s->mask) {
			snprintf(why, n, "%s (0x%x): reserved bits 0x%llx set", s->name, addr,
				 (unsigned long long)(v & ~s->mask));
			return -EIO;
		}
		st->val = v;
		if (addr == 0x38F || addr == 0x38D)
			fixed_update(mc, cpu, now);
		return 0;
	}
}
