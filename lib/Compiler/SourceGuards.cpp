//===- SourceGuards.cpp - Text the MLIR 22 parser must not see ------------===//

#include "tilec/Compiler/SourceGuards.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace tilec {

/// Calls `visit` with the offset of each character of `text` outside
/// comments and string literals (which end at their line's end) until it
/// returns true; that offset, if any.
static std::optional<size_t>
findInCode(StringRef text, llvm::function_ref<bool(size_t)> visit) {
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"' || c == '\n')
        inString = false;
      continue;
    }
    if (c == '"')
      inString = true;
    else if (c == '/' && text.substr(i).starts_with("//"))
      i = std::min(text.find('\n', i), text.size());
    else if (visit(i))
      return i;
  }
  return std::nullopt;
}

/// `text` without what MLIR's lexer skips before its next token: spaces,
/// tabs, line ends, NUL bytes and `//` comments (`array\0<index` is
/// `array<index` to the parser).
static StringRef dropTrivia(StringRef text) {
  while (true) {
    text = text.drop_while([](char c) {
      return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0';
    });
    if (!text.starts_with("//"))
      return text;
    text = text.drop_until([](char c) { return c == '\n'; });
  }
}

static bool isAliasChar(char c) {
  return isalnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
}

/// Whether `text` starts with the type `index` or an alias of it.
static bool startsWithIndexType(StringRef text,
                                const llvm::StringSet<> &indexAliases) {
  if (text.consume_front("index"))
    return text.empty() || !(isalnum(text[0]) || text[0] == '_');
  if (!text.consume_front("!"))
    return false;
  return indexAliases.contains(text.take_while(isAliasChar));
}

/// The type aliases that name `index` (`!i = index`, `!j = !i`), outside
/// comments and strings.
static llvm::StringSet<> findIndexAliases(StringRef text) {
  llvm::StringSet<> aliases;
  for (bool grew = true; grew;) {
    grew = false;
    findInCode(text, [&](size_t at) {
      if (text[at] != '!' || (at > 0 && isAliasChar(text[at - 1])))
        return false;
      StringRef name = text.drop_front(at + 1).take_while(isAliasChar);
      StringRef rest = dropTrivia(text.drop_front(at + 1 + name.size()));
      if (name.empty() || !rest.consume_front("=") ||
          !startsWithIndexType(dropTrivia(rest), aliases))
        return false;
      grew |= aliases.insert(name).second;
      return false;
    });
  }
  return aliases;
}

/// Where `text` holds `array<index` (or `array<` and an alias of index),
/// with anything the lexer skips around the `<`, outside comments and
/// strings.
static std::optional<size_t> findIndexArray(StringRef text) {
  llvm::StringSet<> aliases = findIndexAliases(text);
  return findInCode(text, [&](size_t at) {
    if (!text.substr(at).starts_with("array"))
      return false;
    StringRef rest = dropTrivia(text.drop_front(at + 5));
    return rest.consume_front("<") &&
           startsWithIndexType(dropTrivia(rest), aliases);
  });
}

/// Where `text` opens a `{`, `[` or `(` at a depth past kMaxNesting,
/// outside comments and strings.
static std::optional<size_t> findDeepNesting(StringRef text) {
  unsigned depth = 0;
  return findInCode(text, [&](size_t at) {
    char c = text[at];
    if (c == '{' || c == '[' || c == '(')
      return ++depth > kMaxNesting;
    if ((c == '}' || c == ']' || c == ')') && depth > 0)
      --depth;
    return false;
  });
}

LogicalResult checkSourceGuards(const llvm::SourceMgr &sourceMgr,
                                MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  auto errorAt = [&](size_t at) {
    auto [line, column] = sourceMgr.getLineAndColumn(
        llvm::SMLoc::getFromPointer(buffer->getBufferStart() + at));
    return emitError(FileLineColLoc::get(
        context, buffer->getBufferIdentifier(), line, column));
  };
  if (std::optional<size_t> at = findIndexArray(buffer->getBuffer())) {
    errorAt(*at) << "array<index: ...> attributes are not accepted: the "
                    "MLIR 22 parser crashes on them; use array<i64: ...>";
    return failure();
  }
  if (std::optional<size_t> at = findDeepNesting(buffer->getBuffer())) {
    errorAt(*at) << "nested more than " << kMaxNesting
                 << " levels deep (regions, attribute and operand lists)";
    return failure();
  }
  return success();
}

} // namespace tilec
