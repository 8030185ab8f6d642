# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# The rig proves itself: soft-RoCE carries RDMA, spare.ko loads and unloads
# cleanly, and swap works under a cgroup memory limit with verified data.
. /spare/tests/vm/lib.sh
set -u

step "soft-RoCE: hosts 10.0.0.1 and 10.0.0.2 on their own NICs and rxe devices"
rxe_up 2
rdma link show
pass "rxe links up"

step "ib_read_lat, 4 KiB, over rdma_cm between 10.0.0.1 and 10.0.0.2"
perftest ib_read_lat 18500 -s 4096 -n 200 >/tmp/out || { cat /tmp/out; fail "ib_read_lat failed"; }
grep -A1 '#bytes' /tmp/out
grep -qE '^ *4096 +200' /tmp/out || fail "ib_read_lat printed no 4 KiB result"
pass "ib_read_lat"

step "ib_write_bw, 4 KiB"
perftest ib_write_bw 18501 -s 4096 -n 500 >/tmp/out || { cat /tmp/out; fail "ib_write_bw failed"; }
grep -A1 '#bytes' /tmp/out
grep -qE '^ *4096 +500' /tmp/out || fail "ib_write_bw printed no 4 KiB result"
pass "ib_write_bw"

step "the link to 10.0.0.2 can be cut with netfilter, and healed"
cut_link 2
cut_attempt 18600
# Killed before the heal: left alive, the pair's CM would resend its request
# into the healed link and connect at the same moment as the check below.
kill -9 $CUT_PIDS 2>/dev/null
heal_link
perftest ib_read_lat 18601 -s 4096 -n 50 >/tmp/cli.out ||
	{ cat /tmp/cli.out; dmesg | tail -20; fail "ib_read_lat fails after the link healed"; }
pass "netfilter cut and heal"

step "spare.ko loads, creates its configfs root, and unloads"
[ -f /spare/spare.ko ] || fail "no spare.ko in the guest"
modprobe configfs 2>/dev/null
# the erasure codec's modules, where the kernel has them (not the debug kernel)
modprobe raid6_pq 2>/dev/null
modprobe xor 2>/dev/null
insmod /spare/spare.ko || fail "insmod spare.ko"
[ -d /sys/kernel/config/spare ] || fail "no /sys/kernel/config/spare"
grep -q '^spare ' /proc/modules || fail "spare not in /proc/modules"
rmmod spare || fail "rmmod spare"
grep -q '^spare ' /proc/modules && fail "spare still loaded"
[ -d /sys/kernel/config/spare ] && fail "configfs root left behind"
pass "spare.ko load/unload"

step "swap onto zram under memory.max=32M with a verifying workload"
modprobe zram num_devices=1 || fail "modprobe zram"
echo 512M >/sys/block/zram0/disksize || fail "zram disksize"
mkswap /dev/zram0 >/dev/null || fail "mkswap zram0"
swapon /dev/zram0 || fail "swapon zram0"
cg_new work 32M
out=$(vmstat_get pswpout); in=$(vmstat_get pswpin)
# 128 MiB written and verified page by page in two passes, 4x memory.max.
cg_run work spare-memtest -p 2 128m || fail "spare-memtest found bad pages"
dout=$(( $(vmstat_get pswpout) - out )); din=$(( $(vmstat_get pswpin) - in ))
echo "pswpout +$dout pswpin +$din"
[ "$dout" -gt 10000 ] || fail "too little swapped out ($dout pages)"
[ "$din" -gt 10000 ] || fail "too little swapped in ($din pages)"
swapoff /dev/zram0 || fail "swapoff"
pass "zram swap with verified data"
