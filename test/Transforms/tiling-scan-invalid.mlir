// RUN: tilec-opt %s -split-input-file -tile-tiling -verify-diagnostics

// expected-error @+1 {{'tile.scan' op with a combiner region cannot be tiled yet; use add, mul, max or min}}
tile.scan @region inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> () {
^bb0(%x: f32, %y: f32):
  tile.yield %y : f32
}


// -----

// expected-error @+1 {{'tile.scan' op scans along dimension 0 of a 2-D buffer (columns) cannot be tiled yet}}
tile.scan @columns add inclusive along 0 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
