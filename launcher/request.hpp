// Reading and validating requests. Everything here runs before the CUDA driver is loaded,
// so a malformed request is answered identically on machines with and without a GPU.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "files.hpp"
#include "json.hpp"
#include "scalars.hpp"

namespace gk {

// Limits (spec: "Limits").
inline constexpr uint64_t kMaxRequestBytes = uint64_t(1) << 31;     // one-shot JSON text: 2 GiB
inline constexpr uint64_t kMaxOneShotArrayBytes = uint64_t(1) << 31;  // one array in one-shot mode
inline constexpr uint64_t kMaxFileArrayBytes = uint64_t(1) << 40;     // ... in or back to a shared file
inline constexpr size_t kMaxArgs = 1024;
inline constexpr uint64_t kMaxRepeat = 100000;
inline constexpr uint64_t kMaxTimeoutMs = uint64_t(1) << 31;
inline constexpr uint64_t kMaxGridX = 2147483647;  // 2^31 - 1
inline constexpr uint64_t kMaxGridYZ = 65535;
inline constexpr uint64_t kMaxBlockXY = 1024;
inline constexpr uint64_t kMaxBlockZ = 64;
inline constexpr uint64_t kMaxBlockThreads = 1024;
inline constexpr size_t kMaxConstants = 1024;
inline constexpr uint64_t kMaxConstantBytes = 64 * 1024;

struct LaunchDims {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint64_t blockThreads() const { return uint64_t(block[0]) * block[1] * block[2]; }
};

// The contents of one of the module's `__constant__` variables, filled before a launch.
struct ConstantSpec {
  std::string name;  // the variable's symbol in the module
  Elem elem = Elem::F32;
  std::vector<uint8_t> data;
};

// Options every launch carries, in one-shot requests and --serve launch frames alike.
struct LaunchOptions {
  uint32_t sharedBytes = 0;
  uint32_t repeat = 1;
  uint64_t timeoutMs = 0;  // 0: wait for the kernel however long it takes
  std::vector<ConstantSpec> constants;
};

struct ArgSpec {
  bool isArray = false;
  Elem elem = Elem::I32;
  uint64_t bits = 0;           // scalars: the value's bits
  std::vector<uint8_t> data;   // arrays sent with data: their bytes
  bool hasData = false;        // `data` holds the array (false for "file" and "length" arrays)
  bool hasFile = false;        // the array is in a shared file ("file")
  FileRef file;
  FileRange fileRange;         // ... mapped by mapArgFiles
  uint64_t bytes = 0;          // arrays: size in bytes
  bool copyBack = false;
  bool hasCopyBackTo = false;  // copied back into a shared file ("copyBackTo") instead of the answer
  FileRef copyBackTo;
  FileRange copyBackRange;     // ... mapped by mapArgFiles

  // The array's contents to upload, or nullptr for a zero-filled array.
  const uint8_t* contents() const {
    return hasData ? data.data() : hasFile ? fileRange.data() : nullptr;
  }
};

struct Request {
  std::vector<ArgSpec> args;
  LaunchOptions options;
};

// Parses a one-shot request. The JSON text may be released by the caller afterwards.
Request parseRequest(const char* text, size_t size);
// Checks and maps the shared files the arrays name ("file", "copyBackTo"); checks that a bool
// array read from a file holds only 0 and 1. `copyIn`: also copy "file" arrays into `data`
// (--check, which answers with the inputs and must not see an output overwrite an input).
void mapArgFiles(Request& req, bool copyIn);

// Grid and block from the command line: six decimal integers (gx gy gz bx by bz).
LaunchDims parseDimsArgv(char* const* six);
// Grid and block from two JSON arrays of three integers (--serve).
LaunchDims parseDimsJson(const JsonValue* grid, const JsonValue* block);
// The launch-configuration limits that hold for every CUDA GPU (spec: "Limits").
void checkDims(const LaunchDims& d);

// Parses "sharedBytes", "repeat", "timeoutMs" and "constants" from a request or launch object.
LaunchOptions parseLaunchOptions(const JsonValue& obj);

// A scalar argument {"type": T, "value": V}: sets elem and returns the bits.
uint64_t parseScalarArg(const JsonValue& arg, const std::string& path, Elem& elem);

// Rejects members other than `allowed`, so a misspelt key is reported rather than ignored.
void checkKeys(const JsonValue& obj, const std::string& path, std::initializer_list<const char*> allowed);
const JsonValue& requireMember(const JsonValue& obj, const std::string& path, const char* key);
std::string requireString(const JsonValue& obj, const std::string& path, const char* key);
uint64_t requireUint(const JsonValue& v, const std::string& path, uint64_t max);

}  // namespace gk
