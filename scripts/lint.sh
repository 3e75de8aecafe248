#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Static checks of the module for every supported kernel: a W=1 build
# with sparse (C=2) must print no warning, mmfreectl must build with
# -Werror, and checkpatch --strict must be clean.  Prints one "ok"/"FAIL"
# line per check; exits 1 if any failed.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
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

for kver in $("$top/scripts/kernels.sh"); do
	out=$top/build/lint/$kver
	rm -rf "$out"
	mkdir -p "$out"
	(cd "$top" && cp -a "${src[@]}" "$out/")
	log=$out/build.log
	st=0
	make -C "/lib/modules/$kver/build" M="$out" W=1 C=2 modules \
		>"$log" 2>&1 || st=1
	# Any diagnostic from the compiler or sparse fails the check.
	if grep -E 'warning:|error:' "$log" >"$out/diag" ; then
		st=1
		cp "$out/diag" "$log"
	fi
	report "build W=1 C=2 $kver" "$st" "$log"
done

# mmfreectl, the userspace tool: -Wall -Wextra -Werror, built afresh.
log=$top/build/lint/mmfreectl.log
st=0
make -s -B -C "$top" MMFREECTL=build/lint/mmfreectl mmfreectl >"$log" 2>&1 ||
	st=1
report "build mmfreectl -Werror" "$st" "$log"

cp_dir=$("$top/scripts/checkpatch-fetch.sh")
log=$top/build/lint/checkpatch.log
# File names relative to the top, in checkpatch's messages too.
cd "$top"
checkpatch() {
	"$cp_dir/checkpatch.pl" --strict --no-tree --quiet "$@"
}
st=0
{
	# Out of tree, the version checks are the point of module/compat.h.
	checkpatch --ignore FILE_PATH_CHANGES,LINUX_VERSION_CODE \
		-f module/*.[ch] include/mmfree/*.h || st=1
	# Userspace has no <linux/compiler_attributes.h>: the __printf()
	# checkpatch prefers is mmfreectl.h's own, an __attribute__.
	checkpatch --ignore FILE_PATH_CHANGES,PREFER_DEFINED_ATTRIBUTE_MACRO \
		-f scripts/mmfreectl/*.[ch] || st=1
} >"$log" 2>&1
report "checkpatch --strict" "$st" "$log"

exit $fail
