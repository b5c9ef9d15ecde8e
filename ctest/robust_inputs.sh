#!/usr/bin/env bash
# robust_inputs.sh UNCORE CASE - inputs that are malformed, unbounded,
# contradictory or come through a pipe (issue 18, items 4-7, 10, 12):
# every case asserts the exit code, where the message says the fault is
# (file:line:col, or the byte offset of a binary trace) and that nothing
# partial was written.  ctest/CMakeLists.txt registers each case as
# robust.<CASE>.
#
# Expected locations are where the fault was put: a file's lines are
# written here and counted by hand, a binary trace is rebuilt here with a
# CRC-32 of its own (python3's zlib) after the layout of docs/formats.md.
set -euo pipefail

# an unbounded input must not run long: the bounded ones here take well
# under a second
run_timeout=60
. "$(dirname "$0")/cli_lib.sh"

# run_sh CMD: the same through bash (pipes, process substitution).
run_sh() {
	rc=0
	timeout -s KILL "$run_timeout" bash -c "$1" >"$work/out" 2>"$work/err" || rc=$?
	sanitizer_check "$1"
	last="$1"
}

# expect_no_file PATH: neither PATH nor a temporary beside it is left
expect_no_file() {
	if [ -e "$1" ]; then
		fail "$last: left $1"
	fi
	if ls "$(dirname "$1")" | grep -qF "$(basename "$1")."; then
		fail "$last: left a temporary of $1"
	fi
}

# bad_trace FILE LOCATION [RC]: refused alike by trace info, trace convert
# and stat --trace (exit RC, 2 unless given: bad input is a usage error,
# docs/usage.md; FILE then LOCATION; nothing printed or written).
bad_trace() {
	local f=$1 loc=$1$2 want=${3:-2}
	run trace info "$f"
	expect_rc "$want"
	expect_err "$loc"
	expect_no_stdout
	run trace convert "$f" -o "$work/conv.out"
	expect_rc "$want"
	expect_err "$loc"
	expect_no_file "$work/conv.out"
	run stat --trace "$f" -e data_reads
	expect_rc "$want"
	expect_err "--trace: $loc"
	expect_no_stdout
	run stat --trace "$f" -e data_reads -I 1 -o "$work/stat.out"
	expect_rc "$want"
	expect_err "--trace: $loc"
	expect_no_stdout
	expect_no_file "$work/stat.out"
}

hdr='uncore-trace 2\nplatform skl\n'

# Work a trace demands is bounded before it starts: a trace may last 1e6 s
# of machine time (docs/formats.md); 2^56 cycles at 3 GHz is 2.4e7 s, and
# 1e11 cycles of a 1 Hz clock is 1e11 s.  Both are refused at the cycle
# count's column (line 3 col 5; line 4 col 5), by every reader.
case_trace_bounds() {
	printf "${hdr}run 72057594037927936: cbo.CACHE_LOOKUP.READ_I=1\n" >"$work/b1.uct"
	bad_trace "$work/b1.uct" ":3:5: the trace would last 2.40192e+07 s of machine time"
	expect_err "more than the limit of 1000000 s"
	printf "${hdr}clock uclk 1\nrun 100000000000: cbo.CACHE_LOOKUP.READ_I=1\n" >"$work/b2.uct"
	bad_trace "$work/b2.uct" ":4:5: the trace would last 1e+11 s of machine time (100000000000 cycles at 1 Hz uclk)"
	# an idle gap counts: @CYCLE is refused at its number (col 2)
	printf "${hdr}run 1:\n@3000000000000001 run 1:\n" >"$work/b3.uct"
	bad_trace "$work/b3.uct" ":4:2: the trace would last 1e+06 s"
	# the limit itself is a trace: 1e6 s at 3 GHz (trace info only: it
	# would replay for hours)
	printf "${hdr}run 3000000000000000: cbo.CACHE_LOOKUP.READ_I=1\n" >"$work/ok.uct"
	run trace info "$work/ok.uct"
	expect_rc 0
	grep -qx 'seconds    1000000.000000000' "$work/out" || fail "a trace of 1e6 s: $(cat "$work/out")"
	# binary: the same limit, at the segment record's offset (the 'S'
	# block's payload, after its record count)
	printf "${hdr}run 1:\n" >"$work/one.uct"
	run trace convert "$work/one.uct" --binary -o "$work/one.bin"
	expect_rc 0
	python3 - "$work/one.bin" "$work/b4.bin" <<-'EOF'
	import struct, sys, zlib
	b = open(sys.argv[1], 'rb').read()
	out, off = bytearray(b[:12]), 12
	while off < len(b):
	    t, n = b[off], struct.unpack('<I', b[off + 1:off + 5])[0]
	    p = b[off + 5:off + 5 + n]
	    if t == ord('S'):
	        # one record: start gap 0, 2^52 cycles (1.5e6 s), no input, no sleep mask
	        v, c = bytearray(), 1 << 52
	        while c >= 0x80:
	            v.append(c & 0x7f | 0x80)
	            c >>= 7
	        v.append(c)
	        p = bytes([1, 0]) + bytes(v) + bytes([0, 0])
	    if t == ord('E'):
	        v, c = bytearray(), 1 << 52
	        while c >= 0x80:
	            v.append(c & 0x7f | 0x80)
	            c >>= 7
	        v.append(c)
	        p = bytes([1]) + bytes(v)
	    h = bytes([t]) + struct.pack('<I', len(p))
	    out += h + p + struct.pack('<I', zlib.crc32(h + p) & 0xffffffff)
	    off += 9 + n
	open(sys.argv[2], 'wb').write(out)
	EOF
	local at
	at=$(python3 - "$work/b4.bin" <<-'EOF'
	import struct, sys
	b = open(sys.argv[1], 'rb').read()
	off = 12
	while b[off] != ord('S'):
	    off += 9 + struct.unpack('<I', b[off + 1:off + 5])[0]
	print(off + 5 + 1)
	EOF
	)
	bad_trace "$work/b4.bin" ": offset $at: the trace would last"
}

# A trace is checked whole before anything runs: line 5 is malformed, and
# stat --trace says so before printing or counting anything, as trace info
# does (exit 2 from both).
case_trace_checked_first() {
	printf "${hdr}run 10: cbo.CACHE_LOOKUP.READ_I=1\nrun 10:\nrun 10: bogus.X=1\n" >"$work/bad5.uct"
	bad_trace "$work/bad5.uct" ":5:9: unknown box 'bogus.X'"
	# and after a long valid replay too: nothing printed for the first part
	{
		printf "$hdr"
		for i in $(seq 1 200); do printf 'run 30000: cbo.CACHE_LOOKUP.READ_I=1\n'; done
		printf 'run 10: cbo.CACHE_LOOKUP.READ_I=2\n'
	} >"$work/late.uct"
	bad_trace "$work/late.uct" ":203:9: cbo0 CACHE_LOOKUP: 2 per cycle exceeds the event's maximum increment 1"
}

# Error locations in text traces: a NUL byte and an over-long line on the
# line they are on, an error on line 1 as line 1, an empty file at 1:1, a
# directory as a directory.
case_trace_locations() {
	printf "${hdr}run 10: cbo.CACHE_LOOKUP.READ_I=1\nrun 1\0000:\n" >"$work/nul.uct"
	bad_trace "$work/nul.uct" ":4:6: NUL byte in a text trace"
	{
		printf "$hdr"
		printf 'run 1:'
		head -c 70000 /dev/zero | tr '\0' ' '
		printf '\nrun 1:\n'
	} >"$work/long.uct"
	bad_trace "$work/long.uct" ":3:65536: line longer than 65535 bytes"
	head -c 70000 /dev/zero | tr '\0' x >"$work/long1.uct"
	bad_trace "$work/long1.uct" ":1:65536: line longer than 65535 bytes"
	printf 'uncore-trace 9\n' >"$work/v.uct"
	bad_trace "$work/v.uct" ":1:14: unsupported version 9"
	: >"$work/empty.uct"
	bad_trace "$work/empty.uct" ":1:1: empty file"
	mkdir "$work/dir.uct"
	# a file that cannot be read is a run-time error (1)
	bad_trace "$work/dir.uct" ": Is a directory" 1
}

# Binary traces: the offset an error names is the byte at fault.  The
# header block starts at 12 (after magic, version, flags), its payload at
# 17: the platform string (a length byte and "skl") then the sockets
# varint at 21.
case_trace_binary_offsets() {
	printf "${hdr}run 5: cbo.CACHE_LOOKUP.READ_I=1\n" >"$work/t.uct"
	run trace convert "$work/t.uct" --binary -o "$work/t.bin"
	expect_rc 0
	# edit.py IN OUT WHAT: rewrite one thing, blocks re-checksummed
	cat >"$work/edit.py" <<-'EOF'
	import struct, sys, zlib
	src, dst, what = sys.argv[1], sys.argv[2], sys.argv[3]
	b = open(src, 'rb').read()
	out = bytearray(b[:12])
	if what == 'version':
	    out[8:10] = struct.pack('<H', 9)
	off = 12
	while off < len(b):
	    t, n = b[off], struct.unpack('<I', b[off + 1:off + 5])[0]
	    p = bytearray(b[off + 5:off + 5 + n])
	    if what == 'sockets' and t == ord('H'):
	        p[4] = 9
	    if what == 'trailing' and t == ord('E'):
	        print(len(out) + 5 + len(p))
	        p += b'\0'
	    if what == 'trailing_s' and t == ord('S'):
	        print(len(out) + 5 + len(p))
	        p += b'\0'
	    h = bytes([t]) + struct.pack('<I', len(p))
	    out += h + p + struct.pack('<I', zlib.crc32(h + bytes(p)) & 0xffffffff)
	    off += 9 + n
	open(dst, 'wb').write(out)
	EOF
	python3 "$work/edit.py" "$work/t.bin" "$work/ver.bin" version
	bad_trace "$work/ver.bin" ": offset 8: unsupported version 9"
	python3 "$work/edit.py" "$work/t.bin" "$work/sock.bin" sockets
	bad_trace "$work/sock.bin" ": offset 21: 9 sockets out of range"
	local at
	at=$(python3 "$work/edit.py" "$work/t.bin" "$work/trail.bin" trailing)
	bad_trace "$work/trail.bin" ": offset $at: junk after the end block's counts"
	at=$(python3 "$work/edit.py" "$work/t.bin" "$work/trails.bin" trailing_s)
	bad_trace "$work/trails.bin" ": offset $at: junk after the last record of a block"
	# a flipped bit: the block at fault, at its first byte (the header
	# block at 12)
	python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[18] ^= 1; open(sys.argv[2], 'wb').write(b)" \
		"$work/t.bin" "$work/crc.bin"
	bad_trace "$work/crc.bin" ": offset 12: corrupt: block checksum"
}

# Traces through pipes and process substitution, text and binary: the same
# summary and the same counts as from the file.
case_trace_pipes() {
	run trace gen stream --duration 0.002 -o "$work/s.uct"
	expect_rc 0
	run trace convert "$work/s.uct" --binary -o "$work/s.bin"
	expect_rc 0
	for f in s.uct s.bin; do
		run trace info "$work/$f"
		expect_rc 0
		grep -v '^file' "$work/out" >"$work/info.file" || true
		run_sh "cat '$work/$f' | '$bin' trace info /dev/stdin"
		expect_rc 0
		grep -v '^file' "$work/out" >"$work/info.pipe" || true
		cmp -s "$work/info.file" "$work/info.pipe" || fail "$f: trace info from a pipe differs: $(cat "$work/err")"
		grep -q '^fed        imc.DRAM_DATA_READS [1-9]' "$work/info.pipe" || fail "$f: nothing fed through a pipe"
		run stat --trace "$work/$f" -e data_reads,data_writes -x,
		expect_rc 0
		cp "$work/out" "$work/stat.file"
		run_sh "'$bin' stat --trace <(cat '$work/$f') -e data_reads,data_writes -x,"
		expect_rc 0
		cmp -s "$work/stat.file" "$work/out" || fail "$f: stat --trace <(...) differs: $(cat "$work/out" "$work/err")"
		run_sh "cat '$work/$f' | '$bin' stat --trace /dev/stdin -e data_reads,data_writes -x,"
		expect_rc 0
		cmp -s "$work/stat.file" "$work/out" || fail "$f: stat --trace /dev/stdin differs: $(cat "$work/out" "$work/err")"
	done
	# a malformed trace through a pipe: located, nothing counted
	run_sh "printf '${hdr}run 10:\nrun 10: bogus.X=1\n' | '$bin' stat --trace /dev/stdin"
	expect_rc 2
	expect_err "/dev/stdin:4:9: unknown box 'bogus.X'"
	expect_no_stdout
}

# The check before a replay reads a pipe that does not end: SIGINT stops
# it (exit 130, said so, nothing printed or written), and a read the signal
# interrupted is not reported as a malformed trace; trace info likewise.
case_trace_interrupted() {
	mkfifo "$work/fifo"
	local writer pid what
	for what in stat info; do
		(printf "${hdr}run 10:\n"; exec sleep 30) >"$work/fifo" 2>/dev/null &
		writer=$!
		if [ "$what" = stat ]; then
			"$bin" stat --trace "$work/fifo" -o "$work/o.txt" >"$work/out" 2>"$work/err" &
		else
			"$bin" trace info "$work/fifo" >"$work/out" 2>"$work/err" &
		fi
		pid=$!
		sleep 2
		kill -INT "$pid" 2>/dev/null || true
		rc=0
		wait "$pid" || rc=$?
		kill "$writer" 2>/dev/null || true
		wait "$writer" 2>/dev/null || true
		last="$what on a FIFO, SIGINT"
		expect_rc 130
		expect_no_stdout
		if [ "$what" = stat ]; then
			expect_err "stat interrupted by SIGINT: while checking the trace, before anything ran"
			expect_no_file "$work/o.txt"
		else
			expect_err "trace info interrupted by SIGINT"
		fi
		if grep -q "read error\|Interrupted system call" "$work/err"; then
			fail "$last: an interrupted read reported as an error: $(cat "$work/err")"
		fi
	done
}

# Options that contradict a trace are refused naming both sides, also
# where the trace leaves a value at the platform's default.
case_trace_options() {
	run trace gen stream --duration 0.001 -o "$work/s.uct"
	expect_rc 0
	run stat --trace "$work/s.uct" --ncbo 2
	expect_rc 2
	expect_err "--ncbo 2, but the trace $work/s.uct has 4 cbo boxes (the platform's default)"
	expect_no_stdout
	run stat --trace "$work/s.uct" --uclk-mhz 100
	expect_rc 2
	expect_err "--uclk-mhz 100 (100000000 Hz), but the trace $work/s.uct runs uclk at 3000000000 Hz (the platform's default)"
	expect_no_stdout
	run stat --trace "$work/s.uct" --platform snbep
	expect_rc 2
	expect_err "--platform snbep, but the trace $work/s.uct is for skl"
	# agreeing options are taken
	run stat --trace "$work/s.uct" --ncbo 4 --uclk-mhz 3000 --platform skl -e data_reads -x,
	expect_rc 0
	printf 'uncore-trace 2\nplatform snbep\nsockets 2\nclock uclk 2000000000\nboxes cbo=6\nrun 10:\n' >"$work/x.uct"
	run stat --trace "$work/x.uct" --sockets 1
	expect_rc 2
	expect_err "--sockets 1, but the trace $work/x.uct has 2 sockets"
	run stat --trace "$work/x.uct" --ncbo 8
	expect_rc 2
	expect_err "--ncbo 8, but the trace $work/x.uct has 6 cbo boxes"
	run stat --trace "$work/x.uct" --uclk-mhz 2700
	expect_rc 2
	expect_err "--uclk-mhz 2700 (2700000000 Hz), but the trace $work/x.uct runs uclk at 2000000000 Hz"
	printf 'uncore-trace 2\nplatform ivt\nrun 10:\n' >"$work/i.uct"
	run stat --trace "$work/i.uct" --qpi-links 3
	expect_rc 2
	expect_err "--qpi-links 3, but the trace $work/i.uct has 2 qpi boxes (the platform's default)"
}

# The access-log reader has a line limit: /dev/zero is refused at its first
# byte, a line of 5000 bytes at column 4096, a NUL where it is (exit 2,
# bad input, as a malformed trace); a directory as a directory (exit 1, a
# file not read).  Nothing printed or written.
case_log_bounds() {
	run stat --backend replay:/dev/zero -e uclk
	expect_rc 2
	expect_err "/dev/zero:1:1: NUL byte in an access log"
	expect_no_stdout
	run stat --record "$work/s.log" -e uclk --duration 0.01
	expect_rc 0
	{
		head -n 3 "$work/s.log"
		head -c 5000 /dev/zero | tr '\0' '#'
		printf '\n'
		tail -n +4 "$work/s.log"
	} >"$work/long.log"
	run stat --backend "replay:$work/long.log" -e uclk --duration 0.01 -o "$work/o.txt"
	expect_rc 2
	expect_err "long.log:4:4096: line longer than 4095 bytes"
	expect_no_file "$work/o.txt"
	{
		head -n 4 "$work/s.log"
		printf 'rdmsr 0 0x'
		printf '\000'
		printf '395 -> 0x0 rc=0 t=0\n'
	} >"$work/nul.log"
	run stat --backend "replay:$work/nul.log" -e uclk --duration 0.01
	expect_rc 2
	expect_err "nul.log:5:11: NUL byte in an access log"
	expect_no_stdout
	mkdir "$work/d.log"
	run stat --backend "replay:$work/d.log" -e uclk
	expect_rc 1
	expect_err "d.log: Is a directory"
	printf 'uncore-access 1junk\n' >"$work/h.log"
	run stat --backend "replay:$work/h.log" -e uclk
	expect_rc 2
	expect_err "h.log:1:1: not an access trace"
}

# A replay that diverges names the log's file:line, what the log expected
# and what the driver did, whatever access comes after it (the restore's);
# exit 1 (a run-time error), 2 for a malformed result (bad input).
case_log_diverges() {
	run stat --record "$work/s.log" -e uclk --duration 0.01
	expect_rc 0
	# skl, the log's last two lines missing: the driver's restore runs
	# past its end
	local n
	n=$(wc -l <"$work/s.log")
	head -n $((n - 2)) "$work/s.log" >"$work/cut.log"
	run stat --backend "replay:$work/cut.log" -e uclk --duration 0.01 -o "$work/o.txt"
	expect_rc 1
	expect_err "cut.log:$((n - 1)): replay diverges at access $((n - 3)): the log ends; the driver did: $(sed -n "$((n - 1))p" "$work/s.log" | sed 's/ ->.*/ ->/')"
	expect_no_file "$work/o.txt"
	# snbep, line 3 deleted: the log expects line 4's access where the
	# driver does line 3's
	run stat --platform snbep --record "$work/p.log" --duration 0.01
	expect_rc 0
	sed 3d "$work/p.log" >"$work/p3.log"
	run stat --platform snbep --backend "replay:$work/p3.log" --duration 0.01 -o "$work/o.txt"
	expect_rc 1
	expect_err "p3.log:3: replay diverges at access 1: the log expects: $(sed -n 4p "$work/p.log")"
	expect_err "the driver did: $(sed -n 3p "$work/p.log" | sed 's/ ->.*/ ->/')"
	expect_no_file "$work/o.txt"
	# a different driver session: line and both sides
	run stat --backend "replay:$work/s.log" -e uclk --duration 0.02 -o "$work/o.txt"
	expect_rc 1
	expect_err "s.log:$(grep -n '^sleep' "$work/s.log" | head -1 | cut -d: -f1): replay diverges at access"
	expect_err "the log expects: sleep 10000000 ->"
	expect_err "the driver did: sleep 20000000 ->"
	expect_no_file "$work/o.txt"
	# a log longer than the session: where it goes on
	run stat --record "$work/l.log" -e uclk --duration 0.01
	expect_rc 0
	sed -n '4,$p' "$work/l.log" >>"$work/l.log.tail"
	cat "$work/l.log" "$work/l.log.tail" >"$work/long.log"
	run stat --backend "replay:$work/long.log" -e uclk --duration 0.01 -o "$work/o.txt"
	expect_rc 1
	expect_err "long.log:$((n + 1)): replay diverges after access $((n - 2)): the driver stopped; the log expects $((n - 3)) more, first: $(sed -n 4p "$work/l.log")"
	expect_no_file "$work/o.txt"
	# a malformed result: its column
	sed '4s/-> 0x[0-9a-f]*/-> zz/' "$work/s.log" >"$work/bad.log"
	run stat --backend "replay:$work/bad.log" -e uclk --duration 0.01
	expect_rc 2
	expect_err "bad.log:4:$(sed -n 4p "$work/s.log" | awk '{ print index($0, "->") + 3 }'): replay diverges at access 2: malformed result 1"
	# a malformed t= (a recording of the replay would copy it): its column
	for t in 't=12x' 't=' 't=-5' 't=99999999999999999999999'; do
		sed "4s/ t=[0-9]*/ $t/" "$work/s.log" >"$work/badt.log"
		run stat --backend "replay:$work/badt.log" -e uclk --duration 0.01 -o "$work/o.txt"
		expect_rc 2
		expect_err "badt.log:4:$(sed -n 4p "$work/badt.log" | awk '{ print index($0, " t=") + 3 }'): replay diverges at access 2: bad t= in"
		expect_no_file "$work/o.txt"
	done
}

# Recording a replayed session: the recorder's time stamps come from the
# log, not from reads of the replayed clock, so the new log is the old one
# and replays again.
case_log_record_replay() {
	run stat --record "$work/s.log" -e uclk,data_reads -I 5 --duration 0.02 -x,
	expect_rc 0
	cp "$work/out" "$work/want"
	run stat --backend "replay:$work/s.log" --record "$work/c.log" -e uclk,data_reads -I 5 --duration 0.02 -x,
	expect_rc 0
	cmp -s "$work/want" "$work/out" || fail "replayed while recording: output differs"
	cmp -s "$work/s.log" "$work/c.log" || fail "the log recorded from a replay differs: $(diff "$work/s.log" "$work/c.log" | head -5)"
	run stat --backend "replay:$work/c.log" -e uclk,data_reads -I 5 --duration 0.02 -x,
	expect_rc 0
	cmp -s "$work/want" "$work/out" || fail "the re-recorded log replays differently"
	# a failed replay while recording leaves no log
	run stat --backend "replay:$work/s.log" --record "$work/d.log" -e uclk --duration 0.02
	expect_rc 1
	expect_no_file "$work/d.log"
}

run_case
