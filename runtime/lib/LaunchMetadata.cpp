//===- LaunchMetadata.cpp - Launch metadata text format -------------------===//

#include "tilec/Runtime/LaunchMetadata.h"

#include <algorithm>

#include <charconv>
#include <optional>
#include <sstream>
#include <utility>

namespace tilec {

namespace {
struct TypeEntry {
  ScalarType type;
  const char *name;
  unsigned size;
};
constexpr TypeEntry kTypes[] = {
    {ScalarType::I1, "i1", 1},     {ScalarType::I8, "i8", 1},
    {ScalarType::I16, "i16", 2},   {ScalarType::I32, "i32", 4},
    {ScalarType::I64, "i64", 8},   {ScalarType::F16, "f16", 2},
    {ScalarType::BF16, "bf16", 2}, {ScalarType::F32, "f32", 4},
    {ScalarType::F64, "f64", 8},
};

const TypeEntry &entry(ScalarType type) {
  for (const TypeEntry &e : kTypes)
    if (e.type == type)
      return e;
  return kTypes[0];
}

std::vector<std::string_view> splitOn(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos - start));
    if (pos == std::string_view::npos)
      return parts;
    start = pos + 1;
  }
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  for (std::string_view w : splitOn(line, ' '))
    if (!w.empty())
      out.push_back(w);
  return out;
}

template <typename T> bool parseInt(std::string_view s, T &value) {
  if (s.empty())
    return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  return ec == std::errc() && ptr == s.data() + s.size();
}

std::string serializeGridDim(const std::vector<GridTerm> &terms) {
  if (terms.empty())
    return "-";
  std::string out;
  for (const GridTerm &t : terms) {
    if (!out.empty())
      out += '*';
    out += std::to_string(t.arg);
    if (t.dim)
      out += "." + std::to_string(*t.dim);
    out += "/" + std::to_string(t.perProgram);
  }
  return out;
}

bool parseGridDim(std::string_view text, std::vector<GridTerm> &terms) {
  terms.clear();
  if (text == "-")
    return true;
  for (std::string_view term : splitOn(text, '*')) {
    size_t slash = term.find('/');
    if (slash == std::string_view::npos)
      return false;
    GridTerm t;
    std::string_view source = term.substr(0, slash);
    if (!parseInt(term.substr(slash + 1), t.perProgram) || t.perProgram <= 0)
      return false;
    size_t dot = source.find('.');
    if (!parseInt(source.substr(0, dot), t.arg))
      return false;
    if (dot != std::string_view::npos) {
      unsigned dim;
      if (!parseInt(source.substr(dot + 1), dim))
        return false;
      t.dim = dim;
    }
    terms.push_back(t);
  }
  return true;
}

/// "?,?,64,1": one stride a dimension of `param`, `?` where dynamic.
bool parseStrides(std::string_view text, ParamInfo &param) {
  std::vector<std::string_view> fields = splitOn(text, ',');
  if (fields.size() != param.rank)
    return false;
  for (std::string_view field : fields) {
    int64_t stride = ParamInfo::kDynamicStride;
    if (field != "?" && (!parseInt(field, stride) || stride < 0))
      return false;
    param.strides.push_back(stride);
  }
  return true;
}

bool parseParam(std::string_view text, ParamInfo &param) {
  std::vector<std::string_view> fields = splitOn(text, ':');
  if (fields.size() == 2 && fields[0] == "scalar") {
    param.kind = ParamInfo::Kind::Scalar;
    param.rank = 0;
  } else if ((fields.size() == 3 || fields.size() == 4) &&
             fields[0] == "buffer") {
    param.kind = ParamInfo::Kind::Buffer;
    if (!parseInt(fields[2], param.rank) || param.rank == 0)
      return false;
    if (fields.size() == 4 && !parseStrides(fields[3], param))
      return false;
  } else {
    return false;
  }
  std::optional<ScalarType> type = parseScalarType(fields[1]);
  if (!type)
    return false;
  param.type = *type;
  return true;
}

/// ":?,1" (nothing where no stride is fixed).
std::string serializeStrides(const ParamInfo &param) {
  std::string out;
  for (int64_t stride : param.strides)
    out += (out.empty() ? ":" : ",") +
           (stride == ParamInfo::kDynamicStride ? std::string("?")
                                                : std::to_string(stride));
  return out;
}

std::string serializeTensorMap(const TensorMapInfo &map) {
  std::string out = std::to_string(map.arg) + ":";
  for (size_t i = 0; i < map.box.size(); ++i)
    out += (i ? "x" : "") + std::to_string(map.box[i]);
  out += ":" + std::to_string(map.swizzleBytes);
  if (map.fitDim)
    out += ":fit" + std::to_string(*map.fitDim);
  return out;
}

/// The syntax of one `ARG:BOX0xBOX1...:SWIZZLE[:fitDIM]` entry;
/// checkTensorMap judges its values.
bool parseTensorMap(std::string_view text, TensorMapInfo &map) {
  std::vector<std::string_view> fields = splitOn(text, ':');
  if ((fields.size() != 3 && fields.size() != 4) ||
      !parseInt(fields[0], map.arg) || !parseInt(fields[2], map.swizzleBytes))
    return false;
  if (fields.size() == 4) {
    unsigned dim = 0;
    std::string_view fit = fields[3];
    if (fit.substr(0, 3) != "fit" || !parseInt(fit.substr(3), dim))
      return false;
    map.fitDim = dim;
  }
  for (std::string_view extent : splitOn(fields[1], 'x')) {
    unsigned value;
    if (!parseInt(extent, value))
      return false;
    map.box.push_back(value);
  }
  return true;
}

/// Why the words of a `repitch ENTRY ...` line are not valid, or "" with
/// `entries` set. A second line is an error.
std::string parseRepitch(const std::vector<std::string_view> &w,
                         std::string_view line,
                         std::vector<RepitchArg> &entries) {
  if (w.size() < 2 || !entries.empty())
    return "repitch line '" + std::string(line) +
           "' is not one 'repitch ENTRY...'";
  for (size_t i = 1; i < w.size(); ++i) {
    std::vector<std::string_view> fields = splitOn(w[i], ':');
    RepitchArg entry;
    bool read = fields.size() == 3 && fields[1].size() == 1 &&
                fields[1].find_first_of("xyz") == 0 &&
                parseInt(fields[2], entry.minPrograms) &&
                entry.minPrograms != 0;
    bool written =
        fields.size() == 2 && (fields[1] == "out" || fields[1] == "inout");
    if (!(read || written) || !parseInt(fields[0], entry.arg))
      return "bad repitch entry '" + std::string(w[i]) +
             "' (ARG:AXIS:MIN with AXIS x, y or z and MIN >= 1, ARG:out or "
             "ARG:inout)";
    if (read)
      entry.axis = static_cast<unsigned>(fields[1][0] - 'x');
    else
      entry.use = fields[1] == "out" ? RepitchArg::Use::Write
                                     : RepitchArg::Use::ReadWrite;
    entries.push_back(entry);
  }
  return "";
}

/// Why the arguments of a `KEY ARG...` line do not fit `meta`, or "": each a
/// buffer argument, listed once, on a kernel with a fallback where
/// `needsFallback` (which runs when the condition the line guards fails).
std::string checkArgumentList(const LaunchMetadata &meta, const char *key,
                              const std::vector<unsigned> &args,
                              bool needsFallback) {
  for (size_t i = 0; i < args.size(); ++i) {
    unsigned arg = args[i];
    if (arg >= meta.params.size() ||
        meta.params[arg].kind != ParamInfo::Kind::Buffer)
      return std::string(key) + " argument " + std::to_string(arg) +
             " is not a buffer argument";
    for (size_t j = 0; j < i; ++j)
      if (args[j] == arg)
        return std::string(key) + " argument " + std::to_string(arg) +
               " is listed twice";
  }
  if (needsFallback && !args.empty() && meta.fallback.empty())
    return std::string(key) + " line without a fallback line";
  return "";
}

/// The `scratch` line's last word for each fill but EachLaunch (no word).
constexpr std::pair<ScratchFill, std::string_view> kScratchFillWords[] = {
    {ScratchFill::None, "unzeroed"},
    {ScratchFill::Counters, "counters"},
    {ScratchFill::Epochs, "epochs"}};

/// Why the words of a `scratch FIXED PER_PROGRAM [unzeroed|counters|epochs]`
/// line are not valid, or "" with `scratch` set.
std::string parseScratch(const std::vector<std::string_view> &w,
                         std::string_view line, ScratchInfo &scratch) {
  std::optional<ScratchFill> fill;
  if (w.size() == 3)
    fill = ScratchFill::EachLaunch;
  for (auto [f, word] : kScratchFillWords)
    if (w.size() == 4 && w[3] == word)
      fill = f;
  if (!fill)
    return "scratch line '" + std::string(line) +
           "' is not 'scratch FIXED PER_PROGRAM [unzeroed|counters|epochs]'";
  scratch.fill = *fill;
  uint64_t *fields[] = {&scratch.fixedBytes, &scratch.bytesPerProgram};
  for (int i = 0; i < 2; ++i) {
    std::string word(w[i + 1]);
    // Unsigned from_chars takes no sign, so "-4" fails here too.
    if (!parseInt(w[i + 1], *fields[i]))
      return "scratch size '" + word + "' is not a decimal byte count";
    // The runtime zero-fills the buffer in 4-byte words.
    if (*fields[i] % 4 != 0)
      return "scratch size '" + word + "' is not a multiple of 4";
  }
  if (!scratch.needed())
    return "scratch line '" + std::string(line) + "' asks for no bytes";
  return {};
}

/// Why the words of a `narrow KERNEL ARG[.DIM] MAX` line are not valid, or
/// "" with `narrow` set. checkNarrow judges ARG[.DIM] against the parameters.
std::string parseNarrow(const std::vector<std::string_view> &w,
                        std::string_view line, NarrowVariant &narrow) {
  if (w.size() != 4)
    return "narrow line '" + std::string(line) +
           "' is not 'narrow KERNEL ARG[.DIM] MAX'";
  narrow.kernel = std::string(w[1]);
  // ARG.DIM: a buffer dimension; ARG alone: an integer scalar's value.
  std::vector<std::string_view> source = splitOn(w[2], '.');
  narrow.dim.reset();
  unsigned dim = 0;
  if (source.size() > 2 || !parseInt(source[0], narrow.arg) ||
      (source.size() == 2 && !parseInt(source[1], dim)))
    return "narrow argument '" + std::string(w[2]) +
           "' is not 'ARG' or 'ARG.DIM'";
  if (source.size() == 2)
    narrow.dim = dim;
  // A bound of 0 would only ever pick the variant for empty buffers.
  if (!parseInt(w[3], narrow.atMost) || narrow.atMost == 0)
    return "narrow bound '" + std::string(w[3]) +
           "' is not a decimal element count of at least 1";
  return {};
}

/// Why narrow line `n` of `meta` does not name a dimension of a buffer
/// argument (ARG.DIM) or an integer scalar argument (ARG), or "" when it
/// does.
std::string checkNarrowLine(const LaunchMetadata &meta,
                            const NarrowVariant &n) {
  std::string what = "narrow line refers to ";
  if (n.arg >= meta.params.size())
    return what + "argument " + std::to_string(n.arg) + " of " +
           std::to_string(meta.params.size());
  const ParamInfo &p = meta.params[n.arg];
  if (!n.dim) {
    // The integer scalars a launch can pass (KernelArg holds no others).
    if (p.kind != ParamInfo::Kind::Scalar ||
        (p.type != ScalarType::I32 && p.type != ScalarType::I64))
      return what + "argument " + std::to_string(n.arg) +
             ", which is not an integer scalar";
  } else if (p.kind != ParamInfo::Kind::Buffer) {
    return what + "argument " + std::to_string(n.arg) +
           ", which is not a buffer";
  } else if (*n.dim >= p.rank) {
    return what + "dimension " + std::to_string(*n.dim) + " of argument " +
           std::to_string(n.arg) + ", a rank-" + std::to_string(p.rank) +
           " buffer";
  }
  // Nor would a kernel that is its own narrow variant launch anything else.
  if (n.kernel == meta.kernel)
    return "kernel '" + meta.kernel + "' is its own narrow variant";
  return {};
}

/// Why the narrow lines of `meta` are not valid (checkNarrowLine) or two
/// choose on the same ARG[.DIM] (a ladder of variants says that), or ""
/// when they are valid.
std::string checkNarrow(const LaunchMetadata &meta) {
  for (size_t i = 0; i < meta.narrow.size(); ++i) {
    const NarrowVariant &n = meta.narrow[i];
    if (std::string why = checkNarrowLine(meta, n); !why.empty())
      return why;
    for (size_t j = 0; j < i; ++j)
      if (meta.narrow[j].arg == n.arg && meta.narrow[j].dim == n.dim)
        return "two narrow lines choose on argument " + std::to_string(n.arg) +
               (n.dim ? "." + std::to_string(*n.dim) : std::string());
  }
  return {};
}

/// Why `map` cannot describe its argument, or "" when it can. These are the
/// rules of cuTensorMapEncodeTiled that do not depend on the argument values,
/// so that a bad descriptor fails when the kernel is loaded, not launched.
std::string checkTensorMap(const LaunchMetadata &meta,
                           const TensorMapInfo &map) {
  std::string what = "tensor map of argument " + std::to_string(map.arg);
  if (map.arg >= meta.params.size())
    return what + ": the kernel has " + std::to_string(meta.params.size()) +
           " arguments";
  const ParamInfo &p = meta.params[map.arg];
  if (p.kind != ParamInfo::Kind::Buffer)
    return what + ": the argument is not a buffer";
  if (map.box.size() != p.rank)
    return what + ": a rank-" + std::to_string(map.box.size()) +
           " box for a rank-" + std::to_string(p.rank) + " buffer";
  if (p.rank > TensorMapInfo::kMaxRank)
    return what + ": TMA describes at most " +
           std::to_string(TensorMapInfo::kMaxRank) + " dimensions";
  for (unsigned extent : map.box)
    if (extent == 0 || extent > TensorMapInfo::kMaxBox)
      return what + ": box extent " + std::to_string(extent) +
             " is not in 1.." + std::to_string(TensorMapInfo::kMaxBox);
  // The innermost extent sets the row bytes the kernel's layout assumes.
  if (map.fitDim && (*map.fitDim == 0 || *map.fitDim >= map.box.size()))
    return what + ": fitted box dimension " + std::to_string(*map.fitDim) +
           " is not an outer dimension of the box";
  unsigned swizzle = map.swizzleBytes;
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return what + ": swizzle " + std::to_string(swizzle) +
           " is not 0, 32, 64 or 128";
  uint64_t innerBytes = uint64_t(map.box[0]) * scalarTypeSize(p.type);
  if (innerBytes % 16 != 0)
    return what + ": its inner box of " + std::to_string(innerBytes) +
           " bytes is not a multiple of 16";
  if (swizzle != 0 && innerBytes > swizzle)
    return what + ": its inner box of " + std::to_string(innerBytes) +
           " bytes exceeds the " + std::to_string(swizzle) + "-byte swizzle";
  return {};
}
} // namespace

unsigned scalarTypeSize(ScalarType type) { return entry(type).size; }
const char *scalarTypeName(ScalarType type) { return entry(type).name; }

std::optional<ScalarType> parseScalarType(std::string_view name) {
  for (const TypeEntry &e : kTypes)
    if (name == e.name)
      return e.type;
  return std::nullopt;
}

std::string launchMetadataSymbol(std::string_view kernel) {
  return "__tilec_launch_" + std::string(kernel);
}

std::string serialize(const LaunchMetadata &meta) {
  std::ostringstream os;
  os << "tilec-launch " << LaunchMetadata::kVersion << "\n";
  os << "kernel " << meta.kernel << "\n";
  os << "params";
  for (const ParamInfo &p : meta.params) {
    if (p.kind == ParamInfo::Kind::Scalar)
      os << " scalar:" << scalarTypeName(p.type);
    else
      os << " buffer:" << scalarTypeName(p.type) << ":" << p.rank
         << serializeStrides(p);
  }
  os << "\n";
  if (!meta.tensorMaps.empty()) {
    os << "tensormaps";
    for (const TensorMapInfo &map : meta.tensorMaps)
      os << " " << serializeTensorMap(map);
    os << "\n";
  }
  if (!meta.alignedArgs.empty()) {
    os << "aligned";
    for (unsigned arg : meta.alignedArgs)
      os << " " << arg;
    os << "\n";
  }
  if (!meta.repitch.empty()) {
    os << "repitch";
    for (const RepitchArg &entry : meta.repitch) {
      os << " " << entry.arg << ":";
      if (entry.use == RepitchArg::Use::Read)
        os << "xyz"[entry.axis % 3] << ":" << entry.minPrograms;
      else
        os << (entry.use == RepitchArg::Use::Write ? "out" : "inout");
    }
    os << "\n";
  }
  if (!meta.fallback.empty())
    os << "fallback " << meta.fallback << "\n";
  if (!meta.smallGrid.kernel.empty())
    os << "smallgrid " << meta.smallGrid.kernel << " "
       << meta.smallGrid.percentOfSms << "\n";
  for (const NarrowVariant &narrow : meta.narrow) {
    os << "narrow " << narrow.kernel << " " << narrow.arg;
    if (narrow.dim)
      os << "." << *narrow.dim;
    os << " " << narrow.atMost << "\n";
  }
  if (meta.scratch.needed()) {
    os << "scratch " << meta.scratch.fixedBytes << " "
       << meta.scratch.bytesPerProgram;
    for (auto [fill, word] : kScratchFillWords)
      if (meta.scratch.fill == fill)
        os << " " << word;
    os << "\n";
  }
  if (!meta.then.empty())
    os << "then " << meta.then << "\n";
  if (meta.waitsForPrevious)
    os << "waits\n";
  if (meta.persistentBlocksPerSm)
    os << "persistent " << meta.persistentBlocksPerSm << "\n";
  if (meta.clusterX > 1)
    os << "cluster " << meta.clusterX << "\n";
  if (meta.splitBlocksPerSm) {
    os << "split " << meta.splitBlocksPerSm;
    if (meta.splitMinParts > 1)
      os << " " << meta.splitMinParts;
    os << "\n";
  }
  os << "block " << meta.block[0] << " " << meta.block[1] << " "
     << meta.block[2] << "\n";
  os << "grid";
  for (const std::vector<GridTerm> &dim : meta.grid)
    os << " " << serializeGridDim(dim);
  os << "\n";
  os << "shared " << meta.sharedBytes << "\n";
  return os.str();
}

std::optional<LaunchMetadata> parseLaunchMetadata(std::string_view text,
                                                  std::string *error) {
  auto fail = [&](std::string why) -> std::optional<LaunchMetadata> {
    if (error)
      *error = "malformed launch metadata: " + why;
    return std::nullopt;
  };
  LaunchMetadata meta;
  bool sawHeader = false, sawKernel = false, sawBlock = false, sawGrid = false;
  bool sawScratch = false;
  for (std::string_view line : splitOn(text, '\n')) {
    std::vector<std::string_view> w = words(line);
    if (w.empty())
      continue;
    std::string_view key = w[0];
    if (!sawHeader) {
      int version = 0;
      if (key != "tilec-launch" || w.size() != 2 || !parseInt(w[1], version))
        return fail("missing 'tilec-launch' header");
      if (version != LaunchMetadata::kVersion)
        return fail("unsupported version " + std::string(w[1]));
      sawHeader = true;
    } else if (key == "kernel" && w.size() == 2) {
      meta.kernel = std::string(w[1]);
      sawKernel = true;
    } else if (key == "params") {
      for (size_t i = 1; i < w.size(); ++i) {
        ParamInfo p;
        if (!parseParam(w[i], p))
          return fail("bad parameter '" + std::string(w[i]) + "'");
        meta.params.push_back(p);
      }
    } else if (key == "tensormaps") {
      for (size_t i = 1; i < w.size(); ++i) {
        TensorMapInfo map;
        if (!parseTensorMap(w[i], map))
          return fail("bad tensor map '" + std::string(w[i]) + "'");
        meta.tensorMaps.push_back(map);
      }
    } else if (key == "aligned") {
      if (w.size() < 2 || !meta.alignedArgs.empty())
        return fail("aligned line '" + std::string(line) +
                    "' is not one 'aligned ARG...'");
      for (size_t i = 1; i < w.size(); ++i) {
        unsigned arg = 0;
        if (!parseInt(w[i], arg))
          return fail("bad aligned argument '" + std::string(w[i]) + "'");
        meta.alignedArgs.push_back(arg);
      }
    } else if (key == "repitch") {
      if (std::string why = parseRepitch(w, line, meta.repitch); !why.empty())
        return fail(why);
    } else if (key == "fallback" && w.size() == 2) {
      meta.fallback = std::string(w[1]);
    } else if (key == "smallgrid") {
      if (w.size() != 3)
        return fail("smallgrid line '" + std::string(line) +
                    "' is not 'smallgrid KERNEL PERCENT'");
      meta.smallGrid.kernel = std::string(w[1]);
      // Above 100 the variant would run on grids that fill the GPU.
      unsigned &percent = meta.smallGrid.percentOfSms;
      if (!parseInt(w[2], percent) || percent == 0 || percent > 100)
        return fail("smallgrid percentage '" + std::string(w[2]) +
                    "' is not in 1..100");
    } else if (key == "narrow") {
      // Several lines, each on its own ARG[.DIM] (checkNarrow).
      NarrowVariant narrow;
      if (std::string why = parseNarrow(w, line, narrow); !why.empty())
        return fail(why);
      meta.narrow.push_back(std::move(narrow));
    } else if (key == "scratch") {
      // A second line would silently override the first.
      if (sawScratch)
        return fail("duplicate scratch line '" + std::string(line) + "'");
      if (std::string why = parseScratch(w, line, meta.scratch); !why.empty())
        return fail(why);
      sawScratch = true;
    } else if (key == "then") {
      if (w.size() != 2)
        return fail("then line '" + std::string(line) +
                    "' is not 'then KERNEL'");
      if (!meta.then.empty())
        return fail("duplicate then line '" + std::string(line) + "'");
      meta.then = std::string(w[1]);
    } else if (key == "persistent") {
      unsigned &blocks = meta.persistentBlocksPerSm;
      if (blocks)
        return fail("duplicate persistent line '" + std::string(line) + "'");
      // A multiprocessor holds at most 32 blocks.
      if (w.size() != 2 || !parseInt(w[1], blocks) || blocks == 0 ||
          blocks > 32)
        return fail("persistent line '" + std::string(line) +
                    "' is not 'persistent N' with N in 1..32");
    } else if (key == "waits") {
      if (meta.waitsForPrevious)
        return fail("duplicate waits line");
      if (w.size() != 1)
        return fail("waits line '" + std::string(line) +
                    "' has arguments; it takes none");
      meta.waitsForPrevious = true;
    } else if (key == "split") {
      unsigned &blocks = meta.splitBlocksPerSm;
      if (blocks)
        return fail("duplicate split line '" + std::string(line) + "'");
      unsigned &minParts = meta.splitMinParts;
      if ((w.size() != 2 && w.size() != 3) || !parseInt(w[1], blocks) ||
          blocks == 0 || blocks > 32 ||
          (w.size() == 3 &&
           (!parseInt(w[2], minParts) || minParts < 2 || minParts > 1024)))
        return fail("split line '" + std::string(line) +
                    "' is not 'split N' or 'split N P' with N in 1..32 and "
                    "P in 2..1024");
    } else if (key == "cluster") {
      if (meta.clusterX > 1)
        return fail("duplicate cluster line '" + std::string(line) + "'");
      // Portable cluster sizes: at most 8 blocks.
      if (w.size() != 2 || !parseInt(w[1], meta.clusterX) ||
          meta.clusterX < 2 || meta.clusterX > 8)
        return fail("cluster line '" + std::string(line) +
                    "' is not 'cluster X' with X in 2..8");
    } else if (key == "block" && w.size() == 4) {
      for (int i = 0; i < 3; ++i)
        if (!parseInt(w[i + 1], meta.block[i]) || meta.block[i] == 0)
          return fail("bad block size");
      sawBlock = true;
    } else if (key == "grid" && w.size() == 4) {
      for (int i = 0; i < 3; ++i)
        if (!parseGridDim(w[i + 1], meta.grid[i]))
          return fail("bad grid field '" + std::string(w[i + 1]) + "'");
      sawGrid = true;
    } else if (key == "shared" && w.size() == 2) {
      if (!parseInt(w[1], meta.sharedBytes))
        return fail("bad shared size");
    } else {
      return fail("unexpected line '" + std::string(line) + "'");
    }
  }
  if (!sawHeader || !sawKernel || !sawBlock || !sawGrid)
    return fail("missing kernel, block or grid line");
  for (const std::vector<GridTerm> &dim : meta.grid)
    for (const GridTerm &t : dim) {
      if (t.arg >= meta.params.size())
        return fail("grid refers to argument " + std::to_string(t.arg) +
                    " of " + std::to_string(meta.params.size()));
      const ParamInfo &p = meta.params[t.arg];
      if (t.dim ? (p.kind != ParamInfo::Kind::Buffer || *t.dim >= p.rank)
                : p.kind != ParamInfo::Kind::Scalar)
        return fail("grid term does not match argument " +
                    std::to_string(t.arg));
    }
  for (const TensorMapInfo &map : meta.tensorMaps)
    if (std::string why = checkTensorMap(meta, map); !why.empty())
      return fail(why);
  if (std::string why = checkArgumentList(meta, "aligned", meta.alignedArgs,
                                          /*needsFallback=*/true);
      !why.empty())
    return fail(why);
  std::vector<unsigned> repitched;
  for (const RepitchArg &entry : meta.repitch)
    repitched.push_back(entry.arg);
  // A kernel without a fallback refuses what no copy mends.
  if (std::string why = checkArgumentList(meta, "repitch", repitched,
                                          /*needsFallback=*/false);
      !why.empty())
    return fail(why);
  // Only a tensor map's buffer can be rejected by TMA's alignment rules.
  for (unsigned arg : repitched)
    if (std::none_of(meta.tensorMaps.begin(), meta.tensorMaps.end(),
                     [&](const TensorMapInfo &map) { return map.arg == arg; }))
      return fail("repitch argument " + std::to_string(arg) +
                  " has no tensor map");
  // A kernel that falls back to itself would never launch anything else.
  if (!meta.fallback.empty() && meta.fallback == meta.kernel)
    return fail("kernel '" + meta.kernel + "' is its own fallback");
  // Nor would one that is its own small-grid variant.
  if (meta.smallGrid.kernel == meta.kernel)
    return fail("kernel '" + meta.kernel + "' is its own smallgrid variant");
  if (std::string why = checkNarrow(meta); !why.empty())
    return fail(why);
  // The next kernel takes this one's scratch buffer, so there must be one.
  if (!meta.then.empty() && !meta.scratch.needed())
    return fail("then line without a scratch line");
  if (meta.then == meta.kernel)
    return fail("kernel '" + meta.kernel + "' is its own then kernel");
  // Clusters are rounded on the persistent grid only.
  if (meta.clusterX > 1 && !meta.persistentBlocksPerSm)
    return fail("cluster line without a persistent line");
  // A persistent grid is 1-D: there is no z to split.
  if (meta.splitBlocksPerSm && meta.persistentBlocksPerSm)
    return fail("split line with a persistent line");
  return meta;
}

namespace {
/// `blocksPerSm` capped by `residentPerSm` where that is known (positive).
uint64_t fittingBlocksPerSm(unsigned blocksPerSm, int residentPerSm) {
  if (residentPerSm <= 0)
    return blocksPerSm;
  return std::min<uint64_t>(blocksPerSm, uint64_t(residentPerSm));
}

/// `grid` with z capped at max(1, floor(N * multiprocessors / (x * y))),
/// or 1 when z is under the split line's fewest parts.
std::array<uint64_t, 3> splitGrid(const LaunchMetadata &meta,
                                  std::array<uint64_t, 3> grid,
                                  int multiprocessors, int residentPerSm) {
  if (grid[2] > 0 && grid[2] < meta.splitMinParts)
    grid[2] = 1;
  if (multiprocessors <= 0 || grid[0] == 0 || grid[1] == 0)
    return grid;
  uint64_t resident = fittingBlocksPerSm(meta.splitBlocksPerSm, residentPerSm) *
                      uint64_t(multiprocessors);
  // x * y may overflow; whenever it passes `resident`, z becomes 1.
  uint64_t programs = grid[0] > resident / grid[1] ? resident + 1
                                                   : grid[0] * grid[1];
  uint64_t splits = std::max<uint64_t>(resident / programs, 1);
  grid[2] = std::min(grid[2], splits);
  return grid;
}
} // namespace

bool thenRuns(const LaunchMetadata &meta,
              const std::array<uint64_t, 3> &launched) {
  if (meta.then.empty())
    return false;
  return !meta.splitBlocksPerSm || isEmptyGrid(launched) || launched[2] > 1;
}

std::array<uint64_t, 3> launchGrid(const LaunchMetadata &meta,
                                   const std::array<uint64_t, 3> &grid,
                                   int multiprocessors, int residentPerSm) {
  if (meta.splitBlocksPerSm)
    return splitGrid(meta, grid, multiprocessors, residentPerSm);
  if (!meta.persistentBlocksPerSm)
    return grid;
  uint64_t tiles = grid[0] * grid[1] * grid[2];
  uint64_t cluster = std::max(meta.clusterX, 1u);
  uint64_t blocks = (tiles + cluster - 1) / cluster * cluster;
  if (multiprocessors > 0) {
    uint64_t resident =
        fittingBlocksPerSm(meta.persistentBlocksPerSm, residentPerSm) *
        uint64_t(multiprocessors) / cluster * cluster;
    blocks = std::min(blocks, std::max(resident, cluster));
  }
  return {blocks, 1, 1};
}

bool prefersSmallGrid(const LaunchMetadata &meta,
                      const std::array<uint64_t, 3> &grid,
                      int multiprocessors) {
  if (meta.smallGrid.kernel.empty() || multiprocessors <= 0)
    return false;
  // blocks * 100 < percentOfSms * multiprocessors, i.e. blocks < bound,
  // computed without overflow.
  uint64_t limit = uint64_t(meta.smallGrid.percentOfSms) *
                   static_cast<uint64_t>(multiprocessors);
  uint64_t bound = limit / 100 + (limit % 100 != 0);
  uint64_t blocks = 1;
  for (size_t i = 0; i < grid.size(); ++i) {
    uint64_t extent = grid[i];
    // An empty grid launches nothing, so there is nothing to replace.
    if (extent == 0)
      return false;
    // A split grid's z only splits the work of its (x, y) programs.
    if (i == 2 && meta.splitBlocksPerSm != 0)
      continue;
    // blocks * extent > bound already: stop before the product overflows.
    if (blocks > bound / extent)
      return false;
    blocks *= extent;
  }
  return blocks < bound;
}

bool prefersNarrow(const NarrowVariant &narrow, uint64_t extent) {
  return !narrow.kernel.empty() && extent <= narrow.atMost;
}

uint64_t scratchBytesToZero(const ScratchInfo &info, bool allocated,
                            uint64_t launchBytes, ScratchState &state) {
  if (allocated)
    state.launchesSinceFill = ScratchInfo::kEpochsPerZeroFill;
  switch (info.fill) {
  case ScratchFill::None:
    return 0;
  case ScratchFill::EachLaunch:
    // Only what the launch may use: a large buffer left over from a larger
    // grid costs nothing to keep.
    return launchBytes;
  case ScratchFill::Counters:
    // Launches leave the counters zero: they need zeros only once.
    return allocated ? std::min(info.fixedBytes, state.capacityBytes) : 0;
  case ScratchFill::Epochs: {
    // All of it: a later, larger grid reads statuses past this one's.
    uint64_t bytes = 0;
    if (state.launchesSinceFill == ScratchInfo::kEpochsPerZeroFill) {
      bytes = state.capacityBytes;
      state.launchesSinceFill = 0;
    }
    ++state.launchesSinceFill;
    return bytes;
  }
  }
  return 0;
}

uint64_t scratchBytes(const LaunchMetadata &meta,
                      const std::array<uint64_t, 3> &grid) {
  constexpr uint64_t kMax = ~uint64_t(0);
  const ScratchInfo &s = meta.scratch;
  uint64_t perBlocks = s.bytesPerProgram;
  // An empty grid has no blocks however large its other dimensions, so look
  // for a zero before multiplying.
  for (uint64_t extent : grid)
    if (extent == 0)
      perBlocks = 0;
  for (uint64_t extent : grid) {
    if (perBlocks != 0 && extent > kMax / perBlocks)
      return kMax;
    perBlocks *= extent;
  }
  if (perBlocks > kMax - s.fixedBytes)
    return kMax;
  return s.fixedBytes + perBlocks;
}

std::array<uint64_t, 3> scratchGrid(const LaunchMetadata &meta,
                                    const std::array<uint64_t, 3> &grid,
                                    const std::array<uint64_t, 3> &launched) {
  return meta.persistentBlocksPerSm ? grid : launched;
}

} // namespace tilec
