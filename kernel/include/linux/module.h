/*
 * linux/module.h - a module's init and exit become the layer's entry points
 * (uck_module_init/uck_module_exit, called by uck_boot and uck_shutdown);
 * parameters are plain variables, set before init (uck_set_param).
 */
#ifndef UCK_LINUX_MODULE_H
#define UCK_LINUX_MODULE_H

#include <linux/kernel.h>

struct module;
#define THIS_MODULE ((struct module *)0)
#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_PARM_DESC(name, text)
#define MODULE_DEVICE_TABLE(type, name)
#define EXPORT_SYMBOL(x)
#define EXPORT_SYMBOL_GPL(x)
#define module_param(name, type, perm) bool *const uck_param_##name = &(name)
#define module_init(fn) int (*const uck_module_init)(void) = (fn)
#define module_exit(fn) void (*const uck_module_exit)(void) = (fn)
#define device_initcall(fn) module_init(fn)

#endif
