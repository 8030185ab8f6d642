# SPDX-License-Identifier: GPL-2.0
#
# Backup device: one copy of every slab, striped over two donors, plus a
# backup block device (brd, any path works) in the mode given as $1 (sync,
# the default, or async). The donor on 10.0.0.3 is killed mid-run: the pages
# it held come back from the backup, nothing is lost, no read is stale.
# Then a backup write that fails (the backup, a device-mapper device over a
# loop device, switched to the error target) must leave those pages stale
# on the backup: once the only remote copy is lost, reading them is an I/O
# error, never the older data the backup still holds; a later write that
# lands there makes them readable again.
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

step "a failed $mode backup write: those pages are never read back stale"
spare_load
# dm over a loop device: loop is blk-mq, as real disks are. The O_DIRECT
# reads and writes below are dispatched by their task's plug flush
# (blk_finish_plug()), so the backup bio that ->queue_rq() makes there
# reaches a blk-mq queue while that very plug is being flushed: it must
# not be put on that plug (NULL dereference in blk_add_rq_to_plug() until
# backup_issue() punted it to the device's workqueue).
modprobe loop || fail "modprobe loop"
modprobe dm_mod 2>/dev/null
truncate -s 32M /tmp/bk-disk || fail "no backing file for the loop device"
bk_loop=$(losetup -f) || fail "no free loop device"
losetup "$bk_loop" /tmp/bk-disk || fail "losetup $bk_loop"
BK_LINEAR="0 65536 linear $bk_loop 0"
dmsetup create spbk --noudevsync --table "$BK_LINEAR" || fail "dmsetup create"
dmsetup mknodes spbk 2>/dev/null
[ -b /dev/mapper/spbk ] || fail "no /dev/mapper/spbk"
# bk_table TABLE: switch the backup's device-mapper table
bk_table() {
	dmsetup suspend --noudevsync spbk && dmsetup load spbk --table "$1" &&
		dmsetup resume --noudevsync spbk || fail "dmsetup: cannot load \"$1\""
}
disk=$(spare_create d1 size=32M slab_size=16M replicas=1 backup=/dev/mapper/spbk \
	backup_mode="$mode" donors=10.0.0.2:18515 source=10.0.0.1)
[ -b "/dev/$disk" ] || fail "no device d1: $disk"
for f in a b c; do
	dd if=/dev/urandom of=/tmp/bk-$f bs=1M count=4 2>/dev/null
done
spare-dio write "/dev/$disk" /tmp/bk-a 0 $((4 << 20)) 0 || fail "write A"
bk_table "0 65536 error"
rc=0; spare-dio write "/dev/$disk" /tmp/bk-b 0 $((4 << 20)) 0 || rc=$?
echo "write B with the backup failing: rc $rc"
# an async backup write ends after the request: wait for its failure
wait_until 30 sh -c "dmesg | grep -q 'spbk: .*backup write.* failed'" ||
	fail "no failed backup write logged"
bk_table "$BK_LINEAR"
kill -KILL "$(donor_pid 2)"
wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.2:18515\" {print \$6}' /sys/block/$disk/spare/donor_stat)\" -ge 1 ]" ||
	{ show_stats "$disk"; fail "the loss of donor 2 was not noticed"; }
rc=0; spare-dio read "/dev/$disk" /tmp/bk-back 0 $((4 << 20)) 0 || rc=$?
if [ $rc = 0 ]; then
	cmp -s /tmp/bk-back /tmp/bk-a && fail "the backup's older data (A) was returned after its write of B failed"
	cmp -s /tmp/bk-back /tmp/bk-b || fail "the read returned neither B nor an error"
fi
dmesg | grep -q "spbk: backup of pages .* is stale after a failed write" ||
	fail "no refusal to read the stale backup pages logged"
spare-dio write "/dev/$disk" /tmp/bk-c 0 $((4 << 20)) 0 || fail "write C to the backup"
# every read of C comes from the backup, its last requests dispatched by
# the plug flush; without the fix one read did not oops on every boot
# (6.1), so read a few times
for i in 1 2 3 4 5 6 7 8; do
	spare-dio read "/dev/$disk" /tmp/bk-back 0 $((4 << 20)) 0 || fail "read C back (read $i)"
	cmp -s /tmp/bk-back /tmp/bk-c || fail "C does not read back (read $i)"
done
show_stats "$disk"
spare_destroy d1
dmsetup remove --noudevsync spbk
losetup -d "$bk_loop"
rm -f /tmp/bk-*
rmmod spare || fail "rmmod"
check_dmesg
pass "the failed backup write left its pages stale: EIO, not older data; a new write cleared them"
