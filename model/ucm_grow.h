/*
 * ucm_grow.h - arrays that grow with what a run defines: the model's phase
 * and box vector tables (ucm_phase_def.c), the trace reader's vector
 * dictionary and block buffer (trace/uct_vdict.c, trace/uct_bin.c).
 *
 * realloc grows a heap block by copying it into fresh memory, so every
 * page of such an array was copied and faulted in again at each doubling
 * (a fault costs about 1 us), and the callers then cleared the new half
 * they had not used yet.  Here an array of UCM_GROW_MAP bytes or more is
 * an anonymous mapping grown by mremap, which moves pages without copying
 * them: a page is faulted in once, when first written, and capacity not
 * yet used costs nothing (a mapping reserves four times the room asked
 * for, so that it seldom needs the system call).  Smaller arrays stay on the heap (a model with a
 * few phases, the fuzzers' many small models: no system calls), and so do
 * all arrays in AddressSanitizer builds, where LeakSanitizer then sees a
 * missing free and ASan an overrun.  Linux only (mremap).
 *
 * Capacity added by a growth reads as zero whatever the backing.  Each
 * array keeps its capacity and backing in a header before it, so arrays
 * grown together need no common capacity: after a failure some may have
 * grown and others not, and growing them again is right for each.
 */
#ifndef UCM_GROW_H
#define UCM_GROW_H

#include <stddef.h>

/* Arrays of at least this many bytes are mappings (outside ASan builds):
 * a page, as smaller heap blocks grow into fresh heap pages as well. */
#define UCM_GROW_MAP ((size_t)4 << 10)

/* Array p (NULL: none yet) with room for at least n elements of `size`
 * bytes: p itself if it has, else grown, the elements it held kept and the
 * rest zero.  Returns the array (perhaps moved), NULL when out of memory
 * or when n * size overflows (p is then unchanged).  Aligned for any
 * element type. */
void *ucm_grow(void *p, size_t size, size_t n);

/* Free an array of ucm_grow (NULL: nothing). */
void ucm_grow_free(void *p);

/* ucm_grow with arrays of map_from bytes or more mapped (SIZE_MAX: none),
 * for the tests of both backings in every build. */
void *ucm_grow_at(void *p, size_t size, size_t n, size_t map_from);

#endif
