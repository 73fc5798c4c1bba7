#include "gpu/cpu/cpu_stages.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>

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

void scan_convert(ThreadPool& pool, const ScanSetup& s, const uint8_t* polar, ScanMode mode,
                  Image8& out) {
  if (out.width != s.width || out.height != s.height) out = Image8(s.width, s.height);
  std::vector<uint8_t> pyramid;
  AzPyramid pyr;
  if (mode == ScanMode::MaxHold) {
    pyramid.resize(az_pyramid_cells(s.azimuths, s.bins));
    az_pyramid(pool, polar, s.azimuths, s.bins, pyramid.data());
    pyr.l1 = pyramid.data();
    pyr.l2 = pyramid.data() + size_t(s.azimuths / kAzBlock1) * size_t(s.bins);
  }
  pool.parallel_for(s.height, [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y) {
      uint8_t* row = out.row(y);
      for (int x = 0; x < s.width; ++x) {
        const PixelPolar p = swl_pixel_polar(s, x, y);
        switch (mode) {
          case ScanMode::Nearest:
            row[x] = swl_nearest(s, polar, p);
            break;
          case ScanMode::Bilinear:
            row[x] = to_level(swl_bilinear(s, polar, p));
            break;
          case ScanMode::MaxHold:
            row[x] = swl_max_hold(s, polar, pyr, p);
            break;
        }
      }
    }
  });
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
