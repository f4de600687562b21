// The scans bench/scan times: f32 inclusive sums of a vector and of rows.
tile.scan @scan_f32 add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @rows_f32 add inclusive along 1 : (memref<?x?xf32>, memref<?x?xf32>) -> ()
