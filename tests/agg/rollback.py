#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A move whose target dies rolls back (tests/agg/run starts the daemon).

  rollback.py PORT KEYFILE MODE      MODE: before | during | after | caps

A job with the server's SGD optimizer (2 workers, 3 partitions) trains for
ITERS iterations on the daemon at PORT; at iteration MOVE_AT an admin asks to
move it to a fake target that holds the daemons' key and dies
  before: after the PEER_HELLO, before anything of the job crossed;
  during: after accepting the IMPORT, while the source drains to the barrier;
  after:  after receiving the state and IMPORT_COMMIT, before confirming it
          (so before the source would REDIRECT the workers);
  caps:   answers the IMPORT taking a capability the source did not offer
          (AGG_PEER_CAP_RDMA_STATE in IMPORT_REPLY's hdr.rank): a protocol
          breach the source must refuse before the drain.
The move must fail with the reason, the workers must go on at the source
without noticing, and every iteration's weights must be bit-identical to a
run of the same job without the attempt. Exits 0 if every check held.
"""
import hashlib
import hmac
import os
import socket
import struct
import sys
import threading
import time

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "userspace", "python"))
from spare_agg import Client, AggError  # noqa: E402

MAGIC, VERSION, HDR = 0x47474153, 1, 32
IMPORT, IMPORT_STATE, IMPORT_COMMIT, IMPORT_REPLY = 13, 14, 15, 16
PEER_HELLO, PEER_CHALLENGE, PEER_PROOF = 18, 19, 20
CAP_RDMA_STATE = 1                # agg_proto.h AGG_PEER_CAP_RDMA_STATE
ITERS, MOVE_AT, NELEM, WORKERS = 60, 15, 3000, 2


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from pycheck import check, verdict  # noqa: E402


def recv_msg(s):
    hdr = s.recv(HDR, socket.MSG_WAITALL)
    if len(hdr) < HDR:
        return None, None, b""
    fields = struct.unpack("<IHHIIIIII", hdr)
    body = s.recv(fields[3], socket.MSG_WAITALL) if fields[3] else b""
    return fields[2], fields, body


def send_msg(s, mtype, payload=b"", job_id=0, it=0, rank=0):
    s.sendall(struct.pack("<IHHIIIIII", MAGIC, VERSION, mtype, len(payload),
                          job_id, 0, it, rank, 0) + payload)


def link_ids(s):
    """The link's addresses bound into the proofs (aggd_migrate.c peer_ids):
    the source's IPv4 address and port, then the target's, network order."""
    (sip, sport), (dip, dport) = s.getpeername(), s.getsockname()
    return (socket.inet_aton(sip) + struct.pack(">H", sport) +
            socket.inet_aton(dip) + struct.pack(">H", dport))


class FakeTarget(threading.Thread):
    """Speaks the target's side until the moment it 'dies' (closes)."""

    def __init__(self, key, mode):
        super().__init__(daemon=True)
        self.key, self.mode, self.log, self.offered = key, mode, [], None
        self.ls = socket.socket()
        self.ls.bind(("127.0.0.1", 0))
        self.ls.listen(1)
        self.port = self.ls.getsockname()[1]

    def run(self):
        s, _ = self.ls.accept()
        try:
            t, _, nonce_s = recv_msg(s)
            self.log.append(t)
            if self.mode == "before" or t != PEER_HELLO:
                return
            nonce_t = os.urandom(32)
            ids = link_ids(s)
            mac = hmac.new(self.key, b"spare-aggd target 3" + nonce_s + nonce_t + ids,
                           hashlib.sha256).digest()
            send_msg(s, PEER_CHALLENGE, nonce_t + mac)
            t, _, proof = recv_msg(s)
            self.log.append(t)
            want = hmac.new(self.key, b"spare-aggd source 3" + nonce_t + nonce_s + ids,
                            hashlib.sha256).digest()
            if t != PEER_PROOF or not hmac.compare_digest(proof, want):
                self.log.append("bad proof")
                return
            t, f, _ = recv_msg(s)
            self.log.append(t)
            if t != IMPORT:
                return
            self.offered = f[7]       # hdr.rank: the source's capabilities
            if self.mode == "caps":   # take what was not offered
                send_msg(s, IMPORT_REPLY, job_id=7, rank=CAP_RDMA_STATE)
                recv_msg(s)           # the source closes
                return
            send_msg(s, IMPORT_REPLY, job_id=7)
            if self.mode == "during":
                time.sleep(0.5)   # the source drains meanwhile
                return
            while True:           # after: take the state and the commit
                t, _, _ = recv_msg(s)
                self.log.append(t)
                if t is None or t == IMPORT_COMMIT:
                    return
        finally:
            s.close()
            self.ls.close()


def grad(rank, it):
    rng = numpy.random.default_rng(rank * 100003 + it)
    return rng.standard_normal(NELEM).astype(numpy.float32)


def train(port, job, rank, out, progress, errors):
    try:
        with Client(port=port) as c:
            c.register(job, "rb-token", WORKERS, rank, [("w", NELEM)],
                       part_elems=1024, sgd=(0.05, 0.9))
            w = numpy.zeros(NELEM, dtype=numpy.float32)
            for it in range(ITERS):
                c.allreduce(0, it, grad(rank, it), w)
                out.append(w.tobytes())
                progress[rank] = it
                time.sleep(0.01)
            c.leave()
    except Exception as e:  # noqa: BLE001
        errors.append("rank %d: %s" % (rank, e))


def run_job(port, job, move=None):
    outs = [[] for _ in range(WORKERS)]
    progress, errors = [-1] * WORKERS, []
    ts = [threading.Thread(target=train, args=(port, job, r, outs[r], progress, errors))
          for r in range(WORKERS)]
    for t in ts:
        t.start()
    result = None
    if move:
        while min(progress) < MOVE_AT and not errors and any(t.is_alive() for t in ts):
            time.sleep(0.005)
        try:
            with Client(port=port) as admin:
                result = admin.migrate(job, "rb-token", "127.0.0.1", move.port)
        except AggError as e:
            result = e
    for t in ts:
        t.join(120)
    return outs, errors, result


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("before", "during", "after", "caps"):
        print(__doc__)
        return 2
    port, mode = int(sys.argv[1]), sys.argv[3]
    with open(sys.argv[2], "rb") as f:
        key = f.read().rstrip(b"\r\n")
    ref, errs, _ = run_job(port, "rb-ref-" + mode)
    check(not errs, "reference run: %s" % errs)
    target = FakeTarget(key, mode)
    target.start()
    got, errs, res = run_job(port, "rb-" + mode, move=target)
    target.join(10)
    print("%s: target saw %s; the move: %s" % (mode, target.log, res))
    check(not errs, "the workers went on at the source: %s" % errs)
    check(isinstance(res, AggError), "the move failed (got %r)" % (res,))
    if mode in ("before", "caps"):
        check("the job goes on here" in str(res), "the admin is told the job goes on")
    else:
        check("rolled back" in str(res), "the admin is told the move rolled back")
    if mode == "caps":
        check(target.offered == 0, "the source offered no capability (got %r)" % (target.offered,))
        check("did not offer" in str(res), "the admin is told the target took what was not offered")
        check(IMPORT_STATE not in target.log and IMPORT_COMMIT not in target.log,
              "nothing of the job's state crossed")
    if mode == "after":
        check(IMPORT_COMMIT in target.log, "the target got as far as the commit")
    if mode == "during":
        check(IMPORT in target.log, "the target got the IMPORT")
    for r in range(WORKERS):
        check(len(got[r]) == ITERS, "rank %d did %d of %d iterations" % (r, len(got[r]), ITERS))
        same = sum(1 for a, b in zip(got[r], ref[r]) if a == b)
        check(same == ITERS, "rank %d: %d of %d iterations bit-identical to the run without a move"
              % (r, same, ITERS))
    return verdict(mode)


if __name__ == "__main__":
    sys.exit(main())
