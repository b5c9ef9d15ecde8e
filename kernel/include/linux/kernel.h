/*
 * linux/kernel.h - the kernel's everyday macros for the uncore driver:
 * container_of, array and bit helpers, min/max, the printk family and the
 * WARN family.  Messages go to the layer's kernel log (uck_printk), where the
 * tests and `uncore run`'s report read them; a WARN is counted as a finding.
 */
#ifndef UCK_LINUX_KERNEL_H
#define UCK_LINUX_KERNEL_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <linux/compiler.h>
#include <linux/types.h>

/* the kernel's own error numbers beyond the C library's */
#define ENOTSUPP 524

#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BITS_PER_LONG 64
#define BITS_PER_TYPE(t) (sizeof(t) * 8)
#define BIT(n) (1UL << (n))
#define BIT_ULL(n) (1ULL << (n))
#define GENMASK(h, l) (((~0UL) << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l) (((~0ULL) << (l)) & (~0ULL >> (63 - (h))))
#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
#define BITS_TO_LONGS(n) DIV_ROUND_UP(n, BITS_PER_LONG)
#define PAGE_SIZE 4096UL
#define NSEC_PER_SEC 1000000000L
#define NSEC_PER_MSEC 1000000L
#define NSEC_PER_USEC 1000L
#define U8_MAX 0xFF
#define U16_MAX 0xFFFF
#define U32_MAX 0xFFFFFFFFu
#define U64_MAX 0xFFFFFFFFFFFFFFFFull

#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min_t(t, a, b) ({ t _a = (a); t _b = (b); _a < _b ? _a : _b; })
#define max_t(t, a, b) ({ t _a = (a); t _b = (b); _a > _b ? _a : _b; })

/* a BUG is a finding too; the layer stops the driver's machine there */
void uck_bug(const char *file, int line, const char *cond) __attribute__((noreturn));
#define BUG() uck_bug(__FILE__, __LINE__, "BUG()")
#define BUG_ON(c) do { if (unlikely(c)) uck_bug(__FILE__, __LINE__, #c); } while (0)
#define BUILD_BUG_ON(c) _Static_assert(!(c), "BUILD_BUG_ON: " #c)
#define sizeof_field(t, m) sizeof(((t *)0)->m)
#define struct_size(p, member, n) (sizeof(*(p)) + sizeof((p)->member[0]) * (size_t)(n))

/* log levels, the kernel's KERN_* digits */
#define KERN_ERR "3"
#define KERN_WARNING "4"
#define KERN_INFO "6"
#define KERN_DEBUG "7"

__printf(2, 3) void uck_printk(int level, const char *fmt, ...);
/* A WARN: logged with its place and counted (uck_warnings). */
void uck_warn(const char *file, int line, const char *cond);

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_err(fmt, ...) uck_printk(3, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...) uck_printk(4, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...) uck_printk(6, pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) ({ if (0) uck_printk(7, pr_fmt(fmt), ##__VA_ARGS__); })
#define pr_once_(lvl, fmt, ...) ({ static bool _done; if (!_done) { _done = true; uck_printk(lvl, pr_fmt(fmt), ##__VA_ARGS__); } })
#define pr_warn_once(fmt, ...) pr_once_(4, fmt, ##__VA_ARGS__)
#define pr_info_once(fmt, ...) pr_once_(6, fmt, ##__VA_ARGS__)
#define pr_err_once(fmt, ...) pr_once_(3, fmt, ##__VA_ARGS__)

#define WARN_ON(c) ({ int _c = !!(c); if (unlikely(_c)) uck_warn(__FILE__, __LINE__, #c); unlikely(_c); })
#define WARN_ON_ONCE(c) ({ static bool _w; int _c = !!(c); if (unlikely(_c) && !_w) { _w = true; uck_warn(__FILE__, __LINE__, #c); } unlikely(_c); })
#define WARN(c, fmt, ...) ({ int _c = !!(c); if (unlikely(_c)) { uck_printk(4, fmt, ##__VA_ARGS__); uck_warn(__FILE__, __LINE__, #c); } unlikely(_c); })
#define WARN_ONCE(c, fmt, ...) ({ static bool _w; int _c = !!(c); if (unlikely(_c) && !_w) { _w = true; uck_printk(4, fmt, ##__VA_ARGS__); uck_warn(__FILE__, __LINE__, #c); } unlikely(_c); })

/* sprintf and snprintf are the C library's; these two are the kernel's */
#define scnprintf(buf, n, ...) ({ size_t _n = (n); int _r = snprintf(buf, _n, __VA_ARGS__); _r < 0 ? 0 : ((size_t)_r >= _n ? (_n ? (int)_n - 1 : 0) : _r); })
#define sysfs_emit(buf, ...) scnprintf(buf, PAGE_SIZE, __VA_ARGS__)

int kstrtoul(const char *s, unsigned int base, unsigned long *res);

/* a busy-wait's pause (asm/vdso/processor.h): the layer runs the driver on
 * one thread, so a retry loop never waits on another cpu */
#define cpu_relax() do { } while (0)

#endif
