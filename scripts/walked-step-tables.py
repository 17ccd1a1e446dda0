#!/usr/bin/env python3
"""Before/after table of a walked_probe run that timed the walked engine with segmented steps
(`WalkedShape::seg_step`: a step ends many crossings) and with a crossing a step, in one
device call (reports/walked-step/COMMIT/): per input, both medians and their ratio, the ratio
to cupy.sum on uniform data of the same size from the same call (where the call timed it),
the producers alone, the trace builds' walker time and time in finishes and split ends (µs,
one launch each), the steps, the split ends inside a step's walk, and whether every total had
the CPU loop's bits; where the run also timed the segmented step with fetched splits
(`WalkedShape::fetch_splits`), a second table of those against the segmented step.

    python3 scripts/walked-step-tables.py reports/walked-step/ba9299d

Writes DIR/step.md from DIR/probe.csv (and DIR/cupy.json where present): nothing is typed
by hand."""
import sys
from pathlib import Path

from walked_probe_run import load, loop_bits

NEW, OLD = "walked (segmented steps)", "walked, a crossing a step"
NEW_T, OLD_T = "walked, traced", "walked, a crossing a step traced"
FETCH, FETCH_T = "walked, fetched splits", "walked, fetched splits traced"
PRODUCERS = "walked producers only (not a sum)"


def main():
    d = Path(sys.argv[1])
    by, inputs, cupy, commit = load(d, NEW)
    out = [
        f"Segmented steps against a crossing a step, `examples/walked_probe` in one device call "
        f"(`{commit}`): median ms of CUDA-event timings, their ratio, the ratio to `cupy.sum` on "
        "uniform data of the same size timed in the same call (where it was; `cupy.sum`'s time "
        "does not depend on the values), the producers alone, the trace builds' walker time and "
        "time in finishes and split ends (µs, one launch each), the walker's steps (the first "
        "launch), the split ends inside a step's walk of all split ends (the launch after the "
        "timed ones; plans vary from launch to launch), and whether every total had the loop's "
        "bits. Made by `scripts/walked-step-tables.py`.",
        "",
        "| distribution | terms | a crossing a step ms | segmented ms | segmented / one | "
        "segmented / cupy.sum | producers alone ms | walker µs: one, segmented | in finishes "
        "and split ends µs: one, segmented | steps: one, segmented | split ends in the walk / "
        "all | bits |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for dist, n in inputs:
        new, old = by[(NEW, dist, n)], by[(OLD, dist, n)]
        nt, ot = by.get((NEW_T, dist, n)), by.get((OLD_T, dist, n))
        prod = by.get((PRODUCERS, dist, n))
        mn, mo = float(new["median_ms"]), float(old["median_ms"])
        c = cupy.get(n)
        ratio_c = f"{mn / c:.2f}" if c else "not timed"
        walker = f"{ot['walker_us']}, {nt['walker_us']}" if nt and ot else ""
        fin = f"{ot['finish_us']}, {nt['finish_us']}" if nt and ot else ""
        exact = loop_bits(new, old, nt, ot)
        out.append(
            f"| {dist} | {n:,} | {mo:.4f} | {mn:.4f} | {mn / mo:.2f} | {ratio_c} | "
            f"{prod['median_ms'] if prod else ''} | {walker} | {fin} | "
            f"{old['walker_steps']}, {new['walker_steps']} | "
            f"{new['walk_split_ends']} / {new['split_ends']} | "
            f"{'the loop' if exact else 'WRONG'} |")
    fetched = [(dist, n) for dist, n in inputs if (FETCH, dist, n) in by]
    if fetched:
        out += [
            "",
            "Fetched splits against the segmented step without them, the same call: median ms, "
            "their ratio, the ratio to `cupy.sum`, the trace builds' walker time and time in "
            "finishes and split ends (µs), and whether every total had the loop's bits.",
            "",
            "| distribution | terms | segmented ms | fetched ms | fetched / segmented | "
            "fetched / cupy.sum | walker µs: segmented, fetched | in finishes and split ends "
            "µs: segmented, fetched | bits |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for dist, n in fetched:
            new, f = by[(NEW, dist, n)], by[(FETCH, dist, n)]
            nt, ft = by.get((NEW_T, dist, n)), by.get((FETCH_T, dist, n))
            mn, mf = float(new["median_ms"]), float(f["median_ms"])
            c = cupy.get(n)
            walker = f"{nt['walker_us']}, {ft['walker_us']}" if nt and ft else ""
            fin = f"{nt['finish_us']}, {ft['finish_us']}" if nt and ft else ""
            exact = loop_bits(f, ft)
            out.append(
                f"| {dist} | {n:,} | {mn:.4f} | {mf:.4f} | {mf / mn:.2f} | "
                f"{f'{mf / c:.2f}' if c else 'not timed'} | {walker} | {fin} | "
                f"{'the loop' if exact else 'WRONG'} |")
    (d / "step.md").write_text("\n".join(out) + "\n")
    print(d / "step.md")


if __name__ == "__main__":
    main()
