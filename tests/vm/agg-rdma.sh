# SPDX-License-Identifier: GPL-2.0
#
# spare-aggd over RDMA (soft-RoCE): the push/pull exchange of the host
# integration tests, with the workers on 10.0.0.1 and the daemon on
# 10.0.0.2. Exact sums for many jobs x workers in fp32/fp16/bf16, a worker
# vanishing mid-iteration fails only its own job, finished workers may go
# before the others pulled the last iteration, the server optimizer, a job
# moved to a second daemon with its RDMA workers following, and a clean
# daemon exit.
. /spare/tests/vm/lib.sh
set -u

AGG_ADDR=$(host_addr 2)
AGG_PORT=18516
AGG_LOG=/tmp/aggd.log
ITEST="timeout -s KILL 300 /spare/bin/spare-agg-itest -R -S $(host_addr 1) -h $AGG_ADDR -p $AGG_PORT"

fail_log() { tail -n 40 "$AGG_LOG"; fail "$*"; }

step "soft-RoCE: workers on 10.0.0.1, spare-aggd on $AGG_ADDR"
sysctl -qw net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2
rxe_up 2
wait_for 50 ping -c 1 -W 1 -I "$(host_addr 1)" "$AGG_ADDR" ||
	fail "host 1 cannot reach $AGG_ADDR"
/spare/bin/spare-aggd -a "$AGG_ADDR" -p "$AGG_PORT" --rdma "$AGG_ADDR" \
	--max-cores 2 >"$AGG_LOG" 2>&1 &
AGG_PID=$!
wait_for 100 grep -q "rdma: listening" "$AGG_LOG" || fail_log "spare-aggd did not start"
pass "spare-aggd serves TCP and RDMA"

step "6 jobs x 4 workers over RDMA, fp32/fp16/bf16, every sum exact"
$ITEST many || fail_log "many jobs over RDMA"
pass "many jobs over RDMA"

step "a worker vanishes mid-iteration: its job fails with the cause, the other job finishes"
$ITEST dead-worker || fail_log "dead worker over RDMA"
pass "dead worker over RDMA"

step "workers that are done go while the others pull the last iteration"
$ITEST early-leave || fail_log "early leave over RDMA"
pass "early leave over RDMA"

step "SGD with momentum on the server, over RDMA"
$ITEST optimizer || fail_log "server optimizer over RDMA"
pass "server optimizer over RDMA"

step "metrics over RDMA; TCP clients still served by the same daemon"
$ITEST stats || fail_log "stats over RDMA"
timeout -s KILL 60 /spare/bin/spare-agg-itest -h "$AGG_ADDR" -p "$AGG_PORT" many ||
	fail_log "TCP beside RDMA"
pass "stats over RDMA, TCP beside it"

step "a job moves to a second spare-aggd; its RDMA workers follow the REDIRECT"
B_PORT=18517
B_LOG=/tmp/aggd-b.log
/spare/bin/spare-aggd -a "$AGG_ADDR" -p "$B_PORT" --rdma "$AGG_ADDR" \
	--max-cores 2 >"$B_LOG" 2>&1 &
B_PID=$!
wait_for 100 grep -q "rdma: listening" "$B_LOG" || { tail -20 "$B_LOG"; fail "second spare-aggd did not start"; }
$ITEST -q "$B_PORT" migrate || { tail -n 40 "$B_LOG"; fail_log "migration with RDMA workers"; }
kill -TERM "$B_PID"
wait "$B_PID" || { tail -n 40 "$B_LOG"; fail "second spare-aggd exited $?"; }
pass "job moved mid-training with RDMA workers; sums exact, the other job undisturbed"

step "SIGTERM: clean exit"
kill -TERM "$AGG_PID"
wait "$AGG_PID" || fail_log "spare-aggd exited $?"
grep -c "rdma" "$AGG_LOG" >/dev/null
pass "spare-aggd exited cleanly"
