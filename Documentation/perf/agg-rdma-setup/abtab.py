# SPDX-License-Identifier: GPL-2.0
# The A/B rows of perf-aggd.md 5.5.3 from rdma.sh consoles: abtab.py FILE=LABEL ...
import re,sys
out=[]
for f,label in [(a.split('=')[0],a.split('=')[1]) for a in sys.argv[1:]]:
    d={}
    for l in open(f):
        m=re.match(r'AB round (\d+) (\S+): (.*)',l)
        if not m: continue
        r,dm,t=m.groups(); k=(int(r),'new' if dm=='spare-aggd' else 'old'); e=d.setdefault(k,{})
        x=re.search(r'exited (\d+)',t)
        if x: e['rc']=x.group(1)
        x=re.search(r'held the event loop (\d+) times, ([\d.]+) ms in all, longest ([\d.]+) ms \((\d+) conn.*; (\d+) accepted',t)
        if x: e['cm']=tuple(float(v) for v in x.groups())
        x=re.search(r'(\d+) connection buffers .* registered (on|off) the event loop: ([\d.]+) ms in all, longest ([\d.]+)',t)
        if x: e['reg']=(int(x.group(1)),float(x.group(3)),float(x.group(4)))
        x=re.search(r'(\d+) connection set-ups finished .*: ([\d.]+) ms in all, longest ([\d.]+) ms',t)
        if x: e['done']=(int(x.group(1)),float(x.group(2)),float(x.group(3)))
    rounds=sorted(set(r for r,_ in d))
    for r in rounds:
        cells=[]
        for side in ('old','new'):
            e=d.get((r,side),{}); cm=e.get('cm'); dn=e.get('done',(0,0,0)); rg=e.get('reg',(0,0,0))
            if not cm: cells.append('-'); continue
            fail='' if e.get('rc')=='0' else ' (itest failed)'
            cells.append(f"{cm[1]+dn[1]:.0f} ms, {max(cm[2],dn[2]):.0f} ms, {int(cm[4])}{fail}")
            cells.append(f"{rg[1]:.0f} ms, {rg[2]:.0f} ms")
        print(f"| {label}, {r} | " + " | ".join(cells) + " |")
