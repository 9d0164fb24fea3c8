// --serve's buffer requests (spec/launcher-protocol.md, "--serve frames"): alloc (zeros, a
// payload or a shared file), free, upload, download, and fill and copy on the device, queued
// on queue 0 (launcher/device.cpp, Gpu::fill and Gpu::copy). Each range is checked against its
// buffer's size before the GPU is touched.
#include <cstring>
#include <new>

#include "request.hpp"
#include "server.hpp"

namespace gk::serve {

LauncherError unknownHandle(const std::string& what, uint64_t id) {
  return makeError("UNKNOWN_HANDLE", phase::kRequest, "no " + what + " with handle " + std::to_string(id));
}

Mapped Server::mapFile(const JsonValue& ref, uint64_t bytes, bool write) {
  Mapped m;
  m.ref = parseFileRef(ref, "file");
  m.data = files_.map(m.ref, bytes, write, m.hold);
  return m;
}

bool Server::pinFor(Gpu& g, const Mapped& m, std::optional<PinScope>& scope) {
  if (m.ref.fd >= 0) {
    files_.pin(g);
    return files_.pinned(m.ref.fd);
  }
  scope.emplace(g, m.hold.mapBase(), m.hold.mapLength(), pinPolicy() == PinPolicy::Always);
  return scope->pinned();
}

void Server::uploadPayload(CUdeviceptr dst, uint64_t n) {
  Gpu& g = gpu();
  std::vector<uint8_t> chunk(n < kUploadChunk ? size_t(n) : kUploadChunk);
  for (uint64_t done = 0; done < n;) {
    size_t len = n - done < chunk.size() ? size_t(n - done) : chunk.size();
    in_.readPayload(chunk.data(), len);
    g.upload(dst + done, chunk.data(), len);
    done += len;
  }
}

Reply Server::opAlloc(const JsonValue& req) {
  checkKeys(req, "frame", {"op", "id", "bytes", "file"});
  uint64_t bytes = requireUint(requireMember(req, "frame", "bytes"), "bytes", kMaxBufferBytes);
  // The contents: a payload, a file, or neither (zeros).
  const JsonValue* file = req.get("file");
  uint64_t payload = in_.payloadLeft();
  if (file != nullptr && payload != 0) throw badRequest("file", "give the contents as a payload or in a \"file\", not both");
  if (payload != 0 && payload != bytes) {
    throw badRequest("payload", "a payload of " + std::to_string(payload) + " bytes does not fill a buffer of " +
                                    std::to_string(bytes) + " bytes");
  }
  Mapped m;
  if (file != nullptr) m = mapFile(*file, bytes, false);
  Gpu& g = gpu();
  BufferEntry b;
  b.bytes = bytes;
  b.ptr = g.alloc(bytes, "a buffer");
  bool pinned = false;
  try {
    if (file != nullptr) {
      std::optional<PinScope> scope;
      pinned = pinFor(g, m, scope);
      g.upload(b.ptr, m.data, bytes);
    } else if (payload != 0) {
      uploadPayload(b.ptr, bytes);
    } else {
      g.zero(b.ptr, bytes);
    }
  } catch (const LauncherError&) {
    if (b.ptr != 0) (void)g.driver().cuMemFree(b.ptr);  // answering the copy's error instead
    throw;
  }
  uint64_t id = nextId_++;
  buffers_[id] = b;
  Reply r;
  r.fields = ",\"buffer\":" + std::to_string(id) + ",\"bytes\":" + std::to_string(bytes);
  if (file != nullptr) r.fields += pinned ? ",\"pinned\":true" : ",\"pinned\":false";
  return r;
}

Reply Server::opFree(const JsonValue& req) {
  checkKeys(req, "frame", {"op", "id", "buffer"});
  BufferEntry& b = buffer(requireMember(req, "frame", "buffer"), "buffer");
  uint64_t id = requireUint(*req.get("buffer"), "buffer", UINT64_MAX);
  CUdeviceptr p = b.ptr;
  buffers_.erase(id);
  gpu().free(p);
  return Reply{};
}

Reply Server::opUpload(const JsonValue& req) {
  checkKeys(req, "frame", {"op", "id", "buffer", "offset", "file", "bytes"});
  BufferEntry& b = buffer(requireMember(req, "frame", "buffer"), "buffer");
  uint64_t offset = 0;
  if (const JsonValue* o = req.get("offset")) offset = requireUint(*o, "offset", kMaxBufferBytes);
  const JsonValue* file = req.get("file");
  uint64_t n = in_.payloadLeft();
  if (file != nullptr) {
    if (n != 0) throw badRequest("file", "give the data as a payload or in a \"file\", not both");
    n = requireUint(requireMember(req, "frame", "bytes"), "bytes", kMaxBufferBytes);
  } else if (req.get("bytes") != nullptr) {
    throw badRequest("bytes", "\"bytes\" goes with \"file\"; a payload's size is its length");
  }
  if (offset > b.bytes || n > b.bytes - offset) {
    throw badRequest(file != nullptr ? "bytes" : "payload", std::to_string(n) + " bytes at offset " + std::to_string(offset) +
                                                                " do not fit a buffer of " + std::to_string(b.bytes) + " bytes");
  }
  Reply r;
  r.fields = ",\"bytes\":" + std::to_string(n);
  if (file == nullptr) {
    uploadPayload(b.ptr + offset, n);
  } else {
    Mapped m = mapFile(*file, n, false);
    Gpu& g = gpu();
    std::optional<PinScope> scope;
    bool pinned = pinFor(g, m, scope);
    g.upload(b.ptr + offset, m.data, n);
    r.fields += pinned ? ",\"pinned\":true" : ",\"pinned\":false";
  }
  return r;
}

Reply Server::opDownload(const JsonValue& req) {
  checkKeys(req, "frame", {"op", "id", "buffer", "offset", "bytes", "file"});
  BufferEntry& b = buffer(requireMember(req, "frame", "buffer"), "buffer");
  uint64_t offset = 0;
  if (const JsonValue* o = req.get("offset")) offset = requireUint(*o, "offset", kMaxBufferBytes);
  if (offset > b.bytes) throw badRequest("offset", "offset " + std::to_string(offset) + " is past the buffer's end");
  uint64_t n = b.bytes - offset;
  if (const JsonValue* v = req.get("bytes")) n = requireUint(*v, "bytes", b.bytes - offset);
  Reply r;
  r.fields = ",\"bytes\":" + std::to_string(n);
  if (const JsonValue* file = req.get("file")) {  // into the file; the answer has no payload
    Mapped m = mapFile(*file, n, true);
    Gpu& g = gpu();
    std::optional<PinScope> scope;
    bool pinned = pinFor(g, m, scope);
    g.download(m.data, b.ptr + offset, n);
    r.fields += pinned ? ",\"pinned\":true" : ",\"pinned\":false";
    return r;
  }
  r.payload.resize(size_t(n));
  gpu().download(r.payload.data(), b.ptr + offset, n);
  return r;
}

CUdeviceptr Server::range(const BufferEntry& b, const JsonValue& req, const char* offsetKey, uint64_t bytes) {
  uint64_t offset = 0;
  if (const JsonValue* o = req.get(offsetKey)) offset = requireUint(*o, offsetKey, kMaxBufferBytes);
  if (offset > b.bytes || bytes > b.bytes - offset) {
    throw badRequest(offsetKey, std::to_string(bytes) + " bytes at offset " + std::to_string(offset) + " do not fit a buffer of " +
                                    std::to_string(b.bytes) + " bytes");
  }
  return b.ptr + offset;
}

// fill: `count` elements of the payload's bytes (one element) from `offset`, queued on queue 0.
Reply Server::opFill(const JsonValue& req) {
  checkKeys(req, "frame", {"op", "id", "buffer", "offset", "count"});
  BufferEntry& b = buffer(requireMember(req, "frame", "buffer"), "buffer");
  uint64_t size = in_.payloadLeft();
  if (size == 0 || size > kMaxFillPattern) throw badRequest("payload", "a fill's payload is one element: 1 to " + std::to_string(kMaxFillPattern) + " bytes");
  uint64_t count = requireUint(requireMember(req, "frame", "count"), "count", kMaxBufferBytes / size);
  CUdeviceptr dst = range(b, req, "offset", size * count);
  std::vector<uint8_t> pattern(static_cast<size_t>(size));
  in_.readPayload(pattern.data(), pattern.size());
  if (queues_) queues_->mark();  // the last queued launch's marker goes before it
  gpu().fill(dst, pattern.data(), pattern.size(), count, nullptr);
  return Reply{};
}

// copy: `bytes` bytes from buffer `from` at `fromOffset` to `buffer` at `offset`, queued on queue 0.
Reply Server::opCopy(const JsonValue& req) {
  checkKeys(req, "frame", {"op", "id", "buffer", "offset", "from", "fromOffset", "bytes"});
  BufferEntry& dst = buffer(requireMember(req, "frame", "buffer"), "buffer");
  BufferEntry& src = buffer(requireMember(req, "frame", "from"), "from");
  uint64_t n = requireUint(requireMember(req, "frame", "bytes"), "bytes", kMaxBufferBytes);
  CUdeviceptr to = range(dst, req, "offset", n);
  CUdeviceptr from = range(src, req, "fromOffset", n);
  if (to < from + n && from < to + n && n != 0) throw badRequest("fromOffset", "the two ranges of a copy overlap");
  if (queues_) queues_->mark();
  gpu().copy(to, from, n, nullptr);
  return Reply{};
}

}  // namespace gk::serve
