#!/usr/bin/env bash
# Runs the fuzz target on the GPU machine's CPU cores (16 there, 2 on the
# build machines), through the device tool:
#   here:  gzip -9c build-sanitize/bin/tilec-fuzz > .device/fuzz/tilec-fuzz.gz
#          tar -C build-sanitize/fuzz -czf .device/fuzz/corpus.tgz corpus
#                                                              (optional)
#   there: FUZZ_SECONDS=480 bash scripts/fuzz-device.sh
# The run's record line (runs.log) and one archive (fuzz-results.tgz: the
# grown corpus, what was found, slow inputs, the logs) come back under $OUT.
# With FUZZ_MERGE=1 the archive also holds corpus-min/, the smallest subset
# of the corpus with the same coverage (libFuzzer's -merge).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-fuzz"
mkdir -p "$build/bin" "$build/fuzz"
gunzip -c "$root/.device/fuzz/tilec-fuzz.gz" >"$build/bin/tilec-fuzz"
chmod +x "$build/bin/tilec-fuzz"
if [ -f "$root/.device/fuzz/corpus.tgz" ]; then
  tar -C "$build/fuzz" -xzf "$root/.device/fuzz/corpus.tgz"
fi
status=0
bash "$root/scripts/fuzz.sh" --build "$build" --time "${FUZZ_SECONDS:-480}" \
  --jobs "$(nproc)" --record "$OUT/runs.log" || status=$?
merged=()
if [ "${FUZZ_MERGE:-0}" = 1 ]; then
  mkdir -p "$build/fuzz/corpus-min"
  "$build/bin/tilec-fuzz" -merge=1 -timeout=60 -rss_limit_mb=6144 \
    "$build/fuzz/corpus-min" "$build/fuzz/corpus" 2>"$build/fuzz/merge.log" ||
    status=1
  merged=(corpus-min)
fi
# One archive: the device tool brings back only a few files.
cp -r "$root/test/fuzz/regressions" "$build/fuzz/"
tar -C "$build/fuzz" -czf "$OUT/fuzz-results.tgz" corpus "${merged[@]}" \
  regressions artifacts $(cd "$build/fuzz" && ls *.log)
exit "$status"
