/*
 * uct_src.c - the trace readers' input: a FILE (its first bytes peeked for
 * the format check and served again; a spool, when set, keeps a copy of
 * every byte read) or memory.  A byte at a time: uct_src_getc (uct_src.h).
 */
#include <errno.h>
#include <string.h>

#include "uct_src.h"

size_t uct_src_read(struct uct_src *s, void *buf, size_t n)
{
	size_t k = 0, got;

	while (k < n && s->plook < s->nlook)
		((unsigned char *)buf)[k++] = s->look[s->plook++];
	if (!s->f) {
		got = n - k > s->len - s->pos ? s->len - s->pos : n - k;
		memcpy((unsigned char *)buf + k, s->mem + s->pos, got);
		s->pos += got;
		return k + got;
	}
	got = n > k ? fread((unsigned char *)buf + k, 1, n - k, s->f) : 0;
	if (got < n - k && ferror(s->f) && !s->rd_errno)
		s->rd_errno = errno ? errno : EIO;
	if (got && s->spool)
		fwrite((unsigned char *)buf + k, 1, got, s->spool);
	return k + got;
}

/* The first bytes, without consuming them. */
size_t uct_src_peek(struct uct_src *s, const unsigned char **p)
{
	if (!s->f) {
		*p = s->mem;
		return s->len < sizeof(s->look) ? s->len : sizeof(s->look);
	}
	if (!s->nlook) {
		s->nlook = fread(s->look, 1, sizeof(s->look), s->f);
		if (s->nlook < sizeof(s->look) && ferror(s->f))
			s->rd_errno = errno ? errno : EIO;
		if (s->nlook && s->spool)
			fwrite(s->look, 1, s->nlook, s->spool);
	}
	*p = s->look;
	return s->nlook;
}
