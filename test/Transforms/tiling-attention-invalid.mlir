// RUN: tilec-opt %s -split-input-file -tile-tiling='producer-warp=true' -verify-diagnostics

// expected-error @+1 {{'tile.attention' op cannot name its kernel 'taken__short_rows': the symbol exists}}
tile.attention @taken layout(bhsd)
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
tile.kernel @taken__short_rows(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  tile.return
}

// -----

// expected-error @+1 {{'tile.attention' op cannot name its kernel 'used__decode': the symbol exists}}
tile.attention @used layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()
tile.kernel @used__decode(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  tile.return
}

// -----

// d64 takes no turns, so it has no short-rows variant and leaves the name
// free.
tile.attention @free layout(bhsd)
    : (memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>,
       memref<?x?x?x64xbf16>, memref<?x?x?x64xbf16>) -> ()
tile.kernel @free__short_rows(%x: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 0, dim = 0, per_program = 1>]} {
  tile.return
}
