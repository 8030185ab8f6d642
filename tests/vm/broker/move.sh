# SPDX-License-Identifier: GPL-2.0
# vm-backends: kmod ublk
# vm-kernels: first
#
# One scenario, run once per backend (spare.ko on 6.1, the pager on the
# newest kernel): a one-copy device placed by spare-broker on two donors
# that lend only against its grants, 12 s grants kept by "sparectl device
# monitor"; one donor gives every slab back and they move to the other;
# with standby=0 the emptied donor's grants run out, the other evicts,
# the move waits for a grant the monitor gets there, and the copy moves
# back. Every byte written reads back. The monitor follows spare.ko by
# its uevents and the pager by its slab map, so the steps in between
# check each its own way.
#
# spare.ko:
# Moves driven by the broker's grants (issue 8): a one-copy device placed
# by spare-broker on two donors that lend only against its grants, kept by
# "sparectl device monitor". Whatever a donor evicts moves to the other one
# and nothing is lost:
#   - the first donor gives all its slabs back while a writer rewrites part
#     of the device (4 MiB written in each 16 MiB slab); the monitor keeps one slab of grant to spare on each
#     donor (standby=1) and grants more as the copies come (slab_evicted);
#   - the monitor then runs with standby=0, so the emptied donor's grants
#     run out; the other donor evicts: the kernel finds no donor whose
#     grants have room, says so (slab_moving), waits, and the monitor gets
#     a grant on the emptied donor from the broker; the copies move back.
# Every byte written reads back, before and after each move.
#
# spare-ublk:
# spare-ublk's moves driven by a broker's grants (issue 10; broker/move
# proves the same for the module, whose monitor hears uevents). A one-copy
# device placed by spare-broker on two donors that lend only against its
# grants, kept by "sparectl device monitor", which watches the pager's slab
# map (NAME.map) every second. Whatever a donor evicts moves to the other
# one and nothing is lost:
#   - standby=1: the first donor gives all its slabs back; they all move to
#     the other. Its grants have room for one more copy, and for as many
#     more as the older grants still unexpired beside the monitor's last
#     renewal allow (a donor lends against their sum): a copy beyond that
#     is refused (MAP: no grant), kept on it unmapped and waits (as the
#     module's move_wait_grant()) until the monitor, seeing it in the slab
#     map, gets a grant there from the broker and sends SIGHUP. Whether one
#     waits depends on those overlaps, so it is shown, not required;
#   - standby=0: the emptied donor's grants run out; the other evicts one
#     slab: no donor's grants have room; the copy must wait on the emptied
#     donor until the monitor gets a grant there; it moves back.
# Every byte written reads back after each move; no copy goes the old way.
# (Was broker/move and broker/grant-moves: tests/vm/renames.)
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 400

lent() { donor_metric "$1" spare_donor_slabs_lent; }
# a donor that lends only against the broker's grants, with 30 s of grace
# for an eviction: the moves copy their written pages over the emulated
# link (4-20 MB/s with the host busy: "Moving an evicted copy" in
# Documentation/kmod.md; the pager's move is due at 3/4 of it), and a
# move may wait for the monitor's grant besides; a move out of time loses
# what it did not copy, and this device has one copy and no backup.
donor_up() { grant_donor "$1" "donor$1" --domain "rack$1" --evict-deadline 30000; }
B="broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key"
# One client, so nobody waits behind it: the broker marks nothing, and no
# copy is asked back as if marked (copies that moved in beyond a donor's
# grants are room to ask for; sparectl once asked them back). $1: the
# client's log lines that say a copy was asked back.
no_marks() {
	! grep -q "above its fair share" /tmp/broker.log ||
		{ grep "above its fair share" /tmp/broker.log; fail "the broker marked a lone client's grants"; }
	! grep -q "asked back by" "$1" ||
		{ grep "asked back by" "$1"; fail "copies asked back with no mark"; }
}
if [ "$BACKEND" = kmod ]; then
	moved() { donor_field "10.0.0.$1" moves; }
	diag() {
		show_stats "$disk"; cat "/sys/block/$disk/spare/slab_map"
		dmesg | grep -vE 'I/O error|Buffer I/O|grant' | grep -E 'spare|donor' | tail -40
		cat /tmp/monitor.log; donor_logs
	}
	# rewrite the first 4 MiB with pattern B again and again until stopped
	writer_start() {
		( while [ ! -e /tmp/writer.stop ]; do
			dd if=/tmp/pattern-b of="/dev/$disk" bs=1M oflag=direct conv=notrunc 2>/dev/null || exit 1
		  done ) &
		WRITER_PID=$!
	}
	writer_stop() {
		touch /tmp/writer.stop; wait $WRITER_PID || fail "the writer got an I/O error"; rm -f /tmp/writer.stop
	}
else
	LOG=/run/spare/ublk/ub0.log
	# the donors' whole logs, not donor_logs' tails: the remote access
	# error once seen here (Documentation/perf/intermittent/) is matched
	# by rkey with their MAP lines
	diag() {
		sparectl device show ub0; tail -40 $LOG; cat /tmp/monitor.log
		for f in /tmp/spared-*.log; do echo "---- $f"; cat "$f"; done
	}
	# donor N as the pager's log names it (its address, with the port or not)
	dn() { echo "donor 10\.0\.0\.$1(:$DONOR_PORT)?"; }
	moves_to() { grep -Ec "moved to $(dn $1) in" $LOG; }
fi

step "a broker; donors 2 and 3 lend only against its grants"
rxe_up 3
broker_keys donor2 donor3 trainer
broker_up /tmp/broker.log
donor_up 2
donor_up 3
broker_knows /tmp/broker.log donor2
broker_knows /tmp/broker.log donor3
client_require	# after rxe_up: spare.ko needs the RDMA core it loads
pass "broker and donors up"

step "device create through the broker ($BACKEND): 8 slabs x 1 copy, 12 s grants, a monitor"
if [ "$BACKEND" = kmod ]; then
	disk=$(sparectl device create swap0 size=128M slab_size=16M replicas=1 source=10.0.0.1 \
		key-file=/tmp/trainer.key $B lease=12) ||
		{ cat /tmp/broker.log; dmesg | tail -20; donor_logs; fail "device create through the broker"; }
	[ "$(slab_stat mapped)" = 8 ] || { show_stats "$disk"; fail "not every copy mapped"; }
	broker_monitor_up swap0 interval=1 standby=1
	uevent_watch
else
	disk=$(sparectl device create ub0 --backend=ublk size=128M slab_size=16M replicas=1 \
		source=10.0.0.1 key-file=/tmp/trainer.key $B lease=12) ||
		{ cat /tmp/broker.log; cat $LOG; donor_logs; fail "device create through the broker"; }
	[ "$(($(lent 2) + $(lent 3)))" = 8 ] || { diag; fail "not every copy mapped"; }
	# interval=60: a failed round would wait a minute; the moves need none
	broker_monitor_up ub0 interval=60 standby=1
fi
dd if=/dev/urandom of=/tmp/want bs=1M count=32 2>/dev/null
[ "$BACKEND" = kmod ] && dd if=/dev/urandom of=/tmp/pattern-b bs=1M count=4 2>/dev/null
slabs_write "$disk"
slabs_verify "$disk" "written"
# X: the donor holding more copies evicts first; Y takes them
if [ "$(lent 2)" -ge "$(lent 3)" ]; then X=2 Y=3; else X=3 Y=2; fi
nx=$(lent $X)
if [ "$BACKEND" = ublk ]; then
	# the monitor's first round: one standby slab on each donor
	wait_until 20 grep -q "slab copies renewed, 1 standby per donor" /tmp/monitor.log ||
		{ cat /tmp/monitor.log; fail "the monitor did not renew"; }
fi
pass "8 copies: $nx on donor $X, $(lent $Y) on donor $Y; every byte reads back"

# spare.ko: the moves under a writer, the kernel's uevents and its
# slab_moving; then every copy moves back
if [ "$BACKEND" = kmod ]; then
	step "donor $X gives every slab back while a writer rewrites 4 MiB: all move to donor $Y"
	writer_start
	sleep 1
	donor_ctl $X evict all
	wait_until 40 sh -c "[ \"\$(awk '\$3 == \"10.0.0.$X:18515\" {print \$10}' /sys/block/$disk/spare/donor_stat)\" -ge $nx ]" ||
		{ diag; fail "not every slab moved"; }
	writer_stop
	dd if=/tmp/pattern-b of=/tmp/want bs=1M conv=notrunc 2>/dev/null
	slabs_verify "$disk" "after the first moves"
	dmesg | grep -E 'moved to donor' | sed 's/^/    /'
	[ "$(lent $X)" = 0 ] && [ "$(lent $Y)" = 8 ] || fail "donor $X lends $(lent $X), donor $Y $(lent $Y)"
	[ "$(donor_field 10.0.0.$X moves_short)" = 0 ] || fail "a move ran out of time"
	[ "$(donor_field 10.0.0.$X evictions)" = "$(moved $X)" ] || fail "an eviction went the old way"
	grep -q "uevent slab_evicted from 10.0.0.$X:18515" /tmp/monitor.log ||
		{ cat /tmp/monitor.log; fail "the monitor saw no slab_evicted"; }
	# donor Y's newest grant covers its 8 copies and the standby slab
	covered=$(awk -v d="on 10.0.0.$Y:18515" 'index($0, d) && /granted until/ {
		for (i = 1; i < NF; i++) if ($(i + 1) == "slab(s)") n = $i } END {print n + 0}' /tmp/monitor.log)
	[ "$covered" -ge 9 ] || { cat /tmp/monitor.log; fail "the monitor's last grant on donor $Y covers $covered slabs, not 8 + 1"; }
	pass "$(moved $X) copies moved to donor $Y; the monitor followed the uevents"

	step "standby=0: donor $X's grants run out; donor $Y evicts; a grant is asked for"
	broker_monitor_down
	: >/tmp/monitor.log
	broker_monitor_up swap0 interval=1 standby=0
	# donor X holds nothing: the monitor renews it no more; its last grants
	# (12 s) run out. The kernel's view: no unexpired grant left for X.
	gone() { ! awk -v now="$(date +%s)" -v d="10.0.0.$X:18515" \
		'$2 == d && substr($4, 8) + 0 > now {f = 1} END {exit !f}' "$CFS/swap0/grants"; }
	wait_until 30 gone || { cat "$CFS/swap0/grants"; fail "donor $X's grants did not run out"; }
	donor_ctl $Y evict 1
	wait_until 30 sh -c "[ \"\$(awk '\$3 == \"10.0.0.$Y:18515\" {print \$10}' /sys/block/$disk/spare/donor_stat)\" -ge 1 ]" ||
		{ diag; fail "the slab did not move back"; }
	dmesg | grep -q "asking for a grant" || fail "the kernel did not ask for a grant"
	grep -q "uevent slab_moving from 10.0.0.$Y:18515" /tmp/monitor.log ||
		{ cat /tmp/monitor.log; fail "the monitor saw no slab_moving"; }
	grep -Eq "copies moving there: [0-9]+ slab\(s\) on 10.0.0.$X:18515" /tmp/monitor.log ||
		{ cat /tmp/monitor.log; fail "the monitor did not get a grant on donor $X"; }
	grep -Eq "^change $disk slab_moving 10.0.0.$Y:18515 slab [0-9]+$" /tmp/uevents ||
		{ cat /tmp/uevents; fail "no slab_moving uevent with its slab recorded"; }
	[ "$(lent $X)" = 1 ] || fail "donor $X lends $(lent $X), want 1"
	slabs_verify "$disk" "after the move back"
	pass "slab moved back to donor $X on a grant asked for by the kernel"

	step "donor $Y evicts the rest: every copy moves, every byte reads back"
	donor_ctl $Y evict all
	wait_until 40 sh -c "[ \"\$(awk '\$3 == \"10.0.0.$Y:18515\" {print \$10}' /sys/block/$disk/spare/donor_stat)\" -ge 8 ]" ||
		{ diag; fail "not every slab moved back"; }
	show_stats "$disk"
	cat /tmp/monitor.log
	slabs_verify "$disk" "after every move"
	[ "$(lent $X)" = 8 ] && [ "$(lent $Y)" = 0 ] || fail "donor $X lends $(lent $X), donor $Y $(lent $Y)"
	[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
	dmesg >/tmp/dmesg.txt
	no_marks /tmp/dmesg.txt
	for h in $X $Y; do
		[ "$(donor_field 10.0.0.$h moves_short)" = 0 ] || fail "a move off donor $h ran out of time"
		[ "$(donor_field 10.0.0.$h losses)" = 0 ] || fail "donor $h's connection was lost"
		[ "$(donor_metric $h spare_donor_revocations_total)" = 0 ] || fail "donor $h had to revoke a slab"
	done
	pass "16 moves, no byte lost, no I/O error"

	step "teardown"
	broker_monitor_down
	spare_destroy swap0
	rmmod spare || fail "rmmod"
	kill -TERM "$BROKER_PID"; wait "$BROKER_PID" || { cat /tmp/broker.log; fail "spare-broker exit"; }
	for n in 2 3; do
		kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
	done
	check_dmesg
	pass "broker-driven moves"
	exit 0
fi

# spare-ublk: the moves, the grant waits (shown in its log), the move back
step "donor $X gives every slab back: all $nx move to donor $Y"
donor_ctl $X evict all || fail "evict"
all_moved() { [ "$(moves_to $Y)" -ge "$nx" ]; }
wait_until 60 all_moved || { diag; fail "$(moves_to $Y) of $nx copies moved"; }
grep -E "waiting for a grant|takes it now|moved to donor" $LOG | sed 's/^/    /'
slabs_verify "$disk" "after the moves"
[ "$(lent $X)" = 0 ] && [ "$(lent $Y)" = 8 ] || fail "donor $X lends $(lent $X), donor $Y $(lent $Y)"
grep -q "cannot move" $LOG && { diag; fail "a copy went the old way"; }
grep -q "moved only in part" $LOG && { diag; fail "a move ran out of time"; }
# whether a copy waited depends on the grants' overlaps: each that did was
# mapped once its grant came
waited=$(grep -Ec "waiting for a grant on $(dn $Y)\$" $LOG)
[ "$(grep -Ec "$(dn $Y) takes it now" $LOG)" = "$waited" ] ||
	{ diag; fail "$waited moves waited for a grant, not all were mapped"; }
pass "$nx copies moved to donor $Y ($waited waited for a grant)"

step "standby=0: donor $X's grants run out; donor $Y evicts one slab; it waits for a grant on $X"
broker_monitor_down
: >/tmp/monitor.log
broker_monitor_up ub0 interval=60 standby=0
# donor X holds nothing: the new monitor renews it no more, and its grants
# run out. The donor logs each grant it takes, a renewal's new expiry too
# ("grant ID for N slab(s) until T"), and counts a grant until second T
# (the broker's clock skew moves only not_before): wait until the guest's
# clock, the donor's too, is past the last T it logged
x_until() { awk '/: grant [0-9a-f]+ for [0-9]+ slab\(s\) until / {
	for (i = 1; i < NF; i++) if ($i == "until" && $(i + 1) + 0 > t) t = $(i + 1) + 0 }
	END {print t + 0}' "/tmp/spared-$X.log"; }
[ "$(x_until)" -gt 0 ] || { diag; fail "donor $X logged no grant"; }
x_expired() { [ "$(date +%s)" -gt "$(x_until)" ]; }
wait_until 40 x_expired || { diag; fail "donor $X's grants (until $(x_until)) did not run out"; }
echo "    donor $X's last grant ran out $(( $(date +%s) - $(x_until) )) s ago (until $(x_until))"
w0=$(grep -Ec "waiting for a grant on $(dn $X)\$" $LOG)
r0=$(donor_metric $X spare_donor_map_grant_refusals_total)
donor_ctl $Y evict 1 || fail "evict 1"
back() { [ "$(moves_to $X)" -ge 1 ]; }
wait_until 40 back || { diag; fail "the slab did not move back"; }
grep -E "waiting for a grant|takes it now|moved to $(dn $X)" $LOG | tail -3 | sed 's/^/    /'
slabs_verify "$disk" "after the move back"
[ "$(grep -Ec "waiting for a grant on $(dn $X)\$" $LOG)" -gt "$w0" ] ||
	{ diag; fail "the move did not wait for a grant on donor $X"; }
[ "$(donor_metric $X spare_donor_map_grant_refusals_total)" -gt "$r0" ] || fail "donor $X refused no MAP"
[ "$(lent $X)" = 1 ] && [ "$(lent $Y)" = 7 ] || fail "donor $X lends $(lent $X), donor $Y $(lent $Y)"
grep -q "cannot move" $LOG && { diag; fail "a copy went the old way"; }
no_marks $LOG
pass "the copy waited on the emptied donor, got its grant, and moved"

step "destroy; the donors lend nothing; the monitor ends"
sparectl device destroy ub0 || { cat $LOG; fail "destroy"; }
mon_done() { ! kill -0 "$MON_PID" 2>/dev/null; }
wait_until 15 mon_done || fail "the monitor outlived the device"
wait "$MON_PID" || { cat /tmp/monitor.log; fail "monitor exit"; }
none_lent() { [ "$(lent 2)" = 0 ] && [ "$(lent 3)" = 0 ]; }
wait_until 20 none_lent || fail "lent after destroy: $(lent 2) and $(lent 3)"
kill -TERM "$BROKER_PID"; wait "$BROKER_PID" || { cat /tmp/broker.log; fail "spare-broker exit"; }
check_dmesg
pass "every copy moved under the broker's grants, nothing lost"
