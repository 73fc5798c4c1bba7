#include "ui/ebl_vrm.hpp"

#include <cmath>
#include <cstdio>

#include "render/orientation.hpp"

namespace sweepline::ui {

namespace {

constexpr double kDeg = 3.14159265358979323846 / 180.0;
constexpr double kNm = 1852.0;

// Turns a vector clockwise by `deg` (a bearing b becomes b + deg).
render::WorldPoint turn(render::WorldPoint p, double deg) {
  const double c = std::cos(deg * kDeg), s = std::sin(deg * kDeg);
  return {p.east * c + p.north * s, p.north * c - p.east * s};
}

}  // namespace

render::WorldPoint true_to_video(render::WorldPoint p, double heading_deg) {
  return turn(p, -heading_deg);
}

render::WorldPoint video_to_true(render::WorldPoint p, double heading_deg) {
  return turn(p, heading_deg);
}

render::WorldPoint origin_video(const Marker& m, double heading_deg) {
  return m.floating ? true_to_video(m.origin, heading_deg) : render::WorldPoint{};
}

double ebl_true_deg(const Marker& m, double heading_deg) {
  return render::wrap360(m.ebl_true ? m.ebl_deg : m.ebl_deg + heading_deg);
}

double ebl_video_deg(const Marker& m, double heading_deg) {
  return render::wrap360(m.ebl_true ? m.ebl_deg - heading_deg : m.ebl_deg);
}

void aim_at(Marker& m, render::WorldPoint video_point, double heading_deg) {
  const render::WorldPoint o = origin_video(m, heading_deg);
  const render::WorldPoint d{video_point.east - o.east, video_point.north - o.north};
  const double video_deg = render::bearing_of(d);
  m.ebl_deg = render::wrap360(m.ebl_true ? video_deg + heading_deg : video_deg);
  m.vrm_m = render::range_of(d);
  m.ebl_on = m.vrm_on = true;
}

void set_ebl_true(Marker& m, bool true_bearing, double heading_deg) {
  if (m.ebl_true == true_bearing) return;
  m.ebl_deg = render::wrap360(true_bearing ? m.ebl_deg + heading_deg : m.ebl_deg - heading_deg);
  m.ebl_true = true_bearing;
}

void ebl_segment(const Marker& m, double heading_deg, double length_m, render::WorldPoint& from,
                 render::WorldPoint& to) {
  from = origin_video(m, heading_deg);
  const double b = ebl_video_deg(m, heading_deg) * kDeg;
  to = {from.east + length_m * std::sin(b), from.north + length_m * std::cos(b)};
}

std::string ebl_readout(int index, const Marker& m) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "EBL%d  %05.1f %s%s", index + 1, render::wrap360(m.ebl_deg),
                m.ebl_true ? "T" : "R", m.floating ? "  FLOAT" : "");
  return buf;
}

std::string vrm_readout(int index, const Marker& m) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "VRM%d  %.3f NM", index + 1, m.vrm_m / kNm);
  return buf;
}

double erbl_range_m(const Erbl& e) {
  return render::range_of({e.b.east - e.a.east, e.b.north - e.a.north});
}

double erbl_true_deg(const Erbl& e) {
  return render::bearing_of({e.b.east - e.a.east, e.b.north - e.a.north});
}

std::string erbl_readout(const Erbl& e) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "ERBL  %.3f NM  %05.1f T", erbl_range_m(e) / kNm,
                erbl_true_deg(e));
  return buf;
}

}  // namespace sweepline::ui
