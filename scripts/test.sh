#!/usr/bin/env bash
# Sets up, builds and runs every test: the lit suite (through ctest) and the
# GoogleTest unit tests. GPU tests skip themselves on machines without a GPU.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
ctest --test-dir "$BUILD_DIR" --output-on-failure
