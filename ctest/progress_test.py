#!/usr/bin/env python3
"""progress_test.py UNCORE - the progress line of long commands.

A command that runs longer than UNCORE_PROGRESS_AFTER seconds (default 2)
draws a progress line on standard error when it is a terminal.  The test
never depends on timing: it sets the threshold to 0 (every command is
"long") or to 1000 s (none is), gives the command a pseudo-terminal from
python's pty module as its standard error, and checks: the line is there
for stat (a workload), stat --trace (a replay) and trace gen, it ends at
100% with a newline, it never reaches standard output or -o's file, never
a stderr that is a pipe, and never a command under the threshold.
"""
import os
import pty
import re
import subprocess

from ct_py import UNCORE, fail, finish, workdir

WORK = workdir("uncore-progress-")


def on_tty(args, after):
    """Run with stderr on a pseudo-terminal: (stdout, what the terminal got, rc)."""
    master, slave = pty.openpty()
    env = dict(os.environ, UNCORE_PROGRESS_AFTER=str(after))
    p = subprocess.Popen([UNCORE] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=slave, env=env)
    os.close(slave)
    tty = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other side closed
            break
        if not chunk:
            break
        tty += chunk
    out = p.stdout.read()
    rc = p.wait()
    os.close(master)
    return out.decode(), tty.decode(errors="replace"), rc


def piped(args, after):
    env = dict(os.environ, UNCORE_PROGRESS_AFTER=str(after))
    p = subprocess.run([UNCORE] + args, capture_output=True, text=True, env=env)
    return p.stdout, p.stderr, p.returncode


def expect_line(what, tty, pattern):
    if not re.search(pattern, tty):
        fail(f"{what}: no progress line matching {pattern!r} on the terminal: {tty[-300:]!r}")
    elif not re.search(pattern + r"\x1b\[K\r?\n", tty):
        fail(f"{what}: the last progress line does not end the line: {tty[-200:]!r}")
    else:
        print(f"{what}: {re.findall(pattern, tty)[-1]}")


trace = os.path.join(WORK, "g.uct")
out, tty, rc = on_tty(["trace", "gen", "stream", "--duration", "0.2", "-o", trace], 0)
if rc:
    fail(f"trace gen: exit {rc}: {tty}")
expect_line("trace gen", tty, r"\[trace gen\] 0\.200 of 0\.200 s generated \(100%\)")

out, tty, rc = on_tty(["stat", "--duration", "0.2", "-x,"], 0)
expect_line("stat", tty, r"\[stat\] 0\.200 of 0\.200 s simulated \(100%\)")
if "[stat]" in out or rc:
    fail(f"stat: exit {rc}, or progress on standard output: {out[:200]!r}")

out, tty, rc = on_tty(["stat", "--trace", trace, "-e", "uclk"], 0)
expect_line("stat --trace", tty, r"\[trace\] 0\.2000\d+ s, 600000000 cycles replayed")

res = os.path.join(WORK, "out.txt")
out, tty, rc = on_tty(["stat", "--duration", "0.1", "-o", res], 0)
with open(res) as f:
    if "[stat]" in f.read():
        fail("stat -o: the progress line went into the output file")

# redirected: never, however long
for args in (["stat", "--duration", "0.1"], ["trace", "gen", "idle", "--duration", "0.1", "-o", trace]):
    out, err, rc = piped(args, 0)
    if "[stat]" in err + out or "[trace" in err + out or "\x1b[K" in err + out:
        fail(f"{' '.join(args)}: progress in redirected output: {err[-200:]!r}")

# on a terminal, but quicker than the threshold: none
for args in (["stat", "--duration", "0.1"], ["trace", "gen", "idle", "--duration", "0.1", "-o", trace]):
    out, tty, rc = on_tty(args, 1000)
    if "[stat]" in tty or "[trace" in tty:
        fail(f"{' '.join(args)}: progress before the threshold: {tty[-200:]!r}")

finish()
