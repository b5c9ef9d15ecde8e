"""ct_py.py - what the Python CTest scripts (tools_test.py, vcd_test.py,
limits_test.py, progress_test.py, uncore_invariants_test.py) share: their
arguments (UNCORE [CASE]), a scratch directory, reporting a broken
expectation, requiring an external tool (missing, the case fails naming its
Debian package), and the end of a case.  Imported, never run."""
import atexit
import shutil
import sys
import tempfile

UNCORE = sys.argv[1]
CASE = sys.argv[2] if len(sys.argv) > 2 else ""
failures = []
WORK = ""


def workdir(prefix):
    """A scratch directory for this run, removed at exit (also when a case
    ends in an exception)."""
    global WORK
    WORK = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, WORK, ignore_errors=True)
    return WORK


def fail(msg):
    failures.append(msg)
    print(f"FAIL [{CASE}]: {msg}" if CASE else f"FAIL: {msg}", file=sys.stderr)


def need(tool, package):
    if not shutil.which(tool):
        fail(f"{tool} is not installed (Debian package {package}; the README's test command installs it)")
        finish()


def finish():
    """Exit 1 if an expectation broke, else 0."""
    name = CASE or "case"
    if failures:
        print(f"{name}: {len(failures)} failure(s)", file=sys.stderr)
        sys.exit(1)
    print(f"{name}: ok")
    sys.exit(0)


def main(cases):
    """Run the case named on the command line (an unknown one exits 2), a
    subprocess's timeout as its failure, and finish."""
    if CASE not in cases:
        print(f"unknown case {CASE}", file=sys.stderr)
        sys.exit(2)
    import subprocess
    try:
        cases[CASE]()
    except subprocess.TimeoutExpired as e:
        fail(f"timed out: {e}")
    finish()
