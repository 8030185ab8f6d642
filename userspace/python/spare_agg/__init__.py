# SPDX-License-Identifier: GPL-2.0
"""Python binding of libspare-agg, the spare-aggd client (ctypes, no build step).

    from spare_agg import Client
    c = Client("127.0.0.1", 18516, tenant="team-a", key_file="/etc/spare/team-a.key")
    c.register("job", "token", n_workers=4, rank=r,
               tensors=[("grads", n)], dtype="float32")
    c.allreduce(0, step, flat_grad_tensor)   # in place: becomes the sum
    c.leave(); c.close()

If the job is moved to another spare-aggd instance meanwhile, allreduce()
follows it there by itself.

A daemon with a tenants file wants every connection to prove a tenant's key:
tenant= names the tenant and key_file= the file holding its "SPARE-1:" key
(mode 0600); without them the environment's $SPARE_AGG_TENANT and
$SPARE_AGG_TENANT_KEY_FILE are used, if set. The key is never an argument.

Works on any contiguous CPU buffer object with data_ptr() (torch.Tensor) or
a numpy array. The shared library (soname libspare-agg.so.0) is found
through $SPARE_AGG_LIB, then build/lib/ of this source tree, then the
installed one (PREFIX/lib beside PREFIX/lib/python3/dist-packages), then
the loader's path (Debian's libspare-agg0 in the multiarch directory).
Where none has it, the first call raises LibraryNotFound (an OSError)
saying what to install. Packaged with userspace/python/pyproject.toml
(pip wheel; the wheel holds this package only, not the library) and as
Debian's python3-spare-agg.

spare_agg.torch (imported on its own; only it imports torch) is a PyTorch
DistributedDataParallel communication hook that aggregates through
spare-aggd: see its docstring and Documentation/aggd.md, "PyTorch DDP".
"""
import ctypes
import os

DTYPES = {"float32": 1, "float16": 2, "bfloat16": 3}
DTYPE_SIZE = {1: 4, 2: 2, 3: 2}
OPT_NONE, OPT_SGD_MOMENTUM = 0, 1
STATUS = {
    0: "OK", 1: "EPROTO", 2: "EVERSION", 3: "EAUTH", 4: "EINVAL", 5: "ESIZE",
    6: "ENOJOB", 7: "ESEQ", 8: "EJOBFAIL", 9: "ENOMEM", 10: "ESPEC",
    11: "ERANK", 12: "ESTATE", 13: "EMOVED", 14: "ECAP",
}


class AggError(RuntimeError):
    """A failed call; .status is the daemon's status name (or "OK" for a
    local failure such as a lost connection)."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = STATUS.get(status, str(status))


class _Tensor(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("nelem", ctypes.c_uint64)]


class _Job(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p), ("token", ctypes.c_char_p),
        ("n_workers", ctypes.c_uint), ("rank", ctypes.c_uint),
        ("dtype", ctypes.c_uint), ("part_elems", ctypes.c_uint),
        ("weight", ctypes.c_uint), ("opt", ctypes.c_uint),
        ("lr", ctypes.c_float), ("momentum", ctypes.c_float),
    ]


class LibraryNotFound(OSError):
    """libspare-agg.so.0 is on none of the paths the binding looks at.
    The message says what to install."""

    def __init__(self, soname, tried):
        super().__init__(
            "spare_agg: the client library %s is not installed: on Debian, "
            "apt install libspare-agg0; from the spare sources, make install "
            "(or set SPARE_AGG_LIB to a built build/lib/%s) (tried: %s)"
            % (soname, soname, "; ".join(tried)))


_lib = None
# The library's soname: its major version is the ABI this binding speaks.
_SONAME = "libspare-agg.so.0"


def _load():
    global _lib
    if _lib is not None:
        return _lib
    # the package's directory: userspace/python/spare_agg in the sources,
    # PREFIX/lib/python3/dist-packages/spare_agg installed
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.environ.get("SPARE_AGG_LIB"),
                  os.path.join(here, "..", "..", "..", "build", "lib", _SONAME),
                  # installed: PREFIX/lib/python3/dist-packages/spare_agg/
                  # beside PREFIX/lib/libspare-agg.so.0 (make install)
                  os.path.join(here, "..", "..", "..", _SONAME),
                  # the loader's path: Debian's libspare-agg0 in
                  # /usr/lib/<multiarch>/, without the -dev package's link
                  _SONAME]
    tried = []
    for path in candidates:
        if not path:
            continue
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError as e:
            tried.append(str(e))
    else:
        raise LibraryNotFound(_SONAME, tried)
    p, u32, sz = ctypes.c_void_p, ctypes.c_uint32, ctypes.c_size_t
    lib.spare_agg_connect.restype = p
    lib.spare_agg_connect.argtypes = [ctypes.c_char_p, ctypes.c_uint, ctypes.c_char_p, sz]
    lib.spare_agg_connect_rdma.restype = p
    lib.spare_agg_connect_rdma.argtypes = [ctypes.c_char_p, ctypes.c_uint, ctypes.c_char_p,
                                           ctypes.c_char_p, sz]
    lib.spare_agg_close.argtypes = [p]
    lib.spare_agg_set_timeout.argtypes = [p, ctypes.c_uint]
    lib.spare_agg_register.argtypes = [p, ctypes.POINTER(_Job), ctypes.POINTER(_Tensor), ctypes.c_uint]
    lib.spare_agg_n_parts.restype = u32
    lib.spare_agg_n_parts.argtypes = [p]
    lib.spare_agg_part_info.argtypes = [p, u32, ctypes.POINTER(u32),
                                        ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(u32)]
    lib.spare_agg_part_bytes.restype = sz
    lib.spare_agg_part_bytes.argtypes = [p, u32]
    lib.spare_agg_push.argtypes = [p, u32, u32, p, sz]
    lib.spare_agg_pull.argtypes = [p, u32, u32, p, sz]
    lib.spare_agg_set_weights.argtypes = [p, u32, p, sz]
    lib.spare_agg_allreduce.argtypes = [p, u32, u32, p, p]
    if hasattr(lib, "spare_agg_allreduce_many"):     # SPARE_AGG_0.3
        lib.spare_agg_allreduce_many.argtypes = [p, ctypes.c_uint, ctypes.POINTER(u32), u32,
                                                 ctypes.POINTER(p), ctypes.POINTER(p)]
    lib.spare_agg_stats.argtypes = [p, ctypes.POINTER(ctypes.c_void_p)]
    lib.spare_agg_leave.argtypes = [p]
    lib.spare_agg_migrate.argtypes = [p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                      ctypes.c_uint, ctypes.POINTER(u32), ctypes.c_char_p, sz]
    lib.spare_agg_report.argtypes = [p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint64,
                                     ctypes.c_double, ctypes.c_double, ctypes.c_uint64,
                                     ctypes.POINTER(ctypes.c_double), ctypes.POINTER(u32)]
    if hasattr(lib, "spare_agg_set_register_limit"):     # SPARE_AGG_0.4
        lib.spare_agg_set_register_limit.argtypes = [p, ctypes.c_uint]
    try:
        lib.spare_agg_tenant.argtypes = [p, ctypes.c_char_p, ctypes.c_char_p]
    except AttributeError:  # a library older than tenants
        pass
    lib.spare_agg_status.restype = ctypes.c_uint
    lib.spare_agg_status.argtypes = [p]
    lib.spare_agg_error.restype = ctypes.c_char_p
    lib.spare_agg_error.argtypes = [p]
    libc = ctypes.CDLL(None)
    libc.free.argtypes = [p]
    lib._free = libc.free
    _lib = lib
    return lib


def _buffer(obj):
    """(address, bytes) of a contiguous CPU tensor or numpy array."""
    if hasattr(obj, "data_ptr"):
        if getattr(obj, "device", None) is not None and obj.device.type != "cpu":
            raise ValueError("tensor must be on the CPU")
        if not obj.is_contiguous():
            raise ValueError("tensor must be contiguous")
        return obj.data_ptr(), obj.numel() * obj.element_size()
    if hasattr(obj, "ctypes"):
        if not obj.flags["C_CONTIGUOUS"]:
            raise ValueError("array must be C-contiguous")
        return obj.ctypes.data, obj.nbytes
    raise TypeError("need a torch.Tensor or a numpy array")


class Client:
    """One worker's connection to spare-aggd."""

    def __init__(self, host="127.0.0.1", port=18516, timeout_ms=30000, rdma=False, src=None,
                 tenant=None, key_file=None):
        """rdma=True connects over RDMA (rdma_cm) from source address src;
        the daemon must run with --rdma, and partitions then hold at most
        256 KiB. tenant and key_file (default: $SPARE_AGG_TENANT and
        $SPARE_AGG_TENANT_KEY_FILE) prove a tenant's key to a daemon with a
        tenants file; the connection (and any a move makes) is then that
        tenant's."""
        self._lib = _load()
        self._h = None
        err = ctypes.create_string_buffer(256)
        if rdma:
            self._h = self._lib.spare_agg_connect_rdma(host.encode(), port,
                                                       src.encode() if src else None,
                                                       err, len(err))
        else:
            self._h = self._lib.spare_agg_connect(host.encode(), port, err, len(err))
        if not self._h:
            raise AggError(0, err.value.decode())
        self._lib.spare_agg_set_timeout(self._h, timeout_ms)
        self._sizes = []
        self._esz = 0
        tenant = tenant or os.environ.get("SPARE_AGG_TENANT")
        key_file = key_file or os.environ.get("SPARE_AGG_TENANT_KEY_FILE")
        if tenant or key_file:
            if not (tenant and key_file):
                self.close()
                raise ValueError("a tenant needs both its name and its key file")
            ret = self._lib.spare_agg_tenant(self._h, tenant.encode(), key_file.encode())
            if ret != 0:
                err = AggError(self._lib.spare_agg_status(self._h),
                               self._lib.spare_agg_error(self._h).decode())
                self.close()
                raise err

    def _check(self, ret):
        if ret != 0:
            raise AggError(self._lib.spare_agg_status(self._h),
                           self._lib.spare_agg_error(self._h).decode())

    def register(self, job, token, n_workers, rank, tensors, dtype="float32",
                 part_elems=1 << 16, weight=1, sgd=None, limit_ms=None):
        """tensors: list of (name, element count). sgd: (lr, momentum) to have
        the daemon apply SGD with momentum and return weights on pull.
        While the daemon creates a large job it says so every second and
        this waits (spare_agg_register(): by default up to 60 s + 60 s per
        GiB of the job's buffers, at least the timeout); limit_ms sets
        another limit (a library of SPARE_AGG_0.4 or later)."""
        if dtype not in DTYPES:
            raise ValueError("dtype must be one of %s" % sorted(DTYPES))
        if limit_ms is not None:
            if not hasattr(self._lib, "spare_agg_set_register_limit"):
                raise AggError(0, "limit_ms needs libspare-agg SPARE_AGG_0.4 or later")
            self._lib.spare_agg_set_register_limit(self._h, int(limit_ms))
        spec = _Job(job.encode(), token.encode(), n_workers, rank, DTYPES[dtype],
                    part_elems, weight, OPT_SGD_MOMENTUM if sgd else OPT_NONE,
                    sgd[0] if sgd else 0.0, sgd[1] if sgd else 0.0)
        arr = (_Tensor * len(tensors))(*[_Tensor(n.encode(), int(c)) for n, c in tensors])
        self._check(self._lib.spare_agg_register(self._h, ctypes.byref(spec), arr, len(tensors)))
        self._esz = DTYPE_SIZE[DTYPES[dtype]]
        self._sizes = [int(c) * self._esz for _, c in tensors]

    @property
    def n_parts(self):
        return self._lib.spare_agg_n_parts(self._h)

    def part_info(self, part):
        """(tensor index, element offset, element count) of a partition."""
        t, n = ctypes.c_uint32(), ctypes.c_uint32()
        off = ctypes.c_uint64()
        if self._lib.spare_agg_part_info(self._h, part, ctypes.byref(t), ctypes.byref(off),
                                         ctypes.byref(n)):
            raise ValueError("no partition %d" % part)
        return t.value, off.value, n.value

    def allreduce(self, index, iteration, buf, out=None):
        """Push buf as tensor `index` of `iteration`, pull the sum into out
        (default: buf itself)."""
        src, nbytes = _buffer(buf)
        dst, dbytes = _buffer(out) if out is not None else (src, nbytes)
        if index >= len(self._sizes) or nbytes != self._sizes[index] or dbytes != nbytes:
            raise ValueError("tensor %d takes %d bytes, got %d/%d" %
                             (index, self._sizes[index] if index < len(self._sizes) else -1,
                              nbytes, dbytes))
        self._check(self._lib.spare_agg_allreduce(self._h, index, iteration, src, dst))
        return out if out is not None else buf

    def allreduce_many(self, indices, iteration, bufs, outs=None):
        """allreduce() of several distinct tensors at once, pipelined: every
        partition of every one pushed, then every one pulled, before the
        first reply is waited for (spare_agg_allreduce_many(); a library
        older than SPARE_AGG_0.3 does one allreduce() after another)."""
        outs = bufs if outs is None else outs
        if not (len(indices) == len(bufs) == len(outs)):
            raise ValueError("indices, bufs and outs differ in length")
        ins, dsts = [], []
        for index, buf, out in zip(indices, bufs, outs):
            src, nbytes = _buffer(buf)
            dst, dbytes = _buffer(out)
            if index >= len(self._sizes) or nbytes != self._sizes[index] or dbytes != nbytes:
                raise ValueError("tensor %d takes %d bytes, got %d/%d" %
                                 (index, self._sizes[index] if index < len(self._sizes) else -1,
                                  nbytes, dbytes))
            ins.append(src)
            dsts.append(dst)
        if not hasattr(self._lib, "spare_agg_allreduce_many"):
            for index, buf, out in zip(indices, bufs, outs):
                self.allreduce(index, iteration, buf, out)
            return outs
        n = len(indices)
        self._check(self._lib.spare_agg_allreduce_many(
            self._h, n, (ctypes.c_uint32 * n)(*indices), iteration,
            (ctypes.c_void_p * n)(*ins), (ctypes.c_void_p * n)(*dsts)))
        return outs

    def push(self, part, iteration, buf):
        addr, nbytes = _buffer(buf)
        self._check(self._lib.spare_agg_push(self._h, part, iteration, addr, nbytes))

    def pull(self, part, iteration, buf):
        """Raises AggError with status "EMOVED" if the job moved to another
        instance: push this iteration's partitions again, then pull.
        (allreduce() does that by itself.)"""
        addr, nbytes = _buffer(buf)
        self._check(self._lib.spare_agg_pull(self._h, part, iteration, addr, nbytes))
        return buf

    def set_weights(self, part, buf):
        addr, nbytes = _buffer(buf)
        self._check(self._lib.spare_agg_set_weights(self._h, part, addr, nbytes))

    def stats(self):
        text = ctypes.c_void_p()
        self._check(self._lib.spare_agg_stats(self._h, ctypes.byref(text)))
        try:
            return ctypes.string_at(text.value).decode()
        finally:
            self._lib._free(text)

    def migrate(self, job, token, host, port):
        """Admin, on a connection without a job: move `job` to the spare-aggd
        at host:port (numeric IPv4). Returns (first iteration served there,
        the daemon's summary) once the job has moved."""
        it = ctypes.c_uint32()
        msg = ctypes.create_string_buffer(300)
        self._check(self._lib.spare_agg_migrate(self._h, job.encode(), token.encode(),
                                                host.encode(), port, ctypes.byref(it),
                                                msg, len(msg)))
        return it.value, msg.value.decode()

    def report(self, job, token, iteration, loss, cpu_seconds, iter_total=0):
        """Progress report for FlowCon/SpeCon (any connection): `job` is at
        `iteration` (after the last report's) with `loss`, its trainers
        having used `cpu_seconds` so far. Returns (share in cores or None
        when the daemon runs without FlowCon, watched). A refused report
        raises AggError and leaves the connection usable."""
        share = ctypes.c_double()
        flags = ctypes.c_uint32()
        self._check(self._lib.spare_agg_report(self._h, job.encode(), token.encode(),
                                               iteration, loss, cpu_seconds, iter_total,
                                               ctypes.byref(share), ctypes.byref(flags)))
        return (share.value if flags.value & 2 else None), bool(flags.value & 1)

    def leave(self):
        self._check(self._lib.spare_agg_leave(self._h))

    def close(self):
        if getattr(self, "_h", None):
            self._lib.spare_agg_close(self._h)
            self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()
