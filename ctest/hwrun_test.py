#!/usr/bin/env python3
"""hwrun_test.py UNCORE CASE - our own CLI's hardware backend (--backend=hw)
on the simulated machine of `uncore run`: the rehearsal before a real box
(docs/hw-validation.md, "Rehearsal under uncore run").

The machine serves the device files with the kernel's semantics (MSR #GP as
EIO, PCI configuration split into byte, word and dword accesses, /dev/mem,
msr-safe's msr_safe and batch ioctl) and two sockets on the Xeons.  What
`uncore stat` printed is compared with the machine's ground truth
(--report-json), never with the driver's own figures:

- an event's count = the sum of `truth` (the count between the program's
  first and last read) over the counters that counted it; which counters
  those are is read from the report's `written`: the counters whose control
  register the program enabled with the same value (one value, one event),
  and a fixed or free-running counter by itself;
- every register the program wrote holds, at the end, what it held before
  its first write (the report's `before`, `last` written and `now`), except
  the status registers, whose bits are write-1-to-clear (SKL Table 2-2,
  SNB-EP 2.1.5, IVT 2.1.5: what was set cannot be put back).

The cases run on all three platforms, the Xeons with two sockets (uncore
run's default).  On skl Linux's uncore driver, booted on the machine as on a
real one, has enabled MSR_UNC_PERF_GLOBAL_CTRL (0x2000000F), so the hw
backend refuses without --force (case `busy_skl`) and the others pass it;
the restore then must put back Linux's value.

Sanitized builds: gcc's AddressSanitizer refuses to start a program when a
preloaded library (libuncore-run.so) comes before its runtime; the program
here is our own sanitized `uncore`, so the cases tell ASan not to check the
order (ASAN_OPTIONS verify_asan_link_order=0): the preload library's
interposers then call on into ASan's, as in any LD_PRELOAD of a sanitized
program.  LeakSanitizer cannot run under ptrace, so the strace case turns it
off there.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

from ct_py import CASE, UNCORE, fail, finish, need, workdir

WORK = workdir("uncore-hwrun-")
MASK64 = (1 << 64) - 1
SAN_ENV = {"ASAN_OPTIONS": "verify_asan_link_order=0:" + os.environ.get("ASAN_OPTIONS", "")}
# Linux's driver enabled the client's global control at boot (above)
FORCE = {"skl": ["--force"], "snbep": [], "ivt": []}
# the machines: the Xeons with two sockets, said rather than left to the default
SOCKETS = {"skl": [], "snbep": ["--sockets", "2"], "ivt": ["--sockets", "2"]}


def sanitizer_report(text, what):
    if re.search(r"AddressSanitizer|LeakSanitizer|runtime error:", text):
        fail(f"sanitizer report from {what}:\n{text[-3000:]}")


def hwrun(platform, stat_args, expect_rc=0, extra_env=None, wrap=()):
    """`uncore run --platform P -- [wrap] uncore stat --backend=hw ARGS`;
    returns (stdout, stderr, report)."""
    report = os.path.join(WORK, "report.json")
    if os.path.exists(report):
        os.unlink(report)
    env = dict(os.environ)
    env.update(SAN_ENV)
    env.update(extra_env or {})
    cmd = [UNCORE, "run", "--platform", platform, *SOCKETS[platform], "--report-json", report, "--",
           *wrap, UNCORE, "stat", "--backend=hw", *stat_args]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    sanitizer_report(p.stderr, " ".join(cmd))
    if p.returncode != expect_rc:
        fail(f"{' '.join(cmd)}: exit {p.returncode}, want {expect_rc}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    rep = None
    if os.path.exists(report):
        with open(report) as f:
            rep = json.load(f)
    else:
        fail(f"{' '.join(cmd)}: no report written")
    return p.stdout, p.stderr, rep


def parse_x(out, interval=False):
    """`-x,` lines -> [(time or None, socket or None, units or None, value,
    event)].  perf's columns (docs/usage.md, "Output"): `time,` with -I,
    `S<n>,units,` with --per-socket (which -I does not split: its lines are
    the sockets summed); an event name may hold commas
    (`cbo/event=0x35,umask=0x03/`), so the event is what lies between the
    leading and the trailing columns."""
    rows = []
    for line in out.splitlines():
        if not line or line.startswith("#"):
            continue
        f = line.split(",")
        t = sock = units = None
        if interval:
            t, f = float(f[0]), f[1:]
        if f[0].startswith("S"):
            sock, units, f = int(f[0][1:]), int(f[1]), f[2:]
        if not re.fullmatch(r"[0-9]+", f[0]):
            fail(f"unexpected line {line!r}")
            continue
        rows.append((t, sock, units, int(f[0]), ",".join(f[2:-4])))
    return rows


def groups(rep, field="truth"):
    """The report's counters grouped by what they counted: (socket, box,
    enabled control value) for a counter with its own control register,
    (socket, register) for one without; -> {key: (sum of field, counters)}.
    A control's enabled value is the one of its written values with the
    enable bit, bit 22 on every counter control of the three platforms
    (SKL Table 2-3 and 2-4; SNB-EP Table 2-4 and 2-8; IVT 2.1.3)."""
    written = {(w["socket"], w["register"]): w for w in rep["written"]}
    g = {}
    for c in rep["counters"]:
        key = (c["socket"], c["register"])
        ctl = c.get("control_register")
        if ctl:
            w = written.get((c["socket"], ctl))
            if not w:
                continue      # a counter it read but never programmed
            en = [v % (1 << 64) for v in w["values"] if v >> 22 & 1]
            if len(set(en)) != 1:
                fail(f"{ctl} socket {c['socket']}: enabled with {[hex(v) for v in en]}, want one value")
                continue
            # free-running counters of one box (e.g. a fixed counter) stay apart
            key = (c["socket"], c["box"], en[0] & ~(1 << 22))
        s, n = g.get(key, (0, 0))
        g[key] = (s + c[field] % (1 << 64), n + 1)
    return g


def check_counts(rows, rep, field="truth", what="the run"):
    """Per socket, the printed (count, units) pairs = the ground truth's
    groups, one to one; lines without a socket (-I): the counts = the
    groups summed over the sockets."""
    g = groups(rep, field)
    if rows and rows[0][1] is None:
        merged = {}
        for k, (v, n) in g.items():
            merged[k[1:]] = merged.get(k[1:], 0) + v
        printed, truth = sorted(r[3] for r in rows), sorted(merged.values())
        if printed != truth:
            fail(f"{what}: printed {printed}\n  ground truth by counter group {truth}")
        return
    for sock in sorted({r[1] for r in rows} | {k[0] for k in g}):
        printed = sorted((r[3], r[2]) for r in rows if r[1] == sock)
        truth = sorted(v for k, v in g.items() if k[0] == sock)
        if printed != truth:
            fail(f"{what}, socket {sock}: printed (count, counters) {printed}\n"
                 f"  ground truth by counter group {truth}")


def check_restored(rep, what):
    """Every register the program wrote: the last value written = the value
    before its first write, and a control (not a counter, whose value moves
    while another agent's programming counts, nor a status register) still
    holds it."""
    if not rep["written"]:
        fail(f"{what}: the report lists no register written")
    counters = {(c["socket"], c["register"]) for c in rep["counters"]}
    for w in rep["written"]:
        name, before = w["register"], w["before"] % (1 << 64)
        if "STATUS" in name:
            continue
        if w["last"] % (1 << 64) != before:
            fail(f"{what}: {name} socket {w['socket']} was {before:#x} before, last written "
                 f"{w['last'] % (1 << 64):#x} (values {[hex(v % (1 << 64)) for v in w['values']]})")
        if (w["socket"], name) not in counters and w["now"] % (1 << 64) != before:
            fail(f"{what}: {name} socket {w['socket']} was {before:#x} before, holds {w['now'] % (1 << 64):#x}")


# ---- cases ----

# One named event of every box type the platform has (docs/platform-*.md)
NAMED = {
    "skl": "UNC_CLOCK.SOCKET,UNC_CBO_CACHE_LOOKUP.ANY_I,UNC_ARB_TRK_OCCUPANCY.ALL,DRAM_DATA_WRITES",
    "snbep": "UNC_U_EVENT_MSG.IPI_RCVD,UNC_C_CLOCKTICKS,UNC_H_CLOCKTICKS,UNC_M_CAS_COUNT.ALL,UNC_P_CLOCKTICKS,"
             "UNC_Q_CLOCKTICKS,UNC_R2_CLOCKTICKS,UNC_R3_CLOCKTICKS",
    "ivt": "UNC_U_CLOCKTICKS,UNC_C_CLOCKTICKS,UNC_H_CLOCKTICKS,UNC_M_CAS_COUNT.ALL,UNC_P_CLOCKTICKS,"
           "UNC_Q_CLOCKTICKS,UNC_R2_CLOCKTICKS,UNC_R3_CLOCKTICKS",
}
# A raw event with its filter, and where the filter lands (the manuals'
# field positions): skl's client CBo and ARB have no filter register (SKL
# 2.x), so its raw event uses the threshold field instead (cmask, 28:24,
# SKL Table 2-4).
RAW = {
    "skl": ("arb/event=0x80,umask=0x01,cmask=1/", None, None),
    # SNB-EP Table 2-12: Cn_MSR_PMON_BOX_FILTER opc 31:23
    "snbep": ("cbo/event=0x35,umask=0x03,filter_opc=0x182/", "BOX_FILTER", 0x182 << 23),
    # IVT Table 2-16: Cn_MSR_PMON_BOX_FILTER (FILTER0) state 22:17
    "ivt": ("cbo/event=0x34,umask=0x03,filter_state=0x1f/", "BOX_FILTER", 0x1f << 17),
}


def defaults(p):
    out, _, rep = hwrun(p, [*FORCE[p], "-x,", "--per-socket", "--duration", "1"])
    if rep:
        rows = parse_x(out)
        if len(rows) < 5:
            fail(f"default events: {out!r}")
        nsock = 1 if p == "skl" else 2
        if rep["sockets"] != nsock or {r[1] for r in rows} != set(range(nsock)):
            fail(f"{rep['sockets']} sockets, counts printed for {sorted({r[1] for r in rows})}; want {nsock}")
        check_counts(rows, rep, what="default events")
        check_restored(rep, "default events")


def named(p):
    out, _, rep = hwrun(p, [*FORCE[p], "-x,", "--per-socket", "--duration", "0.5", "-e", NAMED[p]])
    if rep:
        rows = parse_x(out)
        events = {r[4] for r in rows}
        if events != set(NAMED[p].split(",")):
            fail(f"printed events {sorted(events)}, asked for {NAMED[p]}")
        boxes = {c["box"] for c in rep["counters"]}
        print(f"box types counted: {sorted(boxes)}")
        check_counts(rows, rep, what="named events")
        check_restored(rep, "named events")


def raw(p):
    ev, filt, want = RAW[p]
    out, _, rep = hwrun(p, [*FORCE[p], "-x,", "--per-socket", "--duration", "0.5", "-e", ev])
    if not rep:
        return
    rows = parse_x(out)
    if {r[4] for r in rows} != {ev} or not any(r[3] for r in rows):
        fail(f"raw event {ev}: printed {rows}")
    check_counts(rows, rep, what=ev)
    check_restored(rep, ev)
    if filt:
        f = [w for w in rep["written"] if w["register"].endswith(filt)]
        if not f or any(want not in [v % (1 << 64) for v in w["values"]] for w in f):
            fail(f"{ev}: the filter registers *{filt} were written {[(w['register'], w['values']) for w in f]}, "
                 f"each must hold {want:#x} while counting")


def interval(p):
    out, _, rep = hwrun(p, [*FORCE[p], "-x,", "-I", "200", "--duration", "1"])
    if not rep:
        return
    rows = parse_x(out, interval=True)
    times = sorted({r[0] for r in rows})
    if len(times) != 5:
        fail(f"-I 200 over 1 s: intervals at {times}, want 5")
        return
    # the whole run: each event summed over its intervals
    whole = {}
    for r in rows:
        whole[r[4]] = whole.get(r[4], 0) + r[3]
    check_counts([(None, None, None, v, e) for e, v in whole.items()], rep, what="-I: the intervals summed")
    # five intervals 200 ms of machine time apart (the timestamps are the
    # driver's own clock, which is the machine's)
    for a, b in zip(times, times[1:]):
        if abs(b - a - 0.2) > 0.001:
            fail(f"-I 200: intervals at {times}")
            break
    # every interval: the counters' totals at the program's reads
    # (`program_reads`), gathered into the samples they belong to (reads
    # more than 10 ms of machine time apart are different samples).  As
    # for `truth`, the start is the first read (the counter as found,
    # before it was programmed: a counter the driver enables before its
    # first sample read, such as the E5-2600's UBox fixed counter, counts
    # from there); every later sample's value is its last read (at the end,
    # the read when the driver stops).
    written = {(w["socket"], w["register"]): w for w in rep["written"]}
    per = {}   # (box, control) -> [count of interval k]
    for c in rep["counters"]:
        pr = c.get("program_reads", [])
        samples, last_ns = [], None
        for ns, tot in pr:
            if last_ns is None or ns - last_ns > 10_000_000:
                samples.append(tot)
            elif len(samples) > 1:
                samples[-1] = tot
            last_ns = ns
        if len(samples) != len(times) + 1:
            fail(f"{c['register']} socket {c['socket']}: read in {len(samples)} samples, want {len(times) + 1}")
            continue
        ctl = c.get("control_register")
        key = c["register"]
        if ctl:
            if (c["socket"], ctl) not in written:
                continue      # a counter it read but never programmed
            en = [v % (1 << 64) for v in written[(c["socket"], ctl)]["values"] if v >> 22 & 1]
            key = (c["box"], en[0] & ~(1 << 22))
        acc = per.setdefault(key, [0] * len(times))
        for k in range(len(times)):
            acc[k] += (samples[k + 1] - samples[k]) % (1 << 64)
    for k, t in enumerate(times):
        printed = sorted(r[3] for r in rows if r[0] == t)
        truth = sorted(v[k] for v in per.values())
        if printed != truth:
            fail(f"-I interval {k + 1} (at {t}): printed {printed}\n  ground truth {truth}")
    check_restored(rep, "-I")


def signals(p):
    """SIGINT, SIGTERM and SIGHUP to `uncore run` while `uncore stat -I`
    samples: passed on to the program, which restores and exits 128 +
    the signal."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        report = os.path.join(WORK, "report.json")
        if os.path.exists(report):
            os.unlink(report)
        env = dict(os.environ)
        env.update(SAN_ENV)
        cmd = [UNCORE, "run", "--platform", p, *SOCKETS[p], "--report-json", report, "--",
               UNCORE, "stat", "--backend=hw", *FORCE[p], "-x,", "--per-socket", "-I", "100", "--duration", "100000"]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        first = proc.stdout.readline()     # sampling has begun
        proc.send_signal(sig)
        try:
            out, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            fail(f"{sig.name}: uncore run did not end")
        sanitizer_report(err, " ".join(cmd))
        if not first:
            fail(f"{sig.name}: no interval printed before the signal\n{err[-2000:]}")
        if proc.returncode != 128 + sig:
            fail(f"{sig.name}: exit {proc.returncode}, want {128 + sig}\n{err[-2000:]}")
        if not os.path.exists(report):
            fail(f"{sig.name}: no report")
            continue
        with open(report) as f:
            rep = json.load(f)
        if rep.get("interrupted") != sig.name:
            fail(f"{sig.name}: the report says interrupted={rep.get('interrupted')!r}")
        check_restored(rep, f"after {sig.name}")


def replay(p):
    """--record on the simulated machine, then --backend replay: of the log
    outside uncore run: the same counts, line for line."""
    log = os.path.join(WORK, "session.log")
    args = [*FORCE[p], "-x,", "--per-socket", "--duration", "0.5", "-e", NAMED[p]]
    out, _, rep = hwrun(p, [*args, "--record", log])
    if not rep:
        return
    check_counts(parse_x(out), rep, what="recorded session")
    env = dict(os.environ)
    q = subprocess.run([UNCORE, "stat", f"--backend=replay:{log}", *args], capture_output=True, text=True,
                       env=env, timeout=300)
    sanitizer_report(q.stderr, "the replay")
    if q.returncode != 0:
        fail(f"replay of the log: exit {q.returncode}\n{q.stderr[-2000:]}")
    if q.stdout != out:
        fail(f"replay printed\n{q.stdout}\nthe session on the machine printed\n{out}")


def mismatch():
    """Under uncore run --platform snbep, the hw backend asked for skl
    refuses, names both, and touches no register (the report's requests:
    no MSR, PCI or MMIO access at all); on skl without --force, Linux's
    enabled global control is refused the same way, with nothing written."""
    _, err, rep = hwrun("snbep", ["--platform", "skl", "--duration", "0.1"], expect_rc=1)
    if not re.search(r"this CPU \(.*model 0x2d\) is not .*use --force", err):
        fail(f"snbep machine, --platform skl: stderr {err!r}")
    if rep and rep["written"]:
        fail(f"the refused session wrote {[w['register'] for w in rep['written']]}")
    # nothing touched: not one register access reached the machine
    accesses = {k: v for k, v in (rep or {}).get("requests", {}).items()
                if re.fullmatch(r"(msr|pci|mmio)_(read|write)", k) and v}
    if not rep or accesses:
        fail(f"the session refused for the platform accessed registers: {accesses}")
    _, err, rep = hwrun("skl", ["--duration", "0.1"], expect_rc=1)
    if "MSR_UNC_PERF_GLOBAL_CTRL = 0x2000000f has EN set); use --force" not in err:
        fail(f"skl, Linux's global enable: stderr {err!r}")
    if rep and rep["written"]:
        fail(f"the refused session wrote {[w['register'] for w in rep['written']]}")


DEVICE = re.compile(r'"[^"]*(/dev/cpu/[0-9]+/msr(_safe)?|/dev/cpu/msr_batch|/dev/mem|/sys/bus/pci/devices/[^"]*/config|'
                    r'/proc/bus/pci/[^"]*)"')


def syscalls(p):
    """msr-safe's device files and batch ioctl as the machine serves them:
    between two interval lines of `-I 100` (one sample each), strace sees
    exactly one pread64 per PCI function with counters and one ioctl (the
    batch: every MSR counter and the global status), nothing else on a
    device, and no open, close or mapping: the benchmark's goal, boxes + 1
    (docs/hw-validation.md, "System calls").  The boxes are counted from the
    report (the PCI functions whose counters the program read); skl's IMC
    counters are read from the kept /dev/mem mapping, no system call.
    strace runs under uncore run and traces `uncore stat`; the preload
    library makes each device call it serves on the tree's placeholder file
    too, with no bytes (docs/tools.md), which is what strace shows."""
    need("strace", "strace")
    trace = os.path.join(WORK, "strace.log")
    env = {"ASAN_OPTIONS": SAN_ENV["ASAN_OPTIONS"] + ":detect_leaks=0"}  # LSan cannot run under ptrace
    out, _, rep = hwrun(p, [*FORCE[p], "--hw-msr", "msr-safe", "-x,", "-I", "100", "--duration", "0.5"],
                        extra_env=env, wrap=("strace", "-f", "-qq", "-o", trace, "-e",
                                             "trace=openat,open,close,read,write,pread64,pwrite64,ioctl,"
                                             "mmap,munmap,lseek"))
    if not rep:
        return
    fns = {c["address"].split("+")[0] + f"/{c['socket']}" for c in rep["counters"] if c["space"] == "pci"}
    want = {"pread64": len(fns), "ioctl": 1} if fns else {"ioctl": 1}
    with open(trace) as f:
        lines = f.read().splitlines()
    dev, windows, cur = set(), [], None
    for ln in lines:
        m = re.match(r"\d+ +(\w+)\((.*)\) += (-?\d+)", ln)
        if not m:
            continue
        name, args, rc = m.group(1), m.group(2), int(m.group(3))
        if name in ("openat", "open") and DEVICE.search(args) and rc >= 0:
            dev.add(rc)
        if name == "write" and args.startswith("1,"):
            if cur is not None:
                windows.append(cur)
            cur = {}
            continue
        if cur is None:
            continue
        fd = args.split(",")[0]
        if name in ("openat", "open", "mmap", "munmap") or (fd.isdigit() and int(fd) in dev):
            cur[name] = cur.get(name, 0) + 1
    # the windows between interval lines; the last holds the stop and
    # restore (after the final line nothing is counted)
    if len(windows) < 3:
        fail(f"{len(windows)} samples between interval lines in the trace, want 4")
    if not dev:
        fail("strace saw no device file opened")
    for i, w in enumerate(windows[:3]):
        if w != want:
            fail(f"sample {i + 2}: system calls on the devices {w}, want {want} ({len(fns)} PCI functions "
                 f"with counters + the batch ioctl)")
    print(f"{p}: {len(fns)} PCI functions with counters, goal {sum(want.values())} system calls a sample; "
          f"strace saw {windows[:3]}")


CASES = {}
for _p in ("skl", "snbep", "ivt"):
    for _f in (defaults, named, raw, interval, signals, replay, syscalls):
        CASES[f"{_f.__name__}_{_p}"] = (lambda f, p: lambda: f(p))(_f, _p)
CASES["mismatch"] = mismatch

if CASE not in CASES:
    fail(f"no case {CASE!r}; cases: {' '.join(sorted(CASES))}")
    finish()
CASES[CASE]()
finish()
