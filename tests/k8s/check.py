#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check Kubernetes manifests offline against the API's schemas.

The schemas are those of Debian's python3-kubernetes, the official client
generated from the Kubernetes OpenAPI specification (22.x: the 1.22 API).
For each object:
  - its apiVersion is a group the client serves and its kind a resource of
    that group (the group's API class has create/read calls for it);
  - every field is one the schema has, with the schema's type, all the way
    down (a misspelt or misplaced key fails, as `kubectl apply
    --validate=strict` would);
  - every field the schema requires is there (the client's own checks, run
    by building the object);
and across the objects, the rules spare's manifests keep:
  - a workload's selector matches its pod template's labels;
  - a Service selects the pods of a workload in the file set, and each of
    its targetPorts is a port those pods declare;
  - every volumeMount names a volume of its pod, and every ConfigMap a pod
    mounts is in the file set;
  - a Secret volume gives its files no group or other permission (spare
    refuses such key files);
  - every namespaced object is in the one Namespace of the file set.

With --bin DIR, also: each container whose command is a program in DIR
uses only long options that the program's --help lists, on its command
line and as keys of the ConfigMap file it reads with --config.

usage: check.py [--bin DIR] FILE...   one "PASS: file kind/name" or
"FAIL: ..." line per object and per rule; exit 1 if any failed.
"""
import os
import re
import subprocess
import sys

import yaml
from kubernetes import client

PRIMITIVE = {
    "str": (str,),
    "int": (int,),
    "bool": (bool,),
    "float": (int, float),
    "datetime": (str,),
    "date": (str,),
    "object": (object,),
}


def snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def api_class(api_version):
    """The client's API class for apiVersion ("v1" is core)."""
    if "/" in api_version:
        group, version = api_version.split("/", 1)
    else:
        group, version = "core", api_version
    if group != "core" and "." in group and group.endswith(".k8s.io"):
        group = group[: -len(".k8s.io")]
    parts = re.split(r"[.\-]", group)
    name = "".join(p[:1].upper() + p[1:] for p in parts)
    name += version[:1].upper() + version[1:] + "Api"
    return getattr(client, name, None), version


def model_class(version, kind):
    return getattr(client, version[:1].upper() + version[1:] + kind, None)


class Checker:
    def __init__(self):
        self.errors = []

    def err(self, path, msg):
        self.errors.append(f"{path}: {msg}")

    def build(self, value, typ, path):
        """Check value against the client type name typ; return the model
        instance (or the value) so that the client's own checks run."""
        if value is None:
            return None
        m = re.fullmatch(r"list\[(.+)\]", typ)
        if m:
            if not isinstance(value, list):
                self.err(path, f"is {type(value).__name__}, the schema wants a list")
                return None
            return [self.build(v, m.group(1), f"{path}[{i}]") for i, v in enumerate(value)]
        m = re.fullmatch(r"dict\(str, (.+)\)", typ)
        if m:
            if not isinstance(value, dict):
                self.err(path, f"is {type(value).__name__}, the schema wants a map")
                return None
            return {k: self.build(v, m.group(1), f"{path}.{k}") for k, v in value.items()}
        if typ in PRIMITIVE:
            ok = isinstance(value, PRIMITIVE[typ])
            if typ in ("int", "float") and isinstance(value, bool):
                ok = False
            if not ok:
                self.err(path, f"is {type(value).__name__} {value!r}, the schema wants {typ}")
            return value
        cls = getattr(client, typ, None)
        if cls is None:
            self.err(path, f"schema type {typ} unknown to the client")
            return None
        if not isinstance(value, dict):
            self.err(path, f"is {type(value).__name__}, the schema wants an object ({typ})")
            return None
        by_json = {j: a for a, j in cls.attribute_map.items()}
        kwargs = {}
        for key, v in value.items():
            attr = by_json.get(key)
            if attr is None:
                self.err(f"{path}.{key}", f"no such field in {typ}")
                continue
            kwargs[attr] = self.build(v, cls.openapi_types[attr], f"{path}.{key}")
        try:
            return cls(**kwargs)
        except (ValueError, TypeError) as e:
            self.err(path, f"{typ}: {e}")
            return None


def pod_spec(obj):
    kind = obj.get("kind")
    spec = obj.get("spec") or {}
    if kind in ("Deployment", "DaemonSet", "StatefulSet", "ReplicaSet", "Job"):
        return spec.get("template") or {}
    if kind == "CronJob":
        return ((spec.get("jobTemplate") or {}).get("spec") or {}).get("template") or {}
    return None


def main(files, bindir=None):
    objs = []
    failed = 0
    for f in files:
        if f.endswith("kustomization.yaml"):
            continue
        try:
            docs = [d for d in yaml.safe_load_all(open(f)) if d is not None]
        except (OSError, yaml.YAMLError) as e:
            print(f"FAIL: {f}: {e}")
            failed += 1
            continue
        for d in docs:
            name = f"{f} {d.get('kind', '?')}/{(d.get('metadata') or {}).get('name', '?')}"
            c = Checker()
            api, version = api_class(str(d.get("apiVersion", "")))
            kind = str(d.get("kind", ""))
            model = model_class(version, kind) if api else None
            if api is None:
                c.err("apiVersion", f"{d.get('apiVersion')!r} is not an API group the client knows")
            elif model is None:
                c.err("kind", f"{kind!r} has no {version} schema")
            elif not any(hasattr(api, f"{op}_{s}{snake(kind)}")
                         for op in ("create", "read")
                         for s in ("namespaced_", "")):
                c.err("kind", f"{kind!r} is not served by {d.get('apiVersion')}")
            else:
                c.build(d, model.__name__, kind)
            if c.errors:
                failed += 1
                print(f"FAIL: {name}")
                for e in c.errors:
                    print(f"#   {e}")
            else:
                print(f"PASS: {name}")
            objs.append((f, d))
    failed += cross(objs)
    if bindir:
        failed += options(objs, bindir)
    return 1 if failed else 0


def options(objs, bindir):
    """Every --option and every config key a container uses is one its
    program's --help lists."""
    failed = 0
    cms = {(d["metadata"].get("namespace"), d["metadata"]["name"]): d.get("data") or {}
           for _, d in objs if d.get("kind") == "ConfigMap"}
    for f, d in objs:
        tmpl = pod_spec(d)
        if tmpl is None:
            continue
        spec = tmpl.get("spec") or {}
        ns = d["metadata"].get("namespace")
        vols = {v.get("name"): v for v in spec.get("volumes") or []}
        for c in spec.get("containers") or []:
            argv = (c.get("command") or []) + (c.get("args") or [])
            prog = os.path.join(bindir, argv[0]) if argv else ""
            if not argv or not os.access(prog, os.X_OK):
                continue
            out = subprocess.run([prog, "--help"], capture_output=True, text=True).stdout
            known = set(re.findall(r"--([a-z][a-z0-9-]*)", out))
            used = [a[2:].split("=")[0] for a in argv[1:] if a.startswith("--")]
            what = f"{f} {d['kind']}/{d['metadata']['name']} {c.get('name')}"
            conf = argv[argv.index("--config") + 1] if "--config" in argv[:-1] else None
            if conf:
                for m in c.get("volumeMounts") or []:
                    v = vols.get(m.get("name")) or {}
                    if m.get("mountPath") == conf and "configMap" in v and m.get("subPath"):
                        text = cms.get((ns, v["configMap"].get("name")), {}).get(m["subPath"], "")
                        for line in text.splitlines():
                            line = re.split(r"[#;]", line, 1)[0].strip()
                            if "=" in line:
                                used.append(line.split("=", 1)[0].strip())
            unknown = sorted(set(u for u in used if u not in known))
            print(("FAIL" if unknown else "PASS") + f": {what} options of {argv[0]}"
                  + (f": {unknown} not in `{argv[0]} --help`" if unknown else ""))
            failed += bool(unknown)
    return failed


def cross(objs):
    failed = 0

    def rule(ok, what, why):
        nonlocal failed
        if ok:
            print(f"PASS: {what}")
        else:
            failed += 1
            print(f"FAIL: {what}: {why}")

    namespaces = [d["metadata"]["name"] for _, d in objs if d.get("kind") == "Namespace"]
    configmaps = {((d.get("metadata") or {}).get("namespace"), d["metadata"]["name"])
                  for _, d in objs if d.get("kind") == "ConfigMap"}
    workloads = [(f, d, pod_spec(d)) for f, d in objs if pod_spec(d) is not None]

    for f, d in objs:
        md = d.get("metadata") or {}
        if d.get("kind") in ("Namespace",):
            continue
        rule(len(namespaces) == 1 and md.get("namespace") == namespaces[0],
             f"{f} {d.get('kind')}/{md.get('name')} namespace",
             f"in {md.get('namespace')!r}, the file set's namespace is {namespaces}")

    for f, d, tmpl in workloads:
        name = f"{f} {d['kind']}/{d['metadata']['name']}"
        sel = ((d.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
        labels = (tmpl.get("metadata") or {}).get("labels") or {}
        rule(sel and all(labels.get(k) == v for k, v in sel.items()),
             f"{name} selector", f"matchLabels {sel} do not select the template's labels {labels}")
        spec = tmpl.get("spec") or {}
        vols = {v.get("name"): v for v in spec.get("volumes") or []}
        ns = d["metadata"].get("namespace")
        for c in (spec.get("initContainers") or []) + (spec.get("containers") or []):
            for m in c.get("volumeMounts") or []:
                rule(m.get("name") in vols, f"{name} {c.get('name')} mount {m.get('name')}",
                     "no volume of that name in the pod")
        for vn, v in vols.items():
            if "configMap" in v:
                cm = v["configMap"].get("name")
                rule((ns, cm) in configmaps, f"{name} volume {vn} ConfigMap {cm}",
                     "no such ConfigMap in the file set")
            if "secret" in v:
                # without defaultMode the files are 0644
                modes = [v["secret"].get("defaultMode", 0o644)]
                modes += [i["mode"] for i in v["secret"].get("items") or [] if "mode" in i]
                bad = [oct(m) for m in modes if not isinstance(m, int) or m & 0o077]
                rule(not bad, f"{name} volume {vn} Secret mode",
                     f"mode {bad} lets group or others read a key (use 0400)")

    for f, d in objs:
        if d.get("kind") != "Service":
            continue
        name = f"{f} Service/{d['metadata']['name']}"
        sel = (d.get("spec") or {}).get("selector") or {}
        ns = d["metadata"].get("namespace")
        match = [(wf, w, t) for wf, w, t in workloads
                 if w["metadata"].get("namespace") == ns and sel
                 and all(((t.get("metadata") or {}).get("labels") or {}).get(k) == v
                         for k, v in sel.items())]
        rule(match, f"{name} selector", f"selector {sel} selects no workload's pods")
        if not match:
            continue
        ports = []
        for _, _, t in match:
            for c in (t.get("spec") or {}).get("containers") or []:
                for p in c.get("ports") or []:
                    ports += [p.get("name"), p.get("containerPort")]
        for p in (d.get("spec") or {}).get("ports") or []:
            tp = p.get("targetPort", p.get("port"))
            rule(tp in ports, f"{name} port {p.get('name')}",
                 f"targetPort {tp!r} is no port of the selected pods ({ports})")
    return failed


if __name__ == "__main__":
    args = sys.argv[1:]
    bindir = None
    if args[:1] == ["--bin"] and len(args) > 1:
        bindir, args = args[1], args[2:]
    if not args:
        print("usage: " + __doc__.split("usage: ")[1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(args, bindir))
