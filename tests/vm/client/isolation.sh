# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
#
# Isolation on spare-ublk (issue 10): what a pager wrote into lent memory
# is never seen by anyone else. One donor with exactly four 4 MiB slabs;
# pager A takes them all and writes a marker over its whole device.
#  - While A lives, a stranger (spare-probe from host 3) is refused a slab,
#    and a second pager given A's state file refuses to start.
#  - A is SIGKILLed: the donor holds its slabs for a resume (resume-hold),
#    and the stranger is still refused; once the hold runs out, the slabs
#    are freed, and the stranger, given all four, reads only zeros over
#    RDMA: not one byte of A's marker.
#  - A restarted with its state file finds its slabs gone: the pages it
#    wrote read as I/O errors, never as zeros or as someone else's data.
#  - After A's clean exit (SIGTERM gives the slabs back) the stranger
#    again reads only zeros, and pager B, given the same memory, too.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
watchdog 300

ublk_require

STATE=/var/lib/spare/ublk-isolation.state
HOLD=10
A_ARGS="--size 16M --slab-size 4M --copies 1 --name iso-a --state-file $STATE
	--donor 10.0.0.2:$DONOR_PORT"

# stranger STEP...: spare-probe from host 3 to the donor, 4 MiB slabs.
stranger() {
	spare-probe -S 10.0.0.3 -p "$DONOR_PORT" -s 4M -t 30000 10.0.0.2 "$@" >/tmp/probe.out 2>&1 ||
		{ cat /tmp/probe.out; return 1; }
}
# zeros_everywhere: the stranger maps the donor's four slabs and reads
# every byte of each over RDMA: all zeros.
zeros_everywhere() {
	stranger map:1 map:2 map:3 map:4 read:1:0 read:2:0 read:3:0 read:4:0 \
		unmap:1 unmap:2 unmap:3 unmap:4 || fail "the stranger read something other than zeros"
}
# marker_write: the marker over the whole device, past the page cache;
# read back to prove it is there.
marker_write() {
	local want got
	want=$(yes SPAREISO | head -c $((16 << 20)) | sha256sum)
	yes SPAREISO | head -c $((16 << 20)) | dd of="/dev/$disk" bs=1M oflag=direct iflag=fullblock status=none ||
		fail "cannot write the marker to /dev/$disk"
	got=$(dd if="/dev/$disk" bs=1M iflag=direct status=none | sha256sum)
	[ "$got" = "$want" ] || fail "the marker did not read back from /dev/$disk"
}
lent() { donor_metric 2 spare_donor_slabs_lent; }
lent_none() { [ "$(lent)" = 0 ]; }
hold_expired() { [ "$(donor_metric 2 spare_donor_holds_expired_total)" = 1 ]; }

step "one donor with four 4 MiB slabs (resume-hold $HOLD s); pager A takes all four and writes a marker"
rxe_up 3
donor_start 2 --budget 16M --slab-size 4M --resume-hold "$HOLD"
rm -f "$STATE"
# shellcheck disable=SC2086
ublk_up $A_ARGS
marker_write
[ "$(lent)" = 4 ] || fail "donor 2 lends $(lent) slabs, expected 4"
pass "A wrote 16 MiB over the donor's four slabs"

step "a stranger is refused while A holds the slabs; a second pager may not share A's state file"
stranger map-refused:1 || fail "a stranger got a slab of a full donor"
# shellcheck disable=SC2086
spare-ublk --source 10.0.0.1 $A_ARGS >/tmp/ublk2.out 2>/tmp/ublk2.log
rc=$?
cat /tmp/ublk2.log
[ "$rc" = 2 ] && grep -q "state file $STATE is in use by another spare-ublk" /tmp/ublk2.log ||
	fail "a second pager on A's state file: exit $rc"
pass "refused, both"

step "A SIGKILLed: its slabs are held, not lent; then freed and zeroed"
kill -KILL "$UBLK_PID"; wait "$UBLK_PID" 2>/dev/null
cp /tmp/ublk.log /tmp/ublk-a.log
wait_for 100 grep -q 'slab(s) held for a resume' /tmp/spared-2.log ||
	{ donor_logs; fail "donor 2 did not hold A's slabs"; }
stranger map-refused:1 || fail "a stranger got a held slab"
wait_until 30 hold_expired ||
	{ donor_logs; fail "the hold did not run out"; }
grep 'held slab(s) freed' /tmp/spared-2.log
[ "$(lent)" = 0 ] || fail "donor 2 still lends $(lent) slabs"
zeros_everywhere
pass "the stranger was refused while held; afterwards all four slabs read as zeros"

step "A restarted from its state file: its slabs are gone, its pages read as I/O errors"
# shellcheck disable=SC2086
ublk_up $A_ARGS
grep -q 'have no copy left' /tmp/ublk.log || { cat /tmp/ublk.log; fail "the pager did not report the lost copies"; }
if dd if="/dev/$disk" of=/tmp/a.read bs=4k count=16 iflag=direct status=none 2>/tmp/dd.err; then
	od -c /tmp/a.read | head -3
	fail "A's lost pages were read without an error"
fi
cat /tmp/dd.err
grep -q 'Input/output error' /tmp/dd.err || fail "not an I/O error"
ublk_down
[ "$(ublk_stat io_errors)" -gt 0 ] || fail "the pager counted no I/O error"
pass "lost pages are errors, never zeros or another's data"

step "A again, then a clean exit: its slabs come back zeroed; pager B gets the same memory"
rm -f "$STATE"
# shellcheck disable=SC2086
ublk_up $A_ARGS
marker_write
ublk_down
wait_until 20 lent_none || fail "A's slabs were not given back"
zeros_everywhere
ublk_up --size 16M --slab-size 4M --copies 1 --name iso-b --donor "10.0.0.2:$DONOR_PORT"
[ "$(lent)" = 4 ] || fail "B got $(lent) slabs, expected A's 4"
got=$(dd if="/dev/$disk" bs=1M iflag=direct status=none | tr -d '\0' | wc -c)
[ "$got" = 0 ] || fail "B read $got non-zero bytes"
ublk_down
kill -TERM "$(donor_pid 2)"; wait "$(donor_pid 2)" || { cat /tmp/spared-2.log; fail "spared 2 exit"; }
check_dmesg
pass "A's memory reached the stranger and B only as zeros"
