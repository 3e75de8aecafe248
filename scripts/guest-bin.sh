#!/bin/bash
# Build the guest's test programs, tests/guest/bin-src/*.c, as static
# binaries into build/guest-bin/ (tests/vm.sh copies that directory into
# /mmfree, on the guest's PATH).  -pthread for the sources that use it.
# Usage: scripts/guest-bin.sh [OUTDIR]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/guest-bin}
cc=${CC:-gcc}

mkdir -p "$out"
rc=0
for src in "$root"/tests/guest/bin-src/*.c; do
	[[ -e $src ]] || continue
	bin=$out/$(basename "$src" .c)
	[[ $bin -nt $src ]] && continue
	flags=(-O2 -static -Wall -Wextra -Werror)
	! grep -q '#include <pthread.h>' "$src" || flags+=(-pthread)
	if ! "$cc" "${flags[@]}" -o "$bin.tmp" "$src"; then
		echo "guest-bin.sh: building $src failed" >&2
		rm -f "$bin.tmp"
		rc=1
		continue
	fi
	mv "$bin.tmp" "$bin"
done
exit $rc
