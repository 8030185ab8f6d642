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
#
# With SPARE_SIM_PROFILE=vmstat.log (the host tiers alone, `vmstat -n 5`:
# perf/check-time/session44-host-cpu/vmstat.log) it also models the idle
# lane (scripts/check, SPARE_VM_IDLE_LANE): the host tiers' CPU demand at
# each second is 2 CPUs less the profile's idle + iowait, the profile's
# 5 s samples stretched to HOST_END; a guest takes one CPU; a second guest
# starts (the shortest left) when the last SPARE_VM_IDLE_WINDOW s (20)
# with one guest running left SPARE_VM_IDLE_LANE hundredths of a CPU (60)
# idle. While it runs the host tiers progress at min(1, 2/(d+2)) against
# min(1, 2/(d+1)) with one guest (the CPUs shared fairly), so they end
# later when it outlasts an idle spell. SPARE_SIM_INFLATE (1.0) multiplies
# the second guest's time.
import os
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


profile = os.environ.get('SPARE_SIM_PROFILE')
if profile:
    idle = []
    for line in open(profile):
        f = line.split()
        if len(f) >= 17 and f[0].isdigit():
            idle.append((int(f[14]) + int(f[15])) / 100.0)
    idle = idle[1:]  # vmstat's first line is since boot
    plen = 5.0 * len(idle)
    thr = int(os.environ.get('SPARE_VM_IDLE_LANE', '60')) / 100.0
    window = int(os.environ.get('SPARE_VM_IDLE_WINDOW', '20'))
    infl = float(os.environ.get('SPARE_SIM_INFLATE', '1.0'))

    def demand(p):
        i = min(int(p / 5), len(idle) - 1)
        return 2.0 * (1.0 - idle[i])

    def run_idle(normal, debug):
        normal = list(normal)
        rate = plen / host_end
        t, prog = start, start * rate
        lane1 = extra = start
        seen = []       # (t, idle CPUs) since the last start or end
        extras = []
        lost = 0.0
        while prog < plen:
            if lane1 <= t and normal:
                lane1 = t + times[normal.pop(0)]
                seen = []
            if extra == t:
                seen = []
            if lane1 == t:
                seen = []
            d = demand(prog)
            running = (lane1 > t) + (extra > t)
            seen.append(max(0.0, 2.0 - d - running))
            if (thr > 0 and lane1 > t and extra <= t and normal and
                    len(seen) >= window and
                    sum(seen[-window:]) / window >= thr):
                job = normal.pop()
                extra = t + int(times[job] * infl)
                extras.append((t, job, times[job]))
                seen = []
            base = min(1.0, 2.0 / (d + 1.0))
            now = min(1.0, 2.0 / (d + 2.0)) if extra > t else base
            prog += rate * now / base
            lost += 1.0 - now / base
            t += 1
        lanes = [max(lane1, t), max(extra, t)]
        for job in list(debug) + normal:
            lanes.sort()
            lanes[0] += times[job]
        return t, max(lanes), max(lanes) - min(lanes), extras, lost

    h, end, gap, extras, lost = run_idle(longest, debug_longest)
    print('idle lane (%s, %.2f CPU over %d s): host tiers end %d s (%.0f s later), '
          '%d guests beside them in the idle lane (%d guest-s): end %d s, '
          'one lane idle %d s at the end' %
          (os.path.basename(profile), thr, window, h, lost, len(extras),
           sum(e[2] for e in extras), end, gap))
    for e in extras:
        print('  %5d s  %s %s (%d s)' % (e[0], e[1][0], e[1][1], e[2]))
