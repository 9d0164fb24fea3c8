// The launcher's one error type. Every failure, from a malformed request to a faulting
// kernel, becomes a LauncherError, and every mode answers it as the same JSON object
// (spec/launcher-protocol.md, "Errors").
#pragma once

#include <cstdint>
#include <string>

namespace gk {

// Phases, in the order a one-shot launch passes through them.
namespace phase {
inline constexpr const char* kRequest = "request";
inline constexpr const char* kInit = "init";
inline constexpr const char* kModuleLoad = "module_load";
inline constexpr const char* kAlloc = "alloc";
inline constexpr const char* kH2D = "h2d";
inline constexpr const char* kLaunch = "launch";
inline constexpr const char* kKernel = "kernel";
inline constexpr const char* kD2H = "d2h";
inline constexpr const char* kCleanup = "cleanup";
inline constexpr const char* kServe = "serve";
inline constexpr const char* kIo = "io";
}  // namespace phase

struct LauncherError {
  std::string code;     // USAGE, BAD_REQUEST, CUDA_ERROR, ... (spec: "Error codes")
  std::string message;  // one sentence for a person
  std::string phase;    // see namespace phase
  std::string call;     // the CUDA Driver API call that failed, if one did
  std::string cudaError;  // e.g. CUDA_ERROR_ILLEGAL_ADDRESS
  int cudaErrorNumber = 0;
  std::string path;      // where in the request, e.g. args[2].b64
  int64_t offset = -1;   // byte offset into the JSON text, for syntax errors
  std::string log;       // the driver's JIT error log, for module errors
  std::string hint;      // what the launcher found out about a failed launch
  bool sticky = false;   // the CUDA context is unusable after this error
  // An asynchronous failure of queued work: the launch it is pinned on (launcher/queues.hpp).
  bool hasLaunch = false;
  uint32_t launchQueue = 0;
  uint32_t launchSeq = 0;
  std::string launchKernel;
  bool launchCertain = false;  // the GPU's markers show the launches before it finished
  // CUDA_ERROR_OUT_OF_MEMORY from an allocation: what was asked and what the device had free.
  bool hasMemory = false;
  uint64_t bytesAsked = 0;
  uint64_t bytesFree = 0;
  uint64_t bytesTotal = 0;

  // The process exit status for this error (spec: "Exit statuses").
  int exitStatus() const;
};

LauncherError makeError(const std::string& code, const std::string& phase, const std::string& message);
LauncherError badRequest(const std::string& path, const std::string& message);

// Appends the error as a JSON object: {"code":..., "message":..., ...} (no "ok" wrapper).
void appendErrorJson(std::string& out, const LauncherError& e);

// `{"ok":false,"error":{...}}` followed by a newline.
std::string errorResponse(const LauncherError& e);

}  // namespace gk
