#pragma once
// Decoder for ASTERIX CAT240 (edition 1.3) data blocks: one buffer (a UDP payload, a raw block or
// several concatenated blocks) in, decoded records out. Malformed data is counted by reason,
// logged at most once per reason per second, and skipped: a bad record skips that record when the
// record's extent is still known, otherwise the rest of its data block; a bad block LEN skips the
// rest of the buffer. Nothing is allocated from an unchecked length: every count is checked
// against the bytes present before it is used, and zlib output is bounded by NB_CELLS.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "app/asterix/cat240_record.hpp"

struct z_stream_s;

namespace sweepline::cat240 {

// Error reasons (keys of DecodeStats::errors; listed in docs/asterix.md).
namespace reason {
inline constexpr const char* kNotCat240 = "not_cat240";             // CAT octet != 240
inline constexpr const char* kBlockTruncated = "block_truncated";   // < 3 bytes or LEN > bytes left
inline constexpr const char* kBadBlockLen = "bad_block_len";        // LEN < 3
inline constexpr const char* kFspec = "bad_fspec";                  // FX chain runs off the block
inline constexpr const char* kUnknownItem = "unknown_item";         // FSPEC bit beyond the UAP
inline constexpr const char* kItemTruncated = "item_truncated";     // an item runs off the block
inline constexpr const char* kBadRep = "bad_rep";                   // repetition factor 0 / too big
inline constexpr const char* kBadExplicitLen = "bad_explicit_len";  // RE/SP length byte 0
inline constexpr const char* kBadMessageType = "bad_message_type";  // I240/000 not 1 or 2
inline constexpr const char* kMissingItem = "missing_mandatory_item";
inline constexpr const char* kUnexpectedItem = "unexpected_item";  // e.g. 030 in a video record
inline constexpr const char* kBadResolution = "bad_resolution";    // RES not 1..6
inline constexpr const char* kBadCounters = "bad_counters";        // NB_VB/NB_CELLS vs video block
inline constexpr const char* kDecompress = "decompress_failed";    // zlib error or wrong length
}  // namespace reason

struct DecodeStats {
  uint64_t buffers = 0;  // calls to decode
  uint64_t bytes = 0;    // bytes handed to decode
  uint64_t blocks = 0;   // CAT240 data blocks whose framing was valid
  uint64_t records = 0;  // records decoded without error (video + summaries)
  uint64_t video = 0;
  uint64_t summaries = 0;
  std::map<std::string, uint64_t> errors;  // by reason
  uint64_t error_count() const {
    uint64_t n = 0;
    for (const auto& [k, v] : errors) n += v;
    return n;
  }
};

struct DecoderOptions {
  bool decode_cells = true;     // fill Record::cells (8-bit intensities)
  bool keep_raw_video = false;  // also fill Record::raw_video (wire octets after decompression)
  bool log_errors = true;       // spdlog warning, at most once per reason per second
  // Largest video (octets after decompression) accepted for one record; larger ones are counted
  // as bad_counters. 4 MiB holds 65536 cells of 32 bits with room to spare.
  uint32_t max_video_octets = 4u << 20;
};

// Called once per good record by Decoder::decode_each. `rec` has no cells/raw_video filled;
// `cells` (nb_cells 8-bit intensities, empty for summaries) and `raw_video` (the uncompressed wire
// octets, nb_vb of them, or the decompressed ones) are only valid during the call: for
// uncompressed 8-bit video both point into the input buffer, so nothing is copied.
using RecordVisitor = std::function<void(const Record& rec, std::span<const uint8_t> cells,
                                         std::span<const uint8_t> raw_video)>;

class Decoder {
 public:
  explicit Decoder(DecoderOptions options = {});
  ~Decoder();
  Decoder(Decoder&&) noexcept;
  Decoder& operator=(Decoder&&) noexcept;
  // Decodes every data block in `bytes` and appends one Record per good record to `out`
  // (capture_time copied into each). Never throws on bad data.
  void decode(std::span<const uint8_t> bytes, double capture_time, std::vector<Record>& out);
  // Same decoding without building Records: the fast path for the sweep assembler.
  void decode_each(std::span<const uint8_t> bytes, double capture_time, const RecordVisitor& visit);
  const DecodeStats& stats() const { return stats_; }
  void reset_stats() { stats_ = {}; }
  const DecoderOptions& options() const { return options_; }

 private:
  void count_error(const char* why, size_t offset);
  // Returns bytes consumed by one record starting at rec_start, or 0 if the rest of the block
  // must be dropped.
  size_t decode_record(std::span<const uint8_t> block, size_t pos, double capture_time,
                       const RecordVisitor& visit);

  DecoderOptions options_;
  DecodeStats stats_;
  std::map<std::string, double> last_logged_;  // reason -> steady clock seconds
  Record scratch_;                             // reused per record by decode_each
  std::vector<uint8_t> inflated_;              // decompressed video octets
  std::vector<uint8_t> cells8_;                // converted cells
  struct ZDeleter {
    void operator()(z_stream_s* z) const noexcept;
  };
  std::unique_ptr<z_stream_s, ZDeleter> zs_;  // reused inflate state (created on first use)
};

// True when `bytes` holds a well-framed chain of data blocks (LEN >= 3, within the bytes) of which
// at least one is a CAT240 block with a non-empty FSPEC, the chain being read up to that block.
// Cheap; used to skip other traffic in captures.
bool looks_like_cat240(std::span<const uint8_t> bytes);

// Converts `nb_cells` cells of `res_bits` (1, 2, 4, 8, 16, 32) packed in `octets` (sub-byte cells
// first in the most significant bits, 16/32-bit big-endian) to 8-bit intensities in `out`
// (resized). Scaling: see cat240_record.hpp and docs/asterix.md. Requires octets to hold them.
void unpack_cells(std::span<const uint8_t> octets, int res_bits, uint32_t nb_cells,
                  std::vector<uint8_t>& out);
// Octets needed for nb_cells cells of res_bits (rounded up to whole octets).
inline uint64_t octets_for_cells(uint64_t nb_cells, int res_bits) {
  return (nb_cells * static_cast<uint64_t>(res_bits) + 7) / 8;
}

}  // namespace sweepline::cat240
