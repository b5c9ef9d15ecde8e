/*
 * uct_reader.c - a trace reader whatever its encoding: opened from a file
 * (for a replay checked whole first, a pipe kept in a temporary copy) or
 * from memory, its encoding told by its first bytes, its segments read by
 * the text reader (uct_text.c) or the binary reader (uct_bin.c), the
 * vectors of text and of the record form numbered here; its errors.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ucm_grow.h"
#include "uct_bin.h"
#include "uct_format.h"
#include "uct_reader.h"
#include "uct_text.h"
#include "uct_vdict.h"

/* file:line:col for text, file:offset for binary */
int uct_rerr(struct uct_reader *r, size_t col, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->binary)
		snprintf(r->err, sizeof(r->err), "%.255s: offset %llu: %.400s", r->name,
			 (unsigned long long)r->off, msg);
	else
		snprintf(r->err, sizeof(r->err), "%.255s:%zu:%zu: %.400s", r->name, r->lineno, col, msg);
	r->failed = 1;
	return -EINVAL;
}

const char *uct_reader_error(const struct uct_reader *r)
{
	return r->err[0] ? r->err : "no error";
}

const struct uct_hdr *uct_header(const struct uct_reader *r)
{
	return &r->hdr;
}

int uct_is_binary(const struct uct_reader *r)
{
	return r->binary;
}

/* A key for a segment's vector read from text or the record form: its
 * inputs by box type and sub-event index (at most 10 bytes a field). */
#define VKEY_MAX (16 + UCT_MAXIN * 10 * (7 + UCM_NATTR))

static size_t vec_key(const struct uct_seg *s, unsigned char *b)
{
	size_t n = 0;

	uct_put_var(b, &n, s->nin);
	for (unsigned i = 0; i < s->nin; i++) {
		const struct uct_in *in = &s->in[i];

		uct_put_var(b, &n, (uint64_t)in->bt << 16 | in->sub);
		uct_put_var(b, &n, in->socket);
		uct_put_var(b, &n, (uint64_t)(in->inst + 1));
		uct_put_var(b, &n, in->inc);
		uct_put_var(b, &n, in->amask);
		for (unsigned a = 0; a < UCM_NATTR; a++)
			if (in->amask >> a & 1)
				uct_put_var(b, &n, in->attr[a]);
	}
	return n;
}

/* ---- open / next / close ---- */

static int open_common(struct uct_reader *r, char *err, size_t n)
{
	const unsigned char *b;
	int rc;

	if (!r->chk && !(r->chk = calloc(1, sizeof(*r->chk))))
		return -ENOMEM;
	/* peek at the magic without consuming it: a pipe cannot rewind */
	r->binary = uct_src_peek(&r->src, &b) == 8 && !memcmp(b, UCT_MAGIC, 8);
	rc = r->binary ? uct_bin_header(r) : uct_text_header(r);
	if (rc) {
		snprintf(err, n, "%s", r->err[0] ? r->err : strerror(-rc));
		return rc;
	}
	return 0;
}

/* The file to read, refused with its name if it cannot be (a directory is
 * not a trace); *regular says whether it can be read again from the start. */
static FILE *open_input(const char *path, int *regular, int *rc, char *err, size_t n)
{
	FILE *f = fopen(path, "rb");
	struct stat st;

	if (!f || fstat(fileno(f), &st)) {
		*rc = -errno;
		snprintf(err, n, "%s: %s", path, strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		*rc = -EISDIR;
		snprintf(err, n, "%s: %s", path, strerror(EISDIR));
		fclose(f);
		return NULL;
	}
	*regular = S_ISREG(st.st_mode);
	return f;
}

static int open_file(const char *path, FILE *f, struct uct_reader **out, char *err, size_t n)
{
	struct uct_reader *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r) {
		fclose(f);
		return -ENOMEM;
	}
	snprintf(r->name, sizeof(r->name), "%s", path);
	r->src.f = f;
	if ((rc = open_common(r, err, n))) {
		uct_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

int uct_open(const char *path, struct uct_reader **out, char *err, size_t n)
{
	int regular, rc = 0;
	FILE *f = open_input(path, &regular, &rc, err, n);

	*out = NULL;
	return f ? open_file(path, f, out, err, n) : rc;
}

int uct_open_checked(const char *path, const volatile sig_atomic_t *stop, struct uct_reader **out,
		     char *err, size_t n)
{
	struct uct_reader *r;
	struct uct_seg *seg = malloc(sizeof(*seg));
	int regular, rc = 0;
	FILE *f = open_input(path, &regular, &rc, err, n), *spool = NULL;

	*out = NULL;
	if (!f || !seg) {
		free(seg);
		if (f)
			fclose(f);
		return f ? -ENOMEM : rc;
	}
	/* a pipe is read once: what the check reads is kept for the replay */
	if (!regular && !(spool = tmpfile())) {
		rc = -errno;
		snprintf(err, n, "%s: a temporary copy of the trace: %s", path, strerror(errno));
		free(seg);
		fclose(f);
		return rc;
	}
	if (!(r = calloc(1, sizeof(*r)))) {
		free(seg);
		fclose(f);
		if (spool)
			fclose(spool);
		return -ENOMEM;
	}
	snprintf(r->name, sizeof(r->name), "%s", path);
	r->src.f = f;
	r->src.spool = spool;
	rc = open_common(r, err, n);
	if (!rc) {
		int vid, full;

		/* every record checked; references to vectors not decoded again;
		 * where the trace ends, for the replay (uct_replay_end_ps) */
		while ((rc = uct_fast_next(r, seg, &vid, &full) ? 1 : uct_next_any(r, seg, 0, &vid, &full)) > 0 &&
		       !(stop && *stop))
			r->end_cycles = seg->start + seg->ncycles;
	}
	/* a signal ends the check (a read it interrupted is no error) */
	if (stop && *stop) {
		rc = -EINTR;
		snprintf(r->err, sizeof(r->err), "%s: interrupted while checking the trace", path);
	}
	if (!rc && spool && (fflush(spool) || ferror(spool))) {
		rc = -EIO;
		snprintf(r->err, sizeof(r->err), "%s: a temporary copy of the trace: %s", path,
			 strerror(errno ? errno : EIO));
	}
	free(seg);
	if (rc) {
		if (r->err[0])
			snprintf(err, n, "%s", r->err);
		uct_close(r); /* closes f */
		if (spool)
			fclose(spool);
		return rc;
	}
	/* the same bytes again, from the start, for the replay */
	{
		uint64_t end = r->end_cycles;

		r->src.f = NULL;
		uct_close(r);
		if (spool) {
			fclose(f);
			f = spool;
		}
		rewind(f);
		if ((rc = open_file(path, f, out, err, n)))
			return rc;
		(*out)->end_cycles = end;
		(*out)->checked = 1;
		return 0;
	}
}

int uct_open_mem(const char *name, const void *buf, size_t len, struct uct_reader **out,
		 char *err, size_t n)
{
	struct uct_reader *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r)
		return -ENOMEM;
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->src.mem = buf;
	r->src.len = len;
	if ((rc = open_common(r, err, n))) {
		uct_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

int uct_next_any(struct uct_reader *r, struct uct_seg *seg, int need, int *vid, int *full)
{
	int rc;

	*vid = -1;
	*full = 1;
	if (r->failed)
		return -EINVAL;
	rc = r->binary ? uct_bin_next(r, seg, need, vid, full) : uct_text_next(r, seg);
	if (rc == 1 && (need & UCT_NEED_VID) && !r->vform) {
		/* text and the record form: identical vectors interned */
		size_t n;
		uint64_t h;

		if ((!r->vd && !(r->vd = calloc(1, sizeof(*r->vd)))) ||
		    (!r->vkey && !(r->vkey = malloc(VKEY_MAX))))
			rc = -ENOMEM;
		else {
			n = vec_key(seg, r->vkey);
			h = uct_vd_hash(r->vkey, n);
			if ((*vid = uct_vd_find(r->vd, r->vkey, n, h)) < 0 &&
			    (*vid = uct_vd_add(r->vd, r->vkey, n, h)) == -ENOMEM)
				rc = -ENOMEM;
		}
	}
	if (rc < 0 && !r->err[0])
		uct_rerr(r, 1, "%s", strerror(-rc));
	return rc;
}

int uct_next(struct uct_reader *r, struct uct_seg *seg)
{
	int vid, full;

	return uct_next_any(r, seg, UCT_NEED_CONTENT, &vid, &full);
}

int uct_next_vec(struct uct_reader *r, struct uct_seg *seg, int content, int *vid, int *full)
{
	if (!content && uct_fast_next(r, seg, vid, full))
		return 1;
	return uct_next_any(r, seg, UCT_NEED_VID | (content ? UCT_NEED_CONTENT : 0), vid, full);
}

unsigned uct_vectors(const struct uct_reader *r)
{
	return r->vd ? r->vd->n : 0;
}

int uct_is_chunked(const struct uct_reader *r)
{
	return r->chunked;
}

int uct_sleep_as_changes(const struct uct_reader *r)
{
	return r->changes;
}

unsigned uct_chunks(const struct uct_reader *r)
{
	return r->cd ? r->cd->n : 0;
}

int uct_is_vector_form(const struct uct_reader *r)
{
	return r->vform;
}

void uct_close(struct uct_reader *r)
{
	if (!r)
		return;
	if (r->src.f)
		fclose(r->src.f);
	free(r->line);
	ucm_grow_free(r->blk);
	free(r->chk);
	if (r->vd)
		uct_vd_free(r->vd);
	free(r->vd);
	if (r->cd)
		uct_vd_free(r->cd);
	free(r->cd);
	free(r->ch);
	free(r->vlisted);
	if (r->pd)
		uct_vd_free(r->pd);
	free(r->pd);
	free(r->cseg);
	free(r->vbuf);
	free(r->vkey);
	free(r);
}
