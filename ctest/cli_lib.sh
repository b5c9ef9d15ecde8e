# cli_lib.sh - what the command-line test scripts (cli_test.sh,
# robust_cli.sh, robust_inputs.sh) share: their arguments (UNCORE CASE), a
# scratch directory, running the built `uncore` with its outputs kept, the
# common expectations, and running the case.  Sourced, never run.
#
# A script sets run_timeout (seconds) before sourcing it to have every run
# killed past that time.

if [ $# -ne 2 ]; then
	echo "usage: $0 UNCORE CASE" >&2
	exit 2
fi
bin=$1
name=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
umask 022
failures=0

fail() {
	echo "FAIL [$name]: $*" >&2
	failures=$((failures + 1))
}

# sanitizer_check WHAT: a sanitizer report in $work/err fails the case
# whatever the exit code
sanitizer_check() {
	if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$work/err"; then
		fail "sanitizer report from: $1"
		cat "$work/err" >&2
	fi
}

# run ARGS...: stdout in $work/out, stderr in $work/err, exit code in $rc.
run() {
	rc=0
	if [ -n "${run_timeout:-}" ]; then
		timeout -s KILL "$run_timeout" "$bin" "$@" >"$work/out" 2>"$work/err" || rc=$?
	else
		"$bin" "$@" >"$work/out" 2>"$work/err" || rc=$?
	fi
	sanitizer_check "uncore $*"
	last="uncore $*"
}

expect_rc() {
	if [ "$rc" -ne "$1" ]; then
		fail "$last: exit code $rc, want $1; stderr: $(head -c 600 "$work/err")"
	fi
}

# expect_err STRING: stderr contains STRING (fixed text)
expect_err() {
	if ! grep -qF -- "$1" "$work/err"; then
		fail "$last: stderr lacks \"$1\": $(head -c 600 "$work/err")"
	fi
}

expect_no_stdout() {
	if [ -s "$work/out" ]; then
		fail "$last: wrote to stdout on an error: $(head -c 200 "$work/out")"
	fi
}

# usage_errors_table: each line of standard input is "ARGS|WANT": uncore
# ARGS (split into words) exits 2 naming WANT on stderr, with no output
usage_errors_table() {
	local args want
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086  # the arguments are words
		run $args
		expect_rc 2
		expect_err "$want"
		expect_no_stdout
	done
}

# run_case: the case named on the command line; exit 1 if a check failed
run_case() {
	if ! declare -F "case_$name" >/dev/null; then
		echo "$0: no case '$name'" >&2
		exit 2
	fi
	"case_$name"
	if [ "$failures" -ne 0 ]; then
		echo "$name: $failures check(s) failed" >&2
		exit 1
	fi
	echo "$name: ok"
}
