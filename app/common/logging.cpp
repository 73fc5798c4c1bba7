#include "app/common/logging.hpp"

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <vector>

namespace sweepline {

void setup_logging(const std::string& level, const std::string& file_path) {
  std::vector<spdlog::sink_ptr> sinks;
  sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  if (!file_path.empty()) {
    try {
      sinks.push_back(
          std::make_shared<spdlog::sinks::rotating_file_sink_mt>(file_path, 5 * 1024 * 1024, 5));
    } catch (const spdlog::spdlog_ex& e) {
      spdlog::warn("log file '{}' unavailable: {}", file_path, e.what());
    }
  }
  auto logger = std::make_shared<spdlog::logger>("sweepline", sinks.begin(), sinks.end());
  logger->set_level(spdlog::level::from_str(level));
  logger->set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
  spdlog::set_default_logger(logger);
}

}  // namespace sweepline
