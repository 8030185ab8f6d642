# SPDX-License-Identifier: GPL-2.0
#
# What counts as a kernel splat in a guest's log: one extended regular
# expression, SPLAT_RE, for grep -E. Sourced by the guest's /init (busybox
# sh; mkinitramfs copies this file to /etc/spare-splat.sh), by scripts/vm/run
# on the host and by the matcher's own test (tests/rig/splat-test). Add a
# sample line to tests/rig/splat-test with every alternative.
#
# "traps: <prog> general protection fault" is a user program's crash, which
# the scenario judges for itself: drop "traps: " lines before matching.

SPLAT_RE='(^|[^A-Z])BUG:'				# BUG: KASAN, sleeping function called from invalid context, scheduling while atomic, soft lockup, workqueue lockup, unable to handle ...
SPLAT_RE="$SPLAT_RE|kernel BUG at "		# BUG_ON()
SPLAT_RE="$SPLAT_RE|^(\[[ 0-9.]+\] )?BUG [^ ]+ \((Not tainted|Tainted)"	# SLUB: BUG kmalloc-64 (Tainted: ...): Poison overwritten
SPLAT_RE="$SPLAT_RE|Oops|Kernel panic|general protection fault[,:]"
SPLAT_RE="$SPLAT_RE|WARNING:"			# WARN_ON() and lockdep's reports
SPLAT_RE="$SPLAT_RE|possible circular locking|inconsistent lock state|possible recursive locking|DEADLOCK"
SPLAT_RE="$SPLAT_RE|INFO: trying to register non-static key|turning off the locking correctness validator"
SPLAT_RE="$SPLAT_RE|KASAN:|UBSAN:"
SPLAT_RE="$SPLAT_RE|blocked for more than [0-9]+ seconds"	# hung tasks
SPLAT_RE="$SPLAT_RE|rcu: INFO:|self-detected stall|detected (expedited )?stalls|kthread starved for"	# RCU stalls
SPLAT_RE="$SPLAT_RE|ODEBUG: .*(active state|object type)"	# debug objects (not its boot-time "N of N active objects replaced")
SPLAT_RE="$SPLAT_RE|hard LOCKUP|list_(add|del) corruption"

# splat_lines: the splat lines of the kernel log on stdin.
splat_lines() {
	grep -v 'traps: ' | grep -E "$SPLAT_RE"
}
