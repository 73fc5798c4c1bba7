// CAT048 record and block encoding (see cat048_encoder.hpp).
#include "app/asterix/cat048_encoder.hpp"

#include <string>

#include "app/asterix/asterix_fields.hpp"
#include "app/common/check.hpp"

namespace sweepline::cat048 {
namespace {

using asterix::put16;
using asterix::put24;
using asterix::put8;

// UAP field reference numbers of the items we write (edition 1.2x).
enum Frn : int {
  kI010 = 1,
  kI140 = 2,
  kI020 = 3,
  kI040 = 4,
  kI130 = 7,
  kI161 = 11,
  kI042 = 12,
  kI200 = 13,
  kI170 = 14,
};

// Every value quantised once, so that refusal and writing cannot disagree.
struct Wire {
  uint32_t tod = 0;
  uint32_t rho = 0;
  uint32_t theta = 0;
  int64_t x = 0, y = 0;
  uint32_t gsp = 0;
  uint32_t hdg = 0;
  // I048/130 subfields, as octets.
  uint8_t p130 = 0;  // primary subfield bits (SRL .. APD = 0x80 .. 0x02)
  uint8_t s130[7] = {};
};

const char* quantise(const TargetReport& r, Wire& w) {
  int64_t q = 0;
  if (!asterix::quantise_tod(r.tod_s, w.tod)) return "time of day is not finite";
  if (!asterix::quantise(r.rho_nm, kRhoLsbNm, 0, 0xFFFF, q)) return "rho out of range";
  w.rho = static_cast<uint32_t>(q);
  if (!asterix::quantise_azimuth(r.theta_deg, 16, w.theta)) return "theta is not finite";
  if (static_cast<uint8_t>(r.descriptor.typ) > 7) return "TYP over 7";
  if (r.descriptor.foe_fri > 3) return "FOE/FRI over 3";
  if (r.plot) {
    const PlotCharacteristics& c = *r.plot;
    auto sub = [&](int i, uint8_t v) {
      w.p130 |= static_cast<uint8_t>(0x80u >> i);
      w.s130[i] = v;
    };
    if (c.srl_deg) {
      if (!asterix::quantise(*c.srl_deg, kRunLengthLsbDeg, 0, 255, q)) return "SRL out of range";
      sub(0, static_cast<uint8_t>(q));
    }
    if (c.srr) sub(1, *c.srr);
    if (c.sam_dbm) sub(2, static_cast<uint8_t>(*c.sam_dbm));
    if (c.prl_deg) {
      if (!asterix::quantise(*c.prl_deg, kRunLengthLsbDeg, 0, 255, q)) return "PRL out of range";
      sub(3, static_cast<uint8_t>(q));
    }
    if (c.pam_dbm) sub(4, static_cast<uint8_t>(*c.pam_dbm));
    if (c.rpd_nm) {
      if (!asterix::quantise(*c.rpd_nm, kRangeDiffLsbNm, -128, 127, q)) return "RPD out of range";
      sub(5, static_cast<uint8_t>(q));
    }
    if (c.apd_deg) {
      if (!asterix::quantise(*c.apd_deg, kAzimuthDiffLsbDeg, -128, 127, q))
        return "APD out of range";
      sub(6, static_cast<uint8_t>(q));
    }
  }
  if (r.track_number && *r.track_number > kMaxTrackNumber) return "track number over 4095";
  if (r.x_nm.has_value() != r.y_nm.has_value()) return "x and y must be given together";
  if (r.x_nm) {
    if (!asterix::quantise(*r.x_nm, kCartesianLsbNm, -32768, 32767, w.x)) return "x out of range";
    if (!asterix::quantise(*r.y_nm, kCartesianLsbNm, -32768, 32767, w.y)) return "y out of range";
  }
  if (r.ground_speed_nm_s.has_value() != r.heading_deg.has_value())
    return "ground speed and heading must be given together";
  if (r.ground_speed_nm_s) {
    if (!asterix::quantise(*r.ground_speed_nm_s, kSpeedLsbNmPerS, 0, 0xFFFF, q))
      return "ground speed out of range";
    w.gsp = static_cast<uint32_t>(q);
    if (!asterix::quantise_azimuth(*r.heading_deg, 16, w.hdg)) return "heading is not finite";
  }
  if (r.status && (r.status->rad > 3 || r.status->cdm > 3)) return "track status RAD/CDM over 3";
  return nullptr;
}

bool descriptor_extension(const Descriptor& d) {
  return d.extension || d.tst || d.err || d.xpp || d.me || d.mi || d.foe_fri;
}
bool status_extension(const TrackStatus& s) {
  return s.extension || s.tre || s.gho || s.sup || s.tcc;
}

void write_record(const TargetReport& r, const Wire& w, std::vector<uint8_t>& out) {
  asterix::FspecBuilder fs;
  fs.set(kI010);
  fs.set(kI140);
  fs.set(kI020);
  fs.set(kI040);
  if (w.p130) fs.set(kI130);  // plot characteristics without a subfield: no item at all
  if (r.track_number) fs.set(kI161);
  if (r.x_nm) fs.set(kI042);
  if (r.ground_speed_nm_s) fs.set(kI200);
  if (r.status) fs.set(kI170);
  fs.write(out);

  // Items in FRN order.
  put8(out, r.sac);
  put8(out, r.sic);
  put24(out, w.tod);
  const Descriptor& d = r.descriptor;
  const bool ext = descriptor_extension(d);
  put8(out, (static_cast<uint32_t>(d.typ) << 5) | (d.sim ? 0x10u : 0) | (d.rdp ? 0x08u : 0) |
                (d.spi ? 0x04u : 0) | (d.rab ? 0x02u : 0) | (ext ? 1u : 0));
  if (ext)
    put8(out, (d.tst ? 0x80u : 0) | (d.err ? 0x40u : 0) | (d.xpp ? 0x20u : 0) | (d.me ? 0x10u : 0) |
                  (d.mi ? 0x08u : 0) | (uint32_t{d.foe_fri} << 1));
  put16(out, w.rho);
  put16(out, w.theta);
  if (w.p130) {
    put8(out, w.p130);
    for (int i = 0; i < 7; ++i)
      if (w.p130 & (0x80u >> i)) put8(out, w.s130[i]);
  }
  if (r.track_number) put16(out, *r.track_number);
  if (r.x_nm) {
    put16(out, static_cast<uint32_t>(w.x) & 0xFFFFu);
    put16(out, static_cast<uint32_t>(w.y) & 0xFFFFu);
  }
  if (r.ground_speed_nm_s) {
    put16(out, w.gsp);
    put16(out, w.hdg);
  }
  if (r.status) {
    const TrackStatus& s = *r.status;
    const bool sext = status_extension(s);
    put8(out, (s.tentative ? 0x80u : 0) | (uint32_t{s.rad} << 5) | (s.dou ? 0x10u : 0) |
                  (s.mah ? 0x08u : 0) | (uint32_t{s.cdm} << 1) | (sext ? 1u : 0));
    if (sext)
      put8(out,
           (s.tre ? 0x80u : 0) | (s.gho ? 0x40u : 0) | (s.sup ? 0x20u : 0) | (s.tcc ? 0x10u : 0));
  }
}

// The largest record we write: FSPEC 2, 010 2, 140 3, 020 2, 040 4, 130 8, 161 2, 042 4, 200 4,
// 170 2.
constexpr size_t kMaxRecordBytes = 33;

}  // namespace

const char* encode_refusal(const TargetReport& report) {
  Wire w;
  return quantise(report, w);
}

void append_record(const TargetReport& report, std::vector<uint8_t>& out) {
  Wire w;
  const char* why = quantise(report, w);
  SWL_CHECK(!why, std::string("CAT048 encode: ") + why);
  write_record(report, w, out);
}

void append_block(std::span<const TargetReport> reports, std::vector<uint8_t>& out) {
  asterix::append_data_block(
      kCategory, "CAT048 encode", reports,
      [](const TargetReport& r, std::vector<uint8_t>& o) { append_record(r, o); }, out);
}

std::vector<uint8_t> encode_block(std::span<const TargetReport> reports) {
  std::vector<uint8_t> out;
  append_block(reports, out);
  return out;
}

std::vector<std::vector<uint8_t>> encode_datagrams(std::span<const TargetReport> reports,
                                                   size_t max_block_bytes, size_t* refused) {
  SWL_CHECK(max_block_bytes >= 3 + kMaxRecordBytes && max_block_bytes <= 0xFFFF,
            "CAT048 encode: max_block_bytes must be 36..65535");
  std::vector<std::vector<uint8_t>> blocks;
  std::vector<uint8_t> record;
  size_t bad = 0;
  auto close = [&](std::vector<uint8_t>& b) {
    b[1] = static_cast<uint8_t>(b.size() >> 8);
    b[2] = static_cast<uint8_t>(b.size());
  };
  for (const TargetReport& r : reports) {
    Wire w;
    if (quantise(r, w)) {
      ++bad;
      continue;
    }
    record.clear();
    write_record(r, w, record);
    if (blocks.empty() || blocks.back().size() + record.size() > max_block_bytes) {
      if (!blocks.empty()) close(blocks.back());
      blocks.emplace_back(std::vector<uint8_t>{kCategory, 0, 0});
    }
    blocks.back().insert(blocks.back().end(), record.begin(), record.end());
  }
  if (!blocks.empty()) close(blocks.back());
  if (refused) *refused = bad;
  return blocks;
}

}  // namespace sweepline::cat048
