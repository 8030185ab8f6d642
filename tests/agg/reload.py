#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""spare-aggd's SIGHUP, checked from outside (tests/agg/run starts the daemons).

  reload.py SRC_PORT SRC_ADMIN DST_PORT DST_PID DST_KEYFILE NEW_KEYFILE DST_CONF DST_LOG

SRC holds the key in NEW_KEYFILE; DST started from DST_CONF with another
key in DST_KEYFILE. A worker's job on DST trains throughout. A job on SRC
cannot move to DST (the keys differ). DST_KEYFILE then gets SRC's key and
DST_CONF a live setting (idle-timeout) and one that needs a restart
(policy), and DST gets SIGHUP: it logs both, stays up, its worker goes on,
and the move now succeeds. A key file of 3 bytes is then refused on the
next SIGHUP ("reload refused"), and the running key still proves itself: a
second job moves. Exits 0 when every check held, 1 otherwise.
"""
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "userspace", "python"))
from spare_agg import Client, AggError  # noqa: E402
import numpy  # noqa: E402


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from pycheck import check, verdict  # noqa: E402


def hup(pid, log, line, count):
    """SIGHUP, then up to 10 s for the count-th line holding `line`."""
    os.kill(pid, signal.SIGHUP)
    for _ in range(100):
        with open(log) as f:
            if f.read().count(line) >= count:
                return True
        time.sleep(0.1)
    return False


def log_has(log, text):
    with open(log) as f:
        return text in f.read()


def train(w, it):
    buf = numpy.ones(64, dtype=numpy.float32)
    out = numpy.zeros(64, dtype=numpy.float32)
    w.allreduce(0, it, buf, out)
    return out[0] == 1.0 and out[63] == 1.0


def move(src_admin, job, dst_port):
    with Client(port=src_admin) as admin:
        admin.migrate(job, "tok", "127.0.0.1", dst_port)


def main():
    src, src_admin, dst, pid = (int(a) for a in sys.argv[1:5])
    key_file, new_key, conf, log = sys.argv[5:9]

    stay = Client(port=dst)
    stay.register("hup-stay", "tok", 1, 0, [("t", 64)])
    check(train(stay, 0), "the job on the target trains before the reload")
    w = Client(port=src)
    w.register("hup-job", "tok", 1, 0, [("t", 64)])
    check(train(w, 0), "the job on the source trains")
    try:
        move(src_admin, "hup-job", dst)
        check(False, "a move to a daemon with another key succeeded")
    except AggError as e:
        check(e.status == "EAUTH" and "did not prove" in str(e),
              "before the reload, the move is refused for the key: %s" % e)

    # the target's key rotated to the source's; one live setting and one
    # that needs a restart changed in its config file
    with open(new_key, "rb") as f:
        key = f.read()
    with open(key_file, "wb") as f:	# keeps the file's mode (0600)
        f.write(key)
    with open(conf, "a") as f:
        f.write("idle-timeout = 300\npolicy = fifo\n")
    check(hup(pid, log, "SIGHUP: reloaded", 1), "the target logs 'SIGHUP: reloaded'")
    check(log_has(log, "SIGHUP: idle-timeout: 600 -> 300"), "the live change is logged")
    check(log_has(log, "SIGHUP: policy changed: needs a restart; keeping wfs"),
          "the restart-only change is logged with the value kept")
    try:
        os.kill(pid, 0)
    except OSError:
        check(False, "the target died on SIGHUP")
    check(train(stay, 1), "the job on the target trains on after the reload")
    try:
        move(src_admin, "hup-job", dst)
    except AggError as e:
        check(False, "after the reload, the move is refused: %s" % e)
    w.close()

    # a bad key file: refused, the running key kept
    with open(key_file, "wb") as f:
        f.write(b"abc")
    check(hup(pid, log, "SIGHUP: reload refused", 1), "a 3-byte key file is refused")
    check(log_has(log, "--peer-key-file %s: the key must be" % key_file),
          "the refusal names the key file and why")
    check(train(stay, 2), "the job on the target trains on after a refused reload")
    w2 = Client(port=src)
    w2.register("hup-job2", "tok", 1, 0, [("t", 64)])
    check(train(w2, 0), "a second job trains on the source")
    try:
        move(src_admin, "hup-job2", dst)
    except AggError as e:
        check(False, "after a refused reload, the running key no longer works: %s" % e)
    w2.close()
    stay.close()
    return verdict("reload")


if __name__ == "__main__":
    sys.exit(main())
