#!/usr/bin/env python3
"""Regenerates the table of reports/gpu-numpy-order-history/README.md from the runs' CSVs.

Each row is one gpu-numpy-order run: the folders under the history (named by the commit the
binary was built from) and the committed reports/gpu-numpy-order (the last run, its commit read
from its README's provenance table). Every figure is read from the run's numpy_order_times.csv
(uniform terms): the default build's column ("numpy order, device"), the fastest of the columns
between it and "cupy.sum" (the variants of that run), and cupy.sum. Only the sentence saying what
a run tried is kept here, by commit. The table is written between the README's two
`<!-- table -->` markers; the README is written to a temporary file and renamed into place.

Usage: python3 scripts/numpy-order-history.py   (from the repository root)
"""
import csv
import os
import re
import sys

HISTORY = "reports/gpu-numpy-order-history"
CURRENT = "reports/gpu-numpy-order"
UNIFORM = "uniform [0, 1)"
SIZES = ("8294400", "100000000", "1073741824")
TRIED = {
    "60aeabf": "the first kernel: a block per lattice point, eight threads a leaf, each row loaded and added in turn, fan 2^10, a launch to add +0",
    "1ef01af": "8 resident blocks a multiprocessor looping over points, every row loaded before the first add, fan 2^11, the root's block adding +0; paired 16-byte leaf loads beside",
    "3a9448f": "the resident launch sized by the occupancy API, a block per point beside it (the default again), both leaf loads",
    "85c1b5f": "60aeabf's leaf and fan again as the default; rows first, resident blocks, fan 2^11 and paired loads each a variant alone",
    "6074334": "paired loads the f64 default, no barrier after a block's last point",
    "caf28d6": "a block per point in a kernel of its own, without the loop over points (the resident kernel keeps it)",
}


def commit_of(readme):
    """The short commit of a report, from its provenance table."""
    with open(readme) as f:
        m = re.search(r"\| commit \| `([0-9a-f]{7})[0-9a-f]*(-dirty)?`", f.read())
    if m is None:
        sys.exit(f"{readme}: no commit in its provenance table")
    return m.group(1)


def row(folder, link):
    with open(os.path.join(folder, "numpy_order_times.csv"), newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["distribution"] == UNIFORM]
    by_size = {r["terms"]: r for r in rows}
    missing = [s for s in SIZES if s not in by_size]
    if missing:
        sys.exit(f"{folder}: no uniform row at {missing}")
    header = list(rows[0].keys())
    first, last = header.index("numpy order, device"), header.index("cupy.sum")
    variants = header[first:last]
    big = by_size[SIZES[-1]]
    fastest = min(variants, key=lambda c: float(big[c]))
    commit = commit_of(os.path.join(folder, "README.md"))
    if commit not in TRIED:
        sys.exit(f"{folder}: commit {commit} has no line in TRIED")
    default = " / ".join(by_size[s]["numpy order, device"] for s in SIZES)
    ratio = float(big["numpy order, device"]) / float(big["cupy.sum"])
    return commit, (
        f"| [`{commit}`]({link}) | {TRIED[commit]} | {default} | "
        f"{big[fastest]} ({fastest}) | {big['cupy.sum']} | {ratio:.2f} |"
    )


def main():
    runs = []
    for name in sorted(os.listdir(HISTORY)):
        folder = os.path.join(HISTORY, name, "timing")
        if os.path.isdir(folder):
            runs.append(row(folder, f"{name}/timing/README.md"))
    runs.append(row(CURRENT, "../gpu-numpy-order/README.md"))
    order = list(TRIED)
    runs.sort(key=lambda r: order.index(r[0]))
    table = [
        "| commit | what it tried | default: 8,294,400 / 10^8 / 2^30 terms (ms) | fastest variant at 2^30 (ms) | cupy.sum at 2^30 (ms) | default / cupy.sum at 2^30 |",
        "| --- | --- | --- | --- | --- | --- |",
    ] + [r[1] for r in runs]
    path = os.path.join(HISTORY, "README.md")
    with open(path) as f:
        text = f.read()
    parts = text.split("<!-- table -->\n")
    if len(parts) != 3:
        sys.exit(f"{path}: needs exactly two '<!-- table -->' lines")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(parts[0] + "<!-- table -->\n" + "\n".join(table) + "\n<!-- table -->\n" + parts[2])
    os.replace(tmp, path)
    print(f"{path}: {len(runs)} runs")


if __name__ == "__main__":
    main()
