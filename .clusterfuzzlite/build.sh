#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build: compile every harness with the engine's
# $CC, $CFLAGS and $LIB_FUZZING_ENGINE into $OUT, with its options file,
# dictionary and the committed corpus as the seed corpus.
cd "${SRC}/uncore"
lib_src="model/*.c driver/ucb.c driver/ucb_sim.c driver/ucb_log.c driver/ucd_parse.c
         driver/ucd_session.c trace/uct_trace.c trace/uct_file.c"
inc="-Imodel -Idriver -Itrace -Ifuzz"
for h in regs event_trace access_trace event_string driver; do
	extra=""
	[ "$h" = regs ] && extra="fuzz/ref_model.c"
	# shellcheck disable=SC2086
	$CC $CFLAGS -std=c11 -D_GNU_SOURCE $inc -c fuzz/fuzz_$h.c -o "$WORK/fuzz_$h.o"
	objs=""
	for f in $lib_src $extra; do
		o="$WORK/$(echo "$f" | tr '/' '_').o"
		[ -f "$o" ] || $CC $CFLAGS -std=c11 -D_GNU_SOURCE $inc -c "$f" -o "$o"
		objs="$objs $o"
	done
	# shellcheck disable=SC2086
	$CC $CFLAGS $LIB_FUZZING_ENGINE "$WORK/fuzz_$h.o" $objs -lisal -lm -o "$OUT/fuzz_$h"
	cp "fuzz/$h.options" "$OUT/fuzz_$h.options"
	cp "fuzz/$h.dict" "$OUT/$h.dict"
	(cd "fuzz/corpus/$h" && zip -q -r "$OUT/fuzz_${h}_seed_corpus.zip" .)
done
