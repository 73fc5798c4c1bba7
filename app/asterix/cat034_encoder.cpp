// CAT034 record and block encoding (see cat034_encoder.hpp).
#include "app/asterix/cat034_encoder.hpp"

#include <cmath>
#include <string>

#include "app/asterix/asterix_fields.hpp"
#include "app/common/check.hpp"

namespace sweepline::cat034 {
namespace {

using asterix::put16;
using asterix::put24;
using asterix::put8;

enum Frn : int {
  kI010 = 1,
  kI000 = 2,
  kI030 = 3,
  kI020 = 4,
  kI041 = 5,
  kI050 = 6,
  kI060 = 7,
  kI120 = 11,
};

struct Wire {
  uint32_t tod = 0;
  uint32_t sector = 0;
  int64_t rotation = 0;
  int64_t lat = 0, lon = 0, height = 0;
};

const char* quantise(const ServiceMessage& m, Wire& w) {
  const auto type = static_cast<int>(m.type);
  if (type < 1 || type > 4) return "message type not 1..4";
  if (!asterix::quantise_tod(m.tod_s, w.tod)) return "time of day is not finite";
  if (m.type == MessageType::SectorCrossing && !m.sector_deg)
    return "a sector crossing needs a sector";
  if (m.sector_deg && !asterix::quantise_azimuth(*m.sector_deg, 8, w.sector))
    return "sector is not finite";
  if (m.rotation_period_s &&
      !asterix::quantise(*m.rotation_period_s, kRotationLsbS, 0, 0xFFFF, w.rotation))
    return "rotation period out of range";
  if (m.status && m.status->psr_ch_ab > 3) return "PSR CH-A/B over 3";
  if (m.mode && (m.mode->red_rdp > 7 || m.mode->red_xmt > 7 || m.mode->psr_red_rad > 7 ||
                 m.mode->psr_stc > 3))
    return "processing mode field out of range";
  if (m.position) {
    const Position& p = *m.position;
    if (!asterix::quantise(p.lat_deg, kLatLonLsbDeg, -(1 << 22), 1 << 22, w.lat))
      return "latitude outside -90..90";
    if (!std::isfinite(p.lon_deg)) return "longitude is not finite";
    double lon = std::fmod(p.lon_deg, 360.0);
    if (lon >= 180.0) lon -= 360.0;
    if (lon < -180.0) lon += 360.0;
    if (!asterix::quantise(lon, kLatLonLsbDeg, -(1 << 23), (1 << 23), w.lon))
      return "longitude is not finite";
    if (w.lon == (1 << 23)) w.lon = -(1 << 23);  // 180 E rounds to 180 W
    if (!asterix::quantise(p.height_m, kHeightLsbM, -32768, 32767, w.height))
      return "height out of range";
  }
  return nullptr;
}

void write_record(const ServiceMessage& m, const Wire& w, std::vector<uint8_t>& out) {
  asterix::FspecBuilder fs;
  fs.set(kI010);
  fs.set(kI000);
  fs.set(kI030);
  if (m.sector_deg) fs.set(kI020);
  if (m.rotation_period_s) fs.set(kI041);
  if (m.status) fs.set(kI050);
  if (m.mode) fs.set(kI060);
  if (m.position) fs.set(kI120);
  fs.write(out);

  put8(out, m.sac);
  put8(out, m.sic);
  put8(out, static_cast<uint32_t>(m.type));
  put24(out, w.tod);
  if (m.sector_deg) put8(out, w.sector);
  if (m.rotation_period_s) put16(out, static_cast<uint32_t>(w.rotation));
  if (m.status) {
    const SystemStatus& s = *m.status;
    put8(out, 0x80u | (s.has_psr ? 0x10u : 0));  // COM, PSR
    put8(out, (s.nogo ? 0x80u : 0) | (s.rdpc ? 0x40u : 0) | (s.rdpr ? 0x20u : 0) |
                  (s.ovl_rdp ? 0x10u : 0) | (s.ovl_xmt ? 0x08u : 0) | (s.msc ? 0x04u : 0) |
                  (s.tsv ? 0x02u : 0));
    if (s.has_psr)
      put8(out, (s.psr_ant ? 0x80u : 0) | (uint32_t{s.psr_ch_ab} << 5) | (s.psr_ovl ? 0x10u : 0) |
                    (s.psr_msc ? 0x08u : 0));
  }
  if (m.mode) {
    const ProcessingMode& pm = *m.mode;
    put8(out, 0x80u | (pm.has_psr ? 0x10u : 0));
    put8(out, (uint32_t{pm.red_rdp} << 4) | (uint32_t{pm.red_xmt} << 1));
    if (pm.has_psr)
      put8(out, (pm.psr_pol ? 0x80u : 0) | (uint32_t{pm.psr_red_rad} << 4) |
                    (uint32_t{pm.psr_stc} << 2));
  }
  if (m.position) {
    put16(out, static_cast<uint32_t>(w.height) & 0xFFFFu);
    put24(out, static_cast<uint32_t>(w.lat) & 0xFFFFFFu);
    put24(out, static_cast<uint32_t>(w.lon) & 0xFFFFFFu);
  }
}

}  // namespace

const char* encode_refusal(const ServiceMessage& message) {
  Wire w;
  return quantise(message, w);
}

void append_record(const ServiceMessage& message, std::vector<uint8_t>& out) {
  Wire w;
  const char* why = quantise(message, w);
  SWL_CHECK(!why, std::string("CAT034 encode: ") + why);
  write_record(message, w, out);
}

void append_block(std::span<const ServiceMessage> messages, std::vector<uint8_t>& out) {
  asterix::append_data_block(
      kCategory, "CAT034 encode", messages,
      [](const ServiceMessage& m, std::vector<uint8_t>& o) { append_record(m, o); }, out);
}

std::vector<uint8_t> encode_block(std::span<const ServiceMessage> messages) {
  std::vector<uint8_t> out;
  append_block(messages, out);
  return out;
}

}  // namespace sweepline::cat034
