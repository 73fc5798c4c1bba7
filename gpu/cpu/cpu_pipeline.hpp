#pragma once
#include <memory>

#include "gpu/pipeline.hpp"

namespace sweepline::gpu {

std::unique_ptr<Pipeline> make_cpu_pipeline(unsigned threads = 0);

}  // namespace sweepline::gpu
