//===- CubinInfo.cpp - Inspect a cubin without a GPU ----------------------===//
//
// A deliberately small ELF64 reader: section headers, the section name table
// and symbol tables are all it needs. Every offset and size read from the file
// is checked against the file before use, because the input may be anything.
// Multi-byte fields are read in host order: cubins are little-endian and so
// are the hosts that run CUDA.
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/CubinInfo.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>

namespace tilec::rt {

namespace {

constexpr uint32_t kShtSymtab = 2;
// An attribute list entry of `.nv.info`: format byte, attribute byte, then a
// 16-bit value, or (format EIFMT_SVAL) a 16-bit size and that many bytes.
constexpr uint8_t kEifmtSval = 4;
constexpr uint8_t kEiattrRegcount = 0x2f;
constexpr uint32_t kShtNobits = 8;
constexpr uint16_t kShnXindex = 0xffff;
constexpr size_t kEhdrSize = 64, kShdrSize = 64, kSymSize = 24;
constexpr std::string_view kLaunchPrefix = "__tilec_launch_";

struct Section {
  std::string name;
  uint32_t type = 0;
  uint64_t addr = 0, offset = 0, size = 0;
  uint32_t link = 0, info = 0;
  uint64_t entsize = 0;

  bool hasFileData() const { return type != kShtNobits; }
};

/// Bounds-checked reads from the file image.
class Reader {
public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}

  bool inBounds(uint64_t offset, uint64_t size) const {
    return offset <= bytes_.size() && size <= bytes_.size() - offset;
  }
  template <typename T> bool read(uint64_t offset, T &out) const {
    if (!inBounds(offset, sizeof(T)))
      return false;
    std::memcpy(&out, bytes_.data() + offset, sizeof(T));
    return true;
  }
  /// The NUL-terminated string at `offset`, which must end before `limit`.
  bool readString(uint64_t offset, uint64_t limit, std::string &out) const {
    if (limit > bytes_.size() || offset >= limit)
      return false;
    const char *begin = bytes_.data() + offset;
    const void *nul = std::memchr(begin, '\0', limit - offset);
    if (!nul)
      return false;
    out.assign(begin, static_cast<const char *>(nul));
    return true;
  }
  std::string_view slice(uint64_t offset, uint64_t size) const {
    return bytes_.substr(offset, size);
  }

private:
  std::string_view bytes_;
};

class Parser {
public:
  explicit Parser(std::string_view bytes) : in_(bytes) {}
  bool run(CubinInfo &info);
  const std::string &error() const { return error_; }

private:
  bool fail(std::string why) {
    error_ = "malformed cubin: " + std::move(why);
    return false;
  }
  bool readHeader();
  bool readSections();
  bool readSectionNames();
  bool readSymbols(const Section &symtab, CubinInfo &info);
  void readRegisterCounts(const Section &nvInfo);
  std::string symbolText(uint16_t shndx, uint64_t value, uint64_t size) const;

  Reader in_;
  std::string error_;
  uint64_t shoff_ = 0;
  uint16_t shentsize_ = 0, shnum_ = 0, shstrndx_ = 0;
  std::vector<Section> sections_;
  std::vector<uint32_t> nameOffsets_;
  /// Names of the symbols of the (first) symbol table, by index.
  std::vector<std::string> symbolNames_;
  /// EIATTR_REGCOUNT values by function name.
  std::map<std::string, unsigned> regCounts_;
};

bool Parser::readHeader() {
  unsigned char ident[16];
  if (!in_.read(0, ident) || !in_.inBounds(0, kEhdrSize))
    return fail("shorter than an ELF header");
  if (std::memcmp(ident, "\x7f" "ELF", 4) != 0)
    return fail("not an ELF file");
  if (ident[4] != 2 || ident[5] != 1)
    return fail("not a little-endian ELF64 file");
  in_.read(0x28, shoff_);
  in_.read(0x3a, shentsize_);
  in_.read(0x3c, shnum_);
  in_.read(0x3e, shstrndx_);
  if (shnum_ == 0)
    return fail("no section headers");
  if (shentsize_ < kShdrSize)
    return fail("section header entries of " + std::to_string(shentsize_) +
                " bytes");
  if (!in_.inBounds(shoff_, uint64_t(shnum_) * shentsize_))
    return fail("section headers extend past the end of the file");
  return true;
}

bool Parser::readSections() {
  for (uint16_t i = 0; i < shnum_; ++i) {
    uint64_t base = shoff_ + uint64_t(i) * shentsize_;
    Section s;
    uint32_t nameOffset = 0;
    in_.read(base + 0, nameOffset);
    in_.read(base + 4, s.type);
    in_.read(base + 16, s.addr);
    in_.read(base + 24, s.offset);
    in_.read(base + 32, s.size);
    in_.read(base + 40, s.link);
    in_.read(base + 44, s.info);
    in_.read(base + 56, s.entsize);
    if (i != 0 && s.hasFileData() && !in_.inBounds(s.offset, s.size))
      return fail("section " + std::to_string(i) +
                  " extends past the end of the file");
    sections_.push_back(s);
    nameOffsets_.push_back(nameOffset);
  }
  return true;
}

bool Parser::readSectionNames() {
  // With many sections the index of the name table lives in section 0.
  uint64_t index = shstrndx_ == kShnXindex ? sections_[0].link : shstrndx_;
  if (index == 0 || index >= sections_.size() ||
      !sections_[index].hasFileData())
    return fail("no section name table");
  const Section &names = sections_[index];
  for (size_t i = 1; i < sections_.size(); ++i)
    if (!in_.readString(names.offset + nameOffsets_[i],
                        names.offset + names.size, sections_[i].name))
      return fail("bad name of section " + std::to_string(i));
  return true;
}

std::string Parser::symbolText(uint16_t shndx, uint64_t value,
                               uint64_t size) const {
  if (shndx == 0 || shndx >= sections_.size())
    return {};
  const Section &s = sections_[shndx];
  // Symbol values are addresses; cubin sections have address 0, which makes
  // them offsets into the section.
  if (!s.hasFileData() || value < s.addr)
    return {};
  uint64_t offset = value - s.addr;
  if (offset > s.size || size > s.size - offset)
    return {};
  std::string_view bytes = in_.slice(s.offset + offset, size);
  return std::string(bytes.substr(0, bytes.find('\0')));
}

bool Parser::readSymbols(const Section &symtab, CubinInfo &info) {
  uint64_t entsize = symtab.entsize ? symtab.entsize : kSymSize;
  if (entsize < kSymSize)
    return fail("symbol entries of " + std::to_string(entsize) + " bytes");
  if (symtab.link == 0 || symtab.link >= sections_.size() ||
      !sections_[symtab.link].hasFileData())
    return fail("symbol table without a string table");
  const Section &strtab = sections_[symtab.link];
  bool first = symbolNames_.empty();
  if (first)
    symbolNames_.emplace_back();
  for (uint64_t i = 1; i < symtab.size / entsize; ++i) {
    uint64_t base = symtab.offset + i * entsize;
    uint32_t nameOffset = 0;
    uint16_t shndx = 0;
    uint64_t value = 0, size = 0;
    in_.read(base + 0, nameOffset);
    in_.read(base + 6, shndx);
    in_.read(base + 8, value);
    in_.read(base + 16, size);
    std::string name;
    if (!in_.readString(strtab.offset + uint64_t(nameOffset),
                        strtab.offset + strtab.size, name))
      return fail("bad name of symbol " + std::to_string(i));
    if (first)
      symbolNames_.push_back(name);
    if (name.compare(0, kLaunchPrefix.size(), kLaunchPrefix) == 0 &&
        name.size() > kLaunchPrefix.size())
      info.launchSymbols.push_back({name, symbolText(shndx, value, size)});
  }
  return true;
}

void Parser::readRegisterCounts(const Section &nvInfo) {
  // Entries are parsed as far as they are well formed; the counts are a
  // nicety, so a damaged list just yields fewer of them.
  uint64_t pos = nvInfo.offset, end = nvInfo.offset + nvInfo.size;
  while (end - pos >= 4) {
    uint8_t format = 0, attr = 0;
    uint16_t size = 0;
    in_.read(pos, format);
    in_.read(pos + 1, attr);
    in_.read(pos + 2, size);
    pos += 4;
    if (format != kEifmtSval)
      continue;
    if (size > end - pos)
      return;
    uint32_t symbol = 0, count = 0;
    if (attr == kEiattrRegcount && size >= 8 && in_.read(pos, symbol) &&
        in_.read(pos + 4, count) && symbol < symbolNames_.size())
      regCounts_[symbolNames_[symbol]] = count;
    pos += size;
  }
}

bool Parser::run(CubinInfo &info) {
  if (!readHeader() || !readSections() || !readSectionNames())
    return false;
  // Section 0 is the reserved null section; its fields are not checked.
  bool reservesShared = false;
  for (size_t i = 1; i < sections_.size(); ++i) {
    const Section &s = sections_[i];
    if (s.type == kShtSymtab && !readSymbols(s, info))
      return false;
    if (s.name.rfind(".nv.shared.reserved.", 0) == 0)
      reservesShared = true;
  }
  for (size_t i = 1; i < sections_.size(); ++i)
    if (sections_[i].name == ".nv.info")
      readRegisterCounts(sections_[i]);

  const std::string textPrefix = ".text.", sharedPrefix = ".nv.shared.";
  std::map<std::string, uint64_t> shared;
  for (size_t i = 1; i < sections_.size(); ++i) {
    const Section &s = sections_[i];
    if (s.name.rfind(textPrefix, 0) == 0 && s.name.size() > textPrefix.size())
      info.kernels.push_back({s.name.substr(textPrefix.size()), s.info >> 24});
    else if (s.name.rfind(sharedPrefix, 0) == 0)
      shared[s.name.substr(sharedPrefix.size())] = s.size;
  }
  for (CubinKernel &k : info.kernels) {
    auto regs = regCounts_.find(k.name);
    if (regs != regCounts_.end())
      k.registers = regs->second;
    auto it = shared.find(k.name);
    if (it != shared.end()) {
      k.sharedSectionBytes = it->second;
      uint64_t reserved = reservesShared ? CubinInfo::kReservedSharedBytes : 0;
      k.staticSharedBytes = it->second >= reserved ? it->second - reserved : 0;
    }
    for (const CubinLaunchSymbol &sym : info.launchSymbols)
      if (sym.symbol.compare(kLaunchPrefix.size(), std::string::npos,
                             k.name) == 0)
        k.hasLaunchMetadata = true;
  }
  return true;
}

} // namespace
const CubinKernel *CubinInfo::findKernel(std::string_view name) const {
  for (const CubinKernel &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

std::optional<CubinInfo> parseCubin(std::string_view bytes,
                                    std::string *error) {
  Parser parser(bytes);
  CubinInfo info;
  if (parser.run(info))
    return info;
  if (error)
    *error = parser.error();
  return std::nullopt;
}

std::optional<CubinInfo> parseCubinFile(const std::string &path,
                                        std::string *error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (error)
      *error = "cannot open '" + path + "'";
    return std::nullopt;
  }
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  return parseCubin(bytes, error);
}

} // namespace tilec::rt
