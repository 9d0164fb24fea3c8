// --serve frames on the wire (spec: "--serve frames"): requests read through a buffer, so a
// small frame costs one read(2) however it is split, and answers written with one write(2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io.hpp"

namespace gk {

inline constexpr uint32_t kMaxHeaderBytes = uint32_t(1) << 20;
inline constexpr uint64_t kMaxPayloadBytes = uint64_t(1) << 40;

class FrameInput {
 public:
  explicit FrameInput(int fd) : fd_(fd), buf_(size_t(1) << 16) {}

  // The next frame's header; its payload is left to readPayload or skipPayload. False at the
  // end of input between frames; throws BAD_FRAME for a frame that cannot be trusted.
  bool next(std::string& header);
  uint64_t payloadLeft() const { return payloadLeft_; }
  // The next n bytes of the payload (n ≤ payloadLeft()). Throws BAD_FRAME if the input ends.
  void readPayload(void* dst, size_t n);
  // Reads and drops what is left of the payload.
  void skipPayload();
  // Whether bytes of a next request were read already (so reading it will not wait for input).
  bool buffered() const { return pos_ < end_; }
  // Whether bytes of a next request were read already or wait in the input now.
  bool waiting() const;

 private:
  int fd_;
  std::vector<uint8_t> buf_;
  size_t pos_ = 0;  // buf_[pos_, end_) holds bytes read but not yet used
  size_t end_ = 0;
  uint64_t payloadLeft_ = 0;

  // n bytes, from the buffer and then the input; fewer only at the end of input.
  size_t read(void* dst, size_t n);
};

// Writes one frame: the prefix, the header and the payload, in as few writes as it can. With
// `hold`, a small frame stays in `out` for the next flush (answers written together).
void sendFrame(Output& out, const std::string& header, const uint8_t* payload, uint64_t payloadBytes, bool hold = false);

}  // namespace gk
