#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A stranger without the daemons' key relays their proofs (tests/agg/run
starts two daemons that share a key; Y with --stats-on-data-port).

  relay.py X_PORT Y_PORT

The stranger registers its own job on X and asks X to move it to a
listener of its own. When X connects there, the stranger connects to Y and
copies bytes both ways: X's PEER_HELLO to Y, Y's PEER_CHALLENGE to X, X's
PEER_PROOF and IMPORT to Y. Each daemon talks to a real holder of the key,
but over the stranger's connections. Checks: X refuses the move with EAUTH
(the challenge was not made for X's connection), the job stays on X and
trains on, and Y has no such job.
Exits 0 when every check held, 1 otherwise (each failed check printed).
"""
import os
import socket
import sys
import threading

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "userspace", "python"))
from spare_agg import Client, AggError  # noqa: E402


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from pycheck import check, verdict  # noqa: E402


def pipe(a, b):
    try:
        while True:
            d = a.recv(65536)
            if not d:
                break
            b.sendall(d)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def relay(ls, y_port, seen):
    ls.settimeout(30)
    try:
        x_side, _ = ls.accept()
    except OSError as e:
        seen.append("no connection from X: %s" % e)
        return
    y_side = socket.create_connection(("127.0.0.1", y_port))
    seen.append("relaying")
    t = threading.Thread(target=pipe, args=(y_side, x_side), daemon=True)
    t.start()
    pipe(x_side, y_side)
    t.join(10)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    x_port, y_port = int(sys.argv[1]), int(sys.argv[2])
    w = Client(port=x_port)
    w.register("relay-job", "tok-relay", n_workers=1, rank=0, tensors=[("g", 64)])
    buf = numpy.full(64, 1.0, dtype=numpy.float32)
    w.allreduce(0, 0, buf)
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(1)
    seen = []
    t = threading.Thread(target=relay, args=(ls, y_port, seen), daemon=True)
    t.start()
    moved = None
    try:
        with Client(port=x_port, timeout_ms=60000) as admin:
            _, msg = admin.migrate("relay-job", "tok-relay", "127.0.0.1", ls.getsockname()[1])
        moved = msg
    except AggError as e:
        print("the move was refused: %s" % e)
        check(e.status == "EAUTH", "refused with EAUTH, got %s" % e.status)
    t.join(30)
    print("relay: %s" % ", ".join(seen))
    check("relaying" in seen, "X connected to the stranger's listener")
    check(moved is None, "the move through the relay succeeded: %s" % moved)
    try:
        buf = numpy.full(64, 2.0, dtype=numpy.float32)
        w.allreduce(0, 1, buf)
        check(buf[0] == 2.0, "the job's next round on X sums right")
        print("the job trains on at X")
    except AggError as e:
        check(False, "the job does not train on at X: %s" % e)
    with Client(port=y_port) as c:
        stats = c.stats()
    check('job="relay-job"' not in stats, "Y holds the stranger's job")
    try:
        w.leave()
    except AggError as e:
        check(False, "leave: %s" % e)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
