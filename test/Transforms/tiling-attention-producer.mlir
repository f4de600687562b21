// RUN: tilec-opt %s -split-input-file -tile-tiling='producer-warp=true' | FileCheck %s
// RUN: tilec-opt %s -split-input-file -tile-tiling | FileCheck %s --check-prefix=OFF

// With producer-warp (the pipeline's default), causal d128 on two
// warpgroups marks both key loops for a producer warp (tile-promote-shared
// gives them one) and takes turns (ping-pong), the producer a warpgroup
// handing its registers over; at most 1024 query rows launch instead a
// variant without turns (168 registers a thread do), which narrows on to
// the decode kernels.
// CHECK-LABEL: tile.kernel @d128_causal(
// CHECK-SAME: num_warps = 8
// CHECK-SAME: tile.narrow = {at_most = 1024 : i64, dim = 2 : i64, kernel = @d128_causal__short_rows, operand = 0 : i64}
// CHECK: tilegpu.turn open
// CHECK: } {tile.producer_registers = array<i32: 24, 240>, tile.producer_warp, tile.stages = 2 : i64}
// CHECK: tilegpu.turn open
// CHECK: } {tile.producer_registers = array<i32: 24, 240>, tile.producer_warp, tile.stages = 2 : i64}
// CHECK-LABEL: tile.kernel @d128_causal__short_rows(
// CHECK-SAME: num_warps = 8
// CHECK-SAME: tile.narrow = {at_most = 16 : i64, dim = 2 : i64, kernel = @d128_causal__decode, operand = 0 : i64}
// CHECK-NOT: tilegpu.turn
// CHECK: scf.for
// CHECK: } {tile.producer_warp, tile.stages = 2 : i64}
// CHECK: scf.for
// CHECK: } {tile.producer_warp, tile.stages = 2 : i64}
// CHECK-LABEL: tile.kernel @d128_causal__decode(
// OFF-LABEL: tile.kernel @d128_causal(
// OFF-NOT: tile.producer_warp
// OFF-NOT: @d128_causal__short_rows
tile.attention @d128_causal layout(bhsd) causal
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// Packed sequences: the short-rows rule reads max_seqlen_q (operand 7).
// CHECK-LABEL: tile.kernel @d128_causal_thd(
// CHECK-SAME: tile.narrow = {at_most = 1024 : i64, kernel = @d128_causal_thd__short_rows, operand = 7 : i64}
// CHECK: tilegpu.turn open
// CHECK-LABEL: tile.kernel @d128_causal_thd__short_rows(
// CHECK-NOT: tilegpu.turn
// CHECK: return
tile.attention @d128_causal_thd layout(thd) causal lse
    : (memref<?x?x128xbf16, strided<[?, 128, 1]>>,
       memref<?x?x128xbf16, strided<[?, 128, 1]>>,
       memref<?x?x128xbf16, strided<[?, 128, 1]>>,
       memref<?x?x128xbf16>, memref<?x?xf32>,
       memref<?xi32>, memref<?xi32>, i32) -> ()

// -----

// One description a chunk: each is a fuzzing seed (scripts/fuzz.sh), and
// a d128 description compiles into up to six kernels.

// Causal with a window takes no turns unless hinted (no variant); its
// producer hands the registers over all the same (the mask's work spills
// in 168 registers a thread).
// CHECK-LABEL: tile.kernel @d128_window(
// CHECK-NOT: tilegpu.turn
// CHECK: } {tile.producer_registers = array<i32: 24, 240>, tile.producer_warp, tile.stages = 2 : i64}
// CHECK-NOT: @d128_window__short_rows
// CHECK-LABEL: tile.kernel @d128_window__decode(
tile.attention @d128_window layout(bhsd) causal window 300
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// Causal with a score modification takes no turns unless hinted; its
// producer hands the registers over.
// CHECK-LABEL: tile.kernel @d128_causal_mod(
// CHECK-NOT: tilegpu.turn
// CHECK: } {tile.producer_registers = array<i32: 24, 240>, tile.producer_warp, tile.stages = 2 : i64}
// CHECK-NOT: @d128_causal_mod__short_rows
// CHECK-LABEL: tile.kernel @d128_causal_mod__decode(
tile.attention @d128_causal_mod layout(bhsd) causal
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %half = arith.constant 0.5 : f32
  %r = arith.mulf %s, %half : f32
  tile.yield %r : f32
}

// -----

// A hinted kernel takes turns at every length (no variant).
// CHECK-LABEL: tile.kernel @d128_causal_hinted(
// CHECK-SAME: tile.narrow = {at_most = 16 : i64, dim = 2 : i64, kernel = @d128_causal_hinted__decode, operand = 0 : i64}
// CHECK: tilegpu.turn open
// CHECK-NOT: @d128_causal_hinted__short_rows
// CHECK-LABEL: tile.kernel @d128_causal_hinted__decode(
tile.attention @d128_causal_hinted layout(bhsd) causal pingpong
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// A score modification without a mask takes turns at every length (a
// document mask ran slower without them at 512 tokens).
// CHECK-LABEL: tile.kernel @d128_mod(
// CHECK-SAME: tile.narrow = {at_most = 16 : i64, dim = 2 : i64, kernel = @d128_mod__decode, operand = 0 : i64}
// CHECK: tilegpu.turn open
// CHECK-NOT: @d128_mod__short_rows
// CHECK-LABEL: tile.kernel @d128_mod__decode(
tile.attention @d128_mod layout(bhsd)
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
{
^bb0(%s: f32, %b: index, %h: index, %q: index, %k: index):
  %half = arith.constant 0.5 : f32
  %r = arith.mulf %s, %half : f32
  tile.yield %r : f32
}

// -----

// d128 without a mask also takes turns (ping-pong), and the producer, a
// warpgroup then, hands its registers to the tile threads (24 and 240); at
// most 512 query rows launch instead a variant without turns.
// CHECK-LABEL: tile.kernel @d128(
// CHECK-SAME: tile.narrow = {at_most = 512 : i64, dim = 2 : i64, kernel = @d128__short_rows, operand = 0 : i64}
// CHECK: tilegpu.turn open
// CHECK: } {tile.producer_registers = array<i32: 24, 240>, tile.producer_warp, tile.stages = 2 : i64}
// CHECK-LABEL: tile.kernel @d128__short_rows(
// CHECK-NOT: tilegpu.turn
// CHECK: } {tile.producer_warp, tile.stages = 2 : i64}
// CHECK-LABEL: tile.kernel @d128__decode(
// OFF-LABEL: tile.kernel @d128(
// OFF-NOT: tilegpu.turn
// OFF-NOT: tile.producer_warp
tile.attention @d128 layout(bhsd)
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()

// -----

// d256 hands the registers over too, without turns.
// CHECK-LABEL: tile.kernel @d256(
// CHECK-NOT: tilegpu.turn
// CHECK: } {tile.producer_registers = array<i32: 24, 240>, tile.producer_warp, tile.stages = 2 : i64}
tile.attention @d256 layout(bhsd)
    : (memref<?x?x?x256xbf16>, memref<?x?x?x256xbf16>,
       memref<?x?x?x256xbf16>, memref<?x?x?x256xbf16>) -> ()

// -----

// d64 (one warpgroup) takes no producer unless the hint asks; without
// producer-warp, only the hint gives one.
// CHECK-LABEL: tile.kernel @d64(
// CHECK-NOT: tile.producer_warp
// CHECK-LABEL: tile.kernel @d64_hinted(
// CHECK: } {tile.producer_warp, tile.stages = 2 : i64}
// OFF-LABEL: tile.kernel @d64_hinted(
// OFF: } {tile.producer_warp, tile.stages = 2 : i64}
tile.attention @d64 layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()
tile.attention @d64_hinted layout(bhsd) producer_warp
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()

// -----

// Four warpgroups (hinted) with turns take what the 64K registers leave
// after the producer's 24 a thread: 120 each, not two warpgroups' 240.
// CHECK-LABEL: tile.kernel @d128_four_warpgroups(
// CHECK: } {tile.producer_registers = array<i32: 24, 120>, tile.producer_warp, tile.stages = 2 : i64}
tile.attention @d128_four_warpgroups layout(bhsd) block [256, 128] warps 16 pingpong
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
