// The linear recurrence h[t] = a[t] * h[t-1] + b[t] (h[-1] = 0) over f32
// vectors of any length, as one scan over (a, b) pairs: the combiner region
// composes the affine maps h -> a*h + b, the earlier pair first (associative,
// not commutative). Y1 gets the running product of a, Y2 gets h. tile-tiling
// makes it a single pass with look-back, like examples/scan.mlir.
//   tilec recurrence.mlir -o recurrence.cubin
tile.scan @recurrence inclusive along 0
    : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
{
^bb0(%a0: f32, %b0: f32, %a1: f32, %b1: f32):
  %a = arith.mulf %a1, %a0 : f32
  %ab = arith.mulf %a1, %b0 : f32
  %b = arith.addf %ab, %b1 : f32
  tile.yield %a, %b : f32, f32
}
