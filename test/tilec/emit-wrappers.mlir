// tilec-cubin-info --emit-wrappers (what tilec_add_kernels runs): typed
// functions for the entry kernels of cubins of several archs, and the
// errors when the cubins disagree or a kernel cannot be wrapped.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: tilec %s --arch=sm_80 -o %t/k.sm_80.cubin
// RUN: tilec %s --arch=sm_90a -o %t/k.sm_90a.cubin
// RUN: tilec-cubin-info --emit-wrappers --name my_kernels --header %t/k.h \
// RUN:   --source %t/k.cpp --header-include gen/k.h --mlir %s \
// RUN:   sm_80=%t/k.sm_80.cubin sm_90a=%t/k.sm_90a.cubin
// RUN: FileCheck %s --check-prefix=HEADER < %t/k.h
// RUN: FileCheck %s --check-prefix=SOURCE < %t/k.cpp
//
// Without the source, parameters are p0, p1, ...
// RUN: tilec-cubin-info --emit-wrappers --name k --header %t/p.h \
// RUN:   --source %t/p.cpp sm_80=%t/k.sm_80.cubin
// RUN: FileCheck %s --check-prefix=UNNAMED < %t/p.h
//
// A parameter that differs between archs; a kernel only one arch has.
// RUN: sed 's/f32/f16/g' %s | tilec - --arch=sm_90a -o %t/f16.cubin
// RUN: not tilec-cubin-info --emit-wrappers --name k --header %t/bad.h \
// RUN:   --source %t/bad.cpp sm_80=%t/k.sm_80.cubin sm_90a=%t/f16.cubin \
// RUN:   2>&1 | FileCheck %s --check-prefix=PARAMS
// RUN: sed 's/@copy/@copy2/' %s | tilec - --arch=sm_90a -o %t/renamed.cubin
// RUN: not tilec-cubin-info --emit-wrappers --name k --header %t/bad.h \
// RUN:   --source %t/bad.cpp sm_80=%t/k.sm_80.cubin \
// RUN:   sm_90a=%t/renamed.cubin 2>&1 | FileCheck %s --check-prefix=KERNELS
// RUN: not test -e %t/bad.h
// RUN: not tilec-cubin-info --emit-wrappers --name k --header %t/bad.h \
// RUN:   --source %t/bad.cpp sm_8=%t/k.sm_80.cubin 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ARCH
// RUN: not tilec-cubin-info --emit-wrappers --name 2k --header %t/bad.h \
// RUN:   --source %t/bad.cpp sm_80=%t/k.sm_80.cubin 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NAME
// RUN: not tilec-cubin-info --emit-wrappers --name k --header %t/bad.h \
// RUN:   --source %t/bad.cpp sm_80=%t/k.sm_80.cubin sm_80=%t/k.sm_80.cubin \
// RUN:   2>&1 | FileCheck %s --check-prefix=TWICE
//
// An i8 scalar, which the runtime cannot pass.
// RUN: sed 's/i32/i8/g' %s | tilec - --arch=sm_80 -o %t/i8.cubin
// RUN: not tilec-cubin-info --emit-wrappers --name k --header %t/bad.h \
// RUN:   --source %t/bad.cpp sm_80=%t/i8.cubin 2>&1 \
// RUN:   | FileCheck %s --check-prefix=I8

// HEADER: #ifndef TILEC_KERNELS_MY_KERNELS_H
// HEADER: #include "tilec/Runtime/EmbeddedKernels.h"
// HEADER: namespace my_kernels {
// HEADER: ///   x: buffer:f32:2 (f32 elements, rank 2)
// HEADER: ///   grid dim 0 of x x 1 x 1, block 128x1x1
// HEADER-NEXT: void copy(const ::tilec::rt::Stream &stream,
// HEADER-NEXT:           const ::tilec::rt::TypedView<float> &x,
// HEADER-NEXT:           const ::tilec::rt::TypedView<float> &y);
// HEADER: ///   grid ceil(dim 0 of y / 256) x 1 x 1, block 128x1x1
// HEADER-NEXT: void fill(const ::tilec::rt::Stream &stream, std::int32_t v,
// HEADER-NEXT:           const ::tilec::rt::TypedView<std::int32_t> &y);
// HEADER: const ::tilec::rt::EmbeddedKernels &tilec_embedded();
// HEADER: } // namespace my_kernels

// SOURCE: #include "gen/k.h"
// SOURCE: // sm_80: k.sm_80.cubin, {{[0-9]+}} bytes.
// SOURCE-NEXT: alignas(64) const unsigned char tilec_cubin_0[] = {
// SOURCE-NEXT: 127,69,76,70,
// SOURCE: // sm_90a: k.sm_90a.cubin
// SOURCE: {"sm_80", tilec_cubin_0, sizeof tilec_cubin_0},
// SOURCE-NEXT: {"sm_90a", tilec_cubin_1, sizeof tilec_cubin_1},
// SOURCE: "copy",
// SOURCE-NEXT: "fill",
// SOURCE: new ::tilec::rt::EmbeddedKernels("emit-wrappers.mlir", tilec_cubins, 2,
// SOURCE: tilec_embedded().kernel(stream, 1).launch(
// SOURCE-NEXT: stream, v, y);

// UNNAMED: void copy(const ::tilec::rt::Stream &stream,
// UNNAMED-NEXT: const ::tilec::rt::TypedView<float> &p0,

// KERNELS: tilec-cubin-info: error: the cubins of k differ in their entry kernels: sm_80 ({{.*}}k.sm_80.cubin) has copy, fill; sm_90a ({{.*}}renamed.cubin) has copy2, fill
// PARAMS: tilec-cubin-info: error: the cubins of k differ in the parameters of kernel 'copy': (buffer:f32:2, buffer:f32:2) for sm_80 ({{.*}}k.sm_80.cubin), (buffer:f16:2, buffer:f16:2) for sm_90a ({{.*}}f16.cubin)
// ARCH: tilec-cubin-info: error: 'sm_8' is not an architecture (sm_80, sm_90a, ...)
// NAME: tilec-cubin-info: error: --name '2k' is not a C++ identifier (or is a keyword)
// TWICE: tilec-cubin-info: error: two cubins for sm_80
// I8: tilec-cubin-info: error: kernel 'fill' of k: parameter 0 is scalar:i8, which the runtime cannot pass

tile.kernel @copy(%x: memref<?x?xf32>, %y: memref<?x?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>],
                num_warps = 4} {
  %row = tile.program_id x : index
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%row, %c0] : memref<?x?xf32> -> tensor<1x128xf32>
  tile.store %t, %y[%row, %c0] : tensor<1x128xf32>, memref<?x?xf32>
  tile.return
}

tile.kernel @fill(%v: i32, %y: memref<?xi32>)
    attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 256>],
                num_warps = 4} {
  %pid = tile.program_id x : index
  %c256 = arith.constant 256 : index
  %offset = arith.muli %pid, %c256 : index
  %t = tile.splat %v : i32 -> tensor<256xi32>
  tile.store %t, %y[%offset] : tensor<256xi32>, memref<?xi32>
  tile.return
}
