//===- JsonFields.h - Type-checked reads of imported JSON -------*- C++ -*-===//
//
// Imports read other programs' files: every field they use is checked for
// presence, type and range here, through nlohmann-json's non-throwing
// accessors, so bad input becomes an error that names the field
// ("record.time_ms must be a number, not string \"abc\"") instead of an
// exception, an abort or a silently substituted default.
//
//===----------------------------------------------------------------------===//
#ifndef DLTUNE_LIB_TUNING_JSONFIELDS_H
#define DLTUNE_LIB_TUNING_JSONFIELDS_H

#include "dltune/Tuning/Support/Error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace mlir::dltune {

using json = nlohmann::json;

/// Deeper documents are refused: printing a value (dump) recurses once per
/// level, and no file dltune reads nests more than a few levels.
constexpr int kMaxJsonDepth = 64;

/// The deepest nesting of objects and lists in `text` (brackets inside
/// strings do not count; JSON has no comments), counted up to the first
/// level past kMaxJsonDepth. Linear in the text; malformed text gets some
/// count and is refused by the parser.
inline int getJsonNestingDepth(llvm::StringRef text) {
  int depth = 0, deepest = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
      if (deepest > kMaxJsonDepth)
        return deepest;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return deepest;
}

/// Parses `text` without exceptions; the error says what is wrong. The
/// depth is checked by a scan first, not by a parser callback: with a
/// callback nlohmann-json walks the enclosing object at the end of each
/// member object, quadratic in the members (reading a recorded Kernel
/// Tuner cache of 16 MB took ~16 s, ~88% of it in that walk).
inline llvm::Expected<json> parseJson(llvm::StringRef text) {
  if (getJsonNestingDepth(text) > kMaxJsonDepth)
    return makeError("JSON nested deeper than " + llvm::Twine(kMaxJsonDepth) +
                     " levels");
  json j = json::parse(text.begin(), text.end(), /*cb=*/nullptr,
                       /*allow_exceptions=*/false);
  if (j.is_discarded())
    return makeError("invalid JSON");
  return j;
}

/// A short, printable form of `v` for messages.
inline std::string describeJson(const json &v) {
  std::string text = v.dump(-1, ' ', /*ensure_ascii=*/true,
                            json::error_handler_t::replace);
  if (text.size() > 40)
    text = text.substr(0, 37) + "...";
  return std::string(v.type_name()) + " " + text;
}

/// Reads the fields of one JSON object and keeps the first problem. Every
/// read leaves `out` untouched unless the field is present and valid.
class FieldReader {
public:
  enum Presence {
    Required, // missing or null is an error
    Optional, // may be missing; null is an error
    Nullable  // may be missing or null
  };

  /// `prefix` names the object in messages ("record" -> "record.time_ms").
  FieldReader(const json &object, std::string prefix)
      : object(object), prefix(std::move(prefix)) {
    if (!object.is_object())
      fail("must be an object, not " + describeJson(object));
  }

  /// The field's value, or nullptr when it is absent (or null and allowed).
  const json *get(const char *key, Presence presence) {
    if (!ok())
      return nullptr;
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
      if (presence == Required ||
          (it != object.end() && presence == Optional))
        failField(key, it == object.end() ? "is missing" : "must not be null");
      return nullptr;
    }
    return &*it;
  }

  void string(const char *key, std::string &out, Presence presence = Optional,
              bool nonEmpty = false) {
    const json *v = get(key, presence);
    if (!v)
      return;
    if (!v->is_string())
      return failField(key, "must be a string, not " + describeJson(*v));
    const std::string &s = v->get_ref<const std::string &>();
    // The database stores C strings: a NUL would silently cut the text.
    if (s.find('\0') != std::string::npos)
      return failField(key, "must not contain NUL characters");
    if (nonEmpty && s.empty())
      return failField(key, "must not be empty");
    out = s;
  }

  /// A finite number (and not negative when `nonNegative`).
  void number(const char *key, double &out, Presence presence = Optional,
              bool nonNegative = false) {
    const json *v = get(key, presence);
    if (!v)
      return;
    if (!v->is_number())
      return failField(key, "must be a number, not " + describeJson(*v));
    double d = v->get<double>();
    if (!std::isfinite(d))
      return failField(key, "must be finite");
    if (nonNegative && d < 0)
      return failField(key, "must not be negative");
    out = d;
  }

  /// An integer in [min, max] (a JSON number written without a fraction).
  void integer(const char *key, int64_t &out, Presence presence = Optional,
               int64_t min = std::numeric_limits<int64_t>::min(),
               int64_t max = std::numeric_limits<int64_t>::max()) {
    const json *v = get(key, presence);
    if (!v)
      return;
    std::optional<int64_t> i = toInteger(*v);
    if (!i || *i < min || *i > max)
      return failField(key, "must be an integer in [" + std::to_string(min) +
                                ", " + std::to_string(max) + "], not " +
                                describeJson(*v));
    out = *i;
  }

  void boolean(const char *key, bool &out, Presence presence = Optional) {
    const json *v = get(key, presence);
    if (!v)
      return;
    if (!v->is_boolean())
      return failField(key, "must be true or false, not " + describeJson(*v));
    out = v->get<bool>();
  }

  /// A required field that must be an object.
  const json *child(const char *key) {
    const json *v = get(key, Required);
    if (v && !v->is_object()) {
      failField(key, "must be an object, not " + describeJson(*v));
      return nullptr;
    }
    return v;
  }

  bool ok() const { return error.empty(); }
  /// Records a problem found by the caller (the first one stands).
  void fail(const std::string &msg) {
    if (error.empty())
      error = prefix + " " + msg;
  }
  void failField(const char *key, const std::string &msg) {
    if (error.empty())
      error = (prefix.empty() ? "" : prefix + ".") + key + " " + msg;
  }
  llvm::Error takeError() {
    if (error.empty())
      return llvm::Error::success();
    return makeError(error);
  }

  /// `v` as an int64_t, if it is an integer that fits.
  static std::optional<int64_t> toInteger(const json &v) {
    if (v.is_number_unsigned()) {
      uint64_t u = v.get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return std::nullopt;
      return static_cast<int64_t>(u);
    }
    if (v.is_number_integer())
      return v.get<int64_t>();
    return std::nullopt;
  }

private:
  const json &object;
  std::string prefix;
  std::string error;
};

/// The problems found in one input file. Imports check every record and
/// import nothing from a file with any, so the user sees all of them (the
/// first kMaxListed) at once.
class ImportErrors {
public:
  explicit ImportErrors(std::string file) : file(std::move(file)) {}

  /// `where` follows the file name: ":12" for a line, or ": entry 'x'".
  void add(const std::string &where, const std::string &msg) {
    if (count++ < kMaxListed)
      listed += (listed.empty() ? "" : "\n") + file + where + ": " + msg;
  }
  void addLine(int64_t line, llvm::Error err) {
    add(":" + std::to_string(line), llvm::toString(std::move(err)));
  }
  bool empty() const { return count == 0; }

  /// One line per problem, then a count when there are several.
  llvm::Error take() {
    if (count == 0)
      return llvm::Error::success();
    if (count == 1)
      return makeError(listed);
    std::string msg = listed;
    if (count > kMaxListed)
      msg += "\n... and " + std::to_string(count - kMaxListed) + " more";
    return makeError(msg + "\n" + file + ": " + std::to_string(count) +
                     " invalid records");
  }

private:
  static constexpr int64_t kMaxListed = 20;
  std::string file, listed;
  int64_t count = 0;
};

} // namespace mlir::dltune

#endif // DLTUNE_LIB_TUNING_JSONFIELDS_H
