#pragma once
#include <string>

namespace sweepline::gpu::cuda {

// Empty if device 0 is usable; otherwise the runtime's reason.
std::string device_probe();
// "NVIDIA H100 80GB HBM3, sm_90, driver 13.0, runtime 13.0" for reports.
std::string device_description();

}  // namespace sweepline::gpu::cuda
