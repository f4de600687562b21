// Inclusive prefix sums of an f32 vector of any length: the description a
// user writes; tile-tiling turns it into a program that scans it 1024
// elements at a time with a running carry.
//   tilec scan.mlir -o scan.cubin
// For now one program scans the whole vector (the single-pass decoupled
// look-back over many programs is not built yet), so long vectors are slow.
tile.scan @scan add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
