// Rate-limited decode error logging shared by the CAT048 and CAT034 decoders.
#include "app/asterix/asterix_fields.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

namespace sweepline::asterix {

void count_decode_error(DecodeStats& stats, std::map<std::string, double>& last_logged, bool log,
                        const char* what, const char* why, size_t offset) {
  uint64_t& n = stats.errors[why];
  ++n;
  if (!log) return;
  const double t =
      std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  auto [it, fresh] = last_logged.try_emplace(why, t);
  if (fresh || t - it->second >= 1.0) {
    it->second = t;
    spdlog::warn("{}: {} at byte {} of a buffer ({} so far)", what, why, offset, n);
  }
}

}  // namespace sweepline::asterix
