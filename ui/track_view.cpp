#include "ui/track_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace sweepline::ui {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;
// Zone arcs are drawn as polylines of at most this many degrees a segment: smooth at any zoom
// the PPI offers without thousands of vertices per zone.
constexpr double kArcStepDeg = 2.0;

double wrap360(double deg) {
  double d = std::fmod(deg, 360.0);
  return d < 0 ? d + 360.0 : d;
}

render::WorldPoint polar(double range_m, double bearing_deg) {
  return {range_m * std::sin(bearing_deg * kDeg), range_m * std::cos(bearing_deg * kDeg)};
}

// Points along the arc of radius r clockwise from bearing a over `span` degrees (PPI bearings).
void add_arc(std::vector<render::WorldPoint>& out, double r, double from_deg, double span_deg) {
  const int n = std::max(1, int(std::ceil(std::abs(span_deg) / kArcStepDeg)));
  for (int i = 0; i <= n; ++i) out.push_back(polar(r, from_deg + span_deg * i / n));
}

// Points whose turn is within this sine of an angle are collinear: a vertex placed on an edge
// through a trigonometric round trip is off it by rounding only, far below what a click can aim.
constexpr double kCollinearSine = 1e-9;

// The turn a -> b -> c: 1 anticlockwise, -1 clockwise, 0 collinear (within kCollinearSine).
int turn(track::ZonePoint a, track::ZonePoint b, track::ZonePoint c) {
  const double bx = b.x_m - a.x_m, by = b.y_m - a.y_m, cx = c.x_m - a.x_m, cy = c.y_m - a.y_m;
  const double cross = bx * cy - by * cx;
  if (std::abs(cross) <= kCollinearSine * std::hypot(bx, by) * std::hypot(cx, cy)) return 0;
  return cross > 0 ? 1 : -1;
}

// c lies on the segment a-b (given that the three are collinear).
bool within(track::ZonePoint a, track::ZonePoint b, track::ZonePoint c) {
  const double dx = b.x_m - a.x_m, dy = b.y_m - a.y_m, len2 = dx * dx + dy * dy;
  if (len2 == 0) return c.x_m == a.x_m && c.y_m == a.y_m;
  const double t = ((c.x_m - a.x_m) * dx + (c.y_m - a.y_m) * dy) / len2;
  return t >= 0 && t <= 1;
}

// The segments a-b and c-d meet (crossing, touching or overlapping).
bool segments_meet(track::ZonePoint a, track::ZonePoint b, track::ZonePoint c, track::ZonePoint d) {
  const int d1 = turn(c, d, a), d2 = turn(c, d, b), d3 = turn(a, b, c), d4 = turn(a, b, d);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (d1 == 0 && within(c, d, a)) || (d2 == 0 && within(c, d, b)) ||
         (d3 == 0 && within(a, b, c)) || (d4 == 0 && within(a, b, d));
}

// The squared distance in pixels from (px, py) to the segment (ax, ay)-(bx, by).
float segment_d2(float ax, float ay, float bx, float by, float px, float py) {
  const float dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
  float t = len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0f;
  t = std::clamp(t, 0.0f, 1.0f);
  const float ex = ax + t * dx - px, ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

}  // namespace

PlaneToDisplay plane_to_display(const engine::TrackingView& v) {
  PlaneToDisplay f;
  const nav::OwnShipState& own = v.own_ship;
  f.time_s = v.time_s;
  f.ground = own.valid && !v.relative_only;
  if (f.ground) {
    f.own_x_m = own.x_m;
    f.own_y_m = own.y_m;
    f.up_deg = wrap360(own.heading_deg + own.true_to_grid_deg);
    f.own_vx_mps = own.vx_mps;
    f.own_vy_mps = own.vy_mps;
    f.zone_heading_deg = f.up_deg;
  } else if (own.heading_valid) {
    f.up_deg = wrap360(own.heading_deg);  // the relative plane is north-up about the radar
  }
  return f;
}

render::WorldPoint rotate_to_display(const PlaneToDisplay& f, double vx, double vy) {
  // A plane bearing b shows at b - up on the PPI.
  const double c = std::cos(f.up_deg * kDeg), s = std::sin(f.up_deg * kDeg);
  return {vx * c - vy * s, vy * c + vx * s};
}

render::WorldPoint to_display(const PlaneToDisplay& f, double x_m, double y_m) {
  return rotate_to_display(f, x_m - f.own_x_m, y_m - f.own_y_m);
}

void to_plane(const PlaneToDisplay& f, render::WorldPoint p, double& x_m, double& y_m) {
  const double c = std::cos(f.up_deg * kDeg), s = std::sin(f.up_deg * kDeg);
  x_m = f.own_x_m + p.east * c + p.north * s;
  y_m = f.own_y_m + p.north * c - p.east * s;
}

VectorMode vector_mode(const engine::TrackingSettings& s) {
  return s.vector_mode == "relative" ? VectorMode::Relative : VectorMode::True;
}

TrackGlyph track_glyph(const track::Track& t, const PlaneToDisplay& f, VectorMode mode,
                       double vector_minutes, bool trails) {
  TrackGlyph g;
  g.position = to_display(f, t.x_m, t.y_m);
  const bool relative = mode == VectorMode::Relative;
  if (t.status == track::Track::Status::Tracked && vector_minutes > 0) {
    g.vector = true;
    const double vx = relative ? t.vx_mps - f.own_vx_mps : t.vx_mps;
    const double vy = relative ? t.vy_mps - f.own_vy_mps : t.vy_mps;
    const render::WorldPoint d = rotate_to_display(f, vx, vy);
    const double s = vector_minutes * 60.0;
    g.vector_end = {g.position.east + d.east * s, g.position.north + d.north * s};
  }
  if (trails) {
    g.trail.reserve(t.trail.size());
    for (const track::TrailPoint& p : t.trail) {
      if (!relative) {
        g.trail.push_back(to_display(f, p.x_m, p.y_m));
        continue;
      }
      const double back = t.time_s - p.time_s;
      g.trail.push_back(rotate_to_display(f, p.x_m - (f.own_x_m - f.own_vx_mps * back),
                                          p.y_m - (f.own_y_m - f.own_vy_mps * back)));
    }
  }
  return g;
}

TrackSymbol track_symbol(const track::Track& t, const std::vector<track::Alarm>& alarms,
                         int selected_id) {
  TrackSymbol s;
  switch (t.status) {
    case track::Track::Status::Acquiring:
      s.shape = SymbolShape::Acquiring;
      break;
    case track::Track::Status::Tracked:
      s.shape = SymbolShape::Tracked;
      s.vector = true;
      break;
    case track::Track::Status::Lost:
      s.shape = SymbolShape::Lost;
      break;
  }
  s.dangerous = t.dangerous && t.status != track::Track::Status::Lost;
  s.selected = t.id == selected_id && selected_id > 0;
  s.manual = t.manual;
  s.flashing = std::any_of(alarms.begin(), alarms.end(), [&](const track::Alarm& a) {
    return a.track_id == t.id && !a.acknowledged;
  });
  return s;
}

bool flash_on(double time_s) {
  const double phase = time_s - std::floor(time_s);
  return phase < 0.6;
}

std::optional<int> pick_track(const std::vector<track::Track>& tracks, const PlaneToDisplay& f,
                              const render::PpiView& view, float sx, float sy, float radius_px) {
  std::optional<int> best;
  float best_d2 = radius_px * radius_px;
  for (const track::Track& t : tracks) {
    float x = 0, y = 0;
    view.world_to_screen(to_display(f, t.x_m, t.y_m), x, y);
    const float d2 = (x - sx) * (x - sx) + (y - sy) * (y - sy);
    if (d2 <= best_d2) {
      best_d2 = d2;
      best = t.id;
    }
  }
  return best;
}

void sort_targets(std::vector<const track::Track*>& rows, TargetColumn column, bool ascending) {
  auto key = [column](const track::Track* t) -> double {
    switch (column) {
      case TargetColumn::Id:
        return t->id;
      case TargetColumn::Range:
        return t->range_m;
      case TargetColumn::Bearing:
        return t->bearing_deg;
      case TargetColumn::Course:
        return t->course_deg;
      case TargetColumn::Speed:
        return t->speed_mps;
      case TargetColumn::Cpa:
        return t->cpa_m;
      case TargetColumn::Tcpa:
        // A closest point already passed sorts after every one still ahead.
        return t->tcpa_s < 0 ? std::numeric_limits<double>::max() / 2 - t->tcpa_s : t->tcpa_s;
      case TargetColumn::Status:
        return int(t->status);
    }
    return t->id;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const track::Track* a, const track::Track* b) {
    const double ka = key(a), kb = key(b);
    if (ka != kb) return ascending ? ka < kb : ka > kb;
    return a->id < b->id;
  });
}

const char* status_name(track::Track::Status s) {
  switch (s) {
    case track::Track::Status::Acquiring:
      return "ACQ";
    case track::Track::Status::Tracked:
      return "TRK";
    case track::Track::Status::Lost:
      return "LOST";
  }
  return "?";
}

const char* alarm_kind_name(track::Alarm::Kind k) {
  switch (k) {
    case track::Alarm::Kind::Cpa:
      return "CPA/TCPA";
    case track::Alarm::Kind::NewTargetInZone:
      return "NEW TARGET";
    case track::Alarm::Kind::LostTarget:
      return "LOST";
  }
  return "?";
}

std::string tcpa_text(const track::Track& t) {
  if (!t.cpa_moving) return "--";
  char buf[24];
  const double min = t.tcpa_s / 60.0;
  std::snprintf(buf, sizeof buf, std::abs(min) < 99.95 ? "%.1f" : "%.0f", min);
  return buf;
}

std::vector<std::string> data_box_lines(const track::Track& t, bool ground) {
  std::vector<std::string> lines;
  char buf[96];
  std::snprintf(buf, sizeof buf, "TGT %d  %s%s", t.id, status_name(t.status),
                t.manual ? "  MANUAL" : "");
  lines.push_back(buf);
  std::snprintf(buf, sizeof buf, "BRG %05.1f%s  RNG %.2f NM", t.bearing_deg, ground ? "" : "R",
                t.range_m / kMetresPerNm);
  lines.push_back(buf);
  if (ground) {
    std::snprintf(buf, sizeof buf, "CRS %05.1f  SPD %.1f KN", t.course_deg,
                  t.speed_mps * kKnotsPerMps);
    lines.push_back(buf);
  }
  std::snprintf(buf, sizeof buf, "RCRS %05.1f  RSPD %.1f KN", t.rel_course_deg,
                t.rel_speed_mps * kKnotsPerMps);
  lines.push_back(buf);
  std::snprintf(buf, sizeof buf, "CPA %.2f NM  TCPA %s MIN", t.cpa_m / kMetresPerNm,
                tcpa_text(t).c_str());
  lines.push_back(buf);
  if (t.dangerous && t.status != track::Track::Status::Lost) lines.push_back("DANGEROUS");
  return lines;
}

Rgb source_colour(int source) {
  // Apart in hue and all light enough to read over echoes and the dark background; the first
  // is the colour the console's own tracks have.
  static constexpr Rgb kColours[] = {{0.55f, 0.92f, 1.0f}, {0.70f, 1.0f, 0.45f},
                                     {1.0f, 0.60f, 0.95f}, {1.0f, 0.95f, 0.45f},
                                     {0.65f, 0.70f, 1.0f}, {0.45f, 1.0f, 0.80f}};
  constexpr int n = int(sizeof kColours / sizeof kColours[0]);
  return kColours[((source % n) + n) % n];
}

std::string track_label(const track::Track& t, bool remote) {
  return std::to_string(remote ? engine::remote_track_number(t.id) : t.id);
}

std::string source_line(const net::RemoteSourceStatus& s) {
  char buf[160];
  if (!s.seen)
    std::snprintf(buf, sizeof buf, "%s  NO DATA yet (%.0f s)", s.endpoint.c_str(),
                  s.since_update_s);
  else if (s.stale)
    std::snprintf(buf, sizeof buf, "SAC/SIC %d/%d  %s  NO DATA %.0f s", s.sac, s.sic,
                  s.endpoint.c_str(), s.since_update_s);
  else
    std::snprintf(buf, sizeof buf, "SAC/SIC %d/%d  %s  %zu tracks", s.sac, s.sic,
                  s.endpoint.c_str(), s.tracks);
  return buf;
}

std::vector<std::string> no_data_lines(const engine::TrackingView& v) {
  std::vector<std::string> out;
  if (!v.remote) return out;
  char buf[160];
  for (const net::RemoteSourceStatus& s : v.remote_sources) {
    if (!s.stale) continue;
    if (s.seen)
      std::snprintf(buf, sizeof buf, "NO DATA  %d/%d %s  %.0f S SINCE LAST UPDATE", s.sac, s.sic,
                    s.endpoint.c_str(), s.since_update_s);
    else
      std::snprintf(buf, sizeof buf, "NO DATA  %s  (waiting %.0f S)", s.endpoint.c_str(),
                    s.since_update_s);
    out.push_back(buf);
  }
  return out;
}

std::string clock_text(double time_s) {
  if (!std::isfinite(time_s)) return "--:--:--";
  const long long s = (long long)(std::floor(time_s)) % 86400;
  const long long t = s < 0 ? s + 86400 : s;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", t / 3600, t / 60 % 60, t % 60);
  return buf;
}

track::AcquisitionZone arc_zone_from_points(const PlaneToDisplay& f, render::WorldPoint first,
                                            render::WorldPoint second, bool relative_to_heading) {
  track::AcquisitionZone z;
  z.kind = track::AcquisitionZone::Kind::Arc;
  const double r1 = render::range_of(first), r2 = render::range_of(second);
  z.range_min_m = std::min(r1, r2);
  z.range_max_m = std::max(r1, r2);
  const double shift = f.up_deg - (relative_to_heading ? f.zone_heading_deg : 0.0);
  z.bearing_from_deg = wrap360(render::bearing_of(first) + shift);
  z.bearing_to_deg = wrap360(render::bearing_of(second) + shift);
  z.relative_to_heading = relative_to_heading;
  return z;
}

std::vector<std::vector<render::WorldPoint>> zone_outline(const track::AcquisitionZone& z,
                                                          const PlaneToDisplay& f) {
  std::vector<std::vector<render::WorldPoint>> loops;
  if (z.kind == track::AcquisitionZone::Kind::Polygon) {
    std::vector<render::WorldPoint> loop;
    for (const track::ZonePoint& p : z.polygon) loop.push_back(to_display(f, p.x_m, p.y_m));
    if (!loop.empty()) loops.push_back(std::move(loop));
    return loops;
  }
  // The zone's plane bearings, then as the PPI shows them.
  const double shift = (z.relative_to_heading ? f.zone_heading_deg : 0.0) - f.up_deg;
  const double from = wrap360(z.bearing_from_deg + shift);
  const double span = wrap360(z.bearing_to_deg - z.bearing_from_deg);
  if (span == 0) {
    std::vector<render::WorldPoint> outer;
    add_arc(outer, z.range_max_m, from, 360.0);
    loops.push_back(std::move(outer));
    if (z.range_min_m > 0) {
      std::vector<render::WorldPoint> inner;
      add_arc(inner, z.range_min_m, from, 360.0);
      loops.push_back(std::move(inner));
    }
    return loops;
  }
  std::vector<render::WorldPoint> loop;
  add_arc(loop, z.range_max_m, from, span);
  if (z.range_min_m > 0)
    add_arc(loop, z.range_min_m, from + span, -span);
  else
    loop.push_back({0, 0});
  loops.push_back(std::move(loop));
  return loops;
}

track::ZonePoint plane_point(const PlaneToDisplay& f, render::WorldPoint p) {
  track::ZonePoint z;
  to_plane(f, p, z.x_m, z.y_m);
  return z;
}

track::AcquisitionZone polygon_zone(const std::vector<track::ZonePoint>& vertices) {
  track::AcquisitionZone z;
  z.kind = track::AcquisitionZone::Kind::Polygon;
  z.polygon = vertices;
  return z;
}

bool polygon_self_intersects(const std::vector<track::ZonePoint>& v) {
  const size_t n = v.size();
  if (n < 3) return false;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      const bool adjacent = j == i + 1 || (i == 0 && j == n - 1);
      const track::ZonePoint a = v[i], b = v[(i + 1) % n], c = v[j], d = v[(j + 1) % n];
      if (adjacent) {
        // Neighbours share a vertex; they only overlap when one folds back along the other.
        const track::ZonePoint shared = j == i + 1 ? b : a;
        const track::ZonePoint p = j == i + 1 ? a : b, q = j == i + 1 ? d : c;
        if (turn(p, shared, q) == 0 && (within(shared, p, q) || within(shared, q, p))) return true;
        continue;
      }
      if (segments_meet(a, b, c, d)) return true;
    }
  return false;
}

std::string polygon_problem(const std::vector<track::ZonePoint>& v) {
  if (v.size() < 3)
    return "a polygon zone needs at least 3 vertices (" + std::to_string(v.size()) + " so far)";
  for (const track::ZonePoint& p : v)
    if (!std::isfinite(p.x_m) || !std::isfinite(p.y_m)) return "a vertex is off the plane";
  if (polygon_self_intersects(v)) return "the polygon's edges cross: move or remove a vertex";
  return "";
}

bool near_point(const PlaneToDisplay& f, const render::PpiView& view, track::ZonePoint p, float sx,
                float sy, float radius_px) {
  float x = 0, y = 0;
  view.world_to_screen(to_display(f, p.x_m, p.y_m), x, y);
  return (x - sx) * (x - sx) + (y - sy) * (y - sy) <= radius_px * radius_px;
}

std::vector<render::WorldPoint> zone_handles(const track::AcquisitionZone& z,
                                             const PlaneToDisplay& f) {
  std::vector<render::WorldPoint> out;
  if (z.kind == track::AcquisitionZone::Kind::Polygon) {
    for (const track::ZonePoint& p : z.polygon) out.push_back(to_display(f, p.x_m, p.y_m));
    return out;
  }
  const double shift = (z.relative_to_heading ? f.zone_heading_deg : 0.0) - f.up_deg;
  out.push_back(polar(z.range_min_m, z.bearing_from_deg + shift));
  out.push_back(polar(z.range_max_m, z.bearing_to_deg + shift));
  return out;
}

track::AcquisitionZone move_zone_handle(const track::AcquisitionZone& z, const PlaneToDisplay& f,
                                        int handle, render::WorldPoint to) {
  track::AcquisitionZone out = z;
  if (z.kind == track::AcquisitionZone::Kind::Polygon) {
    if (handle >= 0 && size_t(handle) < z.polygon.size())
      out.polygon[size_t(handle)] = plane_point(f, to);
    return out;
  }
  if (handle != 0 && handle != 1) return out;
  // The moved corner's range and bearing as arc_zone_from_points reads a click; the other
  // corner's stay exactly as they were.
  const double r = render::range_of(to);
  const double other = handle == 0 ? z.range_max_m : z.range_min_m;
  out.range_min_m = std::min(r, other);
  out.range_max_m = std::max(r, other);
  // A corner dragged onto own ship has no bearing of its own: it keeps the zone's.
  if (r > 0) {
    const double shift = f.up_deg - (z.relative_to_heading ? f.zone_heading_deg : 0.0);
    (handle == 0 ? out.bearing_from_deg : out.bearing_to_deg) =
        wrap360(render::bearing_of(to) + shift);
  }
  return out;
}

std::optional<int> pick_zone_handle(const track::AcquisitionZone& z, const PlaneToDisplay& f,
                                    const render::PpiView& view, float sx, float sy,
                                    float radius_px) {
  std::optional<int> best;
  float best_d2 = radius_px * radius_px;
  const std::vector<render::WorldPoint> h = zone_handles(z, f);
  for (size_t i = 0; i < h.size(); ++i) {
    float x = 0, y = 0;
    view.world_to_screen(h[i], x, y);
    const float d2 = (x - sx) * (x - sx) + (y - sy) * (y - sy);
    if (d2 <= best_d2) {
      best_d2 = d2;
      best = int(i);
    }
  }
  return best;
}

std::optional<int> pick_zone(const std::vector<std::pair<int, track::AcquisitionZone>>& zones,
                             const PlaneToDisplay& f, const render::PpiView& view, float sx,
                             float sy, float radius_px) {
  std::optional<int> best;
  float best_d2 = radius_px * radius_px;
  for (const auto& [id, z] : zones)
    for (const auto& loop : zone_outline(z, f)) {
      std::vector<float> xs(loop.size()), ys(loop.size());
      for (size_t i = 0; i < loop.size(); ++i) view.world_to_screen(loop[i], xs[i], ys[i]);
      for (size_t i = 0; i < loop.size(); ++i) {
        const size_t k = (i + 1) % loop.size();
        const float d2 = segment_d2(xs[i], ys[i], xs[k], ys[k], sx, sy);
        if (d2 <= best_d2) {
          best_d2 = d2;
          best = id;
        }
      }
    }
  return best;
}

}  // namespace sweepline::ui
