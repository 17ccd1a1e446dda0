#!/usr/bin/env python3
"""Times cupy.cumsum on the data the gpu-cumsum-timing experiment times its running sums on.

The data is cupy_sum.py's: a pool of P = max(N, pool) counter-hash uniform doubles, and
repetition r runs cp.cumsum(x[(r mod K) * N : (r mod K) * N + N], out=buffer) with
K = min(P // N, 256). CuPy picks its scan by its routine accelerators; each size is timed with
the accelerators CuPy starts with ("default") and with CUB's scan ("cub") where CuPy offers it.
For the first window the output's checksum (the sum modulo 2^64 of its bit patterns) is taken
after every timed run, so the caller can tell whether cupy.cumsum gives the CPU loop's bits and
whether it gives the same bits every time.

Prints one JSON object: {"cupy": version, "device": name, "accelerators": [...],
"sizes": [{"n", "pool", "checksum", "runs": [{"routine", "median_ms", "times_ms",
"out_checksums"}]}]}.
"""
import argparse
import json
import sys

import cupy as cp

from cupy_sum import pool_of, median, MAX_OFFSETS


def checksum(a):
    return str(int(cp.sum(a.view(cp.uint64), dtype=cp.uint64)))


def time_routine(x, n, k, warmup, reps):
    out = cp.empty(n, dtype=cp.float64)
    start, end = cp.cuda.Event(), cp.cuda.Event()
    times = []
    for r in range(warmup + reps):
        off = (r % k) * n
        start.record()
        cp.cumsum(x[off:off + n], out=out)
        end.record()
        end.synchronize()
        if r >= warmup:
            times.append(cp.cuda.get_elapsed_time(start, end))
    sums = []
    for _ in range(reps):
        cp.cumsum(x[0:n], out=out)
        sums.append(checksum(out))
    del out
    return {"median_ms": median(times), "times_ms": times, "out_checksums": sums}


def accelerators():
    """CuPy's routine accelerators now, as it reports them (a private API: None where absent)."""
    try:
        return list(cp._core.get_routine_accelerators())
    except AttributeError:
        return None


def set_accelerators(accs):
    cp._core.set_routine_accelerators(accs)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", required=True, help="comma-separated term counts")
    p.add_argument("--pool", type=int, required=True, help="smallest pool, in doubles")
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--reps", type=int, default=21)
    a = p.parse_args()
    sizes = [int(s) for s in a.sizes.split(",") if s]
    initial = accelerators()
    todo = [("default", None)] + ([("cub", ["cub"])] if initial is not None else [])
    result = []
    for n in sizes:
        count = max(n, a.pool)
        x = pool_of(count, a.seed)
        k = max(1, min(count // n, MAX_OFFSETS))
        entry = {"n": n, "pool": count, "checksum": checksum(x), "runs": []}
        for name, accs in todo:
            if initial is not None:
                set_accelerators(initial if accs is None else accs)
            r = time_routine(x, n, k, a.warmup, a.reps)
            r["routine"] = name
            entry["runs"].append(r)
        if initial is not None:
            set_accelerators(initial)
        del x
        cp.get_default_memory_pool().free_all_blocks()
        result.append(entry)
    out = {
        "cupy": cp.__version__,
        "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
        "accelerators": [str(x) for x in initial] if initial is not None else None,
        "sizes": result,
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
