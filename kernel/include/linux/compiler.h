/*
 * linux/compiler.h - the kernel's annotations and compiler helpers, as the
 * uncore driver uses them in user space: section and address-space markers
 * vanish, the rest map onto GCC/Clang built-ins.
 */
#ifndef UCK_LINUX_COMPILER_H
#define UCK_LINUX_COMPILER_H

#define __init
#define __exit
#define __initconst
#define __initdata
#define __read_mostly
#define __iomem
#define __user
#define __force
#define __must_check __attribute__((warn_unused_result))
#define __maybe_unused __attribute__((unused))
#define __always_unused __attribute__((unused))
#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#define noinline __attribute__((noinline))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define barrier() __asm__ __volatile__("" ::: "memory")
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define fallthrough __attribute__((__fallthrough__))

#endif
