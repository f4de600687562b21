// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{groups must hold at least one element}}
func.func private @zero_group(tensor<8x8xf32, #tile.fma<threads_m = 2, threads_n = 2, group_m = 0, group_n = 4>>)

// -----

// expected-error @+1 {{the thread grid must not be empty}}
func.func private @empty_grid(tensor<8x8xf32, #tile.fma<threads_m = 0, threads_n = 2, group_m = 1, group_n = 4>>)
