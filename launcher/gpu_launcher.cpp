// gpu_launcher: runs CUDA kernels for gk in a process of their own, so that a faulting
// kernel cannot take the caller down. The protocol is defined in spec/launcher-protocol.md.
//
//   gpu_launcher [--device N] MODULE KERNEL gx gy gz bx by bz < request.json
//   gpu_launcher [--device N] --check MODULE KERNEL gx gy gz bx by bz < request.json
//   gpu_launcher --devices
//   gpu_launcher [--device N] --serve
//   gpu_launcher --version
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "device.hpp"
#include "json.hpp"
#include "lifeline.hpp"
#include "modes.hpp"

namespace gk {

namespace {

const char kUsage[] =
    "usage: gpu_launcher [--device N] MODULE KERNEL gx gy gz bx by bz < request.json\n"
    "       gpu_launcher [--device N] --check MODULE KERNEL gx gy gz bx by bz < request.json\n"
    "       gpu_launcher --devices\n"
    "       gpu_launcher [--device N] --serve\n"
    "       gpu_launcher --version\n"
    "See spec/launcher-protocol.md.\n";

LauncherError usage(const std::string& why) {
  return makeError("USAGE", phase::kRequest, why + " (run gpu_launcher --help)");
}

struct CommandLine {
  std::string mode = "oneshot";  // oneshot, check, devices, serve, version, help
  int device = 0;
  std::vector<char*> positional;
};

CommandLine parseCommandLine(int argc, char** argv) {
  CommandLine cl;
  bool modeGiven = false;
  auto setMode = [&](const char* m) {
    if (modeGiven) throw usage(std::string("--") + m + " cannot be combined with --" + cl.mode);
    cl.mode = m;
    modeGiven = true;
  };
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--device") {
      if (i + 1 >= argc) throw usage("--device needs a GPU index");
      const char* v = argv[++i];
      char* end = nullptr;
      long n = std::strtol(v, &end, 10);
      if (*v < '0' || *v > '9' || end == nullptr || *end != '\0' || n < 0 || n > 1023) {
        throw usage(std::string("--device needs a GPU index from 0 to 1023, got \"") + v + "\"");
      }
      cl.device = int(n);
    } else if (a == "--check") {
      setMode("check");
    } else if (a == "--devices") {
      setMode("devices");
    } else if (a == "--serve") {
      setMode("serve");
    } else if (a == "--version") {
      setMode("version");
    } else if (a == "--help" || a == "-h") {
      setMode("help");
    } else if (a.size() > 1 && a[0] == '-' && a[1] == '-') {
      throw usage("unknown option " + a);
    } else {
      cl.positional.push_back(argv[i]);
    }
  }
  bool launches = cl.mode == "oneshot" || cl.mode == "check";
  if (launches && cl.positional.size() != 8) {
    throw usage("expected MODULE KERNEL gx gy gz bx by bz (8 arguments), got " + std::to_string(cl.positional.size()));
  }
  if (!launches && !cl.positional.empty()) throw usage(std::string("--") + cl.mode + " takes no other arguments");
  return cl;
}

}  // namespace

int runDevices() {
  Output out(STDOUT_FILENO);
  try {
    const Driver& d = Driver::get();
    std::vector<DeviceInfo> devices = listDevices(d);
    std::string s = "{\"ok\":true,\"driverVersion\":" + std::to_string(d.version) + ",\"devices\":[";
    for (size_t i = 0; i < devices.size(); i++) {
      if (i > 0) s += ',';
      appendDeviceJson(s, devices[i], d.version);
    }
    s += "]}\n";
    out.write(s);
    out.flush();
    return 0;
  } catch (const LauncherError& e) {
    return answerError(out, e);
  }
}

int main(int argc, char** argv) {
  Clock::time_point start = Clock::now();
  std::signal(SIGPIPE, SIG_IGN);  // a vanished reader is a write error, not a signal
  Output out(STDOUT_FILENO);
  try {
    CommandLine cl = parseCommandLine(argc, argv);
    if (cl.mode == "help") {
      out.write(kUsage, sizeof kUsage - 1);
      out.flush();
      return 0;
    }
    if (cl.mode == "version") {
      out.write(std::string("{\"ok\":true,\"version\":\"") + kLauncherVersion + "\",\"protocol\":" +
                std::to_string(kProtocolVersion) + "}\n");
      out.flush();
      return 0;
    }
    if (cl.mode == "devices") return runDevices();
    // The modes that run kernels end with their client, even while a kernel runs.
    if (cl.mode == "serve" || cl.mode == "oneshot") watchClient();
    if (cl.mode == "serve") return runServe(cl.device);
    OneShotArgs args;
    args.module = cl.positional[0];
    args.kernel = cl.positional[1];
    args.dims = cl.positional.data() + 2;
    args.check = cl.mode == "check";
    args.device = cl.device;
    args.start = start;
    return runOneShot(args);
  } catch (const LauncherError& e) {
    if (e.code == "USAGE") std::fputs(kUsage, stderr);
    return answerError(out, e);
  } catch (const std::bad_alloc&) {
    return answerError(out, makeError("HOST_OUT_OF_MEMORY", phase::kRequest, "the launcher ran out of host memory"));
  } catch (const std::exception& e) {
    return answerError(out, makeError("INTERNAL", phase::kRequest, std::string("internal error: ") + e.what()));
  }
}

}  // namespace gk

int main(int argc, char** argv) {
  return gk::main(argc, argv);
}
