// Arrays in files shared with the client (spec: "Shared files"). A request names a file by a
// descriptor the launcher inherited ({"fd": 3}) or by a path ({"path": "/dev/shm/x"}), with a
// byte offset; the launcher maps the bytes it needs and copies straight between the mapping
// and the GPU, so large arrays never pass through a pipe or base64. Everything is checked
// before a byte is touched, and every problem is a BAD_REQUEST that names the reference.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "json.hpp"

namespace gk {

class Gpu;

struct FileRef {
  int fd = -1;          // a descriptor the launcher inherited, or -1 for `path`
  std::string path;
  uint64_t offset = 0;  // bytes from the file's start
  std::string where;    // the reference's place in the request, for errors (e.g. "args[2].file")
};

// {"fd": N, "offset"?: O} or {"path": P, "offset"?: O}. Throws BAD_REQUEST; no system calls.
FileRef parseFileRef(const JsonValue& v, const std::string& where);
// The reference as JSON, as answers echo it: {"fd":3,"offset":0} or {"path":"...","offset":0}.
void appendFileRefJson(std::string& out, const FileRef& r);

// When copies page-lock the mapped files (cuMemHostRegister): the environment variable
// GK_LAUNCHER_PIN is "1" (always), "0" (never), or unset (the --serve staging files, which are
// reused, but not one-shot files, which are used once and would pay for pinning every time).
enum class PinPolicy { Never, Reused, Always };
PinPolicy pinPolicy();

// A mapped byte range of a file (MAP_SHARED, writable when asked), unmapped when destroyed.
class FileRange {
 public:
  FileRange() = default;
  // Checks the file (open, a regular file, readable and, for `write`, writable, long enough)
  // and maps ref.offset .. ref.offset + bytes. Zero bytes are checked but not mapped.
  FileRange(const FileRef& ref, uint64_t bytes, bool write);
  ~FileRange();
  FileRange(FileRange&& o) noexcept;
  FileRange& operator=(FileRange&& o) noexcept;
  FileRange(const FileRange&) = delete;
  FileRange& operator=(const FileRange&) = delete;

  uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }
  void* mapBase() const { return base_; }  // the whole (page-aligned) mapping, for pinning
  size_t mapLength() const { return len_; }

 private:
  void* base_ = nullptr;
  size_t len_ = 0;
  uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
};

// Page-locks a mapping for as long as it lives, when `want` and the driver allow.
class PinScope {
 public:
  PinScope(Gpu& gpu, void* base, size_t len, bool want);
  ~PinScope();
  bool pinned() const { return base_ != nullptr; }
  PinScope(const PinScope&) = delete;
  PinScope& operator=(const PinScope&) = delete;

 private:
  Gpu& gpu_;
  void* base_;
};

// --serve: mappings of files named by descriptor, kept from one request to the next (the
// client's staging file serves every large transfer of a session) and, by the pin policy,
// page-locked once. A file whose identity or size changed is mapped again.
class FileCache {
 public:
  FileCache() = default;
  ~FileCache();
  FileCache(const FileCache&) = delete;
  FileCache& operator=(const FileCache&) = delete;

  // `bytes` bytes at ref.offset, checked as FileRange checks them: from a cached mapping of a
  // descriptor, or from a mapping made into `hold` for a path (kept only as long as `hold`).
  uint8_t* map(const FileRef& ref, uint64_t bytes, bool write, FileRange& hold);
  // Pins the cached mappings not tried yet (by the pin policy); a refusal is remembered.
  void pin(Gpu& gpu);
  // Whether the cached mapping of descriptor `fd` is page-locked.
  bool pinned(int fd) const;
  // Unpins and unmaps everything (before the GPU's context goes).
  void clear();

 private:
  struct Entry {
    int fd = -1;
    dev_t dev = 0;
    ino_t ino = 0;
    uint64_t size = 0;
    bool writable = false;
    void* base = nullptr;
    size_t len = 0;
    bool pinTried = false;
    Gpu* pinnedBy = nullptr;
  };
  std::vector<Entry> entries_;
  static void drop(Entry& e);
};

}  // namespace gk
