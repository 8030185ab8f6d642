# SPDX-License-Identifier: GPL-2.0
#
# reclaim_wait on and off in one boot: two copies over two donors, a 192 MiB
# single pass in a 48 MiB cgroup, twice each way (Documentation/kmod.md).
# Not run by make check:
#   scripts/vm/run -k KVER -t 1400 tests/vm/bench/reclaim-ab.sh
# Only for a spare.ko from before session 39, which removed reclaim_wait
# (copy such a build to build/kmod/KVER/spare.ko first).
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 1500
swap_setup 2
[ -f /sys/module/spare/parameters/reclaim_wait ] ||
	fail "this spare.ko has no reclaim_wait (removed in session 39)"
# A run that was OOM-killed or read back a wrong page gives no time to
# compare: the bench fails, naming the run.
bad=
for i in 1 2; do for rw in Y N; do
	echo $rw > /sys/module/spare/parameters/reclaim_wait
	oom0=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
	t0=$(cut -d' ' -f1 /proc/uptime)
	cg_run work spare-memtest -p 1 192m
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	oom=$(( $(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events) - oom0 ))
	echo "AB reclaim_wait=$rw rc=$rc secs=$(echo $t0 $t1 | awk '{print $2-$1}') oom=$oom"
	[ "$rc" = 0 ] && [ "$oom" = 0 ] || bad="$bad round$i/reclaim_wait=$rw(rc=$rc,oom=$oom)"
done; done
show_stats $disk
[ -z "$bad" ] || fail "runs without a valid time:$bad"
pass "4 runs, every page verified, none OOM-killed"
