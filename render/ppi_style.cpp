#include "render/ppi_style.hpp"

#include <algorithm>
#include <cmath>

#include "app/common/name_table.hpp"

namespace sweepline::render {

namespace {

// Each brightness's colours and echo factor in one row.
struct BrightnessLook {
  Brightness brightness;
  Rgb background;  // inside the range circle
  Rgb outside;     // the screen outside it
  float factor;
};

constexpr BrightnessLook kLooks[] = {
    {Brightness::Day, {0.07f, 0.10f, 0.14f}, {0.16f, 0.18f, 0.21f}, 1.0f},
    {Brightness::Dusk, {0.02f, 0.035f, 0.05f}, {0.06f, 0.065f, 0.075f}, 0.8f},
    {Brightness::Night, {0.0f, 0.0f, 0.0f}, {0.02f, 0.02f, 0.02f}, 0.45f},
};

// A value outside the enum gets black and full echoes.
constexpr BrightnessLook kUnknownLook{Brightness::Day, {}, {}, 1.0f};

const BrightnessLook& look(Brightness b) {
  for (const BrightnessLook& l : kLooks)
    if (l.brightness == b) return l;
  return kUnknownLook;
}

}  // namespace

Rgb background_colour(Brightness b) {
  return look(b).background;
}

Rgb outside_colour(Brightness b) {
  return look(b).outside;
}

float brightness_factor(Brightness b) {
  return look(b).factor;
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

namespace {

constexpr NameTable<Palette, 4> kPalettes{{{Palette::GreenPhosphor, "green"},
                                           {Palette::Amber, "amber"},
                                           {Palette::MultiColour, "multi"},
                                           {Palette::ImoSingle, "imo"}}};
constexpr NameTable<Brightness, 3> kBrightnesses{
    {{Brightness::Day, "day"}, {Brightness::Dusk, "dusk"}, {Brightness::Night, "night"}}};
constexpr NameTable<Afterglow, 3> kAfterglows{
    {{Afterglow::Off, "off"}, {Afterglow::RealTime, "realtime"}, {Afterglow::PerSweep, "sweep"}}};
constexpr NameTable<Layer, kLayerCount> kLayers{{{Layer::Scan, "scan"},
                                                 {Layer::Denoised, "denoised"},
                                                 {Layer::Binary, "binary"},
                                                 {Layer::Labels, "labels"}}};

}  // namespace

const char* to_string(Palette p) {
  return name_of(kPalettes, p);
}
const char* to_string(Brightness b) {
  return name_of(kBrightnesses, b);
}
const char* to_string(Afterglow a) {
  return name_of(kAfterglows, a);
}
const char* to_string(Layer l) {
  return name_of(kLayers, l);
}

Palette palette_from_string(const std::string& s) {
  return value_of(kPalettes, s, "unknown palette");
}
Brightness brightness_from_string(const std::string& s) {
  return value_of(kBrightnesses, s, "unknown brightness");
}
Afterglow afterglow_from_string(const std::string& s) {
  return value_of(kAfterglows, s, "unknown afterglow");
}
Layer layer_from_string(const std::string& s) {
  return value_of(kLayers, s, "unknown layer");
}

}  // namespace sweepline::render
