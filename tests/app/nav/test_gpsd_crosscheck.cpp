// The writer checked by an independent NMEA implementation: gpsd (through gpsfake, which feeds a
// log to a private gpsd over a pseudo-terminal and prints its JSON reports) must read back the
// positions, speeds, courses and headings that were written. Skips with the reason when gpsd's
// tools are not installed (Debian: apt-get install gpsd gpsd-clients).
//
// gpsd 3.22 drops sentences from the gyro talker "HE" (its packet lexer knows HC but not HE) and
// ignores THS, so the headings go out as IIHDT here; docs/navigation.md says so for operators.
#include <gtest/gtest.h>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "app/nav/nmea_writer.hpp"

namespace sweepline::nav {
namespace {

constexpr double kMpsPerKnot = 1852.0 / 3600.0;

bool have_program(const std::string& name) {
  return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0;
}

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  pclose(p);
  return out;
}

double angle_diff(double a, double b) {
  return std::fabs(std::remainder(a - b, 360.0));
}

// "2024-03-23T01:00:07.500Z" -> seconds of the day.
double seconds_of_day(const std::string& iso) {
  const auto t = iso.find('T');
  if (t == std::string::npos || iso.size() < t + 9) return -1;
  return std::stoi(iso.substr(t + 1, 2)) * 3600.0 + std::stoi(iso.substr(t + 4, 2)) * 60.0 +
         std::stod(iso.substr(t + 7));
}

TEST(GpsdCrossCheck, GpsdReadsWhatTheWriterWrites) {
  if (!have_program("gpsfake") || !have_program("gpsd"))
    GTEST_SKIP() << "gpsd's gpsfake is not installed (Debian: apt-get install gpsd gpsd-clients)";

  std::mt19937 rng(62388);
  std::uniform_real_distribution<double> lat(-80, 80), lon(-180, 180), ang(0, 360), sog(0, 40);
  std::vector<NavFix> fixes;
  std::string log = "# Sweepline's NMEA writer, read back by gpsd\n";
  for (int i = 0; i < 24; ++i) {
    NavFix f;
    f.utc_s_of_day = 3600 + i + 0.5;
    f.year = 2024;
    f.month = 3;
    f.day = 23;
    f.lat_deg = lat(rng);
    f.lon_deg = lon(rng);
    f.sog_kn = i == 0 ? 0.0 : sog(rng);
    f.cog_deg = i == 1 ? 359.999 : ang(rng);
    f.heading_deg = i == 2 ? 0.001 : ang(rng);
    f.has_heading = true;
    fixes.push_back(f);
    log += format_nav_update(f, {i % 2 ? "GN" : "GP", "II"});
  }
  // gpsd reports a cycle when the next one starts: one more RMC closes the last.
  NavFix tail = fixes.back();
  tail.utc_s_of_day += 1;
  log += format_rmc(tail);

  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("sweepline_gpsd_" + std::to_string(::getpid()) + ".log");
  std::ofstream(path, std::ios::binary) << log;
  const std::string out = run("timeout 60 gpsfake -1 -p -q -c 0.02 " + path.string() + " 2>&1");
  std::filesystem::remove(path);
  if (out.find("\"class\":\"VERSION\"") == std::string::npos)
    GTEST_SKIP() << "gpsfake could not start gpsd here: " << out.substr(0, 400);

  std::map<long, nlohmann::json> tpv_by_time;  // the last report of each cycle, by centisecond
  std::vector<double> headings;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] != '{') continue;
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) continue;
    if (j.value("class", "") == "TPV" && j.contains("time") && j.contains("lat"))
      tpv_by_time[std::lround(seconds_of_day(j["time"]) * 100)] = j;
    if (j.value("class", "") == "ATT" && j.contains("heading"))
      headings.push_back(j["heading"].get<double>());
  }
  ASSERT_EQ(headings.size(), fixes.size()) << out;
  double worst_pos = 0, worst_speed = 0, worst_track = 0, worst_heading = 0;
  for (std::size_t i = 0; i < fixes.size(); ++i) {
    const NavFix& f = fixes[i];
    const auto it = tpv_by_time.find(std::lround(f.utc_s_of_day * 100));
    ASSERT_NE(it, tpv_by_time.end()) << "gpsd reported no fix at " << f.utc_s_of_day << "\n" << out;
    const nlohmann::json& j = it->second;
    worst_pos = std::max({worst_pos, std::fabs(j["lat"].get<double>() - f.lat_deg),
                          angle_diff(j["lon"].get<double>(), f.lon_deg)});
    worst_speed =
        std::max(worst_speed, std::fabs(j["speed"].get<double>() - f.sog_kn * kMpsPerKnot));
    if (f.sog_kn > 0 || j.contains("track"))
      worst_track = std::max(worst_track, angle_diff(j["track"].get<double>(), f.cog_deg));
    worst_heading = std::max(worst_heading, angle_diff(headings[i], f.heading_deg));
  }
  // The writer's resolution: 1e-5 minutes (1.7e-7 deg), 0.01 kn, 0.01 deg; gpsd prints speed in
  // m/s with 3 decimals and heading with 3.
  EXPECT_LT(worst_pos, 2e-7);
  EXPECT_LT(worst_speed, 0.005 * kMpsPerKnot + 0.0005 + 1e-9);
  EXPECT_LT(worst_track, 0.005 + 1e-4);
  EXPECT_LT(worst_heading, 0.005 + 5e-4);
  std::printf(
      "gpsd read %zu fixes: worst lat/lon %.1e deg, speed %.1e m/s, track %.1e deg, "
      "heading %.1e deg\n",
      fixes.size(), worst_pos, worst_speed, worst_track, worst_heading);
}

}  // namespace
}  // namespace sweepline::nav
