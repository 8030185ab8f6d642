# SPDX-License-Identifier: GPL-2.0
# client/backup's refill step, 7 times in one boot (session 33): donor 3 of
# two SIGKILLed under swap load and started again; the pager must say
# "resync: all 32 copies mapped and current" within 60 s each time.
#   scripts/vm/run -k 6.12.117+deb12-amd64 -t 1000 \
#       tests/vm/bench/refill-loop.sh
# (Documentation/perf/ublk-refill-race/run.sh runs it in two lanes beside two busy loops, as measured.)
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
watchdog 900
ublk_require
modprobe brd rd_nr=2 rd_size=131072 || fail "modprobe brd"
rxe_up 3
for it in 1 2 3 4 5 6 7; do
step "refill iteration $it"
rm -f /run/spare/spared-2.sock /run/spare/spared-3.sock
donor_start 2 --budget 128M --slab-size 4M
donor_start 3 --budget 128M --slab-size 4M
ublk_up --size 128M --slab-size 4M --copies 1 --io-timeout 2000 \
	--backup /dev/ram0 --backup-mode sync --name bk-refill --queues 2 \
	--donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon /dev/$disk"
WL_CG=work-refill$it WL_SIZE_MB=32 WL_CG_MB=16
ublk_cg "$WL_CG" ${WL_CG_MB}M
workload_start 2
workload_swapped 2000
kill -KILL "$(donor_pid 3)"
wait "$(donor_pid 3)" 2>/dev/null
wait_for 100 grep -q 'donor 10.0.0.3 lost: [1-9]' /tmp/ublk.log || { tail -20 /tmp/ublk.log; fail "not noticed"; }
rm -f /run/spare/spared-3.sock
donor_start 3 --budget 128M --slab-size 4M
wait_for 300 grep -q 'resync: all 32 copies mapped and current' /tmp/ublk.log ||
	{ tail -30 /tmp/ublk.log; fail "HANG: not refilled"; }
grep -E "not all|mapped and current" /tmp/ublk.log
workload_wait
swapoff "/dev/$disk" || fail "swapoff"
ublk_down
for n in 2 3; do kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)"; done
pass "iteration $it"
done
