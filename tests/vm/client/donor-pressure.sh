# SPDX-License-Identifier: GPL-2.0
#
# Pressure on a donor that lends what is idle (spared max-lend): donor 2
# lends up to 20 slabs of 16 MiB and watches the cgroup "donor" (PSI
# trigger on its memory.pressure, MemAvailable); donors 3 and 4 lend a
# fixed 256 MiB each. A trainer swaps onto a 2-copy device over the three
# while a memory hog in the donor cgroup takes what the host has available.
# Donor 2 must take memory back: its unlent slabs first, then lent ones by
# batch eviction; the hog is not OOM-killed, the trainer sees no I/O error
# and every page verifies. Each evicted copy is remapped elsewhere: spare
# moves it to whichever of donors 3 and 4 holds no copy of that slab before
# it gives it back (the time each move took is printed).
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 300


step "donor 2 lends what is idle (up to 320 MiB, headroom 256 MiB), donors 3 and 4 a fixed 256 MiB"
rxe_up 4
cg_new donor max
echo 0 >/sys/fs/cgroup/donor/memory.swap.max || fail "memory.swap.max of donor"
donor_start 2 --max-lend 320M --slab-size 16M --headroom 256M --lend-idle 300 \
	--lend-interval 200 --lend-grow-step 20 --cgroup /sys/fs/cgroup/donor \
	--evict-batch 2 --evict-sample-extra 2 -v debug
donor_start 3 --budget 256M --slab-size 16M
donor_start 4 --budget 256M --slab-size 16M
wait_until 20 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-2.sock status | awk '\$1 == \"spare_donor_slabs_capacity\" {print \$2}')\" = 20 ]" ||
	{ donor_logs; fail "donor 2 did not grow to 20 slabs while idle"; }
grep -E 'lend: (PSI|no PSI|cannot)' /tmp/spared-2.log || true
pass "donor 2 grew to $(donor_metric 2 spare_donor_slabs_capacity) slabs while memory was idle"

step "a 2-copy swap device over the three donors; the trainer swaps"
spare_load
disk=$(spare_create swap0 size=256M slab_size=16M replicas=2 \
	donors=10.0.0.2:18515,10.0.0.3:18515,10.0.0.4:18515 source=10.0.0.1)
[ -b "/dev/$disk" ] || fail "no /dev/$disk"
mkswap "/dev/$disk" >/dev/null || fail "mkswap"
swapon "/dev/$disk" || fail "swapon"
cg_new_high work 48M
lent0=$(donor_metric 2 spare_donor_slabs_lent)
[ "$lent0" -ge 1 ] && [ "$lent0" -lt 20 ] || fail "donor 2 lends $lent0 of 20 slabs; want some unlent"
# A shorter trainer than spare-swap's (128 MiB, 2 passes) keeps this under
# a minute on a quiet machine; every page written in pass 1 is verified in
# pass 2, across the evictions.
out0=$(vmstat_get pswpout); in0=$(vmstat_get pswpin)
cg_run work spare-memtest -p 2 128m >/tmp/memtest.out 2>&1 &
WL_PID=$!
sleep 2
workload_alive
pass "trainer swapping; donor 2 lends $lent0 slabs, $((20 - lent0)) unlent"

step "a memory hog in the donor cgroup takes what is available"
avail=$(awk '$1 == "MemAvailable:" {print int($2 / 1024)}' /proc/meminfo)
echo "MemAvailable ${avail} MiB before the hog"
t0=$(cut -d' ' -f1 /proc/uptime)
cg_run donor spare-memtest -p 1 "${avail}m" >/tmp/hog.out 2>&1 &
HOG_PID=$!
wait_until 40 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-2.sock status | awk '\$1 == \"spare_donor_lend_evictions_total\" {print \$2}')\" -ge 1 ]" ||
	{ donor_logs; fail "donor 2 evicted nothing under pressure"; }
t1=$(cut -d' ' -f1 /proc/uptime)
wait "$HOG_PID"
hog_rc=$?
cat /tmp/hog.out
oom=$(awk '$1 == "oom_kill" {print $2}' /sys/fs/cgroup/donor/memory.events)
[ "${oom:-0}" = 0 ] || { why_died donor; fail "the hog was OOM-killed"; }
[ "$hog_rc" = 0 ] || fail "the hog's memtest exited $hog_rc"
grep -E 'lend: (pressure|batch|evicting)|retired' /tmp/spared-2.log | head -20
rel=$(donor_metric 2 spare_donor_lend_slabs_released_total)
ev=$(donor_metric 2 spare_donor_lend_evictions_total)
cap=$(donor_metric 2 spare_donor_slabs_capacity)
echo "donor 2: released $rel slabs, evicted $ev, capacity now $cap (it grows back once the hog is gone); first eviction $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s after the hog started"
echo "pressure events $(donor_metric 2 spare_donor_pressure_events_total), readings $(donor_metric 2 spare_donor_pressure_readings_total), batches $(donor_metric 2 spare_donor_lend_eviction_batches_total), activity timeouts $(donor_metric 2 spare_donor_lend_activity_timeouts_total)"
# Unlent first: by the line of the first eviction, every unlent slab has
# been released (on that line or before).
before=$(awk '/lend: (pressure|less idle memory)/ {
		for (i = 1; i < NF; i++) if ($i == "releasing") r += $(i + 1)
		for (i = 1; i < NF; i++) if ($i == "evicting" && $(i + 1) + 0 > 0) { print r; exit }
	}' /tmp/spared-2.log)
echo "unlent slabs released up to the first eviction: ${before:-none}"
[ "${before:-0}" -ge $((20 - lent0)) ] || fail "lent slabs were evicted before the unlent ones were released"
[ "$rel" -ge $((20 - lent0)) ] || fail "only $rel slabs released"
low=$(awk '/lend: (pressure|less idle memory)/ {
		for (i = 1; i < NF; i++) if ($i == "capacity") { c = $(i + 1) + 0; if (min == "" || c < min) min = c }
	} END {print min}' /tmp/spared-2.log)
echo "lowest capacity under pressure: ${low:-none}"
[ "$ev" -ge 1 ] && [ "${low:-99}" -lt "$lent0" ] || fail "capacity ${low:-none} never went below the $lent0 lent before"
[ "$(donor_metric 2 spare_donor_revocations_total)" = 0 ] || fail "the client did not answer an EVICT in time"
pass "hog not OOM-killed; donor 2 released its ${before} unlent slabs first, then evicted $ev"

step "the evicted copies were remapped elsewhere"
dmesg | grep -E 'donor 10.0.0.2:18515: slab [0-9]+ (evicted|moved)' | sed 's/^/    /'
# When each EVICT went out and each target answered its MAP (the
# daemons' stamps are CLOCK_MONOTONIC, as dmesg's): a move not mapped in
# time shows here which side was slow.
grep -h -E 'EVICT|MAP slab' /tmp/spared-2.log | grep -v 'ACTIVITY' | tail -40 | sed 's/^/    /'
grep -h -E 'MAP slab|no free slab|mmap' /tmp/spared-3.log /tmp/spared-4.log | sort -t'[' -k2 -n | tail -30 | sed 's/^/    /'
moved=$(donor_field 10.0.0.2 moves)
short=$(donor_field 10.0.0.2 moves_short)
cev=$(donor_field 10.0.0.2 evictions)
times=$(dmesg | sed -n 's/.*donor 10.0.0.2:18515: slab [0-9]* evicted; moved to donor .* in \([0-9]*\) ms$/\1/p' | sort -n | tr '\n' ' ')
echo "spare: $cev evictions from donor 2, $moved moved ($short cut short); move times in ms: ${times:-none}"
# map-ready on the donors the copies moved to (information, not a verdict)
for n in 3 4; do
	echo "donor $n: $(donor_metric $n spare_donor_maps_total) MAPs, $(donor_metric $n spare_donor_maps_unready_total) found no slab ready; $(donor_metric $n spare_donor_slabs_ready) ready now"
done
[ "$cev" -ge 1 ] && [ "$moved" = "$cev" ] || fail "$cev evictions but $moved moves: a copy was not remapped elsewhere"
[ "$(( $(donor_field 10.0.0.3 moves) + $(donor_field 10.0.0.4 moves) ))" = 0 ] || fail "donors 3 and 4 evicted nothing, yet moves are counted on them"
pass "every evicted copy moved to donor 3 or 4 before UNMAP"

step "the hog is gone: donor 2 lends again"
wait_until 20 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-2.sock status | awk '\$1 == \"spare_donor_slabs_capacity\" {print \$2}')\" = 20 ]" ||
	{ tail -20 /tmp/spared-2.log; fail "donor 2 did not grow back once memory was idle"; }
pass "donor 2 back to $(donor_metric 2 spare_donor_slabs_capacity) slabs"

step "the trainer finishes: no error, every page verified"
wait "$WL_PID"
rc=$?
cat /tmp/memtest.out
[ $rc = 0 ] || { show_stats "$disk"; why_died work; fail "trainer memtest exited $rc: pages lost or corrupt"; }
out=$(( $(vmstat_get pswpout) - out0 )); in=$(( $(vmstat_get pswpin) - in0 ))
echo "pswpout +$out, pswpin +$in"
[ "$out" -gt 20000 ] && [ "$in" -gt 10000 ] || fail "too little swapping ($out out, $in in)"
show_stats "$disk"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
pass "every page verified while donor 2 took memory back"

swap_teardown
for n in 2 3 4; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
done
pass "donors stopped cleanly"
