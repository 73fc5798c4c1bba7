#pragma once
// Variant switches read from the environment (benchmarks and A/B runs of the CUDA backend).
#include <cstdlib>
#include <cstring>

namespace sweepline::gpu::cuda {

// Unset or empty gives `fallback`, "0" false, anything else true. Callers read it once per
// process (a static).
inline bool env_switch(const char* name, bool fallback) {
  const char* e = std::getenv(name);
  if (e && *e) return std::strcmp(e, "0") != 0;
  return fallback;
}

}  // namespace sweepline::gpu::cuda
