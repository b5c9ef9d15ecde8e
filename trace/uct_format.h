/*
 * uct_format.h - what the binary form's writer and reader share (internal
 * to trace/, not installed): its magic, its largest block, its header's
 * flags and the varints it is written in (docs/formats.md).
 */
#ifndef UCT_FORMAT_H
#define UCT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define UCT_MAGIC "UCTRACE"          /* 7 bytes + NUL */
#define UCT_MAXBLOCK (1u << 20)    /* a block's payload, at most */
/* Binary header flags: bit 0, the vector form (records refer to vectors);
 * bit 1, its new vectors as chunks; bit 2, its sleep masks as the cores
 * whose state changes; bit 3, those changes possibly none (docs/formats.md). */
#define UCT_FLAG_VECTORS 1
#define UCT_FLAG_CHUNKS 2
#define UCT_FLAG_CHANGES 4
#define UCT_FLAG_EMPTY 8 /* sleep changes may be none (with bit 2) */

/* v as a LEB128 varint at b + *n, *n advanced (a call per field the writer
 * writes: inline) */
static inline void uct_put_var(unsigned char *b, size_t *n, uint64_t v)
{
	do {
		b[(*n)++] = (unsigned char)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

/* v as a varint of at least two bytes (LEB128 allows the padding: 0x80 |
 * low seven bits, then the rest) */
static inline void uct_put_var2(unsigned char *b, size_t *n, uint64_t v)
{
	b[(*n)++] = (unsigned char)((v & 0x7F) | 0x80);
	uct_put_var(b, n, v >> 7);
}

#endif
