# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
#
# spare-ublk's moves driven by a broker's grants (issue 10; broker/move
# proves the same for the module, whose monitor hears uevents). A one-copy
# device placed by spare-broker on two donors that lend only against its
# grants, kept by "sparectl device monitor", which watches the pager's slab
# map (NAME.map) every second. Whatever a donor evicts moves to the other
# one and nothing is lost:
#   - standby=1: the first donor gives all its slabs back; they all move to
#     the other. Its grants have room for one more copy, and for as many
#     more as the older grants still unexpired beside the monitor's last
#     renewal allow (a donor lends against their sum): a copy beyond that
#     is refused (MAP: no grant), kept on it unmapped and waits (as the
#     module's move_wait_grant()) until the monitor, seeing it in the slab
#     map, gets a grant there from the broker and sends SIGHUP. Whether one
#     waits depends on those overlaps, so it is shown, not required;
#   - standby=0: the emptied donor's grants run out; the other evicts one
#     slab: no donor's grants have room; the copy must wait on the emptied
#     donor until the monitor gets a grant there; it moves back.
# Every byte written reads back after each move; no copy goes the old way.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
watchdog 400
ublk_require

lent() { donor_metric "$1" spare_donor_slabs_lent; }
LOG=/run/spare/ublk/ub0.log
B="broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key"
# 30 s of grace for an eviction (the pager's move is due at 3/4 of it): the
# moves copy their written pages over the emulated link, and a move waits
# for the monitor's grant besides; this device has one copy and no backup.
donor_up() { grant_donor "$1" "donor$1" --domain "rack$1" --evict-deadline 30000; }
diag() { sparectl device show ub0; tail -40 $LOG; cat /tmp/monitor.log; donor_logs; }
# donor N as the pager's log names it (its address, with the port or not)
dn() { echo "donor 10\.0\.0\.$1(:$DONOR_PORT)?"; }
moves_to() { grep -Ec "moved to $(dn $1) in" $LOG; }

step "a broker; donors 2 and 3 lend only against its grants"
rxe_up 3
broker_keys donor2 donor3 trainer
broker_up /tmp/broker.log
donor_up 2
donor_up 3
broker_knows /tmp/broker.log donor2
broker_knows /tmp/broker.log donor3
pass "broker and donors up"

step "device create --backend=ublk through the broker: 8 slabs x 1 copy, 12 s grants, a monitor"
disk=$(sparectl device create ub0 --backend=ublk size=128M slab_size=16M replicas=1 \
	source=10.0.0.1 key-file=/tmp/trainer.key $B lease=12) ||
	{ cat /tmp/broker.log; cat $LOG; donor_logs; fail "device create through the broker"; }
[ "$(($(lent 2) + $(lent 3)))" = 8 ] || { diag; fail "not every copy mapped"; }
# interval=60: a failed round would wait a minute; the moves need none
broker_monitor_up ub0 interval=60 standby=1
dd if=/dev/urandom of=/tmp/want bs=1M count=32 2>/dev/null
slabs_write "$disk"
slabs_verify "$disk" "written"
# X: the donor holding more copies evicts first; Y takes them
if [ "$(lent 2)" -ge "$(lent 3)" ]; then X=2 Y=3; else X=3 Y=2; fi
nx=$(lent $X)
# the monitor's first round: one standby slab on each donor
wait_until 20 grep -q "slab copies renewed, 1 standby per donor" /tmp/monitor.log ||
	{ cat /tmp/monitor.log; fail "the monitor did not renew"; }
pass "8 copies: $nx on donor $X, $(lent $Y) on donor $Y; every byte reads back"

step "donor $X gives every slab back: all $nx move to donor $Y"
donor_ctl $X evict all || fail "evict"
all_moved() { [ "$(moves_to $Y)" -ge "$nx" ]; }
wait_until 60 all_moved || { diag; fail "$(moves_to $Y) of $nx copies moved"; }
grep -E "waiting for a grant|takes it now|moved to donor" $LOG | sed 's/^/    /'
slabs_verify "$disk" "after the moves"
[ "$(lent $X)" = 0 ] && [ "$(lent $Y)" = 8 ] || fail "donor $X lends $(lent $X), donor $Y $(lent $Y)"
grep -q "cannot move" $LOG && { diag; fail "a copy went the old way"; }
grep -q "moved only in part" $LOG && { diag; fail "a move ran out of time"; }
# whether a copy waited depends on the grants' overlaps: each that did was
# mapped once its grant came
waited=$(grep -Ec "waiting for a grant on $(dn $Y)\$" $LOG)
[ "$(grep -Ec "$(dn $Y) takes it now" $LOG)" = "$waited" ] ||
	{ diag; fail "$waited moves waited for a grant, not all were mapped"; }
pass "$nx copies moved to donor $Y ($waited waited for a grant)"

step "standby=0: donor $X's grants run out; donor $Y evicts one slab; it waits for a grant on $X"
broker_monitor_down
: >/tmp/monitor.log
broker_monitor_up ub0 interval=60 standby=0
# donor X holds nothing: the monitor renews it no more, and its last grant,
# minted before the old monitor ended (12 s and 5 s of clock skew), runs out
sleep 20
w0=$(grep -Ec "waiting for a grant on $(dn $X)\$" $LOG)
r0=$(donor_metric $X spare_donor_map_grant_refusals_total)
donor_ctl $Y evict 1 || fail "evict 1"
back() { [ "$(moves_to $X)" -ge 1 ]; }
wait_until 40 back || { diag; fail "the slab did not move back"; }
grep -E "waiting for a grant|takes it now|moved to $(dn $X)" $LOG | tail -3 | sed 's/^/    /'
slabs_verify "$disk" "after the move back"
[ "$(grep -Ec "waiting for a grant on $(dn $X)\$" $LOG)" -gt "$w0" ] ||
	{ diag; fail "the move did not wait for a grant on donor $X"; }
[ "$(donor_metric $X spare_donor_map_grant_refusals_total)" -gt "$r0" ] || fail "donor $X refused no MAP"
[ "$(lent $X)" = 1 ] && [ "$(lent $Y)" = 7 ] || fail "donor $X lends $(lent $X), donor $Y $(lent $Y)"
grep -q "cannot move" $LOG && { diag; fail "a copy went the old way"; }
pass "the copy waited on the emptied donor, got its grant, and moved"

step "destroy; the donors lend nothing; the monitor ends"
sparectl device destroy ub0 || { cat $LOG; fail "destroy"; }
mon_done() { ! kill -0 "$MON_PID" 2>/dev/null; }
wait_until 15 mon_done || fail "the monitor outlived the device"
wait "$MON_PID" || { cat /tmp/monitor.log; fail "monitor exit"; }
none_lent() { [ "$(lent 2)" = 0 ] && [ "$(lent 3)" = 0 ]; }
wait_until 20 none_lent || fail "lent after destroy: $(lent 2) and $(lent 3)"
kill -TERM "$BROKER_PID"; wait "$BROKER_PID" || { cat /tmp/broker.log; fail "spare-broker exit"; }
check_dmesg
pass "every copy moved under the broker's grants, nothing lost"
