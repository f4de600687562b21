#!/usr/bin/env python3
"""Hand-written GEMV programs of several shapes, to choose the GEMV kernel's
schedule (bench/matmul/gemv-device.sh times them against cuBLAS).

Each is the program tile-tiling builds for `NAME__gemv` (buildGemvBody,
row-major A and B, bf16) with R rows of C, K in steps of D and W warps,
named mm_bf16_bf16_rr so that the matmul bench times it.

usage: gemv-sweep.py R-D-W[-mB][-p] ...   writes each program's .mlir to
       stdout (-mB: ptxas fits B blocks a multiprocessor; -p: each step's
       tiles loaded before the previous step's products)
       gemv-sweep.py --build R-D-W ... compiles each to .device/gemv/R-D-W.cubin
"""
import os
import subprocess
import sys

PLAIN_LOOP = """  %zero = arith.constant dense<0.0> : tensor<{r}x{d}xf32>
  %acc = scf.for %k0 = %c0 to %k step %depth iter_args(%s = %zero)
      -> (tensor<{r}x{d}xf32>) {{
    %at = tile.load %a[%m0, %k0] : memref<?x?xbf16> -> tensor<{r}x{d}xbf16>
    %bt = tile.load %bcol[%k0]
        : memref<?xbf16, strided<[?], offset: ?>> -> tensor<{d}xbf16>
{products}
    scf.yield %t : tensor<{r}x{d}xf32>
  }}
"""

PREFETCH_LOOP = """  %zero = arith.constant dense<0.0> : tensor<{r}x{d}xf32>
  %a0 = tile.load %a[%m0, %c0] : memref<?x?xbf16> -> tensor<{r}x{d}xbf16>
  %b0 = tile.load %bcol[%c0]
      : memref<?xbf16, strided<[?], offset: ?>> -> tensor<{d}xbf16>
  %acc:3 = scf.for %k0 = %c0 to %k step %depth
      iter_args(%s = %zero, %at = %a0, %bt = %b0)
      -> (tensor<{r}x{d}xf32>, tensor<{r}x{d}xbf16>, tensor<{d}xbf16>) {{
    // The next step's tiles are loaded before this step's products.
    %kn = arith.addi %k0, %depth : index
    %an = tile.load %a[%m0, %kn] : memref<?x?xbf16> -> tensor<{r}x{d}xbf16>
    %bn = tile.load %bcol[%kn]
        : memref<?xbf16, strided<[?], offset: ?>> -> tensor<{d}xbf16>
{products}
    scf.yield %t, %an, %bn
        : tensor<{r}x{d}xf32>, tensor<{r}x{d}xbf16>, tensor<{d}xbf16>
  }}
"""

PRODUCTS = """    %a32 = arith.extf %at : tensor<{r}x{d}xbf16> to tensor<{r}x{d}xf32>
    %b32 = arith.extf %bt : tensor<{d}xbf16> to tensor<{d}xf32>
    %bb = tile.broadcast %b32 dims [0] : tensor<{d}xf32> -> tensor<{r}x{d}xf32>
    %p = arith.mulf %a32, %bb : tensor<{r}x{d}xf32>
    %t = arith.addf %s, %p : tensor<{r}x{d}xf32>"""

TEMPLATE = """tile.kernel @mm_bf16_bf16_rr(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                              %c: memref<?x?xbf16>)
    attributes {{grid = [#tile.grid<arg = 2, dim = 1, per_program = 1>,
                        #tile.grid<arg = 2, dim = 0, per_program = {r}>],
                num_warps = {w}{extra}}} {{
  %n = tile.program_id x : index
  %pm = tile.program_id y : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = arith.constant {r} : index
  %depth = arith.constant {d} : index
  %m0 = arith.muli %pm, %rows : index
  %k = memref.dim %a, %c1 : memref<?x?xbf16>
  %m = memref.dim %c, %c0 : memref<?x?xbf16>
  %bcol = memref.subview %b[0, %n] [%k, 1] [1, 1]
      : memref<?x?xbf16> to memref<?xbf16, strided<[?], offset: ?>>
  %ccol = memref.subview %c[0, %n] [%m, 1] [1, 1]
      : memref<?x?xbf16> to memref<?xbf16, strided<[?], offset: ?>>
{loop}  %sum = tile.reduce add {acc} along 1 : tensor<{r}x{d}xf32> -> tensor<{r}xf32>
  %out = arith.truncf %sum : tensor<{r}xf32> to tensor<{r}xbf16>
  tile.store %out, %ccol[%m0]
      : tensor<{r}xbf16>, memref<?xbf16, strided<[?], offset: ?>>
  tile.return
}}
"""


def program(config):
    parts = config.split("-")
    r, d, w = (int(x) for x in parts[:3])
    # R-D-W-mB: ptxas fits B blocks a multiprocessor (tile.min_blocks_per_sm).
    extra = "".join(f", tile.min_blocks_per_sm = {int(p[1:])} : i64"
                    for p in parts[3:] if p.startswith("m"))
    # R-D-W-p: each step's tiles loaded before the previous step's products.
    loop = PREFETCH_LOOP if "p" in parts[3:] else PLAIN_LOOP
    loop = loop.format(r=r, d=d, products=PRODUCTS.format(r=r, d=d))
    acc = "%acc#0" if "p" in parts[3:] else "%acc"
    return TEMPLATE.format(r=r, d=d, w=w, extra=extra, loop=loop, acc=acc)


def main():
    args = sys.argv[1:]
    if not args or args == ["--build"]:
        print(__doc__, file=sys.stderr)
        return 2
    if args[0] != "--build":
        for config in args:
            print(program(config))
        return 0
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    out = os.path.join(root, ".device", "gemv")
    os.makedirs(out, exist_ok=True)
    tilec = os.path.join(root, "build", "bin", "tilec")
    for config in args[1:]:
        src = os.path.join(out, config + ".mlir")
        open(src, "w").write(program(config))
        subprocess.run([tilec, src, "-o", os.path.join(out, config + ".cubin")],
                       check=True)
        print(config, "built")
    return 0


if __name__ == "__main__":
    sys.exit(main())
