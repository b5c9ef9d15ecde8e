/*
 * fuzz_event_trace.c - the event-trace readers (text and binary, detected
 * from the input).  Whatever the input, a reader answers segments or a
 * located error, never a crash.  A trace that reads cleanly must survive a
 * round trip: written back in every encoding (text, the binary vector form
 * with and without chunks, the record form) and read again, it gives the
 * same header and the same segments.  Read as the replay reads it
 * (uct_next_vec: vector numbers, references without their content), it
 * gives the same times and sleep masks and the same error at the same
 * place.  A binary input is read again with every block's CRC made good,
 * so that mutations reach what the blocks hold rather than stop at their
 * checksums.  The CRCs are this harness's own (CRC-32 of type, length and
 * payload, from 0): a binary input whose every CRC is right is never refused
 * for a checksum; one with a wrong CRC is refused for the checksum unless
 * its copy with the CRCs made good is refused the same way; a clean binary
 * trace with one CRC byte flipped is refused for the checksum; and every
 * binary file the writer writes has right CRCs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <isa-l/crc.h>

#include "fz.h"
#include "uct_trace.h"

#define MAXSEG 64

static struct uct_seg segs[MAXSEG], again;

/* The input with each block's CRC-32 (of its type, length and payload)
 * made what it should be, into out; 0 when it is not a binary trace or no
 * CRC was wrong (a block whose length runs past the input ends the walk). */
static size_t fix_crcs(const uint8_t *data, size_t size, uint8_t *out)
{
	size_t p = 12, fixed = 0;

	if (size < 12 || memcmp(data, "UCTRACE\0", 8))
		return 0;
	memcpy(out, data, size);
	while (size - p >= 9) {
		uint32_t len = (uint32_t)out[p + 1] | (uint32_t)out[p + 2] << 8 |
			       (uint32_t)out[p + 3] << 16 | (uint32_t)out[p + 4] << 24, crc, have;
		uint8_t *t;

		if (len > size - p - 9)
			break;
		t = out + p + 5 + len;
		crc = crc32_gzip_refl(0, out + p, 5 + len);
		have = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
		if (crc != have) {
			for (unsigned i = 0; i < 4; i++)
				t[i] = (uint8_t)(crc >> (8 * i));
			fixed++;
		}
		p += 9 + len;
	}
	return fixed ? size : 0;
}

/* Every block of a binary file the writer wrote has the CRC this harness
 * computes. */
static void written_crcs_right(const char *path)
{
	static uint8_t buf[1 << 16], out[1 << 16];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		FZ_FAIL("cannot open %s", path);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n < sizeof(buf) && fix_crcs(buf, n, out))
		FZ_FAIL("the writer wrote a block whose CRC-32 is not that of its type, length and payload");
}

static void round_trip(const struct uct_hdr *h, unsigned n, int binary)
{
	char path[64], err[768];
	struct uct_writer *w;
	struct uct_reader *r;
	unsigned k = 0;
	int rc;

	snprintf(path, sizeof(path), "/tmp/uncore-fuzz-et-%d", (int)getpid());
	if (uct_writer_open(path, binary, h, &w, err, sizeof(err)))
		FZ_FAIL("writer: %s", err);
	for (unsigned i = 0; i < n; i++)
		if (uct_write(w, &segs[i]))
			FZ_FAIL("a segment that was read cannot be written: %s", uct_writer_error(w));
	if (uct_writer_commit(w))
		FZ_FAIL("commit: %s", uct_writer_error(w));
	if (binary != UCT_TEXT)
		written_crcs_right(path);
	if (uct_open(path, &r, err, sizeof(err)))
		FZ_FAIL("re-read (%s): %s", binary ? "binary" : "text", err);
	if (memcmp(uct_header(r), h, sizeof(*h)))
		FZ_FAIL("header changed in a %s round trip", binary ? "binary" : "text");
	while ((rc = uct_next(r, &again)) > 0) {
		int same = k < n && again.start == segs[k].start && again.ncycles == segs[k].ncycles &&
			   again.nin == segs[k].nin &&
			   !memcmp(again.asleep, segs[k].asleep, sizeof(again.asleep));

		/* inputs field by field (attributes included), not their padding */
		for (unsigned i = 0; same && i < again.nin; i++)
			same = uct_in_equal(&again.in[i], &segs[k].in[i]);
		if (!same)
			FZ_FAIL("segment %u changed in a %s round trip", k, binary ? "binary" : "text");
		k++;
	}
	if (rc < 0 || k != n)
		FZ_FAIL("round trip read %u of %u segments: %s", k, n, uct_reader_error(r));
	uct_close(r);
	unlink(path);
}

/* The replay's reading of the same input: what uct_next gave (n
 * segments, then rc and its message). */
static void vec_read(const uint8_t *data, size_t size, unsigned n, int rc, const char *msg)
{
	struct uct_reader *r;
	char err[768];
	unsigned k = 0;
	int rv = 0, vid, full;

	if (uct_open_mem("fuzz", data, size, &r, err, sizeof(err)))
		FZ_FAIL("opened once, refused again: %s", err);
	while (k < n && (rv = uct_next_vec(r, &again, 0, &vid, &full)) > 0) {
		if (again.start != segs[k].start || again.ncycles != segs[k].ncycles ||
		    memcmp(again.asleep, segs[k].asleep, sizeof(again.asleep)))
			FZ_FAIL("segment %u read by vector differs", k);
		if (full && again.nin != segs[k].nin)
			FZ_FAIL("segment %u: a vector's content differs", k);
		if (vid < -1 || (vid >= 0 && (unsigned)vid >= uct_vectors(r)))
			FZ_FAIL("segment %u: vector %d of %u", k, vid, uct_vectors(r));
		k++;
	}
	if (k == n && n < MAXSEG)
		rv = uct_next_vec(r, &again, 0, &vid, &full);
	if (k < n || (n < MAXSEG && (rv < 0) != (rc < 0)))
		FZ_FAIL("read by vector: %u segments then %d, not %u then %d", k, rv, n, rc);
	if (rc < 0 && n < MAXSEG && strcmp(uct_reader_error(r), msg))
		FZ_FAIL("read by vector: \"%s\", not \"%s\"", uct_reader_error(r), msg);
	uct_close(r);
}

/* Reads the input; returns 0 when it read cleanly to its end, 1 when it
 * read cleanly as far as MAXSEG segments, else -1 with the error in why. */
static int check_input(const uint8_t *data, size_t size, char *why, size_t whyn)
{
	struct uct_reader *r;
	struct uct_hdr h;
	char err[768];
	unsigned n = 0;
	int rc, cut;

	if (uct_open_mem("fuzz", data, size, &r, err, sizeof(err))) {
		if (!strstr(err, "fuzz"))
			FZ_FAIL("error without its location: %s", err);
		snprintf(why, whyn, "%s", err);
		return -1;
	}
	h = *uct_header(r);
	while (n < MAXSEG && (rc = uct_next(r, &segs[n])) > 0)
		n++;
	if ((cut = n == MAXSEG))
		rc = 0; /* long traces: the first segments are enough */
	if (rc < 0 && !strstr(uct_reader_error(r), "fuzz"))
		FZ_FAIL("error without its location: %s", uct_reader_error(r));
	{
		char msg[768];

		snprintf(msg, sizeof(msg), "%s", uct_reader_error(r));
		vec_read(data, size, n, rc, msg);
	}
	snprintf(why, whyn, "%s", rc < 0 ? uct_reader_error(r) : "");
	uct_close(r);
	if (rc == 0) {
		round_trip(&h, n, UCT_TEXT);
		round_trip(&h, n, UCT_BINARY);
		round_trip(&h, n, UCT_BINARY_VECTORS);
		round_trip(&h, n, UCT_BINARY_RECORDS);
	}
	return rc < 0 ? -1 : cut;
}

#define CHECKSUM "corrupt: block checksum"

/* A binary trace that read cleanly, with one bit of its first block's CRC
 * flipped: refused for the checksum. */
static void planted_crc(const uint8_t *data, size_t size)
{
	uint32_t len;
	uint8_t *bad;
	char why[768];

	if (size < 21)
		return;
	len = (uint32_t)data[13] | (uint32_t)data[14] << 8 | (uint32_t)data[15] << 16 | (uint32_t)data[16] << 24;
	if (len > size - 21 || !(bad = malloc(size)))
		return;
	memcpy(bad, data, size);
	bad[12 + 5 + len] ^= 0x10;
	if (!check_input(bad, size, why, sizeof(why)) || !strstr(why, CHECKSUM))
		FZ_FAIL("a clean trace with its first CRC flipped: \"%s\", not a checksum error", why);
	free(bad);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int binary = size >= 12 && !memcmp(data, "UCTRACE\0", 8);
	char why[768], why_fixed[768];
	uint8_t *fixed;
	int rc = check_input(data, size, why, sizeof(why));

	if (!binary)
		return 0;
	if (!(fixed = malloc(size)))
		return 0;
	if (fix_crcs(data, size, fixed)) {
		/* a CRC is wrong: refused for it, or for what the copy with the
		 * CRCs made good is refused for (an earlier or CRC-less fault) */
		int rc_fixed = check_input(fixed, size, why_fixed, sizeof(why_fixed));

		if (!rc)
			FZ_FAIL("a block with a wrong CRC-32 was accepted");
		else if (rc > 0)
			; /* not read to the end: the wrong CRC may lie beyond */
		else if (!strstr(why, CHECKSUM) && (!rc_fixed || strcmp(why, why_fixed)))
			FZ_FAIL("a wrong CRC-32 refused as \"%s\", with good CRCs \"%s\"", why,
				rc_fixed ? why_fixed : "accepted");
	} else {
		if (rc && strstr(why, CHECKSUM))
			FZ_FAIL("every CRC-32 is right, yet: %s", why);
		if (rc >= 0)
			planted_crc(data, size);
	}
	free(fixed);
	return 0;
}
