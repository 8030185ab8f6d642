#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""spare-aggd's tenants (issue 32 item 5), checked from outside as an
attacker holding one tenant's key would try them (tests/agg/run starts the
daemon with the tenants file this script writes first).

  tenants.py keys DIR
      Write DIR/tenants (mode 0600) and one key file per tenant
      (DIR/<name>.key): alice (no caps), bob (no caps), carol
      (jobs=1 conns=2 mem=64K), dave (removed by the reload case).
  tenants.py attack DIR DATA_PORT PID LOG
      - a REGISTER without a tenant proof is refused (EAUTH, closed);
      - squat: alice registers job "x"; bob registers "x" with another
        token and gets his own job (another id); alice's second worker
        still joins hers;
      - a wrong key for alice and an unknown tenant get the same ERROR,
        byte for byte, and the connection is closed;
      - a proof recorded on one connection, replayed on another, fails;
      - carol's caps: a third connection, a second job and a job bigger
        than mem= are refused with ECAP naming the cap; her first job
        still works meanwhile;
      - 1,000 connections with wrong proofs: the daemon lives, its RSS
        grows by at most 16 MiB and its log by at most 256 KiB.
  tenants.py client DIR DATA_PORT
      The Python client (spare_agg.Client with tenant= and key_file=) runs
      an allreduce of two workers as alice, and the same job name as bob
      at the same time.
  tenants.py move DIR A_PORT A_ADMIN_PORT B_PORT
      alice's job moves from daemon A to daemon B (both with the tenants
      file and the daemons' key): bob, proved on A's admin port, cannot
      move it (the same EAUTH as an unknown job); alice can; her worker
      follows the REDIRECT, proves alice again at B and trains on; bob's
      job of the same name on B is his own.
  tenants.py reload DIR DATA_PORT PID
      dave's job is running; dave is removed from the tenants file and the
      daemon gets SIGHUP: his job finishes its iteration, a new
      authentication as dave is refused, alice still registers.
Exits 0 when every check held, 1 otherwise (each failed check printed).
"""
import base64
import ctypes
import hashlib
import hmac
import os
import signal
import socket
import struct
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
from pycheck import check, verdict  # noqa: E402

MAGIC, VERSION, HDR = 0x47474153, 1, 32
MSG_REGISTER, MSG_REGISTER_REPLY, MSG_PUSH, MSG_PULL, MSG_PULL_REPLY = 1, 2, 3, 4, 5
MSG_ERROR = 10
MSG_TENANT_HELLO, MSG_TENANT_CHALLENGE, MSG_TENANT_PROOF, MSG_TENANT_REPLY = 23, 24, 25, 26
EAUTH, ECAP = 3, 14
LABEL = b"spare-aggd tenant 1"


def keytext(key):
    blob = key + struct.pack("<I", zlib.crc32(key) & 0xffffffff)
    return "SPARE-1:" + base64.b64encode(blob).decode()


def write_keys(d):
    lines = []
    caps = {"alice": "", "bob": "", "carol": " jobs=1 conns=2 mem=64K", "dave": ""}
    for name, cap in caps.items():
        key = os.urandom(32)
        path = os.path.join(d, name + ".key")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.write(fd, (keytext(key) + "\n").encode())
        os.close(fd)
        lines.append("%s %s%s" % (name, keytext(key), cap))
    fd = os.open(os.path.join(d, "tenants"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.write(fd, ("# tenants.py\n" + "\n".join(lines) + "\n").encode())
    os.close(fd)


def read_key(d, name):
    t = open(os.path.join(d, name + ".key")).read().strip()
    return base64.b64decode(t[len("SPARE-1:"):])[:32]


def hdr(t, ln, job_id=0, part=0, it=0, rank=0, status=0):
    return struct.pack("<IHHIIIIII", MAGIC, VERSION, t, ln, job_id, part, it, rank, status)


def pad(s, n=32):
    b = s.encode()
    return b + b"\0" * (n - len(b))


def recv_exact(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise EOFError("closed after %d of %d bytes" % (len(b), n))
        b += c
    return b


def recv_msg(s):
    h = recv_exact(s, HDR)
    f = struct.unpack("<IHHIIIIII", h)
    body = recv_exact(s, f[3]) if f[3] else b""
    return f[2], f, body


def closed(s):
    """True if the daemon closed the connection (EOF within 3 s)."""
    s.settimeout(3)
    try:
        return s.recv(1) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s


def hello(s, tenant):
    nc = os.urandom(32)
    s.sendall(hdr(MSG_TENANT_HELLO, 64) + pad(tenant) + nc)
    t, f, body = recv_msg(s)
    if t != MSG_TENANT_CHALLENGE or len(body) != 32:
        raise RuntimeError("no TENANT_CHALLENGE (type %d)" % t)
    return nc, body


def proof(key, tenant, nc, nd):
    return hmac.new(key, LABEL + pad(tenant) + nc + nd, hashlib.sha256).digest()


def login(port, tenant, key):
    """A connection authenticated as tenant, or (None, type, status, text)."""
    s = connect(port)
    nc, nd = hello(s, tenant)
    s.sendall(hdr(MSG_TENANT_PROOF, 32) + proof(key, tenant, nc, nd))
    t, f, body = recv_msg(s)
    if t == MSG_TENANT_REPLY:
        return s, t, 0, b""
    s.close()
    return None, t, f[8], body


def reg_payload(job, token, n_workers=1, rank=0, nelem=16):
    fixed = pad(job) + pad(token) + struct.pack("<HHBBHIIff", n_workers, rank, 1, 0, 1, 1 << 16, 1, 0.0, 0.0)
    return fixed + pad("t") + struct.pack("<Q", nelem)


def register(s, job, token, n_workers=1, rank=0, nelem=16):
    p = reg_payload(job, token, n_workers, rank, nelem)
    s.sendall(hdr(MSG_REGISTER, len(p), rank=rank) + p)
    t, f, body = recv_msg(s)
    return t, f, body


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def attack(d, port, pid, log):
    keys = {n: read_key(d, n) for n in ("alice", "bob", "carol")}

    # no proof: REGISTER refused
    s = connect(port)
    t, f, body = register(s, "x", "tok")
    check(t == MSG_ERROR and f[8] == EAUTH, "REGISTER without a tenant proof: got type %d status %d" % (t, f[8]))
    check(closed(s), "connection left open after an unproven REGISTER")
    s.close()

    # squat: the same job name under two tenants is two jobs
    a1, _, _, _ = login(port, "alice", keys["alice"])
    check(a1 is not None, "alice could not authenticate")
    t, fa, _ = register(a1, "x", "alice-token", n_workers=2, rank=0)
    check(t == MSG_REGISTER_REPLY, "alice's REGISTER of 'x' refused (type %d status %d)" % (t, fa[8]))
    b1, _, _, _ = login(port, "bob", keys["bob"])
    check(b1 is not None, "bob could not authenticate")
    t, fb, body = register(b1, "x", "bob-token", n_workers=1, rank=0)
    check(t == MSG_REGISTER_REPLY, "bob's 'x' refused: the name was squatted (type %d status %d %r)" % (t, fb[8], body))
    check(t != MSG_REGISTER_REPLY or fa[4] != fb[4], "alice's and bob's 'x' are the same job id %d" % fa[4])
    a2, _, _, _ = login(port, "alice", keys["alice"])
    t, f2, _ = register(a2, "x", "alice-token", n_workers=2, rank=1)
    check(t == MSG_REGISTER_REPLY and f2[4] == fa[4], "alice's rank 1 did not join her job 'x'")
    # bob with alice's job name and alice's token still gets bob's own job space
    for s in (a1, a2, b1):
        s.close()

    # wrong key and unknown tenant: the same answer, and closed
    _, t1, st1, txt1 = login(port, "alice", os.urandom(32))
    _, t2, st2, txt2 = login(port, "mallory", os.urandom(32))
    check(t1 == MSG_ERROR and st1 == EAUTH, "wrong key: type %d status %d" % (t1, st1))
    check((t1, st1, txt1) == (t2, st2, txt2), "wrong key and unknown tenant answered differently: %r / %r" % (txt1, txt2))
    s = connect(port)
    nc, nd = hello(s, "alice")
    s.sendall(hdr(MSG_TENANT_PROOF, 32) + os.urandom(32))
    recv_msg(s)
    check(closed(s), "connection left open after a failed tenant proof")
    s.close()

    # replay: a proof recorded on one connection is worthless on another
    s1 = connect(port)
    nc, nd = hello(s1, "alice")
    good = proof(keys["alice"], "alice", nc, nd)
    s2 = connect(port)
    s2.sendall(hdr(MSG_TENANT_HELLO, 64) + pad("alice") + nc)
    recv_msg(s2)
    s2.sendall(hdr(MSG_TENANT_PROOF, 32) + good)
    t, f, _ = recv_msg(s2)
    check(t == MSG_ERROR and f[8] == EAUTH, "a replayed proof was accepted (type %d)" % t)
    s1.close()
    s2.close()

    # carol's caps: jobs=1 conns=2 mem=64K
    c1, _, _, _ = login(port, "carol", keys["carol"])
    t, fc1, _ = register(c1, "c1", "ct")
    check(t == MSG_REGISTER_REPLY, "carol's first job refused (status %d)" % fc1[8])
    c2, _, _, _ = login(port, "carol", keys["carol"])
    check(c2 is not None, "carol's second connection refused (conns=2)")
    c3, t, st, body = login(port, "carol", keys["carol"])
    check(c3 is None and st == ECAP and b"conns" in body,
          "carol's third connection: status %d %r (want ECAP naming conns)" % (st, body))
    if c2:
        # a second job is over jobs=1 (and the refusal closes c2)
        t, f, body = register(c2, "c2", "ct")
        check(t == MSG_ERROR and f[8] == ECAP and b"jobs" in body,
              "carol's second job: type %d status %d %r (want ECAP naming jobs)" % (t, f[8], body))
        check(closed(c2), "connection left open after a cap refusal")
        c2.close()
    time.sleep(0.3)
    c4, _, _, _ = login(port, "carol", keys["carol"])
    check(c4 is not None, "carol could not connect again after one of hers closed")
    if c4:
        c1.sendall(hdr(MSG_PUSH, 64, job_id=fc1[4], part=0, it=0) + b"\0" * 64)
        c1.sendall(hdr(MSG_PULL, 0, job_id=fc1[4], part=0, it=0))
        t, f, body = recv_msg(c1)
        check(t == MSG_PULL_REPLY, "carol's first job: no PULL_REPLY (type %d %r)" % (t, body))
        c1.sendall(hdr(7, 0, job_id=fc1[4]))  # LEAVE: the job goes
        c1.close()
        time.sleep(0.3)
        # a job of 1 Mi elements (4 MiB) is over mem=64K
        t, f, body = register(c4, "big", "ct", nelem=1 << 20)
        check(t == MSG_ERROR and f[8] == ECAP and b"mem cap" in body,
              "carol's big job: type %d status %d %r (want ECAP naming mem)" % (t, f[8], body))
        c4.close()

    # 1,000 wrong proofs: the daemon lives, bounded memory and log
    rss0 = rss_kib(pid)
    log0 = os.path.getsize(log)
    for i in range(1000):
        s = connect(port)
        try:
            hello(s, "alice" if i % 2 else "nobody%d" % i)
            s.sendall(hdr(MSG_TENANT_PROOF, 32) + os.urandom(32))
            recv_msg(s)
        except (EOFError, OSError):
            pass
        s.close()
    time.sleep(0.5)
    try:
        os.kill(pid, 0)
        alive = True
    except OSError:
        alive = False
    check(alive, "the daemon died under 1,000 wrong proofs")
    if alive:
        grow = rss_kib(pid) - rss0
        print("RSS grew %d KiB under 1,000 wrong proofs" % grow)
        check(grow <= 16 * 1024, "RSS grew %d KiB (> 16 MiB)" % grow)
    lg = os.path.getsize(log) - log0
    print("log grew %d bytes under 1,000 wrong proofs" % lg)
    check(lg <= 256 * 1024, "log grew %d bytes (> 256 KiB)" % lg)
    a, _, _, _ = login(port, "alice", keys["alice"])
    check(a is not None, "alice cannot authenticate after the flood")
    if a:
        t, f, _ = register(a, "after", "tok")
        check(t == MSG_REGISTER_REPLY, "alice's REGISTER after the flood refused")
        a.close()


class Floats:
    """What Client takes of a torch.Tensor (no torch or numpy here)."""
    def __init__(self, vals):
        self.buf = (ctypes.c_float * len(vals))(*vals)

    def data_ptr(self):
        return ctypes.addressof(self.buf)

    def numel(self):
        return len(self.buf)

    def element_size(self):
        return 4

    def is_contiguous(self):
        return True


def client(d, port):
    sys.path.insert(0, os.path.join(HERE, "..", "..", "userspace", "python"))
    import threading
    from spare_agg import Client, AggError

    res, errs = {}, []

    def worker(tenant, rank, n, val):
        try:
            with Client("127.0.0.1", port, tenant=tenant,
                        key_file=os.path.join(d, tenant + ".key")) as c:
                c.register("shared-name", tenant + "-tok", n, rank, [("g", 8)])
                buf, out = Floats([val] * 8), Floats([0.0] * 8)
                c.allreduce(0, 0, buf, out)
                res[(tenant, rank)] = list(out.buf)
        except Exception as e:  # reported as a failed check below
            errs.append("%s rank %d: %s" % (tenant, rank, e))

    th = [threading.Thread(target=worker, args=a) for a in
          (("alice", 0, 2, 1.0), ("alice", 1, 2, 2.0), ("bob", 0, 1, 5.0))]
    for t in th:
        t.start()
    for t in th:
        t.join(60)
    check(not errs, "client errors: %s" % errs)
    check(res.get(("alice", 0)) == [3.0] * 8, "alice's sum: %r" % res.get(("alice", 0)))
    check(res.get(("bob", 0)) == [5.0] * 8, "bob's sum: %r" % res.get(("bob", 0)))
    try:
        Client("127.0.0.1", port, tenant="alice", key_file=os.path.join(d, "bob.key"))
        check(False, "the client authenticated alice with bob's key")
    except AggError as e:
        check(e.status == "EAUTH", "wrong key: %s" % e)


def move(d, a_port, a_admin, b_port):
    sys.path.insert(0, os.path.join(HERE, "..", "..", "userspace", "python"))
    from spare_agg import Client, AggError

    def key(t):
        return os.path.join(d, t + ".key")

    def train(c, it, val):
        buf, out = Floats([val] * 8), Floats([0.0] * 8)
        c.allreduce(0, it, buf, out)
        return list(out.buf) == [val] * 8

    w = Client("127.0.0.1", a_port, tenant="alice", key_file=key("alice"))
    w.register("mv", "tok", 1, 0, [("g", 8)])
    check(train(w, 0, 1.0), "alice's job trains on A")
    with Client("127.0.0.1", a_admin, tenant="bob", key_file=key("bob")) as adm:
        try:
            adm.migrate("mv", "tok", "127.0.0.1", b_port)
            check(False, "bob moved alice's job")
        except AggError as e:
            check(e.status == "EAUTH" and "no job 'mv' with that token" in str(e),
                  "bob's MIGRATE of alice's job: %s" % e)
    try:
        with Client("127.0.0.1", a_admin, tenant="alice", key_file=key("alice")) as adm:
            it, msg = adm.migrate("mv", "tok", "127.0.0.1", b_port)
            print(msg)
    except AggError as e:
        check(False, "alice's MIGRATE refused: %s" % e)
    try:
        check(train(w, 1, 2.0), "alice's job after the move: wrong sum")
    except AggError as e:
        # the library repeats the iteration at B after the REDIRECT
        check(e.status == "EMOVED" and train(w, 1, 2.0), "alice's worker after the move: %s" % e)
    check(w._lib.spare_agg_job_id(w._h) != 0, "no job id at B")
    check(train(w, 2, 3.0), "alice's job trains on at B")
    w.close()
    b = Client("127.0.0.1", b_port, tenant="bob", key_file=key("bob"))
    try:
        b.register("mv", "other", 1, 0, [("g", 8)])
        check(train(b, 0, 4.0), "bob's own 'mv' on B trains")
    except AggError as e:
        check(False, "bob's 'mv' on B refused: %s" % e)
    b.close()


def reload(d, port, pid):
    keys = {n: read_key(d, n) for n in ("alice", "dave")}
    dv, _, _, _ = login(port, "dave", keys["dave"])
    check(dv is not None, "dave could not authenticate")
    if not dv:
        return
    t, f, _ = register(dv, "dj", "dt")
    check(t == MSG_REGISTER_REPLY, "dave's job refused")
    path = os.path.join(d, "tenants")
    lines = [ln for ln in open(path) if not ln.startswith("dave ")]
    with open(path, "w") as fh:
        fh.writelines(lines)
    os.kill(pid, signal.SIGHUP)
    time.sleep(1)
    dv.sendall(hdr(MSG_PUSH, 64, job_id=f[4], part=0, it=0) + b"\0" * 64)
    dv.sendall(hdr(MSG_PULL, 0, job_id=f[4], part=0, it=0))
    t, f2, body = recv_msg(dv)
    check(t == MSG_PULL_REPLY, "dave's running job did not finish its iteration after the reload (type %d %r)" % (t, body))
    dv.close()
    s, t, st, body = login(port, "dave", keys["dave"])
    check(s is None and st == EAUTH, "dave authenticated after his removal (status %d)" % st)
    a, _, _, _ = login(port, "alice", keys["alice"])
    check(a is not None, "alice refused after the reload")
    if a:
        t, f, _ = register(a, "after-reload", "tok")
        check(t == MSG_REGISTER_REPLY, "alice's REGISTER after the reload refused")
        a.close()


def main():
    cmd = sys.argv[1]
    if cmd == "keys":
        write_keys(sys.argv[2])
        return 0
    if cmd == "attack":
        attack(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif cmd == "client":
        client(sys.argv[2], int(sys.argv[3]))
    elif cmd == "move":
        move(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    elif cmd == "reload":
        reload(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    return verdict("tenants " + cmd)


if __name__ == "__main__":
    sys.exit(main())
