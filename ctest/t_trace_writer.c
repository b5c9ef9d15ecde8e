/*
 * t_trace_writer.c - the writers and the round trips through them: text
 * and every binary form carry the same content (skl, and the two-socket
 * Xeon E5-2600 with its clocks, attributes and sleep masks); version 1
 * read and kept; trace files appear only complete; the vector form's rules
 * as the writer applies them and the reader follows them (two-byte
 * references once vector 63 is numbered, chunks given again past the
 * dictionary, empty sleep changes once one is given).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ct.h"
#include "ct_trace.h"
#include "ucm.h"
#include "uct_trace.h"

/* docs/formats.md: the two encodings carry the same content. */
CT_TEST(text_binary_round_trips_are_lossless)
{
	char t1[128], b1[128], t2[128], b2[128];

	ct_tmpname(t1, sizeof(t1), "rt1.uct");
	ct_tmpname(b1, sizeof(b1), "rt1.bin");
	ct_tmpname(t2, sizeof(t2), "rt2.uct");
	ct_tmpname(b2, sizeof(b2), "rt2.bin");
	for (uint64_t seed = 1; seed <= 20; seed++) {
		CT_REQUIRE(ct_write_random(t1, 0, 50 + (unsigned)seed * 7, seed, 1) == 0);
		CT_REQUIRE(ct_convert(t1, b1, 1) == 0);
		CT_REQUIRE(ct_convert(b1, t2, 0) == 0);
		CT_REQUIRE(ct_convert(t2, b2, 1) == 0);
		CT_CHECK(ct_same_file(t1, t2));
		CT_CHECK(ct_same_file(b1, b2));
	}
	unlink(t1);
	unlink(b1);
	unlink(t2);
	unlink(b2);
}

/* Writers create the file only on commit; abort leaves nothing. */
CT_TEST(trace_files_appear_only_complete)
{
	char dir[128], path[256], err[512];
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg s;
	struct stat st;

	ct_tmpname(dir, sizeof(dir), "dir");
	CT_REQUIRE(mkdir(dir, 0700) == 0);
	snprintf(path, sizeof(path), "%s/x.uct", dir);
	memset(&h, 0, sizeof(h));
	h.plat = ct_skl();
	memset(&s, 0, sizeof(s));
	s.ncycles = 10;
	CT_REQUIRE(uct_writer_open(path, 0, &h, &w, err, sizeof(err)) == 0);
	CT_REQUIRE(uct_write(w, &s) == 0);
	CT_CHECK(stat(path, &st) != 0);
	/* overlapping segment refused, then abort */
	s.start = 5;
	CT_EQ(uct_write(w, &s), -EINVAL);
	CT_CONTAINS(uct_writer_error(w), "overlaps");
	uct_writer_abort(w);
	CT_CHECK(stat(path, &st) != 0);
	CT_EQ(rmdir(dir), 0); /* empty: no temporary left */
}

static int same_seg(const struct uct_seg *a, const struct uct_seg *b)
{
	if (a->start != b->start || a->ncycles != b->ncycles || a->nin != b->nin ||
	    memcmp(a->asleep, b->asleep, sizeof(a->asleep)))
		return 0;
	for (unsigned i = 0; i < a->nin; i++)
		if (!uct_in_equal(&a->in[i], &b->in[i]))
			return 0;
	return 1;
}

/* What a reader gives back is what was written, segment by segment. */
static void check_content(const char *path, const struct uct_seg *segs, unsigned nseg, uint64_t seed)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	struct uct_hdr h;
	char err[768];
	unsigned k = 0;
	int rc;

	ct_snbep_hdr(&h, seed);
	if (!s || uct_open(path, &r, err, sizeof(err))) {
		ct_fail(__FILE__, __LINE__, "%s: %s", path, s ? err : "no memory");
		free(s);
		return;
	}
	CT_EQ(uct_header(r)->sockets, 2);
	CT_EQ(uct_header(r)->version, 2);
	CT_EQ(uct_header(r)->seed, seed);
	CT_CHECK(!memcmp(uct_header(r)->clock_hz, h.clock_hz, sizeof(h.clock_hz)));
	CT_CHECK(!memcmp(uct_header(r)->ninst, h.ninst, sizeof(h.ninst)));
	while ((rc = uct_next(r, s)) > 0) {
		if (k >= nseg || !same_seg(s, &segs[k]))
			ct_fail(__FILE__, __LINE__, "%s: segment %u differs from the one written", path, k);
		k++;
	}
	CT_EQ(rc, 0);
	CT_EQ(k, nseg);
	uct_close(r);
	free(s);
}

/* Both encodings carry everything snbep needs: socket 1's boxes, the
 * clocks, attributes and sleep masks; text -> binary -> text is identical. */
CT_TEST(snbep_text_binary_round_trips_are_lossless)
{
	char t1[128], b1[128], t2[128], b2[128];
	struct uct_seg *segs = malloc(60 * sizeof(*segs));
	unsigned attrs = 0, sleeps = 0, s1 = 0;

	CT_REQUIRE(segs);
	ct_tmpname(t1, sizeof(t1), "srt1.uct");
	ct_tmpname(b1, sizeof(b1), "srt1.bin");
	ct_tmpname(t2, sizeof(t2), "srt2.uct");
	ct_tmpname(b2, sizeof(b2), "srt2.bin");
	for (uint64_t seed = 1; seed <= 12; seed++) {
		CT_REQUIRE(ct_write_random_snbep(t1, 0, 60, seed, 1, segs) == 0);
		CT_REQUIRE(ct_convert(t1, b1, 1) == 0);
		CT_REQUIRE(ct_convert(b1, t2, 0) == 0);
		CT_REQUIRE(ct_convert(t2, b2, 1) == 0);
		CT_CHECK(ct_same_file(t1, t2));
		CT_CHECK(ct_same_file(b1, b2));
		check_content(t1, segs, 60, seed);
		check_content(b1, segs, 60, seed);
		for (unsigned i = 0; i < 60; i++) {
			sleeps += segs[i].asleep[0] || segs[i].asleep[1];
			for (unsigned k = 0; k < segs[i].nin; k++) {
				attrs += segs[i].in[k].amask != 0;
				s1 += segs[i].in[k].socket == 1;
			}
		}
	}
	/* the random traces did exercise what this test is about */
	CT_CHECK(attrs > 100 && sleeps > 100 && s1 > 500);
	unlink(t1);
	unlink(b1);
	unlink(t2);
	unlink(b2);
	free(segs);
}

/* Version 1 files stay version 1 through a conversion (their canonical
 * text is unchanged), and a version 1 writer refuses what it cannot say. */
CT_TEST(version_1_traces_are_read_and_kept)
{
	const char *v1 = "uncore-trace 1\nplatform snbep\nsockets 2\nrun 10: s1.cbo3.LLC_LOOKUP.DATA_READ_M=1\ncycle: s0.imc.CAS_COUNT.RD_REG=1\n";
	char t1[128], b1[128], t2[128], err[512];
	FILE *f;
	struct uct_hdr h;
	struct uct_writer *w;
	struct uct_seg s;
	unsigned char m[12];

	ct_tmpname(t1, sizeof(t1), "v1.uct");
	ct_tmpname(b1, sizeof(b1), "v1.bin");
	ct_tmpname(t2, sizeof(t2), "v1b.uct");
	f = fopen(t1, "w");
	CT_REQUIRE(f);
	fputs(v1, f);
	fclose(f);
	CT_REQUIRE(ct_convert(t1, b1, 1) == 0);
	CT_REQUIRE(ct_load(b1, m, sizeof(m)) == sizeof(m));
	CT_EQ(m[8], 1);
	CT_REQUIRE(ct_convert(b1, t2, 0) == 0);
	CT_CHECK(ct_same_file(t1, t2));

	ct_snbep_hdr(&h, 1);
	h.version = 1;
	CT_REQUIRE(uct_writer_open(t2, 0, &h, &w, err, sizeof(err)) == 0);
	memset(&s, 0, sizeof(s));
	s.ncycles = 5;
	s.nin = 1;
	s.in[0] = (struct uct_in){ .bt = (uint8_t)ct_bt_index(h.plat, "cbo"), .inst = 0,
				   .sub = (uint16_t)ucm_subev_find(ucm_boxtype_find(h.plat, "cbo"),
								   "TOR_INSERTS.DRd_MISS"),
				   .inc = 1, .amask = 1u << UCM_AT_NID, .attr = { [UCM_AT_NID] = 1 } };
	CT_EQ(uct_write(w, &s), -EINVAL);
	CT_CONTAINS(uct_writer_error(w), "attributes need version 2");
	s.in[0].amask = 0;
	s.asleep[1] = 3;
	CT_EQ(uct_write(w, &s), -EINVAL);
	CT_CONTAINS(uct_writer_error(w), "sleep states need version 2");
	uct_writer_abort(w);
	h.version = 3;
	CT_EQ(uct_writer_open(t2, 0, &h, &w, err, sizeof(err)), -EINVAL);
	CT_CONTAINS(err, "cannot write version 3");
	unlink(t1);
	unlink(b1);
	unlink(t2);
}

/* A reference's code takes at least two bytes once vector 63 is numbered
 * (the codes from 128 on take two: after it every code has one length, so
 * a reader's branch on the length goes the same way at each record), and
 * its shortest encoding before (docs/formats.md, "Vectors"); the reader
 * takes either. */
CT_TEST(references_take_two_bytes_once_vector_63_is_numbered)
{
	static unsigned char f[1 << 16];
	struct uct_seg *s = malloc(sizeof(*s));
	struct uct_hdr h;
	char path[128], err[768];
	int cbo, sub;

	CT_REQUIRE(s);
	ct_tmpname(path, sizeof(path), "pad.uct");
	ct_snbep_hdr(&h, 3);
	cbo = ct_bt_index(h.plat, "cbo");
	sub = ucm_subev_find(ucm_boxtype_find(h.plat, "cbo"), "LLC_LOOKUP.DATA_READ_M");
	CT_REQUIRE(cbo >= 0 && sub >= 0);
	for (unsigned nv = 63; nv <= 64; nv++) {
		static const unsigned char one[] = { 0x00, 0x01, 0x02 }, two[] = { 0x00, 0x01, 0x82, 0x00 };
		const unsigned char *want = nv > 63 ? two : one;
		size_t wn = nv > 63 ? sizeof(two) : sizeof(one), n, p = 12, last = 0, lastn = 0;
		struct uct_writer *w;
		struct uct_reader *r;
		int rc, vid = -2, full;
		unsigned k = 0;

		/* vectors 0 .. nv - 1 (lookups on the CBos of the bits of
		 * i + 1), then vector 0 again: code 2 */
		CT_REQUIRE(uct_writer_open(path, UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
		for (unsigned i = 0; i <= nv; i++) {
			ct_cbo_lookups(s, i, i < nv ? i + 1 : 1, cbo, sub);
			CT_REQUIRE(uct_write(w, s) == 0);
		}
		CT_REQUIRE(uct_writer_commit(w) == 0);
		n = ct_load(path, f, sizeof(f));
		CT_REQUIRE(n > 12 && n < sizeof(f));
		/* the last segment block's last bytes: the last record */
		while (p + 5 <= n) {
			size_t len = (size_t)f[p + 1] | (size_t)f[p + 2] << 8 | (size_t)f[p + 3] << 16 |
				     (size_t)f[p + 4] << 24;

			if (f[p] == 'S') {
				last = p + 5;
				lastn = len;
			}
			p += 9 + len;
		}
		CT_REQUIRE(lastn >= wn);
		CT_CHECK(memcmp(f + last + lastn - wn, want, wn) == 0);
		/* read back: vector 0 */
		CT_REQUIRE(uct_open(path, &r, err, sizeof(err)) == 0);
		while ((rc = uct_next_vec(r, s, 0, &vid, &full)) > 0 && ++k <= nv)
			;
		CT_EQ(rc, 1);
		CT_EQ(vid, 0);
		CT_EQ(uct_next_vec(r, s, 0, &vid, &full), 0);
		uct_close(r);
	}
	unlink(path);
	free(s);
}

/* The chunks' dictionary numbers UCT_MAXCHUNK chunks; a chunk given after
 * that is used by its vector only, by the writer and the reader alike.
 * Vector i is one chunk: CBo events of socket 0 on the bits of i (8 CBos,
 * two events, a third on cbo0), so every vector is a new chunk and,
 * past UCT_MAXVEC, a vector not numbered; then segments repeat vectors
 * from both ends.  Read back, every segment is the one written, and the
 * record form written from the same segments is what the chunked trace
 * converts to, byte for byte. */
CT_TEST(chunks_beyond_the_dictionary_are_given_again)
{
	char vec[128], rec[128], rec2[128];
	const unsigned nd = UCT_MAXCHUNK + 50, nseg = nd + 200;
	struct uct_hdr h;
	struct uct_writer *w, *wr;
	struct uct_seg *s = malloc(sizeof(*s)), *t = malloc(sizeof(*t));
	struct uct_reader *r;
	char err[768];
	int cbo, sub[3], rc;
	unsigned k = 0;

	CT_REQUIRE(s && t);
	ct_tmpname(vec, sizeof(vec), "chunks.vec");
	ct_tmpname(rec, sizeof(rec), "chunks.rec");
	ct_tmpname(rec2, sizeof(rec2), "chunks2.rec");
	ct_snbep_hdr(&h, 6); /* (8 CBos) */
	cbo = ct_bt_index(h.plat, "cbo");
	sub[0] = ucm_subev_find(ucm_boxtype_find(h.plat, "cbo"), "LLC_LOOKUP.DATA_READ_M");
	sub[1] = ucm_subev_find(ucm_boxtype_find(h.plat, "cbo"), "TOR_INSERTS.DRd_MISS");
	sub[2] = ucm_subev_find(ucm_boxtype_find(h.plat, "cbo"), "LLC_VICTIMS.M_STATE");
	CT_REQUIRE(cbo >= 0 && sub[0] >= 0 && sub[1] >= 0 && sub[2] >= 0);
	CT_REQUIRE(uct_writer_open(vec, UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
	CT_REQUIRE(uct_writer_open(rec, UCT_BINARY_RECORDS, &h, &wr, err, sizeof(err)) == 0);
	for (unsigned i = 0; i < nseg; i++) {
		unsigned v = ct_vector_of(i, nd);

		memset(s, 0, sizeof(*s));
		s->start = i;
		s->ncycles = 1;
		for (unsigned b = 0; b < 17; b++)
			if (v >> b & 1)
				s->in[s->nin++] = (struct uct_in){ .bt = (uint8_t)cbo,
								   .inst = (int16_t)(b < 16 ? b % 8 : 0),
								   .sub = (uint16_t)sub[b / 8], .inc = 1 };
		if (uct_write(w, s) || uct_write(wr, s))
			ct_fail(__FILE__, __LINE__, "segment %u: %s / %s", i, uct_writer_error(w),
				uct_writer_error(wr));
	}
	CT_REQUIRE(uct_writer_commit(w) == 0);
	CT_REQUIRE(uct_writer_commit(wr) == 0);
	CT_REQUIRE(uct_open(vec, &r, err, sizeof(err)) == 0);
	CT_CHECK(uct_is_chunked(r));
	while ((rc = uct_next(r, t)) > 0) {
		unsigned v = ct_vector_of(k, nd), nin = 0, same = 1;

		for (unsigned b = 0; b < 17; b++)
			if (v >> b & 1) {
				const struct uct_in *x = &t->in[nin++];

				same &= nin <= t->nin && x->bt == cbo && x->socket == 0 &&
					x->inst == (b < 16 ? (int)(b % 8) : 0) && x->sub == sub[b / 8] &&
					x->inc == 1;
			}
		if (!same || nin != t->nin)
			ct_fail(__FILE__, __LINE__, "segment %u: not the vector written", k);
		k++;
	}
	CT_EQ(rc, 0);
	CT_EQ(k, nseg);
	CT_EQ(uct_chunks(r), UCT_MAXCHUNK);
	CT_EQ(uct_vectors(r), UCT_MAXVEC);
	uct_close(r);
	CT_REQUIRE(ct_convert(vec, rec2, UCT_BINARY_RECORDS) == 0);
	CT_CHECK(ct_same_file(rec, rec2));
	free(s);
	free(t);
	unlink(vec);
	unlink(rec);
	unlink(rec2);
}

/* The writer (flags 15) gives a record's sleep changes once a record has
 * given one: none as a count of two bytes where the masks stay, so that
 * the records of a C-state trace are alike (docs/formats.md, "Sleep
 * changes"); a trace whose masks never change gives none. */
CT_TEST(sleep_changes_are_given_empty_once_one_is_given)
{
	char path[2][128], err[768];
	size_t n[2];
	static unsigned char f[2][4096];

	for (int x = 0; x < 2; x++) {
		struct uct_seg *s = calloc(1, sizeof(*s));
		struct uct_hdr h;
		struct uct_writer *w;
		struct uct_reader *r;

		CT_REQUIRE(s);
		memset(&h, 0, sizeof(h));
		h.plat = ucm_platform_find("snbep");
		h.sockets = 2;
		ct_tmpname(path[x], sizeof(path[x]), x ? "chg.bin" : "nochg.bin");
		CT_REQUIRE(uct_writer_open(path[x], UCT_BINARY, &h, &w, err, sizeof(err)) == 0);
		/* three segments: none asleep; then (x) core 1 asleep, twice */
		for (unsigned i = 0; i < 3; i++) {
			s->start = 10ull * i;
			s->ncycles = 10;
			s->asleep[0] = x && i ? 2 : 0;
			CT_REQUIRE(uct_write(w, s) == 0);
		}
		CT_REQUIRE(uct_writer_commit(w) == 0);
		n[x] = ct_load(path[x], f[x], sizeof(f[x]));
		CT_REQUIRE(n[x] > 12 && n[x] < sizeof(f[x]));
		CT_EQ(f[x][10], 15);
		/* read back: the masks as written */
		CT_REQUIRE(uct_open(path[x], &r, err, sizeof(err)) == 0);
		for (unsigned i = 0; i < 3; i++) {
			CT_EQ(uct_next(r, s), 1);
			CT_EQ(s->asleep[0], x && i ? 2u : 0u);
		}
		CT_EQ(uct_next(r, s), 0);
		uct_close(r);
		free(s);
		unlink(path[x]);
	}
	/* the change (a count and a core) and the empty change after it (a
	 * count of two bytes): four bytes more, the sleep bits in the codes */
	CT_EQ(n[1], n[0] + 4);
}

CT_MAIN()
