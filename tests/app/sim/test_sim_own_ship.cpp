// The moving own ship: the scenes without one unchanged to the byte, the own ship's motion and
// manoeuvres, the video seen from it (relative to its heading), its truth lines and its NMEA.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/common/check.hpp"
#include "app/nav/nmea_parser.hpp"
#include "app/sim/own_ship.hpp"
#include "app/sim/scene.hpp"
#include "app/sim/sim_run.hpp"
#include "tests/app/sim/sim_test_util.hpp"

namespace sweepline::sim {
namespace {

using simtest::temp_path;

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180;
constexpr double kKnot = 1852.0 / 3600.0;

uint64_t fnv(uint64_t h, const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < n; ++i) {
    h ^= b[i];
    h *= 0x100000001B3ull;
  }
  return h;
}

double wrap180(double d) {
  d = std::fmod(d, 360.0);
  if (d < -180) d += 360;
  if (d >= 180) d -= 360;
  return d;
}

// The pre-existing scenes (no own ship) render the same bytes and truth as before own-ship
// motion existed: detection is tuned and golden images are made on them. The digests were
// taken from the code before the change (seed 3, three rotations, default radar).
TEST(SimOwnShip, ScenesWithoutOwnShipUnchanged) {
  struct Ref {
    const char* name;
    uint64_t video, truth;
  };
  const Ref refs[] = {
      {"harbour", 0x37d620989ce81612ull, 0xe1b2e8a440daa7afull},
      {"open-sea", 0x24f3a4ab413b5543ull, 0x0fed2d9efb61345dull},
      {"stress", 0xcf8d0f8fc61ec45full, 0xa363d662396583d7ull},
      {"vessels50", 0x9302dd36a60bbf7full, 0xaf3d0d7af80ebf0dull},
      {"vessels1869", 0xa4ca9d9d96dd663dull, 0x2b9837bfeaa3976aull},
  };
  for (const Ref& ref : refs) {
    Scenario s = make_scenario(ref.name);
    s.seed = 3;
    Scene scene(s);
    uint64_t hv = 0xCBF29CE484222325ull, ht = hv;
    std::vector<uint8_t> rot;
    for (int r = 0; r < 3; ++r) {
      if (r) scene.next_rotation();
      scene.render_rotation(rot);
      hv = fnv(hv, rot.data(), rot.size());
      for (const VesselTruth& t : scene.truth()) {
        const std::string j = truth_json(t);
        ht = fnv(ht, j.data(), j.size());
      }
    }
    EXPECT_EQ(hv, ref.video) << ref.name << ": video changed";
    EXPECT_EQ(ht, ref.truth) << ref.name << ": truth changed";
  }
}

TEST(SimOwnShip, DisabledStaysAtTheOrigin) {
  OwnShipConfig c;
  c.speed_kn = 20;  // ignored while disabled
  OwnShipTrack track(c);
  const OwnState o = track.at(100);
  EXPECT_EQ(o.x_m, 0);
  EXPECT_EQ(o.y_m, 0);
  EXPECT_EQ(o.heading_deg, 0);
  EXPECT_EQ(o.speed_mps, 0);
}

TEST(SimOwnShip, SailsCourseAndSpeed) {
  Scenario s = make_scenario("open-sea");
  apply_param(s, "own_course", "60");
  apply_param(s, "own_speed", "15");
  apply_param(s, "own_x", "100");
  ASSERT_TRUE(s.own.enabled);
  Scene scene(s);
  const int n = 12;
  for (int i = 0; i < n; ++i) scene.next_rotation();
  const OwnState o = scene.own_truth().state;
  const double d = 15 * kKnot * n * s.radar.period_s();
  EXPECT_NEAR(o.t_s, n * 2.5, 1e-9);
  EXPECT_NEAR(o.x_m, 100 + d * std::sin(60 * kDeg), 1e-6);
  EXPECT_NEAR(o.y_m, d * std::cos(60 * kDeg), 1e-6);
  EXPECT_NEAR(o.heading_deg, 60, 1e-9);
  EXPECT_NEAR(o.speed_mps, 15 * kKnot, 1e-12);
}

TEST(SimOwnShip, TurnsAtTheCommandedRate) {
  OwnShipConfig c;
  c.enabled = true;
  c.speed_kn = 12;
  c.course_deg = 0;
  c.heading_deg = 5;  // crabbing 5 deg to starboard of the course, kept through the turn
  Manoeuvre m;
  m.at_s = 10.05;  // between two integration steps: starts on time all the same
  m.course_deg = 90;
  m.turn_dpm = 45;
  c.manoeuvres.push_back(m);
  OwnShipTrack track(c);
  EXPECT_NEAR(track.at(10.05).course_deg, 0, 1e-9);
  EXPECT_NEAR(track.at(10.05 + 40).course_deg, 30, 1e-9);  // 45 deg/min for 40 s
  EXPECT_NEAR(track.at(10.05 + 40).heading_deg, 35, 1e-9);
  EXPECT_NEAR(track.at(10.05 + 120).course_deg, 90, 1e-9);
  EXPECT_NEAR(track.at(500).course_deg, 90, 1e-9);
  // Along the arc: radius v / w, from (0, v t0) to a quarter circle east.
  const double v = 12 * kKnot, w = 45.0 / 60 * kDeg, R = v / w;
  const OwnState end = track.at(10.05 + 120);
  EXPECT_NEAR(end.x_m, R, 0.01);
  EXPECT_NEAR(end.y_m, v * 10.05 + R, 0.01);
  // A port turn goes the short way round.
  c.manoeuvres[0].course_deg = 300;
  OwnShipTrack port(c);
  EXPECT_NEAR(port.at(10.05 + 40).course_deg, 330, 1e-9);
}

TEST(SimOwnShip, ChangesSpeedAtTheCommandedRate) {
  Scenario s;
  apply_param(s, "own_speed", "10");
  apply_param(s, "own_accel", "5:4:2");  // at 5 s to 4 kn at 2 kn/min
  OwnShipTrack track(s.own);
  EXPECT_NEAR(track.at(5).speed_mps, 10 * kKnot, 1e-12);
  EXPECT_NEAR(track.at(65).speed_mps, 8 * kKnot, 1e-9);
  EXPECT_NEAR(track.at(300).speed_mps, 4 * kKnot, 1e-9);
  // Distance over the deceleration: the mean speed (7 kn) for 3 minutes, after 5 s at 10 kn.
  EXPECT_NEAR(track.at(185).y_m, 10 * kKnot * 5 + 7 * kKnot * 180, 0.01);
}

TEST(SimOwnShip, ParamsAreChecked) {
  Scenario s;
  EXPECT_THROW(apply_param(s, "own_turn", "10:90"), sweepline::Error);
  EXPECT_THROW(apply_param(s, "own_turn", "10:90:0"), sweepline::Error);
  EXPECT_THROW(apply_param(s, "own_accel", "a:1:1"), sweepline::Error);
  EXPECT_THROW(apply_param(s, "own_nothing", "1"), sweepline::Error);
  EXPECT_THROW(apply_param(s, "target", "1:2:3"), sweepline::Error);
  apply_param(s, "own_speed", "500");
  EXPECT_THROW(validate(s), sweepline::Error);
}

// The video seen from a moving own ship: a target still over ground shows at its range and at
// its bearing from the bow (the heading differs from the course here), at the moment the beam
// passes it.
TEST(SimOwnShip, StillTargetSeenFromMovingOwnShip) {
  Scenario s = make_scenario("vessels50");
  s.vessels.count = 0;
  s.noise.mean = 8;
  s.radar.radials = 2048;
  s.radar.cells = 2048;
  s.radar.range_nm = 3;
  apply_param(s, "own_speed", "20");
  apply_param(s, "own_heading", "30");
  RelativeTarget t;  // 3 km due east at the start, relative motion = minus own ship's: still
  t.range_m = 3000;
  t.bearing_deg = 90;
  t.rel_course_deg = 180;
  t.rel_speed_kn = 20;
  t.length_m = 10;
  s.targets = {t};
  Scene scene(s);
  const uint64_t rot = 8;
  scene.seek(rot);
  const auto truth = scene.truth();
  ASSERT_EQ(truth.size(), 1u);
  EXPECT_NEAR(truth[0].x_m, 3000, 1e-6);
  EXPECT_NEAR(truth[0].y_m, 0, 1e-6);
  EXPECT_NEAR(truth[0].speed_mps, 0, 1e-9);
  const double v = 20 * kKnot, t0 = rot * s.radar.period_s();
  EXPECT_NEAR(truth[0].range_m, std::hypot(3000, v * t0), 1e-6);

  // Where the beam meets it: own ship at (0, v t), azimuth from the bow = bearing - 30.
  double ts = t0, range = 0, az = 0;
  for (int i = 0; i < 5; ++i) {
    range = std::hypot(3000, v * ts);
    az = std::atan2(3000, -v * ts) / kDeg - 30;
    ts = t0 + s.radar.period_s() * az / 360;
  }
  std::vector<uint8_t> video;
  scene.render_rotation(video);
  const int cells = s.radar.cells;
  double sw = 0, sa = 0, sr = 0;
  for (int a = 0; a < s.radar.radials; ++a)
    for (int c = 0; c < cells; ++c) {
      const double p = video[size_t(a) * size_t(cells) + size_t(c)];
      if (p < 120) continue;
      sw += p;
      sa += p * (a + 0.5);
      sr += p * (c + 0.5);
    }
  ASSERT_GT(sw, 0) << "no echo";
  EXPECT_NEAR(sa / sw * s.radar.radial_deg(), az, 0.1);
  EXPECT_NEAR(sr / sw * s.radar.cell_m(), range, s.radar.cell_m());
}

TEST(SimOwnShip, TruthOwnLinesParse) {
  SimRunOptions o;
  o.scenario = make_scenario("imo3");
  o.rotations = 3;
  o.truth_path = temp_path("imo3.truth.jsonl");
  o.speed = 0;
  const SimProgress p = run_simulation(o);
  EXPECT_EQ(p.truth_lines, 6u);
  std::ifstream f(o.truth_path);
  int own = 0, vessels = 0;
  for (std::string line; std::getline(f, line);) {
    const auto j = nlohmann::json::parse(line);
    if (j.value("own", false)) {
      EXPECT_EQ(j.at("rotation").get<int>(), own);
      EXPECT_NEAR(j.at("time_s").get<double>(), own * 2.5, 1e-9);
      EXPECT_NEAR(j.at("y_m").get<double>(), 5 * kKnot * own * 2.5, 0.01);
      EXPECT_EQ(j.at("heading_deg").get<double>(), 0);
      EXPECT_EQ(j.at("course_deg").get<double>(), 0);
      EXPECT_NEAR(j.at("speed_mps").get<double>(), 5 * kKnot, 1e-3);
      EXPECT_NEAR(j.at("lat_deg").get<double>(), 50, 1e-3);
      EXPECT_NEAR(j.at("lon_deg").get<double>(), -1, 1e-9);
      EXPECT_EQ(j.at("x_m").get<double>(), 0);
      ++own;
    } else {
      EXPECT_EQ(j.at("id").get<int>(), 0);
      ++vessels;
    }
  }
  EXPECT_EQ(own, 3);
  EXPECT_EQ(vessels, 3);
  EXPECT_EQ(simtest::read_truth(o.truth_path).size(), 3u);  // vessel readers skip own lines
}

TEST(SimOwnShip, NmeaFileParses) {
  SimRunOptions o;
  o.scenario = make_scenario("imo4");
  o.rotations = 4;  // 10 s: updates at 0..9 s
  o.nmea_path = temp_path("imo4.nmea");
  o.speed = 0;
  const SimProgress p = run_simulation(o);
  EXPECT_EQ(p.nmea_updates, 10u);
  std::ifstream f(o.nmea_path, std::ios::binary);
  nav::NmeaParser parser;
  std::vector<nav::NmeaSentence> got;
  for (std::string line; std::getline(f, line);) {
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.back(), '\r');
    if (auto s = parser.parse(line)) got.push_back(*s);
  }
  EXPECT_EQ(parser.counters().refused_total(), 0u);
  ASSERT_EQ(got.size(), 40u);
  double heading_sum = 0, sog_sum = 0;
  int headings = 0, sogs = 0;
  for (const auto& s : got) {
    if (s.type == nav::NmeaType::Rmc) {
      ASSERT_TRUE(s.date && s.utc_s_of_day && s.lat_deg && s.sog_kn);
      EXPECT_EQ(s.date->year, 2026);
      EXPECT_EQ(s.date->month, 1);
      EXPECT_EQ(s.date->day, 1);
      EXPECT_NEAR(*s.utc_s_of_day, 12 * 3600 + sogs, 1e-6);
      EXPECT_NEAR(*s.lon_deg, -1, 1e-7);
      EXPECT_NEAR(*s.lat_deg, 50 + 25 * kKnot * sogs / 111200.0, 2e-6);
      sog_sum += *s.sog_kn;
      ++sogs;
    }
    if (s.type == nav::NmeaType::Hdt) {
      heading_sum += wrap180(*s.heading_deg);
      ++headings;
    }
  }
  // The gyro's calibration error is in what is sent; RMC/VTG carry the GNSS speed over ground,
  // not the log's biased speed through water.
  EXPECT_NEAR(heading_sum / headings, 0.5, 0.12);
  EXPECT_NEAR(sog_sum / sogs, 25.0, 0.02);
}

}  // namespace
}  // namespace sweepline::sim
