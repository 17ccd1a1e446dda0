#!/usr/bin/env python3
"""Times NVRTC builds of the one-pass module (kernels/binade.cuh + kernels/ordered_sum_onepass.cu),
or with MODULE=walked of the walked module (kernels/binade.cuh + kernels/ordered_sum_walked.cu),
with the given defines, one build per argument, and prints each build's status, seconds and any
error lines. Needs no GPU: only libnvrtc (e.g. `pip install nvidia-cuda-nvrtc`; point NVRTC_LIB
at its libnvrtc.so). With PTXAS=/path/ptxas (e.g. from `pip download nvidia-cuda-nvcc`) each
build's PTX is also assembled for sm_90 (`ptxas -v`) and every kernel's registers per thread,
stack frame and spill bytes are printed (and each noinline function's frame and spills): what the device will report, without a device.

Usage: NVRTC_LIB=/path/libnvrtc.so scripts/nvrtc-build-times.py "BINADE_OP_STAGED=1" \
           "BINADE_OP_DEFERRED=1,BINADE_OP_MUTANT=11" "BINADE_OP_CUMSUM=1"
Each argument is a comma-separated list of NAME=VALUE on top of the layout's defaults below
(the one-pass engine's tile: 256 threads x 32 terms; for the walked module the defines of
`WalkedShape::DEFAULT` as of this script's commit, which must be kept in step with it); an empty
argument is the engine's own build. With SOURCE_REV=REV the sources are REV's, not the working
tree's (ptxas's figures for a kernel measured at REV).
With SASS_DIR=DIR each build's cubin is kept as DIR/buildN.cubin (N from 0, in the order of
the arguments), for nvdisasm or cuobjdump -sass.
With AGAINST=REV (a git revision) each build is also compiled from REV's sources with the same
defines, and the line says whether the two PTX texts are byte for byte the same: a change meant
for trace or timing builds only (BINADE_OP_TRACE, BINADE_OP_UNTIL) must leave the engine's PTX
as it was, so that the engine's device results at REV still describe it. The exit status is 1
if any build fails or differs from REV's."""
import ctypes
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
lib = ctypes.CDLL(os.environ.get("NVRTC_LIB", "libnvrtc.so"))
WALKED = os.environ.get("MODULE", "onepass") == "walked"
FILES = ("binade.cuh", "ordered_sum_walked.cu" if WALKED else "ordered_sum_onepass.cu")


def sources(rev):
    """The module's text from the working tree (rev None) or from git revision rev."""
    if rev is None:
        return "".join(open(os.path.join(ROOT, "kernels", f)).read() + "\n" for f in FILES)
    return "".join(subprocess.run(["git", "-C", ROOT, "show", f"{rev}:kernels/{f}"], check=True,
                                  capture_output=True, text=True).stdout + "\n" for f in FILES)


src = sources(os.environ.get("SOURCE_REV"))
AGAINST = os.environ.get("AGAINST")
old_src = AGAINST and sources(AGAINST)
if WALKED:
    BASE = dict(BINADE_WK_THREADS=256, BINADE_WK_PER_THREAD=16, BINADE_WK_STEP=4, BINADE_WK_MIN_BLOCKS=4,
                BINADE_WK_MUTANT=0, BINADE_WK_PRODUCERS_ONLY=0, BINADE_WK_PHASES=3, BINADE_WK_PREFETCH=0,
                BINADE_WK_TRANSPOSE=1, BINADE_WK_FINISH_IN_STEP=1, BINADE_WK_HINT=1, BINADE_WK_LOOKBACK=1,
                BINADE_WK_FAR=1024, BINADE_WK_FAST_FINISH=0, BINADE_WK_SPLIT=1, BINADE_WK_PLANNED=1, BINADE_WK_SEG_STEP=1, BINADE_WK_FETCH_SPLITS=1, BINADE_WK_LAST_FIRST=1, BINADE_WK_FIRST=1, BINADE_WK_AHEAD=0, BINADE_WK_TRACE=0,
                BINADE_WK_F32=0, BINADE_WK_PL_MARGIN_EXP=44, BINADE_WK_PL_NATIVE_MAX=32, BINADE_WK_SS_SLOTS=16,
                BINADE_WK_OUT_STRIDE=20, BINADE_WK_EVENTS=64, BINADE_WK_MARGIN=0, BINADE_WK_EARLY=1, BINADE_WK_TIE_PARITY=1,
                BINADE_WK_STALL_CAP=0, BINADE_WK_STALL_CAP_SHIFT=25, BINADE_WK_MOVES=0,
                WK_PATH_TIE="1u", WK_PATH_HINTED="2u", WK_PATH_RANGED="4u", WK_PATH_WAITED="8u",
                WK_PATH_FAR="16u", WK_PATH_SPLIT="32u", WK_PATH_REREAD="64u")
else:
    BASE = dict(BINADE_OP_TRACE_WORDS=8, BINADE_OP_THREADS=256, BINADE_OP_PER_THREAD=32, BINADE_OP_TILE=8192,
                BINADE_OP_MUTANT=0, BINADE_OP_LB_WAYS=1, BINADE_OP_PLAN_WAITS=1, BINADE_OP_LANE_FAST=1,
                BINADE_OP_HOLD_RISKY=1)

def print_registers(lib, prog):
    """Assembles the program's PTX for sm_90 with $PTXAS -v and prints one line per kernel."""
    size = ctypes.c_size_t()
    lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
    ptx = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetPTX(prog, ptx)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "module.ptx")
        with open(path, "wb") as f:
            f.write(ptx.value)
        cubin = os.path.join(os.environ["SASS_DIR"], f"build{print_registers.count}.cubin") \
            if os.environ.get("SASS_DIR") else os.devnull
        print_registers.count += 1
        r = subprocess.run([os.environ["PTXAS"], "-arch=sm_90", "-v", path, "-o", cubin],
                           capture_output=True, text=True)
    kernel, frame, function = None, "", None
    for line in r.stderr.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        f = re.search(r"Function properties for (\w+)", line)
        if m:
            kernel = m.group(1)
        elif f:
            function = f.group(1)
        elif "stack frame" in line and function and function != kernel:
            # a function of its own (noinline): its frame and spills, which the kernel's
            # line does not include
            print(f"\t{function} (function): {line.strip()}", flush=True)
            function = None
        elif "stack frame" in line:
            frame = line.strip()
        elif "Used" in line and kernel:
            regs = re.search(r"Used (\d+) registers", line)
            smem = re.search(r"(\d+) bytes smem", line)
            print(f"\t{kernel}: {regs.group(1) if regs else '?'} registers, "
                  f"{smem.group(1) if smem else '?'} bytes of static shared memory; {frame}", flush=True)
            kernel, frame = None, ""
    if r.returncode != 0:
        print("\tptxas failed: " + r.stderr.strip().splitlines()[-1], flush=True)


print_registers.count = 0


def program_ptx(lib, prog):
    size = ctypes.c_size_t()
    lib.nvrtcGetPTXSize(prog, ctypes.byref(size))
    ptx = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetPTX(prog, ptx)
    return ptx.value


def build(lib, text, defines):
    """Compiles text with defines: (status, seconds, error lines, the program)."""
    prog = ctypes.c_void_p()
    lib.nvrtcCreateProgram(ctypes.byref(prog), text.encode(), FILES[1].encode(), 0, None, None)
    opts = [b"-arch=compute_90", b"-std=c++17", b"--fmad=false"] + [f"-D{k}={v}".encode() for k, v in defines.items()]
    arr = (ctypes.c_char_p * len(opts))(*opts)
    started = time.time()
    status = lib.nvrtcCompileProgram(prog, len(opts), arr)
    seconds = time.time() - started
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(prog, log)
    errors = [line for line in log.value.decode().splitlines() if "error" in line]
    return status, seconds, errors, prog


failed = 0
for arg in sys.argv[1:] or [""]:
    defines = dict(BASE)
    given = dict(kv.split("=") for kv in filter(None, arg.split(",")))
    if WALKED and given.get("BINADE_WK_F32") == "1":
        # WalkedShape::defines' f32 margin (walked_model::PLAN_MARGIN_EXP_F32) unless given
        defines["BINADE_WK_PL_MARGIN_EXP"] = 15
    defines.update(given)
    status, seconds, errors, prog = build(lib, src, defines)
    failed += status != 0
    same = ""
    if AGAINST and status == 0:
        old_status, _, _, old_prog = build(lib, old_src, defines)
        identical = old_status == 0 and program_ptx(lib, old_prog) == program_ptx(lib, prog)
        lib.nvrtcDestroyProgram(ctypes.byref(old_prog))
        failed += not identical
        same = f"PTX {'identical to' if identical else 'DIFFERENT from'} {AGAINST}'s"
    print(f"{arg or '(engine)'}\tstatus {status}\t{seconds:.1f} s\t{same}\t{' | '.join(errors[:3])}", flush=True)
    if status == 0 and os.environ.get("PTXAS"):
        print_registers(lib, prog)
    lib.nvrtcDestroyProgram(ctypes.byref(prog))
sys.exit(1 if failed else 0)
