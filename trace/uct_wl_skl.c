/*
 * uct_wl_skl.c - built-in Skylake-client workloads as phase tables.
 *
 * "mixed" approximates a desktop program: mostly LLC hits, short memory
 * streaming bursts (~15 GB/s of DRAM traffic on average at 3 GHz uclk),
 * writebacks, cross-core snoops, some graphics/IO traffic and idle time.
 * "stream" stays within what two channels of DDR4-2133 carry (34.1 GB/s):
 * a line a uclk cycle is 192 GB/s, so bursts alternate with stalls on
 * outstanding misses, ~23 GB/s of reads and ~8 GB/s of writebacks.
 */
#include "uct.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* the cores (model/ucm_cores.h): all four in C0 and what they retire, IPC
 * x 100 each (at most the issue width of 4, Intel's Optimization
 * Reference Manual); each phase's IPC with its reason, docs/invariants.md */
#define CORES_BUSY { "cores", 0, "CORE_STATE.C0", 4 }
#define IPC(ipc) { "cores", 0, "INST_RETIRED", 4 * (ipc) }
/* every core in C6 */
#define CORES_C6 { "cores", 0, "CORE_STATE.C6", 4 }

static const struct uct_input hit[] = {
	{ "cbo", 0, "CACHE_LOOKUP.READ_E", 1 }, { "cbo", 1, "CACHE_LOOKUP.READ_S", 1 },
	{ "cbo", 2, "CACHE_LOOKUP.READ_M", 1 }, { "cbo", 3, "CACHE_LOOKUP.WRITE_E", 1 },
	CORES_BUSY,
	IPC(200), /* a loop on LLC-resident data: Skylake's wider back end overlaps the LLC's latency */
};
/* A line read from DRAM a cycle: one read that misses the LLC, on the
 * slice its address maps to. The LLC is inclusive, so each miss is one
 * DRAM read (docs/invariants.md, skl); the lines' addresses spread over
 * the slices, so the streaming phases below take the four CBos in turn. */
#define STREAM_ON(cbo) { \
	{ "cbo", cbo, "CACHE_LOOKUP.READ_I", 1 }, \
	{ "arb", 0, "TRK_REQUESTS.DATA_READS", 1 }, { "arb", 0, "TRK_OCCUPANCY.DATA_READS", 24 }, \
	{ "imc", 0, "DRAM_DATA_READS", 1 }, { "imc", 0, "DRAM_IA_REQUESTS", 1 }, \
	{ "cbo", cbo, "XSNP_RESPONSE.XCORE_MISS", 1 }, \
	CORES_BUSY, \
	IPC(50), /* memory-bound streaming: each core waits on DRAM with its line fill buffers full */ \
}
static const struct uct_input stream0[] = STREAM_ON(0), stream1[] = STREAM_ON(1),
	stream2[] = STREAM_ON(2), stream3[] = STREAM_ON(3);
#define STREAM_PHASES(ns) \
	{ "stream", (ns) / 4, N(stream0), stream0 }, { "stream", (ns) / 4, N(stream1), stream1 }, \
	{ "stream", (ns) / 4, N(stream2), stream2 }, { "stream", (ns) / 4, N(stream3), stream3 }
/* the writes are the IA's requests too (Table 3-3: DRAM_IA_REQUESTS counts
 * every read and write request from the IA) */
static const struct uct_input writeback[] = {
	{ "cbo", -1, "CACHE_LOOKUP.WRITE_M", 1 }, { "cbo", -1, "XSNP_RESPONSE.EVICTION_MISS", 1 },
	{ "arb", 0, "TRK_REQUESTS.WRITES", 1 }, { "arb", 0, "TRK_OCCUPANCY.ALL", 8 },
	{ "imc", 0, "DRAM_DATA_WRITES", 1 }, { "imc", 0, "DRAM_IA_REQUESTS", 1 },
	CORES_BUSY,
	IPC(50), /* the write half of the same streaming loop */
};
static const struct uct_input snoop[] = {
	{ "cbo", -1, "CACHE_LOOKUP.OTHER_S", 1 }, { "cbo", 0, "XSNP_RESPONSE.XCORE_HITM", 1 },
	{ "cbo", 1, "XSNP_RESPONSE.XCORE_HIT", 1 }, { "cbo", 2, "XSNP_RESPONSE.EVICTION_HIT", 1 },
	{ "cbo", 3, "XSNP_RESPONSE.EVICTION_HITM", 1 },
	CORES_BUSY,
	IPC(100), /* data shared between the cores: cross-core snoops stall some loads */
};
/* GT and IO reads of memory enter through the ARB's coherent tracker,
 * not its core tracker (docs/platform-skl.md D17) */
static const struct uct_input display[] = {
	{ "imc", 0, "DRAM_GT_REQUESTS", 1 }, { "imc", 0, "DRAM_IO_REQUESTS", 1 },
	{ "imc", 0, "DRAM_DATA_READS", 1 }, { "arb", 0, "TRK_OCCUPANCY.ALL", 2 },
	{ "arb", 0, "COH_TRK_REQUESTS.ALL", 1 },
	CORES_BUSY,
	IPC(100), /* the cores run ordinary desktop code beside the GT's and IO's traffic */
};

/* the cores asleep: every one in C6 */
static const struct uct_input deep[] = { CORES_C6 };

static const struct uct_phase mixed[] = {
	{ "hit", 60000, N(hit), hit },
	STREAM_PHASES(5000),
	{ "writeback", 2000, N(writeback), writeback },
	{ "snoop", 2000, N(snoop), snoop },
	{ "display", 1000, N(display), display },
	{ "idle", 30000, N(deep), deep },
};

const struct uct_workload_def uct_wl_skl_mixed = {
	"mixed", "skl", "LLC hits, memory bursts, writebacks, snoops, GT/IO traffic, idle",
	N(mixed), mixed
};

/* waiting on DRAM: requests outstanding in the tracker, none new */
static const struct uct_input stall[] = {
	{ "arb", 0, "TRK_OCCUPANCY.ALL", 16 },
	CORES_BUSY,
	IPC(20), /* waiting on DRAM: little retires until the outstanding reads return */
};

static const struct uct_phase streaming[] = {
	STREAM_PHASES(2000),
	{ "stall", 7000, N(stall), stall },
	{ "writeback", 700, N(writeback), writeback },
	{ "stall", 7000, N(stall), stall },
};

const struct uct_workload_def uct_wl_skl_stream = {
	"stream", "skl", "memory streaming: LLC misses, DRAM reads and writebacks",
	N(streaming), streaming
};

/* an idle OS: its timer tick wakes every core for 1 % of the time, as on
 * the Xeons (a core's counters then move, as turbostat needs); the tick's
 * kernel code runs on cold caches: IPC 0.5 */
static const struct uct_input tick[] = { CORES_BUSY, IPC(50) };
static const struct uct_phase idle[] = { { "deep", 99000, N(deep), deep }, { "tick", 1000, N(tick), tick } };

const struct uct_workload_def uct_wl_skl_idle = {
	"idle", "skl", "every core in C6 but for the OS's timer tick (1 %)", N(idle), idle
};
