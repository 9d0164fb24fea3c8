#include "lifeline.hpp"

#include <poll.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <thread>

namespace gk {

namespace {

[[noreturn]] void clientGone(const char* why) {
  std::string line = std::string("gpu_launcher: ending: ") + why + "\n";
  ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());  // stderr may be gone too
  (void)ignored;
  ::_exit(5);  // at once: the main thread may be waiting inside the driver for a kernel
}

void watch(pid_t parent) {
  bool watchStdout = true;
  for (;;) {
    if (watchStdout) {
      // No events asked: poll still reports a pipe whose reader closed (POLLERR) and a socket
      // whose peer closed (POLLHUP); a regular file or a terminal reports nothing here.
      struct pollfd p{};
      p.fd = STDOUT_FILENO;
      int r = ::poll(&p, 1, kLifelineCheckMs);
      if (r > 0 && (p.revents & (POLLERR | POLLHUP)) != 0) clientGone("the reader of its answers (stdout) closed it");
      if (r > 0 && (p.revents & POLLNVAL) != 0) watchStdout = false;  // no stdout: the parent is all there is to watch
    } else {
      ::usleep(kLifelineCheckMs * 1000);
    }
    if (::getppid() != parent) clientGone("its parent process ended");
  }
}

}  // namespace

void watchClient() {
  std::thread(watch, ::getppid()).detach();
}

}  // namespace gk
