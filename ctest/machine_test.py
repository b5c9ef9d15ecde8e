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
  nominal rate, APERF = MPERF <= TSC, the PCU's C3/C6 residency within one
  a pclk and C0 + C3 + C6 <= 100 %, RAPL energy between idle and TDP and as
  the coefficients make it of C0 and DRAM traffic, DRAM traffic no more than
  the cores in C0 can ask for, the temperature between the steady states of
  no power and TDP;
- sleep_idles_core_<platform>: a program that sleeps leaves its core to the
  idle workload's 1 % of C0; one that runs keeps it in C0;
- energy_likwid_<platform>: likwid-perfctr -g ENERGY on the idle and the
  stream workloads: different power, C0 residency and temperature, each
  what the coefficients make of the other counters.
"""
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
PARTS = {"snbep": (8, 2, 2.7e9, 4 * 1600e6 / 8), "ivt": (12, 2, 2.7e9, 4 * 1866.67e6 / 8)}
PCLK_HZ = 800e6            # the PCU's clock (uncore guides, 2.6.7 / CLOCKTICKS)
TDP_W = 130.0
TJMAX = 92
PKG_IDLE_W, PP0_IDLE_W, DRAM_IDLE_W = 20.0, 2.0, 4.0
UNCORE_J, DRAM_J = 5e-9, 70e-12 * 512
AMB_C, TAU_S = 30.0, 1.0
RTH = (TJMAX - 10 - AMB_C) / TDP_W
LFB, DRAM_NS = 10, 60e-9
WORKLOADS = ("idle", "stream", "mixed")
KINDS = ("stream", "llc", "burst", "idle", "qpi", "cstate")


def core_w(platform):
    cores, _, _, peak = PARTS[platform]
    return (TDP_W - PKG_IDLE_W - UNCORE_J * peak) / cores


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


# ---- invariants over every workload and trace kind (rdmsr) ----

MSRS = {"tsc": 0x10, "mperf": 0xE7, "aperf": 0xE8, "c3": 0x3FC, "c6": 0x3FD, "pkg": 0x611,
        "pp0": 0x639, "dram": 0x619, "therm": 0x1B1, "target": 0x1A2, "info": 0x614, "unit": 0x606}
WINDOW_S = 0.2


def sample_script():
    rd = " ".join(f"rdmsr -a -0 -u {a:#x};" for a in MSRS.values())
    return f"{rd} sleep {WINDOW_S}; {rd}"


def parse_samples(out, ncpu):
    vals = [int(v) for v in out.split()]
    if len(vals) != 2 * len(MSRS) * ncpu:
        return None
    res = []
    for k in range(2):
        d = {}
        for i, name in enumerate(MSRS):
            base = (k * len(MSRS) + i) * ncpu
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
        c0 = []
        for cpu in cpus:
            dm = b["mperf"][cpu] - a["mperf"][cpu]
            da = b["aperf"][cpu] - a["aperf"][cpu]
            if not 0 <= dm <= dtsc * 1.0001:
                fail(f"{what}: cpu {cpu}: MPERF counted {dm} of {dtsc} TSC ticks")
            # at the nominal ratio (no turbo) APERF counts as MPERF; the
            # two are read by two rdmsr runs, some microseconds apart
            if abs(da - dm) > 1e-3 * dtsc:
                fail(f"{what}: cpu {cpu}: APERF {da} != MPERF {dm} at the nominal ratio (no turbo)")
            c0.append(dm / dtsc)
        c0avg = sum(c0) / cores
        # the PCU's residency counters: at most one a pclk (2.6.3.3), and a
        # cycle some core is in C3/C6 holds at least one of the cores, so
        # C0 + (C3 + C6 shares) / cores stays within 100 %
        share = {}
        for k in ("c3", "c6"):
            n = b[k][c] - a[k][c]
            share[k] = n / (PCLK_HZ * dt)
            if not 0 <= share[k] <= 1.001:
                fail(f"{what}: socket {s}: {k} residency {n} in {PCLK_HZ * dt:.0f} pclks")
        if c0avg + (share["c3"] + share["c6"]) / cores > 1.001:
            fail(f"{what}: socket {s}: C0 {c0avg:.4f} + (C3 {share['c3']:.4f} + C6 {share['c6']:.4f}) / "
                 f"{cores} cores is above 100 %")
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
        print(f"{what}: socket {s}: C0 {100 * c0avg:.2f} %, C3/C6 (some core) {100 * share['c3']:.2f}/"
              f"{100 * share['c6']:.2f} %, package {watt['pkg']:.2f} W, cores {watt['pp0']:.2f} W, "
              f"DRAM {watt['dram']:.2f} W ({lines * 64 / 1e9:.2f} GB/s), {temp} C")


def invariants(platform):
    need("rdmsr", "msr-tools")
    cores, sockets, _, _ = PARTS[platform]
    sources = [(f"workload {w}", ["--workload", w]) for w in WORKLOADS]
    for k in KINDS:
        t = os.path.join(WORK, f"{platform}-{k}.uct")
        p = subprocess.run([UNCORE, "trace", "gen", k, "--platform", platform, "--duration", "1", "-o", t],
                           capture_output=True, text=True, timeout=600)
        if p.returncode:
            fail(f"trace gen {k} --platform {platform}: exit {p.returncode}: {p.stderr.strip()}")
            continue
        sources.append((f"trace gen {k}", ["--trace", t]))
    for what, src in sources:
        out = run(platform, src, ["sh", "-c", sample_script()])
        if out is None:
            continue
        smp = parse_samples(out, cores * sockets)
        if smp is None:
            fail(f"{platform} {what}: rdmsr -a printed {out[:300]!r}")
            continue
        check_window(platform, f"{platform} {what}", *smp)


# ---- a program that sleeps leaves its core idle ----

SPIN = r"""
import os, struct, sys, time
fd = os.open("/dev/cpu/2/msr", os.O_RDONLY)
rd = lambda a: struct.unpack("<Q", os.pread(fd, 8, a))[0]
t0, m0 = rd(0x10), rd(0xE7)
if sys.argv[1] == "sleep":
    time.sleep(0.5)
else:
    for _ in range(2000):
        rd(0x10)
t1, m1 = rd(0x10), rd(0xE7)
print(t1 - t0, m1 - m0)
"""


def sleep_idles_core(platform):
    """On cpu 2 under the idle workload (its OS tick: 1 % of C0): a program
    that sleeps half a second leaves the core in C6 but for the tick; one
    that keeps reading MSRs holds it in C0 throughout."""
    need("taskset", "util-linux")
    prog = os.path.join(WORK, "spin.py")
    with open(prog, "w") as f:
        f.write(SPIN)
    for how, want in (("sleep", 0.01), ("spin", 1.0)):
        out = run(platform, ["--workload", "idle"], ["taskset", "-c", "2", sys.executable, prog, how])
        if out is None:
            continue
        dtsc, dm = (int(v) for v in out.split())
        if dtsc <= 0:
            fail(f"{platform} {how}: the TSC did not move")
            continue
        near(f"{platform}: C0 residency of cpu 2 while its program does {how}", dm / dtsc, want, 0.02)


# ---- acceptance: likwid's ENERGY group, idle and stream ----

def likwid_energy(platform, workload):
    out = run(platform, ["--workload", workload],
              ["likwid-perfctr", "-M", "0", "-C", "1", "-g", "ENERGY", "sleep", "1"])
    if out is None:
        return None
    m = {}
    for name in ("Runtime (RDTSC) [s]", "Runtime unhalted [s]", "Temperature [C]", "Power [W]",
                 "Power PP0 [W]", "Power DRAM [W]"):
        r = re.search(r"\|\s*" + re.escape(name) + r"\s*\|\s*([-0-9.e+]+)\s*\|", out)
        if not r:
            fail(f"{platform} {workload}: likwid printed no {name!r}:\n{out[-1500:]}")
            return None
        m[name] = float(r.group(1))
    return m


def energy_likwid(platform):
    need("likwid-perfctr", "likwid")
    cores = PARTS[platform][0]
    got = {}
    for w in ("idle", "stream"):
        m = likwid_energy(platform, w)
        if m is None:
            return
        c0 = m["Runtime unhalted [s]"] / m["Runtime (RDTSC) [s]"]
        p, pp0, dram, temp = m["Power [W]"], m["Power PP0 [W]"], m["Power DRAM [W]"], m["Temperature [C]"]
        lines = (dram - DRAM_IDLE_W) / DRAM_J
        # cpu 1 runs `sleep` (likwid pins it there): its C0 is the workload's
        near(f"{platform} {w}: C0 residency", c0, 0.01 if w == "idle" else 1.0, 0.03)
        near(f"{platform} {w}: package power from C0 {c0:.4f} and {lines * 64 / 1e9:.2f} GB/s", p,
             PKG_IDLE_W + cores * core_w(platform) * c0 + UNCORE_J * lines, 0.01, 0.05)
        near(f"{platform} {w}: cores' power", pp0, PP0_IDLE_W + cores * core_w(platform) * c0, 0.01, 0.05)
        if not PKG_IDLE_W <= p <= TDP_W:
            fail(f"{platform} {w}: package {p} W outside {PKG_IDLE_W} .. {TDP_W} W")
        got[w] = (c0, p, dram, temp)
        print(f"{platform} {w}: C0 {100 * c0:.2f} %, package {p:.2f} W, cores {pp0:.2f} W, "
              f"DRAM {dram:.2f} W, {temp:g} C")
    (c0i, pi, di, ti), (c0s, ps, ds, ts) = got["idle"], got["stream"]
    # idle from power-on: the steady state of its power, whole degrees
    near(f"{platform} idle: temperature", ti, AMB_C + RTH * pi, 0, 1.0)
    # stream: on its way from the idle steady state to its own, after at
    # least the second likwid measures
    lo = AMB_C + RTH * ps + (AMB_C + RTH * pi - (AMB_C + RTH * ps)) * math.exp(-1.0 / TAU_S)
    if not lo - 1 <= ts <= AMB_C + RTH * ps + 1:
        fail(f"{platform} stream: {ts} C, want {lo:.1f} .. {AMB_C + RTH * ps:.1f} C")
    if not (c0s > 10 * c0i and ps > pi + 50 and ds > di + 10 and ts > ti + 10):
        fail(f"{platform}: idle and stream do not differ: C0 {c0i:.4f}/{c0s:.4f}, {pi}/{ps} W, "
             f"DRAM {di}/{ds} W, {ti}/{ts} C")


CASES = {
    "invariants_snbep": lambda: invariants("snbep"),
    "invariants_ivt": lambda: invariants("ivt"),
    "sleep_idles_core_snbep": lambda: sleep_idles_core("snbep"),
    "sleep_idles_core_ivt": lambda: sleep_idles_core("ivt"),
    "energy_likwid_snbep": lambda: energy_likwid("snbep"),
    "energy_likwid_ivt": lambda: energy_likwid("ivt"),
}

if __name__ == "__main__":
    main(CASES)
