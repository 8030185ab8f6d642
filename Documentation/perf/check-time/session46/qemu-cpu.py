#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# qemu-cpu.py OUT [SECONDS]: once a second, the CPU seconds each QEMU
# guest on the machine used in that second (utime + stime of the
# qemu-system-x86 process, all its threads), and the machine's idle CPUs
# (/proc/stat: idle + iowait). Lines:
#   T  <unix time> <idle CPUs in the last second>
#   G  <unix time> <pid> <CPU seconds in the last second>
#   N  <pid> <kernel> <scenario> <backend> <worktree>   (once per guest)
# A guest's CPU/wall ratio is the mean of its G lines; the machine's idle is
# what all guests, builds and tests beside them left.
import os
import sys
import time

HZ = os.sysconf('SC_CLK_TCK')
out = open(sys.argv[1], 'a', buffering=1)
end = time.time() + (float(sys.argv[2]) if len(sys.argv) > 2 else 1e9)


def machine():
    f = open('/proc/stat').readline().split()[1:]
    v = [int(x) for x in f]
    return v[3] + v[4], sum(v[:8])


def qemus():
    r = {}
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            if open('/proc/%s/comm' % p).read().strip() != 'qemu-system-x86':
                continue
            s = open('/proc/%s/stat' % p).read()
            f = s[s.rindex(')') + 2:].split()
            r[int(p)] = int(f[11]) + int(f[12])
        except (OSError, ValueError):
            pass
    return r


def name(pid):
    try:
        a = open('/proc/%d/cmdline' % pid).read().split('\0')
        cwd = os.readlink('/proc/%d/cwd' % pid)
    except OSError:
        return None
    k = a[a.index('-kernel') + 1].split('/') if '-kernel' in a else ['?']
    kver = next((x for x in k if x[:1].isdigit()), '?')
    app = a[a.index('-append') + 1] if '-append' in a else ''
    sc = be = '-'
    for w in app.split():
        if w.startswith('spare.scenario='):
            sc = w.split('=', 1)[1]
        if w.startswith('spare.backend='):
            be = w.split('=', 1)[1]
    return '%s %s %s %s' % (kver, sc, be, cwd)


seen = set()
pi, pt = machine()
pq = qemus()
while time.time() < end:
    time.sleep(1.0)
    now = int(time.time())
    i, t = machine()
    q = qemus()
    out.write("T %d %.2f\n" % (now, os.cpu_count() * (i - pi) / max(1, t - pt) if t > pt else 0))
    for pid, ticks in q.items():
        if pid not in seen:
            n = name(pid)
            if n:
                out.write('N %d %s\n' % (pid, n))
                seen.add(pid)
        if pid in pq:
            out.write('G %d %d %.2f\n' % (now, pid, (ticks - pq[pid]) / HZ))
    pi, pt, pq = i, t, q
