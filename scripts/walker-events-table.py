#!/usr/bin/env python3
"""Digests the walker event logs of `examples/walked_probe REPS events SIZES` (its
walker-events.csv) into a Markdown table: one row per build, distribution, size and launch,
with when the walker stood past the first tile (the end of its own finish of it, or the
first-tile event where its producer finished it), how long that finish took where the walker
ran it and, where the log stamps them, that finish's phases, the steps and their composes, the split ends inside the walk and their time, the gaps
from each split end in the walk to the next split (the segment's apply and the search for its
crossing between them), when the
last unit word was published (the producers' end) and when the walk ended (or, where the walker
met more events than its log keeps, its last kept event), all in µs from the walker's start.

Usage: python3 scripts/walker-events-table.py DIR/walker-events.csv > DIR/events.md"""
import collections
import csv
import sys


def digest(events):
    """The row of one launch's events (a list of dicts in log order)."""
    us = lambda e: float(e["us"])
    first_at, own_finish, phases = None, "", ""
    for i, a in enumerate(events):
        if a["kind"] != "finish" or a["tile"] != "0":
            continue
        end = next((j for j in range(i + 1, len(events)) if events[j]["kind"] == "finish end"), None)
        if end is None:
            break
        b = events[end]
        first_at, own_finish = us(b), f"{us(b) - us(a):.1f}"
        # Logs of builds that stamp the finish's phases (WalkerEventKind::FinishLoaded to
        # FinishWalked) hold them between its begin and end:
        # terms loaded, the planned pass's keys and scan, its walk (the rest: the rounds
        # where the pass failed, and the return).
        marks = {e["kind"]: us(e) for e in events[i + 1:end]}
        order = ["finish loaded", "finish keyed", "finish walked"]
        if all(k in marks for k in order):
            t = [us(a)] + [marks[k] for k in order] + [us(b)]
            phases = " / ".join(f"{y - x:.2f}" for x, y in zip(t, t[1:]))
        break
    for e in events:
        if e["kind"] == "first tile's sum":
            first_at = us(e)
            break
    steps = [e for e in events if e["kind"] == "step"]
    composes = [us(b) - us(a) for a, b in zip(events, events[1:])
                if a["kind"] == "step" and b["kind"] == "composed"]
    splits = [us(b) - us(a) for a, b in zip(events, events[1:])
              if a["kind"] == "walk split" and b["kind"] == "walk split end"]
    gaps = [us(b) - us(a) for a, b in zip(events, events[1:])
            if a["kind"] == "walk split end" and b["kind"] == "walk split"]
    return [
        f"{first_at:.1f}" if first_at is not None else "",
        own_finish,
        phases,
        str(len(steps)),
        f"{sum(composes):.1f}",
        f"{len(splits)} in {sum(splits):.1f}",
        " ".join(f"{g:.2f}" for g in gaps),
        events[0]["producers_us"],
        # A full log (more events met than kept) ends before the walk does.
        f"{us(events[-1]):.1f}" if int(events[0]["events_met"]) <= len(events)
        else f"after {us(events[-1]):.1f} (log full)",
        events[0]["events_met"],
    ]


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    runs = collections.OrderedDict()
    for r in rows:
        # Logs of bc9ee39's probe name no build: its one trace build, the engine's.
        build = r.get("build", "walked, traced")
        runs.setdefault((build, r["distribution"], r["terms"], r["run"]), []).append(r)
    print("| build | distribution | terms | launch | past the first tile | the walker's finish of it | its load / keys and scan / walk / rest | steps | in composes | split ends in the walk | gaps between them | last unit word | walk ends | events |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for (build, dist, terms, run), ev in runs.items():
        print("| " + " | ".join([build, dist, f"{int(terms):,}", run] + digest(ev)) + " |")


if __name__ == "__main__":
    main()
