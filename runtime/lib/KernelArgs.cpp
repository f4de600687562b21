//===- KernelArgs.cpp - Argument checking, grids and packing --------------===//

#include "tilec/Runtime/KernelArgs.h"
#include "tilec/Runtime/Error.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

namespace tilec::rt {

namespace {
std::string kernelPrefix(const LaunchMetadata &meta) {
  return "kernel '" + meta.kernel + "': ";
}

[[noreturn]] void fail(const LaunchMetadata &meta, const std::string &what) {
  throw Error(kernelPrefix(meta) + what, meta.kernel);
}

void checkView(const LaunchMetadata &meta, size_t index,
               const TensorView &view) {
  std::string arg = "argument " + std::to_string(index);
  for (unsigned d = 0; d < view.rank; ++d)
    if (view.sizes[d] < 0)
      fail(meta, arg + " has negative size " + std::to_string(view.sizes[d]) +
                     " in dimension " + std::to_string(d));
  if (view.numElements() == 0)
    return;
  if (view.data == 0)
    fail(meta, arg + " is a null buffer with " +
                   std::to_string(view.numElements()) + " elements");
  if (view.data % scalarTypeSize(view.type) != 0)
    fail(meta, arg + " is not aligned to its element size");
  // The kernel computes addresses with the strides its layout fixes; a
  // dimension of one element is never stepped over.
  const std::vector<int64_t> &fixed = meta.params[index].strides;
  for (unsigned d = 0; d < view.rank && d < fixed.size(); ++d)
    if (fixed[d] != ParamInfo::kDynamicStride && view.sizes[d] > 1 &&
        view.strides[d] != fixed[d])
      fail(meta, arg + " has stride " + std::to_string(view.strides[d]) +
                     " in dimension " + std::to_string(d) +
                     "; the kernel reads it with stride " +
                     std::to_string(fixed[d]) + " (its buffer's layout)");
}

/// The extent that a grid term divides: a buffer dimension or an integer
/// scalar's value.
int64_t termExtent(const LaunchMetadata &meta,
                   const std::vector<KernelArg> &args, const GridTerm &term) {
  const KernelArg &arg = args[term.arg];
  if (term.dim)
    return std::get<TensorView>(arg.value()).sizes[*term.dim];
  std::optional<int64_t> integer = arg.integer();
  if (!integer)
    fail(meta, "grid extent argument " + std::to_string(term.arg) +
                   " is not an integer");
  int64_t extent = *integer;
  if (extent < 0)
    fail(meta, "grid extent argument " + std::to_string(term.arg) +
                   " is negative (" + std::to_string(extent) + ")");
  return extent;
}

/// a * b, saturating at the maximum so that an absurd grid is reported as
/// too large rather than wrapping around to a small one.
uint64_t mulSaturating(uint64_t a, uint64_t b) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a)
    return std::numeric_limits<uint64_t>::max();
  return a * b;
}

template <typename T> uint64_t bitsOf(T value) {
  uint64_t slot = 0;
  std::memcpy(&slot, &value, sizeof(T));
  return slot;
}

struct Packer {
  PackedArgs out;

  void add(uint64_t bits, unsigned size) {
    out.slots.push_back(bits);
    out.sizes.push_back(size);
  }
  void operator()(float v) { add(bitsOf(v), 4); }
  void operator()(double v) { add(bitsOf(v), 8); }
  void operator()(int32_t v) { add(bitsOf(v), 4); }
  void operator()(int64_t v) { add(bitsOf(v), 8); }
  void operator()(Raw16 v) { add(v.bits, 2); }
  void operator()(const TensorView &v) {
    // The memref descriptor: the runtime owns no allocation offsets, so the
    // allocated and aligned pointers coincide and the offset is 0.
    add(v.data, 8);
    add(v.data, 8);
    add(0, 8);
    for (unsigned d = 0; d < v.rank; ++d)
      add(bitsOf(v.sizes[d]), 8);
    for (unsigned d = 0; d < v.rank; ++d)
      add(bitsOf(v.strides[d]), 8);
  }
};
} // namespace

TensorView TensorView::contiguous(CUdeviceptr data, ScalarType type,
                                  const std::vector<int64_t> &sizes) {
  if (sizes.size() > kMaxRank)
    throw Error("a tensor view has rank " + std::to_string(sizes.size()) +
                ", more than the supported " + std::to_string(kMaxRank));
  TensorView view;
  view.data = data;
  view.type = type;
  view.rank = static_cast<unsigned>(sizes.size());
  int64_t stride = 1;
  for (unsigned d = view.rank; d-- > 0;) {
    if (sizes[d] < 0)
      throw Error("a tensor view has negative size " +
                  std::to_string(sizes[d]));
    view.sizes[d] = sizes[d];
    view.strides[d] = stride;
    // As in most frameworks, an empty dimension does not zero the strides of
    // the dimensions before it.
    // The last product is the element count: it must fit too.
    int64_t extent = sizes[d] > 0 ? sizes[d] : 1;
    if (stride > INT64_MAX / extent)
      throw Error("a tensor view has more than 2^63 elements");
    stride *= extent;
  }
  return view;
}

void checkViewType(const TensorView &view, ScalarType type) {
  if (view.type != type)
    throw Error(std::string("a view of ") + scalarTypeName(view.type) +
                " elements used as a view of " + scalarTypeName(type));
}

int64_t TensorView::numElements() const {
  // Saturating and sign-safe, since views are built from user values: an
  // absurd shape must be reported, not overflow.
  uint64_t n = 1;
  bool saturated = false;
  for (unsigned d = 0; d < rank && d < kMaxRank; ++d) {
    if (sizes[d] <= 0)
      return 0;
    uint64_t size = static_cast<uint64_t>(sizes[d]);
    saturated = saturated || n > uint64_t(INT64_MAX) / size;
    n = saturated ? uint64_t(INT64_MAX) : n * size;
  }
  return static_cast<int64_t>(n);
}

ParamInfo KernelArg::paramInfo() const {
  ParamInfo p;
  p.kind = ParamInfo::Kind::Scalar;
  if (std::holds_alternative<float>(value_))
    p.type = ScalarType::F32;
  else if (std::holds_alternative<double>(value_))
    p.type = ScalarType::F64;
  else if (std::holds_alternative<int32_t>(value_))
    p.type = ScalarType::I32;
  else if (std::holds_alternative<int64_t>(value_))
    p.type = ScalarType::I64;
  else if (const auto *raw = std::get_if<Raw16>(&value_))
    p.type = raw->type;
  else {
    const TensorView &view = std::get<TensorView>(value_);
    p.kind = ParamInfo::Kind::Buffer;
    p.type = view.type;
    p.rank = view.rank;
  }
  return p;
}

std::string describeParam(const ParamInfo &param) {
  if (param.kind == ParamInfo::Kind::Scalar)
    return std::string("scalar:") + scalarTypeName(param.type);
  return std::string("buffer:") + scalarTypeName(param.type) + ":" +
         std::to_string(param.rank);
}

std::string KernelArg::describe() const { return describeParam(paramInfo()); }

void validateArguments(const LaunchMetadata &meta,
                       const std::vector<KernelArg> &args) {
  if (args.size() != meta.params.size())
    fail(meta, "expects " + std::to_string(meta.params.size()) +
                   " arguments, got " + std::to_string(args.size()));
  for (size_t i = 0; i < args.size(); ++i) {
    ParamInfo got = args[i].paramInfo();
    if (got.kind == ParamInfo::Kind::Buffer && got.rank > TensorView::kMaxRank)
      fail(meta, "argument " + std::to_string(i) + " has rank " +
                     std::to_string(got.rank) + ", more than the supported " +
                     std::to_string(TensorView::kMaxRank));
    if (!(got == meta.params[i]))
      fail(meta, "argument " + std::to_string(i) + " expects " +
                     describeParam(meta.params[i]) + ", got " +
                     describeParam(got));
    if (const auto *view = std::get_if<TensorView>(&args[i].value()))
      checkView(meta, i, *view);
  }
}

std::array<uint64_t, 3> computeGrid(const LaunchMetadata &meta,
                                    const std::vector<KernelArg> &args) {
  validateArguments(meta, args);
  std::array<uint64_t, 3> grid = {1, 1, 1};
  for (unsigned d = 0; d < 3; ++d)
    for (const GridTerm &term : meta.grid[d]) {
      uint64_t extent = static_cast<uint64_t>(termExtent(meta, args, term));
      uint64_t per = static_cast<uint64_t>(term.perProgram);
      grid[d] = mulSaturating(grid[d], extent / per + (extent % per != 0));
    }
  // An empty grid launches nothing, however large its other dimensions.
  if (isEmptyGrid(grid))
    return grid;
  static const char *const kAxes[] = {"x", "y", "z"};
  for (unsigned d = 0; d < 3; ++d)
    if (grid[d] > kMaxGrid[d])
      fail(meta, "grid dimension " + std::string(kAxes[d]) + " = " +
                     std::to_string(grid[d]) + " exceeds the CUDA limit of " +
                     std::to_string(kMaxGrid[d]));
  return grid;
}

std::vector<void *> PackedArgs::pointers() {
  std::vector<void *> ptrs;
  ptrs.reserve(slots.size() + tensorMaps.size());
  for (uint64_t &slot : slots)
    ptrs.push_back(&slot);
  // cuLaunchKernel copies each map by value into its `.param .align 64 .b8
  // [128]` parameter.
  for (CUtensorMap &map : tensorMaps)
    ptrs.push_back(&map);
  return ptrs;
}

std::optional<CUtensorMapDataType> tensorMapDataType(ScalarType type) {
  switch (type) {
  case ScalarType::I8:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case ScalarType::I16:
    return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case ScalarType::I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case ScalarType::I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  case ScalarType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case ScalarType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case ScalarType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case ScalarType::F64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case ScalarType::I1:
    break;
  }
  return std::nullopt;
}

namespace {
CUtensorMapSwizzle swizzleMode(unsigned bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

/// The widest L2 fetch that stays within one row of the box. A wider one
/// fetches the bytes beside each row: where a row is split over boxes (a
/// 128-byte box of 256-byte key rows at head dim 128), the neighbouring
/// box then asks the L2 for them again. 256-byte promotion on such boxes
/// cost the decode kernel a quarter more L2 reads and 9% of its DRAM
/// bandwidth on the H200.
CUtensorMapL2promotion l2PromotionWithin(uint64_t innerBoxBytes) {
  if (innerBoxBytes >= 256)
    return CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  if (innerBoxBytes >= 128)
    return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
  if (innerBoxBytes >= 64)
    return CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
  return CU_TENSOR_MAP_L2_PROMOTION_NONE;
}

// TMA's limits (cuTensorMapEncodeTiled): sizes below 2^32, byte strides
// below 2^40 and, like the base address, multiples of 16 bytes.
constexpr uint64_t kMaxTmaSize = uint64_t(1) << 32;
constexpr uint64_t kMaxTmaStride = uint64_t(1) << 40;
constexpr uint64_t kTmaAlignment = 16;

/// Why the sizes and strides of `view` break TMA's rules, or "".
std::string checkTmaLayout(const TensorView &view) {
  unsigned inner = view.rank - 1;
  for (unsigned d = 0; d < view.rank; ++d)
    if (view.sizes[d] <= 0 || uint64_t(view.sizes[d]) >= kMaxTmaSize)
      return "dimension " + std::to_string(d) + " has size " +
             std::to_string(view.sizes[d]) + ", not in 1..2^32-1";
  if (view.strides[inner] != 1)
    return "its innermost stride is " + std::to_string(view.strides[inner]) +
           " elements, not 1";
  if (view.data % kTmaAlignment != 0) {
    char address[32];
    std::snprintf(address, sizeof address, "0x%llx",
                  static_cast<unsigned long long>(view.data));
    return std::string("its base address ") + address +
           " is not a multiple of 16 bytes";
  }
  uint64_t elementBytes = scalarTypeSize(view.type);
  for (unsigned d = 0; d < inner; ++d) {
    int64_t stride = view.strides[d];
    std::string what = "the stride of dimension " + std::to_string(d);
    // Compare in elements first so that the byte count cannot overflow.
    if (stride <= 0 || uint64_t(stride) >= kMaxTmaStride / elementBytes)
      return what + " (" + std::to_string(stride) +
             " elements) is not in 1..2^40-1 bytes";
    if (uint64_t(stride) * elementBytes % kTmaAlignment != 0)
      return what + " (" + std::to_string(stride * elementBytes) +
             " bytes) is not a multiple of 16 bytes";
  }
  return {};
}
} // namespace

std::optional<std::pair<unsigned, std::string>>
misalignedArgument(const LaunchMetadata &meta,
                   const std::vector<KernelArg> &args) {
  // The per-thread copies move 4 bytes at least.
  constexpr uint64_t kAlignment = 4;
  for (unsigned arg : meta.alignedArgs) {
    const auto &view = std::get<TensorView>(args[arg].value());
    uint64_t elementBytes = scalarTypeSize(view.type);
    if (view.data % kAlignment != 0)
      return std::pair(arg, "its start is not " + std::to_string(kAlignment) +
                                "-byte aligned");
    for (unsigned d = 0; d + 1 < view.rank; ++d)
      if ((uint64_t(view.strides[d]) * elementBytes) % kAlignment != 0)
        return std::pair(arg, "its stride " + std::to_string(view.strides[d]) +
                                  " in dimension " + std::to_string(d) +
                                  " is not a multiple of " +
                                  std::to_string(kAlignment) + " bytes");
  }
  return std::nullopt;
}

std::variant<TensorMapRequest, std::string>
describeTensorMap(const TensorMapInfo &info, const TensorView &view) {
  std::optional<CUtensorMapDataType> dataType = tensorMapDataType(view.type);
  if (!dataType)
    return std::string("TMA has no ") + scalarTypeName(view.type) +
           " element type";
  if (info.box.size() != view.rank)
    return "a rank-" + std::to_string(info.box.size()) +
           " tensor map cannot describe a rank-" + std::to_string(view.rank) +
           " view";
  if (view.rank == 0 || view.rank > TensorMapInfo::kMaxRank)
    return "TMA describes 1 to " + std::to_string(TensorMapInfo::kMaxRank) +
           " dimensions, not " + std::to_string(view.rank);
  if (std::string why = checkTmaLayout(view); !why.empty())
    return why;
  TensorMapRequest request;
  request.dataType = *dataType;
  request.rank = view.rank;
  request.address = view.data;
  // TMA lists dimensions innermost first; views list them outermost first.
  unsigned inner = view.rank - 1;
  for (unsigned i = 0; i < view.rank; ++i) {
    request.globalDim[i] = cuuint64_t(view.sizes[inner - i]);
    request.boxDim[i] = info.box[i];
    request.elementStrides[i] = 1;
  }
  if (info.fitDim) {
    // globalDim >= 1 here (checkTmaLayout), so the box keeps >= 1 part.
    cuuint64_t extent = request.globalDim[*info.fitDim];
    cuuint64_t parts = extent / TensorMapInfo::kFitRows +
                       (extent % TensorMapInfo::kFitRows != 0);
    if (parts * TensorMapInfo::kFitRows < request.boxDim[*info.fitDim])
      request.boxDim[*info.fitDim] =
          cuuint32_t(parts * TensorMapInfo::kFitRows);
  }
  for (unsigned i = 0; i < inner; ++i)
    request.globalStrides[i] =
        cuuint64_t(view.strides[inner - 1 - i]) * scalarTypeSize(view.type);
  request.swizzle = swizzleMode(info.swizzleBytes);
  request.l2Promotion =
      l2PromotionWithin(uint64_t(info.box[0]) * scalarTypeSize(view.type));
  return request;
}

namespace {
/// cuMemcpy2D refuses pitches of 2^31 bytes or more on the GPUs tilec
/// targets (CU_DEVICE_ATTRIBUTE_MAX_PITCH).
constexpr uint64_t kMaxCopyPitch = (uint64_t(1) << 31) - 1;
/// Where each staged copy starts: cuMemAlloc's alignment.
constexpr uint64_t kStagingAlignment = 256;

/// `a * b`, or nullopt when it overflows.
std::optional<uint64_t> multiplied(uint64_t a, uint64_t b) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a)
    return std::nullopt;
  return a * b;
}

/// The copy of `view` (innermost stride 1) into rows of a 16-byte multiple
/// of bytes, or nullopt when its outer dimensions do not fold into rows of
/// one pitch, or a `written` view's rows overlap. The pitch may be 0 (rows
/// that repeat), negative (rows that run backwards) or under a row (rows
/// that overlap); each outer dimension must step over the whole rows of
/// the next one in.
/// `stagedOffset` and `staged.data` are left 0.
std::optional<RepitchCopy> planCopy(unsigned arg, const TensorView &view,
                                    bool written) {
  unsigned inner = view.rank - 1;
  uint64_t elementBytes = scalarTypeSize(view.type);
  RepitchCopy copy;
  copy.arg = arg;
  copy.source = view;
  if (view.numElements() == 0) {
    // Nothing to copy, and TMA takes no empty dimension: the tensor map
    // describes one element of the staging buffer instead (see
    // RepitchCopy::empty).
    copy.empty = true;
    copy.stagedPitch = kTmaAlignment;
    copy.staged = view;
    for (unsigned d = 0; d < view.rank; ++d) {
      copy.staged.sizes[d] = 1;
      copy.staged.strides[d] =
          d == inner ? 1 : int64_t(kTmaAlignment / elementBytes);
    }
    return copy;
  }
  copy.rowBytes = uint64_t(view.sizes[inner]) * elementBytes;
  copy.rows = 1;
  // Outer dimensions of one element have no stride that matters.
  std::vector<unsigned> outer;
  for (unsigned d = inner; d-- > 0;)
    if (view.sizes[d] != 1)
      outer.push_back(d);
  int64_t pitch = 0;
  for (size_t i = 0; i < outer.size(); ++i) {
    unsigned d = outer[i];
    std::optional<uint64_t> rows = multiplied(copy.rows, view.sizes[d]);
    if (!rows)
      return std::nullopt;
    copy.rows = *rows;
    if (i == 0) {
      pitch = view.strides[d];
      continue;
    }
    // The next one out steps over the whole rows of this one.
    int64_t step = 0;
    if (__builtin_mul_overflow(view.strides[outer[i - 1]],
                               view.sizes[outer[i - 1]], &step) ||
        view.strides[d] != step)
      return std::nullopt;
  }
  if (__builtin_mul_overflow(pitch, int64_t(elementBytes), &copy.sourcePitch))
    return std::nullopt;
  if (outer.empty())
    copy.sourcePitch = int64_t(copy.rowBytes);
  // A written view's rows must be its own, or the copy back would write an
  // element twice.
  uint64_t reach = copy.sourcePitch < 0 ? 0 - uint64_t(copy.sourcePitch)
                                        : uint64_t(copy.sourcePitch);
  if (written && copy.rows > 1 && reach < copy.rowBytes)
    return std::nullopt;
  copy.stagedPitch =
      (copy.rowBytes + kTmaAlignment - 1) / kTmaAlignment * kTmaAlignment;
  // The staged view: the same shape, packed rows of stagedPitch bytes.
  copy.staged = view;
  copy.staged.data = 0;
  int64_t stride = int64_t(copy.stagedPitch / elementBytes);
  for (unsigned d = inner; d-- > 0;) {
    copy.staged.strides[d] = stride;
    if (__builtin_mul_overflow(stride, view.sizes[d], &stride))
      return std::nullopt;
  }
  return copy;
}
} // namespace

std::optional<RepitchPlan> planRepitch(const LaunchMetadata &meta,
                                       const std::vector<KernelArg> &args,
                                       const std::array<uint64_t, 3> &grid) {
  RepitchPlan plan;
  for (const TensorMapInfo &info : meta.tensorMaps) {
    // The metadata parser made `arg` a buffer, validation made it a view.
    const auto &view = std::get<TensorView>(args[info.arg].value());
    if (std::holds_alternative<TensorMapRequest>(describeTensorMap(info, view)))
      continue;
    auto entry = std::find_if(
        meta.repitch.begin(), meta.repitch.end(),
        [&](const RepitchArg &e) { return e.arg == info.arg; });
    // Read by too few programs, a copy costs more than the fallback. A
    // written buffer's copies always pay: the fallback stages every
    // operand by the threads.
    if (entry == meta.repitch.end() ||
        (entry->use == RepitchArg::Use::Read &&
         grid[entry->axis % 3] < entry->minPrograms) ||
        view.rank == 0 ||
        (view.strides[view.rank - 1] != 1 && view.numElements() != 0))
      return std::nullopt;
    auto planned = std::find_if(
        plan.copies.begin(), plan.copies.end(),
        [&](const RepitchCopy &copy) { return copy.arg == info.arg; });
    if (planned == plan.copies.end()) {
      std::optional<RepitchCopy> copy =
          planCopy(info.arg, view, entry->copiedOut());
      if (copy) {
        copy->in = entry->copiedIn() && !copy->empty;
        copy->out = entry->copiedOut() && !copy->empty;
      }
      std::optional<uint64_t> bytes =
          copy
              ? multiplied(std::max<uint64_t>(copy->rows, 1), copy->stagedPitch)
              : std::nullopt;
      if (!bytes || *bytes > std::numeric_limits<uint64_t>::max() -
                                 kStagingAlignment - plan.bytes)
        return std::nullopt;
      copy->stagedOffset = plan.bytes;
      copy->staged.data = plan.bytes;
      plan.bytes += (*bytes + kStagingAlignment - 1) / kStagingAlignment *
                    kStagingAlignment;
      plan.copies.push_back(*copy);
      planned = std::prev(plan.copies.end());
    }
    // Only the alignment may have been wrong: the staged view, at an
    // aligned address, must be describable (sizes and strides in range).
    TensorView staged = planned->staged;
    staged.data = kStagingAlignment;
    if (!std::holds_alternative<TensorMapRequest>(
            describeTensorMap(info, staged)))
      return std::nullopt;
  }
  if (plan.copies.empty())
    return std::nullopt;
  return plan;
}

std::optional<StagingCopyLaunch>
stagingCopyLaunch(const RepitchCopy &copy, CUdeviceptr staging, bool out) {
  // The programs' tiles in staging-copy.mlir: 4 rows of 512 16-bit or 256
  // 32-bit elements, rows along grid x, columns along y.
  constexpr uint64_t kRowsPerProgram = 4, kBytesPerProgramRow = 1024;
  constexpr uint64_t kMaxGridX = (uint64_t(1) << 31) - 1, kMaxGridY = 65535;
  uint64_t elementBytes = scalarTypeSize(copy.source.type);
  if ((elementBytes != 2 && elementBytes != 4) ||
      copy.source.data % elementBytes != 0 ||
      copy.sourcePitch % int64_t(elementBytes) != 0 ||
      copy.rowBytes % elementBytes != 0 ||
      (copy.rows + kRowsPerProgram - 1) / kRowsPerProgram > kMaxGridX ||
      (copy.rowBytes + kBytesPerProgramRow - 1) / kBytesPerProgramRow >
          kMaxGridY)
    return std::nullopt;
  ScalarType bits = elementBytes == 2 ? ScalarType::I16 : ScalarType::I32;
  auto rows = [&](CUdeviceptr data, int64_t pitch) {
    TensorView view = TensorView::contiguous(
        data, bits,
        {int64_t(copy.rows), int64_t(copy.rowBytes / elementBytes)});
    view.strides[0] = pitch / int64_t(elementBytes);
    return view;
  };
  TensorView argument = rows(copy.source.data, copy.sourcePitch);
  TensorView staged =
      rows(staging + copy.stagedOffset, int64_t(copy.stagedPitch));
  StagingCopyLaunch launch;
  launch.elementBytes = unsigned(elementBytes);
  launch.from = out ? staged : argument;
  launch.to = out ? argument : staged;
  return launch;
}

bool driverCanCopy(const RepitchCopy &copy) {
  if (copy.sourcePitch < 0)
    return false;
  uint64_t pitch = uint64_t(copy.sourcePitch);
  return (copy.rows == 1 || pitch >= copy.rowBytes) && pitch <= kMaxCopyPitch &&
         copy.stagedPitch <= kMaxCopyPitch;
}

namespace {
/// `args` with each argument of `plan` replaced by its staged view at
/// `staging`, but for empty ones unless `emptyToo`.
std::vector<KernelArg> stagedArguments(const std::vector<KernelArg> &args,
                                       const RepitchPlan &plan,
                                       CUdeviceptr staging, bool emptyToo) {
  std::vector<KernelArg> staged = args;
  for (const RepitchCopy &copy : plan.copies) {
    if (copy.empty && !emptyToo)
      continue;
    TensorView view = copy.staged;
    view.data = staging + copy.stagedOffset;
    staged[copy.arg] = KernelArg(view);
  }
  return staged;
}
} // namespace

std::vector<KernelArg> repitchedArguments(const std::vector<KernelArg> &args,
                                          const RepitchPlan &plan,
                                          CUdeviceptr staging) {
  return stagedArguments(args, plan, staging, /*emptyToo=*/false);
}

std::vector<KernelArg> tensorMapArguments(const std::vector<KernelArg> &args,
                                          const RepitchPlan &plan,
                                          CUdeviceptr staging) {
  return stagedArguments(args, plan, staging, /*emptyToo=*/true);
}

PackedArgs packArguments(const LaunchMetadata &meta,
                         const std::vector<KernelArg> &args,
                         const std::optional<ScratchBuffer> &scratch) {
  validateArguments(meta, args);
  // A mismatch would shift every parameter after the user ones.
  if (meta.scratch.needed() && !scratch)
    fail(meta, "needs a scratch buffer and none was given");
  if (!meta.scratch.needed() && scratch)
    fail(meta, "takes no scratch buffer but was given one");
  // Its size is passed as an i64.
  if (scratch && scratch->words > uint64_t(INT64_MAX))
    fail(meta, "a scratch buffer of " + std::to_string(scratch->words) +
                   " words does not fit in an i64 size");
  Packer packer;
  for (const KernelArg &arg : args)
    std::visit(packer, arg.value());
  if (scratch)
    packer(TensorView::contiguous(scratch->data, ScalarType::I32,
                                  {static_cast<int64_t>(scratch->words)}));
  return std::move(packer.out);
}

} // namespace tilec::rt
