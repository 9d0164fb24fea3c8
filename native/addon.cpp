// gk's in-process GPU path: a Node-API addon (built by node-gyp from binding.gyp) that drives
// the CUDA Driver API from the Node process itself, with no process hop. It shares the
// launcher's code: libcuda.so.1 is loaded at run time (launcher/cuda_driver.cpp), CUDA
// errors are mapped and described as the launcher describes them (launcher/errors.cpp),
// the GPU is handled by launcher/device.cpp and queued launches by launcher/queues.cpp.
// src/runtime/device/native.ts is its caller; spec/runtime-api.md says what it does. Its
// host helpers (hostio.cpp: readReady, mapFile, unmapFile, copy) touch no GPU and serve
// process isolation too (src/runtime/launcher/hostIo.ts).
//
// Every GPU function takes the GPU's index first. Errors are thrown as JavaScript Errors whose
// `code` is "GK_LAUNCHER" and whose message is the launcher's error JSON (spec/launcher-
// protocol.md, "Errors"), which the caller parses. After an error that loses the context
// (sticky), every call but close() fails: CUDA cannot use the GPU again in this process, and
// the caller goes on in a launcher process (src/runtime/device/inProcess.ts).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "context.hpp"

namespace gk {

std::map<int, std::unique_ptr<Context>> contexts;

namespace {

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
  c.constants.clear();
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
    auto it = contexts.find(ordinal);
    if (it == contexts.end()) {
      // Entered only once open() succeeded: a failed open (no driver) leaves no empty slot
      // behind, which the cleanup at exit would dereference.
      static uint64_t opened = 0;
      auto c = std::make_unique<Context>();
      c->ordinal = ordinal;
      c->generation = ++opened;
      open(*c);
      it = contexts.emplace(ordinal, std::move(c)).first;
    }
    return str(env, deviceJson(*it->second));
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
      hostCopy(c.stage[k], src + done, len);
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
      hostCopy(dst + k * kStageBytes, c.stage[k % 2], piece(k));
    }
    return undefined(env);
  });
}

// fill(gpu, ptr, offset, pattern, count): `count` elements of pattern's bytes at ptr + offset,
// queued on the legacy default stream (after every queue's earlier work, before later
// launches), after the last queued launch's marker, as an unqueued launch is.
napi_value Fill(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 5);
  return onContext(env, a[0], [&](Context& c) {
    CUdeviceptr dst = CUdeviceptr(number(env, a[1])) + CUdeviceptr(number(env, a[2]));
    size_t size = 0;
    const uint8_t* pattern = bytesOf(env, a[3], size);
    uint64_t count = uint64_t(number(env, a[4]));
    c.queues->mark();
    c.gpu->fill(dst, pattern, size, count, nullptr);
    return undefined(env);
  });
}

// deviceCopy(gpu, dst, src, bytes): queued as fill() is; the ranges do not overlap (the caller
// copies overlapping ones through a temporary).
napi_value DeviceCopy(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 4);
  return onContext(env, a[0], [&](Context& c) {
    c.queues->mark();
    c.gpu->copy(CUdeviceptr(number(env, a[1])), CUdeviceptr(number(env, a[2])), uint64_t(number(env, a[3])), nullptr);
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
    c.constants.erase(m);
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
    fn.module = c.modules[id];
    fn.f = c.gpu->getFunction(fn.module, text(env, a[2]));
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

// constants(gpu, kernel, symbol, bytes): fills the `__constant__` variable `symbol` of the
// kernel's module for the launches after it (copied only when its contents changed; the copy
// waits for the work queued before it, so earlier launches read what they were given).
napi_value Constants(napi_env env, napi_callback_info info) {
  auto a = args(env, info, 4);
  return onContext(env, a[0], [&](Context& c) {
    size_t id = size_t(int32(env, a[1]));
    if (id >= c.functions.size()) throw JsError{"no kernel " + std::to_string(id)};
    Function& fn = c.functions[id];
    size_t n = 0;
    const uint8_t* data = bytesOf(env, a[3], n);
    ConstantSpec spec;
    spec.name = text(env, a[2]);
    spec.data.assign(data, data + n);
    c.gpu->fillConstants(fn.module, c.constants[fn.module], {spec});
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
// after the context is closed; the page-locking is undone when it is collected.
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
    if (!c) continue;
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
      {"alloc", nullptr, Alloc, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"free", nullptr, Free, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"upload", nullptr, Upload, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"download", nullptr, Download, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"fill", nullptr, Fill, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"deviceCopy", nullptr, DeviceCopy, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"load", nullptr, Load, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"unload", nullptr, Unload, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"kernel", nullptr, Kernel, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"launch", nullptr, Launch, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"constants", nullptr, Constants, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"queue", nullptr, Queue, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"unqueue", nullptr, Unqueue, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"poll", nullptr, Poll, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"wait", nullptr, WaitFn, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"memory", nullptr, Memory, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"hostArray", nullptr, HostArray, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"readReady", nullptr, ReadReady, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"mapFile", nullptr, MapFile, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"unmapFile", nullptr, UnmapFile, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"copy", nullptr, Copy, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof fns / sizeof fns[0], fns);
  napi_add_env_cleanup_hook(env, cleanup, nullptr);
  return exports;
}

}  // namespace
}  // namespace gk

NAPI_MODULE(NODE_GYP_MODULE_NAME, gk::Init)
