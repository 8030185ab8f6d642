# SPDX-License-Identifier: GPL-2.0
# vm-backends: kmod ublk
# vm-kernels: first
#
# A donor added to a running device takes a copy that an eviction had
# nowhere else to put, and every byte written reads back. One scenario,
# run once per backend (spare.ko on 6.1, the pager on the newest kernel);
# the two set the device up differently because each covers the case its
# driver had a bug or a feature in:
#  - spare.ko (issue 31 §2.5): a one-donor, one-copy device without a
#    backup, powered on with donor 2 alone: nothing to copy from and, at
#    power-on, nowhere to move to. Donor 3 is appended to configfs "donors"
#    and connects; then donor 2 evicts one slab. The copy must move to
#    donor 3 (resync fills it through the bounce blocks). Before that fix,
#    power-on skipped the bounce blocks in this configuration, so the move
#    could not start and the EVICT dropped the slab: reads of it failed.
#  - spare-ublk (issue 10; the module's configfs "donors" append): a device
#    of 2 copies per slab on donors 2 and 3, placed by its grants file.
#    Every slab already has a copy on each of them, so a copy donor 2
#    evicts has nowhere to go: the move waits for a donor. A grant for
#    donor 4 is appended to the grants file and the pager reloaded
#    (SIGHUP): it adds donor 4, connects it (a DATA connection per queue,
#    and resync's), and the waiting copy moves there. Then the pager is
#    SIGKILLed and started again with the same settings: it numbers the
#    donors as its state file does (donor 4 included, whatever order the
#    grants file's plan gives) and takes the device back.
#    Last, a lost ACK (session 46): a new grant for donor 3 and SIGHUP,
#    with donor 3's RC ACKs to the pager dropped (nftables, as
#    donor/badpeer), so the grant's SEND neither completes nor fails; then
#    donor 3 is killed. Its DREQ must end the send at once: the pager
#    fails donor 3 and keeps the device, every byte read back from the
#    other copies. (The old pager waited on its CQ alone: the send ended
#    at the --timeout, rxe retrying forever with retry_count 7. The
#    restarted pager has --ack-timeout 20, 4.3 s a try, so that 7 tries,
#    30 s, cannot pass for the DREQ either.)
# (Was client/add-donor and client/add-donor-ublk: tests/vm/renames.)
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 300

G=/tmp/ub.grants
STATE=/var/lib/spare/ublk-addd.state
ARGS="--size 128M --slab-size 16M --copies 2 --queues 2 --name addd --grant-file $G"
diag() {
	if [ "$BACKEND" = kmod ]; then
		show_stats "$disk"; dmesg | grep -E 'moved|evicted|refused|lost|donor' | tail -20
	else
		cat /tmp/ublk.log; cat "/run/spare/ublk/addd.map" 2>/dev/null
	fi
	donor_logs
}
# donor 4 as the pager's log names it (its address, with the port or not)
dn4='donor 10\.0\.0\.4(:18515)?'

if [ "$BACKEND" = kmod ]; then
	step "one donor, 1 copy per slab, no backup; 32 MiB written"
	rxe_up 3
	client_require	# spare.ko needs the RDMA core rxe_up loads
	donor_start 2 --budget 256M --slab-size 16M --evict-deadline 20000
	donor_start 3 --budget 256M --slab-size 16M
	client_up 128M 16M 1 10.0.0.2:18515
else
	step "donors 2, 3 and 4 lend against grants; the device's grants name 2 and 3"
	client_require
	rxe_up 4
	sparectl gen-key >/tmp/grant.key && chmod 600 /tmp/grant.key || fail "gen-key"
	for n in 2 3 4; do
		donor_start $n --budget 256M --slab-size 16M --grant-key-file /tmp/grant.key \
			--evict-deadline 30000 --resume-hold 60
	done
	# one grant per slab copy, as a broker issues them for a placement
	for i in 1 2 3 4 5 6 7 8; do
		ublk_mint ok:1 10.0.0.2 && ublk_mint ok:1 10.0.0.3 || fail "mint"
	done >$G
	chmod 600 $G
	rm -f "$STATE"
	# shellcheck disable=SC2086
	ublk_up $ARGS
	grep -q -- '--grant-file: 8 slab(s) x 2 copies on 2 donor(s)' /tmp/ublk.log || { diag; fail "not placed on 2 donors"; }
fi
dd if=/dev/urandom of=/tmp/want bs=1M count=32 2>/dev/null || fail "no pattern"
slabs_write "$disk"
slabs_verify "$disk" "written"
if [ "$BACKEND" = kmod ]; then
	pass "/dev/$disk: 8 slabs on donor 2, 32 MiB written and read back"
else
	pass "/dev/$disk: 8 slabs x 2 copies on donors 2 and 3, 32 MiB written"
fi

if [ "$BACKEND" = kmod ]; then
	# the module's donor list is configfs "donors"; it moves a copy once
	# the appended donor is live
	step "donor 3 appended to configfs donors; it connects"
	echo 10.0.0.2:18515,10.0.0.3:18515 >"$CFS/swap0/donors" || fail "appending donor 3"
	wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.3:18515\" {print \$4}' /sys/block/$disk/spare/donor_stat)\" = live ]" ||
		{ diag; fail "donor 3 did not come up"; }
	pass "donor 3 live"

	step "donor 2 evicts one slab: the copy moves to donor 3"
	donor_ctl 2 evict 1 >/dev/null || fail "donor 2: evict"
	wait_until 60 sh -c "[ \"\$(awk '\$3 == \"10.0.0.2:18515\" {print \$7}' /sys/block/$disk/spare/donor_stat)\" -ge 1 ]" ||
		{ diag; fail "the EVICT was not answered"; }
	dmesg | grep -E 'evicted' | sed 's/^/    /'
	[ "$(donor_field 10.0.0.2 moves)" = 1 ] ||
		{ diag; fail "the evicted copy did not move (moves=$(donor_field 10.0.0.2 moves))"; }
	[ "$(donor_metric 3 spare_donor_slabs_lent)" = 1 ] ||
		{ diag; fail "donor 3 does not lend the moved slab"; }
	pass "1 slab moved to donor 3"

	step "every page reads back; no I/O error"
	slabs_verify "$disk" "after the move"
	[ "$(client_stat io_errors)" = 0 ] || { diag; fail "$(client_stat io_errors) I/O errors"; }
	[ "$(donor_field 10.0.0.2 moves_short)" = 0 ] || fail "the move ran out of time (pages lost)"
	spare_destroy swap0
	check_dmesg
	pass "32 MiB verified after the move"
	exit 0
fi

# The pager: the eviction comes first and waits (its donors come from
# grants, and a move waits for one), and a restart must keep the added
# donor's number (its state file); spare.ko has neither.
step "donor 2 evicts a slab while every donor holds a copy of it: the move waits for a donor"
donor_ctl 2 evict 1 >/dev/null || fail "donor 2: evict"
wait_for 100 grep -q 'waiting for a donor to be added' /tmp/ublk.log ||
	{ diag; fail "the move did not wait for a donor"; }
grep -q 'cannot move' /tmp/ublk.log && { diag; fail "the copy went the old way"; }
# listed for sparectl device monitor (version, slab, evicting donor index, address)
wait_for 30 grep -Eq '^1 [0-7] 0 10\.0\.0\.2:18515$' /run/spare/ublk/addd.moving ||
	{ cat /run/spare/ublk/addd.moving; fail "addd.moving does not list the waiting move"; }
pass "the move waits (every other donor holds a copy of the slab), listed in addd.moving"

step "a grant for donor 4 appended, SIGHUP: donor 4 added and connected; the waiting copy moves there"
conns0=$(donor_metric 4 spare_donor_data_conns_total)
ublk_mint ok:4 10.0.0.4 >>$G || fail "mint"
kill -HUP "$UBLK_PID"
wait_for 100 grep -Eq "$dn4: connected after" /tmp/ublk.log || { diag; fail "donor 4 was not added"; }
grep -Eq "$dn4: added \(a new grant names it\) as donor 2" /tmp/ublk.log || { diag; fail "not added as donor 2"; }
# a DATA connection per queue, and resync's
conns3() { [ "$(donor_metric 4 spare_donor_data_conns_total)" = $((conns0 + 3)) ]; }
wait_until 10 conns3 ||
	{ diag; fail "donor 4 took $(( $(donor_metric 4 spare_donor_data_conns_total) - conns0 )) DATA connections, not 3"; }
wait_for 30 grep -q "^donor_stat 2 [0-9]* 10.0.0.4:18515 " /run/spare/ublk/addd ||
	{ cat /run/spare/ublk/addd; fail "the counters file does not show donor 4"; }
wait_for 600 grep -Eq "moved to $dn4 in" /tmp/ublk.log || { diag; fail "the copy did not move to donor 4"; }
grep -E "SIGHUP|EVICT|waiting|moving it|moved|$dn4" /tmp/ublk.log
grep -q 'cannot move' /tmp/ublk.log && { diag; fail "a copy went the old way"; }
[ "$(donor_metric 4 spare_donor_slabs_lent)" = 1 ] || fail "donor 4 lends $(donor_metric 4 spare_donor_slabs_lent) slabs, not 1"
wait_for 30 sh -c '[ ! -e /run/spare/ublk/addd.moving ]' || fail "addd.moving stays after the move"
slabs_verify "$disk" "after the move to donor 4"
pass "donor 4 added as donor 2 (3 DATA connections); the waiting copy moved there; 32 MiB read back"

step "the pager SIGKILLed and started again: donor 4 is donor 2 still, the device taken back"
kill -KILL "$UBLK_PID"; wait "$UBLK_PID" 2>/dev/null
# shellcheck disable=SC2086
ublk_up $ARGS --timeout 60000 --ack-timeout 20
grep -q "taking /dev/$disk back" /tmp/ublk.log || { diag; fail "the device was not taken back"; }
[ "$(head -1 /tmp/ublk.out)" = "$disk" ] || fail "a new device instead of $disk"
grep -q 'no copy left\|no longer holds it' /tmp/ublk.log && { diag; fail "a copy was lost across the restart"; }
grep 'restart:\|added while\|donor 2' /tmp/ublk.log | head -5
# the slab map (rewritten once a second): one copy on donor 2, 10.0.0.4
wait_for 30 sh -c "awk '\$4 == 2 && \$5 == \"10.0.0.4:18515\" {n++} END {exit n != 1}' /run/spare/ublk/addd.map" ||
	{ diag; fail "the slab map does not show one copy on donor 2 (10.0.0.4)"; }
slabs_verify "$disk" "after the restart"
pass "taken back with donor 4 numbered as before; every byte read back"

step "a grant's SEND whose ACK is lost, then donor 3 killed: the pager learns from the DREQ"
dn3='donor 10\.0\.0\.3(:18515)?'
ublk_mint ok:1 10.0.0.3 >>$G || fail "mint"
nft add table inet spare_ack &&
nft add chain inet spare_ack in '{ type filter hook input priority 0; }' &&
nft add rule inet spare_ack in ip saddr 10.0.0.3 ip daddr 10.0.0.1 \
	udp dport 4791 @th,64,8 0x11 counter drop ||
	fail "cannot install the ACK filter"
acks_dropped() { nft list table inet spare_ack | grep -q 'counter packets [1-9]'; }
kill -HUP "$UBLK_PID"
wait_until 30 acks_dropped || { nft list table inet spare_ack; diag; fail "no ACK was dropped: the case was not tested"; }
t0=$(cut -d' ' -f1 /proc/uptime)
kill -KILL "$(donor_pid 3)"; wait "$(donor_pid 3)" 2>/dev/null
wait_for 100 grep -Eq "$dn3: .*failing its copies" /tmp/ublk.log ||
	{ diag; fail "the pager did not fail donor 3 within 20 s of its close (its send waits for the lost ACK)"; }
t1=$(cut -d' ' -f1 /proc/uptime)
nft delete table inet spare_ack || fail "cannot remove the ACK filter"
grep -E "$dn3|SIGHUP" /tmp/ublk.log | tail -6
grep -Eq "$dn3: control link: RDMA_CM_EVENT_DISCONNECTED" /tmp/ublk.log ||
	{ diag; fail "donor 3 failed, but not from its DREQ"; }
kill -0 "$UBLK_PID" || { diag; fail "the pager exited"; }
echo "the pager failed donor 3 $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}') s after its close"
slabs_verify "$disk" "with donor 3 gone"
pass "the pager failed donor 3 at its DREQ, not at a time-out; every byte read back"

client_down
[ "$(client_stat io_errors)" = 0 ] || fail "$(client_stat io_errors) I/O errors"
[ -e "$STATE" ] && fail "state file left after a clean stop"
for n in 2 4; do kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || fail "spared $n exit"; done
check_dmesg
pass "stopped cleanly; 0 I/O errors"
