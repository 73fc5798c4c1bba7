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

void format_bytes_per_s(char* buf, size_t n, double b) {
  if (b > 1e6)
    std::snprintf(buf, n, "%.2f MB/s", b / 1e6);
  else if (b > 1e3)
    std::snprintf(buf, n, "%.1f kB/s", b / 1e3);
  else
    std::snprintf(buf, n, "%.0f B/s", b);
}

void source_panel(Engine& st) {
  // The form is the engine's (it also names the recording's destination): edit a copy, send it.
  SourceSettings so = st.settings().source;
  auto sent = [&](bool changed) {
    if (changed) st.set_source_form(so);
  };
  if (ImGui::BeginTabBar("source_tabs")) {
    if (ImGui::BeginTabItem("Simulator")) {
      static const char* scenarios[] = {"harbour", "vessels50", "vessels1869", "open-sea",
                                        "stress"};
      if (ImGui::BeginCombo("Scenario", so.scenario.c_str())) {
        for (const char* sc : scenarios)
          if (ImGui::Selectable(sc, so.scenario == sc)) {
            so.scenario = sc;
            sent(true);
          }
        ImGui::EndCombo();
      }
      sent(ImGui::InputInt("Seed", &so.seed));
      double rpm = so.rpm;
      if (ImGui::InputDouble("RPM", &rpm, 1, 10, "%.1f")) {
        so.rpm = std::clamp(rpm, 1.0, 240.0);
        sent(true);
      }
      if (ImGui::Button("Run simulator")) {
        char uri[160];
        std::snprintf(uri, sizeof uri, "sim://%s?seed=%d&rpm=%g", so.scenario.c_str(), so.seed,
                      so.rpm);
        st.open_source(uri);
      }
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("File")) {
      char path[512];
      std::snprintf(path, sizeof path, "%s", so.file_path.c_str());
      if (ImGui::InputText("Path", path, sizeof path)) {
        so.file_path = path;
        sent(true);
      }
      if (ImGui::Button("Open file")) st.open_source(so.file_path);
      help_marker("pcap, pcapng, raw ASTERIX or FINAL; the format is detected from the content");
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("UDP")) {
      char group[64], iface[64];
      std::snprintf(group, sizeof group, "%s", so.udp_group.c_str());
      std::snprintf(iface, sizeof iface, "%s", so.udp_interface.c_str());
      if (ImGui::InputText("Group", group, sizeof group)) {
        so.udp_group = group;
        sent(true);
      }
      if (ImGui::InputInt("Port", &so.udp_port)) {
        so.udp_port = std::clamp(so.udp_port, 1, 65535);
        sent(true);
      }
      if (ImGui::InputText("Interface", iface, sizeof iface)) {
        so.udp_interface = iface;
        sent(true);
      }
      const bool live = st.source_view().open && st.settings().source.uri.rfind("udp://", 0) == 0;
      if (!live && ImGui::Button("Start")) {
        std::string uri = "udp://" + so.udp_group + ":" + std::to_string(so.udp_port);
        if (!so.udp_interface.empty()) uri += "?iface=" + so.udp_interface;
        st.open_source(uri);
      }
      if (live && ImGui::Button("Stop")) st.close_source();
      static char rec_path[256] = "sweepline-recording.pcap";
      ImGui::InputText("Record file", rec_path, sizeof rec_path);
      if (!st.recording()) {
        ImGui::BeginDisabled(!st.source_view().open);
        if (ImGui::Button("Record to pcap")) st.start_recording(rec_path);
        ImGui::EndDisabled();
      } else {
        if (ImGui::Button("Stop recording")) st.stop_recording();
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "REC %llu%s",
                           static_cast<unsigned long long>(st.recorded_datagrams()),
                           st.recording_raw() ? " datagrams (as received)" : " records");
      }
      help_marker(
          "Live UDP: every datagram exactly as received, with its arrival time and addresses.\n"
          "Simulator or file: each record re-encoded as one UDP datagram to the group and port\n"
          "above, its video octets unchanged.");
      if (!st.recording_error().empty())
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "%s", st.recording_error().c_str());
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }

  const engine::SourceView& v = st.source_view();
  ImGui::Separator();
  if (!v.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.35f, 1.0f));
    ImGui::TextWrapped("%s", v.error.c_str());
    ImGui::PopStyleColor();
  }
  if (!v.open) {
    ImGui::TextDisabled("No source open");
    return;
  }
  if (v.replayable) {
    if (ImGui::Button(v.paused ? "Play" : "Pause", ImVec2(70, 0))) st.set_paused(!v.paused);
    ImGui::SameLine();
    if (ImGui::Button("<")) st.step_rotation(-1);
    ImGui::SameLine();
    if (ImGui::Button("Step >")) st.step_rotation(+1);
    ImGui::SameLine();
    bool loop = v.loop;
    if (ImGui::Checkbox("Loop", &loop)) st.set_loop(loop);
    static const double speeds[] = {0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 0};
    char cur[16];
    if (v.speed == 0)
      std::snprintf(cur, sizeof cur, "unpaced");
    else
      std::snprintf(cur, sizeof cur, "x%g", v.speed);
    if (ImGui::BeginCombo("Speed", cur)) {
      for (double sp : speeds) {
        char name[16];
        if (sp == 0)
          std::snprintf(name, sizeof name, "unpaced");
        else
          std::snprintf(name, sizeof name, "x%g", sp);
        if (ImGui::Selectable(name, sp == v.speed)) st.set_speed(sp);
      }
      ImGui::EndCombo();
    }
    if (v.rotation_count > 0) {
      // Seek once, when the slider is let go, not on every drag step.
      static int seek_target = -1;
      int shown = seek_target >= 0 ? seek_target : int(v.shown_rotation);
      if (ImGui::SliderInt("Seek", &shown, 0, int(v.rotation_count - 1), "rotation %d"))
        seek_target = shown;
      if (ImGui::IsItemDeactivatedAfterEdit() && seek_target >= 0) {
        st.seek_rotation(uint64_t(seek_target));
        seek_target = -1;
      }
    }
  } else {
    if (ImGui::Button(v.paused ? "Resume display" : "Freeze display")) st.set_paused(!v.paused);
  }
  char rate[32];
  format_bytes_per_s(rate, sizeof rate, v.status.bytes_per_s);
  if (ImGui::BeginTable("status", 2, ImGuiTableFlags_SizingStretchProp)) {
    auto row = [](const char* k, const char* fmt, auto... a) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", k);
      ImGui::TableNextColumn();
      ImGui::Text(fmt, a...);
    };
    row("State", "%s", v.status.state.c_str());
    row("Datagrams", "%llu", static_cast<unsigned long long>(v.status.datagrams));
    row("Records", "%llu", static_cast<unsigned long long>(v.status.records));
    row("Rate", "%s", rate);
    row("Lost messages", "%llu", static_cast<unsigned long long>(v.status.lost_messages));
    row("Skipped", "%llu", static_cast<unsigned long long>(v.status.skipped));
    row("Rotations", "%llu", static_cast<unsigned long long>(v.rotations));
    row("Rotation period", "%.3f s", v.rotation_period_s);
    row("Azimuth coverage", "%.1f %%", 100.0 * v.azimuth_coverage);
    for (const auto& [reason, n] : v.status.errors)
      row(("Error: " + reason).c_str(), "%llu", static_cast<unsigned long long>(n));
    if (v.rejected) row("Rejected (sweep)", "%llu", static_cast<unsigned long long>(v.rejected));
    ImGui::EndTable();
  }
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
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.3f, 1.0f));
    ImGui::TextWrapped("%s", st.backend_note().c_str());
    ImGui::PopStyleColor();
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
  if (ImGui::SliderFloat("Heading", &hd, 0.0f, 359.9f, "%05.1f deg")) v.heading_deg = double(hd);
  ImGui::Checkbox("Target boxes", &v.show_boxes);
  ImGui::SameLine();
  ImGui::Checkbox("Id/area labels", &v.show_box_labels);
  if (ImGui::Checkbox("Off-centre", &v.off_centre)) console.reset_view();
  ImGui::SameLine();
  if (ImGui::Button("Reset view")) console.reset_view();
  ImGui::SameLine();
  ImGui::TextDisabled("zoom x%.2f", console.view().zoom());
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
  c[ImGuiCol_SliderGrab] = ImVec4(0.35f, 0.80f, 0.70f, 1.0f);
  c[ImGuiCol_SliderGrabActive] = ImVec4(0.45f, 0.95f, 0.80f, 1.0f);
  c[ImGuiCol_CheckMark] = ImVec4(0.45f, 0.95f, 0.80f, 1.0f);
  c[ImGuiCol_Tab] = ImVec4(0.10f, 0.20f, 0.22f, 1.0f);
  c[ImGuiCol_TabActive] = ImVec4(0.16f, 0.38f, 0.40f, 1.0f);
  c[ImGuiCol_TabHovered] = ImVec4(0.20f, 0.46f, 0.48f, 1.0f);
  c[ImGuiCol_PlotLines] = ImVec4(0.45f, 0.95f, 0.80f, 1.0f);
  c[ImGuiCol_Separator] = ImVec4(0.25f, 0.35f, 0.37f, 1.0f);
}

void draw_panels(Engine& st, Console& console, float fb_width, float fb_height) {
  const float w = kPanelWidth, gap = 6;
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
      ImGui::SetNextWindowPos(ImVec2(x, y), ImGuiCond_FirstUseEver);
      ImGui::SetNextWindowSize(ImVec2(w, h), ImGuiCond_FirstUseEver);
      if (ImGui::Begin(s.title)) body(s.title);
      ImGui::End();
      y += h + gap;
    }
  };
  auto is = [](const char* a, const char* b) { return std::string(a) == b; };
  column(gap, {{"Source", 0.30f}, {"Processing", 0.32f}, {"Tracking", 0.38f}}, [&](const char* t) {
    if (is(t, "Source"))
      source_panel(st);
    else if (is(t, "Processing"))
      processing_panel(st, console);
    else
      tracking_panel(st, console);
  });
  column(fb_width - w - gap,
         {{"Display", 0.30f}, {"Targets", 0.34f}, {"Alarms", 0.17f}, {"Plots & timing", 0.19f}},
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
}

}  // namespace sweepline::ui
