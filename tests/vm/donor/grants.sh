# SPDX-License-Identifier: GPL-2.0
# vm-kernels: first
#
# A donor with a grant key lends only against a broker's grants (issue 8):
# grants arrive in GRANT parts after HELLO and each MAP names one. MAPs
# without a grant, naming one never sent, or under a forged, expired, not
# yet valid, other donor's or other client's grant are refused with
# BAD_GRANT and a log line saying why; a client holds at most what its
# grants cover, across its sessions; a grant replayed by another client is
# refused; a grant sent out of order closes that connection only; a slab
# whose grant lapsed is evicted after grant-grace unless renewed. The
# grants are minted by spare-probe with the grant key, as spare-broker
# does (the broker's own grants reach spare.ko in spare-grants-broker.sh).
# Version 3 grants (grant-v3, keyed from the donor's broker-key-file, minted
# by spare-probe --grant-v3): taken, a forged one refused, and the key
# derived at start kept over a SIGHUP that finds the file changed.
. /spare/tests/vm/lib.sh
. /spare/tests/vm/spared.inc
set -u

step "keys: the grant key, and two clients' host keys"
rxe_up 3
sparectl gen-key >/tmp/grant.key || fail "gen-key"
chmod 600 /tmp/grant.key
KT=$(sparectl gen-key) && KI=$(sparectl gen-key) || fail "gen-key"
printf 'trainer %s\nintruder %s\n' "$KT" "$KI" >/tmp/host-keys
chmod 600 /tmp/host-keys
DONOR_ID=$(hostname | cut -c1-15)
spared_start --budget 8M --slab-size 1M --host-keys /tmp/host-keys \
	--grant-key-file /tmp/grant.key
grep -q "lending only against grants for donor $DONOR_ID" "$SPARED_LOG" ||
	fail_log "spared does not say it needs grants"
expect_counter grants_required 1
G="--grant-key /tmp/grant.key --grant-donor $DONOR_ID --grant-client trainer"
pass "spared with a grant key"

step "MAPs without a grant, or naming one never sent, are refused"
probe 1 -k "$KT" "$SPARED_ADDR" map-bad-grant:1 token:bogus map-bad-grant:2 ||
	fail_log "a MAP without a grant was not refused"
grep -q "MAP slab 1 refused: no grant" "$SPARED_LOG" || fail_log "no log line for a MAP without grant"
grep -q "MAP slab 2 refused: grant 0123456789abcdef was not accepted" "$SPARED_LOG" ||
	fail_log "no log line for a bogus grant token"

refused=0
for kind in forged expired not-yet other-donor other-client; do
	step "a $kind grant is refused, and the MAP naming it"
	# shellcheck disable=SC2086
	probe 1 -k "$KT" $G "$SPARED_ADDR" "grant:$kind" map-bad-grant:1 || fail_log "$kind grant accepted"
	refused=$((refused + 1))
	expect_counter grants_refused_total "$refused"
done
for why in "forged grant" "grant expired" "grant not yet valid" "grant is for another donor" \
	   "grant is for another client"; do
	grep -q "grant refused: $why" "$SPARED_LOG" || fail_log "no log line '$why'"
done
expect_counter grants_accepted_total 0
expect_counter slabs_lent 0
pass "every bad grant refused, nothing lent"

step "a grant for 2 slabs: 2 MAPs, not 3; an UNMAP makes room again"
# shellcheck disable=SC2086
probe_bg /tmp/t1.out 1 -k "$KT" $G "$SPARED_ADDR" grant:ok:2 grant-save:/tmp/g2 map:1 map:2 \
	map-bad-grant:3 write:1:0x31 wait-file:/tmp/t1-go:600000 unmap:1 map:3 \
	read:2:0 wait-file:/tmp/t1-end:600000 unmap:2 unmap:3
t1=$PROBE_PID
wait_line /tmp/t1.out "write slab 1"
grep -q "its grants cover 2 slab(s), all in use" "$SPARED_LOG" || fail_log "no log line for an exhausted grant"
expect_counter grants_accepted_total 1
expect_counter slabs_lent 2
pass "the grant covers 2 slabs"

step "the same client's second session: the same grant adds nothing"
probe 1 -k "$KT" "$SPARED_ADDR" grant-load:/tmp/g2 map-bad-grant:7 || fail_log "a second session got more than the grant"
grep -q "(known already)" "$SPARED_LOG" || fail_log "the re-sent grant was counted again"
expect_counter grants_accepted_total 1

step "another client presenting the saved grant is refused"
probe 3 -k "$KI" "$SPARED_ADDR" grant-load:/tmp/g2 map-bad-grant:1 || fail_log "a stolen grant mapped a slab"
expect_counter grants_refused_total $((refused + 1))
expect_counter slabs_lent 2
pass "a grant serves only its client, once"

step "after an UNMAP the grant covers the next MAP"
touch /tmp/t1-go
wait_line /tmp/t1.out "map slab 3: addr"
touch /tmp/t1-end
wait "$t1" || { cat /tmp/t1.out; fail_log "the granted client failed"; }
expect_counter slabs_lent 0

step "a grant part out of order closes that connection only"
probe 1 -k "$KT" "$SPARED_ADDR" bad:grant-order || fail_log "an out-of-order grant part was taken"
grep -q "GRANT part 1 out of order" "$SPARED_LOG" || fail_log "no log line for the out-of-order part"
spared_alive
spared_stop
pass "authenticated donor"

step "open donor (no host keys): a grant replayed by another client is refused"
spared_start --budget 4M --slab-size 1M --grant-key-file /tmp/grant.key --grant-grace 4
# shellcheck disable=SC2086
probe 1 -u 1 $G "$SPARED_ADDR" grant:ok grant-save:/tmp/g1 map:1 unmap:1 || fail_log "an open donor refused a good grant"
probe 3 -u 2 "$SPARED_ADDR" grant-load:/tmp/g1 map-bad-grant:1 || fail_log "a replayed grant mapped a slab"
grep -q "grant refused: grant replayed" "$SPARED_LOG" || fail_log "no log line for a replay"
expect_counter map_grant_refusals_total 1
pass "grants checked on MAP"

step "a lapsed grant's slab is evicted after grant-grace; a renewal within it keeps the slab"
# both grants end 8 s after they are minted; the second client renews its
# own (the same id) at 9.5 s, within the 4 s grace, and must keep its slab
RID=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')
# shellcheck disable=SC2086
probe_bg /tmp/lapse.out 1 -u 3 $G "$SPARED_ADDR" grant:short map:1 wait-evict:30000
lapse=$PROBE_PID
# shellcheck disable=SC2086
probe_bg /tmp/renew.out 3 -u 4 $G --grant-id "$RID" "$SPARED_ADDR" grant:short map:1 sleep:9500 \
	grant:long sleep:5000 unmap:1
renew=$PROBE_PID
wait "$lapse" || { cat /tmp/lapse.out; fail_log "the client whose grant lapsed got no EVICT"; }
grep -q "evict slab 1 reason 2" /tmp/lapse.out || { cat /tmp/lapse.out; fail "no EVICT line"; }
wait "$renew" || { cat /tmp/renew.out; fail_log "the renewing client failed"; }
! grep -q "evict slab" /tmp/renew.out || { cat /tmp/renew.out; fail_log "a renewed grant's slab was evicted"; }
grep -q "1 slab(s) past its grants (they cover 0 slab(s) now) for more than grant-grace 4 s" \
	"$SPARED_LOG" || fail_log "no log line for the lapsed grant"
expect_counter lapsed_evictions_total 1
expect_counter slabs_lent 0
spared_stop
pass "lapsed grants: evicted after the grace, not once renewed"

step "version 3 grants (grant-v3): taken, a forged one refused; SIGHUP keeps the key derived at start"
# spared derives its version 3 key from broker-key-file once, at start
# (the key its broker link authenticates with, also read once): a SIGHUP
# after the file changed keeps taking grants under the old key and
# refuses the new key's until a restart (spared.conf(5), grant-v3)
umask 077
sparectl gen-key >/tmp/donor.key || fail "gen-key"
umask 022
spared_start --budget 4M --slab-size 1M --grant-v3 --broker-key-file /tmp/donor.key
grep -q "grant-v3: taking version 3 grants for $DONOR_ID" "$SPARED_LOG" ||
	fail_log "spared does not say it takes version 3 grants"
G3="--grant-donor $DONOR_ID --grant-client trainer"
# shellcheck disable=SC2086
probe 1 -u 5 --grant-v3 /tmp/donor.key $G3 "$SPARED_ADDR" grant:ok map:1 unmap:1 ||
	fail_log "a version 3 grant was refused"
# shellcheck disable=SC2086
probe 1 -u 6 --grant-v3 /tmp/donor.key $G3 "$SPARED_ADDR" grant:forged map-bad-grant:1 ||
	fail_log "a forged version 3 grant mapped a slab"
grep -q "grant refused: forged grant" "$SPARED_LOG" || fail_log "no log line for the forged version 3 grant"
expect_counter grants_accepted_total 1
expect_counter grants_refused_total 1
cp /tmp/donor.key /tmp/donor-old.key
umask 077
sparectl gen-key >/tmp/donor.key || fail "gen-key"
umask 022
kill -HUP "$SPARED_PID"
wait_line "$SPARED_LOG" "SIGHUP: reloaded"
# shellcheck disable=SC2086
probe 1 -u 7 --grant-v3 /tmp/donor-old.key $G3 "$SPARED_ADDR" grant:ok map:1 unmap:1 ||
	fail_log "after SIGHUP a grant under the key derived at start was refused"
# shellcheck disable=SC2086
probe 1 -u 8 --grant-v3 /tmp/donor.key $G3 "$SPARED_ADDR" grant:ok map-bad-grant:1 ||
	fail_log "after SIGHUP a grant under the new broker-key-file mapped before a restart"
expect_counter grants_accepted_total 2
expect_counter grants_refused_total 2
spared_stop
pass "version 3 grants checked with the key derived at start, kept over SIGHUP"
