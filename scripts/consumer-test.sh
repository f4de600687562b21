#!/usr/bin/env bash
# Builds examples/consumer against tilec as an installed package, as another
# project would (ctest runs this as the test `tilec-consumer`):
#   1. cmake --install BUILD --prefix BUILD/consumer-test/prefix
#   2. configures examples/consumer into a fresh BUILD/consumer-test/build
#      with CMAKE_PREFIX_PATH set to that prefix and nothing else
#   3. builds it, and checks that neither the package nor the consumer's
#      build refers to tilec's source or build tree
#   4. runs it: on a GPU it JIT-compiles, runs and checks a kernel, and
#      runs and checks the kernel of scale.mlir that tilec_add_kernels
#      compiled at build time; without one it compiles the first kernel to
#      PTX, lists the embedded cubins and says so
# and prints how long each step took.
#
# The prefix and the consumer's build are removed when it passes, unless
# --keep is given.
#
#   scripts/consumer-test.sh [--build DIR] [--cmake CMAKE] [--cxx CXX]
#                            [--generator GEN] [--keep]
set -euo pipefail

TILEC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="$TILEC_ROOT/build"
CMAKE=cmake
CXX_COMPILER=""
GENERATOR=""
KEEP=0
while (($#)); do
  case "$1" in
    --build) BUILD_DIR="$2"; shift 2 ;;
    --cmake) CMAKE="$2"; shift 2 ;;
    --cxx) CXX_COMPILER="$2"; shift 2 ;;
    --generator) GENERATOR="$2"; shift 2 ;;
    --keep) KEEP=1; shift ;;
    *) echo "consumer-test: unknown argument $1" >&2; exit 2 ;;
  esac
done
BUILD_DIR="$(cd "$BUILD_DIR" && pwd)"
if [ -z "$GENERATOR" ] && command -v ninja >/dev/null; then
  GENERATOR=Ninja
fi

WORK="$BUILD_DIR/consumer-test"
PREFIX="$WORK/prefix"
CONSUMER_BUILD="$WORK/build"
rm -rf "$WORK"
mkdir -p "$WORK"

now() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }
fail() { echo "consumer-test: FAIL: $*" >&2; exit 1; }

t0=$(now)
"$CMAKE" --install "$BUILD_DIR" --prefix "$PREFIX" >"$WORK/install.log" \
  || { cat "$WORK/install.log"; fail "cmake --install"; }
t1=$(now)
for f in bin/tilec bin/tilec-opt bin/tilec-cubin-info \
         include/tilec/Runtime/Jit.h include/tilec/Compiler/Compiler.h \
         lib/cmake/tilec/tilecConfig.cmake lib/cmake/tilec/tilecConfigVersion.cmake \
         lib/cmake/tilec/TilecKernels.cmake include/tilec/Runtime/EmbeddedKernels.h; do
  [ -e "$PREFIX/$f" ] || fail "the install has no $f"
done

# Every path the package names: none may lie in tilec's trees (the prefix,
# under the build directory here, aside).
leaks() {
  grep -rhoE "($TILEC_ROOT|$BUILD_DIR)[^ \"';:)>]*" "$@" 2>/dev/null \
    | grep -vE "^($PREFIX|$CONSUMER_BUILD|$TILEC_ROOT/examples/consumer)(/|$)" \
    | sort -u || true
}
bad="$(leaks "$PREFIX/lib/cmake/tilec")"
[ -z "$bad" ] || fail "the installed package names tilec's trees: $bad"

config_args=(-S "$TILEC_ROOT/examples/consumer" -B "$CONSUMER_BUILD"
             -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$PREFIX"
             -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
[ -z "$GENERATOR" ] || config_args+=(-G "$GENERATOR")
[ -z "$CXX_COMPILER" ] || config_args+=(-DCMAKE_CXX_COMPILER="$CXX_COMPILER")
t2=$(now)
env -u CMAKE_PREFIX_PATH -u tilec_DIR -u tilec_ROOT \
  "$CMAKE" "${config_args[@]}" >"$WORK/configure.log" 2>&1 \
  || { cat "$WORK/configure.log"; fail "configuring the consumer"; }
t3=$(now)
"$CMAKE" --build "$CONSUMER_BUILD" >"$WORK/build.log" 2>&1 \
  || { cat "$WORK/build.log"; fail "building the consumer"; }
t4=$(now)

bad="$(leaks "$CONSUMER_BUILD/CMakeCache.txt" "$CONSUMER_BUILD"/*.ninja \
       "$CONSUMER_BUILD"/Makefile "$CONSUMER_BUILD"/CMakeFiles/*.dir)"
[ -z "$bad" ] || fail "the consumer's build names tilec's trees: $bad"

# Every installed header compiles with the installed ones and cuda.h alone
# (a public header that includes one not installed fails here).
cuda_include="$(sed -n 's/^TILEC_CUDA_INCLUDE_DIR:[A-Z]*=//p' "$CONSUMER_BUILD/CMakeCache.txt")"
(cd "$PREFIX/include" && find tilec -name '*.h' | sort | sed 's/.*/#include "&"/') \
  >"$WORK/all_headers.cpp"
"${CXX_COMPILER:-c++}" -std=c++17 -fsyntax-only -I"$PREFIX/include" \
  -isystem "$cuda_include" "$WORK/all_headers.cpp" \
  || fail "the installed headers do not compile on their own"

t5=$(now)
TILEC_CACHE_DIR="$WORK/cache" "$CONSUMER_BUILD/tilec-consumer" \
  || fail "tilec-consumer exited with $?"
t6=$(now)

[ "$KEEP" = 1 ] || rm -rf "$PREFIX" "$CONSUMER_BUILD" "$WORK/cache"
echo "consumer-test: PASS: install $(secs "$t0" "$t1") s, configure" \
     "$(secs "$t2" "$t3") s, build $(secs "$t3" "$t4") s, run" \
     "$(secs "$t5" "$t6") s"
