#pragma once
// Parameters turned into the tables both backends use, computed once on the host, so that the
// CPU and CUDA stages start from identical numbers.
#include <array>
#include <cstdint>
#include <vector>

#include "gpu/fixed_point.hpp"
#include "gpu/pipeline.hpp"
#include "gpu/scan_math.hpp"

namespace sweepline::gpu {

ScanSetup make_scan_setup(const PipelineParams& params, const PolarFrame& frame);

int gaussian_radius(float sigma);
std::vector<float> gaussian_weights(float sigma);  // 2R+1, normalised
int bilateral_radius(float sigma_s);
std::vector<float> bilateral_spatial_weights(float sigma_s);  // 2R+1, centre 1
// exp(-d^2 / (2 sigma_r^2)) for a difference of d levels, d = 0..255.
std::array<float, 256> bilateral_range_weights(float sigma_r);

}  // namespace sweepline::gpu
