# SPDX-License-Identifier: GPL-2.0
#
# An evicted copy moves to another donor before it is given back: one copy
# per slab and no backup, so an eviction without the move would lose the
# slab's pages. While the workload swaps, donor 2 asks slabs back, 3 and
# then all of them. spare maps each on donor 3, fills the new copy from the
# one being evicted (writes land on both meanwhile), and UNMAPs on donor 2
# only then, inside the EVICT's grace period. The workload sees no I/O error
# and every page verifies; donor 2 ends holding no slab, and never had to
# revoke one.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 400

moves() { donor_field 10.0.0.2 moves; }
lent() { donor_metric "$1" spare_donor_slabs_lent; }

step "two donors, 1 copy per slab, no backup, swap on"
# The move copies each evicted slab over the emulated link (~45 MB/s idle,
# RIG.md; a 256 KiB resync chunk took 7-35 ms each way under this
# workload, so five 16 MiB slabs evicted at once took up to 4.8 s, and 7.5 s
# once with the host busy): donor 2 gives 20 s of grace instead of
# spared's 5 s default (Documentation/kmod.md, "Moving an evicted copy",
# on sizing the grace period).
rxe_up 3
donor_start 2 --budget 256M --slab-size 16M --evict-deadline 20000
donor_start 3 --budget 256M --slab-size 16M
spare_load
disk=$(spare_create swap0 size=256M slab_size=16M replicas=1 \
	donors=10.0.0.2:18515,10.0.0.3:18515 source=10.0.0.1)
[ -b "/dev/$disk" ] || fail "no /dev/$disk"
mkswap "/dev/$disk" >/dev/null || fail "mkswap"
swapon "/dev/$disk" || fail "swapon"
cg_new_high work ${WL_CG_MB}M
on2=$(lent 2)
[ "$on2" -ge 3 ] || fail "donor 2 lends $on2 slabs; want at least 3"
pass "swapping on $disk; donor 2 holds $on2 slabs, donor 3 $(lent 3)"

step "workload swapping; donor 2 evicts 3 slabs"
workload_start
workload_swapped 6000
workload_alive
io0=$(( $(vmstat_get pswpout) + $(vmstat_get pswpin) ))
donor_ctl 2 evict 3
wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.2:18515\" {print \$10}' /sys/block/$disk/spare/donor_stat)\" -ge 3 ]" ||
	{ show_stats "$disk"; dmesg | grep -E 'moved|evicted|refused|lost' | tail -20; donor_ctl 2 status; fail "3 slabs not moved"; }
workload_alive
pass "3 slabs moved to donor 3"

step "donor 2 evicts the rest while the workload goes on"
wait_until 60 sh -c "[ \$(( \$(awk '\$1 == \"pswpout\" || \$1 == \"pswpin\" {s += \$2} END {print s}' /proc/vmstat) )) -ge $((io0 + 1000)) ]" ||
	{ show_stats "$disk"; fail "no swap I/O after the first moves"; }
workload_alive
donor_ctl 2 evict all
wait_until 60 sh -c "[ \"\$(awk '\$3 == \"10.0.0.2:18515\" {print \$10}' /sys/block/$disk/spare/donor_stat)\" -ge $on2 ]" ||
	{ show_stats "$disk"; dmesg | grep -E 'moved|evicted|refused|lost' | tail -20; donor_ctl 2 status; fail "not every slab moved"; }
show_stats "$disk"
dmesg | grep -E 'moved to donor' | sed 's/^/    /'
pass "$(moves) slabs moved off donor 2"

step "the workload finishes: no error, every page verified"
workload_wait
show_stats "$disk"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
[ "$(donor_field 10.0.0.2 losses)" = 0 ] || fail "a move took the error road"
[ "$(donor_field 10.0.0.2 moves_short)" = 0 ] || fail "a move ran out of time (pages lost)"
ev=$(donor_field 10.0.0.2 evictions)
[ "$ev" = "$(moves)" ] || fail "$ev evictions but $(moves) moves: some went the old way"
[ "$(donor_ctl 2 status | awk '$1 == "spare_donor_revocations_total" {print $2}')" = 0 ] ||
	fail "donor 2 had to revoke a slab: UNMAP came too late"
[ "$(lent 2)" = 0 ] || fail "donor 2 still lends $(lent 2) slabs"
[ "$(slab_stat mapped)" = 16 ] || fail "$(slab_stat mapped) of 16 copies mapped"
[ "$(lent 3)" = 16 ] || fail "donor 3 lends $(lent 3) slabs, want all 16"
# The live placement (slab_map, sparectl device show) says so too.
cat "/sys/block/$disk/spare/slab_map" | head -4
on3=$(awk '$5 == "10.0.0.3:18515" && $6 == "mapped"' "/sys/block/$disk/spare/slab_map" | wc -l)
[ "$on3" = 16 ] && [ "$(wc -l <"/sys/block/$disk/spare/slab_map")" = 16 ] ||
	fail "slab_map: $on3 mapped copies on donor 3 of $(wc -l <"/sys/block/$disk/spare/slab_map") lines"
sparectl device show swap0 | tail -3
[ "$(sparectl device show swap0 | grep -c ' 10.0.0.3:18515 *mapped ')" = 16 ] || fail "device show: not 16 copies on donor 3"
[ "$(sparectl -j device show swap0 | grep -o '"address":"10.0.0.3:18515","state":"mapped"' | wc -l)" = 16 ] ||
	fail "device show -j: not 16 copies on donor 3"
pass "every page verified; all 16 slabs on donor 3, none on donor 2 (slab_map, device show)"

swap_teardown
