//===- EmitLaunchMetadata.cpp - Launch metadata as a cubin global ---------===//
//
// The runtime must compute grids and check arguments without the source, so
// every kernel's launch rule travels inside the cubin itself, as a global the
// driver can read back (cuModuleGetGlobal).
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Dialect/Tile/TileOps.h"
#include "tilec/Runtime/LaunchMetadata.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace tilec {
#define GEN_PASS_DEF_TILEEMITLAUNCHMETADATA
#include "tilec/Conversion/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec;

static std::optional<ScalarType> toScalarType(Type type) {
  if (type.isF16())
    return ScalarType::F16;
  if (type.isBF16())
    return ScalarType::BF16;
  if (type.isF32())
    return ScalarType::F32;
  if (type.isF64())
    return ScalarType::F64;
  if (auto intType = dyn_cast<IntegerType>(type)) {
    switch (intType.getWidth()) {
    case 1:
      return ScalarType::I1;
    case 8:
      return ScalarType::I8;
    case 16:
      return ScalarType::I16;
    case 32:
      return ScalarType::I32;
    case 64:
      return ScalarType::I64;
    }
  }
  return std::nullopt;
}

/// The strides the kernel's code assumes for a buffer of `type` (those its
/// layout fixes; memref<?x?xf32> reads rows contiguously), kDynamicStride
/// where it reads the argument's; empty if none is fixed.
static std::vector<int64_t> fixedStrides(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      llvm::all_of(strides, ShapedType::isDynamic))
    return {};
  std::vector<int64_t> fixed;
  for (int64_t stride : strides)
    fixed.push_back(ShapedType::isDynamic(stride) ? ParamInfo::kDynamicStride
                                                  : stride);
  return fixed;
}

/// A `tile.narrow` line, or nullopt when it is malformed: with `dim`, a
/// dimension of a buffer argument; without, an i32 or i64 scalar argument
/// (the only integer scalars a launch passes), compared by value.
static std::optional<NarrowVariant> narrowVariant(DictionaryAttr attr,
                                                  ArrayRef<Type> types) {
  if (!attr)
    return std::nullopt;
  auto name = attr.getAs<FlatSymbolRefAttr>("kernel");
  auto operand = attr.getAs<IntegerAttr>("operand");
  auto atMost = attr.getAs<IntegerAttr>("at_most");
  if (!name || !operand || !atMost || operand.getInt() < 0 ||
      operand.getInt() >= int64_t(types.size()) || atMost.getInt() < 1)
    return std::nullopt;
  Type type = types[operand.getInt()];
  NarrowVariant narrow{name.getValue().str(),
                       static_cast<unsigned>(operand.getInt()), std::nullopt,
                       static_cast<uint64_t>(atMost.getInt())};
  if (!attr.contains("dim"))
    return type.isInteger(32) || type.isInteger(64)
               ? std::optional<NarrowVariant>(narrow)
               : std::nullopt;
  auto dim = attr.getAs<IntegerAttr>("dim");
  auto buffer = dyn_cast<MemRefType>(type);
  if (!dim || !buffer || dim.getInt() < 0 || dim.getInt() >= buffer.getRank())
    return std::nullopt;
  narrow.dim = static_cast<unsigned>(dim.getInt());
  return narrow;
}

/// The `repitch` entries of a tile.repitch_args attribute, or failure when it
/// is malformed: [argument, axis, programs] entries over buffers with tensor
/// maps in `meta`, in increasing argument order. (A kernel without a
/// fallback refuses a launch that no copy mends.)
static FailureOr<std::vector<RepitchArg>>
repitchEntries(Attribute attr, const LaunchMetadata &meta, size_t userArgs) {
  auto entries = dyn_cast<ArrayAttr>(attr);
  if (!entries || entries.empty())
    return failure();
  std::vector<RepitchArg> repitch;
  for (Attribute entryAttr : entries) {
    auto entry = dyn_cast<DenseI64ArrayAttr>(entryAttr);
    if (!entry || entry.size() != 3 || entry[0] < 0 ||
        entry[0] >= int64_t(userArgs) ||
        (!repitch.empty() && int64_t(repitch.back().arg) >= entry[0]) ||
        llvm::none_of(meta.tensorMaps, [&](const TensorMapInfo &map) {
          return int64_t(map.arg) == entry[0];
        }))
      return failure();
    RepitchArg arg;
    arg.arg = static_cast<unsigned>(entry[0]);
    bool written = entry[1] == tile::kRepitchWrittenAxis &&
                   (entry[2] == 0 || entry[2] == 1);
    bool read = entry[1] >= 0 && entry[1] <= 2 && entry[2] >= 1;
    if (!written && !read)
      return failure();
    if (written) {
      arg.use = entry[2] ? RepitchArg::Use::ReadWrite : RepitchArg::Use::Write;
    } else {
      arg.axis = static_cast<unsigned>(entry[1]);
      arg.minPrograms = static_cast<uint64_t>(entry[2]);
    }
    repitch.push_back(arg);
  }
  return repitch;
}

/// Reads `kernel`'s optional count attribute `name` into `count`: absent
/// leaves `count` as it is; an integer in [lo, hi] where `allowed` is taken;
/// anything else is a located error saying it must be `requirement`.
static LogicalResult readCount(gpu::GPUFuncOp kernel, StringRef name,
                               int64_t lo, int64_t hi, bool allowed,
                               const std::string &requirement,
                               unsigned &count) {
  Attribute attr = kernel->getAttr(name);
  if (!attr)
    return success();
  auto value = dyn_cast<IntegerAttr>(attr);
  if (!value || value.getInt() < lo || value.getInt() > hi || !allowed)
    return kernel.emitError("'") << name << "' must be " << requirement;
  count = static_cast<unsigned>(value.getInt());
  return success();
}

/// Builds the metadata of a kernel outlined by convert-tile-kernels-to-gpu.
static FailureOr<LaunchMetadata> describeKernel(gpu::GPUFuncOp kernel) {
  LaunchMetadata meta;
  meta.kernel = kernel.getName().str();
  // Tensor maps come last and are not the user's: the runtime builds them.
  ArrayRef<Type> types = kernel.getArgumentTypes();
  if (auto maps = kernel->getAttrOfType<ArrayAttr>(tile::kTensorMapsAttrName)) {
    if (maps.size() > types.size())
      return kernel.emitError("kernel has fewer parameters than tensor maps");
    types = types.drop_back(maps.size());
    for (Attribute attr : maps) {
      // [buffer argument, box extents innermost first (one per dimension
      // of the buffer), swizzle, and optionally the box dimension fitted
      // to the buffer at launch].
      auto entry = dyn_cast<DenseI64ArrayAttr>(attr);
      auto buffer = entry && entry.size() >= 3 && entry[0] >= 0 &&
                            entry[0] < int64_t(types.size())
                        ? dyn_cast<MemRefType>(types[entry[0]])
                        : MemRefType();
      int64_t rank = buffer ? buffer.getRank() : 0;
      bool fitted = buffer && int64_t(entry.size()) == rank + 3;
      if (!buffer || (int64_t(entry.size()) != rank + 2 && !fitted) ||
          llvm::any_of(entry.asArrayRef().slice(1, rank),
                       [](int64_t extent) {
                         return extent < 1 || extent > TensorMapInfo::kMaxBox;
                       }) ||
          (fitted && (entry[rank + 2] < 1 || entry[rank + 2] >= rank)))
        return kernel.emitError("'")
               << tile::kTensorMapsAttrName
               << "' entries must be [buffer argument, a box extent per "
                  "dimension of the buffer (innermost first), swizzle] and "
                  "optionally the outer box dimension fitted at launch";
      TensorMapInfo map;
      map.arg = static_cast<unsigned>(entry[0]);
      for (int64_t extent : entry.asArrayRef().slice(1, rank))
        map.box.push_back(static_cast<unsigned>(extent));
      map.swizzleBytes = static_cast<unsigned>(entry[rank + 1]);
      if (fitted)
        map.fitDim = static_cast<unsigned>(entry[rank + 2]);
      meta.tensorMaps.push_back(map);
    }
  }
  if (auto fallback =
          kernel->getAttrOfType<FlatSymbolRefAttr>(tile::kFallbackAttrName))
    meta.fallback = fallback.getValue().str();
  if (Attribute attr = kernel->getAttr(tile::kAlignedArgsAttrName)) {
    auto args = dyn_cast<DenseI64ArrayAttr>(attr);
    if (!args || args.empty() || meta.fallback.empty() ||
        !llvm::is_sorted(args.asArrayRef(), std::less_equal<int64_t>()) ||
        llvm::any_of(args.asArrayRef(), [&](int64_t arg) {
          return arg < 0 || arg >= int64_t(types.size()) ||
                 !isa<MemRefType>(types[arg]);
        }))
      return kernel.emitError("'")
             << tile::kAlignedArgsAttrName
             << "' must list buffer arguments in increasing order, on a "
                "kernel with a '"
             << tile::kFallbackAttrName << "'";
    for (int64_t arg : args.asArrayRef())
      meta.alignedArgs.push_back(static_cast<unsigned>(arg));
  }
  if (Attribute attr = kernel->getAttr(tile::kRepitchArgsAttrName)) {
    FailureOr<std::vector<RepitchArg>> repitch =
        repitchEntries(attr, meta, types.size());
    if (failed(repitch))
      return kernel.emitError("'")
             << tile::kRepitchArgsAttrName
             << "' must list [buffer argument with a tensor map, grid axis "
                "0..2, programs >= 1] or [buffer argument with a tensor map, "
             << tile::kRepitchWrittenAxis
             << ", read first 0 or 1] entries in increasing argument order";
    meta.repitch = std::move(*repitch);
  }
  if (Attribute attr = kernel->getAttr(tile::kSmallGridAttrName)) {
    auto smallGrid = dyn_cast<DictionaryAttr>(attr);
    auto name = smallGrid ? smallGrid.getAs<FlatSymbolRefAttr>("kernel")
                          : FlatSymbolRefAttr();
    auto percent = smallGrid ? smallGrid.getAs<IntegerAttr>("percent_of_sms")
                             : IntegerAttr();
    if (!name || !percent || percent.getInt() < 1 || percent.getInt() > 100)
      return kernel.emitError("'")
             << tile::kSmallGridAttrName
             << "' must be {kernel = @name, percent_of_sms = 1..100}";
    meta.smallGrid = SmallGridVariant{name.getValue().str(),
                                      static_cast<unsigned>(percent.getInt())};
  }
  if (Attribute attr = kernel->getAttr(tile::kNarrowAttrName)) {
    for (Attribute line : tile::narrowLines(attr)) {
      auto dict = dyn_cast<DictionaryAttr>(line);
      std::optional<NarrowVariant> narrow = narrowVariant(dict, types);
      // Reported in the form the line takes: with `dim` (or not a
      // dictionary at all) the buffer form, without it the scalar form.
      if (!narrow && dict && !dict.contains("dim"))
        return kernel.emitError("'")
               << tile::kNarrowAttrName
               << "' without dim must be {kernel = @name, operand = A, "
                  "at_most = N} where A is an i32 or i64 scalar argument and "
                  "N >= 1";
      if (!narrow)
        return kernel.emitError("'")
               << tile::kNarrowAttrName
               << "' must be {kernel = @name, operand = A, dim = D, at_most = "
                  "N} where A is a buffer argument of rank above D and N >= "
                  "1, or an array of such lines";
      // The runtime takes the first line that holds: a second on the same
      // extent is a ladder's rung, on the variant.
      for (const NarrowVariant &before : meta.narrow)
        if (before.arg == narrow->arg && before.dim == narrow->dim)
          return kernel.emitError("'")
                 << tile::kNarrowAttrName << "' has two lines on operand "
                 << narrow->arg
                 << (narrow->dim ? " dimension " + std::to_string(*narrow->dim)
                                 : std::string());
      meta.narrow.push_back(*narrow);
    }
  }
  // The scratch buffer comes after the user's parameters: the runtime
  // provides it.
  if (Attribute attr = kernel->getAttr(tile::kScratchAttrName)) {
    auto sizes = dyn_cast<DenseI64ArrayAttr>(attr);
    auto scratch = types.empty() ? MemRefType()
                                 : dyn_cast<MemRefType>(types.back());
    if (!sizes || sizes.size() < 2 || sizes.size() > 3 || sizes[0] < 0 ||
        sizes[1] < 0 || (sizes.size() == 3 && (sizes[2] < 0 || sizes[2] > 3)) ||
        !scratch || scratch.getRank() != 1 ||
        !(scratch.getElementType().isInteger(32) ||
          scratch.getElementType().isF32()))
      return kernel.emitError("'")
             << tile::kScratchAttrName
             << "' must be [FIXED, PER_PROGRAM(, ZERO_FILL)] bytes on a kernel whose last "
                "user parameter is a memref<?xi32> or memref<?xf32>";
    int64_t zeroing = sizes.size() == 2 ? 1 : sizes[2];
    // tile.scratch's third entry (TileOps.h): 0 none, 1 each launch, 2
    // counters, 3 epochs.
    constexpr ScratchFill kFills[] = {
        ScratchFill::None, ScratchFill::EachLaunch, ScratchFill::Counters,
        ScratchFill::Epochs};
    meta.scratch =
        ScratchInfo{static_cast<uint64_t>(sizes[0]),
                    static_cast<uint64_t>(sizes[1]), kFills[zeroing]};
    types = types.drop_back();
  }
  if (Attribute attr = kernel->getAttr(tile::kThenAttrName)) {
    auto then = dyn_cast<FlatSymbolRefAttr>(attr);
    if (!then || !meta.scratch.needed())
      return kernel.emitError("'")
             << tile::kThenAttrName
             << "' must be a kernel symbol, on a kernel with a scratch buffer";
    meta.then = then.getValue().str();
  }
  meta.waitsForPrevious = kernel->hasAttr(tile::kWaitsForPreviousAttrName);
  if (failed(readCount(kernel, tile::kPersistentAttrName, 1, 32,
                       /*allowed=*/true,
                       "a number of blocks a multiprocessor, 1 to 32",
                       meta.persistentBlocksPerSm)) ||
      failed(readCount(
          kernel, tile::kClusterAttrName, 2, 8, meta.persistentBlocksPerSm != 0,
          "2 to 8 blocks, on a persistent kernel", meta.clusterX)) ||
      failed(readCount(kernel, tile::kSplitAttrName, 1, 32,
                       meta.persistentBlocksPerSm == 0,
                       "a number of blocks a multiprocessor, 1 to 32, on a "
                       "kernel that is not persistent",
                       meta.splitBlocksPerSm)) ||
      failed(readCount(
          kernel, tile::kSplitMinPartsAttrName, 2, 1024,
          meta.splitBlocksPerSm != 0,
          ("2 to 1024 splits, on a kernel with '" + tile::kSplitAttrName + "'")
              .str(),
          meta.splitMinParts)))
    return failure();
  for (auto [i, type] : llvm::enumerate(types)) {
    ParamInfo param;
    Type elementType = type;
    if (auto memref = dyn_cast<MemRefType>(type)) {
      param.kind = ParamInfo::Kind::Buffer;
      param.rank = memref.getRank();
      elementType = memref.getElementType();
      param.strides = fixedStrides(memref);
    }
    std::optional<ScalarType> scalar = toScalarType(elementType);
    if (!scalar)
      return kernel.emitError("argument #")
             << i << " of type " << type << " has no launch ABI";
    param.type = *scalar;
    meta.params.push_back(param);
  }
  std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
  if (!block)
    return kernel.emitError("kernel has no known block size");
  for (int i = 0; i < 3; ++i)
    meta.block[i] = static_cast<unsigned>((*block)[i]);
  auto grid = kernel->getAttrOfType<ArrayAttr>("tile.grid");
  if (!grid || grid.size() > 3)
    return kernel.emitError("kernel has no 'tile.grid' launch rule");
  for (auto [i, attr] : llvm::enumerate(grid)) {
    SmallVector<tile::GridAttr> factors = tile::gridFactors(attr);
    if (factors.empty())
      return kernel.emitError("'tile.grid' must hold #tile.grid attributes "
                              "or arrays of them");
    for (tile::GridAttr term : factors)
      meta.grid[i].push_back(
          GridTerm{term.getArg(), term.getDim(), term.getPerProgram()});
  }
  // Staged operand tiles live in dynamic shared memory (tile-promote-shared).
  if (auto shared =
          kernel->getAttrOfType<IntegerAttr>(tile::kDynamicSharedBytesAttrName))
    meta.sharedBytes = static_cast<unsigned>(shared.getInt());
  return meta;
}

LogicalResult tilec::emitLaunchMetadata(gpu::GPUFuncOp kernel) {
  FailureOr<LaunchMetadata> meta = describeKernel(kernel);
  if (failed(meta))
    return failure();
  std::string text = serialize(*meta);
  text.push_back('\0');

  auto gpuModule = kernel->getParentOfType<gpu::GPUModuleOp>();
  std::string symbol = launchMetadataSymbol(meta->kernel);
  if (Operation *old = SymbolTable::lookupSymbolIn(gpuModule, symbol))
    old->erase();
  OpBuilder builder(gpuModule.getBodyRegion());
  builder.setInsertionPointToStart(gpuModule.getBody());
  auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), text.size());
  constexpr unsigned kGlobalAddressSpace = 1;
  LLVM::GlobalOp::create(builder, kernel.getLoc(), type, /*isConstant=*/true,
                         LLVM::Linkage::External, symbol,
                         builder.getStringAttr(text), /*alignment=*/1,
                         kGlobalAddressSpace);
  return success();
}

namespace {
struct TileEmitLaunchMetadataPass
    : tilec::impl::TileEmitLaunchMetadataBase<TileEmitLaunchMetadataPass> {
  using Base::Base;

  /// A kernel whose staged tiles and workgroup buffers exceed the block's
  /// shared memory would only fail at launch (cuFuncSetAttribute). Dynamic
  /// shared memory starts after the static buffers, 1024-byte aligned
  /// (tile-extern-dynamic-shared).
  LogicalResult checkSharedBytes(gpu::GPUFuncOp kernel) {
    auto shared =
        kernel->getAttrOfType<IntegerAttr>(tile::kDynamicSharedBytesAttrName);
    int64_t limit = maxSharedBytes;
    if (limit <= 0 || !shared)
      return success();
    int64_t staticBytes = 0;
    for (BlockArgument buffer : kernel.getWorkgroupAttributions()) {
      auto type = cast<MemRefType>(buffer.getType());
      staticBytes = llvm::alignTo(staticBytes, 16) +
                    type.getNumElements() *
                        llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    }
    int64_t total = llvm::alignTo(staticBytes, 1024) + shared.getInt();
    if (total <= limit)
      return success();
    return kernel.emitError("needs ")
           << shared.getInt() << " bytes of dynamic shared memory"
           << (staticBytes ? " after " + std::to_string(staticBytes) +
                                 " bytes of workgroup buffers"
                           : std::string())
           << ", more than the target's " << limit
           << " a block: use fewer pipeline stages or smaller tiles";
  }

  void runOnOperation() override {
    SmallVector<gpu::GPUFuncOp> kernels;
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>())
      if (func.isKernel() && func->hasAttr("tile.grid"))
        kernels.push_back(func);
    for (gpu::GPUFuncOp kernel : kernels) {
      if (failed(checkSharedBytes(kernel)) ||
          failed(emitLaunchMetadata(kernel)))
        return signalPassFailure();
      ++numKernels;
    }
  }
};
} // namespace
