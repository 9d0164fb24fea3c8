#include "json.hpp"

#include <cmath>
#include <cstdio>

#include "errors.hpp"

namespace gk {

const JsonValue* JsonValue::get(const std::string& key) const {
  for (const auto& m : members) {
    if (m.first == key) return &m.second;
  }
  return nullptr;
}

const char* jsonKindName(JsonValue::Kind k) {
  switch (k) {
    case JsonValue::Kind::Null: return "null";
    case JsonValue::Kind::Bool: return "a boolean";
    case JsonValue::Kind::Number: return "a number";
    case JsonValue::Kind::String: return "a string";
    case JsonValue::Kind::Array: return "an array";
    case JsonValue::Kind::Object: return "an object";
  }
  return "a value";
}

namespace {

class Parser {
 public:
  Parser(const char* data, size_t size) : p_(data), n_(size) {}

  JsonValue document() {
    skipSpace();
    JsonValue v = value(0);
    skipSpace();
    if (i_ != n_) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  const char* p_;
  size_t n_;
  size_t i_ = 0;
  size_t count_ = 0;

  [[noreturn]] void fail(const std::string& what) { failAt(i_, what); }

  [[noreturn]] void failAt(size_t at, const std::string& what) {
    LauncherError e = badRequest("", "");
    e.offset = static_cast<int64_t>(at);
    e.message = (at >= n_ ? "truncated JSON: " : "invalid JSON: ") + what + " at byte " + std::to_string(at);
    throw e;
  }

  void skipSpace() {
    while (i_ < n_ && (p_[i_] == ' ' || p_[i_] == '\t' || p_[i_] == '\n' || p_[i_] == '\r')) i_++;
  }

  bool literal(const char* word) {
    size_t k = 0;
    for (; word[k] != '\0'; k++) {
      if (i_ + k >= n_ || p_[i_ + k] != word[k]) return false;
    }
    i_ += k;
    return true;
  }

  JsonValue value(int depth) {
    if (++count_ > kMaxJsonValues) {
      LauncherError e = makeError("TOO_LARGE", phase::kRequest,
                                  "the request has more than " + std::to_string(kMaxJsonValues) +
                                      " JSON values; send large arrays as \"b64\"");
      e.offset = static_cast<int64_t>(i_);
      throw e;
    }
    if (i_ >= n_) fail("expected a value");
    JsonValue v;
    v.offset = i_;
    char c = p_[i_];
    if (c == '{' || c == '[') {
      if (depth >= kMaxJsonDepth) fail("nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels");
      if (c == '{') object(v, depth + 1);
      else array(v, depth + 1);
    } else if (c == '"') {
      v.kind = JsonValue::Kind::String;
      v.text = string();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = JsonValue::Kind::Number;
      v.text = number();
    } else if (literal("true")) {
      v.kind = JsonValue::Kind::Bool;
      v.boolean = true;
    } else if (literal("false")) {
      v.kind = JsonValue::Kind::Bool;
    } else if (literal("null")) {
      v.kind = JsonValue::Kind::Null;
    } else {
      fail("expected a value");
    }
    return v;
  }

  void object(JsonValue& v, int depth) {
    v.kind = JsonValue::Kind::Object;
    i_++;  // {
    skipSpace();
    if (i_ < n_ && p_[i_] == '}') {
      i_++;
      return;
    }
    for (;;) {
      skipSpace();
      if (i_ >= n_ || p_[i_] != '"') fail("expected a string key");
      size_t keyAt = i_;
      std::string key = string();
      if (v.members.size() >= kMaxJsonMembers) failAt(keyAt, "object with more than " + std::to_string(kMaxJsonMembers) + " members");
      if (v.get(key) != nullptr) failAt(keyAt, "duplicate key \"" + key + "\"");
      skipSpace();
      if (i_ >= n_ || p_[i_] != ':') fail("expected ':'");
      i_++;
      skipSpace();
      v.members.emplace_back(std::move(key), value(depth));
      skipSpace();
      if (i_ < n_ && p_[i_] == ',') {
        i_++;
        continue;
      }
      if (i_ < n_ && p_[i_] == '}') {
        i_++;
        return;
      }
      fail("expected ',' or '}'");
    }
  }

  void array(JsonValue& v, int depth) {
    v.kind = JsonValue::Kind::Array;
    i_++;  // [
    skipSpace();
    if (i_ < n_ && p_[i_] == ']') {
      i_++;
      return;
    }
    for (;;) {
      skipSpace();
      v.items.push_back(value(depth));
      skipSpace();
      if (i_ < n_ && p_[i_] == ',') {
        i_++;
        continue;
      }
      if (i_ < n_ && p_[i_] == ']') {
        i_++;
        return;
      }
      fail("expected ',' or ']'");
    }
  }

  bool digit() const { return i_ < n_ && p_[i_] >= '0' && p_[i_] <= '9'; }

  std::string number() {
    size_t start = i_;
    if (p_[i_] == '-') i_++;
    if (!digit()) fail("expected a digit");
    if (p_[i_] == '0') {
      i_++;
    } else {
      while (digit()) i_++;
    }
    if (i_ < n_ && p_[i_] == '.') {
      i_++;
      if (!digit()) fail("expected a digit after '.'");
      while (digit()) i_++;
    }
    if (i_ < n_ && (p_[i_] == 'e' || p_[i_] == 'E')) {
      i_++;
      if (i_ < n_ && (p_[i_] == '+' || p_[i_] == '-')) i_++;
      if (!digit()) fail("expected a digit in the exponent");
      while (digit()) i_++;
    }
    return std::string(p_ + start, i_ - start);
  }

  unsigned hex4() {
    unsigned u = 0;
    for (int k = 0; k < 4; k++) {
      if (i_ >= n_) fail("truncated \\u escape");
      char c = p_[i_];
      unsigned d;
      if (c >= '0' && c <= '9') d = unsigned(c - '0');
      else if (c >= 'a' && c <= 'f') d = unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') d = unsigned(c - 'A' + 10);
      else fail("expected 4 hex digits after \\u");
      u = u * 16 + d;
      i_++;
    }
    return u;
  }

  static void putUtf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  std::string string() {
    i_++;  // opening quote
    std::string out;
    for (;;) {
      size_t run = i_;
      while (i_ < n_ && p_[i_] != '"' && p_[i_] != '\\' && static_cast<unsigned char>(p_[i_]) >= 0x20) i_++;
      out.append(p_ + run, i_ - run);
      if (i_ >= n_) fail("unterminated string");
      char c = p_[i_];
      if (c == '"') {
        i_++;
        return out;
      }
      if (c != '\\') fail("control character in a string");
      i_++;
      if (i_ >= n_) fail("unterminated escape");
      char e = p_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          size_t at = i_ - 2;
          unsigned cp = hex4();
          if (cp >= 0xDC00 && cp <= 0xDFFF) failAt(at, "unpaired low surrogate");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (i_ + 1 >= n_ || p_[i_] != '\\' || p_[i_ + 1] != 'u') failAt(at, "unpaired high surrogate");
            i_ += 2;
            unsigned lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) failAt(at, "unpaired high surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          putUtf8(out, cp);
          break;
        }
        default:
          failAt(i_ - 2, "invalid escape");
      }
    }
  }
};

// Length of a valid UTF-8 sequence starting at s[i], or 0 if the bytes there are not one.
size_t utf8Length(const std::string& s, size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t len;
  unsigned min;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
    min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  unsigned cp = c & (0x3F >> (len - 1));
  for (size_t k = 1; k < len; k++) {
    unsigned char d = static_cast<unsigned char>(s[i + k]);
    if ((d & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (d & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

JsonValue parseJson(const char* data, size_t size) {
  return Parser(data, size).document();
}

void appendJsonString(std::string& out, const std::string& s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      size_t len = utf8Length(s, i);
      if (len == 0) {
        out += "\\ufffd";
        i++;
      } else {
        out.append(s, i, len);
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
    i++;
  }
  out += '"';
}

void appendKey(std::string& out, const char* key) {
  out += '"';
  out += key;
  out += "\":";
}

void appendUint(std::string& out, uint64_t v) {
  out += std::to_string(v);
}

void appendInt(std::string& out, int64_t v) {
  out += std::to_string(v);
}

void appendMs(std::string& out, double ms) {
  if (!std::isfinite(ms) || ms < 0) ms = 0;
  if (ms >= 1e12) {  // beyond what fixed-point integers below hold exactly
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6f", ms);
    out += buf;
    return;
  }
  // Fixed point with six decimals, as "%.6f" spells it, without printf's cost (every answer has timings).
  uint64_t micro = uint64_t(std::llround(ms * 1e6));
  out += std::to_string(micro / 1000000);
  char frac[8] = {'.', 0, 0, 0, 0, 0, 0, 0};
  uint64_t f = micro % 1000000;
  for (int i = 6; i >= 1; i--) {
    frac[i] = char('0' + f % 10);
    f /= 10;
  }
  out.append(frac, 7);
}

bool jsonToUint(const JsonValue& v, uint64_t max, uint64_t& out) {
  if (v.kind != JsonValue::Kind::Number) return false;
  const std::string& t = v.text;
  if (t.empty() || t.size() > 20) return false;
  uint64_t r = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return false;  // no sign, fraction or exponent
    uint64_t d = uint64_t(c - '0');
    if (r > (UINT64_MAX - d) / 10) return false;
    r = r * 10 + d;
  }
  if (r > max) return false;
  out = r;
  return true;
}

}  // namespace gk
