#!/usr/bin/env bash
# clusterfuzzlite_test.sh - runs .clusterfuzzlite/build.sh the way OSS-Fuzz
# does (the tree as $SRC/uncore, scratch $WORK and $OUT, the engine's $CC,
# $CFLAGS and $LIB_FUZZING_ENGINE), so the script cannot rot unseen between
# the campaigns that use it.  Here the compiler is the one the tests are
# built with and the "engine" is the corpus replay runner (fuzz/fz_runner.c:
# a main() that feeds files to LLVMFuzzerTestOneInput), which OSS-Fuzz's
# contract allows and which needs no clang.  Checks: the script succeeds;
# every fuzz/fuzz_<h>.c gave $OUT/fuzz_<h> with its options file, the
# dictionary the options file names, and a seed corpus zip holding every
# file of fuzz/corpus/<h>; each fuzzer runs on seeds taken from its zip.
# The scratch directory is outside the source tree (a build tree inside it
# would put $SRC/uncore inside itself); it is kept when the test fails.
# Usage: clusterfuzzlite_test.sh SOURCE_DIR CC CMAKE
set -euo pipefail
srcdir=$1 cc=$2 cmake=$3
fail() { echo "FAIL: $* (files in $scratch)" >&2; exit 1; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/uncore-cfl.XXXXXX")
for tool in zip unzip pkg-config ldd; do
	command -v "$tool" >/dev/null || fail "$tool not found (build.sh and this test need it)"
done
mkdir -p "$scratch/src" "$scratch/work" "$scratch/out"
ln -s "$srcdir" "$scratch/src/uncore"
cp "$srcdir/.clusterfuzzlite/build.sh" "$scratch/src/build.sh"
"$cc" -O0 -I"$srcdir/fuzz" -I"$srcdir/model" -c "$srcdir/fuzz/fz_runner.c" -o "$scratch/engine.o"
# build.sh runs `cmake`: the one this build was configured with
if ! (cd "$scratch/src" && env -u CXX -u CXXFLAGS PATH="$(dirname "$cmake"):$PATH" \
	SRC="$scratch/src" WORK="$scratch/work" OUT="$scratch/out" CC="$cc" CFLAGS=-O0 \
	LIB_FUZZING_ENGINE="$scratch/engine.o" bash -eu build.sh >"$scratch/build.log" 2>&1); then
	tail -20 "$scratch/build.log" >&2
	fail ".clusterfuzzlite/build.sh failed (whole log: build.log)"
fi
out=$scratch/out
n=0
for src in "$srcdir"/fuzz/fuzz_*.c; do
	h=$(basename "$src" .c)
	h=${h#fuzz_}
	[ -x "$out/fuzz_$h" ] || fail "no fuzzer $out/fuzz_$h for fuzz/fuzz_$h.c"
	[ -f "$out/fuzz_$h.options" ] || fail "no $out/fuzz_$h.options"
	dict=$(sed -n 's/^dict *= *//p' "$out/fuzz_$h.options")
	[ -z "$dict" ] || [ -f "$out/$dict" ] || fail "fuzz_$h.options names $dict, not in \$OUT"
	zip=$out/fuzz_${h}_seed_corpus.zip
	[ -f "$zip" ] || fail "no seed corpus $zip"
	want=$(find "$srcdir/fuzz/corpus/$h" -type f | wc -l)
	got=$(unzip -Z1 "$zip" | grep -vc '/$' || true)
	if [ "$want" -eq 0 ] || [ "$got" -ne "$want" ]; then
		fail "fuzz_$h: seed corpus holds $got files, fuzz/corpus/$h $want"
	fi
	mkdir -p "$scratch/seeds/$h"
	unzip -q "$zip" -d "$scratch/seeds/$h"
	# the first three seeds in name order: the binary links and runs
	mapfile -t seeds < <(find "$scratch/seeds/$h" -type f | sort | head -3)
	"$out/fuzz_$h" "${seeds[@]}" >"$scratch/run_$h.log" 2>&1 ||
		{ cat "$scratch/run_$h.log" >&2; fail "fuzz_$h failed on its seeds"; }
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no fuzz/fuzz_*.c harness found"
echo "PASS: build.sh built $n fuzzers; each ran on 3 of its seeds"
rm -rf "$scratch"
