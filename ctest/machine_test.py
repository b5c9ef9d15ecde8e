#!/usr/bin/env python3
"""machine_test.py UNCORE CASE - the machine outside the uncore PMU follows
the workload, within physics (docs/invariants.md).

Every counter is read by tools nobody here wrote (msr-tools' rdmsr, likwid)
under `uncore run`, never from the model.  The expectations come from the
parts' specifications and the coefficients docs/invariants.md lists with
their sources, restated here: TDP (Intel's specification of the E5-2680 and
the E5-2697 v2: 130 W), TjMax 92 C, the idle powers, a core's C0 power
(TDP less the idle package and the uncore at the DRAM's peak, shared by the
cores), the energy of a DRAM access, the thermal model (30 C at no power,
TjMax - 10 at TDP).  The tools' own figures are checked against each other
through these coefficients: the package's power must be what the C0
residency (MPERF) and the DRAM traffic (the DRAM's energy) make it.

Cases:
- invariants_<platform>: every built-in workload and every `trace gen`
  kind, 0.2 s of machine time read with rdmsr on every cpu: TSC at the
  nominal rate, APERF = MPERF <= TSC, each core's C0 + C3 + C6 <= 100 %
  (the residency MSRs at the TSC's rate), the package in C3 or C6 only while
  every core is, RAPL energy between idle and TDP and as
  the coefficients make it of C0 and DRAM traffic, DRAM traffic no more than
  the cores in C0 can ask for, the temperature between the steady states of
  no power and TDP;
- sleep_idles_core_<platform>: a program that sleeps leaves its core to the
  idle workload's 1 % of C0 and 99 % of C6; one that runs keeps it in C0
  and out of C6, while the core beside it idles on;
- energy_likwid_<platform>: likwid-perfctr -g ENERGY on the idle and the
  stream workloads: different power, C0 residency and temperature, each
  what the coefficients make of the other counters;
- invariants_skl: the same invariants on the i7-6700K (TDP 91 W, TjMax
  100 C, its own idle powers and the GT's energy a memory request), with
  each core's C3/C6/C7 residency MSRs instead of the Xeon PCU's;
- pkg_pcu_ivt: the v2's PCU counts the package's C-states (through the
  driver) as MSR_PKG_Cn_RESIDENCY do (rdmsr) on every built-in workload;
- ipc_<platform>: the fixed counters (rdmsr) on every cpu but the one the
  sampling script runs on: instructions / unhalted cycles is the IPC that
  docs/invariants.md gives each `trace gen` kind, lies within the phases'
  IPCs of each built-in workload, and the instructions are the model's
  ground truth (the cores' INST_RETIRED fed, `--report-json`).
"""
import json
import math
import os
import re
import subprocess
import sys

from ct_py import CASE, UNCORE, fail, finish, need, workdir, main

WORK = workdir("uncore-machine-")

# The parts: cores a socket, sockets, TSC (= nominal) Hz, DRAM lines a
# second at the channels' peak (4 channels x MT/s x 8 B / 64 B: DDR3-1600,
# DDR3-1866; the datasheets' memory sections).
PARTS = {"snbep": (8, 2, 2.7e9, 4 * 1600e6 / 8), "ivt": (12, 2, 2.7e9, 4 * 1866.67e6 / 8),
         "skl": (4, 1, 4.0e9, 2 * 2133.33e6 / 8)}
PCLK_HZ = 800e6            # the PCU's clock (uncore guides, 2.6.7 / CLOCKTICKS)
TDP_W = 130.0
TJMAX = 92
PKG_IDLE_W, PP0_IDLE_W, DRAM_IDLE_W = 20.0, 2.0, 4.0
UNCORE_J, DRAM_J = 5e-9, 70e-12 * 512
AMB_C, TAU_S = 30.0, 1.0
LFB, DRAM_NS = 10, 60e-9
WORKLOADS = ("idle", "stream", "mixed")
KINDS = ("stream", "llc", "burst", "idle", "qpi", "cstate")


# The i7-6700K (docs/invariants.md, "skl"): TDP 91 W (Intel's specification),
# TjMax 100 C, idle powers of the package, cores, graphics and DRAM, the
# energy of a GT memory request (the model's figures), the Xeons' DRAM and
# uncore energies a line.
SKL = {"tdp": 91.0, "tjmax": 100, "pkg_idle": 8.0, "pp0_idle": 0.5, "pp1_idle": 0.5, "dram_idle": 1.0,
       "uncore_j": 5e-9, "gt_j": 5e-9, "dram_j": 70e-12 * 512}
XEON = {"tdp": TDP_W, "tjmax": TJMAX, "pkg_idle": PKG_IDLE_W, "pp0_idle": PP0_IDLE_W, "pp1_idle": 0.0,
        "dram_idle": DRAM_IDLE_W, "uncore_j": UNCORE_J, "gt_j": 0.0, "dram_j": DRAM_J}
COEF = {"snbep": XEON, "ivt": XEON, "skl": SKL}


def core_w(platform):
    """A core's C0 power: every core in C0 with the DRAM (skl: all of it
    the GT's) at its peak reaches TDP."""
    cores, _, _, peak = PARTS[platform]
    c = COEF[platform]
    return (c["tdp"] - c["pkg_idle"] - (c["uncore_j"] + c["gt_j"]) * peak) / cores


def run(platform, src, argv):
    cmd = [UNCORE, "run", "--platform", platform, *src, "--", *argv]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if re.search(r"AddressSanitizer|LeakSanitizer|runtime error:", p.stderr):
        fail(f"sanitizer report from {' '.join(cmd)}:\n{p.stderr}")
    if p.returncode:
        fail(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stdout[-1500:]}\n{p.stderr[-1500:]}")
        return None
    return p.stdout


def near(what, got, want, rel, absolute=0.0):
    if abs(got - want) > absolute + rel * abs(want):
        fail(f"{what}: {got:.6g}, want {want:.6g} (within {absolute:g} + {rel:g} relative)")


def gen_traces(platform, kinds):
    """(kind, file) of a TRACE_S `trace gen` of each kind the platform
    has (skl has no QPI links: trace gen refuses qpi); a kind that fails
    to generate fails the case and is left out."""
    out = []
    for k in kinds:
        if k == "qpi" and platform == "skl":
            continue
        t = os.path.join(WORK, f"{platform}-{k}.uct")
        p = subprocess.run([UNCORE, "trace", "gen", k, "--platform", platform, "--duration", TRACE_S, "-o", t],
                           capture_output=True, text=True, timeout=600)
        if p.returncode:
            fail(f"trace gen {k} --platform {platform}: exit {p.returncode}: {p.stderr.strip()}")
            continue
        out.append((k, t))
    return out


# ---- invariants over every workload and trace kind (rdmsr) ----

MSRS = {"tsc": 0x10, "mperf": 0xE7, "aperf": 0xE8, "c3": 0x3FC, "c6": 0x3FD, "pkg": 0x611,
        "pp0": 0x639, "dram": 0x619, "therm": 0x1B1, "target": 0x1A2, "info": 0x614, "unit": 0x606,
        "pc2": 0x60D, "pc3": 0x3F8, "pc6": 0x3F9}
WINDOW_S = 0.2
# a generated trace covers the window and the reads around it (past its end
# the machine idles)
TRACE_S = "0.3"


def sample_script(msrs):
    rd = " ".join(f"rdmsr -a -0 -u {a:#x};" for a in msrs.values())
    return f"{rd} sleep {WINDOW_S}; {rd}"


def parse_samples(out, ncpu, msrs):
    vals = [int(v) for v in out.split()]
    if len(vals) != 2 * len(msrs) * ncpu:
        return None
    res = []
    for k in range(2):
        d = {}
        for i, name in enumerate(msrs):
            base = (k * len(msrs) + i) * ncpu
            d[name] = vals[base:base + ncpu]
        res.append(d)
    return res


def check_window(platform, what, a, b):
    """The invariants of docs/invariants.md over one window."""
    cores, sockets, tsc_hz, peak = PARTS[platform]
    w = 32
    for s in range(sockets):
        cpus = range(s * cores, (s + 1) * cores)
        c = s * cores
        unit = 2.0 ** -((a["unit"][c] >> 8) & 0x1F)
        dtsc = b["tsc"][c] - a["tsc"][c]
        dt = dtsc / tsc_hz
        if not WINDOW_S <= dt < WINDOW_S * 1.5:
            fail(f"{what}: socket {s}: the TSC counted {dt:.4f} s over a {WINDOW_S} s sleep")
            continue
        c0, deep = [], []
        for cpu in cpus:
            dm = b["mperf"][cpu] - a["mperf"][cpu]
            da = b["aperf"][cpu] - a["aperf"][cpu]
            if not 0 <= dm <= dtsc * 1.0001:
                fail(f"{what}: cpu {cpu}: MPERF counted {dm} of {dtsc} TSC ticks")
            # at the nominal ratio (no turbo) APERF counts as MPERF; the
            # two are read by two rdmsr runs, some microseconds apart
            if abs(da - dm) > 1e-3 * dtsc:
                fail(f"{what}: cpu {cpu}: APERF {da} != MPERF {dm} at the nominal ratio (no turbo)")
            # each core's C3 and C6 residency at the TSC's rate (SDM Vol. 4
            # Table 2-20, R29): with C0 at most the whole window
            res = {x: b[x][cpu] - a[x][cpu] for x in ("c3", "c6")}
            if min(res.values()) < 0 or dm + sum(res.values()) > dtsc * 1.001:
                fail(f"{what}: cpu {cpu}: C0 {dm} + C3 {res['c3']} + C6 {res['c6']} above the {dtsc} TSC ticks")
            c0.append(dm / dtsc)
            deep.append({x: v / dtsc for x, v in res.items()})
        c0avg = sum(c0) / cores
        share = {x: sum(d[x] for d in deep) / cores for x in ("c3", "c6")}
        # the package's C-states (docs/invariants.md, "Package C-states"):
        # at the TSC's rate, within 100 %, only while every core is out of
        # C0, in C3 or deeper only while every core is, in C6 only while
        # every core is in C6
        pc = {k: (b[k][c] - a[k][c]) / dtsc for k in ("pc2", "pc3", "pc6")}
        check_pkg_states(f"{what}: socket {s}", pc, max(c0),
                         {"pc6": min(d["c6"] for d in deep)})
        if pc["pc3"] + pc["pc6"] > min(d["c3"] + d["c6"] for d in deep) + 0.001:
            fail(f"{what}: socket {s}: the package in C3 or deeper {100 * (pc['pc3'] + pc['pc6']):.2f} % of "
                 f"the time, a core only {100 * min(d['c3'] + d['c6'] for d in deep):.2f} %")
        watt = {k: ((b[k][c] - a[k][c]) % (1 << w)) * unit / dt for k in ("pkg", "pp0", "dram")}
        tdp = (a["info"][c] & 0x7FFF) * 2.0 ** -(a["unit"][c] & 0xF)
        near(f"{what}: socket {s}: MSR_PKG_POWER_INFO's TDP", tdp, TDP_W, 0)
        if not PKG_IDLE_W * 0.999 <= watt["pkg"] <= TDP_W:
            fail(f"{what}: socket {s}: package {watt['pkg']:.2f} W outside idle {PKG_IDLE_W} W .. TDP {TDP_W} W")
        if watt["pp0"] > watt["pkg"]:
            fail(f"{what}: socket {s}: cores {watt['pp0']:.2f} W above the package's {watt['pkg']:.2f} W")
        dram_max = DRAM_IDLE_W + DRAM_J * peak
        if not DRAM_IDLE_W * 0.999 <= watt["dram"] <= dram_max:
            fail(f"{what}: socket {s}: DRAM {watt['dram']:.2f} W outside {DRAM_IDLE_W} .. {dram_max:.2f} W")
        # the counters agree through the coefficients
        lines = (watt["dram"] - DRAM_IDLE_W) / DRAM_J
        # the traffic is the cores': a core has 10 line fill buffers
        # (Optimization Reference Manual, Sandy Bridge microarchitecture)
        # and a line from local DRAM takes at least 60 ns, so the cores in
        # C0 carry at most 10 x 64 B / 60 ns each
        if lines * 64 > cores * c0avg * LFB * 64 / DRAM_NS + 0.05e9:
            fail(f"{what}: socket {s}: {lines * 64 / 1e9:.2f} GB/s of DRAM traffic with {cores * c0avg:.2f} "
                 f"cores in C0 (at most {LFB * 64 / DRAM_NS / 1e9:.2f} GB/s a core)")
        near(f"{what}: socket {s}: cores' power from C0 {c0avg:.4f}", watt["pp0"],
             PP0_IDLE_W + cores * core_w(platform) * c0avg, 0.01, 0.05)
        near(f"{what}: socket {s}: package power from C0 {c0avg:.4f} and {lines * 64 / 1e9:.2f} GB/s",
             watt["pkg"], PKG_IDLE_W + cores * core_w(platform) * c0avg + UNCORE_J * lines, 0.01, 0.05)
        # the temperature: between the steady states of no power and TDP,
        # reported in every core as in the package
        temp = ((a["target"][c] >> 16) & 0xFF) - ((b["therm"][c] >> 16) & 0x7F)
        if (a["target"][c] >> 16) & 0xFF != TJMAX:
            fail(f"{what}: socket {s}: TjMax {(a['target'][c] >> 16) & 0xFF}, want {TJMAX}")
        if not AMB_C <= temp <= TJMAX - 10:
            fail(f"{what}: socket {s}: {temp} C outside {AMB_C:g} .. {TJMAX - 10} C (steady state at TDP)")
        print(f"{what}: socket {s}: C0 {100 * c0avg:.2f} %, C3/C6 (the cores' mean) {100 * share['c3']:.2f}/"
              f"{100 * share['c6']:.2f} %, package {watt['pkg']:.2f} W, cores {watt['pp0']:.2f} W, "
              f"DRAM {watt['dram']:.2f} W ({lines * 64 / 1e9:.2f} GB/s), {temp} C")


def check_pkg_states(what, pc, c0max, bound):
    """The package's C-state shares pc: each at least 0, together at most
    100 % and at most the time no core is in C0; pc[k] at most bound[k]."""
    if min(pc.values()) < 0 or sum(pc.values()) > 1.001:
        fail(f"{what}: package C-state shares {pc} outside 0 .. 100 %")
    if sum(pc.values()) > 1 - c0max + 0.001:
        fail(f"{what}: the package in C2..C7 {100 * sum(pc.values()):.2f} % of the time while a core is in "
             f"C0 {100 * c0max:.2f} %")
    for k, v in bound.items():
        if pc[k] > v + 0.001:
            fail(f"{what}: the package in {k[1:].upper()} {100 * pc[k]:.2f} % of the time, a core only "
                 f"{100 * v:.2f} %")
    print(f"{what}: package " + ", ".join(f"{k[1:].upper()} {100 * v:.2f} %" for k, v in pc.items()))


def invariants(platform):
    need("rdmsr", "msr-tools")
    cores, sockets, _, _ = PARTS[platform]
    sources = [(f"workload {w}", ["--workload", w]) for w in WORKLOADS]
    msrs = MSRS_SKL if platform == "skl" else MSRS
    for k, t in gen_traces(platform, KINDS):
        sources.append((f"trace gen {k}", ["--trace", t]))
    for what, src in sources:
        out = run(platform, src, ["sh", "-c", sample_script(msrs)])
        if out is None:
            continue
        smp = parse_samples(out, cores * sockets, msrs)
        if smp is None:
            fail(f"{platform} {what}: rdmsr -a printed {out[:300]!r}")
            continue
        if platform == "skl":
            check_window_skl(f"{platform} {what}", *smp)
        else:
            check_window(platform, f"{platform} {what}", *smp)


# skl: each core's C-state residency MSRs (Table 2-39), the graphics rail
# (PP1), the package's weighted C0 residency
MSRS_SKL = {"tsc": 0x10, "mperf": 0xE7, "aperf": 0xE8, "cc3": 0x3FC, "cc6": 0x3FD, "cc7": 0x3FE,
            "pkg": 0x611, "pp0": 0x639, "pp1": 0x641, "dram": 0x619, "wc0": 0x658, "therm": 0x1B1,
            "target": 0x1A2, "info": 0x614, "unit": 0x606,
            "pc2": 0x60D, "pc3": 0x3F8, "pc6": 0x3F9, "pc7": 0x3FA, "ac0": 0x659}


def check_window_skl(what, a, b):
    """The invariants of docs/invariants.md that apply to the i7-6700K."""
    cores, _, tsc_hz, peak = PARTS["skl"]
    k = SKL
    w = 32
    unit = 2.0 ** -((a["unit"][0] >> 8) & 0x1F)
    dtsc = b["tsc"][0] - a["tsc"][0]
    dt = dtsc / tsc_hz
    if not WINDOW_S <= dt < WINDOW_S * 1.5:
        fail(f"{what}: the TSC counted {dt:.4f} s over a {WINDOW_S} s sleep")
        return
    c0, deep = [], []
    for cpu in range(cores):
        dm = b["mperf"][cpu] - a["mperf"][cpu]
        da = b["aperf"][cpu] - a["aperf"][cpu]
        if not 0 <= dm <= dtsc * 1.0001:
            fail(f"{what}: cpu {cpu}: MPERF counted {dm} of {dtsc} TSC ticks")
        if abs(da - dm) > 1e-3 * dtsc:
            fail(f"{what}: cpu {cpu}: APERF {da} != MPERF {dm} at the nominal ratio (no turbo)")
        # each core's C-state residencies count at the TSC's rate (SDM
        # Vol. 4 Table 2-20): with C0 they cover at most the whole window
        res = {x: b[x][cpu] - a[x][cpu] for x in ("cc3", "cc6", "cc7")}
        if any(v < 0 for v in res.values()) or dm + sum(res.values()) > dtsc * 1.001:
            fail(f"{what}: cpu {cpu}: C0 {dm} + C3 {res['cc3']} + C6 {res['cc6']} + C7 {res['cc7']} "
                 f"above the {dtsc} TSC ticks")
        c0.append(dm / dtsc)
        deep.append({"c3": sum(res.values()) / dtsc, "c6": (res["cc6"] + res["cc7"]) / dtsc,
                     "c7": res["cc7"] / dtsc})
    c0avg = sum(c0) / cores
    # the package in Cn or deeper only while every core is (Table 2-39's
    # core residencies)
    pc = {k: (b[k][0] - a[k][0]) / dtsc for k in ("pc2", "pc3", "pc6", "pc7")}
    check_pkg_states(what, pc, max(c0), {})
    # some core in C0 (MSR_PKG_ANY_CORE_C0_RES, Table 2-39): at least the
    # busiest core's C0, at most all of theirs, never with a package C-state
    ac0 = (b["ac0"][0] - a["ac0"][0]) / dtsc
    if not max(c0) - 0.001 <= ac0 <= min(1.0, sum(c0)) + 0.001 or ac0 + sum(pc.values()) > 1.001:
        fail(f"{what}: some core in C0 {100 * ac0:.2f} % of the time, the cores' C0 {[round(x, 4) for x in c0]}, "
             f"the package in C2..C7 {100 * sum(pc.values()):.2f} %")
    for st, states in (("c3", ("pc3", "pc6", "pc7")), ("c6", ("pc6", "pc7")), ("c7", ("pc7",))):
        least = min(d[st] for d in deep)
        if sum(pc[x] for x in states) > least + 0.001:
            fail(f"{what}: the package in {st.upper()} or deeper {100 * sum(pc[x] for x in states):.2f} % of "
                 f"the time, a core only {100 * least:.2f} %")
    # the package's weighted C0 is the cores' mean (Table 2-39)
    near(f"{what}: MSR_PKG_WEIGHTED_CORE_C0_RES", (b["wc0"][0] - a["wc0"][0]) / dtsc, c0avg, 0.001, 0.001)
    watt = {x: ((b[x][0] - a[x][0]) % (1 << w)) * unit / dt for x in ("pkg", "pp0", "pp1", "dram")}
    tdp = (a["info"][0] & 0x7FFF) * 2.0 ** -(a["unit"][0] & 0xF)
    near(f"{what}: MSR_PKG_POWER_INFO's TDP", tdp, k["tdp"], 0)
    if not k["pkg_idle"] * 0.999 <= watt["pkg"] <= k["tdp"]:
        fail(f"{what}: package {watt['pkg']:.2f} W outside idle {k['pkg_idle']} W .. TDP {k['tdp']} W")
    if watt["pp0"] + watt["pp1"] > watt["pkg"]:
        fail(f"{what}: cores {watt['pp0']:.2f} W + graphics {watt['pp1']:.2f} W above the package's "
             f"{watt['pkg']:.2f} W")
    dram_max = k["dram_idle"] + k["dram_j"] * peak
    if not k["dram_idle"] * 0.999 <= watt["dram"] <= dram_max:
        fail(f"{what}: DRAM {watt['dram']:.2f} W outside {k['dram_idle']} .. {dram_max:.2f} W")
    if not k["pp1_idle"] * 0.999 <= watt["pp1"] <= k["pp1_idle"] + k["gt_j"] * peak:
        fail(f"{what}: graphics {watt['pp1']:.2f} W outside {k['pp1_idle']} .. "
             f"{k['pp1_idle'] + k['gt_j'] * peak:.2f} W")
    lines = (watt["dram"] - k["dram_idle"]) / k["dram_j"]
    gt = (watt["pp1"] - k["pp1_idle"]) / k["gt_j"]
    if gt > lines * 1.01 + 1e6:
        fail(f"{what}: {gt / 1e6:.1f} M GT memory requests a second, more than the {lines / 1e6:.1f} M lines")
    # the cores' traffic: at most 10 line fill buffers a core over 60 ns,
    # besides the GT's requests
    if (lines - gt) * 64 > cores * c0avg * LFB * 64 / DRAM_NS + 0.05e9:
        fail(f"{what}: {(lines - gt) * 64 / 1e9:.2f} GB/s of the cores' DRAM traffic with {cores * c0avg:.2f} "
             f"cores in C0")
    near(f"{what}: cores' power from C0 {c0avg:.4f}", watt["pp0"],
         k["pp0_idle"] + cores * core_w("skl") * c0avg, 0.01, 0.05)
    near(f"{what}: package power from C0 {c0avg:.4f}, {lines * 64 / 1e9:.2f} GB/s and the GT's {watt['pp1']:.2f} W",
         watt["pkg"], k["pkg_idle"] + cores * core_w("skl") * c0avg + k["uncore_j"] * lines +
         watt["pp1"] - k["pp1_idle"], 0.01, 0.05)
    temp = ((a["target"][0] >> 16) & 0xFF) - ((b["therm"][0] >> 16) & 0x7F)
    if (a["target"][0] >> 16) & 0xFF != k["tjmax"]:
        fail(f"{what}: TjMax {(a['target'][0] >> 16) & 0xFF}, want {k['tjmax']}")
    if not AMB_C <= temp <= k["tjmax"] - 10:
        fail(f"{what}: {temp} C outside {AMB_C:g} .. {k['tjmax'] - 10} C (steady state at TDP)")
    print(f"{what}: C0 {100 * c0avg:.2f} %, package {watt['pkg']:.2f} W, cores {watt['pp0']:.2f} W, "
          f"graphics {watt['pp1']:.2f} W, DRAM {watt['dram']:.2f} W ({lines * 64 / 1e9:.2f} GB/s), {temp} C")


# ---- the cores' IPC (the fixed counters) ----

# what the cores in C0 retire a cycle (docs/invariants.md, "IPC"): each
# `trace gen` kind's, and the range of each built-in workload's phases
KIND_IPC = {"stream": 0.5, "llc": 1.5, "burst": 0.5, "qpi": 0.3, "cstate": 1.0}
WL_IPC = {"skl": {"idle": (0.5, 0.5), "stream": (0.2, 0.5), "mixed": (0.5, 2.0)},
          "snbep": {"idle": (0.5, 0.5), "stream": (0.2, 0.5), "mixed": (0.5, 2.0)},
          "ivt": {"idle": (0.5, 0.5), "stream": (0.2, 0.5), "mixed": (0.5, 2.0)}}
# the clock the "cores" box's inputs are fed at: skl's uclk (3.0 GHz), the
# Xeons' PCU clock
CORES_HZ = {"skl": 3.0e9, "snbep": PCLK_HZ, "ivt": PCLK_HZ}
# the fixed counters on (IA32_FIXED_CTR_CTRL: every ring level for the
# three; IA32_PERF_GLOBAL_CTRL bits 32-34), then two reads 0.2 s apart
IPC_SCRIPT = ("wrmsr -a 0x38d 0x333; wrmsr -a 0x38f 0x7000000ff; "
              "rdmsr -a -0 -u 0x10; rdmsr -a -0 -u 0x309; rdmsr -a -0 -u 0x30a; sleep 0.2; "
              "rdmsr -a -0 -u 0x10; rdmsr -a -0 -u 0x309; rdmsr -a -0 -u 0x30a")


def ipc(platform):
    need("rdmsr", "msr-tools")
    need("wrmsr", "msr-tools")
    need("taskset", "util-linux")
    cores, sockets, tsc_hz, _ = PARTS[platform]
    ncpu = cores * sockets
    sources = [(f"workload {w}", ["--workload", w], WL_IPC[platform][w]) for w in WORKLOADS]
    for k, t in gen_traces(platform, KIND_IPC):
        sources.append((f"trace gen {k}", ["--trace", t], (KIND_IPC[k], KIND_IPC[k])))
    for what, src, (lo, hi) in sources:
        rep = os.path.join(WORK, "ipc.json")
        if os.path.exists(rep):
            os.unlink(rep)
        out = run(platform, [*src, "--report-json", rep], ["taskset", "-c", "0", "sh", "-c", IPC_SCRIPT])
        if out is None:
            continue
        v = [int(x) for x in out.split()]
        if len(v) != 6 * ncpu:
            fail(f"{platform} {what}: rdmsr printed {out[:300]!r}")
            continue
        tsc0, ins0, cyc0, tsc1, ins1, cyc1 = (v[i * ncpu:(i + 1) * ncpu] for i in range(6))
        with open(rep) as f:
            r = json.load(f)
        secs = r["machine_ns"] / 1e9
        fed = {}
        for e in r["fed"]:
            if e["box"] == "cores" and e["input"] == "INST_RETIRED":
                fed[e["socket"]] = fed.get(e["socket"], 0) + e["total"]
        for cpu in range(1, ncpu):   # cpu 0 runs the script, at its own IPC
            s = cpu // cores
            di, dc, dt = ins1[cpu] - ins0[cpu], cyc1[cpu] - cyc0[cpu], (tsc1[cpu] - tsc0[cpu]) / tsc_hz
            if dc <= 0:
                fail(f"{platform} {what}: cpu {cpu}: no unhalted cycle counted ({dc})")
                continue
            got = di / dc
            if not lo * 0.995 <= got <= hi * 1.005 or got > 4:
                fail(f"{platform} {what}: cpu {cpu}: IPC {got:.4f}, want {lo:g} .. {hi:g} (at most 4)")
            # the model's ground truth: the socket's INST_RETIRED (hundredths
            # of an instruction a core cycle, per cycle of its clock) over the
            # run, a core's share, over the window's part of the run (the
            # phases repeat many times within it)
            truth = fed.get(s, 0) / 100 * tsc_hz / CORES_HZ[platform] / cores * dt / secs
            near(f"{platform} {what}: cpu {cpu}: instructions against the fed INST_RETIRED", di, truth, 0.01)
        print(f"{platform} {what}: IPC of cpu 1 {ins1[1] - ins0[1]} / {cyc1[1] - cyc0[1]} = "
              f"{(ins1[1] - ins0[1]) / max(1, cyc1[1] - cyc0[1]):.4f}")


# ---- a program that sleeps leaves its core idle ----

SPIN = r"""
import os, struct, sys, time
fd = [os.open(f"/dev/cpu/{c}/msr", os.O_RDONLY) for c in (2, 3)]
rd = lambda a, c=0: struct.unpack("<Q", os.pread(fd[c], 8, a))[0]
# TSC, MPERF and C6 residency of cpu 2 (the program's), C6 of cpu 3
a = [rd(0x10), rd(0xE7), rd(0x3FD), rd(0x3FD, 1)]
if sys.argv[1] == "sleep":
    time.sleep(0.5)
else:
    for _ in range(2000):
        rd(0x10)
b = [rd(0x10), rd(0xE7), rd(0x3FD), rd(0x3FD, 1)]
print(*(y - x for x, y in zip(a, b)))
"""


def sleep_idles_core(platform):
    """On cpu 2 under the idle workload (its OS tick: 1 % of C0, the rest
    C6): a program that sleeps half a second leaves the core in C6 but for
    the tick; one that keeps reading MSRs holds it in C0 throughout, and
    out of C6, while cpu 3 beside it idles on (each core's own C6
    residency, MSR_CORE_C6_RESIDENCY at the TSC's rate: SDM Vol. 4 Table
    2-20, docs/platform-snbep.md R29)."""
    need("taskset", "util-linux")
    prog = os.path.join(WORK, "spin.py")
    with open(prog, "w") as f:
        f.write(SPIN)
    for how, c0, c6 in (("sleep", 0.01, 0.99), ("spin", 1.0, 0.0)):
        out = run(platform, ["--workload", "idle"], ["taskset", "-c", "2", sys.executable, prog, how])
        if out is None:
            continue
        dtsc, dm, d6, d6o = (int(v) for v in out.split())
        if dtsc <= 0:
            fail(f"{platform} {how}: the TSC did not move")
            continue
        near(f"{platform}: C0 residency of cpu 2 while its program does {how}", dm / dtsc, c0, 0.02)
        near(f"{platform}: C6 residency of cpu 2 while its program does {how}", d6 / dtsc, c6, 0.02, 0.001)
        near(f"{platform}: C6 residency of cpu 3 beside it", d6o / dtsc, 0.99, 0.02)


# ---- acceptance: likwid's ENERGY group, idle and stream ----

def likwid_energy(platform, workload):
    out = run(platform, ["--workload", workload],
              ["likwid-perfctr", "-M", "0", "-C", "1", "-g", "ENERGY", "sleep", "1"])
    if out is None:
        return None
    m = {}
    names = ["Runtime (RDTSC) [s]", "Runtime unhalted [s]", "Temperature [C]", "Power [W]",
             "Power PP0 [W]", "Power DRAM [W]"]
    for name in names + (["Power PP1 [W]"] if platform == "skl" else []):
        r = re.search(r"\|\s*" + re.escape(name) + r"\s*\|\s*([-0-9.e+]+)\s*\|", out)
        if not r:
            fail(f"{platform} {workload}: likwid printed no {name!r}:\n{out[-1500:]}")
            return None
        m[name] = float(r.group(1))
    return m


def energy_likwid(platform):
    need("likwid-perfctr", "likwid")
    cores = PARTS[platform][0]
    k = COEF[platform]
    rth = (k["tjmax"] - 10 - AMB_C) / k["tdp"]
    got = {}
    for w in ("idle", "stream"):
        m = likwid_energy(platform, w)
        if m is None:
            return
        c0 = m["Runtime unhalted [s]"] / m["Runtime (RDTSC) [s]"]
        p, pp0, dram, temp = m["Power [W]"], m["Power PP0 [W]"], m["Power DRAM [W]"], m["Temperature [C]"]
        gt_w = m["Power PP1 [W]"] - k["pp1_idle"] if platform == "skl" else 0.0
        lines = (dram - k["dram_idle"]) / k["dram_j"]
        # cpu 1 runs `sleep` (likwid pins it there): its C0 is the workload's
        near(f"{platform} {w}: C0 residency", c0, 0.01 if w == "idle" else 1.0, 0.03)
        near(f"{platform} {w}: package power from C0 {c0:.4f} and {lines * 64 / 1e9:.2f} GB/s", p,
             k["pkg_idle"] + cores * core_w(platform) * c0 + k["uncore_j"] * lines + gt_w, 0.01, 0.05)
        near(f"{platform} {w}: cores' power", pp0, k["pp0_idle"] + cores * core_w(platform) * c0, 0.01, 0.05)
        if not k["pkg_idle"] <= p <= k["tdp"]:
            fail(f"{platform} {w}: package {p} W outside {k['pkg_idle']} .. {k['tdp']} W")
        got[w] = (c0, p, dram, temp)
        print(f"{platform} {w}: C0 {100 * c0:.2f} %, package {p:.2f} W, cores {pp0:.2f} W, "
              f"DRAM {dram:.2f} W, {temp:g} C")
    (c0i, pi, di, ti), (c0s, ps, ds, ts) = got["idle"], got["stream"]
    # idle from power-on: the steady state of its power, whole degrees
    near(f"{platform} idle: temperature", ti, AMB_C + rth * pi, 0, 1.0)
    # stream: on its way from the idle steady state to its own, after at
    # least the second likwid measures
    lo = AMB_C + rth * ps + (AMB_C + rth * pi - (AMB_C + rth * ps)) * math.exp(-1.0 / TAU_S)
    if not lo - 1 <= ts <= AMB_C + rth * ps + 1:
        fail(f"{platform} stream: {ts} C, want {lo:.1f} .. {AMB_C + rth * ps:.1f} C")
    if not (c0s > 10 * c0i and ps > pi + 50 and ds > di + 10 and ts > ti + 10):
        fail(f"{platform}: idle and stream do not differ: C0 {c0i:.4f}/{c0s:.4f}, {pi}/{ps} W, "
             f"DRAM {di}/{ds} W, {ti}/{ts} C")


# ---- the v2's PCU counts the package's C-states as the MSRs do ----

PKG_PCU = ["UNC_P_PKG_C_STATE_RESIDENCY_C0_CYCLES", "UNC_P_PKG_C_STATE_RESIDENCY_C2_CYCLES",
           "UNC_P_PKG_C_STATE_RESIDENCY_C3_CYCLES", "UNC_P_PKG_C_STATE_RESIDENCY_C6_CYCLES"]
PKG_MSRS = ("0x10", "0x60d", "0x3f8", "0x3f9")


def pkg_pcu_ivt():
    """The E5-2600 v2's PCU counts the package in C0, C2, C3 and C6 (Intel's
    v2 list), one state a pclk: through the driver (`uncore stat`) the four
    add up to the PCU's clock, 800 MHz a socket, and each state's share of a
    second equals what MSR_PKG_Cn_RESIDENCY (rdmsr under `uncore run`, at the
    TSC's rate) counts over a second of the same workload."""
    need("rdmsr", "msr-tools")
    cores, sockets, tsc_hz, _ = PARTS["ivt"]
    for w in WORKLOADS:
        p = subprocess.run([UNCORE, "stat", "--platform", "ivt", "--workload", w, "-x,", "-e", ",".join(PKG_PCU)],
                           capture_output=True, text=True, timeout=600)
        if p.returncode:
            fail(f"uncore stat --workload {w}: exit {p.returncode}: {p.stderr.strip()}")
            continue
        cnt = {}
        for ln in p.stdout.splitlines():
            f = ln.split(",")
            if len(f) > 3 and f[2] in PKG_PCU:
                cnt[f[2]] = (int(f[0]), int(f[3]) / 1e9)
        if len(cnt) != len(PKG_PCU):
            fail(f"uncore stat --workload {w}: printed {p.stdout!r}")
            continue
        secs = cnt[PKG_PCU[0]][1]
        pclks = PCLK_HZ * secs * sockets
        # the time the driver reports is its window's, some microseconds
        # longer than the counters' enabled time
        near(f"ivt {w}: the PCU's package C0+C2+C3+C6 cycles", sum(v for v, _ in cnt.values()), pclks, 1e-4)
        pcu = [cnt[e][0] / pclks for e in PKG_PCU[1:]]
        rd = " ".join(f"rdmsr -p{s * cores} -0 -u {m};" for m in PKG_MSRS for s in range(sockets))
        out = run("ivt", ["--workload", w], ["sh", "-c", f"{rd} sleep 1; {rd}"])
        if out is None:
            continue
        v = [int(x) for x in out.split()]
        n = len(PKG_MSRS) * sockets
        if len(v) != 2 * n:
            fail(f"ivt {w}: rdmsr printed {out!r}")
            continue
        d = [b - a for a, b in zip(v[:n], v[n:])]
        tsc = sum(d[:sockets])
        msr = [sum(d[k * sockets:(k + 1) * sockets]) / tsc for k in range(1, len(PKG_MSRS))]
        for name, a, b in zip(("C2", "C3", "C6"), pcu, msr):
            near(f"ivt {w}: the package in {name}, the PCU's share against MSR_PKG_{name}_RESIDENCY's", a, b, 0, 0.002)
        print(f"ivt {w}: package C2/C3/C6: PCU {', '.join(f'{100 * x:.2f} %' for x in pcu)}; "
              f"MSRs {', '.join(f'{100 * x:.2f} %' for x in msr)}")


CASES = {
    "invariants_snbep": lambda: invariants("snbep"),
    "invariants_ivt": lambda: invariants("ivt"),
    "sleep_idles_core_snbep": lambda: sleep_idles_core("snbep"),
    "sleep_idles_core_ivt": lambda: sleep_idles_core("ivt"),
    "energy_likwid_snbep": lambda: energy_likwid("snbep"),
    "energy_likwid_ivt": lambda: energy_likwid("ivt"),
    "invariants_skl": lambda: invariants("skl"),
    "sleep_idles_core_skl": lambda: sleep_idles_core("skl"),
    "energy_likwid_skl": lambda: energy_likwid("skl"),
    "ipc_skl": lambda: ipc("skl"),
    "ipc_snbep": lambda: ipc("snbep"),
    "ipc_ivt": lambda: ipc("ivt"),
    "pkg_pcu_ivt": pkg_pcu_ivt,
}

if __name__ == "__main__":
    main(CASES)
