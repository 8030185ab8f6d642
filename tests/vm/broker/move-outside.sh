# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
#
# A donor from outside a spare-ublk device, found by the broker (issue 10;
# broker/place's last step proves the same for the module, whose monitor
# hears a slab_moving uevent). A device of 8 slabs x 2 copies placed by
# spare-broker on donors 2 and 3 (racks 2 and 3), kept by "sparectl device
# monitor". Donor 4 (rack 4) registers with the broker afterwards; the
# device does not use it.
#   - donor 2 evicts 2 slabs: each has its other copy on donor 3, so no
#     donor of the device can take them and the pager's moves wait for a
#     donor to be added, listed in its NAME.moving;
#   - the monitor reads that file, asks the broker for a grant on a donor
#     the device does not use (MOVE_REQ, avoiding donors 2 and 3 and rack
#     3, where the copies that stay are), appends it to the grants file and
#     sends SIGHUP; the pager adds donor 4, connects it, and both copies
#     move there; NAME.moving goes;
#   - the monitor counts donor 4 as a donor of the device (its grant is
#     a renewal, not the placement): a later round renews it;
#   - every byte written reads back; no copy goes the old way.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
watchdog 300
ublk_require

lent() { donor_metric "$1" spare_donor_slabs_lent; }
LOG=/run/spare/ublk/ub0.log
RUN=/run/spare/ublk/ub0
B="broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key"
# 30 s of grace for an eviction (the pager's move is due at 3/4 of it):
# the move waits for the monitor's round, the broker and a new donor's
# connection before it copies over the emulated link
donor_up() { grant_donor "$1" "donor$1" --domain "rack$1" --evict-deadline 30000; }
diag() { sparectl device show ub0; tail -40 $LOG; cat /tmp/monitor.log; cat /tmp/broker.log; donor_logs; }
dn4='donor 10\.0\.0\.4(:18515)?'

step "a broker; donors 2 and 3 lend only against its grants"
rxe_up 4
broker_keys donor2 donor3 donor4 trainer
broker_up /tmp/broker.log
donor_up 2
donor_up 3
broker_knows /tmp/broker.log donor2
broker_knows /tmp/broker.log donor3
pass "broker and donors up"

step "device create --backend=ublk through the broker: 8 slabs x 2 copies, a monitor; donor 4 registers"
disk=$(sparectl device create ub0 --backend=ublk size=128M slab_size=16M replicas=2 \
	source=10.0.0.1 key-file=/tmp/trainer.key $B lease=60) ||
	{ cat /tmp/broker.log; cat $LOG; donor_logs; fail "device create through the broker"; }
[ "$(lent 2)" = 8 ] && [ "$(lent 3)" = 8 ] || { diag; fail "lent $(lent 2) and $(lent 3), not 8 and 8"; }
dd if=/dev/urandom of=/tmp/want bs=1M count=32 2>/dev/null
slabs_write "$disk"
slabs_verify "$disk" "written"
donor_up 4
broker_knows /tmp/broker.log donor4
# interval=60: a failed round would wait a minute; the move needs none
broker_monitor_up ub0 interval=60 standby=1
# its first round renews both donors (a standby slab each) and learns
# their racks from the broker's answers
wait_until 20 grep -q "slab copies renewed, 1 standby per donor" /tmp/monitor.log ||
	{ cat /tmp/monitor.log; fail "the monitor did not renew"; }
[ -e $RUN.moving ] && fail "$RUN.moving while no move waits"
pass "16 copies on donors 2 and 3; donor 4 known to the broker, not to the device"

step "donor 2 evicts 2 slabs whose other copy is on donor 3: the monitor adds donor 4; they move there"
acc4=$(donor_metric 4 spare_donor_grants_accepted_total)
donor_ctl 2 evict 2 >/dev/null || fail "donor 2: evict"
wait_for 100 grep -q 'waiting for a donor to be added' $LOG || { diag; fail "no move waited for a donor"; }
two_moved() { [ "$(grep -Ec "moved to $dn4 in" $LOG)" = 2 ]; }
wait_until 40 two_moved || { diag; fail "$(grep -Ec "moved to $dn4 in" $LOG) of 2 copies moved to donor 4"; }
grep -E "EVICT|waiting for a donor|added|moving it|moved to" $LOG | sed 's/^/    /'
grep -E "wait for a donor|granted until" /tmp/monitor.log | sed 's/^/    /'
grep -q "wait for a donor (slab [0-9]*.*): asking for one the device does not use" /tmp/monitor.log ||
	{ diag; fail "the monitor did not see the moves wait"; }
# the copies that stay are on donor 3, in rack 3
grep -q 'avoiding 2 donor(s) and failure domain(s) "rack3"' /tmp/monitor.log ||
	{ diag; fail "the monitor did not avoid donors 2 and 3 and rack 3"; }
grep -Eq "slab\(s\) on 10\.0\.0\.4:18515 granted until" /tmp/monitor.log ||
	{ diag; fail "the monitor got no grant on donor 4"; }
[ "$(grep -c "asking for one the device does not use" /tmp/monitor.log)" = 1 ] ||
	{ diag; fail "the monitor asked for a donor more than once"; }
grep -Eq "$dn4: added \(a new grant names it\) as donor 2" $LOG || { diag; fail "donor 4 was not added as donor 2"; }
grep -q 'cannot move' $LOG && { diag; fail "a copy went the old way"; }
grep -q 'moved only in part' $LOG && { diag; fail "a move ran out of time"; }
[ "$(lent 4)" = 2 ] && [ "$(lent 2)" = 6 ] && [ "$(lent 3)" = 8 ] ||
	fail "lent: donor 2 $(lent 2), donor 3 $(lent 3), donor 4 $(lent 4)"
[ "$(donor_metric 4 spare_donor_grants_accepted_total)" -gt "$acc4" ] || fail "donor 4 accepted no grant"
wait_for 30 sh -c "[ \"\$(awk '\$5 == \"10.0.0.4:18515\" && \$6 == \"mapped\"' $RUN.map | wc -l)\" = 2 ]" ||
	{ cat $RUN.map; fail "the slab map does not show 2 copies mapped on donor 4"; }
wait_for 30 sh -c "[ ! -e $RUN.moving ]" || { cat $RUN.moving; fail "$RUN.moving stays after the moves"; }
slabs_verify "$disk" "after the moves to donor 4"
pass "donor 4 added by the monitor's MOVE_REQ; both copies moved there; every byte reads back"

step "the monitor renews donor 4 with the others"
# 12 s leases renewed 4 s before they end: a round within about 10 s. A
# renewal (RENEW_GRANT) re-issues the same grant id with a later expiry,
# which donor 4 takes as that grant extended, not as a new one
# ("(known already)"; spare_donor_grants_accepted_total counts each grant
# once): so the latest expiry donor 4 holds for the device must grow.
until4() { sed -n 's/.*: grant [0-9a-f]* for [0-9]* slab(s) until \([0-9]*\).*/\1/p' /tmp/spared-4.log | sort -n | tail -1; }
exp4=$(until4)
[ -n "$exp4" ] || { diag; fail "donor 4 holds no grant"; }
renewed4() { [ "$(until4)" -gt "$exp4" ]; }
wait_until 30 renewed4 || { diag; fail "donor 4 was not renewed (its grant still ends at $exp4)"; }
echo "    donor 4's grant now ends at $(until4), was $exp4"
grep -E "renewed|granted until" /tmp/monitor.log | sed 's/^/    /'
[ "$(grep -c "asking for one the device does not use" /tmp/monitor.log)" = 1 ] ||
	{ diag; fail "the monitor asked for a donor again"; }
pass "donor 4 renewed as a donor of the device"

step "destroy; the donors lend nothing; the monitor ends"
sparectl device destroy ub0 || { cat $LOG; fail "destroy"; }
mon_done() { ! kill -0 "$MON_PID" 2>/dev/null; }
wait_until 15 mon_done || fail "the monitor outlived the device"
wait "$MON_PID" || { cat /tmp/monitor.log; fail "monitor exit"; }
none_lent() { [ "$(lent 2)" = 0 ] && [ "$(lent 3)" = 0 ] && [ "$(lent 4)" = 0 ]; }
wait_until 20 none_lent || fail "lent after destroy: $(lent 2), $(lent 3) and $(lent 4)"
kill -TERM "$BROKER_PID"; wait "$BROKER_PID" || { cat /tmp/broker.log; fail "spare-broker exit"; }
check_dmesg
pass "a donor from outside the device took the copies that had nowhere to go; nothing lost"
