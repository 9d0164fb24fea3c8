// One GPU through the CUDA Driver API: its description, its primary context, modules,
// memory and timed launches. Every call is checked; failures throw LauncherError.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cuda_driver.hpp"
#include "request.hpp"

namespace gk {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int major = 0;
  int minor = 0;
  uint64_t totalMemBytes = 0;
  int multiprocessorCount = 0;
  int maxThreadsPerBlock = 0;
  int maxBlock[3] = {0, 0, 0};
  int maxGrid[3] = {0, 0, 0};
  int maxSharedBytesPerBlock = 0;
  int maxSharedBytesPerBlockOptin = 0;
};

// All devices (phase init). Throws NO_DEVICE when there are none.
std::vector<DeviceInfo> listDevices(const Driver& d);
void appendDeviceJson(std::string& out, const DeviceInfo& info, int driverVersion);

// What the launcher asks the driver about a kernel, once per function (a --serve module keeps it).
struct KernelInfo {
  bool paramsKnown = false;  // cuFuncGetParamInfo described the kernel's parameters
  std::vector<size_t> paramSizes;
  bool staticSharedKnown = false;
  int staticSharedBytes = 0;
  uint32_t sharedOptIn = 0;  // dynamic shared memory the kernel has been opted in to so far
};

// The bytes each of a module's `__constant__` variables was last filled with, by symbol.
using ConstantCache = std::map<std::string, std::vector<uint8_t>>;

struct KernelTimes {
  double minMs = 0;
  double medianMs = 0;
  uint32_t launches = 0;
};

class Gpu {
 public:
  // Loads the driver and makes device `ordinal`'s primary context current (phase init).
  explicit Gpu(int ordinal);
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  const Driver& driver() const { return d_; }
  const DeviceInfo& info() const { return info_; }
  // True after a kernel timed out: it still runs, so the context must be left alone.
  bool abandoned() const { return abandoned_; }
  // Leaves the context alone from now on (a kernel still runs, or the context was lost).
  void abandon() { abandoned_ = true; }
  CUdevice device() const { return dev_; }
  CUcontext context() const { return ctx_; }
  // The error of a failed cuLaunchKernel, with the kernel's own limits as a hint.
  LauncherError launchError(CUresult r, CUfunction f, const LaunchDims& dims, uint32_t sharedBytes);

  // `image` is a PTX text (NUL-terminated) or a cubin/fatbin. Phase module_load.
  CUmodule loadModule(const std::vector<char>& image, const std::string& path);
  void unloadModule(CUmodule m);
  CUfunction getFunction(CUmodule m, const std::string& kernel);

  // The kernel's parameter sizes, where the driver has cuFuncGetParamInfo (CUDA 12.4+).
  KernelInfo describe(CUfunction f);
  // With known parameters, their count and sizes must match `argSizes` (BAD_ARGS). Without
  // them, nothing is checked.
  void checkParams(const KernelInfo& k, const std::string& kernel, const std::vector<size_t>& argSizes);
  // The device's own limits for this launch (BAD_LAUNCH_CONFIG, phase launch), and the
  // opt-in that dynamic shared memory above the default 48 KB needs.
  void prepareLaunch(CUfunction f, KernelInfo& k, const LaunchDims& dims, uint32_t sharedBytes);
  // Fills the module's `__constant__` variables (cuModuleGetGlobal, then a copy; phase h2d), each
  // of exactly its size (BAD_ARGS otherwise, or for a name the module lacks); a variable already
  // holding those bytes (`cache`) is not copied again.
  void fillConstants(CUmodule m, ConstantCache& cache, const std::vector<ConstantSpec>& constants);
  // Launches options.repeat times, timing each launch with CUDA events (phases launch, kernel).
  // The two events are made on the first launch and kept until release().
  KernelTimes launch(CUfunction f, const LaunchDims& dims, const LaunchOptions& options, void** params);

  CUdeviceptr alloc(uint64_t bytes, const std::string& what);  // 0 bytes: a null pointer
  void free(CUdeviceptr p);
  void upload(CUdeviceptr dst, const void* src, uint64_t bytes);
  void zero(CUdeviceptr dst, uint64_t bytes);
  // Sets `count` elements of `size` bytes at dst to `pattern`, queued on `stream`: one
  // cuMemsetD8/D16/D32 where the pattern repeats every 1, 2 or 4 bytes (every zero fill, every
  // scalar of 32 bits or fewer, a vector of equal lanes); else the first elements (up to 64
  // KiB) uploaded and the rest copied from them on the device, doubling. Exact either way.
  void fill(CUdeviceptr dst, const uint8_t* pattern, size_t size, uint64_t count, CUstream stream);
  // Copies `bytes` bytes device to device, queued on `stream`; the ranges must not overlap.
  void copy(CUdeviceptr dst, CUdeviceptr src, uint64_t bytes, CUstream stream);
  void download(void* dst, CUdeviceptr src, uint64_t bytes);
  // Page-locks host memory (cuMemHostRegister) so copies from and to it run at full speed;
  // false where the driver lacks the call or refuses (the memory then stays pageable).
  bool pin(void* p, size_t bytes);
  void unpin(void* p);  // unchecked: called on paths that go on either way

  // Destroys the events and releases the primary context, checked (phase cleanup). The
  // destructor does the same without reporting, for paths that are already answering an error.
  void release();

 private:
  const Driver& d_;
  CUdevice dev_ = 0;
  DeviceInfo info_;
  bool retained_ = false;
  CUcontext ctx_ = nullptr;
  bool abandoned_ = false;
  CUevent start_ = nullptr;  // launch timing, made on the first launch
  CUevent stop_ = nullptr;

  void waitFor(CUevent stop, uint64_t timeoutMs);
  std::string launchHint(CUfunction f, const LaunchDims& dims, uint32_t sharedBytes);
};

}  // namespace gk
