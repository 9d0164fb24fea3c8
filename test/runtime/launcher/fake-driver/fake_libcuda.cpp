// A fake libcuda.so.1 for testing gpu_launcher where there is no GPU (CI). It implements
// the Driver API calls the launcher makes, with host memory standing in for device memory
// and built-in "kernels" known by name (the same names and parameters as the kernels in
// test/gpu/launcher-kernels.cu). Faults behave as on a GPU: they surface at the next
// synchronizing call and then stick to every later call.
//
// A module is either a text file naming kernels:   // fake-cuda module
//                                                  kernel saxpy
//   and constants (`__constant__` variables) with their sizes in bytes:   constant table 16
// or a real cubin or PTX file, whose kernels are found by name in the image (so the GPU
// tests' own modules load here too).
// Environment: FAKE_CUDA_DEVICES (default 1; 0 makes cuInit fail with CUDA_ERROR_NO_DEVICE);
// FAKE_CUDA_PIN=refuse makes cuMemHostRegister fail (CUDA_ERROR_NOT_SUPPORTED); FAKE_CUDA_LOG
// names a file that gets a line for each cuMemHostRegister and cuMemHostUnregister, and for
// each copy to a module's constant ("constant table 16"), and with FAKE_CUDA_LOG_LAUNCHES=1 for
// each launch ("launch add_one"), stream query ("query") and marker write ("marker");
// FAKE_CUDA_MEMOPS=0 makes
// cuStreamWriteValue32 unsupported (launches are then blamed without markers); FAKE_CUDA_MEMORY sets the device's memory in bytes (default 1 GiB).
// Streams run their work at once, in order (kernels run inside cuLaunchKernel), so a
// stream's marker is written only while no fault is pending. A fault poisons the process for
// good, as on CUDA 13: no reset clears it (cuDevicePrimaryCtxReset_v2). Every entry point takes one
// lock: the in-process addon waits for queues on a worker thread.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

using CUresult = int;
using Ptr = unsigned long long;

constexpr CUresult OK = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_INITIALIZED = 3, NO_DEVICE = 100,
                   INVALID_DEVICE = 101, INVALID_IMAGE = 200, INVALID_PTX = 218, INVALID_HANDLE = 400,
                   NOT_FOUND = 500, NOT_READY = 600, ILLEGAL_ADDRESS = 700, ALREADY_REGISTERED = 712,
                   NOT_REGISTERED = 713, NOT_SUPPORTED = 801;
uint64_t memoryBytes() {
  const char* v = std::getenv("FAKE_CUDA_MEMORY");
  return v != nullptr ? std::strtoull(v, nullptr, 10) : uint64_t(1) << 30;
}
const uint64_t kMemory = memoryBytes();
std::recursive_mutex mu;

struct Kernel {
  const char* name;
  std::vector<size_t> params;
  int maxThreads;
};

const Kernel kKernels[] = {
    {"saxpy", {4, 4, 8, 8, 8}, 1024},                                 // (n, a, x, y, out)
    {"roundtrip", {1, 4, 4, 8, 8, 4, 8, 8, 8, 8, 8, 8, 8, 8}, 1024},  // 7 scalars, then 7 outputs
    {"roundtrip_narrow", {1, 1, 2, 2, 2, 2, 8, 8, 8, 8, 8, 8}, 1024},  // i8 u8 i16 u16 f16 bf16, then 6 outputs
    {"copy_bool", {4, 8, 8}, 1024},                                   // (n, in, out)
    {"copy_i32", {4, 8, 8}, 1024},
    {"copy_u32", {4, 8, 8}, 1024},
    {"copy_i64", {4, 8, 8}, 1024},
    {"copy_u64", {4, 8, 8}, 1024},
    {"copy_f32", {4, 8, 8}, 1024},
    {"copy_f64", {4, 8, 8}, 1024},
    {"add_one", {4, 8}, 1024},      // (n, p): p[i] += 1
    {"oob", {8}, 1024},             // writes 256 GiB past p
    {"bounded", {8}, 128},          // like __launch_bounds__(128)
    {"use_shared", {4, 8}, 1024},   // (count, out): needs 4 * count bytes of dynamic shared memory
    {"spin", {8, 8}, 1024},         // (cycles, done): never finishes here
    {"read_constant", {8}, 1024},   // (out): copies the module's constant "table", all of it, to out
    {"shared_length", {8, 4}, 1024},  // (out, n): a gk kernel with one dynamic shared f32 array of length n; out[0] = n
};

size_t copyElemSize(const std::string& name) {
  std::string t = name.substr(5);
  return t == "bool" ? 1 : (t == "i32" || t == "u32" || t == "f32") ? 4 : 8;
}

struct Module {
  std::set<std::string> kernels;
  std::map<std::string, size_t> constantSizes;  // declared in the module's text
  std::map<std::string, Ptr> constants;          // allocated on the first cuModuleGetGlobal
};
struct Function {
  const Kernel* kernel;
  Module* module;
  int dynamicSharedLimit = 48 * 1024;
};
struct Event {
  bool done = false;
};

bool initialized = false;
CUresult sticky = OK;        // every call fails with this once set
CUresult pendingFault = OK;  // a fault not yet observed by a synchronizing call
bool busy = false;           // a kernel that never ends is running
std::map<Ptr, std::vector<uint8_t>> allocations;
uint64_t allocated = 0;
// Freed blocks kept for reuse, as a GPU's memory never goes back to the host's allocator: then
// timings on this driver measure the launcher, not the page faults of fresh host memory.
std::multimap<size_t, std::vector<uint8_t>> freeBlocks;
uint64_t freeBytes = 0;
// Handles stay owned here until the process ends (a driver keeps them after a fault too).
std::vector<std::unique_ptr<Module>> modules;
std::vector<std::unique_ptr<Function>> functions;
std::vector<std::unique_ptr<Event>> events;
std::map<uintptr_t, size_t> registered;  // page-locked host ranges: start -> bytes
std::map<Ptr, std::string> constantNames;  // modules' constants' device addresses, for FAKE_CUDA_LOG
std::map<uintptr_t, size_t> hostAllocs;  // cuMemHostAlloc'd memory: start -> bytes

void logLine(const std::string& line) {
  const char* path = std::getenv("FAKE_CUDA_LOG");
  if (path == nullptr || *path == '\0') return;
  if (FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
  }
}

bool logLaunches() {
  const char* on = std::getenv("FAKE_CUDA_LOG_LAUNCHES");
  return on != nullptr && std::strcmp(on, "1") == 0;
}

template <class T>
T* keep(std::vector<std::unique_ptr<T>>& owner, T* p) {
  owner.emplace_back(p);
  return p;
}

int deviceCount() {
  const char* v = std::getenv("FAKE_CUDA_DEVICES");
  return v != nullptr ? std::atoi(v) : 1;
}

// Bounds-checked address translation: nullptr means the access faults.
uint8_t* translate(Ptr p, size_t bytes) {
  auto it = allocations.upper_bound(p);
  if (it == allocations.begin()) return nullptr;
  --it;
  Ptr base = it->first;
  if (p < base || p - base + bytes > it->second.size()) return nullptr;
  return it->second.data() + (p - base);
}

CUresult syncPoint() {
  if (pendingFault != OK) {
    sticky = pendingFault;
    pendingFault = OK;
  }
  return sticky;
}

template <class T>
T param(void** params, int i) {
  T v;
  std::memcpy(&v, params[i], sizeof v);
  return v;
}

// Runs a kernel over the grid; returns false on a memory fault (any element out of bounds).
bool runKernel(const Function& f, uint64_t threads, unsigned shared, void** params) {
  const Kernel& k = *f.kernel;
  std::string name = k.name;
  if (name == "saxpy") {
    uint64_t n = std::min<uint64_t>(threads, uint64_t(std::max(param<int>(params, 0), 0)));
    float a = param<float>(params, 1);
    uint8_t *x = translate(param<Ptr>(params, 2), 4 * n), *y = translate(param<Ptr>(params, 3), 4 * n),
            *out = translate(param<Ptr>(params, 4), 4 * n);
    if (n > 0 && (!x || !y || !out)) return false;
    for (uint64_t i = 0; i < n; i++) {
      float fx, fy;
      std::memcpy(&fx, x + 4 * i, 4);
      std::memcpy(&fy, y + 4 * i, 4);
      float r = a * fx + fy;
      std::memcpy(out + 4 * i, &r, 4);
    }
  } else if (name == "roundtrip" || name == "roundtrip_narrow") {
    // Each scalar's bytes, as the driver read them at its size, to the output of the same index.
    const int scalars = int(k.params.size() / 2);
    for (int s = 0; s < scalars; s++) {
      uint8_t* dst = translate(param<Ptr>(params, scalars + s), k.params[size_t(s)]);
      if (!dst) return false;
      std::memcpy(dst, params[s], k.params[size_t(s)]);
    }
  } else if (name.rfind("copy_", 0) == 0) {
    uint64_t bytes = std::min<uint64_t>(threads, uint64_t(std::max(param<int>(params, 0), 0))) * copyElemSize(name);
    uint8_t *in = translate(param<Ptr>(params, 1), bytes), *out = translate(param<Ptr>(params, 2), bytes);
    if (bytes > 0 && (!in || !out)) return false;
    if (bytes > 0) std::memcpy(out, in, bytes);
  } else if (name == "add_one") {
    uint64_t n = std::min<uint64_t>(threads, uint64_t(std::max(param<int>(params, 0), 0)));
    uint8_t* p = translate(param<Ptr>(params, 1), 4 * n);
    if (n > 0 && !p) return false;
    for (uint64_t i = 0; i < n; i++) {
      int32_t v;
      std::memcpy(&v, p + 4 * i, 4);
      v += 1;
      std::memcpy(p + 4 * i, &v, 4);
    }
  } else if (name == "oob") {
    return translate(param<Ptr>(params, 0) + (uint64_t(1) << 38), 4) != nullptr;
  } else if (name == "bounded") {
    return translate(param<Ptr>(params, 0), 4 * threads) != nullptr;
  } else if (name == "use_shared") {
    int count = param<int>(params, 0);
    uint8_t* out = translate(param<Ptr>(params, 1), 4);
    if (!out || count < 1 || uint64_t(count) * 4 > shared) return false;
    float last = float(count - 1);
    std::memcpy(out, &last, 4);
  } else if (name == "shared_length") {
    uint8_t* out = translate(param<Ptr>(params, 0), 4);
    uint32_t n = param<uint32_t>(params, 1);
    if (!out || uint64_t(n) * 4 > shared) return false;
    float v = float(n);
    std::memcpy(out, &v, 4);
  } else if (name == "spin") {
    busy = true;
  } else if (name == "read_constant") {
    auto c = f.module->constants.find("table");
    if (c == f.module->constants.end()) return false;
    size_t bytes = f.module->constantSizes.at("table");
    uint8_t *src = translate(c->second, bytes), *out = translate(param<Ptr>(params, 0), bytes);
    if (!src || !out) return false;
    std::memcpy(out, src, bytes);
  }
  return true;
}

// The kernels a module holds: listed in a fake module, or found by name in a cubin or PTX.
CUresult kernelsOf(const char* image, size_t size, std::set<std::string>& out, std::map<std::string, size_t>& constants) {
  std::string text(image, size);
  if (text.rfind("// fake-cuda module", 0) == 0) {
    std::istringstream lines(text);
    std::string word, name;
    size_t bytes;
    while (lines >> word) {
      if (word == "kernel" && lines >> name) out.insert(name);
      if (word == "constant" && lines >> name >> bytes) constants[name] = bytes;
    }
    return OK;
  }
  bool elf = text.rfind("\x7f" "ELF", 0) == 0;
  bool ptx = !elf && text.find(".version") != std::string::npos;
  if (!elf && !ptx) return INVALID_IMAGE;
  if (ptx && text.find(".entry") == std::string::npos) return INVALID_PTX;
  for (const Kernel& k : kKernels) {
    std::string needle = elf ? std::string(1, '\0') + k.name + std::string(1, '\0') : std::string(".entry ") + k.name + "(";
    if (text.find(needle) != std::string::npos) out.insert(k.name);
  }
  // A real image's constant "table" (read_constant's) is taken to be 16 bytes, as in a fake module:
  // the fake reads no symbol table, so the tests declare it so (constant table: f32[4]).
  std::string table = elf ? std::string(1, '\0') + "table" + std::string(1, '\0') : std::string(" table[16]");
  if (text.find(table) != std::string::npos) constants["table"] = 16;
  return OK;
}

const char* errorName(CUresult r) {
  switch (r) {
    case OK: return "CUDA_SUCCESS";
    case INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
    case OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
    case NOT_INITIALIZED: return "CUDA_ERROR_NOT_INITIALIZED";
    case NO_DEVICE: return "CUDA_ERROR_NO_DEVICE";
    case INVALID_DEVICE: return "CUDA_ERROR_INVALID_DEVICE";
    case INVALID_IMAGE: return "CUDA_ERROR_INVALID_IMAGE";
    case INVALID_PTX: return "CUDA_ERROR_INVALID_PTX";
    case INVALID_HANDLE: return "CUDA_ERROR_INVALID_HANDLE";
    case NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
    case NOT_READY: return "CUDA_ERROR_NOT_READY";
    case ILLEGAL_ADDRESS: return "CUDA_ERROR_ILLEGAL_ADDRESS";
    case ALREADY_REGISTERED: return "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED";
    case NOT_REGISTERED: return "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED";
    case NOT_SUPPORTED: return "CUDA_ERROR_NOT_SUPPORTED";
    default: return nullptr;
  }
}

[[noreturn]] void hang() {
  mu.unlock();  // the caller's lock (one level: hang is called from entry points only)
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

struct Stream {
  int id = 0;
};
std::vector<std::unique_ptr<Stream>> streams;

}  // namespace

#define LOCK() std::lock_guard<std::recursive_mutex> lock_(mu)

#define GUARD()                             \
  do {                                      \
    if (!initialized) return NOT_INITIALIZED; \
    if (sticky != OK) return sticky;        \
  } while (0)

// A GPU array's fill() and copyFrom() (launcher/device.cpp, Gpu::fill and Gpu::copy): aligned
// as the driver requires, and a copy between overlapping ranges refused (undefined on a GPU).
// With FAKE_CUDA_LOG_LAUNCHES=1 each is logged ("memset D32 4096", "copy 4096", and "upload
// 64" for an asynchronous copy from the host), so tests see which way a fill went.
template <class T>
CUresult memsetN(Ptr dst, T v, size_t n, const char* name) {
  LOCK();
  GUARD();
  if (dst % sizeof(T) != 0) return INVALID_VALUE;
  uint8_t* d = translate(dst, n * sizeof(T));
  if (!d && n != 0) return INVALID_VALUE;
  for (size_t i = 0; i < n; i++) std::memcpy(d + i * sizeof(T), &v, sizeof(T));
  if (logLaunches()) logLine(std::string("memset ") + name + " " + std::to_string(n));
  return OK;
}
extern "C" {

CUresult cuGetErrorName(CUresult r, const char** s) {
  LOCK();
  *s = errorName(r);
  return *s ? OK : INVALID_VALUE;
}
CUresult cuGetErrorString(CUresult r, const char** s) {
  LOCK();
  *s = errorName(r) ? "fake driver error text" : nullptr;
  return *s ? OK : INVALID_VALUE;
}
CUresult cuDriverGetVersion(int* v) {
  LOCK();
  *v = 12040;
  return OK;
}
CUresult cuInit(unsigned) {
  LOCK();
  if (deviceCount() <= 0) return NO_DEVICE;
  initialized = true;
  return OK;
}
CUresult cuDeviceGetCount(int* n) {
  LOCK();
  GUARD();
  *n = deviceCount();
  return OK;
}
CUresult cuDeviceGet(int* d, int ordinal) {
  LOCK();
  GUARD();
  if (ordinal < 0 || ordinal >= deviceCount()) return INVALID_DEVICE;
  *d = ordinal;
  return OK;
}
CUresult cuDeviceGetName(char* name, int len, int) {
  LOCK();
  GUARD();
  std::snprintf(name, size_t(len), "%s", "Fake GPU (gk test driver)");
  return OK;
}
CUresult cuDeviceGetAttribute(int* v, int attr, int) {
  LOCK();
  GUARD();
  switch (attr) {
    case 1: *v = 1024; break;
    case 2: case 3: *v = 1024; break;
    case 4: *v = 64; break;
    case 5: *v = 2147483647; break;
    case 6: case 7: *v = 65535; break;
    case 8: *v = 48 * 1024; break;
    case 16: *v = 132; break;
    case 75: *v = 9; break;
    case 76: *v = 0; break;
    case 97: *v = 227 * 1024; break;
    default: return INVALID_VALUE;
  }
  return OK;
}
CUresult cuDeviceTotalMem_v2(size_t* bytes, int) {
  LOCK();
  GUARD();
  *bytes = kMemory;
  return OK;
}
CUresult cuDevicePrimaryCtxRetain(void** ctx, int) {
  LOCK();
  GUARD();
  static int context;
  *ctx = &context;
  return OK;
}
CUresult cuDevicePrimaryCtxRelease_v2(int) {
  LOCK();
  if (!registered.empty()) {
    std::fprintf(stderr, "fake driver: %zu host memory registrations left at context release\n", registered.size());
  }
  return initialized ? OK : NOT_INITIALIZED;
}
CUresult cuCtxSetCurrent(void*) {
  LOCK();
  GUARD();
  return OK;
}
CUresult cuCtxSynchronize() {
  LOCK();
  if (CUresult r = syncPoint()) return r;
  if (busy) hang();
  return OK;
}
CUresult cuModuleLoadDataEx(void** mod, const void* image, unsigned n, int* options, void** values) {
  LOCK();
  GUARD();
  // The driver is not told an image's size: PTX ends at a NUL, and an ELF cubin's section
  // headers end the file.
  const char* p = static_cast<const char*>(image);
  size_t size = 0;
  if (std::memcmp(p, "\x7f" "ELF", 4) == 0) {
    uint64_t shoff, shentsize, shnum;  // ELF64: the section headers end the file
    std::memcpy(&shoff, p + 0x28, 8);
    shentsize = uint16_t(p[0x3A] & 0xFF) | uint16_t((p[0x3B] & 0xFF) << 8);
    shnum = uint16_t(p[0x3C] & 0xFF) | uint16_t((p[0x3D] & 0xFF) << 8);
    size = size_t(shoff + shentsize * shnum);
  } else {
    size = std::strlen(p);
  }
  auto* m = keep(modules, new Module);
  CUresult r = kernelsOf(p, size, m->kernels, m->constantSizes);
  if (r != OK) {
    for (unsigned i = 0; i < n; i++) {
      if (options[i] == 5) std::snprintf(static_cast<char*>(values[i]), 64, "%s", "fake driver: not a module it can read");
    }
    return r;
  }
  *mod = m;
  return OK;
}
CUresult cuModuleUnload(void* mod) {
  LOCK();
  GUARD();
  static_cast<Module*>(mod)->kernels.clear();
  return OK;
}
CUresult cuModuleGetFunction(void** fn, void* mod, const char* name) {
  LOCK();
  GUARD();
  if (!static_cast<Module*>(mod)->kernels.count(name)) return NOT_FOUND;
  for (const Kernel& k : kKernels) {
    if (std::strcmp(k.name, name) == 0) {
      *fn = keep(functions, new Function{&k, static_cast<Module*>(mod)});
      return OK;
    }
  }
  return NOT_FOUND;
}
CUresult cuMemAlloc_v2(Ptr* p, size_t bytes);
CUresult cuModuleGetGlobal_v2(Ptr* dptr, size_t* bytes, void* mod, const char* name) {
  GUARD();
  auto* m = static_cast<Module*>(mod);
  auto size = m->constantSizes.find(name);
  if (size == m->constantSizes.end()) return NOT_FOUND;
  auto& p = m->constants[name];
  if (p == 0) {
    CUresult r = cuMemAlloc_v2(&p, size->second);
    if (r != OK) return r;
    constantNames[p] = name;
  }
  if (dptr) *dptr = p;
  if (bytes) *bytes = size->second;
  return OK;
}
CUresult cuFuncGetAttribute(int* v, int attr, void* fn) {
  LOCK();
  GUARD();
  auto* f = static_cast<Function*>(fn);
  switch (attr) {
    case 0: *v = f->kernel->maxThreads; return OK;
    case 1: *v = 0; return OK;
    case 4: *v = 32; return OK;
    default: return INVALID_VALUE;
  }
}
CUresult cuFuncSetAttribute(void* fn, int attr, int value) {
  LOCK();
  GUARD();
  if (attr != 8 || value < 0 || value > 227 * 1024) return INVALID_VALUE;
  static_cast<Function*>(fn)->dynamicSharedLimit = value;
  return OK;
}
CUresult cuFuncGetParamInfo(void* fn, size_t i, size_t* offset, size_t* size) {
  LOCK();
  GUARD();
  const auto& params = static_cast<Function*>(fn)->kernel->params;
  if (i >= params.size()) return INVALID_VALUE;
  size_t off = 0;
  for (size_t k = 0; k <= i; k++) {
    off = (off + params[k] - 1) / params[k] * params[k];
    if (k < i) off += params[k];
  }
  *offset = off;
  if (size) *size = params[i];
  return OK;
}
CUresult cuMemAlloc_v2(Ptr* p, size_t bytes) {
  LOCK();
  GUARD();
  if (bytes == 0) return INVALID_VALUE;
  if (bytes > kMemory - allocated) return OUT_OF_MEMORY;
  std::vector<uint8_t> block;
  auto reuse = freeBlocks.find(bytes);
  if (reuse != freeBlocks.end()) {
    block = std::move(reuse->second);
    freeBlocks.erase(reuse);
    freeBytes -= bytes;
  }
  block.assign(bytes, 0xCD);  // uninitialized device memory is garbage
  Ptr base = Ptr(reinterpret_cast<uintptr_t>(block.data()));
  allocated += bytes;
  allocations.emplace(base, std::move(block));
  *p = base;
  return OK;
}
CUresult cuMemFree_v2(Ptr p) {
  LOCK();
  GUARD();
  auto it = allocations.find(p);
  if (it == allocations.end()) return INVALID_VALUE;
  allocated -= it->second.size();
  if (freeBytes + it->second.size() > kMemory) {
    freeBlocks.clear();
    freeBytes = 0;
  }
  freeBytes += it->second.size();
  freeBlocks.emplace(it->second.size(), std::move(it->second));
  allocations.erase(it);
  return OK;
}
CUresult cuMemcpyHtoD_v2(Ptr dst, const void* src, size_t n) {
  LOCK();
  if (CUresult r = syncPoint()) return r;
  uint8_t* d = translate(dst, n);
  if (!d) return INVALID_VALUE;
  std::memcpy(d, src, n);
  auto constant = constantNames.find(dst);
  if (constant != constantNames.end()) logLine("constant " + constant->second + " " + std::to_string(n));
  return OK;
}
CUresult cuMemcpyDtoH_v2(void* dst, Ptr src, size_t n) {
  LOCK();
  if (CUresult r = syncPoint()) return r;
  if (busy) hang();
  uint8_t* s = translate(src, n);
  if (!s) return INVALID_VALUE;
  std::memcpy(dst, s, n);
  return OK;
}
CUresult cuMemsetD8_v2(Ptr dst, unsigned char v, size_t n) {
  LOCK();
  GUARD();
  uint8_t* d = translate(dst, n);
  if (!d) return INVALID_VALUE;
  std::memset(d, v, n);
  return OK;
}
CUresult cuMemHostRegister_v2(void* p, size_t bytes, unsigned) {
  LOCK();
  GUARD();
  const char* pin = std::getenv("FAKE_CUDA_PIN");
  if (pin != nullptr && std::strcmp(pin, "refuse") == 0) return NOT_SUPPORTED;
  if (p == nullptr || bytes == 0) return INVALID_VALUE;
  uintptr_t start = reinterpret_cast<uintptr_t>(p);
  auto next = registered.lower_bound(start);
  if (next != registered.end() && next->first < start + bytes) return ALREADY_REGISTERED;
  if (next != registered.begin() && std::prev(next)->first + std::prev(next)->second > start) return ALREADY_REGISTERED;
  volatile const uint8_t* bytesIn = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < bytes; i += 4096) (void)bytesIn[i];  // pinning touches every page, as a driver does
  registered[start] = bytes;
  logLine("register " + std::to_string(bytes));
  return OK;
}
CUresult cuMemHostUnregister(void* p) {
  LOCK();
  GUARD();
  auto it = registered.find(reinterpret_cast<uintptr_t>(p));
  if (it == registered.end()) return NOT_REGISTERED;
  logLine("unregister " + std::to_string(it->second));
  registered.erase(it);
  return OK;
}
CUresult cuLaunchKernel(void* fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void*, void** params, void**) {
  LOCK();
  GUARD();
  auto* f = static_cast<Function*>(fn);
  uint64_t block = uint64_t(bx) * by * bz;
  if (block == 0 || block > uint64_t(f->kernel->maxThreads) || int(shared) > f->dynamicSharedLimit) return INVALID_VALUE;
  if (logLaunches()) logLine(std::string("launch ") + f->kernel->name);
  if (!runKernel(*f, block * gx * gy * gz, shared, params)) pendingFault = ILLEGAL_ADDRESS;
  return OK;
}
CUresult cuEventCreate(void** e, unsigned) {
  LOCK();
  GUARD();
  *e = keep(events, new Event);
  return OK;
}
CUresult cuEventRecord(void* e, void*) {
  LOCK();
  GUARD();
  static_cast<Event*>(e)->done = !busy;
  return OK;
}
CUresult cuEventQuery(void* e) {
  LOCK();
  if (CUresult r = syncPoint()) return r;
  return static_cast<Event*>(e)->done ? OK : NOT_READY;
}
CUresult cuEventSynchronize(void* e) {
  LOCK();
  if (CUresult r = syncPoint()) return r;
  if (!static_cast<Event*>(e)->done) hang();
  return OK;
}
CUresult cuEventElapsedTime_v2(float* ms, void*, void*) {
  LOCK();
  GUARD();
  *ms = 0.015625f;
  return OK;
}
CUresult cuEventDestroy_v2(void*) { return OK; }
CUresult cuStreamCreate(void** s, unsigned) {
  LOCK();
  GUARD();
  auto* st = keep(streams, new Stream);
  st->id = int(streams.size());
  *s = st;
  return OK;
}
CUresult cuStreamDestroy_v2(void*) {
  LOCK();
  GUARD();
  return OK;
}
CUresult cuStreamQuery(void*) {
  LOCK();
  if (logLaunches()) logLine("query");
  if (CUresult r = syncPoint()) return r;
  return busy ? NOT_READY : OK;
}
CUresult cuStreamSynchronize(void*) {
  LOCK();
  if (CUresult r = syncPoint()) return r;
  if (busy) hang();
  return OK;
}
CUresult cuMemcpyHtoDAsync_v2(Ptr dst, const void* src, size_t n, void*) {
  LOCK();
  GUARD();
  uint8_t* d = translate(dst, n);
  if (!d) return INVALID_VALUE;
  std::memcpy(d, src, n);
  if (logLaunches()) logLine("upload " + std::to_string(n));
  return OK;
}
CUresult cuMemcpyDtoHAsync_v2(void* dst, Ptr src, size_t n, void*) {
  LOCK();
  GUARD();
  uint8_t* s = translate(src, n);
  if (!s) return INVALID_VALUE;
  std::memcpy(dst, s, n);
  return OK;
}
CUresult cuMemsetD8Async(Ptr dst, unsigned char v, size_t n, void*) {
  LOCK();
  GUARD();
  uint8_t* d = translate(dst, n);
  if (!d) return INVALID_VALUE;
  std::memset(d, v, n);
  if (logLaunches()) logLine("memset D8 " + std::to_string(n));
  return OK;
}
CUresult cuMemsetD16Async(Ptr dst, unsigned short v, size_t n, void*) { return memsetN<uint16_t>(dst, v, n, "D16"); }
CUresult cuMemsetD32Async(Ptr dst, unsigned v, size_t n, void*) { return memsetN<uint32_t>(dst, v, n, "D32"); }
CUresult cuMemcpyDtoDAsync_v2(Ptr dst, Ptr src, size_t n, void*) {
  LOCK();
  GUARD();
  if (n == 0) return OK;
  uint8_t *d = translate(dst, n), *s = translate(src, n);
  if (!d || !s || (dst < src + n && src < dst + n)) return INVALID_VALUE;
  std::memcpy(d, s, n);
  if (logLaunches()) logLine("copy " + std::to_string(n));
  return OK;
}
CUresult cuMemHostAlloc(void** p, size_t bytes, unsigned) {
  LOCK();
  GUARD();
  if (bytes == 0) return INVALID_VALUE;
  void* m = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  if (m == nullptr) return OUT_OF_MEMORY;
  hostAllocs[reinterpret_cast<uintptr_t>(m)] = bytes;
  *p = m;
  return OK;
}
CUresult cuMemFreeHost(void* p) {
  LOCK();
  auto it = hostAllocs.find(reinterpret_cast<uintptr_t>(p));
  if (it == hostAllocs.end()) return INVALID_VALUE;
  hostAllocs.erase(it);
  std::free(p);
  return OK;
}
CUresult cuMemHostGetDevicePointer_v2(Ptr* d, void* p, unsigned) {
  LOCK();
  GUARD();
  if (!hostAllocs.count(reinterpret_cast<uintptr_t>(p))) return INVALID_VALUE;
  *d = Ptr(reinterpret_cast<uintptr_t>(p));
  return OK;
}
CUresult cuMemGetInfo_v2(size_t* free, size_t* total) {
  LOCK();
  GUARD();
  *free = size_t(kMemory - allocated);
  *total = size_t(kMemory);
  return OK;
}
CUresult cuStreamWriteValue32_v2(void*, Ptr addr, uint32_t value, unsigned) {
  LOCK();
  GUARD();
  const char* on = std::getenv("FAKE_CUDA_MEMOPS");
  if (on != nullptr && std::strcmp(on, "0") == 0) return NOT_SUPPORTED;
  if (logLaunches()) logLine("marker");
  if (pendingFault != OK || busy) return OK;  // the stream stopped at a fault, or waits for a kernel
  std::memcpy(reinterpret_cast<void*>(uintptr_t(addr)), &value, 4);
  return OK;
}
// As with CUDA 13 (driver 580): a sticky error poisons the process, reset or not. The reset
// succeeds and frees the context's memory, but the error stays: retaining the context again,
// and every other call, fails with it. Only a new process can use the GPU.
CUresult cuDevicePrimaryCtxReset_v2(int) {
  LOCK();
  if (!initialized) return NOT_INITIALIZED;
  if (pendingFault != OK) syncPoint();
  allocations.clear();
  allocated = 0;
  for (auto& entry : hostAllocs) std::free(reinterpret_cast<void*>(entry.first));
  hostAllocs.clear();
  return OK;
}

}  // extern "C"
