//===- SourceGuards.h - Text the MLIR 22 parser must not see ----*- C++ -*-===//
//
// Checks on the source text that run before MLIR parses it, for inputs that
// crash the parser of the MLIR release tilec builds against or overflow its
// stack. Shared by every tool that parses user text (tilec, tilec-opt, the
// compiler API, the JIT, the fuzz target).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_COMPILER_SOURCEGUARDS_H
#define TILEC_COMPILER_SOURCEGUARDS_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/SourceMgr.h"

namespace tilec {

/// How deep regions, attribute lists and operand lists may nest: far past
/// any real program (a kernel's loops and branches nest a few levels, a
/// dense attribute by its rank), far short of the parser's and the passes'
/// recursion running out of stack (10,000 levels crash).
constexpr unsigned kMaxNesting = 256;

/// Reports, as an error at its location in the main buffer of `sourceMgr`,
/// text that must not reach the parser: an `array<index: ...>` attribute
/// (MLIR 22's parser crashes on it; fixed upstream after 22.1), directly or
/// through type aliases, and nesting deeper than kMaxNesting. Comments and
/// string literals are skipped.
mlir::LogicalResult checkSourceGuards(const llvm::SourceMgr &sourceMgr,
                                      mlir::MLIRContext *context);

} // namespace tilec

#endif // TILEC_COMPILER_SOURCEGUARDS_H
