#include "base64.hpp"

namespace gk {

namespace {

const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int sextet(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

size_t base64DecodedSize(const std::string& text) {
  size_t n = text.size();
  if (n == 0 || n % 4 != 0) return 0;
  size_t pad = 0;
  if (text[n - 1] == '=') pad++;
  if (text[n - 2] == '=') pad++;
  return n / 4 * 3 - pad;
}

bool base64Decode(const std::string& text, std::vector<uint8_t>& out, std::string& why) {
  size_t n = text.size();
  if (n % 4 != 0) {
    why = "base64 length " + std::to_string(n) + " is not a multiple of 4";
    return false;
  }
  out.clear();
  out.resize(base64DecodedSize(text));
  size_t o = 0;
  for (size_t i = 0; i < n; i += 4) {
    bool last = i + 4 == n;
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; k++) {
      unsigned char c = static_cast<unsigned char>(text[i + k]);
      if (c == '=' && last && k >= 2) {
        v[k] = 0;
        pad++;
        continue;
      }
      v[k] = sextet(c);
      if (v[k] < 0 || pad > 0) {
        why = "invalid base64 character at position " + std::to_string(i + k);
        return false;
      }
    }
    uint32_t w = (uint32_t(v[0]) << 18) | (uint32_t(v[1]) << 12) | (uint32_t(v[2]) << 6) | uint32_t(v[3]);
    // Canonical form: the bits that padding drops must be zero.
    if ((pad == 1 && (w & 0xFF) != 0) || (pad == 2 && (w & 0xFFFF) != 0)) {
      why = "non-canonical base64 padding at position " + std::to_string(i);
      return false;
    }
    out[o++] = uint8_t(w >> 16);
    if (pad < 2) out[o++] = uint8_t(w >> 8);
    if (pad < 1) out[o++] = uint8_t(w);
  }
  return true;
}

void base64Append(std::string& out, const uint8_t* data, size_t size) {
  size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    uint32_t w = (uint32_t(data[i]) << 16) | (uint32_t(data[i + 1]) << 8) | uint32_t(data[i + 2]);
    out += kAlphabet[(w >> 18) & 63];
    out += kAlphabet[(w >> 12) & 63];
    out += kAlphabet[(w >> 6) & 63];
    out += kAlphabet[w & 63];
  }
  size_t rest = size - i;
  if (rest == 1) {
    uint32_t w = uint32_t(data[i]) << 16;
    out += kAlphabet[(w >> 18) & 63];
    out += kAlphabet[(w >> 12) & 63];
    out += "==";
  } else if (rest == 2) {
    uint32_t w = (uint32_t(data[i]) << 16) | (uint32_t(data[i + 1]) << 8);
    out += kAlphabet[(w >> 18) & 63];
    out += kAlphabet[(w >> 12) & 63];
    out += kAlphabet[(w >> 6) & 63];
    out += '=';
  }
}

}  // namespace gk
