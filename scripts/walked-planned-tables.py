#!/usr/bin/env python3
"""Before/after table of a walked_probe run that timed the walked engine with its finishes
tried by a planned pass first (`WalkedShape::planned`) and with every finish by rounds, in
one device call (reports/walked-planned/COMMIT/): per input, both medians and their ratio,
the ratio to cupy.sum from the same call where the call timed it, the producers alone, the
trace builds' time in finishes and splits (µs, one launch), the finishes the planned pass
ended, and whether every total had the CPU loop's bits.

    python3 scripts/walked-planned-tables.py reports/walked-planned/ec9e84b

Writes DIR/planned.md from DIR/probe.csv (and DIR/cupy.json where present): nothing is typed
by hand."""
import sys
from pathlib import Path

from walked_probe_run import load, loop_bits

PLANNED, ROUNDS = "walked (planned finishes)", "walked, finishes by rounds"
PLANNED_T, ROUNDS_T = "walked, traced", "walked, finishes by rounds traced"
PRODUCERS = "walked producers only (not a sum)"


def main():
    d = Path(sys.argv[1])
    by, inputs, cupy, commit = load(d, PLANNED)
    out = [
        f"Planned finishes against every finish by rounds, `examples/walked_probe` in one device call "
        f"(`{commit}`): median ms of CUDA-event timings, their ratio, the ratio to `cupy.sum` on uniform "
        "data of the same size timed in the same call (where it was), the producers alone, the trace "
        "builds' time in finishes and split ends (µs, one launch), the finishes the planned pass ended "
        "(counted in the launch after the timed ones; the tiles finished are the first launch's, and plans vary from launch to launch), and whether every total had the loop's bits. Made by "
        "`scripts/walked-planned-tables.py`.",
        "",
        "| distribution | terms | rounds ms | planned ms | planned / rounds | planned / cupy.sum "
        "| producers alone ms | in finishes µs: rounds, planned | finishes ended by the planned pass (the launch after the timed ones) / tiles finished (the first launch) | bits |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for dist, n in inputs:
        p, r = by[(PLANNED, dist, n)], by[(ROUNDS, dist, n)]
        pt, rt = by.get((PLANNED_T, dist, n)), by.get((ROUNDS_T, dist, n))
        prod = by.get((PRODUCERS, dist, n))
        mp, mr = float(p["median_ms"]), float(r["median_ms"])
        c = cupy.get(n)
        ratio_c = f"{mp / c:.2f}" if c else "not timed"
        fin = f"{rt['finish_us']}, {pt['finish_us']}" if pt and rt else ""
        exact = loop_bits(p, r, pt, rt)
        out.append(
            f"| {dist} | {n:,} | {mr:.4f} | {mp:.4f} | {mp / mr:.2f} | {ratio_c} | "
            f"{prod['median_ms'] if prod else ''} | {fin} | {p['planned_finishes']} / {p['finished_tiles']} | "
            f"{'the loop' if exact else 'WRONG'} |")
    (d / "planned.md").write_text("\n".join(out) + "\n")
    print(d / "planned.md")


if __name__ == "__main__":
    main()
