#include "app/sim/scenario.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "app/common/check.hpp"
#include "app/common/name_table.hpp"

namespace sweepline::sim {

namespace {

double parse_double(const std::string& key, const std::string& v) {
  const char* b = v.c_str();
  char* end = nullptr;
  double d = std::strtod(b, &end);
  SWL_CHECK(!v.empty() && end == b + v.size() && std::isfinite(d),
            "sim: parameter '" + key + "' needs a number, got '" + v + "'");
  return d;
}

// `v` whole as a T; `what` names the kind of number in the error.
template <class T>
T parse_integer(const std::string& key, const std::string& v, const char* what) {
  T n = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  SWL_CHECK(!v.empty() && ec == std::errc() && p == v.data() + v.size(),
            "sim: parameter '" + key + "' needs " + what + ", got '" + v + "'");
  return n;
}

int64_t parse_int(const std::string& key, const std::string& v) {
  return parse_integer<int64_t>(key, v, "an integer");
}

uint64_t parse_u64(const std::string& key, const std::string& v) {
  return parse_integer<uint64_t>(key, v, "a non-negative integer");
}

// "on"/"off" style switches; returns -1 when the value is not one of them.
int parse_switch(const std::string& v) {
  if (v == "on" || v == "true" || v == "yes") return 1;
  if (v == "off" || v == "false" || v == "no") return 0;
  return -1;
}

bool parse_bool(const std::string& key, const std::string& v) {
  if (v == "1") return true;
  if (v == "0") return false;
  int s = parse_switch(v);
  SWL_CHECK(s >= 0, "sim: parameter '" + key + "' needs on/off, got '" + v + "'");
  return s == 1;
}

// "on"/"off", or a level: a positive one also switches on, zero off.
void parse_switch_or_level(const std::string& key, const std::string& v, bool& enabled,
                           double& level) {
  const int sw = parse_switch(v);
  if (sw >= 0) {
    enabled = sw == 1;
  } else {
    level = parse_double(key, v);
    enabled = level > 0;
  }
}

void quiet_background(Scenario& s) {
  s.noise.mean = 10;
  s.clutter.enabled = false;
  s.rain.enabled = false;
  s.coast.enabled = false;
  s.vessels.separated = true;
}

// A.823(19) Appendix Annex 2: own course, own speed (kn), target range (NM), bearing, relative
// course, relative speed (kn).
struct ImoDefinition {
  double own_course, own_kn, range_nm, bearing, rel_course, rel_kn;
};
constexpr ImoDefinition kImo[4] = {
    {0, 10, 8, 0, 180, 20}, {0, 10, 1, 0, 90, 10}, {0, 5, 8, 45, 225, 20}, {0, 25, 8, 45, 225, 20}};

// Quiet sea, one target, the standard's sensor errors, a 12 NM picture (the target starts at
// 9 NM at most).
void imo_scenario(Scenario& s, const ImoDefinition& d) {
  s.noise.mean = 10;
  s.clutter.level = 25;  // light sea clutter: gone beyond ~2 NM
  s.rain.enabled = false;
  s.coast.enabled = false;
  s.vessels.count = 0;
  s.own.enabled = true;
  s.own.course_deg = d.own_course;
  s.own.speed_kn = d.own_kn;
  RelativeTarget t;
  t.range_m = d.range_nm * 1852.0;
  t.bearing_deg = d.bearing;
  t.rel_course_deg = d.rel_course;
  t.rel_speed_kn = d.rel_kn;
  t.at_s = kImoPredictionS;
  s.targets = {t};
  s.errors = imo_sensor_errors();
}

// "A:B:C[:D]" as numbers; `n_min` to `n_max` of them.
std::vector<double> parse_list(const std::string& key, const std::string& v, size_t n_min,
                               size_t n_max) {
  std::vector<double> out;
  size_t pos = 0;
  for (;;) {
    const size_t colon = v.find(':', pos);
    out.push_back(
        parse_double(key, v.substr(pos, colon == std::string::npos ? colon : colon - pos)));
    if (colon == std::string::npos) break;
    pos = colon + 1;
  }
  if (out.size() < n_min || out.size() > n_max) {
    std::string want = std::to_string(n_min);
    if (n_max != n_min) want += " to " + std::to_string(n_max);
    throw Error("sim: parameter '" + key + "' needs " + want + " numbers separated by ':', got '" +
                v + "'");
  }
  return out;
}

}  // namespace

constexpr NameTable<Style, 4> kStyleNames{{{Style::NextAz, "next-az"},
                                           {Style::ZeroWidth, "zero-width"},
                                           {Style::MultiRecord, "multi-record"},
                                           {Style::Split1400, "split-1400"}}};

const char* to_string(Style s) {
  return name_of(kStyleNames, s);
}

std::vector<std::string> style_names() {
  return names_of(kStyleNames);
}

Style parse_style(const std::string& name) {
  return value_of(kStyleNames, name, "sim: unknown style");
}

std::vector<std::string> scenario_names() {
  return {"harbour", "vessels50", "vessels1869", "open-sea", "stress",
          "imo1",    "imo2",      "imo3",        "imo4"};
}

Scenario make_scenario(const std::string& name) {
  Scenario s;
  s.name = name;
  if (name == "harbour") {
    // The defaults are the harbour: coast, 50 vessels, sea clutter, rain.
  } else if (name == "vessels50" || name == "vessels1869") {
    // The papers' radar experiments: well-separated vessels on a quiet background.
    quiet_background(s);
    s.vessels.count = name == "vessels50" ? 50 : 1869;
    s.vessels.length_min_m = 15;
    s.vessels.length_max_m = name == "vessels50" ? 120 : 60;
    s.vessels.speed_max_kn = 15;
    s.vessels.strength_min = 200;
  } else if (name == "open-sea") {
    s.coast.enabled = false;
    s.clutter.level = 90;
    s.clutter.shape = 0.5;
    s.rain.count = 2;
    s.vessels.count = 25;
  } else if (name == "stress") {
    s.clutter.level = 105;
    s.clutter.shape = 0.4;
    s.clutter.falloff = 1.2;
    s.rain.count = 8;
    s.rain.radius_max_m = 6000;
    s.vessels.count = 1000;
    s.vessels.length_max_m = 150;
    s.coast.islands = 8;
  } else if (name.size() == 4 && name.compare(0, 3, "imo") == 0 && name[3] >= '1' &&
             name[3] <= '4') {
    imo_scenario(s, kImo[name[3] - '1']);
  } else {
    throw Error("sim: unknown scenario '" + name +
                "' (harbour, vessels50, vessels1869, open-sea, stress, imo1, imo2, imo3, imo4)");
  }
  return s;
}

namespace {

// own_*: each also switches the own ship on.
void apply_own_param(Scenario& s, const std::string& key, const std::string& v) {
  OwnShipConfig& o = s.own;
  if (key == "own_x") {
    o.x_m = parse_double(key, v);
  } else if (key == "own_y") {
    o.y_m = parse_double(key, v);
  } else if (key == "own_lat") {
    o.lat_deg = parse_double(key, v);
  } else if (key == "own_lon") {
    o.lon_deg = parse_double(key, v);
  } else if (key == "own_course") {
    o.course_deg = parse_double(key, v);
  } else if (key == "own_speed") {
    o.speed_kn = parse_double(key, v);
  } else if (key == "own_heading") {
    o.heading_deg = parse_double(key, v);
  } else if (key == "own_turn") {  // AT_S:COURSE:DEG_PER_MIN
    const auto n = parse_list(key, v, 3, 3);
    Manoeuvre m;
    m.at_s = n[0];
    m.course_deg = n[1];
    m.turn_dpm = n[2];
    SWL_CHECK(m.turn_dpm > 0 && m.turn_dpm <= 3600,
              "sim: own_turn's rate must be in (0, 3600] deg/min");
    o.manoeuvres.push_back(m);
  } else if (key == "own_accel") {  // AT_S:SPEED_KN:KN_PER_MIN
    const auto n = parse_list(key, v, 3, 3);
    Manoeuvre m;
    m.at_s = n[0];
    m.speed_kn = n[1];
    m.accel_kn_per_min = n[2];
    SWL_CHECK(m.accel_kn_per_min > 0, "sim: own_accel's rate must be > 0 kn/min");
    o.manoeuvres.push_back(m);
  } else {
    throw Error("sim: unknown parameter '" + key +
                "' (own_x, own_y, own_lat, own_lon, own_course, own_speed, own_heading, own_turn, "
                "own_accel)");
  }
  o.enabled = true;
}

}  // namespace

void apply_param(Scenario& s, const std::string& key, const std::string& v) {
  auto& r = s.radar;
  if (key == "seed") {
    s.seed = parse_u64(key, v);
  } else if (key == "rpm") {
    r.rpm = parse_double(key, v);
  } else if (key == "radials") {
    int64_t n = parse_int(key, v);
    r.radials = n > (1 << 20) ? 0 : int(n);
  } else if (key == "cells") {
    int64_t n = parse_int(key, v);
    r.cells = n > (1 << 20) ? 0 : int(n);
  } else if (key == "range_nm" || key == "range") {
    r.range_nm = parse_double(key, v);
  } else if (key == "res") {
    int64_t n = parse_int(key, v);
    r.res_bits = n > 64 ? 0 : int(n);
  } else if (key == "compress") {
    r.compress = parse_bool(key, v);
  } else if (key == "beamwidth") {
    r.beamwidth_deg = parse_double(key, v);
  } else if (key == "pulse_m") {
    r.pulse_m = parse_double(key, v);
  } else if (key == "sac") {
    int64_t n = parse_int(key, v);
    SWL_CHECK(n >= 0 && n <= 255, "sim: sac must be 0..255");
    r.sac = uint8_t(n);
  } else if (key == "sic") {
    int64_t n = parse_int(key, v);
    SWL_CHECK(n >= 0 && n <= 255, "sim: sic must be 0..255");
    r.sic = uint8_t(n);
  } else if (key == "rotations") {
    s.rotations = parse_u64(key, v);
  } else if (key == "style") {
    s.style = parse_style(v);
  } else if (key == "vessels") {
    int64_t n = parse_int(key, v);
    SWL_CHECK(n >= 0 && n <= 100000, "sim: vessels must be 0..100000");
    s.vessels.count = int(n);
  } else if (key == "separated") {
    s.vessels.separated = parse_bool(key, v);
  } else if (key == "vessel_range_min") {
    s.vessels.range_min_m = parse_double(key, v);
    SWL_CHECK(s.vessels.range_min_m >= 0 && s.vessels.range_min_m <= 1e6,
              "sim: vessel_range_min must be 0..1000000 (metres)");
  } else if (key == "land_clearance") {
    s.vessels.land_clearance_m = parse_double(key, v);
    SWL_CHECK(s.vessels.land_clearance_m >= 0 && s.vessels.land_clearance_m <= 5000,
              "sim: land_clearance must be 0..5000 (metres)");
  } else if (key == "noise") {
    parse_switch_or_level(key, v, s.noise.enabled, s.noise.mean);
  } else if (key == "clutter") {
    parse_switch_or_level(key, v, s.clutter.enabled, s.clutter.level);
  } else if (key == "clutter_shape") {
    s.clutter.shape = parse_double(key, v);
  } else if (key == "rain") {
    int sw = parse_switch(v);
    if (sw >= 0) {
      s.rain.enabled = sw == 1;
    } else {
      int64_t n = parse_int(key, v);
      SWL_CHECK(n >= 0 && n <= 1000, "sim: rain must be on, off or a count 0..1000");
      s.rain.count = int(n);
      s.rain.enabled = n > 0;
    }
  } else if (key == "coast") {
    s.coast.enabled = parse_bool(key, v);
  } else if (key.compare(0, 4, "own_") == 0) {
    apply_own_param(s, key, v);
  } else if (key == "target") {
    const auto n = parse_list(key, v, 4, 5);
    RelativeTarget t;
    t.range_m = n[0] * 1852.0;
    t.bearing_deg = n[1];
    t.rel_course_deg = n[2];
    t.rel_speed_kn = n[3];
    t.at_s = n.size() > 4 ? n[4] : 0.0;
    s.targets.push_back(t);
  } else if (key == "target_at") {
    const double at = parse_double(key, v);
    for (RelativeTarget& t : s.targets) t.at_s = at;
  } else if (key == "sensor_errors") {
    const bool on = parse_bool(key, v);
    s.errors = on ? imo_sensor_errors() : SensorErrors{};
  } else {
    throw Error("sim: unknown parameter '" + key +
                "' (seed, rpm, radials, cells, range_nm, res, compress, beamwidth, pulse_m, "
                "style, vessels, separated, noise, clutter, clutter_shape, rain, coast, sac, sic, "
                "rotations, own_x, own_y, own_lat, own_lon, own_course, own_speed, own_heading, "
                "own_turn, own_accel, target, target_at, sensor_errors)");
  }
}

void validate(const Scenario& s) {
  const auto& r = s.radar;
  SWL_CHECK(r.rpm > 0 && r.rpm <= 600, "sim: rpm must be in (0, 600]");
  SWL_CHECK(r.radials >= 16 && r.radials <= 65536, "sim: radials must be 16..65536");
  SWL_CHECK(r.cells >= 16 && r.cells <= 65536, "sim: cells must be 16..65536");
  SWL_CHECK(int64_t(r.radials) * r.cells <= (int64_t(1) << 26),
            "sim: radials x cells must be at most 67,108,864");
  SWL_CHECK(r.range_nm > 0 && r.range_nm <= 256, "sim: range_nm must be in (0, 256]");
  SWL_CHECK(r.res_bits == 1 || r.res_bits == 2 || r.res_bits == 4 || r.res_bits == 8 ||
                r.res_bits == 16 || r.res_bits == 32,
            "sim: res must be 1, 2, 4, 8, 16 or 32 bits");
  SWL_CHECK(r.beamwidth_deg > 0 && r.beamwidth_deg <= 30, "sim: beamwidth must be in (0, 30]");
  SWL_CHECK(r.pulse_m >= 0 && r.pulse_m <= 5000, "sim: pulse_m must be in [0, 5000]");
  // Femto header: CELL_DUR (fs) must fit 32 bits: cells no longer than ~643 m.
  SWL_CHECK(r.cell_m() * 2.0 / 299792458.0 * 1e15 < 4.29e9,
            "sim: range cells longer than 643 m cannot be described (raise cells)");
  SWL_CHECK(s.clutter.shape > 0.05 && s.clutter.shape <= 100, "sim: clutter_shape out of range");
  SWL_CHECK(s.noise.mean >= 0 && s.noise.mean <= 255, "sim: noise must be 0..255");
  SWL_CHECK(s.clutter.level >= 0 && s.clutter.level <= 255, "sim: clutter must be 0..255");
  const auto& o = s.own;
  SWL_CHECK(std::abs(o.x_m) <= 1e6 && std::abs(o.y_m) <= 1e6,
            "sim: own_x and own_y must be within +-1000000 m");
  SWL_CHECK(std::abs(o.lat_deg) <= 80 && std::abs(o.lon_deg) <= 180,
            "sim: own_lat must be within +-80 deg and own_lon within +-180 deg");
  SWL_CHECK(o.speed_kn >= 0 && o.speed_kn <= 100, "sim: own_speed must be 0..100 kn");
  for (const Manoeuvre& m : o.manoeuvres) {
    SWL_CHECK(m.at_s >= 0, "sim: a manoeuvre's start time must be >= 0 s");
    SWL_CHECK(!m.speed_kn || (*m.speed_kn >= 0 && *m.speed_kn <= 100),
              "sim: own_accel's speed must be 0..100 kn");
  }
  for (const RelativeTarget& t : s.targets) {
    SWL_CHECK(t.range_m >= 0 && t.range_m <= 2e5, "sim: a target's range must be 0..108 NM");
    SWL_CHECK(t.rel_speed_kn >= 0 && t.rel_speed_kn <= 200,
              "sim: a target's relative speed must be 0..200 kn");
    SWL_CHECK(t.at_s >= 0 && t.at_s <= 86400, "sim: target_at must be 0..86400 s");
  }
}

Scenario parse_sim_uri(const std::string& uri) {
  const std::string prefix = "sim://";
  SWL_CHECK(uri.compare(0, prefix.size(), prefix) == 0, "sim: '" + uri + "' is not a sim:// URI");
  std::string rest = uri.substr(prefix.size());
  std::string name = rest, query;
  if (auto q = rest.find('?'); q != std::string::npos) {
    name = rest.substr(0, q);
    query = rest.substr(q + 1);
  }
  if (!name.empty() && name.back() == '/') name.pop_back();
  if (name.empty()) name = "harbour";
  Scenario s;
  try {
    s = make_scenario(name);
  } catch (const Error& e) {
    throw Error(std::string(e.what()) + " in '" + uri + "'");
  }
  size_t pos = 0;
  while (pos < query.size()) {
    size_t amp = query.find('&', pos);
    if (amp == std::string::npos) amp = query.size();
    std::string kv = query.substr(pos, amp - pos);
    pos = amp + 1;
    if (kv.empty()) continue;
    size_t eq = kv.find('=');
    SWL_CHECK(eq != std::string::npos && eq > 0,
              "sim: malformed query item '" + kv + "' in '" + uri + "' (want key=value)");
    apply_param(s, kv.substr(0, eq), kv.substr(eq + 1));
  }
  validate(s);
  return s;
}

}  // namespace sweepline::sim
