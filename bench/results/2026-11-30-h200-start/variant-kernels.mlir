// The scans the piece sweep times (a subset of bench/scan/kernels.mlir, so
// that one call can carry a cubin per compiler variant).
tile.scan @scan_f32 add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @scan_add_inc_rev_f32 add inclusive reverse along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @scan_add_inc_bf16 add inclusive along 0 : (memref<?xbf16>, memref<?xbf16>) -> ()
tile.scan @rows_f32 add inclusive along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
