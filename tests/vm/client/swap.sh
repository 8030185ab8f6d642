# SPDX-License-Identifier: GPL-2.0
#
# Plain swap: /dev/spareN backed by two donors (spared on 10.0.0.2 and
# 10.0.0.3), two copies of every slab. A workload of 4x its cgroup's
# memory.max writes a per-page pattern and verifies every page on the next
# pass. pswpout/pswpin must show swapping, and the device stats must show
# that RDMA, not a backup, served the reads.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 600

step "soft-RoCE: client 10.0.0.1, donors 10.0.0.2 and 10.0.0.3"
rxe_up 3
donor_start 2 --budget 256M --slab-size 16M
donor_start 3 --budget 256M --slab-size 16M
pass "two donors up"

step "spare.ko: 256 MiB device, 16 MiB slabs, 2 copies"
spare_load
disk=$(spare_create swap0 size=256M slab_size=16M replicas=2 \
	donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1)
[ -b "/dev/$disk" ] || fail "no /dev/$disk"
show_stats "$disk"
[ "$(io_stat "$disk" version)" = 2 ] || fail "io_stat version"
[ "$(wc -w <"/sys/block/$disk/spare/io_stat")" = 15 ] || fail "io_stat: not 15 fields"
mapped=$(cut -d' ' -f5 "/sys/block/$disk/spare/slab_stat")
[ "$mapped" = 32 ] || fail "expected 32 mapped slab copies, got $mapped"
donor_ctl 2 status | grep -E '^spare_donor_(slabs|maps)' || true
pass "$disk up with every slab copy mapped"

step "mkswap + swapon /dev/$disk"
mkswap "/dev/$disk" >/dev/null || fail "mkswap"
swapon "/dev/$disk" || fail "swapon"
cat /proc/swaps
grep -q "/dev/$disk" /proc/swaps || fail "not in /proc/swaps"
pass "swapping on $disk"

step "workload: 128 MiB, 2 passes, in a cgroup with memory.max=32M"
cg_new work 32M
out0=$(vmstat_get pswpout); in0=$(vmstat_get pswpin)
t0=$(cut -d' ' -f1 /proc/uptime)
cg_run work spare-memtest -p 2 128m || { show_stats "$disk"; why_died work; fail "memtest found bad pages (or died)"; }
t1=$(cut -d' ' -f1 /proc/uptime)
out=$(( $(vmstat_get pswpout) - out0 )); in=$(( $(vmstat_get pswpin) - in0 ))
echo "pswpout +$out, pswpin +$in, $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s"
[ "$out" -gt 30000 ] || fail "pswpout grew by only $out pages"
[ "$in" -gt 20000 ] || fail "pswpin grew by only $in pages"
pass "every page verified after swapping ($out out, $in in)"

step "device stats: reads served by RDMA"
show_stats "$disk"
rr=$(io_stat "$disk" rdma_reads); rw=$(io_stat "$disk" rdma_writes)
br=$(io_stat "$disk" backup_reads); err=$(io_stat "$disk" io_errors)
[ "$rr" -gt 1000 ] || fail "only $rr RDMA reads"
[ "$rw" -gt 1000 ] || fail "only $rw RDMA writes"
[ "$br" = 0 ] || fail "$br reads came from a backup"
[ "$err" = 0 ] || fail "$err I/O errors"
for n in 2 3; do
	donor_ctl $n status | grep -E '^spare_donor_(slabs_lent|maps_total|clients|data_conns_total)' || true
done
# One RC QP per (hardware queue, donor), connected lazily
# (Documentation/kmod.md): each donor accepted at least one DATA connection
# and never more than the device has hardware queues.
nq=$(ls -d /sys/block/"$disk"/mq/*/ | wc -l)
for n in 2 3; do
	dc=$(donor_ctl $n status | awk '$1 == "spare_donor_data_conns_total" {print $2}')
	[ "${dc:-0}" -ge 1 ] && [ "$dc" -le "$nq" ] ||
		fail "donor $n accepted ${dc:-no} DATA connections for $nq hardware queues"
	echo "donor $n: $dc DATA connections, $nq hardware queues"
done
check_dmesg
pass "$rr RDMA reads, $rw RDMA writes, 0 backup reads, 0 errors"

step "teardown: swapoff, power off, rmmod, donors stop"
swapoff "/dev/$disk" || fail "swapoff"
spare_destroy swap0
rmmod spare || fail "rmmod spare"
for n in 2 3; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
done
check_dmesg
pass "clean teardown"
