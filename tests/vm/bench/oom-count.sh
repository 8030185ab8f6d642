# SPDX-License-Identifier: GPL-2.0
#
# Count cgroup OOM kills of a swapping workload (the measurements behind
# write_window_kb in Documentation/kmod.md). Not run by make check:
#   scripts/vm/run -k KVER -t 1600 tests/vm/bench/oom-count.sh \
#       LRU RUNS COPIES PAR MAX SIZE WINDOW_KB DELAY
# LRU: keep, or a value for /sys/kernel/mm/lru_gen/enabled; COPIES: 1 (one
# copy plus a sync brd backup), 2, or zram; PAR spare-memtest processes of
# SIZE each per run, in a cgroup of memory.max=MAX; WINDOW_KB for
# write_window_kb (empty: default); DELAY netem delay on the donors' links.
# Example (6.12, 5 ms, no window): ... keep 4 1 1 48M 192m 0 5ms
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 1500
lru=${1:-keep}; runs=${2:-4}; rep=${3:-1}; par=${4:-1}; cgmax=${5:-48M}; size=${6:-192m}; win=${7:-}; delay=${8:-}
[ "$lru" = keep ] || echo "$lru" > /sys/kernel/mm/lru_gen/enabled
echo "lru_gen: $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null)"
modprobe brd rd_nr=1 rd_size=262144
if [ "$rep" = zram ]; then modprobe zram; echo 256M > /sys/block/zram0/disksize; mkswap /dev/zram0 >/dev/null; swapon /dev/zram0; disk=zram0; cg_new work 48M
elif [ "$rep" = 1 ]; then swap_setup 1 backup=/dev/ram0 backup_mode=sync; else swap_setup 2; fi
echo "$cgmax" > /sys/fs/cgroup/work/memory.max
[ -z "$win" ] || [ "$rep" = zram ] || echo "$win" > /sys/module/spare/parameters/write_window_kb
echo "window $(cat /sys/module/spare/parameters/write_window_kb 2>/dev/null)"
if [ -n "$delay" ]; then modprobe sch_netem; for d in p2 p3; do ip netns exec switch tc qdisc add dev $d root netem delay $delay || echo tc failed; done; fi
# OOM kills are the figure this bench measures, not a failure. A run fails
# the bench when it ended with a non-zero status while memory.events counted
# no OOM kill for it: a page read back wrong (spare-memtest exits 1), or a
# death that was not the OOM killer's.
ooms=0
bad=
for i in $(seq "$runs"); do
	t0=$(cut -d' ' -f1 /proc/uptime)
	o0=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
	pids=""
	for j in $(seq "$par"); do cg_run work spare-memtest -p 1 "$size" & pids="$pids $!"; done
	rc=0; for p in $pids; do wait $p || rc=$?; done
	o1=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "RUN $i rc=$rc oom=$((o1-o0)) secs=$(echo $t0 $t1 | awk '{print $2-$1}')"
	if [ "$o1" != "$o0" ]; then
		ooms=$((ooms+1))
	elif [ "$rc" != 0 ]; then
		bad="$bad run$i(rc=$rc)"
	fi
done
[ "$rep" = zram ] || show_stats "$disk"
echo "OOMS $ooms of $runs"
swapoff /dev/$disk || bad="$bad swapoff"
[ -z "$bad" ] || fail "runs that failed without an OOM kill:$bad"
pass "$runs runs: $ooms OOM-killed, every other page verified"
