//===- LaunchMetadata.h - How to launch a tilec kernel ----------*- C++ -*-===//
//
// The contract between the compiler, which writes launch metadata into every
// cubin it produces, and the runtime, which reads it to check arguments and
// compute the grid so that users never do. Plain C++17: no LLVM, no CUDA.
//
// Storage: for each kernel K, the cubin holds a NUL-terminated byte array in
// global memory named `__tilec_launch_K` whose text is `serialize(meta)`:
//
//   tilec-launch 1
//   kernel softmax
//   params buffer:f32:2 buffer:f32:2 scalar:i32
//   block 128 1 1
//   grid 0.0/1 - -
//   shared 0
//
// Grid: one field per dimension; `-` is 1, otherwise terms joined by `*`,
// each `A.D/P` = ceildiv(size of dimension D of buffer argument A, P) or
// `A/P` = ceildiv(value of integer scalar argument A, P). A dimension is the
// product of its terms, at least 1.
//
// Kernel ABI (the default MLIR memref calling convention): a scalar argument
// is passed by value; a buffer argument of rank r becomes 3 + 2r parameters:
// allocated pointer, aligned pointer, offset (i64, elements), sizes[r] (i64),
// strides[r] (i64, elements).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_LAUNCHMETADATA_H
#define TILEC_RUNTIME_LAUNCHMETADATA_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

enum class ScalarType { I1, I8, I16, I32, I64, F16, BF16, F32, F64 };

/// Size in bytes of one element (i1 is stored as one byte).
unsigned scalarTypeSize(ScalarType type);
/// "f32", "bf16", ...
const char *scalarTypeName(ScalarType type);
std::optional<ScalarType> parseScalarType(std::string_view name);

struct ParamInfo {
  enum class Kind { Scalar, Buffer };
  Kind kind = Kind::Scalar;
  ScalarType type = ScalarType::F32;
  /// Rank of a buffer argument; 0 for scalars.
  unsigned rank = 0;

  bool operator==(const ParamInfo &o) const {
    return kind == o.kind && type == o.type && rank == o.rank;
  }
};

/// One factor of a grid dimension: ceildiv(extent, perProgram), where extent
/// is dimension `dim` of buffer argument `arg`, or the value of integer scalar
/// argument `arg` when `dim` is empty.
struct GridTerm {
  unsigned arg = 0;
  std::optional<unsigned> dim;
  int64_t perProgram = 1;

  bool operator==(const GridTerm &o) const {
    return arg == o.arg && dim == o.dim && perProgram == o.perProgram;
  }
};

struct LaunchMetadata {
  static constexpr int kVersion = 1;
  std::string kernel;
  std::vector<ParamInfo> params;
  std::array<unsigned, 3> block = {1, 1, 1};
  /// Each grid dimension is the product of its terms (1 when empty).
  std::array<std::vector<GridTerm>, 3> grid;
  /// Dynamic shared memory in bytes.
  unsigned sharedBytes = 0;

  bool operator==(const LaunchMetadata &o) const {
    return kernel == o.kernel && params == o.params && block == o.block &&
           grid == o.grid && sharedBytes == o.sharedBytes;
  }
};

/// Name of the global that holds the metadata of `kernel` in a cubin.
std::string launchMetadataSymbol(std::string_view kernel);

std::string serialize(const LaunchMetadata &meta);

/// Parses `serialize`'s output. On failure returns nullopt and, if `error` is
/// given, a one-line reason.
std::optional<LaunchMetadata> parseLaunchMetadata(std::string_view text,
                                                  std::string *error = nullptr);

} // namespace tilec

#endif // TILEC_RUNTIME_LAUNCHMETADATA_H
