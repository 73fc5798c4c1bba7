#include "app/common/check.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>

namespace sweepline {

namespace {
std::string where(const char* file, int line) {
  return std::filesystem::path(file).filename().string() + ":" + std::to_string(line);
}
}  // namespace

void throw_error(const char* file, int line, const std::string& message) {
  throw Error(message + " (" + where(file, line) + ")");
}

void log_error_nothrow(const char* file, int line, const std::string& message) noexcept {
  try {
    spdlog::error("{} ({})", message, where(file, line));
  } catch (...) {
    // Logging itself failed: nothing left to report to.
  }
}

}  // namespace sweepline
