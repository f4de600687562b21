//===- LaunchMetadata.cpp - Launch metadata text format -------------------===//

#include "tilec/Runtime/LaunchMetadata.h"

#include <charconv>
#include <sstream>

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

bool parseParam(std::string_view text, ParamInfo &param) {
  std::vector<std::string_view> fields = splitOn(text, ':');
  if (fields.size() == 2 && fields[0] == "scalar") {
    param.kind = ParamInfo::Kind::Scalar;
    param.rank = 0;
  } else if (fields.size() == 3 && fields[0] == "buffer") {
    param.kind = ParamInfo::Kind::Buffer;
    if (!parseInt(fields[2], param.rank) || param.rank == 0)
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
      os << " buffer:" << scalarTypeName(p.type) << ":" << p.rank;
  }
  os << "\n";
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
  return meta;
}

} // namespace tilec
