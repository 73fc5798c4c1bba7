#include "app/sim/radial_producer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/common/check.hpp"

namespace sweepline::sim {

namespace {

constexpr double kC = 299792458.0;
// Bytes of one video record besides its video octets (FSPEC 2, 010 2, 000 1, 020 4, 041 12,
// 048 1, 049 5, REP 1, 140 3) plus the data block header (3), rounded up.
constexpr size_t kRecordOverhead = 40;

uint16_t az_lsb(int a, int n) {
  return uint16_t((int64_t(a) * 65536 + n / 2) / n & 0xFFFF);
}

uint32_t tod_of(double t) {
  const double since_midnight = std::fmod(t, 86400.0);
  return uint32_t(std::llround(since_midnight * 128.0)) % (86400u * 128u);
}

}  // namespace

void quantise_cells(uint8_t* cells, size_t n, int res_bits) {
  if (res_bits >= 8) return;
  const int top = (1 << res_bits) - 1;
  for (size_t i = 0; i < n; ++i) {
    const int q = (cells[i] * top + 127) / 255;
    cells[i] = uint8_t(q * 255 / top);
  }
}

RadialProducer::RadialProducer(const Scenario& s) : s_(s) {
  validate(s_);
  const auto& r = s_.radar;
  const double fs = 2.0 * r.cell_m() / kC * 1e15;
  cell_dur_fs_ = uint32_t(std::llround(fs));
  enc_.unit = cat240::CellDurUnit::Femto;
  enc_.res_bits = r.res_bits;
  enc_.compress = r.compress;
  enc_.item_140 = s_.style != Style::ZeroWidth;
  const size_t octets = size_t(r.cells) * size_t(r.res_bits) / 8 + 1;
  switch (s_.style) {
    case Style::NextAz:
    case Style::ZeroWidth:
      per_block_ = 1;
      cells_per_msg_ = r.cells;
      break;
    case Style::MultiRecord:
      // Several records per block, with the datagram well under the UDP limit.
      per_block_ = int(std::clamp<size_t>(60000 / (octets + kRecordOverhead + 64), 1, 8));
      cells_per_msg_ = r.cells;
      break;
    case Style::Split1400: {
      // Whole 64-octet units of I240/051 that fit a 1400-byte datagram; room for zlib's worst
      // case growth when compressing.
      size_t budget = (kSplitPacketBytes - kRecordOverhead) / 64 * 64;
      if (r.compress) budget -= 64;
      per_block_ = 1;
      cells_per_msg_ = int(budget * 8 / size_t(r.res_bits));
      break;
    }
  }
}

void RadialProducer::radial(int a, const uint8_t* cells, double t, std::vector<cat240::Record>& out,
                            bool as_decoded) {
  const auto& r = s_.radar;
  cat240::VideoHeader h;
  h.start_az = az_lsb(a, r.radials);
  h.end_az = s_.style == Style::ZeroWidth ? h.start_az : az_lsb(a + 1, r.radials);
  h.cell_dur = cell_dur_fs_;
  h.unit = cat240::CellDurUnit::Femto;
  for (int c0 = 0; c0 < r.cells; c0 += cells_per_msg_) {
    const int n = std::min(cells_per_msg_, r.cells - c0);
    cat240::Record rec;
    rec.sac = r.sac;
    rec.sic = r.sic;
    rec.type = cat240::MessageType::Video;
    rec.msg_index = msg_index_++;
    h.start_rg = uint32_t(c0);
    rec.header = h;
    rec.compressed = r.compress;
    rec.res_bits = uint8_t(r.res_bits);
    rec.nb_cells = uint32_t(n);
    rec.cells.assign(cells + c0, cells + c0 + n);
    if (as_decoded) quantise_cells(rec.cells.data(), rec.cells.size(), r.res_bits);
    if (enc_.item_140) rec.tod = tod_of(t);
    rec.capture_time = t;
    out.push_back(std::move(rec));
  }
}

cat240::Record RadialProducer::summary(uint64_t rotation, double t) {
  cat240::Record rec;
  rec.sac = s_.radar.sac;
  rec.sic = s_.radar.sic;
  rec.type = cat240::MessageType::Summary;
  char text[160];
  std::snprintf(text, sizeof text, "sweepline sim %s seed=%llu rotation=%llu", s_.name.c_str(),
                static_cast<unsigned long long>(s_.seed),
                static_cast<unsigned long long>(rotation));
  rec.summary = text;
  if (rec.summary.size() > 255) rec.summary.resize(255);
  if (enc_.item_140) rec.tod = tod_of(t);
  rec.capture_time = t;
  return rec;
}

void RadialProducer::pack(std::span<const cat240::Record> records, std::vector<Packet>& out) const {
  size_t i = 0;
  while (i < records.size()) {
    // Summaries go alone; video records in groups of per_block_.
    size_t n = 1;
    if (records[i].type == cat240::MessageType::Video)
      while (n < size_t(per_block_) && i + n < records.size() &&
             records[i + n].type == cat240::MessageType::Video)
        ++n;
    Packet p;
    p.time = records[i].capture_time;
    cat240::append_block(records.subspan(i, n), enc_, p.bytes);
    SWL_CHECK(
        s_.style != Style::Split1400 || p.bytes.size() <= kSplitPacketBytes,
        "sim: a split-1400 datagram came out at " + std::to_string(p.bytes.size()) + " bytes");
    out.push_back(std::move(p));
    i += n;
  }
}

}  // namespace sweepline::sim
