// RUN: tilec-opt %s -split-input-file -tile-tiling -verify-diagnostics

// expected-error @+1 {{'tile.scan' op cannot name its kernel 'taken__small_grid': the symbol exists}}
tile.scan @taken add inclusive along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.kernel @taken__small_grid(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.scan' op cannot name its kernel 'down__small_grid': the symbol exists}}
tile.scan @down add inclusive along 0 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.kernel @down__small_grid(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  tile.return
}
