/*
 * uct_bin.c - the binary reader (docs/formats.md): blocks checked by their
 * CRC-32, the header and symbols, the record form's records and the vector
 * form's (vectors numbered and referred to, new ones as chunks, sleep
 * masks or changes), every field checked, each error at its file offset.
 * The common records' fast paths: uct_bin.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/crc.h>

#include "ucm_grow.h"
#include "uct_bin.h"
#include "uct_check.h"
#include "uct_format.h"
#include "uct_reader.h"
#include "uct_vdict.h"

/* LEB128 varints inside a block */
static int get_var(struct uct_reader *r, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	r->off = r->pay + r->bpos; /* an error names the field's first byte */
	for (;;) {
		unsigned char b;

		if (r->bpos >= r->blen)
			return uct_rerr(r, 0, "record runs past the end of its block");
		b = r->blk[r->bpos++];
		if (shift == 63 && (b & 0x7E))
			return uct_rerr(r, 0, "varint overflows 64 bits");
		*v |= (uint64_t)(b & 0x7F) << shift;
		if (!(b & 0x80))
			return 0;
		shift += 7;
		if (shift > 63)
			return uct_rerr(r, 0, "varint longer than 10 bytes");
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

static int get_str(struct uct_reader *r, char *buf, size_t n)
{
	uint64_t len;

	if (get_var(r, &len))
		return -EINVAL;
	if (len >= n || len > r->blen - r->bpos)
		return uct_rerr(r, 0, "string of %llu bytes out of range", (unsigned long long)len);
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
	if (uct_src_read(&r->src, h, 5) != 5) {
		uct_rerr(r, 0, "%s", r->src.rd_errno ? strerror(r->src.rd_errno)
						     : "truncated: a block header is missing (no end block)");
		return r->src.rd_errno ? -EIO : -EINVAL;
	}
	len = (uint32_t)h[1] | (uint32_t)h[2] << 8 | (uint32_t)h[3] << 16 | (uint32_t)h[4] << 24;
	if (len > UCT_MAXBLOCK)
		return uct_rerr(r, 0, "corrupt: block length %u exceeds %u", len, UCT_MAXBLOCK);
	if (len > r->bcap || !r->blk) {
		/* grown to the blocks met (most are far below the 1 MiB limit),
		 * at least twice as large each time; ucm_grow's (no copy once
		 * it is a mapping, each page written once) */
		size_t cap = r->bcap < 2048 ? 4096 : 2 * r->bcap;
		unsigned char *nb;

		if (cap < len)
			cap = len;
		if (cap > UCT_MAXBLOCK)
			cap = UCT_MAXBLOCK;
		if (!(nb = ucm_grow(r->blk, 1, cap + UCT_BLKPAD)))
			return -ENOMEM;
		r->blk = nb;
		r->bcap = cap;
	}
	if (uct_src_read(&r->src, r->blk, len) != len || uct_src_read(&r->src, t, 4) != 4) {
		uct_rerr(r, 0, "%s", r->src.rd_errno ? strerror(r->src.rd_errno) : "truncated inside a block");
		return r->src.rd_errno ? -EIO : -EINVAL;
	}
	crc = crc32_gzip_refl(crc32_gzip_refl(0, h, 5), r->blk, len);
	want = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
	if (crc != want)
		return uct_rerr(r, 0, "corrupt: block checksum 0x%08x, expected 0x%08x", crc, want);
	*type = h[0];
	memset(r->blk + len, 0, UCT_BLKPAD);
	r->blen = len;
	r->bpos = 0;
	r->pay = r->pos + 5;
	r->pos += 9 + len;
	r->off = r->pay;
	return 0;
}

int uct_bin_header(struct uct_reader *r)
{
	unsigned char m[12];
	char name[64];
	uint64_t v, n;
	int type;

	r->off = 0;
	if (uct_src_read(&r->src, m, 12) != 12) {
		if (!r->src.rd_errno)
			return uct_rerr(r, 0, "not an uncore binary trace (bad magic)");
		uct_rerr(r, 0, "read error: %s", strerror(r->src.rd_errno));
		return -EIO;
	}
	if (memcmp(m, UCT_MAGIC, 8))
		return uct_rerr(r, 0, "not an uncore binary trace (bad magic)");
	r->hdr.version = (unsigned)(m[8] | m[9] << 8);
	r->off = 8;
	if (r->hdr.version < 1 || r->hdr.version > UCT_VERSION)
		return uct_rerr(r, 8, "unsupported version %u (this build reads 1 to %d)", r->hdr.version,
				UCT_VERSION);
	r->off = 10;
	if ((m[10] | m[11] << 8) & ~(UCT_FLAG_VECTORS | UCT_FLAG_CHUNKS | UCT_FLAG_CHANGES | UCT_FLAG_EMPTY))
		return uct_rerr(r, 10, "unknown flags 0x%04x", m[10] | m[11] << 8);
	if ((m[10] & UCT_FLAG_CHUNKS) && !(m[10] & UCT_FLAG_VECTORS))
		return uct_rerr(r, 10, "flags 0x%04x: chunks (bit 1) without the vector form (bit 0)",
				m[10] | m[11] << 8);
	if ((m[10] & UCT_FLAG_CHANGES) && !(m[10] & UCT_FLAG_VECTORS))
		return uct_rerr(r, 10, "flags 0x%04x: sleep changes (bit 2) without the vector form (bit 0)",
				m[10] | m[11] << 8);
	if ((m[10] & UCT_FLAG_EMPTY) && !(m[10] & UCT_FLAG_CHANGES))
		return uct_rerr(r, 10, "flags 0x%04x: empty sleep changes (bit 3) without sleep changes (bit 2)",
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
		return uct_rerr(r, 0, "expected the header block first");
	}
	if (get_str(r, name, sizeof(name)))
		return -EINVAL;
	if (!(r->hdr.plat = ucm_platform_find(name)))
		return uct_rerr(r, 0, "unknown platform '%s'", name);
	if (get_var(r, &v))
		return -EINVAL;
	if (!v || v > r->hdr.plat->max_sockets || v > UCT_MAXSOCK)
		return uct_rerr(r, 0, "%llu sockets out of range", (unsigned long long)v);
	r->hdr.sockets = (unsigned)v;
	if (get_var(r, &n))
		return -EINVAL;
	if (n > UCM_MAXCLK)
		return uct_rerr(r, 0, "%llu clocks", (unsigned long long)n);
	for (unsigned i = 0; i < n; i++) {
		if (get_var(r, &v))
			return -EINVAL;
		if (v > 1000000000000ull)
			return uct_rerr(r, 0, "clock %u: %llu Hz", i, (unsigned long long)v);
		r->hdr.clock_hz[i] = v;
	}
	if (get_var(r, &r->hdr.seed) || get_var(r, &n))
		return -EINVAL;
	if (n > UCM_MAXBT)
		return uct_rerr(r, 0, "%llu box counts", (unsigned long long)n);
	for (unsigned i = 0; i < n; i++) {
		const struct ucm_boxtype *bt;

		if (get_str(r, name, sizeof(name)) || get_var(r, &v))
			return -EINVAL;
		bt = ucm_boxtype_find(r->hdr.plat, name);
		if (!bt || v < bt->ninst_min || v > bt->ninst_max)
			return uct_rerr(r, 0, "box count %s=%llu invalid", name, (unsigned long long)v);
		r->hdr.ninst[ucm_boxtype_index(r->hdr.plat, bt)] = (unsigned)v;
	}
	r->off = r->pay + r->bpos;
	if (r->bpos != r->blen)
		return uct_rerr(r, 0, "junk after the header fields");
	/* the end no record may pass: 2^56 cycles, UCT_MAXSECONDS (uct_too_long) */
	r->cores = uct_core_mask(r->hdr.plat);
	r->maxend = UCT_MAXSECONDS * uct_hz_of(&r->hdr, 0);
	if (r->maxend > UCT_MAXCYCLES)
		r->maxend = UCT_MAXCYCLES;
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
		return uct_rerr(r, 0, "too many symbols");
	for (unsigned i = 0; i < n; i++) {
		const struct ucm_boxtype *bt;
		int sub;

		if (get_str(r, bn, sizeof(bn)) || get_str(r, sn, sizeof(sn)))
			return -EINVAL;
		bt = ucm_boxtype_find(r->hdr.plat, bn);
		if (!bt || (sub = uct_find_sub(bt, sn)) < 0)
			return uct_rerr(r, 0, "unknown sub-event %s.%s", bn, sn);
		r->sym[r->nsym].bt = (uint8_t)ucm_boxtype_index(r->hdr.plat, bt);
		r->sym[r->nsym].sub = (uint16_t)sub;
		r->nsym++;
	}
	r->off = r->pay + r->bpos;
	return r->bpos == r->blen ? 0 : uct_rerr(r, 0, "junk after the symbols");
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
		return uct_rerr(r, 0, "undefined symbol %llu", (unsigned long long)sym);
	if (sock > 255 || inst > 256 || inc > UINT32_MAX)
		return uct_rerr(r, 0, "input field out of range");
	memset(in, 0, sizeof(*in));
	in_fields(r, in, sym, sock, inst, inc);
	if (r->hdr.version >= 2) {
		/* attribute mask, then the value of each attribute in it */
		if (get_var(r, &v))
			return -EINVAL;
		if (v >> UCM_NATTR)
			return uct_rerr(r, 0, "attribute mask 0x%llx out of range", (unsigned long long)v);
		in->amask = (uint16_t)v;
		for (unsigned a = 0; a < UCM_NATTR; a++) {
			if (!(in->amask >> a & 1))
				continue;
			if (get_var(r, &v))
				return -EINVAL;
			if (v > uct_attr_max[a])
				return uct_rerr(r, 0, "attribute %s=%llu out of range", uct_attr_names[a],
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
 * anything bin_input would refuse or uct_fast_var does not read (bin_input
 * then reads the input again, errors and all). */
static inline unsigned fast_input(const struct uct_reader *r, const unsigned char *p,
				  const unsigned char *e, struct uct_in *in)
{
	uint64_t sym, sock, inst, inc, v;
	unsigned at, k;

	if (!(at = uct_fast_var(p, e, &sym)) || sym >= r->nsym ||
	    !(k = uct_fast_var(p + at, e, &sock)) || sock > 255 ||
	    !(at += k, k = uct_fast_var(p + at, e, &inst)) || inst > 256 ||
	    !(at += k, k = uct_fast_var(p + at, e, &inc)) || inc > UINT32_MAX)
		return 0;
	at += k;
	zero_in(in);
	in_fields(r, in, sym, sock, inst, inc);
	if (r->hdr.version >= 2) {
		if (!(k = uct_fast_var(p + at, e, &v)) || v >> UCM_NATTR)
			return 0;
		at += k;
		in->amask = (uint16_t)v;
		/* the attributes given, in increasing order */
		for (unsigned m = in->amask; m; m &= m - 1) {
			unsigned a = (unsigned)__builtin_ctz(m);

			if (!(k = uct_fast_var(p + at, e, &v)) || v > uct_attr_max[a])
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
		return uct_rerr(r, 0, "%llu inputs in a segment (max %d)", (unsigned long long)nin, UCT_MAXIN);
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
	uint64_t ns, sock, v, last = 0, start = r->pay + r->bpos, cores = uct_core_mask(r->hdr.plat);

	memset(asleep, 0, UCT_MAXSOCK * sizeof(*asleep));
	if (get_var1(r, &ns))
		return -EINVAL;
	r->off = start; /* (get_var1 notes a field's place only when it calls get_var) */
	if (ns > r->hdr.sockets)
		return uct_rerr(r, 0, "%llu sleep masks for %u sockets", (unsigned long long)ns,
				r->hdr.sockets);
	for (unsigned k = 0; k < ns; k++) {
		/* an error at the mask: get_var notes its first byte */
		if (get_var1(r, &sock) || get_var(r, &v))
			return -EINVAL;
		if (sock >= r->hdr.sockets || (k && sock <= last) || !v)
			return uct_rerr(r, 0, "sleep mask %u (socket %llu, 0x%llx) out of order or empty", k,
					(unsigned long long)sock, (unsigned long long)v);
		if (v & ~cores) {
			r->off = start;
			return uct_rerr(r, 0, "asleep=0x%llx: %s has %u cores per socket",
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
	uint64_t nc, idx, last = 0, start = r->pay + r->bpos, cores = uct_core_mask(r->hdr.plat);

	if (get_var1(r, &nc))
		return -EINVAL;
	r->off = start;
	if ((!nc && !r->empty) || nc > (uint64_t)r->hdr.sockets * 64)
		return uct_rerr(r, 0, "%llu sleep changes (%u to %u: a core of %u sockets each at most once)",
				(unsigned long long)nc, !r->empty, r->hdr.sockets * 64, r->hdr.sockets);
	for (unsigned k = 0; k < nc; k++) {
		if (get_var(r, &idx))
			return -EINVAL;
		if ((k && idx <= last) || idx >> 6 >= r->hdr.sockets)
			return uct_rerr(r, 0, "sleep change %u (socket %llu core %llu) out of order or past the "
					"sockets", k, (unsigned long long)(idx >> 6), (unsigned long long)(idx & 63));
		if (!(cores >> (idx & 63) & 1)) {
			r->off = start;
			return uct_rerr(r, 0, "sleep change of core %llu: %s has %u cores per socket",
					(unsigned long long)(idx & 63), r->hdr.plat->name, r->hdr.plat->ncores);
		}
		asleep[idx >> 6] ^= 1ull << (idx & 63);
		last = idx;
	}
	return 0;
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
int uct_bin_inputs_of(struct uct_reader *r, unsigned char *b, size_t n, struct uct_seg *seg)
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
		return uct_bin_inputs_of(r, r->vd->bytes + r->vd->off[id], len, seg);
	if (r->vlisted[id] > 0) {
		k = r->vlisted[id] - 1;
		return uct_bin_inputs_of(r, r->pd->bytes + r->pd->off[k], r->pd->len[k], seg);
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
	if ((k = uct_vd_add(r->pd, pb, pn, 0)) == -ENOMEM)
		return k;
	if (k >= 0)
		r->vlisted[id] = k + 1;
	return uct_bin_inputs_of(r, pb, pn, seg);
}

/* The inputs of vector vid, numbered before (the replay's, for a chunked
 * vector it did not make from its chunks). */
int uct_vector_content(struct uct_reader *r, int vid, struct uct_seg *seg)
{
	if (!r->binary || !r->vform || vid < 0 || !r->vd || (unsigned)vid >= r->vd->n)
		return -EINVAL;
	return bin_vector_at(r, (unsigned)vid, seg);
}

/* A chunk's facts: the sockets and box types of its inputs, a bit each
 * (socket * UCM_MAXBT + box type), the bytes of its input count, its
 * inputs. */
struct uct_rchunk {
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
		const struct uct_rchunk *c = &r->ch[ids[k]];
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
 * without them (every rule of uct_chk_seg but the count is one of a socket
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
		return uct_rerr(r, 0, "%llu chunks in a vector (max %d)", (unsigned long long)nch, UCT_MAXIN);
	for (unsigned k = 0; k < nch; k++) {
		uint64_t cpos = r->pay + r->bpos;
		struct uct_rchunk c;
		int id;

		if (get_var1(r, &ref))
			return -EINVAL;
		if (ref) {
			if (ref - 1 >= r->cd->n) {
				r->off = cpos;
				return uct_rerr(r, 0, "undefined chunk %llu (%u defined)",
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
				return uct_rerr(r, 0, "empty chunk");
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
			if ((id = uct_vd_add(r->cd, b, cs[k].len, 0)) == -ENOMEM)
				return id;
			if (id >= 0) {
				if ((size_t)id >= r->capch) {
					size_t cap = r->capch ? 2 * r->capch : 64;
					struct uct_rchunk *nc = realloc(r->ch, cap * sizeof(*nc));

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
			return uct_rerr(r, 0, "%u inputs in a segment (max %d)", total + c.nin, UCT_MAXIN);
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

int uct_bin_next(struct uct_reader *r, struct uct_seg *seg, int need, int *vid, int *full)
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
				return uct_rerr(r, 0, "empty segment block");
			r->brecs = v;
		} else if (type == 'E') {
			uint64_t nseg, end;
			unsigned char x;

			if (get_var(r, &nseg) || get_var(r, &end))
				return -EINVAL;
			r->off = r->pay + r->bpos;
			if (r->bpos != r->blen)
				return uct_rerr(r, 0, "junk after the end block's counts");
			r->off = r->pay;
			if (nseg != r->nseg || end != r->end)
				return uct_rerr(r, 0,
						"end block says %llu segments over %llu cycles; read %llu over %llu",
						(unsigned long long)nseg, (unsigned long long)end,
						(unsigned long long)r->nseg, (unsigned long long)r->end);
			r->off = r->pos;
			if (uct_src_read(&r->src, &x, 1) == 1)
				return uct_rerr(r, 0, "data after the end block");
			if (r->src.rd_errno) {
				uct_rerr(r, 0, "read error: %s", strerror(r->src.rd_errno));
				return -EIO;
			}
			r->ended = 1;
			return 0;
		} else {
			r->off = r->pay - 5;
			return uct_rerr(r, 0, "unknown block type 0x%02x", type);
		}
	}
	rec = r->pay + r->bpos;
	if (get_var1(r, &v))
		return -EINVAL;
	if (v > UCT_MAXCYCLES - r->end) {
		r->off = rec;
		return uct_rerr(r, 0, "segment start out of range");
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
		if (!seg->ncycles || seg->ncycles > UCT_MAXCYCLES)
			return uct_rerr(r, 0, "segment length %llu cycles out of range 1..2^56",
					(unsigned long long)seg->ncycles);
		if (seg->ncycles > UCT_MAXCYCLES - seg->start ||
		    uct_too_long(r, seg->start + seg->ncycles, err, sizeof(err)))
			return uct_rerr(r, 0, "%s", seg->ncycles > UCT_MAXCYCLES - seg->start
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
				return uct_rerr(r, 0, "undefined vector %llu (%u defined)",
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
				return uct_rerr(r, 0, "sleep masks need version 2");
			}
			/* checked there (a new vector's segment again below) */
			if (r->changes ? bin_changes(r, r->asleep) : bin_sleep(r, r->asleep))
				return -EINVAL;
			uct_copy_masks(seg->asleep, r->asleep);
		} else {
			uct_copy_masks(seg->asleep, r->asleep);
		}
		if (!ref) {
			int id, dec = !r->chunked, listed = r->chunked && known;
			unsigned char lb[UCT_MAXIN * 5];
			size_t ln = 0;

			/* a chunked vector's inputs decoded where they are checked
			 * or wanted (a vector not numbered is used now: wanted) */
			if (r->chunked && (!known || (need & UCT_NEED_CONTENT))) {
				unsigned char *pb = vb;
				size_t pn = vn;

				if (known)
					chunks_plain(r, r->lch, r->nlch, &pb, &pn);
				if (uct_bin_inputs_of(r, pb, pn, seg))
					return -EINVAL;
				dec = 1;
			}
			r->off = rec;
			if (!listed && uct_chk_seg(r->chk, &r->hdr, seg, err, sizeof(err)))
				return uct_rerr(r, 0, "%s", err);
			if (!r->vd && !(r->vd = calloc(1, sizeof(*r->vd))))
				return -ENOMEM;
			/* (no hash: the vector form's dictionary is never searched);
			 * a vector of known chunks kept as their numbers, counted
			 * as its `inputs` encoding */
			if (listed) {
				for (unsigned k = 0; k < r->nlch; k++)
					uct_put_var(lb, &ln, r->lch[k]);
				id = uct_vd_add_as(r->vd, lb, ln, 0, vn);
			} else {
				id = uct_vd_add(r->vd, vb, vn, 0);
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
				if (uct_bin_inputs_of(r, pb, pn, seg))
					return -EINVAL;
				dec = 1;
			}
			*vid = id;
			*full = dec;
			if (!dec)
				r->lch_vid = id;
		} else if ((need & UCT_NEED_CONTENT) && (rc = bin_vector_at(r, (unsigned)(ref - 1), seg))) {
			return rc;
		} else {
			*full = (need & UCT_NEED_CONTENT) != 0;
		}
	} else {
		seg->nin = 0;
		memset(seg->asleep, 0, sizeof(seg->asleep));
		if (bin_vector(r, seg))
			return -EINVAL;
		/* a rule the record breaks: the record's offset */
		r->off = rec;
		if (uct_chk_seg(r->chk, &r->hdr, seg, err, sizeof(err)))
			return uct_rerr(r, 0, "%s", err);
		if (seg->ncycles > UCT_MAXCYCLES - seg->start ||
		    uct_too_long(r, seg->start + seg->ncycles, err, sizeof(err)))
			return uct_rerr(r, 0, "%s", seg->ncycles > UCT_MAXCYCLES - seg->start
							   ? "trace longer than 2^56 cycles" : err);
	}
	r->end = seg->start + seg->ncycles;
	r->nseg++;
	r->brecs--;
	if (!r->brecs && r->bpos != r->blen) {
		r->off = r->pay + r->bpos;
		return uct_rerr(r, 0, "junk after the last record of a block");
	}
	return 1;
}
