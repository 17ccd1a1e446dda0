#!/usr/bin/env bash
# Prints the first Python on this machine that imports CuPy (python3, then the GPU machine's
# /opt/torch virtual environment), or python3 where none does (the peer then fails with its
# own message). For the device scripts: py=$(bash scripts/cupy-python.sh).
for p in python3 /opt/torch/.venv/bin/python; do
  if "$p" -c "import cupy" 2>/dev/null; then echo "$p"; exit 0; fi
done
echo python3
