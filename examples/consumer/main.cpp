//===- main.cpp - A program that uses tilec as an installed package -------===//
//
// Built against an installed tilec (find_package(tilec), tilec::jit; see
// CMakeLists.txt here and scripts/consumer-test.sh): JIT-compiles a tile
// kernel held in a string, launches it and checks the result on the host;
// then launches scale.mlir's kernel, compiled at build time by
// tilec_add_kernels, through its generated function on a wrapped stream,
// and checks that too. Without a GPU it compiles the JIT kernel to PTX
// (which needs the compiler but neither a GPU nor ptxas), lists the cubins
// the build embedded, says that there is no GPU and exits with 0.
//
//   tilec-consumer [n]
//
//===----------------------------------------------------------------------===//

#include "tilec/Compiler/Compiler.h"
#include "tilec/Runtime/Jit.h"
// Generated from scale.mlir by tilec_add_kernels.
#include "tilec_kernels/scale.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

// out = alpha * x + y, one program (thread block) per 1024 elements.
static const char *kSaxpy = R"mlir(
tile.kernel @saxpy(%alpha: f32, %x: memref<?xf32>, %y: memref<?xf32>,
                   %out: memref<?xf32>)
    attributes {grid = [#tile.grid<arg = 1, dim = 0, per_program = 1024>],
                num_warps = 4} {
  %pid = tile.program_id x : index
  %c1024 = arith.constant 1024 : index
  %offset = arith.muli %pid, %c1024 : index
  %xt = tile.load %x[%offset] : memref<?xf32> -> tensor<1024xf32>
  %yt = tile.load %y[%offset] : memref<?xf32> -> tensor<1024xf32>
  %a = tile.splat %alpha : f32 -> tensor<1024xf32>
  %ax = arith.mulf %a, %xt : tensor<1024xf32>
  %r = arith.addf %ax, %yt : tensor<1024xf32>
  tile.store %r, %out[%offset] : tensor<1024xf32>, memref<?xf32>
  tile.return
}
)mlir";

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? std::atoll(argv[1]) : 1000003;
  std::printf("%s\n", tilec::versionString());

  if (tilec::rt::deviceCount() == 0) {
    tilec::CompileOptions options;
    options.emit = tilec::EmitKind::PTX;
    options.bufferName = "saxpy";
    tilec::CompileResult ptx = tilec::compile(kSaxpy, options);
    if (!ptx.ok || ptx.output.find(".entry saxpy") == std::string::npos) {
      std::fprintf(stderr, "error: saxpy did not compile to PTX:\n%s\n",
                   ptx.diagnostics.c_str());
      return 1;
    }
    std::printf("no GPU found: saxpy compiled to PTX for %s (%zu bytes), "
                "not run\n",
                options.arch.c_str(), ptx.output.size());
    const tilec::rt::EmbeddedKernels &embedded = scale::tilec_embedded();
    for (const tilec::rt::EmbeddedCubin &cubin : embedded.cubins())
      std::printf("%s: %s cubin embedded (%zu bytes), not run\n",
                  embedded.source().c_str(), cubin.arch, cubin.size);
    return embedded.cubins().size() == 2 ? 0 : 1;
  }

  try {
    using namespace tilec::rt;
    Context ctx(0);
    Stream stream(ctx);
    // Compiled for this device's arch (through the disk cache) and loaded.
    Module module = jitLoad(ctx, kSaxpy);
    Kernel saxpy(module, "saxpy");

    const float alpha = 2.5f;
    std::vector<float> x(n), y(n);
    for (int64_t i = 0; i < n; ++i) {
      x[i] = float(i % 1000) * 0.001f;
      y[i] = float(i % 7) - 3.0f;
    }
    auto xBuf = DeviceBuffer::fromHost(ctx, x);
    auto yBuf = DeviceBuffer::fromHost(ctx, y);
    auto outBuf = DeviceBuffer::fromHost(ctx, std::vector<float>(n, NAN));
    // The grid comes from x's size (the kernel's grid rule).
    saxpy.launch(stream, alpha, xBuf.view<float>({n}), yBuf.view<float>({n}),
                 outBuf.view<float>({n}));
    stream.synchronize();
    std::vector<float> out = outBuf.download<float>();

    int64_t wrong = 0;
    for (int64_t i = 0; i < n; ++i)
      if (!(std::fabs(out[i] - (alpha * x[i] + y[i])) <= 1e-5f))
        ++wrong;
    std::printf("saxpy on %s (%s), n = %lld: %lld wrong: %s\n",
                ctx.device().name.c_str(), archForDevice(ctx.device()).c_str(),
                (long long)n, (long long)wrong, wrong ? "FAIL" : "PASS");

    // The build-time kernel, through its generated function, on a stream
    // handed over as a framework would hand over its own (a CUstream).
    Stream wrapped = Stream::wrap(ctx, stream.handle());
    const float factor = -0.5f;
    scale::scale(wrapped, factor, outBuf.view<float>({n}),
                 yBuf.view<float>({n}));
    wrapped.synchronize();
    std::vector<float> scaled = yBuf.download<float>();
    int64_t wrongScaled = 0;
    for (int64_t i = 0; i < n; ++i)
      if (scaled[i] != factor * out[i])
        ++wrongScaled;
    std::printf("scale (cubin %s of %s) on a wrapped stream: %lld wrong: "
                "%s\n",
                scale::tilec_embedded().cubinFor(ctx.device()).arch,
                scale::tilec_embedded().archList().c_str(),
                (long long)wrongScaled, wrongScaled ? "FAIL" : "PASS");
    return wrong || wrongScaled ? 1 : 0;
  } catch (const tilec::rt::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
