// Host-side helpers that touch no GPU: the copy between staging memory and ordinary memory
// (addon.cpp's uploads and downloads), and what process isolation uses the addon for where
// it is built (src/runtime/launcher/hostIo.ts): waiting for the launcher's answer without
// sleeping, and the shared file mapped into this process so that arrays are copied into and
// out of it by several threads rather than written and read by system calls.
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "context.hpp"

namespace gk {

void hostCopy(uint8_t* dst, const uint8_t* src, size_t n) {
  // A thread for each 2 MB, at most half the cores and at most 8: a staging piece (8 MB) is
  // copied by four threads; a large array through the shared file by up to eight.
  constexpr size_t kPerThread = size_t(2) << 20;
  static const size_t kMaxThreads = std::clamp<size_t>(std::thread::hardware_concurrency() / 2, 1, 8);
  size_t threads = std::min(kMaxThreads, n / kPerThread);
  if (threads <= 1) {
    std::memcpy(dst, src, n);
    return;
  }
  size_t part = (n / threads + 63) & ~size_t(63);
  std::vector<std::thread> helpers;
  for (size_t at = part; at < n; at += part) {
    size_t len = std::min(part, n - at);
    helpers.emplace_back([=] { std::memcpy(dst + at, src + at, len); });
  }
  std::memcpy(dst, src, std::min(part, n));
  for (auto& t : helpers) t.join();
}

namespace {

// One mapping mapFile() made: undone by unmapFile() or, failing that, when its ArrayBuffer is
// collected. The address alone cannot say which: a later mapping may be given the address of
// one unmapped before.
struct Mapping {
  void* data;
  size_t bytes;
  bool live;
};

// The live mappings, by address (unmapFile finds its ArrayBuffer's mapping here).
std::map<void*, Mapping*> mappings;

void finalizeMapping(napi_env, void*, void* hint) {
  std::unique_ptr<Mapping> m(static_cast<Mapping*>(hint));
  if (!m->live) return;  // unmapped already
  mappings.erase(m->data);
  (void)::munmap(m->data, m->bytes);
}

}  // namespace

// readReady(fd, into, spinUs): polls `fd` without sleeping for at most spinUs microseconds;
// once it has input, reads what is there (without blocking) into `into`. Returns the bytes
// read, 0 when nothing came in time, or -1 at the end of the input or on an error, which the
// caller's own reader of the descriptor then reports.
napi_value ReadReady(napi_env env, napi_callback_info info) {
  return guarded(env, [&]() -> napi_value {
    auto a = args(env, info, 3);
    int fd = int32(env, a[0]);
    size_t capacity = 0;
    uint8_t* into = bytesOf(env, a[1], capacity);
    double spinUs = number(env, a[2]);
    if (capacity == 0) throw JsError{"readReady needs room to read into"};
    auto start = std::chrono::steady_clock::now();
    pollfd p{fd, POLLIN, 0};
    for (;;) {
      int r = ::poll(&p, 1, 0);
      if (r < 0 && errno != EINTR) return num(env, -1);
      if (r > 0) break;
      if (std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() >= spinUs) return num(env, 0);
    }
    if ((p.revents & POLLIN) == 0) return num(env, -1);  // hung up or failed, with nothing left to read
    for (;;) {
      ssize_t n = ::read(fd, into, capacity);
      if (n > 0) return num(env, double(n));
      if (n == 0) return num(env, -1);
      if (errno == EINTR) continue;
      return num(env, errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1);
    }
  });
}

// mapFile(fd, bytes): an ArrayBuffer over the first `bytes` bytes of the file, shared with
// every process that maps it, its pages reserved and mapped at once. unmapFile() undoes it; a mapping not
// undone is undone when its ArrayBuffer is collected.
napi_value MapFile(napi_env env, napi_callback_info info) {
  return guarded(env, [&]() -> napi_value {
    auto a = args(env, info, 2);
    int fd = int32(env, a[0]);
    double want = number(env, a[1]);
    if (!(want >= 1) || want > double(uint64_t(1) << 46)) throw JsError{"mapFile needs a size from 1 byte"};
    size_t bytes = size_t(want);
    // The pages are given to the file first: a page of a full tmpfs that a copy touches would
    // fault (SIGBUS); a refusal here is an error the caller answers with system calls instead.
    int refused = ::posix_fallocate(fd, 0, off_t(bytes));
    if (refused != 0) throw JsError{std::string("cannot reserve the shared file's pages: ") + std::strerror(refused)};
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (p == MAP_FAILED) throw JsError{std::string("cannot map the shared file: ") + std::strerror(errno)};
    auto* m = new Mapping{p, bytes, true};
    napi_value ab;
    if (napi_create_external_arraybuffer(env, p, bytes, finalizeMapping, m, &ab) != napi_ok) {
      delete m;
      (void)::munmap(p, bytes);
      throw JsError{"this Node.js cannot wrap external memory in an ArrayBuffer"};
    }
    mappings[p] = m;
    return ab;
  });
}

// unmapFile(buffer): detaches an ArrayBuffer mapFile() made and unmaps its memory now (before
// the file shrinks, which would make its pages fault).
napi_value UnmapFile(napi_env env, napi_callback_info info) {
  return guarded(env, [&]() -> napi_value {
    auto a = args(env, info, 1);
    void* data = nullptr;
    size_t length = 0;
    if (napi_get_arraybuffer_info(env, a[0], &data, &length) != napi_ok) throw JsError{"expected an ArrayBuffer"};
    auto it = mappings.find(data);
    if (it == mappings.end()) return undefined(env);  // not a mapping, or unmapped already
    if (napi_detach_arraybuffer(env, a[0]) != napi_ok) throw JsError{"cannot detach the mapping's ArrayBuffer"};
    Mapping* m = it->second;
    mappings.erase(it);
    m->live = false;  // its finalizer only frees the record
    (void)::munmap(m->data, m->bytes);
    return undefined(env);
  });
}

// copy(dst, src): copies the bytes of one TypedArray into another of the same byte length,
// a large copy by several threads.
napi_value Copy(napi_env env, napi_callback_info info) {
  return guarded(env, [&]() -> napi_value {
    auto a = args(env, info, 2);
    size_t dstBytes = 0, srcBytes = 0;
    uint8_t* dst = bytesOf(env, a[0], dstBytes);
    const uint8_t* src = bytesOf(env, a[1], srcBytes);
    if (dstBytes != srcBytes) throw JsError{"copy needs two arrays of the same byte length"};
    if (dstBytes > 0) hostCopy(dst, src, dstBytes);
    return undefined(env);
  });
}

}  // namespace gk
