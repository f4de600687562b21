// The single-pass f32 sum at three block sizes, for the look-back back-off
// sweep (backoff.sh): each cubin of it is built with a different sleep
// between the look-back's reads of unpublished statuses.
tile.scan @base add inclusive along 0 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @s_2048_w4 add inclusive along 0 block 2048 warps 4 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @s_8192_w4 add inclusive along 0 block 8192 warps 4 : (memref<?xf32>, memref<?xf32>) -> ()
tile.scan @s_8192_w8 add inclusive along 0 block 8192 warps 8 : (memref<?xf32>, memref<?xf32>) -> ()
