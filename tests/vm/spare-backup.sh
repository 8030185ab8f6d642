# SPDX-License-Identifier: GPL-2.0
#
# Backup device: one copy of every slab, striped over two donors, plus a
# backup block device (brd, any path works) in the mode given as $1 (sync,
# the default, or async). The donor on 10.0.0.3 is killed mid-run: the pages
# it held come back from the backup, nothing is lost, no read is stale.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 600
mode=${1:-sync}

step "backup /dev/ram0 ($mode), 1 copy per slab over two donors"
modprobe brd rd_nr=1 rd_size=262144 || fail "modprobe brd"
uevent_watch
swap_setup 1 backup=/dev/ram0 backup_mode="$mode"
[ "$(cat "$CFS/swap0/backup_mode")" = "$mode" ] || fail "backup_mode reads back wrong"
[ "$(slab_stat mapped)" = $SLABS ] || fail "not every copy mapped"
pass "swapping on $disk with a $mode backup"

step "workload running; SIGKILL the donor on 10.0.0.3 once $((6000 / WL_DIV)) pages went out"
workload_start
workload_swapped $((6000 / WL_DIV))
workload_alive
kill -KILL "$(donor_pid 3)"
wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.3:18515\" {print \$6}' /sys/block/$disk/spare/donor_stat)\" -ge 1 ]" ||
	{ show_stats "$disk"; fail "the loss of donor 3 was not noticed"; }
show_stats "$disk"
pass "donor 3 lost: its slabs have no remote copy left"

step "the workload finishes from donor 2 and the backup"
workload_wait
show_stats "$disk"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
[ "$(io_stat "$disk" backup_reads)" -gt $((100 / WL_DIV)) ] || fail "only $(io_stat "$disk" backup_reads) backup reads"
[ "$(io_stat "$disk" rdma_reads)" -gt $((100 / WL_DIV)) ] || fail "no RDMA reads"
[ "$(io_stat "$disk" backup_writes)" -gt $((1000 / WL_DIV)) ] || fail "few backup writes"
pass "every page verified: $(io_stat "$disk" backup_reads) reads from the backup, $(io_stat "$disk" rdma_reads) by RDMA"

swap_teardown
