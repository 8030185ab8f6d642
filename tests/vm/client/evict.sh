# SPDX-License-Identifier: GPL-2.0
#
# Eviction under load: two copies of every slab; while the workload runs,
# the donor on 10.0.0.2 asks slabs back (EVICT, as under memory pressure),
# twice. spare drains, UNMAPs, reads from the other copy, maps the slabs again
# later; the workload sees no error and every page verifies.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 600

step "two donors, 2 copies per slab, swap on"
uevent_watch
swap_setup 2
EV1=$((SLABS * 3 / 8))	# 6 of 16 slabs first
pass "swapping on $disk"

step "workload running; donor 2 evicts $EV1 slabs, then all of them"
workload_start
workload_swapped $((6000 / WL_DIV))
# Each EVICT must land while the workload swaps: it is running, and swap
# I/O went on between the first EVICT and the last one answered.
workload_alive
io0=$(( $(vmstat_get pswpout) + $(vmstat_get pswpin) ))
donor_ctl 2 evict $EV1
wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.2:18515\" {print \$7}' /sys/block/$disk/spare/donor_stat)\" -ge $EV1 ]" ||
	{ show_stats "$disk"; donor_ctl 2 status; fail "the first $EV1 evictions not answered"; }
# the workload goes on swapping with $EV1 slabs gone before the rest go
wait_until 60 sh -c "[ \$(( \$(awk '\$1 == \"pswpout\" || \$1 == \"pswpin\" {s += \$2} END {print s}' /proc/vmstat) )) -ge $((io0 + 1000 / WL_DIV)) ]" ||
	{ show_stats "$disk"; fail "no swap I/O after the first evictions"; }
workload_alive
donor_ctl 2 evict all
wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.2:18515\" {print \$7}' /sys/block/$disk/spare/donor_stat)\" -ge $SLABS ]" ||
	{ show_stats "$disk"; donor_ctl 2 status; fail "evictions not answered"; }
io1=$(( $(vmstat_get pswpout) + $(vmstat_get pswpin) ))
show_stats "$disk"
[ "$io1" -gt "$io0" ] || fail "no swap I/O while donor 2 evicted ($io0 -> $io1 pages)"
echo "swap I/O during the evictions: $((io1 - io0)) pages"
donor_ctl 2 status | grep -E 'evict|revoc|free'
pass "$(donor_field 10.0.0.2 evictions) slabs given back to donor 2"

step "the workload finishes; the evicted copies are mapped again"
workload_wait
wait_until 60 sh -c "[ \"\$(cut -d' ' -f5 /sys/block/$disk/spare/slab_stat)\" = $((2 * SLABS)) ]" ||
	{ show_stats "$disk"; donor_ctl 2 status; fail "evicted slabs not mapped again"; }
show_stats "$disk"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
[ "$(donor_field 10.0.0.2 losses)" = 0 ] || fail "eviction took the error road"
[ "$(donor_ctl 2 status | awk '$1 == "spare_donor_revocations_total" {print $2}')" = 0 ] ||
	fail "the donor had to revoke a slab: UNMAP came too late"
grep -q "slab_evicted 10.0.0.2:18515" /tmp/uevents || { cat /tmp/uevents; fail "no slab_evicted uevent"; }
pass "every page verified through the evictions; every copy mapped again"

swap_teardown
