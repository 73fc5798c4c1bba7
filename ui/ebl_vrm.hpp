#pragma once
// Electronic bearing lines, variable range markers and the electronic range and bearing line
// (IMO MSC.192(79) 5.12.3-5.12.5): their geometry and readouts, without ImGui or GL, so that
// they are tested against a simple oracle (tests/ui/test_ebl_vrm.cpp).
//
// Points are kept as metres east and north (true) of own ship, so that a line set on a true
// bearing stays on it while the ship turns. The picture (render::WorldPoint) is the video's
// frame, bow-up: a true bearing t shows at t - heading there.
#include <array>
#include <string>

#include "render/ppi_view.hpp"

namespace sweepline::ui {

// One EBL and one VRM that share an origin: own ship, or a point dropped anywhere (floating).
struct Marker {
  bool ebl_on = false, vrm_on = false;
  double ebl_deg = 0;         // as shown: true when ebl_true, else relative to the bow
  bool ebl_true = true;       // T or R on the readout
  double vrm_m = 0;           // the circle's radius
  bool floating = false;      // the origin is `origin`, not own ship
  render::WorldPoint origin;  // metres east/north (true) of own ship
};
inline constexpr int kMarkers = 2;  // EBL1/VRM1 and EBL2/VRM2

// The ERBL: from a to b, both metres east/north (true) of own ship.
struct Erbl {
  bool on = false;
  render::WorldPoint a, b;
};

struct OperatorMarkers {
  std::array<Marker, kMarkers> marker;
  int active = 0;  // the pair the keys and Ctrl+click adjust
  Erbl erbl;
};

// Between the true frame about own ship and the picture's (video) frame.
render::WorldPoint true_to_video(render::WorldPoint p, double heading_deg);
render::WorldPoint video_to_true(render::WorldPoint p, double heading_deg);

// The marker's origin in the picture's frame.
render::WorldPoint origin_video(const Marker& m, double heading_deg);
// The EBL's true bearing, and its bearing in the picture's frame.
double ebl_true_deg(const Marker& m, double heading_deg);
double ebl_video_deg(const Marker& m, double heading_deg);
// Aims the pair at a point of the picture: the EBL through it, the VRM on it.
void aim_at(Marker& m, render::WorldPoint video_point, double heading_deg);
// Turns the EBL's readout between true and relative, the line staying where it is.
void set_ebl_true(Marker& m, bool true_bearing, double heading_deg);
// The EBL from its origin, `length_m` long, in the picture's frame.
void ebl_segment(const Marker& m, double heading_deg, double length_m, render::WorldPoint& from,
                 render::WorldPoint& to);

// Corner readouts: "EBL1  045.0 T", "VRM1  1.500 NM", "ERBL  2.250 NM  123.4 T".
std::string ebl_readout(int index, const Marker& m);
std::string vrm_readout(int index, const Marker& m);
double erbl_range_m(const Erbl& e);
double erbl_true_deg(const Erbl& e);
std::string erbl_readout(const Erbl& e);

}  // namespace sweepline::ui
