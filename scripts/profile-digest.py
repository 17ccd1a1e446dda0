#!/usr/bin/env python3
"""Digest of an Nsight Compute source page (ncu --page source --csv --print-source sass):
   stalls.csv           each stall reason's share of the warp samples, largest first
   top_instructions.csv the instructions with the most samples: index, share, main reason,
                        executions, SASS text
   barriers.csv         every BAR and NANOSLEEP instruction executed: index, executions,
                        the samples of the instruction after it (where a barrier's wait lands)
   raw.csv              rewritten in place with plain numbers (ncu writes 1,234,567)
   README.md            what was profiled (meta.txt, sum.json, details.txt in OUTDIR) and the
                        figures above, every one read from these files
Usage: profile-digest.py SOURCE.csv OUTDIR"""
import json
import re
import csv
import os
import sys


def num(row, ix, name):
    try:
        return float(row[ix[name]])
    except (ValueError, KeyError):
        return 0.0


def main(src, out):
    rows = list(csv.reader(open(src, newline="")))
    head = next(r for r in rows if r and r[0] == "Address")
    data = [r for r in rows[rows.index(head) + 1:] if len(r) == len(head)]
    ix = {n: i for i, n in enumerate(head)}
    samples = "Warp Stall Sampling (All Samples)"
    total = sum(num(r, ix, samples) for r in data) or 1.0
    reasons = [n for n in head if n.startswith("stall_") and "Not Issued" not in n]
    with open(os.path.join(out, "stalls.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["reason", "share of samples (%)", "samples"])
        for n in sorted(reasons, key=lambda n: -sum(num(r, ix, n) for r in data)):
            s = sum(num(r, ix, n) for r in data)
            w.writerow([n, f"{100 * s / total:.2f}", int(s)])
    order = sorted(range(len(data)), key=lambda i: -num(data[i], ix, samples))
    with open(os.path.join(out, "top_instructions.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["index", "share of samples (%)", "main reason", "executions", "sass"])
        for i in order[:40]:
            r = data[i]
            top = max(reasons, key=lambda n: num(r, ix, n))
            w.writerow([i, f"{100 * num(r, ix, samples) / total:.2f}", top,
                        int(num(r, ix, "Instructions Executed")), r[ix["Source"]].strip()])
    with open(os.path.join(out, "barriers.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["index", "sass", "executions", "share of samples at the next 4 instructions (%)"])
        for i, r in enumerate(data):
            text = r[ix["Source"]]
            execs = num(r, ix, "Instructions Executed")
            if execs and ("BAR." in text or "NANOSLEEP" in text):
                after = sum(num(data[j], ix, samples) for j in range(i + 1, min(i + 5, len(data))))
                w.writerow([i, text.strip(), int(execs), f"{100 * after / total:.2f}"])


def metric(details, name):
    m = re.search(r"^\s*" + re.escape(name) + r"\s+(\S+)\s+([\d.,]+)\s*$", details, re.M)
    return (m.group(2), m.group(1)) if m else ("?", "")


PEOPLE = re.compile(r"^-?\d{1,3}(,\d{3})+(\.\d+)?$")


def plain_raw(out):
    path = os.path.join(out, "raw.csv")
    if not os.path.exists(path):
        return
    rows = list(csv.reader(open(path, newline="")))
    rows = [[c.replace(",", "") if PEOPLE.match(c) else c for c in r] for r in rows]
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows(rows)


def readme(out):
    details = open(os.path.join(out, "details.txt")).read()
    meta = open(os.path.join(out, "meta.txt")).read().strip().splitlines()
    stalls = list(csv.reader(open(os.path.join(out, "stalls.csv"))))[1:]
    bars = list(csv.reader(open(os.path.join(out, "barriers.csv"))))[1:]
    top_bars = sorted(bars, key=lambda r: -float(r[3]))[:3]
    sleeps = [r for r in bars if "NANOSLEEP" in r[1]]
    duration, unit = metric(details, "Duration")
    dram, _ = metric(details, "DRAM Throughput")
    m = re.search(r"^\s*Memory Throughput\s+([TG]byte/s)\s+([\d.,]+)\s*$", details, re.M)
    bw, bw_unit = (m.group(2), m.group(1)) if m else ("?", "")
    warps, _ = metric(details, "Achieved Active Warps Per SM")
    regs, _ = metric(details, "Registers Per Thread")
    lines = [
        "# Nsight Compute's view of one launch of the one-pass engine",
        "",
        "<!-- headline -->",
        f"**{duration} {unit}, DRAM at {dram}% of peak; {stalls[0][1]}% of the warps' stall samples are `{stalls[0][0]}`**",
        "",
        "Made by `bash scripts/profile-onepass.sh` on the GPU machine (ncu with `--clock-control none`, `--set full`, one launch of `binade sum --engine gpu`), digested by `scripts/profile-digest.py`.",
        "",
        "| | |",
        "| --- | --- |",
    ]
    lines += [f"| {line.split(' ', 1)[0]} | {line.split(' ', 1)[1] if ' ' in line else ''} |" for line in meta]
    lines += [
        f"| duration | {duration} {unit} |",
        f"| DRAM throughput | {dram}% of peak ({bw} {bw_unit} to memory) |",
        f"| registers per thread | {regs} |",
        f"| active warps per multiprocessor | {warps} |",
        "",
        "Stall reasons, share of all warp samples ([`stalls.csv`](stalls.csv)):",
        "",
        "| reason | share (%) |",
        "| --- | --- |",
    ]
    lines += [f"| {r[0]} | {r[1]} |" for r in stalls[:6]]
    lines += [
        "",
        "The barriers where the samples land (the instructions right after a barrier or a sleep, [`barriers.csv`](barriers.csv); the instruction indices are those of [`top_instructions.csv`](top_instructions.csv)):",
        "",
        "| index | instruction | executions | share of samples after it (%) |",
        "| --- | --- | --- | --- |",
    ]
    lines += [f"| {r[0]} | `{r[1]}` | {r[2]} | {r[3]} |" for r in top_bars]
    lines += [f"| {r[0]} | `{r[1]}` (a look-back's wait) | {r[2]} | {r[3]} |" for r in sleeps if int(r[2]) > 1000]
    lines += ["", "The whole of ncu's sections: [`details.txt`](details.txt); every metric: [`raw.csv`](raw.csv); the command's own output: `sum.json` (or `sum.txt`)."]
    open(os.path.join(out, "README.md"), "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
    plain_raw(sys.argv[2])
    readme(sys.argv[2])
