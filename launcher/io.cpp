#include "io.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base64.hpp"
#include "errors.hpp"

namespace gk {

namespace {

constexpr size_t kFlushAt = size_t(1) << 20;
constexpr size_t kBase64Chunk = size_t(3) << 20;  // a multiple of 3: chunks encode independently

LauncherError ioError(const std::string& what) {
  return makeError("IO_ERROR", phase::kIo, what + ": " + std::strerror(errno));
}

}  // namespace

size_t readUpTo(int fd, void* buf, size_t n) {
  size_t got = 0;
  char* p = static_cast<char*>(buf);
  while (got < n) {
    ssize_t r = ::read(fd, p + got, n - got);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw ioError("cannot read input");
    }
    if (r == 0) break;
    got += size_t(r);
  }
  return got;
}

size_t readSome(int fd, void* buf, size_t n) {
  for (;;) {
    ssize_t r = ::read(fd, buf, n);
    if (r >= 0) return size_t(r);
    if (errno != EINTR) throw ioError("cannot read input");
  }
}

std::string readAll(int fd, uint64_t limit) {
  std::string out;
  size_t chunk = size_t(1) << 16;
  for (;;) {
    size_t old = out.size();
    if (old > limit) {
      throw makeError("TOO_LARGE", phase::kRequest,
                      "the request is larger than the limit of " + std::to_string(limit) + " bytes");
    }
    out.resize(old + chunk);
    ssize_t r;
    do {
      r = ::read(fd, &out[old], chunk);
    } while (r < 0 && errno == EINTR);
    if (r < 0) throw ioError("cannot read the request");
    out.resize(old + size_t(r));
    if (r == 0) return out;
    if (chunk < (size_t(1) << 24)) chunk *= 2;
  }
}

std::vector<char> readModuleFile(const std::string& path) {
  auto fail = [&](const std::string& why) {
    LauncherError e = makeError("MODULE_UNREADABLE", phase::kRequest, "cannot read module " + path + ": " + why);
    return e;
  };
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is then refused as not a regular
  // file); for a regular file the flag changes nothing.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw fail(std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    std::string why = std::strerror(errno);
    ::close(fd);
    throw fail(why);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw fail("not a regular file");
  }
  if (uint64_t(st.st_size) > kMaxModuleBytes) {
    ::close(fd);
    throw fail("larger than the limit of " + std::to_string(kMaxModuleBytes) + " bytes");
  }
  std::vector<char> data(size_t(st.st_size) + 1, '\0');
  size_t got;
  try {
    got = readUpTo(fd, data.data(), size_t(st.st_size));
  } catch (const LauncherError& e) {
    ::close(fd);
    throw fail(e.message);
  }
  ::close(fd);
  if (got == 0) throw fail("the file is empty");
  data.resize(got + 1);
  data[got] = '\0';
  return data;
}

void Output::write(const char* data, size_t n) {
  buf_.append(data, n);
  if (buf_.size() >= kFlushAt) flush();
}

void Output::writeBase64(const uint8_t* data, size_t n) {
  for (size_t i = 0; i < n; i += kBase64Chunk) {
    size_t len = n - i < kBase64Chunk ? n - i : kBase64Chunk;
    base64Append(buf_, data + i, len);
    if (buf_.size() >= kFlushAt) flush();
  }
}

void Output::writeBase64Zeros(uint64_t n) {
  // Whole groups of three zero bytes are "AAAA"; base64Append spells the tail.
  std::string quad(4096, 'A');
  uint64_t groups = n / 3;
  while (groups > 0) {
    uint64_t k = groups < 1024 ? groups : 1024;
    buf_.append(quad, 0, size_t(k * 4));
    groups -= k;
    if (buf_.size() >= kFlushAt) flush();
  }
  const uint8_t zeros[3] = {0, 0, 0};
  base64Append(buf_, zeros, size_t(n % 3));
}

void Output::writeFd(const char* data, size_t n) {
  size_t off = 0;
  while (off < n) {
    ssize_t r = ::write(fd_, data + off, n - off);
    if (r < 0) {
      if (errno == EINTR) continue;
      throw ioError("cannot write the answer");
    }
    off += size_t(r);
  }
}

void Output::flush() {
  // Cleared even when the write fails (the answer cannot be sent twice); the capacity stays
  // for the next answer, unless a large one made it large.
  struct Clear {
    std::string& buf;
    ~Clear() {
      buf.clear();
      if (buf.capacity() > kFlushAt * 2) std::string().swap(buf);
    }
  } clear{buf_};
  writeFd(buf_.data(), buf_.size());
}

void Output::writeDirect(const uint8_t* data, size_t n) {
  flush();
  writeFd(reinterpret_cast<const char*>(data), n);
}

}  // namespace gk
