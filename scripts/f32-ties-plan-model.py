#!/usr/bin/env python3
"""Plans from tree sums against the f32 loop on a stream shaped like gpu-timing-f32's half-ties
stream (kernels/ordered_sum_onepass.cu, op_fill_value kind 2 with the f32 grid: each term
1 - q, q uniform in [0.5, 1), snapped to half an ulp of an f32 sum near (i + 4) / 4), drawn by
numpy's generator (seed 1) rather than the kernel's hash. Prints, for tiles of 4,096 terms,
how many tiles' plans (the binade of the f64 prefix of tile sums, taken to f32) differ from
the binade of the f32 loop's sum before the tile, where they are, where the loop reaches 2^23,
and how many tiles hold only zeros (from (i + 4) / 4 >= 2^24 on, the grid is 1 and every
term rounds to 0). Usage: scripts/f32-ties-plan-model.py [TERMS] (default 3 * 2^25, about 10^8)."""
import sys

import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 3 << 25
tile = 4096
n -= n % tile
rng = np.random.default_rng(1)
i = np.arange(n, dtype=np.float64)
grid = 2.0 ** (np.floor(np.log2((i + 4) * 0.25)) - 24)
d = 1.0 - (0.5 + 0.5 * rng.random(n))
terms = (np.round(d / grid) * grid).astype(np.float32)
loop = np.cumsum(terms, dtype=np.float32)  # numpy's cumsum of float32 adds in float32, in order
before = np.concatenate([[0.0], loop[tile - 1 :: tile][:-1].astype(np.float64)])
tree = np.concatenate([[0.0], np.cumsum(terms.astype(np.float64).reshape(-1, tile).sum(1))[:-1]])
binade = lambda v: np.frexp(v)[1]
miss = np.nonzero(binade(before) != binade(tree.astype(np.float32).astype(np.float64)))[0]
print(f"{n} terms, {n // tile} tiles: plans from tree sums miss {len(miss)} tiles", end="")
print(f" (tiles {miss[0]} to {miss[-1]})" if len(miss) else "")
print(f"the loop's sum ends at {loop[-1]!r}, reaches 2^23 at term {int(np.argmax(loop >= 2**23))}; the tree sums end at {tree[-1] + terms[-tile:].astype(np.float64).sum()!r}")
zero = np.nonzero(~terms.reshape(-1, tile).any(axis=1))[0]
print(f"{len(zero)} tiles hold only zeros" + (f" (tiles {zero[0]} to {zero[-1]})" if len(zero) else ""))
