/*
 * t_trace_bin.c - the binary reader (docs/formats.md): the blocks'
 * checksums (zlib's CRC-32); truncated, corrupted and malformed traces of
 * every form (records, vectors, chunks, sleep masks and changes) detected
 * at their offset alike by a plain read, a read as the replay reads, the
 * check before a replay and a replay into a model; generated traces
 * mutated at random failing alike in a replay and a read.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "ct.h"
#include "ct_prog.h"
#include "ct_trace.h"
#include "ucm.h"
#include "uct_gen.h"
#include "uct_trace.h"

static int read_all(const unsigned char *buf, size_t n, char *err, size_t en)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	int rc = uct_open_mem("t.bin", buf, n, &r, err, en);

	if (!rc) {
		while ((rc = uct_next(r, s)) > 0)
			;
		snprintf(err, en, "%s", uct_reader_error(r));
		uct_close(r);
	}
	free(s);
	return rc;
}

/* read_all as a replay reads: uct_next_vec without the vectors' content. */
static int read_vec(const unsigned char *buf, size_t n, char *err, size_t en)
{
	struct uct_reader *r;
	struct uct_seg *s = malloc(sizeof(*s));
	int rc = uct_open_mem("t.bin", buf, n, &r, err, en), vid, full;

	if (!rc) {
		while ((rc = uct_next_vec(r, s, 0, &vid, &full)) > 0)
			;
		snprintf(err, en, "%s", uct_reader_error(r));
		uct_close(r);
	}
	free(s);
	return rc;
}

/* read_all as the check before a replay reads (uct_open_checked), from a
 * file named t.bin in a directory of its own. */
static int read_checked(const unsigned char *buf, size_t n, char *err, size_t en)
{
	char dir[128], path[160];
	struct uct_reader *r = NULL;
	FILE *f;
	int rc;

	ct_tmpname(dir, sizeof(dir), "chkdir");
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/t.bin", dir);
	if (!(f = fopen(path, "wb")))
		return snprintf(err, en, "%s: cannot write", path), -EIO;
	if (fwrite(buf, 1, n, f) != n) {
		fclose(f);
		return snprintf(err, en, "%s: cannot write", path), -EIO;
	}
	if (fclose(f))
		return snprintf(err, en, "%s: cannot write", path), -EIO;
	rc = uct_open_checked(path, NULL, &r, err, en);
	if (!rc)
		uct_close(r);
	unlink(path);
	rmdir(dir);
	return rc;
}

/* Binary traces: every truncation and every single-byte corruption is
 * detected (magic, version, block CRC, lengths, end block). */
CT_TEST(truncated_or_corrupted_binary_traces_are_detected)
{
	char path[128], err[768];
	static unsigned char buf[1 << 16], bad[1 << 16];
	size_t n;

	ct_tmpname(path, sizeof(path), "c.bin");
	CT_REQUIRE(ct_write_random(path, 1, 30, 5, 1) == 0);
	n = ct_load(path, buf, sizeof(buf));
	CT_REQUIRE(n > 100 && n < sizeof(buf));
	CT_EQ(read_all(buf, n, err, sizeof(err)), 0);
	for (size_t cut = 0; cut < n; cut++) {
		if (read_all(buf, cut, err, sizeof(err)) >= 0)
			ct_fail(__FILE__, __LINE__, "truncation at %zu of %zu accepted", cut, n);
	}
	for (size_t i = 0; i < n; i++) {
		memcpy(bad, buf, n);
		bad[i] ^= (unsigned char)(1u << (i % 8));
		/* (byte 10, the flags: bit 10 % 8 = 2, sleep changes, which
		 * this trace gives none of, is refused with bit 3, empty
		 * changes, that needs it) */
		if (read_all(bad, n, err, sizeof(err)) >= 0)
			ct_fail(__FILE__, __LINE__, "flip of byte %zu accepted", i);
	}
	memcpy(bad, buf, n);
	bad[n] = 0;
	CT_CHECK(read_all(bad, n + 1, err, sizeof(err)) < 0);
	CT_CONTAINS(err, "after the end block");
	memcpy(bad, buf, n);
	bad[8] = 9;
	CT_CHECK(read_all(bad, n, err, sizeof(err)) < 0);
	CT_CONTAINS(err, "unsupported version 9");
	unlink(path);
}

/* The block CRC of both binary forms is the CRC-32 of docs/formats.md:
 * zlib's crc32 of the type, length and payload, which the library does not
 * use (snbep traces of 2,000 segments: blocks of every type). */
CT_TEST(binary_block_checksums_are_zlib_crc32)
{
	static const int forms[] = { UCT_BINARY, UCT_BINARY_RECORDS };
	static unsigned char buf[1 << 22];
	char path[128], err[768];

	ct_tmpname(path, sizeof(path), "crc.bin");
	for (unsigned f = 0; f < 2; f++) {
		size_t n, at = 12;
		unsigned nblk = 0, types = 0;

		CT_REQUIRE(ct_write_random_snbep(path, forms[f], 2000, 41 + f, 0, NULL) == 0);
		n = ct_load(path, buf, sizeof(buf));
		CT_REQUIRE(n > 12 && n < sizeof(buf));
		CT_EQ(read_all(buf, n, err, sizeof(err)), 0);
		while (at + 9 <= n) {
			uint32_t len = (uint32_t)buf[at + 1] | (uint32_t)buf[at + 2] << 8 |
				       (uint32_t)buf[at + 3] << 16 | (uint32_t)buf[at + 4] << 24, want;

			CT_REQUIRE(len <= n - at - 9);
			want = (uint32_t)buf[at + 5 + len] | (uint32_t)buf[at + 6 + len] << 8 |
			       (uint32_t)buf[at + 7 + len] << 16 | (uint32_t)buf[at + 8 + len] << 24;
			CT_EQ(want, (uint32_t)crc32(0L, buf + at, (uInt)(5 + len)));
			types |= buf[at] == 'H' ? 1u : buf[at] == 'Y' ? 2u : buf[at] == 'S' ? 4u
			       : buf[at] == 'E' ? 8u : 16u;
			at += 9 + len;
			nblk++;
		}
		CT_EQ(at, n);
		CT_EQ(types, 15u);
		CT_CHECK(nblk >= 4);
	}
	unlink(path);
}

/* A LEB128 varint, as the format's integers are. */
static void put_test_var(unsigned char *o, size_t *n, uint64_t v)
{
	do {
		o[(*n)++] = (unsigned char)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
		v >>= 7;
	} while (v);
}

/* A block as the writer makes it: type, length, payload, CRC-32. */
static size_t put_test_block(unsigned char *o, int type, const unsigned char *p, size_t len)
{
	uint32_t crc;

	o[0] = (unsigned char)type;
	for (unsigned i = 0; i < 4; i++)
		o[1 + i] = (unsigned char)(len >> (8 * i));
	memcpy(o + 5, p, len);
	crc = (uint32_t)crc32(0L, o, (uInt)(5 + len));
	for (unsigned i = 0; i < 4; i++)
		o[5 + len + i] = (unsigned char)(crc >> (8 * i));
	return 9 + len;
}

/* Binary snbep traces: every truncation and single-bit corruption of a
 * trace with attributes and sleep masks is detected, and so are well-formed
 * blocks whose content breaks the rules. */

/* The header block of a hand-made binary trace ("snbep", 2 sockets, no
 * clocks, seed 0, no box counts) and its symbol block (one symbol:
 * cbo TOR_INSERTS.DRd_MISS). */
static unsigned raw_sockets = 2; /* raw_snbep_head's socket count */

static void raw_snbep_head(unsigned char *hdr, size_t *hn, unsigned char *sym, size_t *yn)
{
	hdr[(*hn)++] = 5;
	memcpy(hdr + *hn, "snbep", 5);
	*hn += 5;
	hdr[(*hn)++] = (unsigned char)raw_sockets;
	hdr[(*hn)++] = 0;
	hdr[(*hn)++] = 0;
	hdr[(*hn)++] = 0;
	sym[(*yn)++] = 1;
	sym[(*yn)++] = 3;
	memcpy(sym + *yn, "cbo", 3);
	*yn += 3;
	sym[(*yn)++] = 20;
	memcpy(sym + *yn, "TOR_INSERTS.DRd_MISS", 20);
	*yn += 20;
}

CT_TEST(malformed_snbep_binary_traces_are_detected)
{
	char path[128], err[768];
	static unsigned char buf[1 << 16], bad[1 << 16];
	size_t n;

	ct_tmpname(path, sizeof(path), "sc.bin");
	CT_REQUIRE(ct_write_random_snbep(path, 1, 8, 5, 1, NULL) == 0);
	n = ct_load(path, buf, sizeof(buf));
	CT_REQUIRE(n > 100 && n < sizeof(buf));
	CT_EQ(read_all(buf, n, err, sizeof(err)), 0);
	for (size_t cut = 0; cut < n; cut++)
		if (read_all(buf, cut, err, sizeof(err)) >= 0)
			ct_fail(__FILE__, __LINE__, "truncation at %zu of %zu accepted", cut, n);
	for (size_t i = 0; i < n; i++) {
		memcpy(bad, buf, n);
		bad[i] ^= (unsigned char)(1u << (i % 8));
		if (read_all(bad, n, err, sizeof(err)) >= 0)
			ct_fail(__FILE__, __LINE__, "flip of byte %zu accepted", i);
	}
	unlink(path);
	/* hand-made blocks with valid checksums */
	{
		static const struct {
			const char *seg;   /* a segment record: gap, cycles, inputs, ... */
			size_t len;
			const char *want;
		} cases[] = {
			/* symbol 0 (cbo TOR_INSERTS.DRd_MISS) on socket 1, cbo0, inc 1,
			 * nid (mask 4) = 0xFFFF: out of range */
			{ "\x00\x0a\x01\x00\x01\x01\x01\x04\xff\xff\x03\x00", 12, "attribute nid=65535 out of range" },
			/* attribute mask bit 11: no such attribute */
			{ "\x00\x0a\x01\x00\x01\x01\x01\x80\x10\x01\x00", 11, "attribute mask 0x800 out of range" },
			/* a sleep mask for socket 2 of 2 */
			{ "\x00\x0a\x00\x01\x02\x01", 6, "out of order or empty" },
			/* a zero mask */
			{ "\x00\x0a\x00\x01\x00\x00", 6, "out of order or empty" },
			/* socket 0 after socket 1 */
			{ "\x00\x0a\x00\x02\x01\x01\x00\x01", 8, "out of order or empty" },
			/* core 8 of 8 */
			{ "\x00\x0a\x00\x01\x00\x80\x02", 7, "8 cores per socket" },
			/* sum above the maximum: 1 on cbo0 and 1 on every CBo */
			{ "\x00\x0a\x02\x00\x00\x01\x01\x00\x00\x00\x00\x01\x00\x00", 14, "exceeds the event's maximum" },
		};

		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			unsigned char f[512];
			size_t k = 0;
			unsigned char hdr[64], sym[64], seg[64], end[8];
			size_t hn = 0, yn = 0, sn = 0, en = 0;

			raw_snbep_head(hdr, &hn, sym, &yn);
			seg[sn++] = 1; /* one record */
			memcpy(seg + sn, cases[c].seg, cases[c].len);
			sn += cases[c].len;
			end[en++] = 1;
			end[en++] = 10;
			memcpy(f, "UCTRACE\0\x02\x00\x00\x00", 12);
			k = 12;
			k += put_test_block(f + k, 'H', hdr, hn);
			k += put_test_block(f + k, 'Y', sym, yn);
			k += put_test_block(f + k, 'S', seg, sn);
			k += put_test_block(f + k, 'E', end, en);
			if (read_all(f, k, err, sizeof(err)) >= 0)
				ct_fail(__FILE__, __LINE__, "case %zu accepted", c);
			else if (!strstr(err, cases[c].want))
				ct_fail(__FILE__, __LINE__, "case %zu: \"%s\", want \"%s\"", c, err, cases[c].want);
		}
	}
}

/* The vector form (flags bit 0): a record is gap, cycles, a code (2 x
 * (0: new inputs follow, k: vector k - 1) + 1 when sleep masks follow),
 * then those.  Each malformed record is refused at the byte at fault: the
 * code of a reference to a vector not defined, the record for a rule it
 * breaks as a whole, the field of a value out of range; and flags other
 * than bit 0 at offset 10. */
/* A snbep binary trace (flags: the form) of nrec records rec[0..len),
 * which every reader must refuse with `want` at the record bytes' offset
 * `at`: read whole (uct_next), as a replay reads (uct_next_vec), and as
 * the check before a replay reads (uct_open_checked). */
/* read_all as a replay into a model reads (uct_replay_attach, the model
 * run until the replay ends or fails): its error in err, -1 on one; -2
 * when the model stopped first (its error in err). */
static int replay_all(const unsigned char *buf, size_t n, char *err, size_t en)
{
	struct uct_reader *r;
	struct uct_replay *rp;
	struct ucm_model *m;
	int rc = uct_open_mem("t.bin", buf, n, &r, err, en);

	if (rc)
		return rc;
	m = ct_snbep_model(uct_header(r));
	if (!m || uct_replay_attach(m, r, &rp)) {
		snprintf(err, en, "no model or replay");
		ucm_destroy(m);
		uct_close(r);
		return 0; /* not the error looked for */
	}
	rc = 0;
	while (!uct_replay_done(rp) && !uct_replay_failed(rp))
		if (ucm_run_cycles(m, 0, 100000000)) {
			rc = -2; /* the model's own limit (time past 2^64 ps) */
			break;
		}
	rc = uct_replay_failed(rp) ? -1 : rc;
	snprintf(err, en, "%s", rc == -2 ? ucm_error(m) : uct_replay_error(rp));
	uct_replay_detach(rp);
	ucm_destroy(m);
	uct_close(r);
	return rc;
}

/* A snbep trace of nrec records (rec, len bytes) with the flags and
 * version given, its end block saying nrec segments and `cycles` cycles,
 * in f (4096 bytes); its length, and the offset of the records in *rec0. */
static size_t raw_records_file(unsigned char *f, unsigned flags, unsigned version, unsigned nrec,
			       const unsigned char *rec, size_t len, uint64_t cycles, size_t *rec0)
{
	unsigned char hdr[64], sym[64], seg[2048], end[8];
	size_t k, hn = 0, yn = 0, sn = 0, en = 0;

	if (len + 8 >= sizeof(seg)) {
		ct_fail(__FILE__, __LINE__, "%zu bytes of records: more than the test's block", len);
		return 0;
	}
	raw_snbep_head(hdr, &hn, sym, &yn);
	put_test_var(seg, &sn, nrec);
	memcpy(seg + sn, rec, len);
	sn += len;
	put_test_var(end, &en, nrec);
	put_test_var(end, &en, cycles);
	memcpy(f, "UCTRACE\0\x02\x00\x01\x00", 12);
	f[8] = (unsigned char)version;
	f[10] = (unsigned char)flags;
	k = 12;
	k += put_test_block(f + k, 'H', hdr, hn);
	k += put_test_block(f + k, 'Y', sym, yn);
	*rec0 = k + 5 + (sn - len); /* the S block's payload, after its record count */
	k += put_test_block(f + k, 'S', seg, sn);
	k += put_test_block(f + k, 'E', end, en);
	return k;
}

static void check_malformed_records(size_t c, unsigned flags, unsigned version, unsigned nrec,
				    const unsigned char *rec, size_t len, size_t at, const char *want)
{
	static unsigned char f[4096];
	size_t k, rec0;
	char err[768], where[64];

	k = raw_records_file(f, flags, version, nrec, rec, len, 20, &rec0);
	snprintf(where, sizeof(where), "offset %zu: ", rec0 + at);
	if (read_all(f, k, err, sizeof(err)) >= 0)
		ct_fail(__FILE__, __LINE__, "case %zu accepted", c);
	else if (!strstr(err, want) || !strstr(err, where))
		ct_fail(__FILE__, __LINE__, "case %zu: \"%s\", want \"%s%s\"", c, err, where, want);
	if (read_vec(f, k, err, sizeof(err)) >= 0)
		ct_fail(__FILE__, __LINE__, "case %zu accepted by uct_next_vec", c);
	else if (!strstr(err, want) || !strstr(err, where))
		ct_fail(__FILE__, __LINE__, "case %zu, uct_next_vec: \"%s\", want \"%s%s\"", c, err,
			where, want);
	if (read_checked(f, k, err, sizeof(err)) >= 0)
		ct_fail(__FILE__, __LINE__, "case %zu accepted by uct_open_checked", c);
	else if (!strstr(err, want) || !strstr(err, where))
		ct_fail(__FILE__, __LINE__, "case %zu, uct_open_checked: \"%s\", want \"%s%s\"", c, err,
			where, want);
	if (replay_all(f, k, err, sizeof(err)) >= 0)
		ct_fail(__FILE__, __LINE__, "case %zu accepted by a replay", c);
	else if (!strstr(err, want) || !strstr(err, where))
		ct_fail(__FILE__, __LINE__, "case %zu, replay: \"%s\", want \"%s%s\"", c, err, where,
			want);
}

/* vectors 0 and 1 (an input on socket 1, on socket 0), then six
 * references to them in turn */
#define VDEF "\x00\x0a\x00\x01\x00\x01\x01\x01\x00" "\x00\x0a\x00\x01\x00\x00\x01\x01\x00"

#define VREF6 "\x00\x0a\x02\x00\x0a\x04\x00\x0a\x02\x00\x0a\x04\x00\x0a\x02\x00\x0a\x04"

CT_TEST(malformed_vector_form_traces_are_detected_at_their_offset)
{
	static const struct {
		unsigned version, nrec;
		const char *rec;   /* the records */
		size_t len, at;    /* their bytes; the offset at fault within them */
		const char *want;
	} cases[] = {
		/* a reference to vector 0, none defined: at the code */
		{ 2, 1, "\x00\x0a\x02", 3, 2, "undefined vector 0 (0 defined)" },
		/* vector 0 defined (one input), then a reference to vector 1 */
		{ 2, 2, "\x00\x0a\x00\x01\x00\x01\x01\x01\x00" "\x00\x0a\x04", 12, 11,
		  "undefined vector 1 (1 defined)" },
		/* a zero sleep mask after new inputs: at the mask */
		{ 2, 1, "\x00\x0a\x01\x00\x01\x00\x00", 7, 6, "out of order or empty" },
		/* a reference with core 8 of 8 asleep: at the masks' first byte */
		{ 2, 2, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x00\x80\x02", 11, 7, "8 cores per socket" },
		/* a reference with 3 sleep masks for 2 sockets: at the masks' first byte */
		{ 2, 2, "\x00\x0a\x00\x00" "\x00\x0a\x03\x03\x00\x01\x01\x01", 12, 7,
		  "3 sleep masks for 2 sockets" },
		/* increments above the maximum, on cbo0 and every CBo: the record */
		{ 2, 1, "\x00\x0a\x00\x02\x00\x00\x01\x01\x00\x00\x00\x00\x01\x00", 14, 0,
		  "exceeds the event's maximum" },
		/* 0 cycles: the record */
		{ 2, 1, "\x00\x00\x00\x00", 4, 0, "segment length 0 cycles out of range" },
		/* sleep masks in version 1: the record */
		{ 1, 1, "\x00\x0a\x01\x00\x01\x00\x01", 7, 0, "sleep masks need version 2" },
		/* 2^52 cycles: the time limit, at the record */
		{ 2, 1, "\x00\x80\x80\x80\x80\x80\x80\x80\x08\x00\x00", 11, 0, "the trace would last" },
		/* references with sleep masks that are not the last record of
		 * their block (what a replay reads without decoding a vector):
		 * core 8 of 8, at the masks' first byte */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x00\x80\x02" "\x00\x0a\x02", 14, 7,
		  "8 cores per socket" },
		/* 3 masks for 2 sockets, at the masks' first byte */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x03\x00\x01\x01\x01" "\x00\x0a\x02", 15, 7,
		  "3 sleep masks for 2 sockets" },
		/* a zero mask, at the mask */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x00\x00" "\x00\x0a\x02", 13, 9,
		  "out of order or empty" },
		/* socket 2 of 2, at its mask */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x02\x01" "\x00\x0a\x02", 13, 9,
		  "out of order or empty" },
		/* socket 0 after socket 1, at the second mask */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x02\x01\x01\x00\x01" "\x00\x0a\x02", 15, 11,
		  "out of order or empty" },
		/* a mask of 2^56 (a varint of 9 bytes), at the masks' first byte */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x00\x80\x80\x80\x80\x80\x80\x80\x80\x01"
		  "\x00\x0a\x02", 21, 7, "8 cores per socket" },
		/* sleep masks in version 1, at the record */
		{ 1, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x00\x01" "\x00\x0a\x02", 13, 4,
		  "sleep masks need version 2" },
		/* in the middle of a block, after references to a vector with an
		 * input, enough for the model to sum phases (what a replay then
		 * reads ahead straight from the block): a reference to vector 2
		 * of 2, at the code */
		{ 2, 10, VDEF VREF6 "\x00\x0a\x06" "\x00\x0a\x02", 42, 38, "undefined vector 2 (2 defined)" },
		/* the block ends inside a record's code (0x82: the first of
		 * two bytes), a record said to follow it: at the code (a
		 * replay reads ahead past the block's end, BLKPAD) */
		{ 2, 10, VDEF VREF6 "\x00\x0a\x82", 39, 38, "record runs past the end of its block" },
		/* ... inside its length */
		{ 2, 10, VDEF VREF6 "\x00\x8a", 38, 37, "record runs past the end of its block" },
		/* a zero mask, at the mask */
		{ 2, 10, VDEF VREF6 "\x00\x0a\x03\x01\x00\x00" "\x00\x0a\x02", 45, 41,
		  "out of order or empty" },
		/* core 8 of 8 asleep, at the masks' first byte */
		{ 2, 10, VDEF VREF6 "\x00\x0a\x03\x01\x01\x80\x02" "\x00\x0a\x02", 46, 39,
		  "8 cores per socket" },
		/* 0 cycles, at the record */
		{ 2, 10, VDEF VREF6 "\x00\x00\x02" "\x00\x0a\x02", 42, 36,
		  "segment length 0 cycles out of range" },
		/* 2^52 cycles: the time limit, at the record */
		{ 2, 10, VDEF VREF6 "\x00\x80\x80\x80\x80\x80\x80\x80\x08\x02" "\x00\x0a\x02", 49, 36,
		  "the trace would last" },
		/* sleep masks in version 1 (no attribute masks), at the record */
		{ 1, 10, "\x00\x0a\x00\x01\x00\x01\x01\x01" "\x00\x0a\x00\x01\x00\x00\x01\x01" VREF6
		  "\x00\x0a\x03\x01\x00\x01" "\x00\x0a\x02", 43, 34,
		  "sleep masks need version 2" },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		check_malformed_records(c, 1, cases[c].version, cases[c].nrec,
					(const unsigned char *)cases[c].rec, cases[c].len, cases[c].at,
					cases[c].want);
	/* flags: bits 0 to 3, bits 1 and 2 only with bit 0, bit 3 only
	 * with bit 2 */
	{
		unsigned char f[12];
		char err[768];

		memcpy(f, "UCTRACE\0\x02\x00\x10\x00", 12);
		CT_CHECK(read_all(f, sizeof(f), err, sizeof(err)) < 0);
		CT_CONTAINS(err, "offset 10: unknown flags 0x0010");
		f[10] = 9;
		CT_CHECK(read_all(f, sizeof(f), err, sizeof(err)) < 0);
		CT_CONTAINS(err, "offset 10: flags 0x0009: empty sleep changes (bit 3) without sleep changes (bit 2)");
		f[10] = 4;
		CT_CHECK(read_all(f, sizeof(f), err, sizeof(err)) < 0);
		CT_CONTAINS(err, "offset 10: flags 0x0004: sleep changes (bit 2) without the vector form (bit 0)");
		f[10] = 2;
		CT_CHECK(read_all(f, sizeof(f), err, sizeof(err)) < 0);
		CT_CONTAINS(err, "offset 10: flags 0x0002: chunks (bit 1) without the vector form (bit 0)");
	}
}

/* The vector form with sleep changes (flags 5): a record's sleep masks
 * given as the cores that change, socket * 64 + core, in increasing order,
 * at least one; read by the general path (a record first or last in its
 * block), the reader's fast path (a reference in mid-block) and a replay
 * reading ahead from the block (after enough references for the model to
 * sum phases): the same message at the same offset.  snbep: 2 sockets of
 * 8 cores. */
CT_TEST(malformed_sleep_changes_are_detected_at_their_offset)
{
	static const struct {
		unsigned version, nrec;
		const char *rec;
		size_t len, at;
		const char *want;
	} cases[] = {
		/* no change: at the changes' first byte */
		{ 2, 1, "\x00\x0a\x01\x00\x00", 5, 4, "0 sleep changes" },
		/* socket 2 of 2 (index 128), at the change */
		{ 2, 1, "\x00\x0a\x01\x00\x01\x80\x01", 7, 5, "out of order or past the sockets" },
		/* core 8 of 8 (index 8): at the changes' first byte */
		{ 2, 1, "\x00\x0a\x01\x00\x01\x08", 6, 4, "8 cores per socket" },
		/* out of order (core 3, then core 2): at the second */
		{ 2, 1, "\x00\x0a\x01\x00\x02\x03\x02", 7, 6, "sleep change 1" },
		/* the same core twice: at the second */
		{ 2, 1, "\x00\x0a\x01\x00\x02\x03\x03", 7, 6, "sleep change 1" },
		/* more changes than cores of 2 sockets could make */
		{ 2, 1, "\x00\x0a\x01\x00\x81\x01", 6, 4, "129 sleep changes" },
		/* in version 1: the record */
		{ 1, 1, "\x00\x0a\x01\x00\x01\x02", 6, 0, "sleep masks need version 2" },
		/* references in mid-block, each case again (the fast path) */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x00" "\x00\x0a\x02", 11, 7, "0 sleep changes" },
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x80\x01" "\x00\x0a\x02", 13, 8,
		  "out of order or past the sockets" },
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x01\x08" "\x00\x0a\x02", 12, 7,
		  "8 cores per socket" },
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x02\x03\x02" "\x00\x0a\x02", 13, 9,
		  "sleep change 1" },
		/* nine changes (the fast path takes eight), the ninth out of order */
		{ 2, 3, "\x00\x0a\x00\x00" "\x00\x0a\x03\x09\x00\x01\x02\x03\x04\x05\x06\x07\x07"
		  "\x00\x0a\x02", 20, 16, "sleep change 8" },
		/* after enough references for the model to sum phases (the
		 * replay's read-ahead): core 8, out of order */
		{ 2, 10, VDEF VREF6 "\x00\x0a\x03\x01\x09" "\x00\x0a\x02", 44, 39, "8 cores per socket" },
		{ 2, 10, VDEF VREF6 "\x00\x0a\x03\x02\x44\x41" "\x00\x0a\x02", 45, 41, "sleep change 1" },
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		check_malformed_records(c, 5, cases[c].version, cases[c].nrec,
					(const unsigned char *)cases[c].rec, cases[c].len, cases[c].at,
					cases[c].want);
	/* one socket: core 1 of socket 1 (index 0x41, one byte, which two
	 * sockets would have), read ahead; at the change */
	raw_sockets = 1;
	check_malformed_records(sizeof(cases) / sizeof(cases[0]), 5, 2, 10,
				(const unsigned char *)"\x00\x0a\x00\x01\x00\x00\x01\x01\x00"
						       "\x00\x0a\x00\x01\x00\x00\x02\x01\x00" VREF6
						       "\x00\x0a\x03\x01\x41" "\x00\x0a\x02",
				44, 40, "out of order or past the sockets");
	raw_sockets = 2;
}

/* Two binary traces in memory, of lengths na and nb, read to the same
 * segments (times and sleep masks). */
static int same_segments_of(const unsigned char *a, size_t na, const unsigned char *b, size_t nb)
{
	struct uct_reader *ra, *rb;
	struct uct_seg *sa = malloc(sizeof(*sa)), *sb = malloc(sizeof(*sb));
	char err[768];
	int same = sa && sb && !uct_open_mem("a.bin", a, na, &ra, err, sizeof(err)), x, y;

	if (same && uct_open_mem("b.bin", b, nb, &rb, err, sizeof(err))) {
		uct_close(ra);
		same = 0;
	}
	if (same) {
		do {
			x = uct_next(ra, sa);
			y = uct_next(rb, sb);
			same = x == y && (x <= 0 || (sa->start == sb->start && sa->ncycles == sb->ncycles &&
						    sa->nin == sb->nin &&
						    !memcmp(sa->asleep, sb->asleep, sizeof(sa->asleep))));
		} while (same && x > 0);
		uct_close(ra);
		uct_close(rb);
	}
	free(sa);
	free(sb);
	return same;
}

/* Empty sleep changes (flags 13: bit 3 with sleep changes): a record's
 * changes may be none, its count of one byte or padded to two, and the
 * record then has the masks of the one before, read alike by the general
 * path (a block's first record), the reader's fast path (a reference in
 * mid-block) and a replay reading ahead (after enough references for the
 * model to sum phases): the same segments as the same trace whose records
 * give no masks (flags 5), and without bit 3 an error at the count
 * (malformed_sleep_changes_are_detected_at_their_offset). */
CT_TEST(empty_sleep_changes_keep_the_last_masks)
{
	static const struct {
		unsigned nrec;
		const char *with, *without; /* flags 13, flags 5 */
		size_t nwith, nwithout;
	} cases[] = {
		/* the first record: one byte, two bytes */
		{ 1, "\x00\x0a\x01\x00\x00", "\x00\x0a\x00\x00", 5, 4 },
		{ 1, "\x00\x0a\x01\x00\x80\x00", "\x00\x0a\x00\x00", 6, 4 },
		/* a reference in mid-block, after a change */
		{ 3, "\x00\x0a\x01\x00\x01\x02" "\x00\x0a\x03\x80\x00" "\x00\x0a\x02",
		  "\x00\x0a\x01\x00\x01\x02" "\x00\x0a\x02" "\x00\x0a\x02", 14, 12 },
		/* read ahead: core 2 asleep, a reference to vector 1 with no
		 * change (two bytes, one byte), core 2 awake */
		{ 12, VDEF VREF6 "\x00\x0a\x03\x01\x02" "\x00\x0a\x05\x80\x00" "\x00\x0a\x03\x01\x02" "\x00\x0a\x02",
		  VDEF VREF6 "\x00\x0a\x03\x01\x02" "\x00\x0a\x04" "\x00\x0a\x03\x01\x02" "\x00\x0a\x02", 54, 52 },
		{ 12, VDEF VREF6 "\x00\x0a\x03\x01\x02" "\x00\x0a\x05\x00" "\x00\x0a\x03\x01\x02" "\x00\x0a\x02",
		  VDEF VREF6 "\x00\x0a\x03\x01\x02" "\x00\x0a\x04" "\x00\x0a\x03\x01\x02" "\x00\x0a\x02", 53, 52 },
	};
	static unsigned char a[4096], b[4096];

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t na, nb, rec0;
		char err[768];

		na = raw_records_file(a, 13, 2, cases[c].nrec, (const unsigned char *)cases[c].with,
				      cases[c].nwith, 10ull * cases[c].nrec, &rec0);
		nb = raw_records_file(b, 5, 2, cases[c].nrec, (const unsigned char *)cases[c].without,
				      cases[c].nwithout, 10ull * cases[c].nrec, &rec0);
		if (read_all(a, na, err, sizeof(err)) < 0 || read_vec(a, na, err, sizeof(err)) < 0 ||
		    read_checked(a, na, err, sizeof(err)) < 0 || replay_all(a, na, err, sizeof(err)) < 0)
			ct_fail(__FILE__, __LINE__, "case %zu: %s", c, err);
		if (read_all(b, nb, err, sizeof(err)) < 0)
			ct_fail(__FILE__, __LINE__, "case %zu, without: %s", c, err);
		if (!same_segments_of(a, na, b, nb))
			ct_fail(__FILE__, __LINE__, "case %zu: not the segments of the trace without them", c);
	}
}

/* The vector form with chunks (flags 3): a new vector as chunks, checked
 * whole where a chunk is new or two chunks have inputs of one socket and
 * box type (the checks are per socket and box type, so a vector of chunks
 * checked before, no socket and box type in two, needs none). */
CT_TEST(malformed_chunked_traces_are_detected_at_their_offset)
{
	static const struct {
		unsigned nrec;
		const char *rec;
		size_t len, at;
		const char *want;
	} cases[] = {
		/* chunk 0 referred to, none given: at the reference */
		{ 1, "\x00\x0a\x00\x01\x01", 5, 4, "undefined chunk 0 (0 defined)" },
		/* a chunk without inputs: at the chunk */
		{ 1, "\x00\x0a\x00\x01\x00\x00", 6, 4, "empty chunk" },
		/* cbo0 at 1 on sockets 0 and 1 (chunk 0: two sockets), every
		 * CBo of socket 1 at 1 (chunk 1), then both in one vector:
		 * socket 1 in two chunks, the vector checked, 2 a cycle */
		{ 3, "\x00\x0a\x00\x01\x00\x02\x00\x00\x01\x01\x00\x00\x01\x01\x01\x00"
		     "\x00\x0a\x00\x01\x00\x01\x00\x01\x00\x01\x00" "\x00\x0a\x00\x02\x01\x02", 33, 27,
		  "exceeds the event's maximum" },
		/* 257 chunks: at their count */
		{ 1, "\x00\x0a\x00\x81\x02", 5, 3, "257 chunks in a vector (max 256)" },
		/* chunk 0 (cbo0, 1 a cycle) twice in one vector: the record */
		{ 2, "\x00\x0a\x00\x01\x00\x01\x00\x00\x01\x01\x00" "\x00\x0a\x00\x02\x01\x01", 17, 11,
		  "given twice" },
		/* cbo0 at 1 (chunk 0) and every CBo at 1 (chunk 1), each
		 * checked alone, then both in one vector: 2 a cycle on cbo0 */
		{ 3, "\x00\x0a\x00\x01\x00\x01\x00\x00\x01\x01\x00" "\x00\x0a\x00\x01\x00\x01\x00\x00\x00\x01\x00"
		     "\x00\x0a\x00\x02\x01\x02", 28, 22, "exceeds the event's maximum" },
		/* a reference to vector 1 after two given, the second of a
		 * chunk given before: the vectors are numbered as given */
		{ 3, "\x00\x0a\x00\x01\x00\x01\x00\x00\x01\x01\x00" "\x00\x0a\x00\x01\x01" "\x00\x0a\x06", 19,
		  18, "undefined vector 2 (2 defined)" },
	};
	unsigned char rec[1024];
	size_t n = 0;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		check_malformed_records(c, 3, 2, cases[c].nrec, (const unsigned char *)cases[c].rec,
					cases[c].len, cases[c].at, cases[c].want);
	/* 129 inputs in chunk 0 (read, not yet checked), then a vector of
	 * chunk 0 twice: 258 inputs, at the second reference */
	rec[n++] = 0;
	rec[n++] = 10;
	rec[n++] = 0;
	rec[n++] = 2;
	rec[n++] = 0;
	rec[n++] = 0x81;
	rec[n++] = 1;
	for (unsigned i = 0; i < 129; i++) {
		memcpy(rec + n, "\x00\x00\x01\x01\x00", 5);
		n += 5;
	}
	rec[n++] = 1;
	check_malformed_records(99, 3, 2, 1, rec, n, n - 1, "258 inputs in a segment (max 256)");
}

/* Generated binary traces mutated at random (1-4 bytes flipped, replaced
 * or cleared after the file header, every block's CRC made good so the
 * mutations reach what the blocks hold): a replay into a model fails with
 * the message and offset a plain read gives, or both read it all to the
 * same end.  The replay reads references straight from the block while
 * the model sums phases (ahead_fast) and leaves anything else to the
 * reader's general path; this checks the two never part. */
static void fix_test_crcs(unsigned char *b, size_t n)
{
	size_t p = 12;

	while (n - p >= 9) {
		uint32_t len = (uint32_t)b[p + 1] | (uint32_t)b[p + 2] << 8 | (uint32_t)b[p + 3] << 16 |
			       (uint32_t)b[p + 4] << 24, crc;

		if (len > n - p - 9)
			break;
		crc = (uint32_t)crc32(0L, b + p, (uInt)(5 + len));
		for (unsigned i = 0; i < 4; i++)
			b[p + 5 + len + i] = (unsigned char)(crc >> (8 * i));
		p += 9 + len;
	}
}

CT_TEST(mutated_traces_fail_alike_in_a_replay_and_a_read)
{
	static const struct {
		const char *plat, *kind;
	} cases[] = { { "snbep", "cstate" }, { "ivt", "qpi" } };
	static unsigned char orig[1 << 16], buf[1 << 16];
	unsigned errors = 0, total = 0;
	uint64_t r = 99;
	char path[128];

	ct_tmpname(path, sizeof(path), "mut.uct");
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct uct_gen_opts o = { cases[c].kind, 0.002, 10.0, 0.7, 0.9, 0.25, 0.2, 10000, 0, 7, 0 };
		struct uct_hdr h;
		char err[768];
		size_t n;

		memset(&h, 0, sizeof(h));
		h.plat = ucm_platform_find(cases[c].plat);
		h.sockets = 2;
		h.seed = 7;
		CT_REQUIRE(ct_gen_hdr(path, &h, &o, err, sizeof(err)) == 0);
		n = ct_load(path, orig, sizeof(orig));
		CT_REQUIRE(n > 64 && n < sizeof(orig));
		for (unsigned it = 0; it < 150; it++) {
			char e1[768], e2[768];
			int r1, r2;

			memcpy(buf, orig, n);
			for (unsigned k = 1 + (unsigned)(ct_rng(&r) % 4); k; k--) {
				size_t at = 12 + (size_t)(ct_rng(&r) % (n - 12));
				unsigned op = (unsigned)(ct_rng(&r) % 3);

				buf[at] = op == 0 ? buf[at] ^ (unsigned char)(1u << ct_rng(&r) % 8) :
					  op == 1 ? (unsigned char)ct_rng(&r) : 0;
			}
			fix_test_crcs(buf, n);
			r1 = read_all(buf, n, e1, sizeof(e1));
			r2 = replay_all(buf, n, e2, sizeof(e2));
			if (r2 == -2)
				continue; /* a header whose clock runs past the model's time */
			total++;
			errors += r1 < 0;
			if ((r1 < 0) != (r2 < 0) || (r1 < 0 && strcmp(e1, e2)))
				ct_fail(__FILE__, __LINE__, "%s %s mutation %u: read %d \"%s\", replay %d \"%s\"",
					cases[c].plat, cases[c].kind, it, r1, e1, r2, e2);
		}
	}
	/* most mutations are errors, some are not */
	CT_CHECK(errors > total / 2 && errors < total);
	unlink(path);
}

CT_MAIN()
