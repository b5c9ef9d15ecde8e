/*
 * uct_wl_ivt.c - built-in Xeon E5-2600 v2 (Ivy Bridge-EP) workloads as
 * phase tables, on every socket: the E5-2600's mixed, stream and idle
 * (uct_wl_snbep.c) in the v2's event names (Intel's v2 list), with 12
 * cores.  Increments are per cycle of each box's own clock and within each
 * event's maximum: a CAS per dclk per channel at most, two flits per QPI
 * cycle, twelve cores split over C0/C3/C6.  The line state of an LLC
 * lookup is its input (DATA_READ_E ...); TOR inserts are inputs by the
 * umask value Intel names them with (MISS_LOCAL, ...; docs/platform-ivt.md).
 */
#include "uct.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* all twelve cores busy, no C-state residency */
#define CORES_BUSY { "pcu", 0, "POWER_STATE_OCCUPANCY.CORES_C0", 12 }
/* what the cores in C0 retire: IPC x 100 for each of the n cores
 * (model/ucm_cores.h; at most the issue width of 4, Intel's Optimization
 * Reference Manual); each phase's IPC with its reason, docs/invariants.md */
#define IPC(n, ipc) { "cores", 0, "INST_RETIRED", (n) * (ipc) }

static const struct uct_input hit[] = {
	{ "cbo", -1, "LLC_LOOKUP.DATA_READ_E", 1 },
	{ "cbo", -1, "TOR_INSERTS.LOCAL", 1 },
	{ "cbo", -1, "TOR_OCCUPANCY.LOCAL", 3 },
	{ "cbo", -1, "RING_AD_USED.UP_VR0_EVEN", 1 },
	{ "cbo", -1, "RING_BL_USED.DOWN_VR0_ODD", 1 },
	{ "qpi", -1, "RxL_FLITS_G0.IDLE", 2 },
	{ "ubox", 0, "EVENT_MSG.IPI_RCVD", 1 },
	{ "irp", 0, "TRANSACTIONS.READS", 1 },
	CORES_BUSY,
	IPC(12, 150), /* a loop on LLC-resident data: L2 misses that hit the LLC in about 30 cycles, mostly overlapped */
};
/* the cores at work in their own caches: no LLC traffic.  A hit phase looks
 * up a line a uclk on every CBo, more than the cores' line fill buffers
 * can ask for in an LLC hit's time (docs/invariants.md); with this phase
 * between, mixed's lookups stay within what its cores in C0 issue. */
static const struct uct_input compute[] = {
	CORES_BUSY,
	IPC(12, 200), /* work on data in the core's own caches: no LLC traffic, half the issue width */
};
static const struct uct_input stream[] = {
	{ "cbo", -1, "LLC_LOOKUP.DATA_READ_I", 1 },
	{ "cbo", -1, "TOR_INSERTS.MISS_LOCAL", 1 },
	{ "cbo", -1, "TOR_OCCUPANCY.MISS_LOCAL", 12 },
	{ "cbo", -1, "RING_BL_USED.UP_VR0_EVEN", 1 },
	{ "ha", -1, "REQUESTS.READS_LOCAL", 1 },
	{ "ha", -1, "IMC_READS.NORMAL", 1 },
	{ "ha", -1, "TxR_BL.DRS_CORE", 1 },
	{ "imc", -1, "CAS_COUNT.RD_REG", 1 },
	{ "imc", -1, "RPQ_INSERTS", 1 },
	{ "imc", -1, "RPQ_CYCLES_NE", 1 },
	{ "imc", -1, "ACT_COUNT.RD", 1 },
	{ "imc", -1, "PRE_COUNT.PAGE_MISS", 1 },
	{ "imc", -1, "MAJOR_MODES.READ", 1 },
	/* a data flit a qclk each way: with its packets' header flits
	 * (derived, uct_derive.c) the link's 2 flits a qclk are full */
	{ "qpi", -1, "TxL_FLITS_G0.DATA", 1 },
	{ "qpi", -1, "RxL_FLITS_G0.DATA", 1 },
	{ "qpi", -1, "TxL_FLITS_G1.DRS_DATA", 1 },
	{ "qpi", -1, "RxL_FLITS_G1.DRS_DATA", 1 },
	{ "r3qpi", -1, "RxR_INSERTS.DRS", 1 },
	{ "r3qpi", -1, "RING_BL_USED.CW_VR0_EVEN", 1 },
	{ "r2pcie", 0, "RING_AD_USED.CW_VR0_ODD", 1 },
	CORES_BUSY,
	IPC(12, 50), /* memory-bound streaming: each core waits on DRAM with its 10 line fill buffers full */
};
static const struct uct_input writeback[] = {
	{ "cbo", -1, "LLC_LOOKUP.WRITE_M", 1 },
	{ "cbo", -1, "LLC_VICTIMS.M_STATE", 1 },
	{ "cbo", -1, "TOR_INSERTS.WB", 1 },
	{ "ha", -1, "REQUESTS.WRITES_LOCAL", 1 },
	{ "ha", -1, "IMC_WRITES.FULL", 1 },
	{ "imc", -1, "CAS_COUNT.WR_WMM", 1 },
	{ "imc", -1, "WPQ_INSERTS", 1 },
	{ "imc", -1, "MAJOR_MODES.WRITE", 1 },
	{ "qpi", -1, "TxL_FLITS_G1.HOM_REQ", 1 },
	CORES_BUSY,
	IPC(12, 50), /* the write half of the same streaming loop */
};
static const struct uct_input snoop[] = {
	{ "cbo", -1, "LLC_LOOKUP.REMOTE_SNOOP_S", 1 },
	{ "cbo", -1, "RING_IV_USED.ANY_BIT0", 1 },
	{ "ha", -1, "REQUESTS.READS_REMOTE", 1 },
	{ "qpi", -1, "TxL_FLITS_G1.SNP", 2 },
	{ "qpi", -1, "RxL_FLITS_G1.SNP", 2 },
	{ "r3qpi", -1, "RxR_INSERTS.SNP", 1 },
	{ "r3qpi", -1, "RING_AD_USED.CCW_VR0_EVEN", 1 },
	CORES_BUSY,
	IPC(12, 100), /* data shared with the other socket: remote snoops stall some loads */
};
/* half the cores asleep: 6 in C0, 2 in C3, 4 in C6 */
static const struct uct_input cstates[] = {
	{ "cbo", 0, "LLC_LOOKUP.DATA_READ_S", 1 },
	{ "pcu", 0, "POWER_STATE_OCCUPANCY.CORES_C0", 6 },
	{ "pcu", 0, "POWER_STATE_OCCUPANCY.CORES_C3", 2 },
	{ "pcu", 0, "POWER_STATE_OCCUPANCY.CORES_C6", 4 },
	{ "qpi", -1, "TxL0P_POWER_CYCLES", 1 },
	IPC(6, 100), /* the awake cores run ordinary server code */
};
/* the whole package in C6 (its QPI links in L1: derived, trace/uct_derive.c) */
static const struct uct_input deep[] = {
	{ "pcu", 0, "POWER_STATE_OCCUPANCY.CORES_C6", 12 },
	{ "imc", -1, "POWER_SELF_REFRESH", 1 },
};

static const struct uct_phase mixed[] = {
	{ "hit", 15000, N(hit), hit },
	{ "compute", 35000, N(compute), compute },
	{ "stream", 8000, N(stream), stream },
	{ "writeback", 3000, N(writeback), writeback },
	{ "snoop", 3000, N(snoop), snoop },
	{ "cstates", 16000, N(cstates), cstates },
	{ "deep", 20000, N(deep), deep },
};

const struct uct_workload_def uct_wl_ivt_mixed = {
	"mixed", "ivt",
	"LLC hits, memory read bursts with QPI traffic, writebacks, snoops, C3/C6 residency",
	N(mixed), mixed
};

/* waiting on DRAM: reads outstanding in the TOR and the read queues, none
 * new (the channels are busy with the bursts before) */
static const struct uct_input stall[] = {
	{ "cbo", -1, "TOR_OCCUPANCY.MISS_LOCAL", 12 },
	{ "imc", -1, "RPQ_CYCLES_NE", 1 },
	CORES_BUSY,
	IPC(12, 20), /* waiting on DRAM: little retires until the outstanding reads return */
};

/* A stream phase issues a CAS every dclk on every channel box, four times
 * what a DDR3 channel carries (a BL8 burst holds its bus 4 dclk): the
 * stalls between keep the average within the part's DRAM bandwidth
 * (ivt_limits, docs/platform-ivt.md "Physical limits"): 8 channel boxes at 59.7 GB/s
 * each for 1.4 of 13.4 us, 49.9 GB/s of the 59.7. */
static const struct uct_phase streaming[] = {
	{ "stream", 1000, N(stream), stream },
	{ "stall", 6000, N(stall), stall },
	{ "writeback", 400, N(writeback), writeback },
	{ "stall", 6000, N(stall), stall },
};

const struct uct_workload_def uct_wl_ivt_stream = {
	"stream", "ivt", "memory streaming on every channel: DRAM reads and writebacks",
	N(streaming), streaming
};

/* an idle OS: its timer tick wakes every core for 1 % of the time (a
 * core's counters then move, as turbostat and PCM need to tell C0 from C6) */
/* the tick's kernel code runs on cold caches: IPC 0.5 */
static const struct uct_input tick[] = { CORES_BUSY, IPC(12, 50) };
static const struct uct_phase idle[] = { { "deep", 99000, N(deep), deep }, { "tick", 1000, N(tick), tick } };

const struct uct_workload_def uct_wl_ivt_idle = {
	"idle", "ivt", "every core in C6 but for the OS's timer tick (1 %), links in L1, memory in self-refresh", N(idle), idle
};
