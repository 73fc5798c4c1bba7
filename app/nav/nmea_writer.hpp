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

// --- Radar target output (what radar_pi sends to OpenCPN and chart plotters) --------------

// Units of TTM's distances and speeds (and OSD's speeds): N knots and nautical miles, K km/h and
// km, S statute miles per hour and statute miles.
enum class NmeaUnits : char { Knots = 'N', Kilometres = 'K', Statute = 'S' };

// TTM / TLL target status: L lost (tracking stopped), Q query (being acquired), T tracking.
enum class TargetStatus : char { Lost = 'L', Query = 'Q', Tracking = 'T' };

// One tracked target as TTM reports it, relative to own ship.
struct TrackedTarget {
  int number = 0;             // 0..999 (written with at least two digits)
  double distance = 0.0;      // from own ship, in `units`
  double bearing_deg = 0.0;   // from own ship, any angle (written in [0, 360))
  bool bearing_true = true;   // T (true) or R (relative to heading)
  double speed = 0.0;         // in `units`
  double course_deg = 0.0;    // any angle (written in [0, 360))
  bool course_true = true;    // T or R
  double cpa_distance = 0.0;  // in `units`
  double tcpa_min = 0.0;      // minutes; negative when CPA has passed
  NmeaUnits units = NmeaUnits::Knots;
  std::string name;  // up to 20 characters, shortened in TTM to what fits in 82 characters
  TargetStatus status = TargetStatus::Tracking;
  bool reference = false;     // a reference target (R) for own ship's speed
  double utc_s_of_day = 0.0;  // time of the data, seconds into the UTC day
  bool has_utc = true;        // false: the UTC field is left empty
  char acquisition = 'A';     // A automatic, M manual, R reported
};

// One tracked target's position as TLL reports it.
struct TargetPosition {
  int number = 0;
  double lat_deg = 0.0;  // WGS-84
  double lon_deg = 0.0;
  std::string name;
  double utc_s_of_day = 0.0;
  bool has_utc = true;
  TargetStatus status = TargetStatus::Tracking;
  bool reference = false;
};

// Own ship as the radar knows it (OSD), when the heading and motion come from us.
struct OwnShipData {
  double heading_deg = 0.0;  // true
  bool valid = true;         // status A (valid) or V
  double course_deg = 0.0;   // true
  char course_ref = 'P';     // B bottom, M manual, W water, R radar, P positioning system
  double speed = 0.0;        // in `units`
  char speed_ref = 'P';      // as course_ref
  double set_deg = 0.0;      // current set, true
  double drift = 0.0;        // current drift, in `units`
  NmeaUnits units = NmeaUnits::Knots;
};

// Throw sweepline::Error on a talker that is not two characters, a target number outside
// 0..999, a name with reserved or non-printable characters ($ * , ! \ ^ ~) or over 20
// characters, or a reference letter that the standard does not list. Distances and speeds are
// written within 0..999.99 and TCPA within +-999.9 min (so a sentence keeps within 82
// characters); non-finite numbers are written as 0.
std::string format_ttm(const TrackedTarget& target, std::string_view talker = "RA");
std::string format_tll(const TargetPosition& target, std::string_view talker = "RA");
std::string format_osd(const OwnShipData& own, std::string_view talker = "RA");

// What one navigation update sends: RMC, VTG, GGA, and HDT when the fix has a heading; the
// sentences concatenated (one UDP datagram carries them all, well under 1 KB).
std::string format_nav_update(const NavFix& fix, const NmeaTalkers& talkers = {});

}  // namespace sweepline::nav
