#pragma once
// The PPI view transform: where the radar picture sits on the screen. World coordinates are metres
// east and north of the radar in the video's own orientation (its "north" is the bow when the
// video is head-up); screen coordinates are pixels from the top-left of the window (as ImGui
// reports them). Pure arithmetic, no GL, so it is testable on its own.
//
// The view is a display circle centred in its rectangle whose radius is the range scale (the
// RANGE readout is that radius, whatever the zoom), a rotation of the picture (screen bearing =
// world bearing + rotation: render/orientation.hpp) and the radar's place in the circle, kept in
// display radii so that it stays put on the screen when the range scale changes.
#include <cmath>

namespace sweepline::render {

struct ScreenRect {
  float x = 0, y = 0, w = 1, h = 1;
  bool contains(float px, float py) const { return px >= x && py >= y && px < x + w && py < y + h; }
};

struct WorldPoint {
  double east = 0, north = 0;
};

// Off-centring puts the radar this many radii back from the centre: IMO MSC.192(79) 5.20.2
// asks for at least 50 % and at most 75 % of the radius.
inline constexpr double kOffCentreFraction = 0.6;
// The radar may be panned this far from the centre (radii): the picture stays in reach.
inline constexpr double kMaxRadarOffset = 1.5;

class PpiView {
 public:
  // The display circle's radius in a rectangle (46 px left for the bearing scale's labels).
  static double display_radius_px(const ScreenRect& rect);

  // Fits the range scale `range_m` to the display circle, radar at the centre; off-centre moves
  // the radar back from the screen bearing `ahead_screen_deg` so that the sea ahead fills the view.
  // The rotation is kept.
  void reset(const ScreenRect& rect, double range_m, bool off_centre = false,
             double ahead_screen_deg = 0);
  // Keeps the range scale, the rotation and the radar's place in radii.
  void set_rect(const ScreenRect& rect) { rect_ = rect; }
  const ScreenRect& rect() const { return rect_; }

  // The displayed radius in metres (the range scale); the radar keeps its place on the screen.
  void set_range_scale(double range_m);
  double range_scale_m() const { return range_m_; }
  // Screen bearing minus world bearing, degrees clockwise.
  void set_rotation_deg(double deg) { rotation_deg_ = deg; }
  double rotation_deg() const { return rotation_deg_; }
  // The radar's place: display radii right (x) and up (y) of the circle's centre.
  void set_radar_offset(double x, double y);
  double radar_offset_x() const { return off_x_; }
  double radar_offset_y() const { return off_y_; }

  WorldPoint screen_to_world(float sx, float sy) const;
  void world_to_screen(WorldPoint w, float& sx, float& sy) const;
  // A world direction (bearing, degrees) on the screen, and back.
  double screen_bearing(double world_bearing_deg) const;
  double world_bearing(double screen_bearing_deg) const;
  // Moves the picture by (dx, dy) pixels (a drag); the radar stays within kMaxRadarOffset.
  void pan(float dx_px, float dy_px);

  double px_per_m() const;
  double radius_px() const { return display_radius_px(rect_); }
  // The world point at the rectangle's centre.
  WorldPoint centre() const;
  // screen_to_world as an affine map: world = origin + sx * dx + sy * dy (for the shader).
  void screen_to_world_affine(WorldPoint& origin, WorldPoint& dx, WorldPoint& dy) const;

 private:
  ScreenRect rect_;
  double range_m_ = 1;
  double rotation_deg_ = 0;
  double off_x_ = 0, off_y_ = 0;
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
