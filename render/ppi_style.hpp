#pragma once
// How the PPI looks: palette, brightness for the time of day, afterglow and the layer stack.
#include <array>
#include <string>

namespace sweepline::render {

enum class Palette { GreenPhosphor, Amber, MultiColour, ImoSingle };
enum class Brightness { Day, Dusk, Night };
// RealTime: echoes fade with a rate per second (a persistence buffer, so moving targets leave
// trails). PerSweep: brightness falls with the time since the sweep last passed that bearing.
enum class Afterglow { Off, RealTime, PerSweep };
enum class Layer { Scan = 0, Denoised = 1, Binary = 2, Labels = 3 };
inline constexpr int kLayerCount = 4;

struct LayerStyle {
  bool visible = false;
  float opacity = 1.0f;
};

struct PpiStyle {
  Palette palette = Palette::GreenPhosphor;
  Brightness brightness = Brightness::Dusk;
  Afterglow afterglow = Afterglow::PerSweep;
  float glow_rate_per_s = 0.5f;    // RealTime: fraction lost per second is 1 - exp(-rate)
  float sweep_fade_floor = 0.35f;  // PerSweep: brightness just before the sweep returns
  float gain = 1.0f;               // intensity multiplier before the palette
  // Level 1 of the scan layer is land and is drawn in the land colour: set while the video
  // stage runs (gpu/video_math.hpp's kVideoLand); raw video has no such level.
  bool land_level = false;
  std::array<LayerStyle, kLayerCount> layers{
      {{true, 1.0f}, {false, 1.0f}, {false, 0.6f}, {true, 0.8f}}};
};

// RGB in 0..1 of the area inside the range circle, and of the screen outside it.
struct Rgb {
  float r = 0, g = 0, b = 0;
};
Rgb background_colour(Brightness b);
Rgb outside_colour(Brightness b);
float brightness_factor(Brightness b);
// The palette's echo colour for an intensity v in 0..1 at full brightness (mirrors ppi.frag; the
// tests use it to predict pixels).
Rgb palette_colour(Palette p, float v);
// Coverage of an intensity-layer pixel: 0 transparent .. 1 opaque (mirrors ppi.frag).
float echo_alpha(Palette p, float v);

const char* to_string(Palette p);
const char* to_string(Brightness b);
const char* to_string(Afterglow a);
const char* to_string(Layer l);
// Parse the names above; throw sweepline::Error on anything else.
Palette palette_from_string(const std::string& s);
Brightness brightness_from_string(const std::string& s);
Afterglow afterglow_from_string(const std::string& s);
Layer layer_from_string(const std::string& s);

}  // namespace sweepline::render
