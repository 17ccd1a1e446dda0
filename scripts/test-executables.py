#!/usr/bin/env python3
"""Reads `cargo test --message-format=json` on stdin and prints one line per test binary
built: its name (the target's name, `-KIND` added for a lib or bin target's tests), a tab,
and the executable's path. With a NAME argument, only that binary's line.
Used by scripts/stage-device.sh and scripts/stage-walked.sh."""
import json
import sys

only = sys.argv[1] if len(sys.argv) > 1 else None
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m.get("profile", {}).get("test"):
        kind = m["target"]["kind"][0]
        name = m["target"]["name"] if kind == "test" else m["target"]["name"] + "-" + kind
        if only is None or name == only:
            print(name + "\t" + m["executable"])
