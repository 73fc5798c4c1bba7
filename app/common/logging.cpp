#include "app/common/logging.hpp"

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <vector>

#include "app/common/check.hpp"

namespace sweepline {

void setup_logging(const std::string& level, const std::string& file_path) {
  // spdlog maps an unknown name to "off"; only "off" itself may mean that.
  const spdlog::level::level_enum lvl = spdlog::level::from_str(level);
  SWL_CHECK(lvl != spdlog::level::off || level == "off",
            "unknown log level '" + level + "' (trace, debug, info, warn, error, critical, off)");
  std::vector<spdlog::sink_ptr> sinks;
  sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  if (!file_path.empty()) {
    try {
      sinks.push_back(
          std::make_shared<spdlog::sinks::rotating_file_sink_mt>(file_path, 5 * 1024 * 1024, 5));
    } catch (const spdlog::spdlog_ex& e) {
      SWL_CHECK(false, "cannot open log file '" + file_path + "': " + e.what());
    }
  }
  auto logger = std::make_shared<spdlog::logger>("sweepline", sinks.begin(), sinks.end());
  logger->set_level(lvl);
  logger->set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
  spdlog::set_default_logger(logger);
}

}  // namespace sweepline
