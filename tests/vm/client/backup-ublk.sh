# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
#
# spare-ublk with a backup device (brd): one copy of every slab, striped
# over two donors. The donor on 10.0.0.3 is SIGKILLed under swap load: its
# slabs have no current copy left, so the pages it held are read from the
# backup; every page verifies and no request fails. Once with
# --backup-mode sync, once with async on two queues (a write completes on its RDMA; the
# backup write goes on from the tag's buffer; reads of those pages wait
# for it), the async backup behind dm-delay (writes 250 ms late), so that
# it falls behind: writes wait for the 16 spare buffers the two queues
# share, and must be seen to (backup_waits), and to be woken by the other
# queue (backup_kicks). Then bad --backup input, and the live counters file sparectl
# reads (/run/spare/ublk/NAME). Then the refill: donor 3 killed and
# started again under load, its re-mapped copies refilled from the backup
# (the only source: one copy per slab), the backup zeroed, and every page
# the job reads afterwards verified and read by RDMA, none from the
# backup. (On 6.1 there is no ublk: client/swap-ublk covers the refusal.)
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
watchdog 300

ublk_require
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
	sleep 1.5
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
sleep 1.5	# the counters file is rewritten once a second
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
sleep 1.5	# the counters file is rewritten once a second
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
