#include "cuda_driver.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include <initializer_list>

namespace gk {

namespace {

// The first of `names` that the library exports, or nullptr.
template <class F>
bool resolve(void* lib, F& fn, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (void* sym = dlsym(lib, name)) {
      fn = reinterpret_cast<F>(sym);
      return true;
    }
  }
  return false;
}

struct Loaded {
  Driver driver;
  bool ok = false;
  LauncherError failure;
};

// Whether a library path names a regular file, or nothing (dlopen then says so). dlopen would
// block forever opening a FIFO; the check opens it without waiting.
bool regularOrMissing(const char* path) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return true;
  struct stat st;
  bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  ::close(fd);
  return regular;
}

Loaded load() {
  Loaded l;
  Driver& d = l.driver;
  // GK_LIBCUDA names another driver library (tests use it for a fake driver, or a missing one).
  const char* name = std::getenv("GK_LIBCUDA");
  if (name == nullptr || *name == '\0') name = "libcuda.so.1";
  if (std::strchr(name, '/') != nullptr && !regularOrMissing(name)) {
    l.failure = makeError("NO_CUDA_DRIVER", phase::kInit,
                          std::string("no CUDA driver found (") + name + " could not be loaded: not a regular file)");
    return l;
  }
  void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* why = dlerror();
    l.failure = makeError("NO_CUDA_DRIVER", phase::kInit,
                          std::string("no CUDA driver found (") + name + " could not be loaded: " +
                              (why != nullptr ? why : "unknown reason") + ")");
    return l;
  }
  std::string missing;
  auto need = [&](auto& fn, std::initializer_list<const char*> names) {
    if (!resolve(lib, fn, names) && missing.empty()) missing = *names.begin();
  };
  need(d.cuGetErrorName, {"cuGetErrorName"});
  need(d.cuGetErrorString, {"cuGetErrorString"});
  need(d.cuInit, {"cuInit"});
  need(d.cuDriverGetVersion, {"cuDriverGetVersion"});
  need(d.cuDeviceGetCount, {"cuDeviceGetCount"});
  need(d.cuDeviceGet, {"cuDeviceGet"});
  need(d.cuDeviceGetName, {"cuDeviceGetName"});
  need(d.cuDeviceGetAttribute, {"cuDeviceGetAttribute"});
  need(d.cuDeviceTotalMem, {"cuDeviceTotalMem_v2"});
  need(d.cuDevicePrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
  need(d.cuDevicePrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"});
  need(d.cuCtxSetCurrent, {"cuCtxSetCurrent"});
  need(d.cuModuleLoadDataEx, {"cuModuleLoadDataEx"});
  need(d.cuModuleUnload, {"cuModuleUnload"});
  need(d.cuModuleGetFunction, {"cuModuleGetFunction"});
  need(d.cuFuncGetAttribute, {"cuFuncGetAttribute"});
  need(d.cuFuncSetAttribute, {"cuFuncSetAttribute"});
  need(d.cuMemAlloc, {"cuMemAlloc_v2"});
  need(d.cuMemFree, {"cuMemFree_v2"});
  need(d.cuMemcpyHtoD, {"cuMemcpyHtoD_v2"});
  need(d.cuMemcpyDtoH, {"cuMemcpyDtoH_v2"});
  need(d.cuMemsetD8, {"cuMemsetD8_v2"});
  need(d.cuLaunchKernel, {"cuLaunchKernel"});
  need(d.cuEventCreate, {"cuEventCreate"});
  need(d.cuEventRecord, {"cuEventRecord"});
  need(d.cuEventQuery, {"cuEventQuery"});
  need(d.cuEventSynchronize, {"cuEventSynchronize"});
  need(d.cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
  need(d.cuEventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
  need(d.cuStreamCreate, {"cuStreamCreate"});
  need(d.cuStreamDestroy, {"cuStreamDestroy_v2", "cuStreamDestroy"});
  need(d.cuStreamQuery, {"cuStreamQuery"});
  need(d.cuStreamSynchronize, {"cuStreamSynchronize"});
  need(d.cuCtxSynchronize, {"cuCtxSynchronize"});
  need(d.cuMemcpyHtoDAsync, {"cuMemcpyHtoDAsync_v2"});
  need(d.cuMemcpyDtoHAsync, {"cuMemcpyDtoHAsync_v2"});
  need(d.cuMemsetD8Async, {"cuMemsetD8Async"});
  need(d.cuMemsetD16Async, {"cuMemsetD16Async"});
  need(d.cuMemsetD32Async, {"cuMemsetD32Async"});
  need(d.cuMemcpyDtoDAsync, {"cuMemcpyDtoDAsync_v2"});
  need(d.cuMemHostAlloc, {"cuMemHostAlloc"});
  need(d.cuMemFreeHost, {"cuMemFreeHost"});
  need(d.cuMemHostGetDevicePointer, {"cuMemHostGetDevicePointer_v2"});
  need(d.cuMemGetInfo, {"cuMemGetInfo_v2"});
  resolve(lib, d.cuFuncGetParamInfo, {"cuFuncGetParamInfo"});  // optional
  resolve(lib, d.cuModuleGetGlobal, {"cuModuleGetGlobal_v2"});   // checked where a launch fills constants
  resolve(lib, d.cuStreamWriteValue32, {"cuStreamWriteValue32_v2", "cuStreamWriteValue32"});  // optional
  // Optional: without them, shared files are copied from pageable memory.
  if (!resolve(lib, d.cuMemHostRegister, {"cuMemHostRegister_v2", "cuMemHostRegister"}) ||
      !resolve(lib, d.cuMemHostUnregister, {"cuMemHostUnregister"})) {
    d.cuMemHostRegister = nullptr;
    d.cuMemHostUnregister = nullptr;
  }
  if (!missing.empty()) {
    l.failure = makeError("DRIVER_TOO_OLD", phase::kInit,
                          "the CUDA driver in libcuda.so.1 lacks " + missing + "; install a newer NVIDIA driver");
    return l;
  }
  CUresult r = d.cuDriverGetVersion(&d.version);
  if (r != cu::kSuccess) {
    l.failure = d.error(r, "cuDriverGetVersion", phase::kInit);
    return l;
  }
  r = d.cuInit(0);
  if (r != cu::kSuccess) {
    LauncherError e = d.error(r, "cuInit", phase::kInit);
    e.code = "NO_DEVICE";
    e.message = "no usable GPU: " + e.message;
    l.failure = e;
    return l;
  }
  l.ok = true;
  return l;
}

}  // namespace

Driver& Driver::get() {
  static Loaded loaded = load();
  if (!loaded.ok) throw loaded.failure;
  return loaded.driver;
}

std::string Driver::errorName(CUresult r) const {
  const char* name = nullptr;
  if (cuGetErrorName(r, &name) != cu::kSuccess || name == nullptr) return "CUDA_ERROR_UNRECOGNIZED_" + std::to_string(r);
  return name;
}

LauncherError Driver::error(CUresult r, const char* call, const char* ph) const {
  const char* text = nullptr;
  if (cuGetErrorString(r, &text) != cu::kSuccess || text == nullptr) text = "unrecognized CUDA error";
  LauncherError e;
  e.code = "CUDA_ERROR";
  e.phase = ph;
  e.call = call;
  e.cudaError = errorName(r);
  e.cudaErrorNumber = r;
  e.message = std::string(call) + " failed: " + e.cudaError + " (" + text + ")";
  e.sticky = isStickyError(r);
  return e;
}

void Driver::check(CUresult r, const char* call, const char* ph) const {
  if (r != cu::kSuccess) throw error(r, call, ph);
}

bool isStickyError(CUresult r) {
  switch (r) {
    case 214:  // CUDA_ERROR_ECC_UNCORRECTABLE
    case 700:  // CUDA_ERROR_ILLEGAL_ADDRESS
    case 702:  // CUDA_ERROR_LAUNCH_TIMEOUT
    case 709:  // CUDA_ERROR_CONTEXT_IS_DESTROYED
    case 710:  // CUDA_ERROR_ASSERT
    case 714:  // CUDA_ERROR_HARDWARE_STACK_ERROR
    case 715:  // CUDA_ERROR_ILLEGAL_INSTRUCTION
    case 716:  // CUDA_ERROR_MISALIGNED_ADDRESS
    case 717:  // CUDA_ERROR_INVALID_ADDRESS_SPACE
    case 718:  // CUDA_ERROR_INVALID_PC
    case 719:  // CUDA_ERROR_LAUNCH_FAILED
    case 999:  // CUDA_ERROR_UNKNOWN
      return true;
    default:
      return false;
  }
}

}  // namespace gk
