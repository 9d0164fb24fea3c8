// Waiting for queues in-process (native/addon.cpp's poll and wait): a short poll on Node's
// thread, then polling on a worker thread so Node goes on meanwhile. A wait's timeout gives
// up on the kernel, which goes on running: in-process it cannot be stopped, so the GPU is
// abandoned (see spec/runtime-api.md, "Queues and waits").
#include <chrono>
#include <thread>

#include "context.hpp"

namespace gk {

// The streams a wait for queue q (every queue when q < 0) watches.
static std::vector<CUstream> streamsOf(Context& c, int32_t q) {
  if (q >= 0) return {c.queues->stream(uint32_t(q))};
  return c.queues->streams();
}

// Whether every stream is idle; throws the first error a query reports.
static bool idle(const Driver& d, const std::vector<CUstream>& streams) {
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
    bool all = q < 0;
    uint32_t one = all ? 0 : uint32_t(q);
    // Queried at once (a short kernel is done by the time a wait is asked for), then spun on
    // for at most spinUs; once idle, nothing more is asked of the driver.
    if (!c.queues->idle(all, one)) {
      auto start = std::chrono::steady_clock::now();
      do {
        if (std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() >= spinUs) {
          napi_value nul;
          napi_get_null(env, &nul);
          return nul;
        }
      } while (!c.queues->idle(all, one));
    }
    std::vector<LaunchTime> times = c.queues->finish(all, one);
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

static void waitExecute(napi_env, void* data) {
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

static void waitComplete(napi_env env, napi_status, void* data) {
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

}  // namespace gk
