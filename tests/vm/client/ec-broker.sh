# SPDX-License-Identifier: GPL-2.0
# vm-backends: kmod ublk
# vm-kernels: last
#
# A broker-placed ec:4+2 device (issue 34), on either backend: its splits
# re-home only onto donors the device holds grants for.
#
# A broker on host 2; seven donors on hosts 2-8 register with it and lend
# only against its grants.
#   - "sparectl device create swap0 --backend=module|ublk size=128M
#     slab_size=16M redundancy=ec:4+2 broker=..." asks the broker for the
#     device's two coding groups (STRIPE_REQ) and hands the 12 grants, one
#     per split slab, group-major, to spare.ko (configfs donors, placement,
#     domains, grants) or to spare-ublk (its grants file): every split
#     maps, no MAP is refused for want of a grant, and 128 MiB written
#     read back. The broker puts both groups on the same six donors (its
#     CodingSets placement), so host 8 holds nothing;
#   - host 9, a donor lending only against grants but not registered with
#     the broker, and then host 8 join the device while it runs without a
#     grant for host 9 that is good now:
#       spare.ko: both appended to configfs "donors" (as an admin, or a
#       monitor's MOVE_REQ, would); "sparectl device monitor ... standby=1
#       once" asks the broker for one more slab of room on every donor of
#       the device (ROOM_REQ): granted on hosts 2-8, refused on host 9,
#       which the broker does not know;
#       spare-ublk (which adds a donor when a grant names it): a grant for
#       host 9 that has expired and one of 1 slab for host 8 appended to
#       its grants file, minted with the grant key as a broker would, and
#       SIGHUP; the expired one is never sent to host 9;
#     so host 9 is live in the device without a grant, and refuses MAPs,
#     and host 8's grants cover one split slab; then "sparectl device
#     monitor ... standby=0" runs beside the device;
#   - the donor of group 0's split 0 (a split of both groups) is killed
#     and stays down: after the device's re-home delay (30 s, the default
#     of both) each of its two splits re-homes to host 8, the granted
#     donor outside the groups, never to host 9, which is as empty and
#     comes first in the donors; the second finds host 8's grants used up
#     and is listed there all the same (the slab map: spare.ko's sysfs
#     slab_map, the pager's NAME.map), host 8 refuses its MAP, and the
#     monitor, counting it there, asks the broker for room on host 8
#     (ROOM_REQ): so the room comes from the broker, not from the script;
#     both are mapped and rebuilt from four others, host 9 holds nothing
#     and was asked no MAP, and every page verifies.
# On session 43's module (seen, 6.12) group 0's split went to host 9 (the
# fewest split slabs, the lowest index; grants not looked at), whose donor
# refused its MAP every 6 s ("no valid grant covers it"): never mapped, so
# the device never became whole again (the check of the rebuild failed).
# On session 48's pager NAME.map listed no split slab of an ec device, so
# the check that every split is mapped failed (and sparectl's renewals
# counted the placement's donors, not where splits had re-homed).
# Before session 50 the pager listed a split whose re-home MAP was refused
# on the donor it was lost with, so the monitor asked no room on host 8.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 600

B="broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key"
# the pager's files (sparectl's defaults, no systemd in the guest)
RUN=/run/spare/ublk
G=/etc/spare/ublk-swap0.grants
# ecn NAME: that field of the device's ec_stat (spare.ko's sysfs, the
# pager's counters file)
ecn() {
	if [ "$BACKEND" = kmod ]; then ecs "$1"
	else awk -v f="$(($(ec_field "$1") + 1))" '$1 == "ec_stat" {print $f}' "$RUN/swap0"; fi
}
# emap: the device's slab map (client_map's, for the pager's device swap0)
emap() { if [ "$BACKEND" = kmod ]; then client_map; else echo "$RUN/swap0.map"; fi; }
# elog: what the backend logged
elog() { if [ "$BACKEND" = kmod ]; then dmesg | grep spare; else cat "$RUN/swap0.log"; fi; }
# host N, as the backend's log names a donor: address:port (spare.ko) or address
hostname_of() { if [ "$BACKEND" = kmod ]; then echo "10.0.0.$1:$DONOR_PORT"; else echo "10.0.0.$1"; fi; }

step "keys; a broker; donors on hosts 2-8 registered with it, lending only against grants"
rxe_up 9
broker_keys donor2 donor3 donor4 donor5 donor6 donor7 donor8 donor9 trainer
broker_up /tmp/broker.log
for n in 2 3 4 5 6 7 8; do grant_donor $n donor$n; done
for n in 2 3 4 5 6 7 8; do broker_knows /tmp/broker.log donor$n; done
client_require
pass "broker and seven donors up"

be=module; [ "$BACKEND" = ublk ] && be=ublk
step "sparectl device create --backend=$be redundancy=ec:4+2 through the broker"
dmesg -c >/dev/null
# shellcheck disable=SC2086
disk=$(sparectl device create swap0 --backend=$be size=128M slab_size=16M redundancy=ec:4+2 \
	source=10.0.0.1 key-file=/tmp/trainer.key $B) ||
	{ cat /tmp/broker.log; elog | tail -30; donor_logs; fail "ec device create through the broker"; }
[ -b "/dev/$disk" ] || fail "no /dev/$disk"
if [ "$BACKEND" = kmod ]; then
	echo "donors:    $(cat "$CFS/swap0/donors")"
	echo "placement: $(cat "$CFS/swap0/placement")"
	[ "$(cat "$CFS/swap0/redundancy")" = ec:4+2 ] || fail "redundancy: $(cat "$CFS/swap0/redundancy")"
	[ "$(tr ',' '\n' <"$CFS/swap0/placement" | grep -c .)" = 12 ] ||
		fail "placement: $(cat "$CFS/swap0/placement"), want 12 split slabs"
	[ "$(grep -c . "$CFS/swap0/grants")" = 12 ] || { cat "$CFS/swap0/grants"; fail "not 12 grants"; }
else
	grep '^redundancy ec:4+2$' "$RUN/swap0" || fail "the pager's counters name no ec:4+2"
	[ "$(grep -vc '^#' "$G")" = 12 ] || { cat "$G"; fail "not 12 grants in $G"; }
	grep -- '--grant-file: 2 coding group(s) x 6 splits' "$RUN/swap0.log" ||
		{ cat "$RUN/swap0.log"; fail "the pager did not place the groups by the grants"; }
fi
mapped() { [ "$(awk '$6 == "mapped"' "$(emap)" 2>/dev/null | wc -l)" = 12 ]; }
wait_until 30 mapped || { cat "$(emap)"; elog | tail -30; fail "not every split slab mapped"; }
for n in 2 3 4 5 6 7 8; do
	[ "$(donor_metric $n spare_donor_map_grant_refusals_total)" = 0 ] ||
		fail "host $n refused a MAP for want of a grant"
done
dd if=/dev/urandom of=/tmp/want bs=1M count=128 2>/dev/null || fail "pattern"
dd if=/tmp/want of="/dev/$disk" bs=256K oflag=direct 2>/dev/null || fail "write $disk"
want_verify "after the first write"
pass "two coding groups placed by the broker, 12 grants, every split mapped, 128 MiB verify"

step "hosts 9 (no grant good now) and 8 join the device; room on host 8"
# host 9 lends only against grants but does not report to the broker
donor_start 9 --budget 256M --slab-size 16M --host-keys /tmp/host-keys \
	--grant-public-keys /tmp/grant.pub --grant-key-file /tmp/grant.key --name donor9
if [ "$BACKEND" = kmod ]; then
	for a in 10.0.0.9 10.0.0.8; do
		echo "$(cat "$CFS/swap0/donors"),$a:$DONOR_PORT" >"$CFS/swap0/donors" ||
			fail "appending $a to the donors"
	done
	live98() {
		[ "$(donor_field 10.0.0.9 state)" = live ] && [ "$(donor_field 10.0.0.8 state)" = live ]
	}
	wait_until 30 live98 || { cat "/sys/block/$disk/spare/donor_stat"; fail "hosts 9 and 8 not live"; }
	# shellcheck disable=SC2086
	sparectl device monitor swap0 $B lease=600 standby=1 once 2>/tmp/monitor.log
	cat /tmp/monitor.log
	grep -q " 10.0.0.8:$DONOR_PORT " "$CFS/swap0/grants" || { cat "$CFS/swap0/grants"; fail "no room granted on host 8"; }
	grep -q " 10.0.0.9:$DONOR_PORT " "$CFS/swap0/grants" && fail "the device holds a grant for host 9"
	pass "hosts 9 and 8 live in the device, $(grep -c . "$CFS/swap0/grants") grants, none for host 9"
else
	mint() {
		spare-probe --grant-key /tmp/grant.key --grant-donor "donor$2" --grant-client trainer \
			--mint "$1" "10.0.0.$2" || fail "mint a grant for host $2"
	}
	{ mint expired 9; mint ok:1 8; } >>"$G"
	kill -HUP "$(awk '$1 == "pid" {print $2}' "$RUN/swap0")" || fail "SIGHUP to the pager"
	live98() {
		grep -q "^donor_stat [0-9]* [0-9]* 10.0.0.9:$DONOR_PORT live " "$RUN/swap0" &&
			grep -q "^donor_stat [0-9]* [0-9]* 10.0.0.8:$DONOR_PORT live " "$RUN/swap0"
	}
	wait_until 30 live98 || { grep donor_stat "$RUN/swap0"; tail -20 "$RUN/swap0.log"; fail "hosts 9 and 8 not live"; }
	grep "sent .* grant" "$RUN/swap0.log" | grep "10.0.0.[89]:"
	grep -q "donor 10.0.0.8:$DONOR_PORT: sent 1 grant" "$RUN/swap0.log" || fail "host 8 was not sent its grant"
	grep -q "donor 10.0.0.9:$DONOR_PORT: sent 0 grant(s), not those expired" "$RUN/swap0.log" ||
		fail "host 9's expired grant: not said, or sent"
	# the donors hold what they were sent; out of the file with them, so
	# that the monitor never sends the broker grants it did not sign
	# (minted here with the version 1 key): host 8's room from now on is
	# the broker's
	sed -i '$d' "$G" && sed -i '$d' "$G" || fail "dropping the minted grants"
	[ "$(grep -vc '^#' "$G")" = 12 ] || { cat "$G"; fail "not the 12 broker grants left in $G"; }
	pass "hosts 9 and 8 live in the device, a grant of 1 slab for host 8, none good now for host 9"
fi
# the monitor beside the device, with no standby: room only for what the
# slab map shows on a donor
# shellcheck disable=SC2086
sparectl device monitor swap0 $B lease=600 standby=0 2>/tmp/monitor-bg.log &
monpid=$!

step "the donor of group 0's split 0 killed: its splits re-home to granted donors only"
va=$(awk '$2 == 0 {print $5}' "$(emap)")
vn=${va%:*}; vn=${vn##*.}
vh=$(hostname_of "$vn")
echo "killing host $vn ($va)"
kill -KILL "$(donor_pid "$vn")"
t0=$(cut -d' ' -f1 /proc/uptime)
if [ "$BACKEND" = kmod ]; then
	rehomed() { dmesg | grep "re-homed from donor $vh"; }
else
	rehomed() { grep "coding group [0-9]*: split [0-9]* now on donor .* (was on $vh)" "$RUN/swap0.log"; }
fi
wait_until 90 eval 'rehomed >/dev/null' || { elog | tail -40; fail "no split of host $vn re-homed in 90 s"; }
current() { [ "$(ecn lost_now)" = 0 ] && [ "$(ecn rebuilding)" = 0 ] && [ "$(rehomed | wc -l)" = 2 ]; }
wait_until 90 current ||
	{ grep ec_stat "$RUN/swap0" "/sys/block/$disk/spare/ec_stat" 2>/dev/null; elog | tail -40;
	  awk '{print $4, $5, $6}' "$(emap)"; donor_ctl 9 status | grep grant; cat /tmp/monitor-bg.log;
	  fail "the re-homed splits were not mapped and rebuilt"; }
t1=$(cut -d' ' -f1 /proc/uptime)
elog | grep -E "re-homed|waits|mapped again|current again|now on donor|no donor to rebuild" | sed 's/^/    /'
echo "ec_stat: $(ecn version) $(ecn k) $(ecn r): remapped $(ecn remapped), lost_now $(ecn lost_now), rebuilding $(ecn rebuilding)"
rehomed | grep -q "donor $(hostname_of 9)" && fail "a split re-homed to host 9"
[ "$(rehomed | grep -c "donor $(hostname_of 8)")" = 2 ] ||
	fail "host $vn's two splits not both re-homed to host 8"
awk '$5 ~ /^10\.0\.0\.9:/' "$(emap)" | grep -q . && fail "host 9 holds a split slab"
[ "$(awk '$5 ~ /^10\.0\.0\.8:/ && $6 == "mapped"' "$(emap)" | wc -l)" = 2 ] ||
	{ cat "$(emap)"; fail "the slab map does not show two splits mapped on host 8"; }
[ "$(donor_metric 9 spare_donor_map_grant_refusals_total)" = 0 ] || fail "host 9 was asked a MAP"
# the second split went to host 8 with its grants used up, was refused
# there, and the monitor got the room from the broker
elog | grep -q "re-homed from donor $vh.* to donor $(hostname_of 8) (its grants there used up" ||
	fail "no split re-homed to host 8 with its grants used up"
[ "$(donor_metric 8 spare_donor_map_grant_refusals_total)" -ge 1 ] ||
	fail "host 8 refused no MAP: the room was there before the monitor asked"
kill "$monpid" && wait "$monpid"
echo "the monitor's log:"; sed 's/^/    /' /tmp/monitor-bg.log
if [ "$BACKEND" = kmod ]; then
	for a in $(awk '{print $5}' "$(emap)" | sort -u); do
		grep -q " $a " "$CFS/swap0/grants" || fail "a split slab on $a, where the device holds no grant"
	done
fi
[ "$(ecn remapped)" -ge 1 ] || fail "no split re-mapped: ec_stat remapped $(ecn remapped)"
want_verify "after the re-home"
pass "re-homed and rebuilt in $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s, only on granted donors; every page verifies"

if [ "$BACKEND" = kmod ]; then
	client_down
else
	sparectl device destroy swap0 || { tail -20 "$RUN/swap0.log"; fail "sparectl device destroy swap0"; }
	[ ! -e "/dev/$disk" ] || fail "/dev/$disk still there"
fi
