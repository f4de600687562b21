//===- Registration.h - What tilec's tools register -------------*- C++ -*-===//
//
// The one place that says which dialects, interfaces, translations and passes
// tilec uses; `tilec`, `tilec-opt` and the compiler library all call these.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_PIPELINE_REGISTRATION_H
#define TILEC_PIPELINE_REGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tilec {

/// Dialects, conversion interfaces, the NVVM target and LLVM IR translations.
void registerDialects(mlir::DialectRegistry &registry);

/// tilec's passes, the upstream passes its pipeline uses, and
/// `tilec-pipeline`.
void registerPasses();

} // namespace tilec

#endif // TILEC_PIPELINE_REGISTRATION_H
