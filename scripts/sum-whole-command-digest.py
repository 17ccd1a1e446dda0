#!/usr/bin/env python3
"""Digests a run of scripts/sum-whole-command.sh: per command, the median, least and most ms
over its runs (times.tsv), and for each GPU engine (gpu-R.json, gpu-staged-R.json,
gpu-onepass-R.json) the
medians of its command phases (`phases_ms`: read, wait) and device phases (`device`; older
runs lack some, shown as -). Prints Markdown.
Usage: sum-whole-command-digest.py DIR/sum-whole-command[-N]"""
import glob
import json
import os
import statistics
import sys


def main(d):
    with open(os.path.join(d, "times.tsv")) as f:
        lines = f.read().splitlines()
    built = lines[0].split("\t")[1] if lines and lines[0].startswith("built from") else "?"
    runs = {}
    for line in lines[2:]:
        what, _, ms, code = line.split("\t")
        if code != "0":
            sys.exit(f"{what} exited {code}")
        runs.setdefault(what, []).append(float(ms))
    print(f"built from {built}\n")
    print("| command | runs | median ms | min | max |")
    print("| --- | --- | --- | --- | --- |")
    for what, v in runs.items():
        print(f"| `{what}` | {len(v)} | {statistics.median(v):.1f} | {min(v):.1f} | {max(v):.1f} |")
    for engine in ("gpu", "gpu-staged", "gpu-onepass"):
        paths = [p for p in sorted(glob.glob(os.path.join(d, f"{engine}-*.json")))
                 if os.path.basename(p)[len(engine) + 1:-5].isdigit()]
        outs = [json.load(open(p)) for p in paths]
        if not outs:
            continue
        print(f"\n| `--engine {engine}` phase | median ms |")
        print("| --- | --- |")
        for k in ("read", "wait", "sum"):
            v = [o["phases_ms"][k] for o in outs if k in o.get("phases_ms", {})]
            print(f"| command: {k} | {statistics.median(v):.2f} |" if v else f"| command: {k} | - |")
        for k in ("open_ms", "compile_ms", "staging_ms", "upload_ms", "upload_host_copy_ms", "kernel_ms"):
            v = [o["device"][k] for o in outs if k in o["device"]]
            print(f"| device: {k} | {statistics.median(v):.2f} |" if v else f"| device: {k} | - |")
    by_engine = {}
    for p in sorted(glob.glob(os.path.join(d, "*-*.json"))):
        o = json.load(open(p))
        by_engine.setdefault(os.path.basename(p).rsplit("-", 1)[0], []).append(o.get("bits", "error"))
    print("\n| engine | bits of its runs |")
    print("| --- | --- |")
    for e, bits in by_engine.items():
        print(f"| {e} | {', '.join(bits)} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.splitlines()[-1].strip())
    main(sys.argv[1])
