# SPDX-License-Identifier: GPL-2.0
# Print the kernel log lines that are splats, one per line: oops, WARN,
# BUG (soft lockups too), lockdep, RCU stalls, KASAN, kmemleak, list
# corruption, bad pages, any stack trace.  An OOM report carries a Call
# Trace by design and is skipped: from "invoked oom-killer:" to "Killed
# process" or "no killable processes" (300 lines at most), and any stack
# trace that runs through oom_kill_process (a report whose first lines
# have rotated out of a small log buffer).  Used for a VM's console on
# the host (tests/vm.sh, scripts/stress.sh) and for the kernel log of the
# machine under test (tests/guest/stress.sh, tests/installed.sh).
function flush() {
	if (trace != "" && !oomtrace)
		print trace
	trace = ""
	oomtrace = 0
}
/invoked oom-killer:/ { flush(); oom = 300 }
oom > 0 { oom--; if (/Killed process|no killable processes/) oom = 0; next }
trace != "" {
	if (/oom_kill_process/)
		oomtrace = 1
	if (/<\/TASK>|---\[ end trace/ || ++tracelines > 80)
		flush()
	next
}
/Call Trace/ { trace = $0; tracelines = 0; next }
/Oops|WARNING:|BUG:|Kernel panic|general protection fault|possible recursive locking|circular locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|INFO: lockdep|UBSAN|KASAN|kmemleak: [0-9]+ new suspected|stack-protector|list_(add|del) corruption|sleeping function called from invalid context|Unable to handle kernel|scheduling while atomic|bad page state|Bad page|detected stalls/ { print }
END { flush() }
