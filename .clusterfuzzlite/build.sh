#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build (docs/fuzzing.md, "At scale").
#
# The library (model, traces, driver) is built by the project's own CMake
# with the engine's $CC and $CFLAGS: the model's platform folders and its
# generated registry header (model/CMakeLists.txt) come from where they are
# defined, not from a source list kept here.  Then every fuzz/fuzz_<h>.c is
# compiled and linked with $LIB_FUZZING_ENGINE into $OUT/fuzz_<h>, with its
# options file, its dictionary and the committed corpus zipped as its seed
# corpus.  A harness that includes the naive reference model (ref_model.h)
# is linked with it.
# shellcheck disable=SC2086 # $CFLAGS and the like are lists of words
cd "${SRC}/uncore"
build="${WORK}/uncore-build"
rm -rf "$build"
# CMAKE_BUILD_TYPE=None: no flags of a build type on top of $CFLAGS (the
# default, RelWithDebInfo, would add -DNDEBUG and -O2); no tests (they
# build their own libFuzzer binaries), no man pages (scdoc).
cmake -S . -B "$build" -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$CFLAGS" \
	-DCMAKE_BUILD_TYPE=None -DBUILD_TESTING=OFF -DUNCORE_MAN=OFF
cmake --build "$build" --target ucd ucb uct ucm -j"$(nproc)"
libs="$build/driver/core/libucd.a $build/driver/backend/libucb.a $build/trace/libuct.a $build/model/libucm.a"
# the system libraries the layers link (jansson, ISA-L): the runner image
# has neither, so the shared objects the fuzzers need go to $OUT/lib
syslibs=$(pkg-config --libs jansson libisal)
inc="-Imodel -Idriver/backend -Idriver/core -Itrace -Ifuzz -Ictest"
mkdir -p "$OUT/lib"
n=0
for src in fuzz/fuzz_*.c; do
	h=$(basename "$src" .c)
	h=${h#fuzz_}
	objs="$WORK/fuzz_$h.o"
	$CC $CFLAGS -std=c11 -D_GNU_SOURCE $inc -c "$src" -o "$WORK/fuzz_$h.o"
	if grep -q '^#include "ref_model.h"' "$src"; then
		[ -f "$WORK/ref_model.o" ] ||
			$CC $CFLAGS -std=c11 -D_GNU_SOURCE $inc -c fuzz/ref_model.c -o "$WORK/ref_model.o"
		objs="$objs $WORK/ref_model.o"
	fi
	# linked by the C++ driver as OSS-Fuzz asks (an engine may be C++);
	# shellcheck disable=SC2016 # $ORIGIN is for the dynamic loader
	${CXX:-$CC} ${CXXFLAGS:-$CFLAGS} $LIB_FUZZING_ENGINE $objs $libs $syslibs -lm \
		-Wl,-rpath,'$ORIGIN/lib' -o "$OUT/fuzz_$h"
	ldd "$OUT/fuzz_$h" | awk '$3 ~ /lib(isal|jansson)/ {print $3}' |
		while read -r so; do
			[ -f "$OUT/lib/$(basename "$so")" ] || cp -L "$so" "$OUT/lib/"
		done
	cp "fuzz/$h.options" "$OUT/fuzz_$h.options"
	[ ! -f "fuzz/$h.dict" ] || cp "fuzz/$h.dict" "$OUT/$h.dict"
	rm -f "$OUT/fuzz_${h}_seed_corpus.zip"
	(cd "fuzz/corpus/$h" && zip -q -r "$OUT/fuzz_${h}_seed_corpus.zip" .)
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "build.sh: no fuzz/fuzz_*.c harness" >&2; exit 1; }
echo "build.sh: $n fuzzers in $OUT"
