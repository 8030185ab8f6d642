# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# spared isolation: one PD per client, one MR per lent slab deregistered on
# release, memory zeroed before it is lent again, eviction on command.
# The donor has ONE 1 MiB slab, so every client below gets the same memory.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spared.inc
set -u

step "soft-RoCE: clients on 10.0.0.1 and 10.0.0.3, donor on 10.0.0.2"
rxe_up 3
spared_start --budget 1M --slab-size 1M --evict-deadline 2000 -v debug
pass "spared up"

step "client A: map, write 0xa5 over the slab, read it back, unmap"
probe 1 "$SPARED_ADDR" map:1 write:1:0xa5 read:1:0xa5 heartbeat unmap:1 ||
	fail_log "client A"
pass "client A wrote and read its slab"

step "client B gets the same memory and reads only zeros"
probe 3 "$SPARED_ADDR" map:9 read:9:0 write:9:0x3c unmap:9 || fail_log "client B"
pass "memory returned by UNMAP is zero when lent again"

step "a client that vanishes (SIGKILL) without UNMAP: its slab is reclaimed"
probe_bg /tmp/a.out 1 "$SPARED_ADDR" map:1 write:1:0x77 sleep:600000
a=$PROBE_PID
wait_line /tmp/a.out "write slab 1"
expect_counter slabs_free 0
probe 3 "$SPARED_ADDR" map-refused:2 || fail_log "a full donor granted a slab"
kill -KILL $a; wait $a 2>/dev/null
# rxe notices the dead peer only when its QP times out, or at once if the
# process exit closed the verbs context (it does): give it a little time.
wait_for 150 sh -c "[ \"\$(sparectl donor -p $SPARED_PORT status | awk '\$1==\"spare_donor_slabs_free\"{print \$2}')\" = 1 ]" ||
	{ sparectl donor -p "$SPARED_PORT" slabs; cat "$SPARED_LOG"; fail "slab of a killed client not reclaimed"; }
probe 3 "$SPARED_ADDR" map:2 read:2:0 unmap:2 || fail_log "client B after A was killed"
pass "a killed client's slab is reclaimed and zeroed"

step "one PD per client: B cannot use A's addr/rkey"
probe_bg /tmp/a.out 1 "$SPARED_ADDR" map:1 write:1:0x11 sleep:600000
a=$PROBE_PID
wait_line /tmp/a.out "write slab 1"
line=$(grep '^map slab 1:' /tmp/a.out)
addr=$(echo "$line" | awk '{print $5}'); rkey=$(echo "$line" | awk '{print $7}')
echo "A holds addr $addr rkey $rkey"
probe 3 "$SPARED_ADDR" "steal:$addr:$rkey" || fail_log "client B read client A's slab"
step "ACTIVITY_QUERY reaches the holder, and its answer shows in 'slabs'"
sparectl donor -p "$SPARED_PORT" query | grep -qx 'queried 1' || fail_log "query"
wait_for 100 sh -c "sparectl donor -p $SPARED_PORT slabs | grep -q '^0 *lent .* 1 *1\$'" ||
	{ sparectl donor -p "$SPARED_PORT" slabs; fail_log "no activity recorded"; }
kill -KILL $a; wait $a 2>/dev/null
pass "another client's rkey is refused"

step "EVICT answered: the client UNMAPs before the deadline"
wait_for 150 sh -c "sparectl donor -p $SPARED_PORT status | grep -qx 'spare_donor_slabs_free 1'" || fail_log "slab not back"
probe_bg /tmp/a.out 1 "$SPARED_ADDR" -v debug map:1 write:1:0x22 wait-evict:60000
a=$PROBE_PID
wait_line /tmp/a.out "write slab 1"
sparectl donor -p "$SPARED_PORT" evict 1 | grep -qx 'evicting 1' || fail_log "evict command"
wait $a || { cat /tmp/a.out; fail_log "client did not see the EVICT"; }
cat /tmp/a.out
grep -q '^evict slab 1 reason 2 deadline 2000 ms' /tmp/a.out || { cat /tmp/a.out; fail "EVICT fields"; }
expect_counter evictions_total 1
expect_counter revocations_total 0
expect_counter slabs_free 1
pass "EVICT + UNMAP"

step "EVICT ignored (SIGUSR1): the MR is revoked at the deadline"
probe_bg /tmp/a.out 1 "$SPARED_ADDR" map:1 write:1:0x44 ignore-evict:60000 sleep:3000 read-fails:1
a=$PROBE_PID
wait_line /tmp/a.out "write slab 1"
kill -USR1 "$SPARED_PID"
wait $a || { cat /tmp/a.out; fail "client could still read a revoked slab"; }
expect_counter revocations_total 1
probe 3 "$SPARED_ADDR" map:5 read:5:0 unmap:5 || fail_log "slab revoked by deadline is not zero"
pass "EVICT deadline revokes and zeroes"

step "status (text and JSON), then SIGTERM"
sparectl donor -p "$SPARED_PORT" status
json=$(sparectl donor -j -p "$SPARED_PORT" status) || fail_log "sparectl -j"
echo "$json"
case $json in '{"spare_donor_port":18515,'*'"spare_donor_revocations_total":1,'*'}') ;;
	*) fail_log "unexpected JSON status" ;; esac
spared_alive
spared_stop
echo "---- spared log"; cat "$SPARED_LOG"; echo "----"
pass "spared isolation"

step "max-clients 1: a second client is refused while the first is served, then served"
spared_start --budget 1M --slab-size 1M --max-clients 1
probe_bg /tmp/a.out 1 "$SPARED_ADDR" map:1 write:1:0x5a sleep:600000
a=$PROBE_PID
wait_line /tmp/a.out "write slab 1"
expect_counter clients 1
probe 3 "$SPARED_ADDR" heartbeat && fail_log "a second client was served beyond max-clients 1"
expect_counter conn_rejected_total 1
grep -q 'connection refused: already 1 clients (max_clients)' "$SPARED_LOG" ||
	fail_log "no log line for the refused client"
kill -KILL $a; wait $a 2>/dev/null
wait_for 150 sh -c "[ \"\$(sparectl donor -p $SPARED_PORT status | awk '\$1==\"spare_donor_clients\"{print \$2}')\" = 0 ]" ||
	fail_log "the killed client's session was not reaped"
probe 3 "$SPARED_ADDR" map:2 read:2:0 unmap:2 || fail_log "a client refused at the limit is not served once there is room"
expect_counter conn_rejected_total 1
spared_alive
spared_stop
pass "max-clients: the client beyond the limit refused (counted, logged), served once the first left"
