#include "ui/source_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "app/engine/engine.hpp"
#include "app/source/source_uri.hpp"
#include "ui/console.hpp"

namespace sweepline::ui {

using engine::Engine;
using engine::SourceSettings;

namespace {

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

}  // namespace

SourceTab form_from_uri(const std::string& uri, SourceSettings& form) {
  source::ParsedUri u;
  try {
    u = source::parse_uri(uri);
  } catch (const std::exception&) {
    return SourceTab::None;  // the form keeps what it had; the error shows below it
  }
  auto query = [&u](const char* key) -> const std::string* {
    const auto it = u.query.find(key);
    return it == u.query.end() ? nullptr : &it->second;
  };
  if (u.scheme == "sim") {
    form.scenario = u.body;
    if (const std::string* v = query("seed")) form.seed = std::atoi(v->c_str());
    if (const std::string* v = query("rpm")) form.rpm = std::atof(v->c_str());
    return SourceTab::Simulator;
  }
  if (u.scheme == "udp") {
    const size_t colon = u.body.rfind(':');
    form.udp_group = u.body.substr(0, colon);
    if (colon != std::string::npos) form.udp_port = std::atoi(u.body.c_str() + colon + 1);
    const std::string* iface = query("iface");
    form.udp_interface = iface ? *iface : std::string();
    return SourceTab::Udp;
  }
  if (uri != "-") form.file_path = uri;  // the whole URI: its replay options open again with it
  return SourceTab::File;
}

void source_panel(Engine& st, Console& console) {
  // The form is the engine's (it also names the recording's destination): edit a copy, send it.
  SourceSettings so = st.settings().source;
  auto sent = [&](bool changed) {
    if (changed) st.set_source_form(so);
  };
  // Where the items a test clicks were drawn (this frame's only).
  console.forget_widgets("source.");
  auto note = [&console](const char* name) {
    const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
    console.note_widget(name, {lo.x, lo.y, hi.x - lo.x, hi.y - lo.y});
  };
  // When another source starts (the command line, the settings, a button), the form takes its
  // parameters and its tab comes to the front. The URI last shown is kept in ImGui's storage
  // for this window, so the operator's own tab choice stands until the source changes.
  SourceTab front = SourceTab::None;
  {
    ImGuiStorage* store = ImGui::GetStateStorage();
    const ImGuiID key = ImGui::GetID("shown_source_uri");
    const ImGuiID shown = ImGui::GetID(so.uri.c_str());
    if (store->GetInt(key, 0) != int(shown)) {
      store->SetInt(key, int(shown));
      front = form_from_uri(so.uri, so);
      st.set_source_form(so);
    }
  }
  auto tab_flags = [front](SourceTab t) {
    return front == t ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None;
  };
  if (ImGui::BeginTabBar("source_tabs")) {
    if (ImGui::BeginTabItem("Simulator", nullptr, tab_flags(SourceTab::Simulator))) {
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
      note("source.sim.scenario");
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
    if (ImGui::BeginTabItem("File", nullptr, tab_flags(SourceTab::File))) {
      char path[512];
      std::snprintf(path, sizeof path, "%s", so.file_path.c_str());
      if (ImGui::InputText("Path", path, sizeof path)) {
        so.file_path = path;
        sent(true);
      }
      note("source.file.path");
      if (ImGui::Button("Open file")) st.open_source(so.file_path);
      note("source.file.open");
      help_marker("pcap, pcapng, raw ASTERIX or FINAL; the format is detected from the content");
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("UDP", nullptr, tab_flags(SourceTab::Udp))) {
      char group[64], iface[64];
      std::snprintf(group, sizeof group, "%s", so.udp_group.c_str());
      std::snprintf(iface, sizeof iface, "%s", so.udp_interface.c_str());
      if (ImGui::InputText("Group", group, sizeof group)) {
        so.udp_group = group;
        sent(true);
      }
      note("source.udp.group");
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
  ImGui::TextWrapped("Playing: %s", so.uri.c_str());
  if (v.replayable) {
    if (ImGui::Button(v.paused ? "Play" : "Pause", ImVec2(70, 0))) st.set_paused(!v.paused);
    note("source.play");
    ImGui::SameLine();
    if (ImGui::Button("<")) st.step_rotation(-1);
    ImGui::SameLine();
    if (ImGui::Button("Step >")) st.step_rotation(+1);
    ImGui::SameLine();
    bool loop = v.loop;
    if (ImGui::Checkbox("Loop", &loop)) st.set_loop(loop);
    note("source.loop");
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

}  // namespace sweepline::ui
