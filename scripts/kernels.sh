#!/bin/bash
# Print the kernel releases mmfree is tested on, one per line, 6.1 first.
# Usage: scripts/kernels.sh [6.1|6.12]
# Override the choice with MMFREE_KERNELS="rel1 rel2".
# Picks, per series, the newest release for which both linux-headers-REL and
# linux-image-REL-unsigned exist in apt's cache (plain amd64 flavour only).
# Uses only apt-cache, so it works before any header package is installed.
set -euo pipefail

series=${1:-}
case "$series" in
'' | 6.1 | 6.12) ;;
*) echo "usage: $0 [6.1|6.12]" >&2; exit 2 ;;
esac

# Regexes for the release strings of each series (Debian 12 naming:
# 6.1.0-ABI-amd64 and 6.12.N+deb12-amd64).
re_6_1='6\.1\.0-[0-9]+-amd64'
re_6_12='6\.12\.[0-9]+\+deb12-amd64'

# Does release $1 belong to series $2?
in_series() {
	case "$2" in
	'') return 0 ;;
	6.1) [[ $1 =~ ^$re_6_1$ ]] ;;
	6.12) [[ $1 =~ ^$re_6_12$ ]] ;;
	esac
}

if [[ -n ${MMFREE_KERNELS:-} ]]; then
	for k in $MMFREE_KERNELS; do
		# A custom release belongs to no series: keep it unless filtering
		# by a series it does not match.
		if [[ -z $series ]] || in_series "$k" "$series"; then
			echo "$k"
		fi
	done
	exit 0
fi

# 'apt-cache search' lists only real packages (pkgnames would also list
# names merely referenced by a dependency).
avail=$(apt-cache search --names-only \
	"^linux-(headers-.*-amd64|image-.*-amd64-unsigned)\$" | cut -d' ' -f1)

newest() { # $1 = release regex
	local img hdr
	img=$(grep -E "^linux-image-$1-unsigned\$" <<<"$avail" |
		sed -e 's/^linux-image-//' -e 's/-unsigned$//' || true)
	hdr=$(grep -E "^linux-headers-$1\$" <<<"$avail" |
		sed -e 's/^linux-headers-//' || true)
	# Releases with both packages, newest last.
	comm -12 <(sort <<<"$img") <(sort <<<"$hdr") | grep . | sort -V | tail -n1
}

found=0
for s in 6.1 6.12; do
	[[ -z $series || $series == "$s" ]] || continue
	re_var="re_${s//./_}"
	if k=$(newest "${!re_var}"); then
		echo "$k"
		found=1
	else
		echo "kernels.sh: no $s kernel with headers and unsigned image in apt's cache (run apt-get update?)" >&2
	fi
done
[[ $found == 1 ]]
