#!/usr/bin/env python3
"""tools_test.py UNCORE CASE - unmodified tools on the simulated machine.

Each case runs a tool that nobody on this project wrote (msr-tools, pciutils,
likwid, Intel PCM, from Debian's packages) under `uncore run`, and compares
what the tool printed with the ground truth the machine reports
(--report-json): counts exactly, rates within the tool's own rounding.  Where
a tool is wrong, the case pins the tool's exact error (docs/tools.md,
"Findings").  A tool that is not installed fails the case and names its
package: the README's test command installs them.

Expected values come from the manuals (register addresses, field positions,
device IDs, NO_CBO_BANKS) and from the machine's ground truth, never from the
tool under test.
"""
import json
import os
import re
import shutil
import subprocess
import sys

from ct_py import CASE, UNCORE, fail, finish, need, workdir, main

WORK = workdir("uncore-tools-")


def run(platform, argv, env=None, expect_rc=0, extra=()):
    """Run argv on the machine; returns (stdout, stderr, report)."""
    report = os.path.join(WORK, "report.json")
    if os.path.exists(report):
        os.unlink(report)
    e = dict(os.environ)
    e.update(env or {})
    cmd = [UNCORE, "run", "--platform", platform, "--report-json", report, *extra, "--", *argv]
    p = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=600)
    if re.search(r"AddressSanitizer|LeakSanitizer|runtime error:", p.stderr):
        fail(f"sanitizer report from {' '.join(cmd)}:\n{p.stderr}")
    if p.returncode != expect_rc:
        fail(f"{' '.join(argv)}: exit {p.returncode}, want {expect_rc}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    rep = None
    if os.path.exists(report):
        with open(report) as f:
            rep = json.load(f)
    elif expect_rc == 0:
        fail(f"{' '.join(argv)}: no report written")
    return p.stdout, p.stderr, rep


def counter(rep, register, socket=0):
    for c in rep["counters"]:
        if c["register"] == register and c["socket"] == socket:
            return c
    fail(f"the program did not read {register} on socket {socket}")
    return None


def eq(what, got, want):
    if got != want:
        fail(f"{what}: tool printed {got}, ground truth {want}")


def close(what, got, want, rel, absolute):
    """got within the tool's rounding (absolute) and its own time base (rel)."""
    if abs(got - want) > absolute + rel * abs(want):
        fail(f"{what}: tool printed {got}, ground truth {want:.6f} (allowed {absolute} + {rel:g} relative)")


# ---- msr-tools ----

def msr_skl():
    need("rdmsr", "msr-tools")
    need("wrmsr", "msr-tools")
    # SKL Table 2-1: MSR_UNC_PERF_GLOBAL_CTRL 0xE01 (EN bit 29),
    # MSR_UNC_PERF_FIXED_CTRL 0x394 (EN bit 22), MSR_UNC_PERF_FIXED_CTR 0x395,
    # MSR_UNC_CBO_CONFIG 0x396
    # The counters are preloaded past 2^32 with their top bit set (48-bit
    # fixed counter: bit 47; 44-bit CBo counter 0x706, Table 2-3: bit 43), so
    # a read or write that lost the high half, or the top bit, shows.
    script = ("wrmsr -p 0 0x395 0xfffe00000000 && "
              "wrmsr -p 0 0xe01 0x20000000 && wrmsr -p 0 0x394 0x400000 && "
              "rdmsr -p 0 -d 0x395 && sleep 1 && rdmsr -p 0 -d 0x395 && "
              "rdmsr -p 0 -c 0x396 && rdmsr -p 0 -c 0xe01 && rdmsr -p 3 -c 0xe01 && "
              "wrmsr -p 0 0x706 0xabcde123456 && rdmsr -p 0 -c 0x706 && rdmsr -p 2 -d 0x706")
    out, _, rep = run("skl", ["sh", "-c", script])
    lines = out.split()
    if len(lines) != 7:
        fail(f"expected 7 values, got {out!r}")
        return
    v1, v2 = int(lines[0]), int(lines[1])
    # 3.0 GHz for 1 s from 0xfffe00000000 stays below the 2^48 wrap
    if not 0xfffe00000000 <= v1 < v2 < 1 << 48:
        fail(f"UCLK counter preloaded 0xfffe00000000: read {v1:#x}, then {v2:#x}")
    eq("CBo 0 counter 0 read back (disabled: holds what was written)", int(lines[5], 16), 0xABCDE123456)
    eq("the same from cpu 2, in decimal", int(lines[6]), 0xABCDE123456)
    c = counter(rep, "MSR_UNC_PERF_FIXED_CTR")
    if c:
        eq("first rdmsr of the UCLK counter", v1, c["first_value"])
        eq("second rdmsr of the UCLK counter", v2, c["last_value"])
        eq("UCLK cycles between the reads", v2 - v1, c["truth"])
        # 3.0 GHz uclk (docs/platform-skl.md D8) over the machine time between the reads
        close("UCLK rate (Hz)", (v2 - v1) / ((c["last_ns"] - c["first_ns"]) / 1e9), 3.0e9, 1e-6, 0)
    # 2.4.1: NO_CBO_BANKS counts the CBos plus one (decision D3): 4 CBos -> 5
    eq("MSR_UNC_CBO_CONFIG", int(lines[2], 16) & 0xF, 5)
    eq("MSR_UNC_PERF_GLOBAL_CTRL read back", int(lines[3], 16), 0x20000000)
    eq("the uncore MSR is the package's: cpu 3 sees cpu 0's write", int(lines[4], 16), 0x20000000)
    # an MSR the machine does not implement is a #GP: rdmsr says so and fails
    out, err, _ = run("skl", ["rdmsr", "0x12345"], expect_rc=4)
    if "cannot read MSR" not in err:
        fail(f"rdmsr of an unimplemented MSR: stderr {err!r}")


def check_c6(c6, written):
    """MSR_CORE_C6_RESIDENCY (the guide's PCU_MSR_CORE_C6_CTR, 64 bits,
    RW-V) written with bit 63 set and read back by rdmsr on socket 1: it
    counts C6 residency from what was written, a little more, never less"""
    if not written <= c6 < written + (1 << 32):
        fail(f"MSR_CORE_C6_RESIDENCY written {written:#x}, read {c6:#x}")


def msr_snbep():
    need("rdmsr", "msr-tools")
    need("wrmsr", "msr-tools")
    # SNB-EP Table 2-5/2-6: U_MSR_PMON_UCLK_FIXED_CTL 0xC08 (EN bit 22),
    # U_MSR_PMON_UCLK_FIXED_CTR 0xC09; cpu 8 is the first of socket 1
    # Socket 1's counter is preloaded with its top bit (47 of 48, Table 2-5, R1)
    # and the C6 residency counter 0x3FD (64 bits, Table 2-78) with bit 63:
    # a read or write that lost the high half, or the top bit, shows.
    script = ("wrmsr -p 8 0xc09 0x800000000123 && "
              "wrmsr -p 8 0xc08 0x400000 && rdmsr -p 8 -d 0xc09 && sleep 1 && rdmsr -p 8 -d 0xc09 && "
              "rdmsr -p 0 -d 0xc09 && for c in $(seq 0 15); do rdmsr -p $c -c 0xc08; done && "
              "wrmsr -p 8 0x3fd 0xc000000000000123 && rdmsr -p 8 -c 0x3fd")
    out, _, rep = run("snbep", ["sh", "-c", script])
    lines = out.split()
    if len(lines) != 3 + 16 + 1:
        fail(f"expected 20 values, got {out!r}")
        return
    v1, v2, s0 = int(lines[0]), int(lines[1]), int(lines[2])
    # 2.7 GHz for 1 s from 2^47 + 0x123 stays below the 2^48 wrap
    if not 0x800000000123 <= v1 < v2 < 1 << 48:
        fail(f"UCLK counter preloaded 0x800000000123: read {v1:#x}, then {v2:#x}")
    check_c6(int(lines[19], 16), 0xC000000000000123)
    c = counter(rep, "U_MSR_PMON_UCLK_FIXED_CTR", socket=1)
    if c:
        eq("socket 1 UCLK, first read", v1, c["first_value"])
        eq("socket 1 UCLK, second read", v2, c["last_value"])
        eq("socket 1 UCLK cycles between the reads", v2 - v1, c["truth"])
    c0 = counter(rep, "U_MSR_PMON_UCLK_FIXED_CTR", socket=0)
    if c0:
        eq("socket 0's counter, never enabled", s0, c0["last_value"])
        eq("socket 0's counter counts nothing", s0, 0)
    ctl = [int(x, 16) for x in lines[3:19]]
    eq("UCLK_FIXED_CTL on cpus 0-7 (socket 0)", ctl[:8], [0] * 8)
    eq("UCLK_FIXED_CTL on cpus 8-15 (socket 1)", ctl[8:], [0x400000] * 8)


def msr_ivt():
    need("rdmsr", "msr-tools")
    need("wrmsr", "msr-tools")
    # Xeon E5-2600 v2 (docs/platform-ivt.md; ivt-facts.md §2, §12): the UCLK
    # fixed counter 0xC09 (48 bits) enabled with ov_en (bits 22 and 20 of
    # 0xC08) and preloaded 2^48 - 1000 on socket 1 (cpu 12, the first of
    # its 12): it overflows at once, sets box status 0xC15 bit 2 and global
    # status 0xC01 bit 0, and freezes the socket; 0xC00 reads back without
    # the write-only unfrz_all.  Then the re-arm: clear both bits (write 1),
    # unfrz_all, and the counter runs again.
    # The preload is read back before the counter is enabled (over 2^32,
    # bit 47 set), and the C6 residency counter 0x3FD (64 bits) is written
    # with bit 63 set: a read or write that lost the high half shows.
    script = ("wrmsr -p 12 0xc00 0x1 && wrmsr -p 12 0xc09 0xfffffffffc18 && rdmsr -p 12 -c 0xc09 && "
              "wrmsr -p 12 0xc08 0x500000 && "
              "sleep 0.1 && rdmsr -p 12 -c 0xc15 && rdmsr -p 12 -c 0xc01 && rdmsr -p 12 -d 0xc09 && "
              "sleep 0.1 && rdmsr -p 12 -d 0xc09 && rdmsr -p 0 -c 0xc01 && "
              "wrmsr -p 12 0xc15 0x4 && wrmsr -p 12 0xc01 0x1 && wrmsr -p 12 0xc00 0x20000001 && "
              "rdmsr -p 12 -c 0xc00 && rdmsr -p 12 -c 0xc15 && rdmsr -p 12 -c 0xc01 && sleep 0.1 && "
              "rdmsr -p 12 -d 0xc09 && wrmsr -p 12 0x3fd 0x8000000123456789 && rdmsr -p 12 -c 0x3fd")
    out, _, rep = run("ivt", ["sh", "-c", script])
    v = out.split()
    if len(v) != 11:
        fail(f"expected 11 values, got {out!r}")
        return
    eq("the preload read back before the counter runs", int(v[0], 16), 0xFFFFFFFFFC18)
    check_c6(int(v[10], 16), 0x8000000123456789)
    v = v[1:10]
    eq("U_MSR_PMON_BOX_STATUS after the overflow", int(v[0], 16), 0x4)
    eq("U_MSR_PMON_GLOBAL_STATUS after the overflow", int(v[1], 16), 0x1)
    eq("the fixed counter, frozen after its wrap", int(v[2]), int(v[3]))
    eq("socket 0's global status", int(v[4], 16), 0)
    eq("GLOBAL_CTL after unfrz_all (write-only)", int(v[5], 16), 0x1)
    eq("box status after write-1-to-clear", int(v[6], 16), 0)
    eq("global status after write-1-to-clear", int(v[7], 16), 0)
    c = counter(rep, "U_MSR_PMON_UCLK_FIXED_CTR", socket=1)
    if c:
        eq("the counter's last value", int(v[8]), c["last_value"])
        if int(v[8]) <= int(v[3]):
            fail("the counter did not run again after the re-arm")


# ---- pciutils ----

def lspci_devices(out):
    return {m.group(1): m.group(2) for m in re.finditer(r"^(\S+) \S+: (\w{4}:\w{4})", out, re.M)}


def pci_skl():
    need("lspci", "pciutils")
    need("setpci", "pciutils")
    out, _, _ = run("skl", ["lspci", "-n"])
    # SKL 3.3: the host bridge at 0:0.0 carries MCHBAR; 0x191F is a 4-core
    # desktop host bridge
    eq("devices lspci lists", lspci_devices(out), {"00:00.0": "8086:191f"})
    out, _, _ = run("skl", ["lspci", "-n", "-A", "linux-proc"])
    eq("devices lspci lists from /proc/bus/pci", lspci_devices(out), {"00:00.0": "8086:191f"})
    out, _, _ = run("skl", ["setpci", "-s", "0:0.0", "0.l", "48.l", "4c.l"])
    vals = [int(x, 16) for x in out.split()]
    # MCHBAR (0x48, SKL 3.3): enabled (bit 0) at the platform's default base
    eq("vendor/device dword", vals[0], 0x191F8086)
    eq("MCHBAR low dword", vals[1], 0xFED10001)
    eq("MCHBAR high dword", vals[2], 0)


def pci_snbep():
    need("lspci", "pciutils")
    need("setpci", "pciutils")
    out, _, _ = run("snbep", ["lspci", "-n"])
    devs = lspci_devices(out)
    # SNB-EP Table 2-1 / 2.3-2.9: UBox D11:F0 3CE0, HA D14:F1 3C46, iMC
    # channels D16:F0,1,4,5 3CB0,3CB1,3CB4,3CB5, QPI D8:F2 3C41, D9:F2 3C42,
    # R2PCIe D19:F1 3C43, R3QPI D19:F5 3C44, D19:F6 3C45 on each socket's bus
    for bus in ("3f", "7f"):
        for dev, did in (("0b.0", "3ce0"), ("0e.1", "3c46"), ("10.0", "3cb0"), ("10.1", "3cb1"),
                         ("10.4", "3cb4"), ("10.5", "3cb5"), ("08.2", "3c41"), ("09.2", "3c42"),
                         ("13.1", "3c43"), ("13.5", "3c44"), ("13.6", "3c45")):
            eq(f"device at {bus}:{dev}", devs.get(f"{bus}:{dev}"), f"8086:{did}")
    out2, _, _ = run("snbep", ["lspci", "-n", "-A", "linux-proc"])
    eq("lspci through /proc/bus/pci lists the same devices", lspci_devices(out2), devs)
    # iMC channel 0 of socket 1: CAS_COUNT.RD (event 0x04, umask 0x03, EN bit
    # 22: Tables 2-61, 2-64) for a second; freeze the box (frz_en bit 16 + frz
    # bit 8, Table 2-60, 2.1.1) and read the 48-bit counter as two dwords
    script = ("setpci -s 7f:10.0 d8.l=00400304 && sleep 1 && setpci -s 7f:10.0 f4.l=00010100 && "
              "setpci -s 7f:10.0 a0.l a4.l d8.l && setpci -s 3f:10.0 a0.l a4.l")
    out, _, rep = run("snbep", ["sh", "-c", script])
    vals = [int(x, 16) for x in out.split()]
    if len(vals) != 5:
        fail(f"expected 5 values, got {out!r}")
        return
    c = counter(rep, "MC_CH0_PCI_PMON_CTR0", socket=1)
    if c:
        eq("socket 1 iMC ch0 counter (two dwords, frozen)", vals[1] << 32 | vals[0], c["last_value"])
        eq("nothing counted between the reads of a frozen box", c["truth"], 0)
        if c["last_value"] == 0:
            fail("the counter counted nothing in a second of the mixed workload")
    eq("control register read back", vals[2], 0x400304)
    eq("socket 0's channel 0, never programmed", vals[3] << 32 | vals[4], 0)


def pci_ivt():
    need("lspci", "pciutils")
    need("setpci", "pciutils")
    out, _, _ = run("ivt", ["lspci", "-n"])
    devs = lspci_devices(out)
    # ivt-facts.md §7-§13 (Linux, PCM, likwid, pci.ids): UBox D11:F0 0E1E,
    # HA D14:F1 0E30 and D28:F1 0E38, iMC D16/D30 F4,5,0,1, QPI D8:F2 0E32,
    # D9:F2 0E33, R2PCIe D19:F1 0E34, R3QPI D19:F5 0E36, D19:F6 0E37, IRP
    # D5:F6 0E39, on each socket's bus
    for bus in ("3f", "7f"):
        for dev, did in (("0b.0", "0e1e"), ("0e.1", "0e30"), ("1c.1", "0e38"), ("10.4", "0eb4"),
                         ("10.5", "0eb5"), ("10.0", "0eb0"), ("10.1", "0eb1"), ("1e.4", "0ef4"),
                         ("1e.5", "0ef5"), ("1e.0", "0ef0"), ("1e.1", "0ef1"), ("08.2", "0e32"),
                         ("09.2", "0e33"), ("13.1", "0e34"), ("13.5", "0e36"), ("13.6", "0e37"),
                         ("05.6", "0e39")):
            eq(f"device at {bus}:{dev}", devs.get(f"{bus}:{dev}"), f"8086:{did}")
    # iMC MC1 channel 0 (D30:F4) of socket 1: DCLOCKTICKS (event 0) with en
    # (bit 22) for 0.1 s, then frozen by its box control (frz bit 8, with
    # the bits 17:16 software must write as 1): the box control reads back
    # 0x30000 (frz is write-only) and the counter stands still
    script = ("setpci -s 7f:1e.4 d8.l=00400000 && sleep 0.1 && setpci -s 7f:1e.4 f4.l=00030100 && "
              "setpci -s 7f:1e.4 a0.l a4.l f4.l && sleep 0.1 && setpci -s 7f:1e.4 a0.l")
    out, _, rep = run("ivt", ["sh", "-c", script])
    vals = [int(x, 16) for x in out.split()]
    if len(vals) != 4:
        fail(f"expected 4 values, got {out!r}")
        return
    eq("box control read back", vals[2], 0x30000)
    eq("a frozen counter stands still", vals[3], vals[0])
    c = counter(rep, "MC_CH4_PCI_PMON_CTR0", socket=1)
    if c:
        eq("socket 1 MC1 ch0 counter (two dwords, frozen)", vals[1] << 32 | vals[0], c["last_value"])
        # 0.1 s of a 933 MHz DCLK, give or take the accesses' time
        close("DCLK cycles in 0.1 s", vals[1] << 32 | vals[0], 93333333, 0.01, 0)


# ---- the PCI functions tools open ----

# The functions of each socket's uncore bus on the real part, with the header
# it reports (PCI Local Bus 3.0, 6.2.1): device ID (public facts, pci.ids),
# class as lspci shows it on E5-2600 and E5-2600 v2 systems (1101
# "Performance counters", 0880 "System peripheral"), and the part's
# revision (07 on the E5-2600 C2, 04 on the v2); every function has vendor
# 8086, header type 0x80 (multi-function) and subsystem 8086:0000
# (docs/tools.md "PCI functions").  A function a tool opens must be here
# and read these values; one it looks for that the part has not (PCM's QPI
# port 2 and second iMC on the E5-2600, likwid's D10:F6 on the v2) must be
# absent from the machine as well.
PMON, OTHER = 0x1101, 0x0880
PCI_PART = {
    "snbep": (0x07, {
        (8, 0): (0x3C80, OTHER), (8, 2): (0x3C41, PMON), (8, 6): (0x3C86, OTHER),
        (9, 0): (0x3C90, OTHER), (9, 2): (0x3C42, PMON), (9, 6): (0x3C96, OTHER),
        (10, 0): (0x3CC0, OTHER), (10, 1): (0x3CC1, OTHER), (10, 2): (0x3CC2, OTHER),
        (10, 3): (0x3CD0, OTHER), (11, 0): (0x3CE0, OTHER), (14, 0): (0x3CA0, OTHER),
        (14, 1): (0x3C46, PMON), (16, 0): (0x3CB0, OTHER), (16, 1): (0x3CB1, OTHER),
        (16, 4): (0x3CB4, OTHER), (16, 5): (0x3CB5, OTHER), (19, 1): (0x3C43, PMON),
        (19, 5): (0x3C44, PMON), (19, 6): (0x3C45, PMON)}),
    "ivt": (0x04, {
        (5, 6): (0x0E39, PMON), (8, 0): (0x0E80, OTHER), (8, 2): (0x0E32, PMON),
        (8, 6): (0x0E86, OTHER), (9, 0): (0x0E90, OTHER), (9, 2): (0x0E33, PMON),
        (9, 6): (0x0E96, OTHER), (10, 0): (0x0EC0, OTHER), (10, 1): (0x0EC1, OTHER),
        (10, 2): (0x0EC2, OTHER), (10, 3): (0x0EC3, OTHER), (11, 0): (0x0E1E, OTHER),
        (14, 0): (0x0EA0, OTHER), (14, 1): (0x0E30, PMON), (28, 0): (0x0E60, OTHER), (16, 0): (0x0EB0, OTHER), (16, 1): (0x0EB1, OTHER),
        (16, 4): (0x0EB4, OTHER), (16, 5): (0x0EB5, OTHER), (19, 1): (0x0E34, PMON),
        (19, 5): (0x0E36, PMON), (19, 6): (0x0E37, PMON), (28, 1): (0x0E38, PMON),
        (30, 0): (0x0EF0, OTHER), (30, 1): (0x0EF1, OTHER), (30, 4): (0x0EF4, OTHER),
        (30, 5): (0x0EF5, OTHER)}),
}
PCI_PATH = re.compile(r'"[^"]*/(?:proc/bus/pci/([0-9a-f]{2})/([0-9a-f]{2})\.([0-7])|'
                      r'sys/bus/pci/devices/0000:([0-9a-f]{2}):([0-9a-f]{2})\.([0-7])/config)"')


def pci_opened(platform, argv):
    """{(bus, dev, fn)} of the uncore functions the program opens or looks
    for (open, access) under strace, on the machine's uncore buses."""
    need("strace", "strace")
    trace = os.path.join(WORK, "pci.strace")
    run(platform, ["strace", "-f", "-qq", "-e", "trace=open,openat,access,faccessat,faccessat2",
                   "-o", trace, *argv])
    seen = set()
    with open(trace) as f:
        for line in f:
            m = PCI_PATH.search(line)
            if m:
                g = [x for x in m.groups() if x is not None]
                bus, dev, fn = int(g[0], 16), int(g[1], 16), int(g[2])
                if bus in (0x3F, 0x7F):
                    seen.add((bus, dev, fn))
    return seen


def pci_functions(platform):
    need("lspci", "pciutils")
    need("setpci", "pciutils")
    rev, part = PCI_PART[platform]
    # what the tools open: likwid (direct access) every function of its
    # PCI device table.  PCM's bus scan opens every function of buses
    # 0-255 (65,536 opens under strace, minutes: not traced here) and
    # reads its IDs, then the iMC, HA and QPI functions it counts with and
    # those of larger parts it looks for (D24:F2, D30 on the E5-2600);
    # Linux's driver under perf enumerates the buses in the server and
    # binds by device ID: for both, the machine's list must be the part's,
    # checked below.
    opened = {}
    need("likwid-perfctr", "likwid")
    for f in pci_opened(platform, ["likwid-perfctr", "-M", "0", "-c", "0", "-g", "MEM", "true"]):
        opened.setdefault(f, set()).add("likwid")
    if not any((d, f) == (16, 0) for _, d, f in opened):
        fail(f"no tool opened the iMC's D16:F0: the trace shows nothing to check ({sorted(opened)})")
    # the machine's functions, with their headers, by lspci and setpci
    out, _, _ = run(platform, ["lspci", "-n"])
    listed = {(int(m.group(1), 16), int(m.group(2), 16), int(m.group(3))) for m in
              re.finditer(r"^([0-9a-f]{2}):([0-9a-f]{2})\.([0-7]) ", out, re.M)}
    for key in sorted(opened):
        bus, dev, fn = key
        want = part.get((dev, fn))
        who = ", ".join(sorted(opened[key]))
        if want is None:
            if key in listed:
                fail(f"{bus:02x}:{dev:02x}.{fn} ({who}): the machine has it, the part has not")
        elif key not in listed:
            fail(f"{bus:02x}:{dev:02x}.{fn} ({who}): the part's {want[0]:04x} is missing")
    for bus in (0x3F, 0x7F):
        for (dev, fn) in part:
            if (bus, dev, fn) not in listed:
                fail(f"{bus:02x}:{dev:02x}.{fn}: the part's function is not listed")
        for (b, dev, fn) in listed:
            if b == bus and (dev, fn) not in part:
                fail(f"{bus:02x}:{dev:02x}.{fn}: the machine has a function the part has not")
    args = []
    for bus in (0x3F, 0x7F):
        for (dev, fn) in sorted(part):
            args += ["-s", f"{bus:02x}:{dev:02x}.{fn}", "0.l", "8.l", "e.b", "2c.l"]
    out, _, _ = run(platform, ["setpci", *args])
    vals = out.split()
    i = 0
    for bus in (0x3F, 0x7F):
        for (dev, fn) in sorted(part):
            did, cls = part[(dev, fn)]
            at = f"{bus:02x}:{dev:02x}.{fn}"
            got = [int(x, 16) for x in vals[i:i + 4]]
            i += 4
            if len(got) != 4:
                fail(f"{at}: setpci printed {vals[i - 4:i]!r}")
                continue
            eq(f"{at} vendor:device", f"{got[0]:08x}", f"{did:04x}8086")
            eq(f"{at} class and revision", f"{got[1]:08x}", f"{cls:04x}00{rev:02x}")
            eq(f"{at} header type", got[2], 0x80)
            eq(f"{at} subsystem", f"{got[3]:08x}", "00008086")
    # lspci -vvv and -t, as a user would read them
    out, _, _ = run(platform, ["lspci", "-vvv", "-nn", "-s", "7f:"])
    for (dev, fn), (did, cls) in part.items():
        name = "Performance counters" if cls == PMON else "System peripheral"
        if not re.search(rf"^7f:{dev:02x}\.{fn} {name} \[{cls:04x}\]: .*\[8086:{did:04x}\] \(rev {rev:02x}\)$",
                         out, re.M):
            fail(f"lspci -vvv: no line for 7f:{dev:02x}.{fn} as {name} 8086:{did:04x} rev {rev:02x}")
    out, _, _ = run(platform, ["lspci", "-t"])
    for bus in (0x3F, 0x7F):
        if f"[0000:{bus:02x}]" not in out:
            fail(f"lspci -t: no bus {bus:02x} in {out[:400]!r}")


def pci_functions_snbep():
    pci_functions("snbep")


def pci_functions_ivt():
    pci_functions("ivt")


# ---- likwid ----

LIKWID = ["likwid-perfctr", "-M", "0", "-O"]


def likwid_raw(out):
    """{(event, counter): [count per thread]} from likwid-perfctr -O ("-", a
    counter the machine has not: None)."""
    res, raw = {}, False
    for line in out.splitlines():
        if line.startswith("TABLE,"):
            raw = "Raw" in line and "STAT" not in line
            continue
        f = line.split(",")
        if raw and len(f) >= 3 and f[0] != "Event":
            res[(f[0], f[1])] = [None if x == "-" else float(x) for x in f[2:] if x]
    return res


def likwid_metric(out, name):
    for line in out.splitlines():
        f = line.split(",")
        if f[0] == name:
            return [float(x) for x in f[1:] if x]
    fail(f"likwid printed no metric {name!r}")
    return None


def likwid_skl_mem():
    need("likwid-perfctr", "likwid")
    # 23 machine seconds of 'mixed' (~180M line reads a second) take the
    # 32-bit free-running DRAM read counter (SKL Table 3-3) across 2^32 once,
    # with fewer than 2^32 counts between likwid's reads (a wrap a reader of
    # two values can see); the write counter (~60M a second) wraps not
    out, _, rep = run("skl", LIKWID + ["-c", "0", "-g", "MEM", "sleep", "23"])
    raw = likwid_raw(out)
    for event, ctr, reg in (("DRAM_READS", "MBOX0C1", "DRAM_DATA_READS"), ("DRAM_WRITES", "MBOX0C2", "DRAM_DATA_WRITES")):
        c = counter(rep, reg)
        got = raw.get((event, ctr))
        if not c or not got:
            fail(f"no {event} from likwid or the machine")
            continue
        # how often the 32-bit counter passed 2^32 between likwid's reads
        crossed = (c["first_value"] + c["truth"]) >> 32
        if c["truth"] >> 32:
            fail(f"{reg}: 2^32 or more counts between likwid's reads: no reader of two values sees them")
        # likwid 5.2.2 corrects a wrapped 32-bit counter by 2^32 - 1, not 2^32:
        # one count lost per wrap (docs/tools.md, "Findings")
        # (end - start, plus 2^32 - 1 when the end is below the start)
        want = c["last_value"] - c["first_value"] + (0xFFFFFFFF if c["last_value"] < c["first_value"] else 0)
        eq(f"{event} (likwid's wrap correction)", int(got[0]), want)
        eq(f"{event}: likwid's error is one count per wrap", c["truth"] - int(got[0]), crossed)
        if crossed != (1 if reg == "DRAM_DATA_READS" else 0):
            fail(f"{reg} passed 2^32 {crossed} times between likwid's reads, not as the case plans")
    r, w = counter(rep, "DRAM_DATA_READS"), counter(rep, "DRAM_DATA_WRITES")
    t = likwid_metric(out, "Runtime (RDTSC) [s]")
    bw = likwid_metric(out, "Memory bandwidth [MBytes/s]")
    if r and w and t and bw:
        # likwid's time is its own RDTSC interval, printed to 4 decimals;
        # its counts are short of the truth by its wrap error
        lost = (r["first_value"] + r["truth"]) >> 32
        close("Memory bandwidth [MBytes/s]", bw[0], 1e-6 * (r["truth"] + w["truth"] - lost) * 64 / t[0], 1e-4, 0.00005)


def likwid_run(platform, args, daemon):
    """likwid-perfctr ARGS: with direct access (-M 0), or in its default
    access mode (daemon), in which it starts its access daemon
    likwid-accessD with an empty environment and asks it for every
    register over a socket; strace, which follows every process, shows the
    daemon was started (issue #32: it failed, the client's wait for the
    daemon's socket ran out before the daemon had bound it)."""
    if not daemon:
        return run(platform, LIKWID + args)
    need("strace", "strace")
    trace = os.path.join(WORK, "execve.txt")
    out, err, rep = run(platform, ["strace", "-f", "-qq", "-e", "trace=execve", "-o", trace,
                                   "likwid-perfctr", "-O", *args])
    with open(trace) as f:
        execs = f.read()
    if not re.search(r'execve\("[^"]*likwid-accessD"', execs):
        fail(f"likwid-perfctr did not start its access daemon:\n{execs[-1500:]}")
    return out, err, rep


def likwid_skl_clock(daemon=False):
    need("likwid-perfctr", "likwid")
    out, _, rep = likwid_run("skl", ["-c", "0", "-g", "CLOCK", "sleep", "2"], daemon)
    raw = likwid_raw(out)
    c = counter(rep, "MSR_UNC_PERF_FIXED_CTR")
    got = raw.get(("UNCORE_CLOCK", "UBOXFIX"))
    if c and got:
        eq("UNCORE_CLOCK (likwid reads the counter once)", int(got[0]), c["since_set"])
    t = likwid_metric(out, "Runtime (RDTSC) [s]")
    mhz = likwid_metric(out, "Uncore Clock [MHz]")
    if c and t and mhz:
        close("Uncore Clock [MHz]", mhz[0], 1e-6 * c["since_set"] / t[0], 1e-4, 0.00005)
    clk = likwid_metric(out, "Clock [MHz]")
    if clk:
        # the nominal 4.0 GHz of the simulated part, measured by likwid with RDTSC
        close("Clock [MHz]", clk[0], 4000.0, 1e-5, 0.00005)


def likwid_snbep(group, events, platform="snbep", cpus="0,8", key="since_set", daemon=False):
    need("likwid-perfctr", "likwid")
    out, _, rep = likwid_run(platform, ["-c", cpus, "-g", group, "sleep", "1"], daemon)
    raw = likwid_raw(out)
    for event, ctr, reg in events:
        got = raw.get((event, ctr))
        if not got or len(got) != 2 or None in got:
            fail(f"{group}: no {event} on {ctr} for both sockets: {got}")
            continue
        for sock in (0, 1):
            c = counter(rep, reg, socket=sock)
            if c:
                # likwid zeroes each counter and reads it at the end
                eq(f"{event} {ctr} socket {sock}", int(got[sock]), c[key])
                if c[key] == 0:
                    fail(f"{reg} socket {sock} counted nothing: the case checks nothing")


def likwid_snbep_mem(daemon=False):
    likwid_snbep("MEM", [("CAS_COUNT_RD", f"MBOX{i}C0", f"MC_CH{i}_PCI_PMON_CTR0") for i in range(4)] +
                 [("CAS_COUNT_WR", f"MBOX{i}C1", f"MC_CH{i}_PCI_PMON_CTR1") for i in range(4)], daemon=daemon)


def likwid_daemon_skl():
    likwid_skl_clock(daemon=True)


def likwid_daemon_snbep():
    likwid_snbep_mem(daemon=True)


def likwid_ivt_mem():
    # likwid's Ivy Bridge-EP MEM group: CAS_COUNT.RD on counter 0 and .WR on
    # counter 1 of each of the eight channels (MBOX0..7; ivt-facts.md §8 for
    # the channel order), cpu 12 the first of socket 1 (12 cores a socket)
    # on the v2 likwid writes to each counter again before its final read
    # (the report's since_set, which counts from the last write, reads 0
    # with the count unchanged): the count compared is the one between its
    # first read, right after zeroing, and its last ("truth")
    likwid_snbep("MEM", [("CAS_COUNT_RD", f"MBOX{i}C0", f"MC_CH{i}_PCI_PMON_CTR0") for i in range(8)] +
                 [("CAS_COUNT_WR", f"MBOX{i}C1", f"MC_CH{i}_PCI_PMON_CTR1") for i in range(8)],
                 platform="ivt", cpus="0,12", key="truth")


def likwid_snbep_qpi():
    need("likwid-perfctr", "likwid")
    out, _, rep = run("snbep", LIKWID + ["-c", "0,8", "-g", "QPI", "sleep", "1"])
    raw = likwid_raw(out)
    fed = sum(f["total"] for f in rep["fed"] if f["box"] == "qpi" and f["input"] == "RxL_FLITS_G1.DRS_DATA")
    if not fed:
        fail("the workload fed no DRS flits: the case checks nothing")
    # likwid 5.2.2 programs RxL_FLITS_G1 as event 0x02 without the extra
    # select bit (bit 21) that SNB-EP Table 2-94 requires (code 0x102):
    # the control word 0x400802 selects no event, and likwid prints 0 where
    # the ports received these flits (docs/tools.md, "Findings")
    for i in range(2):
        got = raw.get(("RXL_FLITS_G1_DRS_DATA", f"SBOX{i}C1"))
        eq(f"RXL_FLITS_G1_DRS_DATA on port {i} (likwid's programming counts nothing)", got, [0.0, 0.0])
        for sock in (0, 1):
            c = counter(rep, f"Q_P{i}_PCI_PMON_CTR1", socket=sock)
            if c:
                eq(f"Q_P{i} CTR1 socket {sock}: the machine counted what likwid programmed", c["since_set"], 0)
            bus = "3f" if sock == 0 else "7f"
            # the register's key: bus << 20 | dev << 15 | fn << 12 | offset (D8:F2, D9:F2, 0xDC)
            want = f"pci 0x{bus}{['42', '4a'][i]}0dc Q_P{i}_PCI_PMON_CTL1 <- 0x400802: event code 0x02 is not in the qpi event table"
            if not any(want in u for u in rep["undefined_programming"]):
                fail(f"no undefined-programming record {want!r}")
        got = raw.get(("DIRECT2CORE_SUCCESS", f"SBOX{i}C0"))
        for sock in (0, 1):
            c = counter(rep, f"Q_P{i}_PCI_PMON_CTR0", socket=sock)
            if c and got:
                eq(f"DIRECT2CORE_SUCCESS port {i} socket {sock}", int(got[sock]), c["since_set"])


def likwid_ivt_qpi():
    # likwid's Ivy Bridge-EP QPI group on the two ports of the E5-2697 v2
    # (ivt-facts.md; likwid prints "-" for a third): the data flits sent
    # (counter 1) and the port's clock ticks (counter 3) of both sockets,
    # compared as in likwid_ivt_mem (likwid writes each counter again before
    # its final read)
    likwid_snbep("QPI", [("TXL_FLITS_G0_DATA", f"SBOX{i}C1", f"Q_P{i}_PCI_PMON_CTR1") for i in range(2)] +
                 [("SBOX_CLOCKTICKS", f"SBOX{i}C3", f"Q_P{i}_PCI_PMON_CTR3") for i in range(2)],
                 platform="ivt", cpus="0,12", key="truth")


# ---- Intel PCM ----

# PCM programs the core PMU through Linux perf when it can: these cases tell
# it to use the MSRs (its own PCM_NO_PERF switch; docs/tools.md); the same
# tools in their default mode, through Linux's driver, are perf_test.py's.
PCM_ENV = {"PCM_NO_PERF": "1"}


def pcm_csv(path):
    """{(group, column): value} of the last sample of a PCM -csv file (two header rows)."""
    with open(path) as f:
        # PCM writes its messages to the same stream ("Link 1 is disabled"):
        # the CSV rows are those with commas
        rows = [line.rstrip("\n").split(",") for line in f if "," in line]
    if len(rows) < 3:
        fail(f"{path}: no sample written")
        return {}
    head0, head1, vals = rows[0], rows[1], rows[-1]
    # QPI utilisation columns are percentages ("  7%")
    return {(head0[i], head1[i]): float(vals[i].strip().rstrip("%")) for i in range(2, len(vals))
            if vals[i].strip()}


def pcm_memory_snbep(platform="snbep", channels=4, rel=5e-4, env=None):
    need("pcm-memory", "pcm")
    csv = os.path.join(WORK, "pcm.csv")
    _, _, rep = run(platform, ["pcm-memory", "1", "-i=1", f"-csv={csv}"], env=PCM_ENV if env is None else env)
    col = pcm_csv(csv)
    for sock in (0, 1):
        for ch in range(channels):
            for kind, reg in (("Read", f"MC_CH{ch}_PCI_PMON_CTR0"), ("Write", f"MC_CH{ch}_PCI_PMON_CTR1")):
                c = counter(rep, reg, socket=sock)
                got = col.get((f"SKT{sock}", f"Ch{ch}{kind}"))
                if not c or got is None:
                    fail(f"SKT{sock} Ch{ch}{kind}: missing")
                    continue
                # PCM: CAS x 64 bytes over its own interval, MB/s to 2
                # decimals.  PCM times the interval by one TSC read a
                # sample, then reads ~100 registers at 2 us each: the
                # machine's interval between its reads of this counter
                # differs from PCM's by up to a few hundred microseconds
                secs = (c["last_ns"] - c["first_ns"]) / 1e9
                close(f"SKT{sock} Ch{ch}{kind} (MB/s)", got, c["truth"] * 64 / 1e6 / secs, rel, 0.005)


def pcm_memory_ivt(env=None):
    # PCM finds the v2's eight channels at D16/D30 F4,5,0,1 (its Ch0..7 are
    # MC_CH0..7 here, ivt-facts.md §8) and reads CAS_COUNT.RD/WR on counters
    # 0 and 1 of each, as on the E5-2600; twice the channels are twice the
    # reads a sample, so PCM's interval and the machine's differ by up to
    # twice as much
    pcm_memory_snbep("ivt", 8, 1e-3, env)


def pcm_skl(env=None):
    need("pcm", "pcm")
    csv = os.path.join(WORK, "pcm.csv")
    _, _, rep = run("skl", ["pcm", "1", "-i=1", f"-csv={csv}"], env=PCM_ENV if env is None else env)
    col = pcm_csv(csv)
    for kind, reg in (("READ", "DRAM_DATA_READS"), ("WRITE", "DRAM_DATA_WRITES")):
        c = counter(rep, reg)
        got = col.get(("Socket 0", kind))
        if not c or got is None:
            fail(f"Socket 0 {kind}: missing")
            continue
        # PCM: GBytes moved in the interval, 2 decimals (SKL Table 3-3: 64 bytes a count)
        # (the sample is the interval between PCM's last two reads)
        close(f"Socket 0 {kind} (GB)", got, c["last_interval"] * 64 / 1e9, 0, 0.005)
        if c["last_interval"] == 0:
            fail(f"{reg} counted nothing: the case checks nothing")
    ipc = col.get(("System", "IPC"))
    if ipc is None:
        fail("PCM printed no IPC")


def pcm_snbep():
    """PCM's pcm on the E5-2600 as it runs by default, with its JKT
    workaround (docs/platform-snbep.md R27): it sets bits of D14:F0,
    D8:F0, D9:F0 and MSR 0x39C before counting and clears them after.
    Each socket's READ/WRITE GB = the CAS counts of its 4 channels between
    PCM's first and last read (its sample; it reads each counter twice more
    at exit, within the same machine instant), x 64 B."""
    need("pcm", "pcm")
    csv = os.path.join(WORK, "pcm.csv")
    out, err, rep = run("snbep", ["pcm", "1", "-i=1", f"-csv={csv}"], env=PCM_ENV)
    if "--noJKTWA" not in err:
        fail(f"PCM did not take its JKT workaround path: {err[-800:]!r}")
    # its QPI probe reads frz_en back from each port's box control
    # (docs/platform-snbep.md R11): both links are there
    if re.search(r"Link \d+ is disabled", out + err):
        fail(f"PCM found a QPI link disabled: {re.findall(r'Link [0-9]+ is disabled', out + err)!r}")
    col = pcm_csv(csv)
    for sock in (0, 1):
        for kind, ctr in (("READ", 0), ("WRITE", 1)):
            got = col.get((f"Socket {sock}", kind))
            cs = [counter(rep, f"MC_CH{ch}_PCI_PMON_CTR{ctr}", socket=sock) for ch in range(4)]
            if got is None or not all(cs):
                fail(f"Socket {sock} {kind}: missing")
                continue
            want = sum(c["truth"] for c in cs) * 64 / 1e9
            close(f"Socket {sock} {kind} (GB)", got, want, 0, 0.005)
            if want == 0:
                fail(f"Socket {sock} {kind}: nothing counted: the case checks nothing")


# ---- the run command itself ----

def run_clock():
    need("date", "coreutils")
    # the program's clock is the machine's: 5 s of sleep are 5 s of machine
    # time, whatever the real time was
    out, _, rep = run("skl", ["sh", "-c", "date +%s.%N; sleep 5; date +%s.%N"])
    t = [float(x) for x in out.split()]
    close("seconds between the dates", t[1] - t[0], 5.0, 0, 0.001)
    close("machine time of the run (s)", rep["machine_ns"] / 1e9, 5.0, 0, 0.01)
    # a child's sleep while its parent waits: both on one clock
    out, _, rep = run("snbep", ["sh", "-c", "sleep 2 & sleep 1; wait; date +%s"])
    close("machine time with a parent waiting on two sleepers (s)", rep["machine_ns"] / 1e9, 2.0, 0, 0.01)


def run_report():
    # on request: SIGUSR1 to `uncore run` writes the report while the program runs
    # The program enables the UCLK fixed counter (2 wrmsr, SKL Table 2-1),
    # prints one read, asks for the report, prints it, sleeps 1 s and prints
    # a second read; the reports' fields must be what it printed.
    path = os.path.join(WORK, "live.txt")
    script = (f"wrmsr 0xe01 0x20000000; wrmsr 0x394 0x400000; rdmsr -d 0x395; kill -USR1 $PPID; "
              f"sleep 1; cat {path}; rdmsr -d 0x395")
    out, _, rep = run("skl", ["sh", "-c", script], extra=("--report", path))
    lines = out.splitlines()
    if len(lines) < 3 or not lines[0].isdigit() or not lines[-1].isdigit():
        fail(f"the program's output: {out[:300]!r}")
        return
    v1, v2, live = int(lines[0]), int(lines[-1]), "\n".join(lines[1:-1])
    with open(path) as f:
        final = f.read()

    def fields(what, text, reads, first, last, msr_reads):
        if not text.startswith("# uncore run: ground truth"):
            fail(f"{what}: no report: {text[:300]!r}")
        m = re.search(r"^MSR_UNC_PERF_FIXED_CTR +0 0x395 +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)$", text, re.M)
        if not m:
            fail(f"{what}: no line for MSR_UNC_PERF_FIXED_CTR: {text[:600]!r}")
            return
        # reads, first_value, last_value, truth (between the first and last read)
        got, want = [int(x) for x in m.groups()[:4]], [reads, first, last, last - first]
        if got != want:
            fail(f"{what}: reads, first and last value, counted between them: report {got}, "
                 f"the program did and printed {want}")
        m = re.search(r"^requests: .*\bmsr_read (\d+) msr_write (\d+)\b", text, re.M)
        if not m or [int(x) for x in m.groups()] != [msr_reads, 2]:
            fail(f"{what}: msr_read/msr_write requests {m and m.groups()}, the program made {msr_reads}/2")

    fields("the report written on SIGUSR1", live, 1, v1, v1, 1)
    fields("the report at exit", final, 2, v1, v2, 2)
    if not v2 > v1:
        fail(f"the counter did not count over the program's 1 s sleep: {v1}, then {v2}")


def run_devices():
    need("stat", "coreutils")
    need("ls", "coreutils")
    # the device files are character devices, as on a machine (Documentation/
    # admin-guide/devices.txt: mem 1:1, cpu/N/msr 202:N; msr-safe's majors
    # are dynamic); PCI configuration files are regular files of 4096 bytes
    out, _, _ = run("skl", ["stat", "-c", "%n %F %t:%T %s", "/dev/mem", "/dev/cpu/0/msr", "/dev/cpu/3/msr",
                            "/dev/cpu/1/msr_safe", "/dev/cpu/msr_batch", "/proc/bus/pci/00/00.0"])
    want = ["/dev/mem character special file 1:1 0", "/dev/cpu/0/msr character special file ca:0 0",
            "/dev/cpu/3/msr character special file ca:3 0", "/dev/cpu/1/msr_safe character special file f0:1 0",
            "/dev/cpu/msr_batch character special file f1:0 0", "/proc/bus/pci/00/00.0 regular file 0:0 4096"]
    eq("stat of the device files", out.splitlines(), want)
    # ls -l (statx, and the ACL and security label it asks for) lists them
    out, err, _ = run("skl", ["ls", "-l", "/dev/mem", "/dev/cpu/0/msr"])
    if err or not re.search(r"^crw-r----- .* 1, +1 .*/dev/mem$", out, re.M) or \
            not re.search(r"^crw------- .* 202, +0 .*/dev/cpu/0/msr$", out, re.M):
        fail(f"ls -l of the device files: {out!r} {err!r}")
    # a descriptor the program was started with (a shell's redirection)
    # is the device too: GNU stat of stdin, and dd reading MSR_UNC_CBO_CONFIG
    # (0x396 = 918: four CBos, reads 5, SKL 2.4.1 and decision D3) from it
    need("dd", "coreutils")
    out, _, _ = run("skl", ["sh", "-c", "stat -c '%F %t:%T' - < /dev/cpu/1/msr; "
                                        "dd iflag=skip_bytes skip=918 bs=8 count=1 status=none < /dev/cpu/0/msr"
                                        " | od -A n -t x8"])
    eq("stat and dd of an inherited descriptor", out.split("\n")[:2],
       ["character special file ca:1", " 0000000000000005"])
    # Python's mmap sizes a mapping of a regular file, not of a device: the
    # IMC counter read through /dev/mem is the ground truth
    script = ("import mmap, os, struct, time\n"
              "f = os.open('/proc/bus/pci/00/00.0', os.O_RDONLY)\n"
              "bar = struct.unpack('<Q', os.pread(f, 8, 0x48))[0] & ~0xfff\n"
              "m = mmap.mmap(os.open('/dev/mem', os.O_RDONLY), 0x1000, mmap.MAP_SHARED, mmap.PROT_READ,"
              " offset=bar + 0x5000)\n"
              "a = struct.unpack('<I', m[0x50:0x54])[0]\n"
              "time.sleep(0.2)\n"
              "print(a, struct.unpack('<I', m[0x50:0x54])[0])\n")
    out, _, rep = run("skl", ["python3", "-c", script])
    if not re.fullmatch(r"\d+ \d+\n", out) or not rep:
        fail(f"python's mmap of /dev/mem: {out!r}")
        return
    first, last = (int(x) for x in out.split())
    c = counter(rep, "DRAM_DATA_READS")
    if c:
        eq("first read of DRAM_DATA_READS through /dev/mem", first, c["first_value"])
        eq("second read", last, c["last_value"])
        if last == first:
            fail("DRAM_DATA_READS did not move: the case checks nothing")


def run_lscpu():
    need("lscpu", "util-linux")
    # util-linux's lscpu opens /proc and /sys directories and reads relative
    # to them (openat): it must see the simulated part, not the host's.
    # Models: real-tools.md (0x5E, 0x2D, 0x3E); one thread a core; one NUMA
    # node a socket (docs/tools.md)
    for plat, model, brand, sockets, cores in (("skl", 94, "i7-6700K", 1, 4), ("snbep", 45, "E5-2680", 2, 8),
                                               ("ivt", 62, "E5-2697 v2", 2, 12)):
        out, _, _ = run(plat, ["lscpu"])
        f = dict((k.strip(), v.strip()) for k, v in (ln.split(":", 1) for ln in out.splitlines() if ":" in ln))
        eq(f"{plat}: lscpu Model", f.get("Model"), str(model))
        eq(f"{plat}: lscpu CPU family", f.get("CPU family"), "6")
        if brand not in f.get("Model name", ""):
            fail(f"{plat}: lscpu Model name {f.get('Model name')!r}, want the {brand}")
        eq(f"{plat}: lscpu Socket(s)", f.get("Socket(s)"), str(sockets))
        eq(f"{plat}: lscpu Core(s) per socket", f.get("Core(s) per socket"), str(cores))
        eq(f"{plat}: lscpu Thread(s) per core", f.get("Thread(s) per core"), "1")
        eq(f"{plat}: lscpu CPU(s)", f.get("CPU(s)"), str(sockets * cores))
        eq(f"{plat}: lscpu NUMA node(s)", f.get("NUMA node(s)"), str(sockets))
        if "hypervisor" in f.get("Flags", "").split():
            fail(f"{plat}: lscpu shows the hypervisor flag")


# Leaf 0xD.0 of each part (SDM Vol. 1 13.2; the machine tables' sources):
# the components it supports (EAX) and the sizes for them (EBX for XCR0's
# at reset, ECX for all)
XSAVE_PARTS = {"skl": (0x1F, 0x340, 0x440), "snbep": (0x7, 0x340, 0x340), "ivt": (0x7, 0x340, 0x340)}


def cpuid_xsave(platform):
    """Leaf 0xD.0 under uncore run (docs/tools.md, CPUID): the part's
    components, and sizes that are the larger of the part's and the host's,
    because XGETBV and XSAVE are not trapped and store what the host's XCR0
    enables; an XSAVE into an area of the size EBX says stays within it."""
    prog = os.environ.get("CT_CPUID")
    if not prog or not os.path.exists(prog):
        fail(f"CT_CPUID does not name the test program ct_cpuid: {prog!r}")
        return
    pat = r"^0xd\.0 eax 0x([0-9a-f]+) ebx (\d+) ecx (\d+) fits (\d)$"
    host = re.match(pat, subprocess.run([prog, "xsave"], capture_output=True, text=True, timeout=60).stdout)
    out, _, _ = run(platform, [prog, "xsave"])
    got = re.match(pat, out)
    if not host or not got:
        fail(f"ct_cpuid xsave printed {out!r} (host: {host})")
        return
    eax, ebx, ecx = XSAVE_PARTS[platform]
    eq("leaf 0xD.0 EAX: the part's components", int(got.group(1), 16), eax)
    eq("leaf 0xD.0 EBX: the larger of the part's and the host's", int(got.group(2)), max(ebx, int(host.group(2))))
    eq("leaf 0xD.0 ECX: the larger of the part's and the host's", int(got.group(3)), max(ecx, int(host.group(3))))
    eq("an XSAVE into an area of EBX bytes stays within it", got.group(4), "1")


def cpuid_xsave_skl():
    cpuid_xsave("skl")


def cpuid_xsave_snbep():
    cpuid_xsave("snbep")


def run_scan_cache():
    """The preload library rewrites a program's CPUID by disassembling it;
    a second process of the run that loads the same file takes what the
    first found (run/preload/ucr_trap.c), and a copy of the file (another
    inode) is disassembled again.  Each run of the program must get the
    machine's answer, not the host's: the ivt part, family 6 model 62
    (real-tools.md, 0x3E)."""
    prog = os.environ.get("CT_CPUID")
    if not prog or not os.path.exists(prog):
        fail(f"CT_CPUID does not name the test program ct_cpuid: {prog!r}")
        return
    copy = os.path.join(WORK, "ct_cpuid_copy")
    shutil.copy(prog, copy)
    os.utime(copy, (1, 1))
    out, err, _ = run("ivt", ["sh", "-c", f"{prog}; {prog}; {copy}"], env={"UNCORE_RUN_LOG": "1"})
    lines = out.splitlines()
    if len(lines) != 3 or len(set(lines)) != 1 or not re.match(r"^GenuineIntel family 6 model 62 stepping \d+$", lines[0]):
        fail(f"ct_cpuid's answers: {lines}, want the machine's three times")
    name = os.path.basename(prog)
    scanned = [ln for ln in err.splitlines() if re.search(rf"/{name}: \d+ CPUID/RDTSC instructions served", ln)]
    eq("how ct_cpuid's CPUIDs were found: disassembled, then from the cache",
       [("found before" in ln) for ln in scanned], [False, True])
    copied = [ln for ln in err.splitlines() if re.search(r"/ct_cpuid_copy: \d+ CPUID/RDTSC instructions served", ln)]
    eq("how the copy's were found (a file of its own)", [("found before" in ln) for ln in copied], [False])


def run_cwd():
    need("dd", "coreutils")
    need("rdmsr", "msr-tools")
    # a script that changes into the machine's directories and names files
    # relative to them sees the machine (24 cpus of ivt), leaves them by
    # "..", and pwd -P names them as asked; an MSR read by a relative name
    # equals rdmsr's read of it (MSR_PLATFORM_INFO 0xCE = 206), and both
    # equal what wrmsr wrote to the UBox's disabled counter 0 (0xC16 = 3094,
    # 44 bits), a value over 2^32 with its top bit (43) set
    script = ("cd /sys/devices/system/cpu && ls -d cpu[0-9]* | wc -l && cat online && pwd -P && "
              "cd /dev/cpu/0 && dd if=msr iflag=skip_bytes skip=206 bs=8 count=1 status=none | od -A n -t x8 && "
              "rdmsr -p 0 -0 -x 0xce && cd ../../../etc && test -f passwd && pwd -P && "
              "cd /proc && grep -c processor cpuinfo && cd / && grep -c processor proc/cpuinfo && "
              "wrmsr -p 0 0xc16 0x8a5a5a5a5a5 && cd dev/cpu/0 && "
              "dd if=msr iflag=skip_bytes skip=3094 bs=8 count=1 status=none | od -A n -t x8 && "
              "rdmsr -p 0 -0 -x 0xc16")
    out, _, _ = run("ivt", ["sh", "-c", script])
    lines = [ln.strip() for ln in out.splitlines()]
    if len(lines) != 10:
        fail(f"cd and relative names: {out!r}")
        return
    eq("U_MSR_PMON_CTR0 read as ./msr after wrmsr", lines[8], "000008a5a5a5a5a5")
    eq("U_MSR_PMON_CTR0 read by rdmsr after wrmsr", lines[9], "000008a5a5a5a5a5")
    eq("cpus listed after cd /sys/devices/system/cpu", lines[0], "24")
    eq("online, relative", lines[1], "0-23")
    eq("pwd -P in the machine's directory", lines[2], "/sys/devices/system/cpu")
    eq("MSR 0xCE read as ./msr = rdmsr's", lines[3], lines[4])
    if lines[3] == "0000000000000000":
        fail("MSR_PLATFORM_INFO read 0: the case checks nothing")
    eq("pwd -P after cd ../../../etc", lines[5], "/etc")
    eq("processors in cpuinfo after cd /proc", lines[6], "24")
    eq("processors in proc/cpuinfo after cd /", lines[7], "24")


def run_errors():
    p = subprocess.run([UNCORE, "run"], capture_output=True, text=True)
    eq("exit code without a program", p.returncode, 2)
    if "expected a program" not in p.stderr:
        fail(f"no program: {p.stderr!r}")
    p = subprocess.run([UNCORE, "run", "--", "/sbin/ldconfig", "-p"], capture_output=True, text=True)
    eq("exit code for a statically linked program", p.returncode, 2)
    if "statically linked" not in p.stderr:
        fail(f"static program: {p.stderr!r}")
    p = subprocess.run([UNCORE, "run", "--", "no-such-program-here"], capture_output=True, text=True)
    eq("exit code for a missing program", p.returncode, 2)
    if "not found" not in p.stderr:
        fail(f"missing program: {p.stderr!r}")
    p = subprocess.run([UNCORE, "run", "--clock", "fast", "--", "true"], capture_output=True, text=True)
    eq("exit code for a bad --clock", p.returncode, 2)
    p = subprocess.run([UNCORE, "stat", "--report", "x"], capture_output=True, text=True)
    eq("exit code for --report outside run", p.returncode, 2)
    _, _, _ = run("skl", ["sh", "-c", "exit 7"], expect_rc=7)
    _, _, _ = run("skl", ["sh", "-c", "kill -TERM $$"], expect_rc=128 + 15)
    # a report to a directory that does not exist: an error naming it, and
    # the program's work is not reported as a success
    p = subprocess.run([UNCORE, "run", "--report", "/nonexistent/dir/r.txt", "--", "true"],
                       capture_output=True, text=True)
    if p.returncode == 0 or "/nonexistent/dir/r.txt" not in p.stderr:
        fail(f"unwritable report: exit {p.returncode}, {p.stderr!r}")


# ---- turbostat (linux-cpupower) ----

# The parts (docs/platform-*.md): cores a package (Hyper-Threading off),
# packages, nominal (TSC) MHz.  i7-6700K: 4 cores, 4.0 GHz; E5-2680: 8
# cores, 2.7 GHz; E5-2697 v2: 12 cores, 2.7 GHz.
PARTS = {"skl": (4, 1, 4000), "snbep": (8, 2, 2700), "ivt": (12, 2, 2700)}


def turbostat(platform):
    """turbostat, unmodified, as root would run it: one row per cpu of the
    machine (not the host's: /proc/stat), its package from the machine's
    topology, the TSC's MHz, no interrupts (the machine's /proc/interrupts),
    and per package the temperature and power that the thermal and RAPL
    MSRs give when read by rdmsr over one machine second."""
    need("turbostat", "linux-cpupower")
    need("rdmsr", "msr-tools")
    cores, pkgs, mhz = PARTS[platform]
    # the temperature follows the power (docs/invariants.md): every
    # package's is read at once after turbostat's, before the energy's
    # second of sleep
    firsts = " ".join(str(k * cores) for k in range(pkgs))
    script = ("turbostat --quiet --num_iterations 1 --interval 1 && "
              "for p in " + firsts + "; do rdmsr -p $p -0 -u 0x1b1; done; "
              "for p in " + firsts + "; do "
              "rdmsr -p $p -0 -u 0x606; rdmsr -p $p -0 -u 0x1a2; "
              "rdmsr -p $p -0 -u 0x611; sleep 1; rdmsr -p $p -0 -u 0x611; done")
    out, err, _ = run(platform, ["sh", "-c", script])
    lines = out.splitlines()
    if len(lines) < 2 + cores * pkgs:
        fail(f"turbostat printed {len(lines)} lines, want a header, a summary and {cores * pkgs} cpus")
        return
    head = lines[0].split("\t")
    rows = [dict(zip(head, ln.split("\t"))) for ln in lines[1:2 + cores * pkgs]]
    msrs = [int(v) for v in lines[2 + cores * pkgs:]]
    if len(msrs) != 5 * pkgs:
        fail(f"rdmsr after turbostat: {lines[2 + cores * pkgs:]!r}")
        return
    cpus = rows[1:]
    eq("turbostat's cpu rows", [r["CPU"] for r in cpus], [str(c) for c in range(cores * pkgs)])
    if pkgs > 1:
        eq("each cpu's package", [r["Package"] for r in cpus], [str(c // cores) for c in range(cores * pkgs)])
    for r in rows:
        eq(f"cpu {r['CPU']}: TSC_MHz", r["TSC_MHz"], str(mhz))
        eq(f"cpu {r['CPU']}: IRQ (the machine's kernel counts none)", r["IRQ"], "0")
    for k in range(pkgs):
        therm = msrs[k]
        unit, target, e0, e1 = msrs[pkgs + 4 * k:pkgs + 4 * k + 4]
        row = cpus[k * cores]
        # SDM Vol. 3B 14.7.1/14.9.1: energy unit 2^-ESU J (bits 12:8);
        # PkgTmp = TjMax (MSR_TEMPERATURE_TARGET 23:16) - digital readout
        # (IA32_PACKAGE_THERM_STATUS 22:16)
        watts = ((e1 - e0) % (1 << 32)) / (1 << ((unit >> 8) & 0x1F))
        close(f"package {k}: PkgWatt", float(row["PkgWatt"]), watts, 0.01, 0.01)
        eq(f"package {k}: PkgTmp", int(row["PkgTmp"]), ((target >> 16) & 0xFF) - ((therm >> 16) & 0x7F))
    if watts == 0:
        fail("the package's energy did not move: the case checks nothing")
    # the C-states (SDM Vol. 4 Table 2-20: each core's residency MSRs at
    # the TSC's rate, turbostat's CPU%cN = their delta over the TSC's): a
    # core is in one state at a time, so Busy% and its C3, C6 and C7 shares
    # add up to at most 100 %, and the package is in C6 only while every
    # core of it is (docs/platform-snbep.md R29)
    for r in cpus:
        if "CPU%c6" not in r:
            fail(f"cpu {r['CPU']}: turbostat printed no CPU%c6 in {sorted(r)}")
            continue
        states = {k: float(r[k]) for k in ("Busy%", "CPU%c3", "CPU%c6", "CPU%c7") if k in r}
        if sum(states.values()) > 100.05:
            fail(f"cpu {r['CPU']}: {states} add up to {sum(states.values()):.2f} %")
    for k in range(pkgs):
        first = cpus[k * cores]
        if "Pkg%pc6" not in first:
            fail(f"package {k}: turbostat printed no Pkg%pc6 in {sorted(first)}")
            continue
        least = min(float(r.get("CPU%c6", 0)) for r in cpus[k * cores:(k + 1) * cores])
        if float(first["Pkg%pc6"]) > least + 0.05:
            fail(f"package {k}: Pkg%pc6 {first['Pkg%pc6']} above its least CPU%c6 {least:.2f}")
    if "failed" in err or "Operation not permitted" in err:
        fail(f"turbostat: {err[-500:]!r}")


# ---- power management tools (linux-cpupower: cpupower, x86_energy_perf_policy) ----

# What the parts' tables say (model/*/ucm_plat_*_mach.c, Intel SDM Vol. 4):
# MSR_PLATFORM_INFO's lowest ratio (47:40) and MSR_TURBO_RATIO_LIMIT's
# 1-core ratio (7:0), x 100 MHz; IA32_ENERGY_PERF_BIAS at reset; on the
# i7-6700K, HWP (CPUID 6 EAX bit 7): IA32_HWP_REQUEST min 8 max 42 desired
# 0 EPP 0x80 and IA32_HWP_CAPABILITIES lowest 8, most efficient 8,
# guaranteed 40 (the base ratio), highest 42.
POWER = {"skl": ("800 MHz", "4.20 GHz", 6, True), "snbep": ("1.20 GHz", "3.50 GHz", 6, False),
         "ivt": ("1.20 GHz", "3.50 GHz", 6, False)}


def power(platform):
    """cpupower and x86_energy_perf_policy, unmodified, as root would run
    them: the frequency limits, the energy-performance bias of every cpu and,
    where CPUID advertises HWP, its request and capabilities, all as the
    part's tables say; a write of the EPP through x86_energy_perf_policy
    reaches the cpu's IA32_HWP_REQUEST (rdmsr).  Before issue #32's change
    x86_energy_perf_policy stopped at IA32_PM_ENABLE (0x770), which the skl
    machine lacked though CPUID advertised HWP, printed no EPB on any part
    (no energy_perf_bias in sysfs), and cpupower said 800 MHz for the Xeons'
    lowest frequency."""
    need("cpupower", "linux-cpupower")
    need("x86_energy_perf_policy", "linux-cpupower")
    need("rdmsr", "msr-tools")
    cores, pkgs, _ = PARTS[platform]
    lo, hi, epb, hwp = POWER[platform]
    ncpu = cores * pkgs
    script = "cpupower frequency-info; cpupower info; x86_energy_perf_policy"
    if hwp:
        script += "; x86_energy_perf_policy --cpu 1 --hwp-epp 64 && rdmsr -p 1 0x774 && rdmsr -p 0 0x774"
    out, err, rep = run(platform, ["sh", "-c", script], extra=("--sockets", str(pkgs)))
    lines = out.splitlines()
    limits = [ln.split(":", 1)[1].strip() for ln in lines if "hardware limits" in ln]
    eq("cpupower frequency-info: hardware limits", limits, [f"{lo} - {hi}"])
    eq("cpupower info: perf-bias", [ln for ln in lines if ln.startswith("perf-bias")], [f"perf-bias: {epb}"])
    eq("x86_energy_perf_policy: EPB of each cpu", [ln for ln in lines if " EPB " in ln],
       [f"cpu{c}: EPB {epb}" for c in range(ncpu)])
    want_req = [f"cpu{c}: HWP_REQ: min 8 max 42 des 0 epp 128 window 0x0 (0*10^0us) use_pkg 0"
                for c in range(ncpu)] if hwp else []
    want_cap = [f"cpu{c}: HWP_CAP: low 8 eff 8 guar 40 high 42" for c in range(ncpu)] if hwp else []
    eq("x86_energy_perf_policy: HWP_REQ of each cpu", [ln for ln in lines if "HWP_REQ" in ln], want_req)
    eq("x86_energy_perf_policy: HWP_CAP of each cpu", [ln for ln in lines if "HWP_CAP" in ln], want_cap)
    if hwp:
        # EPP is IA32_HWP_REQUEST 31:24 (SDM Vol. 3B 14.4.4); cpu 0 untouched
        eq("IA32_HWP_REQUEST after --hwp-epp 64 on cpu 1, then cpu 0's", lines[-2:], ["40002a08", "80002a08"])
    if rep and rep.get("unserved"):
        fail(f"MSRs the tools read that the machine lacks: {rep['unserved']}")
    if "failed" in err or "error" in err.lower():
        fail(f"the tools complained: {err[-500:]!r}")


def power_skl():
    power("skl")


def power_snbep():
    power("snbep")


def power_ivt():
    power("ivt")


# Linux 6.1's intel_idle idle states of each part (drivers/idle/intel_idle.c:
# snb_cstates for the E5-2600, without C7, which its CPUID leaf 5 lists no
# sub-state of; ivt_cstates; skl_cstates): name, MWAIT hint, exit latency
# and target residency in microseconds, after the kernel's POLL
IDLE_STATES = {
    "snbep": [("C1", "MWAIT 0x00", 2, 2), ("C1E", "MWAIT 0x01", 10, 20), ("C3", "MWAIT 0x10", 80, 211),
              ("C6", "MWAIT 0x20", 104, 345)],
    "ivt": [("C1", "MWAIT 0x00", 1, 1), ("C1E", "MWAIT 0x01", 10, 80), ("C3", "MWAIT 0x10", 59, 156),
            ("C6", "MWAIT 0x20", 82, 300)],
    "skl": [("C1", "MWAIT 0x00", 2, 2), ("C1E", "MWAIT 0x01", 10, 20), ("C3", "MWAIT 0x10", 70, 100),
            ("C6", "MWAIT 0x20", 85, 200), ("C7s", "MWAIT 0x33", 124, 800), ("C8", "MWAIT 0x40", 200, 800),
            ("C9", "MWAIT 0x50", 480, 5000), ("C10", "MWAIT 0x60", 890, 5000)],
}


def idle_info(out):
    """[(name, description, latency, usage, duration)] of cpupower idle-info."""
    return [(m.group(1), m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5))) for m in
            re.finditer(r"^(\S+):\nFlags/Description: (.*)\nLatency: (\d+)\nUsage: (\d+)\nDuration: (\d+)$",
                        out, re.M)]


def cpuidle(platform):
    """cpupower idle-info (linux-cpupower 6.1) of cpu 1 before and after a
    2 s sleep: the driver, governor and idle states of the part as
    intel_idle lists them; the cpu's idle time is the deepest state's
    (docs/tools.md "Idle states"), between the idle times (TSC - MPERF at
    the base frequency, SDM Vol. 3B 15.5) rdmsr reads just before and after
    each report."""
    need("cpupower", "linux-cpupower")
    need("rdmsr", "msr-tools")
    states = IDLE_STATES[platform]
    probe = "rdmsr -p 1 -d 0x10; rdmsr -p 1 -d 0xe7; cpupower -c 1 idle-info; rdmsr -p 1 -d 0x10; rdmsr -p 1 -d 0xe7"
    out, _, _ = run(platform, ["sh", "-c", f"rdmsr -d 0xce; {probe}; sleep 2; {probe}"])
    info = int(out.split()[0])
    hz = ((info >> 8) & 0xFF) * 100e6
    for want in ("CPUidle driver: intel_idle", "CPUidle governor: menu",
                 f"Number of idle states: {len(states) + 1}",
                 "Available idle states: POLL " + " ".join(n for n, _, _, _ in states)):
        if out.count(want + "\n") != 2:
            fail(f"cpupower idle-info: no {want!r} twice in {out[:600]!r}")
    nums = [int(x) for x in re.findall(r"^(\d+)$", out, re.M)]
    shown = [idle_info(part) for part in out.split("analyzing CPU 1:")[1:]]
    if len(nums) != 9 or len(shown) != 2:
        fail(f"expected the MSR reads and two idle-info reports: {out!r}")
        return
    durations = []
    for i, rep in enumerate(shown):
        tsc0, mperf0, tsc1, mperf1 = nums[1 + 4 * i:5 + 4 * i]
        eq("idle-info states", [(n, d, lat) for n, d, lat, _, _ in rep],
           [("POLL", "CPUIDLE CORE POLL IDLE", 0)] + [(n, d, lat) for n, d, lat, _ in states])
        if len(rep) != len(states) + 1:
            fail(f"idle-info shows {len(rep)} states, the part has {len(states) + 1}: {out[:400]!r}")
            return
        for n, _, _, usage, dur in rep[:-1]:
            eq(f"{n}: usage and duration (all the idle time is the deepest state's)", (usage, dur), (0, 0))
        name, _, _, usage, dur = rep[-1]
        lo, hi = (tsc0 - mperf0) / hz * 1e6, (tsc1 - mperf1) / hz * 1e6
        if not lo - 1 <= dur <= hi + 1:
            fail(f"{name} duration {dur} us: not within the cpu's idle time {lo:.0f}..{hi:.0f} us")
        eq(f"{name} usage: an entry a 4 ms tick of idle time", usage, (dur + 3999) // 4000)
        durations.append(dur)
    # the Xeon machines' cpus idle while the workload leaves them (issue
    # #33's activity); skl's machine is static: its cpus never idle
    if platform != "skl" and durations[1] <= durations[0]:
        fail(f"the deepest state's time did not move over the 2 s sleep: {durations}")
    # the per-cpu files a monitor reads (turbostat's, cpupower's)
    out, _, _ = run(platform, ["sh", "-c", "cat /sys/devices/system/cpu/cpuidle/current_driver "
                                          "/sys/devices/system/cpu/cpu0/cpuidle/state1/residency "
                                          "/sys/devices/system/cpu/cpu0/cpuidle/state1/disable"])
    eq("current_driver, C1 residency, C1 disable", out.split(), ["intel_idle", str(states[0][3]), "0"])


def cpuidle_skl():
    cpuidle("skl")


def cpuidle_snbep():
    cpuidle("snbep")


def cpuidle_ivt():
    cpuidle("ivt")


# Linux 6.1's intel_idle exit latencies (drivers/idle/intel_idle.c:
# snb_cstates, ivt_cstates, skl_cstates), microseconds, of the package
# C-states whose interrupt response time limits turbostat prints (the
# E5-2600 v2 has no C7: its C6's)
EXIT_US = {"skl": {"C3": 70, "C6": 85, "C7": 124, "C8": 200, "C9": 480, "C10": 890},
           "snbep": {"C3": 80, "C6": 104, "C7": 109}, "ivt": {"C3": 59, "C6": 82, "C7": 82}}


def turbostat_debug(platform):
    """turbostat --debug, which decodes every power-management MSR it knows
    of the part and stops at the first the machine lacks: it runs to the
    end with nothing unserved; MSR_MISC_PWR_MGMT makes the EPB visible, as
    CPUID.06H:ECX[3] says; C1E auto-promotion is on; each package C-state's
    IRTL is valid and within 1,024 ns above intel_idle's exit latency.
    Before issue #32's change it stopped at MSR_MISC_PWR_MGMT (0x1AA) on
    every platform."""
    need("turbostat", "linux-cpupower")
    out, err, rep = run(platform, ["turbostat", "--debug", "--num_iterations", "1", "--interval", "1"])
    text = out + err
    if rep and rep.get("unserved"):
        fail(f"MSRs turbostat --debug read that the machine lacks: {[hex(u['address']) for u in rep['unserved']]}")
    if "read failed" in text:
        fail(f"turbostat --debug: {[ln for ln in text.splitlines() if 'read failed' in ln]}")
    eq("MSR_MISC_PWR_MGMT", [ln.split(": ", 2)[2] for ln in text.splitlines()
                             if ln.startswith("cpu0: MSR_MISC_PWR_MGMT")],
       ["0x00000002 (ENable-EIST_Coordination ENable-EPB DISable-OOB)"])
    eq("C1E auto-promotion", [ln.endswith("(C1E auto-promotion: ENabled)") for ln in text.splitlines()
                              if ln.startswith("cpu0: MSR_IA32_POWER_CTL")], [True])
    irtl = {m.group(1): (m.group(2), int(m.group(3))) for m in
            re.finditer(r"cpu0: MSR_PKGC(\d+)_IRTL: 0x[0-9a-f]+ \((\w+), (\d+) ns\)", text)}
    eq("package C-states with an IRTL", sorted(irtl, key=int), sorted((k[1:] for k in EXIT_US[platform]), key=int))
    for c, us in EXIT_US[platform].items():
        valid, ns = irtl.get(c[1:], ("missing", 0))
        if valid != "valid" or not us * 1000 <= ns < us * 1000 + 1024:
            fail(f"MSR_PKG{c}_IRTL: {valid}, {ns} ns; want valid, intel_idle's {us} us rounded up to 1,024 ns")


def turbostat_debug_skl():
    turbostat_debug("skl")


def turbostat_debug_snbep():
    turbostat_debug("snbep")


def turbostat_debug_ivt():
    turbostat_debug("ivt")


def turbostat_skl():
    turbostat("skl")


def turbostat_snbep():
    turbostat("snbep")


def turbostat_ivt():
    turbostat("ivt")


# ---- numactl ----

# Memory a socket (docs/tools.md, "What the program sees"): the E5-2680 box
# has four channels of 8 GiB DDR3-1600 RDIMMs a socket, the E5-2697 v2 box
# four of 16 GiB DDR3-1866.
NODE_MB = {"snbep": 32768, "ivt": 65536}


def numactl(platform):
    """numactl, unmodified: libnuma's constructor reads /sys and /proc
    before any program code runs, and binds with the raw system call
    (syscall(2)); the binding holds across exec, fork and vfork, as
    Linux's does."""
    need("numactl", "numactl")
    need("taskset", "util-linux")
    cores, pkgs, _ = PARTS[platform]
    out, _, _ = run(platform, ["numactl", "--hardware"])
    want = [f"available: {pkgs} nodes (0-{pkgs - 1})"]
    for k in range(pkgs):
        want += [f"node {k} cpus: " + " ".join(str(c) for c in range(k * cores, (k + 1) * cores)),
                 f"node {k} size: {NODE_MB[platform]} MB"]
    got = [ln.strip() for ln in out.splitlines()]
    for w in want:
        if w not in got:
            fail(f"numactl --hardware: no line {w!r} in {out!r}")
    dist = [ln.split() for ln in got if re.match(r"^\d+:", ln)]
    eq("node distances (ACPI SLIT: 10 local, 21 the other socket)", dist,
       [[f"{k}:"] + ["10" if o == k else "21" for o in range(pkgs)] for k in range(pkgs)])
    # bound to node 1: the program (exec), a forked child (a pipeline), a
    # vforked one (dash's simple command) and taskset's view of the shell
    node1 = f"{cores}-{2 * cores - 1}"
    script = ("grep Cpus_allowed_list /proc/self/status; cat /proc/self/status | grep Cpus_allowed_list; "
              "taskset -p $$; grep Mems_allowed_list /proc/self/status; "
              "taskset -c 3 sh -c 'grep Cpus_allowed_list /proc/self/status'; true")
    out, _, _ = run(platform, ["numactl", "--cpunodebind=1", "--", "sh", "-c", script])
    lines = [ln.split(":", 1)[-1].strip() for ln in out.splitlines()]
    eq("lines printed under numactl --cpunodebind=1", len(lines), 5)
    if len(lines) == 5:
        eq("Cpus_allowed_list of a vforked grep", lines[0], node1)
        eq("Cpus_allowed_list of a forked cat", lines[1], node1)
        eq("taskset -p of the shell", lines[2], format(((1 << cores) - 1) << cores, "x"))
        eq("Mems_allowed_list (every node)", lines[3], f"0-{pkgs - 1}")
        eq("Cpus_allowed_list after taskset -c 3", lines[4], "3")


def numactl_snbep():
    numactl("snbep")


def numactl_ivt():
    numactl("ivt")


def run_exec_env():
    """A program started with an empty environment still runs on the
    machine (likwid starts its access daemon with execve(path, argv,
    {NULL})): env -i (execvp after clearing environ), execve and
    posix_spawn with {} (Python's os.execve, os.posix_spawn)."""
    need("env", "coreutils")
    need("nproc", "coreutils")
    cat = ["cat", "/sys/devices/system/cpu/online"]
    py = ("import os, sys; a = ['cat', '/sys/devices/system/cpu/online']; "
          "os.waitpid(os.posix_spawn('/bin/cat', a, {}), 0); sys.stdout.flush(); "
          "os.execve('/bin/cat', a, {})")
    for what, argv in (("env -i", ["env", "-i"] + cat), ("env -i nproc", ["env", "-i", "nproc"]),
                       ("posix_spawn and execve with {}", ["python3", "-c", py])):
        out, _, _ = run("ivt", argv)
        want = "24" if "nproc" in what else "0-23"
        eq(f"{what}: what the new image sees", out.split(), [want] * (2 if "spawn" in what else 1))


def run_host_hidden():
    """What describes cpus, memory and binding, read every way this case
    knows, is the machine's (E5-2697 v2, two sockets: 24 cpus, 2 nodes of
    64 GiB), never this host's: /proc/stat, /proc/interrupts, /proc/meminfo,
    /proc/self/status, /proc/self/cgroup and the cgroup's cpuset, affinity
    through libc (nproc, Python) and through syscall() (ctypes)."""
    need("nproc", "coreutils")
    py = ("import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); buf = ctypes.create_string_buffer(128); "
          "n = libc.syscall(204, 0, 128, buf); "  # SYS_sched_getaffinity on x86-64
          "print(n, bin(int.from_bytes(buf.raw[:n], 'little')).count('1'), len(os.sched_getaffinity(0)))")
    script = ("grep -c '^cpu[0-9]' /proc/stat; head -1 /proc/interrupts | wc -w; "
              "grep MemTotal /proc/meminfo; grep -E 'Cpus_allowed_list|Mems_allowed_list' /proc/self/status; "
              "cat /proc/self/cgroup /sys/fs/cgroup/cpuset.cpus.effective /sys/fs/cgroup/cpuset.mems.effective; "
              "nproc; python3 -c \"" + py + "\"")
    out, _, _ = run("ivt", ["sh", "-c", script])
    got = [ln.split(":", 1)[-1].strip() if ":" in ln and not ln.startswith("0::") else ln.strip()
           for ln in out.splitlines()]
    want = ["24", "24", f"{2 * 65536 * 1024} kB", "0-23", "0-1", "0::/", "0-23", "0-1", "24", "8 24 24"]
    eq("what describes the machine, read every way", got, want)


def linux_release():
    """The release of the Linux source the driver was taken from, read here
    from its Makefile (CT_LINUX_ORIGIN: the tarball or the tree)."""
    origin = os.environ.get("CT_LINUX_ORIGIN", "")
    if not origin:
        fail("CT_LINUX_ORIGIN is not set: this build has no Linux source (kernel/)")
    if os.path.isdir(origin):
        with open(os.path.join(origin, "Makefile")) as f:
            text = f.read(4096)
    else:
        # the first member names the top folder; tar stops at the Makefile
        top = subprocess.run(f"tar -tJf '{origin}' | head -1", shell=True, capture_output=True,
                             text=True).stdout.strip().rstrip("/")
        p = subprocess.run(["tar", "-xJOf", origin, "--occurrence=1", f"{top}/Makefile"],
                           capture_output=True, text=True)
        if p.returncode or not top:
            fail(f"tar {origin}: no {top}/Makefile: {p.stderr}")
        text = p.stdout[:4096]
    v = dict(re.findall(r"^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION) *= *(\S*)", text, re.M))
    if "VERSION" not in v or "PATCHLEVEL" not in v:
        fail(f"{origin}: no VERSION/PATCHLEVEL in its Makefile")
    rel = f"{v['VERSION']}.{v['PATCHLEVEL']}" + (f".{v['SUBLEVEL']}" if v.get("SUBLEVEL") else "")
    return rel + v.get("EXTRAVERSION", "")


def run_uname():
    """The machine's kernel is the Linux whose uncore driver serves
    perf_event_open, on every platform: uname -r, uname(2) through libc
    (Python's os.uname) and through syscall() (ctypes, SYS_uname),
    /proc/version and /proc/sys/kernel/osrelease all give the release of its
    source, never the host's."""
    need("uname", "coreutils")
    want = linux_release()
    host = os.uname().release
    py = ("import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); buf = ctypes.create_string_buffer(390); "
          "print(libc.syscall(63, buf), buf.raw[130:195].split(b'\\0')[0].decode()); print(os.uname().release)")
    script = ("uname -r; uname -s; cat /proc/sys/kernel/osrelease /proc/sys/kernel/ostype; "
              "cut -d' ' -f1-3 /proc/version; python3 -c \"" + py + "\"")
    for platform in ("skl", "snbep", "ivt"):
        out, _, _ = run(platform, ["sh", "-c", script])
        eq(f"{platform}: the kernel's release, read every way", out.splitlines(),
           [want, "Linux", want, "Linux", f"Linux version {want}", f"0 {want}", want])
    if host == want:
        fail(f"the host runs {host} too: this case cannot tell the machine's release from the host's")


# Each part's caches (size in bytes, ways, line) from Intel's specifications
# (ark.intel.com: L3 size; the optimization manual's cache tables for
# Skylake and Sandy/Ivy Bridge: L1 32 KiB 8-way, L2 256 KiB, 4-way on
# Skylake and 8-way before it; the LLC 16-way on the client part, 20-way on
# the Xeons), L4 none
CACHES = {
    "skl": [(32768, 8, 64), (32768, 8, 64), (262144, 4, 64), (8 << 20, 16, 64), (0, 0, 0)],
    "snbep": [(32768, 8, 64), (32768, 8, 64), (262144, 8, 64), (20 << 20, 20, 64), (0, 0, 0)],
    "ivt": [(32768, 8, 64), (32768, 8, 64), (262144, 8, 64), (30 << 20, 20, 64), (0, 0, 0)],
}


def run_sysconf():
    """What glibc computed from the host's CPUID before the library loaded
    is the machine's: getconf's and sysconf's cache sizes, associativity and
    line sizes; /proc/uptime is the machine's time since power-on and the
    idle time of its cpus (the sum of /proc/stat's idle), on every platform."""
    need("getconf", "libc-bin")
    names = [f"LEVEL{lv}_{kind}_{what}" for lv, kind in
             ((1, "ICACHE"), (1, "DCACHE"), (2, "CACHE"), (3, "CACHE"), (4, "CACHE"))
             for what in ("SIZE", "ASSOC", "LINESIZE")]
    # Python's os.sysconf does not know these names: glibc's numbers for
    # them (bits/confname.h: _SC_LEVEL1_ICACHE_SIZE 185 ... _SC_LEVEL4_CACHE_LINESIZE 199)
    py = ("import ctypes; libc = ctypes.CDLL(None); libc.sysconf.restype = ctypes.c_long; "
          "print(' '.join(str(libc.sysconf(185 + i)) for i in range(15)))")
    script = ("for n in " + " ".join(names) + "; do getconf $n; done | tr '\\n' ' '; echo; "
              "python3 -c \"" + py + "\"; cat /proc/uptime; grep '^cpu ' /proc/stat; cat /proc/uptime; "
              "grep -c '^cpu[0-9]' /proc/stat")
    for platform, caches in CACHES.items():
        out, _, _ = run(platform, ["sh", "-c", script])
        lines = out.splitlines()
        want = " ".join(str(v) for c in caches for v in c)
        eq(f"{platform}: getconf's caches", lines[0].strip(), want)
        eq(f"{platform}: sysconf's caches", lines[1].strip(), want)
        up0, idle0 = (float(x) for x in lines[2].split())
        up1, idle1 = (float(x) for x in lines[4].split())
        ticks = [int(x) for x in lines[3].split()[1:]]
        # /proc/stat was read between the two: its idle ticks (USER_HZ 100),
        # which /proc/uptime's idle sums
        if not (idle0 - 0.005 <= ticks[3] / 100 <= idle1 + 0.005):
            fail(f"{platform}: /proc/uptime's idle {idle0}..{idle1} s, /proc/stat's {ticks[3] / 100} s")
        cpus = int(lines[5])
        if not (up0 - 0.02 <= sum(ticks) / 100 / cpus <= up1 + 0.02):
            fail(f"{platform}: /proc/uptime {up0}..{up1} s, /proc/stat's time a cpu {sum(ticks) / 100 / cpus} s")


# RAPL domains (SDM Vol. 4: MSR_PKG/PP0/PP1/DRAM_ENERGY_STATUS) as perf's
# "power" PMU names them (arch/x86/events/rapl.c); the client part has PP1
# (the graphics) and the Xeons have DRAM
RAPL = {"skl": {"energy-pkg": 0x611, "energy-cores": 0x639, "energy-gpu": 0x641, "energy-ram": 0x619},
        "snbep": {"energy-pkg": 0x611, "energy-cores": 0x639, "energy-ram": 0x619},
        "ivt": {"energy-pkg": 0x611, "energy-cores": 0x639, "energy-ram": 0x619}}
# core C-state residency MSRs (SDM Vol. 4 Table 2-20: MSR_CORE_C3/C6_RESIDENCY)
CSTATE_CORE = {"c3-residency": 0x3FC, "c6-residency": 0x3FD}
# package C-state residency MSRs (Table 2-20: MSR_PKG_C2/C3/C6/C7_RESIDENCY),
# as Linux's cstate_pkg names them on all three parts (the desktop Skylake
# shares the Sandy Bridge list: no C8-C10 events)
CSTATE_PKG = {"c2-residency": 0x60D, "c3-residency": 0x3F8, "c6-residency": 0x3F9, "c7-residency": 0x3FA}


def within(what, got, outer, rounding):
    """A count taken inside a window of msr-tools' reads: no more than the
    window's (but for the tool's rounding) and no less than 99.9 % of it."""
    if not (outer * 0.999 - rounding <= got <= outer + rounding):
        fail(f"{what}: tool printed {got}, msr-tools read {outer} around it (want 99.9-100 %)")


def perf_power_cstate(platform):
    """perf stat's RAPL ("power") and core C-state ("cstate_core") events,
    served by Linux's own rapl.c and intel/cstate.c on the machine, equal what
    msr-tools reads from the same MSRs over the same machine second, under the
    idle and the stream workloads; and the two workloads' power differ.  The
    package C-states ("cstate_pkg") too: idle leaves the package in C6 but for
    the timer tick, stream never."""
    need("perf", "linux-perf")
    need("rdmsr", "msr-tools")
    cores, pkgs, _ = PARTS[platform]
    firsts = [k * cores for k in range(pkgs)]
    events = ([f"power/{e}/" for e in RAPL[platform]] + [f"cstate_core/{e}/" for e in CSTATE_CORE]
              + [f"cstate_pkg/{e}/" for e in CSTATE_PKG])
    reads = ("rdmsr -p0 -0 -u 0x606; rdmsr -p0 -0 -u 0x10; "
             + "".join(f"rdmsr -p{c} -0 -u {m:#x}; " for m in RAPL[platform].values() for c in firsts)
             + "".join(f"rdmsr -a -0 -u {m:#x}; " for m in CSTATE_CORE.values())
             + "".join(f"rdmsr -p{c} -0 -u {m:#x}; " for m in CSTATE_PKG.values() for c in firsts))
    script = reads + f"perf stat -x, -a -e {','.join(events)} sleep 1 2>&1 >/dev/null; " + reads
    pkg = {}
    for workload in ("idle", "stream"):
        out, _, rep = run(platform, ["sh", "-c", script], extra=("--workload", workload))
        if rep["linux_warnings"]:
            fail(f"{platform} {workload}: Linux's drivers warned: {rep['linux_warnings']}")
        lines = out.splitlines()
        nread = 2 + len(RAPL[platform]) * pkgs + len(CSTATE_CORE) * cores * pkgs + len(CSTATE_PKG) * pkgs
        if len(lines) != 2 * nread + len(events):
            fail(f"{platform} {workload}: {len(lines)} lines, want {2 * nread + len(events)}:\n{out}")
            return
        before = [int(v) for v in lines[:nread]]
        perf = {}
        for ln in lines[nread:nread + len(events)]:
            f = ln.split(",")
            perf[f[2]] = float(f[0])
        after = [int(v) for v in lines[nread + len(events):]]
        # MSR_RAPL_POWER_UNIT 12:8: energy in units of 1/2^ESU J (SDM Vol. 3B 14.10.1)
        unit = 1.0 / (1 << ((before[0] >> 8) & 0x1F))
        tsc = after[1] - before[1]
        k = 2
        for name in RAPL[platform]:
            joules = sum(((after[k + i] - before[k + i]) & 0xFFFFFFFF) * unit for i in range(pkgs))
            k += pkgs
            # perf counts within the rdmsr reads around it: the machine time
            # between them and perf's own start and end (its exec, its
            # opening the events) is a fraction of a millisecond; perf
            # prints Joules with two decimals
            within(f"{platform} {workload}: perf's power/{name}/ (J), msr-tools' around it",
                   perf.get(f"power/{name}/", -1.0), joules, 0.006)
            if name == "energy-pkg":
                pkg[workload] = joules
        for name in CSTATE_CORE:
            n = cores * pkgs
            count = sum(after[k + i] - before[k + i] for i in range(n))
            k += n
            within(f"{platform} {workload}: perf's cstate_core/{name}/, msr-tools' sum over the cpus around it",
                   perf.get(f"cstate_core/{name}/", -1.0), float(count), 0)
        for name in CSTATE_PKG:
            count = sum(after[k + i] - before[k + i] for i in range(pkgs))
            k += pkgs
            within(f"{platform} {workload}: perf's cstate_pkg/{name}/, msr-tools' sum over the packages around it",
                   perf.get(f"cstate_pkg/{name}/", -1.0), float(count), 0)
        # the share of the packages' time (the TSC over msr-tools' window) in
        # each state: the idle workload's timer tick keeps the package in C0
        # 1 % of the time (docs/invariants.md, "Package C-states"), perf's
        # own start a little more; stream keeps every core in C0
        share = {n: perf.get(f"cstate_pkg/{n}/", -1.0) / (tsc * pkgs) for n in CSTATE_PKG}
        print(f"{platform} {workload}: package C-states " + ", ".join(f"{n} {100 * v:.2f} %" for n, v in share.items()))
        want6 = (0.97, 0.991) if workload == "idle" else (0.0, 0.0)
        if not want6[0] <= share["c6-residency"] <= want6[1]:
            fail(f"{platform} {workload}: the packages in C6 {100 * share['c6-residency']:.2f} % of the time, "
                 f"want {100 * want6[0]:g}..{100 * want6[1]:g} %")
        if sum(share.values()) > 1.0001 or min(share.values()) < 0:
            fail(f"{platform} {workload}: package C-state shares {share} do not fit in 100 %")
    if platform != "skl" and not pkg["stream"] > 2 * pkg["idle"]:
        fail(f"{platform}: package energy in a second: idle {pkg['idle']:.2f} J, stream {pkg['stream']:.2f} J")


def perf_power_cstate_skl():
    perf_power_cstate("skl")


def perf_power_cstate_snbep():
    perf_power_cstate("snbep")


def perf_power_cstate_ivt():
    perf_power_cstate("ivt")


def run_static_helper():
    """A statically linked program cannot load the machine's library: started
    by the program (a shell's exec, a #! script whose interpreter is static,
    Python's posix_spawn), it is not run on the host: each start is refused
    (EPERM: a shell says 126) and named on stderr, the report lists it, the
    run fails; the program itself is refused (docs/tools.md, "Hostile
    programs").  Before issues #32 and #34 the helper ran unserved without a
    word."""
    static = os.environ.get("CT_STATIC")
    if not static or not os.path.exists(static):
        fail("CT_STATIC (ctest/ct_static.c, built statically) is not set or missing")
        return
    script = os.path.join(WORK, "static-script")
    with open(script, "w") as f:
        f.write(f"#!{static}\n")
    os.chmod(script, 0o755)
    py = f"import os; os.waitpid(os.posix_spawn({static!r}, [{static!r}], {{}}), 0)"
    out, err, rep = run("ivt", ["sh", "-c", f"{static}; echo $?; {script}; echo $?; python3 -c \"{py}\"; nproc"],
                        expect_rc=1)
    said = [f"{static} is statically linked", f"{script}'s interpreter {static} is statically linked",
            f"{static} is statically linked"]
    got = [ln for ln in err.splitlines() if "statically linked" in ln and "not run" in ln]
    eq("refusals, one for each start of the static program", len(got), 3)
    for ln, w in zip(got, said):
        if w not in ln:
            fail(f"refusal {ln!r} does not say {w!r}")
    if "ct_static ran" in out:
        fail(f"the static program ran on the host: {out!r}")
    eq("the shell's status of each refused start, then the machine's cpus (nproc)", out.split()[:2] + out.split()[-1:],
       ["126", "126", "24"])
    if rep and len(rep.get("unreached", [])) != 3:
        fail(f"the report's unreached: {rep.get('unreached')!r}, want the 3 starts")
    p = subprocess.run([UNCORE, "run", "--platform", "ivt", "--", static], capture_output=True, text=True, timeout=600)
    if p.returncode == 0 or "statically linked" not in p.stderr:
        fail(f"uncore run of the static program itself: exit {p.returncode}, {p.stderr[-300:]!r}")


def run_dir_place():
    """Where uncore run puts its directory (docs/tools.md, "Start-up"):
    TMPDIR if set; else XDG_RUNTIME_DIR if it is the user's own; else
    /dev/shm if it is a tmpfs with 64 MiB free that anyone may create in;
    else /tmp.  Each run leaves nothing behind, and the machine is served
    from wherever its tree is."""
    script = 'echo "$UNCORE_RUN_ROOT"; cat /sys/devices/system/cpu/online'
    xdg = os.path.join(WORK, "xdg")
    tmp = os.path.join(WORK, "t")
    other = os.path.join(WORK, "other")
    for d in (xdg, tmp, other):
        os.mkdir(d, 0o700)
    os.chown(other, 12345, 12345)   # another user's runtime directory
    st = os.stat("/dev/shm")
    vfs = os.statvfs("/dev/shm")
    fstype = subprocess.run(["stat", "-f", "-c", "%T", "/dev/shm"], capture_output=True, text=True).stdout.strip()
    shm_ok = (fstype == "tmpfs" and st.st_mode & 0o1777 == 0o1777 and
              vfs.f_bavail * vfs.f_frsize >= 64 << 20)
    memory = "/dev/shm" if shm_ok else "/tmp"
    for what, env, want in (("TMPDIR over XDG_RUNTIME_DIR", {"TMPDIR": tmp, "XDG_RUNTIME_DIR": xdg}, tmp),
                            ("XDG_RUNTIME_DIR without TMPDIR", {"XDG_RUNTIME_DIR": xdg}, xdg),
                            ("another user's XDG_RUNTIME_DIR", {"XDG_RUNTIME_DIR": other}, memory),
                            ("neither", {}, memory),
                            ("a relative TMPDIR", {"TMPDIR": "rel/dir"}, memory)):
        e = {k: v for k, v in os.environ.items() if k not in ("TMPDIR", "XDG_RUNTIME_DIR")}
        e.update(env)
        p = subprocess.run([UNCORE, "run", "--platform", "ivt", "--", "sh", "-c", script],
                           capture_output=True, text=True, env=e, timeout=600)
        lines = p.stdout.split()
        if p.returncode or len(lines) != 2:
            fail(f"{what}: exit {p.returncode}, {p.stdout!r} {p.stderr[-500:]!r}")
            continue
        if not lines[0].startswith(want + "/uncore-run."):
            fail(f"{what}: the machine's tree is {lines[0]}, want it in {want}")
        eq(f"{what}: the machine's online cpus", lines[1], "0-23")
        if os.path.exists(os.path.dirname(lines[0])):
            fail(f"{what}: {os.path.dirname(lines[0])} left behind")


# ---- dmidecode, biosdecode ----

# The parts (docs/platform-*.md): brand string, CPUID leaf 1's model and
# stepping (family 6), memory channels a socket drives.
DMI_PARTS = {"skl": ("Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz", 94, 3, 2),
             "snbep": ("Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz", 45, 7, 4),
             "ivt": ("Intel(R) Xeon(R) CPU E5-2697 v2 @ 2.70GHz", 62, 4, 4)}


# The caches of each part a socket (CPUID leaf 4 as Intel documents the
# parts, per core times the cores where per core): (level, system type,
# kB, associativity as dmidecode names it), L1 data first
DMI_CACHES = {
    "skl": [(1, "Data", 4 * 32, "8-way"), (1, "Instruction", 4 * 32, "8-way"),
            (2, "Unified", 4 * 256, "4-way"), (3, "Unified", 8192, "16-way")],
    "snbep": [(1, "Data", 8 * 32, "8-way"), (1, "Instruction", 8 * 32, "8-way"),
              (2, "Unified", 8 * 256, "8-way"), (3, "Unified", 20480, "20-way")],
    "ivt": [(1, "Data", 12 * 32, "8-way"), (1, "Instruction", 12 * 32, "8-way"),
            (2, "Unified", 12 * 256, "8-way"), (3, "Unified", 30720, "20-way")],
}


def dmi_sections(out):
    """dmidecode's records: (type, {field: value}), the handle as "_handle"."""
    recs = []
    for block in out.split("\n\n"):
        m = re.search(r"^Handle (0x[0-9A-F]+), DMI type (\d+),", block, re.M)
        if m:
            fields = dict(re.findall(r"^\t([^\t:]+): (.*)$", block, re.M))
            fields["_handle"] = m.group(1)
            recs.append((int(m.group(2)), fields))
    return recs


def dmi_caches(what, recs, platform, pkgs):
    """Type 7 (DSP0134 7.8): the part's caches, each socket's, and type 4's
    L1/L2/L3 cache handles naming its socket's data/unified ones."""
    caches = {f["_handle"]: f for t, f in recs if t == 7}
    want = DMI_CACHES[platform]
    eq(f"{what}: cache structures", len(caches), pkgs * len(want))
    cpus = [f for t, f in recs if t == 4]
    for i, cpu in enumerate(cpus):
        mine = [f for f in caches.values() if f.get("Socket Designation", "").startswith(f"CPU{i} ")]
        got = [(int(re.search(r"Level (\d)", f.get("Configuration", "")).group(1)), f.get("System Type"),
                f.get("Installed Size"), f.get("Maximum Size"), f.get("Associativity"), f.get("Location"))
               for f in mine]
        # dmidecode 3.4 prints whole mebibytes as MB
        size = [f"{kb // 1024} MB" if kb % 1024 == 0 else f"{kb} kB" for _, _, kb, _ in want]
        eq(f"{what}: CPU{i} caches", got,
           [(lv, ty, sz, sz, f"{ways} Set-associative", "Internal") for (lv, ty, _, ways), sz in zip(want, size)])
        for lv in (1, 2, 3):
            h = cpu.get(f"L{lv} Cache Handle")
            f = caches.get(h or "")
            if not f:
                fail(f"{what}: CPU{i} L{lv} Cache Handle {h} names no cache structure")
                continue
            eq(f"{what}: CPU{i} L{lv} handle's structure", (f.get("Socket Designation"), f.get("System Type")),
               (f"CPU{i} L{lv}" + (" data" if lv == 1 else ""), "Data" if lv == 1 else "Unified"))


def dmidecode(platform):
    """dmidecode and biosdecode, unmodified: the SMBIOS tables from
    /sys/firmware/dmi/tables and, with --no-sysfs and biosdecode, from the
    firmware area of /dev/mem (mmap), describe the machine: its sockets,
    part, cores, speed and memory (docs/tools.md, "SMBIOS")."""
    need("dmidecode", "dmidecode")
    need("biosdecode", "dmidecode")
    cores, pkgs, mhz = PARTS[platform]
    brand, model, stepping, channels = DMI_PARTS[platform]
    node_mb = NODE_MB.get(platform, 16384)
    for argv, source in ((["dmidecode"], "Getting SMBIOS data from sysfs."),
                         (["dmidecode", "--no-sysfs"], "Scanning /dev/mem for entry point.")):
        out, _, _ = run(platform, ["sh", "-c", " ".join(argv) + "; grep MemTotal /proc/meminfo"])
        what = " ".join(argv)
        for line in (source, "SMBIOS 3.0.0 present."):
            if line not in out.splitlines():
                fail(f"{what}: no line {line!r} in {out[:500]!r}")
        recs = dmi_sections(out)
        eq(f"{what}: record types", sorted({t for t, _ in recs}), [0, 1, 2, 3, 4, 7, 16, 17, 127])
        dmi_caches(what, recs, platform, pkgs)
        cpus = [f for t, f in recs if t == 4]
        eq(f"{what}: processors (one a socket)", len(cpus), pkgs)
        for i, f in enumerate(cpus):
            eq(f"{what}: CPU{i} socket", f.get("Socket Designation"), f"CPU{i}")
            eq(f"{what}: CPU{i} version (brand string)", f.get("Version"), brand)
            eq(f"{what}: CPU{i} signature (CPUID leaf 1)", f.get("Signature"),
               f"Type 0, Family 6, Model {model}, Stepping {stepping}")
            eq(f"{what}: CPU{i} core count", f.get("Core Count"), str(cores))
            eq(f"{what}: CPU{i} thread count", f.get("Thread Count"), str(cores))
            eq(f"{what}: CPU{i} current speed (MSR_PLATFORM_INFO)", f.get("Current Speed"), f"{mhz} MHz")
            eq(f"{what}: CPU{i} manufacturer", f.get("Manufacturer"), "Intel(R) Corporation")
        eq(f"{what}: system manufacturer", [f.get("Manufacturer") for t, f in recs if t in (1, 2)],
           ["uncore simulator"] * 2)
        arrays = [f for t, f in recs if t == 16]
        eq(f"{what}: memory arrays (one a socket)", len(arrays), pkgs)
        for f in arrays:
            eq(f"{what}: memory devices of an array (channels)", f.get("Number Of Devices"), str(channels))
        dimms = [f for t, f in recs if t == 17]
        eq(f"{what}: memory devices", len(dimms), pkgs * channels)
        sizes = [f.get("Size", "") for f in dimms]
        total = 0
        for sz in sizes:
            m = re.fullmatch(r"(\d+) (MB|GB)", sz)
            if not m:
                fail(f"{what}: memory device size {sz!r}")
                continue
            total += int(m.group(1)) * (1024 if m.group(2) == "GB" else 1)
        eq(f"{what}: memory (MB, all devices)", total, node_mb * pkgs)
        m = re.search(r"^MemTotal:\s+(\d+) kB$", out, re.M)
        eq(f"{what}: memory (MB) against /proc/meminfo", total, int(m.group(1)) // 1024 if m else None)
    out, _, _ = run(platform, ["dmidecode", "-t", "cache"])
    recs = dmi_sections(out)
    eq("dmidecode -t cache: record types", sorted({t for t, _ in recs}), [7])
    eq("dmidecode -t cache: structures", len(recs), pkgs * len(DMI_CACHES[platform]))
    out, _, _ = run(platform, ["sh", "-c", "biosdecode; wc -c < /sys/firmware/dmi/tables/DMI"])
    if "SMBIOS 3.0.0 present." not in out.splitlines():
        fail(f"biosdecode: no SMBIOS entry point in {out!r}")
    m = re.search(r"Structure Table Maximum Length: (\d+) bytes\n.*64-bit Address: 0x0*F0020\n(\d+)$", out, re.S)
    if not m:
        fail(f"biosdecode: no structure table at 0xF0020 in {out!r}")
    else:
        eq("biosdecode: structure table length against the sysfs table", m.group(1), m.group(2))
    # read and pread of the firmware area, as a program without mmap would
    script = ("import os; fd = os.open('/dev/mem', os.O_RDONLY); os.lseek(fd, 0xF0000, 0); "
              "print(os.read(fd, 5).decode(), os.pread(fd, 8, 0xF0010).hex())")
    out, _, _ = run(platform, [sys.executable, "-c", script])
    eq("read and pread of /dev/mem at 0xF0000 (entry point, table address)", out.split(),
       ["_SM3_", "20000f0000000000"])


def dmidecode_skl():
    dmidecode("skl")


def dmidecode_snbep():
    dmidecode("snbep")


def dmidecode_ivt():
    dmidecode("ivt")



# ---- MTRRs, PAT and machine check (issue #32) ----

# What a real part reads, each from its source (docs/tools.md, "MTRRs and
# machine check"):
# - IA32_MTRRCAP 0xD0A: 10 variable ranges, fixed ranges, WC, SMRR, as
#   published rdmsr 0xFE output of Sandy Bridge-family parts reads;
# - IA32_MCG_CAP: mcelog's records of a model 0x2D (E5-2600) print MCGCAP
#   1000c14 (20 banks, CMCI, TES, SER); the E5-2600 v2 datasheet vol. 1
#   2.5.2.7.4 gives banks 0-19; a Kaby Lake's (the Skylake client core)
#   MCGCAP c0a (10 banks, CMCI, TES);
# - MAXPHYADDR: /proc/cpuinfo's "address sizes" of real i7-6700K (39 bits)
#   and E5-2680 / E5-2697 v2 (46 bits) machines;
# - IA32_PAT: Linux 6.1's pat_init (arch/x86/mm/pat/memtype.c): WB WC UC-
#   UC WB WP UC- WT, types 6 1 7 0 6 5 7 4 (SDM Vol. 3A Table 11-10).
MTRR_PARTS = {"skl": (0xD0A, 0xC0A, 39), "snbep": (0xD0A, 0x1000C14, 46), "ivt": (0xD0A, 0x1000C14, 46)}
LINUX_PAT = 0x0407050600070106
FIXED_MTRRS = [0x250, 0x258, 0x259] + list(range(0x268, 0x270))


def mtrr_type(addr, var, default):
    """The memory type of a physical address by the variable ranges and
    the default (SDM Vol. 3A 11.11.4.1: UC wins, WT over WB)."""
    hit = {base & 0xFF for base, mask in var
           if mask >> 11 & 1 and (addr & mask & ~0xFFF) == (base & mask & ~0xFFF)}
    if not hit:
        return default
    return 0 if 0 in hit else 4 if hit == {4, 6} else hit.pop() if len(hit) == 1 else None


def mtrr_mca(platform):
    """rdmsr reads the MTRRs, the PAT and the machine-check MSRs that
    CPUID advertises (MTRR, PAT, MCA) on every cpu, each with the real
    part's value; the variable ranges make the machine's RAM (/proc/meminfo,
    the nodes' meminfo) write-back and the rest, the MMIO hole below 4 GiB
    and the local APIC (IA32_APIC_BASE) among it, uncacheable; wrmsr takes
    what the SDM allows and refuses the rest (reserved bits and memory
    types, a non-zero IA32_MCi_STATUS)."""
    need("rdmsr", "msr-tools")
    need("wrmsr", "msr-tools")
    cap, mcg, maxphy = MTRR_PARTS[platform]
    banks = mcg & 0xFF
    addrs = ([0xFE, 0x2FF, 0x277, 0x179, 0x17A, 0x17B, 0x1B] + FIXED_MTRRS + list(range(0x200, 0x200 + 2 * (cap & 0xFF)))
             + list(range(0x400, 0x400 + 4 * banks)) + list(range(0x280, 0x280 + banks)))
    reads = "; ".join(f"echo {a:#x} $(rdmsr -p 0 -0 -x {a:#x} 2>/dev/null || echo GP)" for a in addrs)
    every = "; ".join(f"echo all {a:#x} $(rdmsr -a -0 -x {a:#x} | sort -u | wc -l)" for a in addrs)
    b = 0x401 + 4 * (banks - 1)   # the last bank's STATUS
    writes = ("; ".join(f"wrmsr -p 1 {a} {v} 2>/dev/null && echo w {a} $(rdmsr -p 1 -0 -x {a}) || echo w {a} GP"
                        for a, v in [(f"{b:#x}", "0"), (f"{b:#x}", "1"), ("0x402", "0x1"), ("0x400", "0x3"),
                                     ("0x212", "0x100000005"), ("0x212", "0x2"), ("0x212", "0x106"),
                                     ("0x213", f"{(1 << maxphy) - (1 << 20) | 0x800:#x}"),
                                     ("0x213", f"{1 << maxphy | 0x800:#x}"), ("0x277", "0x0407050600070107"),
                                     ("0x277", "0x0407050600070102"), ("0x250", "0x0606060606060605"),
                                     ("0x250", "0x0606060606060603"), ("0x2ff", "0xc06"), ("0x2ff", "0x1c00"),
                                     ("0x17a", "0x7"), ("0x17a", "0x8"), ("0x179", "0")])
              + "; echo cpu0 $(rdmsr -p 0 -0 -x 0x212) $(rdmsr -p 0 -0 -x 0x277)")
    script = (f"{reads}; {every}; {writes}; grep MemTotal /proc/meminfo; "
              "cat /sys/devices/system/node/node*/meminfo | grep MemTotal")
    out, _, _ = run(platform, ["sh", "-c", script])
    got, n_cpus, wrote = {}, {}, []
    for ln in out.splitlines():
        f = ln.split()
        if f[0] == "all":
            n_cpus[int(f[1], 16)] = f[2]
        elif f[0] in ("w", "cpu0"):
            wrote.append(ln)
        elif len(f) == 2 and f[0].startswith("0x"):
            got[int(f[0], 16)] = None if f[1] == "GP" else int(f[1], 16)
    for a in addrs:
        if a == 0x17B:
            continue
        if got.get(a) is None:
            fail(f"{platform}: rdmsr {a:#x} is a #GP though CPUID advertises it (MTRR, PAT, MCA)")
        # IA32_APIC_BASE's BSP flag is cpu 0's alone (tools.kernel_msrs_*)
        eq(f"{platform}: rdmsr -a {a:#x}: distinct values over the cpus", n_cpus.get(a), "2" if a == 0x1B else "1")
    eq(f"{platform}: IA32_MTRRCAP", got.get(0xFE), cap)
    eq(f"{platform}: IA32_MCG_CAP", got.get(0x179), mcg)
    eq(f"{platform}: IA32_MCG_STATUS (no machine check in progress)", got.get(0x17A), 0)
    eq(f"{platform}: IA32_MCG_CTL, absent as IA32_MCG_CAP[8] says", got.get(0x17B), None)
    eq(f"{platform}: IA32_PAT as Linux programs it", got.get(0x277), LINUX_PAT)
    eq(f"{platform}: IA32_MTRR_DEF_TYPE: MTRRs and fixed ranges on, default UC", got.get(0x2FF), 0xC00)
    # below 1 MiB: RAM WB to 0x9FFFF, the legacy video window UC, ROM
    # shadows WP (SDM Vol. 3A Table 11-9 lays the ranges out)
    eq(f"{platform}: the fixed-range MTRRs", [got.get(a) for a in FIXED_MTRRS],
       [0x0606060606060606] * 2 + [0] + [0x0505050505050505] * 8)
    for i in range(banks):
        eq(f"{platform}: IA32_MC{i}_CTL, STATUS, ADDR, MISC after Linux's boot",
           [got.get(0x400 + 4 * i + k) for k in range(4)], [(1 << 64) - 1, 0, 0, 0])
        eq(f"{platform}: IA32_MC{i}_CTL2 (CMCI on at threshold 1, as Linux sets it)", got.get(0x280 + i), 0x40000001)
    # the memory map: the machine's RAM write-back, nothing else
    m = re.search(r"^MemTotal:\s+(\d+) kB$", out, re.M)
    ram = int(m.group(1)) * 1024 if m else 0
    nodes = sum(int(x) for x in re.findall(r"^Node \d+ MemTotal:\s+(\d+) kB$", out, re.M)) * 1024
    eq(f"{platform}: the nodes' memory against /proc/meminfo", nodes, ram)
    var = [(got.get(0x200 + 2 * i) or 0, got.get(0x201 + 2 * i) or 0) for i in range(cap & 0xFF)]
    wb, ranges = 0, []
    for base, mask in var:
        if not mask >> 11 & 1:
            continue
        size = ((~mask & ((1 << maxphy) - 1)) | 0xFFF) + 1
        if size & (size - 1) or base & ~0xFFF & (size - 1):
            fail(f"{platform}: variable MTRR {base:#x}/{mask:#x}: not a naturally aligned power of two")
        ranges.append((base & ~0xFFF, size, base & 0xFF))
        wb += size if base & 0xFF == 6 else 0
    for i, (a, sa, _) in enumerate(ranges):
        for c, sc, _ in ranges[i + 1:]:
            if a < c + sc and c < a + sa:
                fail(f"{platform}: variable MTRRs at {a:#x} and {c:#x} overlap")
    eq(f"{platform}: bytes the variable MTRRs make write-back against MemTotal", wb, ram)
    low = 2 << 30    # top of low memory: the 2 GiB MMIO hole (docs/tools.md)
    top = (4 << 30) + ram - low
    apic = (got.get(0x1B) or 0) & ~0xFFF
    probes = [(0, 6), (low - 4096, 6), (low, 0), (apic, 0), ((4 << 30) - 4096, 0), (4 << 30, 6),
              (top - 4096, 6), (top, 0), ((1 << maxphy) - 4096, 0)]
    eq(f"{platform}: memory types at {[hex(a) for a, _ in probes]}",
       [mtrr_type(a, var, 0) for a, _ in probes], [t for _, t in probes])
    want = [f"w {b:#x} 0000000000000000", f"w {b:#x} GP", "w 0x402 GP", "w 0x400 0000000000000003",
            "w 0x212 0000000100000005", "w 0x212 GP", "w 0x212 GP",
            f"w 0x213 {(1 << maxphy) - (1 << 20) | 0x800:016x}", "w 0x213 GP", "w 0x277 0407050600070107",
            "w 0x277 GP", "w 0x250 0606060606060605", "w 0x250 GP", "w 0x2ff 0000000000000c06", "w 0x2ff GP",
            "w 0x17a 0000000000000007", "w 0x17a GP", "w 0x179 GP",
            f"cpu0 {got.get(0x212, 0) or 0:016x} {LINUX_PAT:016x}"]
    eq(f"{platform}: wrmsr of what the SDM allows and refuses (cpu 1; cpu 0 unchanged)", wrote, want)


# Linux 6.1 x86-64's boot values (arch/x86/include/asm/segment.h,
# arch/x86/kernel/cpu/common.c syscall_init, setup_getcpu): the selectors
# __KERNEL_CS (GDT entry 2) and __USER32_CS (entry 4, RPL 3); the flags that
# SYSCALL clears (EFLAGS bit positions, SDM Vol. 1 3.4.3)
KERNEL_CS, USER32_CS = 2 * 8, 4 * 8 + 3
EFLAGS_BITS = {"CF": 0, "PF": 2, "AF": 4, "ZF": 6, "SF": 7, "TF": 8, "IF": 9, "DF": 10, "OF": 11,
               "IOPL": 12, "IOPL1": 13, "NT": 14, "RF": 16, "AC": 18, "ID": 21}
# EFER: SCE 0, LME 8, LMA 10, NXE 11 (SDM Vol. 4 Table 2-2)
LINUX_EFER = 1 << 0 | 1 << 8 | 1 << 10 | 1 << 11


def kernel_msrs(platform):
    """rdmsr reads what CPUID's SEP, LM, RDTSCP and TSC-deadline bits
    advertise (SDM Vol. 4 Table 2-2) as Linux 6.1 leaves it: the SYSENTER
    and SYSCALL MSRs, EFER, the segment bases (GS each cpu's per-cpu area),
    TSC_AUX each cpu's node << 12 | cpu, the TSC deadline disarmed,
    IA32_APIC_BASE's BSP flag in cpu 0's alone; the
    full-width counter aliases (IA32_PERF_CAPABILITIES[13]) write the
    counters whole; skl's write-only commands are a #GP to read, and take
    only their defined bits."""
    need("rdmsr", "msr-tools")
    need("wrmsr", "msr-tools")
    same = [0x174, 0x6E0, 0xC0000080, 0xC0000081, 0xC0000084, 0xC0000100, 0xC0000102, 0x176, 0xC0000082]
    # IA32_APIC_BASE (SDM Vol. 3A 10.4.4, Figure 10-5): the base 0xFEE00000,
    # the global enable (bit 11), the BSP flag (bit 8) in cpu 0 alone
    bsp = 0x1B
    own = [0x175, 0xC0000101, 0xC0000103]
    reads = "; ".join(f"echo {a:#x} $(rdmsr -p 0 -0 -x {a:#x} 2>/dev/null || echo GP)" for a in same + own)
    every = "; ".join(f"echo all {a:#x} $(rdmsr -a -0 -x {a:#x} | tr '\\n' ' ')" for a in same + own + [bsp])
    ncpu = "n=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l); echo ncpu $n"
    pkgs = ("echo pkg $(for c in $(seq 0 $((n - 1))); do "
            "cat /sys/devices/system/cpu/cpu$c/topology/physical_package_id; done | tr '\\n' ' ')")
    writes = [("0x4c1", "0x123456789ab"), ("0x4c8", "0xfedcba98765")]
    if platform == "skl":
        writes += [("0x49", "0x1"), ("0x49", "0x2"), ("0x10b", "0x1"), ("0x10b", "0x3"), ("0x3b", "0x1000"),
                   ("0xda0", "0x100"), ("0xd90", "0x1")]
    wr = "; ".join(f"wrmsr -p 1 {a} {v} 2>/dev/null && echo w {a} $(rdmsr -p 1 -0 -x {a} 2>/dev/null || echo GP) "
                   f"|| echo w {a} refused" for a, v in writes)
    wr += "; echo pmc $(rdmsr -p 1 -0 -x 0xc1) $(rdmsr -p 1 -0 -x 0xc8) $(rdmsr -p 0 -0 -x 0xc1)"
    out, _, _ = run(platform, ["sh", "-c", f"{reads}; {every}; {ncpu}; {pkgs}; {wr}"])
    got, per, wrote, pkg, n = {}, {}, [], [], 0
    for ln in out.splitlines():
        f = ln.split()
        if f[0] == "all":
            per[int(f[1], 16)] = [int(x, 16) for x in f[2:]]
        elif f[0] in ("w", "pmc"):
            wrote.append(ln)
        elif f[0] == "pkg":
            pkg = [int(x) for x in f[1:]]
        elif f[0] == "ncpu":
            n = int(f[1])
        elif len(f) == 2 and f[0].startswith("0x"):
            got[int(f[0], 16)] = None if f[1] == "GP" else int(f[1], 16)
    for a in same + own:
        if got.get(a) is None:
            fail(f"{platform}: rdmsr {a:#x} is a #GP though CPUID advertises it")
        eq(f"{platform}: rdmsr -a {a:#x} answers on every cpu", len(per.get(a, [])), n)
    for a in same:
        eq(f"{platform}: rdmsr -a {a:#x}: one value on every cpu", len(set(per.get(a, []))), 1)
    for a in own:
        eq(f"{platform}: rdmsr -a {a:#x}: each cpu its own", len(set(per.get(a, []))), n)
    eq(f"{platform}: IA32_SYSENTER_CS (__KERNEL_CS)", got.get(0x174), KERNEL_CS)
    eq(f"{platform}: IA32_STAR (__USER32_CS, __KERNEL_CS)", got.get(0xC0000081), USER32_CS << 48 | KERNEL_CS << 32)
    eq(f"{platform}: IA32_FMASK (the flags SYSCALL clears)", got.get(0xC0000084),
       sum(1 << b for b in EFLAGS_BITS.values()))
    eq(f"{platform}: IA32_EFER (SCE, LME, LMA, NXE)", got.get(0xC0000080), LINUX_EFER)
    eq(f"{platform}: IA32_TSC_DEADLINE (disarmed), FS_BASE and KERNEL_GS_BASE (a kernel thread's)",
       [got.get(0x6E0), got.get(0xC0000100), got.get(0xC0000102)], [0, 0, 0])
    eq(f"{platform}: IA32_TSC_AUX on each cpu (node << 12 | cpu)", per.get(0xC0000103),
       [p << 12 | c for c, p in enumerate(pkg)])
    eq(f"{platform}: IA32_APIC_BASE on each cpu (enabled at 0xFEE00000, the BSP flag in cpu 0's)",
       per.get(bsp), [0xFEE00000 | 1 << 11 | (1 << 8 if c == 0 else 0) for c in range(n)])
    # x86-64's memory map (Documentation/x86/x86_64/mm.rst): the kernel
    # text from 0xffffffff80000000, the cpu entry areas in
    # 0xfffffe0000000000-0xfffffe7fffffffff, the direct map from
    # 0xffff888000000000 (4-level paging)
    for a in (0x176, 0xC0000082):
        if not 0xFFFFFFFF80000000 <= (got.get(a) or 0) < 0xFFFFFFFFC0000000:
            fail(f"{platform}: MSR {a:#x} = {got.get(a) or 0:#x}: not in the kernel text")
    for v in per.get(0x175, []):
        if not 0xFFFFFE0000000000 <= v < 0xFFFFFE8000000000 or v & 0xFFF:
            fail(f"{platform}: IA32_SYSENTER_ESP {v:#x}: not a page boundary in the cpu entry areas")
    for v in per.get(0xC0000101, []):
        if not 0xFFFF888000000000 <= v < 0xFFFFC88000000000:
            fail(f"{platform}: IA32_GS_BASE {v:#x}: not in the direct map")
    want = ["w 0x4c1 00000123456789ab", "w 0x4c8 00000fedcba98765"]
    if platform == "skl":
        want += ["w 0x49 GP", "w 0x49 refused", "w 0x10b GP", "w 0x10b refused", "w 0x3b 0000000000000000",
                 "w 0xda0 refused", "w 0xd90 0000000000000001"]
    want.append(f"pmc 00000123456789ab 00000fedcba98765 {0:016x}")
    eq(f"{platform}: wrmsr on cpu 1 (the aliases write the counters; cpu 0's unchanged)", wrote, want)


def kernel_msrs_skl():
    kernel_msrs("skl")


def kernel_msrs_snbep():
    kernel_msrs("snbep")


def kernel_msrs_ivt():
    kernel_msrs("ivt")


def mtrr_mca_skl():
    mtrr_mca("skl")


def mtrr_mca_snbep():
    mtrr_mca("snbep")


def mtrr_mca_ivt():
    mtrr_mca("ivt")

CASES = {f.__name__: f for f in (kernel_msrs_skl, kernel_msrs_snbep, kernel_msrs_ivt, mtrr_mca_skl, mtrr_mca_snbep, mtrr_mca_ivt, cpuid_xsave_skl, cpuid_xsave_snbep, cpuidle_skl, cpuidle_snbep, cpuidle_ivt, pci_functions_snbep, pci_functions_ivt, perf_power_cstate_skl, perf_power_cstate_snbep, perf_power_cstate_ivt, run_uname, run_sysconf, dmidecode_skl, dmidecode_snbep, dmidecode_ivt, turbostat_debug_skl, turbostat_debug_snbep, turbostat_debug_ivt, run_static_helper, power_skl, power_snbep, power_ivt, run_host_hidden, likwid_daemon_skl, likwid_daemon_snbep, run_exec_env, pcm_snbep, numactl_snbep, numactl_ivt, turbostat_skl, turbostat_snbep, turbostat_ivt, run_dir_place, run_scan_cache, msr_skl, msr_snbep, msr_ivt, pci_skl, pci_snbep, pci_ivt, likwid_skl_mem, likwid_skl_clock,
                                 likwid_snbep_mem, likwid_snbep_qpi, likwid_ivt_mem, likwid_ivt_qpi, pcm_memory_snbep, pcm_memory_ivt, pcm_skl, run_clock,
                                 run_report, run_devices, run_lscpu, run_cwd, run_errors)}

if __name__ == "__main__":
    main(CASES)
