#pragma once
// The pipeline's mode enums and small parameter blocks: what the stage kernels and their
// launchers need of gpu/pipeline.hpp, without its images, frames and labelling, so that an edit
// of the interface does not rebuild every CUDA translation unit (nvcc takes minutes for them).
// Users include gpu/pipeline.hpp, which includes this.

namespace sweepline::gpu {

enum class Backend { Cpu, Cuda };
// Nearest: the polar cell under the pixel centre. Bilinear: interpolated between the four cells
// around the centre (azimuth wraps). MaxHold: the maximum over every polar cell the pixel's
// footprint (the disc circumscribing the pixel) touches, so small far targets survive and near
// range does not alias; a single bright cell may light up to 2 x 2 pixels.
enum class ScanMode { Nearest, Bilinear, MaxHold };
enum class DenoiseMode { None, Gaussian, Bilateral, FftEnhance, Cfar };

// Paper 004's block enhancement: 32 x 32 windows every 16 pixels (centred on each 16 x 16 output
// block, zero outside the image); spectrum times (Re^2 + Im^2)^power; frequencies with radius
// < low_cut or > high_cut (in cycles per window, 0..22.6) zeroed; inverse; out = v * gain / max|v|
// + offset, clamped to 0..255 and truncated; only the central 16 x 16 is kept. The paper's values
// for fingerprints are gain 127, offset 128.5; the radar defaults keep positive structure only.
struct FftEnhanceParams {
  float power = 0.3f;
  float low_cut = 1.0f;  // 1: the DC term only
  float high_cut = 12.0f;
  float gain = 255.0f;
  float offset = 0.5f;
  float min_peak = 1.0f;  // windows whose max|v| is below this are flat (out = offset)
};

}  // namespace sweepline::gpu
