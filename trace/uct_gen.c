/*
 * uct_gen.c - generators of realistic event traces, deterministic per seed.
 *
 * What a generator feeds is platform data: per platform and kind, a table
 * of *streams*, each a few inputs switched on together at a rate that
 * follows from the options (a line read from DRAM is a CBo lookup and TOR
 * insert, a Home Agent request and a CAS on a channel).  This file only
 * turns options into rates and rates into segments, the same way for every
 * platform.
 *
 * Inputs are 0/1 (or small integers) per cycle, so a rate below one per
 * cycle is made by time slicing: in each slice of P reference cycles a
 * stream is on for k cycles, with k carried by an error accumulator so that
 * the long-run average is exact.  Streams of one group (inputs that share an
 * event code's maximum on a box) follow each other in a slice, the others
 * start together; a stream of a box on another clock is on for the same
 * share of time.  Core C-state patterns rotate each core's busy and sleep
 * windows by a random phase per slice, and the PCU inputs are derived from
 * how many cores are in each state.  Inputs of one slice are merged into the
 * few segments between their switch points; identical neighbours are
 * coalesced.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uct_derive.h"
#include "uct_gen.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
/* idle: the share of each core's time the OS's timer tick keeps in C0 */
#define IDLE_TICK 0.01

/* ---- the tables ---- */

/* What a stream's rate is proportional to: events per reference cycle on
 * each socket, from the options (uct_generate). */
enum gq {
	GQ_RD,      /* lines read from the socket's DRAM */
	GQ_WR,      /* lines written to it */
	GQ_LINES,   /* both */
	GQ_HIT,     /* LLC read lookups that hit */
	GQ_MISS,    /* LLC read lookups that miss (each reads DRAM) */
	GQ_QRD,     /* lines read from the other socket's memory over QPI (and, the
		     * traffic being symmetric, read by it from this socket's) */
	GQ_QWR,     /* lines written back over QPI, each way */
	GQ_N
};

#define G_SAME 127  /* gin.inst: the row's instance (or every instance) */
#define G_ALL (-1)  /* grow.inst: every instance, the quantity split over them */
#define G_EACH (-2) /* grow.inst: a stream per instance, the quantity split */

/* nid attribute of an input: the node that is home to the line */
enum { GA_NONE, GA_LOCAL, GA_REMOTE };
/* tid attribute: a core's thread drawn per slice, or the thread ID of
 * requests no thread issued (0xF: "LLC victims, PMSeq, external snoops",
 * SNB-EP Table 2-12) */
enum { GT_NONE, GT_THREAD, GT_NONASSOC };
#define TID_NONASSOC 0xF

struct gin {
	const char *box;    /* NULL: the row's (in[0]'s) box */
	int8_t inst;        /* G_SAME or an instance */
	const char *sub;
	uint8_t inc;
	uint8_t nid;        /* GA_*: which node the request targets */
	uint8_t tid;        /* GT_*: the thread behind it (the filter's tid) */
};

struct grow {
	uint8_t q;          /* enum gq */
	double per;         /* events of in[0] per unit of q */
	int8_t inst;        /* G_ALL, G_EACH or an instance */
	uint8_t group;      /* nonzero: the rows of a group never overlap on a socket */
	double limit;       /* share of time the stream (first of a group: the group)
			     * may be on, 0: all of it */
	const char *why;    /* the limit in words, for the message */
	struct gin in[4];   /* in[0] names the row's box */
};

/* Core C-state patterns: the PCU's view of how many cores are in each
 * state, with the residency counters (the frequency bands are derived,
 * uct_derive.c). */
struct gcstate {
	const char *box;           /* the PCU */
	const char *occ[3];        /* inputs: cores in C0, C3, C6 */
};

struct gplat {
	const char *platform;
	const struct grow *stream, *llc, *qpi;   /* burst: the reads of stream */
	unsigned nstream, nllc, nqpi;
	const struct gcstate *cstate;            /* cstate and idle; NULL: idle is nothing */
};

/* Skylake client: one socket, one memory controller counting requests and
 * data, the ARB between the cores and memory, and CBos (Tables 3-1..3-3). */
static const struct grow skl_stream[] = {
	{ GQ_RD, 1, 0, 0, 0, "one 64-byte transfer per uclk cycle each way",
	  { { "imc", G_SAME, "DRAM_DATA_READS", 1, 0, 0 } } },
	{ GQ_LINES, 1, 0, 0, 0, "one 64-byte transfer per uclk cycle",
	  { { "imc", G_SAME, "DRAM_IA_REQUESTS", 1, 0, 0 } } },
	{ GQ_WR, 1, 0, 0, 0, "one 64-byte transfer per uclk cycle each way",
	  { { "imc", G_SAME, "DRAM_DATA_WRITES", 1, 0, 0 } } },
	/* the misses behind the reads, the writebacks behind the writes */
	{ GQ_RD, 1, G_ALL, 1, 0, "one lookup per cycle on each CBo",
	  { { "cbo", G_SAME, "CACHE_LOOKUP.READ_I", 1, 0, 0 } } },
	{ GQ_WR, 1, G_ALL, 1, 0, NULL, { { "cbo", G_SAME, "CACHE_LOOKUP.WRITE_M", 1, 0, 0 } } },
	{ GQ_RD, 1, 0, 2, 0, "one ARB request per cycle",
	  { { "arb", G_SAME, "TRK_REQUESTS.DATA_READS", 1, 0, 0 } } },
	{ GQ_WR, 1, 0, 2, 0, NULL, { { "arb", G_SAME, "TRK_REQUESTS.WRITES", 1, 0, 0 } } },
};

/* LLC: hits on every CBo together; each CBo's misses in cycles of their
 * own, each with its DRAM read (the IMC reads one line per cycle), which
 * is an IA request (Table 3-3) the ARB's tracker carries to memory (D16),
 * as stream's reads are. */
static const struct grow skl_llc[] = {
	{ GQ_HIT, 1, G_ALL, 1, 0, "one DRAM read per cycle",
	  { { "cbo", G_SAME, "CACHE_LOOKUP.READ_E", 1, 0, 0 } } },
	{ GQ_MISS, 1, G_EACH, 1, 0, NULL,
	  { { "cbo", G_SAME, "CACHE_LOOKUP.READ_I", 1, 0, 0 },
	    { "imc", 0, "DRAM_DATA_READS", 1, 0, 0 }, { "imc", 0, "DRAM_IA_REQUESTS", 1, 0, 0 },
	    { "arb", 0, "TRK_REQUESTS.DATA_READS", 1, 0, 0 } } },
};

/* Xeon E5-2600, per socket.  Latencies (uclk cycles, for TOR occupancy by
 * Little's law; the TOR has 20 entries): an LLC hit 20, a local miss 180, a
 * miss to the other socket 300.  A 64-byte line is one CAS (a DDR3 BL8
 * burst holds a channel's data bus for 4 dclk cycles), one HA request, and
 * over QPI 9 flits (8 data, 1 header; 2 flits per cycle per port, SNB-EP
 * 2.7).  CBo TOR inserts carry the node they target and a thread. */
#define CAS_LIMIT 0.25
#define CAS_WHY "one 64-byte CAS per 4 dclk cycles on each channel (DDR3 BL8)"
#define TOR_WHY "one LLC lookup per cycle on each CBo"
#define OCC_WHY "20 TOR entries on each CBo"
#define HA_WHY "one Home Agent request per cycle"
#define FLIT_WHY "two flits per QPI cycle on each port"

static const struct grow snbep_stream[] = {
	/* a line read from local memory */
	{ GQ_RD, 1, G_ALL, 1, 0, TOR_WHY,
	  { { "cbo", G_SAME, "LLC_LOOKUP.DATA_READ_I", 1, GA_LOCAL, GT_THREAD },
	    { NULL, G_SAME, "TOR_INSERTS.DRd_MISS", 1, GA_LOCAL, GT_THREAD } } },
	{ GQ_RD, 180, G_ALL, 2, 0, OCC_WHY,
	  { { "cbo", G_SAME, "TOR_OCCUPANCY.DRd_MISS", 20, GA_LOCAL, GT_THREAD } } },
	{ GQ_RD, 1, 0, 3, 0, HA_WHY,
	  { { "ha", G_SAME, "REQUESTS.READS", 1, 0, 0 }, { NULL, G_SAME, "TRACKER_INSERTS.ALL", 1, 0, 0 },
	    { NULL, G_SAME, "TxR_BL.DRS_CACHE", 1, 0, 0 } } },
	{ GQ_RD, 1, G_ALL, 4, CAS_LIMIT, CAS_WHY,
	  { { "imc", G_SAME, "CAS_COUNT.RD_REG", 1, 0, 0 }, { NULL, G_SAME, "RPQ_INSERTS", 1, 0, 0 } } },
	/* a modified line evicted and written back */
	{ GQ_WR, 1, G_ALL, 1, 0, NULL,
	  { { "cbo", G_SAME, "LLC_VICTIMS.M_STATE", 1, GA_LOCAL, GT_NONASSOC },
	    { NULL, G_SAME, "TOR_INSERTS.EVICTION", 1, GA_LOCAL, GT_NONASSOC } } },
	{ GQ_WR, 1, 0, 3, 0, NULL,
	  { { "ha", G_SAME, "REQUESTS.WRITES", 1, 0, 0 }, { NULL, G_SAME, "TRACKER_INSERTS.ALL", 1, 0, 0 },
	    { NULL, G_SAME, "IMC_WRITES.FULL", 1, 0, 0 } } },
	{ GQ_WR, 1, G_ALL, 4, 0, NULL,
	  { { "imc", G_SAME, "CAS_COUNT.WR_WMM", 1, 0, 0 }, { NULL, G_SAME, "WPQ_INSERTS", 1, 0, 0 } } },
};

/* Hits in the states of a MESIF LLC (E 50%, S 20%, M 20%, F 10%); each miss
 * fills a line, evicting a clean one, and reads local DRAM. */
#define HIT(share, sub)                                                           \
	{ GQ_HIT, share, G_ALL, 1, 0, TOR_WHY,                                    \
	  { { "cbo", G_SAME, "LLC_LOOKUP.DATA_READ_" sub, 1, GA_LOCAL, GT_THREAD },     \
	    { NULL, G_SAME, "TOR_INSERTS.DRd_HIT", 1, GA_LOCAL, GT_THREAD } } }
static const struct grow snbep_llc[] = {
	HIT(0.5, "E"), HIT(0.2, "S"), HIT(0.2, "M"), HIT(0.1, "F"),
	{ GQ_HIT, 20, G_ALL, 2, 0, OCC_WHY,
	  { { "cbo", G_SAME, "TOR_OCCUPANCY.DRd_HIT", 20, GA_LOCAL, GT_THREAD } } },
	{ GQ_MISS, 1, G_ALL, 1, 0, NULL,
	  { { "cbo", G_SAME, "LLC_LOOKUP.DATA_READ_I", 1, GA_LOCAL, GT_THREAD },
	    { NULL, G_SAME, "TOR_INSERTS.DRd_MISS", 1, GA_LOCAL, GT_THREAD },
	    { NULL, G_SAME, "LLC_VICTIMS.E_STATE", 1, GA_LOCAL, GT_NONASSOC } } },
	{ GQ_MISS, 180, G_ALL, 2, 0, NULL,
	  { { "cbo", G_SAME, "TOR_OCCUPANCY.DRd_MISS", 20, GA_LOCAL, GT_THREAD } } },
	{ GQ_MISS, 1, 0, 3, 0, HA_WHY,
	  { { "ha", G_SAME, "REQUESTS.READS", 1, 0, 0 }, { NULL, G_SAME, "TRACKER_INSERTS.ALL", 1, 0, 0 },
	    { NULL, G_SAME, "TxR_BL.DRS_CACHE", 1, 0, 0 } } },
	{ GQ_MISS, 1, G_ALL, 4, CAS_LIMIT, CAS_WHY,
	  { { "imc", G_SAME, "CAS_COUNT.RD_REG", 1, 0, 0 }, { NULL, G_SAME, "RPQ_INSERTS", 1, 0, 0 } } },
};

/* Traffic between the two sockets, symmetric: this socket's cores read
 * lines homed on the other socket and write modified ones back, and the
 * other socket does the same to this one's memory.  Requests leave through
 * R3QPI's ring ingress (RxR) and the QPI Tx side, answers arrive on QPI Rx
 * and go onto the ring through R3QPI's egress (TxR).  Both ports and both
 * R3QPI links share the traffic. */
#define DATA(dir, q)                                                              \
	{ q, 8, G_ALL, dir, 0, NULL,                                               \
	  { { "qpi", G_SAME, #dir "L_FLITS_G0.DATA", 2, 0, 0 },                     \
	    { NULL, G_SAME, #dir "L_FLITS_G1.DRS_DATA", 2, 0, 0 } } },             \
	{ q, 1, G_ALL, dir, 0, NULL,                                               \
	  { { "qpi", G_SAME, #dir "L_FLITS_G0.NON_DATA", 2, 0, 0 },                 \
	    { NULL, G_SAME, #dir "L_FLITS_G1.DRS_NONDATA", 2, 0, 0 } } }
enum { Tx = 6, Rx = 8 };
static const struct grow snbep_qpi[] = {
	/* this socket reads the other's memory: request out, data in */
	{ GQ_QRD, 1, G_ALL, 1, 0, TOR_WHY,
	  { { "cbo", G_SAME, "LLC_LOOKUP.DATA_READ_I", 1, GA_REMOTE, GT_THREAD },
	    { NULL, G_SAME, "TOR_INSERTS.DRd_MISS", 1, GA_REMOTE, GT_THREAD } } },
	{ GQ_QRD, 300, G_ALL, 2, 0, OCC_WHY,
	  { { "cbo", G_SAME, "TOR_OCCUPANCY.DRd_MISS", 20, GA_REMOTE, GT_THREAD } } },
	{ GQ_QRD, 1, G_ALL, 5, 0, "one R3QPI ingress insert per cycle on each link",
	  { { "r3qpi", G_SAME, "RxR_INSERTS.HOM", 1, 0, 0 } } },
	{ GQ_QRD, 1, G_ALL, Tx, 0, FLIT_WHY,
	  { { "qpi", G_SAME, "TxL_FLITS_G0.NON_DATA", 2, 0, 0 },
	    { NULL, G_SAME, "TxL_FLITS_G1.HOM_REQ", 2, 0, 0 } } },
	DATA(Rx, GQ_QRD),
	{ GQ_QRD, 1, G_ALL, 9, 0, "one Rx insert per cycle on each port",
	  { { "qpi", G_SAME, "RxL_INSERTS", 1, 0, 0 }, { NULL, G_SAME, "RxL_INSERTS_DRS", 1, 0, 0 } } },
	{ GQ_QRD, 1, G_ALL, 0, 0, NULL, { { "qpi", G_SAME, "DIRECT2CORE.SUCCESS", 1, 0, 0 } } },
	/* the other socket reads this one's memory: request in, data out */
	{ GQ_QRD, 1, G_ALL, Rx, 0, NULL,
	  { { "qpi", G_SAME, "RxL_FLITS_G0.NON_DATA", 2, 0, 0 },
	    { NULL, G_SAME, "RxL_FLITS_G1.HOM_REQ", 2, 0, 0 } } },
	{ GQ_QRD, 1, G_ALL, 9, 0, NULL,
	  { { "qpi", G_SAME, "RxL_INSERTS", 1, 0, 0 }, { NULL, G_SAME, "RxL_INSERTS_HOM", 1, 0, 0 } } },
	{ GQ_QRD, 1, 0, 3, 0, HA_WHY,
	  { { "ha", G_SAME, "REQUESTS.READS", 1, 0, 0 }, { NULL, G_SAME, "TRACKER_INSERTS.ALL", 1, 0, 0 },
	    { NULL, G_SAME, "TxR_BL.DRS_QPI", 1, 0, 0 } } },
	{ GQ_QRD, 1, G_ALL, 4, CAS_LIMIT, CAS_WHY,
	  { { "imc", G_SAME, "CAS_COUNT.RD_REG", 1, 0, 0 }, { NULL, G_SAME, "RPQ_INSERTS", 1, 0, 0 } } },
	{ GQ_QRD, 1, G_ALL, 5, 0, NULL, { { "r3qpi", G_SAME, "RxR_INSERTS.DRS", 1, 0, 0 } } },
	DATA(Tx, GQ_QRD),
	{ GQ_QRD, 2, G_ALL, 7, 0, "one Tx insert per cycle on each port",
	  { { "qpi", G_SAME, "TxL_INSERTS", 1, 0, 0 } } },
	{ GQ_QRD, 2, G_ALL, 10, 0, "one R3QPI egress insert per cycle on each link",
	  { { "r3qpi", G_SAME, "TxR_INSERTS", 1, 0, 0 } } },
	/* this socket writes back lines homed on the other: data out,
	 * completion in */
	{ GQ_QWR, 1, G_ALL, 1, 0, NULL,
	  { { "cbo", G_SAME, "LLC_VICTIMS.M_STATE", 1, GA_REMOTE, GT_NONASSOC },
	    { NULL, G_SAME, "TOR_INSERTS.EVICTION", 1, GA_REMOTE, GT_NONASSOC } } },
	{ GQ_QWR, 1, G_ALL, 5, 0, NULL, { { "r3qpi", G_SAME, "RxR_INSERTS.DRS", 1, 0, 0 } } },
	DATA(Tx, GQ_QWR),
	{ GQ_QWR, 1, G_ALL, Rx, 0, NULL,
	  { { "qpi", G_SAME, "RxL_FLITS_G0.NON_DATA", 2, 0, 0 },
	    { NULL, G_SAME, "RxL_FLITS_G2.NDR_AK", 2, 0, 0 } } },
	{ GQ_QWR, 1, G_ALL, 9, 0, NULL,
	  { { "qpi", G_SAME, "RxL_INSERTS", 1, 0, 0 }, { NULL, G_SAME, "RxL_INSERTS_NDR", 1, 0, 0 } } },
	/* and the other socket's writebacks to this one's memory */
	DATA(Rx, GQ_QWR),
	{ GQ_QWR, 1, G_ALL, 9, 0, NULL,
	  { { "qpi", G_SAME, "RxL_INSERTS", 1, 0, 0 }, { NULL, G_SAME, "RxL_INSERTS_DRS", 1, 0, 0 } } },
	{ GQ_QWR, 1, 0, 3, 0, NULL,
	  { { "ha", G_SAME, "REQUESTS.WRITES", 1, 0, 0 }, { NULL, G_SAME, "TRACKER_INSERTS.ALL", 1, 0, 0 },
	    { NULL, G_SAME, "IMC_WRITES.FULL", 1, 0, 0 } } },
	{ GQ_QWR, 1, G_ALL, 4, 0, NULL,
	  { { "imc", G_SAME, "CAS_COUNT.WR_WMM", 1, 0, 0 }, { NULL, G_SAME, "WPQ_INSERTS", 1, 0, 0 } } },
	{ GQ_QWR, 1, G_ALL, Tx, 0, NULL,
	  { { "qpi", G_SAME, "TxL_FLITS_G0.NON_DATA", 2, 0, 0 },
	    { NULL, G_SAME, "TxL_FLITS_G2.NDR_AK", 2, 0, 0 } } },
	{ GQ_QWR, 2, G_ALL, 7, 0, NULL, { { "qpi", G_SAME, "TxL_INSERTS", 1, 0, 0 } } },
	{ GQ_QWR, 2, G_ALL, 10, 0, NULL, { { "r3qpi", G_SAME, "TxR_INSERTS", 1, 0, 0 } } },
	/* the packets a port receives (Table 2-143, CTO_COUNT's inputs), one
	 * per line: the data answering this socket's reads, the other socket's
	 * read requests and write-backs, the completions of this socket's
	 * write-backs; addressed to this socket from the other (R21) */
	{ GQ_QRD, 1, G_ALL, 11, 0, "one received packet per cycle on each port",
	  { { "qpi", G_SAME, "CTO_COUNT.DRS_DataC", 1, 0, 0 } } },
	{ GQ_QRD, 1, G_ALL, 11, 0, NULL, { { "qpi", G_SAME, "CTO_COUNT.HOM0_RdData", 1, 0, 0 } } },
	{ GQ_QWR, 1, G_ALL, 11, 0, NULL, { { "qpi", G_SAME, "CTO_COUNT.DRS_WbIData", 1, 0, 0 } } },
	{ GQ_QWR, 1, G_ALL, 11, 0, NULL, { { "qpi", G_SAME, "CTO_COUNT.NDR_Cmp", 1, 0, 0 } } },
};

/* PCU 2.6: POWER_STATE_OCCUPANCY's sub-counters count the cores in C0, C3
 * and C6 (Table 2-81); each core's residency MSRs follow from them (the
 * machine's table). */
static const struct gcstate snbep_cstate = {
	"pcu",
	{ "POWER_STATE_OCCUPANCY.CORES_C0", "POWER_STATE_OCCUPANCY.CORES_C3",
	  "POWER_STATE_OCCUPANCY.CORES_C6" },
};

/* Xeon E5-2600 v2, per socket: the E5-2600's streams in the v2's inputs
 * (Intel's v2 names; docs/platform-ivt.md).  Two Home Agents share the
 * requests; TOR inserts and occupancy are the named values (LOCAL, MISS_LOCAL,
 * REMOTE, MISS_REMOTE, EVICTION) the v2 list counts; a line state is an
 * LLC_LOOKUP input.  The same latencies and limits as the E5-2600. */
static const struct grow ivt_stream[] = {
	{ GQ_RD, 1, G_ALL, 1, 0, TOR_WHY,
	  { { "cbo", G_SAME, "LLC_LOOKUP.DATA_READ_I", 1, GA_LOCAL, GT_THREAD },
	    { NULL, G_SAME, "TOR_INSERTS.MISS_LOCAL", 1, GA_LOCAL, GT_THREAD } } },
	{ GQ_RD, 180, G_ALL, 2, 0, OCC_WHY,
	  { { "cbo", G_SAME, "TOR_OCCUPANCY.MISS_LOCAL", 20, GA_LOCAL, GT_THREAD } } },
	{ GQ_RD, 1, G_ALL, 3, 0, HA_WHY,
	  { { "ha", G_SAME, "REQUESTS.READS_LOCAL", 1, 0, 0 }, { NULL, G_SAME, "IMC_READS.NORMAL", 1, 0, 0 },
	    { NULL, G_SAME, "TxR_BL.DRS_CACHE", 1, 0, 0 } } },
	{ GQ_RD, 1, G_ALL, 4, CAS_LIMIT, CAS_WHY,
	  { { "imc", G_SAME, "CAS_COUNT.RD_REG", 1, 0, 0 }, { NULL, G_SAME, "RPQ_INSERTS", 1, 0, 0 } } },
	{ GQ_WR, 1, G_ALL, 1, 0, NULL,
	  { { "cbo", G_SAME, "LLC_VICTIMS.M_STATE", 1, GA_LOCAL, GT_NONASSOC },
	    { NULL, G_SAME, "TOR_INSERTS.EVICTION", 1, GA_LOCAL, GT_NONASSOC } } },
	{ GQ_WR, 1, G_ALL, 3, 0, NULL,
	  { { "ha", G_SAME, "REQUESTS.WRITES_LOCAL", 1, 0, 0 }, { NULL, G_SAME, "IMC_WRITES.FULL", 1, 0, 0 } } },
	{ GQ_WR, 1, G_ALL, 4, 0, NULL,
	  { { "imc", G_SAME, "CAS_COUNT.WR_WMM", 1, 0, 0 }, { NULL, G_SAME, "WPQ_INSERTS", 1, 0, 0 } } },
};

#define IHIT(share, sub)                                                          \
	{ GQ_HIT, share, G_ALL, 1, 0, TOR_WHY,                                    \
	  { { "cbo", G_SAME, "LLC_LOOKUP.DATA_READ_" sub, 1, GA_LOCAL, GT_THREAD },     \
	    { NULL, G_SAME, "TOR_INSERTS.LOCAL", 1, GA_LOCAL, GT_THREAD } } }
static const struct grow ivt_llc[] = {
	IHIT(0.5, "E"), IHIT(0.2, "S"), IHIT(0.2, "M"), IHIT(0.1, "F"),
	{ GQ_HIT, 20, G_ALL, 2, 0, OCC_WHY,
	  { { "cbo", G_SAME, "TOR_OCCUPANCY.LOCAL", 20, GA_LOCAL, GT_THREAD } } },
	{ GQ_MISS, 1, G_ALL, 1, 0, NULL,
	  { { "cbo", G_SAME, "LLC_LOOKUP.DATA_READ_I", 1, GA_LOCAL, GT_THREAD },
	    { NULL, G_SAME, "TOR_INSERTS.MISS_LOCAL", 1, GA_LOCAL, GT_THREAD },
	    { NULL, G_SAME, "LLC_VICTIMS.E_STATE", 1, GA_LOCAL, GT_NONASSOC } } },
	{ GQ_MISS, 180, G_ALL, 2, 0, NULL,
	  { { "cbo", G_SAME, "TOR_OCCUPANCY.MISS_LOCAL", 20, GA_LOCAL, GT_THREAD } } },
	{ GQ_MISS, 1, G_ALL, 3, 0, HA_WHY,
	  { { "ha", G_SAME, "REQUESTS.READS_LOCAL", 1, 0, 0 }, { NULL, G_SAME, "IMC_READS.NORMAL", 1, 0, 0 },
	    { NULL, G_SAME, "TxR_BL.DRS_CACHE", 1, 0, 0 } } },
	{ GQ_MISS, 1, G_ALL, 4, CAS_LIMIT, CAS_WHY,
	  { { "imc", G_SAME, "CAS_COUNT.RD_REG", 1, 0, 0 }, { NULL, G_SAME, "RPQ_INSERTS", 1, 0, 0 } } },
};

#define IDATA(dir, q)                                                             \
	{ q, 8, G_ALL, dir, 0, NULL,                                               \
	  { { "qpi", G_SAME, #dir "L_FLITS_G0.DATA", 2, 0, 0 },                     \
	    { NULL, G_SAME, #dir "L_FLITS_G1.DRS_DATA", 2, 0, 0 } } },             \
	{ q, 1, G_ALL, dir, 0, NULL,                                               \
	  { { "qpi", G_SAME, #dir "L_FLITS_G0.NON_DATA", 2, 0, 0 },                 \
	    { NULL, G_SAME, #dir "L_FLITS_G1.DRS_NONDATA", 2, 0, 0 } } }
static const struct grow ivt_qpi[] = {
	{ GQ_QRD, 1, G_ALL, 1, 0, TOR_WHY,
	  { { "cbo", G_SAME, "LLC_LOOKUP.DATA_READ_I", 1, GA_REMOTE, GT_THREAD },
	    { NULL, G_SAME, "TOR_INSERTS.MISS_REMOTE", 1, GA_REMOTE, GT_THREAD } } },
	{ GQ_QRD, 300, G_ALL, 2, 0, OCC_WHY,
	  { { "cbo", G_SAME, "TOR_OCCUPANCY.MISS_REMOTE", 20, GA_REMOTE, GT_THREAD } } },
	{ GQ_QRD, 1, G_ALL, 5, 0, "one R3QPI ingress insert per cycle on each link",
	  { { "r3qpi", G_SAME, "RxR_INSERTS.HOM", 1, 0, 0 } } },
	{ GQ_QRD, 1, G_ALL, Tx, 0, FLIT_WHY,
	  { { "qpi", G_SAME, "TxL_FLITS_G0.NON_DATA", 2, 0, 0 },
	    { NULL, G_SAME, "TxL_FLITS_G1.HOM_REQ", 2, 0, 0 } } },
	IDATA(Rx, GQ_QRD),
	{ GQ_QRD, 1, G_ALL, Rx, 0, NULL,
	  { { "qpi", G_SAME, "RxL_FLITS_G0.NON_DATA", 2, 0, 0 },
	    { NULL, G_SAME, "RxL_FLITS_G1.HOM_REQ", 2, 0, 0 } } },
	{ GQ_QRD, 1, G_ALL, 3, 0, HA_WHY,
	  { { "ha", G_SAME, "REQUESTS.READS_REMOTE", 1, 0, 0 }, { NULL, G_SAME, "IMC_READS.NORMAL", 1, 0, 0 },
	    { NULL, G_SAME, "TxR_BL.DRS_QPI", 1, 0, 0 } } },
	{ GQ_QRD, 1, G_ALL, 4, CAS_LIMIT, CAS_WHY,
	  { { "imc", G_SAME, "CAS_COUNT.RD_REG", 1, 0, 0 }, { NULL, G_SAME, "RPQ_INSERTS", 1, 0, 0 } } },
	{ GQ_QRD, 1, G_ALL, 5, 0, NULL, { { "r3qpi", G_SAME, "RxR_INSERTS.DRS", 1, 0, 0 } } },
	IDATA(Tx, GQ_QRD),
	{ GQ_QWR, 1, G_ALL, 1, 0, NULL,
	  { { "cbo", G_SAME, "LLC_VICTIMS.M_STATE", 1, GA_REMOTE, GT_NONASSOC },
	    { NULL, G_SAME, "TOR_INSERTS.EVICTION", 1, GA_REMOTE, GT_NONASSOC } } },
	{ GQ_QWR, 1, G_ALL, 5, 0, NULL, { { "r3qpi", G_SAME, "RxR_INSERTS.DRS", 1, 0, 0 } } },
	IDATA(Tx, GQ_QWR),
	{ GQ_QWR, 1, G_ALL, Rx, 0, NULL,
	  { { "qpi", G_SAME, "RxL_FLITS_G0.NON_DATA", 2, 0, 0 },
	    { NULL, G_SAME, "RxL_FLITS_G2.NDR_AK", 2, 0, 0 } } },
	IDATA(Rx, GQ_QWR),
	{ GQ_QWR, 1, G_ALL, 3, 0, NULL,
	  { { "ha", G_SAME, "REQUESTS.WRITES_REMOTE", 1, 0, 0 }, { NULL, G_SAME, "IMC_WRITES.FULL", 1, 0, 0 } } },
	{ GQ_QWR, 1, G_ALL, 4, 0, NULL,
	  { { "imc", G_SAME, "CAS_COUNT.WR_WMM", 1, 0, 0 }, { NULL, G_SAME, "WPQ_INSERTS", 1, 0, 0 } } },
	{ GQ_QWR, 1, G_ALL, Tx, 0, NULL,
	  { { "qpi", G_SAME, "TxL_FLITS_G0.NON_DATA", 2, 0, 0 },
	    { NULL, G_SAME, "TxL_FLITS_G2.NDR_AK", 2, 0, 0 } } },
};

/* The v2's PCU: as the E5-2600's (the same occupancy sub-counters). */
static const struct gcstate ivt_cstate = {
	"pcu",
	{ "POWER_STATE_OCCUPANCY.CORES_C0", "POWER_STATE_OCCUPANCY.CORES_C3",
	  "POWER_STATE_OCCUPANCY.CORES_C6" },
};

/* Skylake client: no PCU events; the cores' states are the "cores" box's
 * (model/ucm_cores.h), which only the machine's MSRs show. */
static const struct gcstate skl_cstate = {
	"cores",
	{ "CORE_STATE.C0", "CORE_STATE.C3", "CORE_STATE.C6" },
};

static const struct gplat gplats[] = {
	{ "skl", skl_stream, skl_llc, NULL, N(skl_stream), N(skl_llc), 0, &skl_cstate },
	{ "snbep", snbep_stream, snbep_llc, snbep_qpi, N(snbep_stream), N(snbep_llc), N(snbep_qpi),
	  &snbep_cstate },
	{ "ivt", ivt_stream, ivt_llc, ivt_qpi, N(ivt_stream), N(ivt_llc), N(ivt_qpi), &ivt_cstate },
};

static const char *const kinds[] = { "stream", "llc", "burst", "idle", "qpi", "cstate", NULL };
/* What each kind's cores in C0 retire a cycle, x 100 (the "cores" box's
 * INST_RETIRED, model/ucm_cores.h; docs/invariants.md): stream and burst
 * wait on DRAM (0.5), llc loops on LLC hits (1.5), idle has no core in C0,
 * qpi waits on the other socket's memory, further away (0.3), cstate's
 * busy windows run ordinary code without memory traffic (1.0). */
static const uint16_t kind_ipc[] = { 50, 150, 50, 0, 30, 100 };
#define CORES_BOX "cores"
#define CORES_INST "INST_RETIRED"

const char *const *uct_gen_kinds(void)
{
	return kinds;
}

/* ---- streams and slices ---- */

#define MAXSTREAM UCT_MAXIN
#define NSTATE 2            /* cstate streams: C0, C3 (C6 is neither) */

struct stream {
	struct uct_in in[4];
	unsigned nin;
	uint8_t tid;            /* bit k: in[k] takes the slice's thread */
	double rate, acc;       /* share of the slice; carried rounding */
	unsigned group;         /* dense, 0: none */
	int state, core;        /* cstate: C0 (0) or C3 (1) window of a core, else -1 */
	uint8_t socket;
	double limit;
	const char *why;
	uint64_t from, to;      /* on within [from, to) of the slice, before rotation */
	uint64_t a[2], b[2];    /* the windows after rotation (b <= a: empty) */
};

struct mix {
	const struct uct_hdr *h;
	const struct gplat *gp;
	struct uct_writer *w;
	struct stream s[MAXSTREAM];
	unsigned n, ngroups;
	uint8_t grot[MAXSTREAM + 1];   /* group is rotated by a random phase per slice */
	uint64_t gphase[MAXSTREAM + 1];
	unsigned gkey[MAXSTREAM + 1];  /* (socket, table group or core) of each group */
	struct uct_seg pend;
	int have_pend;
	uint64_t t;
	uint64_t rng;
	struct uct_seg tmpl;
	unsigned nsock;
	int tids;                      /* some stream names the thread */
	int cstate;                    /* the PCU inputs follow the cores' states */
	struct uct_in cs_occ[3];
	struct uct_in cs_ipc;          /* the cores' instructions, kind_ipc a core in C0 */
	uint16_t ipc;
	struct uct_derive *der;        /* the inputs that follow from the others */
	unsigned ninst[UCM_MAXBT];
	char *err;
	size_t errn;
	uint64_t nseg;                 /* segments written */
	uint64_t total;                /* the trace's length, reference cycles */
	double seconds;
	int exceed;                    /* uct_gen_opts.exceed */
};

static int same_inputs(const struct uct_seg *a, const struct uct_seg *b)
{
	if (a->nin != b->nin || memcmp(a->asleep, b->asleep, sizeof(a->asleep)))
		return 0;
	for (unsigned i = 0; i < a->nin; i++)
		if (!uct_in_equal(&a->in[i], &b->in[i]))
			return 0;
	return 1;
}

static int flush(struct mix *m)
{
	if (m->have_pend && ++m->nseg > UCT_GEN_MAX_SEGMENTS) {
		snprintf(m->err, m->errn,
			 "more than the %llu segments a trace may have (UCT_GEN_MAX_SEGMENTS), %.1f%% into "
			 "%.6g s: a longer slice or a shorter trace", UCT_GEN_MAX_SEGMENTS,
			 m->total ? 100.0 * (double)m->pend.start / (double)m->total : 0.0, m->seconds);
		return -EFBIG;
	}
	if (m->have_pend && uct_write(m->w, &m->pend)) {
		snprintf(m->err, m->errn, "%s", uct_writer_error(m->w));
		return -EIO;
	}
	m->have_pend = 0;
	return 0;
}

static int emit(struct mix *m, uint64_t start, uint64_t len, const struct uct_seg *tmpl)
{
	int rc;

	if (!len)
		return 0;
	if (m->have_pend && m->pend.start + m->pend.ncycles == start && same_inputs(&m->pend, tmpl)) {
		m->pend.ncycles += len;
		return 0;
	}
	if ((rc = flush(m)))
		return rc;
	m->pend.start = start;
	m->pend.ncycles = len;
	m->pend.nin = tmpl->nin;
	memcpy(m->pend.asleep, tmpl->asleep, sizeof(tmpl->asleep));
	memcpy(m->pend.in, tmpl->in, tmpl->nin * sizeof(tmpl->in[0]));
	m->have_pend = 1;
	return 0;
}

static int on_in(const struct stream *s, uint64_t from, uint64_t to)
{
	return (s->a[0] <= from && s->b[0] >= to) || (s->a[1] <= from && s->b[1] >= to);
}

static const struct ucm_boxtype *box(const struct uct_hdr *h, const char *name)
{
	return ucm_boxtype_find(h->plat, name);
}

static void put(struct uct_seg *t, const struct uct_in *proto, unsigned socket, uint32_t inc,
		int attr, uint16_t v)
{
	struct uct_in *in = &t->in[t->nin++];

	*in = *proto;
	in->socket = (uint8_t)socket;
	in->inc = inc;
	if (attr >= 0) {
		in->amask = (uint16_t)(1u << attr);
		in->attr[attr] = v;
	}
}

/* The PCU's inputs for the cores each socket has in C0 and C3 (the rest
 * in C6), and the cores asleep. */
static void compose_cstate(const struct mix *m, const unsigned (*cnt)[NSTATE], uint64_t *busy,
			   struct uct_seg *t)
{
	unsigned nc = m->h->plat->ncores;

	for (unsigned so = 0; so < m->nsock; so++) {
		unsigned n[3] = { cnt[so][0], cnt[so][1], nc - cnt[so][0] - cnt[so][1] };

		for (unsigned k = 0; k < 3; k++)
			if (n[k])
				put(t, &m->cs_occ[k], so, n[k], -1, 0);
		if (n[0] && m->ipc)
			put(t, &m->cs_ipc, so, n[0] * m->ipc, -1, 0);
		t->asleep[so] = (nc >= 64 ? ~0ull : (1ull << nc) - 1) & ~busy[so];
	}
}

/* One slice of p cycles: each stream is on for its share of the slice;
 * streams of one group follow each other (rotated together when the group
 * is), the others start together. */
static int slice(struct mix *m, uint64_t p)
{
	int rc;
	uint64_t cuts[4 * MAXSTREAM + 4], gend[MAXSTREAM + 1];
	unsigned nc = 0;
	struct uct_seg *tmpl = &m->tmpl;
	uint16_t tid[UCT_MAXSOCK] = { 0 };

	memset(gend, 0, sizeof(gend));
	/* random draws in a fixed order: phases of the rotated groups, then
	 * the thread each socket's requests come from in this slice (one for
	 * all, so a thread's inserts and occupancy go together) */
	for (unsigned g = 1; g <= m->ngroups; g++)
		m->gphase[g] = m->grot[g] ? uct_rand(&m->rng) % p : 0;
	for (unsigned so = 0; m->tids && so < m->nsock; so++)
		tid[so] = (uint16_t)(uct_rand(&m->rng) % (2u * m->h->plat->ncores - 1));
	for (unsigned i = 0; i < m->n; i++) {
		struct stream *s = &m->s[i];
		double want = s->rate * (double)p + s->acc;
		uint64_t on = want <= 0 ? 0 : (uint64_t)want, r = m->gphase[s->group];

		s->from = s->group ? gend[s->group] : 0;
		if (on > p - s->from)
			on = p - s->from;
		s->acc = want - (double)on;
		s->to = s->from + on;
		if (s->group)
			gend[s->group] = s->to;
		/* rotated: [from, to) + r modulo p, in up to two pieces */
		s->a[0] = s->from + r;
		s->b[0] = s->to + r;
		s->a[1] = s->b[1] = 0;
		if (on && s->a[0] >= p) {
			s->a[0] -= p;
			s->b[0] -= p;
		} else if (on && s->b[0] > p) {
			s->a[1] = 0;
			s->b[1] = s->b[0] - p;
			s->b[0] = p;
		}
		if (!on)
			s->a[0] = s->b[0] = 0;
		cuts[nc++] = s->a[0];
		cuts[nc++] = s->b[0];
		cuts[nc++] = s->b[1];
	}
	cuts[nc++] = 0;
	cuts[nc++] = p;
	/* sort the cut points (few: insertion sort) */
	for (unsigned i = 1; i < nc; i++)
		for (unsigned j = i; j > 0 && cuts[j - 1] > cuts[j]; j--) {
			uint64_t x = cuts[j];

			cuts[j] = cuts[j - 1];
			cuts[j - 1] = x;
		}
	for (unsigned c = 1; c < nc; c++) {
		uint64_t from = cuts[c - 1], to = cuts[c];
		unsigned cnt[UCT_MAXSOCK][NSTATE];
		uint64_t busy[UCT_MAXSOCK];

		if (to <= from)
			continue;
		memset(cnt, 0, sizeof(cnt));
		memset(busy, 0, sizeof(busy));
		memset(tmpl, 0, offsetof(struct uct_seg, in));
		for (unsigned i = 0; i < m->n; i++) {
			const struct stream *s = &m->s[i];

			if (!on_in(s, from, to))
				continue;
			if (s->state >= 0) {
				cnt[s->socket][s->state]++;
				if (s->state == 0)
					busy[s->socket] |= 1ull << s->core;
				continue;
			}
			for (unsigned k = 0; k < s->nin; k++) {
				struct uct_in *in = &tmpl->in[tmpl->nin++];

				*in = s->in[k];
				if (s->tid >> k & 1) {
					in->amask |= 1u << UCM_AT_TID;
					in->attr[UCM_AT_TID] = tid[s->socket];
				}
			}
		}
		if (m->cstate)
			compose_cstate(m, (const unsigned (*)[NSTATE])cnt, busy, tmpl);
		if ((rc = uct_derive_apply(m->der, tmpl->in, &tmpl->nin, UCT_MAXIN, m->nsock, m->ninst, 0,
					   m->err, m->errn)))
			return rc;
		if ((rc = emit(m, m->t + from, to - from, tmpl)))
			return rc;
	}
	m->t += p;
	return 0;
}

/* The dense group of (socket, key), key 0: none. */
static unsigned group_of(struct mix *m, unsigned socket, unsigned key, int rot)
{
	unsigned k = socket << 16 | key;

	if (!key)
		return 0;
	for (unsigned g = 1; g <= m->ngroups; g++)
		if (m->gkey[g] == k)
			return g;
	m->gkey[++m->ngroups] = k;
	m->grot[m->ngroups] = (uint8_t)rot;
	return m->ngroups;
}

static int need(struct mix *m, const char *bname, const char *sub, const struct ucm_boxtype **bt,
		int *s)
{
	*bt = box(m->h, bname);
	if (!*bt || (*s = ucm_subev_find(*bt, sub)) < 0) {
		snprintf(m->err, m->errn, "this generator needs %s.%s, which %s lacks", bname, sub,
			 m->h->plat->name);
		return -EINVAL;
	}
	return 0;
}

/* A prototype input on every instance of a box, socket 0. */
static int proto(struct mix *m, const char *bname, const char *sub, struct uct_in *in)
{
	const struct ucm_boxtype *bt;
	int s;

	if (need(m, bname, sub, &bt, &s))
		return -EINVAL;
	memset(in, 0, sizeof(*in));
	in->bt = (uint8_t)ucm_boxtype_index(m->h->plat, bt);
	in->inst = -1;
	in->sub = (uint16_t)s;
	return 0;
}

static struct stream *new_stream(struct mix *m)
{
	if (m->n == MAXSTREAM) {
		snprintf(m->err, m->errn, "too many streams (%d)", MAXSTREAM);
		return NULL;
	}
	memset(&m->s[m->n], 0, sizeof(m->s[0]));
	m->s[m->n].state = m->s[m->n].core = -1;
	return &m->s[m->n++];
}

static uint64_t hz_of(const struct uct_hdr *h, unsigned clock)
{
	return h->clock_hz[clock] ? h->clock_hz[clock] : h->plat->clocks[clock].hz_default;
}

static unsigned ninst(const struct uct_hdr *h, const struct ucm_boxtype *bt)
{
	int i = ucm_boxtype_index(h->plat, bt);

	return i < 0 ? 0 : h->ninst[i] ? h->ninst[i] : bt->ninst_default;
}

/* The streams of a table for every socket, with rates from q (per socket
 * and reference cycle). */
static int add_rows(struct mix *m, const struct grow *rows, unsigned nrows, const double *q)
{
	const struct uct_hdr *h = m->h;

	for (unsigned so = 0; so < m->nsock; so++)
		for (unsigned r = 0; r < nrows; r++) {
			const struct grow *g = &rows[r], *lead = g;
			const struct ucm_boxtype *bt0;
			unsigned ni, nsplit, first = 0, last = 0;
			double rate;
			int sub;

			/* a group's limit is its first row's, whichever rows are on */
			for (unsigned k = 0; g->group && k < r; k++)
				if (rows[k].group == g->group) {
					lead = &rows[k];
					break;
				}

			if (need(m, g->in[0].box, g->in[0].sub, &bt0, &sub))
				return -EINVAL;
			ni = ninst(h, bt0);
			nsplit = g->inst < 0 ? ni : 1;
			/* the same share of time on any clock: per cycle of the box's */
			rate = q[g->q] * g->per / nsplit * ((double)hz_of(h, 0) / (double)hz_of(h, bt0->clock)) /
			       g->in[0].inc;
			if (rate <= 0)
				continue;
			if (g->inst == G_EACH)
				last = ni - 1;
			else if (g->inst >= 0)
				first = last = (unsigned)g->inst;
			for (unsigned i = first; i <= last; i++) {
				struct stream *s = new_stream(m);

				if (!s)
					return -ENOSPC;
				s->rate = rate;
				s->socket = (uint8_t)so;
				s->group = group_of(m, so, g->group, 0);
				s->limit = lead->limit > 0 && !m->exceed ? lead->limit : 1;
				s->why = lead->why ? lead->why : g->why;
				for (unsigned k = 0; k < N(g->in) && g->in[k].sub; k++) {
					const struct gin *gi = &g->in[k];
					const struct ucm_boxtype *bt;
					struct uct_in *in = &s->in[s->nin++];

					if (need(m, gi->box ? gi->box : g->in[0].box, gi->sub, &bt, &sub))
						return -EINVAL;
					memset(in, 0, sizeof(*in));
					in->socket = (uint8_t)so;
					in->bt = (uint8_t)ucm_boxtype_index(h->plat, bt);
					in->inst = (int16_t)(gi->inst != G_SAME ? gi->inst
							     : g->inst == G_ALL ? -1 : (int)i);
					in->sub = (uint16_t)sub;
					in->inc = gi->inc;
					if (gi->nid) {
						in->amask |= 1u << UCM_AT_NID;
						/* node IDs are the socket numbers (UBox GIDNIDMAP) */
						in->attr[UCM_AT_NID] =
							(uint16_t)(gi->nid == GA_LOCAL ? so : so ^ 1);
					}
					if (gi->tid == GT_THREAD) {
						s->tid |= (uint8_t)(1u << k);
						m->tids = 1;
					} else if (gi->tid == GT_NONASSOC) {
						in->amask |= 1u << UCM_AT_TID;
						in->attr[UCM_AT_TID] = TID_NONASSOC;
					}
				}
			}
		}
	return 0;
}

/* A core's busy (C0) and shallow-sleep (C3) windows, rotated together by
 * a random phase per slice: cores go to sleep at different times. */
static int add_cstate(struct mix *m, double c0, double c3)
{
	const struct gcstate *cs = m->gp->cstate;

	for (unsigned k = 0; k < 3; k++)
		if (proto(m, cs->box, cs->occ[k], &m->cs_occ[k]))
			return -EINVAL;
	if (m->ipc && proto(m, CORES_BOX, CORES_INST, &m->cs_ipc))
		return -EINVAL;
	m->cstate = 1;
	for (unsigned so = 0; so < m->nsock; so++)
		for (unsigned c = 0; c < m->h->plat->ncores && c < 64; c++) {
			unsigned g = group_of(m, so, 0x8000 | c, 1);

			for (int st = 0; st < NSTATE; st++) {
				struct stream *s = new_stream(m);

				if (!s)
					return -ENOSPC;
				s->rate = st ? (1 - c0) * c3 : c0;
				s->group = g;
				s->state = st;
				s->core = (int)c;
				s->socket = (uint8_t)so;
				s->limit = 1;
			}
		}
	return 0;
}

/* The largest share of its limit a stream or group would use: > 1 is more
 * than the hardware carries; *why says which limit. */
static double worst(const struct mix *m, const char **why)
{
	double sum[MAXSTREAM + 1] = { 0 }, lim[MAXSTREAM + 1] = { 0 }, w = 0;
	const char *gwhy[MAXSTREAM + 1] = { 0 };

	*why = "the hardware's limit";
	for (unsigned i = 0; i < m->n; i++) {
		const struct stream *s = &m->s[i];

		if (s->state >= 0)
			continue;
		if (s->rate / s->limit > w) {
			w = s->rate / s->limit;
			*why = s->why ? s->why : *why;
		}
		if (s->group) {
			sum[s->group] += s->rate;
			if (!lim[s->group])
				lim[s->group] = s->limit;
			if (!gwhy[s->group])
				gwhy[s->group] = s->why;
		}
	}
	for (unsigned g = 1; g <= m->ngroups; g++)
		if (lim[g] && sum[g] / lim[g] > w) {
			w = sum[g] / lim[g];
			*why = gwhy[g] ? gwhy[g] : "the hardware's limit";
		}
	return w;
}

static const struct gplat *gplat_of(const struct ucm_platform *p)
{
	for (unsigned i = 0; i < N(gplats); i++)
		if (!strcmp(gplats[i].platform, p->name))
			return &gplats[i];
	return NULL;
}

static void (*progress_fn)(void *, double);
static void *progress_ctx;

void uct_gen_on_progress(void (*fn)(void *ctx, double done), void *ctx)
{
	progress_fn = fn;
	progress_ctx = ctx;
}

static int fail(struct mix *m, int rc)
{
	uct_derive_free(m->der);
	free(m);
	return rc;
}

/* The part's DRAM bandwidth in 64-byte lines per reference cycle and
 * socket, 0 where the platform gives none (or --exceed-limits). */
static double dram_cap(const struct uct_hdr *h, int exceed)
{
	const struct ucm_limits *l = h->plat->limits;

	if (exceed || !l || !l->dram_channels)
		return 0;
	return ucm_dram_peak_bps(l) / 64.0 / (double)hz_of(h, 0);
}

/* Lines per reference cycle and socket above the part's DRAM bandwidth:
 * an error naming the limit and its source. */
static int over_dram(const struct uct_hdr *h, int exceed, double lines, const char *what,
		     char *err, size_t n)
{
	const struct ucm_limits *l = h->plat->limits;
	double cap = dram_cap(h, exceed), hz = (double)hz_of(h, 0);
	unsigned ns = h->sockets ? h->sockets : 1;

	if (!cap || lines <= cap * (1 + 1e-9))
		return 0;
	snprintf(err, n,
		 "%s: %.1f GB/s of DRAM traffic exceeds the %.1f GB/s that %u %s socket%s carr%s "
		 "(%u channels of %s, 8 bytes a transfer; %s); --exceed-limits allows it",
		 what, lines * 64 * hz * ns / 1e9, ucm_dram_peak_bps(l) * ns / 1e9, ns, h->plat->name,
		 ns == 1 ? "" : "s", ns == 1 ? "ies" : "y", l->dram_channels, l->dram_type, l->dram_cite);
	return -ERANGE;
}

int uct_generate(const struct uct_hdr *h, const struct uct_gen_opts *o, struct uct_writer *w,
		 char *err, size_t n)
{
	return uct_generate_until(h, o, w, NULL, err, n);
}

int uct_generate_until(const struct uct_hdr *h, const struct uct_gen_opts *o, struct uct_writer *w,
		       const volatile sig_atomic_t *stop, char *err, size_t n)
{
	struct mix *m = calloc(1, sizeof(*m));
	uint64_t hz = hz_of(h, 0), total, p = o->period ? o->period : 300000;
	unsigned sockets = h->sockets ? h->sockets : 1;
	double q[GQ_N] = { 0 }, lines, ratio, peak;
	const char *why;
	int rc = 0;
	unsigned nslices = 0;

	if (!m)
		return -ENOMEM;
	m->h = h;
	m->w = w;
	m->err = err;
	m->errn = n;
	m->rng = o->seed;
	m->nsock = sockets;
	m->seconds = o->seconds;
	m->exceed = o->exceed;
	if (!(o->seconds > 0) || o->seconds > 1e5) {
		snprintf(err, n, "duration %.3f s outside (0, 1e5]", o->seconds);
		return fail(m, -ERANGE);
	}
	total = (uint64_t)llround(o->seconds * (double)hz);
	m->total = total;
	for (unsigned k = 0; kinds[k]; k++)
		if (!strcmp(o->kind, kinds[k]))
			m->ipc = kind_ipc[k];
	if (!(m->gp = gplat_of(h->plat))) {
		snprintf(err, n, "no generators for %s", h->plat->name);
		return fail(m, -ENOTSUP);
	}
	{
		uint64_t chz[UCM_MAXCLK] = { 0 };

		for (unsigned c = 0; c < h->plat->nclocks && c < UCM_MAXCLK; c++)
			chz[c] = hz_of(h, c);
		for (unsigned b = 0; b < h->plat->nboxes; b++) {
			int t = ucm_boxtype_index(h->plat, h->plat->boxes[b].type);

			if (t >= 0 && t < UCM_MAXBT)
				m->ninst[t] = ninst(h, h->plat->boxes[b].type);
		}
		if ((rc = uct_derive_new(h->plat, chz, &m->der, err, n)))
			return fail(m, rc);
	}
	if (sockets > UCT_MAXSOCK) {
		snprintf(err, n, "%u sockets (at most %d)", sockets, UCT_MAXSOCK);
		return fail(m, -ERANGE);
	}
	/* 64-byte lines per reference cycle and socket for a bandwidth in GB/s
	 * (1e9 B/s) of all the trace's sockets */
	lines = o->gbps * 1e9 / 64.0 / (double)hz / sockets;
	if (!strcmp(o->kind, "stream")) {
		double rr = o->read_ratio;

		if (!(rr >= 0 && rr <= 1) || !(o->gbps >= 0)) {
			snprintf(err, n, "read share %.3f outside 0..1", rr);
			return fail(m, -ERANGE);
		}
		q[GQ_RD] = lines * rr;
		q[GQ_WR] = lines * (1 - rr);
		q[GQ_LINES] = lines;
		if ((rc = over_dram(h, o->exceed, lines, "--bandwidth", err, n)))
			return fail(m, rc);
		if ((rc = add_rows(m, m->gp->stream, m->gp->nstream, q)))
			return fail(m, rc);
		if ((ratio = worst(m, &why)) > 1) {
			snprintf(err, n, "%.3f GB/s with read share %.2f needs more than %s (max %.1f GB/s)",
				 o->gbps, rr, why, o->gbps / ratio);
			return fail(m, -ERANGE);
		}
	} else if (!strcmp(o->kind, "llc")) {
		double hit = o->hit_ratio, look = o->lookups;
		const struct ucm_limits *l = h->plat->limits;
		const struct ucm_boxtype *cbo = box(h, "cbo");
		unsigned nc = cbo ? ninst(h, cbo) : 0;

		if (look > 0 && h->plat->limits && !o->exceed && look > h->plat->limits->llc_lookups) {
			snprintf(err, n, "--lookups %.3f exceeds the %.0f lookup a cycle a %s CBo starts (%s); "
				 "--exceed-limits allows it up to the model's maximum",
				 look, h->plat->limits->llc_lookups, h->plat->name, h->plat->limits->llc_cite);
			return fail(m, -ERANGE);
		}
		if (!(hit >= 0 && hit <= 1) || !(look >= 0 && look <= 1)) {
			snprintf(err, n, "hit ratio %.3f and lookups per cycle per CBo %.3f must be in 0..1",
				 hit, look);
			return fail(m, -ERANGE);
		}
		q[GQ_HIT] = look * hit * nc;
		q[GQ_MISS] = look * (1 - hit) * nc;
		/* every miss reads a line from DRAM */
		if ((rc = over_dram(h, o->exceed, q[GQ_MISS], "the misses of --lookups and --hit-ratio",
				    err, n)))
			return fail(m, rc);
		/* the lookups are the cores' reads: at most the line fill buffers of
		 * every core (all in C0) each LLC hit time */
		if (l && l->core_lfb && !o->exceed && cbo &&
		    look * nc * (double)hz_of(h, cbo->clock) >
			    h->plat->ncores * l->core_lfb / (l->llc_hit_ns * 1e-9) * (1 + 1e-9)) {
			snprintf(err, n, "--lookups %.3f on %u CBos is %.2fe9 lookups a second a socket, more "
				 "than %u cores with %u line fill buffers each ask for in an LLC hit's %.1f ns "
				 "(%.2fe9, --lookups %.3f; %s); --exceed-limits allows it",
				 look, nc, look * nc * (double)hz_of(h, cbo->clock) / 1e9, h->plat->ncores,
				 l->core_lfb, l->llc_hit_ns,
				 h->plat->ncores * l->core_lfb / (l->llc_hit_ns * 1e-9) / 1e9,
				 h->plat->ncores * l->core_lfb / (l->llc_hit_ns * 1e-9) / nc /
					 (double)hz_of(h, cbo->clock),
				 l->core_cite);
			return fail(m, -ERANGE);
		}
		if ((rc = add_rows(m, m->gp->llc, m->gp->nllc, q)))
			return fail(m, rc);
		if (worst(m, &why) > 1) {
			snprintf(err, n, "%.3f lookups per cycle per CBo with %.0f%% hits need more than %s",
				 look, 100 * hit, why);
			return fail(m, -ERANGE);
		}
	} else if (!strcmp(o->kind, "burst")) {
		if (!(o->duty >= 0 && o->duty <= 1) || !o->burst_ns) {
			snprintf(err, n, "burst needs a duty cycle in 0..1 and a burst length");
			return fail(m, -ERANGE);
		}
		/* reads at the most the platform carries, for the duty's share:
		 * the streaming reads' rates at one line per cycle show the peak */
		q[GQ_RD] = q[GQ_LINES] = 1;
		if ((rc = add_rows(m, m->gp->stream, m->gp->nstream, q)))
			return fail(m, rc);
		if (!((ratio = worst(m, &why)) > 0)) {
			snprintf(err, n, "%s streams nothing to burst", h->plat->name);
			return fail(m, -EINVAL);
		}
		/* the peak: what the tables let the streams carry, at most what
		 * the part's DRAM does (unless --exceed-limits) */
		peak = 1 / ratio;
		if (dram_cap(h, o->exceed) && peak > dram_cap(h, o->exceed))
			peak = dram_cap(h, o->exceed);
		for (unsigned i = 0; i < m->n; i++)
			m->s[i].rate *= o->duty * peak;
		p = (uint64_t)((double)o->burst_ns * 1e-9 * (double)hz / (o->duty > 0 ? o->duty : 1));
		if (!p)
			p = 1;
	} else if (!strcmp(o->kind, "qpi")) {
		double rr = o->read_ratio;

		if (!m->gp->qpi) {
			snprintf(err, n, "%s has no QPI links: the qpi generator is for snbep and ivt", h->plat->name);
			return fail(m, -ENOTSUP);
		}
		if (!(rr >= 0 && rr <= 1) || !(o->gbps >= 0)) {
			snprintf(err, n, "read share %.3f outside 0..1", rr);
			return fail(m, -ERANGE);
		}
		q[GQ_QRD] = lines * rr;
		q[GQ_QWR] = lines * (1 - rr);
		if ((rc = add_rows(m, m->gp->qpi, m->gp->nqpi, q)))
			return fail(m, rc);
		if ((ratio = worst(m, &why)) > 1) {
			/* the tables' flit rate is the links': a flit each 4 transfers */
			const struct ucm_limits *l = h->plat->limits;
			const struct ucm_boxtype *qb = box(h, "qpi");
			char links[512] = "";

			if (l && l->qpi_mts && qb)
				snprintf(links, sizeof(links), " of the %u QPI links a socket has at %.1f GT/s (%s)",
					 ninst(h, qb), l->qpi_mts / 1000.0, l->qpi_cite);
			snprintf(err, n, "%.3f GB/s over QPI with read share %.2f needs more than %s%s (max %.1f GB/s)",
				 o->gbps, rr, why, links, o->gbps / ratio);
			return fail(m, -ERANGE);
		}
	} else if (!strcmp(o->kind, "cstate")) {
		if (!m->gp->cstate) {
			snprintf(err, n, "%s has no inputs for its cores' C-states: no cstate generator",
				 h->plat->name);
			return fail(m, -ENOTSUP);
		}
		if (!(o->duty >= 0 && o->duty <= 1) || !(o->hit_ratio >= 0 && o->hit_ratio <= 1)) {
			snprintf(err, n, "cstate needs a busy share (--duty) and a C3 share of idle time (--hit-ratio) in 0..1");
			return fail(m, -ERANGE);
		}
		if ((rc = add_cstate(m, o->duty, o->hit_ratio)))
			return fail(m, rc);
	} else if (!strcmp(o->kind, "idle")) {
		/* a platform with C-states idles with every core in C6 but for the
		 * OS's timer tick, 1 % of each core's time in C0 (as the idle
		 * workload, uct_wl_snbep.c) */
		if (m->gp->cstate && (rc = add_cstate(m, IDLE_TICK, 0)))
			return fail(m, rc);
	} else {
		snprintf(err, n, "unknown generator '%s' (stream, llc, burst, idle, qpi, cstate)", o->kind);
		return fail(m, -EINVAL);
	}
	/* the traffic is the cores' requests: on a platform with C-states
	 * every core is in C0 while a traffic kind runs, a burst's for its
	 * duty's share (docs/invariants.md) */
	if (m->gp->cstate && strcmp(o->kind, "cstate") && strcmp(o->kind, "idle") &&
	    (rc = add_cstate(m, strcmp(o->kind, "burst") ? 1 : o->duty, 0)))
		return fail(m, rc);
	{
		/* every stream on at once must fit one segment */
		const struct gcstate *cs = m->gp->cstate;
		/* the PCU's occupancies and the cores' instructions */
		unsigned most = m->cstate ? m->nsock * (unsigned)(N(cs->occ) + 1) : 0;

		most += uct_derive_most(m->der, m->nsock, m->ninst);

		for (unsigned i = 0; i < m->n; i++)
			most += m->s[i].nin;
		if (most > UCT_MAXIN) {
			snprintf(err, n, "%s with %u sockets needs up to %u inputs in a segment (max %d)", o->kind,
				 sockets, most, UCT_MAXIN);
			return fail(m, -ENOSPC);
		}
	}
	/* the output is bounded before anything is written */
	if (total / p + (total % p != 0) > UCT_GEN_MAX_SLICES) {
		snprintf(err, n,
			 "%.6g s at %llu Hz in slices of %llu cycles is %llu slices, more than the %llu a "
			 "trace may have (UCT_GEN_MAX_SLICES): a longer slice or a shorter trace",
			 o->seconds, (unsigned long long)hz, (unsigned long long)p,
			 (unsigned long long)(total / p + (total % p != 0)), UCT_GEN_MAX_SLICES);
		return fail(m, -EFBIG);
	}
	while (!rc && m->t < total) {
		/* slices jittered +-25% from the seed: rates stay exact */
		if (progress_fn && !(++nslices & 63))
			progress_fn(progress_ctx, (double)m->t / (double)total);
		uint64_t jp = p - p / 4 + (p / 2 ? uct_rand(&m->rng) % (p / 2 + 1) : 0);
		uint64_t len = total - m->t < jp ? total - m->t : jp;

		rc = slice(m, len);
		if (!rc && stop && *stop) {
			snprintf(err, n, "interrupted");
			rc = -EINTR;
		}
	}
	if (!rc)
		rc = flush(m);
	return fail(m, rc);
}
