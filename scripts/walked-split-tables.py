#!/usr/bin/env python3
"""Before/after table of a walked_probe run that timed the walked engine with and without
split crossings (`WalkedShape::split`) in one device call (reports/walked-split/COMMIT/):
per input, each pair's median ms and their ratio, the ratio to cupy.sum from the same call,
the crossings ended by split words, and the trace builds' walker and finish times.

    python3 scripts/walked-split-tables.py reports/walked-split/67044ea

Writes DIR/split.md from DIR/probe.csv and DIR/cupy.json (nothing is typed by hand). The
build names are the probe's at 914e6f9 and 67044ea (split off in the engine's shape) or
after f8b00f0 (split on)."""
import sys
from pathlib import Path

from walked_probe_run import load

# (without the split, with it) for the engine, its trace build and the producers alone.
PAIRS = [
    [("walked (pair-unit finishes)", "walked, split crossings"),
     ("walked, traced", "walked, split crossings traced"),
     ("walked producers only (not a sum)", "walked producers only, split crossings (not a sum)")],
    [("walked, crossings finished", "walked (split crossings)"),
     ("walked, crossings finished traced", "walked, traced"),
     ("walked producers only, no split (not a sum)", "walked producers only (not a sum)")],
]


def main():
    d = Path(sys.argv[1])
    by, inputs, cupy, _ = load(d)
    names = {b for b, _, _ in by}
    pairs = next(p for p in PAIRS if p[0][0] in names and p[0][1] in names)
    (e0, e1), (t0, t1), (p0, p1) = pairs
    out = [f"Split crossings against every crossing finished, `examples/walked_probe` in one device call (`{d.name}`): median ms of CUDA-event timings, the ratio of the two, the ratio to `cupy.sum` on uniform data of the same size timed in the same call, the tiles the walker ended by split words and those it finished from their terms, the producers alone with and without the split's code, and the trace builds' walker and finish times in µs (one launch; a split's time counts as finish time).", ""]
    out.append("| distribution | terms | finished ms | split ms | split / finished | split / cupy.sum | split ends | finished tiles (split) | producers alone: finished, split ms | walker µs: finished, split | in finishes µs: finished, split | bits |")
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for dist, n in inputs:
        a, b = by.get((e0, dist, n)), by.get((e1, dist, n))
        if a is None or b is None:
            continue
        ma, mb = float(a["median_ms"]), float(b["median_ms"])
        c = cupy.get(n)
        pa, pb = by.get((p0, dist, n)), by.get((p1, dist, n))
        prod = f"{pa['median_ms'] if pa else '-'}, {pb['median_ms'] if pb else 'not run'}"
        ta, tb = by.get((t0, dist, n)), by.get((t1, dist, n))
        walk = f"{ta['walker_us'] if ta else '-'}, {tb['walker_us'] if tb else '-'}"
        fin = f"{ta['finish_us'] if ta else '-'}, {tb['finish_us'] if tb else '-'}"
        exact = all(r["exact"] == "true" and r["same_bits_after_timing"] == "true" for r in (a, b, ta, tb) if r)
        out.append(f"| {dist} | {n:,} | {ma:.4f} | {mb:.4f} | {mb / ma:.2f} | {mb / c:.2f} | {b['split_ends']} | {b['finished_tiles']} | {prod} | {walk} | {fin} | {'the loop' if exact else 'WRONG'} |")
    (d / "split.md").write_text("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
