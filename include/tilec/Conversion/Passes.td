//===- Passes.td - tilec conversion passes -----------------*- tablegen -*-===//

#ifndef TILEC_CONVERSION_PASSES_TD
#define TILEC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Target-neutral: tile -> gpu
//===----------------------------------------------------------------------===//

def ConvertTileKernelsToGPU : Pass<"convert-tile-kernels-to-gpu",
                                   "::mlir::ModuleOp"> {
  let summary = "Turn tile.kernel ops into gpu.func kernels";
  let description = [{
    Moves every `tile.kernel` into a `gpu.func` kernel of one `gpu.module`
    (named by `module-name`), with a known block size of `num_warps * 32`
    threads and the grid description kept as the `tile.grid` attribute for
    the launch metadata. `tile.program_id` / `tile.num_programs` become
    `gpu.block_id` / `gpu.grid_dim`; the tile ops of the body stay for
    `tile-map-warps`.

    ```mlir
    // Before
    tile.kernel @k(%x: memref<?xf32>)
        attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>],
                    num_warps = 2} {
      %p = tile.program_id x : index
      tile.return
    }
    // After
    gpu.module @tilec_kernels {
      gpu.func @k(%x: memref<?xf32>) kernel attributes {
          known_block_size = array<i32: 64, 1, 1>,
          tile.grid = [#tile.grid<arg = 0, dim = 0, per_program = 256>]} {
        %p = gpu.block_id x
        gpu.return
      }
    }
    ```
  }];
  let options = [
    Option<"moduleName", "module-name", "std::string",
           /*default=*/"\"tilec_kernels\"",
           "Name of the gpu.module that receives the kernels">,
  ];
  let statistics = [
    Statistic<"numKernels", "num-kernels", "Number of kernels outlined">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

//===----------------------------------------------------------------------===//
// NVIDIA-specific
//===----------------------------------------------------------------------===//

def TileOccupancyHints : Pass<"tile-occupancy-hints",
                              "::mlir::gpu::GPUModuleOp"> {
  let summary = "Ask ptxas for a number of resident blocks an SM";
  let description = [{
    A kernel's `tile.min_blocks_per_sm = N` (set by tile-tiling where N
    blocks measured faster than what ptxas picks by itself) becomes
    `nvvm.minctasm = N` on the `gpu.func`, which the GPU to NVVM conversion
    keeps and PTX states as `.minnctapersm N`: ptxas then caps the registers
    so that N blocks fit on a multiprocessor, spilling if it must.

    ```mlir
    // Before
    gpu.func @scan(...) kernel attributes {tile.min_blocks_per_sm = 7 : i64}
    // After
    gpu.func @scan(...) kernel attributes {nvvm.minctasm = 7 : i32}
    ```
  }];
  let statistics = [
    Statistic<"numKernels", "num-kernels", "Kernels given a hint">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def TileDependentLaunch : Pass<"tile-dependent-launch",
                               "::mlir::gpu::GPUModuleOp"> {
  let summary = "Let a then kernel's launch overlap the end of the kernel before it";
  let description = [{
    A kernel with `tile.then = @T` (split-key attention's key chunks,
    split-K with a sum kernel) is followed on its stream by T, which reads
    what it left. Launched one after the other, T's blocks start only once
    the first grid has ended and its memory is flushed. Here T begins by
    waiting for the grid before it to end and its memory to be visible
    (`griddepcontrol.wait`) and is marked `tile.waits_for_previous`; the
    launch metadata then says `waits`, and the runtime launches T with
    programmatic stream serialization, so that T is launched as the first
    grid's blocks exit, not after its end. The first kernel does not let T
    launch earlier (`griddepcontrol.launch_dependents`): measured so,
    split-K's sum kernel ran slower where the split kernel held most of the
    multiprocessors. sm_90 and later only (the pipeline adds the pass
    there).

    ```mlir
    // Before
    gpu.func @chunks(...) kernel attributes {tile.then = @combine} { ... }
    gpu.func @combine(...) kernel { ... }
    // After
    gpu.func @chunks(...) kernel attributes {tile.then = @combine} { ... }
    gpu.func @combine(...) kernel attributes {tile.waits_for_previous} {
      nvvm.griddepcontrol wait
      ...
    }
    ```
  }];
  let statistics = [
    Statistic<"numWaiting", "num-waiting", "Then kernels that wait on the kernel before them">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def TileApproxMathToNVVM : Pass<"tile-approx-math-to-nvvm"> {
  let summary = "Lower math ops that allow approximation to NVIDIA's fast instructions";
  let description = [{
    Runs before the GPU to NVVM conversion, which would call libdevice.
    `math.exp2` on f32 with the `afn` fast-math flag becomes
    `ex2.approx.ftz.f32` (the intrinsic `llvm.nvvm.ex2.approx.ftz.f32`),
    one MUFU.EX2 in SASS. libdevice's `__nv_exp2f` is the same
    approximation but without flushing subnormals, which ptxas pays for
    with a compare and two predicated multiplies around each MUFU.EX2.
    Flushing loses only results below 2^-126: an online softmax, whose
    exponents are at most 0 and whose sums start at 1, cannot tell.
    Vectors are unrolled; ops without `afn` are left to libdevice.

    ```mlir
    // Before
    %e = math.exp2 %x fastmath<afn> : f32
    // After
    %e = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"(%x) : (f32) -> f32
    ```
  }];
  let statistics = [
    Statistic<"numRewritten", "num-rewritten", "Math ops made approximate">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::vector::VectorDialect"];
}

def TileTensorMapParams : Pass<"tile-tensor-map-params",
                               "::mlir::gpu::GPUModuleOp"> {
  let summary = "Pass kernels' tensor-map descriptors by value in parameter space";
  let description = [{
    Runs after the GPU to NVVM conversion. The trailing parameters that a
    kernel's `tile.tensor_maps` lists are TMA descriptors: each becomes a
    128-byte parameter passed by value, 64-byte aligned and marked
    `nvvm.grid_constant`, so that TMA reads the descriptor where the driver
    put it (`.param .align 64 .b8 p[128]`, addressed through
    `cvta.param`) instead of a copy in local memory, which TMA cannot read.
    (The GPU to NVVM conversion drops such argument attributes, and the
    NVVM dialect only allows them on `llvm.func` kernels, hence a pass.)

    ```mlir
    // Before
    llvm.func @mm(..., %map: !llvm.ptr) attributes {nvvm.kernel, tile.tensor_maps = [array<i64: 0, 64, 128, 128>]}
    // After
    llvm.func @mm(..., %map: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}) attributes {...}
    ```
  }];
  let statistics = [
    Statistic<"numParams", "num-params", "Tensor-map parameters marked">,
  ];
}

def TileExternDynamicShared : Pass<"tile-extern-dynamic-shared",
                                   "::mlir::gpu::GPUModuleOp"> {
  let summary = "Place dynamic shared memory after a kernel's static shared memory";
  let description = [{
    Runs after the GPU to NVVM conversion, which gives the symbol behind
    `gpu.dynamic_shared_memory` internal linkage: PTX then declares it as
    one more static variable, which ptxas may place before the kernel's
    static workgroup buffers, so that offsets from it run into them (a
    persistent matmul's staged epilogue buffer was overwritten by the next
    tile's TMA copies). External linkage makes it `.extern .shared`, the
    form of CUDA's `extern __shared__`, which starts after all static
    shared memory; its alignment is raised to 1024 bytes, the alignment
    that 128-byte-swizzled TMA copies and warpgroup MMA panels need (at
    address 0, where it stood without static memory, it had it).

    ```mlir
    // Before
    llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    // After
    llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
    ```
  }];
  let statistics = [
    Statistic<"numSymbols", "num-symbols", "Dynamic shared memory symbols made external">,
  ];
}

def TileEmitLaunchMetadata : Pass<"tile-emit-launch-metadata",
                                  "::mlir::gpu::GPUModuleOp"> {
  let summary = "Record each kernel's launch metadata in the device module";
  let description = [{
    For every `gpu.func` kernel carrying `tile.grid`, adds a constant global
    `__tilec_launch_<kernel>` in global memory whose bytes are the launch
    metadata text that the runtime reads with `cuModuleGetGlobal` (see
    runtime/include/tilec/Runtime/LaunchMetadata.h): parameter kinds, block
    size, grid rule and dynamic shared memory. The global survives into the
    PTX and the cubin, which are thereby self-describing. With
    `max-shared-bytes`, a kernel that needs more dynamic shared memory than
    that (the target's per-block limit) is a located error here rather than
    a failed launch.

    ```mlir
    llvm.mlir.global external constant @__tilec_launch_k(
        "tilec-launch 1\0Akernel k\0A...") {addr_space = 1 : i32}
    ```
  }];
  let options = [
    Option<"maxSharedBytes", "max-shared-bytes", "int64_t", /*default=*/"0",
           "Dynamic shared memory a block may have (0: unchecked)">,
  ];
  let statistics = [
    Statistic<"numKernels", "num-kernels", "Number of kernels described">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TileSplitKernelModules : Pass<"tile-split-kernel-modules",
                                  "::mlir::ModuleOp"> {
  let summary = "Split each gpu.module into modules of whole kernels";
  let description = [{
    Replaces each `gpu.module` of several kernels by modules of whole
    kernels (one a kernel, or a group of kernels that reach one public
    symbol), each with the symbols its kernels reach: file-local symbols
    and declarations are copied into every module that uses them, and
    what no kernel reaches goes to the first. The pass manager runs the
    passes nested on `gpu.module` over the parts in parallel: the upstream
    `convert-gpu-to-nvvm`, which converts a module on one thread, was the
    longest serial step of a compile of many kernels. Each part carries
    `tilec.part_of`, the name of its module, which the first keeps;
    `tile-join-kernel-modules` puts them back together. The parts do not
    depend on the threads, so neither does the code.

    ```mlir
    gpu.module @m {
      gpu.func @a() kernel { gpu.return }
      gpu.func @b() kernel { gpu.return }
    }
    // becomes
    gpu.module @m attributes {tilec.part_of = "m"} {
      gpu.func @a() kernel { gpu.return }
    }
    gpu.module @m_0 attributes {tilec.part_of = "m"} {
      gpu.func @b() kernel { gpu.return }
    }
    ```
  }];
  let options = [
    Option<"maxParts", "max-parts", "unsigned", /*default=*/"0",
           "Most parts a module (0: one a kernel group)">,
  ];
  let statistics = [
    Statistic<"numParts", "num-parts", "Modules made">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def TileJoinKernelModules : Pass<"tile-join-kernel-modules",
                                 "::mlir::ModuleOp"> {
  let summary = "Put the parts of a split gpu.module back into one";
  let description = [{
    Moves the ops of the modules that `tile-split-kernel-modules` made from
    one `gpu.module` back into the first of them, in order, and erases the
    others. A symbol that several parts hold is kept once: a declaration
    gives way to a definition, and two definitions must be equivalent
    (copies of one file-local symbol lowered alike), else an error.

    ```mlir
    gpu.module @m attributes {tilec.part_of = "m"} {
      llvm.func @__nv_expf(f32) -> f32
      llvm.func @a() attributes {nvvm.kernel} { llvm.return }
    }
    gpu.module @m_0 attributes {tilec.part_of = "m"} {
      llvm.func @__nv_expf(f32) -> f32
      llvm.func @b() attributes {nvvm.kernel} { llvm.return }
    }
    // becomes
    gpu.module @m {
      llvm.func @__nv_expf(f32) -> f32
      llvm.func @a() attributes {nvvm.kernel} { llvm.return }
      llvm.func @b() attributes {nvvm.kernel} { llvm.return }
    }
    ```
  }];
}

def TileModuleToCubin : Pass<"tile-module-to-cubin", "::mlir::ModuleOp"> {
  let summary = "Compile each gpu.module to one cubin, its kernels' PTX made in parallel";
  let description = [{
    Replaces every `gpu.module` (lowered to the LLVM and NVVM dialects, with
    one `#nvvm.target`) by a `gpu.binary` holding one cubin, as
    `gpu-module-to-binary` does, but faster on modules of many kernels:

    1. the module is split into partitions of whole kernels, each with the
       symbols it reaches (file-local ones copied where needed; kernels
       that reach a common public symbol stay together; symbols no kernel
       reaches, such as the launch metadata, go to the first partition);
    2. each partition is turned into PTX by the NVVM target's own
       serialization (translation, libdevice, LLVM -O, NVPTX), partitions
       on the context's threads;
    3. one `ptxas` run assembles all the PTX files as one whole program
       (`--split-compile` spreads its optimisation over threads), so the
       cubin and its code are those of a single-module compile.

    ```mlir
    gpu.module @tilec_kernels [#nvvm.target<chip = "sm_90a">] {
      llvm.func @a(...) attributes {nvvm.kernel} {...}
      llvm.func @b(...) attributes {nvvm.kernel} {...}
    }
    // becomes
    gpu.binary @tilec_kernels [#gpu.object<#nvvm.target<chip = "sm_90a">, bin = "...">]
    ```
  }];
  let options = [
    Option<"toolkitPath", "toolkit", "std::string", /*default=*/"\"\"",
           "CUDA toolkit directory (bin/ptxas, nvvm/libdevice)">,
    Option<"maxPartitions", "max-partitions", "unsigned", /*default=*/"0",
           "Most partitions (0: one per thread of the context)">,
    Option<"ptxasThreads", "ptxas-threads", "unsigned", /*default=*/"0",
           "ptxas --split-compile threads (0: one per core)">,
    Option<"ptxasOptions", "ptxas-options", "std::string", /*default=*/"\"\"",
           "Further ptxas options, space-separated">,
    Option<"dumpDirectory", "dump-dir", "std::string", /*default=*/"\"\"",
           "Folder that keeps the PTX (ptx-N.ptx) and ptxas's verbose log">,
  ];
  let statistics = [
    Statistic<"numPartitions", "num-partitions", "PTX partitions made">,
    Statistic<"numKernels", "num-kernels", "Kernels compiled">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // TILEC_CONVERSION_PASSES_TD
