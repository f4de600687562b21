// The JIT's selection from the command line: every kernel, the main one,
// or a named variant.
// RUN: tilec %s -o %t.all.cubin
// RUN: tilec-cubin-info %t.all.cubin | FileCheck %s --check-prefix=ALL
// RUN: tilec %s --main-kernels-only -o %t.main.cubin
// RUN: tilec-cubin-info %t.main.cubin | FileCheck %s --check-prefix=MAIN
// RUN: tilec %s --kernels=mm__small_grid -o %t.one.cubin
// RUN: tilec-cubin-info %t.one.cubin | FileCheck %s --check-prefix=ONE
// RUN: not tilec %s --kernels=nope -o %t.none.cubin 2>&1 | FileCheck %s --check-prefix=NONE

// ALL-DAG: {{ }}mm{{ }}
// ALL-DAG: {{ }}mm__small_grid{{ }}
// ALL-DAG: {{ }}mm__split_k{{ }}{{.*}}, then mm__split_k_sum{{$}}
// ALL-DAG: {{ }}mm__split_k_sum{{ }}
// ALL-NOT: __thread_copies
// The main kernel's row still names its variants (the runtime compiles
// them on first need); no other kernel has a row.
// MAIN: cubin
// MAIN-NEXT: {{ }}mm{{ }}{{.*}}, mm__small_grid where dim1(arg2) <= 128, mm__small_grid where the grid is under 50% of the SMs{{$}}
// MAIN-NOT: {{ }}mm__
// ONE: cubin
// ONE-NEXT: {{ }}mm__small_grid{{ }}{{.*}}, mm__split_k where the grid's x * y is under 7% of the SMs{{$}}
// ONE-NOT: one.cubin
// NONE: error: no kernel named 'nope' to keep
tile.matmul @mm a(row) b(row)
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
