#!/usr/bin/env python3
"""uncore_invariants_test.py UNCORE PLATFORM - the uncore counters follow
the activity, within physics, read through the driver (docs/invariants.md,
"The uncore's invariants").

Every built-in workload and every `trace gen` kind of the platform runs
under `uncore stat` (the driver programs the boxes' counters and reads
them, as on a real machine; nothing here asks the model what it fed).  Each
event is counted on each box instance (`cbo3/LLC_LOOKUP.DATA_READ/`) of
each socket (`--per-socket`), and the counts must obey a table of
invariants on every box as well as summed over the boxes and the sockets:
an invariant that holds on the sum can be broken by one box.  The limits
come from the uncore manuals and the parts' datasheets, restated here.

snbep and ivt:
- DRAM: 64 bytes a CAS (a DDR3 BL8 burst), MT/s x 8 bytes a channel, 4
  channels a socket: DDR3-1600 (E5-2680 datasheet), DDR3-1866 (E5-2697 v2).
- PCU (guide 2.6): the occupancy sub-counters count the cores in C0, C3 and
  C6 each pclk, so they sum to the socket's cores a pclk (8, 12); the band
  events count the cycles the uncore runs at or above the filter's
  frequency (100 MHz units, Table 2-77): the uncore runs at 2.7 GHz, so a
  band of 1.2 or 2.7 GHz counts every pclk and one of 2.8 GHz none.
- CBo (guide 2.3): at most one LLC lookup a uclk on each CBo; a socket's
  data reads at most what its cores' line fill buffers hold over an LLC
  hit's time (Optimization Reference Manual: 10 a core, 26 cycles); every
  DRAM read is the fill of a lookup that missed, so data-read lookups are
  at least the CAS reads (summed over both sockets: the other socket's
  reads of this one's memory are looked up there).
- QPI (guide 2.7.6, 2.7.7), each link: 2 flits a qfclk each way in L0, half
  in L0p, none in L1; idle flits are what data and non-data flits leave;
  every SNP, HOM, NDR, NCS and header flit is a non-data flit; a 64-byte
  line is 8 data flits and a header flit.
- iMC (guide 2.5.8), each channel: each dclk a rank's CKE is on
  (POWER_CKE_CYCLES) or off; a CAS needs it on, so cycles with CKE off plus
  CAS commands are at most the dclks; a channel with CKE off is in
  power-down (POWER_CHANNEL_PPD) or self-refresh, so CKE-on, PPD and
  self-refresh cycles add up to the dclks.

A control shows the per-box checks see what the sums cannot: a
hand-written trace drives one channel at twice its peak while its socket's
sum stays within the socket's; the bandwidth check must fail on that
channel alone.

skl (6th Generation Intel Core uncore manual 331051; docs/platform-skl.md):
- CBo: at most one lookup a uclk on each CBo (CACHE_LOOKUP's maximum
  increment, the model's decision in platform-skl.md "Physical limits").
- DRAM: DRAM_DATA_READS + DRAM_DATA_WRITES are 64-byte transfers (Table
  3-3), two channels of DDR4-2133 x 8 bytes (the part's datasheet, 332687
  Vol. 1, System Memory Interface).
- Requests (Table 3-3): every RdCAS and WrCAS serves a request that the GT,
  IA or IO counter counted (partial writes to one line are several
  requests and one transfer), so GT + IA + IO requests >= reads + writes.
- The IA's DRAM reads (the reads less every GT and IO request) are LLC
  read lookups that missed: CACHE_LOOKUP.READ_I summed over the CBos is at
  least that. The L3 of the Core i3/i5/i7 families is inclusive (SDM
  Vol. 3A 11.1; only the Xeon Scalable parts' is not), so a read that
  misses it is in no core's cache and reads DRAM: READ_I is at most
  DRAM_DATA_READS.
- The ARB's trackers carry every DRAM request (platform-skl.md D17; Intel's
  DRAM_BW_Use metric is 64 B x (TRK_REQUESTS.ALL + COH_TRK_REQUESTS.ALL)),
  so the two trackers' requests are the IMC's reads and writes; the cores'
  data reads the ARB sends to memory (TRK_REQUESTS umask 0x02, D16) are IA
  requests.
"""
import os
import re
import subprocess

from ct_py import CASE, UNCORE, fail, main, workdir

WORK = workdir("uncore-uinv-")
# box instances a socket: a CBo a core (the parts' specifications), four
# DDR3 channels, two QPI links (the datasheets)
PLAT = {"snbep": dict(cores=8, inst={"cbo": 8, "imc": 4, "qpi": 2, "pcu": 1}, chan=1600e6 * 8, tx_idle=True,
                      pkg=False),
        "ivt": dict(cores=12, inst={"cbo": 12, "imc": 4, "qpi": 2, "pcu": 1}, chan=1866.67e6 * 8, tx_idle=False,
                    pkg=True)}
SOCKETS = 2
PCLK_HZ = 800e6   # the PCU's fixed clock (guide 2.6.7, CLOCKTICKS)
# Optimization Reference Manual, Sandy Bridge (Ivy Bridge alike): 10 L1D
# line fill buffers a core; an LLC hit takes at least 26 core cycles (2.7 GHz)
LFB, LLC_HIT_S = 10, 26 / 2.7e9
SECONDS = {"workload": 0.2, "trace": 0.02}
WORKLOADS = ("idle", "stream", "mixed")
KINDS = ("stream", "llc", "burst", "idle", "qpi", "cstate")
TOL = 0.005   # the last slice of a run, the jitter of phase changes
BOX = {"UNC_C_": "cbo", "UNC_M_": "imc", "UNC_Q_": "qpi", "UNC_P_": "pcu"}

# the events a run counts, at most 4 a box (each box has 4 counters;
# LLC_LOOKUP only on a CBo's counters 0 and 1, Table 2-14): the same source
# counted twice runs the same machine (same seed)
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
# the v2's PCU counts the package's C-states itself (docs/platform-ivt.md)
PKG_GROUP = ["UNC_P_PKG_C_STATE_RESIDENCY_C3_CYCLES", "UNC_P_PKG_C_STATE_RESIDENCY_C6_CYCLES"]


def split(ev):
    """An event's box type and its name within the box."""
    if ev.startswith("UNC_"):
        return BOX[ev[:6]], ev[6:]
    box = ev.split("/")[0]
    return box, ev[len(box) + 1:-1]


def sanitizer(what, p):
    """A sanitized build's report fails the case, whatever the exit status."""
    if re.search(r"AddressSanitizer|LeakSanitizer|runtime error:", p.stderr):
        fail(f"{what}: sanitizer report:\n{p.stderr}")


def stat(src, seconds, specs, sockets):
    """Each spec's count on each socket, in the order given."""
    p = subprocess.run([UNCORE, "stat", "--platform", CASE] + src +
                       ["--duration", str(seconds), "--per-socket", "-x", ";", "-e", ",".join(specs)],
                       capture_output=True, text=True, timeout=600)
    sanitizer(f"uncore stat {' '.join(src)}", p)
    if p.returncode:
        fail(f"uncore stat {' '.join(src)}: exit {p.returncode}: {p.stderr.strip()}")
        return None
    rows = [l.split(";") for l in p.stdout.splitlines() if l and not l.startswith("#")]
    want = [(f"S{s}", e) for e in specs for s in range(sockets)]
    got = [(r[0], r[4]) for r in rows if len(r) > 4]
    if got != want:
        fail(f"uncore stat {' '.join(src)}: printed {got[:4]}..., want {want[:4]}... ({len(want)} rows)")
        return None
    return [float(r[2]) for r in rows]


def counts(src, seconds):
    """c[event][(socket, instance)]: each event on each box of each socket."""
    inst = PLAT[CASE]["inst"]
    c = {}
    for g in GROUPS + ([PKG_GROUP] if PLAT[CASE]["pkg"] else []):
        if not PLAT[CASE]["tx_idle"]:
            g = [e for e in g if e != "UNC_Q_TxL_FLITS_G0.IDLE"]
        specs, keys = [], []
        for e in g:
            box, name = split(e)
            for i in range(inst[box]):
                specs.append(f"{box}/{name}/" if inst[box] == 1 else f"{box}{i}/{name}/")
                keys += [(e, s, i) for s in range(SOCKETS)]
        got = stat(src, seconds, specs, SOCKETS)
        if got is None:
            return None
        for (e, s, i), v in zip(keys, got):
            c.setdefault(e, {})[(s, i)] = v
    return c


class Checks:
    """Counts the checks made and keeps the broken ones: (where, name,
    detail), where is a box (`S1 imc2`) or a sum (`all imc`)."""

    def __init__(self, what):
        self.what, self.n, self.bad = what, 0, []

    def want(self, ok, where, name, detail):
        self.n += 1
        if not ok:
            self.bad.append((where, name, detail))


def check(what, c, secs):
    p = PLAT[CASE]
    k = Checks(what)
    tot = {e: sum(v.values()) for e, v in c.items()}
    # the clocks while the source runs: a trace's replay counts on for a
    # moment after its end, with nothing fed (the PCU: one box a socket)
    run = min(1.0, PCLK_HZ * secs * SOCKETS / tot["UNC_P_CLOCKTICKS"])

    def scopes(box):
        """(where, boxes summed, count of an event there): each box of each
        socket, then all of them summed."""
        n = p["inst"][box]
        for s in range(SOCKETS):
            for i in range(n):
                yield f"S{s} {box}{i}" if n > 1 else f"S{s} {box}", 1, lambda e, s=s, i=i: c[e][(s, i)]
        yield f"all {box}", n * SOCKETS, lambda e: tot[e]

    # PCU: the C-states and the frequency bands of each socket
    for where, nb, g in scopes("pcu"):
        pclk = g("UNC_P_CLOCKTICKS") * run
        occ = sum(g(f"UNC_P_POWER_STATE_OCCUPANCY.CORES_C{x}") for x in (0, 3, 6))
        k.want(abs(occ - p["cores"] * pclk) <= TOL * p["cores"] * pclk, where,
               "C0 + C3 + C6 = 100 % of the cores", f"{100 * occ / (p['cores'] * pclk):.2f} %")
        for ev, want in (("pcu/FREQ_BAND0_CYCLES,filter_band0=12/", 1), ("pcu/FREQ_BAND1_CYCLES,filter_band1=27/", 1),
                         ("pcu/FREQ_BAND2_CYCLES,filter_band2=28/", 0)):
            r = g(ev) / pclk
            k.want(abs(r - want) <= TOL, where, f"{ev} at 2.7 GHz", f"{100 * r:.2f} % of the pclks, want {100 * want} %")
    # CBo: lookups a uclk on each CBo
    for where, nb, g in scopes("cbo"):
        uclk = g("UNC_C_CLOCKTICKS") * run
        look = sum(g(f"UNC_C_LLC_LOOKUP.{u}") for u in ("DATA_READ", "WRITE", "REMOTE_SNOOP"))
        k.want(look <= uclk * (1 + TOL), where, "lookups <= 1 a uclk a CBo", f"{look / uclk:.3f} a cycle")
    # the cores' reads: each core in C0 keeps at most LFB lines in flight,
    # for at least an LLC hit's time (a socket's CBos and its cores)
    for s in list(range(SOCKETS)) + [None]:
        sel = (lambda key: True) if s is None else (lambda key, s=s: key[0] == s)
        rd = sum(v for key, v in c["UNC_C_LLC_LOOKUP.DATA_READ"].items() if sel(key))
        c0s = sum(v for key, v in c["UNC_P_POWER_STATE_OCCUPANCY.CORES_C0"].items() if sel(key)) / PCLK_HZ
        most = c0s * LFB / LLC_HIT_S
        k.want(rd <= most * (1 + TOL), "all" if s is None else f"S{s}", "data-read lookups within the cores' fill buffers",
               f"{rd / secs / 1e9:.2f}e9 a second, {c0s / secs:.2f} cores in C0 ask for at most {most / secs / 1e9:.2f}e9")
    # every DRAM read is a lookup that missed, in either socket
    k.want(tot["UNC_C_LLC_LOOKUP.DATA_READ"] >= tot["UNC_M_CAS_COUNT.RD"] * (1 - TOL), "all", "data-read lookups >= DRAM reads",
           f"{tot['UNC_C_LLC_LOOKUP.DATA_READ']:.0f} < {tot['UNC_M_CAS_COUNT.RD']:.0f}")
    # QPI: a socket's links in L1 only while its package sleeps (every core
    # in C3 or C6: no more than the cores' mean share asleep), on the v2
    # (whose PCU counts the package's states) only while the package is in
    # C3 or C6, and then whenever no flit crosses (docs/invariants.md,
    # "Package C-states")
    for s in range(SOCKETS):
        pclk = c["UNC_P_CLOCKTICKS"][(s, 0)] * run
        asleep = sum(c[f"UNC_P_POWER_STATE_OCCUPANCY.CORES_C{x}"][(s, 0)] for x in (3, 6)) / (p["cores"] * pclk)
        for i in range(p["inst"]["qpi"]):
            l1 = c["UNC_Q_L1_POWER_CYCLES"][(s, i)] / (c["UNC_Q_CLOCKTICKS"][(s, i)] * run)
            k.want(l1 <= asleep + TOL, f"S{s} qpi{i}", "L1 only while every core sleeps",
                   f"L1 {100 * l1:.2f} %, the cores asleep {100 * asleep:.2f} %")
            if not p["pkg"]:
                continue
            deep = sum(c[f"UNC_P_PKG_C_STATE_RESIDENCY_C{x}_CYCLES"][(s, 0)] for x in (3, 6)) / pclk
            flits = sum(c[f"UNC_Q_{d}L_FLITS_G0.{t}"][(s, i)] for d in ("Rx", "Tx") for t in ("DATA", "NON_DATA"))
            k.want(l1 <= deep + TOL and (flits or abs(l1 - deep) <= TOL), f"S{s} qpi{i}",
                   "L1 while the package is in C3 or C6" + ("" if flits else " (no flit crossed)"),
                   f"L1 {100 * l1:.2f} %, the package {100 * deep:.2f} %")
    # QPI: each link's flits, each way, are the link's, idle the rest
    for where, nb, g in scopes("qpi"):
        qclk, l1 = g("UNC_Q_CLOCKTICKS") * run, g("UNC_Q_L1_POWER_CYCLES")
        for d in ("Rx", "Tx"):
            used = g(f"UNC_Q_{d}L_FLITS_G0.DATA") + g(f"UNC_Q_{d}L_FLITS_G0.NON_DATA")
            cap = 2 * (qclk - l1) - g(f"UNC_Q_{d}L0P_POWER_CYCLES")
            k.want(used <= cap * (1 + TOL) + 1, where, f"{d} flits within 2 a qfclk", f"{used:.0f} > {cap:.0f}")
            if d == "Rx" or p["tx_idle"]:
                all_ = used + g(f"UNC_Q_{d}L_FLITS_G0.IDLE")
                k.want(abs(all_ - cap) <= TOL * 2 * qclk, where, f"{d} idle flits are the rest of the link",
                       f"data + non-data + idle {all_:.0f}, the link {cap:.0f}")
            proto = sum(g(f"UNC_Q_{d}L_FLITS_{e}") for e in ("G1.SNP", "G1.HOM", "G1.DRS_NONDATA", "G2.NDR_AD",
                                                             "G2.NDR_AK", "G2.NCB_NONDATA", "G2.NCS"))
            nd = g(f"UNC_Q_{d}L_FLITS_G0.NON_DATA")
            k.want(nd >= proto * (1 - TOL), where, f"{d} non-data flits >= protocol flits", f"{nd:.0f} < {proto:.0f}")
            hdr, data = g(f"UNC_Q_{d}L_FLITS_G1.DRS_NONDATA"), g(f"UNC_Q_{d}L_FLITS_G1.DRS_DATA")
            k.want(hdr >= data / 8 * (1 - TOL), where, f"{d} a header flit a data packet",
                   f"DRS non-data {hdr:.0f}, data {data:.0f}")
    # iMC: each channel's bandwidth; CKE off never with a CAS; CKE on,
    # power-down or self-refresh
    for where, nb, g in scopes("imc"):
        dclk = g("UNC_M_DCLOCKTICKS") * run
        bw = g("UNC_M_CAS_COUNT.ALL") * 64 / secs / nb
        k.want(bw <= p["chan"] * (1 + TOL), where, "DRAM bandwidth",
               f"{bw / 1e9:.2f} GB/s a channel, peak {p['chan'] / 1e9:.2f}")
        off = g("imc/event=0x83,umask=0x1,inv,thresh=1/")
        alld = g("UNC_M_DCLOCKTICKS")   # every dclk counted: CKE is off after a trace's end too
        k.want(off + g("UNC_M_CAS_COUNT.ALL") <= alld * (1 + TOL), where, "CKE-off + CAS <= dclks",
               f"{100 * off / alld:.2f} % + {100 * g('UNC_M_CAS_COUNT.ALL') / alld:.2f} %")
        acc = g("UNC_M_POWER_CKE_CYCLES.RANK0") + g("UNC_M_POWER_CHANNEL_PPD") + g("UNC_M_POWER_SELF_REFRESH")
        k.want(abs(acc - dclk) <= TOL * dclk, where, "CKE on + power-down + self-refresh = dclks",
               f"{100 * acc / dclk:.2f} %")
    pclk = tot["UNC_P_CLOCKTICKS"] * run
    print(f"{what}: {k.n} checks, {len(k.bad)} failed; DRAM {tot['UNC_M_CAS_COUNT.ALL'] * 64 / secs / SOCKETS / 1e9:.2f} GB/s "
          f"a socket, C0 {100 * tot['UNC_P_POWER_STATE_OCCUPANCY.CORES_C0'] / (p['cores'] * pclk):.1f} %, busiest CBo "
          f"{max(sum(c[f'UNC_C_LLC_LOOKUP.{u}'][b] for u in ('DATA_READ', 'WRITE', 'REMOTE_SNOOP')) / (c['UNC_C_CLOCKTICKS'][b] * run) for b in c['UNC_C_CLOCKTICKS']):.3f} "
          f"lookups a uclk, Rx link {100 * (tot['UNC_Q_RxL_FLITS_G0.DATA'] + tot['UNC_Q_RxL_FLITS_G0.NON_DATA']) / (2 * tot['UNC_Q_CLOCKTICKS'] * run):.1f} % used, "
          f"CKE off {100 * tot['imc/event=0x83,umask=0x1,inv,thresh=1/'] / tot['UNC_M_DCLOCKTICKS']:.1f} %")
    return k.bad


def sources(kinds):
    """Every built-in workload and every trace gen kind: (what, source
    options, seconds)."""
    out = [(f"workload {w}", ["--workload", w], SECONDS["workload"]) for w in WORKLOADS]
    for k in kinds:
        t = os.path.join(WORK, f"{k}.uct")
        p = subprocess.run([UNCORE, "trace", "gen", k, "--platform", CASE, "--duration", str(SECONDS["trace"]),
                            "-o", t], capture_output=True, text=True, timeout=600)
        sanitizer(f"trace gen {k}", p)
        if p.returncode:
            fail(f"trace gen {k}: exit {p.returncode}: {p.stderr.strip()}")
            continue
        out.append((f"trace gen {k}", ["--trace", t], SECONDS["trace"]))
    return out


def report(what, bad):
    for where, name, detail in bad:
        fail(f"{what}: {where}: {name}: {detail}")


def one_channel_over():
    """The control: a hand-written trace in which iMC channel 0 of socket 0
    issues a CAS a dclk half the time (snbep: 25.6 GB/s, twice a DDR3-1600
    channel's 12.8) while the socket's other channels idle, so the socket's
    sum (25.6 of 51.2 GB/s) holds. The per-box check must name the channel and
    the sum's must pass: a check of the sums alone would miss it."""
    t = os.path.join(WORK, "one-channel.txt")
    with open(t, "w") as f:
        f.write(f"uncore-trace 2\nplatform {CASE}\nsockets 2\n")
        # a CAS each dclk of half the time: 0.5 a dclk on the channel
        for _ in range(200):
            f.write("run 3375: imc0.CAS_COUNT.RD_REG=1\nrun 3375:\n")
    secs = 400 * 3375 / 2.7e9
    c = counts(["--trace", t], secs)
    if not c:
        return
    bad = [b for b in check(f"{CASE} control (one channel over its peak)", c, secs) if b[1] == "DRAM bandwidth"]
    where = [b[0] for b in bad]
    if where != ["S0 imc0"]:
        fail(f"control: the DRAM bandwidth check failed on {where or 'nothing'}, want on S0 imc0 only "
             f"(the channel over its peak, the socket's sum within it)")


def run():
    for what, src, secs in sources(KINDS):
        c = counts(src, secs)
        if c:
            report(f"{CASE} {what}", check(f"{CASE} {what}", c, secs))
    one_channel_over()


# ---- skl ----

SKL_CBOS = 4                # the i7-6700K's four slices (Core i7-6700K specification: 4 cores)
SKL_UCLK_HZ = 3.0e9         # the model's default uclk (docs/platform-skl.md D8)
SKL_DRAM = 2 * 2133.33e6 * 8   # two DDR4-2133 channels x 8 bytes (datasheet 332687 Vol. 1)
# a CBo has 2 counters, the ARB 2 (Table 2-1); the fixed UCLK counter and
# the IMC's free-running counters count beside them
SKL_GROUPS = [
    ["cbo/CACHE_LOOKUP.ANY_MESI/", "cbo/CACHE_LOOKUP.READ_I/", "UNC_CLOCK.SOCKET",
     "arb/TRK_REQUESTS.ALL/", "arb/COH_TRK_REQUESTS.ALL/",
     "imc/DRAM_DATA_READS/", "imc/DRAM_DATA_WRITES/", "imc/DRAM_GT_REQUESTS/", "imc/DRAM_IA_REQUESTS/",
     "imc/DRAM_IO_REQUESTS/"],
    # the cores' data reads sent to memory (D16: Intel's event file's
    # UNC_ARB_TRK_REQUESTS.DATA_READ)
    ["arb/event=0x81,umask=0x02/"],
]


def counts_skl(src, seconds):
    """c[event][instance]: each CBo's events on each CBo, the others once."""
    c = {}
    for g in SKL_GROUPS:
        specs, keys = [], []
        for e in g:
            n = SKL_CBOS if e.startswith("cbo/") else 1
            for i in range(n):
                specs.append(f"cbo{i}/{e[4:]}" if n > 1 else e)
                keys.append((e, i))
        got = stat(src, seconds, specs, 1)
        if got is None:
            return None
        for (e, i), v in zip(keys, got):
            c.setdefault(e, {})[i] = v
    return c


def check_skl(what, c, secs):
    k = Checks(what)
    v = {e: sum(x.values()) for e, x in c.items()}
    uclk = min(v["UNC_CLOCK.SOCKET"], SKL_UCLK_HZ * secs)   # a trace's replay counts on after its end
    for i in range(SKL_CBOS):
        look = c["cbo/CACHE_LOOKUP.ANY_MESI/"][i]
        k.want(look <= uclk * (1 + TOL), f"cbo{i}", "lookups <= 1 a uclk", f"{look / uclk:.3f} a cycle")
    look = v["cbo/CACHE_LOOKUP.ANY_MESI/"]
    k.want(look <= SKL_CBOS * uclk * (1 + TOL), "all cbo", "lookups <= 1 a uclk a CBo",
           f"{look / (SKL_CBOS * uclk):.3f} a cycle")
    rd, wr = v["imc/DRAM_DATA_READS/"], v["imc/DRAM_DATA_WRITES/"]
    bw = (rd + wr) * 64 / secs
    k.want(bw <= SKL_DRAM * (1 + TOL), "imc", "DRAM bandwidth", f"{bw / 1e9:.2f} GB/s, peak {SKL_DRAM / 1e9:.2f}")
    gt, ia, io = v["imc/DRAM_GT_REQUESTS/"], v["imc/DRAM_IA_REQUESTS/"], v["imc/DRAM_IO_REQUESTS/"]
    k.want(gt + ia + io >= (rd + wr) * (1 - TOL), "imc", "GT + IA + IO requests >= reads + writes",
           f"requests {gt:.0f} + {ia:.0f} + {io:.0f}, transfers {rd:.0f} + {wr:.0f}")
    miss = v["cbo/CACHE_LOOKUP.READ_I/"]
    k.want(miss >= (rd - gt - io) * (1 - TOL), "all cbo", "read misses >= the IA's DRAM reads",
           f"READ_I {miss:.0f}, DRAM reads {rd:.0f} less GT and IO requests {gt + io:.0f}")
    k.want(miss <= rd * (1 + TOL), "all cbo", "read misses <= DRAM reads (the LLC is inclusive)",
           f"READ_I {miss:.0f}, DRAM reads {rd:.0f}")
    trk = v["arb/TRK_REQUESTS.ALL/"] + v["arb/COH_TRK_REQUESTS.ALL/"]
    k.want(abs(trk - (rd + wr)) <= TOL * max(rd + wr, 1), "arb", "the trackers' requests are the DRAM's transfers",
           f"TRK {v['arb/TRK_REQUESTS.ALL/']:.0f} + COH_TRK {v['arb/COH_TRK_REQUESTS.ALL/']:.0f}, "
           f"reads + writes {rd + wr:.0f}")
    drd = v["arb/event=0x81,umask=0x02/"]
    k.want(drd <= ia * (1 + TOL), "arb", "the cores' data reads to memory are IA requests",
           f"TRK_REQUESTS.DATA_READ {drd:.0f}, IA requests {ia:.0f}")
    print(f"{what}: {k.n} checks, {len(k.bad)} failed; DRAM {bw / 1e9:.2f} GB/s, busiest CBo "
          f"{max(c['cbo/CACHE_LOOKUP.ANY_MESI/'].values()) / uclk:.3f} lookups a uclk, requests GT {gt:.0f} "
          f"IA {ia:.0f} IO {io:.0f} for {rd:.0f} reads and {wr:.0f} writes, read misses {miss:.0f}")
    return k.bad


def run_skl():
    # the part has no QPI links: trace gen refuses the kind
    for what, src, secs in sources([k for k in KINDS if k != "qpi"]):
        c = counts_skl(src, secs)
        if c:
            report(f"skl {what}", check_skl(f"skl {what}", c, secs))


if __name__ == "__main__":
    main({"snbep": run, "ivt": run, "skl": run_skl})
