// The --serve server's state and requests (serve.cpp: the frame loop and the module, launch
// and queue requests; serve_buffers.cpp: the buffer requests, alloc, free, upload, download,
// fill and copy). Only serve.cpp and serve_buffers.cpp include it; runServe (modes.hpp) is the
// way in.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "device.hpp"
#include "files.hpp"
#include "frames.hpp"
#include "json.hpp"
#include "queues.hpp"

namespace gk::serve {

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

LauncherError unknownHandle(const std::string& what, uint64_t id);

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

}  // namespace gk::serve
