# SPDX-License-Identifier: GPL-2.0
"""Run the Tiresias reference simulator (SymbioticLab/Tiresias, simulator/)
under python3 with the smallest shims that keep its Python 2 arithmetic.

    python3 ref-shim.py SIMULATOR_DIR QUEUE_LIMITS [run_sim.py flags...]

QUEUE_LIMITS is "a,b" (GPU-seconds) or "-" for the reference's defaults.
The shims, and nothing else:
  * sys.maxint = sys.maxsize (2**63-1 on 64-bit, as on Python 2);
  * in modules without "from __future__ import division", every "/" is
    Python 2 division (floor when both operands are ints);
  * round() rounds half away from zero, as Python 2's did;
  * lp.py imports IBM CPLEX for a placement scheme these runs never use:
    an empty stand-in module satisfies the import.
This file contains no code of the reference; it only loads it.
"""
import ast
import builtins
import decimal
import importlib.abc
import importlib.util
import os
import sys
import types

import numpy  # noqa: F401  (imported by the reference; load it before the shims)

simdir, limits = sys.argv[1], sys.argv[2]
sys.argv = [os.path.join(simdir, "run_sim.py")] + sys.argv[3:]
sys.maxint = sys.maxsize


def py2_round(x, n=0):
    q = decimal.Decimal(1).scaleb(-n)
    return float(decimal.Decimal(x).quantize(q, rounding=decimal.ROUND_HALF_UP))


def py2_div(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a // b
    return a / b


builtins.round = py2_round
builtins.py2_div = py2_div

for name in ("cplex", "cplex.exceptions", "cplex.six", "cplex.six.moves"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["cplex.exceptions"].CplexError = Exception
sys.modules["cplex.six.moves"].range = range


class Py2Div(ast.NodeTransformer):
    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Div):
            call = ast.Call(func=ast.Name(id="py2_div", ctx=ast.Load()),
                            args=[node.left, node.right], keywords=[])
            return ast.copy_location(call, node)
        return node


class Loader(importlib.abc.SourceLoader):
    def __init__(self, path):
        self.path = path

    def get_filename(self, fullname):
        return self.path

    def get_data(self, path):
        with open(path, "rb") as f:
            return f.read()

    def source_to_code(self, data, path, *, _optimize=-1):
        tree = ast.parse(data, path)
        if b"from __future__ import division" not in data:
            tree = ast.fix_missing_locations(Py2Div().visit(tree))
        return compile(tree, path, "exec", dont_inherit=True)


class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        p = os.path.join(simdir, fullname + ".py")
        if "." in fullname or not os.path.exists(p):
            return None
        return importlib.util.spec_from_file_location(fullname, p, loader=Loader(p))


sys.meta_path.insert(0, Finder())
os.chdir(simdir)  # dlas-gpu-gittins reads yarn-gput1000.csv from the cwd
import jobs  # noqa: E402

if limits != "-":
    a, b = (int(v) for v in limits.split(","))
    jobs.JOBS.queue_limit[0:2] = [a, b]
sys.modules["__main__"].__dict__.pop("run_sim", None)
spec = importlib.util.spec_from_file_location("__refmain__", os.path.join(simdir, "run_sim.py"),
                                              loader=Loader(os.path.join(simdir, "run_sim.py")))
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
mod.main()
