#include "ui/tracking_panels.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/engine/engine.hpp"
#include "ui/console.hpp"
#include "ui/track_view.hpp"

namespace sweepline::ui {

namespace {

const ImVec4 kWarn(1.0f, 0.75f, 0.3f, 1.0f);
const ImVec4 kError(1.0f, 0.45f, 0.35f, 1.0f);
const ImVec4 kDanger(1.0f, 0.30f, 0.25f, 1.0f);
const ImVec4 kTitle(0.45f, 0.85f, 0.75f, 1.0f);

void section(const char* title) {
  ImGui::Spacing();
  ImGui::TextColored(kTitle, "%s", title);
  ImGui::Separator();
}

bool slider_double(const char* label, double& v, double lo, double hi, const char* format,
                   ImGuiSliderFlags flags = 0) {
  return ImGui::SliderScalar(label, ImGuiDataType_Double, &v, &lo, &hi, format,
                             flags | ImGuiSliderFlags_AlwaysClamp);
}

std::string zone_text(const track::AcquisitionZone& z) {
  char buf[96];
  if (z.kind == track::AcquisitionZone::Kind::Polygon) {
    std::snprintf(buf, sizeof buf, "polygon, %d vertices", int(z.polygon.size()));
  } else {
    std::snprintf(buf, sizeof buf, "%.2f-%.2f NM  %05.1f-%05.1f %s", z.range_min_m / kMetresPerNm,
                  z.range_max_m / kMetresPerNm, z.bearing_from_deg, z.bearing_to_deg,
                  z.relative_to_heading ? "R" : "T");
  }
  return buf;
}

void zones_section(engine::Engine& eng, Console& console) {
  const engine::TrackingView& v = eng.tracking();
  section("Acquisition zones");
  if (v.zones.empty()) ImGui::TextDisabled("No zone");
  int remove = 0;
  for (const auto& [id, z] : v.zones) {
    ImGui::PushID(id);
    if (ImGui::SmallButton("Delete")) remove = id;
    ImGui::SameLine();
    const bool editing = console.edited_zone() == id;
    if (ImGui::SmallButton(editing ? "Done" : "Edit")) console.edit_zone(editing ? 0 : id);
    if (ImGui::IsItemHovered() && !editing)
      ImGui::SetTooltip(
          "Handles on the PPI: drag a polygon's vertices, or an arc's corners\n"
          "(inner range and first bearing, outer range and second bearing).");
    ImGui::SameLine();
    ImGui::Text("Z%d  %s", id, zone_text(z).c_str());
    ImGui::PopID();
  }
  if (remove) eng.remove_zone(remove);

  ZoneForm& form = console.zone_form();
  ImGui::BeginDisabled(!v.enabled);
  if (!console.zone_armed() && !console.polygon_armed()) {
    if (ImGui::Button("Draw arc zone")) console.begin_zone(form.relative_to_heading);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "Two clicks on the PPI: one corner of the arc, then the opposite one.\n"
          "The arc runs clockwise from the first click's bearing.");
    ImGui::SameLine();
    if (ImGui::Button("Draw polygon zone")) console.begin_polygon_zone();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "A click on the PPI for each vertex; Enter, a double-click or a click\n"
          "on the first vertex closes it. Backspace removes the last vertex.");
  } else {
    if (ImGui::Button("Stop drawing (Esc)")) console.cancel_zone();
    if (console.polygon_armed()) {
      ImGui::SameLine();
      ImGui::BeginDisabled(console.polygon_vertices().size() < 3);
      if (ImGui::Button("Close (Enter)")) console.close_polygon_zone();
      ImGui::EndDisabled();
      ImGui::SameLine();
      ImGui::BeginDisabled(console.polygon_vertices().empty());
      if (ImGui::Button("Undo vertex")) console.undo_polygon_vertex();
      ImGui::EndDisabled();
    }
  }
  ImGui::Checkbox("Relative to heading", &form.relative_to_heading);
  ImGui::PushItemWidth(80);
  ImGui::InputDouble("##rmin", &form.range_min_nm, 0, 0, "%.2f");
  ImGui::SameLine();
  ImGui::TextUnformatted("to");
  ImGui::SameLine();
  ImGui::InputDouble("NM##rmax", &form.range_max_nm, 0, 0, "%.2f");
  ImGui::InputDouble("##bfrom", &form.bearing_from_deg, 0, 0, "%05.1f");
  ImGui::SameLine();
  ImGui::TextUnformatted("to");
  ImGui::SameLine();
  ImGui::InputDouble("deg##bto", &form.bearing_to_deg, 0, 0, "%05.1f");
  ImGui::PopItemWidth();
  if (ImGui::Button("Add arc zone")) {
    track::AcquisitionZone z;
    z.kind = track::AcquisitionZone::Kind::Arc;
    z.range_min_m = form.range_min_nm * kMetresPerNm;
    z.range_max_m = form.range_max_nm * kMetresPerNm;
    z.bearing_from_deg = form.bearing_from_deg;
    z.bearing_to_deg = form.bearing_to_deg;
    z.relative_to_heading = form.relative_to_heading;
    eng.add_zone(z);
  }
  ImGui::EndDisabled();
}

void status_section(const engine::Engine& eng) {
  const engine::TrackingView& v = eng.tracking();
  section("Own ship and tracker");
  const nav::OwnShipState& o = v.own_ship;
  ImGui::Text("Own ship: %s%s", engine::to_string(v.own_ship_source),
              v.relative_only ? "  (tracks relative)" : "");
  if (o.valid)
    ImGui::Text("COG %05.1f  SOG %.1f kn  HDG %05.1f%s", o.course_deg, o.speed_mps * kKnotsPerMps,
                o.heading_deg, o.heading_from_cog ? " (COG)" : "");
  else if (o.heading_valid)
    ImGui::Text("HDG %05.1f (no position)", o.heading_deg);
  if (!v.warning.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
    ImGui::TextWrapped("%s", v.warning.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Text("Updates %llu  resets %llu  plots fed %zu", (unsigned long long)v.updates,
              (unsigned long long)v.resets, v.plots_fed);
  ImGui::Text("Update %.2f ms (max %.2f)", v.update_ms, v.update_ms_max);
  ImGui::Text("Started %llu  confirmed %llu  lost %llu", (unsigned long long)v.stats.tracks_started,
              (unsigned long long)v.stats.tracks_confirmed,
              (unsigned long long)v.stats.tracks_lost);
  if (v.stats.refused_capacity)
    ImGui::TextColored(kWarn, "Refused at capacity: %llu",
                       (unsigned long long)v.stats.refused_capacity);
  if (v.nmea_active || !v.nmea_error.empty())
    ImGui::Text("NMEA: %s", v.nmea_error.empty() ? "receiving" : v.nmea_error.c_str());
}

}  // namespace

void tracking_panel(engine::Engine& eng, Console& console) {
  const engine::TrackingView& v = eng.tracking();
  if (v.remote)
    ImGui::TextWrapped(
        "Tracks from the servers' CAT048 (tracks= of the source): no tracker runs here; the "
        "limits and vectors below apply to the display.");
  engine::TrackingSettings s = eng.settings().tracking;
  bool changed = false;
  changed |= ImGui::Checkbox("Tracking", &s.enabled);
  ImGui::SameLine();
  changed |= ImGui::Checkbox("Auto-acquire", &s.auto_acquire);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "On: any new echo may start a track.\n"
        "Off: only echoes inside an acquisition zone, and manual acquisition\n"
        "(a click on the PPI).");
  ImGui::PushItemWidth(-110);
  changed |= slider_double("CPA limit", s.cpa_limit_nm, 0.0, 6.0, "%.2f NM");
  changed |= slider_double("TCPA limit", s.tcpa_limit_min, 0.0, 60.0, "%.0f min");
  changed |= slider_double("Vector time", s.vector_minutes, 0.0, 30.0, "%.0f min");
  ImGui::PopItemWidth();
  int mode = s.vector_mode == "relative" ? 1 : 0;
  const int was = mode;
  ImGui::TextUnformatted("Vectors, trails");
  ImGui::SameLine();
  ImGui::RadioButton("True", &mode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("Relative", &mode, 1);
  if (mode != was) {
    s.vector_mode = mode ? "relative" : "true";
    changed = true;
  }
  if (v.relative_only && v.enabled) ImGui::TextColored(kWarn, "No own ship: relative only");
  changed |= ImGui::Checkbox("Trails", &s.trails);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  ImGui::BeginDisabled(!s.trails);
  changed |= slider_double("##trail", s.trail_minutes, 0.5, 30.0, "%.1f min past");
  ImGui::EndDisabled();
  if (changed) eng.set_tracking_settings(s);
  if (!v.command_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kError);
    ImGui::TextWrapped("%s", v.command_error.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::BeginDisabled(!v.enabled);
  if (ImGui::Button("Cancel all targets")) {
    eng.cancel_all_tracks();
    console.select_track(0);
  }
  ImGui::SameLine();
  if (ImGui::Button("Reset tracking")) eng.reset_tracking();
  ImGui::EndDisabled();
  zones_section(eng, console);
  status_section(eng);
}

// A display client's servers: one line each in its colour, with its SAC/SIC and state.
void remote_sources_section(const engine::TrackingView& v) {
  for (size_t i = 0; i < v.remote_sources.size(); ++i) {
    const net::RemoteSourceStatus& s = v.remote_sources[i];
    const Rgb c = source_colour(int(i));
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetTextLineHeight();
    ImGui::GetWindowDrawList()->AddRectFilled({p.x, p.y + 2}, {p.x + h - 4, p.y + h - 2},
                                              ImGui::GetColorU32(ImVec4(c.r, c.g, c.b, 1.0f)));
    ImGui::Dummy(ImVec2(h, h));
    ImGui::SameLine();
    if (s.stale)
      ImGui::TextColored(kWarn, "%s", source_line(s).c_str());
    else
      ImGui::TextUnformatted(source_line(s).c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "%llu datagrams, %llu track reports, %llu scans\n"
          "dropped: %llu by the kernel, %llu by the queue; %llu malformed",
          (unsigned long long)s.datagrams, (unsigned long long)s.track_reports,
          (unsigned long long)s.scans, (unsigned long long)s.kernel_dropped,
          (unsigned long long)s.queue_dropped, [&s] {
            unsigned long long n = 0;
            for (const auto& [k, m] : s.errors) n += m;
            return n;
          }());
  }
}

void targets_panel(engine::Engine& eng, Console& console) {
  const engine::TrackingView& v = eng.tracking();
  if (!v.enabled) {
    ImGui::TextDisabled("Tracking is off (Tracking panel)");
    return;
  }
  if (v.remote) remote_sources_section(v);
  const bool ground = !v.relative_only && v.own_ship.valid;
  ImGui::Text("%d tracks%s", int(v.tracks.size()), ground ? "" : "  (relative)");
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Click a row to select its target, right-click it to cancel it.\n"
        "On the PPI: click a symbol to select it, click an echo to acquire it,\n"
        "right-click for the menu; Del cancels the selected target.\n"
        "Course and speed are true over ground, or relative without own ship.");
  const float table_h =
      std::max(ImGui::GetContentRegionAvail().y - 6 * ImGui::GetTextLineHeightWithSpacing(),
               4 * ImGui::GetTextLineHeightWithSpacing());
  // Every column in the panel's width (no horizontal scrolling): the values are short.
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
  int cancel = 0;
  // Eight columns in the panel's width: narrow cell padding, whole degrees (the data box has
  // the tenths).
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(2, 1));
  // The headers reserve room for a sort arrow in every column, its frame padding included.
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(1, ImGui::GetStyle().FramePadding.y));
  if (ImGui::BeginTable("tracks", kTargetColumns, flags, ImVec2(0, table_h))) {
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("Id", ImGuiTableColumnFlags_DefaultSort, 0, ImGuiID(TargetColumn::Id));
    ImGui::TableSetupColumn("NM", 0, 0, ImGuiID(TargetColumn::Range));
    ImGui::TableSetupColumn("BRG", 0, 0, ImGuiID(TargetColumn::Bearing));
    ImGui::TableSetupColumn("CRS", 0, 0, ImGuiID(TargetColumn::Course));
    ImGui::TableSetupColumn("KN", 0, 0, ImGuiID(TargetColumn::Speed));
    ImGui::TableSetupColumn("CPA", 0, 0, ImGuiID(TargetColumn::Cpa));
    ImGui::TableSetupColumn("TCPA", 0, 0, ImGuiID(TargetColumn::Tcpa));
    ImGui::TableSetupColumn("ST", 0, 0, ImGuiID(TargetColumn::Status));
    ImGui::TableHeadersRow();
    // The snapshot changes every frame: sort each time (a few thousand rows at most).
    std::vector<const track::Track*> rows;
    rows.reserve(v.tracks.size());
    for (const track::Track& t : v.tracks) rows.push_back(&t);
    if (const ImGuiTableSortSpecs* spec = ImGui::TableGetSortSpecs(); spec && spec->SpecsCount > 0)
      sort_targets(rows, TargetColumn(spec->Specs[0].ColumnUserID),
                   spec->Specs[0].SortDirection != ImGuiSortDirection_Descending);
    ImGuiListClipper clipper;
    clipper.Begin(int(rows.size()));
    while (clipper.Step()) {
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
        const track::Track& t = *rows[size_t(i)];
        const TrackSymbol sym = track_symbol(t, v.alarms, console.selected_track());
        ImGui::PushID(t.id);
        ImGui::TableNextRow();
        const bool lost = t.status == track::Track::Status::Lost;
        if (sym.dangerous)
          ImGui::PushStyleColor(ImGuiCol_Text, kDanger);
        else if (lost || t.status == track::Track::Status::Acquiring)
          ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.65f, 0.68f, 0.70f, 1.0f));
        else
          ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_Text));
        ImGui::TableNextColumn();
        if (v.remote) {
          const Rgb c = source_colour(engine::remote_source_of(t.id));
          ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(c.r, c.g, c.b, 1.0f));
        }
        const bool picked = ImGui::Selectable(track_label(t, v.remote).c_str(), sym.selected,
                                              ImGuiSelectableFlags_SpanAllColumns);
        if (v.remote) ImGui::PopStyleColor();
        if (picked) console.select_track(t.id);
        // The servers' tracks are theirs to cancel: a display only selects.
        if (!v.remote && ImGui::BeginPopupContextItem("row")) {
          if (ImGui::MenuItem("Select")) console.select_track(t.id);
          if (ImGui::MenuItem("Cancel target", "Del")) cancel = t.id;
          ImGui::EndPopup();
        }
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", t.range_m / kMetresPerNm);
        ImGui::TableNextColumn();
        ImGui::Text("%03.0f", t.bearing_deg);
        ImGui::TableNextColumn();
        if (lost || t.status == track::Track::Status::Acquiring)
          ImGui::TextUnformatted("--");
        else
          ImGui::Text("%03.0f", t.course_deg);
        ImGui::TableNextColumn();
        if (lost || t.status == track::Track::Status::Acquiring)
          ImGui::TextUnformatted("--");
        else
          ImGui::Text("%.1f", t.speed_mps * kKnotsPerMps);
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", t.cpa_m / kMetresPerNm);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(tcpa_text(t).c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%s%s", status_name(t.status), sym.flashing ? "!" : "");
        ImGui::PopStyleColor();
        ImGui::PopID();
      }
    }
    ImGui::EndTable();
  }
  ImGui::PopStyleVar(2);
  if (cancel) eng.cancel_track(cancel);

  // The selected target's data.
  const track::Track* sel = nullptr;
  for (const track::Track& t : v.tracks)
    if (t.id == console.selected_track()) sel = &t;
  if (!sel) {
    ImGui::TextDisabled("No target selected");
    return;
  }
  const std::vector<std::string> lines = data_box_lines(*sel, ground);
  for (const std::string& l : lines) {
    if (l == "DANGEROUS")
      ImGui::TextColored(kDanger, "%s", l.c_str());
    else
      ImGui::TextUnformatted(l.c_str());
  }
  if (!v.remote && ImGui::Button("Cancel target")) console.cancel_selected();
}

void alarms_panel(engine::Engine& eng, Console& console) {
  const engine::TrackingView& v = eng.tracking();
  if (v.unacknowledged > 0)
    ImGui::TextColored(kDanger, "%d not acknowledged", v.unacknowledged);
  else
    ImGui::TextDisabled("%d alarms, all acknowledged", int(v.alarms.size()));
  ImGui::SameLine();
  ImGui::BeginDisabled(v.unacknowledged == 0);
  if (ImGui::SmallButton("Acknowledge all (A)")) eng.acknowledge_all_alarms();
  ImGui::EndDisabled();
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("alarms", 4, flags, ImVec2(0, ImGui::GetContentRegionAvail().y))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("Time");
  ImGui::TableSetupColumn("Alarm");
  ImGui::TableSetupColumn("Tgt");
  ImGui::TableSetupColumn("Ack");
  ImGui::TableHeadersRow();
  int ack = 0;
  // Newest first: what the operator has to act on is at the top.
  ImGuiListClipper clipper;
  clipper.Begin(int(v.alarms.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const track::Alarm& a = v.alarms[v.alarms.size() - 1 - size_t(i)];
      ImGui::PushID(a.id);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(clock_text(a.time_s).c_str());
      ImGui::TableNextColumn();
      if (a.acknowledged)
        ImGui::TextUnformatted(alarm_kind_name(a.kind));
      else
        ImGui::TextColored(kDanger, "%s", alarm_kind_name(a.kind));
      ImGui::TableNextColumn();
      char id[16];
      std::snprintf(id, sizeof id, "%d", a.track_id);
      if (ImGui::Selectable(id, console.selected_track() == a.track_id))
        console.select_track(a.track_id);
      ImGui::TableNextColumn();
      if (a.acknowledged)
        ImGui::TextDisabled("yes");
      else if (ImGui::SmallButton("Ack"))
        ack = a.id;
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
  if (ack) eng.acknowledge_alarm(ack);
}

}  // namespace sweepline::ui
