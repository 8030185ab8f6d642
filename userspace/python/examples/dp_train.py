#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Data-parallel training of a small MLP whose gradients are summed by
spare-aggd, and the same training with the sums done locally.

    dp_train.py worker --rank R --world W --port P --out FILE   (one per worker)
    dp_train.py local  --world W --out FILE                     (reference)

With --migrate-to HOST:PORT, rank 0 asks the daemon (from a second thread,
while training goes on) to move the job to that spare-aggd at step
--migrate-at; the workers follow it there without noticing.

Against a daemon with a tenants file, set $SPARE_AGG_TENANT and
$SPARE_AGG_TENANT_KEY_FILE (the tenant's name and the file holding its key):
every Client this script makes proves that tenant (spare_agg.Client).

Every worker holds the same model, computes gradients on its shard of each
batch, and allreduces one flat fp32 buffer of all gradients. The daemon sums
in rank order in fp32, exactly like the local reference (acc = g0; acc += g1
...), so both runs reach bit-identical weights; tests/agg/run checks that.
"""
import argparse
import os
import sys
import threading

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

STEPS, BATCH, DIM, HIDDEN, CLASSES = 30, 96, 32, 64, 10


def make_model():
    torch.manual_seed(1234)
    return torch.nn.Sequential(torch.nn.Linear(DIM, HIDDEN), torch.nn.ReLU(),
                               torch.nn.Linear(HIDDEN, CLASSES))


def batch(step):
    g = torch.Generator().manual_seed(step)
    x = torch.randn(BATCH, DIM, generator=g)
    # learnable labels: the class a fixed random projection ranks highest
    w_true = torch.randn(DIM, CLASSES, generator=torch.Generator().manual_seed(7))
    return x, (x @ w_true).argmax(dim=1)


def shard_grads(model, step, rank, world):
    """Flat fp32 gradient of worker `rank` for `step`."""
    x, y = batch(step)
    per = BATCH // world
    xs, ys = x[rank * per:(rank + 1) * per], y[rank * per:(rank + 1) * per]
    model.zero_grad()
    torch.nn.functional.cross_entropy(model(xs), ys).backward()
    return torch.cat([p.grad.reshape(-1) for p in model.parameters()]).contiguous()


def apply(model, opt, flat_sum, world):
    mean = flat_sum / world
    off = 0
    for p in model.parameters():
        n = p.numel()
        p.grad = mean[off:off + n].view_as(p).clone()
        off += n
    opt.step()


def migrate(a, result):
    """Admin call on its own connection; returns once the job has moved."""
    from spare_agg import Client
    host, port = a.migrate_to.rsplit(":", 1)
    with Client(a.host, a.port, timeout_ms=120000) as admin:
        _, msg = admin.migrate(a.job, a.token, host, int(port))
        result.append(msg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["worker", "local"])
    ap.add_argument("--rank", type=int, default=0)
    ap.add_argument("--world", type=int, default=2)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=18516)
    ap.add_argument("--job", default="dp-train")
    ap.add_argument("--token", default="dp-token")
    ap.add_argument("--out", required=True)
    ap.add_argument("--migrate-to", default=None, metavar="HOST:PORT")
    ap.add_argument("--migrate-at", type=int, default=10)
    a = ap.parse_args()

    torch.set_num_threads(1)
    model = make_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    n = sum(p.numel() for p in model.parameters())
    x_test, y_test = batch(10**6)
    with torch.no_grad():
        loss0 = torch.nn.functional.cross_entropy(model(x_test), y_test).item()

    if a.mode == "local":
        for step in range(STEPS):
            grads = [shard_grads(model, step, r, a.world) for r in range(a.world)]
            acc = grads[0].clone()
            for g in grads[1:]:
                acc += g
            apply(model, opt, acc, a.world)
    else:
        from spare_agg import Client
        c = Client(a.host, a.port)
        c.register(a.job, a.token, a.world, a.rank, [("grads", n)],
                   part_elems=1024)
        moved, mover = [], None
        for step in range(STEPS):
            if a.migrate_to and a.rank == 0 and step == a.migrate_at:
                mover = threading.Thread(target=migrate, args=(a, moved))
                mover.start()
            flat = shard_grads(model, step, a.rank, a.world)
            c.allreduce(0, step, flat)
            apply(model, opt, flat, a.world)
        c.leave()
        c.close()
        if mover:
            mover.join()
            if not moved:
                sys.exit("rank 0: the job did not move")
            print("rank 0: asked at step %d: %s" % (a.migrate_at, moved[0]))
    torch.save(model.state_dict(), a.out)
    with torch.no_grad():
        loss = torch.nn.functional.cross_entropy(model(x_test), y_test).item()
    print("%s rank %d: %d steps, %d parameters, held-out loss %.6f -> %.6f" %
          (a.mode, a.rank, STEPS, n, loss0, loss))


if __name__ == "__main__":
    main()
