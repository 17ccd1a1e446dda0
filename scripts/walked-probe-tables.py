#!/usr/bin/env python3
"""Tables of a walked_probe run (reports/walked-probe/COMMIT/): each build's median ms per
input beside cupy.sum's from the same device call, and the walker's counts (and, from runs
that record them, how each tile was planned, and the walker's finishes and trace stamps).

    python3 scripts/walked-probe-tables.py reports/walked-probe/d17d386

Writes DIR/tables.md from DIR/probe.csv and DIR/cupy.json (nothing is typed by hand); the
split table where the run recorded split counts."""
import csv
import json
import sys
from pathlib import Path


def main():
    d = Path(sys.argv[1])
    rows = list(csv.DictReader(open(d / "probe.csv")))
    cupy = {s["n"]: s["median_ms"] for s in json.load(open(d / "cupy.json"))["sizes"]}
    builds = list(dict.fromkeys(r["build"] for r in rows))
    inputs = list(dict.fromkeys((r["distribution"], int(r["terms"])) for r in rows))
    order = {x: i for i, x in enumerate(inputs)}
    inputs.sort(key=lambda x: (x[1], order[x]))
    by = {(r["build"], r["distribution"], int(r["terms"])): r for r in rows}
    out = ["Median ms of CUDA-event timings (`examples/walked_probe`); in brackets the ratio to `cupy.sum` on uniform data of the same size, timed in the same device call.", ""]
    out.append("| distribution | terms | cupy.sum | " + " | ".join(builds) + " |")
    out.append("| --- | --- | --- | " + " | ".join("---" for _ in builds) + " |")
    for dist, n in inputs:
        c = cupy.get(n)
        cells = []
        for b in builds:
            r = by.get((b, dist, n))
            if r is None or r["median_ms"].startswith("error"):
                cells.append("not run" if r is None else r["median_ms"])
                continue
            ms = float(r["median_ms"])
            cells.append(f"{ms:.4f} ({ms / c:.2f}x)" if c else f"{ms:.4f}")
        out.append(f"| {dist} | {n:,} | {c:.4f} | " + " | ".join(cells) + " |")
    out += ["", "The walker's counts and the bits (the engine's shape; the one-pass engine's tiles are 8,192 terms, the walked engine's 4,096):", ""]
    plans = "hinted_plans" in rows[0]
    far = "far_plans" in rows[0]
    extra = (" plans from the hint | plans from a range | look-backs that waited |" if plans else "") + (" plans from a far anchor |" if far else "")
    out.append("| build | distribution | terms | tiles | tiles finished from their terms | tiles with a tie | walker steps | walker sleeps | exact = CPU loop | same bits after the timed launches |" + extra)
    out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |" + (" --- | --- | --- |" if plans else "") + (" --- |" if far else ""))
    for dist, n in inputs:
        for b in builds:
            r = by.get((b, dist, n))
            if r is None:
                continue
            out.append(f"| {b} | {dist} | {n:,} | {r['tiles']} | {r['finished_tiles']} | {r['pair_tiles']} | {r['walker_steps'] or '-'} | {r['walker_sleeps'] or '-'} | {r['exact']} | {r['same_bits_after_timing']} |" + (f" {r['hinted_plans'] or '-'} | {r['ranged_plans'] or '-'} | {r['waited_plans'] or '-'} |" if plans else "") + (f" {r['far_plans'] or '-'} |" if far else ""))
    if "pair_rounds" in rows[0]:
        out += ["", "The walker's finishes (lanes added natively, fast and pair-unit rounds) and, for trace builds, one launch's clock stamps in µs from the walker's start (the device's %globaltimer): the walk, its time in finishes, and when the sum's last unit word was published:", ""]
        out.append("| build | distribution | terms | tiles finished | lanes added natively | fast rounds | pair-unit rounds | walker µs | in finishes µs | last unit published µs |")
        out.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for dist, n in inputs:
            for b in builds:
                r = by.get((b, dist, n))
                if r is None or not r["walker_steps"] or r["exact"] == "not a sum":
                    continue
                out.append(f"| {b} | {dist} | {n:,} | {r['finished_tiles']} | {r['native_lanes']} | {r['fast_rounds']} | {r['pair_rounds']} | {r['walker_us'] or '-'} | {r['finish_us'] or '-'} | {r['producers_us'] or '-'} |")
    if "split_ends" in rows[0]:
        out += ["", "Split crossings (`WalkedShape::split`): tiles whose producer published split words, and tiles the walker ended by them instead of a finish (in a trace build the walker's time on those counts as time in finishes):", ""]
        out.append("| build | distribution | terms | tiles with split words | tiles ended by them | tiles finished |")
        out.append("| --- | --- | --- | --- | --- | --- |")
        for dist, n in inputs:
            for b in builds:
                r = by.get((b, dist, n))
                if r is None or not r["walker_steps"] or r["exact"] == "not a sum":
                    continue
                out.append(f"| {b} | {dist} | {n:,} | {r['split_tiles']} | {r['split_ends']} | {r['finished_tiles']} |")
    (d / "tables.md").write_text("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
