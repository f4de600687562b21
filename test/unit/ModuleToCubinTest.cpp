//===- ModuleToCubinTest.cpp - Partitions of tile-module-to-cubin ---------===//
//
// splitKernels decides which kernels may become PTX apart: a file-local
// symbol or a declaration is copied into every partition that uses it, a
// public definition keeps its users together, and what no kernel uses goes
// to the first partition.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/Passes.h"
#include "tilec/Pipeline/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace mlir;

namespace {

// a and b share a file-local global; c and d share a public function; the
// metadata global is used by no kernel; a names b in an attribute only.
constexpr const char *kModule = R"mlir(
gpu.module @m {
  llvm.mlir.global internal @smem() {addr_space = 3 : i32} : !llvm.array<0 x i8>
  llvm.mlir.global external constant @meta("x") {addr_space = 1 : i32}
  llvm.func @helper() { llvm.return }
  llvm.func @a() attributes {nvvm.kernel, tile.fallback = @b} {
    %p = llvm.mlir.addressof @smem : !llvm.ptr<3>
    llvm.return
  }
  llvm.func @b() attributes {nvvm.kernel} {
    %p = llvm.mlir.addressof @smem : !llvm.ptr<3>
    llvm.return
  }
  llvm.func @c() attributes {nvvm.kernel} {
    llvm.call @helper() : () -> ()
    llvm.return
  }
  llvm.func @d() attributes {nvvm.kernel} {
    llvm.call @helper() : () -> ()
    llvm.return
  }
}
)mlir";

// e and f address the dynamic shared memory and call a function defined
// elsewhere: declarations, which each partition may repeat.
constexpr const char *kDeclarations = R"mlir(
gpu.module @m {
  llvm.mlir.global external @dynamic() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @elsewhere()
  llvm.func @e() attributes {nvvm.kernel} {
    %p = llvm.mlir.addressof @dynamic : !llvm.ptr<3>
    llvm.call @elsewhere() : () -> ()
    llvm.return
  }
  llvm.func @f() attributes {nvvm.kernel} {
    %p = llvm.mlir.addressof @dynamic : !llvm.ptr<3>
    llvm.call @elsewhere() : () -> ()
    llvm.return
  }
}
)mlir";

/// Each partition's symbol names, in order.
std::vector<std::vector<std::string>> split(unsigned maxPartitions,
                                            const char *source = kModule) {
  DialectRegistry registry;
  tilec::registerDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  EXPECT_TRUE(module);
  auto gpuModule = *module->getOps<gpu::GPUModuleOp>().begin();
  OwningOpRef<ModuleOp> holder = ModuleOp::create(UnknownLoc::get(&context));
  std::vector<std::vector<std::string>> names;
  for (gpu::GPUModuleOp part :
       tilec::splitKernels(gpuModule, maxPartitions, *holder)) {
    names.emplace_back();
    for (Operation &op : part.getBody()->getOperations())
      names.back().push_back(SymbolTable::getSymbolName(&op).str());
  }
  return names;
}

using Names = std::vector<std::vector<std::string>>;

TEST(SplitKernels, KeepsUsersOfAPublicSymbolTogether) {
  // Heaviest group first: {c, d} (with helper) fills partition 0, which
  // also takes the unused metadata; a and b each copy smem.
  EXPECT_EQ(split(0), (Names{{"meta", "helper", "c", "d"},
                             {"smem", "a"},
                             {"smem", "b"}}));
}

TEST(SplitKernels, RepeatsDeclarations) {
  EXPECT_EQ(split(0, kDeclarations), (Names{{"dynamic", "elsewhere", "e"},
                                           {"dynamic", "elsewhere", "f"}}));
}

TEST(SplitKernels, HonoursTheLimit) {
  EXPECT_EQ(split(1),
            (Names{{"smem", "meta", "helper", "a", "b", "c", "d"}}));
  Names two = split(2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0], (std::vector<std::string>{"meta", "helper", "c", "d"}));
  EXPECT_EQ(two[1], (std::vector<std::string>{"smem", "a", "b"}));
}

TEST(SplitKernels, AModuleWithoutKernelsIsOnePartition) {
  DialectRegistry registry;
  tilec::registerDialects(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      "gpu.module @m { llvm.func @f() { llvm.return } }", &context);
  ASSERT_TRUE(module);
  OwningOpRef<ModuleOp> holder = ModuleOp::create(UnknownLoc::get(&context));
  auto parts = tilec::splitKernels(*module->getOps<gpu::GPUModuleOp>().begin(),
                                   0, *holder);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(SymbolTable::getSymbolName(&parts[0].getBody()->front()), "f");
}

} // namespace
