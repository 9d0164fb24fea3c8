// A small, defensive JSON reader and the writing helpers the launcher needs.
// The reader keeps numbers as their source text so that 64-bit integers and floats are
// converted exactly, once, by the code that knows their type. It bounds nesting depth and
// the number of values, and reports every syntax error with a byte offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gk {

inline constexpr int kMaxJsonDepth = 64;
inline constexpr size_t kMaxJsonValues = size_t(1) << 22;  // 4,194,304 values per document
inline constexpr size_t kMaxJsonMembers = 1024;              // members per object

struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object };
  Kind kind = Kind::Null;
  size_t offset = 0;  // byte offset of the value's first character
  bool boolean = false;
  std::string text;  // a Number's source text, or a String's decoded bytes
  std::vector<JsonValue> items;
  std::vector<std::pair<std::string, JsonValue>> members;

  // The member named `key`, or nullptr. Objects never hold duplicate keys.
  const JsonValue* get(const std::string& key) const;
  const JsonValue* get(const char* key) const {
    size_t n = std::char_traits<char>::length(key);
    for (const auto& m : members) {
      if (m.first.size() == n && m.first.compare(0, n, key, n) == 0) return &m.second;
    }
    return nullptr;
  }
  bool isNumber() const { return kind == Kind::Number; }
  bool isString() const { return kind == Kind::String; }
};

const char* jsonKindName(JsonValue::Kind k);

// Parses one JSON document (surrounding whitespace allowed). Throws LauncherError
// BAD_REQUEST with `offset` set on a syntax error, TOO_LARGE past the limits above.
JsonValue parseJson(const char* data, size_t size);

// Writing. Strings are escaped and invalid UTF-8 is replaced with U+FFFD, so the output is
// always valid JSON whatever bytes a message quotes.
void appendJsonString(std::string& out, const std::string& s);
void appendKey(std::string& out, const char* key);  // "key":
void appendUint(std::string& out, uint64_t v);
void appendInt(std::string& out, int64_t v);
void appendMs(std::string& out, double ms);  // fixed, 6 decimals; never NaN or Infinity

// A JSON number that is a non-negative integer ≤ max, from a JsonValue; false otherwise.
bool jsonToUint(const JsonValue& v, uint64_t max, uint64_t& out);

}  // namespace gk
