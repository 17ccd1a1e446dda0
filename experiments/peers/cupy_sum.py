#!/usr/bin/env python3
"""Times cupy.sum on the data the gpu-timing experiment times its own kernels on.

The data is made the same way on both sides: a pool of P = max(N, pool) doubles,
x[i] = (splitmix64(seed + (i + 1) * 0x9e3779b97f4a7c15) >> 11) * 2^-53, and repetition r sums
x[(r mod K) * N : (r mod K) * N + N] with K = min(P // N, 256). The checksum (the sum modulo
2^64 of the bit patterns of the pool) lets the caller check the data is identical. With
--dtype float32 the pool is those doubles rounded to nearest float32 (`astype`), its checksum
the sum of the float32 bit patterns, and cupy.sum sums float32.

Prints one JSON object: {"cupy": version, "device": name, "sizes": [{"n", "pool", "checksum",
"median_ms", "times_ms"}]}.
"""
import argparse
import json
import sys

import cupy as cp

GOLDEN = 0x9E3779B97F4A7C15
M1 = 0xBF58476D1CE4E5B9
M2 = 0x94D049BB133111EB
MAX_OFFSETS = 256


def pool_of(count, seed):
    """The counter-based uniform doubles, made in slices to bound the temporaries."""
    out = cp.empty(count, dtype=cp.float64)
    step = 1 << 26
    for lo in range(0, count, step):
        hi = min(count, lo + step)
        i = cp.arange(lo, hi, dtype=cp.uint64)
        z = cp.uint64(seed) + (i + cp.uint64(1)) * cp.uint64(GOLDEN)
        z = (z ^ (z >> cp.uint64(30))) * cp.uint64(M1)
        z = (z ^ (z >> cp.uint64(27))) * cp.uint64(M2)
        z = z ^ (z >> cp.uint64(31))
        out[lo:hi] = (z >> cp.uint64(11)).astype(cp.float64) * (2.0 ** -53)
    return out


def median(xs):
    """The middle value (the mean of the middle two for an even count)."""
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else 0.5 * (s[m - 1] + s[m])


def time_size(n, pool_min, seed, warmup, reps, dtype):
    count = max(n, pool_min)
    x = pool_of(count, seed)
    if dtype == "float32":
        x = x.astype(cp.float32)
        checksum = int(cp.sum(x.view(cp.uint32), dtype=cp.uint64))
    else:
        checksum = int(cp.sum(x.view(cp.uint64), dtype=cp.uint64))
    k = max(1, min(count // n, MAX_OFFSETS))
    start, end = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for r in range(warmup + reps):
        off = (r % k) * n
        view = x[off:off + n]
        start.record()
        cp.sum(view)
        end.record()
        end.synchronize()
        if r >= warmup:
            times.append(cp.cuda.get_elapsed_time(start, end))
    del x
    cp.get_default_memory_pool().free_all_blocks()
    return {"n": n, "pool": count, "checksum": str(checksum), "median_ms": median(times), "times_ms": times}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", required=True, help="comma-separated term counts")
    p.add_argument("--pool", type=int, required=True, help="smallest pool, in doubles")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--reps", type=int, default=21)
    p.add_argument("--dtype", choices=["float64", "float32"], default="float64")
    a = p.parse_args()
    sizes = [int(s) for s in a.sizes.split(",") if s]
    out = {
        "cupy": cp.__version__,
        "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
        "dtype": a.dtype,
        "sizes": [time_size(n, a.pool, a.seed, a.warmup, a.reps, a.dtype) for n in sizes],
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
