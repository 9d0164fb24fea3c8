#include "scalars.hpp"

#include <cmath>
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
    {Elem::Bool, "bool", 1}, {Elem::I8, "i8", 1},   {Elem::U8, "u8", 1},   {Elem::I16, "i16", 2},   {Elem::U16, "u16", 2},
    {Elem::I32, "i32", 4},   {Elem::U32, "u32", 4}, {Elem::I64, "i64", 8}, {Elem::U64, "u64", 8},   {Elem::F16, "f16", 2},
    {Elem::BF16, "bf16", 2}, {Elem::F32, "f32", 4}, {Elem::F64, "f64", 8},
};

bool isFloat(Elem e) { return e == Elem::F16 || e == Elem::BF16 || e == Elem::F32 || e == Elem::F64; }

// A double rounded once, to nearest even, to a binary format with `precision` significant
// bits, smallest normal exponent `emin` and largest finite value `max` (f16: 11, -14, 65504;
// bf16: 8, -126, about 3.39e38), as the value it rounds to. Zero, infinities and NaN pass.
double roundToFormat(double d, int precision, int emin, double max) {
  if (d != d || d == 0 || std::isinf(d)) return d;
  double a = std::fabs(d);
  int e = std::ilogb(a);
  double ulpOfMax = std::ldexp(1.0, std::ilogb(max) - precision + 1);
  if (a >= max + ulpOfMax / 2) return std::copysign(INFINITY, d);
  double q = std::ldexp(1.0, (e > emin ? e : emin) - precision + 1);
  double r = std::nearbyint(a / q) * q;  // the default rounding mode: to nearest, ties to even
  return std::copysign(r, d);
}

// The bits of the f16 or bf16 nearest to d (a NaN as the quiet NaN of its sign).
uint64_t halfBits(double d, Elem e) {
  bool negative = std::signbit(d);
  uint32_t sign = negative ? 0x8000u : 0u;
  if (d != d) return sign | (e == Elem::F16 ? 0x7e00u : 0x7fc0u);
  if (e == Elem::BF16) {
    float f = static_cast<float>(roundToFormat(d, 8, -126, 3.3895313892515355e38));  // exact: a bf16 is an f32
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits >> 16;
  }
  double r = std::fabs(roundToFormat(d, 11, -14, 65504.0));
  if (std::isinf(r)) return sign | 0x7c00u;
  if (r < std::ldexp(1.0, -14)) return sign | uint32_t(std::ldexp(r, 24));  // subnormal or zero
  int x = std::ilogb(r);
  return sign | uint32_t(x + 15) << 10 | (uint32_t(std::ldexp(r, 10 - x)) - 0x400u);
}

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
  if (e == Elem::F16 || e == Elem::BF16) return halfBits(d, e);
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
    if (s == "NaN") return floatBits(NAN, e);
    if (s == "Infinity") return floatBits(INFINITY, e);
    if (s == "-Infinity") return floatBits(-INFINITY, e);
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
    case Elem::I8: limit = neg ? (1ull << 7) : (1ull << 7) - 1; break;
    case Elem::U8: limit = neg ? 0 : 0xFFull; break;
    case Elem::I16: limit = neg ? (1ull << 15) : (1ull << 15) - 1; break;
    case Elem::U16: limit = neg ? 0 : 0xFFFFull; break;
    case Elem::I32: limit = neg ? (1ull << 31) : (1ull << 31) - 1; break;
    case Elem::U32: limit = neg ? 0 : 0xFFFFFFFFull; break;
    case Elem::I64: limit = neg ? (1ull << 63) : (1ull << 63) - 1; break;
    case Elem::U64: limit = neg ? 0 : UINT64_MAX; break;
    case Elem::F16:
    case Elem::BF16:
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
