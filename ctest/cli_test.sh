#!/usr/bin/env bash
# cli_test.sh UNCORE CASE - command-line tests of the built `uncore` that
# need more than one run's output against a pattern: exit codes, several
# runs compared, files and directories, JSON.  ctest/CMakeLists.txt
# registers each case as cli.<CASE>.  A case reports every broken
# expectation (what it wanted, what it got) and exits 1 if there was one.
#
# Expected values come from the manual, not from the program: the 25
# events of Tables 3-1..3-3, the 25 MSRs of Table 2-1 plus the host
# bridge's 3 PCI registers and the 5 IMC counters of Table 3-3, and the
# platform's default event set (model/skl/ucm_plat_skl.c, default_events).
set -euo pipefail

. "$(dirname "$0")/cli_lib.sh"

# The platform's default event set, in order.
default_events=(UNC_CLOCK.SOCKET UNC_CBO_CACHE_LOOKUP.ANY_MESI UNC_CBO_CACHE_LOOKUP.ANY_I
	UNC_ARB_TRK_REQUESTS.ALL UNC_ARB_TRK_OCCUPANCY.ALL DRAM_DATA_READS DRAM_DATA_WRITES)

# SKL Tables 3-1, 3-2 and 3-3.
manual_events=(
	UNC_CBO_XSNP_RESPONSE.MISS_XCORE UNC_CBO_XSNP_RESPONSE.MISS_EVICTION
	UNC_CBO_XSNP_RESPONSE.HIT_XCORE UNC_CBO_XSNP_RESPONSE.HITM_XCORE
	UNC_CBO_CACHE_LOOKUP.WRITE_M UNC_CBO_CACHE_LOOKUP.ANY_M UNC_CBO_CACHE_LOOKUP.READ_I
	UNC_CBO_CACHE_LOOKUP.ANY_I UNC_CBO_CACHE_LOOKUP.READ_MESI UNC_CBO_CACHE_LOOKUP.WRITE_MESI
	UNC_CBO_CACHE_LOOKUP.ANY_MESI UNC_CBO_CACHE_LOOKUP.ANY_ES UNC_CBO_CACHE_LOOKUP.READ_ES
	UNC_CBO_CACHE_LOOKUP.WRITE_ES
	UNC_ARB_TRK_OCCUPANCY.ALL UNC_ARB_TRK_REQUESTS.ALL UNC_ARB_TRK_REQUESTS.WRITES
	UNC_ARB_COH_TRK_REQUESTS.ALL UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST
	UNC_CLOCK.SOCKET
	DRAM_GT_REQUESTS DRAM_IA_REQUESTS DRAM_IO_REQUESTS DRAM_DATA_READS DRAM_DATA_WRITES)

# SKL Table 2-1, then the host bridge (3.3) and Table 3-3.
manual_regs=(
	MSR_UNC_PERF_GLOBAL_CTRL MSR_UNC_PERF_GLOBAL_STATUS MSR_UNC_CBO_CONFIG
	MSR_UNC_PERF_FIXED_CTRL MSR_UNC_PERF_FIXED_CTR
	MSR_UNC_ARB_PERFCTR0 MSR_UNC_ARB_PERFCTR1 MSR_UNC_ARB_PERFEVTSEL0 MSR_UNC_ARB_PERFEVTSEL1
	MSR_UNC_CBO_0_PERFEVTSEL0 MSR_UNC_CBO_0_PERFEVTSEL1 MSR_UNC_CBO_0_PERFCTR0 MSR_UNC_CBO_0_PERFCTR1
	MSR_UNC_CBO_1_PERFEVTSEL0 MSR_UNC_CBO_1_PERFEVTSEL1 MSR_UNC_CBO_1_PERFCTR0 MSR_UNC_CBO_1_PERFCTR1
	MSR_UNC_CBO_2_PERFEVTSEL0 MSR_UNC_CBO_2_PERFEVTSEL1 MSR_UNC_CBO_2_PERFCTR0 MSR_UNC_CBO_2_PERFCTR1
	MSR_UNC_CBO_3_PERFEVTSEL0 MSR_UNC_CBO_3_PERFEVTSEL1 MSR_UNC_CBO_3_PERFCTR0 MSR_UNC_CBO_3_PERFCTR1
	HOSTBRIDGE_VID HOSTBRIDGE_DID MCHBAR
	DRAM_GT_REQUESTS DRAM_IA_REQUESTS DRAM_IO_REQUESTS DRAM_DATA_READS DRAM_DATA_WRITES)

# sorted, one a line
sorted() { printf '%s\n' "$@" | sort; }

# ---- stat ----

# The two-socket Xeon E5-2600: the default set is, per socket, the UBox
# clock (1 counter), two CBo events on 8 CBos (16), two HA events (2),
# cas_rd, cas_wr and the DCLK on 4 channels (12), PCU occupancy and C6
# residency (2) and QPI data flits on 2 ports (2): 35 counters a socket
# (guide Tables 1-2, 1-3).
# The Xeon E5-2600 v2 (docs/platform-ivt.md): known by its alias, every
# event of Intel's list (model/ivt/data/ivt_uncore_events.tsv, unchanged
# from ../shared/data) listed, the default set counted exactly on two
# sockets, and sampling: UNC_U_CLOCKTICKS every 27e6 uclk cycles (10 ms at
# 2.7 GHz) over 0.1 s is 9 or 10 overflows (the re-arms take a few us).
case_ivt_stat() {
	local tsv n
	tsv=$(dirname "$0")/../model/ivt/data/ivt_uncore_events.tsv
	run list --platform ivybridge-ep
	expect_rc 0
	awk -F '\t' 'NR > 1 { print $2 }' "$tsv" | sort -u >"$work/want"
	grep -E '^  [^ ]' "$work/out" | awk '{ print $1 }' | sort -u >"$work/got"
	comm -23 "$work/want" "$work/got" >"$work/missing"
	[ ! -s "$work/missing" ] || fail "$last: Intel's events missing: $(head -5 "$work/missing" | tr '\n' ' ')"
	[ "$(wc -l <"$work/want")" -ge 1000 ] || fail "$last: the TSV has $(wc -l <"$work/want") names"

	run stat --platform ivt --check --duration 0.01
	expect_rc 0
	grep -qE "^uncore: check: [0-9]+ counters equal the model's ground truth; no strict-mode record$" \
		"$work/err" || fail "$last: no check line: $(cat "$work/err")"
	grep -qF "Performance counter stats for 'ivt uncore':" "$work/out" || fail "$last: no header"

	run stat --platform ivt --sockets 1 -e UNC_U_CLOCKTICKS --sample-period 27000000 --duration 0.1 --check
	expect_rc 0
	n=$(grep -cE '^ +[0-9.]+ +[0-9]+  S0 +ubox0\.[01] +[0-9]+  UNC_U_CLOCKTICKS$' "$work/out" || true)
	[ "$n" -ge 9 ] && [ "$n" -le 10 ] || fail "$last: $n samples, want 9 or 10: $(cat "$work/out")"
	grep -qF "# $n overflow notices, $n freezes re-armed" "$work/out" || fail "$last: no overflow line"

	# a part with a third QPI port and R3QPI link (D24:F2 0x0E3A, D18:F5
	# 0x0E3E): the driver finds three of each on each socket by probing
	run stat --platform ivt --qpi-links 3 -e UNC_Q_CLOCKTICKS,UNC_R3_CLOCKTICKS --per-socket --duration 0.001 --check
	expect_rc 0
	[ "$(grep -cE '^S[01] +3 +[0-9,]+ +UNC_(Q|R3)_CLOCKTICKS' "$work/out")" -eq 4 ] ||
		fail "$last: not three ports and links a socket: $(cat "$work/out")"
	run stat --platform ivt --qpi-links 4 --duration 0.001
	expect_rc 2
	expect_err "--qpi-links: 4 out of range for ivt (1-3)"
	run stat --platform snbep --qpi-links 3 --duration 0.001
	expect_rc 2
	expect_err "--qpi-links: snbep has no variable link count"
}

case_snbep_stat() {
	run stat --platform snbep --check --duration 0.1
	expect_rc 0
	grep -qxF "uncore: check: 70 counters equal the model's ground truth; no strict-mode record" \
		"$work/err" || fail "$last: no check line for 70 counters: $(cat "$work/err")"
	grep -qF "Performance counter stats for 'snbep uncore':" "$work/out" || fail "$last: no header"
	cp "$work/out" "$work/total"

	# per socket: two lines an event, the counters summed, adding up to
	# the total of the same (deterministic) run
	run stat --platform snbep --per-socket --duration 0.1
	expect_rc 0
	awk '
		FILENAME == ARGV[1] && /^ +[0-9][0-9,]* +[A-Za-z]/ { c = $1; gsub(",", "", c); total[$2] = c + 0; n++ }
		FILENAME == ARGV[2] && /^S[01] / { c = $3; gsub(",", "", c); sum[$4] += c + 0; units[$4 " " $1] = $2 }
		END {
			if (n != 11) { printf "%d events, want 11\n", n; bad = 1 }
			for (e in total) if (sum[e] != total[e]) { printf "%s: sockets add to %.0f, total %.0f\n", e, sum[e], total[e]; bad = 1 }
			want["UNC_U_CLOCKTICKS"] = 1; want["UNC_C_LLC_LOOKUP.DATA_READ"] = 8; want["cas_rd"] = 4
			want["UNC_M_DCLOCKTICKS"] = 4; want["UNC_Q_TxL_FLITS_G0.DATA"] = 2; want["UNC_H_REQUESTS.READS"] = 1
			for (e in want) for (s = 0; s < 2; s++)
				if (units[e " S" s] != want[e]) { printf "%s S%d: %s counters, want %d\n", e, s, units[e " S" s], want[e]; bad = 1 }
			exit bad
		}' "$work/total" "$work/out" >"$work/why" || fail "$last: $(cat "$work/why")"
	# a clock summed over counters shows one counter's frequency: the
	# 4 channels' DCLK at 800 MHz (2.5.4.2), not 3.2 GHz
	grep -qE '^ +[0-9,]+ +UNC_M_DCLOCKTICKS +# +0\.[78][0-9]{2} GHz$' "$work/total" ||
		fail "$last: DCLK not shown at ~0.8 GHz: $(grep DCLOCK "$work/total")"

	# one socket; four CBos, which the driver finds by probing
	run stat --platform snbep --check --duration 0.05 --sockets 1 --ncbo 4
	expect_rc 0
	grep -qxF "uncore: check: 27 counters equal the model's ground truth; no strict-mode record" \
		"$work/err" || fail "$last: no check line for 27 counters: $(cat "$work/err")"
	run stat --platform snbep --sockets 3
	expect_rc 2
	expect_err "--sockets 3: snbep has at most 2"
	run stat --platform skl --sockets 2
	expect_rc 2
	expect_err "--sockets 2: skl has at most 1"
	# every built-in workload of the platform runs
	for wl in mixed stream idle; do
		run stat --platform snbep --check --duration 0.02 --workload "$wl"
		expect_rc 0
	done
}

# Linux perf's PMU names and format terms (issue 16, item 2): perf command
# lines of each platform count what the model counted.  Counter counts:
# skl one per named PMU plus the four CBos of uncore_cbox; the Xeons one
# per PMU a socket (two sockets), the unnumbered uncore_imc being the four
# channels (snbep) and uncore_r3qpi the two links (ivt).
case_perf_names() {
	local l
	run stat --check --duration 0.02 -x, -e 'uncore_cbox_0/event=0x34,umask=0x8f/,uncore_arb/event=0x81,umask=0x01/,uncore_imc/data_reads/,uncore_cbox_1/clockticks/,uncore_cbox/event=0x22,umask=0x41,edge,cmask=1/'
	expect_rc 0
	grep -qxF "uncore: check: 8 counters equal the model's ground truth; no strict-mode record" \
		"$work/err" || fail "$last: no check line for 8 counters: $(cat "$work/err")"
	grep -qE '^[0-9]+,,uncore_cbox_0/event=0x34,umask=0x8f/,' "$work/out" || fail "$last: $(cat "$work/out")"
	run stat --platform snbep --check --duration 0.02 -e 'uncore_ubox/event=0xff/,uncore_cbox_0/event=0x35,umask=0x03,filter_opc=0x182/,uncore_imc_0/cas_count_read/,uncore_imc/cas_count_write/,uncore_pcu/event=0x80,occ_sel=1/,uncore_qpi_1/drs_data/,uncore_ha/event=0x01,umask=0x03/,uncore_r2pcie/event=0x01/,uncore_r3qpi_0/event=0x01/'
	expect_rc 0
	grep -qxF "uncore: check: 24 counters equal the model's ground truth; no strict-mode record" \
		"$work/err" || fail "$last: no check line for 24 counters: $(cat "$work/err")"
	run stat --platform ivt --check --duration 0.02 -e 'uncore_ubox/event=0xff/,uncore_cbox_0/event=0x34,umask=0x03,filter_state=0x1f/,uncore_imc_0/cas_count_read/,uncore_ha_1/event=0x01,umask=0x03/,uncore_irp/event=0x15,umask=0x01/,uncore_qpi_0/event=0x14/,uncore_pcu/event=0x80,occ_sel=1/,uncore_r3qpi/event=0x01/'
	expect_rc 0
	grep -qxF "uncore: check: 18 counters equal the model's ground truth; no strict-mode record" \
		"$work/err" || fail "$last: no check line for 18 counters: $(cat "$work/err")"
	# the third QPI port and R3QPI link of a --qpi-links 3 part (ivt V23)
	run stat --platform ivt --qpi-links 3 --check --duration 0.001 -e 'uncore_qpi_2/event=0x14/,uncore_r3qpi_2/event=0x01/'
	expect_rc 0
	grep -qxF "uncore: check: 4 counters equal the model's ground truth; no strict-mode record" \
		"$work/err" || fail "$last: no check line for 4 counters: $(cat "$work/err")"
	# what perf would refuse is a usage error naming the term and the
	# kernel's formats
	run stat --platform ivt -e 'uncore_cbox_0/event=0x34,umask=0x03,inv/'
	expect_rc 2
	expect_err "'inv' is not a format of perf's uncore_cbox (Linux defines: event, umask, edge, tid_en, thresh,"
	expect_no_stdout
	# list: each event's perf spelling and the PMUs
	run list
	expect_rc 0
	grep -qxF '      perf: uncore_cbox/event=0x34,umask=0x8f/' "$work/out" || fail "$last: no perf line"
	grep -qxF '      perf: uncore_cbox_0/event=0xff/' "$work/out" || fail "$last: no perf line for the clock"
	grep -qxF '      perf: uncore_imc/event=0x01/' "$work/out" || fail "$last: no perf line for data reads"
	for l in '    uncore_cbox_0 .. uncore_cbox_3 (or uncore_cbox: every one)' '    uncore_arb' '    uncore_imc'; do
		grep -qxF -- "$l" "$work/out" || fail "$last: no PMU line '$l'"
	done
	run list --platform ivt --json
	expect_rc 0
	python3 - "$work/out" <<'PY' || fail "$last: JSON"
import json, sys
ev = {e["name"]: e for e in json.load(open(sys.argv[1]))}
assert ev["UNC_M_CAS_COUNT.RD"]["perf"] == "uncore_imc/event=0x04,umask=0x03/", ev["UNC_M_CAS_COUNT.RD"]
assert ev["UNC_P_POWER_STATE_OCCUPANCY.CORES_C0"]["perf"] == "uncore_pcu/event=0x80,occ_sel=1/"
PY
}

# Intel's perfmon event files (issue 16, item 3), read by python as well:
# every entry of each of the three is either used or reported by index and
# name; the entries of Intel's IRP unit, a box the E5-2600 guide lacks, are
# all reported; a loaded event counts by name; a syntax error names the
# file, line and column.
case_event_file() {
	local d f
	d=$(dirname "$0")/data/perfmon
	for f in skl:skylake_uncore.json snbep:Jaketown_uncore.json ivt:ivytown_uncore.json; do
		run list --platform "${f%%:*}" --event-file "$d/${f#*:}"
		expect_rc 0
		python3 - "$d/${f#*:}" "$work/err" "$work/out" "${f%%:*}" <<'PY' || fail "$last: $(cat "$work/why" 2>/dev/null)"
import json, re, sys
ev = json.load(open(sys.argv[1]))["Events"]
err = open(sys.argv[2]).read().splitlines()
out = open(sys.argv[3]).read()
path = sys.argv[1]
summary = [l for l in err if " entries for " in l]
assert len(summary) == 1, err[-3:]
m = re.search(r": (\d+) entries for \w+: (\d+) new events, (\d+) already in the tables, (\d+) reported$", summary[0])
assert m and int(m.group(1)) == len(ev), summary
n, new, known, rep = map(int, m.groups())
assert new + known + rep == n, summary
reported = {}
for l in err:
    if l in summary:
        continue
    r = re.fullmatch(r"uncore: (.*): entry (\d+) \((.*?)\): (.+)", l)
    assert r and r.group(1) == path, l
    i = int(r.group(2))
    assert ev[i]["EventName"] == r.group(3), (l, ev[i]["EventName"])
    reported[i] = r.group(4)
assert len(reported) == rep, (len(reported), rep)
for i, e in enumerate(ev):
    if e["Unit"] == "IRP" and sys.argv[4] == "snbep":
        assert "Unit 'IRP' is no box" in reported.get(i, ""), (i, e["EventName"])
    if i not in reported:
        # used: listed by name, in the tables' events or the file's
        assert re.search(r"^  " + re.escape(e["EventName"]) + r"( |$)", out, re.M | re.I), e["EventName"]
PY
	done
	run stat --event-file "$d/skylake_uncore.json" -e UNC_ARB_TRK_REQUESTS.DATA_READ,UNC_ARB_TRK_OCCUPANCY.DATA_READ --check --duration 0.05 -x,
	expect_rc 0
	grep -qxF "uncore: check: 2 counters equal the model's ground truth; no strict-mode record" \
		"$work/err" || fail "$last: no check line for 2 counters: $(cat "$work/err")"
	grep -qE '^[1-9][0-9]*,,UNC_ARB_TRK_REQUESTS.DATA_READ,' "$work/out" || fail "$last: $(cat "$work/out")"
	# without the file the name is unknown; the encoding counts all the same (D16)
	run stat -e UNC_ARB_TRK_REQUESTS.DATA_READ --duration 0.01
	expect_rc 2
	expect_err "unknown event"
	run stat -e 'arb/event=0x81,umask=0x02/' --check --duration 0.05
	expect_rc 0
	run list --json --event-file "$d/skylake_uncore.json"
	expect_rc 0
	python3 -c '
import json, sys
a = {e["name"]: e for e in json.load(sys.stdin)}
e = a["UNC_ARB_TRK_REQUESTS.DATA_READ"]
assert e["unit"] == "arb" and e["code"] == 0x81 and e["umask"] == 2 and "entry 22" in e["source"], e
assert e["perf"] == "uncore_arb/event=0x81,umask=0x02/", e
' <"$work/out" || fail "$last: JSON"
	printf '{"Events": [\n  {"EventName": "X",\n   "Unit" "CBO"}\n]}\n' >"$work/bad.json"
	run stat --event-file "$work/bad.json" --duration 0.01
	expect_rc 2
	expect_err "--event-file: $work/bad.json:3:"
	expect_no_stdout
	# a file that cannot be read is a run-time error (1), not bad input
	run list --event-file "$work/none.json"
	expect_rc 1
	expect_err "--event-file: $work/none.json: No such file or directory"
	run stat --event-file "$work" --duration 0.01
	expect_rc 1
	expect_err "--event-file: $work: Is a directory"
	expect_no_stdout
	# a stream without end is refused at the limit, named (it used to grow
	# without end: the run's timeout fails it)
	rc=0
	yes ' ' | timeout -s KILL 60 "$bin" list --event-file /dev/stdin >"$work/out" 2>"$work/err" || rc=$?
	last="yes ' ' | uncore list --event-file /dev/stdin"
	sanitizer_check "$last"
	expect_rc 2
	expect_err "--event-file: /dev/stdin: more than 33554432 bytes, the most an event file may have (UCD_EVFILE_MAX_BYTES)"
	expect_no_stdout
	# SIGINT while waiting on a FIFO nobody writes: 130, as every command
	mkfifo "$work/fifo"
	"$bin" list --event-file "$work/fifo" >"$work/out" 2>"$work/err" &
	local pid=$!
	sleep 0.5
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	last="uncore list --event-file FIFO, SIGINT"
	sanitizer_check "$last"
	expect_rc 130
	expect_err "--event-file: $work/fifo: reading interrupted by SIGINT"
	# a name -e could not give is reported, its control character shown
	printf '[{"Unit":"CBO","EventCode":"0x34","UMask":"0x11","EventName":"A\\u001b[2J","Counter":"0,1"}]\n' >"$work/ctl.json"
	run list --event-file "$work/ctl.json"
	expect_rc 0
	expect_err "entry 0 (A\\x1b[2J): EventName has control character 0x1b at byte 2"
}

# A usage error exits 2 with one line on stderr that names the option, the
# value and, in an event list, the column of the bad event; nothing on
# stdout.  (run checks every run's stderr for sanitizer reports.)
case_usage_error_fails() {
	run stat --duration 0
	expect_rc 2
	[ "$(cat "$work/err")" = "uncore: error: --duration: '0' is not a finite positive number" ] ||
		fail "$last: stderr \"$(cat "$work/err")\", want the option, its value and why"
	expect_no_stdout
	# uclk,NO_SUCH_EVENT: the second event starts at column 6
	run stat -e uclk,NO_SUCH_EVENT
	expect_rc 2
	[ "$(cat "$work/err")" = "uncore: error: -e: event 'NO_SUCH_EVENT' (col 6): unknown event (see 'uncore list' for skl)" ] ||
		fail "$last: stderr \"$(cat "$work/err")\", want the event and its column"
	expect_no_stdout
}

case_check() {
	# A trace whose counts the test computes itself (SKL Tables 3-1..3-3):
	# 3e6 uclk cycles of one CBo 0 read hit in M, one CBo 1 write to an I
	# line and one ARB write request a cycle, then 1e6 cycles of one DRAM
	# read a cycle.  ANY_MESI counts both lookups (6e6), ANY_I the write
	# (3e6), TRK_REQUESTS.WRITES 3e6, DRAM_DATA_READS 1e6, DRAM_DATA_WRITES
	# 0; --check's own verdict must agree.
	local got
	cat >"$work/t.uct" <<'EOT'
uncore-trace 2
platform skl
run 3000000: cbo0.CACHE_LOOKUP.READ_M=1, cbo1.CACHE_LOOKUP.WRITE_I=1, arb.TRK_REQUESTS.WRITES=1
run 1000000: imc.DRAM_DATA_READS=1
EOT
	run stat --check --trace "$work/t.uct" -x, \
		-e UNC_CBO_CACHE_LOOKUP.ANY_MESI,UNC_CBO_CACHE_LOOKUP.ANY_I,UNC_ARB_TRK_REQUESTS.WRITES,DRAM_DATA_READS,DRAM_DATA_WRITES
	expect_rc 0
	got=$(cut -d, -f1,3 "$work/out" | paste -sd' ')
	[ "$got" = "6000000,UNC_CBO_CACHE_LOOKUP.ANY_MESI 3000000,UNC_CBO_CACHE_LOOKUP.ANY_I 3000000,UNC_ARB_TRK_REQUESTS.WRITES 1000000,DRAM_DATA_READS 0,DRAM_DATA_WRITES" ] ||
		fail "$last: counts \"$got\", want the ones computed from the trace"
	# 4 CBos x 2 events + ARB + 2 IMC
	grep -qxF "uncore: check: 11 counters equal the model's ground truth; no strict-mode record" \
		"$work/err" || fail "$last: no check line for 11 counters: $(cat "$work/err")"

	run stat --check --duration 0.2
	expect_rc 0
	# 1 fixed + 4+4 CBo + 2 ARB + 2 IMC counters for the default set
	if ! grep -qxE "uncore: check: 13 counters equal the model's ground truth; no strict-mode record" \
		"$work/err"; then
		fail "$last: no check line for 13 counters: $(cat "$work/err")"
	fi
	grep -q 'seconds time elapsed' "$work/out" || fail "$last: no counts printed"

	run stat --check --duration 0.1 --ncbo 2 --workload stream \
		-e 'cbo/event=0x34,umask=0x8f/,arb/event=0x80,umask=1,thresh=1/,uclk'
	expect_rc 0
	grep -qxF "uncore: check: 4 counters equal the model's ground truth; no strict-mode record" \
		"$work/err" || fail "$last: no check line for 4 counters: $(cat "$work/err")"
}

case_stat_default() {
	local ev n order
	run stat --duration 0.2
	expect_rc 0
	for ev in "${default_events[@]}"; do
		n=$(grep -cE "^ +[0-9][0-9,]* +${ev//./\\.}( |$)" "$work/out" || true)
		[ "$n" -eq 1 ] || fail "$last: $n count lines for $ev, want 1"
	done
	order=$(awk '/^ +[0-9][0-9,]* +[A-Z]/ { print $2 }' "$work/out" | paste -sd' ')
	[ "$order" = "${default_events[*]}" ] || fail "$last: events \"$order\", want \"${default_events[*]}\""
	grep -qE '^ +[0-9,]+ +UNC_CLOCK\.SOCKET +# +[0-9]+\.[0-9]{3} GHz$' "$work/out" ||
		fail "$last: no GHz metric on the clock"
	for ev in DRAM_DATA_READS DRAM_DATA_WRITES; do
		grep -qE "^ +[0-9,]+ +$ev +# +[0-9]+\.[0-9]{3} GB/s$" "$work/out" ||
			fail "$last: no GB/s metric on $ev"
	done
	grep -qE '^ +[0-9]+\.[0-9]{3} GB/s DRAM bandwidth' "$work/out" ||
		fail "$last: no total DRAM bandwidth in GB/s"
	grep -qF "Performance counter stats for 'skl uncore':" "$work/out" || fail "$last: no header"
	grep -qE '^ +[0-9]+\.[0-9]{9} seconds time elapsed$' "$work/out" || fail "$last: no elapsed time"
	# the metrics follow from the counts: 64 bytes a count, the sum of both
	awk '
		/seconds time elapsed/ { t = $1 }
		/^ +[0-9,]+ +DRAM_DATA_(READS|WRITES) / { c = $1; gsub(",", "", c); n[$2] = c; g[$2] = $4 }
		/GB\/s DRAM bandwidth/ { total = $1 }
		END {
			bad = 0
			for (e in n) {
				want = n[e] * 64 / t / 1e9
				if (g[e] - want > 0.0015 || want - g[e] > 0.0015) {
					printf "%s: %s GB/s, counts say %.3f\n", e, g[e], want; bad = 1
				}
			}
			sum = g["DRAM_DATA_READS"] + g["DRAM_DATA_WRITES"]
			if (total - sum > 0.0025 || sum - total > 0.0025) {
				printf "total %s GB/s, reads + writes %.3f\n", total, sum; bad = 1
			}
			exit bad
		}' "$work/out" >"$work/why" || fail "$last: $(cat "$work/why")"
}

# perf stat -x: counter value, unit, event, run time, percentage running,
# metric value, metric unit - the last two empty when there is no metric -
# after the time stamp with -I.  Every line has every column.
check_csv() {
	local sep=$1 interval=$2 want_lines=$3
	local nev=${#default_events[@]}

	[ "$(wc -l <"$work/out")" -eq "$want_lines" ] ||
		fail "$last: $(wc -l <"$work/out") lines, want $want_lines"
	awk -F "$sep" -v iv="$interval" -v evs="${default_events[*]}" -v nev="$nev" '
		BEGIN { split(evs, ev, " ") }
		function bad(why) { printf "line %d: %s: %s\n", NR, why, $0; status = 1 }
		{
			o = iv ? 1 : 0
			if (NF != 7 + o) {
				bad(NF " columns, want " 7 + o " (perf leaves an absent metric empty, not out)")
				next
			}
			if (iv && $1 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]$/)
				bad("time stamp \"" $1 "\"")
			if ($(1 + o) !~ /^[0-9]+$/) bad("count \"" $(1 + o) "\"")
			if ($(2 + o) != "") bad("unit \"" $(2 + o) "\"")
			want = ev[(NR - 1) % nev + 1]
			if ($(3 + o) != want) bad("event \"" $(3 + o) "\", want " want)
			if ($(4 + o) !~ /^[1-9][0-9]*$/) bad("run time \"" $(4 + o) "\"")
			if ($(5 + o) != "100.00") bad("percentage \"" $(5 + o) "\"")
			mu = want == "UNC_CLOCK.SOCKET" ? "GHz" : want ~ /^DRAM_DATA_/ ? "GB/s" : ""
			if ($(7 + o) != mu) bad("metric unit \"" $(7 + o) "\", want \"" mu "\"")
			if (mu != "" && $(6 + o) !~ /^[0-9]+\.[0-9][0-9][0-9]$/)
				bad("metric value \"" $(6 + o) "\"")
			if (mu == "" && $(6 + o) != "") bad("metric value \"" $(6 + o) "\" without a metric")
		}
		END { exit status }' "$work/out" >"$work/why" || fail "$last: $(cat "$work/why")"
}

case_stat_csv() {
	local plain
	run stat --duration 0.2
	plain=$(awk '/^ +[0-9][0-9,]* +[A-Z]/ { c = $1; gsub(",", "", c); print c }' "$work/out" | paste -sd' ')

	run stat -x, --duration 0.2
	expect_rc 0
	check_csv , 0 7
	# the same simulated run: the same counts as the plain output
	[ "$(cut -d, -f1 "$work/out" | paste -sd' ')" = "$plain" ] ||
		fail "$last: counts \"$(cut -d, -f1 "$work/out" | paste -sd' ')\" differ from plain \"$plain\""

	run stat -x ';' -I 100 --duration 0.3
	expect_rc 0
	check_csv ';' 1 21
}

case_stat_json() {
	run stat --json --duration 0.2
	expect_rc 0
	python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' <"$work/out" ||
		fail "$last: a line is not JSON"
	cat >"$work/check.py" <<'EOF'
import json, re, sys
want = sys.argv[1:]
objs = [json.loads(l) for l in sys.stdin]
assert [o["event"] for o in objs] == want, [o.get("event") for o in objs]
for o in objs:
    # perf prints the count as a string of "%f"
    assert re.fullmatch(r"[0-9]+\.000000", o["counter-value"]) and float(o["counter-value"]) > 0, o
    assert isinstance(o["event-runtime"], int) and o["event-runtime"] > 0, o
    assert o["pcnt-running"] == 100.0 and o["unit"] == "", o
    unit = "GHz" if o["event"] == "UNC_CLOCK.SOCKET" else "GB/s" if o["event"].startswith("DRAM_DATA") else None
    assert o.get("metric-unit") == unit, o
    assert (unit is None) == ("metric-value" not in o), o
    assert "interval" not in o, o
EOF
	python3 "$work/check.py" "${default_events[@]}" <"$work/out" >"$work/why" 2>&1 ||
		fail "$last: $(cat "$work/why")"
	run stat --json -I 100 --duration 0.3
	expect_rc 0
	python3 -c '
import json, sys
objs = [json.loads(l) for l in sys.stdin]
assert len(objs) == 21, len(objs)
ts = sorted({o["interval"] for o in objs})
assert len(ts) == 3 and all(abs(t - 0.1 * (i + 1)) < 0.005 for i, t in enumerate(ts)), ts
' <"$work/out" >"$work/why" 2>&1 || fail "$last: $(cat "$work/why")"
}

case_stat_interval() {
	run stat -I 100 --duration 0.5
	expect_rc 0
	awk -v nev=${#default_events[@]} '
		/^ +[0-9]+\.[0-9]+ +[0-9][0-9,]* +[A-Z]/ { n[$1]++; lines++ }
		/GB\/s DRAM bandwidth/ { bw++ }
		END {
			k = 0
			for (t in n) {
				k++
				if (n[t] != nev) { printf "%s: %d events\n", t, n[t]; bad = 1 }
				i = int(t * 10 + 0.5)
				if (i < 1 || i > 5 || t - i / 10 > 0.005 || i / 10 - t > 0.005) {
					printf "time stamp %s is not a multiple of 0.1 s\n", t; bad = 1
				}
				seen[i]++
			}
			if (k != 5) { printf "%d intervals, want 5\n", k; bad = 1 }
			for (i = 1; i <= 5; i++) if (seen[i] != 1) { printf "no interval %d\n", i; bad = 1 }
			if (bw != 5) { printf "%d bandwidth lines, want 5\n", bw; bad = 1 }
			exit bad
		}' "$work/out" >"$work/why" || fail "$last: $(cat "$work/why")"
	if grep -q 'seconds time elapsed' "$work/out"; then
		fail "$last: a summary after the intervals"
	fi
}

# ---- usage errors: exit 2, a message naming what was wrong, no output ----

case_bad_option() {
	usage_errors_table <<'EOF'
stat --bogus|unknown option '--bogus'
stat -q|unknown option '-q'
stat -e uclk -qh|unknown option '-q'
stat --json -qx,|unknown option '-q'
stat --json=1|'--json=1'
stat -I|option '-I' needs a value
stat --duration|option '--duration' needs a value
stat -I x|-I: 'x'
stat --duration abc|--duration: 'abc'
stat --duration 0|--duration: '0'
stat --ncbo 0|--ncbo
stat --seed -1|--seed: '-1'
stat -x, --json|-x and --json
list -e uclk|-e
stat extra|unexpected argument 'extra'
frob|unknown command 'frob'
EOF
	run
	expect_rc 2
	expect_err "usage: uncore"
}

case_bad_event() {
	local list want
	while IFS='|' read -r list want; do
		run stat --duration 0.1 -e "$list"
		expect_rc 2
		expect_err "$want"
		expect_no_stdout
	done <<'EOF'
uclk,cbo0/event=0x34,umask=0x8f,bogus=1/|event 'cbo0/event=0x34,umask=0x8f,bogus=1/' (col 33): unknown term 'bogus'
uclk,  nosuch|event 'nosuch' (col 8): unknown event
cbo4/event=0x34,umask=0x8f/|event 'cbo4/event=0x34,umask=0x8f/' (col 1): cbo has 4 instances
data_reads,cbo0/event=0x34,umask=0x100/|event 'cbo0/event=0x34,umask=0x100/' (col 34): umask=256 out of range
arb/event=0x80,umask=1,thresh=32/|(col 31): thresh=32 out of range
cbo0/event=0x34,umask=0x8f|(col 27): missing closing '/'
uclk,,uclk|empty event at col 6
uclk,|empty event at col 6
cbo0/event=0x34,umask=0x8f,inv/|(col 1): INV or edge detect with THRESH=0
imc/event=0x5050/|(col 5): imc counters have no 'event' field
UNC_ARB_TRK_OCCUPANCY.ALL,UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST|cannot place 'UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST' (col 27)
EOF
	# the instances the model has, not the platform's maximum
	run stat --ncbo 2 --duration 0.1 -e 'uclk,cbo2/event=0x34,umask=0x8f/'
	expect_rc 2
	expect_err "event 'cbo2/event=0x34,umask=0x8f/' (col 6): cbo has 2 instances (0-1)"
	expect_no_stdout
	run stat --ncbo 2 --duration 0.1 -e 'uclk,cbo1/event=0x34,umask=0x8f/'
	expect_rc 0
}

case_bad_workload() {
	run stat --workload nope
	expect_rc 2
	expect_err "--workload: 'nope'"
	expect_err "mixed"
	expect_no_stdout
	local w
	for w in mixed stream idle; do
		run stat --workload "$w" --duration 0.1 -e uclk
		expect_rc 0
	done
}

case_bad_platform() {
	local cmd
	for cmd in stat list regs; do
		run "$cmd" --platform nope
		expect_rc 2
		expect_err "'nope'"
		expect_no_stdout
		run "$cmd" --platform skl
		expect_rc 0
	done
}

# ---- -o: the file appears complete, or not at all ----

only_files() {
	local dir=$1 want got
	shift
	want=$(sorted "$@")
	got=$(find "$dir" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort)
	[ "$got" = "$want" ] || fail "$last: $dir holds \"${got//$'\n'/ }\", want \"$*\""
}

case_output_file() {
	local d=$work/o args
	mkdir "$d"
	for args in "stat -e uclk,data_reads,UNC_CBO_CACHE_LOOKUP.ANY_MESI --duration 0.2" \
		"stat -x , -I 100 --duration 0.2" "list" "list --json" "regs"; do
		# shellcheck disable=SC2086
		run $args
		expect_rc 0
		cp "$work/out" "$work/want"
		rm -rf "$d" && mkdir "$d"
		# a longer file already there is replaced, not overwritten in place
		head -c 20000 /dev/zero | tr '\0' x >"$d/f.txt"
		# shellcheck disable=SC2086
		run $args -o "$d/f.txt"
		expect_rc 0
		expect_no_stdout
		only_files "$d" f.txt
		cmp -s "$d/f.txt" "$work/want" || fail "$last: the file differs from the same run's stdout"
		[ "$(tail -c 1 "$d/f.txt" | od -An -c | tr -d ' ')" = '\n' ] ||
			fail "$last: the file does not end in a newline"
		[ "$(stat -c %a "$d/f.txt")" = 644 ] ||
			fail "$last: mode $(stat -c %a "$d/f.txt") under umask 022, want 644"
	done
}

case_output_error() {
	local d=$work/o
	mkdir "$d"
	# usage error after the output was opened
	run stat -e 'uclk,bogus' -o "$d/out.txt"
	expect_rc 2
	expect_err "event 'bogus' (col 6)"
	only_files "$d"
	# an existing file stays as it was
	echo old >"$d/keep.txt"
	run stat -e 'uclk,bogus' -o "$d/keep.txt"
	expect_rc 2
	only_files "$d" keep.txt
	[ "$(cat "$d/keep.txt")" = old ] || fail "$last: changed the existing file"
	# a run-time error in the middle of counting: a replayed access trace
	# that diverges when the run asks for more than was recorded
	run stat -e uclk --duration 0.1 --record "$d/a.log"
	expect_rc 0
	run stat -e uclk,data_reads --duration 0.1 --backend "replay:$d/a.log" -o "$d/out.txt"
	expect_rc 1
	expect_err "replay diverges"
	only_files "$d" keep.txt a.log
	run stat -e uclk --duration 0.2 --backend "replay:$d/a.log" -o "$d/out.txt"
	expect_rc 1
	only_files "$d" keep.txt a.log
	# and the same trace replayed as recorded does write it
	run stat -e uclk --duration 0.1 --backend "replay:$d/a.log" -o "$d/out.txt"
	expect_rc 0
	only_files "$d" keep.txt a.log out.txt
	# nowhere to write: the error names the file, nothing is left
	run stat -e uclk --duration 0.1 -o "$d/missing/out.txt"
	expect_rc 1
	expect_err "$d/missing/out.txt"
	only_files "$d" keep.txt a.log out.txt
	mkdir "$d/sub"
	run list -o "$d/sub"
	expect_rc 1
	expect_err "$d/sub"
	only_files "$d" keep.txt a.log out.txt sub
	only_files "$d/sub"
}

# ---- list and regs ----

case_list() {
	local got
	run list
	expect_rc 0
	# an event: two blanks and its name; then its encoding and description
	got=$(grep -E '^  [^ ]' "$work/out" | awk '{ print $1 }' | sort)
	[ "$(grep -cE '^  [^ ]' "$work/out")" -eq ${#manual_events[@]} ] ||
		fail "$last: $(grep -cE '^  [^ ]' "$work/out") events, want ${#manual_events[@]}"
	[ "$got" = "$(sorted "${manual_events[@]}")" ] ||
		fail "$last: events differ from the manual's: $(diff <(echo "$got") <(sorted "${manual_events[@]}") | tr '\n' ' ')"
	[ "$(grep -cE '^      \[(cbo|arb|clock|imc) event=0x[0-9a-f]+ ' "$work/out")" -eq ${#manual_events[@]} ] ||
		fail "$last: not one encoding line per event"
	grep -qE '^  UNC_ARB_TRK_OCCUPANCY\.CYCLES_WITH_ANY_REQUEST$' "$work/out" || fail "$last: no CYCLES_WITH_ANY_REQUEST"
	grep -qE '^  UNC_CLOCK\.SOCKET \(uclk\)$' "$work/out" || fail "$last: no uclk alias"
	grep -qE '^      \[arb event=0x80 umask=0x01 counters 0;' "$work/out" ||
		fail "$last: TRK_OCCUPANCY.ALL not restricted to counter 0"

	run list --json
	expect_rc 0
	python3 -c 'import json,sys; json.load(sys.stdin)' <"$work/out" || fail "$last: not JSON"
	cat >"$work/check.py" <<'EOF'
import json, sys
want = sorted(sys.argv[1:])
arr = json.load(sys.stdin)
assert isinstance(arr, list), type(arr)
names = sorted(e["name"] for e in arr)
assert names == want, (len(names), set(names) ^ set(want))
by = {e["name"]: e for e in arr}
assert by["UNC_CLOCK.SOCKET"]["alias"] == "uclk" and by["UNC_CLOCK.SOCKET"]["unit"] == "clock"
assert by["DRAM_DATA_READS"]["alias"] == "data_reads" and by["DRAM_DATA_READS"]["unit"] == "imc"
assert by["UNC_CBO_CACHE_LOOKUP.ANY_MESI"]["code"] == 0x34 and by["UNC_CBO_CACHE_LOOKUP.ANY_MESI"]["umask"] == 0x8F
assert by["UNC_ARB_TRK_OCCUPANCY.ALL"]["counters"] == "0"
assert by["UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST"]["thresh"] == 1
for e in arr:
    assert e["description"] and e["source"].startswith("SKL Table 3-"), e
EOF
	python3 "$work/check.py" "${manual_events[@]}" <"$work/out" >"$work/why" 2>&1 ||
		fail "$last: $(cat "$work/why")"

	# a Table 2-92 event shows the match/mask values it programs
	run list --platform snbep
	expect_rc 0
	grep -qE '^      \[qpi event=0x138 umask=0x00 Q_Py_PCI_PMON_PKT_MATCH0=0x1c00 Q_Py_PCI_PMON_PKT_MASK0=0x1f00 counters 0,1,2,3; ' \
		<(grep -A1 '^  UNC_Q_CTO_COUNT.DRS.AnyResp9flits$' "$work/out") ||
		fail "$last: DRS.AnyResp9flits without its filter values"
	run list --platform snbep --json
	expect_rc 0
	python3 -c 'import json,sys; e={x["name"]: x for x in json.load(sys.stdin)}["UNC_Q_CTO_COUNT.DRS.DataC_M"]; assert e["filters"] == {"Q_Py_PCI_PMON_PKT_MATCH0": 0x1C00, "Q_Py_PCI_PMON_PKT_MATCH1": 0x80000, "Q_Py_PCI_PMON_PKT_MASK0": 0x1FE0, "Q_Py_PCI_PMON_PKT_MASK1": 0xF0000}, e' \
		<"$work/out" >"$work/why" 2>&1 || fail "$last: $(cat "$work/why")"
}

case_regs() {
	local i
	run regs
	expect_rc 0
	[ "$(wc -l <"$work/out")" -eq 33 ] || fail "$last: $(wc -l <"$work/out") lines, want 25 + 3 + 5 = 33"
	[ "$(awk '$2 == "msr"' "$work/out" | wc -l)" -eq 25 ] || fail "$last: not 25 MSRs"
	[ "$(awk '$2 == "pci"' "$work/out" | wc -l)" -eq 3 ] || fail "$last: not 3 PCI registers"
	[ "$(awk '$2 == "mmio"' "$work/out" | wc -l)" -eq 5 ] || fail "$last: not 5 MMIO registers"
	[ "$(awk '{ print $4 }' "$work/out" | sort)" = "$(sorted "${manual_regs[@]}")" ] ||
		fail "$last: register names differ from the manual's: $(diff <(awk '{ print $4 }' "$work/out" | sort) <(sorted "${manual_regs[@]}") | tr '\n' ' ')"
	# NO_CBO_BANKS is the CBos plus one (2.4.1)
	grep -qE '^0 msr +0x396 +MSR_UNC_CBO_CONFIG +0x0*5 NO_CBO_BANKS=0x5$' "$work/out" ||
		fail "$last: CBO_CONFIG does not read 5"

	run regs --ncbo 2
	expect_rc 0
	[ "$(wc -l <"$work/out")" -eq 25 ] || fail "$last: $(wc -l <"$work/out") lines, want 17 + 3 + 5 = 25"
	[ "$(awk '$2 == "msr"' "$work/out" | wc -l)" -eq 17 ] || fail "$last: not 17 MSRs"
	for i in 2 3; do
		! grep -q "MSR_UNC_CBO_${i}_" "$work/out" || fail "$last: lists CBo $i"
	done
	grep -qE 'MSR_UNC_CBO_CONFIG +0x0*3 NO_CBO_BANKS=0x3$' "$work/out" || fail "$last: CBO_CONFIG does not read 3"
}

# ---- derived metrics (-M, list --metrics) ----

# -M with metrics of one's own (skl has none of its own): each metric after
# the counts of its events, in every output form; nan for 0/0.
own_metrics='rd_bw=[data_reads]*64/SAMPLE_INTERVAL_S/1e9,ratio=[data_reads]/[data_writes],zero=[data_reads]*0/0'

case_metric_output() {
	run stat -M "$own_metrics" --duration 0.2
	expect_rc 0
	# only the metrics' events: no default set
	[ "$(awk '/^ +[0-9][0-9,]* +[a-z]/ { print $2 }' "$work/out" | paste -sd' ')" = "data_reads data_writes" ] ||
		fail "$last: events $(awk '/^ +[0-9][0-9,]* +[a-z]/ { print $2 }' "$work/out" | paste -sd' ')"
	# rd_bw is the bandwidth stat prints for data_reads; ratio the counts' quotient
	awk '
		/^ +[0-9][0-9,]* +data_reads / { c = $1; gsub(",", "", c); rd = c; gbs = $(NF - 1) }
		/^ +[0-9][0-9,]* +data_writes / { c = $1; gsub(",", "", c); wr = c }
		$2 == "rd_bw" && NF == 2 { bw = $1 }
		$2 == "ratio" && NF == 2 { q = $1 }
		$2 == "zero" && NF == 2 { z = $1 }
		END {
			if (bw == "" || bw - gbs > 0.0006 || gbs - bw > 0.0006) { printf "rd_bw %s, data_reads %s GB/s\n", bw, gbs; bad = 1 }
			if (q == "" || q - rd / wr > 1e-5 * q || rd / wr - q > 1e-5 * q) { printf "ratio %s, counts %s/%s\n", q, rd, wr; bad = 1 }
			if (z != "nan") { printf "zero is \"%s\", want nan\n", z; bad = 1 }
			exit bad
		}' "$work/out" >"$work/why" || fail "$last: $(cat "$work/why")"

	run stat -M "$own_metrics" -e uclk -x, --duration 0.2
	expect_rc 0
	[ "$(cut -d, -f3 "$work/out" | paste -sd' ')" = "uclk data_reads data_writes rd_bw ratio zero" ] ||
		fail "$last: rows $(cut -d, -f3 "$work/out" | paste -sd' ')"
	awk -F, '
		NF != 7 { printf "line %d: %d columns\n", NR, NF; bad = 1 }
		NR > 3 && ($1 != "" || $2 != "" || $4 !~ /^[1-9][0-9]*$/ || $5 != "100.00" || $7 != "") {
			printf "metric line %d: %s\n", NR, $0; bad = 1
		}
		NR > 3 && $3 != "zero" && $6 !~ /^[0-9.]+(e[-+][0-9]+)?$/ { printf "value: %s\n", $0; bad = 1 }
		$3 == "zero" && $6 != "nan" { printf "zero: %s\n", $0; bad = 1 }
		END { exit bad }' "$work/out" >"$work/why" || fail "$last: $(cat "$work/why")"

	run stat -M "$own_metrics" --json -I 100 --duration 0.3
	expect_rc 0
	python3 -c '
import json, sys
objs = [json.loads(l) for l in sys.stdin]
assert len(objs) == 15, len(objs)
for k in range(3):
    grp = objs[5 * k:5 * k + 5]
    assert [o.get("event") for o in grp[:2]] == ["data_reads", "data_writes"], grp
    assert [o.get("metric") for o in grp[2:]] == ["rd_bw", "ratio", "zero"], grp
    assert len({o["interval"] for o in grp}) == 1, grp
    # strings of "%f", as perf prints them; 0/0 is "nan"
    assert abs(float(grp[2]["metric-value"]) - float(grp[0]["metric-value"])) < 1e-5, grp
    assert grp[4]["metric-value"] == "nan" and grp[4]["metric-unit"] == "", grp
' <"$work/out" >"$work/why" 2>&1 || fail "$last: $(cat "$work/why")"

	run stat -M "$own_metrics" --per-socket --duration 0.2
	expect_rc 0
	[ "$(grep -cE '^S0 +[0-9.]+ +rd_bw$|^S0 +[0-9.]+ +ratio$|^S0 +nan +zero$' "$work/out")" -eq 3 ] ||
		fail "$last: no per-socket metric lines: $(cat "$work/out")"
}

case_metric_errors() {
	local args want
	while IFS='|' read -r args want; do
		run stat --duration 0.1 -M "$args"
		expect_rc 2
		expect_err "$want"
		expect_no_stdout
	done <<'EOF'
MEM_BW_READS|-M: unknown metric 'MEM_BW_READS' (col 1): skl defines no metrics
bw=[data_reads]*64/SAMPLE_INTERVAL_S, BOGUS|-M: unknown metric 'BOGUS' (col 39)
x=1+(2|-M: metric x, col 7: expected ')' for the '(' at col 5, found the end
x=[data_reads]]|-M: metric x, col 15: expected an operator (+ - * /), ')' or the end, found ']'
x=[cbo0/event=0x34,umask=0x8f,bogus=1/]|-M: metric x, col 4: event 'cbo0/event=0x34,umask=0x8f,bogus=1/' (col 31): unknown term 'bogus'
x=[uclk,data_reads]|-M: metric x, col 8: one event per bracket
x=CAS_COUNT.RD|-M: metric x, col 3: unknown name 'CAS_COUNT.RD'
a=[UNC_ARB_TRK_OCCUPANCY.ALL],b=[UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST]|-M: metric b, col 34: cannot place 'UNC_ARB_TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST' (col 34)
x=1|-M: the metrics count no event
|-M: empty metric name at col 1
EOF
	run list -M x=1
	expect_rc 2
	expect_err "-M: not an option of 'list' (it goes with stat"
	run stat --metrics
	expect_rc 2
	expect_err "--metrics: not an option of 'stat' (it goes with list"
	run stat -M
	expect_rc 2
	expect_err "option '-M' needs a value"
}

case_list_metrics() {
	run list --metrics
	expect_rc 0
	grep -qx '6th Generation Intel Core (Skylake client) (skl) defines no derived metrics' "$work/out" ||
		fail "$last: $(cat "$work/out")"
	run list --metrics --json
	expect_rc 0
	[ "$(tr -d ' \n' <"$work/out")" = "[]" ] || fail "$last: $(cat "$work/out")"
	# skl's event list has no metrics section
	run list
	expect_rc 0
	if grep -q 'derived metrics' "$work/out"; then
		fail "$last: a metrics section on skl"
	fi

	# Xeon: the guide's Tables 2-15, 2-41, 2-65, 2-82, 2-95, 2-109 as converted
	run list --metrics --platform snbep
	expect_rc 0
	grep -qE '^  MEM_BW_READS$' "$work/out" || fail "$last: no MEM_BW_READS"
	grep -qxF '      = [imc/CAS_COUNT.RD/] * 64 / SAMPLE_INTERVAL_S / 1073741824' "$work/out" ||
		fail "$last: MEM_BW_READS is not CAS_COUNT.RD * 64 per second in GiB"
	grep -qE '^  ha\.PCT_RD_REQUESTS$' "$work/out" || fail "$last: PCT_RD_REQUESTS not qualified by its box"
	grep -qE '^  imc\.PCT_RD_REQUESTS$' "$work/out" || fail "$last: PCT_RD_REQUESTS not qualified by its box"
	run list --metrics --platform snbep --json
	expect_rc 0
	python3 -c '
import json, sys
arr = json.load(sys.stdin)
by = {m["name"]: m for m in arr}
assert len(by) == len(arr) and len(arr) > 40, len(arr)
for m in arr:
    assert m["unit"] in ("cbo", "ha", "imc", "pcu", "qpi", "r2pcie", "r3qpi"), m
    assert m["source"].startswith("SNB-EP Table 2-") and m["description"] and m["expr"], m
    assert m["metric-unit"] in ("GiB/s", "ratio", "cycles", "entries"), m
assert by["MEM_BW_TOTAL"]["metric-unit"] == "GiB/s" and by["MEM_BW_TOTAL"]["source"] == "SNB-EP Table 2-65"
assert "filter_opc=0x182" in by["AVG_TOR_DRD_LATENCY"]["expr"]
assert "COUNTER0_OCCUPANCY,edge,thresh=1" in by["AVG_INGRESS_LATENCY_WHEN_NE"]["expr"]
assert "LLC_MPI" not in by  # needs a core event: not converted
' <"$work/out" >"$work/why" 2>&1 || fail "$last: $(cat "$work/why")"
	# the plain event list ends with the same metrics
	run list --platform snbep
	expect_rc 0
	grep -q '^Intel Xeon E5-2600 (Sandy Bridge-EP) derived metrics (snbep; uncore stat -M NAME)$' "$work/out" ||
		fail "$last: no metrics section"
}

# ---- the checks themselves: every case fails on a program that is not uncore ----

# A session recorded on one backend replays, from the access trace alone,
# to the same output byte for byte (docs/formats.md); a different command
# line diverges at the first differing access and names it.
case_record_replay() {
	local ev="uclk,data_reads,UNC_CBO_CACHE_LOOKUP.ANY_MESI"
	run stat -e "$ev" -I 100 --duration 0.3 -x, --record "$work/session.log"
	expect_rc 0
	cp "$work/out" "$work/recorded.txt"
	[ -s "$work/session.log" ] || fail "no access trace written"
	head -1 "$work/session.log" | grep -qx 'uncore-access 1' || fail "access trace lacks its version line"
	run stat -e "$ev" -I 100 --duration 0.3 -x, --backend "replay:$work/session.log"
	expect_rc 0
	cmp -s "$work/out" "$work/recorded.txt" || fail "replayed output differs from the recorded run"
	[ "$(wc -l <"$work/out")" -eq 9 ] || fail "replay printed $(wc -l <"$work/out") lines, want 9"
	run stat -e "uclk,data_reads,UNC_CBO_CACHE_LOOKUP.ANY_I" -I 100 --duration 0.3 -x, \
		--backend "replay:$work/session.log"
	expect_rc 1
	expect_err "replay diverges"
	expect_err "the log expects: wrmsr 0 0x700"
	run stat -e "$ev" -I 100 --duration 0.2 -x, --backend "replay:$work/session.log"
	expect_rc 1
	expect_err "session.log"
}

# Event traces from the command line (docs/formats.md): generate, convert
# both ways losslessly, summarise, replay to the generated statistics, and
# refuse bad input with file:line:col, leaving no output file behind.
case_trace() {
	run trace gen stream --bandwidth 9.6 --read-ratio 0.5 --duration 0.05 --seed 3 -o "$work/s.uct"
	expect_rc 0
	run trace convert "$work/s.uct" -o "$work/s.bin"
	expect_rc 0
	run trace convert "$work/s.bin" -o "$work/s2.uct"
	expect_rc 0
	cmp -s "$work/s.uct" "$work/s2.uct" || fail "text -> binary -> text is not identical"
	[ "$(head -c 8 "$work/s.bin" | od -An -c | tr -d ' ')" = 'UCTRACE\0' ] || fail "binary trace lacks its magic"
	run trace info "$work/s.bin"
	expect_rc 0
	grep -qx 'cycles     150000000' "$work/out" || fail "trace info: want 150000000 cycles (0.05 s at 3 GHz)"
	# 9.6e9 B/s for 0.05 s is 7,500,000 lines, half of them reads
	grep -qx 'fed        imc.DRAM_DATA_READS 3750000' "$work/out" || fail "trace info: reads fed $(grep DATA_READS "$work/out")"
	run stat --trace "$work/s.bin" -e data_reads,data_writes -x,
	expect_rc 0
	awk -F, '$3 == "data_reads" || $3 == "data_writes" { s += $1 } END { exit !(s > 7400000 && s <= 7500000) }' \
		"$work/out" || fail "replayed traffic $(cat "$work/out")"
	# binary is the vector form with chunks and sleep changes
	# (docs/formats.md); --no-chunks
	# the vector form without; --record-form the form every record holds
	# its inputs in: each converts to the others and back unchanged, and
	# all replay to the model's ground truth (--check)
	run trace info "$work/s.bin"
	grep -q '^file .*(binary, vector form with chunks and sleep changes)$' "$work/out" || fail "$last: not the vector form with chunks and sleep changes: $(head -1 "$work/out")"
	run trace convert "$work/s.bin" --no-chunks -o "$work/p.bin"
	expect_rc 0
	run trace info "$work/p.bin"
	grep -q '^file .*(binary, vector form)$' "$work/out" || fail "$last: not the vector form: $(head -1 "$work/out")"
	run trace convert "$work/p.bin" --binary -o "$work/s4.bin"
	expect_rc 0
	cmp -s "$work/s.bin" "$work/s4.bin" || fail "chunks -> no chunks -> chunks is not identical"
	run trace convert "$work/s.bin" --record-form --no-chunks -o "$work/x.bin"
	expect_rc 2
	grep -q 'exclude each other' "$work/err" || fail "$last: $(cat "$work/err")"
	run trace convert "$work/s.bin" --record-form -o "$work/r.bin"
	expect_rc 0
	run trace info "$work/r.bin"
	grep -q '^file .*(binary, record form)$' "$work/out" || fail "$last: not the record form: $(head -1 "$work/out")"
	run trace convert "$work/r.bin" --binary -o "$work/s3.bin"
	expect_rc 0
	cmp -s "$work/s.bin" "$work/s3.bin" || fail "vector form -> record form -> vector form is not identical"
	run trace convert "$work/s3.bin" --record-form -o "$work/r2.bin"
	expect_rc 0
	cmp -s "$work/r.bin" "$work/r2.bin" || fail "record form -> vector form -> record form is not identical"
	for f in s.bin p.bin r.bin; do
		run stat --trace "$work/$f" -e data_reads,data_writes -x, --check
		expect_rc 0
		cp "$work/out" "$work/$f.out"
	done
	cmp -s "$work/s.bin.out" "$work/r.bin.out" || fail "the binary forms count differently"
	cmp -s "$work/s.bin.out" "$work/p.bin.out" || fail "the binary forms count differently"
	# malformed input: located errors, exit 2 for the trace, nothing written
	printf 'uncore-trace 1\nplatform skl\nrun 10: cbo9.CACHE_LOOKUP.READ_M=1\n' >"$work/bad.uct"
	run stat --trace "$work/bad.uct"
	expect_rc 2
	expect_err "bad.uct:3:12:"
	run trace convert "$work/bad.uct" -o "$work/never.bin"
	expect_rc 2
	expect_err "bad.uct:3:12:"
	[ ! -e "$work/never.bin" ] || fail "a failed convert left its output"
	if ls "$work" | grep -q 'never.bin.'; then
		fail "a failed convert left a temporary file"
	fi
	head -c 200 "$work/s.bin" >"$work/cut.bin"
	run trace info "$work/cut.bin"
	expect_rc 2
	expect_err "truncated"
	run trace gen stream --bandwidth 500 --duration 0.01 -o "$work/x.uct"
	expect_rc 2
	expect_err "exceeds the 34.1 GB/s that 1 skl socket carries (2 channels of DDR4-2133"
	# beyond the part on purpose, still not beyond what the model counts
	run trace gen stream --bandwidth 500 --exceed-limits --duration 0.01 -o "$work/x.uct"
	expect_rc 2
	expect_err "more than one 64-byte transfer per uclk cycle"
	[ ! -e "$work/x.uct" ] || fail "a refused generator left its output"
	run trace gen warp --duration 0.01 -o "$work/x.uct"
	expect_rc 2
	expect_err "unknown generator 'warp'"
}

# Xeon E5-2600 event traces: generated (the CLI writes one socket), converted
# both ways, then replayed while the driver samples with -I: every count is
# what the trace holds, computed here from its text.  Boxes on other clocks
# count their own cycles: reference cycle c (2.7 GHz uclk) completes at
# ceil(c * 10000 / 27) ps, and the iMC and PCU clocks (800 MHz) have then
# completed floor(t / 1250) cycles (docs/formats.md, "Clocks").  An idle
# lead-in of 5 ms lets the driver program the counters before the traffic.
snbep_lead_in() {
	awk 'done || !/^(run|cycle|@)/ { print; next } { print "run 13500000:"; print; done = 1 }' "$1" >"$2"
}

# snbep_expect FILE: the counts the trace holds, one "key value" per line.
snbep_expect() {
	awk '
	function T(c) { return int((c * 10000 + 26) / 27) }
	function D(c) { return int(T(c) / 1250) }
	/^(run|cycle|@)/ {
		line = $0
		start = c
		if (line ~ /^@/) {
			start = substr(line, 2)
			sub(/ .*/, "", start)
			start += 0
			sub(/^@[0-9]+ /, "", line)
		}
		n = 1
		if (line ~ /^run /) {
			n = line
			sub(/^run /, "", n)
			sub(/:.*/, "", n)
			n += 0
		}
		c = start + n
		d = D(c) - D(start)
		ins = line
		sub(/^[^:]*:[ ]*/, "", ins)
		k = split(ins, inp, ", ")
		for (i = 1; i <= k; i++) {
			name = inp[i]
			sub(/=.*/, "", name)
			v = inp[i]
			sub(/^[^=]*=/, "", v)
			attrs = v
			sub(/[{].*/, "", v)
			v += 0
			nid = -1
			if (match(attrs, /nid=[0-9]+/))
				nid = substr(attrs, RSTART + 4, RLENGTH - 4) + 0
			freq = -1
			if (match(attrs, /freq=[0-9]+/))
				freq = substr(attrs, RSTART + 5, RLENGTH - 5) + 0
			if (name == "cbo.TOR_INSERTS.DRd_MISS" && nid == 0) e["tor_nid0"] += 8 * v * n
			if (name == "ha0.REQUESTS.READS") e["ha_reads"] += v * n
			if (name == "imc.CAS_COUNT.RD_REG") e["cas_rd"] += 4 * v * d
			if (name == "imc.CAS_COUNT.WR_WMM") e["cas_wr"] += 4 * v * d
			if (name == "pcu.POWER_STATE_OCCUPANCY.CORES_C0") e["c0"] += v * d
			if (name == "pcu.POWER_STATE_OCCUPANCY.CORES_C6") e["c6"] += v * d
			if (name == "pcu.FREQ_BAND0_CYCLES.CYCLES" && freq >= 20) e["band_2ghz"] += v * d
		}
	}
	END { for (x in e) printf "%s %.0f\n", x, e[x] }' "$1" | sort
}

# snbep_counted KEY=EVENT...: the -x, -I output in $work/out summed per
# event over the intervals, as "key value" lines (event texts hold commas:
# the event is every field between the unit and the last four).
snbep_counted() {
	local spec
	for spec in "$@"; do
		awk -F, -v key="${spec%%=*}" -v ev="${spec#*=}" '
			NF >= 8 && $1 !~ /^#/ {
				e = $4
				for (i = 5; i <= NF - 4; i++)
					e = e "," $i
				if (e == ev)
					s += $2
			}
			END { printf "%s %.0f\n", key, s }' "$work/out"
	done | sort
}

case_trace_snbep() {
	local ev_s=(tor_nid0='cbo/TOR_INSERTS.NID_MISS_OPCODE,filter_opc=0x182,filter_nid=0x1/'
		ha_reads=UNC_H_REQUESTS.READS cas_rd=UNC_M_CAS_COUNT.RD cas_wr=UNC_M_CAS_COUNT.WR)
	local ev_c=(c0=UNC_P_POWER_STATE_OCCUPANCY.CORES_C0 c6=UNC_P_POWER_STATE_OCCUPANCY.CORES_C6
		band_2ghz='pcu/FREQ_BAND0_CYCLES,filter_band0=20/')
	local list x

	# the platform's two sockets by default; this case reads one socket's text
	run trace gen idle --platform snbep --duration 0.001 -o "$work/two.uct"
	expect_rc 0
	run trace info "$work/two.uct"
	grep -qx 'sockets    2' "$work/out" || fail "$last: snbep traces are not two-socket by default"
	run trace gen stream --platform snbep --sockets 1 --bandwidth 12 --read-ratio 0.75 --duration 0.02 --seed 4 -o "$work/s.uct"
	expect_rc 0
	[ "$(head -2 "$work/s.uct" | tr '\n' ' ')" = 'uncore-trace 2 platform snbep ' ] ||
		fail "stream trace header: $(head -3 "$work/s.uct")"
	grep -q 'cbo.TOR_INSERTS.DRd_MISS=1{nid=0,tid=' "$work/s.uct" || fail "TOR inserts without their node and thread"
	run trace convert "$work/s.uct" -o "$work/s.bin"
	expect_rc 0
	run trace convert "$work/s.bin" -o "$work/s2.uct"
	expect_rc 0
	cmp -s "$work/s.uct" "$work/s2.uct" || fail "snbep text -> binary -> text is not identical"
	snbep_lead_in "$work/s.uct" "$work/sl.uct"
	list=$(printf '%s,' "${ev_s[@]#*=}")
	run stat --platform snbep --trace "$work/sl.uct" -I 5 -x, -e "${list%,}"
	expect_rc 0
	[ "$(grep -c '^0\.0[0-9]*,' "$work/out")" -ge 20 ] || fail "stat -I 5 printed $(grep -c '' "$work/out") lines"
	snbep_expect "$work/sl.uct" | grep -E '^(tor_nid0|ha_reads|cas_rd|cas_wr) ' >"$work/want"
	snbep_counted "${ev_s[@]}" >"$work/got"
	[ "$(wc -l <"$work/want")" -eq 4 ] || fail "stream trace lacks some traffic: $(cat "$work/want")"
	cmp -s "$work/want" "$work/got" || fail "stream counts differ from the trace: want $(cat "$work/want"), got $(cat "$work/got")"
	# 12 GB/s for 20 ms: 3,750,000 lines, a quarter of them written
	x=$(awk '$1 == "cas_rd" || $1 == "cas_wr" { s += $2 } END { print s }' "$work/want")
	[ "$x" -gt 3745000 ] && [ "$x" -le 3755000 ] || fail "the trace carries $x lines, not 12 GB/s for 20 ms"

	# core C-states: occupancy and the frequency band filter
	run trace gen cstate --platform snbep --sockets 1 --duration 0.02 --seed 8 --duty 0.3 --hit-ratio 0.5 -o "$work/c.uct"
	expect_rc 0
	grep -q 'asleep=0x' "$work/c.uct" || fail "C-state trace without sleep masks"
	snbep_lead_in "$work/c.uct" "$work/cl.uct"
	list=$(printf '%s,' "${ev_c[@]#*=}")
	run stat --platform snbep --trace "$work/cl.uct" -I 5 -x, -e "${list%,}"
	expect_rc 0
	snbep_expect "$work/cl.uct" | grep -E '^(c0|c6|band_2ghz) ' >"$work/want"
	snbep_counted "${ev_c[@]}" >"$work/got"
	[ "$(wc -l <"$work/want")" -eq 3 ] || fail "C-state trace lacks some inputs: $(cat "$work/want")"
	cmp -s "$work/want" "$work/got" || fail "C-state counts differ from the trace: want $(cat "$work/want"), got $(cat "$work/got")"
	# the same trace in the binary vector form (its sleep masks change at
	# nearly every segment, its inputs repeat): the same counts, which
	# --check finds equal to the model's ground truth
	run trace convert "$work/cl.uct" --binary -o "$work/cl.bin"
	expect_rc 0
	run trace info "$work/cl.bin"
	grep -q '^file .*(binary, vector form with chunks and sleep changes)$' "$work/out" || fail "$last: not the vector form with chunks and sleep changes: $(head -1 "$work/out")"
	run stat --platform snbep --trace "$work/cl.bin" -I 5 -x, --check -e "${list%,}"
	expect_rc 0
	snbep_counted "${ev_c[@]}" >"$work/got"
	cmp -s "$work/want" "$work/got" || fail "C-state counts from the vector form differ: want $(cat "$work/want"), got $(cat "$work/got")"

	# malformed: socket, instance, increment, attribute; located
	printf 'uncore-trace 2\nplatform snbep\nsockets 2\nrun 10: s2.ha.REQUESTS.READS=1\n' >"$work/bad.uct"
	run stat --trace "$work/bad.uct"
	expect_rc 2
	expect_err "bad.uct:4:10: socket 2: the trace has 2"
	printf 'uncore-trace 2\nplatform snbep\nrun 10: qpi.RxL_FLITS_G0.DATA=3\n' >"$work/bad.uct"
	run trace convert "$work/bad.uct" -o "$work/never.bin"
	expect_rc 2
	expect_err "bad.uct:3:9: qpi0 RxL_FLITS_G0: 3 per cycle exceeds"
	printf 'uncore-trace 2\nplatform snbep\nrun 10: cbo0.LLC_LOOKUP.DATA_READ_I=1{opc=0x182}\n' >"$work/bad.uct"
	run trace info "$work/bad.uct"
	expect_rc 2
	expect_err "bad.uct:3:39: no filter of LLC_LOOKUP compares 'opc'"
	run trace gen stream --platform snbep --sockets 1 --bandwidth 60 --duration 0.01 -o "$work/x.uct"
	expect_rc 2
	expect_err "exceeds the 51.2 GB/s that 1 snbep socket carries (4 channels of DDR3-1600"
	[ ! -e "$work/x.uct" ] || fail "a refused generator left its output"
}

# A trace replays from the moment the counters start: a trace shorter than
# the driver's discovery (a bus scan takes simulated time) is counted whole.
# The QPI packet filters by name and by terms select their packets.
case_trace_from_start() {
	printf 'uncore-trace 2\nplatform snbep\nsockets 2\nrun 2700: s1.qpi0.CTO_COUNT.DRS_DataC=1{dnid=1,rds=8}, qpi1.CTO_COUNT.HOM0_RdData=1, s1.qpi1.CTO_COUNT.DRS_WbIData=2\n' >"$work/q.uct"
	run stat --trace "$work/q.uct" -x, --check \
		-e 'qpi0/UNC_Q_CTO_COUNT.DRS.DataC_M/,qpi1/event=0x138,match_mc=0,mask_mc=0xf/'
	expect_rc 0
	# 2700 uclk at 2.7 GHz: 1000 QPI cycles; M-state data on socket 1's
	# port 0; class HOM0 (code 0) on port 1 of socket 0, not socket 1's DRS
	grep -q '^1000,,qpi0/UNC_Q_CTO_COUNT.DRS.DataC_M/,' "$work/out" || fail "DataC_M: $(cat "$work/out")"
	grep -q '^1000,,qpi1/event=0x138,match_mc=0,mask_mc=0xf/,' "$work/out" || fail "HOM0 on qpi1: $(cat "$work/out")"
	expect_err "counters equal the model's ground truth"
}

# Buses and node IDs where firmware put them: the driver finds the sockets
# through CPUNODEID and GIDNIDMAP; bad lists are usage errors.
case_snbep_buses() {
	run stat --platform snbep --pci-bus 0xff,0x1f --node-ids 5,2 --per-socket --check -x, \
		-e UNC_H_CLOCKTICKS --duration 0.001
	expect_rc 0
	expect_err "counters equal the model's ground truth"
	[ "$(grep -cE '^S[01],1,2[0-9]{6},,UNC_H_CLOCKTICKS,' "$work/out")" -eq 2 ] || fail "$last: $(cat "$work/out")"
	run regs --platform snbep --pci-bus 0xff,0x1f --node-ids 5,2
	expect_rc 0
	grep -qE '^0 pci +ff:0b\.0\+0x040 UBOX_CPUNODEID +0x00000005 ' "$work/out" || fail "$last: no node 5 on bus 0xff"
	grep -qE '^1 pci +1f:0b\.0\+0x054 UBOX_GIDNIDMAP +0x00fa3215 ' "$work/out" || fail "$last: GIDNIDMAP"
	run stat --platform snbep --pci-bus 0x3f,0x3f
	expect_rc 2
	expect_err "sockets 0 and 1 on one PCI bus 0x3f"
	run stat --platform snbep --node-ids 1
	expect_rc 2
	expect_err "--node-ids: 1 node IDs for 2 sockets"
	run stat --platform snbep --node-ids 1,8
	expect_rc 2
	expect_err "--node-ids: 8 out of range (max 7)"
	run stat --platform snbep --pci-bus 0x3f,,0x7f
	expect_rc 2
	expect_err "is not a list of numbers"
	run stat --pci-bus 1
	expect_rc 2
	expect_err "skl is a one-socket platform"
}

# On a terminal, a replay shows its progress on stderr; not in a pipe.
case_trace_progress() {
	run trace gen idle --duration 0.02 -o "$work/i.uct"
	expect_rc 0
	if ! command -v script >/dev/null; then
		fail "script(1) is needed to give the command a terminal"
		return
	fi
	# a long replay's line, whatever "long" is (UNCORE_PROGRESS_AFTER: the
	# threshold, 2 s by default; ctest/progress_test.py tests the rest)
	UNCORE_PROGRESS_AFTER=0 script -qec "$bin stat --trace $work/i.uct -e uclk >/dev/null" /dev/null >"$work/tty.txt" 2>&1 || true
	grep -q '\[trace\] .* cycles replayed' "$work/tty.txt" || fail "no progress on a terminal: $(head -c 300 "$work/tty.txt")"
	UNCORE_PROGRESS_AFTER=0 run stat --trace "$work/i.uct" -e uclk
	expect_rc 0
	if grep -q '\[trace\]' "$work/err"; then
		fail "progress printed into a pipe"
	fi
}

# The msr-safe allow-list: one line per MSR of Table 2-1, with the bits
# software may write (RW, RW1C) as the mask, read-only registers at 0.
case_allowlist() {
	run allowlist
	expect_rc 0
	[ "$(grep -c '^0x' "$work/out")" -eq 25 ] || fail "allowlist has $(grep -c '^0x' "$work/out") MSRs, want 25"
	grep -qx '0x00000E01 0x00000000E000000F' "$work/out" || fail "GLOBAL_CTRL: FRZ_ON_PMI, WAKE_ON_PMI, EN, PMI_SEL"
	grep -qx '0x00000E02 0x000000000000000B' "$work/out" || fail "GLOBAL_STATUS: bits 0, 1, 3 (D1)"
	grep -qx '0x00000396 0x0000000000000000' "$work/out" || fail "CBO_CONFIG is read-only"
	grep -qx '0x00000700 0x000000001FD4FFFF' "$work/out" || fail "PERFEVTSEL: THR INV EN OVF_EN E UMASK EVT_SEL"
	grep -qx '0x00000706 0x00000FFFFFFFFFFF' "$work/out" || fail "PERFCTR: 44 bits"
	grep -qx '0x00000395 0x0000FFFFFFFFFFFF' "$work/out" || fail "FIXED_CTR: 48 bits"
}

# The E5-2600's msr-safe allow-list: the MSRs of Table 1-2 (UBox Table 2-1:
# 6, CBo Table 2-8: 10 for each of 8, PCU Table 2-73: 10; the C-state
# residency counters are each core's MSRs, no PMON register: R29), masks from the field tables; a comment says msr-safe is
# MSR-only and names the PCI boxes left out.  With --backend=hw and no
# --platform the CPU of a fake machine (--hw-root) chooses the list.
case_allowlist_snbep() {
	local tree=$work/tree c
	run allowlist --platform snbep
	expect_rc 0
	cp "$work/out" "$work/snbep"
	[ "$(grep -c '^0x' "$work/out")" -eq 96 ] || fail "allowlist has $(grep -c '^0x' "$work/out") MSRs, want 96"
	if grep -vE '^#|^0x[0-9A-F]{8} 0x[0-9A-F]{16}$' "$work/out" | grep -q .; then
		fail "a line msr-safe cannot parse: $(grep -vE '^#|^0x[0-9A-F]{8} 0x[0-9A-F]{16}$' "$work/out" | head -1)"
	fi
	grep -qx '0x00000C08 0x0000000000400000' "$work/out" || fail "UCLK_FIXED_CTL: en only (Table 2-4)"
	grep -qx '0x00000C09 0x0000FFFFFFFFFFFF' "$work/out" || fail "UCLK_FIXED_CTR: 48 bits (Table 2-5, R1)"
	grep -qx '0x00000D04 0x0000000000010103' "$work/out" || fail "C0 BOX_CTL: frz_en frz rst_ctrs rst_ctrl (Table 2-9)"
	grep -qx '0x00000D10 0x00000000FFCEFFFF' "$work/out" || fail "C0 CTL0: thresh invert en tid_en edge rst umask ev_sel (Table 2-10)"
	grep -qx '0x00000D14 0x00000000FFFFFC1F' "$work/out" || fail "C0 FILTER: opc state nid tid (Table 2-12)"
	grep -qx '0x00000DF9 0x00000FFFFFFFFFFF' "$work/out" || fail "C7 CTR3: 44 bits (Table 2-11)"
	grep -qx '0x00000C30 0x00000000DFE6C0FF' "$work/out" || fail "PCU CTL0: occ, thresh, en, ev_sel_ext 21, occ_sel (Table 2-75)"
	grep -qx '0x00000C36 0x0000FFFFFFFFFFFF' "$work/out" || fail "PCU CTR0 at 0xC36: 48 bits (Table 2-76)"
	grep -q '^# msr-safe covers MSRs only.*PCI configuration space: ha, imc, qpi, r2pcie, r3qpi' "$work/out" ||
		fail "no comment naming the PCI boxes msr-safe cannot cover"
	# none of the skl MSRs
	grep -q '^0x00000E01 ' "$work/out" && fail "skl's GLOBAL_CTRL in the snbep list"

	# detected from CPUID under a fake root: model 0x2D, then 0x5E, 0x3E, 0x3F
	for c in 0 1; do
		mkdir -p "$tree/sys/devices/system/cpu/cpu$c/topology" "$tree/dev/cpu/$c"
		echo 0 >"$tree/sys/devices/system/cpu/cpu$c/topology/physical_package_id"
	done
	mkdir -p "$tree/proc"
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 45\nstepping\t: 7\n\n' >"$tree/proc/cpuinfo"
	run allowlist --backend=hw --hw-root "$tree"
	expect_rc 0
	cmp -s "$work/out" "$work/snbep" || fail "allowlist --backend=hw on an E5-2600 differs from --platform snbep"
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 94\nstepping\t: 3\n\n' >"$tree/proc/cpuinfo"
	run allowlist --backend=hw --hw-root "$tree"
	expect_rc 0
	grep -q '^# MSR allowlist for skl' "$work/out" || fail "allowlist --backend=hw on a Skylake: $(head -1 "$work/out")"
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 62\nstepping\t: 4\n\n' >"$tree/proc/cpuinfo"
	run allowlist --backend=hw --hw-root "$tree"
	expect_rc 0
	grep -q '^# MSR allowlist for ivt' "$work/out" || fail "allowlist --backend=hw on an E5-2600 v2: $(head -1 "$work/out")"
	# a Haswell-EP (model 0x3F) has no model here
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 63\nstepping\t: 2\n\n' >"$tree/proc/cpuinfo"
	run allowlist --backend=hw --hw-root "$tree"
	expect_rc 1
	expect_err "no supported uncore for family 6 model 0x3f"
	expect_no_stdout
}

# -o never destroys and never lies (issue 18, "Outputs"): a symbolic link
# is written through and stays a link; a FIFO and a device are written
# directly, never replaced; a write refused by a file size limit (SIGXFSZ
# ignored, as under a supervisor) is an error naming the path and the cause,
# with nothing left behind; a directory and a dangling link are refused by
# name; a pipeline whose reader went away ends silently with the status of
# SIGPIPE.
case_outputs() {
	local d=$work/o n
	mkdir "$d"
	echo old >"$d/target"
	ln -s target "$d/link"
	run list -o "$d/link"
	expect_rc 0
	[ -L "$d/link" ] || fail "$last: the link was replaced"
	grep -q '^6th Generation Intel Core' "$d/target" || fail "$last: the link's target not written"
	run stat --duration 0.01 -o "$d/link"
	expect_rc 0
	[ -L "$d/link" ] && grep -q "Performance counter stats" "$d/target" || fail "$last: not written through"

	mkfifo "$d/fifo"
	cat "$d/fifo" >"$d/fifo.out" &
	run list -o "$d/fifo"
	expect_rc 0
	wait
	[ -p "$d/fifo" ] || fail "$last: the FIFO was replaced"
	[ "$(wc -l <"$d/fifo.out")" -gt 20 ] || fail "$last: the FIFO's reader got $(wc -l <"$d/fifo.out") lines"

	# a character device (the null device's numbers), as root
	mknod "$d/null" c 1 3 || fail "mknod (the test needs root, as the README's command runs)"
	run list -o "$d/null"
	expect_rc 0
	[ -c "$d/null" ] || fail "$last: the device node was replaced"

	for args in "list --platform snbep --json" "stat --platform snbep --duration 0.01" \
		    "trace gen stream --duration 0.01" "allowlist --platform snbep"; do
		rc=0
		# shellcheck disable=SC2086
		(ulimit -f 1; trap '' XFSZ; exec "$bin" $args -o "$d/big") >"$work/out" 2>"$work/err" || rc=$?
		last="uncore $args -o big (ulimit -f 1)"
		expect_rc 1
		expect_err "$d/big: File too large"
		[ -z "$(ls "$d" | grep '^big')" ] || fail "$last: left $(ls "$d" | grep '^big' | tr '\n' ' ')"
	done

	mkdir "$d/dir"
	run list -o "$d/dir"
	expect_rc 1
	expect_err "$d/dir: is a directory"
	run trace gen idle -o "$d/dir"
	expect_rc 1
	expect_err "$d/dir: is a directory"
	ln -s nowhere/x "$d/dangling"
	run list -o "$d/dangling"
	expect_rc 1
	expect_err "$d/dangling (a link): "

	# the reader of a pipeline goes away: silence, the status of SIGPIPE
	for args in "regs --platform ivt" "list --platform ivt"; do
		# shellcheck disable=SC2086
		{ "$bin" $args 2>"$work/err" && echo 0 >"$work/rc" || echo $? >"$work/rc"; } | head -1 >/dev/null
		n=$(cat "$work/rc")
		[ "$n" -eq 141 ] || fail "uncore $args | head: exit $n, want 141"
		[ ! -s "$work/err" ] || fail "uncore $args | head: said $(cat "$work/err")"
	done
}

# Outputs as root in shared directories (issue 34, item 1).  Every output
# resolves links itself, so it applies the kernel's protected_symlinks rule:
# another user's link (a throw-away uid, chown -h) in a sticky,
# world-writable directory is not followed, whatever writes through it; a
# replaced file keeps its mode and owner; one with other hard links is
# refused; named descriptors are written through, so `>>` appends and a
# pipe works; a file size limit leaves no temporary even with SIGXFSZ at
# its default action.
case_output_rules() {
	local s=$work/shared a f
	mkdir -m 1777 "$s"
	echo secret >"$work/secret"
	chmod 0600 "$work/secret"
	ln -s "$work/secret" "$s/r"
	chown -h 12345:12345 "$s/r"
	for a in "list -o $s/r" "stat --duration 0.01 -o $s/r" "stat --duration 0.01 --record $s/r" \
		"stat --duration 0.01 --vcd $s/r" "trace gen idle --duration 0.01 -o $s/r" \
		"run --report $s/r -- true" "run --report-json $s/r -- true"; do
		# shellcheck disable=SC2086  # the arguments are words
		run $a
		expect_rc 1
		expect_err "not following the symbolic link $s/r: it is owned by uid 12345 in the sticky, world-writable directory $s (the kernel's protected_symlinks rule)"
		[ "$(cat "$work/secret")" = secret ] && [ "$(stat -c %a "$work/secret")" = 600 ] ||
			fail "$last: the link's target was written: $(stat -c %a "$work/secret")"
		! compgen -G "$work/secret.*" >/dev/null || fail "$last: left a temporary beside the target"
	done
	# our own link there, and one the directory's owner owns, are followed
	chown -h 0:0 "$s/r"
	run list -o "$s/r"
	expect_rc 0
	grep -q '^6th Generation' "$work/secret" || fail "$last: our own link was not written through"
	mkdir -m 1777 "$work/theirs"
	chown 12345 "$work/theirs"
	ln -s "$work/secret" "$work/theirs/r"
	chown -h 12345 "$work/theirs/r"
	run list -o "$work/theirs/r"
	expect_rc 0

	# a replaced file keeps its mode, owner and group
	echo old >"$work/kept"
	chown 12345:23456 "$work/kept"
	chmod 0640 "$work/kept"
	run list -o "$work/kept"
	expect_rc 0
	[ "$(stat -c '%a %u %g' "$work/kept")" = "640 12345 23456" ] ||
		fail "$last: now $(stat -c '%a %u %g' "$work/kept"), was 640 12345 23456"
	grep -q '^6th Generation' "$work/kept" || fail "$last: not written"
	# but not setuid or setgid on new content
	chmod 6755 "$work/kept"
	run list -o "$work/kept"
	expect_rc 0
	[ "$(stat -c '%a %u %g' "$work/kept")" = "755 12345 23456" ] ||
		fail "$last: now $(stat -c '%a %u %g' "$work/kept"), want 755 12345 23456"
	# a file with another hard link is refused, both names unchanged
	echo old >"$work/h1"
	ln "$work/h1" "$work/h2"
	run list -o "$work/h1"
	expect_rc 1
	expect_err "$work/h1: has 2 hard links: replacing it would part them"
	[ "$(cat "$work/h1")" = old ] && [ "$work/h1" -ef "$work/h2" ] || fail "$last: the links were parted"

	# named descriptors: appended to as the shell opened them; a pipe
	echo earlier >"$work/log"
	rc=0
	"$bin" list -o /dev/stdout >>"$work/log" 2>"$work/err" || rc=$?
	last="uncore list -o /dev/stdout >> log"
	expect_rc 0
	[ "$(head -1 "$work/log")" = earlier ] && grep -q '^6th Generation' "$work/log" ||
		fail "$last: the log's earlier lines are gone: $(head -2 "$work/log")"
	for f in /dev/stdout /dev/fd/1 /proc/self/fd/1; do
		rc=0
		n=$("$bin" list -o "$f" 2>"$work/err" | wc -l) || rc=$?
		last="uncore list -o $f | wc -l"
		expect_rc 0
		[ "$n" -gt 20 ] || fail "$last: $n lines through the pipe"
		{ "$bin" list --platform ivt -o "$f" 2>"$work/err" && echo 0 >"$work/rc" || echo $? >"$work/rc"; } | head -1 >/dev/null
		[ "$(cat "$work/rc")" -eq 141 ] && [ ! -s "$work/err" ] ||
			fail "uncore list -o $f | head: exit $(cat "$work/rc"), said $(cat "$work/err")"
	done
	"$bin" list -o /dev/stderr 2>"$work/err" >/dev/null
	grep -q '^6th Generation' "$work/err" || fail "list -o /dev/stderr: not written to standard error"

	# a file size limit with SIGXFSZ at its default action: an error, the
	# earlier file kept, no temporary
	mkdir "$work/lim"
	echo earlier >"$work/lim/big"
	rc=0
	(ulimit -f 1; trap - XFSZ; exec "$bin" list --platform snbep -o "$work/lim/big") >"$work/out" 2>"$work/err" || rc=$?
	last="uncore list -o big (ulimit -f 1, SIGXFSZ default)"
	expect_rc 1
	expect_err "$work/lim/big: File too large"
	[ "$(ls "$work/lim")" = big ] && [ "$(cat "$work/lim/big")" = earlier ] ||
		fail "$last: left $(ls "$work/lim" | tr '\n' ' ')"
}

# Zero is a value, never "unset"; values outside what the option can mean
# are refused naming the option (issue 18, item 8).
case_option_values() {
	run stat --platform snbep --node-ids 0,0 --duration 0.001
	expect_rc 2
	expect_err "sockets 0 and 1 with one node ID 0"
	run stat --platform snbep --pci-bus 0,0 --duration 0.001
	expect_rc 2
	expect_err "sockets 0 and 1 on one PCI bus 0x00"
	# node 0 given for socket 1 is node 0, not "the default"
	run stat --platform snbep --node-ids 1,0 --duration 0.001 --check
	expect_rc 0
	run trace gen stream --period 0 -o "$work/t.uct"
	expect_rc 2
	expect_err "--period: 0 cycles"
	[ ! -e "$work/t.uct" ] || fail "$last: wrote a trace"
	for v in 1e-9 0.001 99999; do
		run stat --uclk-mhz "$v" --duration 0.001
		expect_rc 2
		expect_err "--uclk-mhz: $v is outside 100-10000 MHz"
	done
	run stat --pmi-cores 0x100 --duration 0.001
	expect_rc 2
	expect_err "--pmi-cores 0x100: skl selects cores 0-3 (a mask up to 0xf)"
	run stat --pmi-cores 0xffffffffffffffff --duration 0.001
	expect_rc 2
	expect_err "--pmi-cores 0xffffffffffffffff: skl selects cores 0-3"
	run stat --platform snbep --pmi-cores 1 --duration 0.001
	expect_rc 2
	expect_err "--pmi-cores: snbep's uncore raises no PMI"
	run stat --platform ivt --sockets 1 --pmi-cores 0x7fff --duration 0.001 --check
	expect_rc 0
	# the v2's PMI_SEL names 15 cores, its parts have 12: a mask of none of
	# them would leave a PMI-driven run waiting, its counters frozen
	run stat --platform ivt --sockets 1 --pmi-cores 0x7000 --duration 0.001
	expect_rc 2
	expect_err "--pmi-cores 0x7000: selects none of ivt's 12 cores a socket (0-11): no PMI would reach a core"
	# trace numbers are decimal (or 0x hex), never octal: 10 + 8 + 16 cycles
	printf 'uncore-trace 2\nplatform skl\nrun 010: cbo.CACHE_LOOKUP.READ_I=1\nrun 08: cbo.CACHE_LOOKUP.READ_I=1\nrun 0x10: cbo.CACHE_LOOKUP.READ_I=1\n' >"$work/oct.uct"
	run trace info "$work/oct.uct"
	expect_rc 0
	grep -qE '^cycles +34$' "$work/out" || fail "$last: $(grep cycles "$work/out")"
}

# put FILE OFFSET HEX32: a little-endian dword into a fake register file.
put32() {
	local h
	h=$(printf '%08x' "$3")
	printf "\\x${h:6:2}\\x${h:4:2}\\x${h:2:2}\\x${h:0:2}" |
		dd of="$1" bs=1 seek=$(($2)) conv=notrunc status=none
}

# The steps of docs/hw-validation.md, "From a real session to a CI test",
# on a fake two-socket Xeon E5-2600 (--hw-root) whose firmware put socket
# 0 (node 2) on bus 0xFF and socket 1 (node 5) on bus 0x1F: record a
# `stat --backend=hw`, replay it without the machine, get the same output;
# a driver that would do otherwise fails the replay.
case_hw_replay_snbep() {
	local tree=$work/xeon c b f d ev="UNC_U_CLOCKTICKS,UNC_H_REQUESTS.READS,cas_rd"
	for c in $(seq 0 15); do
		mkdir -p "$tree/sys/devices/system/cpu/cpu$c/topology" "$tree/dev/cpu/$c"
		echo $((c / 8)) >"$tree/sys/devices/system/cpu/cpu$c/topology/physical_package_id"
		truncate -s 32768 "$tree/dev/cpu/$c/msr"
	done
	mkdir -p "$tree/proc"
	printf 'processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 45\nstepping\t: 7\n\n' >"$tree/proc/cpuinfo"
	# the functions of public-facts.md on each uncore bus: dev.fn:device ID
	for b in 1f ff; do
		for f in 0b.0:3ce0 0e.1:3c46 10.0:3cb0 10.1:3cb1 10.4:3cb4 10.5:3cb5 08.2:3c41 09.2:3c42 \
			08.6:3c86 09.6:3c96 08.0:3c80 09.0:3c90 13.1:3c43 13.5:3c44 13.6:3c45; do
			d="$tree/sys/bus/pci/devices/0000:$b:${f%:*}"
			mkdir -p "$d"
			truncate -s 4096 "$d/config"
			put32 "$d/config" 0 $((0x${f#*:} << 16 | 0x8086))
		done
		put32 "$tree/sys/bus/pci/devices/0000:$b:0b.0/config" 0x54 0xfa322a # GIDNIDMAP
	done
	put32 "$tree/sys/bus/pci/devices/0000:1f:0b.0/config" 0x40 5 # CPUNODEID
	put32 "$tree/sys/bus/pci/devices/0000:ff:0b.0/config" 0x40 2
	chmod -R a+rwX "$tree"

	run stat --backend=hw --hw-root "$tree" -e "$ev" --duration 0.2 -x, --record "$work/session.log"
	expect_rc 0
	expect_err "PCI PMON writes allowed on uncore buses 1f (socket 1), ff (socket 0)"
	cp "$work/out" "$work/expected.txt"
	[ "$(grep -c ',,' "$work/out")" -eq 3 ] || fail "want 3 counts: $(cat "$work/out")"
	grep -q '^pciwr 0000:ff:0e.1 0xd8 4 ' "$work/session.log" || fail "socket 0's HA (bus ff) not programmed"
	grep -q '^pciwr 0000:1f:10.0 0xf4 4 ' "$work/session.log" || fail "socket 1's iMC (bus 1f) not programmed"
	grep -qE '^pci(rd|wr) 0000:(3f|7f):(0e|10)' "$work/session.log" && fail "a PMON access on the usual buses"
	grep -q '^wrmsr 8 0xc08 ' "$work/session.log" || fail "socket 1's UBox not programmed through cpu 8"
	# the replay needs neither the machine nor root
	rm -rf "$tree"
	run stat --backend "replay:$work/session.log" -e "$ev" --duration 0.2 -x,
	expect_rc 0
	cmp -s "$work/out" "$work/expected.txt" || fail "replayed output differs from the recorded run"
	run stat --backend "replay:$work/session.log" -e "UNC_U_CLOCKTICKS,UNC_H_REQUESTS.WRITES,cas_rd" \
		--duration 0.2 -x,
	expect_rc 1
	expect_err "replay diverges"
}

case_selftest() {
	local c fake
	for c in check stat_default stat_csv stat_json stat_interval bad_option bad_event \
		bad_workload bad_platform output_file output_error list regs record_replay trace \
		trace_progress trace_snbep trace_from_start snbep_buses allowlist metric_output metric_errors list_metrics allowlist_snbep \
		hw_replay_snbep; do
		for fake in true false; do
			if bash "$0" "$(command -v $fake)" "$c" >/dev/null 2>&1; then
				fail "case $c passes with $fake as uncore"
			fi
		done
	done
}

run_case
