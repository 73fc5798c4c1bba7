#pragma once
// Detections against the truth, one rotation at a time: which plot is which vessel. A plot
// matches a vessel when it lies within the range gate (max(60 m, the hull's length)) and the
// bearing gate (2 deg, across north); each plot and each vessel is used at most once, the
// closest pairs first by their distance in gate units.
#include <cstdint>
#include <string>
#include <vector>

#include "app/sim/scene.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::eval {

// One detection in the radar's units: a plot, or a labelled component until plots exist.
struct Detection {
  double range_m = 0;
  double bearing_deg = 0;  // clockwise from north, 0..360
  int64_t area_px = 0;
  uint8_t peak = 0;
};

// Where detections() took them from.
enum class DetectionKind { Plots, Components };
const char* to_string(DetectionKind k);

// The frame's detections: its plots when the pipeline made any, else its labelled components
// (the plot extractor's input). `kind`, when given, says which.
std::vector<Detection> detections(const gpu::FrameResult& result, DetectionKind* kind = nullptr);

struct MatchGates {
  double min_range_m = 60;  // the range gate is max(this, the vessel's length)
  double bearing_deg = 2;
};

struct MatchPair {
  int detection = 0;             // index into the detections
  int vessel = 0;                // index into the truth
  double range_error_m = 0;      // detection - truth
  double bearing_error_deg = 0;  // detection - truth, wrapped to [-180, 180)
};

struct RotationMatch {
  std::vector<MatchPair> pairs;
  std::vector<int> unmatched_detections;  // indices, ascending
  std::vector<int> missed_vessels;        // indices, ascending
};

// Signed bearing difference a - b wrapped to [-180, 180).
double bearing_diff(double a_deg, double b_deg);

// One-to-one greedy assignment by normalised distance sqrt((dr/gate_r)^2 + (db/gate_b)^2),
// candidates within both gates only; ties go to the lower detection, then vessel, index.
RotationMatch match_rotation(const std::vector<Detection>& detections,
                             const std::vector<sim::VesselTruth>& truth,
                             const MatchGates& gates = {});

}  // namespace sweepline::eval
