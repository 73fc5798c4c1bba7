#include <string>

#include "app/common/check.hpp"
#include "gpu/pipeline.hpp"

namespace sweepline::gpu {

const char* to_string(Backend b) {
  return b == Backend::Cuda ? "cuda" : "cpu";
}
Backend backend_from_string(const std::string& s) {
  if (s == "cpu") return Backend::Cpu;
  if (s == "cuda") return Backend::Cuda;
  throw Error("unknown backend '" + s + "' (expected cpu or cuda)");
}

const char* to_string(ScanMode m) {
  switch (m) {
    case ScanMode::Nearest:
      return "nearest";
    case ScanMode::Bilinear:
      return "bilinear";
    case ScanMode::MaxHold:
      return "maxhold";
  }
  return "?";
}
ScanMode scan_mode_from_string(const std::string& s) {
  if (s == "nearest") return ScanMode::Nearest;
  if (s == "bilinear") return ScanMode::Bilinear;
  if (s == "maxhold" || s == "max-hold") return ScanMode::MaxHold;
  throw Error("unknown scan mode '" + s + "' (expected nearest, bilinear or maxhold)");
}

const char* to_string(DenoiseMode m) {
  switch (m) {
    case DenoiseMode::None:
      return "none";
    case DenoiseMode::Gaussian:
      return "gaussian";
    case DenoiseMode::Bilateral:
      return "bilateral";
    case DenoiseMode::FftEnhance:
      return "fft";
    case DenoiseMode::Cfar:
      return "cfar";
  }
  return "?";
}
DenoiseMode denoise_mode_from_string(const std::string& s) {
  if (s == "none") return DenoiseMode::None;
  if (s == "gaussian") return DenoiseMode::Gaussian;
  if (s == "bilateral") return DenoiseMode::Bilateral;
  if (s == "fft") return DenoiseMode::FftEnhance;
  if (s == "cfar") return DenoiseMode::Cfar;
  throw Error("unknown denoise mode '" + s + "' (expected none, gaussian, bilateral, fft or cfar)");
}

}  // namespace sweepline::gpu
