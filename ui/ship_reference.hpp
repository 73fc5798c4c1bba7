#pragma once
// What the picture's orientation and motion need of own ship: its true heading, its course and
// its position over ground, from the engine's tracking view (own ship from NMEA or the
// simulator) where present, else the heading the operator set by hand.
#include "app/engine/tracking.hpp"

namespace sweepline::ui {

struct ShipReference {
  double heading_deg = 0;         // true
  bool heading_measured = false;  // false: the operator's manual heading
  double course_deg = 0;          // over ground; the heading when not known
  bool course_valid = false;
  bool position_valid = false;     // x_m, y_m usable (true motion)
  double east_m = 0, north_m = 0;  // own ship over ground, true axes, from a fixed origin
};

ShipReference ship_reference(const engine::TrackingView& v, double manual_heading_deg);

}  // namespace sweepline::ui
