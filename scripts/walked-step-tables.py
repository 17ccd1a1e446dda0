#!/usr/bin/env python3
"""Before/after table of a walked_probe run that timed the walked engine with segmented steps
(`WalkedShape::seg_step`: a step ends many crossings) and with a crossing a step, in one
device call (reports/walked-step/COMMIT/): per input, both medians and their ratio, the ratio
to cupy.sum on uniform data of the same size from the same call (where the call timed it),
the producers alone, the trace builds' walker time and time in finishes and split ends (µs,
one launch each), the steps, the split ends inside a step's walk, and whether every total had
the CPU loop's bits; where the run also timed the segmented step with fetched splits
(`WalkedShape::fetch_splits`), a second table of those against the segmented step. A run of
the probe since 44b2fb6 (fetched splits in the engine's shape, timed against the step without
them) gets the second table only.

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
# The probe's builds since 44b2fb6: the engine (fetched splits) and the step without them.
ENGINE, ENGINE_T = "walked (fetched splits)", "walked, traced"
UNFETCHED, UNFETCHED_T = "walked, splits unfetched", "walked, splits unfetched traced"


def main():
    d = Path(sys.argv[1])
    by, inputs, cupy, commit = load(d)
    if any(b == ENGINE for b, _, _ in by):
        out = fetch_table(by, inputs, cupy, (UNFETCHED, UNFETCHED_T), (ENGINE, ENGINE_T))
    else:
        out = step_table(by, inputs, cupy, commit)
        out += fetch_table(by, inputs, cupy, (NEW, NEW_T), (FETCH, FETCH_T))
    (d / "step.md").write_text("\n".join(out).lstrip("\n") + "\n")
    print(d / "step.md")


def step_table(by, inputs, cupy, commit):
    """The segmented step against a crossing a step (the probe's builds until 44b2fb6)."""
    inputs = [(dist, n) for dist, n in inputs if (NEW, dist, n) in by]
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
    return out


def fetch_table(by, inputs, cupy, segmented, fetching):
    """Fetched splits against the segmented step without them: `segmented` and `fetching`
    are each (build, its trace build); the table's lines, none where the run timed no fetch."""
    (base, base_t), (fetch, fetch_t) = segmented, fetching
    fetched = [(dist, n) for dist, n in inputs if (fetch, dist, n) in by and (base, dist, n) in by]
    out = []
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
            new, f = by[(base, dist, n)], by[(fetch, dist, n)]
            nt, ft = by.get((base_t, dist, n)), by.get((fetch_t, dist, n))
            mn, mf = float(new["median_ms"]), float(f["median_ms"])
            c = cupy.get(n)
            walker = f"{nt['walker_us']}, {ft['walker_us']}" if nt and ft else ""
            fin = f"{nt['finish_us']}, {ft['finish_us']}" if nt and ft else ""
            exact = loop_bits(f, ft)
            out.append(
                f"| {dist} | {n:,} | {mn:.4f} | {mf:.4f} | {mf / mn:.2f} | "
                f"{f'{mf / c:.2f}' if c else 'not timed'} | {walker} | {fin} | "
                f"{'the loop' if exact else 'WRONG'} |")
    return out


if __name__ == "__main__":
    main()
