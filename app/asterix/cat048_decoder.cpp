// CAT048 data block and record decoding with validation (see cat048_decoder.hpp).
#include "app/asterix/cat048_decoder.hpp"

namespace sweepline::cat048 {
namespace {

using asterix::be16;
using asterix::be24;
using asterix::sbe16;
using asterix::sbe8;

// The edition 1.2x UAP: FRN (1-based) in wire order.
enum Frn : int {
  kI010 = 1,
  kI140,
  kI020,
  kI040,
  kI070,
  kI090,
  kI130,
  kI220,
  kI240,
  kI250,
  kI161,
  kI042,
  kI200,
  kI170,
  kI210,
  kI030,
  kI080,
  kI100,
  kI110,
  kI120,
  kI230,
  kI260,
  kI055,
  kI050,
  kI065,
  kI060,
  kSP,
  kRE,
  kLastFrn = kRE
};

// Octets of the fixed-length items (0: not fixed).
constexpr int fixed_length(int frn) {
  switch (frn) {
    case kI055:
    case kI065:
      return 1;
    case kI010:
    case kI070:
    case kI090:
    case kI161:
    case kI080:
    case kI110:
    case kI230:
    case kI050:
    case kI060:
      return 2;
    case kI140:
    case kI220:
      return 3;
    case kI040:
    case kI042:
    case kI200:
    case kI210:
    case kI100:
      return 4;
    case kI240:
      return 6;
    case kI260:
      return 7;
    default:
      return 0;
  }
}

constexpr uint32_t kTodModulo = 86400u * 128u;

}  // namespace

void Decoder::count_error(const char* why, size_t offset) {
  asterix::count_decode_error(stats_, last_logged_, options_.log_errors, "CAT048 decode", why,
                              offset);
}

void Decoder::decode(std::span<const uint8_t> bytes, double capture_time,
                     std::vector<TargetReport>& out) {
  asterix::walk_records(
      bytes, kCategory, stats_, [&](const char* why, size_t pos) { count_error(why, pos); },
      [&](std::span<const uint8_t> block, size_t rp) {
        return decode_record(block, rp, capture_time, out);
      });
}

size_t Decoder::decode_record(std::span<const uint8_t> block, size_t start, double capture_time,
                              std::vector<TargetReport>& out) {
  const uint8_t* b = block.data();
  const uint8_t* const end = b + block.size();
  bool present[kLastFrn + 1] = {};
  const size_t fspec = asterix::record_fspec(
      b, start, end, kLastFrn, present, [&](const char* why, size_t at) { count_error(why, at); });
  if (fspec == 0) return 0;
  size_t p = start + fspec;
  const size_t size = block.size();
  auto need = [&](size_t n) { return size - p >= n; };

  TargetReport r;
  r.capture_time = capture_time;
  const char* error = nullptr;  // first record-level error, reported once framing is known
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
          r.sac = v[0];
          r.sic = v[1];
          break;
        case kI140: {
          const uint32_t tod = be24(v);
          if (tod >= kTodModulo) fail(reason::kBadValue);
          r.tod_s = tod * kTodLsbS;
          break;
        }
        case kI040:
          r.rho_nm = be16(v) * kRhoLsbNm;
          r.theta_deg = be16(v + 2) * kThetaLsbDeg;
          break;
        case kI161: {
          const uint16_t tn = be16(v);
          if (tn > kMaxTrackNumber) fail(reason::kBadTrackNumber);  // spare bits set
          r.track_number = static_cast<uint16_t>(tn & kMaxTrackNumber);
          break;
        }
        case kI042:
          r.x_nm = sbe16(v) * kCartesianLsbNm;
          r.y_nm = sbe16(v + 2) * kCartesianLsbNm;
          break;
        case kI200:
          r.ground_speed_nm_s = be16(v) * kSpeedLsbNmPerS;
          r.heading_deg = be16(v + 2) * kThetaLsbDeg;
          break;
        default:  // an item we frame but do not keep
          break;
      }
      p += static_cast<size_t>(fixed);
      continue;
    }
    switch (i) {
      case kI020:
      case kI170:
      case kI030: {
        const size_t n = asterix::fx_item_length(b + p, end);
        if (n == 0) {
          count_error(reason::kItemTruncated, p);
          return 0;
        }
        const uint8_t* v = b + p;
        if (i == kI020) {
          Descriptor& d = r.descriptor;
          d.typ = static_cast<DetectionType>(v[0] >> 5);
          d.sim = v[0] & 0x10;
          d.rdp = v[0] & 0x08;
          d.spi = v[0] & 0x04;
          d.rab = v[0] & 0x02;
          if (n >= 2) {
            d.extension = true;
            d.tst = v[1] & 0x80;
            d.err = v[1] & 0x40;
            d.xpp = v[1] & 0x20;
            d.me = v[1] & 0x10;
            d.mi = v[1] & 0x08;
            d.foe_fri = static_cast<uint8_t>((v[1] >> 1) & 3);
          }
        } else if (i == kI170) {
          TrackStatus s;
          s.tentative = v[0] & 0x80;
          s.rad = static_cast<uint8_t>((v[0] >> 5) & 3);
          s.dou = v[0] & 0x10;
          s.mah = v[0] & 0x08;
          s.cdm = static_cast<uint8_t>((v[0] >> 1) & 3);
          if (n >= 2) {
            s.extension = true;
            s.tre = v[1] & 0x80;
            s.gho = v[1] & 0x40;
            s.sup = v[1] & 0x20;
            s.tcc = v[1] & 0x10;
          }
          r.status = s;
        }
        p += n;
        continue;
      }
      case kI130: {
        // Compound: one primary octet (7 one-octet subfields); an FX there names subfields the
        // edition does not define, so the record cannot be framed.
        if (!need(1)) {
          count_error(reason::kItemTruncated, p);
          return 0;
        }
        const uint8_t prim = b[p];
        if (prim & 1u) {
          count_error(reason::kUnknownItem, p);
          return 0;
        }
        size_t n = 0;
        for (int s = 0; s < 7; ++s) n += (prim >> (7 - s)) & 1u;
        if (!need(1 + n)) {
          count_error(reason::kItemTruncated, p);
          return 0;
        }
        if (prim == 0) fail(reason::kBadValue);  // a compound item with no subfield
        PlotCharacteristics c;
        const uint8_t* v = b + p + 1;
        for (int s = 0; s < 7; ++s) {
          if (!(prim & (0x80u >> s))) continue;
          const uint8_t o = *v++;
          switch (s) {
            case 0:
              c.srl_deg = o * kRunLengthLsbDeg;
              break;
            case 1:
              c.srr = o;
              break;
            case 2:
              c.sam_dbm = static_cast<int8_t>(o);
              break;
            case 3:
              c.prl_deg = o * kRunLengthLsbDeg;
              break;
            case 4:
              c.pam_dbm = static_cast<int8_t>(o);
              break;
            case 5:
              c.rpd_nm = sbe8(&o) * kRangeDiffLsbNm;
              break;
            default:
              c.apd_deg = sbe8(&o) * kAzimuthDiffLsbDeg;
              break;
          }
        }
        r.plot = c;
        p += 1 + n;
        continue;
      }
      case kI250: {  // repetitive: REP, then REP * 8 octets of Mode S MB data
        if (!need(1) || (size - p - 1) / 8 < b[p]) {
          count_error(reason::kItemTruncated, p);
          return 0;
        }
        p += 1 + size_t{b[p]} * 8;
        continue;
      }
      case kI120: {  // compound: CAL (2 octets), RDS (REP, REP * 6 octets)
        if (!need(1)) {
          count_error(reason::kItemTruncated, p);
          return 0;
        }
        const uint8_t prim = b[p];
        if (prim & 0x3Fu) {  // spare bits or FX: subfields this edition does not define
          count_error(reason::kUnknownItem, p);
          return 0;
        }
        size_t q = p + 1;
        if (prim & 0x80u) q += 2;
        if (q > size) {
          count_error(reason::kItemTruncated, p);
          return 0;
        }
        if (prim & 0x40u) {
          if (q >= size || (size - q - 1) / 6 < b[q]) {
            count_error(reason::kItemTruncated, p);
            return 0;
          }
          q += 1 + size_t{b[q]} * 6;
        }
        p = q;
        continue;
      }
      case kSP:
      case kRE: {
        if (!need(1)) {
          count_error(reason::kItemTruncated, p);
          return 0;
        }
        const size_t len = b[p];  // counts itself
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

  if (!error && (!present[kI010] || !present[kI140] || !present[kI020] || !present[kI040]))
    error = reason::kMissingItem;
  if (error) {
    count_error(error, start);
    return consumed;
  }
  ++stats_.records;
  out.push_back(std::move(r));
  return consumed;
}

}  // namespace sweepline::cat048
