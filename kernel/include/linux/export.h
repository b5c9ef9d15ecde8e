/*
 * linux/export.h - EXPORT_SYMBOL and its kin, which linux/module.h defines
 * (probe.c includes this one): every symbol of the layer's kernel is one
 * program's.
 */
#ifndef UCK_LINUX_EXPORT_H
#define UCK_LINUX_EXPORT_H

#include <linux/module.h>

#endif
