#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Strangers who open connections to a daemon and say nothing.

  idleflood.py PORT DAEMON_PID N HOLD_S [CMD ARG...]

Opens N TCP connections to 127.0.0.1:PORT and sends nothing on them.
Holding them HOLD_S seconds, it measures the daemon's CPU time (utime +
stime of /proc/DAEMON_PID/stat): a daemon that spins on a listener it
cannot accept from (EMFILE) uses a CPU; one that waits uses next to none
(at most 1 s is allowed). Then, with the strangers' connections still
open, it runs CMD (a legitimate client) and requires its exit status 0.
Connections the daemon closes meanwhile are counted, not treated as errors.
Exits 0 when every check held, 1 otherwise (each failed check printed).
Used by tests/agg/run (agg-fd-exhaustion) and tests/broker/run
(broker-fd-exhaustion).
"""
import os
import socket
import subprocess
import sys
import time


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from pycheck import check, verdict  # noqa: E402


def cpu_ticks(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])	# utime, stime


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    port, pid, n, hold = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    cmd = sys.argv[5:]
    hz = os.sysconf("SC_CLK_TCK")
    socks = []
    for _ in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
        except OSError as e:
            print("connection %d: %s" % (len(socks), e))
            break
        socks.append(s)
    print("%d idle connections opened" % len(socks))
    check(len(socks) == n, "all %d connections opened (the kernel's backlog takes them)" % n)
    t0, c0 = time.monotonic(), cpu_ticks(pid)
    time.sleep(hold)
    cpu = (cpu_ticks(pid) - c0) / hz
    wall = time.monotonic() - t0
    print("daemon CPU while the strangers held on: %.2f s in %.1f s" % (cpu, wall))
    check(cpu <= 1.0, "the daemon used %.2f s of CPU in %.1f s of idle connections (at most 1 s)"
          % (cpu, wall))
    if cmd:
        t1 = time.monotonic()
        rc = subprocess.call(cmd, timeout=120)
        print("legitimate client (%s): exit %d after %.1f s" % (os.path.basename(cmd[0]), rc,
                                                               time.monotonic() - t1))
        check(rc == 0, "the legitimate client was not served (exit %d)" % rc)
    closed = 0
    for s in socks:
        s.setblocking(False)
        try:
            if s.recv(1) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        s.close()
    print("%d of the strangers' connections were closed by the daemon" % closed)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
