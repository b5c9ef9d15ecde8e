#!/usr/bin/env python3
"""uncore_invariants_test.py UNCORE PLATFORM - the uncore counters follow
the activity, within physics, read through the driver (docs/invariants.md,
"The uncore's invariants").

Every built-in workload and every `trace gen` kind of snbep or ivt runs
under `uncore stat` (the driver programs the boxes' counters and reads
them, as on a real machine; nothing here asks the model what it fed), and
the counts, summed over the boxes of a type and the sockets, must obey a
table of invariants whose limits come from the uncore guides and the parts'
datasheets, restated here:

- DRAM: 64 bytes a CAS (a DDR3 BL8 burst), 4 channels x MT/s x 8 bytes a
  socket: DDR3-1600 (E5-2680 datasheet), DDR3-1866 (E5-2697 v2).
- PCU (guide 2.6): the occupancy sub-counters count the cores in C0, C3 and
  C6 each pclk, so they sum to the socket's cores a pclk (8, 12); the band
  events count the cycles the uncore runs at or above the filter's
  frequency (100 MHz units, Table 2-77): the uncore runs at 2.7 GHz, so a
  band of 1.2 or 2.7 GHz counts every pclk and one of 2.8 GHz none.
- CBo (guide 2.3): at most one LLC lookup a uclk on each CBo; the cores'
  data reads at most what their line fill buffers hold over an LLC hit's
  time (Optimization Reference Manual: 10 a core, 26 cycles); every DRAM
  read is the fill of a lookup that missed, so data-read lookups are at
  least the CAS reads (summed over both sockets: the other socket's reads
  of this one's memory are looked up there).
- QPI (guide 2.7.6, 2.7.7): 2 flits a qfclk each way in L0, half in L0p,
  none in L1; idle flits are what data and non-data flits leave; every SNP,
  HOM, NDR, NCS and header flit is a non-data flit; a 64-byte line is 8 data
  flits and a header flit.
- iMC (guide 2.5.8): each dclk a rank's CKE is on (POWER_CKE_CYCLES) or off;
  a CAS needs it on, so cycles with CKE off plus CAS commands are at most
  the dclks; a channel with CKE off is in power-down (POWER_CHANNEL_PPD) or
  self-refresh, so CKE-on, PPD and self-refresh cycles add up to the dclks.
"""
import os
import subprocess

from ct_py import CASE, UNCORE, fail, main, workdir

WORK = workdir("uncore-uinv-")
PLAT = {"snbep": dict(cores=8, dram=4 * 1600e6 * 8, tx_idle=True),
        "ivt": dict(cores=12, dram=4 * 1866.67e6 * 8, tx_idle=False)}
SOCKETS = 2
PCLK_HZ = 800e6   # the PCU's fixed clock (guide 2.6.7, CLOCKTICKS)
# Optimization Reference Manual, Sandy Bridge (Ivy Bridge alike): 10 L1D
# line fill buffers a core; an LLC hit takes at least 26 core cycles (2.7 GHz)
LFB, LLC_HIT_S = 10, 26 / 2.7e9
SECONDS = {"workload": 0.2, "trace": 0.02}
WORKLOADS = ("idle", "stream", "mixed")
KINDS = ("stream", "llc", "burst", "idle", "qpi", "cstate")
TOL = 0.005   # the last slice of a run, the jitter of phase changes

# the events a run counts, at most 4 a box type (each box has 4 counters;
# LLC_LOOKUP only on a CBo's counters 0 and 1, Table 2-14):
# the same source counted twice runs the same machine (same seed)
GROUPS = [
    ["UNC_P_CLOCKTICKS", "UNC_P_POWER_STATE_OCCUPANCY.CORES_C0", "UNC_P_POWER_STATE_OCCUPANCY.CORES_C3",
     "UNC_P_POWER_STATE_OCCUPANCY.CORES_C6",
     "UNC_M_DCLOCKTICKS", "UNC_M_CAS_COUNT.ALL", "UNC_M_CAS_COUNT.RD",
     "imc/event=0x83,umask=0x1,inv,thresh=1/",
     "UNC_C_LLC_LOOKUP.DATA_READ", "UNC_C_LLC_LOOKUP.WRITE",
     "UNC_Q_CLOCKTICKS", "UNC_Q_RxL_FLITS_G0.IDLE", "UNC_Q_RxL_FLITS_G0.DATA", "UNC_Q_RxL_FLITS_G0.NON_DATA"],
    ["pcu/FREQ_BAND0_CYCLES,filter_band0=12/", "pcu/FREQ_BAND1_CYCLES,filter_band1=27/",
     "pcu/FREQ_BAND2_CYCLES,filter_band2=28/",
     "UNC_M_POWER_CKE_CYCLES.RANK0", "UNC_M_POWER_CHANNEL_PPD", "UNC_M_POWER_SELF_REFRESH",
     "UNC_Q_L1_POWER_CYCLES", "UNC_Q_RxL0P_POWER_CYCLES", "UNC_Q_TxL0P_POWER_CYCLES",
     "UNC_Q_TxL_FLITS_G0.DATA", "UNC_C_LLC_LOOKUP.REMOTE_SNOOP", "UNC_C_CLOCKTICKS"],
    ["UNC_Q_TxL_FLITS_G0.NON_DATA", "UNC_Q_TxL_FLITS_G1.SNP", "UNC_Q_TxL_FLITS_G1.HOM",
     "UNC_Q_TxL_FLITS_G1.DRS_NONDATA"],
    ["UNC_Q_TxL_FLITS_G2.NDR_AD", "UNC_Q_TxL_FLITS_G2.NDR_AK", "UNC_Q_TxL_FLITS_G2.NCB_NONDATA",
     "UNC_Q_TxL_FLITS_G2.NCS"],
    ["UNC_Q_RxL_FLITS_G1.SNP", "UNC_Q_RxL_FLITS_G1.HOM", "UNC_Q_RxL_FLITS_G1.DRS_NONDATA",
     "UNC_Q_RxL_FLITS_G1.DRS_DATA"],
    ["UNC_Q_RxL_FLITS_G2.NDR_AD", "UNC_Q_RxL_FLITS_G2.NDR_AK", "UNC_Q_RxL_FLITS_G2.NCB_NONDATA",
     "UNC_Q_RxL_FLITS_G2.NCS"],
    ["UNC_Q_TxL_FLITS_G1.DRS_DATA", "UNC_Q_TxL_FLITS_G0.IDLE"],
]


def stat(src, seconds, events):
    p = subprocess.run([UNCORE, "stat", "--platform", CASE] + src +
                       ["--duration", str(seconds), "-x", ",", "-e", ",".join(events)],
                       capture_output=True, text=True, timeout=600)
    if p.returncode:
        fail(f"uncore stat {' '.join(src)}: exit {p.returncode}: {p.stderr.strip()}")
        return None
    rows = [l for l in p.stdout.splitlines() if l and not l.startswith("#")]
    if len(rows) != len(events):
        fail(f"uncore stat {' '.join(src)}: {len(rows)} counts for {len(events)} events")
        return None
    return {e: float(r.split(",")[0]) for e, r in zip(events, rows)}


def counts(src, seconds):
    c = {}
    for g in GROUPS:
        if not PLAT[CASE]["tx_idle"]:
            g = [e for e in g if e != "UNC_Q_TxL_FLITS_G0.IDLE"]
        got = stat(src, seconds, g)
        if got is None:
            return None
        c.update(got)
    return c


def check(what, c, secs):
    p = PLAT[CASE]
    checked = 0

    def want(ok, name, detail):
        nonlocal checked
        checked += 1
        if not ok:
            fail(f"{what}: {name}: {detail}")

    # the clocks while the source runs: a trace's replay counts on for a
    # moment after its end, with nothing fed (the PCU: one box a socket)
    run = min(1.0, PCLK_HZ * secs * SOCKETS / c["UNC_P_CLOCKTICKS"])
    pclk, dclk, uclk, qclk = (c["UNC_P_CLOCKTICKS"] * run, c["UNC_M_DCLOCKTICKS"] * run,
                              c["UNC_C_CLOCKTICKS"] * run, c["UNC_Q_CLOCKTICKS"] * run)
    # DRAM within the channels' peak
    bw = c["UNC_M_CAS_COUNT.ALL"] * 64 / secs / SOCKETS
    want(bw <= p["dram"] * (1 + TOL), "DRAM bandwidth", f"{bw / 1e9:.2f} GB/s a socket, peak {p['dram'] / 1e9:.2f}")
    # C-states: the cores of each socket, each pclk
    occ = sum(c[f"UNC_P_POWER_STATE_OCCUPANCY.CORES_C{k}"] for k in (0, 3, 6))
    want(abs(occ - p["cores"] * pclk) <= TOL * p["cores"] * pclk, "C0 + C3 + C6 = 100 % of the cores",
         f"{100 * occ / (p['cores'] * pclk):.2f} %")
    # frequency bands at the uncore's 2.7 GHz
    for ev, lo, hi in (("pcu/FREQ_BAND0_CYCLES,filter_band0=12/", 1, 1),
                       ("pcu/FREQ_BAND1_CYCLES,filter_band1=27/", 1, 1),
                       ("pcu/FREQ_BAND2_CYCLES,filter_band2=28/", 0, 0)):
        r = c[ev] / pclk
        want(lo - TOL <= r <= hi + TOL, f"{ev} at 2.7 GHz", f"{100 * r:.2f} % of the pclks, want {100 * lo} %")
    # LLC lookups
    look = sum(c[f"UNC_C_LLC_LOOKUP.{u}"] for u in ("DATA_READ", "WRITE", "REMOTE_SNOOP"))
    want(look <= uclk * (1 + TOL), "lookups <= 1 a uclk a CBo", f"{look / uclk:.3f} a cycle")
    # the cores' reads: each core in C0 keeps at most LFB lines in flight, for
    # at least an LLC hit's time
    c0s = c["UNC_P_POWER_STATE_OCCUPANCY.CORES_C0"] / PCLK_HZ
    most = c0s * LFB / LLC_HIT_S
    want(c["UNC_C_LLC_LOOKUP.DATA_READ"] <= most * (1 + TOL), "data-read lookups within the cores' fill buffers",
         f"{c['UNC_C_LLC_LOOKUP.DATA_READ'] / secs / 1e9:.2f}e9 a second, {c0s / secs:.2f} cores in C0 "
         f"ask for at most {most / secs / 1e9:.2f}e9")
    want(c["UNC_C_LLC_LOOKUP.DATA_READ"] >= c["UNC_M_CAS_COUNT.RD"] * (1 - TOL), "data-read lookups >= DRAM reads",
         f"{c['UNC_C_LLC_LOOKUP.DATA_READ']:.0f} < {c['UNC_M_CAS_COUNT.RD']:.0f}")
    # QPI: each direction's flits are the link's, idle the rest
    l1 = c["UNC_Q_L1_POWER_CYCLES"]
    for d in ("Rx", "Tx"):
        used = c[f"UNC_Q_{d}L_FLITS_G0.DATA"] + c[f"UNC_Q_{d}L_FLITS_G0.NON_DATA"]
        cap = 2 * (qclk - l1) - c[f"UNC_Q_{d}L0P_POWER_CYCLES"]
        want(used <= cap * (1 + TOL) + 1, f"{d} flits within 2 a qfclk", f"{used:.0f} > {cap:.0f}")
        if d == "Rx" or p["tx_idle"]:
            tot = used + c[f"UNC_Q_{d}L_FLITS_G0.IDLE"]
            want(abs(tot - cap) <= TOL * 2 * qclk, f"{d} idle flits are the rest of the link",
                 f"data + non-data + idle {tot:.0f}, the link {cap:.0f}")
        proto = sum(c[f"UNC_Q_{d}L_FLITS_{e}"] for e in ("G1.SNP", "G1.HOM", "G1.DRS_NONDATA", "G2.NDR_AD",
                                                        "G2.NDR_AK", "G2.NCB_NONDATA", "G2.NCS"))
        want(c[f"UNC_Q_{d}L_FLITS_G0.NON_DATA"] >= proto * (1 - TOL), f"{d} non-data flits >= protocol flits",
             f"{c[f'UNC_Q_{d}L_FLITS_G0.NON_DATA']:.0f} < {proto:.0f}")
        want(c[f"UNC_Q_{d}L_FLITS_G1.DRS_NONDATA"] >= c[f"UNC_Q_{d}L_FLITS_G1.DRS_DATA"] / 8 * (1 - TOL),
             f"{d} a header flit a data packet", f"DRS non-data {c[f'UNC_Q_{d}L_FLITS_G1.DRS_NONDATA']:.0f}, "
             f"data {c[f'UNC_Q_{d}L_FLITS_G1.DRS_DATA']:.0f}")
    # iMC: CKE off never with a CAS; CKE on, power-down or self-refresh
    off = c["imc/event=0x83,umask=0x1,inv,thresh=1/"]
    # (all the dclks counted: CKE is off after a trace's end too)
    alld = c["UNC_M_DCLOCKTICKS"]
    want(off + c["UNC_M_CAS_COUNT.ALL"] <= alld * (1 + TOL), "CKE-off + CAS <= dclks",
         f"{100 * off / alld:.2f} % + {100 * c['UNC_M_CAS_COUNT.ALL'] / alld:.2f} %")
    acc = c["UNC_M_POWER_CKE_CYCLES.RANK0"] + c["UNC_M_POWER_CHANNEL_PPD"] + c["UNC_M_POWER_SELF_REFRESH"]
    want(abs(acc - dclk) <= TOL * dclk, "CKE on + power-down + self-refresh = dclks",
         f"{100 * acc / dclk:.2f} %")
    print(f"{what}: {checked} checks; DRAM {bw / 1e9:.2f} GB/s a socket, C0 "
          f"{100 * c['UNC_P_POWER_STATE_OCCUPANCY.CORES_C0'] / (p['cores'] * pclk):.1f} %, "
          f"{look / uclk:.3f} lookups a uclk a CBo, Rx link {100 * (c['UNC_Q_RxL_FLITS_G0.DATA'] + c['UNC_Q_RxL_FLITS_G0.NON_DATA']) / (2 * qclk):.1f} % used, "
          f"CKE off {100 * off / alld:.1f} %, PPD {100 * c['UNC_M_POWER_CHANNEL_PPD'] / dclk:.1f} %")


def run():
    for w in WORKLOADS:
        c = counts(["--workload", w], SECONDS["workload"])
        if c:
            check(f"{CASE} workload {w}", c, SECONDS["workload"])
    for k in KINDS:
        t = os.path.join(WORK, f"{k}.uct")
        p = subprocess.run([UNCORE, "trace", "gen", k, "--platform", CASE, "--duration", str(SECONDS["trace"]),
                            "-o", t], capture_output=True, text=True, timeout=600)
        if p.returncode:
            fail(f"trace gen {k}: exit {p.returncode}: {p.stderr.strip()}")
            continue
        c = counts(["--trace", t], SECONDS["trace"])
        if c:
            check(f"{CASE} trace gen {k}", c, SECONDS["trace"])


if __name__ == "__main__":
    main({"snbep": run, "ivt": run})
