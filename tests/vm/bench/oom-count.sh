# SPDX-License-Identifier: GPL-2.0
#
# Count cgroup OOM kills of a swapping workload (the measurements behind
# write_window_kb in Documentation/kmod.md). Not run by make check:
#   scripts/vm/run -k KVER -t SECS tests/vm/bench/oom-count.sh \
#       LRU RUNS COPIES PAR MAX SIZE WINDOW_KB DELAY [VARIANTS]
# LRU: keep, or a value for /sys/kernel/mm/lru_gen/enabled; COPIES: 1 (one
# copy plus a sync brd backup), 2, or zram; PAR spare-memtest processes of
# SIZE each per run, in a cgroup of memory.max=MAX; WINDOW_KB for
# write_window_kb (empty or -: default); DELAY netem delay on the donors'
# links (empty or -: none).
# VARIANTS (optional, spare only): a comma list of throttle settings, used
# in turn run after run so that they share one boot (issue 31 §2.3):
#   wait   reclaim_wait=Y (when the module has it), all tags
#   none   reclaim_wait=N, all tags
#   tagN   reclaim_wait=N, the queue's nr_requests set to N (tags per
#          hardware queue: a submitter finding none sleeps in submit_bio)
#   nowbt  reclaim_wait=N, all tags, the block layer's writeback throttle
#          off (wbt_lat_usec=0); every other variant restores it
#   high   as none, and the cgroup's memory.high at 7/8 of MAX (ublk.inc's
#          ublk_cg; every other variant sets it back to max)
#   classic as none, on the classic LRU (lru_gen n; every other variant
#          puts back the LRU the boot started with)
#   base   another build of spare.ko, build/bin/spare-base.ko on the host
#          (/spare/bin in the guest), as it loads (its own reclaim_wait
#          default), all tags; every other variant runs /spare/spare.ko.
#          A change of module between runs takes the swap device down and
#          sets it up again the same way (donors restarted), so that two
#          builds share one boot (issue 31 §2.3, session 39)
#   zram   the control: the same job swapping to zram (256 MiB, made at
#          the start when a variant names it) instead of spare.ko, the
#          module and its device left as they are, the LRU and the
#          cgroup as none's; every other variant swaps to spare.ko's
#          device again (swapon it, then swapoff zram)
# Each run's line names its variant; OOMS lines are given per variant; a run
# the OOM killer ended prints the kernel's report and oom_watch's dump.
# HOG (10th argument): 1 keeps a busy loop beside the job in the guest for
# the whole bench (a guest starved of CPU, as beside another in the check).
# A run of 192m over 5 ms links took 210-250 s on a loaded two-core host
# (2026-11-29); the guest's watchdog allows 300 s a run plus 300 s: give
# -t more than that.
# Example (6.12, 5 ms, no window): ... keep 4 1 1 48M 192m 0 5ms
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog $(( ${2:-4} * 300 + 300 ))
lru=${1:-keep}; runs=${2:-4}; rep=${3:-1}; par=${4:-1}; cgmax=${5:-48M}; size=${6:-192m}; win=${7:-}; delay=${8:-}
variants=$(echo "${9:-}" | tr , ' '); hog=${10:-0}
# "-" for WINDOW_KB or DELAY: the default (scripts/vm/run drops empty arguments)
[ "$win" != - ] || win=
[ "$delay" != - ] || delay=
lru0=$(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo none)
[ "$lru" = keep ] || echo "$lru" > /sys/kernel/mm/lru_gen/enabled
echo "lru_gen: $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null)"
modprobe brd rd_nr=1 rd_size=262144
if [ "$rep" = zram ]; then modprobe zram; echo 256M > /sys/block/zram0/disksize; mkswap /dev/zram0 >/dev/null; swapon /dev/zram0; disk=zram0; cg_new work 48M
elif [ "$rep" = 1 ]; then swap_setup 1 backup=/dev/ram0 backup_mode=sync; else swap_setup 2; fi
# $disk: spare.ko's device (or zram0 for COPIES zram); $on: the one
# swapped on now (the zram variant moves it to zram0)
on=$disk
echo "$cgmax" > /sys/fs/cgroup/work/memory.max
[ -z "$win" ] || [ "$rep" = zram ] || echo "$win" > /sys/module/spare/parameters/write_window_kb
module=/spare/spare.ko
# module_use KO: run the next runs on spare.ko build KO (a path in the
# guest): the swap device down, spare.ko out, the donors restarted, KO in,
# the device made again as swap_setup made it, the window set again.
module_use() {
	[ "$1" != "$module" ] || return 0
	[ -f "$1" ] || fail "no $1"
	[ "$on" = "$disk" ] || fail "module_use with $on swapped on"
	swapoff "/dev/$disk" || fail "swapoff"
	spare_destroy swap0
	kill "$(donor_pid 2)" "$(donor_pid 3)"
	wait "$(donor_pid 2)" "$(donor_pid 3)" 2>/dev/null
	rmmod spare || fail "rmmod spare"
	donor_start 2 --budget 256M --slab-size 16M
	donor_start 3 --budget 256M --slab-size 16M
	spare_deps
	insmod "$1" || fail "insmod $1"
	if [ "$rep" = 1 ]; then set -- "$1" backup=/dev/ram0 backup_mode=sync; else set -- "$1"; fi
	module=$1; shift
	disk=$(spare_create swap0 size=${DEV_MB}M slab_size=16M replicas="$rep" \
		donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1 "$@")
	[ -b "/dev/$disk" ] || fail "no /dev/$disk"
	mkswap "/dev/$disk" >/dev/null || fail "mkswap"
	swapon "/dev/$disk" || fail "swapon"
	on=$disk
	[ -z "$win" ] || echo "$win" > /sys/module/spare/parameters/write_window_kb
	nrq=/sys/block/$disk/queue/nr_requests
	q=/sys/block/$disk/queue
	echo "module $module: hctx0 $(cat /sys/kernel/debug/block/$disk/hctx0/flags 2>/dev/null), window $(cat /sys/module/spare/parameters/write_window_kb) reclaim_wait $(cat $rw 2>/dev/null || echo none)"
}
echo "window $(cat /sys/module/spare/parameters/write_window_kb 2>/dev/null)"
if [ -n "$delay" ]; then modprobe sch_netem; for d in p2 p3; do ip netns exec switch tc qdisc add dev $d root netem delay $delay || echo tc failed; done; fi
rw=/sys/module/spare/parameters/reclaim_wait
nrq=/sys/block/$disk/queue/nr_requests
[ -z "$variants" ] || [ "$rep" != zram ] || fail "variants are for spare only"
case ",${9:-}," in
*,zram,*) modprobe zram || fail "modprobe zram"
	echo 256M > /sys/block/zram0/disksize || fail "zram0 disksize"
	mkswap /dev/zram0 >/dev/null || fail "mkswap zram0" ;;
esac
# swap_to DEV: make DEV (spare.ko's device or zram0) the one swapped on:
# swapon it, then swapoff the other (between runs: the cgroup is empty)
swap_to() {
	[ "$1" != "$on" ] || return 0
	swapon "/dev/$1" || fail "swapon $1"
	swapoff "/dev/$on" || fail "swapoff $on"
	on=$1
	echo "swap on $on"
}
maxrq=$(cat "$nrq")
q=/sys/block/$disk/queue
wbt=$(cat $q/wbt_lat_usec 2>/dev/null || echo none)
echo "queue: nr_requests $maxrq, scheduler $(cat $q/scheduler), wbt_lat_usec $wbt, hw queues $(ls -d /sys/block/$disk/mq/* 2>/dev/null | wc -l)"
# Apply variant $1 (see the header); fails the bench on a setting refused.
variant_set() {
	echo max >/sys/fs/cgroup/work/memory.high || fail "memory.high max"
	[ "$lru0" = none ] || [ "$(cat /sys/kernel/mm/lru_gen/enabled)" = "$lru0" ] ||
		echo y >/sys/kernel/mm/lru_gen/enabled || fail "lru_gen y"
	if [ "$1" = zram ]; then swap_to zram0; return; fi
	swap_to "$disk"
	if [ "$1" = base ]; then module_use /spare/bin/spare-base.ko; else module_use /spare/spare.ko; fi
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
	base) echo "$maxrq" > "$nrq" || fail "nr_requests=$maxrq" ;;
	high) echo "$maxrq" > "$nrq" || fail "nr_requests=$maxrq"
	      mb=${cgmax%M}
	      echo "$((mb * 1024 * 7 / 8))K" >/sys/fs/cgroup/work/memory.high || fail "memory.high" ;;
	classic) echo "$maxrq" > "$nrq" || fail "nr_requests=$maxrq"
	      [ "$lru0" != none ] || fail "no lru_gen in this kernel"
	      echo n >/sys/kernel/mm/lru_gen/enabled || fail "lru_gen n"
	      [ "$(cat /sys/kernel/mm/lru_gen/enabled)" = 0x0000 ] || fail "lru_gen still on" ;;
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
hogpid=
if [ "$hog" = 1 ]; then sh -c 'while :; do :; done' & hogpid=$!; fi
echo "lru_gen at start $lru0, hog $hog, $par x $size in memory.max $cgmax"
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
	set -- $pids
	oom_watch work "$1" "$on" &
	wpid=$!
	set -- $variants
	rc=0; for p in $pids; do wait $p || rc=$?; done
	wait $wpid
	o1=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "RUN $i variant=$v rc=$rc oom=$((o1-o0)) secs=$(echo $t0 $t1 | awk '{print $2-$1}')"
	if [ "$o1" != "$o0" ]; then
		ooms=$((ooms+1))
		[ "$v" = - ] || eval "o_$v=\$(( \${o_$v:-0} + 1 ))"
		oom_report | sed 's/^/  /'
		cat /tmp/oom-dump.work 2>/dev/null
		dmesg -c >/dev/null
	elif [ "$rc" != 0 ]; then
		bad="$bad run$i(rc=$rc)"
	fi
done
[ -z "$hogpid" ] || kill "$hogpid"
[ "$rep" = zram ] || show_stats "$disk"
for v in $variants; do
	eval "echo \"OOMS variant=$v \${o_$v:-0} of \${n_$v:-0}\""
done
echo "OOMS $ooms of $runs"
swapoff "/dev/$on" || bad="$bad swapoff-$on"
[ -z "$bad" ] || fail "runs that failed without an OOM kill:$bad"
pass "$runs runs: $ooms OOM-killed, every other page verified"
