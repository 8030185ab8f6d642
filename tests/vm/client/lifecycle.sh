# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
#
# spare-ublk's lifecycle under swap load, as spare.ko's client/cutlink,
# client/resync and client/move prove it for the module: two copies of every
# slab over three donors (hosts 2, 3, 4; copy c of slab s on donor
# (s + c) mod 3), one spare-memtest job across all of it.
#  (a) The link to host 2 is cut for 10 s (its RoCE traffic dropped). The
#      pager notices the silence (--io-timeout 2 s), fails that donor's
#      copies (reads and writes go on on the other copies: no I/O error),
#      tries to reconnect with back-off while the link is down (one log
#      line, not one per try), reconnects once it is back (a new session),
#      maps the copies again and resyncs them from the current ones until
#      every copy is current ("resync: all 16 copies mapped and current").
#  (b) Host 3 asks back every slab it lends (EVICT, 60 s grace). Each copy
#      moves to the one donor holding no copy of its slab; the donor never
#      has to revoke one.
#  Then every slab's copies are on hosts 2 and 4, host 2's either resynced
#  in (a) or moved there in (b). Host 4's donor is killed: from then on
#  (until the pager re-homes host 4's copies, 30 s on) host 2 holds the
#  only copy of every slab. Two things are read back from it: 16 MiB of
#  random data written to tmpfs before the cut and swapped out since (cold
#  pages nobody rewrites, so every one of them reached host 2 through the
#  resync or a move), checked by its SHA-256; and the job's remaining
#  passes (a full one at least), verified page by page.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
watchdog 420

ublk_require

step "three donors, spare-ublk: 128 MiB, 16 MiB slabs, 2 copies, 2 queues"
rxe_up 4
donor_start 2 --budget 256M --slab-size 16M
donor_start 3 --budget 256M --slab-size 16M --evict-deadline 60000
donor_start 4 --budget 256M --slab-size 16M
ublk_up --size 128M --slab-size 16M --copies 2 --queues 2 --io-timeout 2000 --timeout 3000 \
	--donor 10.0.0.2:$DONOR_PORT \
	--donor 10.0.0.3:$DONOR_PORT --donor 10.0.0.4:$DONOR_PORT
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon /dev/$disk"
pass "swapping on $disk, 8 slabs x 2 copies over 3 donors"

# log_after PATTERN1 PATTERN2: PATTERN2 is logged after PATTERN1.
log_after() {
	awk -v a="$1" -v b="$2" '$0 ~ a {seen = 1} seen && $0 ~ b {ok = 1} END {exit !ok}' /tmp/ublk.log
}

step "(a) cold data, then the workload: 64 MiB x 5 passes in 16 MiB; the link to host 2 cut for 10 s"
WL_SIZE_MB=64 WL_CG_MB=16
ublk_cg work ${WL_CG_MB}M
cg_run work dd if=/dev/urandom of=/dev/shm/cold bs=1M count=16 status=none || fail "cannot write the cold data"
sum0=$(sha256sum </dev/shm/cold)
workload_start 5
workload_swapped 6000
cut_link 2
t_cut=$(cut -d' ' -f1 /proc/uptime)
sleep 10
nft list table inet spare_cut | grep 'counter packets'
heal_link
echo "host 2 cut for 10 s from ${t_cut}s"
wait_for 150 grep -q 'donor 10.0.0.2 lost: [1-9]' /tmp/ublk.log ||
	{ tail -30 /tmp/ublk.log; fail "the cut was not noticed"; }
wait_for 300 grep -q 'donor 10.0.0.2: reconnected' /tmp/ublk.log ||
	{ tail -30 /tmp/ublk.log; donor_logs; fail "no reconnect to host 2"; }
wait_for 450 log_after 'donor 10.0.0.2: reconnected' 'resync: all 16 copies mapped and current' ||
	{ tail -30 /tmp/ublk.log; fail "the copies on host 2 were not resynced"; }
grep -E 'donor 10.0.0.2|resync' /tmp/ublk.log
tries=$(sed -n 's/.*donor 10.0.0.2: reconnected after \([0-9]*\) tr.*/\1/p' /tmp/ublk.log)
[ "${tries:-0}" -ge 2 ] || fail "reconnected at try ${tries:-?}: the back-off was not exercised"
[ "$(grep -c 'donor 10.0.0.2: reconnect failed' /tmp/ublk.log)" = 1 ] ||
	fail "failed tries not logged exactly once"
grep -q "superseded by a new session" /tmp/spared-2.log ||
	{ donor_logs; fail "spared did not replace the old session"; }
kill -0 "$WL_PID" 2>/dev/null || { cat /tmp/memtest.out; fail "the workload ended before (b)"; }
pass "cut noticed; host 2 reconnected; its copies mapped again and resynced"

step "(b) host 3 evicts every slab it lends; each copy moves to the donor holding none of its slab"
n3=$(donor_ctl 3 evict all | awk '$1 == "evicting" {print $2}')
[ "${n3:-0}" -ge 4 ] || fail "host 3 evicted only ${n3:-0} slabs"
wait_for 300 sh -c "[ \$(grep -c 'donor 10.0.0.3: slab [0-9]* moved to donor' /tmp/ublk.log) -ge $n3 ]" ||
	{ tail -30 /tmp/ublk.log; donor_ctl 3 status; fail "not every evicted copy moved"; }
grep 'donor 10.0.0.3: slab' /tmp/ublk.log
grep -q 'moved only in part\|cannot move' /tmp/ublk.log && fail "a move was cut short or not made"
[ "$(donor_ctl 3 status | awk '$1 == "spare_donor_revocations_total" {print $2}')" = 0 ] ||
	fail "host 3 had to revoke a slab: UNMAP came too late"
kill -0 "$WL_PID" 2>/dev/null || { cat /tmp/memtest.out; fail "the workload ended before the last step"; }
pass "$n3 copies moved off host 3, none revoked"

step "host 4's donor killed: the rest of the job reads every page from host 2 alone"
in1=$(vmstat_get pswpin)
shmem=$(awk '$1 == "shmem" {print $2}' /sys/fs/cgroup/work/memory.stat)
kill -KILL "$(donor_pid 4)"
echo "cold data: $((shmem >> 20)) of 16 MiB resident when host 4 went"
[ "$shmem" -lt $((8 << 20)) ] || fail "the cold data was not swapped out"
sum1=$(cg_run work sha256sum </dev/shm/cold)
[ "$sum1" = "$sum0" ] || fail "the cold data changed: $sum0 -> $sum1"
grep -q 'goes to donor' /tmp/ublk.log && fail "re-homed before the cold data was read"
echo "cold data read back intact from host 2 alone"
# Until the pager re-homes host 4's copies (30 s on), host 2 holds the only
# copy of every slab: count the pages swapped in until then.
( while ! grep -q 'goes to donor' /tmp/ublk.log; do sleep 0.2; done
  vmstat_get pswpin >/tmp/pswpin.rehome ) &
REHOME_WATCH=$!
workload_wait
kill "$REHOME_WATCH" 2>/dev/null; wait "$REHOME_WATCH" 2>/dev/null
in2=$(cat /tmp/pswpin.rehome 2>/dev/null || vmstat_get pswpin)
in=$(( in2 - in1 ))
echo "pswpin +$in after host 4 went, from host 2 alone"
# a full pass over the 64 MiB job with 16 MiB resident reads 12288 pages
[ "$in" -gt 12288 ] || fail "only $in pages read back from host 2 alone"
pass "every page verified"

step "teardown and the pager's counters"
rm -f /dev/shm/cold	# swapoff could not bring it back into the cgroup
swapoff "/dev/$disk" || fail "swapoff"
ublk_down
tail -12 /tmp/ublk.log
[ "$(ublk_stat io_errors)" = 0 ] || fail "$(ublk_stat io_errors) I/O errors"
[ "$(ublk_stat reconnects)" -ge 1 ] || fail "no reconnect counted"
[ "$(ublk_stat resync_pages)" -gt 0 ] || fail "no page resynced"
[ "$(ublk_stat moves)" -ge "$n3" ] || fail "$(ublk_stat moves) moves, $n3 evicted"
[ "$(ublk_stat moves_short)" = 0 ] || fail "$(ublk_stat moves_short) moves cut short"
for n in 2 3; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat /tmp/spared-$n.log; fail "spared $n exit"; }
done
check_dmesg
pass "0 I/O errors; $(ublk_stat reconnects) reconnects, $(ublk_stat resync_pages) pages resynced, $(ublk_stat moves) moves"
