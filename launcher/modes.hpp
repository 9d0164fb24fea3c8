// The launcher's modes (spec/launcher-protocol.md, "Modes"). Each returns the exit status
// after writing its answer to stdout.
#pragma once

#include <chrono>
#include <string>

#include "errors.hpp"
#include "io.hpp"

namespace gk {

inline constexpr const char* kLauncherVersion = "1.0.0";
inline constexpr int kProtocolVersion = 1;

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct OneShotArgs {
  std::string module;
  std::string kernel;
  char* const* dims = nullptr;  // six decimal strings: gx gy gz bx by bz
  bool check = false;
  int device = 0;
  Clock::time_point start;
};

int runOneShot(const OneShotArgs& args);
int runDevices();
int runServe(int device);

// Writes `{"ok":false,"error":...}` and returns the error's exit status. After a kernel
// timeout the process ends here at once, skipping every destructor and exit handler: the
// kernel is still running and any CUDA call could wait for it.
int answerError(Output& out, const LauncherError& e);

}  // namespace gk
