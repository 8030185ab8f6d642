# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# A one-donor, one-copy device without a backup moves an evicted copy to a
# donor appended while it runs (issue 31 §2.5). It powers on with donor 2
# alone, replicas=1 and no backup: nothing to copy from and, at power-on,
# nowhere to move to. 32 MiB are written over 8 slabs. Donor 3 is appended
# to configfs "donors" and connects; then donor 2 evicts one slab. The copy
# must move to donor 3 (resync fills it through the bounce blocks) and every
# page must read back. Before the fix, power-on skipped the bounce blocks in
# this configuration, so the move could not start and the EVICT dropped the
# slab: reads of it failed.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 240

diag() { show_stats "$disk"; dmesg | grep -E 'moved|evicted|refused|lost|donor' | tail -20; donor_logs; }

step "one donor, 1 copy per slab, no backup; 32 MiB written"
rxe_up 3
donor_start 2 --budget 256M --slab-size 16M --evict-deadline 20000
donor_start 3 --budget 256M --slab-size 16M
spare_load
disk=$(spare_create swap0 size=128M slab_size=16M replicas=1 \
	donors=10.0.0.2:18515 source=10.0.0.1)
[ -b "/dev/$disk" ] || fail "no /dev/$disk"
dd if=/dev/urandom of=/tmp/want bs=1M count=32 2>/dev/null || fail "no pattern"
slabs_write "$disk"
slabs_verify "$disk" "written"
pass "/dev/$disk: 8 slabs on donor 2, 32 MiB written and read back"

step "donor 3 appended to configfs donors; it connects"
echo 10.0.0.2:18515,10.0.0.3:18515 >"$CFS/swap0/donors" || fail "appending donor 3"
wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.3:18515\" {print \$4}' /sys/block/$disk/spare/donor_stat)\" = live ]" ||
	{ diag; fail "donor 3 did not come up"; }
pass "donor 3 live"

step "donor 2 evicts one slab: the copy moves to donor 3"
donor_ctl 2 evict 1 >/dev/null || fail "donor 2: evict"
wait_until 60 sh -c "[ \"\$(awk '\$3 == \"10.0.0.2:18515\" {print \$7}' /sys/block/$disk/spare/donor_stat)\" -ge 1 ]" ||
	{ diag; fail "the EVICT was not answered"; }
dmesg | grep -E 'evicted' | sed 's/^/    /'
[ "$(donor_field 10.0.0.2 moves)" = 1 ] ||
	{ diag; fail "the evicted copy did not move (moves=$(donor_field 10.0.0.2 moves))"; }
[ "$(donor_ctl 3 status | awk '$1 == "spare_donor_slabs_lent" {print $2}')" = 1 ] ||
	{ diag; fail "donor 3 does not lend the moved slab"; }
pass "1 slab moved to donor 3"

step "every page reads back; no I/O error"
slabs_verify "$disk" "after the move"
[ "$(io_stat "$disk" io_errors)" = 0 ] || { diag; fail "$(io_stat "$disk" io_errors) I/O errors"; }
[ "$(donor_field 10.0.0.2 moves_short)" = 0 ] || fail "the move ran out of time (pages lost)"
spare_destroy swap0
check_dmesg
pass "32 MiB verified after the move"
