#pragma once
// The PPI view transform: where the radar picture sits on the screen. World coordinates are metres
// east and north of the radar; screen coordinates are pixels from the top-left of the window (as
// ImGui reports them). Pure arithmetic, no GL, so it is testable on its own.
#include <cmath>

namespace sweepline::render {

struct ScreenRect {
  float x = 0, y = 0, w = 1, h = 1;
  bool contains(float px, float py) const { return px >= x && py >= y && px < x + w && py < y + h; }
};

struct WorldPoint {
  double east = 0, north = 0;
};

class PpiView {
 public:
  // Fits a circle of `range_m` into `rect` (46 px left for the bearing scale), radar at the centre;
  // off-centre shifts the radar back along the heading so the sea ahead fills the view.
  void reset(const ScreenRect& rect, double range_m, bool off_centre = false,
             double heading_deg = 0);
  void set_rect(const ScreenRect& rect) { rect_ = rect; }
  const ScreenRect& rect() const { return rect_; }

  WorldPoint screen_to_world(float sx, float sy) const;
  void world_to_screen(WorldPoint w, float& sx, float& sy) const;
  // Multiplies the scale by `factor`, keeping the world point under (sx, sy) where it is.
  void zoom_at(float sx, float sy, double factor);
  void pan(float dx_px, float dy_px);

  double px_per_m() const { return px_per_m_; }
  WorldPoint centre() const { return centre_; }
  void set(WorldPoint centre, double px_per_m) {
    centre_ = centre;
    px_per_m_ = px_per_m;
  }
  // Zoom relative to the reset fit (1 = whole range visible).
  double zoom() const { return fit_px_per_m_ > 0 ? px_per_m_ / fit_px_per_m_ : 1; }

 private:
  ScreenRect rect_;
  WorldPoint centre_;
  double px_per_m_ = 1;
  double fit_px_per_m_ = 1;
};

// Range (m) and bearing (deg, 0 = north, clockwise, 0..360) of a world point from the radar.
inline double range_of(WorldPoint p) {
  return std::hypot(p.east, p.north);
}
inline double bearing_of(WorldPoint p) {
  double b = std::atan2(p.east, p.north) * 180.0 / 3.14159265358979323846;
  return b < 0 ? b + 360.0 : b;
}

}  // namespace sweepline::render
