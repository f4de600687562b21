//===- KernelPartitions.cpp - A gpu.module's kernels in parts -------------===//
//
// Splits a gpu.module into modules of whole kernels that can be lowered or
// turned into PTX apart, and joins such parts back into one module. Used by
// tile-split-kernel-modules / tile-join-kernel-modules (so that the
// module-level lowering passes run on the parts in parallel) and by
// tile-module-to-cubin (PTX made in parallel).
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace tilec {

/// Whether every part may hold its own copy of `op`: PTX keeps internal
/// and private LLVM symbols inside their file, and a private symbol of
/// another dialect (before the lowering) is seen by its module alone.
static bool isFileLocal(Operation *op) {
  auto isLocal = [](LLVM::Linkage linkage) {
    return linkage == LLVM::Linkage::Internal ||
           linkage == LLVM::Linkage::Private;
  };
  if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op))
    return isLocal(func.getLinkage());
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    return isLocal(global.getLinkage());
  return isa<SymbolOpInterface>(op) && SymbolTable::getSymbolVisibility(op) ==
                                           SymbolTable::Visibility::Private;
}

bool isSymbolDeclaration(Operation *op) {
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    return global.getLinkage() == LLVM::Linkage::External &&
           !global.getValueOrNull() && global.getInitializerRegion().empty();
  if (auto func = dyn_cast<FunctionOpInterface>(op))
    return func.isExternal();
  return false;
}

bool isKernelFunction(Operation &op) {
  if (auto func = dyn_cast<gpu::GPUFuncOp>(op))
    return func.isKernel();
  return op.hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName());
}

/// The module-level ops that `root` reaches through symbol uses in its
/// body, `root` included. Attributes on a symbol op itself are not uses:
/// a kernel's links to its variants (tile.fallback, ...) only name them.
static llvm::SetVector<Operation *> reachedFrom(Operation *root,
                                                SymbolTable &symbols) {
  llvm::SetVector<Operation *> reached;
  SmallVector<Operation *> worklist{root};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!reached.insert(op))
      continue;
    op->walk([&](Operation *nested) {
      if (nested == op)
        return;
      for (NamedAttribute attr : nested->getAttrs())
        attr.getValue().walk([&](SymbolRefAttr ref) {
          if (Operation *target = symbols.lookup(ref.getRootReference()))
            worklist.push_back(target);
        });
    });
  }
  return reached;
}

/// Balances groups of kernels over at most `maxParts` partitions, the
/// heaviest group first onto the lightest partition. The heaviest partition
/// comes first: with the partitions in module order instead (ptxas gets
/// the files in that order), examples/matmul.mlir compiled 6-8% slower
/// (wall time, 2 cores) to the same code.
static SmallVector<SmallVector<unsigned>>
balance(ArrayRef<SmallVector<unsigned>> groups, ArrayRef<int64_t> weights,
        unsigned maxParts) {
  unsigned parts = groups.size();
  if (maxParts)
    parts = std::min(parts, maxParts);
  SmallVector<unsigned> order(groups.size());
  std::iota(order.begin(), order.end(), 0);
  llvm::stable_sort(
      order, [&](unsigned a, unsigned b) { return weights[a] > weights[b]; });
  SmallVector<SmallVector<unsigned>> assigned(parts);
  SmallVector<int64_t> load(parts, 0);
  for (unsigned group : order) {
    unsigned lightest =
        std::min_element(load.begin(), load.end()) - load.begin();
    llvm::append_range(assigned[lightest], groups[group]);
    load[lightest] += weights[group];
  }
  for (SmallVector<unsigned> &part : assigned)
    llvm::sort(part); // kernels in their module order
  return assigned;
}

SmallVector<gpu::GPUModuleOp> splitKernels(gpu::GPUModuleOp gpuModule,
                                           unsigned maxPartitions,
                                           ModuleOp holder) {
  SymbolTable symbols(gpuModule);
  SmallVector<Operation *> kernels;
  for (Operation &op : gpuModule.getBody()->getOperations())
    if (isKernelFunction(op))
      kernels.push_back(&op);

  // Kernels that reach one public symbol must be in one partition: PTX
  // may define it only once (but declare it in every file).
  SmallVector<llvm::SetVector<Operation *>> reached;
  llvm::EquivalenceClasses<unsigned> together;
  DenseMap<Operation *, unsigned> firstReacher;
  for (auto [i, kernel] : llvm::enumerate(kernels)) {
    reached.push_back(reachedFrom(kernel, symbols));
    together.insert(i);
    for (Operation *op : reached.back()) {
      if (isFileLocal(op) || isSymbolDeclaration(op))
        continue;
      auto [it, fresh] = firstReacher.try_emplace(op, i);
      if (!fresh)
        together.unionSets(it->second, i);
    }
  }
  SmallVector<SmallVector<unsigned>> groups;
  SmallVector<int64_t> weights;
  DenseMap<unsigned, unsigned> groupOfLeader;
  for (unsigned i = 0; i < kernels.size(); ++i) {
    unsigned leader = together.getLeaderValue(i);
    auto [it, fresh] = groupOfLeader.try_emplace(leader, groups.size());
    if (fresh) {
      groups.emplace_back();
      weights.push_back(0);
    }
    groups[it->second].push_back(i);
    kernels[i]->walk([&](Operation *) { ++weights[it->second]; });
  }
  if (groups.empty())
    groups.emplace_back(), weights.push_back(0);
  SmallVector<SmallVector<unsigned>> parts =
      balance(groups, weights, maxPartitions);

  // Each partition: its kernels' reached ops, in module order; the first
  // also takes what no kernel reaches (launch metadata, unused functions).
  // An op goes to the last partition that wants it (moved, which leaves
  // the module empty), the others get copies.
  DenseSet<Operation *> reachedByAny;
  for (const llvm::SetVector<Operation *> &set : reached)
    reachedByAny.insert(set.begin(), set.end());
  SmallVector<Operation *> ops = llvm::map_to_vector(
      gpuModule.getBody()->getOperations(), [](Operation &op) { return &op; });
  SmallVector<DenseSet<Operation *>> wanted(parts.size());
  DenseMap<Operation *, unsigned> lastWanter;
  for (auto [index, part] : llvm::enumerate(parts)) {
    for (unsigned kernel : part)
      wanted[index].insert(reached[kernel].begin(), reached[kernel].end());
    if (index == 0)
      for (Operation *op : ops)
        if (!reachedByAny.contains(op))
          wanted[index].insert(op);
    for (Operation *op : wanted[index])
      lastWanter[op] = index;
  }
  OpBuilder builder = OpBuilder::atBlockEnd(holder.getBody());
  SmallVector<gpu::GPUModuleOp> partitions;
  for (unsigned index = 0; index < parts.size(); ++index) {
    auto partition = cast<gpu::GPUModuleOp>(
        builder.insert(gpuModule->cloneWithoutRegions()));
    Block *body = &partition.getBodyRegion().emplaceBlock();
    OpBuilder inside = OpBuilder::atBlockEnd(body);
    for (Operation *op : ops) {
      if (!wanted[index].contains(op))
        continue;
      if (lastWanter.lookup(op) == index)
        op->moveBefore(body, body->end());
      else
        inside.clone(*op);
    }
    partitions.push_back(partition);
  }
  return partitions;
}

LogicalResult joinKernelModules(gpu::GPUModuleOp into,
                                ArrayRef<gpu::GPUModuleOp> parts) {
  SymbolTable symbols(into);
  Block *body = into.getBody();
  for (gpu::GPUModuleOp part : parts) {
    for (Operation &op : llvm::make_early_inc_range(*part.getBody())) {
      Operation *existing =
          isa<SymbolOpInterface>(op)
              ? symbols.lookup(SymbolTable::getSymbolName(&op))
              : nullptr;
      if (!existing) {
        op.moveBefore(body, body->end());
        if (isa<SymbolOpInterface>(op))
          symbols.insert(&op, body->end());
        continue;
      }
      // A symbol in several parts: declarations (of libdevice functions,
      // of the dynamic shared memory) or copies of one file-local
      // definition, which the same passes lowered alike.
      if (isSymbolDeclaration(&op))
        continue;
      if (isSymbolDeclaration(existing)) {
        symbols.erase(existing);
        op.moveBefore(body, body->end());
        symbols.insert(&op, body->end());
        continue;
      }
      if (!OperationEquivalence::isEquivalentTo(
              existing, &op, OperationEquivalence::IgnoreLocations))
        return op.emitError("parts of gpu.module @")
               << into.getName() << " define @"
               << SymbolTable::getSymbolName(&op).getValue() << " differently";
    }
    part.erase();
  }
  return success();
}

} // namespace tilec
