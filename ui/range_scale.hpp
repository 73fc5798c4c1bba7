#pragma once
// Standard range scales and their range-ring intervals (IMO MSC.192(79) 5.12.1: 0.25, 0.5, 0.75,
// 1.5, 3, 6, 12 and 24 NM are required, others allowed; the rings are equally spaced, with the
// interval shown). The console steps through these with keys, the wheel or the Display panel.
#include <array>
#include <string>

namespace sweepline::ui {

struct RangeScale {
  double range_nm;
  double ring_nm;  // the interval the industry uses on that scale (five or six rings)
};

inline constexpr std::array<RangeScale, 10> kRangeScales{{{0.125, 0.025},
                                                          {0.25, 0.05},
                                                          {0.5, 0.1},
                                                          {0.75, 0.25},
                                                          {1.5, 0.25},
                                                          {3, 0.5},
                                                          {6, 1},
                                                          {12, 2},
                                                          {24, 4},
                                                          {48, 8}}};

// The standard scale that shows `range_m` whole: the smallest at least that long (the largest
// when none is).
int range_scale_for(double range_m);
// The index of a standard scale within 1 % of `range_m`, or -1.
int standard_range_scale(double range_m);
// The next standard scale from the displayed radius `range_m`: longer (delta > 0) or shorter; the
// scale itself when already at the end of the list.
double step_range_scale_m(double range_m, int delta);
// The ring interval for a displayed radius: the standard scale's, or for another radius (a
// script's zoom) a nice step giving about five to six rings.
double ring_interval_m(double range_m);
// "0.125", "0.75", "1.5", "12": a range in NM without trailing zeros.
std::string format_nm(double nm);

}  // namespace sweepline::ui
