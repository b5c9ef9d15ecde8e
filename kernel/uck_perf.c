/*
 * uck_perf.c - the perf core, as far as counting with cpu-wide events goes:
 * PMU registration and type numbers; perf_event_open's checks, event
 * creation through the PMU's event_init, groups; per-(PMU, cpu) contexts
 * that schedule groups in order, pinned first, and stop at the first
 * flexible group that does not fit, with rotation every mux interval
 * while one is waiting; enable, disable, reset and read with the read
 * formats (TOTAL_TIME_ENABLED/RUNNING, ID, GROUP, LOST); close, where a
 * leader's siblings go on as groups of their own; context migration.
 *
 * Our implementation of the behaviour Linux 6.1's kernel/events/core.c has
 * for these (docs/linux-driver.md, "The perf core").  Sampling, task
 * contexts, inheritance and the ring buffer are not served: the uncore
 * PMUs refuse sampling and per-task events themselves.
 */
#include <linux/perf_event.h>
#include <linux/slab.h>

#include "uck_internal.h"

/* Linux's default with HZ=250 (Debian's kernel): PERF_CPU_HRTIMER, 4 ms */
#define MUX_INTERVAL_MS 4
/* perf_event_validate_size: a group's read must fit 16 KiB */
#define READ_SIZE_MAX (16 * 1024)

struct ctx {
	struct list_head node;       /* on the list of contexts */
	struct pmu *pmu;
	int cpu;
	struct list_head groups;     /* leaders, in the order they were added */
	int disable_count;
	int rotate_necessary;
	struct hrtimer mux;
};

struct ev {
	struct perf_event e;
	struct list_head group_node; /* a leader: on its context's groups */
	struct ctx *ctx;
	int handle;
	unsigned read_size;
};

static LIST_HEAD(pmus);
/* The context's time, read once at each entry into the core: as the
 * kernel's ctx->time, it does not run while one operation goes on, so an
 * event installed and scheduled in one call has its enabled and running
 * times equal. */
static u64 ctx_now;
static LIST_HEAD(ctxs);
static int next_type = PERF_TYPE_MAX;
static struct ev **evs;              /* by handle */
static int nevs, capevs;
static u64 next_id;

static struct ev *ev_of(struct perf_event *e)
{
	return container_of(e, struct ev, e);
}

static void pmu_disable(struct ctx *c)
{
	if (!c->disable_count++ && c->pmu->pmu_disable)
		UCK_ON_CPU((unsigned)c->cpu, c->pmu->pmu_disable(c->pmu));
}

static void pmu_enable(struct ctx *c)
{
	if (!--c->disable_count && c->pmu->pmu_enable)
		UCK_ON_CPU((unsigned)c->cpu, c->pmu->pmu_enable(c->pmu));
}

/* ---- PMUs ---- */

int perf_pmu_register(struct pmu *pmu, const char *name, int type)
{
	struct device *dev;

	if (!name)
		return -EINVAL;
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;
	dev->kobj.name = name;
	dev->driver_data = pmu;
	dev->numa_node = NUMA_NO_NODE;
	pmu->dev = dev;
	pmu->name = name;
	pmu->type = type >= 0 ? type : next_type++;
	list_add_tail(&pmu->entry, &pmus);
	return 0;
}

static void ctx_free(struct ctx *c)
{
	hrtimer_cancel(&c->mux);
	list_del(&c->node);
	kfree(c);
}

void perf_pmu_unregister(struct pmu *pmu)
{
	struct ctx *c, *n;

	list_for_each_entry_safe(c, n, &ctxs, node) {
		if (c->pmu != pmu)
			continue;
		/* the kernel requires every event gone first (module refcount) */
		WARN_ON(!list_empty(&c->groups));
		ctx_free(c);
	}
	list_del(&pmu->entry);
	kfree(pmu->dev);
	pmu->dev = NULL;
}

unsigned uck_npmus(void)
{
	struct pmu *p;
	unsigned n = 0;

	list_for_each_entry(p, &pmus, entry)
		n++;
	return n;
}

struct pmu *uck_pmu_at(unsigned i)
{
	struct pmu *p;

	list_for_each_entry(p, &pmus, entry)
		if (!i--)
			return p;
	return NULL;
}

const char *uck_pmu_name(unsigned i)
{
	struct pmu *p = uck_pmu_at(i);

	return p ? p->name : NULL;
}

int uck_pmu_type(unsigned i)
{
	struct pmu *p = uck_pmu_at(i);

	return p ? p->type : -1;
}

int uck_pmu_find(const char *name)
{
	struct pmu *p;
	int i = 0;

	list_for_each_entry(p, &pmus, entry) {
		if (!strcmp(p->name, name))
			return i;
		i++;
	}
	return -1;
}

int uck_pmu_find_type(int type)
{
	struct pmu *p;
	int i = 0;

	list_for_each_entry(p, &pmus, entry) {
		if (p->type == type)
			return i;
		i++;
	}
	return -1;
}

int uck_pmu_attrs(unsigned i, uck_attr_fn fn, void *ctx)
{
	struct pmu *p = uck_pmu_at(i);

	return p ? uck_sysfs_walk(p, fn, ctx) : -ENOENT;
}

/* ---- time ---- */

static void update_times(struct perf_event *e)
{
	u64 now = ctx_now, d = now - e->tstamp;

	if (e->state >= PERF_EVENT_STATE_INACTIVE)
		e->total_time_enabled += d;
	if (e->state == PERF_EVENT_STATE_ACTIVE)
		e->total_time_running += d;
	e->tstamp = now;
}

static void set_state(struct perf_event *e, enum perf_event_state s)
{
	update_times(e);
	e->state = s;
}

/* ---- scheduling ---- */

static int event_sched_in(struct ctx *c, struct perf_event *e)
{
	int rc;

	if (e->state != PERF_EVENT_STATE_INACTIVE)
		return 0;
	set_state(e, PERF_EVENT_STATE_ACTIVE);
	UCK_ON_CPU((unsigned)c->cpu, rc = e->pmu->add(e, PERF_EF_START));
	if (rc) {
		set_state(e, PERF_EVENT_STATE_INACTIVE);
		return -EAGAIN;
	}
	return 0;
}

static void event_sched_out(struct ctx *c, struct perf_event *e)
{
	if (e->state != PERF_EVENT_STATE_ACTIVE)
		return;
	UCK_ON_CPU((unsigned)c->cpu, e->pmu->del(e, 0));
	set_state(e, PERF_EVENT_STATE_INACTIVE);
}

/* a group goes on whole or not at all */
static int group_sched_in(struct ctx *c, struct perf_event *leader)
{
	struct perf_event *s, *undo;

	if (leader->state == PERF_EVENT_STATE_OFF)
		return 0;
	pmu_disable(c);
	if (event_sched_in(c, leader))
		goto fail;
	for_each_sibling_event(s, leader) {
		if (event_sched_in(c, s)) {
			undo = s;
			for_each_sibling_event(s, leader) {
				if (s == undo)
					break;
				event_sched_out(c, s);
			}
			event_sched_out(c, leader);
			goto fail;
		}
	}
	pmu_enable(c);
	return 0;
fail:
	pmu_enable(c);
	return -EAGAIN;
}

static void group_sched_out(struct ctx *c, struct perf_event *leader)
{
	struct perf_event *s;

	pmu_disable(c);
	event_sched_out(c, leader);
	for_each_sibling_event(s, leader)
		event_sched_out(c, s);
	pmu_enable(c);
}

static enum hrtimer_restart mux_fire(struct hrtimer *t);

static void mux_start(struct ctx *c)
{
	if (!hrtimer_active(&c->mux))
		UCK_ON_CPU((unsigned)c->cpu,
			   hrtimer_start(&c->mux, ns_to_ktime(MUX_INTERVAL_MS * NSEC_PER_MSEC),
					 HRTIMER_MODE_REL_PINNED));
}

/* Pinned groups first, then flexible ones in order; after the first
 * flexible group that does not fit, the rest wait for rotation.  A pinned
 * group that does not fit goes into error state. */
static void ctx_sched_in(struct ctx *c)
{
	struct ev *g;
	int pinned, can_add = 1;

	pmu_disable(c);
	for (pinned = 1; pinned >= 0; pinned--) {
		list_for_each_entry(g, &c->groups, group_node) {
			struct perf_event *e = &g->e;

			if ((int)e->attr.pinned != pinned || e->state != PERF_EVENT_STATE_INACTIVE)
				continue;
			if (can_add && !group_sched_in(c, e))
				continue;
			can_add = 0;
			if (pinned) {
				set_state(e, PERF_EVENT_STATE_ERROR);
			} else {
				c->rotate_necessary = 1;
				mux_start(c);
			}
		}
	}
	pmu_enable(c);
}

static void ctx_sched_out(struct ctx *c, int pinned_too)
{
	struct ev *g;

	pmu_disable(c);
	list_for_each_entry(g, &c->groups, group_node)
		if (pinned_too || !g->e.attr.pinned)
			group_sched_out(c, &g->e);
	pmu_enable(c);
}

static void ctx_resched(struct ctx *c, int pinned)
{
	pmu_disable(c);
	ctx_sched_out(c, pinned);
	ctx_sched_in(c);
	pmu_enable(c);
}

/* The mux interval: take the first flexible group that is on a counter
 * (the first flexible one if none is) off, put it last, and schedule
 * again, as the kernel's ctx_event_to_rotate and rotate_ctx do; stop
 * while nothing is waiting. */
static enum hrtimer_restart mux_fire(struct hrtimer *t)
{
	struct ctx *c = container_of(t, struct ctx, mux);
	struct ev *g, *first = NULL, *active = NULL;

	ctx_now = uck_now();
	if (!c->rotate_necessary)
		return HRTIMER_NORESTART;
	list_for_each_entry(g, &c->groups, group_node) {
		if (g->e.attr.pinned)
			continue;
		if (!first)
			first = g;
		if (g->e.state == PERF_EVENT_STATE_ACTIVE) {
			active = g;
			break;
		}
	}
	if (active)
		first = active;
	c->rotate_necessary = 0;
	pmu_disable(c);
	ctx_sched_out(c, 0);
	if (first) {
		list_del(&first->group_node);
		list_add_tail(&first->group_node, &c->groups);
	}
	ctx_sched_in(c);
	pmu_enable(c);
	if (!c->rotate_necessary)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(MUX_INTERVAL_MS * NSEC_PER_MSEC));
	return HRTIMER_RESTART;
}

static struct ctx *ctx_get(struct pmu *pmu, int cpu)
{
	struct ctx *c;

	list_for_each_entry(c, &ctxs, node)
		if (c->pmu == pmu && c->cpu == cpu)
			return c;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	c->pmu = pmu;
	c->cpu = cpu;
	INIT_LIST_HEAD(&c->groups);
	hrtimer_init(&c->mux, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
	c->mux.function = mux_fire;
	list_add_tail(&c->node, &ctxs);
	return c;
}

/* ---- reading ---- */

static unsigned read_size(const struct perf_event *e)
{
	u64 f = e->attr.read_format;
	unsigned entry = 8, size = 0, nr = 1;

	if (f & PERF_FORMAT_TOTAL_TIME_ENABLED)
		size += 8;
	if (f & PERF_FORMAT_TOTAL_TIME_RUNNING)
		size += 8;
	if (f & PERF_FORMAT_ID)
		entry += 8;
	if (f & PERF_FORMAT_LOST)
		entry += 8;
	if (f & PERF_FORMAT_GROUP) {
		nr += (unsigned)e->group_leader->nr_siblings;
		size += 8;
	}
	return size + entry * nr;
}

/* bring the count up to date: the PMU reads an active event on its cpu */
static void event_read(struct perf_event *e)
{
	struct ev *v = ev_of(e);

	if (e->state == PERF_EVENT_STATE_ACTIVE)
		UCK_ON_CPU((unsigned)v->ctx->cpu, e->pmu->read(e));
	update_times(e);
}

static long read_one(struct perf_event *e, u64 *out)
{
	u64 f = e->attr.read_format;
	long n = 0;

	event_read(e);
	out[n++] = (u64)local64_read(&e->count);
	if (f & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out[n++] = e->total_time_enabled;
	if (f & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out[n++] = e->total_time_running;
	if (f & PERF_FORMAT_ID)
		out[n++] = e->id;
	if (f & PERF_FORMAT_LOST)
		out[n++] = 0;
	return n;
}

static long read_group(struct perf_event *e, u64 *out)
{
	struct perf_event *leader = e->group_leader, *s;
	u64 f = e->attr.read_format;
	long n = 0;

	event_read(leader);
	for_each_sibling_event(s, leader)
		event_read(s);
	out[n++] = 1 + (u64)leader->nr_siblings;
	if (f & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out[n++] = leader->total_time_enabled;
	if (f & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out[n++] = leader->total_time_running;
	out[n++] = (u64)local64_read(&leader->count);
	if (f & PERF_FORMAT_ID)
		out[n++] = leader->id;
	if (f & PERF_FORMAT_LOST)
		out[n++] = 0;
	for_each_sibling_event(s, leader) {
		out[n++] = (u64)local64_read(&s->count);
		if (f & PERF_FORMAT_ID)
			out[n++] = s->id;
		if (f & PERF_FORMAT_LOST)
			out[n++] = 0;
	}
	return n;
}

/* ---- the system calls ---- */

static struct ev *ev_get(int h)
{
	return h > 0 && h < nevs ? evs[h] : NULL;
}

static int ev_store(struct ev *v)
{
	if (nevs == 0)
		nevs = 1; /* handle 0 is never an event */
	if (nevs >= capevs) {
		int cap = capevs ? capevs * 2 : 64;
		struct ev **p = realloc(evs, (size_t)cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		evs = p;
		capevs = cap;
	}
	v->handle = nevs;
	evs[nevs++] = v;
	return v->handle;
}

static bool has_exclude(const struct perf_event_attr *a)
{
	return a->exclude_user || a->exclude_kernel || a->exclude_hv || a->exclude_idle ||
	       a->exclude_host || a->exclude_guest;
}

/* The PMU an event's type names; for a type no PMU registered (the
 * hardware and cache types), each PMU's event_init in turn until one does
 * not answer -ENOENT, as perf_init_event does.  Then the core's own check
 * of the exclusion bits against PERF_PMU_CAP_NO_EXCLUDE. */
static int try_pmu(struct pmu *p, struct perf_event *e)
{
	int rc;

	e->pmu = p;
	rc = p->event_init(e);
	if (rc)
		return rc;
	if ((p->capabilities & PERF_PMU_CAP_NO_EXCLUDE) && has_exclude(&e->attr))
		return -EINVAL;
	return 0;
}

static int init_event(struct perf_event *e)
{
	struct pmu *p;
	int rc;

	list_for_each_entry(p, &pmus, entry)
		if (p->type == (int)e->attr.type)
			return try_pmu(p, e);
	list_for_each_entry(p, &pmus, entry) {
		rc = try_pmu(p, e);
		if (rc != -ENOENT)
			return rc;
	}
	return -ENOENT;
}

int uck_event_open(const struct perf_event_attr *attr, int pid, int cpu, int group,
		   unsigned long flags)
{
	struct ev *v, *gl = NULL;
	struct perf_event *e;
	struct ctx *c;
	int rc, h;

	ctx_now = uck_now();
	if (!uck_k.booted)
		return -ENODEV;
	if (flags & ~(unsigned long)(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT |
				     PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC))
		return -EINVAL;
	/* the attribute's size: the host has copied it and checked that bytes
	 * past what this kernel knows are zero (E2BIG otherwise) */
	if (attr->size && attr->size < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	if (attr->__reserved_1 || attr->__reserved_2 || attr->__reserved_3)
		return -EINVAL;
	if (attr->sample_type & ~(PERF_SAMPLE_MAX - 1))
		return -EINVAL;
	if (attr->read_format & ~(PERF_FORMAT_MAX - 1))
		return -EINVAL;
	if (!attr->freq && (attr->sample_period & (1ULL << 63)))
		return -EINVAL;
	if (flags & PERF_FLAG_PID_CGROUP)
		return -EINVAL; /* no cgroups on the machine's kernel */
	if (pid == -1 && cpu == -1)
		return -EINVAL;
	if (cpu != -1 && (cpu < 0 || (unsigned)cpu >= nr_cpu_ids))
		return -EINVAL;
	if (group != -1 && !(flags & PERF_FLAG_FD_NO_GROUP)) {
		gl = ev_get(group);
		if (!gl)
			return -EBADF;
		/* a group's leader: the event the descriptor names must lead */
		if (gl->e.group_leader != &gl->e)
			return -EINVAL;
	}

	v = kzalloc(sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	e = &v->e;
	e->attr = *attr;
	e->cpu = cpu;
	e->group_leader = gl ? &gl->e : e;
	INIT_LIST_HEAD(&e->sibling_list);
	INIT_LIST_HEAD(&e->active_entry);
	INIT_LIST_HEAD(&v->group_node);
	e->hw.sample_period = attr->sample_period;
	if (attr->freq && attr->sample_freq)
		e->hw.sample_period = 1;
	e->state = PERF_EVENT_STATE_INACTIVE;
	rc = init_event(e);
	if (rc)
		goto fail;
	if (pid != -1) {
		/* a per-task event: the uncore PMUs have no task context (the
		 * kernel's -EINVAL); the core's task contexts are not served
		 * here (docs/linux-driver.md) */
		rc = e->pmu->task_ctx_nr < 0 ? -EINVAL : -EOPNOTSUPP;
		goto fail_init;
	}
	if (gl) {
		/* both for the same cpu and context (kernel: "grouping events for
		 * different CPUs is broken") */
		if (gl->e.cpu != e->cpu || gl->ctx->pmu != e->pmu) {
			rc = -EINVAL;
			goto fail_init;
		}
	}
	c = ctx_get(e->pmu, e->cpu);
	if (!c) {
		rc = -ENOMEM;
		goto fail_init;
	}
	v->ctx = c;
	if (read_size(e) + (gl ? 8u + (e->attr.read_format & PERF_FORMAT_ID ? 8u : 0u) : 0u) >
	    READ_SIZE_MAX) {
		rc = -E2BIG;
		goto fail_init;
	}
	h = ev_store(v);
	if (h < 0) {
		rc = h;
		goto fail_init;
	}
	e->id = ++next_id;
	e->tstamp = ctx_now;
	e->state = attr->disabled ? PERF_EVENT_STATE_OFF : PERF_EVENT_STATE_INACTIVE;
	if (gl) {
		list_add_tail(&e->sibling_list, &gl->e.sibling_list);
		gl->e.nr_siblings++;
	} else {
		list_add_tail(&v->group_node, &c->groups);
	}
	/* installed: the context is scheduled again, as ctx_resched does */
	if (e->state == PERF_EVENT_STATE_INACTIVE)
		ctx_resched(c, (int)e->group_leader->attr.pinned);
	return h;

fail_init:
	/* the PMU accepted it; nothing of it is on a box yet (no add) */
fail:
	kfree(v);
	return rc;
}

static void enable_one(struct perf_event *e)
{
	if (e->state >= PERF_EVENT_STATE_INACTIVE || e->state < PERF_EVENT_STATE_ERROR)
		return;
	set_state(e, PERF_EVENT_STATE_INACTIVE);
}

static void disable_one(struct ctx *c, struct perf_event *e)
{
	if (e->state < PERF_EVENT_STATE_INACTIVE)
		return;
	if (e == e->group_leader)
		group_sched_out(c, e);
	else
		event_sched_out(c, e);
	set_state(e, PERF_EVENT_STATE_OFF);
}

static void reset_one(struct perf_event *e)
{
	event_read(e);
	local64_set(&e->count, 0);
}

int uck_event_ioctl(int h, unsigned long req, unsigned long arg, uint64_t *out)
{
	struct ev *v = ev_get(h);
	struct perf_event *e, *s, *leader;
	int group;

	ctx_now = uck_now();
	if (!v)
		return -EBADF;
	e = &v->e;
	leader = e->group_leader;
	group = (arg & PERF_IOC_FLAG_GROUP) != 0;
	switch (req) {
	case PERF_EVENT_IOC_ENABLE:
		if (group) {
			enable_one(leader);
			for_each_sibling_event(s, leader)
				enable_one(s);
		} else {
			enable_one(e);
		}
		/* a sibling waits for its group to go on */
		ctx_resched(v->ctx, (int)leader->attr.pinned);
		return 0;
	case PERF_EVENT_IOC_DISABLE:
		if (group) {
			for_each_sibling_event(s, leader)
				disable_one(v->ctx, s);
			disable_one(v->ctx, leader);
		} else {
			disable_one(v->ctx, e);
		}
		return 0;
	case PERF_EVENT_IOC_RESET:
		if (group) {
			reset_one(leader);
			for_each_sibling_event(s, leader)
				reset_one(s);
		} else {
			reset_one(e);
		}
		return 0;
	case PERF_EVENT_IOC_ID:
		*out = e->id;
		return 0;
	case PERF_EVENT_IOC_REFRESH:
	case PERF_EVENT_IOC_PERIOD:
		/* both for sampling events only */
		return -EINVAL;
	case PERF_EVENT_IOC_SET_OUTPUT:
		/* no ring buffer to redirect; -1 (none) is accepted, as the
		 * kernel accepts it on an event without one */
		return (long)arg == -1 ? 0 : -EINVAL;
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
		return -EINVAL;
	case PERF_EVENT_IOC_SET_FILTER:
	case PERF_EVENT_IOC_SET_BPF:
	case PERF_EVENT_IOC_QUERY_BPF:
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return -EINVAL;
	default:
		return -ENOTTY;
	}
}

long uck_event_read(int h, void *buf, size_t n)
{
	struct ev *v = ev_get(h);
	u64 vals[READ_SIZE_MAX / 8];
	long k;

	ctx_now = uck_now();
	if (!v)
		return -EBADF;
	/* an event in error state reads as end of file */
	if (v->e.state == PERF_EVENT_STATE_ERROR)
		return 0;
	if (n < read_size(&v->e))
		return -ENOSPC;
	k = (v->e.attr.read_format & PERF_FORMAT_GROUP) ? read_group(&v->e, vals) : read_one(&v->e, vals);
	memcpy(buf, vals, (size_t)k * 8);
	return k * 8;
}

int uck_event_cpu(int h)
{
	struct ev *v = ev_get(h);

	return v ? v->e.cpu : -EBADF;
}

int uck_event_close(int h)
{
	struct ev *v = ev_get(h);
	struct perf_event *e, *s, *n;
	struct ctx *c;

	ctx_now = uck_now();
	if (!v)
		return -EBADF;
	e = &v->e;
	c = v->ctx;
	if (e->group_leader == e) {
		group_sched_out(c, e);
		update_times(e);
		list_del(&v->group_node);
		/* each sibling goes on as a group of its own */
		list_for_each_entry_safe(s, n, &e->sibling_list, sibling_list) {
			list_del_init(&s->sibling_list);
			s->group_leader = s;
			list_add_tail(&ev_of(s)->group_node, &c->groups);
		}
		e->nr_siblings = 0;
	} else {
		event_sched_out(c, e);
		list_del_init(&e->sibling_list);
		e->group_leader->nr_siblings--;
	}
	evs[h] = NULL;
	kfree(v);
	ctx_resched(c, 1);
	return 0;
}

/* The events of src move to dst (the driver's cpu for a die went
 * offline): out on src, in on dst, as the kernel's migration does. */
void perf_pmu_migrate_context(struct pmu *pmu, int src, int dst)
{
	struct ctx *from = ctx_get(pmu, src), *to = ctx_get(pmu, dst);
	struct ev *g, *n;
	struct perf_event *s;

	ctx_now = uck_now();
	if (!from || !to)
		return;
	ctx_sched_out(from, 1);
	list_for_each_entry_safe(g, n, &from->groups, group_node) {
		list_del(&g->group_node);
		g->ctx = to;
		g->e.cpu = dst;
		for_each_sibling_event(s, &g->e) {
			ev_of(s)->ctx = to;
			s->cpu = dst;
		}
		list_add_tail(&g->group_node, &to->groups);
	}
	ctx_sched_in(to);
}

void uck_perf_shutdown(void)
{
	int h;

	for (h = 1; h < nevs; h++)
		if (evs[h])
			uck_event_close(h);
	free(evs);
	evs = NULL;
	nevs = capevs = 0;
	next_id = 0;
	next_type = PERF_TYPE_MAX;
	while (!list_empty(&ctxs))
		ctx_free(list_first_entry(&ctxs, struct ctx, node));
}
