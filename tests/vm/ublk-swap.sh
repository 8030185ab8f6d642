# SPDX-License-Identifier: GPL-2.0
#
# spare-ublk, the userspace pager (issue 10).
# - On a kernel without ublk (Debian's 6.1): spare-ublk refuses at once,
#   with exit status 3 and a message naming what is missing.
# - With ublk (6.12): plain swap on /dev/ublkbN backed by one donor
#   (spared on 10.0.0.2), one copy of every slab. A workload of about 3x
#   its cgroup's memory.max writes a per-page pattern and verifies every
#   page on the next pass; pswpout/pswpin must show swapping, and the
#   pager's counters that RDMA served it with no I/O error.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 300

if ! modprobe ublk_drv 2>/dev/null; then
	step "no ublk in $(uname -r): spare-ublk must refuse clearly"
	[ -e /dev/ublk-control ] && fail "/dev/ublk-control exists without ublk_drv"
	rc=0
	spare-ublk --size 64M --slab-size 16M --donor 10.0.0.2 \
		>/tmp/ublk.out 2>/tmp/ublk.log || rc=$?
	cat /tmp/ublk.log
	[ "$rc" = 3 ] || fail "spare-ublk exited $rc, expected 3 (kernel refused)"
	grep -q '/dev/ublk-control is missing' /tmp/ublk.log || fail "no word of /dev/ublk-control"
	grep -q 'CONFIG_BLK_DEV_UBLK is not set' /tmp/ublk.log || fail "no word of Debian 6.1's config"
	[ -s /tmp/ublk.out ] && fail "spare-ublk printed a device"
	pass "spare-ublk refused: no ublk in this kernel"
	exit 0
fi

step "soft-RoCE: client 10.0.0.1, donor 10.0.0.2"
rxe_up 2
donor_start 2 --budget 256M --slab-size 16M
pass "donor up"

step "spare-ublk: 128 MiB device, 16 MiB slabs, 1 copy"
[ -c /dev/ublk-control ] || fail "ublk_drv loaded but no /dev/ublk-control"
spare-ublk --size 128M --slab-size 16M --donor 10.0.0.2:$DONOR_PORT \
	--source 10.0.0.1 >/tmp/ublk.out 2>/tmp/ublk.log &
UBLK_PID=$!
wait_for 150 grep -q '^ublkb' /tmp/ublk.out ||
	{ cat /tmp/ublk.log; donor_logs; fail "spare-ublk did not bring a device up"; }
disk=$(head -1 /tmp/ublk.out)
wait_for 50 test -b "/dev/$disk" || fail "no /dev/$disk"
cat /tmp/ublk.log
[ "$(cat "/sys/block/$disk/size")" = $((128 * 2048)) ] || fail "/dev/$disk: wrong size"
lent=$(donor_ctl 2 status | awk '$1 == "spared_slabs_lent" {print $2}')
[ "${lent:-0}" = 8 ] || fail "donor lends ${lent:-no} slabs, expected 8"
pass "/dev/$disk up, 8 slabs lent"

step "reads of never-written pages are zero"
[ "$(dd if="/dev/$disk" bs=4096 count=16 skip=1000 iflag=direct 2>/dev/null |
     od -An -v -tx1 | tr -d ' \n' | tr -d 0 | wc -c)" = 0 ] || fail "fresh device is not zero"
pass "zero before any write"

step "mkswap + swapon /dev/$disk"
mkswap "/dev/$disk" >/dev/null || fail "mkswap"
swapon "/dev/$disk" || fail "swapon"
grep -q "/dev/$disk" /proc/swaps || fail "not in /proc/swaps"
pass "swapping on $disk"

step "workload: 96 MiB, 2 passes, in a cgroup with memory.max=32M"
cg_new work 32M
out0=$(vmstat_get pswpout); in0=$(vmstat_get pswpin)
t0=$(cut -d' ' -f1 /proc/uptime)
cg_run work spare-memtest -p 2 96m ||
	{ cat /tmp/ublk.log; why_died work; fail "memtest found bad pages (or died)"; }
t1=$(cut -d' ' -f1 /proc/uptime)
out=$(( $(vmstat_get pswpout) - out0 )); in=$(( $(vmstat_get pswpin) - in0 ))
echo "pswpout +$out, pswpin +$in, $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s"
[ "$out" -gt 10000 ] || fail "pswpout grew by only $out pages"
[ "$in" -gt 5000 ] || fail "pswpin grew by only $in pages"
pass "every page verified after swapping ($out out, $in in)"

step "teardown: swapoff, SIGTERM, counters, device gone, slabs returned"
swapoff "/dev/$disk" || fail "swapoff"
kill -TERM "$UBLK_PID"
wait "$UBLK_PID" || { cat /tmp/ublk.log; fail "spare-ublk exit $?"; }
cat /tmp/ublk.log
stats=$(grep '^spare-ublk: reads' /tmp/ublk.out) || fail "no counters at exit"
echo "$stats"
field() { echo "$stats" | awk -v k="$1" '{for (i = 1; i < NF; i++) if ($i == k) print $(i + 1)}'; }
[ "$(field rdma_reads)" -gt 1000 ] || fail "only $(field rdma_reads) RDMA reads"
[ "$(field rdma_writes)" -gt 1000 ] || fail "only $(field rdma_writes) RDMA writes"
[ "$(field io_errors)" = 0 ] || fail "$(field io_errors) I/O errors"
[ -e "/dev/$disk" ] && fail "/dev/$disk still there"
wait_for 50 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-2.sock status |
	awk '\$1 == \"spared_slabs_lent\" {print \$2}')\" = 0 ]" ||
	fail "donor still lends slabs after spare-ublk stopped"
kill -TERM "$(donor_pid 2)"; wait "$(donor_pid 2)" || { cat /tmp/spared-2.log; fail "spared exit"; }
check_dmesg
pass "clean teardown: $(field rdma_reads) RDMA reads, $(field rdma_writes) RDMA writes, 0 errors"
