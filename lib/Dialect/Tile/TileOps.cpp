//===- TileOps.cpp - Operations of the tile dialect -----------------------===//

#include "tilec/Dialect/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec::tile;

LogicalResult
tilec::tile::verifyTileShape(function_ref<InFlightDiagnostic()> emitError,
                             Type type, StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError() << what << " must be a ranked tensor, got " << type;
  if (tensor.getRank() == 0)
    return emitError() << what << " must have rank >= 1, got " << type;
  for (auto [i, size] : llvm::enumerate(tensor.getShape())) {
    if (ShapedType::isDynamic(size))
      return emitError() << what << " must have a static shape, got " << type;
    if (size <= 0 || !llvm::isPowerOf2_64(size))
      return emitError() << what << " dimension " << i << " is " << size
                         << "; tile dimensions must be powers of two";
  }
  // Only layouts and placements, which the lowering assigns.
  Attribute encoding = tensor.getEncoding();
  if (!encoding)
    return success();
  if (auto shared = dyn_cast<SharedEncodingAttrInterface>(encoding))
    return shared.verifyTile(emitError, tensor.getShape(),
                             tensor.getElementType());
  auto layout = dyn_cast<LayoutEncodingAttrInterface>(encoding);
  if (!layout)
    return emitError() << what << " must not carry a tensor encoding";
  return layout.verifyShape(emitError, tensor.getShape());
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes,
                          ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (failed(function_interface_impl::parseFunctionOp(
          parser, result, /*allowVariadic=*/false,
          getFunctionTypeAttrName(result.name), buildFuncType,
          getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name))))
    return failure();
  // The attribute dictionary becomes the op's properties by a conversion
  // that drops an attribute of the wrong kind (num_warps = "x") without a
  // word, and the verifier then reads a null attribute: check it here.
  Properties properties;
  return setPropertiesFromAttr(
      properties, result.attributes.getDictionary(parser.getContext()),
      [&] { return parser.emitError(loc); });
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

static bool isKernelScalarType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.isSignless() && llvm::is_contained(
                                       ArrayRef<unsigned>{1, 8, 16, 32, 64},
                                       intType.getWidth());
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64();
}

SmallVector<GridAttr> tilec::tile::gridFactors(Attribute dimension) {
  if (auto grid = dyn_cast<GridAttr>(dimension))
    return {grid};
  SmallVector<GridAttr> factors;
  auto product = dyn_cast<ArrayAttr>(dimension);
  if (!product)
    return factors;
  for (Attribute factor : product) {
    auto grid = dyn_cast<GridAttr>(factor);
    if (!grid)
      return {};
    factors.push_back(grid);
  }
  return factors;
}

LogicalResult KernelOp::verifyGridFactor(unsigned i, GridAttr grid) {
  if (grid.getArg() >= getArgumentTypes().size())
    return emitOpError("grid dimension ")
           << i << " refers to argument #" << grid.getArg() << " but the "
           << "kernel has " << getArgumentTypes().size() << " arguments";
  Type argType = getArgumentTypes()[grid.getArg()];
  if (std::optional<unsigned> dim = grid.getDim()) {
    auto memref = dyn_cast<MemRefType>(argType);
    if (!memref)
      return emitOpError("grid dimension ")
             << i << " takes dimension " << *dim << " of argument #"
             << grid.getArg() << ", which is not a buffer";
    if (*dim >= memref.getRank())
      return emitOpError("grid dimension ")
             << i << " takes dimension " << *dim << " of argument #"
             << grid.getArg() << ", which has rank " << memref.getRank();
  } else if (!isa<IntegerType>(argType) || argType.isInteger(1)) {
    return emitOpError("grid dimension ")
           << i << " takes the value of argument #" << grid.getArg()
           << ", which is not an integer scalar";
  }
  return success();
}

LogicalResult KernelOp::verify() {
  if (getBody().empty())
    return emitOpError("must have a body");
  if (!getResultTypes().empty())
    return emitOpError("must not return values");
  for (auto [i, type] : llvm::enumerate(getArgumentTypes())) {
    if (auto memref = dyn_cast<MemRefType>(type)) {
      if (memref.getRank() == 0)
        return emitOpError("argument #") << i << " is a rank-0 buffer";
      if (memref.getMemorySpace())
        return emitOpError("argument #")
               << i << " must be in the default memory space";
      // The runtime passes views with their own strides and offset 0.
      auto [strides, offset] = memref.getStridesAndOffset();
      if (!memref.isStrided() ||
          (offset != 0 && !ShapedType::isDynamic(offset)))
        return emitOpError("argument #")
               << i << " must have a strided layout with offset 0 or ?";
      if (!isKernelScalarType(memref.getElementType()))
        return emitOpError("argument #")
               << i << " has unsupported element type "
               << memref.getElementType();
      continue;
    }
    if (!isKernelScalarType(type))
      return emitOpError("argument #")
             << i << " has type " << type
             << "; arguments must be buffers (memref) or i1/i8/i16/i32/i64/"
                "f16/bf16/f32/f64 scalars";
  }
  if (getGrid().empty() || getGrid().size() > 3)
    return emitOpError("grid must have 1 to 3 dimensions, got ")
           << getGrid().size();
  for (auto [i, attr] : llvm::enumerate(getGrid())) {
    SmallVector<GridAttr> factors = gridFactors(attr);
    if (factors.empty())
      return emitOpError("grid dimension ")
             << i << " must be a #tile.grid or a non-empty array of them, got "
             << attr;
    for (GridAttr grid : factors)
      if (failed(verifyGridFactor(i, grid)))
        return failure();
  }
  // Tiles are spread over the threads bit by bit.
  if (getNumWarps() < 1 || getNumWarps() > 32 ||
      !llvm::isPowerOf2_64(getNumWarps()))
    return emitOpError("num_warps must be a power of two in [1, 32], got ")
           << getNumWarps();
  return verifyScratch();
}

void tilec::tile::setNarrowVariant(KernelOp kernel, KernelOp variant,
                                   unsigned operand,
                                   std::optional<unsigned> dim,
                                   int64_t atMost) {
  Builder b(kernel.getContext());
  SmallVector<NamedAttribute, 4> entries = {
      b.getNamedAttr("kernel", FlatSymbolRefAttr::get(variant.getNameAttr())),
      b.getNamedAttr("operand", b.getI64IntegerAttr(operand))};
  // Without `dim` the operand is an integer scalar, compared by value.
  if (dim)
    entries.push_back(b.getNamedAttr("dim", b.getI64IntegerAttr(*dim)));
  entries.push_back(b.getNamedAttr("at_most", b.getI64IntegerAttr(atMost)));
  Attribute line = b.getDictionaryAttr(entries);
  // One line stays a dictionary; more make an array, in order.
  if (Attribute old = kernel->getAttr(kNarrowAttrName)) {
    SmallVector<Attribute> lines(narrowLines(old));
    lines.push_back(line);
    kernel->setAttr(kNarrowAttrName, b.getArrayAttr(lines));
    return;
  }
  kernel->setAttr(kNarrowAttrName, line);
}

SmallVector<Attribute, 1> tilec::tile::narrowLines(Attribute value) {
  if (auto array = dyn_cast<ArrayAttr>(value))
    return SmallVector<Attribute, 1>(array.getValue());
  return {value};
}

void tilec::tile::setSmallGridVariant(KernelOp kernel, KernelOp variant,
                                      int64_t percentOfSms) {
  Builder b(kernel.getContext());
  kernel->setAttr(
      kSmallGridAttrName,
      b.getDictionaryAttr({b.getNamedAttr("kernel", FlatSymbolRefAttr::get(
                                                        variant.getNameAttr())),
                           b.getNamedAttr("percent_of_sms",
                                          b.getI64IntegerAttr(percentOfSms))}));
}

FunctionType tilec::tile::withScratchArgument(FunctionType type, Type word) {
  SmallVector<Type> inputs(type.getInputs());
  inputs.push_back(MemRefType::get({ShapedType::kDynamic}, word));
  return FunctionType::get(type.getContext(), inputs, {});
}

/// `tile.scratch = array<i64: FIXED, PER_PROGRAM>` names the last argument
/// as the runtime's scratch buffer (see kScratchAttrName); `tile.then`
/// hands it on.
LogicalResult KernelOp::verifyScratch() {
  Attribute attr = (*this)->getAttr(kScratchAttrName);
  // The kernel launched next reads this one's scratch buffer.
  if (Attribute then = (*this)->getAttr(kThenAttrName)) {
    if (!isa<FlatSymbolRefAttr>(then) || !attr)
      return emitOpError("'") << kThenAttrName
                              << "' must be a kernel symbol, on a kernel with '"
                              << kScratchAttrName << "'";
  }
  if (!attr)
    return success();
  auto sizes = dyn_cast<DenseI64ArrayAttr>(attr);
  if (!sizes || sizes.size() < 2 || sizes.size() > 3 || sizes[0] < 0 ||
      sizes[1] < 0 || sizes[0] % 4 || sizes[1] % 4 ||
      (sizes[0] == 0 && sizes[1] == 0) ||
      (sizes.size() == 3 && (sizes[2] < 0 || sizes[2] > 3)))
    return emitOpError("'")
           << kScratchAttrName
           << "' must be array<i64: FIXED, PER_PROGRAM> (then 0 for no "
              "zero-fill, 1 for a zero-fill each launch, 2 for counters "
              "kept zero, 3 for epochs), byte counts that are multiples of "
              "4, not both zero";
  ArrayRef<Type> args = getArgumentTypes();
  auto scratch = args.empty() ? MemRefType() : dyn_cast<MemRefType>(args.back());
  // 32-bit words either way: tickets and status words, or partial results.
  if (!scratch || scratch.getRank() != 1 ||
      !(scratch.getElementType().isInteger(32) ||
        scratch.getElementType().isF32()))
    return emitOpError("with '")
           << kScratchAttrName
           << "' must take the scratch buffer, a memref<?xi32> or "
              "memref<?xf32>, last";
  return success();
}

//===----------------------------------------------------------------------===//
// Descriptions
//===----------------------------------------------------------------------===//

static bool isMatmulElementType(Type type) {
  return type.isF32() || type.isF16() || type.isBF16();
}

/// The (rows, cols) of a matrix stored per `layout` as `buffer`.
static std::pair<int64_t, int64_t> logicalShape(MemRefType buffer,
                                                MatrixLayout layout) {
  int64_t rows = buffer.getDimSize(0), cols = buffer.getDimSize(1);
  return layout == MatrixLayout::row ? std::make_pair(rows, cols)
                                     : std::make_pair(cols, rows);
}

/// Two static extents of one dimension (of a matrix, of attention's
/// operands) must agree.
static LogicalResult checkExtent(Operation *op, StringRef dim, int64_t a,
                                 StringRef aWhat, int64_t b, StringRef bWhat) {
  if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b)
    return success();
  return op->emitOpError(dim) << " is " << a << " in " << aWhat << " but " << b
                             << " in " << bWhat;
}

/// Checks the schedule hints a description may carry: `block` holds one
/// power of two, at least `minExtent`, per name in `extents` ("[M, N, K]").
static LogicalResult
verifyScheduleHints(Operation *op, std::optional<ArrayRef<int64_t>> block,
                    StringRef extents, int64_t minExtent,
                    std::optional<int64_t> warps,
                    std::optional<int64_t> stages) {
  if (block) {
    size_t expected = llvm::count(extents, ',') + 1;
    if (block->size() != expected)
      return op->emitOpError("block must give ")
             << extents << " extents, got " << block->size() << " values";
    for (int64_t extent : *block)
      if (extent < minExtent || !llvm::isPowerOf2_64(extent))
        return op->emitOpError("block extents must be powers of two")
               << (minExtent > 1 ? " from " + std::to_string(minExtent) : "")
               << ", got " << extent;
  }
  if (warps && (*warps < 1 || *warps > 32 || !llvm::isPowerOf2_64(*warps)))
    return op->emitOpError("warps must be a power of two from 1 to 32, got ")
           << *warps;
  if (stages && (*stages < 1 || *stages > 8))
    return op->emitOpError("stages must be from 1 to 8, got ") << *stages;
  return success();
}

LogicalResult MatmulOp::verify() {
  FunctionType type = getFunctionType();
  if (type.getNumInputs() != 3 || type.getNumResults() != 0)
    return emitOpError("expects the type (A, B, C) -> ()");
  const char *names[] = {"A", "B", "C"};
  for (auto [input, name] : llvm::zip(type.getInputs(), names)) {
    auto buffer = dyn_cast<MemRefType>(input);
    if (!buffer || buffer.getRank() != 2 || !buffer.getLayout().isIdentity())
      return emitOpError(name) << " must be a 2-D memref with the identity "
                                  "layout, got "
                               << input;
    if (!isMatmulElementType(buffer.getElementType()))
      return emitOpError(name) << " elements must be f32, f16 or bf16, got "
                               << buffer.getElementType();
  }
  if (getAType().getElementType() != getBType().getElementType())
    return emitOpError("A and B element types differ: ")
           << getAType().getElementType() << " vs "
           << getBType().getElementType();
  auto [am, ak] = logicalShape(getAType(), getALayout());
  auto [bk, bn] = logicalShape(getBType(), getBLayout());
  int64_t cm = getCType().getDimSize(0), cn = getCType().getDimSize(1);
  if (failed(checkExtent(*this, "K", ak, "A", bk, "B")) ||
      failed(checkExtent(*this, "M", am, "A", cm, "C")) ||
      failed(checkExtent(*this, "N", bn, "B", cn, "C")))
    return failure();

  return verifyScheduleHints(*this, getBlock(), "[M, N, K]", 1, getWarps(),
                             getStages());
}

//===----------------------------------------------------------------------===//
// Scan
//===----------------------------------------------------------------------===//

Value tilec::tile::buildCombine(OpBuilder &b, Location loc, ReduceKind kind,
                                Value x, Value y) {
  bool isFloat = isa<FloatType>(getElementTypeOrSelf(x.getType()));
  switch (kind) {
  case ReduceKind::add:
    return isFloat ? arith::AddFOp::create(b, loc, x, y).getResult()
                   : arith::AddIOp::create(b, loc, x, y).getResult();
  case ReduceKind::mul:
    return isFloat ? arith::MulFOp::create(b, loc, x, y).getResult()
                   : arith::MulIOp::create(b, loc, x, y).getResult();
  case ReduceKind::max:
    return isFloat ? arith::MaximumFOp::create(b, loc, x, y).getResult()
                   : arith::MaxSIOp::create(b, loc, x, y).getResult();
  case ReduceKind::min:
    return isFloat ? arith::MinimumFOp::create(b, loc, x, y).getResult()
                   : arith::MinSIOp::create(b, loc, x, y).getResult();
  }
  llvm_unreachable("unknown combiner kind");
}

TypedAttr tilec::tile::getIdentity(ReduceKind kind, Type type) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    APFloat value = APFloat::getZero(semantics);
    if (kind == ReduceKind::mul)
      value = APFloat::getOne(semantics);
    else if (kind != ReduceKind::add)
      value = APFloat::getInf(semantics, /*Negative=*/kind == ReduceKind::max);
    return FloatAttr::get(type, value);
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value(width, kind == ReduceKind::mul ? 1 : 0);
  if (kind == ReduceKind::max)
    value = APInt::getSignedMinValue(width);
  else if (kind == ReduceKind::min)
    value = APInt::getSignedMaxValue(width);
  return IntegerAttr::get(type, value);
}

SmallVector<Value> TupleCombiner::combine(OpBuilder &b, Location loc,
                                          ValueRange earlier,
                                          ValueRange later) const {
  SmallVector<Value> combined;
  if (kind) {
    for (auto [x, y] : llvm::zip_equal(earlier, later))
      combined.push_back(buildCombine(b, loc, *kind, x, y));
    return combined;
  }
  return applyElementwiseBody(b, loc, region->front(),
                              llvm::to_vector(llvm::concat<const Value>(
                                  earlier, later)));
}

/// `value` (an integer tile) as a tile of `type`'s element width.
static Value castIntegerTile(OpBuilder &b, Location loc, Value value,
                             Type type, bool isUnsigned) {
  unsigned from = getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth();
  unsigned to = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
  if (from == to)
    return value;
  if (from > to)
    return arith::TruncIOp::create(b, loc, type, value);
  if (isUnsigned)
    return arith::ExtUIOp::create(b, loc, type, value);
  return arith::ExtSIOp::create(b, loc, type, value);
}

SmallVector<Value> tilec::tile::applyElementwiseBody(OpBuilder &b,
                                                     Location loc, Block &body,
                                                     ValueRange args) {
  // The body holds scalar element-wise ops: on tiles each op takes the tile
  // type of its element type (index as i32), and constants become splats.
  auto tileType = dyn_cast<RankedTensorType>(args.front().getType());
  auto retype = [&](Type t) -> Type {
    if (!tileType)
      return t;
    if (t.isIndex())
      t = b.getI32Type();
    return RankedTensorType::get(tileType.getShape(), t);
  };
  IRMapping mapping;
  mapping.map(body.getArguments(), args);
  for (Operation &op : body.without_terminator()) {
    if (auto constant = dyn_cast<arith::ConstantOp>(op); constant && tileType) {
      auto type = cast<ShapedType>(retype(constant.getType()));
      Attribute value = constant.getValue();
      if (auto integer = dyn_cast<IntegerAttr>(value))
        value = IntegerAttr::get(type.getElementType(), integer.getInt());
      mapping.map(constant.getResult(),
                  arith::ConstantOp::create(
                      b, loc, DenseElementsAttr::get(type, value))
                      .getResult());
      continue;
    }
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op) && tileType) {
      Value cast = castIntegerTile(b, loc, mapping.lookup(op.getOperand(0)),
                                   retype(op.getResult(0).getType()),
                                   isa<arith::IndexCastUIOp>(op));
      mapping.map(op.getResult(0), cast);
      continue;
    }
    Operation *clone = b.clone(op, mapping);
    clone->setLoc(loc);
    for (Value result : clone->getResults())
      result.setType(retype(result.getType()));
  }
  SmallVector<Value> results;
  for (Value value : cast<YieldOp>(body.getTerminator()).getValues())
    results.push_back(mapping.lookupOrDefault(value));
  return results;
}

static bool isScanElementType(Type type) {
  return type.isF32() || type.isF16() || type.isBF16() || type.isInteger(32);
}

/// "input #1" or "output #0" for buffer argument `i` of a scan over `n`.
static std::string scanBufferName(unsigned i, unsigned n) {
  return (i < n ? "input #" : "output #") + std::to_string(i % n);
}

LogicalResult tilec::tile::verifyCombinerChoice(
    Operation *op, std::optional<ReduceKind> kind, Region &combiner,
    std::optional<ArrayAttr> identity, bool exclusive,
    TypeRange elementTypes) {
  bool hasRegion = !combiner.empty();
  if (hasRegion == kind.has_value())
    return op->emitOpError("needs one combiner: a kind (add, mul, max, min) "
                           "or a region, not ")
           << (hasRegion ? "both" : "neither");
  if (kind && identity)
    return op->emitOpError("takes an identity only with a combiner region");
  if (hasRegion && exclusive && !identity)
    return op->emitOpError(
        "needs the identity tuple for an exclusive scan with a region");
  if (!identity)
    return success();
  if (identity->size() != elementTypes.size())
    return op->emitOpError("identity must give ")
           << elementTypes.size() << " values, one per scanned operand, got "
           << identity->size();
  for (auto [i, value] : llvm::enumerate(*identity)) {
    auto typed = dyn_cast<TypedAttr>(value);
    if (!typed || typed.getType() != elementTypes[i])
      return op->emitOpError("identity #")
             << i << " must be a " << elementTypes[i] << " value, got "
             << value;
  }
  return success();
}

/// The ops of a region applied to scalars and tiles alike (`what`: a
/// combiner, a score modification): element-wise arith and math only.
static LogicalResult verifyElementwiseBody(Block &body, StringRef what) {
  for (Operation &inner : body.without_terminator()) {
    StringRef dialect = inner.getDialect() ? inner.getDialect()->getNamespace()
                                           : StringRef();
    if ((dialect != "arith" && dialect != "math") ||
        inner.getNumRegions() != 0)
      return inner.emitOpError("cannot be in ")
             << what << ": it may hold only element-wise arith and math ops";
  }
  return success();
}

LogicalResult tilec::tile::verifyCombinerRegion(Operation *op,
                                               Region &combiner,
                                               TypeRange elementTypes) {
  if (combiner.empty())
    return success();
  Block &body = combiner.front();
  unsigned n = elementTypes.size();
  if (body.getNumArguments() != 2 * n)
    return op->emitOpError("combiner must take ")
           << 2 * n << " arguments (the earlier tuple, then the later one), "
           << "got " << body.getNumArguments();
  for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
    if (arg.getType() != elementTypes[i % n])
      return op->emitOpError("combiner argument #")
             << i << " must be " << elementTypes[i % n] << ", got "
             << arg.getType();
  }
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return op->emitOpError("combiner must end with tile.yield");
  if (failed(verifyElementwiseBody(body, "a combiner")))
    return failure();
  if (yield.getValues().size() != n)
    return yield.emitOpError("must yield ")
           << n << " values, one per scanned operand, got "
           << yield.getValues().size();
  for (auto [i, value] : llvm::enumerate(yield.getValues())) {
    if (value.getType() != elementTypes[i])
      return yield.emitOpError("value #")
             << i << " must be " << elementTypes[i] << ", got "
             << value.getType();
  }
  return success();
}

LogicalResult ScanOp::verify() {
  FunctionType type = getFunctionType();
  unsigned count = type.getNumInputs();
  if (type.getNumResults() != 0 || count < 2 || count % 2 != 0)
    return emitOpError("expects the type (X1, ..., Xn, Y1, ..., Yn) -> () "
                       "with n >= 1, got ")
           << type;
  unsigned n = getNumScanned();
  for (unsigned i = 0; i < count; ++i) {
    auto buffer = dyn_cast<MemRefType>(type.getInput(i));
    if (!buffer || buffer.getRank() < 1 || buffer.getRank() > 2 ||
        !buffer.getLayout().isIdentity())
      return emitOpError(scanBufferName(i, n))
             << " must be a 1-D or 2-D memref with the identity layout, got "
             << type.getInput(i);
    if (!isScanElementType(buffer.getElementType()))
      return emitOpError(scanBufferName(i, n))
             << " elements must be f32, i32, f16 or bf16, got "
             << buffer.getElementType();
    MemRefType first = getInputType(0);
    if (buffer.getRank() != first.getRank())
      return emitOpError(scanBufferName(i, n))
             << " has rank " << buffer.getRank() << ", input #0 has rank "
             << first.getRank();
    for (int64_t d = 0; d < buffer.getRank(); ++d)
      if (!buffer.isDynamicDim(d) && !first.isDynamicDim(d) &&
          buffer.getDimSize(d) != first.getDimSize(d))
        return emitOpError(scanBufferName(i, n))
               << " has extent " << buffer.getDimSize(d) << " in dimension "
               << d << ", input #0 has " << first.getDimSize(d);
  }
  for (unsigned i = 0; i < n; ++i)
    if (getInputType(i).getElementType() != getOutputType(i).getElementType())
      return emitOpError("output #")
             << i << " has element type " << getOutputType(i).getElementType()
             << ", input #" << i << " has "
             << getInputType(i).getElementType();
  int64_t rank = getInputType(0).getRank();
  if (getAlong() < 0 || getAlong() >= rank)
    return emitOpError("along must be a dimension of the rank-")
           << rank << " buffers, got " << getAlong();

  SmallVector<Type> elementTypes;
  for (unsigned i = 0; i < n; ++i)
    elementTypes.push_back(getInputType(i).getElementType());
  if (failed(verifyCombinerChoice(*this, getKind(), getCombiner(),
                                  getIdentity(),
                                  getMode() == ScanMode::exclusive,
                                  elementTypes)))
    return failure();
  return verifySchedule();
}

/// A program's threads each scan whole 4-element chunks, at most 64
/// elements (registers).
LogicalResult ScanOp::verifySchedule() {
  int64_t warps = getWarps().value_or(1);
  if (warps < 1 || warps > 32)
    return emitOpError("warps must be in [1, 32], got ") << warps;
  if (std::optional<int64_t> block = getBlock()) {
    int64_t perThread = *block / (32 * warps);
    if (!llvm::isPowerOf2_64(*block) || perThread < 4 || perThread > 64)
      return emitOpError("block must be a power of two giving each of the ")
             << 32 * warps << " threads 4 to 64 elements, got " << *block;
  }
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  SmallVector<Type> elementTypes;
  for (unsigned i = 0; i < getNumScanned(); ++i)
    elementTypes.push_back(getInputType(i).getElementType());
  return verifyCombinerRegion(*this, getCombiner(), elementTypes);
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

namespace {
/// The logical extents of an attention operand, whatever its order.
struct AttentionDims {
  int64_t batch, heads, seq, dim;
};
} // namespace

AttentionDimPositions tilec::tile::attentionDimPositions(AttentionLayout layout) {
  if (layout == AttentionLayout::bhsd)
    return {0, 1, 2};
  if (layout == AttentionLayout::bshd)
    return {0, 2, 1};
  return {std::nullopt, 1, 0};
}

/// `thd` has no batch dimension: 1.
static AttentionDims attentionDims(MemRefType type, AttentionLayout layout) {
  ArrayRef<int64_t> s = type.getShape();
  AttentionDimPositions at = attentionDimPositions(layout);
  return {at.batch ? s[*at.batch] : 1, s[at.heads], s[at.seq], s.back()};
}

/// Checks cu_seqlens_q, cu_seqlens_k and max_seqlen_q of a ragged
/// attention.
static LogicalResult verifyRaggedArguments(AttentionOp op) {
  FunctionType type = op.getFunctionType();
  unsigned at = op.getCuSeqlensIndex();
  const char *names[] = {"cu_seqlens_q", "cu_seqlens_k"};
  SmallVector<int64_t> extents;
  for (unsigned i = 0; i < 2; ++i) {
    auto offsets = dyn_cast<MemRefType>(type.getInput(at + i));
    if (!offsets || offsets.getRank() != 1 ||
        !offsets.getElementType().isInteger(32) || !offsets.isStrided())
      return op.emitOpError(names[i])
             << " must be a strided 1-D i32 memref [batch + 1], got "
             << type.getInput(at + i);
    extents.push_back(offsets.getDimSize(0));
  }
  if (failed(checkExtent(op, "batch + 1", extents[0], "cu_seqlens_q",
                         extents[1], "cu_seqlens_k")))
    return failure();
  if (!type.getInput(at + 2).isInteger(32))
    return op.emitOpError("max_seqlen_q must be an i32, got ")
           << type.getInput(at + 2);
  if (std::optional<unsigned> maxKeys = op.getMaxSeqlenKIndex();
      maxKeys && !type.getInput(*maxKeys).isInteger(32))
    return op.emitOpError("max_seqlen_k must be an i32, got ")
           << type.getInput(*maxKeys);
  return success();
}

LogicalResult AttentionOp::verify() {
  FunctionType type = getFunctionType();
  bool ragged = isRagged();
  unsigned rank = ragged ? 3 : 4;
  unsigned arguments = getCuSeqlensIndex() + (ragged ? 3 : 0) +
                       (getMaxSeqlenKIndex() ? 1 : 0);
  bool scaleArgument = getScaleArgumentIndex().has_value();
  if ((type.getNumInputs() != arguments && !scaleArgument) ||
      type.getNumResults() != 0)
    return emitOpError("expects the type (Q, K, V, O")
           << (getLse() ? ", LSE" : "")
           << (ragged ? ", cu_seqlens_q, cu_seqlens_k, max_seqlen_q: i32"
                        "[, max_seqlen_k: i32]"
                      : "")
           << "[, scale: f32]) -> ()";
  if (std::optional<int64_t> window = getWindow()) {
    if (!getCausal())
      return emitOpError("window needs causal: it bounds the keys a query "
                         "sees from the left of the diagonal");
    if (*window < 1)
      return emitOpError("window must hold at least one key, got ") << *window;
  }
  if (scaleArgument && getScaleAttr())
    return emitOpError("takes its scale from an attribute or an argument, "
                       "not both");
  const char *names[] = {"Q", "K", "V", "O"};
  SmallVector<AttentionDims> dims;
  for (unsigned i = 0; i < 4; ++i) {
    auto buffer = dyn_cast<MemRefType>(type.getInput(i));
    if (!buffer || buffer.getRank() != rank || !buffer.isStrided())
      return emitOpError(names[i])
             << " must be a strided " << rank << "-D memref, got "
             << type.getInput(i);
    Type element = buffer.getElementType();
    if (!element.isF16() && !element.isBF16())
      return emitOpError(names[i])
             << " elements must be f16 or bf16, got " << element;
    if (element != getOperandType(0).getElementType())
      return emitOpError("element types differ: Q has ")
             << getOperandType(0).getElementType() << ", " << names[i]
             << " has " << element;
    dims.push_back(attentionDims(buffer, getLayout()));
    if (ShapedType::isDynamic(dims.back().dim))
      return emitOpError(names[i]) << "'s head dim must be static, got "
                                   << buffer;
    if (dims.back().dim != dims[0].dim)
      return emitOpError("head dims differ: Q has ")
             << dims[0].dim << ", " << names[i] << " has " << dims.back().dim;
    // Rows of a head are read and written as contiguous vectors.
    if (buffer.getStridesAndOffset().first.back() != 1)
      return emitOpError(names[i])
             << "'s head dim must be contiguous (stride 1), got " << buffer;
  }
  if (ragged && failed(verifyRaggedArguments(*this)))
    return failure();
  int64_t d = dims[0].dim;
  // Tiles are powers of two, and 32 columns make no 16x16 warp tile of the
  // decode kernels' P V.
  if (d != 64 && d != 128 && d != 256)
    return emitOpError("head dim ")
           << d << " is not supported; it must be 64, 128 or 256";
  const AttentionDims &q = dims[0], &k = dims[1], &v = dims[2], &o = dims[3];
  for (unsigned i = 1; i < 4; ++i)
    if (failed(checkExtent(*this, "batch", q.batch, "Q",
                                    dims[i].batch, names[i])))
      return failure();
  if (failed(checkExtent(*this, "heads", q.heads, "Q", o.heads,
                                  "O")) ||
      failed(checkExtent(*this, "K/V heads", k.heads, "K", v.heads,
                                  "V")) ||
      failed(checkExtent(*this, "n_q", q.seq, "Q", o.seq, "O")) ||
      failed(checkExtent(*this, "n_kv", k.seq, "K", v.seq, "V")))
    return failure();
  if (!ShapedType::isDynamic(q.heads) && !ShapedType::isDynamic(k.heads) &&
      q.heads % k.heads != 0)
    return emitOpError("K/V heads (")
           << k.heads << ") must divide the query heads (" << q.heads << ")";
  if (getLse() && ragged) {
    auto lse = dyn_cast<MemRefType>(type.getInput(4));
    if (!lse || lse.getRank() != 2 || !lse.getElementType().isF32() ||
        !lse.isStrided())
      return emitOpError("LSE must be a strided 2-D f32 memref ")
             << "[heads, tokens_q], got " << type.getInput(4);
    if (failed(checkExtent(*this, "heads", q.heads, "Q", lse.getDimSize(0),
                           "LSE")) ||
        failed(checkExtent(*this, "tokens_q", q.seq, "Q", lse.getDimSize(1),
                           "LSE")))
      return failure();
  } else if (getLse()) {
    auto lse = dyn_cast<MemRefType>(type.getInput(4));
    if (!lse || lse.getRank() != 3 || !lse.getElementType().isF32() ||
        !lse.isStrided())
      return emitOpError("LSE must be a strided 3-D f32 memref ")
             << "[batch, heads, n_q], got " << type.getInput(4);
    if (failed(checkExtent(*this, "batch", q.batch, "Q",
                                    lse.getDimSize(0), "LSE")) ||
        failed(checkExtent(*this, "heads", q.heads, "Q",
                                    lse.getDimSize(1), "LSE")) ||
        failed(checkExtent(*this, "n_q", q.seq, "Q",
                                    lse.getDimSize(2), "LSE")))
      return failure();
  }
  if (FloatAttr scale = getScaleAttr()) {
    double value = scale.getValueAsDouble();
    if (!std::isfinite(value) || value == 0)
      return emitOpError("scale must be finite and nonzero, got ") << value;
  }
  if (std::optional<ArrayRef<int64_t>> block = getBlock())
    for (int64_t extent : *block)
      if (extent > 256)
        return emitOpError("block extents must be at most 256, got ")
               << extent;
  if (getPersistent() && ragged)
    return emitOpError("persistent walks tiles of equal sequences; packed "
                       "sequences take one program a block of each");
  return verifyScheduleHints(*this, getBlock(), "[queries, keys]", 16,
                             getWarps(), getStages());
}

LogicalResult AttentionOp::verifyRegions() {
  Region &region = getScoreMod();
  if (region.empty())
    return success();
  Block &block = region.front();
  Builder b(getContext());
  SmallVector<Type> expected = {b.getF32Type(), b.getIndexType(),
                                b.getIndexType(), b.getIndexType(),
                                b.getIndexType()};
  if (block.getArgumentTypes() != TypeRange(expected))
    return emitOpError("score modification takes (score: f32, batch: index, "
                       "head: index, query: index, key: index)");
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield || yield.getValues().getTypes() != TypeRange{b.getF32Type()})
    return emitOpError("score modification must yield one f32 score");
  return verifyElementwiseBody(block, "a score modification");
}

std::optional<unsigned> AttentionOp::getMaxSeqlenKIndex() {
  unsigned index = getCuSeqlensIndex() + 3;
  FunctionType type = getFunctionType();
  if (isRagged() && type.getNumInputs() > index &&
      isa<IntegerType>(type.getInput(index)))
    return index;
  return std::nullopt;
}

std::optional<unsigned> AttentionOp::getScaleArgumentIndex() {
  unsigned index = getCuSeqlensIndex() + (isRagged() ? 3 : 0) +
                   (getMaxSeqlenKIndex() ? 1 : 0);
  FunctionType type = getFunctionType();
  if (type.getNumInputs() == index + 1 && type.getInput(index).isF32())
    return index;
  return std::nullopt;
}

double AttentionOp::getScaleOrDefault() {
  if (FloatAttr scale = getScaleAttr())
    return scale.getValueAsDouble();
  return 1.0 / std::sqrt(double(
                   attentionDims(getOperandType(0), getLayout()).dim));
}

LogicalResult YieldOp::verify() {
  // The parents are marked by a trait so that tilegpu.lookback, which the
  // tile dialect does not know, can be one.
  Operation *parent = (*this)->getParentOp();
  if (!parent || !parent->hasTrait<HasCombiner>())
    return emitOpError("expects parent op to be one of 'tile.scan, "
                       "tile.prefix, tile.attention, tilegpu.lookback'");
  return success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// Checks what tile.load and tile.store share: the tile fits the buffer.
static LogicalResult verifyTileAccess(Operation *op, MemRefType buffer,
                                      size_t numIndices, Type tileType) {
  auto emitError = [op]() { return op->emitOpError(); };
  if (failed(verifyTileShape(emitError, tileType, "tile")))
    return failure();
  auto tile = cast<RankedTensorType>(tileType);
  if (numIndices != static_cast<size_t>(buffer.getRank()))
    return op->emitOpError("expects ")
           << buffer.getRank() << " indices for a rank-" << buffer.getRank()
           << " buffer, got " << numIndices;
  if (tile.getRank() != buffer.getRank())
    return op->emitOpError("tile rank ")
           << tile.getRank() << " does not match buffer rank "
           << buffer.getRank();
  if (tile.getElementType() != buffer.getElementType())
    return op->emitOpError("tile element type ")
           << tile.getElementType() << " does not match buffer element type "
           << buffer.getElementType();
  return success();
}

LogicalResult tilec::tile::verifySharedBuffer(
    Operation *op, SharedEncodingAttrInterface encoding, MemRefType buffer,
    ArrayRef<int64_t> tileShape) {
  auto space =
      dyn_cast_or_null<gpu::AddressSpaceAttr>(buffer.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
    return op->emitOpError("a placed tile's buffer must be in workgroup "
                           "memory");
  auto emitError = [op]() { return op->emitOpError(); };
  if (failed(encoding.verifyTile(emitError, tileShape,
                                 buffer.getElementType())))
    return failure();
  SmallVector<int64_t> expected = encoding.getBufferShape(tileShape);
  if (!buffer.hasStaticShape() || buffer.getShape() != ArrayRef(expected)) {
    InFlightDiagnostic diag = op->emitOpError("a ");
    llvm::interleave(tileShape, diag, "x");
    diag << " tile placed by " << Attribute(encoding) << " needs a [";
    llvm::interleaveComma(expected, diag);
    return diag << "] buffer, got " << buffer;
  }
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(buffer.getStridesAndOffset(strides, offset)) ||
      strides != ArrayRef(computeStrides(expected)))
    return op->emitOpError("a placed tile's buffer must be contiguous, got ")
           << buffer;
  return success();
}

LogicalResult LoadOp::verify() {
  if (auto shared = dyn_cast_or_null<SharedEncodingAttrInterface>(
          getType().getEncoding())) {
    if (!getIndices().empty())
      return emitOpError("reads a whole placed tile: expects no indices");
    if (getPadding())
      return emitOpError("a placed tile has nothing to pad");
    if (getType().getElementType() != getBuffer().getType().getElementType())
      return emitOpError("tile element type ")
             << getType().getElementType()
             << " does not match buffer element type "
             << getBuffer().getType().getElementType();
    return verifySharedBuffer(*this, shared, getBuffer().getType(),
                              getType().getShape());
  }
  if (failed(verifyTileAccess(*this, getBuffer().getType(),
                              getIndices().size(), getType())))
    return failure();
  if (std::optional<TypedAttr> padding = getPadding()) {
    if (padding->getType() != getType().getElementType())
      return emitOpError("padding type ")
             << padding->getType() << " does not match element type "
             << getType().getElementType();
  }
  return success();
}

TypedAttr LoadOp::getPaddingOrZero() {
  if (std::optional<TypedAttr> padding = getPadding())
    return *padding;
  return cast<TypedAttr>(
      Builder(getContext()).getZeroAttr(getType().getElementType()));
}

LogicalResult StoreOp::verify() {
  return verifyTileAccess(*this, getBuffer().getType(), getIndices().size(),
                          getValue().getType());
}

//===----------------------------------------------------------------------===//
// Tile construction and data movement
//===----------------------------------------------------------------------===//

LogicalResult SplatOp::verify() {
  return verifyTileShape([this]() { return emitOpError(); }, getType(),
                         "result");
}

LogicalResult RangeOp::verify() {
  if (failed(verifyTileShape([this]() { return emitOpError(); }, getType(),
                             "result")))
    return failure();
  RankedTensorType type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be 1-D, got ") << type;
  auto elementType = dyn_cast<IntegerType>(type.getElementType());
  if (!elementType || elementType.getWidth() < 32)
    return emitOpError("result elements must be i32 or i64, got ")
           << type.getElementType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  auto emitError = [this]() { return emitOpError(); };
  if (failed(verifyTileShape(emitError, getResult().getType(), "result")) ||
      failed(verifyTileShape(emitError, getInput().getType(), "input")))
    return failure();
  RankedTensorType input = getInput().getType();
  RankedTensorType result = getResult().getType();
  if (input.getElementType() != result.getElementType())
    return emitOpError("element types differ: ")
           << input.getElementType() << " vs " << result.getElementType();
  ArrayRef<int64_t> dims = getDims();
  if (dims.empty())
    return emitOpError("needs at least one new dimension");
  if (input.getRank() + static_cast<int64_t>(dims.size()) != result.getRank())
    return emitOpError("input rank ")
           << input.getRank() << " plus " << dims.size()
           << " new dimensions does not give result rank "
           << result.getRank();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0 || dims[i] >= result.getRank())
      return emitOpError("new dimension ")
             << dims[i] << " is out of range for a rank-" << result.getRank()
             << " result";
    if (i > 0 && dims[i] <= dims[i - 1])
      return emitOpError("new dimensions must be strictly increasing");
  }
  int64_t inputDim = 0;
  for (int64_t d = 0; d < result.getRank(); ++d) {
    if (llvm::is_contained(dims, d))
      continue;
    if (result.getDimSize(d) != input.getDimSize(inputDim))
      return emitOpError("result dimension ")
             << d << " is " << result.getDimSize(d) << " but input dimension "
             << inputDim << " is " << input.getDimSize(inputDim);
    ++inputDim;
  }
  return success();
}

SmallVector<Type> tilec::tile::elementTypesOf(TypeRange types) {
  return llvm::map_to_vector(types,
                             [](Type t) { return getElementTypeOrSelf(t); });
}

/// A tile's type without dimension `axis`: a scalar for a 1-D tile; laid
/// out as the slice of the tile's layout, if it has one.
static Type droppingDim(RankedTensorType type, int64_t axis) {
  if (type.getRank() == 1)
    return type.getElementType();
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + axis);
  Attribute slice;
  if (auto layout = dyn_cast_or_null<LayoutEncodingAttrInterface>(
          type.getEncoding()))
    slice = layout.getSlice(axis, type.getDimSize(axis));
  return RankedTensorType::get(shape, type.getElementType(), slice);
}


LogicalResult PrefixOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    if (failed(verifyTileShape([&]() { return emitOpError(); },
                               input.getType(), "input")))
      return failure();
    if (cast<RankedTensorType>(input.getType()).getShape() !=
        getType().getShape())
      return emitOpError("input #")
             << i << " has type " << input.getType()
             << "; all inputs must have the shape of input #0, "
             << getInputs()[0].getType();
  }
  int64_t rank = getType().getRank();
  if (getAxis() < 0 || getAxis() >= rank)
    return emitOpError("axis must be a dimension of the rank-")
           << rank << " tile, got " << getAxis();
  return verifyCombinerChoice(*this, getKind(), getCombiner(), getIdentity(),
                              getExclusive(),
                              elementTypesOf(getInputs().getTypes()));
}

LogicalResult PrefixOp::verifyRegions() {
  return verifyCombinerRegion(*this, getCombiner(),
                              elementTypesOf(getInputs().getTypes()));
}

LogicalResult PrefixOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         ValueRange operands, DictionaryAttr,
                                         OpaqueProperties properties,
                                         RegionRange,
                                         SmallVectorImpl<Type> &inferred) {
  // The scans have the inputs' types, the totals drop the axis. The parser
  // reports nothing of its own when this fails: say why.
  auto *props = properties.as<Properties *>();
  if (!props || !props->axis)
    return emitOptionalError(location, "'tile.prefix' op needs an axis");
  int64_t axis = props->axis.getInt();
  for (Value input : operands) {
    auto type = dyn_cast<RankedTensorType>(input.getType());
    if (!type)
      return emitOptionalError(
          location, "'tile.prefix' op scans tiles (ranked tensors), got ",
          input.getType());
    inferred.push_back(type);
  }
  // A bad axis is the verifier's to report; the totals then keep it.
  for (Value input : operands) {
    auto type = cast<RankedTensorType>(input.getType());
    inferred.push_back(axis >= 0 && axis < type.getRank()
                           ? droppingDim(type, axis)
                           : Type(type));
  }
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyTileShape([this]() { return emitOpError(); },
                             getInput().getType(), "input")))
    return failure();
  auto input = cast<RankedTensorType>(getInput().getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= input.getRank())
    return emitOpError("axis ") << axis << " is out of range for a rank-"
                                << input.getRank() << " tile";
  // Layouts are the lowering's to check: compare shapes and element types.
  Type expected = droppingDim(input.dropEncoding(), axis);
  Type result = getResult().getType();
  if (auto resultTile = dyn_cast<RankedTensorType>(result))
    result = resultTile.dropEncoding();
  if (result != expected)
    return emitOpError("result type must be ")
           << expected << ", got " << getResult().getType();
  return success();
}

LogicalResult DotOp::verify() {
  auto emitError = [this]() { return emitOpError(); };
  const char *names[] = {"lhs", "rhs", "acc"};
  for (auto [value, what] : llvm::zip(getOperands(), names))
    if (failed(verifyTileShape(emitError, value.getType(), what)))
      return failure();
  auto lhs = cast<RankedTensorType>(getLhs().getType());
  auto rhs = cast<RankedTensorType>(getRhs().getType());
  auto acc = cast<RankedTensorType>(getAcc().getType());
  if (lhs.getRank() != 2 || rhs.getRank() != 2 || acc.getRank() != 2)
    return emitOpError("operands must be 2-D tiles");
  if (lhs.getDimSize(1) != rhs.getDimSize(0))
    return emitOpError("lhs is ")
           << lhs.getDimSize(0) << "x" << lhs.getDimSize(1) << " but rhs is "
           << rhs.getDimSize(0) << "x" << rhs.getDimSize(1)
           << ": inner dimensions differ";
  if (acc.getDimSize(0) != lhs.getDimSize(0) ||
      acc.getDimSize(1) != rhs.getDimSize(1))
    return emitOpError("acc must be ")
           << lhs.getDimSize(0) << "x" << rhs.getDimSize(1);
  Type inType = lhs.getElementType();
  if (inType != rhs.getElementType())
    return emitOpError("lhs and rhs element types differ: ")
           << inType << " vs " << rhs.getElementType();
  if (!inType.isF16() && !inType.isBF16() && !inType.isF32())
    return emitOpError("operands must be f16, bf16 or f32, got ") << inType;
  if (!acc.getElementType().isF32())
    return emitOpError("accumulator must be f32, got ")
           << acc.getElementType();
  return success();
}

LogicalResult TransposeOp::verify() {
  auto emitError = [this]() { return emitOpError(); };
  if (failed(verifyTileShape(emitError, getInput().getType(), "input")) ||
      failed(verifyTileShape(emitError, getResult().getType(), "result")))
    return failure();
  auto input = cast<RankedTensorType>(getInput().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  if (input.getRank() != 2)
    return emitOpError("expects a 2-D tile, got rank ") << input.getRank();
  if (result.getElementType() != input.getElementType() ||
      result.getRank() != 2 || result.getDimSize(0) != input.getDimSize(1) ||
      result.getDimSize(1) != input.getDimSize(0))
    return emitOpError("result must be the transposed input type, got ")
           << result;
  // A placed tile stays where it is: only its encoding's dimensions swap.
  auto shared =
      dyn_cast_or_null<SharedEncodingAttrInterface>(input.getEncoding());
  bool resultShared =
      isa_and_nonnull<SharedEncodingAttrInterface>(result.getEncoding());
  if (shared ? result.getEncoding() != shared.getTransposed() : resultShared)
    return emitOpError("the transpose of a placed tile is placed by the "
                       "transposed encoding, got ")
           << result;
  return success();
}

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/TileOps.cpp.inc"
