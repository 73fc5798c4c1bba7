// The per-rotation messages: CAT048 plots and tracks decode to what was sent, CAT034 follows
// the antenna, NMEA carries every track.
#include <gtest/gtest.h>

#include <cmath>

#include "app/asterix/cat034_decoder.hpp"
#include "app/asterix/cat034_encoder.hpp"
#include "app/asterix/cat048_decoder.hpp"
#include "app/asterix/cat048_encoder.hpp"
#include "app/serve/messages.hpp"

namespace sweepline::serve {
namespace {

track::Track make_track(int id, double range_m, double bearing_deg, track::Track::Status st) {
  track::Track t;
  t.id = id;
  t.status = st;
  t.range_m = range_m;
  t.bearing_deg = bearing_deg;
  t.speed_mps = 5.0;
  t.course_deg = 90.0;
  t.cpa_m = 800;
  t.tcpa_s = 300;
  return t;
}

TEST(ServeMessages, TrackNumbersWrapInto12Bits) {
  EXPECT_EQ(track_number(1), 1);
  EXPECT_EQ(track_number(4095), 4095);
  EXPECT_EQ(track_number(4096), 1);
  EXPECT_EQ(track_number(0), 1);
  EXPECT_DOUBLE_EQ(time_of_day(86400.0 * 3 + 12.5), 12.5);
  EXPECT_DOUBLE_EQ(time_of_day(-1.0), 86399.0);
}

TEST(ServeMessages, PlotReportsDecodeToThePlots) {
  std::vector<gpu::Plot> plots(3);
  for (int i = 0; i < 3; ++i) {
    plots[size_t(i)].range_m = 1000.0 + 500 * i;
    plots[size_t(i)].bearing_deg = 10.0 + 100 * i;
    plots[size_t(i)].azimuth_extent_deg = 1.5;
    plots[size_t(i)].time_s = 86400.0 + 3600.0 + i;
  }
  const auto reports = plot_reports(plots, RadarIdentity{7, 9});
  const auto datagrams = cat048::encode_datagrams(reports, kMessageDatagramMax);
  cat048::Decoder dec;
  std::vector<cat048::TargetReport> got;
  for (const auto& d : datagrams) dec.decode(d, 0, got);
  ASSERT_EQ(got.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const auto& r = got[size_t(i)];
    EXPECT_FALSE(r.is_track());
    EXPECT_EQ(r.sac, 7);
    EXPECT_EQ(r.sic, 9);
    EXPECT_NEAR(r.rho_nm * 1852.0, plots[size_t(i)].range_m, 1852.0 / 256);
    EXPECT_NEAR(r.theta_deg, plots[size_t(i)].bearing_deg, 0.01);
    EXPECT_NEAR(r.tod_s, 3600.0 + i, 1.0 / 128);
    ASSERT_TRUE(r.plot && r.plot->prl_deg);
    EXPECT_NEAR(*r.plot->prl_deg, 1.5, 0.05);
  }
}

TEST(ServeMessages, TrackReportsCarryStatusPositionAndEnd) {
  using S = track::Track::Status;
  const std::vector<track::Track> live = {make_track(3, 1852.0, 90.0, S::Tracked),
                                          make_track(4, 3704.0, 180.0, S::Acquiring),
                                          make_track(5, 926.0, 0.0, S::Lost)};
  const std::vector<track::Track> ended = {make_track(2, 500.0, 45.0, S::Lost)};
  const auto reports = track_reports(live, ended, 1000.0, RadarIdentity{});
  const auto datagrams = cat048::encode_datagrams(reports, kMessageDatagramMax);
  cat048::Decoder dec;
  std::vector<cat048::TargetReport> got;
  for (const auto& d : datagrams) dec.decode(d, 0, got);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(*got[0].track_number, 3);
  EXPECT_NEAR(*got[0].x_nm, 1.0, 1.0 / 128);
  EXPECT_NEAR(*got[0].y_nm, 0.0, 1.0 / 128);
  EXPECT_NEAR(*got[0].ground_speed_nm_s * 3600.0, 5.0 * 3600 / 1852,
              0.5 * cat048::kSpeedLsbNmPerS * 3600.0 + 1e-9);
  EXPECT_NEAR(*got[0].heading_deg, 90.0, 0.01);
  EXPECT_FALSE(got[0].status->tentative);
  EXPECT_TRUE(got[1].status->tentative);
  EXPECT_NEAR(*got[1].y_nm, -2.0, 1.0 / 128);
  EXPECT_TRUE(got[2].status->dou);
  EXPECT_FALSE(got[2].status->tre);
  EXPECT_EQ(*got[3].track_number, 2);
  EXPECT_TRUE(got[3].status->tre);
  for (const auto& r : got) EXPECT_NEAR(r.tod_s, 1000.0, 1.0 / 128);
}

TEST(ServeMessages, NmeaHasOsdTtmAndTllForEachTrack) {
  nav::OwnShipState own;
  own.valid = true;
  own.heading_valid = true;
  own.lat_deg = 59.0;
  own.lon_deg = 10.0;
  own.heading_deg = 45;
  own.course_deg = 45;
  own.speed_mps = 2;
  std::vector<track::Track> tracks;
  for (int i = 1; i <= 40; ++i)
    tracks.push_back(make_track(i, 1852.0 * i / 10, 3.0 * i, track::Track::Status::Tracked));
  const auto dgs = nmea_datagrams(tracks, own, false, 43200.0);
  std::string all;
  for (const auto& d : dgs) {
    EXPECT_LE(d.size(), kMessageDatagramMax);
    all += d;
  }
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t p = all.find(what); p != std::string::npos; p = all.find(what, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("$RAOSD"), 1u);
  EXPECT_EQ(count("$RATTM"), 40u);
  EXPECT_EQ(count("$RATLL"), 40u);
  // Without own ship: relative TTM only, no position.
  const auto rel = nmea_datagrams(tracks, nav::OwnShipState{}, true, 43200.0);
  std::string r;
  for (const auto& d : rel) r += d;
  EXPECT_EQ(r.find("$RATLL"), std::string::npos);
  EXPECT_EQ(r.find("$RAOSD"), std::string::npos);
  EXPECT_NE(r.find(",R,"), std::string::npos);
}

TEST(ServeMessages, ServiceClockMarksNorthAndSectors) {
  ServiceClock clock(RadarIdentity{1, 2});
  std::vector<cat034::ServiceMessage> all;
  // Two rotations of 2.5 s, a radial every 1/64 of a turn, starting just past north.
  for (int i = 1; i <= 128; ++i) {
    const double az = (i % 64) * 360.0 / 64;
    const double t = 100.0 + 2.5 * i / 64;
    for (const auto& m : clock.on_radial(az, t)) all.push_back(m);
  }
  int north = 0, sectors = 0;
  for (const auto& m : all) {
    if (m.type == cat034::MessageType::NorthMarker) ++north;
    if (m.type == cat034::MessageType::SectorCrossing) ++sectors;
  }
  EXPECT_EQ(north, 2);
  EXPECT_EQ(sectors, 2 * (kSectorsPerRotation - 1) - 0);
  ASSERT_TRUE(clock.rotation_period_s());
  EXPECT_NEAR(*clock.rotation_period_s(), 2.5, 1e-6);
  // Every message encodes and decodes.
  cat034::Decoder dec;
  std::vector<cat034::ServiceMessage> got;
  for (const auto& m : all) dec.decode(cat034::encode_block(m), 0, got);
  EXPECT_EQ(got.size(), all.size());
  // A small step back is a producer's jitter, not a new rotation.
  ServiceClock c2(RadarIdentity{});
  c2.on_radial(100.0, 0);
  EXPECT_TRUE(c2.on_radial(99.0, 0.01).empty());
}

}  // namespace
}  // namespace sweepline::serve
