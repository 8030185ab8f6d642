#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""spare-aggd's doors, checked from outside (tests/agg/run starts the daemons).

  doors.py metrics  DATA_PORT ADMIN_PORT
      A job whose name holds '"' and '\\' is registered; STATS on the data port
      is refused (EAUTH), STATS on the admin port is served, and its text is
      parsed strictly as the Prometheus text exposition format (0.0.4): every
      family has # HELP and # TYPE before its samples, a family's samples are
      together, label values are escaped, every value is a number. The job's
      name must come back unchanged after unescaping.
  doors.py import   DATA_PORT ADMIN_PORT
      A stranger sends IMPORT without proving the daemons' key, then a
      PEER_PROOF without a hello, then a PEER_HELLO to a daemon: each gets an
      ERROR EAUTH/ESTATE and its connection closed; the daemon still serves,
      its job list is unchanged and the refusal counter rose by the number
      of refusals.
  doors.py wrongkey SRC_PORT SRC_ADMIN DST_PORT
      A job on SRC is asked to move to DST, which holds another key: the move
      is refused ("did not prove"), the job stays on SRC, not failed, and its
      worker goes on there.
  doors.py migratedoor DATA_PORT ADMIN_PORT
      MIGRATE on the workers' port is refused (EAUTH, closed); on the admin
      port, a target outside --peers is refused (EAUTH); the job stays.
Exits 0 when every check held, 1 otherwise (each failed check printed).
"""
import os
import re
import socket
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "userspace", "python"))
from spare_agg import Client, AggError  # noqa: E402

MAGIC, VERSION, HDR = 0x47474153, 1, 32
MSG_ERROR, MSG_IMPORT = 10, 13
MSG_PEER_HELLO, MSG_PEER_PROOF = 18, 20
EAUTH, ESTATE = 3, 12
WEIRD = 'we"ird\\job'


# ---- a strict parser of the Prometheus text format ----
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r"[a-zA-Z_][a-zA-Z0-9_]*"
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from pycheck import check, verdict  # noqa: E402


def unescape(v):
    out, i = [], 0
    while i < len(v):
        c = v[i]
        if c == "\\":
            if i + 1 >= len(v) or v[i + 1] not in '\\"n':
                raise ValueError("bad escape in label value %r" % v)
            out.append("\n" if v[i + 1] == "n" else v[i + 1])
            i += 2
        elif c == '"':
            raise ValueError("unescaped quote in label value %r" % v)
        else:
            out.append(c)
            i += 1
    return "".join(out)


def parse_labels(s):
    """s: the text between { and }; returns a dict; raises on any flaw."""
    labels, i = {}, 0
    while i < len(s):
        m = re.compile(LABEL).match(s, i)
        if not m:
            raise ValueError("bad label name at %r" % s[i:])
        name, i = m.group(0), m.end()
        if s[i:i + 2] != '="':
            raise ValueError("label %s: expected =\"" % name)
        i += 2
        j = i
        while j < len(s) and s[j] != '"':
            j += 2 if s[j] == "\\" else 1
        if j >= len(s):
            raise ValueError("unterminated label value")
        if name in labels:
            raise ValueError("label %s twice" % name)
        labels[name] = unescape(s[i:j])
        i = j + 1
        if i < len(s):
            if s[i] != ",":
                raise ValueError("expected , between labels")
            i += 1
    return labels


def parse_exposition(text):
    """Returns {family: {"type":..., "help":..., "samples": [(labels, value)]}}."""
    fams, seen_done, current = {}, set(), None
    if not text.endswith("\n"):
        raise ValueError("the text does not end in a newline")
    for n, line in enumerate(text.split("\n")[:-1], 1):
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            parts = line.split(" ", 3)
            if len(parts) < 4 or not re.fullmatch(NAME, parts[2]):
                raise ValueError("line %d: bad %s line" % (n, parts[1]))
            fam = fams.setdefault(parts[2], {"samples": []})
            key = parts[1].lower()
            if key in fam:
                raise ValueError("line %d: second %s for %s" % (n, parts[1], parts[2]))
            if fam["samples"]:
                raise ValueError("line %d: %s after samples of %s" % (n, parts[1], parts[2]))
            if key == "type" and parts[3] not in TYPES:
                raise ValueError("line %d: unknown type %s" % (n, parts[3]))
            fam[key] = parts[3]
            if current and current != parts[2]:
                seen_done.add(current)
            current = parts[2]
            continue
        if line.startswith("#") or not line.strip():
            continue
        m = re.fullmatch(r"(%s)(\{(.*)\})? (\S+)( -?\d+)?" % NAME, line)
        if not m:
            raise ValueError("line %d: not a sample: %r" % (n, line))
        name, labels, value = m.group(1), parse_labels(m.group(3) or ""), m.group(4)
        float(value)  # raises if not a number (NaN, +Inf are floats too)
        fam = fams.get(name)
        if fam is None or "type" not in fam or "help" not in fam:
            raise ValueError("line %d: %s without # HELP and # TYPE before it" % (n, name))
        if name in seen_done:
            raise ValueError("line %d: samples of %s not together" % (n, name))
        if current and current != name:
            seen_done.add(current)
        current = name
        fam["samples"].append((labels, value))
    return fams


def self_test():
    """The parser must refuse what the format forbids."""
    bad = [
        "x 1\n",                                   # no HELP/TYPE
        "# HELP x h\n# TYPE x gauge\nx{a=\"q\"q\"} 1\n",  # unescaped quote
        "# HELP x h\n# TYPE x gauge\nx{a=\"\\q\"} 1\n",  # bad escape
        "# HELP x h\n# TYPE x gauge\nx one\n",     # not a number
        "# HELP x h\n# TYPE x gauge\nx 1\n# HELP y h\n# TYPE y gauge\ny 1\nx 2\n",
        "# HELP x h\n# TYPE x gauge\nx 1",         # no final newline
    ]
    for t in bad:
        try:
            parse_exposition(t)
            check(False, "the parser accepted %r" % t)
        except ValueError:
            pass
    ok = '# HELP x h\n# TYPE x gauge\nx{job_name="a\\"b\\\\c"} 1\n'
    check(parse_exposition(ok)["x"]["samples"][0][0]["job_name"] == 'a"b\\c',
          "the parser reads an escaped label back")


def stats_via(port):
    with Client(port=port) as c:
        return c.stats()


def metric(text, name):
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


def metrics(data_port, admin_port):
    self_test()
    w = Client(port=data_port)
    w.register(WEIRD, "tok", 2, 0, [("t", 16)])
    try:
        stats_via(data_port)
        check(False, "STATS on the data port was served")
    except AggError as e:
        check(e.status == "EAUTH", "STATS on the data port: EAUTH, got %s" % e)
    text = stats_via(admin_port)
    try:
        fams = parse_exposition(text)
    except ValueError as e:
        check(False, "exposition format: %s\n%s" % (e, text))
        return
    jobs = [lab.get("job_name") for lab, _ in fams["spare_aggd_job_failed"]["samples"]]
    check(WEIRD in jobs, "job name %r back from the labels, got %r" % (WEIRD, jobs))
    for name, fam in fams.items():
        check("help" in fam and "type" in fam, "%s has # HELP and # TYPE" % name)
    check(metric(text, "spare_aggd_refused_auth_total") >= 1,
          "the STATS refusal was counted")
    w.close()


def raw(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s


def send_msg(s, mtype, payload=b""):
    s.sendall(struct.pack("<IHHIIIIII", MAGIC, VERSION, mtype, len(payload),
                          0, 0, 0, 0, 0) + payload)


def read_reply(s):
    """(type, status) of the next message, then whether the daemon closed."""
    buf = b""
    while len(buf) < HDR:
        chunk = s.recv(HDR - len(buf))
        if not chunk:
            return None, None, True
        buf += chunk
    _, _, mtype, ln, _, _, _, _, status = struct.unpack("<IHHIIIIII", buf)
    left = ln
    while left:
        chunk = s.recv(left)
        if not chunk:
            break
        left -= len(chunk)
    closed = s.recv(1) == b""
    return mtype, status, closed


def import_refused(data_port, admin_port):
    before = stats_via(admin_port)
    w = Client(port=data_port)
    w.register("doors-job", "tok", 2, 0, [("t", 16)])
    # an IMPORT with a tenant and a REGISTER-sized body, and no proof
    s = raw(data_port)
    send_msg(s, MSG_IMPORT, bytes(32 + 88))
    t, st, closed = read_reply(s)
    check(t == MSG_ERROR and st == EAUTH and closed,
          "IMPORT without the key: ERROR EAUTH and closed (got %s %s %s)" % (t, st, closed))
    s.close()
    # a PEER_PROOF out of turn
    s = raw(data_port)
    send_msg(s, MSG_PEER_PROOF, bytes(32))
    t, st, closed = read_reply(s)
    check(t == MSG_ERROR and st == ESTATE and closed,
          "PEER_PROOF without a hello: ERROR ESTATE and closed (got %s %s %s)" % (t, st, closed))
    s.close()
    # a hello, then a wrong proof
    s = raw(data_port)
    send_msg(s, MSG_PEER_HELLO, os.urandom(32))
    hdr = s.recv(HDR, socket.MSG_WAITALL)
    check(len(hdr) == HDR and struct.unpack("<IHHI", hdr[:12])[2] == 19,
          "PEER_HELLO answered with a PEER_CHALLENGE")
    s.recv(64, socket.MSG_WAITALL)
    send_msg(s, MSG_PEER_PROOF, os.urandom(32))
    t, st, closed = read_reply(s)
    check(t == MSG_ERROR and st == EAUTH and closed,
          "a wrong PEER_PROOF: ERROR EAUTH and closed (got %s %s %s)" % (t, st, closed))
    s.close()
    after = stats_via(admin_port)
    check(metric(after, "spare_aggd_refused_total") - metric(before, "spare_aggd_refused_total") == 3,
          "three refusals counted")
    check(metric(after, "spare_aggd_jobs_created_total") - metric(before, "spare_aggd_jobs_created_total") == 1,
          "no job planted by the stranger")
    check('spare_aggd_job_failed{job_name="doors-job"} 0' in after, "the job present is unharmed")
    w.close()


def wrong_key(src_port, src_admin, dst_port):
    w = Client(port=src_port)
    w.register("wk-job", "tok", 1, 0, [("t", 1024)])
    import numpy
    buf = numpy.ones(1024, dtype=numpy.float32)
    out = numpy.zeros(1024, dtype=numpy.float32)
    w.allreduce(0, 0, buf, out)
    try:
        with Client(port=src_admin) as admin:
            admin.migrate("wk-job", "tok", "127.0.0.1", dst_port)
        check(False, "the move to a daemon with another key succeeded")
    except AggError as e:
        check(e.status == "EAUTH" and "did not prove" in str(e),
              "the move is refused for the key: %s" % e)
    w.allreduce(0, 1, buf, out)
    check(out[0] == 1.0 and out[1023] == 1.0, "the job goes on at the source")
    st = stats_via(src_admin)
    check('spare_aggd_job_failed{job_name="wk-job"} 0' in st, "the job is not failed at the source")
    w.close()


def migrate_door(data_port, admin_port):
    """MIGRATE is the operator's: refused on the workers' port (EAUTH, the
    connection closed), and on the admin port refused to an address that is
    not one of --peers (EAUTH); the job stays and is not failed."""
    w = Client(port=data_port)
    w.register("md-job", "tok", 1, 0, [("t", 16)])
    try:
        with Client(port=data_port) as c:
            c.migrate("md-job", "tok", "127.0.0.1", admin_port)
        check(False, "MIGRATE on the workers' port was served")
    except AggError as e:
        check(e.status == "EAUTH" and "admin" in str(e),
              "MIGRATE on the workers' port: EAUTH naming the admin address, got %s" % e)
    try:
        with Client(port=admin_port) as c:
            c.migrate("md-job", "tok", "127.0.0.2", 9)
        check(False, "MIGRATE to an address outside --peers was served")
    except AggError as e:
        check(e.status == "EAUTH" and "--peers" in str(e),
              "MIGRATE outside --peers: EAUTH naming --peers, got %s" % e)
    st = stats_via(admin_port)
    check('spare_aggd_job_failed{job_name="md-job"} 0' in st and 'spare_aggd_job_moving{job_name="md-job"' not in st,
          "the job stays, not failed, not moving")
    w.close()


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    what, ports = sys.argv[1], [int(p) for p in sys.argv[2:]]
    {"metrics": metrics, "import": import_refused, "wrongkey": wrong_key,
     "migratedoor": migrate_door}[what](*ports)
    return verdict(what)


if __name__ == "__main__":
    sys.exit(main())
