// CAT034 data block and record decoding with validation (see cat034_decoder.hpp).
#include "app/asterix/cat034_decoder.hpp"

namespace sweepline::cat034 {
namespace {

using asterix::be16;
using asterix::be24;
using asterix::sbe16;
using asterix::sbe24;

// The edition 1.2x UAP: FRN (1-based) in wire order.
enum Frn : int {
  kI010 = 1,
  kI000,
  kI030,
  kI020,
  kI041,
  kI050,
  kI060,
  kI070,
  kI100,
  kI110,
  kI120,
  kI090,
  kRE,
  kSP,
  kLastFrn = kSP
};

constexpr int fixed_length(int frn) {
  switch (frn) {
    case kI000:
    case kI020:
    case kI110:
      return 1;
    case kI010:
    case kI041:
    case kI090:
      return 2;
    case kI030:
      return 3;
    case kI100:
    case kI120:
      return 8;
    default:
      return 0;
  }
}

constexpr uint32_t kTodModulo = 86400u * 128u;

// Octets of each subfield of the compound items, by primary-subfield bit (bit 8 first, bits 8..2);
// 0 = a spare bit, which must not be set.
constexpr int kI050Subfields[7] = {1, 0, 0, 1, 1, 2, 0};  // COM, -, -, PSR, SSR, MDS, -
constexpr int kI060Subfields[7] = {1, 0, 0, 1, 1, 1, 0};  // COM, -, -, PSR, SSR, MDS, -

}  // namespace

void Decoder::count_error(const char* why, size_t offset) {
  asterix::count_decode_error(stats_, last_logged_, options_.log_errors, "CAT034 decode", why,
                              offset);
}

void Decoder::decode(std::span<const uint8_t> bytes, double capture_time,
                     std::vector<ServiceMessage>& out) {
  asterix::walk_records(
      bytes, kCategory, stats_, [&](const char* why, size_t pos) { count_error(why, pos); },
      [&](std::span<const uint8_t> block, size_t rp) {
        return decode_record(block, rp, capture_time, out);
      });
}

size_t Decoder::decode_record(std::span<const uint8_t> block, size_t start, double capture_time,
                              std::vector<ServiceMessage>& out) {
  const uint8_t* b = block.data();
  const uint8_t* const end = b + block.size();
  bool present[kLastFrn + 1] = {};
  const size_t fspec = asterix::record_fspec(
      b, start, end, kLastFrn, present, [&](const char* why, size_t at) { count_error(why, at); });
  if (fspec == 0) return 0;
  size_t p = start + fspec;
  const size_t size = block.size();
  auto need = [&](size_t n) { return size - p >= n; };

  ServiceMessage m;
  m.capture_time = capture_time;
  int type = 0;
  const char* error = nullptr;
  auto fail = [&](const char* why) {
    if (!error) error = why;
  };

  for (int i = 1; i <= kLastFrn; ++i) {
    if (!present[i]) continue;
    const int fixed = fixed_length(i);
    if (fixed) {
      if (!need(static_cast<size_t>(fixed))) {
        count_error(reason::kItemTruncated, p);
        return 0;
      }
      const uint8_t* v = b + p;
      switch (i) {
        case kI010:
          m.sac = v[0];
          m.sic = v[1];
          break;
        case kI000:
          type = v[0];
          break;
        case kI030: {
          const uint32_t tod = be24(v);
          if (tod >= kTodModulo) fail(reason::kBadValue);
          m.tod_s = tod * kTodLsbS;
          break;
        }
        case kI020:
          m.sector_deg = v[0] * kSectorLsbDeg;
          break;
        case kI041:
          m.rotation_period_s = be16(v) * kRotationLsbS;
          break;
        case kI120: {
          Position pos;
          pos.height_m = sbe16(v) * kHeightLsbM;
          const int32_t lat = sbe24(v + 2);
          if (lat > (1 << 22) || lat < -(1 << 22)) fail(reason::kBadValue);
          pos.lat_deg = lat * kLatLonLsbDeg;
          pos.lon_deg = sbe24(v + 5) * kLatLonLsbDeg;
          m.position = pos;
          break;
        }
        default:
          break;
      }
      p += static_cast<size_t>(fixed);
      continue;
    }
    switch (i) {
      case kI050:
      case kI060: {
        if (!need(1)) {
          count_error(reason::kItemTruncated, p);
          return 0;
        }
        const uint8_t prim = b[p];
        const int* sub = i == kI050 ? kI050Subfields : kI060Subfields;
        size_t n = 0;
        bool unknown = prim & 1u;  // FX: a second primary octet this edition does not define
        for (int s = 0; s < 7; ++s) {
          if (!(prim & (0x80u >> s))) continue;
          if (sub[s] == 0) unknown = true;
          n += static_cast<size_t>(sub[s]);
        }
        if (unknown) {
          count_error(reason::kUnknownItem, p);
          return 0;
        }
        if (!need(1 + n)) {
          count_error(reason::kItemTruncated, p);
          return 0;
        }
        if (prim == 0) fail(reason::kBadValue);
        const uint8_t* v = b + p + 1;
        // Subfields follow in bit order; COM is first and PSR second when present.
        const uint8_t* com = (prim & 0x80u) ? v : nullptr;
        const uint8_t* psr = (prim & 0x10u) ? v + ((prim & 0x80u) ? 1 : 0) : nullptr;
        if (i == kI050) {
          SystemStatus s;
          s.psr_ch_ab = 0;  // PSR fields stay 0 when the PSR subfield is absent
          if (com) {
            s.nogo = com[0] & 0x80;
            s.rdpc = com[0] & 0x40;
            s.rdpr = com[0] & 0x20;
            s.ovl_rdp = com[0] & 0x10;
            s.ovl_xmt = com[0] & 0x08;
            s.msc = com[0] & 0x04;
            s.tsv = com[0] & 0x02;
          }
          s.has_psr = psr != nullptr;
          if (psr) {
            s.psr_ant = psr[0] & 0x80;
            s.psr_ch_ab = static_cast<uint8_t>((psr[0] >> 5) & 3);
            s.psr_ovl = psr[0] & 0x10;
            s.psr_msc = psr[0] & 0x08;
          }
          m.status = s;
        } else {
          ProcessingMode pm;
          if (com) {
            pm.red_rdp = static_cast<uint8_t>((com[0] >> 4) & 7);
            pm.red_xmt = static_cast<uint8_t>((com[0] >> 1) & 7);
          }
          pm.has_psr = psr != nullptr;
          if (psr) {
            pm.psr_pol = psr[0] & 0x80;
            pm.psr_red_rad = static_cast<uint8_t>((psr[0] >> 4) & 7);
            pm.psr_stc = static_cast<uint8_t>((psr[0] >> 2) & 3);
          }
          m.mode = pm;
        }
        p += 1 + n;
        continue;
      }
      case kI070: {  // repetitive: REP, then REP * 2 octets of message counts
        if (!need(1) || (size - p - 1) / 2 < b[p]) {
          count_error(reason::kItemTruncated, p);
          return 0;
        }
        p += 1 + size_t{b[p]} * 2;
        continue;
      }
      case kRE:
      case kSP: {
        if (!need(1)) {
          count_error(reason::kItemTruncated, p);
          return 0;
        }
        const size_t len = b[p];
        if (len == 0) {
          count_error(reason::kBadExplicitLen, p);
          return 0;
        }
        if (!need(len)) {
          count_error(reason::kItemTruncated, p);
          return 0;
        }
        p += len;
        continue;
      }
      default:
        break;
    }
  }
  const size_t consumed = p - start;

  if (!error) {
    if (!present[kI010] || !present[kI000] || !present[kI030])
      error = reason::kMissingItem;
    else if (type < 1 || type > 4)
      error = reason::kBadMessageType;
    else if (type == static_cast<int>(MessageType::SectorCrossing) && !present[kI020])
      error = reason::kMissingItem;
  }
  if (error) {
    count_error(error, start);
    return consumed;
  }
  m.type = static_cast<MessageType>(type);
  ++stats_.records;
  out.push_back(m);
  return consumed;
}

}  // namespace sweepline::cat034
