#include "app/source/sim_navigation.hpp"

#include <cmath>
#include <mutex>
#include <numbers>
#include <utility>

#include "app/common/check.hpp"
#include "app/nav/geodesy.hpp"
#include "app/sim/own_ship.hpp"
#include "app/sim/radial_producer.hpp"
#include "app/sim/scenario.hpp"
#include "app/sim/sensor_errors.hpp"
#include "app/sim/sim_source.hpp"

namespace sweepline::source {

namespace {

constexpr double kDeg = std::numbers::pi / 180.0;
constexpr double kDayS = 86400.0;

// The simulator with its own ship's navigation: the scenario's OwnShipTrack as the ship's
// sensors measure it (measure_nav: the gyro's errors when the scenario has them), on the clock
// the video's rows are stamped with. Everything else is the simulator's.
class SimWithNavigation final : public RecordSource {
 public:
  SimWithNavigation(const std::string& uri, const SourceOptions& options)
      : inner_(open_sim_source(uri, options)),
        s_(sim::parse_sim_uri(uri)),
        own_(s_.own),
        plane_(s_.own.lat_deg, s_.own.lon_deg) {}

  bool poll(std::vector<cat240::Record>& out) override {
    const size_t before = out.size();
    const bool alive = inner_->poll(out);
    if (out.size() > before) {
      // The sweep assembler stamps a row with the record's time of day when it has one, else
      // its capture time (sweep_assembler.cpp); the simulator's capture time is kSimEpoch plus
      // the run's time. The latest record gives the offset between the two clocks.
      const cat240::Record& r = out.back();
      const double frame_t = r.tod ? double(*r.tod) / 128.0 : r.capture_time;
      std::lock_guard lock(mu_);
      run_latest_s_ = r.capture_time - sim::kSimEpoch;
      offset_s_ = frame_t - run_latest_s_;
      have_clock_ = true;
    }
    return alive;
  }
  SourceStatus status() const override { return inner_->status(); }
  ReplayControl* replay() override { return inner_->replay(); }

  std::optional<nav::OwnShipState> navigation(double t_s) override {
    std::lock_guard lock(mu_);
    if (!have_clock_) return std::nullopt;
    double run = t_s - offset_s_;
    // A time of day wraps at midnight: take the day nearest the latest record.
    run += kDayS * std::round((run_latest_s_ - run) / kDayS);
    run = std::max(0.0, run);
    return sim_navigation(s_, own_, plane_, run, t_s);
  }

 private:
  std::unique_ptr<RecordSource> inner_;
  sim::Scenario s_;
  std::mutex mu_;
  sim::OwnShipTrack own_;  // guarded by mu_ (its cache)
  nav::LocalTangentPlane plane_;
  bool have_clock_ = false;
  double offset_s_ = 0, run_latest_s_ = 0;
};

}  // namespace

nav::OwnShipState sim_navigation(const sim::Scenario& s, sim::OwnShipTrack& own,
                                 const nav::LocalTangentPlane& plane, double run_t_s,
                                 double time_s) {
  const sim::OwnState o = own.at(run_t_s);
  const sim::NavMeasurement m =
      sim::measure_nav(s.errors, s.seed, run_t_s, o.heading_deg, o.course_deg, o.speed_mps);
  // As the simulator's NMEA carries it (sim::nmea_update): the GNSS position, speed and course
  // over ground and the gyro's heading (the log's speed through water is not own ship's
  // velocity over ground).
  nav::OwnShipState st;
  st.valid = true;
  st.heading_valid = true;
  st.time_s = time_s;
  st.x_m = o.x_m;
  st.y_m = o.y_m;
  st.course_deg = m.cog_deg;
  st.speed_mps = m.sog_mps;
  st.heading_deg = m.heading_deg;
  st.vx_mps = m.sog_mps * std::sin(m.cog_deg * kDeg);
  st.vy_mps = m.sog_mps * std::cos(m.cog_deg * kDeg);
  const nav::LatLon ll = plane.to_geodetic(o.x_m, o.y_m);
  st.lat_deg = ll.lat_deg;
  st.lon_deg = ll.lon_deg;
  // The simulator's world is the plane itself: its bearings are grid bearings.
  st.true_to_grid_deg = 0;
  st.fix_age_s = 0;
  return st;
}

namespace {

bool nav_flag(const std::string& v, const std::string& uri) {
  if (v == "1" || v == "on" || v == "true") return true;
  if (v == "0" || v == "off" || v == "false") return false;
  throw Error("source '" + uri + "': nav must be 0 or 1, not '" + v + "'");
}

}  // namespace

std::string strip_nav_option(const std::string& uri, bool& navigation) {
  navigation = true;
  const size_t q = uri.find('?');
  if (q == std::string::npos) return uri;
  std::string out = uri.substr(0, q);
  std::string rest = uri.substr(q + 1);
  char sep = '?';
  size_t start = 0;
  while (start <= rest.size()) {
    size_t amp = rest.find('&', start);
    if (amp == std::string::npos) amp = rest.size();
    const std::string kv = rest.substr(start, amp - start);
    if (kv.rfind("nav=", 0) == 0) {
      navigation = nav_flag(kv.substr(4), uri);
    } else if (!kv.empty()) {
      out += sep;
      out += kv;
      sep = '&';
    }
    start = amp + 1;
  }
  return out;
}

std::unique_ptr<RecordSource> open_sim_with_navigation(const std::string& uri,
                                                       const SourceOptions& options) {
  bool navigation = true;
  const std::string sim_uri = strip_nav_option(uri, navigation);
  if (!navigation) return open_sim_source(sim_uri, options);
  return std::make_unique<SimWithNavigation>(sim_uri, options);
}

}  // namespace sweepline::source
