#!/bin/bash
# Build the guest's programs, tests/guest/bin-src/*.c (the tests') and
# bench/guest/*.c (the benchmarks'), as static binaries into build/guest-bin/ (tests/vm.sh copies that directory into
# /mmfree, on the guest's PATH).  -pthread for the sources that use it.
# Also promtool, Prometheus's own checker (from Debian's prometheus
# package, cached in build/cache/), for mmfreectl status --prometheus.
# Usage: scripts/guest-bin.sh [OUTDIR]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=help.sh
. "$root/scripts/help.sh"
help_if_asked "$@"
out=${1:-$root/build/guest-bin}
cc=${CC:-gcc}

mkdir -p "$out"
rc=0
for src in "$root"/tests/guest/bin-src/*.c "$root"/bench/guest/*.c; do
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

# promtool: a static Go binary; only it is taken from the package.
candidate() { apt-cache policy prometheus 2>/dev/null | sed -n 's/^  Candidate: //p'; }
pkg=$(candidate)
[[ -n $pkg && $pkg != '(none)' ]] || { apt-get update -q >&2; pkg=$(candidate); }
cached=$root/build/cache/promtool-$pkg
if [[ ! -x $cached ]]; then
	tmp=$(mktemp -d)
	if (cd "$tmp" && apt-get download -q "prometheus=$pkg" >&2) &&
	   dpkg-deb -x "$tmp"/prometheus_*.deb "$tmp/x" &&
	   [[ -x $tmp/x/usr/bin/promtool ]]; then
		mkdir -p "$(dirname "$cached")"
		mv "$tmp/x/usr/bin/promtool" "$cached"
	else
		echo "guest-bin.sh: fetching promtool from the prometheus package failed" >&2
		rc=1
	fi
	rm -rf "$tmp"
fi
[[ ! -x $cached ]] || cp "$cached" "$out/promtool"
exit $rc
