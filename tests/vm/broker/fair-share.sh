# SPDX-License-Identifier: GPL-2.0
# vm-backends: kmod ublk
# vm-kernels: last
#
# The fair share taken back (issue 32, Documentation/protocol.md "Taking
# excess back"): a broker with 6 s leases, two donors of 4 slabs of
# 16 MiB each (a pool of 8), and two clients of the backend (spare.ko
# devices, or spare-ublk pagers).
#  - the hog ("trainer"): 8 slabs x 1 copy, every slab, with a sync backup
#    (brd), its grants kept by "sparectl device monitor" (standby=0),
#    which asks the broker for its move marks; 4 MiB written in each slab;
#  - the newcomer ("newbie"): a 4-slab device (its share: 8 / 2) asked
#    for every 1.5 s; refused (no-space) while the pool is full, which makes
#    it a waiting client. The broker marks the hog's renewed grants (a
#    quarter of its excess a lease), the monitor asks the device for the
#    copies beyond its unmarked grants (the pager's NAME.giveback and
#    SIGHUP; the module's configfs "giveback"), the device gives back
#    those the backup holds (EVICTING, drained, UNMAP, slot freed), the
#    donors count them free, and the newcomer's device is created.
# Required: the newcomer gets its 4 slabs within 75 s (the hog's
# renewals in that time counted and shown); the hog gave back at least 4
# copies; every byte of both devices reads back (the hog's given-back
# slabs from its backup); no I/O error on either. With the pool
# full no donor's grants have room, so the copies are dropped, not moved,
# and the hog says so; then, the newcomer gone and the hog granted a
# standby slab on each donor, a copy asked back (configfs "giveback", or
# NAME.giveback and SIGHUP) moves to the other donor (never dropped: the
# slab keeps its copy, the donors' counts move by one, spare.ko's
# donor_stat counts the move, the data reads back). spare.ko: a write to
# configfs "giveback" the module cannot act on (not "ADDR COUNT", no donor
# of the device there, more copies than slabs) is refused and changes
# nothing. On a pager and sparectl that do not act on marks (before issue
# 32's step 3), or a spare.ko and sparectl that do not (before session
# 43), the newcomer never gets in.
# The lease sets the pace (the broker marks a quarter of the hog's excess
# a lease; a refused client counts as waiting for a lease): 6 s, not the
# 12 s of session 46 and before, with every wait and bound that follows
# from it scaled with it (the newcomer's tries every lease / 4, its
# bound 12.5 leases, the sleep for the hog's grants to lapse a lease + 1
# s). What is not scaled is absolute: the monitor still renews 4 s before
# a grant ends (so a renewal has as long as before to reach the broker
# and the donors), and the I/O, the drains and the moves take what they
# take.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 500

lent() { donor_metric "$1" spare_donor_slabs_lent; }
HLOG=/run/spare/ublk/hog.log
NLOG=/run/spare/ublk/newbie.log
[ "$BACKEND" = kmod ] && HLOG=/tmp/kernel.log
# the hog's log: the pager's, or the kernel's (spare.ko)
hog_log() { [ "$BACKEND" = kmod ] && dmesg >$HLOG; cat $HLOG; }
diag() {
	sparectl device show hog; hog_log | tail -60; cat /tmp/monitor.log
	[ "$BACKEND" = ublk ] && [ -e $NLOG ] && tail -20 $NLOG
	grep -E 'fair share|marked|no-space|refus' /tmp/broker.log | tail -30
	for f in /tmp/spared-*.log; do echo "---- $f"; tail -30 "$f"; done
}
# I/O errors of device NAME (disk DISK): field 10 of io_stat in a pager's
# counters file, or spare.ko's io_stat
io_errors() {
	if [ "$BACKEND" = kmod ]; then io_stat "$2" io_errors
	else awk '$1 == "io_stat" {print $10}' "/run/spare/ublk/$1"; fi
}
# the backend's argument to sparectl device create
if [ "$BACKEND" = kmod ]; then BE=; else BE=--backend=ublk; fi

LEASE=6
step "a broker ($LEASE s leases); donors 2 and 3 of 4 slabs each, lending only against its grants"
rxe_up 3
client_require
broker_keys donor2 donor3 trainer
# a second client, both at the broker and at the donors
(
	umask 077
	sparectl gen-key -o /tmp/b-newbie.key --force &&
	echo "newbie $(cat /tmp/b-newbie.key) role=client" >>/tmp/broker-hosts &&
	sparectl gen-key -o /tmp/newbie.key --force &&
	echo "newbie $(cat /tmp/newbie.key) role=client" >>/tmp/host-keys
) || fail "the newcomer's keys"
BROKER_LEASE=$LEASE broker_up /tmp/broker.log
grant_donor 2 donor2 --domain rack2 --budget 64M
grant_donor 3 donor3 --domain rack3 --budget 64M
broker_knows /tmp/broker.log donor2
broker_knows /tmp/broker.log donor3
modprobe brd rd_nr=1 rd_size=$((128 * 1024)) || fail "modprobe brd"
pass "broker and donors up"

step "the hog takes the whole pool: 8 slabs x 1 copy, a sync backup, a monitor asking for marks"
HB="broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key"
# shellcheck disable=SC2086
hog=$(sparectl device create hog $BE size=128M slab_size=16M replicas=1 \
	source=10.0.0.1 key-file=/tmp/trainer.key backup=/dev/ram0 backup_mode=sync \
	$HB lease=$LEASE) || { cat /tmp/broker.log; hog_log; donor_logs; fail "the hog's device"; }
[ "$(($(lent 2) + $(lent 3)))" = 8 ] || { diag; fail "not every copy of the hog mapped"; }
MON_LEASE=$LEASE broker_monitor_up hog interval=2 standby=0
dd if=/dev/urandom of=/tmp/want bs=1M count=32 2>/dev/null
slabs_write "$hog"
slabs_verify "$hog" "written"
pass "the hog holds 8 of 8 slabs: $(lent 2) on donor 2, $(lent 3) on donor 3"

step "the newcomer asks for its share (4 slabs) every 1.5 s"
NB="broker=$BROKER broker-name=newbie broker-key=/tmp/b-newbie.key"
t0=$(date +%s) tries=0 nb=
while [ $(($(date +%s) - t0)) -lt 75 ]; do
	tries=$((tries + 1))
	# shellcheck disable=SC2086
	if nb=$(sparectl device create newbie $BE size=64M slab_size=16M replicas=1 \
		source=10.0.0.1 key-file=/tmp/newbie.key $NB lease=600 2>>/tmp/newbie.err); then
		break
	fi
	nb=
	sleep 1.5
done
took=$(($(date +%s) - t0))
rounds=$(grep -cE "slab copies renewed|: renewed: " /tmp/monitor.log)
marked=$(grep -c "the broker marks" /tmp/monitor.log)
given=$(hog_log | grep -c "given back to the pool")
echo "    newcomer: $tries tries in $took s; the hog: $rounds renewal rounds, $marked with marks, $given copies given back"
{ grep -E "the broker marks|asked back|given back|kept" /tmp/monitor.log; hog_log |
	grep -E "asked back|given back|kept"; } | sed 's/^/    /' | head -30
grep -m3 "no-space" /tmp/newbie.err | sed 's/^/    /'
[ -n "$nb" ] || { diag; fail "the newcomer did not get its share of 4 slabs within 75 s"; }
[ "$given" -ge 4 ] || { diag; fail "the hog gave back $given copies, not 4"; }
# no room anywhere (the pool is full, standby=0): dropped, and said
hog_log | grep -q "no other donor's grants have room for the copies asked back" ||
	{ diag; fail "the copies were given back without a move, and the hog did not say why"; }
[ "$(hog_log | grep -c "ms (a move mark)$")" = 0 ] ||
	{ diag; fail "a copy moved with no room granted anywhere"; }
# the marks are kept beside the grants (until their grants lapse a lease
# after they end: read now, not at the end)
if [ "$BACKEND" = kmod ]; then MARKS=/run/spare/grants/hog.marks
else MARKS=/etc/spare/ublk-hog.marks; fi
[ -s "$MARKS" ] || { diag; fail "the hog's move marks were not kept in $MARKS"; }
pass "the newcomer got 4 slabs after $took s ($tries tries, $rounds renewal rounds of the hog)"

step "every byte of both devices reads back; no I/O error"
slabs_verify "$hog" "after giving back"
dd if=/dev/urandom of=/tmp/want-n bs=1M count=16 2>/dev/null
for i in 0 1 2 3; do
	dd if=/tmp/want-n of="/dev/$nb" bs=1M count=4 skip=$((i * 4)) seek=$((i * 16)) \
		oflag=direct 2>/dev/null || fail "write $nb"
done
for i in 0 1 2 3; do
	dd if="/dev/$nb" of=/tmp/back bs=1M count=4 skip=$((i * 16)) iflag=direct 2>/dev/null ||
		fail "read $nb"
	dd if=/tmp/want-n of=/tmp/want-i bs=1M count=4 skip=$((i * 4)) 2>/dev/null
	cmp /tmp/back /tmp/want-i || fail "$nb: slab $i does not read back"
done
slabs_write "$hog"
slabs_verify "$hog" "rewritten"
[ "$(io_errors hog "$hog")" = 0 ] || { diag; fail "the hog had $(io_errors hog "$hog") I/O errors"; }
[ "$(io_errors newbie "$nb")" = 0 ] || fail "the newcomer had $(io_errors newbie "$nb") I/O errors"
[ "$(($(lent 2) + $(lent 3)))" -le 8 ] || fail "the donors lend $(($(lent 2) + $(lent 3))) slabs of 8"
pass "hog and newcomer verified; donors lend $(lent 2) + $(lent 3)"

step "with room granted on the other donor, a copy asked back moves there"
sparectl device destroy newbie || fail "destroy newbie"
nb=
# a lease: every grant the hog held when copies were asked has lapsed
sleep $((LEASE + 1))
broker_monitor_down
ml=$(wc -l </tmp/monitor.log) hl=$(hog_log | wc -l)
MON_LEASE=$LEASE broker_monitor_up hog interval=2 standby=1
if [ "$(lent 2)" -gt 0 ]; then FROM=2 TO=3; else FROM=3 TO=2; fi
FA=10.0.0.$FROM:$DONOR_PORT disk=$hog
standby_granted() {
	if [ "$BACKEND" = kmod ]; then
		tail -n +$((ml + 1)) /tmp/monitor.log | grep -v 'short of room' |
			grep -q " on 10.0.0.$TO:$DONOR_PORT ([0-9]* held) granted until"
	else	# the pager sends the donor its grants once the file has them
		hog_log | tail -n +$((hl + 1)) | grep -q "donor 10.0.0.$TO:$DONOR_PORT: sent [1-9][0-9]* grant"
	fi
}
moved_there() {
	hog_log | grep -q "slab [0-9]* moved to donor 10.0.0.$TO[:0-9]* in [0-9]* ms (a move mark)"
}
lends() { [ "$(lent "$1")" = "$2" ]; }
wait_until 20 standby_granted || { diag; fail "no standby grant on donor $TO"; }
broker_monitor_down	# nothing rewrites giveback meanwhile
f0=$(lent $FROM) t0=$(lent $TO) g0=$(hog_log | grep -c "given back to the pool")
if [ "$BACKEND" = kmod ]; then
	m0=$(slab_stat mapped) mv0=$(donor_field 10.0.0.$FROM moves)
	echo "$FA 1" >"$CFS/hog/giveback" || fail "giveback $FA 1"
else
	echo "$FA 1" >/etc/spare/ublk-hog.giveback || fail "ublk-hog.giveback"
	kill -HUP "$(awk '$1 == "pid" {print $2}' /run/spare/ublk/hog)" || fail "SIGHUP the pager"
fi
wait_until 30 moved_there ||
	{ diag; fail "the copy asked back on donor $FROM did not move to donor $TO"; }
hog_log | grep -E "moves to donor|ms \(a move mark\)" | tail -3 | sed 's/^/    /'
[ "$(hog_log | grep -c "given back to the pool")" = "$g0" ] ||
	{ diag; fail "a copy was dropped although donor $TO had room"; }
if [ "$BACKEND" = kmod ]; then
	[ "$(donor_field 10.0.0.$FROM moves)" = $((mv0 + 1)) ] ||
		fail "donor_stat moves on donor $FROM: $(donor_field 10.0.0.$FROM moves), was $mv0"
	[ "$(slab_stat mapped)" = "$m0" ] || fail "copies mapped: $(slab_stat mapped), was $m0 (one short?)"
fi
wait_until 10 lends $FROM $((f0 - 1)) || fail "donor $FROM lends $(lent $FROM), was $f0"
[ "$(lent $TO)" = $((t0 + 1)) ] || fail "donor $TO lends $(lent $TO), was $t0 (one copy short?)"
slabs_verify "$hog" "after the move"
pass "a copy moved from donor $FROM to $TO on a mark; donors lend $(lent 2) + $(lent 3), nothing dropped"

if [ "$BACKEND" = kmod ]; then
	step "spare.ko: configfs giveback refuses what it cannot act on, and changes nothing"
	GB=$CFS/hog/giveback disk=$hog
	g0=$(cat "$GB") m0=$(slab_stat mapped) l0=$(($(lent 2) + $(lent 3)))
	for bad in "garbage" "10.0.0.2:18515" "10.0.0.2:18515 x" "10.0.0.2:18515 -1" \
		"10.0.0.9:18515 1" "10.0.0.2:1 1" "10.0.0.2:18515 9" "10.0.0.2:18515 1 2"; do
		if echo "$bad" >"$GB" 2>/dev/null; then fail "giveback took '$bad'"; fi
	done
	[ "$(cat "$GB")" = "$g0" ] || fail "giveback after refused writes: '$(cat "$GB")', was '$g0'"
	[ "$(dmesg | grep -c "hog: giveback:")" -ge 8 ] || { dmesg | tail; fail "a refusal not logged"; }
	sleep 3		# a heartbeat: a look at what is owed
	[ "$(slab_stat mapped)" = "$m0" ] && [ "$(($(lent 2) + $(lent 3)))" = "$l0" ] ||
		fail "a refused giveback write moved a copy: $(slab_stat mapped) mapped (was $m0)"
	pass "8 bad writes refused (-EINVAL, logged); owed '$g0' as before, $m0 copies mapped"
fi

step "teardown"
if [ "$BACKEND" = kmod ]; then KEPT="/run/spare/grants/hog.grants $MARKS"
else KEPT="/etc/spare/ublk-hog.grants $MARKS /etc/spare/ublk-hog.giveback"; fi
[ -z "$nb" ] || sparectl device destroy newbie || fail "destroy newbie"
sparectl device destroy hog || fail "destroy hog"
for f in $KEPT; do
	[ ! -e "$f" ] || fail "$f outlived the device"
done
kill "$BROKER_PID"
pass "done"
