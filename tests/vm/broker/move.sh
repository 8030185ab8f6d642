# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
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
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
set -u
watchdog 400

lent() { donor_metric "$1" spare_donor_slabs_lent; }
moved() { donor_field "10.0.0.$1" moves; }
# a donor that lends only against the broker's grants, with 30 s of grace
# for an eviction: the moves of a batch copy one 256 KiB chunk at a time
# over the emulated link, 4-20 MB/s with the host busy ("Moving an evicted
# copy" in Documentation/kmod.md); a move out of time loses what it did not
# copy, and this device has one copy and no backup.
donor_up() { grant_donor "$1" "donor$1" --domain "rack$1" --evict-deadline 30000; }
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

step "a broker; donors 2 and 3 lend only against its grants"
rxe_up 3
broker_keys donor2 donor3 trainer
broker_up /tmp/broker.log
donor_up 2
donor_up 3
broker_knows /tmp/broker.log donor2
broker_knows /tmp/broker.log donor3
spare_load
pass "broker and donors up"

step "device create through the broker: 8 slabs x 1 copy, 12 s grants, a monitor"
disk=$(sparectl device create swap0 size=128M slab_size=16M replicas=1 source=10.0.0.1 \
	key-file=/tmp/trainer.key broker=$BROKER broker-name=trainer \
	broker-key=/tmp/b-trainer.key lease=12) ||
	{ cat /tmp/broker.log; dmesg | tail -20; donor_logs; fail "device create through the broker"; }
[ "$(slab_stat mapped)" = 8 ] || { show_stats "$disk"; fail "not every copy mapped"; }
broker_monitor_up swap0 interval=1 standby=1
uevent_watch
dd if=/dev/urandom of=/tmp/want bs=1M count=32 2>/dev/null
dd if=/dev/urandom of=/tmp/pattern-b bs=1M count=4 2>/dev/null
slabs_write "$disk"
slabs_verify "$disk" "written"
# X: the donor holding more copies evicts first; Y takes them
if [ "$(lent 2)" -ge "$(lent 3)" ]; then X=2 Y=3; else X=3 Y=2; fi
nx=$(lent $X)
pass "8 copies: $nx on donor $X, $(lent $Y) on donor $Y; every byte reads back"

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
