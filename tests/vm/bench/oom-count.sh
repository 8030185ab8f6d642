# SPDX-License-Identifier: GPL-2.0
#
# Count cgroup OOM kills of a swapping workload (the measurements behind
# write_window_kb in Documentation/kmod.md). Not run by make check:
#   scripts/vm/run -k KVER -t SECS tests/vm/bench/oom-count.sh \
#       LRU RUNS COPIES PAR MAX SIZE WINDOW_KB DELAY [VARIANTS]
# LRU: keep, or a value for /sys/kernel/mm/lru_gen/enabled; COPIES: 1 (one
# copy plus a sync brd backup), 2, or zram; PAR spare-memtest processes of
# SIZE each per run, in a cgroup of memory.max=MAX; WINDOW_KB for
# write_window_kb (empty: default); DELAY netem delay on the donors' links.
# VARIANTS (optional, spare only): a comma list of throttle settings, used
# in turn run after run so that they share one boot (issue 31 §2.3):
#   wait   reclaim_wait=Y (when the module has it), all tags
#   none   reclaim_wait=N, all tags
#   tagN   reclaim_wait=N, the queue's nr_requests set to N (tags per
#          hardware queue: a submitter finding none sleeps in submit_bio)
#   nowbt  reclaim_wait=N, all tags, the block layer's writeback throttle
#          off (wbt_lat_usec=0); every other variant restores it
# Each run's line names its variant; OOMS lines are given per variant.
# A run of 192m over 5 ms links took 210-250 s on a loaded two-core host
# (2026-11-29); the guest's watchdog allows 300 s a run plus 300 s: give
# -t more than that.
# Example (6.12, 5 ms, no window): ... keep 4 1 1 48M 192m 0 5ms
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog $(( ${2:-4} * 300 + 300 ))
lru=${1:-keep}; runs=${2:-4}; rep=${3:-1}; par=${4:-1}; cgmax=${5:-48M}; size=${6:-192m}; win=${7:-}; delay=${8:-}
variants=$(echo "${9:-}" | tr , ' ')
[ "$lru" = keep ] || echo "$lru" > /sys/kernel/mm/lru_gen/enabled
echo "lru_gen: $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null)"
modprobe brd rd_nr=1 rd_size=262144
if [ "$rep" = zram ]; then modprobe zram; echo 256M > /sys/block/zram0/disksize; mkswap /dev/zram0 >/dev/null; swapon /dev/zram0; disk=zram0; cg_new work 48M
elif [ "$rep" = 1 ]; then swap_setup 1 backup=/dev/ram0 backup_mode=sync; else swap_setup 2; fi
echo "$cgmax" > /sys/fs/cgroup/work/memory.max
[ -z "$win" ] || [ "$rep" = zram ] || echo "$win" > /sys/module/spare/parameters/write_window_kb
echo "window $(cat /sys/module/spare/parameters/write_window_kb 2>/dev/null)"
if [ -n "$delay" ]; then modprobe sch_netem; for d in p2 p3; do ip netns exec switch tc qdisc add dev $d root netem delay $delay || echo tc failed; done; fi
rw=/sys/module/spare/parameters/reclaim_wait
nrq=/sys/block/$disk/queue/nr_requests
[ -z "$variants" ] || [ "$rep" != zram ] || fail "variants are for spare only"
maxrq=$(cat "$nrq")
q=/sys/block/$disk/queue
wbt=$(cat $q/wbt_lat_usec 2>/dev/null || echo none)
echo "queue: nr_requests $maxrq, scheduler $(cat $q/scheduler), wbt_lat_usec $wbt, hw queues $(ls -d /sys/block/$disk/mq/* 2>/dev/null | wc -l)"
# Apply variant $1 (see the header); fails the bench on a setting refused.
variant_set() {
	[ "$wbt" = none ] || [ "$1" = nowbt ] || echo "$wbt" > $q/wbt_lat_usec ||
		fail "wbt_lat_usec=$wbt"
	case $1 in
	wait) [ ! -f $rw ] || echo Y > $rw || fail "reclaim_wait=Y"
	      echo "$maxrq" > "$nrq" || fail "nr_requests=$maxrq" ;;
	none) [ ! -f $rw ] || echo N > $rw || fail "reclaim_wait=N"
	      echo "$maxrq" > "$nrq" || fail "nr_requests=$maxrq" ;;
	tag[0-9]*)
	      [ ! -f $rw ] || echo N > $rw || fail "reclaim_wait=N"
	      echo "${1#tag}" > "$nrq" || fail "nr_requests=${1#tag}"
	      [ "$(cat "$nrq")" = "${1#tag}" ] || fail "nr_requests is $(cat "$nrq"), not ${1#tag}" ;;
	nowbt) [ ! -f $rw ] || echo N > $rw || fail "reclaim_wait=N"
	      echo "$maxrq" > "$nrq" || fail "nr_requests=$maxrq"
	      [ "$wbt" != none ] || fail "no wbt on this queue"
	      echo 0 > $q/wbt_lat_usec || fail "wbt_lat_usec=0" ;;
	*) fail "unknown variant $1" ;;
	esac
}
# OOM kills are the figure this bench measures, not a failure. A run fails
# the bench when it ended with a non-zero status while memory.events counted
# no OOM kill for it: a page read back wrong (spare-memtest exits 1), or a
# death that was not the OOM killer's.
ooms=0
bad=
set -- $variants
nv=$#
for i in $(seq "$runs"); do
	v=-
	if [ "$nv" -gt 0 ]; then
		shift $(( (i - 1) % nv ))
		v=$1
		set -- $variants
		variant_set "$v"
		eval "n_$v=\$(( \${n_$v:-0} + 1 ))"
	fi
	t0=$(cut -d' ' -f1 /proc/uptime)
	o0=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
	pids=""
	for j in $(seq "$par"); do cg_run work spare-memtest -p 1 "$size" & pids="$pids $!"; done
	rc=0; for p in $pids; do wait $p || rc=$?; done
	o1=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "RUN $i variant=$v rc=$rc oom=$((o1-o0)) secs=$(echo $t0 $t1 | awk '{print $2-$1}')"
	if [ "$o1" != "$o0" ]; then
		ooms=$((ooms+1))
		[ "$v" = - ] || eval "o_$v=\$(( \${o_$v:-0} + 1 ))"
	elif [ "$rc" != 0 ]; then
		bad="$bad run$i(rc=$rc)"
	fi
done
[ "$rep" = zram ] || show_stats "$disk"
for v in $variants; do
	eval "echo \"OOMS variant=$v \${o_$v:-0} of \${n_$v:-0}\""
done
echo "OOMS $ooms of $runs"
swapoff /dev/$disk || bad="$bad swapoff"
[ -z "$bad" ] || fail "runs that failed without an OOM kill:$bad"
pass "$runs runs: $ooms OOM-killed, every other page verified"
