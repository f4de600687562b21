#!/usr/bin/env python3
"""Writes bench/roofs/roofs.ptx: the kernels that measure the roofs the
matmul bench compares against (issue 17, item 8), hand-written PTX (the
bench's fixtures, not compiler output), each with tilec launch metadata so
that the tilec runtime loads and launches it:

  roof_wgmma_bf16(threads: i64, iterations: i64, out: buffer f32 rank 1)
      256 threads a block (two warpgroups), threads / 256 blocks; each
      warpgroup issues `iterations` groups of 4 wgmma m64n256k16 bf16 (f32
      accumulators) on 40 KiB of shared memory filled with bf16 values in
      [0.5, 1) (data that toggles bits, as real operands do: zeros would
      draw less power and overstate the clocks), keeping one group in
      flight, as a matmul's K loop does; 2 * 64 * 256 * 64 FLOP a group.
  roof_fma_f32(threads: i64, iterations: i64, out: buffer f32 rank 1)
      each thread runs 8 independent chains of 8 fma.rn.f32 an iteration:
      128 FLOP a thread an iteration.
  roof_copy(vectors: i64, src: buffer f32 rank 1, dst: buffer f32 rank 1)
      thread i copies 16 bytes (vector i) of src to dst: reads and writes
      32 bytes a thread.

Usage: python3 bench/roofs/make-roofs-ptx.py > bench/roofs/roofs.ptx
"""

ACC = 128  # f32 accumulator registers of a m64n256 wgmma a thread


def metadata(kernel, params, grid):
    text = (f"tilec-launch 1\nkernel {kernel}\nparams {params}\n"
            f"block 256 1 1\ngrid {grid} - -\nshared 0\n")
    data = list(text.encode()) + [0]
    rows = [", ".join(str(b) for b in data[i:i + 16])
            for i in range(0, len(data), 16)]
    comment = "".join(f"//   {line}\n" for line in text.splitlines())
    return (f"// Launch metadata of {kernel}:\n{comment}"
            f".visible .global .align 1 .b8 __tilec_launch_{kernel}[{len(data)}] = {{\n    "
            + ",\n    ".join(rows) + "};\n")


def buffer_params(name):
    return [f".param .u64 {name}{i}" for i in range(5)]


def entry(kernel, params):
    return f".visible .entry {kernel}(\n    " + ",\n    ".join(params) + ")\n"


def wgmma_kernel():
    acc = ", ".join(f"%f{i}" for i in range(ACC))
    lines = [entry("roof_wgmma_bf16", [".param .u64 wg_threads",
                                       ".param .u64 wg_iterations"]
                   + buffer_params("wg_out")), "{",
             "    .reg .pred %p<4>;", f"    .reg .f32 %f<{ACC + 2}>;",
             "    .reg .b32 %r<16>;", "    .reg .b64 %rd<16>;", ""]
    lines += [f"    mov.f32 %f{i}, 0f00000000;" for i in range(ACC)]
    lines += [
        "",
        "    // Fill the operands: word i of thread t (40 a thread) is two",
        "    // bf16 in [0.5, 1), from a multiplicative hash of t and i.",
        "    mov.u32 %r1, %tid.x;",
        "    mov.u32 %r2, roof_smem;",
        "    mul.lo.u32 %r3, %r1, 160;",
        "    add.u32 %r3, %r2, %r3;",
        "    mov.u32 %r4, 0;",
        "FILL:",
        "    mad.lo.u32 %r5, %r1, 40, %r4;",
        "    mul.lo.u32 %r5, %r5, -1640531535;",
        "    and.b32 %r5, %r5, 8323199;        // 0x007F007F: mantissas",
        "    or.b32 %r5, %r5, 1056980736;      // 0x3F003F00: exponent of 0.5",
        "    shl.b32 %r6, %r4, 2;",
        "    add.u32 %r6, %r3, %r6;",
        "    st.shared.u32 [%r6], %r5;",
        "    add.u32 %r4, %r4, 1;",
        "    setp.lt.u32 %p1, %r4, 40;",
        "    @%p1 bra FILL;",
        "    bar.sync 0;",
        "    // The writes, by the generic proxy, before wgmma's async reads.",
        "    fence.proxy.async.shared::cta;",
        "",
        "    // Descriptors: A (64 x 64 bf16, 8 KiB) at 0, B (256 x 64, 32 KiB)",
        "    // at 8 KiB, K-major in 128-byte swizzled rows (SBO 1024 bytes,",
        "    // LBO 16); each k16 step is 32 bytes (+2 in the address field).",
        "    cvt.u64.u32 %rd1, %r2;",
        "    and.b64 %rd1, %rd1, 262143;",
        "    shr.u64 %rd1, %rd1, 4;",
        "    or.b64 %rd2, %rd1, 4611686293305360384;   // A",
        "    add.s64 %rd3, %rd2, 512;                  // B: 8192 >> 4",
        "    ld.param.u64 %rd4, [wg_iterations];",
        "    mov.u64 %rd5, 0;",
        "    setp.eq.s64 %p2, %rd4, 0;",
        "    @%p2 bra WG_DONE;",
        "WG_LOOP:",
        "    wgmma.fence.sync.aligned;",
    ]
    for k in range(4):
        lines += [f"    add.s64 %rd6, %rd2, {2 * k};",
                  f"    add.s64 %rd7, %rd3, {2 * k};",
                  "    wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16",
                  f"        {{{acc}}},",
                  "        %rd6, %rd7, 1, 1, 1, 0, 0;"]
    lines += [
        "    wgmma.commit_group.sync.aligned;",
        "    wgmma.wait_group.sync.aligned 1;",
        "    add.s64 %rd5, %rd5, 1;",
        "    setp.lt.s64 %p3, %rd5, %rd4;",
        "    @%p3 bra WG_LOOP;",
        "WG_DONE:",
        "    wgmma.wait_group.sync.aligned 0;",
        "    // out[global thread] = the first accumulator and the last, so",
        "    // that nothing is dead.",
        f"    add.f32 %f{ACC}, %f0, %f{ACC - 1};",
        "    mov.u32 %r7, %ctaid.x;",
        "    mad.lo.u32 %r8, %r7, 256, %r1;",
        "    cvt.u64.u32 %rd8, %r8;",
        "    ld.param.u64 %rd9, [wg_out3];",
        "    setp.ge.u64 %p1, %rd8, %rd9;",
        "    @%p1 bra WG_END;",
        "    ld.param.u64 %rd10, [wg_out1];",
        "    cvta.to.global.u64 %rd10, %rd10;",
        "    shl.b64 %rd11, %rd8, 2;",
        "    add.s64 %rd10, %rd10, %rd11;",
        f"    st.global.f32 [%rd10], %f{ACC};",
        "WG_END:",
        "    ret;",
        "}",
    ]
    return "\n".join(lines) + "\n"


def fma_kernel():
    lines = [entry("roof_fma_f32", [".param .u64 fma_threads",
                                    ".param .u64 fma_iterations"]
                   + buffer_params("fma_out")), "{",
             "    .reg .pred %p<3>;", "    .reg .f32 %f<12>;",
             "    .reg .b32 %r<6>;", "    .reg .b64 %rd<12>;", "",
             "    mov.u32 %r1, %tid.x;", "    mov.u32 %r2, %ctaid.x;",
             "    mad.lo.u32 %r3, %r2, 256, %r1;",
             "    cvt.rn.f32.u32 %f9, %r3;",
             "    mul.f32 %f9, %f9, 0f33800000;     // a few ulps of 1",
             "    add.f32 %f10, %f9, 0f3F7FFFFE;    // multiplier just below 1",
             "    mov.f32 %f11, 0f3C23D70A;          // addend 0.01"]
    lines += [f"    add.f32 %f{i}, %f9, 0f3F800000;" for i in range(8)]
    lines += ["    ld.param.u64 %rd1, [fma_iterations];", "    mov.u64 %rd2, 0;",
              "    setp.eq.s64 %p1, %rd1, 0;", "    @%p1 bra FMA_DONE;", "FMA_LOOP:"]
    for _ in range(8):
        lines += [f"    fma.rn.f32 %f{i}, %f{i}, %f10, %f11;" for i in range(8)]
    lines += ["    add.s64 %rd2, %rd2, 1;", "    setp.lt.s64 %p2, %rd2, %rd1;",
              "    @%p2 bra FMA_LOOP;", "FMA_DONE:"]
    lines += [f"    add.f32 %f0, %f0, %f{i};" for i in range(1, 8)]
    lines += ["    cvt.u64.u32 %rd3, %r3;", "    ld.param.u64 %rd4, [fma_out3];",
              "    setp.ge.u64 %p1, %rd3, %rd4;", "    @%p1 bra FMA_END;",
              "    ld.param.u64 %rd5, [fma_out1];", "    cvta.to.global.u64 %rd5, %rd5;",
              "    shl.b64 %rd6, %rd3, 2;", "    add.s64 %rd5, %rd5, %rd6;",
              "    st.global.f32 [%rd5], %f0;", "FMA_END:", "    ret;", "}"]
    return "\n".join(lines) + "\n"


def copy_kernel():
    lines = [entry("roof_copy", [".param .u64 copy_vectors"]
                   + buffer_params("copy_src") + buffer_params("copy_dst")), "{",
             "    .reg .pred %p<2>;", "    .reg .f32 %f<4>;",
             "    .reg .b32 %r<4>;", "    .reg .b64 %rd<10>;", "",
             "    mov.u32 %r1, %tid.x;", "    mov.u32 %r2, %ctaid.x;",
             "    mul.wide.u32 %rd1, %r2, 256;", "    cvt.u64.u32 %rd2, %r1;",
             "    add.s64 %rd1, %rd1, %rd2;", "    ld.param.u64 %rd3, [copy_vectors];",
             "    setp.ge.u64 %p1, %rd1, %rd3;", "    @%p1 bra COPY_END;",
             "    shl.b64 %rd4, %rd1, 4;",
             "    ld.param.u64 %rd5, [copy_src1];", "    cvta.to.global.u64 %rd5, %rd5;",
             "    add.s64 %rd5, %rd5, %rd4;",
             "    ld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd5];",
             "    ld.param.u64 %rd6, [copy_dst1];", "    cvta.to.global.u64 %rd6, %rd6;",
             "    add.s64 %rd6, %rd6, %rd4;",
             "    st.global.v4.f32 [%rd6], {%f0, %f1, %f2, %f3};",
             "COPY_END:", "    ret;", "}"]
    return "\n".join(lines) + "\n"


def main():
    print("// Generated by bench/roofs/make-roofs-ptx.py (see there): the")
    print("// kernels that measure the benches' roofs. Do not edit.")
    print(".version 8.0\n.target sm_90a\n.address_size 64\n")
    print(metadata("roof_wgmma_bf16", "scalar:i64 scalar:i64 buffer:f32:1", "0/256"))
    print(metadata("roof_fma_f32", "scalar:i64 scalar:i64 buffer:f32:1", "0/256"))
    print(metadata("roof_copy", "scalar:i64 buffer:f32:1 buffer:f32:1", "0/256"))
    print(".shared .align 1024 .b8 roof_smem[40960];\n")
    print(wgmma_kernel())
    print(fma_kernel())
    print(copy_kernel())


if __name__ == "__main__":
    main()
