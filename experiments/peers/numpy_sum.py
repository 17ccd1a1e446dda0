#!/usr/bin/env python3
"""Times numpy's and Python's sums of one .npy file of float64 or float32 terms, for cpu-timing.

Peers: np.cumsum(x)[-1] (numpy's sequential loop, started from the first term),
np.sum(x) (pairwise, blocks with 8 accumulators) and math.fsum(x) (correctly rounded), the
last only up to --fsum-max terms. Each is timed --reps times after one untimed run.

Prints one JSON object: {"numpy": version, "python": version, "peers": [{"name",
"median_ms", "bits"}]}, bits as the decimal string of the result's bit pattern in the file's
type (math.fsum's double rounded to float32 for a float32 file).

With --cumsum-out OUT it also times np.cumsum(x) (the whole array of running sums, numpy's
loop started from the first term, in the file's type) and saves the last result to OUT; the
JSON then has "cumsum_ms".
"""
import argparse
import json
import math
import platform
import sys
import time

import numpy as np


def bits(v, dtype):
    if dtype == np.float32:
        return str(int(np.float32(v).view(np.uint32)))
    return str(int(np.float64(v).view(np.uint64)))


def timed(f, reps):
    out = f()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        out = f()
        times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    mid = len(times) // 2
    median = times[mid] if len(times) % 2 else 0.5 * (times[mid - 1] + times[mid])
    return median, out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--file", required=True)
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--fsum-max", type=int, default=10_000_000)
    p.add_argument("--cumsum-out")
    a = p.parse_args()
    x = np.load(a.file)
    if x.dtype not in (np.float64, np.float32):
        sys.exit(f"{a.file}: float64 or float32 expected, got {x.dtype}")
    peers = [("np.cumsum(x)[-1]", lambda: np.cumsum(x)[-1]), ("np.sum(x)", lambda: np.sum(x))]
    if x.size <= a.fsum_max:
        peers.append(("math.fsum(x)", lambda: math.fsum(x)))
    rows = []
    for name, f in peers:
        ms, v = timed(f, a.reps)
        rows.append({"name": name, "median_ms": ms, "bits": bits(v, x.dtype)})
    out = {"numpy": np.__version__, "python": platform.python_version(), "peers": rows}
    if a.cumsum_out:
        with np.errstate(all="ignore"):
            ms, c = timed(lambda: np.cumsum(x), a.reps)
        np.save(a.cumsum_out, c)
        out["cumsum_ms"] = ms
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
