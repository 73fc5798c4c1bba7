#pragma once
// Fabricated CAT048 plots and tracks and CAT034 service messages for the round-trip and tshark
// tests: a seeded RNG over the full range of every item we write, plus the edge values (rho 0
// and its maximum, theta just under 360, speed 0 and its maximum, track numbers 0 and 4095).
#include <cstdint>
#include <random>
#include <vector>

#include "app/asterix/cat034_record.hpp"
#include "app/asterix/cat048_record.hpp"

namespace sweepline::asterix::test {

using Bytes = std::vector<uint8_t>;

inline Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// Block header (CAT, LEN counting itself) around record bytes.
inline Bytes block(uint8_t category, const Bytes& records) {
  const size_t len = records.size() + 3;
  return cat({{category, static_cast<uint8_t>(len >> 8), static_cast<uint8_t>(len)}, records});
}

inline double uniform(std::mt19937& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}
inline int uniform_int(std::mt19937& rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

// One report: a plot, or a track (every second one) with all the track items.
inline cat048::TargetReport random_report(std::mt19937& rng, int index) {
  using namespace cat048;
  TargetReport r;
  r.sac = 25;
  r.sic = 7;
  r.tod_s = uniform(rng, 0, 86399.99);
  r.rho_nm = uniform(rng, 0, kMaxRhoNm);
  r.theta_deg = uniform(rng, 0, 360);
  r.descriptor.typ = DetectionType::SinglePsr;
  r.descriptor.sim = uniform_int(rng, 0, 3) == 0;
  r.descriptor.tst = uniform_int(rng, 0, 7) == 0;  // sometimes the extension octet
  PlotCharacteristics c;
  c.prl_deg = uniform(rng, 0, 255 * kRunLengthLsbDeg);
  c.pam_dbm = static_cast<int8_t>(uniform_int(rng, -128, 127));
  r.plot = c;
  if (index % 2 == 1) {
    r.track_number = static_cast<uint16_t>(uniform_int(rng, 0, kMaxTrackNumber));
    r.x_nm = uniform(rng, -kMaxCartesianNm, kMaxCartesianNm);
    r.y_nm = uniform(rng, -kMaxCartesianNm, kMaxCartesianNm);
    r.ground_speed_nm_s = uniform(rng, 0, 0.03);  // up to 108 kn
    r.heading_deg = uniform(rng, 0, 360);
    TrackStatus s;
    s.tentative = uniform_int(rng, 0, 1);
    s.mah = uniform_int(rng, 0, 1);
    s.tre = uniform_int(rng, 0, 9) == 0;
    r.status = s;
  }
  // Edge values on fixed indices.
  switch (index % 16) {
    case 0:
      r.rho_nm = 0;
      r.theta_deg = 0;
      break;
    case 1:
      r.theta_deg = 359.995;  // rounds up to 360: written as 0
      r.ground_speed_nm_s = 0;
      r.heading_deg = 359.999;
      r.track_number = 0;
      break;
    case 2:
      r.rho_nm = kMaxRhoNm;
      r.theta_deg = 359.99;
      break;
    case 3:
      r.track_number = kMaxTrackNumber;
      r.ground_speed_nm_s = kMaxSpeedNmPerS;
      r.x_nm = -256.0;  // the most negative value I048/042 holds
      r.y_nm = kMaxCartesianNm;
      r.tod_s = 86399.99;
      break;
    case 5:
      r.plot->prl_deg = 255 * kRunLengthLsbDeg;
      r.plot->pam_dbm = -128;
      r.status->tentative = true;
      r.status->rad = 1;
      break;
    default:
      break;
  }
  return r;
}

inline std::vector<cat048::TargetReport> random_reports(uint32_t seed, int n) {
  std::mt19937 rng(seed);
  std::vector<cat048::TargetReport> v;
  for (int i = 0; i < n; ++i) v.push_back(random_report(rng, i));
  return v;
}

// A north marker, then `sectors` sector crossings round the scan, the first carrying the radar's
// configuration, processing mode and position.
inline std::vector<cat034::ServiceMessage> service_messages(double tod_s, int sectors) {
  using namespace cat034;
  std::vector<ServiceMessage> v;
  ServiceMessage n;
  n.sac = 25;
  n.sic = 7;
  n.type = MessageType::NorthMarker;
  n.tod_s = tod_s;
  n.rotation_period_s = 2.5;
  n.status = SystemStatus{};
  n.status->psr_ch_ab = 1;
  n.mode = ProcessingMode{};
  n.mode->psr_stc = 2;
  n.mode->red_xmt = 3;
  n.position = Position{51.4779, -0.0015, 46};
  v.push_back(n);
  for (int s = 0; s < sectors; ++s) {
    ServiceMessage m;
    m.sac = 25;
    m.sic = 7;
    m.type = MessageType::SectorCrossing;
    m.sector_deg = 360.0 * s / sectors;
    m.tod_s = tod_s + 2.5 * s / sectors;
    v.push_back(m);
  }
  return v;
}

}  // namespace sweepline::asterix::test
