#pragma once
// Pieces shared by the capture readers (not part of the public interface).
#include <cstdio>
#include <memory>
#include <span>

#include "app/capture/capture_reader.hpp"

namespace sweepline::capture::detail {

struct FileCloser {
  void operator()(std::FILE* f) const noexcept {
    if (f) std::fclose(f);
  }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

std::unique_ptr<CaptureReader> make_pcap_reader(const std::string& path,
                                                const CaptureFilter& filter);

}  // namespace sweepline::capture::detail
