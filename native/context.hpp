// What the addon's files share (native/addon.cpp, native/waits.cpp): a GPU opened in this
// process (Context), and the Node-API plumbing: arguments, results, and errors thrown as the
// launcher's error JSON (code "GK_LAUNCHER").
#pragma once

#define NAPI_VERSION 8
#include <node_api.h>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../launcher/device.hpp"
#include "../launcher/json.hpp"
#include "../launcher/queues.hpp"

namespace gk {

constexpr size_t kStageBytes = size_t(8) << 20;  // two page-locked staging buffers of this size
constexpr size_t kLaunchHeader = 48;             // bytes before the parameters in a launch block

struct Function {
  CUfunction f = nullptr;
  CUmodule module = nullptr;  // whose constants constants() fills
  KernelInfo info;
  std::string name;  // what errors call it
};

struct Context {
  int ordinal = 0;
  uint64_t generation = 0;  // unique among the contexts this process opens (addon.cpp)
  std::unique_ptr<Gpu> gpu;
  std::unique_ptr<Queues> queues;
  std::vector<CUmodule> modules;  // by id; null once unloaded
  std::vector<Function> functions;
  std::map<CUmodule, ConstantCache> constants;  // what each module's __constant__ variables hold
  uint8_t* stage[2] = {nullptr, nullptr};
  CUevent staged[2] = {nullptr, nullptr};
  std::map<uintptr_t, size_t> pinned;  // host arrays page-locked by hostArray()
  bool lost = false;                   // a sticky error happened: only close() works
  std::string lostWhy;

  const Driver& d() const { return gpu->driver(); }
};

// Every GPU opened, by index (addon.cpp).
extern std::map<int, std::unique_ptr<Context>> contexts;

// ------------------------------------------------------------------ plumbing shared by addon.cpp and waits.cpp

struct JsError {
  std::string message;
};

inline void throwLauncher(napi_env env, const LauncherError& e) {
  std::string json;
  appendErrorJson(json, e);
  napi_throw_error(env, "GK_LAUNCHER", json.c_str());
}

template <class F>
inline napi_value guarded(napi_env env, F&& f) {
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

inline std::vector<napi_value> args(napi_env env, napi_callback_info info, size_t n) {
  std::vector<napi_value> v(n);
  size_t got = n;
  napi_get_cb_info(env, info, &got, v.data(), nullptr, nullptr);
  if (got < n) throw JsError{"expected " + std::to_string(n) + " arguments"};
  return v;
}

inline double number(napi_env env, napi_value v) {
  double x = 0;
  if (napi_get_value_double(env, v, &x) != napi_ok) throw JsError{"expected a number"};
  return x;
}

inline int32_t int32(napi_env env, napi_value v) {
  int32_t x = 0;
  if (napi_get_value_int32(env, v, &x) != napi_ok) throw JsError{"expected an integer"};
  return x;
}

inline std::string text(napi_env env, napi_value v) {
  size_t n = 0;
  if (napi_get_value_string_utf8(env, v, nullptr, 0, &n) != napi_ok) throw JsError{"expected a string"};
  std::string s(n, '\0');
  napi_get_value_string_utf8(env, v, &s[0], n + 1, &n);
  return s;
}

// The bytes a TypedArray or Buffer views.
inline uint8_t* bytesOf(napi_env env, napi_value v, size_t& length) {
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

inline napi_value num(napi_env env, double x) {
  napi_value v;
  napi_create_double(env, x, &v);
  return v;
}

inline napi_value str(napi_env env, const std::string& s) {
  napi_value v;
  napi_create_string_utf8(env, s.data(), s.size(), &v);
  return v;
}

inline napi_value undefined(napi_env env) {
  napi_value v;
  napi_get_undefined(env, &v);
  return v;
}

inline Context& context(napi_env env, napi_value v, bool evenIfLost = false) {
  int ordinal = int32(env, v);
  auto it = contexts.find(ordinal);
  if (it == contexts.end()) throw JsError{"GPU " + std::to_string(ordinal) + " is not open"};
  Context& c = *it->second;
  if (!evenIfLost && c.lost) {
    LauncherError e = makeError("CUDA_ERROR", phase::kServe, "the GPU context was lost (" + c.lostWhy + "); this process cannot use the GPU again");
    e.sticky = true;
    throw e;
  }
  return c;
}

// Runs `f` on a context; a sticky error marks it lost (and is blamed on a queued launch).
template <class F>
inline napi_value onContext(napi_env env, napi_value ordinal, F&& f) {
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


// A copy between page-locked and ordinary host memory: one thread moves about 10 GB/s, below
// what the copy engine moves to and from page-locked memory, so a large piece is copied by
// several threads at once (hostio.cpp).
void hostCopy(uint8_t* dst, const uint8_t* src, size_t n);

// Host helpers of process isolation (hostio.cpp): they touch no GPU.
napi_value ReadReady(napi_env env, napi_callback_info info);
napi_value MapFile(napi_env env, napi_callback_info info);
napi_value UnmapFile(napi_env env, napi_callback_info info);
napi_value Copy(napi_env env, napi_callback_info info);

// poll() and wait() (waits.cpp).
napi_value Poll(napi_env env, napi_callback_info info);
napi_value WaitFn(napi_env env, napi_callback_info info);

}  // namespace gk
