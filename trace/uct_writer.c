/*
 * uct_writer.c - the trace writers: text, and the binary record and vector
 * forms (vectors numbered and referred to, new ones as chunks, sleep masks
 * as the cores that change), written beside the file and renamed when
 * committed (uct_file.h); every segment checked as a reader checks it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/crc.h>

#include "uct_check.h"
#include "uct_file.h"
#include "uct_format.h"
#include "uct_trace.h"
#include "uct_vdict.h"

struct uct_writer {
	FILE *f;
	char path[4096];
	struct uct_file uf;      /* where f writes (uct_file.h) */
	int binary;
	struct uct_hdr hdr;
	uint64_t end, nseg;
	unsigned char *blk;
	size_t blen, brecs;
	unsigned nsym;
	struct { uint8_t bt; uint16_t sub; } sym[4096];
	struct uct_chk *chk;
	int vform;               /* the vector form: vectors numbered, then referred to */
	int chunked;             /* a new vector given as chunks */
	int changes;             /* sleep masks as the cores that change */
	int empty;               /* ... or none, once one has changed (flags bit 3) */
	int changed;             /* a record has given a change */
	struct uct_vdict *vd, *cd; /* the vectors, the chunks numbered */
	unsigned char *vtmp;     /* chunked: a new vector's `inputs` encoding */
	uint64_t asleep[UCT_MAXSOCK];  /* vector form: the last sleep masks written */
	char err[768];
};

const char *uct_writer_error(const struct uct_writer *w)
{
	return w->err[0] ? w->err : "no error";
}

static int werr(struct uct_writer *w, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int werr(struct uct_writer *w, int rc, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(w->err, sizeof(w->err), "%.300s: %.400s", w->path, msg);
	return rc;
}

/* The box type of index idx (ucm_boxtype_index) of platform p. */
static const struct ucm_boxtype *bt_at(const struct ucm_platform *p, unsigned idx)
{
	const struct ucm_boxtype *t[UCM_MAXBT];

	uct_bt_table(p, t);
	return idx < UCM_MAXBT ? t[idx] : NULL;
}

static void put_str(unsigned char *b, size_t *n, const char *s)
{
	size_t len = strlen(s);

	uct_put_var(b, n, len);
	memcpy(b + *n, s, len);
	*n += len;
}

/* Sleep masks: nsleep (socket mask)*, increasing sockets, none 0. */
static void put_sleep(unsigned char *b, size_t *n, const uint64_t *asleep, unsigned sockets)
{
	unsigned ns = 0;

	for (unsigned s = 0; s < sockets; s++)
		ns += asleep[s] != 0;
	uct_put_var(b, n, ns);
	for (unsigned s = 0; s < sockets; s++)
		if (asleep[s]) {
			uct_put_var(b, n, s);
			uct_put_var(b, n, asleep[s]);
		}
}

/* Sleep changes: nchg (socket * 64 + core)*, increasing, of the cores
 * whose bit differs between was and now; none (flags bit 3) as a count of
 * two bytes, the length of the usual one change. */
static void put_changes(unsigned char *b, size_t *n, const uint64_t *was, const uint64_t *now,
			unsigned sockets)
{
	unsigned nc = 0;

	for (unsigned s = 0; s < sockets; s++)
		nc += (unsigned)__builtin_popcountll(was[s] ^ now[s]);
	if (!nc) {
		uct_put_var2(b, n, 0);
		return;
	}
	uct_put_var(b, n, nc);
	for (unsigned s = 0; s < sockets; s++)
		for (uint64_t x = was[s] ^ now[s]; x; x &= x - 1)
			uct_put_var(b, n, (uint64_t)s * 64 + (unsigned)__builtin_ctzll(x));
}

static int put_block(struct uct_writer *w, int type, const unsigned char *p, size_t len)
{
	unsigned char h[5] = { (unsigned char)type, (unsigned char)len, (unsigned char)(len >> 8),
			       (unsigned char)(len >> 16), (unsigned char)(len >> 24) };
	uint32_t crc = crc32_gzip_refl(crc32_gzip_refl(0, h, 5), p, len);
	unsigned char t[4] = { (unsigned char)crc, (unsigned char)(crc >> 8), (unsigned char)(crc >> 16),
			       (unsigned char)(crc >> 24) };

	if (fwrite(h, 1, 5, w->f) != 5 || fwrite(p, 1, len, w->f) != len || fwrite(t, 1, 4, w->f) != 4)
		return werr(w, -EIO, "write failed: %s", strerror(errno));
	return 0;
}

/* Segment blocks start with their record count, patched in on flush. */
static int flush_segs(struct uct_writer *w)
{
	unsigned char *out;
	size_t n = 0;
	int rc;

	if (!w->brecs)
		return 0;
	out = malloc(w->blen + 16);
	if (!out)
		return -ENOMEM;
	uct_put_var(out, &n, w->brecs);
	memcpy(out + n, w->blk, w->blen);
	rc = put_block(w, 'S', out, n + w->blen);
	free(out);
	w->blen = w->brecs = 0;
	return rc;
}

int uct_writer_open(const char *path, int binary, const struct uct_hdr *h,
		    struct uct_writer **out, char *err, size_t n)
{
	struct uct_writer *w = calloc(1, sizeof(*w));
	const struct ucm_platform *p = h->plat;
	int rc;

	*out = NULL;
	if (!w || !(w->blk = malloc(UCT_MAXBLOCK)) || !(w->chk = calloc(1, sizeof(*w->chk)))) {
		if (w)
			free(w->blk);
		free(w);
		return -ENOMEM;
	}
	w->binary = binary != UCT_TEXT;
	w->vform = binary == UCT_BINARY || binary == UCT_BINARY_VECTORS;
	w->chunked = w->changes = w->empty = binary == UCT_BINARY;
	w->hdr = *h;
	if (!w->hdr.sockets)
		w->hdr.sockets = 1;
	w->hdr.version = uct_version_of(h);
	/* what a reader would refuse is not written */
	if (w->hdr.version > UCT_VERSION || w->hdr.sockets > UCT_MAXSOCK ||
	    w->hdr.sockets > p->max_sockets) {
		snprintf(err, n, "%s: cannot write version %u with %u sockets (this build writes 1 to %d; %s has 1..%u sockets)",
			 path, w->hdr.version, w->hdr.sockets, UCT_VERSION, p->name, p->max_sockets);
		free(w->chk);
		free(w->blk);
		free(w);
		return -EINVAL;
	}
	snprintf(w->path, sizeof(w->path), "%s", path);
	if ((rc = uct_file_open(&w->uf, path, err, n))) {
		free(w->chk);
		free(w->blk);
		free(w);
		return -EIO; /* a file error, not a usage error */
	}
	w->f = w->uf.f;
	if (binary) {
		unsigned char m[12] = { 'U', 'C', 'T', 'R', 'A', 'C', 'E', 0, (unsigned char)w->hdr.version,
					0, (unsigned char)((w->vform ? UCT_FLAG_VECTORS : 0) |
							   (w->chunked ? UCT_FLAG_CHUNKS : 0) |
							   (w->changes ? UCT_FLAG_CHANGES : 0) |
							   (w->empty ? UCT_FLAG_EMPTY : 0)), 0 };
		size_t k = 0;
		unsigned nb = 0;

		fwrite(m, 1, 12, w->f);
		put_str(w->blk, &k, p->name);
		uct_put_var(w->blk, &k, w->hdr.sockets);
		uct_put_var(w->blk, &k, p->nclocks);
		for (unsigned i = 0; i < p->nclocks; i++)
			uct_put_var(w->blk, &k, h->clock_hz[i]);
		uct_put_var(w->blk, &k, h->seed);
		for (unsigned i = 0; i < UCM_MAXBT; i++)
			nb += h->ninst[i] != 0;
		uct_put_var(w->blk, &k, nb);
		for (unsigned i = 0; i < UCM_MAXBT; i++)
			if (h->ninst[i]) {
				put_str(w->blk, &k, bt_at(p, i)->name);
				uct_put_var(w->blk, &k, h->ninst[i]);
			}
		if (put_block(w, 'H', w->blk, k)) {
			snprintf(err, n, "%s", w->err);
			uct_writer_abort(w);
			return -EIO;
		}
	} else {
		int any = 0;

		fprintf(w->f, "uncore-trace %u\nplatform %s\n", w->hdr.version, p->name);
		if (w->hdr.sockets != 1)
			fprintf(w->f, "sockets %u\n", w->hdr.sockets);
		for (unsigned i = 0; i < p->nclocks; i++)
			if (h->clock_hz[i])
				fprintf(w->f, "clock %s %llu\n", p->clocks[i].name,
					(unsigned long long)h->clock_hz[i]);
		if (h->seed)
			fprintf(w->f, "seed %llu\n", (unsigned long long)h->seed);
		for (unsigned i = 0; i < UCM_MAXBT; i++)
			if (h->ninst[i]) {
				fprintf(w->f, "%s%s=%u", any ? " " : "boxes ", bt_at(p, i)->name, h->ninst[i]);
				any = 1;
			}
		if (any)
			fputc('\n', w->f);
	}
	*out = w;
	return 0;
}

static unsigned symbol(struct uct_writer *w, const struct uct_in *in, unsigned char *y, size_t *yn,
		       unsigned *ny)
{
	char name[96];
	const struct ucm_boxtype *bt = w->chk->bts[in->bt];

	for (unsigned i = 0; i < w->nsym; i++)
		if (w->sym[i].bt == in->bt && w->sym[i].sub == in->sub)
			return i;
	/* new: defined in a symbol block written before the segment */
	put_str(y, yn, bt->name);
	ucm_subev_name(bt, in->sub, name, sizeof(name));
	put_str(y, yn, name);
	(*ny)++;
	w->sym[w->nsym].bt = in->bt;
	w->sym[w->nsym].sub = in->sub;
	return w->nsym++;
}

/* A new vector as chunks: the shortest runs of its inputs such that no
 * socket and box type has inputs in two (most runs are one socket and box
 * type's inputs; where a box type's inputs are interleaved with another's,
 * a run holds both), each a reference to the same run given before or the
 * run itself (numbered, where the dictionary has room, as a reader numbers
 * it).  vb: the vector's `inputs` encoding, input i at ioff[i]. */
static int put_chunks(struct uct_writer *w, const struct uct_seg *seg, const unsigned char *vb,
		      const size_t *ioff, unsigned char *rec, size_t *rn)
{
	unsigned nch = 0, cend[UCT_MAXIN];
	int16_t last[256 * UCM_MAXBT];

	if (!w->cd && !(w->cd = calloc(1, sizeof(*w->cd))))
		return -ENOMEM;
	w->cd->chunks = 1;
	/* each input's socket and box type's last input; a run ends where
	 * none of its inputs' has one after it */
	for (unsigned i = 0; i < seg->nin; i++)
		last[seg->in[i].socket * UCM_MAXBT + seg->in[i].bt] = (int16_t)i;
	for (unsigned i = 0, end = 0; i < seg->nin; i++) {
		unsigned l = (unsigned)last[seg->in[i].socket * UCM_MAXBT + seg->in[i].bt];

		if (l > end)
			end = l;
		if (i == end) {
			cend[nch++] = i + 1;
			end = i + 1;
		}
	}
	uct_put_var(rec, rn, nch);
	for (unsigned q = 0, i = 0, j; q < nch; q++, i = j) {
		unsigned char c[UCT_MAXIN * 64 + 16];
		size_t cn = 0;
		uint64_t h;
		int id;

		j = cend[q];
		uct_put_var(c, &cn, j - i);
		memcpy(c + cn, vb + ioff[i], ioff[j] - ioff[i]);
		cn += ioff[j] - ioff[i];
		h = uct_vd_hash(c, cn);
		if ((id = uct_vd_find(w->cd, c, cn, h)) >= 0) {
			uct_put_var(rec, rn, (uint64_t)id + 1);
		} else {
			if (uct_vd_add(w->cd, c, cn, h) == -ENOMEM)
				return -ENOMEM;
			rec[(*rn)++] = 0;
			memcpy(rec + *rn, c, cn);
			*rn += cn;
		}
	}
	return 0;
}

int uct_write(struct uct_writer *w, const struct uct_seg *seg)
{
	char err[256];
	int rc;

	if (seg->start < w->end)
		return werr(w, -EINVAL, "segment at cycle %llu overlaps the previous one (ends %llu)",
			    (unsigned long long)seg->start, (unsigned long long)w->end);
	if (uct_chk_seg(w->chk, &w->hdr, seg, err, sizeof(err)))
		return werr(w, -EINVAL, "segment %llu: %s", (unsigned long long)w->nseg + 1, err);
	if (w->binary) {
		/* a record: its inputs, or (chunked) a count, a code and three
		 * bytes a chunk, then each new chunk's count and inputs */
		unsigned char y[UCT_MAXIN * 200 + 16],
			rec[UCT_MAXIN * 64 + 48 + 11 * UCT_MAXSOCK + 5 * UCT_MAXIN];
		size_t yn = 0, rn = 0, vn = 0, ioff[UCT_MAXIN + 1];
		unsigned ny = 0;
		unsigned char *vb;
		int id = -1;

		if (w->nsym + seg->nin > 4096)
			return werr(w, -ENOSPC, "more than 4096 distinct sub-events");
		if (w->chunked && !w->vtmp && !(w->vtmp = malloc(UCT_MAXIN * 64 + 16)))
			return -ENOMEM;
		uct_put_var(rec, &rn, seg->start - w->end);
		uct_put_var(rec, &rn, seg->ncycles);
		/* the inputs: after a code (vector form), or in the record;
		 * chunked, apart (they are the vector's identity) */
		vb = w->chunked ? w->vtmp : rec + rn + (w->vform ? 1 : 0);
		uct_put_var(vb, &vn, seg->nin);
		for (unsigned i = 0; i < seg->nin; i++) {
			const struct uct_in *in = &seg->in[i];

			ioff[i] = vn;
			uct_put_var(vb, &vn, symbol(w, in, y, &yn, &ny));
			uct_put_var(vb, &vn, in->socket);
			uct_put_var(vb, &vn, (uint64_t)(in->inst + 1));
			uct_put_var(vb, &vn, in->inc);
			if (w->hdr.version >= 2) {
				uct_put_var(vb, &vn, in->amask);
				for (unsigned a = 0; a < UCM_NATTR; a++)
					if (in->amask >> a & 1)
						uct_put_var(vb, &vn, in->attr[a]);
			}
		}
		if (w->vform) {
			/* the same inputs again (their symbols all defined: ny = 0)
			 * are a reference; new ones are written whole and numbered
			 * if the dictionary has room.  The sleep masks follow when
			 * they differ from the previous record's. */
			uint64_t hv = uct_vd_hash(vb, vn);
			int sl = w->hdr.version >= 2 && memcmp(w->asleep, seg->asleep, sizeof(w->asleep));

			/* once a record has given a sleep change, every record
			 * gives its changes, none if none (flags bit 3): the
			 * records of a C-state trace then alike, where the
			 * reader's branch on the sleep bit went either way at
			 * random (docs/formats.md, "Empty sleep changes") */
			if (sl)
				w->changed = 1;
			else if (w->empty && w->changed)
				sl = 1;

			if (!w->vd && !(w->vd = calloc(1, sizeof(*w->vd))))
				return -ENOMEM;
			if ((id = uct_vd_find(w->vd, vb, vn, hv)) >= 0) {
				/* once a code can take two bytes (vector 63 and
				 * after), every code takes at least two: a reader's
				 * branch on its length then goes the same way at
				 * each record (docs/formats.md, "Vectors") */
				uint64_t code = ((uint64_t)id + 1) << 1 | (unsigned)sl;

				if (w->vd->n > 63)
					uct_put_var2(rec, &rn, code);
				else
					uct_put_var(rec, &rn, code);
			} else {
				if (uct_vd_add(w->vd, vb, vn, hv) == -ENOMEM)
					return -ENOMEM;
				rec[rn++] = (unsigned char)sl;
				ioff[seg->nin] = vn;
				if (!w->chunked)
					rn += vn;
				else if ((rc = put_chunks(w, seg, vb, ioff, rec, &rn)))
					return rc;
			}
			if (sl) {
				if (w->changes)
					put_changes(rec, &rn, w->asleep, seg->asleep, w->hdr.sockets);
				else
					put_sleep(rec, &rn, seg->asleep, w->hdr.sockets);
				memcpy(w->asleep, seg->asleep, sizeof(w->asleep));
			}
		} else {
			if (w->hdr.version >= 2)
				put_sleep(vb, &vn, seg->asleep, w->hdr.sockets);
			rn += vn;
		}
		if (ny) {
			unsigned char hd[16];
			size_t hn = 0;
			unsigned char *blk;

			if ((rc = flush_segs(w)))
				return rc;
			uct_put_var(hd, &hn, ny);
			blk = malloc(hn + yn);
			if (!blk)
				return -ENOMEM;
			memcpy(blk, hd, hn);
			memcpy(blk + hn, y, yn);
			rc = put_block(w, 'Y', blk, hn + yn);
			free(blk);
			if (rc)
				return rc;
		}
		if (w->blen + rn > 65536 && (rc = flush_segs(w)))
			return rc;
		memcpy(w->blk + w->blen, rec, rn);
		w->blen += rn;
		w->brecs++;
	} else {
		char name[96];

		if (seg->start != w->end)
			fprintf(w->f, "@%llu ", (unsigned long long)seg->start);
		if (seg->ncycles == 1)
			fprintf(w->f, "cycle:");
		else
			fprintf(w->f, "run %llu:", (unsigned long long)seg->ncycles);
		for (unsigned i = 0; i < seg->nin; i++) {
			const struct uct_in *in = &seg->in[i];
			const struct ucm_boxtype *bt = w->chk->bts[in->bt];

			fprintf(w->f, "%s ", i ? "," : "");
			if (w->hdr.sockets > 1)
				fprintf(w->f, "s%u.", in->socket);
			fprintf(w->f, "%s", bt->name);
			if (in->inst >= 0)
				fprintf(w->f, "%d", in->inst);
			fprintf(w->f, ".%s=%u", ucm_subev_name(bt, in->sub, name, sizeof(name)), in->inc);
			/* canonical attributes: in enum order, opcodes in hex as the
			 * guide writes them */
			for (unsigned a = 0, k = 0; a < UCM_NATTR; a++)
				if (in->amask >> a & 1)
					fprintf(w->f, a == UCM_AT_OPC || a == UCM_AT_ADDR ? "%s%s=0x%llx" : "%s%s=%llu",
						k++ ? "," : "{", uct_attr_names[a], (unsigned long long)in->attr[a]);
			if (in->amask)
				fputc('}', w->f);
		}
		for (unsigned s = 0, k = seg->nin; s < w->hdr.sockets; s++)
			if (seg->asleep[s]) {
				fprintf(w->f, "%s ", k++ ? "," : "");
				if (w->hdr.sockets > 1)
					fprintf(w->f, "s%u.", s);
				fprintf(w->f, "asleep=0x%llx", (unsigned long long)seg->asleep[s]);
			}
		fputc('\n', w->f);
	}
	w->end = seg->start + seg->ncycles;
	w->nseg++;
	/* errno still tells why the write that set the error flag failed */
	return ferror(w->f) ? werr(w, -EIO, "%s", strerror(errno ? errno : EIO)) : 0;
}

/* What a writer holds besides itself, freed (a failed commit keeps the
 * writer for its error). */
static void writer_free(struct uct_writer *w)
{
	free(w->blk);
	free(w->chk);
	if (w->vd)
		uct_vd_free(w->vd);
	free(w->vd);
	if (w->cd)
		uct_vd_free(w->cd);
	free(w->cd);
	free(w->vtmp);
	w->blk = NULL;
	w->chk = NULL;
	w->vd = w->cd = NULL;
	w->vtmp = NULL;
}

int uct_writer_commit(struct uct_writer *w)
{
	int rc = 0;

	if (w->binary) {
		unsigned char e[32];
		size_t n = 0;

		if (!(rc = flush_segs(w))) {
			uct_put_var(e, &n, w->nseg);
			uct_put_var(e, &n, w->end);
			rc = put_block(w, 'E', e, n);
		}
	}
	if (rc) {
		uct_file_abort(&w->uf);
	} else {
		char e[600];

		if ((rc = uct_file_commit(&w->uf, e, sizeof(e))))
			snprintf(w->err, sizeof(w->err), "%.500s", e);
	}
	w->f = NULL;
	writer_free(w);
	if (!rc)
		free(w);
	return rc;
}

void uct_writer_abort(struct uct_writer *w)
{
	if (!w)
		return;
	uct_file_abort(&w->uf);
	writer_free(w);
	free(w);
}
