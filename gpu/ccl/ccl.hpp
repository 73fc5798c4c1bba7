#pragma once
// Connected-component labelling: one interface, several algorithms and two backends.
// Labels: int32, 0 = background, components numbered 1..n in raster order of their first
// pixel (so every algorithm's output is identical, not just the same partition).
#include <cstdint>
#include <string>
#include <vector>

#include "app/common/image.hpp"
#include "app/common/stage_timing.hpp"

namespace sweepline::ccl {

// The CUDA algorithm (the CPU backend has one, run-based union-find, and ignores this): `fast` is
// the product's; `kang` (papers 000/001) and `propagate` (paper 003) are reference
// implementations for comparison (gpu/reference), reached through a labeller factory that has
// them (gpu/cuda/ccl_cuda.hpp).
enum class Algorithm { Fast, Kang, Propagate };
// Bounding-box accumulation for `kang`: paper 000's Alg. 6 (one spin lock per box), Alg. 7 (one
// lock per coordinate) or plain atomicMin/atomicMax. Other algorithms always use Atomic.
enum class BoxMethod { Atomic, LockPerBox, LockPerCoordinate };

// Where the radar is in image pixels and how large a pixel is, so a centroid becomes range and
// bearing (bearing 0 = north = up, clockwise).
struct Geometry {
  double radar_x = 0;  // pixel coordinates of the radar (pixel centres at +0.5)
  double radar_y = 0;
  double metres_per_pixel = 1;
};

// The most components a labelling collects by default (LabelParams::max_components). Each
// collected component costs about 130 bytes on the host (its accumulator and its Component), so an
// adversarial image would otherwise cost gigabytes (an 8192 x 8192 checkerboard, 4-connected, has
// 33.5 million components: 5.2 GB). 4 Mi keeps that under 0.6 GB and holds every image the
// benchmarks label (4096 x 4096 random images reach 2.2 million; docs/limits.md).
inline constexpr int64_t kDefaultMaxComponents = int64_t(1) << 22;

struct LabelParams {
  int connectivity = 8;  // 4 or 8
  Algorithm algorithm = Algorithm::Fast;
  BoxMethod box_method = BoxMethod::Atomic;
  uint8_t threshold = 0;    // a pixel is on when its value > threshold
  int64_t min_area = 0;     // components with area < min_area are dropped (0: keep all)
  int64_t max_area = 0;     // components with area > max_area are dropped (0: no limit)
  bool fill_holes = false;  // paper 003: background holes below hole_max_area become foreground
  int64_t hole_max_area = 0;
  Geometry geometry;
  // Beyond this many components (before the area filter) none are collected: the result says so
  // (LabelResult::limit_exceeded) instead. 0: no limit.
  int64_t max_components = kDefaultMaxComponents;
};

struct Component {
  int32_t label = 0;  // 1..n
  int64_t area = 0;
  int32_t xmin = 0, xmax = 0, ymin = 0, ymax = 0;
  double cx = 0, cy = 0;  // intensity-weighted centroid (unweighted without an intensity image)
  uint8_t peak = 0;       // highest intensity in the component
  double range_m = 0;     // of the centroid from the radar
  double bearing_deg = 0;
};

struct LabelResult {
  ImageI32 labels;                    // after the area filter: dropped components become 0
  int32_t count = 0;                  // components kept
  std::vector<Component> components;  // in label order, labels 1..count
  StageTimes times;
  int64_t found = 0;  // components before the area filter
  // found > params.max_components: nothing was collected (count 0, no components, the label
  // image all background). The caller reports it; the frame's other images are unaffected.
  bool limit_exceeded = false;
};

// "labelling: N components, more than the limit of M (LabelParams::max_components)", for a
// result whose limit_exceeded is set.
std::string limit_message(const LabelResult& r, const LabelParams& params);

const char* to_string(Algorithm a);
Algorithm algorithm_from_string(const std::string& s);  // throws sweepline::Error
const char* to_string(BoxMethod m);
BoxMethod box_method_from_string(const std::string& s);

// CPU backend. `binary` is thresholded with params.threshold (so an intensity image works too);
// `intensity`, when given and of the same size, weights the centroids and gives the peaks.
LabelResult label_cpu(const Image8& binary, const LabelParams& params,
                      const Image8* intensity = nullptr);

}  // namespace sweepline::ccl
