#!/usr/bin/env python3
"""Plans from tree sums against plans from the f32 loop's moves, on streams shaped like
gpu-timing-f32's (kernels/ordered_sum_onepass.cu, op_fill_value with the f32 grid), drawn by
numpy's generator (seed 1) rather than the kernel's hash. The loop is numpy's cumsum of float32,
which adds in float32, in order. Tiles of 4,096 terms, walked one after another (no
concurrency: the chains a look-back would build if every earlier tile had published).

Two chains of approximate prefixes, each under the stall cap (BINADE_WK_STALL_CAP: a tile whose
largest term lies in [2^k, 2^(k+1)) moves no sum at or above 2^(k+25)):
  tree:  P += the tile's tree sum (f64), the walked engine's f32 plans up to BINADE_WK_MOVES;
  moves: P += the tile's move in P's binade b, u_b * sum rint(x / u_b) (u_b the ulp of an f32 in
         b), taken from a window of two binades (mb, mb + 1) whose base mb is the binade of the
         chain's own prefix FAR tiles back (the far anchor's; the kernel also takes the walker's
         hint): below the window the move for mb, above it the move for mb + 1, and before the
         first anchor the tree sum (BINADE_WK_MOVES).
A tile is missed where the binade of a chain's prefix before it (taken to f32) is not the binade
of the loop's sum before it: the walker then finishes it from its terms.

Usage: scripts/f32-moves-plan-model.py KIND [TERMS] [FAR] [TILES]
KIND: lognormal | geometric | ties | uniform; TERMS default 10^8; FAR default 1024. TILES, a
comma-separated list of tile numbers, also prints for each the loop's sum S before it, its
binade E (frexp's exponent), the tile's tree sum, the loop's true move over it, its moves in
binades E - 1, E and E + 1, its largest term over the ulp of E and the chain of moves' prefix before it. TIES (environment: rint, the
default and the kernel's; mean; mixed) says how a move counts a term on a tie (`move`)."""
import os
import sys

import numpy as np

kind = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000_000
far = int(sys.argv[3]) if len(sys.argv) > 3 else 1024
shown = [int(v) for v in sys.argv[4].split(",")] if len(sys.argv) > 4 else []
tile = 4096
n -= n % tile
rng = np.random.default_rng(1)
i = np.arange(n, dtype=np.float64)
if kind == "lognormal":
    terms = np.exp(3.0 * rng.standard_normal(n)).astype(np.float32)
elif kind == "geometric":
    terms = ((0.5 + 0.5 * rng.random(n)) * np.exp2(i * 2.0**-23 - 120.0)).astype(np.float32)
elif kind == "ties":
    grid = 2.0 ** (np.floor(np.log2((i + 4) * 0.25)) - 24)
    terms = (np.round((1.0 - (0.5 + 0.5 * rng.random(n))) / grid) * grid).astype(np.float32)
elif kind == "uniform":
    terms = rng.random(n).astype(np.float32)
else:
    sys.exit(f"unknown kind {kind!r}: lognormal, geometric, ties or uniform")
del i
loop = np.cumsum(terms, dtype=np.float32)
ntiles = n // tile
before = np.concatenate([[0.0], loop[tile - 1 :: tile][:-1].astype(np.float64)])
tiles = terms.reshape(ntiles, tile).astype(np.float64)
ts = tiles.sum(1)
big = tiles.max(1)
cap = np.where(big > 0, 2.0 ** (np.frexp(big)[1] - 1 + 25), 0.0)


def binade(v):
    """The f32 binade of v as frexp's exponent (0 for 0)."""
    return int(np.frexp(np.float32(v))[1])


TIES = os.environ.get("TIES", "rint")
if TIES not in ("rint", "mean", "mixed"):
    sys.exit(f"TIES={TIES!r}: rint, mean or mixed")


def move(t, b):
    """Tile t's move on an f32 sum whose frexp exponent is b (ulp 2^(b - 24)). A term on a tie
    (x / u = k + 1/2) moves the loop by k or k + 1, whichever leaves the sum even: TIES=rint
    (the kernel's) counts the even start's choice, rint's; TIES=mean counts k + 1/2, right
    where the sum's parity at each tie is random; TIES=mixed counts k + 1/2 only in a tile
    where some other term moves the sum by an odd count (else the parity stays even)."""
    u = 2.0 ** (b - 24)
    y = tiles[t] / u
    r = np.rint(y)
    if TIES != "rint":
        tie = np.abs(y - r) == 0.5
        if TIES == "mean" or np.any(~tie & (np.fmod(r, 2.0) == 1.0)):
            r = np.where(tie, y, r)
    return float(np.sum(r) * u)


loop_binade = np.frexp(before.astype(np.float32))[1]
p_tree = p_moves = 0.0
chain = []
miss_tree = miss_moves = 0
for t in range(ntiles):
    if t > 0:
        miss_tree += binade(p_tree) != loop_binade[t]
        miss_moves += binade(p_moves) != loop_binade[t]
    chain.append(p_moves)
    p_tree = max(p_tree, min(p_tree + ts[t], cap[t]))
    anchor = chain[t - far] if t >= far else 0.0
    if anchor > 0 and p_moves > 0:
        mb = binade(anchor)
        m = move(t, mb) if binade(p_moves) <= mb else move(t, mb + 1)
    else:
        m = ts[t]
    p_moves = max(p_moves, min(p_moves + m, cap[t]))
print(
    f"{kind}, {n} terms, {ntiles} tiles: the loop ends at {float(loop[-1]):.6g}, the f64 sum at {ts.sum():.6g}; "
    f"tree sums: ends at {p_tree:.6g}, {miss_tree} tiles missed; moves (far {far}): ends at {p_moves:.6g}, "
    f"{miss_moves} tiles missed"
)
for t in shown:
    s_before = float(loop[t * tile - 1]) if t > 0 else 0.0
    e = binade(s_before)
    true = float(loop[(t + 1) * tile - 1]) - s_before
    print(
        f"tile {t}: S {s_before:.4g} (E {e}), tree sum {ts[t]:.4g}, the loop's move {true:.4g}, "
        f"moves in E - 1, E, E + 1: {move(t, e - 1):.4g}, {move(t, e):.4g}, {move(t, e + 1):.4g}; "
        f"largest term / ulp(E) {big[t] / 2.0 ** (e - 24):.3f}; the chain of moves before it {chain[t]:.6g}"
    )

