#pragma once
// The CPU backend's stages as free functions, so tests can check each one against its oracle.
// Each runs its rows on `pool`. Definitions (borders, rounding) are those of docs/pipeline.md
// and the CUDA kernels follow them.
#include <cstdint>
#include <vector>

#include "app/common/image.hpp"
#include "app/common/polar_frame.hpp"
#include "gpu/cpu/thread_pool.hpp"
#include "gpu/pipeline.hpp"
#include "gpu/scan_math.hpp"

namespace sweepline::gpu::cpu {

// The max-hold pyramid of an azimuths x bins image (gpu/scan_math.hpp) into out
// (az_pyramid_cells() bytes).
void az_pyramid(ThreadPool& pool, const uint8_t* polar, int azimuths, int bins, uint8_t* out);
// `polar` is setup.azimuths x setup.bins; out becomes setup.width x setup.height.
void scan_convert(ThreadPool& pool, const ScanSetup& setup, const uint8_t* polar, ScanMode mode,
                  Image8& out);

// scan_convert for a display whose geometry stays from frame to frame (the pipeline's): max-hold
// keeps each pixel's polar span (swl_pixel_span, computed once per geometry) and its pyramid's
// memory, so a frame only gathers. The output is scan_convert's, byte for byte.
class ScanConverter {
 public:
  // `changed`: the rows of `polar` written since this converter's last max-hold call with the
  // same polar buffer, geometry and `out` (nullptr: not known). Then only the pyramid blocks
  // holding those rows and the pixels whose span meets them are redone, the rest of `out` (that
  // call's image) stays: a frame of a live sweep changes a few per cent of the rows.
  void run(ThreadPool& pool, const ScanSetup& setup, const uint8_t* polar, ScanMode mode,
           Image8& out, const RowSpan* changed = nullptr);

  // A pixel's max-hold span: range bins r0..r1, azimuths a0 .. a0 + na_minus_1 (mod azimuths);
  // r0 > r1 for a pixel past the range.
  struct Span {
    uint16_t r0, r1, a0, na_minus_1;
  };

 private:
  void plan(ThreadPool& pool, const ScanSetup& setup);

  ScanSetup setup_;
  bool planned_ = false;
  std::vector<Span> spans_;       // width x height, row-major
  std::vector<uint8_t> pyramid_;  // az_pyramid_cells() and a vector's load of slack
  // The last max-hold call's source and image, for `changed`.
  const uint8_t* last_polar_ = nullptr;
  const uint8_t* last_out_ = nullptr;
};

// Separable Gaussian, borders clamped to the edge, intermediate in 8.8 fixed point.
void gaussian(ThreadPool& pool, const Image8& in, float sigma, Image8& out,
              std::vector<uint16_t>& scratch);
// Separable bilateral approximation (row pass, then column pass on the row result).
void bilateral(ThreadPool& pool, const Image8& in, float sigma_s, float sigma_r, Image8& out,
               std::vector<uint16_t>& scratch);
// Paper 004's block FFT enhancement with a radix-2 FFT.
void fft_enhance(ThreadPool& pool, const Image8& in, const FftEnhanceParams& params, Image8& out);
// Cell-averaging CFAR along range: mask (azimuths x bins) gets 255 at detections, else 0.
void cfar_polar(ThreadPool& pool, const PolarFrame& frame, int guard, int train, double pfa,
                std::vector<uint8_t>& mask);
void threshold(ThreadPool& pool, const Image8& in, uint8_t t, Image8& out);

}  // namespace sweepline::gpu::cpu
