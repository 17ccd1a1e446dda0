#!/usr/bin/env python3
"""Splits a held block's round into its parts from a trace CSV of `examples/onepass_trace`
(plain or gzipped): one row per tile, stamps in ns (landed, taken, planned, unit, exact), the
block and its round. Prints a Markdown table of means and medians, ns:
  take             its copy landed -> its tree sum published (read-out, ticket, span, next copy, tree sum)
  unit             its plan known -> its unit published
  round            a block's take of one tile -> its take of the next
  copy wait        the tile's last stamp before the block's next take -> the next tile's copy landed
  exact look-back  the next tile taken -> the tile's exact sum (tiles resolved after the take)
  plan itself      the tile's exact sum -> the next tile's plan known (same pairs)
  take to plan     the next tile taken -> its plan known (same pairs: look-back and plan, in
                   series or, in a paired build, side by side)
The first three over every tile but a sum's first (take, unit) or every pair a block ran in
turn (round); the rest over pairs a block ran in turn. Where the CSV has the look-backs' trips
(commit 9f1da0e on), a second table: for the exact look-backs after the take that never slept,
their count and median ns by the reads they took (what one read of the records costs when
nothing is waited for), and the share of tiles whose exact look-back slept at all.
Usage: trace-round.py TRACE.csv[.gz]"""
import csv
import gzip
import statistics
import sys


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        tiles = [{k: int(v) for k, v in row.items()} for row in csv.DictReader(f)]
    rest = tiles[1:]
    by_block = {}
    for t in tiles:
        by_block.setdefault(t["block"], []).append(t)
    pairs = []
    for ts in by_block.values():
        ts.sort(key=lambda t: t["round"])
        pairs.extend(zip(ts, ts[1:]))
    late = [(a, b) for a, b in pairs if a["exact_ns"] > b["taken_ns"]]
    parts = [
        ("take", [t["taken_ns"] - t["landed_ns"] for t in rest]),
        ("unit", [t["unit_ns"] - t["planned_ns"] for t in rest]),
        ("round", [b["taken_ns"] - a["taken_ns"] for a, b in pairs]),
        ("copy wait", [b["landed_ns"] - (a["exact_ns"] if a["exact_ns"] <= b["landed_ns"] else a["unit_ns"])
                       for a, b in pairs]),
        ("exact look-back", [a["exact_ns"] - b["taken_ns"] for a, b in late]),
        ("plan itself", [b["planned_ns"] - a["exact_ns"] for a, b in late]),
        ("take to plan", [b["planned_ns"] - b["taken_ns"] for a, b in late]),
    ]
    print(f"{path}: {len(tiles)} tiles, {len(by_block)} blocks, {len(pairs)} pairs run in turn\n")
    print("| part | values | mean ns | median ns |")
    print("| --- | --- | --- | --- |")
    for name, v in parts:
        print(f"| {name} | {len(v)} | {statistics.mean(v):,.0f} | {statistics.median(v):,.0f} |")
    if "exact_reads" not in tiles[0]:
        return
    slept = sum(t["exact_sleeps"] > 0 for t in rest)
    print(f"\nExact look-backs that slept: {slept:,} of {len(rest):,} tiles after the first "
          f"({100 * slept / len(rest):.1f}%). Those after the take that never slept, by reads:\n")
    print("| exact reads | look-backs | median ns | median ns a read |")
    print("| --- | --- | --- | --- |")
    by_reads = {}
    for a, b in late:
        if a["exact_sleeps"] == 0:
            by_reads.setdefault(a["exact_reads"], []).append(a["exact_ns"] - b["taken_ns"])
    for reads in sorted(by_reads)[:6]:
        v = by_reads[reads]
        med = statistics.median(v)
        print(f"| {reads} | {len(v):,} | {med:,.0f} | {med / reads:,.0f} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.splitlines()[-1].strip())
    main(sys.argv[1])
