#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Every metric named in the alerting rules and the Grafana dashboard must be
one the daemons expose.

  names.py --pages P.prom... --rules R.yml... --dashboards D.json...

The pages are real scrapes (tests/metrics/run); their families are the
names that exist. From every PromQL expression of the rules (expr) and the
dashboards (panels' targets, rows included) the metric names are taken
(label matchers, strings, ranges, grouping clauses, functions and keywords
left out) and looked up. `up` is allowed: Prometheus records it for every
scrape target itself. Prints one line per unknown name; exits 1 if any, or
if a file yields no expression at all.
"""
import json
import re
import sys

import yaml

ALLOWED = {"up"}
KEYWORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on",
            "ignoring", "group_left", "group_right", "inf", "nan", "atan2"}
IDENT = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")


def exposed(path):
    names = set()
    with open(path) as f:
        for line in f:
            m = re.match(r"# TYPE (\S+) ", line)
            if m:
                names.add(m.group(1))
            elif line and not line.startswith("#"):
                names.add(IDENT.match(line).group(0))
    return names


def metric_names(expr):
    e = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`[^`]*`', '""', expr)
    e = re.sub(r"\{[^}]*\}", " ", e)
    e = re.sub(r"\[[^\]]*\]", " ", e)
    e = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", e)
    e = re.sub(r"(?<![A-Za-z0-9_:])\d[\w.]*", " ", e)	# numbers, durations
    out = set()
    for m in IDENT.finditer(e):
        rest = e[m.end():].lstrip()
        if rest.startswith("(") or m.group(0).lower() in KEYWORDS:
            continue
        out.add(m.group(0))
    return out


def rule_exprs(path):
    with open(path) as f:
        doc = yaml.safe_load(f)
    for g in doc.get("groups", []):
        for r in g.get("rules", []):
            yield r.get("alert") or r.get("record"), r["expr"]


def dashboard_exprs(path):
    with open(path) as f:
        doc = json.load(f)

    def walk(panels):
        for p in panels:
            for t in p.get("targets", []):
                if t.get("expr"):
                    yield p.get("title", "?"), t["expr"]
            yield from walk(p.get("panels", []))
    yield from walk(doc.get("panels", []))


def main(argv):
    groups = {"--pages": [], "--rules": [], "--dashboards": []}
    cur = None
    for a in argv:
        if a in groups:
            cur = groups[a]
        elif cur is None:
            sys.exit("usage: names.py --pages P... --rules R... --dashboards D...")
        else:
            cur.append(a)
    have = set(ALLOWED)
    for p in groups["--pages"]:
        have |= exposed(p)
    bad = 0
    for kind, files in (("rules", groups["--rules"]), ("dashboard", groups["--dashboards"])):
        for path in files:
            exprs = list(rule_exprs(path) if kind == "rules" else dashboard_exprs(path))
            if not exprs:
                print("%s: no expression found" % path)
                bad = 1
            used = 0
            for where, expr in exprs:
                names = metric_names(expr)
                if not names:
                    print("%s: %s: no metric in %r" % (path, where, expr))
                    bad = 1
                for n in sorted(names - have):
                    print("%s: %s: %s is not exposed by any daemon" % (path, where, n))
                    bad = 1
                used += len(names)
            print("%s: %d expressions, %d metric references checked" % (path, len(exprs), used))
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
