// The CUDA Driver API, loaded from libcuda.so.1 at run time. The few types, constants and
// function signatures the launcher uses are declared here (values from cuda.h), so the
// launcher builds with g++ alone and runs, reporting NO_CUDA_DRIVER, where there is no driver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "errors.hpp"

namespace gk {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUevent_st;
struct CUstream_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUevent = CUevent_st*;
using CUstream = CUstream_st*;

namespace cu {
inline constexpr CUresult kSuccess = 0;
inline constexpr CUresult kErrorInvalidValue = 1;
inline constexpr CUresult kErrorNoDevice = 100;
inline constexpr CUresult kErrorNotFound = 500;
inline constexpr CUresult kErrorOutOfMemory = 2;
inline constexpr CUresult kErrorNotReady = 600;

// cuMemHostAlloc flags
inline constexpr unsigned kHostAllocPortable = 0x01;
inline constexpr unsigned kHostAllocDeviceMap = 0x02;

// CUdevice_attribute
inline constexpr int kAttrMaxThreadsPerBlock = 1;
inline constexpr int kAttrMaxBlockDimX = 2;
inline constexpr int kAttrMaxBlockDimY = 3;
inline constexpr int kAttrMaxBlockDimZ = 4;
inline constexpr int kAttrMaxGridDimX = 5;
inline constexpr int kAttrMaxGridDimY = 6;
inline constexpr int kAttrMaxGridDimZ = 7;
inline constexpr int kAttrMaxSharedPerBlock = 8;
inline constexpr int kAttrMultiprocessorCount = 16;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;
inline constexpr int kAttrMaxSharedPerBlockOptin = 97;

// CUfunction_attribute
inline constexpr int kFuncAttrMaxThreadsPerBlock = 0;
inline constexpr int kFuncAttrSharedSizeBytes = 1;
inline constexpr int kFuncAttrNumRegs = 4;
inline constexpr int kFuncAttrMaxDynamicSharedSizeBytes = 8;

// CUjit_option
inline constexpr int kJitErrorLogBuffer = 5;
inline constexpr int kJitErrorLogBufferSizeBytes = 6;
}  // namespace cu

struct Driver {
  CUresult (*cuGetErrorName)(CUresult, const char**) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDriverGetVersion)(int*) = nullptr;
  CUresult (*cuDeviceGetCount)(int*) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*cuDeviceGetName)(char*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
  CUresult (*cuDeviceTotalMem)(size_t*, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule*, const void*, unsigned, int*, void**) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*cuModuleGetGlobal)(CUdeviceptr*, size_t*, CUmodule, const char*) = nullptr;  // optional until a launch fills constants
  CUresult (*cuFuncGetAttribute)(int*, int, CUfunction) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
  CUresult (*cuFuncGetParamInfo)(CUfunction, size_t, size_t*, size_t*) = nullptr;  // optional: CUDA 12.4+
  CUresult (*cuMemAlloc)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;
  CUresult (*cuMemcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t) = nullptr;
  CUresult (*cuMemHostRegister)(void*, size_t, unsigned) = nullptr;  // optional: pinning shared files
  CUresult (*cuMemHostUnregister)(void*) = nullptr;                  // optional, with cuMemHostRegister
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void**, void**) = nullptr;
  CUresult (*cuEventCreate)(CUevent*, unsigned) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventQuery)(CUevent) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent) = nullptr;
  CUresult (*cuEventElapsedTime)(float*, CUevent, CUevent) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;
  // Queues (streams), asynchronous copies, page-locked host memory and memory info: the
  // in-process path (native/) and the --serve queues (launcher/queues.cpp).
  CUresult (*cuStreamCreate)(CUstream*, unsigned) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream) = nullptr;
  CUresult (*cuStreamQuery)(CUstream) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, size_t, CUstream) = nullptr;
  CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream) = nullptr;
  // A GPU array's fill() and copyFrom() on the device (Gpu::fill, Gpu::copy).
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream) = nullptr;
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream) = nullptr;
  CUresult (*cuMemHostAlloc)(void**, size_t, unsigned) = nullptr;
  CUresult (*cuMemFreeHost)(void*) = nullptr;
  CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr*, void*, unsigned) = nullptr;
  CUresult (*cuMemGetInfo)(size_t*, size_t*) = nullptr;
  // Optional: a marker the GPU writes after each queued launch, so that an asynchronous fault
  // is pinned on the launch that caused it (launcher/queues.cpp). Without it, on the first
  // launch not seen to finish.
  CUresult (*cuStreamWriteValue32)(CUstream, CUdeviceptr, uint32_t, unsigned) = nullptr;

  // Loads libcuda.so.1 once per process and calls cuInit(0). Throws NO_CUDA_DRIVER,
  // DRIVER_TOO_OLD (a required symbol is missing), NO_DEVICE, or CUDA_ERROR (phase init).
  static Driver& get();

  // Throws CUDA_ERROR for any result but success, with the error's name and message.
  void check(CUresult r, const char* call, const char* phase) const;
  LauncherError error(CUresult r, const char* call, const char* phase) const;
  std::string errorName(CUresult r) const;

  int version = 0;  // cuDriverGetVersion, e.g. 12040 for CUDA 12.4
};

// Errors after which the CUDA context cannot be used again in this process.
bool isStickyError(CUresult r);

}  // namespace gk
