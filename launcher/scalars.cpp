#include "scalars.hpp"

#include <cstdlib>
#include <cstring>

#include "errors.hpp"

namespace gk {

namespace {

struct ElemInfo {
  Elem elem;
  const char* name;
  size_t size;
};

const ElemInfo kElems[] = {
    {Elem::Bool, "bool", 1}, {Elem::I32, "i32", 4}, {Elem::U32, "u32", 4}, {Elem::I64, "i64", 8},
    {Elem::U64, "u64", 8},   {Elem::F32, "f32", 4}, {Elem::F64, "f64", 8},
};

bool isFloat(Elem e) { return e == Elem::F32 || e == Elem::F64; }

// JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool isJsonNumber(const std::string& s, bool& integral) {
  size_t i = 0, n = s.size();
  auto digits = [&]() {
    size_t start = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    return i > start;
  };
  integral = true;
  if (i < n && s[i] == '-') i++;
  if (i < n && s[i] == '0') {
    i++;
  } else if (!digits()) {
    return false;
  }
  if (i < n && s[i] == '.') {
    i++;
    integral = false;
    if (!digits()) return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    integral = false;
    if (i < n && (s[i] == '+' || s[i] == '-')) i++;
    if (!digits()) return false;
  }
  return i == n;
}

std::string quoted(const std::string& s) {
  std::string q;
  appendJsonString(q, s.size() > 40 ? s.substr(0, 40) + "..." : s);
  return q;
}

uint64_t floatBits(double d, Elem e) {
  if (e == Elem::F64) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    return bits;
  }
  float f = static_cast<float>(d);  // round to nearest even, as Math.fround
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

uint64_t parseHexBits(const std::string& s, Elem e, const std::string& path) {
  size_t digits = s.size() - 2;
  size_t maxDigits = elemSize(e) * 2;
  if (digits == 0 || digits > maxDigits) {
    throw badRequest(path, std::string("raw bits ") + quoted(s) + " must have 1 to " + std::to_string(maxDigits) +
                               " hex digits for " + elemName(e));
  }
  uint64_t bits = 0;
  for (size_t i = 2; i < s.size(); i++) {
    char c = s[i];
    unsigned d;
    if (c >= '0' && c <= '9') d = unsigned(c - '0');
    else if (c >= 'a' && c <= 'f') d = unsigned(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') d = unsigned(c - 'A' + 10);
    else throw badRequest(path, "raw bits " + quoted(s) + " contain a non-hex digit");
    bits = (bits << 4) | d;
  }
  if (e == Elem::Bool && bits > 1) throw badRequest(path, "a bool must be 0 or 1, got " + quoted(s));
  return bits;
}

uint64_t parseFloatText(const std::string& s, bool fromString, Elem e, const std::string& path) {
  if (fromString) {
    if (s == "NaN") return e == Elem::F64 ? 0x7FF8000000000000ull : 0x7FC00000ull;
    if (s == "Infinity") return e == Elem::F64 ? 0x7FF0000000000000ull : 0x7F800000ull;
    if (s == "-Infinity") return e == Elem::F64 ? 0xFFF0000000000000ull : 0xFF800000ull;
    bool integral;
    if (!isJsonNumber(s, integral)) {
      throw badRequest(path, std::string("expected a ") + elemName(e) +
                                 " value (a number, \"NaN\", \"Infinity\", \"-Infinity\", \"-0\" or \"0x\" bits), got " +
                                 quoted(s));
    }
  }
  // The text is a valid JSON number; strtod rounds it correctly (overflow gives ±Infinity).
  double d = std::strtod(s.c_str(), nullptr);
  return floatBits(d, e);
}

uint64_t parseIntText(const std::string& s, Elem e, const std::string& path) {
  bool integral;
  if (!isJsonNumber(s, integral) || !integral) {
    throw badRequest(path, std::string("expected an integer for ") + elemName(e) + ", got " + quoted(s));
  }
  bool neg = s[0] == '-';
  uint64_t mag = 0;
  bool overflow = false;
  for (size_t i = neg ? 1 : 0; i < s.size(); i++) {
    uint64_t d = uint64_t(s[i] - '0');
    if (mag > (UINT64_MAX - d) / 10) {
      overflow = true;
      break;
    }
    mag = mag * 10 + d;
  }
  uint64_t limit = 0;  // the largest magnitude allowed in this direction
  switch (e) {
    case Elem::Bool: limit = neg ? 0 : 1; break;
    case Elem::I32: limit = neg ? (1ull << 31) : (1ull << 31) - 1; break;
    case Elem::U32: limit = neg ? 0 : 0xFFFFFFFFull; break;
    case Elem::I64: limit = neg ? (1ull << 63) : (1ull << 63) - 1; break;
    case Elem::U64: limit = neg ? 0 : UINT64_MAX; break;
    case Elem::F32:
    case Elem::F64: break;
  }
  if (overflow || mag > limit) {
    throw badRequest(path, e == Elem::Bool ? "a bool must be 0 or 1, got " + quoted(s)
                                           : quoted(s) + " is out of range for " + elemName(e));
  }
  uint64_t bits = neg ? (~mag + 1) : mag;  // two's complement
  if (elemSize(e) < 8) bits &= (1ull << (8 * elemSize(e))) - 1;
  return bits;
}

}  // namespace

const char* elemName(Elem e) {
  for (const auto& k : kElems) {
    if (k.elem == e) return k.name;
  }
  return "?";
}

size_t elemSize(Elem e) {
  for (const auto& k : kElems) {
    if (k.elem == e) return k.size;
  }
  return 0;
}

bool elemFromName(const std::string& name, Elem& out) {
  for (const auto& k : kElems) {
    if (name == k.name) {
      out = k.elem;
      return true;
    }
  }
  return false;
}

uint64_t parseScalarBits(const JsonValue& v, Elem e, const std::string& path) {
  switch (v.kind) {
    case JsonValue::Kind::Bool:
      if (e == Elem::Bool) return v.boolean ? 1 : 0;
      throw badRequest(path, std::string("expected a ") + elemName(e) + " value, got a boolean");
    case JsonValue::Kind::Number:
      return isFloat(e) ? parseFloatText(v.text, false, e, path) : parseIntText(v.text, e, path);
    case JsonValue::Kind::String:
      if (v.text.size() >= 2 && v.text[0] == '0' && (v.text[1] == 'x' || v.text[1] == 'X')) {
        return parseHexBits(v.text, e, path);
      }
      return isFloat(e) ? parseFloatText(v.text, true, e, path) : parseIntText(v.text, e, path);
    default:
      throw badRequest(path, std::string("expected a ") + elemName(e) + " value, got " + jsonKindName(v.kind));
  }
}

std::string bitsToHex(uint64_t bits, Elem e) {
  static const char kHex[] = "0123456789abcdef";
  size_t digits = elemSize(e) * 2;
  std::string s = "0x";
  for (size_t i = digits; i-- > 0;) s += kHex[(bits >> (4 * i)) & 15];
  return s;
}

}  // namespace gk
