# SPDX-License-Identifier: GPL-2.0
#
# Repeat agg-rdma's "many" step (6 jobs x 4 workers over soft-RoCE) against
# one spare-aggd and time each run: the measurement behind the RDMA figures
# in Documentation/aggd.md. Not run by make check:
#   scripts/vm/run -k KVER tests/vm/bench/agg-many-loop.sh [RUNS]
. /spare/tests/vm/lib.sh
set -u
AGG_ADDR=$(host_addr 2)
AGG_PORT=18516
AGG_LOG=/tmp/aggd.log
ITEST="timeout -s KILL 300 /spare/bin/spare-agg-itest -R -S $(host_addr 1) -h $AGG_ADDR -p $AGG_PORT"

sysctl -qw net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2
rxe_up 2
wait_for 50 ping -c 1 -W 1 -I "$(host_addr 1)" "$AGG_ADDR" || fail "host 1 cannot reach $AGG_ADDR"
/spare/bin/spare-aggd -a "$AGG_ADDR" -p "$AGG_PORT" --rdma "$AGG_ADDR" \
	--max-cores 2 >"$AGG_LOG" 2>&1 &
wait_for 100 grep -q "rdma: listening" "$AGG_LOG" || fail "spare-aggd did not start"
ok=0
bad=0
for i in $(seq 1 "${1:-12}"); do
	t0=$(cut -d' ' -f1 /proc/uptime)
	if $ITEST many >/tmp/it.log 2>&1; then
		ok=$((ok + 1))
		echo "run $i: ok in $(awk -v a="$t0" '{ printf "%.1f", $1 - a }' /proc/uptime) s"
	else
		bad=$((bad + 1))
		echo "run $i: FAILED"
		tail -5 /tmp/it.log
		grep -i "rejected\|failed" "$AGG_LOG" | tail -8
	fi
done
echo "many: $ok passed, $bad failed; $(grep -c rejected "$AGG_LOG") connections rejected"
pass "agg-many-loop"
