/*
 * uct_src.h - the trace readers' input (internal to trace/, not installed;
 * uct_src.c): a FILE or memory, read in order, never whole.
 */
#ifndef UCT_SRC_H
#define UCT_SRC_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>

/* A FILE is read in order only (a pipe cannot rewind): the first bytes
 * are peeked into look[] for the format check and served again.  A spool,
 * when set, receives a copy of every byte read (uct_open_checked). */
struct uct_src {
	FILE *f;
	FILE *spool;
	const unsigned char *mem;
	size_t len, pos;
	unsigned char look[8];
	size_t nlook, plook;
	int rd_errno;            /* a read that failed (not the end of input) */
};

/* The next byte, EOF at the end of input or on a read error (rd_errno); a
 * call per byte of a text trace: inline. */
static inline int uct_src_getc(struct uct_src *s)
{
	int c;

	if (s->plook < s->nlook)
		return s->look[s->plook++];
	if (!s->f)
		return s->pos < s->len ? s->mem[s->pos++] : EOF;
	c = getc_unlocked(s->f); /* one reader a stream: no lock a byte */
	if (c == EOF && ferror(s->f) && !s->rd_errno)
		s->rd_errno = errno ? errno : EIO;
	if (c != EOF && s->spool)
		putc_unlocked(c, s->spool);
	return c;
}

/* Up to n bytes into buf, those peeked first: fewer at the end of input or
 * on a read error (rd_errno). */
size_t uct_src_read(struct uct_src *s, void *buf, size_t n);
/* The first bytes, without consuming them: their number, at *p. */
size_t uct_src_peek(struct uct_src *s, const unsigned char **p);

#endif
