#pragma once
// NMEA 0183 sentences out: the simulator's own-ship navigation beside the video, and the test
// source of the parser. Each function returns one complete sentence: '$', talker, type, fields,
// '*', two upper-case hex checksum digits, CR LF (at most 82 characters, as NMEA 0183 requires).
#include <string>
#include <string_view>

namespace sweepline::nav {

// One navigation fix as a GNSS receiver and a gyro compass would report it.
struct NavFix {
  double utc_s_of_day = 0.0;  // seconds into the UTC day, [0, 86400)
  int year = 2000, month = 1, day = 1;
  double lat_deg = 0.0;      // WGS-84, north positive
  double lon_deg = 0.0;      // WGS-84, east positive
  double sog_kn = 0.0;       // speed over ground, knots
  double cog_deg = 0.0;      // course over ground, true, any value (written in [0, 360))
  double heading_deg = 0.0;  // true heading (gyro), any value (written in [0, 360))
  bool has_heading = false;  // a heading sensor is present (HDT is written)
  bool has_fix = true;       // false: RMC status V, GGA quality 0, VTG mode N, no position
  // GGA only.
  int satellites = 8;
  double hdop = 0.9;
  double altitude_m = 0.0;  // antenna height above mean sea level
};

// Talker ids: GP (GPS), GN (multi-constellation), II (integrated instrumentation), HE (gyro).
struct NmeaTalkers {
  std::string gnss = "GP";     // RMC, VTG, GGA
  std::string heading = "HE";  // HDT
};

// XOR of every character of `body` (what lies between '$' and '*').
unsigned nmea_checksum(std::string_view body);
// "$" + body + "*HH\r\n".
std::string nmea_sentence(std::string_view body);

std::string format_rmc(const NavFix& fix, std::string_view talker = "GP");
std::string format_vtg(const NavFix& fix, std::string_view talker = "GP");
std::string format_hdt(const NavFix& fix, std::string_view talker = "HE");
std::string format_gga(const NavFix& fix, std::string_view talker = "GP");

// What one navigation update sends: RMC, VTG, GGA, and HDT when the fix has a heading; the
// sentences concatenated (one UDP datagram carries them all, well under 1 KB).
std::string format_nav_update(const NavFix& fix, const NmeaTalkers& talkers = {});

}  // namespace sweepline::nav
