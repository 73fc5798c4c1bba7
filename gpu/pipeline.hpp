#pragma once
// The processing pipeline: a polar frame (azimuths x range bins, 8-bit) in, a W x H Cartesian
// display out as three images (scan-converted, denoised, binary) and, when enabled, labelled
// components. Two backends (CPU threads, CUDA) behind one interface; make one with
// make_pipeline() in gpu/backend/make_pipeline.hpp. CUDA-only API (streams, device images)
// lives in gpu/cuda/cuda_pipeline.hpp so that this header stays free of CUDA.
//
// Geometry: pixel (x, y), centre at (x + 0.5, y + 0.5), y down. The display centre (W/2, H/2) is
// at (origin_east_m, origin_north_m) from the radar; one pixel is display_range_m / (min(W,H)/2)
// metres. Range = distance from the radar, azimuth = atan2(east, north): 0 = north, clockwise.
// Pixels past the frame's range are 0.
//
// Image values: scan-converted and denoised images are intensities 0..255; the binary image is
// 0 or 255 (so it displays as is, and ccl::label_cpu with threshold 0 reads it).
#include <cstdint>
#include <string>
#include <vector>

#include "app/common/image.hpp"
#include "app/common/polar_frame.hpp"
#include "app/common/stage_timing.hpp"
#include "gpu/ccl/ccl.hpp"
#include "gpu/pipeline_types.hpp"

namespace sweepline::gpu {

// Which labelled components become plots (gpu/plot_extractor.hpp).
struct PlotParams {
  double beamwidth_deg = 1.2;  // the radar's two-way -3 dB beamwidth
  double pulse_m = 30;         // its pulse length as a range extent (c tau / 2)
  // The largest target's extent: longer echoes along or across range are land or weather.
  double max_target_m = 300;
  // 1: every echo that passes the extent filters is a plot. 2: only echoes that the previous
  // sweep also saw within reach of a vessel's speed (scan-to-scan correlation: sea clutter
  // spikes do not repeat from one rotation to the next, targets do).
  int confirm_scans = 2;
  double max_speed_mps = 25;  // the fastest target the correlation follows (about 50 kn)
  // How far around an echo land makes it Plot::near_land: about one land run (the shortest
  // land the mask holds), and the simulator's vessels keep 300 m off land.
  double land_margin_m = 150;
};

struct PipelineParams {
  int width = 4096;
  int height = 4096;
  double display_range_m = 0;  // centre to the nearer edge; 0 = the frame's range_m
  double origin_east_m = 0;    // display centre relative to the radar (off-centre display)
  double origin_north_m = 0;
  ScanMode scan = ScanMode::MaxHold;

  DenoiseMode denoise = DenoiseMode::Gaussian;
  float gaussian_sigma = 1.0f;      // 0.5..5; kernel radius ceil(3 sigma)
  float bilateral_sigma_s = 2.0f;   // pixels, 0.5..5; radius ceil(2 sigma_s)
  float bilateral_sigma_r = 30.0f;  // intensity levels
  FftEnhanceParams fft;
  // Cell-averaging CFAR along range in the polar domain: cells r +- (guard+1 .. guard+train) form
  // the noise estimate (those inside the frame, N of them); a cell is a detection when
  // value > alpha / N * sum with alpha = N (pfa^(-1/N) - 1). The detections are scan-converted
  // (with `scan`) to make the denoised image (0/255) and the binary image (> 127): `threshold`
  // does not apply in this mode.
  int cfar_guard = 2;
  int cfar_train = 16;
  double cfar_pfa = 1e-3;

  uint8_t threshold = 64;  // binary = denoised > threshold ? 255 : 0

  // Gain, Sea, Rain and the clutter map, on the polar video before scan conversion.
  VideoParams video;
  PlotParams plot;

  bool label_enabled = false;
  // label.geometry is filled in by the pipeline from the display geometry; label.threshold is
  // forced to 0 (the binary image is already thresholded).
  ccl::LabelParams label;
};

// A plot: one detected echo in the radar's units, what the tracker and the outputs take. Made
// from a labelled component by the plot extractor (gpu/plot_extractor.hpp), the same on both
// backends.
struct Plot {
  double range_m = 0;             // intensity-weighted centroid: range from the radar
  double bearing_deg = 0;         // and bearing, clockwise from north, 0..360
  double range_extent_m = 0;      // the echo's extent along range
  double azimuth_extent_deg = 0;  // and across it
  double time_s = 0;              // when the antenna swept the centroid's azimuth (frame clock)
  uint8_t peak = 0;               // highest video level in the echo
  int64_t area_px = 0;            // display pixels
  int32_t label = 0;              // its component (FrameResult::components[label - 1])
  // Land (the video stage's land mask) lies within PlotParams::land_margin_m of the echo: a
  // coast's or an island's edge more likely than a vessel, which the tracker does not acquire
  // by itself (docs/tracking.md). False without the video stage's clutter map.
  bool near_land = false;
  // The clutter map has not yet seen the rows around the echo often enough to tell land
  // (its first rotations): near_land is not known yet. False without the clutter map.
  bool land_unknown = false;
};

struct FrameResult {
  int width = 0;
  int height = 0;
  uint64_t frame = 0;  // frames processed so far, this one included
  StageTimes times;    // "upload", "scan", "denoise", "threshold", "label", ... in order
  bool labelled = false;
  int32_t count = 0;  // components kept (0 when not labelled)
  std::vector<ccl::Component> components;
  std::vector<Plot> plots;  // the components that pass the plot filters (label on)
  // Labelling found more components than LabelParams::max_components and collected none
  // (count 0); components_found says how many there were.
  bool label_limit_exceeded = false;
  int64_t components_found = 0;
};

// Derived geometry, the same on both backends.
struct DisplayGeometry {
  double metres_per_pixel = 1;
  double radar_x = 0;  // pixel coordinates of the radar (may be off the display)
  double radar_y = 0;
};
DisplayGeometry display_geometry(const PipelineParams& params, const PolarFrame& frame);

// Display surfaces a frame is also written into, in place (W x H each; 0 = not wanted). The
// handles are opaque here so that this header stays free of CUDA and GL: on the CUDA backend
// they are cudaSurfaceObject_t values of mapped OpenGL textures (render/interop/): scan,
// denoised, binary R8 (uint8) written by process(); label_colour RGBA8 (uchar4, label_colour()
// below) written by colour_labels() once the frame's components are known. The CPU
// backend ignores them: its caller uploads the host images instead. The surfaces must stay
// mapped until the frame's device work has finished (unmap on native_stream(), which orders
// after the frame without a host wait).
struct DisplayTargets {
  unsigned long long scan = 0;
  unsigned long long denoised = 0;
  unsigned long long binary = 0;
  unsigned long long label_colour = 0;
};

class Pipeline {
 public:
  virtual ~Pipeline() = default;
  virtual Backend backend() const = 0;
  // Runs every stage on `frame`, also writing `targets` when given (this frame only). Throws
  // sweepline::Error on bad parameters (size, sigma, ...) or a device failure; the previous
  // result then stays valid. The CPU backend has finished the frame when this returns; the CUDA
  // backend has only enqueued it (result_ready() says when it is done).
  virtual void process(const PolarFrame& frame, const PipelineParams& params,
                       const DisplayTargets* targets = nullptr) = 0;
  // The last frame's times and components. On CUDA this waits for the frame to finish.
  virtual const FrameResult& result() = 0;
  // Whether result() would return without waiting for the device (a non-blocking query; always
  // true on the CPU). The engine asks this each UI frame and collects the result one frame late.
  virtual bool result_ready() { return true; }
  // Writes the collected frame's label colours into targets.label_colour in place, label l as
  // label_colour(ids[l]) (0 and labels past ids: transparent), for a display that keeps a
  // component's colour across frames (app/engine/label_identities.hpp). Call after result() and
  // before the next process(); enqueued on native_stream() like the frame. Device backends only:
  // the CPU backend writes no surfaces (its display colours the host label image), so this does
  // nothing there.
  virtual void colour_labels(const std::vector<int32_t>& ids, const DisplayTargets& targets) {
    (void)ids, (void)targets;
  }
  // The backend's device queue, opaque: a cudaStream_t on CUDA, null on the CPU. Display
  // interop maps its surfaces on it so that mapping and unmapping are ordered with the frame.
  virtual void* native_stream() const { return nullptr; }

  // Host copies of the last frame's images, for tests, snapshots and the CLI (slow on CUDA:
  // a synchronous download). The label image is empty when labelling is off.
  virtual Image8 scan_image() = 0;
  virtual Image8 denoised_image() = 0;
  virtual Image8 binary_image() = 0;
  virtual ImageI32 label_image() = 0;
};

// Validates params against frame (throws sweepline::Error with the reason).
void validate(const PipelineParams& params, const PolarFrame& frame);

const char* to_string(Backend b);
Backend backend_from_string(const std::string& s);  // "cpu" | "cuda"; throws
const char* to_string(ScanMode m);
ScanMode scan_mode_from_string(const std::string& s);  // "nearest" | "bilinear" | "maxhold"
const char* to_string(DenoiseMode m);
DenoiseMode denoise_mode_from_string(const std::string& s);  // none|gaussian|bilateral|fft|cfar

// Label colour for display (RGBA8 packed as 0xAABBGGRR, little-endian R first): 0 is transparent
// black, labels get a stable bright hue. Both backends and the renderer use this (constexpr: the
// CUDA kernels call it too).
constexpr uint32_t label_colour(int32_t label) {
  if (label <= 0) return 0u;
  uint32_t h = uint32_t(label) * 2654435761u;
  h ^= h >> 15;
  uint32_t r = 64u + (h & 0xBFu), g = 64u + ((h >> 8) & 0xBFu), b = 64u + ((h >> 16) & 0xBFu);
  return r | (g << 8) | (b << 16) | 0xFF000000u;
}

// The colour of `label` when label l shows as identity ids[l] (Pipeline::colour_labels; the CPU
// display's upload does the same): background and labels past `ids` are transparent.
inline uint32_t identity_colour(const std::vector<int32_t>& ids, int32_t label) {
  return label > 0 && size_t(label) < ids.size() ? label_colour(ids[size_t(label)]) : 0u;
}

}  // namespace sweepline::gpu
