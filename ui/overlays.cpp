#include "ui/overlays.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/display_sink.hpp"

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

// A component's corners in world metres (pixel edges, gpu/pipeline.hpp's geometry).
struct WorldBox {
  double e0, n0, e1, n1;
};
WorldBox box_of(const ccl::Component& c, const DisplayGeometry& g) {
  const double mpp = g.metres_per_pixel;
  return {g.origin_east_m + (c.xmin - 0.5 * g.width) * mpp,
          g.origin_north_m - (c.ymin - 0.5 * g.height) * mpp,
          g.origin_east_m + (c.xmax + 1 - 0.5 * g.width) * mpp,
          g.origin_north_m - (c.ymax + 1 - 0.5 * g.height) * mpp};
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

void draw_ppi_overlays(const engine::Engine& eng, const ViewSettings& vs,
                       const render::PpiView& view, double fallback_range_m, bool mouse_valid,
                       float mouse_x, float mouse_y) {
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
  const ImU32 box_hover = ImGui::GetColorU32(ImVec4(1.0f, 0.3f, 0.2f, 1.0f));

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

  // Components: a box each (the pipeline has already applied the area filter).
  const gpu::FrameResult* res = eng.result();
  const ccl::Component* hovered = nullptr;
  if (res && vs.show_boxes && g.width > 0) {
    char buf[48];
    for (const auto& c : res->components) {
      const WorldBox b = box_of(c, g);
      ImVec2 p0 = to_screen(view, b.e0, b.n0), p1 = to_screen(view, b.e1, b.n1);
      // Tiny targets still get a box big enough to see and to hover.
      const ImVec2 mid{0.5f * (p0.x + p1.x), 0.5f * (p0.y + p1.y)};
      p0 = {std::min(p0.x, mid.x - 4), std::min(p0.y, mid.y - 4)};
      p1 = {std::max(p1.x, mid.x + 4), std::max(p1.y, mid.y + 4)};
      const bool over = mouse_valid && mouse_x >= p0.x - 2 && mouse_x <= p1.x + 2 &&
                        mouse_y >= p0.y - 2 && mouse_y <= p1.y + 2;
      if (over) hovered = &c;
      dl->AddRect(p0, p1, over ? box_hover : box_col, 0.0f, 0, over ? 2.0f : 1.2f);
      if (vs.show_box_labels) {
        std::snprintf(buf, sizeof buf, "%d  %lld", c.label, static_cast<long long>(c.area));
        dl->AddText({p1.x + 3, p0.y - 2}, box_col, buf);
      }
    }
  }

  // Corner texts: status top-left, cursor readout bottom-left.
  char line[160];
  const engine::SourceView& sv = eng.source_view();
  std::snprintf(
      line, sizeof line, "%s  %s", eng.settings().source.uri.c_str(),
      sv.error.empty() ? (sv.paused ? "PAUSED" : sv.status.state.c_str()) : "SOURCE ERROR");
  dl->AddText({r.x + 10, r.y + 8}, text_col, line);
  std::snprintf(line, sizeof line, "TARGETS %d   %s%s   %.0f FPS", res ? res->count : 0,
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
  if (mouse_valid) {
    const render::WorldPoint w = view.screen_to_world(mouse_x, mouse_y);
    std::snprintf(line, sizeof line, "CURSOR  RNG %.3f NM (%.0f m)   BRG %05.1f",
                  render::range_of(w) / kNm, render::range_of(w), render::bearing_of(w));
    dl->AddText({r.x + 10, r.y + r.h - 24}, text_col, line);
  }
  dl->PopClipRect();

  if (hovered) {
    const auto& c = *hovered;
    ImGui::BeginTooltip();
    ImGui::Text("Target %d", c.label);
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
}

}  // namespace sweepline::ui
