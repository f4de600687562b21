// RUN: tilec %s --emit=ptx -o - | FileCheck %s --check-prefix=DEFAULT
// RUN: tilec %s --arch=sm_80 --emit=ptx --aligned-copy-kernels -o - | FileCheck %s
// RUN: tilec %s --emit=ptx --aligned-copy-kernels -o - | FileCheck %s --check-prefix=SM90A

// By default a kernel copied by the threads keeps its element path itself.
// DEFAULT-NOT: __element_copies

// With --aligned-copy-kernels, a kernel staged by the threads (on sm_80,
// every matmul kernel) copies with cp.async of 16, 8 and 4 bytes (the 8-
// and 4-byte ones through the L1, .ca) and falls back to an element-copy
// twin.
// CHECK-LABEL: .entry mm(
// CHECK-DAG: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16
// CHECK-DAG: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 8
// CHECK-DAG: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4
// CHECK-LABEL: .entry mm__element_copies(
// CHECK-NOT: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 8
// CHECK: ld.global

// On sm_90a the matmul kernels stage by TMA, and the runtime copies what
// TMA rejects: no kernel copies by the threads, so there is no twin of
// either kind.
// SM90A-NOT: __thread_copies
// SM90A-NOT: __element_copies
tile.matmul @mm a(row) b(row)
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
