# SPDX-License-Identifier: GPL-2.0
#
# Slow link: 5 ms of netem delay on both donors' links makes every RDMA
# operation slow, as on a loaded machine. A 96 MiB job in a 24 MiB cgroup
# must still finish with every page verified and without the cgroup's OOM
# killer: the block layer's writeback throttle (wbt) holds the reclaimer
# at the write window's depth (write_window_kb in 64 KiB requests: spare.ko
# gives wbt that depth, session 42), so no more swap-out is under
# writeback than the window puts on the wire (Documentation/kmod.md,
# "Back-pressure"); the session-41 module let wbt scale to 48 requests.
# Then a full window must refuse writes without sleeping in ->queue_rq(),
# on a queue that is not BLK_MQ_F_BLOCKING.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 600

step "one copy per slab over two donors plus a sync backup; 5 ms links"
modprobe brd rd_nr=1 rd_size=262144 || fail "modprobe brd"
modprobe sch_netem || fail "modprobe sch_netem"
swap_setup 1 backup=/dev/ram0 backup_mode=sync
for p in p2 p3; do
	ip netns exec switch tc qdisc add dev "$p" root netem delay 5ms ||
		fail "netem on $p"
done
[ "$(cat /sys/module/spare/parameters/write_window_kb)" -gt 0 ] ||
	fail "write window is off"
pass "links to the donors delayed by 5 ms"

step "workload"
# wbt's writes in flight, per class (debugfs rqos/wbt/inflight: "N:
# inflight X" for background, kswapd and discard), the peak of any class
# sampled through the workload; the bound is the window in requests
wbt=/sys/kernel/debug/block/$disk/rqos/wbt
[ -r "$wbt/inflight" ] || fail "wbt is not on $disk's queue"
depth=$(( $(cat /sys/module/spare/parameters/write_window_kb) / 64 ))
echo 0 >/tmp/wbt-peak
(
	peak=0
	while :; do
		n=$(awk '$3 > m {m = $3} END {print m + 0}' "$wbt/inflight")
		if [ "$n" -gt "$peak" ]; then peak=$n; echo "$peak" >/tmp/wbt-peak; fi
		sleep 0.05
	done
) &
sampler=$!
oom0=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
workload_start 1
wait "$WL_PID"
rc=$?
kill "$sampler"
wait "$sampler" 2>/dev/null
peak=$(cat /tmp/wbt-peak)
cat /tmp/memtest.out
oom1=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
show_stats "$disk"
[ "$oom1" = "$oom0" ] || fail "the cgroup's OOM killer ran ($oom0 -> $oom1)"
[ "$rc" = 0 ] || fail "memtest exited $rc"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
[ "$peak" -gt 0 ] || fail "wbt never counted a swap write in flight"
[ "$peak" -le "$depth" ] ||
	fail "wbt let $peak writes of one class in flight, over the write window's $depth"
pass "every page verified, no OOM kill, wbt's writes in flight at most $peak (the window: $depth), $(io_stat "$disk" write_waits) writes waited for the window"

# A window written while the device runs sets the depth wbt sizes its
# limits from, on every powered device (session 43; before, the window in
# force at power-on stayed wbt's depth). blk_set_queue_depth() makes wbt
# recompute from scale step 0, so at rest wb_normal is half the depth in
# 64 KiB requests (at most wbt's default 16): 256 KiB gives 4 requests,
# wb_normal 2; 1024 KiB gives 16, wb_normal 8. Both ways: wbt's own
# scaling after the workload could leave either value by chance, not both.
step "a window written while powered sets wbt's depth"
swapoff "/dev/$disk" || fail "swapoff"
echo 256 > /sys/module/spare/parameters/write_window_kb
wn256=$(cat "$wbt/wb_normal")
echo 1024 > /sys/module/spare/parameters/write_window_kb
wn1024=$(cat "$wbt/wb_normal")
[ "$wn256" = 2 ] && [ "$wn1024" = 8 ] ||
	fail "wbt's wb_normal after writing 256 then 1024 KiB: $wn256 then $wn1024 (want 2 then 8)"
pass "wb_normal $wn256 at 256 KiB, $wn1024 at 1024 KiB"

# Issue 31 (2.3): a write the window holds back is refused in ->queue_rq()
# (BLK_STS_RESOURCE) and run again when the window drains; no task sleeps
# in ->queue_rq() for it. A window of one page and 1 MiB direct writes over
# the 5 ms links keep it full. Every 20 ms or so, any task asleep (S or D) with
# spare_queue_rq on its stack is a failure (before session 35 the writes
# dispatched from kblockd slept there for the window). And the tag set is
# not BLK_MQ_F_BLOCKING (session 39): blk-mq runs ->queue_rq() under plain
# RCU, where a sleep is a bug, not under SRCU. blk-mq's debugfs names the
# flag of every hardware queue ("BLOCKING" in hctxN/flags).
step "a full write window refuses writes; nothing sleeps in queue_rq"
hflags=$(cat /sys/kernel/debug/block/"$disk"/hctx*/flags 2>/dev/null) ||
	fail "no blk-mq debugfs flags for $disk"
echo "$hflags"
[ -n "$hflags" ] || fail "no hardware queue flags for $disk"
case $hflags in *BLOCKING*) fail "$disk's hardware queues are BLK_MQ_F_BLOCKING" ;; esac
echo 4 > /sys/module/spare/parameters/write_window_kb
dd if=/dev/urandom of=/tmp/qrq.data bs=1M count=16 status=none
ww0=$(io_stat "$disk" write_waits)
dd if=/tmp/qrq.data of="/dev/$disk" bs=1M seek=8 oflag=direct status=none &
ddpid=$!
seen=
samples=0
while kill -0 "$ddpid" 2>/dev/null; do
	for st in $(grep -l spare_queue_rq /proc/[0-9]*/stack 2>/dev/null); do
		d=${st%/stack}
		case $(cut -d' ' -f3 "$d/stat" 2>/dev/null) in S|D) ;; *) continue ;; esac
		seen="$seen $(cat "$d/comm" 2>/dev/null)[${d#/proc/}]"
		cat "$st"
	done
	samples=$((samples + 1))
	sleep 0.02
done
wait "$ddpid" || fail "dd to /dev/$disk failed"
ww1=$(io_stat "$disk" write_waits)
dd if="/dev/$disk" of=/tmp/qrq.back bs=1M skip=8 count=16 iflag=direct status=none &&
	cmp /tmp/qrq.data /tmp/qrq.back ||
	fail "the 16 MiB read back differ"
echo 1024 > /sys/module/spare/parameters/write_window_kb
rm -f /tmp/qrq.data /tmp/qrq.back
[ -z "$seen" ] || fail "tasks slept in spare_queue_rq:$seen"
[ "$ww1" -gt "$ww0" ] || fail "the window never refused a write ($ww0 -> $ww1)"
swapon "/dev/$disk" || fail "swapon again"
pass "$((ww1 - ww0)) writes refused and run again, read back intact, no task asleep in queue_rq in $samples looks, queue not BLOCKING"

swap_teardown
