/*
 * uct_trace.c - event trace readers (text and binary, streaming), writers
 * (write beside, then rename) and the replay source for the model.
 * The formats are specified in docs/formats.md; version 2 adds input
 * attributes and sleep masks to version 1, which is still read and written.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <isa-l/crc.h>

#include "ucm_grow.h"
#include "uct_file.h"
#include "uct_trace.h"

#define MAGIC "UCTRACE"          /* 7 bytes + NUL */
#define MAXLINE 65536
#define MAXBLOCK (1u << 20)
#define BLKPAD 32 /* zero bytes after a block read: ahead_fast reads past its end before checking */
#define MAXCYCLES (1ull << 56)
/* The machine time a trace may last: the longest `stat --duration` (a
 * replay is a stat run; trace gen writes at most 1e5 s).  A replay does
 * work in proportion to it (the driver reads every counter within its safe
 * interval), so a longer one is refused before anything runs. */
#define MAXSECONDS 1000000ull
/* Binary header flags: bit 0, the vector form (records refer to vectors);
 * bit 1, its new vectors as chunks; bit 2, its sleep masks as the cores
 * whose state changes; bit 3, those changes possibly none (docs/formats.md). */
#define UCT_FLAG_VECTORS 1
#define UCT_FLAG_CHUNKS 2
#define UCT_FLAG_CHANGES 4
#define UCT_FLAG_EMPTY 8 /* sleep changes may be none (with bit 2) */
/* uct_next's needs: the segment's content, its vector's number. */
#define NEED_CONTENT 1
#define NEED_VID 2

/* ---- input: a FILE or memory, read in order, never whole ---- */

/* A FILE is read in order only (a pipe cannot rewind): the first bytes
 * are peeked into look[] for the format check and served again.  A spool,
 * when set, receives a copy of every byte read (uct_open_checked). */
struct src {
	FILE *f;
	FILE *spool;
	const unsigned char *mem;
	size_t len, pos;
	unsigned char look[8];
	size_t nlook, plook;
	int rd_errno;            /* a read that failed (not the end of input) */
};

static int src_getc(struct src *s)
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

static size_t src_read(struct src *s, void *buf, size_t n)
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
static size_t src_peek(struct src *s, const unsigned char **p)
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

struct chk;
struct vdict;

struct uct_reader {
	uint64_t end_cycles;     /* uct_open_checked: where the last segment ends */
	int checked;
	struct src src;
	struct chk *chk;
	char name[256];
	int binary;
	struct uct_hdr hdr;
	char err[720];
	int failed;
	/* text */
	char *line;
	size_t lineno;
	/* sub-event names met, by box type: a name is looked up in the
	 * tables once (slot: bt + 1, 0 empty; a name longer than the key is
	 * looked up every time) */
	struct { uint8_t bt; uint16_t sub; char key[45]; } names[1024];
	const struct ucm_boxtype *last_bt; /* the box type last named, its index */
	int last_bti;
	int have_pending;        /* the header parse read the first segment line */
	unsigned sleep_seen;     /* sockets whose sleep mask this line gave */
	uint64_t end;            /* end of the previous segment, in cycles */
	uint64_t nseg;
	/* binary */
	uint64_t off;            /* the offset an error names */
	uint64_t pos;            /* file offset of the next block */
	uint64_t pay;            /* file offset of the current block's payload */
	unsigned char *blk;
	size_t blen, bpos, brecs;/* current segment block: length, position, records left */
	size_t bcap;             /* allocated for blk */
	unsigned nsym;
	struct { uint8_t bt; uint16_t sub; } sym[4096];
	int ended;
	int vform;               /* the binary vector form (flags bit 0) */
	int chunked;             /* its new vectors given as chunks (flags bit 1) */
	int changes;             /* its sleep masks as the cores that change (flags bit 2) */
	int empty;               /* those changes may be none (flags bit 3) */
	struct vdict *cd;        /* the chunks numbered: each its `inputs` encoding */
	struct rchunk *ch;       /* per chunk numbered: what bin_chunks needs of it */
	size_t capch;
	struct uct_seg *cseg;    /* a new chunk's inputs */
	unsigned char *vbuf;     /* a chunked vector's `inputs` encoding, assembled */
	/* the chunks of the last new vector whose content was not decoded
	 * (every one numbered before, each of another socket and box type):
	 * the replay makes its phase from them (vec_phase_chunks) */
	uint32_t lch[UCT_MAXIN];
	unsigned nlch;
	int lch_vid;
	/* per vector: 0, its `inputs` encoding in vd; else kept as its chunks'
	 * numbers, that encoding assembled once asked for (pd entry k for
	 * k + 1, -1 not yet) */
	int32_t *vlisted;
	struct vdict *pd;
	size_t capvl;
	uint64_t maxend;         /* binary: the latest end a record may have */
	uint64_t asleep[UCT_MAXSOCK];  /* vector form: the last sleep masks given */
	uint64_t cores;          /* binary: the platform's cores (of a socket) as bits */
	struct vdict *vd;        /* the vectors numbered */
	unsigned char *vkey;     /* text and record form: a vector's key */
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

/* Box types by index (ucm_boxtype_index), looked up once per reader,
 * writer or check: inputs name them by index. */
static void bt_table(const struct ucm_platform *p, const struct ucm_boxtype **t)
{
	memset(t, 0, UCM_MAXBT * sizeof(*t));
	for (unsigned i = 0; i < p->nboxes; i++) {
		int k = ucm_boxtype_index(p, p->boxes[i].type);

		if (k >= 0 && k < UCM_MAXBT)
			t[k] = p->boxes[i].type;
	}
}

static const struct ucm_boxtype *bt_at(const struct ucm_platform *p, unsigned idx)
{
	const struct ucm_boxtype *t[UCM_MAXBT];

	bt_table(p, t);
	return idx < UCM_MAXBT ? t[idx] : NULL;
}

/* ucm_subev_find without formatting every name: "CODE.SUB", or "CODE" for
 * a code with one input (case-insensitive too). */
static int find_sub(const struct ucm_boxtype *bt, const char *name)
{
	const char *dot = strchr(name, '.');
	size_t cn = dot ? (size_t)(dot - name) : strlen(name);
	int first = 0;

	for (unsigned i = 0; i < bt->ncodes; i++) {
		const struct ucm_evcode *ec = &bt->codes[i];
		unsigned n = ec->nsubs ? ec->nsubs : 1;

		if (strlen(ec->name) == cn && !strncasecmp(ec->name, name, cn)) {
			if (!ec->nsubs)
				return dot ? -1 : first;
			for (unsigned k = 0; dot && k < ec->nsubs; k++)
				if (!strcasecmp(ec->subs[k].name, dot + 1))
					return first + (int)k;
		}
		first += (int)n;
	}
	return -1;
}

static unsigned ninst_of(const struct uct_hdr *h, unsigned bt, const struct ucm_boxtype *t)
{
	return bt < UCM_MAXBT && h->ninst[bt] ? h->ninst[bt] : t ? t->ninst_default : 0;
}

static unsigned version_of(const struct uct_hdr *h)
{
	return h->version ? h->version : UCT_VERSION;
}

static uint64_t hz_of(const struct uct_hdr *h, unsigned clock)
{
	return h->clock_hz[clock] ? h->clock_hz[clock] : h->plat->clocks[clock].hz_default;
}

/* Cores a sleep mask may name: the platform's cores per socket. */
static uint64_t core_mask(const struct ucm_platform *p)
{
	return p->ncores >= 64 ? ~0ull : (1ull << p->ncores) - 1;
}

static const char *const attr_names[UCM_NATTR] = {
	[UCM_AT_STATE] = "state", [UCM_AT_OPC] = "opc", [UCM_AT_NID] = "nid",
	[UCM_AT_TID] = "tid", [UCM_AT_FREQ] = "freq", [UCM_AT_MC] = "mc", [UCM_AT_VNW] = "vnw",
	[UCM_AT_DNID] = "dnid", [UCM_AT_RNID] = "rnid", [UCM_AT_RDS] = "rds", [UCM_AT_ADDR] = "addr",
};

/* The largest value of each attribute: what the widest filter field that
 * compares it can hold (a state or node is a bit number of a mask; Xeon
 * Tables 2-12, 2-37..2-39, 2-77, 2-88/2-89). */
static const uint64_t attr_max[UCM_NATTR] = {
	[UCM_AT_STATE] = 63, [UCM_AT_OPC] = 0x1FF, [UCM_AT_NID] = 63, [UCM_AT_TID] = 63,
	[UCM_AT_FREQ] = 255, [UCM_AT_MC] = 15, [UCM_AT_VNW] = 3, [UCM_AT_DNID] = 31,
	[UCM_AT_RNID] = 31, [UCM_AT_RDS] = 15, [UCM_AT_ADDR] = (1ull << 46) - 1,
};

const char *uct_attr_name(unsigned a)
{
	return a < UCM_NATTR ? attr_names[a] : NULL;
}

int uct_in_equal(const struct uct_in *a, const struct uct_in *b)
{
	if (a->socket != b->socket || a->bt != b->bt || a->inst != b->inst || a->sub != b->sub ||
	    a->inc != b->inc || a->amask != b->amask)
		return 0;
	for (unsigned k = 0; k < UCM_NATTR; k++)
		if ((a->amask >> k & 1) && a->attr[k] != b->attr[k])
			return 0;
	return 1;
}

/* Whether a filter rule of the code compares attribute a: only then may an
 * input carry it (anything else would be a value nothing reads). */
static int code_compares(const struct ucm_evcode *ec, unsigned a)
{
	for (unsigned i = 0; i < ec->nrules; i++)
		if (ec->rules[i].attr == a)
			return 1;
	return 0;
}

/* The attributes of two inputs as the model would see them on a box they
 * both cover: the given ones must be the same, and given on both or none. */
static int same_attrs(const struct uct_in *a, const struct uct_in *b)
{
	if (a->amask != b->amask)
		return 0;
	for (unsigned k = 0; k < UCM_NATTR; k++)
		if ((a->amask >> k & 1) && a->attr[k] != b->attr[k])
			return 0;
	return 1;
}

uint64_t uct_domain_cycles(const struct uct_hdr *h, unsigned clock, uint64_t start, uint64_t n)
{
	unsigned __int128 ps = 1000000000000ull;
	uint64_t hz0, hz;
	unsigned __int128 t0, t1;

	if (!h->plat || clock >= h->plat->nclocks)
		return 0;
	hz0 = hz_of(h, 0);
	hz = hz_of(h, clock);
	/* the replay's boundaries: reference cycle c completes at ceil(c / hz0)
	 * in picoseconds; a domain counts the cycles completed by then */
	t0 = ((unsigned __int128)start * ps + hz0 - 1) / hz0;
	t1 = ((unsigned __int128)(start + n) * ps + hz0 - 1) / hz0;
	return (uint64_t)(t1 * hz / ps - t0 * hz / ps);
}

/* ---- segment checks ----
 *
 * Inputs are checked as they come, so the text reader can point at the one
 * at fault: a small hash map finds the inputs before it that share its
 * event code (increments add up per code and instance), and the latest
 * with its sub-event, the head of a chain of those: one on its instance is
 * the input given twice, and those that cover one sub-event on an
 * instance must agree on its attributes. */

#define CHK_CAP 2048          /* a power of 2 above the 3 keys per input */

struct chk_grp {
	uint64_t all, maxspec;    /* inputs on every instance; most on one instance */
	int maxinst;              /* that instance, -1: none */
};

#define CHK_MAXSUB 512

struct chk {
	const struct ucm_platform *plat;
	const struct ucm_boxtype *bts[UCM_MAXBT];
	unsigned nsub[UCM_MAXBT];
	/* each sub-event's event code (ucm_subev_code, a search, past these)
	 * and the attributes the code's filter rules compare (bit a) */
	uint16_t code[UCM_MAXBT][CHK_MAXSUB];
	uint16_t cmp[UCM_MAXBT][CHK_MAXSUB];
	uint64_t key[CHK_CAP];    /* 0: free */
	uint16_t val[CHK_CAP];
	uint16_t used[3 * UCT_MAXIN];
	unsigned nused;
	unsigned ngrp, nspec;
	struct chk_grp grp[UCT_MAXIN];
	uint64_t spec[UCT_MAXIN];
	int16_t prev[UCT_MAXIN];  /* the previous input of the same sub-event, -1 */
};

enum { K_GRP = 1, K_SPEC, K_SUB };

/* The platform's box types and codes, once per platform met. */
static void chk_plat(struct chk *c, const struct ucm_platform *p)
{
	bt_table(p, c->bts);
	for (unsigned k = 0; k < UCM_MAXBT; k++) {
		const struct ucm_boxtype *t = c->bts[k];
		unsigned x = 0;

		c->nsub[k] = t ? ucm_subev_count(t) : 0;
		/* a code without sub-events is one sub-event */
		for (unsigned e = 0; t && e < t->ncodes; e++) {
			uint16_t m = 0;

			for (unsigned i = 0; i < t->codes[e].nrules; i++)
				if (t->codes[e].rules[i].attr < UCM_NATTR)
					m |= (uint16_t)(1u << t->codes[e].rules[i].attr);
			for (unsigned q = 0; q < (t->codes[e].nsubs ? t->codes[e].nsubs : 1u); q++)
				if (x < CHK_MAXSUB) {
					c->cmp[k][x] = m;
					c->code[k][x++] = (uint16_t)e;
				}
		}
	}
	c->plat = p;
}

/* Before a segment's inputs: chk holds none. */
static void chk_reset(struct chk *c, const struct uct_hdr *h)
{
	if (c->plat != h->plat)
		chk_plat(c, h->plat);
	for (unsigned i = 0; i < c->nused; i++)
		c->key[c->used[i]] = 0;
	c->nused = c->ngrp = c->nspec = 0;
}

/* The slot of key, inserted (val = fresh) when absent; *found says which. */
static unsigned chk_slot(struct chk *c, uint64_t key, uint16_t fresh, int *found)
{
	unsigned i = (unsigned)((key * 0x9E3779B97F4A7C15ull) >> 53) & (CHK_CAP - 1);

	while (c->key[i] && c->key[i] != key)
		i = (i + 1) & (CHK_CAP - 1);
	*found = c->key[i] != 0;
	if (!*found) {
		c->key[i] = key;
		c->val[i] = fresh;
		c->used[c->nused++] = (uint16_t)i;
	}
	return i;
}

static uint64_t chk_key(unsigned kind, unsigned socket, unsigned bt, unsigned a, unsigned b)
{
	return (uint64_t)kind << 60 | (uint64_t)socket << 48 | (uint64_t)bt << 40 |
	       (uint64_t)a << 20 | b;
}

/* Input i of seg against the inputs before it (chk holds them; chk_reset
 * before the first). */
static int chk_add(struct chk *c, const struct uct_hdr *h, const struct uct_seg *seg, unsigned i,
		   char *err, size_t n)
{
	const struct uct_in *in = &seg->in[i];
	const struct ucm_boxtype *bt;
	const struct ucm_evcode *ec;
	unsigned sockets = h->sockets ? h->sockets : 1, slot, gi, code;
	uint64_t total, bad;
	uint16_t cmp;
	char name[96];
	int found, dup, diff;

	bt = in->bt < UCM_MAXBT ? c->bts[in->bt] : NULL;
	if (!bt || !bt->nctr || in->sub >= c->nsub[in->bt]) {
		snprintf(err, n, "input %u: no such box type or sub-event", i + 1);
		return -EINVAL;
	}
	if (in->socket >= sockets) {
		snprintf(err, n, "socket %u: the trace has %u", in->socket, sockets);
		return -ERANGE;
	}
	if (in->inst >= (int)ninst_of(h, in->bt, bt) || in->inst < -1) {
		snprintf(err, n, "%s%d: the trace has %u %s instances", bt->name, in->inst,
			 ninst_of(h, in->bt, bt), bt->name);
		return -ERANGE;
	}
	if (in->sub < CHK_MAXSUB) {
		ec = &bt->codes[c->code[in->bt][in->sub]];
		cmp = c->cmp[in->bt][in->sub];
	} else {
		ec = ucm_subev_code(bt, in->sub);
		cmp = 0;
		for (unsigned a = 0; a < UCM_NATTR; a++)
			cmp |= (uint16_t)(code_compares(ec, a) << a);
	}
	code = (unsigned)(ec - bt->codes);
	/* the sub-event's name only for messages: snprintf is the cost here */
#define NAME ucm_subev_name(bt, in->sub, name, sizeof(name))
	if (in->amask) {
		if (version_of(h) < 2) {
			snprintf(err, n, "%s.%s: attributes need version 2 ('uncore-trace 2')", bt->name, NAME);
			return -EINVAL;
		}
		/* each attribute given: known, compared by a filter rule of the
		 * code (cmp), in range; the first at fault in increasing order */
		bad = in->amask & ~cmp;
		for (unsigned m = in->amask & cmp; m && !bad; m &= m - 1) {
			unsigned a = (unsigned)__builtin_ctz(m);

			bad = in->attr[a] > attr_max[a];
		}
		for (unsigned a = 0; bad && a < 16; a++) {
			if (!(in->amask >> a & 1))
				continue;
			if (a >= UCM_NATTR) {
				snprintf(err, n, "%s.%s: unknown attribute %u", bt->name, NAME, a);
				return -EINVAL;
			}
			if (!code_compares(ec, a)) {
				snprintf(err, n, "%s.%s: no filter of %s compares '%s' (%s)", bt->name, NAME,
					 ec->name, attr_names[a], ec->cite);
				return -EINVAL;
			}
			if (in->attr[a] > attr_max[a]) {
				snprintf(err, n, "%s.%s: %s=%llu out of range (max %llu)", bt->name, NAME,
					 attr_names[a], (unsigned long long)in->attr[a],
					 (unsigned long long)attr_max[a]);
				return -ERANGE;
			}
		}
	}
	/* the inputs before it of its sub-event (a chain, the latest first):
	 * one on its instance is the same input given twice; one that covers
	 * it on one of its instances must give the same attributes */
	slot = chk_slot(c, chk_key(K_SUB, in->socket, in->bt, 0, in->sub), (uint16_t)i, &found);
	c->prev[i] = found ? (int16_t)c->val[slot] : -1;
	c->val[slot] = (uint16_t)i;
	dup = 0;
	diff = -1;
	for (int j = c->prev[i]; j >= 0; j = c->prev[j]) {
		const struct uct_in *o = &seg->in[j];

		dup |= o->inst == in->inst;
		if (diff < 0 && (o->inst < 0 || in->inst < 0 || o->inst == in->inst) &&
		    !same_attrs(o, in))
			diff = j;
	}
	if (dup) {
		snprintf(err, n, "%s.%s given twice", bt->name, NAME);
		return -EINVAL;
	}
	if (diff >= 0) {
		snprintf(err, n, "%s.%s: attributes differ from those of input %d, which covers it too",
			 bt->name, NAME, diff + 1);
		return -EINVAL;
	}
	/* increments add up per event code and instance */
	slot = chk_slot(c, chk_key(K_GRP, in->socket, in->bt, 0, code), (uint16_t)c->ngrp, &found);
	gi = c->val[slot];
	if (!found)
		c->grp[c->ngrp++] = (struct chk_grp){ 0, 0, -1 };
	if (in->inst < 0) {
		c->grp[gi].all += in->inc;
	} else {
		unsigned si = c->val[chk_slot(c, chk_key(K_SPEC, 0, 0, gi, (unsigned)in->inst),
					      (uint16_t)c->nspec, &found)];

		if (!found)
			c->spec[c->nspec++] = 0;
		c->spec[si] += in->inc;
		if (c->spec[si] > c->grp[gi].maxspec) {
			c->grp[gi].maxspec = c->spec[si];
			c->grp[gi].maxinst = in->inst;
		}
	}
	total = c->grp[gi].all + c->grp[gi].maxspec;
	if (total > ec->max_inc) {
		snprintf(err, n, "%s%d %s: %llu per cycle exceeds the event's maximum increment %u (%s)",
			 bt->name, c->grp[gi].maxinst >= 0 ? c->grp[gi].maxinst : 0, ec->name,
			 (unsigned long long)total, ec->max_inc, ec->cite);
		return -ERANGE;
	}
	return 0;
#undef NAME
}

static int check_sleep(const struct uct_hdr *h, const struct uct_seg *seg, char *err, size_t n)
{
	unsigned sockets = h->sockets ? h->sockets : 1;

	for (unsigned s = 0; s < UCT_MAXSOCK; s++) {
		uint64_t m = seg->asleep[s];

		if (!m)
			continue;
		if (version_of(h) < 2) {
			snprintf(err, n, "sleep states need version 2 ('uncore-trace 2')");
			return -EINVAL;
		}
		if (s >= sockets) {
			snprintf(err, n, "socket %u: the trace has %u", s, sockets);
			return -ERANGE;
		}
		if (m & ~core_mask(h->plat)) {
			snprintf(err, n, "asleep=0x%llx: %s has %u cores per socket", (unsigned long long)m,
				 h->plat->name, h->plat->ncores);
			return -ERANGE;
		}
	}
	return 0;
}

static int seg_check(struct chk *c, const struct uct_hdr *h, const struct uct_seg *seg, char *err,
		     size_t n)
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
	chk_reset(c, h);
	for (unsigned i = 0; i < seg->nin; i++) {
		int rc = chk_add(c, h, seg, i, err, n);

		if (rc)
			return rc;
	}
	return check_sleep(h, seg, err, n);
}

int uct_seg_check(const struct uct_hdr *h, const struct uct_seg *seg, char *err, size_t n)
{
	struct chk *c = calloc(1, sizeof(*c));
	int rc;

	if (!c)
		return -ENOMEM;
	rc = seg_check(c, h, seg, err, n);
	free(c);
	return rc;
}

/* ---- vector dictionary ----
 *
 * The input vectors of a trace (a segment's inputs, attributes and sleep
 * masks), each held once as its encoding, numbered in order of first
 * appearance, found again by a hash of the encoding.  Bounded: at most
 * UCT_MAXVEC vectors and UCT_MAXVECBYTES bytes, after which a new vector is
 * not numbered (the binary vector form's rule, which its writer and reader
 * apply alike).
 *
 * The arrays are ucm_grow's (model/ucm_grow.h: no copy as they grow, pages
 * written once).  Only a dictionary that is searched (the writer's, the
 * text and record forms' reader's) keeps the hashes and their slots: the
 * binary vector form numbers its vectors itself, so its reader only adds
 * and looks vectors up by number.  A dictionary is indexed from its first
 * search, which the users make before adding anything. */

struct vdict {
	unsigned n, capn;
	uint32_t *off, *len;
	int indexed;
	uint64_t *hash;           /* indexed: each vector's */
	int32_t *slot;            /* indexed: 2 * capn, 0 free, else the vector + 1 */
	unsigned char *bytes;
	size_t nbytes, cap;
	size_t counted;           /* the bytes the format's limit counts */
	int chunks;               /* the chunks' limits, not the vectors' */
};

/* Eight bytes a step (a byte a step was a tenth of reading a trace with
 * many vectors: each multiply waits for the one before).  Only this
 * process compares the values: the byte order of a word does not matter. */
static uint64_t vd_hash(const unsigned char *b, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ n, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0xFF51AFD7ED558CCDull;
		h ^= h >> 32;
	}
	for (w = 0; i < n; i++)
		w = w << 8 | b[i];
	h = (h ^ w) * 0xFF51AFD7ED558CCDull;
	return h ^ (h >> 29);
}

static void vd_free(struct vdict *d)
{
	ucm_grow_free(d->off);
	ucm_grow_free(d->len);
	ucm_grow_free(d->hash);
	ucm_grow_free(d->slot);
	ucm_grow_free(d->bytes);
	memset(d, 0, sizeof(*d));
}

/* The number of the vector encoded as b[0..n), -1 when not numbered. */
static int vd_find(struct vdict *d, const unsigned char *b, size_t n, uint64_t h)
{
	unsigned mask = 2 * d->capn - 1;

	if (!d->indexed) {
		/* the first search: indexed from now on (vectors added before,
		 * not the users' way, are compared one by one) */
		for (unsigned v = 0; v < d->n; v++)
			if (d->len[v] == n && !memcmp(d->bytes + d->off[v], b, n))
				return (int)v;
		if (d->n)
			return -1;
		d->indexed = 1;
	}
	if (!d->slot)
		return -1;
	for (unsigned i = (unsigned)h & mask; d->slot[i]; i = (i + 1) & mask) {
		int32_t v = d->slot[i] - 1;

		if (d->hash[v] == h && d->len[v] == n && !memcmp(d->bytes + d->off[v], b, n))
			return v;
	}
	return -1;
}

/* Number a new vector stored as b[0..n), `counted` bytes by the format's
 * rule (a chunked vector stored as its chunks' numbers counts its inputs'
 * bytes): its number, -1 when the dictionary is full by that rule,
 * -ENOMEM. */
static int vd_add_as(struct vdict *d, const unsigned char *b, size_t n, uint64_t h, size_t counted)
{
	unsigned i, mask;

	if (d->n >= (d->chunks ? UCT_MAXCHUNK : UCT_MAXVEC) ||
	    counted > (d->chunks ? UCT_MAXCHUNKBYTES : UCT_MAXVECBYTES) - d->counted)
		return -1;
	if (d->n == d->capn) {
		/* grown as vectors come (most traces have few); when indexed,
		 * the slots twice the vectors, rehashed */
		unsigned cap = d->capn ? 2 * d->capn : 16;
		uint32_t *off, *len;
		uint64_t *hash;
		int32_t *slot;

		if (!(off = ucm_grow(d->off, sizeof(*off), cap)))
			return -ENOMEM;
		d->off = off;
		if (!(len = ucm_grow(d->len, sizeof(*len), cap)))
			return -ENOMEM;
		d->len = len;
		if (d->indexed) {
			if (!(hash = ucm_grow(d->hash, sizeof(*hash), cap)))
				return -ENOMEM;
			d->hash = hash;
			if (!(slot = ucm_grow(NULL, sizeof(*slot), 2 * (size_t)cap)))
				return -ENOMEM;
			ucm_grow_free(d->slot);
			d->slot = slot;
			for (unsigned v = 0; v < d->n; v++) {
				for (i = (unsigned)d->hash[v] & (2 * cap - 1); slot[i]; i = (i + 1) & (2 * cap - 1))
					;
				slot[i] = (int32_t)v + 1;
			}
		}
		d->capn = cap;
	}
	/* (allocated at the first, even an empty vector: entries point into it) */
	if (d->nbytes + n > d->cap || !d->bytes) {
		size_t cap = d->cap ? d->cap : 1024;
		unsigned char *nb;

		while (cap < d->nbytes + n)
			cap *= 2;
		if (!(nb = ucm_grow(d->bytes, 1, cap)))
			return -ENOMEM;
		d->bytes = nb;
		d->cap = cap;
	}
	if (n)
		memcpy(d->bytes + d->nbytes, b, n);
	d->counted += counted;
	d->off[d->n] = (uint32_t)d->nbytes;
	d->len[d->n] = (uint32_t)n;
	d->nbytes += n;
	if (d->indexed) {
		d->hash[d->n] = h;
		mask = 2 * d->capn - 1;
		for (i = (unsigned)h & mask; d->slot[i]; i = (i + 1) & mask)
			;
		d->slot[i] = (int32_t)d->n + 1;
	}
	return (int)d->n++;
}

/* Number a new vector, its bytes counted as stored. */
static int vd_add(struct vdict *d, const unsigned char *b, size_t n, uint64_t h)
{
	return vd_add_as(d, b, n, h, n);
}

static void put_var(unsigned char *b, size_t *n, uint64_t v);

/* A key for a segment's vector read from text or the record form: its
 * inputs by box type and sub-event index (at most 10 bytes a field). */
#define VKEY_MAX (16 + UCT_MAXIN * 10 * (7 + UCM_NATTR))

static size_t vec_key(const struct uct_seg *s, unsigned char *b)
{
	size_t n = 0;

	put_var(b, &n, s->nin);
	for (unsigned i = 0; i < s->nin; i++) {
		const struct uct_in *in = &s->in[i];

		put_var(b, &n, (uint64_t)in->bt << 16 | in->sub);
		put_var(b, &n, in->socket);
		put_var(b, &n, (uint64_t)(in->inst + 1));
		put_var(b, &n, in->inc);
		put_var(b, &n, in->amask);
		for (unsigned a = 0; a < UCM_NATTR; a++)
			if (in->amask >> a & 1)
				put_var(b, &n, in->attr[a]);
	}
	return n;
}

/* ---- text reader ---- */

static int read_line(struct uct_reader *r)
{
	size_t k = 0;
	int c;

	if (!r->line && !(r->line = malloc(MAXLINE)))
		return -ENOMEM;
	c = src_getc(&r->src);
	if (c == EOF && !r->src.rd_errno)
		return 0;
	/* the line counts from its first byte: an error in it names it */
	r->lineno++;
	for (; c != EOF && c != '\n'; c = src_getc(&r->src)) {
		if (k + 1 >= MAXLINE)
			return rerr(r, k + 1, "line longer than %d bytes", MAXLINE - 1);
		if (c == 0)
			return rerr(r, k + 1, "NUL byte in a text trace");
		r->line[k++] = (char)c;
	}
	if (r->src.rd_errno) {
		/* a file not read, not a malformed one */
		rerr(r, k + 1, "read error: %s", strerror(r->src.rd_errno));
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
		return rerr(r, col(c), "expected %s (a number)", what);
	/* decimal, or hex after 0x, as in event strings: a leading 0 is not
	 * octal (run 010: is ten cycles) */
	errno = 0;
	if (c->p[0] == '0' && (c->p[1] == 'x' || c->p[1] == 'X'))
		*v = strtoull(c->p, &end, 16);
	else
		*v = strtoull(c->p, &end, 10);
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

/* "{nid=1,tid=3}" after an increment: the attributes of the input. */
static int parse_attrs(struct uct_reader *r, struct cur *c, const struct ucm_boxtype *bt,
		       struct uct_in *in)
{
	const struct ucm_evcode *ec = ucm_subev_code(bt, in->sub);

	if (r->hdr.version < 2)
		return rerr(r, col(c), "attributes need version 2 ('uncore-trace 2')");
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
			if (strlen(attr_names[a]) == n && !strncmp(attr_names[a], w, n))
				break;
		if (a == UCM_NATTR)
			return rerr(r, at, "unknown attribute '%.*s' (expected state, opc, nid, tid, freq, mc, vnw, dnid, rnid, rds or addr)",
				    (int)(n ? n : 1), w);
		if (!code_compares(ec, a))
			return rerr(r, at, "no filter of %s compares '%s' (%s)", ec->name, attr_names[a],
				    ec->cite);
		if (in->amask >> a & 1)
			return rerr(r, at, "attribute '%s' given twice", attr_names[a]);
		skip(c);
		if (*c->p != '=')
			return rerr(r, col(c), "expected '=' and a value after '%s'", attr_names[a]);
		c->p++;
		if (number(r, c, attr_max[a], &v, attr_names[a]))
			return -EINVAL;
		in->amask |= (uint16_t)(1u << a);
		in->attr[a] = v;
		skip(c);
		if (*c->p == '}') {
			c->p++;
			return 0;
		}
		if (*c->p != ',')
			return rerr(r, col(c), "expected ',' or '}' in the attributes");
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
		return rerr(r, col(c), "sleep states need version 2 ('uncore-trace 2')");
	if (socket < 32 && (r->sleep_seen >> socket & 1))
		return rerr(r, at, "asleep given twice for socket %u", socket);
	r->sleep_seen |= 1u << (socket & 31);
	c->p += 6;
	skip(c);
	c->p++; /* '=' */
	at = (skip(c), col(c));
	if (number(r, c, UINT64_MAX, &v, "core mask"))
		return -EINVAL;
	if (v & ~core_mask(r->hdr.plat))
		return rerr(r, at, "asleep=0x%llx: %s has %u cores per socket (mask 0x%llx)",
			    (unsigned long long)v, r->hdr.plat->name, r->hdr.plat->ncores,
			    (unsigned long long)core_mask(r->hdr.plat));
	seg->asleep[socket] = v;
	return 0;
}

/* "cbo0.CACHE_LOOKUP.READ_M=1", optionally "s1." first and "{attr=v,...}"
 * after; or "asleep=MASK".  Returns 1 for an input, 0 for a sleep mask. */
/* find_sub through the reader's cache of names met (a text trace names
 * the same few sub-events on every line). */
static int find_sub_cached(struct uct_reader *r, unsigned bti, const struct ucm_boxtype *bt,
			   const char *name, size_t n)
{
	uint32_t h = 2166136261u ^ bti;
	unsigned slot;
	int sub;

	if (n >= sizeof(r->names[0].key))
		return find_sub(bt, name);
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	slot = h & (sizeof(r->names) / sizeof(r->names[0]) - 1);
	if (r->names[slot].bt == bti + 1 && !strcmp(r->names[slot].key, name))
		return r->names[slot].sub;
	sub = find_sub(bt, name);
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
				return rerr(r, col(c) - 1, "socket %llu: the trace has %u", (unsigned long long)v,
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

		if (!t->nctr || t == bt || (i && p->boxes[i - 1].type == t) ||
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
		return rerr(r, col(c), "unknown box '%.*s'", (int)(n ? n : 1), w);
	}
	c->p += bn;
	if (bt != r->last_bt) {
		r->last_bt = bt;
		r->last_bti = ucm_boxtype_index(p, bt);
	}
	in->bt = (uint8_t)r->last_bti;
	if (isdigit((unsigned char)*c->p)) {
		at = col(c);
		if (number(r, c, 255, &v, "instance"))
			return -EINVAL;
		if (v >= ninst_of(&r->hdr, in->bt, bt))
			return rerr(r, at, "%s%llu: the trace has %u %s instances (0-%u)", bt->name,
				    (unsigned long long)v, ninst_of(&r->hdr, in->bt, bt), bt->name,
				    ninst_of(&r->hdr, in->bt, bt) - 1);
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
		memcpy(name, start, n < sizeof(name) ? n : sizeof(name) - 1);
		name[n < sizeof(name) ? n : sizeof(name) - 1] = 0;
		sub = n < sizeof(name) ? find_sub_cached(r, in->bt, bt, name, n) : -1;
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
	skip(c);
	if (*c->p == '{' && parse_attrs(r, c, bt, in))
		return -EINVAL;
	return 1;
}

/* Whether a trace ending at reference cycle `end` lasts longer than
 * MAXSECONDS of machine time (or 2^56 cycles); the message says which. */
static int too_long(const struct uct_reader *r, uint64_t end, char *err, size_t n)
{
	uint64_t hz = hz_of(&r->hdr, 0);

	if (end > MAXCYCLES) {
		snprintf(err, n, "trace longer than 2^56 cycles");
		return 1;
	}
	if (end <= MAXSECONDS * hz)
		return 0;
	snprintf(err, n,
		 "the trace would last %.6g s of machine time (%llu cycles at %llu Hz %s): more than the limit of %llu s",
		 (double)end / (double)hz, (unsigned long long)end, (unsigned long long)hz,
		 r->hdr.plat->clocks[0].name, MAXSECONDS);
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
		if (number(r, &c, MAXCYCLES, &v, "start cycle"))
			return -EINVAL;
		if (v < r->end)
			return rerr(r, at,
				    "out-of-order time: segment starts at cycle %llu, before the end of the previous one (%llu)",
				    (unsigned long long)v, (unsigned long long)r->end);
		if (too_long(r, v, err, sizeof(err)))
			return rerr(r, at, "%s", err);
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
		if (too_long(r, seg->start + seg->ncycles, err, sizeof(err)))
			return rerr(r, at, "%s", err);
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
	chk_reset(r->chk, &r->hdr);
	r->sleep_seen = 0;
	while (*c.p) {
		int rc;

		at = col(&c);
		if (seg->nin == UCT_MAXIN)
			return rerr(r, at, "more than %d inputs in one segment", UCT_MAXIN);
		if ((rc = parse_input(r, &c, seg, &seg->in[seg->nin])) < 0)
			return -EINVAL;
		/* check as we go, so the column points at the input at fault */
		if (rc == 1) {
			if (chk_add(r->chk, &r->hdr, seg, seg->nin, err, sizeof(err)))
				return rerr(r, at, "%s", err);
			seg->nin++;
		}
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
			if (v < 1 || v > UCT_VERSION)
				return rerr(r, at, "unsupported version %llu (this build reads 1 to %d)",
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
			if (!v || v > r->hdr.plat->max_sockets || v > UCT_MAXSOCK)
				return rerr(r, at, "%s has 1..%u sockets", r->hdr.plat->name,
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
	if (!r->hdr.sockets) {
		r->lineno = 1;
		return rerr(r, 1, "empty file: expected 'uncore-trace %d'", UCT_VERSION);
	}
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
	r->off = r->pay + r->bpos; /* an error names the field's first byte */
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

/* The same, a one-byte varint without the call (most of a vector form
 * record's fields). */
static inline int get_var1(struct uct_reader *r, uint64_t *v)
{
	if (r->bpos < r->blen && r->blk[r->bpos] < 0x80) {
		*v = r->blk[r->bpos++];
		return 0;
	}
	return get_var(r, v);
}

/* A varint of at most 8 bytes (56 bits) at p, before end; the bytes read,
 * 0 for anything else (the general path then reads it, errors and all). */
static inline unsigned fast_var(const unsigned char *p, const unsigned char *end, uint64_t *v)
{
	uint64_t x = 0;

	/* most of a record's fields are one or two bytes (branches: a
	 * field's length predicted lets the next one's load start; tried
	 * without a branch, eight bytes at once: reading took twice as long) */
	if (p < end && p[0] < 0x80) {
		*v = p[0];
		return 1;
	}
	if (end - p >= 2 && p[1] < 0x80) {
		*v = (p[0] & 0x7Fu) | (uint64_t)p[1] << 7;
		return 2;
	}
	for (unsigned i = 0; i < 8 && p + i < end; i++) {
		x |= (uint64_t)(p[i] & 0x7F) << (7 * i);
		if (!(p[i] & 0x80)) {
			*v = x;
			return i + 1;
		}
	}
	return 0;
}

/* fast_var where the bytes past the block's end it may read are there
 * (BLKPAD zero bytes follow every block): no end to check at each byte;
 * whoever reads so checks the field ends no later than the block.  (Its
 * own body: as fast_var(p, p + 8, v), or fast_var as a call of it, G1
 * ivt `cstate` or G3's decoding ran 3-13 % slower.) */
static inline unsigned fast_var_pad(const unsigned char *p, uint64_t *v)
{
	uint64_t x = 0;

	if (p[0] < 0x80) {
		*v = p[0];
		return 1;
	}
	if (p[1] < 0x80) {
		*v = (p[0] & 0x7Fu) | (uint64_t)p[1] << 7;
		return 2;
	}
	for (unsigned i = 0; i < 8; i++) {
		x |= (uint64_t)(p[i] & 0x7F) << (7 * i);
		if (!(p[i] & 0x80)) {
			*v = x;
			return i + 1;
		}
	}
	return 0;
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

	r->off = r->pos;
	if (src_read(&r->src, h, 5) != 5) {
		rerr(r, 0, "%s", r->src.rd_errno ? strerror(r->src.rd_errno)
						 : "truncated: a block header is missing (no end block)");
		return r->src.rd_errno ? -EIO : -EINVAL;
	}
	len = (uint32_t)h[1] | (uint32_t)h[2] << 8 | (uint32_t)h[3] << 16 | (uint32_t)h[4] << 24;
	if (len > MAXBLOCK)
		return rerr(r, 0, "corrupt: block length %u exceeds %u", len, MAXBLOCK);
	if (len > r->bcap || !r->blk) {
		/* grown to the blocks met (most are far below the 1 MiB limit),
		 * at least twice as large each time; ucm_grow's (no copy once
		 * it is a mapping, each page written once) */
		size_t cap = r->bcap < 2048 ? 4096 : 2 * r->bcap;
		unsigned char *nb;

		if (cap < len)
			cap = len;
		if (cap > MAXBLOCK)
			cap = MAXBLOCK;
		if (!(nb = ucm_grow(r->blk, 1, cap + BLKPAD)))
			return -ENOMEM;
		r->blk = nb;
		r->bcap = cap;
	}
	if (src_read(&r->src, r->blk, len) != len || src_read(&r->src, t, 4) != 4) {
		rerr(r, 0, "%s", r->src.rd_errno ? strerror(r->src.rd_errno) : "truncated inside a block");
		return r->src.rd_errno ? -EIO : -EINVAL;
	}
	crc = crc32_gzip_refl(crc32_gzip_refl(0, h, 5), r->blk, len);
	want = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
	if (crc != want)
		return rerr(r, 0, "corrupt: block checksum 0x%08x, expected 0x%08x", crc, want);
	*type = h[0];
	memset(r->blk + len, 0, BLKPAD);
	r->blen = len;
	r->bpos = 0;
	r->pay = r->pos + 5;
	r->pos += 9 + len;
	r->off = r->pay;
	return 0;
}

static int bin_header(struct uct_reader *r)
{
	unsigned char m[12];
	char name[64];
	uint64_t v, n;
	int type;

	r->off = 0;
	if (src_read(&r->src, m, 12) != 12) {
		if (!r->src.rd_errno)
			return rerr(r, 0, "not an uncore binary trace (bad magic)");
		rerr(r, 0, "read error: %s", strerror(r->src.rd_errno));
		return -EIO;
	}
	if (memcmp(m, MAGIC, 8))
		return rerr(r, 0, "not an uncore binary trace (bad magic)");
	r->hdr.version = (unsigned)(m[8] | m[9] << 8);
	r->off = 8;
	if (r->hdr.version < 1 || r->hdr.version > UCT_VERSION)
		return rerr(r, 8, "unsupported version %u (this build reads 1 to %d)", r->hdr.version,
			    UCT_VERSION);
	r->off = 10;
	if ((m[10] | m[11] << 8) & ~(UCT_FLAG_VECTORS | UCT_FLAG_CHUNKS | UCT_FLAG_CHANGES | UCT_FLAG_EMPTY))
		return rerr(r, 10, "unknown flags 0x%04x", m[10] | m[11] << 8);
	if ((m[10] & UCT_FLAG_CHUNKS) && !(m[10] & UCT_FLAG_VECTORS))
		return rerr(r, 10, "flags 0x%04x: chunks (bit 1) without the vector form (bit 0)",
			    m[10] | m[11] << 8);
	if ((m[10] & UCT_FLAG_CHANGES) && !(m[10] & UCT_FLAG_VECTORS))
		return rerr(r, 10, "flags 0x%04x: sleep changes (bit 2) without the vector form (bit 0)",
			    m[10] | m[11] << 8);
	if ((m[10] & UCT_FLAG_EMPTY) && !(m[10] & UCT_FLAG_CHANGES))
		return rerr(r, 10, "flags 0x%04x: empty sleep changes (bit 3) without sleep changes (bit 2)",
			    m[10] | m[11] << 8);
	r->vform = m[10] & UCT_FLAG_VECTORS;
	r->chunked = !!(m[10] & UCT_FLAG_CHUNKS);
	r->changes = !!(m[10] & UCT_FLAG_CHANGES);
	r->empty = !!(m[10] & UCT_FLAG_EMPTY);
	r->lch_vid = -1;
	r->pos = r->off = 12;
	if (read_block(r, &type))
		return -EINVAL;
	if (type != 'H') {
		r->off = r->pay - 5;
		return rerr(r, 0, "expected the header block first");
	}
	if (get_str(r, name, sizeof(name)))
		return -EINVAL;
	if (!(r->hdr.plat = ucm_platform_find(name)))
		return rerr(r, 0, "unknown platform '%s'", name);
	if (get_var(r, &v))
		return -EINVAL;
	if (!v || v > r->hdr.plat->max_sockets || v > UCT_MAXSOCK)
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
	r->off = r->pay + r->bpos;
	if (r->bpos != r->blen)
		return rerr(r, 0, "junk after the header fields");
	/* the end no record may pass: 2^56 cycles, MAXSECONDS (too_long) */
	r->cores = core_mask(r->hdr.plat);
	r->maxend = MAXSECONDS * hz_of(&r->hdr, 0);
	if (r->maxend > MAXCYCLES)
		r->maxend = MAXCYCLES;
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
		if (!bt || (sub = find_sub(bt, sn)) < 0)
			return rerr(r, 0, "unknown sub-event %s.%s", bn, sn);
		r->sym[r->nsym].bt = (uint8_t)ucm_boxtype_index(r->hdr.plat, bt);
		r->sym[r->nsym].sub = (uint16_t)sub;
		r->nsym++;
	}
	r->off = r->pay + r->bpos;
	return r->bpos == r->blen ? 0 : rerr(r, 0, "junk after the symbols");
}

/* An input's fields from its symbol, socket, instance + 1 and increment
 * (checked in range by the caller). */
static inline void in_fields(const struct uct_reader *r, struct uct_in *in, uint64_t sym,
			     uint64_t sock, uint64_t inst, uint64_t inc)
{
	in->socket = (uint8_t)sock;
	in->bt = r->sym[sym].bt;
	in->inst = (int16_t)((int)inst - 1);
	in->sub = r->sym[sym].sub;
	in->inc = (uint32_t)inc;
}

/* Input i of a segment at the block's position: symbol socket inst+1 inc
 * [amask attr*] (docs/formats.md), each field checked. */
static int bin_input(struct uct_reader *r, struct uct_in *in)
{
	uint64_t v, sym, sock, inst, inc;

	if (get_var(r, &sym) || get_var(r, &sock) || get_var(r, &inst) || get_var(r, &inc))
		return -EINVAL;
	if (sym >= r->nsym)
		return rerr(r, 0, "undefined symbol %llu", (unsigned long long)sym);
	if (sock > 255 || inst > 256 || inc > UINT32_MAX)
		return rerr(r, 0, "input field out of range");
	memset(in, 0, sizeof(*in));
	in_fields(r, in, sym, sock, inst, inc);
	if (r->hdr.version >= 2) {
		/* attribute mask, then the value of each attribute in it */
		if (get_var(r, &v))
			return -EINVAL;
		if (v >> UCM_NATTR)
			return rerr(r, 0, "attribute mask 0x%llx out of range", (unsigned long long)v);
		in->amask = (uint16_t)v;
		for (unsigned a = 0; a < UCM_NATTR; a++) {
			if (!(in->amask >> a & 1))
				continue;
			if (get_var(r, &v))
				return -EINVAL;
			if (v > attr_max[a])
				return rerr(r, 0, "attribute %s=%llu out of range", attr_names[a],
					    (unsigned long long)v);
			in->attr[a] = v;
		}
	}
	return 0;
}

/* An input cleared, padding included, word by word: a memset of the
 * struct becomes a string store whose start-up is much of an input's
 * read. */
static inline void zero_in(struct uct_in *in)
{
	_Static_assert(UCM_NATTR == 11, "zero_in clears 11 attributes");
	memset(in, 0, offsetof(struct uct_in, attr));
	in->attr[0] = 0;
	in->attr[1] = 0;
	in->attr[2] = 0;
	in->attr[3] = 0;
	in->attr[4] = 0;
	in->attr[5] = 0;
	in->attr[6] = 0;
	in->attr[7] = 0;
	in->attr[8] = 0;
	in->attr[9] = 0;
	in->attr[10] = 0;
}

/* The same at p (before e) without a call a field: the bytes read, 0 for
 * anything bin_input would refuse or fast_var does not read (bin_input
 * then reads the input again, errors and all). */
static inline unsigned fast_input(const struct uct_reader *r, const unsigned char *p,
				  const unsigned char *e, struct uct_in *in)
{
	uint64_t sym, sock, inst, inc, v;
	unsigned at, k;

	if (!(at = fast_var(p, e, &sym)) || sym >= r->nsym ||
	    !(k = fast_var(p + at, e, &sock)) || sock > 255 ||
	    !(at += k, k = fast_var(p + at, e, &inst)) || inst > 256 ||
	    !(at += k, k = fast_var(p + at, e, &inc)) || inc > UINT32_MAX)
		return 0;
	at += k;
	zero_in(in);
	in_fields(r, in, sym, sock, inst, inc);
	if (r->hdr.version >= 2) {
		if (!(k = fast_var(p + at, e, &v)) || v >> UCM_NATTR)
			return 0;
		at += k;
		in->amask = (uint16_t)v;
		/* the attributes given, in increasing order */
		for (unsigned m = in->amask; m; m &= m - 1) {
			unsigned a = (unsigned)__builtin_ctz(m);

			if (!(k = fast_var(p + at, e, &v)) || v > attr_max[a])
				return 0;
			at += k;
			in->attr[a] = v;
		}
	}
	return at;
}

/* A segment's inputs at the block's position: ninputs input*
 * (docs/formats.md).  (On success r->off is left where it was or at an
 * input's field; every caller sets it before its next error.) */
static int bin_inputs(struct uct_reader *r, struct uct_seg *seg)
{
	uint64_t nin;

	if (get_var(r, &nin))
		return -EINVAL;
	if (nin > UCT_MAXIN)
		return rerr(r, 0, "%llu inputs in a segment (max %d)", (unsigned long long)nin, UCT_MAXIN);
	for (unsigned i = 0; i < nin; i++) {
		unsigned k = fast_input(r, r->blk + r->bpos, r->blk + r->blen, &seg->in[i]);

		if (k)
			r->bpos += k;
		else if (bin_input(r, &seg->in[i]))
			return -EINVAL;
	}
	seg->nin = (unsigned)nin;
	return 0;
}

/* Sleep masks at the block's position: nsleep (socket mask)*, in
 * increasing socket order, none 0; into asleep (zeroed here); each
 * checked against the sockets and cores (a mask naming a core the
 * platform lacks: an error at the masks' first byte). */
static int bin_sleep(struct uct_reader *r, uint64_t *asleep)
{
	uint64_t ns, sock, v, last = 0, start = r->pay + r->bpos, cores = core_mask(r->hdr.plat);

	memset(asleep, 0, UCT_MAXSOCK * sizeof(*asleep));
	if (get_var1(r, &ns))
		return -EINVAL;
	r->off = start; /* (get_var1 notes a field's place only when it calls get_var) */
	if (ns > r->hdr.sockets)
		return rerr(r, 0, "%llu sleep masks for %u sockets", (unsigned long long)ns,
			    r->hdr.sockets);
	for (unsigned k = 0; k < ns; k++) {
		/* an error at the mask: get_var notes its first byte */
		if (get_var1(r, &sock) || get_var(r, &v))
			return -EINVAL;
		if (sock >= r->hdr.sockets || (k && sock <= last) || !v)
			return rerr(r, 0, "sleep mask %u (socket %llu, 0x%llx) out of order or empty", k,
				    (unsigned long long)sock, (unsigned long long)v);
		if (v & ~cores) {
			r->off = start;
			return rerr(r, 0, "asleep=0x%llx: %s has %u cores per socket",
				    (unsigned long long)v, r->hdr.plat->name, r->hdr.plat->ncores);
		}
		asleep[sock] = v;
		last = sock;
	}
	return 0;
}

/* Sleep changes at the block's position (flags bit 2, in place of masks):
 * nchg idx*, idx = socket * 64 + core in increasing order, at least one
 * (none allowed with flags bit 3): each core named changes state, in
 * asleep (the masks so far).  Errors at the changes' first byte, or at the
 * one out of order. */
static int bin_changes(struct uct_reader *r, uint64_t *asleep)
{
	uint64_t nc, idx, last = 0, start = r->pay + r->bpos, cores = core_mask(r->hdr.plat);

	if (get_var1(r, &nc))
		return -EINVAL;
	r->off = start;
	if ((!nc && !r->empty) || nc > (uint64_t)r->hdr.sockets * 64)
		return rerr(r, 0, "%llu sleep changes (%u to %u: a core of %u sockets each at most once)",
			    (unsigned long long)nc, !r->empty, r->hdr.sockets * 64, r->hdr.sockets);
	for (unsigned k = 0; k < nc; k++) {
		if (get_var(r, &idx))
			return -EINVAL;
		if ((k && idx <= last) || idx >> 6 >= r->hdr.sockets)
			return rerr(r, 0, "sleep change %u (socket %llu core %llu) out of order or past the "
				    "sockets", k, (unsigned long long)(idx >> 6), (unsigned long long)(idx & 63));
		if (!(cores >> (idx & 63) & 1)) {
			r->off = start;
			return rerr(r, 0, "sleep change of core %llu: %s has %u cores per socket",
				    (unsigned long long)(idx & 63), r->hdr.plat->name, r->hdr.plat->ncores);
		}
		asleep[idx >> 6] ^= 1ull << (idx & 63);
		last = idx;
	}
	return 0;
}

/* Sleep masks copied as words: memcpy of 64 bytes becomes a string move
 * whose start-up is most of a vector form record's cost. */
static inline void copy_masks(uint64_t *to, const uint64_t *from)
{
#if UCT_MAXSOCK != 8
#error "copy_masks copies 8 masks"
#endif
	to[0] = from[0];
	to[1] = from[1];
	to[2] = from[2];
	to[3] = from[3];
	to[4] = from[4];
	to[5] = from[5];
	to[6] = from[6];
	to[7] = from[7];
}

/* Sleep masks zeroed as words: a loop becomes a string store whose
 * start-up costs more than a vector form record's read. */
static inline void zero_masks(uint64_t *to)
{
	to[0] = 0;
	to[1] = 0;
	to[2] = 0;
	to[3] = 0;
	to[4] = 0;
	to[5] = 0;
	to[6] = 0;
	to[7] = 0;
}

/* A record form segment's content: its inputs, and from version 2 its
 * sleep masks. */
static int bin_vector(struct uct_reader *r, struct uct_seg *seg)
{
	if (bin_inputs(r, seg))
		return -EINVAL;
	if (r->hdr.version >= 2)
		return bin_sleep(r, seg->asleep);
	memset(seg->asleep, 0, sizeof(seg->asleep));
	return 0;
}

/* An `inputs` encoding read before (a vector or a chunk numbered, a
 * chunked vector assembled: checked where it was given) into seg. */
static int bin_inputs_of(struct uct_reader *r, unsigned char *b, size_t n, struct uct_seg *seg)
{
	unsigned char *blk = r->blk;
	size_t blen = r->blen, bpos = r->bpos;
	uint64_t pay = r->pay, off = r->off;
	int rc;

	r->blk = b;
	r->blen = n;
	r->bpos = 0;
	rc = bin_inputs(r, seg);
	r->blk = blk;
	r->blen = blen;
	r->bpos = bpos;
	r->pay = pay;
	r->off = off;
	return rc;
}

static void chunks_plain(struct uct_reader *r, const uint32_t *ids, unsigned n, unsigned char **vb,
			 size_t *vn);

static int bin_vector_at(struct uct_reader *r, unsigned id, struct uct_seg *seg)
{
	const unsigned char *b = r->vd->bytes + r->vd->off[id];
	unsigned char *pb;
	size_t len = r->vd->len[id], pn;
	uint32_t ids[UCT_MAXIN];
	unsigned n = 0;
	int k;

	if (id >= r->capvl || !r->vlisted[id])
		return bin_inputs_of(r, r->vd->bytes + r->vd->off[id], len, seg);
	if (r->vlisted[id] > 0) {
		k = r->vlisted[id] - 1;
		return bin_inputs_of(r, r->pd->bytes + r->pd->off[k], r->pd->len[k], seg);
	}
	/* kept as its chunks' numbers (written here: minimal varints) */
	for (size_t i = 0; i < len && n < UCT_MAXIN; n++) {
		uint32_t v = 0;

		for (unsigned sh = 0; i < len; sh += 7) {
			v |= (uint32_t)(b[i] & 0x7F) << sh;
			if (!(b[i++] & 0x80))
				break;
		}
		ids[n] = v;
	}
	chunks_plain(r, ids, n, &pb, &pn);
	/* kept assembled for the next reference read with its content (at
	 * most the vectors' limit of bytes: they count as assembled) */
	if (!r->pd && !(r->pd = calloc(1, sizeof(*r->pd))))
		return -ENOMEM;
	if ((k = vd_add(r->pd, pb, pn, 0)) == -ENOMEM)
		return k;
	if (k >= 0)
		r->vlisted[id] = k + 1;
	return bin_inputs_of(r, pb, pn, seg);
}

/* The inputs of vector vid, numbered before (the replay's, for a chunked
 * vector it did not make from its chunks). */
static int vector_content(struct uct_reader *r, int vid, struct uct_seg *seg)
{
	if (!r->binary || !r->vform || vid < 0 || !r->vd || (unsigned)vid >= r->vd->n)
		return -EINVAL;
	return bin_vector_at(r, (unsigned)vid, seg);
}

/* A chunk's facts: the sockets and box types of its inputs, a bit each
 * (socket * UCM_MAXBT + box type), the bytes of its input count, its
 * inputs. */
struct rchunk {
	uint64_t keys[UCT_MAXSOCK * UCM_MAXBT / 64];
	uint16_t nin;
	uint8_t pre;
};

/* The bytes of an `inputs` encoding's room in r->vbuf: its count (at most
 * two bytes: UCT_MAXIN), then inputs of at most 10 bytes a field. */
#define VBUF_MAX (2 + UCT_MAXIN * 10 * (5 + UCM_NATTR))

/* An `inputs` encoding assembled in r->vbuf: its inputs' bytes from 2 to
 * end, and before them their count (total, a varint of one or two bytes
 * ending at 2): its start and length. */
static void vbuf_count(struct uct_reader *r, unsigned total, size_t end, unsigned char **vb,
		       size_t *vn)
{
	if (total < 0x80) {
		r->vbuf[1] = (unsigned char)total;
		*vb = r->vbuf + 1;
		*vn = end - 1;
	} else {
		r->vbuf[0] = (unsigned char)(total | 0x80);
		r->vbuf[1] = (unsigned char)(total >> 7);
		*vb = r->vbuf;
		*vn = end;
	}
}

/* The `inputs` encoding of a vector of chunks ids[0..n) (numbered), in
 * r->vbuf: their inputs after their count. */
static void chunks_plain(struct uct_reader *r, const uint32_t *ids, unsigned n, unsigned char **vb,
			 size_t *vn)
{
	size_t at = 2;
	unsigned total = 0;

	for (unsigned k = 0; k < n; k++) {
		const struct rchunk *c = &r->ch[ids[k]];
		size_t len = r->cd->len[ids[k]];

		memcpy(r->vbuf + at, r->cd->bytes + r->cd->off[ids[k]] + c->pre, len - c->pre);
		at += len - c->pre;
		total += c->nin;
	}
	vbuf_count(r, total, at, vb, vn);
}

/* A vector given as chunks (flags bit 1): `nchunks chunk*`, a chunk 0 and
 * its `inputs` (new: numbered while there is room) or j + 1 (chunk j,
 * given before).  *known: every chunk numbered before this record, no
 * socket and box type in two of them; the vector then passes the checks
 * without them (every rule of seg_check but the count is one of a socket
 * and box type's inputs, and holds for some of them where it holds for
 * all; each chunk was checked in the vector that gave it): its chunks in
 * r->lch, *vn the bytes its `inputs` encoding has (the dictionary's
 * rule).  Otherwise that encoding, its chunks' inputs in order, is
 * assembled at *vb (in r->vbuf), *vn bytes. */
static int bin_chunks(struct uct_reader *r, unsigned char **vb, size_t *vn, int *known)
{
	enum { NW = UCT_MAXSOCK * UCM_MAXBT / 64 };
	uint64_t nch, ref, seen[NW] = { 0 };
	/* each chunk: its number, or (-1, a new chunk not numbered) its place
	 * in the block; the dictionary's bytes may move while a record adds
	 * chunks */
	struct { int32_t id; uint32_t at, len; uint8_t pre; } cs[UCT_MAXIN];
	unsigned total = 0;
	size_t n = 0;
	int all = 1;

	r->nlch = 0;
	r->lch_vid = -1;
	if (!r->vbuf && !(r->vbuf = malloc(VBUF_MAX)))
		return -ENOMEM;
	if (!r->cd && !(r->cd = calloc(1, sizeof(*r->cd))))
		return -ENOMEM;
	r->cd->chunks = 1;
	if (get_var1(r, &nch))
		return -EINVAL;
	if (nch > UCT_MAXIN)
		return rerr(r, 0, "%llu chunks in a vector (max %d)", (unsigned long long)nch, UCT_MAXIN);
	for (unsigned k = 0; k < nch; k++) {
		uint64_t cpos = r->pay + r->bpos;
		struct rchunk c;
		int id;

		if (get_var1(r, &ref))
			return -EINVAL;
		if (ref) {
			if (ref - 1 >= r->cd->n) {
				r->off = cpos;
				return rerr(r, 0, "undefined chunk %llu (%u defined)",
					    (unsigned long long)ref - 1, r->cd->n);
			}
			id = (int)(ref - 1);
			c = r->ch[id];
			cs[k].len = r->cd->len[id];
		} else {
			size_t at = r->bpos;
			const unsigned char *b;

			if (!r->cseg && !(r->cseg = malloc(sizeof(*r->cseg))))
				return -ENOMEM;
			if (bin_inputs(r, r->cseg))
				return -EINVAL;
			r->off = cpos;
			if (!r->cseg->nin)
				return rerr(r, 0, "empty chunk");
			b = r->blk + at;
			cs[k].at = (uint32_t)at;
			cs[k].len = (uint32_t)(r->bpos - at);
			memset(&c, 0, sizeof(c));
			/* the count's bytes as given (a varint may be longer than it needs) */
			for (c.pre = 1; b[c.pre - 1] & 0x80; c.pre++)
				;
			c.nin = (uint16_t)r->cseg->nin;
			for (unsigned i = 0; i < c.nin; i++) {
				unsigned key = r->cseg->in[i].socket * UCM_MAXBT + r->cseg->in[i].bt;

				/* (sockets past the header's are refused by the check below) */
				if (key < 64 * NW)
					c.keys[key / 64] |= 1ull << (key % 64);
			}
			if ((id = vd_add(r->cd, b, cs[k].len, 0)) == -ENOMEM)
				return id;
			if (id >= 0) {
				if ((size_t)id >= r->capch) {
					size_t cap = r->capch ? 2 * r->capch : 64;
					struct rchunk *nc = realloc(r->ch, cap * sizeof(*nc));

					if (!nc)
						return -ENOMEM;
					r->ch = nc;
					r->capch = cap;
				}
				r->ch[id] = c;
			}
			all = 0; /* given here: the vector is checked whole */
		}
		if (c.nin > UCT_MAXIN - total) {
			r->off = cpos;
			return rerr(r, 0, "%u inputs in a segment (max %d)", total + c.nin, UCT_MAXIN);
		}
		for (unsigned w = 0; w < NW; w++) {
			if (seen[w] & c.keys[w])
				all = 0;
			seen[w] |= c.keys[w];
		}
		cs[k].id = id;
		cs[k].pre = c.pre;
		n += cs[k].len - c.pre;
		total += c.nin;
	}
	*known = all;
	if (all) {
		for (unsigned k = 0; k < nch; k++)
			r->lch[k] = (uint32_t)cs[k].id;
		r->nlch = (unsigned)nch;
		*vn = n + (total < 0x80 ? 1 : 2);
		return 0;
	}
	/* the `inputs` encoding: the count, then the chunks' inputs */
	n = 2;
	for (unsigned k = 0; k < nch; k++) {
		const unsigned char *b = cs[k].id >= 0 ? r->cd->bytes + r->cd->off[cs[k].id]
						       : r->blk + cs[k].at;

		memcpy(r->vbuf + n, b + cs[k].pre, cs[k].len - cs[k].pre);
		n += cs[k].len - cs[k].pre;
	}
	vbuf_count(r, total, n, vb, vn);
	return 0;
}

static int bin_next(struct uct_reader *r, struct uct_seg *seg, int need, int *vid, int *full)
{
	uint64_t v, rec;
	char err[256];
	int rc;

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
			r->off = r->pay + r->bpos;
			if (r->bpos != r->blen)
				return rerr(r, 0, "junk after the end block's counts");
			r->off = r->pay;
			if (nseg != r->nseg || end != r->end)
				return rerr(r, 0,
					    "end block says %llu segments over %llu cycles; read %llu over %llu",
					    (unsigned long long)nseg, (unsigned long long)end,
					    (unsigned long long)r->nseg, (unsigned long long)r->end);
			r->off = r->pos;
			if (src_read(&r->src, &x, 1) == 1)
				return rerr(r, 0, "data after the end block");
			if (r->src.rd_errno) {
				rerr(r, 0, "read error: %s", strerror(r->src.rd_errno));
				return -EIO;
			}
			r->ended = 1;
			return 0;
		} else {
			r->off = r->pay - 5;
			return rerr(r, 0, "unknown block type 0x%02x", type);
		}
	}
	rec = r->pay + r->bpos;
	if (get_var1(r, &v))
		return -EINVAL;
	if (v > MAXCYCLES - r->end) {
		r->off = rec;
		return rerr(r, 0, "segment start out of range");
	}
	seg->start = r->end + v;
	if (get_var1(r, &seg->ncycles))
		return -EINVAL;
	*vid = -1;
	*full = 1;
	if (r->vform) {
		uint64_t code, ref;
		size_t at = 0, vn = 0;
		unsigned char *vb = NULL;
		int known = 0;

		/* the record's time first: a rule it breaks as a whole */
		r->off = rec;
		if (!seg->ncycles || seg->ncycles > MAXCYCLES)
			return rerr(r, 0, "segment length %llu cycles out of range 1..2^56",
				    (unsigned long long)seg->ncycles);
		if (seg->ncycles > MAXCYCLES - seg->start ||
		    too_long(r, seg->start + seg->ncycles, err, sizeof(err)))
			return rerr(r, 0, "%s", seg->ncycles > MAXCYCLES - seg->start
						       ? "trace longer than 2^56 cycles" : err);
		/* code: 2 x (0: a new vector follows, k: vector k - 1) + 1 when
		 * the sleep masks follow (otherwise the previous record's) */
		at = r->bpos;
		if (get_var1(r, &code))
			return -EINVAL;
		ref = code >> 1;
		if (ref) {
			/* a vector numbered before: checked when it was defined */
			if (ref - 1 >= (r->vd ? r->vd->n : 0)) {
				r->off = r->pay + at;
				return rerr(r, 0, "undefined vector %llu (%u defined)",
					    (unsigned long long)ref - 1, r->vd ? r->vd->n : 0);
			}
			*vid = (int)(ref - 1);
			*full = 0;
		} else if (r->chunked) {
			if ((rc = bin_chunks(r, &vb, &vn, &known)))
				return rc;
		} else {
			at = r->bpos;
			if (bin_inputs(r, seg))
				return -EINVAL;
			vb = r->blk + at;
			vn = r->bpos - at;
		}
		if (code & 1) {
			if (r->hdr.version < 2) {
				r->off = rec;
				return rerr(r, 0, "sleep masks need version 2");
			}
			/* checked there (a new vector's segment again below) */
			if (r->changes ? bin_changes(r, r->asleep) : bin_sleep(r, r->asleep))
				return -EINVAL;
			copy_masks(seg->asleep, r->asleep);
		} else {
			copy_masks(seg->asleep, r->asleep);
		}
		if (!ref) {
			int id, dec = !r->chunked, listed = r->chunked && known;
			unsigned char lb[UCT_MAXIN * 5];
			size_t ln = 0;

			/* a chunked vector's inputs decoded where they are checked
			 * or wanted (a vector not numbered is used now: wanted) */
			if (r->chunked && (!known || (need & NEED_CONTENT))) {
				unsigned char *pb = vb;
				size_t pn = vn;

				if (known)
					chunks_plain(r, r->lch, r->nlch, &pb, &pn);
				if (bin_inputs_of(r, pb, pn, seg))
					return -EINVAL;
				dec = 1;
			}
			r->off = rec;
			if (!listed && seg_check(r->chk, &r->hdr, seg, err, sizeof(err)))
				return rerr(r, 0, "%s", err);
			if (!r->vd && !(r->vd = calloc(1, sizeof(*r->vd))))
				return -ENOMEM;
			/* (no hash: the vector form's dictionary is never searched);
			 * a vector of known chunks kept as their numbers, counted
			 * as its `inputs` encoding */
			if (listed) {
				for (unsigned k = 0; k < r->nlch; k++)
					put_var(lb, &ln, r->lch[k]);
				id = vd_add_as(r->vd, lb, ln, 0, vn);
			} else {
				id = vd_add(r->vd, vb, vn, 0);
			}
			if (id == -ENOMEM)
				return id;
			if (listed && id >= 0) {
				if ((size_t)id >= r->capvl) {
					size_t cap = r->capvl ? 2 * r->capvl : 256;
					int32_t *nl;

					while (cap <= (size_t)id)
						cap *= 2;
					if (!(nl = realloc(r->vlisted, cap * sizeof(*nl))))
						return -ENOMEM;
					memset(nl + r->capvl, 0, (cap - r->capvl) * sizeof(*nl));
					r->vlisted = nl;
					r->capvl = cap;
				}
				r->vlisted[id] = -1;
			}
			if (!dec && id < 0) {
				unsigned char *pb;
				size_t pn;

				chunks_plain(r, r->lch, r->nlch, &pb, &pn);
				if (bin_inputs_of(r, pb, pn, seg))
					return -EINVAL;
				dec = 1;
			}
			*vid = id;
			*full = dec;
			if (!dec)
				r->lch_vid = id;
		} else if ((need & NEED_CONTENT) && (rc = bin_vector_at(r, (unsigned)(ref - 1), seg))) {
			return rc;
		} else {
			*full = (need & NEED_CONTENT) != 0;
		}
	} else {
		seg->nin = 0;
		memset(seg->asleep, 0, sizeof(seg->asleep));
		if (bin_vector(r, seg))
			return -EINVAL;
		/* a rule the record breaks: the record's offset */
		r->off = rec;
		if (seg_check(r->chk, &r->hdr, seg, err, sizeof(err)))
			return rerr(r, 0, "%s", err);
		if (seg->ncycles > MAXCYCLES - seg->start ||
		    too_long(r, seg->start + seg->ncycles, err, sizeof(err)))
			return rerr(r, 0, "%s", seg->ncycles > MAXCYCLES - seg->start
						       ? "trace longer than 2^56 cycles" : err);
	}
	r->end = seg->start + seg->ncycles;
	r->nseg++;
	r->brecs--;
	if (!r->brecs && r->bpos != r->blen) {
		r->off = r->pay + r->bpos;
		return rerr(r, 0, "junk after the last record of a block");
	}
	return 1;
}

/* The sleep masks of a vector form record at p (before e) as bin_sleep
 * reads and checks them, into m (every socket's, word by word: the replay
 * reads them so right after), or with sleep changes (flags bit 2) as
 * bin_changes reads them, the cores named changed in m; the bytes read, or
 * 0 for anything those would refuse or fast_var does not read (the general
 * path then reads them again, errors and all: masks rewrite m there, and
 * changes are applied here only once all are read). */
static inline unsigned fast_masks(const struct uct_reader *r, const unsigned char *p,
				  const unsigned char *e, uint64_t *m)
{
	uint64_t ns, sock, v;
	unsigned a, k, at, last = 0;

	if (r->changes) {
		/* the cores that change (bin_changes' checks), applied only
		 * once all are read: the general path reads them again from
		 * the masks as they were */
		uint64_t idx[8], x;

		if (!(at = fast_var(p, e, &ns)) || (!ns && !r->empty) || ns > 8)
			return 0;
		for (k = 0; k < ns; k++) {
			if (!(a = fast_var(p + at, e, &x)) || (k && x <= idx[k - 1]) ||
			    x >> 6 >= r->hdr.sockets || !(r->cores >> (x & 63) & 1))
				return 0;
			idx[k] = x;
			at += a;
		}
		for (k = 0; k < ns; k++)
			m[idx[k] >> 6] ^= 1ull << (idx[k] & 63);
		return at;
	}
	if (!(at = fast_var(p, e, &ns)) || ns > r->hdr.sockets)
		return 0;
	zero_masks(m);
	for (k = 0; k < ns; k++) {
		if (!(a = fast_var(p + at, e, &sock)) || sock >= r->hdr.sockets || (k && sock <= last))
			return 0;
		at += a;
		if (!(a = fast_var(p + at, e, &v)) || !v || (v & ~r->cores))
			return 0;
		at += a;
		m[sock] = v;
		last = (unsigned)sock;
	}
	return at;
}

/* fast_masks into m, and every socket's copied to m2 */
static inline unsigned fast_sleep(const struct uct_reader *r, const unsigned char *p,
				  const unsigned char *e, uint64_t *m, uint64_t *m2)
{
	unsigned at = fast_masks(r, p, e, m);

	if (at)
		copy_masks(m2, m);
	return at;
}

/* The vector form's common records, a reference to a vector numbered
 * before with the previous record's sleep masks or with its own, that is
 * not the last of its block: its time and its masks checked as bin_next
 * checks them, nothing else to read.  Returns 1 with the segment read, 0
 * with nothing read (the general path then reads it, errors and all). */
static inline int fast_next(struct uct_reader *r, struct uct_seg *seg, int *vid, int *full)
{
	const unsigned char *p, *e;
	uint64_t gap, nc, code;
	unsigned a, b, c;

	/* (a text reader has no block: no pointer into one before this) */
	if (!r->vform || r->brecs <= 1 || r->failed)
		return 0;
	p = r->blk + r->bpos;
	e = r->blk + r->blen;
	if (!(a = fast_var(p, e, &gap)) || !(b = fast_var(p + a, e, &nc)) ||
	    !(c = fast_var(p + a + b, e, &code)) || !(code >> 1) || !r->vd ||
	    (code >> 1) - 1 >= r->vd->n || !nc || gap > r->maxend - r->end ||
	    nc > r->maxend - r->end - gap)
		return 0;
	if (code & 1) {
		/* its masks: every socket's, those not given 0 */
		unsigned d;

		if (r->hdr.version < 2 || !(d = fast_sleep(r, p + a + b + c, e, r->asleep, seg->asleep)))
			return 0;
		c += d;
	} else {
		copy_masks(seg->asleep, r->asleep);
	}
	seg->start = r->end + gap;
	seg->ncycles = nc;
	r->end = seg->start + nc;
	r->bpos += a + b + c;
	r->nseg++;
	r->brecs--;
	*vid = (int)((code >> 1) - 1);
	*full = 0;
	return 1;
}

/* ---- open / next / close ---- */

static int next_any(struct uct_reader *r, struct uct_seg *seg, int need, int *vid, int *full);

static int open_common(struct uct_reader *r, char *err, size_t n)
{
	const unsigned char *b;
	int rc;

	if (!r->chk && !(r->chk = calloc(1, sizeof(*r->chk))))
		return -ENOMEM;
	/* peek at the magic without consuming it: a pipe cannot rewind */
	r->binary = src_peek(&r->src, &b) == 8 && !memcmp(b, MAGIC, 8);
	rc = r->binary ? bin_header(r) : parse_header(r);
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
		while ((rc = fast_next(r, seg, &vid, &full) ? 1 : next_any(r, seg, 0, &vid, &full)) > 0 &&
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

static int next_any(struct uct_reader *r, struct uct_seg *seg, int need, int *vid, int *full)
{
	int rc;

	*vid = -1;
	*full = 1;
	if (r->failed)
		return -EINVAL;
	rc = r->binary ? bin_next(r, seg, need, vid, full) : text_next(r, seg);
	if (rc == 1 && (need & NEED_VID) && !r->vform) {
		/* text and the record form: identical vectors interned */
		size_t n;
		uint64_t h;

		if ((!r->vd && !(r->vd = calloc(1, sizeof(*r->vd)))) ||
		    (!r->vkey && !(r->vkey = malloc(VKEY_MAX))))
			rc = -ENOMEM;
		else {
			n = vec_key(seg, r->vkey);
			h = vd_hash(r->vkey, n);
			if ((*vid = vd_find(r->vd, r->vkey, n, h)) < 0 &&
			    (*vid = vd_add(r->vd, r->vkey, n, h)) == -ENOMEM)
				rc = -ENOMEM;
		}
	}
	if (rc < 0 && !r->err[0])
		rerr(r, 1, "%s", strerror(-rc));
	return rc;
}

int uct_next(struct uct_reader *r, struct uct_seg *seg)
{
	int vid, full;

	return next_any(r, seg, NEED_CONTENT, &vid, &full);
}

int uct_next_vec(struct uct_reader *r, struct uct_seg *seg, int content, int *vid, int *full)
{
	if (!content && fast_next(r, seg, vid, full))
		return 1;
	return next_any(r, seg, NEED_VID | (content ? NEED_CONTENT : 0), vid, full);
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
		vd_free(r->vd);
	free(r->vd);
	if (r->cd)
		vd_free(r->cd);
	free(r->cd);
	free(r->ch);
	free(r->vlisted);
	if (r->pd)
		vd_free(r->pd);
	free(r->pd);
	free(r->cseg);
	free(r->vbuf);
	free(r->vkey);
	free(r);
}

/* ---- writers ---- */

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
	struct chk *chk;
	int vform;               /* the vector form: vectors numbered, then referred to */
	int chunked;             /* a new vector given as chunks */
	int changes;             /* sleep masks as the cores that change */
	int empty;               /* ... or none, once one has changed (flags bit 3) */
	int changed;             /* a record has given a change */
	struct vdict *vd, *cd;   /* the vectors, the chunks numbered */
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

static void put_var(unsigned char *b, size_t *n, uint64_t v)
{
	do {
		b[(*n)++] = (unsigned char)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

/* v as a varint of at least two bytes (LEB128 allows the padding: 0x80 |
 * low seven bits, then the rest) */
static void put_var2(unsigned char *b, size_t *n, uint64_t v)
{
	b[(*n)++] = (unsigned char)((v & 0x7F) | 0x80);
	put_var(b, n, v >> 7);
}

static void put_str(unsigned char *b, size_t *n, const char *s)
{
	size_t len = strlen(s);

	put_var(b, n, len);
	memcpy(b + *n, s, len);
	*n += len;
}

/* Sleep masks: nsleep (socket mask)*, increasing sockets, none 0. */
static void put_sleep(unsigned char *b, size_t *n, const uint64_t *asleep, unsigned sockets)
{
	unsigned ns = 0;

	for (unsigned s = 0; s < sockets; s++)
		ns += asleep[s] != 0;
	put_var(b, n, ns);
	for (unsigned s = 0; s < sockets; s++)
		if (asleep[s]) {
			put_var(b, n, s);
			put_var(b, n, asleep[s]);
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
		put_var2(b, n, 0);
		return;
	}
	put_var(b, n, nc);
	for (unsigned s = 0; s < sockets; s++)
		for (uint64_t x = was[s] ^ now[s]; x; x &= x - 1)
			put_var(b, n, (uint64_t)s * 64 + (unsigned)__builtin_ctzll(x));
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
	int rc;

	*out = NULL;
	if (!w || !(w->blk = malloc(MAXBLOCK)) || !(w->chk = calloc(1, sizeof(*w->chk)))) {
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
	w->hdr.version = version_of(h);
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
	put_var(rec, rn, nch);
	for (unsigned q = 0, i = 0, j; q < nch; q++, i = j) {
		unsigned char c[UCT_MAXIN * 64 + 16];
		size_t cn = 0;
		uint64_t h;
		int id;

		j = cend[q];
		put_var(c, &cn, j - i);
		memcpy(c + cn, vb + ioff[i], ioff[j] - ioff[i]);
		cn += ioff[j] - ioff[i];
		h = vd_hash(c, cn);
		if ((id = vd_find(w->cd, c, cn, h)) >= 0) {
			put_var(rec, rn, (uint64_t)id + 1);
		} else {
			if (vd_add(w->cd, c, cn, h) == -ENOMEM)
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
	if (seg_check(w->chk, &w->hdr, seg, err, sizeof(err)))
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
		put_var(rec, &rn, seg->start - w->end);
		put_var(rec, &rn, seg->ncycles);
		/* the inputs: after a code (vector form), or in the record;
		 * chunked, apart (they are the vector's identity) */
		vb = w->chunked ? w->vtmp : rec + rn + (w->vform ? 1 : 0);
		put_var(vb, &vn, seg->nin);
		for (unsigned i = 0; i < seg->nin; i++) {
			const struct uct_in *in = &seg->in[i];

			ioff[i] = vn;
			put_var(vb, &vn, symbol(w, in, y, &yn, &ny));
			put_var(vb, &vn, in->socket);
			put_var(vb, &vn, (uint64_t)(in->inst + 1));
			put_var(vb, &vn, in->inc);
			if (w->hdr.version >= 2) {
				put_var(vb, &vn, in->amask);
				for (unsigned a = 0; a < UCM_NATTR; a++)
					if (in->amask >> a & 1)
						put_var(vb, &vn, in->attr[a]);
			}
		}
		if (w->vform) {
			/* the same inputs again (their symbols all defined: ny = 0)
			 * are a reference; new ones are written whole and numbered
			 * if the dictionary has room.  The sleep masks follow when
			 * they differ from the previous record's. */
			uint64_t hv = vd_hash(vb, vn);
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
			if ((id = vd_find(w->vd, vb, vn, hv)) >= 0) {
				/* once a code can take two bytes (vector 63 and
				 * after), every code takes at least two: a reader's
				 * branch on its length then goes the same way at
				 * each record (docs/formats.md, "Vectors") */
				uint64_t code = ((uint64_t)id + 1) << 1 | (unsigned)sl;

				if (w->vd->n > 63)
					put_var2(rec, &rn, code);
				else
					put_var(rec, &rn, code);
			} else {
				if (vd_add(w->vd, vb, vn, hv) == -ENOMEM)
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
						k++ ? "," : "{", attr_names[a], (unsigned long long)in->attr[a]);
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
		vd_free(w->vd);
	free(w->vd);
	if (w->cd)
		vd_free(w->cd);
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
			put_var(e, &n, w->nseg);
			put_var(e, &n, w->end);
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

/* ---- replay ----
 *
 * A segment sets the model's inputs (added up where several cover one
 * sub-event), the attributes it gives (the others keep the values the model
 * started the replay with: its defaults), and the sleep state of the cores
 * whose bit changed since the previous segment (a core woken by a PMI stays
 * awake until the trace puts it to sleep again).  A gap and the end of the
 * trace are segments with nothing in them.
 *
 * Each input vector the reader numbers (uct_next_vec) is made a model phase
 * once, when first met: its inputs summed per box and sub-event, checked
 * by the model once (ucm_phase_define); its attributes and sleep masks kept
 * beside it.  A segment is then ucm_phase_enter() of its vector's phase,
 * the attributes that differ from the previous vector's and the cores
 * whose sleep bit changes.  A vector the reader did not number (its
 * dictionary full), or one the model has no room for, sets its inputs one
 * by one after clearing them, which is what entering a phase means. */

#define MAXINST 256
#define RUNQ 256                         /* segments read ahead, run in one call */

/* An input value a vector sets: (box, sub-event) -> increment, with its
 * slot in the map that finds it while the vector is summed. */
struct setv {
	int box;
	unsigned sub;
	uint32_t v;
	unsigned slot;
};

/* An attribute a vector gives: index in attr0 (box, sub-event, attribute)
 * and value. */
struct aset {
	int box;
	unsigned sub, a;
	size_t idx;
	uint64_t v;
};

/* What the replay made of a vector. */
struct rvec {
	int phase;                        /* model phase, -1: set input by input */
	uint32_t i0, ni;                  /* its inputs in the pool (phase -1) */
	uint32_t a0, na;                  /* its attributes in the pool */
};

struct uct_replay {
	struct ucm_model *m;
	struct uct_reader *r;
	uint64_t base_cycles;
	struct uct_seg seg;
	int vid, full;                    /* the pending segment's vector */
	int pending, done;
	uint64_t cycles;
	unsigned nsock, nmask;            /* sockets; sleep masks kept (<= UCT_MAXSOCK) */
	uint64_t coremask;                /* the model's cores (of a socket) as bits */
	int16_t *map;                     /* box per (socket, box type, instance), -1 */
	unsigned ninst[UCM_MAXBT];        /* instances of each box type */
	uint64_t *attr0;                  /* attributes at attach, per box, sub-event, attr */
	size_t *aoff;                     /* where each box's start in attr0 */
	uint32_t *astamp;                 /* per attr0 entry: the change that set it last */
	uint32_t stamp;
	uint64_t asleep[UCT_MAXSOCK];     /* the sleep masks the trace set last */
	struct rvec *vec;                 /* per numbered vector; phase -2: not met yet */
	unsigned nvec;
	struct rvec once[2], idle;        /* unnumbered vectors (alternating), no vector */
	unsigned oncei;
	const struct rvec *cur;           /* the vector in effect */
	const struct rvec *gapv;          /* vid -3: the vector made before a gap */
	const struct aset *gapva;
	int attached;
	/* segments read ahead while the model sums phases (read_ahead):
	 * their phases and ends (the model's cycles of clock 0), their
	 * vectors; the first not run yet (qi) of qn; the result of the read
	 * that ended them (its segment in seg) not taken in yet */
	struct ucm_step q[RUNQ];
	const struct rvec *qv[RUNQ];
	uint64_t qm[RUNQ][UCT_MAXSOCK];   /* their sleep masks (nmask words each) */
	unsigned qi, qn, qf;              /* qf: none before it changes masks (RUNQ: none) */
	int held, held_rc;
	uint64_t tnum, tden, tmax;        /* cycle_time: 10^12 / hz reduced; steps without overflow */
	uint64_t tinv;                    /* floor((2^64 - 1) / tden): division as a multiply */
	uint64_t tc, tq, tr;              /* the last cycle converted, its quotient and remainder */
	uint64_t tq1, tr1;                /* tnum / tden, tnum % tden */
	struct setv *ipool;               /* inputs of vectors set one by one */
	size_t nipool, capipool;
	struct aset *apool;               /* attributes of numbered vectors */
	size_t napool, capapool;
	struct aset *aonce[2];            /* of the unnumbered ones */
	size_t capaonce[2];
	struct setv *nxt;                 /* a vector being summed */
	size_t nnxt, capset;
	int *hslot;                       /* nxt's map: entry per slot, -1 free */
	struct ucm_phase_in *pin;
	struct ucm_phase_attr *pat;       /* a box's attributes, for its box vector */
	size_t cappat;
	/* the box types' parts of numbered vectors, each distinct one once
	 * (vec_phase): its inputs and the box vector it gives each instance */
	struct rgrp *grp;
	size_t ngrp, capgrp;
	int32_t *gslot;                   /* grp's map: 2 x capgrp, -1 free */
	struct uct_in *gin;
	size_t ngin, capgin;
	int *gid;
	size_t ngid, capgid;
	int *vids;                        /* a vector's box vectors */
	size_t capvids;
	int16_t kslot[UCT_MAXSOCK * UCM_MAXBT]; /* vec_phase's buckets, -1 between calls */
	/* a numbered chunk's groups (vec_phase_chunks): cgn[c] of them from
	 * cg0[c] (-1: not met yet) in cgk (keys) and cgi (groups) */
	int32_t *cg0;
	uint8_t *cgn, *cgk;
	int32_t *cgi;
	size_t capcg, ncgk, capcgk, capcgi;
	struct uct_seg *cseg;             /* a chunk's inputs */
	char err[768];
};

/* A box type's part of a vector: the inputs a segment gives one (socket,
 * box type), in the segment's order, gin[in0, in0 + nin); it gives each
 * instance i box vector gid[id0 + i] (-1: no such box). */
struct rgrp {
	uint64_t hash;
	uint32_t in0, nin, id0;
	uint8_t socket, bt;
};

/* The time reference cycle c of the trace completes: ceil((base + c) *
 * 10^12 / hz) ps.  Segments come in time order, so the quotient and
 * remainder of (base + c) * num / den (10^12 / hz reduced) are carried
 * from the previous call: a 64-bit division per segment, not a 128-bit
 * one. */
static inline __attribute__((always_inline)) uint64_t cycle_time(struct uct_replay *p, uint64_t c)
{
	if (c >= p->tc && c - p->tc <= 8) {
		/* a few cycles: the per-cycle quotient and remainder, no division */
		uint64_t d = c - p->tc;

		p->tq += d * p->tq1;
		p->tr += d * p->tr1;
		while (p->tr >= p->tden) {
			p->tq++;
			p->tr -= p->tden;
		}
	} else if (c >= p->tc && c - p->tc < p->tmax) {
		/* d / tden by a multiply with its reciprocal, short by at most
		 * 2, then corrected (a division costs several times as much) */
		uint64_t d = (c - p->tc) * p->tnum;
		uint64_t q = (uint64_t)(((unsigned __int128)d * p->tinv) >> 64), r = d - q * p->tden;

		while (r >= p->tden) {
			q++;
			r -= p->tden;
		}
		p->tq += q;
		p->tr += r;
		if (p->tr >= p->tden) {
			p->tq++;
			p->tr -= p->tden;
		}
	} else {
		unsigned __int128 x = (unsigned __int128)(p->base_cycles + c) * p->tnum;
		unsigned __int128 q = x / p->tden;

		p->tq = q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
		p->tr = (uint64_t)(x % p->tden);
	}
	p->tc = c;
	return p->tq + (p->tr != 0 && p->tq < UINT64_MAX);
}

uint64_t uct_replay_end_ps(struct uct_replay *p)
{
	struct uct_replay q;

	if (!p->r->checked)
		return UINT64_MAX;
	/* on a copy: the replay's carried quotient stays its own */
	q = *p;
	q.tc = UINT64_MAX;
	return cycle_time(&q, p->r->end_cycles);
}

static int set_attr(struct uct_replay *p, int box, unsigned sub, unsigned a, uint64_t v)
{
	if (ucm_get_input_attr(p->m, box, sub, a) == v)
		return 0;
	return ucm_set_input_attr(p->m, box, sub, a, v);
}

/* The boxes an input covers, into out; their number. */
static unsigned covered(const struct uct_replay *p, const struct uct_in *in, int *out)
{
	const int16_t *row;
	unsigned k = 0;

	if (in->socket >= p->nsock || in->bt >= UCM_MAXBT)
		return 0;
	row = p->map + ((size_t)in->socket * UCM_MAXBT + in->bt) * MAXINST;
	if (in->inst >= 0)
		return row[in->inst] >= 0 ? (out[0] = row[in->inst], 1) : 0;
	for (unsigned i = 0; i < p->ninst[in->bt]; i++)
		if (row[i] >= 0)
			out[k++] = row[i];
	return k;
}

static int apply_fail(struct uct_replay *p, int rc)
{
	snprintf(p->err, sizeof(p->err), "%s", ucm_error(p->m));
	return ucm_set_error(p->m, rc, p->err);
}

static int grow(void **a, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 64;
	void *n;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	if (!(n = realloc(*a, c * size)))
		return -ENOMEM;
	*a = n;
	*cap = c;
	return 0;
}

static int grow_sets(struct uct_replay *p)
{
	size_t cap = p->capset ? 2 * p->capset : 256;
	struct setv *c = realloc(p->nxt, cap * sizeof(*c));
	struct ucm_phase_in *pi;

	if (!c)
		return -ENOMEM;
	p->nxt = c;
	if (!(pi = realloc(p->pin, cap * sizeof(*pi))))
		return -ENOMEM;
	p->pin = pi;
	free(p->hslot);
	/* twice the entries, a power of two */
	if (!(p->hslot = malloc(2 * cap * sizeof(*p->hslot))))
		return -ENOMEM;
	for (size_t i = 0; i < 2 * cap; i++)
		p->hslot[i] = -1;
	p->capset = cap;
	/* rehash what is being built */
	for (size_t i = 0; i < p->nnxt; i++) {
		size_t h = ((size_t)p->nxt[i].box * 65599u + p->nxt[i].sub) & (2 * cap - 1);

		while (p->hslot[h] >= 0)
			h = (h + 1) & (2 * cap - 1);
		p->hslot[h] = (int)i;
		p->nxt[i].slot = (unsigned)h;
	}
	return 0;
}

/* The entry of (box, sub) in nxt, created at 0 when absent (there is room). */
static struct setv *nxt_at(struct uct_replay *p, int box, unsigned sub)
{
	size_t mask = 2 * p->capset - 1, h;

	for (h = ((size_t)box * 65599u + sub) & mask; p->hslot[h] >= 0; h = (h + 1) & mask) {
		struct setv *e = &p->nxt[p->hslot[h]];

		if (e->box == box && e->sub == sub)
			return e;
	}
	p->hslot[h] = (int)p->nnxt;
	p->nxt[p->nnxt] = (struct setv){ box, sub, 0, (unsigned)h };
	return &p->nxt[p->nnxt++];
}

static uint64_t gmix(uint64_t h, uint64_t x)
{
	h = (h ^ x) * 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 31);
}

/* An input's place in a group's hash: instance, sub-event and increment
 * in one word, then its attributes if it gives any (most give none). */
static inline uint64_t in_hash(uint64_t h, const struct uct_in *in)
{
	h = gmix(h, (uint64_t)(uint16_t)in->inst << 48 | (uint64_t)in->sub << 32 | in->inc);
	if (in->amask) {
		h = gmix(h, in->amask);
		for (unsigned m = in->amask & ((1u << UCM_NATTR) - 1); m; m &= m - 1)
			h = gmix(h, in->attr[__builtin_ctz(m)]);
	}
	return h;
}

static inline int in_same(const struct uct_in *x, const struct uct_in *y)
{
	if (x->inst != y->inst || x->sub != y->sub || x->inc != y->inc || x->amask != y->amask)
		return 0;
	for (unsigned m = x->amask & ((1u << UCM_NATTR) - 1); m; m &= m - 1)
		if (x->attr[__builtin_ctz(m)] != y->attr[__builtin_ctz(m)])
			return 0;
	return 1;
}

/* The box vector each instance of group g gets from its inputs in[0..n):
 * the inputs covering it, those of one sub-event added up, and their
 * attributes (inputs covering one sub-event have the same ones: the
 * reader checked). */
static int grp_make(struct uct_replay *p, const struct uct_in *const *in, unsigned n,
		    const struct rgrp *g)
{
	const int16_t *row = p->map + ((size_t)g->socket * UCM_MAXBT + g->bt) * MAXINST;

	for (unsigned i = 0; i < p->ninst[g->bt]; i++) {
		int box = row[i], rc;
		size_t npat = 0;

		p->gid[g->id0 + i] = -1;
		if (box < 0)
			continue;
		p->nnxt = 0;
		for (unsigned k = 0; k < n; k++) {
			const struct uct_in *x = in[k];

			if (x->inst >= 0 && x->inst != (int)i)
				continue;
			if (p->nnxt == p->capset && grow_sets(p))
				return -ENOMEM;
			nxt_at(p, box, x->sub)->v += x->inc;
			for (unsigned a = 0; a < UCM_NATTR; a++)
				if (x->amask >> a & 1) {
					if (grow((void **)&p->pat, &p->cappat, npat + 1, sizeof(*p->pat)))
						return -ENOMEM;
					p->pat[npat++] = (struct ucm_phase_attr){ box, x->sub, a, x->attr[a] };
				}
		}
		for (size_t j = 0; j < p->nnxt; j++) {
			p->hslot[p->nxt[j].slot] = -1;
			p->pin[j] = (struct ucm_phase_in){ box, p->nxt[j].sub, p->nxt[j].v };
		}
		if ((rc = ucm_boxvec_define(p->m, box, p->pin, p->nnxt, p->pat, npat)) < 0)
			return rc;
		p->gid[g->id0 + i] = rc;
	}
	return 0;
}

/* The group of (socket, bt) with inputs in[0..n) and hash h (grp_hash),
 * found or made. */
static int grp_find(struct uct_replay *p, unsigned socket, unsigned bt,
		    const struct uct_in *const *in, unsigned n, uint64_t h, const struct rgrp **out)
{
	size_t mask, i;
	struct rgrp *g;
	int rc;

	if (p->capgrp) {
		mask = 2 * p->capgrp - 1;
		for (i = h & mask; p->gslot[i] >= 0; i = (i + 1) & mask) {
			unsigned k = 0;

			g = &p->grp[p->gslot[i]];
			if (g->hash != h || g->socket != socket || g->bt != bt || g->nin != n)
				continue;
			while (k < n && in_same(&p->gin[g->in0 + k], in[k]))
				k++;
			if (k == n) {
				*out = g;
				return 0;
			}
		}
	}
	if (p->ngrp == p->capgrp) {
		size_t cap = p->capgrp ? 2 * p->capgrp : 64;
		struct rgrp *ng = realloc(p->grp, cap * sizeof(*ng));
		int32_t *sl;

		if (!ng)
			return -ENOMEM;
		p->grp = ng;
		if (!(sl = malloc(2 * cap * sizeof(*sl))))
			return -ENOMEM;
		memset(sl, 0xff, 2 * cap * sizeof(*sl));
		for (size_t j = 0; j < p->ngrp; j++) {
			for (i = p->grp[j].hash & (2 * cap - 1); sl[i] >= 0; i = (i + 1) & (2 * cap - 1))
				;
			sl[i] = (int32_t)j;
		}
		free(p->gslot);
		p->gslot = sl;
		p->capgrp = cap;
	}
	if (grow((void **)&p->gin, &p->capgin, p->ngin + n, sizeof(*p->gin)) ||
	    grow((void **)&p->gid, &p->capgid, p->ngid + p->ninst[bt] + 1, sizeof(*p->gid)))
		return -ENOMEM;
	g = &p->grp[p->ngrp];
	*g = (struct rgrp){ h, (uint32_t)p->ngin, n, (uint32_t)p->ngid, (uint8_t)socket, (uint8_t)bt };
	if ((rc = grp_make(p, in, n, g)))
		return rc;
	for (unsigned k = 0; k < n; k++)
		p->gin[p->ngin + k] = *in[k];
	p->ngin += n;
	p->ngid += p->ninst[bt];
	mask = 2 * p->capgrp - 1;
	for (i = h & mask; p->gslot[i] >= 0; i = (i + 1) & mask)
		;
	p->gslot[i] = (int32_t)p->ngrp++;
	*out = g;
	return 0;
}

/* The groups of inputs in[0..n) by (socket, box type), each found or
 * made (grp_find): bucketed in the order the keys are first met, the
 * inputs' order kept within, each bucket's hash made on the way; only the
 * keys the inputs have are visited (p->kslot: a key's bucket, -1 outside
 * this call).  Each key (socket * UCM_MAXBT + box type) into keys[] and
 * its group's index in p->grp into gi[]; *nk of them. */
static int vec_groups(struct uct_replay *p, const struct uct_in *v, unsigned n, uint8_t *keys,
		      int32_t *gi, unsigned *nkp)
{
	enum { NK = UCT_MAXSOCK * UCM_MAXBT };
	unsigned nk = 0, cnt[NK], pos[NK];
	uint64_t hk[NK];
	const struct uct_in *ord[UCT_MAXIN];
	int rc = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct uct_in *in = &v[i];
		unsigned k = (unsigned)in->socket * UCM_MAXBT + in->bt;
		int j;

		if (in->socket >= p->nsock || in->socket >= UCT_MAXSOCK || in->bt >= UCM_MAXBT)
			continue;
		if ((j = p->kslot[k]) < 0) {
			p->kslot[k] = (int16_t)(j = (int)nk);
			keys[nk] = (uint8_t)k;
			hk[nk] = k;
			cnt[nk++] = 0;
		}
		cnt[j]++;
		hk[j] = in_hash(hk[j], in);
	}
	for (unsigned j = 0, at = 0; j < nk; j++) {
		pos[j] = at;
		at += cnt[j];
		hk[j] = gmix(hk[j], cnt[j]);
	}
	for (unsigned i = 0; i < n; i++) {
		const struct uct_in *in = &v[i];

		if (in->socket < p->nsock && in->socket < UCT_MAXSOCK && in->bt < UCM_MAXBT)
			ord[pos[p->kslot[(unsigned)in->socket * UCM_MAXBT + in->bt]]++] = in;
	}
	/* bucket j is now ord[pos[j] - cnt[j], pos[j]) */
	for (unsigned j = 0; j < nk && !rc; j++) {
		const struct rgrp *g;

		if (!(rc = grp_find(p, keys[j] / UCM_MAXBT, keys[j] % UCM_MAXBT, ord + pos[j] - cnt[j],
				    cnt[j], hk[j], &g)))
			gi[j] = (int32_t)(g - p->grp);
	}
	for (unsigned j = 0; j < nk; j++)
		p->kslot[keys[j]] = -1;
	*nkp = nk;
	return rc;
}

/* The phase of groups gi[0..n) of keys keys[0..n), each key once: in key
 * order, which is the model's box order (socket, then box type), so that
 * the phase's box vectors come sorted.  -ENOSPC: the model has no room. */
static int groups_phase(struct uct_replay *p, uint8_t *keys, int32_t *gi, unsigned n)
{
	size_t nid = 0;

	for (unsigned a = 1; a < n; a++)
		for (unsigned b = a; b > 0 && keys[b - 1] > keys[b]; b--) {
			uint8_t tk = keys[b];
			int32_t tg = gi[b];

			keys[b] = keys[b - 1];
			gi[b] = gi[b - 1];
			keys[b - 1] = tk;
			gi[b - 1] = tg;
		}
	for (unsigned k = 0; k < n; k++) {
		const struct rgrp *g = &p->grp[gi[k]];

		if (grow((void **)&p->vids, &p->capvids, nid + p->ninst[g->bt], sizeof(*p->vids)))
			return -ENOMEM;
		for (unsigned i = 0; i < p->ninst[g->bt]; i++)
			if (p->gid[g->id0 + i] >= 0)
				p->vids[nid++] = p->gid[g->id0 + i];
	}
	return ucm_phase_define_boxvecs(p->m, p->vids, nid);
}

/* A phase for segment s's vector: its inputs grouped by (socket, box
 * type), each distinct group's box vectors made once (a new vector of a
 * trace usually repeats most boxes' parts of vectors met before), the
 * phase the list of them.  -ENOSPC: the model has no room. */
static int vec_phase(struct uct_replay *p, const struct uct_seg *s)
{
	uint8_t keys[UCT_MAXSOCK * UCM_MAXBT];
	int32_t gi[UCT_MAXSOCK * UCM_MAXBT];
	unsigned nk;
	int rc = vec_groups(p, s->in, s->nin, keys, gi, &nk);

	return rc ? rc : groups_phase(p, keys, gi, nk);
}

/* A phase for the pending segment's new vector from the chunks the reader
 * read it as (r->lch: each numbered, no socket and box type in two), without
 * its inputs: a chunk's groups are its vector's groups of their sockets
 * and box types, found (or made) once per chunk (vec_groups, as vec_phase
 * finds them).  -EAGAIN: the reader has no such chunks for it; -ENOSPC:
 * the model has no room. */
static int vec_phase_chunks(struct uct_replay *p)
{
	enum { NK = UCT_MAXSOCK * UCM_MAXBT };
	const struct uct_reader *r = p->r;
	uint8_t keys[NK];
	int32_t gi[NK];
	unsigned nk = 0;
	int rc;

	if (r->lch_vid < 0 || r->lch_vid != p->vid)
		return -EAGAIN;
	for (unsigned k = 0; k < r->nlch; k++) {
		uint32_t c = r->lch[k];

		if (c >= p->capcg) {
			size_t cap = p->capcg ? 2 * p->capcg : 256;
			int32_t *n0;
			uint8_t *nn;

			while (cap <= c)
				cap *= 2;
			if (!(n0 = realloc(p->cg0, cap * sizeof(*n0))))
				return -ENOMEM;
			p->cg0 = n0;
			if (!(nn = realloc(p->cgn, cap * sizeof(*nn))))
				return -ENOMEM;
			p->cgn = nn;
			for (size_t i = p->capcg; i < cap; i++)
				n0[i] = -1;
			p->capcg = cap;
		}
		if (p->cg0[c] < 0) {
			uint8_t ck[NK];
			int32_t cgi[NK];
			unsigned cn;

			if (!p->cseg && !(p->cseg = malloc(sizeof(*p->cseg))))
				return -ENOMEM;
			if (bin_inputs_of(p->r, r->cd->bytes + r->cd->off[c], r->cd->len[c], p->cseg))
				return -EAGAIN;
			if ((rc = vec_groups(p, p->cseg->in, p->cseg->nin, ck, cgi, &cn)))
				return rc;
			if (grow((void **)&p->cgk, &p->capcgk, p->ncgk + cn, sizeof(*p->cgk)) ||
			    grow((void **)&p->cgi, &p->capcgi, p->ncgk + cn, sizeof(*p->cgi)))
				return -ENOMEM;
			memcpy(p->cgk + p->ncgk, ck, cn);
			memcpy(p->cgi + p->ncgk, cgi, cn * sizeof(*cgi));
			p->cg0[c] = (int32_t)p->ncgk;
			p->cgn[c] = (uint8_t)cn;
			p->ncgk += cn;
		}
		/* the reader found no key in two chunks: at most NK in all */
		if (nk + p->cgn[c] > NK)
			return -EAGAIN;
		memcpy(keys + nk, p->cgk + p->cg0[c], p->cgn[c]);
		memcpy(gi + nk, p->cgi + p->cg0[c], p->cgn[c] * sizeof(*gi));
		nk += p->cgn[c];
	}
	return groups_phase(p, keys, gi, nk);
}

/* Make what segment s's vector means to the model: v (a numbered vector:
 * a phase if the model has room, attributes in the pool; unnumbered:
 * inputs and attributes in scratch space). */
static int make_vec(struct uct_replay *p, const struct uct_seg *s, struct rvec *v, int numbered)
{
	int boxes[MAXINST];
	struct aset **ap = numbered ? &p->apool : &p->aonce[p->oncei];
	size_t *apn = numbered ? &p->napool : &(size_t){ 0 };
	size_t *apcap = numbered ? &p->capapool : &p->capaonce[p->oncei];
	size_t a0 = *apn;
	int rc;

	if (numbered) {
		rc = vec_phase(p, s);
		if (rc >= 0) {
			v->phase = rc;
			v->a0 = v->na = 0;
			return 0;
		}
		if (rc == -ENOMEM) {
			snprintf(p->err, sizeof(p->err), "trace replay: out of memory");
			return ucm_set_error(p->m, rc, p->err);
		}
		if (rc != -ENOSPC)
			return apply_fail(p, rc);
	}
	/* inputs covering one sub-event add up */
	p->nnxt = 0;
	for (unsigned i = 0; i < s->nin; i++) {
		const struct uct_in *in = &s->in[i];
		unsigned nb = covered(p, in, boxes);

		for (unsigned k = 0; k < nb; k++) {
			if (p->nnxt == p->capset && grow_sets(p))
				return -ENOMEM;
			nxt_at(p, boxes[k], in->sub)->v += in->inc;
			for (unsigned a = 0; a < UCM_NATTR; a++)
				if (in->amask >> a & 1) {
					if (grow((void **)ap, apcap, *apn + 1, sizeof(**ap)))
						return -ENOMEM;
					(*ap)[(*apn)++] = (struct aset){
						boxes[k], in->sub, a,
						p->aoff[boxes[k]] + in->sub * UCM_NATTR + a, in->attr[a] };
				}
		}
	}
	for (size_t i = 0; i < p->nnxt; i++)
		p->hslot[p->nxt[i].slot] = -1;
	v->a0 = (uint32_t)a0;
	v->na = (uint32_t)(*apn - a0);
	v->phase = -1;
	/* no phase: the inputs to set, in the pool (a numbered vector) or
	 * left in nxt (an unnumbered one, used at once) */
	v->i0 = (uint32_t)p->nipool;
	v->ni = (uint32_t)p->nnxt;
	if (numbered) {
		if (grow((void **)&p->ipool, &p->capipool, p->nipool + p->nnxt, sizeof(*p->ipool)))
			return -ENOMEM;
		memcpy(p->ipool + p->nipool, p->nxt, p->nnxt * sizeof(*p->nxt));
		p->nipool += p->nnxt;
	} else {
		v->i0 = UINT32_MAX; /* in nxt */
	}
	return 0;
}

static const uint64_t no_sleep[UCT_MAXSOCK];

/* Make the model's sleep states those of the masks: only the cores whose
 * state the trace changes. */
static void sleep_to(struct uct_replay *p, const uint64_t *asleep)
{
	for (unsigned so = 0; so < p->nsock && so < UCT_MAXSOCK; so++) {
		uint64_t want = asleep[so], diff = (want ^ p->asleep[so]) & p->coremask;

		/* the cores whose bit changed (a segment of a C-state trace
		 * changes one or two of them) */
		for (; diff; diff &= diff - 1) {
			unsigned c = (unsigned)__builtin_ctzll(diff);

			ucm_core_sleep(p->m, so, c, (int)(want >> c & 1));
		}
		p->asleep[so] = want;
	}
}

/* Make the model's inputs and attributes those of vector v. */
static int enter(struct uct_replay *p, const struct rvec *v, const struct aset *va)
{
	const struct rvec *o = p->cur;
	int rc;

	if (v == o)
		return 0;
	if (v->phase >= 0) {
		/* the phase gives its attributes; those a vector set one by one
		 * gave go back to the model's own */
		const struct aset *oa = !o || o->phase >= 0 ? NULL
				      : o == &p->once[0] ? p->aonce[0]
				      : o == &p->once[1] ? p->aonce[1] : p->apool;

		for (uint32_t i = 0; oa && i < o->na; i++) {
			const struct aset *e = &oa[o->a0 + i];

			if ((rc = set_attr(p, e->box, e->sub, e->a, p->attr0[e->idx])))
				return apply_fail(p, rc);
		}
		if ((rc = ucm_phase_enter(p->m, v->phase)))
			return apply_fail(p, rc);
		p->cur = v;
		return 0;
	}
	/* set one by one: a phase's attributes end first */
	if (o && o->phase >= 0) {
		ucm_clear_inputs(p->m);
		o = NULL;
	}
	/* attributes: this vector's, then the previous one's that this one
	 * does not give go back to the model's own */
	if (v->na || (o && o->na)) {
		const struct aset *oa = o == &p->once[0] ? p->aonce[0]
				      : o == &p->once[1] ? p->aonce[1]
				      : p->apool;

		if (++p->stamp == 0) {
			memset(p->astamp, 0, p->aoff[ucm_box_count(p->m)] * sizeof(*p->astamp));
			p->stamp = 1;
		}
		for (uint32_t i = 0; i < v->na; i++) {
			const struct aset *e = &va[v->a0 + i];

			p->astamp[e->idx] = p->stamp;
			if ((rc = set_attr(p, e->box, e->sub, e->a, e->v)))
				return apply_fail(p, rc);
		}
		for (uint32_t i = 0; o && i < o->na; i++) {
			const struct aset *e = &oa[o->a0 + i];

			if (p->astamp[e->idx] != p->stamp &&
			    (rc = set_attr(p, e->box, e->sub, e->a, p->attr0[e->idx])))
				return apply_fail(p, rc);
		}
	}
	{
		const struct setv *in = v->i0 == UINT32_MAX ? p->nxt : p->ipool + v->i0;

		ucm_clear_inputs(p->m);
		for (uint32_t i = 0; i < v->ni; i++)
			if ((rc = ucm_set_input(p->m, in[i].box, in[i].sub, in[i].v)))
				return apply_fail(p, rc);
	}
	p->cur = v;
	return 0;
}

/* The vector of the pending segment, made when first met. */
static int seg_vec(struct uct_replay *p, const struct rvec **out, const struct aset **va)
{
	int rc;

	if (p->vid < 0) {
		struct rvec *v = &p->once[p->oncei];

		/* the other scratch may be the vector in effect */
		if ((rc = make_vec(p, &p->seg, v, 0)))
			return rc;
		*out = v;
		*va = p->aonce[p->oncei];
		p->oncei ^= 1;
		return 0;
	}
	if ((unsigned)p->vid >= p->nvec) {
		size_t cap = p->nvec, need = (size_t)p->vid + 1, ci = SIZE_MAX;
		struct rvec *nv;

		cap = cap ? cap : 64;
		while (cap < need)
			cap *= 2;
		/* the vector in effect may move: its index, taken before the
		 * array is reallocated (compared as addresses: it may be
		 * another object, and p->vec is NULL before the first) */
		if (p->cur && p->nvec &&
		    (uintptr_t)p->cur - (uintptr_t)p->vec < (uintptr_t)p->nvec * sizeof(*p->vec))
			ci = ((uintptr_t)p->cur - (uintptr_t)p->vec) / sizeof(*p->vec);
		if (!(nv = realloc(p->vec, cap * sizeof(*nv))))
			return -ENOMEM;
		if (ci != SIZE_MAX)
			p->cur = nv + ci;
		for (size_t i = p->nvec; i < cap; i++)
			nv[i].phase = -2;
		p->vec = nv;
		p->nvec = (unsigned)cap;
	}
	if (p->vec[p->vid].phase == -2) {
		struct rvec *v = &p->vec[p->vid];

		if (!p->full) {
			/* a chunked vector the reader did not decode: its phase
			 * from its chunks, or else its content read now */
			rc = vec_phase_chunks(p);
			if (rc >= 0) {
				v->phase = rc;
				v->a0 = v->na = 0;
				goto made;
			}
			if (rc == -ENOMEM) {
				snprintf(p->err, sizeof(p->err), "trace replay: out of memory");
				return ucm_set_error(p->m, rc, p->err);
			}
			if (rc != -EAGAIN && rc != -ENOSPC)
				return apply_fail(p, rc);
			if (vector_content(p->r, p->vid, &p->seg)) {
				snprintf(p->err, sizeof(p->err), "trace: vector %d met before it was defined",
					 p->vid);
				return ucm_set_error(p->m, -EINVAL, p->err);
			}
			p->full = 1;
		}
		if ((rc = make_vec(p, &p->seg, v, 1)))
			return rc;
	}
made:
	*out = &p->vec[p->vid];
	*va = p->apool;
	return 0;
}

/* The pending segment's vector entered, the sleep states its masks give;
 * the time of its end into *next. */
static int replay_enter(struct uct_replay *p, uint64_t *next)
{
	const struct rvec *v;
	const struct aset *va;
	int rc;

	p->pending = 0;
	if (p->vid == -3) {
		v = p->gapv;
		va = p->gapva;
	} else if ((rc = seg_vec(p, &v, &va))) {
		return rc;
	}
	if ((rc = enter(p, v, va)))
		return rc;
	for (unsigned so = 0; so < p->nsock && so < UCT_MAXSOCK; so++)
		if (p->asleep[so] != p->seg.asleep[so]) {
			sleep_to(p, p->seg.asleep);
			break;
		}
	p->cycles = p->seg.start + p->seg.ncycles;
	*next = cycle_time(p, p->cycles);
	return 0;
}

/* What uct_next_vec gave (rc) into the model: the segment (or the gap
 * before it, the segment then pending), or the end of the trace. */
static int replay_read(struct ucm_model *m, struct uct_replay *p, int rc, uint64_t *next)
{
	const struct rvec *v;
	const struct aset *va;

	if (rc < 0) {
		snprintf(p->err, sizeof(p->err), "%s", uct_reader_error(p->r));
		return ucm_set_error(m, rc, p->err);
	}
	if (rc == 0) {
		if ((rc = enter(p, &p->idle, NULL)))
			return rc;
		sleep_to(p, no_sleep);
		p->done = 1;
		*next = UINT64_MAX;
		return 0;
	}
	if (p->seg.start > p->cycles) {
		/* a gap is idle time; the segment's vector is made now, while
		 * the segment holds it */
		if ((rc = seg_vec(p, &v, &va)) || (rc = enter(p, &p->idle, NULL)))
			return rc;
		sleep_to(p, no_sleep);
		p->pending = 1;
		p->vid = -3; /* made: the vector to enter next */
		p->gapv = v;
		p->gapva = va;
		*next = cycle_time(p, p->seg.start);
		p->cycles = p->seg.start;
		return 0;
	}
	return replay_enter(p, next);
}

/* The next segment (or gap, or the end) into the model: one read ahead
 * and not run yet, or held, or pending after its gap, or read now. */
static int replay_next(struct ucm_model *m, struct uct_replay *p, uint64_t *next)
{
	int rc;

	if (p->qi < p->qn) {
		/* a phase, after one: its entry and its sleep masks */
		if ((rc = enter(p, p->qv[p->qi], NULL)))
			return rc;
		sleep_to(p, p->qm[p->qi]);
		*next = cycle_time(p, p->q[p->qi++].end - p->base_cycles);
		return 0;
	}
	if (p->held) {
		p->held = 0;
		return replay_read(m, p, p->held_rc, next);
	}
	if (p->pending)
		return replay_enter(p, next);
	return replay_read(m, p, uct_next_vec(p->r, &p->seg, 0, &p->vid, &p->full), next);
}

/* read_ahead's common records read straight from the block into the queue
 * from n on: what fast_next reads and checks (a reference with its time
 * and its masks, not the block's last), with no gap, to a vector made a
 * phase.  Nothing is copied through a segment: a record's masks are
 * decoded where the reader keeps them and the replay's nmask words taken
 * from there.  Stops before anything else (the general path then reads
 * it, errors and all); returns the queue's new length. */
static __attribute__((noinline)) unsigned ahead_fast(struct uct_replay *p, unsigned n)
{
	/* (out of line, its state in locals: inlined into replay_step it
	 * ran short of registers and kept them on the stack) */
	struct uct_reader *r = p->r;
	const unsigned char *b, *e;
	const struct rvec *vec = p->vec;
	struct ucm_step *q = p->q;
	const struct rvec **qv = p->qv;
	uint64_t (*qm)[UCT_MAXSOCK] = p->qm;
	uint64_t base = p->base_cycles, bend, bmax, *cur = r->asleep, one[2] = { 0, 0 };
	const uint64_t *was = n ? qm[n - 1] : p->asleep;
	unsigned nm = p->nmask, nvec, qf = p->qf, n0 = n, lim, emp = 0;
	uint64_t d = 0;

	/* (few values live across the loop: the model's cycles at the end
	 * so far and at the limit, a bound on the queue for the records
	 * left in the block; more were kept on the stack) */
	if (!r->vform || r->failed || !r->vd || r->brecs <= 1 || r->end != p->cycles ||
	    base > UINT64_MAX - r->maxend)
		return n;
	if (r->changes && r->hdr.version >= 2) {
		/* the one-byte changes (socket * 64 + core, up to 127) that
		 * name a core the trace has */
		for (unsigned so = 0; so < 2 && so < r->hdr.sockets; so++)
			one[so] = r->cores;
		emp = (unsigned)r->empty;
	}
	/* qf, for sleep_ran: no later than the first step whose masks
	 * differ from the last's, here the first with masks of its own
	 * (cheaper than comparing the words at each record).  The reader's
	 * masks are those of the last step queued or entered whenever this
	 * is reached; should that change, qf is this one */
	for (unsigned so = 0; so < nm; so++)
		d |= cur[so] ^ was[so];
	if (d && qf > n)
		qf = n;
	b = r->blk + r->bpos;
	e = r->blk + r->blen;
	bend = base + r->end;
	bmax = base + r->maxend;
	nvec = r->vd->n < p->nvec ? r->vd->n : p->nvec;
	lim = r->brecs - 1 < RUNQ - n ? n + r->brecs - 1 : RUNQ;
	while (n < lim) {
		const unsigned char *c = b;
		const struct rvec *v;
		uint64_t nc, code, vid;
		unsigned a;

		/* no gap: a zero byte; then the length and the vector, read
		 * up to 17 bytes on (past the end: BLKPAD zero bytes), checked
		 * to end in the block once read */
		if (*c++ || !(a = fast_var_pad(c, &nc)) || nc - 1 >= bmax - bend)
			break;
		c += a;
		if (!(a = fast_var_pad(c, &code)) || (c += a) > e || (vid = (code >> 1) - 1) >= nvec ||
		    (v = &vec[vid])->phase < 0)
			break;
		if (code & 1) {
			/* its own masks (else the last record's, in cur); the
			 * usual C-state boundary, one core of the first 128
			 * changing, or none in two bytes (flags bit 3), here
			 * without a branch on which (fast_masks' checks for
			 * them); the rest to fast_masks */
			unsigned x = c[1] & 0x7f;
			unsigned u1 = (c[0] == 1) & (c[1] < 0x80) & (unsigned)(one[x >> 6] >> (x & 63));
			unsigned u0 = (c[0] == 0x80) & (c[1] == 0) & emp;

			qf = qf < n ? qf : n;
			if ((u1 | u0) & (c + 2 <= e)) {
				cur[x >> 6] ^= (uint64_t)(u1 & 1) << (x & 63);
				c += 2;
			} else if (r->hdr.version < 2 || !(a = fast_masks(r, c, e, cur))) {
				break;
			} else {
				c += a;
			}
		}
		/* (two words stored whatever the sockets: a row has
		 * UCT_MAXSOCK, and those past nmask are not read) */
		qm[n][0] = cur[0];
		qm[n][1] = cur[1];
		for (unsigned so = 2; so < nm; so++)
			qm[n][so] = cur[so];
		bend += nc;
		q[n] = (struct ucm_step){ v->phase, bend };
		qv[n++] = v;
		b = c;
	}
	r->nseg += n - n0;
	r->bpos = (size_t)(b - r->blk);
	r->end = p->cycles = bend - base;
	r->brecs -= n - n0;
	p->qf = qf;
	return n;
}

/* Read ahead the segments that are only a phase's entry, its time and its
 * sleep masks: right after the last, of a vector made a phase, after a
 * vector that is a phase too (no attribute of its own to take back).  The
 * read that ends them is held.
 *
 * Their sleep masks may change from one to the next: the model's sleep
 * states are read only where a PMI is delivered (ucm_count.c,
 * deliver_pmi: dropped for a sleeping core, or with WAKE_ON_PMI the core
 * woken), and none is delivered inside ucm_phase_steps, which only sums
 * time into the epoch's phases and runs no step past the epoch's end
 * (agg_stop: before any counter with OVF_EN could wrap) or the time being
 * run to.  So what the states are between the steps of a batch that ran
 * cannot be seen, and after it they are set as those steps, one by one,
 * would have left them (sleep_ran); the steps that did not run are then
 * entered one at a time, each with its own masks (replay_next). */
static unsigned read_ahead(struct uct_replay *p)
{
	unsigned n = 0;

	p->qf = RUNQ;
	if (p->cur->phase < 0)
		return 0;
	while (n < RUNQ) {
		const struct rvec *v;
		int rc;

		if ((n = ahead_fast(p, n)) == RUNQ)
			break;
		rc = uct_next_vec(p->r, &p->seg, 0, &p->vid, &p->full);

		if (rc != 1 || p->seg.start != p->cycles || (unsigned)p->vid >= p->nvec ||
		    (v = &p->vec[p->vid])->phase < 0) {
			p->held = 1;
			p->held_rc = rc;
			break;
		}
		/* word by word: the masks were just stored so, and a wider
		 * load would wait for the stores (the empty asm keeps the
		 * compiler from vectorising the copy); compared until one
		 * changes */
		{
			const uint64_t *was = n ? p->qm[n - 1] : p->asleep;
			uint64_t d = 0;

			for (unsigned so = 0; so < p->nmask; so++) {
				uint64_t w = p->seg.asleep[so];

				__asm__("" : "+r"(w));
				d |= w ^ was[so];
				p->qm[n][so] = w;
			}
			if (d && p->qf == RUNQ)
				p->qf = n;
		}
		p->cycles = p->seg.start + p->seg.ncycles;
		p->q[n] = (struct ucm_step){ v->phase, p->base_cycles + p->cycles };
		p->qv[n++] = v;
	}
	return n;
}

/* The sleep states as the first k steps read ahead, entered one by one
 * (sleep_to each), would have left them: a core whose bit changed at any
 * of them takes its bit in the last (one a PMI woke and the trace left
 * asleep throughout stays awake); no other core is touched. */
static void sleep_ran(struct uct_replay *p, unsigned k)
{
	uint64_t ch[UCT_MAXSOCK], w[UCT_MAXSOCK];

	if (p->qf >= k)
		return; /* the masks as they were */
	/* the first two sockets' words in one pass over the rows (as
	 * ahead_fast stores them), any others after (no platform has more
	 * than two sockets today) */
	{
		uint64_t w0 = p->asleep[0], w1 = p->asleep[1], c0 = 0, c1 = 0;

		for (unsigned i = p->qf; i < k; i++) {
			c0 |= p->qm[i][0] ^ w0;
			c1 |= p->qm[i][1] ^ w1;
			w0 = p->qm[i][0];
			w1 = p->qm[i][1];
		}
		ch[0] = c0;
		ch[1] = c1;
		w[0] = w0;
		w[1] = w1;
	}
	for (unsigned so = 2; so < p->nmask; so++) {
		ch[so] = 0;
		w[so] = p->asleep[so];
		for (unsigned i = p->qf; i < k; i++) {
			ch[so] |= p->qm[i][so] ^ w[so];
			w[so] = p->qm[i][so];
		}
	}
	for (unsigned so = 0; so < p->nmask; so++) {
		uint64_t was = w[so], chg = ch[so];

		for (chg &= p->coremask; chg; chg &= chg - 1) {
			unsigned c = (unsigned)__builtin_ctzll(chg);

			ucm_core_sleep(p->m, so, c, (int)(was >> c & 1));
		}
		p->asleep[so] = was;
	}
}

/* The model's workload call: a segment entered (or a gap, or the end), and
 * while the model sums phases and nothing can happen before the segment
 * ends, its time run at once and the next ones entered and run in the same
 * call, those that are only a phase's entry many in one call of the model. */
static int replay_step(struct ucm_model *m, void *ctx, uint64_t now, uint64_t *next)
{
	struct uct_replay *p = ctx;
	int rc;

	(void)now;
	rc = replay_next(m, p, next);
	while (!rc && *next != UINT64_MAX && ucm_phase_run(m, *next)) {
		while (p->qi == p->qn && !p->held && !p->pending) {
			unsigned n = read_ahead(p);
			size_t k = ucm_phase_steps(m, 0, p->q, n);

			if (k) {
				p->cur = p->qv[k - 1];
				sleep_ran(p, (unsigned)k);
			}
			p->qi = (unsigned)k;
			p->qn = n;
			if (!n || k < n)
				break;
		}
		rc = replay_next(m, p, next);
	}
	return rc;
}

int uct_replay_attach(struct ucm_model *m, struct uct_reader *r, struct uct_replay **out)
{
	struct uct_replay *p = calloc(1, sizeof(*p));
	const struct ucm_platform *pl = ucm_platform_of(m);
	size_t nmap, nattr = 0;
	int rc;

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->m = m;
	p->r = r;
	p->nsock = ucm_nsockets(m);
	memset(p->kslot, 0xff, sizeof(p->kslot));
	p->nmask = p->nsock < UCT_MAXSOCK ? p->nsock : UCT_MAXSOCK;
	p->coremask = pl->ncores >= 64 ? ~0ull : (1ull << pl->ncores) - 1;
	nmap = (size_t)p->nsock * UCM_MAXBT * MAXINST;
	for (unsigned b = 0; b < ucm_box_count(m); b++)
		nattr += (size_t)ucm_subev_count(ucm_box_def(m, (int)b)->type) * UCM_NATTR;
	p->map = malloc(nmap * sizeof(*p->map));
	p->aoff = malloc((ucm_box_count(m) + 1) * sizeof(*p->aoff));
	p->attr0 = malloc((nattr + 1) * sizeof(*p->attr0));
	p->astamp = calloc(nattr + 1, sizeof(*p->astamp));
	if (!p->map || !p->aoff || !p->attr0 || !p->astamp || grow_sets(p)) {
		uct_replay_detach(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nmap; i++)
		p->map[i] = -1;
	nattr = 0;
	for (unsigned b = 0; b < ucm_box_count(m); b++) {
		const struct ucm_boxinst *bi = ucm_box_def(m, (int)b);
		int t = ucm_boxtype_index(pl, bi->type);

		if (t >= 0 && t < UCM_MAXBT && bi->type->nctr) {
			p->map[((size_t)ucm_box_socket(m, (int)b) * UCM_MAXBT + (unsigned)t) * MAXINST +
			       bi->inst] = (int16_t)b;
			if (bi->inst >= p->ninst[t])
				p->ninst[t] = bi->inst + 1u;
		}
		/* what an attribute a segment does not give goes back to */
		p->aoff[b] = nattr;
		for (unsigned s = 0; s < ucm_subev_count(bi->type); s++)
			for (unsigned a = 0; a < UCM_NATTR; a++)
				p->attr0[nattr++] = ucm_get_input_attr(m, (int)b, s, a);
	}
	p->aoff[ucm_box_count(m)] = nattr;
	/* the trace owns the inputs: idle (no input) is a phase too */
	rc = ucm_phase_define(m, NULL, 0);
	p->idle.phase = rc >= 0 ? rc : -1;
	p->idle.i0 = (uint32_t)p->nipool;
	ucm_clear_inputs(m);
	p->cur = &p->idle;
	p->base_cycles = ucm_cycles(m, 0);
	{
		uint64_t a = 1000000000000ull, b = ucm_clock_hz(m, 0);

		while (b) {
			uint64_t t = a % b;

			a = b;
			b = t;
		}
		p->tnum = 1000000000000ull / a;
		p->tden = ucm_clock_hz(m, 0) / a;
		p->tmax = UINT64_MAX / p->tnum;
		p->tinv = UINT64_MAX / p->tden;
		p->tq1 = p->tnum / p->tden;
		p->tr1 = p->tnum % p->tden;
		p->tc = UINT64_MAX; /* none yet */
	}
	ucm_set_workload(m, replay_step, p);
	p->attached = 1;
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
	if (p->attached)
		ucm_set_workload(p->m, NULL, NULL);
	free(p->map);
	free(p->aoff);
	free(p->attr0);
	free(p->astamp);
	free(p->vec);
	free(p->ipool);
	free(p->apool);
	free(p->aonce[0]);
	free(p->aonce[1]);
	free(p->nxt);
	free(p->pin);
	free(p->pat);
	free(p->hslot);
	free(p->grp);
	free(p->gslot);
	free(p->gin);
	free(p->gid);
	free(p->vids);
	free(p->cg0);
	free(p->cgn);
	free(p->cgk);
	free(p->cgi);
	free(p->cseg);
	free(p);
}
