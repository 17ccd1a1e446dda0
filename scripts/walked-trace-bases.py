#!/usr/bin/env python3
"""Which base and which moves each approximate prefix of a walked f32 launch was built from, read
from a `walked_f32_paths trace` CSV (reports/walked-moves/c3e9c6a/trace-geometric-1e8.csv.gz).

A tile whose look-back ended publishes an approximate inclusive prefix P_t = P_p + (the moves of
tiles p+1..t-1, as their plan words gave them) + its own move, p the base its look-back found.
In a stretch where every tile's window base is the loop's binade L less one (the trace's
`window` column), a tile's word gives its move in L - 1 ("below") to a prefix the look-back
takes to be in L - 1 or lower, and its move in L ("at") to one in L or above. For each prefix
in the stretch this searches the earlier prefixes p (up to 200 back) for one that explains it
exactly (to a hundredth of an ulp of L) as P_p plus the tiles' moves, each way:
  below/at: the tiles between moved from L - 1, the tile's own move from L;
  at/at:    all from L (what a look-back that knows its base's binade, L, does);
and counts how many prefixes each explains, with the distance to the base.

Usage: scripts/walked-trace-bases.py TRACE.csv[.gz] [FIRST LAST]   (default 2400 2750)"""
import collections
import csv
import gzip
import sys

path = sys.argv[1]
first = int(sys.argv[2]) if len(sys.argv) > 2 else 2400
last = int(sys.argv[3]) if len(sys.argv) > 3 else 2750
with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
    rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")][1:]
col = {"loop_binade": 2, "tree_sum": 3, "below": 5, "at": 6, "kind": 8, "plan": 9, "window": 10}


def prefix(t):
    """Tile t's approximate inclusive prefix, or None where its plan word holds moves."""
    return float(rows[t][col["plan"]]) if rows[t][col["kind"]] == "2" else None


def move(t, which):
    v = rows[t][col[which]]
    return float(v) if v else float("nan")


windows = collections.Counter(
    int(rows[t][col["loop_binade"]]) - int(rows[t][col["window"]])
    for t in range(first, last)
    if rows[t][col["kind"]] == "1" and rows[t][col["window"]] != "0"
)
print(f"tiles {first}..{last - 1}: plan words with moves, by loop binade less window base: {dict(windows)}")
ways = {"below/at": ("below", "at"), "at/at": ("at", "at")}
found = collections.Counter()
depth = collections.defaultdict(list)
for t in range(first, last):
    pt = prefix(t)
    if pt is None:
        continue
    ulp = 2.0 ** (int(rows[t][col["loop_binade"]]) - 150)
    hit = None
    for p in range(t - 1, max(0, t - 200), -1):
        pp = prefix(p)
        if pp is None:
            continue
        for name, (between, own) in ways.items():
            r = pt - pp - sum(move(k, between) for k in range(p + 1, t)) - move(t, own)
            if abs(r) < 0.01 * ulp:
                hit = (name, t - p)
                break
        if hit:
            break
    found[hit[0] if hit else "neither"] += 1
    if hit:
        depth[hit[0]].append(hit[1])
print(f"prefixes explained exactly: {dict(found)}")
for name, d in depth.items():
    d.sort()
    print(f"  {name}: base {d[0]} to {d[-1]} tiles back, median {d[len(d) // 2]}; more than 32 back: {sum(x > 32 for x in d)} of {len(d)}")
