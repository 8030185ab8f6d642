# SPDX-License-Identifier: GPL-2.0
# vm-backends: kmod ublk
# vm-kernels: first
#
# Failure domains in a move (issues 8 and 10), on both backends. Four
# donors, hosts 2, 3, 4 and 5 (donors 0-3 in order), in two racks:
# domains 0,1,0,1, so rack A is hosts 2 and 4, rack B hosts 3 and 5. Two
# 16 MiB slabs x 2 copies, copy c of slab s on donor (s + c) mod 4 (the
# pager's round robin; spare.ko's configfs "placement" written to the
# same): slab 0 on hosts 2 and 3, slab 1 on hosts 3 and 4; host 5 holds
# nothing. Host 2 asks its slab back: the fewest copies alone would send
# it to host 5, in rack B beside the copy on host 3, so that losing rack B
# would lose slab 0. It must go to host 4, in rack A, which holds no other
# copy of it. Every byte reads back. Then the bad domains, refused with a
# reason: spare.ko's configfs "domains" (a number out of range, not a
# number, a count that does not match the donors at power on, a write
# while powered); the pager's --domains (before any device is made).
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 300

lent() { donor_metric "$1" spare_donor_slabs_lent; }
lents() { echo "$(lent 2) $(lent 3) $(lent 4) $(lent 5)"; }
# the donor (host number) of each copy of slab $1, sorted
holders() {
	awk -v s="$1" '$2 == s && $6 == "mapped" {split($5, a, "[.:]"); print a[4]}' "$(client_map)" |
		sort | tr '\n' ' '
}
diag() { show_stats "$disk"; cat "$(client_map)"; client_log 30; donor_logs; }
D="10.0.0.2:$DONOR_PORT 10.0.0.3:$DONOR_PORT 10.0.0.4:$DONOR_PORT 10.0.0.5:$DONOR_PORT"

step "four donors, racks A (hosts 2, 4) and B (3, 5); 2 slabs x 2 copies"
rxe_up 5
# 20 s of grace: a move copies its slab over the emulated link.
donor_start 2 --budget 64M --slab-size 16M --evict-deadline 20000
for n in 3 4 5; do
	donor_start $n --budget 64M --slab-size 16M
done
client_require
if [ "$BACKEND" = kmod ]; then
	disk=$(spare_create swap0 size=32M slab_size=16M replicas=2 donors="$(echo $D | tr ' ' ,)" \
		placement=0,1,1,2 domains=0,1,0,1 source=10.0.0.1)
	[ -b "/dev/$disk" ] || fail "no /dev/$disk"
	[ "$(cat "$CFS/swap0/domains")" = 0,1,0,1 ] || fail "domains reads back as $(cat "$CFS/swap0/domains")"
else
	# shellcheck disable=SC2086
	ublk_up --size 32M --slab-size 16M --copies 2 --domains 0,1,0,1 $(printf -- '--donor %s ' $D)
	grep -q 'failure domains 0,1,0,1 of donors 0..3' /tmp/ublk.log || { diag; fail "--domains not taken"; }
fi
four() { [ "$(client_mapped)" = 4 ]; }
wait_until 10 four || { diag; fail "not every copy mapped"; }
[ "$(holders 0)" = "2 3 " ] && [ "$(holders 1)" = "3 4 " ] || { diag; fail "placement not round robin"; }
[ "$(lents)" = "1 2 1 0" ] || { diag; fail "slabs lent by hosts 2-5: $(lents), want 1 2 1 0"; }
dd if=/dev/urandom of=/tmp/want bs=1M count=32 2>/dev/null
dd if=/tmp/want of="/dev/$disk" bs=1M oflag=direct 2>/dev/null || fail "write $disk"
pass "4 copies mapped; host 5 lends nothing"

step "host 2 asks slab 0 back: it moves to host 4 (rack A), not host 5"
donor_ctl 2 evict all || fail "evict"
moved() { [ "$(holders 0)" = "3 4 " ]; }
wait_until 40 moved || { diag; fail "slab 0 is on hosts $(holders 0), want 3 and 4"; }
empty2() { [ "$(lent 2)" = 0 ]; }
wait_until 20 empty2 || { diag; fail "host 2 still lends $(lent 2) slab(s)"; }
[ "$(lents)" = "0 2 2 0" ] || { diag; fail "slabs lent by hosts 2-5: $(lents), want 0 2 2 0"; }
dd if="/dev/$disk" of=/tmp/back bs=1M iflag=direct 2>/dev/null || { diag; fail "read $disk"; }
cmp /tmp/want /tmp/back || { diag; fail "$disk does not read back after the move"; }
if [ "$BACKEND" = kmod ]; then
	[ "$(client_stat io_errors)" = 0 ] || fail "I/O errors"
	[ "$(donor_field 10.0.0.2 moves)" = 1 ] && [ "$(donor_field 10.0.0.2 moves_short)" = 0 ] ||
		fail "moves $(donor_field 10.0.0.2 moves), short $(donor_field 10.0.0.2 moves_short)"
else
	grep 'slab 0 moved to donor' /tmp/ublk.log
	grep -q 'slab 0 moved to donor 10\.0\.0\.4' /tmp/ublk.log || { diag; fail "the pager logged no move to host 4"; }
	# The live placement as sparectl shows it (the pager's NAME.map, what
	# sparectl's monitor renews grants by): slab 0 on hosts 3 and 4 now.
	sparectl device show "$disk" | tail -5
	[ "$(sparectl device show "$disk" | grep -Ec '^[0-9]+ +[0-9]+ +[0-9]+ +10\.0\.0\.2:18515 ')" = 0 ] &&
		[ "$(sparectl device show "$disk" | grep -Ec '^[01] +[0-9]+ +[0-9]+ +10\.0\.0\.[34]:18515 +mapped')" = 4 ] ||
		fail "device show: not 4 copies on hosts 3 and 4"
	[ "$(sparectl -j device show "$disk" | grep -o '"address":"10.0.0.4:18515","state":"mapped"' | wc -l)" = 2 ] ||
		fail "device show -j: not 2 copies on host 4"
	ublk_down
	[ -e "/run/spare/ublk/$disk.map" ] && fail "the slab map outlived its pager"
	[ "$(client_stat io_errors)" = 0 ] || fail "I/O errors"
	[ "$(ublk_stat moves)" = 1 ] && [ "$(ublk_stat moves_short)" = 0 ] ||
		fail "moves $(ublk_stat moves), short $(ublk_stat moves_short)"
fi
pass "slab 0 on hosts 3 and 4, one copy per rack; every byte reads back"

step "bad domains: refused with a reason, nothing changed"
if [ "$BACKEND" = kmod ]; then
	echo 0 >"$CFS/swap0/domains" 2>/dev/null && fail "domains written while powered"
	[ "$(cat "$CFS/swap0/domains")" = 0,1,0,1 ] || fail "a refused write changed domains"
	spare_destroy swap0
	mkdir "$CFS/bad" || fail "mkdir $CFS/bad"
	echo 0,8 >"$CFS/bad/domains" 2>/dev/null && fail "domain number 8 accepted"
	dmesg | grep -q "domains: want one domain number" || fail "no reason logged for domain 8"
	echo 0,x >"$CFS/bad/domains" 2>/dev/null && fail "domain x accepted"
	for kv in size=32M slab_size=16M replicas=1 donors=10.0.0.2:18515,10.0.0.3:18515 domains=0,1,1; do
		echo "${kv#*=}" >"$CFS/bad/${kv%%=*}" || fail "bad: ${kv%%=*} refused"
	done
	echo 1 >"$CFS/bad/power" 2>/dev/null && fail "power on with 3 domains for 2 donors"
	dmesg | grep -q "domains: want one per donor (2), got 3" || fail "no reason logged for the count"
	echo 0,1 >"$CFS/bad/domains" || fail "domains 0,1 refused"
	echo "" >"$CFS/bad/domains" || fail "clearing domains refused"
	[ "$(cat "$CFS/bad/domains")" = "" ] || fail "domains not cleared"
	rmdir "$CFS/bad" || fail "rmdir $CFS/bad"
	rmmod spare || fail "rmmod"
	pass "out of range, not a number and a wrong count refused; while powered: busy"
else
	for bad in "0,1,0:has 3 entries for 4 donors" "0,1,0,8:entry 3 is above 7" \
		   "0,1,x,1:entry 2 is not a number"; do
		rc=0
		# shellcheck disable=SC2086
		spare-ublk --source 10.0.0.1 --size 32M --slab-size 16M --copies 2 \
			--domains "${bad%%:*}" $(printf -- '--donor %s ' $D) >/tmp/bad.out 2>/tmp/bad.log || rc=$?
		cat /tmp/bad.log
		[ "$rc" = 2 ] && grep -q "^spare-ublk.*--domains ${bad%%:*}: .*${bad#*:}" /tmp/bad.log ||
			fail "--domains ${bad%%:*}: exit $rc"
	done
	ls /dev/ublkb* 2>/dev/null && fail "a refused start left a device"
	none_lent() { [ "$(lents)" = "0 0 0 0" ]; }
	wait_until 20 none_lent || fail "slabs lent after the refusals: $(lents)"
	pass "a wrong count, a number above 7 and a letter refused"
fi

step "teardown"
for n in 2 3 4 5; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
done
check_dmesg
pass "moves keep copies in distinct failure domains"
