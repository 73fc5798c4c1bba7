#include "render/ppi_view.hpp"

#include <algorithm>

namespace sweepline::render {

void PpiView::reset(const ScreenRect& rect, double range_m, bool off_centre, double heading_deg) {
  rect_ = rect;
  const double radius_px = 0.5 * std::min(rect.w, rect.h) - 46.0;  // room for the bearing labels
  px_per_m_ = fit_px_per_m_ = range_m > 0 ? radius_px / range_m : 1.0;
  centre_ = {};
  if (off_centre) {
    // Look ahead: the view spans from 0.2 R behind the radar to the full range R ahead, so the
    // picture ahead is shown 1.67x larger than centred.
    const double h = heading_deg * 3.14159265358979323846 / 180.0;
    centre_ = {0.4 * range_m * std::sin(h), 0.4 * range_m * std::cos(h)};
    px_per_m_ = fit_px_per_m_ = range_m > 0 ? radius_px / (0.6 * range_m) : 1.0;
  }
}

WorldPoint PpiView::screen_to_world(float sx, float sy) const {
  const double cx = rect_.x + 0.5 * rect_.w, cy = rect_.y + 0.5 * rect_.h;
  return {centre_.east + (sx - cx) / px_per_m_, centre_.north - (sy - cy) / px_per_m_};
}

void PpiView::world_to_screen(WorldPoint w, float& sx, float& sy) const {
  const double cx = rect_.x + 0.5 * rect_.w, cy = rect_.y + 0.5 * rect_.h;
  sx = float(cx + (w.east - centre_.east) * px_per_m_);
  sy = float(cy - (w.north - centre_.north) * px_per_m_);
}

void PpiView::zoom_at(float sx, float sy, double factor) {
  const WorldPoint before = screen_to_world(sx, sy);
  px_per_m_ = std::clamp(px_per_m_ * factor, fit_px_per_m_ / 4, fit_px_per_m_ * 256);
  const WorldPoint after = screen_to_world(sx, sy);
  centre_.east += before.east - after.east;
  centre_.north += before.north - after.north;
}

void PpiView::pan(float dx_px, float dy_px) {
  centre_.east -= dx_px / px_per_m_;
  centre_.north += dy_px / px_per_m_;
}

}  // namespace sweepline::render
