#!/usr/bin/env python3
"""Markdown table of a one-pass schedule probe (examples/onepass_schedules, its CSV on stdin):
one row per input, one column per configuration (median ms), and each configuration's ratio
to the first one (the engine) in the same run. Every number is read from the CSV."""
import csv
import sys

rows = list(csv.DictReader(sys.stdin))
configs = list(dict.fromkeys(r["config"] for r in rows))
inputs = list(dict.fromkeys((r["distribution"], r["terms"]) for r in rows))
by = {(r["config"], r["distribution"], r["terms"]): r for r in rows}
head = ["distribution", "terms"] + [f"{c}, ms" for c in configs] + [f"{c} / {configs[0]}" for c in configs[1:]]
head += ["tiles finished lane by lane", "every total = CPU loop"]
print("| " + " | ".join(head) + " |")
print("| " + " | ".join("---" for _ in head) + " |")
for d, n in inputs:
    got = [by.get((c, d, n)) for c in configs]
    ms = [float(g["median_ms"]) if g else None for g in got]
    cells = [d, f"{int(n):,}"] + [f"{m:.4f}" if m is not None else "not run" for m in ms]
    cells += [f"{m / ms[0]:.2f}" if m is not None and ms[0] else "not run" for m in ms[1:]]
    fin = sorted({g["finished_tiles"] for g in got if g})
    cells += [" / ".join(fin), str(all(g and g["exact"] == "true" for g in got)).lower()]
    print("| " + " | ".join(cells) + " |")
