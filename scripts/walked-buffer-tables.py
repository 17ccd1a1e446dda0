#!/usr/bin/env python3
"""Tables of the buffered producers' probe (reports/walked-buffer/COMMIT/): each build's median
ms per input from walked_probe's CSVs, and the three ratios PREDICTION.md predicted (buffered
producers alone / the engine's producers alone, the buffered engine / the engine, the engine
capped for 3 blocks / the engine), beside the predicted ranges.

    python3 scripts/walked-buffer-tables.py reports/walked-buffer/0768ebe

Writes DIR/tables.md from DIR/probe-*.csv (nothing is typed by hand)."""
import csv
import sys
from pathlib import Path

ENGINE = "walked"
BUFFERED = "walked, next tile buffered"
THREE = "walked, 3 blocks"
PROD = "walked producers only (not a sum)"
PROD_BUF = "walked producers only, next tile buffered (not a sum)"

# PREDICTION.md's ranges, by distribution prefix (the same text as the CSV's distribution).
PRODUCERS_RANGE = {"1 - q": (0.85, 0.92), "uniform": (0.95, 1.00), "log-normal": (0.95, 1.00),
                   "geometric": (0.90, 0.97)}


def predicted(dist, n, which):
    key = next(k for k in PRODUCERS_RANGE if dist.startswith(k))
    if which == "producers":
        return PRODUCERS_RANGE[key] if n >= 10**8 else None
    if which == "engine":
        # At 10^8 and 2^30 the prediction was relative: within 2% of the producers' measured
        # ratio (the caller passes it); at 8,294,400 terms a range.
        return (0.95, 1.05) if n < 10**8 else None
    return (1.00, 1.08) if n >= 10**8 else None


def main():
    d = Path(sys.argv[1])
    rows = [r for f in sorted(d.glob("probe-*.csv")) for r in csv.DictReader(open(f))]
    by = {(r["build"], r["distribution"], int(r["terms"])): r for r in rows}
    inputs = sorted(dict.fromkeys((r["distribution"], int(r["terms"])) for r in rows), key=lambda x: x[1])
    builds = list(dict.fromkeys(r["build"] for r in rows))
    out = ["Median ms of CUDA-event timings (`examples/walked_probe`, one call), and whether each sum's bits were the loop's (`exact`, and again after the timing runs).", ""]
    out.append("| distribution | terms | " + " | ".join(builds) + " |")
    out.append("| --- | --- | " + " | ".join("---" for _ in builds) + " |")
    for dist, n in inputs:
        cells = []
        for b in builds:
            r = by.get((b, dist, n))
            if r is None:
                cells.append("")
                continue
            exact = "" if r["exact"] == "not a sum" else (" ✓" if r["exact"] == "true" and r["same_bits_after_timing"] == "true" else " **wrong bits**")
            cells.append(r["median_ms"] + exact)
        out.append(f"| {dist} | {n:,} | " + " | ".join(cells) + " |")
    out += ["", "Ratios of medians against the prediction written before the call (`../PREDICTION.md`).", ""]
    out.append("| distribution | terms | buffered producers / producers | predicted | buffered engine / engine | predicted | 3 blocks / engine | predicted |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for dist, n in inputs:
        def ratio(a, b):
            return float(by[(a, dist, n)]["median_ms"]) / float(by[(b, dist, n)]["median_ms"])

        prod = ratio(PROD_BUF, PROD)

        def bounds(which):
            p = predicted(dist, n, which)
            if p is None and which == "engine":
                return (0.98 * prod, 1.02 * prod), "within 2% of the producers' ratio"
            return p, ("none" if p is None else f"{p[0]:.2f} to {p[1]:.2f}")

        def cell(x, which):
            p, _ = bounds(which)
            # A written range is compared at its own precision (two decimals).
            v = x if predicted(dist, n, which) is None else round(x, 2)
            mark = "" if p is None else (" ✓" if p[0] <= v <= p[1] else " ✗")
            return f"{x:.3f}{mark}"

        out.append(f"| {dist} | {n:,} | {cell(prod, 'producers')} | {bounds('producers')[1]} | "
                   f"{cell(ratio(BUFFERED, ENGINE), 'engine')} | {bounds('engine')[1]} | "
                   f"{cell(ratio(THREE, ENGINE), 'three')} | {bounds('three')[1]} |")
    out += ["", "The buffered build's planning counts beside the engine's (`waited_plans`: plans that waited for the tile before; `far_plans`: see `examples/walked_probe.rs`; `walker_steps`).", ""]
    out.append("| distribution | terms | build | waited plans | far plans | walker steps |")
    out.append("| --- | --- | --- | --- | --- | --- |")
    for dist, n in inputs:
        for b in (ENGINE, BUFFERED, PROD, PROD_BUF):
            r = by[(b, dist, n)]
            out.append(f"| {dist} | {n:,} | {b} | {r['waited_plans']} | {r['far_plans']} | {r['walker_steps']} |")
    (d / "tables.md").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
