# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
#
# spare-ublk placed by spare-broker (issue 10: `sparectl device create
# --backend=ublk` with the module backend's broker= settings). A broker on
# host 2; donors 2 and 3 (racks 2 and 3) register with it and lend only
# against its grants, to the authenticated client "trainer".
#   - refused at once, nothing left behind: broker= with donors=; a broker
#     key the broker does not know (the broker refuses, sparectl says so);
#   - "sparectl device create ub0 --backend=ublk ... broker=": sparectl asks
#     the broker for 8 slabs x 2 copies and writes the grants to
#     /etc/spare/ublk-ub0.grants (mode 0600) and the config names that
#     file and no donor; spare-ublk takes its donors and the placement of
#     every copy from the grants, both donors accept their 8 grants, no MAP
#     is refused, and every copy of a slab is on a different donor; the
#     config gives the donors' failure domains (racks 2 and 3: 0,1), as
#     sparectl's plan numbers them;
#   - a job of 4x its cgroup swaps on it, every page verified; meanwhile
#     "sparectl device renew" sends the broker back the device's 16 grants
#     (RENEW_GRANT), rewrites them in place with their new expiry and sends
#     the pager SIGHUP: it reads the file again and sends the donors the
#     renewals, which extend the grants they hold (nothing new accepted);
#   - "sparectl device monitor" (30 s leases) renews at once, for one
#     standby slab per donor (the one new grant each: RENEW_REQ still), then
#     again a third of the lease before the grants end, all 18 sent back;
#     the pager reads each renewal;
#   - destroy removes the config and the grants; the donors lend nothing;
#     the monitor ends by itself.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
watchdog 400
ublk_require

B="broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key"

step "keys; a broker; donors 2 and 3 registered with it, lending only against grants"
rxe_up 3
broker_keys donor2 donor3 trainer
broker_up /tmp/broker.log
grant_donor 2 donor2 --domain rack2
grant_donor 3 donor3 --domain rack3
broker_knows /tmp/broker.log donor2
broker_knows /tmp/broker.log donor3
pass "broker and donors up"

step "refused with a reason, nothing left behind"
rc=0
sparectl device create bad --backend=ublk size=64M slab_size=16M donors=10.0.0.2 $B \
	2>/tmp/bad.log || rc=$?
cat /tmp/bad.log
[ "$rc" = 2 ] && grep -q 'broker= places the slabs' /tmp/bad.log || fail "broker= with donors=: exit $rc"
(umask 077; sparectl gen-key >/tmp/stranger.key) || fail "gen-key"
rc=0
sparectl device create bad --backend=ublk size=64M slab_size=16M source=10.0.0.1 \
	key-file=/tmp/trainer.key broker=$BROKER broker-name=trainer \
	broker-key=/tmp/stranger.key 2>/tmp/bad.log || rc=$?
cat /tmp/bad.log
[ "$rc" = 1 ] && grep -qi 'broker' /tmp/bad.log || fail "an unknown broker key: exit $rc"
ls /etc/spare/ublk-bad.* 2>/dev/null && fail "a refused create left files"
ls /dev/ublkb* 2>/dev/null && fail "a refused create left a device"
[ "$(donor_metric 2 spare_donor_slabs_lent)" = 0 ] && [ "$(donor_metric 3 spare_donor_slabs_lent)" = 0 ] || fail "donors lent slabs"
pass "broker= with donors=, and a key the broker refuses"

step "sparectl device create --backend=ublk through the broker: 8 slabs x 2 copies"
disk=$(sparectl device create ub0 --backend=ublk size=128M slab_size=16M replicas=2 \
	source=10.0.0.1 key-file=/tmp/trainer.key $B lease=60) ||
	{ cat /tmp/broker.log; cat /run/spare/ublk/ub0.log; donor_logs; fail "device create through the broker"; }
echo "created $disk"
cat /etc/spare/ublk-ub0.conf
grep -qx 'grant-file = /etc/spare/ublk-ub0.grants' /etc/spare/ublk-ub0.conf ||
	fail "the config names no grants file"
grep -q '^donor' /etc/spare/ublk-ub0.conf && fail "the config lists donors: the grants place it"
[ "$(stat -c %a /etc/spare/ublk-ub0.grants)" = 600 ] || fail "grants file mode $(stat -c %a /etc/spare/ublk-ub0.grants)"
[ "$(grep -c '^[0-9a-f]\{512\}$' /etc/spare/ublk-ub0.grants)" = 16 ] || fail "not 16 grants in the file"
grep -q "trainer: granted 8 slab(s) x 2 copies" /tmp/broker.log ||
	{ cat /tmp/broker.log; fail "the broker logged no grant"; }
grep -q -- '--grant-file: 8 slab(s) x 2 copies on 2 donor(s)' /run/spare/ublk/ub0.log ||
	{ cat /run/spare/ublk/ub0.log; fail "spare-ublk was not placed by its grants"; }
# the donors' racks, numbered by sparectl's plan, for the pager's moves
grep -qx 'domains = 0,1' /etc/spare/ublk-ub0.conf || fail "the config has not the donors' domains"
grep -q 'failure domains 0,1 of donors 0..1' /run/spare/ublk/ub0.log ||
	{ cat /run/spare/ublk/ub0.log; fail "spare-ublk did not take the domains"; }
[ "$(donor_metric 2 spare_donor_grants_accepted_total)" = 8 ] && [ "$(donor_metric 3 spare_donor_grants_accepted_total)" = 8 ] ||
	fail "grants accepted: $(donor_metric 2 spare_donor_grants_accepted_total) and $(donor_metric 3 spare_donor_grants_accepted_total)"
[ "$(donor_metric 2 spare_donor_map_grant_refusals_total)" = 0 ] && [ "$(donor_metric 3 spare_donor_map_grant_refusals_total)" = 0 ] ||
	fail "a MAP was refused for want of a grant"
# two copies of each of the 8 slabs, one on each donor
[ "$(donor_metric 2 spare_donor_slabs_lent)" = 8 ] && [ "$(donor_metric 3 spare_donor_slabs_lent)" = 8 ] ||
	fail "slabs lent: $(donor_metric 2 spare_donor_slabs_lent) and $(donor_metric 3 spare_donor_slabs_lent)"
pass "placed by the broker's grants, every copy mapped"

step "a job of 4x its cgroup swaps on it; renewed meanwhile; every page verified"
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon"
ublk_cg work ${WL_CG_MB}M
workload_start 2
workload_swapped 1000
# the device's 16 grants sent back (RENEW_GRANT), rewritten in place, SIGHUP
ids() { grep '^[0-9a-f]\{512\}$' /etc/spare/ublk-ub0.grants | cut -c17-48; }	# the grant ids
ids >/tmp/ids-before
# each grant a donor takes is one line, "...; N slab(s) granted in all"
# (the trainer's budget there): count them, and read the last one's N
glines() { grep -c 'slab(s) granted in all' "/tmp/spared-$1.log"; }
budget() {	# N: both donors lend the trainer N slabs, all its grants together
	local n
	for n in 2 3; do
		[ "$(grep 'slab(s) granted in all' "/tmp/spared-$n.log" | tail -1 |
			sed 's/.*; \([0-9]*\) slab(s) granted in all$/\1/')" = "$1" ] || return 1
	done
}
g2=$(glines 2) g3=$(glines 3)
sparectl device renew ub0 $B lease=900 || { cat /tmp/broker.log; fail "renew"; }
[ "$(grep -c '^[0-9a-f]\{512\}$' /etc/spare/ublk-ub0.grants)" = 16 ] || fail "not 16 grants in the file"
ids | cmp -s - /tmp/ids-before || fail "the renewal did not keep the grants' ids, in place"
[ "$(stat -c %a /etc/spare/ublk-ub0.grants)" = 600 ] || fail "grants file mode after renew"
wait_for 100 grep -q 'SIGHUP: 16 grant(s) in /etc/spare/ublk-ub0.grants, 16 new' /run/spare/ublk/ub0.log ||
	{ cat /run/spare/ublk/ub0.log; fail "the pager did not read its grants again"; }
# each donor takes its 8 renewals, and still lends the trainer 8 slabs
# (a known id extends its grant; one it had purged, expired, counts anew)
wait_until 10 sh -c "[ \$(grep -c 'slab(s) granted in all' /tmp/spared-2.log) -ge $((g2 + 8)) ] &&
	[ \$(grep -c 'slab(s) granted in all' /tmp/spared-3.log) -ge $((g3 + 8)) ]" ||
	{ tail -20 /tmp/spared-2.log /tmp/spared-3.log; fail "the donors did not take 8 renewals each"; }
budget 8 || { tail -20 /tmp/spared-2.log /tmp/spared-3.log; fail "a donor lends the trainer other than 8 slabs after the renewal"; }
[ "$(grep -c 'trainer: renewed 8 grant(s)' /tmp/broker.log)" = 2 ] ||
	{ cat /tmp/broker.log; fail "the broker did not re-issue 8 grants on each donor"; }
grep -q 'trainer: renewed .* slab(s) on' /tmp/broker.log &&
	{ cat /tmp/broker.log; fail "device renew minted a grant (RENEW_REQ)"; }
workload_wait
swapoff "/dev/$disk" || fail "swapoff"
pass "swapped through a broker-placed spare-ublk, renewed while it ran"

step "sparectl device monitor renews the grants before they end, one standby slab per donor"
sparectl device monitor ub0 $B lease=30 interval=2 >/tmp/mon.log 2>&1 &
MON_PID=$!
# A donor lends against all the unexpired grants together: its 8 (1 slab
# each, renewed for 900 s). 8 copies and a standby slab need one more: due
# at once; the 8 are sent back (30 s now) and the standby slab asked for.
wait_until 30 budget 9 || { cat /tmp/mon.log; tail -5 /tmp/spared-2.log /tmp/spared-3.log; fail "first round: the donors do not lend the trainer 9 slabs"; }
grep -q 'device ub0: 16 slab copies renewed, 1 standby per donor' /tmp/mon.log ||
	{ cat /tmp/mon.log; fail "the monitor did not say what it renewed"; }
t_first=$(cut -d' ' -f1 /proc/uptime)
# then again a third of the 35 s grant (30 s lease, 5 s of clock skew)
# before it ends
second() { grep -q 'SIGHUP: 18 grant(s) in /etc/spare/ublk-ub0.grants, 18 new' /run/spare/ublk/ub0.log; }
wait_until 45 second || { cat /tmp/mon.log; cat /run/spare/ublk/ub0.log; fail "no second round before the grants ended"; }
t_second=$(cut -d' ' -f1 /proc/uptime)
echo "second round $(awk -v a="$t_first" -v b="$t_second" 'BEGIN {printf "%.0f", b - a}') s after the first"
awk -v a="$t_first" -v b="$t_second" 'BEGIN {exit !(b - a >= 15 && b - a <= 30)}' ||
	fail "the second round came at the wrong time"
# the second round sent all 9 back on each donor and minted nothing
budget 9 || { tail -5 /tmp/spared-2.log /tmp/spared-3.log; fail "after the second round a donor lends the trainer other than 9 slabs"; }
# the standby slab is new room: asked with ROOM_REQ (debited), never minted
# by the old RENEW_REQ
[ "$(grep -c 'trainer: room for 1 slab(s) on 10.0.0.[23]:18515' /tmp/broker.log)" = 2 ] ||
	{ cat /tmp/broker.log; fail "not one standby slab asked for on each donor"; }
grep -q 'trainer: renewed .* slab(s) on' /tmp/broker.log &&
	{ cat /tmp/broker.log; fail "the monitor minted a grant (RENEW_REQ)"; }
[ "$(grep -c 'trainer: renewed 9 grant(s)' /tmp/broker.log)" -ge 2 ] ||
	{ cat /tmp/broker.log; fail "the second round did not send each donor's 9 grants back"; }
pass "renewed at once for the standby slab, then before the lease ran out"

step "destroy: config and grants removed, the donors lend nothing; the monitor ends"
G1=$(grep -m1 '^[0-9a-f]\{512\}$' /etc/spare/ublk-ub0.grants)
sparectl device destroy ub0 || { cat /run/spare/ublk/ub0.log; fail "destroy"; }
mon_done() { ! kill -0 "$MON_PID" 2>/dev/null; }
wait_until 15 mon_done || fail "the monitor outlived the device"
wait "$MON_PID" || { cat /tmp/mon.log; fail "monitor exit $?"; }
cat /tmp/mon.log
grep -q 'device ub0: removed; monitor ends' /tmp/mon.log || fail "monitor end not logged"
[ ! -e /etc/spare/ublk-ub0.conf ] && [ ! -e /etc/spare/ublk-ub0.grants ] || fail "destroy left files"
[ ! -e "/dev/$disk" ] || fail "/dev/$disk still there"
wait_for 50 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-2.sock status |
	awk '\$1 == \"spare_donor_slabs_lent\" {print \$2}')\" = 0 ]" || fail "donor 2 still lends"
wait_for 50 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-3.sock status |
	awk '\$1 == \"spare_donor_slabs_lent\" {print \$2}')\" = 0 ]" || fail "donor 3 still lends"
# no credential in any log: the keys, and a grant (a bearer credential)
for secret in "$G1" "$(cut -c9- /tmp/trainer.key)" "$(cut -c9- /tmp/b-trainer.key)"; do
	grep -qF "$secret" /run/spare/ublk/ub0.log /tmp/broker.log /tmp/spared-2.log \
		/tmp/spared-3.log /tmp/mon.log && fail "a secret in a log"
done
pass "destroyed cleanly"

kill -TERM "$BROKER_PID"; wait "$BROKER_PID" || { cat /tmp/broker.log; fail "spare-broker exit"; }
check_dmesg
