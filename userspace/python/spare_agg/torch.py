# SPDX-License-Identifier: GPL-2.0
"""spare_agg.torch: a PyTorch DistributedDataParallel communication hook
that aggregates every gradient bucket through spare-aggd.

    import spare_agg.torch as sat
    model = torch.nn.parallel.DistributedDataParallel(net)
    model.register_comm_hook(sat.State("127.0.0.1:18516", "job", "token"),
                             sat.allreduce_hook)

(fp16_compress_hook and bf16_compress_hook instead of allreduce_hook
aggregate in half precision.) DDP's process group is still needed for
its own set-up (gloo will do); the gradients go to the daemon only.

How buckets map to the job's tensors: the job registers one aggd tensor
per parameter, in the order of the parameters in the first iteration's
buckets, and a bucket is sent as the tensors of its parameters, each from
its slice of the bucket's flat buffer. A job's tensors are fixed when it
registers, and DDP rebuilds its buckets after the first iteration (other
sizes, other parameters together); keyed by parameter, the job's spec
does not depend on the bucket layout, so a rebuilt layout (or any later
one) is the same job, which an operator can move by its one name. The
cost: the first iteration's buckets wait until the last bucket has been
seen (the job's spec needs every parameter). A bucket is one pipelined
request (Client.allreduce_many(): every partition of every parameter
pushed, then all pulled, before the first reply is waited for), not one
allreduce per parameter.

The hook never blocks DDP's autograd thread: it puts the bucket on a
bounded queue (queue_depth buckets; a full queue makes the hook wait) and
returns a torch.futures.Future that a worker thread completes: with the
averaged bucket (each rank's contribution divided by the world size, then
summed by the daemon in its documented order), or with a HookError that
names the daemon's status (a failed allreduce of a DDP iteration raises it
from backward()). After an error every later bucket fails at once with the
same error: no partial sum is ever returned. A job moved to another daemon
is followed by the library (Client.allreduce_many(), as Client.allreduce()).

Only this module imports torch; `import spare_agg` does not.
"""
import queue
import threading

import torch
import torch.distributed as dist

from . import AggError, Client

__all__ = ["State", "HookError", "allreduce_hook", "fp16_compress_hook",
           "bf16_compress_hook"]

_DTYPES = {"float32": torch.float32, "float16": torch.float16,
           "bfloat16": torch.bfloat16}


class HookError(AggError):
    """An aggregation that failed; .status is the daemon's status name
    (EAUTH, ESPEC, EJOBFAIL, ...), "UNREACHABLE" when the daemon could not
    be reached, "TIMEOUT" when it did not answer in time, "ELAYOUT" for a
    bucket that does not fit the job's tensors."""

    def __init__(self, status, message):
        RuntimeError.__init__(self, message)
        self.status = status


def _addr(addr):
    if isinstance(addr, (tuple, list)):
        return str(addr[0]), int(addr[1])
    host, sep, port = str(addr).rpartition(":")
    if not sep:
        return str(addr), 18516
    return host, int(port)


class _Item:
    __slots__ = ("index", "last", "buf", "params", "offsets", "fut", "iteration",
                 "dtype")


class State:
    """One DDP worker's link to a spare-aggd job.

    addr: "host:port", (host, port) or "host" (port 18516). job, token: the
    aggd job's name and token (every rank the same). n_workers and rank
    default to the default process group's world size and rank, read at
    the first bucket. timeout_ms bounds every wait for the daemon (a dead
    worker fails the job at once; this is for a daemon that stops
    answering). queue_depth: buckets waiting for the worker thread before
    the hook waits. tenant, key_file, rdma, src, part_elems and weight are
    Client()'s and register()'s."""

    def __init__(self, addr, job, token, n_workers=None, rank=None, timeout_ms=30000,
                 queue_depth=64, tenant=None, key_file=None, rdma=False, src=None,
                 part_elems=1 << 16, weight=1):
        self.host, self.port = _addr(addr)
        self.job = job
        self.token = token
        self.n_workers = n_workers
        self.rank = rank
        self.timeout_ms = timeout_ms
        self.tenant, self.key_file = tenant, key_file
        self.rdma, self.src = rdma, src
        self.part_elems = part_elems
        self.weight = weight
        self.iteration = 0          # DDP iterations seen (is_last buckets)
        self.dtype = None           # fixed by the first hook call
        self.error = None           # the first failure; every later bucket gets it
        self.params = {}            # id(parameter) -> aggd tensor index
        self._keep = []             # the parameters, so that their ids stay theirs
        self._client = None
        self._pending = []          # first iteration: buckets before the last
        self._queue = queue.Queue(maxsize=queue_depth)
        self._lock = threading.Lock()
        self._thread = None

    # -- the autograd thread's side --------------------------------------

    def _submit(self, bucket, dtype):
        fut = torch.futures.Future()
        # DDP's C++ side takes a Python Future's set_exception() as a value
        # ("Unable to cast ... to Tensor"); a callback that raises marks the
        # chained future failed with the exception's own message
        ret = fut.then(_unwrap)
        with self._lock:
            if self.dtype is None:
                self.dtype = dtype
            if self.error is None and dtype != self.dtype:
                self.error = HookError("ELAYOUT", "spare_agg.torch: job '%s' aggregates %s; "
                                       "a hook of %s was called" % (self.job, self.dtype, dtype))
            if self.error is not None:
                fut.set_exception(self.error)
                return ret
            if self.n_workers is None:
                self.n_workers = dist.get_world_size()
            if self.rank is None:
                self.rank = dist.get_rank()
            it = _Item()
            it.index = bucket.index()
            it.last = bucket.is_last()
            it.buf = bucket.buffer()
            it.params = bucket.parameters()
            base = it.buf.data_ptr()
            esz = it.buf.element_size()
            it.offsets = [(g.data_ptr() - base) // esz for g in bucket.gradients()]
            it.fut = fut
            it.iteration = self.iteration
            it.dtype = dtype
            if it.last:
                self.iteration += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="spare-agg-hook",
                                                daemon=True)
                self._thread.start()
        self._queue.put(it)
        return ret

    # -- the worker thread ---------------------------------------------------

    def _fail(self, status, text, item):
        err = HookError(status, "spare_agg.torch: job '%s' rank %s, iteration %d bucket %d: "
                        "%s: %s" % (self.job, self.rank, item.iteration, item.index,
                                    status, text))
        with self._lock:
            if self.error is None:
                self.error = err
        return self.error

    def _connect_register(self, items):
        try:
            self._client = Client(self.host, self.port, timeout_ms=self.timeout_ms,
                                  rdma=self.rdma, src=self.src, tenant=self.tenant,
                                  key_file=self.key_file)
        except AggError as e:
            raise HookError("UNREACHABLE", "spare-aggd at %s:%d unreachable: %s"
                            % (self.host, self.port, e))
        tensors = []
        for it in items:
            for p in it.params:
                if id(p) not in self.params:
                    self.params[id(p)] = len(tensors)
                    self._keep.append(p)
                    tensors.append(("p%d" % len(tensors), p.numel()))
        dtype = {v: k for k, v in _DTYPES.items()}[items[0].dtype]
        self._client.register(self.job, self.token, self.n_workers, self.rank, tensors,
                              dtype=dtype, part_elems=self.part_elems, weight=self.weight)
        self._sizes = [n for _, n in tensors]

    def _reduce(self, it):
        """The bucket's parameters' slices, each one tensor of the job."""
        if it.dtype == torch.float32:
            src = it.buf.div_(self.n_workers)
        else:   # as torch's fp16_compress_hook: cast, then divide
            src = it.buf.to(it.dtype).div_(self.n_workers)
        out = torch.empty_like(src)
        slices = []
        for p, off in zip(it.params, it.offsets):
            t = self.params.get(id(p))
            n = p.numel()
            if t is None or self._sizes[t] != n or off < 0 or off + n > src.numel():
                raise HookError("ELAYOUT", "bucket %d holds a parameter of %d elements that "
                                "is not among the job's %d tensors" %
                                (it.index, n, len(self._sizes)))
            slices.append((t, off, n))
        # one pipelined request for the whole bucket: every parameter's
        # partitions pushed, then pulled, before waiting for a reply
        self._client.allreduce_many([t for t, _, _ in slices], it.iteration,
                                    [src[off:off + n] for _, off, n in slices],
                                    [out[off:off + n] for _, off, n in slices])
        if it.dtype == torch.float32:
            return out
        it.buf.copy_(out)
        return it.buf

    def _run(self):
        while True:
            it = self._queue.get()
            if it is None:
                return
            if self.error is not None:
                it.fut.set_exception(self.error)
                continue
            if self._client is None:
                # the first iteration: the job's spec needs every parameter
                self._pending.append(it)
                if not it.last:
                    continue
                todo, self._pending = self._pending, []
                try:
                    self._connect_register(todo)
                except Exception as e:
                    err = self._error(e, todo[0])
                    for t in todo:
                        t.fut.set_exception(err)
                    continue
            else:
                todo = [it]
            for t in todo:
                if self.error is not None:
                    t.fut.set_exception(self.error)
                    continue
                try:
                    t.fut.set_result(self._reduce(t))
                except Exception as e:
                    t.fut.set_exception(self._error(e, t))

    def _error(self, e, item):
        if isinstance(e, HookError):
            return self._fail(e.status, str(e), item)
        if isinstance(e, AggError):
            status = e.status
            if status == "OK":      # a local failure: the library's text says which
                status = "TIMEOUT" if "timed out" in str(e).lower() else "ECONN"
            return self._fail(status, str(e), item)
        return self._fail("ELOCAL", "%s: %s" % (type(e).__name__, e), item)

    def close(self):
        """Stop the worker thread and leave the job (once training is done)."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None
        if self._client is not None:
            try:
                if self.error is None:
                    self._client.leave()
            finally:
                self._client.close()
                self._client = None


def _unwrap(fut):
    return fut.wait()


def allreduce_hook(state, bucket):
    """Average the bucket over the job's workers in spare-aggd (fp32: the
    daemon's sum of each rank's bucket / world size, bit for bit)."""
    return state._submit(bucket, torch.float32)


def fp16_compress_hook(state, bucket):
    """As torch's fp16_compress_hook: cast the bucket to float16, divide by
    the world size, aggregate as a float16 job (the daemon sums in binary32
    and rounds once to float16), and write the result back into the bucket."""
    return state._submit(bucket, torch.float16)


def bf16_compress_hook(state, bucket):
    """fp16_compress_hook in bfloat16."""
    return state._submit(bucket, torch.bfloat16)
