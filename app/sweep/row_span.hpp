#pragma once
// Growing the set of changed azimuth rows, kept as one span that may wrap past north.
#include <cstddef>  // polar_frame.hpp uses size_t without including it

#include "app/common/polar_frame.hpp"

namespace sweepline::sweep {

// The shortest wrapping span on a circle of `rows` rows that covers both `a` and the rows
// [first, first + count) (first in [0, rows), count >= 0; counts of rows or more mean all).
RowSpan merge_rows(RowSpan a, int first, int count, int rows);

// Whether row r lies in span s on a circle of `rows` rows.
inline bool span_contains(RowSpan s, int r, int rows) {
  if (s.count <= 0) return false;
  const int d = ((r - s.first) % rows + rows) % rows;
  return d < s.count;
}

}  // namespace sweepline::sweep
