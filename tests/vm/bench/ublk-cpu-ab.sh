# SPDX-License-Identifier: GPL-2.0
# vm-backends: ublk
# The pager's CPU per thread (user/sys), idle and under swap, two pagers
# in one boot: A the build's, C an older one put in build/bin/old/ (see
# Documentation/perf/ublk-cpu/README.md). Diagnostic, not run by the check.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 600
cpu() {
	local t
	for t in /proc/$1/task/*; do
		awk -v t="${t##*/}" '{printf "%s:u%s/s%s ", t, $14, $15}' "$t/stat" 2>/dev/null
	done
	echo
}
step "up"
client_require
echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
rxe_up 3
sparectl gen-key >/tmp/grant.key && chmod 600 /tmp/grant.key || fail "gen-key"
donor_start 2 --budget 256M --slab-size 16M --grant-key-file /tmp/grant.key
run() {
	local tag=$1; shift
	GRANT=$(ublk_mint ok:8 10.0.0.2) || fail "mint"
	ublk_up --size 128M --slab-size 16M --donor 10.0.0.2:$DONOR_PORT --grant "$GRANT" --state-file none --name "$tag" "$@"
	sleep 2
	step "$tag: idle 15 s"
	echo "$tag idle0 $(cpu "$UBLK_PID")"; sleep 15; echo "$tag idle1 $(cpu "$UBLK_PID")"
	client_swap_on
	step "$tag: workload: 96 MiB, 2 passes"
	WL_SIZE_MB=96 WL_CG_MB=32
	WL_CG="work$tag"; ublk_cg "$WL_CG" ${WL_CG_MB}M
	echo "$tag work0 $(cpu "$UBLK_PID") spared $(cpu "$(donor_pid 2)") $(head -1 /proc/stat)"
	t0=$(cut -d' ' -f1 /proc/uptime)
	workload_start 2
	workload_wait
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "$tag work1 $(cpu "$UBLK_PID") spared $(cpu "$(donor_pid 2)") $(head -1 /proc/stat)"
	echo "$tag workload $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s"
	grep usec "/sys/fs/cgroup/work$tag/cpu.stat"
	grep -E "^pgscan |^pgsteal " "/sys/fs/cgroup/work$tag/memory.stat"
	client_swap_off
	client_down
	pass "$tag"
}
run A
PATH=/spare/bin/old:$PATH run C
