#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""DistributedDataParallel training whose gradients spare-aggd averages:
the training loop is PyTorch's own, and one line hands DDP's buckets to
the daemon (spare_agg.torch.allreduce_hook).

    for r in 0 1 2 3; do
        RANK=$r WORLD_SIZE=4 MASTER_ADDR=127.0.0.1 MASTER_PORT=29500 \\
            python3 ddp_hook.py --agg 127.0.0.1:18516 --job ex --token secret [--fp16] &
    done; wait

RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT are what torchrun sets (its
launcher in Debian's python3-torch 1.13 fails under Python 3.11, hence the
loop). DDP's own set-up (its parameter broadcast, the bucket rebuild) goes
over gloo, the gradients over spare-aggd. For a daemon with a tenants
file, set $SPARE_AGG_TENANT and $SPARE_AGG_TENANT_KEY_FILE.
"""
import argparse
import os
import sys

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import spare_agg.torch  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--agg", default="127.0.0.1:18516", help="spare-aggd HOST:PORT")
    ap.add_argument("--job", default="ddp-example")
    ap.add_argument("--token", default="example-token")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--fp16", action="store_true", help="aggregate in float16")
    a = ap.parse_args()

    dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(1, 8, 3), torch.nn.ReLU(), torch.nn.Flatten(),
                              torch.nn.Linear(8 * 26 * 26, 10))
    model = torch.nn.parallel.DistributedDataParallel(net)

    # the one line (state kept here only to leave the job at the end)
    state = spare_agg.torch.State(a.agg, a.job, a.token)
    model.register_comm_hook(state, spare_agg.torch.fp16_compress_hook if a.fp16
                             else spare_agg.torch.allreduce_hook)

    opt = torch.optim.SGD(model.parameters(), lr=0.02)
    g = torch.Generator().manual_seed(rank)
    # learnable labels: the class a fixed random projection ranks highest
    w_true = torch.randn(28 * 28, 10, generator=torch.Generator().manual_seed(7))
    for step in range(a.steps):
        x = torch.randn(32, 1, 28, 28, generator=g)
        y = (x.flatten(1) @ w_true).argmax(dim=1)
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()     # a failed aggregation raises here, naming the daemon's status
        opt.step()
        if rank == 0:
            print("step %d loss %.4f" % (step, loss.item()), flush=True)
    state.close()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
