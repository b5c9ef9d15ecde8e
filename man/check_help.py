#!/usr/bin/env python3
"""check_help.py UNCORE MANDIR PAGE - a man page against the --help it documents.

The page is the roff scdoc made (MANDIR/PAGE.1, what is installed).  For
uncore-CMD(1): its OPTIONS section holds exactly the options that
`uncore CMD --help` lists, each with the same argument name (`--duration SEC`,
`-h, --help`), and its SYNOPSIS the help's usage line.  A command with
subcommands (trace) has a section "SUB OPTIONS" and a SYNOPSIS line per
subcommand `uncore CMD --help` names, checked against `uncore CMD SUB --help`.
For uncore(1): its COMMANDS are those `uncore --help` lists, each command has
its page in MANDIR, and the options its OPTIONS section says every command
takes are in every command's --help.  Exit 0 when all agree; else every
difference is printed, naming the option and where it is missing, and the
exit is 1.
"""
import os
import re
import subprocess
import sys

errors = []


def fail(msg):
    errors.append(msg)
    print("FAIL: " + msg)


def help_text(uncore, args):
    r = subprocess.run([uncore] + args + ["--help"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: '{' '.join(['uncore'] + args + ['--help'])}' exited {r.returncode}: {r.stderr}")
    return r.stdout


def term(words):
    """(options, argument) of an option term: '-h, --help' -> (('-h', '--help'), '')."""
    opts = tuple(w.rstrip(",") for w in words if w.startswith("-"))
    arg = " ".join(w for w in words if not w.startswith("-"))
    return opts, arg


def help_options(text):
    """{options: argument} of the 'options:' section of a --help page."""
    out = {}
    lines = text.splitlines()
    if "options:" not in lines:
        return None
    for line in lines[lines.index("options:") + 1:]:
        if not line.strip():
            break
        if re.match(r"^  -", line):  # continuation lines are indented further
            opts, arg = term(re.split(r"\s{2,}", line.strip(), maxsplit=1)[0].split())
            out[opts] = arg
    return out


def help_usage(text):
    first = text.splitlines()[0]
    if not first.startswith("usage: "):
        sys.exit(f"FAIL: --help does not start with a usage line: {first!r}")
    return first[len("usage: "):]


def roff_sections(path):
    """{section: [lines]} of a roff page, in order."""
    secs, cur = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line.startswith(".SH "):
                cur = line[4:].strip('"')
                secs[cur] = []
            elif cur is not None:
                secs[cur].append(line)
    return secs


def plain(roff_line):
    return re.sub(r"\\f[BIRP]|\\&", "", roff_line).strip()


def roff_terms(lines):
    """The terms of a definition list: a text line followed by '.RS'."""
    return [lines[i] for i in range(len(lines) - 1)
            if lines[i + 1].startswith(".RS") and not lines[i].startswith(".")]


def man_options(lines):
    out = {}
    for t in roff_terms(lines):
        bold = re.findall(r"\\fB(.*?)\\fR", t)
        ital = re.findall(r"\\fI(.*?)\\fR", t)
        opts = tuple(b for b in bold if b.startswith("-"))
        if opts:
            out[opts] = " ".join(ital)
    return out


def synopsis(lines):
    return [plain(x) for x in lines if x and not x.startswith(".")]


def compare(where_help, where_man, h, m):
    for opts, arg in h.items():
        name = ", ".join(opts) + (" " + arg if arg else "")
        if opts not in m:
            fail(f"{name}: in '{where_help}' but not in {where_man}: document it there")
        elif m[opts] != arg:
            fail(f"{', '.join(opts)}: '{where_help}' calls its argument {arg!r}, {where_man} {m[opts]!r}")
    for opts, arg in m.items():
        if opts not in h:
            fail(f"{', '.join(opts)}: in {where_man} but not in '{where_help}' "
                 f"(an option the command does not have, or misspelt)")


def check_command(uncore, mandir, page, cmd):
    secs = roff_sections(os.path.join(mandir, page + ".1"))
    src = f"man/{page}.1.scd"
    top = help_text(uncore, [cmd])
    opts = help_options(top)
    syn = synopsis(secs.get("SYNOPSIS", []))
    if opts is not None:
        pairs = [([cmd], "OPTIONS")]
    else:
        # subcommands: the '  uncore CMD SUB ...' lines of its --help
        subs = re.findall(rf"^  uncore {cmd} ([a-z]+)", top, re.M)
        if not subs:
            sys.exit(f"FAIL: 'uncore {cmd} --help' lists neither options nor subcommands")
        pairs = [([cmd, s], s.upper() + " OPTIONS") for s in subs]
    wanted = {sec for _, sec in pairs}
    for sec in secs:
        if sec.endswith("OPTIONS") and sec not in wanted:
            fail(f"{src}: section {sec} documents no (sub)command of 'uncore {cmd}' (expected: {', '.join(sorted(wanted))})")
    for args, sec in pairs:
        where = "uncore " + " ".join(args) + " --help"
        text = help_text(uncore, args) if args != [cmd] else top
        if sec not in secs:
            fail(f"{src}: no {sec} section for '{where}'")
            continue
        compare(where, f"{src} ({sec})", help_options(text), man_options(secs[sec]))
        usage = help_usage(text)
        if usage not in syn:
            fail(f"{src}: SYNOPSIS {syn} lacks the usage line of '{where}': {usage!r}")
    n = sum(len(man_options(secs.get(sec, []))) for _, sec in pairs)
    print(f"{page}(1): {n} options in {len(pairs)} section(s) checked against --help")


def check_main(uncore, mandir):
    secs = roff_sections(os.path.join(mandir, "uncore.1"))
    text = help_text(uncore, [])
    lines = text.splitlines()
    if "commands:" not in lines:
        sys.exit("FAIL: 'uncore --help' has no 'commands:' section")
    cmds = set()
    for line in lines[lines.index("commands:") + 1:]:
        if not line.strip():
            break
        m = re.match(r"^  ([a-z]+(?: [a-z]+)?)\b", line)
        if m:
            cmds.add(m.group(1))
    man = set()
    for t in roff_terms(secs.get("COMMANDS", [])):
        b = re.findall(r"\\fB(.*?)\\fR", t)
        if b:
            man.add(b[0])
    for c in sorted(cmds - man):
        fail(f"command '{c}': in 'uncore --help' but not in man/uncore.1.scd (COMMANDS)")
    for c in sorted(man - cmds):
        fail(f"command '{c}': in man/uncore.1.scd (COMMANDS) but not in 'uncore --help'")
    tops = sorted({c.split()[0] for c in cmds})
    for c in tops:
        if not os.path.exists(os.path.join(mandir, f"uncore-{c}.1")):
            fail(f"command '{c}' has no man page uncore-{c}(1) (man/uncore-{c}.1.scd)")
    # what uncore(1) says every command takes
    common = man_options(secs.get("OPTIONS", []))
    if not common:
        fail("man/uncore.1.scd: OPTIONS lists no option")
    for c in tops:
        h = help_options(help_text(uncore, [c]))
        if h is None:  # a command of subcommands: each of them
            subs = re.findall(rf"^  uncore {c} ([a-z]+)", help_text(uncore, [c]), re.M)
            hs = [(f"uncore {c} {s} --help", help_options(help_text(uncore, [c, s]))) for s in subs]
        else:
            hs = [(f"uncore {c} --help", h)]
        for where, opts in hs:
            for o, arg in common.items():
                if opts.get(o) != arg:
                    fail(f"{', '.join(o)}: man/uncore.1.scd says every command takes it, '{where}' does not list it")
    print(f"uncore(1): {len(man)} commands checked against 'uncore --help', {len(common)} common options")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: check_help.py UNCORE MANDIR PAGE")
    uncore, mandir, page = sys.argv[1:]
    if page == "uncore":
        check_main(uncore, mandir)
    elif page.startswith("uncore-"):
        check_command(uncore, mandir, page, page[len("uncore-"):])
    else:
        sys.exit(f"FAIL: {page} is not a page of uncore")
    if errors:
        print(f"{len(errors)} difference(s) between {page}(1) and --help")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
