#!/usr/bin/env bash
# robust_cli.sh UNCORE CASE - robustness of the `uncore` command line
# (issue 18): per-command help, options a command does not use, repeated
# options, option errors that name the option, two outputs into one file,
# bounded trace generation, and signals in the middle of long operations.
# ctest/CMakeLists.txt registers each case as robust_cli.<CASE>.  A case
# reports every broken expectation and exits 1 if there was one.
#
# The expected values are written here from docs/usage.md (which commands
# take which options, the limits, the exit status table), not taken from
# the program's output; no case asserts on timing.
set -euo pipefail

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

# run ARGS...: stdout in $work/out, stderr in $work/err, exit code in $rc.
# A sanitizer report fails the case whatever the exit code.
run() {
	rc=0
	"$bin" "$@" >"$work/out" 2>"$work/err" || rc=$?
	if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:' "$work/err"; then
		fail "sanitizer report from: uncore $*"
		cat "$work/err" >&2
	fi
	last="uncore $*"
}

expect_rc() {
	if [ "$rc" -ne "$1" ]; then
		fail "$last: exit code $rc, want $1; stderr: $(head -c 400 "$work/err")"
	fi
}

# expect_err STRING: stderr contains STRING (fixed text)
expect_err() {
	if ! grep -qF -- "$1" "$work/err"; then
		fail "$last: stderr lacks \"$1\": $(head -c 400 "$work/err")"
	fi
}

expect_no_stdout() {
	if [ -s "$work/out" ]; then
		fail "$last: wrote to stdout on an error: $(head -c 200 "$work/out")"
	fi
}

# usage_error ARGS... :: WANT...: exit 2, stderr has every WANT, no output
usage_error() {
	local args=()
	while [ "$1" != "::" ]; do
		args+=("$1")
		shift
	done
	shift
	run "${args[@]}"
	expect_rc 2
	for w in "$@"; do
		expect_err "$w"
	done
	expect_no_stdout
}

# ---- per-command help: usage line, then option lines ----

# The options of each command, from docs/usage.md's synopsis.
declare -A cmd_opts=(
	[list]="--platform --metrics --json --event-file -o"
	[stat]="-e -M --event-file -I -x --json --duration --per-socket --pmi-cores --freeze-on-pmi --sample-period --check --platform --backend --hw-root --hw-msr --hw-pci --force --record --workload --trace --seed --ncbo --qpi-links --sockets --uclk-mhz --pci-bus --node-ids -o"
	[regs]="--platform --backend --hw-root --hw-msr --hw-pci --force --record --ncbo --qpi-links --sockets --uclk-mhz --pci-bus --node-ids -o"
	[trace gen]="-o --platform --duration --seed --ncbo --sockets --uclk-mhz --binary --bandwidth --read-ratio --hit-ratio --lookups --duty --burst-us --period"
	[trace convert]="-o --binary --text"
	[trace info]="-o"
	[allowlist]="--platform --backend --hw-root --hw-msr --hw-pci -o"
	[run]="--platform --workload --trace --seed --ncbo --qpi-links --sockets --uclk-mhz --pci-bus --node-ids --clock --report --report-json --log"
)
all_opts="-e -M -I -x -o --json --metrics --event-file --duration --per-socket --pmi-cores --freeze-on-pmi --sample-period --check --platform --backend --hw-root --hw-msr --hw-pci --force --record --workload --trace --seed --ncbo --qpi-links --sockets --uclk-mhz --pci-bus --node-ids --binary --text --bandwidth --read-ratio --hit-ratio --lookups --duty --burst-us --period --clock --report --report-json --log"

# The options a help page lists: the first word of each option line.
help_options() {
	awk '/^options:/ { on = 1; next } on && /^  -/ { o = $1; sub(/,$/, "", o); if (o == "-h") o = "--help"; print o }' "$1"
}

case_help() {
	local c o
	for c in "list" "stat" "regs" "trace gen" "trace convert" "trace info" "allowlist" "run"; do
		# shellcheck disable=SC2086
		run $c --help
		expect_rc 0
		if ! head -1 "$work/out" | grep -q "^usage: uncore $c "; then
			fail "$last: first line is not 'usage: uncore $c ...': $(head -1 "$work/out")"
		fi
		if ! grep -qx "options:" "$work/out"; then
			fail "$last: no 'options:' line"
		fi
		# every option line starts with two spaces and the option; the
		# lines between (continuations) with 23 spaces
		if awk '/^options:/ { on = 1; next } on && !/^  -/ && !/^                       [^ ]/ { bad = 1 } END { exit !bad }' "$work/out"; then
			fail "$last: an options line is neither an option nor a continuation"
		fi
		help_options "$work/out" | sort >"$work/listed"
		{
			for o in ${cmd_opts[$c]}; do printf '%s\n' "$o"; done
			echo --help
			echo --version
		} | sort >"$work/want"
		if ! diff -u "$work/want" "$work/listed" >"$work/diff"; then
			fail "$last: lists other options than docs/usage.md: $(tr '\n' ' ' <"$work/diff")"
		fi
		cp "$work/out" "$work/help.$c"
	done
	# `help CMD` is the same page, and the pages differ by command
	run help stat
	expect_rc 0
	if ! cmp -s "$work/out" "$work/help.stat"; then
		fail "uncore help stat differs from uncore stat --help"
	fi
	if cmp -s "$work/help.stat" "$work/help.list"; then
		fail "stat --help and list --help print the same page"
	fi
	run --help
	expect_rc 0
	if ! grep -q "^usage: uncore <command> \[options\]" "$work/out"; then
		fail "uncore --help: no usage line"
	fi
	# every page within 80 columns
	for f in "$work"/help.*; do
		if awk 'length > 79 { bad = 1 } END { exit !bad }' "$f"; then
			fail "$(basename "$f"): a line longer than 79 columns"
		fi
	done
}

# ---- an option a command does not use is refused, naming both ----

case_unused_options() {
	usage_error stat --bandwidth 3 :: "--bandwidth: not an option of 'stat'" "trace gen"
	usage_error trace gen stream --workload mixed -o "$work/t.uct" :: "--workload: not an option of 'trace gen'"
	usage_error list --record "$work/r.log" :: "--record: not an option of 'list'"
	usage_error list --backend "replay:$work/r.log" :: "--backend: not an option of 'list'"
	usage_error trace info "$work/t.uct" --record "$work/r.log" :: "--record: not an option of 'trace info'"
	usage_error trace gen stream --record "$work/r.log" -o "$work/t.uct" :: "--record: not an option of 'trace gen'"
	usage_error trace convert "$work/t.uct" --backend hw -o "$work/u.uct" :: "--backend: not an option of 'trace convert'"
	usage_error regs --workload stream :: "--workload: not an option of 'regs'"
	usage_error allowlist -e uclk :: "-e: not an option of 'allowlist'"
	usage_error allowlist --backend "replay:$work/r.log" :: "--backend: 'replay:$work/r.log': allowlist reads no register"
	usage_error run --backend sim -- true :: "--backend: not an option of 'run'"
	usage_error run -o "$work/o" -- true :: "-o: not an option of 'run'"
	usage_error stat --report "$work/r" :: "--report: not an option of 'stat'"
	usage_error list --duration 1 :: "--duration: not an option of 'list'"
	# and every option of the synopsis outside its commands
	local c o
	for c in "list" "stat" "regs" "trace gen" "trace convert" "trace info" "allowlist" "run"; do
		for o in $all_opts; do
			case " ${cmd_opts[$c]} " in *" $o "*) continue ;; esac
			# shellcheck disable=SC2086
			run $c $o 1 -o "$work/x" -- true
			expect_rc 2
			expect_err "$o: not an option of '$c'"
		done
	done
	# generator options belong to kinds: --duty is burst's and cstate's
	usage_error trace gen stream --duty 0.3 -o "$work/t.uct" :: "--duty: trace gen stream does not use it"
	usage_error trace gen llc --bandwidth 3 -o "$work/t.uct" :: "--bandwidth: trace gen llc does not use it"
	usage_error trace gen burst --period 1000 -o "$work/t.uct" :: "--period: trace gen burst does not use it"
	usage_error trace gen idle --lookups 0.1 -o "$work/t.uct" :: "--lookups: trace gen idle does not use it"
	if [ -e "$work/t.uct" ]; then
		fail "a refused trace gen left $work/t.uct"
	fi
	# what is used still works
	run trace gen burst --duty 0.3 --burst-us 5 --duration 0.01 -o "$work/t.uct"
	expect_rc 0
}

# ---- no option is repeatable ----

case_repeated_options() {
	usage_error stat -o "$work/a" -o "$work/b" :: "-o: given twice, as '$work/a' and as '$work/b'"
	usage_error stat -e uclk -e data_reads :: "-e: given twice, as 'uclk' and as 'data_reads'"
	usage_error stat --json --json :: "--json: given twice (arguments 2 and 3)"
	usage_error stat --duration 1 --duration=2 :: "--duration: given twice, as '1' and as '2'"
	usage_error trace gen stream --bandwidth 1 --bandwidth 2 -o "$work/t" :: "--bandwidth: given twice, as '1' and as '2'"
	usage_error list --platform skl --platform snbep :: "--platform: given twice, as 'skl' and as 'snbep'"
	for f in a b t; do
		if [ -e "$work/$f" ]; then
			fail "a refused command left $work/$f"
		fi
	done
}

# ---- two outputs into one file ----

case_same_output() {
	mkdir "$work/d"
	usage_error stat --duration 0.01 --record "$work/X" -o "$work/X" :: "-o $work/X and --record $work/X: the same file for two outputs"
	# another spelling of the same new file
	usage_error stat --duration 0.01 --record "$work/d/../X" -o "$work/X" :: "the same file for two outputs"
	# through a symbolic link to an existing file
	echo keep >"$work/target"
	ln -s target "$work/link"
	usage_error stat --duration 0.01 --record "$work/link" -o "$work/target" :: "the same file for two outputs"
	if [ "$(cat "$work/target")" != keep ] || [ ! -L "$work/link" ]; then
		fail "a refused command touched the target or the link"
	fi
	usage_error run --report "$work/r" --report-json "$work/r" -- true :: "--report $work/r and --report-json $work/r"
	if [ -e "$work/X" ] || [ -e "$work/r" ]; then
		fail "a refused command left an output"
	fi
	# two different files are fine, and both are written
	run stat --duration 0.01 -e uclk --record "$work/X.log" -o "$work/X.txt"
	expect_rc 0
	if [ ! -s "$work/X.log" ] || ! grep -q " uclk " "$work/X.txt"; then
		fail "$last: the log or the output is missing"
	fi
}

# ---- every option error names the option ----

case_option_errors() {
	local args want
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086
		run $args
		expect_rc 2
		expect_err "$want"
		expect_no_stdout
	done <<'EOF'
trace gen stream --bandwidth inf -o /nonexistent/t|--bandwidth: 'inf' is not a finite
trace gen stream --bandwidth nan -o /nonexistent/t|--bandwidth: 'nan' is not a finite
trace gen stream --bandwidth -1 -o /nonexistent/t|--bandwidth: '-1' is not a finite
trace gen stream --read-ratio 2 -o /nonexistent/t|--read-ratio: 2 is outside 0 to 1
trace gen llc --hit-ratio 1.5 -o /nonexistent/t|--hit-ratio: 1.5 is outside 0 to 1
trace gen burst --duty 2 -o /nonexistent/t|--duty: 2 is outside 0 to 1
trace gen burst --burst-us 1e300 -o /nonexistent/t|--burst-us: 1e300 is outside
trace gen burst --burst-us 0.0001 -o /nonexistent/t|--burst-us: 0.0001 is outside
trace gen stream --period 0 -o /nonexistent/t|--period: 0 cycles
trace gen stream --period 99999999999999999 -o /nonexistent/t|--period: 99999999999999999 cycles is more than 2^40
trace gen stream --duration 2e5 -o /nonexistent/t|--duration: 2e5 s is more than 1e5 s
stat --duration 2e6|--duration: 2e6 s is more than 1e6 s
stat --duration inf|--duration: 'inf' is not a finite
stat -I 0|-I: 0 ms is outside 1 to 1e9 ms
stat -I 99999999999999|-I: 99999999999999 ms is outside
stat --uclk-mhz 0.001|--uclk-mhz: 0.001 is outside 100-10000 MHz
stat --uclk-mhz 99999|--uclk-mhz: 99999 is outside 100-10000 MHz
stat --ncbo 9|--ncbo: 9 out of range for skl (1-4)
regs --platform snbep --ncbo 9|--ncbo: 9 out of range for snbep (1-8)
stat --platform ivt --qpi-links 4|--qpi-links: 4 out of range for ivt (1-3)
stat --platform snbep --pci-bus 1,1|--pci-bus: sockets 0 and 1 on one PCI bus 0x01
stat --platform snbep --node-ids 1,1|--node-ids: sockets 0 and 1 with one node ID 1
stat --platform snbep --sample-period 100|--sample-period 100: sampling needs a counter
stat --platform snbep --pmi-cores 1|--pmi-cores: snbep
stat --backend replay:|--backend: 'replay:' names no log file
stat --backend bogus|--backend: 'bogus'
EOF
	# a generator's refusal names the options it came from, and leaves nothing
	usage_error trace gen stream --bandwidth 1000 -o "$work/t" :: "trace gen stream --bandwidth 1000 --read-ratio 0.7:"
	usage_error trace gen llc --platform snbep --lookups 0.9 -o "$work/t" :: "--hit-ratio 0.9 --lookups 0.9:"
	if [ -e "$work/t" ]; then
		fail "a refused trace gen left $work/t"
	fi
	# output files the command cannot create are run-time errors (1)
	# that name the option too
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086
		run $args
		expect_rc 1
		expect_err "$want"
	done <<'EOF'
trace gen stream --duration 0.01 -o /nonexistent/t|-o /nonexistent/t
list -o /nonexistent/l|-o /nonexistent/l
stat --duration 0.01 --record /nonexistent/r|--record: /nonexistent/r
run --report-json /nonexistent/r -- true|--report-json: /nonexistent/r
EOF
}

"case_$name"
if [ "$failures" -ne 0 ]; then
	echo "$name: $failures failure(s)" >&2
	exit 1
fi
echo "$name: ok"
