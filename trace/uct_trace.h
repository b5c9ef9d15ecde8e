/*
 * uct_trace.h - event traces: what the hardware is fed, as a file.
 *
 * A trace is a header (platform, sockets, clocks, seed, box counts) and a
 * stream of segments: "for N cycles of the reference clock, these sub-event
 * increments per cycle on these box instances" (a single-cycle entry is a
 * segment of one cycle).  An increment is per cycle of the box's own clock
 * domain; a segment lasts the time of its N reference cycles.  Version 2
 * adds filter attributes of an input (the thread, node, opcode, state,
 * frequency, packet fields or address a box filter compares) and the cores asleep on each socket.
 * Two encodings carry the same content: a text form a person can write
 * (docs/formats.md) and a compact binary form with magic, version,
 * per-block length and CRC-32.  Readers stream: memory stays constant in
 * trace length.  Every error names file:line:col (text) or file:offset
 * (binary) and what was expected.
 */
#ifndef UCT_TRACE_H
#define UCT_TRACE_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "ucm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version written unless a header asks for another; readers take
 * 1..UCT_VERSION.  Version 1 has no attributes and no sleep states. */
#define UCT_VERSION 2
#define UCT_MAXIN 256
#define UCT_MAXSOCK 8    /* sockets a trace may have (sleep masks per socket) */
/* A segment's input vector: its inputs with their attributes (not its time,
 * not its sleep masks, which the vector form gives where they change).
 * The binary vector form numbers each
 * vector at its first segment and lets later segments refer to it, while
 * the vectors numbered hold fewer than UCT_MAXVEC vectors and
 * UCT_MAXVECBYTES bytes of encoding (docs/formats.md). */
#define UCT_MAXVEC 16384u
#define UCT_MAXVECBYTES (1u << 22)
/* The vector form with chunks gives a new vector as chunks, runs of its
 * inputs of one socket and box type, each numbered where it is first
 * given while the chunks numbered are fewer than UCT_MAXCHUNK and hold at
 * most UCT_MAXCHUNKBYTES bytes of encoding, then referred to. */
#define UCT_MAXCHUNK 65536u
#define UCT_MAXCHUNKBYTES (1u << 22)

/* Writer encodings (uct_writer_open's `binary`). */
#define UCT_TEXT 0
#define UCT_BINARY 1            /* binary, vector form with chunks and sleep changes, which
				 * may be none (flags bits 0 to 3) */
#define UCT_BINARY_RECORDS 2    /* binary, every record holding its inputs (flags 0) */
#define UCT_BINARY_VECTORS 3    /* binary, vector form without chunks (flags bit 0) */

struct uct_hdr {
	const struct ucm_platform *plat;
	unsigned sockets;
	unsigned version;                /* of the file read, or to write; 0: UCT_VERSION */
	uint64_t clock_hz[UCM_MAXCLK];   /* 0: platform default */
	uint64_t seed;
	unsigned ninst[UCM_MAXBT];       /* 0: platform default */
};

/* One input: sub-event `sub` of box type `bt` (index in the platform, see
 * ucm_boxtype_index), instance inst (-1: every instance) on a socket, inc
 * per cycle of the box's clock.  Attributes (version 2): bit a of amask
 * says attr[a] (enum ucm_attr) is given; the others are the platform
 * table's.  The first five members keep their order (positional
 * initializers elsewhere); compare inputs with uct_in_equal, not memcmp. */
struct uct_in {
	uint8_t socket;
	uint8_t bt;
	int16_t inst;
	uint16_t sub;
	uint32_t inc;
	uint16_t amask;
	uint64_t attr[UCM_NATTR];
};

struct uct_seg {
	uint64_t start;     /* first cycle, from the trace start */
	uint64_t ncycles;
	unsigned nin;
	/* cores asleep (C3/C6) during the segment, bit i = core i, per socket
	 * (version 2); the model's state changes where the masks change */
	uint64_t asleep[UCT_MAXSOCK];
	struct uct_in in[UCT_MAXIN];
};

/* Names of the attributes in text traces ("state", "opc", "nid", "tid",
 * "freq", "mc", "vnw", "dnid", "rnid", "rds", "addr"), by enum ucm_attr;
 * NULL past the last. */
const char *uct_attr_name(unsigned a);
int uct_in_equal(const struct uct_in *a, const struct uct_in *b);

struct uct_reader;
struct uct_writer;

/* Open a trace of either encoding (detected by its first bytes). */
int uct_open(const char *path, struct uct_reader **out, char *err, size_t n);
/* Open a trace for a replay: every segment is read and checked first (a
 * malformed line anywhere, or a trace longer than the limit, is refused
 * before anything runs), then the reader starts again at the first
 * segment.  A stream that cannot be read twice (a pipe) is copied to an
 * unnamed temporary file as it is checked.  The check ends with -EINTR as
 * soon as *stop is set (a signal; stop may be NULL).  Errors: -EINVAL a
 * malformed trace, -EIO a read error, other -errno a file not opened. */
int uct_open_checked(const char *path, const volatile sig_atomic_t *stop, struct uct_reader **out,
		     char *err, size_t n);
/* The same from memory (parsers under test and fuzzing); buf is borrowed. */
int uct_open_mem(const char *name, const void *buf, size_t len, struct uct_reader **out,
		 char *err, size_t n);
const struct uct_hdr *uct_header(const struct uct_reader *r);
int uct_is_binary(const struct uct_reader *r);
/* 1: a segment, 0: end of trace, < 0: error (uct_reader_error). */
int uct_next(struct uct_reader *r, struct uct_seg *seg);
/* The same with the number of the segment's input vector: *vid >= 0 for a
 * vector the reader numbered (every segment with that vector has that
 * number: the binary vector form's references, identical vectors of the
 * other forms interned), -1 for one it did not number (the dictionary is
 * full).  seg->start, seg->ncycles and seg->asleep are always set; the
 * vector (nin, in) when `content` asks for it, and otherwise only when *full is
 * set, which it is at least for every unnumbered vector and at a vector's
 * first segment, but for a vector with chunks made of chunks numbered
 * before, each of another socket and box type (decoded on demand: the
 * replay makes its phase from the chunks).  The replay's reader: a segment of the vector form that
 * refers to a vector costs a few varints. */
int uct_next_vec(struct uct_reader *r, struct uct_seg *seg, int content, int *vid, int *full);
/* Vectors numbered so far; whether the file is the binary vector form;
 * whether that gives new vectors as chunks, and the chunks numbered. */
unsigned uct_vectors(const struct uct_reader *r);
int uct_is_vector_form(const struct uct_reader *r);
int uct_is_chunked(const struct uct_reader *r);
/* Whether its sleep masks are given as the cores that change (flags bit 2). */
int uct_sleep_as_changes(const struct uct_reader *r);
unsigned uct_chunks(const struct uct_reader *r);
const char *uct_reader_error(const struct uct_reader *r);
void uct_close(struct uct_reader *r);

/* Writers (binary: UCT_TEXT, UCT_BINARY, UCT_BINARY_VECTORS or
 * UCT_BINARY_RECORDS) create a
 * regular file only when committed: they write beside it
 * and rename (a link is written through, a device or FIFO directly;
 * uct_file.h); uct_writer_abort leaves nothing behind.  A commit that
 * fails keeps the writer for uct_writer_error: free it with
 * uct_writer_abort. */
int uct_writer_open(const char *path, int binary, const struct uct_hdr *h,
		    struct uct_writer **out, char *err, size_t n);
/* Segments must not overlap and must come in time order. */
int uct_write(struct uct_writer *w, const struct uct_seg *seg);
int uct_writer_commit(struct uct_writer *w);
void uct_writer_abort(struct uct_writer *w);
const char *uct_writer_error(const struct uct_writer *w);

/* Validate a segment against the platform (names, instances, maxima). */
int uct_seg_check(const struct uct_hdr *h, const struct uct_seg *seg, char *err, size_t n);

/* Replay a trace into a model: the model pulls segments as its time
 * advances, from the time of attaching.  Constant segments cost O(1) in
 * their length. */
struct uct_replay;
int uct_replay_attach(struct ucm_model *m, struct uct_reader *r, struct uct_replay **out);
/* Cycles of the reference clock in the trace so far / whether it ended. */
uint64_t uct_replay_cycles(const struct uct_replay *p);
/* The machine time (ps) at which the trace's last segment ends, for a
 * trace opened with uct_open_checked; UINT64_MAX otherwise. */
uint64_t uct_replay_end_ps(struct uct_replay *p);
int uct_replay_done(const struct uct_replay *p);
const char *uct_replay_error(const struct uct_replay *p);
/* Whether the trace failed (malformed input met while replaying). */
int uct_replay_failed(const struct uct_replay *p);
void uct_replay_detach(struct uct_replay *p);

/* Model configuration for a trace's header. */
void uct_config(const struct uct_hdr *h, struct ucm_config *cfg);

/* Cycles of clock domain `clock` that complete within reference cycles
 * [start, start + n) of a trace replayed from time 0: what an input of a
 * box on that clock is multiplied by (docs/formats.md, "Clocks"). */
uint64_t uct_domain_cycles(const struct uct_hdr *h, unsigned clock, uint64_t start, uint64_t n);

#ifdef __cplusplus
}
#endif

#endif
