// RUN: tilec-opt %s -split-input-file -verify-diagnostics

gpu.module @m {
  gpu.func @not_a_kernel() {
    // expected-error @+1 {{'tilegpu.warp_roles' op must be inside a gpu.func kernel}}
    tilegpu.warp_roles producer {
    } consumers {
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @nested() kernel {
    tilegpu.warp_roles producer {
    } consumers {
      // expected-error @+1 {{'tilegpu.warp_roles' op cannot be nested in another tilegpu.warp_roles}}
      tilegpu.warp_roles producer {
      } consumers {
      }
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @producer_tiles() kernel {
    // expected-error @+1 {{'tilegpu.warp_roles' op producer region must not compute tiles}}
    tilegpu.warp_roles producer {
      %zero = arith.constant dense<0.0> : tensor<64x64xf32>
    } consumers {
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @global_barriers(%bars: memref<4xi64>, %i: index) kernel {
    // expected-error @+1 {{'tilegpu.barrier_arrive' op barriers must be in workgroup memory}}
    tilegpu.barrier_arrive %bars[%i] : memref<4xi64>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @registers() kernel {
    // expected-error @+1 {{'tilegpu.warp_roles' op registers must be [producer, consumers] counts, multiples of 8 from 24 to 256}}
    tilegpu.warp_roles producer {
    } consumers {
    } {registers = array<i32: 20, 240>}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @one_group() kernel {
    // expected-error @+3 {{'tilegpu.warp_roles' op attribute 'groups' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 2}}
    tilegpu.warp_roles producer {
    } consumers {
    } {groups = 1 : i64}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @group_id_in_producer() kernel {
    tilegpu.warp_roles producer {
      // expected-error @+1 {{'tilegpu.group_id' op must be inside the consumers of a tilegpu.warp_roles}}
      %g = tilegpu.group_id
    } consumers {
    } {groups = 2 : i64}
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @group_id_outside() kernel {
    // expected-error @+1 {{'tilegpu.group_id' op must be inside the consumers of a tilegpu.warp_roles}}
    %g = tilegpu.group_id
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @turns_to_take(%n: index) kernel {
    // expected-error @+1 {{'tilegpu.turn' op takes a count of turns only to close}}
    tilegpu.turn take after %n
    gpu.return
  }
}
