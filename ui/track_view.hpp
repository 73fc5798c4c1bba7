#pragma once
// What the console draws and lists of the engine's target tracking, decided without ImGui or GL
// so that it is tested on its own (tests/ui/test_track_view.cpp): where a track, its vector and
// its past positions lie on the PPI, which symbol it gets, which track a click picks, the Targets
// table's order, the arc a two-click zone makes. ui/track_overlay.cpp draws with these;
// docs/tracking.md is the operator's page.
//
// Two planes meet here. The tracker's (engine::TrackingView): x east, y north from a fixed
// origin, own ship somewhere in it. The PPI's (render::WorldPoint): metres about the radar in
// the video's own orientation, which is the bow's: the radar's video is referenced to own
// ship's heading, so the PPI is head-up and the bearing scale reads relative bearings.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/engine/remote_track_view.hpp"
#include "app/engine/tracking.hpp"
#include "app/track/tracker.hpp"
#include "app/track/zones.hpp"
#include "render/ppi_view.hpp"

namespace sweepline::ui {

inline constexpr double kMetresPerNm = 1852.0;
inline constexpr double kKnotsPerMps = 3600.0 / kMetresPerNm;

// From the tracker's plane to the PPI.
struct PlaneToDisplay {
  double own_x_m = 0, own_y_m = 0;  // the PPI's centre (own ship) in the plane
  // The plane bearing the PPI's up points to: own ship's heading in the plane (heading + grid
  // convergence). Relative tracks: the heading when one is known (the plane is north-up about
  // the radar then), else 0 (the plane is already bow-up).
  double up_deg = 0;
  // Own ship's velocity in the plane; zero when the tracks are relative (already own-ship's).
  double own_vx_mps = 0, own_vy_mps = 0;
  // The heading the tracker tests relative-to-heading zones against (0 for relative tracks).
  double zone_heading_deg = 0;
  double time_s = 0;    // the tracker's clock (trails are dated on it)
  bool ground = false;  // own ship valid: tracks ground-stabilised
};
PlaneToDisplay plane_to_display(const engine::TrackingView& v);

render::WorldPoint to_display(const PlaneToDisplay& f, double x_m, double y_m);
// The inverse: a point of the PPI in the tracker's plane (manual acquisition, zones).
void to_plane(const PlaneToDisplay& f, render::WorldPoint p, double& x_m, double& y_m);
// A direction (a velocity) of the plane turned into the PPI's orientation.
render::WorldPoint rotate_to_display(const PlaneToDisplay& f, double vx, double vy);

// Vectors and trails: true (over ground) or relative (to own ship). Relative tracks have only
// the relative kind, whatever the setting.
enum class VectorMode { True, Relative };
VectorMode vector_mode(const engine::TrackingSettings& s);

// A track's geometry on the PPI, in PPI metres.
struct TrackGlyph {
  render::WorldPoint position;
  bool vector = false;            // drawn (tracked, not lost, and a vector time > 0)
  render::WorldPoint vector_end;  // position + velocity x vector time
  // Past positions, oldest first. True: where the target was over ground, seen from own ship
  // now. Relative: where it was relative to own ship then (own ship's past position dead
  // reckoned back along its present velocity).
  std::vector<render::WorldPoint> trail;
};
TrackGlyph track_glyph(const track::Track& t, const PlaneToDisplay& f, VectorMode mode,
                       double vector_minutes, bool trails);

// IEC 62288 (and IMO SN/Circ.243) target symbols.
enum class SymbolShape {
  Acquiring,  // a broken circle: acquired, the vector not yet reliable
  Tracked,    // a full circle with its vector
  Lost,       // the circle crossed by two lines, no vector
};
struct TrackSymbol {
  SymbolShape shape = SymbolShape::Acquiring;
  bool dangerous = false;  // CPA/TCPA violated: red and bold
  bool flashing = false;   // an alarm of this track is not acknowledged
  bool selected = false;   // a square around it (the data box shows it)
  bool vector = false;
  bool manual = false;  // operator-acquired (no symbol difference; the data box says it)
};
TrackSymbol track_symbol(const track::Track& t, const std::vector<track::Alarm>& alarms,
                         int selected_id);
// The flashing phase: on for 0.6 s of each second (IEC 62288 leaves the rate open; 1 Hz is
// what type-approved consoles use).
bool flash_on(double time_s);

// The track whose symbol is nearest the screen point (sx, sy) within radius_px, if any.
std::optional<int> pick_track(const std::vector<track::Track>& tracks, const PlaneToDisplay& f,
                              const render::PpiView& view, float sx, float sy, float radius_px);

// The Targets panel's columns and order (ties by id, ascending).
enum class TargetColumn { Id, Range, Bearing, Course, Speed, Cpa, Tcpa, Status };
inline constexpr int kTargetColumns = 8;
void sort_targets(std::vector<const track::Track*>& rows, TargetColumn column, bool ascending);

const char* status_name(track::Track::Status s);    // "ACQ", "TRK", "LOST"
const char* alarm_kind_name(track::Alarm::Kind k);  // "CPA/TCPA", "NEW TARGET", "LOST"
// The selected target's data box: id and status, bearing and range, course and speed (true,
// and relative when own ship is known), CPA and TCPA; "DANGEROUS" last when it is.
std::vector<std::string> data_box_lines(const track::Track& t, bool ground);
// TCPA in minutes, or "--" without relative motion.
std::string tcpa_text(const track::Track& t);
// hh:mm:ss of a clock in seconds (a time of day wraps at 24 h).
std::string clock_text(double time_s);

// An arc zone from two points of the PPI (two clicks): between their ranges, clockwise from the
// first's bearing to the second's. True bearings in the plane, or relative to the heading.
track::AcquisitionZone arc_zone_from_points(const PlaneToDisplay& f, render::WorldPoint first,
                                            render::WorldPoint second, bool relative_to_heading);
// A zone's outline on the PPI (a closed loop, PPI metres): an arc's two arcs and its radial
// edges (a full circle: both circles, inner after outer), a polygon's vertices.
std::vector<std::vector<render::WorldPoint>> zone_outline(const track::AcquisitionZone& z,
                                                          const PlaneToDisplay& f);

// Polygon zones drawn vertex by vertex on the PPI. Each click is turned into the tracker's plane
// at once (as manual acquisition is), so a polygon stays on the ground while own ship moves
// during the drawing.
track::ZonePoint plane_point(const PlaneToDisplay& f, render::WorldPoint p);
track::AcquisitionZone polygon_zone(const std::vector<track::ZonePoint>& vertices);
// Why these vertices make no zone yet: "" when they do (at least 3, no two edges crossing, all
// finite); else a sentence for the operator.
std::string polygon_problem(const std::vector<track::ZonePoint>& vertices);
// True when two edges of the closed polygon cross (adjacent edges share a vertex, not a cross).
bool polygon_self_intersects(const std::vector<track::ZonePoint>& vertices);
// The screen point (sx, sy) is within radius_px of a plane point as the PPI shows it: a click on
// the first vertex closes the polygon, a press on a handle drags it.
bool near_point(const PlaneToDisplay& f, const render::PpiView& view, track::ZonePoint p, float sx,
                float sy, float radius_px);

// Editing a zone on the PPI by its handles: a polygon's vertices; an arc's two corners, the first
// at (range_min, bearing_from), the second at (range_max, bearing_to), as two clicks made it.
// Handles in PPI metres, in that order.
std::vector<render::WorldPoint> zone_handles(const track::AcquisitionZone& z,
                                             const PlaneToDisplay& f);
// The zone with handle `handle` moved to a point of the PPI: a vertex moves on the ground; an
// arc's corner takes the point's range and bearing as a click would (true or relative as the
// zone's), the other corner stays (ranges reordered when the two cross). Other handles: no change.
track::AcquisitionZone move_zone_handle(const track::AcquisitionZone& z, const PlaneToDisplay& f,
                                        int handle, render::WorldPoint to);
// The handle under the screen point within radius_px, the nearest when several are.
std::optional<int> pick_zone_handle(const track::AcquisitionZone& z, const PlaneToDisplay& f,
                                    const render::PpiView& view, float sx, float sy,
                                    float radius_px);
// The zone whose outline passes nearest the screen point within radius_px (right-click: edit).
std::optional<int> pick_zone(const std::vector<std::pair<int, track::AcquisitionZone>>& zones,
                             const PlaneToDisplay& f, const render::PpiView& view, float sx,
                             float sy, float radius_px);

// Display clients (TrackingView::remote, docs/deployment.md): each source's colour by its place
// in the tracks= list (the first is the console's own track colour), the label a track carries
// on the PPI and in the Targets table (its track number, I048/161; the source shows in the
// colour), and a source's line: "SAC/SIC 0/1  239.0.2.3:8612  41 tracks", or while it is stale
// "... NO DATA 12 s" (the seconds since its last report; "NO DATA yet" when none has come).
struct Rgb {
  float r = 0, g = 0, b = 0;
};
Rgb source_colour(int source);
std::string track_label(const track::Track& t, bool remote);
std::string source_line(const net::RemoteSourceStatus& s);
// One line per stale source, for the PPI: "NO DATA  0/1 239.0.2.3:8612  12 s SINCE LAST UPDATE".
std::vector<std::string> no_data_lines(const engine::TrackingView& v);

}  // namespace sweepline::ui
