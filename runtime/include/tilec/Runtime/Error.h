//===- Error.h - Runtime errors ---------------------------------*- C++ -*-===//
//
// Every failure in the runtime is reported by throwing tilec::rt::Error; the
// runtime never exits or aborts. An Error from the driver carries the CUresult,
// its CUDA name and description, the failed operation and the kernel involved.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_ERROR_H
#define TILEC_RUNTIME_ERROR_H

#include <cuda.h>

#include <stdexcept>
#include <string>
#include <string_view>

namespace tilec::rt {

class Error : public std::runtime_error {
public:
  /// A failure that did not come from the driver (bad arguments, missing
  /// metadata, compile errors, ...): result() is CUDA_SUCCESS.
  explicit Error(std::string message, std::string kernel = {});

  /// A failed driver call. The CUDA error name and description are looked up
  /// through the driver when it is loaded.
  Error(CUresult result, std::string operation, std::string kernel = {});

  CUresult result() const { return result_; }
  bool isDriverError() const { return result_ != CUDA_SUCCESS; }
  /// "cuLaunchKernel"; empty for non-driver errors.
  const std::string &operation() const { return operation_; }
  /// The kernel involved; empty when there is none.
  const std::string &kernel() const { return kernel_; }
  /// "CUDA_ERROR_INVALID_VALUE"; empty for non-driver errors.
  const std::string &cudaName() const { return cudaName_; }
  /// "invalid argument"; empty for non-driver errors.
  const std::string &cudaDescription() const { return cudaDescription_; }

private:
  Error(CUresult result, std::string operation, std::string kernel,
        std::string name, std::string description);

  CUresult result_ = CUDA_SUCCESS;
  std::string operation_, kernel_, cudaName_, cudaDescription_;
};

/// "cuLaunchKernel failed for kernel 'saxpy': CUDA_ERROR_INVALID_VALUE
/// (invalid argument)"; the kernel clause is left out when `kernel` is empty.
std::string formatDriverError(std::string_view operation,
                              std::string_view kernel, std::string_view name,
                              std::string_view description);

/// Throws an Error unless `result` is CUDA_SUCCESS.
inline void check(CUresult result, const char *operation,
                  std::string_view kernel = {}) {
  if (result != CUDA_SUCCESS)
    throw Error(result, operation, std::string(kernel));
}

} // namespace tilec::rt

#endif // TILEC_RUNTIME_ERROR_H
