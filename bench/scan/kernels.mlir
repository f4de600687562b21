// The scans bench/scan checks and times: f32 inclusive sums of a vector and
// of rows (timed against torch.cumsum), and, checked only, i32 sums (exact,
// repeated: a changing result is a race), an exclusive max and bf16 sums.
tile.scan @scan_f32 add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @rows_f32 add inclusive along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.scan @scan_i32 add inclusive along 0 : (memref<?xi32>, memref<?xi32>) -> ()
tile.scan @rows_i32 add exclusive along 1 : (memref<?x?xi32>, memref<?x?xi32>) -> ()
tile.scan @rows_max_f32 max exclusive along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
tile.scan @rows_bf16 add inclusive along 1 : (memref<?x?xbf16>, memref<?x?xbf16>) -> ()
tile.scan @scan_rev_i32 add inclusive reverse along 0 : (memref<?xi32>, memref<?xi32>) -> ()
tile.scan @rows_rev_f32 add exclusive reverse along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
