#include "render/ppi_view.hpp"

#include <algorithm>

namespace sweepline::render {

namespace {

constexpr double kDeg = 3.14159265358979323846 / 180.0;

}  // namespace

double PpiView::display_radius_px(const ScreenRect& rect) {
  return std::max(0.5 * std::min(rect.w, rect.h) - 46.0, 8.0);
}

void PpiView::reset(const ScreenRect& rect, double range_m, bool off_centre,
                    double ahead_screen_deg) {
  rect_ = rect;
  range_m_ = range_m > 0 ? range_m : 1.0;
  off_x_ = off_y_ = 0;
  if (off_centre) {
    const double a = ahead_screen_deg * kDeg;
    off_x_ = -kOffCentreFraction * std::sin(a);
    off_y_ = -kOffCentreFraction * std::cos(a);
  }
}

void PpiView::set_range_scale(double range_m) {
  if (range_m > 0) range_m_ = range_m;
}

void PpiView::set_radar_offset(double x, double y) {
  const double d = std::hypot(x, y);
  const double k = d > kMaxRadarOffset ? kMaxRadarOffset / d : 1.0;
  off_x_ = x * k;
  off_y_ = y * k;
}

double PpiView::px_per_m() const {
  return radius_px() / range_m_;
}

WorldPoint PpiView::screen_to_world(float sx, float sy) const {
  const double r = radius_px(), ppm = r / range_m_;
  // Screen metres right (u) and up (v) of the radar, then turned back by the rotation.
  const double u = (sx - (rect_.x + 0.5 * rect_.w) - off_x_ * r) / ppm;
  const double v = ((rect_.y + 0.5 * rect_.h) - sy - off_y_ * r) / ppm;
  const double c = std::cos(rotation_deg_ * kDeg), s = std::sin(rotation_deg_ * kDeg);
  return {u * c - v * s, u * s + v * c};
}

void PpiView::world_to_screen(WorldPoint w, float& sx, float& sy) const {
  const double r = radius_px(), ppm = r / range_m_;
  // A world bearing b shows at b + rotation: turn clockwise by the rotation.
  const double c = std::cos(rotation_deg_ * kDeg), s = std::sin(rotation_deg_ * kDeg);
  const double u = w.east * c + w.north * s, v = w.north * c - w.east * s;
  sx = float(rect_.x + 0.5 * rect_.w + off_x_ * r + u * ppm);
  sy = float(rect_.y + 0.5 * rect_.h - off_y_ * r - v * ppm);
}

double PpiView::screen_bearing(double world_bearing_deg) const {
  const double b = std::fmod(world_bearing_deg + rotation_deg_, 360.0);
  return b < 0 ? b + 360.0 : b;
}

double PpiView::world_bearing(double screen_bearing_deg) const {
  const double b = std::fmod(screen_bearing_deg - rotation_deg_, 360.0);
  return b < 0 ? b + 360.0 : b;
}

void PpiView::pan(float dx_px, float dy_px) {
  const double r = radius_px();
  set_radar_offset(off_x_ + dx_px / r, off_y_ - dy_px / r);
}

WorldPoint PpiView::centre() const {
  return screen_to_world(rect_.x + 0.5f * rect_.w, rect_.y + 0.5f * rect_.h);
}

void PpiView::screen_to_world_affine(WorldPoint& origin, WorldPoint& dx, WorldPoint& dy) const {
  origin = screen_to_world(0, 0);
  const WorldPoint x1 = screen_to_world(1, 0), y1 = screen_to_world(0, 1);
  dx = {x1.east - origin.east, x1.north - origin.north};
  dy = {y1.east - origin.east, y1.north - origin.north};
}

}  // namespace sweepline::render
