/*
 * uck_sysfs.c - a PMU's files under /sys/bus/event_source/devices/<pmu>/,
 * made as the kernel's device core makes them: first the event_source
 * bus's own (type, perf_event_mux_interval_ms), then the PMU's attribute
 * groups and its attr_update groups, each file shown by the driver's
 * show() into a page, a group's is_visible() deciding whether it exists;
 * and the show() of PMU_EVENT_ATTR_STRING's event files.
 */
#include <linux/perf_event.h>
#include <linux/slab.h>

#include "uck_internal.h"

static int emit(struct pmu *pmu, const struct attribute_group *g, int idx, uck_attr_fn fn,
		void *ctx)
{
	struct attribute *a = g->attrs[idx];
	struct device_attribute *da = container_of(a, struct device_attribute, attr);
	char path[256], *page;
	ssize_t len;
	int rc;

	if (g->is_visible && !g->is_visible(&pmu->dev->kobj, a, idx))
		return 0;
	if (!da->show)
		return 0;
	page = kzalloc(PAGE_SIZE + 1, GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	len = da->show(pmu->dev, da, page);
	if (len < 0 || (size_t)len > PAGE_SIZE) {
		/* a show() that fails or runs past its page is a driver bug */
		uck_printk(4, "sysfs: %s/%s%s%s: show() returned %zd\n", pmu->name,
			   g->name ? g->name : "", g->name ? "/" : "", a->name, len);
		kfree(page);
		return 0;
	}
	page[len] = '\0';
	snprintf(path, sizeof(path), "%s%s%s", g->name ? g->name : "", g->name ? "/" : "", a->name);
	rc = fn(ctx, path, page);
	kfree(page);
	return rc;
}

static int walk_groups(struct pmu *pmu, const struct attribute_group **gs, uck_attr_fn fn, void *ctx)
{
	int i, rc;

	for (; gs && *gs; gs++)
		for (i = 0; (*gs)->attrs && (*gs)->attrs[i]; i++)
			if ((rc = emit(pmu, *gs, i, fn, ctx)))
				return rc;
	return 0;
}

int uck_sysfs_walk(struct pmu *pmu, uck_attr_fn fn, void *ctx)
{
	char buf[32];
	int rc;

	snprintf(buf, sizeof(buf), "%d\n", pmu->type);
	if ((rc = fn(ctx, "type", buf)))
		return rc;
	/* the core's default mux interval (uck_perf.c), for every PMU */
	if ((rc = fn(ctx, "perf_event_mux_interval_ms", "4\n")))
		return rc;
	if ((rc = walk_groups(pmu, pmu->attr_groups, fn, ctx)))
		return rc;
	return walk_groups(pmu, pmu->attr_update, fn, ctx);
}

/* An event file declared with PMU_EVENT_ATTR_STRING: its encoding.  One
 * without a string shows nothing (the kernel's generic show, for events
 * whose file a PMU fills itself). */
ssize_t perf_event_sysfs_show(struct device *dev, struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *pa = container_of(attr, struct perf_pmu_events_attr, attr);

	(void)dev;
	return pa->event_str ? sysfs_emit(page, "%s\n", pa->event_str) : 0;
}
