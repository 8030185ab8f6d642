# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
# vm-init: systemd
#
# The units in dist/ run by a real systemd: Debian 12's systemd 252 as PID
# 1 of the guest (scripts/vm/init hands over to it; this scenario runs as
# its spare-scenario.service). Until this scenario the units were checked
# by systemd-analyze only (scripts/units-check); their sandboxing
# (ProtectSystem=strict, ReadWritePaths, DynamicUser, the capability
# bounding sets, the address families) had never run.
#   - the units installed as `make install` fills them in, the programs
#     in /usr/sbin; every one loads;
#   - spare-broker.service with its keys readable by root only, as its
#     example config says; it is ready (Type=notify) and donors register;
#   - spared.service as donor 2 (its config in /etc/spare/spared.conf),
#     enabled and started, ready, its control socket answering, its log
#     levels read by journald; donor 3 started by hand;
#   - "sparectl device create --backend=ublk ... broker=" under systemd
#     starts spare-ublk@ub0 (Type=notify: the device is up once it is
#     active), which sets its write window (ReadWritePaths) and writes
#     its state file (StateDirectory) and counters (RuntimeDirectory);
#     32 MiB written and read back;
#   - sparectl-monitor@ub0 renews its grants (writing /etc/spare under
#     ProtectSystem=strict) and sends the pager SIGHUP; `systemctl reload`
#     does too;
#   - the pager SIGKILLed: systemd starts it again (Restart=on-failure)
#     and it takes the device back with every byte;
#   - `systemctl kill -s USR2 spared`, the documented upgrade step, with
#     a new binary installed: spared execs it in place and systemd keeps
#     tracking it (same MainPID, active, no restart counted, fed past
#     WatchdogSec); the pager's slabs on it are held over the exec, kept,
#     resumed, and the device reads back;
#   - destroy stops the pager's unit, the monitor ends by itself;
#   - a spare.ko device made through the broker, its sparectl-monitor@
#     renewing both donors through configfs, ending with the device;
#   - `systemctl reload` (ExecReload=, SIGHUP): the broker takes a rotated
#     client key (the module device below is made with it) and its donors
#     keep their sessions; spared applies a live setting, keeps one that
#     needs a restart, and refuses a bad line with its file:line; spare-aggd
#     reloads; none of them restarts;
#   - spared's host-keys rotated by a reload: trainer's session that
#     authenticated with the old key keeps its heartbeats, a new session
#     with the old key is refused, one with the new key served;
#   - `systemctl restart spare-broker`, the guide's upgrade step: a new
#     process, both donors register again, and places the devices below;
#   - the swap device at boot: spare-swap@sw0 from /etc/spare/swap-sw0.conf
#     (backend=ublk, through the broker) enabled and started, listed by
#     swapon --show at its swap-priority, its monitor started after it, a
#     workload swapping onto it; systemctl stop swaps off and the device,
#     its pager and its files are gone; the same with backend=module;
#   - a bad swap config (unknown key) fails the unit with the file, line
#     and key in its journal and no retry; a broker that does not answer
#     fails it with the reason, and it is retried while systemctl start
#     returns at once; neither leaves a device, a swap or a file behind;
#   - the broker stopped, then started: the retried spare-swap@ start
#     succeeds by itself, and the unit is ordered for a shutdown (stopped
#     by shutdown.target, before the network and the broker);
#   - the admin guide's tuning commands: `sysctl -w vm.swappiness=100`,
#     and `systemctl set-property` of a job's MemoryHigh=, MemoryMax= and
#     MemorySwapMax= (on a train.service: its cgroup files);
#   - every daemon stops cleanly (inactive, not failed); spare-aggd.service
#     is enabled, starts and stops.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/ops/units.inc
set -u
watchdog 600
ublk_require

[ "$(cat /proc/1/comm)" = systemd ] || fail "PID 1 is $(cat /proc/1/comm), not systemd: not run under scripts/vm/run?"
diag() {
	for u in spare-broker spared spare-ublk@ub0 sparectl-monitor@ub0; do
		echo "---- $u: $(systemctl is-active $u)"; jlog $u | tail -30
	done
	donor_logs
}
B="broker=$BROKER broker-name=trainer broker-key=/etc/spare/b-trainer.key"

step "the units, filled in as make install does; programs in /usr/sbin; systemd loads them all"
units_install
for u in spared spare-broker spare-aggd spare-ublk@ub0 sparectl-monitor@ub0 spare-swap@sw0; do
	[ "$(systemctl show -P LoadState "$u")" = loaded ] || fail "$u: $(systemctl show -P LoadState "$u")"
done
pass "6 units loaded"

step "spare-broker.service, its keys readable by root only: ready, and donors register"
rxe_up 3
units_keys
units_configs
systemctl start spare-broker || { diag; fail "systemctl start spare-broker"; }
active spare-broker || { diag; fail "spare-broker is $(systemctl is-active spare-broker)"; }
jlog spare-broker | grep -q listening || { diag; fail "the broker does not say it listens"; }
jlog spare-broker | grep -q "grants: version 2, key id 1" || { diag; fail "the unit's broker does not sign version 2 grants"; }
buid=$(awk '/^Uid:/ {print $2}' "/proc/$(systemctl show -P MainPID spare-broker)/status")
[ -n "$buid" ] && [ "$buid" != 0 ] || fail "spare-broker runs as uid '$buid', not a dynamic user"
pass "spare-broker active (ready) as dynamic user $buid, reading the copies of root's keys its unit made, signing version 2 grants"

step "spared.service as donor 2, ready, its control socket answering; donor 3 by hand"
systemctl enable --now spared || { diag; fail "systemctl enable --now spared"; }
active spared || { diag; fail "spared is $(systemctl is-active spared)"; }
[ -L /etc/systemd/system/multi-user.target.wants/spared.service ] || fail "spared not enabled"
SOCK2=/run/spare/spared-$DONOR_PORT.sock
sparectl donor -S "$SOCK2" status >/tmp/d2.status || { diag; fail "spared's control socket"; }
grep -q '^spare_donor_capacity_bytes 268435456' /tmp/d2.status || { cat /tmp/d2.status; fail "spared did not take its config"; }
grant_donor 3 donor3 --domain rack3 --resume-hold 60
wait_for 150 sh -c "journalctl -u spare-broker -o cat | grep -q 'donor donor2 at'" || { diag; fail "the broker does not know donor2"; }
wait_for 150 sh -c "journalctl -u spare-broker -o cat | grep -q 'donor donor3 at'" || { diag; fail "the broker does not know donor3"; }
# spared's log levels reach the journal (its <N> prefixes): a stranger
# (no host key) is refused with a warning, which a warning filter keeps
# while it leaves out the info lines (without the prefixes every line
# would be info, and the filter would keep nothing)
spare-probe -S 10.0.0.3 -p "$DONOR_PORT" -s 16M -t 10000 10.0.0.2 map:1 >/tmp/probe.out 2>&1 &&
	{ cat /tmp/probe.out; fail "a stranger mapped a slab of spared.service"; }
wait_for 50 sh -c "journalctl -u spared -p warning --no-pager -o cat | grep -q '^warn: client .*refused'" ||
	{ journalctl -u spared -o cat --no-pager | tail; fail "no warning for the stranger in the journal"; }
journalctl -u spared -p warning --no-pager -o cat >/tmp/d2.warn
sed 's/^/    /' /tmp/d2.warn
grep -qv '^\(warn\|err\): ' /tmp/d2.warn && fail "journalctl -p warning kept lines below warning"
journalctl -u spared -p info --no-pager -o cat | grep -q '^info: lending 256M' || fail "no info line in the journal"
pass "spared enabled and active with its config, a stranger refused with a warning at its level in the journal; both donors registered with the broker"

step "sparectl device create --backend=ublk through the broker: systemd starts spare-ublk@ub0"
disk=$(sparectl device create ub0 --backend=ublk size=128M slab_size=16M replicas=2 \
	source=10.0.0.1 key-file=/etc/spare/trainer.key $B lease=60) || { diag; fail "device create"; }
echo "created $disk"
active spare-ublk@ub0 || { diag; fail "spare-ublk@ub0 is $(systemctl is-active spare-ublk@ub0)"; }
[ -b "/dev/$disk" ] || fail "no /dev/$disk once the unit is active"
jlog spare-ublk@ub0 | grep -q -- '--grant-file: 8 slab(s) x 2 copies on 2 donor(s)' || { diag; fail "not placed by its grants"; }
# the write window needs the disk's sysfs writable (ReadWritePaths=)
wait_for 30 test -e /run/spare/ublk/ub0 || { diag; fail "no counters file (RuntimeDirectory)"; }
win=$(jlog spare-ublk@ub0 | sed -n 's/.*write window [0-9]* KiB: at most \([0-9]*\) write request.*/\1/p' | head -1)
[ -n "$win" ] && [ "$(cat "/sys/block/$disk/queue/iosched/async_depth")" = "$win" ] ||
	{ diag; fail "the write window was not applied under the unit's sandbox (async_depth $(cat "/sys/block/$disk/queue/iosched/async_depth"), window '$win')"; }
test -s /var/lib/spare/ublk-ub0.state || { ls -la /var/lib/spare; diag; fail "no state file (StateDirectory)"; }
[ "$(stat -c %a /var/lib/spare)" = 700 ] || fail "/var/lib/spare mode $(stat -c %a /var/lib/spare)"
dd if=/dev/urandom of=/tmp/want bs=1M count=32 2>/dev/null
slabs_write "$disk"
slabs_verify "$disk" "written"
pass "/dev/$disk from spare-ublk@ub0: window of $win requests applied, state and counters written, 32 MiB read back"

step "sparectl-monitor@ub0 renews the grants and tells the pager; so does systemctl reload"
hups() { jlog spare-ublk@ub0 | grep -c 'SIGHUP: .* grant(s) in /etc/spare/ublk-ub0.grants'; }
h0=$(hups)
cat >/etc/spare/monitor-ub0.env <<EOF
BROKERS=$BROKER
BROKER_NAME=trainer
BROKER_KEY=/etc/spare/b-trainer.key
EOF
systemctl start sparectl-monitor@ub0 || { diag; fail "systemctl start sparectl-monitor@ub0"; }
active sparectl-monitor@ub0 || { diag; fail "the monitor is $(systemctl is-active sparectl-monitor@ub0)"; }
# one standby slab per donor: due at once
wait_for 200 sh -c "[ \$(journalctl -u spare-ublk@ub0 -o cat | grep -c 'SIGHUP: .* grant(s) in /etc/spare/ublk-ub0.grants') -gt $h0 ]" ||
	{ diag; fail "the pager read no renewal"; }
jlog sparectl-monitor@ub0 | grep -q 'slab copies renewed, 1 standby per donor' || { diag; fail "the monitor did not renew"; }
h1=$(hups)
systemctl reload spare-ublk@ub0 || fail "systemctl reload"
wait_for 100 sh -c "[ \$(journalctl -u spare-ublk@ub0 -o cat | grep -c 'SIGHUP: .* grant(s) in /etc/spare/ublk-ub0.grants') -gt $h1 ]" ||
	{ diag; fail "reload did not reach the pager"; }
pass "the monitor's renewal and a reload each read by the pager"

step "the pager SIGKILLed: systemd starts it again; it takes /dev/$disk back"
pid0=$(systemctl show -P MainPID spare-ublk@ub0)
systemctl kill -s KILL spare-ublk@ub0 || fail "systemctl kill"
back() { active spare-ublk@ub0 && [ "$(systemctl show -P MainPID spare-ublk@ub0)" != "$pid0" ] &&
	 [ "$(systemctl show -P MainPID spare-ublk@ub0)" != 0 ]; }
wait_until 60 back || { diag; fail "spare-ublk@ub0 was not started again"; }
jlog spare-ublk@ub0 | grep -q "taking /dev/$disk back" || { diag; fail "the restarted pager did not take /dev/$disk back"; }
[ "$(systemctl show -P NRestarts spare-ublk@ub0)" = 1 ] || fail "NRestarts $(systemctl show -P NRestarts spare-ublk@ub0)"
slabs_verify "$disk" "after the restart"
pass "restarted by systemd (NRestarts 1), the device taken back, every byte read back"

step "systemctl kill -s USR2 spared: an upgrade in place under systemd, the pager's slabs held over it"
# spared execs its binary again (same PID): systemd must keep tracking it
# (Type=notify: RELOADING=1, then the new image's READY=1; its watchdog
# pings go on), not count a restart, and the slabs spare-ublk@ub0 (a
# state file: HELLO F_HOLD) has on donor 2 come back with their contents
cp /usr/sbin/spared /usr/sbin/spared.new && mv /usr/sbin/spared.new /usr/sbin/spared ||
	fail "install a new spared binary"
dpid=$(systemctl show -P MainPID spared)
nr=$(systemctl show -P NRestarts spared)
kept() { jlog spared | grep -c 'restart: [0-9]* slab(s) kept with their contents'; }
k0=$(kept)
current() { jlog spare-ublk@ub0 | grep -c 'resync: all [0-9]* copies mapped and current'; }
c0=$(current)
# The worst moment for systemd's watchdog (WatchdogSec=30s, a ping every
# 15 s, READY=1 resets nothing): just before the old image's next ping.
# Session 42's flake ("MainPID 358 became 565", under load 8-12) was the
# watchdog firing across the restart in place: the old image's last ping up
# to 15 s before the signal, the new image's first 15 s after its start.
# Sent 12.5-13.5 s after a ping (not closer to 15 s: reading the age takes
# a systemctl call, and a signal that lands after the next ping is no test),
# a restart that goes 2-3 s without a ping is killed by systemd and
# started anew (checked below, once the new image has pinged, and again
# by watchdog_fed_check past WatchdogSec after the exec), and the longest
# gap systemd sees between two pings is the restart's margin against
# WatchdogSec (/tmp/wd.pings, polled twice a second).
ping_age_ms() { echo $(( $(awk '{printf "%d", $1 * 1000}' /proc/uptime) -
	$(systemctl show -P WatchdogTimestampMonotonic spared) / 1000 )); }
ping_due() { a=$(ping_age_ms); [ "$a" -ge 12500 ] && [ "$a" -lt 13500 ]; }
wait_until 60 ping_due || fail "spared's last watchdog ping is $(ping_age_ms) ms old, never 12.5-13.5 s"
wd_last_ms=$(( $(systemctl show -P WatchdogTimestampMonotonic spared) / 1000 ))
echo "    SIGUSR2 $a ms after spared's last watchdog ping (at $wd_last_ms ms)"
(while :; do systemctl show -P WatchdogTimestampMonotonic spared; sleep 0.5; done >/tmp/wd.pings) &
wd_poll=$!
systemctl kill -s USR2 spared || { diag; fail "systemctl kill -s USR2 spared"; }
sig_ms=$(awk '{printf "%d", $1 * 1000}' /proc/uptime)
wait_for 100 sh -c "[ \$(journalctl -u spared -o cat | grep -c 'restart: [0-9]* slab(s) kept with their contents') -gt $k0 ]" ||
	{ diag; fail "spared did not come back from SIGUSR2 under systemd"; }
jlog spared | grep 'restart:' | tail -3
held=$(jlog spared | sed -n 's/.*restart: handing over \([0-9]*\) held slab(s) of 1 client(s).*/\1/p' | tail -1)
[ "${held:-0}" -ge 1 ] || { diag; fail "spared held none of the pager's slabs over its restart"; }
jlog spared | grep -q "restart: $held slab(s) kept with their contents for 1 client(s)" ||
	{ diag; fail "the new image did not keep the $held slab(s) handed over"; }
settled() { active spared && [ "$(systemctl show -P SubState spared)" = running ]; }
wait_until 30 settled || { diag; fail "spared is $(systemctl is-active spared) ($(systemctl show -P SubState spared)) after SIGUSR2"; }
[ "$(systemctl show -P MainPID spared)" = "$dpid" ] || { diag; fail "MainPID $dpid became $(systemctl show -P MainPID spared)"; }
[ "$(systemctl show -P NRestarts spared)" = "$nr" ] || { diag; fail "systemd restarted spared (NRestarts $nr -> $(systemctl show -P NRestarts spared))"; }
systemctl show -P StatusText spared | grep -q '^lending ' || { diag; fail "no status from the new image: '$(systemctl show -P StatusText spared)'"; }
sparectl donor -S "$SOCK2" status >/dev/null || { diag; fail "spared's control socket after SIGUSR2"; }
wait_for 600 sh -c "[ \$(journalctl -u spare-ublk@ub0 -o cat | grep -c 'resync: all [0-9]* copies mapped and current') -gt $c0 ]" ||
	{ diag; fail "the pager's copies on donor 2 were not mapped again"; }
[ "$(sparectl donor -S "$SOCK2" status | awk '$1 == "spare_donor_slabs_held" {print $2}')" = 0 ] ||
	{ diag; fail "donor 2 still holds slabs the running pager should have resumed"; }
slabs_verify "$disk" "after spared's restart under systemd"
# the new image's first ping seen (systemd's timestamp of it later than
# the signal): the gap across the restart is then all in /tmp/wd.pings.
# Until that ping systemd's watchdog runs from the old image's last one;
# after it, from the new image's, so that a watchdog kill across the
# restart has either shown by now or made the gap above 30 s (waiting
# until 31 s past the old image's last ping, as before session 47, added
# nothing but time: a kill later than that is watchdog_fed_check's, at least
# WatchdogSec + 2 s past the exec).
wd_pinged() { [ "$(tail -n 1 /tmp/wd.pings)" -gt $((sig_ms * 1000)) ] 2>/dev/null; }
wait_until 40 wd_pinged ||
	{ diag; fail "no watchdog ping from spared's new image 40 s after SIGUSR2 (last: $(tail -n 1 /tmp/wd.pings) us)"; }
kill "$wd_poll"
wd_gap_ms=$( (echo $((wd_last_ms * 1000)); cat /tmp/wd.pings) |
	awk '$1 > prev { if (prev && $1 - prev > max) max = $1 - prev; prev = $1 } END { printf "%d", max / 1000 }')
echo "    the longest time without a watchdog ping across the restart: $wd_gap_ms ms (WatchdogSec=30s)"
[ "$(systemctl show -P MainPID spared)" = "$dpid" ] && [ "$(systemctl show -P NRestarts spared)" = "$nr" ] &&
	! jlog spared | grep -q 'Watchdog timeout' ||
	{ jlog spared | grep -i -B2 -A2 watchdog; diag; fail "systemd's watchdog killed spared across its restart in place (MainPID $dpid -> $(systemctl show -P MainPID spared), NRestarts $nr -> $(systemctl show -P NRestarts spared))"; }
# a ping period (15 s) and some: not the period plus the signal's age
# plus the restart (27.5 s and more here before session 43)
[ "$wd_gap_ms" -le 20000 ] ||
	fail "spared went $wd_gap_ms ms without a watchdog ping across its restart in place: WatchdogSec=30s leaves it $((30000 - wd_gap_ms)) ms"
pass "spared restarted in place under systemd: pid $dpid kept, active (running), no restart counted, $held held slab(s) kept, every byte read back"
# Past WatchdogSec=30s after the exec the new image must still be fed
# (watchdog_fed_check, before the daemons stop): the steps between take
# longer than that, so the guest does not sleep 32 s for it.
wd_pid=$dpid wd_nr=$nr wd_t0=$(cut -d. -f1 /proc/uptime)
watchdog_fed_check() {
	local left=$((wd_t0 + 32 - $(cut -d. -f1 /proc/uptime)))
	[ $left -gt 0 ] && sleep $left
	settled && [ "$(systemctl show -P MainPID spared)" = "$wd_pid" ] &&
		[ "$(systemctl show -P NRestarts spared)" = "$wd_nr" ] ||
		{ diag; fail "spared was not kept past its watchdog after SIGUSR2 ($(systemctl is-active spared), NRestarts $(systemctl show -P NRestarts spared))"; }
	jlog spared | grep -q 'Watchdog timeout' && { jlog spared | grep -i watchdog; fail "systemd's watchdog fired on spared"; }
	[ "$(jlog spared | grep -c 'systemd watchdog: WATCHDOG=1 every')" -ge 2 ] ||
		{ jlog spared | grep -i watchdog; fail "the new image does not feed systemd's watchdog"; }
	systemctl status spared --no-pager | sed -n 1,4p
	pass "spared's new image fed systemd's watchdog $(( $(cut -d. -f1 /proc/uptime) - wd_t0 )) s past its exec (WatchdogSec=30s): same pid $wd_pid, no restart counted"
}

step "destroy stops the pager's unit; its monitor ends"
sparectl device destroy ub0 || { diag; fail "destroy"; }
[ "$(systemctl is-active spare-ublk@ub0)" = inactive ] || { diag; fail "spare-ublk@ub0 is $(systemctl is-active spare-ublk@ub0)"; }
[ -e "/dev/$disk" ] && fail "/dev/$disk still there"
mon_gone() { [ "$(systemctl is-active sparectl-monitor@ub0)" = inactive ]; }
wait_until 20 mon_gone || { diag; fail "the monitor is $(systemctl is-active sparectl-monitor@ub0)"; }
none_lent() { [ "$(donor_metric 3 spare_donor_slabs_lent)" = 0 ] &&
	      [ "$(sparectl donor -S "$SOCK2" status | awk '$1 == "spare_donor_slabs_lent" {print $2}')" = 0 ]; }
wait_until 20 none_lent || fail "the donors still lend"
pass "spare-ublk@ub0 stopped by destroy, the device gone; its monitor ended by itself"

step "systemctl reload: the broker rotates trainer's key, donors keep their sessions; spared reloads"
bpid=$(systemctl show -P MainPID spare-broker)
hellos() { jlog spare-broker | grep -c 'authenticated as a'; }
(umask 077; sparectl gen-key >/etc/spare/b-trainer.key.new) || fail "gen-key"
sed -i "s|^trainer .*|trainer $(cat /etc/spare/b-trainer.key.new)|" /etc/spare/broker-hosts || fail "rotate"
mv /etc/spare/b-trainer.key.new /etc/spare/b-trainer.key
h0=$(hellos)
systemctl reload spare-broker || { diag; fail "systemctl reload spare-broker"; }
jlog spare-broker | grep -q 'SIGHUP: reloaded: 3 peers in host-keys' || { diag; fail "the broker did not reload its host-keys"; }
[ "$(systemctl show -P MainPID spare-broker)" = "$bpid" ] && active spare-broker ||
	{ diag; fail "the broker restarted or stopped on reload"; }
sleep 3	# 3 heartbeats: a dropped donor session would come back with a new HELLO
[ "$(hellos)" = "$h0" ] || { diag; fail "a donor authenticated again after the broker's reload"; }
dpid=$(systemctl show -P MainPID spared)
cp /etc/spare/spared.conf /tmp/spared.conf.good
printf 'resume-hold = 30\nport = 1\n' >>/etc/spare/spared.conf
systemctl reload spared || { diag; fail "systemctl reload spared"; }
jlog spared | grep -q 'SIGHUP: reloaded' || { diag; fail "spared did not reload"; }
jlog spared | grep -q 'SIGHUP: resume-hold: 60 -> 30' || { diag; fail "spared did not apply resume-hold"; }
jlog spared | grep -q "SIGHUP: port changed: needs a restart; keeping $DONOR_PORT" ||
	{ diag; fail "spared did not say port needs a restart"; }
echo "budget = lots" >>/etc/spare/spared.conf
n=$(grep -c . /etc/spare/spared.conf)
systemctl reload spared || { diag; fail "systemctl reload spared (bad line)"; }
jlog spared | grep -q "/etc/spare/spared.conf:$n: budget: " || { diag; fail "no file:line: key: reason for the bad line"; }
jlog spared | grep -q 'SIGHUP: reload refused' || { diag; fail "spared did not refuse the bad reload"; }
cp /tmp/spared.conf.good /etc/spare/spared.conf
[ "$(systemctl show -P MainPID spared)" = "$dpid" ] && active spared || { diag; fail "spared restarted or stopped on reload"; }
sparectl donor -S "$SOCK2" status >/dev/null || { diag; fail "spared's control socket after reload"; }
pass "reloads: the broker took trainer's new key with donors' sessions kept; spared applied a live setting, kept port, refused a bad line; neither restarted"

# (ops33, issue 33 item 3: a block of its own, apart from the waits above)
step "systemctl reload spared: trainer's host key rotated; its authenticated session stays, a new one needs the new key"
oldk=$(cat /etc/spare/trainer.key)
rm -f /tmp/rot-done
spare-probe -S 10.0.0.1 -p "$DONOR_PORT" -s 16M -t 60000 -k "$oldk" 10.0.0.2 \
	heartbeat wait-file:/tmp/rot-done:90000 heartbeat >/tmp/rot.out 2>&1 &
rot_pid=$!
wait_for 100 grep -q 'authenticated both ways' /tmp/rot.out || { cat /tmp/rot.out; diag; fail "trainer's session with the old key"; }
auths() { jlog spared | grep -c 'authenticated as trainer'; }
reloads() { jlog spared | grep -c 'SIGHUP: reloaded: 1 clients in host-keys'; }
a0=$(auths) r0=$(reloads)
cp /etc/spare/host-keys /tmp/host-keys.good
newk=$(sparectl gen-key) || fail "gen-key"
sed -i "s|^trainer [^ ]*|trainer $newk|" /etc/spare/host-keys || fail "rotate"
systemctl reload spared || { diag; fail "systemctl reload spared (rotated host-keys)"; }
wait_for 50 sh -c "[ \$(journalctl -u spared -o cat | grep -c 'SIGHUP: reloaded: 1 clients in host-keys') -gt $r0 ]" ||
	{ diag; fail "spared did not reload its host-keys"; }
spare-probe -S 10.0.0.1 -p "$DONOR_PORT" -s 16M -t 10000 -k "$oldk" --no-hello 10.0.0.2 \
	hello-refused:auth-failed >/tmp/rot-old.out 2>&1 ||
	{ cat /tmp/rot-old.out; diag; fail "a new session with trainer's old key was not refused after the rotation"; }
spare-probe -S 10.0.0.1 -p "$DONOR_PORT" -s 16M -t 10000 -k "$newk" 10.0.0.2 heartbeat >/tmp/rot-new.out 2>&1 ||
	{ cat /tmp/rot-new.out; diag; fail "a new session with trainer's new key"; }
touch /tmp/rot-done
wait "$rot_pid" || { cat /tmp/rot.out; diag; fail "the session that authenticated before the rotation was dropped"; }
[ "$(grep -c '^heartbeat: ok' /tmp/rot.out)" = 2 ] || { cat /tmp/rot.out; fail "the old session's heartbeat after the reload"; }
[ "$(auths)" = $((a0 + 1)) ] || { diag; fail "trainer authenticated $(( $(auths) - a0 )) times, want 1 (the new key's probe)"; }
cp /tmp/host-keys.good /etc/spare/host-keys
systemctl reload spared || { diag; fail "systemctl reload spared (keys back)"; }
wait_for 50 sh -c "[ \$(journalctl -u spared -o cat | grep -c 'SIGHUP: reloaded: 1 clients in host-keys') -gt $((r0 + 1)) ]" ||
	{ diag; fail "spared did not reload the original host-keys"; }
pass "spared took trainer's new key on reload: the session authenticated with the old one kept its heartbeats, a new one with the old key refused, with the new key served"

step "the module backend: sparectl-monitor@swap0 renews a spare.ko device's grants through configfs"
spare_load
disk1=$(sparectl device create swap0 size=64M slab_size=16M replicas=2 source=10.0.0.1 \
	key-file=/etc/spare/trainer.key $B lease=60) || { diag; dmesg | tail; fail "device create (module)"; }
g0=$(grep -c . "$CFS/swap0/grants")
cat >/etc/spare/monitor-swap0.env <<EOF
BROKERS=$BROKER
BROKER_NAME=trainer
BROKER_KEY=/etc/spare/b-trainer.key
EOF
systemctl start sparectl-monitor@swap0 || { jlog sparectl-monitor@swap0; fail "systemctl start sparectl-monitor@swap0"; }
# its first round renews both donors, writing configfs (ReadWritePaths=)
wait_for 100 sh -c "[ \$(journalctl -u sparectl-monitor@swap0 -o cat | grep -c 'granted until') -ge 2 ]" ||
	{ jlog sparectl-monitor@swap0; fail "the monitor did not renew both donors"; }
[ "$(grep -c . "$CFS/swap0/grants")" -gt "$g0" ] || { cat "$CFS/swap0/grants"; fail "no new grant in configfs"; }
dd if=/dev/urandom of=/tmp/pattern bs=1M count=16 2>/dev/null
dd if=/tmp/pattern of="/dev/$disk1" bs=1M oflag=direct 2>/dev/null || fail "write $disk1"
dd if="/dev/$disk1" of=/tmp/back bs=1M count=16 iflag=direct 2>/dev/null || fail "read $disk1"
cmp /tmp/pattern /tmp/back || fail "$disk1 read back differs"
sparectl device destroy swap0 || fail "destroy swap0"
mon1_gone() { [ "$(systemctl is-active sparectl-monitor@swap0)" = inactive ]; }
wait_until 20 mon1_gone || { jlog sparectl-monitor@swap0; fail "the monitor is $(systemctl is-active sparectl-monitor@swap0)"; }
pass "the monitor renewed /dev/$disk1's donors through configfs under its sandbox, and ended with the device"

step "systemctl restart spare-broker (the guide's upgrade step): a new process, both donors register again"
bpid=$(systemctl show -P MainPID spare-broker)
regs() { jlog spare-broker | grep -c "donor $1 at"; }
r2=$(regs donor2) r3=$(regs donor3)
systemctl restart spare-broker || { diag; fail "systemctl restart spare-broker"; }
active spare-broker || { diag; fail "spare-broker is $(systemctl is-active spare-broker) after a restart"; }
[ "$(systemctl show -P MainPID spare-broker)" != "$bpid" ] || fail "the broker's MainPID did not change on restart"
wait_for 150 sh -c "[ \$(journalctl -u spare-broker -o cat | grep -c 'donor donor2 at') -gt $r2 ] &&
	[ \$(journalctl -u spare-broker -o cat | grep -c 'donor donor3 at') -gt $r3 ]" ||
	{ diag; fail "the donors did not register with the restarted broker"; }
pass "spare-broker restarted (pid $bpid -> $(systemctl show -P MainPID spare-broker)); both donors registered again; the devices below are placed by it"

step "spare-swap@sw0 (backend=ublk, through the broker): enabled and started, swapped on at its priority"
# util-linux's swapon: the shell's own (busybox) has no --show
# no swap before: what the guest swaps onto below is this device
[ "$(/usr/sbin/swapon --show --noheadings | wc -l)" = 0 ] || { /usr/sbin/swapon --show; fail "a swap device already"; }
units_swap_conf sw0 ublk 37
systemctl enable --now spare-swap@sw0 || { jlog spare-swap@sw0; diag; fail "systemctl enable --now spare-swap@sw0"; }
active spare-swap@sw0 || { jlog spare-swap@sw0; fail "spare-swap@sw0 is $(systemctl is-active spare-swap@sw0)"; }
[ -L /etc/systemd/system/multi-user.target.wants/spare-swap@sw0.service ] || fail "spare-swap@sw0 not enabled"
active spare-ublk@sw0 || { jlog spare-ublk@sw0; fail "spare-ublk@sw0 is $(systemctl is-active spare-ublk@sw0)"; }
sdisk=$(jlog spare-swap@sw0 | sed -n 's|.*device sw0: /dev/\([a-z0-9]*\) swapped on at priority 37$|\1|p')
[ -n "$sdisk" ] || { jlog spare-swap@sw0; fail "spare-swap@sw0 does not say it swapped on"; }
/usr/sbin/swapon --show=NAME,PRIO --noheadings --raw >/tmp/swaps
cat /tmp/swaps
[ "$(cat /tmp/swaps)" = "/dev/$sdisk 37" ] || fail "swapon --show does not list /dev/$sdisk at priority 37 (alone)"
# Wants= and Before=: the monitor is started once the device exists
wait_for 100 systemctl is-active --quiet sparectl-monitor@sw0 ||
	{ jlog sparectl-monitor@sw0; fail "sparectl-monitor@sw0 is $(systemctl is-active sparectl-monitor@sw0)"; }
pass "spare-swap@sw0 active: /dev/$sdisk (spare-ublk@sw0) swapped on at priority 37, its monitor running"

step "a workload swaps onto /dev/$sdisk: 64 MiB, 2 passes, in a cgroup with memory.max=32M (memory.high 28M)"
# What this step adds is that the device spare-swap@ made is the one
# swapped onto and keeps every page: the pager's swapping at a 3:1
# over-commit (96 MiB in 32M) is client/swap@ublk's, on this kernel, so
# half its swap-outs (32 MiB beyond memory.max, not 64) are enough here
# (Documentation/perf/check-time/README.md, session 42).
WL_SIZE_MB=64 WL_CG_MB=32
ublk_cg work ${WL_CG_MB}M
disk=$sdisk
workload_start 2
workload_wait
pass "every page verified after swapping onto spare-swap@sw0's device"

step "systemctl stop spare-swap@sw0: swapped off, then the device, its pager and its files gone"
systemctl stop spare-swap@sw0 || { jlog spare-swap@sw0; fail "systemctl stop spare-swap@sw0"; }
[ "$(systemctl is-active spare-swap@sw0)" = inactive ] ||
	{ jlog spare-swap@sw0; fail "spare-swap@sw0 stopped as $(systemctl is-active spare-swap@sw0)"; }
jlog spare-swap@sw0 | grep -q "device sw0: /dev/$sdisk swapped off" || { jlog spare-swap@sw0; fail "no swapoff in the journal"; }
[ "$(/usr/sbin/swapon --show --noheadings | wc -l)" = 0 ] || { /usr/sbin/swapon --show; fail "still swapping after the stop"; }
# the pager's stop runs after this unit's (ordered After=spare-ublk@sw0)
pager_gone() { [ "$(systemctl is-active spare-ublk@sw0)" = inactive ] && [ ! -e "/dev/$sdisk" ]; }
wait_until 90 pager_gone ||
	{ jlog spare-ublk@sw0 | tail; fail "spare-ublk@sw0 is $(systemctl is-active spare-ublk@sw0), /dev/$sdisk still there"; }
for f in /etc/spare/ublk-sw0.conf /etc/spare/ublk-sw0.grants /run/spare/ublk/sw0; do
	[ -e "$f" ] && fail "$f left behind"
done
mon_sw0_gone() { [ "$(systemctl is-active sparectl-monitor@sw0)" = inactive ]; }
wait_until 20 mon_sw0_gone ||
	{ jlog sparectl-monitor@sw0 | tail; fail "sparectl-monitor@sw0 is $(systemctl is-active sparectl-monitor@sw0)"; }
wait_until 20 none_lent || fail "the donors still lend"
systemctl disable spare-swap@sw0 || fail "systemctl disable spare-swap@sw0"
pass "swapped off; /dev/$sdisk and spare-ublk@sw0 gone with its config and grants, the monitor ended, the slabs returned"

step "spare-swap@sw3 (backend=module, the default): swapped on at its priority, then off and the device removed"
cat >/etc/spare/swap-sw3.conf <<EOF
size = 64M
slab_size = 16M
replicas = 2
source = 10.0.0.1
key-file = /etc/spare/trainer.key
broker = $BROKER
broker-name = trainer
broker-key = /etc/spare/b-trainer.key
swap-priority = 5
EOF
systemctl start spare-swap@sw3 || { jlog spare-swap@sw3; dmesg | tail; fail "systemctl start spare-swap@sw3"; }
mdisk=$(jlog spare-swap@sw3 | sed -n 's|.*device sw3: /dev/\([a-z0-9]*\) swapped on at priority 5$|\1|p')
[ -n "$mdisk" ] && [ "$(/usr/sbin/swapon --show=NAME,PRIO --noheadings --raw)" = "/dev/$mdisk 5" ] ||
	{ /usr/sbin/swapon --show; jlog spare-swap@sw3; fail "swapon --show does not list /dev/$mdisk at priority 5"; }
systemctl stop spare-swap@sw3 || { jlog spare-swap@sw3; fail "systemctl stop spare-swap@sw3"; }
[ "$(systemctl is-active spare-swap@sw3)" = inactive ] || fail "spare-swap@sw3 stopped as $(systemctl is-active spare-swap@sw3)"
[ "$(/usr/sbin/swapon --show --noheadings | wc -l)" = 0 ] || { /usr/sbin/swapon --show; fail "still swapping after the stop"; }
[ -e "$CFS/sw3" ] && fail "$CFS/sw3 left behind"
pass "/dev/$mdisk (spare.ko) swapped on at priority 5 and off again, its configfs directory removed"

step "a bad swap config: the unit fails with file, line and key in its journal, is not retried, leaves nothing"
nothing_left() {
	[ "$(/usr/sbin/swapon --show --noheadings | wc -l)" = 0 ] || { /usr/sbin/swapon --show; fail "$1: a swap left on"; }
	[ -e "/etc/spare/ublk-$1.conf" ] && fail "$1: /etc/spare/ublk-$1.conf left behind"
	[ -e "/run/spare/ublk/$1" ] && fail "$1: a spare-ublk device left behind"
	[ "$(systemctl is-active "spare-ublk@$1")" = inactive ] || fail "$1: spare-ublk@$1 is $(systemctl is-active "spare-ublk@$1")"
	[ -e "$CFS/$1" ] && fail "$1: $CFS/$1 left behind"
	return 0
}
sed 's/^size = 128M$/sise = 128M/' /etc/spare/swap-sw0.conf >/etc/spare/swap-sw1.conf
systemctl start spare-swap@sw1 && fail "spare-swap@sw1 started with an unknown key"
sleep 1
[ "$(systemctl is-active spare-swap@sw1)" = failed ] || fail "spare-swap@sw1 is $(systemctl is-active spare-swap@sw1), not failed"
[ "$(systemctl show -P NRestarts spare-swap@sw1)" = 0 ] || fail "a bad config was retried"
jlog spare-swap@sw1 | grep -q '/etc/spare/swap-sw1.conf:3: sise: unknown setting' ||
	{ jlog spare-swap@sw1; fail "the journal does not say which line and key"; }
nothing_left sw1
echo "    $(jlog spare-swap@sw1 | grep -m1 'unknown setting')"
systemctl reset-failed spare-swap@sw1
pass "spare-swap@sw1 failed, not retried, the reason in its journal"

step "a broker that does not answer: the unit fails with the reason and retries, nothing waits, nothing is left"
# a port on which nothing listens (the guest answers with a time-out)
sed "s|^broker = .*|broker = 10.0.0.1:9|" /etc/spare/swap-sw0.conf >/etc/spare/swap-sw2.conf
# the shipped RestartSec= is 20 s; a drop-in makes the retries 1 s apart,
# and each try's wait for the silent broker 1 s, not sparectl's 5
# (SPARECTL_TIMEOUT, as sparectl(8) suggests for a unit)
mkdir -p /etc/systemd/system/spare-swap@sw2.service.d
printf '[Service]\nRestartSec=1s\nEnvironment=SPARECTL_TIMEOUT=1\n' >/etc/systemd/system/spare-swap@sw2.service.d/quick.conf
systemctl daemon-reload || fail "daemon-reload"
# the start job ends failed at the first failure: nothing waits for the retries
timeout 120 systemctl start spare-swap@sw2
rc=$?
[ $rc = 124 ] && { jlog spare-swap@sw2; fail "systemctl start spare-swap@sw2 still waiting after 120 s"; }
[ $rc = 0 ] && fail "spare-swap@sw2 started without a broker"
retried() { [ "$(systemctl show -P NRestarts spare-swap@sw2)" -ge 2 ]; }
wait_until 60 retried || { jlog spare-swap@sw2; fail "spare-swap@sw2 restarted $(systemctl show -P NRestarts spare-swap@sw2) time(s), not retried"; }
jlog spare-swap@sw2 | grep -q 'device sw2: no broker of broker=10.0.0.1:9 granted its slabs' ||
	{ jlog spare-swap@sw2; fail "the journal does not say the broker failed"; }
jlog spare-swap@sw2 | grep -q 'broker 10.0.0.1:9: ' || { jlog spare-swap@sw2; fail "the journal does not say why the broker failed"; }
echo "    $(jlog spare-swap@sw2 | grep -m1 'broker 10.0.0.1:9: ')"
nothing_left sw2
n=$(systemctl show -P NRestarts spare-swap@sw2)
systemctl stop spare-swap@sw2
systemctl reset-failed spare-swap@sw2 2>/dev/null
[ "$(systemctl is-active spare-swap@sw2)" = inactive ] || fail "spare-swap@sw2 is $(systemctl is-active spare-swap@sw2) after stop"
rm -r /etc/systemd/system/spare-swap@sw2.service.d
systemctl daemon-reload
pass "spare-swap@sw2: start returned failed at once, retried ($n restarts) with the broker's reason, stopped; nothing left"

step "the broker comes back: spare-swap@sw2's retried start succeeds with nobody starting it again; its shutdown order"
# sw0's device through the unit's broker, which is stopped first
sed 's/^swap-priority = 37$/swap-priority = 38/' /etc/spare/swap-sw0.conf >/etc/spare/swap-sw2.conf
grep -q '^swap-priority = 38$' /etc/spare/swap-sw2.conf || fail "swap-sw2.conf: no priority 38"
mkdir -p /etc/systemd/system/spare-swap@sw2.service.d
printf '[Service]\nRestartSec=1s\n' >/etc/systemd/system/spare-swap@sw2.service.d/quick.conf
systemctl daemon-reload || fail "daemon-reload"
r0=$(systemctl show -P NRestarts spare-swap@sw2)
systemctl stop spare-broker || fail "systemctl stop spare-broker"
timeout 120 systemctl start spare-swap@sw2 && fail "spare-swap@sw2 started with its broker stopped"
restarted() { [ "$(systemctl show -P NRestarts spare-swap@sw2)" -gt "$r0" ]; }
wait_until 60 restarted || { jlog spare-swap@sw2 | tail; fail "spare-swap@sw2 not retried while its broker was stopped"; }
systemctl start spare-broker || { diag; fail "systemctl start spare-broker"; }
wait_until 150 active spare-swap@sw2 ||
	{ jlog spare-swap@sw2 | tail; fail "spare-swap@sw2 is $(systemctl is-active spare-swap@sw2) 150 s after its broker came back"; }
n=$(systemctl show -P NRestarts spare-swap@sw2)
bdisk=$(jlog spare-swap@sw2 | sed -n 's|.*device sw2: /dev/\([a-z0-9]*\) swapped on at priority 38$|\1|p')
[ -n "$bdisk" ] || { jlog spare-swap@sw2 | tail; fail "spare-swap@sw2 does not say it swapped on"; }
/usr/sbin/swapon --show=NAME,PRIO --noheadings --raw | grep -qx "/dev/$bdisk 38" ||
	{ /usr/sbin/swapon --show; fail "swapon --show does not list /dev/$bdisk at priority 38"; }
# what systemd made of the unit for a shutdown: stopped by shutdown.target,
# and before the network and the broker go (the reverse of After=)
for t in network-online.target spare-broker.service; do
	systemctl show -P After spare-swap@sw2 | tr ' ' '\n' | grep -qx "$t" || fail "spare-swap@sw2 is not ordered after $t"
done
systemctl show -P Conflicts spare-swap@sw2 | tr ' ' '\n' | grep -qx shutdown.target || fail "spare-swap@sw2 does not conflict with shutdown.target"
systemctl show -P Before spare-swap@sw2 | tr ' ' '\n' | grep -qx shutdown.target || fail "spare-swap@sw2 is not ordered before shutdown.target"
systemctl stop spare-swap@sw2 || { jlog spare-swap@sw2 | tail; fail "systemctl stop spare-swap@sw2"; }
# the pager's stop runs after this unit's (ordered After=spare-ublk@sw2)
pager2_gone() { [ "$(systemctl is-active spare-ublk@sw2)" = inactive ] && [ ! -e "/dev/$bdisk" ]; }
wait_until 90 pager2_gone ||
	{ jlog spare-ublk@sw2 | tail; fail "spare-ublk@sw2 is $(systemctl is-active spare-ublk@sw2), /dev/$bdisk still there"; }
nothing_left sw2
systemctl reset-failed spare-swap@sw2 2>/dev/null
rm -r /etc/systemd/system/spare-swap@sw2.service.d /etc/spare/swap-sw2.conf
systemctl daemon-reload
pass "spare-swap@sw2: failed and retried while the broker was stopped; the broker started, a retry ($n restarts in all) swapped /dev/$bdisk on at priority 38; stops before shutdown.target, the network and the broker; nothing left"

step "the guide's tuning commands: vm.swappiness, and a job's memory limits through systemctl set-property"
sw0=$(cat /proc/sys/vm/swappiness)
sysctl -w vm.swappiness=100 >/dev/null || fail "sysctl -w vm.swappiness=100"
[ "$(cat /proc/sys/vm/swappiness)" = 100 ] || fail "swappiness is $(cat /proc/sys/vm/swappiness)"
echo "$sw0" >/proc/sys/vm/swappiness
# a job's unit (the guest has no systemd-run)
printf '[Service]\nExecStart=/bin/sleep 300\n' >/etc/systemd/system/train.service
systemctl daemon-reload && systemctl start train.service || fail "start train.service"
systemctl set-property train.service MemoryHigh=28M MemoryMax=32M MemorySwapMax=64M ||
	fail "systemctl set-property train.service"
cg=/sys/fs/cgroup$(systemctl show -P ControlGroup train.service)
[ "$(cat "$cg/memory.high")" = $((28 << 20)) ] && [ "$(cat "$cg/memory.max")" = $((32 << 20)) ] &&
	[ "$(cat "$cg/memory.swap.max")" = $((64 << 20)) ] ||
	fail "$cg: memory.high $(cat "$cg/memory.high"), memory.max $(cat "$cg/memory.max"), memory.swap.max $(cat "$cg/memory.swap.max")"
systemctl stop train.service
rm -f /etc/systemd/system/train.service /etc/systemd/system.control/train.service.d/*.conf
systemctl daemon-reload
pass "vm.swappiness set to 100 (and put back to $sw0); train.service's cgroup got memory.high, memory.max and memory.swap.max from set-property"

step "spared's watchdog after the upgrade in place; spare-aggd enabled and started; every daemon stops cleanly"
watchdog_fed_check
systemctl enable --now spare-aggd || { diag; fail "systemctl enable --now spare-aggd"; }
active spare-aggd || { jlog spare-aggd | tail; fail "spare-aggd is $(systemctl is-active spare-aggd)"; }
apid=$(systemctl show -P MainPID spare-aggd)
systemctl reload spare-aggd || { jlog spare-aggd | tail; fail "systemctl reload spare-aggd"; }
jlog spare-aggd | grep -q 'SIGHUP: reloaded' || { jlog spare-aggd | tail; fail "spare-aggd did not reload"; }
[ "$(systemctl show -P MainPID spare-aggd)" = "$apid" ] && active spare-aggd ||
	{ jlog spare-aggd | tail; fail "spare-aggd restarted or stopped on reload"; }
for u in spare-aggd spared spare-broker; do
	systemctl stop "$u"
	[ "$(systemctl is-active "$u")" = inactive ] || { jlog "$u" | tail; fail "$u stopped as $(systemctl is-active "$u")"; }
done
systemctl --failed --no-legend --no-pager | grep . && fail "failed units"
kill -TERM "$(donor_pid 3)"; wait "$(donor_pid 3)" || fail "spared 3 exit"
check_dmesg
pass "every unit ran under its sandbox and stopped cleanly"
