#include "ui/overlays.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/range_scale.hpp"

namespace sweepline::ui {

namespace {

constexpr double kNm = 1852.0;
constexpr double kPi = 3.14159265358979323846;
constexpr double kDeg = kPi / 180.0;
// The source's name in the status corner is cut to this (a simulator URI runs long).
constexpr size_t kSourceNameChars = 40;
// Room about the text on a plate.
constexpr float kPlatePad = 4.0f;

ImVec2 to_screen(const render::PpiView& view, double east, double north) {
  float x = 0, y = 0;
  view.world_to_screen({east, north}, x, y);
  return {x, y};
}

ImVec2 to_screen(const render::PpiView& view, render::WorldPoint w) {
  return to_screen(view, w.east, w.north);
}

ImVec2 polar_point(const render::PpiView& view, double range_m, double bearing_deg) {
  const double b = bearing_deg * kDeg;
  return to_screen(view, range_m * std::sin(b), range_m * std::cos(b));
}

// A unit vector on the screen (y down) for a screen bearing.
ImVec2 screen_dir(double screen_deg) {
  return {float(std::sin(screen_deg * kDeg)), float(-std::cos(screen_deg * kDeg))};
}

// Text on a dark plate, so that it reads over echoes and land alike.
void plate_text(ImDrawList* dl, ImVec2 at, ImU32 text_col, ImU32 plate_col, const char* text) {
  const ImVec2 ts = ImGui::CalcTextSize(text);
  dl->AddRectFilled({at.x - kPlatePad, at.y - 1}, {at.x + ts.x + kPlatePad, at.y + ts.y + 1},
                    plate_col, 2.0f);
  dl->AddText(at, text_col, text);
}

// Where the ray from `c` along the screen direction `d` leaves the circle about `o` of radius
// `r` (c inside it), as a distance along the ray; 0 when c is outside.
float ray_to_circle(ImVec2 c, ImVec2 d, ImVec2 o, float r) {
  const float fx = c.x - o.x, fy = c.y - o.y;
  const float b = fx * d.x + fy * d.y, cc = fx * fx + fy * fy - r * r;
  const float disc = b * b - cc;
  if (cc > 0 || disc < 0) return 0;
  return -b + std::sqrt(disc);
}

void draw_rings(ImDrawList* dl, const render::PpiView& view, double spacing, ImU32 col,
                ImU32 text_col, ImU32 plate_col) {
  const ImVec2 c = to_screen(view, 0, 0);
  const render::ScreenRect& r = view.rect();
  // Rings over the display circle, however far off-centre the radar is: out to the circle's
  // far edge as seen from the radar.
  const double off = std::hypot(view.radar_offset_x(), view.radar_offset_y());
  const double far_m = view.range_scale_m() * (1.0 + off);
  if (spacing <= 0 || far_m / spacing > 400) return;
  char buf[32];
  // Labels go on the first of these screen bearings where they fit inside the picture, clear of
  // the panels' edges and the corner texts: upper right first (clear of the heading line).
  static const double kLabelBearings[] = {45, 135, 315, 225, 90, 270, 0, 180};
  for (int k = 1; k * spacing < far_m + 1e-6; ++k) {
    const double rm = k * spacing;
    const float rp = float(rm * view.px_per_m());
    if (rp < 6) continue;
    dl->AddCircle(c, rp, col, std::clamp(int(rp / 3), 48, 512), 1.0f);
    std::snprintf(buf, sizeof buf, "%s", format_nm(rm / kNm).c_str());
    const ImVec2 ts = ImGui::CalcTextSize(buf);
    for (double b : kLabelBearings) {
      const ImVec2 d = screen_dir(b);
      const ImVec2 p{c.x + d.x * rp + 3, c.y + d.y * rp - ts.y - 1};
      if (p.x - kPlatePad < r.x + 4 || p.y < r.y + 70 || p.x + ts.x + kPlatePad > r.x + r.w - 4 ||
          p.y + ts.y > r.y + r.h - 30)
        continue;
      plate_text(dl, p, text_col, plate_col, buf);
      break;
    }
  }
}

// The bearing scale on the display circle, fixed to the screen; it reads true or relative
// bearings as the orientation says (render/orientation.hpp).
// A label whose place outside the circle falls on one of `avoid` (the corner plates, min/max
// corners) is drawn just inside it instead.
void draw_bearing_scale(ImDrawList* dl, const render::PpiView& view, const PictureState& pic,
                        ImU32 col, ImU32 text_col, const std::vector<ImVec4>& avoid) {
  const render::ScreenRect& r = view.rect();
  const ImVec2 c{r.x + 0.5f * r.w, r.y + 0.5f * r.h};
  const float r_px = float(view.radius_px());
  dl->AddCircle(c, r_px, col, std::clamp(int(r_px / 3), 64, 512), 1.5f);
  // Scale ticks every 5 degrees of the bearing read, labels every 30: the scale turns with the
  // picture, so the ticks sit at the screen bearings of round bearings.
  const double zero_at =
      render::wrap360(-render::scale_bearing_at(pic.orientation, 0, pic.heading_deg,
                                                pic.course_up_deg));  // screen bearing of 000
  char buf[8];
  for (int deg = 0; deg < 360; deg += 5) {
    const bool ten = deg % 10 == 0;
    const float len = deg % 30 == 0 ? 12.0f : ten ? 8.0f : 4.0f;
    const ImVec2 dir = screen_dir(zero_at + deg);
    const ImVec2 p0{c.x + dir.x * r_px, c.y + dir.y * r_px};
    const ImVec2 p1{p0.x + dir.x * len, p0.y + dir.y * len};
    dl->AddLine(p0, p1, col, ten ? 1.5f : 1.0f);
    if (deg % 30 == 0) {
      std::snprintf(buf, sizeof buf, "%03d", deg);
      const ImVec2 ts = ImGui::CalcTextSize(buf);
      const float half = 0.5f * std::max(ts.x, ts.y);
      float tr = r_px + len + 4 + half;
      auto hits = [&](float rad) {
        const float x0 = c.x + dir.x * rad - 0.5f * ts.x, y0 = c.y + dir.y * rad - 0.5f * ts.y;
        for (const ImVec4& a : avoid)
          if (x0 < a.z && x0 + ts.x > a.x && y0 < a.w && y0 + ts.y > a.y) return true;
        return false;
      };
      if (hits(tr)) tr = r_px - 4 - half;
      dl->AddText({c.x + dir.x * tr - 0.5f * ts.x, c.y + dir.y * tr - 0.5f * ts.y}, text_col, buf);
    }
  }
}

// The heading line: from the radar along the bow (relative 000) to the display circle, with a
// triangle there.
void draw_heading_line(ImDrawList* dl, const render::PpiView& view, ImU32 heading_col) {
  const render::ScreenRect& r = view.rect();
  const ImVec2 o{r.x + 0.5f * r.w, r.y + 0.5f * r.h};
  const ImVec2 c = to_screen(view, 0, 0);
  const ImVec2 d = screen_dir(view.screen_bearing(0));
  const float len = ray_to_circle(c, d, o, float(view.radius_px()));
  if (len <= 0) return;
  const ImVec2 n{-d.y, d.x};
  const ImVec2 tip{c.x + d.x * len, c.y + d.y * len};
  dl->AddLine(c, tip, heading_col, 1.5f);
  dl->AddTriangleFilled({tip.x + d.x * 14 + n.x * 7, tip.y + d.y * 14 + n.y * 7},
                        {tip.x + d.x * 14 - n.x * 7, tip.y + d.y * 14 - n.y * 7}, tip, heading_col);
}

// A dashed line: EBL1 long dashes, EBL2 short ones, so that the two are told apart.
void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float dash, float gap,
                 float thick) {
  const float len = std::hypot(b.x - a.x, b.y - a.y);
  if (len < 1) return;
  const ImVec2 d{(b.x - a.x) / len, (b.y - a.y) / len};
  for (float t = 0; t < len; t += dash + gap) {
    const float e = std::min(t + dash, len);
    dl->AddLine({a.x + d.x * t, a.y + d.y * t}, {a.x + d.x * e, a.y + d.y * e}, col, thick);
  }
}

void draw_markers(ImDrawList* dl, const render::PpiView& view, const PictureState& pic, ImU32 col1,
                  ImU32 col2, ImU32 erbl_col) {
  if (!pic.markers) return;
  const render::ScreenRect& r = view.rect();
  // Long enough to cross the picture from anywhere on it.
  const double length_m = 2.0 * double(std::hypot(r.w, r.h)) / view.px_per_m();
  // VRMs dashed like their EBLs; a floating origin is a cross; the ERBL a line with end marks.
  for (int i = 0; i < kMarkers; ++i) {
    const Marker& m = pic.markers->marker[size_t(i)];
    const ImU32 col = i == 0 ? col1 : col2;
    const float thick = i == pic.markers->active ? 1.6f : 1.2f;
    const ImVec2 o = to_screen(view, origin_video(m, pic.heading_deg));
    if (m.ebl_on) {
      render::WorldPoint a, b;
      ebl_segment(m, pic.heading_deg, length_m, a, b);
      dashed_line(dl, to_screen(view, a), to_screen(view, b), col, i == 0 ? 10.0f : 4.0f,
                  i == 0 ? 5.0f : 4.0f, thick);
    }
    if (m.vrm_on && m.vrm_m > 0) {
      const float rp = float(m.vrm_m * view.px_per_m());
      const int segs = std::clamp(int(rp / 2), 48, 720);
      // Dashed like its EBL: every other segment of the circle.
      for (int k = 0; k < segs; k += 2) {
        const double a0 = 2 * kPi * k / segs, a1 = 2 * kPi * (k + 1) / segs;
        dl->AddLine({o.x + rp * float(std::sin(a0)), o.y - rp * float(std::cos(a0))},
                    {o.x + rp * float(std::sin(a1)), o.y - rp * float(std::cos(a1))}, col, thick);
      }
    }
    if (m.floating && (m.ebl_on || m.vrm_on)) {
      dl->AddLine({o.x - 6, o.y}, {o.x + 6, o.y}, col, 1.5f);
      dl->AddLine({o.x, o.y - 6}, {o.x, o.y + 6}, col, 1.5f);
    }
  }
  const Erbl& e = pic.markers->erbl;
  if (e.on) {
    const ImVec2 a = to_screen(view, true_to_video(e.a, pic.heading_deg));
    const ImVec2 b = to_screen(view, true_to_video(e.b, pic.heading_deg));
    dl->AddLine(a, b, erbl_col, 1.5f);
    dl->AddCircle(a, 4, erbl_col, 12, 1.5f);
    dl->AddCircleFilled(b, 3.5f, erbl_col, 12);
  }
}

}  // namespace

double ring_spacing_m(double range_m, double requested) {
  return requested > 0 ? requested : ring_interval_m(range_m);
}

std::string range_readout(const render::PpiView& view, double spacing_m) {
  return "RANGE " + format_nm(view.range_scale_m() / kNm) + " NM   RINGS " +
         format_nm(spacing_m / kNm) + " NM";
}

std::string orientation_readout(const PictureState& pic) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s  %s%s   HDG %05.1f T%s", render::short_name(pic.orientation),
                render::short_name(pic.motion), pic.true_motion_held ? " (NO POSITION)" : "",
                render::wrap360(pic.heading_deg), pic.heading_measured ? "" : " (MAN)");
  return buf;
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
constexpr float kLegendPad = 6;

// The legend's plate (min x, min y, max x, max y).
ImVec4 legend_box(const render::ScreenRect& r, const std::vector<std::string>& lines) {
  const float line_h = ImGui::GetTextLineHeight() + 2;
  float w = 0;
  for (const auto& l : lines) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
  const float x1 = r.x + r.w - 10, y0 = r.y + 8;
  return {x1 - w - 2 * kLegendPad, y0, x1, y0 + 2 * kLegendPad + line_h * float(lines.size()) - 2};
}

void draw_legend(ImDrawList* dl, const render::ScreenRect& r, const std::vector<std::string>& lines,
                 ImU32 first_col, ImU32 rest_col, ImU32 plate_col) {
  const float pad = kLegendPad, line_h = ImGui::GetTextLineHeight() + 2;
  const ImVec4 box = legend_box(r, lines);
  const float x1 = box.z, y0 = box.y;
  dl->AddRectFilled({box.x, box.y}, {box.z, box.w}, plate_col, 3.0f);
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

int draw_ppi_overlays(const engine::Engine& eng, const ViewSettings& vs,
                      const render::PpiView& view, const PictureState& pic, bool all_components,
                      double fallback_range_m, bool mouse_valid, float mouse_x, float mouse_y) {
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const render::ScreenRect& r = view.rect();
  dl->PushClipRect({r.x, r.y}, {r.x + r.w, r.y + r.h}, true);
  const DisplayGeometry g = eng.geometry();
  const bool night = vs.style.brightness == render::Brightness::Night;
  const float dim = night ? 0.55f : 1.0f;
  const ImU32 ring_col = ImGui::GetColorU32(ImVec4(0.55f, 0.75f, 0.70f, 0.45f * dim));
  const ImU32 text_col = ImGui::GetColorU32(ImVec4(0.75f, 0.90f, 0.85f, 0.95f * dim));
  const ImU32 scale_col = ImGui::GetColorU32(ImVec4(0.70f, 0.85f, 0.80f, 0.85f * dim));
  const ImU32 heading_col = ImGui::GetColorU32(ImVec4(0.95f, 0.95f, 0.95f, 0.80f * dim));
  const ImU32 sweep_col = ImGui::GetColorU32(ImVec4(0.55f, 1.0f, 0.65f, 0.75f * dim));
  const ImU32 box_col = ImGui::GetColorU32(ImVec4(1.0f, 0.80f, 0.15f, 0.95f * dim));
  // Components that are no plot (shown on request): a cool, thin outline under the plots'.
  const ImU32 blob_col = ImGui::GetColorU32(ImVec4(0.45f, 0.60f, 0.95f, 0.70f * dim));
  const ImU32 box_hover = ImGui::GetColorU32(ImVec4(1.0f, 0.3f, 0.2f, 1.0f));
  const ImU32 legend_col = ImGui::GetColorU32(ImVec4(0.85f, 1.0f, 0.90f, 0.95f * dim));
  const ImU32 plate_col = ImGui::GetColorU32(ImVec4(0.02f, 0.04f, 0.05f, 0.72f));
  // EBL/VRM 1 and 2 and the ERBL: colours no echo, track or box uses.
  const ImU32 ebl1_col = ImGui::GetColorU32(ImVec4(1.0f, 0.55f, 0.85f, 0.95f * dim));
  const ImU32 ebl2_col = ImGui::GetColorU32(ImVec4(0.75f, 0.65f, 1.0f, 0.95f * dim));
  const ImU32 erbl_col = ImGui::GetColorU32(ImVec4(1.0f, 1.0f, 1.0f, 0.95f * dim));

  const double video_range_m = g.frame_range_m > 0       ? g.frame_range_m
                               : eng.polar().range_m > 0 ? eng.polar().range_m
                                                         : fallback_range_m;
  const double spacing = ring_spacing_m(view.range_scale_m(), vs.ring_spacing_m);
  const gpu::FrameResult* res = eng.result();
  // The corner plates' text and places first: the bearing scale keeps its labels off them.
  std::vector<std::string> status;
  char line[160];
  const engine::SourceView& sv = eng.source_view();
  // A file's name, not its whole path: the corner is shared with the filter legend.
  const std::string& uri = eng.settings().source.uri;
  const size_t slash = uri.rfind('/');
  std::string name = uri.find("://") == std::string::npos && slash != std::string::npos
                         ? uri.substr(slash + 1)
                         : uri;
  if (name.size() > kSourceNameChars) name = name.substr(0, kSourceNameChars - 3) + "...";
  std::snprintf(
      line, sizeof line, "%s  %s", name.c_str(),
      sv.error.empty() ? (sv.paused ? "PAUSED" : sv.status.state.c_str()) : "SOURCE ERROR");
  status.emplace_back(line);
  std::snprintf(line, sizeof line, "TARGETS %d   %s%s   %.0f FPS", res ? int(res->plots.size()) : 0,
                eng.backend_name() == "cuda" ? "CUDA" : "CPU", eng.in_place() ? " (interop)" : "",
                double(ImGui::GetIO().Framerate));
  status.emplace_back(line);
  status.push_back(range_readout(view, spacing));
  status.push_back(orientation_readout(pic));
  const float line_h = ImGui::GetTextLineHeight() + 2;
  ImVec4 status_box;
  {
    float w = 0;
    for (const auto& l : status) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
    status_box = {r.x + 8, r.y + 6, r.x + 8 + w + 2 * kPlatePad + 4,
                  r.y + 6 + line_h * float(status.size()) + 6};
  }
  // The parameters the picture was made with; the operator's until the first frame.
  const gpu::PipelineParams& shown = res ? eng.applied_params() : eng.settings().processing.params;
  const std::vector<std::string> legend = filter_legend(shown, all_components);

  if (vs.show_rings) draw_rings(dl, view, spacing, ring_col, text_col, plate_col);
  if (vs.show_bearing_scale) {
    draw_bearing_scale(dl, view, pic, scale_col, text_col, {status_box, legend_box(r, legend)});
    draw_heading_line(dl, view, heading_col);
  }
  if (vs.show_sweep_line && video_range_m > 0) {
    const ImVec2 c = to_screen(view, 0, 0);
    const ImVec2 e = polar_point(view, video_range_m, eng.sweep_azimuth_deg());
    dl->AddLine(c, e, sweep_col, 2.0f);
  }
  draw_markers(dl, view, pic, ebl1_col, ebl2_col, erbl_col);

  // Plots: a box each (and, on request, the components that made no plot), turned with the
  // picture.
  const TargetMark* hovered = nullptr;
  std::vector<TargetMark> marks;
  if (res && vs.show_boxes && g.width > 0) marks = target_marks(*res, g, all_components);
  {
    char buf[48];
    for (const TargetMark& m : marks) {
      ImVec2 q[4] = {to_screen(view, m.box.e0, m.box.n0), to_screen(view, m.box.e1, m.box.n0),
                     to_screen(view, m.box.e1, m.box.n1), to_screen(view, m.box.e0, m.box.n1)};
      ImVec2 lo = q[0], hi = q[0];
      for (const ImVec2& p : q) {
        lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
        hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
      }
      // Tiny targets still get a box big enough to see and to hover.
      const ImVec2 mid{0.5f * (lo.x + hi.x), 0.5f * (lo.y + hi.y)};
      const bool tiny = hi.x - lo.x < 8 || hi.y - lo.y < 8;
      if (tiny) {
        lo = {std::min(lo.x, mid.x - 4), std::min(lo.y, mid.y - 4)};
        hi = {std::max(hi.x, mid.x + 4), std::max(hi.y, mid.y + 4)};
        q[0] = lo;
        q[1] = {hi.x, lo.y};
        q[2] = hi;
        q[3] = {lo.x, hi.y};
      }
      const bool over = mouse_valid && mouse_x >= lo.x - 2 && mouse_x <= hi.x + 2 &&
                        mouse_y >= lo.y - 2 && mouse_y <= hi.y + 2;
      // Plots come last: one under the cursor wins over a component there.
      if (over) hovered = &m;
      const ImU32 col = over ? box_hover : m.plot ? box_col : blob_col;
      dl->AddQuad(q[0], q[1], q[2], q[3], col, over ? 2.0f : m.plot ? 1.2f : 1.0f);
      if (vs.show_box_labels) {
        std::snprintf(buf, sizeof buf, "%d  %lld", m.component->label,
                      static_cast<long long>(m.component->area));
        dl->AddText({hi.x + 3, lo.y - 2}, m.plot ? box_col : blob_col, buf);
      }
    }
  }

  // Corner texts on plates: status top-left, the filter legend top-right, the EBL/VRM readouts
  // and the cursor readout bottom-left.
  dl->AddRectFilled({status_box.x, status_box.y}, {status_box.z, status_box.w}, plate_col, 3.0f);
  for (size_t i = 0; i < status.size(); ++i)
    dl->AddText({status_box.x + kPlatePad + 2, status_box.y + 3 + line_h * float(i)}, text_col,
                status[i].c_str());
  draw_legend(dl, r, legend, legend_col, text_col, plate_col);
  if (pic.markers) {
    std::vector<std::pair<std::string, ImU32>> rows;
    for (int i = 0; i < kMarkers; ++i) {
      const Marker& m = pic.markers->marker[size_t(i)];
      const ImU32 col = i == 0 ? ebl1_col : ebl2_col;
      if (m.ebl_on) rows.emplace_back(ebl_readout(i, m), col);
      if (m.vrm_on) rows.emplace_back(vrm_readout(i, m), col);
    }
    if (pic.markers->erbl.on) rows.emplace_back(erbl_readout(pic.markers->erbl), erbl_col);
    // Bottom-left above the cursor's line (the tracking legend and alarms take bottom-right).
    float y = r.y + r.h - 30 - line_h * float(rows.size());
    for (const auto& [text, col] : rows) {
      plate_text(dl, {r.x + 12, y}, col, plate_col, text.c_str());
      y += line_h;
    }
  }
  if (mouse_valid) {
    const render::WorldPoint w = view.screen_to_world(mouse_x, mouse_y);
    // The cursor's bearing reads like the scale: true, or relative in head-up.
    const bool true_brg = render::scale_is_true(pic.orientation);
    const double brg = render::wrap360(render::bearing_of(w) + (true_brg ? pic.heading_deg : 0.0));
    std::snprintf(line, sizeof line, "CURSOR  RNG %.3f NM (%.0f m)   BRG %05.1f %s",
                  render::range_of(w) / kNm, render::range_of(w), brg, true_brg ? "T" : "R");
    // A narrow PPI leaves no room beside the tracking legend in the other bottom corner: the
    // metres go first.
    if (ImGui::CalcTextSize(line).x > 0.5f * r.w - 24)
      std::snprintf(line, sizeof line, "CURSOR %.3f NM  %05.1f %s", render::range_of(w) / kNm, brg,
                    true_brg ? "T" : "R");
    plate_text(dl, {r.x + 12, r.y + r.h - 24}, text_col, plate_col, line);
  }
  if (!pic.message.empty()) {
    const ImVec2 ts = ImGui::CalcTextSize(pic.message.c_str());
    plate_text(dl, {r.x + 0.5f * (r.w - ts.x), r.y + r.h - 56}, legend_col, plate_col,
               pic.message.c_str());
  }
  dl->PopClipRect();

  if (hovered) {
    if (hovered->plot)
      plot_tooltip(*hovered->plot, *hovered->component, g);
    else
      component_tooltip(*hovered->component, g);
  }
  return int(status.size());
}

const std::vector<KeyHelpRow>& key_help_rows() {
  static const std::vector<KeyHelpRow> rows = {
      {"F1  ?", "this help (again: close)"},
      {"+  -  Up  Down  wheel", "shorter / longer range scale"},
      {"PgDn  PgUp", "shorter / longer range scale"},
      {"O", "orientation: north-up, head-up, course-up"},
      {"M", "motion: relative, true"},
      {"C", "off-centre on / off"},
      {"R  double-click", "reset: centre (or off-centre), true-motion reset"},
      {"drag", "move the picture"},
      {"1  2", "EBL/VRM 1 or 2 active (on)"},
      {"E  V", "active EBL / VRM on or off"},
      {"[  ]", "active EBL -1 / +1 deg (Shift: 0.1 deg)"},
      {",  .", "active VRM shorter / longer (1 % of the scale)"},
      {"T", "active EBL true / relative"},
      {"Ctrl+click", "active EBL and VRM through that point"},
      {"D", "drop the active EBL/VRM origin at the cursor (again: own ship)"},
      {"Shift+drag", "ERBL from press to release (B: on / off)"},
      {"click", "select a target, else acquire there"},
      {"right-click", "target menu"},
      {"Del  A  Esc", "cancel target / acknowledge alarms / stop a zone or clear"},
      {"Enter  Backspace", "polygon zone: close it / remove the last vertex"},
      {"Space  Left  Right", "pause / step a rotation back, forward"},
      {"S", "screenshot (saved in the working folder)"},
      {"F  H", "fullscreen / hide the panels"},
  };
  return rows;
}

void draw_key_help(bool* open) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos({0.5f * io.DisplaySize.x, 0.5f * io.DisplaySize.y}, ImGuiCond_Always,
                          {0.5f, 0.5f});
  ImGui::SetNextWindowBgAlpha(0.92f);
  if (ImGui::Begin("Keys (F1)", open,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_NoSavedSettings)) {
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      for (const KeyHelpRow& k : key_help_rows()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(ImVec4(0.45f, 0.95f, 0.80f, 1.0f), "%s", k.keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(k.what);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

}  // namespace sweepline::ui
