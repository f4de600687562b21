//===- Roofs.cpp - Measuring the roofs of the benches ---------------------===//

#include "Roofs.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

using namespace tilec::rt;

namespace {

/// The median time of `runs` back-to-back launches, after two warm-up
/// ones, an event between each two.
template <typename Launch>
double medianMs(const Context &ctx, const Stream &stream, const Launch &launch,
                int runs = 9) {
  launch();
  launch();
  std::vector<Event> events;
  for (int i = 0; i <= runs; ++i)
    events.emplace_back(ctx);
  events[0].record(stream);
  for (int i = 0; i < runs; ++i) {
    launch();
    events[i + 1].record(stream);
  }
  stream.synchronize();
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i)
    ms.push_back(Event::elapsedMs(events[i], events[i + 1]));
  std::nth_element(ms.begin(), ms.begin() + runs / 2, ms.end());
  return ms[runs / 2];
}

} // namespace

tilec::bench::Roofs tilec::bench::measureRoofs(const Context &ctx,
                                               const Stream &stream,
                                               const std::string &ptxPath,
                                               RoofSet set) {
  std::ifstream in(ptxPath);
  if (!in)
    throw Error("cannot read the roofs' PTX '" + ptxPath + "'");
  std::stringstream text;
  text << in.rdbuf();
  Module module = Module::loadData(ctx, text.str());
  const int64_t sms = ctx.device().smCount;
  Roofs roofs;
  {
    Kernel k(module, "roof_copy");
    const int64_t vectors = int64_t(1) << 26; // 1 GiB each way
    DeviceBuffer src(ctx, size_t(vectors) * 16), dst(ctx, size_t(vectors) * 16);
    src.memset(0x3c);
    double ms = medianMs(ctx, stream, [&] {
      k.launch(stream, vectors, src.view<float>({vectors * 4}),
               dst.view<float>({vectors * 4}));
    });
    roofs.copyGBs = 2.0 * double(vectors) * 16 / (ms * 1e6);
  }
  if (set == RoofSet::CopyOnly)
    return roofs;
  {
    // One block of two warpgroups a multiprocessor (40 KiB of operands,
    // 154 registers a thread); 4 wgmma m64n256k16 a group.
    Kernel k(module, "roof_wgmma_bf16");
    const int64_t threads = sms * 256, groups = 20000;
    DeviceBuffer out(ctx, size_t(threads) * sizeof(float));
    double ms = medianMs(ctx, stream, [&] {
      k.launch(stream, threads, groups, out.view<float>({threads}));
    });
    double flops = double(sms) * 2 * double(groups) * 4 * 2.0 * 64 * 256 * 16;
    roofs.tensorTflops = flops / (ms * 1e9);
  }
  {
    Kernel k(module, "roof_fma_f32");
    const int64_t threads = sms * 2048, iterations = 4096;
    DeviceBuffer out(ctx, size_t(threads) * sizeof(float));
    double ms = medianMs(ctx, stream, [&] {
      k.launch(stream, threads, iterations, out.view<float>({threads}));
    });
    roofs.fmaTflops = double(threads) * double(iterations) * 128 / (ms * 1e9);
  }
  return roofs;
}
