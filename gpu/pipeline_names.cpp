#include <cstddef>
#include <string>

#include "app/common/check.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::gpu {

namespace {

// Each mode's name, both ways, from one table per enum.
template <class E>
struct Named {
  E value;
  const char* name;
};

constexpr Named<Backend> kBackends[] = {{Backend::Cpu, "cpu"}, {Backend::Cuda, "cuda"}};
constexpr Named<ScanMode> kScanModes[] = {{ScanMode::Nearest, "nearest"},
                                          {ScanMode::Bilinear, "bilinear"},
                                          {ScanMode::MaxHold, "maxhold"}};
constexpr Named<DenoiseMode> kDenoiseModes[] = {{DenoiseMode::None, "none"},
                                                {DenoiseMode::Gaussian, "gaussian"},
                                                {DenoiseMode::Bilateral, "bilateral"},
                                                {DenoiseMode::FftEnhance, "fft"},
                                                {DenoiseMode::Cfar, "cfar"}};

template <class E, size_t N>
const char* name_of(const Named<E> (&table)[N], E value) {
  for (const Named<E>& n : table)
    if (n.value == value) return n.name;
  return "?";
}

// Throws "unknown <what> 's' (expected a, b or c)".
template <class E, size_t N>
E value_of(const Named<E> (&table)[N], const std::string& s, const char* what) {
  for (const Named<E>& n : table)
    if (s == n.name) return n.value;
  std::string names;
  for (size_t i = 0; i < N; ++i)
    names += std::string(i == 0 ? "" : (i + 1 == N ? " or " : ", ")) + table[i].name;
  throw Error("unknown " + std::string(what) + " '" + s + "' (expected " + names + ")");
}

}  // namespace

const char* to_string(Backend b) {
  return name_of(kBackends, b);
}
Backend backend_from_string(const std::string& s) {
  return value_of(kBackends, s, "backend");
}

const char* to_string(ScanMode m) {
  return name_of(kScanModes, m);
}
ScanMode scan_mode_from_string(const std::string& s) {
  if (s == "max-hold") return ScanMode::MaxHold;
  return value_of(kScanModes, s, "scan mode");
}

const char* to_string(DenoiseMode m) {
  return name_of(kDenoiseModes, m);
}
DenoiseMode denoise_mode_from_string(const std::string& s) {
  return value_of(kDenoiseModes, s, "denoise mode");
}

}  // namespace sweepline::gpu
