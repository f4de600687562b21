//===- Compiler.h - tilec as a library --------------------------*- C++ -*-===//
//
// The public, MLIR-free entry point of the compiler: tile source in, MLIR,
// LLVM IR, PTX or a cubin out. `tilec` is a thin driver over this, and the
// runtime's JIT calls it in-process. Plain C++17 types only, so that users do
// not need LLVM's headers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_COMPILER_H
#define TILEC_COMPILER_COMPILER_H

#include <string>
#include <vector>
#include <string_view>

namespace tilec {

enum class EmitKind { MLIR, LLVM, PTX, Cubin };

struct CompileOptions {
  /// sm_80, sm_90 or sm_90a.
  std::string arch = "sm_90a";
  /// 0..3, passed to LLVM's NVPTX back end and to ptxas.
  int optLevel = 3;
  EmitKind emit = EmitKind::Cubin;
  /// The name diagnostics use for the source buffer (and, with lineInfo,
  /// the file that PTX's .file directive names).
  std::string bufferName = "<source>";
  /// PTX and SASS carry the source's line numbers (ptxas -lineinfo), so
  /// that Nsight Compute's source view maps instructions to tile ops.
  bool lineInfo = false;
  /// Further ptxas options, space-separated (e.g. "-v --maxrregcount=128").
  std::string ptxasOptions;
  /// Kernels copied by the threads get an element-copy twin and every
  /// cp.async width (PipelineOptions::alignedCopyKernels).
  bool alignedCopyKernels = false;
  /// Warpgroup-MMA matmuls get a producer warp, persistent tiles and
  /// clusters (PipelineOptions::producerWarp).
  bool producerWarp = true;
  /// Compile only these kernels (and the kernels they name by tile.then);
  /// empty: every kernel (PipelineOptions::kernels).
  std::vector<std::string> kernels;
  /// Compile only the kernels no kernel names as a variant, and their then
  /// kernels (PipelineOptions::mainKernelsOnly).
  bool mainKernelsOnly = false;
  /// Verify the IR after every pass, not only between the pipeline's
  /// stages (tile-verify-stage): slower, for finding the pass that broke
  /// it. Not part of the JIT's cache key: it changes no cubin.
  bool verifyEachPass = false;
  /// When set, the compile leaves in this folder (made if missing) what it
  /// went through: the IR after every pass (passes.mlir), the PTX of each
  /// partition (ptx-N.ptx) and ptxas's verbose log (ptxas.log). Not part of
  /// the JIT's cache key: it changes no cubin.
  std::string dumpDirectory;
};

struct CompileResult {
  bool ok = false;
  /// The artifact: textual MLIR / LLVM IR / PTX, or cubin bytes.
  std::string output;
  /// Located diagnostics (`file:line:col: error: ...`), one per line.
  std::string diagnostics;
};

/// Compiles `source` (a module of tile kernels). Never aborts: invalid input
/// yields ok == false and the diagnostics.
CompileResult compile(std::string_view source, const CompileOptions &options);

/// "tilec 0.1.0 (MLIR 22.1.8)": part of every JIT cache key.
const char *versionString();

} // namespace tilec

#endif // TILEC_COMPILER_COMPILER_H
