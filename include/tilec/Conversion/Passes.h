//===- Passes.h - tilec conversion passes -----------------------*- C++ -*-===//

#ifndef TILEC_CONVERSION_PASSES_H
#define TILEC_CONVERSION_PASSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace tilec {
namespace tile {
class KernelOp;
} // namespace tile

#define GEN_PASS_DECL
#include "tilec/Conversion/Passes.h.inc"

/// Moves `kernel` into `gpuModule` as a gpu.func kernel and erases it.
mlir::FailureOr<mlir::gpu::GPUFuncOp>
outlineTileKernel(tile::KernelOp kernel, mlir::gpu::GPUModuleOp gpuModule);

/// Adds the launch-metadata global of one outlined kernel to its module.
mlir::LogicalResult emitLaunchMetadata(mlir::gpu::GPUFuncOp kernel);

/// Makes the tensor-map parameters that `kernel`'s tile.tensor_maps lists
/// 128-byte by-value grid constants; returns how many.
unsigned passTensorMapsByValue(mlir::LLVM::LLVMFuncOp kernel);

/// Gives `global` external linkage and 1024-byte alignment if it is a
/// dynamic shared memory symbol (a zero-length array in shared memory);
/// returns whether it was one.
bool externDynamicShared(mlir::LLVM::GlobalOp global);

/// Patterns rewriting math ops marked `afn` into NVIDIA's approximate
/// instructions (tile-approx-math-to-nvvm).
void populateApproxMathToNVVMPatterns(mlir::RewritePatternSet &patterns);

/// The CUDA toolkit the pipeline uses by default (and tile-module-to-cubin
/// without a toolkit option): the first of $CUDA_HOME, $CUDA_PATH,
/// $CUDA_ROOT that holds bin/ptxas, the parent of the `ptxas` on PATH, else
/// /usr/local/cuda.
std::string findCudaToolkit();

/// What compileToCubin needs besides the module (see tile-module-to-cubin).
struct CubinOptions {
  std::string toolkitPath;
  unsigned maxPartitions = 0;
  unsigned ptxasThreads = 0;
  std::string ptxasOptions;
  /// Keeps the PTX and ptxas's verbose log there; empty: temporary files.
  std::string dumpDirectory;
};

/// The kernels of `gpuModule` in at most `maxPartitions` groups (0: no
/// limit) that can be lowered or compiled to PTX apart: each a new
/// gpu.module, inside `holder`, with the symbols its kernels reach (kernels
/// that reach one public definition stay together), the heaviest first;
/// the first also holds what no kernel reaches. The ops move (or, where
/// several partitions need them, are copied): `gpuModule` is left empty.
llvm::SmallVector<mlir::gpu::GPUModuleOp>
splitKernels(mlir::gpu::GPUModuleOp gpuModule, unsigned maxPartitions,
             mlir::ModuleOp holder);

/// Moves the ops of `parts` into `into`, in order, and erases the parts. A
/// symbol that several hold is kept once: a declaration gives way to a
/// definition, and definitions must be equivalent (copies of one
/// file-local symbol), else an error on the second.
mlir::LogicalResult
joinKernelModules(mlir::gpu::GPUModuleOp into,
                  llvm::ArrayRef<mlir::gpu::GPUModuleOp> parts);

/// The attribute by which tile-split-kernel-modules marks each part with
/// the name of the gpu.module it came from.
inline constexpr llvm::StringLiteral kPartOfAttrName = "tilec.part_of";
/// The attribute on the first part that lists the module's symbols in
/// their order, which tile-join-kernel-modules restores.
inline constexpr llvm::StringLiteral kSymbolOrderAttrName =
    "tilec.symbol_order";

/// Whether `op` is a gpu.func kernel or an llvm.func marked nvvm.kernel.
bool isKernelFunction(mlir::Operation &op);

/// Whether `op` only declares a symbol defined elsewhere (an external
/// function or global without a body or value): every part may repeat it.
/// The dynamic shared memory is one (`.extern .shared ...` in PTX).
bool isSymbolDeclaration(mlir::Operation *op);

/// The cubin of `gpuModule` (lowered to LLVM/NVVM, one #nvvm.target), its
/// partitions' PTX made in parallel and assembled by one ptxas run; errors
/// are reported on the module. The module's ops move into the partitions:
/// its body is left empty. `numPartitions`, if given, receives how many
/// PTX partitions were made.
mlir::FailureOr<std::string> compileToCubin(mlir::gpu::GPUModuleOp gpuModule,
                                            const CubinOptions &options,
                                            unsigned *numPartitions = nullptr);

#define GEN_PASS_REGISTRATION
#include "tilec/Conversion/Passes.h.inc"

} // namespace tilec

#endif // TILEC_CONVERSION_PASSES_H
