#!/bin/bash
# one row per run: tag, rc, kernel, the move step's line, move MAPs ahead/now, first FAIL
cd /tmp/dp31-runs
for f in $(ls before-*.log after-*.log after61-*.log 2>/dev/null | sort -V); do
  t=${f%.log}
  rc=$(awk -v t="$t" '$1 == t {print $2}' results.txt | tail -1)
  k=$(grep -m1 -o 'spare-guest: kernel [^,]*' $f | cut -d' ' -f3)
  mv=$(grep -m1 -E '^spare: [0-9]+ evictions' $f | sed 's/^spare: //; s/ from donor 2//; s/; move times in ms:.*//')
  maps=$(awk '/remapped elsewhere/{on=1} on && /EVICT slab/ && !t0 {match($0,/spared\[[0-9.]+\]/); t0=substr($0,RSTART+7,RLENGTH-8)+0} on && /^(PASS|FAIL)/ {on=0} on && /MAP slab/ && /->/ { sub(/^[ \t]+/, "");match($0,/spared\[[0-9.]+\]/); t=substr($0,RSTART+7,RLENGTH-8)+0; if (t0 && t>=t0 && !seen[$0]++) { if (/ahead/) a++; else if (/populated now/) { n++; match($0,/now in [0-9]+/); v=substr($0,RSTART+7,RLENGTH-7)+0; if (v>mx) mx=v } else o++ } } END { if (a+n) printf "%d ahead, %d now (max %d ms)", a, n, mx; else if (o) printf "%d (old spared: populated at MAP)", o; else printf "-" }' $f)
  fl=$(grep -m1 '^FAIL' $f | cut -c7-90 | sed 's/|/\//g')
  echo "| $t | $k | ${rc#rc=} | ${mv:--} | $maps | ${fl:-} |"
done
