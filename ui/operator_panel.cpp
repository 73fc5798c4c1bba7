#include "ui/operator_panel.hpp"

#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "render/orientation.hpp"
#include "ui/console.hpp"
#include "ui/range_scale.hpp"

namespace sweepline::ui {

namespace {

constexpr double kNm = 1852.0;

}  // namespace

void picture_controls(Console& console) {
  ViewSettings& v = console.view_settings();
  // The range scale: the standard ones (the displayed radius; a script's zoom may sit between).
  const double shown_nm = console.view().range_scale_m() / kNm;
  const std::string current = format_nm(shown_nm) + " NM";
  ImGui::SetNextItemWidth(110);
  if (ImGui::BeginCombo("Range", current.c_str())) {
    for (const RangeScale& s : kRangeScales) {
      const std::string name = format_nm(s.range_nm) + " NM  (rings " + format_nm(s.ring_nm) + ")";
      if (ImGui::Selectable(name.c_str(), std::abs(s.range_nm - shown_nm) < 1e-3 * s.range_nm))
        console.set_range_scale(s.range_nm * kNm);
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  if (ImGui::Button("-##range")) console.step_range_scale(-1);
  ImGui::SameLine();
  if (ImGui::Button("+##range")) console.step_range_scale(+1);
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Keys + - (or PgDn PgUp) and the wheel step the range scale.");

  int o = int(console.orientation());
  const char* orientations[] = {"North-up", "Head-up", "Course-up"};
  ImGui::SetNextItemWidth(110);
  if (ImGui::Combo("Orientation", &o, orientations, 3))
    console.set_orientation(render::Orientation(o));
  int m = int(console.motion());
  const char* motions[] = {"Relative", "True"};
  ImGui::SetNextItemWidth(110);
  if (ImGui::Combo("Motion", &m, motions, 2)) console.set_motion(render::Motion(m));
  if (console.motion() == render::Motion::True && !console.ship().position_valid) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f), "no position");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "True motion needs own ship's position (NMEA or the simulator's own ship).\n"
          "Until it comes the radar stays where it is, as in relative motion.");
  }
  if (ImGui::Checkbox("Off-centre", &v.off_centre)) console.reset_view();
  ImGui::SameLine();
  if (ImGui::Button("Reset view")) console.reset_view();
  ImGui::SameLine();
  if (ImGui::Button("Keys (F1)")) console.key_help() = !console.key_help();
}

void ebl_vrm_controls(Console& console) {
  OperatorMarkers& mk = console.markers();
  const double heading = console.ship().heading_deg;
  for (int i = 0; i < kMarkers; ++i) {
    Marker& m = mk.marker[size_t(i)];
    ImGui::PushID(i);
    char label[16];
    std::snprintf(label, sizeof label, "%d", i + 1);
    ImGui::RadioButton(label, &mk.active, i);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The pair keys and Ctrl+click adjust");
    ImGui::SameLine();
    ImGui::Checkbox("EBL", &m.ebl_on);
    ImGui::SameLine();
    float b = float(m.ebl_deg);
    ImGui::SetNextItemWidth(92);
    if (ImGui::DragFloat("##ebl", &b, 0.1f, 0.0f, 360.0f, m.ebl_true ? "%05.1f T" : "%05.1f R",
                         ImGuiSliderFlags_AlwaysClamp)) {
      m.ebl_deg = std::fmod(double(b) + 360.0, 360.0);
      m.ebl_on = true;
    }
    ImGui::SameLine();
    bool t = m.ebl_true;
    if (ImGui::Checkbox("T", &t)) set_ebl_true(m, t, heading);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("True bearing (off: relative to the bow)");
    ImGui::Dummy({ImGui::GetFrameHeight(), 0});
    ImGui::SameLine();
    ImGui::Checkbox("VRM", &m.vrm_on);
    ImGui::SameLine();
    float r = float(m.vrm_m / kNm);
    ImGui::SetNextItemWidth(92);
    const float step = float(0.002 * console.view().range_scale_m() / kNm);
    if (ImGui::DragFloat("##vrm", &r, step, 0.0f, 96.0f, "%.3f NM", ImGuiSliderFlags_AlwaysClamp)) {
      m.vrm_m = double(r) * kNm;
      m.vrm_on = true;
    }
    ImGui::SameLine();
    if (ImGui::Checkbox("Float", &m.floating) && m.floating)
      m.origin = {};  // dropped where own ship is now; D on the PPI drops it at the cursor
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("Origin away from own ship: press D with the cursor on the PPI");
    ImGui::PopID();
  }
  ImGui::Checkbox("ERBL", &mk.erbl.on);
  ImGui::SameLine();
  ImGui::TextDisabled("Shift+drag on the PPI");
}

}  // namespace sweepline::ui
