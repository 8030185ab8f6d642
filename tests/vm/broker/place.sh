# SPDX-License-Identifier: GPL-2.0
# vm-backends: kmod ublk
#
# A device placed by spare-broker, on both backends (spare.ko on every
# kernel, the pager on the newest). The two run different steps after
# the shared first one: each backend is handed its slabs, grants and
# donors its own way (configfs and uevents; a grants file, its config
# and SIGHUP), so each run checks its own.
#
# spare.ko:
# spare-broker in the data path (issue 8). A broker on donor host 2;
# donors 2 and 3 register and heartbeat to it and lend only against its
# grants. On the client:
#   - "sparectl device create ... broker=" asks the broker for slabs x
#     copies, writes the donors, the placement and the grants to configfs
#     and powers the device on; every copy maps, each donor accepted its
#     grants, and a memory-hungry job swaps onto it;
#   - the broker restarts while the job swaps, now with grant-version 3:
#     the data path does not notice (no I/O error, every page verified)
#     and the broker knows both donors again from their heartbeats (they
#     do not announce version 3: their grants stay version 2);
#   - "sparectl device renew" sends the device's grants (kept by sparectl
#     in /run/spare/grants/swap0.grants) back to the new broker
#     (RENEW_GRANT): the module replaces each in place (still 32) and the
#     live donors extend theirs while the job swaps;
#   - "sparectl device monitor" renews them again and again (8 s grants);
#     the standby slab it wants is refused (ROOM_REQ: both donors are
#     full), logged once, and the renewals go on;
#   - a donor that joins afterwards (donor 4, with grant-v3) registers and
#     receives the grants of the next device, the only donor with room
#     left: version 3 grants (per-donor MAC), which it takes and maps, the
#     device's data read back; one of them with its tag changed (a forged
#     version 3 grant) does not start a device, donor 4 refusing it as
#     forged;
#   - donor 2 evicts two slabs whose other copy is on donor 3: no donor of
#     the device can take them, so the monitor asks the broker for a donor
#     outside it (MOVE_REQ), adds donor 4 to the running device (grant,
#     donors, domains), and the copies move there (the job, which may
#     have finished by then, verifies every page at the end).
#
# spare-ublk:
# spare-ublk placed by spare-broker (issue 10: `sparectl device create
# --backend=ublk` with the module backend's broker= settings). A broker on
# host 2; donors 2 and 3 (racks 2 and 3) register with it and lend only
# against its grants, to the authenticated client "trainer".
#   - refused at once, nothing left behind: broker= with donors=; a broker
#     key the broker does not know (the broker refuses, sparectl says so);
#   - "sparectl device create ub0 --backend=ublk ... broker=": sparectl asks
#     the broker for 8 slabs x 2 copies and writes the grants to
#     /etc/spare/ublk-ub0.grants (mode 0600) and the config names that
#     file and no donor; spare-ublk takes its donors and the placement of
#     every copy from the grants, both donors accept their 8 grants, no MAP
#     is refused, and every copy of a slab is on a different donor; the
#     config gives the donors' failure domains (racks 2 and 3: 0,1), as
#     sparectl's plan numbers them;
#   - a job of 4x its cgroup swaps on it, every page verified; meanwhile
#     "sparectl device renew" sends the broker back the device's 16 grants
#     (RENEW_GRANT), rewrites them in place with their new expiry and sends
#     the pager SIGHUP: it reads the file again and sends the donors the
#     renewals, which extend the grants they hold (nothing new accepted);
#   - "sparectl device monitor" (30 s leases) renews at once, for one
#     standby slab per donor (the one new grant each: RENEW_REQ still), then
#     again a third of the lease before the grants end, all 18 sent back;
#     the pager reads each renewal;
#   - destroy removes the config and the grants; the donors lend nothing;
#     the monitor ends by itself.
# (Was broker/place and broker/place-ublk: tests/vm/renames.)
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 600

B="broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key"

step "keys; a broker; donors 2 and 3 (racks 2 and 3) registered with it, lending only against grants"
rxe_up 3
# donor4: spare.ko's run adds a donor from outside the device (the
# pager's: broker/move@ublk)
broker_keys donor2 donor3 donor4 trainer
broker_up /tmp/broker.log
# 20 s of grace for an eviction: a move copies over the emulated link
# (Documentation/kmod.md, "Moving an evicted copy", on sizing it)
grant_donor 2 donor2 --domain rack2 --evict-deadline 20000
grant_donor 3 donor3 --domain rack3
broker_knows /tmp/broker.log donor2
broker_knows /tmp/broker.log donor3
client_require	# after rxe_up: spare.ko needs the RDMA core it loads
pass "broker and donors up"

if [ "$BACKEND" = kmod ]; then
	step "sparectl device create through the broker: 16 slabs x 2 copies"
	disk=$(sparectl device create swap0 size=256M slab_size=16M replicas=2 source=10.0.0.1 \
		key-file=/tmp/trainer.key broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key) ||
		{ cat /tmp/broker.log; dmesg | tail -20; donor_logs; fail "device create through the broker"; }
	[ -b "/dev/$disk" ] || fail "no /dev/$disk"
	cat "$CFS/swap0/donors"
	[ "$(tr ',' '\n' <"$CFS/swap0/donors" | sort | tr '\n' ' ')" = "10.0.0.2:18515 10.0.0.3:18515 " ] ||
		fail "donors: $(cat "$CFS/swap0/donors")"
	[ "$(tr ',' '\n' <"$CFS/swap0/placement" | grep -c .)" = 32 ] || fail "placement: $(cat "$CFS/swap0/placement")"
	# racks 2 and 3, from the broker's GRANT_REP: one domain number per donor
	[ "$(cat "$CFS/swap0/domains")" = 0,1 ] || fail "domains: $(cat "$CFS/swap0/domains"), want 0,1"
	[ "$(grep -c . "$CFS/swap0/grants")" = 32 ] || { cat "$CFS/swap0/grants"; fail "not 32 grants"; }
	[ "$(stat -c %a /run/spare/grants/swap0.grants)" = 600 ] &&
		[ "$(grep -vc '^#' /run/spare/grants/swap0.grants)" = 32 ] || fail "sparectl did not keep the 32 grants"
	[ "$(slab_stat mapped)" = 32 ] || { show_stats "$disk"; fail "not every copy mapped"; }
	[ "$(donor_metric 2 spare_donor_grants_accepted_total)" = 16 ] && [ "$(donor_metric 3 spare_donor_grants_accepted_total)" = 16 ] ||
		fail "grants accepted: $(donor_metric 2 spare_donor_grants_accepted_total) and $(donor_metric 3 spare_donor_grants_accepted_total)"
	[ "$(donor_metric 2 spare_donor_map_grant_refusals_total)" = 0 ] && [ "$(donor_metric 3 spare_donor_map_grant_refusals_total)" = 0 ] ||
		fail "a MAP was refused for want of a grant"
	grep -q "trainer: granted 16 slab(s) x 2 copies" /tmp/broker.log ||
		{ cat /tmp/broker.log; fail "the broker logged no grant"; }
	mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon"
	cg_new_high work ${WL_CG_MB}M
	workload_start 1 hold cut
	workload_swapped 2000
	pass "a broker-placed, granted device swapping"

	step "the broker restarts mid-run; the data path does not notice"
	kill -TERM "$BROKER_PID"; wait "$BROKER_PID" || { cat /tmp/broker.log; fail "spare-broker exit"; }
	broker_up /tmp/broker-2.log --grant-version 3
	grep -q "version 3 (each donor's own key) to donors that take it" /tmp/broker-2.log ||
		{ cat /tmp/broker-2.log; fail "the broker does not issue version 3"; }
	broker_knows /tmp/broker-2.log donor2
	broker_knows /tmp/broker-2.log donor3
	workload_alive
	pass "broker state rebuilt from heartbeats"

	step "renewal: sparectl device renew sends the 32 grants back; the module and the live donors extend them"
	a2=$(donor_metric 2 spare_donor_grants_accepted_total); a3=$(donor_metric 3 spare_donor_grants_accepted_total)
	k2=$(grep -c "known already" /tmp/spared-2.log); k3=$(grep -c "known already" /tmp/spared-3.log)
	r0=$(dmesg | grep -c "swap0: grant [0-9a-f]* renewed until")
	cp "$CFS/swap0/grants" /tmp/grants-before
	sleep 1	# a later second: every expiry must move
	# (the broker caps the lease at its own, 600 s)
	sparectl device renew swap0 broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key \
		lease=900 || { cat /tmp/broker-2.log; fail "renew"; }
	[ "$(grep -c . "$CFS/swap0/grants")" = 32 ] || { cat "$CFS/swap0/grants"; fail "a renewal took new entries"; }
	# each token's expiry later than before
	[ "$(awk 'NR == FNR { e[$1] = substr($4, 8); next } !(substr($4, 8) + 0 > e[$1] + 0)' \
		/tmp/grants-before "$CFS/swap0/grants" | wc -l)" = 0 ] ||
		{ cat /tmp/grants-before "$CFS/swap0/grants"; fail "a grant was not extended"; }
	[ "$(dmesg | grep -c "swap0: grant [0-9a-f]* renewed until")" = $((r0 + 32)) ] || fail "not 32 renewals in the kernel log"
	grep -q "trainer: renewed 16 grant(s)" /tmp/broker-2.log || { cat /tmp/broker-2.log; fail "no RENEW_GRANT at the broker"; }
	grep -q "trainer: renewed [0-9]* slab(s) on" /tmp/broker-2.log && fail "RENEW_REQ sent"
	renewed() { [ "$(grep -c "known already" /tmp/spared-2.log)" -ge $((k2 + 16)) ] &&
		    [ "$(grep -c "known already" /tmp/spared-3.log)" -ge $((k3 + 16)) ]; }
	wait_until 10 renewed || { donor_logs; fail "the renewed grants did not reach both donors"; }
	[ "$(donor_metric 2 spare_donor_grants_accepted_total)" = "$a2" ] &&
		[ "$(donor_metric 3 spare_donor_grants_accepted_total)" = "$a3" ] || fail "a donor counted a renewal as a new grant"
	workload_alive
	pass "renewed while swapping"

	step "sparectl device monitor keeps renewing: 8 s grants, each renewed with 4 s left"
	r0=$(dmesg | grep -c "swap0: grant [0-9a-f]* renewed until")
	sparectl device monitor swap0 broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key \
		lease=8 renew-before=4 interval=1 2>/tmp/monitor.log &
	MON_PID=$!
	# at start, then about every 4 s: three rounds of 2 donors in 10 s, each
	# sending back the donor's 16 grants (the module logs each renewal: a
	# shorter lease than the 900 s ones at first changes nothing there)
	rounds3() { [ "$(grep -c "granted until" /tmp/monitor.log)" -ge 6 ]; }
	wait_until 14 rounds3 || { cat /tmp/monitor.log; fail "the monitor did not renew 3 times"; }
	kill -TERM $MON_PID; wait $MON_PID || { cat /tmp/monitor.log; fail "monitor exit on SIGTERM"; }
	grep -q "monitor ends after" /tmp/monitor.log || { cat /tmp/monitor.log; fail "no monitor end"; }
	[ "$(grep -c . "$CFS/swap0/grants")" = 32 ] || fail "the monitor's renewals took new entries"
	# both donors are full: the standby slab is refused, once per donor
	[ "$(grep -c "no room for 1 more slab(s) on" /tmp/monitor.log)" = 2 ] ||
		{ cat /tmp/monitor.log; fail "the refused standby room was not logged once per donor"; }
	grep -q "trainer: renewed [0-9]* slab(s) on" /tmp/broker-2.log && fail "RENEW_REQ sent"
	cat /tmp/monitor.log
	# back to long grants while the 8 s ones can still be sent back: a grant
	# that ended more than its lease ago is not re-issued, and room for the
	# copies it covered would be refused on these full donors (sparectl(8))
	sparectl device renew swap0 broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key \
		lease=600 || { cat /tmp/broker-2.log; fail "renew after the monitor"; }
	workload_alive
	pass "grants renewed by the monitor while swapping"

	step "donor 4 joins (10.0.0.3:18516, grant-v3) and receives the next device's grants, version 3"
	# the renewals above went to donors without grant-v3: version 2
	awk '!/^#/ && substr($0, 9, 4) != "0200" { bad = 1 } END { exit bad }' \
		/run/spare/grants/swap0.grants || fail "a donor without grant-v3 got a grant other than version 2"
	spared --listen 10.0.0.3 --port 18516 -f /dev/null --ctl /run/spare/spared-4.sock \
		--budget 128M --slab-size 16M --host-keys /tmp/host-keys --grant-public-keys /tmp/grant.pub \
		--name donor4 --brokers "$BROKER" --broker-key-file /tmp/b-donor4.key --domain rack4 \
		--grant-v3 >/tmp/spared-4.log 2>&1 &
	DONOR_PID_4=$!
	wait_for 100 test -S /run/spare/spared-4.sock || { cat /tmp/spared-4.log; fail "donor 4 did not start"; }
	broker_knows /tmp/broker-2.log donor4
	# donors 2 and 3 have lent all 16 of their slabs: only donor 4 has room
	disk1=$(sparectl device create swap1 size=64M slab_size=16M replicas=1 source=10.0.0.1 \
		key-file=/tmp/trainer.key broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key) ||
		{ cat /tmp/broker-2.log; dmesg | tail -20; fail "second device through the broker"; }
	[ "$(cat "$CFS/swap1/donors")" = "10.0.0.3:18516" ] || fail "swap1's donors: $(cat "$CFS/swap1/donors")"
	[ "$(donor_metric 4 spare_donor_slabs_lent)" = 4 ] || fail "donor 4 lends $(donor_metric 4 spare_donor_slabs_lent) slabs, not 4"
	dd if=/dev/urandom of=/tmp/pattern bs=1M count=48 2>/dev/null
	dd if=/tmp/pattern of="/dev/$disk1" bs=1M oflag=direct 2>/dev/null || fail "write $disk1"
	dd if="/dev/$disk1" of=/tmp/back bs=1M count=48 iflag=direct 2>/dev/null || fail "read $disk1"
	cmp /tmp/pattern /tmp/back || fail "$disk1 read back differs"
	grep -q "grant-v3: taking version 3 grants for donor4" /tmp/spared-4.log ||
		{ cat /tmp/spared-4.log; fail "donor 4 does not take version 3 grants"; }
	# bytes 4-5 of each grant (hex digits 9-12): version 3, little-endian
	[ "$(grep -v '^#' /run/spare/grants/swap1.grants | cut -c9-12 | sort -u)" = 0300 ] ||
		{ cut -c1-24 /run/spare/grants/swap1.grants; fail "swap1's grants are not version 3"; }
	[ "$(donor_metric 4 spare_donor_grants_accepted_total)" = 4 ] ||
		fail "donor 4 accepted $(donor_metric 4 spare_donor_grants_accepted_total) grants, not swap1's 4"
	pass "the new donor got the new grants, version 3, and lent against them"

	step "a forged version 3 grant (its tag changed) does not start a device"
	g=$(grep -v '^#' /run/spare/grants/swap1.grants | head -n 1)
	last=${g: -1}
	case $last in 0) f=1 ;; *) f=0 ;; esac
	mkdir "$CFS/forged3" || fail "mkdir"
	for kv in size=16M slab_size=16M replicas=1 donors=10.0.0.3:18516 source=10.0.0.1 \
		  key-file=/tmp/trainer.key; do
		case $kv in
		key-file=*) cat /tmp/trainer.key >"$CFS/forged3/key" ;;
		*) echo "${kv#*=}" >"$CFS/forged3/${kv%%=*}" ;;
		esac || fail "forged3: ${kv%%=*} refused"
	done
	echo "${g%?}$f" >"$CFS/forged3/grants" || fail "configfs refused the forged grant's form"
	echo 1 >"$CFS/forged3/power" 2>/dev/null && fail "a device with a forged version 3 grant powered on"
	wait_until 10 grep -q "grant refused: forged grant" /tmp/spared-4.log ||
		{ cat /tmp/spared-4.log; fail "donor 4 did not refuse the forged grant as forged"; }
	[ "$(donor_metric 4 spare_donor_slabs_lent)" = 4 ] || fail "donor 4 lent against a forged grant"
	rmdir "$CFS/forged3" || fail "rmdir forged3"
	spare_destroy swap1
	pass "a forged version 3 grant refused by its donor"

	step "donor 2 evicts 2 slabs held on donor 3 too: they move to donor 4, added to the device"
	sparectl device monitor swap0 broker=$BROKER broker-name=trainer broker-key=/tmp/b-trainer.key \
		lease=600 interval=1 standby=0 2>/tmp/monitor-2.log &
	MON_PID=$!
	wait_until 10 grep -q "monitoring the grants" /tmp/monitor-2.log ||
		{ cat /tmp/monitor-2.log; fail "the monitor did not start"; }
	# its first round renews both donors (and learns their racks)
	wait_until 10 sh -c "[ \$(grep -c 'granted until' /tmp/monitor-2.log) -ge 2 ]" ||
		{ cat /tmp/monitor-2.log; fail "the monitor did not renew both donors"; }
	kill -0 "$WL_PID" 2>/dev/null && echo "the job is still swapping" || echo "the job has finished"
	donor_ctl 2 evict 2
	moved2() { [ "$(donor_field 10.0.0.2 moves)" -ge 2 ]; }
	wait_until 40 moved2 ||
		{ show_stats "$disk"; cat /tmp/monitor-2.log; dmesg | grep -E 'spare|donor' | tail -30
		  fail "the 2 evicted copies did not move"; }
	kill -TERM $MON_PID; wait $MON_PID || { cat /tmp/monitor-2.log; fail "monitor exit on SIGTERM"; }
	cat /tmp/monitor-2.log
	dmesg | grep -E 'donor 10.0.0.3:18516 added|moved to donor 10.0.0.3:18516' | sed 's/^/    /'
	grep -q "a donor the device did not use" /tmp/monitor-2.log ||
		fail "the monitor did not get a donor from outside the device"
	case $(cat "$CFS/swap0/donors") in
	10.0.0.[23]:18515,10.0.0.[23]:18515,10.0.0.3:18516) ;;
	*) fail "donors: $(cat "$CFS/swap0/donors"), want donor 4 added at the end" ;;
	esac
	# racks 2, 3 and now 4: a third domain number
	[ "$(cat "$CFS/swap0/domains")" = 0,1,2 ] || fail "domains: $(cat "$CFS/swap0/domains"), want 0,1,2"
	[ "$(donor_metric 4 spare_donor_slabs_lent)" = 2 ] || fail "donor 4 lends $(donor_metric 4 spare_donor_slabs_lent) slabs, not 2"
	[ "$(awk '$5 == "10.0.0.3:18516" && $6 == "mapped"' "/sys/block/$disk/spare/slab_map" | wc -l)" = 2 ] ||
		{ cat "/sys/block/$disk/spare/slab_map"; fail "slab_map: not 2 copies mapped on donor 4"; }
	[ "$(donor_field 10.0.0.2 moves_short)" = 0 ] || fail "a move ran out of time"
	[ "$(donor_field 10.0.0.2 evictions)" = "$(donor_field 10.0.0.2 moves)" ] ||
		fail "an eviction went the old way"
	# (the job may have finished meanwhile: it runs about 34 s on a fast
	# boot; the next step checks how it ended)
	pass "2 copies moved to donor 4, which the device did not use before"

	step "the job verifies every page"
	workload_wait
	show_stats "$disk"
	[ "$(io_stat "$disk" io_errors)" = 0 ] || fail "I/O errors"
	[ "$(donor_field 10.0.0.2 losses)" = 0 ] && [ "$(donor_field 10.0.0.3 losses)" = 0 ] ||
		fail "a donor connection was lost"
	pass "no error across the broker restart"

	swap_teardown
	kill -TERM "$BROKER_PID"; wait "$BROKER_PID" || { cat /tmp/broker-2.log; fail "spare-broker exit"; }
	for n in 2 3 4; do
		kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || { cat "/tmp/spared-$n.log"; fail "spared $n exit"; }
	done
	pass "broker end to end"
	exit 0
fi

# spare-ublk: sparectl device create --backend=ublk, renew and monitor
step "refused with a reason, nothing left behind"
rc=0
sparectl device create bad --backend=ublk size=64M slab_size=16M donors=10.0.0.2 $B \
	2>/tmp/bad.log || rc=$?
cat /tmp/bad.log
[ "$rc" = 2 ] && grep -q 'broker= places the slabs' /tmp/bad.log || fail "broker= with donors=: exit $rc"
(umask 077; sparectl gen-key >/tmp/stranger.key) || fail "gen-key"
rc=0
sparectl device create bad --backend=ublk size=64M slab_size=16M source=10.0.0.1 \
	key-file=/tmp/trainer.key broker=$BROKER broker-name=trainer \
	broker-key=/tmp/stranger.key 2>/tmp/bad.log || rc=$?
cat /tmp/bad.log
[ "$rc" = 1 ] && grep -qi 'broker' /tmp/bad.log || fail "an unknown broker key: exit $rc"
ls /etc/spare/ublk-bad.* 2>/dev/null && fail "a refused create left files"
ls /dev/ublkb* 2>/dev/null && fail "a refused create left a device"
[ "$(donor_metric 2 spare_donor_slabs_lent)" = 0 ] && [ "$(donor_metric 3 spare_donor_slabs_lent)" = 0 ] || fail "donors lent slabs"
pass "broker= with donors=, and a key the broker refuses"

step "sparectl device create --backend=ublk through the broker: 8 slabs x 2 copies"
disk=$(sparectl device create ub0 --backend=ublk size=128M slab_size=16M replicas=2 \
	source=10.0.0.1 key-file=/tmp/trainer.key $B lease=60) ||
	{ cat /tmp/broker.log; cat /run/spare/ublk/ub0.log; donor_logs; fail "device create through the broker"; }
echo "created $disk"
cat /etc/spare/ublk-ub0.conf
grep -qx 'grant-file = /etc/spare/ublk-ub0.grants' /etc/spare/ublk-ub0.conf ||
	fail "the config names no grants file"
grep -q '^donor' /etc/spare/ublk-ub0.conf && fail "the config lists donors: the grants place it"
[ "$(stat -c %a /etc/spare/ublk-ub0.grants)" = 600 ] || fail "grants file mode $(stat -c %a /etc/spare/ublk-ub0.grants)"
[ "$(grep -c '^[0-9a-f]\{512\}$' /etc/spare/ublk-ub0.grants)" = 16 ] || fail "not 16 grants in the file"
grep -q "trainer: granted 8 slab(s) x 2 copies" /tmp/broker.log ||
	{ cat /tmp/broker.log; fail "the broker logged no grant"; }
grep -q -- '--grant-file: 8 slab(s) x 2 copies on 2 donor(s)' /run/spare/ublk/ub0.log ||
	{ cat /run/spare/ublk/ub0.log; fail "spare-ublk was not placed by its grants"; }
# the donors' racks, numbered by sparectl's plan, for the pager's moves
grep -qx 'domains = 0,1' /etc/spare/ublk-ub0.conf || fail "the config has not the donors' domains"
grep -q 'failure domains 0,1 of donors 0..1' /run/spare/ublk/ub0.log ||
	{ cat /run/spare/ublk/ub0.log; fail "spare-ublk did not take the domains"; }
[ "$(donor_metric 2 spare_donor_grants_accepted_total)" = 8 ] && [ "$(donor_metric 3 spare_donor_grants_accepted_total)" = 8 ] ||
	fail "grants accepted: $(donor_metric 2 spare_donor_grants_accepted_total) and $(donor_metric 3 spare_donor_grants_accepted_total)"
[ "$(donor_metric 2 spare_donor_map_grant_refusals_total)" = 0 ] && [ "$(donor_metric 3 spare_donor_map_grant_refusals_total)" = 0 ] ||
	fail "a MAP was refused for want of a grant"
# two copies of each of the 8 slabs, one on each donor
[ "$(donor_metric 2 spare_donor_slabs_lent)" = 8 ] && [ "$(donor_metric 3 spare_donor_slabs_lent)" = 8 ] ||
	fail "slabs lent: $(donor_metric 2 spare_donor_slabs_lent) and $(donor_metric 3 spare_donor_slabs_lent)"
pass "placed by the broker's grants, every copy mapped"

step "a job of 4x its cgroup swaps on it; renewed meanwhile; every page verified"
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon"
ublk_cg work ${WL_CG_MB}M
workload_start 2
workload_swapped 1000
# the device's 16 grants sent back (RENEW_GRANT), rewritten in place, SIGHUP
ids() { grep '^[0-9a-f]\{512\}$' /etc/spare/ublk-ub0.grants | cut -c17-48; }	# the grant ids
ids >/tmp/ids-before
# each grant a donor takes is one line, "...; N slab(s) granted in all"
# (the trainer's budget there): count them, and read the last one's N
glines() { grep -c 'slab(s) granted in all' "/tmp/spared-$1.log"; }
budget() {	# N: both donors lend the trainer N slabs, all its grants together
	local n
	for n in 2 3; do
		[ "$(grep 'slab(s) granted in all' "/tmp/spared-$n.log" | tail -1 |
			sed 's/.*; \([0-9]*\) slab(s) granted in all$/\1/')" = "$1" ] || return 1
	done
}
g2=$(glines 2) g3=$(glines 3)
sparectl device renew ub0 $B lease=900 || { cat /tmp/broker.log; fail "renew"; }
[ "$(grep -c '^[0-9a-f]\{512\}$' /etc/spare/ublk-ub0.grants)" = 16 ] || fail "not 16 grants in the file"
ids | cmp -s - /tmp/ids-before || fail "the renewal did not keep the grants' ids, in place"
[ "$(stat -c %a /etc/spare/ublk-ub0.grants)" = 600 ] || fail "grants file mode after renew"
wait_for 100 grep -q 'SIGHUP: 16 grant(s) in /etc/spare/ublk-ub0.grants, 16 new' /run/spare/ublk/ub0.log ||
	{ cat /run/spare/ublk/ub0.log; fail "the pager did not read its grants again"; }
# each donor takes its 8 renewals, and still lends the trainer 8 slabs
# (a known id extends its grant; one it had purged, expired, counts anew)
wait_until 10 sh -c "[ \$(grep -c 'slab(s) granted in all' /tmp/spared-2.log) -ge $((g2 + 8)) ] &&
	[ \$(grep -c 'slab(s) granted in all' /tmp/spared-3.log) -ge $((g3 + 8)) ]" ||
	{ tail -20 /tmp/spared-2.log /tmp/spared-3.log; fail "the donors did not take 8 renewals each"; }
budget 8 || { tail -20 /tmp/spared-2.log /tmp/spared-3.log; fail "a donor lends the trainer other than 8 slabs after the renewal"; }
[ "$(grep -c 'trainer: renewed 8 grant(s)' /tmp/broker.log)" = 2 ] ||
	{ cat /tmp/broker.log; fail "the broker did not re-issue 8 grants on each donor"; }
grep -q 'trainer: renewed .* slab(s) on' /tmp/broker.log &&
	{ cat /tmp/broker.log; fail "device renew minted a grant (RENEW_REQ)"; }
workload_wait
swapoff "/dev/$disk" || fail "swapoff"
pass "swapped through a broker-placed spare-ublk, renewed while it ran"

step "sparectl device monitor renews the grants before they end, one standby slab per donor"
sparectl device monitor ub0 $B lease=30 interval=2 >/tmp/mon.log 2>&1 &
MON_PID=$!
# A donor lends against all the unexpired grants together: its 8 (1 slab
# each, renewed for 900 s). 8 copies and a standby slab need one more: due
# at once; the 8 are sent back (30 s now) and the standby slab asked for.
wait_until 30 budget 9 || { cat /tmp/mon.log; tail -5 /tmp/spared-2.log /tmp/spared-3.log; fail "first round: the donors do not lend the trainer 9 slabs"; }
grep -q 'device ub0: 16 slab copies renewed, 1 standby per donor' /tmp/mon.log ||
	{ cat /tmp/mon.log; fail "the monitor did not say what it renewed"; }
t_first=$(cut -d' ' -f1 /proc/uptime)
# then again a third of the 35 s grant (30 s lease, 5 s of clock skew)
# before it ends
second() { grep -q 'SIGHUP: 18 grant(s) in /etc/spare/ublk-ub0.grants, 18 new' /run/spare/ublk/ub0.log; }
wait_until 45 second || { cat /tmp/mon.log; cat /run/spare/ublk/ub0.log; fail "no second round before the grants ended"; }
t_second=$(cut -d' ' -f1 /proc/uptime)
echo "second round $(awk -v a="$t_first" -v b="$t_second" 'BEGIN {printf "%.0f", b - a}') s after the first"
awk -v a="$t_first" -v b="$t_second" 'BEGIN {exit !(b - a >= 15 && b - a <= 30)}' ||
	fail "the second round came at the wrong time"
# the second round sent all 9 back on each donor and minted nothing
budget 9 || { tail -5 /tmp/spared-2.log /tmp/spared-3.log; fail "after the second round a donor lends the trainer other than 9 slabs"; }
# the standby slab is new room: asked with ROOM_REQ (debited), never minted
# by the old RENEW_REQ
[ "$(grep -c 'trainer: room for 1 slab(s) on 10.0.0.[23]:18515' /tmp/broker.log)" = 2 ] ||
	{ cat /tmp/broker.log; fail "not one standby slab asked for on each donor"; }
grep -q 'trainer: renewed .* slab(s) on' /tmp/broker.log &&
	{ cat /tmp/broker.log; fail "the monitor minted a grant (RENEW_REQ)"; }
[ "$(grep -c 'trainer: renewed 9 grant(s)' /tmp/broker.log)" -ge 2 ] ||
	{ cat /tmp/broker.log; fail "the second round did not send each donor's 9 grants back"; }
pass "renewed at once for the standby slab, then before the lease ran out"

step "destroy: config and grants removed, the donors lend nothing; the monitor ends"
G1=$(grep -m1 '^[0-9a-f]\{512\}$' /etc/spare/ublk-ub0.grants)
sparectl device destroy ub0 || { cat /run/spare/ublk/ub0.log; fail "destroy"; }
mon_done() { ! kill -0 "$MON_PID" 2>/dev/null; }
wait_until 15 mon_done || fail "the monitor outlived the device"
wait "$MON_PID" || { cat /tmp/mon.log; fail "monitor exit $?"; }
cat /tmp/mon.log
grep -q 'device ub0: removed; monitor ends' /tmp/mon.log || fail "monitor end not logged"
[ ! -e /etc/spare/ublk-ub0.conf ] && [ ! -e /etc/spare/ublk-ub0.grants ] || fail "destroy left files"
[ ! -e "/dev/$disk" ] || fail "/dev/$disk still there"
wait_for 50 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-2.sock status |
	awk '\$1 == \"spare_donor_slabs_lent\" {print \$2}')\" = 0 ]" || fail "donor 2 still lends"
wait_for 50 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-3.sock status |
	awk '\$1 == \"spare_donor_slabs_lent\" {print \$2}')\" = 0 ]" || fail "donor 3 still lends"
# no credential in any log: the keys, and a grant (a bearer credential)
for secret in "$G1" "$(cut -c9- /tmp/trainer.key)" "$(cut -c9- /tmp/b-trainer.key)"; do
	grep -qF "$secret" /run/spare/ublk/ub0.log /tmp/broker.log /tmp/spared-2.log \
		/tmp/spared-3.log /tmp/mon.log && fail "a secret in a log"
done
pass "destroyed cleanly"

kill -TERM "$BROKER_PID"; wait "$BROKER_PID" || { cat /tmp/broker.log; fail "spare-broker exit"; }
check_dmesg
