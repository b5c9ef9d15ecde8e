#!/usr/bin/env python3
"""Generate the Xeon E5-2600 v2 (ivt) event tables from Intel's event list.

Reads ivt_uncore_events.tsv (Intel's ivytown_uncore.json V24 as transcribed
in ../shared/data: unit, name, code, umask, counters, extra select bit,
filter) and writes model/ivt/ucm_plat_ivt_ev.c and .h: one struct ucm_evcode
per (box, code, extra select bit) with the sub-events its umask bits select,
the filter rules its filter column asks for, and one struct ucm_event per row.

How a code's umask bits become sub-events (DECISIONS.md, E1-E6):
  * a bit that appears exactly in the rows needing a filter register's
    node or opcode field, and never alone, enables that filter (as the
    E5-2600's 0x40 NID bit): it selects no input;
  * a bit common to every row of a code of several rows, never alone, must
    be set (its own selecting group: LLC_LOOKUP's bit 0);
  * if every remaining value is a single bit or an OR of single-bit rows,
    each single bit is an input and a value selects the OR of its bits
    (a row whose value is then 0, as LLC_LOOKUP.NID, selects every input:
    the group restricts);
  * otherwise (values that combine modifier bits, e.g. TOR_INSERTS's MISS,
    LOCAL and REMOTE) each row is an input of its own, selected when the
    programmed umask equals the row's value (UCM_EC_EXACT).
Codes whose rows carry a CBo state filter have one input per type and line
state (I, S, E, M, F, M'), the state an attribute the filter compares.

Run without arguments to regenerate; --check exits 1 if the outputs are
stale; --selftest re-reads the outputs' named events and compares every row
of the TSV with them.
"""
import argparse
import csv
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from ucm_gen import attrs_macro, code_tables, cstr, write_or_check  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.normpath(os.path.join(HERE, ".."))
TSV = os.path.join(HERE, "ivt_uncore_events.tsv")
SNBEP_EV = os.path.join(MODEL, "..", "snbep", "ucm_plat_snbep_ev.c")
OUT_C = os.path.join(MODEL, "ucm_plat_ivt_ev.c")
OUT_H = os.path.join(MODEL, "ucm_plat_ivt_ev.h")

BOXES = ["ubox", "cbo", "ha", "imc", "pcu", "qpi", "r2pcie", "r3qpi", "irp"]
UNIT = {"UBOX": "ubox", "CBO": "cbo", "HA": "ha", "iMC": "imc", "PCU": "pcu", "QPI LL": "qpi",
        "R2PCIe": "r2pcie", "R3QPI": "r3qpi", "IRP": "irp"}
PREFIX = {"ubox": "UNC_U_", "cbo": "UNC_C_", "ha": "UNC_H_", "imc": "UNC_M_", "pcu": "UNC_P_",
          "qpi": "UNC_Q_", "r2pcie": "UNC_R2_", "r3qpi": "UNC_R3_", "irp": "UNC_I_"}
TITLE = {"ubox": "UBox", "cbo": "CBo", "ha": "Home Agent", "imc": "memory channel", "pcu": "PCU",
         "qpi": "QPI port", "r2pcie": "R2PCIe", "r3qpi": "R3QPI link", "irp": "IRP"}
CITE = "IVT event list (ivytown_uncore.json V24)"

STATES = ["I", "S", "E", "M", "F", "Mp"]  # FILTER0 bits 17..22 (M' as Mp)

TID_RULE = ("UCM_AT_TID", "UCM_R_FILT_TID", 0, "UCM_FM_EQ", 0, "UCM_R_TID_EN")
PKT_RULES = [("UCM_AT_%s" % a, "UCM_R_FILT_%s" % r, 0, "UCM_FM_MASKED", 0, 0)
             for a, r in (("MC", "MC"), ("OPC", "PKT_OPC"), ("VNW", "VNW"), ("DNID", "DNID"),
                          ("RNID", "RNID"), ("RDS", "RDS"))]

# Maximum increments per cycle (DECISIONS.md E4): ivt-facts.md §14 (ucevent's
# MaxIncCyc) and §5 (CBo counter 0 occupancy), then the E5-2600 guide's value
# for the same box and event name (its generated table), else 1.
MAX_INC = {
    ("cbo", "RxR_OCCUPANCY"): 20, ("cbo", "TOR_OCCUPANCY"): 20, ("cbo", "COUNTER0_OCCUPANCY"): 20,
    ("ha", "BT_OCCUPANCY"): 512, ("ha", "TxR_BL_OCCUPANCY"): 20, ("ha", "RPQ_CYCLES_NO_REG_CREDITS"): 4,
    ("ha", "WPQ_CYCLES_NO_REG_CREDITS"): 4, ("ha", "IMC_READS"): 4, ("ha", "TAD_REQUESTS_G0"): 2,
    ("ha", "TAD_REQUESTS_G1"): 2,
    ("imc", "POWER_CKE_CYCLES"): 16, ("imc", "VMSE_MXB_WR_OCCUPANCY"): 32,
    ("imc", "POWER_CHANNEL_PPD"): 4,
    # ucevent says 8; the excerpt (2.7.2) "a maximum of 4b per cycle" and
    # up to 15 cores in C0 say 15 (DECISIONS.md E4)
    ("pcu", "POWER_STATE_OCCUPANCY"): 15,
    ("qpi", "RxL_OCCUPANCY"): 128, ("qpi", "VNA_CREDIT_RETURN_OCCUPANCY"): 128,
    ("qpi", "TxR_AD_HOM_CREDIT_OCCUPANCY"): 28, ("qpi", "TxR_AD_SNP_CREDIT_OCCUPANCY"): 28,
    ("qpi", "TxL_FLITS_G0"): 2, ("qpi", "RxL_FLITS_G0"): 2, ("qpi", "TxL_FLITS_G1"): 2,
    ("qpi", "RxL_FLITS_G1"): 2, ("qpi", "TxL_FLITS_G2"): 2, ("qpi", "RxL_FLITS_G2"): 2,
    ("r2pcie", "RxR_OCCUPANCY"): 24, ("r3qpi", "RxR_OCCUPANCY"): 32,
    ("r3qpi", "VNA_CREDITS_ACQUIRED"): 4,
    ("irp", "RxR_AK_OCCUPANCY"): 24, ("irp", "RxR_BL_DRS_OCCUPANCY"): 24,
    ("irp", "RxR_BL_NCB_OCCUPANCY"): 24, ("irp", "RxR_BL_NCS_OCCUPANCY"): 24,
    ("irp", "CACHE_ACK_PENDING_OCCUPANCY"): 128, ("irp", "CACHE_OWN_OCCUPANCY"): 128,
    ("irp", "CACHE_READ_OCCUPANCY"): 128, ("irp", "CACHE_TOTAL_OCCUPANCY"): 128,
    ("irp", "CACHE_WRITE_OCCUPANCY"): 128,
}
# Occupancy codes of the QPI link layer (0x15-0x1a, RxL_OCCUPANCY_<class>)
# accumulate like RxL_OCCUPANCY.
MAX_INC_PREFIX = {("qpi", "RxL_OCCUPANCY"): 128}

# The fixed counters (no event in Intel's list): UBox UCLK (counter 2) and
# iMC DCLK (counter 4), code 0xFF as on the E5-2600; never chosen by EV_SEL.
FIXED = {
    "ubox": ("UCLK_FIXED", 0xFF, 2, "IVT p.23 (UCLK_FIXED_CTR)",
             "UNC_U_FIXED_CLOCKTICKS", "uclk_fixed",
             "Uncore clock cycles, counted by the UBox fixed UCLK counter (48 bits)."),
    "imc": ("DCLK_FIXED", 0xFF, 4, "IVT p.77 (MC_CHy_PCI_PMON_FIXED_CTR)",
            "UNC_M_FIXED_DCLOCKTICKS", "dclk_fixed",
            "DRAM clock cycles, counted by the channel's fixed DCLK counter."),
}
# The PCU's C-state residency counters (Table 2-118) are no events: outside
# PMON, they are each core's MSR_CORE_C3/C6_RESIDENCY, which the machine's
# table serves (docs/platform-ivt.md V26).
# perf-style aliases (name, bytes per count, an exact DRAM transfer count)
ALIASES = {
    "UNC_M_CAS_COUNT.RD": ("cas_rd", 64, 1),
    "UNC_M_CAS_COUNT.WR": ("cas_wr", 64, 1),
}
# PCU occupancy: Intel writes occ_sel (control bits 15:14) as umask bits 7:6
OCC_CODE = ("pcu", 0x80)
# A row whose bit is not an input but every request type (DECISIONS.md E11):
# LLC_LOOKUP.ANY 0x11 selects the lookups of every type, as libpfm4's and
# PAPI's :ANY (0x1F) does on the E5-2600.
ANY_ROWS = {("cbo", "LLC_LOOKUP"): "ANY"}

# Rows beyond Intel's list (DECISIONS.md E10): events libpfm4 and likwid have
# and the E5-2600 guide gives for the same box, which Intel's v2 list lacks
# (issue 33; docs/libpfm4.md).  unit, name, code, umask, counters, cite.
EXTRA_ROWS = [
    ("HA", "UNC_H_TxR_AK.NDR", 0x0E, 0x01, "0,1,2,3",
     "libpfm4 ivbep_unc_ha TXR_AK:NDR; SNB-EP Table 2-40 (TxR_AK_NDR 0x0E)"),
    ("HA", "UNC_H_TxR_AK.CRD_QPI", 0x0E, 0x04, "0,1,2,3", "libpfm4 ivbep_unc_ha TXR_AK:CRD_QPI"),
    ("R3QPI", "UNC_R3_TxR_CYCLES_NE", 0x23, 0x00, "0,1",
     "libpfm4 ivbep_unc_r3qpi, likwid; SNB-EP Table 2-122 (TxR_CYCLES_NE 0x23, counters 0-1)"),
    ("R3QPI", "UNC_R3_TxR_CYCLES_FULL", 0x25, 0x00, "0,1",
     "libpfm4 ivbep_unc_r3qpi, likwid; SNB-EP Table 2-122 (TxR_CYCLES_FULL 0x25, counters 0-1)"),
]


def read_rows():
    with open(TSV, newline="") as f:
        rows = list(csv.reader(f, delimiter="\t"))
    head, body = rows[0], rows[1:]
    assert head == ["unit", "event_name", "event_code", "umask", "counter", "ext_sel", "filter"], head
    out = []
    for i, r in enumerate(body, start=2):
        assert len(r) == 7, "%s:%d: %d columns" % (TSV, i, len(r))
        unit, name, code, umask, ctrs, ext, filt = r
        box = UNIT[unit]
        assert name.startswith(PREFIX[box]), "%s:%d: %s" % (TSV, i, name)
        mask = sum(1 << int(c) for c in ctrs.split(","))
        if box == "irp":
            # E9: the list numbers an IRP sub-unit's two counters; the box's
            # four are IRP0's and then IRP1's, each allowed what the list
            # allows (ivt_bt_irp.unit_ctrs, which --event-file reads by)
            mask |= mask << 2
        out.append(dict(line=i, box=box, name=name, code=int(code, 16), umask=int(umask, 16),
                        ctr_mask=mask, ext=int(ext), filt="" if filt == "null" else filt))
    return out


def extra_rows():
    """EXTRA_ROWS as rows of read_rows(), each with its own cite."""
    out = []
    for unit, name, code, umask, ctrs, cite in EXTRA_ROWS:
        out.append(dict(line=0, box=UNIT[unit], name=name, code=code, umask=umask,
                        ctr_mask=sum(1 << int(c) for c in ctrs.split(",")), ext=0, filt="",
                        cite=cite))
    return out


def snbep_max_inc():
    """{(box, code name): max_inc} of the E5-2600's generated table."""
    out = {}
    box = None
    with open(SNBEP_EV) as f:
        for line in f:
            m = re.match(r"const struct ucm_evcode snbep_codes_(\w+)\[", line)
            if m:
                box = m.group(1)
            m = re.search(r'\.name = "([^"]+)", \.max_inc = (\d+)', line)
            if m and box:
                out[(box, m.group(1))] = int(m.group(2))
    return out


def stem_suffix(row):
    rest = row["name"][len(PREFIX[row["box"]]):]
    if "." in rest:
        s, x = rest.split(".", 1)
        return s, x
    return rest, ""


def bits_of(v):
    return [1 << i for i in range(8) if v & (1 << i)]


class Code:
    def __init__(self, box, code, rows):
        self.box, self.code, self.rows = box, code, rows
        stems = [stem_suffix(r)[0] for r in rows]
        self.name = max(set(stems), key=lambda s: (stems.count(s), -len(s), s))
        self.ctr_mask = 0
        for r in rows:
            self.ctr_mask |= r["ctr_mask"]
        self.flags, self.grp_mask, self.restrict = [], [], 0
        self.subs, self.rules, self.comment = [], [], None
        self.max_inc = 1


def filter_kinds(filt):
    """The filter kinds a row's filter column asks for."""
    k = set()
    for part in re.split(r",\s*", filt):
        if not part:
            continue
        if part.startswith("CBoFilter0[2"):
            k.add("state")
        elif part.startswith("CBoFilter1[15:0]"):
            k.add("nid")
        elif part.startswith("CBoFilter1[28:20]"):
            k.add("opc")
        elif part.startswith("CBoFilter1[3"):
            k.add("ncisoc")
        elif part.startswith("PCUFilter"):
            k.add("pcu")
        elif part.startswith("HA_AddrMatch") or part.startswith("HA_OpcodeMatch"):
            k.add("ha")
        elif part.startswith("QPIMask") or part.startswith("QPIMatch"):
            k.add("qpi")
        elif part.startswith("UBoxFilter") or part.startswith("IRPFilter"):
            k.add("unmodelled")
        else:
            raise SystemExit("unknown filter %r" % part)
    return k


NOTES = []


def build_code(c):
    box, rows = c.box, c.rows
    key = (box, c.name)
    if c.name in ("CLOCKTICKS", "DCLOCKTICKS") and all(r["umask"] == 0 for r in rows):
        c.flags = ["UCM_EC_CLOCK"]
        return
    if (box, c.code) == OCC_CODE:
        c.flags = ["UCM_EC_OCC"]
        c.subs = [(stem_suffix(r)[1], [], {}) for r in sorted(rows, key=lambda r: r["umask"])]
        assert [r["umask"] for r in sorted(rows, key=lambda r: r["umask"])] == [0x40, 0x80, 0xC0]
        return
    kinds = {}
    for r in rows:
        r["kinds"] = filter_kinds(r["filt"])
        if box == "cbo" and stem_suffix(r)[1].startswith("NID") and "nid" not in r["kinds"]:
            # Intel's list omits FILTER1.nid on LLC_LOOKUP.NID; Linux's
            # extra-register table gives it (0x4134: nid and state)
            NOTES.append("%s: the node filter Intel's list omits" % r["name"])
            r["kinds"].add("nid")
        for k in r["kinds"]:
            kinds.setdefault(k, []).append(r)
    if box == "pcu" and c.name.startswith("FREQ_BAND"):
        k = int(c.name[len("FREQ_BAND")])
        c.subs = [("CYCLES", [], {})]
        c.rules = [("UCM_AT_FREQ", "UCM_R_FILT_BAND", k, "UCM_FM_GE", 0, 0)]
        return
    rules = []
    gates = 0
    for k, krows in sorted(kinds.items()):
        if k in ("unmodelled", "ncisoc"):
            NOTES.append("%s %s: filter %s not modelled (inputs count unfiltered)" % (box, c.name, k))
            continue
        if k == "pcu":
            # DEMOTIONS_COREn: PCUFilter[7:0] (DECISIONS.md E5)
            NOTES.append("%s %s: PCUFilter dependency not modelled" % (box, c.name))
            continue
        if k == "ha":
            rules += [("UCM_AT_OPC", "UCM_R_FILT_OPC", 0, "UCM_FM_EQ", 0, 0),
                      ("UCM_AT_ADDR", "UCM_R_FILT_ADDR", 12, "UCM_FM_EQ_BITS", 0, 0)]
            continue
        if k == "qpi":
            rules += PKT_RULES
            continue
        # CBo state / nid / opc: always, or enabled by the umask bits
        # found only in the rows that need it
        if len(krows) == len(rows):
            ub = 0
        else:
            inside = 0xFF
            for r in krows:
                inside &= r["umask"]
            outside = 0
            for r in rows:
                if r not in krows:
                    outside |= r["umask"]
            ub = inside & ~outside
            assert ub, "%s %s: no umask bit enables the %s filter" % (box, c.name, k)
            # a bit that only enables the filter (a row of that value
            # alone is "NID": every input, node-filtered) selects no input
            if all(stem_suffix(r)[1].startswith("NID") for r in rows if r["umask"] == ub):
                gates |= ub
        role, how, attr = {"state": ("UCM_R_FILT_STATE", "UCM_FM_BIT", "UCM_AT_STATE"),
                           "nid": ("UCM_R_FILT_NID", "UCM_FM_BIT", "UCM_AT_NID"),
                           "opc": ("UCM_R_FILT_OPC", "UCM_FM_EQ", "UCM_AT_OPC")}[k]
        rules.append((attr, role, 0, how, ub, 0))
    c.rules = rules
    stated = "state" in kinds and len(kinds["state"]) == len(rows)
    vals = [(stem_suffix(r)[1], r["umask"]) for r in rows]
    if all(v == 0 for _, v in vals):
        if stated:
            c.subs = [("LOOKUP_" + s, [], {"UCM_AT_STATE": i}) for i, s in enumerate(STATES)]
        return
    core = [(n, v & ~gates) for n, v in vals]
    qual = 0
    if len(core) > 1:
        qual = 0xFF
        for _, v in core:
            qual &= v
        if any(v == qual for _, v in vals):
            qual = 0
    core = [(n, v & ~qual) for n, v in core]
    single = {}
    for n, v in core:
        if len(bits_of(v)) == 1 and v not in single:
            single[v] = n
    seen = 0
    for v in single:
        seen |= v
    # bits Intel names only inside combinations: a modifier where a row
    # adds it to a single named input (TOR_INSERTS.MISS_OPCODE = OPCODE |
    # MISS), else an input of its own named after the first such row
    # (R3QPI RING_AD_USED.CW = the VR0 bits | two VR1 bits)
    union = 0
    for _, v in core:
        union |= v
    modifier = False
    named = seen
    for b in bits_of(union & ~named):
        withb = [(n, v) for n, v in core if v & b]
        if any(len(bits_of(v & named)) == 1 for _, v in withb):
            modifier = True
            break
        n = sorted(withb)[0][0]
        single[b] = "%s_BIT%d" % (n, b.bit_length() - 1)
        seen |= b
    decomposable = not modifier
    if decomposable:
        anyb = 0
        if (box, c.name) in ANY_ROWS:
            anyb = [v for v, n in single.items() if n == ANY_ROWS[(box, c.name)]][0]
            del single[anyb]
        subs = sorted(single.items())
        restrict = any(v == 0 for _, v in core)
        c.grp_mask = [seen]
        c.restrict = 0x1 if restrict else 0
        if qual:
            c.grp_mask.append(qual)
        for v, n in subs:
            m = [v | anyb] + ([qual] if qual else [])
            if stated:
                for i, s in enumerate(STATES):
                    c.subs.append(("%s_%s" % (n, s), m, {"UCM_AT_STATE": i}))
            else:
                c.subs.append((n, m, {}))
        if restrict and stated:
            # a value of no type bit (LLC_LOOKUP.NID): lookups of none of
            # the listed types still count
            for i, s in enumerate(STATES):
                c.subs.append(("OTHER_%s" % s, [anyb] + ([qual] if qual else []),
                               {"UCM_AT_STATE": i}))
        notes = []
        if qual:
            notes.append("bit(s) 0x%02X must be set (every row has them)" % qual)
        if gates:
            notes.append("0x%02X enables a filter and selects no input" % gates)
        if restrict:
            notes.append("a value without a selecting bit selects every input")
        if anyb:
            notes.append("0x%02X (%s) selects every input (DECISIONS.md E11)" %
                         (anyb, ANY_ROWS[(box, c.name)]))
        if notes:
            c.comment = "; ".join(notes) + "."
        return
    # exact values
    c.flags = ["UCM_EC_EXACT"]
    allv = 0
    for _, v in vals:
        allv |= v
    c.grp_mask = [allv]
    names = set()
    for n, v in vals:
        assert n not in names
        names.add(n)
        if stated:
            for i, s in enumerate(STATES):
                c.subs.append(("%s_%s" % (n, s), [v], {"UCM_AT_STATE": i}))
        else:
            c.subs.append((n, [v], {}))
    c.comment = ("values combine modifier bits that are not inputs of their own: each row\n"
                 "is an input, selected when the umask equals its value.")


def build(rows):
    snb = snbep_max_inc()
    groups = {}
    for r in rows:
        groups.setdefault((r["box"], r["code"] | (r["ext"] << 8)), []).append(r)
    codes = {b: [] for b in BOXES}
    for (box, code), grp in sorted(groups.items(), key=lambda kv: (BOXES.index(kv[0][0]), kv[0][1])):
        c = Code(box, code, grp)
        masks = {r["ctr_mask"] for r in grp}
        if len(masks) > 1:
            NOTES.append("%s %s 0x%X: counter restrictions differ between rows: union 0x%X" %
                         (box, c.name, code, c.ctr_mask))
        build_code(c)
        if all("cite" in r for r in grp):
            c.cite_fixed = grp[0]["cite"]
        elif any("cite" in r for r in grp):
            c.cite_fixed = CITE + "; " + "; ".join(r["cite"] for r in grp if "cite" in r)
        mi = MAX_INC.get((box, c.name))
        if mi is None:
            for (b, p), v in MAX_INC_PREFIX.items():
                if b == box and c.name.startswith(p):
                    mi = v
        if mi is None:
            mi = snb.get((box, c.name), 1)
        c.max_inc = mi
        if box == "cbo" and "UCM_EC_CLOCK" not in c.flags:
            c.rules.append(TID_RULE)
        assert len(c.rules) <= 8 and len(c.subs) < 256 and len(c.grp_mask) <= 3
        codes[box].append(c)
    for box, (name, code, ctr, cite, _, _, _) in FIXED.items():
        c = Code(box, code, [dict(box=box, name=PREFIX[box] + name, ctr_mask=1 << ctr)])
        c.name, c.ctr_mask, c.flags, c.cite_fixed = name, 1 << ctr, ["UCM_EC_CLOCK", "UCM_EC_FIXED"], cite
        codes[box].append(c)
    for box in BOXES:
        names = [(c.name, c.code) for c in codes[box]]
        assert len(set(names)) == len(names), box
    return codes


def words(s):
    return s.replace("_", " ").replace(".", " ")


def describe(box, c, r):
    stem, suf = stem_suffix(r)
    text = "%s %s" % (TITLE[box], words(stem).lower())
    if suf:
        text += ": %s" % words(suf)
    enc = "event 0x%02X" % (r["code"])
    if r["ext"]:
        enc += " with the extra select bit"
    if r["umask"]:
        enc += ", umask 0x%02X" % r["umask"]
    text += " (%s)." % enc
    k = r.get("kinds", set())
    if "state" in k:
        text += " Counts the line states set in FILTER0.state (22:17)."
    if "nid" in k:
        text += " Only requests to the nodes in FILTER1.nid."
    if "opc" in k:
        text += " Only requests with the opcode in FILTER1.opc."
    if "unmodelled" in k:
        text += " Its filter register is not modelled: it counts unfiltered."
    if "pcu" in k:
        text += " Intel lists a PCUFilter[7:0] dependency the model does not apply."
    if c.max_inc > 1:
        text += " Up to %d a cycle." % c.max_inc
    return text


def named_events(codes):
    out = []
    for box in BOXES:
        for c in codes[box]:
            if "UCM_EC_FIXED" in c.flags:
                name, code, _, cite, ev, alias, desc = FIXED[box]
                out.append(dict(name=ev, alias=alias, box=box, code=code, umask=0, desc=desc,
                                cite=cite, bytes=0, dram=0))
                continue
            for r in sorted(c.rows, key=lambda r: r["name"]):
                alias, nbytes, dram = ALIASES.get(r["name"], (None, 0, 0))
                out.append(dict(name=r["name"], alias=alias, box=box, code=c.code, umask=r["umask"],
                                desc=describe(box, c, r), cite=r.get("cite", CITE), bytes=nbytes,
                                dram=dram))
    names = [e["name"].lower() for e in out]
    assert len(set(names)) == len(names)
    return out


HEADER = """/*
 * %s - GENERATED FILE, DO NOT EDIT.
 *
 * Generated by model/ivt/data/gen_events.py from Intel's Xeon E5-2600 v2
 * uncore event list (model/ivt/data/ivt_uncore_events.tsv).  To change it,
 * change the generator and regenerate:
 *     python3 model/ivt/data/gen_events.py
 * (python3 model/ivt/data/gen_events.py --check tells whether it is stale).
%s */
"""


def gen_h(codes, events):
    o = [HEADER % ("ucm_plat_ivt_ev.h",
                   " *\n * Array lengths of the event tables of ucm_plat_ivt_ev.c and the index,\n"
                   " * in its box's code array, of the code each fixed counter counts.\n")]
    o.append("#ifndef UCM_PLAT_IVT_EV_H\n#define UCM_PLAT_IVT_EV_H\n\n")
    for b in BOXES:
        o.append("#define IVT_NCODES_%s %d\n" % (b.upper(), len(codes[b])))
    o.append("\n/* UBox counter 2 (UCLK) and iMC counter 4 (DCLK) */\n")
    for b in FIXED:
        idx = [i for i, c in enumerate(codes[b]) if "UCM_EC_FIXED" in c.flags]
        o.append("#define IVT_%s_FIXED_CODE %d\n" % (b.upper(), idx[0]))
    o.append("\n#define IVT_NEVENTS %d\n\n#endif\n" % len(events))
    return "".join(o)


def gen_c(codes, events):
    o = [HEADER % ("ucm_plat_ivt_ev.c",
                   " *\n * Event codes, their sub-events, umask groups and filter rules, and the\n"
                   " * named events: one per row of Intel's list, plus the fixed counters and\n"
                   " * the PCU's C-state residency counters.  Decisions: model/ivt/data/\n"
                   " * DECISIONS.md and docs/platform-ivt.md.\n")]
    o.append('#include <stddef.h>\n\n#include "ucm_plat_ivt.h"\n\n')
    o.append(attrs_macro())
    o.append(code_tables(BOXES, codes, "ivt", lambda c: getattr(c, "cite_fixed", CITE)))
    o.append("/* Named events: every row of Intel's list (its names and encodings), the\n"
             " * fixed counters and the C-state residency counters. */\n")
    o.append("const struct ucm_event ivt_events[IVT_NEVENTS] = {\n")
    for e in events:
        o.append("\t{ .name = %s, .alias = %s, .box = &ivt_bt_%s,\n"
                 % (cstr(e["name"]), cstr(e["alias"]), e["box"]))
        o.append("\t  .code = 0x%03X, .umask = 0x%02X, .thresh = 0, .bytes = %d, .dram = %d,\n"
                 % (e["code"], e["umask"], e["bytes"], e["dram"]))
        o.append("\t  .cite = %s,\n" % cstr(e["cite"]))
        o.append("\t  .desc = %s },\n" % cstr(e["desc"]))
    o.append("};\n")
    return "".join(o)


def selftest(rows):
    """Every TSV row is a named event of the output with its encoding."""
    text = open(OUT_C).read()
    got = {}
    for m in re.finditer(r'\.name = "([^"]+)", \.alias = [^,]+, \.box = &ivt_bt_(\w+),\n'
                         r'\t  \.code = 0x([0-9A-F]+), \.umask = 0x([0-9A-F]+)', text):
        got[m.group(1)] = (m.group(2), int(m.group(3), 16), int(m.group(4), 16))
    bad = 0
    for r in rows:
        want = (r["box"], r["code"] | r["ext"] << 8, r["umask"])
        if got.get(r["name"]) != want:
            print("%s:%d: %s: generated %s, want %s" % (TSV, r["line"], r["name"], got.get(r["name"]), want))
            bad += 1
    print("selftest: %d rows, %d named events, %d mismatches" % (len(rows), len(got), bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the generated files differ")
    ap.add_argument("--selftest", action="store_true", help="compare the output with every TSV row")
    ap.add_argument("--notes", action="store_true", help="print what the generator decided per code")
    args = ap.parse_args()
    rows = read_rows()
    if args.selftest:
        return selftest(rows)
    codes = build(rows + extra_rows())
    events = named_events(codes)
    if args.notes:
        for n in NOTES:
            print(n)
        for b in BOXES:
            for c in codes[b]:
                print("%s 0x%03X %s: %s, %d inputs, rules %d" % (
                    b, c.code, c.name, "exact" if "UCM_EC_EXACT" in c.flags else "bits", len(c.subs),
                    len(c.rules)))
    return write_or_check({OUT_H: gen_h(codes, events), OUT_C: gen_c(codes, events)}, args.check,
                          "python3 model/ivt/data/gen_events.py")


if __name__ == "__main__":
    sys.exit(main())
