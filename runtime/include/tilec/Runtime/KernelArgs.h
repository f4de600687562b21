//===- KernelArgs.h - Typed kernel arguments, grids, packing ----*- C++ -*-===//
//
// The GPU-free half of a launch: checking argument values against a kernel's
// launch metadata, computing its grid, and packing the values into the
// parameter list of the kernel ABI (see LaunchMetadata.h). Pure functions, so
// they are unit-tested on machines without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_KERNELARGS_H
#define TILEC_RUNTIME_KERNELARGS_H

#include "tilec/Runtime/LaunchMetadata.h"

#include <cuda.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tilec::rt {

/// A strided view of device memory, the value of a buffer argument.
struct TensorView {
  static constexpr unsigned kMaxRank = 8;

  CUdeviceptr data = 0;
  ScalarType type = ScalarType::F32;
  unsigned rank = 0;
  /// Elements per dimension; only the first `rank` entries are used.
  std::array<int64_t, kMaxRank> sizes{};
  /// In elements, not bytes.
  std::array<int64_t, kMaxRank> strides{};

  /// A row-major, contiguous view of `sizes` starting at `data`. Throws Error
  /// if the rank exceeds kMaxRank or a size is negative.
  static TensorView contiguous(CUdeviceptr data, ScalarType type,
                               const std::vector<int64_t> &sizes);
  int64_t numElements() const;
};

/// A 16-bit scalar passed as its raw bits: f16, bf16 or i16.
struct Raw16 {
  ScalarType type = ScalarType::F16;
  uint16_t bits = 0;
};
inline Raw16 f16Bits(uint16_t bits) { return {ScalarType::F16, bits}; }
inline Raw16 bf16Bits(uint16_t bits) { return {ScalarType::BF16, bits}; }

/// The element types of f16 and bf16 buffers (TypedView<Half>) and the
/// values of f16 and bf16 scalars: the raw bits of an IEEE binary16 or a
/// bfloat16 number, without arithmetic. Two bytes each, so a vector of them
/// uploads as the device's data.
struct Half {
  uint16_t bits = 0;
};
struct BFloat16 {
  uint16_t bits = 0;
};

/// One argument value. Constructors are implicit so that launch() reads like a
/// call; only these exact types are accepted (a size_t must be cast, so that
/// its width is a choice rather than an accident).
class KernelArg {
public:
  using Value = std::variant<float, double, int32_t, int64_t, Raw16, TensorView>;

  KernelArg(float v) : value_(v) {}
  KernelArg(double v) : value_(v) {}
  KernelArg(int32_t v) : value_(v) {}
  KernelArg(int64_t v) : value_(v) {}
  KernelArg(Raw16 v) : value_(v) {}
  KernelArg(Half v) : value_(Raw16{ScalarType::F16, v.bits}) {}
  KernelArg(BFloat16 v) : value_(Raw16{ScalarType::BF16, v.bits}) {}
  KernelArg(const TensorView &v) : value_(v) {}

  const Value &value() const { return value_; }
  bool isBuffer() const { return std::holds_alternative<TensorView>(value_); }
  /// The value of an i32 or i64 scalar; nullopt for any other argument.
  std::optional<int64_t> integer() const {
    if (const auto *v = std::get_if<int32_t>(&value_))
      return *v;
    if (const auto *v = std::get_if<int64_t>(&value_))
      return *v;
    return std::nullopt;
  }
  /// What this value is, in the metadata's spelling: "scalar:i32",
  /// "buffer:f32:1".
  std::string describe() const;
  /// The parameter this value matches exactly.
  ParamInfo paramInfo() const;

private:
  Value value_;
};

/// "buffer:f32:1" / "scalar:i32", as in the metadata text.
std::string describeParam(const ParamInfo &param);

/// Checks the number, kinds, types and ranks of `args` against the metadata,
/// and that buffer views are well formed. Throws Error naming the kernel and
/// the argument index.
void validateArguments(const LaunchMetadata &meta,
                       const std::vector<KernelArg> &args);

/// CUDA's limits on grid dimensions.
constexpr std::array<uint64_t, 3> kMaxGrid = {2147483647u, 65535u, 65535u};

/// The grid of a launch: each dimension is the product of its ceildiv terms.
/// A dimension of 0 (an empty buffer) means there is nothing to launch.
/// Validates the arguments first; throws Error for a negative scalar extent or
/// a dimension beyond kMaxGrid.
std::array<uint64_t, 3> computeGrid(const LaunchMetadata &meta,
                                    const std::vector<KernelArg> &args);

/// Kernel parameters in ABI order, each in its own 8-byte slot (little-endian,
/// so a 4- or 2-byte value is the slot's low bytes): the user parameters,
/// then the scratch buffer's 5 if any; then the encoded tensor maps.
struct PackedArgs {
  std::vector<uint64_t> slots;
  /// Size in bytes of each slot's parameter (8 for pointers and i64).
  std::vector<unsigned> sizes;
  /// The tensor maps, in metadata order. CUtensorMap is over-aligned in
  /// cuda.h (64 or 128 bytes), which the driver expects of what it copies.
  std::vector<CUtensorMap> tensorMaps;

  /// The `kernelParams` array for cuLaunchKernel: one pointer per slot, then
  /// one per tensor map; valid while this object is alive and unchanged.
  std::vector<void *> pointers();
};

/// The arguments of one cuTensorMapEncodeTiled call. Arrays are innermost
/// dimension first; only the first `rank` entries (rank - 1 for strides)
/// are used.
struct TensorMapRequest {
  CUtensorMapDataType dataType = CU_TENSOR_MAP_DATA_TYPE_UINT8;
  cuuint32_t rank = 0;
  CUdeviceptr address = 0;
  /// For a [rows, cols] view: {cols, rows}.
  std::array<cuuint64_t, 5> globalDim{};
  /// In bytes, for dimensions 1..rank-1 (the innermost stride is implicit).
  std::array<cuuint64_t, 4> globalStrides{};
  std::array<cuuint32_t, 5> boxDim{};
  /// All 1: every element of the box is loaded.
  std::array<cuuint32_t, 5> elementStrides{};
  CUtensorMapSwizzle swizzle = CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  /// The widest of 64, 128 and 256 bytes within the box's inner extent.
  CUtensorMapL2promotion l2Promotion = CU_TENSOR_MAP_L2_PROMOTION_NONE;
  /// Out-of-bounds elements read as zero, which is what pads partial tiles.
  CUtensorMapFloatOOBfill oobFill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
};

/// The TMA element type of `type`; nullopt for i1, which TMA lacks.
std::optional<CUtensorMapDataType> tensorMapDataType(ScalarType type);

/// The encode request for `info` over buffer `view`, or the reason why TMA
/// cannot describe the view: innermost stride != 1, base address not 16-byte
/// aligned, an outer stride in bytes not a multiple of 16 or >= 2^40, a size
/// of 0 or >= 2^32, an element type TMA lacks. Pure, so it is testable
/// without a GPU; the runtime falls back or throws on a reason.
std::variant<TensorMapRequest, std::string>
describeTensorMap(const TensorMapInfo &info, const TensorView &view);

/// The first of `meta`'s aligned arguments (see `aligned` in
/// LaunchMetadata.h) among the (validated) `args` whose start or a row pitch
/// (a stride other than the innermost, in bytes) is not a multiple of 4
/// bytes, with the reason; nullopt when all are aligned. Pure, so it is
/// testable without a GPU; the runtime launches the fallback on a reason.
std::optional<std::pair<unsigned, std::string>>
misalignedArgument(const LaunchMetadata &meta,
                   const std::vector<KernelArg> &args);

/// One buffer argument copied into the launch's staging buffer (see
/// `repitch` in LaunchMetadata.h): `rows` rows of `rowBytes` each, from
/// `source` (rows `sourcePitch` bytes apart: 0 where every row is the first,
/// negative where they run backwards, under `rowBytes` where they overlap) to
/// `stagedOffset` bytes into the staging buffer (rows `stagedPitch` bytes
/// apart, a multiple of 16).
struct RepitchCopy {
  unsigned arg = 0;
  /// Copied into the staging buffer before the kernel, out of it after (a
  /// written buffer), or both.
  bool in = true;
  bool out = false;
  TensorView source;
  uint64_t rows = 0;
  uint64_t rowBytes = 0;
  int64_t sourcePitch = 0;
  uint64_t stagedPitch = 0;
  uint64_t stagedOffset = 0;
  /// `source`'s shape over the copy, with data = stagedOffset: add the
  /// staging buffer's address to get the view the kernel reads.
  TensorView staged;
  /// `source` has no element (a matmul's K of 0): nothing is copied and
  /// the kernel takes `source` itself, but TMA takes no empty dimension,
  /// so its tensor map describes `staged`, one element of the staging
  /// buffer, which a kernel looping over no element never reads.
  bool empty = false;
};

/// The copies one launch makes around the kernel, and the staging bytes
/// they need (each copy starts on a 256-byte boundary).
struct RepitchPlan {
  std::vector<RepitchCopy> copies;
  uint64_t bytes = 0;
};

/// The copies that let TMA describe every tensor map of `meta` over the
/// (validated) `args`, when all it rejects are `repitch` arguments, only
/// for their start or row pitches, and each one only read by enough
/// programs of `grid` (see computeGrid) to pay for its copy (see `repitch` in
/// LaunchMetadata.h); nullopt when nothing is rejected or a copy does not
/// pay or cannot help (another argument or reason, a view whose outer
/// dimensions do not fold into rows of one pitch, a written view whose rows
/// overlap, a staged view TMA still rejects: 2^32 rows or more). Rows that
/// repeat, overlap or run backwards in a read view are copied: the copy
/// kernels take any pitch (see driverCanCopy for the driver's copy). Pure,
/// so it is testable without a GPU.
std::optional<RepitchPlan> planRepitch(const LaunchMetadata &meta,
                                       const std::vector<KernelArg> &args,
                                       const std::array<uint64_t, 3> &grid);

/// A staging copy as a launch of the runtime's copy kernels
/// (runtime/kernels/staging-copy.mlir): `copy`'s rows as 2-D views of
/// `elementBytes`-byte integers (the kernels copy bits), from the argument
/// into the staging buffer at `staging`, or back where `out`.
struct StagingCopyLaunch {
  unsigned elementBytes = 0;
  TensorView from;
  TensorView to;
};

/// The kernel launch that makes `copy`, or nullopt where the copy kernels
/// cannot (elements other than 2 or 4 bytes, a start not aligned to its
/// element, a grid past the launch limits): cuMemcpy2DAsync does it then.
/// Pure, so it is testable without a GPU.
std::optional<StagingCopyLaunch>
stagingCopyLaunch(const RepitchCopy &copy, CUdeviceptr staging, bool out);

/// Whether cuMemcpy2DAsync can make `copy` where the copy kernels do not:
/// it takes rows that neither repeat, overlap nor run backwards, at pitches
/// under 2^31 bytes (CU_DEVICE_ATTRIBUTE_MAX_PITCH on the GPUs tilec
/// targets).
bool driverCanCopy(const RepitchCopy &copy);

/// `args` with each argument of `plan` replaced by its staged view in the
/// staging buffer at `staging`: what the kernel takes (an empty argument
/// stays as it is).
std::vector<KernelArg> repitchedArguments(const std::vector<KernelArg> &args,
                                          const RepitchPlan &plan,
                                          CUdeviceptr staging);

/// The same, empty arguments included: what the tensor maps describe.
std::vector<KernelArg> tensorMapArguments(const std::vector<KernelArg> &args,
                                          const RepitchPlan &plan,
                                          CUdeviceptr staging);

/// The scratch buffer of one launch (see `scratch` in LaunchMetadata.h).
struct ScratchBuffer {
  CUdeviceptr data = 0;
  /// Its size in i32 words as the kernel sees it: scratchBytes / 4.
  uint64_t words = 0;
};

/// Expands the (validated) arguments into the ABI: scalars by value, a buffer
/// of rank r as allocated ptr, aligned ptr, offset 0, sizes[r], strides[r];
/// then `scratch` as a rank-1 buffer (data, data, 0, words, 1). Throws Error
/// when `scratch` is given to a kernel without a scratch line or missing for
/// one with it.
PackedArgs packArguments(const LaunchMetadata &meta,
                         const std::vector<KernelArg> &args,
                         const std::optional<ScratchBuffer> &scratch = {});

/// The ScalarType of a C++ element type, for typed views.
template <typename T> constexpr ScalarType scalarTypeOf();
template <> constexpr ScalarType scalarTypeOf<float>() { return ScalarType::F32; }
template <> constexpr ScalarType scalarTypeOf<double>() { return ScalarType::F64; }
template <> constexpr ScalarType scalarTypeOf<int8_t>() { return ScalarType::I8; }
template <> constexpr ScalarType scalarTypeOf<int16_t>() { return ScalarType::I16; }
template <> constexpr ScalarType scalarTypeOf<int32_t>() { return ScalarType::I32; }
template <> constexpr ScalarType scalarTypeOf<int64_t>() { return ScalarType::I64; }
template <> constexpr ScalarType scalarTypeOf<Half>() { return ScalarType::F16; }
template <> constexpr ScalarType scalarTypeOf<BFloat16>() { return ScalarType::BF16; }
/// i1 buffers hold one byte per element.
template <> constexpr ScalarType scalarTypeOf<bool>() { return ScalarType::I1; }

/// Throws Error unless `view` has element type `type` (TypedView's check).
void checkViewType(const TensorView &view, ScalarType type);

/// A TensorView whose element type is T's (scalarTypeOf<T>): what the
/// generated kernel wrappers take for a buffer of that type (see
/// cmake/TilecKernels.cmake), and what DeviceBuffer::view<T> returns. A
/// TensorView, so it passes wherever one does; the rank is checked at
/// launch.
template <typename T> struct TypedView : TensorView {
  TypedView() { type = scalarTypeOf<T>(); }
  /// `view` as a view of T; throws Error when its element type is not T's.
  explicit TypedView(const TensorView &view) : TensorView(view) {
    checkViewType(view, scalarTypeOf<T>());
  }
  /// A row-major, contiguous view of T elements at `data` (for instance
  /// memory another framework allocated); see TensorView::contiguous.
  static TypedView contiguous(CUdeviceptr data,
                              const std::vector<int64_t> &sizes) {
    return TypedView(TensorView::contiguous(data, scalarTypeOf<T>(), sizes));
  }
};

} // namespace tilec::rt

#endif // TILEC_RUNTIME_KERNELARGS_H
