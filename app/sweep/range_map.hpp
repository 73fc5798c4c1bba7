#pragma once
// How the cells of one video message land on the range bins of a polar frame. Cell i covers the
// ranges [(START_RG + i), (START_RG + i + 1)) * CELL_DUR * c / 2; bin b covers
// [b, b + 1) * range_m / bins. A cell contributes to every bin it overlaps (by more than a
// millionth of the narrower width, so that equal grids do not bleed into their neighbours), and a
// bin takes the maximum of the cells that meet it.
#include <cstdint>
#include <span>
#include <vector>

#include "app/asterix/cat240_record.hpp"

namespace sweepline::sweep {

inline constexpr double kSpeedOfLight = 299792458.0;  // m/s

// Metres of range per cell for a CELL_DUR in ns or fs (two-way travel time).
double cell_length_m(uint32_t cell_dur, cat240::CellDurUnit unit);

struct RangeGeometry {
  uint32_t start_rg = 0;
  uint32_t nb_cells = 0;
  uint32_t cell_dur = 0;
  cat240::CellDurUnit unit = cat240::CellDurUnit::Nano;
  bool operator==(const RangeGeometry&) const = default;
};

// The per-bin cell ranges for one geometry on one display grid; built once, reused while the
// geometry repeats.
class RangeMap {
 public:
  RangeMap(const RangeGeometry& g, int range_bins, double range_m);
  const RangeGeometry& geometry() const { return geometry_; }
  int first_bin() const { return first_bin_; }
  int end_bin() const { return end_bin_; }  // one past the last bin touched (== first: none)
  // Writes max(line[b], cells meeting b) for every bin in [first_bin, end_bin).
  // `cells` must hold geometry().nb_cells values.
  void apply_max(std::span<const uint8_t> cells, uint8_t* line) const;
  // Stores the cells meeting each bin into line[b] (overwriting) for bins in [first, end).
  void apply_store(std::span<const uint8_t> cells, uint8_t* line) const;

 private:
  RangeGeometry geometry_;
  int first_bin_ = 0;
  int end_bin_ = 0;
  int shift_ = 0;                  // identity mapping: bin b takes cell b + shift_
  bool identity_ = false;          // exactly one cell per bin, consecutive
  bool single_ = false;            // exactly one cell per bin (cells wider than bins): a gather
  std::vector<uint32_t> c0_, c1_;  // per bin (offset by first_bin_): cells [c0, c1)
  struct Run {
    uint32_t cell, bins;
  };
  std::vector<Run> runs_;  // single_: consecutive bins taking the same cell
};

// The overlap rule itself, shared by RangeMap and exposed for tests and tools: does cell i of
// geometry g meet bin b of a grid of range_bins over range_m?
bool cell_meets_bin(const RangeGeometry& g, uint32_t i, int b, int range_bins, double range_m);

}  // namespace sweepline::sweep
