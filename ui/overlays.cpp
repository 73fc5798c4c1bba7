#include "ui/overlays.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace sweepline::ui {

namespace {

constexpr double kNm = 1852.0;
constexpr double kPi = 3.14159265358979323846;

ImVec2 to_screen(const render::PpiView& view, double east, double north) {
  float x = 0, y = 0;
  view.world_to_screen({east, north}, x, y);
  return {x, y};
}

ImVec2 polar_point(const render::PpiView& view, double range_m, double bearing_deg) {
  const double b = bearing_deg * kPi / 180.0;
  return to_screen(view, range_m * std::sin(b), range_m * std::cos(b));
}

void format_range(char* buf, size_t n, double metres) {
  const double nm = metres / kNm;
  if (nm < 0.995)
    std::snprintf(buf, n, "%.2f NM", nm);
  else
    std::snprintf(buf, n, "%.1f NM", nm);
}

void draw_rings(ImDrawList* dl, const render::PpiView& view, double range_m, double spacing,
                ImU32 col, ImU32 text_col) {
  const ImVec2 c = to_screen(view, 0, 0);
  char buf[32];
  for (double r = spacing; r < range_m + 1e-6; r += spacing) {
    const float rp = float(r * view.px_per_m());
    if (rp < 6) continue;
    dl->AddCircle(c, rp, col, std::clamp(int(rp / 3), 48, 512), 1.0f);
    format_range(buf, sizeof buf, r);
    // Labels along the 045 bearing, clear of the heading line and the sweep's usual start.
    const ImVec2 p = polar_point(view, r, 45.0);
    dl->AddText({p.x + 3, p.y - 14}, text_col, buf);
  }
}

void draw_bearing_scale(ImDrawList* dl, const render::PpiView& view, double range_m,
                        double heading_deg, ImU32 col, ImU32 text_col, ImU32 heading_col) {
  const float r_px = float(range_m * view.px_per_m());
  const ImVec2 c = to_screen(view, 0, 0);
  dl->AddCircle(c, r_px, col, std::clamp(int(r_px / 3), 64, 512), 1.5f);
  char buf[8];
  for (int deg = 0; deg < 360; deg += 5) {
    const bool ten = deg % 10 == 0;
    const double b = deg * kPi / 180.0;
    const float len = deg % 30 == 0 ? 12.0f : ten ? 8.0f : 4.0f;
    const ImVec2 dir{float(std::sin(b)), float(-std::cos(b))};
    const ImVec2 p0{c.x + dir.x * r_px, c.y + dir.y * r_px};
    const ImVec2 p1{p0.x + dir.x * len, p0.y + dir.y * len};
    dl->AddLine(p0, p1, col, ten ? 1.5f : 1.0f);
    if (deg % 30 == 0) {
      std::snprintf(buf, sizeof buf, "%03d", deg);
      const ImVec2 ts = ImGui::CalcTextSize(buf);
      const float tr = r_px + len + 4 + 0.5f * std::max(ts.x, ts.y);
      dl->AddText({c.x + dir.x * tr - 0.5f * ts.x, c.y + dir.y * tr - 0.5f * ts.y}, text_col, buf);
    }
  }
  // Heading marker: a line from the radar to the scale and a triangle on the scale.
  const double h = heading_deg * kPi / 180.0;
  const ImVec2 d{float(std::sin(h)), float(-std::cos(h))};
  const ImVec2 n{-d.y, d.x};
  const ImVec2 tip{c.x + d.x * r_px, c.y + d.y * r_px};
  dl->AddLine(c, tip, heading_col, 1.5f);
  dl->AddTriangleFilled({tip.x + d.x * 14 + n.x * 7, tip.y + d.y * 14 + n.y * 7},
                        {tip.x + d.x * 14 - n.x * 7, tip.y + d.y * 14 - n.y * 7}, tip, heading_col);
}

}  // namespace

double ring_spacing_m(double range_m, double requested) {
  if (requested > 0) return requested;
  if (range_m <= 0) return kNm;
  static const double steps_nm[] = {0.125, 0.25, 0.5, 1, 2, 3, 4, 5, 10, 20, 25, 50, 100};
  const double target = range_m / kNm / 5.0;
  double best = steps_nm[0];
  for (double s : steps_nm)
    if (std::abs(std::log(s / target)) < std::abs(std::log(best / target))) best = s;
  return best * kNm;
}

std::vector<std::string> filter_legend(const gpu::PipelineParams& p, bool all_components) {
  char buf[48];
  auto knob = [&](const char* name, bool automatic, float value) {
    if (automatic)
      std::snprintf(buf, sizeof buf, "%s A", name);
    else
      std::snprintf(buf, sizeof buf, "%s %.0f", name, double(value));
    return std::string(buf);
  };
  const gpu::VideoParams& v = p.video;
  std::string first;
  if (v.enabled) {
    first = knob("GAIN", v.gain_auto, v.gain) + "  " + knob("SEA", v.sea_auto, v.sea) + "  " +
            knob("RAIN", v.rain_auto, v.rain) + (v.clutter_map ? "  MAP ON" : "  MAP OFF");
  } else {
    first = "VIDEO OFF";
  }
  if (!p.label_enabled)
    first += "  PLOTS OFF";
  else
    first += p.plot.confirm_scans >= 2 ? "  2-SCAN" : "  1-SCAN";

  std::string second;
  switch (p.denoise) {
    case gpu::DenoiseMode::None:
      second = "NO FILTER";
      break;
    case gpu::DenoiseMode::Gaussian:
      std::snprintf(buf, sizeof buf, "GAUSS %.1f", double(p.gaussian_sigma));
      second = buf;
      break;
    case gpu::DenoiseMode::Bilateral:
      std::snprintf(buf, sizeof buf, "BILAT %.1f/%.0f", double(p.bilateral_sigma_s),
                    double(p.bilateral_sigma_r));
      second = buf;
      break;
    case gpu::DenoiseMode::FftEnhance:
      second = "FFT";
      break;
    case gpu::DenoiseMode::Cfar:
      std::snprintf(buf, sizeof buf, "CFAR %.0e", p.cfar_pfa);
      second = buf;
      break;
  }
  if (p.denoise != gpu::DenoiseMode::Cfar) second += "  THR " + std::to_string(int(p.threshold));
  if (p.label_enabled) {
    if (p.label.max_area > 0)
      std::snprintf(buf, sizeof buf, "  AREA %lld..%lld", static_cast<long long>(p.label.min_area),
                    static_cast<long long>(p.label.max_area));
    else
      std::snprintf(buf, sizeof buf, "  AREA >= %lld", static_cast<long long>(p.label.min_area));
    second += buf;
    std::snprintf(buf, sizeof buf, "  TGT %.0f M", p.plot.max_target_m);
    second += buf;
    if (all_components) second += "  ALL BLOBS";
  }
  return {first, second};
}

WorldBox box_of(const ccl::Component& c, const DisplayGeometry& g) {
  const double mpp = g.metres_per_pixel;
  return {g.origin_east_m + (c.xmin - 0.5 * g.width) * mpp,
          g.origin_north_m - (c.ymin - 0.5 * g.height) * mpp,
          g.origin_east_m + (c.xmax + 1 - 0.5 * g.width) * mpp,
          g.origin_north_m - (c.ymax + 1 - 0.5 * g.height) * mpp};
}

std::vector<TargetMark> target_marks(const gpu::FrameResult& r, const DisplayGeometry& g,
                                     bool all_components) {
  std::vector<TargetMark> marks;
  const size_t n = r.components.size();
  std::vector<bool> is_plot(n, false);
  for (const gpu::Plot& p : r.plots)
    if (p.label >= 1 && size_t(p.label) <= n) is_plot[size_t(p.label - 1)] = true;
  if (all_components)
    for (size_t i = 0; i < n; ++i)
      if (!is_plot[i]) marks.push_back({box_of(r.components[i], g), &r.components[i], nullptr});
  for (const gpu::Plot& p : r.plots) {
    if (p.label < 1 || size_t(p.label) > n) continue;
    const ccl::Component& c = r.components[size_t(p.label - 1)];
    marks.push_back({box_of(c, g), &c, &p});
  }
  return marks;
}

namespace {

// The legend in the PPI's top-right corner, on a dark plate so that it reads over echoes.
void draw_legend(ImDrawList* dl, const render::ScreenRect& r, const std::vector<std::string>& lines,
                 ImU32 first_col, ImU32 rest_col, ImU32 plate_col) {
  const float pad = 6, line_h = ImGui::GetTextLineHeight() + 2;
  float w = 0;
  for (const auto& l : lines) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
  const float x1 = r.x + r.w - 10, y0 = r.y + 8;
  const float x0 = x1 - w - 2 * pad;
  dl->AddRectFilled({x0, y0}, {x1, y0 + 2 * pad + line_h * float(lines.size()) - 2}, plate_col,
                    3.0f);
  for (size_t i = 0; i < lines.size(); ++i) {
    const float tw = ImGui::CalcTextSize(lines[i].c_str()).x;
    dl->AddText({x1 - pad - tw, y0 + pad + line_h * float(i)}, i == 0 ? first_col : rest_col,
                lines[i].c_str());
  }
}

void plot_tooltip(const gpu::Plot& p, const ccl::Component& c, const DisplayGeometry& g) {
  ImGui::BeginTooltip();
  ImGui::Text("Plot %d", p.label);
  ImGui::Separator();
  ImGui::Text("Range    %.3f NM (%.0f m)", p.range_m / kNm, p.range_m);
  ImGui::Text("Bearing  %05.1f deg", p.bearing_deg);
  ImGui::Text("Extent   %.0f m x %.1f deg", p.range_extent_m, p.azimuth_extent_deg);
  ImGui::Text("Peak     %d", int(p.peak));
  ImGui::Text("Area     %lld px (%.0f m2)", static_cast<long long>(p.area_px),
              double(p.area_px) * g.metres_per_pixel * g.metres_per_pixel);
  ImGui::Text("Box      %d x %d px", c.xmax - c.xmin + 1, c.ymax - c.ymin + 1);
  ImGui::EndTooltip();
}

void component_tooltip(const ccl::Component& c, const DisplayGeometry& g) {
  ImGui::BeginTooltip();
  ImGui::Text("Component %d (no plot)", c.label);
  ImGui::Separator();
  ImGui::Text("Range    %.3f NM (%.0f m)", c.range_m / kNm, c.range_m);
  ImGui::Text("Bearing  %05.1f deg", c.bearing_deg);
  ImGui::Text("Area     %lld px (%.0f m2)", static_cast<long long>(c.area),
              double(c.area) * g.metres_per_pixel * g.metres_per_pixel);
  ImGui::Text("Size     %d x %d px (%.0f x %.0f m)", c.xmax - c.xmin + 1, c.ymax - c.ymin + 1,
              (c.xmax - c.xmin + 1) * g.metres_per_pixel,
              (c.ymax - c.ymin + 1) * g.metres_per_pixel);
  ImGui::Text("Peak     %d", int(c.peak));
  ImGui::EndTooltip();
}

}  // namespace

void draw_ppi_overlays(const engine::Engine& eng, const ViewSettings& vs,
                       const render::PpiView& view, bool all_components, double fallback_range_m,
                       bool mouse_valid, float mouse_x, float mouse_y) {
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const render::ScreenRect& r = view.rect();
  dl->PushClipRect({r.x, r.y}, {r.x + r.w, r.y + r.h}, true);
  const DisplayGeometry g = eng.geometry();
  const bool night = vs.style.brightness == render::Brightness::Night;
  const float dim = night ? 0.55f : 1.0f;
  const ImU32 ring_col = ImGui::GetColorU32(ImVec4(0.55f, 0.75f, 0.70f, 0.45f * dim));
  const ImU32 text_col = ImGui::GetColorU32(ImVec4(0.75f, 0.90f, 0.85f, 0.85f * dim));
  const ImU32 scale_col = ImGui::GetColorU32(ImVec4(0.70f, 0.85f, 0.80f, 0.85f * dim));
  const ImU32 heading_col = ImGui::GetColorU32(ImVec4(0.95f, 0.95f, 0.95f, 0.80f * dim));
  const ImU32 sweep_col = ImGui::GetColorU32(ImVec4(0.55f, 1.0f, 0.65f, 0.75f * dim));
  const ImU32 box_col = ImGui::GetColorU32(ImVec4(1.0f, 0.80f, 0.15f, 0.95f * dim));
  // Components that are no plot (shown on request): a cool, thin outline under the plots'.
  const ImU32 blob_col = ImGui::GetColorU32(ImVec4(0.45f, 0.60f, 0.95f, 0.70f * dim));
  const ImU32 box_hover = ImGui::GetColorU32(ImVec4(1.0f, 0.3f, 0.2f, 1.0f));
  const ImU32 legend_col = ImGui::GetColorU32(ImVec4(0.85f, 1.0f, 0.90f, 0.95f * dim));
  const ImU32 plate_col = ImGui::GetColorU32(ImVec4(0.02f, 0.04f, 0.05f, 0.72f));

  const double range_m = g.frame_range_m > 0       ? g.frame_range_m
                         : eng.polar().range_m > 0 ? eng.polar().range_m
                                                   : fallback_range_m;
  if (range_m > 0) {
    if (vs.show_rings)
      draw_rings(dl, view, range_m, ring_spacing_m(range_m, vs.ring_spacing_m), ring_col, text_col);
    if (vs.show_bearing_scale)
      draw_bearing_scale(dl, view, range_m, vs.heading_deg, scale_col, text_col, heading_col);
    if (vs.show_sweep_line)
      dl->AddLine(to_screen(view, 0, 0), polar_point(view, range_m, eng.sweep_azimuth_deg()),
                  sweep_col, 2.0f);
  }

  // Plots: a box each (and, on request, the components that made no plot).
  const gpu::FrameResult* res = eng.result();
  const TargetMark* hovered = nullptr;
  std::vector<TargetMark> marks;
  if (res && vs.show_boxes && g.width > 0) marks = target_marks(*res, g, all_components);
  {
    char buf[48];
    for (const TargetMark& m : marks) {
      ImVec2 p0 = to_screen(view, m.box.e0, m.box.n0), p1 = to_screen(view, m.box.e1, m.box.n1);
      // Tiny targets still get a box big enough to see and to hover.
      const ImVec2 mid{0.5f * (p0.x + p1.x), 0.5f * (p0.y + p1.y)};
      p0 = {std::min(p0.x, mid.x - 4), std::min(p0.y, mid.y - 4)};
      p1 = {std::max(p1.x, mid.x + 4), std::max(p1.y, mid.y + 4)};
      const bool over = mouse_valid && mouse_x >= p0.x - 2 && mouse_x <= p1.x + 2 &&
                        mouse_y >= p0.y - 2 && mouse_y <= p1.y + 2;
      // Plots come last: one under the cursor wins over a component there.
      if (over) hovered = &m;
      const ImU32 col = over ? box_hover : m.plot ? box_col : blob_col;
      dl->AddRect(p0, p1, col, 0.0f, 0, over ? 2.0f : m.plot ? 1.2f : 1.0f);
      if (vs.show_box_labels) {
        std::snprintf(buf, sizeof buf, "%d  %lld", m.component->label,
                      static_cast<long long>(m.component->area));
        dl->AddText({p1.x + 3, p0.y - 2}, m.plot ? box_col : blob_col, buf);
      }
    }
  }

  // Corner texts: status top-left, the filter legend top-right, cursor readout bottom-left.
  char line[160];
  const engine::SourceView& sv = eng.source_view();
  std::snprintf(
      line, sizeof line, "%s  %s", eng.settings().source.uri.c_str(),
      sv.error.empty() ? (sv.paused ? "PAUSED" : sv.status.state.c_str()) : "SOURCE ERROR");
  dl->AddText({r.x + 10, r.y + 8}, text_col, line);
  std::snprintf(line, sizeof line, "TARGETS %d   %s%s   %.0f FPS", res ? int(res->plots.size()) : 0,
                eng.backend_name() == "cuda" ? "CUDA" : "CPU", eng.in_place() ? " (interop)" : "",
                double(ImGui::GetIO().Framerate));
  dl->AddText({r.x + 10, r.y + 26}, text_col, line);
  if (range_m > 0) {
    char rb[32];
    format_range(rb, sizeof rb, range_m);
    std::snprintf(line, sizeof line, "RANGE %s   RINGS %.2f NM   ZOOM x%.2f", rb,
                  ring_spacing_m(range_m, vs.ring_spacing_m) / kNm, view.zoom());
    dl->AddText({r.x + 10, r.y + 44}, text_col, line);
  }
  // The parameters the picture was made with; the operator's until the first frame.
  const gpu::PipelineParams& shown = res ? eng.applied_params() : eng.settings().processing.params;
  draw_legend(dl, r, filter_legend(shown, all_components), legend_col, text_col, plate_col);
  if (mouse_valid) {
    const render::WorldPoint w = view.screen_to_world(mouse_x, mouse_y);
    std::snprintf(line, sizeof line, "CURSOR  RNG %.3f NM (%.0f m)   BRG %05.1f",
                  render::range_of(w) / kNm, render::range_of(w), render::bearing_of(w));
    dl->AddText({r.x + 10, r.y + r.h - 24}, text_col, line);
  }
  dl->PopClipRect();

  if (hovered) {
    if (hovered->plot)
      plot_tooltip(*hovered->plot, *hovered->component, g);
    else
      component_tooltip(*hovered->component, g);
  }
}

}  // namespace sweepline::ui
