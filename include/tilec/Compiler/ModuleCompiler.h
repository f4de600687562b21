//===- ModuleCompiler.h - Compiling a parsed module -------------*- C++ -*-===//
//
// The MLIR-facing layer under Compiler.h, for drivers that need to configure
// the pass manager (debugging flags) or already hold a module.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_MODULECOMPILER_H
#define TILEC_COMPILER_MODULECOMPILER_H

#include "tilec/Compiler/Compiler.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {

/// Parses the main buffer of `sourceMgr` as a module, or reports why not.
/// Text that checkSourceGuards rejects (what crashes the MLIR 22 parser) is
/// reported at its location, not parsed.
mlir::OwningOpRef<mlir::ModuleOp> parseModule(llvm::SourceMgr &sourceMgr,
                                              mlir::MLIRContext *context);


/// Runs the pipeline for `options` on `module` and writes the artifact to
/// `os`. `configure` may adjust the pass manager (IR printing, timing).
/// Errors are reported as diagnostics on the module's context.
mlir::LogicalResult compileModule(
    mlir::ModuleOp module, const CompileOptions &options, llvm::raw_ostream &os,
    llvm::function_ref<mlir::LogicalResult(mlir::PassManager &)> configure = {});

} // namespace tilec

#endif // TILEC_COMPILER_MODULECOMPILER_H
