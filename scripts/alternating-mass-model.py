#!/usr/bin/env python3
"""Why alternating signs keep their chunks term by term on the CPU's signed path: a model.

A stream of the law of `examples/signed_probe`'s alternating stream (magnitudes uniform in
[0, 1), signs alternating), 10^6 terms from Python's own generator (seed 2026; not the probe's
xoshiro stream), summed by Python's float adds in order (the loop), in chunks of 1,024 terms.
For each chunk it compares the chunk's mass `sum |x|` with the running sum's binade
`[2^e, 2^(e+1))` at the chunk's start: the signed path refuses a chunk whose `sum |r|` (`r` in
quanta `2^(e-52)`) reaches 2^53, that is `sum |x| >= 2^(e+1)`, and checks each term where it
reaches 2^51 (`sum |x| >= 2^(e-1)`). Prints the counts.

Usage: python3 scripts/alternating-mass-model.py
"""
import math
import random

random.seed(2026)
N, CHUNK = 1_000_000, 1024
x = [random.random() * (1 if i % 2 == 0 else -1) for i in range(N)]
s = 0.0
refused = checked = at_zero = 0
for c in range(0, N, CHUNK):
    chunk = x[c : c + CHUNK]
    if s == 0.0:
        at_zero += 1
    else:
        e = math.floor(math.log2(abs(s)))
        mass = sum(abs(v) for v in chunk)
        if mass >= 2.0 ** (e + 1):
            refused += 1
        elif mass >= 2.0 ** (e - 1):
            checked += 1
    for v in chunk:
        s += v
print(
    f"chunks {math.ceil(N / CHUNK)}: sum|x| >= 2^(e+1) (refused by the 2^53 bound): {refused}; "
    f"in [2^(e-1), 2^(e+1)) (each term checked): {checked}; starting at zero: {at_zero}"
)
