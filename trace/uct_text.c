/*
 * uct_text.c - the text reader (docs/formats.md): a line at a time, the
 * header's lines, then segments ("run N:", "cycle:", "@CYCLE") with their
 * inputs, attributes and sleep masks, each input checked as it comes so
 * that an error names its line and column.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "uct_check.h"
#include "uct_reader.h"
#include "uct_text.h"

#define MAXLINE 65536

static int read_line(struct uct_reader *r)
{
	size_t k = 0;
	int c;

	if (!r->line && !(r->line = malloc(MAXLINE)))
		return -ENOMEM;
	c = uct_src_getc(&r->src);
	if (c == EOF && !r->src.rd_errno)
		return 0;
	/* the line counts from its first byte: an error in it names it */
	r->lineno++;
	for (; c != EOF && c != '\n'; c = uct_src_getc(&r->src)) {
		if (k + 1 >= MAXLINE)
			return uct_rerr(r, k + 1, "line longer than %d bytes", MAXLINE - 1);
		if (c == 0)
			return uct_rerr(r, k + 1, "NUL byte in a text trace");
		r->line[k++] = (char)c;
	}
	if (r->src.rd_errno) {
		/* a file not read, not a malformed one */
		uct_rerr(r, k + 1, "read error: %s", strerror(r->src.rd_errno));
		return -EIO;
	}
	if (k && r->line[k - 1] == '\r')
		k--;
	r->line[k] = 0;
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
		return uct_rerr(r, col(c), "expected %s (a number)", what);
	/* decimal, or hex after 0x, as in event strings: a leading 0 is not
	 * octal (run 010: is ten cycles) */
	errno = 0;
	if (c->p[0] == '0' && (c->p[1] == 'x' || c->p[1] == 'X'))
		*v = strtoull(c->p, &end, 16);
	else
		*v = strtoull(c->p, &end, 10);
	if (errno == ERANGE || *v > max) {
		c->p = start;
		return uct_rerr(r, col(c), "%s %.*s out of range (max %llu)", what, (int)(end - start),
				start, (unsigned long long)max);
	}
	c->p = end;
	if (isalnum((unsigned char)*c->p) || *c->p == '_')
		return uct_rerr(r, col(c), "junk after %s", what);
	return 0;
}

static int at_end(struct uct_reader *r, struct cur *c)
{
	skip(c);
	if (*c->p)
		return uct_rerr(r, col(c), "unexpected '%c' at end of line", *c->p);
	return 0;
}

static int blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return !*s;
}

/* "{nid=1,tid=3}" after an increment: the attributes of the input. */
static int parse_attrs(struct uct_reader *r, struct cur *c, const struct ucm_boxtype *bt,
		       struct uct_in *in)
{
	const struct ucm_evcode *ec = ucm_subev_code(bt, in->sub);

	if (r->hdr.version < 2)
		return uct_rerr(r, col(c), "attributes need version 2 ('uncore-trace 2')");
	c->p++; /* '{' */
	for (;;) {
		const char *w;
		size_t n, at;
		unsigned a;
		uint64_t v;

		skip(c);
		at = col(c);
		n = word(c, &w);
		for (a = 0; a < UCM_NATTR; a++)
			if (strlen(uct_attr_names[a]) == n && !strncmp(uct_attr_names[a], w, n))
				break;
		if (a == UCM_NATTR)
			return uct_rerr(r, at, "unknown attribute '%.*s' (expected state, opc, nid, tid, freq, mc, vnw, dnid, rnid, rds or addr)",
					(int)(n ? n : 1), w);
		if (!uct_code_compares(ec, a))
			return uct_rerr(r, at, "no filter of %s compares '%s' (%s)", ec->name, uct_attr_names[a],
					ec->cite);
		if (in->amask >> a & 1)
			return uct_rerr(r, at, "attribute '%s' given twice", uct_attr_names[a]);
		skip(c);
		if (*c->p != '=')
			return uct_rerr(r, col(c), "expected '=' and a value after '%s'", uct_attr_names[a]);
		c->p++;
		if (number(r, c, uct_attr_max[a], &v, uct_attr_names[a]))
			return -EINVAL;
		in->amask |= (uint16_t)(1u << a);
		in->attr[a] = v;
		skip(c);
		if (*c->p == '}') {
			c->p++;
			return 0;
		}
		if (*c->p != ',')
			return uct_rerr(r, col(c), "expected ',' or '}' in the attributes");
		c->p++;
	}
}

/* "asleep=0xf0" (after an optional "s1."): the cores asleep on a socket. */
static int is_sleep(const struct cur *c)
{
	const char *q = c->p + 6;

	if (strncmp(c->p, "asleep", 6))
		return 0;
	while (*q == ' ' || *q == '\t')
		q++;
	return *q == '=';
}

static int parse_sleep(struct uct_reader *r, struct cur *c, struct uct_seg *seg, unsigned socket,
		       size_t at)
{
	uint64_t v;

	if (r->hdr.version < 2)
		return uct_rerr(r, col(c), "sleep states need version 2 ('uncore-trace 2')");
	if (socket < 32 && (r->sleep_seen >> socket & 1))
		return uct_rerr(r, at, "asleep given twice for socket %u", socket);
	r->sleep_seen |= 1u << (socket & 31);
	c->p += 6;
	skip(c);
	c->p++; /* '=' */
	at = (skip(c), col(c));
	if (number(r, c, UINT64_MAX, &v, "core mask"))
		return -EINVAL;
	if (v & ~uct_core_mask(r->hdr.plat))
		return uct_rerr(r, at, "asleep=0x%llx: %s has %u cores per socket (mask 0x%llx)",
				(unsigned long long)v, r->hdr.plat->name, r->hdr.plat->ncores,
				(unsigned long long)uct_core_mask(r->hdr.plat));
	seg->asleep[socket] = v;
	return 0;
}

/* "cbo0.CACHE_LOOKUP.READ_M=1", optionally "s1." first and "{attr=v,...}"
 * after; or "asleep=MASK".  Returns 1 for an input, 0 for a sleep mask. */
/* uct_find_sub through the reader's cache of names met (a text trace names
 * the same few sub-events on every line). */
static int find_sub_cached(struct uct_reader *r, unsigned bti, const struct ucm_boxtype *bt,
			   const char *name, size_t n)
{
	uint32_t h = 2166136261u ^ bti;
	unsigned slot;
	int sub;

	if (n >= sizeof(r->names[0].key))
		return uct_find_sub(bt, name);
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	slot = h & (sizeof(r->names) / sizeof(r->names[0]) - 1);
	if (r->names[slot].bt == bti + 1 && !strcmp(r->names[slot].key, name))
		return r->names[slot].sub;
	sub = uct_find_sub(bt, name);
	if (sub >= 0) {
		r->names[slot].bt = (uint8_t)(bti + 1);
		r->names[slot].sub = (uint16_t)sub;
		memcpy(r->names[slot].key, name, n + 1);
	}
	return sub;
}

static int parse_input(struct uct_reader *r, struct cur *c, struct uct_seg *seg, struct uct_in *in)
{
	const struct ucm_platform *p = r->hdr.plat;
	const struct ucm_boxtype *bt = NULL;
	const char *w;
	size_t bn = 0, n, at;
	uint64_t v;
	int sub;
	char name[128];

	memset(in, 0, sizeof(*in));
	in->inst = -1;
	skip(c);
	at = col(c);
	if ((*c->p == 's' || *c->p == 'S') && isdigit((unsigned char)c->p[1])) {
		const char *q = c->p + 1;

		while (isdigit((unsigned char)*q))
			q++;
		if (*q == '.') {
			c->p++;
			if (number(r, c, 255, &v, "socket"))
				return -EINVAL;
			if (v >= r->hdr.sockets)
				return uct_rerr(r, col(c) - 1, "socket %llu: the trace has %u", (unsigned long long)v,
						r->hdr.sockets);
			in->socket = (uint8_t)v;
			c->p++; /* '.' */
		}
	}
	if (is_sleep(c))
		return parse_sleep(r, c, seg, in->socket, at) ? -EINVAL : 0;
	/* the longest box type name that prefixes the word (each type once:
	 * the platform lists a type per instance) */
	for (unsigned i = 0; i < p->nboxes; i++) {
		const struct ucm_boxtype *t = p->boxes[i].type;
		size_t tn;

		if (!t->ncodes || t == bt || (i && p->boxes[i - 1].type == t) ||
		    tolower((unsigned char)*c->p) != tolower((unsigned char)t->name[0]))
			continue;
		tn = strlen(t->name);
		if (tn > bn && strncasecmp(c->p, t->name, tn) == 0) {
			bt = t;
			bn = tn;
		}
	}
	if (!bt) {
		n = word(c, &w);
		c->p = w;
		return uct_rerr(r, col(c), "unknown box '%.*s'", (int)(n ? n : 1), w);
	}
	w = c->p;
	c->p += bn;
	/* a longer name that only begins with a box type's (pcu_cstate, a
	 * box of earlier builds): no box of this platform */
	if (isalpha((unsigned char)*c->p) || *c->p == '_') {
		n = strcspn(w, ".=, \t\n");
		c->p = w;
		return uct_rerr(r, col(c), "unknown box '%.*s'", (int)n, w);
	}
	if (bt != r->last_bt) {
		r->last_bt = bt;
		r->last_bti = ucm_boxtype_index(p, bt);
	}
	in->bt = (uint8_t)r->last_bti;
	if (isdigit((unsigned char)*c->p)) {
		at = col(c);
		if (number(r, c, 255, &v, "instance"))
			return -EINVAL;
		if (v >= uct_ninst_of(&r->hdr, in->bt, bt))
			return uct_rerr(r, at, "%s%llu: the trace has %u %s instances (0-%u)", bt->name,
					(unsigned long long)v, uct_ninst_of(&r->hdr, in->bt, bt), bt->name,
					uct_ninst_of(&r->hdr, in->bt, bt) - 1);
		in->inst = (int16_t)v;
	}
	if (*c->p != '.')
		return uct_rerr(r, col(c), "expected '.' and a sub-event after the box");
	c->p++;
	{
		const char *start = c->p;

		while (*c->p && *c->p != '=' && *c->p != ',' && *c->p != ' ' && *c->p != '\t')
			c->p++;
		n = (size_t)(c->p - start);
		memcpy(name, start, n < sizeof(name) ? n : sizeof(name) - 1);
		name[n < sizeof(name) ? n : sizeof(name) - 1] = 0;
		sub = n < sizeof(name) ? find_sub_cached(r, in->bt, bt, name, n) : -1;
		if (sub < 0) {
			c->p = start;
			return uct_rerr(r, col(c), "%s has no sub-event '%s' (see docs/formats.md)", bt->name,
					name);
		}
	}
	in->sub = (uint16_t)sub;
	skip(c);
	if (*c->p != '=')
		return uct_rerr(r, col(c), "expected '=' and an increment");
	c->p++;
	if (number(r, c, UINT32_MAX, &v, "increment"))
		return -EINVAL;
	in->inc = (uint32_t)v;
	skip(c);
	if (*c->p == '{' && parse_attrs(r, c, bt, in))
		return -EINVAL;
	return 1;
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
		if (number(r, &c, UCT_MAXCYCLES, &v, "start cycle"))
			return -EINVAL;
		if (v < r->end)
			return uct_rerr(r, at,
					"out-of-order time: segment starts at cycle %llu, before the end of the previous one (%llu)",
					(unsigned long long)v, (unsigned long long)r->end);
		if (uct_too_long(r, v, err, sizeof(err)))
			return uct_rerr(r, at, "%s", err);
		seg->start = v;
	}
	at = (skip(&c), col(&c));
	n = word(&c, &w);
	if (n == 3 && !strncmp(w, "run", 3)) {
		at = (skip(&c), col(&c));
		if (number(r, &c, UCT_MAXCYCLES, &seg->ncycles, "cycle count"))
			return -EINVAL;
		if (!seg->ncycles)
			return uct_rerr(r, at, "a segment lasts at least one cycle");
		if (uct_too_long(r, seg->start + seg->ncycles, err, sizeof(err)))
			return uct_rerr(r, at, "%s", err);
	} else if (n == 5 && !strncmp(w, "cycle", 5)) {
		seg->ncycles = 1;
	} else {
		return uct_rerr(r, at, "expected 'run N:', 'cycle:' or '@CYCLE' (got '%.*s')",
				(int)(n ? n : 1), w);
	}
	skip(&c);
	if (*c.p != ':')
		return uct_rerr(r, col(&c), "expected ':' before the inputs");
	c.p++;
	skip(&c);
	uct_chk_reset(r->chk, &r->hdr);
	r->sleep_seen = 0;
	while (*c.p) {
		int rc;

		at = col(&c);
		if (seg->nin == UCT_MAXIN)
			return uct_rerr(r, at, "more than %d inputs in one segment", UCT_MAXIN);
		if ((rc = parse_input(r, &c, seg, &seg->in[seg->nin])) < 0)
			return -EINVAL;
		/* check as we go, so the column points at the input at fault */
		if (rc == 1) {
			if (uct_chk_add(r->chk, &r->hdr, seg, seg->nin, err, sizeof(err)))
				return uct_rerr(r, at, "%s", err);
			seg->nin++;
		}
		skip(&c);
		if (*c.p == ',') {
			c.p++;
			skip(&c);
			if (!*c.p)
				return uct_rerr(r, col(&c), "expected an input after ','");
		} else if (*c.p) {
			return uct_rerr(r, col(&c), "expected ',' between inputs");
		}
	}
	if (seg->start + seg->ncycles > UCT_MAXCYCLES)
		return uct_rerr(r, 1, "trace longer than 2^56 cycles");
	r->end = seg->start + seg->ncycles;
	r->nseg++;
	return 1;
}

int uct_text_header(struct uct_reader *r)
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
				return uct_rerr(r, at, "not an uncore event trace: expected 'uncore-trace %d'",
						UCT_VERSION);
			at = (skip(&c), col(&c));
			if (number(r, &c, 1000000, &v, "version"))
				return -EINVAL;
			if (v < 1 || v > UCT_VERSION)
				return uct_rerr(r, at, "unsupported version %llu (this build reads 1 to %d)",
						(unsigned long long)v, UCT_VERSION);
			r->hdr.version = (unsigned)v;
			r->hdr.sockets = 1;
			if (at_end(r, &c))
				return -EINVAL;
			continue;
		}
		if (n == 8 && !strncmp(w, "platform", 8)) {
			char name[32];

			if (have_platform)
				return uct_rerr(r, at, "platform given twice");
			at = (skip(&c), col(&c));
			n = word(&c, &w);
			snprintf(name, sizeof(name), "%.*s", (int)n, w);
			if (!n || !(r->hdr.plat = ucm_platform_find(name)))
				return uct_rerr(r, at, "unknown platform '%s'", name);
			have_platform = 1;
		} else if (!have_platform) {
			return uct_rerr(r, at, "expected 'platform NAME' after the version line");
		} else if (n == 7 && !strncmp(w, "sockets", 7)) {
			at = (skip(&c), col(&c));
			if (number(r, &c, 255, &v, "socket count"))
				return -EINVAL;
			if (!v || v > r->hdr.plat->max_sockets || v > UCT_MAXSOCK)
				return uct_rerr(r, at, "%s has 1..%u sockets", r->hdr.plat->name,
						r->hdr.plat->max_sockets < UCT_MAXSOCK ? r->hdr.plat->max_sockets
										      : UCT_MAXSOCK);
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
				return uct_rerr(r, at, "%s has no clock '%.*s'", r->hdr.plat->name, (int)n, w);
			at = (skip(&c), col(&c));
			if (number(r, &c, 1000000000000ull, &v, "frequency in Hz"))
				return -EINVAL;
			if (!v)
				return uct_rerr(r, at, "a clock of 0 Hz");
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
				if (!n || !bt || !bt->ncodes)
					return uct_rerr(r, at, "no box type '%s'", name);
				if (*c.p != '=')
					return uct_rerr(r, col(&c), "expected '=' and a count");
				c.p++;
				at = col(&c);
				if (number(r, &c, 255, &v, "count"))
					return -EINVAL;
				if (v < bt->ninst_min || v > bt->ninst_max)
					return uct_rerr(r, at, "%s has %u..%u instances", bt->name,
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
			return uct_rerr(r, at,
					"unknown header line '%.*s' (expected platform, sockets, clock, seed, boxes, run, cycle or @)",
					(int)(n ? n : 1), w);
		}
		if (at_end(r, &c))
			return -EINVAL;
	}
	if (rc < 0)
		return rc;
	if (!r->hdr.sockets) {
		r->lineno = 1;
		return uct_rerr(r, 1, "empty file: expected 'uncore-trace %d'", UCT_VERSION);
	}
	if (!have_platform)
		return uct_rerr(r, 1, "no 'platform' line");
	return 0;
}

int uct_text_next(struct uct_reader *r, struct uct_seg *seg)
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
