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
# Before session 50 the pager listed no split in NAME.moving and the
# splits waited for good ("no donor to rebuild it on"); before session 51
# spare.ko sent no uevent for a waiting split and its monitor knew no ec
# split, so host 8 was never asked for and the splits waited for good.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 600

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
rxe_up 8
broker_keys donor2 donor3 donor4 donor5 donor6 donor7 donor8 trainer
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

if [ "$BACKEND" = kmod ]; then
	client_down
else
	sparectl device destroy swap0 || { tail -20 "$RUN/swap0.log"; fail "sparectl device destroy swap0"; }
	[ ! -e "/dev/$disk" ] || fail "/dev/$disk still there"
fi
