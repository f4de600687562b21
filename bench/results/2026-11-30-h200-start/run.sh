#!/usr/bin/env bash
# One device call at the start of the 2026-11-30 session: the GPU checks the
# last session's changes never had (the scan_pair example, the window's
# 16-byte alignment and the 2-D copies' cols % vector check, through every
# example AOT, the matmul and attention examples included, and memcheck of
# the scan examples), then the staged f32 sum (scan_f32 alone) at 2^20, 2^24
# and 2^28 with its first-read sleep at 0-3000 ns (sleep-sweep.sh) and its
# piece at 2048/512, 3072/512 (the default) and 6144/1024, CUB in the same call.
#   here:  bash scripts/package-device.sh; build .device/slim (see
#          bench/examples-aot-device.sh); bash bench/scan/tuning/sleep-sweep.sh build;
#          .device/pieces/pNNNN.cubin: scan_f32 from tilec built with that kStagedPiece
#   there: bash bench/results/2026-11-30-h200-start/run.sh   (results.tgz under $OUT)
set -uo pipefail
cd "$(dirname "$0")/../../.."
R=/tmp/start-results; mkdir -p "$R"
pack() { tar czf "$OUT/results.tgz" -C /tmp start-results; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
OUT="$R/examples" bash bench/examples-aot-device.sh
mkdir -p "$R/memcheck"
compute-sanitizer --tool memcheck --error-exitcode 9 .device/slim/tilec-run-examples-aot \
  --cubin-dir .device/slim/cubins --mode aot --only scan,scan_pair,rowcumsum \
  > "$R/memcheck/scan-examples.log" 2>&1; echo "memcheck scan examples rc=$?"
tail -3 "$R/memcheck/scan-examples.log"
pack
source bench/scan/tuning/ptx-variants.sh
variants=()
for ns in 0 500 1000 2000 3000; do variants+=("sleep$ns=.device/sleep/sleep$ns.cubin"); done
for p in p2048 p3072 p6144; do variants+=("$p=.device/pieces/$p.cubin"); done
run_variants "$R/variants" "${variants[@]}" 2>&1 | tee "$R/variants.log"
pack
