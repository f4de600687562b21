// RUN: tilec %s --emit=ptx -o - | FileCheck %s
// RUN: tilec %s --arch=sm_80 --emit=ptx -o - | FileCheck %s --check-prefix=SM80

// The then kernel of 16-bit split-K with a sum kernel waits for the split
// kernel first thing (launch metadata `waits`); the split kernel does not
// let it launch early. sm_80 has no griddepcontrol: neither appears.
// CHECK-LABEL: .entry mm__split_k(
// CHECK-NOT: griddepcontrol
// CHECK-LABEL: .entry mm__split_k_sum(
// CHECK-NOT: ld.global
// CHECK: griddepcontrol.wait;
// CHECK: ld.global
// SM80-NOT: griddepcontrol
tile.matmul @mm a(row) b(row)
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
