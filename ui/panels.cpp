#include "ui/panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "app/engine/engine.hpp"
#include "ui/console.hpp"
#include "ui/operator_panel.hpp"
#include "ui/short_text.hpp"
#include "ui/source_panel.hpp"
#include "ui/tracking_panels.hpp"

namespace sweepline::ui {

namespace {

constexpr double kNm = 1852.0;

// A combo over the names of an enum with `n` values and a to_string().
template <class E, class ToString>
bool enum_combo(const char* label, E& value, int n, ToString to_string) {
  bool changed = false;
  if (ImGui::BeginCombo(label, to_string(value))) {
    for (int i = 0; i < n; ++i) {
      const bool sel = int(value) == i;
      if (ImGui::Selectable(to_string(E(i)), sel)) {
        value = E(i);
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

// A titled divider (ImGui 1.86 has no SeparatorText).
void section(const char* title) {
  ImGui::Spacing();
  ImGui::TextColored(ImVec4(0.45f, 0.85f, 0.75f, 1.0f), "%s", title);
  ImGui::Separator();
}

// How many values an enum has, found through its name round trip (so a value the pipeline adds
// shows up in the combo without an edit here).
template <class E, class ToString, class FromString>
int enum_count(ToString to_string, FromString from_string) {
  int n = 0;
  for (; n < 32; ++n) {
    try {
      if (from_string(to_string(E(n))) != E(n)) break;
    } catch (const std::exception&) {
      break;
    }
  }
  return n;
}

void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

// One of Gain, Sea, Rain: its name, the knob 0..100 and its Auto box. The knob is inert (and
// reads "auto") while Auto is on: the automatic mode ignores it (gpu/pipeline_types.hpp).
bool video_knob(const char* name, float& value, bool& automatic, const char* help) {
  bool changed = false;
  ImGui::PushID(name);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(name);
  ImGui::SameLine(56);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float auto_w = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x +
                       ImGui::CalcTextSize("Auto").x + style.ItemSpacing.x;
  ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x - auto_w, 40.0f));
  ImGui::BeginDisabled(automatic);
  changed |= ImGui::SliderFloat("##knob", &value, 0.0f, 100.0f, automatic ? "auto" : "%.0f",
                                ImGuiSliderFlags_AlwaysClamp);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", help);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("Auto", &automatic);
  ImGui::PopID();
  return changed;
}

// A slider over a double (the plot parameters are doubles).
bool slider_double(const char* label, double& v, double lo, double hi, const char* format,
                   ImGuiSliderFlags flags = 0) {
  return ImGui::SliderScalar(label, ImGuiDataType_Double, &v, &lo, &hi, format,
                             flags | ImGuiSliderFlags_AlwaysClamp);
}

// The operator's controls: what a marine radar's front panel offers.
bool operator_controls(gpu::VideoParams& v) {
  bool changed = ImGui::Checkbox("Video processing", &v.enabled);
  help_marker(
      "Gain, Sea, Rain and the clutter map, on the radar video before it is drawn.\n"
      "Off: the raw video, as the receiver delivers it.");
  ImGui::BeginDisabled(!v.enabled);
  changed |= video_knob("Gain", v.gain, v.gain_auto,
                        "Receiver gain, +-12 dB over the knob (50: unity).\n"
                        "Auto: the noise floor is brought to a fixed level.");
  changed |= video_knob("Sea", v.sea, v.sea_auto,
                        "Sea clutter suppression (STC): takes a level off the near range.\n"
                        "Auto: follows the clutter measured per sector and range band.");
  changed |= video_knob("Rain", v.rain, v.rain_auto,
                        "Rain clutter suppression (FTC): extended echoes fade, their edges and\n"
                        "point targets stay. 0: off.");
  changed |= ImGui::Checkbox("Clutter map", &v.clutter_map);
  help_marker(
      "Learns each cell's echo over the rotations: land and fixed structures, strong and\n"
      "steady, are masked and give no targets. Takes a few rotations to build.");
  ImGui::EndDisabled();
  return changed;
}

// Everything an operator rarely touches: backend and display, the image stages, labelling and
// the plot filters, and the raw components' boxes.
bool advanced_controls(Engine& st, Console& console, gpu::PipelineParams& p) {
  const ProcessingSettings& pr = st.settings().processing;
  bool changed = false;
  section("Backend and display");
  int backend = st.backend_name() == "cuda" ? 1 : 0;
  const char* backends[] = {"cpu", "cuda"};
  if (ImGui::Combo("Backend", &backend, backends, 2)) st.set_backend(backends[backend]);
  if (!st.backend_note().empty()) {
    // One short line; the whole note (why CUDA is not there, what to do) on hover.
    const std::string note = short_text(st.backend_note(), 44);
    ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f), "%s", note.c_str());
    if (note != st.backend_note() && ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", st.backend_note().c_str());
  }
  static const int sizes[] = {0, 512, 1024, 1536, 2048, 4096};
  char cur[32];
  std::snprintf(cur, sizeof cur, pr.size ? "%d" : "auto (%d)",
                pr.size ? pr.size : st.display_size());
  if (ImGui::BeginCombo("Display size", cur)) {
    for (int sz : sizes) {
      char name[32];
      std::snprintf(name, sizeof name, sz ? "%d x %d" : "auto", sz, sz);
      if (ImGui::Selectable(name, sz == pr.size)) st.set_display_size(sz);
    }
    ImGui::EndCombo();
  }
  float range_nm = float(p.display_range_m / kNm);
  if (ImGui::SliderFloat("Display range", &range_nm, 0.0f, 48.0f,
                         range_nm > 0 ? "%.2f NM" : "frame range")) {
    p.display_range_m = double(range_nm) * kNm;
    changed = true;
  }
  changed |=
      enum_combo("Scan conversion", p.scan, 3, [](gpu::ScanMode m) { return gpu::to_string(m); });

  section("Denoising");
  changed |= enum_combo("Mode", p.denoise, 5, [](gpu::DenoiseMode m) { return gpu::to_string(m); });
  switch (p.denoise) {
    case gpu::DenoiseMode::Gaussian:
      changed |= ImGui::SliderFloat("Sigma", &p.gaussian_sigma, 0.5f, 5.0f, "%.2f px");
      break;
    case gpu::DenoiseMode::Bilateral:
      changed |= ImGui::SliderFloat("Sigma space", &p.bilateral_sigma_s, 0.5f, 5.0f, "%.2f px");
      changed |=
          ImGui::SliderFloat("Sigma range", &p.bilateral_sigma_r, 1.0f, 128.0f, "%.0f levels");
      break;
    case gpu::DenoiseMode::FftEnhance:
      changed |= ImGui::SliderFloat("Power", &p.fft.power, 0.0f, 1.0f, "%.2f");
      changed |= ImGui::SliderFloat("Low cut", &p.fft.low_cut, 0.0f, 8.0f, "%.1f");
      changed |= ImGui::SliderFloat("High cut", &p.fft.high_cut, 1.0f, 22.6f, "%.1f");
      changed |= ImGui::SliderFloat("FFT gain", &p.fft.gain, 1.0f, 512.0f, "%.0f");
      changed |= ImGui::SliderFloat("Offset", &p.fft.offset, -128.0f, 255.0f, "%.1f");
      changed |= ImGui::SliderFloat("Min peak", &p.fft.min_peak, 0.0f, 64.0f, "%.1f");
      break;
    case gpu::DenoiseMode::Cfar: {
      changed |= ImGui::SliderInt("Guard cells", &p.cfar_guard, 0, 16);
      changed |= ImGui::SliderInt("Training cells", &p.cfar_train, 1, 64);
      float lg = float(std::log10(std::max(p.cfar_pfa, 1e-12)));
      if (ImGui::SliderFloat("log10 Pfa", &lg, -9.0f, -1.0f, "%.1f")) {
        p.cfar_pfa = std::pow(10.0, double(lg));
        changed = true;
      }
      break;
    }
    case gpu::DenoiseMode::None:
      break;
  }
  if (p.denoise != gpu::DenoiseMode::Cfar) {
    int th = p.threshold;
    if (ImGui::SliderInt("Threshold", &th, 0, 255)) {
      p.threshold = uint8_t(th);
      changed = true;
    }
  }

  section("Labelling");
  changed |= ImGui::Checkbox("Label components", &p.label_enabled);
  ImGui::BeginDisabled(!p.label_enabled);
  int conn = p.label.connectivity == 4 ? 0 : 1;
  const char* conns[] = {"4-connected", "8-connected"};
  if (ImGui::Combo("Connectivity", &conn, conns, 2)) {
    p.label.connectivity = conn == 0 ? 4 : 8;
    changed = true;
  }
  changed |= enum_combo("Algorithm", p.label.algorithm, 3,
                        [](ccl::Algorithm a) { return ccl::to_string(a); });
  if (p.label.algorithm == ccl::Algorithm::Kang)
    changed |= enum_combo("Box method", p.label.box_method, 3,
                          [](ccl::BoxMethod m) { return ccl::to_string(m); });
  int mn = int(std::min<int64_t>(p.label.min_area, 1000000)),
      mx = int(std::min<int64_t>(p.label.max_area, 1000000));
  if (ImGui::SliderInt("Min area", &mn, 0, 500, "%d px", ImGuiSliderFlags_Logarithmic)) {
    p.label.min_area = mn;
    changed = true;
  }
  if (ImGui::SliderInt("Max area", &mx, 0, 1000000, mx ? "%d px" : "no limit",
                       ImGuiSliderFlags_Logarithmic)) {
    p.label.max_area = mx;
    changed = true;
  }
  changed |= ImGui::Checkbox("Fill holes", &p.label.fill_holes);
  if (p.label.fill_holes) {
    int hm = int(std::min<int64_t>(p.label.hole_max_area, 1000000));
    if (ImGui::SliderInt("Max hole area", &hm, 0, 10000, "%d px", ImGuiSliderFlags_Logarithmic)) {
      p.label.hole_max_area = hm;
      changed = true;
    }
  }

  section("Plots");
  gpu::PlotParams& pl = p.plot;
  changed |= slider_double("Beamwidth", pl.beamwidth_deg, 0.1, 10.0, "%.2f deg",
                           ImGuiSliderFlags_Logarithmic);
  help_marker("The antenna's two-way -3 dB beamwidth: an echo's least extent across range.");
  changed |= slider_double("Pulse length", pl.pulse_m, 1.0, 1000.0, "%.0f m",
                           ImGuiSliderFlags_Logarithmic);
  help_marker("The pulse as a range extent (c tau / 2): an echo's least extent along range.");
  changed |= slider_double("Largest target", pl.max_target_m, 10.0, 5000.0, "%.0f m",
                           ImGuiSliderFlags_Logarithmic);
  help_marker("Longer echoes, along or across range, are land or weather: no plot.");
  bool two_scan = pl.confirm_scans >= 2;
  if (ImGui::Checkbox("Confirm over 2 scans", &two_scan)) {
    pl.confirm_scans = two_scan ? 2 : 1;
    changed = true;
  }
  help_marker(
      "A plot only when the previous rotation saw an echo within a vessel's reach:\n"
      "sea clutter spikes do not repeat, targets do.");
  ImGui::BeginDisabled(!two_scan);
  changed |= slider_double("Max speed", pl.max_speed_mps, 0.0, 100.0, "%.0f m/s");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%.0f kn: the fastest target the correlation follows",
                      pl.max_speed_mps * 3600.0 / kNm);
  ImGui::EndDisabled();
  ImGui::Checkbox("Show all components", &console.show_all_components());
  help_marker(
      "Box every labelled component in blue, not only the plots: the echoes the plot\n"
      "filters took for clutter.");
  ImGui::EndDisabled();
  return changed;
}

void processing_panel(Engine& st, Console& console) {
  // Edit a copy of the parameters and send it when a control changed it.
  gpu::PipelineParams p = st.settings().processing.params;
  bool changed = operator_controls(p.video);
  if (!st.processing_error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
    ImGui::TextWrapped("%s", st.processing_error().c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Spacing();
  if (ImGui::CollapsingHeader("Advanced")) {
    // Room for the longest label and its help marker beside the controls (ImGui's default
    // width cuts them).
    const ImGuiStyle& style = ImGui::GetStyle();
    ImGui::PushItemWidth(-(ImGui::CalcTextSize("Largest target (?)").x + style.ItemInnerSpacing.x +
                           style.ItemSpacing.x));
    changed |= advanced_controls(st, console, p);
    ImGui::PopItemWidth();
  }
  if (changed) st.set_params(p);
}

void display_panel(Console& console) {
  ViewSettings& v = console.view_settings();
  render::PpiStyle& s = v.style;
  enum_combo("Palette", s.palette, 4, [](render::Palette p) { return render::to_string(p); });
  int b = int(s.brightness);
  ImGui::TextUnformatted("Brightness");
  for (int i = 0; i < 3; ++i) {
    ImGui::SameLine();
    if (ImGui::RadioButton(render::to_string(render::Brightness(i)), &b, i))
      s.brightness = render::Brightness(b);
  }
  // Not "Gain": that is the radar's receiver gain (Processing); this only brightens the picture.
  ImGui::SliderFloat("Intensity", &s.gain, 0.25f, 4.0f, "x%.2f", ImGuiSliderFlags_Logarithmic);
  enum_combo("Afterglow", s.afterglow, 3, [](render::Afterglow a) { return render::to_string(a); });
  if (s.afterglow == render::Afterglow::RealTime)
    ImGui::SliderFloat("Fade rate", &s.glow_rate_per_s, 0.05f, 10.0f, "%.2f /s",
                       ImGuiSliderFlags_Logarithmic);
  if (s.afterglow == render::Afterglow::PerSweep)
    ImGui::SliderFloat("Fade floor", &s.sweep_fade_floor, 0.0f, 1.0f, "%.2f");

  section("Layers");
  for (int i = 0; i < render::kLayerCount; ++i) {
    ImGui::PushID(i);
    ImGui::Checkbox(render::to_string(render::Layer(i)), &s.layers[size_t(i)].visible);
    ImGui::SameLine(110);
    ImGui::SetNextItemWidth(-1);
    ImGui::SliderFloat("##opacity", &s.layers[size_t(i)].opacity, 0.0f, 1.0f, "opacity %.2f");
    ImGui::PopID();
  }

  section("Overlays");
  ImGui::Checkbox("Range rings", &v.show_rings);
  ImGui::SameLine();
  static const double spacings_nm[] = {0, 0.25, 0.5, 1, 2, 3, 5};
  char cur[24];
  std::snprintf(cur, sizeof cur, v.ring_spacing_m > 0 ? "%.2f NM" : "auto", v.ring_spacing_m / kNm);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##spacing", cur)) {
    for (double sp : spacings_nm) {
      char name[24];
      std::snprintf(name, sizeof name, sp > 0 ? "%.2f NM" : "auto", sp);
      if (ImGui::Selectable(name, std::abs(v.ring_spacing_m - sp * kNm) < 1))
        v.ring_spacing_m = sp * kNm;
    }
    ImGui::EndCombo();
  }
  ImGui::Checkbox("Bearing scale", &v.show_bearing_scale);
  ImGui::SameLine();
  ImGui::Checkbox("Sweep line", &v.show_sweep_line);
  float hd = float(v.heading_deg);
  if (ImGui::SliderFloat("Heading (manual)", &hd, 0.0f, 359.9f, "%05.1f deg"))
    v.heading_deg = double(hd);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Own ship's heading when none comes from NMEA or the simulator");
  ImGui::Checkbox("Target boxes", &v.show_boxes);
  ImGui::SameLine();
  ImGui::Checkbox("Id/area labels", &v.show_box_labels);
  section("Picture");
  picture_controls(console);
  section("EBL / VRM");
  ebl_vrm_controls(console);
}

void timing_panel(const Engine& st) {
  const gpu::FrameResult* r = st.result();
  ImGui::Text("Targets: %d", r ? int(r->plots.size()) : 0);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Plots; %d labelled components before the plot filters", r ? r->count : 0);
  ImGui::SameLine(150);
  ImGui::Text("%.1f FPS (%.1f ms)", double(ImGui::GetIO().Framerate),
              1000.0 / double(std::max(ImGui::GetIO().Framerate, 1e-3f)));
  ImGui::Text("Frames processed: %llu", static_cast<unsigned long long>(st.frames_processed()));
  const auto& hist = st.stage_history();
  for (const auto& name : st.stage_order()) {
    const engine::History& h = hist.at(name);
    std::vector<float> v(h.values.begin(), h.values.end());
    char overlay[48];
    std::snprintf(overlay, sizeof overlay, "%s %.3f ms", name.c_str(), double(h.last()));
    ImGui::PlotLines(("##" + name).c_str(), v.data(), int(v.size()), 0, overlay, 0.0f, FLT_MAX,
                     ImVec2(ImGui::GetContentRegionAvail().x, 34));
  }
  {
    std::vector<float> v(st.frame_ms_history().values.begin(), st.frame_ms_history().values.end());
    char overlay[48];
    std::snprintf(overlay, sizeof overlay, "frame total %.3f ms",
                  double(st.frame_ms_history().last()));
    ImGui::PlotLines("##frame_total", v.data(), int(v.size()), 0, overlay, 0.0f, FLT_MAX,
                     ImVec2(ImGui::GetContentRegionAvail().x, 34));
  }
  if (r && !r->plots.empty() && ImGui::CollapsingHeader("Target list")) {
    if (ImGui::BeginTable("targets", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY,
                          ImVec2(0, 160))) {
      ImGui::TableSetupScrollFreeze(0, 1);
      ImGui::TableSetupColumn("Id");
      ImGui::TableSetupColumn("Range NM");
      ImGui::TableSetupColumn("Bearing");
      ImGui::TableSetupColumn("Extent");
      ImGui::TableSetupColumn("Peak");
      ImGui::TableHeadersRow();
      for (const gpu::Plot& p : r->plots) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%d", p.label);
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", p.range_m / kNm);
        ImGui::TableNextColumn();
        ImGui::Text("%05.1f", p.bearing_deg);
        ImGui::TableNextColumn();
        ImGui::Text("%.0f m x %.1f deg", p.range_extent_m, p.azimuth_extent_deg);
        ImGui::TableNextColumn();
        ImGui::Text("%d", int(p.peak));
      }
      ImGui::EndTable();
    }
  }
}

}  // namespace

void apply_console_style() {
  ImGuiStyle& s = ImGui::GetStyle();
  ImGui::StyleColorsDark(&s);
  s.WindowRounding = 3;
  s.FrameRounding = 2;
  s.GrabRounding = 2;
  s.WindowBorderSize = 1;
  s.FramePadding = ImVec2(6, 3);
  s.ItemSpacing = ImVec2(7, 5);
  s.GrabMinSize = 6;  // a narrow grab leaves the slider's value in the clear
  ImVec4* c = s.Colors;
  c[ImGuiCol_WindowBg] = ImVec4(0.06f, 0.08f, 0.10f, 0.94f);
  c[ImGuiCol_TitleBg] = ImVec4(0.08f, 0.12f, 0.14f, 1.0f);
  c[ImGuiCol_TitleBgActive] = ImVec4(0.10f, 0.22f, 0.24f, 1.0f);
  c[ImGuiCol_FrameBg] = ImVec4(0.12f, 0.17f, 0.19f, 1.0f);
  c[ImGuiCol_FrameBgHovered] = ImVec4(0.16f, 0.27f, 0.29f, 1.0f);
  c[ImGuiCol_FrameBgActive] = ImVec4(0.18f, 0.33f, 0.35f, 1.0f);
  c[ImGuiCol_Button] = ImVec4(0.14f, 0.30f, 0.32f, 1.0f);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.18f, 0.42f, 0.44f, 1.0f);
  c[ImGuiCol_ButtonActive] = ImVec4(0.20f, 0.50f, 0.52f, 1.0f);
  c[ImGuiCol_Header] = ImVec4(0.14f, 0.30f, 0.32f, 0.8f);
  c[ImGuiCol_HeaderHovered] = ImVec4(0.18f, 0.42f, 0.44f, 0.8f);
  // Grabs dark enough that the value printed over them stays readable.
  c[ImGuiCol_SliderGrab] = ImVec4(0.20f, 0.46f, 0.43f, 1.0f);
  c[ImGuiCol_SliderGrabActive] = ImVec4(0.26f, 0.58f, 0.53f, 1.0f);
  c[ImGuiCol_CheckMark] = ImVec4(0.45f, 0.95f, 0.80f, 1.0f);
  c[ImGuiCol_Tab] = ImVec4(0.10f, 0.20f, 0.22f, 1.0f);
  c[ImGuiCol_TabActive] = ImVec4(0.16f, 0.38f, 0.40f, 1.0f);
  c[ImGuiCol_TabHovered] = ImVec4(0.20f, 0.46f, 0.48f, 1.0f);
  c[ImGuiCol_PlotLines] = ImVec4(0.45f, 0.95f, 0.80f, 1.0f);
  c[ImGuiCol_Separator] = ImVec4(0.25f, 0.35f, 0.37f, 1.0f);
}

bool draw_panels(Engine& st, Console& console, float fb_width, float fb_height, bool reflow) {
  const float w = kPanelWidth, gap = 6;
  bool in_place = true;
  const float avail = fb_height - gap;  // each window takes its share less one gap
  // A column of windows, top to bottom, each taking its share of the height.
  struct Slot {
    const char* title;
    float share;
  };
  auto column = [&](float x, std::initializer_list<Slot> slots, auto&& body) {
    float y = gap;
    for (const Slot& s : slots) {
      const float h = avail * s.share - gap;
      // Docked in their column: put back there when the window's size changes (a resize,
      // fullscreen), else where the operator left them.
      const ImGuiCond cond = reflow ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
      ImGui::SetNextWindowPos(ImVec2(x, y), cond);
      ImGui::SetNextWindowSize(ImVec2(w, h), cond);
      const bool open = ImGui::Begin(s.title);
      const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
      if (std::abs(pos.x - x) > 1.0f || pos.y + size.y > fb_height + 1.0f) in_place = false;
      if (open) body(s.title);
      ImGui::End();
      y += h + gap;
    }
  };
  auto is = [](const char* a, const char* b) { return std::string(a) == b; };
  column(gap, {{"Source", 0.30f}, {"Processing", 0.32f}, {"Tracking", 0.38f}}, [&](const char* t) {
    if (is(t, "Source"))
      source_panel(st, console);
    else if (is(t, "Processing"))
      processing_panel(st, console);
    else
      tracking_panel(st, console);
  });
  column(fb_width - w - gap,
         {{"Display", 0.40f}, {"Targets", 0.30f}, {"Alarms", 0.14f}, {"Plots & timing", 0.16f}},
         [&](const char* t) {
           if (is(t, "Display"))
             display_panel(console);
           else if (is(t, "Targets"))
             targets_panel(st, console);
           else if (is(t, "Alarms"))
             alarms_panel(st, console);
           else
             timing_panel(st);
         });
  return in_place;
}

}  // namespace sweepline::ui
