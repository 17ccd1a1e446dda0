#!/usr/bin/env python3
"""Digests a run of scripts/sum-whole-command.sh: per command, the median, least and most ms
over its runs (times.tsv), and the medians of the GPU engine's device phases (`device` in
gpu-R.json). Prints Markdown.   Usage: sum-whole-command-digest.py DIR/sum-whole-command"""
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
    outs = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(d, "gpu-*.json")))]
    if outs:
        print("\n| GPU engine's phase | median ms |")
        print("| --- | --- |")
        for k in ("open_ms", "compile_ms", "upload_ms", "kernel_ms"):
            print(f"| {k} | {statistics.median(o['device'][k] for o in outs):.2f} |")
    bits = {o["bits"] for p in glob.glob(os.path.join(d, "*-*.json")) for o in [json.load(open(p))]}
    print(f"\nbits of every run: {', '.join(sorted(bits))}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.splitlines()[-1].strip())
    main(sys.argv[1])
