# SPDX-License-Identifier: GPL-2.0
# vm-backends: ublk kmod
# vm-kernels: last
#
# A broker-placed ec:4+2 device whose lost splits no donor it holds a
# grant for can take gets a new donor from the broker through
# "sparectl device monitor" (issue 34; the pager since session 50,
# spare.ko since session 51).
#
# A broker on host 2; six donors on hosts 2-7 register with it and lend
# only against its grants.
#   - "sparectl device create swap0 --backend=ublk|module size=128M
#     slab_size=16M redundancy=ec:4+2 broker=..." places both coding
#     groups on the six donors (12 grants); 128 MiB written read back;
#   - "sparectl device monitor ... standby=0" runs beside it; host 8
#     registers with the broker only now (the device knows nothing of it);
#   - the donor of split 0 of both groups is killed and stays down: after
#     the device's re-home delay (30 s, both) no donor of the device can
#     take its splits (the five others hold the groups), so
#       the pager lists both in NAME.moving, which the monitor reads;
#       spare.ko says each split waits for a donor, once, with a
#       slab_moving uevent naming the split slab and the donor it was lost
#       on (the same event as a moving copy's);
#     the monitor asks the broker for a donor the device does not use
#     (MOVE_REQ, avoiding the device's donors), gets slabs on host 8 and
#     adds it with its grant (the pager: its grants file and SIGHUP;
#     spare.ko: configfs grants, donors, domains); both splits re-home
#     there (the slab map shows them mapped there) and are rebuilt from
#     four others; every page verifies.
#   - the monitor stopped, the donor of split 1 of group 0 killed too: its
#     two splits wait for a donor (the five live donors of the device
#     hold the rest of their groups) with no monitor running to hear the
#     slab_moving uevent; the pager's NAME.moving and spare.ko's sysfs
#     `moving` list both; the monitor started only now reads that list in
#     its first round and asks the broker, which has no free donor and
#     refuses; host 9 registers with the broker only then; the monitor
#     asks again after its back-off, gets host 9 and adds it; both splits
#     re-home there and are rebuilt; the list empties; every page
#     verifies.
# Before session 50 the pager listed no split in NAME.moving and the
# splits waited for good ("no donor to rebuild it on"); before session 51
# spare.ko sent no uevent for a waiting split and its monitor knew no ec
# split, so host 8 was never asked for and the splits waited for good.
# Before session 53 spare.ko told a waiting split only by its one uevent:
# the monitor started after it never asked for host 9 (nor asked again
# after the refusal), and those splits waited for good (@kmod on 6.12
# with session 52's sparectl: "the monitor started late did not ask the
# broker for the waiting splits"; the pager's monitor already read
# NAME.moving every round).
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 780

B="broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key"
RUN=/run/spare/ublk
# ecn NAME: that field of the device's ec_stat (spare.ko's sysfs, the
# pager's counters file)
ecn() {
	if [ "$BACKEND" = kmod ]; then ecs "$1"
	else awk -v f="$(($(ec_field "$1") + 1))" '$1 == "ec_stat" {print $f}' "$RUN/swap0"; fi
}
# emap: the device's slab map
emap() { if [ "$BACKEND" = kmod ]; then client_map; else echo "$RUN/swap0.map"; fi; }
# elog: what the backend logged
elog() { if [ "$BACKEND" = kmod ]; then dmesg | grep spare; else cat "$RUN/swap0.log"; fi; }

step "keys; a broker; donors on hosts 2-7 registered with it, lending only against grants"
rxe_up 9
broker_keys donor2 donor3 donor4 donor5 donor6 donor7 donor8 donor9 trainer
broker_up /tmp/broker.log
for n in 2 3 4 5 6 7; do grant_donor $n donor$n; done
for n in 2 3 4 5 6 7; do broker_knows /tmp/broker.log donor$n; done
client_require
pass "broker and six donors up"

be=module; [ "$BACKEND" = ublk ] && be=ublk
step "an ec:4+2 device (--backend=$be) through the broker, a monitor beside it"
dmesg -c >/dev/null
# shellcheck disable=SC2086
disk=$(sparectl device create swap0 --backend=$be size=128M slab_size=16M redundancy=ec:4+2 \
	source=10.0.0.1 key-file=/tmp/trainer.key $B) ||
	{ cat /tmp/broker.log; elog | tail -30; donor_logs; fail "ec device create through the broker"; }
[ -b "/dev/$disk" ] || fail "no /dev/$disk"
mapped() { [ "$(awk '$6 == "mapped"' "$(emap)" 2>/dev/null | wc -l)" = 12 ]; }
wait_until 30 mapped || { cat "$(emap)"; elog | tail -30; fail "not every split slab mapped"; }
dd if=/dev/urandom of=/tmp/want bs=1M count=128 2>/dev/null || fail "pattern"
dd if=/tmp/want of="/dev/$disk" bs=256K oflag=direct 2>/dev/null || fail "write $disk"
want_verify "after the first write"
# shellcheck disable=SC2086
sparectl device monitor swap0 $B lease=600 standby=0 2>/tmp/monitor.log &
monpid=$!
grant_donor 8 donor8
broker_knows /tmp/broker.log donor8
grep -q "10\.0\.0\.8:" "$(emap)" && fail "host 8 holds a split before it was asked for"
if [ "$BACKEND" = kmod ]; then
	grep -q "10\.0\.0\.8:" "$CFS/swap0/donors" && fail "host 8 is a donor of the device already"
fi
pass "12 splits mapped on hosts 2-7, 128 MiB verify; host 8 registered, unknown to the device"

step "the donor of split 0 killed: the monitor gets a new donor from the broker, the splits re-home there"
va=$(awk '$2 == 0 {print $5}' "$(emap)")
vn=${va%:*}; vn=${vn##*.}
echo "killing host $vn ($va)"
kill -KILL "$(donor_pid "$vn")"
t0=$(cut -d' ' -f1 /proc/uptime)
if [ "$BACKEND" = kmod ]; then
	on8() { dmesg | grep -c "re-homed from donor 10.0.0.$vn:$DONOR_PORT (down) to donor 10.0.0.8:$DONOR_PORT"; }
else
	on8() { grep -c "coding group [0-9]*: split [0-9]* now on donor 10.0.0.8 (was on 10.0.0.$vn)" "$RUN/swap0.log"; }
fi
whole() { [ "$(on8)" = 2 ] && [ "$(ecn lost_now)" = 0 ] && [ "$(ecn rebuilding)" = 0 ]; }
wait_until 150 whole ||
	{ elog | tail -30; cat /tmp/monitor.log "$RUN/swap0.moving" "$(emap)" 2>/dev/null;
	  fail "host $vn's splits not re-homed to host 8 and rebuilt"; }
t1=$(cut -d' ' -f1 /proc/uptime)
kill "$monpid" && wait "$monpid"
echo "the monitor's log:"; sed 's/^/    /' /tmp/monitor.log
elog | grep -E "waits for|added|re-homed|now on donor 10.0.0.8|current again" | sed 's/^/    /'
if [ "$BACKEND" = kmod ]; then
	# once per split and wait, not on every retry of the re-home (6 s)
	[ "$(dmesg | grep -c "split [0-9] lost on donor 10.0.0.$vn:$DONOR_PORT waits for a donor: every live donor holds a split of the group .*; asking for one (slab_moving)")" = 2 ] ||
		fail "spare.ko did not say once for each of the two splits that it waits for a donor"
	[ "$(grep -c "uevent slab_moving from 10.0.0.$vn:$DONOR_PORT" /tmp/monitor.log)" = 2 ] ||
		fail "the monitor did not get one slab_moving uevent for each of the two splits"
	grep -q "no donor of the device can take split slab [0-9]*, lost on 10.0.0.$vn:$DONOR_PORT" /tmp/monitor.log ||
		fail "the monitor did not find that no donor of the device takes the split"
	grep -q "split slabs\? moving to 10.0.0.8:$DONOR_PORT, a donor the device did not use" /tmp/monitor.log ||
		fail "the monitor did not add host 8 for the splits"
	grep -q "10\.0\.0\.8:$DONOR_PORT" "$CFS/swap0/donors" || fail "host 8 not in the device's donors"
	grep -q " 10\.0\.0\.8:$DONOR_PORT " "$CFS/swap0/grants" || fail "no grant for host 8 in the device"
else
	grep -q "split 0 lost and no donor to rebuild it on (.*); it waits for one (listed in NAME.moving" "$RUN/swap0.log" ||
		fail "the pager did not say the split waits for a donor, listed in NAME.moving"
	grep -q "2 split slabs wait for a donor" /tmp/monitor.log ||
		fail "the monitor did not ask for a donor for the 2 split slabs"
	grep -q "2 slab(s) on 10.0.0.8:$DONOR_PORT granted" /tmp/monitor.log ||
		fail "no grant of 2 slabs on host 8 from the broker"
	grep -q "donor 10.0.0.8:$DONOR_PORT: added (a new grant names it)" "$RUN/swap0.log" ||
		fail "the pager did not add host 8 by the monitor's grant"
	[ ! -e "$RUN/swap0.moving" ] || { cat "$RUN/swap0.moving"; fail "NAME.moving still there"; }
fi
[ "$(awk '$5 == "10.0.0.8:'"$DONOR_PORT"'" && $6 == "mapped"' "$(emap)" | wc -l)" = 2 ] ||
	{ cat "$(emap)"; fail "the slab map does not show two splits mapped on host 8"; }
[ "$(ecn remapped)" -ge 2 ] || fail "ec_stat remapped $(ecn remapped)"
want_verify "after the re-home to a new donor"
pass "a new donor from the broker through the monitor (MOVE_REQ), both splits re-homed there and rebuilt in $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s; every page verifies"

step "the monitor stopped, split 1's donor killed: the splits wait listed; a monitor started later, refused at first, gets host 9"
wa=$(awk '$2 == 1 {print $5}' "$(emap)")
wn=${wa%:*}; wn=${wn##*.}
[ "$wn" != 8 ] && [ "$wn" != "$vn" ] || fail "split 1 of group 0 on host $wn"
echo "killing host $wn ($wa); no monitor runs"
# elist: what the backend lists as waiting for a donor
if [ "$BACKEND" = kmod ]; then elist() { cat "/sys/block/$disk/spare/moving"; }
else elist() { cat "$RUN/swap0.moving" 2>/dev/null; }; fi
listed() { [ "$(elist | grep -c " 10\.0\.0\.$wn:$DONOR_PORT\$")" = 2 ]; }
kill -KILL "$(donor_pid "$wn")"
t0=$(cut -d' ' -f1 /proc/uptime)
wait_until 120 listed ||
	{ elist; elog | tail -30; fail "the two splits lost on host $wn not listed as waiting for a donor"; }
echo "listed waiting:"; elist | sed 's/^/    /'
if [ "$BACKEND" = kmod ]; then
	[ "$(stat -c %a "/sys/block/$disk/spare/moving")" = 400 ] ||
		fail "sysfs moving names donors but is not root-only"
	[ "$(dmesg | grep -c "split [0-9] lost on donor 10.0.0.$wn:$DONOR_PORT waits for a donor: every live donor holds a split of the group")" = 2 ] ||
		fail "spare.ko did not say once for each split lost on host $wn that it waits for a donor"
fi
# shellcheck disable=SC2086
sparectl device monitor swap0 $B lease=600 standby=0 2>/tmp/monitor2.log &
monpid=$!
refused() { grep -q "no broker granted [0-9]* slab(s) on a donor outside the" /tmp/monitor2.log; }
wait_until 90 refused ||
	{ cat /tmp/monitor2.log; elist; fail "the monitor started late did not ask the broker for the waiting splits"; }
grep -q "10\.0\.0\.9:" "$(emap)" && fail "host 9 holds a split before it registered"
grant_donor 9 donor9
broker_knows /tmp/broker.log donor9
if [ "$BACKEND" = kmod ]; then
	on9() { dmesg | grep -c "re-homed from donor 10.0.0.$wn:$DONOR_PORT (down) to donor 10.0.0.9:$DONOR_PORT"; }
else
	on9() { grep -c "coding group [0-9]*: split [0-9]* now on donor 10.0.0.9 (was on 10.0.0.$wn)" "$RUN/swap0.log"; }
fi
whole9() { [ "$(on9)" = 2 ] && [ "$(ecn lost_now)" = 0 ] && [ "$(ecn rebuilding)" = 0 ]; }
wait_until 180 whole9 ||
	{ elog | tail -30; cat /tmp/monitor2.log; elist; cat "$(emap)";
	  fail "host $wn's splits not re-homed to host 9 and rebuilt"; }
t1=$(cut -d' ' -f1 /proc/uptime)
kill "$monpid" && wait "$monpid"
echo "the late monitor's log:"; sed 's/^/    /' /tmp/monitor2.log
[ -z "$(elist)" ] || { elist; fail "splits still listed as waiting once re-homed"; }
[ "$(grep -c "uevent slab_moving" /tmp/monitor2.log)" = 0 ] ||
	fail "the late monitor heard a slab_moving uevent: the step does not test a missed one"
if [ "$BACKEND" = kmod ]; then
	grep -q "2 split slab(s) wait for a donor (sysfs moving" /tmp/monitor2.log ||
		fail "the monitor did not read the waiting splits from sysfs moving"
	grep -q "no donor for them yet: asked again in [0-9]* s" /tmp/monitor2.log ||
		fail "the monitor did not say it asks again after the refusal"
	grep -q "split slabs\? moving to 10.0.0.9:$DONOR_PORT, a donor the device did not use" /tmp/monitor2.log ||
		fail "the monitor did not add host 9 for the splits"
	grep -q " 10\.0\.0\.9:$DONOR_PORT " "$CFS/swap0/grants" || fail "no grant for host 9 in the device"
else
	grep -q "2 slab(s) on 10.0.0.9:$DONOR_PORT granted" /tmp/monitor2.log ||
		fail "no grant of 2 slabs on host 9 from the broker"
fi
# one donor asked for and given: no second while host 9 was being added
[ "$(grep -c "10\.0\.0\.9:$DONOR_PORT" "$(emap)")" = 2 ] || { cat "$(emap)"; fail "host 9 holds other than the two splits"; }
[ "$(awk '$5 == "10.0.0.9:'"$DONOR_PORT"'" && $6 == "mapped"' "$(emap)" | wc -l)" = 2 ] ||
	{ cat "$(emap)"; fail "the slab map does not show two splits mapped on host 9"; }
[ "$(ecn remapped)" -ge 4 ] || fail "ec_stat remapped $(ecn remapped)"
want_verify "after the re-home to the late monitor's donor"
pass "splits waiting with no monitor were listed; a monitor started later, refused at first, got host 9 from the broker; both re-homed and rebuilt in $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s; every page verifies"

if [ "$BACKEND" = kmod ]; then
	client_down
else
	sparectl device destroy swap0 || { tail -20 "$RUN/swap0.log"; fail "sparectl device destroy swap0"; }
	[ ! -e "/dev/$disk" ] || fail "/dev/$disk still there"
fi
