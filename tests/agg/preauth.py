#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Strangers who start a REGISTER and never finish it (tests/agg/run starts
the daemon with --request-timeout DEADLINE).

  preauth.py PORT DAEMON_PID N DEADLINE_S

Opens N connections, each sending a REGISTER header that announces the
largest body a REGISTER may have (AGG_REG_MAX_SIZE) and then half of that
body. Checks:
  - the daemon's resident memory (VmRSS) grows by at most 16 MiB with all
    N half-sent requests in (it held the bodies: N x 80 KiB before);
  - a legitimate worker is served meanwhile (register, one allreduce);
  - DEADLINE_S + 3 s after the last one, every stranger's connection has
    been closed by the daemon.
Exits 0 when every check held, 1 otherwise (each failed check printed).
"""
import os
import resource
import socket
import struct
import sys
import time

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "userspace", "python"))
from spare_agg import Client, AggError  # noqa: E402

MAGIC, VERSION, HDR = 0x47474153, 1, 32
MSG_REGISTER = 1
REG_MAX = 88 + 4096 * 40	# AGG_REG_FIXED_SIZE + AGG_MAX_TENSORS x AGG_REG_TENSOR_SIZE


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from pycheck import check, verdict  # noqa: E402


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    if len(sys.argv) != 5:
        print(__doc__)
        return 2
    port, pid, n, deadline = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    hdr = struct.pack("<IHHIIIIII", MAGIC, VERSION, MSG_REGISTER, REG_MAX, 0, 0, 0, 0, 0)
    half = b"\x41" * (REG_MAX // 2)
    time.sleep(0.5)
    before = rss_kib(pid)
    socks = []
    for _ in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(hdr + half)
        except OSError as e:
            print("connection %d: %s" % (len(socks), e))
            break
        socks.append(s)
    t_last = time.monotonic()
    print("%d half-sent REGISTERs (%d bytes each of %d)" % (len(socks), len(half), REG_MAX))
    time.sleep(1.0)
    after = rss_kib(pid)
    grew = (after - before) / 1024.0
    print("daemon RSS: %.1f MiB before, %.1f MiB with them in (+%.1f MiB)"
          % (before / 1024.0, after / 1024.0, grew))
    check(grew <= 16, "RSS grew by %.1f MiB (at most 16 MiB)" % grew)
    try:
        c = Client("127.0.0.1", port, timeout_ms=10000)
        c.register("preauth-legit", "tok-legit", n_workers=1, rank=0, tensors=[("g", 256)])
        buf = numpy.full(256, 2.5, dtype=numpy.float32)
        c.allreduce(0, 0, buf)
        check(buf[0] == 2.5 and buf[255] == 2.5, "the legitimate worker's sum is its push")
        c.leave()
        c.close()
        print("the legitimate worker was served")
    except AggError as e:
        check(False, "the legitimate worker was not served: %s" % e)
    wait = t_last + deadline + 3 - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    open_left = 0
    for s in socks:
        s.setblocking(False)
        try:
            while True:
                d = s.recv(4096)
                if not d:
                    break
        except BlockingIOError:
            open_left += 1
        except OSError:
            pass
        s.close()
    print("%d of %d still open %.0f s after the deadline" % (open_left, len(socks), 3))
    check(open_left == 0, "%d half-sent REGISTERs still open after the deadline" % open_left)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
