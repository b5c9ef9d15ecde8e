#!/bin/bash
# bench_tmp_test.sh UNCORE_BENCH - the benchmark's scratch trace is in a
# private directory (issue 34, item 1), not at a predictable name in a
# shared one: a link planted at the name it used, /tmp/uncore-bench-PID.bin
# (the PID is known: exec keeps it), is neither written through nor removed,
# TMPDIR is honoured, and nothing is left there afterwards.
set -u
bench=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -m 1777 "$work/tmp"
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

rc=0
# shellcheck disable=SC2016  # $$ is the inner shell's, which exec keeps
TMPDIR=$work/tmp bash -c 'ln -s "$1/victim" "/tmp/uncore-bench-$$.bin"; echo "/tmp/uncore-bench-$$.bin" >"$1/planted";
	exec "$2" --g6-trace 2000' _ "$work" "$bench" >"$work/out" 2>"$work/err" || rc=$?
planted=$(cat "$work/planted")
[ "$rc" -eq 0 ] || fail "uncore-bench --g6-trace: exit $rc: $(head -c 300 "$work/err")"
[ ! -e "$work/victim" ] || fail "the planted link $planted was written through"
[ -L "$planted" ] || fail "the planted link $planted was removed"
rm -f "$planted"
left=$(ls -A "$work/tmp")
[ -z "$left" ] || fail "left in TMPDIR: $left"
[ "$fails" -eq 0 ] && echo "private scratch directory: nothing planted was touched, nothing left"
exit $((fails > 0))
