#pragma once
// The filters' kernels take their radius as a template parameter (every tap index constant,
// every loop unrolled); this turns a run-time radius into that parameter.
#include <type_traits>

#include "app/common/check.hpp"

namespace sweepline::gpu::cuda {

// Calls f(std::integral_constant<int, r>{}) for r in 1 .. kMax; throws `what` otherwise.
template <int kMax, int R = 1, class F>
void with_radius(int r, F&& f, const char* what) {
  if constexpr (R <= kMax) {
    if (r == R) return f(std::integral_constant<int, R>{});
    with_radius<kMax, R + 1>(r, f, what);
  } else {
    SWL_CHECK(false, what);
  }
}

}  // namespace sweepline::gpu::cuda
