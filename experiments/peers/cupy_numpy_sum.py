#!/usr/bin/env python3
"""Peers of the gpu-numpy-order experiment: cupy.sum timed on the device, and np.sum on the host,
on the uniform data gpu-timing and cupy_sum.py use (the same pool and windows, from cupy_sum.py).

For each size N: the pool's checksum (the sum modulo 2^64 of its bit patterns), the median of
--reps CUDA-event timings of cp.sum over the rotated windows after --warmup untimed runs, the
bits of cp.sum of the first window, and np.sum of the first window copied to the host: its bits
(numpy's own pairwise order, the reference the device's numpy order must equal) and the median
wall-clock ms of 5 runs.

Prints one JSON object: {"cupy", "numpy", "device", "sizes": [{"n", "pool", "checksum",
"cupy_median_ms", "cupy_bits", "np_sum_bits", "np_sum_ms"}]}, bits as decimal strings.
"""
import argparse
import json
import os
import sys
import time

import cupy as cp
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cupy_sum import MAX_OFFSETS, median, pool_of  # noqa: E402


def bits(v):
    return str(int(np.float64(v).view(np.uint64)))


def one_size(n, pool_min, seed, warmup, reps):
    count = max(n, pool_min)
    x = pool_of(count, seed)
    checksum = int(cp.sum(x.view(cp.uint64), dtype=cp.uint64))
    k = max(1, min(count // n, MAX_OFFSETS))
    start, end = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for r in range(warmup + reps):
        off = (r % k) * n
        start.record()
        cp.sum(x[off:off + n])
        end.record()
        end.synchronize()
        if r >= warmup:
            times.append(cp.cuda.get_elapsed_time(start, end))
    cupy_bits = bits(cp.sum(x[0:n]).get())
    host = cp.asnumpy(x[0:n])
    del x
    cp.get_default_memory_pool().free_all_blocks()
    np_times = []
    for _ in range(6):
        t = time.perf_counter()
        s = np.sum(host)
        np_times.append((time.perf_counter() - t) * 1e3)
    return {
        "n": n,
        "pool": count,
        "checksum": str(checksum),
        "cupy_median_ms": median(times),
        "cupy_bits": cupy_bits,
        "np_sum_bits": bits(s),
        "np_sum_ms": median(np_times[1:]),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", required=True, help="comma-separated term counts")
    p.add_argument("--pool", type=int, required=True, help="smallest pool, in doubles")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--reps", type=int, default=21)
    a = p.parse_args()
    sizes = [int(s) for s in a.sizes.split(",") if s]
    out = {
        "cupy": cp.__version__,
        "numpy": np.__version__,
        "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
        "sizes": [one_size(n, a.pool, a.seed, a.warmup, a.reps) for n in sizes],
    }
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
