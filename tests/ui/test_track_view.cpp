// The tracking overlay's decisions without a window (ui/track_view.hpp): the tracker's plane to
// the head-up PPI and back, vectors and trails true and relative, the IEC 62288 symbol per
// status, picking a track with the mouse, the Targets table's order, two-click zones, polygon
// zones drawn click by click and zones edited by their handles (the console's commands too), and
// the tracking settings persisting with the console's file and its script verbs.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "app/common/check.hpp"
#include "app/engine/engine.hpp"
#include "render/egl_context.hpp"
#include "ui/console.hpp"
#include "ui/script.hpp"
#include "ui/settings.hpp"
#include "ui/track_view.hpp"

using namespace sweepline;
using namespace sweepline::ui;

namespace {

constexpr double kTol = 1e-6;

// Own ship valid at (1000, 2000) heading 090 (bow east), 5 m/s over ground toward east.
engine::TrackingView ground_view() {
  engine::TrackingView v;
  v.enabled = true;
  v.relative_only = false;
  v.time_s = 500;
  v.own_ship.valid = true;
  v.own_ship.heading_valid = true;
  v.own_ship.x_m = 1000;
  v.own_ship.y_m = 2000;
  v.own_ship.heading_deg = 90;
  v.own_ship.vx_mps = 5;
  v.own_ship.vy_mps = 0;
  return v;
}

track::Track make_track(int id, double x, double y, track::Track::Status st) {
  track::Track t;
  t.id = id;
  t.status = st;
  t.x_m = x;
  t.y_m = y;
  t.time_s = 500;
  return t;
}

void expect_point(render::WorldPoint p, double east, double north, double tol = kTol) {
  EXPECT_NEAR(p.east, east, tol);
  EXPECT_NEAR(p.north, north, tol);
}

}  // namespace

TEST(TrackPlane, GroundTracksAreDrawnAboutOwnShipHeadUp) {
  const PlaneToDisplay f = plane_to_display(ground_view());
  EXPECT_TRUE(f.ground);
  EXPECT_NEAR(f.up_deg, 90, kTol);
  // 1 km east of own ship is dead ahead (up) on a head-up PPI with the bow east; 1 km north of
  // own ship is on the port beam (left).
  expect_point(to_display(f, 2000, 2000), 0, 1000);
  expect_point(to_display(f, 1000, 3000), -1000, 0);
  // And back: a click on the PPI lands where the tracker has the target.
  double x = 0, y = 0;
  to_plane(f, {-1000, 0}, x, y);
  EXPECT_NEAR(x, 1000, kTol);
  EXPECT_NEAR(y, 3000, kTol);
  to_plane(f, {123, -456}, x, y);
  expect_point(to_display(f, x, y), 123, -456);
}

TEST(TrackPlane, GridConvergenceTurnsThePlaneToo) {
  engine::TrackingView v = ground_view();
  v.own_ship.heading_deg = 0;
  v.own_ship.true_to_grid_deg = 2;  // true north is 2 deg left of the plane's north here
  const PlaneToDisplay f = plane_to_display(v);
  EXPECT_NEAR(f.up_deg, 2, kTol);
  const render::WorldPoint p =
      to_display(f, 1000 + 1000 * std::sin(2 * M_PI / 180), 2000 + 1000 * std::cos(2 * M_PI / 180));
  expect_point(p, 0, 1000, 1e-6);
}

TEST(TrackPlane, RelativeTracksAreAlreadyAboutTheRadar) {
  engine::TrackingView v = ground_view();
  v.relative_only = true;  // own ship's position not usable
  v.own_ship.valid = false;
  v.own_ship.heading_valid = false;
  PlaneToDisplay f = plane_to_display(v);
  EXPECT_FALSE(f.ground);
  expect_point(to_display(f, 300, 400), 300, 400);  // no own offset, bow-up plane
  EXPECT_EQ(f.own_vx_mps, 0);
  // With a heading only, the relative plane is north-up: turned like the ground one.
  v.own_ship.heading_valid = true;
  f = plane_to_display(v);
  expect_point(to_display(f, 1000, 0), 0, 1000);
}

TEST(TrackGlyph, TrueAndRelativeVectorsScaleWithTheVectorTime) {
  const PlaneToDisplay f = plane_to_display(ground_view());
  track::Track t = make_track(1, 1000, 4000, track::Track::Status::Tracked);
  t.vx_mps = 0;
  t.vy_mps = -5;  // heading south at 5 m/s, 2 km north of own ship
  const TrackGlyph tg = track_glyph(t, f, VectorMode::True, 6, false);
  ASSERT_TRUE(tg.vector);
  expect_point(tg.position, -2000, 0);
  // True: 6 min x 5 m/s = 1800 m south = to the right on the PPI (bow east).
  expect_point(tg.vector_end, -2000 + 1800, 0);
  // Relative: minus own ship's 5 m/s east: also 1800 m west = down on the PPI.
  const TrackGlyph rg = track_glyph(t, f, VectorMode::Relative, 6, false);
  expect_point(rg.vector_end, -2000 + 1800, -1800);
  // Twice the time, twice the length.
  const TrackGlyph t12 = track_glyph(t, f, VectorMode::True, 12, false);
  expect_point(t12.vector_end, -2000 + 3600, 0);
}

TEST(TrackGlyph, NoVectorWhileAcquiringOrLostOrWithZeroTime) {
  const PlaneToDisplay f = plane_to_display(ground_view());
  track::Track t = make_track(1, 1000, 4000, track::Track::Status::Acquiring);
  t.vx_mps = 3;
  EXPECT_FALSE(track_glyph(t, f, VectorMode::True, 6, false).vector);
  t.status = track::Track::Status::Lost;
  EXPECT_FALSE(track_glyph(t, f, VectorMode::True, 6, false).vector);
  t.status = track::Track::Status::Tracked;
  EXPECT_FALSE(track_glyph(t, f, VectorMode::True, 0, false).vector);
  EXPECT_TRUE(track_glyph(t, f, VectorMode::True, 1, false).vector);
}

TEST(TrackGlyph, TrueTrailsStayOnTheGroundRelativeTrailsFollowOwnShip) {
  const PlaneToDisplay f = plane_to_display(ground_view());
  // A target at anchor 2 km north of own ship, seen for two minutes while own ship steamed east.
  track::Track t = make_track(1, 1000, 4000, track::Track::Status::Tracked);
  t.trail = {{380, 1000, 4000}, {440, 1000, 4000}};
  const TrackGlyph tg = track_glyph(t, f, VectorMode::True, 6, true);
  ASSERT_EQ(tg.trail.size(), 2u);
  for (const auto& p : tg.trail) expect_point(p, -2000, 0);  // the same ground point
  EXPECT_TRUE(track_glyph(t, f, VectorMode::True, 6, false).trail.empty());
  // Relative: 120 s ago own ship was 600 m further west, so the target was 600 m further east
  // of it: ahead of where it is now relative to the bow (up on the PPI).
  const TrackGlyph rg = track_glyph(t, f, VectorMode::Relative, 6, true);
  expect_point(rg.trail[0], -2000, 600);
  expect_point(rg.trail[1], -2000, 300);
}

TEST(TrackSymbolChoice, PerStatusDangerAndSelection) {
  track::Track t = make_track(7, 0, 0, track::Track::Status::Acquiring);
  TrackSymbol s = track_symbol(t, {}, 0);
  EXPECT_EQ(s.shape, SymbolShape::Acquiring);
  EXPECT_FALSE(s.vector);
  EXPECT_FALSE(s.selected);
  t.status = track::Track::Status::Tracked;
  s = track_symbol(t, {}, 7);
  EXPECT_EQ(s.shape, SymbolShape::Tracked);
  EXPECT_TRUE(s.vector);
  EXPECT_TRUE(s.selected);
  EXPECT_FALSE(s.dangerous);
  t.dangerous = true;
  EXPECT_TRUE(track_symbol(t, {}, 0).dangerous);
  t.status = track::Track::Status::Lost;
  s = track_symbol(t, {}, 0);
  EXPECT_EQ(s.shape, SymbolShape::Lost);
  EXPECT_FALSE(s.dangerous);  // a lost target shows the lost symbol, not a danger it may be
  EXPECT_FALSE(s.vector);
  EXPECT_FALSE(track_symbol(t, {}, 0).selected);  // 0 selects nothing, even a track id 0
}

TEST(TrackSymbolChoice, FlashesUntilItsAlarmsAreAcknowledged) {
  track::Track t = make_track(7, 0, 0, track::Track::Status::Tracked);
  t.dangerous = true;
  std::vector<track::Alarm> alarms(2);
  alarms[0] = {1, track::Alarm::Kind::Cpa, 7, 10.0, false};
  alarms[1] = {2, track::Alarm::Kind::Cpa, 8, 11.0, false};
  EXPECT_TRUE(track_symbol(t, alarms, 0).flashing);
  alarms[0].acknowledged = true;
  EXPECT_FALSE(track_symbol(t, alarms, 0).flashing);  // the other track's alarm is not its
  EXPECT_TRUE(track_symbol(t, alarms, 0).dangerous);  // still red, steady
  EXPECT_TRUE(flash_on(10.1));
  EXPECT_FALSE(flash_on(10.9));
}

TEST(TrackPick, NearestSymbolWithinTheRadius) {
  const PlaneToDisplay f = plane_to_display(ground_view());
  render::PpiView view;
  view.reset({0, 0, 1000, 1000}, 10000);  // radar at (500, 500)
  const double radius_px = render::PpiView::display_radius_px(view.rect());
  view.set_range_scale(radius_px / 0.1);  // 10 m a pixel
  // Track 1 dead ahead 1 km: screen (500, 400); track 2 dead ahead 1.1 km: (500, 390).
  std::vector<track::Track> tracks = {make_track(1, 2000, 2000, track::Track::Status::Tracked),
                                      make_track(2, 2100, 2000, track::Track::Status::Lost)};
  EXPECT_EQ(pick_track(tracks, f, view, 503, 401, 10), std::optional<int>(1));
  EXPECT_EQ(pick_track(tracks, f, view, 500, 392, 10), std::optional<int>(2));
  EXPECT_EQ(pick_track(tracks, f, view, 530, 400, 10), std::nullopt);
  EXPECT_EQ(pick_track({}, f, view, 500, 400, 10), std::nullopt);
  // Zoomed in 4x about the radar, the same screen point is 250 m ahead: nothing there.
  view.set_range_scale(radius_px / 0.4);
  EXPECT_EQ(pick_track(tracks, f, view, 500, 400, 10), std::nullopt);
  EXPECT_EQ(pick_track(tracks, f, view, 500, 100, 10), std::optional<int>(1));
}

TEST(TargetTable, SortsByColumnWithTiesById) {
  std::vector<track::Track> ts(4);
  for (int i = 0; i < 4; ++i) ts[size_t(i)].id = i + 1;
  ts[0].range_m = 3000;
  ts[1].range_m = 1000;
  ts[2].range_m = 3000;
  ts[3].range_m = 2000;
  ts[0].tcpa_s = 600;
  ts[1].tcpa_s = -60;  // passed
  ts[2].tcpa_s = 120;
  ts[3].tcpa_s = -600;  // passed longer ago
  ts[0].status = track::Track::Status::Lost;
  ts[2].status = track::Track::Status::Tracked;
  std::vector<const track::Track*> rows;
  for (const auto& t : ts) rows.push_back(&t);
  auto ids = [&] {
    std::vector<int> out;
    for (const auto* t : rows) out.push_back(t->id);
    return out;
  };
  sort_targets(rows, TargetColumn::Range, true);
  EXPECT_EQ(ids(), (std::vector<int>{2, 4, 1, 3}));
  sort_targets(rows, TargetColumn::Range, false);
  EXPECT_EQ(ids(), (std::vector<int>{1, 3, 4, 2}));
  // TCPA: the closest points still ahead first, soonest first; those passed after them.
  sort_targets(rows, TargetColumn::Tcpa, true);
  EXPECT_EQ(ids(), (std::vector<int>{3, 1, 2, 4}));
  sort_targets(rows, TargetColumn::Status, true);
  EXPECT_EQ(ids(), (std::vector<int>{2, 4, 3, 1}));
  sort_targets(rows, TargetColumn::Id, false);
  EXPECT_EQ(ids(), (std::vector<int>{4, 3, 2, 1}));
}

TEST(TrackZones, TwoClicksMakeAnArcInTrueOrRelativeBearings) {
  const PlaneToDisplay f = plane_to_display(ground_view());  // bow east
  auto at = [](double r, double b) {
    return render::WorldPoint{r * std::sin(b * M_PI / 180), r * std::cos(b * M_PI / 180)};
  };
  // Clicked at 3 km, 350 on the scale, then 1 km, 010: clockwise across the bow.
  track::AcquisitionZone z = arc_zone_from_points(f, at(3000, 350), at(1000, 10), false);
  EXPECT_EQ(z.kind, track::AcquisitionZone::Kind::Arc);
  EXPECT_NEAR(z.range_min_m, 1000, 1e-6);
  EXPECT_NEAR(z.range_max_m, 3000, 1e-6);
  EXPECT_NEAR(z.bearing_from_deg, 80, 1e-6);  // true: + the heading
  EXPECT_NEAR(z.bearing_to_deg, 100, 1e-6);
  EXPECT_FALSE(z.relative_to_heading);
  // The tracker's own test agrees: a point 2 km dead ahead is inside, one abeam is not.
  const track::ZoneOrigin o{1000, 2000, 90};
  EXPECT_TRUE(track::zone_contains(z, o, 3000, 2000));
  EXPECT_FALSE(track::zone_contains(z, o, 1000, 4000));
  z = arc_zone_from_points(f, at(3000, 350), at(1000, 10), true);
  EXPECT_NEAR(z.bearing_from_deg, 350, 1e-6);
  EXPECT_NEAR(z.bearing_to_deg, 10, 1e-6);
  EXPECT_TRUE(track::zone_contains(z, o, 3000, 2000));

  // Its outline is drawn where it was clicked: the outer arc from 350 to 010, then the inner.
  const auto loops = zone_outline(z, f);
  ASSERT_EQ(loops.size(), 1u);
  expect_point(loops[0].front(), at(3000, 350).east, at(3000, 350).north, 1e-6);
  expect_point(loops[0].back(), at(1000, 350).east, at(1000, 350).north, 1e-6);
  for (const auto& p : loops[0]) {
    const double r = render::range_of(p);
    EXPECT_TRUE(std::abs(r - 1000) < 1e-6 || std::abs(r - 3000) < 1e-6);
  }
  // Equal bearings: a full ring, both circles.
  z.bearing_to_deg = z.bearing_from_deg;
  EXPECT_EQ(zone_outline(z, f).size(), 2u);
  // A polygon: its vertices, turned onto the PPI.
  track::AcquisitionZone poly;
  poly.kind = track::AcquisitionZone::Kind::Polygon;
  poly.polygon = {{2000, 2000}, {2000, 3000}, {3000, 3000}};
  const auto pl = zone_outline(poly, f);
  ASSERT_EQ(pl.size(), 1u);
  ASSERT_EQ(pl[0].size(), 3u);
  expect_point(pl[0][0], 0, 1000);
}

namespace {

void expect_plane(track::ZonePoint p, double x, double y, double tol = 1e-6) {
  EXPECT_NEAR(p.x_m, x, tol);
  EXPECT_NEAR(p.y_m, y, tol);
}

// A 1000 px square PPI at 10 m a pixel, the radar at (500, 500) unless off-centre.
render::PpiView ten_metre_view(bool off_centre = false) {
  render::PpiView view;
  view.reset({0, 0, 1000, 1000}, 10000, off_centre);
  view.set_range_scale(render::PpiView::display_radius_px(view.rect()) / 0.1);
  return view;
}

}  // namespace

TEST(TrackZones, PolygonClicksLandOnTheGroundHeadUpNorthUpAndOffCentre) {
  const PlaneToDisplay f = plane_to_display(ground_view());  // own ship (1000, 2000), bow east
  render::PpiView view = ten_metre_view();
  auto click = [&](float sx, float sy) { return plane_point(f, view.screen_to_world(sx, sy)); };
  // Head-up: 1 km up the screen is 1 km east of own ship, right (starboard) is south, left north.
  std::vector<track::ZonePoint> v = {click(500, 400), click(600, 500), click(400, 500)};
  expect_plane(v[0], 2000, 2000, 1e-3);
  expect_plane(v[1], 1000, 1000, 1e-3);
  expect_plane(v[2], 1000, 3000, 1e-3);
  const track::AcquisitionZone z = polygon_zone(v);
  EXPECT_EQ(z.kind, track::AcquisitionZone::Kind::Polygon);
  EXPECT_NO_THROW(track::validate(z));
  // The tracker agrees on what is inside, and the outline is drawn where it was clicked.
  const track::ZoneOrigin o{1000, 2000, 90};
  EXPECT_TRUE(track::zone_contains(z, o, 1800, 2000));
  EXPECT_FALSE(track::zone_contains(z, o, 900, 2000));
  const auto loops = zone_outline(z, f);
  ASSERT_EQ(loops.size(), 1u);
  ASSERT_EQ(loops[0].size(), 3u);
  float sx = 0, sy = 0;
  view.world_to_screen(loops[0][1], sx, sy);
  EXPECT_NEAR(sx, 600, 1e-3);
  EXPECT_NEAR(sy, 500, 1e-3);

  // North-up (the picture turned by the heading): up the screen is north on the ground.
  view.set_rotation_deg(90);
  expect_plane(click(500, 400), 1000, 3000, 1e-3);
  expect_plane(click(600, 500), 2000, 2000, 1e-3);

  // Off-centre: the radar is back from the centre; a click is still measured from it.
  view = ten_metre_view(true);
  float rx = 0, ry = 0;
  view.world_to_screen({0, 0}, rx, ry);
  EXPECT_GT(ry, 600);  // moved down, the sea ahead filling the view
  expect_plane(click(rx, ry - 100), 2000, 2000, 1e-3);
  expect_plane(click(rx + 50, ry), 1000, 1500, 1e-3);

  // Relative tracks without a heading: the plane is the PPI's own, about the radar.
  engine::TrackingView rel;
  rel.enabled = true;
  const PlaneToDisplay fr = plane_to_display(rel);
  view = ten_metre_view();
  expect_plane(plane_point(fr, view.screen_to_world(500, 400)), 0, 1000, 1e-3);
}

TEST(TrackZones, APolygonClosesWithThreeVerticesAndNoCrossingEdges) {
  using P = track::ZonePoint;
  EXPECT_NE(polygon_problem({}).find("at least 3"), std::string::npos);
  EXPECT_NE(polygon_problem({{0, 0}, {100, 0}}).find("(2 so far)"), std::string::npos);
  EXPECT_EQ(polygon_problem({{0, 0}, {100, 0}, {100, 100}}), "");
  // A concave (L-shaped) outline is a zone; a bow tie is not.
  const std::vector<P> ell = {{0, 0}, {200, 0}, {200, 100}, {100, 100}, {100, 200}, {0, 200}};
  EXPECT_FALSE(polygon_self_intersects(ell));
  EXPECT_EQ(polygon_problem(ell), "");
  const std::vector<P> bow = {{0, 0}, {100, 100}, {100, 0}, {0, 100}};
  EXPECT_TRUE(polygon_self_intersects(bow));
  EXPECT_NE(polygon_problem(bow).find("cross"), std::string::npos);
  // An edge folded back along its neighbour, or a vertex on another edge, is no outline either.
  EXPECT_TRUE(polygon_self_intersects({{0, 0}, {200, 0}, {100, 0}, {100, 100}}));
  EXPECT_TRUE(polygon_self_intersects({{0, 0}, {200, 0}, {200, 200}, {100, 0}}));
  EXPECT_NE(polygon_problem({{0, 0}, {NAN, 0}, {100, 100}}), "");

  // A click closes the polygon when it is on the first vertex as drawn (within the radius).
  const PlaneToDisplay f = plane_to_display(ground_view());
  const render::PpiView view = ten_metre_view();
  const P first{2000, 2000};  // 1 km ahead: screen (500, 400)
  EXPECT_TRUE(near_point(f, view, first, 505, 404, 10));
  EXPECT_FALSE(near_point(f, view, first, 520, 400, 10));
}

TEST(TrackZones, HandlesMovePolygonVerticesAndArcCorners) {
  const PlaneToDisplay f = plane_to_display(ground_view());  // bow east
  const render::PpiView view = ten_metre_view();
  auto at = [](double r, double b) {
    return render::WorldPoint{r * std::sin(b * M_PI / 180), r * std::cos(b * M_PI / 180)};
  };
  // A polygon's handles are its vertices; a dragged vertex moves on the ground, the others stay.
  const track::AcquisitionZone poly = polygon_zone({{2000, 2000}, {1000, 1000}, {1000, 3000}});
  const auto ph = zone_handles(poly, f);
  ASSERT_EQ(ph.size(), 3u);
  expect_point(ph[0], 0, 1000);
  EXPECT_EQ(pick_zone_handle(poly, f, view, 598, 503, 10), std::optional<int>(1));
  EXPECT_EQ(pick_zone_handle(poly, f, view, 550, 450, 10), std::nullopt);
  track::AcquisitionZone moved = move_zone_handle(poly, f, 0, at(2000, 0));
  expect_plane(moved.polygon[0], 3000, 2000);
  expect_plane(moved.polygon[1], 1000, 1000);
  expect_plane(moved.polygon[2], 1000, 3000);
  EXPECT_EQ(move_zone_handle(poly, f, 3, at(2000, 0)).polygon[0].x_m, 2000);  // no such handle

  // An arc's corners: (inner, from) and (outer, to), as its two clicks made them.
  const track::AcquisitionZone arc = arc_zone_from_points(f, at(1000, 350), at(3000, 10), false);
  const auto ah = zone_handles(arc, f);
  ASSERT_EQ(ah.size(), 2u);
  expect_point(ah[0], at(1000, 350).east, at(1000, 350).north);
  expect_point(ah[1], at(3000, 10).east, at(3000, 10).north);
  // The outer corner out to 4 km and 030 on the scale: the outer range and the second bearing.
  moved = move_zone_handle(arc, f, 1, at(4000, 30));
  EXPECT_NEAR(moved.range_min_m, 1000, 1e-6);
  EXPECT_NEAR(moved.range_max_m, 4000, 1e-6);
  EXPECT_DOUBLE_EQ(moved.bearing_from_deg, arc.bearing_from_deg);  // 080 true, untouched
  EXPECT_NEAR(moved.bearing_to_deg, 120, 1e-6);                    // 030 + the heading
  EXPECT_FALSE(moved.relative_to_heading);
  // The inner corner in to 500 m at 330: the inner range and the first bearing.
  moved = move_zone_handle(arc, f, 0, at(500, 330));
  EXPECT_NEAR(moved.range_min_m, 500, 1e-6);
  EXPECT_NEAR(moved.range_max_m, 3000, 1e-6);
  EXPECT_NEAR(moved.bearing_from_deg, 60, 1e-6);
  EXPECT_DOUBLE_EQ(moved.bearing_to_deg, arc.bearing_to_deg);
  // Dragged past the outer range, the inner corner becomes the outer one.
  moved = move_zone_handle(arc, f, 0, at(5000, 350));
  EXPECT_NEAR(moved.range_min_m, 3000, 1e-6);
  EXPECT_NEAR(moved.range_max_m, 5000, 1e-6);
  // Relative bearings stay relative to the heading.
  const track::AcquisitionZone rel = arc_zone_from_points(f, at(1000, 350), at(3000, 10), true);
  moved = move_zone_handle(rel, f, 1, at(3000, 30));
  EXPECT_TRUE(moved.relative_to_heading);
  EXPECT_NEAR(moved.bearing_from_deg, 350, 1e-6);
  EXPECT_NEAR(moved.bearing_to_deg, 30, 1e-6);
  // A corner dragged onto own ship keeps the zone's bearing (it has none of its own there).
  moved = move_zone_handle(rel, f, 0, {0, 0});
  EXPECT_NEAR(moved.range_min_m, 0, 1e-9);
  EXPECT_NEAR(moved.bearing_from_deg, 350, 1e-6);

  // A right-click on a zone's outline picks it for editing.
  const std::vector<std::pair<int, track::AcquisitionZone>> zones = {{4, poly}, {7, arc}};
  // The arc's outer edge crosses the bow 3 km ahead: screen (500, 200).
  EXPECT_EQ(pick_zone(zones, f, view, 502, 203, 10), std::optional<int>(7));
  // The polygon's edge from (500, 400) to (600, 500), at its middle.
  EXPECT_EQ(pick_zone(zones, f, view, 553, 447, 10), std::optional<int>(4));
  EXPECT_EQ(pick_zone(zones, f, view, 900, 900, 10), std::nullopt);
}

TEST(TrackZones, TheConsoleDrawsClosesAndEditsZonesInTheEngine) {
  render::EglContext egl("auto");  // the console's renderer needs a GL context
  engine::EngineSettings s;
  s.processing.backend = "cpu";
  engine::Engine eng(s);
  Console console(eng, ViewSettings{});
  ASSERT_TRUE(eng.tracking().enabled);
  auto at = [](double r, double b) {
    return render::WorldPoint{r * std::sin(b * M_PI / 180), r * std::cos(b * M_PI / 180)};
  };
  // Two vertices cannot close: the reason shows and drawing goes on; Backspace removes one.
  console.begin_polygon_zone();
  console.add_polygon_vertex(at(1000, 0));
  console.add_polygon_vertex(at(1000, 90));
  console.key(Key::ZoneClose);
  EXPECT_TRUE(console.polygon_armed());
  EXPECT_NE(console.message().find("at least 3"), std::string::npos) << console.message();
  EXPECT_TRUE(eng.tracking().zones.empty());
  console.key(Key::ZoneUndo);
  ASSERT_EQ(console.polygon_vertices().size(), 1u);
  console.add_polygon_vertex(at(1000, 90));
  console.add_polygon_vertex(at(1000, 180));
  console.key(Key::ZoneClose);
  EXPECT_FALSE(console.polygon_armed());
  ASSERT_EQ(eng.tracking().zones.size(), 1u);
  const auto [id, z] = eng.tracking().zones[0];
  EXPECT_EQ(z.kind, track::AcquisitionZone::Kind::Polygon);
  ASSERT_EQ(z.polygon.size(), 3u);
  ASSERT_EQ(eng.settings().tracking.zones.size(), 1u);  // persisted with the settings
  // Esc drops a polygon being drawn without adding it.
  console.begin_polygon_zone();
  console.add_polygon_vertex(at(2000, 0));
  console.key(Key::Escape);
  EXPECT_FALSE(console.polygon_armed());
  EXPECT_EQ(eng.tracking().zones.size(), 1u);

  // Editing: a vertex moved replaces the zone (the console follows its new id); a move that
  // makes the edges cross is refused with the reason, the zone left as it was.
  console.edit_zone(id);
  ASSERT_TRUE(console.move_edited_handle(0, at(1500, 0)));
  ASSERT_EQ(eng.tracking().zones.size(), 1u);
  EXPECT_EQ(console.edited_zone(), eng.tracking().zones[0].first);
  const track::AcquisitionZone edited = eng.tracking().zones[0].second;
  EXPECT_NEAR(std::hypot(edited.polygon[0].x_m - z.polygon[1].x_m,
                         edited.polygon[0].y_m - z.polygon[1].y_m),
              std::hypot(1500, 1000), 1e-6);
  // The starboard vertex dragged dead ahead beyond the first: the edges fold back on each other.
  EXPECT_FALSE(console.move_edited_handle(1, at(3000, 0)));
  EXPECT_NE(console.message().find("cross"), std::string::npos) << console.message();
  EXPECT_DOUBLE_EQ(eng.tracking().zones[0].second.polygon[1].x_m, edited.polygon[1].x_m);
  EXPECT_NEAR(edited.polygon[1].x_m, 1000, 1e-6);
  console.key(Key::Escape);
  EXPECT_EQ(console.edited_zone(), 0);
}

TEST(TrackDataBox, SaysWhatTheOperatorNeeds) {
  track::Track t = make_track(12, 0, 0, track::Track::Status::Tracked);
  t.range_m = 2 * kMetresPerNm;
  t.bearing_deg = 45;
  t.course_deg = 270;
  t.speed_mps = 10 / kKnotsPerMps;
  t.cpa_m = 0.5 * kMetresPerNm;
  t.tcpa_s = 6 * 60;
  t.dangerous = true;
  t.manual = true;
  auto lines = data_box_lines(t, true);
  ASSERT_GE(lines.size(), 5u);
  EXPECT_EQ(lines[0], "TGT 12  TRK  MANUAL");
  EXPECT_EQ(lines[1], "BRG 045.0  RNG 2.00 NM");
  EXPECT_EQ(lines[2], "CRS 270.0  SPD 10.0 KN");
  EXPECT_EQ(lines[4], "CPA 0.50 NM  TCPA 6.0 MIN");
  EXPECT_EQ(lines.back(), "DANGEROUS");
  // Relative tracks: no true course line, the bearing marked relative.
  lines = data_box_lines(t, false);
  EXPECT_EQ(lines[1], "BRG 045.0R  RNG 2.00 NM");
  EXPECT_EQ(lines[2].rfind("RCRS", 0), 0u);
  t.cpa_moving = false;
  EXPECT_EQ(tcpa_text(t), "--");
  EXPECT_EQ(clock_text(3600 * 25 + 61.7), "01:01:01");
}

TEST(TrackSettings, PersistWithTheConsolesFile) {
  const auto path = std::filesystem::temp_directory_path() / "swl_track_settings.json";
  Settings s;
  s.tracking.cpa_limit_nm = 0.5;
  s.tracking.vector_mode = "relative";
  s.tracking.trails = false;
  track::AcquisitionZone z;
  z.range_min_m = 500;
  z.range_max_m = 2000;
  z.bearing_from_deg = 300;
  z.bearing_to_deg = 60;
  s.tracking.zones = {z};
  s.navigation.udp = "udp://:10110";
  save_settings(path.string(), s);
  Settings back;
  ASSERT_TRUE(load_settings(path.string(), back));
  EXPECT_DOUBLE_EQ(back.tracking.cpa_limit_nm, 0.5);
  EXPECT_EQ(back.tracking.vector_mode, "relative");
  EXPECT_FALSE(back.tracking.trails);
  ASSERT_EQ(back.tracking.zones.size(), 1u);
  EXPECT_DOUBLE_EQ(back.tracking.zones[0].bearing_from_deg, 300);
  EXPECT_EQ(back.navigation.udp, "udp://:10110");
  // A bad value is refused naming its key; the file is set aside (defaults), never half read.
  {
    std::ofstream out(path);
    out << R"({"tracking": {"cpa_limit_nm": -1}})";
  }
  std::string error;
  EXPECT_FALSE(load_settings(path.string(), back, &error));
  EXPECT_NE(error.find("cpa_limit_nm"), std::string::npos) << error;
  EXPECT_DOUBLE_EQ(back.tracking.cpa_limit_nm, engine::TrackingSettings{}.cpa_limit_nm);
  std::filesystem::remove(path);
}

TEST(TrackScript, VerbsAreCheckedWhenTheScriptIsRead) {
  const auto cmds = parse_script(
      "acquire 2.5 045\nselect 3\nselect none\nselect nearest\nselect dangerous\ncancel "
      "all\ncancel 4\nack all\nvectors relative\n"
      "vector_minutes 12\ntrails off\ncpa_limit 0.5\ntcpa_limit 10\nzone 0.5 3 300 60\n"
      "click 400 300\nkey del\nkey a\nkey esc\n");
  EXPECT_EQ(cmds.size(), 18u);
  for (const char* bad : {"acquire 2.5\n", "acquire x 45\n", "vectors sideways\n", "trails maybe\n",
                          "select first\n", "zone 1 2 3\n", "cancel some\n"})
    EXPECT_THROW(parse_script(bad), Error) << bad;
  // Polygon zones and zone editing.
  const auto zones = parse_script(
      "zone_polygon 1 0 1.5 90 1 180\nzone_polygon 1 0 2 60 2 120 1 180\nzone_draw polygon\n"
      "zone_draw arc\nzone_draw off\nkey enter\nkey backspace\nzone_edit 2\nzone_edit none\n"
      "zone_drag 1 2.5 045\n");
  ASSERT_EQ(zones.size(), 10u);
  EXPECT_EQ(zones[1].args.size(), 8u);
  for (const char* bad :
       {"zone_polygon 1 0 1 90\n", "zone_polygon 1 0 1 90 1\n", "zone_polygon 1 0 1 x 1 180\n",
        "zone_polygon\n", "zone_draw circle\n", "zone_edit first\n", "zone_drag 1 2\n",
        "zone_drag -1 2 45\n", "zone_drag 0.5 2 45\n", "key return\n"})
    EXPECT_THROW(parse_script(bad), Error) << bad;
}
