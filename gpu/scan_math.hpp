#pragma once
// Scan-conversion arithmetic shared verbatim by the CPU and CUDA backends, so that nearest and
// max-hold give bit-identical images. Only correctly rounded IEEE operations are used (+, -, *, /,
// sqrt, fma), every multiply that feeds an add is either an explicit fma or an explicit
// round-to-nearest multiply (nvcc would otherwise contract it into an fma and the host would not),
// and the arctangent is our own polynomial (the CUDA and glibc atan2f differ in the last bits).
#include <cmath>
#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define SWL_HD __host__ __device__ __forceinline__
#else
#define SWL_HD inline
#endif

namespace sweepline::gpu {

SWL_HD float swl_mul(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
SWL_HD float swl_fma(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
SWL_HD float swl_sqrt(float a) {
#if defined(__CUDA_ARCH__)
  return __fsqrt_rn(a);
#else
  return std::sqrt(a);
#endif
}
SWL_HD float swl_div(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}
SWL_HD int swl_floor(float a) {
  return int(floorf(a));
}

// Everything a scan-conversion kernel needs, in range-bin units (1 = one range bin).
struct ScanSetup {
  int width = 0, height = 0;    // display
  int azimuths = 0, bins = 0;   // polar frame
  float east0 = 0, north0 = 0;  // position of pixel (0, 0)'s centre relative to the radar
  float step = 1;               // pixel size
  float footprint = 0.7071f;    // radius of a pixel's footprint for max-hold (step / sqrt 2)
  float az_per_rad = 1;         // azimuths / (2 pi)
};

// atan(t) for 0 <= t <= 1, in radians (max error 1.7e-6): the one polynomial every scan path
// evaluates, in this order of correctly rounded operations.
SWL_HD float swl_atan_poly(float t) {
  const float s = swl_mul(t, t);
  float p = -0.01172120f;
  p = swl_fma(p, s, 0.05265332f);
  p = swl_fma(p, s, -0.11643287f);
  p = swl_fma(p, s, 0.19354346f);
  p = swl_fma(p, s, -0.33262347f);
  p = swl_fma(p, s, 0.99997726f);
  return swl_mul(p, t);
}

// atan(y / x) for 0 <= y <= x, in radians.
SWL_HD float swl_atan_unit(float y, float x) {
  if (x <= 0.0f) return 0.0f;
  return swl_atan_poly(swl_div(y, x));
}

// Azimuth of (east, north) in azimuth units [0, azimuths): 0 = north, clockwise.
SWL_HD float swl_azimuth(float east, float north, float az_per_rad, float azimuths) {
  const float ae = fabsf(east), an = fabsf(north);
  const float quarter = swl_mul(azimuths, 0.25f), half = swl_mul(azimuths, 0.5f);
  float a;  // angle from the north-south axis towards the east-west axis, in azimuth units
  if (ae <= an)
    a = swl_mul(swl_atan_unit(ae, an), az_per_rad);
  else
    a = quarter - swl_mul(swl_atan_unit(an, ae), az_per_rad);
  float v;
  if (east >= 0.0f)
    v = north >= 0.0f ? a : half - a;
  else
    v = north >= 0.0f ? azimuths - a : half + a;
  if (v >= azimuths) v -= azimuths;
  if (v < 0.0f) v = 0.0f;
  return v;
}

struct PixelPolar {
  float u;  // range in bins
  float v;  // azimuth in azimuth units
};

SWL_HD PixelPolar swl_pixel_polar(const ScanSetup& s, int x, int y) {
  const float east = swl_fma(float(x), s.step, s.east0);
  const float north = swl_fma(-float(y), s.step, s.north0);
  PixelPolar p;
  p.u = swl_sqrt(swl_fma(east, east, swl_mul(north, north)));
  p.v = swl_azimuth(east, north, s.az_per_rad, float(s.azimuths));
  return p;
}

// The polar cells a pixel's footprint touches: range bins r0..r1 (inside the frame) and azimuths
// a0..a0+na-1 (mod azimuths; na <= azimuths). Valid only when u < bins.
struct PixelSpan {
  int r0, r1, a0, na;
};

SWL_HD PixelSpan swl_pixel_span(const ScanSetup& s, PixelPolar p) {
  PixelSpan sp;
  const float rho = s.footprint;
  const float lo = p.u - rho;
  sp.r0 = lo > 0.0f ? swl_floor(lo) : 0;
  int r1 = int(ceilf(p.u + rho)) - 1;
  if (r1 < sp.r0) r1 = sp.r0;
  if (r1 > s.bins - 1) r1 = s.bins - 1;
  sp.r1 = r1;
  if (p.u <= rho) {  // the footprint holds the radar: every azimuth
    sp.a0 = 0;
    sp.na = s.azimuths;
    return sp;
  }
  // Angular half-width asin(rho / u) = atan(rho / sqrt(u^2 - rho^2)).
  const float c = swl_sqrt(swl_fma(p.u, p.u, -swl_mul(rho, rho)));
  float w;
  if (rho <= c)
    w = swl_mul(swl_atan_unit(rho, c), s.az_per_rad);
  else
    w = swl_mul(float(s.azimuths), 0.25f) - swl_mul(swl_atan_unit(c, rho), s.az_per_rad);
  const int a0 = swl_floor(p.v - w);
  int a1 = int(ceilf(p.v + w)) - 1;
  if (a1 < a0) a1 = a0;
  int na = a1 - a0 + 1;
  if (na >= s.azimuths) {
    sp.a0 = 0;
    sp.na = s.azimuths;
  } else {
    sp.a0 = a0 < 0 ? a0 + s.azimuths : (a0 >= s.azimuths ? a0 - s.azimuths : a0);
    sp.na = na;
  }
  return sp;
}

// Max-hold over a pixel's span reads many azimuth rows near the radar (every row for the pixel
// on it). A two-level pyramid of azimuth maxima bounds that work: level 1 holds the maximum of
// each full block of 16 azimuths per range bin, level 2 of each full block of 256. A span uses a
// block only where the block lies wholly inside it, so the result is the plain maximum over the
// span's cells, whichever way it is gathered.
inline constexpr int kAzBlock1 = 16;
inline constexpr int kAzBlock2 = 256;

struct AzPyramid {
  const uint8_t* l1 = nullptr;  // (azimuths / 16) rows x bins
  const uint8_t* l2 = nullptr;  // (azimuths / 256) rows x bins
};

// Cells the pyramid of an azimuths x bins image needs (level 1 then level 2).
SWL_HD size_t az_pyramid_cells(int azimuths, int bins) {
  return (size_t(azimuths / kAzBlock1) + size_t(azimuths / kAzBlock2)) * size_t(bins);
}

SWL_HD uint8_t swl_span_max(const ScanSetup& s, const uint8_t* polar, AzPyramid pyr, PixelSpan sp) {
  unsigned m = 0;
  const size_t b = size_t(s.bins);
  for (int r = sp.r0; r <= sp.r1; ++r) {
    int a = sp.a0, left = sp.na;
    while (left > 0) {
      unsigned v;
      if ((a % kAzBlock2) == 0 && left >= kAzBlock2 && a + kAzBlock2 <= s.azimuths) {
        v = pyr.l2[size_t(a / kAzBlock2) * b + size_t(r)];
        a += kAzBlock2;
        left -= kAzBlock2;
      } else if ((a % kAzBlock1) == 0 && left >= kAzBlock1 && a + kAzBlock1 <= s.azimuths) {
        v = pyr.l1[size_t(a / kAzBlock1) * b + size_t(r)];
        a += kAzBlock1;
        left -= kAzBlock1;
      } else {
        v = polar[size_t(a) * b + size_t(r)];
        ++a;
        --left;
      }
      m = v > m ? v : m;
      if (a == s.azimuths) a = 0;
    }
  }
  return uint8_t(m);
}

SWL_HD uint8_t swl_max_hold(const ScanSetup& s, const uint8_t* polar, AzPyramid pyr, PixelPolar p) {
  if (!(p.u < float(s.bins))) return 0;
  return swl_span_max(s, polar, pyr, swl_pixel_span(s, p));
}

// Nearest-cell value (0 past the range).
SWL_HD uint8_t swl_nearest(const ScanSetup& s, const uint8_t* polar, PixelPolar p) {
  if (!(p.u < float(s.bins))) return 0;
  const int r = swl_floor(p.u);
  int a = swl_floor(p.v);
  if (a >= s.azimuths) a -= s.azimuths;
  return polar[size_t(a) * size_t(s.bins) + size_t(r)];
}

// Bilinear between the cell centres around the pixel, azimuth wrapping, range clamped to the
// first and last bins; rounded to nearest.
SWL_HD float swl_bilinear(const ScanSetup& s, const uint8_t* polar, PixelPolar p) {
  if (!(p.u < float(s.bins))) return 0.0f;
  const float fu = p.u - 0.5f, fv = p.v - 0.5f;
  int r0 = swl_floor(fu), a0 = swl_floor(fv);
  const float tr = fu - float(r0), ta = fv - float(a0);
  int r1 = r0 + 1;
  if (r0 < 0) r0 = 0;
  if (r1 > s.bins - 1) r1 = s.bins - 1;
  if (a0 < 0) a0 += s.azimuths;
  int a1 = a0 + 1;
  if (a1 >= s.azimuths) a1 -= s.azimuths;
  const size_t b = size_t(s.bins);
  const float p00 = polar[size_t(a0) * b + size_t(r0)], p01 = polar[size_t(a0) * b + size_t(r1)];
  const float p10 = polar[size_t(a1) * b + size_t(r0)], p11 = polar[size_t(a1) * b + size_t(r1)];
  const float q0 = swl_fma(tr, p01 - p00, p00), q1 = swl_fma(tr, p11 - p10, p10);
  return swl_fma(ta, q1 - q0, q0);
}

}  // namespace sweepline::gpu
