// The radar target sentences TTM, TLL and OSD: exact layout, rounding and wrap at field
// boundaries, refusals, and an independent check: a test-only Python reader written to the NMEA
// 0183 field tables (tests/app/nav/nmea_target_check.py) must accept every sentence of a busy
// scene (checksum, length, field count and types) and read back the values we meant.
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "app/common/check.hpp"
#include "app/nav/nmea_writer.hpp"
#include "tests/support/run_command.hpp"

namespace sweepline::nav {
namespace {

std::string without_checksum(const std::string& s) {
  return s.substr(0, s.rfind('*'));
}

TrackedTarget sample_target() {
  TrackedTarget t;
  t.number = 7;
  t.distance = 3.456;
  t.bearing_deg = 123.45;
  t.speed = 12.3;
  t.course_deg = 270.04;
  t.cpa_distance = 0.25;
  t.tcpa_min = -4.26;
  t.name = "TGT7";
  t.utc_s_of_day = 12 * 3600 + 34 * 60 + 56.789;
  return t;
}

TEST(NmeaTargets, TtmLayout) {
  const std::string s = format_ttm(sample_target());
  EXPECT_EQ(without_checksum(s),
            "$RATTM,07,3.46,123.5,T,12.30,270.0,T,0.25,-4.3,N,TGT7,T,,123456.79,A");
  TrackedTarget t = sample_target();
  t.number = 123;
  t.bearing_true = false;
  t.course_true = false;
  t.units = NmeaUnits::Kilometres;
  t.status = TargetStatus::Lost;
  t.reference = true;
  t.has_utc = false;
  t.acquisition = 'M';
  t.name.clear();
  EXPECT_EQ(without_checksum(format_ttm(t, "AR")),
            "$ARTTM,123,3.46,123.5,R,12.30,270.0,R,0.25,-4.3,K,,L,R,,M");
}

TEST(NmeaTargets, TllAndOsdLayout) {
  TargetPosition p;
  p.number = 42;
  p.lat_deg = -33.8568;
  p.lon_deg = 151.2153;
  p.name = "FERRY";
  p.utc_s_of_day = 3600;
  p.status = TargetStatus::Query;
  EXPECT_EQ(without_checksum(format_tll(p)),
            "$RATLL,42,3351.40800,S,15112.91800,E,FERRY,010000.00,Q,");
  OwnShipData o;
  o.heading_deg = 359.96;  // rounds to 360.0: written 0.0
  o.course_deg = 12.34;
  o.speed = 8.5;
  o.set_deg = 90;
  o.drift = 0.7;
  o.course_ref = 'B';
  o.speed_ref = 'W';
  EXPECT_EQ(without_checksum(format_osd(o)), "$RAOSD,0.0,A,12.3,B,8.50,W,90.0,0.70,N");
}

TEST(NmeaTargets, WrapClampAndRefusals) {
  TrackedTarget t = sample_target();
  t.bearing_deg = -0.04;  // wraps to 359.96 -> rounds to 0.0
  t.course_deg = 720.5;
  t.distance = NAN;
  t.speed = 1e9;
  t.tcpa_min = -1e9;
  const std::string s = format_ttm(t);
  EXPECT_NE(s.find(",0.00,0.0,T,999.99,0.5,T,"), std::string::npos) << s;
  EXPECT_NE(s.find(",-999.9,"), std::string::npos) << s;
  t = sample_target();
  t.name = "A,B";
  EXPECT_THROW(format_ttm(t), Error);
  t.name = std::string(21, 'x');
  EXPECT_THROW(format_ttm(t), Error);
  t = sample_target();
  t.number = 1000;
  EXPECT_THROW(format_ttm(t), Error);
  t = sample_target();
  t.acquisition = 'X';
  EXPECT_THROW(format_ttm(t), Error);
  EXPECT_THROW(format_ttm(sample_target(), "R"), Error);
  OwnShipData o;
  o.course_ref = 'Z';
  EXPECT_THROW(format_osd(o), Error);
  TargetPosition p;
  p.lat_deg = 91;
  EXPECT_THROW(format_tll(p), Error);
}

TEST(NmeaTargets, LongestTtmKeepsWithin82CharactersByShorteningTheName) {
  TrackedTarget t = sample_target();
  t.number = 999;
  t.distance = t.speed = t.cpa_distance = 999.99;
  t.bearing_deg = t.course_deg = 359.9;
  t.tcpa_min = -999.9;
  t.reference = true;
  t.name = std::string(20, 'N');
  const std::string s = format_ttm(t);
  EXPECT_LE(s.size(), 82u);
  EXPECT_NE(s.find(",N,NNNN"), std::string::npos) << s;  // a shortened name, not none
  t = sample_target();
  t.name = "TWELVE CHARS";  // room for 13 with these numbers
  EXPECT_NE(format_ttm(t).find(",TWELVE CHARS,"), std::string::npos);
}

TEST(NmeaTargets, AnIndependentReaderAcceptsEverySentenceWithTheValuesWeMeant) {
  if (!sweepline::test::have_program("python3")) GTEST_SKIP() << "python3 is not installed";
  std::mt19937 rng(183);
  auto u = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  const std::vector<std::string> names = {"", "PILOT", "", "T12", "FERRY 3"};
  std::vector<TrackedTarget> ttm;
  std::vector<TargetPosition> tll;
  std::string all;
  for (int i = 0; i < 300; ++i) {
    TrackedTarget t;
    t.number = i % 100;
    t.distance = u(0, 48);
    t.bearing_deg = i == 0 ? 359.97 : u(0, 360);
    t.speed = i == 1 ? 0 : u(0, 40);
    t.course_deg = u(0, 360);
    t.cpa_distance = u(0, 10);
    t.tcpa_min = u(-60, 60);
    t.status = i % 7 == 0 ? TargetStatus::Query : TargetStatus::Tracking;
    t.name = names[static_cast<size_t>(i) % names.size()];
    t.utc_s_of_day = u(0, 86399.99);
    ttm.push_back(t);
    all += format_ttm(t);
    TargetPosition p;
    p.number = t.number;
    p.lat_deg = u(-89.9, 89.9);
    p.lon_deg = u(-180, 180);
    p.name = t.name;
    p.utc_s_of_day = t.utc_s_of_day;
    p.status = t.status;
    tll.push_back(p);
    all += format_tll(p);
  }
  OwnShipData own;
  own.heading_deg = 45.3;
  own.course_deg = 47.1;
  own.speed = 14.2;
  all += format_osd(own);

  const auto dir = std::filesystem::temp_directory_path() /
                   ("sweepline_nmea_targets_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "targets.nmea";
  std::ofstream(file, std::ios::binary) << all;
  const auto r =
      sweepline::test::run_command("python3 '" + std::string(SWEEPLINE_SOURCE_DIR) +
                                   "/tests/app/nav/nmea_target_check.py' '" + file.string() + "'");
  std::filesystem::remove_all(dir);
  EXPECT_EQ(r.status, 0) << r.output.substr(0, 2000);

  std::istringstream lines(r.output);
  std::string line;
  size_t n_ttm = 0, n_tll = 0, n_osd = 0;
  while (std::getline(lines, line)) {
    const auto j = nlohmann::json::parse(line);
    ASSERT_FALSE(j.contains("error")) << line;
    const std::string type = j["type"];
    if (type == "TTM") {
      const TrackedTarget& t = ttm.at(n_ttm++);
      EXPECT_EQ(j["number"], t.number);
      EXPECT_NEAR(j["distance"].get<double>(), t.distance, 0.005 + 1e-9);
      EXPECT_LE(std::fabs(std::remainder(j["bearing"].get<double>() - t.bearing_deg, 360.0)),
                0.05 + 1e-9);
      EXPECT_NEAR(j["speed"].get<double>(), t.speed, 0.005 + 1e-9);
      EXPECT_LE(std::fabs(std::remainder(j["course"].get<double>() - t.course_deg, 360.0)),
                0.05 + 1e-9);
      EXPECT_NEAR(j["cpa"].get<double>(), t.cpa_distance, 0.005 + 1e-9);
      EXPECT_NEAR(j["tcpa"].get<double>(), t.tcpa_min, 0.05 + 1e-9);
      EXPECT_EQ(j["name"], t.name);
      EXPECT_EQ(j["status"], std::string(1, static_cast<char>(t.status)));
      EXPECT_NEAR(j["utc"].get<double>(), t.utc_s_of_day, 0.005 + 1e-9);
      EXPECT_EQ(j["units"], "N");
    } else if (type == "TLL") {
      const TargetPosition& p = tll.at(n_tll++);
      EXPECT_EQ(j["number"], p.number);
      // 1e-5 minutes of arc.
      EXPECT_NEAR(j["lat"].get<double>(), p.lat_deg, 1e-5 / 60 / 2 + 1e-12);
      EXPECT_NEAR(j["lon"].get<double>(), p.lon_deg, 1e-5 / 60 / 2 + 1e-12);
      EXPECT_EQ(j["name"], p.name);
    } else {
      ASSERT_EQ(type, "OSD");
      ++n_osd;
      EXPECT_NEAR(j["heading"].get<double>(), 45.3, 1e-9);
      EXPECT_NEAR(j["course"].get<double>(), 47.1, 1e-9);
      EXPECT_NEAR(j["speed"].get<double>(), 14.2, 1e-9);
      EXPECT_EQ(j["status"], "A");
    }
  }
  EXPECT_EQ(n_ttm, ttm.size());
  EXPECT_EQ(n_tll, tll.size());
  EXPECT_EQ(n_osd, 1u);
}

TEST(NmeaTargets, TheIndependentReaderRejectsABadChecksumAndAMissingField) {
  if (!sweepline::test::have_program("python3")) GTEST_SKIP() << "python3 is not installed";
  std::string good = format_ttm(sample_target());
  std::string bad_sum = good;
  bad_sum[bad_sum.size() - 3] = bad_sum[bad_sum.size() - 3] == '0' ? '1' : '0';
  const std::string short_body = "RATTM,07,3.46,123.5,T,12.30,270.0,T,0.25,-4.3,N,,T,,A";
  const auto dir =
      std::filesystem::temp_directory_path() / ("sweepline_nmea_bad_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string script =
      "python3 '" + std::string(SWEEPLINE_SOURCE_DIR) + "/tests/app/nav/nmea_target_check.py' '";
  for (const std::string& s : {bad_sum, nmea_sentence(short_body)}) {
    std::ofstream(dir / "bad.nmea", std::ios::binary) << s;
    const auto r = sweepline::test::run_command(script + (dir / "bad.nmea").string() + "'");
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("error"), std::string::npos);
  }
  std::ofstream(dir / "good.nmea", std::ios::binary) << good;
  EXPECT_EQ(sweepline::test::run_command(script + (dir / "good.nmea").string() + "'").status, 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sweepline::nav
