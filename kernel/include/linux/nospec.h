/*
 * linux/nospec.h - array_index_nospec for rapl.c and intel/cstate.c: the
 * kernel's clamp against speculative out-of-bounds loads.  The layer runs
 * no untrusted code beside the driver, so the index is returned as it is
 * (the callers have bounds-checked it already).
 */
#ifndef UCK_LINUX_NOSPEC_H
#define UCK_LINUX_NOSPEC_H

#include <linux/kernel.h>

#define array_index_nospec(index, size) (index)

#endif
