# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
#
# spare-ublk with two copies on two donors; one donor's host vanishes while
# the device is swapped on and under load: its RoCE traffic is dropped,
# then its spared is SIGKILLed, so neither a NAK nor a disconnect reaches
# the pager, which must notice the silence itself (RDMA retries, or its
# --io-timeout). A plain SIGKILL sometimes left operations unanswered for
# ever on 6.12's soft-RoCE, and the swapping task hung in D state (CI,
# 2026-11-23). Writes land on the surviving copy, reads that hit the dead
# donor are re-driven to the survivor: the workload verifies every page and
# the pager reports no I/O error. The pager then tries to reconnect with
# back-off (nothing answers: host 3 stays cut off), and its resync says,
# 10 s on, which copy it waits for; the reconnect itself, resync and moves
# are proven by client/lifecycle. Two queues: the lost
# donor's QP of each is failed and detached.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
watchdog 300

ublk_require

step "two donors, spare-ublk: 128 MiB, 16 MiB slabs, 2 copies, 2 queues"
rxe_up 3
donor_start 2 --budget 256M --slab-size 16M
donor_start 3 --budget 256M --slab-size 16M
ublk_up --size 128M --slab-size 16M --copies 2 --queues 2 \
	--donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon /dev/$disk"
pass "swapping on $disk, 8 slabs x 2 copies"

step "workload: 96 MiB, 2 passes in 32 MiB; host 3 cut off and its donor SIGKILLed mid-run"
WL_SIZE_MB=96 WL_CG_MB=32
ublk_cg work ${WL_CG_MB}M
workload_start 2
workload_swapped 15000
cut_link 3
kill -KILL "$(donor_pid 3)"
echo "host 3 cut off, donor 3 killed at pswpout +$(( $(vmstat_get pswpout) - WL_OUT0 ))"
workload_wait
pass "every page verified across the loss of donor 3"
# the resync cannot make donor 3's copies whole: it must say so, not wait
# in silence (after 10 s, then less and less often)
wait_for 100 grep -q 'resync: not all copies current after 1[0-9] s: slab [0-9]*: a copy is not mapped' \
	/tmp/ublk.log || { grep resync /tmp/ublk.log; fail "the resync did not say what it waits for"; }
grep 'resync: not all' /tmp/ublk.log

step "teardown and the pager's counters"
grep 'donor 10.0.0.3' /tmp/ublk.log | grep -v 'session ready' | head -5
swapoff "/dev/$disk" || fail "swapoff"
ublk_down
heal_link
tail -20 /tmp/ublk.log
[ "$(ublk_stat io_errors)" = 0 ] || fail "$(ublk_stat io_errors) I/O errors"
[ "$(ublk_stat copy_faults)" -gt 0 ] || fail "no copy fault seen: was donor 3 used at all?"
# A request's fault fails a copy at once; the lost donor's road fails the
# rest (whichever comes first logs it).
grep -q 'copy [01] failed (donor 10.0.0.3)\|donor 10.0.0.3 lost: [1-9]' /tmp/ublk.log ||
	fail "no copy on donor 3 was failed"
kill -TERM "$(donor_pid 2)"; wait "$(donor_pid 2)" || { cat /tmp/spared-2.log; fail "spared 2 exit"; }
check_dmesg
pass "0 I/O errors, $(ublk_stat copy_faults) copy faults, $(ublk_stat redrives) reads re-driven"
