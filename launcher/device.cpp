#include "device.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "json.hpp"

namespace gk {

namespace {

DeviceInfo queryDevice(const Driver& d, int ordinal) {
  DeviceInfo info;
  info.index = ordinal;
  CUdevice dev;
  d.check(d.cuDeviceGet(&dev, ordinal), "cuDeviceGet", phase::kInit);
  char name[256] = {0};
  d.check(d.cuDeviceGetName(name, int(sizeof name) - 1, dev), "cuDeviceGetName", phase::kInit);
  info.name = std::string(name, strnlen(name, sizeof name));
  size_t total = 0;
  d.check(d.cuDeviceTotalMem(&total, dev), "cuDeviceTotalMem_v2", phase::kInit);
  info.totalMemBytes = total;
  struct {
    int attr;
    int* out;
  } attrs[] = {
      {cu::kAttrComputeCapabilityMajor, &info.major},
      {cu::kAttrComputeCapabilityMinor, &info.minor},
      {cu::kAttrMultiprocessorCount, &info.multiprocessorCount},
      {cu::kAttrMaxThreadsPerBlock, &info.maxThreadsPerBlock},
      {cu::kAttrMaxBlockDimX, &info.maxBlock[0]},
      {cu::kAttrMaxBlockDimY, &info.maxBlock[1]},
      {cu::kAttrMaxBlockDimZ, &info.maxBlock[2]},
      {cu::kAttrMaxGridDimX, &info.maxGrid[0]},
      {cu::kAttrMaxGridDimY, &info.maxGrid[1]},
      {cu::kAttrMaxGridDimZ, &info.maxGrid[2]},
      {cu::kAttrMaxSharedPerBlock, &info.maxSharedBytesPerBlock},
      {cu::kAttrMaxSharedPerBlockOptin, &info.maxSharedBytesPerBlockOptin},
  };
  for (const auto& a : attrs) d.check(d.cuDeviceGetAttribute(a.out, a.attr, dev), "cuDeviceGetAttribute", phase::kInit);
  return info;
}

LauncherError badConfig(const std::string& message) {
  return makeError("BAD_LAUNCH_CONFIG", phase::kLaunch, message);
}

std::string sizeList(const std::vector<size_t>& sizes) {
  std::string s;
  for (size_t i = 0; i < sizes.size(); i++) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return sizes.empty() ? "none" : s + " bytes";
}

std::string plural(size_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

double elapsedMs(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

std::vector<DeviceInfo> listDevices(const Driver& d) {
  int count = 0;
  d.check(d.cuDeviceGetCount(&count), "cuDeviceGetCount", phase::kInit);
  if (count <= 0) throw makeError("NO_DEVICE", phase::kInit, "no usable GPU: the CUDA driver reports no devices");
  std::vector<DeviceInfo> out;
  for (int i = 0; i < count; i++) out.push_back(queryDevice(d, i));
  return out;
}

void appendDeviceJson(std::string& out, const DeviceInfo& info, int driverVersion) {
  out += '{';
  appendKey(out, "index");
  appendInt(out, info.index);
  out += ',';
  appendKey(out, "name");
  appendJsonString(out, info.name);
  out += ',';
  appendKey(out, "computeCapability");
  out += "{\"major\":" + std::to_string(info.major) + ",\"minor\":" + std::to_string(info.minor) + "}";
  out += ',';
  appendKey(out, "arch");
  appendJsonString(out, "sm_" + std::to_string(info.major) + std::to_string(info.minor));
  out += ',';
  appendKey(out, "totalMemBytes");
  appendUint(out, info.totalMemBytes);
  out += ',';
  appendKey(out, "multiprocessorCount");
  appendInt(out, info.multiprocessorCount);
  out += ',';
  appendKey(out, "maxThreadsPerBlock");
  appendInt(out, info.maxThreadsPerBlock);
  out += ',';
  appendKey(out, "maxSharedBytesPerBlock");
  appendInt(out, info.maxSharedBytesPerBlock);
  out += ',';
  appendKey(out, "maxSharedBytesPerBlockOptin");
  appendInt(out, info.maxSharedBytesPerBlockOptin);
  out += ',';
  appendKey(out, "driverVersion");
  appendInt(out, driverVersion);
  out += '}';
}

Gpu::Gpu(int ordinal) : d_(Driver::get()) {
  int count = 0;
  d_.check(d_.cuDeviceGetCount(&count), "cuDeviceGetCount", phase::kInit);
  if (count <= 0) throw makeError("NO_DEVICE", phase::kInit, "no usable GPU: the CUDA driver reports no devices");
  if (ordinal < 0 || ordinal >= count) {
    throw makeError("NO_DEVICE", phase::kInit,
                    "no GPU with index " + std::to_string(ordinal) + " (there are " + std::to_string(count) + ")");
  }
  info_ = queryDevice(d_, ordinal);
  d_.check(d_.cuDeviceGet(&dev_, ordinal), "cuDeviceGet", phase::kInit);
  CUcontext ctx = nullptr;
  d_.check(d_.cuDevicePrimaryCtxRetain(&ctx, dev_), "cuDevicePrimaryCtxRetain", phase::kInit);
  CUresult r = d_.cuCtxSetCurrent(ctx);
  if (r != cu::kSuccess) {
    (void)d_.cuDevicePrimaryCtxRelease(dev_);  // the constructor fails, so no destructor will
    d_.check(r, "cuCtxSetCurrent", phase::kInit);
  }
  retained_ = true;
  ctx_ = ctx;
}

Gpu::~Gpu() {
  // Already answering an error, or exiting: the result cannot be reported to anyone.
  if (!retained_ || abandoned_) return;
  if (start_ != nullptr) (void)d_.cuEventDestroy(start_);
  if (stop_ != nullptr) (void)d_.cuEventDestroy(stop_);
  (void)d_.cuDevicePrimaryCtxRelease(dev_);
}

void Gpu::release() {
  if (!retained_) return;
  for (CUevent* ev : {&start_, &stop_}) {
    CUevent e = *ev;
    *ev = nullptr;
    if (e != nullptr) d_.check(d_.cuEventDestroy(e), "cuEventDestroy_v2", phase::kCleanup);
  }
  retained_ = false;
  d_.check(d_.cuDevicePrimaryCtxRelease(dev_), "cuDevicePrimaryCtxRelease_v2", phase::kCleanup);
}

CUmodule Gpu::loadModule(const std::vector<char>& image, const std::string& path) {
  char log[16384];
  std::memset(log, 0, sizeof log);
  int options[2] = {cu::kJitErrorLogBuffer, cu::kJitErrorLogBufferSizeBytes};
  void* values[2] = {log, reinterpret_cast<void*>(uintptr_t(sizeof log - 1))};
  CUmodule m = nullptr;
  CUresult r = d_.cuModuleLoadDataEx(&m, image.data(), 2, options, values);
  if (r != cu::kSuccess) {
    LauncherError e = d_.error(r, "cuModuleLoadDataEx", phase::kModuleLoad);
    e.message = "cannot load module " + path + ": " + e.message;
    e.log = std::string(log, strnlen(log, sizeof log));
    e.hint = "this driver supports CUDA " + std::to_string(d_.version / 1000) + "." +
             std::to_string(d_.version % 1000 / 10) + " and GPU " + info_.name + " (sm_" + std::to_string(info_.major) +
             std::to_string(info_.minor) + "); a module from a newer nvcc or for another architecture does not load";
    throw e;
  }
  return m;
}

void Gpu::unloadModule(CUmodule m) {
  d_.check(d_.cuModuleUnload(m), "cuModuleUnload", phase::kCleanup);
}

CUfunction Gpu::getFunction(CUmodule m, const std::string& kernel) {
  CUfunction f = nullptr;
  CUresult r = d_.cuModuleGetFunction(&f, m, kernel.c_str());
  if (r != cu::kSuccess) {
    LauncherError e = d_.error(r, "cuModuleGetFunction", phase::kModuleLoad);
    std::string q;
    appendJsonString(q, kernel);
    e.message = "kernel " + q + ": " + e.message;
    e.hint = "the kernel must be a __global__ function declared extern \"C\" in the module";
    throw e;
  }
  return f;
}

KernelInfo Gpu::describe(CUfunction f) {
  KernelInfo k;
  if (d_.cuFuncGetParamInfo == nullptr) return k;
  for (size_t i = 0; i <= kMaxArgs; i++) {
    size_t offset = 0, size = 0;
    CUresult r = d_.cuFuncGetParamInfo(f, i, &offset, &size);
    if (r == cu::kErrorInvalidValue) break;  // i is the parameter count
    if (r != cu::kSuccess) return KernelInfo{};  // the driver cannot describe this kernel: no check
    k.paramSizes.push_back(size);
  }
  k.paramsKnown = true;
  return k;
}

void Gpu::checkParams(const KernelInfo& k, const std::string& kernel, const std::vector<size_t>& argSizes) {
  if (!k.paramsKnown) return;
  const std::vector<size_t>& sizes = k.paramSizes;
  if (sizes.size() == argSizes.size() && std::equal(sizes.begin(), sizes.end(), argSizes.begin())) return;
  std::string q;
  appendJsonString(q, kernel);
  if (sizes.size() != argSizes.size()) {
    LauncherError e = makeError("BAD_ARGS", phase::kLaunch,
                                "kernel " + q + " takes " + plural(sizes.size(), "parameter") + " (" + sizeList(sizes) +
                                    ") but the request gives " + plural(argSizes.size(), "argument") + " (" +
                                    sizeList(argSizes) + ")");
    throw e;
  }
  for (size_t i = 0; i < sizes.size(); i++) {
    if (sizes[i] != argSizes[i]) {
      LauncherError e = makeError("BAD_ARGS", phase::kLaunch,
                                  "argument " + std::to_string(i) + " is " + std::to_string(argSizes[i]) +
                                      " bytes but parameter " + std::to_string(i) + " of kernel " + q + " is " +
                                      std::to_string(sizes[i]) + " bytes");
      e.path = "args[" + std::to_string(i) + "]";
      throw e;
    }
  }
}

void Gpu::prepareLaunch(CUfunction f, KernelInfo& k, const LaunchDims& dims, uint32_t sharedBytes) {
  const char* axis[3] = {"x", "y", "z"};
  for (int i = 0; i < 3; i++) {
    if (int64_t(dims.block[i]) > info_.maxBlock[i]) {
      throw badConfig(std::string("block ") + axis[i] + " = " + std::to_string(dims.block[i]) + " exceeds the device's limit of " +
                      std::to_string(info_.maxBlock[i]));
    }
    if (int64_t(dims.grid[i]) > info_.maxGrid[i]) {
      throw badConfig(std::string("grid ") + axis[i] + " = " + std::to_string(dims.grid[i]) + " exceeds the device's limit of " +
                      std::to_string(info_.maxGrid[i]));
    }
  }
  if (dims.blockThreads() > uint64_t(info_.maxThreadsPerBlock)) {
    throw badConfig("a block of " + std::to_string(dims.blockThreads()) + " threads exceeds the device's limit of " +
                    std::to_string(info_.maxThreadsPerBlock));
  }
  if (!k.staticSharedKnown) {
    d_.check(d_.cuFuncGetAttribute(&k.staticSharedBytes, cu::kFuncAttrSharedSizeBytes, f), "cuFuncGetAttribute",
             phase::kLaunch);
    k.staticSharedKnown = true;
  }
  int staticShared = k.staticSharedBytes;
  uint64_t total = uint64_t(staticShared) + sharedBytes;
  if (total > uint64_t(info_.maxSharedBytesPerBlockOptin)) {
    throw badConfig(std::to_string(sharedBytes) + " bytes of dynamic shared memory plus the kernel's " +
                    std::to_string(staticShared) + " bytes of static shared memory exceed the device's limit of " +
                    std::to_string(info_.maxSharedBytesPerBlockOptin) + " bytes per block");
  }
  if (total > uint64_t(info_.maxSharedBytesPerBlock) && sharedBytes > k.sharedOptIn) {
    d_.check(d_.cuFuncSetAttribute(f, cu::kFuncAttrMaxDynamicSharedSizeBytes, int(sharedBytes)), "cuFuncSetAttribute",
             phase::kLaunch);
    k.sharedOptIn = sharedBytes;
  }
}

LauncherError Gpu::launchError(CUresult r, CUfunction f, const LaunchDims& dims, uint32_t sharedBytes) {
  LauncherError e = d_.error(r, "cuLaunchKernel", phase::kLaunch);
  if (!e.sticky) e.hint = launchHint(f, dims, sharedBytes);
  return e;
}

std::string Gpu::launchHint(CUfunction f, const LaunchDims& dims, uint32_t sharedBytes) {
  int maxThreads = 0, regs = 0, staticShared = 0;
  if (d_.cuFuncGetAttribute(&maxThreads, cu::kFuncAttrMaxThreadsPerBlock, f) != cu::kSuccess ||
      d_.cuFuncGetAttribute(&regs, cu::kFuncAttrNumRegs, f) != cu::kSuccess ||
      d_.cuFuncGetAttribute(&staticShared, cu::kFuncAttrSharedSizeBytes, f) != cu::kSuccess) {
    return "";  // the context is unusable; the launch error says why
  }
  return "the kernel allows at most " + std::to_string(maxThreads) + " threads per block (it uses " +
         std::to_string(regs) + " registers per thread and " + std::to_string(staticShared) +
         " bytes of static shared memory); this launch asked for " + std::to_string(dims.blockThreads()) +
         " threads per block and " + std::to_string(sharedBytes) + " bytes of dynamic shared memory";
}

void Gpu::waitFor(CUevent stop, uint64_t timeoutMs) {
  if (timeoutMs == 0) {
    d_.check(d_.cuEventSynchronize(stop), "cuEventSynchronize", phase::kKernel);
    return;
  }
  // Polled: spinning (with yields) for the first 200 us, as most kernels are short and a sleep
  // costs tens of microseconds of timer slack; then sleeping, up to 1 ms at a time.
  auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::microseconds(20);
  for (;;) {
    CUresult r = d_.cuEventQuery(stop);
    if (r == cu::kSuccess) return;
    if (r != cu::kErrorNotReady) d_.check(r, "cuEventQuery", phase::kKernel);
    double waited = elapsedMs(start);
    if (waited > double(timeoutMs)) {
      LauncherError e = makeError("KERNEL_TIMEOUT", phase::kKernel,
                                  "the kernel did not finish within " + std::to_string(timeoutMs) + " ms");
      e.sticky = true;  // it is still running: only ending the process stops it
      abandoned_ = true;
      throw e;
    }
    if (waited < 0.2) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

KernelTimes Gpu::launch(CUfunction f, const LaunchDims& dims, const LaunchOptions& options, void** params) {
  if (start_ == nullptr) d_.check(d_.cuEventCreate(&start_, 0), "cuEventCreate", phase::kLaunch);
  if (stop_ == nullptr) d_.check(d_.cuEventCreate(&stop_, 0), "cuEventCreate", phase::kLaunch);
  // One launch (the common case) needs no vector; more keep every time for the median.
  double single = 0;
  std::vector<double> times;
  if (options.repeat > 1) times.reserve(options.repeat);
  for (uint32_t i = 0; i < options.repeat; i++) {
    d_.check(d_.cuEventRecord(start_, nullptr), "cuEventRecord", phase::kLaunch);
    CUresult r = d_.cuLaunchKernel(f, dims.grid[0], dims.grid[1], dims.grid[2], dims.block[0], dims.block[1],
                                   dims.block[2], options.sharedBytes, nullptr, params, nullptr);
    if (r != cu::kSuccess) throw launchError(r, f, dims, options.sharedBytes);
    d_.check(d_.cuEventRecord(stop_, nullptr), "cuEventRecord", phase::kKernel);
    // The stop event follows the kernel on the only stream the launcher uses, so once it has
    // completed the kernel has too, and an asynchronous fault has been reported here.
    waitFor(stop_, options.timeoutMs);
    float ms = 0;
    d_.check(d_.cuEventElapsedTime(&ms, start_, stop_), "cuEventElapsedTime", phase::kKernel);
    if (options.repeat == 1) single = double(ms);
    else times.push_back(double(ms));
  }
  KernelTimes t;
  t.launches = options.repeat;
  if (options.repeat == 1) {
    t.minMs = t.medianMs = single;
    return t;
  }
  std::sort(times.begin(), times.end());
  t.minMs = times.front();
  size_t n = times.size();
  t.medianMs = n % 2 == 1 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  return t;
}

void Gpu::fillConstants(CUmodule m, ConstantCache& cache, const std::vector<ConstantSpec>& constants) {
  if (constants.empty()) return;
  if (d_.cuModuleGetGlobal == nullptr) {
    throw makeError("DRIVER_TOO_OLD", phase::kLaunch, "the CUDA driver in libcuda.so.1 lacks cuModuleGetGlobal_v2, which filling constants needs; install a newer NVIDIA driver");
  }
  for (size_t i = 0; i < constants.size(); i++) {
    const ConstantSpec& c = constants[i];
    CUdeviceptr p = 0;
    size_t bytes = 0;
    CUresult r = d_.cuModuleGetGlobal(&p, &bytes, m, c.name.c_str());
    std::string q;
    appendJsonString(q, c.name);
    if (r == cu::kErrorNotFound) {
      LauncherError e = makeError("BAD_ARGS", phase::kLaunch, "the module has no constant " + q);
      e.path = "constants[" + std::to_string(i) + "].name";
      throw e;
    }
    d_.check(r, "cuModuleGetGlobal_v2", phase::kLaunch);
    if (bytes != c.data.size()) {
      LauncherError e = makeError("BAD_ARGS", phase::kLaunch,
                                  "the constant " + q + " is " + std::to_string(bytes) + " bytes but the request gives " + std::to_string(c.data.size()));
      e.path = "constants[" + std::to_string(i) + "].b64";
      throw e;
    }
    auto known = cache.find(c.name);
    if (known != cache.end() && known->second == c.data) continue;
    // Forgotten first: should the copy fail, the next launch copies again.
    cache.erase(c.name);
    upload(p, c.data.data(), c.data.size());
    cache[c.name] = c.data;
  }
}

CUdeviceptr Gpu::alloc(uint64_t bytes, const std::string& what) {
  if (bytes == 0) return 0;
  CUdeviceptr p = 0;
  // Rounded up to whole 4-byte words: an atomic on a 1- or 2-byte element goes through the
  // aligned word that holds it (atomicCAS), so the last word must lie inside the allocation.
  CUresult r = d_.cuMemAlloc(&p, size_t((bytes + 3) & ~uint64_t(3)));
  if (r != cu::kSuccess) {
    LauncherError e = d_.error(r, "cuMemAlloc_v2", phase::kAlloc);
    e.message += " while allocating " + std::to_string(bytes) + " bytes for " + what;
    size_t free = 0, total = 0;
    if (r == cu::kErrorOutOfMemory && d_.cuMemGetInfo(&free, &total) == cu::kSuccess) {
      e.hasMemory = true;
      e.bytesAsked = bytes;
      e.bytesFree = free;
      e.bytesTotal = total;
      e.message += " (" + std::to_string(free) + " bytes free of " + std::to_string(total) + ")";
    }
    throw e;
  }
  return p;
}

void Gpu::free(CUdeviceptr p) {
  if (p != 0) d_.check(d_.cuMemFree(p), "cuMemFree_v2", phase::kCleanup);
}

void Gpu::upload(CUdeviceptr dst, const void* src, uint64_t bytes) {
  if (bytes != 0) d_.check(d_.cuMemcpyHtoD(dst, src, size_t(bytes)), "cuMemcpyHtoD_v2", phase::kH2D);
}

void Gpu::zero(CUdeviceptr dst, uint64_t bytes) {
  if (bytes != 0) d_.check(d_.cuMemsetD8(dst, 0, size_t(bytes)), "cuMemsetD8_v2", phase::kH2D);
}

void Gpu::fill(CUdeviceptr dst, const uint8_t* pattern, size_t size, uint64_t count, CUstream stream) {
  if (count == 0 || size == 0) return;
  // The shortest period of 1, 2 or 4 bytes the element repeats with, where dst is aligned to it.
  for (size_t p = 1; p <= 4; p *= 2) {
    if (size % p != 0 || dst % p != 0) continue;
    bool repeats = true;
    for (size_t i = p; i < size && repeats; i++) repeats = pattern[i] == pattern[i - p];
    if (!repeats) continue;
    size_t n = size_t(count * (size / p));
    if (p == 1) {
      d_.check(d_.cuMemsetD8Async(dst, pattern[0], n, stream), "cuMemsetD8Async", phase::kH2D);
    } else if (p == 2) {
      uint16_t v;
      std::memcpy(&v, pattern, 2);
      d_.check(d_.cuMemsetD16Async(dst, v, n, stream), "cuMemsetD16Async", phase::kH2D);
    } else {
      uint32_t v;
      std::memcpy(&v, pattern, 4);
      d_.check(d_.cuMemsetD32Async(dst, v, n, stream), "cuMemsetD32Async", phase::kH2D);
    }
    return;
  }
  // Wider (an f64, a vector of different lanes, a struct): the first elements, up to 64 KiB of
  // them, go up from the host (an asynchronous copy from pageable memory returns once the driver
  // has staged the bytes), and the rest is copied from them on the device, doubling: every
  // byte is written once and read about once, in at most a few dozen calls whatever the
  // element's size. (A strided cuMemsetD2D32 per word of the element would take a call per
  // word, and each pass would write part of every memory sector, which beyond the L2 cache
  // costs a read as well.)
  constexpr uint64_t kSeedBytes = uint64_t(64) << 10;
  const uint64_t seed = std::min<uint64_t>(count, std::max<uint64_t>(1, kSeedBytes / size));
  std::vector<uint8_t> block(size_t(seed * size));
  for (uint64_t i = 0; i < seed; i++) std::memcpy(block.data() + i * size, pattern, size);
  d_.check(d_.cuMemcpyHtoDAsync(dst, block.data(), block.size(), stream), "cuMemcpyHtoDAsync_v2", phase::kH2D);
  for (uint64_t done = seed; done < count;) {
    uint64_t n = std::min(done, count - done);
    copy(dst + done * size, dst, n * size, stream);
    done += n;
  }
}

void Gpu::copy(CUdeviceptr dst, CUdeviceptr src, uint64_t bytes, CUstream stream) {
  if (bytes != 0) d_.check(d_.cuMemcpyDtoDAsync(dst, src, size_t(bytes), stream), "cuMemcpyDtoDAsync_v2", phase::kH2D);
}

void Gpu::download(void* dst, CUdeviceptr src, uint64_t bytes) {
  if (bytes != 0) d_.check(d_.cuMemcpyDtoH(dst, src, size_t(bytes)), "cuMemcpyDtoH_v2", phase::kD2H);
}

bool Gpu::pin(void* p, size_t bytes) {
  if (d_.cuMemHostRegister == nullptr || p == nullptr || bytes == 0) return false;
  return d_.cuMemHostRegister(p, bytes, 0) == cu::kSuccess;
}

void Gpu::unpin(void* p) {
  if (d_.cuMemHostUnregister != nullptr && !abandoned_) (void)d_.cuMemHostUnregister(p);
}

}  // namespace gk
