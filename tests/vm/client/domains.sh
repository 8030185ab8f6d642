# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# Failure domains in a move (issue 8): four donors in two racks, A (donors
# 2 and 3) and B (donors 4 and 5), configfs "domains" 0,0,1,1, two copies
# of every slab. Slabs 0 and 1 live on donors 2 and 4; slabs 2 and 3 on
# donors 3 and 4; donor 5 holds nothing. Donor 2 evicts everything: the
# fewest copies would send both moves to donor 5, in rack B beside the
# copies on donor 4, so that losing rack B would lose the slabs. They must
# go to donor 3, in rack A, which holds no other copy of them. Every byte
# reads back. Then the bad writes: a domain number out of range, a count
# that does not match the donors (power on refused), a write while powered.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 300

donors=10.0.0.2:18515,10.0.0.3:18515,10.0.0.4:18515,10.0.0.5:18515
lent() { donor_metric "$1" spare_donor_slabs_lent; }
# the donor (host number) of each copy of slab $1, sorted
holders() {
	awk -v s="$1" '$2 == s {split($5, a, "[.:]"); print a[4]}' "/sys/block/$disk/spare/slab_map" |
		sort | tr '\n' ' '
}
diag() { show_stats "$disk"; cat "/sys/block/$disk/spare/slab_map"; dmesg | grep spare | tail -30; donor_logs; }

step "four donors, racks A (2, 3) and B (4, 5); 4 slabs x 2 copies placed by hand"
rxe_up 5
# 20 s of grace: a move copies its slab over the emulated link.
for n in 2 3 4 5; do
	donor_start $n --budget 256M --slab-size 16M --evict-deadline 20000
done
spare_load
disk=$(spare_create swap0 size=64M slab_size=16M replicas=2 donors=$donors \
	placement=0,2,0,2,1,2,1,2 domains=0,0,1,1 source=10.0.0.1)
[ -b "/dev/$disk" ] || fail "no /dev/$disk"
[ "$(cat "$CFS/swap0/domains")" = 0,0,1,1 ] || fail "domains reads back as $(cat "$CFS/swap0/domains")"
[ "$(slab_stat mapped)" = 8 ] || { diag; fail "not every copy mapped"; }
[ "$(holders 0)" = "2 4 " ] && [ "$(holders 3)" = "3 4 " ] || { diag; fail "placement not as written"; }
dd if=/dev/urandom of=/tmp/want bs=1M count=64 2>/dev/null
dd if=/tmp/want of="/dev/$disk" bs=1M oflag=direct 2>/dev/null || fail "write $disk"
pass "8 copies mapped; donor 5 lends $(lent 5)"

step "donor 2 evicts both its slabs: they move to donor 3 (rack A), not donor 5"
donor_ctl 2 evict all
moved2() { [ "$(donor_field 10.0.0.2 moves)" -ge 2 ]; }
empty2() { [ "$(lent 2)" = 0 ]; }
wait_until 40 moved2 || { diag; fail "the slabs did not move"; }
wait_until 20 empty2 || { diag; fail "donor 2 still lends $(lent 2) slab(s)"; }
for s in 0 1; do
	[ "$(holders $s)" = "3 4 " ] || { diag; fail "slab $s is on donors $(holders $s), want 3 and 4"; }
done
[ "$(lent 5)" = 0 ] || { diag; fail "donor 5 lends $(lent 5) slab(s)"; }
dd if="/dev/$disk" of=/tmp/back bs=1M iflag=direct 2>/dev/null || { diag; fail "read $disk"; }
cmp /tmp/want /tmp/back || { diag; fail "$disk does not read back after the moves"; }
[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
[ "$(donor_field 10.0.0.2 moves_short)" = 0 ] || fail "a move ran out of time"
pass "slabs 0 and 1 on donors 3 and 4, one copy per rack; every byte reads back"

step "bad domains: refused with a reason, nothing changed"
echo 0 >"$CFS/swap0/domains" 2>/dev/null && fail "domains written while powered"
[ "$(cat "$CFS/swap0/domains")" = 0,0,1,1 ] || fail "a refused write changed domains"
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
pass "out of range, not a number and a wrong count refused; while powered: busy"

step "teardown"
rmmod spare || fail "rmmod"
for n in 2 3 4 5; do
	kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
done
check_dmesg
pass "moves keep copies in distinct failure domains"
