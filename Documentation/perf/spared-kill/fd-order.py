#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Which of a SIGKILLed process's files does the kernel release first?

A child holds two socket ends, one on a low descriptor (opened before its
memory, as spared's rdma_cm channel was) and one moved to a high one
(fcntl F_DUPFD_CLOEXEC, as spared does now), and between them N memfds of
M MiB, written. The parent kills it and notes, on the monotonic clock,
when each socket's peer end reads EOF (the file released). The host's
kernel, not the rig's: it shows the exit's order, not spared's times.
usage: fd-order.py [N] [M] [RUNS]
"""
import fcntl, os, select, signal, socket, sys, time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 32
mib = int(sys.argv[2]) if len(sys.argv) > 2 else 64
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
print(f"kernel {os.uname().release}; {n} memfds of {mib} MiB between the two sockets")
for run in range(runs):
    lo_p, lo_c = socket.socketpair()
    hi_p, hi_c = socket.socketpair()
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        lo_p.close(); hi_p.close(); os.close(ready_r)
        hi = fcntl.fcntl(hi_c.fileno(), fcntl.F_DUPFD_CLOEXEC, 1000)
        hi_c.close()
        mfds = []
        chunk = b"\x5a" * (1 << 20)
        for i in range(n):
            fd = os.memfd_create(f"slab{i}")
            for _ in range(mib):
                os.write(fd, chunk)
            mfds.append(fd)
        os.write(ready_w, f"{lo_c.fileno()} {hi} {mfds[0]}-{mfds[-1]}".encode())
        while True:
            time.sleep(10)
    lo_c.close(); hi_c.close(); os.close(ready_w)
    where = os.read(ready_r, 100).decode().split()
    t0 = time.monotonic()
    os.kill(pid, signal.SIGKILL)
    got = {}
    socks = {lo_p.fileno(): "low", hi_p.fileno(): "high"}
    while len(got) < 2:
        r, _, _ = select.select([s for s in socks if socks[s] not in got], [], [], 30)
        if not r:
            break
        for s in r:
            if os.read(s, 1) == b"":
                got[socks[s]] = time.monotonic() - t0
    os.waitpid(pid, 0)
    tz = time.monotonic() - t0
    print(f"RESULT run={run + 1} low_fd={where[0]} high_fd={where[1]} memfds={where[2]} "
          f"high_eof_s={got.get('high', -1):.4f} low_eof_s={got.get('low', -1):.4f} reaped_s={tz:.4f}")
    lo_p.close(); hi_p.close(); os.close(ready_r)
