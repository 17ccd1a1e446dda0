#!/usr/bin/env python3
"""Writes tests/data/numpy_sum.csv: numpy's own np.sum and np.cumsum(x)[-1] of seeded streams,
as bit patterns, for tests/orders.rs to compare with binade's `numpy` and `sequential` orders.

The streams come from a counter hash both sides compute (the splitmix64 finaliser of
seed + (i + 1) * 0x9e3779b97f4a7c15), so no terms are stored:
  uniform: u(i) = (h(seed, i) >> 11) * 2^-53, in [0, 1);
  signed:  (2 u(i) - 1) * 2^k(i), k(i) = (h(seed ^ 0x5bd1e995, i) >> 58) - 32 (cancellation
           over 64 binades);
  negzero: every term -0.0.
float32 streams are the float64 values rounded to float32, summed by numpy in float32.

    python3 scripts/numpy-sum-bits.py [OUT]    (default tests/data/numpy_sum.csv)
"""
import csv
import os
import platform
import sys

import numpy as np

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
SIZES = [0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 127, 128, 129, 130, 135, 136, 200, 255, 256,
         257, 1000, 1023, 1024, 1025, 4095, 8191, 8192, 8193, 10007, 65537, 100003, 1000003]


def hashes(seed, n):
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + (np.arange(n, dtype=np.uint64) + np.uint64(1)) * GOLDEN
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def stream(kind, seed, n):
    if kind == "negzero":
        return np.full(n, -0.0)
    u = (hashes(seed, n) >> np.uint64(11)).astype(np.float64) * 2.0**-53
    if kind == "uniform":
        return u
    k = (hashes(seed ^ 0x5BD1E995, n) >> np.uint64(58)).astype(np.int64) - 32
    return (2.0 * u - 1.0) * np.ldexp(1.0, k)


def bits(v, dtype):
    width = np.uint64 if dtype == np.float64 else np.uint32
    return hex(int(np.array([v], dtype=dtype).view(width)[0]))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/data/numpy_sum.csv"
    tmp = out + ".tmp"
    version = f"numpy {np.__version__} on {platform.machine()}"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["dtype", "kind", "seed", "n", "np_sum_bits", "np_cumsum_last_bits", "numpy"])
        for dtype, name in ((np.float64, "f64"), (np.float32, "f32")):
            for kind in ("uniform", "signed", "negzero"):
                for seed in (1, 2):
                    if kind == "negzero" and seed == 2:
                        continue
                    for n in SIZES:
                        x = stream(kind, seed, n).astype(dtype)
                        s = bits(np.sum(x), dtype)
                        c = bits(np.cumsum(x)[-1], dtype) if n else ""
                        w.writerow([name, kind, seed, n, s, c, version])
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
