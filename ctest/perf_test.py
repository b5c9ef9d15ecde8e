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

from ct_py import CASE, fail, finish, need
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


def no_undefined_but_findings(plat, rep):
    """perf and PAPI program nothing themselves: every record is Linux's
    driver's (the report says so) and one of its findings"""
    for line in rep["undefined_programming"]:
        if not line.startswith("Linux's uncore driver: "):
            fail(f"undefined programming not by Linux's driver: {line}")
        elif not re.search(FINDINGS[plat], line):
            fail(f"undefined programming that no finding names: {line}")


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
    the intervals add up to the truth of the run."""
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
        if got != want:
            fail(f"cpu {cpu}: the intervals add up to {got}, ground truth {want}")


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


def by_code(rep, box, code, inst=None):
    """{(instance, socket): count} of the event event|umask<<8 == code on
    the counters of a box type, between the driver's first and last reads
    of each: from the report's linux_controls, which say from which total
    of a counter on it counted which event (the driver moves perf's events
    among a box's counters as they come and go)"""
    got = {}
    for c in rep["counters"]:
        if c["box"] != box or (inst is not None and c["instance"] != inst) or "linux_controls" not in c:
            continue
        reads = c.get("linux_reads", [])
        if c.get("linux_controls_more") or len(reads) != c["reads"]:
            fail(f"{c['register']} on socket {c['socket']}: the report lost some of its history")
            continue
        seg = c["linux_controls"]
        n = 0
        for k, sg in enumerate(seg):
            if int(sg["control"], 16) & 0xFFFF != code:
                continue
            lo = max(sg["total"], reads[0])
            hi = min(seg[k + 1]["total"] if k + 1 < len(seg) else reads[-1], reads[-1])
            n += max(0, hi - lo)
        if any(int(sg["control"], 16) & 0xFFFF == code for sg in seg):
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


# PCM in its default mode (no PCM_NO_PERF): its core counters and the
# uncore through perf_event_open, each count against the truth as in the
# PCM_NO_PERF cases of tools_test.py
def pcm_skl():
    tools_test.pcm_skl(env={})


def pcm_memory_snbep():
    tools_test.pcm_memory_snbep(env={})


def pcm_memory_ivt():
    tools_test.pcm_memory_ivt(env={})


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


CASES = {f.__name__: f for f in (perf_metrics_skl, perf_metrics_snbep, perf_metrics_ivt, pmus_are_the_machines, papi_snbep_cbo, papi_snbep_pcu, papi_ivt_cbo, papi_ivt_pcu, perf_stat_skl, perf_stat_snbep, perf_stat_ivt, perf_interval_snbep, perf_refuses_skl,
                                 pcm_skl, pcm_memory_snbep, pcm_memory_ivt)}

if __name__ == "__main__":
    if CASE not in CASES:
        print(f"unknown case {CASE}", file=sys.stderr)
        sys.exit(2)
    CASES[CASE]()
    finish()
