#pragma once
// From the pipeline's plots to the tracker's input: the one conversion the engine and
// `sweepline eval` share (docs/tracking.md, "Settings and report").
//
// The video is referenced to own ship's bow, as a real radar's is: a plot's bearing_deg is
// RELATIVE to the heading. Its true bearing is relative + heading (at the plot's time) and its
// ground position own position + range x (sin, cos)(bearing in the plane). Without a heading the
// video is taken as north-up; without a position the plots are placed about the radar as if own
// ship sat still at the origin (the tracker then keeps its tracks relative).
//
// A display frame's FrameResult::plots hold every echo in the image, not only the new ones: a
// frame that redrew a few degrees reports the rest of the rotation's echoes again. The tracker
// wants each echo once, when the sweep has left it (plot_completed()).
#include <optional>

#include "app/common/polar_frame.hpp"
#include "app/nav/own_ship.hpp"
#include "app/track/tracker.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::engine {

// The radar's 1-sigma measurement accuracy, as the tracker's measurement noise: an angular part
// and a part in metres across the line of sight (the target's glint), which to_track_plot turns
// into bearing at each plot's range (plot_bearing_sigma_deg).
struct RadarAccuracy {
  double range_sigma_m = 20.0;
  double bearing_sigma_deg = 0.08;
  double cross_sigma_m = 0.0;
};

// The independent errors of a plot, 1 sigma each, that the tracker is told in quadrature (IMO
// A.823(19) Annex 3, the errors MSC.192(79) 5.25.4.7 refers to; sim::SensorErrors models the
// same). One description for the engine (standard values scaled by its radar) and for
// `sweepline eval` (the scenario's own error settings), so both tell the tracker one model.
struct PlotErrors {
  double beam_sigma_deg = 0.05;     // beam shape
  double encoder_sigma_deg = 0.03;  // bearing encoder
  double backlash_deg = 0.05;       // rectangular, +-this
  double gyro_sigma_deg = 0.12;     // each plot is turned to true bearing by its own heading
  double roll_deg = 10;             // the roll's bearing error about its mean, where largest
  double range_sigma_m = 20;        // pulse shape
  // The echo's centre wanders along the hull and across the beam. The hull's aspect is not
  // known per plot: half of the along-hull variance is taken along the line of sight, half
  // across (aspect averaged).
  double glint_along_m = 30;
  double glint_across_m = 1;
  double azimuth_step_deg = 0;  // the video's row width (<= 0: unknown, left out)
  double range_step_m = 0;      // the video's cell (<= 0: unknown, left out)
};

// The standard deviation of the roll's bearing error about its mean at relative 045 (where it is
// largest) for a sinusoidal roll of amplitude roll_deg.
double roll_spread_deg(double roll_deg);

// The tracker's accuracy for plots with these errors (root-sum-squared; a rectangular error's
// sigma is its half-width / sqrt 3, a grid step's is step / sqrt 12).
RadarAccuracy plot_accuracy(const PlotErrors& e);

// The bearing sigma of a plot at range_m: the angular part with the cross-range part in
// quadrature.
double plot_bearing_sigma_deg(const RadarAccuracy& acc, double range_m);

// Pulse-shape share of the range accuracy: IMO A.823(19) Annex 3 gives 20 m for a 30 m pulse.
inline constexpr double kRangeSigmaPerPulse = 20.0 / 30.0;
// Beam-shape share of the bearing accuracy: the standard's 0.05 deg for a 1.2 deg beam.
inline constexpr double kBearingSigmaPerBeam = 0.05 / 1.2;
// The rest of the standard's bearing errors, root-sum-squared: the encoder (0.03 deg) and the
// backlash (+-0.05 deg rectangular: 0.05 / sqrt 3).
inline constexpr double kEncoderSigmaDeg = 0.03;
inline constexpr double kBacklashDeg = 0.05;

// The default accuracy of a radar with this beam and pulse whose video has `azimuths` rows and
// `range_bins` cells over `range_m`: plot_accuracy of the standard's errors (PlotErrors'
// defaults) with the beam and pulse shares scaled by the beam and the pulse, and the
// quantisation of one row and one cell. Values <= 0 leave the grid out (unknown).
RadarAccuracy radar_accuracy(const gpu::PlotParams& radar, int azimuths = 0, int range_bins = 0,
                             double range_m = 0);

// Own ship as the tracker takes it. A state that is not valid gives an invalid OwnShip (tracks
// relative); course and heading are turned into the local plane (true_to_grid_deg).
track::OwnShip to_track_own_ship(const nav::OwnShipState& own);

// One plot as the tracker takes it. `own` is own ship's state at (or within a few seconds of)
// p.time_s: its position is carried to p.time_s along its velocity, its heading used as it is.
// own.valid: ground-stabilised; else, with own.heading_valid, north-up about the radar; else the
// relative bearing is taken as true. `time_offset_s` is added to p.time_s (the tracker's clock,
// see Engine: a time-of-day feed unwrapped past midnight).
track::TrackPlot to_track_plot(const gpu::Plot& p, const nav::OwnShipState& own,
                               const RadarAccuracy& acc, double time_offset_s = 0.0);

// A clockwise sector of azimuths, from_deg to to_deg ([0, 360)); full: the whole circle
// (from_deg == to_deg then); empty: nothing was swept.
struct SweepSector {
  double from_deg = 0.0, to_deg = 0.0;
  bool empty = true;
  bool full = false;
};

// The rows a frame changed (frame.dirty), as azimuths relative to the bow. A frame whose dirty
// span is the whole circle (the first after a reset, a headless frame of one rotation) ends at
// the sweep: from = to = frame.sweep_azimuth_deg.
SweepSector frame_sector(const PolarFrame& frame);
// The same sector in true bearings: heading at the sector's start and at its end (they differ
// while own ship turns). An empty sector stays empty.
SweepSector true_sector(const SweepSector& relative, double heading_from_deg,
                        double heading_to_deg);

// The latest and the earliest sweep time of the frame's changed rows (frame clock; nullopt when
// the frame has no row times).
std::optional<double> frame_latest_time(const PolarFrame& frame);
std::optional<double> frame_earliest_time(const PolarFrame& frame);

// Whether the sweep left plot `p` within `relative` (its trailing edge, bearing + half its
// azimuth extent + margin_deg, lies in the sector): the frame in which to feed it, once. A full
// sector takes every plot.
bool plot_completed(const gpu::Plot& p, const SweepSector& relative, double margin_deg);

// The engine's clock for the tracker from a frame clock that may be a UTC time of day (CAT240
// I240/140, wraps at 86,400 s): adds a day whenever the time falls back by more than half a day.
class ClockUnwrapper {
 public:
  // The offset to add to times near `t_s` (call with each frame's latest time, in order).
  double offset_for(double t_s);
  void reset() { *this = ClockUnwrapper(); }

 private:
  bool have_ = false;
  double last_ = 0.0, offset_ = 0.0;
};

}  // namespace sweepline::engine
