/*
 * uck_corepmu.c - the kernel's two PMUs beside the uncore: "software"
 * (type PERF_TYPE_SOFTWARE) and the core PMU "cpu" (type PERF_TYPE_RAW,
 * also taking PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE events).  Our own
 * implementation, not Linux's arch/x86/events/intel/core.c, and only what
 * the simulated machine backs (docs/linux-driver.md, "The core PMU"):
 *
 *  - software: cpu-clock and task-clock count machine nanoseconds while the
 *    event runs (a task event: while its task is on a cpu);
 *    context-switches and cpu-migrations are counted by the perf core as
 *    the host switches tasks (uck_perf.c); the other software events
 *    (faults, emulation) count nothing the machine has: 0.
 *  - cpu: cycles, instructions and ref-cycles (the hardware events and their
 *    raw encodings 0x3c, 0xc0, 0x0300) on the machine's three fixed
 *    counters, IA32_FIXED_CTR0..2, programmed through IA32_FIXED_CTR_CTRL
 *    and IA32_PERF_GLOBAL_CTRL as the architecture says (Intel SDM Vol. 3B,
 *    18.2.2); every other raw event and the architectural hardware events
 *    (SDM Vol. 3B, Table 18-1) on the general counters, IA32_PERFEVTSELx
 *    and IA32_PMCx, which count what the machine's general counters count:
 *    nothing, as they do for a tool that programs the MSRs itself.  The
 *    cache events (PERF_TYPE_HW_CACHE) have no table here: -ENOENT.
 */
#include <linux/perf_event.h>
#include <linux/slab.h>

#include "uck_internal.h"

#define MSR_PERFEVTSEL0 0x186
#define MSR_PMC0 0xC1
#define NGP 8
#define GP_WIDTH 48
#define EVTSEL_USR (1ull << 16)
#define EVTSEL_OS (1ull << 17)
#define EVTSEL_EN (1ull << 22)
/* the raw config bits the x86 core driver keeps (X86_RAW_EVENT_MASK):
 * event, umask, edge, pc, inv, cmask, any, and in_tx/in_tx_cp */
#define RAW_MASK 0x3FFE4FFFFull
#define MSR_FIXED_CTR0 0x309
#define MSR_FIXED_CTR_CTRL 0x38D
#define MSR_GLOBAL_CTRL 0x38F
#define NFIXED 3
#define FIXED_WIDTH 48

/* ---- software ---- */

static int sw_init(struct perf_event *e)
{
	if (e->attr.type != PERF_TYPE_SOFTWARE)
		return -ENOENT;
	if (e->attr.config >= PERF_COUNT_SW_MAX)
		return -ENOENT;
	/* sampling would need an interrupt on machine time and a ring buffer */
	if (is_sampling_event(e))
		return -EOPNOTSUPP;
	return 0;
}

static bool is_clock(const struct perf_event *e)
{
	return e->attr.config == PERF_COUNT_SW_CPU_CLOCK || e->attr.config == PERF_COUNT_SW_TASK_CLOCK;
}

static void sw_read(struct perf_event *e)
{
	u64 now = uck_now();

	if (is_clock(e))
		local64_add((s64)(now - (u64)local64_read(&e->hw.prev_count)), &e->count);
	local64_set(&e->hw.prev_count, (s64)now);
}

static void sw_start(struct perf_event *e, int flags)
{
	(void)flags;
	local64_set(&e->hw.prev_count, (s64)uck_now());
	e->hw.state = 0;
}

static void sw_stop(struct perf_event *e, int flags)
{
	if (!(e->hw.state & PERF_HES_STOPPED) && (flags & PERF_EF_UPDATE))
		sw_read(e);
	e->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int sw_add(struct perf_event *e, int flags)
{
	e->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		sw_start(e, 0);
	return 0;
}

static void sw_del(struct perf_event *e, int flags)
{
	(void)flags;
	sw_stop(e, PERF_EF_UPDATE);
}

static struct pmu sw_pmu = {
	.task_ctx_nr = perf_sw_context,
	.capabilities = PERF_PMU_CAP_NO_NMI,
	.event_init = sw_init,
	.add = sw_add,
	.del = sw_del,
	.start = sw_start,
	.stop = sw_stop,
	.read = sw_read,
};

/* ---- cpu ---- */

struct cpu_state {
	struct perf_event *fixed[NFIXED];
	struct perf_event *gp[NGP];
};
static struct cpu_state *cpus;

/* the fixed counter an event is, -1 if none */
static int fixed_of(const struct perf_event_attr *a)
{
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		return a->config == PERF_COUNT_HW_INSTRUCTIONS ? 0
		       : a->config == PERF_COUNT_HW_CPU_CYCLES ? 1
		       : a->config == PERF_COUNT_HW_REF_CPU_CYCLES ? 2 : -1;
	case PERF_TYPE_RAW:
		/* event and umask; the rest (edge, inv, cmask, any) must be 0
		 * for a fixed counter */
		if (a->config & ~0xFFFFull)
			return -1;
		return a->config == 0x00c0 ? 0 : a->config == 0x003c ? 1 : a->config == 0x0300 ? 2 : -1;
	default:
		return -1;
	}
}

/* the architectural encodings of the generic hardware events (SDM Vol.
 * 3B, Table 18-1); 0: none */
static u64 hw_encoding(u64 config)
{
	switch (config) {
	case PERF_COUNT_HW_CACHE_REFERENCES:
		return 0x4f2e;
	case PERF_COUNT_HW_CACHE_MISSES:
		return 0x412e;
	case PERF_COUNT_HW_BRANCH_INSTRUCTIONS:
		return 0x00c4;
	case PERF_COUNT_HW_BRANCH_MISSES:
		return 0x00c5;
	case PERF_COUNT_HW_BUS_CYCLES:
		return 0x013c;
	default:
		return 0;
	}
}

/* hw.config: a fixed counter's number, or (with flags 1) the general
 * counter's event select without its enable and ring bits */
static int cpu_init(struct perf_event *e)
{
	int f;

	if (e->attr.type != PERF_TYPE_HARDWARE && e->attr.type != PERF_TYPE_RAW &&
	    e->attr.type != PERF_TYPE_HW_CACHE)
		return -ENOENT;
	if (is_sampling_event(e))
		return -EOPNOTSUPP;
	e->hw.idx = -1;
	f = fixed_of(&e->attr);
	if (f >= 0) {
		e->hw.config = (u64)f;
		e->hw.flags = 0;
		return 0;
	}
	if (e->attr.type == PERF_TYPE_RAW)
		e->hw.config = e->attr.config & RAW_MASK;
	else if (e->attr.type == PERF_TYPE_HARDWARE && hw_encoding(e->attr.config))
		e->hw.config = hw_encoding(e->attr.config);
	else
		return -ENOENT;
	if (!e->attr.exclude_user)
		e->hw.config |= EVTSEL_USR;
	if (!e->attr.exclude_kernel)
		e->hw.config |= EVTSEL_OS;
	e->hw.flags = 1;
	return 0;
}

static u64 gp_read(int i)
{
	u64 v = 0;

	rdmsrl(MSR_PMC0 + i, v);
	return v;
}

static void global_enable(int bit, int on)
{
	u64 glob = 0;

	rdmsrl(MSR_GLOBAL_CTRL, glob);
	glob = on ? glob | 1ull << bit : glob & ~(1ull << bit);
	wrmsrl(MSR_GLOBAL_CTRL, glob);
}

static u64 fixed_read(int f)
{
	u64 v = 0;

	rdmsrl(MSR_FIXED_CTR0 + f, v);
	return v;
}

static void cpu_update(struct perf_event *e)
{
	u64 now = e->hw.flags ? gp_read(e->hw.idx) : fixed_read(e->hw.idx);
	u64 prev = (u64)local64_read(&e->hw.prev_count);
	int shift = 64 - (e->hw.flags ? GP_WIDTH : FIXED_WIDTH);

	local64_set(&e->hw.prev_count, (s64)now);
	local64_add((s64)(((now << shift) - (prev << shift)) >> shift), &e->count);
}

/* enable or disable fixed counter f for ring 0 and 3 */
static void fixed_enable(int f, int on)
{
	u64 ctl = 0, glob = 0;

	rdmsrl(MSR_FIXED_CTR_CTRL, ctl);
	rdmsrl(MSR_GLOBAL_CTRL, glob);
	ctl &= ~(0xFull << (4 * f));
	glob &= ~(1ull << (32 + f));
	if (on) {
		ctl |= 0x3ull << (4 * f);
		glob |= 1ull << (32 + f);
	}
	wrmsrl(MSR_FIXED_CTR_CTRL, ctl);
	wrmsrl(MSR_GLOBAL_CTRL, glob);
}

static void cpu_start(struct perf_event *e, int flags)
{
	(void)flags;
	if (e->hw.flags) {
		local64_set(&e->hw.prev_count, (s64)gp_read(e->hw.idx));
		wrmsrl(MSR_PERFEVTSEL0 + e->hw.idx, e->hw.config | EVTSEL_EN);
		global_enable(e->hw.idx, 1);
	} else {
		local64_set(&e->hw.prev_count, (s64)fixed_read(e->hw.idx));
		fixed_enable(e->hw.idx, 1);
	}
	e->hw.state = 0;
}

static void cpu_stop(struct perf_event *e, int flags)
{
	if (!(e->hw.state & PERF_HES_STOPPED)) {
		if (e->hw.flags) {
			wrmsrl(MSR_PERFEVTSEL0 + e->hw.idx, e->hw.config);
			global_enable(e->hw.idx, 0);
		} else {
			fixed_enable(e->hw.idx, 0);
		}
		e->hw.state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(e->hw.state & PERF_HES_UPTODATE)) {
		cpu_update(e);
		e->hw.state |= PERF_HES_UPTODATE;
	}
}

static int cpu_add(struct perf_event *e, int flags)
{
	struct cpu_state *c = &cpus[smp_processor_id()];

	if (e->hw.flags) {
		int i;

		for (i = 0; i < NGP && c->gp[i]; i++)
			;
		if (i == NGP)
			return -EAGAIN; /* every general counter taken: rotation */
		c->gp[i] = e;
		e->hw.idx = i;
	} else {
		int f = (int)e->hw.config;

		if (c->fixed[f])
			return -EAGAIN; /* the one counter is taken: wait for rotation */
		c->fixed[f] = e;
		e->hw.idx = f;
	}
	e->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		cpu_start(e, 0);
	return 0;
}

static void cpu_del(struct perf_event *e, int flags)
{
	struct cpu_state *c = &cpus[smp_processor_id()];

	(void)flags;
	cpu_stop(e, PERF_EF_UPDATE);
	if (e->hw.flags)
		c->gp[e->hw.idx] = NULL;
	else
		c->fixed[e->hw.idx] = NULL;
	e->hw.idx = -1;
}

static void cpu_read(struct perf_event *e)
{
	if (e->hw.idx >= 0)
		cpu_update(e);
}

/* format and events files, as the core PMU shows them */
#define FMT(name_, spec_)                                                        \
	static ssize_t fmt_##name_##_show(struct device *d, struct device_attribute *a, char *buf) \
	{                                                                        \
		(void)d, (void)a;                                                \
		return sprintf(buf, "%s\n", spec_);                              \
	}                                                                        \
	static struct device_attribute fmt_##name_ = __ATTR(name_, 0444, fmt_##name_##_show, NULL)
FMT(event, "config:0-7");
FMT(umask, "config:8-15");
FMT(edge, "config:18");
FMT(inv, "config:23");
FMT(cmask, "config:24-31");

#define EVT(name_, text_)                                                        \
	static ssize_t evt_##name_##_show(struct device *d, struct device_attribute *a, char *buf) \
	{                                                                        \
		(void)d, (void)a;                                                \
		return sprintf(buf, "%s\n", text_);                              \
	}                                                                        \
	static struct device_attribute evt_##name_ = { .attr = { .name = NULL, .mode = 0444 }, .show = evt_##name_##_show }
EVT(cycles, "event=0x3c");
EVT(instructions, "event=0xc0");
EVT(ref_cycles, "event=0x00,umask=0x03");

static struct attribute *fmt_attrs[] = { &fmt_event.attr, &fmt_umask.attr, &fmt_edge.attr, &fmt_inv.attr,
					  &fmt_cmask.attr, NULL };
static struct attribute *evt_attrs[] = { &evt_cycles.attr, &evt_instructions.attr, &evt_ref_cycles.attr,
					  NULL };
static const struct attribute_group fmt_group = { .name = "format", .attrs = fmt_attrs };
static const struct attribute_group evt_group = { .name = "events", .attrs = evt_attrs };
static const struct attribute_group *cpu_groups[] = { &fmt_group, &evt_group, NULL };

static struct pmu cpu_pmu = {
	.task_ctx_nr = perf_hw_context,
	.attr_groups = cpu_groups,
	.event_init = cpu_init,
	.add = cpu_add,
	.del = cpu_del,
	.start = cpu_start,
	.stop = cpu_stop,
	.read = cpu_read,
};

int uck_core_pmus_register(void)
{
	int rc;

	evt_cycles.attr.name = "cpu-cycles";
	evt_instructions.attr.name = "instructions";
	evt_ref_cycles.attr.name = "ref-cycles";
	cpus = kcalloc(nr_cpu_ids, sizeof(*cpus), GFP_KERNEL);
	if (!cpus)
		return -ENOMEM;
	if ((rc = perf_pmu_register(&sw_pmu, "software", PERF_TYPE_SOFTWARE)) ||
	    (rc = perf_pmu_register(&cpu_pmu, "cpu", PERF_TYPE_RAW)))
		return rc;
	return 0;
}

void uck_core_pmus_unregister(void)
{
	perf_pmu_unregister(&cpu_pmu);
	perf_pmu_unregister(&sw_pmu);
	kfree(cpus);
	cpus = NULL;
}
