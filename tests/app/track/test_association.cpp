// Gating and assignment: the exact solver, crossing targets, and a dense random field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <random>

#include "app/track/association.hpp"
#include "app/track/imm.hpp"
#include "app/track/tracker.hpp"
#include "tests/app/track/track_sim.hpp"

using namespace sweepline::track;
using namespace sweepline::tracktest;

TEST(TrackAssociation, HungarianFindsTheMinimum) {
  // Greedy takes (0,0)=1 and is then forced to (1,1)=10: total 11; the optimum is 2 + 3 = 5.
  const std::vector<double> cost = {1, 2, 3, 10};
  const auto col = hungarian(cost, 2, 2);
  EXPECT_EQ(col[0], 1);
  EXPECT_EQ(col[1], 0);
}

TEST(TrackAssociation, GatesAndClusters) {
  Associator a;
  AssociationResult r;
  std::vector<GateTrack> tracks(3);
  for (int i = 0; i < 3; ++i) {
    tracks[i].pos[0] = 1000.0 * i;
    tracks[i].cov[0] = tracks[i].cov[2] = 100.0;
  }
  std::vector<GatePlot> plots(4);
  plots[0].z[0] = 5;     // near track 0
  plots[1].z[0] = 2010;  // near track 2
  plots[2].z[0] = 500;   // between 0 and 1: in no gate
  plots[3].z[0] = 1985;  // also near track 2, farther
  for (auto& p : plots) p.r[0] = p.r[2] = 100.0;
  a.run(tracks, plots, 13.8, 13.8, 24, r);
  EXPECT_EQ(r.track_plot[0], 0);
  EXPECT_EQ(r.track_plot[1], -1);
  EXPECT_EQ(r.track_plot[2], 1);
  EXPECT_EQ(r.plot_near[2], 0);
  EXPECT_EQ(r.plot_near[3], 1);
}

TEST(TrackAssociation, APlotClearOfAConfirmedTracksPlotIsFreeToStartATrack) {
  // A confirmed track (sigma 10 m) takes plot 0; plot 1 lies in its exclusion ellipse but 145 m
  // from plot 0 (plots' sigma 20 m): a neighbour, free. Plot 2, 55 m from plot 0, may be a split
  // of it: excluded. A track that missed (no plot 0), or a one-plot tentative, excludes its whole
  // region.
  std::vector<GateTrack> tracks(1);
  tracks[0].pos[1] = 10000;
  tracks[0].cov[0] = tracks[0].cov[2] = 100.0;
  std::vector<GatePlot> plots(3);
  plots[0].z[0] = 5;
  plots[1].z[0] = 150;
  plots[2].z[0] = 60;
  for (auto& p : plots) {
    p.z[1] = 10000;
    p.r[0] = p.r[2] = 400.0;
  }
  Associator a;
  AssociationResult r;
  a.run(tracks, plots, 18.4, 4 * 18.4, 24, r);
  EXPECT_EQ(r.track_plot[0], 0);
  EXPECT_EQ(r.plot_near[1], 1);
  EXPECT_EQ(r.plot_excluded[1], 0);
  EXPECT_EQ(r.plot_excluded[2], 1);
  tracks[0].young = true;  // acquiring, with a filter: the same
  a.run(tracks, plots, 18.4, 4 * 18.4, 24, r);
  EXPECT_EQ(r.track_plot[0], 0);
  EXPECT_EQ(r.plot_excluded[1], 0);
  EXPECT_EQ(r.plot_excluded[2], 1);
  tracks[0].circle_radius_m = 300;  // a one-plot tentative: its whole circle
  a.run(tracks, plots, 18.4, 4 * 18.4, 24, r);
  EXPECT_EQ(r.track_plot[0], 0);
  EXPECT_EQ(r.plot_excluded[1], 1);
  tracks[0].young = false;
  tracks[0].circle_radius_m = 0;
  const std::vector<GatePlot> only_far = {plots[1]};
  a.run(tracks, only_far, 18.4, 4 * 18.4, 24, r);
  EXPECT_EQ(r.track_plot[0], -1);
  EXPECT_EQ(r.plot_excluded[0], 1);
}

TEST(TrackAssociation, AConfirmedTrackKeepsAContestedPlotFromAYoungOne) {
  // The young track's loose prediction (sigma 200 m) puts the plot at d2 1.4, the confirmed
  // track's (sigma 10 m) at d2 7.2: at full weight the young one takes it.
  std::vector<GateTrack> tracks(2);
  tracks[0].cov[0] = tracks[0].cov[2] = 100.0;
  tracks[1].pos[1] = 300;
  tracks[1].cov[0] = tracks[1].cov[2] = 40000.0;
  tracks[1].young = true;
  std::vector<GatePlot> plots(1);
  plots[0].z[1] = 60;
  plots[0].r[0] = plots[0].r[2] = 400.0;
  Associator a;
  AssociationResult r;
  a.run(tracks, plots, 18.4, 4 * 18.4, 24, r, 0, 0, 1.0);
  EXPECT_EQ(r.track_plot[1], 0);
  a.run(tracks, plots, 18.4, 4 * 18.4, 24, r, 0, 0, 0.5);
  EXPECT_EQ(r.track_plot[0], 0);
  EXPECT_EQ(r.track_plot[1], -1);
  // Alone, the young track still takes it.
  a.run(std::span<const GateTrack>(tracks).subspan(1), plots, 18.4, 4 * 18.4, 24, r, 0, 0, 0.5);
  EXPECT_EQ(r.track_plot[0], 0);
}

TEST(TrackAssociation, HashFindsEveryPairABruteForceFinds) {
  // Gate boxes are sized per track from the plots' noise in its range band (bearing noise grows
  // with the distance from the radar): every plot inside some track's exclusion ellipse (and
  // within the cap) must still be marked near, as a test of all pairs finds. Tracks and plots
  // spread from 0.5 to 60 km around a radar away from the origin, polar plot noise, converged
  // and coasting tracks, one-plot tentatives with circles.
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double ox = 12000, oy = -7000, gate = 18.4, excl = 4 * gate;
  for (const double cap : {1500.0, 1e9}) {
    std::vector<GateTrack> tracks(3000);
    std::vector<GatePlot> plots(3000);
    for (std::size_t i = 0; i < plots.size(); ++i) {
      const double r = 500 + 59500 * std::sqrt(u(rng)), b = 360 * u(rng);
      const double x = ox + r * std::sin(b * kDeg), y = oy + r * std::cos(b * kDeg);
      const Measurement m =
          polar_measurement(x, y, r, b, 20, 0.05 + 0.1 * u(rng), 30, 1.2, 1.2, 30);
      GatePlot& p = plots[i];
      std::copy(m.z, m.z + 2, p.z);
      std::copy(m.r, m.r + 3, p.r);
      // A track per plot with a covariance like a filter's (a scaled plot noise), placed so that
      // the plot lies near the edge of its exclusion ellipse (d2 from 0.6 to 1.1 x the bound):
      // where boxes that ignore the plot's own noise would miss it.
      GateTrack& g = tracks[i];
      g.max_radius_m = cap;
      const double k = u(rng) < 0.9 ? 0.05 + u(rng) : 5 + 20 * u(rng);
      for (int c = 0; c < 3; ++c) g.cov[c] = k * m.r[c];
      const double s00 = g.cov[0] + m.r[0], s01 = g.cov[1] + m.r[1], s11 = g.cov[2] + m.r[2];
      const double l00 = std::sqrt(s00), l10 = s01 / l00, l11 = std::sqrt(s11 - l10 * l10);
      const double a = 2 * std::numbers::pi * u(rng), d = std::sqrt(excl * (0.6 + 0.5 * u(rng)));
      const double e0 = d * std::cos(a), e1 = d * std::sin(a);
      g.pos[0] = x - l00 * e0;
      g.pos[1] = y - (l10 * e0 + l11 * e1);
      if (i % 50 == 0) g.circle_radius_m = 200 + 1000 * u(rng);
    }
    Associator a;
    AssociationResult res;
    a.run(tracks, plots, gate, excl, 24, res, ox, oy);
    int near = 0;
    for (std::size_t j = 0; j < plots.size(); ++j) {
      bool expect = false;
      for (const GateTrack& g : tracks) {
        const double n0 = plots[j].z[0] - g.pos[0], n1 = plots[j].z[1] - g.pos[1];
        if (g.circle_radius_m > 0) {
          expect |= n0 * n0 + n1 * n1 <= g.circle_radius_m * g.circle_radius_m;
          continue;
        }
        if (n0 * n0 + n1 * n1 > cap * cap) continue;
        const double s00 = g.cov[0] + plots[j].r[0], s01 = g.cov[1] + plots[j].r[1],
                     s11 = g.cov[2] + plots[j].r[2];
        const double d2 =
            (s11 * n0 * n0 - 2 * s01 * n0 * n1 + s00 * n1 * n1) / (s00 * s11 - s01 * s01);
        expect |= d2 <= excl;
      }
      EXPECT_EQ(res.plot_near[j] != 0, expect) << "plot " << j << ", cap " << cap;
      near += expect;
    }
    EXPECT_GT(near, 2000);  // most plots lie in an ellipse, many near its edge
    int assigned = 0;
    for (std::size_t t = 0; t < tracks.size(); ++t) {
      const int j = res.track_plot[t];
      if (j < 0 || tracks[t].circle_radius_m > 0) continue;
      const GateTrack& g = tracks[t];
      const double n0 = plots[j].z[0] - g.pos[0], n1 = plots[j].z[1] - g.pos[1];
      const double s00 = g.cov[0] + plots[j].r[0], s01 = g.cov[1] + plots[j].r[1],
                   s11 = g.cov[2] + plots[j].r[2];
      EXPECT_LE((s11 * n0 * n0 - 2 * s01 * n0 * n1 + s00 * n1 * n1) / (s00 * s11 - s01 * s01),
                gate + 1e-9);
      ++assigned;
    }
    EXPECT_GT(assigned, 50);
  }
}

TEST(TrackAssociation, CrossingTargetsKeepTheirIds) {
  // Two 12 kn ships crossing at right angles, passing 80 m apart 5 km north of own ship.
  SimRadar radar;
  SimTarget a, b;
  const double v = 12 * kKnot, t_cross = 150;
  a.x = -v * t_cross;
  a.y = 5000;
  a.vx = v;
  b.x = 80;
  b.y = 5000 - v * t_cross;
  b.vy = v;
  radar.targets = {a, b};
  Tracker tr;
  std::vector<Track> tracks;
  radar.rotate(tr, 8);
  tr.tracks(tracks);
  double x, y, vx, vy;
  truth_at(a, radar.t, x, y, vx, vy);
  const Track* ta = nearest(tracks, x, y, 150);
  truth_at(b, radar.t, x, y, vx, vy);
  const Track* tb = nearest(tracks, x, y, 150);
  ASSERT_TRUE(ta && tb);
  const int ida = ta->id, idb = tb->id;
  ASSERT_NE(ida, idb);
  for (int r = 0; r < 120; ++r) {  // 5 minutes: through the crossing and away
    radar.rotate(tr, 1);
    tr.tracks(tracks);
    truth_at(a, radar.t, x, y, vx, vy);
    const Track* na = nearest(tracks, x, y, 200);
    truth_at(b, radar.t, x, y, vx, vy);
    const Track* nb = nearest(tracks, x, y, 200);
    ASSERT_TRUE(na && nb) << "rotation " << r;
    EXPECT_EQ(na->id, ida) << "rotation " << r;
    EXPECT_EQ(nb->id, idb) << "rotation " << r;
  }
}

TEST(TrackAssociation, DenseFieldConfirmsEveryTargetAndKeepsIds) {
  // 1,000 ships at 0-25 kn in an annulus of 1-20 km, at least 400 m apart, 2 % clutter plots.
  SimRadar radar;
  radar.clutter_fraction = 0.02;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  while (radar.targets.size() < 1000) {
    const double r = 1000 + 19000 * std::sqrt(u(rng)), b = 360 * u(rng);
    SimTarget s;
    s.x = r * std::sin(b * kDeg);
    s.y = r * std::cos(b * kDeg);
    bool ok = true;
    for (const SimTarget& o : radar.targets)
      if (std::hypot(o.x - s.x, o.y - s.y) < 400) ok = false;
    if (!ok) continue;
    const double c = 360 * u(rng), sp = 25 * kKnot * u(rng);
    s.vx = sp * std::sin(c * kDeg);
    s.vy = sp * std::cos(c * kDeg);
    radar.targets.push_back(s);
  }
  TrackerParams p;
  p.capacity = 5000;
  Tracker tr(p);
  radar.rotate(tr, 4);
  std::vector<Track> tracks;
  tr.tracks(tracks);
  int confirmed = 0;
  for (const SimTarget& s : radar.targets) {
    double x, y, vx, vy;
    truth_at(s, radar.t, x, y, vx, vy);
    confirmed += nearest(tracks, x, y, 150) != nullptr;
  }
  EXPECT_EQ(confirmed, 1000);
  // Two rotations to settle: a target whose first plots competed with a clutter tentative may
  // briefly carry two tracks (no duplicate merge yet); the ids are taken after that.
  radar.rotate(tr, 2);
  tr.tracks(tracks);
  std::vector<int> ids(radar.targets.size(), 0);
  for (std::size_t i = 0; i < radar.targets.size(); ++i) {
    double x, y, vx, vy;
    truth_at(radar.targets[i], radar.t, x, y, vx, vy);
    if (const Track* t = nearest(tracks, x, y, 150)) ids[i] = t->id;
  }
  // Ten more rotations: every target separated from the others by > 300 m keeps its id.
  int swaps = 0, checked = 0;
  for (int r = 0; r < 10; ++r) {
    radar.rotate(tr, 1);
    tr.tracks(tracks);
    std::vector<std::pair<double, double>> pos(radar.targets.size());
    for (std::size_t i = 0; i < radar.targets.size(); ++i) {
      double vx, vy;
      truth_at(radar.targets[i], radar.t, pos[i].first, pos[i].second, vx, vy);
    }
    for (std::size_t i = 0; i < radar.targets.size(); ++i) {
      double sep = 1e9;
      for (std::size_t j = 0; j < pos.size(); ++j)
        if (j != i)
          sep =
              std::min(sep, std::hypot(pos[i].first - pos[j].first, pos[i].second - pos[j].second));
      if (sep < 300 || ids[i] == 0) continue;
      ++checked;
      const Track* t = nearest(tracks, pos[i].first, pos[i].second, 150);
      if (!t || t->id != ids[i]) ++swaps;
    }
  }
  EXPECT_GT(checked, 9000);
  EXPECT_EQ(swaps, 0);
  // Clutter does not turn into confirmed tracks (it is uncorrelated scan to scan).
  int tracked = 0;
  for (const Track& t : tracks) tracked += t.status == Track::Status::Tracked;
  EXPECT_LE(tracked, 1000 + 5);
}
