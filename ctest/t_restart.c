/*
 * t_restart.c - ucm_restart returns a model to the state of a new one.
 *
 * On every platform, a model is driven through a varied session (counters
 * programmed and preloaded near their wrap, global enables, PMI to some
 * cores while one sleeps, freeze on PMI or on overflow, a frozen box,
 * inputs and filter attributes, a workload, an observer and a PMI hook,
 * reads that set the ground truth, a truth mark, strict-mode records, an
 * error, phases entered until they are summed in an epoch, left open),
 * restarted, and compared with a model just created with the same
 * configuration: every register (ucm_peek_index over ucm_nregs), every
 * counter's ground truth, every sub-event's fed total, input and
 * attributes, PMI statistics, freezes, sleep states, strict records, the
 * error text and the time.  Then the same session runs on both and they are
 * compared again (state a restart left behind would count differently),
 * and once more after a second restart.  The session is checked to have
 * changed each of those things, so that the comparison means something.
 */
#include <stdlib.h>

#include "ct.h"
#include "ucm.h"

struct hooks {
	unsigned obs, pmi, wl;
};

static void obs_fn(void *ctx, struct ucm_model *m, unsigned point, uint64_t t)
{
	(void)m;
	(void)point;
	(void)t;
	((struct hooks *)ctx)->obs++;
}

static void pmi_fn(void *ctx, unsigned socket, unsigned core, uint64_t t)
{
	(void)socket;
	(void)core;
	(void)t;
	((struct hooks *)ctx)->pmi++;
}

/* A workload that changes an input on its third call. */
static int wl_fn(struct ucm_model *m, void *ctx, uint64_t now, uint64_t *next)
{
	struct hooks *h = ctx;

	if (++h->wl == 3)
		ucm_set_input(m, 0, 0, 1);
	*next = now + 1000000;
	return 0;
}

/* Register i read or written at its address, as software would. */
static uint64_t access(struct ucm_model *m, size_t i, int write, uint64_t v)
{
	struct ucm_reginfo ri;
	unsigned cpu;
	uint64_t out = 0;

	ucm_reginfo(m, i, &ri);
	cpu = ri.socket * ucm_cpus_per_socket(m);
	switch (ri.space) {
	case UCM_MSR:
		if (write)
			ucm_msr_write(m, cpu, (uint32_t)ri.addr, v);
		else
			ucm_msr_read(m, cpu, (uint32_t)ri.addr, &out);
		break;
	case UCM_PCI: {
		unsigned bus = (unsigned)(ri.addr >> 20), dev = (unsigned)(ri.addr >> 15) & 31;
		unsigned fn = (unsigned)(ri.addr >> 12) & 7, off = (unsigned)ri.addr & 0xFFF;

		if (write)
			ucm_pci_write(m, 0, bus, dev, fn, off, ri.width / 8, v);
		else
			ucm_pci_read(m, 0, bus, dev, fn, off, ri.width / 8, &out);
		break;
	}
	default: {
		uint64_t base = 0;

		/* the socket's BAR register holds the window's base */
		for (size_t k = 0; k < ucm_nregs(m); k++) {
			struct ucm_reginfo b;

			ucm_reginfo(m, k, &b);
			if (b.kind == UCM_K_BAR && b.socket == ri.socket)
				ucm_peek_index(m, k, &base);
		}
		base &= ucm_platform_of(m)->bar_mask;
		if (write)
			ucm_mmio_write(m, base + ri.addr, ri.width / 8, v);
		else
			ucm_mmio_read(m, base + ri.addr, ri.width / 8, &out);
	}
	}
	return out;
}

static uint64_t put(const struct ucm_layout *l, unsigned role, uint64_t v, uint64_t x)
{
	return ucm_field_put(ucm_layout_field(l, role), v, x);
}

/* Every PMI_SEL field of a global control set. */
static uint64_t all_pmi_sel(const struct ucm_layout *l, uint64_t v)
{
	for (unsigned f = 0; f < l->nfields; f++)
		if (l->fields[f].role == UCM_R_PMI_SEL)
			v = ucm_field_put(&l->fields[f], v, 1);
	return v;
}

static int box_of(struct ucm_model *m, const struct ucm_reginfo *ri)
{
	return ucm_box_find(m, ri->socket, ri->box->type->name, ri->box->inst);
}

/* The session: the same on every model it runs on; variants program other
 * events (a selection a restart left behind would then count). */
static void drive(struct ucm_model *m, struct hooks *h, unsigned variant)
{
	size_t n = ucm_nregs(m);
	unsigned nb = ucm_box_count(m);

	ucm_set_observer(m, obs_fn, h);
	ucm_set_pmi_hook(m, pmi_fn, h);
	ucm_set_workload(m, wl_fn, h);
	/* inputs on every third sub-event, attributes on others */
	for (unsigned b = 0; b < nb; b++) {
		const struct ucm_boxtype *bt = ucm_box_def(m, (int)b)->type;
		unsigned ns = ucm_subev_count(bt);

		for (unsigned s = 0; s < ns; s++) {
			if (s % 3 == 0)
				ucm_set_input(m, (int)b, s, 1 + (s / 3) % 2);
			if (s % 5 == 1)
				ucm_set_input_attr(m, (int)b, s, s % UCM_NATTR, s);
		}
	}
	/* every control: an event of its box's table, EN and OVF_EN; every
	 * counter near its wrap; the global controls enabled, with PMI to
	 * every core and freeze on PMI */
	for (size_t i = 0; i < n; i++) {
		struct ucm_reginfo ri;

		ucm_reginfo(m, i, &ri);
		if (ri.kind == UCM_K_CTL) {
			const struct ucm_boxtype *bt = ri.box->type;
			uint64_t v = 0;

			if (bt->ncodes) {
				const struct ucm_evcode *ec = &bt->codes[(ri.idx + ri.box->inst + variant) % bt->ncodes];

				v = put(ri.layout, UCM_R_EVSEL, v, ec->code & 0xFF);
				v = put(ri.layout, UCM_R_EXTSEL, v, ec->code >> 8);
				v = put(ri.layout, UCM_R_UMASK, v, 0xFF);
			}
			v = put(ri.layout, UCM_R_EN, v, 1);
			v = put(ri.layout, UCM_R_OVF_EN, v, 1);
			access(m, i, 1, v);
		} else if (ri.kind == UCM_K_CTR && ri.rw_mask) {
			access(m, i, 1, ri.rw_mask - 40 * (ri.idx + 1));
		} else if (ri.kind == UCM_K_GLOBAL_CTL) {
			uint64_t v = put(ri.layout, UCM_R_GLOBAL_EN, 0, 1);

			v = put(ri.layout, UCM_R_FRZ_ON_PMI, all_pmi_sel(ri.layout, v), 1);
			access(m, i, 1, v);
		}
	}
	ucm_core_sleep(m, 0, 1, 1);
	ucm_run_cycles(m, 0, 300);
	/* reads: the ground truth's first and last reads */
	for (size_t i = 0; i < n; i++) {
		struct ucm_reginfo ri;

		ucm_reginfo(m, i, &ri);
		if (ri.kind == UCM_K_CTR)
			access(m, i, 0, 0);
	}
	ucm_truth_mark(m);
	/* a phase: the first sub-event of the first and the last box that
	 * have sub-events */
	{
		struct ucm_phase_in in[2] = { { -1, 0, 1 }, { -1, 0, 1 } };

		for (unsigned b = 0; b < nb; b++)
			if (ucm_subev_count(ucm_box_def(m, (int)b)->type)) {
				in[1].box = (int)b;
				if (in[0].box < 0)
					in[0].box = (int)b;
			}
		if (ucm_phase_define(m, in, 2) == 0)
			ucm_phase_enter(m, 0);
		ucm_run_cycles(m, 0, 100);
	}
	/* the inputs change while the counters count */
	for (unsigned b = 0; b < nb; b++) {
		unsigned ns = ucm_subev_count(ucm_box_def(m, (int)b)->type);

		for (unsigned s = 0; s < ns; s += 3)
			ucm_set_input(m, (int)b, s, 2 - (s / 3) % 2);
	}
	/* the first box with a freeze bit frozen; reserved bits written */
	for (size_t i = 0, froze = 0, strict = 0; i < n; i++) {
		struct ucm_reginfo ri;

		ucm_reginfo(m, i, &ri);
		if (!froze && ri.kind == UCM_K_BOX_CTL && ucm_layout_field(ri.layout, UCM_R_FRZ)) {
			access(m, i, 1, put(ri.layout, UCM_R_FRZ, put(ri.layout, UCM_R_FRZ_EN, 0, 1), 1));
			froze = 1;
		}
		if (!strict && ri.kind == UCM_K_CTL && ri.rsvd_mask) {
			access(m, i, 1, ri.rsvd_mask | put(ri.layout, UCM_R_EN, 0, 1));
			strict = 1;
		}
	}
	ucm_run_ps(m, 20000000);
	for (size_t i = 0; i < n; i++) {
		struct ucm_reginfo ri;

		ucm_reginfo(m, i, &ri);
		if (ri.kind == UCM_K_CTR && box_of(m, &ri) >= 0)
			access(m, i, 0, 0);
	}
	/* phases entered with nobody looking: summed in an epoch, which a
	 * restart may interrupt */
	ucm_set_observer(m, NULL, NULL);
	{
		/* sub-event 2: no input or attribute set above; entered
		 * first in the epoch (p0 four times starts it), and last */
		struct ucm_phase_in in = { -1, 2, 1 };
		int p0 = 0, p1;

		for (unsigned b = 0; b < nb; b++)
			if (ucm_subev_count(ucm_box_def(m, (int)b)->type) > 2)
				in.box = (int)b;
		p1 = ucm_phase_define(m, &in, 1);
		for (unsigned k = 0; p1 > 0 && k < 12; k++) {
			ucm_phase_enter(m, k >= 4 && k % 2 ? p1 : p0);
			ucm_run_cycles(m, 0, 50 + k);
		}
	}
	ucm_set_error(m, -1, "an error of the session");
}

#define MAXFAIL 20

/* a and b in the same state; report: each difference is a failure.
 * Returns the number of differences. */
static unsigned diff(struct ucm_model *a, struct ucm_model *b, const char *when, int report)
{
	unsigned bad = 0;
	size_t n = ucm_nregs(a);
	const struct ucm_platform *p = ucm_platform_of(a);

#define DIFF(cond, ...)                                                      \
	do {                                                                 \
		if (cond) {                                                  \
			if (report && bad < MAXFAIL)                         \
				ct_fail(__FILE__, __LINE__, __VA_ARGS__);    \
			bad++;                                               \
		}                                                            \
	} while (0)

	DIFF(n != ucm_nregs(b), "%s: %s: %zu registers, %zu", when, p->name, n, ucm_nregs(b));
	for (size_t i = 0; i < n && i < ucm_nregs(b); i++) {
		struct ucm_reginfo ri;
		uint64_t va = 0, vb = 0;

		ucm_reginfo(a, i, &ri);
		ucm_peek_index(a, i, &va);
		ucm_peek_index(b, i, &vb);
		DIFF(va != vb, "%s: %s %s (socket %u): 0x%llx, new model 0x%llx", when, p->name, ri.name,
		     ri.socket, (unsigned long long)va, (unsigned long long)vb);
	}
	DIFF(ucm_now_ps(a) != ucm_now_ps(b), "%s: %s time %llu ps, new model %llu", when, p->name,
	     (unsigned long long)ucm_now_ps(a), (unsigned long long)ucm_now_ps(b));
	for (unsigned d = 0; d < p->nclocks; d++)
		DIFF(ucm_cycles(a, d) != ucm_cycles(b, d), "%s: %s clock %u: %llu cycles, new model %llu",
		     when, p->name, d, (unsigned long long)ucm_cycles(a, d),
		     (unsigned long long)ucm_cycles(b, d));
	for (unsigned bx = 0; bx < ucm_box_count(a); bx++) {
		const struct ucm_boxtype *bt = ucm_box_def(a, (int)bx)->type;
		unsigned ns = ucm_subev_count(bt);

		DIFF(ucm_box_frozen(a, (int)bx) != ucm_box_frozen(b, (int)bx), "%s: %s box %u frozen %d",
		     when, p->name, bx, ucm_box_frozen(a, (int)bx));
		for (unsigned c = 0; c < bt->nctr; c++) {
			struct ucm_truth ta, tb;

			memset(&ta, 0, sizeof(ta));
			memset(&tb, 0, sizeof(tb));
			ucm_truth(a, (int)bx, c, &ta);
			ucm_truth(b, (int)bx, c, &tb);
			DIFF(memcmp(&ta, &tb, sizeof(ta)),
			     "%s: %s %s%u counter %u: truth total %llu wraps %llu reads %llu, new model %llu %llu %llu",
			     when, p->name, bt->name, ucm_box_def(a, (int)bx)->inst, c,
			     (unsigned long long)ta.total, (unsigned long long)ta.wraps,
			     (unsigned long long)ta.reads, (unsigned long long)tb.total,
			     (unsigned long long)tb.wraps, (unsigned long long)tb.reads);
		}
		for (unsigned s = 0; s < ns; s++) {
			DIFF(ucm_fed(a, (int)bx, s) != ucm_fed(b, (int)bx, s) ||
				     ucm_get_input(a, (int)bx, s) != ucm_get_input(b, (int)bx, s),
			     "%s: %s %s box %u sub-event %u: fed %llu input %u, new model %llu %u", when,
			     p->name, bt->name, bx, s, (unsigned long long)ucm_fed(a, (int)bx, s),
			     ucm_get_input(a, (int)bx, s), (unsigned long long)ucm_fed(b, (int)bx, s),
			     ucm_get_input(b, (int)bx, s));
			DIFF(ucm_input_fanout(a, (int)bx, s) != ucm_input_fanout(b, (int)bx, s),
			     "%s: %s %s box %u sub-event %u: counted by %u counters, new model %u", when,
			     p->name, bt->name, bx, s, ucm_input_fanout(a, (int)bx, s),
			     ucm_input_fanout(b, (int)bx, s));
			for (unsigned at = 0; at < UCM_NATTR; at++)
				DIFF(ucm_get_input_attr(a, (int)bx, s, at) != ucm_get_input_attr(b, (int)bx, s, at),
				     "%s: %s %s box %u sub-event %u attribute %u: 0x%llx, new model 0x%llx", when,
				     p->name, bt->name, bx, s, at,
				     (unsigned long long)ucm_get_input_attr(a, (int)bx, s, at),
				     (unsigned long long)ucm_get_input_attr(b, (int)bx, s, at));
		}
	}
	for (unsigned s = 0; s < ucm_nsockets(a); s++) {
		DIFF(ucm_pmi_requests(a, s) != ucm_pmi_requests(b, s) ||
			     ucm_overflow_freezes(a, s) != ucm_overflow_freezes(b, s) ||
			     ucm_global_frozen(a, s) != ucm_global_frozen(b, s),
		     "%s: %s socket %u: %llu PMI requests, %llu freezes, frozen %d; new model %llu %llu %d",
		     when, p->name, s, (unsigned long long)ucm_pmi_requests(a, s),
		     (unsigned long long)ucm_overflow_freezes(a, s), ucm_global_frozen(a, s),
		     (unsigned long long)ucm_pmi_requests(b, s),
		     (unsigned long long)ucm_overflow_freezes(b, s), ucm_global_frozen(b, s));
		for (unsigned c = 0; c < ucm_cpus_per_socket(a); c++) {
			struct ucm_pmi_stats sa, sb;

			ucm_pmi_stats(a, s, c, &sa);
			ucm_pmi_stats(b, s, c, &sb);
			DIFF(memcmp(&sa, &sb, sizeof(sa)) || ucm_core_asleep(a, s, c) != ucm_core_asleep(b, s, c),
			     "%s: %s socket %u core %u: %llu PMIs delivered, %llu dropped, asleep %d; new model %llu %llu %d",
			     when, p->name, s, c, (unsigned long long)sa.delivered,
			     (unsigned long long)sa.dropped, ucm_core_asleep(a, s, c),
			     (unsigned long long)sb.delivered, (unsigned long long)sb.dropped,
			     ucm_core_asleep(b, s, c));
		}
	}
	DIFF(ucm_strict_count(a) != ucm_strict_count(b), "%s: %s %zu strict records, new model %zu", when,
	     p->name, ucm_strict_count(a), ucm_strict_count(b));
	for (size_t i = 0; i < ucm_strict_count(a) && i < ucm_strict_count(b); i++) {
		char ra[512], rb[512];

		ucm_strict_format(a, i, ra, sizeof(ra));
		ucm_strict_format(b, i, rb, sizeof(rb));
		DIFF(strcmp(ra, rb), "%s: %s strict record %zu: %s, new model %s", when, p->name, i, ra, rb);
	}
	DIFF(ucm_phase_count(a) != ucm_phase_count(b) || ucm_phase_epochs(a) != ucm_phase_epochs(b),
	     "%s: %s %u phases, %llu epochs, new model %u, %llu", when, p->name, ucm_phase_count(a),
	     (unsigned long long)ucm_phase_epochs(a), ucm_phase_count(b),
	     (unsigned long long)ucm_phase_epochs(b));
	DIFF(strcmp(ucm_error(a), ucm_error(b)), "%s: %s error \"%s\", new model \"%s\"", when, p->name,
	     ucm_error(a), ucm_error(b));
#undef DIFF
	return bad;
}

/* The session changed what the comparison looks at. */
static void check_eventful(struct ucm_model *m, struct hooks *h)
{
	const struct ucm_platform *p = ucm_platform_of(m);
	uint64_t wraps = 0, fed = 0, reads = 0, pmis = 0, req = 0, attrs = 0;
	int frozen = 0, gctl = 0;

	for (unsigned bx = 0; bx < ucm_box_count(m); bx++) {
		const struct ucm_boxtype *bt = ucm_box_def(m, (int)bx)->type;

		frozen |= ucm_box_frozen(m, (int)bx);
		for (unsigned c = 0; c < bt->nctr; c++) {
			struct ucm_truth t;

			if (!ucm_truth(m, (int)bx, c, &t)) {
				wraps += t.wraps;
				reads += t.reads;
			}
		}
		for (unsigned s = 0; s < ucm_subev_count(bt); s++)
			fed += ucm_fed(m, (int)bx, s);
		attrs += ucm_subev_count(bt) > 1 &&
			 ucm_get_input_attr(m, (int)bx, 1, 1 % UCM_NATTR) == 1;
	}
	/* skl freezes by clearing GLOBAL_CTL.EN on PMI (FRZ_ON_PMI), the Xeons
	 * by a box's FRZ or the global freeze on overflow */
	for (size_t i = 0; i < ucm_nregs(m); i++) {
		struct ucm_reginfo ri;
		uint64_t v = 0;

		ucm_reginfo(m, i, &ri);
		ucm_peek_index(m, i, &v);
		if (ri.kind == UCM_K_GLOBAL_CTL) {
			gctl = 1;
			frozen |= ucm_layout_field(ri.layout, UCM_R_GLOBAL_EN) &&
				  !ucm_field_get(ucm_layout_field(ri.layout, UCM_R_GLOBAL_EN), v);
		}
	}
	for (unsigned s = 0; s < ucm_nsockets(m); s++) {
		req += ucm_pmi_requests(m, s);
		for (unsigned c = 0; c < ucm_cpus_per_socket(m); c++) {
			struct ucm_pmi_stats st;

			ucm_pmi_stats(m, s, c, &st);
			pmis += st.delivered + st.dropped;
		}
		frozen |= ucm_global_frozen(m, s);
	}
	if (!ucm_now_ps(m) || !wraps || !fed || !reads || (gctl && !req) || !attrs || !frozen ||
	    !ucm_strict_count(m) || !ucm_phase_epochs(m) || !h->obs || !h->wl || !ucm_core_asleep(m, 0, 1))
		ct_fail(__FILE__, __LINE__,
			"%s: the session did too little: time %llu, wraps %llu, fed %llu, reads %llu, "
			"PMI requests %llu, attributes %llu, frozen %d, strict records %zu, phase epochs %llu, "
			"observer %u, workload %u",
			p->name, (unsigned long long)ucm_now_ps(m), (unsigned long long)wraps,
			(unsigned long long)fed, (unsigned long long)reads, (unsigned long long)req,
			(unsigned long long)attrs, frozen, ucm_strict_count(m),
			(unsigned long long)ucm_phase_epochs(m), h->obs, h->wl);
	/* a platform whose global control routes PMIs to cores delivered or
	 * dropped some, and called the hook */
	if (pmis == 0 && h->pmi == 0) {
		for (size_t i = 0; i < ucm_nregs(m); i++) {
			struct ucm_reginfo ri;

			ucm_reginfo(m, i, &ri);
			if (ri.kind == UCM_K_GLOBAL_CTL && ucm_layout_field(ri.layout, UCM_R_PMI_SEL))
				ct_fail(__FILE__, __LINE__, "%s: no PMI reached a core", p->name);
		}
	}
}

static struct ucm_model *fresh(const struct ucm_config *cfg)
{
	struct ucm_model *m = NULL;

	if (ucm_create(cfg, &m)) {
		ct_fail(__FILE__, __LINE__, "create: %s", m ? ucm_error(m) : "no memory");
		ucm_destroy(m);
		return NULL;
	}
	return m;
}

/* A configuration away from the defaults: most CBos, every socket, the
 * fastest first clock. */
static void config(struct ucm_config *cfg, const struct ucm_platform *p)
{
	ucm_config_init(cfg, p);
	cfg->strict = 1;
	if (p->counted)
		cfg->ninst[ucm_boxtype_index(p, p->counted)] = p->counted->ninst_max > p->counted->ninst_min
								       ? p->counted->ninst_max - 1
								       : p->counted->ninst_max;
	cfg->sockets = p->max_sockets;
	if (p->nclocks > 1)
		cfg->clock_hz[0] = p->clocks[0].hz_max;
}

static void restart_on(const struct ucm_platform *p)
{
	struct ucm_config cfg;
	struct ucm_model *a, *b = NULL, *c = NULL;
	struct hooks ha = { 0, 0, 0 }, hb = { 0, 0, 0 }, hz;
	size_t probe = 0;

	config(&cfg, p);
	a = fresh(&cfg);
	if (!a)
		return;
	/* what the session does, seen on a model of its own (looking ends
	 * the epoch the session leaves a open) */
	c = fresh(&cfg);
	if (c) {
		drive(c, &hb, 0);
		check_eventful(c, &hb);
		ucm_destroy(c);
		c = NULL;
		memset(&hb, 0, sizeof(hb));
	}
	drive(a, &ha, 0);
	ucm_restart(a);
	b = fresh(&cfg);
	if (!b)
		goto out;
	/* an MSR: an access the observer hears of */
	for (size_t i = 0; i < ucm_nregs(a); i++) {
		struct ucm_reginfo ri;

		ucm_reginfo(a, i, &ri);
		if (ri.space == UCM_MSR) {
			probe = i;
			break;
		}
	}
	diff(a, b, "after a restart", 1);
	/* the hooks are gone: an access and time call none */
	hz = ha;
	access(a, probe, 0, 0);
	access(b, probe, 0, 0);
	ucm_run_cycles(a, 0, 1000);
	ucm_run_cycles(b, 0, 1000);
	CT_EQ(ha.obs, hz.obs);
	CT_EQ(ha.pmi, hz.pmi);
	CT_EQ(ha.wl, hz.wl);
	diff(a, b, "after a restart, an access and 1000 cycles", 1);
	/* the same session again on both: the same outcome */
	memset(&ha, 0, sizeof(ha));
	drive(a, &ha, 1);
	drive(b, &hb, 1);
	CT_CHECK(diff(a, b, "the session again", 1) == 0);
	CT_EQ(ha.obs, hb.obs);
	CT_EQ(ha.pmi, hb.pmi);
	CT_EQ(ha.wl, hb.wl);
	/* a second restart, against a third new model */
	ucm_restart(a);
	c = fresh(&cfg);
	if (c) {
		diff(a, c, "after a second restart", 1);
		memset(&ha, 0, sizeof(ha));
		memset(&hb, 0, sizeof(hb));
		drive(a, &ha, 2);
		drive(c, &hb, 2);
		diff(a, c, "the session after a second restart", 1);
	}
out:
	ucm_destroy(a);
	ucm_destroy(b);
	ucm_destroy(c);
}

CT_TEST(restart_equals_new_skl)
{
	restart_on(ucm_platform_find("skl"));
}

CT_TEST(restart_equals_new_snbep)
{
	restart_on(ucm_platform_find("snbep"));
}

CT_TEST(restart_equals_new_ivt)
{
	restart_on(ucm_platform_find("ivt"));
}

/* Every registered platform is one of the above. */
CT_TEST(restart_covers_every_platform)
{
	size_t n;
	const struct ucm_platform *const *all = ucm_platforms(&n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(all[i]->name, "skl") && strcmp(all[i]->name, "snbep") &&
		    strcmp(all[i]->name, "ivt"))
			ct_fail(__FILE__, __LINE__, "platform %s has no restart test", all[i]->name);
}

CT_MAIN()
