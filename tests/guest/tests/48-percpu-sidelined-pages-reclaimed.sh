#!/bin/sh
# Empty pages that the kernel populates in sidelined chunks are
# reclaimed.  A depopulated chunk that keeps live allocations is
# sidelined: isolated, its empty pages in no float.  When the chunks
# that are not isolated run low and have no page left to populate,
# pcpu_balance_populated() populates pages of a sidelined chunk all the
# same (its slot comes before the free one), and nothing depopulated
# them: they stayed until a free in the chunk listed it again or an
# allocation reintegrated it.
#
# Stock holes (as in percpu-reclaims-what-stock-leaves) are reclaimed
# with keep_empty_pages one above what any partly populated chunk holds,
# so the float stays in a fully populated chunk and the others are
# sidelined; with percpu off, memory cgroups are then created 10 at a
# time until the sidelined chunks hold at least 8 empty populated pages.
# Whether the kernel populates them before an allocation reintegrates
# them depends on where the holes are: when every sidelined chunk was
# reintegrated first (or after 30 rounds), it starts again from new
# holes (250, then 500 more cgroups), then the test skips.  One write to
# percpu/reclaim must leave at most 4 empty pages in isolated chunks
# (one populate of the same run), with the accounting exact.
MMFREE_GUEST=${MMFREE_GUEST:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=../lib.sh
. "$MMFREE_GUEST/lib.sh"

n=${PCPU_CGROUPS:-1500}
trap 'memcg_delete_all' EXIT
# Isolated chunks (sidelined, or to depopulate) and their empty pages:
# $chunks and $empty.
pcpu_isolated() {
	read -r chunks empty <<EOS
$(pcpu_accounting | awk '$1 == "chunk" && $13 == 1 { n++; e += $9 }
	END { print n + 0, e + 0 }')
EOS
}

# One reclaim write with percpu on; the chunks after it.
reclaim_once() {
	knob_write percpu/enabled 1 || fail "enabling percpu"
	knob_write percpu/reclaim 1 || fail "reclaim"
	pcpu_accounting | grep chunk
	pcpu_isolated
}

# Sideline every chunk but a fully populated one that keeps the float,
# then create cgroups until the sidelined chunks hold 8 empty pages:
# false when they were reintegrated first.
sideline_and_fill() {
	local keep most i
	acct=$(pcpu_accounting)
	echo "$acct" | grep chunk
	read -r keep most <<EOS
$(echo "$acct" | awk '$1 == "chunk" && $13 == 0 && $NF != "first" && $9 > 0 {
	if ($7 < $5) { if ($9 >= p) p = $9 + 1 } else if ($9 > f) f = $9 }
	END { print (p > 4 ? p : 4), f + 0 }')
EOS
	if [ "$most" -lt "$keep" ]; then
		echo "no fully populated chunk holds $keep empty pages (at most $most)"
		return 1
	fi
	knob_write percpu/keep_empty_pages "$keep" || fail "keep_empty_pages $keep"
	reclaim_once
	knob_write percpu/enabled 0 || fail "disabling percpu"
	echo "reclaimed to a float of $keep: $chunks chunks sidelined, $empty empty pages in them"
	i=0
	while [ "$empty" -lt 8 ]; do
		if [ "$chunks" = 0 ] || [ $i = 30 ]; then
			echo "after $i rounds of 10 new cgroups, $chunks chunks sidelined with $empty empty pages"
			return 1
		fi
		seq $((next + 1)) $((next + 10)) | sed "s|^|$CG/|" | xargs mkdir ||
			fail "mkdir of 10 cgroups"
		next=$((next + 10))
		sleep 0.2
		pcpu_isolated
		i=$((i + 1))
	done
	pcpu_accounting | grep chunk
	echo "after $i rounds of 10 new cgroups: $chunks isolated chunks hold $empty empty pages; $(pcpu_stat populated_pages) populated"
}

cycle=1
for n in $n $((n + 250)) $((n + 500)); do
	pcpu_stock_holes "$n"
	next=$n
	! sideline_and_fill || break
	[ $cycle -lt 3 ] ||
		skip "in $cycle layouts, allocations reintegrated the sidelined chunks before the kernel populated them: nothing to prove"
	cycle=$((cycle + 1))
done
assert_pcpu_accounting "sidelined pages populated (cycle $cycle)"
before=$empty
reclaim_once
echo "reclaim: $chunks isolated chunks hold $empty empty pages; $(pcpu_stat populated_pages) populated"
assert_pcpu_accounting "after the reclaim"
[ "$empty" -le 4 ] ||
	fail "isolated chunks keep $empty of their $before empty pages after a reclaim"
memcg_delete_all
pcpu_quiesce
assert_pcpu_accounting "after deleting all"
unload
