#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Exit 0 when every given state_dict file holds bit-identical tensors."""
import sys

import torch

ref = torch.load(sys.argv[1])
for path in sys.argv[2:]:
    other = torch.load(path)
    for k, v in ref.items():
        if not torch.equal(v, other[k]):
            print("%s: %s differs from %s (max diff %g)" %
                  (path, k, sys.argv[1], (v - other[k]).abs().max().item()))
            sys.exit(1)
print("%d weight files identical to %s" % (len(sys.argv) - 2, sys.argv[1]))
