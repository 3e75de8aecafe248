# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by the project's scripts: a script's usage is its header
# comment (the lines after "#!" up to the first that is no comment, the
# SPDX line left out), kept in that one place.  help_if_asked prints it
# and exits 0 on -h or --help; usage_error prints it to stderr, after a
# message, and exits 2.

help_text() {
	awk 'NR == 1 { next } !/^#/ { exit } /SPDX-License-Identifier/ { next }
		{ sub(/^# ?/, ""); print }' "$0"
}

help_if_asked() {
	case "${1:-}" in
	-h | --help) help_text; exit 0 ;;
	esac
}

usage_error() {	# message
	[[ -z ${1:-} ]] || echo "$(basename "$0"): $1" >&2
	help_text >&2
	exit 2
}
