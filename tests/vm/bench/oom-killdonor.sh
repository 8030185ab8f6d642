# SPDX-License-Identifier: GPL-2.0
#
# Cgroup OOM kills of the fault scenarios' workload, two builds of spare.ko
# alternated run after run in one boot (issue 31 §2.3, session 41). Not run
# by make check:
#   scripts/vm/run -k KVER -t SECS tests/vm/bench/oom-killdonor.sh \
#       MODE RUNS [MODULES] [STOP]
# MODE:
#   killdonor  client/killdonor@kmod's first phase: two copies of every slab
#              on donors 2 and 3, no backup; once the job has swapped 6000
#              pages out, spared 3 is SIGKILLed; the job finishes on donor
#              2's copies
#   onecopy    donor/restart-live@kmod's one-copy phase without its
#              restarts: one copy over donors 2 and 3, no backup, no donor
#              event (the base module cannot hold over a restart)
# Both: spare-memtest, 2 passes of $WL_SIZE_MB MiB in a memory.max of
# $WL_CG_MB MiB (spare.inc's, as the scenarios), a ${DEV_MB} MiB device of
# 16 MiB slabs, the default write window; everything (donors, module,
# device, cgroup) set up afresh for each run.
# MODULES: a comma list used in turn, run after run: "new" is /spare/spare.ko,
# "base" build/bin/spare-base.ko on the host (/spare/bin in the guest;
# Documentation/perf/qrq-nonblocking/README.md says how it is built).
# Default: base,new.
# STOP (killdonor only; default: none): the job is stopped (cgroup.kill,
# by this script; counted as "stopped", not as a failure) STOP seconds after
# the module noticed the loss, so that more runs fit in one boot's 12
# minutes of VM lock; the OOM kills counted are then those of the job's
# first pass up to the kill and STOP seconds after it.
# Each run prints a RUN line; a run the OOM killer ended also prints the
# kernel's OOM report and the samples (every 0.2 s: in-flight requests,
# requests on hctx0's dispatch list, nr_writeback, the window's refusals)
# of its last 3 s. A run that ends non-zero with no OOM kill fails the
# bench (a page read back wrong).
# Raw results and the commands: Documentation/perf/oom-killdonor/.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
mode=${1:-killdonor}; runs=${2:-4}; modules=$(echo "${3:-base,new}" | tr , ' '); stop=${4:-}
watchdog $(( runs * 150 + 60 ))
case $mode in
killdonor) copies=2 ;;
onecopy) copies=1 ;;
*) fail "unknown mode $mode" ;;
esac
rxe_up 3
modprobe configfs 2>/dev/null
grep -q ' /sys/kernel/config ' /proc/mounts || mount -t configfs configfs /sys/kernel/config
echo "+memory" >/sys/fs/cgroup/cgroup.subtree_control

# run_setup KO: fresh donors 2 and 3, spare.ko build KO loaded, the device
# made and swapped on, a fresh cgroup. Sets $disk.
run_setup() {
	donor_start 2 --budget 256M --slab-size 16M
	donor_start 3 --budget 256M --slab-size 16M
	spare_deps
	insmod "$1" || fail "insmod $1"
	# spare_create's steps, with power-on tried three times: on a loaded
	# host mapping 16 slabs can take longer than power-on's 15 s
	mkdir "$CFS/swap0" || fail "mkdir $CFS/swap0"
	for kv in size=${DEV_MB}M slab_size=16M replicas=$copies \
		donors=10.0.0.2:$DONOR_PORT,10.0.0.3:$DONOR_PORT source=10.0.0.1; do
		echo "${kv#*=}" >"$CFS/swap0/${kv%%=*}" || fail "swap0: $kv refused"
	done
	for k in 1 2 3; do
		echo 1 >"$CFS/swap0/power" 2>/dev/null && break
		echo "power-on $k refused (slabs not mapped in time): again"
	done
	disk=$(cat "$CFS/swap0/disk")
	[ -b "/dev/$disk" ] || fail "no /dev/$disk"
	mkswap "/dev/$disk" >/dev/null || fail "mkswap"
	swapon "/dev/$disk" || fail "swapon"
	rmdir /sys/fs/cgroup/work 2>/dev/null
	cg_new work ${WL_CG_MB}M
	echo "module $1: hctx0 flags $(cat /sys/kernel/debug/block/$disk/hctx0/flags 2>/dev/null)," \
		"window $(cat /sys/module/spare/parameters/write_window_kb) KiB," \
		"reclaim_wait $(cat /sys/module/spare/parameters/reclaim_wait 2>/dev/null || echo none)," \
		"wbt_lat_usec $(cat /sys/block/$disk/queue/wbt_lat_usec 2>/dev/null || echo none)," \
		"wbt $(wbt_state)"
}
# wbt_state: wbt on the disk as its debugfs shows it (whether on, and
# its normal and background limits, from the depth it counts), or
# "none" when wbt is not on the queue.
wbt_state() {
	local w=/sys/kernel/debug/block/$disk/rqos/wbt
	[ -d "$w" ] || { echo none; return; }
	echo "enabled=$(cat $w/enabled) wb_normal=$(cat $w/wb_normal) wb_background=$(cat $w/wb_background)"
}
run_teardown() {
	swapoff "/dev/$disk" || fail "swapoff"
	spare_destroy swap0
	rmmod spare || fail "rmmod spare"
	for n in 2 3; do
		kill "$(donor_pid $n)" 2>/dev/null
		wait "$(donor_pid $n)" 2>/dev/null
	done
}
# sampler: one line every 0.2 s until killed: uptime, in-flight reads and
# writes (the block layer's count), requests on hctx0's dispatch list,
# nr_writeback pages, pswpout, write_waits (io_stat field 12), the job
# cgroup's pages under writeback (memory.stat file_writeback, which counts
# swap-out too, in pages) and the writes wbt counts in flight (debugfs
# rqos/wbt/inflight, summed over its classes; 0 without wbt).
sampler() {
	local d=/sys/kernel/debug/block/$disk
	while :; do
		echo "$(cut -d' ' -f1 /proc/uptime) inflight $(cat /sys/block/$disk/inflight | tr -s ' ' | sed 's/^ //')" \
			"dispatch $(cat $d/hctx*/dispatch 2>/dev/null | wc -l)" \
			"writeback $(vmstat_get nr_writeback) pswpout $(vmstat_get pswpout)" \
			"write_waits $(io_stat "$disk" write_waits)" \
			"cg_writeback $(( $(awk '$1 == "file_writeback" {print $2}' /sys/fs/cgroup/work/memory.stat) / 4096 ))" \
			"wbt_inflight $(cat $d/rqos/wbt/inflight 2>/dev/null | awk '{n += $3} END {print n + 0}')"
		sleep 0.2
	done
}

set -- $modules
nm=$#
bad=
for i in $(seq "$runs"); do
	shift $(( (i - 1) % nm ))
	m=$1
	set -- $modules
	case $m in
	base) ko=/spare/bin/spare-base.ko ;;
	new) ko=/spare/spare.ko ;;
	*) fail "unknown module $m" ;;
	esac
	[ -f "$ko" ] || fail "no $ko"
	eval "n_$m=\$(( \${n_$m:-0} + 1 ))"
	run_setup "$ko"
	dmesg -c >/dev/null
	sampler >/tmp/samples &
	spid=$!
	out0=$(vmstat_get pswpout)
	t0=$(cut -d' ' -f1 /proc/uptime)
	cg_run work spare-memtest -p 2 ${WL_SIZE_MB}m >/tmp/memtest.out 2>&1 &
	wpid=$!
	tkill=- tseen=-
	if [ "$mode" = killdonor ]; then
		while kill -0 $wpid 2>/dev/null &&
			[ $(( $(vmstat_get pswpout) - out0 )) -lt $((6000 / WL_DIV)) ]; do
			sleep 0.1
		done
		if kill -0 $wpid 2>/dev/null; then
			kill -KILL "$(donor_pid 3)"
			tkill=$(cut -d' ' -f1 /proc/uptime)
			for k in $(seq 300); do
				[ "$(awk '$3 == "10.0.0.3:18515" {print $6}' /sys/block/$disk/spare/donor_stat)" -ge 1 ] &&
					{ tseen=$(cut -d' ' -f1 /proc/uptime); break; }
				sleep 0.1
			done
		fi
	fi
	stopped=
	if [ -n "$stop" ] && [ "$tseen" != - ]; then
		for k in $(seq $((stop * 10))); do
			kill -0 $wpid 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 $wpid 2>/dev/null; then
			# the whole cgroup, and swapoff only once it is empty:
			# a job half dead still charges its swap-ins to it
			echo 1 >/sys/fs/cgroup/work/cgroup.kill
			stopped=" stopped"
		fi
	fi
	rc=0; wait $wpid || rc=$?
	for k in $(seq 100); do
		grep -q '^populated 0' /sys/fs/cgroup/work/cgroup.events && break
		sleep 0.1
	done
	t1=$(cut -d' ' -f1 /proc/uptime)
	kill $spid; wait $spid 2>/dev/null
	oom=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
	# peaks over the run, and from the kill to the loss noticed (+1 s):
	# pages under writeback, writes in flight, requests on dispatch lists
	peaks=$(awk -v a="$tkill" -v b="$tseen" '
		function max(x, y) { return x > y ? x : y }
		{ wb = max(wb, $8 + 0); w = max(w, $4 + 0); d = max(d, $6 + 0)
		  cg = max(cg, $14 + 0); ws = max(ws, $16 + 0) }
		a != "-" && b != "-" && $1 >= a && $1 <= b + 1 {
			swb = max(swb, $8 + 0); sw = max(sw, $4 + 0); sd = max(sd, $6 + 0) }
		END { printf "peak_writeback=%d peak_writes=%d peak_dispatch=%d peak_cg_writeback=%d peak_wbt_inflight=%d", wb, w, d, cg, ws
			if (a != "-" && b != "-")
				printf " stall_writeback=%d stall_writes=%d stall_dispatch=%d", swb, sw, sd }' /tmp/samples)
	toom=$(dmesg | sed -n 's/^\[ *\([0-9.]*\)\].*invoked oom-killer.*/\1/p' | head -1)
	echo "RUN $i module=$m rc=$rc oom=$oom start=$t0 kill=$tkill noticed=$tseen oom_at=${toom:--} end=$t1" \
		"secs=$(echo "$t0 $t1" | awk '{print $2-$1}') pswpout=$(( $(vmstat_get pswpout) - out0 ))$stopped $peaks"
	if [ "$oom" != 0 ]; then
		eval "o_$m=\$(( \${o_$m:-0} + 1 ))"
		oom_report
		echo "samples of the last 3 s:"
		awk -v t="$t1" '$1 >= t - 3' /tmp/samples
	elif [ "$rc" != 0 ] && [ -z "$stopped" ]; then
		cat /tmp/memtest.out
		bad="$bad run$i(rc=$rc)"
	fi
	show_stats "$disk"
	run_teardown
done
for m in $modules; do
	eval "echo \"OOMS module=$m \${o_$m:-0} of \${n_$m:-0}\""
done
[ -z "$bad" ] || fail "runs that failed without an OOM kill:$bad"
pass "$runs runs ($mode)"
