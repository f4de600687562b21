#!/usr/bin/env bash
# Where attn_d128's warps stall, instruction by instruction: Nsight
# Compute's warp-state sampling of the SASS (source page) at
# 4x16x16x4096x4096, from .device/cubins/attention.cubin (the default
# schedule), with the tilec-run-examples-aot runner in .device. Prints the
# instructions with the most samples, and the samples by stall reason of
# the barrier instructions; the whole page under $OUT.
#   there: bash bench/attention/ncu-source-run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT="${OUT:-/tmp/tilec-ncu-source}"; mkdir -p "$OUT"
export PATH="/usr/local/cuda/bin:$PATH"
D=.device; chmod +x "$D/tilec-run-examples-aot"
ncu --section SourceCounters --section WarpStateStats -k regex:'^attn_d128$' -c 1 \
  --page source --print-source sass --csv \
  "$D/tilec-run-examples-aot" --cubin-dir "$D/cubins" --mode aot \
  --only attn_d128 --shapes 4x16x16x4096x4096 > "$OUT/source.csv" 2> "$OUT/ncu.log"
echo "ncu rc=$? $(wc -l < "$OUT/source.csv") lines"
python3 - "$OUT/source.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], errors="replace")))
head = next((i for i, r in enumerate(rows) if "Source" in r and any("Sampling" in c for c in r)), None)
if head is None:
    print("no source table; first lines:"); [print(",".join(r)[:160]) for r in rows[:8]]; sys.exit()
cols = rows[head]; body = [r for r in rows[head + 1:] if len(r) == len(cols)]
src = cols.index("Source")
samp = next(i for i, c in enumerate(cols) if c.startswith("Warp Stall Sampling (All"))
def num(x):
    try: return float(x.replace(",", ""))
    except ValueError: return 0.0
total = sum(num(r[samp]) for r in body) or 1
print(f"{len(body)} instructions, {total:.0f} samples")
for r in sorted(body, key=lambda r: -num(r[samp]))[:25]:
    print(f"{100 * num(r[samp]) / total:5.1f}%  {r[src][:90]}")
kinds = {}
for r in body:
    op = r[src].split()[0] if r[src].split() else "?"
    if op.startswith("@"): op = r[src].split()[1]
    kinds[op.split(".")[0]] = kinds.get(op.split(".")[0], 0) + num(r[samp])
print("by opcode:", ", ".join(f"{k} {100 * v / total:.1f}%" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])[:14]))
PY
