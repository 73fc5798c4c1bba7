#include "app/nav/nmea_writer.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/common/check.hpp"

namespace sweepline::nav {

namespace {

// Centiseconds: what hhmmss.ss carries.
constexpr double kTimeUnitsPerS = 100.0;
// Minutes with 5 decimals: 1e-5 min of latitude is 1.9 cm, below any GNSS receiver's accuracy.
constexpr double kMinuteUnits = 1e5;

void check_talker(std::string_view talker) {
  SWL_CHECK(talker.size() == 2 && std::isupper(static_cast<unsigned char>(talker[0])) &&
                std::isalnum(static_cast<unsigned char>(talker[1])),
            "nmea: talker id '" + std::string(talker) + "' is not two characters A-Z/0-9");
}

// [0, 360) after rounding to `decimals`, so that 359.999 is written 0.00 and never 360.00.
double wrap_deg(double deg, int decimals) {
  const double scale = std::pow(10.0, decimals);
  double r = std::round(std::fmod(deg, 360.0) * scale) / scale;
  if (r < 0) r += 360.0;
  if (r >= 360.0) r -= 360.0;
  return r == 0.0 ? 0.0 : r;  // no "-0.00"
}

std::string hhmmss(double s_of_day) {
  double s = std::isfinite(s_of_day) ? std::fmod(s_of_day, 86400.0) : 0.0;
  if (s < 0) s += 86400.0;
  long long cs = std::llround(s * kTimeUnitsPerS);
  // Rounding up at the end of the day keeps the day (the date field is not advanced).
  if (cs >= 8640000) cs = 8640000 - 1;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02lld%02lld%02lld.%02lld", cs / 360000, cs / 6000 % 60,
                cs / 100 % 60, cs % 100);
  return buf;
}

// ddmm.mmmmm,N or dddmm.mmmmm,E; rounded on the whole value so 59.999999 min carries.
std::string angle_field(double deg, int deg_digits, char pos, char neg) {
  const char hemi = deg < 0 ? neg : pos;
  const long long units = std::llround(std::fabs(deg) * 60.0 * kMinuteUnits);
  const long long per_deg = 60LL * static_cast<long long>(kMinuteUnits);
  const long long d = units / per_deg;
  const long long rem = units % per_deg;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%0*lld%02lld.%05lld,%c", deg_digits, d,
                rem / static_cast<long long>(kMinuteUnits),
                rem % static_cast<long long>(kMinuteUnits), hemi);
  return buf;
}

std::string lat_field(double lat) {
  SWL_CHECK(std::isfinite(lat) && std::fabs(lat) <= 90.0,
            "nmea: latitude " + std::to_string(lat) + " is outside -90..90");
  return angle_field(lat, 2, 'N', 'S');
}

std::string lon_field(double lon) {
  SWL_CHECK(std::isfinite(lon), "nmea: longitude is not a number");
  double l = std::fmod(lon, 360.0);
  if (l > 180.0) l -= 360.0;
  if (l < -180.0) l += 360.0;
  return angle_field(l, 3, 'E', 'W');
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Speeds and sizes clamped to what fits a sentence of 82 characters.
constexpr double kMaxFieldValue = 99999.0;

double nonneg(double v) {
  return std::isfinite(v) && v > 0 ? std::min(v, kMaxFieldValue) : 0.0;
}

double clamped(double v) {
  return std::isfinite(v) ? std::clamp(v, -9999.0, kMaxFieldValue) : 0.0;
}

}  // namespace

unsigned nmea_checksum(std::string_view body) {
  unsigned c = 0;
  for (const char ch : body) c ^= static_cast<unsigned char>(ch);
  return c;
}

std::string nmea_sentence(std::string_view body) {
  char tail[16];
  std::snprintf(tail, sizeof tail, "*%02X\r\n", nmea_checksum(body));
  std::string s;
  s.reserve(body.size() + 6);
  s += '$';
  s += body;
  s += tail;
  return s;
}

std::string format_rmc(const NavFix& fix, std::string_view talker) {
  check_talker(talker);
  char date[32];
  std::snprintf(date, sizeof date, "%02d%02d%02d", fix.day, fix.month,
                ((fix.year % 100) + 100) % 100);
  std::string b = std::string(talker) + "RMC," + hhmmss(fix.utc_s_of_day) + ",";
  if (fix.has_fix) {
    // NMEA 2.3 layout: magnetic variation empty, then the mode indicator (A autonomous).
    b += "A," + lat_field(fix.lat_deg) + "," + lon_field(fix.lon_deg) + "," +
         fixed(nonneg(fix.sog_kn), 2) + "," + fixed(wrap_deg(fix.cog_deg, 2), 2) + "," + date +
         ",,,A";
  } else {
    b += "V,,,,,,," + std::string(date) + ",,,N";
  }
  return nmea_sentence(b);
}

std::string format_vtg(const NavFix& fix, std::string_view talker) {
  check_talker(talker);
  std::string b = std::string(talker) + "VTG,";
  if (fix.has_fix) {
    const double kn = nonneg(fix.sog_kn);
    b += fixed(wrap_deg(fix.cog_deg, 2), 2) + ",T,,M," + fixed(kn, 2) + ",N," +
         fixed(kn * 1.852, 2) + ",K,A";
  } else {
    b += ",T,,M,,N,,K,N";
  }
  return nmea_sentence(b);
}

std::string format_hdt(const NavFix& fix, std::string_view talker) {
  check_talker(talker);
  return nmea_sentence(std::string(talker) + "HDT," + fixed(wrap_deg(fix.heading_deg, 2), 2) +
                       ",T");
}

std::string format_gga(const NavFix& fix, std::string_view talker) {
  check_talker(talker);
  std::string b = std::string(talker) + "GGA," + hhmmss(fix.utc_s_of_day) + ",";
  if (fix.has_fix) {
    char sats[16];
    std::snprintf(sats, sizeof sats, "%02d", fix.satellites < 0 ? 0 : fix.satellites % 100);
    // Geoid separation and DGPS age/station left empty: the simulator has no geoid model.
    b += lat_field(fix.lat_deg) + "," + lon_field(fix.lon_deg) + ",1," + sats + "," +
         fixed(nonneg(fix.hdop), 1) + "," + fixed(clamped(fix.altitude_m), 1) + ",M,,M,,";
  } else {
    b += ",,,,0,00,,,M,,M,,";
  }
  return nmea_sentence(b);
}

namespace {

// Distances and speeds of TTM/OSD, bounded so that a sentence keeps within 82 characters (a
// radar's targets are far inside these bounds).
constexpr double kMaxTargetValue = 999.99;
constexpr double kMaxTcpaMin = 999.9;
constexpr size_t kMaxTargetName = 20;
constexpr size_t kMaxSentence = 82;

double bounded(double v, double hi) {
  return std::isfinite(v) ? std::clamp(v, 0.0, hi) : 0.0;
}

void check_number(int number) {
  SWL_CHECK(number >= 0 && number <= 999,
            "nmea: target number " + std::to_string(number) + " is outside 0..999");
}

void check_name(const std::string& name) {
  SWL_CHECK(name.size() <= kMaxTargetName,
            "nmea: target name '" + name + "' is over 20 characters");
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    SWL_CHECK(u >= 0x20 && u < 0x7F && std::string_view("$*,!\\^~").find(c) == std::string::npos,
              "nmea: target name '" + name + "' holds a reserved or non-printable character");
  }
}

std::string target_number(int number) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02d", number);
  return buf;
}

std::string checked(std::string sentence) {
  SWL_CHECK(sentence.size() <= kMaxSentence, "nmea: sentence over 82 characters: " + sentence);
  return sentence;
}

}  // namespace

std::string format_ttm(const TrackedTarget& t, std::string_view talker) {
  check_talker(talker);
  check_number(t.number);
  check_name(t.name);
  SWL_CHECK(t.acquisition == 'A' || t.acquisition == 'M' || t.acquisition == 'R',
            "nmea: TTM acquisition must be A, M or R");
  const double tcpa =
      std::isfinite(t.tcpa_min) ? std::clamp(t.tcpa_min, -kMaxTcpaMin, kMaxTcpaMin) : 0.0;
  const std::string head =
      std::string(talker) + "TTM," + target_number(t.number) + "," +
      fixed(bounded(t.distance, kMaxTargetValue), 2) + "," + fixed(wrap_deg(t.bearing_deg, 1), 1) +
      "," + (t.bearing_true ? "T" : "R") + "," + fixed(bounded(t.speed, kMaxTargetValue), 2) + "," +
      fixed(wrap_deg(t.course_deg, 1), 1) + "," + (t.course_true ? "T" : "R") + "," +
      fixed(bounded(t.cpa_distance, kMaxTargetValue), 2) + "," +
      fixed(tcpa == 0.0 ? 0.0 : tcpa, 1) + "," + static_cast<char>(t.units) + ",";
  const std::string tail = std::string(",") + static_cast<char>(t.status) + "," +
                           (t.reference ? "R" : "") + "," +
                           (t.has_utc ? hhmmss(t.utc_s_of_day) : "") + "," + t.acquisition;
  // '$', '*HH' and CR LF take 6 of the 82 characters; the name gives way when numbers are long.
  const size_t room = kMaxSentence - 6 - std::min(kMaxSentence - 6, head.size() + tail.size());
  return checked(nmea_sentence(head + t.name.substr(0, room) + tail));
}

std::string format_tll(const TargetPosition& t, std::string_view talker) {
  check_talker(talker);
  check_number(t.number);
  check_name(t.name);
  std::string b = std::string(talker) + "TLL," + target_number(t.number) + "," +
                  lat_field(t.lat_deg) + "," + lon_field(t.lon_deg) + "," + t.name + "," +
                  (t.has_utc ? hhmmss(t.utc_s_of_day) : "") + "," + static_cast<char>(t.status) +
                  "," + (t.reference ? "R" : "");
  return checked(nmea_sentence(b));
}

std::string format_osd(const OwnShipData& o, std::string_view talker) {
  check_talker(talker);
  const std::string_view refs = "BMWRP";
  SWL_CHECK(refs.find(o.course_ref) != std::string_view::npos &&
                refs.find(o.speed_ref) != std::string_view::npos,
            "nmea: OSD course and speed references must be one of B, M, W, R, P");
  std::string b = std::string(talker) + "OSD," + fixed(wrap_deg(o.heading_deg, 1), 1) + "," +
                  (o.valid ? "A" : "V") + "," + fixed(wrap_deg(o.course_deg, 1), 1) + "," +
                  o.course_ref + "," + fixed(bounded(o.speed, kMaxTargetValue), 2) + "," +
                  o.speed_ref + "," + fixed(wrap_deg(o.set_deg, 1), 1) + "," +
                  fixed(bounded(o.drift, kMaxTargetValue), 2) + "," + static_cast<char>(o.units);
  return checked(nmea_sentence(b));
}

std::string format_nav_update(const NavFix& fix, const NmeaTalkers& talkers) {
  std::string s =
      format_rmc(fix, talkers.gnss) + format_vtg(fix, talkers.gnss) + format_gga(fix, talkers.gnss);
  if (fix.has_heading) s += format_hdt(fix, talkers.heading);
  return s;
}

}  // namespace sweepline::nav
