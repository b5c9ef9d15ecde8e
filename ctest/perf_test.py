#!/usr/bin/env python3
"""perf_test.py UNCORE CASE - perf (Debian's linux-perf 6.1) on the simulated
machine, through Linux's own uncore driver (kernel/, docs/linux-driver.md).

Each case runs `perf stat -a` under `uncore run` and compares every count perf
printed with the ground truth of the counter the driver programmed, from the
machine's report (--report-json): exactly.  Each event has a box of its own
(or a set of boxes, for an event perf's tables spread over every box of a
type), so a box's counter that the driver read is the event's.  perf is a
tool nobody here wrote, and so is the driver; the expected values come from
the model's ground truth only.  A missing perf fails the case, naming its
package.
"""
import os
import re
import sys

from ct_py import CASE, fail, finish, need, main
import tools_test
from tools_test import run

# (event as given to -e, where it counts: [(box type, instance)] or
# ("register", name), the scale perf applies from the driver's .scale file)
MIB = 64 / 2**20
EVENTS = {
    "skl": [
        ("uncore_imc/data_reads/", ("register", "DRAM_DATA_READS"), MIB),                  # alias, scaled
        ("uncore_imc/event=0x2/", ("register", "DRAM_DATA_WRITES"), None),                 # raw
        ("unc_cbo_cache_lookup.any_mesi", [("cbo", i) for i in range(4)], None),           # perf's name
        ("uncore_arb/event=0x80,umask=0x01/", [("arb", 0)], None),                         # raw
        ("uncore_cbox_0/clockticks/", [("clock", 0)], None),                               # alias, fixed ctr
    ],
    "snbep": [
        ("uncore_cbox_0/event=0x34,umask=0x03,filter_state=0x1f/", [("cbo", 0)], None),    # raw with a filter
        ("uncore_cbox_1/event=0x0/", [("cbo", 1)], None),
        ("unc_m_cas_count.rd", [("imc", i) for i in range(4)], None),                      # perf's name
        ("uncore_qpi_0/drs_data/", [("qpi", 0)], None),                                    # alias, extended event
        ("uncore_qpi_1/event=0x14/", [("qpi", 1)], None),
        ("unc_h_requests.reads", [("ha", 0)], None),
        ("uncore_pcu/event=0x0/", [("pcu", 0)], None),
        ("uncore_ubox/event=0x42,umask=0x04/", [("ubox", 0)], None),                       # EVENT_MSG.IPI_RCVD
        ("uncore_r2pcie/event=0x1/", [("r2pcie", 0)], None),
        ("uncore_r3qpi_0/event=0x1/", [("r3qpi", 0)], None),
    ],
    "ivt": [
        ("uncore_cbox_0/event=0x34,umask=0x03,filter_state=0x1f/", [("cbo", 0)], None),
        ("uncore_cbox_11/event=0x0/", [("cbo", 11)], None),
        ("uncore_imc_0/cas_count_read/", [("imc", 0)], MIB),                               # alias, scaled
        ("uncore_imc_7/event=0x4,umask=0x0c/", [("imc", 7)], None),
        ("uncore_qpi_1/event=0x14/", [("qpi", 1)], None),
        ("uncore_ha_1/event=0x1,umask=0x03/", [("ha", 1)], None),
        ("uncore_irp/event=0x0/", [("irp", 0)], None),
        ("uncore_pcu/event=0x0/", [("pcu", 0)], None),
        ("uncore_r2pcie/event=0x1/", [("r2pcie", 0)], None),
        ("uncore_r3qpi_1/event=0x1/", [("r3qpi", 1)], None),
        ("unc_u_event_msg.ipi_rcvd", [("ubox", 0)], None),                                  # perf's name
    ],
}

# What Linux programs that the manuals call reserved (docs/linux-driver.md,
# "Findings about Linux"): the only undefined programming allowed
FINDINGS = {
    "skl": r"MSR_UNC_PERF_GLOBAL_CTRL <- 0x[0-9a-f]+: reserved bits 0x10 written",
    "snbep": r"_PCI_PMON_BOX_CTL <- 0x[0-9a-f]+: reserved bits 0x3 written",
    "ivt": r"_PMON_BOX_CTL <- 0x[0-9a-f]+: bits 0x30000 written as 0",
}


def truth(rep, where, socket):
    if where[0] == "register":
        return sum(c["truth"] for c in rep["counters"] if c["register"] == where[1] and c["socket"] == socket)
    total = 0
    for box, inst in where:
        read = [c for c in rep["counters"] if c["box"] == box and c["instance"] == inst and c["socket"] == socket]
        if len(read) != 1:
            fail(f"{box} {inst} on socket {socket}: the driver read {len(read)} of its counters, want 1")
            continue
        total += read[0]["truth"]
    return total


def perf_lines(out):
    """[(interval time or None, cpu, value or None, event, percent)] of perf
    stat -A -x';' output (';': the events themselves hold commas)"""
    rows = []
    for line in out.splitlines():
        f = line.strip().split(";")
        if len(f) < 6:
            continue
        t = None
        if re.match(r"^\d+\.\d+$", f[0]):
            t, f = float(f[0]), f[1:]
        if not f[0].startswith("CPU"):
            continue
        val = None if f[1].startswith("<") else float(f[1])
        rows.append((t, int(f[0][3:]), val, f[3], f[5]))
    return rows


def no_undefined_but_findings(plat, rep, log_findings=None, also=None):
    """perf and PAPI program nothing themselves: every record is Linux's
    driver's (the report says so) and one of its findings (or matches
    also, for an event the tool asks for); and the kernel logged no
    warning or error (a WARN, an MSR access that faulted) but those
    log_findings matches"""
    for line in rep["undefined_programming"]:
        if not line.startswith("Linux's uncore driver: "):
            fail(f"undefined programming not by Linux's driver: {line}")
        elif not re.search(FINDINGS[plat], line) and not (also and re.search(also, line)):
            fail(f"undefined programming that no finding names: {line}")
    for line in rep["linux_warnings"]:
        if not (log_findings and re.search(log_findings, line)):
            fail(f"the kernel logged: {line}")


def stat(plat):
    need("perf", "linux-perf")
    events = EVENTS[plat]
    ev = ",".join(e for e, _, _ in events)
    out, err, rep = run(plat, ["perf", "stat", "-a", "-A", "-x;", "-e", ev, "--", "sleep", "0.05"])
    per_socket = rep["cpus"] // rep["sockets"]
    rows = perf_lines(err + out)
    for e, where, scale in events:
        mine = [r for r in rows if r[3] == e]
        if len(mine) != rep["sockets"]:
            fail(f"{e}: perf printed {len(mine)} lines, want one per socket ({rep['sockets']})\n{err}")
            continue
        for _, cpu, val, _, pct in mine:
            if cpu % per_socket:
                fail(f"{e}: counted on cpu {cpu}, not the first of a socket (the PMU's cpumask)")
            want = truth(rep, where, cpu // per_socket)
            if val is None:
                fail(f"{e} on cpu {cpu}: perf printed no count")
            elif scale is None:
                if val != want:
                    fail(f"{e} on cpu {cpu}: perf printed {val:.0f}, ground truth {want}")
            elif abs(val - want * scale) > 0.005 + 1e-9:
                fail(f"{e} on cpu {cpu}: perf printed {val}, ground truth {want} x {scale} = {want * scale:.4f}")
            if pct != "100.00":
                fail(f"{e} on cpu {cpu}: ran {pct}% of the time, want all of it (no multiplexing)")
            if want == 0:
                fail(f"{e} on cpu {cpu}: the workload moved nothing it counts (a weak check)")
    no_undefined_but_findings(plat, rep)


def perf_stat_skl():
    stat("skl")


def perf_stat_snbep():
    stat("snbep")


def perf_stat_ivt():
    stat("ivt")


def perf_interval_snbep():
    """-I on the machine's clock: an interval each 20 ms of machine time, and
    the intervals add up to the truth of the run up to the last interval's
    read."""
    need("perf", "linux-perf")
    e = "uncore_imc_0/event=0x4,umask=0x3/"
    out, err, rep = run("snbep", ["perf", "stat", "-a", "-A", "-x;", "-I", "20", "-e", e, "--", "sleep", "0.1"])
    rows = [r for r in perf_lines(err + out) if r[3] == e]
    for sock, cpu in ((0, 0), (1, 8)):
        mine = [r for r in rows if r[1] == cpu]
        times = [r[0] for r in mine]
        if len(mine) != 5:
            fail(f"cpu {cpu}: {len(mine)} intervals over 0.1 s of 20 ms, want 5: {times}")
        for k, t in enumerate(times):
            if abs(t - 0.02 * (k + 1)) > 0.0005:
                fail(f"cpu {cpu}: interval {k} ends at {t} s of machine time, want {0.02 * (k + 1)}")
        got = sum(int(r[2]) for r in mine)
        want = truth(rep, [("imc", 0)], sock)
        # perf prints no partial interval after the last one: what the
        # channel counts between 0.1 s and perf's closing read is the
        # truth's alone (at most a CAS a dclk of 800 MHz), and the intervals
        # add up to the value of a read the driver made
        c = [c for c in rep["counters"] if c["box"] == "imc" and c["instance"] == 0 and c["socket"] == sock]
        after = (c[0]["last_ns"] - 100e6) * 0.8 if c else 0
        if not c or got not in c[0]["linux_reads"] or not 0 <= want - got <= after:
            fail(f"cpu {cpu}: the intervals add up to {got}, ground truth {want} at {c[0]['last_ns'] if c else '?'} ns "
                 f"(reads {c[0]['linux_reads'] if c else '?'})")


def perf_refuses_skl():
    """What the driver refuses fails in perf as on a real part: perf asks,
    the driver answers EINVAL (the client CBos' one fixed counter is the
    first box's), perf says <not supported> and goes on."""
    need("perf", "linux-perf")
    out, err, rep = run("skl", ["perf", "stat", "-vv", "-a", "-x;", "-e", "uncore_cbox_1/clockticks/,uncore_arb/event=0x80,umask=0x01/",
                                "--", "sleep", "0.01"])
    text = err + out
    if not re.search(r"sys_perf_event_open failed, error -22", text):
        fail(f"perf was not refused with EINVAL:\n{text[-3000:]}")
    if not re.search(r"<not supported>;;uncore_cbox_1/clockticks/", text):
        fail(f"perf did not report the event as not supported:\n{text[-3000:]}")
    arb = [ln for ln in text.splitlines() if re.match(r"^\d+;;uncore_arb/event=0x80,umask=0x01/", ln)]
    if len(arb) != 1 or int(arb[0].split(";")[0]) != truth(rep, [("arb", 0)], 0):
        fail(f"the other event was not counted as the truth says: {arb}")


def perf_record_refused_snbep():
    """Sampling: Linux's uncore driver refuses it (uncore_pmu_event_init:
    EINVAL, as on the part); the machine's core PMU has no overflow
    interrupt and refuses with EOPNOTSUPP, which perf explains.  perf
    record fails at once and says why, writing no data."""
    need("perf", "linux-perf")
    data = os.path.join(tools_test.WORK, "perf.data")
    for ev, why in (("uncore_imc_0/cas_count_read/", r"returned with 22 \(Invalid argument\) for event \(uncore_imc_0/cas_count_read/\)"),
                    ("cycles", r"cycles: PMU Hardware doesn't support sampling/overflow-interrupts")):
        if os.path.exists(data):
            os.unlink(data)
        out, err, rep = run("snbep", ["perf", "record", "-o", data, "-a", "-e", ev, "--", "sleep", "0.01"], expect_rc=255)
        if not re.search(why, err + out):
            fail(f"perf record -e {ev}: not refused as expected:\n{(err + out)[-1500:]}")
        if rep:
            no_undefined_but_findings("snbep", rep)


# perf's metrics (perf list --details metric) that read the uncore, each
# against the truth of the counters the driver programmed for it.  The
# expected value is computed as perf 6.1 computes it
# (tools/perf/util/stat-shadow.c): an event's count is saved scaled by its
# .scale into a u64, so truncated, once for each of the PMUs perf merges
# under one name (uncore_imc_0..N), and unscaled again for the expression;
# duration_time is perf's own measure of the run, which it prints.  On the
# E5-2600 that truncation is 0.2% of DRAM_BW_Use (docs/tools.md, Findings).
def metric_rows(out):
    """{metric name: value} and {event: count} of perf stat -x';' output"""
    metrics, counts = {}, {}
    for line in out.splitlines():
        f = line.strip().split(";")
        if len(f) < 6:
            continue
        if f[-1] and f[-2]:
            metrics[f[-1]] = float(f[-2])
        if f[0] and f[2]:
            counts[f[2]] = float(f[0])
    return metrics, counts


def counted(c, match):
    """what counter c counted while the driver had it programmed with a
    control value that match(value) accepts, None if never: from the
    report's linux_controls, each entry from the total at its enabling
    write to the total at the driver's last read before the next"""
    if c.get("linux_controls_more"):
        fail(f"{c['register']} on socket {c['socket']}: the report lost some of its history")
    n = None
    for sg in c.get("linux_controls", []):
        if match(int(sg["control"], 16)):
            n = (n or 0) + (sg["read"] - sg["total"] if "read" in sg else 0)
    return n


def by_code(rep, box, code, inst=None):
    """{(instance, socket): count} of the event event|umask<<8 == code on
    the counters of a box type (the driver moves perf's events among a
    box's counters as they come and go)"""
    got = {}
    for c in rep["counters"]:
        if c["box"] != box or (inst is not None and c["instance"] != inst):
            continue
        n = counted(c, lambda v: v & 0xFFFF == code)
        if n is not None:
            got[(c["instance"], c["socket"])] = got.get((c["instance"], c["socket"]), 0) + n
    if not got:
        fail(f"no {box} counter was programmed with event 0x{code & 0xFF:x}, umask 0x{code >> 8:x}")
    return got


def perf_scaled_sum(per_box, scale):
    """what perf 6.1's metric uses for an event merged over PMUs: each
    PMU's count (summed over sockets) * scale, truncated, / scale"""
    pmus = {}
    for (inst, _), v in per_box.items():
        pmus[inst] = pmus.get(inst, 0) + v
    return sum(int(v * scale) / scale for v in pmus.values())


def check_metric(metrics, name, want):
    if name not in metrics:
        fail(f"perf printed no {name}: {metrics}")
    elif abs(metrics[name] - want) > 0.005 + 1e-9 * abs(want):
        fail(f"{name}: perf printed {metrics[name]}, the truth makes {want:.4f}")
    elif want == 0:
        fail(f"{name}: the workload moved nothing it measures (a weak check)")


def perf_metrics_skl():
    """DRAM_BW_Use = 64 * (ARB TRK_REQUESTS.ALL + COH_TRK_REQUESTS.ALL) /
    1e6 / duration_time / 1000, and MEM_Request_Latency = TRK_OCCUPANCY.ALL
    / TRK_REQUESTS.ALL; and the first agrees with what the IMC's counters
    say was moved (docs/platform-skl.md D17)"""
    need("perf", "linux-perf")
    out, err, rep = run("skl", ["perf", "stat", "-a", "-x;", "-M", "DRAM_BW_Use", "-e",
                                "uncore_imc/data_reads/,uncore_imc/data_writes/", "--", "sleep", "0.05"])
    metrics, counts = metric_rows(err + out)
    dur = counts.get("duration_time", 0) / 1e9
    req = sum(by_code(rep, "arb", 0x181).values()) + sum(by_code(rep, "arb", 0x184).values())
    check_metric(metrics, "DRAM_BW_Use", 64 * req / 1e6 / dur / 1000)
    imc = truth(rep, ("register", "DRAM_DATA_READS"), 0) + truth(rep, ("register", "DRAM_DATA_WRITES"), 0)
    if abs(req - imc) > 0.02 * imc:
        fail(f"the ARB's trackers took {req} requests to memory, the IMC moved {imc} lines")
    no_undefined_but_findings("skl", rep)
    out, err, rep = run("skl", ["perf", "stat", "-a", "-x;", "-M", "MEM_Request_Latency", "--", "sleep", "0.05"])
    metrics, _ = metric_rows(err + out)
    check_metric(metrics, "MEM_Request_Latency",
                 sum(by_code(rep, "arb", 0x180).values()) / sum(by_code(rep, "arb", 0x181).values()))
    no_undefined_but_findings("skl", rep)


def xeon_metrics(plat):
    """DRAM_BW_Use = 64 * (CAS_COUNT.RD + CAS_COUNT.WR over every channel)
    / 1e9 / duration_time; Socket_CLKS = CBo 0's clockticks summed over the
    sockets; UNCORE_FREQ = Socket_CLKS / #num_dies / duration_time / 1e9"""
    need("perf", "linux-perf")
    out, err, rep = run(plat, ["perf", "stat", "-a", "-x;", "-M", "DRAM_BW_Use,Socket_CLKS,UNCORE_FREQ",
                               "--", "sleep", "0.05"])
    metrics, counts = metric_rows(err + out)
    dur = counts.get("duration_time", 0) / 1e9
    cas = perf_scaled_sum(by_code(rep, "imc", 0x304), MIB) + perf_scaled_sum(by_code(rep, "imc", 0xC04), MIB)
    check_metric(metrics, "DRAM_BW_Use", 64 * cas / 1e9 / dur)
    clks = by_code(rep, "cbo", 0x0, inst=0)
    if sorted(clks) != [(0, s) for s in range(rep["sockets"])]:
        fail(f"CBo 0's clockticks were not counted on every socket: {sorted(clks)}")
    check_metric(metrics, "Socket_CLKS", sum(clks.values()))
    check_metric(metrics, "UNCORE_FREQ", sum(clks.values()) / rep["sockets"] / dur / 1e9)
    no_undefined_but_findings(plat, rep)


def perf_metrics_snbep():
    xeon_metrics("snbep")


def perf_metrics_ivt():
    xeon_metrics("ivt")


# Every uncore event perf 6.1 has for the part (perf list: the unc_* names
# from Intel's event files), through Linux's driver, against the truth.
# Events go in batches of up to four per PMU type with distinct encodings;
# where the driver's constraints make them share counters, they multiplex
# and perf's raw counts (--no-scale) are what each counted while on a
# counter.  Each count per socket must equal what the counters of that
# box type counted while programmed with the event's encoding (the
# report's linux_controls; the box's fixed counter for event 0xff), and
# nothing may be programmed that the manuals call undefined.
# Each box type's general counters, as the manuals give them (SKL Table
# 2-1: two a CBo and two in the ARB; SNB-EP/IVT: four, three in R3QPI,
# two in the UBox): a batch's events of a type, so that most fit at once
COUNTERS = {"skl": {"uncore_cbox": 2, "uncore_arb": 2},
            "snbep": {"uncore_r3qpi": 3, "uncore_ubox": 2},
            "ivt": {"uncore_r3qpi": 3, "uncore_ubox": 2}}
BOX_OF_PMU = {"uncore_cbox": "cbo", "uncore_arb": "arb", "uncore_imc": "imc", "uncore_ha": "ha",
              "uncore_qpi": "qpi", "uncore_pcu": "pcu", "uncore_ubox": "ubox", "uncore_r2pcie": "r2pcie",
              "uncore_r3qpi": "r3qpi", "uncore_irp": "irp"}


# What programming perf's events makes that the manuals call undefined:
# each is written up in docs/linux-driver.md ("perf's events on the
# model"), by its label; the sweep must meet every one of them (a finding
# that no longer happens is a document to update) and nothing else.
REG = r"<- 0x[0-9a-f]+: "
SWEEP_FINDINGS = {
    "skl": [],
    "snbep": [
        ("E1", r"C\d+_MSR_PMON_CTL\d " + REG + r"event code 0x(03|14) is not in the cbo event table"),
        ("E1", r"HA_PCI_PMON_CTL\d " + REG + r"event code 0x(14|16|19|27|28|29|2f|30|31|33|34|35|3e|3f|40) is not in the ha event table"),
        ("E1", r"MC_CH\d_PCI_PMON_CTL\d " + REG + r"event code 0x00 is not in the imc event table"),
        ("E1", r"Q_P\d_PCI_PMON_CTL\d " + REG + r"event code 0x(02|03|35) is not in the qpi event table"),
        ("E1", r"R2_PCI_PMON_CTL\d " + REG + r"event code 0x(26|32|33|34) is not in the r2pcie event table"),
        ("E1", r"U_MSR_PMON_CTL\d " + REG + r"event code 0x(41|43) is not in the ubox event table"),
        ("E2", r"PCU_MSR_PMON_CTL\d <- 0x400080: EV_SEL bit 7 asks for an occupancy sub-counter but OCC_SEL is 0"),
        ("E3", r"R2_PCI_PMON_CTL1 " + REG + r"event 0x(23|25) \(\w+\) is not allowed on counter 1: valid counters mask 0x1"),
    ],
    "ivt": [
        ("E2", r"PCU_MSR_PMON_CTL\d <- 0x400080: EV_SEL bit 7 asks for an occupancy sub-counter but OCC_SEL is 0"),
        ("E3", r"C\d+_MSR_PMON_CTL[23] " + REG + r"event 0x(03|14|3c) \(\w+\) is not allowed on counter [23]: valid counters mask 0x3"),
        ("E3", r"R2_PCI_PMON_CTL[123] " + REG + r"event 0x(13|23|25|28) \(\w+\) is not allowed on counter [123]: valid counters mask 0x[13]"),
    ],
}


def perf_json_events(plat):
    """[(name, PMU type, config)] of perf list's uncore events, the config
    encoded with the driver's own format files; and the names of those
    whose encoding does not fit them"""
    script = ("perf list --details 2>/dev/null; "
              "for f in /sys/bus/event_source/devices/*/format/*; do echo \"FMT $f $(cat $f)\"; done")
    out, _, _ = run(plat, ["sh", "-c", script])
    fmt, events, name = {}, [], None
    for line in out.splitlines():
        m = re.match(r"^FMT /sys/bus/event_source/devices/([a-z0-9_]+?)(_\d+)?/format/(\w+) (config\d?):([\d,-]+)$", line)
        if m:
            bits = []
            for r in m.group(5).split(","):
                lo, _, hi = r.partition("-")
                bits += range(int(lo), int(hi or lo) + 1)
            fmt[(m.group(1), m.group(3))] = (m.group(4), bits)
            continue
        m = re.match(r"^  (unc_[a-z0-9_.]+)\s*$", line)
        if m:
            name = m.group(1)
            continue
        m = re.match(r"^\s+(uncore_[a-z0-9]+?)(_\d+)?/(.*)/\s*$", line)
        if m and name:
            events.append((name, m.group(1), m.group(3)))
            name = None
    got, wide = [], []
    for name, pmu, terms in events:
        config = 0
        for t in terms.split(","):
            k, _, v = t.partition("=")
            if (pmu, k) not in fmt:
                fail(f"{name}: perf encodes it with {k}, which {pmu}'s format files lack")
                break
            reg, bits = fmt[(pmu, k)]
            if reg != "config":
                fail(f"{name}: a filter term ({k}) this check cannot place")
                break
            val = int(v, 0) if v else 1
            for i, b in enumerate(bits):
                config |= ((val >> i) & 1) << b
            if val >> len(bits):
                wide.append(name)
                break
        else:
            got.append((name, pmu, config))
    if len(got) < 10:
        fail(f"perf list gave {len(got)} uncore events on {plat}")
    return got, wide


def event_truth(rep, box, config):
    """{socket: count} of an encoding on a box type's counters; event 0xff
    is the box's fixed counter (no control of its own): what it counted
    between the driver's first and last reads"""
    got = {}
    for c in rep["counters"]:
        if c["box"] != box or "linux_reads" not in c:
            continue
        if "linux_controls" not in c:
            if config & 0xFF != 0xFF:
                continue
            reads = c["linux_reads"]
            if len(reads) != c["reads"]:
                fail(f"{c['register']} on socket {c['socket']}: the report lost some of its reads")
            n = reads[-1] - reads[0]
        else:
            n = counted(c, lambda v: v & ~(1 << 22) & 0xFFFFFFFF == config & 0xFFFFFFFF)
        if n is not None:
            got[c["socket"]] = got.get(c["socket"], 0) + n
    return got


def sweep(plat, batches, wide=()):
    """Run the batches on one machine, one perf stat after another, and
    check each count against the truth; returns the report and the events
    perf said were never counted (multiplexed out all the time, which the
    kernel's rotation may do to a group that rarely comes first), each
    checked to have been on no counter indeed"""
    script = ["for e in " + " ".join(wide) + "; do echo \"== wide $e\"; perf stat -a -e \"$e\" -- true 2>&1; done"] if wide else []
    for k, batch in enumerate(batches):
        script.append(f"echo '== batch {k}'; perf stat -a -A -x';' --no-scale -e {','.join(n for _, n, _ in batch)} "
                      "-- sleep 0.05 2>&1")
    out, err, rep = run(plat, ["sh", "-c", "\n".join(script) + "\nexit 0"])
    said = {}
    for part in out.split("== ")[1:]:
        head, _, text = part.partition("\n")
        said[head] = text
    for name in wide:
        if "value too big for format" not in said.get(f"wide {name}", ""):
            fail(f"{name}: its encoding does not fit the driver's format, yet perf did not refuse it:\n"
                 f"{said.get(f'wide {name}', '(no output)')[:500]}")
    per_socket = rep["cpus"] // rep["sockets"]
    missed, counts = [], []
    for k, batch in enumerate(batches):
        rows = perf_lines(said.get(f"batch {k}", ""))
        for pmu, name, config in batch:
            mine = [r for r in rows if r[3] == name]
            want = event_truth(rep, BOX_OF_PMU[pmu], config)
            if len(mine) != rep["sockets"]:
                fail(f"{name}: perf printed {len(mine)} lines, want one per socket ({rep['sockets']})\n"
                     f"{said.get(f'batch {k}', '')[-1500:]}")
                continue
            for _, cpu, val, _, _ in mine:
                sock = cpu // per_socket
                if val is None:
                    if want.get(sock):
                        fail(f"{name} ({pmu}, config 0x{config:x}) on socket {sock}: perf says not counted, "
                             f"its counters counted {want[sock]}")
                    if (pmu, name, config) not in missed:
                        missed.append((pmu, name, config))
                elif sock not in want:
                    fail(f"{name} ({pmu}, config 0x{config:x}): no counter on socket {sock} was programmed with it")
                elif val != want[sock]:
                    fail(f"{name} ({pmu}, config 0x{config:x}) on socket {sock}: perf printed {val:.0f}, "
                         f"ground truth {want[sock]}")
                else:
                    counts.append(val)
    return rep, missed, counts


def perf_events(plat):
    """Batches of up to as many events of a PMU type as its boxes have
    counters, all on one machine; each encoding is in one batch only
    (perf's names that encode alike, as the PCU's three cores_c*
    occupancies, are checked once), so what each counter counted under it
    is that event's.  Events that multiplexing left out go again on a
    second machine, one of a PMU type at a time."""
    need("perf", "linux-perf")
    queue, names = {}, {}
    events, wide = perf_json_events(plat)
    for name, pmu, config in events:
        if (pmu, config) in names:
            names[(pmu, config)].append(name)
            continue
        names[(pmu, config)] = [name]
        queue.setdefault(pmu, []).append((name, config))

    def batch_up(queue, size):
        batches = []
        while any(queue.values()):
            batch = []
            for pmu, evs in queue.items():
                take = evs[:size(pmu)]
                del evs[:len(take)]
                batch += [(pmu, *ev) for ev in take]
            batches.append(batch)
        return batches

    batches = batch_up(queue, lambda pmu: COUNTERS[plat].get(pmu, 4))
    # perf's encoding of Intel's ExtSel as bit 8 of event= does not fit
    # the driver's 8-bit event field of the PCU and UBox (docs/tools.md,
    # Findings): perf refuses them when it parses them, as on the part
    rep, missed, counts = sweep(plat, batches, wide)
    reports = [rep]
    if missed:
        again = {}
        for pmu, name, config in missed:
            again.setdefault(pmu, []).append((name, config))
        rep2, still, counts2 = sweep(plat, batch_up(again, lambda pmu: 1))
        reports.append(rep2)
        counts += counts2
        for pmu, name, config in still:
            fail(f"{name} ({pmu}, config 0x{config:x}): not counted even alone")
    met = set()
    for rep in reports:
        for line in rep["undefined_programming"]:
            if not line.startswith("Linux's uncore driver: "):
                fail(f"undefined programming not by Linux's driver: {line}")
            elif re.search(FINDINGS[plat], line):
                continue
            hit = [k for k, (_, rx) in enumerate(SWEEP_FINDINGS[plat]) if re.search(rx, line)]
            if not hit:
                fail(f"undefined programming that no finding names: {line}")
            met.update(hit)
        for line in rep["linux_warnings"]:
            fail(f"the kernel logged: {line}")
    for k, (label, rx) in enumerate(SWEEP_FINDINGS[plat]):
        if k not in met:
            fail(f"finding {label} ({rx}) did not happen: docs/linux-driver.md is out of date")
    print(f"{len(events)} of perf's events for {plat}: {len(names)} encodings in {len(batches)} perf runs, "
          f"{len(missed)} multiplexed out and run again alone; {sum(bool(c) for c in counts)} of {len(counts)} "
          f"counts (encoding, socket) nonzero; {len(wide)} refused by perf: {' '.join(wide)}")


def perf_skl_cbo_counters():
    """Linux 6.1 gives the client CBo four counters (skl_uncore_cbox
    .num_counters = 4); SKL Table 2-1 has two, MSR_UNC_CBO_n_PERFEVTSEL0/1
    and PERFCTR0/1.  Four events on one CBo: the first two count the
    truth; the driver puts the others on counters 2 and 3, whose MSRs
    (0x702/0x703, 0x708/0x709) the part does not have, so every access to
    them faults (the kernel logs an unchecked MSR access error, as on a
    #GP) and they count 0 while perf says they ran all the time."""
    need("perf", "linux-perf")
    evs = ["uncore_cbox_0/event=0x34,umask=0x86/", "uncore_cbox_0/event=0x34,umask=0x88/",
           "uncore_cbox_0/event=0x34,umask=0x81/", "uncore_cbox_0/event=0x34,umask=0x8f/"]
    out, err, rep = run("skl", ["perf", "stat", "-a", "-A", "-x;", "-e", ",".join(evs), "--", "sleep", "0.02"])
    rows = {r[3]: r for r in perf_lines(err + out)}
    for k, e in enumerate(evs):
        if e not in rows:
            fail(f"{e}: perf printed no line")
            continue
        _, _, val, _, pct = rows[e]
        want = event_truth(rep, "cbo", 0x34 | int(e.split("umask=")[1].rstrip("/"), 16) << 8).get(0) if k < 2 else 0
        if val != want or pct != "100.00":
            fail(f"{e}: perf printed {val} ({pct}% running), want {want} (100%)")
    faults = {m for line in rep["linux_warnings"]
              for m in re.findall(r"unchecked MSR access error: (?:WRMSR to|RDMSR from) (0x[0-9a-f]+)", line)}
    if faults != {"0x702", "0x703", "0x708", "0x709"}:
        fail(f"the MSR accesses that faulted: {sorted(faults)}, want counters 2 and 3 of CBo 0's\n{rep['linux_warnings']}")
    no_undefined_but_findings("skl", rep, r"unchecked MSR access error: (WRMSR to|RDMSR from) 0x70[2389] ")


def perf_events_skl():
    perf_events("skl")


def perf_events_snbep():
    perf_events("snbep")


def perf_events_ivt():
    perf_events("ivt")


# PCM in its default mode (no PCM_NO_PERF): its core counters and the
# uncore through perf_event_open, each count against the truth as in the
# PCM_NO_PERF cases of tools_test.py
def pcm_skl():
    tools_test.pcm_skl(env={})


def pcm_memory_snbep():
    tools_test.pcm_memory_snbep(env={})


def pcm_memory_ivt():
    tools_test.pcm_memory_ivt(env={})


# PCM with PCM_USE_UNCORE_PERF=1: pcm-memory programs the IMC through
# perf_event_open, so Linux's driver programs and reads the counters.  Its
# MB/s for a channel is what CAS_COUNT.RD (0x0304) or .WR (0x0C04) counted
# between two of its reads, over its one-second interval: it must be what
# the counter counted between two of the driver's reads of it while it had
# that event (the report's linux_reads within the linux_controls entry),
# times 64 bytes over 1 s, to PCM's two decimals and the microseconds its
# ~100 reads a sample take (as tools.pcm_memory_*).
def pcm_memory_perf(plat, channels):
    need("pcm-memory", "pcm")
    csv = os.path.join(tools_test.WORK, "pcm.csv")
    _, _, rep = run(plat, ["pcm-memory", "1", "-i=1", f"-csv={csv}"], env={"PCM_USE_UNCORE_PERF": "1"})
    col = tools_test.pcm_csv(csv)
    for sock in range(rep["sockets"]):
        for ch in range(channels):
            for kind, code in (("Read", 0x304), ("Write", 0xC04)):
                got = col.get((f"SKT{sock}", f"Ch{ch}{kind}"))
                spans = set()
                for c in rep["counters"]:
                    if c["box"] != "imc" or c["instance"] != ch or c["socket"] != sock:
                        continue
                    reads = c.get("linux_reads", [])
                    if len(reads) != c["reads"]:
                        fail(f"{c['register']} on socket {sock}: the report lost some of its reads")
                    for sg in c.get("linux_controls", []):
                        if int(sg["control"], 16) & 0xFFFF != code or "read" not in sg:
                            continue
                        inside = [r for r in reads if sg["total"] <= r <= sg["read"]]
                        spans |= {b - a for a in inside for b in inside if b > a}
                if got is None or not spans:
                    fail(f"SKT{sock} Ch{ch}{kind}: PCM printed {got}, the driver counted it on no counter")
                    continue
                best = min(spans, key=lambda n: abs(n * 64 / 1e6 - got))
                if abs(best * 64 / 1e6 - got) > 1e-3 * got + 0.005:
                    fail(f"SKT{sock} Ch{ch}{kind}: PCM printed {got} MB/s; the nearest span between two of the "
                         f"driver's reads is {best} x 64 B = {best * 64 / 1e6:.2f} MB a second")
                if got == 0:
                    fail(f"SKT{sock} Ch{ch}{kind}: nothing moved (a weak check)")
    # PCM counts DRAM clocks as Intel's list has them, event 0x00 on a
    # general counter, which the E5-2600 guide's IMC table lacks (E1)
    no_undefined_but_findings(plat, rep, also=r"MC_CH\d_PCI_PMON_CTL\d <- 0x400000: event code 0x00 is not in the imc event table")


def pcm_memory_perf_snbep():
    pcm_memory_perf("snbep", 4)


def pcm_memory_perf_ivt():
    pcm_memory_perf("ivt", 8)


# PAPI's perf_event_uncore component (libpfm4's names) counting an uncore
# event with papi_command_line.  PAPI's value is the count between its own
# two reads, which the perf core turns into the driver's reads of the
# counter (and an event that is off is not read): it must be what the model
# counted between two of the driver's reads of it (the report's
# linux_reads: the model's total at each).  One event a run, on an MSR box.
def papi(plat, event, box, inst, socket):
    need("papi_command_line", "papi-tools")
    out, err, rep = run(plat, ["papi_command_line", event])
    m = re.search(re.escape(event) + r" :\s+(\d+)", out)
    if not m:
        fail(f"papi_command_line printed no count for {event}:\n{out[-2000:]}\n{err[-2000:]}")
        return
    read = [c for c in rep["counters"] if c["box"] == box and c["instance"] == inst and c["socket"] == socket]
    if len(read) != 1 or "linux_reads" not in read[0]:
        fail(f"{box} {inst} on socket {socket}: the driver read {len(read)} of its counters, want 1")
        return
    tot = read[0]["linux_reads"]
    got = int(m.group(1))
    spans = {tot[j] - tot[i] for i in range(len(tot)) for j in range(i + 1, len(tot))}
    if got == 0 or got not in spans:
        fail(f"{event}: PAPI printed {got}, which is not what the counter counted between two of the "
             f"driver's reads of it (totals {tot})")
    no_undefined_but_findings(plat, rep)


def papi_snbep_cbo():
    papi("snbep", "snbep_unc_cbo1::UNC_C_CLOCKTICKS:cpu=0", "cbo", 1, 0)


def papi_snbep_pcu():
    # the second socket's PCU, through its PMU's cpu 8
    papi("snbep", "snbep_unc_pcu::UNC_P_CLOCKTICKS:cpu=8", "pcu", 0, 1)


def papi_ivt_cbo():
    papi("ivt", "ivbep_unc_cbo1::UNC_C_CLOCKTICKS:cpu=0", "cbo", 1, 0)


def papi_ivt_pcu():
    papi("ivt", "ivbep_unc_pcu::UNC_P_CLOCKTICKS:cpu=12", "pcu", 0, 1)


# ---- per-task events (perf stat without -a) ----

# A workload whose running time on the machine is known from its own clock:
# it reads CLOCK_MONOTONIC (the machine's) until d ns have passed and prints
# its first and last reading.  Between them it neither sleeps nor waits, so
# it runs all of [a, b]; a program's own instructions take no machine time
# (docs/tools.md, "One clock"), its clock reads 25 ns each.
# A task that runs d ns of machine time: each MSR read (any cpu's: the task
# stays on its own) costs the machine a microsecond (docs/tools.md), forty
# times what a clock read does, so the spin takes that many fewer requests
SPIN = ("import os, sys, time\n"
        "d = int(sys.argv[1])\n"
        "fd = os.open('/dev/cpu/0/msr', os.O_RDONLY)\n"
        "a = b = time.monotonic_ns()\n"
        "while b - a < d:\n"
        "    os.pread(fd, 8, 0x10)\n"
        "    b = time.monotonic_ns()\n"
        "print('SPIN', a, b, file=sys.stderr)\n")
# the E5-2680's nominal frequency (its brand string's 2.70GHz), at which the
# machine's fixed counters count cycles, reference cycles and instructions
# (IPC 1) while enabled (docs/tools.md, "MSRs")
SNBEP_HZ = 2.7e9


def spin_cmd(ns):
    path = os.path.join(tools_test.WORK, "spin.py")
    with open(path, "w") as f:
        f.write(SPIN)
    # the interpreter itself: a launcher script (pyenv's shim) would run
    # shells and forks of its own inside the measured tree
    return f"{sys.executable} {path} {ns}"


def spins(err):
    return [(int(a), int(b)) for a, b in re.findall(r"^SPIN (\d+) (\d+)$", err, re.M)]


def csv_rows(err):
    """{event: (value or None, running ns, percent)} of perf stat -x';' without -A"""
    rows = {}
    for line in err.splitlines():
        f = line.split(";")
        if len(f) >= 5 and re.match(r"^[a-z]", f[2]):
            val = None if f[0].startswith("<") else float(f[0])
            rows[f[2]] = (val, int(f[3]) if f[3].isdigit() else None, f[4], f[0])
    return rows


def perf_task_snbep():
    """perf stat -- command: the default events open on the command's task
    and count; task-clock is the machine time the task tree ran (the spin's
    own interval at least, the run's machine time without the sleep at
    most), cycles and instructions what the fixed counters counted in that
    time at the machine's rate; more events than counters multiplex within
    the task's time; an uncore event per task is refused with EINVAL as
    Linux's driver refuses it."""
    need("perf", "linux-perf")
    # perf's default events on a command that runs 2 ms of machine time
    out, err, rep = run("snbep", ["perf", "stat", "-x;", "--", "sh", "-c", spin_cmd(2000000)])
    rows = csv_rows(err)
    for e in ("task-clock", "context-switches", "cpu-migrations", "page-faults", "cycles", "instructions",
              "branches", "branch-misses"):
        if e not in rows or rows[e][0] is None:
            fail(f"{e}: perf printed {rows.get(e, ('nothing',) * 4)[3]}, want a count\n{err[-3000:]}")
    sleep = 20000000
    out, err, rep = run("snbep", ["perf", "stat", "-x;", "-e", "task-clock,cycles,instructions,ref-cycles", "--",
                                  "sh", "-c", f"{spin_cmd(5000000)}; sleep {sleep / 1e9}"])
    rows = csv_rows(err)
    sp = spins(err)
    if len(sp) != 1 or any(e not in rows or rows[e][0] is None for e in ("task-clock", "cycles", "instructions")):
        fail(f"perf or the workload printed nothing to compare:\n{err[-3000:]}")
        return
    a, b = sp[0]
    ran = rows["task-clock"][1]
    lo, hi = b - a, rep["machine_ns"] - sleep
    if not lo <= ran <= hi:
        fail(f"task-clock ran {ran} ns: want at least the spin's {lo} ns and at most the run's machine time "
             f"without the sleep, {hi} ns")
    if abs(rows["task-clock"][0] - ran / 1e6) > 0.005 + 1e-9:
        fail(f"task-clock printed {rows['task-clock'][0]} msec, its running time {ran} ns")
    for e in ("task-clock", "cycles", "instructions", "ref-cycles"):
        if rows[e][1] != ran or rows[e][2] != "100.00":
            fail(f"{e}: running {rows[e][1]} ns ({rows[e][2]}%), want {ran} ns, all of it: the task's events "
                 f"go on and off its cpu together, nothing multiplexed")
    # each time the task went on its cpu the counter's and the clock's
    # integer rounding may lose a cycle or so; far fewer than 100 times here
    for e in ("cycles", "instructions", "ref-cycles"):
        if abs(rows[e][0] - SNBEP_HZ * ran / 1e9) > 300:
            fail(f"{e}: {rows[e][0]:.0f}, want {SNBEP_HZ / 1e9} per ns of the {ran} ns the task ran "
                 f"({SNBEP_HZ * ran / 1e9:.0f})")
    # ten events for the general counters, of which a core has eight (CPUID
    # leaf 0xA of the E5-2680 with HT off): the task's context multiplexes
    # them every 4 ms while the task runs, eight on at every instant
    gp = [f"r0{i:x}c4" for i in range(1, 11)]
    out, err, rep = run("snbep", ["perf", "stat", "-x;", "-e", ",".join(gp + ["task-clock"]), "--",
                                  "sh", "-c", spin_cmd(12000000)])
    rows = csv_rows(err)
    if any(e not in rows or rows[e][1] is None for e in gp + ["task-clock"]):
        fail(f"perf printed nothing to compare:\n{err[-3000:]}")
    else:
        ran = rows["task-clock"][1]
        total = sum(rows[e][1] for e in gp)
        if total != 8 * ran:
            fail(f"the ten events ran {total} ns in all, want the 8 counters busy all the {ran} ns the task ran")
        for e in gp:
            # enabled all the time the task ran: perf's percentage is 100 x
            # running / enabled in integers
            if float(rows[e][2]) != 100 * rows[e][1] // ran:
                fail(f"{e}: ran {rows[e][1]} ns of {ran}, perf says {rows[e][2]}%: enabled is not the task's time")
        if not any(rows[e][1] < ran for e in gp):
            fail("no event was multiplexed")
    # an uncore event for a task: Linux's driver has no task context
    out, err, rep = run("snbep", ["perf", "stat", "-vv", "-x;", "-e", "uncore_imc_0/event=0x4,umask=0x3/,task-clock",
                                  "--", "sleep", "0.01"])
    if not re.search(r"sys_perf_event_open: pid [1-9]\d*  cpu -1 .*\nsys_perf_event_open failed, error -22", err):
        fail(f"the uncore event was not refused for the task with EINVAL:\n{err[-3000:]}")
    if not re.search(r"^<not supported>;;uncore_imc_0/event=0x4,umask=0x3/;", err, re.M):
        fail(f"perf did not report the uncore event per task as not supported:\n{err[-3000:]}")


def perf_task_wall_snbep():
    """With --clock wall the machine's time is the real time, the host's
    sleeps and waits are told to the server, and perf stat -- sleep counts
    the real time sleep ran (its start and exit) without the 50 ms it slept."""
    need("perf", "linux-perf")
    sleep = 50000000
    out, err, rep = run("snbep", ["perf", "stat", "-x;", "-e", "task-clock,cycles,instructions,context-switches", "--",
                                  "sleep", str(sleep / 1e9)], extra=("--clock", "wall"))
    rows = csv_rows(err)
    if any(e not in rows or rows[e][0] is None for e in ("task-clock", "cycles", "instructions", "context-switches")):
        fail(f"perf printed nothing to compare:\n{err[-3000:]}")
        return
    ran = rows["task-clock"][1]
    if not 0 < ran <= rep["machine_ns"] - sleep:
        fail(f"task-clock ran {ran} ns: want more than 0 and at most the run's {rep['machine_ns']} ns less the "
             f"{sleep} ns sleep")
    for e in ("cycles", "instructions"):
        if rows[e][1] != ran or abs(rows[e][0] - SNBEP_HZ * ran / 1e9) > 300:
            fail(f"{e}: {rows[e][0]:.0f} in {rows[e][1]} ns, want {SNBEP_HZ * ran / 1e9:.0f} in {ran} ns")
    if rows["context-switches"][0] < 1:
        fail("context-switches: 0, want the sleep's at least")


# perf_event_open(2) called by a program itself through ctypes (glibc's
# syscall()), for the pid argument's meanings
PID = ("import ctypes, os, struct, time\n"
       "libc = ctypes.CDLL(None, use_errno=True)\n"
       "libc.syscall.restype = ctypes.c_long\n"
       "def open_(typ, config, pid, cpu=-1, flags=0):\n"
       "    # type, size, config, sample_period, sample_type, read_format\n"
       "    # (TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING), flags\n"
       "    a = ctypes.create_string_buffer(struct.pack('=IIQQQQQ', typ, 128, config, 0, 0, 3, flags) + bytes(80), 128)\n"
       "    fd = libc.syscall(ctypes.c_long(298), a, ctypes.c_int(pid), ctypes.c_int(cpu), ctypes.c_int(-1),\n"
       "                      ctypes.c_ulong(0))\n"
       "    return fd if fd >= 0 else -ctypes.get_errno()\n"
       "def read3(fd):\n"
       "    return struct.unpack('=QQQ', os.read(fd, 24))\n"
       "def spin(d):\n"
       "    a = b = time.monotonic_ns()\n"
       "    while b - a < d:\n"
       "        b = time.monotonic_ns()\n"
       "    return a, b\n"
       "t0 = time.monotonic_ns()\n"
       "fd = open_(1, 1, 0)\n"
       "a, b = spin(1000000)\n"
       "v = read3(fd)\n"
       "print('SELF', a, b, t0, time.monotonic_ns(), *v)\n"
       "print('INIT', open_(1, 1, 1))\n"
       "imc = int(open('/sys/bus/event_source/devices/uncore_imc_0/type').read())\n"
       "print('UNCORE', open_(imc, 0x304, 0), open_(imc, 0x304, -1, 0) > 0)\n"
       "t0 = time.monotonic_ns()\n"
       "pid = os.fork()\n"
       "if pid == 0:\n"
       "    time.sleep(0.01)\n"
       "    a, b = spin(2000000)\n"
       "    print('CHILD', a, b, flush=True)\n"
       "    os._exit(0)\n"
       "fd = open_(1, 1, pid)\n"
       "os.waitpid(pid, 0)\n"
       "print('AFTER', t0, time.monotonic_ns(), *read3(fd))\n"
       "import threading\n"
       "def opener():\n"
       "    # a thread's own event with inherit (flags bit 1), and a thread it creates\n"
       "    t0 = time.monotonic_ns()\n"
       "    fd = open_(1, 1, 0, flags=2)\n"
       "    got = []\n"
       "    t = threading.Thread(target=lambda: got.append(spin(2000000)))\n"
       "    t.start()\n"
       "    t.join()\n"
       "    v = read3(fd)\n"
       "    print('THREAD', *got[0], t0, time.monotonic_ns(), *v)\n"
       "t = threading.Thread(target=opener)\n"
       "t.start()\n"
       "t.join()\n")


def perf_pid_snbep():
    """perf_event_open's pid as perf_event_open(2) has it, from a program's
    own call: 0 is the caller (its task-clock covers its spin, within the
    time from before the open to after the read); a pid that is no process
    of the run is ESRCH; an uncore PMU for a task is EINVAL (cpu-wide it
    opens); a forked child's pid counts the child, which slept 10 ms, and
    the count is read after the child ended; a thread's own event with
    inherit counts the thread it creates (not its process's main thread's
    children)."""
    path = os.path.join(tools_test.WORK, "pid.py")
    with open(path, "w") as f:
        f.write(PID)
    out, err, rep = run("snbep", [sys.executable, path])
    got = {ln.split()[0]: [int(x) if x.lstrip("-").isdigit() else x for x in ln.split()[1:]] for ln in out.splitlines()}
    if set(got) != {"SELF", "INIT", "UNCORE", "CHILD", "AFTER", "THREAD"}:
        fail(f"the program printed:\n{out}\n{err[-2000:]}")
        return
    a, b, t0, t1, count, ena, run_ = got["SELF"]
    if not b - a <= count <= t1 - t0 or not count == ena == run_:
        fail(f"pid 0: task-clock {count} ns (enabled {ena}, running {run_}), want between the spin's {b - a} ns "
             f"and the {t1 - t0} ns from before the open to after the read, all of it running")
    if got["INIT"] != [-3]:
        fail(f"pid 1, not the run's: {got['INIT']}, want -ESRCH (-3)")
    if got["UNCORE"] != [-22, "True"]:
        fail(f"uncore_imc_0 for pid 0, then cpu-wide: {got['UNCORE']}, want -EINVAL (-22), then an event")
    a, b = got["CHILD"]
    t0, t1, count, ena, run_ = got["AFTER"]
    if not b - a <= count <= t1 - t0 - 10000000:
        fail(f"the child's task-clock: {count} ns, want between its spin's {b - a} ns and the {t1 - t0} ns from "
             f"before its fork to after its end less its 10 ms sleep")
    a, b, t0, t1, count, ena, run_ = got["THREAD"]
    if not b - a <= count <= t1 - t0:
        fail(f"a thread's inherited task-clock: {count} ns, want at least the {b - a} ns the thread it created "
             f"spun and at most the {t1 - t0} ns from before the open to after the read")


def perf_inherit_snbep():
    """Children are counted (inherit, perf's default): the shell's two
    spinning children add their counts to the event perf opened on the
    shell, read after they exited; with --no-inherit the shell alone, which
    runs no machine time of its own, counts nothing."""
    need("perf", "linux-perf")
    sleep = 20000000
    cmd = f"{spin_cmd(2000000)}; sleep {sleep / 1e9}; {spin_cmd(3000000)}"
    out, err, rep = run("snbep", ["perf", "stat", "-x;", "-e", "task-clock,context-switches,cycles", "--",
                                  "sh", "-c", cmd])
    rows = csv_rows(err)
    sp = spins(err)
    if len(sp) != 2 or any(e not in rows or rows[e][0] is None for e in ("task-clock", "context-switches", "cycles")):
        fail(f"perf or the workload printed nothing to compare:\n{err[-3000:]}")
        return
    ran = rows["task-clock"][1]
    lo, hi = sum(b - a for a, b in sp), rep["machine_ns"] - sleep
    if not lo <= ran <= hi:
        fail(f"task-clock ran {ran} ns: want at least the two children's {lo} ns and at most the run's "
             f"machine time without the sleep, {hi} ns")
    if abs(rows["cycles"][0] - SNBEP_HZ * ran / 1e9) > 300:
        fail(f"cycles: {rows['cycles'][0]:.0f}, want {SNBEP_HZ * ran / 1e9:.0f} ({ran} ns at 2.7 GHz)")
    # the sleeping child's sleep at least, and the shell's waits for each
    if rows["context-switches"][0] < 3:
        fail(f"context-switches: {rows['context-switches'][0]}, want the sleep's and the shell's three waits")
    out, err, rep = run("snbep", ["perf", "stat", "-x;", "-i", "-e", "task-clock", "--", "sh", "-c", cmd])
    rows = csv_rows(err)
    if "task-clock" not in rows or (rows["task-clock"][1] or 0) >= min(b - a for a, b in spins(err) or [(0, 1)]):
        fail(f"--no-inherit: the children were counted:\n{err[-3000:]}")


def pmus_are_the_machines():
    """Under uncore run the PMUs are the machine's: each one's /sys/devices/<pmu>
    and /sys/bus/event_source/devices/<pmu> agree, and none of the host
    kernel's PMUs (those of this host's /sys/devices with a type file) is
    found by its name unless the machine has one of that name."""
    host = sorted(d for d in os.listdir("/sys/devices") if os.path.exists(f"/sys/devices/{d}/type"))
    script = ("import os, sys\n"
              "m = sorted(os.listdir('/sys/bus/event_source/devices'))\n"
              "print('MACHINE', *m)\n"
              "for d in m:\n"
              "    a = open(f'/sys/devices/{d}/type').read()\n"
              "    b = open(f'/sys/bus/event_source/devices/{d}/type').read()\n"
              "    print('TYPE', d, a.strip(), b.strip())\n"
              "for d in sys.argv[1:]:\n"
              "    print('HOST', d, os.path.exists(f'/sys/devices/{d}/type'))\n")
    out, _, _ = run("ivt", ["python3", "-c", script, *host])
    machine = set()
    for line in out.splitlines():
        f = line.split()
        if f[0] == "MACHINE":
            machine = set(f[1:])
        elif f[0] == "TYPE" and f[2] != f[3]:
            fail(f"{f[1]}: /sys/devices says type {f[2]}, /sys/bus/event_source {f[3]}")
        elif f[0] == "HOST" and f[2] == "True" and f[1] not in machine:
            fail(f"the host's PMU {f[1]} shows through: /sys/devices/{f[1]}/type exists on the machine")
    if not {"cpu", "software", "uncore_imc_0", "uncore_cbox_11"} <= machine:
        fail(f"the machine's PMUs: {sorted(machine)}")


CASES = {f.__name__: f for f in (perf_task_snbep, perf_task_wall_snbep, perf_pid_snbep, perf_inherit_snbep, perf_record_refused_snbep, pcm_memory_perf_snbep, pcm_memory_perf_ivt, perf_skl_cbo_counters, perf_events_skl, perf_events_snbep, perf_events_ivt, perf_metrics_skl, perf_metrics_snbep, perf_metrics_ivt, pmus_are_the_machines, papi_snbep_cbo, papi_snbep_pcu, papi_ivt_cbo, papi_ivt_pcu, perf_stat_skl, perf_stat_snbep, perf_stat_ivt, perf_interval_snbep, perf_refuses_skl,
                                 pcm_skl, pcm_memory_snbep, pcm_memory_ivt)}

if __name__ == "__main__":
    main(CASES)
