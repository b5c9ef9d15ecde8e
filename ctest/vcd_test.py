#!/usr/bin/env python3
"""vcd_test.py UNCORE CASE - the waveforms of `--vcd` read back by GTKWave.

Every case writes a VCD with the CLI, has GTKWave's own reader take it in
(vcd2fst: VCD to GTKWave's FST database; fst2vcd: the database back out as
GTKWave writes VCD), and checks what GTKWave read against ground truth that
does not come from the waveform writer:

- counts: `stat --check` proves each printed count equals the model's
  ground truth; the increments the waveform shows for the event's counters
  while they are enabled (modulo their width, between consecutive samples)
  must add up to that count, box type by box type.
- PMIs and freezes: `stat --sample-period` lists every overflow the driver
  served; the waveform must show one PMI pulse per overflow, as far apart as
  the listed sample times, and on the E5-2600 v2 one global freeze per PMI.
- run: the values an unmodified rdmsr (msr-tools) read from the simulated
  machine must be values the counter's waveform takes, in the same order.

GTKWave (Debian package gtkwave) and msr-tools missing fail the case; the
README's test command installs them.
"""
import bisect
import os
import subprocess
import sys

from ct_py import CASE, UNCORE, fail, finish, need, workdir

WORK = workdir("uncore-vcd-")


def uncore(args, expect_rc=0):
    p = subprocess.run([UNCORE] + args, capture_output=True, text=True, timeout=600)
    if p.returncode != expect_rc:
        print(p.stdout, p.stderr, file=sys.stderr)
        fail(f"uncore {' '.join(args)}: exit {p.returncode}, expected {expect_rc}")
        finish()
    return p.stdout, p.stderr


def gtkwave_read(path):
    """The waveform as GTKWave reads it: {full.name: (width, [(t, value)])}."""
    need("vcd2fst", "gtkwave")
    need("fst2vcd", "gtkwave")
    fst = path + ".fst"
    p = subprocess.run(["vcd2fst", path, fst], capture_output=True, text=True)
    if p.returncode or not os.path.exists(fst):
        fail(f"vcd2fst refused {path}: {p.stderr.strip()}")
        finish()
    p = subprocess.run(["fst2vcd", fst], capture_output=True, text=True)
    if p.returncode:
        fail(f"fst2vcd: {p.stderr.strip()}")
        finish()
    scope, ids, sigs, t, block, timescale = [], {}, {}, 0, None, ""
    for line in p.stdout.splitlines():
        w = line.split()
        if not w:
            continue
        if block:
            # $date, $version, $timescale, $comment: text up to $end
            if w[-1] == "$end":
                block = None
            elif block == "$timescale":
                timescale += "".join(w)
            continue
        if w[0] in ("$date", "$version", "$timescale", "$comment"):
            if w[-1] != "$end":
                block = w[0]
            elif w[0] == "$timescale":
                timescale = "".join(w[1:-1])
            continue
        if w[0] == "$scope":
            scope.append(w[2])
        elif w[0] == "$upscope":
            scope.pop()
        elif w[0] == "$var":
            name = ".".join(scope + [w[4]])
            ids.setdefault(w[3], []).append(name)
            sigs[name] = (int(w[2]), [])
        elif w[0].startswith("#"):
            t = int(w[0][1:])
        elif w[0][0] in "bB":
            v = int(w[0][1:], 2)
            for n in ids[w[1]]:
                sigs[n][1].append((t, v))
        elif w[0][0] in "01" and len(w) == 1:
            for n in ids[w[0][1:]]:
                sigs[n][1].append((t, int(w[0][0])))
    if timescale != "1ps":
        fail(f"timescale {timescale!r}, expected 1ps")
    if not sigs:
        fail("GTKWave read no signal")
        finish()
    return sigs


_times = {}


def value_at(changes, t):
    """The value after every change at or before t (None before the first)."""
    key = id(changes)
    if key not in _times or len(_times[key][1]) != len(changes):
        _times[key] = (changes, [tc for tc, _ in changes])
    i = bisect.bisect_right(_times[key][1], t)
    return changes[i - 1][1] if i else None


# The global enable bit of each platform's global control, where counting
# is gated by one (SKL Table 3-2, UNC_PERF_GLOBAL_CTRL.EN); the v2 gates by
# its global freeze (frz_all/unfrz_all) and the E5-2600 by box freezes.
GLOBAL_EN_BIT = {"skl": 29}


def gates(sigs, ctr, platform):
    """The signals that let the counter count, with the value that does:
    its enable, its box's and its socket's freeze, the global enable."""
    box, sock = ctr.rsplit(".", 1)[0], ctr.split(".")[1]
    g = [(sigs[n][1], lambda v, w=w: v == w)
         for n, w in ((ctr + "_en", 1), (box + ".frozen", 0), (f"uncore.{sock}.frozen", 0))
         if n in sigs]
    if platform in GLOBAL_EN_BIT:
        bit = GLOBAL_EN_BIT[platform]
        g.append((sigs[f"uncore.{sock}.global_ctl"][1], lambda v: (v >> bit) & 1))
    return g


def counted(sigs, ctr, platform):
    """Increments a counter's waveform shows while it counts.  The driver
    counts from its first read to its last, and lets the counter count only
    in between; what the counter shows outside that (its programming, the
    restore of its old value) is not counting."""
    width, ch = sigs[ctr]
    g = gates(sigs, ctr, platform)
    times = sorted({t for t, _ in ch} | {t for changes, _ in g for t, _ in changes})
    total, prev_v, open_ = 0, None, False
    for t in times:
        v = value_at(ch, t)
        if prev_v is not None and open_:
            total += (v - prev_v) % (1 << width)
        prev_v = v
        open_ = all(ok(value_at(changes, t)) for changes, ok in g)
    return total


def csv_counts(out):
    counts = {}
    for line in out.splitlines():
        f = line.split(",")
        if len(f) >= 3 and f[0].isdigit():
            counts[f[2]] = int(f[0])
    return counts


def check_counts(platform, events, extra=()):
    """events: {event: box scope prefix (socketN.BOX, any instance)}."""
    vcd = os.path.join(WORK, f"{platform}.vcd")
    out, err = uncore(["stat", "--platform", platform, "-e", ",".join(events), "-x,", "--check",
                       "--duration", "0.1", "--vcd", vcd] + list(extra))
    if "equal the model's ground truth" not in err:
        fail(f"--check did not confirm the counts: {err}")
    counts = csv_counts(out)
    sigs = gtkwave_read(vcd)
    for ev, boxtype in events.items():
        ctrs = [n for n in sigs if n.split(".")[-1].startswith("ctr") and
                not n.endswith("_en") and n.split(".")[-2].rstrip("0123456789") == boxtype]
        if not ctrs:
            fail(f"{ev}: no {boxtype} counter in the waveform")
            continue
        got = sum(counted(sigs, c, platform) for c in ctrs)
        if ev not in counts:
            fail(f"{ev}: no count printed")
        elif got != counts[ev] or got == 0:
            fail(f"{ev}: the waveform of {', '.join(ctrs)} counts {got}, stat (= ground truth) {counts[ev]}")
        else:
            print(f"{ev}: {got} counted in the waveform of {len(ctrs)} counters = stat --check")
    return sigs


def pulses(changes):
    return [t for (t, v), prev in zip(changes, [(None, 0)] + changes) if v == 1 and prev[1] == 0]


def check_pmis(platform, event, period, freezes):
    vcd = os.path.join(WORK, f"{platform}-pmi.vcd")
    out, _ = uncore(["stat", "--platform", platform, "-e", event, "-x,", "--sample-period", str(period),
                     "--duration", "0.05", "--check", "--vcd", vcd])
    # sample,TIME,SERVED,SOCKET,COUNTER,COUNT,EVENT
    samples, served = {}, {}
    for line in out.splitlines():
        f = line.split(",")
        if f[0] == "sample":
            samples.setdefault(int(f[3]), []).append(round(float(f[1]) * 1e9))
            served.setdefault(int(f[3]), []).append(int(f[2]))
    sigs = gtkwave_read(vcd)
    if not samples:
        fail("no sample listed")
    for sock, times in samples.items():
        # the driver selects core 0 of each socket for the PMI
        line = sigs.get(f"uncore.socket{sock}.pmi_core0")
        if not line:
            fail(f"socket {sock}: no PMI line for core 0")
            continue
        rise = pulses(line[1])
        if len(rise) != len(times):
            fail(f"socket {sock}: {len(rise)} PMI pulses in the waveform, {len(times)} samples listed")
            continue
        # ps in the waveform, ns in the listing: the same spacing, within the
        # time the driver took to serve the PMIs (it notes the time of a
        # socket's overflow when it gets to it)
        sv = served[sock]
        for i, (a, b) in enumerate(zip(rise, rise[1:])):
            gs = (times[i + 1] - times[i]) * 1000
            if abs((b - a) - gs) > (sv[i] + sv[i + 1]) * 1000 + 1000:
                fail(f"socket {sock}: PMI pulses {b - a} ps apart, samples {gs} ps")
        for t in rise:
            if value_at(line[1], t + 1) != 0:
                fail(f"socket {sock}: the PMI pulse at {t} ps lasts more than 1 ps")
        if freezes:
            # every overflow that sends a PMI freezes the socket at that moment
            frz = sigs.get(f"uncore.socket{sock}.frozen")
            if not frz:
                fail(f"socket {sock}: no freeze signal")
                continue
            for t in rise:
                if value_at(frz[1], t) != 1 or value_at(frz[1], t - 1) != 0:
                    fail(f"socket {sock}: the PMI at {t} ps is not a freeze at that moment")
        print(f"socket {sock}: {len(rise)} PMI pulses = {len(times)} samples listed")


def case_stat_skl():
    check_counts("skl", {"uclk": "clock", "UNC_CBO_CACHE_LOOKUP.ANY_MESI": "cbo",
                         "UNC_ARB_TRK_REQUESTS.ALL": "arb"})


def case_stat_snbep():
    # PCI counters of 48 bits over two dwords, two sockets
    # (the E5-2600's UBox has neither box nor global freeze: it counts from
    # its enable on, outside the driver's window, and is left out)
    check_counts("snbep", {"UNC_C_CLOCKTICKS": "cbo", "UNC_H_CLOCKTICKS": "ha",
                           "UNC_M_DCLOCKTICKS": "imc"})


def case_stat_ivt():
    sigs = check_counts("ivt", {"UNC_C_CLOCKTICKS": "cbo", "UNC_M_DCLOCKTICKS": "imc",
                                "UNC_U_CLOCKTICKS": "ubox"})
    if "uncore.socket0.ubox0.status" not in sigs or "uncore.socket0.global_status" not in sigs:
        fail("the v2's box and global status registers are missing")


def case_pmi_skl():
    check_pmis("skl", "uclk", 30000000, False)


def case_pmi_ivt():
    check_pmis("ivt", "UNC_U_CLOCKTICKS", 27000000, True)


def case_run_skl():
    need("rdmsr", "msr-tools")
    need("wrmsr", "msr-tools")
    vcd = os.path.join(WORK, "run.vcd")
    # UNC_PERF_GLOBAL_CTRL.EN, UNC_PERF_FIXED_CTRL.EN; read UNC_PERF_FIXED_CTR
    # twice (SKL Table 3-1)
    script = ("wrmsr -p 0 0xe01 0x20000000 && wrmsr -p 0 0x394 0x400000 && rdmsr -p 0 -d 0x395 && "
              "sleep 0.01 && rdmsr -p 0 -d 0x395")
    out, _ = uncore(["run", "--platform", "skl", "--vcd", vcd, "--", "sh", "-c", script])
    read = [int(x) for x in out.split()]
    sigs = gtkwave_read(vcd)
    ctr = sigs.get("uncore.socket0.clock0.ctr0")
    if len(read) != 2 or not ctr:
        fail(f"rdmsr printed {out!r}; fixed counter in the waveform: {bool(ctr)}")
        finish()
    vals = [v for _, v in ctr[1]]
    try:
        i = vals.index(read[0])
        vals.index(read[1], i + 1)
        print(f"rdmsr read {read}: both values of the waveform, in order")
    except ValueError:
        fail(f"rdmsr read {read}; not values the waveform of the fixed counter takes in order")
    en = sigs.get("uncore.socket0.clock0.ctr0_en")
    if not en or value_at(en[1], ctr[1][-1][0]) != 1:
        fail("the fixed counter's enable is not set in the waveform")


def case_errors():
    # a waveform needs the simulator, and goes with stat and run only
    _, err = uncore(["regs", "--vcd", os.path.join(WORK, "x.vcd")], expect_rc=2)
    if "--vcd" not in err:
        fail(f"regs --vcd: {err!r}")
    _, err = uncore(["stat", "--vcd", os.path.join(WORK, "nodir", "x.vcd")], expect_rc=1)
    if "--vcd" not in err or "nodir" not in err:
        fail(f"unwritable --vcd path: {err!r}")
    # a failed run leaves no waveform behind
    bad = os.path.join(WORK, "bad.vcd")
    uncore(["stat", "-e", "no_such_event", "--vcd", bad], expect_rc=2)
    if os.path.exists(bad) or [f for f in os.listdir(WORK) if f.startswith("bad.vcd")]:
        fail("a failed stat left a waveform (or its temporary) behind")


def case_limit():
    # an unprogrammed run on skl: only the free-running IMC counters change,
    # some 2 MB a machine second; the file is bounded and the limit named
    env = dict(os.environ, UNCORE_VCD_MAX_BYTES="100000")
    vcd = os.path.join(WORK, "lim.vcd")
    p = subprocess.run([UNCORE, "run", "--platform", "skl", "--vcd", vcd, "--", "sleep", "0.5"],
                       capture_output=True, text=True, timeout=600, env=env)
    want = "the waveform would be more than 100000 bytes, the most a waveform may have (UCT_VCD_MAX_BYTES"
    if p.returncode != 1 or want not in p.stderr or "--vcd: " + vcd not in p.stderr:
        fail(f"over the limit: exit {p.returncode}, stderr {p.stderr!r}")
    if [f for f in os.listdir(WORK) if f.startswith("lim.vcd")]:
        fail("a waveform over its limit left a file (or its temporary) behind")
    # under a limit: the file stays within it, and holds value changes
    # only: no signal written again with the value it has, no time without
    # a change but the run's end
    env["UNCORE_VCD_MAX_BYTES"] = "20000000"
    p = subprocess.run([UNCORE, "run", "--platform", "skl", "--vcd", vcd, "--", "sleep", "0.5"],
                       capture_output=True, text=True, timeout=600, env=env)
    if p.returncode != 0:
        fail(f"within the limit: exit {p.returncode}, stderr {p.stderr!r}")
        finish()
    size = os.path.getsize(vcd)
    if size > 20000000 or size < 100000:
        fail(f"{size} bytes: not within 100000 and the limit of 20000000")
    last, body, empty, times = {}, False, 0, []
    lines = open(vcd).read().split("\n")
    for i, l in enumerate(lines):
        if l.startswith("$dumpvars"):
            body = True
        if not body or not l or l.startswith("$"):
            continue
        if l.startswith("#"):
            times.append(i)
            if i + 1 < len(lines) and lines[i + 1].startswith("#"):
                empty += 1
            continue
        v, ident = (l[1:].split(" ") if l[0] == "b" else (l[0], l[1:]))
        if last.get(ident) == v and len(times) > 1:
            fail(f"line {i + 1}: {l!r} writes the value signal {ident} already has")
            break
        last[ident] = v
    if empty:
        fail(f"{empty} timestamps without a value change")
    gtkwave_read(vcd)
    print(f"{size} bytes within the limit, {len(times)} times, every line a change")


globals()["case_" + CASE]()
finish()
