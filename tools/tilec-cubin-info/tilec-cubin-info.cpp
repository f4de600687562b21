//===- tilec-cubin-info.cpp - What is in a cubin --------------------------===//
//
//   tilec-cubin-info a.cubin [b.cubin ...]   (--help, --version)
//   tilec-cubin-info --emit-wrappers ...     (EmitWrappers.cpp)
//
// Lists each kernel with its registers, static shared memory and whether it
// carries tilec launch metadata, read from the ELF file alone (no GPU, no
// CUDA driver), so that machines without a GPU can still report what they
// compiled. With --emit-wrappers, writes the C++ that embeds cubins and
// launches their kernels (what tilec_add_kernels runs).
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/CubinInfo.h"
#include "tilec/Runtime/LaunchMetadata.h"

#include <cstdio>
#include <optional>
#include <string>

/// How the launch metadata names an extent: dimension `dim` of buffer
/// argument `arg`, or the value of scalar argument `arg` without `dim`.
static std::string extentName(unsigned arg, std::optional<unsigned> dim) {
  std::string argument = "arg" + std::to_string(arg);
  return dim ? "dim" + std::to_string(*dim) + "(" + argument + ")" : argument;
}

/// When the runtime copies a misaligned `repitch` argument: a read one
/// from enough programs along its axis, a written one always (and back).
static std::string repitchCondition(const tilec::RepitchArg &r) {
  switch (r.use) {
  case tilec::RepitchArg::Use::Read:
    return std::string(1, "xyz"[r.axis % 3]) + " >= " +
           std::to_string(r.minPrograms);
  case tilec::RepitchArg::Use::Write:
    return "written: copied back";
  case tilec::RepitchArg::Use::ReadWrite:
    return "read and written: copied in and back";
  }
  return "";
}

static const char kUsage[] =
    "usage: tilec-cubin-info FILE.cubin...\n"
    "       tilec-cubin-info --emit-wrappers --name NAME --header OUT.h\n"
    "                        --source OUT.cpp [--header-include PATH]\n"
    "                        [--mlir FILE.mlir] ARCH=FILE.cubin...\n"
    "\n"
    "Lists each kernel of the cubins with its registers, static shared\n"
    "memory and, where tilec compiled it, its launch rule (block size and\n"
    "grid terms), read from the ELF file alone: no GPU or driver needed.\n"
    "\n"
    "With --emit-wrappers (what CMake's tilec_add_kernels runs), writes\n"
    "OUT.cpp, holding the bytes of every ARCH's cubin of one source, and\n"
    "OUT.h, declaring in namespace NAME one C++ function per entry kernel\n"
    "(its parameters typed from the launch metadata, named as in FILE.mlir)\n"
    "that launches it on a tilec::rt::Stream from the cubin for the\n"
    "stream's device. The cubins must hold the same entry kernels with the\n"
    "same parameters. OUT.cpp includes OUT.h as PATH (default: its name).\n"
    "\n"
    "  -h, --help     this text\n"
    "  --version      tilec's version\n";

int emitWrappers(int argc, char **argv);

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 1;
  }
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--emit-wrappers")
      return emitWrappers(argc, argv);
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg == "--version") {
      std::printf("tilec-cubin-info (tilec " TILEC_VERSION ")\n");
      return 0;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      std::fprintf(stderr, "tilec-cubin-info: error: unknown option '%s'\n%s",
                   arg.c_str(), kUsage);
      return 1;
    }
  }
  int status = 0;
  std::printf("%-24s %-12s %9s %13s  %s\n", "cubin", "kernel", "registers",
              "shared bytes", "launch (block / grid rule)");
  for (int i = 1; i < argc; ++i) {
    std::string path = argv[i];
    std::string file = path.substr(path.find_last_of('/') + 1);
    std::string error;
    std::optional<tilec::rt::CubinInfo> info =
        tilec::rt::parseCubinFile(path, &error);
    if (!info) {
      std::fprintf(stderr, "tilec-cubin-info: error: %s: %s\n", path.c_str(),
                   error.c_str());
      status = 1;
      continue;
    }
    for (const tilec::rt::CubinKernel &kernel : info->kernels) {
      std::string launch = "-";
      for (const tilec::rt::CubinLaunchSymbol &sym : info->launchSymbols) {
        if (sym.symbol != tilec::launchMetadataSymbol(kernel.name))
          continue;
        if (std::optional<tilec::LaunchMetadata> meta =
                tilec::parseLaunchMetadata(sym.text)) {
          launch = std::to_string(meta->block[0]) + " threads /";
          // A dimension's factors joined by '*', dimensions by spaces.
          for (const auto &dim : meta->grid) {
            if (dim.empty())
              continue;
            const char *separator = " ";
            for (const tilec::GridTerm &t : dim) {
              launch += separator;
              launch += "ceil(" + extentName(t.arg, t.dim) + "/" +
                        std::to_string(t.perProgram) + ")";
              separator = "*";
            }
          }
          if (meta->persistentBlocksPerSm)
            launch += " tiles, persistent: at most " +
                      std::to_string(meta->persistentBlocksPerSm) +
                      " block(s) an SM";
          if (meta->clusterX > 1)
            launch += ", clusters of " + std::to_string(meta->clusterX);
          if (meta->splitBlocksPerSm)
            launch += ", z split: at most " +
                      std::to_string(meta->splitBlocksPerSm) +
                      " block(s) an SM in all";
          if (meta->splitBlocksPerSm && meta->splitMinParts > 1)
            launch += ", unsplit under " + std::to_string(meta->splitMinParts) +
                      " parts";
          // Which operands the runtime stages for TMA, and from how many
          // programs along which axis.
          if (!meta->repitch.empty()) {
            launch += ", copies misaligned";
            for (const tilec::RepitchArg &r : meta->repitch)
              launch += " arg" + std::to_string(r.arg) + " (" +
                        repitchCondition(r) + ")";
          }
          // The kernels the runtime launches instead, and when.
          for (const tilec::NarrowVariant &n : meta->narrow)
            launch += ", " + n.kernel + " where " + extentName(n.arg, n.dim) +
                      " <= " + std::to_string(n.atMost);
          // A split grid's z only splits its x * y programs' work.
          if (!meta->smallGrid.kernel.empty())
            launch += ", " + meta->smallGrid.kernel + " where the " +
                      (meta->splitBlocksPerSm ? "grid's x * y" : "grid") +
                      " is under " +
                      std::to_string(meta->smallGrid.percentOfSms) +
                      "% of the SMs";
          if (!meta->then.empty())
            launch += ", then " + meta->then;
          if (meta->waitsForPrevious)
            launch += ", waits for the grid before it";
        }
      }
      std::printf("%-24s %-12s %9u %13llu  %s\n", file.c_str(),
                  kernel.name.c_str(), kernel.registers,
                  static_cast<unsigned long long>(kernel.staticSharedBytes),
                  launch.c_str());
    }
  }
  return status;
}
