#!/usr/bin/env bash
# robust_cli.sh UNCORE CASE - robustness of the `uncore` command line
# (issue 18): per-command help, options a command does not use, repeated
# options, option errors that name the option, two outputs into one file,
# bounded trace generation, a full file system, and signals in the middle
# of long operations.
# ctest/CMakeLists.txt registers each case as robust_cli.<CASE>.  A case
# reports every broken expectation and exits 1 if there was one.
#
# The expected values are written here from docs/usage.md (which commands
# take which options, the limits, the exit status table), not taken from
# the program's output; no case asserts on timing.
set -euo pipefail

. "$(dirname "$0")/cli_lib.sh"

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
	[stat]="-e -M --event-file -I -x --json --duration --per-socket --pmi-cores --freeze-on-pmi --sample-period --check --vcd --platform --backend --hw-root --hw-msr --hw-pci --force --record --workload --trace --seed --ncbo --qpi-links --sockets --uclk-mhz --pci-bus --node-ids -o --exceed-limits"
	[regs]="--platform --backend --hw-root --hw-msr --hw-pci --force --record --ncbo --qpi-links --sockets --uclk-mhz --pci-bus --node-ids -o"
	[trace gen]="-o --platform --duration --seed --ncbo --sockets --uclk-mhz --binary --bandwidth --read-ratio --hit-ratio --lookups --duty --burst-us --period --exceed-limits"
	[trace convert]="-o --binary --record-form --no-chunks --text"
	[trace info]="-o"
	[allowlist]="--platform --backend --hw-root --hw-msr --hw-pci -o"
	[run]="--platform --workload --trace --seed --ncbo --qpi-links --sockets --uclk-mhz --pci-bus --node-ids --clock --report --report-json --log --vcd --exceed-limits"
)
all_opts="-e -M -I -x -o --json --metrics --event-file --duration --per-socket --pmi-cores --freeze-on-pmi --sample-period --check --vcd --platform --backend --hw-root --hw-msr --hw-pci --force --record --workload --trace --seed --ncbo --qpi-links --sockets --uclk-mhz --pci-bus --node-ids --binary --record-form --no-chunks --text --bandwidth --read-ratio --hit-ratio --lookups --duty --burst-us --period --clock --report --report-json --log --vcd --exceed-limits"

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
	usage_errors_table <<'EOF'
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
	# the limits of docs/usage.md, named when hit: 64 events, 64 levels
	local ev="" deep="1" i
	for i in $(seq 65); do ev="$ev${ev:+,}uclk"; done
	usage_error stat --duration 0.01 -e "$ev" :: "-e: event 'uclk' (col 321): more than 64 events"
	for i in $(seq 65); do deep="($deep)"; done
	usage_error stat --duration 0.01 -e uclk -M "x=[uclk]*$deep" :: "-M: metric x" "nested more than 64 deep"
	deep="${deep:1:${#deep}-2}"
	run stat --duration 0.01 -e uclk -M "x=[uclk]*$deep" -x,
	expect_rc 0
	# a generator's refusal names the options it came from, and leaves nothing
	usage_error trace gen stream --bandwidth 1000 -o "$work/t" :: "trace gen stream --bandwidth 1000 --read-ratio 0.7:"
	usage_error trace gen llc --platform snbep --lookups 0.9 -o "$work/t" :: "--hit-ratio 0.9 --lookups 0.9:"
	if [ -e "$work/t" ]; then
		fail "a refused trace gen left $work/t"
	fi
	# output files the command cannot create are run-time errors (1)
	# that name the option too
	local args want
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
regs --backend hw --hw-root /nonexistent|--backend hw --hw-root /nonexistent:
allowlist --backend hw --hw-root /nonexistent|--backend hw --hw-root /nonexistent:
EOF
}


# ---- one exit status per kind of failure, whatever the command ----

case_exit_codes() {
	local c
	# a malformed trace is bad input (2) for every command that reads it
	printf 'uncore-trace 2\nplatform skl\nrun 10: cbo9.CACHE_LOOKUP.READ_M=1\n' >"$work/bad.uct"
	for c in "stat --trace" "trace info" "trace convert"; do
		# shellcheck disable=SC2086
		run $c "$work/bad.uct" -o "$work/out.x"
		expect_rc 2
		expect_err "bad.uct:3:12:"
	done
	# a truncated one too
	run trace gen stream --duration 0.01 --binary -o "$work/s.bin"
	head -c 200 "$work/s.bin" >"$work/cut.bin"
	for c in "stat --trace" "trace info" "trace convert"; do
		# shellcheck disable=SC2086
		run $c "$work/cut.bin" -o "$work/out.x"
		expect_rc 2
		expect_err "truncated"
	done
	# a file that cannot be opened is a run-time error (1)
	for c in "stat --trace" "trace info" "trace convert"; do
		# shellcheck disable=SC2086
		run $c "$work/none.uct" -o "$work/out.x"
		expect_rc 1
		expect_err "$work/none.uct: No such file or directory"
	done
	if [ -e "$work/out.x" ]; then
		fail "a failed command left its output"
	fi
	# an unknown option is a usage error (2) everywhere
	for c in list stat regs "trace gen stream" "trace convert x" "trace info x" allowlist run; do
		# shellcheck disable=SC2086
		run $c --bogus
		expect_rc 2
		expect_err "unknown option '--bogus'"
	done
	# a closed pipe (400 KB of JSON, far more than a pipe holds): 141, silently
	{
		rc=0
		"$bin" list --platform ivt --json 2>"$work/err" || rc=$?
		echo "$rc" >"$work/rc"
	} | head -1 >/dev/null
	rc=$(cat "$work/rc")
	last="uncore list --platform ivt --json | head -1"
	expect_rc 141
	if [ -s "$work/err" ]; then
		fail "uncore regs | head: said something: $(head -c 200 "$work/err")"
	fi
}

# ---- signals in the middle of long operations ----
#
# Each operation is caught in the middle without timing: stat counts for
# 1e6 s and is signalled once it says it runs; trace gen and convert once
# their temporary FILE.XXXXXX exists; trace info once it holds the trace
# open; run once the program printed.  The process is stopped (SIGSTOP)
# before the signal is sent and continued after, so it cannot finish in
# between.  Nothing asserts how fast it stops; a generous bound (120 s)
# only keeps a hung case from hanging the suite.

# start ARGS...: uncore in the background (stdout $work/out, stderr
# $work/err), its pid in $pid.  The files are emptied here, before the
# fork: the background child opens (truncates) them only when it is
# scheduled, and until then wait_for would find the previous command's
# marker in them and signal this one before it has installed its handlers
# (it then dies by the signal with the very exit code 128+N expected, but
# without its output: the flaky failures of signal_stat and signal_run).
start() {
	: >"$work/out"
	: >"$work/err"
	"$bin" "$@" >"$work/out" 2>"$work/err" &
	pid=$!
	last="uncore $*"
}

# wait_for CMD...: until CMD succeeds, or the process ended
wait_for() {
	local i
	for i in $(seq 12000); do
		if "$@"; then
			return 0
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			"$@"
			return
		fi
		sleep 0.01
	done
	return 1
}

# interrupt SIG: stop the process, send SIG, continue it, collect $rc
interrupt() {
	local i
	if ! kill -0 "$pid" 2>/dev/null; then
		fail "$last: ended before it could be signalled"
	fi
	kill -STOP "$pid" 2>/dev/null || true
	kill "-$1" "$pid" 2>/dev/null || true
	kill -CONT "$pid" 2>/dev/null || true
	for i in $(seq 12000); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.01
	done
	if kill -0 "$pid" 2>/dev/null; then
		fail "$last: still running 120 s after SIG$1"
		kill -KILL "$pid"
	fi
	rc=0
	wait "$pid" || rc=$?
	sanitizer_check "$last"
}

# no_temp DIR: nothing named *.XXXXXX (a writer's temporary file) in DIR
no_temp() {
	local left
	left=$(find "$1" -name '*.??????' -newer "$work/stamp" 2>/dev/null | grep -E '\.[A-Za-z0-9]{6}$' || true)
	if [ -n "$left" ]; then
		fail "$last: left temporary files: $left"
	fi
}

running() { grep -q "simulated" "$work/err"; }

# The restore, from a --record log: every register written ends with the
# value it had before its first write (ctest/restored.awk).
restored() {
	if ! awk -f "$(dirname "$0")/restored.awk" "$1" >"$work/restored" 2>&1; then
		fail "$last: registers not restored: $(head -c 400 "$work/restored")"
	fi
}

case_signal_stat() {
	local sig want
	touch "$work/stamp"
	mkdir "$work/o"
	for sig in INT TERM; do
		[ "$sig" = INT ] && want=130 || want=143
		# plain, into -o: the counts so far, marked, and the file complete
		start stat --duration 1e6 -o "$work/o/stat.txt" --record "$work/o/stat.log"
		wait_for running
		interrupt "$sig"
		expect_rc "$want"
		if ! grep -q "^# interrupted by SIG$sig after [0-9.]* s: the counts cover the time until then" "$work/o/stat.txt"; then
			fail "$last: -o file not marked interrupted: $(tail -c 300 "$work/o/stat.txt" 2>/dev/null)"
		fi
		if ! grep -q "seconds time elapsed" "$work/o/stat.txt" || ! grep -q "UNC_CLOCK.SOCKET" "$work/o/stat.txt"; then
			fail "$last: -o file lacks the counts"
		fi
		expect_err "interrupted by SIG$sig; every register written was restored"
		restored "$work/o/stat.log"
		if ! grep -q '^sleep [0-9]* -> rc=-4 ' "$work/o/stat.log"; then
			fail "$last: the log does not end its wait as interrupted"
		fi
		no_temp "$work/o"
	done
	# the restore check itself fails on a log whose restore was cut off
	grep -v '^wrmsr 0 0xe01 0x0 ' "$work/o/stat.log" | awk -f "$(dirname "$0")/restored.awk" >/dev/null 2>&1 &&
		fail "restored.awk passes a log without the restore of 0xe01"
	# the log replays, interrupted at the same place
	run stat --duration 1e6 --backend "replay:$work/o/stat.log"
	expect_rc 1
	expect_err "the replayed session was interrupted here, as the recorded one was"
	if ! grep -q "^# interrupted as the recorded session was after" "$work/out"; then
		fail "$last: counts not marked as interrupted"
	fi
	# intervals, -x and JSON; the two-socket Xeon with its PCI boxes
	start stat --platform snbep --duration 1e6 -I 100 -x, --record "$work/o/snbep.log"
	wait_for running
	interrupt INT
	expect_rc 130
	if ! tail -1 "$work/out" | grep -q "^# interrupted by SIGINT after"; then
		fail "$last: -x output does not end marked: $(tail -1 "$work/out")"
	fi
	restored "$work/o/snbep.log"
	start stat --platform ivt --duration 1e6 --json
	wait_for running
	interrupt TERM
	expect_rc 143
	if ! tail -1 "$work/out" | grep -q '^{"interrupted":"SIGTERM","elapsed-s":'; then
		fail "$last: JSON does not end with the interrupted object: $(tail -1 "$work/out")"
	fi
	# a trace replayed (the model runs the trace in the wait)
	run trace gen stream --duration 2 -o "$work/s.uct"
	start stat --trace "$work/s.uct" --duration 1e6 -e data_reads
	wait_for running
	interrupt INT
	expect_rc 130
	expect_err "interrupted by SIGINT"
	no_temp "$work"
}

case_signal_trace() {
	local sig want tmpf
	touch "$work/stamp"
	mkdir "$work/g"
	for sig in INT TERM; do
		[ "$sig" = INT ] && want=130 || want=143
		# 2,000,000 slices: far more than it writes before the signal
		start trace gen stream --duration 1e5 --period 150000000 -o "$work/g/big.uct"
		tmpf() { compgen -G "$work/g/big.uct.??????" >/dev/null; }
		wait_for tmpf
		interrupt "$sig"
		expect_rc "$want"
		expect_err "trace gen interrupted by SIG$sig: nothing was written"
		if [ -e "$work/g/big.uct" ]; then
			fail "$last: left $work/g/big.uct"
		fi
		no_temp "$work/g"
	done
	run trace gen stream --duration 20 -o "$work/in.uct"
	expect_rc 0
	for sig in INT TERM; do
		[ "$sig" = INT ] && want=130 || want=143
		start trace convert "$work/in.uct" --binary -o "$work/g/out.bin"
		tmpf() { compgen -G "$work/g/out.bin.??????" >/dev/null; }
		wait_for tmpf
		interrupt "$sig"
		expect_rc "$want"
		expect_err "trace convert interrupted by SIG$sig: nothing was written"
		if [ -e "$work/g/out.bin" ]; then
			fail "$last: left $work/g/out.bin"
		fi
		no_temp "$work/g"
		start trace info "$work/in.uct" -o "$work/g/info.txt"
		holds() { ls -l "/proc/$pid/fd" 2>/dev/null | grep -q "in.uct"; }
		wait_for holds
		interrupt "$sig"
		expect_rc "$want"
		expect_err "trace info interrupted by SIG$sig"
		if [ -e "$work/g/info.txt" ]; then
			fail "$last: left $work/g/info.txt"
		fi
		no_temp "$work/g"
	done
}

case_signal_run() {
	local sig want
	mkdir "$work/tmp"
	for sig in INT TERM; do
		[ "$sig" = INT ] && want=130 || want=143
		# the program sleeps 1e5 simulated seconds: the signal reaches it
		# in the middle of the machine's run to its deadline
		TMPDIR="$work/tmp" start run --report "$work/r.txt" --report-json "$work/r.json" -- \
			sh -c 'echo started; exec sleep 100000'
		started() { grep -q started "$work/out"; }
		wait_for started
		interrupt "$sig"
		expect_rc "$want"
		if ! grep -q "^# interrupted by SIG$sig (passed on to the program)" "$work/r.txt"; then
			fail "$last: text report not marked interrupted"
		fi
		if ! grep -q "\"interrupted\": \"SIG$sig\"" "$work/r.json"; then
			fail "$last: JSON report not marked interrupted"
		fi
		if [ -n "$(ls -A "$work/tmp")" ]; then
			fail "$last: left $(ls -A "$work/tmp") in TMPDIR"
		fi
	done
}

# ---- bounded trace generation ----

case_gen_bounds() {
	usage_error trace gen stream --period 1 --duration 0.05 -o "$work/t.uct" :: \
		"trace gen stream --duration 0.05 --period 1: 0.05 s at 3000000000 Hz in slices of 1 cycles is 150000000 slices, more than the 2000000 a trace may have (UCT_GEN_MAX_SLICES)"
	usage_error trace gen burst --burst-us 0.001 --duration 0.05 -o "$work/t.uct" :: \
		"trace gen burst --duration 0.05 --burst-us 0.001 --duty 0.2:" "more than the 2000000 a trace may have"
	usage_error trace gen stream --duration 1e5 -o "$work/t.uct" :: "more than the 2000000 a trace may have"
	if [ -e "$work/t.uct" ]; then
		fail "a refused trace gen left $work/t.uct"
	fi
	# the limit itself: 1 s at 3 GHz in slices of 1500 cycles is 2,000,000
	# slices, past the slices' check (the idle tick's segments then exceed
	# their own limit, checked as the trace is made); of 1499 cycles,
	# 2,001,335, refused before anything is made
	usage_error trace gen idle --duration 1 --period 1500 -o "$work/t.uct" :: \
		"more than the 2000000 segments a trace may have (UCT_GEN_MAX_SEGMENTS)"
	usage_error trace gen idle --duration 1 --period 1499 -o "$work/u.uct" :: "is 2001335 slices, more than the 2000000"
}

# ---- a full file system ----

# Each output command writes into an 8 KiB tmpfs (mounted in a mount
# namespace of its own, so nothing outlives the case) holding an earlier
# output of the same name: the write fails with ENOSPC, the command exits 1
# naming the file and the cause, and the earlier file is untouched with no
# temporary beside it (docs/usage.md, "Output files").
case_full_disk() {
	local cmd out
	if ! command -v unshare >/dev/null || ! unshare -m true 2>/dev/null; then
		fail "cannot make a mount namespace (unshare -m, util-linux; needs root or user namespaces)"
		return
	fi
	mkdir "$work/small"
	for cmd in "list --platform snbep --json -o @/out" \
		   "stat --platform snbep -I 10 --duration 1 -o @/out" \
		   "regs --platform snbep -o @/out" \
		   "trace gen stream --duration 0.2 -o @/out"; do
		# shellcheck disable=SC2086  # the command is words
		set -- ${cmd//@/$work/small}
		rc=0
		unshare -m --propagation private bash -c '
			m=$1; shift
			mount -t tmpfs -o size=8k tmpfs "$m" || exit 99
			printf "earlier\n" >"$m/out"
			"$@" >"$m.stdout" 2>"$m.stderr"
			echo $? >"$m.rc"
			cat "$m/out" >"$m.kept"
			ls -A "$m" >"$m.left"
			umount "$m"' _ "$work/small" "$bin" "$@" || rc=$?
		last="uncore $* (8 KiB tmpfs)"
		if [ "$rc" -eq 99 ]; then
			fail "$last: could not mount a tmpfs"
			continue
		fi
		cp "$work/small.stderr" "$work/err"
		rc=$(cat "$work/small.rc")
		expect_rc 1
		expect_err "$work/small/out"
		expect_err "No space left on device"
		sanitizer_check "$last"
		if [ "$(cat "$work/small.kept")" != earlier ]; then
			fail "$last: the earlier output was replaced: $(head -c 100 "$work/small.kept")"
		fi
		if [ "$(cat "$work/small.left")" != out ]; then
			fail "$last: left in the directory: $(tr '\n' ' ' <"$work/small.left")"
		fi
	done
}

# A program under `uncore run` that cannot connect for want of descriptors
# (EMFILE: its child fills RLIMIT_NOFILE, then makes its first request) is
# told so, not asked whether `uncore run` ended; one that closes every
# descriptor with os.closerange keeps the machine.
case_run_conn_errors() {
	run run -- python3 -c '
import os, resource
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
try:
    while True:
        os.open("/dev/null", os.O_RDONLY)
except OSError:
    pass
pid = os.fork()
if pid == 0:
    os.open("/dev/cpu/0/msr", os.O_RDONLY)
    os._exit(0)
os._exit(os.waitpid(pid, 0)[1] >> 8)
'
	expect_rc 125
	expect_err "cannot open a connection to the machine server: Too many open files: the program has as many descriptors open as its limit (RLIMIT_NOFILE 64) allows"
	if grep -qF "did \`uncore run\` end?" "$work/err"; then
		fail "$last: blames the server: $(cat "$work/err")"
	fi
	# Python's os.closerange (close_range(2) through the C library) closes
	# around the library's connections (issue 34); only a close that passes
	# no library is blamed, CTest run_robust.raw_close_blamed
	run run -- python3 -c '
import os
os.closerange(3, 65536)
with open("/dev/cpu/0/msr", "rb") as f:
    f.seek(0x10)
    print(len(f.read(8)))
'
	expect_rc 0
	if [ "$(cat "$work/out")" != 8 ]; then
		fail "$last: the TSC MSR after os.closerange: $(cat "$work/out") $(cat "$work/err")"
	fi
}

# SIGINT while an input is a FIFO nobody writes (the open waits for a
# writer): 130 for every input a command reads, as docs/usage.md's table
# says, not the error of an interrupted open.
case_fifo_sigint() {
	local a pid
	mkfifo "$work/fifo"
	for a in "stat --trace $work/fifo" "trace info $work/fifo" "stat --backend replay:$work/fifo" \
		"list --event-file $work/fifo" "stat --event-file $work/fifo"; do
		# shellcheck disable=SC2086  # the arguments are words
		"$bin" $a >"$work/out" 2>"$work/err" &
		pid=$!
		sleep 0.5
		kill -INT "$pid"
		rc=0
		wait "$pid" || rc=$?
		last="uncore $a, SIGINT"
		sanitizer_check "$last"
		expect_rc 130
		expect_err "SIGINT"
	done
}

run_case
