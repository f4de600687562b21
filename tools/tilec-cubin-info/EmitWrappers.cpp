//===- EmitWrappers.cpp - Typed C++ launchers for compiled kernels --------===//
//
//   tilec-cubin-info --emit-wrappers --name NAME --header OUT.h
//                    --source OUT.cpp [--header-include PATH]
//                    [--mlir FILE.mlir] ARCH=FILE.cubin...
//
// What tilec_add_kernels (cmake/TilecKernels.cmake) runs after tilec: writes
// OUT.cpp, holding every cubin's bytes, and OUT.h, declaring in namespace
// NAME one function per entry kernel (a kernel that is no other kernel's
// fallback, small-grid, narrow or then variant: the runtime dispatches to
// those), typed from the launch metadata, which launches that kernel on a
// stream from the cubin for the stream's device (tilec::rt::EmbeddedKernels).
// Every cubin must hold the same entry kernels with the same parameters.
// Parameter names are taken from the `tile.kernel @name(%a: ..., ...)`
// signatures of FILE.mlir where it has them, else p0, p1, ...
//
//===----------------------------------------------------------------------===//

#include "tilec/Runtime/CubinInfo.h"
#include "tilec/Runtime/EmbeddedKernels.h"
#include "tilec/Runtime/KernelArgs.h"
#include "tilec/Runtime/LaunchMetadata.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using tilec::LaunchMetadata;
using tilec::ParamInfo;
using tilec::ScalarType;

namespace {

const char kUsage[] =
    "usage: tilec-cubin-info --emit-wrappers --name NAME --header OUT.h\n"
    "                        --source OUT.cpp [--header-include PATH]\n"
    "                        [--mlir FILE.mlir] ARCH=FILE.cubin...\n";

struct Failure {
  std::string message;
};

[[noreturn]] void fail(const std::string &message) { throw Failure{message}; }

bool isIdentifier(const std::string &s) {
  if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_'))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum((unsigned char)c) || c == '_';
  });
}

bool isKeyword(const std::string &s) {
  static const std::set<std::string> kKeywords = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand",
      "bitor", "bool", "break", "case", "catch", "char", "char8_t",
      "char16_t", "char32_t", "class", "compl", "concept", "const",
      "consteval", "constexpr", "constinit", "const_cast", "continue",
      "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export",
      "extern", "false", "float", "for", "friend", "goto", "if", "inline",
      "int", "long", "mutable", "namespace", "new", "noexcept", "not",
      "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected",
      "public", "register", "reinterpret_cast", "requires", "return",
      "short", "signed", "sizeof", "static", "static_assert", "static_cast",
      "struct", "switch", "template", "this", "thread_local", "throw",
      "true", "try", "typedef", "typeid", "typename", "union", "unsigned",
      "using", "virtual", "void", "volatile", "wchar_t", "while", "xor",
      "xor_eq", "std"};
  return kKeywords.count(s) != 0;
}

/// A name the generated code may declare in namespace NAME: an identifier,
/// no keyword, and not starting with `tilec_` (the generated code's own).
bool isFreeName(const std::string &s) {
  return isIdentifier(s) && !isKeyword(s) && s.rfind("tilec_", 0) != 0 &&
         s.find("__") == std::string::npos;
}

/// The C++ type of a buffer's elements.
std::string elementType(ScalarType type) {
  switch (type) {
  case ScalarType::I1:
    return "bool";
  case ScalarType::I8:
    return "std::int8_t";
  case ScalarType::I16:
    return "std::int16_t";
  case ScalarType::I32:
    return "std::int32_t";
  case ScalarType::I64:
    return "std::int64_t";
  case ScalarType::F16:
    return "::tilec::rt::Half";
  case ScalarType::BF16:
    return "::tilec::rt::BFloat16";
  case ScalarType::F32:
    return "float";
  case ScalarType::F64:
    return "double";
  }
  return "void";
}

/// The C++ type of a scalar parameter; empty where the runtime cannot pass
/// one (i1, i8).
std::string scalarType(ScalarType type) {
  switch (type) {
  case ScalarType::I1:
  case ScalarType::I8:
    return "";
  default:
    return elementType(type);
  }
}

std::string paramType(const ParamInfo &p) {
  if (p.kind == ParamInfo::Kind::Buffer)
    return "const ::tilec::rt::TypedView<" + elementType(p.type) + "> &";
  return scalarType(p.type) + " ";
}

std::string describe(const std::vector<ParamInfo> &params) {
  std::string s = "(";
  for (size_t i = 0; i < params.size(); ++i)
    s += (i ? ", " : "") + tilec::rt::describeParam(params[i]);
  return s + ")";
}

/// The launch rule in words: "ceil(dim 0 of x / 1024) x 1 x 1 blocks of 128
/// threads".
std::string describeLaunch(const LaunchMetadata &meta,
                           const std::vector<std::string> &names) {
  std::string grid;
  for (unsigned d = 0; d < 3; ++d) {
    std::string dim;
    for (const tilec::GridTerm &t : meta.grid[d]) {
      std::string arg =
          t.arg < names.size() ? names[t.arg] : "arg" + std::to_string(t.arg);
      std::string extent =
          t.dim ? "dim " + std::to_string(*t.dim) + " of " + arg : arg;
      std::string term = t.perProgram == 1
                             ? extent
                             : "ceil(" + extent + " / " +
                                   std::to_string(t.perProgram) + ")";
      dim += (dim.empty() ? "" : " * ") + term;
    }
    grid += (d ? " x " : "") + (dim.empty() ? std::string("1") : dim);
  }
  std::string persistent =
      meta.persistentBlocksPerSm
          ? " tiles walked by at most " +
                std::to_string(meta.persistentBlocksPerSm) +
                " block(s) a multiprocessor" +
                (meta.clusterX > 1
                     ? " in clusters of " + std::to_string(meta.clusterX)
                     : std::string())
          : "";
  if (meta.splitBlocksPerSm)
    persistent += ", z capped at " + std::to_string(meta.splitBlocksPerSm) +
                  " block(s) a multiprocessor in all";
  if (meta.splitBlocksPerSm && meta.splitMinParts > 1)
    persistent +=
        ", unsplit under " + std::to_string(meta.splitMinParts) + " parts";
  return "grid " + grid + persistent + ", block " +
         std::to_string(meta.block[0]) + "x" + std::to_string(meta.block[1]) +
         "x" + std::to_string(meta.block[2]);
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    fail("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// The argument names of each `tile.kernel @name(%a: type, ...)` in `text`,
/// as written (`%` dropped); best effort: a signature it cannot read is left
/// out.
std::map<std::string, std::vector<std::string>>
kernelArgNames(const std::string &text) {
  // Comments out, so that `(` or `@` in them do not count.
  std::string code;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n')
        ++i;
    }
    if (i < text.size())
      code += text[i];
  }
  std::map<std::string, std::vector<std::string>> result;
  const std::string kOp = "tile.kernel";
  for (size_t at = code.find(kOp); at != std::string::npos;
       at = code.find(kOp, at + 1)) {
    size_t i = at + kOp.size();
    while (i < code.size() && std::isspace((unsigned char)code[i]))
      ++i;
    if (i >= code.size() || code[i] != '@')
      continue;
    size_t nameEnd = code.find('(', i);
    if (nameEnd == std::string::npos)
      continue;
    std::string name = code.substr(i + 1, nameEnd - i - 1);
    while (!name.empty() && std::isspace((unsigned char)name.back()))
      name.pop_back();
    // The arguments: split on commas outside (), <>, [], {}.
    std::vector<std::string> args;
    std::string current;
    int depth = 0;
    size_t j = nameEnd + 1;
    bool closed = false;
    for (; j < code.size(); ++j) {
      char c = code[j];
      if (depth == 0 && c == ')') {
        closed = true;
        break;
      }
      if (c == '(' || c == '<' || c == '[' || c == '{')
        ++depth;
      else if (c == ')' || c == '>' || c == ']' || c == '}')
        --depth;
      if (depth == 0 && c == ',') {
        args.push_back(current);
        current.clear();
      } else {
        current += c;
      }
    }
    if (!closed)
      continue;
    if (current.find_first_not_of(" \t\r\n") != std::string::npos)
      args.push_back(current);
    std::vector<std::string> names;
    for (const std::string &arg : args) {
      size_t percent = arg.find('%');
      size_t colon = arg.find(':');
      if (percent == std::string::npos || colon == std::string::npos ||
          colon < percent) {
        names.clear();
        break;
      }
      std::string n = arg.substr(percent + 1, colon - percent - 1);
      while (!n.empty() && std::isspace((unsigned char)n.back()))
        n.pop_back();
      names.push_back(n);
    }
    if (names.size() == args.size())
      result.emplace(name, names);
  }
  return result;
}

struct ArchCubin {
  std::string arch;
  std::string path;
  std::string bytes;
  /// Entry kernels by name.
  std::map<std::string, LaunchMetadata> entries;
};

/// The entry kernels of a cubin: those with launch metadata that no other
/// kernel names as a variant.
std::map<std::string, LaunchMetadata> entryKernels(const ArchCubin &cubin) {
  std::string error;
  std::optional<tilec::rt::CubinInfo> info =
      tilec::rt::parseCubin(cubin.bytes, &error);
  if (!info)
    fail(cubin.path + ": " + error);
  std::map<std::string, LaunchMetadata> all;
  for (const tilec::rt::CubinKernel &kernel : info->kernels) {
    for (const tilec::rt::CubinLaunchSymbol &sym : info->launchSymbols) {
      if (sym.symbol != tilec::launchMetadataSymbol(kernel.name))
        continue;
      std::optional<LaunchMetadata> meta =
          tilec::parseLaunchMetadata(sym.text, &error);
      if (!meta)
        fail(cubin.path + ": kernel '" + kernel.name + "': " + error);
      all.emplace(kernel.name, *meta);
    }
  }
  std::set<std::string> variants;
  for (const auto &[name, meta] : all) {
    for (const std::string *v :
         {&meta.fallback, &meta.smallGrid.kernel, &meta.then})
      if (!v->empty())
        variants.insert(*v);
    for (const tilec::NarrowVariant &n : meta.narrow)
      variants.insert(n.kernel);
  }
  std::map<std::string, LaunchMetadata> entries;
  for (const auto &[name, meta] : all)
    if (!variants.count(name))
      entries.emplace(name, meta);
  return entries;
}

std::string joinNames(const std::map<std::string, LaunchMetadata> &kernels) {
  std::string s;
  for (const auto &entry : kernels)
    s += (s.empty() ? "" : ", ") + entry.first;
  return s.empty() ? "none" : s;
}

struct Wrapper {
  std::string kernel;
  std::vector<ParamInfo> params;
  std::vector<std::string> names;
  /// Per arch (or one for all): the launch rule.
  std::vector<std::string> launches;
};

/// `void kernel(const ::tilec::rt::Stream &stream, T0 name0, ...)`, wrapped
/// at 80 columns.
std::string signature(const Wrapper &w) {
  std::string head = "void " + w.kernel + "(";
  std::string indent(head.size(), ' ');
  std::string text;
  std::string line = head + "const ::tilec::rt::Stream &stream";
  for (size_t i = 0; i < w.params.size(); ++i) {
    std::string param = paramType(w.params[i]) + w.names[i];
    if (line.size() + 2 + param.size() + 1 > 80) {
      text += line + ",\n";
      line = indent + param;
    } else {
      line += ", " + param;
    }
  }
  return text + line + ")";
}

void writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out)
    fail("cannot write " + path);
}

std::string baseName(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

int emitWrappers(int argc, char **argv) {
  std::string name, header, source, headerInclude, mlir;
  std::vector<ArchCubin> cubins;
  try {
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      auto value = [&](std::string &out) {
        if (i + 1 >= argc)
          fail(arg + " needs a value\n" + kUsage);
        out = argv[++i];
      };
      if (arg == "--emit-wrappers")
        continue;
      if (arg == "-h" || arg == "--help") {
        std::fputs(kUsage, stdout);
        return 0;
      }
      if (arg == "--name")
        value(name);
      else if (arg == "--header")
        value(header);
      else if (arg == "--source")
        value(source);
      else if (arg == "--header-include")
        value(headerInclude);
      else if (arg == "--mlir")
        value(mlir);
      else if (arg.size() > 1 && arg[0] == '-')
        fail("unknown option '" + arg + "'\n" + kUsage);
      else {
        size_t eq = arg.find('=');
        if (eq == std::string::npos)
          fail("'" + arg + "' is not ARCH=FILE.cubin\n" + kUsage);
        ArchCubin cubin;
        cubin.arch = arg.substr(0, eq);
        cubin.path = arg.substr(eq + 1);
        if (!tilec::rt::CubinArch::parse(cubin.arch))
          fail("'" + cubin.arch +
               "' is not an architecture (sm_80, sm_90a, ...)");
        for (const ArchCubin &other : cubins)
          if (other.arch == cubin.arch)
            fail("two cubins for " + cubin.arch);
        cubins.push_back(std::move(cubin));
      }
    }
    if (name.empty() || header.empty() || source.empty() || cubins.empty())
      fail(std::string("--name, --header, --source and at least one "
                       "ARCH=FILE.cubin are needed\n") +
           kUsage);
    if (!isIdentifier(name) || isKeyword(name))
      fail("--name '" + name + "' is not a C++ identifier (or is a "
           "keyword): it names the namespace of the functions (with "
           "tilec_add_kernels, rename the .mlir file)");
    if (headerInclude.empty())
      headerInclude = baseName(header);
    std::string sourceName = mlir.empty() ? name : baseName(mlir);

    for (ArchCubin &cubin : cubins) {
      cubin.bytes = readFile(cubin.path);
      cubin.entries = entryKernels(cubin);
    }
    const ArchCubin &first = cubins.front();
    if (first.entries.empty())
      fail(first.path + " (" + first.arch +
           ") has no tilec kernel (no launch metadata)");
    for (const ArchCubin &other : cubins) {
      bool sameNames = other.entries.size() == first.entries.size() &&
                       std::equal(other.entries.begin(), other.entries.end(),
                                  first.entries.begin(),
                                  [](const auto &a, const auto &b) {
                                    return a.first == b.first;
                                  });
      if (!sameNames)
        fail("the cubins of " + sourceName +
             " differ in their entry kernels: " + first.arch + " (" +
             first.path + ") has " + joinNames(first.entries) + "; " +
             other.arch + " (" + other.path + ") has " +
             joinNames(other.entries));
      for (const auto &[kernel, meta] : other.entries) {
        const LaunchMetadata &want = first.entries.at(kernel);
        if (!(meta.params == want.params))
          fail("the cubins of " + sourceName + " differ in the parameters "
               "of kernel '" + kernel + "': " + describe(want.params) +
               " for " + first.arch + " (" + first.path + "), " +
               describe(meta.params) + " for " + other.arch + " (" +
               other.path + ")");
      }
    }

    std::map<std::string, std::vector<std::string>> sourceNames;
    std::string mlirText;
    if (!mlir.empty()) {
      mlirText = readFile(mlir);
      sourceNames = kernelArgNames(mlirText);
    }

    // The wrappers, in the order the kernels appear in the source (by name
    // where it does not say).
    std::vector<Wrapper> wrappers;
    for (const auto &[kernel, meta] : first.entries) {
      if (!isFreeName(kernel))
        fail("kernel '" + kernel + "' of " + sourceName +
             " cannot be a C++ function of that name (not an identifier, a "
             "keyword, or starting with tilec_ or holding __); rename it");
      Wrapper w;
      w.kernel = kernel;
      w.params = meta.params;
      for (size_t i = 0; i < meta.params.size(); ++i) {
        const ParamInfo &p = meta.params[i];
        if (p.kind == ParamInfo::Kind::Scalar && scalarType(p.type).empty())
          fail("kernel '" + kernel + "' of " + sourceName + ": parameter " +
               std::to_string(i) + " is " + tilec::rt::describeParam(p) +
               ", which the runtime cannot pass");
      }
      // Names from the source where every one is usable.
      auto found = sourceNames.find(kernel);
      if (found != sourceNames.end() &&
          found->second.size() == meta.params.size()) {
        std::set<std::string> seen;
        bool usable = true;
        for (const std::string &n : found->second)
          usable = usable && isFreeName(n) && n != "stream" && n != kernel &&
                   seen.insert(n).second;
        if (usable)
          w.names = found->second;
      }
      if (w.names.empty())
        for (size_t i = 0; i < meta.params.size(); ++i)
          w.names.push_back("p" + std::to_string(i));
      std::string launch0 = describeLaunch(meta, w.names);
      bool same = true;
      for (const ArchCubin &c : cubins)
        same = same && describeLaunch(c.entries.at(kernel), w.names) == launch0;
      if (same)
        w.launches.push_back(launch0);
      else
        for (const ArchCubin &c : cubins)
          w.launches.push_back(c.arch + ": " +
                               describeLaunch(c.entries.at(kernel), w.names));
      wrappers.push_back(std::move(w));
    }
    auto position = [&](const std::string &kernel) {
      size_t at = mlirText.find("@" + kernel);
      return at == std::string::npos ? mlirText.size() : at;
    };
    std::stable_sort(wrappers.begin(), wrappers.end(),
                     [&](const Wrapper &a, const Wrapper &b) {
                       return position(a.kernel) < position(b.kernel);
                     });

    std::string archs;
    for (const ArchCubin &c : cubins)
      archs += (archs.empty() ? "" : ", ") + c.arch;
    std::string guard = "TILEC_KERNELS_" + name + "_H";
    std::transform(guard.begin(), guard.end(), guard.begin(),
                   [](unsigned char c) { return std::toupper(c); });

    std::ostringstream h;
    h << "// Generated by tilec-cubin-info --emit-wrappers (tilec " TILEC_VERSION
         ") from\n// "
      << sourceName << ", compiled for " << archs
      << "; do not edit (see tilec_add_kernels).\n"
      << "#ifndef " << guard << "\n#define " << guard << "\n\n"
      << "#include \"tilec/Runtime/EmbeddedKernels.h\"\n"
      << "#include \"tilec/Runtime/Runtime.h\"\n\n"
      << "#include <cstdint>\n\n"
      << "namespace " << name << " {\n";
    for (const Wrapper &w : wrappers) {
      h << "\n/// Launches kernel `" << w.kernel << "` on `stream`, "
        << "asynchronously, as\n/// tilec::rt::Kernel::launch does "
        << "(arguments checked, grid computed, variant\n/// chosen); "
        << "the first launch on a device loads the cubin of " << sourceName
        << "\n/// for it (" << archs << ").\n";
      for (size_t i = 0; i < w.params.size(); ++i) {
        const ParamInfo &p = w.params[i];
        h << "///   " << w.names[i] << ": " << tilec::rt::describeParam(p);
        if (p.kind == ParamInfo::Kind::Buffer)
          h << " (" << tilec::scalarTypeName(p.type) << " elements, rank "
            << p.rank << ")";
        h << "\n";
      }
      for (const std::string &launch : w.launches)
        h << "///   " << launch << "\n";
      h << signature(w) << ";\n";
    }
    h << "\n/// The cubins of " << sourceName
      << " and their entry kernels (in the order of\n/// the functions above), "
         "loaded per device on first use.\n"
      << "const ::tilec::rt::EmbeddedKernels &tilec_embedded();\n"
      << "\n} // namespace " << name << "\n\n#endif // " << guard << "\n";

    std::ostringstream s;
    s << "// Generated by tilec-cubin-info --emit-wrappers (tilec " TILEC_VERSION
         ") from\n// "
      << sourceName << ", compiled for " << archs
      << "; do not edit (see tilec_add_kernels).\n"
      << "#include \"" << headerInclude << "\"\n\n"
      << "namespace " << name << " {\nnamespace {\n";
    for (size_t c = 0; c < cubins.size(); ++c) {
      s << "\n// " << cubins[c].arch << ": " << baseName(cubins[c].path) << ", "
        << cubins[c].bytes.size() << " bytes.\n"
        << "alignas(64) const unsigned char tilec_cubin_" << c << "[] = {";
      size_t column = 80;
      for (unsigned char byte : cubins[c].bytes) {
        std::string item = std::to_string(byte) + ",";
        if (column + item.size() > 79) {
          s << "\n";
          column = 0;
        }
        s << item;
        column += item.size();
      }
      s << "\n};\n";
    }
    s << "\nconst ::tilec::rt::EmbeddedCubin tilec_cubins[] = {\n";
    for (size_t c = 0; c < cubins.size(); ++c)
      s << "    {\"" << cubins[c].arch << "\", tilec_cubin_" << c
        << ", sizeof tilec_cubin_" << c << "},\n";
    s << "};\n\nconst char *const tilec_kernel_names[] = {\n";
    for (const Wrapper &w : wrappers)
      s << "    \"" << w.kernel << "\",\n";
    s << "};\n} // namespace\n\n"
      << "const ::tilec::rt::EmbeddedKernels &tilec_embedded() {\n"
      << "  // Never destroyed: the modules it loads stay loaded until the "
         "program exits.\n"
      << "  static const ::tilec::rt::EmbeddedKernels *kernels =\n"
      << "      new ::tilec::rt::EmbeddedKernels(\"" << sourceName
      << "\", tilec_cubins, " << cubins.size() << ",\n"
      << "                                       tilec_kernel_names, "
      << wrappers.size() << ");\n"
      << "  return *kernels;\n}\n";
    for (size_t k = 0; k < wrappers.size(); ++k) {
      const Wrapper &w = wrappers[k];
      s << "\n" << signature(w) << " {\n  tilec_embedded().kernel(stream, "
        << k << ").launch(\n      stream";
      for (size_t i = 0; i < w.params.size(); ++i) {
        const ParamInfo &p = w.params[i];
        if (p.kind == ParamInfo::Kind::Scalar && p.type == ScalarType::I16)
          s << ", ::tilec::rt::Raw16{::tilec::ScalarType::I16, "
               "static_cast<std::uint16_t>("
            << w.names[i] << ")}";
        else
          s << ", " << w.names[i];
      }
      s << ");\n}\n";
    }
    s << "\n} // namespace " << name << "\n";

    writeFile(header, h.str());
    writeFile(source, s.str());
    return 0;
  } catch (const Failure &f) {
    std::fprintf(stderr, "tilec-cubin-info: error: %s\n", f.message.c_str());
    // No stale output that a build would take as up to date.
    if (!header.empty())
      std::remove(header.c_str());
    if (!source.empty())
      std::remove(source.c_str());
    return 1;
  }
}
