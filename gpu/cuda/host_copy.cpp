#include "gpu/cuda/host_copy.hpp"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define SWL_STREAM_STORES 1
#endif

namespace sweepline::gpu::cuda {

void copy_for_upload(uint8_t* dst, const uint8_t* src, size_t n) {
#ifdef SWL_STREAM_STORES
  // Bytes up to dst's first 16-byte boundary, then whole 64-byte lines, then the tail.
  const size_t head = std::min(n, size_t((16 - (reinterpret_cast<uintptr_t>(dst) & 15)) & 15));
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + 64 <= n; i += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
  }
  std::memcpy(dst + i, src + i, n - i);
  _mm_sfence();  // the streaming stores are weakly ordered: complete them before the copy
#else
  std::memcpy(dst, src, n);
#endif
}

}  // namespace sweepline::gpu::cuda
