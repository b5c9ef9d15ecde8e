/*
 * linux/types.h - the kernel's integer and handle types for Linux's uncore
 * driver, compiled in user space against the model (kernel/, docs/linux-driver.md).
 * The uapi part (__u8 .. __u64) comes from the system's <linux/types.h>.
 */
#ifndef UCK_LINUX_TYPES_H
#define UCK_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef unsigned long long u64; /* as the kernel's, for its printk formats */
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef long long s64;
typedef u64 phys_addr_t;
typedef u64 resource_size_t;
typedef unsigned long kernel_ulong_t;
typedef unsigned int gfp_t;
typedef s64 ktime_t;
typedef unsigned short umode_t;

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	s64 counter;
} atomic64_t;

typedef struct {
	s64 counter;
} local64_t;

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

#endif
