#pragma once
// Strict decoder for ASTERIX CAT034 data blocks, in the manner of the CAT048 and CAT240 ones: the
// whole edition 1.2x UAP is framed, lengths from the wire are checked before use, malformed data
// is counted by reason and skipped, blocks of other categories are skipped by their LEN.
#include <map>
#include <span>
#include <string>
#include <vector>

#include "app/asterix/asterix_fields.hpp"
#include "app/asterix/cat034_record.hpp"

namespace sweepline::cat034 {

namespace reason {
using namespace asterix::reason;
inline constexpr const char* kBadMessageType = "bad_message_type";  // I034/000 not 1..4
}  // namespace reason

struct DecoderOptions {
  bool log_errors = true;  // spdlog warning, at most once per reason per second
};

class Decoder {
 public:
  using Options = DecoderOptions;
  explicit Decoder(DecoderOptions options = {}) : options_(options) {}
  // Decodes every CAT034 block in `bytes`, appending one message per good record to `out`.
  // Never throws on bad data.
  void decode(std::span<const uint8_t> bytes, double capture_time,
              std::vector<ServiceMessage>& out);
  const asterix::DecodeStats& stats() const { return stats_; }
  void reset_stats() { stats_ = {}; }

 private:
  void count_error(const char* why, size_t offset);
  size_t decode_record(std::span<const uint8_t> block, size_t pos, double capture_time,
                       std::vector<ServiceMessage>& out);

  DecoderOptions options_;
  asterix::DecodeStats stats_;
  std::map<std::string, double> last_logged_;
};

}  // namespace sweepline::cat034
