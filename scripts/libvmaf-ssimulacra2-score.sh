#!/usr/bin/env bash
# Scores every input of an inputs folder with a built libvmaf `vmaf` tool and writes the CSV
# of fixtures/libvmaf/ssimulacra2-scores*.csv: one row per frame and `yuv_matrix` option, the
# score's text exactly as the tool printed it. Needs only bash, python3 and the tool, so it also
# runs on a machine without the build tools (the GPU machine, for libvmaf's AVX-512 path):
# scripts/libvmaf-ssimulacra2.sh calls it after building; the inputs folder is what the
# ignored test `ssimulacra2_libvmaf write_libvmaf_inputs` writes (inputs.tsv and the raw files).
#
# Usage: scripts/libvmaf-ssimulacra2-score.sh VMAF INPUTS OUT_CSV COMMIT [VMAF_ARG...]
#   VMAF_ARG: extra arguments of every vmaf call (e.g. --cpumask 48).
# The CSV is written whole to OUT_CSV.tmp and renamed into place; one line and exit 2 on a
# failure, OUT_CSV untouched.
set -euo pipefail
die() { echo "libvmaf-ssimulacra2-score: $*" >&2; exit 2; }
[ $# -ge 4 ] || die "usage: VMAF INPUTS OUT_CSV COMMIT [VMAF_ARG...]"
VMAF="$1" INPUTS="$2" OUT_CSV="$3" COMMIT="$4"
shift 4
[ -x "$VMAF" ] || die "$VMAF is not an executable"
[ -f "$INPUTS/inputs.tsv" ] || die "$INPUTS has no inputs.tsv"
command -v python3 >/dev/null || die "python3 not found"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

tmp_csv="$OUT_CSV.tmp"
echo "input,frame,yuv_matrix,matrix,range,bit_depth,chroma,width,height,libvmaf_score,libvmaf_commit" >"$tmp_csv"
matrix_of=(bt709 bt601 bt709 bt601)
range_of=(limited limited full full)
while IFS=$'\t' read -r input stem width height chroma bits frames options; do
  for opt in ${options//,/ }; do
    json="$WORK/$stem.$opt.json"
    "$VMAF" -r "$INPUTS/$stem.ref.yuv" -d "$INPUTS/$stem.dis.yuv" -w "$width" -h "$height" \
      -p "$chroma" -b "$bits" --no_prediction --threads 1 "$@" \
      --feature "ssimulacra2=yuv_matrix=$opt" --precision max --json -o "$json" >"$WORK/vmaf.log" 2>&1 ||
      { tail -5 "$WORK/vmaf.log" >&2; rm -f "$tmp_csv"; die "$input yuv_matrix=$opt: vmaf failed"; }
    python3 - "$json" "$frames" "$input,%d,$opt,${matrix_of[$opt]},${range_of[$opt]},$bits,$chroma,$width,$height,%s,$COMMIT" >>"$tmp_csv" <<'PY'
import re, sys
path, frames, row = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# The score's text exactly as vmaf printed it (json.load would re-format the number).
text = open(path).read()
found = re.findall(r'"frameNum":\s*(\d+),\s*"metrics":\s*\{[^}]*?"ssimulacra2":\s*([-+0-9.eE]+)', text)
if len(found) != frames:
    sys.exit(f"{path}: {len(found)} ssimulacra2 frame scores, expected {frames}")
for num, score in found:
    print(row.replace("%d", num, 1).replace("%s", score, 1))
PY
  done
done <"$INPUTS/inputs.tsv"
mv "$tmp_csv" "$OUT_CSV"
echo "wrote $OUT_CSV ($(($(wc -l <"$OUT_CSV") - 1)) scores, libvmaf $COMMIT)"
