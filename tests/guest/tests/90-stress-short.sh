#!/bin/sh
# The short version of make stress (tests/guest/stress.sh) inside make
# check: stress-ng memory stressors in a swapping memory cgroup while the
# controller toggles every knob, switches modes, writes percpu/reclaim,
# reloads the module and injects allocation failures, plus OOM storms;
# afterwards no splat, no memory unaccounted for, nothing in flight and
# percpu accounting equal to its recount (the script's own checks; its
# report table is printed).  STRESS_SECONDS overrides the 40 s (make
# stress runs it for minutes).
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

unload
STRESS_SECONDS=${STRESS_SECONDS:-40} sh "$MMFREE_GUEST/stress.sh" ||
	fail "stress run failed (see its errors above)"
