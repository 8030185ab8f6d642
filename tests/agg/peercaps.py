#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A move's capabilities, seen by the target (tests/agg/run starts the daemon).

  peercaps.py PORT KEYFILE

Plays a source daemon that holds the daemons' key against the spare-aggd at
PORT (which has --peer-key-file KEYFILE):
  1. an IMPORT whose hdr.rank offers every capability bit, before any
     proof: refused (ERROR EAUTH, closed), as any IMPORT without a proof;
  2. after both proofs, the same offer (every bit: the one reserved for
     the RDMA state transfer and bits no daemon knows): the target takes
     none of them (IMPORT_REPLY with hdr.rank 0 and no payload, so no
     rkey or buffer address crosses) and the import goes on over TCP; the
     source then vanishes before its commit, and the daemon abandons the
     import and stays up (a STATS afterwards is answered).
Exits 0 if every check held.
"""
import hashlib
import hmac
import os
import socket
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from pycheck import check, verdict  # noqa: E402

MAGIC, VERSION, HDR = 0x47474153, 1, 32
ERROR, IMPORT, IMPORT_REPLY, STATS, STATS_REPLY = 10, 13, 16, 8, 9
PEER_HELLO, PEER_CHALLENGE, PEER_PROOF = 18, 19, 20
EAUTH = 3
ALL_CAPS = 0xFFFFFFFF


def recv_msg(s):
    hdr = s.recv(HDR, socket.MSG_WAITALL)
    if len(hdr) < HDR:
        return None, None, b""
    f = struct.unpack("<IHHIIIIII", hdr)
    body = s.recv(f[3], socket.MSG_WAITALL) if f[3] else b""
    return f[2], f, body


def send_msg(s, mtype, payload=b"", rank=0):
    s.sendall(struct.pack("<IHHIIIIII", MAGIC, VERSION, mtype, len(payload),
                          0, 0, 0, rank, 0) + payload)


def name(v, n=32):
    return v.encode().ljust(n, b"\0")


def import_body(job):
    """tenant[32] (an open daemon's job), then a REGISTER payload
    (agg_register_encode): 2 workers, rank 0, fp32, no optimizer."""
    reg = (name(job) + name("caps-token") +
           struct.pack("<HHBBHIIII", 2, 0, 1, 0, 1, 1024, 1, 0, 0) +
           name("w") + struct.pack("<Q", 3000))
    return bytes(32) + reg


def link_ids(s):
    (sip, sport), (dip, dport) = s.getsockname(), s.getpeername()
    return (socket.inet_aton(sip) + struct.pack(">H", sport) +
            socket.inet_aton(dip) + struct.pack(">H", dport))


def authenticate(s, key):
    nonce_s = os.urandom(32)
    send_msg(s, PEER_HELLO, nonce_s)
    t, _, body = recv_msg(s)
    if not check(t == PEER_CHALLENGE and len(body) == 64, "a PEER_CHALLENGE (got %s)" % t):
        return False
    nonce_t, mac_t = body[:32], body[32:]
    ids = link_ids(s)
    want = hmac.new(key, b"spare-aggd target 3" + nonce_s + nonce_t + ids,
                    hashlib.sha256).digest()
    if not check(hmac.compare_digest(mac_t, want), "the target proved the key"):
        return False
    send_msg(s, PEER_PROOF, hmac.new(key, b"spare-aggd source 3" + nonce_t + nonce_s + ids,
                                     hashlib.sha256).digest())
    return True


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    port = int(sys.argv[1])
    with open(sys.argv[2], "rb") as f:
        key = f.read().rstrip(b"\r\n")

    # 1: an offer before any proof is an IMPORT without a proof
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    send_msg(s, IMPORT, import_body("caps-stranger"), rank=ALL_CAPS)
    t, f, body = recv_msg(s)
    check(t == ERROR and f[8] == EAUTH, "an unproven offer: ERROR EAUTH (got %s %s)"
          % (t, f and f[8]))
    check(recv_msg(s)[0] is None, "and the connection closed")
    s.close()

    # 2: an authenticated source offers everything
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    if authenticate(s, key):
        send_msg(s, IMPORT, import_body("caps-job"), rank=ALL_CAPS)
        t, f, body = recv_msg(s)
        check(t == IMPORT_REPLY, "the IMPORT is accepted (got %s %r)" % (t, body[:120]))
        if t == IMPORT_REPLY:
            check(f[7] == 0, "no capability taken (hdr.rank 0x%x)" % f[7])
            check(f[3] == 0 and body == b"", "no payload: no rkey or address (%d bytes)" % f[3])
    s.close()          # the source vanishes before its commit

    # the daemon is still up and serves
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    send_msg(s, STATS)
    t, _, body = recv_msg(s)
    check(t == STATS_REPLY and b"spare_aggd_" in body, "STATS answered after (got %s)" % t)
    s.close()
    return verdict("peercaps")


if __name__ == "__main__":
    sys.exit(main())
