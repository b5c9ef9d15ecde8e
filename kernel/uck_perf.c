/*
 * uck_perf.c - the perf core, as far as counting goes: PMU registration
 * and type numbers; perf_event_open's checks, event creation through the
 * PMU's event_init, groups; contexts per PMU and cpu, and per PMU and task,
 * scheduled as Linux 6.1 schedules them (cpu pinned, task pinned, cpu
 * flexible, task flexible; a group goes on whole; after the first flexible
 * group that does not fit the rest wait, and the cpu's timer rotates both
 * contexts every mux interval while one waits); tasks switched in and out
 * as the host says they run, one task a cpu at a time; inheritance at fork
 * (the children's counts summed into the parent event, and added to it
 * when they exit), enable_on_exec, and events that outlive their task;
 * enable, disable, reset and read with the read formats
 * (TOTAL_TIME_ENABLED/RUNNING, ID, GROUP, LOST); close, where a leader's
 * siblings go on as groups of their own; context migration.
 *
 * Our implementation of the behaviour Linux 6.1's kernel/events/core.c has
 * for these (docs/linux-driver.md, "The perf core").  Sampling and the ring
 * buffer are not served: the uncore PMUs refuse sampling themselves, and
 * our core PMUs refuse it.
 */
#include <linux/perf_event.h>
#include <linux/slab.h>

#include "uck_internal.h"

/* Linux's default with HZ=250 (Debian's kernel): PERF_CPU_HRTIMER, 4 ms */
#define MUX_INTERVAL_MS 4
/* perf_event_validate_size: a group's read must fit 16 KiB */
#define READ_SIZE_MAX (16 * 1024)

/* A task of the host's programs (a thread, named by its tid).  The host
 * says when it runs and on which cpu; of the tasks that run on one cpu, the
 * one that started last is on it (the others are preempted), as a cpu runs
 * one task at a time. */
struct task {
	struct list_head node;       /* on tasks */
	int tid, tgid;
	int cpu;                     /* where it runs or last ran, -1: never */
	int wants;                   /* the host says it runs */
	int on;                      /* on its cpu: its contexts are in */
	u64 seq;                     /* when it started running, in order */
	int dead;
};

struct ctx {
	struct list_head node;       /* on the list of contexts */
	struct pmu *pmu;
	int cpu;                     /* a cpu context's cpu; -1: a task's */
	struct task *task;           /* NULL: a cpu context */
	struct list_head groups;     /* leaders, in the order they were added */
	int disable_count;
	int rotate_necessary;
	/* a task context's time, which runs while its task is on a cpu (the
	 * kernel's ctx->time): time at tstamp */
	u64 time, tstamp;
	struct hrtimer mux;          /* a cpu context's rotation */
};

struct ev {
	struct perf_event e;
	struct list_head group_node; /* a leader: on its context's groups */
	struct ctx *ctx;
	int handle;                  /* 0: inherited, no descriptor */
	/* inheritance: an inherited event's original (parent), an original's
	 * inherited events alive, and what those that exited counted */
	struct ev *parent;
	struct list_head children;
	struct list_head child_node;
	u64 child_count, child_enabled, child_running;
};

static LIST_HEAD(pmus);
/* The time, read once at each entry into the core: as the kernel's
 * ctx->time, it does not run while one operation goes on, so an event
 * installed and scheduled in one call has its enabled and running times
 * equal. */
static u64 ctx_now;
static LIST_HEAD(ctxs);
static LIST_HEAD(tasks);
static struct task **cur;            /* the task on each cpu, NULL: none */
static u64 task_seq;
static int next_type = PERF_TYPE_MAX;
static struct ev **evs;              /* by handle */
static int nevs, capevs;
static u64 next_id;

static struct ev *ev_of(struct perf_event *e)
{
	return container_of(e, struct ev, e);
}

/* the cpu a context is scheduled on: a cpu context's, or the cpu its task
 * is on; -1: a task context whose task is not on a cpu */
static int ctx_cpu(const struct ctx *c)
{
	if (!c->task)
		return c->cpu;
	return c->task->on ? c->task->cpu : -1;
}

static void pmu_disable(struct ctx *c)
{
	if (!c->disable_count++ && c->pmu->pmu_disable)
		UCK_ON_CPU((unsigned)ctx_cpu(c), c->pmu->pmu_disable(c->pmu));
}

static void pmu_enable(struct ctx *c)
{
	if (!--c->disable_count && c->pmu->pmu_enable)
		UCK_ON_CPU((unsigned)ctx_cpu(c), c->pmu->pmu_enable(c->pmu));
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
	if (!c->task)
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

/* A context's time: the machine's for a cpu context; for a task's, the
 * time its task has been on a cpu. */
static u64 ctx_time(const struct ctx *c)
{
	if (!c->task)
		return ctx_now;
	return c->time + (c->task->on ? ctx_now - c->tstamp : 0);
}

static void update_times(struct perf_event *e)
{
	u64 now = ctx_time(ev_of(e)->ctx), d = now - e->tstamp;

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
	UCK_ON_CPU((unsigned)ctx_cpu(c), rc = e->pmu->add(e, PERF_EF_START));
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
	UCK_ON_CPU((unsigned)ctx_cpu(c), e->pmu->del(e, 0));
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

	if (ctx_cpu(c) < 0)
		return;
	pmu_disable(c);
	event_sched_out(c, leader);
	for_each_sibling_event(s, leader)
		event_sched_out(c, s);
	pmu_enable(c);
}

static enum hrtimer_restart mux_fire(struct hrtimer *t);

static struct ctx *ctx_find(struct pmu *pmu, int cpu, struct task *task)
{
	struct ctx *c;

	list_for_each_entry(c, &ctxs, node)
		if (c->pmu == pmu && c->task == task && (task || c->cpu == cpu))
			return c;
	return NULL;
}

static struct ctx *ctx_get(struct pmu *pmu, int cpu, struct task *task)
{
	struct ctx *c = ctx_find(pmu, cpu, task);

	if (c)
		return c;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return NULL;
	c->pmu = pmu;
	c->cpu = task ? -1 : cpu;
	c->task = task;
	INIT_LIST_HEAD(&c->groups);
	if (!task) {
		hrtimer_init(&c->mux, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
		c->mux.function = mux_fire;
	}
	list_add_tail(&c->node, &ctxs);
	return c;
}

/* the context of the task on cpu for pmu, NULL if none */
static struct ctx *task_ctx_on(struct pmu *pmu, int cpu)
{
	return cur && cur[cpu] ? ctx_find(pmu, -1, cur[cpu]) : NULL;
}

/* The mux timer is the cpu's (perf_mux_hrtimer_restart): it rotates the
 * cpu's context and the context of the task on it. */
static void mux_start(struct pmu *pmu, int cpu)
{
	struct ctx *cc = ctx_get(pmu, cpu, NULL);

	if (cc && !hrtimer_active(&cc->mux))
		UCK_ON_CPU((unsigned)cpu, hrtimer_start(&cc->mux, ns_to_ktime(MUX_INTERVAL_MS * NSEC_PER_MSEC),
							HRTIMER_MODE_REL_PINNED));
}

/* One pass over a context's pinned or flexible groups (the kernel's
 * merge_sched_in with its own can_add_hw): after the first group that
 * does not fit, the rest wait for rotation; a pinned group that does not
 * fit goes into error state.  A group for another cpu stays off
 * (event_filter_match). */
static void sched_in_pass(struct ctx *c, int cpu, int pinned)
{
	struct ev *g;
	int can_add = 1;

	pmu_disable(c);
	list_for_each_entry(g, &c->groups, group_node) {
		struct perf_event *e = &g->e;

		if ((int)e->attr.pinned != pinned || e->state != PERF_EVENT_STATE_INACTIVE)
			continue;
		if (e->cpu != -1 && e->cpu != cpu)
			continue;
		if (can_add && !group_sched_in(c, e))
			continue;
		can_add = 0;
		if (pinned) {
			set_state(e, PERF_EVENT_STATE_ERROR);
		} else {
			c->rotate_necessary = 1;
			mux_start(c->pmu, cpu);
		}
	}
	pmu_enable(c);
}

/* perf_event_sched_in: cpu pinned, task pinned, cpu flexible, task
 * flexible */
static void cpu_sched_in(struct pmu *pmu, int cpu)
{
	struct ctx *cc = ctx_find(pmu, cpu, NULL), *tc = task_ctx_on(pmu, cpu), *d = cc ? cc : tc;

	if (!d)
		return;
	pmu_disable(d);
	if (cc)
		sched_in_pass(cc, cpu, 1);
	if (tc)
		sched_in_pass(tc, cpu, 1);
	if (cc)
		sched_in_pass(cc, cpu, 0);
	if (tc)
		sched_in_pass(tc, cpu, 0);
	pmu_enable(d);
}

static void ctx_sched_out(struct ctx *c, int pinned_too)
{
	struct ev *g;

	if (!c || ctx_cpu(c) < 0)
		return;
	pmu_disable(c);
	list_for_each_entry(g, &c->groups, group_node)
		if (pinned_too || !g->e.attr.pinned)
			group_sched_out(c, &g->e);
	pmu_enable(c);
}

/* ctx_resched after a change to context c: the task's groups of the kind
 * out, the cpu's of that kind out for a cpu event (its flexible ones for a
 * pinned task event), then all in again in order. */
static void ctx_resched(struct ctx *c, int pinned)
{
	int cpu = ctx_cpu(c);
	struct ctx *cc, *tc;

	if (cpu < 0)
		return; /* a task that is not on a cpu: in when it is */
	cc = c->task ? ctx_find(c->pmu, cpu, NULL) : c;
	tc = c->task ? c : task_ctx_on(c->pmu, cpu);
	pmu_disable(c);
	ctx_sched_out(tc, pinned);
	if (!c->task)
		ctx_sched_out(cc, pinned);
	else if (pinned)
		ctx_sched_out(cc, 0);
	cpu_sched_in(c->pmu, cpu);
	pmu_enable(c);
}

/* The group a rotation moves (ctx_event_to_rotate): the first flexible
 * group on a counter, or the first flexible one if none is; chosen before
 * the context goes out. */
static struct ev *to_rotate(struct ctx *c)
{
	struct ev *g, *first = NULL;

	list_for_each_entry(g, &c->groups, group_node) {
		if (g->e.attr.pinned)
			continue;
		if (g->e.state == PERF_EVENT_STATE_ACTIVE)
			return g;
		if (!first)
			first = g;
	}
	return first;
}

/* rotate_ctx: that group goes last */
static void rotate(struct ctx *c, struct ev *g)
{
	if (!g)
		return;
	list_del(&g->group_node);
	list_add_tail(&g->group_node, &c->groups);
}

/* The mux interval (perf_rotate_context): the task's flexible groups out
 * (if either context waits), the cpu's if it waits; in each waiting
 * context the first flexible group that was on (or the first flexible
 * one) goes last; all in again.  Stops while nothing waits. */
static enum hrtimer_restart mux_fire(struct hrtimer *t)
{
	struct ctx *c = container_of(t, struct ctx, mux), *tc;
	struct ev *task_ev, *cpu_ev;
	int cpu_rot, task_rot;

	ctx_now = uck_now();
	tc = task_ctx_on(c->pmu, c->cpu);
	cpu_rot = c->rotate_necessary;
	task_rot = tc && tc->rotate_necessary;
	if (!cpu_rot && !task_rot)
		return HRTIMER_NORESTART;
	task_ev = task_rot ? to_rotate(tc) : NULL;
	cpu_ev = cpu_rot ? to_rotate(c) : NULL;
	c->rotate_necessary = 0;
	if (tc)
		tc->rotate_necessary = 0;
	pmu_disable(c);
	if (task_rot || (tc && cpu_rot))
		ctx_sched_out(tc, 0);
	if (cpu_rot)
		ctx_sched_out(c, 0);
	if (task_rot)
		rotate(tc, task_ev);
	if (cpu_rot)
		rotate(c, cpu_ev);
	cpu_sched_in(c->pmu, c->cpu);
	pmu_enable(c);
	if (!c->rotate_necessary && !(tc && tc->rotate_necessary))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(MUX_INTERVAL_MS * NSEC_PER_MSEC));
	return HRTIMER_RESTART;
}

/* ---- tasks ---- */

static struct task *task_find(int tid)
{
	struct task *t;

	list_for_each_entry(t, &tasks, node)
		if (t->tid == tid && !t->dead)
			return t;
	return NULL;
}

/* A software event of the task's and the cpu's contexts that is on counts
 * one more (perf_sw_event: context switches, migrations). */
static void sw_emit(struct task *t, int cpu, u64 config)
{
	struct ctx *c;

	list_for_each_entry(c, &ctxs, node) {
		struct ev *g;

		if (c->pmu->type != PERF_TYPE_SOFTWARE || (c->task ? c->task != t : c->cpu != cpu))
			continue;
		list_for_each_entry(g, &c->groups, group_node) {
			struct perf_event *e = &g->e, *s;

			if (e->state == PERF_EVENT_STATE_ACTIVE && e->attr.config == config)
				local64_add(1, &e->count);
			for_each_sibling_event(s, e)
				if (s->state == PERF_EVENT_STATE_ACTIVE && s->attr.config == config)
					local64_add(1, &s->count);
		}
	}
}

/* The task goes on its cpu (perf_event_context_sched_in for each of its
 * contexts): the contexts' time runs from now; a context with pinned
 * groups takes the cpu's flexible ones out first, so that the order is
 * kept. */
static void task_in(struct task *t, int cpu)
{
	int migrated = t->cpu >= 0 && t->cpu != cpu;
	struct ctx *c;

	t->cpu = cpu;
	t->on = 1;
	cur[cpu] = t;
	list_for_each_entry(c, &ctxs, node) {
		struct ev *g;
		int pinned = 0;

		if (c->task != t)
			continue;
		c->tstamp = ctx_now;
		list_for_each_entry(g, &c->groups, group_node)
			pinned |= g->e.attr.pinned;
		if (pinned)
			ctx_sched_out(ctx_find(c->pmu, cpu, NULL), 0);
		cpu_sched_in(c->pmu, cpu);
	}
	if (migrated)
		sw_emit(t, cpu, PERF_COUNT_SW_CPU_MIGRATIONS);
}

/* The task leaves its cpu; switched: a context switch (it sleeps, blocks
 * or is preempted), counted before its contexts go out. */
static void task_out(struct task *t, int switched)
{
	struct ctx *c;

	if (switched)
		sw_emit(t, t->cpu, PERF_COUNT_SW_CONTEXT_SWITCHES);
	list_for_each_entry(c, &ctxs, node) {
		if (c->task != t)
			continue;
		ctx_sched_out(c, 1);
		c->time += ctx_now - c->tstamp;
	}
	t->on = 0;
	cur[t->cpu] = NULL;
}

/* Of the tasks that run on cpu, the one that started last goes on. */
static void cpu_pick(int cpu)
{
	struct task *t, *best = NULL;

	list_for_each_entry(t, &tasks, node)
		if (!t->dead && t->wants && t->cpu == cpu && (!best || t->seq > best->seq))
			best = t;
	if (best)
		task_in(best, cpu);
}

static void task_stop(struct task *t, int switched)
{
	int cpu = t->cpu;

	t->wants = 0;
	if (!t->on)
		return;
	task_out(t, switched);
	cpu_pick(cpu);
}

int uck_task_run(int tid, int cpu)
{
	struct task *t = task_find(tid);

	ctx_now = uck_now();
	if (!t)
		return -ESRCH;
	if (cpu < 0 || (unsigned)cpu >= nr_cpu_ids)
		return -EINVAL;
	if (t->wants && t->cpu == cpu)
		return 0;
	if (t->wants)
		task_stop(t, 1); /* to another cpu: out here first */
	t->wants = 1;
	t->seq = ++task_seq;
	if (cur[cpu])
		task_out(cur[cpu], 1); /* preempted */
	task_in(t, cpu);
	return 0;
}

int uck_task_stop(int tid, int switched)
{
	struct task *t = task_find(tid);

	ctx_now = uck_now();
	if (!t)
		return -ESRCH;
	task_stop(t, switched);
	return 0;
}

int uck_task_running(int tid)
{
	struct task *t = task_find(tid);

	return t ? t->on : -ESRCH;
}

static void task_put(struct task *t)
{
	struct ctx *c;

	if (!t->dead)
		return;
	list_for_each_entry(c, &ctxs, node)
		if (c->task == t)
			return;
	list_del(&t->node);
	kfree(t);
}

static void ctx_put(struct ctx *c)
{
	struct task *t = c->task;

	if (!t || !t->dead || !list_empty(&c->groups))
		return;
	ctx_free(c);
	task_put(t);
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
		UCK_ON_CPU((unsigned)ctx_cpu(v->ctx), e->pmu->read(e));
	update_times(e);
}

/* __perf_event_read_value: the event's count and times with those of its
 * inherited events, alive and exited */
static u64 value_of(struct perf_event *e, u64 *enabled, u64 *running)
{
	struct ev *v = ev_of(e), *ch;
	u64 n;

	event_read(e);
	n = (u64)local64_read(&e->count) + v->child_count;
	*enabled = e->total_time_enabled + v->child_enabled;
	*running = e->total_time_running + v->child_running;
	list_for_each_entry(ch, &v->children, child_node) {
		event_read(&ch->e);
		n += (u64)local64_read(&ch->e.count);
		*enabled += ch->e.total_time_enabled;
		*running += ch->e.total_time_running;
	}
	return n;
}

static long read_one(struct perf_event *e, u64 *out)
{
	u64 f = e->attr.read_format, en, ru;
	long n = 0;

	out[n++] = value_of(e, &en, &ru);
	if (f & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out[n++] = en;
	if (f & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out[n++] = ru;
	if (f & PERF_FORMAT_ID)
		out[n++] = e->id;
	if (f & PERF_FORMAT_LOST)
		out[n++] = 0;
	return n;
}

static long read_group(struct perf_event *e, u64 *out)
{
	struct perf_event *leader = e->group_leader, *s;
	u64 f = e->attr.read_format, en, ru, x, y, val;
	long n = 0;

	val = value_of(leader, &en, &ru);
	out[n++] = 1 + (u64)leader->nr_siblings;
	if (f & PERF_FORMAT_TOTAL_TIME_ENABLED)
		out[n++] = en;
	if (f & PERF_FORMAT_TOTAL_TIME_RUNNING)
		out[n++] = ru;
	out[n++] = val;
	if (f & PERF_FORMAT_ID)
		out[n++] = leader->id;
	if (f & PERF_FORMAT_LOST)
		out[n++] = 0;
	for_each_sibling_event(s, leader) {
		out[n++] = value_of(s, &x, &y);
		if (f & PERF_FORMAT_ID)
			out[n++] = s->id;
		if (f & PERF_FORMAT_LOST)
			out[n++] = 0;
	}
	return n;
}

/* ---- events ---- */

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

static struct ev *ev_alloc(const struct perf_event_attr *attr, int cpu, struct ev *gl)
{
	struct ev *v = kzalloc(sizeof(*v), GFP_KERNEL);
	struct perf_event *e;

	if (!v)
		return NULL;
	e = &v->e;
	e->attr = *attr;
	e->cpu = cpu;
	e->group_leader = gl ? &gl->e : e;
	INIT_LIST_HEAD(&e->sibling_list);
	INIT_LIST_HEAD(&e->active_entry);
	INIT_LIST_HEAD(&v->group_node);
	INIT_LIST_HEAD(&v->children);
	INIT_LIST_HEAD(&v->child_node);
	e->hw.sample_period = attr->sample_period;
	if (attr->freq && attr->sample_freq)
		e->hw.sample_period = 1;
	e->state = PERF_EVENT_STATE_INACTIVE;
	return v;
}

/* into context c: a leader onto its groups, a sibling into its group */
static void ev_link(struct ev *v, struct ctx *c, struct ev *gl)
{
	v->ctx = c;
	v->e.tstamp = ctx_time(c);
	if (gl) {
		list_add_tail(&v->e.sibling_list, &gl->e.sibling_list);
		gl->e.nr_siblings++;
	} else {
		list_add_tail(&v->group_node, &c->groups);
	}
}

/* out of its context (perf_remove_from_context with DETACH_GROUP): a
 * leader's siblings go on as groups of their own */
static void ev_unlink(struct ev *v)
{
	struct perf_event *e = &v->e, *s, *n;
	struct ctx *c = v->ctx;

	if (e->group_leader == e) {
		group_sched_out(c, e);
		update_times(e);
		list_del_init(&v->group_node);
		list_for_each_entry_safe(s, n, &e->sibling_list, sibling_list) {
			list_del_init(&s->sibling_list);
			s->group_leader = s;
			list_add_tail(&ev_of(s)->group_node, &c->groups);
		}
		e->nr_siblings = 0;
	} else {
		if (ctx_cpu(c) >= 0)
			event_sched_out(c, e);
		update_times(e);
		list_del_init(&e->sibling_list);
		e->group_leader->nr_siblings--;
	}
}

/* an inherited event goes (its original closed) */
static void child_free(struct ev *ch)
{
	struct ctx *c = ch->ctx;

	list_del_init(&ch->child_node);
	ev_unlink(ch);
	kfree(ch);
	ctx_resched(c, 1);
	ctx_put(c);
}

/* inherit_event: a copy of pv (the original's attribute, pv's state) in
 * task t's context, counting into the original */
static struct ev *inherit_one(struct ev *pv, struct task *t, struct ev *gl)
{
	struct ev *top = pv->parent ? pv->parent : pv, *v;
	struct ctx *c;

	v = ev_alloc(&top->e.attr, pv->e.cpu, gl);
	if (!v)
		return NULL;
	if (try_pmu(pv->e.pmu, &v->e) || !(c = ctx_get(pv->e.pmu, -1, t))) {
		kfree(v);
		return NULL;
	}
	v->parent = top;
	list_add_tail(&v->child_node, &top->children);
	v->e.id = top->e.id;
	v->e.state = pv->e.state >= PERF_EVENT_STATE_INACTIVE ? PERF_EVENT_STATE_INACTIVE : PERF_EVENT_STATE_OFF;
	ev_link(v, c, gl);
	return v;
}

/* A new task (fork or clone of parent, 0: none known): the parent's
 * groups whose leader has attr.inherit are copied into it
 * (perf_event_init_task); inherit_thread ones only into its threads. */
int uck_task_new(int tid, int tgid, int parent)
{
	struct task *t, *p;
	struct ctx *c;

	ctx_now = uck_now();
	if (task_find(tid))
		return -EEXIST;
	if (!cur && !(cur = kcalloc(nr_cpu_ids, sizeof(*cur), GFP_KERNEL)))
		return -ENOMEM;
	if (!(t = kzalloc(sizeof(*t), GFP_KERNEL)))
		return -ENOMEM;
	t->tid = tid;
	t->tgid = tgid;
	t->cpu = -1;
	list_add_tail(&t->node, &tasks);
	p = parent ? task_find(parent) : NULL;
	if (!p)
		return 0;
	/* the child's contexts are added at the list's tail, and skipped */
	list_for_each_entry(c, &ctxs, node) {
		struct ev *g;

		if (c->task != p)
			continue;
		list_for_each_entry(g, &c->groups, group_node) {
			struct perf_event *s;
			struct ev *l;

			if (!g->e.attr.inherit || (g->e.attr.inherit_thread && tgid != p->tgid))
				continue;
			if (!(l = inherit_one(g, t, NULL)))
				continue;
			for_each_sibling_event(s, &g->e)
				inherit_one(ev_of(s), t, l);
		}
	}
	return 0;
}

static int exec_one(struct perf_event *e)
{
	if (!e->attr.enable_on_exec)
		return 0;
	e->attr.enable_on_exec = 0;
	if (e->state >= PERF_EVENT_STATE_INACTIVE)
		return 0;
	set_state(e, PERF_EVENT_STATE_INACTIVE);
	return 1;
}

/* perf_event_enable_on_exec: each event of the task's with enable_on_exec
 * loses it and, if off, is enabled; the contexts are scheduled again. */
int uck_task_exec(int tid)
{
	struct task *t = task_find(tid);
	struct ctx *c;

	ctx_now = uck_now();
	if (!t)
		return -ESRCH;
	list_for_each_entry(c, &ctxs, node) {
		struct ev *g;
		int enabled = 0, pinned = 0;

		if (c->task != t)
			continue;
		list_for_each_entry(g, &c->groups, group_node) {
			struct perf_event *s;

			pinned |= g->e.attr.pinned;
			enabled |= exec_one(&g->e);
			for_each_sibling_event(s, &g->e)
				enabled |= exec_one(s);
		}
		if (enabled)
			ctx_resched(c, pinned);
	}
	return 0;
}

/* perf_event_exit_task: the task leaves its cpu; an inherited event adds
 * its count and times to its original's and goes; an event opened on the
 * task stays, in exit state, to be read and closed. */
int uck_task_exit(int tid)
{
	struct task *t = task_find(tid);
	struct ctx *c, *cn;

	ctx_now = uck_now();
	if (!t)
		return -ESRCH;
	task_stop(t, 0);
	list_for_each_entry_safe(c, cn, &ctxs, node) {
		struct ev *g, *gn;

		if (c->task != t)
			continue;
		list_for_each_entry_safe(g, gn, &c->groups, group_node) {
			struct perf_event *s, *sn;

			if (!g->parent) {
				set_state(&g->e, PERF_EVENT_STATE_EXIT);
				for_each_sibling_event(s, &g->e)
					set_state(s, PERF_EVENT_STATE_EXIT);
				continue;
			}
			list_for_each_entry_safe(s, sn, &g->e.sibling_list, sibling_list) {
				struct ev *sv = ev_of(s);

				update_times(s);
				sv->parent->child_count += (u64)local64_read(&s->count);
				sv->parent->child_enabled += s->total_time_enabled;
				sv->parent->child_running += s->total_time_running;
				list_del(&sv->child_node);
				list_del(&s->sibling_list);
				kfree(sv);
			}
			update_times(&g->e);
			g->parent->child_count += (u64)local64_read(&g->e.count);
			g->parent->child_enabled += g->e.total_time_enabled;
			g->parent->child_running += g->e.total_time_running;
			list_del(&g->child_node);
			list_del(&g->group_node);
			kfree(g);
		}
	}
	t->dead = 1;
	list_for_each_entry_safe(c, cn, &ctxs, node)
		if (c->task == t && list_empty(&c->groups))
			ctx_free(c);
	task_put(t);
	return 0;
}

/* ---- the system calls ---- */

int uck_event_open(const struct perf_event_attr *attr, int pid, int cpu, int group,
		   unsigned long flags)
{
	struct ev *v, *gl = NULL;
	struct task *task = NULL;
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
	/* the task, before the event is made (find_lively_task_by_vpid); the
	 * host has turned pid 0 into the caller's */
	if (pid != -1 && !(task = task_find(pid)))
		return -ESRCH;

	v = ev_alloc(attr, cpu, gl);
	if (!v)
		return -ENOMEM;
	e = &v->e;
	rc = init_event(e);
	if (rc)
		goto fail;
	/* a per-task event on a PMU without a task context (every uncore
	 * PMU): find_get_context's -EINVAL */
	if (task && e->pmu->task_ctx_nr < 0) {
		rc = -EINVAL;
		goto fail;
	}
	if (gl) {
		/* both for the same cpu and context (kernel: "grouping events for
		 * different CPUs is broken") */
		if (gl->e.cpu != e->cpu || gl->ctx->pmu != e->pmu || gl->ctx->task != task) {
			rc = -EINVAL;
			goto fail;
		}
	}
	c = ctx_get(e->pmu, e->cpu, task);
	if (!c) {
		rc = -ENOMEM;
		goto fail;
	}
	if (read_size(e) + (gl ? 8u + (e->attr.read_format & PERF_FORMAT_ID ? 8u : 0u) : 0u) >
	    READ_SIZE_MAX) {
		rc = -E2BIG;
		goto fail;
	}
	h = ev_store(v);
	if (h < 0) {
		rc = h;
		goto fail;
	}
	e->id = ++next_id;
	e->state = attr->disabled ? PERF_EVENT_STATE_OFF : PERF_EVENT_STATE_INACTIVE;
	ev_link(v, c, gl);
	/* installed: the context is scheduled again, as ctx_resched does */
	if (e->state == PERF_EVENT_STATE_INACTIVE)
		ctx_resched(c, (int)e->group_leader->attr.pinned);
	return h;

fail:
	/* the PMU may have accepted it; nothing of it is on a box yet (no add) */
	kfree(v);
	return rc;
}

static void enable_one(struct perf_event *e)
{
	if (e->state >= PERF_EVENT_STATE_INACTIVE || e->state < PERF_EVENT_STATE_ERROR)
		return;
	set_state(e, PERF_EVENT_STATE_INACTIVE);
	/* a sibling waits for its group to go on */
	ctx_resched(ev_of(e)->ctx, (int)e->group_leader->attr.pinned);
}

static void disable_one(struct perf_event *e)
{
	struct ctx *c = ev_of(e)->ctx;

	if (e->state < PERF_EVENT_STATE_INACTIVE)
		return;
	if (e == e->group_leader)
		group_sched_out(c, e);
	else if (ctx_cpu(c) >= 0)
		event_sched_out(c, e);
	set_state(e, PERF_EVENT_STATE_OFF);
}

static void reset_one(struct perf_event *e)
{
	event_read(e);
	local64_set(&e->count, 0);
}

/* fn on the event and on its inherited events (perf_event_for_each_child) */
static void for_each_child(struct perf_event *e, void (*fn)(struct perf_event *))
{
	struct ev *ch, *n;

	fn(e);
	list_for_each_entry_safe(ch, n, &ev_of(e)->children, child_node)
		fn(&ch->e);
}

static void for_each_member(struct perf_event *e, int group, void (*fn)(struct perf_event *))
{
	struct perf_event *leader = e->group_leader, *s;

	if (!group) {
		for_each_child(e, fn);
		return;
	}
	for_each_child(leader, fn);
	for_each_sibling_event(s, leader)
		for_each_child(s, fn);
}

int uck_event_ioctl(int h, unsigned long req, unsigned long arg, uint64_t *out)
{
	struct ev *v = ev_get(h);
	int group;

	ctx_now = uck_now();
	if (!v)
		return -EBADF;
	group = (arg & PERF_IOC_FLAG_GROUP) != 0;
	switch (req) {
	case PERF_EVENT_IOC_ENABLE:
		for_each_member(&v->e, group, enable_one);
		return 0;
	case PERF_EVENT_IOC_DISABLE:
		for_each_member(&v->e, group, disable_one);
		return 0;
	case PERF_EVENT_IOC_RESET:
		for_each_member(&v->e, group, reset_one);
		return 0;
	case PERF_EVENT_IOC_ID:
		*out = v->e.id;
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
	struct ev *v = ev_get(h), *ch, *n;
	struct ctx *c;

	ctx_now = uck_now();
	if (!v)
		return -EBADF;
	/* its inherited events go with it */
	list_for_each_entry_safe(ch, n, &v->children, child_node)
		child_free(ch);
	c = v->ctx;
	ev_unlink(v);
	evs[h] = NULL;
	kfree(v);
	ctx_resched(c, 1);
	ctx_put(c);
	return 0;
}

/* The events of src move to dst (the driver's cpu for a die went
 * offline): out on src, in on dst, as the kernel's migration does. */
void perf_pmu_migrate_context(struct pmu *pmu, int src, int dst)
{
	struct ctx *from = ctx_get(pmu, src, NULL), *to = ctx_get(pmu, dst, NULL);
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
	cpu_sched_in(pmu, dst);
}

void uck_perf_shutdown(void)
{
	struct task *t, *tn;
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
	list_for_each_entry_safe(t, tn, &tasks, node) {
		list_del(&t->node);
		kfree(t);
	}
	kfree(cur);
	cur = NULL;
	task_seq = 0;
}
