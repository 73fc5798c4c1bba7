#pragma once
// dst[i] = max(dst[i], src[i]): the inner loop of max-hold. Written with 16-byte vector types so
// that it vectorises at -O2 too (one pmaxub per 16 bins).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sweepline::sweep {

inline void max_into(uint8_t* dst, const uint8_t* src, std::size_t n) {
  typedef uint8_t v16 __attribute__((vector_size(16)));
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    v16 a, b;
    std::memcpy(&a, dst + i, 16);
    std::memcpy(&b, src + i, 16);
    a = a > b ? a : b;
    std::memcpy(dst + i, &a, 16);
  }
  for (; i < n; ++i) dst[i] = std::max(dst[i], src[i]);
}

}  // namespace sweepline::sweep
