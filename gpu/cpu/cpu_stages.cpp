#include "gpu/cpu/cpu_stages.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "gpu/cpu/stage_tables.hpp"

namespace sweepline::gpu::cpu {

namespace {

inline int clampi(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

// Row k of dst = the maximum of rows k * per .. k * per + per - 1 of src (b bytes each), k < n.
void block_max(ThreadPool& pool, const uint8_t* src, uint8_t* dst, int n, int per, size_t b) {
  pool.parallel_for(n, [&](int k0, int k1) {
    for (int k = k0; k < k1; ++k) {
      uint8_t* d = dst + size_t(k) * b;
      std::copy(src + size_t(k * per) * b, src + size_t(k * per + 1) * b, d);
      for (int j = k * per + 1; j < (k + 1) * per; ++j) {
        const uint8_t* row = src + size_t(j) * b;
        for (size_t r = 0; r < b; ++r) d[r] = std::max(d[r], row[r]);
      }
    }
  });
}

// The separable filters' row pass: scratch (W x H, 8.8 fixed point) at (x, y) = tap(row y of
// in, x), for every pixel.
template <class Tap>
void row_pass(ThreadPool& pool, const Image8& in, std::vector<uint16_t>& scratch, const Tap& tap) {
  const int W = in.width;
  scratch.resize(in.size());
  pool.parallel_for(in.height, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      const uint8_t* src = in.row(y);
      uint16_t* dst = scratch.data() + size_t(y) * size_t(W);
      for (int x = 0; x < W; ++x) dst[x] = tap(src, x);
    }
  });
}

}  // namespace

void az_pyramid(ThreadPool& pool, const uint8_t* polar, int azimuths, int bins, uint8_t* out) {
  const int n1 = azimuths / kAzBlock1, n2 = azimuths / kAzBlock2;
  const size_t b = size_t(bins);
  block_max(pool, polar, out, n1, kAzBlock1, b);                             // level 1
  block_max(pool, out, out + size_t(n1) * b, n2, kAzBlock2 / kAzBlock1, b);  // level 2
}

namespace {

constexpr int kLanes = 16;  // bytes a vector max takes at once (SSE2)

// The maximum over the cells of one span, gathered a vector of range bins at a time: for every
// azimuth step (a pyramid block where one lies wholly inside the span, else a single row, as
// swl_span_max steps) the span's range bins of that row are one contiguous run.
inline uint8_t span_max(const ScanSetup& s, const uint8_t* polar, const uint8_t* polar_end,
                        AzPyramid pyr, const ScanConverter::Span& sp) {
  const int r0 = sp.r0, len = sp.r1 - sp.r0 + 1;
  const size_t b = size_t(s.bins);
#if defined(__SSE2__)
  static const std::array<uint8_t, 2 * kLanes> kMask = [] {
    std::array<uint8_t, 2 * kLanes> m{};
    for (int i = 0; i < kLanes; ++i) m[size_t(i)] = 0xFF;
    return m;
  }();
  __m128i acc = _mm_setzero_si128();
  // Cells r0 .. r0 + 15 of a row, or the row's last cells where a 16-byte load would run off the
  // end of the frame (only the last row can: the others run into the next row, masked off).
  auto load = [&](const uint8_t* row) {
    const uint8_t* p = row + r0;
    if (p + kLanes <= polar_end || row < polar || row >= polar_end)
      return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    alignas(16) uint8_t tmp[kLanes] = {};
    std::memcpy(tmp, p, size_t(polar_end - p));
    return _mm_load_si128(reinterpret_cast<const __m128i*>(tmp));
  };
  // Runs longer than a vector: whole vectors from r0, the last one ending at r1 (overlapping).
  auto wide = [&](const uint8_t* row) {
    __m128i m = _mm_setzero_si128();
    for (int k = 0; k + kLanes <= len; k += kLanes)
      m = _mm_max_epu8(m, _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + r0 + k)));
    return _mm_max_epu8(m,
                        _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + r0 + len - kLanes)));
  };
#else
  unsigned m = 0;
#endif
  int a = sp.a0, left = int(sp.na_minus_1) + 1;
  while (left > 0) {
    const uint8_t* row;
    if ((a % kAzBlock2) == 0 && left >= kAzBlock2 && a + kAzBlock2 <= s.azimuths) {
      row = pyr.l2 + size_t(a / kAzBlock2) * b;
      a += kAzBlock2;
      left -= kAzBlock2;
    } else if ((a % kAzBlock1) == 0 && left >= kAzBlock1 && a + kAzBlock1 <= s.azimuths) {
      row = pyr.l1 + size_t(a / kAzBlock1) * b;
      a += kAzBlock1;
      left -= kAzBlock1;
    } else {
      row = polar + size_t(a) * b;
      ++a;
      --left;
    }
#if defined(__SSE2__)
    acc = _mm_max_epu8(acc, len <= kLanes ? load(row) : wide(row));
#else
    for (int r = 0; r < len; ++r) m = std::max<unsigned>(m, row[r0 + r]);
#endif
    if (a == s.azimuths) a = 0;
  }
#if defined(__SSE2__)
  if (len < kLanes)
    acc = _mm_and_si128(
        acc, _mm_loadu_si128(reinterpret_cast<const __m128i*>(kMask.data() + kLanes - len)));
  acc = _mm_max_epu8(acc, _mm_srli_si128(acc, 8));
  acc = _mm_max_epu8(acc, _mm_srli_si128(acc, 4));
  acc = _mm_max_epu8(acc, _mm_srli_si128(acc, 2));
  acc = _mm_max_epu8(acc, _mm_srli_si128(acc, 1));
  return uint8_t(_mm_cvtsi128_si32(acc) & 0xFF);
#else
  return uint8_t(m);
#endif
}

bool same_setup(const ScanSetup& a, const ScanSetup& b) {
  return a.width == b.width && a.height == b.height && a.azimuths == b.azimuths &&
         a.bins == b.bins && a.east0 == b.east0 && a.north0 == b.north0 && a.step == b.step &&
         a.footprint == b.footprint && a.az_per_rad == b.az_per_rad;
}

}  // namespace

void ScanConverter::plan(ThreadPool& pool, const ScanSetup& s) {
  if (planned_ && same_setup(s, setup_)) return;
  spans_.resize(size_t(s.width) * size_t(s.height));
  pool.parallel_for(s.height, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < s.width; ++x) {
        Span& e = spans_[size_t(y) * size_t(s.width) + size_t(x)];
        const PixelPolar p = swl_pixel_polar(s, x, y);
        if (!(p.u < float(s.bins))) {  // swl_max_hold's test: past the range
          e = {1, 0, 0, 0};
          continue;
        }
        const PixelSpan sp = swl_pixel_span(s, p);
        e = {uint16_t(sp.r0), uint16_t(sp.r1), uint16_t(sp.a0), uint16_t(sp.na - 1)};
      }
  });
  // The last pyramid row is read a whole vector at a time too.
  pyramid_.assign(az_pyramid_cells(s.azimuths, s.bins) + kLanes, 0);
  setup_ = s;
  planned_ = true;
}

void ScanConverter::run(ThreadPool& pool, const ScanSetup& s, const uint8_t* polar, ScanMode mode,
                        Image8& out, const RowSpan* changed) {
  if (out.width != s.width || out.height != s.height) out = Image8(s.width, s.height);
  if (mode != ScanMode::MaxHold) {
    last_out_ = nullptr;  // out no longer holds a max-hold image
    pool.parallel_for(s.height, [&](int y0, int y1) {
      for (int y = y0; y < y1; ++y) {
        uint8_t* row = out.row(y);
        for (int x = 0; x < s.width; ++x) {
          const PixelPolar p = swl_pixel_polar(s, x, y);
          row[x] = mode == ScanMode::Nearest ? swl_nearest(s, polar, p)
                                             : to_level(swl_bilinear(s, polar, p));
        }
      }
    });
    return;
  }
  const int A = s.azimuths;
  const bool same =
      planned_ && same_setup(s, setup_) && polar == last_polar_ && out.pixels.data() == last_out_;
  plan(pool, s);
  // Rows first .. first + count - 1 (mod A) changed; count >= A: all of them.
  int first = 0, count = A;
  if (same && changed) {
    first = ((changed->first % A) + A) % A;
    count = std::clamp(changed->count, 0, A);
  }
  last_polar_ = polar;
  last_out_ = out.pixels.data();
  if (count == 0) return;
  const size_t b = size_t(s.bins);
  const int n1 = A / kAzBlock1, n2 = A / kAzBlock2;
  uint8_t* l1 = pyramid_.data();
  uint8_t* l2 = pyramid_.data() + size_t(n1) * b;
  if (count >= A) {
    az_pyramid(pool, polar, A, s.bins, pyramid_.data());
  } else {
    // The blocks of each level that hold a changed row, level 1 before level 2.
    std::vector<int> blocks1, blocks2;
    for (int i = 0; i < count; i += 1) {
      const int a = (first + i) % A;
      if (a / kAzBlock1 < n1 && (blocks1.empty() || blocks1.back() != a / kAzBlock1))
        blocks1.push_back(a / kAzBlock1);
      if (a / kAzBlock2 < n2 && (blocks2.empty() || blocks2.back() != a / kAzBlock2))
        blocks2.push_back(a / kAzBlock2);
    }
    auto redo = [&](const std::vector<int>& blocks, const uint8_t* src, uint8_t* dst, int per) {
      pool.parallel_for(int(blocks.size()), [&](int i0, int i1) {
        for (int i = i0; i < i1; ++i) {
          const int k = blocks[size_t(i)];
          uint8_t* d = dst + size_t(k) * b;
          std::copy(src + size_t(k * per) * b, src + size_t(k * per + 1) * b, d);
          for (int j = k * per + 1; j < (k + 1) * per; ++j) {
            const uint8_t* row = src + size_t(j) * b;
            for (size_t r = 0; r < b; ++r) d[r] = std::max(d[r], row[r]);
          }
        }
      });
    };
    redo(blocks1, polar, l1, kAzBlock1);
    redo(blocks2, l1, l2, kAzBlock2 / kAzBlock1);
  }
  AzPyramid pyr;
  pyr.l1 = l1;
  pyr.l2 = l2;
  const uint8_t* polar_end = polar + size_t(A) * b;
  // A pixel is redone when its azimuths meet the changed rows: two arcs of the circle meet when
  // either one's start lies in the other.
  const bool all = count >= A;
  auto meets = [&](const Span& e) {
    const int na = int(e.na_minus_1) + 1;
    return all || na >= A || (e.a0 - first + A) % A < count || (first - e.a0 + A) % A < na;
  };
  pool.parallel_for(s.height, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      uint8_t* row = out.row(y);
      const Span* e = spans_.data() + size_t(y) * size_t(s.width);
      for (int x = 0; x < s.width; ++x) {
        if (e[x].r0 > e[x].r1)
          row[x] = 0;
        else if (meets(e[x]))
          row[x] = span_max(s, polar, polar_end, pyr, e[x]);
      }
    }
  });
}

void scan_convert(ThreadPool& pool, const ScanSetup& s, const uint8_t* polar, ScanMode mode,
                  Image8& out) {
  ScanConverter().run(pool, s, polar, mode, out);
}

void gaussian(ThreadPool& pool, const Image8& in, float sigma, Image8& out,
              std::vector<uint16_t>& scratch) {
  const std::vector<float> w = gaussian_weights(sigma);
  const int r = int(w.size() / 2), W = in.width, H = in.height;
  if (out.width != W || out.height != H) out = Image8(W, H);
  row_pass(pool, in, scratch, [&](const uint8_t* src, int x) {
    float acc = 0;
    for (int k = -r; k <= r; ++k) acc += w[size_t(k + r)] * float(src[clampi(x + k, 0, W - 1)]);
    return to_fixed(acc);
  });
  pool.parallel_for(H, [&](int y0, int y1) {
    std::vector<float> acc(static_cast<size_t>(W));
    for (int y = y0; y < y1; ++y) {
      std::fill(acc.begin(), acc.end(), 0.0f);
      for (int k = -r; k <= r; ++k) {
        const uint16_t* src = scratch.data() + size_t(clampi(y + k, 0, H - 1)) * size_t(W);
        const float wk = w[size_t(k + r)];
        for (int x = 0; x < W; ++x) acc[size_t(x)] += wk * float(src[x]);
      }
      uint8_t* dst = out.row(y);
      for (int x = 0; x < W; ++x) dst[x] = fixed_to_level(acc[size_t(x)]);
    }
  });
}

void bilateral(ThreadPool& pool, const Image8& in, float sigma_s, float sigma_r, Image8& out,
               std::vector<uint16_t>& scratch) {
  const std::vector<float> ws = bilateral_spatial_weights(sigma_s);
  const std::array<float, 256> wr = bilateral_range_weights(sigma_r);
  const int r = int(ws.size() / 2), W = in.width, H = in.height;
  if (out.width != W || out.height != H) out = Image8(W, H);
  row_pass(pool, in, scratch, [&](const uint8_t* src, int x) {
    const int c = src[x];
    float num = 0, den = 0;
    for (int k = -r; k <= r; ++k) {
      const int p = src[clampi(x + k, 0, W - 1)];
      const float wt = ws[size_t(k + r)] * wr[size_t(std::abs(p - c))];
      num += wt * float(p);
      den += wt;
    }
    return to_fixed(num / den);
  });
  pool.parallel_for(H, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      uint8_t* dst = out.row(y);
      for (int x = 0; x < W; ++x) {
        const int c = scratch[size_t(y) * size_t(W) + size_t(x)];
        float num = 0, den = 0;
        for (int k = -r; k <= r; ++k) {
          const int p = scratch[size_t(clampi(y + k, 0, H - 1)) * size_t(W) + size_t(x)];
          const int d = std::min(255, (std::abs(p - c) + 128) >> 8);
          const float wt = ws[size_t(k + r)] * wr[size_t(d)];
          num += wt * float(p);
          den += wt;
        }
        dst[x] = fixed_to_level(num / den);
      }
    }
  });
}

namespace {

using cf = std::complex<float>;

// In-place radix-2 FFT of 32 points with stride; sign -1 forward, +1 inverse (unnormalised).
void fft32(cf* a, int stride, int sign, const std::array<cf, 16>& tw_fwd) {
  // bit reversal
  for (int i = 1, j = 0; i < kFftWindow; ++i) {
    int bit = kFftWindow >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i * stride], a[j * stride]);
  }
  for (int len = 2; len <= kFftWindow; len <<= 1) {
    const int half = len / 2, tstep = kFftWindow / len;
    for (int i = 0; i < kFftWindow; i += len)
      for (int k = 0; k < half; ++k) {
        cf t = tw_fwd[size_t(k * tstep)];
        if (sign > 0) t = std::conj(t);
        const cf u = a[(i + k) * stride], v = a[(i + k + half) * stride] * t;
        a[(i + k) * stride] = u + v;
        a[(i + k + half) * stride] = u - v;
      }
  }
}

}  // namespace

void fft_enhance(ThreadPool& pool, const Image8& in, const FftEnhanceParams& prm, Image8& out) {
  const int W = in.width, H = in.height, N = kFftWindow, S = kFftStep;
  if (out.width != W || out.height != H) out = Image8(W, H);
  const std::vector<float> keep = fft_keep_mask(prm);
  std::array<cf, 16> tw{};
  for (int k = 0; k < 16; ++k) {
    const double a = -2.0 * 3.14159265358979323846 * k / N;
    tw[size_t(k)] = cf(float(std::cos(a)), float(std::sin(a)));
  }
  const int bw = (W + S - 1) / S, bh = (H + S - 1) / S;
  pool.parallel_for(bh, [&](int by0, int by1) {
    std::vector<cf> win(size_t(N * N));
    for (int by = by0; by < by1; ++by)
      for (int bx = 0; bx < bw; ++bx) {
        const int ox = bx * S - S / 2, oy = by * S - S / 2;
        for (int j = 0; j < N; ++j)
          for (int i = 0; i < N; ++i) {
            const int x = ox + i, y = oy + j;
            const bool inside = x >= 0 && x < W && y >= 0 && y < H;
            win[size_t(j * N + i)] = cf(inside ? float(in.at(x, y)) : 0.0f, 0.0f);
          }
        for (int j = 0; j < N; ++j) fft32(&win[size_t(j * N)], 1, -1, tw);
        for (int i = 0; i < N; ++i) fft32(&win[size_t(i)], N, -1, tw);
        for (int f = 0; f < N * N; ++f) {
          const cf z = win[size_t(f)];
          const float p = z.real() * z.real() + z.imag() * z.imag();
          win[size_t(f)] = keep[size_t(f)] != 0.0f ? z * std::pow(p, prm.power) : cf(0.0f, 0.0f);
        }
        for (int j = 0; j < N; ++j) fft32(&win[size_t(j * N)], 1, +1, tw);
        for (int i = 0; i < N; ++i) fft32(&win[size_t(i)], N, +1, tw);
        float peak = 0;
        for (const cf& z : win) peak = std::max(peak, std::abs(z.real()) * (1.0f / (N * N)));
        const bool flat = peak < prm.min_peak;
        const float scale = flat ? 0.0f : prm.gain / peak;
        for (int j = S / 2; j < S / 2 + S; ++j) {
          const int y = oy + j;
          if (y >= H) break;
          for (int i = S / 2; i < S / 2 + S; ++i) {
            const int x = ox + i;
            if (x >= W) break;
            float v = win[size_t(j * N + i)].real() * (1.0f / (N * N)) * scale + prm.offset;
            v = std::clamp(v, 0.0f, 255.0f);
            out.at(x, y) = uint8_t(v);
          }
        }
      }
  });
}

void cfar_polar(ThreadPool& pool, const PolarFrame& f, int guard, int train, double pfa,
                std::vector<uint8_t>& mask) {
  const std::vector<float> k = cfar_scale_table(train, pfa);
  const int B = f.range_bins;
  mask.resize(f.cells.size());
  pool.parallel_for(f.azimuths, [&](int a0, int a1) {
    // Power (amplitude squared): the CA-CFAR factor is derived for square-law detected video.
    std::vector<int32_t> pre(static_cast<size_t>(B) + 1);
    for (int a = a0; a < a1; ++a) {
      const uint8_t* row = f.row(a);
      pre[0] = 0;
      for (int r = 0; r < B; ++r) pre[size_t(r) + 1] = pre[size_t(r)] + int32_t(row[r]) * row[r];
      uint8_t* m = mask.data() + size_t(a) * size_t(B);
      for (int r = 0; r < B; ++r) {
        int n = 0, sum = 0;
        const int le = r - guard, lb = std::max(0, r - guard - train);  // [lb, le)
        if (le > lb) {
          n += le - lb;
          sum += pre[size_t(le)] - pre[size_t(lb)];
        }
        const int rb = r + guard + 1, re = std::min(B, r + guard + train + 1);  // [rb, re)
        if (re > rb) {
          n += re - rb;
          sum += pre[size_t(re)] - pre[size_t(rb)];
        }
        m[r] = (n > 0 && float(int(row[r]) * row[r]) > k[size_t(n)] * float(sum)) ? 255 : 0;
      }
    }
  });
}

void threshold(ThreadPool& pool, const Image8& in, uint8_t t, Image8& out) {
  if (out.width != in.width || out.height != in.height) out = Image8(in.width, in.height);
  pool.parallel_for(in.height, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      const uint8_t* s = in.row(y);
      uint8_t* d = out.row(y);
      for (int x = 0; x < in.width; ++x) d[x] = s[x] > t ? 255 : 0;
    }
  });
}

}  // namespace sweepline::gpu::cpu
