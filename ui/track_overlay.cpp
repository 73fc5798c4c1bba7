#include "ui/track_overlay.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/track_view.hpp"

namespace sweepline::ui {

namespace {

constexpr float kPiF = 3.14159265f;
// Symbol sizes in screen pixels: a target's symbol keeps its size at every zoom (IEC 62288
// symbols are sized for reading, not to scale); positions, vectors and trails scale.
constexpr float kSymbolRadiusPx = 7.0f;
constexpr float kSelectHalfPx = 12.0f;  // the selection square's half side
constexpr float kOwnInnerPx = 4.0f, kOwnOuterPx = 8.0f;
constexpr float kHandleHalfPx = 4.0f;  // a zone handle's square; picked within 10 px (console)
constexpr float kVertexRadiusPx = 3.0f;

ImVec2 screen(const render::PpiView& view, render::WorldPoint w) {
  float x = 0, y = 0;
  view.world_to_screen(w, x, y);
  return {x, y};
}

ImU32 colour(float r, float g, float b, float a) {
  return ImGui::GetColorU32(ImVec4(r, g, b, a));
}

// A dark plate behind corner text, so that it reads over echoes.
void text_block(ImDrawList* dl, ImVec2 at, bool right_aligned,
                const std::vector<std::string>& lines, const std::vector<ImU32>& cols,
                ImU32 plate) {
  const float pad = 6, line_h = ImGui::GetTextLineHeight() + 2;
  float w = 0;
  for (const auto& l : lines) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
  const float x0 = right_aligned ? at.x - w - 2 * pad : at.x;
  dl->AddRectFilled({x0, at.y},
                    {x0 + w + 2 * pad, at.y + 2 * pad + line_h * float(lines.size()) - 2}, plate,
                    3.0f);
  for (size_t i = 0; i < lines.size(); ++i)
    dl->AddText({x0 + pad, at.y + pad + line_h * float(i)}, cols[std::min(i, cols.size() - 1)],
                lines[i].c_str());
}

float block_height(size_t lines) {
  return 2 * 6 + (ImGui::GetTextLineHeight() + 2) * float(lines) - 2;
}

void draw_symbol(ImDrawList* dl, ImVec2 c, const TrackSymbol& s, ImU32 col, float thick) {
  const float r = kSymbolRadiusPx;
  switch (s.shape) {
    case SymbolShape::Acquiring:
      // A broken circle: eight arcs with gaps.
      for (int i = 0; i < 8; ++i) {
        const float a0 = float(i) * kPiF / 4.0f;
        dl->PathArcTo(c, r, a0, a0 + kPiF / 8.0f, 4);
        dl->PathStroke(col, 0, thick);
      }
      break;
    case SymbolShape::Tracked:
      dl->AddCircle(c, r, col, 20, thick);
      break;
    case SymbolShape::Lost: {
      dl->AddCircle(c, r, col, 20, thick);
      const float d = r * 1.5f;
      dl->AddLine({c.x - d, c.y - d}, {c.x + d, c.y + d}, col, thick + 0.5f);
      dl->AddLine({c.x - d, c.y + d}, {c.x + d, c.y - d}, col, thick + 0.5f);
      break;
    }
  }
}

// The selection: a square shown by its corners, clear of the symbol.
void draw_selection(ImDrawList* dl, ImVec2 c, ImU32 col) {
  const float h = kSelectHalfPx, k = 5.0f;
  const ImVec2 corners[4] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (const ImVec2& q : corners) {
    const ImVec2 p{c.x + q.x * h, c.y + q.y * h};
    dl->AddLine(p, {p.x - q.x * k, p.y}, col, 1.5f);
    dl->AddLine(p, {p.x, p.y - q.y * k}, col, 1.5f);
  }
}

}  // namespace

void draw_tracking_overlay(const engine::TrackingView& v, const ViewSettings& vs,
                           const render::PpiView& view, const TrackOverlayState& st) {
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const render::ScreenRect& r = view.rect();
  dl->PushClipRect({r.x, r.y}, {r.x + r.w, r.y + r.h}, true);
  const bool night = vs.style.brightness == render::Brightness::Night;
  const float dim = night ? 0.55f : 1.0f;
  const ImU32 track_col = colour(0.55f, 0.92f, 1.0f, 0.95f * dim);
  const ImU32 acq_col = colour(0.55f, 0.92f, 1.0f, 0.80f * dim);
  const ImU32 lost_col = colour(1.0f, 0.70f, 0.25f, 0.95f * dim);
  const ImU32 danger_col = colour(1.0f, 0.18f, 0.15f, 1.0f * std::max(dim, 0.8f));
  const ImU32 danger_dim = colour(1.0f, 0.35f, 0.30f, 0.60f);
  const ImU32 faint_col = colour(0.75f, 0.80f, 0.85f, 0.55f);
  const ImU32 trail_col = colour(0.55f, 0.92f, 1.0f, 0.80f * dim);
  const ImU32 zone_col = colour(0.85f, 0.55f, 1.0f, 0.70f * dim);
  const ImU32 edit_col = colour(0.95f, 0.80f, 1.0f, 0.95f * std::max(dim, 0.8f));
  const ImU32 own_col = colour(0.97f, 0.97f, 0.97f, 0.90f * dim);
  const ImU32 text_col = colour(0.75f, 0.90f, 0.85f, 0.90f * dim);
  const ImU32 warn_col = colour(1.0f, 0.75f, 0.25f, 1.0f);
  const ImU32 plate_col = colour(0.02f, 0.04f, 0.05f, 0.72f);
  const bool flash = flash_on(st.time_s);
  const PlaneToDisplay f = plane_to_display(v);
  const engine::TrackingSettings& ts = v.settings;
  const VectorMode mode = f.ground ? vector_mode(ts) : VectorMode::Relative;

  // Acquisition zones, under everything else.
  char buf[96];
  for (const auto& [id, stored] : v.zones) {
    // The zone being edited: brighter, where a drag has it, with its handles.
    const bool edited = id == st.edit_zone;
    const track::AcquisitionZone& z = edited && st.edit_preview ? *st.edit_preview : stored;
    const ImU32 col = edited ? edit_col : zone_col;
    for (const auto& loop : zone_outline(z, f)) {
      std::vector<ImVec2> pts;
      pts.reserve(loop.size());
      for (const render::WorldPoint& w : loop) pts.push_back(screen(view, w));
      dl->AddPolyline(pts.data(), int(pts.size()), col, ImDrawFlags_Closed, edited ? 2.0f : 1.5f);
      if (!pts.empty()) {
        std::snprintf(buf, sizeof buf, "Z%d", id);
        dl->AddText({pts[0].x + 3, pts[0].y + 2}, col, buf);
      }
    }
    if (edited)
      for (const render::WorldPoint& w : zone_handles(z, f)) {
        const ImVec2 c = screen(view, w);
        const float h = kHandleHalfPx;
        dl->AddRectFilled({c.x - h, c.y - h}, {c.x + h, c.y + h}, plate_col);
        dl->AddRect({c.x - h, c.y - h}, {c.x + h, c.y + h}, edit_col, 0, 0, 1.5f);
      }
  }
  // A polygon being drawn: its edges so far, the edge to the cursor and, faintly, the one that
  // would close it; the first vertex ringed once a click there closes it.
  if (st.polygon_armed && !st.polygon.empty()) {
    std::vector<ImVec2> pts;
    for (const track::ZonePoint& p : st.polygon)
      pts.push_back(screen(view, to_display(f, p.x_m, p.y_m)));
    if (pts.size() > 1) dl->AddPolyline(pts.data(), int(pts.size()), edit_col, 0, 1.5f);
    for (const ImVec2& p : pts) dl->AddCircleFilled(p, kVertexRadiusPx, edit_col, 8);
    if (st.polygon.size() >= 3)
      dl->AddCircle(pts.front(), 2.5f * kVertexRadiusPx, edit_col, 16, 1.5f);
    if (st.mouse_valid) {
      const ImVec2 m{st.mouse_x, st.mouse_y};
      dl->AddLine(pts.back(), m, edit_col, 1.0f);
      if (pts.size() >= 2) dl->AddLine(m, pts.front(), zone_col, 1.0f);
    }
  }
  // A zone being drawn: its outline from the first corner to the cursor.
  if (st.zone_armed && st.zone_first && st.mouse_valid) {
    const render::WorldPoint m = view.screen_to_world(st.mouse_x, st.mouse_y);
    const track::AcquisitionZone z = arc_zone_from_points(f, *st.zone_first, m, st.zone_relative);
    if (z.range_max_m > z.range_min_m)
      for (const auto& loop : zone_outline(z, f)) {
        std::vector<ImVec2> pts;
        for (const render::WorldPoint& w : loop) pts.push_back(screen(view, w));
        dl->AddPolyline(pts.data(), int(pts.size()), zone_col, ImDrawFlags_Closed, 1.0f);
      }
  }

  // Own ship at the PPI's centre: its symbol (two circles), heading line and speed vector.
  const bool own_known = f.ground || v.own_ship.heading_valid;
  if (v.enabled) {
    const ImVec2 c = screen(view, {0, 0});
    dl->AddCircle(c, kOwnInnerPx, own_col, 16, 1.5f);
    dl->AddCircle(c, kOwnOuterPx, own_col, 20, 1.5f);
    if (own_known && st.range_m > 0) {
      // The PPI is head-up: the heading's plane bearing minus the PPI's up (zero unless the
      // relative plane has no heading).
      const double h = v.own_ship.heading_deg + (f.ground ? v.own_ship.true_to_grid_deg : 0.0);
      const render::WorldPoint d =
          rotate_to_display(f, std::sin(h * kPiF / 180.0), std::cos(h * kPiF / 180.0));
      dl->AddLine(c, screen(view, {d.east * st.range_m, d.north * st.range_m}), own_col, 1.2f);
    }
    if (f.ground && mode == VectorMode::True && ts.vector_minutes > 0) {
      const render::WorldPoint d = rotate_to_display(f, f.own_vx_mps, f.own_vy_mps);
      const double s = ts.vector_minutes * 60.0;
      const ImVec2 e = screen(view, {d.east * s, d.north * s});
      dl->AddLine(c, e, own_col, 2.5f);
    }
  }

  // Tracks: trails, vectors, symbols, ids.
  int selected_index = -1;
  for (size_t i = 0; i < v.tracks.size(); ++i) {
    const track::Track& t = v.tracks[i];
    const TrackSymbol sym = track_symbol(t, v.alarms, st.selected_id);
    if (sym.selected) selected_index = int(i);
    const TrackGlyph g = track_glyph(t, f, mode, ts.vector_minutes, ts.trails);
    const ImVec2 c = screen(view, g.position);
    if (c.x < r.x - 200 || c.x > r.x + r.w + 200 || c.y < r.y - 200 || c.y > r.y + r.h + 200)
      continue;  // far off the picture (a vector from outside may still reach in: margin)
    const int n = int(g.trail.size());
    for (int k = 0; k < n; ++k) {
      // Older dots fainter; the newest is the symbol itself, so it is not drawn.
      const ImVec4 tc = ImGui::ColorConvertU32ToFloat4(trail_col);
      const float a = tc.w * (0.45f + 0.55f * float(k + 1) / float(n));
      dl->AddCircleFilled(screen(view, g.trail[size_t(k)]), 2.2f, colour(tc.x, tc.y, tc.z, a), 8);
    }
    ImU32 col = sym.shape == SymbolShape::Lost        ? lost_col
                : sym.shape == SymbolShape::Acquiring ? acq_col
                                                      : track_col;
    if (v.remote && sym.shape != SymbolShape::Lost) {
      // A display client: each server's tracks in its source's colour.
      const Rgb sc = source_colour(engine::remote_source_of(t.id));
      col = colour(sc.r, sc.g, sc.b, (sym.shape == SymbolShape::Acquiring ? 0.80f : 0.95f) * dim);
    }
    float thick = 1.5f;
    if (sym.dangerous) {
      col = danger_col;
      thick = 3.0f;
    }
    const ImU32 steady = col;
    if (sym.flashing && !flash) {
      // The dark half of a flash: fainter and thinner, never gone, so that a still picture
      // (a screenshot, a glance) still shows every target.
      col = sym.dangerous ? danger_dim : faint_col;
      thick = 1.2f;
    }
    if (sym.vector && g.vector) dl->AddLine(c, screen(view, g.vector_end), col, thick);
    draw_symbol(dl, c, sym, col, thick);
    if (sym.selected) draw_selection(dl, c, steady);
    dl->AddText({c.x + kSymbolRadiusPx + 2, c.y + 2}, col, track_label(t, v.remote).c_str());
  }

  // Corners. Top-left under the status lines: the selected target's data box.
  const float line_h = ImGui::GetTextLineHeight() + 4;
  if (selected_index >= 0) {
    const track::Track& t = v.tracks[size_t(selected_index)];
    const std::vector<std::string> lines = data_box_lines(t, f.ground);
    std::vector<ImU32> cols(lines.size(), text_col);
    if (lines.back() == "DANGEROUS") cols.back() = danger_col;
    text_block(dl, {r.x + 10, r.y + 12 + line_h * float(st.status_lines)}, false, lines, cols,
               plate_col);
  }

  // Bottom-right: alarm banner, warning, then the tracking legend at the bottom.
  // Tracking off: nothing of it on the PPI (the Tracking panel says it is off).
  if (!v.enabled) {
    dl->PopClipRect();
    return;
  }
  std::vector<std::string> legend;
  {
    int acq = 0, lost = 0, danger = 0;
    for (const track::Track& t : v.tracks) {
      acq += t.status == track::Track::Status::Acquiring;
      lost += t.status == track::Track::Status::Lost;
      danger += t.dangerous && t.status != track::Track::Status::Lost;
    }
    std::snprintf(buf, sizeof buf, "TRACKS %d  ACQ %d  LOST %d  DANGER %d", int(v.tracks.size()),
                  acq, lost, danger);
    legend.push_back(buf);
    if (ts.trails)
      std::snprintf(buf, sizeof buf, "VECTOR %s %.0f MIN  TRAILS %s %.0f MIN",
                    mode == VectorMode::True ? "T" : "R", ts.vector_minutes,
                    mode == VectorMode::True ? "T" : "R", ts.trail_minutes);
    else
      std::snprintf(buf, sizeof buf, "VECTOR %s %.0f MIN  TRAILS OFF",
                    mode == VectorMode::True ? "T" : "R", ts.vector_minutes);
    legend.push_back(buf);
    std::snprintf(buf, sizeof buf, "CPA LIM %.2f NM  TCPA LIM %.0f MIN%s", ts.cpa_limit_nm,
                  ts.tcpa_limit_min, ts.auto_acquire ? "  AUTO ACQ" : "");
    legend.push_back(buf);
  }
  const float right = r.x + r.w - 10;
  float bottom = r.y + r.h - 8;
  bottom -= block_height(legend.size());
  text_block(dl, {right, bottom}, true, legend, {text_col}, plate_col);

  if (!v.warning.empty() || v.relative_only) {
    std::vector<std::string> lines;
    if (v.warning.empty()) lines.push_back("RELATIVE TRACKS: NO OWN-SHIP POSITION");
    // The engine's text may be long: break it at spaces to about 60 characters a line.
    std::string rest = v.warning;
    while (!rest.empty()) {
      size_t cut = rest.size() <= 60 ? rest.size() : rest.rfind(' ', 60);
      if (cut == std::string::npos || cut == 0) cut = std::min<size_t>(rest.size(), 60);
      lines.push_back(rest.substr(0, cut));
      rest = rest.substr(cut);
      while (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
    }
    bottom -= block_height(lines.size()) + 4;
    text_block(dl, {right, bottom}, true, lines, {warn_col}, plate_col);
  }

  const track::Alarm* latest = nullptr;
  for (const track::Alarm& a : v.alarms)
    if (!a.acknowledged) latest = &a;
  if (latest) {
    std::snprintf(buf, sizeof buf, "ALARM  %s  TGT %d", alarm_kind_name(latest->kind),
                  latest->track_id);
    std::vector<std::string> lines{buf};
    if (v.unacknowledged > 1) {
      std::snprintf(buf, sizeof buf, "%d ALARMS NOT ACKNOWLEDGED (A)", v.unacknowledged);
      lines.push_back(buf);
    } else {
      lines.push_back("ACKNOWLEDGE: A, or the Alarms panel");
    }
    bottom -= block_height(lines.size()) + 4;
    const ImU32 plate =
        flash ? colour(0.75f, 0.05f, 0.05f, 0.90f) : colour(0.30f, 0.02f, 0.02f, 0.90f);
    text_block(dl, {right, bottom}, true, lines, {colour(1, 1, 1, 1)}, plate);
  }

  // A display client's servers that went silent: at the top, in the centre, over everything.
  const std::vector<std::string> no_data = no_data_lines(v);
  if (!no_data.empty()) {
    float w = 0;
    for (const auto& l : no_data) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
    text_block(dl, {r.x + 0.5f * r.w + 0.5f * w + 6, r.y + 30}, true, no_data, {warn_col},
               colour(0.25f, 0.12f, 0.0f, 0.90f));
  }

  // What the next click does while a zone is drawn or edited: centred under the status lines,
  // on a plate (the heading line and the bearing scale run under it).
  std::vector<std::string> hint;
  if (st.zone_armed) {
    hint.push_back(st.zone_first ? "ZONE: click its second corner"
                                 : "ZONE: click its first corner");
    hint.push_back("Esc cancels");
  } else if (st.polygon_armed && st.polygon.size() < 3) {
    hint.push_back(st.polygon.empty()
                       ? std::string("ZONE: click the polygon's first vertex")
                       : "ZONE: click vertex " + std::to_string(st.polygon.size() + 1));
    hint.push_back(st.polygon.empty() ? "Esc cancels" : "Backspace removes the last, Esc cancels");
  } else if (st.polygon_armed) {
    hint.push_back("ZONE: click the next vertex");
    hint.push_back("Enter, double-click or the first vertex closes it");
    hint.push_back("Backspace removes the last, Esc cancels");
  } else if (st.edit_zone > 0) {
    hint.push_back("ZONE Z" + std::to_string(st.edit_zone) + ": drag a handle to edit it");
    hint.push_back("Esc ends");
  }
  if (!hint.empty()) {
    float w = 0;
    for (const auto& l : hint) w = std::max(w, ImGui::CalcTextSize(l.c_str()).x);
    text_block(dl, {r.x + 0.5f * r.w + 0.5f * w + 6, r.y + 12 + line_h * float(st.status_lines)},
               true, hint, {edit_col, text_col}, plate_col);
  }
  dl->PopClipRect();
}

}  // namespace sweepline::ui
