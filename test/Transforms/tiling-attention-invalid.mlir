// RUN: tilec-opt %s -split-input-file -verify-diagnostics -tile-tiling

// Attention is described, not yet tiled: a located error, not a crash or a
// silent pass-through.
// expected-error @+1 {{'tile.attention' op is not tiled yet: write its block program by hand, as examples/attention_block.mlir does}}
tile.attention @fwd layout(bhsd) causal
    : (memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>,
       memref<?x?x?x128xbf16>, memref<?x?x?x128xbf16>) -> ()
