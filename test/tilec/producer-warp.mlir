// RUN: tilec %s --emit=ptx --producer-warp -o - | FileCheck %s
// RUN: tilec %s --emit=ptx -o - | FileCheck %s
// RUN: tilec %s --emit=ptx --producer-warp=false -o - | FileCheck %s --check-prefix=OFF
// RUN: tilec %s --arch=sm_90 --emit=ptx --producer-warp -o - | FileCheck %s --check-prefix=SM90
// RUN: tilec %s --producer-warp -o %t.cubin && tilec-cubin-info %t.cubin | FileCheck %s --check-prefix=INFO

// With --producer-warp (the default), the TMA kernels (main and small-grid) take a warp
// more than their 256 tile threads; the producer waits on the slots'
// "empty" barriers, the tile threads arrive on them. The main kernel runs in clusters of two blocks,
// which meet after initializing their barriers and before leaving, split
// B's copy between them (multicast to both) and release each slot in both
// (mapa); the small-grid kernel keeps its own slots.
// CHECK-LABEL: .entry mm(
// CHECK: .maxntid 288, 1, 1
// CHECK: barrier.cluster.arrive;
// CHECK-NEXT: barrier.cluster.wait;
// CHECK-DAG: mbarrier.try_wait.parity
// CHECK-DAG: %cluster_ctarank
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [
// CHECK-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster
// CHECK-DAG: mapa.shared::cluster.u64 {{.*}}, 0;
// CHECK-DAG: mapa.shared::cluster.u64 {{.*}}, 1;
// CHECK-DAG: mbarrier.arrive.shared::cluster.b64
// CHECK: barrier.cluster.arrive;
// CHECK-NEXT: barrier.cluster.wait;
// CHECK-LABEL: .entry mm__small_grid(
// CHECK: .maxntid 288, 1, 1
// CHECK-NOT: multicast
// CHECK: mbarrier.arrive.shared.b64
// CHECK-NOT: barrier.cluster
// No kernel has a per-thread-copy twin: the runtime copies any operand
// TMA rejects, A, B and C alike.
// CHECK-NOT: __thread_copies

// OFF-NOT: .maxntid 288
// OFF-NOT: barrier.cluster

// The main kernel walks the tiles with at
// most one block a multiprocessor, in clusters of two; the small-grid
// kernels do not (they split K instead).
// The TMA kernels name the operands the runtime copies where their rows
// are misaligned (launch metadata `repitch`): A and B from one tile on,
// and C (written by their bulk stores) always, copied back after the
// launch. The main
// kernel names the wide few-rows kernel (64x256 tiles) for C of at most 64
// rows, the small-grid kernel as its variant for C of at most 128 columns
// and for grids under half the multiprocessors; the wide few-rows kernel
// names the vector-matrix kernel for C of at most two rows, the GEMV
// kernel for at most two columns, and the few-rows kernel (64x128 tiles,
// K split) for grids under half the multiprocessors, which names the thin
// few-rows kernel (64x64 tiles on one warpgroup, K split) for grids under
// half, and that one the split kernel; the small-grid
// kernel names the GEMV kernel (plain loads, no producer) for C of at most
// two columns, which hands grids under half the multiprocessors back to it.
// The 64x128 and 64x256 few-rows kernels' C store is no bulk store: C is
// not copied; the thin kernel's 64x64 tile is stored in bulk through
// workgroup memory, so it copies C.
// INFO-DAG: mm  {{.*}} 288 threads / ceil(dim1(arg2)/256) ceil(dim0(arg2)/128) tiles, persistent: at most 1 block(s) an SM, clusters of 2, copies misaligned arg0 (x >= 1) arg1 (y >= 1) arg2 (written: copied back), mm__few_rows_wide where dim0(arg2) <= 64, mm__small_grid where dim1(arg2) <= 128, mm__small_grid where the grid is under 50% of the SMs{{$}}
// INFO-DAG: mm__few_rows {{.*}} 288 threads / ceil(dim1(arg2)/128) ceil(dim0(arg2)/64) ceil(dim1(arg0)/512), z split: at most 1 block(s) an SM in all, unsplit under 4 parts, copies misaligned arg0 (x >= 1) arg1 (y >= 1), mm__few_rows_thin where the grid's x * y is under 50% of the SMs, then mm__few_rows_sum{{$}}
// INFO-DAG: mm__few_rows_thin {{.*}} 160 threads / ceil(dim1(arg2)/64) ceil(dim0(arg2)/64) ceil(dim1(arg0)/512), z split: at most 1 block(s) an SM in all, unsplit under 4 parts, copies misaligned arg0 (x >= 1) arg1 (y >= 1) arg2 (written: copied back), mm__split_k where the grid's x * y is under 7% of the SMs, then mm__few_rows_thin_sum{{$}}
// INFO-DAG: mm__few_rows_thin_sum {{.*}} 128 threads / ceil(dim1(arg2)/64) ceil(dim0(arg2)/8), waits for the grid before it{{$}}
// INFO-DAG: mm__few_rows_wide {{.*}} 288 threads / ceil(dim1(arg2)/256) ceil(dim0(arg2)/64), copies misaligned arg0 (x >= 1) arg1 (y >= 1), mm__vecmat where dim0(arg2) <= 2, mm__gemv where dim1(arg2) <= 2, mm__few_rows where the grid is under 50% of the SMs{{$}}
// INFO-DAG: mm__few_rows_sum {{.*}} 128 threads / ceil(dim1(arg2)/128) ceil(dim0(arg2)/8), waits for the grid before it{{$}}
// INFO-DAG: mm__small_grid {{.*}} 288 threads / ceil(dim1(arg2)/128) ceil(dim0(arg2)/128) ceil(dim1(arg0)/512), z split: at most 1 block(s) an SM in all, unsplit under 4 parts, copies misaligned arg0 (x >= 1) arg1 (y >= 1) arg2 (written: copied back), mm__gemv where dim1(arg2) <= 2, mm__split_k where the grid's x * y is under 7% of the SMs{{$}}
// INFO-DAG: mm__split_k {{.*}} 288 threads / ceil(dim1(arg2)/128) ceil(dim0(arg2)/128) ceil(dim1(arg0)/512), z split: at most 1 block(s) an SM in all, unsplit under 4 parts, copies misaligned arg0 (x >= 1) arg1 (y >= 1) arg2 (written: copied back), then mm__split_k_sum{{$}}
// INFO-DAG: mm__split_k_sum {{.*}} 128 threads / ceil(dim1(arg2)/128) ceil(dim0(arg2)/1), waits for the grid before it{{$}}
// INFO-DAG: mm__gemv {{.*}} 128 threads / ceil(dim1(arg2)/1) ceil(dim0(arg2)/8), mm__small_grid where the grid is under 50% of the SMs{{$}}
// INFO-DAG: mm__vecmat {{.*}} 128 threads / ceil(dim0(arg2)/1) ceil(dim1(arg2)/8), mm__small_grid where the grid is under 50% of the SMs{{$}}
// INFO-NOT: __thread_copies

// Without TMA (sm_90) there is no bulk copy to hand to a producer.
// SM90-NOT: .maxntid 288
tile.matmul @mm a(row) b(col)
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
