# SPDX-License-Identifier: GPL-2.0
#
# Killed donor: as client/swap.sh (two copies of every slab), but the donor
# on 10.0.0.3 gets SIGKILL mid-run. The workload finishes with every page
# verified, the device falls back to the surviving copies (stats), emits a
# uevent, and when spared comes back it reconnects and maps the slabs again.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 600

step "two donors, 2 copies per slab, swap on"
uevent_watch
swap_setup 2
[ "$(slab_stat mapped)" = $((2 * SLABS)) ] || fail "not every copy mapped"
pass "swapping on $disk"

step "workload running; SIGKILL the donor on 10.0.0.3 once $((6000 / WL_DIV)) pages went out"
workload_start
workload_swapped $((6000 / WL_DIV))
workload_alive
reads0=$(io_stat "$disk" rdma_reads)
kill -KILL "$(donor_pid 3)"
wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.3:18515\" {print \$6}' /sys/block/$disk/spare/donor_stat)\" -ge 1 ]" ||
	{ show_stats "$disk"; fail "the loss of donor 3 was not noticed"; }
show_stats "$disk"
[ "$(slab_stat mapped)" = $SLABS ] || fail "expected $SLABS surviving copies, got $(slab_stat mapped)"
pass "donor 3 lost; $SLABS copies left on donor 2"

step "the workload finishes on the surviving copies"
workload_wait
show_stats "$disk"
reads1=$(io_stat "$disk" rdma_reads)
[ "$reads1" -gt $((reads0 + 1000 / WL_DIV)) ] || fail "few RDMA reads after the kill ($reads0 -> $reads1)"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
[ "$(io_stat "$disk" backup_reads)" = 0 ] || fail "backup reads without a backup"
grep -q "change spare0 donor_lost 10.0.0.3:18515" /tmp/uevents || { cat /tmp/uevents; fail "no donor_lost uevent"; }
pass "every page verified after the kill; $((reads1 - reads0)) reads from the survivors; uevent seen"

step "spared comes back on 10.0.0.3: reconnect with back-off, slabs mapped again"
donor_start 3 --budget 256M --slab-size 16M
wait_until 60 sh -c "[ \"\$(cut -d' ' -f5 /sys/block/$disk/spare/slab_stat)\" = $((2 * SLABS)) ]" ||
	{ show_stats "$disk"; fail "slabs not mapped again on donor 3"; }
show_stats "$disk"
[ "$(donor_field 10.0.0.3 connects)" -ge 2 ] || fail "no reconnect counted"
grep -q "change spare0 donor_up 10.0.0.3:18515" /tmp/uevents || { cat /tmp/uevents; fail "no donor_up uevent"; }
pass "donor 3 reconnected and every copy is mapped again"

step "the data is still all there (read back through swapoff)"
swapoff "/dev/$disk" || fail "swapoff after the failover"
spare_destroy swap0
rmmod spare || fail "rmmod"
check_dmesg
pass "clean teardown"
