// Ending the launcher when its client is gone (spec: "When the client is gone"). A launcher
// waiting for a kernel reads no input, so the end of its input cannot tell it; a thread
// watches instead, and ends the process, which is what stops a running kernel.
#pragma once

namespace gk {

// Starts the watch: the process ends (_exit, status 5) when its parent process ends (checked
// every kLifelineCheckMs; Linux's parent-death signal alone would follow the thread that
// spawned the launcher, not the process) or when the reader of stdout closes it. Call once,
// before the work that may wait.
void watchClient();

inline constexpr int kLifelineCheckMs = 100;

}  // namespace gk
