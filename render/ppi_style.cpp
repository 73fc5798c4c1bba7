#include "render/ppi_style.hpp"

#include <algorithm>
#include <cmath>

#include "app/common/check.hpp"

namespace sweepline::render {

Rgb background_colour(Brightness b) {
  switch (b) {
    case Brightness::Day:
      return {0.07f, 0.10f, 0.14f};
    case Brightness::Dusk:
      return {0.02f, 0.035f, 0.05f};
    case Brightness::Night:
      return {0.0f, 0.0f, 0.0f};
  }
  return {};
}

Rgb outside_colour(Brightness b) {
  switch (b) {
    case Brightness::Day:
      return {0.16f, 0.18f, 0.21f};
    case Brightness::Dusk:
      return {0.06f, 0.065f, 0.075f};
    case Brightness::Night:
      return {0.02f, 0.02f, 0.02f};
  }
  return {};
}

float brightness_factor(Brightness b) {
  switch (b) {
    case Brightness::Day:
      return 1.0f;
    case Brightness::Dusk:
      return 0.8f;
    case Brightness::Night:
      return 0.45f;
  }
  return 1.0f;
}

Rgb palette_colour(Palette p, float v) {
  v = std::clamp(v, 0.0f, 1.0f);
  const float v3 = v * v * v;
  switch (p) {
    case Palette::GreenPhosphor:
      return {0.05f * v + 0.55f * v3, 0.85f * v + 0.15f * v3, 0.25f * v + 0.45f * v3};
    case Palette::Amber:
      return {1.0f * v, 0.55f * v + 0.35f * v3, 0.05f * v + 0.45f * v3};
    case Palette::MultiColour: {
      // blue -> cyan -> green -> yellow -> red, evenly spaced
      static const Rgb stops[5] = {{0.0f, 0.2f, 1.0f},
                                   {0.0f, 0.9f, 1.0f},
                                   {0.1f, 1.0f, 0.2f},
                                   {1.0f, 0.95f, 0.0f},
                                   {1.0f, 0.1f, 0.05f}};
      const float t = v * 4.0f;
      const int i = std::min(int(t), 3);
      const float f = t - float(i);
      const Rgb a = stops[i], b = stops[i + 1];
      return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
    }
    case Palette::ImoSingle:
      return {1.0f, 0.86f, 0.0f};
  }
  return {};
}

float echo_alpha(Palette p, float v) {
  v = std::clamp(v, 0.0f, 1.0f);
  // The single-colour mode shows presence above a level, not strength; the multi-colour ramp
  // starts above the noise floor so that weak noise does not paint the scope blue. The phosphor
  // palettes fade to black by themselves.
  auto smoothstep = [](float e0, float e1, float x) {
    const float t = std::clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
    return t * t * (3 - 2 * t);
  };
  if (p == Palette::ImoSingle) return smoothstep(0.18f, 0.30f, v);
  if (p == Palette::MultiColour) return std::clamp((v - 0.06f) * 6.0f, 0.0f, 1.0f);
  return 1.0f;
}

const char* to_string(Palette p) {
  switch (p) {
    case Palette::GreenPhosphor:
      return "green";
    case Palette::Amber:
      return "amber";
    case Palette::MultiColour:
      return "multi";
    case Palette::ImoSingle:
      return "imo";
  }
  return "?";
}
const char* to_string(Brightness b) {
  switch (b) {
    case Brightness::Day:
      return "day";
    case Brightness::Dusk:
      return "dusk";
    case Brightness::Night:
      return "night";
  }
  return "?";
}
const char* to_string(Afterglow a) {
  switch (a) {
    case Afterglow::Off:
      return "off";
    case Afterglow::RealTime:
      return "realtime";
    case Afterglow::PerSweep:
      return "sweep";
  }
  return "?";
}
const char* to_string(Layer l) {
  switch (l) {
    case Layer::Scan:
      return "scan";
    case Layer::Denoised:
      return "denoised";
    case Layer::Binary:
      return "binary";
    case Layer::Labels:
      return "labels";
  }
  return "?";
}

template <class E, int N>
static E parse(const std::string& s, const char* what) {
  for (int i = 0; i < N; ++i)
    if (s == to_string(E(i))) return E(i);
  std::string names;
  for (int i = 0; i < N; ++i) names += std::string(i ? ", " : "") + to_string(E(i));
  SWL_CHECK(false, std::string("unknown ") + what + " '" + s + "' (one of: " + names + ")");
  return E(0);
}

Palette palette_from_string(const std::string& s) {
  return parse<Palette, 4>(s, "palette");
}
Brightness brightness_from_string(const std::string& s) {
  return parse<Brightness, 3>(s, "brightness");
}
Afterglow afterglow_from_string(const std::string& s) {
  return parse<Afterglow, 3>(s, "afterglow");
}
Layer layer_from_string(const std::string& s) {
  return parse<Layer, 4>(s, "layer");
}

}  // namespace sweepline::render
