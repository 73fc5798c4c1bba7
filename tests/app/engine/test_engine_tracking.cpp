// Target tracking in the engine: the simulator's IMO scenario through the CPU pipeline into the
// tracker (own ship from the simulator), the report's fields, the operator's commands, a missing
// own ship (relative tracks, a warning) and own ship from NMEA over loopback UDP.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>

#include "app/engine/engine.hpp"
#include "app/engine/report.hpp"
#include "app/nav/nmea_writer.hpp"
#include "tests/support/free_port.hpp"

using namespace sweepline;
using namespace sweepline::engine;

namespace {

constexpr double kKnot = 1852.0 / 3600.0;

// A small radar picture so that a few dozen rotations stay quick on the CPU: imo2's target is
// at 1 NM, so 3 NM of range on 1024 cells (5.4 m) and 2048 radials (0.18 deg).
const std::string kImo2 = "sim://imo2?seed=3&radials=2048&cells=1024&range_nm=3";

EngineSettings small_settings() {
  EngineSettings s;
  s.processing.backend = "cpu";
  s.processing.size = 1024;
  s.processing.azimuths = 2048;
  s.processing.range_bins = 1024;
  s.source.speed = 0;  // unpaced
  s.source.loop = false;
  return s;
}

void run_rotations(Engine& e, int n) {
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(e.pump_rotation(60)) << "rotation " << i << ": " << e.source_view().error;
    ASSERT_TRUE(e.process_and_wait()) << e.processing_error();
  }
}

double angle_diff(double a, double b) {
  double d = std::fmod(a - b + 540.0, 360.0) - 180.0;
  return std::abs(d);
}

const track::Track* only_tracked(const TrackingView& v, int& tracked) {
  const track::Track* out = nullptr;
  tracked = 0;
  for (const auto& t : v.tracks)
    if (t.status == track::Track::Status::Tracked) {
      ++tracked;
      out = &t;
    }
  return out;
}

class UdpSender {
 public:
  explicit UdpSender(int port) : fd_(::socket(AF_INET, SOCK_DGRAM, 0)) {
    to_.sin_family = AF_INET;
    to_.sin_port = htons(uint16_t(port));
    to_.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  }
  ~UdpSender() { ::close(fd_); }
  void send(const std::string& s) {
    ::sendto(fd_, s.data(), s.size(), 0, reinterpret_cast<const sockaddr*>(&to_), sizeof to_);
  }

 private:
  int fd_;
  sockaddr_in to_{};
};

}  // namespace

TEST(EngineTracking, Imo2IsTrackedWithTheScenariosRelativeMotionAndCpa) {
  EngineSettings s = small_settings();
  s.tracking.cpa_limit_nm = 1.5;  // imo2 passes at 1 NM: inside this limit, so a CPA alarm
  Engine e(s);
  ASSERT_TRUE(e.tracking().enabled);
  ASSERT_TRUE(e.open_source(kImo2)) << e.source_view().error;
  // 36 rotations (90 s at 24 rpm): confirmed after a few, a minute and a half of tracking.
  run_rotations(e, 36);
  const TrackingView& v = e.tracking();
  EXPECT_EQ(v.own_ship_source, OwnShipSource::Simulator);
  EXPECT_TRUE(v.own_ship.valid);
  EXPECT_FALSE(v.relative_only);
  EXPECT_TRUE(v.warning.empty()) << v.warning;
  EXPECT_EQ(v.updates, 36u);
  int tracked = 0;
  const track::Track* t = only_tracked(v, tracked);
  ASSERT_NE(t, nullptr) << "tracks: " << v.tracks.size() << ", plots fed " << v.plots_fed;
  EXPECT_EQ(tracked, 1);
  // imo2: own 000 / 10 kn; the target 1 NM ahead at t = 180 s, relative course 090 at 10 kn: a
  // true course 045 at 14.1 kn, CPA 1 NM at t = 180 s. Loose: an integration test, after 90 s.
  const double t_run = 36 * 2.5;
  EXPECT_LT(angle_diff(t->rel_course_deg, 90), 8) << t->rel_course_deg;
  EXPECT_NEAR(t->rel_speed_mps / kKnot, 10, 1.5);
  EXPECT_LT(angle_diff(t->course_deg, 45), 8) << t->course_deg;
  EXPECT_NEAR(t->speed_mps / kKnot, 14.14, 1.5);
  EXPECT_NEAR(t->cpa_m / 1852, 1.0, 0.2);
  // TCPA follows from the relative course: 8 deg off at 1 NM and 10 kn moves it by
  // 1852 m x sin 8 deg / 5.14 m/s = 50 s.
  EXPECT_NEAR(t->tcpa_s, 180 - t_run, 60);
  EXPECT_NEAR(t->range_m, std::hypot(926 - 5.144 * t_run, 1852), 60);
  EXPECT_TRUE(t->dangerous);
  EXPECT_FALSE(t->trail.empty());
  bool cpa_alarm = false;
  for (const auto& a : v.alarms) cpa_alarm |= a.kind == track::Alarm::Kind::Cpa;
  EXPECT_TRUE(cpa_alarm);
  EXPECT_GT(v.unacknowledged, 0);
  EXPECT_GT(v.update_ms, 0);
  std::printf(
      "imo2 after %.0f s: rel %.2f deg %.2f kn, true %.2f deg %.2f kn, cpa %.3f NM, tcpa %.2f "
      "min; update %.3f ms (max %.3f ms)\n",
      t_run, t->rel_course_deg, t->rel_speed_mps / kKnot, t->course_deg, t->speed_mps / kKnot,
      t->cpa_m / 1852, t->tcpa_s / 60, v.update_ms, v.update_ms_max);

  // The report carries the tracks, own ship and alarms with the names.
  const nlohmann::json f = frame_report(e, 35);
  ASSERT_TRUE(f["tracks"].is_array());
  ASSERT_FALSE(f["tracks"].empty());
  for (const char* key : {"id", "status", "range_m", "bearing_deg", "x_m", "y_m", "course_deg",
                          "speed_kn", "rel_course_deg", "rel_speed_kn", "cpa_nm", "tcpa_min"})
    EXPECT_TRUE(f["tracks"][0].contains(key)) << key;
  bool found = false;
  for (const auto& jt : f["tracks"])
    if (jt["id"] == t->id) {
      found = true;
      EXPECT_EQ(jt["status"], "tracked");
      EXPECT_NEAR(jt["cpa_nm"].get<double>(), t->cpa_m / 1852, 1e-9);
      EXPECT_NEAR(jt["tcpa_min"].get<double>(), t->tcpa_s / 60, 1e-9);
      EXPECT_NEAR(jt["rel_speed_kn"].get<double>(), t->rel_speed_mps / kKnot, 1e-9);
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(f["own_ship"]["source"], "simulator");
  EXPECT_EQ(f["own_ship"]["valid"], true);
  // GNSS speed over ground: the log's 0.5 kn error is not in own ship's velocity.
  EXPECT_NEAR(f["own_ship"]["speed_kn"].get<double>(), 10.0, 0.05);
  ASSERT_TRUE(f["alarms"].is_array());
  EXPECT_FALSE(f["alarms"].empty());
  for (const char* key : {"count", "components", "plots", "times_ms"})
    EXPECT_TRUE(f.contains(key)) << key << ": existing fields stay";
  const nlohmann::json h = run_report_header(e);
  EXPECT_EQ(h["tracking"]["own_ship_source"], "simulator");
  EXPECT_GE(h["tracking"]["stats"]["tracks_confirmed"].get<int>(), 1);

  // Commands: acknowledge, zones, cancel, acquire.
  e.acknowledge_all_alarms();
  EXPECT_EQ(e.tracking().unacknowledged, 0);
  EXPECT_FALSE(e.acknowledge_alarm(999999));
  track::AcquisitionZone arc;
  arc.range_min_m = 500;
  arc.range_max_m = 4000;
  arc.bearing_from_deg = 270;
  arc.bearing_to_deg = 90;
  const auto zone = e.add_zone(arc);
  ASSERT_TRUE(zone);
  EXPECT_EQ(e.tracking().zones.size(), 1u);
  EXPECT_EQ(e.settings().tracking.zones.size(), 1u);
  track::AcquisitionZone bad = arc;
  bad.range_max_m = 100;  // below range_min_m
  EXPECT_FALSE(e.add_zone(bad));
  EXPECT_FALSE(e.tracking().command_error.empty());
  // An edit replaces the zone (in the settings too); a malformed one leaves it as it was.
  track::AcquisitionZone wider = arc;
  wider.range_max_m = 6000;
  const auto edited = e.replace_zone(*zone, wider);
  ASSERT_TRUE(edited);
  ASSERT_EQ(e.tracking().zones.size(), 1u);
  EXPECT_EQ(*edited, *zone);  // an edit keeps the zone's number
  EXPECT_EQ(e.tracking().zones[0].first, *edited);
  EXPECT_DOUBLE_EQ(e.tracking().zones[0].second.range_max_m, 6000);
  ASSERT_EQ(e.settings().tracking.zones.size(), 1u);
  EXPECT_DOUBLE_EQ(e.settings().tracking.zones[0].range_max_m, 6000);
  EXPECT_TRUE(e.tracking().command_error.empty());
  EXPECT_FALSE(e.replace_zone(*edited, bad));
  EXPECT_NE(e.tracking().command_error.find("replace zone"), std::string::npos);
  EXPECT_DOUBLE_EQ(e.tracking().zones[0].second.range_max_m, 6000);
  EXPECT_FALSE(e.replace_zone(*edited + 100, wider));
  EXPECT_EQ(e.tracking().zones.size(), 1u);
  EXPECT_TRUE(e.remove_zone(*edited));
  EXPECT_TRUE(e.tracking().zones.empty());
  EXPECT_TRUE(e.settings().tracking.zones.empty());

  const int id = t->id;
  const double tx = t->x_m, ty = t->y_m;
  EXPECT_TRUE(e.cancel_track(id));
  EXPECT_FALSE(e.cancel_track(id));
  for (const auto& tr : e.tracking().tracks) EXPECT_NE(tr.id, id);
  // Far from anything: nothing to acquire. On the target: a new manual track.
  EXPECT_FALSE(e.acquire(tx + 20000, ty + 20000));
  EXPECT_FALSE(e.tracking().command_error.empty());
  e.cancel_all_tracks();
  EXPECT_TRUE(e.tracking().tracks.empty());
  // Zones only, none drawn: nothing starts by itself; the operator acquires the target.
  TrackingSettings zones_only = e.settings().tracking;
  zones_only.auto_acquire = false;
  ASSERT_TRUE(e.set_tracking_settings(zones_only));
  run_rotations(e, 2);
  EXPECT_TRUE(e.tracking().tracks.empty());
  // The target sails 045 at 14.1 kn: 5 s on from where it was cancelled.
  const auto manual = e.acquire(tx + 5.144 * 5, ty + 5.144 * 5);
  ASSERT_TRUE(manual) << e.tracking().command_error;
  EXPECT_GT(*manual, id);
  ASSERT_EQ(e.tracking().tracks.size(), 1u);
  EXPECT_TRUE(e.tracking().tracks[0].manual);
  // A refused setting changes nothing and says why.
  TrackingSettings wrong = e.settings().tracking;
  wrong.confirm_hits = 9;
  EXPECT_FALSE(e.set_tracking_settings(wrong));
  EXPECT_NE(e.tracking().command_error.find("confirm_hits"), std::string::npos);
  EXPECT_EQ(e.settings().tracking.confirm_hits, 3);
  // Tracking off: no tracker, an empty view, commands refused.
  TrackingSettings off = e.settings().tracking;
  off.enabled = false;
  ASSERT_TRUE(e.set_tracking_settings(off));
  EXPECT_FALSE(e.tracking().enabled);
  EXPECT_TRUE(e.tracking().tracks.empty());
  EXPECT_FALSE(e.acquire(tx, ty));
  run_rotations(e, 1);
  EXPECT_TRUE(e.tracking().tracks.empty());
  const nlohmann::json off_frame = frame_report(e, 0);
  EXPECT_TRUE(off_frame["tracks"].empty());
}

TEST(EngineTracking, WithoutOwnShipTracksAreRelativeWithAWarning) {
  Engine e(small_settings());
  ASSERT_TRUE(e.open_source(kImo2 + "&nav=0")) << e.source_view().error;
  run_rotations(e, 8);
  const TrackingView& v = e.tracking();
  EXPECT_EQ(v.own_ship_source, OwnShipSource::None);
  EXPECT_FALSE(v.own_ship.valid);
  EXPECT_TRUE(v.relative_only);
  EXPECT_NE(v.warning.find("relative"), std::string::npos) << v.warning;
  EXPECT_FALSE(v.tracks.empty()) << "relative tracks still form";
  const nlohmann::json f = frame_report(e, 7);
  EXPECT_EQ(f["own_ship"]["valid"], false);
  EXPECT_EQ(f["own_ship"]["relative_only"], true);
  EXPECT_EQ(f["own_ship"]["source"], "none");
  // A new source resets the tracker.
  const uint64_t resets = v.resets;
  ASSERT_TRUE(e.open_source(kImo2));
  EXPECT_TRUE(e.tracking().tracks.empty());
  EXPECT_EQ(e.tracking().resets, resets + 1);
  EXPECT_EQ(e.tracking().updates, 0u);
}

TEST(EngineTracking, NmeaOverUdpDrivesOwnShip) {
  const int port = test::free_udp_port();
  EngineSettings s = small_settings();
  s.navigation.udp = "udp://127.0.0.1:" + std::to_string(port);
  Engine e(s);
  ASSERT_TRUE(e.tracking().nmea_active) << e.tracking().nmea_error;
  // A GNSS receiver and a gyro at 10 Hz, sailing 090 at 8 kn, heading 092.
  std::atomic<bool> stop{false};
  std::thread sender([&] {
    UdpSender out(port);
    out.send("$GPRMC,120000.00,A,5000.0000,N,00100.0000,W,8.0,90.0,010126,,,A*00\r\n");  // bad sum
    for (int i = 0; !stop.load(); ++i) {
      nav::NavFix f;
      f.utc_s_of_day = 43200 + 0.1 * i;
      f.year = 2026;
      f.lat_deg = 50.0;
      f.lon_deg = -1.0 + 0.1 * i * 8 * kKnot / (111320.0 * std::cos(50.0 * 3.14159265 / 180));
      f.sog_kn = 8;
      f.cog_deg = 90;
      f.heading_deg = 92;
      f.has_heading = true;
      out.send(nav::format_nav_update(f));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  // The video without navigation of its own: own ship comes from NMEA only. Paced at real time
  // so that the feed and the video's clock advance together.
  ASSERT_TRUE(e.open_source(kImo2 + "&nav=0&rpm=60")) << e.source_view().error;
  e.set_speed(1);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // first fixes
  run_rotations(e, 4);
  stop = true;
  sender.join();
  const TrackingView& v = e.tracking();
  EXPECT_EQ(v.own_ship_source, OwnShipSource::Nmea);
  EXPECT_TRUE(v.own_ship.valid) << v.own_ship.warning;
  EXPECT_TRUE(v.own_ship.heading_valid);
  EXPECT_NEAR(v.own_ship.heading_deg, 92, 1e-6);
  EXPECT_NEAR(v.own_ship.speed_mps / kKnot, 8, 0.05);
  EXPECT_NEAR(v.own_ship.course_deg, 90, 1e-6);
  EXPECT_FALSE(v.relative_only);
  EXPECT_TRUE(v.warning.empty()) << v.warning;
  EXPECT_GT(v.nmea.accepted_of(nav::NmeaType::Rmc), 0u);
  EXPECT_GT(v.nmea.accepted_of(nav::NmeaType::Hdt), 0u);
  EXPECT_EQ(v.nmea.refused_of(nav::NmeaReject::BadChecksum), 1u);
  const nlohmann::json h = run_report_header(e);
  EXPECT_EQ(h["tracking"]["nmea"]["refused"]["bad_checksum"], 1);
  EXPECT_EQ(frame_report(e, 0)["own_ship"]["source"], "nmea");
  // A port that cannot be opened is a message, never a crash; tracks turn relative.
  NavigationSettings busy = s.navigation;
  busy.udp = "udp://203.0.113.7:" + std::to_string(port);  // not a local address
  EXPECT_FALSE(e.set_navigation_settings(busy));
  EXPECT_FALSE(e.tracking().nmea_active);
  EXPECT_FALSE(e.tracking().nmea_error.empty());
}
