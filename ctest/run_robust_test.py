#!/usr/bin/env python3
"""run_robust_test.py UNCORE CASE - hostile programs under `uncore run`
(issue 34, docs/tools.md "Hostile programs").

No program may freeze or kill the machine it runs on: a client that writes
without reading, descriptor exhaustion, a program that closes or replaces
the library's connections, blocks the signals its CPUID needs, a signal
early in the run or to a shell whose child sleeps, a process the library
cannot reach, a run killed with SIGKILL, an odd TMPDIR.  Every run has a
bound on its time: a hang fails the case, it never hangs CTest.  The
programs are ct_robust (CT_ROBUST) and the statically linked ct_static
(CT_STATIC).  CPUID's display model tells the machine's answer (ivt: 62,
Intel SDM Vol. 2A, CPUID leaf 1; docs/platform-ivt.md) from the host's.
"""
import json
import os
import pty
import re
import select
import signal
import subprocess
import time

from ct_py import CASE, UNCORE, fail, finish, workdir

WORK = workdir("uncore-robust-")
ROBUST = os.environ.get("CT_ROBUST", "")
STATIC = os.environ.get("CT_STATIC", "")
IVT_MODEL = 62
BOUND = 120   # seconds any one run may take before it counts as hung


def env_with(**kw):
    e = dict(os.environ)
    for k, v in kw.items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    return e


def run(argv, platform="ivt", env=None, report=None, bound=BOUND, cwd=None, pre=(), preexec=None):
    """uncore run argv; (returncode, stdout, stderr, report or None), or
    None when it did not end within bound (the case then fails)."""
    cmd = [*pre, UNCORE, "run", "--platform", platform]
    if report:
        cmd += ["--report-json", report]
    cmd += ["--", *argv]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=bound, cwd=cwd,
                           preexec_fn=preexec)
    except subprocess.TimeoutExpired as e:
        fail(f"{' '.join(argv)}: still running after {bound} s (hung); stderr {str(e.stderr)[-500:]!r}")
        return None
    if re.search(r"AddressSanitizer|LeakSanitizer|runtime error:", p.stderr):
        fail(f"sanitizer report from {' '.join(cmd)}:\n{p.stderr}")
    rep = None
    if report and os.path.exists(report):
        with open(report) as f:
            rep = json.load(f)
    return p.returncode, p.stdout, p.stderr, rep


def start(argv, env, platform="skl"):
    """uncore run argv in the background, its output in files."""
    out = open(os.path.join(WORK, "out"), "w+")
    err = open(os.path.join(WORK, "err"), "w+")
    p = subprocess.Popen([UNCORE, "run", "--platform", platform, "--", *argv], stdout=out, stderr=err,
                         env=env)
    return p, out, err


def wait_for(path, text, bound=60):
    end = time.monotonic() + bound
    while time.monotonic() < end:
        with open(path) as f:
            if text in f.read():
                return True
        time.sleep(0.02)
    fail(f"{text!r} never appeared in {path}")
    return False


def wait_sleeping(top, cmdline=b"sleep\x0030000\x00", bound=60):
    """Wait until a descendant of process top runs cmdline: a signal sent
    before the shell's fork of its child would reach the shell alone, on a
    terminal as here."""
    end = time.monotonic() + bound
    while time.monotonic() < end:
        parent = {}
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open(f"/proc/{d}/stat") as f:
                    parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    if f.read() != cmdline:
                        parent.pop(int(d))
            except (OSError, IndexError, ValueError):
                parent.pop(int(d), None)
        for pid, pp in parent.items():
            for _ in range(8):
                if pp == top:
                    time.sleep(0.1)
                    return True
                try:
                    with open(f"/proc/{pp}/stat") as f:
                        pp = int(f.read().rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    break
        time.sleep(0.02)
    fail(f"no {cmdline!r} under process {top} after {bound} s")
    return False


def finish_run(p, bound=BOUND):
    try:
        return p.wait(timeout=bound)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        return None


def trees(d):
    return sorted(n for n in os.listdir(d) if n.startswith("uncore-run."))


# ---- a client that writes without reading ----

def flood():
    """A program that sends requests and never reads the answers: the server
    sends without blocking, closes that connection once its answers stop
    being read, says so on stderr and in the report, and the run fails (1);
    another process of the run is served meanwhile."""
    rep = os.path.join(WORK, "r.json")
    r = run(["sh", "-c", f'"{ROBUST}" flood & "{ROBUST}" hold 2 4; wait'], report=rep)
    if not r:
        return
    rc, out, err, j = r
    if "flood: the server closed the connection after" not in out:
        fail(f"the flooding program was not cut off: {out!r}")
    if "hold: statuses 0 0" not in out:
        fail(f"another process was not served during the flood: {out!r}")
    m = re.search(r"process (\d+) \(thread \d+\) sent requests without reading the answers", err)
    if not m:
        fail(f"no message naming the flooding process on stderr: {err[-800:]!r}")
    if rc != 1:
        fail(f"exit {rc}, want 1 (a connection had to be dropped)")
    drops = (j or {}).get("dropped_connections", [])
    if not m or [d.get("pid") for d in drops] != [int(m.group(1))]:
        fail(f"the report's dropped_connections is {drops!r}, want the flooding process")


# ---- descriptor exhaustion ----

def fd_exhaustion():
    """The server's descriptors run out (ulimit -n 96, three processes of 40
    threads each, every thread with a connection, all at once): a
    connection past the limit is refused with a message naming the limit,
    that process ends (125) and the run ends; today's server spun forever."""
    r = run([ROBUST, "hold", "3", "40"], platform="skl", pre=["bash", "-c", 'ulimit -n 96 && exec "$@"', "limit"])
    if not r:
        return
    rc, out, err, _ = r
    m = re.search(r"hold: statuses (\d+) (\d+) (\d+)", out)
    if not m or "125" not in m.groups():
        fail(f"no process was refused: {out!r} {err[-800:]!r}")
    if "the machine server refused the connection: it has as many descriptors open as its limit (RLIMIT_NOFILE 96) allows" not in err:
        fail(f"the refused process does not say why: {err[-800:]!r}")
    if "refused" not in err or "uncore: error: run:" not in err:
        fail(f"uncore run does not say it refused connections: {err[-800:]!r}")
    if rc == 0:
        fail("the run succeeded although connections were refused")


# ---- the library's connections ----

def conn_survives():
    """close_range, closefrom, syscall(SYS_close_range), dup2 and dup3 over
    the library's connections (this thread's and another's): both threads
    are still served by the machine afterwards."""
    for mode in ("close_range", "closefrom", "syscall", "dup2", "dup3"):
        r = run([ROBUST, "conn", mode])
        if not r:
            continue
        rc, out, err, _ = r
        want = f"conn {mode}: model {IVT_MODEL}, the other thread's {IVT_MODEL}"
        if rc or want not in out:
            fail(f"conn {mode}: exit {rc}, {out!r}, want {want!r}; {err[-500:]!r}")


def raw_close_blamed():
    """A close_range made with the syscall instruction passes no library:
    the connection is gone, and the message blames the program, not the
    server."""
    r = run([ROBUST, "conn", "raw"])
    if not r:
        return
    rc, out, err, _ = r
    if rc != 125 or "was closed or replaced by the program, not through close() (request" not in err:
        fail(f"raw close_range: exit {rc}, {err[-500:]!r}")
    if "stopped answering" in err or "did `uncore run` end?" in err:
        fail(f"raw close_range: blames the server: {err[-500:]!r}")


# ---- blocked signals and CPUID ----

def blocked_signals_cpuid():
    """SIGILL and SIGSEGV blocked (sigprocmask, pthread_sigmask, the raw
    rt_sigprocmask, a handler's sa_mask, every signal blocked by whoever
    started uncore run, a thread created with them blocked), ignored or handled by the program: CPUID and RDTSC
    still get the machine's answer, and the program sees the mask it set."""
    def block_all():
        signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())

    for mode in ("procmask", "pthread_mask", "raw_mask", "inherited", "thread", "ign", "handler", "in_handler"):
        r = run([ROBUST, "sigcpuid", mode], preexec=block_all if mode == "inherited" else None)
        if not r:
            continue
        rc, out, err, _ = r
        name = "in_thread" if mode == "thread" else mode
        if rc:
            fail(f"sigcpuid {mode}: exit {rc} (SIGILL is 132): {out!r} {err[-500:]!r}")
            continue
        mask = "blocked" if mode in ("procmask", "pthread_mask", "raw_mask", "inherited", "thread") else "unblocked"
        want = (f"sigcpuid {name}: model {IVT_MODEL}, rdtsc advances, SIGILL {mask}, SIGSEGV {mask}, "
                "handler not called")
        if want not in out:
            fail(f"sigcpuid {mode}: {out!r}, want {want!r}")
        if mode == "in_handler" and f"sigcpuid in_handler: model {IVT_MODEL}" not in out:
            fail(f"CPUID in a handler that blocks every signal: {out!r}")


# ---- signals ----

def early_signals():
    """SIGINT or SIGTERM in the first second of a run, at 0.02 .. 1 s
    after the start: the run ends at once with 128 + the signal (or,
    before uncore's main, by the signal itself), the program's shell does
    not go on, and no machine tree is left."""
    tmp = os.path.join(WORK, "early")
    os.mkdir(tmp)
    for sig in (signal.SIGINT, signal.SIGTERM):
        for delay in (0.02, 0.05, 0.1, 0.2, 0.4, 1.0):
            p, out, _ = start(["bash", "-c", "sleep 30000; echo after"], env_with(TMPDIR=tmp))
            time.sleep(delay)
            p.send_signal(sig)
            rc = finish_run(p, 60)
            out.seek(0)
            what = f"{sig.name} at {delay} s"
            if rc is None:
                fail(f"{what}: the run did not end within 60 s")
            elif rc not in (128 + sig, -sig):
                fail(f"{what}: exit {rc}, want {128 + sig}")
            if "after" in out.read():
                fail(f"{what}: the shell went on after its sleep")
            if trees(tmp):
                fail(f"{what}: left {trees(tmp)} in TMPDIR")
                for t in trees(tmp):
                    subprocess.run(["rm", "-rf", os.path.join(tmp, t)])


def shell_child_signal():
    """SIGINT or SIGTERM to uncore run reaches the program as a terminal's
    reaches its foreground process group: bash's child sleep ends too, so
    `bash -c 'sleep 30000; echo after'` stops at once."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        p, out, _ = start(["bash", "-c", "echo started; sleep 30000; echo after"], None)
        if not wait_for(out.name, "started") or not wait_sleeping(p.pid):
            p.kill()
            p.wait()
            continue
        p.send_signal(sig)
        rc = finish_run(p, 30)
        out.seek(0)
        if rc != 128 + sig:
            fail(f"{sig.name}: exit {rc}, want {128 + sig} within 30 s")
        if "after" in out.read():
            fail(f"{sig.name}: the shell went on after its sleep")


def terminal():
    """In a terminal's foreground the program stays in the run's process
    group: it reads the terminal (a background group would be stopped by
    SIGTTIN), Ctrl-C there reaches it and the run (130 at once, not after
    a long simulated sleep), and a SIGINT sent to uncore run reaches the
    shell's child too."""
    for what, keys, script, want_rc, want in (
            ("a read", b"hello\n", "read x; echo got $x", 0, b"got hello"),
            ("Ctrl-C", b"\x03", "echo ready; sleep 30000; echo after", 130, b"ready"),
            ("kill -INT", None, "echo ready; sleep 30000; echo after", 130, b"ready")):
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(UNCORE, [UNCORE, "run", "--platform", "skl", "--", "bash", "-c", script])
        out, end = b"", time.monotonic() + 60
        sent = False
        status = None
        while time.monotonic() < end:
            r, _, _ = select.select([fd], [], [], 0.2)
            if r:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    data = b""
                out += data
            if not sent and (what == "a read" or b"ready" in out):
                if what == "a read":
                    time.sleep(0.3)
                else:
                    wait_sleeping(pid)
                if keys:
                    os.write(fd, keys)
                else:
                    os.kill(pid, signal.SIGINT)
                sent = True
            w, st = os.waitpid(pid, os.WNOHANG)
            if w == pid:
                status = os.waitstatus_to_exitcode(st)
                break
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            fail(f"on a terminal, {what}: still running after 60 s: {out[-300:]!r}")
        elif status != want_rc or want not in out or b"after" in out:
            fail(f"on a terminal, {what}: exit {status}, {out[-300:]!r}, want {want_rc} and {want!r}")
        os.close(fd)


# ---- processes the library cannot reach ----

def never_reaches():
    """A statically linked helper started by the program is not run on the
    host: its exec fails naming it, the report and stderr say so, the run
    fails.  A relative UNCORE_RUN_LIB still reaches a program that changed
    directory."""
    rep = os.path.join(WORK, "r.json")
    r = run(["sh", "-c", f'"{STATIC}"; echo "helper status $?"'], platform="skl", report=rep)
    if r:
        rc, out, err, j = r
        if "ct_static ran" in out:
            fail(f"the statically linked helper ran on the host: {out!r}")
        if f"{STATIC} is statically linked" not in err:
            fail(f"no message naming the static helper: {err[-800:]!r}")
        if "helper status 126" not in out:
            fail(f"the helper's exec did not fail as a program that cannot run (126): {out!r}")
        if rc == 0:
            fail("the run succeeded although a process could not be reached")
        if [u.get("path") for u in (j or {}).get("unreached", [])] != [STATIC]:
            fail(f"the report's unreached is {(j or {}).get('unreached')!r}, want [{STATIC!r}]")
    lib = os.environ.get("UNCORE_RUN_LIB") or os.path.join(os.path.dirname(UNCORE), "..", "run", "preload",
                                                           "libuncore-run.so")
    lib = os.path.realpath(lib)
    rel = os.path.relpath(lib, WORK)
    # the dynamic loader run as a program (ldd) has no PT_INTERP either, but
    # reads LD_PRELOAD: not refused
    r = run(["ldd", ROBUST], platform="skl")
    if r and (r[0] or "libc.so.6" not in r[1]):
        fail(f"ldd under uncore run: exit {r[0]}, {r[1]!r} {r[2][-300:]!r}")
    r = run(["sh", "-c", f'cd / && exec "{ROBUST}" sigcpuid ign'], env=env_with(UNCORE_RUN_LIB=rel), cwd=WORK)
    if r:
        rc, out, err, _ = r
        if rc or f"model {IVT_MODEL}," not in out:
            fail(f"relative UNCORE_RUN_LIB={rel}, program in /: exit {rc}, {out!r} {err[-500:]!r}")


# ---- stale trees ----

def stale_trees():
    """A run killed with SIGKILL leaves its tree; the next run removes it.
    Only trees whose run provably ended (its lock is free): not a live
    run's, not another user's, not through a symbolic link."""
    tmp = os.path.join(WORK, "stale")
    os.mkdir(tmp)
    e = env_with(TMPDIR=tmp)
    p, out, _ = start(["sh", "-c", "echo started; exec sleep 100000"], e)
    if not wait_for(out.name, "started"):
        p.kill()
        return
    p.kill()
    p.wait()
    stale = trees(tmp)
    if len(stale) != 1:
        fail(f"after SIGKILL: {stale}, want the killed run's tree")
    # a live run's tree
    live = subprocess.Popen([UNCORE, "run", "--platform", "skl", "--", "sh", "-c", "echo live; exec sleep 100000"],
                            stdout=subprocess.PIPE, text=True, env=e)
    live.stdout.readline()
    live_tree = [t for t in trees(tmp) if t not in stale]
    # a link to a directory of ours, and another user's tree
    victim = os.path.join(WORK, "victim")
    os.mkdir(victim)
    open(os.path.join(victim, "lock"), "w").close()
    open(os.path.join(victim, "keep"), "w").close()
    os.symlink(victim, os.path.join(tmp, "uncore-run.link00"))
    other = os.path.join(tmp, "uncore-run.other0")
    os.mkdir(other, 0o700)
    open(os.path.join(other, "lock"), "w").close()
    os.chown(os.path.join(other, "lock"), 12345, 12345)
    os.chown(other, 12345, 12345)
    r = run(["true"], platform="skl", env=e)
    left = trees(tmp)
    if r and r[0]:
        fail(f"the next run: exit {r[0]}, {r[2][-500:]!r}")
    for t in stale:
        if t in left:
            fail(f"the killed run's tree {t} is still there after the next run")
    for t in live_tree + ["uncore-run.link00", "uncore-run.other0"]:
        if t not in left:
            fail(f"{t} was removed: not provably stale")
    if not os.path.exists(os.path.join(victim, "keep")):
        fail("a file behind a symbolic link was removed")
    live.send_signal(signal.SIGINT)
    if finish_run(live, 30) != 130:
        fail("the live run did not end with 130 on SIGINT after the cleaning")
    os.unlink(os.path.join(tmp, "uncore-run.link00"))
    subprocess.run(["rm", "-rf", other])
    if trees(tmp):
        fail(f"left in TMPDIR: {trees(tmp)}")


# ---- TMPDIR ----

def tmpdir():
    """An empty or relative TMPDIR is ignored (the tree goes where it would
    without it); one that does not exist is an error naming TMPDIR (2)."""
    for what, val in (("empty", ""), ("relative", "rel/dir"), ("unset", None)):
        r = run(["sh", "-c", 'echo "$UNCORE_RUN_ROOT"; cat /sys/devices/system/cpu/online'],
                env=env_with(TMPDIR=val, XDG_RUNTIME_DIR=None))
        if not r:
            continue
        rc, out, err, _ = r
        lines = out.split()
        if rc or len(lines) != 2 or lines[1] != "0-23" or not re.match(r"/(dev/shm|tmp)/uncore-run\.", lines[0]):
            fail(f"TMPDIR {what}: exit {rc}, {out!r} {err[-300:]!r}")
    r = run(["true"], env=env_with(TMPDIR="/nonexistent-uncore-tmp"))
    if r:
        rc, out, err, _ = r
        if rc != 2 or "TMPDIR /nonexistent-uncore-tmp:" not in err:
            fail(f"a missing TMPDIR: exit {rc}, {err!r}, want 2 and a message naming TMPDIR")


CASES = {f.__name__: f for f in (flood, fd_exhaustion, conn_survives, raw_close_blamed, blocked_signals_cpuid,
                                 early_signals, shell_child_signal, terminal, never_reaches, stale_trees, tmpdir)}

if __name__ == "__main__":
    if not ROBUST or not STATIC:
        fail("CT_ROBUST and CT_STATIC must name ct_robust and ct_static (CTest sets them)")
        finish()
    if CASE not in CASES:
        fail(f"unknown case {CASE!r}")
        finish()
    CASES[CASE]()
    finish()
