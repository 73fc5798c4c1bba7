#include "app/sweep/row_span.hpp"

#include <algorithm>

namespace sweepline::sweep {

RowSpan merge_rows(RowSpan a, int first, int count, int rows) {
  if (count <= 0) return a;
  if (count >= rows || a.count >= rows) return {0, rows};
  if (a.count <= 0) return {first, count};
  auto mod = [rows](int v) { return ((v % rows) + rows) % rows; };
  // Either span may come first going clockwise; keep whichever union is shorter.
  const int from_a = std::max(a.count, mod(first - a.first) + count);
  const int from_b = std::max(count, mod(a.first - first) + a.count);
  RowSpan s = from_a <= from_b ? RowSpan{a.first, from_a} : RowSpan{first, from_b};
  if (s.count >= rows) return {0, rows};
  return s;
}

}  // namespace sweepline::sweep
