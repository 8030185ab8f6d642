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
#     MAP is refused for want of a grant, and 128 MiB written read back;
#   - "sparectl device monitor ... standby=1 once" asks the broker for one
#     more slab of room on every donor of the device (ROOM_REQ);
#   - host 9, a donor of the same broker, is appended to the device's
#     donors while it runs (as an admin, or a monitor's MOVE_REQ before its
#     grant came, would): live, but the device holds no grant for it, so
#     it refuses any MAP of the device;
#   - the donor of group 0's split 0 is killed and stays down: after the
#     device's re-home delay (30 s, sparectl's default) each of its splits
#     re-homes to the one granted donor outside its group, which has room
#     (its standby slab), never to host 9, which holds no split and so
#     looks the least loaded; every split is mapped and rebuilt from four
#     others, host 9 holds nothing and refused no MAP, and every page
#     verifies.
# On session 43's module the splits went to host 9 (the fewest split
# slabs, grants not looked at), whose donor refused the MAP: they were
# never mapped, so the device never became whole again.
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

step "one more slab of room on every donor of the device (monitor, standby=1, once)"
# shellcheck disable=SC2086
sparectl device monitor swap0 $B lease=600 standby=1 once 2>/tmp/monitor.log ||
	{ cat /tmp/monitor.log; fail "monitor once"; }
cat /tmp/monitor.log
[ "$(grep -c . "$CFS/swap0/grants")" -gt 12 ] || { cat "$CFS/swap0/grants"; fail "no room granted"; }
pass "$(grep -c . "$CFS/swap0/grants") grants"

step "host 9 appended to the device: live, no grant of the device"
grant_donor 9 donor9
broker_knows /tmp/broker.log donor9
echo "$(cat "$CFS/swap0/donors"),10.0.0.9:$DONOR_PORT" >"$CFS/swap0/donors" ||
	fail "appending host 9 to the donors"
live9() { [ "$(donor_field 10.0.0.9 state)" = live ]; }
wait_until 30 live9 || { cat "/sys/block/$disk/spare/donor_stat"; fail "host 9 not live"; }
grep -q "10.0.0.9" "$CFS/swap0/grants" && fail "the device holds a grant for host 9"
pass "host 9 live in the device, no grant for it"

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
awk '$5 ~ /^10\.0\.0\.9:/' "$(client_map)" | grep -q . && fail "host 9 holds a split slab"
[ "$(donor_metric 9 spare_donor_map_grant_refusals_total)" = 0 ] || fail "host 9 was asked a MAP"
for a in $(awk '{print $5}' "$(client_map)" | sort -u); do
	grep -q " $a " "$CFS/swap0/grants" || fail "a split slab on $a, where the device holds no grant"
done
[ "$(ecs remapped)" -ge 1 ] || fail "no split re-mapped: $(cat "/sys/block/$disk/spare/ec_stat")"
want_verify "after the re-home"
pass "re-homed and rebuilt in $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s, only on granted donors; every page verifies"

client_down
