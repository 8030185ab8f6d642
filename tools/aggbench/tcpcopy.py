#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Loopback TCP's CPU per byte, by side (Documentation/perf-aggd.md
section 5.2). Not a test.

    tools/aggbench/tcpcopy.py [MIB [CHUNK_KIB]]

One thread sends MIB MiB (default 1024) in CHUNK_KIB pieces (default 256,
a spare-aggd partition) over a TCP connection on 127.0.0.1, another
receives them into one buffer, as spare-aggd's event loop receives a push
into its slot. Prints each thread's CPU time (CLOCK_THREAD_CPUTIME_ID) per
byte: on loopback the sender's send() also runs the receiving side's TCP
input (the packet never leaves the host), so "send" is the copy into the
socket plus the whole stack, "recv" is about the copy out of it. The
daemon pays both: the recv side for every push, the send side for every
pull's answer.
"""
import socket
import sys
import threading
import time


def main():
    mib = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    chunk = (int(sys.argv[2]) if len(sys.argv) > 2 else 256) * 1024
    total = mib << 20
    lsock = socket.create_server(("127.0.0.1", 0))
    port = lsock.getsockname()[1]
    res = {}

    def receiver():
        conn, _ = lsock.accept()
        buf = bytearray(chunk)
        view = memoryview(buf)
        got = 0
        t0 = time.thread_time_ns()
        while got < total:
            n = conn.recv_into(view[(got % chunk):], chunk - got % chunk)
            if not n:
                break
            got += n
        res["recv"] = (time.thread_time_ns() - t0, got)
        conn.close()

    th = threading.Thread(target=receiver)
    th.start()
    s = socket.create_connection(("127.0.0.1", port))
    data = bytes(chunk)
    sent = 0
    t0 = time.thread_time_ns()
    while sent < total:
        s.sendall(data)
        sent += chunk
    res["send"] = (time.thread_time_ns() - t0, sent)
    s.close()
    th.join()
    for side in ("send", "recv"):
        ns, n = res[side]
        print("tcp-loopback %s %d bytes chunk %d: %.4f ns/B" % (side, n, chunk, ns / n))


if __name__ == "__main__":
    main()
