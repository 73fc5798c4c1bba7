#pragma once
// Pieces shared by the capture readers (not part of the public interface).
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "app/capture/capture_reader.hpp"

namespace sweepline::capture::detail {

struct FileCloser {
  void operator()(std::FILE* f) const noexcept {
    if (f) std::fclose(f);
  }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

// A capture opened once: a regular file, or a pipe, terminal or "-" (standard input). The format
// is detected from bytes peeked here, and the readers then read from the first byte on, so
// nothing is opened twice (a pipe would have lost what detection read).
class CaptureInput {
 public:
  // Throws sweepline::Error when the path cannot be opened.
  explicit CaptureInput(const std::string& path);
  // An open descriptor (owned from here on), called `name` in messages.
  CaptureInput(int fd, std::string name);
  ~CaptureInput();
  CaptureInput(const CaptureInput&) = delete;
  CaptureInput& operator=(const CaptureInput&) = delete;

  const std::string& name() const { return name_; }
  // A regular file (or a block device): can be read again from the start.
  bool seekable() const { return seekable_; }
  // The first min(n, input size) bytes (reads more from a pipe when needed).
  std::span<const uint8_t> peek(size_t n);
  // The input from its first byte as a stdio stream. For a seekable input, each call gives a
  // fresh stream positioned at the start; a pipe gives one stream only (later calls throw).
  FilePtr stream();

 private:
  std::string name_;
  int fd_ = -1;
  bool seekable_ = false;
  bool streamed_ = false;
  std::vector<uint8_t> head_;  // what peek() read; a pipe's stream() replays it first
  bool head_at_end_ = false;   // peek() reached the end of the input
};

// The reader's format (already detected) and the input it reads from.
std::unique_ptr<CaptureReader> make_pcap_reader(std::unique_ptr<CaptureInput> input,
                                                CaptureFormat format, const CaptureFilter& filter);

}  // namespace sweepline::capture::detail
