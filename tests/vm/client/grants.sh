# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# spare.ko with donors that lend only against grants (issue 8). Donors 2
# and 3 have the brokers' grant key and host-keys naming this client
# "trainer". The grants are minted here with that key, as spare-broker
# signs them (spare-probe --mint; the broker's own grants are used by
# sparectl in broker/place.sh). On the client:
#   - configfs refuses malformed, non-hex and expired grants and a bad
#     placement, each with a reason, and never shows a grant whole;
#   - a device without grants, and one with a forged grant, do not start,
#     with "no valid grant" on the client and the reason on the donor;
#   - "placement" puts slabs where it says, not round robin;
#   - a device whose grants cover its copies swaps a memory-hungry job,
#     every page verified;
#   - a grant whose id the device holds is a renewal: with a later expiry
#     it replaces the held one (the listing keeps one line), with an
#     earlier one it changes nothing, with other slabs it is refused with
#     a reason; a renewal
#     written while powered reaches the live donor at once;
#   - a grant written while powered reaches the live donors at once;
#   - once a short grant sent after a long one expires, MAPs name the
#     long one, so a copy the donor evicts is mapped there again;
#   - a donor restarted with an empty ledger gets the grants again on the
#     next session, but not one that has expired meanwhile, and the
#     copies it held are mapped and refilled.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 600

DONOR_ID=$(hostname | cut -c1-15)
# mint ADDR KIND[:SLABS] [KEYFILE [MORE...]]: one grant (hex) for the donor
# at ADDR, for "trainer" (MORE: spare-probe options, e.g. --grant-id);
# add_grant DEV ADDR KIND[:SLABS]: mint one into DEV's grants
mint() {
	local a=$1 k=$2 f=${3:-/tmp/grant.key}
	shift 2; [ $# -gt 0 ] && shift
	spare-probe --grant-key "$f" --grant-donor "$DONOR_ID" \
		--grant-client trainer "$@" --mint "$k" "$a"
}
add_grant() {
	local g
	g=$(mint "$2" "$3") || fail "mint $3"
	echo "$g" >"$CFS/$1/grants" || { dmesg | tail -5; fail "$1: grant for $2 refused"; }
}
# granted N: spare_donor_grants_accepted_total of donor N
granted() { donor_ctl "$1" status | awk '$1 == "spare_donor_grants_accepted_total" {print $2}'; }
# dmesg_has PATTERN: the kernel log says PATTERN
dmesg_has() { dmesg | grep -q -- "$1" || { dmesg | tail -20; fail "no '$1' in the kernel log"; }; }

step "grant key, host keys, two donors that lend only against grants"
sparectl gen-key >/tmp/grant.key && chmod 600 /tmp/grant.key || fail "gen-key"
sparectl gen-key >/tmp/wrong.key || fail "gen-key"
KT=$(sparectl gen-key) || fail "gen-key"
printf 'trainer %s\n' "$KT" >/tmp/host-keys
chmod 600 /tmp/host-keys
rxe_up 3
for n in 2 3; do
	donor_start $n --budget 256M --slab-size 16M --host-keys /tmp/host-keys \
		--grant-key-file /tmp/grant.key
	grep -q 'lending only against grants' "/tmp/spared-$n.log" || fail "donor $n does not need grants"
done
spare_load
pass "donors need grants"

step "configfs: malformed, non-hex and expired grants and a bad placement are refused"
mkdir "$CFS/g" || fail "mkdir"
echo garbage >"$CFS/g/grants" 2>/dev/null && fail "garbage accepted as a grant"
dmesg_has "g: grants: want 512 hex digits"
printf '%0512d\n' 0 | tr 0 z >"$CFS/g/grants" 2>/dev/null && fail "non-hex accepted"
dmesg_has "g: grants: not hex"
printf '%0512d\n' 0 >"$CFS/g/grants" 2>/dev/null && fail "zeros accepted as a grant"
dmesg_has "g: grants: not a grant (bad magic)"
g=$(mint 10.0.0.2 expired) || fail "mint"
echo "$g" >"$CFS/g/grants" 2>/dev/null && fail "an expired grant accepted"
dmesg_has "g: grants: grant has expired"
[ -z "$(cat "$CFS/g/grants")" ] || fail "a refused grant was kept"
echo 0,x >"$CFS/g/placement" 2>/dev/null && fail "placement '0,x' accepted"
dmesg_has "g: placement: want donor indices"
g=$(mint 10.0.0.2 ok:4) || fail "mint"
echo "$g" >"$CFS/g/grants" || fail "a good grant refused"
grep -q "^[0-9a-f]\{16\} 10.0.0.2:18515 slabs=4 expiry=[0-9]*$" "$CFS/g/grants" ||
	{ cat "$CFS/g/grants"; fail "grants does not list the grant"; }
cat "$CFS/g/grants"
dmesg | grep -q -F "${g#????????????????????????????????????????}" && fail "a grant appears whole in the kernel log"
echo clear >"$CFS/g/grants" || fail "clear refused"
[ -z "$(cat "$CFS/g/grants")" ] || fail "grants not cleared"
pass "bad grants refused with a reason; grants listed by token only"

step "a known grant id with a later expiry is a renewal, not a new entry"
id=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
g1=$(mint 10.0.0.2 ok:4 "" --grant-id "$id") || fail "mint"
echo "$g1" >"$CFS/g/grants" || fail "a good grant refused"
l1=$(cat "$CFS/g/grants")
g2=$(mint 10.0.0.2 long:4 "" --grant-id "$id") || fail "mint"
echo "$g2" >"$CFS/g/grants" || { dmesg | tail -3; fail "a renewal refused"; }
l2=$(cat "$CFS/g/grants")
[ "$(echo "$l2" | wc -l)" = 1 ] || { echo "$l2"; fail "a renewal took a second entry"; }
[ "${l1%% *}" = "${l2%% *}" ] || fail "the renewal changed the grant's token: $l1 / $l2"
e1=${l1##*expiry=}
e2=${l2##*expiry=}
[ "$e2" -ge $((e1 + 500)) ] || fail "the renewal did not extend the grant: $l1 / $l2"
dmesg_has "g: grant ${l1%% *} renewed until $e2"
echo "$g2" >"$CFS/g/grants" || fail "the same grant written again refused"
[ "$(cat "$CFS/g/grants")" = "$l2" ] || { cat "$CFS/g/grants"; fail "the same grant written again changed the table"; }
g3=$(mint 10.0.0.2 long:5 "" --grant-id "$id") || fail "mint"
echo "$g3" >"$CFS/g/grants" 2>/dev/null && fail "a known id with another slab count accepted"
dmesg_has "g: grants: ${l1%% *} refused: a grant with this id is held for another client, donor, address or slab count"
echo "$g1" >"$CFS/g/grants" || fail "a known id with an earlier expiry (a shorter lease) refused"
dmesg_has "g: grant ${l1%% *}: a grant with this id is held and ends later: that one is kept"
[ "$(cat "$CFS/g/grants")" = "$l2" ] || { cat "$CFS/g/grants"; fail "an earlier expiry changed the table"; }
echo clear >"$CFS/g/grants"
pass "renewed in place; an earlier expiry kept out; another lease under a known id refused"

step "a full grant table: 1023 short grants and a long one fill it; a 1025th is refused"
# 1023 grants (each its own id: the same grant written twice is one entry)
# that expire 30 s after they are minted, one grant per write, then a
# 10-minute one: the table is full. (With 8 s, a loaded machine took
# longer than that to write the 1023: a clean-clone check, 2026-11-27.)
# Device g stays unpowered with its full table while the steps below run;
# "a full grant table drops its expired grants", after the workload's
# steps, writes once the 30 s are over (the guest no longer sleeps
# through them).
t0=$(date +%s)
g_long=$g
mint 10.0.0.2 short30 "" --mint-count 1023 >/tmp/short-grants || fail "mint"
while read -r l; do echo "$l" >"$CFS/g/grants" || fail "a short grant refused"; done </tmp/short-grants
echo "$g_long" >"$CFS/g/grants" || fail "the 1024th grant refused"
g5=$(mint 10.0.0.2 ok:4) || fail "mint"
echo "$g5" >"$CFS/g/grants" 2>/dev/null && fail "a 1025th unexpired grant accepted"
echo "table full after $(($(date +%s) - t0)) s"
dmesg_has "g: grants: already 1024 unexpired"
pass "1024 unexpired grants fill the table; the 1025th refused"

step "no grant, and a forged grant: the device does not start"
mkdir "$CFS/none" "$CFS/forged" || fail "mkdir"
for d in none forged; do
	echo 32M >"$CFS/$d/size" && echo 16M >"$CFS/$d/slab_size" &&
		echo 10.0.0.2:18515 >"$CFS/$d/donors" && echo "$KT" >"$CFS/$d/key" ||
		fail "configure $d"
done
g=$(mint 10.0.0.2 ok:2 /tmp/wrong.key) || fail "mint"
echo "$g" >"$CFS/forged/grants" || fail "forged grant refused by configfs"
# The donor's refusal is final while the device powers on (configfs, and so
# the grants, wait for it): spare.ko gives up on it, not after its 15 s
# connect wait, and says which slab.
pids=
p0=$(date +%s)
for d in none forged; do
	( echo 1 >"$CFS/$d/power" ) 2>/dev/null &
	pids="$pids $!"
done
for p in $pids; do wait "$p" && fail "a device without a valid grant powered on"; done
echo "both power-ons refused in $(( $(date +%s) - p0 )) s"
dmesg_has "MAP of slab 0 refused (no valid grant covers it)"
for d in none forged; do
	dmesg_has "$d: slab 0: every donor of its copies refused it"
done
grep -q "MAP slab 0 refused: no grant" /tmp/spared-2.log || { cat /tmp/spared-2.log; fail "donor 2 did not say: no grant"; }
grep -q "grant refused: forged grant" /tmp/spared-2.log || { cat /tmp/spared-2.log; fail "donor 2 did not say: forged"; }
[ "$(donor_ctl 2 status | awk '$1 == "spare_donor_slabs_lent" {print $2}')" = 0 ] || fail "donor 2 lent without a grant"
rmdir "$CFS/none" "$CFS/forged"
pass "no slab lent without a valid grant"

step "placement, not round robin: 4 one-copy slabs all on donor 3, granted there only"
lent2=$(donor_ctl 2 status | awk '$1 == "spare_donor_slabs_lent" {print $2}')
mkdir "$CFS/placed" || fail "mkdir"
for kv in size=64M slab_size=16M replicas=1 donors=10.0.0.2:18515,10.0.0.3:18515 \
	  source=10.0.0.1 "key=$KT" placement=1,1,1; do
	echo "${kv#*=}" >"$CFS/placed/${kv%%=*}" || fail "placed: ${kv%%=*} refused"
done
add_grant placed 10.0.0.3 ok:4
echo 1 >"$CFS/placed/power" 2>/dev/null && fail "3 placements for 4 slabs accepted"
dmesg_has "placed: placement: want 4 donor indices (4 slabs x 1 copies), each below 2"
echo 1,1,1,1 >"$CFS/placed/placement" || fail "placement refused"
echo 1 >"$CFS/placed/power" || { dmesg | tail -20; donor_logs; fail "placed: power on refused"; }
[ "$(donor_ctl 3 status | awk '$1 == "spare_donor_slabs_lent" {print $2}')" = 4 ] || fail "donor 3 does not hold the 4 slabs"
[ "$(donor_ctl 2 status | awk '$1 == "spare_donor_slabs_lent" {print $2}')" = "$lent2" ] || fail "donor 2 got a slab"
echo 0 >"$CFS/placed/power" && rmdir "$CFS/placed" || fail "placed: teardown"
pass "every slab where the placement says"

step "a device placed by 'placement', its grants covering every copy, swaps"
# 16 slabs x 2 copies; copy 0 of every slab on donor 1 (10.0.0.3), copy 1
# on donor 0 (10.0.0.2): the round robin would alternate.
placement=$(for s in $(seq 16); do printf '1,0,'; done | sed 's/,$//')
mkdir "$CFS/swap0" || fail "mkdir"
for kv in size=256M slab_size=16M replicas=2 donors=10.0.0.2:18515,10.0.0.3:18515 \
	  source=10.0.0.1 "key=$KT" "placement=$placement"; do
	echo "${kv#*=}" >"$CFS/swap0/${kv%%=*}" || fail "swap0: ${kv%%=*} refused"
done
# donor 2's 16 slabs in two grants (10 + 6), donor 3's in one
add_grant swap0 10.0.0.2 ok:10
add_grant swap0 10.0.0.2 ok:6
add_grant swap0 10.0.0.3 ok:16
echo 1 >"$CFS/swap0/power" || { dmesg | tail -20; donor_logs; fail "swap0: power on refused"; }
disk=$(cat "$CFS/swap0/disk")
[ "$(slab_stat mapped)" = 32 ] || { show_stats "$disk"; fail "not every copy mapped"; }
[ "$(granted 2)" = 2 ] && [ "$(granted 3)" = 2 ] || fail "grants accepted: $(granted 2) and $(granted 3)"
dmesg_has "donor 10.0.0.2:18515: sent 2 grant(s)"
dmesg_has "donor 10.0.0.3:18515: sent 1 grant(s)"
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon"
cg_new_high work ${WL_CG_MB}M
workload_start 2
workload_swapped 2000
pass "granted device swapping"

step "a grant written while powered reaches the live donors at once"
a2=$(granted 2)
a3=$(granted 3)
add_grant swap0 10.0.0.2 ok:1
# and one for donor 3 that expires 8 s after it is minted
t_short=$(date +%s)
add_grant swap0 10.0.0.3 short
wait_until 10 sh -c "[ \$(sparectl donor -S /run/spare/spared-2.sock status | awk '\$1 == \"spare_donor_grants_accepted_total\" {print \$2}') = $((a2 + 1)) ]" ||
	fail "the new grant did not reach donor 2"
wait_until 10 sh -c "[ \$(sparectl donor -S /run/spare/spared-3.sock status | awk '\$1 == \"spare_donor_grants_accepted_total\" {print \$2}') = $((a3 + 1)) ]" ||
	fail "the new grant did not reach donor 3"
pass "renewal while powered"

step "a grant renewed while powered replaces it and reaches the live donor at once"
id=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
a2=$(granted 2)
g1=$(mint 10.0.0.2 ok:1 "" --grant-id "$id") || fail "mint"
echo "$g1" >"$CFS/swap0/grants" || fail "a grant refused"
wait_until 10 sh -c "[ \$(sparectl donor -S /run/spare/spared-2.sock status | awk '\$1 == \"spare_donor_grants_accepted_total\" {print \$2}') = $((a2 + 1)) ]" ||
	fail "the grant did not reach donor 2"
n1=$(wc -l <"$CFS/swap0/grants")
g2=$(mint 10.0.0.2 long:1 "" --grant-id "$id") || fail "mint"
echo "$g2" >"$CFS/swap0/grants" || { dmesg | tail -3; fail "a renewal refused while powered"; }
[ "$(wc -l <"$CFS/swap0/grants")" = "$n1" ] || { cat "$CFS/swap0/grants"; fail "a renewal took a new entry"; }
e2=$(dmesg | sed -n 's/.*swap0: grant [0-9a-f]* renewed until \([0-9]*\)$/\1/p' | tail -1)
[ -n "$e2" ] || fail "no renewal in the kernel log"
wait_until 10 grep -q "slab(s) until $e2 (known already)" /tmp/spared-2.log ||
	{ tail -5 /tmp/spared-2.log; fail "donor 2 was not sent the renewal"; }
[ "$(granted 2)" = $((a2 + 1)) ] || fail "donor 2 counted the renewal as a new grant"
pass "renewal in place while powered, sent to the live donor"

step "the short grant expires; a copy donor 3 evicts is mapped again under its long grant"
# The short grant was the last one sent to donor 3. A MAP that named it
# now would be refused, though the grant for 16 slabs still holds.
while [ "$(date +%s)" -le $((t_short + 9)) ]; do sleep 1; done
maps0=$(donor_metric 3 spare_donor_maps_total)
remapped() {
	[ "$(donor_metric 3 spare_donor_maps_total)" -gt "$maps0" ] &&
		[ "$(slab_stat mapped)" = 32 ]
}
donor_ctl 3 evict 1 >/dev/null || fail "donor 3: evict"
wait_until 60 remapped ||
	{ show_stats "$disk"; donor_logs; fail "the copy donor 3 evicted was not mapped again"; }
[ "$(donor_metric 3 spare_donor_map_grant_refusals_total)" = 0 ] ||
	{ donor_logs; fail "donor 3 refused a MAP: it named the expired grant"; }
pass "MAPs name the grant that expires last"

step "a full grant table drops its expired grants (renewal for a device's life)"
# device g's table, filled above: its 1023 short grants have expired by now
while [ "$(date +%s)" -le $((t0 + 31)) ]; do sleep 1; done
echo "waited for the short grants' expiry until $(($(date +%s) - t0)) s after minting them"
echo "$g5" >"$CFS/g/grants" || { dmesg | tail -3; fail "no room made from expired grants"; }
dmesg_has "g: grants: dropped 1023 expired"
[ "$(grep -c "slabs=4 expiry" "$CFS/g/grants")" = 2 ] ||
	{ head -5 "$CFS/g/grants"; fail "not the 2 unexpired grants left"; }
echo clear >"$CFS/g/grants"
rmdir "$CFS/g"
pass "1023 expired grants dropped when the table was full, the unexpired kept in order"

step "donor 3 restarts with an empty ledger; the unexpired grants are sent again, copies refilled"
# the short grant has expired by now: the module must not send it again
kill -TERM "$(donor_pid 3)"; wait "$(donor_pid 3)"
donor_start 3 --budget 256M --slab-size 16M --host-keys /tmp/host-keys \
	--grant-key-file /tmp/grant.key
wait_until 90 sh -c "[ \$(cut -d' ' -f5 /sys/block/$disk/spare/slab_stat) = 32 ]" ||
	{ show_stats "$disk"; donor_logs; fail "donor 3's copies were not mapped again"; }
[ "$(granted 3)" = 1 ] || fail "donor 3 accepted $(granted 3) grants after its restart"
refused=$(donor_ctl 3 status | awk '$1 == "spare_donor_grants_refused_total" {print $2}')
[ "$refused" = 0 ] || { donor_logs; fail "donor 3 was sent $refused grant(s) it refused (an expired one)"; }
workload_wait
show_stats "$disk"
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
pass "every page verified; donor 3 re-granted and re-mapped"

swap_teardown
for n in 2 3; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
done
pass "grants end to end"
