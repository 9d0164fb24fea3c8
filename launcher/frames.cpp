#include "frames.hpp"

#include <poll.h>

#include <algorithm>
#include <chrono>
#include <cstring>

#include "errors.hpp"

namespace gk {

namespace {

constexpr char kMagic[4] = {'G', 'K', 'F', '1'};
constexpr uint64_t kCopyPayloadBelow = uint64_t(1) << 16;

LauncherError badFrame(const std::string& message) {
  return makeError("BAD_FRAME", phase::kServe, message);
}

uint64_t readLe(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

void putLe(uint8_t* p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = uint8_t(v >> (8 * i));
}

// Before a read that would block, the input is polled for a while without sleeping: the next
// request of a session (a sync after a launch) mostly comes within microseconds, and waking
// from a blocking read costs tens of them on an idle core. Past kSpinUs the read blocks.
constexpr double kSpinUs = 200;

void spinForInput(int fd) {
  pollfd p{fd, POLLIN, 0};
  auto start = std::chrono::steady_clock::now();
  while (::poll(&p, 1, 0) == 0) {
    if (std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() >= kSpinUs) return;
  }
}

}  // namespace

bool FrameInput::waiting() const {
  if (buffered()) return true;
  pollfd p{fd_, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & POLLIN) != 0;
}

size_t FrameInput::read(void* dst, size_t n) {
  uint8_t* out = static_cast<uint8_t*>(dst);
  size_t got = 0;
  while (got < n) {
    if (pos_ < end_) {
      size_t k = std::min(n - got, end_ - pos_);
      std::memcpy(out + got, buf_.data() + pos_, k);
      pos_ += k;
      got += k;
      continue;
    }
    if (n - got >= buf_.size()) return got + readUpTo(fd_, out + got, n - got);  // large: no detour
    pos_ = 0;
    spinForInput(fd_);
    end_ = readSome(fd_, buf_.data(), buf_.size());
    if (end_ == 0) break;
  }
  return got;
}

bool FrameInput::next(std::string& header) {
  uint8_t prefix[16];
  size_t got = read(prefix, sizeof prefix);
  if (got == 0) return false;
  if (got < sizeof prefix) throw badFrame("the input ended inside a frame prefix");
  if (std::memcmp(prefix, kMagic, 4) != 0) throw badFrame("a frame must start with \"GKF1\"");
  uint64_t headerBytes = readLe(prefix + 4, 4);
  uint64_t payloadBytes = readLe(prefix + 8, 8);
  if (headerBytes == 0 || headerBytes > kMaxHeaderBytes) {
    throw badFrame("header length " + std::to_string(headerBytes) + " is not from 1 to " + std::to_string(kMaxHeaderBytes));
  }
  if (payloadBytes > kMaxPayloadBytes) {
    throw badFrame("payload length " + std::to_string(payloadBytes) + " exceeds " + std::to_string(kMaxPayloadBytes));
  }
  header.resize(size_t(headerBytes));
  if (read(&header[0], header.size()) < header.size()) throw badFrame("the input ended inside a frame header");
  payloadLeft_ = payloadBytes;
  return true;
}

void FrameInput::readPayload(void* dst, size_t n) {
  size_t got = read(dst, n);
  payloadLeft_ -= got;
  if (got < n) throw badFrame("the input ended inside a frame's payload");
}

void FrameInput::skipPayload() {
  std::vector<uint8_t> sink(payloadLeft_ < (1u << 20) ? size_t(payloadLeft_) : size_t(1) << 20);
  while (payloadLeft_ > 0) readPayload(sink.data(), payloadLeft_ < sink.size() ? size_t(payloadLeft_) : sink.size());
}

void sendFrame(Output& out, const std::string& header, const uint8_t* payload, uint64_t payloadBytes, bool hold) {
  uint8_t prefix[16];
  std::memcpy(prefix, kMagic, 4);
  putLe(prefix + 4, header.size(), 4);
  putLe(prefix + 8, payloadBytes, 8);
  out.write(reinterpret_cast<const char*>(prefix), sizeof prefix);
  out.write(header);
  if (payloadBytes > kCopyPayloadBelow) {
    out.writeDirect(payload, size_t(payloadBytes));
  } else if (payloadBytes > 0) {
    out.write(reinterpret_cast<const char*>(payload), size_t(payloadBytes));  // one write with the header
  }
  if (!hold) out.flush();
}

}  // namespace gk
