# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
#
# A donor restart that keeps lent memory (issue 33, item 4): every donor is
# restarted in turn for an upgrade (SIGUSR2: spared execs its binary again,
# handing its held slabs' memfds and their table to the new image) while a
# swap device with ONE copy of each slab and NO backup is under load. Each
# donor's restart happens while the pager that uses it is down for a
# restart of its own (SIGKILL, the ublk device quiesced, the workload
# waiting), because that is the one client path today that holds I/O across
# a donor's absence (HELLO F_HOLD; Documentation/protocol.md, "Donor
# restart"). The restarted donor must hold the slabs with their contents,
# for the same client only; the next pager resumes them (MAPPED F_KEPT).
# Every page verifies, no copy is lost, and nothing is resynced.
# Old spared has no such restart: SIGUSR2 ends it, and a plain restart
# holds nothing (the copies are lost: with one copy, so are the pages).
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
watchdog 360

ublk_require

STATE=/var/lib/spare/spared-restart.state

step "two donors with host keys, holding a vanished client's slabs 60 s; spare-ublk 128 MiB, 16 MiB slabs, 1 copy, no backup"
rxe_up 3
(
	umask 077
	sparectl gen-key >/tmp/trainer.key &&
		echo "trainer $(cat /tmp/trainer.key)" >/tmp/host-keys
) || fail "keys"
DONOR_ARGS="--budget 256M --slab-size 16M --resume-hold 60 --host-keys /tmp/host-keys"
# shellcheck disable=SC2086
donor_start 2 $DONOR_ARGS
# shellcheck disable=SC2086
donor_start 3 $DONOR_ARGS
UBLK_ARGS="--size 128M --slab-size 16M --copies 1 --queues 2 --state-file $STATE --key-file /tmp/trainer.key
	--donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT"
rm -f "$STATE"
# shellcheck disable=SC2086
ublk_up $UBLK_ARGS
[ -s "$STATE" ] || fail "no state file $STATE"
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon /dev/$disk"
pass "swapping on $disk: 8 slabs, each on one donor only"

step "workload: 64 MiB in 24 MiB, swapping until the last restart is done"
WL_SIZE_MB=64 WL_CG_MB=24
ublk_cg work ${WL_CG_MB}M
workload_start 2
workload_swapped 8000

kept_total=0
for n in 2 3; do
	step "donor $n: its client's pager stops; spared $n restarts for an upgrade"
	kill -KILL "$UBLK_PID"
	wait "$UBLK_PID" 2>/dev/null
	cp /tmp/ublk.log "/tmp/ublk-before-$n.log"
	kill -0 "$WL_PID" 2>/dev/null || { cat /tmp/memtest.out; fail "the workload died with the pager"; }
	wait_for 100 sh -c "grep -q 'slab(s) held for a resume' /tmp/spared-$n.log" ||
		{ donor_logs; fail "donor $n did not hold the slabs"; }
	held=$(donor_metric $n spare_donor_slabs_held)
	[ "${held:-0}" -ge 1 ] || fail "donor $n holds ${held:-no} slabs"
	pid=$(donor_pid $n)
	kill -USR2 "$pid"
	wait_for 100 sh -c "grep -q 'restart: .* slab(s) kept with their contents' /tmp/spared-$n.log" ||
		{ donor_logs; fail "spared $n did not come back with the held slabs"; }
	kill -0 "$pid" 2>/dev/null || { donor_logs; fail "spared $n exited on SIGUSR2"; }
	wait_for 100 sh -c "sparectl donor -S /run/spare/spared-$n.sock status >/dev/null 2>&1" ||
		{ donor_logs; fail "no control socket after the restart"; }
	grep "restart:" "/tmp/spared-$n.log"
	after=$(donor_metric $n spare_donor_slabs_held)
	[ "$after" = "$held" ] || { donor_logs; fail "donor $n held $held slabs before its restart, $after after"; }
	lent=$(donor_metric $n spare_donor_slabs_lent)
	[ "$lent" -ge "$held" ] || fail "the held slabs must count as lent ($lent)"
	pass "spared $n (pid $pid, the same) restarted holding $after slab(s)"

	step "the pager comes back: every copy kept, on both donors"
	# shellcheck disable=SC2086
	ublk_up $UBLK_ARGS
	grep -E 'restart:|no longer holds|session ready' /tmp/ublk.log
	grep -q "taking /dev/$disk back" /tmp/ublk.log || fail "the pager did not take $disk back"
	grep -q 'restart: 8 copies kept by their donors, 0 lost, 0 had failed before' /tmp/ublk.log ||
		{ donor_logs; fail "copies lost across donor $n's restart"; }
	grep -q 'no longer holds it' /tmp/ublk.log && fail "a donor no longer holds a copy"
	kept=$(donor_metric $n spare_donor_slabs_kept_total)
	[ "${kept:-0}" = "$held" ] || { donor_logs; fail "donor $n mapped ${kept:-no} kept slab(s), held $held"; }
	kept_total=$((kept_total + kept))
	workload_swapped $(( $(vmstat_get pswpout) - WL_OUT0 + 2000 ))
	pass "donor $n's $kept slab(s) back with their contents; swapping on"
done
[ "$kept_total" = 8 ] || fail "$kept_total slabs kept in all, expected 8"

step "the workload finishes with every page verified"
workload_wait
if dmesg | grep -E -i 'error on swap|I/O error, dev ublkb|Buffer I/O error'; then
	fail "swap I/O errors in dmesg"
fi
pass "every page verified across both donors' restarts"

step "teardown: nothing resynced, every slab returned"
swapoff "/dev/$disk" || fail "swapoff"
ublk_down
[ "$(ublk_stat io_errors)" = 0 ] || fail "$(ublk_stat io_errors) I/O errors"
[ "$(ublk_stat resync_pages)" = 0 ] || fail "$(ublk_stat resync_pages) pages resynced: a kept copy was refilled"
for n in 2 3; do
	wait_for 50 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-$n.sock status |
		awk '\$1 == \"spare_donor_slabs_lent\" {print \$2}')\" = 0 ]" ||
		{ donor_ctl $n status | grep slabs; fail "donor $n still lends slabs after the clean stop"; }
done
for n in 2 3; do kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || fail "spared $n exit"; done
check_dmesg
pass "clean: 0 I/O errors, 0 pages resynced, no slab left lent"
