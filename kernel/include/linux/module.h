/*
 * linux/module.h - a module's init and exit become the layer's entry points
 * (uck_init_<module>/uck_exit_<module>, called by uck_boot and uck_shutdown);
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
/* one pair a module: its files are built with UCK_MOD=<module>
 * (kernel/CMakeLists.txt), so intel_uncore's init is uck_init_intel_uncore */
#define UCK_PASTE_(a, b) a##b
#define UCK_PASTE(a, b) UCK_PASTE_(a, b)
#define module_init(fn) int (*const UCK_PASTE(uck_init_, UCK_MOD))(void) = (fn)
#define module_exit(fn) void (*const UCK_PASTE(uck_exit_, UCK_MOD))(void) = (fn)
#define device_initcall(fn) module_init(fn)

#endif
