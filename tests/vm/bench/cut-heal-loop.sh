# SPDX-License-Identifier: GPL-2.0
#
# Repeat ops/rig-smoke's cut/heal step in one boot, in its harsher form: the
# ib_read_lat pair started across the cut is left alive, so its CM's
# resent request connects through the healed link while perftest() checks
# the link with a fresh pair. The measurement behind the ops/rig-smoke record
# in Documentation/status.md. Not run by make check:
#   scripts/vm/run -k KVER tests/vm/bench/cut-heal-loop.sh [ROUNDS]
. /spare/tests/vm/lib.sh
set -u
rxe_up 2
ok=0
bad=0
restarted=0
for i in $(seq 1 "${1:-20}"); do
	port=$((18600 + 2 * i))
	cut_link 2
	cut_attempt "$port"
	heal_link
	if perftest ib_read_lat $((port + 1)) -s 4096 -n 50 >/tmp/cli.out 2>/tmp/err.out; then
		ok=$((ok + 1))
		echo "round $i: ok"
	else
		bad=$((bad + 1))
		echo "round $i: FAILED"
		cat /tmp/cli.out
	fi
	cat /tmp/err.out
	grep -q 'perftest: .* try' /tmp/err.out && restarted=$((restarted + 1))
	kill -9 $CUT_PIDS 2>/dev/null
	wait 2>/dev/null
done
echo "cut-heal: $ok passed, $bad failed; $restarted needed a restart"
[ "$bad" = 0 ] || fail "cut-heal: $bad of $((ok + bad)) failed"
pass "cut-heal-loop"
