#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# A model of scripts/check's VM lanes, to compare queue orders on the
# guest times of one clean-clone check: one lane from START s until the
# host tiers end (HOST_END s), then two; the debug kernel's guests first
# once the host tiers are done. It reproduced the check at f04102f within
# 8 s (model 2623 s, run 2615 s) in name order.
#
#   Documentation/perf/check-time/lanes-sim.py \
#       Documentation/perf/vm-lanes/check-f04102f-2026-11-29.txt [HOST_END [START]]
import re
import sys

times = {}
for line in open(sys.argv[1]):
    m = re.match(r'(\d+) s vm/([^/]+)/(\S+)', line)
    if m:
        times[(m.group(2), m.group(3))] = int(m.group(1))
host_end = int(sys.argv[2]) if len(sys.argv) > 2 else 994
start = int(sys.argv[3]) if len(sys.argv) > 3 else 124
dbg = [k for k in times if k[0].endswith('-spare-debug')]
norm = [k for k in times if not k[0].endswith('-spare-debug')]
DEBUG_ORDER = ['client/cutlink', 'client/evict', 'client/badinput',
               'client/killdonor@kmod', 'client/resync', 'client/teardown',
               'client/backup-async']


def run(normal, debug):
    normal = list(normal)
    t = start
    while normal and t < host_end:
        t += times[normal.pop(0)]
    lanes = [max(t, host_end), host_end]
    for job in list(debug) + normal:
        lanes.sort()
        lanes[0] += times[job]
    return max(lanes), max(lanes) - min(lanes)


by_name = sorted(norm, key=lambda k: (k[1].split('@')[0], k[1], k[0]))
debug_by_list = sorted(dbg, key=lambda k: DEBUG_ORDER.index(k[1])
                       if k[1] in DEBUG_ORDER else 99)
longest = sorted(norm, key=lambda k: -times[k])
debug_longest = sorted(dbg, key=lambda k: -times[k])
print('host tiers end at %d s; guest-seconds %d' % (host_end, sum(times.values())))
print('name order (before):  end %d s, one lane idle %d s at the end' % run(by_name, debug_by_list))
print('longest first:        end %d s, one lane idle %d s at the end' % run(longest, debug_longest))
