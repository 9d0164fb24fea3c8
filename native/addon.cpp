// gk's in-process GPU path: a Node-API addon (built by node-gyp from binding.gyp) that drives
// the CUDA Driver API from the Node process itself, with no process hop. It shares the
// launcher's code: libcuda.so.1 is loaded at run time (launcher/cuda_driver.cpp), CUDA
// errors are mapped and described as the launcher describes them (launcher/errors.cpp),
// the GPU is handled by launcher/device.cpp and queued launches by launcher/queues.cpp.
// src/runtime/device/native.ts is its only caller; spec/runtime-api.md says what it does.
//
// Every function takes the GPU's index first. Errors are thrown as JavaScript Errors whose
// `code` is "GK_LAUNCHER" and whose message is the launcher's error JSON (spec/launcher-
// protocol.md, "Errors"), which the caller parses. After an error that loses the context
// (sticky), every call but reset() and close() fails until reset() makes a new context.
#define NAPI_VERSION 8
#include <node_api.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "../launcher/device.hpp"
#include "../launcher/json.hpp"
#include "../launcher/queues.hpp"

namespace gk {
namespace {

constexpr size_t kStageBytes = size_t(8) << 20;  // two page-locked staging buffers of this size
constexpr size_t kLaunchHeader = 48;             // bytes before the parameters in a launch block

struct Function {
  CUfunction f = nullptr;
  KernelInfo info;
  std::string name;  // what errors call it
};

struct Context {
  int ordinal = 0;
  uint64_t generation = 1;
  std::unique_ptr<Gpu> gpu;
  std::unique_ptr<Queues> queues;
  std::vector<CUmodule> modules;  // by id; null once unloaded
  std::vector<Function> functions;
  uint8_t* stage[2] = {nullptr, nullptr};
  CUevent staged[2] = {nullptr, nullptr};
  std::map<uintptr_t, size_t> pinned;  // host arrays page-locked by hostArray()
  bool lost = false;                   // a sticky error happened: only reset() and close() work
  std::string lostWhy;

  const Driver& d() const { return gpu->driver(); }
};

std::map<int, std::unique_ptr<Context>> contexts;

// ------------------------------------------------------------------ plumbing

struct JsError {
  std::string message;
};

void throwLauncher(napi_env env, const LauncherError& e) {
  std::string json;
  appendErrorJson(json, e);
  napi_throw_error(env, "GK_LAUNCHER", json.c_str());
}

template <class F>
napi_value guarded(napi_env env, F&& f) {
  try {
    return f();
  } catch (const LauncherError& e) {
    throwLauncher(env, e);
  } catch (const JsError& e) {
    napi_throw_type_error(env, "GK_NATIVE_ARGS", e.message.c_str());
  } catch (const std::bad_alloc&) {
    throwLauncher(env, makeError("HOST_OUT_OF_MEMORY", phase::kServe, "the in-process GPU path ran out of host memory"));
  } catch (const std::exception& e) {
    throwLauncher(env, makeError("INTERNAL", phase::kServe, std::string("internal error: ") + e.what()));
  }
  return nullptr;
}

std::vector<napi_value> args(napi_env env, napi_callback_info info, size_t n) {
  std::vector<napi_value> v(n);
  size_t got = n;
  napi_get_cb_info(env, info, &got, v.data(), nullptr, nullptr);
  if (got < n) throw JsError{"expected " + std::to_string(n) + " arguments"};
  return v;
}

double number(napi_env env, napi_value v) {
  double x = 0;
  if (napi_get_value_double(env, v, &x) != napi_ok) throw JsError{"expected a number"};
  return x;
}

int32_t int32(napi_env env, napi_value v) {
  int32_t x = 0;
  if (napi_get_value_int32(env, v, &x) != napi_ok) throw JsError{"expected an integer"};
  return x;
}

std::string text(napi_env env, napi_value v) {
  size_t n = 0;
  if (napi_get_value_string_utf8(env, v, nullptr, 0, &n) != napi_ok) throw JsError{"expected a string"};
  std::string s(n, '\0');
  napi_get_value_string_utf8(env, v, &s[0], n + 1, &n);
  return s;
}

// The bytes a TypedArray or Buffer views.
uint8_t* bytesOf(napi_env env, napi_value v, size_t& length) {
  bool is = false;
  napi_is_typedarray(env, v, &is);
  if (!is) throw JsError{"expected a TypedArray"};
  napi_typedarray_type type;
  size_t count = 0, offset = 0;
  void* data = nullptr;
  napi_value buffer;
  napi_get_typedarray_info(env, v, &type, &count, &data, &buffer, &offset);
  size_t size = 1;
  switch (type) {
    case napi_int16_array: case napi_uint16_array: size = 2; break;
    case napi_int32_array: case napi_uint32_array: case napi_float32_array: size = 4; break;
    case napi_float64_array: case napi_bigint64_array: case napi_biguint64_array: size = 8; break;
    default: size = 1;
  }
  length = count * size;
  return static_cast<uint8_t*>(data);
}

napi_value num(napi_env env, double x) {
  napi_value v;
  napi_create_double(env, x, &v);
  return v;
}

napi_value str(napi_env env, const std::string& s) {
  napi_value v;
  napi_create_string_utf8(env, s.data(), s.size(), &v);
  return v;
}

napi_value undefined(napi_env env) {
  napi_value v;
  napi_get_undefined(env, &v);
  return v;
}

Context& context(napi_env env, napi_value v, bool evenIfLost = false) {
  int ordinal = int32(env, v);
  auto it = contexts.find(ordinal);
  if (it == contexts.end()) throw JsError{"GPU " + std::to_string(ordinal) + " is not open"};
  Context& c = *it->second;
  if (!evenIfLost && c.lost) {
    LauncherError e = makeError("CUDA_ERROR", phase::kServe, "the GPU context was lost (" + c.lostWhy + "); reset it first");
    e.sticky = true;
    throw e;
  }
  return c;
}

// Runs `f` on a context; a sticky error marks it lost (and is blamed on a queued launch).
template <class F>
napi_value onContext(napi_env env, napi_value ordinal, F&& f) {
  return guarded(env, [&]() -> napi_value {
    Context& c = context(env, ordinal);
    try {
      return f(c);
    } catch (LauncherError& e) {
      if (e.sticky) {
        if (c.queues) c.queues->blame(e);
        c.lost = true;
        c.lostWhy = e.cudaError.empty() ? e.code : e.cudaError;
      }
      throw;
    }
  });
}

std::string deviceJson(Context& c) {
  std::string out;
  appendDeviceJson(out, c.gpu->info(), c.d().version);
  return out;
}

void makeStaging(Context& c) {
  for (int i = 0; i < 2; i++) {
    void* p = nullptr;
    c.d().check(c.d().cuMemHostAlloc(&p, kStageBytes, cu::kHostAllocPortable), "cuMemHostAlloc", phase::kInit);
    c.stage[i] = static_cast<uint8_t*>(p);
    c.d().check(c.d().cuEventCreate(&c.staged[i], 0), "cuEventCreate", phase::kInit);
  }
}

void open(Context& c) {
  c.gpu = std::make_unique<Gpu>(c.ordinal);
  c.queues = std::make_unique<Queues>(*c.gpu);
  makeStaging(c);
}

// Releases what the context holds, checked; `quiet` after a lost context: no driver calls
// that would only report the loss again.
void release(Context& c, bool quiet) {
  if (!c.gpu) return;
  if (quiet || c.gpu->abandoned()) {
    if (c.queues) c.queues->drop();
    c.gpu->abandon();
  }
  c.queues.reset();
  if (!c.gpu->abandoned()) {
    const Driver& d = c.d();
    for (int i = 0; i < 2; i++) {
      if (c.stage[i] != nullptr) (void)d.cuMemFreeHost(c.stage[i]);
      if (c.staged[i] != nullptr) (void)d.cuEventDestroy(c.staged[i]);
    }
    for (CUmodule m : c.modules) {
      if (m != nullptr) (void)d.cuModuleUnload(m);
    }
    for (auto& [p, bytes] : c.pinned) (void)d.cuMemHostUnregister(reinterpret_cast<void*>(p));
  }
  c.stage[0] = c.stage[1] = nullptr;
  c.staged[0] = c.staged[1] = nullptr;
  c.modules.clear();
  c.functions.clear();
  c.pinned.clear();
  c.gpu.reset();  // releases the primary context (the destructor skips it once abandoned)
}

// Whether [p, p + n) lies in memory hostArray() page-locked.
bool isPinned(const Context& c, const uint8_t* p, size_t n) {
  auto it = c.pinned.upper_bound(reinterpret_cast<uintptr_t>(p));
  if (it == c.pinned.begin()) return false;
  --it;
  return reinterpret_cast<uintptr_t>(p) + n <= it->first + it->second;
}

// ------------------------------------------------------------------ the functions

napi_value Open(napi_env env, napi_callback_info info) {
  return guarded(env, [&]() -> napi_value {
    auto a = args(env, info, 1);
    int ordinal = int32(env, a[0]);
    auto& slot = contexts[ordinal];
    if (!slot) {
      auto c = std::make_unique<Context>();
      c->ordinal = ordinal;
      open(*c);
      slot = std::move(c);
    }
    return str(env, deviceJson(*slot));
  });
}

napi_value Close(napi_env env, napi_callback_info info) {
  return guarded(env, [&]() -> napi_value {
    auto a = args(env, info, 1);
    int ordinal = int32(env, a[0]);
    auto it = contexts.find(ordinal);
    if (it == contexts.end()) return undefined(env);
    std::unique_ptr<Context> c = std::move(it->second);
    contexts.erase(it);
    release(*c, c->lost);
    return undefined(env);
  });
}

// After a lost context: a fresh one (the driver's reset frees everything the old one held).
napi_value Reset(napi_env env, napi_callback_info info) {
  return guarded(env, [&]() -> napi_value {
    auto a = args(env, info, 1);
    Context& c = context(env, a[0], true);
    if (c.gpu && c.gpu->abandoned()) {
      throw makeError("KERNEL_TIMEOUT", phase::kKernel,
                      "a kernel that did not finish still runs in this process: its GPU cannot be used again until the "
                      "process ends (isolation \"process\" stops such kernels by ending the launcher)");
    }
    CUdevice dev = c.gpu ? c.gpu->device() : 0;
    const Driver& d = Driver::get();
    release(c, true);
    d.check(d.cuDevicePrimaryCtxReset(dev), "cuDevicePrimaryCtxReset_v2", phase::kInit);
    c.lost = false;
    c.lostWhy.clear();
    c.generation++;
    open(c);
    return str(env, deviceJson(c));
  });
}

napi_value Alloc(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 2);
  return onContext(env, a[0], [&](Context& c) {
    uint64_t bytes = uint64_t(number(env, a[1]));
    CUdeviceptr p = c.gpu->alloc(bytes, "a GPU array");
    if (bytes > 0) {
      CUresult r = c.d().cuMemsetD8Async(p, 0, bytes, nullptr);  // ordered before every later use
      if (r != cu::kSuccess) {
        (void)c.d().cuMemFree(p);
        c.d().check(r, "cuMemsetD8Async", phase::kAlloc);
      }
    }
    return num(env, double(p));
  });
}

napi_value Free(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 2);
  return onContext(env, a[0], [&](Context& c) {
    c.gpu->free(CUdeviceptr(number(env, a[1])));
    return undefined(env);
  });
}

// Host to device: straight from page-locked memory, else through the two staging buffers,
// copying one piece into a buffer while the GPU takes the other.
napi_value Upload(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 4);
  return onContext(env, a[0], [&](Context& c) {
    CUdeviceptr dst = CUdeviceptr(number(env, a[1])) + CUdeviceptr(number(env, a[2]));
    size_t n = 0;
    const uint8_t* src = bytesOf(env, a[3], n);
    const Driver& d = c.d();
    if (n == 0) return undefined(env);
    if (isPinned(c, src, n)) {
      d.check(d.cuMemcpyHtoD(dst, src, n), "cuMemcpyHtoD_v2", phase::kH2D);
      return undefined(env);
    }
    bool used[2] = {false, false};
    for (size_t done = 0, k = 0; done < n; k ^= 1) {
      size_t len = std::min(kStageBytes, n - done);
      if (used[k]) d.check(d.cuEventSynchronize(c.staged[k]), "cuEventSynchronize", phase::kH2D);
      std::memcpy(c.stage[k], src + done, len);
      d.check(d.cuMemcpyHtoDAsync(dst + done, c.stage[k], len, nullptr), "cuMemcpyHtoDAsync_v2", phase::kH2D);
      d.check(d.cuEventRecord(c.staged[k], nullptr), "cuEventRecord", phase::kH2D);
      used[k] = true;
      done += len;
    }
    for (int k = 0; k < 2; k++) {
      if (used[k]) d.check(d.cuEventSynchronize(c.staged[k]), "cuEventSynchronize", phase::kH2D);
    }
    return undefined(env);
  });
}

napi_value Download(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 4);
  return onContext(env, a[0], [&](Context& c) {
    CUdeviceptr src = CUdeviceptr(number(env, a[1])) + CUdeviceptr(number(env, a[2]));
    size_t n = 0;
    uint8_t* dst = bytesOf(env, a[3], n);
    const Driver& d = c.d();
    if (n == 0) return undefined(env);
    if (isPinned(c, dst, n)) {
      d.check(d.cuMemcpyDtoH(dst, src, n), "cuMemcpyDtoH_v2", phase::kD2H);
      return undefined(env);
    }
    // Piece k lands in buffer k % 2 while piece k - 1 is copied out of the other.
    size_t pieces = (n + kStageBytes - 1) / kStageBytes;
    auto piece = [&](size_t k) { return std::min(kStageBytes, n - k * kStageBytes); };
    auto start = [&](size_t k) {
      d.check(d.cuMemcpyDtoHAsync(c.stage[k % 2], src + k * kStageBytes, piece(k), nullptr), "cuMemcpyDtoHAsync_v2",
              phase::kD2H);
      d.check(d.cuEventRecord(c.staged[k % 2], nullptr), "cuEventRecord", phase::kD2H);
    };
    start(0);
    for (size_t k = 0; k < pieces; k++) {
      if (k + 1 < pieces) start(k + 1);
      d.check(d.cuEventSynchronize(c.staged[k % 2]), "cuEventSynchronize", phase::kD2H);
      std::memcpy(dst + k * kStageBytes, c.stage[k % 2], piece(k));
    }
    return undefined(env);
  });
}

napi_value Load(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 3);
  return onContext(env, a[0], [&](Context& c) {
    size_t n = 0;
    const uint8_t* image = bytesOf(env, a[1], n);
    std::vector<char> bytes(image, image + n);
    bytes.push_back('\0');  // PTX is text the driver reads to its NUL
    c.modules.push_back(c.gpu->loadModule(bytes, text(env, a[2])));
    return num(env, double(c.modules.size() - 1));
  });
}

napi_value Unload(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 2);
  return onContext(env, a[0], [&](Context& c) {
    size_t id = size_t(int32(env, a[1]));
    if (id >= c.modules.size() || c.modules[id] == nullptr) throw JsError{"no module " + std::to_string(id)};
    CUmodule m = c.modules[id];
    c.modules[id] = nullptr;
    c.gpu->unloadModule(m);
    return undefined(env);
  });
}

// kernel(gpu, module, symbol, name): a handle for launch().
napi_value Kernel(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 4);
  return onContext(env, a[0], [&](Context& c) {
    size_t id = size_t(int32(env, a[1]));
    if (id >= c.modules.size() || c.modules[id] == nullptr) throw JsError{"no module " + std::to_string(id)};
    Function fn;
    fn.f = c.gpu->getFunction(c.modules[id], text(env, a[2]));
    fn.info = c.gpu->describe(fn.f);
    fn.name = text(env, a[3]);
    c.functions.push_back(std::move(fn));
    return num(env, double(c.functions.size() - 1));
  });
}

// launch(gpu, kernel, block): `block` holds, as little-endian u32s, grid x y z, block x y z,
// dynamic shared bytes, queue, seq, timing (0/1), the parameter count, a spare word; from
// byte 48 each parameter in 8 bytes (a scalar's bits in its low bytes, or a device pointer).
napi_value Launch(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 3);
  return onContext(env, a[0], [&](Context& c) {
    size_t id = size_t(int32(env, a[1]));
    if (id >= c.functions.size()) throw JsError{"no kernel " + std::to_string(id)};
    Function& fn = c.functions[id];
    size_t n = 0;
    uint8_t* block = bytesOf(env, a[2], n);
    uint32_t h[12];
    if (n < kLaunchHeader) throw JsError{"a launch block has a 48-byte header"};
    std::memcpy(h, block, sizeof h);
    uint32_t count = h[10];
    if (count > kMaxArgs || n < kLaunchHeader + 8 * size_t(count)) throw JsError{"a launch block too short for its parameters"};
    LaunchDims dims;
    for (int i = 0; i < 3; i++) {
      dims.grid[i] = h[i];
      dims.block[i] = h[3 + i];
    }
    void* params[kMaxArgs];
    if (fn.info.paramsKnown && fn.info.paramSizes.size() != count) {
      throw makeError("BAD_ARGS", phase::kLaunch,
                      "kernel " + fn.name + " takes " + std::to_string(fn.info.paramSizes.size()) + " parameters, given " +
                          std::to_string(count));
    }
    for (uint32_t i = 0; i < count; i++) params[i] = block + kLaunchHeader + 8 * size_t(i);
    c.gpu->prepareLaunch(fn.f, fn.info, dims, h[6]);
    c.queues->launch(h[7], h[8], fn.name, h[9] != 0, fn.f, dims, h[6], params);
    return undefined(env);
  });
}

napi_value Queue(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 1);
  return onContext(env, a[0], [&](Context& c) { return num(env, double(c.queues->create())); });
}

napi_value Unqueue(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 2);
  return onContext(env, a[0], [&](Context& c) {
    c.queues->destroy(uint32_t(int32(env, a[1])));
    return undefined(env);
  });
}

// The streams a wait for queue q (every queue when q < 0) watches.
std::vector<CUstream> streamsOf(Context& c, int32_t q) {
  if (q >= 0) return {c.queues->stream(uint32_t(q))};
  return c.queues->streams();
}

// Whether every stream is idle; throws the first error a query reports.
bool idle(const Driver& d, const std::vector<CUstream>& streams) {
  for (CUstream s : streams) {
    CUresult r = d.cuStreamQuery(s);
    if (r == cu::kErrorNotReady) return false;
    d.check(r, "cuStreamQuery", phase::kKernel);
  }
  return true;
}

// poll(gpu, queue, spinMicroseconds): when queue (every queue, for -1) is idle within the spin,
// the times of its timed launches as [queue, seq, ms, ...]; otherwise null. Throws a queued
// failure, pinned on its launch.
napi_value Poll(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 3);
  return onContext(env, a[0], [&](Context& c) -> napi_value {
    int32_t q = int32(env, a[1]);
    double spinUs = number(env, a[2]);
    std::vector<CUstream> streams = streamsOf(c, q);
    auto start = std::chrono::steady_clock::now();
    while (!idle(c.d(), streams)) {
      if (std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() >= spinUs) {
        napi_value nul;
        napi_get_null(env, &nul);
        return nul;
      }
    }
    std::vector<LaunchTime> times = c.queues->sync(q < 0, q < 0 ? 0 : uint32_t(q), 0);
    napi_value out;
    napi_create_array_with_length(env, times.size() * 3, &out);
    for (size_t i = 0; i < times.size(); i++) {
      napi_set_element(env, out, uint32_t(3 * i), num(env, times[i].queue));
      napi_set_element(env, out, uint32_t(3 * i + 1), num(env, times[i].seq));
      napi_set_element(env, out, uint32_t(3 * i + 2), num(env, times[i].ms));
    }
    return out;
  });
}

// wait(gpu, queue, timeoutMs): a Promise that resolves once the queue is idle (or a query
// failed: poll() then reports it), polled on a worker thread so Node goes on meanwhile. Past
// timeoutMs (0: none) it rejects with KERNEL_TIMEOUT, and the GPU is abandoned: a kernel that
// runs in this process cannot be stopped, only waited for.
struct Wait {
  napi_async_work work = nullptr;
  napi_deferred deferred = nullptr;
  const Driver* d = nullptr;
  CUcontext ctx = nullptr;
  std::vector<CUstream> streams;
  uint64_t timeoutMs = 0;
  int ordinal = 0;
  bool timedOut = false;
};

void waitExecute(napi_env, void* data) {
  Wait& w = *static_cast<Wait*>(data);
  (void)w.d->cuCtxSetCurrent(w.ctx);
  auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::microseconds(20);
  for (;;) {
    try {
      if (idle(*w.d, w.streams)) return;
    } catch (const LauncherError&) {
      return;  // poll() on the main thread reports it
    }
    double waited = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (w.timeoutMs > 0 && waited > double(w.timeoutMs)) {
      w.timedOut = true;
      return;
    }
    if (waited < 0.2) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

void waitComplete(napi_env env, napi_status, void* data) {
  std::unique_ptr<Wait> w(static_cast<Wait*>(data));
  napi_delete_async_work(env, w->work);
  if (!w->timedOut) {
    napi_resolve_deferred(env, w->deferred, undefined(env));
    return;
  }
  LauncherError e = makeError("KERNEL_TIMEOUT", phase::kKernel,
                              "queued work did not finish within " + std::to_string(w->timeoutMs) +
                                  " ms; in-process, a timeout stops the wait but not the kernel: it goes on running, "
                                  "and this process cannot use the GPU again until it ends");
  e.sticky = true;
  auto it = contexts.find(w->ordinal);
  if (it != contexts.end() && it->second->gpu) {
    Context& c = *it->second;
    if (c.queues) c.queues->blame(e);
    c.gpu->abandon();
    c.lost = true;
    c.lostWhy = "a kernel that did not finish";
  }
  std::string json;
  appendErrorJson(json, e);
  napi_value code = str(env, "GK_LAUNCHER"), message = str(env, json), error;
  napi_create_error(env, code, message, &error);
  napi_reject_deferred(env, w->deferred, error);
}

napi_value WaitFn(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 3);
  return onContext(env, a[0], [&](Context& c) {
    auto w = std::make_unique<Wait>();
    w->d = &c.d();
    w->ctx = c.gpu->context();
    w->streams = streamsOf(c, int32(env, a[1]));
    w->timeoutMs = uint64_t(number(env, a[2]));
    w->ordinal = c.ordinal;
    napi_value promise, name = str(env, "gk.wait");
    napi_create_promise(env, &w->deferred, &promise);
    napi_create_async_work(env, nullptr, name, waitExecute, waitComplete, w.get(), &w->work);
    napi_queue_async_work(env, w->work);
    w.release();
    return promise;
  });
}

napi_value Memory(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 1);
  return onContext(env, a[0], [&](Context& c) {
    size_t free = 0, total = 0;
    c.d().check(c.d().cuMemGetInfo(&free, &total), "cuMemGetInfo_v2", phase::kAlloc);
    napi_value out;
    napi_create_array_with_length(env, 2, &out);
    napi_set_element(env, out, 0, num(env, double(free)));
    napi_set_element(env, out, 1, num(env, double(total)));
    return out;
  });
}

// hostArray(gpu, bytes): an ArrayBuffer in page-locked host memory, which copies to and from
// the GPU take directly. Its memory is the process's (not the context's), so it stays valid
// after a reset; the page-locking is undone when it is collected.
struct HostBlock {
  int ordinal;
  uint64_t generation;
  size_t bytes;
};

void freeHostBlock(napi_env, void* data, void* hint) {
  std::unique_ptr<HostBlock> b(static_cast<HostBlock*>(hint));
  auto it = contexts.find(b->ordinal);
  if (it != contexts.end() && it->second->generation == b->generation && it->second->gpu &&
      !it->second->gpu->abandoned()) {
    Context& c = *it->second;
    if (c.pinned.erase(reinterpret_cast<uintptr_t>(data)) != 0) (void)c.d().cuMemHostUnregister(data);
  }
  std::free(data);
}

napi_value HostArray(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 2);
  return onContext(env, a[0], [&](Context& c) {
    size_t bytes = size_t(number(env, a[1]));
    size_t rounded = (std::max<size_t>(bytes, 1) + 4095) / 4096 * 4096;
    void* p = std::aligned_alloc(4096, rounded);
    if (p == nullptr) throw std::bad_alloc();
    std::memset(p, 0, rounded);
    if (!c.gpu->pin(p, rounded)) {
      std::free(p);
      throw makeError("CUDA_ERROR", phase::kAlloc, "cuMemHostRegister refused to page-lock " + std::to_string(rounded) + " bytes");
    }
    c.pinned[reinterpret_cast<uintptr_t>(p)] = rounded;
    napi_value ab;
    auto* hint = new HostBlock{c.ordinal, c.generation, rounded};
    if (napi_create_external_arraybuffer(env, p, bytes, freeHostBlock, hint, &ab) != napi_ok) {
      c.pinned.erase(reinterpret_cast<uintptr_t>(p));
      c.gpu->unpin(p);
      std::free(p);
      delete hint;
      throw JsError{"this Node.js cannot wrap external memory in an ArrayBuffer"};
    }
    return ab;
  });
}

void cleanup(void*) {
  for (auto& [ordinal, c] : contexts) {
    try {
      release(*c, c->lost);
    } catch (...) {
      // the process is ending: nothing can be reported
    }
  }
  contexts.clear();
}

napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor fns[] = {
      {"open", nullptr, Open, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"close", nullptr, Close, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"reset", nullptr, Reset, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"alloc", nullptr, Alloc, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"free", nullptr, Free, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"upload", nullptr, Upload, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"download", nullptr, Download, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"load", nullptr, Load, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"unload", nullptr, Unload, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"kernel", nullptr, Kernel, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"launch", nullptr, Launch, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"queue", nullptr, Queue, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"unqueue", nullptr, Unqueue, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"poll", nullptr, Poll, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"wait", nullptr, WaitFn, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"memory", nullptr, Memory, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"hostArray", nullptr, HostArray, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof fns / sizeof fns[0], fns);
  napi_add_env_cleanup_hook(env, cleanup, nullptr);
  return exports;
}

}  // namespace
}  // namespace gk

NAPI_MODULE(NODE_GYP_MODULE_NAME, gk::Init)
