#!/usr/bin/env python3
"""Generate model/snbep/ucm_plat_snbep_metrics.c and model/snbep/ucm_plat_snbep_metrics.h.

The Xeon E5-2600 (Sandy Bridge-EP) derived metrics, from the transcription
of the uncore guide's "Common Metrics (Derived Events)" tables in this
directory (metrics_ubox_cbo_ha_imc.tsv: Tables 2-15, 2-41, 2-65;
metrics_pcu_qpi_r2pcie_r3qpi.tsv: Tables 2-82, 2-95, 2-109, 2-123), written
in the driver's metric syntax (docs/usage.md, "Metrics").  "The guide" is
the Intel Xeon Processor E5-2600 Product Family Uncore Performance
Monitoring Guide; "1.6" is its section "On Parsing and Using Derived
Events".

Usage (from anywhere; python3, standard library only):
    python3 model/snbep/data/gen_metrics.py          # write both files
    python3 model/snbep/data/gen_metrics.py --check  # exit 1 if they are stale

How a guide equation becomes a metric expression:

* An event (EVENT or EVENT.UMASK) of the metric's box becomes
  [box/EVENT.UMASK/], in every instance of the box and summed; it is
  checked against the named events gen_events.py makes of the same
  transcription (its names: RPO/WPO read as RPQ/WPQ, ...).
* Control bits {edge_det,thresh=0x1} (1.6) become ,edge,thresh=1.
* "with: Cn_MSR_PMON_BOX_FILTER.opc=0x182" (1.6) becomes ,filter_opc=0x182
  on every event of the metric in that box: the box has one filter
  register, which the driver shares only between events that want the same
  value.
* MC_Chy_PCI_PMON_CTR_FIXED, the iMC's fixed DCLK counter (1.6), becomes
  [imc/<its named event>/] (gen_events.py FIXED_EVENT_NAMES); were the
  fixed counters not named (FIXED_NAMED_EVENTS), the metrics that read it
  would be skipped.
* SAMPLE_INTERVAL (1.6.1: TSC ticks of the sample) divides cycle counts of
  the box's own clock (occupancies, cycles in a state): it becomes the
  box's CLOCKTICKS, so the metric is per box clock as its definition says
  ("average depth", "cycles ... blocked"), whatever the TSC rate.  Summed
  over the boxes, the quotient is the average over them.
* A metric in bytes (its definition says bytes) is given per second as
  1.6.1 converts a bandwidth term: bytes / SAMPLE_INTERVAL_S / GB_CONVERSION
  with GB_CONVERSION = 1024^3, unit GiB/s.
* A metric named in another metric's equation (MEM_BW_TOTAL = MEM_BW_READS
  + MEM_BW_WRITES) is written out in place, in its bytes form.
* RANKx (1.6: a lower-case variable over like units) is expanded for
  x = 0..7, one metric per rank.  my_node / other_nodes are not expanded:
  see SKIP.
* Every metric's events must fit the box's counters at once (counter
  restrictions of the by-code tables); the generator checks it.

Nothing is skipped silently: a metric that cannot be converted must be in
SKIP with its reason, or the generator fails.
"""

import argparse
import os
import re
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.normpath(os.path.join(HERE, ".."))
OUT_C = os.path.join(MODEL, "ucm_plat_snbep_metrics.c")
OUT_H = os.path.join(MODEL, "ucm_plat_snbep_metrics.h")

sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ beside the sources
import gen_events  # noqa: E402  (the named events the driver will know)
from ucm_gen import cstr  # noqa: E402  (gen_events put model/ on the path)

TSVS = ["metrics_ubox_cbo_ha_imc.tsv", "metrics_pcu_qpi_r2pcie_r3qpi.tsv"]
GIB = 1024 ** 3

# ---------------------------------------------------------------------------
# Decisions

# Metrics not converted, with the reason.  Keys are the guide's names (with
# the lower-case variable, for those that have one).
ONE_PAIR = "one port has one MATCH/MASK pair (2.7.3.3), so the driver cannot count them at once"

SKIP = {
    ("cbo", "AVG_TOR_DRD_HIT_LATENCY"):
        "needs TOR_OCCUPANCY.OPCODE and TOR_OCCUPANCY.MISS_OPCODE at once, and TOR_OCCUPANCY "
        "counts only in counter 0 (Table 2-14): one CBo cannot count both",
    ("cbo", "AVG_TOR_DRD_LOC_MISS_LATENCY"):
        "filter nid=my_node, the node of the socket measured: the driver programs one filter "
        "value in every socket, so no one value is right for all",
    ("cbo", "AVG_TOR_DRD_REM_MISS_LATENCY"):
        "filter nid=other_nodes (written 'other_no des'), which depends on the socket measured: "
        "the driver programs one filter value in every socket",
    ("cbo", "CYC_INGRESS_STARVED"):
        "RxR_INT_STARVED is not in the guide's CBo event table (Table 2-14, 2.3.7), which the "
        "model implements; Intel's E5-2600 event list has it as CBo event 0x14",
    ("cbo", "LLC_DRD_MISS_PCT"):
        "garbled; its reading, LLC_LOOKUP.DATA_READ with filter state=0x1 over LLC_LOOKUP.DATA_READ "
        "with state=0x1F, needs two values of the CBo's one filter register at once (2.3.3.3)",
    ("cbo", "LLC_DRD_RFO_MISS_TO_LOC_MEM"):
        "garbled (unbalanced parentheses, 'state=' where {opc,nid} is meant), filter nid=my_node, "
        "and four values of the CBo's one filter register at once",
    ("cbo", "LLC_DRD_RFO_MISS_TO_REM_MEM"):
        "garbled as LLC_DRD_RFO_MISS_TO_LOC_MEM, filter nid=other_nodes, and four values of the "
        "CBo's one filter register at once",
    ("cbo", "LLC_MPI"):
        "needs INST_RETIRED.ALL, a core event, which the uncore driver does not count",
    ("cbo", "PCIE_DATA_BYTES"):
        "TOR_INSERTS.OPCODE with opc=0x194 plus TOR_INSERTS.OPCODE with opc=0x19C: two values of "
        "the CBo's one filter register at once",
    ("qpi", "DATA_FROM_QPI_TO_NODEx"):
        "the sum of three metrics that need four CTO_COUNT packet filters; " + ONE_PAIR,
    ("qpi", "DRS_F_OR_E_FROM_QPI"):
        "the sum of six CTO_COUNT packet filters (three opcodes, two states); " + ONE_PAIR,
    ("qpi", "DRS_WB_FROM_QPI"):
        "the sum of DRS_WbI/WbS/WbE_FROM_QPI, three CTO_COUNT packet filters; " + ONE_PAIR,
    ("qpi", "DRS_WRITE_FROM_QPI_TO_NODEx"):
        "the difference of two CTO_COUNT packet filters; " + ONE_PAIR,
    ("qpi", "NCB_DATA_FROM_QPI_TO_NODEx"):
        "the difference of two CTO_COUNT packet filters; " + ONE_PAIR,
    ("qpi", "PCT_LINK_CRC_RETRY_CYCLES"):
        "RxL_CRC_CYCLES_IN_LLR is not a QPI event of the guide (Table 2-94)",
    ("qpi", "QPI_SPEED"):
        "QPI_VALUES is defined nowhere in the guide, and ROUND(...) of TSC_SPEED is not a count",
    ("r2pcie", "IIO_RDS_TO_RING_IN_BYTES"):
        "TxR_INSERTS.BL: the R2PCIe TxR_INSERTS umask table is missing from the guide's text "
        "(REPORT-pcu-qpi-r2pcie-r3qpi.md, Gaps), so BL has no encoding",
    ("r3qpi", "QPI_RDS_TO_RING_IN_BYTES"):
        "TxR_INSERTS.BL: the R3QPI TxR_INSERTS umask table is missing from the guide's text "
        "(REPORT-pcu-qpi-r2pcie-r3qpi.md, Gaps), so BL has no encoding",
}

# QPI packet filters (2.7.3.3) as the driver's terms: register names of
# Tables 2-88..2-91 (match0/match1/mask0/mask1) and the DNID field.
QPI_WITH = ("the 'with:' of the QPI packet match/mask registers written as the driver's terms "
            "(match0/match1/mask0/mask1 are Q_Py_PCI_PMON_PKT_MATCH0/1, MASK0/1)")

# Equations read otherwise than the transcription writes them, with why.
# "<x>" is the node number of a NODEx metric (expand()).
READING = {
    ("qpi", "DRS_DataC_FROM_QPI_TO_NODEx"): (
        "CTO_COUNT * 64 with: Q_Py_PCI_PMON_PKT.{match0,match_dnid,mask0}={0x1C00,<x>,0x3FF80}",
        QPI_WITH + "; match_dnid is MATCH0.DNID (bits 17:13), which MASK0[17:0]=0x3FF80 compares"),
    ("qpi", "DRS_FULL_CACHELINE_MSGS_FROM_QPI"): (
        "CTO_COUNT * 64 with: Q_Py_PCI_PMON_PKT.{match0,mask0}={0x1C00,0x1F00}", QPI_WITH),
    ("qpi", "DRS_PTL_CACHELINE_MSGS_FROM_QPI"): (
        "CTO_COUNT * 64 with: Q_Py_PCI_PMON_PKT.{match0,mask0}={0x1D00,0x1F00}", QPI_WITH),
    ("qpi", "DRS_M_FROM_QPI"): (
        "CTO_COUNT * 64 with: Q_Py_PCI_PMON_PKT.{match0,mask0,match1,mask1}="
        "{0x1C00,0x1FE0,0x80000,0xF0000}",
        QPI_WITH + "; the guide writes the state mask as MASK0[19:16]: RDS is bits 19:16 of MASK1 "
        "(Table 2-90), as Table 2-92's DRS.DataC_M has it (R18)"),
    ("qpi", "DRS_WbE_FROM_QPI"): (
        "CTO_COUNT * 64 with: Q_Py_PCI_PMON_PKT.{match0,mask0}={0x1CC0,0x1FE0}", QPI_WITH),
    ("qpi", "DRS_WbI_FROM_QPI"): (
        "CTO_COUNT * 64 with: Q_Py_PCI_PMON_PKT.{match0,mask0}={0x1C80,0x1FE0}", QPI_WITH),
    ("qpi", "DRS_WbS_FROM_QPI"): (
        "CTO_COUNT * 64 with: Q_Py_PCI_PMON_PKT.{match0,mask0}={0x1CA0,0x1FE0}", QPI_WITH),
    ("cbo", "LLC_PCIE_DATA_BYTES"): (
        "TOR_INSERTS.OPCODE * 64 with: Cn_MSR_PMON_BOX_FILTER.opc=0x19C",
        "the extraction wrote 'EVENT with: FILTER' as 'EVENT / (FILTER * 64)' (guide line 1097; "
        "PCIE_DATA_BYTES, not in LaTeX, keeps 'with:')"),
    ("cbo", "LLC_RFO_MISS_PCT"): (
        "(TOR_INSERTS.MISS_OPCODE / TOR_INSERTS.OPCODE) with: Cn_MSR_PMON_BOX_FILTER.opc=0x180",
        "the extraction wrote 'with: FILTER' as '/ (FILTER)' (guide line 1098)"),
    ("pcu", "CYC_FREQ_THERMAL_LTD"): (
        "FREQ_MAX_LIMIT_THERMAL_CYCLES / CLOCKTICKS",
        "the guide repeats CYC_FREQ_CURRENT_LTD's FREQ_MAX_CURRENT_CYCLES (line 2785); the "
        "thermal limit is FREQ_MAX_LIMIT_THERMAL_CYCLES (Table 2-81)"),
}

# Names in equations that are spelled otherwise in the event tables
# (REPORT-ubox-cbo-ha-imc.md 3.6, REPORT-pcu-qpi-r2pcie-r3qpi.md 6).
NAME_FIX = {
    ("cbo", "COUNTER0.OCCUPANCY"): "COUNTER0_OCCUPANCY",
    ("cbo", "RING_BL_USED.DN_EVEN"): "RING_BL_USED.DOWN_EVEN",
    ("cbo", "RING_BL_USED.DN_ODD"): "RING_BL_USED.DOWN_ODD",
    ("ha", "REQUESTS.WRITEs"): "REQUESTS.WRITES",
    ("imc", "POWER_CHANNEL_DLOFF"): "POWER_CHANNEL_DLLOFF",
    ("qpi", "RxL0p_POWER_CYCLES"): "RxL0P_POWER_CYCLES",
    ("qpi", "RxL_FLITS_G0_DATA"): "RxL_FLITS_G0.DATA",
    ("qpi", "RxL_FLITS_G0_NON_DATA"): "RxL_FLITS_G0.NON_DATA",
}

# Units: bytes metrics are GiB/s, latencies uncore clocks, average queue
# depths entries; the rest (PCT_*, CYC_*, ratios) are ratios, as the guide
# computes them (no factor 100).
UNIT = {
    ("cbo", "AVG_INGRESS_DEPTH"): "entries",
    ("cbo", "AVG_TOR_DRDS_MISS_WHEN_NE"): "entries",
    ("cbo", "AVG_TOR_DRDS_WHEN_NE"): "entries",
    ("cbo", "AVG_INGRESS_LATENCY"): "cycles",
    ("cbo", "AVG_INGRESS_LATENCY_WHEN_NE"): "cycles",
    ("cbo", "AVG_TOR_DRD_LATENCY"): "cycles",
    ("cbo", "AVG_TOR_DRD_MISS_LATENCY"): "cycles",
}

CTL_BITS = {"edge_det": "edge", "edge": "edge", "inv": "inv", "invert": "inv", "thresh": "thresh"}
FILTER_FIELDS = {"opc": "filter_opc", "nid": "filter_nid", "state": "filter_state",
                 "tid": "filter_tid"}

# ---------------------------------------------------------------------------
# Reading


def read_metrics():
    rows = []
    for name in TSVS:
        with open(os.path.join(HERE, name), encoding="utf-8") as f:
            lines = f.read().splitlines()
        head = lines[0].split("\t")
        assert head == ["box", "name", "definition", "equation", "source"], (name, head)
        for line in lines[1:]:
            if line.strip():
                box, mname, definition, equation, source = line.split("\t")
                table = re.match(r"(Table \d+-\d+)", source).group(1)
                rows.append(dict(box=box, name=mname, desc=definition, eq=equation,
                                 cite="SNB-EP " + table))
    return rows


def known_events():
    """{box: {short name: counter mask}} of the named events that
    gen_events.py generates for the driver, and the short name of the iMC
    fixed DCLK counter's named event (None: it has none)."""
    events, opcodes = gen_events.load()
    codes = gen_events.build(events, opcodes, gen_events.load_packets())
    named = gen_events.named_events(events, codes, gen_events.load_match_events())
    out = {b: {} for b in gen_events.BOXES}
    dclk = None
    for e in named:
        if e["box"] not in out:
            continue  # the PCU C-state residency counters: no metric reads them
        short = e["name"].split("_", 2)[2]  # UNC_C_TOR_INSERTS.OPCODE -> TOR_INSERTS.OPCODE
        fixed = gen_events.FIXED.get(e["box"])
        if fixed and e["code"] == fixed[1]:
            if e["box"] == "imc":
                dclk = short
            out[e["box"]][short] = 1 << fixed[2]
            continue
        mask = [c.ctr_mask for c in codes[e["box"]]
                if c.code == e["code"] and "UCM_EC_FIXED" not in c.flags]
        assert len(mask) == 1, e
        out[e["box"]][short] = mask[0]
    return out, dclk


# Without a named event for the iMC's fixed DCLK counter (gen_events.py
# FIXED_NAMED_EVENTS) no event string counts it: the metrics that divide by
# it are then skipped.
NO_DCLK = ("MC_Chy_PCI_PMON_CTR_FIXED, the iMC fixed DCLK counter, has no event name "
           "(gen_events.py FIXED_NAMED_EVENTS is False)")


# ---------------------------------------------------------------------------
# Converting


class Skip(Exception):
    pass


def split_with(eq):
    """'(A / B) with: REG.opc=0x182' -> ('(A / B)', {'filter_opc': '0x182'})"""
    m = re.search(r"\bwith:\s*(\S.*)$", eq)
    if not m:
        return eq, {}
    spec = m.group(1).strip()
    filt = {}
    one = re.fullmatch(r"Cn_MSR_PMON_BOX_FILTER\.(\w+)=(0x[0-9A-Fa-f]+|\d+)", spec)
    many = re.fullmatch(r"Cn_MSR_PMON_BOX_FILTER\.\{([\w,]+)\}=\{([^}]*)\}", spec)
    qpi = re.fullmatch(r"Q_Py_PCI_PMON_PKT\.\{([\w,]+)\}=\{([^}]*)\}", spec)
    if qpi:
        for term, value in zip(qpi.group(1).split(","), qpi.group(2).split(",")):
            filt[term] = "0x%x" % int(value.strip(), 0)
        return eq[:m.start()].strip(), filt
    if one:
        pairs = [(one.group(1), one.group(2))]
    elif many:
        pairs = list(zip(many.group(1).split(","), [v.strip() for v in many.group(2).split(",")]))
    else:
        raise ValueError("cannot read the filter setting %r" % spec)
    for field, value in pairs:
        if not re.fullmatch(r"0x[0-9A-Fa-f]+|\d+", value):
            raise ValueError("filter %s=%s is a variable" % (field, value))
        filt[FILTER_FIELDS[field]] = "0x%x" % int(value, 0)
    return eq[:m.start()].strip(), filt


TOKEN = re.compile(r"\s*(?:(?P<num>0x[0-9A-Fa-f]+|\d+(?:\.\d+)?)|"
                   r"(?P<id>[A-Za-z_][A-Za-z0-9_.]*)(?:\{(?P<ctl>[^}]*)\})?|(?P<op>[-+*/()]))")


def ctl_terms(text):
    terms = []
    for part in [p.strip() for p in text.split(",") if p.strip()]:
        key, _, value = part.partition("=")
        key = key.strip()
        if key not in CTL_BITS:
            raise ValueError("unknown control bit %r" % key)
        if CTL_BITS[key] == "thresh":
            terms.append("thresh=%d" % int(value.strip(), 0))
        elif value and int(value, 0) != 1:
            raise ValueError("control bit %s=%s" % (key, value))
        else:
            terms.append(CTL_BITS[key])  # 1.6: a bit without a value is 1
    return terms


def strip_outer(expr):
    """'(a * b)' -> 'a * b' when the parentheses enclose all of it."""
    while expr.startswith("(") and expr.endswith(")"):
        depth = 0
        for i, ch in enumerate(expr):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0 and i != len(expr) - 1:
                return expr
        expr = expr[1:-1].strip()
    return expr


def has_sum(expr):
    depth = 0
    for i, ch in enumerate(expr):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and ch in "+-" and i > 0:
            return True
    return False


def is_bytes(desc):
    return re.search(r"\bbytes\b", desc, re.I) is not None


class Converter:
    def __init__(self, rows, events, dclk):
        self.rows = {(r["box"], r["name"]): r for r in rows}
        self.events = events
        self.dclk = dclk
        self.raw = {}      # (box, name) -> raw expression (bytes not per second)
        self.used = {}     # (box, name) -> set of event strings

    def event(self, box, name, ctl, filt):
        name = NAME_FIX.get((box, name), name)
        ev, dot, ext = name.partition(".")
        name = gen_events.RENAME.get((box, ev), ev) + dot + ext  # RPO_INSERTS -> RPQ_INSERTS
        if name not in self.events[box]:
            raise ValueError("%s event %s is not in the generated event tables" % (box, name))
        terms = [name] + ctl + ["%s=%s" % kv for kv in sorted(filt.items())]
        return "[%s/%s/]" % (box, ",".join(terms)), name

    def convert(self, box, name, stack=()):
        key = (box, name)
        if key in self.raw:
            return self.raw[key]
        if key in SKIP:
            raise Skip(SKIP[key])
        if key in stack:
            raise ValueError("metric %s refers to itself" % name)
        eq = READING[key][0] if key in READING else self.rows[key]["eq"]
        body, filt = split_with(eq)
        out, used, pos = [], set(), 0
        while pos < len(body):
            m = TOKEN.match(body, pos)
            if not m or m.end() == pos:
                raise ValueError("%s %s: cannot read %r" % (box, name, body[pos:]))
            pos = m.end()
            if m.group("num"):
                out.append(m.group("num"))
            elif m.group("op"):
                out.append(m.group("op"))
            else:
                ident, ctl = m.group("id"), ctl_terms(m.group("ctl") or "")
                if (box, ident) in self.rows:
                    if ctl:
                        raise ValueError("control bits on metric %s" % ident)
                    try:
                        inner = self.convert(box, ident, stack + (key,))
                    except Skip as e:
                        raise Skip("uses %s, which is skipped: %s" % (ident, e))
                    out.append("(" + inner + ")")
                    used |= self.used[(box, ident)]
                    continue
                if ident in ("SAMPLE_INTERVAL", "CLOCKTICKS"):
                    ev, short = self.event(box, "CLOCKTICKS", ctl, filt)
                elif ident == "MC_Chy_PCI_PMON_CTR_FIXED":
                    if not self.dclk:
                        raise Skip(NO_DCLK)
                    ev, short = self.event("imc", self.dclk, ctl, {})
                else:
                    ev, short = self.event(box, ident, ctl, filt)
                out.append(ev)
                used.add((ev, short))
        expr = strip_outer(" ".join(out).replace("( ", "(").replace(" )", ")"))
        check_placement(box, name, used, self.events)
        self.raw[key] = expr
        self.used[key] = used
        return expr


def check_placement(box, name, used, events):
    """The metric's distinct events of each box fit its counters at once."""
    by_box = {}
    for ev, short in used:
        b = ev[1:ev.index("/")]
        by_box.setdefault(b, {})[ev] = events[b][short]
    for b, evs in by_box.items():
        masks = sorted(evs.values(), key=lambda m: bin(m).count("1"))

        def fit(i, taken):
            if i == len(masks):
                return True
            return any(masks[i] & (1 << c) and not taken & (1 << c) and fit(i + 1, taken | 1 << c)
                       for c in range(16))
        if not fit(0, 0):
            raise ValueError("%s %s: its %s events %s cannot be counted at once"
                             % (box, name, b, sorted(evs)))


# Node IDs of NODEx metrics: the E5-2600 is a two-socket part, nodes 0 and 1
# (GIDNIDMAP, public facts).
NODES = 2


def expand(rows):
    """RANKx metrics, one per rank (1.6: 'x' covers RANK0 through RANK7);
    NODEx metrics, one per node, from their READING."""
    out = []
    for r in rows:
        key = (r["box"], r["name"])
        if "NODEx" in r["name"] and key not in SKIP:
            for x in range(NODES):
                e = dict(r)
                e["guide"] = r["name"]
                e["name"] = r["name"].replace("NODEx", "NODE%d" % x)
                e["eq"] = READING[key][0].replace("<x>", str(x))
                e["reading"] = e["eq"]
                e["desc"] = r["desc"].replace("Node ID 'x'", "node %d" % x)
                out.append(e)
        elif "RANKx" in r["name"] and key not in SKIP:
            for x in range(8):
                e = dict(r)
                e["guide"] = r["name"]
                e["name"] = r["name"].replace("RANKx", "RANK%d" % x)
                e["eq"] = r["eq"].replace("RANKx", "RANK%d" % x)
                e["desc"] = r["desc"].replace("rank (x)", "rank %d" % x)
                out.append(e)
        else:
            out.append(r)
    return out


def build():
    guide = read_metrics()
    keys = {(r["box"], r["name"]) for r in guide}
    for k in list(SKIP) + list(READING) + list(UNIT):
        assert k in keys, ("a decision about a metric the tables do not have", k)
    rows = expand(guide)
    conv = Converter(rows, *known_events())
    metrics, skipped = [], []
    for r in rows:
        key = (r["box"], r["name"])
        try:
            raw = conv.convert(*key)
        except Skip as e:
            entry = (r["box"], r.get("guide", r["name"]), r["cite"], str(e))
            if entry not in skipped:  # RANKx: once, not per rank
                skipped.append(entry)
            continue
        desc = r["desc"].strip()
        if not desc.endswith("."):
            desc += "."
        if is_bytes(desc):
            expr = ("(%s)" % raw if has_sum(raw) else raw) + " / SAMPLE_INTERVAL_S / %d" % GIB
            unit = "GiB/s"
            desc += " Here per second: bytes / SAMPLE_INTERVAL_S / 1024^3 (1.6.1)."
        else:
            expr = raw
            unit = UNIT.get(key, "ratio")
            if "SAMPLE_INTERVAL" in r["eq"]:
                desc += " SAMPLE_INTERVAL is read as the box's CLOCKTICKS."
        if key in READING or "reading" in r:
            desc += " Equation as read: " + r.get("reading", READING.get(key, ("",))[0]) + "."
        metrics.append(dict(name=r["name"], box=r["box"], desc=desc, expr=expr, unit=unit,
                            cite=r["cite"]))
    return metrics, skipped


# ---------------------------------------------------------------------------
# Output


HEADER = """/*
 * %s - GENERATED FILE, DO NOT EDIT.
 *
 * Generated by model/snbep/data/gen_metrics.py from the transcription of the
 * Xeon E5-2600 uncore guide's Common Metrics tables (model/snbep/data/
 * metrics_*.tsv).  To change it, change the generator or the .tsv files and
 * regenerate:
 *     python3 model/snbep/data/gen_metrics.py
 * (python3 model/snbep/data/gen_metrics.py --check tells whether it is stale).
"""


def gen_h(metrics):
    return (HEADER % "ucm_plat_snbep_metrics.h" +
            " *\n * The derived metrics of ucm_plat_snbep_metrics.c, for the platform table.\n */\n"
            "#ifndef UCM_PLAT_SNBEP_METRICS_H\n#define UCM_PLAT_SNBEP_METRICS_H\n\n"
            "#include \"ucm_types.h\"\n\n"
            "#define SNBEP_NMETRICS %d\n\n"
            "extern const struct ucm_metric snbep_metrics[SNBEP_NMETRICS];\n\n#endif\n"
            % len(metrics))


def gen_c(metrics, skipped):
    o = [HEADER % "ucm_plat_snbep_metrics.c",
         " *\n * %d metrics in the driver's metric syntax (docs/usage.md); the guide's\n"
         " * metrics not converted, and why:\n" % len(metrics)]
    for box, name, cite, why in skipped:
        text = "%s %s (%s): %s" % (box, name, cite, why.replace("*/", "* /"))
        o.append("".join(" *   %s\n" % l for l in
                         textwrap.wrap(text, 90, subsequent_indent="    ")))
    o.append(" */\n#include \"ucm_plat_snbep_metrics.h\"\n\n"
             "const struct ucm_metric snbep_metrics[SNBEP_NMETRICS] = {\n")
    for m in metrics:
        o.append("\t{ .name = %s, .box = %s,\n\t  .desc = %s,\n\t  .expr = %s,\n"
                 "\t  .unit = %s, .cite = %s },\n"
                 % (cstr(m["name"]), cstr(m["box"]), cstr(m["desc"]), cstr(m["expr"]),
                    cstr(m["unit"]), cstr(m["cite"])))
    o.append("};\n")
    return "".join(o)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the generated files differ")
    ap.add_argument("--list", action="store_true", help="print the metrics and the skipped ones")
    args = ap.parse_args()
    metrics, skipped = build()
    if args.list:
        for m in metrics:
            print("%-7s %-32s %-8s %s" % (m["box"], m["name"], m["unit"], m["expr"]))
        for box, name, _cite, why in skipped:
            print("SKIP %s %s: %s" % (box, name, why))
        return 0
    return gen_events.write_or_check({OUT_H: gen_h(metrics), OUT_C: gen_c(metrics, skipped)},
                                     args.check, "gen_metrics.py")


if __name__ == "__main__":
    sys.exit(main())
