"""One walked_probe run's folder (reports/walked-*/COMMIT/), read for the table scripts
(walked-planned-tables.py, walked-step-tables.py, walked-split-tables.py): its probe.csv,
cupy.json where the call timed cupy.sum, and the commit the probe was built from."""
import csv
import json
from pathlib import Path


def load(d: Path, first_build=None):
    """(rows by (build, distribution, terms), the inputs in the order the probe ran them, only
    those `first_build` ran where given, cupy.sum's median ms by size (empty without
    cupy.json), the commit: DIR/COMMIT's first seven characters, else the folder's name)."""
    rows = list(csv.DictReader(open(d / "probe.csv")))
    cupy = {}
    if (d / "cupy.json").exists():
        cupy = {s["n"]: s["median_ms"] for s in json.load(open(d / "cupy.json"))["sizes"]}
    by = {(r["build"], r["distribution"], int(r["terms"])): r for r in rows}
    inputs = list(dict.fromkeys((r["distribution"], int(r["terms"])) for r in rows
                                if first_build is None or r["build"] == first_build))
    commit = (d / "COMMIT").read_text().strip()[:7] if (d / "COMMIT").exists() else d.name
    return by, inputs, cupy, commit


def loop_bits(*rows):
    """Whether every row is present and its totals had the loop's bits, before and after
    the timed launches."""
    return all(r and r["exact"] == "true" and r["same_bits_after_timing"] == "true" for r in rows)
