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

// The polar video processing ahead of scan conversion (docs/detection.md): what an operator knows
// as Gain, Sea and Rain, and the scan-to-scan clutter map with its land mask. Each knob is
// 0..100 with an automatic mode that ignores the knob.
struct VideoParams {
  // Off: the raw video goes to the scan converter (the pipeline's default, which the image tests
  // keep); the console's defaults (app/engine/engine_settings.cpp) turn it on.
  bool enabled = false;
  // Gain: video x 2^((gain - 50) / 12.5), so +-12 dB over the knob. Auto: the receiver noise
  // floor (measured) is brought to a fixed level, so the threshold after it means the same on
  // every radar.
  bool gain_auto = true;
  float gain = 50;
  // Sea (sensitivity time control): a range- and azimuth-dependent level taken off the video.
  // Auto: the clutter's measured mean per azimuth sector and range band, times a fixed margin.
  // Manual: a standard curve (flat to 1.2 km, then falling as range^-1.5) whose height is the
  // knob (100: full scale at the flat part).
  bool sea_auto = true;
  float sea = 50;
  // Rain (fast time constant): a multiple of the local mean along range taken off the video, so
  // extended echoes (rain, the inside of land) fade and their edges and point targets stay.
  // Auto: a fixed multiple; manual: 0 (off) .. 100 (2.5 x the local mean).
  bool rain_auto = true;
  float rain = 50;
  // The clutter map: per polar cell a running mean and mean deviation over the rotations.
  // Cells strong and steady over the rotations (land, fixed structures) form the land mask:
  // blanked from the video, so they give no plots, and drawn in their own colour.
  bool clutter_map = true;
};

// VideoParams and the measured statistics turned into the numbers the stage applies, the same on
// both backends (gpu/video_control.hpp makes it; gpu/video_math.hpp applies it per cell).
struct VideoSetup {
  bool enabled = false;
  int azimuths = 0, bins = 0;
  int gain_q8 = 256;  // video gain, 8.8 fixed point
  // The sea table: kVideoSectors x kVideoBands levels (gained), row-major by sector; a cell uses
  // the entry of its sector (azimuth / sector_rows) and band (bin / band_bins). A second plane of
  // the same shape follows it (kVideoClipPlane): the level each cell is clipped to before it
  // enters the rain window's mean, so that nearby targets do not raise the rain level.
  int sector_rows = 1, band_bins = 1;
  int rain_q8 = 0;  // multiple of the local mean, 8.8 (0: off)
  // The rain window along range, each side: rain_guard cells left out next to the cell, then
  // 2^rain_log2 cells averaged (the mean of both sides is a shift).
  int rain_guard = 0, rain_log2 = 0;
  bool clutter_map = false;
  int land_min = 255;  // raw level a land cell's mean must reach
  int land_run = 1;    // cells a run of steady cells along range needs to be land
};
inline constexpr int kVideoSectors = 64;
inline constexpr int kVideoBands = 64;
// The sea table's planes: the sea level, then the clip level (offset in entries).
inline constexpr int kVideoClipPlane = kVideoSectors * kVideoBands;
inline constexpr int kVideoTableSize = 2 * kVideoClipPlane;

}  // namespace sweepline::gpu
