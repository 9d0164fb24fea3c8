// gk's scalar types as the launcher sees them: a name, a size in bytes, and the rules that
// turn a JSON value into the exact little-endian bits the kernel receives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "json.hpp"

namespace gk {

enum class Elem { Bool, I8, U8, I16, U16, I32, U32, I64, U64, F16, BF16, F32, F64 };

const char* elemName(Elem e);
size_t elemSize(Elem e);
bool elemFromName(const std::string& name, Elem& out);

// The value's bits in the low elemSize(e) bytes. Accepted spellings (spec: "Value
// encodings"): JSON numbers; for bool also true/false; strings holding a decimal number,
// "NaN", "Infinity", "-Infinity", "-0", or "0x" and raw hex bits. Throws BAD_REQUEST
// naming `path` when the value does not fit the type.
uint64_t parseScalarBits(const JsonValue& v, Elem e, const std::string& path);

// "0x" and the hex digits of the value's bits, zero-padded to the type's width.
std::string bitsToHex(uint64_t bits, Elem e);

}  // namespace gk
