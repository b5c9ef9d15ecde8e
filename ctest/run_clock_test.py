#!/usr/bin/env python3
"""run_clock_test.py UNCORE CASE - the machine's clock under `uncore run` is
machine time everywhere, and nothing stops it (issue #34 item 2;
docs/tools.md, "One clock").

Every timeout a program can set ends when machine time reaches it, not the
host's clock: the cases of ct_waits (a program of ours, CT_WAITS) first
sleep 30 s of machine time, so that a wait the host's kernel timed would
last 30 s of real time longer, and each is bounded in real time (REAL_S): a
timeout taken on the host's clock makes the case fail by running out, as it
did before.  What each wait measured on the machine's clock is compared
with what POSIX and Linux specify for it (the timeout, or the time at which
another thread ends the wait).  Tools nobody here wrote do the same:
timeout(1) (a timer_create timer), bash's `read -t` (pselect), and a sleep
longer than a day, which ended at exactly 86,400 s before.  A thread that
spins beside a sleeper no longer holds the clock: the sleep ends at its
deadline.
"""
import json
import os
import subprocess
import sys

from ct_py import CASE, UNCORE, fail, finish, need, workdir, main

WORK = workdir("uncore-clock-")
WAITS = os.environ.get("CT_WAITS", "")
REAL_S = 25  # each run's bound in real time (a host-timed wait adds 30 s)

# What each ct_waits case must print: name -> (low, high).  Times are
# machine seconds from the start of the wait to its end; the upper bounds
# leave room for the clock reads and the register costs of the run (a few
# ms) and, where a thread runs beside the waiter, for real time passing.
EXACT = 0.02
WANT = {
    "cond_realtime": {"timedout_rc": (1, 1), "timedout_s": (1.0, 1.0 + EXACT),
                      "signalled_rc": (0, 0), "signalled_s": (0.5, 0.5 + EXACT)},
    "cond_monotonic": {"timedout_rc": (1, 1), "timedout_s": (1.0, 1.0 + EXACT),
                       "signalled_rc": (0, 0), "signalled_s": (0.5, 0.5 + EXACT)},
    "locks": {"mutex_rc": (1, 1), "mutex_s": (1.0, 1.0 + EXACT),
              # the holder lets go 3 s after it took the lock, 1 ms before
              # the first wait began
              "mutex_clock_rc": (0, 0), "mutex_clock_s": (1.999 - EXACT, 1.999 + EXACT),
              "rwlock_rc": (1, 1), "rwlock_s": (0.75, 0.75 + EXACT),
              "sem_rc": (1, 1), "sem_s": (1.25, 1.25 + EXACT),
              "sem_post_rc": (0, 0), "sem_post_s": (0.5, 0.5 + EXACT),
              "join_rc": (1, 1), "join_s": (1.0, 1.0 + EXACT),
              "join_later_rc": (0, 0), "join_later_s": (2.0, 2.0 + EXACT)},
    "fds": {"select_rc": (0, 0), "select_s": (1.5, 1.5 + EXACT), "select_set": (0, 0), "select_left": (0, 0),
            "pselect_rc": (0, 0), "pselect_s": (0.75, 0.75 + EXACT),
            "epoll_rc": (0, 0), "epoll_s": (1.25, 1.25 + EXACT),
            "epoll_ready_rc": (1, 1), "epoll_ready_s": (0.5, 0.5 + EXACT),
            "select_ready_rc": (1, 1), "select_ready_s": (0.5, 0.5 + EXACT),
            "poll_rc": (0, 0), "poll_s": (0.6, 0.6 + EXACT)},
    "signals": {"sigtimedwait_rc": (1, 1), "sigtimedwait_s": (1.0, 1.0 + EXACT)},
    # alarm(2) returns what was left of alarm(5) (Linux rounds to the
    # second); ITIMER_REAL every 100 ms: 10 signals in 1 s
    "alarm": {"alarm_first": (0, 0), "alarm_left": (5, 5), "alarm_s": (2.0, 2.0 + EXACT),
              "alarm_signals": (1, 1), "itimer_s": (1.0, 1.0 + EXACT), "itimer_interval": (0.1, 0.1),
              "itimer_off": (0, 0)},
    # a one-shot 0.5 s timer with SIGRTMIN and value 42 (si_code SI_TIMER);
    # an absolute one 2 s ahead on CLOCK_REALTIME; SIGEV_THREAD every
    # 250 ms for 1.1 s: 4 calls; timeout(1)'s timer without a sigevent
    "timers": {"timer_armed": (0.5 - EXACT, 0.5), "timer_s": (0.5, 0.5 + EXACT), "timer_sig": (1, 1),
               "timer_code": (1, 1), "timer_value": (42, 42), "timer_after": (0, 0),
               "timer_abs_s": (2.0 - EXACT, 2.0 + EXACT), "thread_calls": (4, 4),
               "timer_alarm_s": (1.0, 1.0 + EXACT)},
    # real time passes while the other thread spins: at least the sleep,
    # at most the run's real time
    "spin": {"spin_sleep_s": (0.2, REAL_S)},
    "child_poll": {"child_status": (7, 7), "child_s": (0.3, REAL_S)},
}


def run(argv, extra=(), stdin=None):
    """`uncore run [extra] -- argv` bounded by REAL_S; (stdout, report)."""
    rep_path = os.path.join(WORK, "report.json")
    if os.path.exists(rep_path):
        os.unlink(rep_path)
    cmd = [UNCORE, "run", *extra, "--report-json", rep_path, "--", *argv]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=REAL_S, stdin=stdin)
    except subprocess.TimeoutExpired:
        fail(f"{' '.join(argv)}: still running after {REAL_S} s of real time (a wait timed on the host's clock, or a clock that stopped)")
        finish()
    rep = {}
    if os.path.exists(rep_path):
        with open(rep_path) as f:
            rep = json.load(f)
    else:
        fail(f"{' '.join(cmd)}: no report\n{p.stderr[-1500:]}")
    return p, rep


def waits_case(name):
    if not WAITS or not os.access(WAITS, os.X_OK):
        fail(f"CT_WAITS is not set to the ct_waits program ({WAITS!r})")
        finish()
    p, _ = run([WAITS, name])
    if p.returncode != 0:
        fail(f"ct_waits {name}: exit {p.returncode}\n{p.stdout}\n{p.stderr[-1500:]}")
    got = {}
    for line in p.stdout.splitlines():
        k, _, v = line.partition(" ")
        got[k] = float(v)
    for k, (lo, hi) in WANT[name].items():
        if k not in got:
            fail(f"{name}: {k} not printed\n{p.stdout}\n{p.stderr[-1500:]}")
        elif not lo - 1e-6 <= got[k] <= hi + 1e-6:
            fail(f"{name}: {k} = {got[k]}, want {lo} .. {hi}")


def timeout_cmd():
    need("timeout", "coreutils")
    # timeout(1) arms a timer_create timer (SIGALRM) and waits in
    # sigsuspend; its child sleeps 10 s: at 5 s of machine time the child
    # is killed and timeout exits 124
    p, rep = run(["timeout", "5", "sleep", "10"])
    if p.returncode != 124:
        fail(f"timeout 5 sleep 10: exit {p.returncode}, want 124 (the timer expired)\n{p.stderr[-800:]}")
    t = rep.get("machine_ns", 0) / 1e9
    if not 5.0 <= t <= 5.0 + EXACT:
        fail(f"timeout 5 sleep 10: machine time {t} s, want 5 s")
    if rep.get("timers_fired") != 1:
        fail(f"timeout 5 sleep 10: timers fired {rep.get('timers_fired')}, want 1")


def read_t():
    need("bash", "bash")
    # bash's read -t waits in pselect; its input never comes
    script = "sleep 30; t0=$(date +%s%N); read -t 2 x; rc=$?; t1=$(date +%s%N); echo $rc $((t1 - t0))"
    # a pipe whose writer stays open and silent
    r, w = os.pipe()
    try:
        p, _ = run(["bash", "-c", script], stdin=r)
    finally:
        os.close(r)
        os.close(w)
    parts = p.stdout.split()
    if len(parts) != 2:
        fail(f"read -t: output {p.stdout!r} {p.stderr[-800:]!r}")
        return
    rc, ns = int(parts[0]), int(parts[1])
    if rc <= 128:
        fail(f"read -t 2: status {rc}, want > 128 (timed out)")
    # from before the read to after it: the read's 2 s, date's own start
    # holds no time; bash takes its deadline from gettimeofday, whose
    # microseconds truncate up to 999 ns of date's nanoseconds
    if not 2.0 - 1e-6 <= ns / 1e9 <= 2.0 + EXACT:
        fail(f"read -t 2: {ns / 1e9} s of machine time, want 2")


def long_sleep():
    need("sleep", "coreutils")
    # a trace that ends at once leaves the machine idle: a day of machine
    # time costs little real time
    trace = os.path.join(WORK, "idle.trace")
    with open(trace, "w") as f:
        f.write("uncore-trace 2\nplatform skl\nrun 1000:\n")
    # more than a day: it ended at exactly 86,400 s before
    p, rep = run(["sleep", "90000.5"], extra=("--trace", trace))
    if p.returncode:
        fail(f"sleep 90000.5: exit {p.returncode}\n{p.stderr[-800:]}")
    t = rep.get("machine_ns", 0) / 1e9
    if not 90000.5 <= t <= 90000.5 + EXACT:
        fail(f"sleep 90000.5: machine time {t} s, want 90000.5")


def spin_shell():
    need("bash", "bash")
    # a shell's background loop spins while the shell sleeps 1 s: the sleep
    # ends at its deadline (it never did: the spinner held the clock)
    script = "while :; do :; done & s=$(date +%s%N); sleep 1; e=$(date +%s%N); kill $!; echo $((e - s))"
    p, rep = run(["bash", "-c", script])
    out = p.stdout.split()
    if p.returncode or len(out) != 1:
        fail(f"spin beside sleep: exit {p.returncode} output {p.stdout!r}\n{p.stderr[-800:]}")
        return
    t = int(out[0]) / 1e9
    if not 1.0 <= t <= REAL_S:
        fail(f"spin beside sleep: {t} s between the dates, want at least 1")


def outside_signal():
    need("bash", "bash")
    # a SIGINT sent to the program's process group by another process (not
    # through `uncore run` or a terminal) while machine time jumps through a
    # long sleep: the sleeper's wake is served at once, not at the end of
    # the jump (which took minutes of real time)
    import signal
    import time
    cmd = [UNCORE, "run", "--", "bash", "-c", "sleep 100000; echo after"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        kids = []
        for _ in range(100):
            time.sleep(0.1)
            try:
                with open(f"/proc/{p.pid}/task/{p.pid}/children") as f:
                    kids = [int(x) for x in f.read().split()]
            except OSError:
                kids = []
            if kids:
                break
        if not kids:
            fail("the program did not start")
            return
        time.sleep(2)  # the sleep runs: machine time jumps through it
        os.killpg(os.getpgid(kids[0]), signal.SIGINT)
        t0 = time.monotonic()
        out, err = p.communicate(timeout=REAL_S)
        dt = time.monotonic() - t0
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        fail(f"SIGINT to the program's group: still running after {REAL_S} s of real time")
        return
    if "after" in out:
        fail(f"bash went on after its sleep was interrupted: {out!r}")
    if p.returncode != 130:
        fail(f"exit {p.returncode}, want 130 (SIGINT)\n{err[-800:]}")
    if dt > 5:
        fail(f"the run ended {dt:.1f} s of real time after the signal, want at once")


CASES = {**{k: (lambda k=k: waits_case(k)) for k in WANT},
         "timeout_cmd": timeout_cmd, "read_t": read_t, "long_sleep": long_sleep, "spin_shell": spin_shell, "outside_signal": outside_signal}

if __name__ == "__main__":
    main(CASES)
