// REQUIRES: ptxas
// Kernels that spilled registers once, held to what ptxas reports for them
// now (its -v report of each kernel, whatever order it prints them in).
// RUN: tilec %s --emit=ptx -o %t.ptx
// RUN: ptxas -arch=sm_90a -O3 -v %t.ptx -o %t.cubin 2> %t.log
// RUN: FileCheck %s --check-prefix=ALIBI < %t.log
// RUN: FileCheck %s --check-prefix=WINDOW < %t.log
// RUN: FileCheck %s --check-prefix=SPLIT < %t.log

// A score modification on two warpgroups: in the 168 registers a thread of
// a block with a producer warp it spilled 284 bytes; the producer
// warpgroup hands its registers over instead.
// ALIBI: Function properties for alibi{{$}}
// ALIBI-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
tile.attention @alibi layout(bhsd) causal
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %c1 = arith.constant 1 : index
  %h1 = arith.addi %h, %c1 : index
  %hi = arith.index_cast %h1 : index to i32
  %hf = arith.sitofp %hi : i32 to f32
  %half = arith.constant -0.5 : f32
  %e = arith.mulf %hf, %half : f32
  %slope = math.exp2 %e : f32
  %dist = arith.subi %k, %q : index
  %di = arith.index_cast %dist : index to i32
  %df = arith.sitofp %di : i32 to f32
  %bias = arith.mulf %slope, %df : f32
  %r = arith.addf %s, %bias : f32
  tile.yield %r : f32
}

// A causal window with the log-sum-exp: 188 bytes, the same way.
// WINDOW: Function properties for window{{$}}
// WINDOW-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
tile.attention @window layout(bhsd) causal window 300 lse
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?xf32>) -> ()

// The accumulating split-K finisher: 232 bytes stored and 428 loaded a
// thread while it added C after the partial tiles; under 100 since its sum
// starts from C.
// SPLIT: Function properties for split_acc__small_grid{{$}}
// SPLIT-NEXT: {{[0-9]+}} bytes stack frame, {{[0-9]?[0-9]}} bytes spill stores, {{[0-9]?[0-9]}} bytes spill loads
tile.matmul @split_acc a(row) b(row) accumulate
    : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>) -> ()
