#!/bin/sh
# tests/vm.sh --script elsewhere: the suite run the way tests/installed.sh
# runs it on a real machine, from a checkout's layout in /opt/t, with
# /mmfree moved away so that nothing can use it: the guest files must
# find each other from where they are.  First installed.sh's refusals
# (not root, module not installed, module loaded: exit status 2, one
# line) and its splat check (a test that logs a fake WARNING passes, the
# run fails), then installed.sh --no-build with the tests that
# mmfree_test= selects (tests/vm.sh --test; all by default), whose exit
# status is this script's.
set -eu
g=$(cd "$(dirname "$0")" && pwd)
t=/opt/t

# The checkout: tests/installed.sh, tests/guest/, etc/ and the programs
# built in build/guest-bin/ (vm.sh copied them all into /mmfree).
mkdir -p $t/tests/guest $t/build/guest-bin
# (promtool: scripts/guest-bin.sh puts it there too.)
progs="mmfreectl promtool"
for src in "$g"/bin-src/*.c; do
	progs="$progs $(basename "$src" .c)"
done
for f in "$g"/*; do
	case " installed.sh etc $progs " in
	*" ${f##*/} "*) ;;
	*) cp -a "$f" $t/tests/guest/ ;;
	esac
done
cp "$g/installed.sh" $t/tests/
cp -a "$g/etc" $t/
for p in $progs; do
	cp "$g/$p" $t/build/guest-bin/
done
mv "$g" "$g.away"
echo "== $t:"
(cd $t && find . -maxdepth 3 ! -path './tests/guest/tests/*' | sort | tr '\n' ' ')
echo

refused() {	# what command...
	what=$1
	shift
	rc=0
	out=$("$@" 2>&1) || rc=$?
	echo "$what: exit $rc: $out"
	if [ "$rc" != 2 ] || [ "$(echo "$out" | wc -l)" != 1 ]; then
		echo "FAIL: $what: expected exit status 2 and one line"
		exit 1
	fi
}
refused "not root" setpriv --reuid=65534 --regid=65534 --clear-groups \
	$t/tests/installed.sh --no-build
ko=$(modinfo -n mmfree)
mv "$ko" /tmp/mmfree.ko.away && depmod
refused "not installed" $t/tests/installed.sh --no-build
mv /tmp/mmfree.ko.away "$ko" && depmod
modprobe mmfree
refused "loaded" $t/tests/installed.sh --no-build
modprobe -r mmfree

# The fake splat is logged at debug level, below the console's: tests/vm.sh
# judges the console's timestamped lines, and this run's output goes
# there without timestamps.
fake=$t/tests/guest/tests/99-logs-a-splat.sh
echo "echo '<7>WARNING: CPU: 0 PID: 1 at nowhere (fake, tests/guest/elsewhere.sh)' >/dev/kmsg" >$fake
rc=0
out=$($t/tests/installed.sh --no-build --test logs-a-splat 2>&1) || rc=$?
echo "$out" | sed -E 's/\[ *[0-9]+\.[0-9]+\] //; s/^/# /'
if [ "$rc" != 1 ] || [ "$(echo "$out" | tail -n 1)" != "1 passed, 1 failed" ]; then
	echo "FAIL: a splat during the run: expected exit status 1 and \"1 passed, 1 failed\""
	exit 1
fi
echo "splat: exit $rc: $(echo "$out" | tail -n 1)"
rm $fake

echo "== $t/tests/installed.sh --no-build${MMFREE_TEST:+ --test $MMFREE_TEST}"
cd /
$t/tests/installed.sh --no-build ${MMFREE_TEST:+--test "$MMFREE_TEST"}
