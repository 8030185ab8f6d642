#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""spare_agg.torch's DDP hook with real torch.nn.parallel.DistributedDataParallel:
4 CPU processes (forked; gloo for DDP's own set-up), a small CNN, a real
spare-aggd that tests/agg/run started.

  ddp_hook.py exact PORT         fp32 hook bit for bit against the rank-order
                                 sum, loss curve against DDP's own allreduce,
                                 fp16 and bf16 hooks (bit for bit against the
                                 daemon's definition, and within a bound of
                                 the fp32 average); the bucket layout changes
  ddp_hook.py batched PORT       a bucket is one pipelined request to the
                                 library (Client.allreduce_many, all of its
                                 parameters), not one allreduce per
                                 parameter; fp32 still bit for bit
  ddp_hook.py overlap PORT       the hook does not block DDP's autograd
                                 thread: rank 3 holds back its backward for
                                 DELAY_S in iteration 2; on ranks 0-2 every
                                 hook call returns in < DELAY_S/4, before
                                 rank 3 starts its backward, while their
                                 futures complete >= 0.9 DELAY_S after the
                                 call; the sums still bit for bit
  ddp_hook.py migrate A_PORT B_PORT   a move from A to B, asked for at
                                 iteration 4, lands mid-training (B's first
                                 iteration in 1..9 of 10); the sums still
                                 bit for bit
  ddp_hook.py unreachable PORT   nothing listens at PORT
  ddp_hook.py wrongtoken PORT    the job exists with another token: EAUTH
  ddp_hook.py spec PORT          the job exists with a smaller spec: ESPEC
  ddp_hook.py killed PORT        rank 3 dies mid-round: EJOBFAIL for the others
                                 (these four: the failed iteration leaves
                                 the weights as they were and every
                                 gradient the rank's own, no sum in it)
  ddp_hook.py buckets PORT       one process, hand-made buckets (no DDP): a
                                 bucket with a parameter the job lacks
                                 (ELAYOUT, nothing sent: the daemon's
                                 count of the job's pushes stays), a
                                 daemon that does not answer in time
                                 (TIMEOUT), and every later bucket failing
                                 with the first error

Exits 0 when every check held, 1 otherwise (each failed check printed).
Every wait is bounded (a rank that does not report within its deadline is
a failure, and is killed).
"""
import copy
import json
import os
import re
import signal
import sys
import tempfile
import threading
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "userspace", "python"))
import spare_agg  # noqa: E402
import spare_agg.torch as sat  # noqa: E402

WORLD = 4
BATCH = 8
LR = 0.05
TIMEOUT_MS = 20000       # the hook's configured timeout (State(timeout_ms=))
# Loss curves of two summation orders of the same fp32 gradients: each
# averaged gradient differs by a few ulps (relative 2^-22 or so), and over
# ITERS small SGD steps the losses drift apart by orders of magnitude less
# than this relative bound.
LOSS_RTOL = 1e-5


def expected_sum_rank_order(contribs):
    """The daemon's documented sum (Documentation/aggd.md, "Summation order
    and kernels"): per element acc = x[rank 0]; acc += x[rank 1]; ... in
    binary32, rounded once to the job's dtype. contribs: one tensor per rank,
    in rank order, of the job's dtype. (If the documented order changes,
    this one function changes with it.)"""
    acc = contribs[0].to(torch.float32).clone()
    for c in contribs[1:]:
        acc += c.to(torch.float32)
    return acc.to(contribs[0].dtype)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(1, 4, 3)
        self.c2 = torch.nn.Conv2d(4, 8, 3)
        self.fc = torch.nn.Linear(8 * 8 * 8, 10)

    def forward(self, x):
        x = torch.relu(self.c1(x))
        x = torch.relu(self.c2(x))
        return self.fc(x.flatten(1))


def data(rank, step):
    g = torch.Generator().manual_seed(1000 * step + rank)
    return torch.randn(BATCH, 1, 12, 12, generator=g), torch.randint(0, 10, (BATCH,), generator=g)


def recording(hook, log):
    """hook, recording each bucket's input (before the hook divides it) and
    the future's result, by (iteration, bucket index)."""
    def wrapped(state, bucket):
        key = (state.iteration, bucket.index())
        log[key] = [bucket.buffer().clone(), None]

        def done(fut):
            log[key][1] = fut.value().clone()
            return fut.value()
        return hook(state, bucket).then(done)
    return wrapped


def timing(hook, log):
    """hook, recording for each call (by (iteration, bucket index)) the
    monotonic time it was called, the time it returned to DDP's autograd
    thread, and the time its future completed. time.monotonic() is
    CLOCK_MONOTONIC, one clock for every process of the machine."""
    def wrapped(state, bucket):
        key = (state.iteration, bucket.index())
        t = log[key] = [time.monotonic(), None, None]

        def done(fut):
            t[2] = time.monotonic()
            return fut.value()
        fut = hook(state, bucket).then(done)
        t[1] = time.monotonic()
        return fut
    return wrapped


def ddp(net, rank):
    # torch 1.13 puts every parameter in one bucket for the first iteration
    # and then rebuilds its buckets in the order gradients became ready,
    # with a first bucket of _DEFAULT_FIRST_BUCKET_BYTES (the knob DDP
    # names for this) and bucket_cap_mb after it: small caps make the
    # rebuilt layout several buckets (check_records checks it changed)
    dist._DEFAULT_FIRST_BUCKET_BYTES = 4096
    return torch.nn.parallel.DistributedDataParallel(net, bucket_cap_mb=0.01)


def train(model, opt, rank, iters, before=None, before_backward=None):
    losses = []
    for step in range(iters):
        if before:
            before(step)
        x, y = data(rank, step)
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        if before_backward:
            before_backward(step)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def check_records(name, log, rank, dtype, fails):
    """Every rank's outputs are the documented sum of all ranks' inputs."""
    mine = {k: (v[0], v[1]) for k, v in log.items()}
    every = [None] * WORLD
    dist.all_gather_object(every, {k: v[0] for k, v in mine.items()})
    layouts = {}
    for (it, idx), (inp, out) in sorted(mine.items()):
        layouts.setdefault(it, []).append(inp.numel())
        if out is None:
            fails.append("%s: iteration %d bucket %d has no result" % (name, it, idx))
            continue
        contribs = [every[r][(it, idx)] for r in range(WORLD)]
        if dtype == torch.float32:
            contribs = [c.div(WORLD) for c in contribs]
            want = expected_sum_rank_order(contribs)
        else:
            want = expected_sum_rank_order([c.to(dtype).div_(WORLD) for c in contribs])
            # The stated tolerance against the fp32 average avg: each rank's
            # x_r/W and the result are rounded once to dtype (unit roundoff u,
            # or half the smallest subnormal step `tiny` below the normal
            # range; the cast and the division are each a rounding), and the
            # fp32 sums on both sides differ by at most (W-1) 2^-24 each, so
            # per element |r - avg| <= (2u + 2^-20) sum|x_r/W| + (2W+1) tiny.
            avg = expected_sum_rank_order([c.div(WORLD) for c in contribs])
            u, tiny = (2.0 ** -11, 2.0 ** -25) if dtype == torch.float16 else (2.0 ** -8, 2.0 ** -134)
            bound = ((2 * u + 2.0 ** -20) * sum(c.div(WORLD).abs() for c in contribs)
                     + (2 * WORLD + 1) * tiny)
            err = (out.to(torch.float32) - avg).abs()
            if not bool((err <= bound).all()):
                fails.append("%s: iteration %d bucket %d: %s result off the fp32 average by %g "
                             "(bound there %g)" % (name, it, idx, dtype, float((err - bound).max()),
                                                   float(bound[(err - bound).argmax()])))
            out = out.to(dtype)
        if out.dtype != want.dtype or not torch.equal(out.view(-1).view(torch.int16 if dtype != torch.float32 else torch.int32),
                                                      want.view(-1).view(torch.int16 if dtype != torch.float32 else torch.int32)):
            diff = (out.to(torch.float32) - want.to(torch.float32)).abs().max()
            fails.append("%s: rank %d iteration %d bucket %d: result is not the rank-order sum "
                         "bit for bit (max diff %g)" % (name, rank, it, idx, float(diff)))
    return layouts


def rank_main(case, rank, args, outdir):
    torch.set_num_threads(1)
    res = {"rank": rank, "fails": [], "error": None}
    try:
        dist.init_process_group("gloo", init_method="file://" + os.path.join(outdir, "pg"),
                                rank=rank, world_size=WORLD)
        torch.manual_seed(0)
        net = Net()
        if case == "exact":
            run_exact(net, rank, args, res)
        elif case == "migrate":
            run_migrate(net, rank, args, res)
        elif case == "batched":
            run_batched(net, rank, args, res)
        elif case == "overlap":
            run_overlap(net, rank, args, res)
        else:
            run_bad(case, net, rank, args, res)
    except Exception as e:  # reported, not hidden: the parent fails the case
        res["error"] = "%s: %s" % (type(e).__name__, e)
    with open(os.path.join(outdir, "r%d.json" % rank), "w") as f:
        json.dump(res, f)
    os._exit(0)     # DDP's and gloo's threads may still wait on a failed peer


def run_exact(net, rank, args, res):
    port = int(args[0])
    fails = res["fails"]
    iters = 6
    nets = [copy.deepcopy(net) for _ in range(4)]
    base = ddp(nets[0], rank)   # DDP's own allreduce (gloo)
    hooked = {}
    for name, hook, dt, m in (("fp32", sat.allreduce_hook, torch.float32, nets[1]),
                              ("fp16", sat.fp16_compress_hook, torch.float16, nets[2]),
                              ("bf16", sat.bf16_compress_hook, torch.bfloat16, nets[3])):
        model = ddp(m, rank)
        state = sat.State("127.0.0.1:%d" % port, "ddp-" + name, "tok-" + name,
                          timeout_ms=TIMEOUT_MS)
        log = {}
        model.register_comm_hook(state, recording(hook, log))
        hooked[name] = (model, state, log, dt)
    curves = {"default": train(base, torch.optim.SGD(base.parameters(), lr=LR), rank, iters)}
    for name, (model, state, log, dt) in hooked.items():
        curves[name] = train(model, torch.optim.SGD(model.parameters(), lr=LR), rank, iters)
        if state.iteration != iters:
            fails.append("%s: the state counted %d iterations, not %d" % (name, state.iteration, iters))
        layouts = check_records(name, log, rank, dt, fails)
        if len({tuple(v) for v in layouts.values()}) < 2:
            fails.append("%s: the bucket layout never changed (%s): the rebuild is not tested"
                         % (name, layouts))
        res.setdefault("layouts", {})[name] = {str(k): v for k, v in layouts.items()}
        state.close()
    for a, b in zip(curves["default"], curves["fp32"]):
        if abs(a - b) > LOSS_RTOL * abs(a):
            fails.append("fp32 loss %r vs DDP's allreduce %r: beyond relative %g" % (b, a, LOSS_RTOL))
    res["curves"] = curves


def run_batched(net, rank, args, res):
    """Count the hook's requests to the library per bucket: one
    Client.allreduce_many with every parameter of the bucket, no
    Client.allreduce. (Before the hook batched, each bucket was one
    allreduce per parameter.)"""
    port = int(args[0])
    fails = res["fails"]
    iters = 4
    calls = {"allreduce": 0, "many": 0, "tensors": 0}
    one = spare_agg.Client.allreduce
    many = getattr(spare_agg.Client, "allreduce_many", None)

    def count_one(self, *a, **k):
        calls["allreduce"] += 1
        return one(self, *a, **k)

    def count_many(self, indices, *a, **k):
        calls["many"] += 1
        calls["tensors"] += len(indices)
        return many(self, indices, *a, **k)
    spare_agg.Client.allreduce = count_one
    if many is not None:
        spare_agg.Client.allreduce_many = count_many
    model = ddp(net, rank)
    state = sat.State("127.0.0.1:%d" % port, "ddp-batched", "tok-b", timeout_ms=TIMEOUT_MS)
    log = {}
    model.register_comm_hook(state, recording(sat.allreduce_hook, log))
    train(model, torch.optim.SGD(model.parameters(), lr=LR), rank, iters)
    state.close()
    check_records("batched", log, rank, torch.float32, fails)
    n_params = len(list(net.parameters()))
    res["calls"] = dict(calls, buckets=len(log), params=n_params)
    if calls["allreduce"] or calls["many"] != len(log) or calls["tensors"] != iters * n_params:
        fails.append("rank %d: %d buckets in %d iterations took %d allreduce and %d allreduce_many "
                     "calls over %d tensors: want one allreduce_many per bucket, %d tensors in all"
                     % (rank, len(log), iters, calls["allreduce"], calls["many"], calls["tensors"],
                        iters * n_params))


# overlap: how long the last rank holds back its backward, and in which
# iteration (not the first: its buckets are held until its last bucket by
# design, and the second's forward rebuilds the buckets through gloo)
DELAY_S = 2.0
DELAY_AT = 2


def run_overlap(net, rank, args, res):
    """The hook must not block DDP's autograd thread (issue 35): the
    daemon cannot answer a pull of iteration DELAY_AT before rank W-1
    pushes, and rank W-1 starts its backward DELAY_S late. On every other
    rank each hook call of that iteration must return at once (well
    before rank W-1 even starts), while its future completes only after
    rank W-1's push. A hook that waits for its aggregation inside the
    call holds the autograd thread for about DELAY_S and fails."""
    port = int(args[0])
    fails = res["fails"]
    iters = 4
    model = ddp(net, rank)
    state = sat.State("127.0.0.1:%d" % port, "ddp-overlap", "tok-ov", timeout_ms=TIMEOUT_MS)
    log, times = {}, {}
    model.register_comm_hook(state, recording(timing(sat.allreduce_hook, times), log))
    late = {}

    def hold(step):
        if rank == WORLD - 1 and step == DELAY_AT:
            late["start"] = time.monotonic()
            time.sleep(DELAY_S)
            late["end"] = time.monotonic()
    train(model, torch.optim.SGD(model.parameters(), lr=LR), rank, iters, before_backward=hold)
    state.close()
    check_records("overlap", log, rank, torch.float32, fails)
    mine = {k: v for k, v in times.items() if k[0] == DELAY_AT}
    res["times"] = {"%d/%d" % k: v for k, v in sorted(times.items())}
    res["late"] = late
    if len(mine) < 2:
        fails.append("rank %d: %d buckets in iteration %d, want several (the rebuilt layout)"
                     % (rank, len(mine), DELAY_AT))
    if rank == WORLD - 1:
        return
    for (it, idx), (called, returned, done) in sorted(mine.items()):
        if done is None:
            fails.append("rank %d: iteration %d bucket %d: the future never completed" % (rank, it, idx))
            continue
        if returned - called >= DELAY_S / 4:
            fails.append("rank %d: iteration %d bucket %d: the hook call held DDP's autograd "
                         "thread %.3f s (want < %.2f s: DELAY_S/4)"
                         % (rank, it, idx, returned - called, DELAY_S / 4))
        if done - called < 0.9 * DELAY_S:
            fails.append("rank %d: iteration %d bucket %d: the future completed %.3f s after the "
                         "call, want >= %.2f s (0.9 DELAY_S): the aggregation did not wait for "
                         "the late rank, so the test proves nothing"
                         % (rank, it, idx, done - called, 0.9 * DELAY_S))


def run_migrate(net, rank, args, res):
    aport, bport = int(args[0]), int(args[1])
    fails = res["fails"]
    iters, at = 10, 4
    model = ddp(net, rank)
    state = sat.State("127.0.0.1:%d" % aport, "ddp-mig", "tok-mig", timeout_ms=TIMEOUT_MS)
    log = {}
    model.register_comm_hook(state, recording(sat.allreduce_hook, log))
    moved = []

    def move():
        try:
            with spare_agg.Client("127.0.0.1", aport) as admin:
                moved.append(admin.migrate("ddp-mig", "tok-mig", "127.0.0.1", bport))
        except Exception as e:
            moved.append(e)

    mover = threading.Thread(target=move)

    def before(step):
        if rank == 0 and step == at:
            mover.start()
    train(model, torch.optim.SGD(model.parameters(), lr=LR), rank, iters, before)
    if rank == 0:
        mover.join(60)
        if not moved or isinstance(moved[0], Exception):
            fails.append("the move failed: %r" % (moved or "did not return in 60 s"))
        else:
            res["moved_at"], res["moved"] = moved[0]
            # mid-training: B serves from the barrier on, A before it;
            # each must have served at least one of the iterations
            if not 0 < moved[0][0] < iters:
                fails.append("the job moved at iteration %d, not within training (1..%d): "
                             "%s" % (moved[0][0], iters - 1, moved[0][1]))
    check_records("migrate", log, rank, torch.float32, fails)
    if state.iteration != iters:
        fails.append("trained %d iterations, not %d" % (state.iteration, iters))
    state.close()


def own_grads(net, x, y):
    """The rank's own gradients of its batch, aggregated with nobody's: the
    same loss backward through a copy of the module, outside DDP."""
    ref = copy.deepcopy(net)
    for p in ref.parameters():
        p.grad = None
    torch.nn.functional.cross_entropy(ref(x), y).backward()
    return [p.grad for p in ref.parameters()]


def run_bad(case, net, rank, args, res):
    port = int(args[0])
    model = ddp(net, rank)
    job, token = "ddp-" + case, "right"
    if case == "wrongtoken":
        token = "wrong"
    state = sat.State("127.0.0.1:%d" % port, job, token, timeout_ms=TIMEOUT_MS)
    hook = sat.allreduce_hook
    if case == "killed":
        def hook(state, bucket):
            if rank == 3 and state.iteration == 2:
                os.kill(os.getpid(), signal.SIGKILL)    # mid-round: the others pushed
            return sat.allreduce_hook(state, bucket)
    model.register_comm_hook(state, hook)
    opt = torch.optim.SGD(model.parameters(), lr=LR)
    done = 0
    t0 = None
    try:
        for step in range(4):
            x, y = data(rank, step)
            # what the iteration starts from, for a failed one to be
            # compared with: the weights, and the rank's own gradients
            kept = [p.detach().clone() for p in model.parameters()]
            own = own_grads(model.module, x, y)
            opt.zero_grad()
            t0 = time.monotonic()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
            done += 1
        res["fails"].append("rank %d: 4 iterations completed; no error raised" % rank)
    except RuntimeError as e:
        res["raised"] = str(e)
        res["raised_after"] = time.monotonic() - t0
        res["iterations_done"] = done
        res["state_status"] = getattr(state.error, "status", None)
        # No partial sum: every bucket of the failed iteration failed, so
        # DDP copied no bucket's result into the gradients (a bucket
        # completed with a partial or a whole sum would have put it in
        # its parameters' .grad), and the optimizer did not step: the
        # weights are those the iteration started from, bit for bit.
        res["weights_kept"] = all(torch.equal(p.detach().view(torch.int32), k.view(torch.int32))
                                  for p, k in zip(model.parameters(), kept))
        res["grads_own"] = all(p.grad is not None and torch.equal(p.grad, g)
                               for p, g in zip(model.parameters(), own))


class FakeBucket:
    """What DDP hands a hook (torch 1.13's GradBucket): a flat buffer and
    its parameters' gradients as views into it."""

    def __init__(self, index, last, params):
        self._i, self._last, self._params = index, last, params
        self._buf = torch.cat([p.grad.reshape(-1) for p in params])
        self._views, off = [], 0
        for p in params:
            self._views.append(self._buf[off:off + p.numel()])
            off += p.numel()

    def index(self):
        return self._i

    def is_last(self):
        return self._last

    def buffer(self):
        return self._buf

    def parameters(self):
        return self._params

    def gradients(self):
        return self._views


def status_of(fut):
    try:
        fut.wait()
        return "OK"
    except Exception as e:      # the chained future's error: HookError's text
        for st in ("ELAYOUT", "TIMEOUT", "EJOBFAIL"):
            if ": %s: " % st in str(e):
                return st
        return "other: %s" % e


def job_pushes(client, job):
    """The daemon's count of the job's PUSH messages (STATS,
    spare_aggd_job_pushes_total), or None when STATS has no such line."""
    m = re.search(r'^spare_aggd_job_pushes_total\{job_name="%s"\} (\d+)$' % re.escape(job),
                  client.stats(), re.M)
    return int(m.group(1)) if m else None


def run_buckets(port):
    fails = []

    def param(n, v):
        p = torch.nn.Parameter(torch.zeros(n))
        p.grad = torch.full((n,), float(v))
        return p
    a, b, c = param(3, 1), param(5, 2), param(7, 3)
    # one worker: a bucket's sum is its own / 1
    st = sat.State("127.0.0.1:%d" % port, "ddp-buckets", "t", n_workers=1, rank=0,
                   timeout_ms=TIMEOUT_MS)
    f0 = sat.allreduce_hook(st, FakeBucket(0, False, [a]))
    f1 = sat.allreduce_hook(st, FakeBucket(1, True, [b]))
    if status_of(f0) != "OK" or status_of(f1) != "OK" or \
       f0.value().tolist() != [1.0] * 3 or f1.value().tolist() != [2.0] * 5:
        fails.append("iteration 0 of two buckets: %s %s" % (status_of(f0), status_of(f1)))
    # iteration 1, rebuilt into one bucket [b, a]: the same job
    f2 = sat.allreduce_hook(st, FakeBucket(0, True, [b, a]))
    if status_of(f2) != "OK" or f2.value().tolist() != [2.0] * 5 + [1.0] * 3:
        fails.append("the rebuilt bucket [b, a]: %s" % status_of(f2))
    # a parameter the job does not have: ELAYOUT, and nothing of the
    # bucket sent, not even the parameter the job has. The daemon's count
    # of the job's pushes is asked on the job's own connection (the
    # worker thread is idle: every future so far has completed), whose
    # messages the daemon reads in order: a push sent before the question
    # is counted in its answer. 4 so far: a and b, then b and a.
    pushed = job_pushes(st._client, "ddp-buckets")
    f3 = sat.allreduce_hook(st, FakeBucket(0, True, [a, c]))
    f4 = sat.allreduce_hook(st, FakeBucket(0, True, [a]))
    if status_of(f3) != "ELAYOUT":
        fails.append("a bucket with a parameter not in the job: %s, not ELAYOUT" % status_of(f3))
    if status_of(f4) != "ELAYOUT":
        fails.append("the bucket after the error: %s, not the same ELAYOUT" % status_of(f4))
    after = job_pushes(st._client, "ddp-buckets")
    print("the daemon's pushes of ddp-buckets: %s before the ELAYOUT buckets, %s after"
          % (pushed, after))
    if pushed != 4:
        fails.append("the daemon counted %s pushes of the job's two iterations, not 4: "
                     "its counter cannot show what the ELAYOUT buckets sent" % pushed)
    if after != pushed:
        fails.append("the ELAYOUT buckets were sent: the daemon's pushes of the job went "
                     "from %s to %s" % (pushed, after))
    st.close()
    # two workers, only rank 0 here: its pull waits for rank 1 until the timeout
    st = sat.State("127.0.0.1:%d" % port, "ddp-timeout", "t", n_workers=2, rank=0,
                   timeout_ms=1500)
    t0 = time.monotonic()
    f5 = sat.allreduce_hook(st, FakeBucket(0, True, [a]))
    got = status_of(f5)
    took = time.monotonic() - t0
    if got != "TIMEOUT" or not 1.0 < took < 10:
        fails.append("a daemon that does not answer: %s after %.1f s, not TIMEOUT after 1.5 s"
                     % (got, took))
    st.close()
    return fails


def check_overlap(res):
    """Across processes (one CLOCK_MONOTONIC): every hook call of
    iteration DELAY_AT on ranks 0..W-2 returned before rank W-1 started
    its backward, and every future of theirs completed after it did."""
    fails = []
    late = (res.get(WORLD - 1) or {}).get("late", {})
    if "end" not in late:
        return ["rank %d did not report its late backward" % (WORLD - 1)]
    print("rank %d held its backward of iteration %d from %.3f to %.3f"
          % (WORLD - 1, DELAY_AT, late["start"], late["end"]))
    for r in range(WORLD - 1):
        times = (res.get(r) or {}).get("times", {})
        calls = [(k, v) for k, v in times.items() if int(k.split("/")[0]) == DELAY_AT]
        held = [v[1] - v[0] for _, v in calls]
        waited = [v[2] - v[0] for _, v in calls if v[2] is not None]
        if calls:
            print("rank %d, iteration %d: %d hook calls, longest %.4f s; futures completed "
                  "%.3f-%.3f s after the call" % (r, DELAY_AT, len(calls), max(held),
                                                  min(waited or [-1]), max(waited or [-1])))
        for k, (called, returned, done) in calls:
            if returned >= late["end"]:
                fails.append("rank %d: hook call %s returned %.3f s after rank %d started its "
                             "late backward" % (r, k, returned - late["end"], WORLD - 1))
            if done is not None and done <= late["end"]:
                fails.append("rank %d: the future of %s completed before rank %d started its "
                             "backward" % (r, k, WORLD - 1))
    return fails


def run_case(case, args):
    fails = []
    if case == "buckets":
        fails = run_buckets(int(args[0]))
        for f in fails:
            print("FAIL-CHECK: " + f)
        return not fails
    outdir = tempfile.mkdtemp(prefix="aggtest.ddp.")
    holder = None
    if case in ("wrongtoken", "spec"):
        # the job exists already: token "right", one tensor of 4 elements
        holder = spare_agg.Client("127.0.0.1", int(args[0]))
        holder.register("ddp-" + case, "right", n_workers=WORLD, rank=0, tensors=[("x", 4)])
    ctx = mp.get_context("fork")
    procs = [ctx.Process(target=rank_main, args=(case, r, args, outdir)) for r in range(WORLD)]
    for p in procs:
        p.start()
    deadline = time.monotonic() + 240
    for p in procs:
        p.join(max(1, deadline - time.monotonic()))
        if p.is_alive():
            fails.append("rank pid %d did not finish within 240 s (killed)" % p.pid)
            p.kill()
            p.join()
    res = {}
    for r in range(WORLD):
        try:
            with open(os.path.join(outdir, "r%d.json" % r)) as f:
                res[r] = json.load(f)
        except OSError:
            res[r] = None
    if holder:
        holder.close()
    for r in range(WORLD):
        x = res[r]
        if case == "killed" and r == 3:
            if x is not None or procs[3].exitcode != -signal.SIGKILL:
                fails.append("rank 3 was to die by SIGKILL (exit %s)" % procs[3].exitcode)
            continue
        if x is None:
            fails.append("rank %d reported nothing (exit %s)" % (r, procs[r].exitcode))
            continue
        if x["error"]:
            fails.append("rank %d: %s" % (r, x["error"]))
        fails.extend(x["fails"])
        if case in ("unreachable", "wrongtoken", "spec", "killed"):
            want = {"unreachable": "UNREACHABLE", "wrongtoken": "EAUTH", "spec": "ESPEC",
                    "killed": "EJOBFAIL"}[case]
            msg = x.get("raised", "")
            print("rank %d raised after %.2f s in iteration %s: %s" %
                  (r, x.get("raised_after", -1), x.get("iterations_done"), msg.splitlines()[0] if msg else ""))
            if want not in msg or "spare_agg.torch" not in msg or x.get("state_status") != want:
                fails.append("rank %d: the DDP iteration did not raise %s (%r, status %r)" %
                             (r, want, msg[:300], x.get("state_status")))
            if case == "unreachable" and "127.0.0.1:%s" % args[0] not in msg:
                fails.append("rank %d: the error does not name the daemon's address" % r)
            if case == "killed":
                if "rank 3" not in msg:
                    fails.append("rank %d: EJOBFAIL does not name rank 3" % r)
                if x.get("iterations_done") != 2:
                    fails.append("rank %d: failed in iteration %s, not 2" % (r, x.get("iterations_done")))
                if not x.get("raised_after", 1e9) < TIMEOUT_MS / 1000:
                    fails.append("rank %d: EJOBFAIL came after %.1f s, beyond the %d ms timeout"
                                 % (r, x.get("raised_after", -1), TIMEOUT_MS))
            elif x.get("iterations_done") != 0:
                fails.append("rank %d: %s iterations done before the error, not 0" % (r, x.get("iterations_done")))
            if not x.get("weights_kept", False):
                fails.append("rank %d: the weights changed in the failed iteration" % r)
            if not x.get("grads_own", False):
                fails.append("rank %d: after the failed iteration a gradient is not the rank's "
                             "own: a bucket's result (a partial sum) reached it" % r)
    if case == "exact" and res.get(0):
        print("losses:", json.dumps(res[0].get("curves")))
        print("bucket layouts by iteration (elements):", json.dumps(res[0].get("layouts")))
    if case == "migrate" and res.get(0):
        print("move: first iteration at B %s: %s" % (res[0].get("moved_at"), res[0].get("moved")))
    if case == "batched" and res.get(0):
        print("rank 0's requests:", json.dumps(res[0].get("calls")))
    if case == "overlap":
        fails.extend(check_overlap(res))
    for f in fails:
        print("FAIL-CHECK: " + f)
    for name in os.listdir(outdir):
        os.unlink(os.path.join(outdir, name))
    os.rmdir(outdir)
    return not fails


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ok = run_case(sys.argv[1], sys.argv[2:])
    print("%s: %s" % (sys.argv[1], "ok" if ok else "FAILED"))
    sys.exit(0 if ok else 1)
