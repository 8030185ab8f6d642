#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# qemu-cpu-sum.py LOG: per guest of a qemu-cpu.py log, its QEMU's seconds
# (from its first to its last sample), CPU seconds, CPU/wall, and the same
# ratio over only the seconds in which the machine still had at least
# FREE (0.30) of a CPU idle: there the guest was not short of CPU, so that
# ratio is what it asked for, where the first is a lower bound on a
# machine that other work kept busy (and that seconds in which the guest
# itself waited leave the machine idle more often: biased low). wait-s:
# its seconds under 0.2 CPU (a guest waiting on a time-out or a sleep).
import sys
from collections import defaultdict

FREE = 0.30
idle = {}
names = {}
cpu = defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == 'T':
        idle[int(f[1])] = float(f[2])
    elif f[0] == 'N':
        names[int(f[1])] = ' '.join(f[2:5]) + ' ' + f[5].replace('/work/', '')
    elif f[0] == 'G':
        cpu[int(f[2])].append((int(f[1]), float(f[3])))
print('%-8s %6s %7s %6s %6s %6s %6s  %s' % ('pid', 'wall', 'cpu', 'ratio', 'wait-s', 'free-s', 'ratio*', 'guest'))
for pid, s in sorted(cpu.items(), key=lambda x: x[1][0][0]):
    wall = len(s)
    c = sum(x[1] for x in s)
    fr = [x[1] for x in s if idle.get(x[0], 0) >= FREE]
    print('%-8d %6d %7.1f %6.2f %6d %6d %6s  %s' % (
        pid, wall, c, c / max(1, wall), sum(1 for x in s if x[1] < 0.2), len(fr),
        '%.2f' % (sum(fr) / len(fr)) if fr else '-', names.get(pid, '?')))
