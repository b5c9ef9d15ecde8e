/*
 * uct_trace.c - event trace readers (text and binary, streaming), writers
 * (write beside, then rename) and the replay source for the model.
 * The formats are specified in docs/formats.md.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>

#include "uct_file.h"
#include "uct_trace.h"

#define MAGIC "UCTRACE"          /* 7 bytes + NUL */
#define MAXLINE 65536
#define MAXBLOCK (1u << 20)
#define MAXCYCLES (1ull << 56)

/* ---- input: a FILE or memory, read in order, never whole ---- */

struct src {
	FILE *f;
	const unsigned char *mem;
	size_t len, pos;
};

static int src_getc(struct src *s)
{
	if (s->f)
		return getc(s->f);
	return s->pos < s->len ? s->mem[s->pos++] : EOF;
}

static size_t src_read(struct src *s, void *buf, size_t n)
{
	if (s->f)
		return fread(buf, 1, n, s->f);
	if (n > s->len - s->pos)
		n = s->len - s->pos;
	memcpy(buf, s->mem + s->pos, n);
	s->pos += n;
	return n;
}

struct uct_reader {
	struct src src;
	char name[256];
	int binary;
	struct uct_hdr hdr;
	char err[720];
	int failed;
	/* text */
	char *line;
	size_t lineno;
	int have_pending;        /* the header parse read the first segment line */
	uint64_t end;            /* end of the previous segment, in cycles */
	uint64_t nseg;
	/* binary */
	uint64_t off;            /* file offset, for messages */
	unsigned char *blk;
	size_t blen, bpos, brecs;/* current segment block: length, position, records left */
	unsigned nsym;
	struct { uint8_t bt; uint16_t sub; } sym[4096];
	int ended;
};

static int rerr(struct uct_reader *r, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* file:line:col for text, file:offset for binary */
static int rerr(struct uct_reader *r, size_t col, const char *fmt, ...)
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

void uct_config(const struct uct_hdr *h, struct ucm_config *cfg)
{
	ucm_config_init(cfg, h->plat);
	cfg->sockets = h->sockets;
	memcpy(cfg->clock_hz, h->clock_hz, sizeof(cfg->clock_hz));
	memcpy(cfg->ninst, h->ninst, sizeof(cfg->ninst));
}

/* ---- platform lookups ---- */

static const struct ucm_boxtype *bt_at(const struct ucm_platform *p, unsigned idx)
{
	for (unsigned i = 0; i < p->nboxes; i++)
		if (ucm_boxtype_index(p, p->boxes[i].type) == (int)idx)
			return p->boxes[i].type;
	return NULL;
}

static unsigned ninst_of(const struct uct_hdr *h, unsigned bt)
{
	const struct ucm_boxtype *t = bt_at(h->plat, bt);

	return h->ninst[bt] ? h->ninst[bt] : t ? t->ninst_default : 0;
}

/* Input i against the inputs before it: counting prefixes is enough, as
 * increments only add. */
static int check_input(const struct uct_hdr *h, const struct uct_seg *seg, unsigned i, char *err,
		       size_t n)
{
	const struct uct_in *in = &seg->in[i];
	const struct ucm_boxtype *bt = bt_at(h->plat, in->bt);
	const struct ucm_evcode *ec;
	char name[96];

	if (!bt || in->sub >= ucm_subev_count(bt)) {
		snprintf(err, n, "input %u: no such box type or sub-event", i + 1);
		return -EINVAL;
	}
	if (in->socket >= (h->sockets ? h->sockets : 1)) {
		snprintf(err, n, "socket %u: the trace has %u", in->socket, h->sockets ? h->sockets : 1);
		return -ERANGE;
	}
	if (in->inst >= (int)ninst_of(h, in->bt) || in->inst < -1) {
		snprintf(err, n, "%s%d: the trace has %u %s instances", bt->name, in->inst,
			 ninst_of(h, in->bt), bt->name);
		return -ERANGE;
	}
	ec = ucm_subev_code(bt, in->sub);
	for (unsigned inst = 0; inst < ninst_of(h, in->bt); inst++) {
		uint64_t sum = 0;

		if (in->inst >= 0 && (unsigned)in->inst != inst)
			continue;
		for (unsigned j = 0; j <= i; j++) {
			const struct uct_in *o = &seg->in[j];

			if (o->socket != in->socket || o->bt != in->bt ||
			    (o->inst >= 0 && (unsigned)o->inst != inst) || ucm_subev_code(bt, o->sub) != ec)
				continue;
			if (j < i && o->sub == in->sub && o->inst == in->inst) {
				snprintf(err, n, "%s.%s given twice", bt->name,
					 ucm_subev_name(bt, in->sub, name, sizeof(name)));
				return -EINVAL;
			}
			sum += o->inc;
		}
		if (sum > ec->max_inc) {
			snprintf(err, n, "%s%u %s: %llu per cycle exceeds the event's maximum increment %u (%s)",
				 bt->name, inst, ec->name, (unsigned long long)sum, ec->max_inc, ec->cite);
			return -ERANGE;
		}
	}
	return 0;
}

int uct_seg_check(const struct uct_hdr *h, const struct uct_seg *seg, char *err, size_t n)
{
	if (!seg->ncycles || seg->ncycles > MAXCYCLES) {
		snprintf(err, n, "segment length %llu cycles out of range 1..2^56",
			 (unsigned long long)seg->ncycles);
		return -ERANGE;
	}
	if (seg->nin > UCT_MAXIN) {
		snprintf(err, n, "%u inputs (max %d)", seg->nin, UCT_MAXIN);
		return -ERANGE;
	}
	for (unsigned i = 0; i < seg->nin; i++) {
		int rc = check_input(h, seg, i, err, n);

		if (rc)
			return rc;
	}
	return 0;
}

/* ---- text reader ---- */

static int read_line(struct uct_reader *r)
{
	size_t k = 0;
	int c;

	if (!r->line && !(r->line = malloc(MAXLINE)))
		return -ENOMEM;
	while ((c = src_getc(&r->src)) != EOF && c != '\n') {
		if (k + 1 >= MAXLINE)
			return rerr(r, k + 1, "line longer than %d bytes", MAXLINE - 1);
		if (c == 0)
			return rerr(r, k + 1, "NUL byte in a text trace");
		r->line[k++] = (char)c;
	}
	if (c == EOF && k == 0)
		return 0;
	if (k && r->line[k - 1] == '\r')
		k--;
	r->line[k] = 0;
	r->lineno++;
	/* comments end the line */
	for (size_t i = 0; i < k; i++)
		if (r->line[i] == '#') {
			r->line[i] = 0;
			break;
		}
	return 1;
}

struct cur {
	const char *s, *p;
};

static size_t col(const struct cur *c)
{
	return (size_t)(c->p - c->s) + 1;
}

static void skip(struct cur *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

static size_t word(struct cur *c, const char **w)
{
	size_t n = 0;

	skip(c);
	*w = c->p;
	while (isalnum((unsigned char)c->p[n]) || c->p[n] == '_' || c->p[n] == '-' || c->p[n] == '.')
		n++;
	c->p += n;
	return n;
}

static int number(struct uct_reader *r, struct cur *c, uint64_t max, uint64_t *v, const char *what)
{
	const char *start;
	char *end;

	skip(c);
	start = c->p;
	if (!isdigit((unsigned char)*c->p))
		return rerr(r, col(c), "expected %s (a number)", what);
	errno = 0;
	*v = strtoull(c->p, &end, 0);
	if (errno == ERANGE || *v > max) {
		c->p = start;
		return rerr(r, col(c), "%s %.*s out of range (max %llu)", what, (int)(end - start),
			    start, (unsigned long long)max);
	}
	c->p = end;
	if (isalnum((unsigned char)*c->p) || *c->p == '_')
		return rerr(r, col(c), "junk after %s", what);
	return 0;
}

static int at_end(struct uct_reader *r, struct cur *c)
{
	skip(c);
	if (*c->p)
		return rerr(r, col(c), "unexpected '%c' at end of line", *c->p);
	return 0;
}

static int blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return !*s;
}

/* "cbo0.CACHE_LOOKUP.READ_M=1", optionally "s1." first */
static int parse_input(struct uct_reader *r, struct cur *c, struct uct_in *in)
{
	const struct ucm_platform *p = r->hdr.plat;
	const struct ucm_boxtype *bt = NULL;
	const char *w;
	size_t bn = 0, n;
	uint64_t v;
	int sub;
	char name[128];

	memset(in, 0, sizeof(*in));
	in->inst = -1;
	skip(c);
	if ((*c->p == 's' || *c->p == 'S') && isdigit((unsigned char)c->p[1])) {
		const char *q = c->p + 1;

		while (isdigit((unsigned char)*q))
			q++;
		if (*q == '.') {
			c->p++;
			if (number(r, c, 255, &v, "socket"))
				return -EINVAL;
			if (v >= r->hdr.sockets)
				return rerr(r, col(c) - 1, "socket %llu: the trace has %u", (unsigned long long)v,
					    r->hdr.sockets);
			in->socket = (uint8_t)v;
			c->p++; /* '.' */
		}
	}
	/* the longest box type name that prefixes the word */
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxtype *t = p->boxes[i].type;
		size_t tn = strlen(t->name);

		if (t->nctr && strncasecmp(c->p, t->name, tn) == 0 && tn > bn) {
			bt = t;
			bn = tn;
		}
	}
	if (!bt) {
		n = word(c, &w);
		c->p = w;
		return rerr(r, col(c), "unknown box '%.*s'", (int)(n ? n : 1), w);
	}
	c->p += bn;
	in->bt = (uint8_t)ucm_boxtype_index(p, bt);
	if (isdigit((unsigned char)*c->p)) {
		size_t at = col(c);

		if (number(r, c, 255, &v, "instance"))
			return -EINVAL;
		if (v >= ninst_of(&r->hdr, in->bt))
			return rerr(r, at, "%s%llu: the trace has %u %s instances (0-%u)", bt->name,
				    (unsigned long long)v, ninst_of(&r->hdr, in->bt), bt->name,
				    ninst_of(&r->hdr, in->bt) - 1);
		in->inst = (int16_t)v;
	}
	if (*c->p != '.')
		return rerr(r, col(c), "expected '.' and a sub-event after the box");
	c->p++;
	{
		const char *start = c->p;

		while (*c->p && *c->p != '=' && *c->p != ',' && *c->p != ' ' && *c->p != '\t')
			c->p++;
		n = (size_t)(c->p - start);
		snprintf(name, sizeof(name), "%.*s", (int)n, start);
		sub = n < sizeof(name) ? ucm_subev_find(bt, name) : -1;
		if (sub < 0) {
			c->p = start;
			return rerr(r, col(c), "%s has no sub-event '%s' (see docs/formats.md)", bt->name,
				    name);
		}
	}
	in->sub = (uint16_t)sub;
	skip(c);
	if (*c->p != '=')
		return rerr(r, col(c), "expected '=' and an increment");
	c->p++;
	if (number(r, c, UINT32_MAX, &v, "increment"))
		return -EINVAL;
	in->inc = (uint32_t)v;
	return 0;
}

static int parse_segment(struct uct_reader *r, struct uct_seg *seg)
{
	struct cur c = { r->line, r->line };
	const char *w;
	size_t n, at;
	uint64_t v;
	char err[256];

	memset(seg, 0, offsetof(struct uct_seg, in));
	seg->start = r->end;
	skip(&c);
	if (*c.p == '@') {
		c.p++;
		at = col(&c);
		if (number(r, &c, MAXCYCLES, &v, "start cycle"))
			return -EINVAL;
		if (v < r->end)
			return rerr(r, at,
				    "out-of-order time: segment starts at cycle %llu, before the end of the previous one (%llu)",
				    (unsigned long long)v, (unsigned long long)r->end);
		seg->start = v;
	}
	at = (skip(&c), col(&c));
	n = word(&c, &w);
	if (n == 3 && !strncmp(w, "run", 3)) {
		at = (skip(&c), col(&c));
		if (number(r, &c, MAXCYCLES, &seg->ncycles, "cycle count"))
			return -EINVAL;
		if (!seg->ncycles)
			return rerr(r, at, "a segment lasts at least one cycle");
	} else if (n == 5 && !strncmp(w, "cycle", 5)) {
		seg->ncycles = 1;
	} else {
		return rerr(r, at, "expected 'run N:', 'cycle:' or '@CYCLE' (got '%.*s')",
			    (int)(n ? n : 1), w);
	}
	skip(&c);
	if (*c.p != ':')
		return rerr(r, col(&c), "expected ':' before the inputs");
	c.p++;
	skip(&c);
	while (*c.p) {
		at = col(&c);
		if (seg->nin == UCT_MAXIN)
			return rerr(r, at, "more than %d inputs in one segment", UCT_MAXIN);
		if (parse_input(r, &c, &seg->in[seg->nin]))
			return -EINVAL;
		/* check as we go, so the column points at the input at fault */
		if (check_input(&r->hdr, seg, seg->nin, err, sizeof(err)))
			return rerr(r, at, "%s", err);
		seg->nin++;
		skip(&c);
		if (*c.p == ',') {
			c.p++;
			skip(&c);
			if (!*c.p)
				return rerr(r, col(&c), "expected an input after ','");
		} else if (*c.p) {
			return rerr(r, col(&c), "expected ',' between inputs");
		}
	}
	if (seg->start + seg->ncycles > MAXCYCLES)
		return rerr(r, 1, "trace longer than 2^56 cycles");
	r->end = seg->start + seg->ncycles;
	r->nseg++;
	return 1;
}

static int parse_header(struct uct_reader *r)
{
	int rc, have_platform = 0;

	while ((rc = read_line(r)) > 0) {
		struct cur c = { r->line, r->line };
		const char *w;
		size_t n, at;
		uint64_t v;

		if (blank(r->line))
			continue;
		at = (skip(&c), col(&c));
		n = word(&c, &w);
		if (r->lineno && !r->hdr.sockets) {
			/* the first line names the format and version */
			if (n != 12 || strncmp(w, "uncore-trace", 12))
				return rerr(r, at, "not an uncore event trace: expected 'uncore-trace %d'",
					    UCT_VERSION);
			at = (skip(&c), col(&c));
			if (number(r, &c, 1000000, &v, "version"))
				return -EINVAL;
			if (v != UCT_VERSION)
				return rerr(r, at, "unsupported version %llu (this build reads %d)",
					    (unsigned long long)v, UCT_VERSION);
			r->hdr.sockets = 1;
			if (at_end(r, &c))
				return -EINVAL;
			continue;
		}
		if (n == 8 && !strncmp(w, "platform", 8)) {
			char name[32];

			if (have_platform)
				return rerr(r, at, "platform given twice");
			at = (skip(&c), col(&c));
			n = word(&c, &w);
			snprintf(name, sizeof(name), "%.*s", (int)n, w);
			if (!n || !(r->hdr.plat = ucm_platform_find(name)))
				return rerr(r, at, "unknown platform '%s'", name);
			have_platform = 1;
		} else if (!have_platform) {
			return rerr(r, at, "expected 'platform NAME' after the version line");
		} else if (n == 7 && !strncmp(w, "sockets", 7)) {
			at = (skip(&c), col(&c));
			if (number(r, &c, 255, &v, "socket count"))
				return -EINVAL;
			if (!v || v > r->hdr.plat->max_sockets)
				return rerr(r, at, "%s has 1..%u sockets", r->hdr.plat->name,
					    r->hdr.plat->max_sockets);
			r->hdr.sockets = (unsigned)v;
		} else if (n == 5 && !strncmp(w, "clock", 5)) {
			unsigned k;

			at = (skip(&c), col(&c));
			n = word(&c, &w);
			for (k = 0; k < r->hdr.plat->nclocks; k++)
				if (strlen(r->hdr.plat->clocks[k].name) == n &&
				    !strncmp(r->hdr.plat->clocks[k].name, w, n))
					break;
			if (k == r->hdr.plat->nclocks)
				return rerr(r, at, "%s has no clock '%.*s'", r->hdr.plat->name, (int)n, w);
			at = (skip(&c), col(&c));
			if (number(r, &c, 1000000000000ull, &v, "frequency in Hz"))
				return -EINVAL;
			if (!v)
				return rerr(r, at, "a clock of 0 Hz");
			r->hdr.clock_hz[k] = v;
		} else if (n == 4 && !strncmp(w, "seed", 4)) {
			if (number(r, &c, UINT64_MAX, &r->hdr.seed, "seed"))
				return -EINVAL;
		} else if (n == 5 && !strncmp(w, "boxes", 5)) {
			skip(&c);
			while (*c.p) {
				const struct ucm_boxtype *bt;
				char name[32];
				int bi;

				at = col(&c);
				n = word(&c, &w);
				snprintf(name, sizeof(name), "%.*s", (int)n, w);
				bt = ucm_boxtype_find(r->hdr.plat, name);
				if (!n || !bt || !bt->nctr)
					return rerr(r, at, "no box type '%s'", name);
				if (*c.p != '=')
					return rerr(r, col(&c), "expected '=' and a count");
				c.p++;
				at = col(&c);
				if (number(r, &c, 255, &v, "count"))
					return -EINVAL;
				if (v < bt->ninst_min || v > bt->ninst_max)
					return rerr(r, at, "%s has %u..%u instances", bt->name,
						    bt->ninst_min, bt->ninst_max);
				bi = ucm_boxtype_index(r->hdr.plat, bt);
				r->hdr.ninst[bi] = (unsigned)v;
				skip(&c);
			}
		} else if ((n == 3 && !strncmp(w, "run", 3)) || (n == 5 && !strncmp(w, "cycle", 5)) ||
			   (!n && *w == '@')) {
			r->have_pending = 1;
			return 0;
		} else {
			return rerr(r, at,
				    "unknown header line '%.*s' (expected platform, sockets, clock, seed, boxes, run, cycle or @)",
				    (int)(n ? n : 1), w);
		}
		if (at_end(r, &c))
			return -EINVAL;
	}
	if (rc < 0)
		return rc;
	if (!r->hdr.sockets)
		return rerr(r, 1, "empty file: expected 'uncore-trace %d'", UCT_VERSION);
	if (!have_platform)
		return rerr(r, 1, "no 'platform' line");
	return 0;
}

static int text_next(struct uct_reader *r, struct uct_seg *seg)
{
	int rc;

	for (;;) {
		if (r->have_pending) {
			r->have_pending = 0;
		} else {
			rc = read_line(r);
			if (rc <= 0)
				return rc;
			if (blank(r->line))
				continue;
		}
		return parse_segment(r, seg);
	}
}

/* ---- binary ---- */

/* LEB128 varints inside a block */
static int get_var(struct uct_reader *r, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	for (;;) {
		unsigned char b;

		if (r->bpos >= r->blen)
			return rerr(r, 0, "record runs past the end of its block");
		b = r->blk[r->bpos++];
		if (shift == 63 && (b & 0x7E))
			return rerr(r, 0, "varint overflows 64 bits");
		*v |= (uint64_t)(b & 0x7F) << shift;
		if (!(b & 0x80))
			return 0;
		shift += 7;
		if (shift > 63)
			return rerr(r, 0, "varint longer than 10 bytes");
	}
}

static int get_str(struct uct_reader *r, char *buf, size_t n)
{
	uint64_t len;

	if (get_var(r, &len))
		return -EINVAL;
	if (len >= n || len > r->blen - r->bpos)
		return rerr(r, 0, "string of %llu bytes out of range", (unsigned long long)len);
	memcpy(buf, r->blk + r->bpos, len);
	buf[len] = 0;
	r->bpos += len;
	return 0;
}

/* Read one block: type, u32 length, payload, u32 CRC-32 of all before. */
static int read_block(struct uct_reader *r, int *type)
{
	unsigned char h[5], t[4];
	uint32_t len, crc, want;

	if (src_read(&r->src, h, 5) != 5)
		return rerr(r, 0, "truncated: a block header is missing (no end block)");
	len = (uint32_t)h[1] | (uint32_t)h[2] << 8 | (uint32_t)h[3] << 16 | (uint32_t)h[4] << 24;
	if (len > MAXBLOCK)
		return rerr(r, 0, "corrupt: block length %u exceeds %u", len, MAXBLOCK);
	if (!r->blk && !(r->blk = malloc(MAXBLOCK)))
		return -ENOMEM;
	if (src_read(&r->src, r->blk, len) != len || src_read(&r->src, t, 4) != 4)
		return rerr(r, 0, "truncated inside a block of %u bytes", len);
	crc = (uint32_t)crc32(0L, h, 5);
	crc = (uint32_t)crc32(crc, r->blk, len);
	want = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
	if (crc != want)
		return rerr(r, 0, "corrupt: block checksum 0x%08x, expected 0x%08x", crc, want);
	*type = h[0];
	r->blen = len;
	r->bpos = 0;
	r->off += 9 + len;
	return 0;
}

static int bin_header(struct uct_reader *r)
{
	unsigned char m[12];
	char name[64];
	uint64_t v, n;
	int type;

	if (src_read(&r->src, m, 12) != 12 || memcmp(m, MAGIC, 8))
		return rerr(r, 0, "not an uncore binary trace (bad magic)");
	if ((m[8] | m[9] << 8) != UCT_VERSION)
		return rerr(r, 8, "unsupported version %u (this build reads %d)", m[8] | m[9] << 8,
			    UCT_VERSION);
	if (m[10] | m[11])
		return rerr(r, 10, "unknown flags 0x%04x", m[10] | m[11] << 8);
	r->off = 12;
	if (read_block(r, &type))
		return -EINVAL;
	if (type != 'H')
		return rerr(r, 0, "expected the header block first");
	if (get_str(r, name, sizeof(name)))
		return -EINVAL;
	if (!(r->hdr.plat = ucm_platform_find(name)))
		return rerr(r, 0, "unknown platform '%s'", name);
	if (get_var(r, &v))
		return -EINVAL;
	if (!v || v > r->hdr.plat->max_sockets)
		return rerr(r, 0, "%llu sockets out of range", (unsigned long long)v);
	r->hdr.sockets = (unsigned)v;
	if (get_var(r, &n))
		return -EINVAL;
	if (n > UCM_MAXCLK)
		return rerr(r, 0, "%llu clocks", (unsigned long long)n);
	for (unsigned i = 0; i < n; i++) {
		if (get_var(r, &v))
			return -EINVAL;
		if (v > 1000000000000ull)
			return rerr(r, 0, "clock %u: %llu Hz", i, (unsigned long long)v);
		r->hdr.clock_hz[i] = v;
	}
	if (get_var(r, &r->hdr.seed) || get_var(r, &n))
		return -EINVAL;
	if (n > UCM_MAXBT)
		return rerr(r, 0, "%llu box counts", (unsigned long long)n);
	for (unsigned i = 0; i < n; i++) {
		const struct ucm_boxtype *bt;

		if (get_str(r, name, sizeof(name)) || get_var(r, &v))
			return -EINVAL;
		bt = ucm_boxtype_find(r->hdr.plat, name);
		if (!bt || v < bt->ninst_min || v > bt->ninst_max)
			return rerr(r, 0, "box count %s=%llu invalid", name, (unsigned long long)v);
		r->hdr.ninst[ucm_boxtype_index(r->hdr.plat, bt)] = (unsigned)v;
	}
	if (r->bpos != r->blen)
		return rerr(r, 0, "junk after the header fields");
	r->blen = r->bpos = 0;
	return 0;
}

static int bin_symbols(struct uct_reader *r)
{
	uint64_t n;
	char bn[64], sn[128];

	if (get_var(r, &n))
		return -EINVAL;
	if (n > 4096 - r->nsym)
		return rerr(r, 0, "too many symbols");
	for (unsigned i = 0; i < n; i++) {
		const struct ucm_boxtype *bt;
		int sub;

		if (get_str(r, bn, sizeof(bn)) || get_str(r, sn, sizeof(sn)))
			return -EINVAL;
		bt = ucm_boxtype_find(r->hdr.plat, bn);
		if (!bt || (sub = ucm_subev_find(bt, sn)) < 0)
			return rerr(r, 0, "unknown sub-event %s.%s", bn, sn);
		r->sym[r->nsym].bt = (uint8_t)ucm_boxtype_index(r->hdr.plat, bt);
		r->sym[r->nsym].sub = (uint16_t)sub;
		r->nsym++;
	}
	return r->bpos == r->blen ? 0 : rerr(r, 0, "junk after the symbols");
}

static int bin_next(struct uct_reader *r, struct uct_seg *seg)
{
	uint64_t v, nin;
	char err[256];

	while (!r->brecs) {
		int type;

		if (r->ended)
			return 0;
		if (read_block(r, &type))
			return -EINVAL;
		if (type == 'Y') {
			if (bin_symbols(r))
				return -EINVAL;
		} else if (type == 'S') {
			if (get_var(r, &v))
				return -EINVAL;
			if (!v)
				return rerr(r, 0, "empty segment block");
			r->brecs = v;
		} else if (type == 'E') {
			uint64_t nseg, end;
			unsigned char x;

			if (get_var(r, &nseg) || get_var(r, &end))
				return -EINVAL;
			if (nseg != r->nseg || end != r->end)
				return rerr(r, 0,
					    "end block says %llu segments over %llu cycles; read %llu over %llu",
					    (unsigned long long)nseg, (unsigned long long)end,
					    (unsigned long long)r->nseg, (unsigned long long)r->end);
			if (src_read(&r->src, &x, 1) == 1)
				return rerr(r, 0, "data after the end block");
			r->ended = 1;
			return 0;
		} else {
			return rerr(r, 0, "unknown block type 0x%02x", type);
		}
	}
	memset(seg, 0, offsetof(struct uct_seg, in));
	if (get_var(r, &v))
		return -EINVAL;
	if (v > MAXCYCLES - r->end)
		return rerr(r, 0, "segment start out of range");
	seg->start = r->end + v;
	if (get_var(r, &seg->ncycles) || get_var(r, &nin))
		return -EINVAL;
	if (nin > UCT_MAXIN)
		return rerr(r, 0, "%llu inputs in a segment (max %d)", (unsigned long long)nin, UCT_MAXIN);
	for (unsigned i = 0; i < nin; i++) {
		uint64_t sym, sock, inst, inc;

		if (get_var(r, &sym) || get_var(r, &sock) || get_var(r, &inst) || get_var(r, &inc))
			return -EINVAL;
		if (sym >= r->nsym)
			return rerr(r, 0, "undefined symbol %llu", (unsigned long long)sym);
		if (sock > 255 || inst > 256 || inc > UINT32_MAX)
			return rerr(r, 0, "input field out of range");
		seg->in[i] = (struct uct_in){ (uint8_t)sock, r->sym[sym].bt, (int16_t)((int)inst - 1),
					      r->sym[sym].sub, (uint32_t)inc };
	}
	seg->nin = (unsigned)nin;
	if (uct_seg_check(&r->hdr, seg, err, sizeof(err)))
		return rerr(r, 0, "%s", err);
	if (seg->ncycles > MAXCYCLES - seg->start)
		return rerr(r, 0, "trace longer than 2^56 cycles");
	r->end = seg->start + seg->ncycles;
	r->nseg++;
	r->brecs--;
	if (!r->brecs && r->bpos != r->blen)
		return rerr(r, 0, "junk after the last record of a block");
	return 1;
}

/* ---- open / next / close ---- */

static int open_common(struct uct_reader *r, char *err, size_t n)
{
	unsigned char b[8];
	int rc;

	/* peek at the magic without consuming it */
	if (r->src.f) {
		size_t k = fread(b, 1, sizeof(b), r->src.f);

		r->binary = k == 8 && !memcmp(b, MAGIC, 8);
		rewind(r->src.f);
	} else {
		r->binary = r->src.len >= 8 && !memcmp(r->src.mem, MAGIC, 8);
	}
	rc = r->binary ? bin_header(r) : parse_header(r);
	if (rc) {
		snprintf(err, n, "%s", r->err[0] ? r->err : strerror(-rc));
		return rc;
	}
	return 0;
}

int uct_open(const char *path, struct uct_reader **out, char *err, size_t n)
{
	struct uct_reader *r = calloc(1, sizeof(*r));
	int rc;

	*out = NULL;
	if (!r)
		return -ENOMEM;
	snprintf(r->name, sizeof(r->name), "%s", path);
	r->src.f = fopen(path, "rb");
	if (!r->src.f) {
		rc = -errno;
		snprintf(err, n, "%s: %s", path, strerror(errno));
		free(r);
		return rc;
	}
	if ((rc = open_common(r, err, n))) {
		uct_close(r);
		return rc;
	}
	*out = r;
	return 0;
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

int uct_next(struct uct_reader *r, struct uct_seg *seg)
{
	int rc;

	if (r->failed)
		return -EINVAL;
	rc = r->binary ? bin_next(r, seg) : text_next(r, seg);
	if (rc < 0 && !r->err[0])
		rerr(r, 1, "%s", strerror(-rc));
	return rc;
}

void uct_close(struct uct_reader *r)
{
	if (!r)
		return;
	if (r->src.f)
		fclose(r->src.f);
	free(r->line);
	free(r->blk);
	free(r);
}

/* ---- writers ---- */

struct uct_writer {
	FILE *f;
	char path[4096], tmp[4200];
	int binary;
	struct uct_hdr hdr;
	uint64_t end, nseg;
	unsigned char *blk;
	size_t blen, brecs;
	unsigned nsym;
	struct { uint8_t bt; uint16_t sub; } sym[4096];
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

static void put_var(unsigned char *b, size_t *n, uint64_t v)
{
	do {
		b[(*n)++] = (unsigned char)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

static void put_str(unsigned char *b, size_t *n, const char *s)
{
	size_t len = strlen(s);

	put_var(b, n, len);
	memcpy(b + *n, s, len);
	*n += len;
}

static int put_block(struct uct_writer *w, int type, const unsigned char *p, size_t len)
{
	unsigned char h[5] = { (unsigned char)type, (unsigned char)len, (unsigned char)(len >> 8),
			       (unsigned char)(len >> 16), (unsigned char)(len >> 24) };
	uint32_t crc = (uint32_t)crc32(crc32(0L, h, 5), p, (uInt)len);
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
	put_var(out, &n, w->brecs);
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

	*out = NULL;
	if (!w || !(w->blk = malloc(MAXBLOCK))) {
		free(w);
		return -ENOMEM;
	}
	w->binary = binary;
	w->hdr = *h;
	if (!w->hdr.sockets)
		w->hdr.sockets = 1;
	snprintf(w->path, sizeof(w->path), "%s", path);
	if (!(w->f = uct_file_create(path, w->tmp, sizeof(w->tmp), err, n))) {
		free(w->blk);
		free(w);
		return -EIO;
	}
	if (binary) {
		unsigned char m[12] = { 'U', 'C', 'T', 'R', 'A', 'C', 'E', 0, UCT_VERSION, 0, 0, 0 };
		size_t k = 0;
		unsigned nb = 0;

		fwrite(m, 1, 12, w->f);
		put_str(w->blk, &k, p->name);
		put_var(w->blk, &k, w->hdr.sockets);
		put_var(w->blk, &k, p->nclocks);
		for (unsigned i = 0; i < p->nclocks; i++)
			put_var(w->blk, &k, h->clock_hz[i]);
		put_var(w->blk, &k, h->seed);
		for (unsigned i = 0; i < UCM_MAXBT; i++)
			nb += h->ninst[i] != 0;
		put_var(w->blk, &k, nb);
		for (unsigned i = 0; i < UCM_MAXBT; i++)
			if (h->ninst[i]) {
				put_str(w->blk, &k, bt_at(p, i)->name);
				put_var(w->blk, &k, h->ninst[i]);
			}
		if (put_block(w, 'H', w->blk, k)) {
			snprintf(err, n, "%s", w->err);
			uct_writer_abort(w);
			return -EIO;
		}
	} else {
		int any = 0;

		fprintf(w->f, "uncore-trace %d\nplatform %s\n", UCT_VERSION, p->name);
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
	const struct ucm_boxtype *bt = bt_at(w->hdr.plat, in->bt);

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

int uct_write(struct uct_writer *w, const struct uct_seg *seg)
{
	char err[256];
	int rc;

	if (seg->start < w->end)
		return werr(w, -EINVAL, "segment at cycle %llu overlaps the previous one (ends %llu)",
			    (unsigned long long)seg->start, (unsigned long long)w->end);
	if (uct_seg_check(&w->hdr, seg, err, sizeof(err)))
		return werr(w, -EINVAL, "segment %llu: %s", (unsigned long long)w->nseg + 1, err);
	if (w->binary) {
		unsigned char y[UCT_MAXIN * 200 + 16], rec[UCT_MAXIN * 40 + 40];
		size_t yn = 0, rn = 0;
		unsigned ny = 0;

		if (w->nsym + seg->nin > 4096)
			return werr(w, -ENOSPC, "more than 4096 distinct sub-events");
		put_var(rec, &rn, seg->start - w->end);
		put_var(rec, &rn, seg->ncycles);
		put_var(rec, &rn, seg->nin);
		for (unsigned i = 0; i < seg->nin; i++) {
			const struct uct_in *in = &seg->in[i];

			put_var(rec, &rn, symbol(w, in, y, &yn, &ny));
			put_var(rec, &rn, in->socket);
			put_var(rec, &rn, (uint64_t)(in->inst + 1));
			put_var(rec, &rn, in->inc);
		}
		if (ny) {
			unsigned char hd[16];
			size_t hn = 0;
			unsigned char *blk;

			if ((rc = flush_segs(w)))
				return rc;
			put_var(hd, &hn, ny);
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
			const struct ucm_boxtype *bt = bt_at(w->hdr.plat, in->bt);

			fprintf(w->f, "%s ", i ? "," : "");
			if (w->hdr.sockets > 1)
				fprintf(w->f, "s%u.", in->socket);
			fprintf(w->f, "%s", bt->name);
			if (in->inst >= 0)
				fprintf(w->f, "%d", in->inst);
			fprintf(w->f, ".%s=%u", ucm_subev_name(bt, in->sub, name, sizeof(name)), in->inc);
		}
		fputc('\n', w->f);
	}
	w->end = seg->start + seg->ncycles;
	w->nseg++;
	return ferror(w->f) ? werr(w, -EIO, "write failed") : 0;
}

int uct_writer_commit(struct uct_writer *w)
{
	int rc = 0;

	if (w->binary) {
		unsigned char e[32];
		size_t n = 0;

		if (!(rc = flush_segs(w))) {
			put_var(e, &n, w->nseg);
			put_var(e, &n, w->end);
			rc = put_block(w, 'E', e, n);
		}
	}
	if (!rc && (fflush(w->f) || ferror(w->f)))
		rc = werr(w, -EIO, "write failed: %s", strerror(errno));
	if (fclose(w->f) && !rc)
		rc = werr(w, -EIO, "close failed: %s", strerror(errno));
	w->f = NULL;
	if (!rc && rename(w->tmp, w->path))
		rc = werr(w, -EIO, "rename failed: %s", strerror(errno));
	if (rc)
		unlink(w->tmp);
	free(w->blk);
	if (!rc)
		free(w);
	return rc;
}

void uct_writer_abort(struct uct_writer *w)
{
	if (!w)
		return;
	if (w->f)
		fclose(w->f);
	unlink(w->tmp);
	free(w->blk);
	free(w);
}

/* ---- replay ---- */

struct uct_replay {
	struct ucm_model *m;
	struct uct_reader *r;
	uint64_t base_cycles, base_ps;
	struct uct_seg seg;
	int pending, done;
	uint64_t cycles;
	char err[768];
};

static uint64_t cycle_time(const struct uct_replay *p, uint64_t c)
{
	uint64_t hz = ucm_clock_hz(p->m, 0);
	unsigned __int128 t = ((unsigned __int128)(p->base_cycles + c) * 1000000000000ull + hz - 1) / hz;

	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

static int apply(struct uct_replay *p, const struct uct_seg *s)
{
	ucm_clear_inputs(p->m);
	for (unsigned i = 0; i < s->nin; i++) {
		const struct uct_in *in = &s->in[i];
		const struct ucm_platform *pl = ucm_platform_of(p->m);

		for (unsigned b = 0; b < ucm_box_count(p->m); b++) {
			const struct ucm_boxinst *bi = ucm_box_def(p->m, (int)b);
			int rc;

			if (ucm_boxtype_index(pl, bi->type) != in->bt || ucm_box_socket(p->m, (int)b) != in->socket ||
			    (in->inst >= 0 && bi->inst != (unsigned)in->inst))
				continue;
			/* several inputs may cover one sub-event: they add */
			rc = ucm_set_input(p->m, (int)b, in->sub, ucm_get_input(p->m, (int)b, in->sub) + in->inc);
			if (rc) {
				snprintf(p->err, sizeof(p->err), "%s", ucm_error(p->m));
				return ucm_set_error(p->m, rc, p->err);
			}
		}
	}
	return 0;
}

static int replay_step(struct ucm_model *m, void *ctx, uint64_t now, uint64_t *next)
{
	struct uct_replay *p = ctx;
	int rc;

	(void)now;
	if (!p->pending) {
		rc = uct_next(p->r, &p->seg);
		if (rc < 0) {
			snprintf(p->err, sizeof(p->err), "%s", uct_reader_error(p->r));
			return ucm_set_error(m, rc, p->err);
		}
		if (rc == 0) {
			ucm_clear_inputs(p->m);
			p->done = 1;
			*next = UINT64_MAX;
			return 0;
		}
		p->pending = 1;
		if (p->seg.start > p->cycles) {
			/* a gap is idle time */
			ucm_clear_inputs(p->m);
			*next = cycle_time(p, p->seg.start);
			p->cycles = p->seg.start;
			return 0;
		}
	}
	p->pending = 0;
	if ((rc = apply(p, &p->seg)))
		return rc;
	p->cycles = p->seg.start + p->seg.ncycles;
	*next = cycle_time(p, p->cycles);
	return 0;
}

int uct_replay_attach(struct ucm_model *m, struct uct_reader *r, struct uct_replay **out)
{
	struct uct_replay *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->m = m;
	p->r = r;
	p->base_cycles = ucm_cycles(m, 0);
	ucm_set_workload(m, replay_step, p);
	*out = p;
	return 0;
}

/* Progress: the model's cycles since attaching, up to the trace's end. */
uint64_t uct_replay_cycles(const struct uct_replay *p)
{
	uint64_t c = ucm_cycles(p->m, 0) - p->base_cycles;

	return c < p->cycles ? c : p->cycles;
}

int uct_replay_done(const struct uct_replay *p)
{
	return p->done;
}

const char *uct_replay_error(const struct uct_replay *p)
{
	return p->err[0] ? p->err : "no error";
}

int uct_replay_failed(const struct uct_replay *p)
{
	return p && p->err[0];
}

void uct_replay_detach(struct uct_replay *p)
{
	if (!p)
		return;
	ucm_set_workload(p->m, NULL, NULL);
	free(p);
}
