#!/usr/bin/env python3
"""limits_test.py UNCORE CASE - workloads within the hardware's physical limits.

Every built-in workload and every `trace gen` kind (with its defaults) of a
platform runs on the simulated machine (`uncore run ... -- sleep`, the
machine's clock), and what the model says it fed (--report-json "fed": the
model's ground truth, per socket and box instance) over the machine time is
compared with the physical limits of the parts, taken here from Intel's
datasheets, not from the code under test:

- DRAM: channels x transfer rate x 8 bytes, per socket.  6th Generation
  Core (datasheet vol. 1, 332687, "System Memory"): 2 channels DDR4-2133,
  34.128 GB/s.  Xeon E5-2600 (datasheet vol. 1, 326508, "Memory"): 4
  channels DDR3-1600, 51.2 GB/s.  Xeon E5-2600 v2 (datasheet vol. 1,
  329187): 4 channels DDR3-1866, 59.73 GB/s.  A 64-byte line per DRAM data
  event (skl DRAM_DATA_READS/WRITES; Xeon CAS_COUNT, a BL8 burst).
- QPI (the Xeons): 8.0 GT/s over 20 lanes, one 80-bit flit each 4
  transfers, so at most 2e9 flits a second each way on each port.
- LLC: at most one lookup a cycle on each CBo (the CBo's pipeline; the
  uncore guides' "one lookup per cycle").

The built-in workloads are also held to what docs/usage.md says they feed
("The simulated machine"), so a workload that feeds nothing cannot pass:
`stream` about 31 GB/s (skl), 43.5 GB/s a socket (snbep) and 50 GB/s a
socket (ivt), here at least 90% of that; `mixed` LLC lookups on every CBo,
DRAM reads and writes (bursts, writebacks) on every socket, and skl's
cross-core snoops and GT/IO traffic or the Xeons' QPI traffic; `idle` no
DRAM, lookup or QPI data traffic (skl: nothing to its uncore at all, only the
cores box's states and instructions).

CASE refusal checks that a rate above a limit is refused naming the limit,
and allowed with --exceed-limits.
"""
import json
import os
import subprocess

from ct_py import CASE, UNCORE, fail, finish, workdir

WORK = workdir("uncore-limits-")

DRAM = {"skl": (2 * 2133.33e6 * 8, ("DRAM_DATA_READS", "DRAM_DATA_WRITES")),
        "snbep": (4 * 1600e6 * 8, ("CAS_COUNT.",)),
        "ivt": (4 * 1866.67e6 * 8, ("CAS_COUNT.",))}
LOOKUP = {"skl": "CACHE_LOOKUP.", "snbep": "LLC_LOOKUP.", "ivt": "LLC_LOOKUP."}
UCLK = {"skl": 3.0e9, "snbep": 2.7e9, "ivt": 2.7e9}
FLITS_PER_S = 2e9
# docs/usage.md: `stream`'s DRAM traffic a socket
STREAM = {"skl": 31e9, "snbep": 43.5e9, "ivt": 50e9}
SOCKETS = {"skl": 1, "snbep": 2, "ivt": 2}
NCBO = {"skl": 4, "snbep": 8, "ivt": 12}
WORKLOADS = ("mixed", "stream", "idle")
KINDS = {"skl": ("stream", "llc", "burst", "idle"),
         "snbep": ("stream", "llc", "burst", "idle", "qpi", "cstate"),
         "ivt": ("stream", "llc", "burst", "idle", "qpi", "cstate")}


def uncore(args, expect_rc=0):
    p = subprocess.run([UNCORE] + args, capture_output=True, text=True, timeout=600)
    if p.returncode != expect_rc:
        fail(f"uncore {' '.join(args)}: exit {p.returncode}, expected {expect_rc}: {p.stderr.strip()}")
    return p


def fed_report(platform, src, seconds):
    rep = os.path.join(WORK, "r.json")
    if os.path.exists(rep):
        os.unlink(rep)
    p = uncore(["run", "--platform", platform] + src +
               ["--report-json", rep, "--", "sleep", str(seconds)])
    if p.returncode:
        return None
    with open(rep) as f:
        return json.load(f)


def check(platform, what, rep, workload=None):
    secs = rep["machine_ns"] / 1e9
    if secs <= 0:
        fail(f"{what}: no machine time")
        return
    dram_max, dram_in = DRAM[platform]
    dram, lookups, flits, fed = {}, {}, {}, {}
    for e in rep["fed"]:
        s, box, inp, tot = e["socket"], e["box"], e["input"], e["total"]
        fed[(s, box, inp)] = fed.get((s, box, inp), 0) + tot
        if box == "imc" and any(inp.startswith(x) for x in dram_in):
            dram[s] = dram.get(s, 0) + tot * 64
        if box == "cbo" and inp.startswith(LOOKUP[platform]):
            lookups[(s, e["instance"])] = lookups.get((s, e["instance"]), 0) + tot
        if box == "qpi" and inp.endswith("L_FLITS_G0.DATA"):
            flits[(s, e["instance"], inp[:2])] = tot
    worst = []
    for s, b in dram.items():
        bw = b / secs
        worst.append(f"DRAM S{s} {bw / 1e9:.2f} GB/s")
        if bw > dram_max * 1.0001:
            fail(f"{what}: socket {s} DRAM {bw / 1e9:.2f} GB/s, above {dram_max / 1e9:.2f} GB/s")
    for (s, i), n in lookups.items():
        per = n / (secs * UCLK[platform])
        if per > 1.0001:
            fail(f"{what}: socket {s} CBo {i}: {per:.3f} lookups a cycle, above 1")
    for (s, i, d), n in flits.items():
        if n / secs > FLITS_PER_S * 1.0001:
            fail(f"{what}: socket {s} QPI port {i} {d}: {n / secs / 1e9:.3f} G data flits/s, above 2")
    if workload:
        lower_bounds(platform, what, workload, secs, dram, lookups, flits, fed)
    print(f"{what}: {', '.join(worst) or 'no DRAM traffic'}; "
          f"max {max(lookups.values(), default=0) / (secs * UCLK[platform]):.3f} lookups/CBo/cycle; "
          f"max {max(flits.values(), default=0) / secs / 1e9:.3f} G flits/s a port")


def lower_bounds(platform, what, workload, secs, dram, lookups, flits, fed):
    """What docs/usage.md says the built-in workload feeds."""
    sockets = range(SOCKETS[platform])

    def some(prefix, box, s):
        return sum(n for (so, b, i), n in fed.items() if so == s and b == box and i.startswith(prefix)) > 0

    if workload == "stream":
        for s in sockets:
            if dram.get(s, 0) / secs < 0.9 * STREAM[platform]:
                fail(f"{what}: socket {s} DRAM {dram.get(s, 0) / secs / 1e9:.2f} GB/s, "
                     f"below 90% of the documented {STREAM[platform] / 1e9:g} GB/s")
    elif workload == "mixed":
        for s in sockets:
            for i in range(NCBO[platform]):
                if not lookups.get((s, i)):
                    fail(f"{what}: socket {s} CBo {i}: no LLC lookup fed")
            if platform == "skl":
                want = [("DRAM_DATA_READS", "imc"), ("DRAM_DATA_WRITES", "imc"), ("XSNP_RESPONSE.", "cbo"),
                        ("DRAM_GT_REQUESTS", "imc"), ("DRAM_IO_REQUESTS", "imc")]
            else:
                want = [("CAS_COUNT.RD", "imc"), ("CAS_COUNT.WR", "imc")]
                if not any(so == s for (so, _, _) in flits):
                    fail(f"{what}: socket {s}: no QPI data flits fed")
            for prefix, box in want:
                if not some(prefix, box, s):
                    fail(f"{what}: socket {s}: nothing fed to {box} {prefix}")
    elif workload == "idle":
        # skl's idle feeds nothing to its uncore: only the cores' states and
        # the timer tick's instructions (the "cores" box, docs/invariants.md)
        uncore_fed = {k: n for k, n in fed.items() if k[1] != "cores"}
        if dram or lookups or flits or (platform == "skl" and uncore_fed):
            fail(f"{what}: fed {sorted(uncore_fed)[:8]}")


def case_workloads(platform):
    for w in WORKLOADS:
        rep = fed_report(platform, ["--workload", w], 0.2)
        if rep:
            check(platform, f"{platform} workload {w}", rep, w)


def case_generators(platform):
    for k in KINDS[platform]:
        t = os.path.join(WORK, f"{k}.uct")
        if uncore(["trace", "gen", k, "--platform", platform, "--duration", "0.02", "-o", t]).returncode:
            continue
        if k in ("idle", "cstate"):
            # power states only: the trace's own account of what it feeds
            # (trace info) must name no DRAM, lookup or QPI data input (the
            # replay of their many segments would cost the suite minutes)
            p = uncore(["trace", "info", t])
            fed = [l.split()[1] for l in p.stdout.splitlines() if l.startswith("fed")]
            bad = [f for f in fed if f.startswith(("imc.CAS_COUNT", "imc.DRAM_DATA", "cbo." + LOOKUP[platform]))
                   or f.endswith("L_FLITS_G0.DATA")]
            if bad:
                fail(f"{platform} trace gen {k} feeds {bad}")
            else:
                print(f"{platform} trace gen {k}: feeds no DRAM, lookup or QPI data input")
            continue
        rep = fed_report(platform, ["--trace", t], 0.02)
        if rep:
            check(platform, f"{platform} trace gen {k}", rep)


def case_refusal():
    t = os.path.join(WORK, "x.uct")
    p = uncore(["trace", "gen", "stream", "--bandwidth", "100", "-o", t], expect_rc=2)
    if "34.1 GB/s" not in p.stderr or "DDR4-2133" not in p.stderr or "--exceed-limits" not in p.stderr:
        fail(f"skl stream at 100 GB/s: {p.stderr.strip()!r}")
    if os.path.exists(t):
        fail("a refused generator left a trace")
    p = uncore(["trace", "gen", "stream", "--platform", "ivt", "--bandwidth", "130", "-o", t], expect_rc=2)
    if "119.4 GB/s" not in p.stderr or "DDR3-1866" not in p.stderr:
        fail(f"ivt stream at 130 GB/s: {p.stderr.strip()!r}")
    p = uncore(["trace", "gen", "qpi", "--platform", "snbep", "--bandwidth", "70", "-o", t], expect_rc=2)
    if "QPI" not in p.stderr or "8.0 GT/s" not in p.stderr:
        fail(f"snbep qpi at 70 GB/s: {p.stderr.strip()!r}")
    # a workload made faster than the part by its clock: refused, unless on purpose
    p = uncore(["stat", "--workload", "stream", "--uclk-mhz", "4100", "--duration", "0.01"], expect_rc=2)
    if "34.1 GB/s" not in p.stderr or "DDR4-2133" not in p.stderr:
        fail(f"skl stream at 4.1 GHz: {p.stderr.strip()!r}")
    uncore(["stat", "--workload", "stream", "--uclk-mhz", "4100", "--duration", "0.01", "--exceed-limits"])
    # on purpose: a stress trace beyond the parts
    uncore(["trace", "gen", "stream", "--bandwidth", "100", "--exceed-limits", "--duration", "0.01",
            "-o", t])
    rep = fed_report("skl", ["--trace", t], 0.01)
    if rep:
        b = sum(e["total"] for e in rep["fed"] if e["box"] == "imc" and e["input"].startswith("DRAM_DATA_"))
        bw = b * 64 / (rep["machine_ns"] / 1e9)
        if not 95e9 < bw < 105e9:
            fail(f"--exceed-limits: {bw / 1e9:.1f} GB/s fed, asked 100")


if CASE == "refusal":
    case_refusal()
else:
    kind, platform = CASE.split("_")
    {"workloads": case_workloads, "generators": case_generators}[kind](platform)
finish()
