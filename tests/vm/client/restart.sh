# SPDX-License-Identifier: GPL-2.0
# vm-kernels: last
#
# Pager restart (issue 10): spare-ublk is SIGKILLed while its device is
# swapped on and under load, and started again with the same settings. The
# ublk driver keeps the device, quiesced (UBLK_F_USER_RECOVERY); the donors
# keep the dead pager's slabs with their contents (spared's resume-hold);
# the new pager reads its state file, resumes both donors' sessions (HELLO
# F_RESUME with each donor's token), maps every copy again (MAPPED F_KEPT)
# and takes the device back (START/END_USER_RECOVERY); the requests the dead
# pager held are re-issued (UBLK_F_USER_RECOVERY_REISSUE). The workload
# verifies every page and the kernel logs no swap I/O error. Meanwhile a
# stranger that knows the device's uuid but not the token (another host)
# asks a donor for the held slabs and gets none, and donor 3 restarts, so
# that it holds nothing: its copies must be failed (every page is read
# from donor 2's copy, never from a fresh slab of zeros).
# The donors require host keys and lend only against a broker's grants, so
# every restart authenticates both ways and sends its grants again. The
# second pager is SIGKILLed too, while it takes the device back (it has
# resumed donor 2's session and waits on host 3, cut off); a third takes the
# device back.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spare.inc
. /spare/tests/vm/ublk.inc
set -u
watchdog 300

ublk_require

STATE=/var/lib/spare/ublk-restart.state

step "two donors holding a vanished client's slabs 60 s, with host keys and grants; spare-ublk 128 MiB, 16 MiB slabs, 2 copies, 2 queues"
rxe_up 3
(
	umask 077
	sparectl gen-key >/tmp/grant.key && sparectl gen-key >/tmp/trainer.key &&
		echo "trainer $(cat /tmp/trainer.key)" >/tmp/host-keys
) || fail "keys"
DONOR_ARGS="--budget 256M --slab-size 16M --resume-hold 60 --host-keys /tmp/host-keys --grant-key-file /tmp/grant.key"
# shellcheck disable=SC2086
donor_start 2 $DONOR_ARGS
# shellcheck disable=SC2086
donor_start 3 $DONOR_ARGS
G2=$(ublk_mint ok:8 10.0.0.2 trainer) && G3=$(ublk_mint ok:8 10.0.0.3 trainer) || fail "mint"
UBLK_ARGS="--size 128M --slab-size 16M --copies 2 --queues 2 --state-file $STATE --key-file /tmp/trainer.key
	--grant $G2 --grant $G3 --donor 10.0.0.2:$DONOR_PORT --donor 10.0.0.3:$DONOR_PORT"
rm -f "$STATE"
# shellcheck disable=SC2086
ublk_up $UBLK_ARGS
[ -s "$STATE" ] || fail "no state file $STATE"
head -7 "$STATE"	# not the donor lines: their tokens are secrets
grep -q 'donor 10.0.0.2: session ready (authenticated both ways)' /tmp/ublk.log &&
	grep -q 'donor 10.0.0.3:18515: sent 1 grant(s)' /tmp/ublk.log ||
	{ cat /tmp/ublk.log; fail "not authenticated, or the grants not sent"; }
mkswap "/dev/$disk" >/dev/null && swapon "/dev/$disk" || fail "swapon /dev/$disk"
pass "swapping on $disk, state in $STATE"

step "workload: 64 MiB, 2 passes in 24 MiB; the pager SIGKILLed mid-run"
WL_SIZE_MB=64 WL_CG_MB=24
ublk_cg work ${WL_CG_MB}M
workload_start 2
workload_swapped 8000
kill -KILL "$UBLK_PID"
wait "$UBLK_PID" 2>/dev/null
t_kill=$(cut -d' ' -f1 /proc/uptime)
echo "pager killed at pswpout +$(( $(vmstat_get pswpout) - WL_OUT0 ))"
cp /tmp/ublk.log /tmp/ublk-1.log
[ -b "/dev/$disk" ] || fail "/dev/$disk went away with its pager"
grep -q "/dev/$disk" /proc/swaps || fail "swap on /dev/$disk is gone"
kill -0 "$WL_PID" 2>/dev/null || { cat /tmp/memtest.out; fail "the workload died with the pager"; }
pass "device and swap still there, the workload waits"

step "the donors hold the dead pager's slabs; a stranger without the token gets none"
wait_for 100 sh -c "grep -q 'slab(s) held for a resume' /tmp/spared-2.log" ||
	{ donor_logs; fail "donor 2 did not hold the slabs"; }
held=$(donor_ctl 2 status | awk '$1 == "spare_donor_slabs_held" {print $2}')
[ "${held:-0}" -ge 8 ] || fail "donor 2 holds ${held:-no} slabs, expected 8"
lent=$(donor_ctl 2 status | awk '$1 == "spare_donor_slabs_lent" {print $2}')
[ "$lent" -ge 8 ] || fail "held slabs must still count as lent ($lent)"
UUID=$(awk '$1 == "uuid" {print $2}' "$STATE")
TOKEN=$(awk '$1 == "donor" && $2 == 0 {print $5}' "$STATE")
[ -n "$UUID" ] && [ -n "$TOKEN" ] || fail "no uuid or token in $STATE"
last=${TOKEN#???????????????}
if [ "$last" = 0 ]; then WRONG=$(echo "$TOKEN" | cut -c1-15)1; else WRONG=$(echo "$TOKEN" | cut -c1-15)0; fi
# The stranger holds the trainer's key (a host given it, or a stolen copy)
# and a grant of its own, but not the state file's token.
spare-probe --source 10.0.0.3 --port "$DONOR_PORT" --slab-size 16M \
	-k "$(cat /tmp/trainer.key)" --grant-key /tmp/grant.key --grant-client trainer \
	--grant-donor "$(hostname | cut -c1-15)" \
	--uuid-hex "$UUID" --resume "$WRONG" 10.0.0.2 grant:ok:1 map:0 unmap:0 >/tmp/stranger.out 2>&1 ||
	{ cat /tmp/stranger.out; fail "stranger probe"; }
cat /tmp/stranger.out
grep -q '^map slab 0: addr' /tmp/stranger.out || fail "the stranger was not even lent a fresh slab"
grep -q 'kept' /tmp/stranger.out && fail "a stranger got a held slab back with its contents"
grep -q 'may not resume the slabs held for .*wrong resume token' /tmp/spared-2.log ||
	{ donor_logs; fail "donor 2 did not refuse the stranger's resume"; }
held=$(donor_ctl 2 status | awk '$1 == "spare_donor_slabs_held" {print $2}')
[ "${held:-0}" -ge 8 ] || fail "after the stranger, donor 2 holds ${held:-no} slabs"
pass "held: $held slabs on donor 2; the stranger's resume refused"

step "donor 3 restarts meanwhile: it holds nothing any more"
kill -KILL "$(donor_pid 3)"
wait "$(donor_pid 3)" 2>/dev/null
# shellcheck disable=SC2086
donor_start 3 $DONOR_ARGS
pass "spared on host 3 restarted, empty"

step "a second pager, host 3 unreachable, is SIGKILLed while it takes the device back"
# With RoCE to host 3 dropped, the second pager resumes donor 2's session
# (HELLO with the resume token, both ways authenticated) and then waits on
# host 3 (--timeout, 10 s a step): it is killed there, so donor 2 must
# hold the slabs a second time, under the same token.
cut_link 3
: >/tmp/ublk.log
# shellcheck disable=SC2086
spare-ublk $UBLK_ARGS >/tmp/ublk-2.out 2>/tmp/ublk.log &
P2=$!
wait_for 300 grep -q 'donor 10.0.0.2: session ready (authenticated both ways)' /tmp/ublk.log ||
	{ cat /tmp/ublk.log; fail "the second pager did not resume donor 2's session"; }
kill -KILL "$P2"
wait "$P2" 2>/dev/null
heal_link
cp /tmp/ublk.log /tmp/ublk-2.log
cat /tmp/ublk-2.log
grep -q "taken back\|START_USER_RECOVERY" /tmp/ublk-2.log && fail "the second pager got past its set-up with host 3 cut off"
[ -b "/dev/$disk" ] && grep -q "/dev/$disk" /proc/swaps || fail "/dev/$disk or its swap went with the second pager"
kill -0 "$WL_PID" 2>/dev/null || { cat /tmp/memtest.out; fail "the workload died with the second pager"; }
grep -q 'resumes 8 slab(s)' /tmp/spared-2.log || { donor_logs; fail "donor 2 did not resume for the second pager"; }
wait_for 100 sh -c "[ \$(grep -c 'slab(s) held for a resume' /tmp/spared-2.log) -ge 2 ]" ||
	{ donor_logs; fail "donor 2 did not hold the slabs again"; }
pass "device and swap still there; donor 2 holds the slabs again"

step "a third pager with the same settings takes the device back"
# shellcheck disable=SC2086
ublk_up $UBLK_ARGS
t_back=$(cut -d' ' -f1 /proc/uptime)
cat /tmp/ublk.log
grep -q "taking /dev/$disk back" /tmp/ublk.log || fail "the new pager did not take $disk back"
[ "$(head -1 /tmp/ublk.out)" = "$disk" ] || fail "a new device instead of $disk"
# donor 2 kept its 8 copies (held through two pagers); donor 3's 8 are
# gone: failed, never read
grep -q 'restart: 8 copies kept by their donors, 8 lost, 0 had failed before' /tmp/ublk.log ||
	fail "expected donor 2's 8 copies kept and donor 3's 8 lost"
[ "$(grep -c 'donor 10.0.0.3 no longer holds it' /tmp/ublk.log)" = 8 ] ||
	fail "donor 3's copies were not all failed"
grep -q 'donor 10.0.0.2: session ready (authenticated both ways)' /tmp/ublk.log ||
	fail "the third pager did not authenticate donor 2"
grep -q 'no copy left' /tmp/ublk.log && fail "a slab lost every copy"
[ "$(grep -c 'resumes 8 slab(s)' /tmp/spared-2.log)" = 2 ] ||
	{ donor_logs; fail "donor 2 did not resume the held slabs twice"; }
[ "$(donor_metric 2 spare_donor_map_grant_refusals_total)" = 0 ] && [ "$(donor_metric 3 spare_donor_map_grant_refusals_total)" = 0 ] ||
	{ donor_logs; fail "a donor refused a MAP for want of a grant"; }
awk '$1 == "slab" {for (i = 3; i <= NF; i++) if ($i ~ /^1:/ && $i != "1:F") bad = 1} END {exit bad}' "$STATE" ||
	{ cat "$STATE" | grep '^slab'; fail "the state file still calls a copy on donor 3 whole"; }
echo "device back $(echo "$t_kill $t_back" | awk '{printf "%.1f", $2 - $1}') s after the kill"
pass "/dev/$disk taken back by a third pager: donor 2's 8 copies kept, donor 3's 8 failed (also in the state file)"

step "the workload finishes with every page verified"
workload_wait
if dmesg | grep -E -i 'error on swap|I/O error, dev ublkb|Buffer I/O error'; then
	fail "swap I/O errors in dmesg"
fi
pass "every page verified across the pager's restart, no swap I/O error"

step "teardown: a clean stop removes the state file and returns every slab"
swapoff "/dev/$disk" || fail "swapoff"
ublk_down
[ "$(ublk_stat io_errors)" = 0 ] || fail "$(ublk_stat io_errors) I/O errors"
# the device's two queues, taken back by as many queue threads
[ "$(ublk_stat queues)" = 2 ] || fail "the last pager served $(ublk_stat queues) queue(s), not 2"
[ -e "$STATE" ] && fail "state file left after a clean stop"
for n in 2 3; do
	wait_for 50 sh -c "[ \"\$(sparectl donor -S /run/spare/spared-$n.sock status |
		awk '\$1 == \"spare_donor_slabs_lent\" {print \$2}')\" = 0 ]" ||
		{ donor_ctl $n status | grep slabs; fail "donor $n still lends slabs after the clean stop"; }
done
for n in 2 3; do kill -TERM "$(donor_pid $n)"; wait "$(donor_pid $n)" || fail "spared $n exit"; done
check_dmesg
pass "clean: 0 I/O errors, state file gone, no slab left lent"
