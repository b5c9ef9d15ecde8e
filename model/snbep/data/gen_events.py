#!/usr/bin/env python3
"""Generate model/snbep/ucm_plat_snbep_ev.c and model/snbep/ucm_plat_snbep_ev.h.

The Xeon E5-2600 (Sandy Bridge-EP) event codes, sub-events and named events,
from the transcription of the uncore guide's event lists in this directory
(events.tsv, events_pcu_qpi_r2pcie_r3qpi.tsv, cbo_opcodes.tsv; see
README.md and the REPORT-*.md files).  "The guide" is the Intel Xeon
Processor E5-2600 Product Family Uncore Performance Monitoring Guide
(327043-001); "line N" is a line of its markdown extraction
(shared/seeds/xeon-e5-2600-uncore-guide.md).

Usage (from anywhere; python3, standard library only):
    python3 model/snbep/data/gen_events.py          # write both files
    python3 model/snbep/data/gen_events.py --check  # exit 1 if they are stale

How the guide's tables become descriptor data (ucm_types.h):

* One struct ucm_evcode per event of a box's "Events Ordered By Code" table:
  code = EV_SEL | 0x100 when the Extra Select Bit is 1; ctr_mask from the
  counters column; max_inc from "Max Inc/Cyc"; cite = the by-code table.
* A umask extension whose umask is a single bit ("bxxxx1xxx") is one
  sub-event in one selecting umask group (grp_mask = OR of the table's
  bits).  A multi-bit extension that is the OR of single-bit siblings
  (CAS_COUNT.RD = RD_REG|RD_UNDERFILL, TxL_FLITS_G1.HOM, ...) is only a
  named event.  Events with no umask table have no sub-event list (nsubs 0:
  one input, any umask counts it).
* The tables whose values are encodings rather than independent bits, and
  the notes that constrain combinations, are modelled with restricting
  groups, overlapping groups and filter rules: see build() and the helpers
  it calls, each with its guide citation.
* The "b..x1x.." notations that lost or gained a digit in the extraction are
  read right-aligned (last digit = umask bit 0), except the ones listed in
  UMASK_FIX, resolved from the guide's own text.
"""

import argparse
import csv
import re
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
from ucm_gen import attrs_macro, code_tables, cstr  # noqa: E402
from ucm_gen import write_or_check as _write_or_check  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.normpath(os.path.join(HERE, ".."))
OUT_C = os.path.join(MODEL, "ucm_plat_snbep_ev.c")
OUT_H = os.path.join(MODEL, "ucm_plat_snbep_ev.h")

BOXES = ["ubox", "cbo", "ha", "imc", "pcu", "qpi", "r2pcie", "r3qpi"]
# Intel's perfmon event-name prefixes for Jaketown (UNC_C_..., UNC_M_...)
PREFIX = {"ubox": "U", "cbo": "C", "ha": "H", "imc": "M", "pcu": "P", "qpi": "Q",
          "r2pcie": "R2", "r3qpi": "R3"}

# ---------------------------------------------------------------------------
# Transcription resolutions.  Right-aligned readings of the 7- and 9-digit
# notations need no entry: in every table they give the consecutive bits the
# table's 8-digit rows continue.

# Event names: the extraction reads Q as O in the iMC read/write pending
# queue names (REPORT-ubox-cbo-ha-imc.md 3.1).  The guide's own text says
# RPQ/WPQ: "iMC RPQ/WPQ Events" (line 1625), "RPQ_CYCLES_NO_REG_CREDITS" in
# Table 2-40 (line 1666), "Read Pending Queue"/"Write Pending Queue" in every
# definition (lines 2429-2491), WPQ_READ_HIT/WPQ_WRITE_HIT/WPQ_OCCUPANCY in
# the per-event list (lines 2491-2507).  Normalised to Q everywhere.
RENAME = {
    ("ha", "RPO_CYCLES_NO_REG_CREDITS"): "RPQ_CYCLES_NO_REG_CREDITS",
    ("ha", "WPO_CYCLES_NO_REG_CREDITS"): "WPQ_CYCLES_NO_REG_CREDITS",
    ("imc", "RPO_INSERTS"): "RPQ_INSERTS",
    ("imc", "RPO_CYCLES_NE"): "RPQ_CYCLES_NE",
    ("imc", "RPO_CYCLES_FULL"): "RPQ_CYCLES_FULL",
    ("imc", "RPO_OCCUPANCY"): "RPQ_OCCUPANCY",
    ("imc", "WPO_INSERTS"): "WPQ_INSERTS",
    ("imc", "WPO_CYCLES_NE"): "WPQ_CYCLES_NE",
    ("imc", "WPO_CYCLES_FULL"): "WPQ_CYCLES_FULL",
}
# Umask extension names: TOR_INSERTS' "EVICTON" (line 1414) is EVICTION as
# TOR_OCCUPANCY writes it (line 1443) and as the description says.
RENAME_EXT = {("cbo", "TOR_INSERTS", "EVICTON"): "EVICTION"}

# Umask notations whose right-aligned reading is wrong, resolved from the
# guide's own text.
UMASK_FIX = {
    # 7 digits (line 1182).  Every other CBo NID umask is bit 6: LLC_LOOKUP.NID
    # b01000001 (line 1159), TOR_INSERTS/TOR_OCCUPANCY NID_* b01000001 ..
    # b01010000 (lines 1424-1429, 1453-1457); the digit lost is a trailing x.
    ("cbo", "LLC_VICTIMS", "NID"): 0x40,
    # 7 digits, RANK5 and RANK6 both "bx1xxxxx" (lines 2395-2396): ranks are
    # one bit each, RANK0..RANK7 = bits 0..7 as in the parallel, 8-digit
    # Table 2-69 for POWER_CKE_CYCLES (lines 2351-2358).  RANK0-5 read
    # right-aligned are already bits 0-5.
    ("imc", "POWER_THROTTLE_CYCLES", "RANK6"): 0x40,
    ("imc", "POWER_THROTTLE_CYCLES", "RANK7"): 0x80,
}

# Max Inc/Cyc missing in the guide.
MAX_INC_FIX = {
    # line 2204 (Table 2-64) and line 2373: empty.  A count of cycles in
    # self-refresh: at most 1 per cycle.
    ("imc", "POWER_SELF_REFRESH"): 1,
    # line 4311 (Table 2-122) and line 4354: empty.  A clock: 1 per cycle.
    ("r3qpi", "CLOCKTICKS"): 1,
}

# The fixed counters (not in the event tables): UBox UCLK (Tables 2-4/2-5,
# counter 2 of the box) and iMC DCLK (Tables 2-62/2-63, counter 4).  Code
# 0xFF is Linux's "fixed counter" event; UCM_EC_FIXED codes are never chosen
# by an EV_SEL value, so it only names them.
FIXED = {
    "ubox": ("UCLK_FIXED", 0xFF, 2, "SNB-EP Table 2-4"),
    "imc": ("DCLK_FIXED", 0xFF, 4, "SNB-EP Table 2-62"),
}
# Named events for the fixed counters (names as Intel's Jaketown lists); the
# driver finds their codes with ucm_code_named().
FIXED_NAMED_EVENTS = True
FIXED_EVENT_NAMES = {
    "ubox": ("UNC_U_CLOCKTICKS", "Uncore clocks, counted by the UBox fixed UCLK counter."),
    "imc": ("UNC_M_DCLOCKTICKS", "DRAM clocks (dclks), counted by the channel's fixed DCLK counter."),
}

# The PCU's C-state residency counters (2.6.3.3, Tables 2-78/2-79) are no
# events: outside PMON, they are each core's MSR_CORE_C3/C6_RESIDENCY,
# which the machine's table serves (docs/platform-snbep.md R29).

# Table 2-75's occ_sel values, for the descriptions Table 2-83 leaves empty.
OCC_NAMES = {
    ("pcu", "POWER_STATE_OCCUPANCY", "CORES_C0"): ", occ_sel 01: cores in C0",
    ("pcu", "POWER_STATE_OCCUPANCY", "CORES_C3"): ", occ_sel 10: cores in C3",
    ("pcu", "POWER_STATE_OCCUPANCY", "CORES_C6"): ", occ_sel 11: cores in C6",
}

# Short aliases (ucm_event.alias, bytes, dram).
# Table 2-92's descriptions of the two DRS flit-length rows are each one row
# late (the 9-flit row describes 11-flit messages, the 11-flit row an NDR
# message); the match values are the authority (opcode bit 3 is the packet
# size, Table 2-89), so these two say what their values select (R19).
MATCH_EVENT_DESC = {
    "DRS.AnyResp9flits": "Any Data Response message that is 9 flits in length: a full cache line "
                         "(the guide's description of this row belongs to the next).",
    "DRS.AnyResp11flits": "Any Data Response message that is 11 flits in length: partial data, each "
                          "8 byte chunk with an enable field (the guide's description of this row "
                          "describes an NDR message).",
}

ALIASES = {
    ("imc", "CAS_COUNT", "RD"): ("cas_rd", 64, 1),
    ("imc", "CAS_COUNT", "WR"): ("cas_wr", 64, 1),
}

# ---------------------------------------------------------------------------
# Reading the transcription


def read_tsv(name):
    with open(os.path.join(HERE, name), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def ctr_mask(text):
    lo, _, hi = text.partition("-")
    lo, hi = int(lo), int(hi or lo)
    return ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)


def table_of(source, umask_table):
    """'Table 2-14; Table 2-16' -> the by-code (0) or umask (1) table."""
    parts = [p.strip() for p in source.split(";")]
    tables = [p for p in parts if p.startswith("Table ")]
    return tables[1 if umask_table and len(tables) > 1 else 0]


def umask_value(box, event, ext, text):
    """The guide's umask cell as an 8-bit value."""
    if (box, event, ext) in UMASK_FIX:
        return UMASK_FIX[(box, event, ext)]
    if text.startswith("0x"):
        return int(text, 16)
    assert text.startswith("b") and set(text[1:]) <= set("01x"), text
    v = 0
    for i, ch in enumerate(reversed(text[1:])):
        if ch == "1":
            v |= 1 << i
    assert v < 0x100, (box, event, ext, text)
    return v


class Event:
    def __init__(self, box, row):
        self.box = box
        self.guide_name = row["event"]
        self.name = RENAME.get((box, row["event"]), row["event"])
        self.code = int(row["code"], 16) | (0x100 if row["extsel"] == "1" else 0)
        self.ctr_mask = ctr_mask(row["counters"])
        mi = row["max_inc"] or MAX_INC_FIX.get((box, row["event"]))
        assert mi, ("missing max_inc", box, row["event"])
        self.max_inc = int(mi)
        self.desc = row["description"]
        self.cite = "SNB-EP " + table_of(row["source"], False)
        self.umasks = []  # (ext, value, description, cite)


def load():
    events = {b: [] for b in BOXES}
    rows = read_tsv("events.tsv") + read_tsv("events_pcu_qpi_r2pcie_r3qpi.tsv")
    for row in rows:
        box = row["box"]
        cur = events[box][-1] if events[box] else None
        if not row["umask_name"]:
            events[box].append(Event(box, row))
            continue
        assert cur and cur.guide_name == row["event"], row
        ext = RENAME_EXT.get((box, row["event"], row["umask_name"]), row["umask_name"])
        cur.umasks.append((ext, umask_value(box, row["event"], row["umask_name"], row["umask"]),
                           row["description"], "SNB-EP " + table_of(row["source"], True)))
    # cross-check the readings of the PCU/QPI/R2PCIe/R3QPI helper
    for row in read_tsv("umask_values_pcu_qpi_r2pcie_r3qpi.tsv"):
        ev = [e for e in events[row["box"]] if e.guide_name == row["event"]][0]
        got = [u[1] for u in ev.umasks if u[0] == row["umask_name"]]
        assert got == [int(row["umask_value"], 16)], (row, got)
    opcodes = [(int(r["opc"], 16), r["opcode"], r["definition"]) for r in read_tsv("cbo_opcodes.tsv")]
    return events, opcodes


def load_packets():
    """Table 2-142 (message class codes) and Table 2-143 (opcodes by class)
    as [(mc name, mc code, opcode, opcode name)] in class, then opcode
    order.  Names lose the guide's "_(FEIMS)" (the state is the RDS field,
    not part of the opcode) so that they can be sub-event names."""
    rows = read_tsv("qpi_packet_match.tsv")
    mcs = {r["mc"]: int(r["code"][1:], 2) for r in rows if r["table"] == "2-142" and r["mc"]}
    assert mcs == {"HOM0": 0, "HOM1": 1, "NDR": 2, "SNP": 3, "NCS": 4, "NCB": 12, "DRS": 14}, mcs
    out = []
    for mc, code in sorted(mcs.items(), key=lambda x: x[1]):
        for r in rows:
            if r["table"] == "2-143" and r["mc"] == mc and r["name"] != "---":
                out.append((mc, code, int(r["code"], 2), r["name"].replace("_(FEIMS)", "")))
    names = [(mc, n) for mc, _, _, n in out]
    assert len(set(names)) == len(names) and len(out) == 72, len(out)
    return out


def load_match_events():
    """Table 2-92: [(name, {filter register index: value}, description)].
    Filter registers of the QPI box: 0 MATCH0, 1 MATCH1, 2 MASK0, 3 MASK1;
    "&& Match1 [19:16] 0x8" puts 0x8 at MATCH1 bits 19:16."""
    out = []
    for r in read_tsv("qpi_match_events.tsv"):
        vals = {}
        for col, lo, hi in (("match_12_0", 0, 1), ("mask_12_0", 2, 3)):
            m = re.fullmatch(r"(0x[0-9A-F]+)(?: && (?:Match|Mask)1 \[19:16\] (0x[0-9A-F]+))?",
                             r[col])
            assert m, r
            vals[lo] = int(m.group(1), 16)
            if m.group(2):
                vals[hi] = int(m.group(2), 16) << 16
        desc = MATCH_EVENT_DESC.get(r["field"], r["description"])
        out.append((r["field"], vals, desc, "SNB-EP " + r["source"].split(" (")[0]))
    return out


# ---------------------------------------------------------------------------
# Descriptor model


class Code:
    """One struct ucm_evcode: from an event of the tables, or given fields."""

    def __init__(self, ev, flags=(), name=None, code=None, max_inc=None, ctr_mask=None,
                 cite=None):
        self.name = name if ev is None else ev.name
        self.code = code if ev is None else ev.code
        self.max_inc = max_inc if ev is None else ev.max_inc
        self.ctr_mask = ctr_mask if ev is None else ev.ctr_mask
        self.cite = cite if ev is None else ev.cite
        self.flags = list(flags)
        self.grp_mask = []
        self.restrict = 0
        self.subs = []   # (name, [match per group], {attr: value})
        self.rules = []  # (attr, role, arg, how, umask_bits, ctl_role)
        self.comment = None


def bits_of(v):
    return [1 << i for i in range(8) if v & (1 << i)]


def plain(ev, umasks=None):
    """Single-bit extensions (of ev, or the given subset) as sub-events of
    one selecting group; multi-bit extensions must be ORs of single-bit
    siblings (named events only)."""
    c = Code(ev)
    umasks = ev.umasks if umasks is None else umasks
    if not umasks:
        return c
    single = [(n, v) for n, v, _, _ in umasks if len(bits_of(v)) == 1]
    seen = 0
    for n, v in single:
        assert not v & seen, ("umask bit used twice", ev.box, ev.name, n, hex(v))
        seen |= v
        c.subs.append((n, [v], {}))
    for n, v, _, _ in umasks:
        assert v and (v & ~seen) == 0, ("not an OR of single-bit siblings", ev.box, ev.name, n, hex(v))
    c.grp_mask = [seen]
    return c


def clock(ev):
    c = Code(ev, ["UCM_EC_CLOCK"])
    assert not ev.umasks
    return c


def exact_encodings(ev, why):
    """Extensions given only as full multi-bit values whose single bits the
    guide does not define: each is selected only when every bit of its
    value is programmed.  Group g holds the g-th lowest bit of every value;
    a sub-event matches its own bit in each group."""
    c = Code(ev)
    vals = [v for _, v, _, _ in ev.umasks]
    n = max(len(bits_of(v)) for v in vals)
    assert n <= 3 and all(len(bits_of(v)) == n for v in vals)
    union = 0
    for v in vals:
        assert not v & union, "overlapping encodings"
        union |= v
    c.grp_mask = [0] * n
    for name, v, _, _ in ev.umasks:
        b = bits_of(v)
        for g in range(n):
            c.grp_mask[g] |= b[g]
        c.subs.append((name, b, {}))
    c.comment = why
    return c


PKT_RULES = [("UCM_AT_%s" % a, "UCM_R_FILT_%s" % r, 0, "UCM_FM_MASKED", 0, 0)
             for a, r in (("MC", "MC"), ("OPC", "PKT_OPC"), ("VNW", "VNW"), ("DNID", "DNID"),
                          ("RNID", "RNID"), ("RDS", "RDS"))]


def cto_count(ev, packets):
    """CTO_COUNT (QPI 0x38 + extra select bit, Table 2-94): a packet the
    link layer serves counts when it passes the MATCH/MASK filter
    (2.7.3.3).  Its inputs are the packets of Table 2-143, one per message
    class and opcode, with those two as attributes; the node IDs, virtual
    network and response data state are run-time attributes.  No umask."""
    c = Code(ev)
    assert not ev.umasks
    for mc, mcv, opc, name in packets:
        c.subs.append(("%s_%s" % (mc, name), [], {"UCM_AT_MC": mcv, "UCM_AT_OPC": opc}))
    c.rules = list(PKT_RULES)
    c.comment = ("The inputs are the packets of Table 2-143 (\"_(FEIMS)\" dropped from the\n"
                 "DRS names: the state is the RDS attribute); every input passes the\n"
                 "MATCH/MASK rules of Tables 2-88..2-91.")
    return c


# The classes a Home Agent receives (R17): requests, snoop responses and
# write-back data.  OPCODEMATCH.opc (6 bits, Table 2-37) holds the low two
# bits of the class code (Table 2-142) above the 4-bit opcode: unambiguous
# for these three (00, 01, 10).
HA_CLASSES = ("HOM0", "HOM1", "DRS")


def addr_opc_match(ev, packets):
    """ADDR_OPC_MATCH.FILT (HA 0x20, Table 2-42 b00000011): a request
    counts when its opcode equals OPCODEMATCH.opc and its address equals
    ADDRMATCH1:0 in bits 45:12 (the note to Table 2-39).  Inputs are the
    packets the HA receives; the address is a run-time attribute."""
    c = exact_encodings(ev, "Table 2-42 gives only FILT = b00000011: both bits needed.  The\n"
                            "inputs are the packets an HA receives (HOM0, HOM1, DRS of Table\n"
                            "2-143); opcode attribute = class code bits 1:0 above the opcode (R17).")
    (name, match, _), = c.subs
    assert name == "FILT"
    c.subs = [("%s_%s" % (mc, n), list(match), {"UCM_AT_OPC": (mcv & 3) << 4 | opc})
              for mc, mcv, opc, n in packets if mc in HA_CLASSES]
    c.rules = [("UCM_AT_OPC", "UCM_R_FILT_OPC", 0, "UCM_FM_EQ", 0, 0),
               ("UCM_AT_ADDR", "UCM_R_FILT_ADDR", 12, "UCM_FM_EQ_BITS", 0, 0)]
    return c


def ring_iv(ev, names):
    """RING_IV_USED: the table has only ANY = b00001111 (Tables 2-23, 2-113,
    2-130), but the definitions name the four polarity bits of the sibling
    ring tables (lines 1273, 4122, 4462): one sub-event per polarity."""
    c = Code(ev)
    assert [u[1] for u in ev.umasks] == [0x0F]
    c.subs = [(n, [1 << i], {}) for i, n in enumerate(names)]
    c.grp_mask = [0x0F]
    c.comment = ("The table gives only ANY = 0x0F; the definition names the polarity bits of\n"
                 "the sibling RING_*_USED tables: one sub-event per polarity bit.")
    return c


def any_superset(ev):
    """RxR_*_RETRY: ANY (bit 0) counts every retry, the other bits one reason
    each (Tables 2-26..2-28, lines 1336, 1352, 1377): sub-events are the
    reasons plus OTHER (retries of no listed reason); bit 0 selects them
    all, so ANY|FULL counts each FULL retry once, as an OR of signals."""
    c = Code(ev)
    assert ev.umasks[0][0] == "ANY" and ev.umasks[0][1] == 0x01
    mask = 0x01
    for n, v, _, _ in ev.umasks[1:]:
        assert len(bits_of(v)) == 1 and not v & mask
        mask |= v
        c.subs.append((n, [0x01 | v], {}))
    c.subs.append(("OTHER", [0x01], {}))
    c.grp_mask = [mask]
    c.comment = ("ANY (bit 0) is every retry; the other bits are reasons within it.  OTHER\n"
                 "is a retry for a reason without its own bit.")
    return c


def irq_rejected_alone(ev):
    """RxR_OCCUPANCY / RxR_INSERTS: "IRQ_REJECTED should not be Ored with
    the other umasks" (lines 1313, 1392).  Group 0 selects as usual; group 1
    (restricting, {IRQ_REJECTED}) lets only IRQ_REJECTED through when its
    bit is set; group 2 (restricting, the other bits) keeps IRQ_REJECTED out
    when any other bit is set.  IRQ_REJECTED with another bit so selects
    nothing, which the strict checks report."""
    c = plain(ev)
    rej = [v for n, v, _, _ in ev.umasks if n == "IRQ_REJECTED"][0]
    others = c.grp_mask[0] & ~rej
    c.grp_mask = [c.grp_mask[0], rej, others]
    c.restrict = 0x6
    c.subs = [(n, [m[0], m[0] & rej, m[0] & others], a) for n, m, a in c.subs]
    c.comment = ("IRQ_REJECTED must not be ORed with the other umasks: with it and another\n"
                 "bit no sub-event is selected.")
    return c


TID_RULE = ("UCM_AT_TID", "UCM_R_FILT_TID", 0, "UCM_FM_EQ", 0, "UCM_R_TID_EN")
NID_RULE = ("UCM_AT_NID", "UCM_R_FILT_NID", 0, "UCM_FM_BIT", 0x40, 0)


def llc_lookup(ev):
    """Table 2-16 and the LLC_LOOKUP NOTE (line 1151): request type x line
    state.  Bit 0 must always be set (group 0, every sub-event); the type
    bits restrict (none set: every type, OTHER is a request of none of the
    three types); the state comes from Cn_MSR_PMON_BOX_FILTER.state, a mask
    with bit 0 = I, 1 = S, 2 = E, 3 = M, 4 = F (Table 2-12, line 1151); NID
    (0x40) filters on the RTID destination node (Cn_MSR_PMON_BOX_FILTER.nid)."""
    c = Code(ev)
    vals = {n: v for n, v, _, _ in ev.umasks}
    assert vals == {"DATA_READ": 0x03, "WRITE": 0x05, "REMOTE_SNOOP": 0x09, "NID": 0x41}, vals
    types = [("DATA_READ", 0x02), ("WRITE", 0x04), ("REMOTE_SNOOP", 0x08), ("OTHER", 0x00)]
    states = ["I", "S", "E", "M", "F"]
    # bit 4 (0x10), which the table leaves out, is every request type
    # (docs/platform-snbep.md R28): libpfm4's and PAPI's :ANY set 0x1F,
    # Intel's v2 list has ANY = 0x11
    for t, bit in types:
        for i, s in enumerate(states):
            c.subs.append(("%s_%s" % (t, s), [0x01, bit | 0x10], {"UCM_AT_STATE": i}))
    c.grp_mask = [0x01, 0x1E]
    c.restrict = 0x2
    c.rules = [("UCM_AT_STATE", "UCM_R_FILT_STATE", 0, "UCM_FM_BIT", 0, 0), NID_RULE]
    c.comment = ("Table 2-16: bit 0 always (group 0); request type bits restrict (group 1),\n"
                 "0x10 selects every type (R28);\n"
                 "the line state is the filter's state mask (bit 0 I, 1 S, 2 E, 3 M, 4 F);\n"
                 "0x40 (NID) applies the filter's nid mask.")
    return c


def tor(ev, opcodes, with_wb):
    """Tables 2-30/2-31: per opcode of Table 2-13 a hit and a miss, plus
    evictions.  Group 0 selects: OPCODE 0x01 (the opcode in
    Cn_MSR_PMON_BOX_FILTER.opc), EVICTION 0x04, ALL 0x08, WB 0x10 (the
    writeback opcodes WbMtoI/WbMtoE, TOR_INSERTS only); group 1 restricts on
    MISS 0x02 (absent: hits and misses); 0x40 applies the nid mask."""
    c = Code(ev)
    vals = {n: v for n, v, _, _ in ev.umasks}
    assert vals["OPCODE"] == 0x01 and vals["EVICTION"] == 0x04 and vals["MISS_OPCODE"] == 0x03
    assert ("WB" in vals) == with_wb
    wb_ops = {"WbMtoI", "WbMtoE"}
    for opc, name, _ in opcodes:
        sel = 0x01 | 0x08 | (0x10 if with_wb and name in wb_ops else 0)
        c.subs.append((name + "_HIT", [sel, 0x00], {"UCM_AT_OPC": opc}))
        c.subs.append((name + "_MISS", [sel, 0x02], {"UCM_AT_OPC": opc}))
    c.subs.append(("EVICTION", [0x04 | 0x08, 0x00], {}))
    c.grp_mask = [0x01 | 0x04 | 0x08 | (0x10 if with_wb else 0), 0x02]
    c.restrict = 0x2
    c.rules = [("UCM_AT_OPC", "UCM_R_FILT_OPC", 0, "UCM_FM_EQ", 0x01, 0), NID_RULE]
    c.comment = ("Tables 2-30/2-31 with the opcodes of Table 2-13: group 0 selects (OPCODE\n"
                 "0x01, EVICTION 0x04, ALL 0x08, WB 0x10), MISS 0x02 restricts, 0x01 applies\n"
                 "the filter's opc, 0x40 its nid mask.")
    return c


def llc_victims(ev):
    """Table 2-17: the state bits (M 0x01, E 0x02, S 0x04, MISS 0x08) and
    NID (0x40, resolved above).  The state bits restrict (group 0: none set
    = every state, so NID alone counts every NID-matched victim); group 1
    (the state bits and NID, matched by every sub-event) requires at least
    one of them, so umask 0 selects nothing."""
    c = plain(ev, [u for u in ev.umasks if u[0] != "NID"])
    nid = [v for n, v, _, _ in ev.umasks if n == "NID"][0]
    assert nid == 0x40
    states = c.grp_mask[0]
    c.grp_mask = [states, states | nid]
    c.restrict = 0x1
    c.subs = [(n, [m[0], states | nid], a) for n, m, a in c.subs]
    c.rules = [NID_RULE]
    c.comment = ("Table 2-17: state bits restrict (group 0); group 1 needs a state bit or\n"
                 "NID; NID (0x40) applies the filter's nid mask.")
    return c


def pcu_occupancy(ev):
    """POWER_STATE_OCCUPANCY (0x80): ev_sel bit 7 asks for an occupancy
    sub-counter, chosen by occ_sel: 01 C0, 10 C3, 11 C6 (Table 2-75; Table
    2-83 writes them as umask b01000000/b10000000/b11000000, bits 7:6 =
    CTL[15:14]).  Sub-event occ_sel-1; at most 8 cores in total."""
    c = Code(ev, ["UCM_EC_OCC"])
    assert [(n, v) for n, v, _, _ in ev.umasks] == [("CORES_C0", 0x40), ("CORES_C3", 0x80),
                                                     ("CORES_C6", 0xC0)]
    c.subs = [(n, [], {}) for n, _, _, _ in ev.umasks]
    return c


def pcu_band(ev, k):
    """FREQ_BANDk_CYCLES: cycles the uncore runs at a frequency >= band k of
    PCU_MSR_PMON_BOX_FILTER (Table 2-77, 100 MHz units, line 2644; the
    definitions, lines 2958-2990).  The frequency is a run-time attribute
    (UCM_AT_FREQ) the workload sets."""
    c = Code(ev)
    assert not ev.umasks
    c.subs = [("CYCLES", [], {})]
    c.rules = [("UCM_AT_FREQ", "UCM_R_FILT_BAND", k, "UCM_FM_GE", 0, 0)]
    return c


def build(events, opcodes, packets):
    codes = {b: [] for b in BOXES}
    for box in BOXES:
        for ev in events[box]:
            key = (box, ev.name)
            if ev.name == "CLOCKTICKS":
                c = clock(ev)
            elif key == ("cbo", "LLC_LOOKUP"):
                c = llc_lookup(ev)
            elif key == ("cbo", "TOR_INSERTS"):
                c = tor(ev, opcodes, True)
            elif key == ("cbo", "TOR_OCCUPANCY"):
                c = tor(ev, opcodes, False)
            elif key == ("cbo", "LLC_VICTIMS"):
                c = llc_victims(ev)
            elif key in (("cbo", "RxR_OCCUPANCY"), ("cbo", "RxR_INSERTS")):
                c = irq_rejected_alone(ev)
            elif key in (("cbo", "RxR_IPQ_RETRY"), ("cbo", "RxR_IRQ_RETRY"),
                         ("cbo", "RxR_ISMQ_RETRY")):
                c = any_superset(ev)
            elif key == ("cbo", "RING_IV_USED"):
                c = ring_iv(ev, ["UP_EVEN", "UP_ODD", "DOWN_EVEN", "DOWN_ODD"])
            elif key in (("r2pcie", "RING_IV_USED"), ("r3qpi", "RING_IV_USED")):
                c = ring_iv(ev, ["CW_EVEN", "CW_ODD", "CCW_EVEN", "CCW_ODD"])
            elif key == ("ha", "REQUESTS"):
                c = exact_encodings(ev, "Table 2-48 gives READS = b00000011 and WRITES = b00001100 only:\n"
                                        "each counts when both of its bits are set.")
            elif key == ("ha", "TRACKER_INSERTS"):
                c = exact_encodings(ev, "Table 2-52 gives only ALL = b00000011: both bits needed.")
            elif key == ("ha", "ADDR_OPC_MATCH"):
                c = addr_opc_match(ev, packets)
            elif key == ("qpi", "CTO_COUNT"):
                c = cto_count(ev, packets)
            elif key == ("pcu", "POWER_STATE_OCCUPANCY"):
                c = pcu_occupancy(ev)
            elif box == "pcu" and ev.name.startswith("FREQ_BAND"):
                c = pcu_band(ev, int(ev.name[len("FREQ_BAND")]))
            else:
                c = plain(ev)
            if box == "cbo" and "UCM_EC_CLOCK" not in c.flags:
                # 2.3.3.3 (line 932): any CBo event may be filtered by TID
                # when the control's tid_en is 1 (not the clock: no thread)
                c.rules.append(TID_RULE)
            codes[box].append(c)
        if box in FIXED:
            name, code, ctr, cite = FIXED[box]
            codes[box].append(Code(None, ["UCM_EC_CLOCK", "UCM_EC_FIXED"], name=name, code=code,
                                   max_inc=1, ctr_mask=1 << ctr, cite=cite))
        names = [c.name for c in codes[box]]
        assert len(set(names)) == len(names), box
        nonfixed = [c.code for c in codes[box] if "UCM_EC_FIXED" not in c.flags]
        assert len(set(nonfixed)) == len(nonfixed), box
    # the clocks the brief lists, checked against the tables
    clocks = {b: [hex(c.code) for c in codes[b] if c.flags == ["UCM_EC_CLOCK"]] for b in BOXES}
    assert clocks == {"ubox": [], "cbo": ["0x0"], "ha": ["0x0"], "imc": [], "pcu": ["0x0"],
                      "qpi": ["0x14"], "r2pcie": ["0x1"], "r3qpi": ["0x1"]}, clocks
    for box in BOXES:
        for c in codes[box]:
            assert len(c.subs) < 256 and len(c.grp_mask) <= 3 and len(c.rules) <= 8  # UCM_MAXRULES
            assert c.max_inc >= 1 and c.ctr_mask
    return codes


def named_events(events, codes, match_events):
    out = []
    for box in BOXES:
        for ev, c in zip(events[box], codes[box]):
            prefix = "UNC_%s_%s" % (PREFIX[box], ev.name)
            if not ev.umasks:
                # three CBo events have no title, definition or description
                # anywhere (REPORT-ubox-cbo-ha-imc.md 3.3)
                desc = ev.desc or "(The guide gives no description of this event.)"
                out.append(dict(name=prefix, alias=None, box=box, code=ev.code, umask=0,
                                desc=desc, cite=ev.cite, bytes=0, dram=0))
                if (box, ev.name) == ("qpi", "CTO_COUNT"):
                    # Table 2-92: CTO_COUNT with the match/mask values given
                    for field, vals, mdesc, mcite in match_events:
                        out.append(dict(name="%s.%s" % (prefix, field), alias=None, box=box,
                                        code=ev.code, umask=0, desc=mdesc,
                                        cite="%s, %s" % (ev.cite, mcite.replace("SNB-EP ", "")),
                                        bytes=0, dram=0, filt=vals))
                continue
            for ext, v, desc, cite in ev.umasks:
                alias, nbytes, dram = ALIASES.get((box, ev.name, ext), (None, 0, 0))
                if not desc:
                    # empty umask descriptions (REPORT-*.md): say so, then
                    # the event's definition
                    desc = "(%s gives no description of %s%s.) %s" % (
                        cite.replace("SNB-EP ", ""), ext, OCC_NAMES.get((box, ev.name, ext), ""),
                        ev.desc)
                out.append(dict(name="%s.%s" % (prefix, ext), alias=alias, box=box, code=ev.code,
                                umask=v, desc=desc,
                                cite="%s, %s" % (ev.cite, cite.replace("SNB-EP ", "")),
                                bytes=nbytes, dram=dram))
        if FIXED_NAMED_EVENTS and box in FIXED:
            name, desc = FIXED_EVENT_NAMES[box]
            out.append(dict(name=name, alias=None, box=box, code=FIXED[box][1], umask=0, desc=desc,
                            cite=FIXED[box][3], bytes=0, dram=0))
    names = [e["name"].lower() for e in out]
    assert len(set(names)) == len(names)
    aliases = [e["alias"] for e in out if e["alias"]]
    assert len(set(aliases)) == len(aliases)
    return out


# ---------------------------------------------------------------------------
# Output


HEADER = """/*
 * %s - GENERATED FILE, DO NOT EDIT.
 *
 * Generated by model/snbep/data/gen_events.py from the transcription of the
 * Xeon E5-2600 uncore guide's event lists (the .tsv files in
 * model/snbep/data/).  To change it, change the generator or the .tsv files
 * and regenerate:
 *     python3 model/snbep/data/gen_events.py
 * (python3 model/snbep/data/gen_events.py --check tells whether it is stale).
%s */
"""


def gen_h(codes, events):
    idx = {b: [c.name for c in codes[b]] for b in FIXED}
    lines = [HEADER % ("ucm_plat_snbep_ev.h",
                       " *\n * Array lengths of the event tables of ucm_plat_snbep_ev.c and the index,\n"
                       " * in its box's code array, of the code each fixed counter counts.\n")]
    lines.append("#ifndef UCM_PLAT_SNBEP_EV_H\n#define UCM_PLAT_SNBEP_EV_H\n\n")
    for b in BOXES:
        lines.append("#define SNBEP_NCODES_%s %d\n" % (b.upper(), len(codes[b])))
    lines.append("\n/* UBox counter 2 (UCLK) and iMC counter 4 (DCLK) */\n")
    for b in FIXED:
        lines.append("#define SNBEP_%s_FIXED_CODE %d\n" % (b.upper(), idx[b].index(FIXED[b][0])))
    lines.append("\n#define SNBEP_NEVENTS %d\n\n#endif\n" % len(events))
    return "".join(lines)


def gen_c(codes, events):
    o = [HEADER % ("ucm_plat_snbep_ev.c",
                   " *\n * Event codes (by-code tables 2-6, 2-14, 2-40, 2-64, 2-81, 2-94, 2-108,\n"
                   " * 2-122), their sub-events, umask groups and filter rules (umask tables\n"
                   " * 2-7 .. 2-141, filter registers 2-12 and 2-77), and the named events.\n")]
    o.append('#include <stddef.h>\n\n#include "ucm_plat_snbep.h"\n\n')
    o.append(attrs_macro())
    o.append(code_tables(BOXES, codes, "snbep", lambda c: c.cite))
    o.append("/* Named events: one per event and umask extension, Intel's Jaketown names\n"
             " * (UNC_<C|H|M|P|Q|R2|R3|U>_<EVENT>[.<EXT>]); umask = the guide's value. */\n")
    for i, e in enumerate(events):
        if e.get("filt"):
            e["f_name"] = "f_%d" % i
            o.append("static const struct ucm_filtval %s[] = {%s };\n" % (
                e["f_name"], ",".join(" { %d, 0x%X }" % kv for kv in sorted(e["filt"].items()))))
    o.append("\n/* filter registers: 0 MATCH0, 1 MATCH1, 2 MASK0, 3 MASK1 */\n"
             if any(e.get("filt") for e in events) else "")
    o.append("const struct ucm_event snbep_events[SNBEP_NEVENTS] = {\n")
    for e in events:
        o.append("\t{ .name = %s, .alias = %s, .box = &snbep_bt_%s,\n"
                 % (cstr(e["name"]), cstr(e["alias"]), e["box"]))
        o.append("\t  .code = 0x%03X, .umask = 0x%02X, .thresh = 0, .bytes = %d, .dram = %d,\n"
                 % (e["code"], e["umask"], e["bytes"], e["dram"]))
        o.append("\t  .cite = %s,\n" % cstr(e["cite"]))
        if e.get("filt"):
            o.append("\t  .nfilt = %d, .filt = %s,\n" % (len(e["filt"]), e["f_name"]))
        o.append("\t  .desc = %s },\n" % cstr(e["desc"]))
    o.append("};\n")
    return "".join(o)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the generated files differ")
    args = ap.parse_args()
    events, opcodes = load()
    codes = build(events, opcodes, load_packets())
    named = named_events(events, codes, load_match_events())
    return write_or_check({OUT_H: gen_h(codes, named), OUT_C: gen_c(codes, named)},
                          args.check, "gen_events.py")


def write_or_check(outs, check, script):
    """Write each {path: text} that differs, or with check only name them
    (exit status 1).  Shared with gen_metrics.py."""
    return _write_or_check(outs, check, "python3 model/snbep/data/%s" % script)


if __name__ == "__main__":
    sys.exit(main())
