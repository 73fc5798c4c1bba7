#pragma once
// Pieces shared by the CAT048 and CAT034 encoders and decoders: big-endian field writers and
// readers, FSPEC building and parsing, value quantisation with range checks, and the decode
// statistics every strict decoder keeps (errors counted by reason, as the CAT240 decoder does).
#include <cmath>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "app/common/check.hpp"

namespace sweepline::asterix {

// Error reasons shared by the CAT048 and CAT034 decoders (keys of DecodeStats::errors; listed in
// docs/asterix-output.md). Each decoder adds its own semantic reasons.
namespace reason {
inline constexpr const char* kBlockTruncated = "block_truncated";   // < 3 bytes or LEN > bytes left
inline constexpr const char* kBadBlockLen = "bad_block_len";        // LEN < 3
inline constexpr const char* kFspec = "bad_fspec";                  // FX chain runs off the block
inline constexpr const char* kEmptyFspec = "empty_fspec";           // a record with no item at all
inline constexpr const char* kUnknownItem = "unknown_item";         // FSPEC bit we cannot skip
inline constexpr const char* kItemTruncated = "item_truncated";     // an item runs off the block
inline constexpr const char* kBadExplicitLen = "bad_explicit_len";  // RE/SP length octet 0
inline constexpr const char* kMissingItem = "missing_mandatory_item";
inline constexpr const char* kUnexpectedItem = "unexpected_item";
inline constexpr const char* kBadValue = "bad_value";  // a field value the spec does not allow
}  // namespace reason

struct DecodeStats {
  uint64_t buffers = 0;       // calls to decode
  uint64_t bytes = 0;         // bytes handed to decode
  uint64_t blocks = 0;        // data blocks of the decoder's category whose framing was valid
  uint64_t other_blocks = 0;  // well-framed blocks of another category, skipped (not an error:
                              // one datagram may carry CAT034 and CAT048 blocks)
  uint64_t records = 0;       // records decoded without error
  std::map<std::string, uint64_t> errors;  // by reason
  uint64_t error_count() const {
    uint64_t n = 0;
    for (const auto& [k, v] : errors) n += v;
    return n;
  }
};

// --- Writing -------------------------------------------------------------------------------

inline void put8(std::vector<uint8_t>& o, uint32_t v) {
  o.push_back(static_cast<uint8_t>(v));
}
inline void put16(std::vector<uint8_t>& o, uint32_t v) {
  o.push_back(static_cast<uint8_t>(v >> 8));
  o.push_back(static_cast<uint8_t>(v));
}
inline void put24(std::vector<uint8_t>& o, uint32_t v) {
  o.push_back(static_cast<uint8_t>(v >> 16));
  put16(o, v);
}

// FSPEC from the set of present FRNs (1-based, up to 7 * 8 = 56): one octet per 7 FRNs, the FX
// bit set on every octet but the last non-empty one.
class FspecBuilder {
 public:
  void set(int frn) {
    const int octet = (frn - 1) / 7;
    if (octet >= static_cast<int>(sizeof bits_)) return;
    bits_[octet] |= static_cast<uint8_t>(0x80u >> ((frn - 1) % 7));
    if (octet + 1 > used_) used_ = octet + 1;
  }
  void write(std::vector<uint8_t>& o) const {
    for (int i = 0; i < used_; ++i) o.push_back(bits_[i] | (i + 1 < used_ ? 1u : 0u));
  }

 private:
  uint8_t bits_[8] = {};
  int used_ = 0;
};

// round(value / lsb) as an integer, or false when it is not finite or outside [lo, hi].
inline bool quantise(double value, double lsb, int64_t lo, int64_t hi, int64_t& out) {
  if (!std::isfinite(value)) return false;
  const double q = std::round(value / lsb);
  if (q < static_cast<double>(lo) || q > static_cast<double>(hi)) return false;
  out = static_cast<int64_t>(q);
  return true;
}
// An angle in degrees as an unsigned fraction of a turn with `bits` bits (360/2^bits LSB):
// any finite angle is wrapped into [0, 360), and one that rounds up to 360 is written as 0.
inline bool quantise_azimuth(double deg, int bits, uint32_t& out) {
  if (!std::isfinite(deg)) return false;
  const double turn = static_cast<double>(uint64_t{1} << bits);
  double w = std::fmod(deg, 360.0);
  if (w < 0) w += 360.0;
  const auto q = static_cast<uint64_t>(std::llround(w / 360.0 * turn));
  out = static_cast<uint32_t>(q % (uint64_t{1} << bits));
  return true;
}
// Time of day in 1/128 s (24 bits); any finite time is wrapped into the UTC day.
inline bool quantise_tod(double s_of_day, uint32_t& out) {
  if (!std::isfinite(s_of_day)) return false;
  double w = std::fmod(s_of_day, 86400.0);
  if (w < 0) w += 86400.0;
  out = static_cast<uint32_t>(std::llround(w * 128.0) % (86400 * 128));
  return true;
}

// --- Reading -------------------------------------------------------------------------------

inline uint16_t be16(const uint8_t* p) {
  return static_cast<uint16_t>((p[0] << 8) | p[1]);
}
inline uint32_t be24(const uint8_t* p) {
  return (uint32_t{p[0]} << 16) | (uint32_t{p[1]} << 8) | p[2];
}
// Two's complement fields of 8, 16 and 24 bits.
inline int32_t sbe8(const uint8_t* p) {
  return static_cast<int8_t>(p[0]);
}
inline int32_t sbe16(const uint8_t* p) {
  return static_cast<int16_t>(be16(p));
}
inline int32_t sbe24(const uint8_t* p) {
  const uint32_t v = be24(p);
  return static_cast<int32_t>(v & 0x800000u ? v | 0xFF000000u : v);
}

// Parses an FSPEC starting at `p` (within [p, end)): present[frn] for frn 1..max_frn. Returns the
// bytes it took, 0 when the FX chain runs off the end (bad_fspec), or -1 when a bit beyond
// max_frn is set (unknown_item); `empty` tells an FSPEC with no bit set.
inline int parse_fspec(const uint8_t* p, const uint8_t* end, int max_frn, bool* present,
                       bool& empty) {
  int frn = 1;
  int n = 0;
  empty = true;
  for (;;) {
    if (p + n >= end) return 0;
    const uint8_t f = p[n++];
    for (int bit = 7; bit >= 1; --bit, ++frn) {
      if (!(f & (1u << bit))) continue;
      if (frn > max_frn) return -1;
      present[frn] = true;
      empty = false;
    }
    if (!(f & 1u)) break;
  }
  return n;
}

// Length of an item with FX extension octets starting at p: 0 when it runs off the end.
inline size_t fx_item_length(const uint8_t* p, const uint8_t* end) {
  size_t n = 0;
  for (;;) {
    if (p + n >= end) return 0;
    if (!(p[n++] & 1u)) return n;
  }
}

// Counts `why` in `stats` and logs it (spdlog warning naming `what`, e.g. "CAT048 decode") at
// most once per reason per second when `log` is set.
void count_decode_error(DecodeStats& stats, std::map<std::string, double>& last_logged, bool log,
                        const char* what, const char* why, size_t offset);

// Walks the chain of data blocks in `bytes`: calls on_block(block) for each well-framed block of
// `category` (counted in stats.blocks), skips other categories by their LEN (other_blocks), and
// stops at a framing error, reported through error(reason, offset).
template <class OnError, class OnBlock>
void walk_blocks(std::span<const uint8_t> bytes, uint8_t category, DecodeStats& stats,
                 OnError&& error, OnBlock&& on_block) {
  ++stats.buffers;
  stats.bytes += bytes.size();
  size_t pos = 0;
  while (pos < bytes.size()) {
    const size_t left = bytes.size() - pos;
    if (left < 3) {
      error(reason::kBlockTruncated, pos);
      return;
    }
    const uint16_t len = be16(bytes.data() + pos + 1);
    if (len < 3) {
      error(reason::kBadBlockLen, pos);
      return;
    }
    if (len > left) {
      error(reason::kBlockTruncated, pos);
      return;
    }
    if (bytes[pos] == category) {
      ++stats.blocks;
      on_block(bytes.subspan(pos, len), pos);
    } else {
      ++stats.other_blocks;
    }
    pos += len;
  }
}

// walk_blocks, then each block's records in turn: on_record(block, offset) returns the record's
// length, or 0 when its framing is lost (the rest of that block is skipped).
template <class OnError, class OnRecord>
void walk_records(std::span<const uint8_t> bytes, uint8_t category, DecodeStats& stats,
                  OnError&& error, OnRecord&& on_record) {
  walk_blocks(bytes, category, stats, error, [&](std::span<const uint8_t> block, size_t) {
    size_t rp = 3;
    while (rp < block.size()) {
      const size_t n = on_record(block, rp);
      if (n == 0) break;
      rp += n;
    }
  });
}

// A record's FSPEC at b[start] (parse_fspec): its length in octets, or 0 after error(reason,
// start) for a cut FSPEC, an item past max_frn, or no item at all (padding or garbage).
template <class OnError>
size_t record_fspec(const uint8_t* b, size_t start, const uint8_t* end, int max_frn, bool* present,
                    OnError&& error) {
  bool empty = true;
  const int fspec = parse_fspec(b + start, end, max_frn, present, empty);
  const char* why = fspec == 0  ? reason::kFspec
                    : fspec < 0 ? reason::kUnknownItem
                    : empty     ? reason::kEmptyFspec
                                : nullptr;
  if (why) {
    error(why, start);
    return 0;
  }
  return static_cast<size_t>(fspec);
}

// One data block of `category` holding what append(record, out) writes for each record, its LEN
// filled in. A refused record or a block over 65535 bytes throws (naming `what`, e.g. "CAT048
// encode") and leaves `out` as it was.
template <class Record, class Append>
void append_data_block(uint8_t category, const char* what, std::span<const Record> records,
                       Append&& append, std::vector<uint8_t>& out) {
  const size_t start = out.size();
  out.push_back(category);
  out.push_back(0);
  out.push_back(0);
  try {
    for (const Record& r : records) append(r, out);
  } catch (...) {
    out.resize(start);
    throw;
  }
  const size_t len = out.size() - start;
  if (len > 0xFFFF) {
    out.resize(start);
    throw Error(std::string(what) + ": data block over 65535 bytes");
  }
  out[start + 1] = static_cast<uint8_t>(len >> 8);
  out[start + 2] = static_cast<uint8_t>(len);
}

}  // namespace sweepline::asterix
