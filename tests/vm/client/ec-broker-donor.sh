# SPDX-License-Identifier: GPL-2.0
# vm-backends: ublk
# vm-kernels: last
#
# A broker-placed ec:4+2 pager device whose lost splits no donor it holds
# a grant for can take gets a new donor from the broker through
# "sparectl device monitor" (issue 34, session 50).
#
# A broker on host 2; six donors on hosts 2-7 register with it and lend
# only against its grants.
#   - "sparectl device create swap0 --backend=ublk size=128M slab_size=16M
#     redundancy=ec:4+2 broker=..." places both coding groups on the six
#     donors (12 grants); 128 MiB written read back;
#   - "sparectl device monitor ... standby=0" runs beside it; host 8
#     registers with the broker only now (the device knows nothing of it);
#   - the donor of split 0 of both groups is killed and stays down: after
#     the pager's re-home delay (30 s) no donor of the device can take its
#     splits (the five others hold the groups), so the pager lists both in
#     NAME.moving; the monitor asks the broker for a donor the device does
#     not use (MOVE_REQ, avoiding the device's donors), gets 2 slabs on
#     host 8, appends the grant and sends SIGHUP; the pager adds host 8 and
#     both splits re-home there (its NAME.map shows them mapped there) and
#     are rebuilt from four others; NAME.moving goes; every page verifies.
# Before session 50 the pager listed no split in NAME.moving and the
# splits waited for good ("no donor to rebuild it on"); spare.ko's
# monitor does not ask for such a donor yet, so this runs on the pager
# only (its module counterpart waits, as client/ec-broker shows).
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 600

B="broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key"
RUN=/run/spare/ublk
ecn() { awk -v f="$(($(ec_field "$1") + 1))" '$1 == "ec_stat" {print $f}' "$RUN/swap0"; }

step "keys; a broker; donors on hosts 2-7 registered with it, lending only against grants"
rxe_up 8
broker_keys donor2 donor3 donor4 donor5 donor6 donor7 donor8 trainer
broker_up /tmp/broker.log
for n in 2 3 4 5 6 7; do grant_donor $n donor$n; done
for n in 2 3 4 5 6 7; do broker_knows /tmp/broker.log donor$n; done
client_require
pass "broker and six donors up"

step "an ec:4+2 pager device through the broker, a monitor beside it"
# shellcheck disable=SC2086
disk=$(sparectl device create swap0 --backend=ublk size=128M slab_size=16M redundancy=ec:4+2 \
	source=10.0.0.1 key-file=/tmp/trainer.key $B) ||
	{ cat /tmp/broker.log; tail -30 "$RUN/swap0.log"; donor_logs; fail "ec device create through the broker"; }
[ -b "/dev/$disk" ] || fail "no /dev/$disk"
mapped() { [ "$(awk '$6 == "mapped"' "$RUN/swap0.map" 2>/dev/null | wc -l)" = 12 ]; }
wait_until 30 mapped || { cat "$RUN/swap0.map"; tail -30 "$RUN/swap0.log"; fail "not every split slab mapped"; }
dd if=/dev/urandom of=/tmp/want bs=1M count=128 2>/dev/null || fail "pattern"
dd if=/tmp/want of="/dev/$disk" bs=256K oflag=direct 2>/dev/null || fail "write $disk"
want_verify "after the first write"
# shellcheck disable=SC2086
sparectl device monitor swap0 $B lease=600 standby=0 2>/tmp/monitor.log &
monpid=$!
grant_donor 8 donor8
broker_knows /tmp/broker.log donor8
grep -q "10\.0\.0\.8:" "$RUN/swap0.map" && fail "host 8 holds a split before it was asked for"
pass "12 splits mapped on hosts 2-7, 128 MiB verify; host 8 registered, unknown to the device"

step "the donor of split 0 killed: the monitor gets a new donor from the broker, the splits re-home there"
va=$(awk '$2 == 0 {print $5}' "$RUN/swap0.map")
vn=${va%:*}; vn=${vn##*.}
echo "killing host $vn ($va)"
kill -KILL "$(donor_pid "$vn")"
t0=$(cut -d' ' -f1 /proc/uptime)
on8() { grep -c "coding group [0-9]*: split [0-9]* now on donor 10.0.0.8 (was on 10.0.0.$vn)" "$RUN/swap0.log"; }
whole() { [ "$(on8)" = 2 ] && [ "$(ecn lost_now)" = 0 ] && [ "$(ecn rebuilding)" = 0 ]; }
wait_until 150 whole ||
	{ tail -30 "$RUN/swap0.log"; cat /tmp/monitor.log "$RUN/swap0.moving" "$RUN/swap0.map" 2>/dev/null;
	  fail "host $vn's splits not re-homed to host 8 and rebuilt"; }
t1=$(cut -d' ' -f1 /proc/uptime)
kill "$monpid" && wait "$monpid"
echo "the monitor's log:"; sed 's/^/    /' /tmp/monitor.log
grep -E "waits for one|added \(a new grant|now on donor 10.0.0.8|current again" "$RUN/swap0.log" | sed 's/^/    /'
grep -q "split 0 lost and no donor to rebuild it on (.*); it waits for one (listed in NAME.moving" "$RUN/swap0.log" ||
	fail "the pager did not say the split waits for a donor, listed in NAME.moving"
grep -q "2 split slabs wait for a donor" /tmp/monitor.log ||
	fail "the monitor did not ask for a donor for the 2 split slabs"
grep -q "2 slab(s) on 10.0.0.8:$DONOR_PORT granted" /tmp/monitor.log ||
	fail "no grant of 2 slabs on host 8 from the broker"
grep -q "donor 10.0.0.8:$DONOR_PORT: added (a new grant names it)" "$RUN/swap0.log" ||
	fail "the pager did not add host 8 by the monitor's grant"
[ ! -e "$RUN/swap0.moving" ] || { cat "$RUN/swap0.moving"; fail "NAME.moving still there"; }
[ "$(awk '$5 == "10.0.0.8:'"$DONOR_PORT"'" && $6 == "mapped"' "$RUN/swap0.map" | wc -l)" = 2 ] ||
	{ cat "$RUN/swap0.map"; fail "the slab map does not show two splits mapped on host 8"; }
[ "$(ecn remapped)" -ge 2 ] || fail "ec_stat remapped $(ecn remapped)"
want_verify "after the re-home to a new donor"
pass "a new donor from the broker through the monitor (MOVE_REQ), both splits re-homed there and rebuilt in $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s; every page verifies"

sparectl device destroy swap0 || { tail -20 "$RUN/swap0.log"; fail "sparectl device destroy swap0"; }
[ ! -e "/dev/$disk" ] || fail "/dev/$disk still there"
