#pragma once
// The hand-off between input (sweep assembly) and processing: one antenna rotation as an
// azimuth-by-range image of 8-bit intensities. Row a covers azimuths [a, a+1) * 360 / azimuths
// degrees clockwise from north; column r covers ranges [r, r+1) * range_m / range_bins metres.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sweepline {

// Rows changed since the previous hand-off, as a span that may wrap past the last row to row 0
// (the sweep crosses north). count == 0: nothing changed; count == azimuths: everything.
struct RowSpan {
  int first = 0;
  int count = 0;
};

struct PolarFrame {
  int azimuths = 4096;
  int range_bins = 4096;
  double range_m = 0;            // range at the far edge of the last bin
  std::vector<uint8_t> cells;    // azimuths * range_bins, row-major by azimuth
  RowSpan dirty;                 // rows changed since the last hand-off
  double sweep_azimuth_deg = 0;  // where the antenna is now (for the sweep line)
  uint64_t rotation = 0;         // completed rotations so far
  // Per row, when the antenna swept it (s, the source's clock: the CAT240 time of day when the
  // video carries it, else the capture or arrival time); empty or 0 = unknown. Plots take their
  // time from it.
  std::vector<double> row_time_s;

  PolarFrame() = default;
  PolarFrame(int az, int bins, double range)
      : azimuths(az),
        range_bins(bins),
        range_m(range),
        cells(size_t(az) * size_t(bins), 0),
        dirty{0, az} {}
  uint8_t* row(int a) { return cells.data() + size_t(a) * size_t(range_bins); }
  const uint8_t* row(int a) const { return cells.data() + size_t(a) * size_t(range_bins); }
};

}  // namespace sweepline
