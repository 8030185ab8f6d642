# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# spared with host-keys against peers that fail authentication: a wrong
# key, no key, a replayed proof, a handshake cut short, a proof sent after
# the handshake. Each is refused or closed with one log line; a good,
# authenticated client holding a slab keeps working throughout, and its
# data is intact.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spared.inc
set -u

step "donor with host-keys (one client), hello-timeout 3 s"
rxe_up 3
KA=$(sparectl gen-key) && KB=$(sparectl gen-key) || fail "gen-key"
printf 'good-client %s role=client\n' "$KA" >/tmp/host-keys
chmod 600 /tmp/host-keys
spared_start --budget 4M --slab-size 1M --hello-timeout 3000 --host-keys /tmp/host-keys
rm -f /tmp/bad-done

step "a good client authenticates, maps a slab and waits"
probe_bg /tmp/good.out 1 --key "$KA" "$SPARED_ADDR" map:1 write:1:0x42 \
	wait-file:/tmp/bad-done:900000 read:1:0x42 heartbeat unmap:1
good=$PROBE_PID
wait_line /tmp/good.out "write slab 1"
grep -q 'authenticated both ways' /tmp/good.out || fail "good client not authenticated both ways"
grep -q 'authenticated as good-client' "$SPARED_LOG" || fail_log "spared did not name the client"
pass "good client authenticated and holds a slab"

# one_line PATTERN: the log grew by exactly one warning, matching PATTERN.
one_line() {
	local w
	w=$(tail -n +$((L0 + 1)) "$SPARED_LOG" | grep 'warn:')
	[ "$(echo "$w" | grep -c .)" = 1 ] && echo "$w" | grep -q "$1" ||
		{ echo "new warnings: $w"; fail_log "expected one warning matching '$1'"; }
	echo "$w"
}

step "wrong key: AUTH_FAILED, one line"
L0=$(wc -l <"$SPARED_LOG")
probe 3 --key "$KB" --no-hello "$SPARED_ADDR" hello-refused:auth-failed || fail_log "wrong key not refused"
one_line 'refused: authentication failed'
spared_alive

step "no key: AUTH_REQUIRED, one line"
L0=$(wc -l <"$SPARED_LOG")
probe 3 --no-hello "$SPARED_ADDR" hello-refused:auth-required || fail_log "keyless client not refused"
one_line 'refused: no key'

step "a refused client that keeps talking is closed"
probe 3 --key "$KB" --no-hello "$SPARED_ADDR" hello-refused:auth-failed auth-again expect-closed ||
	fail_log "refused client kept"

step "replayed proof: a saved nonce and proof from a good run are refused"
probe 3 --key "$KA" --no-hello "$SPARED_ADDR" auth-save:/tmp/rec || fail_log "auth-save"
L0=$(wc -l <"$SPARED_LOG")
probe 3 --key "$KA" --no-hello "$SPARED_ADDR" auth-replay:/tmp/rec || fail_log "replay not refused"
one_line 'refused: authentication failed'

step "handshake cut short: closed at hello-timeout, one line"
L0=$(wc -l <"$SPARED_LOG")
probe 3 --key "$KA" --no-hello "$SPARED_ADDR" auth-truncate expect-closed || fail_log "half handshake kept"
one_line 'no completed HELLO (and authentication) within 3000 ms'

step "a proof after the handshake: protocol error, one line"
L0=$(wc -l <"$SPARED_LOG")
probe 3 --key "$KA" "$SPARED_ADDR" auth-again expect-closed || fail_log "late AUTH_RESPONSE kept"
one_line 'AUTH_RESPONSE after HELLO_REPLY'
spared_alive

step "the good client was never disturbed"
touch /tmp/bad-done
wait "$good" || { cat /tmp/good.out; fail_log "good client failed"; }
cat /tmp/good.out
refused=$(counter auth_refused_total)
[ "$refused" -ge 4 ] || fail_log "spare_donor_auth_refused_total is $refused"
ok=$(counter auth_ok_total)
[ "$ok" -ge 3 ] || fail_log "spare_donor_auth_ok_total is $ok"
for k in "$KA" "$KB"; do
	grep -q -F "${k#SPARE-1:}" "$SPARED_LOG" && fail "a secret is in spared's log"
done
spared_stop
pass "every bad peer refused or closed with one line; good client intact; no secret logged"
