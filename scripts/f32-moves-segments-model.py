#!/usr/bin/env python3
"""A hypothesis about the geometric f32 stream's finishes on the device, checked on the host
(reports/walked-moves): the walked kernel's look-back composes the tiles after its base at
the base's binade and under their least stall cap (wk_lookback_plan), not tile by tile as
scripts/f32-moves-plan-model.py's chains do. Here anchors every 8 tiles (WK_HINT_ANCHOR) each
compose the 8 tiles before the next anchor onto their prefix, three ways:
  seq:   tile by tile, each under its own cap (the model's chain);
  least: the kernel's: the summed moves under the least cap of the run;
  above: only the tiles whose cap is above the base, under the largest of their caps;
with each tile's plan the binade of the composition of the tiles before it in the run, and
the moves' window from the anchor about 1,024 tiles back. The stream is the geometric (or, with
`lognormal`, the log-normal) f32 stream of 10^8 terms drawn as in the model (numpy, seed 1).
On the geometric stream all three miss 38 tiles with moves (1,403 with tree sums), so the
least-cap composition does not explain the device's 1,545 to 1,580.
Usage: scripts/f32-moves-segments-model.py geometric|lognormal"""
import sys

import numpy as np

kind = sys.argv[1]; n = 100_000_000; tile = 4096; n -= n % tile
rng = np.random.default_rng(1)
i = np.arange(n, dtype=np.float64)
if kind == "geometric":
    terms = ((0.5 + 0.5 * rng.random(n)) * np.exp2(i * 2.0**-23 - 120.0)).astype(np.float32)
else:
    terms = np.exp(3.0 * rng.standard_normal(n)).astype(np.float32)
del i
loop = np.cumsum(terms, dtype=np.float32)
T = n // tile
before = np.concatenate([[0.0], loop[tile - 1 :: tile][:-1].astype(np.float64)])
tiles = terms.reshape(T, tile).astype(np.float64)
ts = tiles.sum(1); big = tiles.max(1)
cap = np.where(big > 0, 2.0 ** (np.frexp(big)[1] - 1 + 25), 0.0)
lb = np.frexp(before.astype(np.float32))[1]
def B(v): return int(np.frexp(np.float32(v))[1])
cache = {}
def mv(t, e):
    k = (t, e)
    if k not in cache:
        u = 2.0 ** (e - 24); cache[k] = float(np.sum(np.rint(tiles[t] / u)) * u)
    return cache[k]
def run(mode, moves=True, far=1024, seg=8):
    anchors = {0: 0.0}  # P before tile a (exclusive prefix) for anchors
    hist = {}
    miss = 0
    def move(j, bb, a_far):
        if not moves or a_far is None or a_far <= 0: return ts[j]
        mb = B(a_far)
        return mv(j, mb + 1) if bb > mb else mv(j, mb)
    P = 0.0  # exclusive prefix before the current anchor
    for a in range(0, T, seg):
        base = P
        bb = B(base)
        # the far anchor for tiles here: the anchor prefix ~far tiles back
        fa = (a - far) // seg * seg
        pf = anchors.get(fa) if a >= far else None
        acc = 0.0; least = np.inf; seqP = base; above = 0.0; capmax = 0.0
        for j in range(a, min(a + seg, T)):
            # plan of tile j from the composition of tiles a..j-1 onto base
            if mode == "seq": pj = seqP
            elif mode == "least": pj = max(base, min(base + acc, least)) if j > a else base
            else: pj = max(base, min(base + above, capmax)) if above > 0 else base
            if j > 0 and B(pj) != lb[j]: miss += 1
            m = move(j, bb, pf)
            acc += m; least = min(least, cap[j])
            seqP = max(seqP, min(seqP + m, cap[j]))
            if cap[j] > base: above += m; capmax = max(capmax, cap[j])
        if mode == "seq": P = seqP
        elif mode == "least": P = max(base, min(base + acc, least))
        else: P = max(base, min(base + above, capmax)) if above > 0 else base
        anchors[a + seg] = P
    return miss, P
for mode in ("seq", "least", "above"):
    for moves in (False, True):
        print(kind, mode, "moves" if moves else "tree", run(mode, moves))
