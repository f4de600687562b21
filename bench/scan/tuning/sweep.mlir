// Schedule variants of the single-pass f32 sum (tilec-scan-bench --sweep):
// s_BLOCK_wWARPS scans BLOCK elements a program on WARPS warps.
tile.scan @s_2048_w4 add inclusive along 0 block 2048 warps 4 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @s_4096_w4 add inclusive along 0 block 4096 warps 4 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @s_8192_w4 add inclusive along 0 block 8192 warps 4 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @s_2048_w8 add inclusive along 0 block 2048 warps 8 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @s_4096_w8 add inclusive along 0 block 4096 warps 8 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @s_8192_w8 add inclusive along 0 block 8192 warps 8 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @s_16384_w8 add inclusive along 0 block 16384 warps 8 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @s_8192_w16 add inclusive along 0 block 8192 warps 16 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @s_16384_w16 add inclusive along 0 block 16384 warps 16 : (memref<?xf32>, memref<?xf32>) -> ()
