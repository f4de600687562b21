#!/usr/bin/env bash
# Sets up, builds and runs every test, twice:
#  1. build/ (release, g++): the lit suite and the GoogleTest unit tests;
#  2. build-sanitize/ (clang-22, AddressSanitizer + UndefinedBehaviorSanitizer
#     over tilec's own code, libFuzzer coverage): the same tests under the
#     sanitizers, every input that ever crashed the fuzz target, and a
#     five-minute fuzzing run (scripts/fuzz.sh).
# GPU tests skip themselves on machines without a GPU.
set -euo pipefail
TILEC_EXTRA_PACKAGES="clang-22 libclang-rt-22-dev"
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ctest --test-dir "$BUILD_DIR" --output-on-failure

SANITIZE_DIR="${TILEC_SANITIZE_BUILD_DIR:-$TILEC_ROOT/build-sanitize}"
tilec_build "$SANITIZE_DIR" \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DTILEC_SANITIZE=address,undefined -DTILEC_ENABLE_FUZZER=ON
ctest --test-dir "$SANITIZE_DIR" --output-on-failure
