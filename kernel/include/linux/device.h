/*
 * linux/device.h - devices, sysfs attributes and bus notifiers, as far as the
 * uncore driver uses them: a PMU's device carries its attribute groups,
 * which the layer renders as /sys/bus/event_source/devices/<pmu>/ files by
 * calling their show() (and is_visible()) callbacks (uck_sysfs.c).
 */
#ifndef UCK_LINUX_DEVICE_H
#define UCK_LINUX_DEVICE_H

#include <sys/stat.h>

#include <linux/kernel.h>

#define S_IRUGO (S_IRUSR | S_IRGRP | S_IROTH)
#define S_IWUSR_ S_IWUSR

struct kobject {
	const char *name;
};

struct attribute {
	const char *name;
	unsigned short mode;
};

struct attribute_group {
	const char *name;
	umode_t (*is_visible)(struct kobject *, struct attribute *, int);
	struct attribute **attrs;
};

struct device_driver {
	const char *name;
};

struct device {
	struct kobject kobj;
	struct device *parent;
	struct device_driver *driver;
	void *driver_data;
	int numa_node;
};

struct device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device *dev, struct device_attribute *attr, char *buf);
	ssize_t (*store)(struct device *dev, struct device_attribute *attr, const char *buf,
			 size_t count);
};

struct dev_ext_attribute {
	struct device_attribute attr;
	void *var;
};

#define __ATTR(_name, _mode, _show, _store)                                      \
	{ .attr = { .name = #_name, .mode = (_mode) }, .show = (_show), .store = (_store) }
#define __ATTR_RO(_name) __ATTR(_name, 0444, _name##_show, NULL)
#define DEVICE_ATTR(_name, _mode, _show, _store)                                 \
	struct device_attribute dev_attr_##_name = __ATTR(_name, _mode, _show, _store)
#define DEVICE_ATTR_RO(_name) struct device_attribute dev_attr_##_name = __ATTR_RO(_name)
#define sysfs_attr_init(a) do { } while (0)
#define ATTRIBUTE_GROUPS(_name)                                                  \
	static const struct attribute_group _name##_group = { .attrs = _name##_attrs }; \
	static const struct attribute_group *_name##_groups[] = { &_name##_group, NULL }

static inline void *dev_get_drvdata(const struct device *d) { return d->driver_data; }
static inline void dev_set_drvdata(struct device *d, void *p) { d->driver_data = p; }
#define kobj_to_dev(k) container_of(k, struct device, kobj)
static inline int dev_to_node(struct device *d) { return d->numa_node; }

/* bus notifiers: the layer's PCI devices are never removed while it runs,
 * so a registered notifier is kept and never called */
#define BUS_NOTIFY_ADD_DEVICE 1
#define BUS_NOTIFY_DEL_DEVICE 2
#define NOTIFY_DONE 0
#define NOTIFY_OK 1
struct notifier_block {
	int (*notifier_call)(struct notifier_block *, unsigned long, void *);
	struct notifier_block *next;
	int priority;
};
struct bus_type {
	const char *name;
};
int bus_register_notifier(struct bus_type *bus, struct notifier_block *nb);
int bus_unregister_notifier(struct bus_type *bus, struct notifier_block *nb);

#endif
