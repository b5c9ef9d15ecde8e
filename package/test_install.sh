#!/bin/bash
# test_install.sh CASE - the installed tree, tested as a user meets it
# (package/CMakeLists.txt passes the build's settings in the environment:
# BUILD WORK CMAKE CC CXX PKG_CONFIG VP_SOURCE CONSUMER VERSION SOVERSION
# LIBDIR BINDIR INCLUDEDIR MANDIR MAN SYSTEMC).
#   install             cmake --install into $WORK/prefix; the library's soname,
#                       the files a user looks for, every public header
#                       compiling alone against that tree only
#   consumer_cmake      consumer/ with find_package(uncore CONFIG): shared
#                       (from the installed tree) and static, run; with
#                       SystemC, the example virtual platform on uncore::systemc
#   consumer_pkgconfig  consumer.c with `pkg-config --cflags --libs uncore`, and
#                       with --static against libuncore.a, run; a C++ program
#                       including every public header, linked and run; a copy
#                       of the tree elsewhere, by its own uncore.pc
#   installed_cli       the installed uncore: --version, and `uncore run` loading
#                       the installed libuncore-run.so from the tree, moved
set -u
case_=$1
P=$WORK/prefix

fail() { echo "FAIL: $*" >&2; exit 1; }
need() { [ -e "$P/$1" ] || fail "not installed: $1"; }
run() { echo "+ $*"; "$@" || fail "exit $?: $*"; }

case $case_ in
install)
	rm -rf "$WORK"
	mkdir -p "$WORK"
	run "$CMAKE" --install "$BUILD" --prefix "$P" >"$WORK/install.log"
	for f in "$BINDIR/uncore" "$LIBDIR/uncore/libuncore-run.so" "$LIBDIR/libuncore.a" \
		 "$LIBDIR/libuncore.so" "$LIBDIR/libuncore.so.$SOVERSION" "$LIBDIR/libuncore.so.$VERSION" \
		 "$LIBDIR/pkgconfig/uncore.pc" "$LIBDIR/cmake/uncore/uncoreConfig.cmake" \
		 "$LIBDIR/cmake/uncore/uncoreConfigVersion.cmake" "$INCLUDEDIR/uncore/ucm.h" \
		 "$INCLUDEDIR/uncore/ucd.h"; do
		need "$f"
	done
	if [ "$MAN" = 1 ]; then
		for c in "" -stat -list -regs -trace -allowlist -run; do
			need "$MANDIR/man1/uncore$c.1"
		done
	fi
	if [ "$SYSTEMC" = 1 ]; then
		need "$LIBDIR/libuncore-systemc.a"
		need "$INCLUDEDIR/uncore/uncore_tlm.h"
		need "$LIBDIR/cmake/uncore/uncoreSystemCTargets.cmake"
	fi
	# the soname a program records is libuncore.so.<SOVERSION>
	soname=$(readelf -d "$P/$LIBDIR/libuncore.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	echo "soname: $soname"
	[ "$soname" = "libuncore.so.$SOVERSION" ] || fail "soname '$soname', expected libuncore.so.$SOVERSION"
	# exported: the layers' functions; not the CLI's, nor anything unprefixed
	exports=$(nm -D --defined-only "$P/$LIBDIR/libuncore.so" | awk '$2 ~ /[TDRB]/ {print $3}')
	for s in ucm_create ucd_open ucb_sim_create uct_attach; do
		grep -qx "$s" <<<"$exports" || fail "libuncore.so does not export $s"
	done
	bad=$(grep -v '^uc[mbdt]_' <<<"$exports")
	[ -z "$bad" ] || fail "libuncore.so exports symbols outside its prefixes: $bad"
	# every public header compiles on its own, with nothing but the tree
	for h in "$P/$INCLUDEDIR"/uncore/*.h; do
		n=$(basename "$h")
		[ "$n" = uncore_tlm.h ] && continue  # C++ and SystemC: built in consumer_cmake
		printf '#include <uncore/%s>\n' "$n" >"$WORK/h.c"
		run "$CC" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only \
			-I"$P/$INCLUDEDIR" "$WORK/h.c"
	done
	echo "installed tree complete"
	;;
consumer_cmake)
	B=$WORK/cmake
	rm -rf "$B"
	vp=()
	[ "$SYSTEMC" = 1 ] && vp=(-DUNCORE_VP_SOURCE="$VP_SOURCE" -DCMAKE_CXX_COMPILER="$CXX")
	run "$CMAKE" -S "$CONSUMER" -B "$B" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC" \
		-DUNCORE_VERSION="$VERSION" -DCMAKE_BUILD_TYPE=Debug "${vp[@]}" >"$B.log" \
		|| { cat "$B.log"; exit 1; }
	run "$CMAKE" --build "$B"
	# the shared library the program loads is the installed one
	lib=$(ldd "$B/consumer" | awk '$1 ~ /^libuncore\.so/ {print $3}')
	echo "consumer loads $lib"
	[ "$lib" -ef "$P/$LIBDIR/libuncore.so.$SOVERSION" ] || fail "consumer loads '$lib', not the installed library"
	ldd "$B/consumer_static" | grep -q libuncore && fail "consumer_static loads libuncore.so"
	run "$B/consumer"
	run "$B/consumer_static"
	if [ "$SYSTEMC" = 1 ]; then
		SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 run "$B/consumer_vp"
	fi
	;;
consumer_pkgconfig)
	export PKG_CONFIG_PATH=$P/$LIBDIR/pkgconfig
	run "$PKG_CONFIG" --exists --print-errors "uncore = $VERSION"
	flags=$("$PKG_CONFIG" --cflags --libs uncore) || fail "pkg-config --cflags --libs uncore"
	echo "pkg-config: $flags"
	# shellcheck disable=SC2086  # the flags are words
	run "$CC" -std=c11 -Wall -Wextra -Werror -o "$WORK/consumer_pc" "$CONSUMER/consumer.c" $flags
	LD_LIBRARY_PATH=$P/$LIBDIR run "$WORK/consumer_pc"
	# linked statically, with what --static adds (Requires.private, Libs.private)
	sflags=$("$PKG_CONFIG" --cflags --libs --static uncore) || fail "pkg-config --static"
	echo "pkg-config --static: $sflags"
	# shellcheck disable=SC2086
	run "$CC" -std=c11 -Wall -Wextra -Werror -o "$WORK/consumer_pc_static" "$CONSUMER/consumer.c" \
		${sflags/-luncore/-l:libuncore.a}
	ldd "$WORK/consumer_pc_static" | grep -q libuncore && fail "consumer_pc_static loads libuncore.so"
	run "$WORK/consumer_pc_static"
	# from C++: every public header (C linkage in extern "C"), linked and run
	cxx=${CXX:-c++}
	[ -n "$cxx" ] && command -v "$cxx" >/dev/null || fail "no C++ compiler ('$cxx'): apt-get install g++"
	{
		for h in "$P/$INCLUDEDIR"/uncore/*.h; do
			n=$(basename "$h")
			[ "$n" = uncore_tlm.h ] || printf '#include <uncore/%s>\n' "$n"
		done
		cat <<'CXX'
#include <cstdio>
int main()
{
	const struct ucm_platform *p = ucm_platform_find("skl");
	struct ucm_config cfg;
	struct ucm_model *m = nullptr;

	if (!p)
		return 1;
	ucm_config_init(&cfg, p);
	if (ucm_create(&cfg, &m) || !m)
		return 2;
	ucm_destroy(m);
	std::puts("C++ consumer: model created and destroyed");
	return 0;
}
CXX
	} >"$WORK/consumer.cpp"
	# shellcheck disable=SC2086
	run "$cxx" -std=c++17 -Wall -Wextra -Werror -o "$WORK/consumer_cxx" "$WORK/consumer.cpp" $flags
	LD_LIBRARY_PATH=$P/$LIBDIR run "$WORK/consumer_cxx"
	# relocatable: a copy of the tree elsewhere names itself, not $P (a
	# directory of its own: installed_cli moves a copy too, and CTest runs
	# the two at once)
	M=$WORK/moved_pc
	rm -rf "$M"
	run cp -a "$P" "$M"
	export PKG_CONFIG_PATH=$M/$LIBDIR/pkgconfig
	mflags=$("$PKG_CONFIG" --cflags --libs uncore) || fail "pkg-config in the moved tree"
	echo "pkg-config, moved tree: $mflags"
	case "$mflags" in
	*"$P/"* | *"$P "*) fail "the moved tree's uncore.pc names the installed prefix $P: $mflags" ;;
	*"$M/"*) ;;
	*) fail "the moved tree's uncore.pc does not name $M: $mflags" ;;
	esac
	# shellcheck disable=SC2086
	run "$CC" -std=c11 -Wall -Wextra -Werror -o "$WORK/consumer_moved" "$CONSUMER/consumer.c" $mflags
	LD_LIBRARY_PATH=$M/$LIBDIR run "$WORK/consumer_moved"
	rm -rf "$M"
	;;
installed_cli)
	# a tree that was moved after installation still finds its preload library
	M=$WORK/moved
	rm -rf "$M"
	cp -a "$P" "$M"
	out=$("$M/$BINDIR/uncore" --version) || fail "installed uncore --version"
	echo "$out"
	[ "$out" = "uncore $VERSION" ] || fail "uncore --version says '$out', expected 'uncore $VERSION'"
	env -u UNCORE_RUN_LIB "$M/$BINDIR/uncore" run --platform skl -- cat /proc/self/maps >"$WORK/maps" \
		|| fail "installed uncore run"
	want=$(readlink -f "$M/$LIBDIR/uncore/libuncore-run.so")
	grep -F "$want" "$WORK/maps" || fail "uncore run did not preload $want:
$(grep -i uncore "$WORK/maps")"
	;;
*)
	fail "unknown case '$case_'"
	;;
esac
