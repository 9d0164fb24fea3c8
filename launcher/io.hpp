// Reading stdin and module files with limits, and writing stdout in bounded pieces so that
// arrays of hundreds of megabytes never need a second full-size copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gk {

inline constexpr uint64_t kMaxModuleBytes = uint64_t(1) << 30;  // 1 GiB

// All of fd until end of file. Throws TOO_LARGE past `limit` bytes, IO_ERROR on a read error.
std::string readAll(int fd, uint64_t limit);

// Reads up to n bytes, fewer only at end of file. Throws IO_ERROR on a read error.
size_t readUpTo(int fd, void* buf, size_t n);
// One read(2) of at most n bytes (0 only at end of file). Throws IO_ERROR on a read error.
size_t readSome(int fd, void* buf, size_t n);

// A module file's bytes followed by one NUL (the driver reads PTX as a C string).
// Throws MODULE_UNREADABLE.
std::vector<char> readModuleFile(const std::string& path);

// Buffered writes to a file descriptor. Throws IO_ERROR (e.g. the reader went away).
class Output {
 public:
  explicit Output(int fd) : fd_(fd) {}
  ~Output() = default;
  void write(const char* data, size_t n);
  void write(const std::string& s) { write(s.data(), s.size()); }
  // Flushes what is buffered, then writes data[0..n) without copying it.
  void writeDirect(const uint8_t* data, size_t n);
  // The base64 encoding of data[0..n), written a few megabytes at a time.
  void writeBase64(const uint8_t* data, size_t n);
  // The base64 encoding of n zero bytes.
  void writeBase64Zeros(uint64_t n);
  void flush();

 private:
  int fd_;
  std::string buf_;
  void writeFd(const char* data, size_t n);
};

}  // namespace gk
