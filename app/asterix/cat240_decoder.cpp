// CAT240 data block and record decoding with validation (see cat240_decoder.hpp).
#include "app/asterix/cat240_decoder.hpp"

#include <spdlog/spdlog.h>
#include <zlib.h>

#include <chrono>

namespace sweepline::cat240 {
namespace {

inline uint16_t be16(const uint8_t* p) {
  return static_cast<uint16_t>((p[0] << 8) | p[1]);
}
inline uint32_t be24(const uint8_t* p) {
  return (uint32_t{p[0]} << 16) | (uint32_t{p[1]} << 8) | p[2];
}
inline uint32_t be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

// UAP field reference numbers (FRN, 1-based) in wire order.
enum Frn : int {
  kI010 = 1,
  kI000,
  kI020,
  kI030,
  kI040,
  kI041,
  kI048,
  kI049,
  kI050,
  kI051,
  kI052,
  kI140,
  kRE,
  kSP,
  kLastFrn = kSP
};

double now_s() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// Outcome of parsing one record: framing (where it ends) is separate from validity.
struct ParseResult {
  size_t consumed = 0;          // 0 = framing lost
  const char* error = nullptr;  // record-level error (record skipped, framing kept)
};

}  // namespace

void Decoder::ZDeleter::operator()(z_stream_s* z) const noexcept {
  inflateEnd(z);
  delete z;
}

Decoder::Decoder(DecoderOptions options) : options_(options) {}
Decoder::~Decoder() = default;
Decoder::Decoder(Decoder&&) noexcept = default;
Decoder& Decoder::operator=(Decoder&&) noexcept = default;

void Decoder::count_error(const char* why, size_t offset) {
  uint64_t& n = stats_.errors[why];
  ++n;
  if (!options_.log_errors) return;
  const double t = now_s();
  auto [it, fresh] = last_logged_.try_emplace(why, t);
  if (fresh || t - it->second >= 1.0) {
    it->second = t;
    spdlog::warn("CAT240 decode: {} at byte {} of a buffer ({} so far)", why, offset, n);
  }
}

bool looks_like_cat240(std::span<const uint8_t> b) {
  // Walk the chain of blocks while it is well framed: a datagram may carry another category
  // first.
  size_t pos = 0;
  while (b.size() - pos >= 3) {
    const uint16_t len = be16(b.data() + pos + 1);
    if (len < 3 || len > b.size() - pos) return false;
    if (b[pos] == kCategory && len >= 4 && b[pos + 3] != 0) return true;
    pos += len;
  }
  return false;
}

void Decoder::decode(std::span<const uint8_t> bytes, double capture_time,
                     std::vector<Record>& out) {
  decode_each(bytes, capture_time,
              [&](const Record& rec, std::span<const uint8_t> cells, std::span<const uint8_t> raw) {
                Record& r = out.emplace_back();
                r.sac = rec.sac;
                r.sic = rec.sic;
                r.type = rec.type;
                r.msg_index = rec.msg_index;
                r.summary = rec.summary;
                r.header = rec.header;
                r.compressed = rec.compressed;
                r.res_bits = rec.res_bits;
                r.nb_vb = rec.nb_vb;
                r.nb_cells = rec.nb_cells;
                r.tod = rec.tod;
                r.capture_time = rec.capture_time;
                r.cells.assign(cells.begin(), cells.end());
                if (options_.keep_raw_video) r.raw_video.assign(raw.begin(), raw.end());
              });
}

void Decoder::decode_each(std::span<const uint8_t> bytes, double capture_time,
                          const RecordVisitor& visit) {
  ++stats_.buffers;
  stats_.bytes += bytes.size();
  size_t pos = 0;
  while (pos < bytes.size()) {
    const size_t left = bytes.size() - pos;
    if (left < 3) {
      count_error(reason::kBlockTruncated, pos);
      return;
    }
    const uint8_t cat = bytes[pos];
    const uint16_t len = be16(bytes.data() + pos + 1);
    if (len < 3) {
      count_error(reason::kBadBlockLen, pos);
      return;
    }
    if (len > left) {
      count_error(reason::kBlockTruncated, pos);
      return;
    }
    if (cat != kCategory) {  // another category in the same datagram: skip it by its LEN
      count_error(reason::kNotCat240, pos);
      pos += len;
      continue;
    }
    ++stats_.blocks;
    const auto block = bytes.subspan(pos, len);
    size_t rp = 3;
    while (rp < block.size()) {
      const size_t n = decode_record(block, rp, capture_time, visit);
      if (n == 0) break;  // framing lost: the rest of this block is skipped
      rp += n;
    }
    pos += len;
  }
}

size_t Decoder::decode_record(std::span<const uint8_t> block, size_t start, double capture_time,
                              const RecordVisitor& visit) {
  const uint8_t* b = block.data();
  const size_t end = block.size();
  size_t p = start;

  // FSPEC: FRNs 1..14 live in the first two octets; any further octet must be empty.
  bool present[kLastFrn + 1] = {};
  int frn = 1;
  for (;;) {
    if (p >= end) {
      count_error(reason::kFspec, p);
      return 0;
    }
    const uint8_t f = b[p++];
    for (int bit = 7; bit >= 1; --bit, ++frn) {
      if (!(f & (1u << bit))) continue;
      if (frn > kLastFrn) {
        count_error(reason::kUnknownItem, p - 1);
        return 0;
      }
      present[frn] = true;
    }
    if (!(f & 1u)) break;
  }

  Record& r = scratch_;
  r.sac = r.sic = 0;
  r.type = MessageType::Video;
  r.msg_index.reset();
  r.summary.clear();
  r.header.reset();
  r.compressed = false;
  r.res_bits = 0;
  r.nb_vb = 0;
  r.nb_cells = 0;
  r.tod.reset();
  r.capture_time = capture_time;
  int type_code = 0;
  int res_code = 0;
  const uint8_t* video = nullptr;
  size_t video_len = 0;
  int video_items = 0;
  const char* error = nullptr;  // first record-level error, reported after framing is known
  auto need = [&](size_t n) { return end - p >= n; };

  for (int i = 1; i <= kLastFrn; ++i) {
    if (!present[i]) continue;
    switch (i) {
      case kI010:
        if (!need(2)) break;
        r.sac = b[p];
        r.sic = b[p + 1];
        p += 2;
        continue;
      case kI000:
        if (!need(1)) break;
        type_code = b[p++];
        continue;
      case kI020:
        if (!need(4)) break;
        r.msg_index = be32(b + p);
        p += 4;
        continue;
      case kI030: {
        if (!need(1)) break;
        const size_t rep = b[p];
        if (end - p - 1 < rep) {
          count_error(reason::kBadRep, p);
          return 0;
        }
        r.summary.assign(reinterpret_cast<const char*>(b + p + 1), rep);
        p += 1 + rep;
        continue;
      }
      case kI040:
      case kI041: {
        if (!need(12)) break;
        if (r.header && !error) error = reason::kUnexpectedItem;  // both 040 and 041
        VideoHeader h;
        h.start_az = be16(b + p);
        h.end_az = be16(b + p + 2);
        h.start_rg = be32(b + p + 4);
        h.cell_dur = be32(b + p + 8);
        h.unit = i == kI040 ? CellDurUnit::Nano : CellDurUnit::Femto;
        r.header = h;
        p += 12;
        continue;
      }
      case kI048:
        if (!need(2)) break;
        r.compressed = (b[p] & 0x80u) != 0;
        res_code = b[p + 1];
        p += 2;
        continue;
      case kI049:
        if (!need(5)) break;
        r.nb_vb = be16(b + p);
        r.nb_cells = be24(b + p + 2);
        p += 5;
        continue;
      case kI050:
      case kI051:
      case kI052: {
        if (!need(1)) break;
        const size_t unit = i == kI050 ? 4 : i == kI051 ? 64 : 256;
        const size_t rep = b[p];
        if (end - p - 1 < rep * unit) {  // the repetition runs off the block: framing lost
          count_error(reason::kBadRep, p);
          return 0;
        }
        if (rep == 0 && !error) error = reason::kBadRep;
        ++video_items;
        video = b + p + 1;
        video_len = rep * unit;
        p += 1 + rep * unit;
        continue;
      }
      case kI140:
        if (!need(3)) break;
        r.tod = be24(b + p);
        p += 3;
        continue;
      case kRE:
      case kSP: {
        if (!need(1)) break;
        const size_t len = b[p];  // counts itself
        if (len == 0) {
          count_error(reason::kBadExplicitLen, p);
          return 0;
        }
        if (!need(len)) break;
        p += len;
        continue;
      }
      default:
        break;
    }
    // Only reached when an item does not fit in the block.
    count_error(reason::kItemTruncated, p);
    return 0;
  }
  const size_t consumed = p - start;

  // Semantics: mandatory and excluded items per message type (spec table under I240/000).
  if (!error) {
    if (!present[kI000] || !present[kI010]) {
      error = reason::kMissingItem;
    } else if (type_code == 1) {
      if (!present[kI030])
        error = reason::kMissingItem;
      else if (present[kI020] || r.header || present[kI048] || present[kI049] || video_items)
        error = reason::kUnexpectedItem;
    } else if (type_code == 2) {
      if (!present[kI020] || !r.header || !present[kI048] || !present[kI049] || !video_items)
        error = reason::kMissingItem;
      else if (present[kI030] || video_items > 1)
        error = reason::kUnexpectedItem;
    } else {
      error = reason::kBadMessageType;
    }
  }
  if (error) {
    count_error(error, start);
    return consumed;
  }

  std::span<const uint8_t> cells;
  std::span<const uint8_t> raw;
  if (type_code == 1) {
    r.type = MessageType::Summary;
  } else {
    r.type = MessageType::Video;
    const int bits = res_bits_from_code(res_code);
    if (bits == 0) {
      count_error(reason::kBadResolution, start);
      return consumed;
    }
    r.res_bits = static_cast<uint8_t>(bits);
    const uint64_t needed = octets_for_cells(r.nb_cells, bits);
    if (r.nb_vb > video_len || needed > options_.max_video_octets ||
        (!r.compressed && needed > r.nb_vb)) {
      count_error(reason::kBadCounters, start);
      return consumed;
    }
    if (!r.compressed) {
      raw = {video, static_cast<size_t>(needed)};
    } else {
      // Inflate at most `needed` + 1 octets: one extra octet reveals a stream that is too long
      // (a zlib bomb or wrong counters) without producing it.
      if (!zs_) {
        auto* z = new z_stream_s{};
        if (inflateInit(z) != Z_OK) {
          delete z;
          count_error(reason::kDecompress, start);
          return consumed;
        }
        zs_.reset(z);
      } else {
        inflateReset(zs_.get());
      }
      inflated_.resize(static_cast<size_t>(needed) + 1);
      z_stream_s* z = zs_.get();
      z->next_in = const_cast<Bytef*>(video);
      z->avail_in = r.nb_vb;
      z->next_out = inflated_.data();
      z->avail_out = static_cast<uInt>(inflated_.size());
      const int rc = inflate(z, Z_FINISH);
      if (rc != Z_STREAM_END || z->total_out != needed) {
        count_error(reason::kDecompress, start);
        return consumed;
      }
      raw = {inflated_.data(), static_cast<size_t>(needed)};
    }
    if (options_.decode_cells) {
      if (bits == 8) {
        cells = raw.first(r.nb_cells);  // zero copy
      } else {
        unpack_cells(raw, bits, r.nb_cells, cells8_);
        cells = cells8_;
      }
    }
  }

  ++stats_.records;
  if (r.type == MessageType::Video)
    ++stats_.video;
  else
    ++stats_.summaries;
  visit(r, cells, raw);
  return consumed;
}

}  // namespace sweepline::cat240
