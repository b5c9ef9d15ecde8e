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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ucp_machine.h"

struct msrstate {
	uint64_t val;        /* RW value; counting kinds: value at acc_ps of counting */
	uint64_t acc_ps;     /* counting time before since_ps (FIXED) */
	uint64_t since_ps;   /* when counting last started (FIXED) */
	uint64_t off;        /* value - counted(time) (TIME, FIXED) */
	double acc_q, since_q; /* the same in units of the row's activity (FIXED) */
	int on;
};

/* A term of an activity resolved to one box of a socket. */
struct actbox {
	int box;
	unsigned sub;
	uint8_t act;
	double per;          /* per increment (an occupancy's already per cycle) */
};

/* A cpu on which a program's thread runs under `uncore run` is in C0
 * whatever the workload says of its socket's cores: the time it ran, and
 * the workload's per-core activities (a core's share: C0, instructions,
 * core C-states) over that time, which it replaces. */
struct busy {
	int busy;
	uint64_t since_ps, acc_ps;               /* machine time busy */
	double since_q[UCM_NACT], acc_q[UCM_NACT]; /* the workload's activities meanwhile */
};

struct cpustate {
	struct busy b;
	int mark; /* runs a program's thread now (ucp_cpu_runs) */
};

/* The IPC of a cpu while it runs a program's thread: the model does not
 * see what the host's program retires, so it counts one instruction a
 * cycle (docs/invariants.md, "A program that sleeps"). */
#define RUN_IPC 1.0

/* A socket's package temperature, brought forward at each look. */
struct thermstate {
	uint64_t ps;         /* when last brought forward (machine time) */
	double pkg_j;        /* package energy then */
	double temp_c;
};

struct ucp_machine {
	struct ucm_model *m;
	const struct ucm_machine *def;
	unsigned ncpu, ncores, pkg_shift;
	uint64_t boot_ps;
	size_t nstate;               /* per cpu: one per MSR of the tables */
	struct msrstate *st;
	unsigned nab;                /* per socket: the activity terms' boxes */
	struct actbox *ab;
	struct thermstate *therm;    /* per socket */
	struct cpustate *cpu;        /* per cpu */
	/* per socket: a socket with a cpu that runs a program's thread is in
	 * package C0 with some core in C0; over that time the workload's
	 * package C-state residency is taken back and the time some core is
	 * in C0 is all of it */
	struct busy *pkg;
	double c0w[UCM_NACT];        /* per activity: what a core-second of C0 adds */
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

static double act_of(const struct ucp_machine *mc, unsigned socket, unsigned act);
static double ucp_idle_w(const struct ucp_machine *mc, unsigned act);

/* Each activity term's boxes, socket by socket (the same count on each):
 * a term naming a box type or sub-event the platform lacks is an error in
 * the tables. */
static int act_resolve(struct ucp_machine *mc, char *err, size_t n)
{
	const struct ucm_machine *d = mc->def;
	unsigned ns = ucm_nsockets(mc->m), cap = 0;

	for (unsigned s = 0; s < ns; s++)
		for (unsigned i = 0; i < d->nact; i++) {
			const struct ucm_act_term *t = &d->act[i];
			int found = 0;

			for (unsigned j = 0;; j++) {
				int b = ucm_box_find(mc->m, s, t->box, j), sub;
				const struct ucm_boxinst *bi;

				if (b < 0)
					break;
				bi = ucm_box_def(mc->m, b);
				if ((sub = ucm_subev_find(bi->type, t->sub)) < 0) {
					snprintf(err, n, "machine table of %s: activity term %s.%s: no such sub-event",
						 ucm_platform_of(mc->m)->name, t->box, t->sub);
					return -EINVAL;
				}
				if (mc->nab == cap) {
					struct actbox *nb = realloc(mc->ab, (cap = cap ? 2 * cap : 16) * sizeof(*nb));

					if (!nb)
						return -ENOMEM;
					mc->ab = nb;
				}
				mc->ab[mc->nab++] = (struct actbox){
					b, (unsigned)sub, t->act,
					t->occ ? t->per / (double)ucm_clock_hz(mc->m, bi->type->clock) : t->per
				};
				found = 1;
			}
			if (!found) {
				snprintf(err, n, "machine table of %s: activity term %s.%s: no %s box on socket %u",
					 ucm_platform_of(mc->m)->name, t->box, t->sub, t->box, s);
				return -EINVAL;
			}
		}
	mc->nab /= ns ? ns : 1;
	/* a term on the sub-event that measures C0 weighs a core-second */
	for (unsigned i = 0; i < d->nact; i++)
		for (unsigned j = 0; j < d->nact; j++)
			if (d->act[i].act == UCM_ACT_C0 && d->act[j].act != UCM_ACT_C0 && d->act[j].occ &&
			    strcmp(d->act[i].box, d->act[j].box) == 0 && strcmp(d->act[i].sub, d->act[j].sub) == 0)
				mc->c0w[d->act[j].act] += d->act[j].per;
	if (d->thermal) {
		if (!(mc->therm = calloc(ns, sizeof(*mc->therm))))
			return -ENOMEM;
		/* at power-on each package sits at its idle steady state */
		for (unsigned s = 0; s < ns; s++)
			mc->therm[s].temp_c = d->thermal->amb_c + d->thermal->rth_c_per_w * ucp_idle_w(mc, UCM_ACT_PKG);
	}
	return 0;
}

static const struct ucm_sysmsr *msr_of(const struct ucp_machine *mc, uint32_t addr, size_t *k);

/* Row s's j-th MSR on cpu at power-on (enum ucm_sysmsr_kind) */
static uint64_t reset_value(const struct ucp_machine *mc, const struct ucm_sysmsr *s, unsigned j, unsigned cpu)
{
	switch (s->kind) {
	case UCM_SM_MCBANK:
		/* a bank's STATUS, ADDR and MISC: no error logged */
		return (s->addr + j) & 3 ? 0 : s->value;
	case UCM_SM_RW:
		return s->value + (uint64_t)cpu * s->rate +
		       (s->arg == UCM_RW_TSC_AUX ? (uint64_t)ucp_cpu_socket(mc, cpu) << 12 | cpu : 0);
	case UCM_SM_CONST:
		return s->arg == UCM_CONST_BSP && cpu ? s->value & ~(1ull << 8) : s->value;
	default:
		return s->value;
	}
}

/* Every alias row names rows that exist and are no aliases themselves,
 * so that an access is forwarded once (ucp_sysmsr_read, _write). */
static int alias_check(struct ucp_machine *mc, char *err, size_t n)
{
	for (unsigned i = 0; i < mc->def->nsysmsr; i++) {
		const struct ucm_sysmsr *s = &mc->def->sysmsr[i];

		for (unsigned j = 0; s->kind == UCM_SM_ALIAS && j < s->count; j++) {
			size_t k;
			const struct ucm_sysmsr *t = msr_of(mc, (uint32_t)(s->value + j), &k);

			if (!t || t->kind == UCM_SM_ALIAS) {
				snprintf(err, n, "machine table of %s: %s (0x%x) aliases 0x%llx, %s",
					 ucm_platform_of(mc->m)->name, s->name, s->addr + j,
					 (unsigned long long)(s->value + j), t ? "another alias" : "which it lacks");
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* The variable-range MTRRs at power-on (SDM Vol. 3A 11.11.2.3): write-back
 * over the machine's RAM, mem_mb a socket, the part below tolm_mb and the
 * rest from 4 GiB, each range a naturally aligned power of two, as
 * firmware programs them; the MMIO hole and everything above the RAM are
 * IA32_MTRR_DEF_TYPE's uncacheable.  Every cpu the same. */
static int mtrr_map(struct ucp_machine *mc, char *err, size_t n)
{
	const struct ucm_machine *d = mc->def;
	uint64_t ram = (uint64_t)d->mem_mb * ucm_nsockets(mc->m) << 20, low = (uint64_t)d->tolm_mb << 20;
	uint64_t from[2], len[2];

	low = ram < low ? ram : low;
	from[0] = 0;
	len[0] = low;
	from[1] = 4ull << 30;
	len[1] = ram - low;
	for (unsigned i = 0; i < d->nsysmsr; i++) {
		const struct ucm_sysmsr *s = &d->sysmsr[i];
		unsigned pair = 0;
		size_t k;

		if (s->kind != UCM_SM_VMTRR || !msr_of(mc, s->addr, &k))
			continue;
		if (!low || low > 4ull << 30) {
			snprintf(err, n, "machine table of %s: top of low memory %u MiB is not in (0, 4096]",
				 ucm_platform_of(mc->m)->name, d->tolm_mb);
			return -EINVAL;
		}
		for (unsigned r = 0; r < 2; r++)
			for (uint64_t a = from[r], left = len[r]; left; pair++) {
				uint64_t size = 1ull << 63;

				while (size > left || (a & (size - 1)))
					size >>= 1;
				if (2 * pair + 1 >= s->count || ((a + size - 1) & ~s->mask & ~0xFFFull)) {
					snprintf(err, n, "machine table of %s: %llu MiB of RAM (%u MiB below 4 GiB) need more "
						 "variable MTRRs than the %u of IA32_MTRRCAP, or addresses past MAXPHYADDR",
						 ucm_platform_of(mc->m)->name, (unsigned long long)(ram >> 20),
						 (unsigned)(low >> 20), s->count / 2);
					return -EINVAL;
				}
				for (unsigned c = 0; c < mc->ncpu; c++) {
					mc->st[c * mc->nstate + k + 2 * pair].val = a | 6;            /* WB */
					mc->st[c * mc->nstate + k + 2 * pair + 1].val = (~(size - 1) & s->mask) | 0x800;
				}
				a += size;
				left -= size;
			}
	}
	return 0;
}

int ucp_machine_create(struct ucm_model *m, uint64_t boot_ps, struct ucp_machine **out, char *err,
		       size_t n)
{
	const struct ucm_platform *p = ucm_platform_of(m);
	const struct ucm_cpuid *l1;
	struct ucp_machine *mc;
	unsigned ids;
	int rc;

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
	mc->cpu = calloc(mc->ncpu, sizeof(*mc->cpu));
	mc->pkg = calloc(ucm_nsockets(m), sizeof(*mc->pkg));
	if (!mc->st || !mc->cpu || !mc->pkg) {
		ucp_machine_destroy(mc);
		return -ENOMEM;
	}
	if ((rc = act_resolve(mc, err, n))) {
		ucp_machine_destroy(mc);
		return rc;
	}
	for (unsigned c = 0; c < mc->ncpu; c++) {
		size_t k = 0;

		for (unsigned i = 0; i < mc->def->nsysmsr; i++)
			for (unsigned j = 0; j < mc->def->sysmsr[i].count; j++, k++) {
				const struct ucm_sysmsr *s = &mc->def->sysmsr[i];

				mc->st[c * mc->nstate + k].val = reset_value(mc, s, j, c);
			}
	}
	if ((rc = alias_check(mc, err, n)) || (rc = mtrr_map(mc, err, n))) {
		ucp_machine_destroy(mc);
		return rc;
	}
	*out = mc;
	return 0;
}

void ucp_machine_destroy(struct ucp_machine *mc)
{
	if (mc) {
		free(mc->st);
		free(mc->ab);
		free(mc->therm);
		free(mc->cpu);
		free(mc->pkg);
	}
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

static double fixed_q(const struct msrstate *s, double q)
{
	return s->acc_q + (s->on ? q - s->since_q : 0);
}

/* How long cpu has run a program's thread, in seconds, and the workload's
 * per-core activity act over that time. */
static void busy_of(const struct ucp_machine *mc, unsigned cpu, unsigned act, uint64_t now, double *ran,
		    double *wl)
{
	const struct busy *c = &mc->cpu[cpu].b;

	*ran = (double)(c->acc_ps + (c->busy ? now - c->since_ps : 0)) / 1e12;
	*wl = c->acc_q[act] + (c->busy ? act_of(mc, ucp_cpu_socket(mc, cpu), act) - c->since_q[act] : 0);
}

/* An activity of a socket at now, with the cpus that ran a program's
 * threads in C0 meanwhile. */
static double socket_act(const struct ucp_machine *mc, unsigned socket, unsigned act, uint64_t now)
{
	double q = act_of(mc, socket, act), ran, wl;

	if (mc->c0w[act] != 0)
		for (unsigned c = socket * mc->ncores; c < (socket + 1) * mc->ncores; c++) {
			busy_of(mc, c, UCM_ACT_C0, now, &ran, &wl);
			q += mc->c0w[act] * (ran - wl);
		}
	return q;
}

/* What a counting row counts in its activity since power-on: a per-core
 * activity is the cpu's own, which while it ran a program's thread is C0
 * at RUN_IPC and no C-state. */
static double row_q(const struct ucp_machine *mc, const struct ucm_sysmsr *s, unsigned cpu, uint64_t now)
{
	double ran, wl;

	if (UCM_ACT_PKG_WIDE(s->act)) {
		unsigned so = ucp_cpu_socket(mc, cpu);
		const struct busy *p = &mc->pkg[so];
		double q = p->busy ? p->since_q[s->act] - p->acc_q[s->act] : act_of(mc, so, s->act) - p->acc_q[s->act];

		if (s->act == UCM_ACT_ANY_C0)
			q += (double)(p->acc_ps + (p->busy ? now - p->since_ps : 0)) / 1e12;
		return q;
	}
	if (!UCM_ACT_PER_CORE(s->act))
		return s->act ? socket_act(mc, ucp_cpu_socket(mc, cpu), s->act, now) : 0;
	busy_of(mc, cpu, s->act, now, &ran, &wl);
	return act_of(mc, ucp_cpu_socket(mc, cpu), s->act) - wl +
	       (s->act == UCM_ACT_C0 ? ran : s->act == UCM_ACT_INST ? RUN_IPC * ran : 0);
}

void ucp_cpu_runs(struct ucp_machine *mc, unsigned cpu)
{
	if (cpu < mc->ncpu)
		mc->cpu[cpu].mark = 1;
}

/* A cpu or a socket starts or stops being busy at now: the workload's
 * activities of socket so that want() names are noted at the start and
 * summed at the end, with the time. */
static void busy_set(const struct ucp_machine *mc, struct busy *t, int busy, unsigned so, int (*want)(unsigned),
		     uint64_t now)
{
	if (busy == t->busy)
		return;
	for (unsigned a = 0; a < UCM_NACT; a++) {
		double q;

		if (!want(a))
			continue;
		q = act_of(mc, so, a);
		if (busy)
			t->since_q[a] = q;
		else
			t->acc_q[a] += q - t->since_q[a];
	}
	if (busy)
		t->since_ps = now;
	else
		t->acc_ps += now - t->since_ps;
	t->busy = busy;
}

static int per_core(unsigned a)
{
	return UCM_ACT_PER_CORE(a);
}

static int pkg_wide(unsigned a)
{
	return UCM_ACT_PKG_WIDE(a);
}

void ucp_cpus_update(struct ucp_machine *mc, uint64_t now)
{
	for (unsigned cpu = 0; cpu < mc->ncpu; cpu++) {
		busy_set(mc, &mc->cpu[cpu].b, mc->cpu[cpu].mark, ucp_cpu_socket(mc, cpu), per_core, now);
		mc->cpu[cpu].mark = 0;
	}
	for (unsigned so = 0; so * mc->ncores < mc->ncpu; so++) {
		int any = 0;

		for (unsigned cpu = so * mc->ncores; cpu < (so + 1) * mc->ncores && cpu < mc->ncpu; cpu++)
			any |= mc->cpu[cpu].b.busy;
		busy_set(mc, &mc->pkg[so], any, so, pkg_wide, now);
	}
}

/* Counts from an activity: a count that is a whole number in exact
 * arithmetic (whole cycles of a clock at the TSC's rate) must not read one
 * less for the last bit of a sum that took another path (a socket's
 * package C-states, frozen and running), so the value is raised by more
 * than the sums' rounding, a relative 1e-14 (0.1 count after an hour). */
static uint64_t act_count(double x)
{
	return x <= 0 ? 0 : (uint64_t)(x + x * 1e-14);
}

/* A counting row's count at now before its offset. */
static uint64_t row_count(const struct ucp_machine *mc, const struct ucm_sysmsr *s, const struct msrstate *st,
			  unsigned cpu, uint64_t now)
{
	if (s->kind == UCM_SM_TIME)
		return counted(s->rate, mc->boot_ps + now) + act_count((double)s->act_rate * row_q(mc, s, cpu, now));
	if (s->act)
		return act_count((double)s->act_rate * fixed_q(st, row_q(mc, s, cpu, now)));
	return counted(s->rate, fixed_time(st, now));
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
		double q = row_q(mc, s, cpu, now);

		if (on == st->on)
			continue;
		st->acc_ps = fixed_time(st, now);
		st->since_ps = now;
		st->acc_q = fixed_q(st, q);
		st->since_q = q;
		st->on = on;
	}
}

/* The socket's package temperature at now: the first-order model brought
 * forward from its last look with the mean package power since. */
static double pkg_temp(struct ucp_machine *mc, unsigned socket, uint64_t now)
{
	const struct ucm_thermal *th = mc->def->thermal;
	struct thermstate *t = &mc->therm[socket];
	double j = ucp_idle_w(mc, UCM_ACT_PKG) * (double)now / 1e12 + socket_act(mc, socket, UCM_ACT_PKG, now);

	if (now > t->ps) {
		double dt = (double)(now - t->ps) / 1e12, w = (j - t->pkg_j) / dt;
		double ss = th->amb_c + th->rth_c_per_w * w;

		t->temp_c = ss + (t->temp_c - ss) * exp(-dt / th->tau_s);
		t->ps = now;
		t->pkg_j = j;
	}
	return t->temp_c;
}

int ucp_sysmsr_read(struct ucp_machine *mc, unsigned cpu, uint32_t addr, uint64_t now, uint64_t *v)
{
	size_t k;
	const struct ucm_sysmsr *s = msr_of(mc, addr, &k);
	struct msrstate *st;

	if (s && s->kind == UCM_SM_ALIAS)
		return ucp_sysmsr_read(mc, cpu, (uint32_t)(s->value + (addr - s->addr)), now, v);
	if (!s || cpu >= mc->ncpu)
		return -ENOENT;
	st = &mc->st[cpu * mc->nstate + k];
	switch (s->kind) {
	case UCM_SM_WO:
		return -EIO;
	case UCM_SM_TIME:
	case UCM_SM_FIXED:
		*v = (st->off + row_count(mc, s, st, cpu, now)) & wmask(s->width);
		break;
	case UCM_SM_THERM: {
		/* digital readout: whole degrees below TjMax, 7 bits (SDM
		 * Vol. 3B 14.7.5.2) */
		double below = mc->def->thermal->tjmax_c - pkg_temp(mc, ucp_cpu_socket(mc, cpu), now);
		uint64_t r = below <= 0 ? 0 : below >= 127 ? 127 : (uint64_t)(below + 0.5);

		*v = (s->value & ~(0x7Full << 16)) | r << 16;
		break;
	}
	default:
		*v = st->val;
		break;
	}
	return 0;
}

static double ucp_idle_w(const struct ucp_machine *mc, unsigned act)
{
	for (unsigned i = 0; i < mc->def->nsysmsr; i++) {
		const struct ucm_sysmsr *s = &mc->def->sysmsr[i];

		if (s->kind == UCM_SM_TIME && s->act == act && s->act_rate)
			return (double)s->rate / (double)s->act_rate;
	}
	return 0;
}

static double act_of(const struct ucp_machine *mc, unsigned socket, unsigned act)
{
	const struct actbox *a;
	double q = 0;

	if (!mc->nab) /* a part whose table has no activity terms (skl): no array */
		return 0;
	a = mc->ab + (size_t)socket * mc->nab;

	for (unsigned i = 0; i < mc->nab; i++)
		if (a[i].act == act)
			q += a[i].per * (double)ucm_fed(mc->m, a[i].box, a[i].sub);
	return UCM_ACT_PER_CORE(act) ? q / mc->ncores : q;
}

int ucp_sysmsr_write(struct ucp_machine *mc, unsigned cpu, uint32_t addr, uint64_t now, uint64_t v,
		     char *why, size_t n)
{
	size_t k;
	const struct ucm_sysmsr *s = msr_of(mc, addr, &k);
	struct msrstate *st;

	if (s && s->kind == UCM_SM_ALIAS)
		return ucp_sysmsr_write(mc, cpu, (uint32_t)(s->value + (addr - s->addr)), now, v, why, n);
	if (!s || cpu >= mc->ncpu)
		return -ENOENT;
	st = &mc->st[cpu * mc->nstate + k];
	/* memory types: each byte .arg names one of the set .width; then
	 * the reserved bits as a UCM_SM_RW row's */
	for (unsigned b = 0; s->kind == UCM_SM_MTYPE && b < 8; b++) {
		unsigned t = (unsigned)(v >> 8 * b) & 0xFF;

		if ((s->arg >> b & 1) && (t > 7 || !(s->width >> t & 1))) {
			snprintf(why, n, "%s (0x%x): memory type %u in byte %u is reserved", s->name, addr, t, b);
			return -EIO;
		}
	}
	switch (s->kind) {
	case UCM_SM_CONST:
		snprintf(why, n, "%s (0x%x) is read-only", s->name, addr);
		return -EIO;
	case UCM_SM_WI:
	case UCM_SM_THERM:
		return 0;
	case UCM_SM_WO:
		if (v & ~s->mask) {
			snprintf(why, n, "%s (0x%x): reserved bits 0x%llx set", s->name, addr,
				 (unsigned long long)(v & ~s->mask));
			return -EIO;
		}
		return 0;
	case UCM_SM_TIME:
		st->off = v - row_count(mc, s, st, cpu, now);
		return 0;
	case UCM_SM_FIXED:
		if (v & ~wmask(s->width)) {
			snprintf(why, n, "%s (0x%x): bits above %u set", s->name, addr, s->width);
			return -EIO;
		}
		st->off = v - row_count(mc, s, st, cpu, now);
		return 0;
	case UCM_SM_MCBANK:
		/* IA32_MCi_STATUS, _ADDR, _MISC: cleared by writing 0, a #GP
		 * otherwise (SDM Vol. 3B 15.3.2.2-4) */
		if ((addr & 3) && v) {
			snprintf(why, n, "%s (0x%x): only 0 can be written", s->name, addr);
			return -EIO;
		}
		st->val = v;
		return 0;
	case UCM_SM_VMTRR: {
		/* PHYSBASE: type 7:0 and the base; PHYSMASK: valid 11 and the
		 * mask (SDM Vol. 3A Figure 11-7) */
		int base = !((addr - s->addr) & 1);
		uint64_t allowed = s->mask | (base ? 0xFF : 0x800);

		if (v & ~allowed) {
			snprintf(why, n, "%s (0x%x): reserved bits 0x%llx set", s->name, addr,
				 (unsigned long long)(v & ~allowed));
			return -EIO;
		}
		if (base && ((v & 0xFF) > 7 || !(s->width >> (v & 0xFF) & 1))) {
			snprintf(why, n, "%s (0x%x): memory type %llu is reserved", s->name, addr,
				 (unsigned long long)(v & 0xFF));
			return -EIO;
		}
		st->val = v;
		return 0;
	}
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
