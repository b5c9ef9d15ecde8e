/*
 * linux/perf_event.h - the perf core's structures as a PMU driver sees them:
 * struct pmu (registered with perf_pmu_register), struct perf_event and its
 * hardware state, the add/start/stop flags and the event states.  The user
 * ABI (struct perf_event_attr, PERF_TYPE_*, PERF_FORMAT_*, ioctls) is the
 * system's <linux/perf_event.h>.  The perf core itself is uck_perf.c.
 */
#ifndef UCK_LINUX_PERF_EVENT_H
#define UCK_LINUX_PERF_EVENT_H

#include_next <linux/perf_event.h>

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/spinlock.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <asm/msr.h>
#include <asm/cpu_device_id.h>

struct perf_event;

/* pmu->add / pmu->start / pmu->stop flags */
#define PERF_EF_START 0x01
#define PERF_EF_RELOAD 0x02
#define PERF_EF_UPDATE 0x04

/* hw_perf_event.state */
#define PERF_HES_STOPPED 0x01
#define PERF_HES_UPTODATE 0x02
#define PERF_HES_ARCH 0x04

/* pmu->capabilities */
#define PERF_PMU_CAP_NO_INTERRUPT 0x0001
#define PERF_PMU_CAP_NO_NMI 0x0002
#define PERF_PMU_CAP_AUX_NO_SG 0x0004
#define PERF_PMU_CAP_EXTENDED_REGS 0x0008
#define PERF_PMU_CAP_EXCLUSIVE 0x0010
#define PERF_PMU_CAP_ITRACE 0x0020
#define PERF_PMU_CAP_HETEROGENEOUS_CPUS 0x0040
#define PERF_PMU_CAP_NO_EXCLUDE 0x0080

/* perf_event.event_caps */
#define PERF_EV_CAP_SOFTWARE BIT(0)
#define PERF_EV_CAP_READ_ACTIVE_PKG BIT(1)
#define PERF_EV_CAP_SIBLING BIT(2)

enum perf_event_state {
	PERF_EVENT_STATE_DEAD = -4,
	PERF_EVENT_STATE_EXIT = -3,
	PERF_EVENT_STATE_ERROR = -2,
	PERF_EVENT_STATE_OFF = -1,
	PERF_EVENT_STATE_INACTIVE = 0,
	PERF_EVENT_STATE_ACTIVE = 1,
};

enum perf_event_task_context {
	perf_invalid_context = -1,
	perf_hw_context = 0,
	perf_sw_context,
	perf_nr_task_contexts,
};

struct hw_perf_event_extra {
	u64 config;
	unsigned int reg;
	int alloc;
	int idx;
};

struct hw_perf_event {
	u64 config;
	u64 last_tag;
	unsigned long config_base;
	unsigned long event_base;
	int event_base_rdpmc;
	int idx;
	int last_cpu;
	int flags;
	struct hw_perf_event_extra extra_reg;
	struct hw_perf_event_extra branch_reg;
	int state;
	local64_t prev_count;
	u64 sample_period;
	u64 last_period;
	local64_t period_left;
	u64 interrupts;
};

struct pmu {
	struct list_head entry;          /* the perf core's list of PMUs */
	struct module *module;
	struct device *dev;
	const struct attribute_group **attr_groups;
	const struct attribute_group **attr_update;
	const char *name;
	int type;
	int capabilities;
	int task_ctx_nr;
	int *pmu_disable_count;
	void (*pmu_enable)(struct pmu *pmu);
	void (*pmu_disable)(struct pmu *pmu);
	int (*event_init)(struct perf_event *event);
	void (*event_mapped)(struct perf_event *event, void *mm);
	void (*event_unmapped)(struct perf_event *event, void *mm);
	int (*add)(struct perf_event *event, int flags);
	void (*del)(struct perf_event *event, int flags);
	void (*start)(struct perf_event *event, int flags);
	void (*stop)(struct perf_event *event, int flags);
	void (*read)(struct perf_event *event);
	int (*event_idx)(struct perf_event *event);
	void *uck_priv;                  /* the perf core's per-PMU state */
};

struct perf_event {
	struct list_head sibling_list;   /* a leader: its siblings; a sibling: its place there */
	struct list_head active_entry;   /* the driver's (free-running counters) */
	struct perf_event *group_leader;
	int nr_siblings;
	struct pmu *pmu;
	void *pmu_private;
	enum perf_event_state state;
	unsigned int event_caps;
	int cpu;
	struct perf_event_attr attr;
	struct hw_perf_event hw;
	local64_t count;
	u64 id;
	u64 total_time_enabled;
	u64 total_time_running;
	u64 tstamp;                      /* machine ns of the last time update */
	void *uck_priv;                  /* the perf core's */
};

#define for_each_sibling_event(sibling, event)                                   \
	list_for_each_entry((sibling), &(event)->sibling_list, sibling_list)

static inline bool is_sampling_event(struct perf_event *event)
{
	return event->attr.sample_period != 0;
}

/* An event's sysfs file that holds its encoding ("event=0x02"), shown by
 * perf_event_sysfs_show (uck_sysfs.c) */
struct perf_pmu_events_attr {
	struct device_attribute attr;
	u64 id;
	const char *event_str;
};
ssize_t perf_event_sysfs_show(struct device *dev, struct device_attribute *attr, char *page);
#define PMU_EVENT_ATTR_STRING(_name, _var, _str)                                 \
	static struct perf_pmu_events_attr _var = {                              \
		.attr = __ATTR(_name, 0444, perf_event_sysfs_show, NULL),         \
		.id = 0,                                                          \
		.event_str = _str,                                                \
	}

/* A format file ("config:0-7"): format_attr_<name> */
#define PMU_FORMAT_ATTR_SHOW(_name, _format)                                     \
	static ssize_t _name##_show(struct device *dev, struct device_attribute *attr, char *page) \
	{                                                                         \
		return sprintf(page, _format "\n");                               \
	}
#define PMU_FORMAT_ATTR(_name, _format)                                          \
	PMU_FORMAT_ATTR_SHOW(_name, _format)                                     \
	static struct device_attribute format_attr_##_name = __ATTR_RO(_name)

int perf_pmu_register(struct pmu *pmu, const char *name, int type);
void perf_pmu_unregister(struct pmu *pmu);
void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu);

#endif
