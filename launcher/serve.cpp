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

#include "modes.hpp"
#include "request.hpp"
#include "server.hpp"

namespace gk {

namespace serve {

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
}  // namespace serve

int runServe(int device) {
  serve::Server server(device);
  return server.run();
}

}  // namespace gk
