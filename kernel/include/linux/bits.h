/*
 * linux/bits.h - BIT, BIT_ULL and GENMASK, which linux/kernel.h defines
 * (asm/msr-index.h and probe.c include this one).
 */
#ifndef UCK_LINUX_BITS_H
#define UCK_LINUX_BITS_H

#include <linux/kernel.h>

#endif
