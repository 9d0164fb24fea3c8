// --serve: a persistent launcher. Requests and answers are binary frames (spec: "--serve
// frames"): modules stay loaded and buffers stay on the GPU between launches. After an
// error that leaves the CUDA context unusable the server answers it, marked
// "contextLost", and exits; the client starts a new server. The answer of a queued launch
// waits in the output while the next request was read already or waits in the input (a
// launch and the sync behind it): the answers go out together, so the client reads once for
// them. Every other answer, and every error, is sent at once (with those waiting before it).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <optional>

#include "device.hpp"
#include "files.hpp"
#include "frames.hpp"
#include "json.hpp"
#include "modes.hpp"
#include "queues.hpp"
#include "request.hpp"

namespace gk {

namespace {

constexpr uint64_t kMaxBufferBytes = uint64_t(1) << 40;
constexpr size_t kUploadChunk = size_t(64) << 20;
constexpr uint64_t kMaxFillPattern = uint64_t(1) << 20;  // a fill's element: at most 1 MiB

struct FunctionEntry {
  CUfunction f = nullptr;
  KernelInfo info;  // asked of the driver once
};

struct ModuleEntry {
  std::string path;
  CUmodule module = nullptr;
  int64_t mtimeNs = 0;
  uint64_t size = 0;
  std::map<std::string, FunctionEntry> functions;
  ConstantCache constants;  // what the module's constants hold, so that a launch fills only what changed
};

struct BufferEntry {
  CUdeviceptr ptr = 0;
  uint64_t bytes = 0;
};

// The bytes a transfer's "file" names, checked and mapped before the GPU is used.
struct Mapped {
  FileRef ref;
  FileRange hold;  // the mapping of a path, for this request only
  uint8_t* data = nullptr;
};

struct Reply {
  std::string fields;            // extra members of the answer, each preceded by a comma
  std::vector<uint8_t> payload;  // download only
  bool close = false;
  bool queued = false;  // a queued launch's: it may wait for the answers after it
};

LauncherError unknownHandle(const std::string& what, uint64_t id) {
  return makeError("UNKNOWN_HANDLE", phase::kRequest, "no " + what + " with handle " + std::to_string(id));
}

class Server {
 public:
  explicit Server(int device) : device_(device), in_(STDIN_FILENO), out_(STDOUT_FILENO) {}
  int run();

 private:
  int device_;
  FrameInput in_;
  Output out_;
  std::string header_;  // the current request's header, reused from frame to frame
  std::unique_ptr<Gpu> gpu_;
  std::unique_ptr<Queues> queues_;  // made with the GPU's context, destroyed before it is released
  FileCache files_;  // after gpu_: destroyed first, as unpinning needs the context
  std::map<uint64_t, ModuleEntry> modules_;
  std::map<std::string, uint64_t> moduleByPath_;
  std::map<uint64_t, BufferEntry> buffers_;
  uint64_t nextId_ = 1;

  Gpu& gpu() {
    if (!gpu_) gpu_ = std::make_unique<Gpu>(device_);
    return *gpu_;
  }
  Queues& queues() {
    if (!queues_) queues_ = std::make_unique<Queues>(gpu());
    return *queues_;
  }

  // Sends an answer; with `batch`, it waits in the output while the next request was read already or waits in the input.
  void send(const std::string& header, const std::vector<uint8_t>& payload, bool batch = false);
  int serveOne(std::string& idText);
  int fatal(const LauncherError& e, const std::string& idText);
  int shutdown();
  Reply dispatch(const JsonValue& req);

  Reply opDevices();
  Reply opLoad(const JsonValue& req);
  Reply opUnload(const JsonValue& req);
  Reply opAlloc(const JsonValue& req);
  Reply opFree(const JsonValue& req);
  Reply opUpload(const JsonValue& req);
  Reply opDownload(const JsonValue& req);
  Reply opFill(const JsonValue& req);
  Reply opCopy(const JsonValue& req);
  // Bytes `bytes` of buffer `b` from the request's `offsetKey` (default 0), checked to fit.
  CUdeviceptr range(const BufferEntry& b, const JsonValue& req, const char* offsetKey, uint64_t bytes);
  Reply opLaunch(const JsonValue& req);
  Reply opQueue(const JsonValue& req);
  Reply opSync(const JsonValue& req);
  Reply opMemory(const JsonValue& req);

  ModuleEntry& module(const JsonValue& req);
  BufferEntry& buffer(const JsonValue& handle, const std::string& path);
  // The bytes a "file" reference names, checked and mapped (before the GPU is touched).
  Mapped mapFile(const JsonValue& ref, uint64_t bytes, bool write);
  // Page-locks what `m` maps, as the pin policy says, while `scope` lives; true if it is.
  bool pinFor(Gpu& g, const Mapped& m, std::optional<PinScope>& scope);
  // Copies the request's payload (n bytes) to the device, a piece at a time.
  void uploadPayload(CUdeviceptr dst, uint64_t n);
};

void Server::send(const std::string& header, const std::vector<uint8_t>& payload, bool batch) {
  sendFrame(out_, header, payload.data(), payload.size(), batch && in_.waiting());
}

int Server::shutdown() {
  int status = 0;
  try {
    files_.clear();
    if (gpu_) {
      queues_.reset();
      for (auto& b : buffers_) gpu_->free(b.second.ptr);
      for (auto& m : modules_) gpu_->unloadModule(m.second.module);
      gpu_->release();
    }
  } catch (const LauncherError& e) {
    std::fprintf(stderr, "gpu_launcher --serve: while shutting down: %s\n", e.message.c_str());
    status = e.exitStatus();
  }
  buffers_.clear();
  modules_.clear();
  return status;
}

// Answers one request. Returns the exit status when the server must stop, -1 to go on.
// Throws (BAD_FRAME, IO_ERROR) when the stream itself cannot be trusted.
int Server::serveOne(std::string& idText) {
  if (!in_.next(header_)) return shutdown();
  Clock::time_point start = Clock::now();
  auto begin = [&](bool ok) {
    std::string h = ok ? "{\"ok\":true" : "{\"ok\":false";
    if (!idText.empty()) h += ",\"id\":" + idText;
    h += ",\"ms\":";
    appendMs(h, msSince(start));
    return h;
  };
  try {
    JsonValue req = parseJson(header_.data(), header_.size());
    if (req.kind != JsonValue::Kind::Object) throw badRequest("", "a frame header must be a JSON object");
    if (const JsonValue* id = req.get("id")) idText = std::to_string(requireUint(*id, "id", uint64_t(1) << 53));
    Reply reply;
    try {
      reply = dispatch(req);
    } catch (const std::bad_alloc&) {
      throw makeError("HOST_OUT_OF_MEMORY", phase::kServe, "the launcher ran out of host memory");
    }
    send(begin(true) + reply.fields + "}", reply.payload, reply.queued);
    return reply.close ? shutdown() : -1;
  } catch (LauncherError& e) {
    if (e.code == "IO_ERROR" || e.code == "BAD_FRAME") throw;
    if (e.sticky && queues_) queues_->blame(e);  // a copy or a free that reported queued work's fault
    in_.skipPayload();
    std::string h = begin(false) + ",\"error\":";
    appendErrorJson(h, e);
    if (e.sticky) h += ",\"contextLost\":true";
    send(h + "}", {});
    if (e.code == "KERNEL_TIMEOUT") _exit(e.exitStatus());  // the kernel still runs
    return e.sticky ? e.exitStatus() : -1;  // a lost context: the client starts a new server
  }
}

// The stream cannot be trusted past this point: answer once if possible, then stop.
int Server::fatal(const LauncherError& e, const std::string& idText) {
  if (e.code != "IO_ERROR") {
    std::string h = "{\"ok\":false";
    if (!idText.empty()) h += ",\"id\":" + idText;
    h += ",\"fatal\":true,\"error\":";
    appendErrorJson(h, e);
    try {
      send(h + "}", {});
    } catch (const LauncherError&) {
      // stdout is gone as well; stderr below is all that is left
    }
  }
  std::fprintf(stderr, "gpu_launcher --serve: %s\n", e.message.c_str());
  shutdown();
  return e.exitStatus();
}

int Server::run() {
  for (;;) {
    std::string idText;
    try {
      int status = serveOne(idText);
      if (status >= 0) return status;
    } catch (const LauncherError& e) {
      return fatal(e, idText);
    } catch (const std::exception& e) {
      return fatal(makeError("INTERNAL", phase::kServe, std::string("internal error: ") + e.what()), idText);
    }
  }
}

Reply Server::dispatch(const JsonValue& req) {
  std::string op = requireString(req, "frame", "op");
  if (op != "upload" && op != "alloc" && op != "fill" && in_.payloadLeft() != 0) throw badRequest("op", "\"" + op + "\" takes no payload");
  if (op == "hello") {
    checkKeys(req, "frame", {"op", "id"});
    Reply r;
    r.fields = ",\"protocol\":" + std::to_string(kProtocolVersion) + ",\"version\":\"" + kLauncherVersion + "\"";
    return r;
  }
  if (op == "init") {
    checkKeys(req, "frame", {"op", "id"});
    Reply r;
    r.fields = ",\"device\":";
    appendDeviceJson(r.fields, gpu().info(), gpu().driver().version);
    return r;
  }
  if (op == "devices") {
    checkKeys(req, "frame", {"op", "id"});
    return opDevices();
  }
  if (op == "load") return opLoad(req);
  if (op == "unload") return opUnload(req);
  if (op == "alloc") return opAlloc(req);
  if (op == "free") return opFree(req);
  if (op == "upload") return opUpload(req);
  if (op == "download") return opDownload(req);
  if (op == "fill") return opFill(req);
  if (op == "copy") return opCopy(req);
  if (op == "launch") return opLaunch(req);
  if (op == "queue") return opQueue(req);
  if (op == "sync") return opSync(req);
  if (op == "memory") return opMemory(req);
  if (op == "close") {
    checkKeys(req, "frame", {"op", "id"});
    Reply r;
    r.close = true;
    return r;
  }
  std::string q;
  appendJsonString(q, op);
  throw badRequest("op", "unknown op " + q);
}

Reply Server::opDevices() {
  const Driver& d = Driver::get();
  Reply r;
  r.fields = ",\"driverVersion\":" + std::to_string(d.version) + ",\"devices\":[";
  std::vector<DeviceInfo> devices = listDevices(d);
  for (size_t i = 0; i < devices.size(); i++) {
    if (i > 0) r.fields += ',';
    appendDeviceJson(r.fields, devices[i], d.version);
  }
  r.fields += ']';
  return r;
}

ModuleEntry& Server::module(const JsonValue& req) {
  uint64_t id = requireUint(requireMember(req, "frame", "module"), "module", UINT64_MAX);
  auto it = modules_.find(id);
  if (it == modules_.end()) throw unknownHandle("module", id);
  return it->second;
}

BufferEntry& Server::buffer(const JsonValue& handle, const std::string& path) {
  uint64_t id = requireUint(handle, path, UINT64_MAX);
  auto it = buffers_.find(id);
  if (it == buffers_.end()) throw unknownHandle("buffer", id);
  return it->second;
}

Reply Server::opLoad(const JsonValue& req) {
  checkKeys(req, "frame", {"op", "id", "path"});
  std::string path = requireString(req, "frame", "path");
  if (path.empty() || path.find('\0') != std::string::npos) throw badRequest("path", "expected a file path");
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    throw makeError("MODULE_UNREADABLE", phase::kRequest, "cannot read module " + path + ": " + std::strerror(errno));
  }
  int64_t mtimeNs = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  auto cached = moduleByPath_.find(path);
  if (cached != moduleByPath_.end()) {
    const ModuleEntry& m = modules_.at(cached->second);
    if (m.mtimeNs == mtimeNs && m.size == uint64_t(st.st_size)) {
      Reply r;
      r.fields = ",\"module\":" + std::to_string(cached->second) + ",\"cached\":true";
      return r;
    }
  }
  std::vector<char> image = readModuleFile(path);
  ModuleEntry entry;
  entry.path = path;
  entry.mtimeNs = mtimeNs;
  entry.size = uint64_t(st.st_size);
  entry.module = gpu().loadModule(image, path);
  uint64_t id = nextId_++;
  modules_[id] = std::move(entry);
  moduleByPath_[path] = id;  // a changed file gets a new handle; the old one stays usable
  Reply r;
  r.fields = ",\"module\":" + std::to_string(id) + ",\"cached\":false";
  return r;
}

Reply Server::opUnload(const JsonValue& req) {
  checkKeys(req, "frame", {"op", "id", "module"});
  ModuleEntry& m = module(req);
  uint64_t id = requireUint(*req.get("module"), "module", UINT64_MAX);
  CUmodule handle = m.module;
  auto byPath = moduleByPath_.find(m.path);
  if (byPath != moduleByPath_.end() && byPath->second == id) moduleByPath_.erase(byPath);
  modules_.erase(id);
  gpu().unloadModule(handle);
  return Reply{};
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

Reply Server::opLaunch(const JsonValue& req) {
  checkKeys(req, "frame",
            {"op", "id", "module", "kernel", "grid", "block", "args", "sharedBytes", "repeat", "timeoutMs", "constants", "queue", "seq",
             "timing", "name"});
  // "queue" (with "seq"): queued without waiting for the kernel (spec: "Queues").
  const JsonValue* queueField = req.get("queue");
  uint32_t queue = 0, seq = 0;
  bool timing = false;
  std::string name;
  if (queueField != nullptr) {
    queue = uint32_t(requireUint(*queueField, "queue", kMaxQueues - 1));
    seq = uint32_t(requireUint(requireMember(req, "frame", "seq"), "seq", UINT32_MAX));
    if (const JsonValue* t = req.get("timing")) {
      if (t->kind != JsonValue::Kind::Bool) throw badRequest("timing", "expected true or false");
      timing = t->boolean;
    }
    if (req.get("repeat") != nullptr || req.get("timeoutMs") != nullptr) {
      throw badRequest("queue", "a queued launch takes no \"repeat\" or \"timeoutMs\" (give \"timeoutMs\" to the sync)");
    }
    if (req.get("name") != nullptr) name = requireString(req, "frame", "name");
  } else if (req.get("seq") != nullptr || req.get("timing") != nullptr || req.get("name") != nullptr) {
    throw badRequest("seq", "\"seq\", \"timing\" and \"name\" go with \"queue\"");
  }
  // Everything is checked before the driver is used.
  ModuleEntry& m = module(req);
  std::string kernel = requireString(req, "frame", "kernel");
  if (kernel.empty() || kernel.find('\0') != std::string::npos) throw badRequest("kernel", "expected a kernel name");
  LaunchDims dims = parseDimsJson(req.get("grid"), req.get("block"));
  LaunchOptions options = parseLaunchOptions(req);
  const JsonValue& args = requireMember(req, "frame", "args");
  if (args.kind != JsonValue::Kind::Array) throw badRequest("args", "expected an array");
  if (args.items.size() > kMaxArgs) {
    throw makeError("TOO_LARGE", phase::kRequest, "a kernel takes at most " + std::to_string(kMaxArgs) + " arguments");
  }
  size_t n = args.items.size();
  std::vector<uint64_t> slots(n, 0);  // scalar bits or a device pointer
  std::vector<size_t> sizes(n, 0);
  for (size_t i = 0; i < n; i++) {
    const JsonValue& a = args.items[i];
    std::string path = "args[" + std::to_string(i) + "]";
    if (a.kind != JsonValue::Kind::Object) throw badRequest(path, "expected an object");
    const JsonValue* type = a.get("type");
    if (type != nullptr && type->isString() && type->text == "buffer") {
      checkKeys(a, path, {"type", "buffer", "offset"});
      const BufferEntry& b = buffer(requireMember(a, path, "buffer"), path + ".buffer");
      uint64_t offset = 0;  // a GPU array's view: a pointer into its buffer
      if (const JsonValue* o = a.get("offset")) offset = requireUint(*o, path + ".offset", b.bytes);
      slots[i] = b.ptr + offset;
      sizes[i] = sizeof(CUdeviceptr);
    } else {
      Elem e;
      slots[i] = parseScalarArg(a, path, e);
      sizes[i] = elemSize(e);
    }
  }
  Gpu& g = gpu();
  auto fn = m.functions.find(kernel);
  if (fn == m.functions.end()) {
    CUfunction f = g.getFunction(m.module, kernel);
    fn = m.functions.emplace(kernel, FunctionEntry{f, g.describe(f)}).first;
  }
  FunctionEntry& fe = fn->second;
  g.checkParams(fe.info, kernel, sizes);
  g.prepareLaunch(fe.f, fe.info, dims, options.sharedBytes);
  g.fillConstants(m.module, m.constants, options.constants);
  std::vector<void*> params(n);
  for (size_t i = 0; i < n; i++) params[i] = &slots[i];
  if (queueField != nullptr) {
    queues().launch(queue, seq, name.empty() ? kernel : name, timing, fe.f, dims, options.sharedBytes, params.data());
    Reply r;
    r.fields = ",\"queued\":true";
    r.queued = true;
    return r;
  }
  if (queues_) queues_->mark();  // the last queued launch's marker goes before this one
  KernelTimes t = g.launch(fe.f, dims, options, params.data());
  Reply r;
  r.fields = ",\"timing\":{\"kernelMs\":";
  appendMs(r.fields, t.medianMs);
  r.fields += ",\"kernelMinMs\":";
  appendMs(r.fields, t.minMs);
  r.fields += ",\"kernelMedianMs\":";
  appendMs(r.fields, t.medianMs);
  r.fields += ",\"launches\":" + std::to_string(t.launches) + "}";
  return r;
}

Reply Server::opQueue(const JsonValue& req) {
  checkKeys(req, "frame", {"op", "id", "destroy"});
  Reply r;
  if (const JsonValue* d = req.get("destroy")) {
    queues().destroy(uint32_t(requireUint(*d, "destroy", kMaxQueues - 1)));
    return r;
  }
  r.fields = ",\"queue\":" + std::to_string(queues().create());
  return r;
}

Reply Server::opSync(const JsonValue& req) {
  checkKeys(req, "frame", {"op", "id", "queue", "timeoutMs"});
  const JsonValue* q = req.get("queue");
  uint32_t queue = q != nullptr ? uint32_t(requireUint(*q, "queue", kMaxQueues - 1)) : 0;
  uint64_t timeoutMs = 0;
  if (const JsonValue* t = req.get("timeoutMs")) timeoutMs = requireUint(*t, "timeoutMs", kMaxTimeoutMs);
  // Idle already (a short kernel is done by the time its sync is read): nothing to wait for.
  Queues& qs = queues();
  std::vector<LaunchTime> times = qs.idle(q == nullptr, queue) ? qs.finish(q == nullptr, queue) : qs.sync(q == nullptr, queue, timeoutMs);
  Reply r;
  r.fields = ",\"times\":[";
  for (size_t i = 0; i < times.size(); i++) {
    if (i > 0) r.fields += ',';
    r.fields += "[" + std::to_string(times[i].queue) + "," + std::to_string(times[i].seq) + ",";
    appendMs(r.fields, times[i].ms);
    r.fields += "]";
  }
  r.fields += "]";
  return r;
}

Reply Server::opMemory(const JsonValue& req) {
  checkKeys(req, "frame", {"op", "id"});
  Gpu& g = gpu();
  size_t free = 0, total = 0;
  g.driver().check(g.driver().cuMemGetInfo(&free, &total), "cuMemGetInfo_v2", phase::kAlloc);
  Reply r;
  r.fields = ",\"free\":" + std::to_string(free) + ",\"total\":" + std::to_string(total);
  return r;
}

}  // namespace

int runServe(int device) {
  Server server(device);
  return server.run();
}

}  // namespace gk
