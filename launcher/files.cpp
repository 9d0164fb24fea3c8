#include "files.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "device.hpp"
#include "request.hpp"

namespace gk {

namespace {

constexpr uint64_t kMaxFileOffset = uint64_t(1) << 62;

size_t pageSize() {
  static const size_t page = size_t(::sysconf(_SC_PAGESIZE));
  return page;
}

std::string fileName(const FileRef& r) {
  if (r.fd >= 0) return "descriptor " + std::to_string(r.fd);
  std::string q;
  appendJsonString(q, r.path);
  return q;
}

// The file of a reference, open and checked: a regular file, open for what is asked, and
// holding ref.offset + bytes bytes. `owned`: opened here from a path (the caller closes it).
struct Checked {
  int fd = -1;
  bool owned = false;
  bool writable = false;
  struct stat st {};
};

Checked check(const FileRef& ref, uint64_t bytes, bool write) {
  Checked c;
  if (ref.fd >= 0) {
    if (ref.fd <= 2) {
      throw badRequest(ref.where + ".fd", "descriptor " + std::to_string(ref.fd) +
                                              " is one of the launcher's standard streams; a shared file is passed as descriptor 3 or above");
    }
    int flags = ::fcntl(ref.fd, F_GETFL);
    if (flags < 0) {
      throw badRequest(ref.where + ".fd", "descriptor " + std::to_string(ref.fd) +
                                              " is not open in the launcher (a shared file is passed to it when it starts)");
    }
    int mode = flags & O_ACCMODE;
    c.fd = ref.fd;
    c.writable = mode == O_RDWR;
    if (mode == O_WRONLY || (write && mode != O_RDWR)) {
      throw badRequest(ref.where + ".fd", "descriptor " + std::to_string(ref.fd) + " is not open for " +
                                              (write ? "reading and writing" : "reading"));
    }
  } else {
    // O_NONBLOCK: a FIFO must not hang the open (it is then refused as not a regular file).
    c.fd = ::open(ref.path.c_str(), (write ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NONBLOCK);
    if (c.fd < 0) throw badRequest(ref.where + ".path", "cannot open " + fileName(ref) + ": " + std::strerror(errno));
    c.owned = true;
    c.writable = write;
  }
  auto fail = [&](const std::string& why) {
    if (c.owned) ::close(c.fd);
    return badRequest(ref.where, fileName(ref) + " " + why);
  };
  if (::fstat(c.fd, &c.st) != 0) throw fail(std::string("cannot be examined: ") + std::strerror(errno));
  if (!S_ISREG(c.st.st_mode)) throw fail("is not a regular file");
  uint64_t size = uint64_t(c.st.st_size);
  if (ref.offset > size || bytes > size - ref.offset) {
    throw fail("holds " + std::to_string(size) + " bytes, but bytes " + std::to_string(ref.offset) + " to " +
               std::to_string(ref.offset + bytes) + " were asked for");
  }
  return c;
}

// Backs bytes the launcher will write with storage now, so that a full file system (tmpfs is
// memory) is an error here rather than a SIGBUS in the middle of a copy.
void reserve(const FileRef& ref, int fd, uint64_t at, uint64_t len) {
  if (len == 0) return;
  int r = ::posix_fallocate(fd, off_t(at), off_t(len));
  if (r == 0 || r == EINVAL || r == EOPNOTSUPP) return;  // done, or a file system that cannot say in advance
  throw makeError("HOST_OUT_OF_MEMORY", phase::kRequest,
                  "no room for " + std::to_string(len) + " bytes in " + fileName(ref) + ": " + std::strerror(r));
}

// Maps `len` bytes of fd from the page-aligned `at`; throws HOST_OUT_OF_MEMORY or BAD_REQUEST.
void* mapOrThrow(const FileRef& ref, int fd, uint64_t at, uint64_t len, bool write) {
  if (len > uint64_t(SIZE_MAX)) throw badRequest(ref.where, fileName(ref) + ": the range is too large to map");
  int prot = PROT_READ | (write ? PROT_WRITE : 0);
  void* p = ::mmap(nullptr, size_t(len), prot, MAP_SHARED | MAP_POPULATE, fd, off_t(at));
  if (p != MAP_FAILED) return p;
  std::string why = "cannot map " + std::to_string(len) + " bytes of " + fileName(ref) + ": " + std::strerror(errno);
  if (errno == ENOMEM) throw makeError("HOST_OUT_OF_MEMORY", phase::kRequest, why);
  throw badRequest(ref.where, why);
}

}  // namespace

FileRef parseFileRef(const JsonValue& v, const std::string& where) {
  if (v.kind != JsonValue::Kind::Object) {
    throw badRequest(where, std::string("expected {\"fd\": N} or {\"path\": P}, got ") + jsonKindName(v.kind));
  }
  checkKeys(v, where, {"fd", "path", "offset"});
  FileRef r;
  r.where = where;
  const JsonValue* fd = v.get("fd");
  const JsonValue* path = v.get("path");
  if ((fd == nullptr) == (path == nullptr)) throw badRequest(where, "give either \"fd\" or \"path\"");
  if (fd != nullptr) r.fd = int(requireUint(*fd, where + ".fd", 1 << 30));
  if (path != nullptr) {
    r.path = requireString(v, where, "path");
    if (r.path.empty() || r.path.find('\0') != std::string::npos) throw badRequest(where + ".path", "expected a file path");
  }
  if (const JsonValue* o = v.get("offset")) r.offset = requireUint(*o, where + ".offset", kMaxFileOffset);
  return r;
}

void appendFileRefJson(std::string& out, const FileRef& r) {
  out += '{';
  if (r.fd >= 0) {
    appendKey(out, "fd");
    appendInt(out, r.fd);
  } else {
    appendKey(out, "path");
    appendJsonString(out, r.path);
  }
  out += ',';
  appendKey(out, "offset");
  appendUint(out, r.offset);
  out += '}';
}

PinPolicy pinPolicy() {
  static const PinPolicy policy = [] {
    const char* v = std::getenv("GK_LAUNCHER_PIN");
    if (v != nullptr && std::strcmp(v, "1") == 0) return PinPolicy::Always;
    if (v != nullptr && std::strcmp(v, "0") == 0) return PinPolicy::Never;
    return PinPolicy::Reused;
  }();
  return policy;
}

FileRange::FileRange(const FileRef& ref, uint64_t bytes, bool write) {
  Checked c = check(ref, bytes, write);
  if (bytes > 0) {
    uint64_t at = ref.offset - ref.offset % pageSize();
    try {
      if (write) reserve(ref, c.fd, ref.offset, bytes);
      base_ = mapOrThrow(ref, c.fd, at, ref.offset - at + bytes, write);
    } catch (...) {
      if (c.owned) ::close(c.fd);
      throw;
    }
    len_ = size_t(ref.offset - at + bytes);
    data_ = static_cast<uint8_t*>(base_) + (ref.offset - at);
    size_ = bytes;
  }
  if (c.owned) ::close(c.fd);  // the mapping stays valid
}

FileRange::~FileRange() {
  if (base_ != nullptr) ::munmap(base_, len_);
}

FileRange::FileRange(FileRange&& o) noexcept : base_(o.base_), len_(o.len_), data_(o.data_), size_(o.size_) {
  o.base_ = nullptr;
  o.data_ = nullptr;
  o.len_ = 0;
  o.size_ = 0;
}

FileRange& FileRange::operator=(FileRange&& o) noexcept {
  if (this != &o) {
    if (base_ != nullptr) ::munmap(base_, len_);
    base_ = o.base_;
    len_ = o.len_;
    data_ = o.data_;
    size_ = o.size_;
    o.base_ = nullptr;
    o.data_ = nullptr;
    o.len_ = 0;
    o.size_ = 0;
  }
  return *this;
}

PinScope::PinScope(Gpu& gpu, void* base, size_t len, bool want)
    : gpu_(gpu), base_(want && gpu.pin(base, len) ? base : nullptr) {}

PinScope::~PinScope() {
  if (base_ != nullptr) gpu_.unpin(base_);
}

FileCache::~FileCache() {
  clear();
}

void FileCache::drop(Entry& e) {
  if (e.pinnedBy != nullptr) e.pinnedBy->unpin(e.base);
  if (e.base != nullptr) ::munmap(e.base, e.len);
  e = Entry{};
}

void FileCache::clear() {
  for (Entry& e : entries_) drop(e);
  entries_.clear();
}

uint8_t* FileCache::map(const FileRef& ref, uint64_t bytes, bool write, FileRange& hold) {
  if (ref.fd < 0) {
    hold = FileRange(ref, bytes, write);
    return hold.data();
  }
  Checked c = check(ref, bytes, write);
  Entry* e = nullptr;
  for (Entry& x : entries_) {
    if (x.fd == ref.fd) e = &x;
  }
  uint64_t size = uint64_t(c.st.st_size);
  bool same = e != nullptr && e->dev == c.st.st_dev && e->ino == c.st.st_ino && e->size == size && e->writable == c.writable;
  if (!same) {
    Entry fresh;
    fresh.fd = ref.fd;
    fresh.dev = c.st.st_dev;
    fresh.ino = c.st.st_ino;
    fresh.size = size;
    fresh.writable = c.writable;
    if (size > 0) {
      FileRef whole = ref;
      whole.offset = 0;
      if (c.writable) reserve(whole, ref.fd, 0, size);
      fresh.base = mapOrThrow(whole, ref.fd, 0, size, c.writable);
      fresh.len = size_t(size);
    }
    if (e != nullptr) {
      drop(*e);
      *e = fresh;
    } else {
      entries_.push_back(fresh);
      e = &entries_.back();
    }
  }
  return bytes == 0 ? nullptr : static_cast<uint8_t*>(e->base) + ref.offset;
}

void FileCache::pin(Gpu& gpu) {
  if (pinPolicy() == PinPolicy::Never) return;
  for (Entry& e : entries_) {
    if (e.pinTried || e.base == nullptr) continue;
    e.pinTried = true;
    if (gpu.pin(e.base, e.len)) e.pinnedBy = &gpu;
  }
}

bool FileCache::pinned(int fd) const {
  for (const Entry& e : entries_) {
    if (e.fd == fd) return e.pinnedBy != nullptr;
  }
  return false;
}

}  // namespace gk
