// One-shot and --check modes: one request on stdin, one JSON answer on stdout.
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "device.hpp"
#include "files.hpp"
#include "json.hpp"
#include "modes.hpp"
#include "request.hpp"

namespace gk {

namespace {

struct Timing {
  double initMs = 0, moduleLoadMs = 0, allocMs = 0, h2dMs = 0, d2hMs = 0, totalMs = 0;
  KernelTimes kernel;
};

void appendTiming(std::string& out, const Timing& t) {
  const std::pair<const char*, double> fields[] = {
      {"initMs", t.initMs},           {"moduleLoadMs", t.moduleLoadMs},
      {"allocMs", t.allocMs},         {"h2dMs", t.h2dMs},
      {"kernelMs", t.kernel.medianMs}, {"kernelMinMs", t.kernel.minMs},
      {"kernelMedianMs", t.kernel.medianMs}, {"d2hMs", t.d2hMs},
      {"totalMs", t.totalMs},
  };
  out += '{';
  for (const auto& f : fields) {
    appendKey(out, f.first);
    appendMs(out, f.second);
    out += ',';
  }
  appendKey(out, "launches");
  appendUint(out, t.kernel.launches);
  out += '}';
}

// The answer: {"ok":true,"check":?,"timing":{...},"scalars":[...]?,"outputs":[...]}.
// Each output is written straight from its bytes; a zero-filled array that never reached a
// device (--check) is written without being allocated.
void writeSuccess(Output& out, const Request& req, const Timing& t, bool check) {
  std::string head = "{\"ok\":true,\"check\":";
  head += check ? "true" : "false";
  head += ",\"timing\":";
  appendTiming(head, t);
  if (check) {
    head += ",\"scalars\":[";
    bool first = true;
    for (size_t i = 0; i < req.args.size(); i++) {
      const ArgSpec& a = req.args[i];
      if (a.isArray) continue;
      head += first ? "" : ",";
      first = false;
      head += "{\"index\":" + std::to_string(i) + ",\"type\":\"" + elemName(a.elem) + "\",\"bits\":\"" +
              bitsToHex(a.bits, a.elem) + "\"}";
    }
    head += ']';
  }
  head += ",\"outputs\":[";
  out.write(head);
  bool first = true;
  for (size_t i = 0; i < req.args.size(); i++) {
    const ArgSpec& a = req.args[i];
    if (!a.isArray || !a.copyBack) continue;
    std::string entry = std::string(first ? "" : ",") + "{\"index\":" + std::to_string(i) + ",\"elem\":\"" + elemName(a.elem) + "\"";
    first = false;
    if (a.hasCopyBackTo) {  // the bytes are in the file already
      entry += ",\"copyBackTo\":";
      appendFileRefJson(entry, a.copyBackTo);
      entry += ",\"bytes\":" + std::to_string(a.bytes) + "}";
      out.write(entry);
      continue;
    }
    out.write(entry + ",\"b64\":\"");
    if (a.data.size() == a.bytes) out.writeBase64(a.data.data(), a.data.size());
    else out.writeBase64Zeros(a.bytes);
    out.write("\"}", 2);
  }
  out.write("]}\n", 3);
  out.flush();
}

// Device resources of one launch, released quietly if an error ends the launch early.
struct Held {
  Gpu& gpu;
  std::vector<CUdeviceptr> ptrs;
  CUmodule module = nullptr;

  ~Held() {
    if (gpu.abandoned()) return;  // a kernel is still running: a CUDA call could wait on it
    const Driver& d = gpu.driver();
    for (CUdeviceptr p : ptrs) {
      if (p != 0) (void)d.cuMemFree(p);  // an error is already being answered
    }
    if (module != nullptr) (void)d.cuModuleUnload(module);
  }

  void release() {
    for (CUdeviceptr& p : ptrs) {
      CUdeviceptr q = p;
      p = 0;
      gpu.free(q);
    }
    CUmodule m = module;
    module = nullptr;
    if (m != nullptr) gpu.unloadModule(m);
  }
};

void runOnDevice(const OneShotArgs& args, const std::vector<char>& image, const LaunchDims& dims, Request& req,
                 Timing& t) {
  auto mark = Clock::now();
  Gpu gpu(args.device);
  t.initMs = msSince(mark);

  Held held{gpu, std::vector<CUdeviceptr>(req.args.size(), 0)};
  mark = Clock::now();
  held.module = gpu.loadModule(image, args.module);
  CUfunction f = gpu.getFunction(held.module, args.kernel);
  t.moduleLoadMs = msSince(mark);

  std::vector<size_t> sizes;
  for (const ArgSpec& a : req.args) sizes.push_back(a.isArray ? sizeof(CUdeviceptr) : elemSize(a.elem));
  KernelInfo info = gpu.describe(f);
  gpu.checkParams(info, args.kernel, sizes);
  gpu.prepareLaunch(f, info, dims, req.options.sharedBytes);
  ConstantCache constants;
  gpu.fillConstants(held.module, constants, req.options.constants);

  mark = Clock::now();
  for (size_t i = 0; i < req.args.size(); i++) {
    if (req.args[i].isArray) held.ptrs[i] = gpu.alloc(req.args[i].bytes, "args[" + std::to_string(i) + "]");
  }
  t.allocMs = msSince(mark);

  bool pinFiles = pinPolicy() == PinPolicy::Always;
  mark = Clock::now();
  for (size_t i = 0; i < req.args.size(); i++) {
    const ArgSpec& a = req.args[i];
    if (!a.isArray) continue;
    PinScope pin(gpu, a.fileRange.mapBase(), a.fileRange.mapLength(), pinFiles && a.hasFile);
    if (const uint8_t* src = a.contents()) gpu.upload(held.ptrs[i], src, a.bytes);
    else gpu.zero(held.ptrs[i], a.bytes);
  }
  t.h2dMs = msSince(mark);

  // Each parameter points at its value: a scalar's bits (little-endian, so the first
  // elemSize bytes are the value) or an array's device pointer.
  std::vector<void*> params(req.args.size());
  for (size_t i = 0; i < req.args.size(); i++) {
    params[i] = req.args[i].isArray ? static_cast<void*>(&held.ptrs[i]) : static_cast<void*>(&req.args[i].bits);
  }
  t.kernel = gpu.launch(f, dims, req.options, params.data());

  mark = Clock::now();
  for (size_t i = 0; i < req.args.size(); i++) {
    ArgSpec& a = req.args[i];
    if (!a.isArray || !a.copyBack) continue;
    if (a.hasCopyBackTo) {
      PinScope pin(gpu, a.copyBackRange.mapBase(), a.copyBackRange.mapLength(), pinFiles);
      gpu.download(a.copyBackRange.data(), held.ptrs[i], a.bytes);
      continue;
    }
    a.data.resize(a.bytes);
    gpu.download(a.data.data(), held.ptrs[i], a.bytes);
  }
  t.d2hMs = msSince(mark);

  held.release();
  gpu.release();
}

// --check: the copied-back arrays equal their inputs, so those bound for a file are written there.
void copyBackUnchanged(Request& req) {
  for (ArgSpec& a : req.args) {
    if (!a.isArray || !a.hasCopyBackTo || a.bytes == 0) continue;
    if (a.hasData) std::memmove(a.copyBackRange.data(), a.data.data(), a.bytes);
    else std::memset(a.copyBackRange.data(), 0, a.bytes);
  }
}

}  // namespace

int answerError(Output& out, const LauncherError& e) {
  try {
    out.write(errorResponse(e));
    out.flush();
  } catch (const LauncherError&) {
    std::fprintf(stderr, "gpu_launcher: %s\n", e.message.c_str());
  }
  if (e.code == "KERNEL_TIMEOUT") _exit(e.exitStatus());
  return e.exitStatus();
}

int runOneShot(const OneShotArgs& args) {
  Output out(STDOUT_FILENO);
  try {
    // Everything the request says is checked before the driver is loaded.
    LaunchDims dims = parseDimsArgv(args.dims);
    if (args.kernel.empty()) throw badRequest("kernel", "the kernel name is empty");
    std::vector<char> image = readModuleFile(args.module);
    Request req;
    {
      std::string text = readAll(STDIN_FILENO, kMaxRequestBytes);
      req = parseRequest(text.data(), text.size());
    }
    mapArgFiles(req, args.check);
    Timing t;
    if (args.check) copyBackUnchanged(req);
    else runOnDevice(args, image, dims, req, t);
    t.totalMs = msSince(args.start);
    writeSuccess(out, req, t, args.check);
    return 0;
  } catch (const LauncherError& e) {
    return answerError(out, e);
  }
}

}  // namespace gk
