//===- SanitizerOptions.cpp - run-time defaults of the sanitizer build ----===//
//
// Linked into every executable of a TILEC_SANITIZE build. The environment's
// ASAN_OPTIONS / UBSAN_OPTIONS still override these.
//
//===----------------------------------------------------------------------===//

extern "C" {

// allow_user_poisoning=0: our code is instrumented and Debian's MLIR is not.
// The instrumented copies of LLVM's allocator headers (BumpPtrAllocator's
// inline functions, compiled into our objects) poison slabs that MLIR's
// uninstrumented copies of the same functions then hand out without
// unpoisoning, so our code's accesses to that memory would be reported.
// ASan's own checks (heap, stack, globals, use after free) stay on.
const char *__asan_default_options() { return "allow_user_poisoning=0"; }

const char *__ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1";
}

} // extern "C"
