#!/usr/bin/env bash
# Installs what tilec needs on a fresh Debian 12 machine (only what is
# missing), finds the CUDA toolkit, then configures and builds into build/.
# Sourced by examples.sh and test.sh; safe to run again.
set -euo pipefail

TILEC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${TILEC_BUILD_DIR:-$TILEC_ROOT/build}"
LLVM_PREFIX=/usr/lib/llvm-22

packages=(cmake ninja-build g++ llvm-22-dev libmlir-22-dev mlir-22-tools
          llvm-22-tools lld-22 libgtest-dev libzstd-dev zlib1g-dev
          ${TILEC_EXTRA_PACKAGES:-})
missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" \
    || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The CUDA toolkit: cuda.h for the runtime, ptxas for cubins.
find_cuda() {
  local dir
  for dir in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda /usr/local/cuda-13.0 /usr/lib/cuda; do
    if [ -n "$dir" ] && [ -f "$dir/include/cuda.h" ] && [ -x "$dir/bin/ptxas" ]; then
      echo "$dir"; return 0
    fi
  done
  return 1
}
if ! CUDA_HOME="$(find_cuda)"; then
  echo "setup: error: no CUDA toolkit found (need include/cuda.h and bin/ptxas);" \
       "install CUDA 13 or set CUDA_HOME" >&2
  exit 1
fi
export CUDA_HOME
export PATH="$CUDA_HOME/bin:$PATH"

# tilec_build DIR [CMAKE_ARGS...]: configures DIR once (with the arguments)
# and builds it.
tilec_build() {
  local dir="$1"
  shift
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$TILEC_ROOT" -B "$dir" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
      -DCUDAToolkit_ROOT="$CUDA_HOME" "$@" >/dev/null
  fi
  ninja -C "$dir" -j "$(nproc)"
}
tilec_build "$BUILD_DIR"
