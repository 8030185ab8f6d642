# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# spared takes memory back on a PSI trigger alone (issue 8: "PSI triggers
# rather than polling"). Donor 2 lends what is idle (max-lend) and watches
# the cgroup "donor" with a PSI trigger on its memory.pressure; its
# headroom (64 MiB) is far below what the guest has available, so
# MemAvailable never says pressure. A job in the donor cgroup then runs
# into memory.high with no swap: the kernel throttles it (a memory stall,
# which PSI counts) while the host still has plenty available. The avg10
# thresholds are set to 100 % so that they cannot say pressure: only the
# trigger can. spared must see it fire (POLLPRI), count it, and release its
# unlent slabs;
# the stalled job is not OOM-killed. client/donor-pressure covers the
# MemAvailable path and batch eviction; this one runs on the first kernel
# only, as its subject is userspace.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 240


step "donor 2 lends up to 10 slabs of 16 MiB while memory is idle (headroom 64 MiB)"
rxe_up 2
echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
mkdir -p /sys/fs/cgroup/donor
echo 0 >/sys/fs/cgroup/donor/memory.swap.max || fail "memory.swap.max of donor"
donor_start 2 --max-lend 160M --slab-size 16M --headroom 64M --lend-idle 300 \
	--lend-interval 200 --lend-grow-step 10 --cgroup /sys/fs/cgroup/donor \
	--psi-stall 100 --psi-window 1000 --psi-some 100 --psi-full 100 -v debug
wait_until 20 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-2.sock status | awk '\$1 == \"spare_donor_slabs_capacity\" {print \$2}')\" = 10 ]" ||
	{ donor_logs; fail "donor 2 did not grow to 10 slabs while idle"; }
grep -q 'lend: PSI trigger "some 100000 1000000" on /sys/fs/cgroup/donor/memory.pressure' \
	/tmp/spared-2.log || { donor_logs; fail "no PSI trigger armed on the donor cgroup"; }
[ "$(donor_metric 2 spare_donor_pressure_events_total)" = 0 ] || fail "PSI events before any pressure"
pass "10 slabs lendable, PSI trigger armed"

step "a job throttled at memory.high (no swap) stalls; the host has memory to spare"
echo 32M >/sys/fs/cgroup/donor/memory.high || fail "memory.high"
avail0=$(awk '$1 == "MemAvailable:" {print int($2 / 1024)}' /proc/meminfo)
cg_run donor spare-memtest -p 1 64m >/tmp/stall.out 2>&1 &
JOB_PID=$!
wait_until 30 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-2.sock status | awk '\$1 == \"spare_donor_pressure_events_total\" {print \$2}')\" -ge 1 ]" ||
	{ cat /sys/fs/cgroup/donor/memory.pressure; donor_logs; fail "no PSI trigger event"; }
wait_until 20 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-2.sock status | awk '\$1 == \"spare_donor_slabs_capacity\" {print \$2}')\" -lt 10 ]" ||
	{ donor_logs; fail "donor 2 released nothing on the PSI events"; }
avail1=$(awk '$1 == "MemAvailable:" {print int($2 / 1024)}' /proc/meminfo)
cat /sys/fs/cgroup/donor/memory.pressure
grep -E 'lend: (pressure|less idle)' /tmp/spared-2.log | head -5
echo "MemAvailable ${avail0} MiB before the job, ${avail1} MiB after the release; PSI events $(donor_metric 2 spare_donor_pressure_events_total), pressure readings $(donor_metric 2 spare_donor_pressure_readings_total), capacity $(donor_metric 2 spare_donor_slabs_capacity), released $(donor_metric 2 spare_donor_lend_slabs_released_total)"
# Not MemAvailable: it never came near the 64 MiB headroom.
[ "$avail1" -gt 256 ] || fail "MemAvailable ${avail1} MiB: the host itself was short"
kill "$JOB_PID" 2>/dev/null; wait "$JOB_PID" 2>/dev/null
oom=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/donor/memory.events)
[ "${oom:-0}" = 0 ] || fail "the stalled job was OOM-killed"
pass "the PSI trigger fired and donor 2 released unlent slabs, MemAvailable never short"

kill -TERM "$(donor_pid 2)"; wait "$(donor_pid 2)" || { cat /tmp/spared-2.log; fail "spared exit"; }
pass "spared takes memory back on PSI"
