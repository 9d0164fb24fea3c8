#include "queues.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace gk {

namespace {

double elapsedMs(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

Queues::Queues(Gpu& gpu) : gpu_(gpu), d_(gpu.driver()) {
  queues_[0] = Queue{};
  void* host = nullptr;
  if (d_.cuMemHostAlloc(&host, kMaxQueues * sizeof(uint32_t), cu::kHostAllocPortable | cu::kHostAllocDeviceMap) ==
      cu::kSuccess) {
    markers_ = static_cast<volatile uint32_t*>(host);
    for (uint32_t i = 0; i < kMaxQueues; i++) markers_[i] = 0;
    // GK_LAUNCH_MARKERS=0 turns them off, to measure what they cost: a fault is then blamed on
    // the first launch not seen to finish, as where the driver cannot write them.
    const char* wanted = std::getenv("GK_LAUNCH_MARKERS");
    markersOn_ = (wanted == nullptr || std::strcmp(wanted, "0") != 0) && d_.cuStreamWriteValue32 != nullptr &&
                 d_.cuMemHostGetDevicePointer(&markersDev_, host, 0) == cu::kSuccess;
  }
}

Queues::~Queues() {
  if (gpu_.abandoned()) return;
  for (auto& [q, queue] : queues_) {
    for (Pending& p : queue.pending) {
      if (p.start != nullptr) (void)d_.cuEventDestroy(p.start);
      if (p.stop != nullptr) (void)d_.cuEventDestroy(p.stop);
    }
    if (queue.stream != nullptr) (void)d_.cuStreamDestroy(queue.stream);
  }
  for (CUevent e : spareEvents_) (void)d_.cuEventDestroy(e);
  if (markers_ != nullptr) (void)d_.cuMemFreeHost(const_cast<uint32_t*>(markers_));
}

void Queues::drop() {
  queues_.clear();
  queues_[0] = Queue{};
  spareEvents_.clear();
  finished_.clear();
  markers_ = nullptr;  // freed with the context
  markersOn_ = false;
  unmarked_ = false;
}

uint32_t Queues::create() {
  if (queues_.size() >= kMaxQueues) {
    throw makeError("TOO_LARGE", phase::kRequest, "at most " + std::to_string(kMaxQueues - 1) + " queues can exist at once");
  }
  while (queues_.count(nextQueue_ % kMaxQueues) != 0 || nextQueue_ % kMaxQueues == 0) nextQueue_++;
  uint32_t q = nextQueue_ % kMaxQueues;
  nextQueue_++;
  Queue queue;
  d_.check(d_.cuStreamCreate(&queue.stream, 0), "cuStreamCreate", phase::kLaunch);
  if (markers_ != nullptr) markers_[q] = 0;
  queues_[q] = std::move(queue);
  return q;
}

Queues::Queue& Queues::queue(uint32_t q) {
  auto it = queues_.find(q);
  if (it == queues_.end()) throw badRequest("queue", "there is no queue " + std::to_string(q));
  return it->second;
}

CUstream Queues::stream(uint32_t q) const {
  auto it = queues_.find(q);
  if (it == queues_.end()) throw badRequest("queue", "there is no queue " + std::to_string(q));
  return it->second.stream;
}

std::vector<CUstream> Queues::streams() const {
  std::vector<CUstream> out;
  out.reserve(queues_.size());
  for (const auto& [q, queue] : queues_) out.push_back(queue.stream);
  return out;
}

void Queues::destroy(uint32_t q) {
  if (q == 0) throw badRequest("queue", "queue 0 is the default queue and cannot be destroyed");
  Queue& queue = this->queue(q);
  sync(false, q, 0);
  d_.check(d_.cuStreamDestroy(queue.stream), "cuStreamDestroy_v2", phase::kCleanup);
  queues_.erase(q);
}

CUevent Queues::event() {
  if (!spareEvents_.empty()) {
    CUevent e = spareEvents_.back();
    spareEvents_.pop_back();
    return e;
  }
  CUevent e = nullptr;
  d_.check(d_.cuEventCreate(&e, 0), "cuEventCreate", phase::kLaunch);
  return e;
}

void Queues::release(CUevent e) {
  if (e != nullptr) spareEvents_.push_back(e);
}

bool Queues::done(uint32_t q, uint32_t seq) const {
  return markersOn_ && int32_t(markers_[q] - seq) >= 0;
}

void Queues::retire(uint32_t q, Queue& queue, bool all) {
  while (!queue.pending.empty() && (all || done(q, queue.pending.front().seq))) {
    Pending& p = queue.pending.front();
    if (p.start != nullptr) {
      float ms = 0;
      d_.check(d_.cuEventElapsedTime(&ms, p.start, p.stop), "cuEventElapsedTime", phase::kKernel);
      finished_.push_back(LaunchTime{q, p.seq, double(ms)});
      release(p.start);
      release(p.stop);
    }
    queue.pending.pop_front();
  }
}

void Queues::mark() {
  if (!unmarked_) return;
  unmarked_ = false;
  auto it = queues_.find(unmarkedQueue_);
  if (!markersOn_ || it == queues_.end()) return;
  Queue& queue = it->second;
  if (queue.pending.empty() || queue.pending.back().seq != unmarkedSeq_) return;  // a sync retired it
  // With one queue the marker is written without asking first whether the launch finished:
  // the question (cuStreamQuery) cost 2 us a launch in a loop of launches, and its answer only
  // saves a write. With several, it also reports a fault of this queue before work of another
  // queue follows it, which the blame could otherwise take for the faulting launch.
  if (queues_.size() > 1) {
    CUresult r = d_.cuStreamQuery(queue.stream);
    if (r == cu::kSuccess) {
      retire(unmarkedQueue_, queue, true);  // it finished: there is nothing to mark
      return;
    }
    if (r != cu::kErrorNotReady) {
      LauncherError e = d_.error(r, "cuStreamQuery", phase::kLaunch);
      throw e.sticky ? blamed(e) : e;
    }
  }
  writeMarker(unmarkedQueue_, queue, unmarkedSeq_);
}

void Queues::writeMarker(uint32_t q, Queue& queue, uint32_t seq) {
  CUresult r = d_.cuStreamWriteValue32(queue.stream, markersDev_ + q * sizeof(uint32_t), seq, 0);
  if (r == cu::kSuccess) return;
  LauncherError e = d_.error(r, "cuStreamWriteValue32", phase::kLaunch);
  if (e.sticky) throw blamed(e);  // a fault of earlier work, reported here: the markers still tell which
  markersOn_ = false;             // the device cannot: launches are blamed without markers from now on
}

bool Queues::othersBusy(uint32_t q) {
  for (auto& [n, queue] : queues_) {
    if (n == q) continue;
    retire(n, queue, false);
    if (!queue.pending.empty()) return true;
  }
  return false;
}

void Queues::launch(uint32_t q, uint32_t seq, const std::string& kernel, bool timing, CUfunction f, const LaunchDims& dims,
                    uint32_t sharedBytes, void** params) {
  Queue& queue = this->queue(q);
  mark();                   // the last launch's marker, before anything of this one
  retire(q, queue, false);  // keeps the list short in a long loop of launches
  Pending p;
  p.seq = seq;
  p.kernel = kernel;
  if (timing) {
    p.start = event();
    p.stop = event();
    d_.check(d_.cuEventRecord(p.start, queue.stream), "cuEventRecord", phase::kLaunch);
  }
  CUresult r = d_.cuLaunchKernel(f, dims.grid[0], dims.grid[1], dims.grid[2], dims.block[0], dims.block[1], dims.block[2],
                                 sharedBytes, queue.stream, params, nullptr);
  if (r != cu::kSuccess) {
    release(p.start);
    release(p.stop);
    LauncherError e = gpu_.launchError(r, f, dims, sharedBytes);
    throw e.sticky ? blamed(e) : e;
  }
  if (timing) d_.check(d_.cuEventRecord(p.stop, queue.stream), "cuEventRecord", phase::kLaunch);
  queue.pending.push_back(std::move(p));
  if (!markersOn_) return;
  if (!othersBusy(q)) {
    unmarked_ = true;  // written by whatever comes next, if anything does before a sync
    unmarkedQueue_ = q;
    unmarkedSeq_ = seq;
  } else {
    writeMarker(q, queue, seq);
  }
}

void Queues::waitIdle(bool all, CUstream s, uint64_t timeoutMs) {
  auto idle = [&]() -> bool {
    if (!all) {
      CUresult r = d_.cuStreamQuery(s);
      if (r == cu::kErrorNotReady) return false;
      d_.check(r, "cuStreamQuery", phase::kKernel);
      return true;
    }
    for (auto& [q, queue] : queues_) {
      CUresult r = d_.cuStreamQuery(queue.stream);
      if (r == cu::kErrorNotReady) return false;
      d_.check(r, "cuStreamQuery", phase::kKernel);
    }
    return true;
  };
  if (timeoutMs == 0) {
    if (all) d_.check(d_.cuCtxSynchronize(), "cuCtxSynchronize", phase::kKernel);
    else d_.check(d_.cuStreamSynchronize(s), "cuStreamSynchronize", phase::kKernel);
    return;
  }
  // Polled, as Gpu::waitFor does: spinning for the first 200 us, then sleeping up to 1 ms.
  auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::microseconds(20);
  while (!idle()) {
    double waited = elapsedMs(start);
    if (waited > double(timeoutMs)) {
      LauncherError e = makeError("KERNEL_TIMEOUT", phase::kKernel,
                                  "queued work did not finish within " + std::to_string(timeoutMs) + " ms");
      e.sticky = true;  // it is still running: only ending the process stops it
      gpu_.abandon();
      throw blamed(e);
    }
    if (waited < 0.2) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

std::vector<LaunchTime> Queues::sync(bool all, uint32_t q, uint64_t timeoutMs) {
  CUstream s = all ? nullptr : stream(q);
  try {
    waitIdle(all, s, timeoutMs);
  } catch (LauncherError& e) {
    if (e.code == "KERNEL_TIMEOUT" || !e.sticky) throw;
    throw blamed(e);
  }
  return finish(all, q);
}

bool Queues::idle(bool all, uint32_t q) {
  try {
    if (!all) {
      CUresult r = d_.cuStreamQuery(stream(q));
      if (r == cu::kErrorNotReady) return false;
      d_.check(r, "cuStreamQuery", phase::kKernel);
      return true;
    }
    for (auto& [n, queue] : queues_) {
      CUresult r = d_.cuStreamQuery(queue.stream);
      if (r == cu::kErrorNotReady) return false;
      d_.check(r, "cuStreamQuery", phase::kKernel);
    }
    return true;
  } catch (LauncherError& e) {
    if (!e.sticky) throw;
    throw blamed(e);
  }
}

std::vector<LaunchTime> Queues::finish(bool all, uint32_t q) {
  if (unmarked_ && (all || unmarkedQueue_ == q)) unmarked_ = false;  // it finished
  for (auto& [n, queue] : queues_) {
    if (all || n == q) retire(n, queue, true);
  }
  std::vector<LaunchTime> out;
  if (all) {
    out.swap(finished_);
  } else {
    auto mine = std::stable_partition(finished_.begin(), finished_.end(), [&](const LaunchTime& t) { return t.queue != q; });
    out.assign(mine, finished_.end());
    finished_.erase(mine, finished_.end());
  }
  return out;
}

LauncherError Queues::blamed(LauncherError e) const {
  blame(e);
  return e;
}

void Queues::blame(LauncherError& e) const {
  if (!e.sticky || e.hasLaunch) return;
  // The first queue (by number) with a launch the markers do not show finished. The last
  // launch, if unmarked, is reached only when the launches before it on its queue are marked
  // finished; the other queues had none unfinished when it was made (launch()), and none
  // was made after it.
  for (const auto& [q, queue] : queues_) {
    for (const Pending& p : queue.pending) {
      if (done(q, p.seq)) continue;
      e.hasLaunch = true;
      e.launchQueue = q;
      e.launchSeq = p.seq;
      e.launchKernel = p.kernel;
      e.launchCertain = markersOn_;
      return;
    }
  }
}

}  // namespace gk
