# SPDX-License-Identifier: GPL-2.0
#
# Slow link: 5 ms of netem delay on both donors' links makes every RDMA
# operation slow, as on a loaded machine. A 96 MiB job in a 24 MiB cgroup
# must still finish with every page verified and without the cgroup's OOM
# killer: spare.ko's write window (write_window_kb) holds reclaim until its
# writes land (Documentation/kmod.md, "I/O path").
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
oom0=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
workload_start 1
wait "$WL_PID"
rc=$?
cat /tmp/memtest.out
oom1=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/work/memory.events)
show_stats "$disk"
[ "$oom1" = "$oom0" ] || fail "the cgroup's OOM killer ran ($oom0 -> $oom1)"
[ "$rc" = 0 ] || fail "memtest exited $rc"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
[ "$(io_stat "$disk" write_waits)" -gt 0 ] || fail "the write window never engaged"
pass "every page verified, no OOM kill, $(io_stat "$disk" write_waits) writes waited for the window"

swap_teardown
