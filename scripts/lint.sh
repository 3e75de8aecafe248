#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Static checks of the module (and of the tests' helper module, tests/kmod)
# for every kernel of the matrix, each built in its own suite
# (scripts/suite.sh: that suite's compiler and sparse): a
# W=1 build with sparse (C=2) must print no warning, mmfreectl must build
# with -Werror and pass its unit tests and its host tests (tests/host/),
# checkpatch --strict must be clean, and so must shellcheck on every shell
# script (exceptions: .shellcheckrc).
# Prints one "ok"/"FAIL" line per check; exits 1 if any failed.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$top/scripts/help.sh"
help_if_asked "$@"
src=(Kbuild dkms.conf module include)
fail=0

report() {	# name status logfile
	if [ "$2" = 0 ]; then
		echo "ok   $1"
	else
		echo "FAIL $1"
		sed 's/^/     /' "$3"
		fail=1
	fi
}

while read -r id kver suite _; do
	out=$top/build/lint/$kver
	rm -rf "$out"
	mkdir -p "$out"
	(cd "$top" && cp -a "${src[@]}" "$out/")
	log=$out/build.log
	st=0
	# In a chroot this checkout is /mnt/mmfree.
	m=$out
	[[ $suite == bookworm ]] || m=/mnt/mmfree/build/lint/$kver
	"$top/scripts/suite.sh" run "$suite" make -j"$(nproc)" \
		-C "/lib/modules/$kver/build" M="$m" W=1 C=2 modules \
		>"$log" 2>&1 || st=1
	# The tests' helper module too (tests/kmod), held to the same rules.
	cp -a "$top/tests/kmod" "$out/kmod"
	"$top/scripts/suite.sh" run "$suite" make -j"$(nproc)" \
		-C "/lib/modules/$kver/build" M="$m/kmod" W=1 C=2 modules \
		>>"$log" 2>&1 || st=1
	# Any diagnostic from the compiler or sparse fails the check.
	if grep -E 'warning:|error:' "$log" >"$out/diag" ; then
		st=1
		cp "$out/diag" "$log"
	fi
	# The compiler the kernel was built with, which Kbuild uses too.
	cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"/\1/p' \
		"$("$top/scripts/suite.sh" root "$suite")/usr/src/linux-headers-$kver/.config" 2>/dev/null)
	report "build W=1 C=2 $kver ($id, ${cc:-unknown compiler})" "$st" "$log"
	# A closed gate stops its caller (tests/host/gates-stop.sh).
	if [ "$st" = 0 ]; then
		log=$out/gates.log
		st=0
		"$top/tests/host/gates-stop.sh" "$out/mmfree.ko" >"$log" 2>&1 || st=1
		report "gates stop when closed $kver" "$st" "$log"
	fi
done < <("$top/scripts/kernels.sh")

# make clean removes the module's objects and nothing in build/ (Kbuild's
# own clean deleted every cached kernel's modules there).
out=$top/build/lint/clean
log=$out.log
rm -rf "$out"
mkdir -p "$out/build/cache"
(cd "$top" && cp -a Makefile "${src[@]}" "$out/")
touch "$out/build/cache/kept.ko" "$out/build/cache/kept.o"
kver=$("$top/scripts/kernels.sh" | awk '$3 == "bookworm" { print $2; exit }')
st=0
{
	make -C "$out" KVER="$kver" modules &&
	make -C "$out" KVER="$kver" clean &&
	[ -f "$out/build/cache/kept.ko" ] && [ -f "$out/build/cache/kept.o" ] &&
	[ -z "$(find "$out" -maxdepth 2 -path "$out/build" -prune -o \( -name '*.o' -o -name '*.ko' \) -print)" ]
} >"$log" 2>&1 || st=1
report "make clean removes the objects, keeps build/" "$st" "$log"

# Packaging (scripts/deb.sh, scripts/dkms.sh) copies tracked files only:
# build leftovers, with this machine's absolute paths, stay out of
# /usr/src/mmfree-VERSION.  debian/rules clean, run in a checkout, removes
# only what the package build made, not the lab's caches in build/.  Both
# checked in a clone with this tree's scripts and such leftovers planted.
out=$top/build/lint/packaging
log=$out.log
rm -rf "$out"
st=0
{
	git clone -q "$top" "$out/tree" &&
	cp "$top/scripts/tracked.sh" "$out/tree/scripts/" &&
	cp "$top/debian/rules" "$out/tree/debian/" &&
	touch "$out/tree/module/leftover.o" "$out/tree/module/.leftover.o.cmd" &&
	"$out/tree/scripts/tracked.sh" "$out/copy" Kbuild module include &&
	[ -f "$out/copy/module/main.c" ] && [ -f "$out/copy/include/mmfree/knobs.h" ] &&
	[ -z "$(find "$out/copy" -name '*leftover*')" ] &&
	mkdir -p "$out/tree/build/cache" "$out/tree/build/obj/mmfreectl" &&
	touch "$out/tree/build/cache/kernel" "$out/tree/build/mmfreectl" &&
	printf 'mmfree (0) unstable; urgency=low\n\n  * lint\n\n -- lint <lint@localhost>  %s\n' \
		"$(date -R)" >"$out/tree/debian/changelog" &&
	(cd "$out/tree" && debian/rules clean) &&
	[ -f "$out/tree/build/cache/kernel" ] && [ ! -e "$out/tree/build/mmfreectl" ]
} >"$log" 2>&1 || st=1
report "packaging copies tracked files; debian/rules clean keeps build/" "$st" "$log"

# mmfreectl, the userspace tool: -Wall -Wextra -Werror, built afresh.
log=$top/build/lint/mmfreectl.log
st=0
make -s -B -C "$top" MMFREECTL=build/lint/mmfreectl mmfreectl >"$log" 2>&1 ||
	st=1
report "build mmfreectl -Werror" "$st" "$log"

# Its unit tests, on the host (KTAP; the log shows it all on a failure).
log=$top/build/lint/mmfreectl-test.log
st=0
make -s -C "$top" mmfreectl-test >"$log" 2>&1 || st=1
report "mmfreectl unit tests" "$st" "$log"

# And the one built above on fake sysfs trees: exit statuses, JSON by a
# strict parser, Prometheus's format by promtool (tests/host/).
log=$top/build/lint/mmfreectl-host.log
st=0
MMFREECTL=$top/build/lint/mmfreectl "$top/tests/host/mmfreectl-outputs.sh" \
	>"$log" 2>&1 || st=1
report "mmfreectl on fake sysfs trees (tests/host)" "$st" "$log"

# The knob documentation (README, mmfreectl(8), the modprobe.d example)
# is what include/mmfree/knobs.h makes of it.
log=$top/build/lint/knob-doc.log
st=0
"$top/scripts/knob-doc.sh" --check >"$log" 2>&1 || st=1
report "knob docs made from include/mmfree/knobs.h" "$st" "$log"

cp_dir=$("$top/scripts/checkpatch-fetch.sh")
log=$top/build/lint/checkpatch.log
# File names relative to the top, in checkpatch's messages too.
cd "$top"
checkpatch() {
	"$cp_dir/checkpatch.pl" --strict --no-tree --quiet "$@"
}
# mmfreectl's test/next_arg.c is the kernel's next_arg(), copied as it is
# to hold mmfreectl to it: left in the kernel's own style.
ctl_src=(scripts/knob-doc.c)
for f in mmfreectl/*.[ch] mmfreectl/test/*.[ch]; do
	[[ $f == */test/next_arg.c ]] || ctl_src+=("$f")
done
st=0
{
	# Out of tree, the version checks are the point of module/compat.h.
	# The knobs' declaration is a list macro (an X-macro, as in the
	# kernel's own tables) that param.c expands into module parameters,
	# and trace.h is written in TRACE_EVENT()'s language (laid out as
	# include/trace/events/ is): those files only may have macros that
	# are not expressions and open-ended lines.
	xmacro=(include/mmfree/knobs.h module/param.c module/trace.h)
	mod_src=()
	for f in module/*.[ch] include/mmfree/*.h tests/kmod/*.c; do
		[[ " ${xmacro[*]} " == *" $f "* || $f == module/gate.c ]] || mod_src+=("$f")
	done
	checkpatch --ignore FILE_PATH_CHANGES,LINUX_VERSION_CODE \
		-f "${mod_src[@]}" || st=1
	# A gate called while closed did not run its kernel function: its
	# caller must not go on, so it BUG()s on purpose (the one there is).
	checkpatch --ignore FILE_PATH_CHANGES,LINUX_VERSION_CODE,AVOID_BUG \
		-f module/gate.c || st=1
	checkpatch --ignore FILE_PATH_CHANGES,COMPLEX_MACRO,MACRO_ARG_REUSE,MACRO_ARG_UNUSED,MULTISTATEMENT_MACRO_USE_DO_WHILE,TRAILING_SEMICOLON,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT \
		-f "${xmacro[@]}" || st=1
	# Userspace has no <linux/compiler_attributes.h>: the __printf()
	# checkpatch prefers is mmfreectl.h's own, an __attribute__.
	checkpatch --ignore FILE_PATH_CHANGES,PREFER_DEFINED_ATTRIBUTE_MACRO \
		-f "${ctl_src[@]}" || st=1
} >"$log" 2>&1
report "checkpatch --strict" "$st" "$log"

# Every shell script: *.sh (the sourced libraries too) and any other file
# whose first line runs sh or bash; build/ holds kernel trees, not ours.
scripts=()
while IFS= read -r f; do
	if [[ $f == *.sh ]] || head -n 1 "$f" | grep -qE '^#!.*[/ ](ba|da)?sh( |$)'; then
		scripts+=("${f#./}")
	fi
done < <(find . \( -path ./build -o -path ./.git \) -prune -o -type f -print | LC_ALL=C sort)
log=$top/build/lint/shellcheck.log
st=0
shellcheck "${scripts[@]}" >"$log" 2>&1 || st=1
report "shellcheck (${#scripts[@]} scripts)" "$st" "$log"

exit $fail
