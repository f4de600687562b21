// Inclusive prefix sums of an f32 vector of any length: the description a
// user writes; tile-tiling turns it into a single pass over one program
// per 3072 elements (kept in workgroup memory between its two reads),
// chained by a decoupled look-back in a scratch buffer that the runtime
// provides.
//   tilec scan.mlir -o scan.cubin
tile.scan @scan add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
