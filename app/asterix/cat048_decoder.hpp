#pragma once
// Strict decoder for ASTERIX CAT048 data blocks (the full edition 1.2x UAP is framed, so items we
// do not write are skipped by their lengths; the items of cat048_record.hpp are decoded). One
// buffer in (a UDP payload, one block or several), decoded reports out. Malformed data is counted
// by reason, logged at most once per reason per second, and skipped: a bad record skips that
// record when its extent is still known, otherwise the rest of its data block; a bad block LEN
// skips the rest of the buffer. Every length read from the wire is checked against the bytes
// present before it is used. Blocks of other categories are skipped by their LEN.
#include <map>
#include <span>
#include <string>
#include <vector>

#include "app/asterix/asterix_fields.hpp"
#include "app/asterix/cat048_record.hpp"

namespace sweepline::cat048 {

// CAT048 reasons beyond the shared ones (asterix_fields.hpp).
namespace reason {
using namespace asterix::reason;
inline constexpr const char* kBadTrackNumber = "bad_track_number";  // I048/161 spare bits set
}  // namespace reason

struct DecoderOptions {
  bool log_errors = true;  // spdlog warning, at most once per reason per second
};

class Decoder {
 public:
  using Options = DecoderOptions;
  explicit Decoder(DecoderOptions options = {}) : options_(options) {}
  // Decodes every CAT048 block in `bytes`, appending one report per good record to `out`
  // (capture_time copied into each). Never throws on bad data.
  void decode(std::span<const uint8_t> bytes, double capture_time, std::vector<TargetReport>& out);
  const asterix::DecodeStats& stats() const { return stats_; }
  void reset_stats() { stats_ = {}; }

 private:
  void count_error(const char* why, size_t offset);
  // Bytes taken by the record at `pos` of `block`, or 0 when the rest of the block is lost.
  size_t decode_record(std::span<const uint8_t> block, size_t pos, double capture_time,
                       std::vector<TargetReport>& out);

  DecoderOptions options_;
  asterix::DecodeStats stats_;
  std::map<std::string, double> last_logged_;  // reason -> steady clock seconds
};

}  // namespace sweepline::cat048
