# SPDX-License-Identifier: GPL-2.0
# vm-backends: kmod ublk
# vm-kernels: last
#
# A donor upgrade under live clients (issue 33, item 4): donor/restart
# restarts each donor while its pager is down; here the client keeps
# running and swapping while spared is restarted in place (SIGUSR2, the
# documented upgrade step: Documentation/spared.md, "Restarting for an
# upgrade") on each of its two donors in turn, and the first donor a
# second time. Two copies of every slab, one on each donor, no backup.
#  - Both clients ask a hold (HELLO F_HOLD): spare.ko always (with or
#    without a key), spare-ublk with a state file (and here a host key).
#    The old image holds its slabs, hands them to the new one ("restart:
#    8 slab(s) kept"), and the running client's next session resumes them
#    (HELLO F_RESUME) and adopts them (MAPPED F_KEPT): only pages written
#    while the donor was away are resynced (the pager: never more than
#    the pages swapped out meanwhile; spare.ko: every copy there adopted).
# Either way: every page the workload wrote verifies, no request fails,
# the copies on the donor that stayed up are never failed, every copy is
# mapped and current again before the next donor goes, and the restarted
# donor ends up lending each slab once (nothing held twice, nothing left
# held for a resume that already happened).
# Then ONE copy per slab and no backup: each donor restarted in turn
# under swap; the client waits for the donor (the I/O of its slabs waits,
# bounded: SPARE_LIFE_HOLD_MS), adopts what it kept, and every page
# verifies with 0 I/O errors and nothing resynced. spare.ko before it held
# (session 40) failed here: the copies came back empty, reads of them
# failed ("no current remote copy and no backup, data lost").
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
. /spare/tests/vm/client.inc
set -u
watchdog 600

STATE=/var/lib/spare/spared-restart-live.state

step "two donors that hold slabs 60 s for a resume; 2 copies per slab, swap on"
rxe_up 3
(
	umask 077
	sparectl gen-key >/tmp/trainer.key &&
		echo "trainer $(cat /tmp/trainer.key)" >/tmp/host-keys
) || fail "keys"
DONOR_ARGS="--budget 256M --slab-size 16M --resume-hold 60"
# spare.ko authenticates with configfs's key; the pager with --key-file
[ "$BACKEND" = ublk ] && DONOR_ARGS="$DONOR_ARGS --host-keys /tmp/host-keys"
# shellcheck disable=SC2086
donor_start 2 $DONOR_ARGS
# shellcheck disable=SC2086
donor_start 3 $DONOR_ARGS
client_require
if [ "$BACKEND" = kmod ]; then
	client_up ${DEV_MB}M 16M 2 10.0.0.2:$DONOR_PORT 10.0.0.3:$DONOR_PORT
	cg_new_high work ${WL_CG_MB}M
	nslabs=$SLABS out=$((4000 / WL_DIV))
else
	rm -f "$STATE"
	ublk_up --size 128M --slab-size 16M --copies 2 --queues 2 --state-file "$STATE" \
		--key-file /tmp/trainer.key --donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT
	WL_SIZE_MB=96 WL_CG_MB=32
	ublk_cg work ${WL_CG_MB}M
	nslabs=8 out=6000
fi
client_swap_on
all_mapped() { [ "$(client_mapped)" = $((2 * nslabs)) ]; }
wait_until 10 all_mapped || { cat "$(client_map)"; fail "not every copy mapped"; }
pass "swapping on $disk, $nslabs slabs x 2 copies on donors 2 and 3"

# whole: every copy mapped and current (spare.ko: slab_stat counts current
# pages over the copies; the pager says so once per resync)
whole() {
	all_mapped || return 1
	if [ "$BACKEND" = kmod ]; then
		[ "$(slab_current)" = $((2 * nslabs * 4096)) ]
	else
		[ "$(grep -c 'resync: all [0-9]* copies mapped and current' /tmp/ublk.log)" -gt "$resyncs0" ]
	fi
}
# the pager's live resync counter (its io_stat line, as spare.ko's)
live_resync() { awk '$1 == "io_stat" {print $14}' "/run/spare/ublk/$disk"; }
# the failures the client counted for the donor at host $1 so far
losses() {
	if [ "$BACKEND" = kmod ]; then donor_field "10.0.0.$1" losses
	else grep -c "copy [01] failed (donor 10.0.0.$1)\|donor 10.0.0.$1 lost" /tmp/ublk.log; fi
}

step "the workload runs until the last restart is done"
# one pass, then held: the job makes the same passes until it is let go
# (after the last round), then stops where it is (cut); its verify reads
# every page back, against the pass that wrote it last
workload_start 1 hold cut
workload_swapped "$out"

round=0
for n in 3 2 3; do
	other=$((5 - n))
	round=$((round + 1))
	step "round $round: spared $n restarts in place (SIGUSR2) under the running client"
	workload_alive
	pid=$(donor_pid "$n")
	lost_other=$(losses "$other") lost_n=$(losses "$n")
	restarts=$(grep -c 'restart: .* slab(s) kept with their contents' "/tmp/spared-$n.log")
	resyncs0=$(grep -c 'resync: all [0-9]* copies mapped and current' /tmp/ublk.log 2>/dev/null)
	resumed0=$(grep -c "donor 10.0.0.$n: resumed after its restart: $nslabs slab copies kept" /tmp/ublk.log 2>/dev/null)
	[ "$BACKEND" = ublk ] && rs0=$(live_resync)
	[ "$BACKEND" = kmod ] && kept0=$(donor_field "10.0.0.$n" kept_copies)
	out0=$(vmstat_get pswpout)
	kill -USR2 "$pid"
	wait_for 100 sh -c "[ \$(grep -c 'restart: .* slab(s) kept with their contents' /tmp/spared-$n.log) -gt $restarts ]" ||
		{ donor_logs; fail "spared $n did not come back from SIGUSR2"; }
	kill -0 "$pid" 2>/dev/null || { donor_logs; fail "spared $n exited on SIGUSR2"; }
	grep 'restart:' "/tmp/spared-$n.log" | tail -3
	grep -q "restart: handing over $nslabs held slab(s) of 1 client(s)" "/tmp/spared-$n.log" ||
		{ donor_logs; fail "spared $n did not hold the client's $nslabs slabs over its restart"; }
	# spare.ko: the copies there failed first (so that "whole" below is
	# the refill, not the moment before the module noticed); the pager's
	# "whole" is a resync line logged after the restart
	noticed() { [ "$(losses "$n")" -gt "$lost_n" ]; }
	if [ "$BACKEND" = kmod ]; then
		wait_until 30 noticed || { show_stats "$disk"; fail "spare.ko did not notice spared $n going"; }
	fi
	wait_until 200 whole ||
		{ show_stats "$disk"; cat "$(client_map)"; client_log; donor_logs; fail "the copies on donor $n were not mapped again and made current"; }
	[ "$(losses "$other")" = "$lost_other" ] ||
		{ client_log; fail "a copy on donor $other (not restarted) was failed"; }
	workload_alive
	# the donor lends each slab of the device once, and holds none for a
	# resume: the running client's session took them (or they were freed)
	wait_for 100 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-$n.sock status |
		awk '\$1 == \"spare_donor_slabs_lent\" {print \$2}')\" = $nslabs ]" ||
		{ donor_ctl "$n" status | grep slabs; donor_logs; fail "spared $n lends $(donor_metric "$n" spare_donor_slabs_lent) slabs after its restart, not $nslabs"; }
	[ "$(donor_metric "$n" spare_donor_slabs_held)" = 0 ] ||
		{ donor_ctl "$n" status | grep slabs; fail "spared $n still holds slabs for a resume"; }
	if [ "$BACKEND" = kmod ]; then
		# adopted, not copied again
		[ "$(donor_field "10.0.0.$n" kept_copies)" = $((kept0 + nslabs)) ] ||
			{ show_stats "$disk"; client_log; fail "spare.ko did not adopt the $nslabs copies spared $n kept"; }
	else
		grep 'resync: all' /tmp/ublk.log | tail -1
		# adopted, not copied again: at most what was written meanwhile
		[ "$(grep -c "donor 10.0.0.$n: resumed after its restart: $nslabs slab copies kept" /tmp/ublk.log)" -gt "$resumed0" ] ||
			{ client_log; fail "the pager did not adopt the $nslabs copies spared $n kept"; }
		rs=$(( $(live_resync) - rs0 )) swapped=$(( $(vmstat_get pswpout) - out0 ))
		echo "round $round: $rs pages resynced, $swapped pages swapped out meanwhile"
		[ "$rs" -le "$swapped" ] ||
			fail "the pager resynced $rs pages, more than the $swapped written since spared $n went: kept pages copied again"
	fi
	pass "spared $n (pid $pid, the same) restarted; the client swapped $(( $(vmstat_get pswpout) - out0 )) pages out meanwhile; every copy current again, none on donor $other failed"
	workload_swapped $(( $(vmstat_get pswpout) - WL_OUT0 + out / 2 ))
done

step "the workload finishes with every page verified"
workload_wait
if dmesg | grep -E -i 'error on swap|I/O error, dev (spare|ublkb)|Buffer I/O error'; then
	fail "swap I/O errors in dmesg"
fi
[ "$BACKEND" = kmod ] && show_stats "$disk"
pass "every page verified across three in-place donor restarts"

step "teardown: no request failed, every slab returned"
client_swap_off
[ "$BACKEND" = kmod ] && { io_errors=$(client_stat io_errors); resynced=$(io_stat "$disk" resync_pages); }
client_down
if [ "$BACKEND" = ublk ]; then
	io_errors=$(client_stat io_errors) resynced=$(ublk_stat resync_pages)
fi
[ "$io_errors" = 0 ] || fail "$io_errors I/O errors"
echo "pages resynced: $resynced"
lent_none() {
	local n
	for n in 2 3; do
		wait_for 50 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-$n.sock status |
			awk '\$1 == \"spare_donor_slabs_lent\" {print \$2}')\" = 0 ]" ||
			{ donor_ctl $n status | grep slabs; fail "donor $n still lends slabs after the clean stop"; }
	done
}
lent_none
pass "clean: 0 I/O errors, $resynced pages resynced, no slab left lent"

step "one copy, no backup: each donor restarts in place under the swapping client"
client_require
if [ "$BACKEND" = kmod ]; then
	client_up ${DEV_MB}M 16M 1 10.0.0.2:$DONOR_PORT 10.0.0.3:$DONOR_PORT
	n1=$SLABS out1=$out
else
	rm -f "$STATE"
	ublk_up --size 128M --slab-size 16M --copies 1 --queues 2 --state-file "$STATE" \
		--key-file /tmp/trainer.key --donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT
	n1=8 out1=4000
fi
per=$((n1 / 2))	# each donor holds half the slabs
client_swap_on
wait_until 10 sh -c "[ \$(awk '\$6 == \"mapped\"' $(client_map) | wc -l) = $n1 ]" ||
	{ cat "$(client_map)"; fail "not every copy mapped"; }
# the client's line for donor $1's resume: its $per slabs adopted
resumed() {
	if [ "$BACKEND" = kmod ]; then
		dmesg | grep -c "donor 10.0.0.$1:$DONOR_PORT: resumed after its restart: $per slab copies kept with their contents (MAPPED F_KEPT), 0 not kept"
	else
		grep -c "donor 10.0.0.$1: resumed after its restart: $per slab copies kept with their contents (MAPPED F_KEPT), 0 not kept" /tmp/ublk.log
	fi
}
workload_start 1 hold cut
workload_swapped "$out1"
for n in 2 3; do
	workload_alive
	restarts=$(grep -c 'restart: .* slab(s) kept with their contents' "/tmp/spared-$n.log")
	resumed0=$(resumed "$n")
	out0=$(vmstat_get pswpout) t0=$(date +%s)
	kill -USR2 "$(donor_pid "$n")"
	wait_for 100 sh -c "[ \$(grep -c 'restart: .* slab(s) kept with their contents' /tmp/spared-$n.log) -gt $restarts ]" ||
		{ donor_logs; fail "spared $n did not come back from SIGUSR2"; }
	grep -q "restart: handing over $per held slab(s) of 1 client(s)" "/tmp/spared-$n.log" ||
		{ donor_logs; fail "spared $n did not hold the client's $per slabs over its restart"; }
	back() { [ "$(resumed "$n")" -gt "$resumed0" ]; }
	wait_until 60 back ||
		{ show_stats "$disk"; client_log 40; donor_logs; fail "the client did not resume and adopt the $per slabs spared $n kept"; }
	workload_alive
	pass "spared $n restarted; the client adopted its $per slabs after $(( $(date +%s) - t0 )) s, $(( $(vmstat_get pswpout) - out0 )) pages swapped out meanwhile"
	workload_swapped $(( $(vmstat_get pswpout) - WL_OUT0 + out1 / 2 ))
done
workload_wait
if dmesg | grep -E -i 'error on swap|I/O error, dev (spare|ublkb)|Buffer I/O error'; then
	fail "swap I/O errors in dmesg (one copy)"
fi
client_swap_off
if [ "$BACKEND" = kmod ]; then
	show_stats "$disk"
	io_errors=$(client_stat io_errors) resynced=$(io_stat "$disk" resync_pages)
	kept=$(( $(donor_field 10.0.0.2 kept_copies) + $(donor_field 10.0.0.3 kept_copies) ))
	expired=$(( $(donor_field 10.0.0.2 holds_expired) + $(donor_field 10.0.0.3 holds_expired) ))
	echo "requests that waited for a held donor: $(io_stat "$disk" held_waits)"
	client_down
else
	client_down
	io_errors=$(client_stat io_errors) resynced=$(ublk_stat resync_pages)
	kept=$(ublk_stat kept_copies) expired=$(ublk_stat holds_expired)
fi
[ "$io_errors" = 0 ] || fail "$io_errors I/O errors with one copy"
[ "$resynced" = 0 ] || fail "$resynced pages resynced with one copy"
[ "$kept" = "$n1" ] || fail "$kept copies adopted, not $n1"
[ "$expired" = 0 ] || fail "a hold ran out"
lent_none
pass "one copy: every page verified across two in-place donor restarts, 0 I/O errors, $n1 kept copies adopted, 0 pages resynced"

for n in 2 3; do kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || fail "spared $n exit"; done
check_dmesg
