#!/usr/bin/env python3
"""Tables of the producer-cap probe (reports/walked-caps/COMMIT/): each build's median ms per
input from walked_probe's `caps` CSVs (runs a/ and b/ of one call), `cupy.sum`'s median on the
same sizes from cupy_sum.py's JSON, and the ratios PREDICTION.md predicted beside its ranges.

    python3 scripts/walked-caps-tables.py reports/walked-caps/44c8eff

Writes DIR/tables.md from DIR/a/probe.csv, DIR/b/probe.csv (where present) and DIR/cupy.json
(nothing is typed by hand)."""
import csv
import json
import statistics
import sys
from pathlib import Path

ENGINE = "walked"
THREE = "walked, 3 blocks"
CAP = "walked, producers capped at {} a multiprocessor"


def main():
    d = Path(sys.argv[1])
    runs = [p for p in (d / "a" / "probe.csv", d / "b" / "probe.csv") if p.exists()]
    med = {}
    bits = {}
    builds = []
    inputs = []
    for p in runs:
        for r in csv.DictReader(open(p)):
            key = (r["build"], r["distribution"], int(r["terms"]))
            if r["build"] not in builds:
                builds.append(r["build"])
            if key[1:] not in inputs:
                inputs.append(key[1:])
            try:
                med.setdefault(key, []).append(float(r["median_ms"]))
            except ValueError:
                bits[key] = "error"
                continue
            ok = r["exact"] == "true" and r["same_bits_after_timing"] == "true"
            bits[key] = bits.get(key, True) and ok
    cupy = {}
    cj = d / "cupy.json"
    if cj.exists():
        for s in json.load(open(cj))["sizes"]:
            cupy[int(s["n"])] = float(s["median_ms"])

    def m(b, dist, n):
        v = med.get((b, dist, n))
        return statistics.median(v) if v else None

    out = [f"Median ms of CUDA-event timings (`examples/walked_probe 11 caps`), the median of the {len(runs)} runs' medians of one call; ✓ where every total of the build on that input had the loop's bits before and after the timing runs in every run. `cupy.sum` from `experiments/peers/cupy_sum.py` in the same call (uniform terms of the same generator; its time does not depend on the values).", ""]
    out.append("| distribution | terms | " + " | ".join(builds) + " | `cupy.sum` |")
    out.append("| --- | --- | " + " | ".join("---" for _ in builds) + " | --- |")
    for dist, n in inputs:
        cells = []
        for b in builds:
            v = m(b, dist, n)
            if v is None:
                cells.append("" if (b, dist, n) not in bits else "error")
                continue
            cells.append(f"{v:.4f}" + (" ✓" if bits.get((b, dist, n)) is True else " **wrong bits**"))
        c = cupy.get(n)
        out.append(f"| {dist} | {n:,} | " + " | ".join(cells) + f" | {'' if c is None else f'{c:.4f}'} |")
    if len(runs) > 1:
        out += ["", "Spread between the two runs: the largest |a/b - 1| of each build's medians over the inputs.", ""]
        out.append("| build | largest difference between runs |")
        out.append("| --- | --- |")
        for b in builds:
            diffs = [abs(v[0] / v[1] - 1) for (bb, _, _), v in med.items() if bb == b and len(v) == 2]
            if diffs:
                out.append(f"| {b} | {100 * max(diffs):.1f}% |")

    def ratio(a, b, dist, n):
        x, y = m(a, dist, n), m(b, dist, n)
        return None if x is None or y is None else x / y

    def cell(r, lo=None, hi=None):
        if r is None:
            return "not measured"
        s = f"{r:.3f}"
        if lo is not None:
            s += " ✓" if lo <= r <= hi else " ✗"
        return s

    out += ["", "Ratios of medians against `../PREDICTION.md` (✓ inside the predicted range, ✗ outside; blank where nothing was predicted).", ""]
    out.append("| distribution | terms | 3 blocks / engine | cap 3 / 3 blocks | cap 2 / cap 3 | cap 1 / cap 2 | cap 3 / engine | cap 2 / engine | engine / `cupy.sum` | best cap / `cupy.sum` |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for dist, n in inputs:
        small = n <= 8_294_400
        three = ratio(THREE, ENGINE, dist, n)
        c3 = ratio(CAP.format(3), THREE, dist, n)
        c2c3 = ratio(CAP.format(2), CAP.format(3), dist, n)
        c1c2 = ratio(CAP.format(1), CAP.format(2), dist, n)
        c3e = ratio(CAP.format(3), ENGINE, dist, n)
        c2e = ratio(CAP.format(2), ENGINE, dist, n)
        c = cupy.get(n)
        eng = m(ENGINE, dist, n)
        caps = [m(CAP.format(k), dist, n) for k in (3, 2, 1)]
        caps = [v for v in caps if v is not None]
        ec = None if c is None or eng is None else eng / c
        bc = None if c is None or not caps else min(caps) / c
        at8 = n == 8_294_400
        uni = dist.startswith("uniform")
        row = [
            cell(three, 0.85, 0.95) if at8 else cell(three),
            cell(c3, 0.97, 1.03) if at8 else cell(c3),
            cell(c2c3, 0.90, 1.00) if small else cell(c2c3),
            cell(c1c2, 1.0, float("inf")),
            cell(c3e, 0.97, 1.08) if n == 10**8 else cell(c3e),
            cell(c2e, 0.97, 1.08) if n == 10**8 else cell(c2e),
            cell(ec, 1.35, 1.60) if at8 and uni else cell(ec),
            cell(bc, 1.20, 1.45) if at8 and uni else cell(bc),
        ]
        out.append(f"| {dist} | {n:,} | " + " | ".join(row) + " |")
    (d / "tables.md").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
