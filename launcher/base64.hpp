// Base64 (RFC 4648, standard alphabet, with padding), strict: the decoder accepts only the
// canonical encoding, so every byte string has exactly one accepted spelling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gk {

// Decodes `text` into `out`. On failure returns false and sets `why` (with the character
// position) and leaves `out` unspecified.
bool base64Decode(const std::string& text, std::vector<uint8_t>& out, std::string& why);

// Appends the encoding of data[0..size) to `out`.
void base64Append(std::string& out, const uint8_t* data, size_t size);

// The number of bytes `text` decodes to, assuming it is valid (length a multiple of 4).
size_t base64DecodedSize(const std::string& text);

}  // namespace gk
