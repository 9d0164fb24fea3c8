#include "errors.hpp"

#include "json.hpp"

namespace gk {

int LauncherError::exitStatus() const {
  if (code == "USAGE") return 2;
  if (code == "BAD_REQUEST" || code == "BAD_LAUNCH_CONFIG" || code == "BAD_ARGS" || code == "TOO_LARGE" ||
      code == "MODULE_UNREADABLE" || code == "BAD_FRAME" || code == "UNKNOWN_HANDLE") {
    return 3;
  }
  if (code == "NO_CUDA_DRIVER" || code == "NO_DEVICE" || code == "DRIVER_TOO_OLD") return 4;
  if (code == "CUDA_ERROR" || code == "KERNEL_TIMEOUT") return 1;
  return 5;  // HOST_OUT_OF_MEMORY, IO_ERROR, INTERNAL
}

LauncherError makeError(const std::string& code, const std::string& ph, const std::string& message) {
  LauncherError e;
  e.code = code;
  e.phase = ph;
  e.message = message;
  return e;
}

LauncherError badRequest(const std::string& path, const std::string& message) {
  LauncherError e = makeError("BAD_REQUEST", phase::kRequest, path.empty() ? message : path + ": " + message);
  e.path = path;
  return e;
}

void appendErrorJson(std::string& out, const LauncherError& e) {
  out += '{';
  appendKey(out, "code");
  appendJsonString(out, e.code);
  out += ',';
  appendKey(out, "message");
  appendJsonString(out, e.message);
  out += ',';
  appendKey(out, "phase");
  appendJsonString(out, e.phase);
  if (!e.call.empty()) {
    out += ',';
    appendKey(out, "call");
    appendJsonString(out, e.call);
  }
  if (!e.cudaError.empty()) {
    out += ',';
    appendKey(out, "cudaError");
    appendJsonString(out, e.cudaError);
    out += ',';
    appendKey(out, "cudaErrorNumber");
    appendInt(out, e.cudaErrorNumber);
  }
  if (!e.path.empty()) {
    out += ',';
    appendKey(out, "path");
    appendJsonString(out, e.path);
  }
  if (e.offset >= 0) {
    out += ',';
    appendKey(out, "offset");
    appendInt(out, e.offset);
  }
  if (!e.log.empty()) {
    out += ',';
    appendKey(out, "log");
    appendJsonString(out, e.log);
  }
  if (!e.hint.empty()) {
    out += ',';
    appendKey(out, "hint");
    appendJsonString(out, e.hint);
  }
  if (e.sticky) {
    out += ',';
    appendKey(out, "sticky");
    out += "true";
  }
  if (e.hasLaunch) {
    out += ',';
    appendKey(out, "launch");
    out += "{\"queue\":" + std::to_string(e.launchQueue) + ",\"seq\":" + std::to_string(e.launchSeq) + ",\"kernel\":";
    appendJsonString(out, e.launchKernel);
    out += e.launchCertain ? ",\"certain\":true}" : ",\"certain\":false}";
  }
  if (e.hasMemory) {
    out += ',';
    appendKey(out, "memory");
    out += "{\"asked\":" + std::to_string(e.bytesAsked) + ",\"free\":" + std::to_string(e.bytesFree) +
           ",\"total\":" + std::to_string(e.bytesTotal) + "}";
  }
  out += '}';
}

std::string errorResponse(const LauncherError& e) {
  std::string out = "{\"ok\":false,\"error\":";
  appendErrorJson(out, e);
  out += "}\n";
  return out;
}

}  // namespace gk
