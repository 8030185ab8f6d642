# SPDX-License-Identifier: GPL-2.0
#
# spare-broker in the data path (issue 8). A broker on donor host 2;
# donors 2 and 3 register and heartbeat to it and lend only against its
# grants. On the client:
#   - "sparectl device create ... broker=" asks the broker for slabs x
#     copies, writes the donors, the placement and the grants to configfs
#     and powers the device on; every copy maps, each donor accepted its
#     grants, and a memory-hungry job swaps onto it;
#   - the broker restarts while the job swaps: the data path does not
#     notice (no I/O error, every page verified) and the broker knows both
#     donors again from their heartbeats;
#   - "sparectl device renew" sends the device's grants (kept by sparectl
#     in /run/spare/grants/swap0.grants) back to the new broker
#     (RENEW_GRANT): the module replaces each in place (still 32) and the
#     live donors extend theirs while the job swaps;
#   - "sparectl device monitor" renews them again and again (8 s grants);
#     the standby slab it wants is refused (ROOM_REQ: both donors are
#     full), logged once, and the renewals go on;
#   - a donor that joins afterwards (donor 4) registers and receives the
#     grants of the next device, the only donor with room left;
#   - donor 2 evicts two slabs whose other copy is on donor 3: no donor of
#     the device can take them, so the monitor asks the broker for a donor
#     outside it (MOVE_REQ), adds donor 4 to the running device (grant,
#     donors, domains), and the copies move there (the job, which may
#     have finished by then, verifies every page at the end).
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 600


step "keys; a broker; donors 2 and 3 (racks 2 and 3) registered with it"
rxe_up 3
broker_keys donor2 donor3 donor4 trainer
broker_up /tmp/broker.log
# 20 s of grace for an eviction: a move copies over the emulated link
# (Documentation/kmod.md, "Moving an evicted copy", on sizing it)
grant_donor 2 donor2 --domain rack2 --evict-deadline 20000
grant_donor 3 donor3 --domain rack3
broker_knows /tmp/broker.log donor2
broker_knows /tmp/broker.log donor3
spare_load
pass "broker and donors up"

step "sparectl device create through the broker: 16 slabs x 2 copies"
disk=$(sparectl device create swap0 size=256M slab_size=16M replicas=2 source=10.0.0.1 \
	key-file=/tmp/trainer.key broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key) ||
	{ cat /tmp/broker.log; dmesg | tail -20; donor_logs; fail "device create through the broker"; }
[ -b "/dev/$disk" ] || fail "no /dev/$disk"
cat "$CFS/swap0/donors"
[ "$(tr ',' '\n' <"$CFS/swap0/donors" | sort | tr '\n' ' ')" = "10.0.0.2:18515 10.0.0.3:18515 " ] ||
	fail "donors: $(cat "$CFS/swap0/donors")"
[ "$(tr ',' '\n' <"$CFS/swap0/placement" | grep -c .)" = 32 ] || fail "placement: $(cat "$CFS/swap0/placement")"
# racks 2 and 3, from the broker's GRANT_REP: one domain number per donor
[ "$(cat "$CFS/swap0/domains")" = 0,1 ] || fail "domains: $(cat "$CFS/swap0/domains"), want 0,1"
[ "$(grep -c . "$CFS/swap0/grants")" = 32 ] || { cat "$CFS/swap0/grants"; fail "not 32 grants"; }
[ "$(stat -c %a /run/spare/grants/swap0.grants)" = 600 ] &&
	[ "$(grep -vc '^#' /run/spare/grants/swap0.grants)" = 32 ] || fail "sparectl did not keep the 32 grants"
[ "$(slab_stat mapped)" = 32 ] || { show_stats "$disk"; fail "not every copy mapped"; }
[ "$(donor_metric 2 spare_donor_grants_accepted_total)" = 16 ] && [ "$(donor_metric 3 spare_donor_grants_accepted_total)" = 16 ] ||
	fail "grants accepted: $(donor_metric 2 spare_donor_grants_accepted_total) and $(donor_metric 3 spare_donor_grants_accepted_total)"
[ "$(donor_metric 2 spare_donor_map_grant_refusals_total)" = 0 ] && [ "$(donor_metric 3 spare_donor_map_grant_refusals_total)" = 0 ] ||
	fail "a MAP was refused for want of a grant"
grep -q "trainer: granted 16 slab(s) x 2 copies" /tmp/broker.log ||
	{ cat /tmp/broker.log; fail "the broker logged no grant"; }
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon"
cg_new work ${WL_CG_MB}M
workload_start 2 hold
workload_swapped 2000
pass "a broker-placed, granted device swapping"

step "the broker restarts mid-run; the data path does not notice"
kill -TERM "$BROKER_PID"; wait "$BROKER_PID" || { cat /tmp/broker.log; fail "spare-broker exit"; }
broker_up /tmp/broker-2.log
broker_knows /tmp/broker-2.log donor2
broker_knows /tmp/broker-2.log donor3
workload_alive
pass "broker state rebuilt from heartbeats"

step "renewal: sparectl device renew sends the 32 grants back; the module and the live donors extend them"
a2=$(donor_metric 2 spare_donor_grants_accepted_total); a3=$(donor_metric 3 spare_donor_grants_accepted_total)
k2=$(grep -c "known already" /tmp/spared-2.log); k3=$(grep -c "known already" /tmp/spared-3.log)
r0=$(dmesg | grep -c "swap0: grant [0-9a-f]* renewed until")
cp "$CFS/swap0/grants" /tmp/grants-before
sleep 1	# a later second: every expiry must move
# (the broker caps the lease at its own, 600 s)
sparectl device renew swap0 broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key \
	lease=900 || { cat /tmp/broker-2.log; fail "renew"; }
[ "$(grep -c . "$CFS/swap0/grants")" = 32 ] || { cat "$CFS/swap0/grants"; fail "a renewal took new entries"; }
# each token's expiry later than before
[ "$(awk 'NR == FNR { e[$1] = substr($4, 8); next } !(substr($4, 8) + 0 > e[$1] + 0)' \
	/tmp/grants-before "$CFS/swap0/grants" | wc -l)" = 0 ] ||
	{ cat /tmp/grants-before "$CFS/swap0/grants"; fail "a grant was not extended"; }
[ "$(dmesg | grep -c "swap0: grant [0-9a-f]* renewed until")" = $((r0 + 32)) ] || fail "not 32 renewals in the kernel log"
grep -q "trainer: renewed 16 grant(s)" /tmp/broker-2.log || { cat /tmp/broker-2.log; fail "no RENEW_GRANT at the broker"; }
grep -q "trainer: renewed [0-9]* slab(s) on" /tmp/broker-2.log && fail "RENEW_REQ sent"
renewed() { [ "$(grep -c "known already" /tmp/spared-2.log)" -ge $((k2 + 16)) ] &&
	    [ "$(grep -c "known already" /tmp/spared-3.log)" -ge $((k3 + 16)) ]; }
wait_until 10 renewed || { donor_logs; fail "the renewed grants did not reach both donors"; }
[ "$(donor_metric 2 spare_donor_grants_accepted_total)" = "$a2" ] &&
	[ "$(donor_metric 3 spare_donor_grants_accepted_total)" = "$a3" ] || fail "a donor counted a renewal as a new grant"
workload_alive
pass "renewed while swapping"

step "sparectl device monitor keeps renewing: 8 s grants, each renewed with 4 s left"
r0=$(dmesg | grep -c "swap0: grant [0-9a-f]* renewed until")
sparectl device monitor swap0 broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key \
	lease=8 renew-before=4 interval=1 2>/tmp/monitor.log &
MON_PID=$!
# at start, then about every 4 s: three rounds of 2 donors in 10 s, each
# sending back the donor's 16 grants (the module logs each renewal: a
# shorter lease than the 900 s ones at first changes nothing there)
rounds3() { [ "$(grep -c "granted until" /tmp/monitor.log)" -ge 6 ]; }
wait_until 14 rounds3 || { cat /tmp/monitor.log; fail "the monitor did not renew 3 times"; }
kill -TERM $MON_PID; wait $MON_PID || { cat /tmp/monitor.log; fail "monitor exit on SIGTERM"; }
grep -q "monitor ends after" /tmp/monitor.log || { cat /tmp/monitor.log; fail "no monitor end"; }
[ "$(grep -c . "$CFS/swap0/grants")" = 32 ] || fail "the monitor's renewals took new entries"
# both donors are full: the standby slab is refused, once per donor
[ "$(grep -c "no room for 1 more slab(s) on" /tmp/monitor.log)" = 2 ] ||
	{ cat /tmp/monitor.log; fail "the refused standby room was not logged once per donor"; }
grep -q "trainer: renewed [0-9]* slab(s) on" /tmp/broker-2.log && fail "RENEW_REQ sent"
cat /tmp/monitor.log
# back to long grants while the 8 s ones can still be sent back: a grant
# that ended more than its lease ago is not re-issued, and room for the
# copies it covered would be refused on these full donors (sparectl(8))
sparectl device renew swap0 broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key \
	lease=600 || { cat /tmp/broker-2.log; fail "renew after the monitor"; }
workload_alive
pass "grants renewed by the monitor while swapping"

step "donor 4 joins (10.0.0.3:18516) and receives the next device's grants"
spared --listen 10.0.0.3 --port 18516 -f /dev/null --ctl /run/spare/spared-4.sock \
	--budget 128M --slab-size 16M --host-keys /tmp/host-keys --grant-public-keys /tmp/grant.pub \
	--name donor4 --brokers "$BROKER" --broker-key-file /tmp/b-donor4.key --domain rack4 \
	>/tmp/spared-4.log 2>&1 &
DONOR_PID_4=$!
wait_for 100 test -S /run/spare/spared-4.sock || { cat /tmp/spared-4.log; fail "donor 4 did not start"; }
broker_knows /tmp/broker-2.log donor4
# donors 2 and 3 have lent all 16 of their slabs: only donor 4 has room
disk1=$(sparectl device create swap1 size=64M slab_size=16M replicas=1 source=10.0.0.1 \
	key-file=/tmp/trainer.key broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key) ||
	{ cat /tmp/broker-2.log; dmesg | tail -20; fail "second device through the broker"; }
[ "$(cat "$CFS/swap1/donors")" = "10.0.0.3:18516" ] || fail "swap1's donors: $(cat "$CFS/swap1/donors")"
[ "$(donor_metric 4 spare_donor_slabs_lent)" = 4 ] || fail "donor 4 lends $(donor_metric 4 spare_donor_slabs_lent) slabs, not 4"
dd if=/dev/urandom of=/tmp/pattern bs=1M count=48 2>/dev/null
dd if=/tmp/pattern of="/dev/$disk1" bs=1M oflag=direct 2>/dev/null || fail "write $disk1"
dd if="/dev/$disk1" of=/tmp/back bs=1M count=48 iflag=direct 2>/dev/null || fail "read $disk1"
cmp /tmp/pattern /tmp/back || fail "$disk1 read back differs"
spare_destroy swap1
pass "the new donor got the new grants"

step "donor 2 evicts 2 slabs held on donor 3 too: they move to donor 4, added to the device"
sparectl device monitor swap0 broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key \
	lease=600 interval=1 standby=0 2>/tmp/monitor-2.log &
MON_PID=$!
wait_until 10 grep -q "monitoring the grants" /tmp/monitor-2.log ||
	{ cat /tmp/monitor-2.log; fail "the monitor did not start"; }
# its first round renews both donors (and learns their racks)
wait_until 10 sh -c "[ \$(grep -c 'granted until' /tmp/monitor-2.log) -ge 2 ]" ||
	{ cat /tmp/monitor-2.log; fail "the monitor did not renew both donors"; }
kill -0 "$WL_PID" 2>/dev/null && echo "the job is still swapping" || echo "the job has finished"
donor_ctl 2 evict 2
moved2() { [ "$(donor_field 10.0.0.2 moves)" -ge 2 ]; }
wait_until 40 moved2 ||
	{ show_stats "$disk"; cat /tmp/monitor-2.log; dmesg | grep -E 'spare|donor' | tail -30
	  fail "the 2 evicted copies did not move"; }
kill -TERM $MON_PID; wait $MON_PID || { cat /tmp/monitor-2.log; fail "monitor exit on SIGTERM"; }
cat /tmp/monitor-2.log
dmesg | grep -E 'donor 10.0.0.3:18516 added|moved to donor 10.0.0.3:18516' | sed 's/^/    /'
grep -q "a donor the device did not use" /tmp/monitor-2.log ||
	fail "the monitor did not get a donor from outside the device"
case $(cat "$CFS/swap0/donors") in
10.0.0.[23]:18515,10.0.0.[23]:18515,10.0.0.3:18516) ;;
*) fail "donors: $(cat "$CFS/swap0/donors"), want donor 4 added at the end" ;;
esac
# racks 2, 3 and now 4: a third domain number
[ "$(cat "$CFS/swap0/domains")" = 0,1,2 ] || fail "domains: $(cat "$CFS/swap0/domains"), want 0,1,2"
[ "$(donor_metric 4 spare_donor_slabs_lent)" = 2 ] || fail "donor 4 lends $(donor_metric 4 spare_donor_slabs_lent) slabs, not 2"
[ "$(awk '$5 == "10.0.0.3:18516" && $6 == "mapped"' "/sys/block/$disk/spare/slab_map" | wc -l)" = 2 ] ||
	{ cat "/sys/block/$disk/spare/slab_map"; fail "slab_map: not 2 copies mapped on donor 4"; }
[ "$(donor_field 10.0.0.2 moves_short)" = 0 ] || fail "a move ran out of time"
[ "$(donor_field 10.0.0.2 evictions)" = "$(donor_field 10.0.0.2 moves)" ] ||
	fail "an eviction went the old way"
# (the job may have finished meanwhile: it runs about 34 s on a fast
# boot; the next step checks how it ended)
pass "2 copies moved to donor 4, which the device did not use before"

step "the job verifies every page"
workload_wait
show_stats "$disk"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
[ "$(donor_field 10.0.0.2 losses)" = 0 ] && [ "$(donor_field 10.0.0.3 losses)" = 0 ] ||
	fail "a donor connection was lost"
pass "no error across the broker restart"

swap_teardown
kill -TERM "$BROKER_PID"; wait "$BROKER_PID" || { cat /tmp/broker-2.log; fail "spare-broker exit"; }
for n in 2 3 4; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
done
pass "broker end to end"
