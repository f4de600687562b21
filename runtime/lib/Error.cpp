//===- Error.cpp - Runtime errors -----------------------------------------===//

#include "tilec/Runtime/Error.h"

namespace tilec::rt {

namespace detail {
bool describeResult(CUresult result, std::string &name,
                    std::string &description);
} // namespace detail

namespace {
std::string nameOf(CUresult result) {
  std::string name, description;
  if (detail::describeResult(result, name, description))
    return name;
  return "CUresult " + std::to_string(static_cast<int>(result));
}

std::string descriptionOf(CUresult result) {
  std::string name, description;
  if (detail::describeResult(result, name, description) && !description.empty())
    return description;
  return "no description available";
}
} // namespace

std::string formatDriverError(std::string_view operation,
                              std::string_view kernel, std::string_view name,
                              std::string_view description) {
  std::string out(operation);
  out += " failed";
  if (!kernel.empty()) {
    out += " for kernel '";
    out += kernel;
    out += "'";
  }
  out += ": ";
  out += name;
  out += " (";
  out += description;
  out += ")";
  return out;
}

// The caller writes the kernel name into `message` where it reads best.
Error::Error(std::string message, std::string kernel)
    : std::runtime_error(std::move(message)),
      kernel_(std::move(kernel)) {}

Error::Error(CUresult result, std::string operation, std::string kernel)
    : Error(result, std::move(operation), std::move(kernel), nameOf(result),
            descriptionOf(result)) {}

Error::Error(CUresult result, std::string operation, std::string kernel,
             std::string name, std::string description)
    : std::runtime_error(
          formatDriverError(operation, kernel, name, description)),
      result_(result), operation_(std::move(operation)),
      kernel_(std::move(kernel)), cudaName_(std::move(name)),
      cudaDescription_(std::move(description)) {}

} // namespace tilec::rt
