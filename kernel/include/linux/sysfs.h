/*
 * linux/sysfs.h - attributes and attribute groups, which linux/device.h
 * defines (arch/x86/events/probe.h includes this one).  The kernel's reaches
 * asm/msr.h through its own includes, and probe.c relies on that.
 */
#ifndef UCK_LINUX_SYSFS_H
#define UCK_LINUX_SYSFS_H

#include <linux/device.h>
#include <asm/msr.h>

#endif
