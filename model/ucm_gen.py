"""ucm_gen.py - what the platforms' event-table generators share
(model/*/data/gen_events.py, gen_metrics.py): C string and identifier
quoting, the ATTRS() attribute order, the emission of the event-code tables
(sub-events, attributes, filter rules, struct ucm_evcode arrays) from
generator-neutral code records, and writing or checking generated files.

A code record has: name, code, max_inc, ctr_mask, grp_mask (list), restrict,
subs [(name, [match per group], {attr: value})], rules [(attr, role, arg,
how, umask_bits, ctl_role)], flags (list), comment (str or None).
"""
import os
import sys

ATTR_ORDER = ("UCM_AT_STATE", "UCM_AT_OPC", "UCM_AT_NID", "UCM_AT_TID", "UCM_AT_FREQ",
              "UCM_AT_MC", "UCM_AT_VNW", "UCM_AT_DNID", "UCM_AT_RNID", "UCM_AT_RDS", "UCM_AT_ADDR")


def cstr(s):
    if s is None:
        return "NULL"
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def ident(s):
    return "".join(ch if ch.isalnum() else "_" for ch in s).lower()


def attr_arg(a):
    return a[len("UCM_AT_"):].lower()


def attrs_macro():
    """The NA/ATTRS() preamble of a generated event file."""
    return ("/* Static attributes of a sub-event (NA: none; the workload may set any),\n"
            " * in enum ucm_attr order */\n"
            "#define NA UCM_ATTR_NONE\n"
            "_Static_assert(UCM_NATTR == %d, \"ATTRS() lists every attribute\");\n"
            "#define ATTRS(%s) \\\n\t{ { %s } }\n\n"
            % (len(ATTR_ORDER), ", ".join(attr_arg(a) for a in ATTR_ORDER),
               ", ".join("(%s)" % attr_arg(a) for a in ATTR_ORDER)))


def comment_block(text):
    assert "/*" not in text and "*/" not in text
    return "/* " + text.replace("\n", "\n * ") + " */\n"


def code_tables(boxes, codes, sym, cite_of):
    """The shared filter-rule arrays, the per-code sub-event and attribute
    arrays, and the `<sym>_codes_<box>[<SYM>_NCODES_<BOX>]` arrays."""
    rule_sets = {}
    body = []
    for b in boxes:
        body.append("/* ---- %s ---- */\n\n" % b)
        for c in codes[b]:
            base = "%s_%s_%x" % (b, ident(c.name), c.code)
            c.s_name = c.a_name = c.r_name = "NULL"
            if c.comment:
                body.append(comment_block("%s %s: %s" % (b, c.name, c.comment)))
            if c.subs:
                c.s_name = "s_" + base
                body.append("static const struct ucm_subev %s[] = {\n" % c.s_name)
                for n, m, _ in c.subs:
                    mm = (list(m) + [0, 0, 0])[:3]
                    body.append('\t{ %s, { 0x%02X, 0x%02X, 0x%02X } },\n' % (cstr(n), mm[0], mm[1], mm[2]))
                body.append("};\n")
                if any(a for _, _, a in c.subs):
                    c.a_name = "a_" + base
                    body.append("static const struct ucm_subattr %s[] = {\n" % c.a_name)
                    for n, _, a in c.subs:
                        vals = ["0x%X" % a[at] if at in a else "NA" for at in ATTR_ORDER]
                        body.append("\tATTRS(%s), /* %s */\n" % (", ".join(vals), n))
                    body.append("};\n")
                body.append("\n")
            if c.rules:
                key = tuple(c.rules)
                if key not in rule_sets:
                    rule_sets[key] = "r_%d" % len(rule_sets)
                c.r_name = rule_sets[key]
    o = []
    if rule_sets:
        o.append("/* Filter rules: attribute, filter field role and .arg, comparison, umask\n"
                 " * bits that enable the rule (0: always), control field that must be 1. */\n")
        for key, name in rule_sets.items():
            o.append("static const struct ucm_filtrule %s[] = {\n" % name)
            for at, role, arg, how, ub, ctl in key:
                o.append("\t{ %s, %s, %d, %s, 0x%02X, %s },\n" % (at, role, arg, how, ub, ctl))
            o.append("};\n")
        o.append("\n")
    o.extend(body)
    for b in boxes:
        o.append("const struct ucm_evcode %s_codes_%s[%s_NCODES_%s] = {\n" % (sym, b, sym.upper(), b.upper()))
        for c in codes[b]:
            gm = (list(c.grp_mask) + [0, 0, 0])[:3]
            flags = " | ".join(c.flags) if c.flags else "0"
            o.append("\t{ .code = 0x%03X, .name = %s, .max_inc = %d, .ctr_mask = 0x%X,\n"
                     % (c.code, cstr(c.name), c.max_inc, c.ctr_mask))
            o.append("\t  .ngrp = %d, .grp_mask = { 0x%02X, 0x%02X, 0x%02X }, .grp_restrict = 0x%X,\n"
                     % (len(c.grp_mask), gm[0], gm[1], gm[2], c.restrict))
            o.append("\t  .nsubs = %d, .subs = %s, .flags = %s,\n" % (len(c.subs), c.s_name, flags))
            o.append("\t  .nrules = %d, .rules = %s, .attrs = %s, .cite = %s },\n"
                     % (len(c.rules), c.r_name, c.a_name, cstr(cite_of(c))))
        o.append("};\n\n")
    return "".join(o)


def write_or_check(outs, check, rerun):
    """Write each {path: text} that differs, or with check only name them
    (exit status 1); rerun: the command that regenerates them."""
    stale = []
    for path, text in outs.items():
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old == text:
            continue
        if check:
            stale.append(path)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
    if stale:
        print("stale: " + ", ".join(stale) + " (run %s)" % rerun, file=sys.stderr)
        return 1
    return 0
