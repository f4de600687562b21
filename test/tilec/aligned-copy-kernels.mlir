// RUN: tilec %s --emit=ptx -o - | FileCheck %s --check-prefix=DEFAULT
// RUN: tilec %s --emit=ptx --aligned-copy-kernels -o - | FileCheck %s
// RUN: tilec %s --arch=sm_80 --emit=ptx --aligned-copy-kernels -o - | FileCheck %s --check-prefix=SM80

// By default a kernel copied by the threads keeps its element path itself.
// DEFAULT-NOT: __element_copies

// With --aligned-copy-kernels, the per-thread-copy twin of the TMA kernel
// copies with cp.async of 16, 8 and 4 bytes (the 8- and 4-byte ones through
// the L1, .ca) and falls back to an element-copy twin.
// CHECK-LABEL: .entry mm__thread_copies(
// CHECK-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// CHECK-DAG: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 8
// CHECK-DAG: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4
// CHECK-LABEL: .entry mm__thread_copies__element_copies(
// CHECK-NOT: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 8
// CHECK: ld.global
// CHECK-LABEL: .entry mm__small_grid(

// On sm_80 (no TMA) the kernel itself has the twin.
// SM80-LABEL: .entry mm(
// SM80-LABEL: .entry mm__element_copies(
tile.matmul @mm a(row) b(row)
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
