//===- CubinInfoTest.cpp - Reading cubins without a GPU -------------------===//

#include "TestKernels.h"
#include "tilec/Runtime/CubinInfo.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace tilec;
using namespace tilec::rt;

namespace {

/// Writes a minimal little-endian ELF64 file: header, section contents, the
/// section name table, then the section headers.
class ElfBuilder {
public:
  struct Section {
    std::string name;
    uint32_t type = 1; // PROGBITS
    std::string data;
    uint64_t nobitsSize = 0;
    uint32_t link = 0, info = 0;
    uint64_t entsize = 0;
  };

  /// Returns the index the section will have.
  uint32_t add(Section s) {
    sections_.push_back(std::move(s));
    return static_cast<uint32_t>(sections_.size()); // after the null section
  }

  std::string build() const {
    std::vector<Section> all = {Section{"", 0, ""}};
    all.insert(all.end(), sections_.begin(), sections_.end());
    Section names{".shstrtab", 3, ""};
    std::vector<uint32_t> nameOffsets;
    names.data.push_back('\0');
    for (Section &s : all) {
      nameOffsets.push_back(s.name.empty() ? 0 : uint32_t(names.data.size()));
      if (!s.name.empty())
        names.data += s.name + '\0';
    }
    nameOffsets.push_back(uint32_t(names.data.size()));
    names.data += names.name + '\0';
    all.push_back(names);

    std::string out(64, '\0');
    std::vector<uint64_t> offsets;
    for (const Section &s : all) {
      while (out.size() % 8)
        out.push_back('\0');
      offsets.push_back(out.size());
      out += s.data;
    }
    while (out.size() % 8)
      out.push_back('\0');
    uint64_t shoff = out.size();
    for (size_t i = 0; i < all.size(); ++i) {
      const Section &s = all[i];
      std::string hdr(64, '\0');
      put(hdr, 0, nameOffsets[i]);
      put(hdr, 4, s.type);
      put(hdr, 24, i == 0 ? uint64_t(0) : offsets[i]);
      put(hdr, 32, s.type == 8 ? s.nobitsSize : uint64_t(s.data.size()));
      put(hdr, 40, s.link);
      put(hdr, 44, s.info);
      put(hdr, 56, s.entsize);
      out += hdr;
    }
    std::memcpy(&out[0], "\x7f" "ELF\x02\x01\x01", 7);
    put(out, 0x10, uint16_t(2));   // ET_EXEC
    put(out, 0x12, uint16_t(190)); // EM_CUDA
    put(out, 0x28, shoff);
    put(out, 0x34, uint16_t(64));
    put(out, 0x3a, uint16_t(64));
    put(out, 0x3c, uint16_t(all.size()));
    put(out, 0x3e, uint16_t(all.size() - 1));
    return out;
  }

  template <typename T> static void put(std::string &s, size_t at, T value) {
    std::memcpy(&s[at], &value, sizeof(T));
  }

private:
  std::vector<Section> sections_;
};

/// A symbol table and its string table.
struct Symbols {
  std::string strtab = std::string(1, '\0');
  std::string symtab = std::string(24, '\0');

  uint32_t add(const std::string &name, uint16_t shndx, uint64_t value,
               uint64_t size) {
    std::string sym(24, '\0');
    ElfBuilder::put(sym, 0, uint32_t(strtab.size()));
    ElfBuilder::put(sym, 6, shndx);
    ElfBuilder::put(sym, 8, value);
    ElfBuilder::put(sym, 16, size);
    strtab += name + '\0';
    symtab += sym;
    return uint32_t(symtab.size() / 24 - 1);
  }
};

const char kSaxpyMeta[] =
    "tilec-launch 1\nkernel saxpy\n"
    "params scalar:f32 buffer:f32:1 buffer:f32:1 buffer:f32:1\n"
    "block 256 1 1\ngrid 1.0/256 - -\nshared 0\n";

/// Section indices are fixed by the order of add() calls below.
std::string syntheticCubin(bool newLayout) {
  ElfBuilder elf;
  Symbols syms;
  const uint16_t kStrtab = 1, kTextSaxpy = 3, kGlobalInit = 6;
  uint32_t saxpy = syms.add("saxpy", kTextSaxpy, 0, 64);
  syms.add("__tilec_launch_saxpy", kGlobalInit, 8, sizeof(kSaxpyMeta));
  uint32_t other = syms.add("other", 4, 0, 64);

  elf.add({".strtab", 3, syms.strtab});
  elf.add({".symtab", 2, syms.symtab, 0, kStrtab, 0, 24});
  // The old layout keeps the register count in sh_info's top byte.
  elf.add({".text.saxpy", 1, std::string(64, '\0'), 0, 2,
           (newLayout ? 0u : 32u << 24) | saxpy});
  elf.add({".text.other", 1, std::string(64, '\0'), 0, 2,
           (newLayout ? 0u : 40u << 24) | other});
  elf.add({".nv.shared.saxpy", 8, "", newLayout ? 3072u : 2048u});
  elf.add({".nv.global.init", 1,
           std::string(8, '\xee') + std::string(kSaxpyMeta, sizeof(kSaxpyMeta))});
  if (newLayout) {
    elf.add({".nv.shared.reserved.0", 8, "", 0});
    std::string attrs;
    auto regcount = [&](uint32_t symbol, uint32_t count) {
      std::string e(12, '\0');
      e[0] = 4;    // EIFMT_SVAL
      e[1] = 0x2f; // EIATTR_REGCOUNT
      ElfBuilder::put(e, 2, uint16_t(8));
      ElfBuilder::put(e, 4, symbol);
      ElfBuilder::put(e, 8, count);
      attrs += e;
    };
    attrs += std::string("\x03\x50\x00\x00", 4); // an HVAL entry to skip
    regcount(saxpy, 32);
    regcount(other, 40);
    elf.add({".nv.info", 0x70000000, attrs, 0, 2});
  }
  return elf.build();
}

void expectSyntheticKernels(const CubinInfo &info) {
  ASSERT_EQ(info.kernels.size(), 2u);
  const CubinKernel *saxpy = info.findKernel("saxpy");
  const CubinKernel *other = info.findKernel("other");
  ASSERT_TRUE(saxpy && other);
  EXPECT_EQ(saxpy->registers, 32u);
  EXPECT_EQ(saxpy->staticSharedBytes, 2048u);
  EXPECT_TRUE(saxpy->hasLaunchMetadata);
  EXPECT_EQ(other->registers, 40u);
  EXPECT_EQ(other->staticSharedBytes, 0u);
  EXPECT_FALSE(other->hasLaunchMetadata);
  ASSERT_EQ(info.launchSymbols.size(), 1u);
  EXPECT_EQ(info.launchSymbols[0].symbol, "__tilec_launch_saxpy");
  EXPECT_EQ(info.launchSymbols[0].text, kSaxpyMeta);
  EXPECT_EQ(parseLaunchMetadata(info.launchSymbols[0].text),
            test::saxpyMetadata());
}

TEST(CubinInfo, ReadsTheSm80Layout) {
  std::string error;
  std::optional<CubinInfo> info = parseCubin(syntheticCubin(false), &error);
  ASSERT_TRUE(info) << error;
  expectSyntheticKernels(*info);
  EXPECT_EQ(info->findKernel("saxpy")->sharedSectionBytes, 2048u);
}

TEST(CubinInfo, ReadsTheSm90Layout) {
  std::string error;
  std::optional<CubinInfo> info = parseCubin(syntheticCubin(true), &error);
  ASSERT_TRUE(info) << error;
  expectSyntheticKernels(*info);
  EXPECT_EQ(info->findKernel("saxpy")->sharedSectionBytes, 3072u);
}

TEST(CubinInfo, RejectsGarbage) {
  std::string error;
  EXPECT_FALSE(parseCubin("", &error));
  EXPECT_EQ(error, "malformed cubin: shorter than an ELF header");
  EXPECT_FALSE(parseCubin(std::string(100, 'x'), &error));
  EXPECT_EQ(error, "malformed cubin: not an ELF file");
  std::string elf32 = syntheticCubin(false);
  elf32[4] = 1;
  EXPECT_FALSE(parseCubin(elf32, &error));
  EXPECT_EQ(error, "malformed cubin: not a little-endian ELF64 file");
  EXPECT_FALSE(parseCubinFile("/nonexistent/x.cubin", &error));
  EXPECT_EQ(error, "cannot open '/nonexistent/x.cubin'");
}

TEST(CubinInfo, SurvivesEveryTruncation) {
  for (bool layout : {false, true}) {
    std::string full = syntheticCubin(layout);
    for (size_t n = 0; n < full.size(); ++n) {
      std::string error;
      // The section headers are at the end, so every proper prefix is
      // malformed.
      EXPECT_FALSE(parseCubin(full.substr(0, n), &error)) << n;
      EXPECT_FALSE(error.empty());
    }
  }
}

TEST(CubinInfo, SurvivesCorruption) {
  // Whatever the bytes say, the parser must return (true or false) without
  // reading outside the input; run under ASan to make that visible.
  std::mt19937 rng(1234);
  for (bool layout : {false, true}) {
    std::string full = syntheticCubin(layout);
    for (size_t at = 0; at < full.size(); ++at)
      for (unsigned char v : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
        std::string bad = full;
        bad[at] = static_cast<char>(v);
        parseCubin(bad);
      }
    for (int round = 0; round < 2000; ++round) {
      std::string bad = full;
      for (int k = 0; k < 8; ++k)
        bad[rng() % bad.size()] = static_cast<char>(rng());
      parseCubin(bad);
    }
  }
  for (int round = 0; round < 2000; ++round) {
    std::string noise(rng() % 512, '\0');
    for (char &c : noise)
      c = static_cast<char>(rng());
    if (round % 2 && noise.size() >= 6)
      std::memcpy(&noise[0], "\x7f" "ELF\x02\x01", 6);
    parseCubin(noise);
  }
}

/// The cubins ptxas made from kernels.ptx: the real thing, both layouts.
class RealCubin : public ::testing::TestWithParam<int> {};

TEST_P(RealCubin, ListsKernelsAndMetadata) {
  std::optional<std::string_view> bytes = test::kernelsCubin(GetParam());
  if (!bytes)
    GTEST_SKIP() << "ptxas was not found at configure time";
  std::string error;
  std::optional<CubinInfo> info = parseCubin(*bytes, &error);
  ASSERT_TRUE(info) << error;
  EXPECT_EQ(info->kernels.size(), 5u);
  for (const char *name : {"saxpy", "iota2d", "fill", "fill_wide", "nometa"}) {
    const CubinKernel *k = info->findKernel(name);
    ASSERT_TRUE(k) << name;
    // ptxas decides the exact count; a kernel that loads parameters into
    // registers needs a few, and none of these needs more than 64.
    EXPECT_GE(k->registers, 2u) << name;
    EXPECT_LE(k->registers, 64u) << name;
    EXPECT_EQ(k->hasLaunchMetadata, std::string(name) != "nometa") << name;
    // Only fill and fill_wide have static shared memory (iota2d's is
    // dynamic).
    EXPECT_EQ(k->staticSharedBytes, std::string(name) == "fill"        ? 512u
                                    : std::string(name) == "fill_wide" ? 16384u
                                                                       : 0u)
        << name;
  }
  ASSERT_EQ(info->launchSymbols.size(), 4u);
  for (const CubinLaunchSymbol &sym : info->launchSymbols) {
    std::optional<LaunchMetadata> m = parseLaunchMetadata(sym.text, &error);
    ASSERT_TRUE(m) << sym.symbol << ": " << error;
    EXPECT_EQ(sym.symbol, launchMetadataSymbol(m->kernel));
    if (m->kernel == "saxpy")
      EXPECT_EQ(*m, test::saxpyMetadata());
    else if (m->kernel == "iota2d")
      EXPECT_EQ(*m, test::iota2dMetadata());
    else if (m->kernel == "fill")
      EXPECT_EQ(*m, test::fillMetadata());
    else
      EXPECT_EQ(m->sharedBytes, 40000u) << m->kernel;
  }
}

INSTANTIATE_TEST_SUITE_P(Arch, RealCubin, ::testing::Values(80, 90));

} // namespace
