# SPDX-License-Identifier: GPL-2.0
# vm-backends: kmod ublk
#
# A backup block device beside one copy of every slab, striped over two
# donors: the donor on 10.0.0.3 is SIGKILLed under swap load, the pages it
# held come back from the backup, every page verifies and no request fails.
# One scenario, run once per backend (spare.ko on every kernel, the pager
# on the newest):
#  - spare.ko: the backup (brd) in the mode given as $1 (sync, the
#    default, or async: client/backup-async runs this file so). Then a
#    backup write that fails (the backup, a device-mapper device over a
#    loop device, switched to the error target) must leave those pages
#    stale on the backup: once the only remote copy is lost, reading them
#    is an I/O error, never the older data the backup still holds; a later
#    write that lands there makes them readable again.
#  - spare-ublk: once with --backup-mode sync, once with async on two
#    queues (a write completes on its RDMA; the backup write goes on from
#    the tag's buffer; reads of those pages wait for it), the async backup
#    behind dm-delay (writes 250 ms late), so that it falls behind: writes
#    wait for the 16 spare buffers the two queues share, and must be seen
#    to (backup_waits), and to be woken by the other queue (backup_kicks).
#    Then the refill: donor 3 killed and started again under load, its
#    re-mapped copies refilled from the backup (the only source: one copy
#    per slab), the backup zeroed, and every page the job reads afterwards
#    verified and read by RDMA, none from the backup. Then bad --backup
#    input, and sparectl's create, list, show, metrics and destroy of a
#    pager device with a backup (the live counters file it reads,
#    /run/spare/ublk/NAME).
# (Was client/backup and client/backup-ublk: tests/vm/renames.)
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 600
mode=${1:-sync}

# The two backends' backups are set up and counted differently (configfs
# and live io_stat; options and the counters the pager prints at exit),
# and each run covers what its driver alone has: spare.ko's stale pages
# after a failed backup write, the pager's async buffers, refill and
# sparectl's handling of a pager device.
if [ "$BACKEND" = kmod ]; then
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
	exit 0
fi

# spare-ublk: both modes in one boot (the pager on 6.12 only)
client_require
modprobe brd rd_nr=2 rd_size=131072 || fail "modprobe brd"
rxe_up 3
WL_SIZE_MB=64 WL_CG_MB=32

# run MODE RAMDISK: one device, donor 3 killed under load, checks.
run() {
	local mode=$1 bk=$2 nq=1
	# two queues share the async backup's spare buffers and per-page fence
	[ "$mode" = async ] && nq=2
	step "$mode backup $bk, $nq queue(s), 1 copy per slab over two donors; donor 3 SIGKILLed under load"
	rm -f /run/spare/spared-2.sock /run/spare/spared-3.sock	# a killed donor's
	donor_start 2 --budget 128M --slab-size 16M
	donor_start 3 --budget 128M --slab-size 16M
	ublk_up --size 128M --slab-size 16M --copies 1 --io-timeout 2000 \
		--backup "$bk" --backup-mode "$mode" --name "bk-$mode" --queues $nq \
		--donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT
	grep -q "^backup_mode $mode\$" "/run/spare/ublk/bk-$mode" ||
		{ cat "/run/spare/ublk/bk-$mode"; fail "the counters file does not say $mode"; }
	mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon /dev/$disk"
	WL_CG="work-$mode"
	ublk_cg "$WL_CG" ${WL_CG_MB}M
	workload_start 2
	workload_swapped 6000
	kill -KILL "$(donor_pid 3)"
	echo "donor 3 killed at pswpout +$(( $(vmstat_get pswpout) - WL_OUT0 ))"
	workload_wait
	# the live counters, as sparectl reads them (rewritten once a second)
	counters_fresh "/run/spare/ublk/bk-$mode"
	cat "/run/spare/ublk/bk-$mode"
	grep -q '^donor_stat 2 1 10.0.0.3:18515 error ' "/run/spare/ublk/bk-$mode" ||
		fail "the counters file does not show donor 3 lost"
	swapoff "/dev/$disk" || fail "swapoff"
	ublk_down
	[ ! -e "/run/spare/ublk/bk-$mode" ] || fail "the counters file outlived the pager"
	grep -i 'backup\|failed' /tmp/ublk.log | head -5
	[ "$(ublk_stat io_errors)" = 0 ] || fail "$(ublk_stat io_errors) I/O errors"
	[ "$(ublk_stat backup_errors)" = 0 ] || fail "$(ublk_stat backup_errors) backup errors"
	[ "$(ublk_stat backup_reads)" -gt 100 ] || fail "only $(ublk_stat backup_reads) reads from the backup"
	[ "$(ublk_stat backup_writes)" = "$(ublk_stat writes)" ] ||
		fail "$(ublk_stat backup_writes) backup writes for $(ublk_stat writes) writes"
	[ "$(ublk_stat rdma_reads)" -gt 100 ] || fail "no RDMA reads"
	kill -TERM "$(donor_pid 2)"; wait "$(donor_pid 2)" || { cat /tmp/spared-2.log; fail "spared 2 exit"; }
	wait "$(donor_pid 3)" 2>/dev/null
	pass "$mode: every page verified; $(ublk_stat backup_reads) reads from the backup, $(ublk_stat rdma_reads) by RDMA, 0 I/O errors"
}

run sync /dev/ram0
modprobe dm-delay 2>/dev/null
dmsetup create slow --noudevsync --table "0 262144 delay /dev/ram1 0 0 /dev/ram1 0 250" ||
	fail "dm-delay over /dev/ram1"
dmsetup mknodes slow 2>/dev/null
[ -b /dev/mapper/slow ] || fail "no /dev/mapper/slow"
run async /dev/mapper/slow
# behind by 16 writes at times: writes waited; a wait one queue ended for
# the other (a buffer handed over, a fence lifted) kicked that queue
[ "$(ublk_stat backup_waits)" -gt 0 ] || fail "the slow async backup never made a write wait"
[ "$(ublk_stat backup_kicks)" -gt 0 ] || fail "no wait was ended across the queues (backup_kicks 0)"
echo "async: backup_waits $(ublk_stat backup_waits), backup_kicks $(ublk_stat backup_kicks)"
dmsetup remove slow || fail "dmsetup remove slow"

# io_stat FIELD from the live counters file of pager NAME (spare.ko's
# io_stat line: rdma_reads 2, backup_reads 4, resync_pages 13).
ublk_io_stat() {
	awk -v f="$2" '$1 == "io_stat" {print $(f + 1)}' "/run/spare/ublk/$1"
}

step "refill from the backup: 1 copy, sync backup, 2 queues; donor 3 killed and started again under load"
# 4 MiB slabs, so that donor 3 holds pages early in the job (slab 1), and
# half the job of the runs above: this step's time is the job's.
rm -f /run/spare/spared-2.sock /run/spare/spared-3.sock
donor_start 2 --budget 128M --slab-size 4M
donor_start 3 --budget 128M --slab-size 4M
ublk_up --size 128M --slab-size 4M --copies 1 --io-timeout 2000 \
	--backup /dev/ram0 --backup-mode sync --name bk-refill --queues 2 \
	--donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon /dev/$disk"
WL_CG=work-refill WL_SIZE_MB=32 WL_CG_MB=16
ublk_cg "$WL_CG" ${WL_CG_MB}M
workload_start 2
workload_swapped 2000	# 8 MiB: past slab 0 (donor 2), donor 3 holds pages
kill -KILL "$(donor_pid 3)"
wait "$(donor_pid 3)" 2>/dev/null
wait_for 100 grep -q 'donor 10.0.0.3 lost: [1-9]' /tmp/ublk.log ||
	{ tail -20 /tmp/ublk.log; fail "the loss of donor 3 was not noticed"; }
rm -f /run/spare/spared-3.sock
donor_start 3 --budget 128M --slab-size 4M
echo "donor 3 killed and started again at pswpout +$(( $(vmstat_get pswpout) - WL_OUT0 ))"
wait_for 300 grep -q 'resync: all 32 copies mapped and current' /tmp/ublk.log ||
	{ tail -20 /tmp/ublk.log; fail "donor 3's copies were not refilled from the backup"; }
workload_alive		# the job reads the refilled pages from here on
grep -E 'donor 10.0.0.3|resync' /tmp/ublk.log
grep -q 'resync: all 32 copies mapped and current ([1-9][0-9]* pages copied, [1-9][0-9]* from the backup)' \
	/tmp/ublk.log || fail "the refill did not come from the backup"
counters_fresh /run/spare/ublk/bk-refill
rs=$(ublk_io_stat bk-refill 13) b0=$(ublk_io_stat bk-refill 4) r0=$(ublk_io_stat bk-refill 2)
[ "$rs" -gt 0 ] || fail "resync_pages $rs in the counters file"
# From here no read may go to the backup: zeroed, it would fail the job.
dd if=/dev/zero of=/dev/ram0 bs=1M count=128 oflag=direct 2>/dev/null || fail "zeroing the backup"
echo "resync_pages $rs; backup_reads $b0, rdma_reads $r0 when the backup was zeroed"
workload_wait
swapoff "/dev/$disk" || fail "swapoff"
ublk_down
[ "$(ublk_stat io_errors)" = 0 ] || fail "$(ublk_stat io_errors) I/O errors"
[ "$(ublk_stat backup_errors)" = 0 ] || fail "$(ublk_stat backup_errors) backup errors"
[ "$(ublk_stat backup_reads)" = "$b0" ] ||
	fail "$(( $(ublk_stat backup_reads) - b0 )) reads from the backup after the refill"
[ "$(ublk_stat rdma_reads)" -gt $(( r0 + 500 )) ] ||
	fail "only $(( $(ublk_stat rdma_reads) - r0 )) RDMA reads after the refill"
[ "$(ublk_stat resync_pages)" -ge "$rs" ] || fail "resync_pages went down"
for n in 2 3; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat /tmp/spared-$n.log; fail "spared $n exit"; }
done
pass "$(ublk_stat resync_pages) pages refilled from the backup; then $(( $(ublk_stat rdma_reads) - r0 )) RDMA reads, 0 from the zeroed backup, every page verified"

step "bad --backup input: a clear refusal, no device"
donor_start 2 --budget 128M --slab-size 16M
truncate -s 64M /tmp/small.img
for bad in /nonexistent /tmp/small.img /dev/null; do
	rc=0
	spare-ublk --size 128M --slab-size 16M --donor 10.0.0.2:$DONOR_PORT \
		--source 10.0.0.1 --backup "$bad" >/tmp/bad.out 2>/tmp/bad.log || rc=$?
	cat /tmp/bad.log
	[ "$rc" -ne 0 ] || fail "--backup $bad accepted"
	grep -q "backup $bad" /tmp/bad.log || fail "--backup $bad: the message does not name it"
	ls /dev/ublkb* 2>/dev/null && fail "a device was left behind"
done
rc=0
spare-ublk --size 128M --donor 10.0.0.2 --backup /dev/ram0 --backup-mode later \
	>/dev/null 2>/tmp/bad.log || rc=$?
[ "$rc" = 2 ] && grep -q 'sync or async' /tmp/bad.log || { cat /tmp/bad.log; fail "--backup-mode later: exit $rc"; }
pass "a missing, short or unusable backup and a bad mode are refused with a reason"

step "sparectl device create --backend=ublk, list, show, metrics, destroy"
rc=0
sparectl device create bad --backend=ublk size=64M donors=10.0.0.2 placement=0 2>/tmp/bad.log || rc=$?
cat /tmp/bad.log
[ "$rc" = 2 ] && grep -q 'placement' /tmp/bad.log || fail "placement= with --backend=ublk: exit $rc"
[ ! -e /etc/spare/ublk-bad.conf ] || fail "a refused create left its config"
rc=0
sparectl device create nod --backend=ublk size=64M slab_size=16M donors=10.0.0.2:1 \
	source=10.0.0.1 2>/tmp/bad.log || rc=$?
cat /tmp/bad.log
[ "$rc" = 1 ] && grep -q 'spare-ublk exited' /tmp/bad.log || fail "a donor nobody serves: exit $rc"
[ ! -e /etc/spare/ublk-nod.conf ] || fail "a failed create left its config"
disk=$(sparectl device create sw0 --backend=ublk size=64M slab_size=16M replicas=1 \
	donors=10.0.0.2:$DONOR_PORT source=10.0.0.1 backup=/dev/ram1 backup_mode=async) ||
	{ cat /run/spare/ublk/sw0.log; fail "sparectl device create --backend=ublk"; }
echo "created $disk"
cat /etc/spare/ublk-sw0.conf
grep -qx 'donor = 10.0.0.2:18515' /etc/spare/ublk-sw0.conf &&
	grep -qx 'backup-mode = async' /etc/spare/ublk-sw0.conf || fail "the config file is not what was asked"
test -b "/dev/$disk" || fail "no /dev/$disk"
dd if=/dev/urandom of=/tmp/data bs=1M count=4 status=none
dd if=/tmp/data of="/dev/$disk" bs=1M oflag=direct status=none || fail "write to /dev/$disk"
dd if="/dev/$disk" bs=1M count=4 iflag=direct status=none | cmp - /tmp/data || fail "read back differs"
counters_fresh /run/spare/ublk/sw0
sparectl device list | tee /tmp/list.out
grep -Eq "^sw0 +$disk +on " /tmp/list.out || fail "device list does not show sw0 on $disk"
sparectl device show sw0 | tee /tmp/show.out
grep -q '^backend: *ublk' /tmp/show.out && grep -Eq '^  backup_writes +[1-9]' /tmp/show.out &&
	grep -Eq '^  bytes_written +([4-9][0-9]{6}|[0-9]{8,})' /tmp/show.out ||
	fail "device show lacks the backend or the counters"
sparectl -j device show sw0 | grep -Eq '"backend": *"ublk"' || fail "no backend in JSON"
sparectl metrics | grep -E '^spare_device_backup_writes_total\{device="sw0"' || fail "no metrics for sw0"
swapon_ok=0
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" && swapon_ok=1
[ "$swapon_ok" = 1 ] || fail "swapon /dev/$disk"
rc=0
sparectl device destroy sw0 2>/tmp/bad.log || rc=$?
cat /tmp/bad.log
[ "$rc" = 1 ] && grep -q 'in use' /tmp/bad.log || fail "destroy of a swapped-on device: exit $rc"
swapoff "/dev/$disk" || fail "swapoff"
pid=$(awk '$1 == "pid" {print $2}' /run/spare/ublk/sw0)
sparectl device destroy sw0 || fail "sparectl device destroy sw0"
[ ! -e "/dev/$disk" ] || fail "/dev/$disk still there"
[ ! -e /run/spare/ublk/sw0 ] && [ ! -e /etc/spare/ublk-sw0.conf ] || fail "destroy left files"
[ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" && fail "spare-ublk $pid still running"
grep 'spare-ublk: reads' /run/spare/ublk/sw0.log || fail "the pager did not stop cleanly"
sparectl device list | grep -q '^sw0 ' && fail "sw0 still listed"
pass "create (config, detached pager), list, show, JSON, metrics, refusals, destroy"

kill -TERM "$(donor_pid 2)"; wait "$(donor_pid 2)" || { cat /tmp/spared-2.log; fail "spared 2 exit"; }
check_dmesg
