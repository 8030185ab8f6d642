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


# The third lane (scripts/check, SPARE_VM_IDLE_LANE after the host tiers):
# with SPARE_SIM_RATIOS=FILE (lines "RATIO KERNEL SCENARIO", a guest's CPU
# seconds over its wall seconds, as session46/guest-ratios; a guest it does
# not name uses SPARE_SIM_RATIO, default 0.8) the phase after the host
# tiers is modelled second by second: a guest's first SPARE_SIM_BOOT s (5)
# take a whole CPU, the rest of it RATIO' so that its mean is RATIO; while
# the running guests ask more than the 2 CPUs (D > 2), each one's CPU part
# runs at 2/D and its waits do not stretch (a second of its own time takes
# (1 - r) + r * D/2 s). Two lanes; a third starts the shortest guest left
# when the last SPARE_VM_IDLE_WINDOW s (20) with two guests running and
# none started or ended left SPARE_VM_IDLE_LANE hundredths of a CPU (60)
# idle, no debug guest running or queued. It prints the phase without the
# third lane (the same model) and with it.
ratios_file = os.environ.get('SPARE_SIM_RATIOS')
if ratios_file:
    ratio = {}
    for line in open(ratios_file):
        f = line.split()
        if len(f) >= 3 and not f[0].startswith('#'):
            ratio[(f[1], f[2])] = float(f[0])
    r_def = float(os.environ.get('SPARE_SIM_RATIO', '0.8'))
    boot = int(os.environ.get('SPARE_SIM_BOOT', '5'))
    thr3 = int(os.environ.get('SPARE_VM_IDLE_LANE', '60')) / 100.0
    win3 = int(os.environ.get('SPARE_VM_IDLE_WINDOW', '20'))

    def kclass(k):
        m = re.match(r'(\d+\.\d+)', k)
        return m.group(1) + ('-debug' if k.endswith('-spare-debug') else '')

    def r_of(job):
        return ratio.get((kclass(job[0]), job[1]), r_def)

    def demand(g, age):
        r, t = r_of(g), times[g]
        if age < boot or t <= boot:
            return 1.0
        return max(0.0, min(1.0, (r * t - boot) / (t - boot)))

    def run_phase(normal, debug, free, third):
        # free: when each lane is first free (s); the jobs not yet started
        normal, debug = list(normal), list(debug)
        t = min(free)
        run = []            # [job, own seconds left, start, is_debug]
        held = sorted(free)
        seen, extras, idle_sum = [], [], 0.0
        while normal or debug or run or held:
            changed = False
            while held and held[0] <= t:
                held.pop(0)
                changed = True
            while len(run) + len(held) < 2 and (debug or normal):
                job = debug.pop(0) if debug else normal.pop(0)
                run.append([job, float(times[job]), t, job in dbg])
                changed = True
            if changed:
                seen = []
            if not run and not held:
                break
            d = [demand(g[0], t - g[2]) for g in run]
            tot = sum(d)
            idle = max(0.0, 2.0 - tot) + len(held) * 0.0
            if len(run) == 2 and not held:
                seen.append(idle)
            if (third and len(run) == 2 and not held and normal and
                    not debug and not any(g[3] for g in run) and
                    len(seen) >= win3 and sum(seen[-win3:]) / win3 >= thr3):
                job = normal.pop()
                run.append([job, float(times[job]), t, False])
                extras.append((t, job, times[job]))
                seen = []
                continue
            idle_sum += idle if len(run) >= 2 else 0.0
            share = min(1.0, 2.0 / tot) if tot > 0 else 1.0
            for g, dg in zip(run, d):
                r = dg
                g[1] -= 1.0 / ((1.0 - r) + r / share)
            ended = [g for g in run if g[1] <= 0]
            if ended:
                run = [g for g in run if g[1] > 0]
                seen = []
            t += 1
        return t, extras, idle_sum

    # the host phase as the plain model: lane 1's queue until HOST_END
    nq = list(longest)
    t1 = start
    while nq and t1 < host_end:
        t1 += times[nq.pop(0)]
    free = [max(t1, host_end), host_end]
    e2, _, idle2 = run_phase(nq, debug_longest, free, False)
    e3, extras3, idle3 = run_phase(nq, debug_longest, free, True)
    two = e2 - host_end
    print('after the host tiers (%s, unknown guests %.2f, boot %d s): two lanes '
          'end %d s (%.0f CPU-s idle of %d, %.2f CPU); a third lane (%.2f CPU over '
          '%d s): end %d s, %d guests in it (%d guest-s)' %
          (os.path.basename(ratios_file), r_def, boot, e2, idle2, 2 * two,
           idle2 / max(1, two), thr3, win3, e3, len(extras3),
           sum(e[2] for e in extras3)))
    for e in extras3:
        print('  %5d s  %s %s (%d s)' % (e[0], e[1][0], e[1][1], e[2]))
