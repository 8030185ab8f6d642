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

# Known reports from kernel code that is not spare's, dropped before
# matching. Each entry names the bug; keep the list short and exact.
#  - rdma_rxe in Debian's 6.1: rxe_mr_copy() steps to the next map after
#    the last buffer of a copy, so a copy that ends on an MR's last page at
#    a map boundary (the last page of every 16 MiB slab: 16 maps of 256
#    pages) reads one pointer past mr->map[] (kmalloc-128), then never uses
#    it. Seen on the debug kernel in client/killdonor; linux 6.3 replaced the
#    maps with an xarray. Only this report of this function is dropped: a
#    use-after-free there, or anything in another function, still counts.
SPLAT_KNOWN_RE='BUG: KASAN: slab-out-of-bounds in rxe_mr_copy\+'

# splat_lines: the splat lines of the kernel log on stdin.
splat_lines() {
	grep -v 'traps: ' | grep -v -E "$SPLAT_KNOWN_RE" | grep -E "$SPLAT_RE"
}

# rxe_counters: soft-RoCE's error and retry counters that are not 0, one
# "rxe: DEVICE/ports/1/hw_counters/NAME VALUE" line each: whether the
# transport was retrying when a report about its copies came. lifespan is
# a setting, not a count. (The guest's /init after a splat, and a failed
# scenario's fail() in tests/vm/spare.inc.)
rxe_counters() {
	for f in /sys/class/infiniband/*/ports/1/hw_counters/*; do
		[ "${f##*/}" = lifespan ] && continue
		v=$(cat "$f" 2>/dev/null) || continue
		[ "$v" = 0 ] || echo "rxe: ${f#/sys/class/infiniband/} $v"
	done
}
