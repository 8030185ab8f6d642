# SPDX-License-Identifier: GPL-2.0
# vm-backends: kmod
# vm-kernels: last
#
# A broker-placed ec:4+2 device on spare.ko (issue 34): its splits
# re-home only onto donors the device holds grants for.
#
# A broker on host 2; seven donors on hosts 2-8 register with it and lend
# only against its grants.
#   - "sparectl device create swap0 --backend=module size=128M slab_size=16M
#     redundancy=ec:4+2 broker=..." asks the broker for the device's two
#     coding groups (STRIPE_REQ) and writes donors, placement, domains and
#     the 12 grants, one per split slab, group-major: every split maps, no
#     MAP is refused for want of a grant, and 128 MiB written read back.
#     The broker puts both groups on the same six donors (its CodingSets
#     placement), so host 8 holds nothing;
#   - host 9, a donor lending only against grants of this broker but not
#     registered with it, and then host 8 are appended to the device's
#     donors while it runs (as an admin, or a monitor's MOVE_REQ, would);
#     "sparectl device monitor ... standby=2 once" asks the broker for two
#     more slabs of room on every donor of the device (ROOM_REQ): granted
#     on hosts 2-8, refused on host 9, which the broker does not know. So
#     host 9 is live in the device without a grant, and refuses its MAPs;
#   - the donor of group 0's split 0 (a split of both groups) is killed
#     and stays down: after the device's re-home delay (30 s, sparectl's
#     default) each of its two splits re-homes to host 8, the granted
#     donor outside the groups, never to host 9, which is as empty and
#     comes first in the donors; both are mapped and rebuilt from four
#     others, host 9 holds nothing and was asked no MAP, and every page
#     verifies.
# On session 43's module (seen, 6.12) group 0's split went to host 9 (the
# fewest split slabs, the lowest index; grants not looked at), whose donor
# refused its MAP every 6 s ("no valid grant covers it"): never mapped, so
# the device never became whole again (the check of the rebuild failed).
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/client.inc
set -u
watchdog 600

B="broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key"

step "keys; a broker; donors on hosts 2-8 registered with it, lending only against grants"
rxe_up 9
broker_keys donor2 donor3 donor4 donor5 donor6 donor7 donor8 donor9 trainer
broker_up /tmp/broker.log
for n in 2 3 4 5 6 7 8; do grant_donor $n donor$n; done
for n in 2 3 4 5 6 7 8; do broker_knows /tmp/broker.log donor$n; done
client_require
pass "broker and seven donors up"

step "sparectl device create --backend=module redundancy=ec:4+2 through the broker"
dmesg -c >/dev/null
# shellcheck disable=SC2086
disk=$(sparectl device create swap0 --backend=module size=128M slab_size=16M redundancy=ec:4+2 \
	source=10.0.0.1 key-file=/tmp/trainer.key $B) ||
	{ cat /tmp/broker.log; dmesg | tail -30; donor_logs; fail "ec device create through the broker"; }
[ -b "/dev/$disk" ] || fail "no /dev/$disk"
echo "donors:    $(cat "$CFS/swap0/donors")"
echo "placement: $(cat "$CFS/swap0/placement")"
[ "$(cat "$CFS/swap0/redundancy")" = ec:4+2 ] || fail "redundancy: $(cat "$CFS/swap0/redundancy")"
[ "$(tr ',' '\n' <"$CFS/swap0/placement" | grep -c .)" = 12 ] ||
	fail "placement: $(cat "$CFS/swap0/placement"), want 12 split slabs"
[ "$(grep -c . "$CFS/swap0/grants")" = 12 ] || { cat "$CFS/swap0/grants"; fail "not 12 grants"; }
mapped() { [ "$(client_mapped)" = 12 ]; }
wait_until 30 mapped || { show_stats "$disk"; fail "not every split slab mapped"; }
for n in 2 3 4 5 6 7 8; do
	[ "$(donor_metric $n spare_donor_map_grant_refusals_total)" = 0 ] ||
		fail "host $n refused a MAP for want of a grant"
done
dd if=/dev/urandom of=/tmp/want bs=1M count=128 2>/dev/null || fail "pattern"
dd if=/tmp/want of="/dev/$disk" bs=256K oflag=direct 2>/dev/null || fail "write $disk"
want_verify "after the first write"
pass "two coding groups placed by the broker, 12 grants, every split mapped, 128 MiB verify"

step "hosts 9 (no grant of the device) and 8 appended; two more slabs of room on each donor"
# host 9 lends only against the broker's grants but does not report to it
donor_start 9 --budget 256M --slab-size 16M --host-keys /tmp/host-keys \
	--grant-public-keys /tmp/grant.pub --grant-key-file /tmp/grant.key --name donor9
for a in 10.0.0.9 10.0.0.8; do
	echo "$(cat "$CFS/swap0/donors"),$a:$DONOR_PORT" >"$CFS/swap0/donors" ||
		fail "appending $a to the donors"
done
live98() {
	[ "$(donor_field 10.0.0.9 state)" = live ] && [ "$(donor_field 10.0.0.8 state)" = live ]
}
wait_until 30 live98 || { cat "/sys/block/$disk/spare/donor_stat"; fail "hosts 9 and 8 not live"; }
# shellcheck disable=SC2086
sparectl device monitor swap0 $B lease=600 standby=2 once 2>/tmp/monitor.log
cat /tmp/monitor.log
grep -q " 10.0.0.8:$DONOR_PORT " "$CFS/swap0/grants" || { cat "$CFS/swap0/grants"; fail "no room granted on host 8"; }
grep -q " 10.0.0.9:$DONOR_PORT " "$CFS/swap0/grants" && fail "the device holds a grant for host 9"
pass "hosts 9 and 8 live in the device, $(grep -c . "$CFS/swap0/grants") grants, none for host 9"

step "the donor of group 0's split 0 killed: its splits re-home to granted donors only"
vi=$(cut -d, -f1 "$CFS/swap0/placement")
va=$(cut -d, -f$((vi + 1)) "$CFS/swap0/donors")
vn=${va%:*}; vn=${vn##*.}
echo "killing host $vn ($va)"
kill -KILL "$(donor_pid "$vn")"
t0=$(cut -d' ' -f1 /proc/uptime)
rehomed() { dmesg | grep -q "re-homed from donor $va"; }
wait_until 90 rehomed || { client_log 40; fail "no split of host $vn re-homed in 90 s"; }
current() { [ "$(ecs lost_now)" = 0 ] && [ "$(ecs rebuilding)" = 0 ]; }
wait_until 90 current ||
	{ cat "/sys/block/$disk/spare/ec_stat"; client_log 40; awk '{print $4, $5, $6}' "$(client_map)";
	  donor_ctl 9 status | grep grant; fail "the re-homed splits were not mapped and rebuilt"; }
t1=$(cut -d' ' -f1 /proc/uptime)
dmesg | grep -E "re-homed|waits|mapped again|current again" | sed 's/^/    /'
echo "ec_stat: $(cat "/sys/block/$disk/spare/ec_stat")"
dmesg | grep "re-homed from donor $va" | grep -q "to donor 10.0.0.9" && fail "a split re-homed to host 9"
[ "$(dmesg | grep "re-homed from donor $va" | grep -c "to donor 10.0.0.8")" = 2 ] ||
	fail "host $vn's two splits not both re-homed to host 8"
awk '$5 ~ /^10\.0\.0\.9:/' "$(client_map)" | grep -q . && fail "host 9 holds a split slab"
[ "$(donor_metric 9 spare_donor_map_grant_refusals_total)" = 0 ] || fail "host 9 was asked a MAP"
for a in $(awk '{print $5}' "$(client_map)" | sort -u); do
	grep -q " $a " "$CFS/swap0/grants" || fail "a split slab on $a, where the device holds no grant"
done
[ "$(ecs remapped)" -ge 1 ] || fail "no split re-mapped: $(cat "/sys/block/$disk/spare/ec_stat")"
want_verify "after the re-home"
pass "re-homed and rebuilt in $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s, only on granted donors; every page verifies"

client_down
