/*
 * uct_wl_snbep.c - built-in Xeon E5-2600 (Sandy Bridge-EP) workloads as
 * phase tables, on every socket.
 *
 * "mixed" approximates a two-socket server: LLC hits, memory read bursts
 * with some remote (QPI) traffic, writebacks, cross-socket snoops, cores
 * going to C3/C6 and idle time.  Increments are per cycle of each box's
 * own clock (uclk for CBo/HA/R2PCIe/R3QPI, dclk for the iMC, pclk for the
 * PCU, qclk for QPI) and stay within each event's maximum (guide 2.x event
 * tables): CAS_COUNT is one CAS per dclk per channel, so a burst at full
 * rate on four channels is 4 x 64 B x 800 MHz = 204.8 GB/s per socket and
 * the phase mix brings the average down to a plausible few tens of GB/s.
 * POWER_STATE_OCCUPANCY counts cores, 8 per socket, split over C0/C3/C6.
 */
#include "uct.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* all eight cores busy, no C-state residency */
#define CORES_BUSY { "pcu", 0, "POWER_STATE_OCCUPANCY.CORES_C0", 8 }
/* what the cores in C0 retire: IPC x 100 for each of the n cores
 * (model/ucm_cores.h; at most the issue width of 4, Intel's Optimization
 * Reference Manual); each phase's IPC with its reason, docs/invariants.md */
#define IPC(n, ipc) { "cores", 0, "INST_RETIRED", (n) * (ipc) }

static const struct uct_input hit[] = {
	{ "cbo", -1, "LLC_LOOKUP.DATA_READ_E", 1 },
	{ "cbo", -1, "TOR_INSERTS.DRd_HIT", 1 },
	{ "cbo", -1, "TOR_OCCUPANCY.DRd_HIT", 3 },
	{ "cbo", -1, "RING_AD_USED.UP_EVEN", 1 },
	{ "cbo", -1, "RING_BL_USED.DOWN_ODD", 1 },
	{ "qpi", -1, "TxL_FLITS_G0.IDLE", 2 },
	{ "qpi", -1, "RxL_FLITS_G0.IDLE", 2 },
	{ "ubox", 0, "EVENT_MSG.IPI_RCVD", 1 },
	CORES_BUSY,
	IPC(8, 150), /* a loop on LLC-resident data: L2 misses that hit the LLC in about 30 cycles, mostly overlapped */
};
/* the cores at work in their own caches: no LLC traffic.  A hit phase looks
 * up a line a uclk on every CBo, more than the cores' line fill buffers
 * can ask for in an LLC hit's time (docs/invariants.md); with this phase
 * between, mixed's lookups stay within what its cores in C0 issue. */
static const struct uct_input compute[] = {
	CORES_BUSY,
	IPC(8, 200), /* work on data in the core's own caches: no LLC traffic, half the issue width */
};
static const struct uct_input stream[] = {
	{ "cbo", -1, "LLC_LOOKUP.DATA_READ_I", 1 },
	{ "cbo", -1, "TOR_INSERTS.DRd_MISS", 1 },
	{ "cbo", -1, "TOR_OCCUPANCY.DRd_MISS", 12 },
	{ "cbo", -1, "RING_BL_USED.UP_EVEN", 1 },
	{ "ha", 0, "REQUESTS.READS", 1 },
	{ "ha", 0, "TRACKER_INSERTS.ALL", 1 },
	{ "ha", 0, "TxR_BL.DRS_CORE", 1 },
	{ "imc", -1, "CAS_COUNT.RD_REG", 1 },
	{ "imc", -1, "RPQ_INSERTS", 1 },
	{ "imc", -1, "RPQ_OCCUPANCY", 10 },
	{ "imc", -1, "RPQ_CYCLES_NE", 1 },
	{ "imc", 0, "ACT_COUNT", 1 },
	{ "imc", 1, "PRE_COUNT.PAGE_MISS", 1 },
	{ "imc", -1, "MAJOR_MODES.READ", 1 },
	/* a data flit a qclk each way: with its packets' header flits
	 * (derived, uct_derive.c) the link's 2 flits a qclk are full */
	{ "qpi", -1, "TxL_FLITS_G0.DATA", 1 },
	{ "qpi", -1, "RxL_FLITS_G0.DATA", 1 },
	{ "qpi", -1, "TxL_FLITS_G1.DRS_DATA", 1 },
	{ "qpi", -1, "RxL_FLITS_G1.DRS_DATA", 1 },
	{ "r3qpi", -1, "RxR_INSERTS.DRS", 1 },
	{ "r3qpi", -1, "RING_BL_USED.CW_EVEN", 1 },
	{ "r2pcie", 0, "RING_AD_USED.CW_ODD", 1 },
	CORES_BUSY,
	IPC(8, 50), /* memory-bound streaming: each core waits on DRAM with its 10 line fill buffers full */
};
static const struct uct_input writeback[] = {
	{ "cbo", -1, "LLC_LOOKUP.WRITE_M", 1 },
	{ "cbo", -1, "LLC_VICTIMS.M_STATE", 1 },
	{ "cbo", -1, "TOR_INSERTS.WbMtoI_HIT", 1 },
	{ "ha", 0, "REQUESTS.WRITES", 1 },
	{ "ha", 0, "IMC_WRITES.FULL", 1 },
	{ "imc", -1, "CAS_COUNT.WR_WMM", 1 },
	{ "imc", -1, "WPQ_INSERTS", 1 },
	{ "imc", -1, "WPQ_OCCUPANCY", 16 },
	{ "imc", -1, "MAJOR_MODES.WRITE", 1 },
	{ "qpi", -1, "TxL_FLITS_G1.HOM_REQ", 1 },
	CORES_BUSY,
	IPC(8, 50), /* the write half of the same streaming loop */
};
static const struct uct_input snoop[] = {
	{ "cbo", -1, "LLC_LOOKUP.REMOTE_SNOOP_S", 1 },
	{ "cbo", -1, "RING_IV_USED.UP_ODD", 1 },
	{ "ha", 0, "DIRECTORY_LOOKUP.SNP", 1 },
	{ "ha", 0, "TxR_AD.SNP", 1 },
	{ "qpi", -1, "TxL_FLITS_G1.SNP", 2 },
	{ "qpi", -1, "RxL_FLITS_G1.SNP", 2 },
	{ "r3qpi", -1, "RxR_INSERTS.SNP", 1 },
	{ "r3qpi", -1, "RING_AD_USED.CCW_EVEN", 1 },
	CORES_BUSY,
	IPC(8, 100), /* data shared with the other socket: remote snoops stall some loads */
};
/* half the cores asleep: 4 in C0, 1 in C3, 3 in C6 */
static const struct uct_input cstates[] = {
	{ "cbo", 0, "LLC_LOOKUP.DATA_READ_S", 1 },
	{ "pcu", 0, "POWER_STATE_OCCUPANCY.CORES_C0", 4 },
	{ "pcu", 0, "POWER_STATE_OCCUPANCY.CORES_C3", 1 },
	{ "pcu", 0, "POWER_STATE_OCCUPANCY.CORES_C6", 3 },
	{ "pcu", 0, "DEMOTIONS_CORE1", 1 },
	{ "qpi", -1, "TxL0P_POWER_CYCLES", 1 },
	IPC(4, 100), /* the awake cores run ordinary server code */
};
/* the whole package in C6 (its QPI links in L1: derived, trace/uct_derive.c) */
static const struct uct_input deep[] = {
	{ "pcu", 0, "POWER_STATE_OCCUPANCY.CORES_C6", 8 },
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

const struct uct_workload_def uct_wl_snbep_mixed = {
	"mixed", "snbep",
	"LLC hits, memory read bursts with QPI traffic, writebacks, snoops, C3/C6 residency",
	N(mixed), mixed
};

/* waiting on DRAM: reads outstanding in the TOR and the read queues, none
 * new (the channels are busy with the bursts before) */
static const struct uct_input stall[] = {
	{ "cbo", -1, "TOR_OCCUPANCY.DRd_MISS", 12 },
	{ "imc", -1, "RPQ_OCCUPANCY", 10 },
	{ "imc", -1, "RPQ_CYCLES_NE", 1 },
	CORES_BUSY,
	IPC(8, 20), /* waiting on DRAM: little retires until the outstanding reads return */
};

/* A stream phase issues a CAS every dclk on every channel box, four times
 * what a DDR3 channel carries (a BL8 burst holds its bus 4 dclk): the
 * stalls between keep the average within the part's DRAM bandwidth
 * (snbep_limits, docs/platform-snbep.md "Physical limits"): 4 channel boxes at 51.2 GB/s
 * each for 2.7 of 12.7 us, 43.5 GB/s of the 51.2. */
static const struct uct_phase streaming[] = {
	{ "stream", 2000, N(stream), stream },
	{ "stall", 5000, N(stall), stall },
	{ "writeback", 700, N(writeback), writeback },
	{ "stall", 5000, N(stall), stall },
};

const struct uct_workload_def uct_wl_snbep_stream = {
	"stream", "snbep", "memory streaming on every channel: DRAM reads and writebacks",
	N(streaming), streaming
};

/* an idle OS: its timer tick wakes every core for 1 % of the time (a
 * core's counters then move, as turbostat and PCM need to tell C0 from C6) */
/* the tick's kernel code runs on cold caches: IPC 0.5 */
static const struct uct_input tick[] = { CORES_BUSY, IPC(8, 50) };
static const struct uct_phase idle[] = { { "deep", 99000, N(deep), deep }, { "tick", 1000, N(tick), tick } };

const struct uct_workload_def uct_wl_snbep_idle = {
	"idle", "snbep", "every core in C6 but for the OS's timer tick (1 %), links in L1, memory in self-refresh", N(idle), idle
};
