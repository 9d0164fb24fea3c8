// Launches queued on CUDA streams without waiting for them, shared by `--serve` (serve.cpp)
// and the in-process addon (native/). Queue 0 is the context's legacy default stream; queues
// 1, 2, ... are streams that synchronize with it, so a synchronous copy (an upload, a
// download) waits for every queue's earlier work and later launches wait for it.
//
// An asynchronous fault is reported by whatever CUDA call comes next, not by the launch that
// caused it. To pin it on its launch, the GPU writes the launch's number into page-locked
// host memory after each launch (cuStreamWriteValue32): after a fault, the first launch of a
// queue whose number was never written is the one that failed. Without that call, the first
// launch not yet seen to finish is named, and the error says it could not be told for sure.
//
// The marker of the last launch made is written only when something comes after it before a
// wait: the next launch (on any queue) writes it first, in the same place of its stream (where
// there are several queues, unless its stream is idle by then). A launch made while other
// queues have unfinished work gets its marker at once. So a launch and the wait for it (the
// common round trip) write no marker, and the blame is as certain as with every marker
// written: the last launch is the only one without, and it is named only when everything
// before it finished.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "device.hpp"

namespace gk {

inline constexpr uint32_t kMaxQueues = 1024;  // queue 0 and 1023 streams: one page of markers

struct LaunchTime {
  uint32_t queue = 0;
  uint32_t seq = 0;
  double ms = 0;
};

class Queues {
 public:
  // The context of `gpu` must be current.
  explicit Queues(Gpu& gpu);
  ~Queues();
  Queues(const Queues&) = delete;
  Queues& operator=(const Queues&) = delete;

  // A new queue (a stream); its number is 1 or more. TOO_LARGE past kMaxQueues.
  uint32_t create();
  // Destroys queue q after its work (never 0). BAD_REQUEST for a queue that does not exist.
  void destroy(uint32_t q);
  CUstream stream(uint32_t q) const;
  // Every queue's stream, queue 0's (null) first.
  std::vector<CUstream> streams() const;

  // Queues one launch on q: `seq` numbers the launches of a queue 1, 2, ... (it names the
  // launch in errors); `kernel` is the name errors give it. With `timing`, CUDA events around
  // it give its time, returned by a later sync(). Errors the launch call itself reports are
  // thrown (phase launch) and leave nothing queued.
  void launch(uint32_t q, uint32_t seq, const std::string& kernel, bool timing, CUfunction f, const LaunchDims& dims,
              uint32_t sharedBytes, void** params);

  // Waits until queue q (every queue, with `all`) has finished, polling, for at most
  // `timeoutMs` (0: however long it takes; past it KERNEL_TIMEOUT, and the GPU is abandoned).
  // Returns the times of the timed launches that finished since the last sync. An error from
  // queued work is thrown with the launch it is pinned on (LauncherError::hasLaunch).
  std::vector<LaunchTime> sync(bool all, uint32_t q, uint64_t timeoutMs);

  // Whether queue q (every queue, with `all`) has finished, without waiting; throws the error
  // a query reports (pinned on its launch when sticky).
  bool idle(bool all, uint32_t q);
  // sync() once idle() said true: the times of the timed launches that finished since the last
  // sync, with no further driver call to wait.
  std::vector<LaunchTime> finish(bool all, uint32_t q);

  // Writes the last launch's marker now, before work that is not a queued launch (an
  // unqueued launch) goes on its stream.
  void mark();

  // Fills in e's launch when it is the asynchronous failure of queued work (a sticky error):
  // called on errors of other calls (a copy, a free) that report such a failure.
  void blame(LauncherError& e) const;

  // Forgets every handle without calling the driver: the context is gone or abandoned.
  void drop();

 private:
  struct Pending {
    uint32_t seq = 0;
    std::string kernel;
    CUevent start = nullptr;  // timing events, or null
    CUevent stop = nullptr;
  };
  struct Queue {
    CUstream stream = nullptr;  // null: the legacy default stream (queue 0)
    std::deque<Pending> pending;
  };

  Gpu& gpu_;
  const Driver& d_;
  std::map<uint32_t, Queue> queues_;
  uint32_t nextQueue_ = 1;
  volatile uint32_t* markers_ = nullptr;  // page-locked, mapped: slot q holds the last finished seq of queue q
  CUdeviceptr markersDev_ = 0;
  bool markersOn_ = false;
  std::vector<CUevent> spareEvents_;
  std::vector<LaunchTime> finished_;  // times of launches retired before the sync that returns them
  // The last launch made, while its marker is not written (see the top of this file).
  bool unmarked_ = false;
  uint32_t unmarkedQueue_ = 0;
  uint32_t unmarkedSeq_ = 0;

  Queue& queue(uint32_t q);
  bool done(uint32_t q, uint32_t seq) const;
  // Retires the launches of q the markers show finished (their times into finished_).
  void retire(uint32_t q, Queue& queue, bool all);
  CUevent event();
  void release(CUevent e);
  void waitIdle(bool all, CUstream s, uint64_t timeoutMs);
  // Whether a queue other than q has launches not yet seen to finish.
  bool othersBusy(uint32_t q);
  // Queues the write of `seq` into queue q's marker; a device that cannot turns the markers
  // off, a fault of earlier work it reports is thrown, blamed.
  void writeMarker(uint32_t q, Queue& queue, uint32_t seq);
  LauncherError blamed(LauncherError e) const;
};

}  // namespace gk
