#!/usr/bin/env bash
# Runs the fuzz target on the GPU machine's CPU cores (16 there, 2 on the
# build machines), through the device tool:
#   here:  gzip -9c build-sanitize/bin/tilec-fuzz > .device/fuzz/tilec-fuzz.gz
#          cp -r build-sanitize/fuzz/corpus .device/fuzz/   (optional)
#   there: FUZZ_SECONDS=480 bash scripts/fuzz-device.sh
# The run's record line (runs.log) and one archive (fuzz-results.tgz: the
# grown corpus, what was found, slow inputs, the logs) come back under $OUT.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-fuzz"
mkdir -p "$build/bin" "$build/fuzz"
gunzip -c "$root/.device/fuzz/tilec-fuzz.gz" >"$build/bin/tilec-fuzz"
chmod +x "$build/bin/tilec-fuzz"
if [ -d "$root/.device/fuzz/corpus" ]; then
  cp -r "$root/.device/fuzz/corpus" "$build/fuzz/corpus"
fi
status=0
bash "$root/scripts/fuzz.sh" --build "$build" --time "${FUZZ_SECONDS:-480}" \
  --jobs "$(nproc)" --record "$OUT/runs.log" || status=$?
# One archive: the device tool brings back only a few files.
cp -r "$root/test/fuzz/regressions" "$build/fuzz/"
tar -C "$build/fuzz" -czf "$OUT/fuzz-results.tgz" corpus regressions artifacts \
  $(cd "$build/fuzz" && ls *.log)
exit "$status"
